"""An error quotes at most 200 characters of the value it refuses (``games.rules.errors.quoted``).

A 100 kB string is posted in each field of the write endpoints, one at a time: every answer is a
4xx that names what is wrong, is short, and holds no run of the value longer than 200
characters, whether the message comes from the rules engine, the result flow, DRF's validation
or a form of the site."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from games.rules.errors import QUOTE_LIMIT, quoted
from games.rules.notation import Play
from tests.web.conftest import Site, make_site
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db

#: 100 kB of one letter that no field reads: any run of 201 of them in an answer is an echo.
LONG = "q" * 100_000
ECHO = "q" * (QUOTE_LIMIT + 1)
#: The most an answer with a quoted value may hold (a page of the site is longer: see below).
SHORT_ANSWER = 3_000

MAT_HEAD = '; [Variation "Backgammon"]\n\n 3 point match\n\n Game 1\n Anna : 0     Boris : 0\n'


@pytest.fixture
def site(db) -> Site:
    return make_site()


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def games_with(action: dict[str, Any]) -> dict[str, Any]:
    return {"games": [{"white": 1, "actions": [action]}]}


def assert_quotes_at_most_the_limit(response: Any, *, short: bool = True) -> str:
    body = response.content.decode()
    assert 400 <= response.status_code < 500, (response.status_code, body[:500])
    assert ECHO not in body, body[:1000]
    if short:
        assert len(body) < SHORT_ANSWER, body[:1000]
    return body


def live(site: Site, action: dict[str, Any]) -> Any:
    match = site.match("Anna", "Boris")
    return client_of(site.players["Anna"]).post(
        f"/api/v1/matches/{match.pk}/live", {"ply": 0, "action": action}, "application/json"
    )


def result(site: Site, body: dict[str, Any]) -> Any:
    match = site.match("Anna", "Boris")
    return client_of(site.players["Anna"]).post(
        f"/api/v1/matches/{match.pk}/result", body, "application/json"
    )


def validate(site: Site, body: dict[str, Any]) -> Any:
    return Client().post("/api/v1/records/validate", body, "application/json")


def as_organizer(url: str) -> Any:
    def post(site: Site, body: dict[str, Any]) -> Any:
        return client_of(site.organizer).post(
            url.format(slug=site.tournament.slug), body, "application/json"
        )

    return post


players_new = as_organizer("/api/v1/players/new")
entries_new = as_organizer("/api/v1/tournaments/{slug}/entries/new")
tournaments_new = as_organizer("/api/v1/tournaments/new")
ROLL = {"dice": "31"}
MAT_ENTRY = MAT_HEAD + "  1) 31: " + LONG + "\n"

#: Each write with the 100 kB value in one field: (endpoint, body).
API_WRITES = {
    "live action.play": (live, {**ROLL, "play": LONG}),
    "live action.play, legal tokens": (live, {**ROLL, "play": "8/5 " * 25_000}),
    "live action.dice": (live, {"dice": LONG}),
    "live action.first": (live, {"first": LONG}),
    "live action.resign": (live, {"resign": LONG}),
    "live action, unknown": (live, {LONG: True}),
    "result games actions.play": (result, games_with({**ROLL, "play": LONG})),
    "result games actions.dice": (result, games_with({"dice": LONG})),
    "result games, a long number": (result, games_with({**ROLL, "play": "8/5 " + "9" * 1000})),
    "result mat": (result, {"mat": LONG}),
    "result mat, an entry": (result, {"mat": MAT_ENTRY}),
    "result mat, a header": (result, {"mat": f'; [CubeLimit "{LONG}"]\n' + MAT_HEAD}),
    "result score": (result, {"score": [LONG, 1]}),
    "records/validate mat": (validate, {"mat": LONG}),
    "records/validate variant": (validate, {"variant": LONG, "games": []}),
    "players/new display_name": (players_new, {"display_name": LONG}),
    "players/new country": (players_new, {"display_name": "Zed", "country": LONG}),
    "entries/new player_id": (entries_new, {"player_id": LONG}),
    "entries/new seed": (entries_new, {"player_id": 1, "seed": LONG}),
    "tournaments/new variant": (tournaments_new, {"name": "Cup", "variant": LONG}),
    "tournaments/new format": (
        tournaments_new,
        {"name": "Cup", "variant": "short", "format": LONG},
    ),
    "tournaments/new rating_system": (tournaments_new, {"name": "Cup", "rating_system": LONG}),
    "tournaments/new name": (tournaments_new, {"name": LONG}),
}


@pytest.mark.parametrize(("endpoint", "body"), API_WRITES.values(), ids=API_WRITES.keys())
def test_an_api_error_quotes_at_most_200_characters_of_a_100_kb_value(site, endpoint, body):
    before = (Match.objects.filter(status=Match.Status.SCHEDULED).count(), Player.objects.count())

    response = endpoint(site, body)

    assert_quotes_at_most_the_limit(response)
    error = response.json()["error"]
    assert error["message"]
    assert (Match.objects.filter(status=Match.Status.SCHEDULED).count(),
            Player.objects.count()) == before  # fmt: skip


def test_records_validate_reports_an_entry_cut_to_the_limit(site):
    """A .mat whose entry is 100 kB is a report (200, not valid) naming 200 characters of it."""
    response = validate(site, {"mat": MAT_ENTRY})

    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    assert report["error"]["play"] == "q" * QUOTE_LIMIT + "…"
    assert ECHO not in response.content.decode() and len(response.content) < SHORT_ANSWER


def test_records_validate_reports_a_json_play_cut_to_the_limit(site):
    """A 100 kB play in JSON games is a report too (200, not valid), as in a .mat file: it was
    a 400 before a malformed play became a record's error."""
    response = validate(site, {"variant": "short", **games_with({**ROLL, "play": LONG})})

    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    assert report["error"]["play"] == "q" * QUOTE_LIMIT + "…"
    assert ECHO not in response.content.decode() and len(response.content) < SHORT_ANSWER


def test_an_illegal_play_is_named_in_the_details_cut_to_the_limit(site):
    """A play the notation reads but the rules refuse is the result flow's 422: its details
    name the play, at most 200 characters of it."""
    play = "24/23/22/21/20/19/18/17/16/15/14/13/12/11/10/9/8/7/6/5/4/3/2/1 " * 10
    response = result(site, games_with({"dice": "31", "play": play}))

    body = assert_quotes_at_most_the_limit(response)
    assert response.status_code in (400, 422), body
    assert len(json.dumps(response.json()["error"]["details"])) < SHORT_ANSWER


def test_the_site_forms_quote_at_most_200_characters(site):
    """The pages show the form again with its errors: a refused choice is not repeated whole
    (the form may keep a text the user typed in its field, which is not an error message)."""
    olga = client_of(site.organizer)
    match = site.match("Anna", "Boris")
    answers = [
        olga.post(reverse("tournament-create"), {"name": "Cup", "variant": LONG, "format": LONG}),
        olga.post(reverse("match-report", args=[match.pk]), {"mode": LONG}),
        olga.post(
            reverse("match-report", args=[match.pk]),
            {"mode": "games", "game-1-winner": LONG, "game-1-value": LONG},
        ),
        olga.post(
            reverse("match-report", args=[match.pk]),
            {"mode": "mat", "mat_text": MAT_HEAD + "  1) 31: " + LONG + "\n"},
        ),
    ]
    for response in answers[:3]:
        assert_quotes_at_most_the_limit(response, short=False)
    # The .mat stays in its text field for the user to fix; the error quotes 200 characters.
    mat = answers[3]
    assert mat.status_code in (400, 422)
    outside_the_field = re.sub(r"<textarea.*?</textarea>", "", mat.content.decode(), flags=re.S)
    assert "q" * QUOTE_LIMIT in outside_the_field  # the error names the entry…
    assert ECHO not in outside_the_field  # …with 200 characters of it


@pytest.mark.parametrize(
    "text",
    ["24/18 13/9", "8/5 6/5", "bar/22*", "6/off(2)"],
)
def test_normal_plays_are_quoted_as_before(text):
    assert quoted(text) == repr(text)
    assert str(Play.parse(text))


def test_the_engine_cli_quotes_at_most_200_characters(tmp_path):
    """``python -m games.rules check``: a file with a 100 kB entry is reported, not echoed."""
    record = tmp_path / "long.mat"
    record.write_text(MAT_HEAD + "  1) 31: " + LONG + "\n")
    checked = subprocess.run(
        [sys.executable, "-m", "games.rules", "check", str(record)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )

    output = checked.stdout + checked.stderr
    assert checked.returncode != 0
    assert "game 1, move 1, player 1" in output.lower() or "line" in output.lower(), output
    assert ECHO not in output
    assert len(output) < SHORT_ANSWER
