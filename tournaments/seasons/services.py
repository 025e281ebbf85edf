"""A season's writes: create it, change its rule, put a club's tournaments in it or take them
out. The club's owners and organizers do these; each write raises the season's revision, so its
table is computed again at once."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.errors import Conflict, InvalidInput
from tournaments.models import Tournament
from tournaments.policy import User, require
from tournaments.rows import free_slug, lock, locked
from tournaments.seasons.models import Season

#: What ``season_update`` may change (not the club, nor the slug: links are out).
EDITABLE = frozenset(
    {"name", "starts_on", "ends_on", "scoring", "place_points", "win_points", "best_of"}
)


@transaction.atomic
def season_create(
    *,
    club: Club,
    by: User,
    name: str,
    starts_on: date | None = None,
    ends_on: date | None = None,
    **rule: Any,
) -> Season:
    """A new season of the club; ``rule``: scoring, place_points, win_points, best_of."""
    require(by, "club.seasons", club)
    unknown = set(rule) - EDITABLE
    if unknown:
        raise TypeError(f"not a season setting: {', '.join(sorted(unknown))}")
    season = Season(club=club, name=name.strip(), starts_on=starts_on, ends_on=ends_on, **rule)
    season.slug = free_slug(club.seasons.all(), season.name, fallback="season", limit=140)
    return _saved_checked(season)


@transaction.atomic
def season_update(*, season: Season, by: User, **fields: Any) -> Season:
    unknown = set(fields) - EDITABLE
    if unknown:
        raise TypeError(f"not a season setting: {', '.join(sorted(unknown))}")
    season = locked(Season, season.pk, "club")
    require(by, "club.seasons", season.club)
    for name, value in fields.items():
        setattr(season, name, value.strip() if isinstance(value, str) else value)
    return _saved_checked(season)


@transaction.atomic
def season_event_set(*, tournament: Tournament, season: Season | None, by: User) -> Tournament:
    """Count the tournament in ``season`` (None: in no season). Whoever does it runs the season's
    club and organizes the tournament; a tournament of another club cannot join."""
    tournament = locked(Tournament, tournament.pk)
    require(by, "tournament.run", tournament)
    before = tournament.season_id
    if season is not None:
        season = locked(Season, season.pk, "club")
        require(by, "club.seasons", season.club)
        if tournament.club_id not in (None, season.club_id):
            raise Conflict(_("The tournament belongs to another club: it cannot count here."))
        tournament.club_id = season.club_id
    elif before is not None:
        require(by, "club.seasons", Season.objects.get(pk=before).club)
    if before is not None and (season is None or season.pk != before):
        lock(Season, before)
    tournament.season = season
    tournament.save(update_fields=["season", "club"])
    return tournament


# --- Inside ------------------------------------------------------------------------------------


def _saved_checked(season: Season) -> Season:
    if not season.name:
        raise InvalidInput(_("A season needs a name."))
    if isinstance(season.win_points, int | float | str):
        season.win_points = Decimal(str(season.win_points))
    try:
        season.full_clean(validate_constraints=False)
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    if season.starts_on and season.ends_on and season.ends_on < season.starts_on:
        raise InvalidInput(_("A season cannot end before it starts."))
    try:
        with transaction.atomic():
            season.save()
    except IntegrityError:
        raise Conflict(_("The club has a season with this address already.")) from None
    return season
