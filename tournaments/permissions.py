"""Who may do what in a tournament."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.clubs.permissions import runs_club
from tournaments.models import Entry, Match, Tournament


def is_organizer(tournament: Tournament, user: AbstractBaseUser | AnonymousUser) -> bool:
    """The organizer, a co-organizer, an owner or organizer of the tournament's club, or staff."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False) or tournament.organizer_id == user.pk:
        return True
    if tournament.club_id is not None and runs_club(tournament.club_id, user):
        return True
    return tournament.co_organizers.filter(pk=user.pk).exists()


def match_side(match: Match, user: AbstractBaseUser | AnonymousUser) -> int | None:
    """1 when the user plays home in this match, 2 away, else None."""
    if not user.is_authenticated:
        return None
    if _players_loaded(match):  # read with the match (select_related): no query
        for side, entry in ((1, match.home), (2, match.away)):
            if entry is not None and entry.player.user_id == user.pk:
                return side
        return None
    entries = {match.home_id: 1, match.away_id: 2}
    found = Entry.objects.filter(pk__in=[e for e in entries if e], player__user_id=user.pk)
    for entry_id in found.values_list("pk", flat=True):
        return entries[entry_id]
    return None


def _players_loaded(match: Match) -> bool:
    """Whether the match's entries and their players came with it (``select_related``)."""
    for side in ("home", "away"):
        if getattr(match, f"{side}_id") is None:
            continue
        if not Match._meta.get_field(side).is_cached(match):
            return False
        if not Entry._meta.get_field("player").is_cached(getattr(match, side)):
            return False
    return True
