"""Analyse a recorded Long Nardy match with the engine: the checker error of every decision, in
the figures gnubg gives for Short Nardy (``games.analysis.runner``'s ``MatchAnalysis``), so that
the pages, the API and the PR table read both alike.

A decision is a turn with more than one legal play; its error is the equity the best play (at
``plies``) keeps and the play made loses. Dave (doubling) decisions are not analysed in this first
version (their cube error is 0 and none is counted), and neither is luck; a play the opponent
accepted as made at the table, legal or not, is not a decision.

A play is an error when it loses more than ``ERROR`` (0.08 points of a game), a blunder more than
``BLUNDER`` (0.16): gnubg's own defaults for a bad and a very bad play (``arSkillLevel`` in
gnubg.c), twice the 0.04/0.08 the Short Nardy pages count with. The engine's equity is on
gnubg's cubeless scale (points of a game: oyn 1, mars 2), but a Long Nardy game has about twice
the decisions of a backgammon game, and the lower marks caught the engine's own search noise.
Measured by ``bench/long_mistakes_bench.py`` (self-play, judged at 1-ply, 10 games a player, about
40 decisions a player a game; the share of decisions over 0.04 / 0.08 / 0.16, and PR):

================================  ======  ======  ======  =====
player                            > 0.04  > 0.08  > 0.16   PR
================================  ======  ======  ======  =====
the engine itself (0-ply)           3.0%    0.5%    0.0%    2.2
the engine, noise 0.03              10.1%    1.6%    0.1%    6.0
the engine, noise 0.06 (club)       24.1%    9.4%    1.2%   12.2
the engine, noise 0.1               34.6%   16.9%    5.7%   19.3
random plays (the demo's games)     72.2%   64.8%   49.0%  121.1
================================  ======  ======  ======  =====

So the engine's own best at a shallower search is almost never an error, a club-strength player
makes about one blunder in two games and three errors a game, and random play (the demo's
matches) blunders at every other decision: "131 blunders in a 3-game match" was the demo's random
play read right, not a wrong scale.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from games.analysis.runner import (
    AWAY,
    HOME,
    ZERO,
    Decision,
    Figures,
    GameAnalysis,
    MatchAnalysis,
    mark_of,
)
from games.engine.search import Engine, engine
from games.rules.game import Turn, replay_game
from games.rules.matfile import GameRecord, MatchRecord, read_match
from games.rules.variants import LongNardy

NAME = "nardy-long"
#: The equity lost (points of a game) over which a play is a blunder, and an error: see above.
BLUNDER = 0.16
ERROR = 0.08


def long_mark_of(loss: float) -> str:
    """What a Long Nardy play that lost ``loss`` is called: "blunder", "error" or ""."""
    return mark_of(loss, BLUNDER, ERROR)


class NotLongNardy(ValueError):
    """The record is not of Long Nardy: the engine knows no other game."""


def analyse_text(
    mat_text: str,
    *,
    plies: int = 1,
    found: Engine | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Analyse a .mat text of Long Nardy (raises ``RulesError`` when it cannot be read or does
    not replay, ``NotLongNardy`` when it is of another game)."""
    return analyse_record(read_match(mat_text), plies=plies, found=found, progress=progress)


def analyse_record(
    record: MatchRecord,
    *,
    plies: int = 1,
    found: Engine | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    if not isinstance(record.variant, LongNardy):
        raise NotLongNardy("the engine analyses Long Nardy only")
    chosen = found or engine()
    games = []
    totals = {HOME: ZERO, AWAY: ZERO}
    for number, game in enumerate(record.games, start=1):
        analysed = _game(chosen, record, game, number, plies)
        for side in totals:
            totals[side] = totals[side] + analysed.figures[side]
        games.append(analysed)
        if progress is not None:
            progress(number, len(record.games))
    return MatchAnalysis(record.players, plies, games, totals)


def _game(
    chosen: Engine, record: MatchRecord, game: GameRecord, number: int, plies: int
) -> GameAnalysis:
    replay = replay_game(record.variant, game.actions)
    decisions: list[Decision] = []
    unforced = {HOME: 0, AWAY: 0}
    moves = 0
    for ply, action in enumerate(game.actions, start=1):
        if not isinstance(action, Turn):
            continue
        before, made = replay.positions[moves], replay.made[moves]
        moves += 1
        if action.accepted:
            continue
        ranked = chosen.rank(before, action.dice, plies, also=(made,))
        if len(ranked) < 2:
            continue  # forced: one play, or none
        side = game.player(before.turn)
        unforced[side] += 1
        played = next((r for r in ranked if r.play == made), None)
        if played is None:
            continue
        loss = ranked[0].equity - played.equity
        if loss > 1e-9:
            decisions.append(
                Decision(
                    number, ply, moves, side, action.dice, str(made), str(ranked[0].play), loss
                )
            )
    figures = {side: _figures(decisions, side, unforced[side]) for side in (HOME, AWAY)}
    return GameAnalysis(number, figures, decisions)


def _figures(decisions: Sequence[Decision], side: int, unforced: int) -> Figures:
    mine = [d for d in decisions if d.side == side]
    return Figures(
        checker_error=sum(d.loss for d in mine),
        cube_error=0.0,
        luck=0.0,
        unforced_moves=unforced,
        close_cube_decisions=0,
        blunders=sum(1 for d in mine if long_mark_of(d.loss) == "blunder"),
        errors=sum(1 for d in mine if long_mark_of(d.loss) == "error"),
    )
