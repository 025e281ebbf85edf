"""Whose a new player record is: every player (and every pair, whose record is a player) has a
**home club**, set once when the record is made, whose owners and organizers then decide who
the player is, read and edit their profile, and rename a pair (``tournaments.policy``):

- the club given then (one the maker runs);
- else the club of the tournament the player was made for;
- else the maker's club, when they run exactly one;
- otherwise none: the record is decided by staff only.
"""

from __future__ import annotations

from tournaments.clubs.models import Club
from tournaments.models import Tournament
from tournaments.policy import RUNS_EVENTS, User, require


def home_club_of_new(
    *, by: User, given: Club | None = None, tournament: Tournament | None = None
) -> Club | None:
    """The home club of a player record ``by`` is making now (see the module's rule). A club
    given that ``by`` does not run is refused."""
    if given is not None:
        require(by, "club.events", given, club=given.name)
        return given
    if tournament is not None and tournament.club_id is not None:
        return tournament.club
    if not by.is_authenticated:
        return None
    # Staff run every club, but belong to some: only clubs the user is a runner of by role.
    clubs = list(
        Club.objects.filter(memberships__user_id=by.pk, memberships__role__in=RUNS_EVENTS)[:2]
    )
    return clubs[0] if len(clubs) == 1 else None
