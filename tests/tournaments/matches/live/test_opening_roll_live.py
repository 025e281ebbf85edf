"""The opening roll (art. 26.3) of an official Long Nardy event, at the table and in uploads: the
recorder's first entry of a game is the opening throw, one die each; the higher moves first with
both numbers, and that may be Black; a double first roll is refused with the rules' reason, in
the recorder and in an uploaded record (JSON or .mat), naming the game and the move."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.rules import Colour, LongNardy, Opens, action_from_json
from games.rules.matfile import read_match
from tests.web.conftest import make_site
from tournaments.declarations import summary_of
from tournaments.matches.board import board_frames_of
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def api(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/live"


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, match: Match, ply: int, action: dict):
    return client.post(api(match), {"ply": ply, "action": action}, "application/json")


def official_long_site(**rules):
    return make_site(variant="long", official=True, match_length=1, **rules)


def test_an_official_long_nardy_event_plays_the_opening_roll_and_says_so():
    site = official_long_site()
    tournament = site.tournament
    assert tournament.opening_roll is None and tournament.plays_opening_roll
    assert tournament.match_rules().opening_roll
    assert tournament.game_variant() == LongNardy(opening_roll=True)
    lines = dict(summary_of(tournament))
    assert lines["Opening roll"] == "one die each; the higher moves first, with both numbers"
    # Declared off, it is off even in an official event; an unofficial event has it off.
    tournament.opening_roll = False
    assert not tournament.plays_opening_roll
    assert dict(summary_of(tournament))["Opening roll"].startswith("White moves first")
    tournament.opening_roll, tournament.official = None, False
    assert not tournament.plays_opening_roll
    # Short Nardy never opens with a double; off, the first to move plays White, and an official
    # event plays the throw in Short Nardy too.
    tournament.variant = Tournament.Variant.SHORT
    assert not tournament.plays_opening_roll
    assert dict(summary_of(tournament))["Opening roll"].startswith("the first to move plays White")
    tournament.official = True
    assert tournament.plays_opening_roll and tournament.match_rules().opening_roll


def test_black_wins_the_opening_throw_and_moves_first_with_both_numbers():
    site = official_long_site()
    match = site.match("Anna", "Boris")
    client = client_of(site.organizer)
    state = client.get(api(match)).json()
    assert state["opening_roll"] is True and state["may"]["opening"] is True
    assert state["white"] == 1 and state["first"] == "white"

    # A double as the first roll is refused with the rules' reason, and so is a tie.
    doubled = post(client, match, 0, {"dice": "55"})
    assert doubled.status_code == 422, doubled.content
    assert "the first roll of a game is never a double" in doubled.json()["error"]["message"]
    tie = post(client, match, 0, {"opening": {"white": 4, "black": 4}})
    assert tie.status_code == 422
    assert "equal dice are thrown again" in tie.json()["error"]["message"]
    bad = post(client, match, 0, {"opening": {"white": 7, "black": 4}})
    assert bad.status_code == 400

    # White (Anna, home) throws 2, Black (Boris) 5: Black moves first with 5-2.
    thrown = post(client, match, 0, {"opening": {"white": 2, "black": 5}})
    assert thrown.status_code == 200, thrown.content
    state = thrown.json()
    assert (state["on_roll"], state["dice"], state["first"]) == ("black", "52", "black")
    assert state["white"] == 1 and state["may"]["opening"] is False
    assert state["may"]["double"] is False  # no dave before the first roll is played
    assert "24/17" in [legal["play"] for legal in state["legal_plays"]]
    # Once thrown, it is not thrown again.
    again = post(client, match, state["ply"], {"opening": {"white": 6, "black": 1}})
    assert again.status_code == 422

    state = post(client, match, state["ply"], {"dice": "52", "play": "24/17"}).json()
    assert state["on_roll"] == "white"
    state = post(client, match, state["ply"], {"dice": "64", "play": "24/14"}).json()
    assert state["on_roll"] == "black"
    # White (Anna) resigns: Black (Boris, away) wins the match to 1.
    ended = post(client, match, state["ply"], {"resign": "white", "value": 1})
    assert ended.status_code == 200, ended.content
    assert ended.json()["finished"] is True and ended.json()["winner"] == 2

    game = Game.objects.get(match=match)
    assert game.white == 1 and game.winner == 2
    assert game.actions[0] == {"opens": "black"}
    assert action_from_json(game.actions[0]) == Opens(Colour.BLACK)
    assert len(game.times) == len(game.actions)

    # The .mat written says Black opened; it reads back to the same game.
    text = Client().get(f"/api/v1/matches/{match.pk}/record.mat").content.decode()
    assert '; [OpeningRoll "On"]' in text and '; [Opens "1.black"]' in text
    assert "  1)                             52: 24/17" in text.splitlines()
    record = read_match(text)
    assert record.variant == LongNardy(opening_roll=True, accepted_moves=True)
    assert record.games[0].first == 2 and record.games[0].colour(1) is Colour.WHITE
    assert [action_from_json(action) for action in game.actions] == list(record.games[0].actions)
    # The match page replays it: its first frame has Black on roll.
    assert Client().get(f"/m/{match.pk}/").status_code == 200
    script = str(board_frames_of(match.pk))
    frames = json.loads(script[script.index(">") + 1 : script.rindex("</script>")])["frames"]
    assert frames[0]["kind"] == "start" and frames[0]["turn"] == "black"


def test_without_the_opening_roll_the_recorder_is_as_it_was():
    site = make_site(variant="long", match_length=1)
    match = site.match("Anna", "Boris")
    client = client_of(site.organizer)
    state = client.get(api(match)).json()
    assert state["opening_roll"] is False  # (the API still takes a throw: the engine plays it)
    refused = post(client, match, 0, {"opening": {"white": 2, "black": 5}})
    assert refused.status_code == 422
    assert "this game has no opening throw" in refused.json()["error"]["message"]
    assert post(client, match, 0, {"dice": "55"}).status_code == 200


# --- Uploads ------------------------------------------------------------------------------------


def test_an_uploaded_record_opening_with_a_double_is_refused_naming_game_and_move():
    site = make_site(variant="long", official=True, match_length=3)
    match = site.match("Anna", "Boris")
    client = client_of(site.players[match.home.player.display_name])
    first_game = {
        "white": 1,
        "actions": [{"opens": "black"}, {"dice": "52", "play": "24/17"}, {"resign": "white"}],
    }
    second = {"white": 2, "actions": [{"dice": "66", "play": "24/18(2)"}]}
    refused = client.post(
        f"/api/v1/matches/{match.pk}/result", {"games": [first_game, second]}, "application/json"
    )
    assert refused.status_code == 422, refused.content
    details = refused.json()["error"]["details"]
    assert (details["game"], details["move"], details["player"]) == (2, 1, 2)
    assert details["reason"] == "the first roll of a game is never a double"
    assert not match.games.exists()

    mat = (
        '; [Variation "Long Nardy"]\n; [OpeningRoll "On"]\n\n 3 point match\n\n Game 1\n'
        " Anna : 0                       Boris : 0\n  1) 44: 24/16                  \n"
    )
    refused = client.post(f"/api/v1/matches/{match.pk}/result", mat, content_type="text/plain")
    assert refused.status_code == 422, refused.content
    details = refused.json()["error"]["details"]
    assert (details["game"], details["move"], details["player"]) == (1, 1, 1)
    assert details["reason"] == "the first roll of a game is never a double"
    assert not match.games.exists()


def test_an_uploaded_mat_file_where_black_opens_is_stored_as_played():
    site = make_site(variant="long", official=True, match_length=1)
    match = site.match("Anna", "Boris")
    home, away = match.home.player.display_name, match.away.player.display_name
    mat = (
        f'; [Variation "Long Nardy"]\n; [OpeningRoll "On"]\n; [Opens "1.black"]\n\n'
        f" 1 point match\n\n Game 1\n {home} : 0                       {away} : 0\n"
        "  1)                             52: 24/17\n"
        "  2) 64: 24/14                   \n"
        "                                  Wins 1 point and the match\n"
    )
    client = client_of(site.players[home])
    stored = client.post(f"/api/v1/matches/{match.pk}/result", mat, content_type="text/plain")
    assert stored.status_code == 200, stored.content
    game = Game.objects.get(match=match)
    # Player 1 (home) played White; Black (away) rolled first and won (White resigned).
    assert (game.white, game.winner) == (1, 2)
    assert game.actions[0] == {"opens": "black"} and game.actions[-1]["resign"] == "white"


def test_an_official_short_nardy_event_asks_for_the_throw_and_black_may_open():
    site = make_site(variant="short", official=True, match_length=1)
    match = site.match("Anna", "Boris")
    client = client_of(site.organizer)
    state = client.get(api(match)).json()
    assert state["opening_roll"] is True and state["may"]["opening"] is True

    thrown = post(client, match, 0, {"opening": {"white": 1, "black": 6}})
    assert thrown.status_code == 200, thrown.content
    state = thrown.json()
    assert (state["on_roll"], state["dice"], state["first"]) == ("black", "61", "black")
    assert state["white"] == 1  # Anna (home) keeps White: the throw decided only who starts


def test_an_unofficial_short_nardy_recorder_asks_who_moves_first():
    site = make_site(variant="short", match_length=1)
    state = client_of(site.organizer).get(api(site.match("Anna", "Boris"))).json()
    assert state["opening_roll"] is False  # (the API still takes a throw: the engine plays it)
