"""The writes of two-stage events. Each runs inside the caller's transaction or its own, checks
who acts and in which state, and raises a ``TournamentError`` having changed nothing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import services
from tournaments.backup import tournament_delete
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.formats import groups as grouping
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.permissions import is_organizer
from tournaments.rows import locked
from tournaments.selectors import Standing, tournament_standings

User = services.User
Format = Tournament.Format
FirstStage = Tournament.FirstStage
#: What a stage takes over from its event.
INHERITED = (
    "variant", "rating_system", "match_length", "match_games", "koks", "no_hit_and_hide",
    "federation_draw", "draw_counts", "block_check", "dave", "dave_progression", "max_stake",
    "crawford", "tiebreaks", "points_win", "points_draw", "points_loss", "points_bye", "rated",
    "rated_by", "rated_at", "organizer", "club",
)  # fmt: skip
BRACKET_OPTIONS = ("third_place", "grand_final", "consolation_kind", "last_chance")


def validate(event: Tournament) -> None:
    """The first stage's settings, checked with the event's other rules."""
    if not event.first_stage:
        return
    if event.format in services.ROUND_FORMATS:
        raise InvalidInput(_("After a first stage comes a bracket: choose an elimination format."))
    if not event.advance:
        raise InvalidInput(_("Say how many players go on to the bracket."))
    if event.first_stage == FirstStage.GROUPS:
        if not event.groups:
            raise InvalidInput(_("Say how many groups the first stage has."))
        if event.groups * event.advance < 2:
            raise InvalidInput(_("At least two players must go on to the bracket."))
    elif not event.swiss_rounds:
        raise InvalidInput(_("Say how many rounds the Swiss has."))
    elif event.advance < 2:
        raise InvalidInput(_("At least two players must go on to the bracket."))


def first_stage_start(event: Tournament, entries: list[Entry], by: User) -> list[Tournament]:
    """Called by the event's start (locked, running now): the groups, dealt by snake from the
    seeded entries with players of one club kept apart, or the Swiss, each started."""
    if event.first_stage == FirstStage.GROUPS:
        count = event.groups or 0
        if len(entries) < count * grouping.MIN_GROUP_SIZE:
            raise Conflict(
                _("%(count)s players cannot make %(groups)s groups of at least two.")
                % {"count": len(entries), "groups": count}
            )
        if (event.advance or 0) >= len(entries) // count:
            raise Conflict(
                _("Each group needs more players than the %(advance)s who go on.")
                % {"advance": event.advance}
            )
        dealt = grouping.snake(len(entries), count, [entry.player.club for entry in entries])
        stages = []
        for index, seeds in enumerate(dealt):
            letter = grouping.group_name(index)
            stage = _stage(event, 1, Format.ROUND_ROBIN, letter, _("Group %(letter)s") % {
                "letter": letter})  # fmt: skip
            _enter(stage, [entries[seed - 1].player for seed in seeds])
            stages.append(services.tournament_start(tournament=stage, by=by))
        return stages
    if (event.advance or 0) > len(entries):
        raise Conflict(_("More players go on than there are."))
    stage = _stage(event, 1, Format.SWISS, "", _("Stage 1"))
    stage.swiss_rounds = event.swiss_rounds
    stage.save(update_fields=["swiss_rounds"])
    _enter(stage, [entry.player for entry in entries])
    return [services.tournament_start(tournament=stage, by=by)]


@dataclass(frozen=True)
class Qualifier:
    """A player who goes on: bracket seed, the player, and where they finished stage 1."""

    seed: int
    player: Player
    group: str
    place: int


def stage_one_complete(event: Tournament) -> bool:
    """Every stage-1 match decided (and, in a Swiss, every round played)."""
    stages = list(event.stages.filter(stage=1))
    if not stages:
        return False
    for stage in stages:
        if stage.matches.exclude(status__in=Match.DECIDED).exclude(away__isnull=True).exists():
            return False
        if stage.format == Format.SWISS and stage.rounds.count() < (stage.swiss_rounds or 0):
            return False
    return True


def qualifiers(
    event: Tournament, standings: Sequence[tuple[Tournament, Sequence[Standing]]] | None = None
) -> list[Qualifier]:
    """Who goes on, by bracket seed: each group's top ``advance`` cross-seeded (A1–B2, B1–A2 …),
    or the Swiss's top ``advance`` in order. ``standings``: the stage-1 tournaments by group with
    their standings, when the caller has them already."""
    if standings is None:
        stages = event.stages.filter(stage=1).order_by("group")
        standings = [(stage, tournament_standings(tournament=stage)) for stage in stages]
    advance = event.advance or 0
    if event.first_stage == FirstStage.SWISS:
        rows = standings[0][1][:advance]
        return [Qualifier(n, row.entry.player, "", n) for n, row in enumerate(rows, start=1)]
    stages = [stage for stage, _ in standings]
    tables = [rows[:advance] for _, rows in standings]
    return [
        Qualifier(seed, tables[group][place - 1].entry.player, stages[group].group, place)
        for seed, (group, place) in enumerate(grouping.cross_seeding(len(stages), advance), start=1)
    ]


@transaction.atomic
def stage_two_build(*, event: Tournament, by: User) -> Tournament:
    """Build and start the bracket from stage 1's standings, once the organizer confirms."""
    event = _for_organizer(event, by)
    if event.stages.filter(stage=2).exists():
        raise Conflict(_("Stage 2 is built already."))
    if not stage_one_complete(event):
        raise Conflict(_("Stage 1 is not finished: every match needs its result first."))
    stage = _stage(event, 2, event.format, "", _("Stage 2"))
    for option in BRACKET_OPTIONS:
        setattr(stage, option, getattr(event, option))
    stage.save(update_fields=list(BRACKET_OPTIONS))
    _enter(stage, [qualifier.player for qualifier in qualifiers(event)])
    return services.tournament_start(tournament=stage, by=by)


@transaction.atomic
def stage_two_reset(*, event: Tournament, by: User) -> None:
    """Delete stage 2 (its matches and results; rated ones leave the rating list) so that stage
    1 can be corrected; build it again afterwards."""
    event = _for_organizer(event, by)
    stage = event.stages.filter(stage=2).first()
    if stage is None:
        raise Conflict(_("There is no stage 2 to reset."))
    tournament_delete(stage, by=by)  # type: ignore[arg-type]


def finish_check(event: Tournament) -> None:
    """Before the event finishes: its bracket is played out. The stages finish with it."""
    stage = event.stages.filter(stage=2).first()
    if stage is None:
        raise Conflict(_("Stage 2 is not built yet."))
    open_matches = stage.matches.exclude(status__in=Match.DECIDED).exclude(
        home__isnull=True, away__isnull=True
    )
    if open_matches.exists():
        raise Conflict(
            _("%(count)s matches of stage 2 have no decided result yet.")
            % {"count": open_matches.count()}
        )
    event.stages.update(status=Tournament.Status.FINISHED)


# --- Inside ------------------------------------------------------------------------------------


def _for_organizer(event: Tournament, by: User) -> Tournament:
    event = locked(Tournament, event.pk)
    if not is_organizer(event, by):
        raise NotAllowed(_("Only the tournament's organizers may do this."))
    if not event.first_stage or event.status != Tournament.Status.RUNNING:
        raise Conflict(_("This is not a running two-stage event."))
    return event


def _stage(event: Tournament, number: int, format: str, group: str, title: str) -> Tournament:
    suffix = f"group-{group.lower()}" if group else f"stage-{number}"
    stage = Tournament(
        parent=event, stage=number, group=group, format=format, name=f"{event.name} · {title}",
        slug=f"{event.slug[:180]}-{suffix}", status=Tournament.Status.REGISTRATION,
    )  # fmt: skip
    for name in INHERITED:
        setattr(stage, name, getattr(event, name))
    stage.save()
    stage.co_organizers.set(event.co_organizers.all())
    return stage


def _enter(stage: Tournament, players: list[Player]) -> None:
    Entry.objects.bulk_create(
        Entry(tournament=stage, player=player, seed=seed, checked_in_at=None)
        for seed, player in enumerate(players, start=1)
    )
