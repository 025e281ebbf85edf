"""Who may do what in a club: its owners name organizers; owners and organizers run the club's
events and seasons and add members; staff may do all of it. One club's roles give no right in
another club."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club, Membership
from tournaments.errors import NotAllowed

User = AbstractBaseUser | AnonymousUser
RUNS_EVENTS = (Membership.Role.OWNER, Membership.Role.ORGANIZER)


def club_role(club: Club | int, user: User) -> str | None:
    """The user's role in the club (owner, organizer, member), or None."""
    if not user.is_authenticated:
        return None
    club_id = club if isinstance(club, int) else club.pk
    return (
        Membership.objects.filter(club_id=club_id, user_id=user.pk)
        .values_list("role", flat=True)
        .first()
    )


def runs_club(club: Club | int, user: User) -> bool:
    """An owner or organizer of the club, or staff: may run its events, seasons and members."""
    if not user.is_authenticated:
        return False
    return getattr(user, "is_staff", False) or club_role(club, user) in RUNS_EVENTS


def owns_club(club: Club | int, user: User) -> bool:
    """An owner of the club, or staff: may also name organizers and owners."""
    if not user.is_authenticated:
        return False
    return getattr(user, "is_staff", False) or club_role(club, user) == Membership.Role.OWNER


def clubs_run_by(user: User) -> list[Club]:
    """The clubs whose events the user may run (staff: every club)."""
    if not user.is_authenticated:
        return []
    if getattr(user, "is_staff", False):
        return list(Club.objects.all())
    return list(
        Club.objects.filter(memberships__user_id=user.pk, memberships__role__in=RUNS_EVENTS)
    )


def require_runs_club(club: Club | int, user: User) -> None:
    """Refuse (``NotAllowed``) whoever does not run the club."""
    if not runs_club(club, user):
        raise NotAllowed(_("Only the club's owners and organizers may do this."))
