"""Writes ``cube_match.mat``, the recorded Long Nardy match with dave offers that
``test_cube_analysis.py`` analyses, and the site's tests upload and analyse
(``tests/tournaments/analysis/test_long_dave_analysis.py``, the browser's
``test_long_analysis_in_a_browser.py``) (run once; the file is kept):

    .venv/bin/python tests/games/engine/cube_match.py

Three games of an 11-point match, the engine playing both sides at 0-ply with seeded dice (a
game that meets no such turn is played again). In each a turn of a pure bear-off where both
sides have borne off a checker (the bear-off database decides it, no mars is left) is staged:
in games 1 and 2, the first where the side on roll's dave decision is "double-drop" with at
least ``CLEAR`` chances to win: game 1 offers and the other side drops (right), game 2 offers
and the other side takes (wrong); in game 3, the first where the offer is right and rolling on
is an error two rolls ahead, as the analysis judges a bear-off: no offer is made (a missed
double). Then the engine plays on, offering no dave, until the
match is over: the site records only a finished match.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games.engine.analysis import ERROR  # noqa: E402
from games.engine.cube import MatchState, cube_efficiency, decide, decide_at  # noqa: E402
from games.engine.search import Engine, engine  # noqa: E402
from games.rules.game import Action, Double, Drop, MatchGame, Take, Turn, replay_game  # noqa: E402
from games.rules.matfile import MatchRecord, match_record, write_match  # noqa: E402
from games.rules.position import CHECKERS, OFF, Position  # noqa: E402
from games.rules.variants import LongNardy  # noqa: E402

FILE = Path(__file__).with_name("cube_match.mat")
LENGTH = 11
SEED = 49
CLEAR = 0.9


def pure_bear_off(position: Position) -> bool:
    """Both sides in their homes and both with a checker off: the database decides it all."""
    sides = (position.mover, position.opponent)
    return all(not any(side[7:25]) and side[OFF] > 0 for side in sides)


def game(
    answer: str | None, score: tuple[int, int], rng: random.Random
) -> tuple[Action, ...] | None:
    """A self-play game; at the first clear double-drop of a pure bear-off the side on roll
    offers and ``answer`` is made ("take", "drop"), or (None) it rolls on. None: the game met
    none (a mars ended it first)."""
    found = engine()
    position = Position.initial(LongNardy())
    actions: list[Action] = []
    white_on_roll, done = True, False
    while True:
        if not done and pure_bear_off(position):
            own, other = score if white_on_roll else score[::-1]  # player 1 plays White
            state = MatchState(LENGTH, (own, other))
            probabilities = found.evaluate(position, 0)
            decision = decide(probabilities, state, efficiency=cube_efficiency(position))
            staged = (
                decision.action == "double-drop" and probabilities.win >= CLEAR
                if answer is not None
                else _costly_to_miss(found, position, state)
            )
            if staged:
                done = True
                if answer == "drop":
                    return (*actions, Double(), Drop())
                if answer == "take":
                    actions += [Double(), Take()]
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        played = found.best(position, dice, plies=0).play
        actions.append(Turn(dice, played.play))
        position = played.position
        white_on_roll = not white_on_roll
        if position.opponent[OFF] == CHECKERS:
            return tuple(actions) if done else None


def _costly_to_miss(found: Engine, position: Position, state: MatchState) -> bool:
    """Whether the offer is right and rolling on instead is an error (loses more than the
    analysis' ``ERROR``), two rolls ahead, as the analysis judges a bear-off."""
    decision = decide_at(found, position, state, 2)
    offered = decision.double_mwc
    return (
        decision.action in ("double-take", "double-drop")
        and offered is not None
        and decision.emg_loss(offered - decision.no_double_mwc) > ERROR
    )


def staged_misses(record: MatchRecord, found: Engine) -> list[tuple[int, int, int]]:
    """The turns of game 3 where the side on roll should have offered and rolling on is an
    error: (ply, move, side) each, from the record alone (its score line and colours)."""
    game = record.games[2]
    replay = replay_game(record.variant, game.actions)
    turns = [i for i, action in enumerate(game.actions, start=1) if isinstance(action, Turn)]
    found_turns = []
    for move, ply in enumerate(turns):
        position = replay.positions[move]
        side = game.player(position.turn)
        state = MatchState(LENGTH, (game.score[side - 1], game.score[2 - side]))
        if pure_bear_off(position) and _costly_to_miss(found, position, state):
            found_turns.append((ply, move, side))
    return found_turns


def played_on(rng: random.Random) -> tuple[Action, ...]:
    """A self-play game to its end, with no dave offered."""
    found = engine()
    position = Position.initial(LongNardy())
    actions: list[Action] = []
    while position.opponent[OFF] < CHECKERS:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        played = found.best(position, dice, plies=0).play
        actions.append(Turn(dice, played.play))
        position = played.position
    return tuple(actions)


def main() -> None:
    rng = random.Random(SEED)
    games: list[MatchGame] = []
    score = (0, 0)
    answers: tuple[str | None, ...] = ("drop", "take", None)
    while max(score) < LENGTH:
        if len(games) < len(answers):
            actions = None
            while actions is None:
                actions = game(answers[len(games)], score, rng)
        else:
            actions = played_on(rng)
        games.append(MatchGame(1, actions))
        record = match_record(LongNardy(), ("Home", "Away"), games, length=LENGTH)
        last = record.games[-1]
        assert last.claim is not None
        points = [*score]
        points[last.claim.player - 1] += last.claim.points
        score = (points[0], points[1])
    FILE.write_text(write_match(record), encoding="utf-8")
    print(f"wrote {FILE}: score {score}")


if __name__ == "__main__":
    main()
