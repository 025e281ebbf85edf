"""The writes of a match recorded at the table: an entry, an undo, a judge's hand on the clocks,
and an organizer's discard.

Every entry is posted at once (or, from a phone that recorded offline, synced in order as one
batch: ``live_sync``), checked by the engine (``recording``) against the game in
progress, replayed from its checkpoint, and appended to the match's ``Draft`` as a row of its own
(``DraftEntry``, with the server's time and who made it) in one transaction, so an entry costs
the same at ply 10 and at ply 1,000; the entry names the ply it expects, so a stale phone is refused
(409, with the current state) and the record never forks. Writers lock the draft row first and
take the tournament's row only after it (a recording that starts, ends or is discarded:
``drafts.mark_recording``), the order the result flow then continues in (tournament, match), so
two writers wait but never deadlock. When an entry decides the match, the recorded games go
through the result flow like an uploaded record (``results.match_result_record``), with the time
of each action: reported by a player, final from an organizer.

The parts: ``drafts`` (the draft read, replayed and saved, and the match's mark), ``state`` (the
state every reader shares), ``clocks`` (a timed match's clocks), ``hints`` (the practice hint).
In a tournament with a time control each entry, at the server's time it is taken, starts,
switches or stops the clocks by whose turn it is after it (``Recording.to_act``), an undo gives
the turn back, and an organizer pauses, resumes or sets them (``live_clock``, each a
``ClockAction`` row with who did it).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any, TypeVar

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.rules import RulesError, Turn, action_from_json
from games.rules.errors import clipped
from games.services import RecordedGame
from tournaments.errors import (
    Conflict,
    IllegalGameRecord,
    InvalidInput,
    NotFound,
    TournamentError,
)
from tournaments.matches import results
from tournaments.matches.live.clocks import clock_of, require_time, turn_to
from tournaments.matches.live.drafts import (
    User,
    author,
    done_of,
    entries_of,
    locked_draft,
    mark_recording,
    match_of,
    new_draft,
    resume,
    save_draft,
)
from tournaments.matches.live.hints import hint_for
from tournaments.matches.live.models import ClockAction, Draft, DraftEntry, SetAside
from tournaments.matches.live.recording import (
    SIDE_NAMES,
    Entry,
    EntryError,
    First,
    Flag,
    Recording,
    Roll,
    entry_from_json,
    entry_to_json,
    games_of,
)
from tournaments.matches.live.state import forget, stale, state_of, written
from tournaments.models import Match, Tournament
from tournaments.policy import match_side, may, require
from tournaments.reasons import reason_in_language, said_by
from tournaments.scoring.clock import Clock, ClockEvent

#: The most a judge gives or takes at once: an hour.
MAX_ADJUST_SECONDS = 3600


def live_act(
    *, match_id: int, by: User, ply: int, action: Any, revision: int | None = None
) -> dict[str, Any]:
    """Take one entry (``recording``'s JSON) at ``ply``; the new state. When it decides the
    match, the games become the match's result. (The match is read under the draft's lock.)"""
    read = _read(action)
    with transaction.atomic():
        match, draft = _open(match_id, by, ply, revision)
        recording = resume(match, draft)
        clock = clock_of(match, draft)
        before = recording.game.position
        entry = _take(match, draft, recording, clock, by, read, timezone.now())
        save_draft(match, draft, recording, by, clock)
        hint = hint_for(match, before, entry)
        if hint is not None and not match.hinted:
            match.hinted = True
            Match.objects.filter(pk=match.pk).update(hinted=True)
        if recording.finished:
            _finish(match, draft, recording, by)
        return {**written(match, draft, recording), "hint": hint}


T = TypeVar("T")

#: The most entries one sync takes: a long match recorded offline from its start.
MAX_SYNC_ENTRIES = 2000


def live_sync(
    *, match_id: int, by: User, ply: int, entries: Sequence[tuple[Any, datetime]]
) -> dict[str, Any]:
    """Entries a phone recorded while it was offline, each ``(action, the phone's time)``,
    taken in order from ``ply`` in one transaction: all of them, or none. The new state, and
    ``clamped``: the entries whose phone time could not be.

    A refused entry refuses the batch: its error says which (``details["index"]``, from 0). A
    stale ``ply`` is a 409 whose details carry the entries the server has from that ply on
    (``entries``), so the phone can show what another recorded meanwhile. An entry takes its
    phone time when it lies between the time of the entry before it (or of the judge's last
    hand on the clocks) and the arrival of the batch; otherwise the nearest of the two, and it
    is marked for the judge (``DraftEntry.clamped``): the clocks only run forward, so no phone
    gives a player time back."""
    read = _read_batch(entries, _read)
    arrival = timezone.now()
    with transaction.atomic():
        match, draft = _open(match_id, by, ply, None, since=True)
        recording = resume(match, draft)
        clock = clock_of(match, draft)
        last = draft.entry_rows.order_by("-ply").values_list("made_at", flat=True).first()
        earliest = max((at for at in (last, _clock_time(clock)) if at is not None), default=None)
        clamped = []
        for index, (entry, (_action, phone_at)) in enumerate(zip(read, entries, strict=True)):
            taken = min(phone_at, arrival)
            if earliest is not None:
                taken = max(taken, earliest)
            if taken != phone_at:
                clamped.append(index)
            try:
                _take(match, draft, recording, clock, by, entry, taken,
                      phone_at=phone_at, clamped=taken != phone_at)  # fmt: skip
            except TournamentError as error:
                raise _of_entry(error, index) from None
            earliest = taken
        save_draft(match, draft, recording, by, clock)
        if recording.finished:
            _finish(match, draft, recording, by)
        return {**written(match, draft, recording), "hint": None, "clamped": clamped}


def live_set_aside(
    *, match: Match, by: User, ply: int, entries: Sequence[tuple[Any, datetime]], reason: str
) -> dict[str, Any]:
    """A phone's offline entries that the match did not take (``live_sync`` answered with
    another phone's entries, or refused one), handed to the judge: kept with the match, never
    merged into its record. Who may record the match may hand them over."""
    actions = _read_batch(entries, lambda action: _as_kept(_read(action)))
    kept = [
        {"action": action, "at": at.isoformat()}
        for action, (_given, at) in zip(actions, entries, strict=True)
    ]
    require(by, "match.record", match)
    aside = SetAside.objects.create(
        match=match, ply=ply, entries=kept, reason=reason[:2000], handed_by=author(by)
    )
    return {"id": aside.pk, "ply": aside.ply, "entries": len(aside.entries)}


def _read_batch(entries: Sequence[tuple[Any, datetime]], read: Callable[[Any], T]) -> list[T]:
    """A batch's actions (a sync's, a hand-over's), each ``read``; one that cannot be is
    refused by its place in the batch (``_of_entry``). One entry at least, and at most
    ``MAX_SYNC_ENTRIES``."""
    if not entries:
        raise InvalidInput(_("A sync brings one entry at least."))
    if len(entries) > MAX_SYNC_ENTRIES:
        raise InvalidInput(
            _("A sync brings at most %(most)s entries.") % {"most": MAX_SYNC_ENTRIES}
        )
    found = []
    for index, (action, _at) in enumerate(entries):
        try:
            found.append(read(action))
        except TournamentError as error:
            raise _of_entry(error, index) from None
    return found


def _as_kept(entry: Entry | Unreadable) -> dict[str, Any]:
    """An entry as it is kept for the judge: what the rules read, written as they write it; a
    play they cannot read, as its text (a NUL, which no database keeps, refused)."""
    if not isinstance(entry, Unreadable):
        return entry_to_json(entry)
    if "\x00" in entry.play:
        raise InvalidInput(
            _("This is not a game action: %(reason)s") % {"reason": said_by(entry.error)}
        )
    return {"play": entry.play}


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A play as the client gave it that cannot be read: illegal where it stands (``_take``
    refuses it at its place, 422), not a body of the wrong shape."""

    play: str
    error: RulesError


def _of_entry(error: TournamentError, index: int) -> TournamentError:
    """``error`` said of a sync's entry ``index``: the message names the entry (from 1), the
    details carry its ``index`` (from 0)."""
    error.message = _("Entry %(number)s: %(message)s") % {
        "number": index + 1,
        "message": error.message,
    }
    error.args = (error.message,)
    error.details = {**error.details, "index": index}
    return error


def _read(action: Any) -> Entry | Unreadable:
    """An entry's action read; anything unreadable but a play is refused here (400)."""
    try:
        return entry_from_json(action)
    except RulesError as error:
        if not _a_play(action):
            reason = said_by(error)
            raise InvalidInput(
                _("This is not a game action: %(reason)s") % {"reason": reason}
            ) from None
        return Unreadable(action["play"], error)


def _clock_time(clock: Clock | None) -> datetime | None:
    """The time of the clocks' last event (an entry's, or a judge's hand), if any."""
    if clock is None or clock.last == float("-inf"):
        return None
    return datetime.fromtimestamp(clock.last, tz=UTC)


def _take(
    match: Match,
    draft: Draft,
    recording: Recording,
    clock: Clock | None,
    by: User,
    entry: Entry | Unreadable,
    now: datetime,
    *,
    phone_at: datetime | None = None,
    clamped: bool = False,
) -> Entry:
    """Check one entry against the recording at the time ``now`` and append it: the recording,
    the clocks and a ``DraftEntry`` row (the draft itself is saved by the caller)."""
    if isinstance(entry, Unreadable):
        where = EntryError(
            said_by(entry.error),
            game=recording.number,
            turn=recording.game.turns + 1,
            player=recording.to_act or 0,
        )
        raise _illegal(where, entry.play)
    if clock is not None:
        require_time(match, clock, entry, now)
    elif isinstance(entry, Flag):
        raise InvalidInput(_("This tournament plays without a clock: no flag can fall."))
    mover = recording.to_act
    try:
        recording.add(entry)
    except EntryError as error:
        raise _illegal(error, entry) from None
    left = None
    if clock is not None:
        turn_to(clock, recording, now)
        reading = clock.reading_at(now.timestamp())
        left = {"home": round(reading.home, 1), "away": round(reading.away, 1)}
    DraftEntry.objects.create(
        draft=draft,
        ply=recording.ply - 1,
        data=entry_to_json(entry),
        made_at=now,
        made_by=author(by),
        clock=left,
        awaits=_awaits(match, by, entry, mover),
        phone_at=phone_at,
        clamped=clamped,
    )
    return entry


def _awaits(match: Match, by: User, entry: Entry, mover: int | None) -> int | None:
    """The side whose word an entry waits for: a play accepted as made, entered by the account
    of the very player who made it, waits for the opponent (who accepted it, it says). Entered
    by the opponent or by an organizer who is not the mover, it stands."""
    if not isinstance(entry, Turn) or not entry.accepted or mover is None:
        return None
    return 3 - mover if match_side(match, by) == mover else None


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
        recording = resume(match, draft, upto=target)
        clock = clock_of(match, draft)
        if clock is not None:  # the turn goes back; the time that ran is not given back
            turn_to(clock, recording, timezone.now())
        save_draft(match, draft, recording, by, clock)
        return written(match, draft, recording)


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
        draft = locked_draft(match_id)
        match = match_of(match_id) if draft is None else draft.match
        if not may(by, "clock.set", match):
            if match.tournament.status == Tournament.Status.DRAFT:
                raise NotFound(_("No such match."))
            require(by, "clock.set", match)
        control = match.tournament.clock()
        if control is None:
            raise Conflict(_("This tournament plays without a clock."))
        if draft is None or draft.clock is None or not draft.recording:
            raise Conflict(
                _("The clocks run while the match is recorded: they start with its first entry.")
            )
        if revision is not None and revision != draft.revision:
            raise stale(state_of(match, draft))
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
            made_by=author(by),
        )
        draft.clock = clock.to_json()
        draft.revision += 1
        draft.updated_by = author(by)  # type: ignore[assignment]
        draft.save(update_fields=["clock", "revision", "updated_by", "updated_at"])
        return written(match, draft, resume(match, draft))


def live_discard(*, match: Match, by: User) -> None:
    """An organizer throws the recording away: the match can be reported another way."""
    with transaction.atomic():
        draft = Draft.objects.select_for_update().filter(match_id=match.pk).first()
        match = match_of(match.pk)
        require(by, "recording.discard", match)
        if draft is None:
            raise Conflict(_("This match has no recording to discard."))
        if draft.finished:
            raise Conflict(
                _("The recording became the match's result: correct the result instead.")
            )
        draft.delete()
        mark_recording(match, None)
        transaction.on_commit(functools.partial(forget, match.pk))


def _open(
    match_id: int,
    by: User,
    ply: int,
    revision: int | None,
    *,
    taking_back: bool = False,
    since: bool = False,
) -> tuple[Match, Draft]:
    """The match and its draft, locked (made when missing), after the checks every write
    needs: who writes, the state of the match, and the ply (and revision) the writer saw.
    ``taking_back``: an undo, which may also find the match decided by its recording;
    ``since``: a stale ply's error carries the entries from that ply on (a sync). The draft
    comes with its match in one prepared statement; without a draft, the match is read alone."""
    draft = locked_draft(match_id)
    match = match_of(match_id) if draft is None else draft.match
    if match.tournament.status == Tournament.Status.DRAFT and not may(
        by, "tournament.run", match.tournament
    ):
        raise NotFound(_("No such match."))  # unseen but by its organizers, as to readers
    require(by, "match.record", match)
    if draft is None:
        draft = new_draft(match, by)
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
        error = stale(state_of(match, draft))
        if since:
            error.details["entries"] = _entries_since(draft, ply)
        raise error
    return match, draft


def _entries_since(draft: Draft, ply: int) -> list[dict[str, Any]]:
    """The draft's entries from ``ply`` on, as a phone shows them beside its own."""
    rows = draft.entry_rows.filter(ply__gte=ply).order_by("ply")
    return [
        {"ply": ply, "action": data, "at": made_at.isoformat()}
        for ply, data, made_at in rows.values_list("ply", "data", "made_at")
    ]


def _finish(match: Match, draft: Draft, recording: Recording, by: User) -> None:
    """The match is decided: the draft is done (the match no longer being recorded), and its
    games (every entry, read this once) are reported as its result, with the time each action
    was entered and the clocks then. A match lost on time keeps the game its flag fell in,
    unfinished."""
    draft.finished = True
    draft.save(update_fields=["finished"])  # updated_at stays the entry's time (save_draft's)
    mark_recording(match, draft)
    rows = list(
        draft.entry_rows.order_by("ply").values_list(
            "data", "made_at", "clock", "phone_at", "clamped"
        )
    )
    entries = [entry_from_json(row[0]) for row in rows]
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
        times=_times(entries, rows, [len(actions) for _white, actions in records]),
    )


def _times(
    entries: list[Entry],
    rows: list[tuple[Any, datetime, Any, datetime | None, bool]],
    counts: list[int],
) -> list[list[dict[str, Any]]]:
    """For each game of ``counts`` actions, when each action was entered and the clocks then
    (the entries that are not actions, a roll or a flag fall, are steps of the recording). An
    action synced from a phone that recorded offline keeps the phone's time (``phone_at``);
    one whose time, or the time of a step since the action before it, was clamped is marked
    ``clamped`` for the judge."""
    times, clamped_since = [], False
    for entry, (_data, made_at, clock, phone_at, clamped) in zip(entries, rows, strict=True):
        clamped_since = clamped_since or clamped
        if isinstance(entry, Roll | First | Flag):
            continue
        time = {"at": made_at.isoformat(), **(clock or {})}
        if phone_at is not None:
            time["phone_at"] = phone_at.isoformat()
        if clamped_since:
            time["clamped"] = True
        times.append(time)
        clamped_since = False
    games, start = [], 0
    for count in counts:
        games.append(times[start : start + count])
        start += count
    return games


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
    on_board = resume(match, draft).white if match.lost_on_time else None
    recorded = [
        (white, list(actions))
        for white, actions in games_of(entries_of(draft), done_of(draft), on_board=on_board)
    ]
    stored = [
        (game.white, [action_from_json(action) for action in game.actions])
        for game in match.games.order_by("number")
    ]
    return stored == recorded


def _a_play(action: Any) -> bool:
    """A play as the client gives it, ``{"dice": …, "play": "…"}``: when it cannot be read,
    it is an illegal play of the record (422, where and why), as a result's games say, not a
    body of the wrong shape (400)."""
    return (
        isinstance(action, dict)
        and set(action) <= {"dice", "play", "accepted"}
        and isinstance(action.get("play"), str)
        and action.get("accepted", True) is True
    )


def _illegal(error: EntryError, entry: Entry | str) -> IllegalGameRecord:
    """The 422 of an entry that cannot come next (or of a play, as given, that cannot be read)."""
    reason = reason_in_language(error.reason)
    play = clipped(entry) if isinstance(entry, str) else entry_to_json(entry).get("play", "")
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
