"""The pure season table: points per event by place or by wins, best N of M, and the tie-breaks."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.seasons.table import EventFinish, Rule, event_points, season_table


def finish(event: int, player: int, place: int, wins: float = 0) -> EventFinish:
    return EventFinish(event, player, place, Fraction(str(wins)))


def test_place_points_follow_the_table_and_stop_at_its_end():
    rule = Rule(place_points=(25, 18, 15))
    assert [event_points(finish(1, 1, place), rule) for place in (1, 2, 3, 4, 40)] == [
        25, 18, 15, 0, 0,
    ]  # fmt: skip


def test_win_points_count_each_match_won_and_half_a_draw():
    rule = Rule(scoring="wins", win_points=2.5)
    assert event_points(finish(1, 1, place=7, wins=3.5), rule) == Fraction(35, 4)


def test_points_add_up_over_events_and_rank_the_players():
    rows = season_table(
        [10, 20],
        [finish(10, 1, 1), finish(10, 2, 2), finish(20, 2, 1), finish(20, 3, 2)],
        Rule(place_points=(25, 18)),
    )
    assert [(row.rank, row.player, row.points) for row in rows] == [
        (1, 2, 43), (2, 1, 25), (3, 3, 18),
    ]  # fmt: skip
    assert rows[0].running == (18, 43)
    assert rows[1].running == (25, 25)
    assert rows[2].events[0] is None and rows[2].played == 1


def test_best_n_of_m_drops_the_worst_events_and_keeps_the_earlier_on_a_tie():
    rule = Rule(place_points=(10, 6, 4, 2), best_of=2)
    rows = season_table(
        [1, 2, 3, 4], [finish(1, 7, 4), finish(2, 7, 2), finish(3, 7, 2), finish(4, 7, 1)], rule
    )
    (row,) = rows
    assert row.points == 16 and row.all_points == 24
    assert [item.counted for item in row.events if item] == [False, True, False, True]
    # The chart shows what counted after each event: the best two so far.
    assert row.running == (2, 8, 12, 16)


def test_countback_breaks_a_tie_on_points_by_more_first_places():
    # Both have 25 points: player 1 by one win, player 2 by 15 + 10.
    rule = Rule(place_points=(25, 18, 15, 12, 10))
    rows = season_table([1, 2], [finish(1, 1, 1), finish(1, 2, 3), finish(2, 2, 5)], rule)
    assert [(row.rank, row.player) for row in rows] == [(1, 1), (2, 2)]


def test_countback_reaches_past_a_players_own_deepest_place():
    # Equal points and equal 1st and 2nd places: the one with a 3rd place more is ahead, even
    # though the other never finished that low.
    rule = Rule(place_points=(10, 5, 0, 0))
    rows = season_table(
        [1, 2, 3],
        [finish(1, 1, 1), finish(2, 1, 2), finish(1, 2, 2), finish(2, 2, 1), finish(3, 2, 3)],
        rule,
    )
    assert [row.player for row in rows] == [2, 1]
    assert rows[0].rank == 1 and rows[1].rank == 2


@given(st.lists(st.lists(st.integers(1, 6), min_size=1, max_size=5), min_size=2, max_size=6))
def test_countback_compares_how_many_of_each_place_in_turn(places: list[list[int]]) -> None:
    # No place earns a point: the countback alone orders the players. Its definition, counted
    # out: more 1st places first, then more 2nd places, and so on down to the 6th.
    events = list(range(5))
    finishes = [
        finish(event, player, place)
        for player, taken in enumerate(places)
        for event, place in zip(events, taken, strict=False)
    ]
    rows = season_table(events, finishes, Rule(place_points=(0,)))

    def counted_out(player: int) -> tuple[int, ...]:
        return tuple(-places[player].count(place) for place in range(1, 7))

    expected = sorted(range(len(places)), key=lambda player: (counted_out(player), player))
    assert [row.player for row in rows] == expected
    for upper, lower in zip(rows, rows[1:], strict=False):
        tied = counted_out(upper.player) == counted_out(lower.player)
        assert (lower.rank == upper.rank) == tied


def test_dropped_points_break_a_tie_that_countback_leaves():
    rule = Rule(scoring="wins", best_of=1)
    rows = season_table(
        [1, 2], [finish(1, 1, 1, wins=3), finish(2, 1, 1, wins=1), finish(1, 2, 1, wins=3)], rule
    )
    assert [(row.player, row.points, row.all_points) for row in rows] == [(1, 3, 4), (2, 3, 3)]


def test_players_equal_on_everything_share_the_rank():
    rows = season_table(
        [1, 2], [finish(1, 1, 3), finish(2, 2, 3), finish(1, 3, 1)], Rule(place_points=(5, 3, 1))
    )
    assert [(row.rank, row.player) for row in rows] == [(1, 3), (2, 1), (2, 2)]


def test_a_finish_outside_the_season_or_twice_in_an_event_is_refused():
    with pytest.raises(ValueError, match="not one of the season's"):
        season_table([1], [finish(2, 1, 1)], Rule())
    with pytest.raises(ValueError, match="twice"):
        season_table([1], [finish(1, 1, 1), finish(1, 1, 2)], Rule())


finishes = st.lists(
    st.tuples(st.integers(0, 5), st.integers(1, 12), st.integers(1, 14), st.integers(0, 8)),
    max_size=60,
    unique_by=lambda item: (item[0], item[1]),
)


@given(finishes, st.sampled_from([None, 1, 2, 4]), st.sampled_from(["place", "wins"]))
def test_any_season_ranks_every_player_once_in_order(raw, best_of, scoring):
    rule = Rule(scoring=scoring, best_of=best_of)
    rows = season_table(list(range(6)), [finish(*item) for item in raw], rule)
    assert sorted(row.player for row in rows) == sorted({item[1] for item in raw})
    for earlier, later in zip(rows, rows[1:], strict=False):
        assert earlier.points >= later.points
        assert earlier.rank <= later.rank
    for index, row in enumerate(rows):
        assert row.rank <= index + 1
        counted = [item for item in row.events if item is not None and item.counted]
        assert row.points == sum(item.points for item in counted)
        assert len(counted) == min(row.played, best_of or row.played)
        assert row.running[-1] == row.points
        assert list(row.running) == sorted(row.running)
