"""The permission matrix of a two-stage event's steps: building stage 2 and resetting it are the
event's organizers' (and its club's); anyone else is refused with nothing changed, an organizer
of another club who entered the event's players in a tournament of their own included. The same
steps through the API: test_stage_and_signup_api_permissions.py."""

import pytest
from django.urls import reverse

from tournaments.models import Tournament
from tournaments.stages.services import stage_two_build

from .conftest import LOGIN, assert_expected, cup_after_stage_one, persona_users

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "other_club_organizer", "entering_organizer",
            "club_organizer", "organizer", "staff")  # fmt: skip
ORGANIZERS = {"anonymous": LOGIN, "outsider": 403, "player": 403, "other_club_organizer": 403,
              "entering_organizer": 403, "club_organizer": 302, "organizer": 302,
              "staff": 302}  # fmt: skip


@pytest.fixture
def world():
    users = persona_users(PERSONAS)
    cup_after_stage_one(users)
    return users


def snapshot() -> list:
    return sorted(Tournament.objects.values_list("slug", "stage", "status"))


def built(users) -> None:
    stage_two_build(event=Tournament.objects.get(slug="cup"), by=users["organizer"])


@pytest.mark.parametrize("step", ["build-stage-2", "reset-stage-2"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_stage_steps(client, world, step, persona):
    if step == "reset-stage-2":
        built(world)
    if world[persona] is not None:
        client.force_login(world[persona])
    state = snapshot()

    response = client.post(reverse("tournament-step", args=["cup", step]))

    assert_expected(response, ORGANIZERS[persona], persona)
    if response.status_code == 302 and ORGANIZERS[persona] != LOGIN:
        assert snapshot() != state
    else:
        assert snapshot() == state
