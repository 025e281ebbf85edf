"""A club's writes: create it, edit it, and manage its members. Each checks who acts and does its
whole job in one transaction, or raises a ``TournamentError`` having changed nothing."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club, Membership
from tournaments.errors import Conflict, InvalidInput
from tournaments.policy import User, may, require
from tournaments.rows import free_slug, locked

Role = Membership.Role
#: What ``club_update`` may change (not the slug: links are out).
EDITABLE = frozenset({"name", "city", "country", "description"})


@transaction.atomic
def club_create(
    *, by: User, name: str, city: str = "", country: str = "", description: str = ""
) -> Club:
    """A new club; whoever creates it is its first owner."""
    require(by, "club.create")
    club = Club(
        name=name.strip(), city=city.strip(), country=country, description=description.strip()
    )
    club.slug = free_slug(Club.objects.all(), club.name, fallback="club", limit=140)
    _check(club)
    club.save()
    Membership.objects.create(club=club, user_id=by.pk, role=Role.OWNER)
    return club


@transaction.atomic
def club_update(*, club: Club, by: User, **fields: str) -> Club:
    unknown = set(fields) - EDITABLE
    if unknown:
        raise TypeError(f"not an editable club field: {', '.join(sorted(unknown))}")
    club = locked(Club, club.pk)
    require(by, "club.edit", club)
    for name, value in fields.items():
        setattr(club, name, value.strip())
    _check(club)
    club.save()
    return club


@transaction.atomic
def member_add(*, club: Club, by: User, username: str, role: str = Role.MEMBER) -> Membership:
    """Add a user to the club, or change a member's role. Organizers add members; only an owner
    names organizers and owners, or changes an organizer's or owner's role."""
    if role not in Role.values:
        raise InvalidInput(_("Unknown role: %(role)s.") % {"role": role})
    club = locked(Club, club.pk)
    _require_rights(club, by, role)
    user = get_user_model().objects.filter(username=username.strip()).first()
    if user is None:
        raise InvalidInput(_("There is no user %(name)s.") % {"name": username.strip()})
    membership = Membership.objects.filter(club=club, user=user).first()
    if membership is None:
        return Membership.objects.create(club=club, user=user, role=role)
    _require_rights(club, by, membership.role)
    if membership.role == Role.OWNER and role != Role.OWNER:
        _require_another_owner(club, membership)
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, club: Club, by: User, user_id: int) -> None:
    """Remove a member. Members may leave by themselves; the last owner stays."""
    club = locked(Club, club.pk)
    membership = Membership.objects.filter(club=club, user_id=user_id).first()
    if membership is None:
        raise InvalidInput(_("This user is not a member of the club."))
    if not may(by, "club.leave", membership):
        _require_rights(club, by, membership.role)
    if membership.role == Role.OWNER:
        _require_another_owner(club, membership)
    membership.delete()


# --- Inside ------------------------------------------------------------------------------------


def _require_rights(club: Club, by: User, role: str) -> None:
    """Organizers manage plain members; owners manage every role."""
    require(by, "club.members", club)
    if role != Role.MEMBER:
        require(by, "club.roles", club)


def _require_another_owner(club: Club, membership: Membership) -> None:
    others = Membership.objects.filter(club=club, role=Role.OWNER).exclude(pk=membership.pk)
    if not others.exists():
        raise Conflict(_("A club keeps at least one owner: name another owner first."))


def _check(club: Club) -> None:
    """The checks a form makes, with the unique name among them."""
    if not club.name:
        raise InvalidInput(_("A club needs a name."))
    try:
        club.full_clean()
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
