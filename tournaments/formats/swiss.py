"""Swiss pairing: who meets whom in the next round, from scores and the games already played.

The rules, most important first:

1. No rematch. Two entrants who have met (either one lists the other in ``opponents``) are never
   paired again. When every possible pairing repeats a game, ``pair`` raises ``NoPairingError``
   rather than choose one: the organizer decides what happens then.
2. The bye. With an odd number of entrants one sits out: the lowest-ranked entrant who has not had
   a bye yet, unless that leaves the others impossible to pair without a rematch, in which case
   the next one up. Only when nobody without a bye can take it does it go to someone who had one
   (again the lowest-ranked that works).
3. Equal scores meet. Entrants are ranked by score, then rating, then id (all descending but the
   id), and fall into score groups. Going down from the top group, as few entrants as possible
   float down to a lower group: first the fewest floaters out of the top group, then, among the
   pairings that achieve that, the fewest out of the top two groups together, and so on. An
   entrant who floats two groups counts at both boundaries.
4. Within a group, the Dutch idea: the top half meets the bottom half in rating order (1 v n/2+1,
   2 v n/2+2, ...), floaters from above meet the best of the group they have not played, and when
   the group is odd its lowest entrant floats down (the lowest whose floating leaves the rest of
   the round pairable). When a rematch blocks that, the next arrangement in FIDE's order of
   transpositions is taken, then any arrangement. Among pairings equally good by rule 3 the
   Dutch one is preferred but not guaranteed: see below.

How. The Dutch method pairs group by group from the top and is fast. Its answer is then checked:
at every group boundary at least the odd one out must float, and at least as many as the smaller
side cannot pair among themselves (a maximum matching of that side tells). When the Dutch
pairing meets that bound at every boundary, no pairing floats fewer and it stands; that is the
rule in practice. Otherwise (late rounds, where small groups have played each other) a
maximum-weight perfect matching of the allowed games decides, by Edmonds' blossom algorithm
(written out below): a game is worth one digit per group boundary it stays above, the top
boundary's digit the largest, so that the heaviest matching floats the fewest at the top
boundary first, and so on down. It starts from the Dutch same-group pairs and keeps what it can,
but breaks ties its own way. The matching is complete: it finds a pairing without a rematch
whenever one exists, and proves it when none does.

Scale. Nothing recurses once per entrant: the searches keep their choices on a list, so a score
group of ten thousand is paired like one of ten. The exact method does not match the whole
field: a proof (``_Reduction``) shows that only a few dozen entrants of each score group can
take part in floating, so large groups keep that many and the rest keep their Dutch pairs. In
fields of thousands late in a tournament even that part can pass ``_EXACT_LIMIT`` entrants;
then each group first keeps fewer, widening while no pairing is found, which still gives a
pairing without a rematch whenever one exists (see ``_fewest_floaters``).

Each pairing is (higher-ranked, lower-ranked), in rank order of the first entrant; the bye comes
last as ``(id, None)``. The result depends only on the entrants, not on their order in the input.

>>> pair([SwissEntrant("ann", 1.0, 1800), SwissEntrant("bob", 1.0, 1700),
...       SwissEntrant("cat", 0.0, 1600, frozenset({"dan"})), SwissEntrant("dan", 0.0, 1500,
...       frozenset({"cat"}))])
[('ann', 'cat'), ('bob', 'dan')]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeAlias, TypeVar

Id = TypeVar("Id", bound=Hashable)


@dataclass(frozen=True)
class SwissEntrant(Generic[Id]):
    """One entrant as the pairing sees it: standing so far and who they have played."""

    id: Id
    score: float
    rating: int
    opponents: frozenset[Id] = frozenset()
    had_bye: bool = False


class NoPairingError(ValueError):
    """Every possible pairing of the entrants repeats a game already played."""


#: The most lost matches a Swiss "out after N lost matches" may allow (the federation's cups: 3).
MAX_OUT_AFTER_LOSSES = 20


def eliminated(losses: Mapping[Id, int], out_after_losses: int | None) -> frozenset[Id]:
    """The entrants out of a Swiss played "out after N lost matches": paired no more, and kept in
    the standings with their score. None are out when the Swiss has no such limit."""
    if out_after_losses is None:
        return frozenset()
    return frozenset(entrant for entrant, lost in losses.items() if lost >= out_after_losses)


def pair(entrants: Sequence[SwissEntrant[Id]]) -> list[tuple[Id, Id | None]]:
    """The next round's pairings: no rematch, the bye to the lowest-ranked without one, and the
    fewest floaters between score groups (the module docstring has the exact rules).

    Raises ``NoPairingError`` when every pairing repeats a game, ``ValueError`` when an id
    appears twice.
    """
    ranked = sorted(entrants, key=_rank_key)
    ids = [entrant.id for entrant in ranked]
    twice = sorted(repr(entrant_id) for entrant_id, count in Counter(ids).items() if count > 1)
    if twice:
        raise ValueError(f"Each entrant appears once; these ids appear twice: {', '.join(twice)}.")
    field = _Field.of(ranked)
    everyone = list(range(len(ranked)))
    if len(everyone) % 2 == 0:
        pairs = _pair_players(everyone, field)
        if pairs is None:
            raise NoPairingError(
                f"No pairing without a rematch exists: every way to pair these {len(everyone)} "
                "entrants repeats a game already played."
            )
        return _as_ids(ranked, pairs, bye=None)
    for bye in _bye_order(ranked):
        pairs = _pair_players([player for player in everyone if player != bye], field)
        if pairs is not None:
            return _as_ids(ranked, pairs, bye=bye)
    raise NoPairingError(
        f"No pairing without a rematch exists: whoever of these {len(everyone)} entrants has the "
        "bye, every way to pair the others repeats a game already played."
    )


# --- Ranking and the field ----------------------------------------------------------------------


def _rank_key(entrant: SwissEntrant[Id]) -> tuple[float, int, tuple[int, int, str]]:
    return (-entrant.score, -entrant.rating, _id_order(entrant.id))


def _id_order(entrant_id: Hashable) -> tuple[int, int, str]:
    """A total order on ids, so that equal score and rating still rank the same way every time:
    numbers by value, then strings, then anything else by its repr."""
    if isinstance(entrant_id, int):
        return (0, entrant_id, "")
    if isinstance(entrant_id, str):
        return (1, 0, entrant_id)
    return (2, 0, repr(entrant_id))


@dataclass(frozen=True)
class _Field:
    """The entrants as numbers 0..n-1 in rank order: each one's score group (0 is the top) and
    the numbers of those they may not meet again."""

    group: list[int]
    met: list[frozenset[int]]

    @classmethod
    def of(cls, ranked: Sequence[SwissEntrant[Id]]) -> _Field:
        number = {entrant.id: index for index, entrant in enumerate(ranked)}
        met: list[set[int]] = [set() for _ in ranked]
        for index, entrant in enumerate(ranked):
            for opponent in entrant.opponents:
                other = number.get(opponent)
                if other is not None and other != index:  # gone from the field, or oneself
                    met[index].add(other)
                    met[other].add(index)
        group: list[int] = []
        for index, entrant in enumerate(ranked):
            if index == 0:
                group.append(0)
            elif entrant.score == ranked[index - 1].score:
                group.append(group[-1])
            else:
                group.append(group[-1] + 1)
        return cls(group=group, met=[frozenset(opponents) for opponents in met])


def _bye_order(ranked: Sequence[SwissEntrant[Id]]) -> list[int]:
    """Who takes the bye, first choice first: lowest rank first, those without a bye before
    those who had one."""
    lowest_first = range(len(ranked) - 1, -1, -1)
    return [i for i in lowest_first if not ranked[i].had_bye] + [
        i for i in lowest_first if ranked[i].had_bye
    ]


def _as_ids(
    ranked: Sequence[SwissEntrant[Id]], pairs: list[tuple[int, int]], bye: int | None
) -> list[tuple[Id, Id | None]]:
    boards = sorted((min(a, b), max(a, b)) for a, b in pairs)
    result: list[tuple[Id, Id | None]] = [(ranked[a].id, ranked[b].id) for a, b in boards]
    if bye is not None:
        result.append((ranked[bye].id, None))
    return result


def _pair_players(players: list[int], field: _Field) -> list[tuple[int, int]] | None:
    """Pair ``players`` (an even number, in rank order) by the rules, or None if every pairing
    has a rematch. The Dutch method's answer stands when no pairing floats fewer at any group
    boundary; otherwise the exact matching decides, starting from the Dutch same-group pairs."""
    dutch_pairs, finished = _dutch(players, field)
    if finished and _floats_fewest(players, field, dutch_pairs):
        return dutch_pairs
    start = [(a, b) for a, b in dutch_pairs if field.group[a] == field.group[b]]
    return _fewest_floaters(players, field, start)


# --- The Dutch method, group by group -----------------------------------------------------------

# How many candidate partners the searches in one bracket may try in all before they give up and
# leave the round to the exact matching. A search that succeeds needs about one try per entrant.
_SEARCH_BUDGET = 50_000


class _BudgetSpent(Exception):
    pass


class _Budget:
    def __init__(self, tries: int) -> None:
        self.tries = tries

    def spend(self) -> None:
        self.tries -= 1
        if self.tries < 0:
            raise _BudgetSpent


_Pairs: TypeAlias = list[tuple[int, int]]
_Bracket: TypeAlias = tuple[_Pairs, list[int]]  # the pairs, and who floats down


class _Completion:
    """Whether a bracket's floaters and everyone below can still all be paired without a rematch,
    remembered per set of floaters (FIDE's completion criterion: a bracket never makes the rest
    of the round impossible to pair)."""

    def __init__(self, below: list[int], met: list[frozenset[int]]) -> None:
        self.below = below
        self.met = met
        self.known: dict[tuple[int, ...], bool] = {}

    def __call__(self, floaters: Sequence[int]) -> bool:
        key = tuple(sorted(floaters))
        if key not in self.known:
            self.known[key] = _can_pair_all([*key, *self.below], self.met)
        return self.known[key]


def _dutch(players: list[int], field: _Field) -> tuple[_Pairs, bool]:
    """Pair score group by score group from the top, the floaters of each joining the next.
    Each bracket floats as few as it can (without making the rest unpairable), Dutch style where
    it can. Returns the pairs and whether every bracket was paired. A bracket whose searches give
    up is left unpaired and the brackets below go on without its entrants: their pairs are still
    the start the exact method repairs around."""
    brackets: list[list[int]] = []
    for player in players:
        if brackets and field.group[brackets[-1][0]] == field.group[player]:
            brackets[-1].append(player)
        else:
            brackets.append([player])
    pairs: _Pairs = []
    floaters: list[int] = []
    finished = True
    for number, residents in enumerate(brackets):
        below = [player for bracket in brackets[number + 1 :] for player in bracket]
        bracket = _pair_bracket(floaters, residents, field.met, _Completion(below, field.met))
        if bracket is None:
            finished = False
            bracket = [], []
        pairs += bracket[0]
        floaters = bracket[1]
    return pairs, finished


def _pair_bracket(
    floaters: list[int], residents: list[int], met: list[frozenset[int]], completes: _Completion
) -> _Bracket | None:
    """The bracket paired with the fewest entrants floating down; the Dutch search first, then
    any arrangement. None if the searches give up."""
    size = len(floaters) + len(residents)
    budget = _Budget(_SEARCH_BUDGET)
    try:
        for spare in range(size % 2, size + 1, 2):
            searches = [_dutch_bracket, _any_bracket] if spare == size % 2 else [_any_bracket]
            for search in searches:
                found = search(floaters, residents, met, spare, completes, budget)
                if found is not None:
                    return found
    except _BudgetSpent:
        pass
    return None


def _dutch_bracket(
    floaters: list[int],
    residents: list[int],
    met: list[frozenset[int]],
    spare: int,
    completes: _Completion,
    budget: _Budget,
) -> _Bracket | None:
    """FIDE's Dutch arrangement: with an odd bracket the lowest entrant who can float does (a
    resident before a floater from above); floaters from above meet the highest residents they
    may; the other residents pair top half against bottom half."""
    if spare == 0:
        return _floaters_then_halves(floaters, residents, met, budget) if completes([]) else None
    for candidate in [*reversed(residents), *reversed(floaters)]:
        if not completes([candidate]):
            continue
        found = _floaters_then_halves(
            [player for player in floaters if player != candidate],
            [player for player in residents if player != candidate],
            met,
            budget,
        )
        if found is not None:
            return found[0], [candidate]
    return None


def _floaters_then_halves(
    floaters: list[int], residents: list[int], met: list[frozenset[int]], budget: _Budget
) -> _Bracket | None:
    """Floaters from above meet, in turn, the highest residents they may; the other residents
    pair by halves. A later floater that finds no one, or halves that cannot pair, send the search
    back to the previous floater's next choice. (A loop with a stack of choices, not recursion,
    so that a bracket of any size never runs out of Python's stack.)"""
    taken = [False] * len(residents)
    chosen: list[int] = []  # the resident index each placed floater meets
    start = 0  # where the current floater's search resumes
    while True:
        found = -1
        if len(chosen) == len(floaters):
            rest = [resident for index, resident in enumerate(residents) if not taken[index]]
            halves = _halves(rest, met, budget)
            if halves is not None:
                placed = zip(floaters, (residents[index] for index in chosen), strict=True)
                return [*placed, *halves[0]], []
        else:
            opponents = met[floaters[len(chosen)]]
            for index in range(start, len(residents)):
                if not taken[index]:
                    budget.spend()
                    if residents[index] not in opponents:
                        found = index
                        break
        if found >= 0:
            taken[found] = True
            chosen.append(found)
            start = 0
        elif chosen:
            last = chosen.pop()
            taken[last] = False
            start = last + 1
        else:
            return None


def _halves(players: list[int], met: list[frozenset[int]], budget: _Budget) -> _Bracket | None:
    """An even group, top half against bottom half: the first of the top half meets the first
    of the bottom half it may, and so on, backtracking through the orders of the bottom half
    (FIDE's transpositions). A loop with a stack of choices: a group of thousands is no deeper
    for it."""
    top, bottom = players[: len(players) // 2], players[len(players) // 2 :]
    taken = [False] * len(bottom)
    chosen: list[int] = []  # the bottom index each placed top entrant meets
    start = 0  # where the current top entrant's search resumes
    first_free = 0  # no bottom index below it is free: the search skips the taken prefix
    while len(chosen) < len(top):
        opponents = met[top[len(chosen)]]
        while first_free < len(bottom) and taken[first_free]:
            first_free += 1
        found = -1
        for index in range(max(start, first_free), len(bottom)):
            if taken[index]:
                continue
            budget.spend()
            if bottom[index] not in opponents:
                found = index
                break
        if found >= 0:
            taken[found] = True
            chosen.append(found)
            start = 0
            continue
        if not chosen:
            return None
        last = chosen.pop()
        taken[last] = False
        first_free = min(first_free, last)
        start = last + 1
    return [(top[position], bottom[index]) for position, index in enumerate(chosen)], []


def _any_bracket(
    floaters: list[int],
    residents: list[int],
    met: list[frozenset[int]],
    spare: int,
    completes: _Completion,
    budget: _Budget,
) -> _Bracket | None:
    """Any arrangement of the bracket with ``spare`` entrants floating: each entrant in turn
    meets the first free one from half a bracket below, then those above that; floating is tried
    last, so those who float are as low as possible. A loop over a stack of choices (each the
    entrant's position, how many of its partners were tried, and whether it floated)."""
    players = floaters + residents
    size, half = len(players), len(players) // 2
    busy = [False] * size
    pairs: _Pairs = []
    spares: list[int] = []
    stack: list[list[int]] = []  # [position, partners tried, partner index or -1 (floats), -2]

    def partner(position: int, tried: int) -> int:
        """The ``tried``-th partner in order: half a bracket below first, then those above it."""
        ideal = min(position + half, size)
        return ideal + tried if tried < size - ideal else position + 1 + tried - (size - ideal)

    def first_free(position: int) -> int:
        while position < size and busy[position]:
            position += 1
        return position

    position = first_free(0)
    while True:
        if position == size:
            if len(spares) == spare and completes(spares):
                return pairs, spares
        else:
            busy[position] = True
            stack.append([position, 0, -2])
        while stack:  # the newest choice moves on to its next option, or is taken back
            frame = stack[-1]
            at, tried, previous = frame
            if previous >= 0:
                busy[previous] = False
                pairs.pop()
            elif previous == -1:
                spares.pop()
                busy[at] = False
                stack.pop()
                continue
            options = size - at - 1
            while tried < options:
                index = partner(at, tried)
                tried += 1
                if busy[index]:
                    continue
                budget.spend()
                if players[index] not in met[players[at]]:
                    busy[index] = True
                    pairs.append((players[at], players[index]))
                    frame[1], frame[2] = tried, index
                    break
            else:
                if len(spares) < spare:
                    budget.spend()
                    spares.append(players[at])
                    frame[1], frame[2] = tried, -1
                else:
                    busy[at] = False
                    stack.pop()
                    continue
            position = first_free(at + 1)
            break
        else:
            return None


def _floats_fewest(players: list[int], field: _Field, pairs: _Pairs) -> bool:
    """Whether no pairing of ``players`` floats fewer entrants across any group boundary than
    ``pairs`` does. Across each boundary at least the odd one must float, and at least as many
    as the smaller side cannot pair among themselves; meeting that bound at every boundary
    proves the pairing best in the order of the rules."""
    groups = sorted({field.group[player] for player in players})
    for boundary in groups[:-1]:
        above = [player for player in players if field.group[player] <= boundary]
        below = [player for player in players if field.group[player] > boundary]
        crossing = sum(
            1 for a, b in pairs if (field.group[a] <= boundary) != (field.group[b] <= boundary)
        )
        if crossing == len(above) % 2:
            continue
        side = above if len(above) <= len(below) else below
        members = set(side)
        inside = [(a, b) for a, b in pairs if a in members and b in members]
        if crossing > len(side) - 2 * len(_maximum_matching(side, field.met, inside)):
            return False
    return True


def _can_pair_all(players: list[int], met: list[frozenset[int]]) -> bool:
    """Whether ``players`` can all be paired without a rematch. Quick when each has met fewer
    than half of the others: then (Dirac) the allowed games contain a cycle through everyone."""
    if len(players) % 2 == 1:
        return False
    members = set(players)
    if all(len(met[player] & members) < len(players) // 2 for player in players):
        return True
    return 2 * len(_maximum_matching(players, met, [])) == len(players)


def _maximum_matching(players: list[int], met: list[frozenset[int]], start: _Pairs) -> _Pairs:
    """As many pairs of ``players`` as possible without a rematch, grown from ``start``."""
    position = {player: index for index, player in enumerate(players)}
    neighbours = [
        [position[other] for other in players if other != player and other not in met[player]]
        for player in players
    ]
    mates = [-1] * len(players)
    for a, b in start:
        mates[position[a]], mates[position[b]] = position[b], position[a]
    # Every weight and dual zero: every allowed game is tight, and the blossom algorithm is
    # Edmonds' maximum matching.
    graph = _Graph(neighbours=neighbours, kind=[0] * len(players), kind_weight=[[0]])
    matched = _Matcher(graph, [0] * len(players), mates).solve()
    return [(players[u], players[v]) for u, v in enumerate(matched) if u < v]


# --- The exact method: a maximum-weight perfect matching ----------------------------------------


def _fewest_floaters(
    players: list[int], field: _Field, start: list[tuple[int, int]]
) -> list[tuple[int, int]] | None:
    """The pairing without a rematch that floats the fewest entrants at the top group boundary,
    then at the next, and so on; None if there is no pairing without a rematch.

    A large field is first cut down to the part where the answer is decided (``_Reduction``),
    with no change to the answer. When even that part is larger than ``_EXACT_LIMIT`` entrants
    (fields of thousands in late rounds), each group first keeps only ``_BOUNDED_KEEP`` of its
    entrants, twice as many while that finds no pairing, up to the part the proof needs: the
    answer is then always a pairing without a rematch, the fewest floaters among those that keep
    the Dutch pairs set aside (on the benchmark's fields, the same counts), and None still means
    that no pairing exists.
    """
    exact = _Reduction.of(players, field, start)
    keep = _BOUNDED_KEEP
    while len(exact.core) > _EXACT_LIMIT and keep < exact.keep:
        found = _heaviest_pairing(_Reduction.of(players, field, start, keep=keep), field)
        if found is not None:
            return found
        keep *= 2
    return _heaviest_pairing(exact, field)


#: The exact method's part of the field is cut further above this many entrants...
_EXACT_LIMIT = 500
#: ... to this many entrants of each group at first.
_BOUNDED_KEEP = 24


def _heaviest_pairing(reduction: _Reduction, field: _Field) -> _Pairs | None:
    """The heaviest perfect matching of the reduction's core, with the pairs it set aside.

    With the groups present numbered 0..last from the top, boundary b (below group b) has the
    digit base**(last - 1 - b), the base exceeding the number of pairs, and a game is worth the
    digits of every boundary it stays above. So one game more kept above a boundary outweighs any
    number of games kept above the boundaries below it, and the heaviest perfect matching is the
    pairing the rules ask for. The start pairs are same-group pairs: they are tight already, so
    the search only repairs around them.
    """
    core = reduction.core
    position = {player: index for index, player in enumerate(core)}
    groups = sorted({field.group[player] for player in core})
    local_group = {group: index for index, group in enumerate(groups)}
    group = [local_group[field.group[player]] for player in core]
    base = len(core) // 2 + 1
    last = len(groups) - 1
    # worth[g]: a game whose lower entrant is in group g stays above boundaries g..last-1 and is
    # worth their digits, doubled so that every dual below is even (the matching needs one parity).
    worth = [
        2 * sum(base ** (last - 1 - boundary) for boundary in range(g, last))
        for g in range(last + 1)
    ]
    # The core is in rank order, so each group's entrants are a run of positions: an entrant's
    # possible partners are the positions from its own group's first to the last of the lowest
    # group it may reach.
    first_of: dict[int, int] = {}
    end_of: dict[int, int] = {}
    for index, player in enumerate(core):
        first_of.setdefault(field.group[player], index)
        end_of[field.group[player]] = index + 1
    reach = reduction.reach
    neighbours = []
    for u, player in enumerate(core):
        opponents = field.met[player]
        lowest = end_of[reach[field.group[player]]]
        highest = min(first_of[g] for g in first_of if reach[g] >= field.group[player])
        neighbours.append(
            [v for v in range(highest, lowest) if v != u and core[v] not in opponents]
        )
    graph = _Graph(
        neighbours=neighbours,
        kind=group,
        kind_weight=[[worth[max(g, h)] for h in range(last + 1)] for g in range(last + 1)],
    )
    # Each entrant's (doubled) dual is the worth of its own group: no game is worth more than the
    # two duals together, and a game inside a group exactly that (it is tight).
    duals = [worth[group[u]] for u in range(len(core))]
    mates = [-1] * len(core)
    for a, b in reduction.start:
        mates[position[a]], mates[position[b]] = position[b], position[a]
    matched = _max_weight_perfect_matching(graph, duals, mates)
    if matched is None:
        return None
    return [*reduction.aside, *((core[u], core[v]) for u, v in enumerate(matched) if u < v)]


@dataclass(frozen=True)
class _Reduction:
    """A field cut down for the exact method, with no change to its answer.

    Let r be the most games any entrant has played against the others. (1) In a best pairing,
    no boundary is crossed by more than 2r + 1 games: were games (a1, d1) and (a2, d2) to cross
    it, a above and d below, with a1-a2 and d1-d2 both allowed, playing those instead would float
    fewer at that boundary and no more at any other; each crossing game rules out at most 2r
    others that way. So at most t = 4r + 2 entrants of a group meet someone outside it.
    (2) A group of more than 6r + 4 entrants therefore keeps a core of 6r + 4 (or one more, for
    parity), and its other entrants are set aside in allowed pairs of their own group (Dutch
    pairs from ``start``). Any best pairing maps onto the core: each game that leaves the group
    takes a core entrant not yet used and not met by the partner (more than r remain each time),
    and the t or fewer used leave at least 2r + 2 others, each of whom has met at most r of them,
    who can all be paired among themselves (Dirac). Games inside a group are all worth the same,
    so the pairing found is as good. (3) Among best pairings take one whose games span the fewest
    groups (the sum of squared spans): no game skips over a group that has more than 2r games
    inside it, for one of those games (u, w) could split the long game (x, y) into (x, u) and
    (w, y), floating exactly as many at every boundary. A group of at least 8r + 4 has more
    than 2r games inside (at most 4r + 2 of its entrants leave), so no game needs to skip one:
    ``reach`` gives for each group the lowest group its games may reach."""

    core: list[int]  # in rank order
    start: _Pairs  # the pairs of ``start`` still in the core
    aside: _Pairs
    reach: dict[int, int]  # group -> the lowest group (largest number) a game from it may reach
    keep: int  # the entrants each group keeps (all, if it has no more)

    @classmethod
    def of(
        cls, players: list[int], field: _Field, start: _Pairs, keep: int | None = None
    ) -> _Reduction:
        """The reduction the proof allows, or with each group keeping only ``keep`` (fewer than
        the proof needs: the answer may float more, but it is still a pairing)."""
        members = set(players)
        played = max((len(field.met[player] & members) for player in players), default=0)
        proven, large = 6 * played + 4, 8 * played + 4
        keep = proven if keep is None else min(keep, proven)
        sizes = Counter(field.group[player] for player in players)
        starting: dict[int, _Pairs] = {}
        for pair in sorted(start):
            starting.setdefault(field.group[pair[0]], []).append(pair)
        aside: _Pairs = []
        for group, size in sizes.items():
            pairs = starting.get(group, [])
            unpaired = size - 2 * len(pairs)
            kept = max(0, -(-(keep - unpaired) // 2))  # pairs to keep in the core, rounded up
            if kept < len(pairs):  # keep the first and the last pairs, set aside the middle
                aside += pairs[(kept + 1) // 2 : len(pairs) - kept // 2]
        set_aside = {player for pair in aside for player in pair}
        groups = sorted(sizes)
        reach: dict[int, int] = {}
        for index, group in enumerate(groups):
            later = groups[index + 1 :]
            reach[group] = next((g for g in later if sizes[g] >= large), groups[-1])
        return cls(
            core=[player for player in players if player not in set_aside],
            start=[pair for pair in start if pair[0] not in set_aside],
            aside=aside,
            reach=reach,
            keep=keep,
        )


_Node: TypeAlias = "int | _Blossom"
_Edge: TypeAlias = tuple[int, int]

_S = 1  # outer: an even distance from an exposed vertex in the alternating forest
_T = 2  # inner: an odd distance
_MARK = 4  # on S blossoms while looking for a common ancestor


class _Blossom:
    """An odd cycle of sub-blossoms shrunk to one node. children[0] holds the base (the one
    vertex not matched inside); edges[i] joins children[i] and children[i + 1] (cyclically) as
    (vertex in children[i], vertex in children[i + 1]); the odd-numbered edges are matched."""

    __slots__ = ("children", "edges")

    def __init__(self, children: list[_Node], edges: list[_Edge]) -> None:
        self.children = children
        self.edges = edges

    def leaves(self) -> list[int]:
        found: list[int] = []
        stack: list[_Node] = [self]
        while stack:
            node = stack.pop()
            if isinstance(node, _Blossom):
                stack.extend(node.children)
            else:
                found.append(node)
        return found


def _leaves(node: _Node) -> list[int]:
    return node.leaves() if isinstance(node, _Blossom) else [node]


@dataclass(frozen=True)
class _Graph:
    """A graph for the matching: each vertex's neighbours, and edge weights by the kinds of the
    two ends (here a vertex's kind is its score group), which keeps the weights of a thousand
    vertices in a small table."""

    neighbours: list[list[int]]
    kind: list[int]
    kind_weight: list[list[int]]


def _max_weight_perfect_matching(
    graph: _Graph, duals: list[int], mates: list[int]
) -> list[int] | None:
    """A maximum-weight perfect matching of the graph, as each vertex's mate, or None if the graph
    has no perfect matching.

    Edmonds' primal-dual blossom algorithm as Galil's survey (1986) lays it out, for integer
    weights: grow alternating trees along tight edges, shrink odd cycles into blossoms, move the
    duals when stuck, augment once per stage.

    ``duals`` are the starting vertex duals, doubled (the algorithm keeps ``2*y``): they must all
    have the same parity and satisfy ``duals[u] + duals[v] >= 2 * weight`` for every edge.
    ``mates`` is a starting matching (-1 for exposed) whose edges are tight, that is meet that
    bound with equality; the search starts from it.
    """
    matched = _Matcher(graph, duals, mates).solve()
    return None if -1 in matched else matched


class _Matcher:
    """The state of the blossom algorithm; see ``_max_weight_perfect_matching``."""

    def __init__(self, graph: _Graph, duals: list[int], mates: list[int]) -> None:
        self.size = len(graph.neighbours)
        self.neighbours = graph.neighbours
        self.kind = graph.kind
        self.kind_weight = graph.kind_weight
        self.dual = list(duals)
        self.mate = list(mates)
        self.blossom_dual: dict[_Blossom, int] = {}
        self.blossoms: list[_Blossom] = []  # in creation order, so every run is the same
        self.top: list[_Node] = list(range(self.size))  # the outermost blossom of each vertex
        self.parent: dict[_Node, _Blossom] = {}  # the blossom directly around a node, if any
        self.base: dict[_Node, int] = {vertex: vertex for vertex in range(self.size)}
        self.label: dict[_Node, int] = {}
        # Through which edge (outside vertex, inside vertex) a node got its label; None for a root.
        # A vertex inside a T blossom gets one too when an S vertex first reaches it.
        self.label_edge: dict[_Node, _Edge | None] = {}
        # Least-slack edges, to decide how far the duals may move: into each vertex that is not S,
        # from an S vertex; and out of each S vertex, to an S vertex of another blossom (checked
        # again when blossoms have merged since).
        self.best_from_s: dict[int, _Edge] = {}
        self.best_to_s: dict[int, _Edge] = {}
        self.queue: list[int] = []

    def solve(self) -> list[int]:
        """Each vertex's mate (-1 if exposed): a maximum matching, and the heaviest of those."""
        while True:
            self.label.clear()
            self.label_edge.clear()
            self.best_from_s.clear()
            self.best_to_s.clear()
            self.queue.clear()
            for vertex in range(self.size):
                if self.mate[vertex] == -1 and self.top[vertex] not in self.label:
                    self._assign_label(vertex, _S, None)
            if not self.queue:
                return self.mate  # every vertex is matched
            if not self._augment_once():
                return self.mate  # no augmenting path is left: the matching is maximum
            for blossom in list(self.blossoms):
                if (
                    blossom not in self.parent
                    and self.label.get(blossom) == _S
                    and self.blossom_dual[blossom] == 0
                ):
                    self._expand(blossom, end_of_stage=True)

    def _slack(self, u: int, v: int) -> int:
        return self.dual[u] + self.dual[v] - 2 * self.kind_weight[self.kind[u]][self.kind[v]]

    def _augment_once(self) -> bool:
        """Grow the alternating forest, changing duals when it is stuck, until one augmenting
        path is found and used (True), or the duals can change no more (False: the matching is
        maximum and not perfect)."""
        while True:
            while self.queue:
                if self._scan(self.queue.pop()):
                    return True
            delta, kind, target = self._delta()
            if kind == 0:
                return False
            self._move_duals(delta)
            if kind == 4:
                assert isinstance(target, _Blossom)
                self._expand(target, end_of_stage=False)
            else:
                assert isinstance(target, tuple)
                u, v = target
                self.queue.append(u if self.label.get(self.top[u]) == _S else v)

    def _scan(self, v: int) -> bool:
        """Look along every edge of the S vertex v; True if that augmented the matching."""
        top, label, dual, kind = self.top, self.label, self.dual, self.kind
        best_from_s = self.best_from_s
        dual_v = dual[v]
        weight_v = self.kind_weight[kind[v]]
        self.best_to_s.pop(v, None)
        for w in self.neighbours[v]:
            top_w = top[w]
            if top_w is top[v]:
                continue
            slack = dual_v + dual[w] - 2 * weight_v[kind[w]]
            if slack <= 0:
                label_w = label.get(top_w)
                if label_w is None:
                    self._assign_label(w, _T, v)
                elif label_w == _S:
                    base = self._common_base(v, w)
                    if base is None:
                        self._augment(v, w)
                        return True
                    self._add_blossom(base, v, w)
                elif w not in self.label:
                    self.label[w] = _T  # reached inside a T blossom: kept for its expansion
                    self.label_edge[w] = (v, w)
            elif label.get(top_w) == _S:
                best = self.best_to_s.get(v)
                if best is None or slack < self._slack(*best):
                    self.best_to_s[v] = (v, w)
            elif w not in label:
                best = best_from_s.get(w)
                if best is None:
                    best_from_s[w] = (v, w)
                else:
                    u = best[0]  # inline self._slack(u, w): this line runs for most edges
                    if slack < dual[u] + dual[w] - 2 * self.kind_weight[kind[u]][kind[w]]:
                        best_from_s[w] = (v, w)
        return False

    def _assign_label(self, w: int, label: int, v: int | None) -> None:
        """Label w's outermost blossom, reached from v (None for a root); a T blossom's mate
        becomes S."""
        top = self.top[w]
        self.label[w] = self.label[top] = label
        edge = None if v is None else (v, w)
        self.label_edge[w] = self.label_edge[top] = edge
        if label == _S:
            self.queue.extend(_leaves(top))
        else:
            base = self.base[top]
            self._assign_label(self.mate[base], _S, base)

    def _common_base(self, v: int, w: int) -> int | None:
        """Walk up from the S vertices v and w in turn: the base of the first blossom both paths
        reach, or None if they end at different roots (an augmenting path)."""
        path: list[_Node] = []
        base = None
        walkers: list[int | None] = [v, w]
        while walkers[0] is not None:
            top = self.top[walkers[0]]
            if self.label[top] & _MARK:
                base = self.base[top]
                break
            path.append(top)
            self.label[top] = _S | _MARK
            edge = self.label_edge[top]
            if edge is None:
                walkers[0] = None
            else:
                parent_edge = self.label_edge[self.top[edge[0]]]
                assert parent_edge is not None
                walkers[0] = parent_edge[0]
            if walkers[1] is not None:
                walkers.reverse()
        for top in path:
            self.label[top] = _S
        return base

    def _add_blossom(self, base: int, v: int, w: int) -> None:
        """Shrink the cycle closed by the edge (v, w) between two S nodes of one tree."""
        base_top = self.top[base]
        v_side: list[_Node] = []
        v_edges: list[_Edge] = []
        node = self.top[v]
        while node != base_top:
            edge = self.label_edge[node]
            assert edge is not None
            v_side.append(node)
            v_edges.append(edge)
            node = self.top[edge[0]]
        w_side: list[_Node] = []
        w_edges: list[_Edge] = []
        node = self.top[w]
        while node != base_top:
            edge = self.label_edge[node]
            assert edge is not None
            w_side.append(node)
            w_edges.append((edge[1], edge[0]))
            node = self.top[edge[0]]
        blossom = _Blossom(
            children=[base_top, *reversed(v_side), *w_side],
            edges=[*reversed(v_edges), (v, w), *w_edges],
        )
        self.blossoms.append(blossom)
        self.blossom_dual[blossom] = 0
        self.base[blossom] = base
        for child in blossom.children:
            self.parent[child] = blossom
        self.label[blossom] = _S
        self.label_edge[blossom] = self.label_edge[base_top]
        for leaf in blossom.leaves():
            if self.label.get(self.top[leaf]) == _T:
                self.queue.append(leaf)  # T vertices inside become S: their edges need a look
            self.top[leaf] = blossom

    def _expand(self, blossom: _Blossom, end_of_stage: bool) -> None:
        """Undo a blossom whose dual reached zero: its children become outermost again. A T
        blossom's children on the even path from the entry to the base keep the tree going."""
        for child in blossom.children:
            del self.parent[child]
            if isinstance(child, _Blossom) and end_of_stage and self.blossom_dual[child] == 0:
                self._expand(child, end_of_stage)
            else:
                for leaf in _leaves(child):
                    self.top[leaf] = child
        if not end_of_stage and self.label.get(blossom) == _T:
            self._relabel_expanded(blossom)
        self.blossoms.remove(blossom)
        for table in (self.label, self.label_edge, self.base):
            table.pop(blossom, None)
        del self.blossom_dual[blossom]

    def _relabel_expanded(self, blossom: _Blossom) -> None:
        children, edges = blossom.children, blossom.edges
        entry_edge = self.label_edge[blossom]
        assert entry_edge is not None
        v, w = entry_edge
        entry = self.top[w]
        index = children.index(entry)
        # Walk from the entry child to the base child the way that is an even number of edges.
        if index % 2 == 1:
            step = 1
            index -= len(children)
        else:
            step = -1
        while index != 0:
            self.label.pop(w, None)
            self._assign_label(w, _T, v)  # and its mate, the next child on the path, S
            if step == 1:
                v, w = edges[index + 1]
            else:
                w, v = edges[index - 2]
            index += 2 * step
        base_child = children[0]
        self.label[w] = self.label[base_child] = _T
        self.label_edge[w] = self.label_edge[base_child] = (v, w)
        # The children off the path are free, unless an S vertex reached one already.
        index += step
        while children[index] != entry:
            child = children[index]
            index += step
            if self.label.get(child) == _S:
                continue  # the mate of an earlier child off the path
            reached = next((leaf for leaf in _leaves(child) if leaf in self.label), None)
            if reached is None:
                continue
            reached_edge = self.label_edge[reached]
            assert reached_edge is not None
            del self.label[reached]
            self._assign_label(reached, _T, reached_edge[0])

    def _augment(self, v: int, w: int) -> None:
        """Flip the augmenting path through the edge (v, w) between two trees."""
        for start, partner in ((v, w), (w, v)):
            s, j = start, partner
            while True:
                s_top = self.top[s]
                if isinstance(s_top, _Blossom):
                    self._augment_blossom(s_top, s)
                self.mate[s] = j
                edge = self.label_edge[s_top]
                if edge is None:
                    break  # the root, exposed until now
                t_top = self.top[edge[0]]
                t_edge = self.label_edge[t_top]
                assert t_edge is not None
                s, j = t_edge
                if isinstance(t_top, _Blossom):
                    self._augment_blossom(t_top, j)
                self.mate[j] = s

    def _augment_blossom(self, blossom: _Blossom, vertex: int) -> None:
        """Rematch inside the blossom so that ``vertex`` becomes its base."""
        child: _Node = vertex
        while self.parent[child] is not blossom:
            child = self.parent[child]
        if isinstance(child, _Blossom):
            self._augment_blossom(child, vertex)
        children, edges = blossom.children, blossom.edges
        start = index = children.index(child)
        if index % 2 == 1:
            step = 1
            index -= len(children)
        else:
            step = -1
        while index != 0:
            index += step
            if step == 1:
                x, y = edges[index]
            else:
                y, x = edges[index - 1]
            # (x, y) becomes matched: x in children[index], y in the next child along.
            for end, inside in ((x, children[index]), (y, children[index + step])):
                if isinstance(inside, _Blossom):
                    self._augment_blossom(inside, end)
            index += step
            self.mate[x], self.mate[y] = y, x
        blossom.children = children[start:] + children[:start]
        blossom.edges = edges[start:] + edges[:start]
        self.base[blossom] = vertex

    def _delta(self) -> tuple[int, int, _Edge | _Blossom | None]:
        """The largest dual change that keeps every slack non-negative, what limits it (2: an edge
        from S to a free vertex; 3: an edge between two S nodes; 4: a T blossom's dual; 0:
        nothing, the forest cannot grow), and the edge or blossom concerned."""
        best: tuple[int, int, _Edge | _Blossom | None] = (0, 0, None)
        for vertex in range(self.size):
            label = self.label.get(self.top[vertex])
            if label is None:
                edge = self.best_from_s.get(vertex)
                if edge is not None:
                    slack = self._slack(*edge)
                    if best[1] == 0 or slack < best[0]:
                        best = (slack, 2, edge)
            elif label == _S:
                edge = self._best_to_s(vertex)
                if edge is not None:
                    slack = self._slack(*edge)
                    assert slack % 2 == 0, "duals lost their common parity"
                    if best[1] == 0 or slack // 2 < best[0]:
                        best = (slack // 2, 3, edge)
        for blossom in self.blossoms:
            dual = self.blossom_dual[blossom]
            is_t = blossom not in self.parent and self.label.get(blossom) == _T
            if is_t and (best[1] == 0 or dual < best[0]):
                best = (dual, 4, blossom)
        return best

    def _best_to_s(self, v: int) -> _Edge | None:
        """The least-slack edge from the S vertex v to an S vertex outside its blossom, looked for
        again if the one found when v was scanned has since been shrunk into v's blossom."""
        best = self.best_to_s.get(v)
        if best is not None and self.top[best[1]] is self.top[v]:
            best, best_slack = None, 0
            for w in self.neighbours[v]:
                top_w = self.top[w]
                if top_w is not self.top[v] and self.label.get(top_w) == _S:
                    slack = self._slack(v, w)
                    if best is None or slack < best_slack:
                        best, best_slack = (v, w), slack
            if best is None:
                del self.best_to_s[v]
            else:
                self.best_to_s[v] = best
        return best

    def _move_duals(self, delta: int) -> None:
        for vertex in range(self.size):
            label = self.label.get(self.top[vertex])
            if label == _S:
                self.dual[vertex] -= delta
            elif label == _T:
                self.dual[vertex] += delta
        for blossom in self.blossoms:
            if blossom not in self.parent:
                label = self.label.get(blossom)
                if label == _S:
                    self.blossom_dual[blossom] += delta
                elif label == _T:
                    self.blossom_dual[blossom] -= delta
