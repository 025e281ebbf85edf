"""Writes and reads of a match recorded at the table.

Every entry is posted at once, checked by the engine (``recording``) against the game in
progress, replayed from its checkpoint, and appended to the match's ``Draft`` as a row of its own
(``DraftEntry``, with the server's time and who made it) in one transaction, so an entry costs
the same at ply 10 and at ply 1,000; the entry names the ply it expects, so a stale phone is refused
(409, with the current state) and the record never forks. Writers lock the draft row first and
take the tournament's row only after it (a new, discarded or finished recording), the order the
result flow then continues in (tournament, match), so two writers wait but never deadlock. When
an entry decides the match, the recorded games go through the result flow like an uploaded
record (``results.match_result_record``): reported by a player, final from an organizer.

The state is kept in the cache per version of the draft, shared by the phones and every
spectator (``page_cache.fresh_or_stale``); each write stores the new state there on commit and
publishes it to the spectators who wait for it (``broadcast``, ``follow``).

In a tournament with a time control the draft keeps the match clocks too (``clock.Clock``, as
JSON): each entry, at the server's time it is taken, starts, switches or stops them by whose turn
it is after it (``Recording.to_act``), an undo gives the turn back, and an organizer pauses,
resumes or sets them (``live_clock``, each a ``ClockAction`` row with who did it). The state
read from the cache carries the clocks as they were at the last event, and each answer reads
them at its own moment (``SharedState.body_at``).
"""

from __future__ import annotations

import functools
import json
import time
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.db.models import Exists, OuterRef
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework.renderers import JSONRenderer

from games.engine.hint import hint as engine_hint
from games.models import Game
from games.rules import Position, RulesError, Turn, action_from_json
from games.rules.steps import play_steps, steps_json
from games.services import RecordedGame
from games.viewer import board_layout, live_frame
from nardy_site.joined import Compiled, Join, Table
from nardy_site.page_cache import fresh_or_stale, store
from tournaments.errors import Conflict, IllegalGameRecord, InvalidInput
from tournaments.matches import results
from tournaments.matches.live.broadcast import SharedState, clock_basis, clock_fields, publish
from tournaments.matches.live.models import ClockAction, Draft, DraftEntry
from tournaments.matches.live.recording import (
    SIDE_NAMES,
    Entry,
    EntryError,
    First,
    Flag,
    GameDone,
    Recording,
    Roll,
    entry_from_json,
    entry_to_json,
    games_of,
    resume_point,
    state_json,
)
from tournaments.matches.rows import MATCH_WITH_PLAYERS, WITH_PLAYERS, match_with_players
from tournaments.models import Match, Tournament
from tournaments.policy import match_side, may, require
from tournaments.reasons import reason_in_language
from tournaments.scoring.clock import Clock, ClockEvent

User = AbstractBaseUser | AnonymousUser
#: Spectators see an entry at most this late (their pages poll every second).
FOLLOW_REFRESH_SECONDS = 1.0
#: The key of a state's clocks at their last event (``clock_basis``), which each answer reads at
#: its own moment (``clock_fields``): never sent as it is.
CLOCK_BASIS = "_clock"
#: The most a judge gives or takes at once: an hour.
MAX_ADJUST_SECONDS = 3600


# --- Reads --------------------------------------------------------------------------------------


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
    """The state of the match's recording and who may see it (Http404: no such match); the
    version is asked at most once a second per match however many spectators poll."""

    def version() -> str:
        found = live_version(match_id=match_id)
        if found is None:
            raise Http404(_("No such match."))
        return found

    refresh = min(FOLLOW_REFRESH_SECONDS, settings.PUBLIC_PAGE_REFRESH_SECONDS)
    return fresh_or_stale(
        _cache_key(match_id), version, lambda: _shared_of(_match(match_id)), refresh=refresh
    )


def being_recorded() -> Exists:
    """For a match query: whether the match is being recorded now (``Draft.recording``: a draft
    with entries that has not become its result)."""
    return Exists(Draft.objects.filter(match=OuterRef("pk"), finished=False, ply__gt=0))


def is_being_recorded(match_id: int) -> bool:
    """Whether the match is being recorded now (``Draft.recording``), in one statement compiled
    once: the page of every scheduled match of a running tournament asks it."""
    return _RECORDING.first(match_id) is not None


_RECORDING = Compiled(
    lambda pk: Match.objects.filter(pk=pk).filter(being_recorded()).values_list("pk"),
    placeholder=-424_242,
)


def matches_being_recorded(tournament: Tournament) -> list[Match]:
    """The tournament's matches being recorded now, for its pages to point spectators at."""
    matches = Match.objects.filter(tournament=tournament, status=Match.Status.SCHEDULED)
    return list(
        matches.filter(being_recorded())
        .select_related("home__player", "away__player")
        .order_by("pk")
    )


# --- Writes -------------------------------------------------------------------------------------


def live_act(
    *, match_id: int, by: User, ply: int, action: Any, revision: int | None = None
) -> dict[str, Any]:
    """Take one entry (``recording``'s JSON) at ``ply``; the new state. When it decides the
    match, the games become the match's result. (The match is read under the draft's lock.)"""
    try:
        entry = entry_from_json(action)
    except RulesError as error:
        reason = reason_in_language(str(error))
        raise InvalidInput(
            _("This is not a game action: %(reason)s") % {"reason": reason}
        ) from None
    with transaction.atomic():
        match, draft = _open(match_id, by, ply, revision)
        recording = _resume(match, draft)
        now = timezone.now()
        clock = _clock(match, draft)
        if clock is not None:
            _require_time(match, clock, entry, now)
        elif isinstance(entry, Flag):
            raise InvalidInput(_("This tournament plays without a clock: no flag can fall."))
        before = recording.game.position
        mover = recording.to_act
        try:
            recording.add(entry)
        except EntryError as error:
            raise _illegal(error, entry) from None
        left = None
        if clock is not None:
            _turn_to(clock, recording, now)
            reading = clock.reading_at(now.timestamp())
            left = {"home": round(reading.home, 1), "away": round(reading.away, 1)}
        DraftEntry.objects.create(
            draft=draft,
            ply=draft.ply,
            data=entry_to_json(entry),
            made_at=now,
            made_by=_author(by),
            clock=left,
            awaits=_awaits(match, by, entry, mover),
        )
        _save(draft, recording, by, clock)
        hint = _hint(match, before, entry)
        if hint is not None and not match.hinted:
            match.hinted = True
            Match.objects.filter(pk=match.pk).update(hinted=True)
        if recording.finished:
            _finish(match, draft, recording, by)
        return {**_written(match, draft, recording), "hint": hint}


def _awaits(match: Match, by: User, entry: Entry, mover: int | None) -> int | None:
    """The side whose word an entry waits for: a play accepted as made, entered by the account
    of the very player who made it, waits for the opponent (who accepted it, it says). Entered
    by the opponent or by an organizer who is not the mover, it stands."""
    if not isinstance(entry, Turn) or not entry.accepted or mover is None:
        return None
    return 3 - mover if match_side(match, by) == mover else None


def hints_given(tournament: Tournament) -> bool:
    """Whether the recorder gives the engine's practice hint in this tournament's matches: Long
    Nardy only, in a casual tournament (one that does not ask to be rated) that is not rated:
    a hint is help a rated match cannot have."""
    return (
        tournament.variant == Tournament.Variant.LONG and tournament.casual and not tournament.rated
    )


def _hint(match: Match, before: Position, entry: Entry) -> dict[str, Any] | None:
    """For practice, in a match whose tournament gives hints (``hints_given``): the play the
    engine would have made instead of the play just entered, and the equity that lost (the
    recorder's answer only, never the shared state spectators see). The match is marked
    (``Match.hinted``) once it has had one."""
    playing = isinstance(entry, Turn) and not entry.accepted and entry.play.moves
    if not playing or not hints_given(match.tournament):
        return None
    assert isinstance(entry, Turn)
    found = engine_hint(before, entry.dice, entry.play)
    return None if found is None else {"best": found.best, "loss": found.loss}


def live_undo(
    *, match_id: int, by: User, ply: int, to: int | None = None, revision: int | None = None
) -> dict[str, Any]:
    """Take back the last entry; an organizer may go back ``to`` any earlier ply at once.

    When the last entry decided the match, taking it back takes the match's result back too
    (``results.match_result_take_back``) and the match is played on: its players may do so for
    ``LIVE_UNDO_WINDOW_SECONDS`` after that entry was made, by the server's clock; an organizer
    may later, while the result is still the recorded one."""
    with transaction.atomic():
        match, draft = _open(match_id, by, ply, revision, taking_back=True)
        organizer = may(by, "recording.judge", match)
        if to is not None:
            require(by, "recording.undo-many", match)
        target = draft.ply - 1 if to is None else to
        if draft.ply == 0:
            raise Conflict(_("There is nothing to undo."))
        if not 0 <= target < draft.ply:
            raise InvalidInput(
                _("Undo goes back to a ply from 0 to %(last)s.") % {"last": draft.ply - 1}
            )
        if draft.finished:
            _take_back(match, draft, by, organizer=organizer)
        draft.entry_rows.filter(ply__gte=target).delete()
        recording = _resume(match, draft, upto=target)
        clock = _clock(match, draft)
        if clock is not None:  # the turn goes back; the time that ran is not given back
            _turn_to(clock, recording, timezone.now())
        _save(draft, recording, by, clock)
        return _written(match, draft, recording)


def live_clock(
    *,
    match_id: int,
    by: User,
    action: str,
    side: str | None = None,
    seconds: int = 0,
    revision: int | None = None,
) -> dict[str, Any]:
    """An organizer (the judge) pauses or resumes the match clocks, or gives ``side``
    ``seconds`` (takes them, when negative); recorded with who and when (``ClockAction``). Time
    given to a side whose flag fell lets it play on."""
    with transaction.atomic():
        draft = _locked_draft(match_id)
        match = _match(match_id) if draft is None else draft.match
        if not may(by, "clock.set", match):
            if match.tournament.status == Tournament.Status.DRAFT:
                raise Http404(_("No such match."))
            require(by, "clock.set", match)
        control = match.tournament.clock()
        if control is None:
            raise Conflict(_("This tournament plays without a clock."))
        if draft is None or draft.clock is None or not draft.recording:
            raise Conflict(
                _("The clocks run while the match is recorded: they start with its first entry.")
            )
        if revision is not None and revision != draft.revision:
            raise _stale(_state_of(match, draft))
        clock = Clock.from_json(control, draft.clock)
        at = max(timezone.now().timestamp(), clock.last)
        if action == ClockAction.Kind.PAUSE:
            if clock.paused:
                raise Conflict(_("The clocks are paused already."))
            event = ClockEvent(at, "pause")
        elif action == ClockAction.Kind.RESUME:
            if not clock.paused:
                raise Conflict(_("The clocks are not paused."))
            event = ClockEvent(at, "resume")
        elif action == ClockAction.Kind.ADJUST:
            if side not in ("home", "away"):
                raise InvalidInput(_("Name the side whose clock is set: home or away."))
            if type(seconds) is not int or not seconds or abs(seconds) > MAX_ADJUST_SECONDS:
                raise InvalidInput(
                    _("Give or take from 1 to %(most)s seconds.") % {"most": MAX_ADJUST_SECONDS}
                )
            event = ClockEvent(at, "adjust", side, seconds)  # type: ignore[arg-type]
        else:
            raise InvalidInput(_("A clock action is pause, resume or adjust."))
        clock.apply(event)
        ClockAction.objects.create(
            draft=draft,
            kind=action,
            side=side or "",
            seconds=seconds if action == ClockAction.Kind.ADJUST else 0,
            made_by=_author(by),
        )
        draft.clock = clock.to_json()
        draft.revision += 1
        draft.updated_by = _author(by)  # type: ignore[assignment]
        draft.save(update_fields=["clock", "revision", "updated_by", "updated_at"])
        return _written(match, draft, _resume(match, draft))


def live_discard(*, match: Match, by: User) -> None:
    """An organizer throws the recording away: the match can be reported another way."""
    with transaction.atomic():
        draft = Draft.objects.select_for_update().filter(match_id=match.pk).first()
        match = _match(match.pk)
        require(by, "recording.discard", match)
        if draft is None:
            raise Conflict(_("This match has no recording to discard."))
        if draft.finished:
            raise Conflict(
                _("The recording became the match's result: correct the result instead.")
            )
        draft.delete()
        _mark(match)
        transaction.on_commit(functools.partial(_forget, match.pk))


# --- Inside -------------------------------------------------------------------------------------


def _match(match_id: int) -> Match:
    """The match with its tournament and players (Http404: no such match)."""
    match = MATCH_WITH_PLAYERS.one([match_id])
    if match is None:
        raise Http404(_("No such match."))
    return match  # type: ignore[return-value]


def _open(
    match_id: int, by: User, ply: int, revision: int | None, *, taking_back: bool = False
) -> tuple[Match, Draft]:
    """The match and its draft, locked (made when missing), after the checks every write
    needs: who writes, the state of the match, and the ply (and revision) the writer saw.
    ``taking_back``: an undo, which may also find the match decided by its recording. The draft
    comes with its match in one prepared statement; without a draft, the match is read alone."""
    draft = _locked_draft(match_id)
    match = _match(match_id) if draft is None else draft.match
    if match.tournament.status == Tournament.Status.DRAFT and not may(
        by, "tournament.run", match.tournament
    ):
        raise Http404(_("No such match."))  # unseen but by its organizers, as to readers
    require(by, "match.record", match)
    if draft is None:
        draft = _new_draft(match, by)
    if draft.finished and match.status == Match.Status.SCHEDULED:
        # Its result was reset (a bracket correction): the match is recorded again from the start.
        draft.entry_rows.all().delete()
        draft.done, draft.current, draft.ply, draft.finished = [], None, 0, False
        draft.save(update_fields=["done", "current", "ply", "finished"])
    results.require_playable(match)
    decided_here = taking_back and draft.finished
    if match.status != Match.Status.SCHEDULED and not decided_here:
        raise Conflict(_("A result of this match was already reported."))
    if ply != draft.ply or (revision is not None and revision != draft.revision):
        state = _state_of(match, draft)
        raise _stale(state)
    return match, draft


def _locked_draft(match_id: int) -> Draft | None:
    """The match's draft, locked, with its match, tournament and players read in the same
    statement (None: it has none yet)."""
    return _DRAFT_WITH_MATCH.one([match_id])  # type: ignore[return-value]


#: ``Draft.objects.select_for_update(of=("self",)).select_related("match__tournament",
#: "match__home__player", "match__away__player")``, compiled once (``joined``): an entry's read.
_DRAFT_WITH_MATCH = Join(
    f"""SELECT {{columns}} FROM live_draft d
    JOIN tournaments_match m ON m.id = d.match_id
    {WITH_PLAYERS}
    WHERE d.match_id = %s""",
    (Table(Draft, "d"), *match_with_players(into=("d", "match"))),
    for_update=True,
)


def _new_draft(match: Match, by: User) -> Draft:
    """The match's first draft, locked (and the pages told)."""
    try:
        with transaction.atomic():
            Draft.objects.create(match=match, started_by=_author(by))
    except IntegrityError:
        pass  # another phone made it first: its entry is in, so this one will be stale
    else:
        _mark(match)
    return Draft.objects.select_for_update().get(match=match)


def _mark(match: Match) -> None:
    """A recording started or ended: the tournament's pages (which mark the matches recorded
    now) and the match page are rendered again."""
    Tournament.lock_for_change(match.tournament_id)
    Match.objects.filter(pk=match.pk).update(updated_at=timezone.now())


def _resume(match: Match, draft: Draft, *, upto: int | None = None) -> Recording:
    """The recording of the draft's first ``upto`` entries (all): from the checkpoint of the
    game in progress, which every write keeps (no entry is read), or, after an undo, the
    finished games from theirs and only the entries since read and checked again."""
    rules = match.tournament.match_rules()
    if upto is None and draft.current is not None:
        return Recording.from_checkpoint(rules, _done(draft), draft.current)
    upto = draft.ply if upto is None else upto
    kept, start = resume_point(_done(draft), upto)
    rows = draft.entry_rows.filter(ply__gte=start, ply__lt=upto).order_by("ply")
    tail = (entry_from_json(data) for data in rows.values_list("data", flat=True))
    return Recording.resumed(rules, kept, tail)


def _entries(draft: Draft) -> list[Entry]:
    """Every entry of the draft: read only when the match is decided (its games become the
    result) or its result is checked against the recording."""
    rows = draft.entry_rows.order_by("ply").values_list("data", flat=True)
    return [entry_from_json(data) for data in rows]


def _done(draft: Draft) -> list[GameDone]:
    return [GameDone.from_json(data) for data in draft.done]


def _author(by: User) -> User | None:
    return by if by.is_authenticated else None


def _clock(match: Match, draft: Draft | None) -> Clock | None:
    """The match clocks after the draft's last timed event (None: the tournament has no time
    control); new clocks before the first entry."""
    control = match.tournament.clock()
    if control is None:
        return None
    if draft is None or draft.clock is None:
        return Clock.new(control)
    return Clock.from_json(control, draft.clock)


def _require_time(match: Match, clock: Clock, entry: Entry, now: datetime) -> None:
    """A flag fall is entered once that side's time ran out, by the server's clock; nothing
    else is entered after a flag fell (but the flag fall, an undo, or a judge's time)."""
    reading = clock.reading_at(now.timestamp())
    if isinstance(entry, Flag):
        side = SIDE_NAMES[entry.player]
        if reading.flagged != side:
            raise Conflict(
                _("%(name)s still has %(left)s on the clock: their flag has not fallen.")
                % {"name": _name(match, side), "left": _minutes(reading.left(side))}
            )
    elif reading.flagged is not None:
        raise Conflict(
            _(
                "%(name)s's time ran out: record the flag fall (the match is lost on time), "
                "or a judge gives time."
            )
            % {"name": _name(match, reading.flagged)}
        )


def _turn_to(clock: Clock, recording: Recording, now: datetime) -> None:
    """After an entry (or an undo) at ``now``: the clock of who acts next runs; none between
    games and once the match is over."""
    at = max(now.timestamp(), clock.last)
    player = recording.to_act
    if player is None:
        clock.apply(ClockEvent(at, "stop"))
    else:
        kind = "start" if clock.on_turn is None else "switch"
        clock.apply(ClockEvent(at, kind, SIDE_NAMES[player]))  # type: ignore[arg-type]


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _save(draft: Draft, recording: Recording, by: User, clock: Clock | None = None) -> None:
    """The draft after a write: its ply, a new revision, its clocks, and the checkpoints when a
    game ended or was taken back (a short list: one summary a game, never the entries)."""
    fields = ["ply", "revision", "current", "finished", "updated_by", "updated_at"]
    if clock is not None:
        draft.clock = clock.to_json()
        fields.append("clock")
    draft.current = recording.checkpoint()
    if len(draft.done) != len(recording.done):
        draft.done = [game.to_json() for game in recording.done]
        fields.append("done")
    draft.ply = recording.ply
    draft.revision += 1
    draft.updated_by = _author(by)  # type: ignore[assignment]
    draft.save(update_fields=fields)


def _finish(match: Match, draft: Draft, recording: Recording, by: User) -> None:
    """The match is decided: the draft is done, and its games (every entry, read this once)
    are reported as its result, with the time each action was entered. A match lost on time
    keeps the game its flag fell in, unfinished."""
    draft.finished = True
    draft.save(update_fields=["finished"])  # updated_at stays the entry's time (_save's)
    rows = list(draft.entry_rows.order_by("ply").values_list("data", "made_at", "clock"))
    entries = [entry_from_json(data) for data, _at, _clock in rows]
    awaited = set(draft.entry_rows.filter(awaits__isnull=False).values_list("awaits", flat=True))
    lost = recording.lost_on_time
    on_board = None if lost is None else recording.white
    records = games_of(entries, recording.done, on_board=on_board)
    games = [RecordedGame(white, actions) for white, actions in records]
    results.match_result_record(
        match=match,
        by=by,
        games=games,
        lost_on_time="" if lost is None else SIDE_NAMES[lost],
        # both sides' own accepted plays wait for each other: an organizer decides then
        confirm_side=None if not awaited else awaited.pop() if len(awaited) == 1 else 0,
    )
    _keep_times(match, entries, rows)


def _keep_times(match: Match, entries: list[Entry], rows: list[tuple[Any, datetime, Any]]) -> None:
    """Each stored game's ``times``: when each of its actions was entered, and the clocks then
    (the entries that are not actions, a roll or a flag fall, are steps of the recording)."""
    times = [
        {"at": made_at.isoformat(), **(clock or {})}
        for entry, (_data, made_at, clock) in zip(entries, rows, strict=True)
        if not isinstance(entry, Roll | First | Flag)
    ]
    games = list(match.games.order_by("number"))
    start = 0
    for game in games:
        count = len(game.actions)
        game.times = times[start : start + count]
        start += count
    Game.objects.bulk_update(games, ["times"])


def _take_back(match: Match, draft: Draft, by: User, *, organizer: bool) -> None:
    """The recording decided the match and its last entry is taken back: the result goes
    (``results.match_result_take_back``, which refuses once later matches were built on it) and
    the recording goes on. Players may within the window after the deciding entry."""
    window = settings.LIVE_UNDO_WINDOW_SECONDS
    if not organizer:
        made = draft.updated_at  # a finished draft is not written after its deciding entry
        if timezone.now() > made + timedelta(seconds=window):
            require(by, "recording.judge", match, seconds=window)
    if not _is_the_result(match, draft):
        raise Conflict(
            _(
                "The match's result was changed after it was recorded: an organizer corrects "
                "the result instead."
            )
        )
    results.match_result_take_back(match=match)
    match.refresh_from_db(fields=["status"])
    draft.finished = False


def _is_the_result(match: Match, draft: Draft) -> bool:
    """Whether the match's stored games are still the recording's (no correction since)."""
    on_board = _resume(match, draft).white if match.lost_on_time else None
    recorded = [
        (white, list(actions))
        for white, actions in games_of(_entries(draft), _done(draft), on_board=on_board)
    ]
    stored = [
        (game.white, [action_from_json(action) for action in game.actions])
        for game in match.games.order_by("number")
    ]
    return stored == recorded


def _written(match: Match, draft: Draft, recording: Recording) -> dict[str, Any]:
    """The state after a write, stored for everyone once the write commits, under the version
    this write made (a later write stores its own: never this state under a newer version)."""
    if recording.finished:
        match.refresh_from_db(fields=["status"])  # the result flow has reported the match
    state = _state(match, draft, recording)
    version = _version(match.status, draft.pk, draft.revision)
    transaction.on_commit(functools.partial(_keep, match, state, version))
    return _with_clocks(state)


def _with_clocks(state: dict[str, Any]) -> dict[str, Any]:
    """A state as one answer gives it: with the clocks read now."""
    answer = {key: value for key, value in state.items() if key != CLOCK_BASIS}
    answer.update(clock_fields(state[CLOCK_BASIS], time.time()))
    return answer


def _keep(match: Match, state: dict[str, Any], version: str | None) -> None:
    if version is not None:
        shared = _shared(match, state)
        store(_cache_key(match.pk), version, shared)
        publish(match.pk, shared)


def _forget(match_id: int) -> None:
    match = _match(match_id)
    _keep(match, _state_of(match), live_version(match_id=match_id))


def _shared_of(match: Match) -> SharedState:
    return _shared(match, _state_of(match))


def _shared(match: Match, state: dict[str, Any]) -> SharedState:
    etag = f'"live-{match.pk}-{state["draft"]}-{state["revision"]}-{state["match_status"]}"'
    basis = state[CLOCK_BASIS]
    body = {key: value for key, value in state.items() if key != CLOCK_BASIS}
    if basis is None:
        body.update(clock_fields(None, 0))
    return SharedState(
        JSONRenderer().render(body),
        etag,
        public=match.tournament.status != Tournament.Status.DRAFT,
        clock=b"" if basis is None else json.dumps(basis, separators=(",", ":")).encode(),
    )


def _cache_key(match_id: int) -> str:
    return f"live:{match_id}"


def _state_of(match: Match, draft: Draft | None = None) -> dict[str, Any]:
    if draft is None:
        draft = Draft.objects.filter(match=match).first()
    rules = match.tournament.match_rules()
    if draft is None:
        return _state(match, None, Recording(rules))
    return _state(match, draft, _resume(match, draft))


def _state(match: Match, draft: Draft | None, recording: Recording) -> dict[str, Any]:
    """The contract's state (``recording.state_json``) and what the pages draw it with."""
    state = state_json(recording)
    names = (_name(match, "home"), _name(match, "away"))
    score = [state["score"]["home"], state["score"]["away"]]
    reported = match.status != Match.Status.SCHEDULED
    state["finished"] = recording.finished or reported
    dice = recording.dice
    steps = None if dice is None else steps_json(play_steps(recording.game.position, dice))
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
            "steps": steps,
            "board": {
                "variant": recording.variant.name,
                "layout": board_layout(recording.variant),
                "names": list(names),
                "length": recording.rules.length,
                "crawford": recording.rules.crawford_applies,
                "dave": recording.variant.dave.enabled,
                "frames": [
                    live_frame(
                        recording.game,
                        step=recording.game_actions,
                        last=recording.last_action,
                        number=recording.number,
                        white_player=recording.white,
                        names=names,
                        score=score,
                        dice=dice,
                    )
                ],
            },
        }
    )
    return state


def _clock_basis(match: Match, draft: Draft | None) -> dict[str, Any] | None:
    """A timed match's clocks at their last event (``broadcast.clock_basis``); None untimed."""
    clock = _clock(match, draft)
    return None if clock is None else clock_basis(clock)


def _take_back_until(match: Match, draft: Draft | None) -> str | None:
    """When the recording decided the match: until when (ISO 8601, the server's clock) its
    players may take the deciding entry back (an organizer may later); else None."""
    if draft is None or not draft.finished or match.status == Match.Status.SCHEDULED:
        return None
    until = draft.updated_at + timedelta(seconds=settings.LIVE_UNDO_WINDOW_SECONDS)
    return until.isoformat()


def _name(match: Match, side: str) -> str:
    entry = getattr(match, side)
    return "" if entry is None else entry.player.display_name


def _stale(state: dict[str, Any]) -> Conflict:
    error = Conflict(
        _(
            "This match was recorded further on another device: it is now at ply %(ply)s. "
            "The board shows where it stands."
        )
        % {"ply": state["ply"]}
    )
    answer = _with_clocks(state)
    error.details = {"ply": state["ply"], "revision": state["revision"], "state": answer}
    return error


def _illegal(error: EntryError, entry: Entry) -> IllegalGameRecord:
    reason = reason_in_language(error.reason)
    play = entry_to_json(entry).get("play", "")
    return IllegalGameRecord(
        _("Game %(game)s, move %(move)s, player %(side)s %(play)s: %(reason)s")
        % {
            "game": error.game,
            "move": error.turn,
            "side": error.player,
            "play": repr(play) if play else "",
            "reason": reason,
        },
        game=error.game,
        move=error.turn,
        player=error.player,
        play=play,
        reason=reason,
    )
