"""Huge and deeply nested bodies: a clean refusal, in time, and nothing saved.

The API refuses a body over ``settings.API_MAX_UPLOAD_BYTES`` (and over Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE``) with 413 in its one error shape, whether the .mat text comes as
the body, as JSON or as a file. JSON nested deeper than the parser goes is a 400, not a 500; a
long but flat JSON list is answered in bounded time. The site refuses a request with a .mat over
the limit with 413 and a message, and the players page refuses a CSV file over its limit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse

from tournaments import services
from tournaments.models import Match, Player, Tournament

pytestmark = pytest.mark.django_db

#: Any answer here, refusal or not, comes within this many seconds.
ANSWER_SECONDS = 10.0
MAT_HEAD = '; [Variation "Backgammon"]\n\n 3 point match\n\n Game 1\n Anna : 0     Boris : 0\n'


class World:
    """A running Short Nardy round robin (match to 3) of Olga's: Anna plays Boris in ``match``;
    ``draft`` is a tournament of hers still taking players."""

    def __init__(self) -> None:
        self.olga = User.objects.create_user("olga", password="pw-olga-123")
        self.anna = User.objects.create_user("anna", password="pw-anna-123")
        boris = User.objects.create_user("boris", password="pw-boris-123")
        self.tournament = services.tournament_create(
            organizer=self.olga, name="Club Cup", variant="short", format="round-robin",
            match_length=3,
        )  # fmt: skip
        for seed, (name, user) in enumerate((("Anna", self.anna), ("Boris", boris)), start=1):
            player = Player.objects.create(display_name=name, user=user)
            services.entry_register(
                tournament=self.tournament, player=player, by=self.olga, seed=seed
            )
        services.tournament_start(tournament=self.tournament, by=self.olga)
        self.match = Match.objects.get(tournament=self.tournament)
        self.draft = services.tournament_create(
            organizer=self.olga, name="Draft Cup", variant="short", format="round-robin",
            match_length=3,
        )  # fmt: skip

    def nothing_saved(self) -> None:
        self.match.refresh_from_db()
        assert self.match.status == Match.Status.SCHEDULED
        assert not self.match.games.exists()
        assert self.draft.entries.count() == 0
        assert Player.objects.count() == 2


@pytest.fixture
def world(db) -> World:
    return World()


@pytest.fixture
def anna(client: Client, world: World) -> Client:
    client.force_login(world.anna)
    return client


def timed(call: Callable[[], Any]) -> Any:
    started = time.perf_counter()
    response = call()
    elapsed = time.perf_counter() - started
    assert elapsed < ANSWER_SECONDS, f"answered after {elapsed:.1f} s"
    return response


def assert_error_shape(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    assert response.status_code == status, response.content[:2000]
    assert response["Content-Type"].startswith("application/json")
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"} and error["message"]
    if code is not None:
        assert error["code"] == code, error
    return error


def big_mat(size: int) -> str:
    """A .mat text of about ``size`` characters: a real head and a long tail of junk lines."""
    line = "  1) 31: 8/5 6/5                      42: 8/4 6/4\n"
    return MAT_HEAD + line * (size // len(line) + 1)


# --- The API: over the limit -------------------------------------------------------------------

OVER_API = settings.API_MAX_UPLOAD_BYTES + 1_000
OVER_DJANGO = max(settings.API_MAX_UPLOAD_BYTES, settings.DATA_UPLOAD_MAX_MEMORY_SIZE) + 100_000


def as_plain(text: str) -> dict[str, Any]:
    return {"data": text.encode(), "content_type": "text/plain"}


def as_json(text: str) -> dict[str, Any]:
    return {"data": json.dumps({"mat": text}), "content_type": "application/json"}


def as_file(text: str) -> dict[str, Any]:
    return {"data": {"file": SimpleUploadedFile("big.mat", text.encode(), "text/plain")}}


def as_form(text: str) -> dict[str, Any]:
    return {"data": {"mat": text}}  # multipart, the text in a field


BODIES = {"text/plain": as_plain, "json": as_json, "file upload": as_file, "form field": as_form}


@pytest.mark.parametrize("size", [OVER_API, OVER_DJANGO], ids=["over API", "over Django"])
@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_the_api_refuses_a_huge_record_to_validate_with_413(client, world, body, size):
    response = timed(lambda: client.post("/api/v1/records/validate", **body(big_mat(size))))
    error = assert_error_shape(response, 413, "payload_too_large")
    assert str(settings.API_MAX_UPLOAD_BYTES) in error["message"]


@pytest.mark.parametrize("size", [OVER_API, OVER_DJANGO], ids=["over API", "over Django"])
@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_the_api_refuses_a_huge_result_with_413_and_saves_nothing(anna, world, body, size):
    url = f"/api/v1/matches/{world.match.pk}/result"
    response = timed(lambda: anna.post(url, **body(big_mat(size))))
    assert_error_shape(response, 413, "payload_too_large")
    world.nothing_saved()


@pytest.mark.parametrize("body", BODIES.values(), ids=BODIES.keys())
def test_over_djangos_own_limit_below_the_apis_is_a_413_too(anna, world, body):
    """With Django's limit the lower one, Django's RequestDataTooBig is the 413 of the API."""
    with override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=50_000, API_MAX_UPLOAD_BYTES=10_000_000):
        for url in ("/api/v1/records/validate", f"/api/v1/matches/{world.match.pk}/result"):
            response = timed(lambda url=url: anna.post(url, **body(big_mat(60_000))))
            if body is as_file:
                # A file upload is not held to Django's limit (files are not kept in memory).
                assert response.status_code in (200, 400, 422), response.content[:500]
            else:
                assert_error_shape(response, 413, "payload_too_large")
    world.nothing_saved()


def test_a_body_just_under_the_limit_is_read(client, world):
    note = '; [Note "' + "x" * 90 + '"]\n'
    text = note * ((settings.API_MAX_UPLOAD_BYTES - 10_000) // len(note)) + MAT_HEAD
    response = timed(lambda: client.post("/api/v1/records/validate", **as_plain(text)))
    assert response.status_code == 200, response.content[:500]
    assert response.json()["valid"] is True


# --- The API: deep and long JSON ---------------------------------------------------------------


def nested_list(depth: int) -> str:
    return "[" * depth + "]" * depth


DEPTHS = [100_000, 10_000, 2_000, 990, 900, 700]


@pytest.mark.parametrize("depth", DEPTHS)
@pytest.mark.parametrize("where", ["games", "actions", "action", "dice", "body"])
def test_deeply_nested_json_is_a_400_not_a_500(anna, world, where, depth):
    deep = nested_list(depth)
    body = {
        "games": f'{{"variant": "short", "games": {deep}}}',
        "actions": f'{{"variant": "short", "games": [{{"white": 1, "actions": {deep}}}]}}',
        "action": f'{{"variant": "short", "games": [{{"white": 1, "actions": [{deep}]}}]}}',
        "dice": (
            f'{{"variant": "short", "games": [{{"white": 1, "actions": [{{"dice": {deep}}}]}}]}}'
        ),
        "body": deep,
    }[where]
    validate, result = "/api/v1/records/validate", f"/api/v1/matches/{world.match.pk}/result"
    for url in (validate, result):
        response = timed(lambda url=url: anna.post(url, body, "application/json"))
        if where != "dice" or response.status_code == 400:  # unreadable JSON: a bad request
            assert_error_shape(response, 400)
        elif url == validate:  # JSON read, dice that do not read: the record's error, reported
            assert response.status_code == 200 and response.json()["valid"] is False
        else:  # … and a result's 422 (issue 47: it was a 400)
            assert_error_shape(response, 422, "illegal_record")
    world.nothing_saved()


LONG = 100_000
LONG_BODIES = {
    "1e5 takes": {"white": 1, "actions": [{"take": True}] * LONG},
    "1e5 doubles": {"white": 1, "actions": [{"double": True}] * LONG},
    "1e5 empty actions": {"white": 1, "actions": [{}] * LONG},
    "1e5 numbers": {"white": 1, "actions": list(range(LONG))},
}


@pytest.mark.parametrize("game", LONG_BODIES.values(), ids=LONG_BODIES.keys())
def test_a_game_of_1e5_actions_is_answered_in_bounded_time(anna, world, game):
    body = json.dumps({"variant": "short", "games": [game]})
    assert len(body) <= settings.API_MAX_UPLOAD_BYTES
    validated = timed(lambda: anna.post("/api/v1/records/validate", body, "application/json"))
    assert validated.status_code in (200, 400), validated.content[:500]
    if validated.status_code == 200:
        assert validated.json()["valid"] is False
    url = f"/api/v1/matches/{world.match.pk}/result"
    reported = timed(lambda: anna.post(url, body, "application/json"))
    assert reported.status_code in (400, 422), reported.content[:500]
    assert_error_shape(reported, reported.status_code)
    world.nothing_saved()


def test_1e5_empty_games_are_answered_in_bounded_time(anna, world):
    games = [{"white": 1, "actions": []}] * 60_000
    body = json.dumps({"variant": "short", "games": games})
    assert len(body) <= settings.API_MAX_UPLOAD_BYTES
    validated = timed(lambda: anna.post("/api/v1/records/validate", body, "application/json"))
    assert validated.status_code in (200, 400), validated.content[:500]
    url = f"/api/v1/matches/{world.match.pk}/result"
    reported = timed(lambda: anna.post(url, body, "application/json"))
    assert_error_shape(reported, reported.status_code)
    assert reported.status_code in (400, 422)
    world.nothing_saved()


# --- The site ----------------------------------------------------------------------------------


def test_the_result_form_refuses_a_mat_upload_over_the_limit(anna, world):
    upload = SimpleUploadedFile("big.mat", big_mat(OVER_API).encode(), "text/plain")
    url = reverse("match-report", args=[world.match.pk])
    response = timed(lambda: anna.post(url, {"mode": "mat", "mat_file": upload}))
    assert response.status_code == 413
    assert f"larger than {settings.API_MAX_UPLOAD_BYTES} bytes" in response.content.decode()
    world.nothing_saved()


def test_the_result_form_refuses_a_pasted_mat_over_the_limit(anna, world):
    url = reverse("match-report", args=[world.match.pk])
    for size in (OVER_API, OVER_DJANGO):
        response = timed(
            lambda size=size: anna.post(url, {"mode": "mat", "mat_text": big_mat(size)})
        )
        assert response.status_code == 413, size
        assert "<main>" in response.content.decode()  # what the upload script shows
    world.nothing_saved()


def test_the_players_page_refuses_a_csv_file_over_its_limit(client, world):
    client.force_login(world.olga)
    rows = "".join(f"Player {n},Riga\n" for n in range(services.ENTRIES_CSV_MAX_BYTES // 10))
    data = ("name,club\n" + rows).encode()
    assert len(data) > services.ENTRIES_CSV_MAX_BYTES
    upload = SimpleUploadedFile("players.csv", data, "text/csv")
    url = reverse("tournament-players", args=[world.draft.slug])
    response = timed(lambda: client.post(url, {"action": "import", "file": upload}))
    assert response.status_code == 400
    assert f"larger than {services.ENTRIES_CSV_MAX_BYTES} bytes" in response.content.decode()
    world.nothing_saved()
    assert Tournament.objects.get(pk=world.draft.pk).entries.count() == 0


# --- Numbers past what the database holds ------------------------------------------------------


@pytest.mark.parametrize("seed", [str(2**31), str(10**20), "9" * 5000])
def test_a_seed_past_the_column_is_refused_on_the_players_page(client, world, seed):
    client.force_login(world.olga)
    url = reverse("tournament-players", args=[world.draft.slug])
    typed = timed(lambda: client.post(url, {"action": "add", "display_name": "Zed", "seed": seed}))
    assert typed.status_code == 400
    upload = SimpleUploadedFile("players.csv", f"name,seed\nZed,{seed}\n".encode(), "text/csv")
    imported = timed(lambda: client.post(url, {"action": "import", "file": upload}))
    assert imported.status_code == 400
    assert "Line 2: Ensure this value is less than or equal to 2147483647." in (
        imported.content.decode()
    )
    world.nothing_saved()


def test_a_seed_past_the_column_is_refused_by_the_api(client, world):
    client.force_login(world.olga)
    player = Player.objects.create(display_name="Zed")
    url = f"/api/v1/tournaments/{world.draft.slug}/entries/new"
    for seed in (2**31, 2**40, 10**30):
        response = timed(
            lambda seed=seed: client.post(
                url, {"player_id": player.pk, "seed": seed}, "application/json"
            )
        )
        assert_error_shape(response, 400)
    assert world.draft.entries.count() == 0


@pytest.mark.parametrize(
    "score",
    [[10**30, 1], [1e300, 1], ["1e400", 1], [1.5e10, 0], ["Infinity", 0], ["NaN", 0], [0, -1e9]],
    ids=str,
)
def test_a_score_past_the_column_is_a_400_from_the_api(anna, world, score):
    url = f"/api/v1/matches/{world.match.pk}/result"
    response = timed(lambda: anna.post(url, {"score": score}, "application/json"))
    assert_error_shape(response, 400)
    world.nothing_saved()


@pytest.mark.parametrize("length", ["x", [1], 0, -1, True, 1.5, {"n": 3}])
def test_a_match_length_that_is_not_one_is_a_400_from_the_validator(client, world, length):
    body = {"variant": "short", "length": length, "games": [{"white": 1, "actions": []}]}
    response = timed(lambda: client.post("/api/v1/records/validate", body, "application/json"))
    assert_error_shape(response, 400, "invalid")
