"""Swiss pairing: hand examples of the Dutch rules, the bye, determinism, and brute force for the
guarantees (no rematch while a pairing without one exists; the fewest floaters)."""

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tournaments.formats import swiss
from tournaments.formats.swiss import NoPairingError, SwissEntrant, pair

PROJECT_ROOT = Path(__file__).resolve().parents[3]


def entrant(number, score=0.0, met=(), had_bye=False):
    """Entrant ``number`` with a rating that ranks 1 first, 2 second, and so on."""
    return SwissEntrant(number, score, 3000 - number, frozenset(met), had_bye)


def field(scores, met=(), byes=()):
    """Entrants 1..len(scores) ranked in that order; ``met`` lists games already played."""
    opponents = {number: set() for number in range(1, len(scores) + 1)}
    for a, b in met:
        opponents[a].add(b)
        opponents[b].add(a)
    return [
        entrant(number, score, opponents[number], number in byes)
        for number, score in enumerate(scores, start=1)
    ]


# --- Hand examples -------------------------------------------------------------------------------


def test_the_first_round_pairs_top_half_against_bottom_half():
    assert pair(field([0] * 8)) == [(1, 5), (2, 6), (3, 7), (4, 8)]


def test_a_rematch_moves_to_the_next_transposition():
    assert pair(field([0] * 8, met=[(1, 5)])) == [(1, 6), (2, 5), (3, 7), (4, 8)]
    assert pair(field([0] * 8, met=[(1, 5), (1, 6), (2, 5)])) == [(1, 7), (2, 6), (3, 5), (4, 8)]


def test_an_odd_group_floats_its_lowest_to_meet_the_best_of_the_next():
    assert pair(field([1, 1, 1, 0, 0, 0, 0, 0])) == [(1, 2), (3, 4), (5, 7), (6, 8)]


def test_a_floater_meets_the_best_resident_it_has_not_played():
    scores = [1, 1, 1, 0, 0, 0, 0, 0]
    assert pair(field(scores, met=[(3, 4)])) == [(1, 2), (3, 5), (4, 7), (6, 8)]


def test_when_the_lowest_cannot_float_the_next_one_up_does():
    # 3 has played everyone below, so 2 floats and 3 meets 1.
    scores = [1, 1, 1, 0, 0, 0]
    met = [(3, 4), (3, 5), (3, 6)]
    assert pair(field(scores, met=met)) == [(1, 3), (2, 4), (5, 6)]


def test_leaders_who_have_met_both_float():
    scores = [2, 2, 1, 1, 1, 1]
    assert pair(field(scores, met=[(1, 2)])) == [(1, 3), (2, 4), (5, 6)]


def test_pairs_are_listed_in_rank_order_with_the_higher_ranked_first():
    entrants = [SwissEntrant("zoe", 1.0, 1500), SwissEntrant("amy", 0.0, 2400)]
    assert pair(entrants) == [("zoe", "amy")]


def test_a_game_listed_on_one_side_only_still_counts():
    entrants = field([0, 0, 0, 0])
    entrants[0] = entrant(1, met=[3])  # 3 does not list 1
    assert pair(entrants) == [(1, 4), (2, 3)]


def test_opponents_no_longer_in_the_field_are_ignored():
    entrants = [entrant(1, met=[99]), entrant(2, met=[99])]
    assert pair(entrants) == [(1, 2)]


def test_empty_and_single_fields():
    assert pair([]) == []
    assert pair([entrant(1)]) == [(1, None)]


def test_duplicate_ids_are_refused():
    with pytest.raises(ValueError, match="appear twice: 1"):
        pair([entrant(1), entrant(1)])


# --- The bye -------------------------------------------------------------------------------------


def test_the_bye_goes_to_the_lowest_ranked():
    assert pair(field([0] * 5))[-1] == (5, None)
    assert pair(field([2, 1, 1, 0, 1]))[-1] == (4, None)  # the lowest score, not the last listed


def test_the_bye_skips_those_who_had_one():
    assert pair(field([0] * 5, byes=[5]))[-1] == (4, None)
    assert pair(field([0] * 5, byes=[5, 4, 3]))[-1] == (2, None)


def test_when_everyone_had_a_bye_the_lowest_ranked_takes_another():
    assert pair(field([0] * 3, byes=[1, 2, 3]))[-1] == (3, None)


def test_the_bye_moves_up_when_the_lowest_would_leave_only_rematches():
    # Without 5 the others are 1-2-3-4, and 4 has played 1, 2 and 3: 4 must sit out instead.
    assert pair(field([0] * 5, met=[(4, 1), (4, 2), (4, 3)])) == [(1, 3), (2, 5), (4, None)]


# --- Determinism ---------------------------------------------------------------------------------


def random_field(rng: random.Random, size: int, rounds: int) -> list[SwissEntrant]:
    """A field after ``rounds`` rounds paired by ``pair`` with random results."""
    return play(rng, size, rounds)[-1]


def test_the_result_does_not_depend_on_the_input_order():
    rng = random.Random(3)
    for size in (7, 20, 61):
        entrants = random_field(rng, size, rounds=4)
        expected = pair(entrants)
        for _ in range(5):
            shuffled = entrants[:]
            rng.shuffle(shuffled)
            assert pair(shuffled) == expected


def test_ties_of_score_and_rating_are_broken_by_id():
    entrants = [SwissEntrant(i, 0.0, 1500) for i in (4, 2, 3, 1)]
    assert pair(entrants) == [(1, 3), (2, 4)]
    strings = [SwissEntrant(name, 0.0, 1500) for name in ("d", "b", "c", "a")]
    assert pair(strings) == [("a", "c"), ("b", "d")]


# --- No rematch while a pairing without one exists --------------------------------------------


# Fields up to this size are small enough to check every pairing by brute force.
BRUTE_FORCE_SIZE = 12


def play(rng: random.Random, size: int, rounds: int) -> list[list[SwissEntrant]]:
    """Play up to ``rounds`` Swiss rounds with random results (some draws, byes worth a win) and
    return the field before each round and after the last. Checks every round as it goes: no
    rematch, everyone once; for small fields also the bye, and, when ``pair`` gives up, that
    indeed no pairing is left (late rounds of a small Swiss can get there)."""
    ratings = {number: rng.randint(1200, 2400) for number in range(size)}
    scores = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {number: set() for number in ratings}
    byes: set[int] = set()
    fields = []
    for _ in range(rounds):
        entrants = [
            SwissEntrant(n, scores[n], ratings[n], frozenset(met[n]), n in byes) for n in ratings
        ]
        fields.append(entrants)
        small = size <= BRUTE_FORCE_SIZE
        try:
            pairs = pair(entrants)
        except NoPairingError:
            if small:
                assert best_by_brute_force(entrants) is None
            return fields
        seated = [n for pairing in pairs for n in pairing if n is not None]
        assert sorted(seated) == sorted(ratings)
        if small and size % 2 == 1:
            assert pairs[-1] == (best_by_brute_force(entrants)[0], None)
        for a, b in pairs:
            if b is None:
                byes.add(a)
                scores[a] += 1
                continue
            assert b not in met[a], f"rematch {a}-{b}"
            met[a].add(b)
            met[b].add(a)
            result = rng.random()
            if result < 0.1:
                scores[a] += 0.5
                scores[b] += 0.5
            else:
                scores[a if result < 0.55 else b] += 1
    fields.append(
        [SwissEntrant(n, scores[n], ratings[n], frozenset(met[n]), n in byes) for n in ratings]
    )
    return fields


@pytest.mark.parametrize("seed", range(6))
def test_random_tournaments_never_rematch(seed):
    rng = random.Random(seed)
    for size in (rng.randint(2, 12), rng.randint(13, 40), 101, 200):
        play(rng, size, rounds=min(9, size - 1))


def test_long_tournaments_of_small_fields_never_rematch_until_none_is_possible():
    rng = random.Random(11)
    for size in range(2, BRUTE_FORCE_SIZE + 1):
        for _ in range(4):
            play(rng, size, rounds=size)  # one round more than a round robin has


def test_a_thousand_entrants_pair_mid_tournament():
    rng = random.Random(5)
    play(rng, 1000, rounds=6)


def matchings(players: list[int], allowed) -> Iterator[list[tuple[int, int]]]:
    """Every way to pair ``players`` using allowed games only (brute force)."""
    if not players:
        yield []
        return
    first = players[0]
    for index in range(1, len(players)):
        if allowed(first, players[index]):
            for rest in matchings(players[1:index] + players[index + 1 :], allowed):
                yield [(first, players[index]), *rest]


def allowed_games(entrants):
    by_id = {e.id: e for e in entrants}
    return lambda a, b: b not in by_id[a].opponents and a not in by_id[b].opponents


def greedy_top_down(entrants) -> list[tuple[int, int]] | None:
    """The naive method: each entrant in rank order takes the first unplayed entrant below."""
    ranked = [e.id for e in sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))]
    allowed = allowed_games(entrants)
    pairs = []
    while ranked:
        first = ranked.pop(0)
        partner = next((other for other in ranked if allowed(first, other)), None)
        if partner is None:
            return None
        ranked.remove(partner)
        pairs.append((first, partner))
    return pairs


ADVERSARIAL = {
    # 1 floats to 2; pairing 1-2 leaves 3-4, who have met.
    "floater takes the only partner of the bottom": field([2, 1, 1, 0], met=[(3, 4)]),
    # The top group's natural pairs leave the bottom two with only each other, and they met.
    "bottom pair already met": field([1, 1, 1, 1, 0, 0], met=[(5, 6)]),
    # 5-6 met and only 4 may meet 5: two of the top group must go down, 4 one of them.
    "one way down for the top group": field(
        [1, 1, 1, 1, 0, 0], met=[(5, 6), (1, 5), (2, 5), (3, 5), (4, 6)]
    ),
    # 1 may meet 2 or 3 but greedy takes 2, and 3-4 met: only 1-3, 2-4 works.
    "a chain of blocked choices": field([0] * 4, met=[(1, 4), (2, 3), (3, 4)]),
    # Scores 2, 1, 1, 1, 1, 0: the leader takes 2, the best of the middle group, but 2 is the
    # only one the bottom entrant has not met.
    "the bottom needs the best of the middle": field(
        [2, 1, 1, 1, 1, 0], met=[(6, 3), (6, 4), (6, 5)]
    ),
}


@pytest.mark.parametrize("name", ADVERSARIAL)
def test_it_finds_the_pairing_that_greedy_top_down_misses(name):
    entrants = ADVERSARIAL[name]
    allowed = allowed_games(entrants)
    assert greedy_top_down(entrants) is None, "not adversarial: greedy succeeds"
    assert any(matchings([e.id for e in entrants], allowed)), "no pairing exists"
    pairs = pair(entrants)
    assert all(allowed(a, b) for a, b in pairs)
    assert sorted(n for p in pairs for n in p) == sorted(e.id for e in entrants)


def test_adversarial_cases_found_at_random_are_paired_too():
    rng = random.Random(17)
    found = 0
    while found < 150:
        entrants = random_small_field(rng, size=rng.choice([4, 6, 8, 10]))
        allowed = allowed_games(entrants)
        if greedy_top_down(entrants) is not None:
            continue
        if not any(matchings([e.id for e in entrants], allowed)):
            continue
        found += 1
        pairs = pair(entrants)
        assert all(allowed(a, b) for a, b in pairs)


# --- When no pairing exists ----------------------------------------------------------------------


def round_robin_played(size):
    return [(a, b) for a in range(1, size + 1) for b in range(a + 1, size + 1)]


@pytest.mark.parametrize("size", [2, 4, 6])
def test_it_refuses_when_everyone_has_met(size):
    with pytest.raises(NoPairingError, match="every way to pair these .* repeats a game"):
        pair(field([0] * size, met=round_robin_played(size)))


def test_it_refuses_when_every_bye_leaves_only_rematches():
    with pytest.raises(NoPairingError, match="whoever .* has the bye"):
        pair(field([1, 0, 0], met=round_robin_played(3)))


def test_it_refuses_when_the_only_games_left_cannot_cover_everyone():
    # Every game not yet played involves 1: whoever 1 meets, the other four have nobody left.
    met = [
        (a, b) for a, b in round_robin_played(6) if (a, b) not in {(1, 2), (1, 4), (1, 5), (1, 6)}
    ]
    with pytest.raises(NoPairingError):
        pair(field([0] * 6, met=met))


def test_the_error_is_a_value_error_for_callers_that_catch_those():
    assert issubclass(NoPairingError, ValueError)


# --- Brute force: the bye and the fewest floaters ------------------------------------------------


def random_small_field(rng: random.Random, size: int) -> list[SwissEntrant]:
    scores = [rng.choice([0, 0.5, 1, 1.5, 2, 3][: rng.randint(1, 6)]) for _ in range(size)]
    density = rng.random() * 0.7
    met: dict[int, set[int]] = {n: set() for n in range(size)}
    for a in range(size):
        for b in range(a + 1, size):
            if rng.random() < density:
                met[a].add(b)
                met[b].add(a)
    return [
        SwissEntrant(n, scores[n], rng.randint(1500, 1504), frozenset(met[n]), rng.random() < 0.3)
        for n in range(size)
    ]


def floaters_per_boundary(pairs, score_of, scores) -> tuple[int, ...]:
    """How many entrants are paired across each score-group boundary, from the top."""
    levels = sorted(set(scores), reverse=True)[:-1]
    return tuple(sum((score_of[a] >= lv) != (score_of[b] >= lv) for a, b in pairs) for lv in levels)


def best_by_brute_force(entrants):
    """(bye, fewest floaters per boundary) as the rules define them, by trying every pairing;
    None if there is no pairing without a rematch."""
    ranked = sorted(entrants, key=lambda e: (-e.score, -e.rating, e.id))
    allowed = allowed_games(entrants)
    score_of = {e.id: e.score for e in entrants}
    if len(ranked) % 2 == 0:
        candidates = [None]
    else:
        lowest_first = ranked[::-1]
        candidates = [e.id for e in lowest_first if not e.had_bye]
        candidates += [e.id for e in lowest_first if e.had_bye]
    for bye in candidates:
        rest = [e.id for e in ranked if e.id != bye]
        options = [
            floaters_per_boundary(pairs, score_of, [score_of[n] for n in rest])
            for pairs in matchings(rest, allowed)
        ]
        if options:
            return bye, min(options)
    return None


@pytest.mark.parametrize("seed", range(4))
def test_bye_and_floaters_match_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(400):
        entrants = random_small_field(rng, size=rng.randint(1, 10))
        best = best_by_brute_force(entrants)
        if best is None:
            with pytest.raises(NoPairingError):
                pair(entrants)
            continue
        bye, fewest = best
        result = pair(entrants)
        assert [a for a, b in result if b is None] == ([] if bye is None else [bye])
        games = [(a, b) for a, b in result if b is not None]
        assert all(allowed_games(entrants)(a, b) for a, b in games)
        score_of = {e.id: e.score for e in entrants}
        rest = [e.score for e in entrants if e.id != bye]
        assert floaters_per_boundary(games, score_of, rest) == fewest, entrants


def test_floaters_from_late_rounds_of_real_tournaments_match_brute_force():
    rng = random.Random(23)
    for _ in range(30):
        size = rng.randint(5, 10)
        for entrants in play(rng, size, rounds=size - 2)[2:]:
            best = best_by_brute_force(entrants)
            if best is None:
                continue  # the tournament could go no further
            bye, fewest = best
            result = pair(entrants)
            games = [(a, b) for a, b in result if b is not None]
            score_of = {e.id: e.score for e in entrants}
            rest = [e.score for e in entrants if e.id != bye]
            assert floaters_per_boundary(games, score_of, rest) == fewest


# --- The blossom algorithm on its own ------------------------------------------------------------


def heaviest_perfect_matching(size, weights):
    """Brute force: the largest total weight of a perfect matching, None if there is none."""
    totals = [
        sum(weights[min(a, b), max(a, b)] for a, b in pairs)
        for pairs in matchings(list(range(size)), lambda a, b: (min(a, b), max(a, b)) in weights)
    ]
    return max(totals, default=None)


@pytest.mark.parametrize("seed", range(3))
def test_the_blossom_matching_is_the_heaviest_perfect_matching(seed):
    # The exact method's correctness rests on this private helper, so it is checked directly:
    # random graphs with random integer weights, against every perfect matching.
    rng = random.Random(seed)
    for _ in range(600):
        size = rng.choice([2, 4, 6, 8, 10])
        density = rng.random()
        weights = {
            (a, b): rng.randint(0, rng.choice([3, 10, 100]))
            for a in range(size)
            for b in range(a + 1, size)
            if rng.random() < density
        }
        neighbours = [[] for _ in range(size)]
        for a, b in weights:
            neighbours[a].append(b)
            neighbours[b].append(a)
        table = [[weights.get((min(a, b), max(a, b)), 0) for b in range(size)] for a in range(size)]
        graph = swiss._Graph(neighbours=neighbours, kind=list(range(size)), kind_weight=table)
        top = max(weights.values(), default=0)
        mates = swiss._max_weight_perfect_matching(graph, [top] * size, [-1] * size)
        expected = heaviest_perfect_matching(size, weights)
        if mates is None:
            assert expected is None
            continue
        assert all(
            mates[mates[v]] == v and (min(v, mates[v]), max(v, mates[v])) in weights
            for v in range(size)
        )
        assert sum(table[v][mates[v]] for v in range(size)) // 2 == expected


# --- Large fields ------------------------------------------------------------------------------


def favourites_field(rng: random.Random, size: int, rounds: int, extra_met: int = 0):
    """The field before round ``rounds + 1`` of a Swiss where the higher rating wins 19 times in
    20 (small top groups that have played each other: the rounds the exact method decides), with
    ``extra_met`` more games per entrant against random others (rematch constraints beyond any
    real Swiss). Every round is paired by ``pair`` and checked."""
    ratings = {number: rng.randint(1200, 2400) for number in range(size)}
    scores = dict.fromkeys(ratings, 0.0)
    met: dict[int, set[int]] = {number: set() for number in ratings}
    for number in ratings:
        for other in rng.sample(range(size), extra_met):
            if other != number:
                met[number].add(other)
                met[other].add(number)
    byes: set[int] = set()

    def entrants():
        return [
            SwissEntrant(n, scores[n], ratings[n], frozenset(met[n]), n in byes) for n in ratings
        ]

    for _ in range(rounds):
        field_now = entrants()
        pairs = pair(field_now)
        assert_valid(field_now, pairs)
        for a, b in pairs:
            if b is None:
                byes.add(a)
                scores[a] += 1
                continue
            met[a].add(b)
            met[b].add(a)
            if rng.random() < 0.1:
                scores[a] += 0.5
                scores[b] += 0.5
            else:
                high, low = (a, b) if ratings[a] >= ratings[b] else (b, a)
                scores[high if rng.random() < 0.95 else low] += 1
    return entrants()


def assert_valid(entrants, pairs):
    """Everyone once, no rematch, the bye (if any) last and only for an odd field."""
    allowed = allowed_games(entrants)
    seated = [n for pairing in pairs for n in pairing if n is not None]
    assert sorted(seated) == sorted(e.id for e in entrants)
    assert all(allowed(a, b) for a, b in pairs if b is not None)
    byes = [a for a, b in pairs if b is None]
    assert len(byes) == len(entrants) % 2 and (not byes or pairs[-1][1] is None)


def test_a_score_group_of_thousands_pairs_without_deep_recursion():
    # Round 1 of 5,000: one score group, whose halves used to be searched one call deeper per
    # entrant. Rematches inside it make the search go back and forth; the stack stays shallow.
    import sys  # noqa: PLC0415

    rng = random.Random(4)
    entrants = favourites_field(rng, 5000, rounds=0, extra_met=3)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    try:
        pairs = pair(entrants)
    finally:
        sys.setrecursionlimit(limit)
    assert_valid(entrants, pairs)


@pytest.mark.parametrize("seed", range(3))
def test_large_fields_with_many_rematch_constraints_always_pair(seed):
    rng = random.Random(seed)
    size = rng.choice([1500, 2001, 3000])
    favourites_field(rng, size, rounds=rng.randint(8, 14), extra_met=rng.choice([0, 10, 25]))


def exact_reduction(players, field_, start):
    """The whole field as the exact method's part: nothing set aside, every game allowed."""
    last = max(field_.group[player] for player in players)
    groups = {field_.group[player] for player in players}
    return swiss._Reduction(
        core=list(players), start=list(start), aside=[], reach=dict.fromkeys(groups, last),
        keep=len(players),
    )  # fmt: skip


def crossings(pairs, field_, players):
    groups = sorted({field_.group[player] for player in players})
    return [
        sum((field_.group[a] <= g) != (field_.group[b] <= g) for a, b in pairs) for g in groups[:-1]
    ]


@pytest.mark.parametrize("seed", range(4))
def test_the_reduction_of_the_exact_method_keeps_its_answer(seed):
    # The exact method's part of a large field is cut down by a proof (swiss._Reduction): the
    # fewest floaters at every boundary are the same as those of the whole field's matching.
    rng = random.Random(seed)
    checked = 0
    while checked < 6:
        size = rng.randint(150, 400)
        entrants = favourites_field(
            rng, size, rounds=rng.randint(3, 12), extra_met=rng.randint(0, 2)
        )
        ranked = sorted(entrants, key=swiss._rank_key)
        field_ = swiss._Field.of(ranked)
        players = list(range(len(ranked) - len(ranked) % 2))
        dutch, _ = swiss._dutch(players, field_)
        start = [(a, b) for a, b in dutch if field_.group[a] == field_.group[b]]
        reduced = swiss._Reduction.of(players, field_, start)
        if len(reduced.core) == len(players):
            continue  # nothing to cut: no group is large enough
        checked += 1
        whole = swiss._heaviest_pairing(exact_reduction(players, field_, start), field_)
        cut = swiss._heaviest_pairing(reduced, field_)
        if whole is None:
            assert cut is None
            continue
        assert_valid([ranked[p] for p in players], [(ranked[a].id, ranked[b].id) for a, b in cut])
        assert crossings(cut, field_, players) == crossings(whole, field_, players)


def test_the_bounded_exact_method_still_pairs_everyone_when_its_first_cut_fails(monkeypatch):
    # Each group keeping only 2 entrants cannot pair a field whose cores have all met: the cut
    # doubles until it pairs, and the answer is still a pairing without a rematch.
    monkeypatch.setattr(swiss, "_EXACT_LIMIT", 0)
    monkeypatch.setattr(swiss, "_BOUNDED_KEEP", 2)
    rng = random.Random(8)
    entrants = favourites_field(rng, 600, rounds=12, extra_met=2)
    ranked = sorted(entrants, key=swiss._rank_key)
    field_ = swiss._Field.of(ranked)
    players = list(range(len(ranked) - len(ranked) % 2))
    dutch, _ = swiss._dutch(players, field_)
    start = [(a, b) for a, b in dutch if field_.group[a] == field_.group[b]]
    pairs = swiss._fewest_floaters(players, field_, start)
    assert pairs is not None
    assert_valid([ranked[p] for p in players], [(ranked[a].id, ranked[b].id) for a, b in pairs])
