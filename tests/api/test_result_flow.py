"""The whole job through the API: create, register, start, report (an illegal record is a 422
naming where), confirm, dispute and resolve, correct, standings, finish."""

import random

import pytest
from django.contrib.auth.models import User

from games.rules import ShortNardy, action_from_json, action_to_json
from games.rules.selfplay import random_match
from tournaments.models import Match, Player

pytestmark = pytest.mark.django_db


def games_to(length: int, seed: int) -> list[dict]:
    """Self-play games as API JSON until a side has ``length`` points."""
    return [
        {"white": game.white, "actions": [action_to_json(action) for action in game.actions]}
        for game in random_match(ShortNardy(), length, random.Random(seed))
    ]


def test_a_tournament_run_through_the_api(client):
    olga = User.objects.create_user("olga")
    anna = User.objects.create_user("anna")
    boris = User.objects.create_user("boris")
    client.force_login(olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "API Cup", "variant": "short", "format": "round-robin", "match_length": 3},
        "application/json",
    )
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    assert client.post(f"/api/v1/tournaments/{slug}/open-registration").status_code == 200
    for name, user in (("Anna", anna), ("Boris", boris), ("Carl", None)):
        player = Player.objects.create(display_name=name, user=user)
        response = client.post(
            f"/api/v1/tournaments/{slug}/entries/new", {"player_id": player.pk}, "application/json"
        )
        assert response.status_code == 201
    assert client.post(f"/api/v1/tournaments/{slug}/start").json()["status"] == "running"
    match = (
        Match.objects.get(home__player__user=anna, away__player__user=boris)
        if Match.objects.filter(home__player__user=anna, away__player__user=boris).exists()
        else Match.objects.get(home__player__user=boris, away__player__user=anna)
    )
    reporter = anna if match.home.player.user == anna else boris
    opponent = boris if reporter == anna else anna

    # An illegal record: a 422 that says where, and nothing stored.
    games = games_to(3, seed=1)
    games[0]["actions"][2]["play"] = "24/1"
    client.force_login(reporter)
    refused = client.post(
        f"/api/v1/matches/{match.pk}/result", {"games": games}, "application/json"
    )
    assert refused.status_code == 422
    details = refused.json()["error"]["details"]
    assert (details["game"], details["move"]) == (1, 3) and details["play"] == "24/1"
    assert set(details) == {"game", "move", "player", "play", "reason"}
    match.refresh_from_db()
    assert match.status == "scheduled" and not match.games.exists()

    games = games_to(3, seed=1)
    reported = client.post(
        f"/api/v1/matches/{match.pk}/result", {"games": games}, "application/json"
    )
    assert reported.status_code == 200 and reported.json()["status"] == "reported"
    client.force_login(opponent)
    disputed = client.post(
        f"/api/v1/matches/{match.pk}/dispute", {"note": "no"}, "application/json"
    )
    assert disputed.json()["status"] == "disputed"
    client.force_login(olga)
    resolved = client.post(f"/api/v1/matches/{match.pk}/resolve", {}, "application/json")
    assert resolved.json()["status"] == "final"
    stored = client.get(f"/api/v1/matches/{match.pk}/games/").json()
    assert len(stored) == len(games)
    as_sent = [action_from_json(action) for action in games[0]["actions"]]
    assert [action_from_json(action) for action in stored[0]["actions"]] == as_sent

    corrected = client.post(
        f"/api/v1/matches/{match.pk}/correct", {"score": [0, 3]}, "application/json"
    )
    assert corrected.status_code == 200 and corrected.json()["reset"] == []
    score_away = corrected.json()["match"]["score_away"]
    assert score_away == 3 and type(score_away) is float  # a number (was the string "3.0")

    # A score is numbers; numeric strings, as clients sent them before, are read the same.
    scores = iter([[3, 2.0], ["3", "2.0"]])
    for other in Match.objects.filter(status="scheduled", away__isnull=False):
        response = client.post(
            f"/api/v1/matches/{other.pk}/result", {"score": next(scores)}, "application/json"
        )
        assert response.status_code == 200, response.json()
        assert (response.json()["score_home"], response.json()["score_away"]) == (3.0, 2.0)
    standings = client.get(f"/api/v1/tournaments/{slug}/standings/").json()
    assert len(standings) == 3 and standings[0]["rank"] == 1
    assert client.post(f"/api/v1/tournaments/{slug}/finish").json()["status"] == "finished"


def test_a_mat_upload_reports_a_result(client, world):
    from games.rules import MatchGame  # noqa: PLC0415
    from games.rules.matfile import match_record, write_match  # noqa: PLC0415

    games = games_to(3, seed=2)
    record = match_record(
        ShortNardy(),
        ("anna", "boris"),
        [MatchGame(g["white"], tuple(action_from_json(a) for a in g["actions"])) for g in games],
        length=3,
    )
    client.force_login(world.users["player"])
    response = client.post(
        f"/api/v1/matches/{world.match.pk}/result", write_match(record), content_type="text/plain"
    )
    assert response.status_code == 200, response.content
    assert response.json()["status"] == "reported"
    assert world.match.games.count() == len(games)


@pytest.mark.parametrize("form", ["mat", "json"])
def test_an_upload_replays_each_play_exactly_once(client, world, monkeypatch, form):
    # One replay feeds the check, the stored games and any error message (issue 18: a .mat
    # upload used to replay every game twice).
    from games.rules import MatchGame, Turn  # noqa: PLC0415
    from games.rules import game as engine  # noqa: PLC0415
    from games.rules.matfile import match_record, write_match  # noqa: PLC0415

    games = games_to(3, seed=5)
    actions = [[action_from_json(a) for a in g["actions"]] for g in games]
    plays = sum(isinstance(action, Turn) for game in actions for action in game)
    record = match_record(
        ShortNardy(),
        ("anna", "boris"),
        [MatchGame(g["white"], tuple(a)) for g, a in zip(games, actions, strict=True)],
        length=3,
    )
    body = (
        (write_match(record), "text/plain")
        if form == "mat"
        else ({"games": games}, "application/json")
    )
    client.force_login(world.users["player"])
    calls = []
    checked = engine.check_play
    monkeypatch.setattr(engine, "check_play", lambda *args: calls.append(args) or checked(*args))

    response = client.post(f"/api/v1/matches/{world.match.pk}/result", body[0], body[1])

    assert response.status_code == 200, response.content
    assert world.match.games.count() == len(games)
    assert len(calls) == plays > 0


@pytest.mark.parametrize(
    ("action", "play"),
    [({"dice": "64", "play": "garbage"}, "garbage"), ({"dice": "99", "play": ""}, "")],
)
def test_a_malformed_play_is_a_422_naming_game_move_and_reason(client, world, action, play):
    """As an illegal play is (the README's 422), not the 400 of a body of the wrong shape."""
    games = games_to(3, seed=1)
    games[1]["actions"][2:] = [action]  # game 2, its third roll
    client.force_login(world.users["player"])
    refused = client.post(
        f"/api/v1/matches/{world.match.pk}/result", {"games": games}, "application/json"
    )
    assert refused.status_code == 422
    error = refused.json()["error"]
    assert error["code"] == "illegal_record"
    details = error["details"]
    assert (details["game"], details["move"], details["play"]) == (2, 3, play)
    assert details["reason"] and details["player"] == games[1]["white"]
    assert not world.match.games.exists()


@pytest.mark.parametrize(
    "games",
    [
        "x",
        [{"actions": []}],
        [{"white": 1, "actions": "24/18"}],
        [{"white": 1, "actions": ["64: 24/18 13/9"]}],
    ],
)
def test_games_of_the_wrong_shape_stay_a_400(client, world, games):
    client.force_login(world.users["player"])
    refused = client.post(
        f"/api/v1/matches/{world.match.pk}/result", {"games": games}, "application/json"
    )
    assert refused.status_code == 400
    assert refused.json()["error"]["message"].startswith("The games cannot be read")
