"""Lots, the last resort after the tie-breaks (pure): the draw is fixed by its seed, decides only
the places the tie-breaks leave shared, and says each level player's number in it; and each
format's default tie-break order is one an arbiter would recognise."""

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from tournaments.standings import (
    ROUND_ROBIN_ORDER,
    SWISS_ORDER,
    Entrant,
    Result,
    Tiebreak,
    compute,
    lot_order,
    shared_places,
)

# A round robin of four: a cycle 1 > 2 > 3 > 1, each 3–1, and each of them beat 4 3–1: 1, 2 and
# 3 are level on points and on every default tie-break.
CYCLE = [
    Result(1, 1, 2, 1, 3, 1),
    Result(1, 3, 4, 3, 3, 1),
    Result(2, 2, 3, 2, 3, 1),
    Result(2, 4, 1, 1, 1, 3),
    Result(3, 3, 1, 3, 3, 1),
    Result(3, 2, 4, 2, 3, 1),
]
FOUR = [Entrant(entrant_id) for entrant_id in (1, 2, 3, 4)]


def test_the_draw_is_the_sha256_of_seed_and_id_lowest_first():
    lots = {n: hashlib.sha256(f"12345:{n}".encode()).hexdigest() for n in range(1, 9)}
    assert lot_order(12345, range(1, 9)) == sorted(lots, key=lots.__getitem__)


@given(st.integers(min_value=0, max_value=2**62), st.permutations(list(range(1, 13))))
def test_the_same_seed_draws_the_same_order_whatever_the_ids_order(seed, ids):
    assert lot_order(seed, ids) == lot_order(seed, sorted(ids))
    assert sorted(lot_order(seed, ids)) == sorted(ids)


def test_different_seeds_draw_different_orders():
    orders = {tuple(lot_order(seed, range(1, 7))) for seed in range(40)}
    assert len(orders) > 30  # 720 orders to draw from


def test_without_lots_players_level_on_everything_share_their_place():
    rows = compute(FOUR, CYCLE, ROUND_ROBIN_ORDER)
    assert [row.rank for row in rows] == [1, 1, 1, 4]
    assert shared_places(rows) == [[1, 2, 3]]
    assert all(row.lot is None for row in rows)


def test_lots_decide_the_shared_places_in_the_order_drawn():
    for seed in range(10):
        rows = compute(FOUR, CYCLE, ROUND_ROBIN_ORDER, lots=lot_order(seed, [1, 2, 3, 4]))
        drawn = [entrant for entrant in lot_order(seed, [1, 2, 3, 4]) if entrant != 4]
        assert [row.entrant.id for row in rows] == [*drawn, 4]
        assert [row.rank for row in rows] == [1, 2, 3, 4]
        assert [row.lot for row in rows] == [1, 2, 3, None]  # 4 was not level with anybody
        assert shared_places(rows) == []


def test_lots_do_not_touch_a_place_the_tie_breaks_decided():
    # 1 beat 2, 3 beat 4, then 1 beat 3 and 2 beat 4 3–2: the points and the game points decide.
    results = [Result(1, 1, 2, 1, 3, 0), Result(1, 3, 4, 3, 3, 0),
               Result(2, 1, 3, 1, 3, 0), Result(2, 2, 4, 2, 3, 2)]  # fmt: skip
    plain = compute(FOUR, results, ROUND_ROBIN_ORDER)
    assert [row.rank for row in plain] == [1, 2, 3, 4]
    for seed in range(10):
        drawn = compute(FOUR, results, ROUND_ROBIN_ORDER, lots=lot_order(seed, [1, 2, 3, 4]))
        assert [(row.entrant.id, row.rank) for row in drawn] == [
            (row.entrant.id, row.rank) for row in plain
        ]
        assert all(row.lot is None for row in drawn)


def test_two_level_groups_are_each_numbered_from_one():
    # 1 and 3 won, 2 and 4 lost, and no tie-break is asked: two level pairs.
    results = [Result(1, 1, 2, 1, 3, 0), Result(1, 3, 4, 3, 3, 0)]
    rows = compute(FOUR, results, [], lots=[4, 3, 2, 1])
    assert [row.rank for row in rows] == [1, 2, 3, 4]
    assert [row.entrant.id for row in rows] == [3, 1, 4, 2]  # each pair as drawn
    assert [row.lot for row in rows] == [1, 2, 1, 2]


def test_the_default_orders_are_the_arbiters():
    assert ROUND_ROBIN_ORDER == (
        Tiebreak.DIRECT_ENCOUNTER, Tiebreak.SONNEBORN_BERGER, Tiebreak.WINS,
        Tiebreak.GAME_POINTS_DIFFERENCE,
    )  # fmt: skip
    first = (Tiebreak.BUCHHOLZ_CUT_1, Tiebreak.BUCHHOLZ, Tiebreak.SONNEBORN_BERGER)
    assert SWISS_ORDER[:3] == first
    assert len(set(SWISS_ORDER)) == len(SWISS_ORDER)
