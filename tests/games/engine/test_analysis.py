"""A recorded Long Nardy match analysed by the engine: every turn with a choice is a decision,
each error is what the best play keeps and the play made loses, in gnubg's figures."""

from __future__ import annotations

import random

import pytest

from games.analysis.runner import AWAY, HOME
from games.engine.analysis import NotLongNardy, analyse_record, analyse_text
from games.rules import LongNardy, Play, Position, ShortNardy, Turn, legal_plays, replay_game
from games.rules.matfile import GameRecord, MatchRecord, write_match
from games.rules.selfplay import random_match


def long_record(seed: int, length: int = 3) -> MatchRecord:
    games = random_match(LongNardy(), length, random.Random(seed))
    return MatchRecord(LongNardy(), ("Home", "Away"), length,
                       tuple(GameRecord(g.white, g.actions) for g in games))  # fmt: skip


@pytest.mark.parametrize("plies", [0, 1])
def test_each_decision_lost_what_the_best_play_keeps(shipped, plies):
    record = long_record(seed=21, length=1)
    done = []
    analysis = analyse_record(record, plies=plies, progress=lambda d, t: done.append((d, t)))
    assert analysis.plies == plies and done[-1] == (len(record.games), len(record.games))
    for game, analysed in zip(record.games, analysis.games, strict=True):
        replay = replay_game(LongNardy(), game.actions)
        turns = [a for a in game.actions if isinstance(a, Turn)]
        choices = {HOME: 0, AWAY: 0}
        for index, turn in enumerate(turns):
            if len(legal_plays(replay.positions[index], turn.dice)) > 1:
                choices[game.player(replay.positions[index].turn)] += 1
        assert {side: f.unforced_moves for side, f in analysed.figures.items()} == choices
        for decision in analysed.decisions:
            before = replay.positions[decision.move - 1]
            assert game.actions[decision.ply - 1] == turns[decision.move - 1]
            assert decision.side == game.player(before.turn) and decision.loss > 0
            ranked = shipped.rank(
                before, decision.dice, plies, also=(replay.made[decision.move - 1],)
            )
            assert str(ranked[0].play) == decision.best
            assert Play.parse(decision.played) == turns[decision.move - 1].play
        for side, figures in analysed.figures.items():
            mine = [d for d in analysed.decisions if d.side == side]
            assert figures.checker_error == pytest.approx(sum(d.loss for d in mine))
            assert figures.blunders == sum(1 for d in mine if d.loss > 0.16)
            assert figures.errors == sum(1 for d in mine if 0.08 < d.loss <= 0.16)
            assert figures.cube_error == 0


def engine_record(shipped, seed: int) -> MatchRecord:
    """A game the engine plays against itself at 0-ply."""
    rng = random.Random(seed)
    position, actions = Position.initial(LongNardy()), []
    while 15 not in (position.mover[0], position.opponent[0]):
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        chosen = shipped.best(position, dice, plies=0).play
        actions.append(Turn(dice, chosen.play))
        position = chosen.position
    return MatchRecord(LongNardy(), ("Home", "Away"), 1, (GameRecord(1, tuple(actions)),))


def test_random_play_loses_equity_and_the_engines_own_play_none(shipped):
    mine = analyse_record(engine_record(shipped, seed=5), plies=0)
    assert all(mine.totals[side].checker_error == 0 for side in (HOME, AWAY))
    assert all(mine.totals[side].unforced_moves > 10 for side in (HOME, AWAY))
    chance = analyse_record(long_record(seed=22, length=1), plies=0).totals
    for side in (HOME, AWAY):
        lost = chance[side].blunders + chance[side].errors
        assert lost > chance[side].unforced_moves / 4, chance[side]


def test_a_match_file_is_read_and_short_nardy_refused():
    text = write_match(long_record(seed=23, length=1))
    assert analyse_text(text, plies=0).games
    short = MatchRecord(ShortNardy(), ("A", "B"), 1, ())
    with pytest.raises(NotLongNardy):
        analyse_record(short)
