"""Standings: match points, tie-breaks (FIDE's virtual opponent for byes) and ranks (pure)."""

import random
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.scoring import MatchPoints, MatchRules, MatchScoreResult, score_from_typed
from tournaments.standings import (
    Entrant,
    Result,
    StandingRow,
    Tiebreak,
    compute,
    deciding_tiebreaks,
)

HALF = Fraction(1, 2)
ALL = [tiebreak.value for tiebreak in Tiebreak]


def by_id(rows: list[StandingRow]) -> dict[int, StandingRow]:
    return {row.entrant.id: row for row in rows}


def values(rows: list[StandingRow], tiebreak: str) -> dict[int, Fraction]:
    return {row.entrant.id: row.tiebreaks[tiebreak] for row in rows}


def entrants(*ids: int) -> list[Entrant]:
    return [Entrant(entrant_id) for entrant_id in ids]


# A three-round Swiss of five: one bye a round. Default points: win 1, draw ½, loss 0, bye 1.
#   round 1: 1 beats 2, 3 draws 4, 5 has a bye
#   round 2: 1 draws 3, 5 beats 2, 4 has a bye
#   round 3: 5 beats 1, 4 beats 2, 3 has a bye
SWISS = [
    Result(1, 1, 2, winner=1),
    Result(1, 3, 4, None),
    Result.bye(1, 5),
    Result(2, 1, 3, None),
    Result(2, 5, 2, winner=5),
    Result.bye(2, 4),
    Result(3, 5, 1, winner=5),
    Result(3, 4, 2, winner=4),
    Result.bye(3, 3),
]
# Scores:    1: 1 + ½ + 0 = 1½   2: 0   3: ½ + ½ + 1 (bye) = 2   4: ½ + 1 (bye) + 1 = 2½
#            5: 1 (bye) + 1 + 1 = 3
# Adjusted scores, what each counts for in others' tie-breaks (its own byes as draws, ½):
#            1: 1½   2: 0   3: ½ + ½ + ½ = 1½   4: ½ + ½ + 1 = 2   5: ½ + 1 + 1 = 2½
# Virtual opponents, n = 3 rounds: Svon = SPR + (1 - SfPR) + ½ × (n - R), the bye worth 1:
#            5 (round 1): 0 + 0 + ½ × 2 = 1
#            4 (round 2): ½ + 0 + ½ × 1 = 1
#            3 (round 3): 1 + 0 + ½ × 0 = 1
# Opponents' values for each entrant, sorted:
#            1: 2 → 0, 3 → 1½, 5 → 2½                   = [0, 1½, 2½]
#            2: 1 → 1½, 5 → 2½, 4 → 2                    = [1½, 2, 2½]
#            3: 4 → 2, 1 → 1½, virtual → 1               = [1, 1½, 2]
#            4: 3 → 1½, virtual → 1, 2 → 0               = [0, 1, 1½]
#            5: virtual → 1, 2 → 0, 1 → 1½               = [0, 1, 1½]


def test_match_points_and_counts_of_a_swiss_with_byes():
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, [])
    assert [(row.rank, row.entrant.id, row.match_points) for row in rows] == [
        (1, 5, 3),
        (2, 4, Fraction(5, 2)),
        (3, 3, 2),
        (4, 1, Fraction(3, 2)),
        (5, 2, 0),
    ]
    # Byes count in match points, not as wins: 5 won two matches and had a bye.
    five, three = by_id(rows)[5], by_id(rows)[3]
    assert (five.wins, five.draws, five.losses) == (2, 0, 0)
    assert (three.wins, three.draws, three.losses) == (0, 2, 0)


def test_buchholz_with_fide_virtual_opponents_for_byes():
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, ["buchholz"])
    # Sums of the lists above: 0 + 1½ + 2½, 1½ + 2 + 2½, 1 + 1½ + 2, 0 + 1 + 1½, 0 + 1 + 1½.
    assert values(rows, "buchholz") == {
        1: 4,
        2: 6,
        3: Fraction(9, 2),
        4: Fraction(5, 2),
        5: Fraction(5, 2),
    }


def test_buchholz_cut_1_drops_the_lowest_value():
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, ["buchholz-cut-1"])
    # 1: 1½ + 2½   2: 2 + 2½   3: 1½ + 2   4: 1 + 1½   5: 1 + 1½
    assert values(rows, "buchholz-cut-1") == {
        1: 4,
        2: Fraction(9, 2),
        3: Fraction(7, 2),
        4: Fraction(5, 2),
        5: Fraction(5, 2),
    }


def test_median_buchholz_drops_the_highest_and_the_lowest_value():
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, ["median-buchholz"])
    # The middle value of each three: 1½, 2, 1½, 1, 1.
    assert values(rows, "median-buchholz") == {
        1: Fraction(3, 2),
        2: 2,
        3: Fraction(3, 2),
        4: 1,
        5: 1,
    }


def test_sonneborn_berger_counts_the_beaten_in_full_and_the_drawn_by_half():
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, ["sonneborn-berger"])
    # A bye worth a win counts the virtual opponent in full.
    # 1: beat 2 (0) + ½ × drew 3 (1½)             = ¾
    # 2: lost everything                           = 0
    # 3: ½ × drew 4 (2) + ½ × drew 1 (1½) + bye 1  = 1 + ¾ + 1 = 2¾
    # 4: ½ × drew 3 (1½) + bye 1 + beat 2 (0)      = ¾ + 1 = 1¾
    # 5: bye 1 + beat 2 (0) + beat 1 (1½)          = 2½
    assert values(rows, "sonneborn-berger") == {
        1: Fraction(3, 4),
        2: 0,
        3: Fraction(11, 4),
        4: Fraction(7, 4),
        5: Fraction(5, 2),
    }


def test_fide_example_a_bye_in_round_six_of_nine():
    # FIDE's example: 3½ after five rounds, a win by default in round 6 of 9:
    # Svon = 3½ + (1 - 1) + ½ × (9 - 6) = 5.
    results = [
        Result(1, 1, 2, winner=1),
        Result(2, 1, 3, winner=1),
        Result(3, 1, 4, winner=1),
        Result(4, 1, 5, None),
        Result(5, 1, 6, winner=6),
        Result.bye(6, 1),
    ]
    rows = compute(entrants(1, 2, 3, 4, 5, 6), results, ["buchholz"], rounds=9)
    # Opponents: 2, 3, 4 scored 0, 5 scored ½, 6 scored 1; plus the virtual opponent's 5.
    assert values(rows, "buchholz")[1] == Fraction(13, 2)


def test_fide_example_a_zero_point_bye_gives_the_virtual_opponent_the_win():
    # FIDE's other example: 1½ after two rounds, 0 by default in round 3 of 9:
    # Svon = 1½ + (1 - 0) + ½ × (9 - 3) = 5½.
    results = [Result(1, 1, 2, winner=1), Result(2, 1, 3, None), Result.bye(3, 1)]
    points = MatchPoints(bye=0)
    rows = compute(
        entrants(1, 2, 3), results, ["buchholz", "sonneborn-berger"], points=points, rounds=9
    )
    # Opponents: 2 scored 0, 3 scored ½; the virtual opponent 5½.
    assert values(rows, "buchholz")[1] == 6
    # Sonneborn-Berger: beat 2 (0) + ½ × drew 3 (½); the bye counts as a loss: nothing.
    assert values(rows, "sonneborn-berger")[1] == Fraction(1, 4)


def test_an_opponents_byes_count_as_draws_for_others():
    # 2 beats 1, then has a bye worth 1: its score is 2 but it counts as 1½ for 1's Buchholz.
    results = [Result(1, 1, 2, winner=2), Result.bye(2, 2), Result.bye(2, 1)]
    rows = compute(entrants(1, 2), results, ["buchholz"])
    assert by_id(rows)[2].match_points == 2
    # 1: opponent 2 counts 1 + ½ = 1½; its own bye in round 2 of 2: 0 + 0 + ½ × 0 = 0.
    assert values(rows, "buchholz")[1] == Fraction(3, 2)


# Five entrants, every pair once (one match a round so nobody needs a bye):
#   1 beats 2, 2 draws 3, 3 draws 1      (among 1, 2, 3: 1 gets 1½, 3 gets 1, 2 gets ½)
#   1 draws 4, 5 beats 1                 1: 1 + ½ + ½ + 0   = 2
#   2 beats 4, 2 draws 5                 2: 0 + ½ + 1 + ½   = 2
#   3 beats 4, 5 beats 3                 3: ½ + ½ + 1 + 0   = 2
#   5 beats 4                            4: ½, 5: 3½
ROUND_ROBIN = [
    Result(1, 1, 2, winner=1),
    Result(2, 2, 3, None),
    Result(3, 3, 1, None),
    Result(4, 1, 4, None),
    Result(5, 5, 1, winner=5),
    Result(6, 2, 4, winner=2),
    Result(7, 2, 5, None),
    Result(8, 3, 4, winner=3),
    Result(9, 5, 3, winner=5),
    Result(10, 5, 4, winner=5),
]


def test_direct_encounter_orders_the_tied_by_their_games_among_themselves():
    rows = compute(entrants(1, 2, 3, 4, 5), ROUND_ROBIN, ["direct-encounter"])
    assert [(row.rank, row.entrant.id) for row in rows] == [(1, 5), (2, 1), (3, 3), (4, 2), (5, 4)]
    # 1, 2 and 3 all met: 1½, ½, 1 among them. 5 and 4 are tied with nobody: 0.
    assert values(rows, "direct-encounter") == {1: Fraction(3, 2), 2: HALF, 3: 1, 4: 0, 5: 0}


def test_direct_encounter_counts_only_among_those_still_tied_by_earlier_tiebreaks():
    rated = [Entrant(1, 1500), Entrant(2, 1500), Entrant(3, 1600), Entrant(4), Entrant(5)]
    rows = compute(rated, ROUND_ROBIN, ["rating", "direct-encounter"])
    # 3 is ahead on rating; 1 and 2 are still tied, and 1 beat 2: 1 against 0.
    assert [row.entrant.id for row in rows] == [5, 3, 1, 2, 4]
    assert values(rows, "direct-encounter") == {1: 1, 2: 0, 3: 0, 4: 0, 5: 0}


def test_direct_encounter_is_not_applied_when_the_tied_have_not_all_met():
    results = [Result(1, 1, 2, winner=1), Result(1, 3, 4, winner=3)]
    rows = compute(entrants(1, 2, 3, 4), results, ["direct-encounter"])
    # 1 and 3 (1 point each) never met, nor did 2 and 4: 0 for all, the ties stay, ranks shared.
    assert values(rows, "direct-encounter") == {1: 0, 2: 0, 3: 0, 4: 0}
    assert [(row.rank, row.entrant.id) for row in rows] == [(1, 1), (1, 3), (3, 2), (3, 4)]


# Two rounds of four, matches of 3 games with Federation draws worth ½ (scores are game points):
#   round 1: 1 beats 2 2-1, 3 draws 4 1½-1½      round 2: 1 draws 3 1½-1½, 2 beats 4 3-0
THREE_GAMES = MatchRules(games=3, federation_draw=True)
SMALL = [
    Result.from_score(1, 1, 2, score_from_typed(THREE_GAMES, 2, 1)),
    Result.from_score(1, 3, 4, score_from_typed(THREE_GAMES, "1.5", "1.5")),
    Result.from_score(2, 1, 3, score_from_typed(THREE_GAMES, "1.5", "1.5")),
    Result.from_score(2, 2, 4, score_from_typed(THREE_GAMES, 3, 0)),
]
# Match points: 1: 1 + ½ = 1½   2: 0 + 1 = 1   3: ½ + ½ = 1   4: ½ + 0 = ½
# 2 and 3 are tied on 1: 2 won a match, 3 none; game points 2: 1 + 3 - (2 + 0) = +2,
# 3: 1½ + 1½ - (1½ + 1½) = 0; ratings 2: 1400, 3: 1500.
SMALL_ENTRANTS = [Entrant(1, 1600), Entrant(2, 1400), Entrant(3, 1500), Entrant(4, 1300)]


@pytest.mark.parametrize(
    ("tiebreak", "order", "tied"),
    [
        ("wins", [1, 2, 3, 4], {2: 1, 3: 0}),
        ("game-points-difference", [1, 2, 3, 4], {2: 2, 3: 0}),
        ("rating", [1, 3, 2, 4], {2: 1400, 3: 1500}),
    ],
)
def test_simple_tiebreaks_order_the_tied(tiebreak, order, tied):
    rows = compute(SMALL_ENTRANTS, SMALL, [tiebreak])
    assert [row.entrant.id for row in rows] == order
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    assert {entrant: values(rows, tiebreak)[entrant] for entrant in tied} == tied


def test_game_points_come_from_the_match_scores():
    row = by_id(compute(SMALL_ENTRANTS, SMALL, []))[3]
    assert (row.game_points_for, row.game_points_against) == (3, 3)
    assert (row.wins, row.draws, row.losses) == (0, 2, 0)


def test_tiebreaks_apply_in_the_order_asked_and_are_reported_in_that_order():
    rows = compute(SMALL_ENTRANTS, SMALL, ["rating", "wins"])
    assert list(rows[0].tiebreaks) == ["rating", "wins"]
    assert [row.entrant.id for row in rows] == [1, 3, 2, 4]
    rows = compute(SMALL_ENTRANTS, SMALL, [Tiebreak.WINS, Tiebreak.RATING])
    assert [row.entrant.id for row in rows] == [1, 2, 3, 4]


def test_entrants_tied_on_everything_share_a_rank_and_are_listed_by_id():
    rows = compute(SMALL_ENTRANTS, SMALL, [])
    assert [(row.rank, row.entrant.id) for row in rows] == [(1, 1), (2, 2), (2, 3), (4, 4)]


def test_an_entrant_without_results_is_listed_with_nothing():
    rows = compute(entrants(7, 1, 2), [Result(1, 1, 2, winner=2)], ALL)
    last = rows[-1]
    assert (last.rank, last.entrant.id, last.match_points) == (3, 7, 0)
    assert set(last.tiebreaks.values()) == {0}


def test_configured_match_points():
    points = MatchPoints(win=3, draw=1, loss=0, bye=3)
    rows = compute(entrants(1, 2, 3, 4, 5), SWISS, [], points=points)
    # 1: 3 + 1 + 0   2: 0   3: 1 + 1 + 3   4: 1 + 3 + 3   5: 3 + 3 + 3
    assert {row.entrant.id: row.match_points for row in rows} == {1: 4, 2: 0, 3: 5, 4: 7, 5: 9}


@pytest.mark.parametrize(
    ("results", "tiebreaks", "message"),
    [
        ([Result(1, 1, 9, winner=1)], [], "9 is not an entrant"),
        (
            [Result(1, 1, 2, None), Result(1, 1, 3, None)],
            [],
            "entrant 1 has two results in round 1",
        ),
        ([Result(1, 1, 2, None), Result.bye(1, 2)], [], "entrant 2 has two results in round 1"),
        ([], ["buchholz", "koya"], "unknown tie-break 'koya': expected one of buchholz"),
        ([], ["wins", "wins"], "'wins' is listed twice"),
    ],
)
def test_bad_input_is_refused(results, tiebreaks, message):
    with pytest.raises(ValueError, match=message):
        compute(entrants(1, 2, 3), results, tiebreaks)


def test_a_result_after_the_last_round_is_refused():
    with pytest.raises(ValueError, match="results of round 3, but only 2 rounds"):
        compute(entrants(1, 2), [Result(3, 1, 2, None)], [], rounds=2)


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Result(0, 1, 2, None), "rounds are numbered from 1"),
        (lambda: Result(1, 1, 1, None), "cannot play itself"),
        (lambda: Result(1, 1, 2, winner=3), "the winner 3 did not play 1–2"),
        (lambda: Result(1, 1, None, winner=1), "a bye for 1 has no winner"),
    ],
)
def test_impossible_results_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_an_unfinished_match_is_not_a_result():
    unfinished = MatchScoreResult(Fraction(2), Fraction(1), None, 2, None, False)
    with pytest.raises(ValueError, match="not finished"):
        Result.from_score(1, 1, 2, unfinished)


def test_duplicate_entrants_are_refused():
    with pytest.raises(ValueError, match="entrant 1 is listed twice"):
        compute(entrants(1, 1), [], [])


# --- Random round robins -----------------------------------------------------------------------


def round_robin(count: int, rng: random.Random) -> list[Result]:
    """Every pair once by the circle method; with an odd count one entrant a round has a bye."""
    seats: list[int | None] = list(range(1, count + 1)) + ([None] if count % 2 else [])
    results = []
    for number in range(1, len(seats)):
        for index in range(len(seats) // 2):
            a, b = seats[index], seats[-1 - index]
            if a is None or b is None:
                results.append(Result.bye(number, a if b is None else b))
                continue
            winner = rng.choice([a, b, None])
            won, lost = rng.randint(3, 5), rng.randint(0, 2)
            game_points = (won, lost) if winner == a else (lost, won) if winner else (2, 2)
            results.append(Result(number, a, b, winner, *game_points))
        seats = [seats[0], seats[-1], *seats[1:-1]]
    return results


@settings(max_examples=60, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=11),
    seed=st.integers(min_value=0, max_value=2**32),
    points=st.sampled_from([MatchPoints(), MatchPoints(win=3, draw=1, loss=0, bye=3)]),
)
def test_standings_of_random_round_robins_add_up(count, seed, points):
    results = round_robin(count, random.Random(seed))
    rows = compute(entrants(*range(1, count + 1)), results, ALL, points=points)
    played = [result for result in results if not result.is_bye]
    decided = sum(1 for result in played if result.winner is not None)
    drawn = len(played) - decided
    byes = len(results) - len(played)

    assert len(played) == count * (count - 1) // 2
    assert sorted(row.entrant.id for row in rows) == list(range(1, count + 1))
    assert sum(row.match_points for row in rows) == (
        decided * (points.win + points.loss) + drawn * 2 * points.draw + byes * points.bye
    )
    assert sum(row.wins for row in rows) == sum(row.losses for row in rows) == decided
    assert sum(row.draws for row in rows) == 2 * drawn
    assert sum(row.game_points_for for row in rows) == sum(row.game_points_against for row in rows)
    # Ranks start at 1, never fall, and a rank is shared only by rows equal on everything.
    assert rows[0].rank == 1
    keys = [(row.match_points, *row.tiebreaks.values()) for row in rows]
    for position in range(1, len(rows)):
        assert keys[position - 1] >= keys[position]
        same = keys[position - 1] == keys[position]
        assert rows[position].rank == (rows[position - 1].rank if same else position + 1)
    if count % 2 == 0:
        # Without byes everybody met everybody else: Buchholz is the total less one's own score.
        total = sum(row.match_points for row in rows)
        for row in rows:
            assert row.tiebreaks["buchholz"] == total - row.match_points


def row(rank: int, entrant: int, points: int, buchholz: int, wins: int) -> StandingRow:
    tiebreaks = {"buchholz": Fraction(buchholz), "wins": Fraction(wins)}
    return StandingRow(rank, Entrant(entrant), Fraction(points), wins, 0, 0, Fraction(0),
                       Fraction(0), tiebreaks)  # fmt: skip


def test_the_tiebreak_that_decided_each_place_is_the_first_that_differs_from_a_neighbour():
    rows = [
        row(1, 1, 2, buchholz=5, wins=2),  # against 2: equal Buchholz, more wins
        row(2, 2, 2, buchholz=5, wins=1),  # against 1: wins; against 3: Buchholz
        row(3, 3, 2, buchholz=4, wins=3),  # against 2: Buchholz
        row(4, 4, 1, buchholz=9, wins=0),  # fewer points than 3: points decided
        row(5, 5, 0, buchholz=2, wins=0),  # shares its place with 6: nothing decided
        row(5, 6, 0, buchholz=2, wins=0),
    ]
    assert deciding_tiebreaks(rows) == [
        ("wins",),
        ("buchholz", "wins"),  # in the order the tournament asks them
        ("buchholz",),
        (),
        (),
        (),
    ]
    assert deciding_tiebreaks([]) == []
