"""Who sees the club and season pages (their writes are rows of the generated matrix,
test_permission_matrix.py), for every persona: the club's owner, an organizer and a plain member
of Riga, the owner of another club, an outsider, staff and an anonymous visitor. A visitor is
sent to the login page, a signed-in user who may not act gets 403 before any form is read."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.seasons.services import season_create, season_event_set
from tournaments.services import tournament_create

from .conftest import LOGIN, assert_expected, persona_users

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "member", "other_owner", "organizer", "owner", "staff")
RUNNERS = {"anonymous": LOGIN, "outsider": 403, "member": 403, "other_owner": 403,
           "organizer": 302, "owner": 302, "staff": 302}  # fmt: skip
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


def login(client, world, persona):
    if world[persona] is not None:
        client.force_login(world[persona])
    return client


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
