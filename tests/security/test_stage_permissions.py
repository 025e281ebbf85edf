"""The permission matrix of a two-stage event's steps: building stage 2 and resetting it are the
event's organizers' (and its club's); anyone else is refused with nothing changed."""

import pytest
from django.urls import reverse

from tournaments.models import Match, Player, Tournament
from tournaments.results import match_result_record
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)
from tournaments.stages.services import stage_two_build

from .conftest import LOGIN, assert_expected, persona_users, riga_beside_tallinn

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "other_club_organizer", "club_organizer", "organizer",
            "staff")  # fmt: skip
ORGANIZERS = {"anonymous": LOGIN, "outsider": 403, "other_club_organizer": 403,
              "club_organizer": 302, "organizer": 302, "staff": 302}  # fmt: skip


@pytest.fixture
def world():
    users = persona_users(PERSONAS)
    riga = riga_beside_tallinn(users)
    cup = tournament_create(organizer=users["organizer"], name="Cup", slug="cup", variant="long",
                            club=riga, format="single-elimination", first_stage="groups",
                            groups=2, advance=1, match_length=1)  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=users["organizer"])
    for name in ("A", "B", "C", "D"):
        entry_register(tournament=cup, player=Player.objects.create(display_name=name),
                       by=users["organizer"])  # fmt: skip
    tournament_start(tournament=cup, by=users["organizer"])
    for match in Match.objects.filter(tournament__parent=cup):
        match_result_record(match=match, by=users["organizer"], score=(1, 0))
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
