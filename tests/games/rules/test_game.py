"""Games and matches replayed to outcomes: bear-off values, dave, resignation, draws, Crawford."""

import json
import random

import pytest

from games.rules import (
    Colour,
    DaveRules,
    Double,
    Drop,
    Ending,
    GameError,
    LongNardy,
    MatchGame,
    NotationError,
    Position,
    Resign,
    ShortNardy,
    Take,
    Turn,
    action_from_json,
    action_to_json,
    game_value,
    replay_game,
    replay_match,
)
from games.rules.selfplay import random_turns

WHITE, BLACK = Colour.WHITE, Colour.BLACK


def self_played(variant, seed):
    return [turn for _, turn in random_turns(variant, random.Random(seed))]


@pytest.mark.parametrize("variant", [LongNardy(), ShortNardy(), ShortNardy(koks=True)])
@pytest.mark.parametrize("seed", range(5))
def test_a_self_played_game_ends_with_a_bear_off(variant, seed):
    replay = replay_game(variant, self_played(variant, seed))
    outcome = replay.outcome
    final = replay.positions[-1]
    assert outcome.ending is Ending.BEAR_OFF
    assert final.side(outcome.winner)[0] == 15
    assert outcome.value == game_value(variant, final.side(outcome.winner.other))
    assert outcome.points == outcome.value


def test_game_values_oyn_mars_koks():
    long, short, koks = LongNardy(), ShortNardy(), ShortNardy(koks=True)
    assert game_value(long, (1, *[0] * 23, 14, 0)) == 1
    assert game_value(long, (0, *[0] * 23, 15, 0)) == 2
    in_winners_home = (0, 10, *[0] * 17, 5, 0, 0, 0, 0, 0, 0)
    assert game_value(short, in_winners_home) == 2
    assert game_value(koks, in_winners_home) == 3
    on_bar = (0, 14, *[0] * 23, 1)
    assert game_value(koks, on_bar) == 3
    assert game_value(koks, (0, 15, *[0] * 24)) == 2


def test_an_unfinished_record_has_no_winner():
    turns = self_played(LongNardy(), 1)[:10]
    outcome = replay_game(LongNardy(), turns).outcome
    assert (outcome.winner, outcome.ending, outcome.points) == (None, Ending.UNFINISHED, 0)


def test_an_illegal_play_is_reported_with_its_turn_and_side():
    turns = self_played(LongNardy(), 2)[:4]
    turns[2] = Turn.of(turns[2].dice, "20/1")
    with pytest.raises(GameError) as caught:
        replay_game(LongNardy(), turns)
    error = caught.value
    assert (error.turn, error.side, error.play, error.action) == (3, WHITE, "20/1", 2)
    assert error.reason
    assert str(error).startswith("turn 3, white '20/1': ")


def test_dave_take_raises_the_stake_and_passes_the_right():
    turns = self_played(LongNardy(), 3)
    actions = [Double(), Take(), turns[0], Double(), Drop()]
    outcome = replay_game(LongNardy(), actions).outcome
    # White offered 2, Black took; Black offered 4, White dropped: Black wins 1 x 2.
    assert (outcome.winner, outcome.ending, outcome.stake, outcome.points) == (
        BLACK,
        Ending.DROP,
        2,
        2,
    )


def test_only_the_holder_of_the_right_may_offer_dave():
    turns = self_played(LongNardy(), 3)
    actions = [Double(), Take(), turns[0], turns[1], Double()]
    with pytest.raises(GameError, match="white does not hold the right to offer dave") as caught:
        replay_game(LongNardy(), actions)
    assert caught.value.turn == 3


def test_arithmetic_progression_and_the_stake_cap():
    arithmetic = LongNardy(dave=DaveRules(progression="arithmetic"))
    turns = self_played(arithmetic, 4)
    actions = [Double(), Take(), turns[0], Double(), Take(), Resign(WHITE, 2)]
    outcome = replay_game(arithmetic, actions).outcome
    assert (outcome.stake, outcome.value, outcome.points, outcome.winner) == (3, 2, 6, BLACK)
    capped = LongNardy(dave=DaveRules(max_stake=2))
    with pytest.raises(GameError, match="the stake may not exceed 2"):
        replay_game(capped, [Double(), Take(), turns[0], Double()])


def test_dave_must_be_answered_before_the_roll():
    turns = self_played(LongNardy(), 5)
    with pytest.raises(GameError, match="take or drop comes before the roll"):
        replay_game(LongNardy(), [Double(), turns[0]])
    with pytest.raises(GameError, match="no dave was offered"):
        replay_game(LongNardy(), [Take()])
    with pytest.raises(GameError, match="dave is not played"):
        replay_game(LongNardy(dave=DaveRules(enabled=False)), [Double()])


def test_resignation_concedes_the_value_at_the_stake():
    outcome = replay_game(ShortNardy(koks=True), [Resign(WHITE, 3)]).outcome
    assert (outcome.winner, outcome.ending, outcome.points) == (BLACK, Ending.RESIGN, 3)
    with pytest.raises(GameError, match="concedes 1 to 2 game values, not 3"):
        replay_game(LongNardy(), [Resign(WHITE, 3)])


def test_nothing_may_follow_the_end_of_a_game():
    with pytest.raises(GameError, match="the game is already over"):
        replay_game(LongNardy(), [Resign(WHITE, 1), Double()])


def test_short_nardy_never_opens_with_a_double():
    with pytest.raises(GameError, match="never a double"):
        replay_game(ShortNardy(), [Turn.of("33", "8/5(2) 6/3(2)")])


# The Federation draw rule: White bears off its last checker, Black has one last turn.
FEDERATION = LongNardy(federation_draw=True)


def endgame(variant, black):
    return Position.from_points(variant, {1: 1}, black)


def test_federation_draw_when_black_finishes_in_its_last_turn():
    actions = [Turn.of("21", "1/off"), Turn.of("21", "2/off 1/off")]
    outcome = replay_game(FEDERATION, actions, start=endgame(FEDERATION, {2: 1, 1: 1})).outcome
    assert (outcome.winner, outcome.ending, outcome.points) == (None, Ending.DRAW, 0)


def test_without_the_federation_rule_white_wins_at_once():
    start = endgame(LongNardy(), {2: 1, 1: 1})
    actions = [Turn.of("21", "1/off")]
    assert replay_game(LongNardy(), actions, start=start).outcome.winner is WHITE
    with pytest.raises(GameError, match="the game is already over"):
        replay_game(LongNardy(), [*actions, Turn.of("21", "2/off 1/off")], start=start)


def test_federation_last_turn_that_does_not_finish_leaves_white_the_winner():
    # Black had borne off nothing; it bears off four in its last turn, so it loses oyn, not mars.
    start = endgame(FEDERATION, {6: 15})
    actions = [Turn.of("21", "1/off"), Turn.of("66", "6/off(4)")]
    outcome = replay_game(FEDERATION, actions, start=start).outcome
    assert (outcome.winner, outcome.ending, outcome.value) == (WHITE, Ending.BEAR_OFF, 1)
    # Without the last turn in the record: Black could not finish, White wins mars.
    outcome = replay_game(FEDERATION, actions[:1], start=start).outcome
    assert (outcome.winner, outcome.value) == (WHITE, 2)


def test_federation_last_turn_missing_when_black_could_still_draw_is_unfinished():
    start = endgame(FEDERATION, {2: 1, 1: 1})
    outcome = replay_game(FEDERATION, [Turn.of("21", "1/off")], start=start).outcome
    assert outcome.ending is Ending.UNFINISHED


def test_black_finishing_first_ends_the_game_at_once():
    start = Position.from_points(FEDERATION, {3: 1, 1: 1}, {1: 1}, turn=BLACK)
    outcome = replay_game(FEDERATION, [Turn.of("31", "3/off 1/off")], start=start).outcome
    assert outcome.ending is Ending.BEAR_OFF and outcome.winner is BLACK


def resigned(white_player, loser, value):
    return MatchGame(white_player, (Resign(loser, value),))


def test_a_match_to_five_with_the_crawford_game():
    games = [
        resigned(1, BLACK, 2),  # player 1 (White) wins 2: 2-0
        resigned(2, BLACK, 2),  # player 2 (White) wins 2: 2-2
        resigned(1, BLACK, 2),  # player 1 wins 2: 4-2, the next game is Crawford
        resigned(1, WHITE, 1),  # Crawford game, player 2 wins 1: 4-3
        MatchGame(2, (Double(), Take(), Resign(BLACK, 1))),  # post-Crawford dave: 4-5
    ]
    result = replay_match(LongNardy(), games, length=5)
    assert result.score == (4, 5)
    assert result.winner == 2
    assert result.crawford_game == 4
    assert [outcome.points for outcome in result.outcomes] == [2, 2, 2, 1, 2]


def test_dave_in_the_crawford_game_is_refused_with_the_game_number():
    games = [resigned(1, BLACK, 2), MatchGame(2, (Double(),))]
    with pytest.raises(GameError, match="no dave in the Crawford game") as caught:
        replay_match(LongNardy(), games, length=3)
    assert caught.value.game == 2
    assert str(caught.value).startswith("game 2, turn 1")
    without_crawford = [games[0], MatchGame(2, (Double(), Drop()))]
    result = replay_match(LongNardy(), without_crawford, length=3, crawford=False)
    assert result.score == (2, 1)


def test_games_after_the_match_is_won_are_refused():
    games = [resigned(1, BLACK, 2), resigned(1, BLACK, 1), resigned(1, BLACK, 1)]
    with pytest.raises(GameError, match="the match is already over"):
        replay_match(LongNardy(), games, length=3)


def test_a_fixed_number_of_games_counts_every_game():
    games = [resigned(1, BLACK, 2), resigned(2, BLACK, 1), resigned(1, WHITE, 1)]
    result = replay_match(LongNardy(), games, length=None)
    assert result.score == (2, 2)
    assert result.winner is None
    assert result.crawford_game is None


def test_actions_travel_as_json_and_back():
    actions = [
        Turn.of("31", "8/5 6/5"),
        Double(),
        Take(),
        Turn.of("64", ""),
        Drop(),
        Resign(Colour.BLACK, 2),
    ]
    as_json = [action_to_json(action) for action in actions]
    assert as_json[0] == {"dice": "31", "play": "8/5 6/5"}
    assert as_json[-1] == {"resign": "black", "value": 2}
    assert [action_from_json(data) for data in json.loads(json.dumps(as_json))] == actions


@pytest.mark.parametrize(
    "data",
    [[], {"dice": "77"}, {"dice": "64", "play": 5}, {"resign": "red"}, {"jump": True}],
)
def test_a_malformed_action_is_a_notation_error(data):
    with pytest.raises(NotationError):
        action_from_json(data)
