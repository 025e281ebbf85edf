"""Match scores from games, typed scores, and the tournament points of a match (pure)."""

from decimal import Decimal
from fractions import Fraction

import pytest

from games.rules import (
    Colour,
    Double,
    Drop,
    Ending,
    GameError,
    LongNardy,
    MatchGame,
    Outcome,
    Resign,
    ShortNardy,
    Take,
)
from tournaments.scoring import (
    MatchPoints,
    MatchRules,
    MatchScoreResult,
    PlayedGame,
    as_fraction,
    match_points,
    match_replay,
    match_score,
    score_from_typed,
    written,
)

WHITE, BLACK = Colour.WHITE, Colour.BLACK
HALF = Fraction(1, 2)
won, drawn = PlayedGame.won, PlayedGame.drawn


def scores(result: MatchScoreResult) -> tuple[Fraction, Fraction]:
    return result.score1, result.score2


# --- Match rules -------------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "games"), [(None, None), (5, 3)])
def test_a_match_is_to_points_or_a_fixed_number_of_games_not_both(length, games):
    with pytest.raises(ValueError, match="exactly one of length and games"):
        MatchRules(length=length, games=games)


def test_match_rules_give_the_engine_variant_with_their_switches():
    short = MatchRules(variant="short", length=7, koks=True, progression="arithmetic").to_variant()
    assert isinstance(short, ShortNardy) and short.koks and short.max_value == 3
    assert short.dave.progression == "arithmetic"
    long = MatchRules(length=5, federation_draw=True, max_stake=8).to_variant()
    assert isinstance(long, LongNardy) and long.federation_draw and long.dave.max_stake == 8


def test_switches_of_the_other_game_are_ignored():
    # As Tournament.game_variant does: koks means nothing in Long Nardy, nor draws in Short.
    assert MatchRules(length=5, koks=True).to_variant().max_value == 2
    assert not MatchRules(variant="short", length=5, federation_draw=True).draws


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        ({"length": 0}, "at least 1 point"),
        ({"games": 0}, "at least 1 game"),
        ({"length": 5, "draw_counts": "two"}, "'half' or 'one'"),
        ({"length": 5, "progression": "fibonacci"}, "unknown dave progression"),
        ({"length": 5, "max_stake": 0}, "max_stake must be at least 1"),
        ({"variant": "tavla", "length": 5}, "unknown variant"),
    ],
)
def test_bad_match_rules_are_refused(rules, message):
    with pytest.raises(ValueError, match=message):
        MatchRules(**rules)


# --- A match to N points -----------------------------------------------------------------------


def test_a_match_to_five_with_the_crawford_game():
    games = [
        won(1, value=2),  # 2-0
        won(2, value=2),  # 2-2
        won(1, value=2),  # 4-2: player 1 reached N-1 = 4, so game 4 is the Crawford game
        won(2),  # Crawford game, stake 1: 4-3
        won(2, stake=2),  # dave is back after the Crawford game: 4-3 + 1×2 = 4-5
    ]
    result = match_score(MatchRules(length=5), games)
    assert scores(result) == (4, 5)
    assert (result.winner, result.crawford_game, result.games_counted) == (2, 4, 5)
    assert result.finished


def test_an_unfinished_match_has_no_winner_yet():
    result = match_score(MatchRules(length=5), [won(1, value=2), won(2)])
    assert scores(result) == (2, 1)
    assert (result.winner, result.finished, result.crawford_game) == (None, False, None)


def test_dave_in_the_crawford_game_is_refused():
    games = [won(1, value=2), won(2, stake=2)]  # 2-0 in a match to 3: game 2 is Crawford
    with pytest.raises(ValueError, match="game 2 is the Crawford game: no dave"):
        match_score(MatchRules(length=3), games)
    # Without the Crawford rule (or without dave at all) there is no Crawford game.
    result = match_score(MatchRules(length=3, crawford=False), games)
    assert (scores(result), result.crawford_game) == ((2, 2), None)
    assert match_score(MatchRules(length=3, dave=False), games[:1]).crawford_game is None


def test_a_game_after_the_match_is_over_is_refused():
    with pytest.raises(ValueError, match="game 3: the match is already over"):
        match_score(MatchRules(length=3), [won(1, value=2), won(1), won(2)])


def test_koks_times_the_stake():
    rules = MatchRules(variant="short", length=11, koks=True)
    # Koks (3) at stake 4 after two daves: 3 × 4 = 12 points, the match to 11 is over.
    result = match_score(rules, [won(2, value=3, stake=4)])
    assert scores(result) == (0, 12)
    assert (result.winner, result.finished) == (2, True)


@pytest.mark.parametrize(
    ("rules", "game", "message"),
    [
        (MatchRules(variant="short", length=5), won(1, value=3), "worth 3: a game is worth 1"),
        (MatchRules(length=5), won(1, value=3), r"worth 1 \(oyn\), 2 \(mars\)$"),
        (MatchRules(length=5), won(1, stake=3), "which the geometric dave skips"),
        (MatchRules(length=5, max_stake=4), won(1, stake=8), "above the highest stake 4"),
        (MatchRules(length=5, dave=False), won(1, stake=2), "dave is not played"),
        (MatchRules(length=5), won(1, 2, ending=Ending.DROP), "declined dave loses one oyn"),
        (MatchRules(length=5), drawn(), "only under the Federation draw rule"),
        (MatchRules(variant="short", length=5, federation_draw=True), drawn(), "Federation"),
    ],
)
def test_outcomes_the_rules_cannot_give_are_refused(rules, game, message):
    with pytest.raises(ValueError, match=message):
        match_score(rules, [game])


@pytest.mark.parametrize(
    ("rules", "top", "most"),
    [
        (MatchRules(length=5, dave=False), 1, 2),
        (MatchRules(length=5), 64, 128),  # no cap named: the cube's highest face, mars at 64
        (MatchRules(length=5, max_stake=6), 4, 8),  # 1, 2, 4 (8 > 6); mars at 4
        (MatchRules(length=5, max_stake=5, progression="arithmetic"), 5, 10),
        (MatchRules(variant="short", length=5, koks=True, max_stake=2), 2, 6),  # koks at 2
    ],
)
def test_the_highest_stake_and_the_most_one_game_brings(rules, top, most):
    assert (rules.top_stake(), rules.most_for_a_game()) == (top, most)


def test_an_arithmetic_dave_reaches_every_stake():
    result = match_score(MatchRules(length=7, progression="arithmetic"), [won(1, value=2, stake=3)])
    assert scores(result) == (6, 0)  # mars at stake 3 (1 → 2 → 3): 2 × 3


# --- Drawn games (Federation rule) -------------------------------------------------------------


@pytest.mark.parametrize(
    ("draw_counts", "expected"),
    [
        # 2-0, ½-½ → 2½-½, 0-1 → 2½-1½, ½-½ → 3-2
        ("half", (3, 2)),
        # 2-0, 1-1 → 3-1, 0-1 → 3-2, 1-1 → 4-3
        ("one", (4, 3)),
    ],
)
def test_a_fixed_number_of_games_with_draws(draw_counts, expected):
    rules = MatchRules(games=4, federation_draw=True, draw_counts=draw_counts)
    result = match_score(rules, [won(1, value=2), drawn(), won(2), drawn()])
    assert scores(result) == expected
    assert (result.winner, result.finished, result.drawn) == (1, True, False)


@pytest.mark.parametrize(("draw_counts", "each"), [("half", HALF), ("one", 1)])
def test_a_fixed_number_of_games_can_end_level_and_the_match_is_drawn(draw_counts, each):
    rules = MatchRules(games=3, federation_draw=True, draw_counts=draw_counts)
    # 1-0, then a draw (each + each), then 0-1: level.
    result = match_score(rules, [won(1), drawn(), won(2)])
    assert scores(result) == (1 + each, 1 + each)
    assert (result.winner, result.finished, result.drawn) == (None, True, True)


def test_a_game_beyond_the_fixed_number_is_refused():
    with pytest.raises(ValueError, match="game 3: the match has only 2 games"):
        match_score(MatchRules(games=2), [won(1), won(2), won(1)])


def test_a_draw_worth_half_can_end_a_match_to_n_when_it_takes_one_player_to_n():
    rules = MatchRules(length=3, federation_draw=True)
    # 2-0: player 1 at N-1, game 2 is Crawford; drawn: 2½-½; drawn: 3-1, player 1 reached 3.
    result = match_score(rules, [won(1, value=2), drawn(), drawn()])
    assert scores(result) == (3, 1)
    assert (result.winner, result.finished, result.crawford_game) == (1, True, 2)


def test_a_draw_that_brings_both_players_to_n_level_does_not_end_the_match():
    rules = MatchRules(length=3, federation_draw=True, draw_counts="one")
    games = [won(1), won(2), drawn(), drawn()]  # 1-0, 1-1, 2-2 (both at N-1), 3-3
    level = match_score(rules, games)
    assert scores(level) == (3, 3)
    assert (level.finished, level.winner) == (False, None)
    # Game 4 was the Crawford game (after both reached 2 = N-1); the next game won decides.
    result = match_score(rules, [*games, won(2)])
    assert scores(result) == (3, 4)
    assert (result.winner, result.finished, result.crawford_game) == (2, True, 4)


def test_half_points_past_n_minus_one_start_the_crawford_game():
    rules = MatchRules(length=5, federation_draw=True)
    # 2-0, 3-0, drawn 3½-½ (3½ is short of N-1 = 4: no Crawford yet), 4½-½: past 4, so game 5
    # is the Crawford game.
    games = [won(1, value=2), won(1), drawn(), won(1)]
    result = match_score(rules, [*games, won(2)])
    assert scores(result) == (Fraction(9, 2), Fraction(3, 2))
    assert result.crawford_game == 5
    with pytest.raises(ValueError, match="game 5 is the Crawford game"):
        match_score(rules, [*games, won(2, stake=2)])


def test_a_drawn_game_is_refused_in_a_match_without_the_federation_rule():
    with pytest.raises(ValueError, match="game 1 is drawn"):
        match_score(MatchRules(games=2), [drawn()])


def test_an_unfinished_game_is_refused():
    game = PlayedGame(1, Outcome(None, Ending.UNFINISHED, 0, 1))
    with pytest.raises(ValueError, match="game 1 is unfinished"):
        match_score(MatchRules(games=2), [game])


# --- Replaying the records -----------------------------------------------------------------------


def resigned(white_player, loser, value=1):
    return MatchGame(white_player, (Resign(loser, value),))


def test_records_are_replayed_with_the_crawford_game_without_dave():
    games = [
        resigned(1, BLACK, 2),  # player 1 (White) wins mars: 2-0, game 2 is Crawford
        resigned(2, BLACK),  # player 2 (White) wins oyn: 2-1
        MatchGame(1, (Double(), Take(), Resign(BLACK, 1))),  # player 1 wins 1 × 2: 4-1
    ]
    result = match_replay(MatchRules(length=3), games)
    assert scores(result) == (4, 1)
    assert (result.winner, result.crawford_game, result.finished) == (1, 2, True)


def test_dave_in_a_replayed_crawford_game_is_a_game_error_with_its_number():
    games = [resigned(1, BLACK, 2), MatchGame(2, (Double(), Drop()))]
    with pytest.raises(GameError, match="no dave in the Crawford game") as caught:
        match_replay(MatchRules(length=3), games)
    assert caught.value.game == 2


def test_an_unfinished_record_is_refused():
    with pytest.raises(ValueError, match="game 2 is unfinished"):
        match_replay(MatchRules(games=2), [resigned(1, BLACK), MatchGame(2, ())])


# --- Scores typed by hand ------------------------------------------------------------------------

TO_5 = MatchRules(length=5)
TO_5_NO_DAVE = MatchRules(length=5, dave=False)
TO_5_HALF = MatchRules(length=5, federation_draw=True, dave=False)
TO_5_ONE = MatchRules(length=5, federation_draw=True, draw_counts="one", dave=False)
THREE_GAMES = MatchRules(games=3, dave=False)
THREE_GAMES_HALF = MatchRules(games=3, federation_draw=True, dave=False)


@pytest.mark.parametrize(
    ("rules", "one", "two", "message"),
    [
        (TO_5, -1, 5, "a score cannot be negative"),
        (TO_5, 4, 3, "neither player reached 5"),
        (TO_5, 5, 5, "both players reached 5"),
        (TO_5, 6, 5, "both players reached 5"),
        (TO_5, "2.5", 5, "scores are whole numbers unless drawn games count ½–½"),
        (TO_5_ONE, "5.5", 2, "scores are whole numbers"),  # draws worth 1 give no halves
        # Without dave a game brings at most 2 (mars), and the winner had at most 4 before it.
        (TO_5_NO_DAVE, 7, 0, "7 is out of reach"),
        # Stakes capped at 2: a game brings at most mars × 2 = 4, from at most 4: 8 at most.
        (MatchRules(length=5, max_stake=2), 9, 0, "one game brings at most 4"),
        (TO_5_HALF, "5.5", 3, "both scores are whole or both end in ½"),
        (TO_5_HALF, "4.5", "4.5", "neither player reached 5"),
        (TO_5_HALF, 5, 5, "cannot end level"),
        (TO_5_HALF, "5.25", "1.25", "whole or ends in ½"),
        # Both at 5 or more: drawn games took them to 5 level, then one game (at most 2) decided.
        (TO_5_ONE, 8, 5, "a game brings at most 2"),
        # Each game gives out at least 1 point in all: 3 games, at least 3.
        (THREE_GAMES, 1, 0, "too few points for 3 games"),
        (THREE_GAMES_HALF, "1.5", "0.5", "too few points for 3 games"),
        # 3 games of at most 2 (mars, no dave) give out at most 6.
        (THREE_GAMES, 7, 0, "needs more than 3 games"),
        # 5 needs 3 games won (2 + 2 + 1), 1 needs 1 more: 4 games.
        (THREE_GAMES, 5, 1, "cannot come out of 3 games: a game won brings its winner 1 to 2"),
        # One draw leaves 3-1 for two games won: 3 needs both; three draws leave 2-0 for none.
        (THREE_GAMES_HALF, "3.5", "1.5", "a drawn game ½ to each"),
        (MatchRules(games=1), 2, 1, "cannot come out of 1 games: .* 1 to 128 points"),
    ],
)
def test_impossible_typed_scores_are_refused_with_the_reason(rules, one, two, message):
    with pytest.raises(ValueError, match=message):
        score_from_typed(rules, one, two)


@pytest.mark.parametrize(
    ("rules", "one", "two", "winner"),
    [
        (TO_5, 3, 5, 2),
        (TO_5, 16, 2, 1),  # dave without a cap: one game can bring any number of points
        (TO_5_NO_DAVE, 6, 4, 1),  # 4-4, then mars
        (MatchRules(length=5, max_stake=2), 8, 3, 1),  # 4-3, then mars at stake 2
        (TO_5_HALF, "5.5", "2.5", 1),  # a draw, then won games
        (TO_5_HALF, 5, 4, 1),  # 4½-3½, then a draw: 5-4
        (TO_5_ONE, 6, 5, 1),  # 4-4, a draw 5-5, then oyn
        (THREE_GAMES, 2, 2, None),  # mars and two oyns: a drawn match
        (THREE_GAMES, 6, 0, 1),
        (THREE_GAMES_HALF, "2.5", "0.5", 1),  # a draw and two oyns
    ],
)
def test_possible_typed_scores_are_accepted(rules, one, two, winner):
    result = score_from_typed(rules, one, two)
    assert scores(result) == (as_fraction(one), as_fraction(two))
    assert (result.winner, result.finished, result.crawford_game) == (winner, True, None)
    assert result.games_counted == rules.games


# --- Tournament points -------------------------------------------------------------------------


def test_match_points_of_a_won_a_drawn_and_an_unfinished_match():
    points = MatchPoints()
    assert match_points(score_from_typed(TO_5, 5, 3), points) == (1, 0)
    assert match_points(score_from_typed(TO_5, 1, 5), MatchPoints(win=3, draw=1)) == (0, 3)
    assert match_points(score_from_typed(THREE_GAMES, 2, 2), points) == (HALF, HALF)
    unfinished = match_score(TO_5, [won(1)])
    with pytest.raises(ValueError, match="unfinished match"):
        match_points(unfinished, points)


def test_match_points_are_exact_whatever_number_type_comes_in():
    from_floats = MatchPoints(win=1.0, draw=0.5, loss=0.0, bye=1.0)
    assert from_floats == MatchPoints() == MatchPoints("1", "0.5", 0, Decimal("1.0"))
    assert MatchPoints(draw=0.1).draw == Fraction(1, 10)


def test_match_points_must_rank_a_win_above_a_loss():
    with pytest.raises(ValueError, match="win ≥ draw ≥ loss"):
        MatchPoints(win=0, loss=1)
    with pytest.raises(ValueError, match="is not a number"):
        MatchPoints(draw="a half")


def test_scores_are_written_with_halves():
    assert [written(Fraction(n, 2)) for n in (0, 1, 5, 6)] == ["0", "½", "2½", "3"]
