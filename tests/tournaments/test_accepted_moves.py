"""Moves the opponent accepts, through the service (issue 31): the recorder's live API, the
result flow's .mat upload and the match page's replay. Seed 001's example, a 6-1 played as 24/18
alone, stands when the opponent accepts it in a tournament that allows it (Long Nardy's default)
and is refused, with the rule it breaks, otherwise."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from games.models import Game
from games.rules import action_from_json
from games.rules.game import MatchGame
from games.rules.matfile import match_record, write_match
from tests.web.conftest import make_site
from tournaments.matches.board import board_frames
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db

INCOMPLETE = {"dice": "61", "play": "24/18", "accepted": True}


def live(client: Client, match: Match, ply: int, action: dict):
    return client.post(
        f"/api/v1/matches/{match.pk}/live", {"ply": ply, "action": action}, "application/json"
    )


def home_client(match: Match) -> Client:
    client = Client()
    client.force_login(match.home.player.user)
    return client


def test_long_nardy_lets_the_opponent_accept_seed_001s_example_and_the_record_keeps_it():
    site = make_site(variant="long", match_length=1)
    assert site.tournament.accepted_moves is None and site.tournament.allows_accepted_moves
    match = site.match("Anna", "Boris")
    client = home_client(match)
    state = live(client, match, 0, {"first": 1}).json()
    assert state["accepted_moves"] is True
    refused = live(client, match, 1, {"dice": "61", "play": "24/18"})
    assert refused.status_code == 422
    assert refused.json()["error"]["details"]["reason"] == (
        "2 of 2 dice can be played, this play uses 1"
    )
    accepted = live(client, match, 1, INCOMPLETE)
    assert accepted.status_code == 200, accepted.content
    assert accepted.json()["position"]["white"][17] == 1  # the checker on 18, as it was moved
    resigned = live(client, match, 2, {"resign": "black", "value": 1})
    assert resigned.status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED
    (game,) = Game.objects.filter(match=match)
    assert game.actions[0] == INCOMPLETE  # the record keeps the flag
    # The replay marks the turn, and the .mat download writes it with its comment.
    frames = json.loads(
        board_frames(match, [game]).split(">", 1)[1].rsplit("<", 1)[0]
    )["frames"]  # fmt: skip
    assert [frame.get("accepted") for frame in frames if frame["kind"] == "turn"] == [True]
    page = Client().get(f"/m/{match.pk}/")
    assert b"accepted by the opponent as made" in page.content


def test_short_nardy_refuses_an_accepted_play_unless_the_tournament_allows_it():
    site = make_site(variant="short", match_length=1)
    assert not site.tournament.allows_accepted_moves
    match = site.match("Anna", "Boris")
    client = home_client(match)
    live(client, match, 0, {"first": 1})
    refused = live(client, match, 1, {"dice": "61", "play": "13/7", "accepted": True})
    assert refused.status_code == 422
    assert "may not accept an illegal play" in refused.json()["error"]["message"]


def test_a_short_nardy_tournament_may_allow_accepted_plays():
    site = make_site(variant="short", match_length=1, accepted_moves=True)
    match = site.match("Anna", "Boris")
    client = home_client(match)
    live(client, match, 0, {"first": 1})
    accepted = live(client, match, 1, {"dice": "61", "play": "13/7", "accepted": True})
    assert accepted.status_code == 200, accepted.content


def test_the_switch_in_the_api_and_the_rules_summary():
    site = make_site(variant="long", match_length=1)
    client = Client()
    client.force_login(site.organizer)
    data = client.get(f"/api/v1/tournaments/{site.tournament.slug}/").json()
    assert data["accepted_moves"] is None and data["accepted_moves_allowed"] is True
    page = client.get(f"/t/{site.tournament.slug}/")
    assert b"Illegal moves the opponent accepts" in page.content
    created = client.post(
        "/api/v1/tournaments/new",
        {"name": "Strict Long", "variant": "long", "format": "round-robin", "match_length": 3,
         "accepted_moves": False},
        "application/json",
    )  # fmt: skip
    assert created.status_code == 201, created.content
    assert created.json()["accepted_moves_allowed"] is False
    strict = Tournament.objects.get(slug=created.json()["slug"])
    assert not strict.game_variant().accepted_moves


def test_an_uploaded_mat_with_an_accepted_play_follows_the_tournaments_switch():
    site = make_site(variant="long", match_length=1)
    match = site.match("Anna", "Boris")
    game = MatchGame(
        1,
        (
            action_from_json(INCOMPLETE),
            action_from_json({"dice": "53", "play": "24/16"}),
            action_from_json({"resign": "black", "value": 1}),
        ),
    )
    text = write_match(
        match_record(site.tournament.game_variant(), ("Anna", "Boris"), [game], length=1)
    )
    client = Client()
    client.force_login(site.organizer)
    Tournament.objects.filter(pk=site.tournament.pk).update(accepted_moves=False)
    refused = client.post(f"/api/v1/matches/{match.pk}/result", {"mat": text}, "application/json")
    assert refused.status_code == 422
    assert "may not accept an illegal play" in refused.json()["error"]["message"]
    assert not Game.objects.filter(match=match).exists()
    Tournament.objects.filter(pk=site.tournament.pk).update(accepted_moves=None)
    stored = client.post(f"/api/v1/matches/{match.pk}/result", {"mat": text}, "application/json")
    assert stored.status_code in (200, 201), stored.content
    assert Game.objects.get(match=match).actions[0] == INCOMPLETE
