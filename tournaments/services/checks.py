"""In which state a tournament may change: the checks every service makes first, on the
tournament's row locked for the change (who may change it is ``tournaments.policy``'s)."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.models import Tournament
from tournaments.policy import require
from tournaments.rows import locked

User = AbstractBaseUser | AnonymousUser
Format = Tournament.Format
Status = Tournament.Status


def locked_tournament(tournament: Tournament) -> Tournament:
    return locked(Tournament, tournament.pk)


def for_organizer(tournament: Tournament, by: User, *statuses: str) -> Tournament:
    """The locked tournament, once ``by`` may run it and it is in a fit state."""
    tournament = locked_tournament(tournament)
    require(by, "tournament.run", tournament)
    require_status(tournament, *statuses)
    return tournament


def require_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise Conflict(
            _("The tournament is %(status)s: this cannot be done now.")
            % {"status": tournament.get_status_display()}
        )
