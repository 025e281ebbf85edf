"""Groups by snake (with clubs kept apart) and the cross-seeding of stage 2: every size from 3 to
64 entrants and every count of 2 to 8 groups, checked for the properties the format promises."""

import itertools
import random
from collections import Counter

import pytest

from tournaments.formats.elimination import bracket_order
from tournaments.formats.groups import cross_seeding, group_name, snake

SIZES = [(count, groups) for count in range(3, 65) for groups in range(2, 9) if count >= 2 * groups]


def pots(count: int, groups: int) -> list[list[int]]:
    return [
        list(range(first, min(first + groups, count + 1))) for first in range(1, count + 1, groups)
    ]


def clashes(dealt: list[list[int]], clubs: list[str]) -> int:
    """Entrants who share their group with an earlier entrant of their club."""
    total = 0
    for group in dealt:
        counts = Counter(clubs[seed - 1] for seed in group if clubs[seed - 1])
        total += sum(count - 1 for count in counts.values())
    return total


def check_partition(dealt: list[list[int]], count: int, groups: int) -> None:
    assert len(dealt) == groups
    assert sorted(seed for group in dealt for seed in group) == list(range(1, count + 1))
    sizes = [len(group) for group in dealt]
    assert max(sizes) - min(sizes) <= 1
    assert min(sizes) >= 2
    for group in dealt:
        assert group == sorted(group)
    where = {seed: index for index, group in enumerate(dealt) for seed in group}
    for pot in pots(count, groups):  # seeds are spread: a pot never puts two in one group
        assert len({where[seed] for seed in pot}) == len(pot)


@pytest.mark.parametrize(("count", "groups"), SIZES)
def test_snake_partitions_evenly_and_spreads_the_seeds(count, groups):
    dealt = snake(count, groups)
    check_partition(dealt, count, groups)
    # The plain snake: A gets 1, the last group g, the last group g + 1 again, A 2g, A 2g + 1 …
    assert dealt[0][0] == 1 and dealt[-1][0] == groups
    if count >= 2 * groups:
        assert groups + 1 in dealt[-1] and 2 * groups in dealt[0]


@pytest.mark.parametrize(("count", "groups"), SIZES)
def test_snake_with_clubs_keeps_the_spread_and_never_clashes_more(count, groups):
    rng = random.Random(count * 100 + groups)
    clubs = [rng.choice(["", "Riga", "Baku", "Kazan"]) for _ in range(count)]
    dealt = snake(count, groups, clubs)
    check_partition(dealt, count, groups)
    assert clashes(dealt, clubs) <= clashes(snake(count, groups), clubs)


@pytest.mark.parametrize(("count", "groups"), SIZES)
def test_a_club_with_no_more_players_than_groups_is_kept_apart(count, groups):
    rng = random.Random(count * 7 + groups)
    members = rng.sample(range(count), groups)  # the hardest: as many as there are groups
    clubs = ["Riga" if index in members else "" for index in range(count)]
    dealt = snake(count, groups, clubs)
    check_partition(dealt, count, groups)
    assert clashes(dealt, clubs) == 0


def test_clubs_move_an_entrant_within_its_pot_only_as_far_as_needed():
    # Seeds 1 and 6 share a club: the plain snake puts 6 with 1 in A; 6 moves one group, to B,
    # and 5 takes its place in A (two steps in all; 4 staying in C).
    assert snake(6, 3) == [[1, 6], [2, 5], [3, 4]]
    assert snake(6, 3, ["Riga", "", "", "", "", "Riga"]) == [[1, 5], [2, 6], [3, 4]]
    assert snake(6, 3, ["Riga", "", "Riga", "", "", ""]) == snake(6, 3)  # already apart
    assert snake(4, 2, ["Riga", "", "", "Riga"]) == [[1, 3], [2, 4]]


def test_too_many_groups_or_a_club_list_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="cannot make 3 groups"):
        snake(5, 3)
    with pytest.raises(ValueError, match="between 1 and 26 groups"):
        snake(100, 27)
    with pytest.raises(ValueError, match="3 clubs given for 4"):
        snake(4, 2, ["", "", ""])


def meeting_round(a: int, b: int, size: int) -> int:
    order = bracket_order(size)
    return (order.index(a) ^ order.index(b)).bit_length()


CROSS = [
    (groups, qualifiers)
    for groups in range(1, 9)
    for qualifiers in range(1, 9)
    if 2 <= groups * qualifiers <= 64
]


@pytest.mark.parametrize(("groups", "qualifiers"), CROSS)
def test_cross_seeding_seeds_place_by_place_and_keeps_group_mates_apart(groups, qualifiers):
    seeds = cross_seeding(groups, qualifiers)
    total = groups * qualifiers
    assert sorted(seeds) == sorted(itertools.product(range(groups), range(1, qualifiers + 1)))
    for seed, (_, place) in enumerate(seeds, start=1):  # places by blocks of seeds
        assert place == (seed - 1) // groups + 1
    assert seeds[:groups] == [(group, 1) for group in range(groups)]
    size = 1 << (total - 1).bit_length()
    rounds = size.bit_length() - 1
    by_group: dict[int, list[int]] = {}
    for seed, (group, _) in enumerate(seeds, start=1):
        by_group.setdefault(group, []).append(seed)
    for mates in by_group.values():
        earliest = min(
            (meeting_round(a, b, size) for a, b in itertools.combinations(mates, 2)),
            default=rounds,
        )
        # A group's k entrants can be kept apart until only k lines are left of the bracket.
        best_possible = rounds - (len(mates) - 1).bit_length() + 1
        if groups >= 2 and len(mates) >= 2:
            assert earliest >= best_possible, (mates, earliest, best_possible)


def test_two_and_four_groups_cross_as_a1_b2_and_b1_a2():
    def named(groups: int, qualifiers: int) -> list[str]:
        return [f"{group_name(g)}{p}" for g, p in cross_seeding(groups, qualifiers)]

    def first_round(groups: int) -> set[tuple[str, str]]:
        seeds = named(groups, 2)
        size = len(seeds)
        return {(seeds[s - 1], seeds[size - s]) for s in range(1, size // 2 + 1)}

    assert first_round(2) == {("A1", "B2"), ("B1", "A2")}
    assert first_round(4) == {("A1", "B2"), ("B1", "A2"), ("C1", "D2"), ("D1", "C2")}
    assert first_round(8) >= {("A1", "B2"), ("B1", "A2"), ("G1", "H2"), ("H1", "G2")}


def test_one_group_seeds_by_place_and_a_lone_qualifier_is_refused():
    assert cross_seeding(1, 4) == [(0, 1), (0, 2), (0, 3), (0, 4)]
    with pytest.raises(ValueError, match="two qualifiers"):
        cross_seeding(1, 1)
