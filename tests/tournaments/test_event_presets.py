"""The presets of whole events (issue 48): each sets the game, clock, match length, format and
elimination of the federation's event it comes from, on the organizer's form (its fields filled,
each still the organizer's to change) and in the API (``preset`` fills what the request leaves
out); an unknown preset is refused and nothing is made."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client

from tournaments import services
from tournaments.models import Tournament
from tournaments.scoring.events import EVENT_PRESETS, event_preset

pytestmark = pytest.mark.django_db


def test_each_preset_is_its_event_as_the_federation_ran_it():
    given = {
        preset.name: (
            preset.variant,
            preset.control.base_seconds,
            preset.control.per_move_seconds,
            preset.match_length,
            preset.format,
            preset.out_after_losses,
        )
        for preset in EVENT_PRESETS
    }
    assert given == {
        "long": ("long", 14 * 60, 8, 7, "swiss", 3),
        "short": ("short", 18 * 60, 8, 9, "swiss", 3),
        "long-regional": ("long", 19 * 60, 8, 7, "swiss", 3),
        "long-blitz": ("long", 60, 10, 3, "single-elimination", None),
        "short-blitz": ("short", 2 * 60, 10, 5, "single-elimination", None),
    }


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def api(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.mark.parametrize(
    ("preset", "discipline"),
    [("long", "long"), ("short", "short"), ("long-regional", "long"),
     ("long-blitz", "long-blitz"), ("short-blitz", "short-blitz")],
)  # fmt: skip
def test_a_preset_alone_makes_its_whole_event_by_the_api(olga, preset, discipline):
    answer = api(olga).post(
        "/api/v1/tournaments/new", {"name": "Cup", "preset": preset}, "application/json"
    )

    assert answer.status_code == 201, answer.content
    data = answer.json()
    settings = event_preset(preset).settings()
    assert data["discipline"] == discipline
    assert "preset" not in data
    for name in ("variant", "match_length", "format", "swiss_out_after_losses", "time_control"):
        assert data[name] == settings[name], name
    made = Tournament.objects.get(slug=data["slug"])
    assert made.discipline == discipline and made.match_games is None


def test_what_the_request_gives_wins_over_the_preset(olga):
    client = api(olga)
    longer = client.post(
        "/api/v1/tournaments/new",
        {"name": "Blitz to 5", "preset": "long-blitz", "match_length": 5, "third_place": True},
        "application/json",
    ).json()
    assert (longer["match_length"], longer["format"], longer["discipline"]) == (
        5, "single-elimination", "long-blitz",
    )  # fmt: skip
    of_games = client.post(
        "/api/v1/tournaments/new",
        {"name": "Games", "preset": "short", "match_games": 4, "format": "round-robin"},
        "application/json",
    ).json()
    assert (of_games["match_length"], of_games["match_games"], of_games["format"]) == (
        None, 4, "round-robin",
    )  # fmt: skip
    assert of_games["time_control"] == event_preset("short").control.as_json()
    no_clock = client.post(
        "/api/v1/tournaments/new",
        {"name": "No clock", "preset": "long", "time_control": None},
        "application/json",
    ).json()
    assert (no_clock["time_control"], no_clock["discipline"]) == (None, "long")


def test_an_unknown_preset_is_refused_and_nothing_is_made(olga):
    answer = api(olga).post(
        "/api/v1/tournaments/new", {"name": "Cup", "preset": "chess"}, "application/json"
    )

    assert answer.status_code == 400
    assert "preset" in answer.json()["error"]["details"]["fields"]
    assert not Tournament.objects.exists()


def _value(page: str, name: str) -> str | None:
    """The value the form's field ``name`` shows: a text input's, a checked radio's or a
    selected option's."""
    found = re.search(rf'<input type="(?:number|text)" name="{name}" value="([^"]*)"', page)
    if found:
        return found[1]
    radio = re.search(rf'<input type="radio" name="{name}" value="([^"]*)"[^>]*checked', page)
    if radio:
        return radio[1]
    select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', page, re.S)
    if select:
        chosen = re.search(r'<option value="([^"]*)" selected>', select[1])
        return chosen[1] if chosen else None
    return None


def test_the_form_comes_filled_from_a_preset_and_each_field_stays_the_organizers(olga):
    client = api(olga)
    page = client.get("/tournaments/new/", {"preset": "long-blitz"}).content.decode()

    assert 'data-role="event-preset"' in page and "data-presets=" in page
    assert "Federation online cup 2025" in html.unescape(page)
    filled = {
        name: _value(page, name)
        for name in ("variant", "match_kind", "match_size", "clock", "format")
    }
    assert filled == {
        "variant": "long",
        "match_kind": "points",
        "match_size": "3",
        "clock": "long-blitz",
        "format": "single-elimination",
    }
    swiss = client.get("/tournaments/new/", {"preset": "short"}).content.decode()
    assert _value(swiss, "swiss_out_after_losses") == "3"
    assert _value(swiss, "match_size") == "9"
    unknown = client.get("/tournaments/new/", {"preset": "chess"})
    assert unknown.status_code == 200 and _value(unknown.content.decode(), "match_size") != "3"

    # The organizer changes the match length the preset gave, and keeps the rest.
    posted = {
        "name": "Blitz Cup", "variant": "long", "format": "single-elimination",
        "rating_system": "fibs", "match_kind": "points", "match_size": "5", "clock": "long-blitz",
        "draw_counts": "half", "block_check": "step", "dave": "on", "dave_progression": "geometric",
        "crawford": "on", "grand_final": "reset", "consolation_kind": "first-round",
        "points_win": "1", "points_draw": "0.5", "points_loss": "0", "points_bye": "1",
    }  # fmt: skip
    answer = client.post("/tournaments/new/", posted)
    assert answer.status_code == 302, answer.content.decode()[:2000]
    made = Tournament.objects.get(name="Blitz Cup")
    assert (made.match_length, made.format, made.discipline) == (
        5, "single-elimination", "long-blitz",
    )  # fmt: skip


def test_a_drafts_rules_page_comes_filled_from_a_preset(olga):
    draft = services.tournament_create(organizer=olga, name="Draft", variant="long")
    client = api(olga)
    page = client.get(f"/t/{draft.slug}/edit/", {"preset": "short"}).content.decode()
    assert (_value(page, "variant"), _value(page, "match_size"), _value(page, "format")) == (
        "short", "9", "swiss",
    )  # fmt: skip
    plain = client.get(f"/t/{draft.slug}/edit/").content.decode()
    assert _value(plain, "variant") == "long"
