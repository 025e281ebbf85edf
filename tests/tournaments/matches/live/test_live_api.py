"""The live API (``/api/v1/matches/<id>/live``): self-play matches of both variants recorded entry
by entry, with illegal entries and stale plies thrown in (refused, nothing changed); who may do
what; undo and discard; the result flow at the end; spectators' conditional GETs."""

from __future__ import annotations

import random

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.models import Game
from games.rules import Turn, action_from_json, action_to_json, replay_game
from games.rules.matfile import read_match
from games.rules.selfplay import random_match
from tests.web.conftest import Site, make_site
from tournaments.matches.live.models import Draft
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def api(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/live"


def client_of(user: User | None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def post(client: Client, match: Match, ply: int, action: dict, **more):
    return client.post(api(match), {"ply": ply, "action": action, **more}, "application/json")


def stored_entries(draft: Draft) -> list:
    return list(draft.entry_rows.order_by("ply").values_list("data", flat=True))


def snapshot(match: Match) -> tuple:
    draft = Draft.objects.filter(match=match).first()
    match.refresh_from_db()
    return (
        None if draft is None else (stored_entries(draft), draft.ply, draft.revision),
        match.status,
        Game.objects.filter(match=match).count(),
    )


def record_self_play(site: Site, match: Match, client: Client, seed: int) -> list:
    """Enter a random legal match through the API, entry by entry, trying an illegal action, a
    stale ply and a future ply at random points: each is refused and changes nothing."""
    rng = random.Random(seed)
    rules = site.tournament.match_rules()
    games = random_match(rules.to_variant(), rules.length, random.Random(seed))
    state = client.get(api(match)).json()
    refused = 0
    for game in games:
        if state["white"] != game.white:
            state = post(client, match, state["ply"], {"first": game.white}).json()
        for action in game.actions:
            if isinstance(action, Turn):
                rolled = post(client, match, state["ply"], {"dice": "".join(map(str, action.dice))})
                assert rolled.status_code == 200, rolled.content
                state = rolled.json()
                assert state["dice"] is not None
                if rng.random() < 0.1:
                    before = snapshot(match)
                    illegal = post(
                        client, match, state["ply"], {"dice": state["dice"], "play": "24/1"}
                    )
                    assert illegal.status_code == 422, illegal.content
                    assert illegal.json()["error"]["details"]["game"] == state["game"]
                    stale = post(client, match, state["ply"] - 1, action_to_json(action))
                    assert stale.status_code == 409
                    assert stale.json()["error"]["details"]["state"]["ply"] == state["ply"]
                    future = post(client, match, state["ply"] + 1, action_to_json(action))
                    assert future.status_code == 409
                    assert snapshot(match) == before
                    refused += 3
                played = [legal["play"] for legal in state["legal_plays"]]
                assert not played or str(action.play) in played
            answer = post(client, match, state["ply"], action_to_json(action))
            assert answer.status_code == 200, answer.content
            state = answer.json()
    assert state["finished"] is True
    assert refused > 0
    return games


@pytest.mark.parametrize("variant", ["short", "long"])
def test_a_self_play_match_recorded_through_the_api_becomes_the_reported_result(variant):
    site = make_site(variant=variant)
    match = site.match("Anna", "Boris")
    reporter = site.players[match.home.player.display_name]
    games = record_self_play(site, match, client_of(reporter), seed=5)

    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and not match.recording
    assert Draft.objects.get(match=match).finished
    stored = list(Game.objects.filter(match=match).order_by("number"))
    assert len(stored) == len(games)
    # The result flow kept when each action was entered (the entries that are not actions,
    # the rolls and who starts, are steps of the recording).
    times = [row.times for row in stored]
    assert [len(kept) for kept in times] == [len(row.actions) for row in stored]
    entered = [kept["at"] for kept in sum(times, [])]
    assert entered == sorted(entered)
    for game, row in zip(games, stored, strict=True):
        assert row.white == game.white
        assert [action_from_json(action) for action in row.actions] == list(game.actions)
    for game, row in zip(games, stored, strict=True):  # the engine's own replay agrees
        outcome = replay_game(site.tournament.game_variant(), game.actions).outcome
        assert (row.value, row.stake) == (outcome.value, outcome.stake)
    # The opponent confirms, as with any reported result.
    opponent = site.players[match.away.player.display_name]
    confirmed = client_of(opponent).post(f"/api/v1/matches/{match.pk}/confirm")
    assert confirmed.status_code == 200 and confirmed.json()["status"] == "confirmed"
    # After the end, entries are refused.
    late = post(client_of(reporter), match, 0, {"dice": "31"})
    assert late.status_code == 409


@pytest.mark.parametrize("variant", ["short", "long"])
def test_a_recorded_match_downloads_and_reads_back_to_the_same_games(variant):
    """Short Nardy as a gnubg .mat; Long Nardy in the project's record format (the same .mat
    lines under a "Variation: Long Nardy" header, games.rules.matfile)."""
    site = make_site(variant=variant)
    match = site.match("Anna", "Boris")
    record_self_play(site, match, client_of(site.organizer), seed=8)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL  # an organizer's result is final at once
    text = client_of(None).get(f"/api/v1/matches/{match.pk}/record.mat").content.decode()
    record = read_match(text)
    stored = Game.objects.filter(match=match).order_by("number")
    variant = site.tournament.game_variant()
    assert len(record.games) == len(stored)
    for read, game in zip(record.games, stored, strict=True):  # the same games, move by move
        assert read.first == game.white
        mine = replay_game(variant, [action_from_json(action) for action in game.actions])
        back = replay_game(variant, read.actions)
        assert (back.positions, back.outcome) == (mine.positions, mine.outcome)


def test_who_may_record_and_who_may_read():
    site = make_site()
    match = site.match("Anna", "Boris")
    carl = site.players["Carl"]
    assert post(client_of(None), match, 0, {"dice": "31"}).status_code in (401, 403)
    assert post(client_of(carl), match, 0, {"dice": "31"}).status_code == 403
    assert post(client_of(site.outsider), match, 0, {"dice": "31"}).status_code == 403
    assert not Draft.objects.filter(match=match).exists()
    assert client_of(None).get(api(match)).status_code == 200
    anna = site.players["Anna"]
    assert post(client_of(anna), match, 0, {"dice": "31"}).status_code == 200
    assert client_of(carl).delete(api(match)).status_code == 403
    assert client_of(anna).delete(api(match)).status_code == 403
    assert Draft.objects.filter(match=match).exists()
    assert post(client_of(anna), Match(pk=999999), 1, {"dice": "31"}).status_code == 404


def test_a_draft_tournaments_match_stays_unseen_by_writers_as_by_readers():
    site = make_site()
    match = site.match("Anna", "Boris")
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.DRAFT)
    for user in (None, site.outsider, site.players["Anna"]):
        assert client_of(user).get(api(match)).status_code == 404
    for user in (site.outsider, site.players["Anna"]):
        assert post(client_of(user), match, 0, {"dice": "31"}).status_code == 404
        assert (
            client_of(user).post(f"{api(match)}/undo", {"ply": 0}, "application/json").status_code
            == 404
        )
    refused = post(client_of(site.organizer), match, 0, {"dice": "31"})
    assert refused.status_code == 409  # its organizer sees it: it is not being played
    assert not Draft.objects.filter(match=match).exists()


def test_bad_bodies_are_400_and_change_nothing():
    site = make_site()
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    for body in (
        {"ply": 0},
        {"ply": -1, "action": {"dice": "31"}},
        {"ply": "x", "action": {"dice": "31"}},
        {"ply": 0, "action": "31"},
        {"ply": 0, "action": {"dice": "99"}},
        {"ply": 0, "action": {"first": 3}},
        {"ply": 0, "action": {"fly": True}},
    ):
        answer = anna.post(api(match), body, "application/json")
        assert answer.status_code == 400, (body, answer.content)
        assert "error" in answer.json()
    assert not Draft.objects.filter(match=match).exists()


def test_undo_takes_back_one_entry_and_organizers_go_further_back():
    site = make_site()
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    state = post(anna, match, 0, {"dice": "31"}).json()
    state = post(anna, match, 1, {"dice": "31", "play": "8/5 6/5"}).json()
    state = post(anna, match, 2, {"dice": "64"}).json()
    assert state["ply"] == 3 and state["on_roll"] == "black"

    undone = anna.post(f"{api(match)}/undo", {"ply": 3}, "application/json")
    assert undone.status_code == 200
    assert undone.json()["ply"] == 2 and undone.json()["dice"] is None
    assert anna.post(f"{api(match)}/undo", {"ply": 3}, "application/json").status_code == 409
    further = anna.post(f"{api(match)}/undo", {"ply": 2, "to": 0}, "application/json")
    assert further.status_code == 403

    olga = client_of(site.organizer)
    back = olga.post(f"{api(match)}/undo", {"ply": 2, "to": 0}, "application/json")
    assert back.status_code == 200 and back.json()["ply"] == 0
    assert back.json()["position"]["white"][5] == 5  # the starting position again
    assert olga.post(f"{api(match)}/undo", {"ply": 0}, "application/json").status_code == 409


def test_a_stale_revision_is_refused_even_at_the_same_ply():
    """A tab that saw ply 1 before an undo and a new entry made ply 1 again is told so."""
    site = make_site()
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    seen = post(anna, match, 0, {"dice": "31"}).json()
    anna.post(f"{api(match)}/undo", {"ply": 1}, "application/json")
    post(anna, match, 0, {"dice": "42"})
    stale = post(anna, match, 1, {"dice": "31", "play": "8/5 6/5"}, revision=seen["revision"])
    assert stale.status_code == 409
    assert stale.json()["error"]["details"]["state"]["dice"] == "42"


def recording(match: Match) -> bool:
    """The match's mark, as the result flow and the pages read it."""
    return Match.objects.get(pk=match.pk).recording


def test_the_match_is_marked_while_its_recording_has_entries():
    site = make_site()
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    assert client_of(None).get(api(match)).status_code == 200 and not recording(match)
    revision = Tournament.objects.get(pk=match.tournament_id).revision
    post(anna, match, 0, {"dice": "31"})
    assert recording(match)  # the tournament's pages are drawn again, pointing at it
    assert Tournament.objects.get(pk=match.tournament_id).revision > revision
    post(anna, match, 1, {"dice": "31", "play": "8/5 6/5"})
    anna.post(f"{api(match)}/undo", {"ply": 2}, "application/json")
    assert recording(match)
    anna.post(f"{api(match)}/undo", {"ply": 1}, "application/json")
    assert not recording(match)  # back to no entry: nothing is being recorded
    post(anna, match, 0, {"dice": "42"})
    assert recording(match)


def test_while_a_recording_exists_no_other_result_is_reported_until_it_is_discarded():
    site = make_site()
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    post(anna, match, 0, {"dice": "31"})
    assert recording(match)
    report = anna.post(f"/api/v1/matches/{match.pk}/result", {"score": [3, 0]}, "application/json")
    assert report.status_code == 409
    assert "recorded move by move" in report.json()["error"]["message"]
    olga = client_of(site.organizer)
    assert olga.delete(api(match)).status_code == 204
    assert not Draft.objects.filter(match=match).exists() and not recording(match)
    assert olga.delete(api(match)).status_code == 409
    state = client_of(None).get(api(match)).json()
    assert state["ply"] == 0 and state["recording"] is False
    report = anna.post(f"/api/v1/matches/{match.pk}/result", {"score": [3, 0]}, "application/json")
    assert report.status_code == 200


def test_spectators_get_a_304_while_nothing_changed_and_the_new_state_after_an_entry():
    site = make_site()
    match = site.match("Anna", "Boris")
    spectator = client_of(None)
    first = spectator.get(api(match))
    etag = first["ETag"]
    assert spectator.get(api(match), HTTP_IF_NONE_MATCH=etag).status_code == 304
    post(client_of(site.players["Boris"]), match, 0, {"dice": "52"})
    changed = spectator.get(api(match), HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["dice"] == "52"
    assert changed.json()["recording"] is True
    frame = changed.json()["board"]["frames"][0]
    assert frame["kind"] == "roll" and frame["dice"] == [5, 2]


def test_a_match_that_is_not_being_played_cannot_be_recorded():
    site = make_site()
    match = site.match("Anna", "Boris")
    olga = client_of(site.organizer)
    olga.post(f"/api/v1/matches/{match.pk}/result", {"score": [3, 1]}, "application/json")
    answer = post(olga, match, 0, {"dice": "31"})
    assert answer.status_code == 409
    assert client_of(None).get(api(match)).json()["finished"] is True
    assert client_of(None).get("/api/v1/matches/999999/live").status_code == 404


def test_the_schema_documents_the_live_endpoints():
    schema = client_of(None).get("/api/schema/", HTTP_ACCEPT="application/json").json()
    live = schema["paths"]["/api/v1/matches/{id}/live"]
    assert {"get", "post", "delete"} <= set(live)
    assert "422" in live["post"]["responses"] and "409" in live["post"]["responses"]
    assert "/api/v1/matches/{id}/live/undo" in schema["paths"]
    state = schema["components"]["schemas"]["LiveState"]["properties"]
    for field in ("ply", "game", "variant", "position", "on_roll", "dice", "legal_plays"):
        assert field in state


def test_the_match_page_says_when_the_match_is_being_played():
    """Its first entry makes a scheduled match "being played" on its page (signed-in readers
    get the page drawn now); a match nobody records stays scheduled."""
    site = make_site()
    match, other = site.match("Anna", "Boris"), site.match("Carl", "Dina")
    reader = client_of(site.outsider)

    def status(of: Match) -> str:
        page = reader.get(f"/m/{of.pk}/").content.decode()
        return page.split('data-role="match-status">', 1)[1].split("<", 1)[0]

    assert status(match) == "Scheduled"
    assert post(client_of(site.players["Anna"]), match, 0, {"dice": "31"}).status_code == 200
    assert status(match) == "Being played"
    assert status(other) == "Scheduled"


@pytest.mark.parametrize("language", ["en", "ru"])
def test_a_dave_that_cannot_change_a_match_to_1_is_neither_offered_nor_taken(language):
    site = make_site(match_length=1, rated=False)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    state = post(anna, match, 0, {"dice": "31"}).json()
    state = post(anna, match, state["ply"], {"dice": "31", "play": "8/5 6/5"}).json()
    assert state["may"]["double"] is False and state["may"]["roll"] is True
    before = snapshot(match)
    refused = anna.post(
        api(match),
        {"ply": state["ply"], "action": {"double": True}},
        "application/json",
        headers={"accept-language": language},
    )
    assert refused.status_code == 422, refused.content
    message = refused.json()["error"]["message"]
    expected = "whoever wins this game wins the match" if language == "en" else "кто выиграет"
    assert expected in message, message
    assert snapshot(match) == before


@pytest.mark.parametrize("play", ["garbage", "24/18 13/", "x" * 1000])
def test_a_play_that_cannot_be_read_is_an_illegal_entry_where_it_stands(play):
    """As in a result's games: a 422 naming the game, the move, the player and the play (cut
    to the quoting limit), and nothing changed; a body not of an entry's shape stays a 400."""
    site = make_site(variant="long")
    match = site.match("Anna", "Boris")
    client = client_of(site.organizer)
    state = post(client, match, 0, {"first": 1}).json()
    state = post(client, match, state["ply"], {"dice": "64"}).json()
    before = snapshot(match)

    refused = post(client, match, state["ply"], {"dice": "64", "play": play})

    assert refused.status_code == 422, refused.content
    error = refused.json()["error"]
    assert error["code"] == "illegal_record"
    details = error["details"]
    assert (details["game"], details["move"], details["player"]) == (1, 1, 1)
    assert details["play"] == play[:200] or details["play"].startswith(play[:100])
    assert len(details["play"]) <= 210 and details["reason"]
    assert snapshot(match) == before
    for shape in ({"dice": "64", "play": 5}, {"roll": "64"}, {"dice": "64", "first": 1}):
        assert post(client, match, state["ply"], shape).status_code == 400
    assert snapshot(match) == before
