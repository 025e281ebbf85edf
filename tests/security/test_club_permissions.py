"""The permission matrix of the club and season pages, for every persona: the club's owner, an
organizer and a plain member of Riga, the owner of another club, an outsider, staff and an
anonymous visitor. A visitor is sent to the login page, a signed-in user who may not act gets 403
before any form is read, one who may is sent on (302); and a refused action changes nothing."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.models import Tournament
from tournaments.seasons.models import Season
from tournaments.seasons.services import season_create, season_event_set
from tournaments.services import tournament_create

from .conftest import LOGIN, TOURNAMENT_FORM, assert_expected, persona_users

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "member", "other_owner", "organizer", "owner", "staff")
RUNNERS = {"anonymous": LOGIN, "outsider": 403, "member": 403, "other_owner": 403,
           "organizer": 302, "owner": 302, "staff": 302}  # fmt: skip
OWNERS = {**RUNNERS, "organizer": 403}
RUNNER_PAGES = {**RUNNERS, "organizer": 200, "owner": 200, "staff": 200}


@pytest.fixture
def world():
    users = persona_users(PERSONAS)
    User.objects.create_user("newcomer")
    riga = club_create(by=users["owner"], name="Riga")
    member_add(club=riga, by=users["owner"], username="organizer", role=Membership.Role.ORGANIZER)
    member_add(club=riga, by=users["owner"], username="member")
    club_create(by=users["other_owner"], name="Tallinn")
    season = season_create(club=riga, by=users["owner"], name="Autumn")
    tournament_create(organizer=users["owner"], name="Spare", variant="long", club=riga)
    counted = tournament_create(organizer=users["owner"], name="Counted", variant="long", club=riga)
    season_event_set(tournament=counted, season=season, by=users["owner"])
    return users


def snapshot() -> dict:
    return {
        "clubs": sorted(Club.objects.values_list("name", "city")),
        "members": sorted(Membership.objects.values_list("club__name", "user__username", "role")),
        "seasons": sorted(Season.objects.values_list("name", "place_points")),
        "tournaments": sorted(Tournament.objects.values_list("name", "club__name", "season__name")),
    }


def spare_pk() -> int:
    return Tournament.objects.get(name="Spare").pk


def counted_pk() -> int:
    return Tournament.objects.get(name="Counted").pk


def member_pk() -> int:
    return User.objects.get(username="member").pk


SEASON_RULE = {"action": "rule", "name": "Renamed", "scoring": "place",
               "place_points": "10, 5", "win_points": "1"}  # fmt: skip

# name: (address, body, expected)
ACTIONS = {
    "club: edit": (lambda: reverse("club-edit", args=["riga"]),
                   lambda: {"name": "Riga", "city": "Jurmala"}, RUNNERS),
    "members: add a member": (lambda: reverse("club-members", args=["riga"]),
                              lambda: {"action": "add", "username": "newcomer", "role": "member"},
                              RUNNERS),
    "members: name an organizer": (lambda: reverse("club-members", args=["riga"]),
                                   lambda: {"action": "add", "username": "member",
                                            "role": "organizer"}, OWNERS),
    "members: remove a member": (lambda: reverse("club-members", args=["riga"]),
                                 lambda: {"action": "remove", "user": member_pk()},
                                 {**RUNNERS, "member": 302}),  # a member may leave
    "season: create": (lambda: reverse("season-create", args=["riga"]),
                       lambda: {"name": "Winter", "scoring": "wins", "place_points": "10",
                                "win_points": "1"}, RUNNERS),
    "season: change the rule": (lambda: reverse("season-edit", args=["riga", "autumn"]),
                                lambda: SEASON_RULE, RUNNERS),
    "season: add an event": (lambda: reverse("season-edit", args=["riga", "autumn"]),
                             lambda: {"action": "add", "tournament": spare_pk()}, RUNNERS),
    "season: remove an event": (lambda: reverse("season-edit", args=["riga", "autumn"]),
                                lambda: {"action": "remove", "tournament": counted_pk()},
                                RUNNERS),
    "tournament: create for the club": (
        lambda: reverse("tournament-create"),
        lambda: {**TOURNAMENT_FORM, "club_season": f"club:{Club.objects.get(name='Riga').pk}"},
        # Who runs no club has no such choice in the form: a 400 that makes nothing.
        {**RUNNERS, "outsider": 400, "member": 400, "other_owner": 400},
    ),
}  # fmt: skip


def login(client, world, persona):
    if world[persona] is not None:
        client.force_login(world[persona])
    return client


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("persona", PERSONAS)
def test_club_actions(client, world, action, persona):
    address, body, expected = ACTIONS[action]
    state = snapshot()

    response = login(client, world, persona).post(address(), body())

    assert_expected(response, expected[persona], persona)
    if response.status_code == 302 and expected[persona] != LOGIN:
        assert snapshot() != state, "an allowed action changed nothing: is the test still real?"
    else:
        assert snapshot() == state


@pytest.mark.parametrize(
    "page",
    [("club-edit", ["riga"]), ("club-members", ["riga"]), ("season-create", ["riga"]),
     ("season-edit", ["riga", "autumn"])],
)  # fmt: skip
@pytest.mark.parametrize("persona", PERSONAS)
def test_the_clubs_own_pages_are_for_those_who_run_it(client, world, page, persona):
    response = login(client, world, persona).get(reverse(page[0], args=page[1]))

    assert_expected(response, RUNNER_PAGES[persona], persona)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_public_club_pages_are_for_everyone(client, world, persona):
    login(client, world, persona)
    for address in (reverse("club-list"), reverse("club", args=["riga"]),
                    reverse("season", args=["riga", "autumn"]),
                    reverse("season-csv", args=["riga", "autumn"])):  # fmt: skip
        assert client.get(address).status_code == 200, address
