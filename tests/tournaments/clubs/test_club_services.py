"""Clubs: the creator owns the club; owners name organizers, organizers add members; the last
owner stays; a club's organizers run its tournaments and nobody else's. Every refusal changes
nothing."""

import pytest
from django.contrib.auth.models import AnonymousUser, User

from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, club_update, member_add, member_remove
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Tournament
from tournaments.policy import organizes
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db
Role = Membership.Role


@pytest.fixture
def people():
    return {name: User.objects.create_user(name, password="x") for name in
            ("olga", "ivan", "mila", "oscar")}  # fmt: skip


@pytest.fixture
def riga(people):
    club = club_create(by=people["olga"], name="Riga Nardy Club", city="Riga", country="LV")
    member_add(club=club, by=people["olga"], username="ivan", role=Role.ORGANIZER)
    return club


def roles(club: Club) -> dict[str, str]:
    return {m.user.username: m.role for m in club.memberships.select_related("user")}


def test_the_creator_owns_the_new_club(people):
    club = club_create(by=people["olga"], name="  Riga Nardy Club ", country="LV")
    assert (club.name, club.slug) == ("Riga Nardy Club", "riga-nardy-club")
    assert roles(club) == {"olga": Role.OWNER}


@pytest.mark.parametrize(
    "fields, refusal",
    [
        ({"name": ""}, "needs a name"),
        ({"name": "Riga Nardy Club"}, "already exists"),
        ({"name": "Other", "country": "Latvia"}, "two-letter"),
    ],
)
def test_a_bad_club_is_refused_and_nothing_is_made(people, riga, fields, refusal):
    with pytest.raises(InvalidInput, match=refusal):
        club_create(by=people["mila"], **fields)
    assert Club.objects.count() == 1 and Membership.objects.count() == 2


def test_an_anonymous_visitor_cannot_create_a_club():
    with pytest.raises(NotAllowed):
        club_create(by=AnonymousUser(), name="Ghost club")
    assert not Club.objects.exists()


def test_organizers_add_members_and_only_owners_name_organizers(people, riga):
    member_add(club=riga, by=people["ivan"], username="mila")
    assert roles(riga)["mila"] == Role.MEMBER
    with pytest.raises(NotAllowed, match="owners"):
        member_add(club=riga, by=people["ivan"], username="mila", role=Role.ORGANIZER)
    with pytest.raises(NotAllowed, match="owners"):
        member_add(club=riga, by=people["ivan"], username="olga", role=Role.MEMBER)
    with pytest.raises(NotAllowed):
        member_add(club=riga, by=people["mila"], username="oscar")
    assert roles(riga) == {"olga": Role.OWNER, "ivan": Role.ORGANIZER, "mila": Role.MEMBER}
    member_add(club=riga, by=people["olga"], username="mila", role=Role.ORGANIZER)
    assert roles(riga)["mila"] == Role.ORGANIZER


def test_an_unknown_user_or_role_is_refused(people, riga):
    with pytest.raises(InvalidInput, match="no user"):
        member_add(club=riga, by=people["olga"], username="nobody")
    with pytest.raises(InvalidInput, match="Unknown role"):
        member_add(club=riga, by=people["olga"], username="mila", role="king")
    assert set(roles(riga)) == {"olga", "ivan"}


def test_the_last_owner_can_neither_leave_nor_step_down(people, riga):
    with pytest.raises(Conflict, match="at least one owner"):
        member_remove(club=riga, by=people["olga"], user_id=people["olga"].pk)
    with pytest.raises(Conflict, match="at least one owner"):
        member_add(club=riga, by=people["olga"], username="olga", role=Role.MEMBER)
    member_add(club=riga, by=people["olga"], username="ivan", role=Role.OWNER)
    member_remove(club=riga, by=people["olga"], user_id=people["olga"].pk)
    assert roles(riga) == {"ivan": Role.OWNER}


def test_a_member_may_leave_but_not_remove_others(people, riga):
    member_add(club=riga, by=people["olga"], username="mila")
    member_add(club=riga, by=people["olga"], username="oscar")
    with pytest.raises(NotAllowed):
        member_remove(club=riga, by=people["mila"], user_id=people["oscar"].pk)
    member_remove(club=riga, by=people["mila"], user_id=people["mila"].pk)
    assert set(roles(riga)) == {"olga", "ivan", "oscar"}
    with pytest.raises(InvalidInput, match="not a member"):
        member_remove(club=riga, by=people["olga"], user_id=people["mila"].pk)


def test_only_owners_and_organizers_edit_the_club(people, riga):
    member_add(club=riga, by=people["olga"], username="mila")
    with pytest.raises(NotAllowed):
        club_update(club=riga, by=people["mila"], city="Jurmala")
    club_update(club=riga, by=people["ivan"], city=" Jurmala ")
    riga.refresh_from_db()
    assert riga.city == "Jurmala"


def test_club_organizers_run_the_clubs_tournaments_and_no_other_clubs(people, riga):
    other = club_create(by=people["mila"], name="Tallinn Backgammon")
    ours = tournament_create(organizer=people["olga"], name="Monday", variant="long", club=riga)
    theirs = tournament_create(organizer=people["mila"], name="Tue", variant="long", club=other)
    assert organizes(ours, people["ivan"])
    assert not organizes(theirs, people["ivan"]) and not organizes(ours, people["mila"])
    member_add(club=riga, by=people["olga"], username="oscar")
    assert not organizes(ours, people["oscar"])  # a plain member runs nothing


def test_only_those_who_run_a_club_create_its_tournaments(people, riga):
    with pytest.raises(NotAllowed):
        tournament_create(organizer=people["mila"], name="Sneaky", variant="long", club=riga)
    assert not Tournament.objects.exists()
