"""The audit trail of players' identities (``IdentityAudit``): every claim decided, account link
removed, merge and rename and their undoing, with who, when, and both players as they were before.

Writers call ``identity_record`` inside the transaction of their change, so a row exists exactly
when the change does. Staff read all of it; the owners and organizers of a club read the rows of
its players (``identity_trail``)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from tournaments.clubs.selectors import clubs_run_by
from tournaments.models import Player
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.policy import User, is_staff

Action = IdentityAudit.Action


def player_snapshot(player: Player) -> dict[str, Any]:
    """The player's own fields, as JSON: enough to show it and to make it again."""
    return {
        "id": player.pk,
        "display_name": player.display_name,
        "club": player.club,
        "country": player.country,
        # The profile: personal, and so is the trail (its readers may see the profile too).
        "gender": player.gender,
        "birth_year": player.birth_year,
        "region": player.region,
        "sport_rank": player.sport_rank,
        "sport_rank_since": (
            player.sport_rank_since.isoformat() if player.sport_rank_since else None
        ),
        "home_club": player.home_club_id,
        "home_club_name": player.home_club.name if player.home_club_id else None,
        "user": player.user_id,
        "username": player.user.get_username() if player.user_id else None,
        "created_at": player.created_at.isoformat() if player.created_at else None,
    }


def identity_record(
    action: str,
    *,
    by: User,
    player: Player,
    before: dict[str, Any],
    other: Player | None = None,
    claim: PlayerClaim | None = None,
    note: str = "",
) -> IdentityAudit:
    """Write one row of the trail; ``before`` holds the players' snapshots before the change."""
    return IdentityAudit.objects.create(
        action=action,
        actor=by if by.is_authenticated else None,
        player=player,
        other_player_id=other.pk if other is not None else None,
        home_club_id=player.home_club_id,
        other_home_club_id=other.home_club_id if other is not None else None,
        claim=claim,
        before=before,
        note=note[:300],
    )


def identity_trail(*, user: User, player: Player | None = None) -> QuerySet[IdentityAudit]:
    """What ``user`` may read of the trail, newest first (of one player, when given): all of it
    for staff, the rows of their clubs' players for a club's runners, else nothing."""
    rows = IdentityAudit.objects.select_related("actor", "player", "undone_by")
    if player is not None:
        rows = rows.filter(Q(player=player) | Q(other_player_id=player.pk))
    if is_staff(user):
        return rows
    clubs = clubs_run_by(user)
    if not clubs:
        return rows.none()
    return rows.filter(Q(home_club__in=clubs) | Q(other_home_club__in=clubs))
