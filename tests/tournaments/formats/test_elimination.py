"""Elimination brackets: shape, seeding, byes, drop order, and places from simulated runs."""

import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pytest

from tournaments.formats.elimination import (
    BracketMatch,
    LoserOf,
    Seed,
    WinnerOf,
    bracket_order,
    consolation,
    double,
    pairings,
    places,
    single,
)

ENTRANTS = range(2, 34)

FORMATS = {
    "single": lambda n: single(n),
    "single+3P": lambda n: single(n, third_place=n >= 4),
    "double reset": lambda n: double(n, "reset"),
    "double single": lambda n: double(n, "single"),
    "double none": lambda n: double(n, "none"),
    "first-round": lambda n: consolation(n, "first-round", last_chance=False),
    "first-round+LC": lambda n: consolation(n, "first-round", last_chance=True),
    "progressive": lambda n: consolation(n, "progressive", last_chance=False),
    "progressive+LC": lambda n: consolation(n, "progressive", last_chance=True),
}


@dataclass
class Played:
    match: BracketMatch
    home: int
    away: int
    winner: int
    loser: int


@dataclass
class Run:
    """A bracket played through in list order, as the site would: who won each match."""

    matches: list[BracketMatch]
    winners: dict[str, str] = field(default_factory=dict)
    played: list[Played] = field(default_factory=list)

    def by_id(self, match_id: str) -> Played:
        return next(game for game in self.played if game.match.id == match_id)


def play(matches, pick) -> Run:
    """Plays every match in the order given; ``pick(match, home, away)`` says who wins."""
    run = Run(list(matches))
    results: dict[str, tuple[int, int]] = {}

    def seed(side):
        if isinstance(side, Seed):
            return side.k
        assert side.match_id in results, f"{side} is not decided before it is needed"
        winner, loser = results[side.match_id]
        return winner if isinstance(side, WinnerOf) else loser

    for match in matches:
        if match.if_needed and run.winners[match.home.match_id] != "away":
            continue
        home, away = seed(match.home), seed(match.away)
        winner = pick(match, home, away)
        run.winners[match.id] = winner
        results[match.id] = (home, away) if winner == "home" else (away, home)
        run.played.append(Played(match, home, away, *results[match.id]))
    return run


def favourites(match, home, away):
    return "home" if home < away else "away"


def coin(seed):
    rng = random.Random(seed)
    return lambda match, home, away: rng.choice(("home", "away"))


def round_one_pairs(matches, bracket):
    return [
        (match.home.k, match.away.k)
        for match in matches
        if match.bracket == bracket and match.round == 1
    ]


def can_play(matches, seed):
    """Ids of the matches ``seed`` can reach, whoever wins."""
    reach: set[str] = set()
    for match in matches:
        for side in (match.home, match.away):
            if side == Seed(seed) or (not isinstance(side, Seed) and side.match_id in reach):
                reach.add(match.id)
    return reach


def size(n):
    return 1 << (n - 1).bit_length()


# Shape and seeding.


@pytest.mark.parametrize("n", range(2, 41))
def test_single_elimination_has_a_match_fewer_than_entrants(n):
    assert len(single(n)) == n - 1
    if n >= 4:
        assert len(single(n, third_place=True)) == n


def test_eight_entrants_are_drawn_1_8_4_5_3_6_2_7_top_to_bottom():
    assert bracket_order(8) == [1, 8, 5, 4, 3, 6, 7, 2]
    assert round_one_pairs(single(8), "main") == [(1, 8), (4, 5), (3, 6), (2, 7)]


def test_sixteen_entrants_follow_the_recursive_standard_order():
    pairs = round_one_pairs(single(16), "main")

    assert pairs == [(1, 16), (8, 9), (5, 12), (4, 13), (3, 14), (6, 11), (7, 10), (2, 15)]


@pytest.mark.parametrize("n", range(2, 41))
def test_byes_go_to_the_top_seeds_who_appear_directly_in_round_two(n):
    matches = single(n)
    byes = set(range(1, size(n) - n + 1))
    in_round_one = {seed for pair in round_one_pairs(matches, "main") for seed in pair}
    in_round_two = {
        side.k
        for match in matches
        if match.round == 2
        for side in (match.home, match.away)
        if isinstance(side, Seed)
    }

    assert in_round_one == set(range(1, n + 1)) - byes
    assert in_round_two == byes


@pytest.mark.parametrize("n", range(2, 41))
def test_seeds_one_and_two_can_meet_only_in_the_final(n):
    matches = single(n)
    final = matches[-1]
    final_game = play(matches, favourites).by_id(final.id)

    assert can_play(matches, 1) & can_play(matches, 2) == {final.id}
    assert {final_game.home, final_game.away} == {1, 2}


@pytest.mark.parametrize("n", range(4, 41))
def test_the_better_seed_on_paper_is_home_in_the_main_bracket(n):
    for game in play(single(n), favourites).played:
        assert game.home < game.away


def test_ids_name_the_bracket_round_and_number():
    ids = [match.id for match in double(4, "reset")]

    assert sorted(ids) == sorted(["W1-1", "W1-2", "W2-1", "L1-1", "L2-1", "GF", "GF-reset"])


@pytest.mark.parametrize("make", FORMATS.values(), ids=FORMATS.keys())
@pytest.mark.parametrize("n", [2, 3, 5, 8, 13, 16, 33])
def test_every_side_refers_to_an_earlier_match_and_ids_are_unique(make, n):
    seen: set[str] = set()
    for match in make(n):
        for side in (match.home, match.away):
            assert isinstance(side, Seed) or side.match_id in seen
        assert match.id not in seen
        seen.add(match.id)


def test_the_third_place_match_is_between_the_semifinal_losers():
    matches = single(8, third_place=True)
    third = next(match for match in matches if match.bracket == "third-place")

    assert third == BracketMatch("3P", "third-place", 3, LoserOf("M2-1"), LoserOf("M2-2"))


def test_a_third_place_match_needs_four_entrants():
    with pytest.raises(ValueError, match="at least 4 entrants"):
        single(3, third_place=True)


@pytest.mark.parametrize(
    "call",
    [
        lambda: single(1),
        lambda: single(0),
        lambda: double(True),
        lambda: consolation(2.0),
        lambda: double(8, "twice"),
        lambda: consolation(8, "plate"),
    ],
)
def test_bad_input_is_refused_with_a_clear_error(call):
    with pytest.raises(ValueError, match="at least 2 entrants|unknown"):
        call()


# Double elimination.


def test_eight_entrants_with_a_reset_play_fifteen_matches():
    matches = double(8, "reset")

    assert Counter(match.bracket for match in matches) == {"winners": 7, "losers": 6, "final": 2}


def test_sixteen_entrants_with_a_single_final_play_thirty_matches():
    assert len(double(16, "single")) == 30


@pytest.mark.parametrize("n", ENTRANTS)
def test_double_elimination_plays_two_matches_per_entrant_less_two(n):
    assert len(double(n, "none")) == 2 * n - 3
    assert len(double(n, "single")) == 2 * n - 2
    assert len(double(n, "reset")) == 2 * n - 1


def test_the_reset_is_played_only_if_the_losers_bracket_champion_wins_the_grand_final():
    matches = double(4, "reset")
    reset = matches[-1]
    run = play(matches, favourites)

    assert reset == BracketMatch("GF-reset", "final", 2, LoserOf("GF"), WinnerOf("GF"), True)
    assert "GF-reset" not in run.winners
    assert "GF-reset" not in pairings(matches, run.winners)
    assert "GF-reset" in pairings(matches, {**run.winners, "GF": "away"})


def test_losers_of_winners_round_two_drop_in_reversed_order():
    matches = {match.id: match for match in double(8)}

    assert matches["L2-1"].away == LoserOf("W2-2")
    assert matches["L2-2"].away == LoserOf("W2-1")


@pytest.mark.parametrize("n", [8, 16, 32, 64])
def test_when_favourites_win_nobody_meets_again_before_the_losers_final(n):
    matches = double(n)
    run = play(matches, favourites)
    losers_final = max(match.round for match in matches if match.bracket == "losers")
    met: dict[frozenset[int], str] = {}
    for game in run.played:
        pair = frozenset((game.home, game.away))
        if game.match.bracket == "losers" and game.match.round < losers_final:
            assert pair not in met, f"{game.match.id} repeats {met[pair]}"
        met.setdefault(pair, game.match.id)


@pytest.mark.parametrize("n", [8, 16])
def test_no_first_round_pair_meets_again_in_the_losers_bracket_when_favourites_win(n):
    run = play(double(n), favourites)
    first_round = {
        frozenset((g.home, g.away))
        for g in run.played
        if g.match.bracket == "winners" and g.match.round == 1
    }
    in_losers = [frozenset((g.home, g.away)) for g in run.played if g.match.bracket == "losers"]

    assert not first_round & set(in_losers)


# Consolation.


def test_first_round_consolation_takes_the_sixteen_bracket_round_one_losers():
    matches = consolation(16, "first-round")
    fed = {
        side.match_id
        for match in matches
        if match.bracket == "consolation"
        for side in (match.home, match.away)
        if isinstance(side, LoserOf)
    }

    assert fed == {f"M1-{number}" for number in range(1, 9)}
    assert Counter(match.bracket for match in matches) == {"main": 15, "consolation": 7}


def test_a_bye_holder_losing_in_round_two_counts_as_a_first_round_loser():
    matches = consolation(6, "first-round")
    by_id = {match.id: match for match in matches}
    fed = {
        side.match_id
        for match in matches
        if match.bracket == "consolation"
        for side in (match.home, match.away)
        if isinstance(side, LoserOf) and side.match_id.startswith("M")
    }

    assert (by_id["M2-1"].home, by_id["M2-2"].home) == (Seed(1), Seed(2))
    assert fed == {"M1-1", "M1-2", "M2-1", "M2-2"}


def test_a_round_one_loser_is_not_paired_at_once_with_whoever_lost_to_his_winner():
    by_id = {match.id: match for match in consolation(5, "first-round")}

    assert by_id["M2-1"].away == WinnerOf("M1-1")
    assert (by_id["C1-1"].home, by_id["C1-1"].away) == (LoserOf("M1-1"), LoserOf("M2-2"))
    assert by_id["C2-1"].away == LoserOf("M2-1")


@pytest.mark.parametrize("n", range(4, 41))
def test_no_consolation_round_one_match_can_be_a_rematch(n):
    matches = consolation(n, "first-round")
    feeds = {
        match.id: {side.match_id for side in (match.home, match.away) if isinstance(side, WinnerOf)}
        for match in matches
    }
    for match in matches:
        if match.bracket == "consolation" and match.round == 1:
            first, second = match.home.match_id, match.away.match_id
            assert first not in feeds[second] and second not in feeds[first], match


def test_progressive_consolation_takes_each_round_s_losers_at_the_matching_round():
    matches = consolation(16, "progressive")
    entry = {
        side.match_id: match.round
        for match in matches
        if match.bracket == "consolation"
        for side in (match.home, match.away)
        if isinstance(side, LoserOf)
    }

    assert {entry[f"M1-{number}"] for number in range(1, 9)} == {1}
    assert {entry[f"M2-{number}"] for number in range(1, 5)} == {2}
    assert {entry["M3-1"], entry["M3-2"]} == {4}
    assert "M4-1" not in entry
    assert Counter(match.bracket for match in matches) == {"main": 15, "consolation": 13}


@pytest.mark.parametrize("kind", ["first-round", "progressive"])
def test_the_last_chance_takes_the_consolation_s_first_round_losers(kind):
    matches = consolation(16, kind, last_chance=True)
    fed = {
        side.match_id
        for match in matches
        if match.bracket == "last-chance"
        for side in (match.home, match.away)
        if isinstance(side, LoserOf)
    }

    assert fed == {"C1-1", "C1-2", "C1-3", "C1-4"}
    assert Counter(match.bracket for match in matches)["last-chance"] == 3


# Runs and places.


def check_ranking_shape(ranks, n):
    """Standard competition ranking: 1, then each place skips as many as share the one before."""
    assert sorted(ranks) == list(range(1, n + 1))
    counts = Counter(ranks.values())
    expected = 1
    for place in sorted(counts):
        assert place == expected
        expected += counts[place]


def check_run_rules(run, n):
    by_round = defaultdict(list)
    for game in run.played:
        by_round[game.match.bracket, game.match.round] += [game.home, game.away]
    for (bracket, round_number), seeds in by_round.items():
        assert len(seeds) == len(set(seeds)), f"someone plays twice in {bracket} {round_number}"
    assert {s for game in run.played for s in (game.home, game.away)} == set(range(1, n + 1))
    known = pairings(run.matches, run.winners)
    assert known == {game.match.id: (game.home, game.away) for game in run.played}


def final_game(run, bracket):
    games = [game for game in run.played if game.match.bracket == bracket]
    return max(games, key=lambda game: game.match.round) if games else None


def losses(run, seed):
    return sum(game.loser == seed for game in run.played)


def check_single(run, ranks, n, third_place):
    final = final_game(run, "main")
    last_round = final.match.round
    assert ranks[final.winner] == 1 and ranks[final.loser] == 2
    main_losses = Counter(game.loser for game in run.played if game.match.bracket == "main")
    assert set(main_losses.values()) == {1}
    assert set(main_losses) == set(range(1, n + 1)) - {final.winner}
    for game in run.played:
        in_third_place = third_place and game.match.round == last_round - 1
        if game.match.bracket == "main" and game.match.round < last_round and not in_third_place:
            assert ranks[game.loser] == size(n) // 2**game.match.round + 1
    if third_place:
        third = final_game(run, "third-place")
        assert (ranks[third.winner], ranks[third.loser]) == (3, 4)


def check_double(run, ranks, n, grand_final):
    champion = min(ranks, key=ranks.get)
    finals = [game for game in run.played if game.match.bracket == "final"]
    winners_champion = final_game(run, "winners").winner
    losers_final = final_game(run, "losers")
    losers_champion = losers_final.winner if losers_final else final_game(run, "winners").loser
    if grand_final == "none":
        assert not finals
        assert (ranks[winners_champion], ranks[losers_champion]) == (1, 2)
    else:
        assert ranks[finals[-1].winner] == 1 and ranks[finals[-1].loser] == 2
        reset = grand_final == "reset" and finals[0].winner == losers_champion
        assert len(finals) == (2 if reset else 1)
    for seed in range(1, n + 1):
        lost = losses(run, seed)
        if seed == champion:
            assert lost <= 1
        elif seed == {"none": losers_champion, "single": winners_champion}.get(grand_final):
            assert lost == 1
        else:
            assert lost == 2, f"seed {seed} is out after {lost} losses"
    if losers_final:
        assert ranks[losers_final.loser] == 3
    # A losers-bracket round's losers share the place after everyone still in.
    for game in run.played:
        if game.match.bracket == "losers":
            still_in = {winners_champion, losers_champion} | {
                seed
                for later in run.played
                if later.match.bracket == "final"
                or (later.match.bracket == "losers" and later.match.round > game.match.round)
                for seed in (later.home, later.away)
            }
            assert ranks[game.loser] == len(still_in) + 1


def check_consolation(run, ranks, n, kind, last_chance):
    main_final = final_game(run, "main")
    assert ranks[main_final.winner] == 1 and ranks[main_final.loser] == 2
    players = {bracket: set() for bracket in ("main", "consolation", "last-chance")}
    firsts: dict[tuple[str, int], str] = {}
    for game in run.played:
        for seed in (game.home, game.away):
            players[game.match.bracket].add(seed)
            firsts.setdefault((game.match.bracket, seed), game.match.id)
    round_one_losers = {
        game.loser for game in run.played if game.match.bracket == "main" and game.match.round == 1
    }
    # Who drops: the rule of the module docstring, restated on the run.
    droppers: dict[str, set[int]] = {"consolation": set(), "last-chance": set()}
    for game in run.played:
        bracket = game.match.bracket
        if game is final_game(run, bracket) or bracket == "last-chance":
            continue
        starting = {s for s in (game.home, game.away) if firsts[bracket, s] == game.match.id}
        if bracket == "main" and (kind == "progressive" or starting):
            droppers["consolation"].add(game.loser)
        if bracket == "consolation" and last_chance:
            entered_in_round_one = (
                starting if kind == "first-round" else starting & round_one_losers
            )
            if entered_in_round_one:
                droppers["last-chance"].add(game.loser)
    for bracket, dropped in droppers.items():
        # Someone alone in a bracket plays no match there.
        assert players[bracket] == (dropped if len(dropped) > 1 else set()), bracket
    # Losses: one per bracket played in, a bracket's champion one fewer.
    champions = {final_game(run, bracket).winner for bracket in players if final_game(run, bracket)}
    for seed in range(1, n + 1):
        played_in = sum(seed in seeds for seeds in players.values())
        assert losses(run, seed) == played_in - (seed in champions)
    # Places: main finishers by round, then the consolation's, then the last chance's.
    only_main = players["main"] - players["consolation"]
    out_in_round = {
        game.loser: game.match.round for game in run.played if game.match.bracket == "main"
    }
    out_in_round[main_final.winner] = main_final.match.round + 1
    for seed in only_main:
        later = [s for s in only_main if out_in_round[s] > out_in_round[seed]]
        assert ranks[seed] == len(later) + 1
    consolation_final = final_game(run, "consolation")
    if consolation_final:
        assert ranks[consolation_final.winner] == len(only_main) + 1
        assert ranks[consolation_final.loser] == len(only_main) + 2
        if kind == "progressive":
            assert ranks[consolation_final.winner] == 3
    below = [ranks[seed] for seed in players["last-chance"]]
    above = [ranks[seed] for seed in set(ranks) - players["last-chance"]]
    assert not below or min(below) > max(above)


@pytest.mark.parametrize("name", FORMATS)
@pytest.mark.parametrize("n", ENTRANTS)
def test_a_random_run_gives_every_entrant_the_place_the_format_says(name, n):
    make = FORMATS[name]
    matches = make(n)
    for trial in range(4):
        run = play(matches, coin(1000 * n + trial))
        ranks = places(matches, run.winners)
        check_run_rules(run, n)
        check_ranking_shape(ranks, n)
        if name.startswith("single"):
            check_single(run, ranks, n, third_place=name.endswith("3P") and n >= 4)
        elif name.startswith("double"):
            check_double(run, ranks, n, grand_final=name.split()[1])
        else:
            kind = name.removesuffix("+LC")
            check_consolation(run, ranks, n, kind, last_chance=name.endswith("+LC"))


@pytest.mark.parametrize("name", FORMATS)
def test_favourites_winning_finish_in_seed_order_at_the_top(name):
    matches = FORMATS[name](16)
    ranks = places(matches, play(matches, favourites).winners)

    assert ranks[1] == 1 and ranks[2] == 2


def test_single_elimination_places_share_by_round():
    matches = single(8)
    ranks = places(matches, play(matches, favourites).winners)

    assert ranks == {1: 1, 2: 2, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}


def test_double_elimination_places_follow_the_losers_bracket():
    matches = double(8, "reset")
    ranks = places(matches, play(matches, favourites).winners)

    assert ranks == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 5, 7: 7, 8: 7}


def test_places_need_a_complete_run():
    matches = single(4)
    with pytest.raises(ValueError, match="not complete: no winner for M2-1"):
        places(matches, {"M1-1": "home", "M1-2": "home"})


def test_a_reset_that_is_not_needed_cannot_have_a_winner():
    matches = double(2, "reset")
    with pytest.raises(ValueError, match="GF-reset is played only if"):
        places(matches, {"W1-1": "home", "GF": "home", "GF-reset": "away"})


def test_pairings_give_the_matches_ready_to_play():
    matches = single(4)

    assert pairings(matches, {}) == {"M1-1": (1, 4), "M1-2": (2, 3)}
    assert pairings(matches, {"M1-1": "away", "M1-2": "home"})["M2-1"] == (4, 2)
