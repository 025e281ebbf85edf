"""The first stage of a two-stage event, as the event's start makes it: its settings checked,
its groups dealt by snake (players of one club kept apart) or its Swiss, each a tournament of
its own entered with the event's players; and the event's finish waits for its bracket.
``tournaments.stages`` builds and resets stage 2 on these."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.declarations import Stages, taken_by_stages
from tournaments.errors import Conflict, InvalidInput
from tournaments.formats import groups as grouping
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.services.checks import Format

FirstStage = Tournament.FirstStage


#: What a stage takes over from its event: the settings every stage inherits (their
#: declarations say so), the event's rating approval, its organizer and its club.
INHERITED = (
    *taken_by_stages(Tournament, Stages.EVERY),
    "rated", "rated_by", "rated_at", "organizer", "club",
)  # fmt: skip


def first_stage_validate(event: Tournament) -> None:
    """The first stage's settings, checked with the event's other rules."""
    if not event.first_stage:
        return
    if event.format in Tournament.ROUND_FORMATS:
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


def first_stage_make(event: Tournament, entries: list[Entry]) -> list[Tournament]:
    """Called by the event's start (locked, running now): the groups, dealt by snake from the
    seeded entries with players of one club kept apart, or the Swiss, entered and ready for
    their own start."""
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
            stage = stage_make(event, 1, Format.ROUND_ROBIN, letter, _("Group %(letter)s") % {
                "letter": letter})  # fmt: skip
            stage_enter(stage, [entries[seed - 1].player for seed in seeds])
            stages.append(stage)
        return stages
    if (event.advance or 0) > len(entries):
        raise Conflict(_("More players go on than there are."))
    stage = stage_make(event, 1, Format.SWISS, "", _("Stage 1"))
    stage.swiss_rounds = event.swiss_rounds
    stage.save(update_fields=["swiss_rounds"])
    stage_enter(stage, [entry.player for entry in entries])
    return [stage]


def first_stage_finish_check(event: Tournament) -> None:
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


def stage_make(event: Tournament, number: int, format: str, group: str, title: str) -> Tournament:
    """A stage of ``event``: a tournament of its own that takes the event's rules."""
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


def stage_enter(stage: Tournament, players: list[Player]) -> None:
    """Enter the players in the stage, seeded in the order given."""
    Entry.objects.bulk_create(
        Entry(tournament=stage, player=player, seed=seed, checked_in_at=None)
        for seed, player in enumerate(players, start=1)
    )
