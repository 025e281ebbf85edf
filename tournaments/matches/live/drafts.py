"""A match's draft at the table: read and locked with its match, replayed as a recording (from
the checkpoint of the game in progress), saved after each write, and the match's mark that it
is being recorded (``Match.recording``), which the result flow and the pages read."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from nardy_site.joined import Join, Table
from tournaments.errors import NotFound
from tournaments.matches.live.models import Draft
from tournaments.matches.live.recording import (
    Entry,
    GameDone,
    Recording,
    entry_from_json,
    resume_point,
)
from tournaments.matches.rows import MATCH_WITH_PLAYERS, WITH_PLAYERS, match_with_players
from tournaments.models import Match, Tournament
from tournaments.scoring.clock import Clock

User = AbstractBaseUser | AnonymousUser


def match_of(match_id: int) -> Match:
    """The match with its tournament and players (``NotFound``: no such match)."""
    match = MATCH_WITH_PLAYERS.one([match_id])
    if match is None:
        raise NotFound(_("No such match."))
    return match  # type: ignore[return-value]


def locked_draft(match_id: int) -> Draft | None:
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


def new_draft(match: Match, by: User) -> Draft:
    """The match's first draft, locked."""
    try:
        with transaction.atomic():
            Draft.objects.create(match=match, started_by=author(by))
    except IntegrityError:
        pass  # another phone made it first: its entry is in, so this one will be stale
    return Draft.objects.select_for_update().get(match=match)


def mark_recording(match: Match, draft: Draft | None) -> None:
    """Keep the match's mark that it is being recorded (``Match.recording``: its draft has
    entries and has not become its result) as the draft now is. When it changes, a recording
    started or ended: the tournament's pages (which point at the matches recorded now) and the
    match page are rendered again. The tournament's row is taken after the draft's, the order
    every writer keeps."""
    recording = draft is not None and draft.recording
    if match.recording == recording:
        return
    Tournament.lock_for_change(match.tournament_id)
    Match.objects.filter(pk=match.pk).update(recording=recording, updated_at=timezone.now())
    match.recording = recording


def resume(match: Match, draft: Draft, *, upto: int | None = None) -> Recording:
    """The recording of the draft's first ``upto`` entries (all): from the checkpoint of the
    game in progress, which every write keeps (no entry is read), or, after an undo, the
    finished games from theirs and only the entries since read and checked again."""
    rules = match.tournament.match_rules()
    if upto is None and draft.current is not None:
        return Recording.from_checkpoint(rules, done_of(draft), draft.current)
    upto = draft.ply if upto is None else upto
    kept, start = resume_point(done_of(draft), upto)
    rows = draft.entry_rows.filter(ply__gte=start, ply__lt=upto).order_by("ply")
    tail = (entry_from_json(data) for data in rows.values_list("data", flat=True))
    return Recording.resumed(rules, kept, tail)


def entries_of(draft: Draft) -> list[Entry]:
    """Every entry of the draft: read only when the match is decided (its games become the
    result) or its result is checked against the recording."""
    rows = draft.entry_rows.order_by("ply").values_list("data", flat=True)
    return [entry_from_json(data) for data in rows]


def done_of(draft: Draft) -> list[GameDone]:
    return [GameDone.from_json(data) for data in draft.done]


def save_draft(
    match: Match, draft: Draft, recording: Recording, by: User, clock: Clock | None = None
) -> None:
    """The draft after a write: its ply, a new revision, its clocks, and the checkpoints when a
    game ended or was taken back (a short list: one summary a game, never the entries); and the
    match's mark that it is being recorded."""
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
    draft.updated_by = author(by)  # type: ignore[assignment]
    draft.save(update_fields=fields)
    mark_recording(match, draft)


def author(by: User) -> User | None:
    return by if by.is_authenticated else None


def side_name(match: Match, side: str) -> str:
    entry = getattr(match, side)
    return "" if entry is None else entry.player.display_name
