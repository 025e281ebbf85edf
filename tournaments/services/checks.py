"""Who may change a tournament, and in which state: the checks every service makes first, on
the tournament's row locked for the change."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Tournament
from tournaments.permissions import is_organizer
from tournaments.rows import locked

User = AbstractBaseUser | AnonymousUser
Format = Tournament.Format
Status = Tournament.Status


def locked_tournament(tournament: Tournament) -> Tournament:
    return locked(Tournament, tournament.pk)


def for_organizer(tournament: Tournament, by: User, *statuses: str) -> Tournament:
    """The locked tournament, once ``by`` is known to organize it and it is in a fit state."""
    tournament = locked_tournament(tournament)
    require_organizer(tournament, by)
    require_status(tournament, *statuses)
    return tournament


def require_organizer(tournament: Tournament, user: User) -> None:
    if not is_organizer(tournament, user):
        raise NotAllowed(_("Only the tournament's organizers may do this."))


def require_status(tournament: Tournament, *allowed: str) -> None:
    if tournament.status not in allowed:
        raise Conflict(
            _("The tournament is %(status)s: this cannot be done now.")
            % {"status": tournament.get_status_display()}
        )
