"""The state of a match's recording, as the phones and every spectator read it.

The state is kept in the cache per version of the draft (the match's status, the draft and its
revision), shared by all readers (``page_cache.fresh_or_stale``); each write stores the new state
there on commit and publishes it to the spectators who wait for it (``broadcast``, ``follow``).
A timed match's state carries the clocks as they were at their last event, and each answer reads
them at its own moment (``SharedState.body_at``)."""

from __future__ import annotations

import functools
import json
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from nardy_site.joined import Compiled
from nardy_site.page_cache import fresh_or_stale, store
from tournaments.errors import Conflict, NotFound
from tournaments.matches.live.board import board_state, clock_basis, clock_fields
from tournaments.matches.live.broadcast import SharedState, publish
from tournaments.matches.live.clocks import clock_of
from tournaments.matches.live.drafts import match_of, resume, side_name
from tournaments.matches.live.models import Draft
from tournaments.matches.live.recording import Recording
from tournaments.models import Match, Tournament

#: Spectators see an entry at most this late (their pages poll every second).
FOLLOW_REFRESH_SECONDS = 1.0


#: The key of a state's clocks at their last event (``clock_basis``), which each answer reads at
#: its own moment (``clock_fields``): never sent as it is.
CLOCK_BASIS = "_clock"


def live_version(*, match_id: int) -> str | None:
    """What the live state depends on (None: no such match): the match's status, and its
    draft's identity and revision."""
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("status", "live_draft__id", "live_draft__revision")
        .first()
    )
    return None if row is None else _version(*row)


def _version(status: str, draft: int | None, revision: int | None) -> str:
    return f"{status}:{draft or 0}:{revision or 0}"


def live_state(*, match_id: int) -> dict[str, Any]:
    """The state of the match's recording, computed once per version for everyone who asks."""
    return live_shared(match_id=match_id).state


def live_shared(*, match_id: int) -> SharedState:
    """The state of the match's recording and who may see it (``NotFound``: no such match); the
    version is asked at most once a second per match however many spectators poll."""

    def version() -> str:
        found = live_version(match_id=match_id)
        if found is None:
            raise NotFound(_("No such match."))
        return found

    refresh = min(FOLLOW_REFRESH_SECONDS, settings.PUBLIC_PAGE_REFRESH_SECONDS)
    return fresh_or_stale(
        _cache_key(match_id), version, lambda: _shared_of(match_of(match_id)), refresh=refresh
    )


def is_being_recorded(match_id: int) -> bool:
    """Whether the match is being recorded now (``Match.recording``), in one statement compiled
    once: the page of every scheduled match of a running tournament asks it."""
    return _RECORDING.first(match_id) is not None


_RECORDING = Compiled(
    lambda pk: Match.objects.filter(pk=pk, recording=True).values_list("pk"),
    placeholder=-424_242,
)


def matches_being_recorded(tournament: Tournament) -> list[Match]:
    """The tournament's matches being recorded now, for its pages to point spectators at."""
    matches = Match.objects.filter(
        tournament=tournament, status=Match.Status.SCHEDULED, recording=True
    )
    return list(matches.select_related("home__player", "away__player").order_by("pk"))


def written(match: Match, draft: Draft, recording: Recording) -> dict[str, Any]:
    """The state after a write, stored for everyone once the write commits, under the version
    this write made (a later write stores its own: never this state under a newer version)."""
    if recording.finished:
        match.refresh_from_db(fields=["status"])  # the result flow has reported the match
    state = _state(match, draft, recording)
    version = _version(match.status, draft.pk, draft.revision)
    transaction.on_commit(functools.partial(_keep, match, state, version))
    return with_clocks(state)


def with_clocks(state: dict[str, Any]) -> dict[str, Any]:
    """A state as one answer gives it: with the clocks read now."""
    answer = {key: value for key, value in state.items() if key != CLOCK_BASIS}
    answer.update(clock_fields(state[CLOCK_BASIS], time.time()))
    return answer


def _keep(match: Match, state: dict[str, Any], version: str | None) -> None:
    if version is not None:
        shared = _shared(match, state)
        store(_cache_key(match.pk), version, shared)
        publish(match.pk, shared)


def forget(match_id: int) -> None:
    match = match_of(match_id)
    _keep(match, state_of(match), live_version(match_id=match_id))


def _shared_of(match: Match) -> SharedState:
    return _shared(match, state_of(match))


def _shared(match: Match, state: dict[str, Any]) -> SharedState:
    etag = f'"live-{match.pk}-{state["draft"]}-{state["revision"]}-{state["match_status"]}"'
    basis = state[CLOCK_BASIS]
    body = {key: value for key, value in state.items() if key != CLOCK_BASIS}
    if basis is None:
        body.update(clock_fields(None, 0))
    return SharedState(
        _json(body),
        etag,
        public=match.tournament.status != Tournament.Status.DRAFT,
        clock=b"" if basis is None else json.dumps(basis, separators=(",", ":")).encode(),
    )


def _json(body: dict[str, Any]) -> bytes:
    """The state as the API renders JSON: compact, UTF-8, the line separators escaped."""
    text = json.dumps(body, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029").encode()


def _cache_key(match_id: int) -> str:
    return f"live:{match_id}"


def state_of(match: Match, draft: Draft | None = None) -> dict[str, Any]:
    if draft is None:
        draft = Draft.objects.filter(match=match).first()
    rules = match.tournament.match_rules()
    if draft is None:
        return _state(match, None, Recording(rules))
    return _state(match, draft, resume(match, draft))


def _state(match: Match, draft: Draft | None, recording: Recording) -> dict[str, Any]:
    """The contract's state (``recording.state_json``) and what the pages draw it with."""
    names = (side_name(match, "home"), side_name(match, "away"))
    state = board_state(recording, names)
    reported = match.status != Match.Status.SCHEDULED
    state["finished"] = recording.finished or reported
    state.update(
        {
            "draft": draft.pk if draft else None,
            "revision": draft.revision if draft else 0,
            "recording": draft is not None and draft.recording,
            "take_back_until": _take_back_until(match, draft),
            "match": match.pk,
            "match_status": match.status,
            "names": list(names),
            "lost_on_time": match.lost_on_time or state["lost_on_time"],
            CLOCK_BASIS: _clock_basis(match, draft),
        }
    )
    return state


def _clock_basis(match: Match, draft: Draft | None) -> dict[str, Any] | None:
    """A timed match's clocks at their last event (``board.clock_basis``); None untimed."""
    clock = clock_of(match, draft)
    return None if clock is None else clock_basis(clock)


def _take_back_until(match: Match, draft: Draft | None) -> str | None:
    """When the recording decided the match: until when (ISO 8601, the server's clock) its
    players may take the deciding entry back (an organizer may later); else None."""
    if draft is None or not draft.finished or match.status == Match.Status.SCHEDULED:
        return None
    until = draft.updated_at + timedelta(seconds=settings.LIVE_UNDO_WINDOW_SECONDS)
    return until.isoformat()


def stale(state: dict[str, Any]) -> Conflict:
    error = Conflict(
        _(
            "This match was recorded further on another device: it is now at ply %(ply)s. "
            "The board shows where it stands."
        )
        % {"ply": state["ply"]}
    )
    answer = with_clocks(state)
    error.details = {"ply": state["ply"], "revision": state["revision"], "state": answer}
    return error
