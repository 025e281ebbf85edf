"""A match recorded entry by entry (tournaments.matches.live.recording): every entry checked by
the engine, the score and the Crawford game as the result flow counts them, and checkpoints that
change nothing."""

from __future__ import annotations

import json
import random

import pytest

from games.rules import Double, Drop, NotationError, Resign, Take, Turn, legal_plays
from games.rules.game import Colour
from games.rules.selfplay import random_match, random_roll
from tournaments.matches.live.recording import (
    EntryError,
    First,
    Recording,
    Roll,
    entry_from_json,
    entry_to_json,
    games_of,
    state_json,
)
from tournaments.scoring import MatchRules, match_replay

SHORT_TO_5 = MatchRules(variant="short", length=5)
LONG_TO_5 = MatchRules(variant="long", length=5)


def entries_of(rules: MatchRules, seed: int, *, rolls: bool = True) -> list:
    """The entries of a self-play match: who starts each game, each roll, then its play."""
    entries = []
    for game in random_match(rules.to_variant(), rules.length or 1, random.Random(seed)):
        entries.append(First(game.white))
        for action in game.actions:
            if rolls and isinstance(action, Turn):
                entries.append(Roll(action.dice))
            entries.append(action)
    return entries


@pytest.mark.parametrize("rules", [SHORT_TO_5, LONG_TO_5], ids=["short", "long"])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_self_play_match_entered_entry_by_entry_scores_as_the_result_flow(rules, seed):
    entries = entries_of(rules, seed)
    recording = Recording(rules)
    for entry in entries:
        recording.add(entry)

    games = random_match(rules.to_variant(), 5, random.Random(seed))
    expected = match_replay(rules, games)
    assert recording.finished
    assert (recording.score.score1, recording.score.score2) == (expected.score1, expected.score2)
    assert recording.score.winner == expected.winner
    assert recording.ply == len(entries)
    recorded = games_of(entries, recording.done)
    assert recorded == [(game.white, game.actions) for game in games]


def test_replaying_from_checkpoints_gives_what_replaying_every_entry_gives():
    entries = entries_of(SHORT_TO_5, 4)
    full = Recording(SHORT_TO_5)
    for entry in entries:
        full.add(entry)
    for cut in (0, 1, 17, len(entries) // 2, len(entries) - 1, len(entries)):
        fresh = Recording.replay(SHORT_TO_5, entries[:cut])
        resumed = Recording.replay(SHORT_TO_5, entries[:cut], full.done)
        assert state_json(resumed) == state_json(fresh)
        assert resumed.ply == cut


def test_an_illegal_entry_is_refused_with_where_and_changes_nothing():
    recording = Recording(SHORT_TO_5)
    recording.add(Roll((3, 1)))
    before = state_json(recording)
    with pytest.raises(EntryError) as refused:
        recording.add(Turn.of("31", "24/18"))
    assert refused.value.game == 1 and refused.value.turn == 1 and refused.value.player == 1
    assert "cannot play" in refused.value.reason or "3-1" in refused.value.reason
    assert state_json(recording) == before
    with pytest.raises(EntryError, match="the roll entered is 31, not 64"):
        recording.add(Turn.of("64", "24/18 13/9"))
    with pytest.raises(EntryError, match="dave is offered before the roll"):
        recording.add(Double())
    with pytest.raises(EntryError, match="entered already"):
        recording.add(Roll((5, 2)))
    recording.add(Turn.of("13", "8/5 6/5"))  # the dice in either order
    assert recording.ply == 2 and recording.dice is None


def test_the_opening_roll_of_short_nardy_is_never_a_double_but_long_nardy_may_open_with_one():
    with pytest.raises(EntryError, match="never a double"):
        Recording(SHORT_TO_5).add(Roll((4, 4)))
    long = Recording(LONG_TO_5)
    long.add(Roll((6, 6)))
    assert [str(play) for play in long.plays()] == ["24/18(2)"]


def test_who_moves_first_is_chosen_before_the_games_first_entry_and_alternates_by_default():
    recording = Recording(LONG_TO_5)
    assert recording.white == 1
    recording.add(First(2))
    assert recording.white == 2
    with pytest.raises(EntryError, match="before the game's first roll"):
        recording.add(First(1))
    recording.add(Resign(Colour.WHITE, 2))  # player 2 (White) gives up a mars
    assert recording.score.score1 == 2 and recording.number == 2
    assert recording.white == 1  # the other player starts game 2


def test_dave_taken_raises_the_stake_and_a_drop_ends_the_game_at_the_stake_before():
    recording = Recording(SHORT_TO_5)
    recording.add(Roll((3, 1)))
    recording.add(Turn.of("31", "8/5 6/5"))
    recording.add(Double())  # Black offers
    assert state_json(recording)["offered"] == 2
    assert state_json(recording)["may"]["roll"] is False
    with pytest.raises(EntryError, match="take or drop comes before the roll"):
        recording.add(Roll((6, 5)))
    recording.add(Take())
    state = state_json(recording)
    assert state["stake"] == 2 and state["holder"] == "white" and state["offered"] is None
    recording.add(Roll((6, 5)))
    recording.add(Turn.of("65", "24/13"))
    recording.add(Double())  # White holds dave now and offers 4
    recording.add(Drop())
    assert recording.number == 2
    assert (recording.score.score1, recording.score.score2) == (2, 0)  # Black dropped at 2


def test_no_dave_in_the_crawford_game():
    rules = MatchRules(variant="short", length=3)
    recording = Recording(rules)
    recording.add(Resign(Colour.BLACK, 2))  # player 1 leads 2-0: game 2 is Crawford
    state = state_json(recording)
    assert state["crawford"] is True and state["may"]["double"] is False
    recording.add(Roll((3, 1)))
    recording.add(Turn.of("31", "8/5 6/5"))
    with pytest.raises(EntryError, match="Crawford"):
        recording.add(Double())


def opened(rules: MatchRules, *before: object) -> Recording:
    """A recording after the entries ``before`` and the opening roll of the next game: Black is
    on roll, and both hold dave."""
    recording = Recording(rules)
    for entry in before:
        recording.add(entry)
    recording.add(Roll((3, 1)))
    recording.add(Turn.of("31", "8/5 6/5"))
    return recording


def test_no_dave_in_a_match_to_1_where_it_cannot_change_the_match():
    recording = opened(MatchRules(variant="short", length=1))
    before = state_json(recording)
    assert before["may"]["double"] is False and before["may"]["roll"] is True
    with pytest.raises(EntryError, match="whoever wins this game wins the match") as refused:
        recording.add(Double())
    assert refused.value.reason.code == "dave-cannot-matter" and refused.value.player == 2
    assert state_json(recording) == before


def test_dave_is_offered_only_while_it_can_change_the_match():
    rules = MatchRules(variant="short", length=2)
    assert state_json(opened(rules))["may"]["double"] is True  # 0-0 to 2: each needs 2
    # Player 1 wins game 1 (the Crawford game is game 2), player 2 (White) wins game 2: 1-1.
    level = opened(rules, Resign(Colour.BLACK, 1), Resign(Colour.BLACK, 1))
    assert (level.score.score1, level.score.score2, level.number) == (1, 1, 3)
    assert state_json(level)["may"]["double"] is False


def test_a_dead_dave_at_double_match_point_but_a_live_one_after_the_crawford_game():
    rules = MatchRules(variant="short", length=3)
    # 2-0, the Crawford game won by player 2 (2-1); in game 3 player 1 needs 1, player 2 (on
    # roll) needs 2: the trailer's dave matters (taken, the game is worth the match to both).
    post_crawford = opened(rules, Resign(Colour.BLACK, 2), Resign(Colour.BLACK, 1))
    assert (post_crawford.score.score1, post_crawford.score.score2) == (2, 1)
    assert state_json(post_crawford)["may"]["double"] is True
    post_crawford.add(Double())
    assert state_json(post_crawford)["offered"] == 2
    # Game 3 won by player 2 too: 2-2, both need 1, and no dave can change the match.
    double_match_point = opened(
        rules, Resign(Colour.BLACK, 2), Resign(Colour.BLACK, 1), Resign(Colour.WHITE, 1)
    )
    assert (double_match_point.score.score1, double_match_point.score.score2) == (2, 2)
    assert state_json(double_match_point)["may"]["double"] is False
    with pytest.raises(EntryError, match="changes nothing"):
        double_match_point.add(Double())


def test_a_fixed_number_of_games_counts_every_point_so_dave_always_matters():
    recording = opened(MatchRules(variant="short", games=1))
    assert state_json(recording)["may"]["double"] is True
    recording.add(Double())


def test_the_federation_draw_gives_black_its_last_roll():
    rules = MatchRules(variant="long", games=1, federation_draw=True)
    from games.rules import Position  # noqa: PLC0415

    position = Position.from_points(rules.to_variant(), {1: 1}, {2: 1, 1: 1})
    recording = Recording(rules)
    recording.game.position = position  # a bear-off race: White one checker, Black two
    recording.game.from_start = False
    recording.add(Roll((2, 1)))
    recording.add(Turn.of("21", "1/off"))
    assert not recording.finished and state_json(recording)["last_turn"] is True
    assert state_json(recording)["on_roll"] == "black"
    recording.add(Roll((2, 1)))
    recording.add(Turn.of("21", "2/off 1/off"))
    assert recording.finished and recording.done[-1].outcome.ending.value == "draw"


def test_entries_read_and_written_as_json():
    for entry in (Roll((6, 4)), First(2), Turn.of("64", "24/18 13/9"), Double(), Take(), Drop()):
        assert entry_from_json(entry_to_json(entry)) == entry
    assert entry_from_json({"dice": "64"}) == Roll((6, 4))
    assert entry_from_json({"dice": "64", "play": ""}) == Turn.of("64", "")
    for bad in ({"first": 3}, {"first": "1"}, {"first": 1, "dice": "64"}, {"dice": "77"}, []):
        with pytest.raises(NotationError):
            entry_from_json(bad)


def test_the_state_has_the_contract_fields():
    recording = Recording(SHORT_TO_5)
    recording.add(Roll((6, 4)))
    state = state_json(recording)
    for field in ("ply", "game", "variant", "position", "on_roll", "dice", "legal_plays"):
        assert field in state
    for field in ("score", "stake", "finished"):
        assert field in state
    assert state["dice"] == "64" and state["ply"] == 1 and state["game"] == 1
    assert state["on_roll"] == "white" and state["variant"] == "short"
    plays = legal_plays(recording.game.position, (6, 4))
    assert [play["play"] for play in state["legal_plays"]] == [str(p.play) for p in plays]
    assert state["score"]["home"] == 0 and state["finished"] is False


def test_a_match_entered_by_random_legal_and_illegal_entries_keeps_only_the_legal():
    """Random entries, legal and not: the refused ones change nothing, and what is kept replays
    to the same state from scratch."""
    rng = random.Random(11)
    rules = MatchRules(variant="short", length=3)
    recording = Recording(rules)
    kept = []
    for _ in range(3000):
        if recording.finished:
            break
        candidates = [Roll(random_roll(rng)), Double(), Take(), Drop(), First(rng.randint(1, 2))]
        if recording.dice is not None:
            plays = recording.plays()
            candidates += [Turn(recording.dice, rng.choice(plays).play)] * 6
            candidates.append(Turn.of(recording.dice, "24/1"))
        entry = rng.choice(candidates)
        before = state_json(recording)
        try:
            recording.add(entry)
        except EntryError:
            assert state_json(recording) == before
        else:
            kept.append(entry)
    assert recording.finished
    assert state_json(Recording.replay(rules, kept)) == state_json(recording)


@pytest.mark.parametrize(
    ("rules", "seed"), [(SHORT_TO_5, 4), (LONG_TO_5, 5)], ids=["short", "long"]
)
def test_going_on_from_a_checkpoint_is_going_on_from_every_entry(rules, seed):
    """After any entry, the recording taken up from its checkpoint (the JSON a write stores)
    shows the same state and takes the next entry, legal or not, exactly as the one that saw
    every entry."""
    entries = entries_of(rules, seed)
    recording = Recording(rules)
    for index, entry in enumerate(entries):
        if index % 3 == 0:
            done = list(recording.done)
            stored = json.loads(json.dumps(recording.checkpoint()))  # as the database keeps it
            resumed = Recording.from_checkpoint(rules, done, stored)
            assert state_json(resumed) == state_json(recording)
            # A double roll: refused at a game's opening throw, or once the dice are entered.
            assert outcome_of(Recording.from_checkpoint(rules, done, stored), Roll((6, 6))) == (
                outcome_of(Recording.replay(rules, entries[:index], done), Roll((6, 6)))
            )
            resumed.add(entry)
            recording.add(entry)
            assert state_json(resumed) == state_json(recording)
            again = Recording.from_checkpoint(rules, list(resumed.done), resumed.checkpoint())
            assert state_json(again) == state_json(recording)
        else:
            recording.add(entry)
    assert recording.finished


def outcome_of(recording: Recording, entry) -> str:
    try:
        recording.add(entry)
    except EntryError as error:
        return f"refused: {error}"
    return json.dumps(state_json(recording), sort_keys=True)


# --- The clock's side of a recording: whose turn it is, and a flag fall ------------------------


def test_whose_clock_runs_follows_the_turn_the_dave_answer_and_stands_between_games():
    recording = Recording(SHORT_TO_5)
    assert recording.to_act is None  # before the first entry: no clock runs
    recording.add(First(2))
    assert recording.to_act == 2  # White moves first, player 2
    recording.add(Roll((3, 1)))
    assert recording.to_act == 2  # a roll is the same turn
    recording.add(Turn((3, 1), legal_plays(recording.game.position, (3, 1))[0].play))
    assert recording.to_act == 1
    recording.add(Double())
    assert recording.to_act == 2  # the answer is the other player's
    recording.add(Take())
    assert recording.to_act == 1  # back to the doubler, to roll
    recording.add(Resign(Colour.BLACK, 1))  # player 1 (Black) resigns game 1
    assert recording.number == 2 and recording.to_act is None  # between games
    recording.add(First(1))
    assert recording.to_act == 1


def test_a_flag_fall_ends_the_match_with_the_game_on_the_board_unfinished():
    recording = Recording(SHORT_TO_5)
    recording.add(First(1))
    recording.add(Resign(Colour.BLACK, 1))  # player 1 wins game 1: 1-0
    recording.add(First(1))
    recording.add(Roll((6, 5)))
    play = Turn((6, 5), legal_plays(recording.game.position, (6, 5))[0].play)
    recording.add(play)
    recording.add(entry_from_json({"flag": "home"}))
    assert recording.finished and recording.lost_on_time == 1 and recording.winner == 2
    assert recording.to_act is None
    state = state_json(recording)
    assert state["finished"] and state["winner"] == 2 and state["lost_on_time"] == "home"
    with pytest.raises(EntryError, match="already over"):
        recording.add(Roll((1, 2)))
    entries = [First(1), Resign(Colour.BLACK, 1), First(1), Roll((6, 5)), play]
    entries.append(entry_from_json({"flag": "home"}))
    assert games_of(entries, recording.done, on_board=recording.white) == [
        (1, (Resign(Colour.BLACK, 1),)),
        (1, (play,)),
    ]
    again = Recording.from_checkpoint(SHORT_TO_5, recording.done, recording.checkpoint())
    assert again.lost_on_time == 1 and again.finished


@pytest.mark.parametrize("data", [{"flag": "white"}, {"flag": 1}, {"flag": "home", "x": 1}])
def test_a_flag_fall_names_home_or_away(data):
    with pytest.raises(NotationError, match="flag fall"):
        entry_from_json(data)
    assert entry_to_json(entry_from_json({"flag": "away"})) == {"flag": "away"}
