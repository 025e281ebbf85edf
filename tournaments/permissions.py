"""Who may do what in a tournament."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Tournament


def is_organizer(tournament: Tournament, user: AbstractBaseUser | AnonymousUser) -> bool:
    """The organizer, a co-organizer, or staff."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False) or tournament.organizer_id == user.pk:
        return True
    return tournament.co_organizers.filter(pk=user.pk).exists()
