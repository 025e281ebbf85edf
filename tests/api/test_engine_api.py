"""The rules engine over HTTP: records checked exactly as ``check --json`` does, legal plays,
and one error shape for every refusal."""

import json

import pytest
from django.test import override_settings

from games.rules import Position, ShortNardy
from games.rules.cli import check_file

pytestmark = pytest.mark.django_db

VALID = """; [Variation "Backgammon"]

3 point match

 Game 1
 anna : 0                       boris : 0
  1) 31: 8/5 6/5                 42: 8/4 6/4
  2) 63: 24/18 13/10             62: 24/18 13/11
"""


def post(client, body, content_type="application/json"):
    return client.post("/api/v1/records/validate", body, content_type=content_type)


def test_a_mat_text_gets_the_report_of_the_check_command(client, tmp_path):
    path = tmp_path / "game.mat"
    path.write_text(VALID)
    _, expected = check_file(str(path))

    response = post(client, {"mat": VALID})

    assert response.status_code == 200
    assert {**response.json(), "file": str(path)} == expected
    assert response.json()["valid"] is True
    assert response.json()["games"] == [
        {"number": 1, "winner": None, "points": 0, "ending": "unfinished"}
    ]


def test_the_body_may_be_the_file_itself_or_an_upload(client, tmp_path):
    as_text = post(client, VALID, content_type="text/plain")
    assert as_text.status_code == 200 and as_text.json()["valid"]
    upload = tmp_path / "match.mat"
    upload.write_text(VALID.replace("13/10", "13/9"))
    with upload.open("rb") as handle:
        response = client.post("/api/v1/records/validate", {"file": handle})
    report = response.json()
    assert report["file"] == "match.mat" and report["valid"] is False
    assert report["error"]["move"] == 2 and report["error"]["player"] == 1


def test_json_games_are_checked_and_errors_say_which_action(client):
    games = [
        {
            "white": 2,
            "actions": [
                {"dice": "31", "play": "8/5 6/5"},
                {"dice": "42", "play": "8/4 6/4"},
                {"dice": "63", "play": "24/15"},
                {"dice": "62", "play": "24/17"},
            ],
        }
    ]
    response = post(client, {"variant": "short", "length": 3, "games": games})
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    assert (report["error"]["move"], report["error"]["player"]) == (4, 1)
    assert report["error"]["play"] == "24/17"


def test_long_nardy_json_games_under_the_opening_roll(client):
    """Black opens (player 2 plays Black here); a double first roll is refused by the rules."""
    opens = [{"opens": "black"}, {"dice": "52", "play": "24/17"}, {"resign": "white"}]
    body = {"variant": "long", "opening_roll": True, "length": 1}
    response = post(client, {**body, "games": [{"white": 1, "actions": opens}]})
    assert response.status_code == 200
    assert response.json()["valid"] is True
    assert response.json()["games"][0]["winner"] == 2
    doubled = [{"dice": "55", "play": "24/4"}]
    report = post(client, {**body, "games": [{"white": 1, "actions": doubled}]}).json()
    assert report["error"]["reason"] == "the first roll of a game is never a double"
    # Without it, Long Nardy opens as before: a double may, and Black may not open.
    plain = post(client, {**body, "opening_roll": False, "games": [{"white": 1, "actions": opens}]})
    assert plain.json()["error"]["reason"] == "this game has no opening throw: White moves first"
    assert (plain.json()["error"]["move"], plain.json()["error"]["player"]) == (1, 2)


def test_a_malformed_play_is_reported_as_an_illegal_one_is(client):
    """In JSON games as in a .mat file: the report says where and why (it answered 400)."""
    actions = [{"dice": "31", "play": "8/5 6/5"}, {"dice": "42", "play": "garbage"}]
    response = post(client, {"variant": "short", "games": [{"white": 2, "actions": actions}]})
    assert response.status_code == 200
    report = response.json()
    assert report["valid"] is False
    error = report["error"]
    assert (error["game"], error["move"], error["player"], error["play"]) == (1, 2, 1, "garbage")
    assert "garbage" in error["reason"]
    as_mat = post(client, {"mat": VALID.replace("42: 8/4 6/4", "42: garbage")})
    assert as_mat.status_code == 200 and as_mat.json()["valid"] is False
    assert as_mat.json()["error"]["play"] == "garbage"


@pytest.mark.parametrize(
    "body",
    [
        {"mat": "not a match"},
        {"games": "x"},
        {"variant": "chess", "games": []},
        [],
        {"variant": "short", "games": [{"white": 1, "actions": ["64: 24/18"]}]},
    ],
)
def test_what_cannot_be_read_is_a_400_in_the_one_error_shape(client, body):
    response = post(client, body)
    assert response.status_code == 400
    error = response.json()["error"]
    assert set(error) == {"code", "message", "details"} and error["message"]


@override_settings(API_MAX_UPLOAD_BYTES=1000)
def test_a_body_over_the_limit_is_a_413(client):
    response = post(client, {"mat": VALID * 10})
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "payload_too_large"


def test_legal_plays_of_a_position(client):
    opening = Position.initial(ShortNardy()).position_id()
    response = client.get(f"/api/v1/positions/{opening}/plays", {"variant": "short", "dice": "3,1"})
    assert response.status_code == 200
    plays = response.json()["plays"]
    assert len(plays) == 16 and {"play": "8/5 6/5"} in [{"play": p["play"]} for p in plays]


@pytest.mark.parametrize(
    "query",
    [{"variant": "short", "dice": "7,1"}, {"dice": "3,1"}, {"variant": "short", "dice": ""}],
)
def test_bad_position_queries_are_400(client, query):
    opening = Position.initial(ShortNardy()).position_id()
    response = client.get(f"/api/v1/positions/{opening}/plays", query)
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid"
    bad_id = client.get("/api/v1/positions/!!!/plays", {"variant": "short", "dice": "3,1"})
    assert bad_id.status_code == 400


def test_the_schema_and_its_documentation_page(client):
    schema = client.get("/api/schema/", {"format": "json"})
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/v1/records/validate" in paths and "/api/v1/tournaments/{slug}/standings/" in paths
    assert client.get("/api/docs/").status_code == 200


def test_unknown_things_are_404_in_the_one_error_shape(client):
    response = client.get("/api/v1/matches/999999/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_openapi_schema_is_valid_and_generates_without_warnings():
    from django.core.management import call_command  # noqa: PLC0415

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", "/dev/null")
