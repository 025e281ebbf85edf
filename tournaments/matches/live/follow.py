"""Spectators follow a match being recorded by long-poll: ``GET /api/v1/matches/<id>/live/next``
with the ETag of the state they have is answered the moment the recording changes (200, the new
state), or with 304 after ``LIVE_FOLLOW_WAIT_SECONDS`` when nothing did. A spectator sees an
entry as soon as it is written and asks nothing while the board stands still.

Waiting costs a connection, not a thread, so the waiting is done in an event loop:

* ``follow_router`` wraps the site's ASGI application (``nardy_site.asgi``). An ASGI server
  (uvicorn, beside gunicorn; the README's production guide) answers the follows of public
  matches itself, from what its ``Hub`` knows, without Django's request cycle: a follow costs
  well under a millisecond, and a change reaches all of a match's spectators at once. Anything
  else (a draft tournament's match, whose reader must be checked; no such match) goes to Django.
* The hub learns of each write from the writer: ``publish`` is called on commit with the new
  shared state, sent over Redis pub/sub (``LIVE_FOLLOW_REDIS_URL``, the cache's Redis) to every
  follow server, and handed to the event loops of this process. It also asks the shared state
  again (``state.live_shared``) when what it knows is ``RECHECK_SECONDS`` old, so a change
  made by another path (a result typed by an organizer) or a message lost while Redis was away
  is seen that late at worst.
* The Django view of the same URL (``api.live_next``) waits the same way under ASGI, and under
  WSGI only when ``LIVE_FOLLOW_WAIT_UNDER_WSGI`` (development's runserver: a thread per
  request); gunicorn's few threads answer at once, and the page then asks once a second.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import threading
import time
import weakref
from collections.abc import Awaitable, Callable, Collection, MutableMapping
from dataclasses import dataclass, field
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import close_old_connections

from tournaments.errors import NotFound
from tournaments.matches.live import broadcast, state
from tournaments.matches.live.broadcast import SharedState

log = logging.getLogger(__name__)

#: What a hub knows of a match is asked again after this long (a change by another path, a lost
#: message), by one request per match and event loop however many wait.
RECHECK_SECONDS = 5.0
#: A match nobody followed for this long is forgotten.
FORGET_SECONDS = 600.0
#: A follow server answers these paths itself (for public matches).
NEXT_PATH = re.compile(r"^/api/v1/matches/(\d+)/live/next$")

Scope = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[MutableMapping[str, Any]]]
Send = Callable[[MutableMapping[str, Any]], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def given_etags(header: str) -> set[str]:
    """The ETags of an ``If-None-Match`` header."""
    return {tag.strip() for tag in header.split(",") if tag.strip()}


# --- What one event loop knows ------------------------------------------------------------------


@dataclass
class _Known:
    shared: SharedState | None  # None: no such match
    learnt: float  # monotonic
    asked: float
    changed: asyncio.Event = field(default_factory=asyncio.Event)


class Hub:
    """The shared states of the matches followed in one event loop, and an event per match set
    when its state changes. A state is fetched by one request per match at a time."""

    def __init__(self, fetch: Callable[[int], Awaitable[SharedState | None]]) -> None:
        self._fetch = fetch
        self._known: dict[int, _Known] = {}
        self._fetching: dict[int, asyncio.Future[SharedState | None]] = {}

    async def state(self, match_id: int, *, max_age: float) -> SharedState | None:
        """The match's shared state, as learnt at most ``max_age`` seconds ago."""
        now = time.monotonic()
        known = self._known.get(match_id)
        if known is not None:
            known.asked = now
            if now - known.learnt < max_age:
                return known.shared
        fetching = self._fetching.get(match_id)
        if fetching is None:
            fetching = asyncio.ensure_future(self._fetch_and_learn(match_id, now))
            self._fetching[match_id] = fetching
            fetching.add_done_callback(lambda _: self._fetching.pop(match_id, None))
        return await asyncio.shield(fetching)

    async def _fetch_and_learn(self, match_id: int, started: float) -> SharedState | None:
        shared = await self._fetch(match_id)
        known = self._known.get(match_id)
        if known is not None and known.learnt > started:  # a message came in meanwhile: newer
            return known.shared
        self.learn(match_id, shared, at=started)
        return shared

    def learn(self, match_id: int, shared: SharedState | None, *, at: float | None = None) -> None:
        """The match's state is ``shared`` now: wake its followers when it changed."""
        now = time.monotonic()
        known = self._known.get(match_id)
        if known is None:
            self._forget_unasked(now)
            self._known[match_id] = _Known(shared, at or now, now)
            return
        before = known.shared
        known.shared, known.learnt = shared, max(known.learnt, at or now)
        if (before and before.etag) != (shared and shared.etag):
            known.changed.set()
            known.changed = asyncio.Event()

    def learn_if_followed(self, match_id: int, shared: SharedState) -> None:
        if match_id in self._known:
            self.learn(match_id, shared)

    def forget_all(self) -> None:
        """Ask every match again (messages may have been lost)."""
        for known in self._known.values():
            known.learnt = 0.0

    async def changed(self, match_id: int, *, timeout: float) -> None:
        """Until the match's state changes, or ``timeout`` seconds."""
        known = self._known.get(match_id)
        if known is None:
            return
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(known.changed.wait(), timeout)

    def _forget_unasked(self, now: float) -> None:
        for match_id in [m for m, k in self._known.items() if now - k.asked > FORGET_SECONDS]:
            del self._known[match_id]


async def follow(
    hub: Hub, match_id: int, given: Collection[str], *, wait: float, recheck: float
) -> SharedState | None:
    """The match's state once it is not one of ``given``, or after ``wait`` seconds (None: no
    such match)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while True:
        shared = await hub.state(match_id, max_age=recheck)
        remaining = deadline - loop.time()
        if shared is None or shared.etag not in given or remaining <= 0:
            return shared
        await hub.changed(match_id, timeout=min(remaining, recheck))


def _fetch_now(match_id: int) -> SharedState | None:
    close_old_connections()
    try:
        return state.live_shared(match_id=match_id)
    except NotFound:
        return None
    finally:
        close_old_connections()


fetch_shared = sync_to_async(_fetch_now)

# The hub of each event loop of this process that follows matches.
_hubs: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Hub] = weakref.WeakKeyDictionary()
_hubs_lock = threading.Lock()


def loop_hub() -> Hub:
    """The running event loop's hub, which this process's writers tell of each change."""
    loop = asyncio.get_running_loop()
    with _hubs_lock:
        hub = _hubs.get(loop)
        if hub is None:
            hub = _hubs[loop] = Hub(fetch_shared)
            broadcast.listen_in(loop, hub.learn_if_followed)
    return hub


# --- The follow server ---------------------------------------------------------------------------


# One Redis subscription per follow server's event loop, feeding its hub.
_listening: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Task[None]] = (
    weakref.WeakKeyDictionary()
)


def _subscribe(hub: Hub) -> None:
    url = settings.LIVE_FOLLOW_REDIS_URL
    loop = asyncio.get_running_loop()
    if url and loop not in _listening:
        _listening[loop] = loop.create_task(_listen(hub, url))


async def _listen(hub: Hub, url: str) -> None:
    import redis.asyncio as aioredis  # noqa: PLC0415
    from redis.exceptions import RedisError  # noqa: PLC0415

    while True:
        try:
            client = aioredis.Redis.from_url(url)
            async with client.pubsub() as pubsub:
                await pubsub.subscribe(broadcast.CHANNEL)
                hub.forget_all()
                async for message in pubsub.listen():
                    if message["type"] == "message":
                        hub.learn_if_followed(*broadcast.decode(message["data"]))
        except (RedisError, OSError) as error:
            log.warning("live follow: Redis subscription lost (%s); again in 1 s", error)
            await asyncio.sleep(1.0)


def follow_router(django: ASGIApp) -> ASGIApp:
    """The site's ASGI application, answering the follows of public matches itself."""

    async def application(scope: Scope, receive: Receive, send: Send) -> None:
        found = NEXT_PATH.match(scope.get("path", "")) if scope["type"] == "http" else None
        if (
            found is not None
            and scope["method"] in ("GET", "HEAD")
            and await _serve_follow(int(found[1]), scope, send)
        ):
            return
        await django(scope, receive, send)

    return application


async def _serve_follow(match_id: int, scope: Scope, send: Send) -> bool:
    """Answer a follow of a public match (False: Django answers it)."""
    hub = loop_hub()
    _subscribe(hub)
    headers = dict(scope["headers"])
    given = given_etags(headers.get(b"if-none-match", b"").decode("latin-1"))
    shared = await hub.state(match_id, max_age=RECHECK_SECONDS)
    if shared is None or not shared.public:
        return False
    shared = await follow(
        hub, match_id, given, wait=settings.LIVE_FOLLOW_WAIT_SECONDS, recheck=RECHECK_SECONDS
    )
    if shared is None or not shared.public:
        return False
    unchanged = shared.etag in given
    body = b"" if unchanged or scope["method"] == "HEAD" else shared.body_at(time.time())
    await send(
        {
            "type": "http.response.start",
            "status": 304 if unchanged else 200,
            "headers": [
                (b"content-type", b"application/json"),
                (b"etag", shared.etag.encode()),
                (b"cache-control", b"no-cache"),
                (b"x-content-type-options", b"nosniff"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
    return True
