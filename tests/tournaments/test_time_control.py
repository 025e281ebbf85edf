"""A tournament's time control (issue 31): none, or a clock per player for the match with an
increment or a delay a move. Its JSON is a contract of the API; the organizer's form offers the
federation's events as presets, or a clock of their own; the page says it in words; the rules
lock it at the start, and a two-stage event's stages take it."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.web.test_organize import FORM, as_user
from tournaments.errors import Conflict, InvalidInput
from tournaments.models import Player, Tournament
from tournaments.scoring.clock import PRESETS, TimeControl
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)

pytestmark = pytest.mark.django_db

FRIENDSHIP_LONG = {"kind": "delay", "base_seconds": 840, "per_move_seconds": 8}


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def test_a_tournament_keeps_its_time_control_and_locks_it_at_the_start(olga):
    cup = tournament_create(organizer=olga, name="Cup", variant="long", time_control=None)
    assert cup.clock() is None
    cup = tournament_update(tournament=cup, by=olga, time_control=FRIENDSHIP_LONG)
    assert cup.clock() == TimeControl("delay", 840, 8)
    cup = tournament_open_registration(tournament=cup, by=olga)
    for name in ("Ann", "Bob"):
        entry_register(tournament=cup, player=Player.objects.create(display_name=name), by=olga)
    tournament_start(tournament=cup, by=olga)
    with pytest.raises(Conflict, match="locked"):
        tournament_update(tournament=cup, by=olga, time_control=None)
    cup.refresh_from_db()
    assert cup.time_control == FRIENDSHIP_LONG


@pytest.mark.parametrize(
    "control",
    [
        {"kind": "fischer", "base_seconds": 840, "per_move_seconds": 8},
        {"kind": "delay", "base_seconds": 0, "per_move_seconds": 8},
        {"kind": "delay", "base_seconds": 840},
        {"kind": "delay", "base_seconds": 840, "per_move_seconds": 601},
        "14+8",
    ],
)
def test_a_time_control_that_cannot_be_is_refused(olga, control):
    with pytest.raises(InvalidInput, match="A time control is null"):
        tournament_create(organizer=olga, name="Cup", variant="long", time_control=control)
    assert not Tournament.objects.exists()


def test_the_stages_of_a_two_stage_event_take_its_clock(olga):
    cup = tournament_create(
        organizer=olga, name="Cup", variant="short", format="single-elimination",
        first_stage="groups", groups=2, advance=1, match_length=3, time_control=FRIENDSHIP_LONG,
    )  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=olga)
    for name in ("A", "B", "C", "D"):
        entry_register(tournament=cup, player=Player.objects.create(display_name=name), by=olga)
    tournament_start(tournament=cup, by=olga)
    assert [stage.time_control for stage in cup.stages.all()] == [FRIENDSHIP_LONG] * 2


def test_the_api_takes_and_gives_the_contract(client, olga):
    client.force_login(olga)
    blitz = {"kind": "increment", "base_seconds": 60, "per_move_seconds": 10}
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Blitz", "slug": "blitz", "variant": "long", "match_length": 3,
         "time_control": blitz},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["time_control"] == blitz
    assert client.get("/api/v1/tournaments/blitz/").json()["time_control"] == blitz
    plain = client.post(
        "/api/v1/tournaments/new",
        {"name": "Plain", "variant": "long", "match_length": 3},
        content_type="application/json",
    )
    assert plain.status_code == 201 and plain.json()["time_control"] is None
    refused = client.post(
        "/api/v1/tournaments/new",
        {"name": "Bad", "variant": "long", "match_length": 3,
         "time_control": {"kind": "delay", "base_seconds": -5, "per_move_seconds": 8}},
        content_type="application/json",
    )  # fmt: skip
    assert refused.status_code == 400 and "A time control is null" in refused.content.decode()
    assert Tournament.objects.count() == 2
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    fields = schema["components"]["schemas"]["Tournament"]["properties"]["time_control"]
    assert fields["properties"]["kind"]["enum"] == ["increment", "delay"]


@pytest.mark.parametrize("preset", PRESETS, ids=lambda preset: preset.name)
def test_the_form_offers_the_federations_presets(client, olga, preset):
    response = as_user(client, olga).post(
        reverse("tournament-create"), {**FORM, "clock": preset.name}
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Tournament.objects.get().time_control == preset.control.as_json()


def test_the_form_takes_a_clock_of_its_own_and_shows_it_again(client, olga):
    as_user(client, olga)
    response = client.post(
        reverse("tournament-create"),
        {**FORM, "clock": "custom", "clock_kind": "increment", "clock_minutes": "25",
         "clock_seconds": "5"},
    )  # fmt: skip
    assert response.status_code == 302
    cup = Tournament.objects.get()
    assert cup.time_control == {"kind": "increment", "base_seconds": 1500, "per_move_seconds": 5}
    edit = client.get(reverse("tournament-edit", args=[cup.slug])).context["form"]
    assert (edit["clock"].value(), edit["clock_kind"].value()) == ("custom", "increment")
    assert (edit["clock_minutes"].value(), edit["clock_seconds"].value()) == (25, 5)
    # No clock: the clock's own fields, hidden then, are not kept.
    client.post(
        reverse("tournament-edit", args=[cup.slug]),
        {**FORM, "clock": "", "clock_kind": "increment", "clock_minutes": "3"},
    )
    cup.refresh_from_db()
    assert cup.time_control is None


def test_a_clock_of_its_own_needs_its_minutes(client, olga):
    response = as_user(client, olga).post(
        reverse("tournament-create"), {**FORM, "clock": "custom", "clock_seconds": "8"}
    )
    assert response.status_code == 400
    assert "Give the clock" in response.content.decode()
    assert not Tournament.objects.exists()


def test_the_page_says_the_clock_in_words_in_both_languages(client, olga):
    tournament_create(organizer=olga, name="Cup", slug="cup", variant="long",
                      time_control=FRIENDSHIP_LONG)  # fmt: skip
    tournament_create(organizer=olga, name="Free", slug="free", variant="long")
    english = client.get("/t/cup/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "14 min + 8 s a move (delay); running out of time loses the match" in english
    russian = client.get("/t/cup/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "14 мин + 8 с на ход (задержка); кто просрочит время, проигрывает матч" in russian
    free = client.get("/t/free/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "running out of time" not in free
