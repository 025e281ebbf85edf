"""``POST matches/<id>/live/sync``: the entries a phone recorded offline, taken in order from the
ply it last had, all or none, each at the phone's time when that time could be (else the
nearest that could, marked for the judge); a stale ply answers with what the server has since.
The server's time is set by hand (``server_clock``)."""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from games.models import Game
from tests.tournaments.matches.live.table import EPOCH, ServerClock, Table, client_of
from tests.web.conftest import Site, make_site
from tournaments.matches.live.models import Draft, DraftEntry
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def at(seconds: float) -> str:
    """The phone's time, ``seconds`` after ``EPOCH``, as the phone sends it."""
    return dt.datetime.fromtimestamp(EPOCH + seconds, tz=dt.UTC).isoformat()


def opening(site: Site, clock: ServerClock) -> list[dict]:
    """The actions of an opening (who moves first, then two rolls and their plays), as the
    recorder of another match of the tournament took them: what a phone holds offline."""
    twin = Table(site, clock, site.match("Carl", "Dina"))
    actions = [{"first": 1}]
    twin.enter(actions[0])
    for dice in ("31", "42"):
        actions.append({"dice": dice})
        twin.enter(actions[-1])
        actions.append({"dice": dice, "play": twin.state["legal_plays"][0]["play"]})
        twin.enter(actions[-1])
    return actions


def sync(table: Table, ply: int, entries: list[tuple[dict, str]], status: int = 200,
         client: Client | None = None):  # fmt: skip
    body = {"ply": ply, "entries": [{"action": a, "at": when} for a, when in entries]}
    response = (client or table.client).post(f"{table.url}/sync", body, "application/json")
    assert response.status_code == status, response.content
    if status == 200:
        table.state = response.json()
    return response


def rows(table: Table) -> list[DraftEntry]:
    return list(DraftEntry.objects.filter(draft__match=table.match).order_by("ply"))


def test_a_whole_batch_is_taken_in_order_at_the_phones_times(timed, server_clock):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(0).enter(actions[0])  # online: Anna (home) plays White, her clock runs
    offline = list(zip(actions[1:], [at(5), at(20), at(30), at(40)], strict=True))
    answer = sync(table.at(50), 1, offline).json()
    assert answer["ply"] == 5 and answer["clamped"] == []
    taken = rows(table)
    assert [row.data for row in taken] == actions
    assert [row.made_at.timestamp() for row in taken] == [EPOCH + s for s in (0, 5, 20, 30, 40)]
    assert [row.phone_at for row in taken[:1]] == [None]
    assert all(row.phone_at == row.made_at and not row.clamped for row in taken[1:])
    # The clocks ran by the phone's times: Anna 20 s (12 past the delay), Boris 20 s (12), and
    # Anna's clock has run since 40 s: 10 s at the sync, 2 past the delay.
    assert [row.clock for row in taken[2::2]] == [
        {"home": 48.0, "away": 60.0},
        {"home": 48.0, "away": 48.0},
    ]
    assert answer["clocks"] == {"home": 46, "away": 48, "running": "home"}
    assert answer["dice"] is None and answer["on_roll"] == "white"


def test_phone_times_that_cannot_be_are_clamped_and_marked_and_give_no_time_back(
    timed, server_clock
):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(10).enter(actions[0])
    # The phone's clock is behind: its first entry says 4 s, before the entry it follows (10 s);
    # its third is ahead of the server: 500 s, when the batch arrives at 60 s.
    offline = list(zip(actions[1:4], [at(4), at(30), at(500)], strict=True))
    answer = sync(table.at(60), 1, offline).json()
    assert answer["clamped"] == [0, 2]
    taken = rows(table)[1:]
    assert [row.made_at.timestamp() for row in taken] == [EPOCH + 10, EPOCH + 30, EPOCH + 60]
    assert [row.clamped for row in taken] == [True, False, True]
    assert [row.phone_at.timestamp() for row in taken] == [EPOCH + 4, EPOCH + 30, EPOCH + 500]
    # Anna's clock ran from 10 s to 30 s: nothing was given back for the 6 s before it started.
    assert taken[1].clock == {"home": 48.0, "away": 60.0}


def test_a_stale_ply_is_refused_with_the_entries_the_server_has_since(timed, server_clock):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(0).enter(actions[0])
    other = client_of(table.match.away.player.user)  # Boris's phone stayed online
    table.at(3).enter(actions[1], client=other)
    table.at(9).enter(actions[2], client=other)
    before = Draft.objects.get(match=table.match).revision
    refused = sync(table.at(60), 1, [(actions[1], at(5))], status=409).json()["error"]
    assert refused["details"]["ply"] == 3
    assert refused["details"]["entries"] == [
        {"ply": 1, "action": actions[1], "at": dt.datetime.fromtimestamp(EPOCH + 3, tz=dt.UTC)
         .isoformat()},
        {"ply": 2, "action": actions[2], "at": dt.datetime.fromtimestamp(EPOCH + 9, tz=dt.UTC)
         .isoformat()},
    ]  # fmt: skip
    assert "recorded further on another device" in refused["message"]
    assert len(rows(table)) == 3 and Draft.objects.get(match=table.match).revision == before


def test_a_refused_entry_refuses_the_whole_batch_and_says_which(timed, server_clock):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(0).enter(actions[0])
    before = Draft.objects.get(match=table.match).revision
    illegal = {"dice": "31", "play": "24/18"}  # a 6 from a roll of 3-1
    refused = sync(table.at(30), 1, [(actions[1], at(5)), (illegal, at(9))], status=422)
    error = refused.json()["error"]
    assert error["code"] == "illegal_record" and error["details"]["index"] == 1
    assert error["message"].startswith("Entry 2: Game 1, move 1")
    unreadable = sync(table, 1, [(actions[1], at(5)), ({"shout": 1}, at(9))], status=400)
    assert unreadable.json()["error"]["details"]["index"] == 1
    assert unreadable.json()["error"]["message"].startswith("Entry 2: This is not a game action")
    sync(table, 1, [], status=400)
    assert len(rows(table)) == 1 and Draft.objects.get(match=table.match).revision == before


def test_a_batch_may_decide_the_match_and_nothing_comes_after_it(server_clock, db):
    site = make_site(match_length=1)
    table = Table(site, server_clock)
    resign = {"resign": "white", "value": 1}  # Anna, White, resigns: Boris wins 1-0
    refused = sync(table.at(50), 0, [({"first": 1}, at(1)), (resign, at(2)), ({"first": 1},
                   at(3))], status=422)  # fmt: skip
    assert refused.json()["error"]["details"]["index"] == 2
    assert not rows(table)
    answer = sync(table, 0, [({"first": 1}, at(1)), (resign, at(2))]).json()
    assert answer["finished"] and answer["winner"] == 2
    match = Match.objects.get(pk=table.match.pk)
    assert match.status == Match.Status.REPORTED and match.winner_id == match.away_id


def test_a_flag_that_fell_offline_is_entered_at_the_phones_time(timed, server_clock):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(0).enter(actions[0])  # Anna's clock runs: 60 s and the 8 s delay, her flag at 68 s
    early = sync(table.at(200), 1, [({"flag": "home"}, at(50))], status=409).json()["error"]
    assert early["details"]["index"] == 0 and "still has" in early["message"]
    answer = sync(table, 1, [({"flag": "home"}, at(70))]).json()
    assert answer["finished"] and answer["lost_on_time"] == "home"
    assert rows(table)[-1].made_at.timestamp() == EPOCH + 70


def test_only_who_may_record_the_match_syncs(timed, server_clock):
    table = Table(timed, server_clock)
    body = [({"first": 1}, at(1))]
    assert sync(table, 0, body, status=403, client=client_of(timed.outsider)).status_code == 403
    anonymous = Client().post(f"{table.url}/sync", {"ply": 0, "entries": []}, "application/json")
    assert anonymous.status_code in (401, 403)
    assert not rows(table)


def test_the_games_keep_the_phones_times_and_the_judge_sees_what_was_clamped(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    # Offline, Anna resigns game 1 at 30 s: the match (to 3) goes on. In game 2 Boris moves
    # first, his roll says -5 s (his phone's clock is behind: clamped to the entry before, 35 s),
    # and Anna resigns it for two points: Boris wins the match. The action after the clamped
    # roll carries the mark.
    resign = {"resign": "white", "value": 1}
    sync(table.at(40), 1, [(resign, at(30))])
    assert table.state["game"] == 2
    sync(table, 2, [({"first": 2}, at(35)), ({"dice": "31"}, at(-5)),
                    ({"resign": "black", "value": 2}, at(38))])  # fmt: skip
    assert table.state["clamped"] == [1] and table.state["finished"]
    games = list(Game.objects.filter(match=table.match).order_by("number"))
    assert [game.times for game in games] == [
        [{"at": at(30), "home": 38.0, "away": 60.0, "phone_at": at(30)}],  # 22 s past the delay
        [{"at": at(38), "home": 38.0, "away": 60.0, "phone_at": at(38), "clamped": True}],
    ]


def test_without_a_clock_the_times_are_kept_all_the_same(server_clock, db):
    site = make_site()
    table = Table(site, server_clock)
    sync(table.at(30), 0, [({"first": 1}, at(10)), ({"dice": "31"}, at(20))])
    assert [row.made_at.timestamp() for row in rows(table)] == [EPOCH + 10, EPOCH + 20]
    assert table.state["clocks"] is None and table.state["ply"] == 2
