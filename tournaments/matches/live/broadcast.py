"""How a recording's new state reaches its followers (``follow``): each write publishes it on
commit, over Redis pub/sub to every follow server (``LIVE_FOLLOW_REDIS_URL``, the cache's Redis),
and directly to the event loops of the writer's own process that follow matches (development,
tests, a site served whole by one ASGI process).

It is a hint, never the truth: a follower that misses a message asks the shared state again
within ``follow.RECHECK_SECONDS``, so a Redis failure is logged and the write goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import weakref
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from tournaments.matches.live.board import clock_fields

log = logging.getLogger(__name__)

#: The Redis pub/sub channel of the recordings' new states.
CHANNEL = "nardy:live-follow"
#: After a failure to publish, this process leaves Redis alone this long.
QUIET_SECONDS = 5.0


@dataclass(frozen=True)
class SharedState:
    """What every reader of a match's recording gets, computed once per version: the state as
    JSON, rendered once for all (a spectator's poll then costs neither building the state from
    the cache nor rendering it), and its ETag."""

    body: bytes
    etag: str
    #: Anyone may read it (its tournament is past its draft): no query per spectator.
    public: bool
    #: A timed match's clocks at its last event (``clock_basis``, as JSON): each answer reads
    #: them at its own moment (``body_at``). Empty: no clock, the body says ``"clocks": null``.
    clock: bytes = b""

    @property
    def state(self) -> dict[str, Any]:
        return json.loads(self.body_at(time.time()))  # type: ignore[no-any-return]

    def body_at(self, now: float) -> bytes:
        """The body with the clocks read at ``now`` (seconds, the server's time): the body's
        closing brace makes room for them, so the state is not parsed nor rendered again."""
        if not self.clock:
            return self.body
        fields = clock_fields(json.loads(self.clock), now)
        tail = json.dumps(fields, separators=(",", ":")).encode()
        return self.body[:-1] + b"," + tail[1:]


Listener = Callable[[int, SharedState], None]
_listeners: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Listener] = (
    weakref.WeakKeyDictionary()
)
_lock = threading.Lock()


def listen_in(loop: asyncio.AbstractEventLoop, listener: Listener) -> None:
    """Call ``listener(match_id, shared)`` in ``loop`` for each state this process publishes."""
    with _lock:
        _listeners[loop] = listener


class _Redis:
    lock = threading.Lock()
    client: Any = None
    quiet_until = 0.0


def publish(match_id: int, shared: SharedState) -> None:
    """Tell the match's followers its new state."""
    with _lock:
        listeners = [(loop, f) for loop, f in _listeners.items() if not loop.is_closed()]
    for loop, listener in listeners:
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(listener, match_id, shared)
    url = settings.LIVE_FOLLOW_REDIS_URL
    if not url or time.monotonic() < _Redis.quiet_until:
        return
    import redis  # noqa: PLC0415  (only where followers are served over Redis)

    try:
        with _Redis.lock:
            if _Redis.client is None:
                _Redis.client = redis.Redis.from_url(
                    url, socket_timeout=0.5, socket_connect_timeout=0.5
                )
            client = _Redis.client
        client.publish(CHANNEL, encode(match_id, shared))
    except redis.RedisError as error:
        _Redis.quiet_until = time.monotonic() + QUIET_SECONDS
        log.warning("live follow: could not publish to Redis (%s)", error)


def encode(match_id: int, shared: SharedState) -> bytes:
    head = f"{match_id} {int(shared.public)} {shared.etag}\n".encode()
    return head + shared.clock + b"\n" + shared.body


def decode(message: bytes) -> tuple[int, SharedState]:
    head, _, rest = message.partition(b"\n")
    clock, _, body = rest.partition(b"\n")
    match_id, public, etag = head.decode().split(" ", 2)
    return int(match_id), SharedState(body, etag, public=public == "1", clock=clock)
