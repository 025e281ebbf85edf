"""Forfeits in the standings (pure, issue 31): a match won by forfeit scores as a win, one neither
came to as a loss for both, and for tie-breaks each is an unplayed game (FIDE art. 13.15): a
virtual opponent for its sides, a draw in everybody else's."""

from fractions import Fraction

import pytest

from tournaments.scoring import MatchPoints
from tournaments.standings import Entrant, Result, compute

HALF = Fraction(1, 2)

# A three-round Swiss of four. Default points: win 1, draw ½, loss 0.
#   round 1: 1 beats 2; 3 wins by forfeit, 4 did not come
#   round 2: 1 beats 3; neither 2 nor 4 came
#   round 3: 4 beats 1; 2 draws 3
SWISS = [
    Result(1, 1, 2, winner=1),
    Result.by_forfeit(1, 3, 4, winner=3),
    Result(2, 1, 3, winner=1),
    Result.by_forfeit(2, 2, 4, winner=None),
    Result(3, 4, 1, winner=4),
    Result(3, 2, 3, None),
]
# Scores:   1: 1 + 1 + 0 = 2   2: 0 + 0 + ½ = ½   3: 1 + 0 + ½ = 1½   4: 0 + 0 + 1 = 1
# Adjusted, what each counts for in others' tie-breaks (a forfeit's round as a draw, ½):
#           1: 2   2: 0 + ½ + ½ = 1   3: ½ + 0 + ½ = 1   4: ½ + ½ + 1 = 2
# Virtual opponents, n = 3: Svon = SPR + (the opposite of the side's result) + ½ × (n − R):
#           3 (round 1, won):  0 + 0 + ½ × 2 = 1
#           4 (round 1, lost): 0 + 1 + ½ × 2 = 2
#           2 (round 2, lost): 0 + 1 + ½ × 1 = 1½
#           4 (round 2, lost): 0 + 1 + ½ × 1 = 1½
ROWS = {row.entrant.id: row for row in compute(
    [Entrant(i) for i in (1, 2, 3, 4)], SWISS, ["buchholz", "sonneborn-berger"])}  # fmt: skip


def test_a_forfeit_scores_as_a_win_and_one_neither_came_to_as_a_loss_for_both():
    assert {i: row.match_points for i, row in ROWS.items()} == {
        1: 2, 2: HALF, 3: Fraction(3, 2), 4: 1}  # fmt: skip
    counts = {i: (row.wins, row.draws, row.losses) for i, row in ROWS.items()}
    assert counts == {1: (2, 0, 1), 2: (0, 1, 2), 3: (1, 1, 1), 4: (1, 0, 2)}
    marks = {i: (row.forfeits_won, row.forfeits_lost) for i, row in ROWS.items()}
    assert marks == {1: (0, 0), 2: (0, 1), 3: (1, 0), 4: (0, 2)}
    assert (ROWS[3].game_points_for, ROWS[3].game_points_against) == (0, 0)


def test_buchholz_counts_a_forfeit_as_fide_counts_an_unplayed_game():
    assert {i: row.tiebreaks["buchholz"] for i, row in ROWS.items()} == {
        1: 1 + 1 + 2,  # its opponents' adjusted scores: 2 → 1, 3 → 1, 4 → 2
        2: 2 + Fraction(3, 2) + 1,  # 1 → 2, its own forfeit's virtual opponent 1½, 3 → 1
        3: 1 + 2 + 1,  # the virtual opponent 1, 1 → 2, 2 → 1
        4: 2 + Fraction(3, 2) + 2,  # two virtual opponents, then 1 → 2
    }


def test_sonneborn_berger_counts_a_forfeit_win_against_its_virtual_opponent():
    assert {i: row.tiebreaks["sonneborn-berger"] for i, row in ROWS.items()} == {
        1: 1 + 1,  # beat 2 (1) and 3 (1)
        2: HALF * 1,  # drew 3 (1)
        3: 1 + HALF * 1,  # the forfeit win's virtual opponent (1), a draw with 2 (1)
        4: 2,  # beat 1 (2)
    }


def test_a_forfeit_takes_the_tournaments_own_points():
    points = MatchPoints(win=3, draw=1, loss=0, bye=3)
    rows = compute([Entrant(1), Entrant(2)], [Result.by_forfeit(1, 1, 2, None)], [], points=points)
    assert [(row.match_points, row.losses, row.forfeits_lost) for row in rows] == [(0, 1, 1)] * 2


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Result(1, 1, None, None, forfeit=True), "two sides"),
        (lambda: Result(1, 1, 2, 1, 5, 0, forfeit=True), "no game points"),
        (lambda: Result.by_forfeit(1, 1, 2, winner=3), "did not play"),
    ],
)
def test_impossible_forfeits_are_refused(make, message):
    with pytest.raises(ValueError, match=message):
        make()
