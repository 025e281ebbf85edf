"""Spectators follow a recording by long-poll (``tournaments.matches.live.follow``): the follow
server answers the moment an entry is written, 304 when nothing changed in its wait, and hands
what it may not answer (a draft tournament's match, no such match) to Django; writers publish
each new state over Redis to every follow server."""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

import pytest
from django.test import Client, override_settings

from nardy_site.asgi import application
from tests.web.conftest import make_site
from tournaments.matches.live import broadcast, follow
from tournaments.matches.live.services import live_act
from tournaments.matches.live.state import live_shared
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db(transaction=True)
T = TypeVar("T")
REDIS_URL = os.environ.get("FOLLOW_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def run(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run an async scenario in an event loop of its own thread, as a server's would be."""
    return in_a_thread(lambda: asyncio.run(scenario()))


def in_a_thread(call: Callable[[], T]) -> T:
    """``call()`` in a thread of its own, as a server's request would run: this thread may have
    an event loop running already (Playwright's, after a browser test in this process), where
    neither an event loop nor Django's client for an async view may start."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(call).result()


def next_path(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/live/next"


async def asgi_get(path: str, headers: dict[str, str] | None = None) -> tuple[int, dict, bytes]:
    """One GET through the site's ASGI application, as uvicorn would send it."""
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": path, "raw_path": path.encode(), "query_string": b"",
        "root_path": "", "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
        "headers": [(b"host", b"testserver")]
        + [(name.lower().encode(), value.encode()) for name, value in (headers or {}).items()],
    }  # fmt: skip
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await application(scope, receive, send)
    start = sent[0]
    body = b"".join(message.get("body", b"") for message in sent[1:])
    return start["status"], {k.decode(): v.decode() for k, v in start["headers"]}, body


def enter(match_id: int, by_name: str, ply: int, action: dict) -> None:
    """An entry written by a phone, in a thread of its own (as another process would)."""
    match = Match.objects.select_related("tournament").get(pk=match_id)
    live_act(match_id=match.pk, by=match_player(match, by_name), ply=ply, action=action)


def match_player(match: Match, name: str):
    side = match.home if match.home.player.display_name == name else match.away
    return side.player.user


def test_a_follow_answers_at_once_when_behind_and_the_moment_the_next_entry_is_written():
    site = make_site()
    match = site.match("Anna", "Boris")
    enter(match.pk, "Boris", 0, {"first": 1})

    async def scenario() -> None:
        loop = asyncio.get_running_loop()
        status, headers, body = await asgi_get(next_path(match))  # no state yet: at once
        assert status == 200 and headers["cache-control"] == "no-cache"
        etag = headers["etag"]
        waiting = asyncio.create_task(asgi_get(next_path(match), {"If-None-Match": etag}))
        await asyncio.sleep(0.5)
        assert not waiting.done()  # nothing was written: it waits
        await loop.run_in_executor(None, enter, match.pk, "Boris", 1, {"dice": "52"})
        written = time.monotonic()
        status, headers, body = await asyncio.wait_for(waiting, 20)
        answered_after = time.monotonic() - written
        assert status == 200 and headers["etag"] != etag
        assert b'"dice":"52"' in body
        # Woken by the write, not by its wait running out (25 s) or a recheck (5 s).
        assert answered_after < follow.RECHECK_SECONDS

    run(scenario)


@override_settings(LIVE_FOLLOW_WAIT_SECONDS=1)
def test_a_follow_of_a_board_that_stands_still_is_a_304_after_its_wait():
    site = make_site()
    match = site.match("Anna", "Boris")
    etag = live_shared(match_id=match.pk).etag

    async def scenario() -> tuple[int, dict, bytes, float]:
        begin = time.monotonic()
        status, headers, body = await asgi_get(next_path(match), {"If-None-Match": etag})
        return status, headers, body, time.monotonic() - begin

    status, headers, body, took = run(scenario)
    assert (status, headers["etag"], body) == (304, etag, b"")
    assert took >= 1.0  # it waited for a change before answering


def test_what_the_follow_server_may_not_answer_goes_to_django():
    site = make_site()
    match = site.match("Anna", "Boris")
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.DRAFT)

    async def scenario() -> tuple[int, int]:
        hidden, _, _ = await asgi_get(next_path(match))  # Django checks the reader: 404
        missing, _, _ = await asgi_get("/api/v1/matches/999999/live/next")
        return hidden, missing

    assert run(scenario) == (404, 404)
    olga = Client()
    olga.force_login(site.organizer)
    answer = in_a_thread(lambda: olga.get(next_path(match)))
    assert answer.status_code == 200  # the organizer of the draft reads it


def test_under_wsgi_without_waiting_a_follow_answers_at_once():
    site = make_site()
    match = site.match("Anna", "Boris")
    spectator = Client()
    first = in_a_thread(lambda: spectator.get(next_path(match)))
    assert first.status_code == 200 and first.json()["ply"] == 0
    begin = time.monotonic()
    again = in_a_thread(lambda: spectator.get(next_path(match), HTTP_IF_NONE_MATCH=first["ETag"]))
    assert again.status_code == 304 and time.monotonic() - begin < 5
    assert in_a_thread(lambda: spectator.post(next_path(match))).status_code == 405


def redis_or_skip():
    import redis  # noqa: PLC0415

    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5)
    try:
        client.ping()
    except redis.RedisError as error:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Redis at {REDIS_URL} is unreachable: {error}")
        pytest.skip(f"needs Redis at {REDIS_URL}")
    return client


def test_a_write_reaches_a_follow_server_of_another_process_over_redis(monkeypatch):
    redis_or_skip()
    monkeypatch.setattr(broadcast, "CHANNEL", f"nardy:live-follow-test-{os.getpid()}")
    site = make_site()
    match = site.match("Anna", "Boris")
    fetched = live_shared(match_id=match.pk)

    async def scenario() -> bytes:
        loop = asyncio.get_running_loop()

        async def fetch(match_id: int):
            return fetched

        hub = follow.Hub(fetch)  # a follow server's hub: not one this process hands states to
        listening = loop.create_task(follow._listen(hub, REDIS_URL))
        await hub.state(match.pk, max_age=60)
        await asyncio.sleep(0.3)  # subscribed
        changed = loop.create_task(hub.changed(match.pk, timeout=10))
        with override_settings(LIVE_FOLLOW_REDIS_URL=REDIS_URL):
            await loop.run_in_executor(None, enter, match.pk, "Boris", 0, {"dice": "64"})
        await changed
        shared = await hub.state(match.pk, max_age=60)  # as learnt: the fetch is never asked
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening
        assert shared is not None and shared.etag != fetched.etag
        return shared.body

    body = run(scenario)
    assert b'"dice":"64"' in body


def test_a_published_state_reads_back_as_it_was_sent():
    shared = broadcast.SharedState(b'{"ply": 3, "x": "a b\\n"}', '"live-1-2-3-scheduled"', True)
    assert broadcast.decode(broadcast.encode(7, shared)) == (7, shared)
