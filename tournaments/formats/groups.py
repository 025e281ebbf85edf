"""Two-stage events: the groups of stage 1 and the seeding of stage 2's bracket. Pure.

Groups (``snake``). Entrants come as seeds 1..n, 1 the strongest (by rating or seed). They are
dealt in pots of one per group: pot 1 is seeds 1..g, pot 2 the next g, and so on. The snake deals
pot 1 to groups A, B, C …, pot 2 back from the last group to A, and so on, so every group gets one
entrant of every full pot and the groups are as strong as the seeds allow. The last pot may be
short; its entrants go to different groups, so group sizes differ by at most one.

Clubs. When entrants have clubs, each pot is dealt so that as few entrants as possible join a
group that already holds someone of their club, and among such deals the one nearest the plain
snake (each entrant's group as close as can be to its snake group); then entrants of one pot
swap groups while that removes a clash, and the plain snake is kept if it clashes less still. A
pot never mixes with
another, so the spread of seeds is kept whatever the clubs: clubs are kept apart when possible
within that rule, never at the cost of a group of only strong or only weak players.

Stage 2 (``cross_seeding``). The top k of each of g groups play a bracket seeded place by place:
group winners take seeds 1..g in group order, runners-up the next g, and so on. Within each place
the qualifiers are placed so that entrants of one group meet as late as the bracket allows, and
among such placements a group winner's first opponent comes from the neighbouring group (A with
B, C with D …): with two groups A1–B2 and B1–A2, with four A1–B2, B1–A2, C1–D2, D1–C2. The seeds
feed ``elimination`` like any other seeds, in its standard order (``bracket_order``).
"""

from __future__ import annotations

from collections.abc import Sequence
from string import ascii_uppercase

from tournaments.formats.elimination import bracket_order

__all__ = [
    "MAX_GROUPS",
    "MIN_GROUP_SIZE",
    "cross_seeding",
    "group_name",
    "snake",
]

#: At most 26 groups (one letter each), at least two entrants in a group.
MAX_GROUPS = len(ascii_uppercase)
MIN_GROUP_SIZE = 2
#: Weight of one club clash against one step away from the snake: a clash always costs more.
_CLASH = 1_000


def group_name(index: int) -> str:
    """The group's letter: 0 -> "A"."""
    return ascii_uppercase[index]


def snake(count: int, groups: int, clubs: Sequence[str] | None = None) -> list[list[int]]:
    """Seeds 1..``count`` dealt into ``groups`` groups by snake, each group's seeds ascending.

    ``clubs[s - 1]`` is the club of seed s ("" for none); entrants of one club are kept apart
    when the pot they are dealt with allows it.
    """
    _check_groups(count, groups)
    if clubs is not None and len(clubs) != count:
        raise ValueError(f"{len(clubs)} clubs given for {count} entrants")
    plain = _snake(count, groups, None)
    if clubs is None or not any(clubs):
        return plain
    dealt = _fewer_clashes_by_swaps(_snake(count, groups, clubs), groups, clubs)
    return dealt if _clashes(dealt, clubs) <= _clashes(plain, clubs) else plain


def _snake(count: int, groups: int, clubs: Sequence[str] | None) -> list[list[int]]:
    """The snake, each pot dealt to the fewest clashes with the pots before it (by ``clubs``)."""
    dealt: list[list[int]] = [[] for _ in range(groups)]
    members: list[dict[str, int]] = [{} for _ in range(groups)]
    for first in range(1, count + 1, groups):
        pot = list(range(first, min(first + groups, count + 1)))
        forward = (first - 1) // groups % 2 == 0
        home = [index if forward else groups - 1 - index for index in range(len(pot))]
        costs = []
        for seed, snake_group in zip(pot, home, strict=True):
            club = clubs[seed - 1] if clubs is not None else ""
            costs.append(
                [
                    (_CLASH * members[group].get(club, 0) if club else 0) + abs(group - snake_group)
                    for group in range(groups)
                ]
            )
        for seed, group in zip(pot, _cheapest_assignment(costs, groups), strict=True):
            dealt[group].append(seed)
            club = clubs[seed - 1] if clubs is not None else ""
            if club:
                members[group][club] = members[group].get(club, 0) + 1
    return [sorted(group) for group in dealt]


def _clashes(dealt: Sequence[Sequence[int]], clubs: Sequence[str]) -> int:
    """How many entrants share their group with an entrant of their club dealt before them."""
    total = 0
    for group in dealt:
        seen: set[str] = set()
        for seed in group:
            club = clubs[seed - 1]
            if club in seen:
                total += 1
            elif club:
                seen.add(club)
    return total


def _fewer_clashes_by_swaps(
    dealt: list[list[int]], groups: int, clubs: Sequence[str]
) -> list[list[int]]:
    """Swap two entrants of one pot between their groups while a swap lowers the clashes: the
    pot-by-pot deal cannot foresee the pots after it."""
    where = {seed: index for index, group in enumerate(dealt) for seed in group}
    count = len(where)
    improved = True
    while improved:
        improved = False
        current = _clashes(dealt, clubs)
        for first in range(1, count + 1, groups):
            pot = range(first, min(first + groups, count + 1))
            for a, b in ((a, b) for a in pot for b in pot if a < b):
                if not clubs[a - 1] and not clubs[b - 1]:
                    continue
                group_a, group_b = where[a], where[b]
                dealt[group_a].remove(a)
                dealt[group_b].remove(b)
                dealt[group_a].append(b)
                dealt[group_b].append(a)
                if _clashes(dealt, clubs) < current:
                    where[a], where[b] = group_b, group_a
                    current = _clashes(dealt, clubs)
                    improved = True
                else:
                    dealt[group_a].remove(b)
                    dealt[group_b].remove(a)
                    dealt[group_a].append(a)
                    dealt[group_b].append(b)
    return [sorted(group) for group in dealt]


def cross_seeding(groups: int, qualifiers: int) -> list[tuple[int, int]]:
    """The bracket seeds of the top ``qualifiers`` of each of ``groups`` groups: item s - 1 is
    ``(group index, place)`` of seed s, place 1 the group winner."""
    if groups < 1 or qualifiers < 1 or groups * qualifiers < 2:
        raise ValueError(f"a bracket needs two qualifiers: {groups} groups × {qualifiers}")
    total = groups * qualifiers
    size = 1 << (total - 1).bit_length()
    position = {seed: index for index, seed in enumerate(bracket_order(size))}
    seeds: list[tuple[int, int]] = [(group, 1) for group in range(groups)]
    for place in range(2, qualifiers + 1):
        first = (place - 1) * groups + 1
        placed_by_group: dict[int, list[int]] = {}
        for seed, (group, _) in enumerate(seeds, start=1):
            placed_by_group.setdefault(group, []).append(seed)
        costs = []
        for group in range(groups):
            row = []
            for offset in range(groups):
                seed = first + offset
                row.append(
                    _meeting_cost(seed, placed_by_group.get(group, []), position, size)
                    + _neighbour_cost(seed, group, groups, size, seeds)
                )
            costs.append(row)
        assignment = _cheapest_assignment(costs, groups)  # group -> offset
        by_offset = {offset: group for group, offset in enumerate(assignment)}
        seeds.extend((by_offset[offset], place) for offset in range(groups))
    return seeds


# --- Inside ------------------------------------------------------------------------------------


def _check_groups(count: int, groups: int) -> None:
    if not 1 <= groups <= MAX_GROUPS:
        raise ValueError(f"between 1 and {MAX_GROUPS} groups, not {groups}")
    if count < groups * MIN_GROUP_SIZE:
        raise ValueError(
            f"{count} entrants cannot make {groups} groups of at least {MIN_GROUP_SIZE}"
        )


def _meeting_cost(seed: int, mates: Sequence[int], position: dict[int, int], size: int) -> int:
    """How early ``seed`` would meet the seeds of its own group: meeting in round r of a bracket
    of R rounds costs 8^(R - r) for each mate, so one earlier meeting outweighs any later ones."""
    rounds = size.bit_length() - 1
    cost = 0
    for mate in mates:
        meets = (position[seed] ^ position[mate]).bit_length()
        cost += 8 ** (rounds - meets) * _CLASH
    return cost


def _neighbour_cost(
    seed: int, group: int, groups: int, size: int, seeds: Sequence[tuple[int, int]]
) -> int:
    """1 when the round-1 opponent of ``seed`` is a group winner of another group than the
    neighbour (A with B, C with D …); the tie-break that gives the usual A1–B2, B1–A2."""
    opponent = size + 1 - seed
    if opponent > len(seeds):
        return 0
    opponent_group, opponent_place = seeds[opponent - 1]
    if opponent_place != 1:
        return 0
    neighbour = group ^ 1 if group ^ 1 < groups else group
    return 0 if opponent_group == neighbour else 1


def _cheapest_assignment(costs: Sequence[Sequence[int]], slots: int) -> list[int]:
    """The slot of each row (distinct slots) with the lowest total cost; ties go to the first
    found in row order, lowest slot first. Exact, by dynamic programming over sets of used slots
    (rows and slots are at most a pot's size)."""
    rows = len(costs)
    best: dict[int, tuple[int, tuple[int, ...]]] = {0: (0, ())}
    for row in range(rows):
        following: dict[int, tuple[int, tuple[int, ...]]] = {}
        for used, (total, chosen) in best.items():
            for slot in range(slots):
                if used & (1 << slot):
                    continue
                key = used | (1 << slot)
                candidate = (total + costs[row][slot], (*chosen, slot))
                if key not in following or candidate < following[key]:
                    following[key] = candidate
        best = following
    _, chosen = min(best.values())
    return list(chosen)
