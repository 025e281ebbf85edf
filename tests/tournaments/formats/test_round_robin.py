"""Berger tables against FIDE's published ones (Handbook C.05, Annex 1), and the properties every
size must have."""

import itertools
import re

import pytest

from tournaments.formats.round_robin import berger


def table(text: str) -> list[list[tuple[int, int]]]:
    """A table typed as FIDE prints it: one round a line, games as white-black."""
    return [
        [(int(white), int(black)) for white, black in re.findall(r"(\d+)-(\d+)", line)]
        for line in text.strip().splitlines()
    ]


FIDE_4 = table("""
    1-4 2-3
    4-3 1-2
    2-4 3-1
""")

FIDE_6 = table("""
    1-6 2-5 3-4
    6-4 5-3 1-2
    2-6 3-1 4-5
    6-5 1-4 2-3
    3-6 4-2 5-1
""")

FIDE_8 = table("""
    1-8 2-7 3-6 4-5
    8-5 6-4 7-3 1-2
    2-8 3-1 4-7 5-6
    8-6 7-5 1-4 2-3
    3-8 4-2 5-1 6-7
    8-7 1-6 2-5 3-4
    4-8 5-3 6-2 7-1
""")

FIDE_10 = table("""
    1-10 2-9 3-8 4-7 5-6
    10-6 7-5 8-4 9-3 1-2
    2-10 3-1 4-9 5-8 6-7
    10-7 8-6 9-5 1-4 2-3
    3-10 4-2 5-1 6-9 7-8
    10-8 9-7 1-6 2-5 3-4
    4-10 5-3 6-2 7-1 8-9
    10-9 1-8 2-7 3-6 4-5
    5-10 6-4 7-3 8-2 9-1
""")

FIDE_12 = table("""
    1-12 2-11 3-10 4-9 5-8 6-7
    12-7 8-6 9-5 10-4 11-3 1-2
    2-12 3-1 4-11 5-10 6-9 7-8
    12-8 9-7 10-6 11-5 1-4 2-3
    3-12 4-2 5-1 6-11 7-10 8-9
    12-9 10-8 11-7 1-6 2-5 3-4
    4-12 5-3 6-2 7-1 8-11 9-10
    12-10 11-9 1-8 2-7 3-6 4-5
    5-12 6-4 7-3 8-2 9-1 10-11
    12-11 1-10 2-9 3-8 4-7 5-6
    6-12 7-5 8-4 9-3 10-2 11-1
""")


@pytest.mark.parametrize(
    ("n", "fide"), [(4, FIDE_4), (6, FIDE_6), (8, FIDE_8), (10, FIDE_10), (12, FIDE_12)]
)
def test_it_reproduces_the_fide_table(n, fide):
    assert berger(n) == fide


@pytest.mark.parametrize(("n", "fide"), [(3, FIDE_4), (5, FIDE_6), (7, FIDE_8), (9, FIDE_10)])
def test_an_odd_count_plays_the_next_table_with_a_bye_against_the_dummy(n, fide):
    expected = [
        [
            (white, None) if black == n + 1 else (black, None) if white == n + 1 else (white, black)
            for white, black in round_
        ]
        for round_ in fide
    ]
    assert berger(n) == expected


def test_two_entrants_play_once():
    assert berger(2) == [[(1, 2)]]
    assert berger(2, double=True) == [[(1, 2)], [(2, 1)]]


def games(rounds):
    return [(a, b) for round_ in rounds for a, b in round_ if b is not None]


@pytest.mark.parametrize("n", range(2, 17))
def test_every_pair_meets_exactly_once(n):
    met = sorted(tuple(sorted(game)) for game in games(berger(n)))
    assert met == list(itertools.combinations(range(1, n + 1), 2))


@pytest.mark.parametrize("n", range(2, 17))
def test_everyone_plays_or_sits_out_once_a_round(n):
    rounds = berger(n)
    assert len(rounds) == (n - 1 if n % 2 == 0 else n)
    for round_ in rounds:
        seated = [entrant for pairing in round_ for entrant in pairing if entrant is not None]
        assert sorted(seated) == list(range(1, n + 1))
        assert sum(1 for _, black in round_ if black is None) == n % 2


def colours(n, rounds):
    """Each entrant's colours round by round: W, B, or - for a bye."""
    sequence = {entrant: "" for entrant in range(1, n + 1)}
    for round_ in rounds:
        for white, black in round_:
            if black is None:
                sequence[white] += "-"
            else:
                sequence[white] += "W"
                sequence[black] += "B"
    return sequence


@pytest.mark.parametrize("n", range(2, 17, 2))
def test_even_tables_balance_colours_as_fide_does(n):
    sequence = colours(n, berger(n))
    # n - 1 games each: one colour once more; half of the field gets the extra White.
    assert all(abs(s.count("W") - s.count("B")) == 1 for s in sequence.values())
    assert sum(s.count("W") > s.count("B") for s in sequence.values()) == n // 2
    # Never the same colour three times running; the fixed entrant n alternates.
    assert not any("WWW" in s or "BBB" in s for s in sequence.values())
    assert sequence[n] == "BW" * (n // 2 - 1) + "B"


@pytest.mark.parametrize("n", range(3, 17, 2))
def test_odd_tables_alternate_colours_around_one_bye_each(n):
    for played in colours(n, berger(n)).values():
        assert played.count("-") == 1
        games_only = played.replace("-", "")
        assert games_only.count("W") == games_only.count("B")
        assert "WW" not in games_only and "BB" not in games_only


@pytest.mark.parametrize("n", range(2, 13))
def test_a_double_round_robin_repeats_the_cycle_with_sides_swapped(n):
    single, double = berger(n), berger(n, double=True)
    assert double[: len(single)] == single
    assert double[len(single) :] == [
        [(black, white) if black is not None else (white, None) for white, black in round_]
        for round_ in single
    ]
    ordered = sorted(games(double))
    assert ordered == sorted(itertools.permutations(range(1, n + 1), 2))


@pytest.mark.parametrize("bad", [1, 0, -4])
def test_it_needs_at_least_two_entrants(bad):
    with pytest.raises(ValueError, match="at least 2 entrants"):
        berger(bad)


@pytest.mark.parametrize("bad", [4.0, "6", True, None])
def test_it_needs_a_whole_number(bad):
    with pytest.raises(ValueError, match="whole number"):
        berger(bad)
