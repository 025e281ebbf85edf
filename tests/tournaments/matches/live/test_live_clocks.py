"""The recorder is the clock: a timed tournament's live state carries both players' clocks,
computed from the server's time of each entry (``clocks``, the contract), a flag fall is an entry
that ends the match (lost on time), and an organizer pauses, resumes and sets the clocks, each
recorded with who did it. The server's time is set by hand here (``server_clock``)."""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.test import Client

from games.models import Game
from games.services import games_from_mat
from tests.tournaments.matches.live.table import CONTROL, EPOCH, Table
from tests.web.conftest import make_site
from tournaments.matches.live import broadcast, state
from tournaments.matches.live.models import ClockAction, Draft
from tournaments.matches.records import match_mat_text
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def test_the_clocks_stand_until_the_first_entry_and_then_follow_the_turn(timed, server_clock):
    table = Table(timed, server_clock)
    assert table.state["clocks"] == {"home": 60, "away": 60, "running": None}
    assert table.state["clock"]["control"] == CONTROL
    table.at(0).enter({"first": 1})  # Anna (home) plays White and moves first: her clock runs
    assert table.state["clocks"] == {"home": 60, "away": 60, "running": "home"}
    table.at(5).enter({"dice": "31"})  # the roll does not end her turn
    assert table.state["clocks"]["running"] == "home"
    table.at(20).enter({"dice": "31", "play": table.state["legal_plays"][0]["play"]})
    # 20 s thought, 8 s of them the delay: 12 s charged; Boris's clock runs now.
    assert table.state["clocks"] == {"home": 48, "away": 60, "running": "away"}
    # A reload, or a spectator's phone, reads the same clocks at its own moment.
    table.at(30.5)
    assert table.read()["clocks"] == {"home": 48, "away": 57, "running": "away"}
    assert table.read(Client())["clocks"] == {"home": 48, "away": 57, "running": "away"}
    # The record keeps the time and the clocks of each entry.
    rows = Draft.objects.get(match=table.match).entry_rows.order_by("ply")
    assert [row.clock for row in rows] == [
        {"home": 60.0, "away": 60.0},
        {"home": 60.0, "away": 60.0},
        {"home": 48.0, "away": 60.0},
    ]
    assert rows[2].made_at.timestamp() == EPOCH + 20


def test_a_flag_falls_by_the_servers_clock_and_its_entry_ends_the_match(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    table.at(4).play_any()  # Anna plays in the delay; Boris's clock runs from 4 s
    early = table.at(50).enter({"flag": "away"}, status=409)
    assert "Boris still has 0:22 on the clock" in early.json()["error"]["message"]
    # 60 s and the 8 s delay: Boris's flag falls at 72 s; the clocks then stand.
    table.at(100)
    state = table.read()
    assert state["clocks"] == {"home": 60, "away": 0, "running": None}
    assert state["clock"]["flagged"] == "away"
    assert state["clock"]["flagged_at"] == pytest.approx(EPOCH + 72)
    late = table.enter({"dice": "21"}, status=409)
    assert "Boris's time ran out" in late.json()["error"]["message"]
    assert Draft.objects.get(match=table.match).ply == 3  # nothing was added

    table.enter({"flag": "away"})
    assert table.state["finished"] and table.state["lost_on_time"] == "away"
    assert table.state["winner"] == 1
    match = Match.objects.get(pk=table.match.pk)
    assert match.status == Match.Status.REPORTED
    assert match.lost_on_time == "away"
    assert match.winner_id == match.home_id
    assert (match.score_home, match.score_away) == (3, 0)  # Anna is given the match to 3
    # The game the flag fell in is kept, unfinished, with the time of its one play.
    (game,) = Game.objects.filter(match=match)
    assert game.ending == "unfinished" and game.winner is None and len(game.actions) == 1
    assert game.times == [
        {"at": dt.datetime.fromtimestamp(EPOCH + 4, tz=dt.UTC).isoformat(), "home": 60.0,
         "away": 60.0}
    ]  # fmt: skip
    # Its .mat file holds the unfinished game as played, and reads back as the same games.
    text = match_mat_text(match)
    assert text is not None
    tournament = timed.tournament
    again = games_from_mat(
        text, variant=tournament.game_variant(), length=3, crawford=tournament.crawford
    )
    assert [(g.white, len(g.actions), g.outcome.ending.value) for g in again] == [
        (game.white, 1, "unfinished")
    ]


def test_the_deciding_flag_fall_can_be_taken_back_like_any_deciding_entry(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    table.at(4).play_any()
    table.at(100).enter({"flag": "away"})
    undo = table.client.post(f"{table.url}/undo", {"ply": table.state["ply"]}, "application/json")
    assert undo.status_code == 200, undo.content
    match = Match.objects.get(pk=table.match.pk)
    assert match.status == Match.Status.SCHEDULED and match.lost_on_time == ""
    assert not Game.objects.filter(match=match).exists()
    assert undo.json()["clock"]["flagged"] == "away"  # the time still ran out


def test_a_judge_pauses_resumes_and_gives_time_each_recorded_with_who(timed, server_clock):
    table = Table(timed, server_clock)
    organizer = timed.organizer
    table.at(0).enter({"first": 1})
    table.at(10).judge(organizer, action="pause")
    assert table.state["clocks"] == {"home": 58, "away": 60, "running": None}
    assert table.state["clock"]["paused"] is True
    table.at(500)
    assert table.read()["clocks"]["home"] == 58
    table.judge(organizer, action="pause", status=409)
    table.at(510).judge(organizer, action="resume")
    table.at(520).judge(organizer, action="adjust", side="away", seconds=-15)
    assert table.state["clocks"] == {"home": 48, "away": 45, "running": "home"}
    actions = ClockAction.objects.filter(draft__match=table.match).order_by("pk")
    assert [(a.kind, a.side, a.seconds, a.made_by) for a in actions] == [
        ("pause", "", 0, organizer),
        ("resume", "", 0, organizer),
        ("adjust", "away", -15, organizer),
    ]
    # The players record; only an organizer stops or sets the clocks.
    refused = table.judge(table.home, action="pause", status=403)
    assert "Only the judge may stop or set the clocks" in refused.json()["error"]["message"]
    table.judge(organizer, action="adjust", side="home", seconds=0, status=400)
    table.judge(organizer, action="adjust", seconds=10, status=400)
    assert ClockAction.objects.filter(draft__match=table.match).count() == 3


def test_a_judge_gives_time_after_a_flag_fell_and_play_goes_on(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    table.at(100)  # Anna's flag fell at 68 s
    assert table.read()["clock"]["flagged"] == "home"
    table.judge(timed.organizer, action="adjust", side="home", seconds=30)
    assert table.state["clocks"] == {"home": 30, "away": 60, "running": "home"}
    assert table.state["clock"]["flagged"] is None
    table.enter({"dice": "31"})


def test_an_undo_gives_the_turn_back_but_not_the_time(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    table.at(20).play_any()  # Anna: 12 s charged
    undo = table.at(30).client.post(
        f"{table.url}/undo", {"ply": table.state["ply"]}, "application/json"
    )
    assert undo.status_code == 200
    # Boris's 10 s cost him 2 past the delay; the turn (with the dice to play) is Anna's again.
    assert undo.json()["clocks"] == {"home": 48, "away": 58, "running": "home"}


def test_the_clocks_stand_between_games(server_clock, db):
    site = make_site(time_control=CONTROL, match_length=3)
    table = Table(site, server_clock)
    table.at(0).enter({"first": 1})
    table.at(1).enter({"resign": "white", "value": 1})  # Anna resigns game 1: Boris 1-0
    assert table.state["game"] == 2 and not table.state["finished"]
    assert table.state["clocks"]["running"] is None
    table.at(300)
    assert table.read()["clocks"] == {"home": 60, "away": 60, "running": None}
    table.enter({"first": 2})
    assert table.state["clocks"]["running"] == "away"


def test_without_a_time_control_there_are_no_clocks_and_no_flag(server_clock, db):
    site = make_site()
    table = Table(site, server_clock)
    assert table.state["clocks"] is None and table.state["clock"] is None
    table.enter({"first": 1})
    refused = table.enter({"flag": "home"}, status=400)
    assert "without a clock" in refused.json()["error"]["message"]
    table.judge(site.organizer, action="pause", status=409)


def test_the_follow_servers_copy_reads_the_clocks_at_each_answer(timed, server_clock):
    """The state a follow server gets over Redis keeps the clocks' last event, and each of its
    answers reads them at its own moment, as Django's do."""
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    shared = state.live_shared(match_id=table.match.pk)
    _match_id, copy = broadcast.decode(broadcast.encode(table.match.pk, shared))
    assert copy == shared

    later = json.loads(copy.body_at(EPOCH + 30))
    assert later["clocks"] == {"home": 38, "away": 60, "running": "home"}
    assert later["clock"]["read_at"] == EPOCH + 30
    assert later["ply"] == 1 and later["names"] == ["Anna", "Boris"]
