"""Recording a match result: who may, in which state, as a score, games or a .mat file; every
rejected input changes nothing; two simultaneous reports give one result."""

import random
import time
from decimal import Decimal

import pytest
from django.db import connection

from games.models import Game
from games.rules import MatchGame, ShortNardy, Turn
from games.rules.matfile import match_record, write_match
from games.rules.selfplay import random_match
from games.services import RecordedGame
from tests.support.races import race
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import (
    match_result_confirm,
    match_result_correct,
    match_result_dispute,
    match_result_record,
    match_result_resolve,
)
from tournaments.models import Match


def games_to(length: int, seed: int = 5) -> list[RecordedGame]:
    """Self-play Short Nardy games (koks off, no dave) until a side reaches ``length`` points."""
    played = random_match(ShortNardy(), length, random.Random(seed))
    return [RecordedGame(game.white, game.actions) for game in played]


def expected_score(games: list[RecordedGame]) -> tuple[Decimal, Decimal]:
    from games.services import games_validate  # noqa: PLC0415

    validated = games_validate(variant=ShortNardy(), games=games, length=3, crawford=True)
    points = [Decimal(0), Decimal(0)]
    for game in validated:
        points[game.winner - 1] += game.outcome.points
    return points[0], points[1]


def unchanged(match: Match) -> None:
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert match.score_home is None and match.winner_id is None
    assert not Game.objects.filter(match=match).exists()


def test_a_player_reports_a_score_and_the_opponent_confirms_it(club):
    match = match_result_record(match=club.match, by=club.anna, score=(3, 1))
    assert match.status == Match.Status.REPORTED
    assert (match.score_home, match.score_away, match.winner) == (3, 1, club.home)
    assert match.reported_by == club.anna

    match = match_result_confirm(match=match, by=club.boris)
    assert match.status == Match.Status.CONFIRMED
    assert match.confirmed_by == club.boris


def test_an_organizers_result_is_final_at_once(club):
    match = match_result_record(match=club.match, by=club.organizer, score=(0, 4))
    assert match.status == Match.Status.FINAL
    assert match.winner == club.away


def test_an_outsider_may_not_report(club):
    with pytest.raises(NotAllowed):
        match_result_record(match=club.match, by=club.outsider, score=(3, 1))
    unchanged(club.match)


def test_the_reporter_may_not_confirm_or_dispute_its_own_report(club):
    match_result_record(match=club.match, by=club.anna, score=(3, 1))
    with pytest.raises(NotAllowed):
        match_result_confirm(match=club.match, by=club.anna)
    with pytest.raises(NotAllowed):
        match_result_dispute(match=club.match, by=club.anna, note="no")
    club.match.refresh_from_db()
    assert club.match.status == Match.Status.REPORTED


def test_a_second_report_is_a_conflict(club):
    match_result_record(match=club.match, by=club.anna, score=(3, 1))
    with pytest.raises(Conflict):
        match_result_record(match=club.match, by=club.boris, score=(1, 3))
    club.match.refresh_from_db()
    assert (club.match.score_home, club.match.reported_by) == (3, club.anna)


@pytest.mark.parametrize(
    ("score", "message"),
    [
        ((3, 3), "both players reached 3"),
        ((2, 1), "neither player reached 3"),
        ((-1, 3), "cannot be negative"),
        ((Decimal("3.5"), 1), "scores are whole numbers unless drawn games count"),
        (("x", 1), "is not a number"),
    ],
)
def test_an_impossible_score_is_refused(club, score, message):
    with pytest.raises(InvalidInput, match=message):
        match_result_record(match=club.match, by=club.anna, score=score)
    unchanged(club.match)


def test_the_result_is_given_one_way_only(club):
    with pytest.raises(InvalidInput, match="as a score, as the games, or as a .mat file"):
        match_result_record(match=club.match, by=club.anna, score=(3, 0), games=games_to(3))
    with pytest.raises(InvalidInput):
        match_result_record(match=club.match, by=club.anna)
    unchanged(club.match)


def test_recorded_games_are_replayed_stored_and_give_the_score(club):
    games = games_to(3)
    match = match_result_record(match=club.match, by=club.anna, games=games)
    stored = list(match.games.order_by("number"))
    assert [game.white for game in stored] == [game.white for game in games]
    assert (match.score_home, match.score_away) == expected_score(games)
    assert match.winner == (club.home if match.score_home >= 3 else club.away)
    assert all(game.ending == "bear-off" and game.points == game.value for game in stored)
    assert stored[0].actions[0] == {
        "dice": f"{games[0].actions[0].dice[0]}{games[0].actions[0].dice[1]}",
        "play": str(games[0].actions[0].play),
    }


def test_an_illegal_play_rejects_the_whole_result_with_its_game_move_and_reason(club):
    games = games_to(3)
    second = list(games[1].actions)
    first_turn = second[0]
    second[0] = Turn(first_turn.dice, first_turn.play.parse("24/13 24/13 6/1"))
    games[1] = RecordedGame(games[1].white, tuple(second))
    with pytest.raises(InvalidInput, match=r"^Game 2, move 1, player \d '24/13\(2\) 6/1': "):
        match_result_record(match=club.match, by=club.anna, games=games)
    unchanged(club.match)


def test_games_that_do_not_finish_the_match_are_refused(club):
    with pytest.raises(InvalidInput, match="do not finish the match"):
        match_result_record(match=club.match, by=club.anna, games=games_to(3)[:1])
    unchanged(club.match)


def test_a_mat_file_is_read_replayed_and_stored(club):
    games = games_to(3)
    record = match_record(
        ShortNardy(),
        ("Anna", "Boris"),
        [MatchGame(game.white, game.actions) for game in games],
        length=3,
    )
    match = match_result_record(match=club.match, by=club.anna, mat=write_match(record))
    assert (match.score_home, match.score_away) == expected_score(games)
    assert match.games.count() == len(games)


def test_a_mat_file_of_the_other_game_or_not_a_mat_file_is_refused(club):
    long_file = '; [Variation "Long Nardy"]\n\n3 point match\n\n Game 1\n a : 0    b : 0\n'
    with pytest.raises(InvalidInput, match="Long Nardy match, the tournament plays Short Nardy"):
        match_result_record(match=club.match, by=club.anna, mat=long_file)
    with pytest.raises(InvalidInput, match="cannot be read"):
        match_result_record(match=club.match, by=club.anna, mat="hello")
    unchanged(club.match)


def test_a_disputed_result_is_resolved_by_an_organizer(club):
    match_result_record(match=club.match, by=club.anna, score=(3, 1))
    match = match_result_dispute(match=club.match, by=club.boris, note="It was 1-3.")
    assert match.status == Match.Status.DISPUTED and match.dispute_note == "It was 1-3."
    with pytest.raises(NotAllowed):
        match_result_resolve(match=match, by=club.boris, score=(1, 3))
    match = match_result_resolve(match=match, by=club.organizer, score=(1, 3))
    assert match.status == Match.Status.FINAL and match.winner == club.away


def test_a_dispute_says_what_is_wrong(club):
    match_result_record(match=club.match, by=club.anna, score=(3, 1))
    with pytest.raises(InvalidInput):
        match_result_dispute(match=club.match, by=club.boris, note="  ")


def test_results_wait_for_the_tournament_to_run(club):
    club.tournament.status = club.tournament.Status.FINISHED
    club.tournament.save()
    with pytest.raises(Conflict):
        match_result_record(match=club.match, by=club.organizer, score=(3, 1))


def test_a_correction_resets_the_bracket_matches_that_depended_on_it(club):
    tournament = club.tournament
    third = club.home.__class__.objects.create(
        tournament=tournament, player=club.home.player.__class__.objects.create(display_name="C")
    )
    semi = Match.objects.create(tournament=tournament, slot="S1", home=club.home, away=club.away)
    final = Match.objects.create(
        tournament=tournament, slot="F", home_source={"winner_of": "S1"}, away=third
    )
    match_result_record(match=semi, by=club.organizer, score=(3, 0))
    final.refresh_from_db()
    assert final.home == club.home
    match_result_record(match=final, by=club.organizer, score=(3, 2))

    correction = match_result_correct(match=semi, by=club.organizer, score=(1, 3))

    assert correction.match.winner == club.away
    assert [match.pk for match in correction.reset] == [final.pk]
    final.refresh_from_db()
    assert final.home == club.away and final.status == Match.Status.SCHEDULED
    assert final.score_home is None and final.winner is None


def test_only_an_organizer_corrects_and_only_a_decided_result(club):
    with pytest.raises(Conflict):
        match_result_correct(match=club.match, by=club.organizer, score=(3, 0))
    match_result_record(match=club.match, by=club.organizer, score=(3, 0))
    with pytest.raises(NotAllowed):
        match_result_correct(match=club.match, by=club.anna, score=(0, 3))


@pytest.fixture
def slow_results(monkeypatch):
    """Make working out a result slow, so that without the row lock both reports would pass
    the state check before either is saved."""
    import tournaments.matches.results as results  # noqa: PLC0415

    work_out = results.result_of

    def slowly(*args, **kwargs):
        time.sleep(0.3)
        return work_out(*args, **kwargs)

    monkeypatch.setattr(results, "result_of", slowly)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_reports_give_one_result(new_club, slow_results):
    club = new_club()
    outcomes = race(
        lambda: match_result_record(match=club.match, by=club.anna, score=(3, 1)),
        lambda: match_result_record(match=club.match, by=club.boris, score=(0, 3)),
    )
    assert outcomes == ["conflict", "done"]
    club.match.refresh_from_db()
    assert club.match.status == Match.Status.REPORTED
    reporter_says_home_won = club.match.reported_by == club.anna
    assert (club.match.winner == club.home) == reporter_says_home_won


@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
@pytest.mark.django_db(transaction=True)
def test_two_simultaneous_confirmations_give_one(new_club):
    club = new_club()
    match_result_record(match=club.match, by=club.anna, score=(3, 1))
    outcomes = race(
        lambda: match_result_confirm(match=club.match, by=club.boris),
        lambda: match_result_dispute(match=club.match, by=club.organizer, note="check"),
    )
    assert outcomes == ["conflict", "done"]
    club.match.refresh_from_db()
    assert club.match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED)


def test_who_follows_a_decided_result_reads_the_match_as_saved(club):
    """``result_decided`` is sent once the match is saved: a follower that reads it from the
    database sees the decided status and score, for a first result, a confirmation, a
    resolution and a correction alike."""
    from tournaments.matches.signals import result_decided  # noqa: PLC0415

    seen: list[tuple[str, Decimal | None, bool]] = []

    def follower(sender, match, by, first, **kwargs):
        stored = Match.objects.get(pk=match.pk)
        seen.append((stored.status, stored.score_home, stored.decided_at is not None and first))

    result_decided.connect(follower)
    try:
        match = match_result_record(match=club.match, by=club.anna, score=(3, 1))
        match_result_confirm(match=match, by=club.boris)
        match_result_correct(match=match, by=club.organizer, score=(2, 3))
    finally:
        result_decided.disconnect(follower)

    assert seen == [(Match.Status.CONFIRMED, 3, True), (Match.Status.FINAL, 2, False)]
