"""Forfeits (issue 31): an organizer decides a match by forfeit, naming the side that did not come.
It scores as a win for the other side (a loss for both when neither came), has no games and no
score, is never rated, and the standings and the pages mark it + and −. The pairing of the next
Swiss round and the bracket's next match follow it."""

import pytest
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client

from tournaments.errors import InvalidInput, NotAllowed
from tournaments.matches.results import (
    match_result_correct,
    match_result_record,
    match_result_resolve,
)
from tournaments.models import Match, Player, Tournament
from tournaments.ratings.models import RatingChange
from tournaments.selectors import tournament_standings
from tournaments.services import (
    entry_register,
    entry_withdraw,
    swiss_round_pair,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db


def started(organizer: User, count: int, **settings) -> Tournament:
    settings = {"variant": "short", "match_length": 3, "format": "round-robin", **settings}
    cup = tournament_create(organizer=organizer, name="Cup", slug="cup", **settings)
    cup = tournament_open_registration(tournament=cup, by=organizer)
    for number in range(1, count + 1):
        player = Player.objects.create(display_name=f"P{number}")
        entry_register(tournament=cup, player=player, by=organizer)
    return tournament_start(tournament=cup, by=organizer)


def entry(cup: Tournament, name: str):
    return cup.entries.get(player__display_name=name)


def test_an_organizers_forfeit_is_final_with_no_score_no_games_and_no_rating(club):
    match = match_result_record(match=club.match, by=club.organizer, forfeit="away")
    assert (match.status, match.winner, match.forfeit) == (Match.Status.FINAL, club.home, "away")
    assert (match.score_home, match.score_away, match.games.count()) == (None, None, 0)
    assert match.forfeit_marks == ("+", "−")
    assert not RatingChange.objects.filter(match=match).exists()  # a rated tournament


def test_only_an_organizer_decides_by_forfeit(club):
    with pytest.raises(NotAllowed, match="Only who decides for this tournament"):
        match_result_record(match=club.match, by=club.anna, forfeit="away")
    club.match.refresh_from_db()
    assert (club.match.status, club.match.forfeit) == (Match.Status.SCHEDULED, "")


def test_a_forfeit_names_a_side(club):
    with pytest.raises(InvalidInput, match="home, away or both"):
        match_result_record(match=club.match, by=club.organizer, forfeit="nobody")
    with pytest.raises(InvalidInput, match="Give the result as"):
        match_result_record(match=club.match, by=club.organizer, forfeit="home", score=(3, 0))
    club.match.refresh_from_db()
    assert club.match.status == Match.Status.SCHEDULED


def test_a_reported_result_is_resolved_by_forfeit_and_a_forfeit_corrected_to_a_score(
    club, django_capture_on_commit_callbacks, eager_tasks
):
    def committed(call):  # the write and the rating tasks it enqueues, as when it commits
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    committed(lambda: match_result_record(match=club.match, by=club.anna, score=(3, 1)))
    match = committed(
        lambda: match_result_resolve(match=club.match, by=club.organizer, forfeit="home")
    )
    assert (match.winner, match.forfeit, match.score_home) == (club.away, "home", None)
    assert not RatingChange.objects.filter(match=match).exists()
    match = committed(
        lambda: match_result_correct(match=match, by=club.organizer, score=(3, 2))
    ).match
    assert (match.winner, match.forfeit, match.score_home) == (club.home, "", 3)
    assert RatingChange.objects.filter(match=match).count() == 2  # played: rated
    # A played result corrected to a forfeit leaves the rating list (replayed without it).
    match = committed(
        lambda: match_result_correct(match=match, by=club.organizer, forfeit="both")
    ).match
    assert (match.winner, match.forfeit) == (None, "both")
    assert not RatingChange.objects.filter(match=match).exists()


def test_round_robin_standings_count_and_mark_forfeits():
    olga = User.objects.create_user("olga")
    cup = started(olga, 4)
    p1, p2, p3, p4 = (entry(cup, f"P{n}") for n in (1, 2, 3, 4))
    for match in cup.matches.filter(round__number=1):
        pair = {match.home, match.away}
        if pair == {p1, p4}:  # P4 did not come
            side = "home" if match.home == p4 else "away"
            match_result_record(match=match, by=olga, forfeit=side)
        else:  # neither P2 nor P3 came
            match_result_record(match=match, by=olga, forfeit="both")
    rows = {s.entry: s.row for s in tournament_standings(tournament=cup)}
    assert (rows[p1].match_points, rows[p1].wins, rows[p1].forfeits_won) == (1, 1, 1)
    assert (rows[p4].match_points, rows[p4].losses, rows[p4].forfeits_lost) == (0, 1, 1)
    for both in (p2, p3):
        assert (rows[both].match_points, rows[both].losses, rows[both].forfeits_lost) == (0, 1, 1)


def test_a_swiss_pairs_the_forfeited_again_and_gives_a_forfeit_winner_no_bye():
    """Two who did not meet over the board may meet later (FIDE: an unplayed game), and a win by
    forfeit counts as the bye its winner had."""
    olga = User.objects.create_user("olga")
    cup = started(olga, 3, format="swiss", swiss_rounds=3)
    (played,) = cup.matches.filter(away__isnull=False)
    bye_before = cup.matches.get(away__isnull=True).home
    absent = "away"
    match_result_record(match=played, by=olga, forfeit=absent)
    came = played.home
    swiss_round_pair(tournament=cup, by=olga)
    second = cup.matches.filter(round__number=2)
    bye = second.get(away__isnull=True).home
    assert bye not in (came, bye_before)  # the forfeit's winner had their "bye"
    (game,) = second.filter(away__isnull=False)
    assert {game.home, game.away} == {came, bye_before}
    # Round 3: the two of round 1's forfeit meet, as they never played.
    match_result_record(match=game, by=olga, score=(3, 0))
    swiss_round_pair(tournament=cup, by=olga)
    third = cup.matches.get(round__number=3, away__isnull=False)
    assert {third.home, third.away} == {played.home, played.away}


def test_in_a_bracket_the_side_that_came_goes_on_and_both_cannot_be_absent():
    olga = User.objects.create_user("olga")
    cup = started(olga, 4, format="single-elimination")
    first, second = cup.matches.filter(bracket_round=1).order_by("slot")
    with pytest.raises(InvalidInput, match="one side goes on"):
        match_result_record(match=first, by=olga, forfeit="both")
    match_result_record(match=first, by=olga, forfeit="home")
    match_result_record(match=second, by=olga, score=(3, 1))
    final = cup.matches.get(bracket_round=2)
    assert first.away in (final.home, final.away) and first.home not in (final.home, final.away)
    drawn = Client().get("/t/cup/bracket/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert drawn.count('data-role="forfeit"') == 2 and ", −/+" in drawn  # the marks, in its title


def test_the_api_takes_the_contract_from_organizers_only(client, club):
    url = f"/api/v1/matches/{club.match.pk}/result"
    client.force_login(club.anna)
    refused = client.post(url, {"forfeit": "away"}, content_type="application/json")
    assert refused.status_code == 403
    client.force_login(club.organizer)
    wrong = client.post(url, {"forfeit": "late"}, content_type="application/json")
    assert wrong.status_code == 400
    club.match.refresh_from_db()
    assert club.match.status == Match.Status.SCHEDULED
    done = client.post(url, {"forfeit": "away"}, content_type="application/json")
    assert done.status_code == 200, done.content
    assert (done.json()["forfeit"], done.json()["winner_id"]) == ("away", club.home.pk)
    assert done.json()["score_home"] is None
    rows = client.get("/api/v1/tournaments/club-cup/standings/").json()
    rows = rows["results"] if isinstance(rows, dict) else rows
    marks = {row["player"]: (row["forfeits_won"], row["forfeits_lost"]) for row in rows}
    assert marks == {"Anna": (1, 0), "Boris": (0, 1)}


def test_the_organizers_form_offers_the_forfeit_and_the_pages_mark_it(client, club):
    form = f"/m/{club.match.pk}/report/"
    client.force_login(club.anna)
    assert 'data-mode="forfeit"' not in client.get(form).content.decode()
    client.force_login(club.organizer)
    page = client.get(form).content.decode()
    assert 'data-mode="forfeit"' in page and "Both players" in page
    missing = client.post(form, {"mode": "forfeit"})
    assert missing.status_code == 400 and "Choose who did not come" in missing.content.decode()
    done = client.post(form, {"mode": "forfeit", "forfeit": "home"})
    assert done.status_code == 302
    club.match.refresh_from_db()
    assert (club.match.forfeit, club.match.winner) == ("home", club.away)
    match_page = client.get(f"/m/{club.match.pk}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "−/+" in match_page and "by forfeit" in match_page
    rounds = client.get("/t/club-cup/rounds/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'data-role="forfeit"' in rounds and "−/+" in rounds
    standings = client.get("/t/club-cup/standings/", HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert 'data-role="forfeits-won"' in standings and 'data-role="forfeits-lost"' in standings
    player = client.get(f"/p/{club.home.player_id}/").content.decode()
    assert 'data-role="forfeit"' in player


def test_withdrawing_mid_event_forfeits_the_matches_still_to_play():
    olga = User.objects.create_user("olga")
    cup = started(olga, 4)  # a round robin of 3 rounds, all made at the start
    for match in cup.matches.filter(round__number=1):
        match_result_record(match=match, by=olga, score=(3, 1))
    leaving, staying = entry(cup, "P4"), entry(cup, "P1")
    entry_withdraw(entry=leaving, by=olga, forfeit_remaining=True)
    theirs = cup.matches.filter(Q(home=leaving) | Q(away=leaving))
    played = theirs.get(round__number=1)
    assert played.forfeit == "" and played.score_home == 3  # a result played stays
    later = theirs.filter(round__number__gt=1)
    assert later.count() == 2
    for match in later:
        absent = "home" if match.home == leaving else "away"
        assert (match.status, match.forfeit) == (Match.Status.FINAL, absent)
        assert match.winner != leaving and match.winner is not None
    others = cup.matches.filter(round__number__gt=1).exclude(pk__in=later)
    assert all(match.status == Match.Status.SCHEDULED for match in others)
    entry_withdraw(entry=staying, by=olga)  # without: their matches wait for the organizer
    assert cup.matches.filter(Q(home=staying) | Q(away=staying), forfeit="").count() == 3


def test_the_players_page_and_the_api_offer_the_forfeits(client):
    olga = User.objects.create_user("olga")
    cup = started(olga, 4)
    client.force_login(olga)
    page = client.get("/t/cup/players/").content.decode()
    assert page.count('data-role="forfeit-remaining"') == 4
    p1, p2 = entry(cup, "P1"), entry(cup, "P2")
    done = client.post(
        "/t/cup/players/", {"action": "withdraw", "entry": p1.pk, "forfeit_remaining": "on"}
    )
    assert done.status_code == 302
    assert cup.matches.filter(Q(home=p1) | Q(away=p1), forfeit__in=["home", "away"]).count() == 3
    gone = client.delete(f"/api/v1/tournaments/cup/entries/{p2.pk}/?forfeit_remaining=true")
    assert gone.status_code == 204
    lost = cup.matches.filter(Q(home=p2) | Q(away=p2)).exclude(Q(home=p1) | Q(away=p1))
    assert [match.forfeit != "" for match in lost] == [True, True]
