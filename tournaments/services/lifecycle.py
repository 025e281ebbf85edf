"""A tournament's life: created in draft, its rules edited, registration opened, started (the
rounds or the bracket made, or a two-stage event's first stage), its Swiss rounds paired,
finished, and deleted."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils.translation import gettext as _

from tournaments.declarations import settings_of
from tournaments.errors import Conflict, InvalidInput
from tournaments.formats import elimination, round_robin
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.officials.services import require_no_official_entered
from tournaments.players.pairs import members_of
from tournaments.policy import require
from tournaments.ratings.services import tournament_leaving
from tournaments.rows import free_slug
from tournaments.scoring.clock import MAX_BASE_SECONDS, MAX_PER_MOVE_SECONDS, TimeControl
from tournaments.services.checks import (
    Format,
    Status,
    User,
    for_organizer,
    locked_tournament,
    require_status,
)
from tournaments.services.lots import lots_drawn_if_needed
from tournaments.services.pairing import (
    bracket_create,
    round_matches_create,
    seeded,
    swiss_next_round,
)
from tournaments.services.two_stages import (
    first_stage_finish_check,
    first_stage_make,
    first_stage_validate,
)
from tournaments.signups.services import (
    category_check,
    promote_waiting,
    signups_at_start,
)
from tournaments.words import TIEBREAKS

#: The tournament's declared settings (``tournaments.declarations``).
SETTINGS = settings_of(Tournament)


def tournament_create(*, organizer: User, name: str, variant: str, **settings: Any) -> Tournament:
    """A new tournament in draft, organized by ``organizer``; ``settings`` are model fields
    (format, match rules, format options, standings rules), checked as a form would."""
    require(organizer, "tournament.create")
    _require_club_rights(organizer, settings)
    name = name.strip()
    tournament = Tournament(name=name, variant=variant, organizer=organizer, **settings)
    for item in SETTINGS:  # what is not given and depends on the rest (the tie-break order)
        if item.setting.initial is not None and item.name not in settings:
            setattr(tournament, item.name, item.initial_for(tournament))
    tournament.slug = tournament.slug or free_slug(
        Tournament.objects.all(), name, fallback="tournament", limit=180
    )
    return _saved_checked(tournament)


@transaction.atomic
def tournament_open_registration(*, tournament: Tournament, by: User) -> Tournament:
    tournament = for_organizer(tournament, by, Status.DRAFT)
    tournament.status = Status.REGISTRATION
    tournament.save(update_fields=["status"])
    return tournament


@transaction.atomic
def tournament_start(*, tournament: Tournament, by: User) -> Tournament:
    """Close the entries, number the seeds, and make the matches: every round of a round robin,
    the first Swiss round, or the whole bracket."""
    tournament = for_organizer(tournament, by, Status.REGISTRATION, Status.DRAFT)
    signups_at_start(tournament)
    if tournament.parent_id is None:  # an official event: no official, nobody disqualified
        require_no_official_entered(tournament)
    entries = seeded(tournament)
    if len(entries) < 2:
        raise Conflict(_("A tournament needs at least two players."))
    if tournament.min_participants is not None and len(entries) < tournament.min_participants:
        raise Conflict(
            _("The tournament needs at least %(fewest)s players and %(count)s are entered.")
            % {"fewest": tournament.min_participants, "count": len(entries)}
        )
    tournament.status = Status.RUNNING
    tournament.save(update_fields=["status"])
    if tournament.first_stage:
        for stage in first_stage_make(tournament, entries):
            tournament_start(tournament=stage, by=by)
    elif tournament.format in (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN):
        double = tournament.format == Format.DOUBLE_ROUND_ROBIN
        for number, pairs in enumerate(round_robin.berger(len(entries), double), start=1):
            round_ = Round.objects.create(tournament=tournament, number=number)
            round_matches_create(
                round_, [(entries[a - 1], entries[b - 1] if b else None) for a, b in pairs]
            )
    elif tournament.format == Format.SWISS:
        swiss_next_round(tournament)
    else:
        bracket_create(tournament, entries)
    return tournament


def start_notices(tournament: Tournament) -> list[str]:
    """What the start leaves out, and why: shown to the organizer before the start, and in the
    API's answers about the tournament (after the start, what it left out of the settings)."""
    return start_notices_of([tournament])[tournament.pk]


def start_notices_of(tournaments: Sequence[Tournament]) -> dict[int, list[str]]:
    """``start_notices`` of each tournament (by id), in at most three queries however many: a
    list of tournaments asks them all at once."""
    before = (Status.DRAFT, Status.REGISTRATION)
    checking_in = [t.pk for t in tournaments if t.status in before and t.checkin_opens_at()]
    third = [t for t in tournaments if t.third_place and t.format == Format.SINGLE_ELIMINATION]
    gone: dict[int, list[str]] = {}
    if checking_in:
        absent = (
            Entry.objects.filter(
                tournament_id__in=checking_in, checked_in_at__isnull=True, withdrawn=False
            )
            .order_by("player__display_name")
            .values_list("tournament_id", "player__display_name")
        )
        for tournament_id, name in absent:
            gone.setdefault(tournament_id, []).append(name)
    entrants: dict[int, int] = {}
    played: set[int] = set()
    if third:
        counted = (
            Entry.objects.filter(tournament__in=third, withdrawn=False)
            .values("tournament_id")
            .annotate(count=Count("pk"))
            .values_list("tournament_id", "count")
        )
        entrants = dict(counted)
        started = [t.pk for t in third if t.status not in before]
        if started:
            played = set(
                Match.objects.filter(tournament_id__in=started, slot="3P").values_list(
                    "tournament_id", flat=True
                )
            )
    notices: dict[int, list[str]] = {}
    for tournament in tournaments:
        found = []
        if tournament.pk in gone:
            found.append(
                _("Not checked in, so withdrawn at the start: %(names)s.")
                % {"names": ", ".join(gone[tournament.pk])}
            )
        if tournament in third:
            count = entrants.get(tournament.pk, 0)
            if tournament.status in before:
                is_played = tournament.plays_third_place(count)
            else:
                is_played = tournament.pk in played
            if not is_played:
                found.append(
                    _(
                        "No third-place match: it is played by the two semifinal losers, so it "
                        "needs at least %(needed)s players, and there are %(count)s."
                    )
                    % {"needed": elimination.THIRD_PLACE_ENTRANTS, "count": count}
                )
        notices[tournament.pk] = found
    return notices


@transaction.atomic
def swiss_round_pair(*, tournament: Tournament, by: User) -> Round:
    """Pair the next Swiss round once every match of the last one is decided."""
    tournament = for_organizer(tournament, by, Status.RUNNING)
    if tournament.format != Format.SWISS:
        raise Conflict(_("Only Swiss tournaments are paired round by round."))
    return swiss_next_round(tournament)


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by: User) -> Tournament:
    """Finish a tournament whose every match is decided; the places its tie-breaks leave shared
    are decided by lots then, unless its organizer chose shared places (``services.lots``). An
    official event is closed by its chief judge (``policy``'s ``tournament.close``)."""
    tournament = locked_tournament(tournament)
    require(by, "tournament.close", tournament)
    require_status(tournament, Status.RUNNING)
    if tournament.first_stage:
        first_stage_finish_check(tournament)
    open_matches = tournament.matches.exclude(status__in=Match.DECIDED).exclude(
        home__isnull=True, away__isnull=True
    )
    if open_matches.exists():
        raise Conflict(
            _("%(count)s matches have no decided result yet.") % {"count": open_matches.count()}
        )
    tournament.status = Status.FINISHED
    tournament.save(update_fields=["status"])
    lots_drawn_if_needed(tournament, by)  # the places the tie-breaks leave shared
    return tournament


def _require_club_rights(organizer: User, settings: dict[str, Any]) -> None:
    """A tournament of a club (or of one of its seasons) is made by one who runs the club; a
    season's tournament belongs to the season's club."""
    club, season = settings.get("club"), settings.get("season")
    if season is not None:
        if club is not None and club.pk != season.club_id:
            raise InvalidInput(_("The season is another club's."))
        settings["club"] = club = season.club
    if club is not None:
        require(organizer, "club.events", club, club=club.name)


def _saved_checked(tournament: Tournament) -> Tournament:
    """Save the tournament once its settings pass the checks a form would make."""
    validate_rules(tournament)
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError:
        raise InvalidInput(_("The tournament's settings do not fit together.")) from None
    return tournament


def validate_rules(tournament: Tournament) -> None:
    """Field checks as a form makes them, then the rules that fields alone cannot say."""
    try:
        tournament.full_clean(validate_constraints=False)
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    if (tournament.match_length is None) == (tournament.match_games is None):
        raise InvalidInput(_("A match is played to a number of points or as a number of games."))
    if tournament.match_length == 0 or tournament.match_games == 0:
        raise InvalidInput(_("A match has at least one point or one game."))
    for item in SETTINGS:  # a value where the setting does not apply, when that is refused
        refused = item.setting.refused
        value = getattr(tournament, item.name)
        if refused and value != item.default and not item.applies_to(tournament):
            raise InvalidInput(refused)
    first_stage_validate(tournament)
    low, high = tournament.min_age, tournament.max_age
    if low is not None and high is not None and low > high:
        raise InvalidInput(_("The maximum age is below the minimum age."))
    if tournament.checkin_minutes is not None and tournament.starts_at is None:
        raise InvalidInput(_("A check-in needs the start time: it opens before it."))
    _validate_swiss(tournament)
    fewest, places = tournament.min_participants, tournament.capacity
    if fewest is not None and places is not None and tournament.self_signup and fewest > places:
        raise InvalidInput(
            _("The fewest players (%(fewest)s) is more than the places (%(places)s).")
            % {"fewest": fewest, "places": places}
        )
    try:
        TimeControl.from_json(tournament.time_control)
    except ValueError:
        raise InvalidInput(
            _("A time control is null, or its kind (increment or delay), base_seconds (1 to "
              "%(base)s) and per_move_seconds (0 to %(move)s).")
            % {"base": MAX_BASE_SECONDS, "move": MAX_PER_MOVE_SECONDS}
        ) from None  # fmt: skip
    if not isinstance(tournament.tiebreaks, list):
        raise InvalidInput(_("The tie-breaks are a list of names."))
    unknown = set(tournament.tiebreaks) - set(TIEBREAKS)
    if unknown:
        raise InvalidInput(
            _("Unknown tie-breaks: %(names)s.") % {"names": ", ".join(sorted(unknown))}
        )


def _validate_swiss(tournament: Tournament) -> None:
    """A Swiss ends after its rounds, or, when it drops its losers, when fewer than two remain."""
    if tournament.swiss_out_after_losses is None and (
        tournament.format == Format.SWISS and not tournament.swiss_rounds
    ):
        raise InvalidInput(
            _("Say how many rounds the Swiss tournament has, or after how many lost matches a "
              "player is out.")
        )  # fmt: skip


#: While a tournament is in one of these its rules may change; the start locks them.
EDITABLE_STATUSES = (Status.DRAFT, Status.REGISTRATION)


#: What ``tournament_update`` may change: the declared settings (not the slug, whose links are
#: out, the status or the organizers).
EDITABLE_SETTINGS = frozenset(item.name for item in SETTINGS)
#: What the start locks: every setting but those declared open (the name).
LOCKED_SETTINGS = frozenset(item.name for item in SETTINGS if item.setting.locked)


@transaction.atomic
def tournament_update(*, tournament: Tournament, by: User, **settings: Any) -> Tournament:
    """Change a tournament's name and rules before it starts, checked as at creation; once the
    matches are made from the rules, the rules are locked."""
    unknown = set(settings) - EDITABLE_SETTINGS
    if unknown:
        raise TypeError(f"not an editable setting: {', '.join(sorted(unknown))}")
    tournament = locked_tournament(tournament)
    require(by, "tournament.run", tournament)
    changed = {name for name, value in settings.items() if getattr(tournament, name) != value}
    if tournament.status not in EDITABLE_STATUSES and changed & LOCKED_SETTINGS:
        raise Conflict(_("The tournament has started: its rules are locked."))
    who_may_play = _who_may_play(tournament)
    becomes_official = bool(settings.get("official")) and not tournament.official
    changes_pairs = "pairs" in settings and settings["pairs"] != tournament.pairs
    if changes_pairs and (tournament.entries.exists() or tournament.signups.exists()):
        raise Conflict(_("Players are entered or signed up: pairs and single players do not mix."))
    for name, value in settings.items():
        setattr(tournament, name, value)
    tournament.name = tournament.name.strip()
    tournament = _saved_checked(tournament)
    if becomes_official:  # no official of it, nobody disqualified, may be entered already
        require_no_official_entered(tournament)
    if _who_may_play(tournament) != who_may_play:
        # The players entered must fit the new category, minimum age or year of the start.
        for entry in tournament.entries.select_related("player").order_by("pk"):
            for player in members_of(entry.player):
                category_check(tournament=tournament, player=player, by=by)
    if tournament.status in EDITABLE_STATUSES:
        promote_waiting(tournament)  # there may be more places
    return tournament


def _who_may_play(tournament: Tournament) -> tuple[str, int | None, int | None, int]:
    return tournament.category, tournament.min_age, tournament.max_age, tournament.age_year()


def tournament_delete(tournament: Tournament, by: User | None = None) -> None:
    """Delete a tournament with its matches, games, entries and rounds (the matches go first:
    their links to the entries are protected). Its rated matches leave the rating ledger
    (``tournaments.ratings.services.tournament_leaving``: the list is replayed on commit, its
    trail records it)."""
    with transaction.atomic():
        tournament_leaving(tournament, by=by)
        Match.objects.filter(tournament=tournament).delete()
        tournament.delete()
