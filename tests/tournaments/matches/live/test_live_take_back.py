"""Taking back the entry that decided a recorded match (``POST …/live/undo`` after the end): its
players may for ``LIVE_UNDO_WINDOW_SECONDS`` after it was made (the server's clock), an organizer
later. The result goes through the result flow (who followed a decided result hears that it is
cleared), the match is played on from the entry before, and a result something was built on (a
later bracket match played or being recorded, a later Swiss round) is refused with a 409 that says
to correct it instead."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client, override_settings
from django.utils import timezone

from games.models import Game
from tests.web.conftest import make_site
from tournaments.matches import results
from tournaments.matches.live.models import Draft
from tournaments.matches.signals import result_cleared
from tournaments.models import Match, Tournament
from tournaments.services import swiss_round_pair

pytestmark = pytest.mark.django_db

RESIGN = {"resign": "white", "value": 1}


def api(match: Match) -> str:
    return f"/api/v1/matches/{match.pk}/live"


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def post(client: Client, match: Match, ply: int, action: dict):
    return client.post(api(match), {"ply": ply, "action": action}, "application/json")


def undo(client: Client, match: Match, ply: int, **more):
    return client.post(f"{api(match)}/undo", {"ply": ply, **more}, "application/json")


def decide_by_resignation(client: Client, match: Match) -> dict:
    """One roll played, then White resigns: in a match to 1 point that decides it."""
    state = post(client, match, 0, {"dice": "31"}).json()
    state = post(client, match, 1, {"dice": "31", "play": state["legal_plays"][0]["play"]}).json()
    answer = post(client, match, 2, RESIGN)
    assert answer.status_code == 200, answer.content
    state = answer.json()
    assert state["finished"] is True and state["ply"] == 3
    return state


def age(match: Match, seconds: int) -> None:
    """The deciding entry was made ``seconds`` ago."""
    made = timezone.now() - timedelta(seconds=seconds)
    Draft.objects.filter(match=match).update(updated_at=made)


@pytest.fixture
def cleared():
    heard: list[tuple[int, object]] = []

    def receiver(sender, *, match, decided_at, **kwargs):
        heard.append((match.pk, decided_at))

    result_cleared.connect(receiver)
    yield heard
    result_cleared.disconnect(receiver)


def test_a_player_takes_back_a_resignation_that_decided_the_match_and_play_goes_on():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    state = decide_by_resignation(anna, match)
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.games.count() == 1
    assert not match.recording
    until = state["take_back_until"]
    assert until is not None and state["recording"] is False

    back = undo(anna, match, 3)

    assert back.status_code == 200, back.content
    state = back.json()
    assert (state["ply"], state["finished"], state["recording"]) == (2, False, True)
    assert state["match_status"] == "scheduled" and state["take_back_until"] is None
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.recording
    assert match.score_home is None and match.winner_id is None and match.reported_by is None
    assert not Game.objects.filter(match=match).exists()
    draft = Draft.objects.get(match=match)
    assert (draft.finished, draft.ply) == (False, 2)
    # The match is played on from there: the next roll is taken.
    assert post(anna, match, 2, {"dice": "64"}).status_code == 200
    assert client_of(site.players["Boris"]).get(api(match)).json()["dice"] == "64"


def test_the_opponent_may_take_it_back_too_within_the_window():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    decide_by_resignation(client_of(site.players["Anna"]), match)
    assert undo(client_of(site.players["Boris"]), match, 3).status_code == 200


def test_after_the_window_a_player_is_refused_with_why_and_an_organizer_takes_it_back():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    decide_by_resignation(anna, match)
    age(match, 31)

    late = undo(anna, match, 3)

    assert late.status_code == 403
    assert "more than 30 seconds ago" in late.json()["error"]["message"]
    assert "organizer" in late.json()["error"]["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and match.games.count() == 1
    age(match, 3600 * 24)
    assert undo(client_of(site.organizer), match, 3).status_code == 200
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


@override_settings(LIVE_UNDO_WINDOW_SECONDS=5)
def test_the_window_is_a_setting():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    state = decide_by_resignation(anna, match)
    draft = Draft.objects.get(match=match)
    assert state["take_back_until"] == (draft.updated_at + timedelta(seconds=5)).isoformat()
    age(match, 6)
    answer = undo(anna, match, 3)
    assert answer.status_code == 403 and "5 seconds" in answer.json()["error"]["message"]


def test_an_organizers_final_result_is_cleared_through_the_result_flow(cleared):
    """An organizer's recording is final at once: decided, rated. Taken back, the result is
    cleared as a bracket reset clears one, so the rating list and the analysis hear of it."""
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    olga = client_of(site.organizer)
    decide_by_resignation(olga, match)
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.decided_at is not None
    decided_at = match.decided_at

    assert undo(olga, match, 3).status_code == 200

    assert cleared == [(match.pk, decided_at)]
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED and match.decided_at is None


def test_a_reported_result_that_nobody_followed_is_cleared_without_a_signal(cleared):
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    decide_by_resignation(anna, match)
    assert undo(anna, match, 3).status_code == 200
    assert cleared == []  # only reported: never decided, nobody rated it


def test_a_result_the_opponent_confirmed_in_the_window_is_taken_back_and_cleared(cleared):
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    decide_by_resignation(anna, match)
    boris = client_of(site.players["Boris"])
    assert boris.post(f"/api/v1/matches/{match.pk}/confirm").status_code == 200
    assert undo(anna, match, 3).status_code == 200
    assert [pk for pk, _ in cleared] == [match.pk]


def test_a_stale_take_back_is_refused_and_changes_nothing():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    decide_by_resignation(anna, match)
    stale = undo(anna, match, 2)
    assert stale.status_code == 409
    assert stale.json()["error"]["details"]["state"]["ply"] == 3
    assert undo(anna, match, 3).status_code == 200
    again = undo(anna, match, 3)  # the second phone's tap on the same undo
    assert again.status_code == 409
    assert again.json()["error"]["details"]["ply"] == 2


def test_a_corrected_result_is_not_taken_back_by_undo():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    olga = client_of(site.organizer)
    decide_by_resignation(olga, match)
    results.match_result_correct(match=match, by=site.organizer, score=(0, 1))

    answer = undo(olga, match, 3)

    assert answer.status_code == 409
    assert "corrects the result instead" in answer.json()["error"]["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and (match.score_home, match.score_away) == (0, 1)


def test_other_entries_are_still_refused_once_the_match_is_decided():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    anna = client_of(site.players["Anna"])
    decide_by_resignation(anna, match)
    assert post(anna, match, 3, {"dice": "31"}).status_code == 409
    assert undo(anna, match, 3, to=0).status_code == 403  # only organizers go further back
    back = undo(client_of(site.organizer), match, 3, to=1)
    assert back.status_code == 200 and back.json()["ply"] == 1


def test_nothing_to_take_back_once_the_tournament_is_finished():
    site = make_site(match_length=1)
    match = site.match("Anna", "Boris")
    olga = client_of(site.organizer)
    decide_by_resignation(olga, match)
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.FINISHED)
    assert undo(olga, match, 3).status_code == 409
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL


# --- Brackets ------------------------------------------------------------------------------------


def bracket():
    site = make_site(format="single-elimination", match_length=1)
    matches = {m.slot: m for m in Match.objects.filter(tournament=site.tournament)}
    return site, matches["M1-1"], matches["M1-2"], matches["M2-1"]


def test_a_bracket_result_taken_back_takes_its_winner_out_of_the_next_match():
    site, semi, _, final = bracket()
    olga = client_of(site.organizer)
    decide_by_resignation(olga, semi)  # White (home) resigns: away wins
    final.refresh_from_db()
    semi.refresh_from_db()
    assert final.home_id == semi.away_id

    assert undo(olga, semi, 3).status_code == 200

    final.refresh_from_db()
    assert final.home_id is None and final.status == Match.Status.SCHEDULED


def test_a_bracket_result_the_next_match_was_played_with_is_refused():
    """The most defensible answer: undo fixes a slip at the table; once a later match was played
    (or is being recorded) with its winner, an organizer's correction resets it, with its
    warning, instead of an undo wiping another match's result."""
    site, semi, other, final = bracket()
    olga = client_of(site.organizer)
    decide_by_resignation(olga, semi)
    results.match_result_record(match=other, by=site.organizer, score=(1, 0))
    final.refresh_from_db()
    results.match_result_record(match=final, by=site.organizer, score=(1, 0))

    answer = undo(olga, semi, 3)

    assert answer.status_code == 409
    message = answer.json()["error"]["message"]
    assert "M2-1" in message and "corrects the result instead" in message
    final.refresh_from_db()
    semi.refresh_from_db()
    assert final.status == Match.Status.FINAL and semi.status == Match.Status.FINAL
    assert Draft.objects.get(match=semi).finished


def test_a_bracket_result_the_next_match_is_being_recorded_with_is_refused():
    site, semi, other, final = bracket()
    olga = client_of(site.organizer)
    decide_by_resignation(olga, semi)
    results.match_result_record(match=other, by=site.organizer, score=(1, 0))
    final.refresh_from_db()
    assert post(olga, final, 0, {"dice": "31"}).status_code == 200
    assert undo(olga, semi, 3).status_code == 409
    final.refresh_from_db()
    assert final.home_id is not None


def test_a_swiss_result_is_not_taken_back_once_the_next_round_is_paired():
    site = make_site(format="swiss", match_length=1, swiss_rounds=3)
    olga = client_of(site.organizer)
    first, *others = Match.objects.filter(tournament=site.tournament).order_by("pk")
    decide_by_resignation(olga, first)
    for match in others:
        results.match_result_record(match=match, by=site.organizer, score=(1, 0))
    site.tournament.refresh_from_db()
    swiss_round_pair(tournament=site.tournament, by=site.organizer)

    answer = undo(olga, first, 3)

    assert answer.status_code == 409 and "Swiss round" in answer.json()["error"]["message"]
