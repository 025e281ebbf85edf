"""The identity rule: a player's record belongs to the player and to the club that made it.

- Every player has a **home club**, set once when the record is made: the club given then (one
  the creator runs), else the club of the tournament the player was created for, else the
  creator's club when they run exactly one; otherwise none.
- Who the player is (a claim approved or declined, an account link removed, a merge) is decided
  by staff and by the owners and organizers of the home club. A player with no home club is
  decided by staff only.
- A merge needs that right over **both** players; players of two different home clubs (or of
  none) are merged by staff only. Undoing a merge is for staff.
- Entering a player in a tournament, playing a match with them or recording a result gives no
  right over the player's identity.
- A player's **profile** (gender and birth year, which a tournament of a category asks for) is
  personal: the player's own account reads and edits it, and so do those who decide who the
  player is (staff, the runners of the home club, who keep the records of their club's
  players). Nobody else reads it, not a tournament's organizers either: a sign-up or an entry
  is checked against it by the site, whose refusal says only why the player does not fit.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.clubs.permissions import RUNS_EVENTS, User, runs_club
from tournaments.errors import NotAllowed
from tournaments.models import Player, Tournament


def is_staff(user: User) -> bool:
    return bool(user.is_authenticated and getattr(user, "is_staff", False))


def may_decide(player: Player, user: User) -> bool:
    """Staff, or an owner or organizer of the player's home club."""
    if is_staff(user):
        return True
    return player.home_club_id is not None and runs_club(player.home_club_id, user)


def may_edit_profile(player: Player, user: User) -> bool:
    """The player's own account, staff, or an owner or organizer of the player's home club."""
    if user.is_authenticated and player.user_id is not None and player.user_id == user.pk:
        return True
    return may_decide(player, user)


def may_merge(keep: Player, drop: Player, user: User) -> bool:
    """Staff, or a runner of the one home club both players have."""
    if is_staff(user):
        return True
    return keep.home_club_id == drop.home_club_id and may_decide(keep, user)


def require_decide(player: Player, user: User) -> None:
    if not may_decide(player, user):
        raise NotAllowed(
            _("Only staff, or an organizer of the player's home club, may decide who the player "
              "is.")
        )  # fmt: skip


def require_edit_profile(player: Player, user: User) -> None:
    if not may_edit_profile(player, user):
        raise NotAllowed(
            _("Only the player, staff, or an organizer of the player's home club may see or "
              "change the player's profile.")
        )  # fmt: skip


def require_merge(keep: Player, drop: Player, user: User) -> None:
    if not may_merge(keep, drop, user):
        raise NotAllowed(
            _("Only staff, or an organizer of the home club of both players, may merge them; "
              "players of two clubs are merged by staff.")
        )  # fmt: skip


def home_club_of_new(
    *, by: User, given: Club | None = None, tournament: Tournament | None = None
) -> Club | None:
    """The home club of a player record ``by`` is making now (see the module's rule). A club
    given that ``by`` does not run is refused."""
    if given is not None:
        if not runs_club(given, by):
            raise NotAllowed(
                _("You may make players only for a club you organize: %(club)s is not one.")
                % {"club": given.name}
            )
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
