"""Analyse a recorded Long Nardy match with the engine: the checker error of every decision, in
the figures gnubg gives for Short Nardy (``games.analysis.runner``'s ``MatchAnalysis``), so that
the pages, the API and the PR table read both alike.

A decision is a turn with more than one legal play; its error is the equity the best play (at
``plies``) keeps and the play made loses. A play the opponent accepted as made at the
table, legal or not, is not a decision.

Dave (cube) decisions are judged in a match to a number of points (``_cube_decisions``), by
``games.engine.cube`` at the match's score (the score line before each game; the Crawford game
known by ``games.rules.game.MatchScore``), the game's stake and who holds the dave, from the
position's probabilities at ``plies``: each offer (its error: the best choice's equity less the
offer's, answered at its best), each take or drop (the taker's: the better answer's less the one
made), and each missed offer: a turn where the side on roll held the dave and could legally
offer, before its roll, and did not, when the offer was right (the error is what the offer would
have gained). A turn where the side's dave is dead (a win at the stake already wins it the
match, as for the leader after the Crawford game) is no decision, as in gnubg. Errors are in
gnubg's normalised equity (EMG) of the game's stake. A match of a fixed number of games, where no
score table applies, gets no dave analysis; a match without the Crawford rule is judged with the
table's Crawford entries all the same (they differ little).

Close cube decisions, which gnubg counts beside the unforced moves in the error rate: every
offer, take and drop, and every turn that could have offered where the offer was not a clear
no-double, that is, where the offer answered at its best loses less than ``CLOSE`` (0.16
EMG, gnubg's ``isCloseCubedecision``) against the best choice. A dave decision is marked with the
checker plays' thresholds (``long_mark_of``); the blunders and errors a side is counted are its
checker plays', as the pages show them beside the cube error.

The luck of a roll (``roll_luck``) is what the roll's best play keeps, less the average over the
21 rolls of each one's best play (doubles weigh 1/36, the others 2/36), for the side that rolled:
gnubg's luck analysis. It is measured at 0-ply whatever ``plies`` the plays are judged at (gnubg
measures it at a ply of its own choosing): 21 rolls a turn would cost a 1-ply analysis 21 times
over. Every roll counts, a roll with no legal play too, and the first: White's first roll is
measured like any other, an opening throw over the 30 throws that are not doubles, half of them
won by the other side (gnubg's ``LuckFirst``). A side's luck is the sum of its rolls'; with luck
taken out, its result is the points it won less its own luck and plus the opponent's, each roll's
at the stake it was rolled at (gnubg's "luck adjusted result", here in points). A roll is very
lucky above ``VERY_LUCKY`` (0.6), lucky above ``LUCKY`` (0.3), and unlucky and very unlucky below
their negatives: gnubg's ``arLuckLevel``.

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
from dataclasses import dataclass, replace

import numpy as np

from games.analysis.runner import (
    AWAY,
    HOME,
    LUCK_MARKS,
    ZERO,
    Decision,
    Figures,
    GameAnalysis,
    MatchAnalysis,
    mark_of,
)
from games.engine.cube import CLOSE, CubeDecision, MatchState, Owner, decide_at, judge
from games.engine.evaluator import equity_of
from games.engine.network import Array
from games.engine.search import ROLLS, WEIGHTS, Dice, Engine, engine
from games.rules.game import (
    Double,
    Drop,
    GameReplay,
    GameState,
    MatchScore,
    Take,
    Turn,
    replay_game,
)
from games.rules.matfile import GameRecord, MatchRecord, read_match
from games.rules.position import Position
from games.rules.variants import LongNardy

NAME = "nardy-long"
#: The equity lost (points of a game) over which a play is a blunder, and an error: see above.
BLUNDER = 0.16
ERROR = 0.08
#: A turn where the offer loses more than this (EMG) by the model at 0-ply is a clear no-double
#: and is not evaluated deeper: on the recorded match of the tests (254 turns that could offer),
#: 142 were screened so and not one of them was within ``CLOSE`` of doubling at 1-ply.
SCREEN = 0.3
#: The luck (points of a game) over which a roll is very lucky, and lucky (their negatives:
#: unlucky, very unlucky): gnubg's ``arLuckLevel``.
VERY_LUCKY = 0.6
LUCKY = 0.3


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
    cube, close = _cube_decisions(chosen, record, game, number, plies)
    decisions = sorted(decisions + cube, key=lambda decision: decision.ply)
    figures = {
        side: _figures(decisions, side, unforced[side], close[side]) for side in (HOME, AWAY)
    }
    luck = game_luck(chosen, record, game, replay)
    return GameAnalysis(
        number, {side: luck.figures(side, figures[side]) for side in figures}, decisions
    )


def _figures(decisions: Sequence[Decision], side: int, unforced: int, close: int) -> Figures:
    mine = [d for d in decisions if d.side == side]
    return Figures(
        checker_error=sum(d.loss for d in mine if d.kind == "move"),
        cube_error=sum(d.loss for d in mine if d.kind == "cube"),
        luck=0.0,
        unforced_moves=unforced,
        close_cube_decisions=close,
        blunders=sum(1 for d in mine if d.kind == "move" and long_mark_of(d.loss) == "blunder"),
        errors=sum(1 for d in mine if d.kind == "move" and long_mark_of(d.loss) == "error"),
    )


def _cube_decisions(
    chosen: Engine, record: MatchRecord, game: GameRecord, number: int, plies: int
) -> tuple[list[Decision], dict[int, int]]:
    """The dave decisions of game ``number`` that lost equity, and the close ones by side (see
    the module's docstring)."""
    close = {HOME: 0, AWAY: 0}
    found: list[Decision] = []
    if record.length is None or not record.variant.dave.enabled:
        return found, close
    state = GameState.new(record.variant, crawford=_is_crawford(record, number))
    offer: CubeDecision | None = None
    moves = 0
    for index, action in enumerate(game.actions):
        position = state.position
        doubler = game.player(position.turn)
        judged: tuple[int, str, str, float] | None = None  # side, played, best, loss
        # A turn is a dave decision when the side may offer and could gain by it (gnubg's
        # ``GetDPEq``: no decision with a dead dave); an offer made is always one.
        match = None
        if isinstance(action, Double) or (
            isinstance(action, Turn) and state.double_refusal() is None
        ):
            match = _match_state(record, game, state)
        if match is not None and (isinstance(action, Double) or not match.dead_dave):
            decided = _decided(chosen, position, match, plies, screen=isinstance(action, Turn))
            offered = decided.double_mwc
            assert offered is not None  # the side may offer
            best = "double" if offered > decided.no_double_mwc else "no double"
            if isinstance(action, Double):
                offer = decided
                close[doubler] += 1
                judged = doubler, "double", best, decided.emg_loss(decided.best_mwc - offered)
            else:
                lost = decided.emg_loss(offered - decided.no_double_mwc)
                close[doubler] += lost > -CLOSE
                judged = doubler, "no double", best, lost
        elif isinstance(action, Take | Drop) and offer is not None:
            assert offer.double_take_mwc is not None and offer.double_drop_mwc is not None
            close[3 - doubler] += 1
            right = "take" if offer.take_is_right else "drop"
            by_taking = offer.double_take_mwc - offer.double_drop_mwc  # the taker's loss
            made = "take" if isinstance(action, Take) else "drop"
            lost = by_taking if made == "take" else -by_taking
            judged = 3 - doubler, made, right, offer.emg_loss(lost)
            offer = None
        if judged is not None and judged[3] > 1e-9:
            side, played, best, loss = judged
            found.append(
                Decision(number, index + 1, moves, side, (0, 0), played, best, loss, "cube")
            )
        state.apply(action, index)
        moves += isinstance(action, Turn)
    return found, close


def _decided(
    chosen: Engine, position: Position, match: MatchState, plies: int, *, screen: bool
) -> CubeDecision:
    """The dave decision at ``plies`` (``cube.judge``); with ``screen``, a clear no-double by
    the model at 0-ply (the offer loses more than ``SCREEN``) is not looked at deeper."""
    if screen:
        shallow = decide_at(chosen, position, match, 0)
        offered = shallow.double_mwc
        assert offered is not None
        if shallow.emg_loss(shallow.no_double_mwc - offered) > SCREEN:
            return shallow
    return judge(chosen, position, match, plies)


def _match_state(record: MatchRecord, game: GameRecord, state: GameState) -> MatchState:
    """The match as the side on roll sees it: the game's score, stake and who holds the dave."""
    assert record.length is not None
    mover = state.position.turn
    player = game.player(mover)
    own, other = game.score[player - 1], game.score[2 - player]
    owner: Owner = "centered" if len(state.holders) == 2 else "own"
    if owner == "own" and mover not in state.holders:
        owner = "other"
    return MatchState(
        record.length, (own, other), state.stake, state.crawford, owner, record.variant.dave
    )


def _is_crawford(record: MatchRecord, number: int) -> bool:
    """Whether game ``number`` is the match's Crawford game, from the scores before each game."""
    score = MatchScore(record.length, record.crawford)
    crawford = False
    for game in record.games[:number]:
        score.points = list(game.score)
        crawford = score.start_game()
    return crawford


def luck_mark(luck: float) -> str:
    """What a roll of ``luck`` is called: "very lucky", "lucky", "unlucky", "very unlucky" or
    "" (gnubg's ``Luck``)."""
    if luck > VERY_LUCKY:
        return "very lucky"
    if luck > LUCKY:
        return "lucky"
    if luck < -VERY_LUCKY:
        return "very unlucky"
    if luck < -LUCKY:
        return "unlucky"
    return ""


@dataclass(frozen=True, slots=True)
class GameLuck:
    """A game's luck by side: each roll's (cubeless, points of a game), the points won, and the
    luck in points at the stakes it was rolled at."""

    rolls: dict[int, list[float]]
    result: dict[int, float]
    at_stake: dict[int, float]

    def total(self, side: int) -> float:
        return sum(self.rolls[side])

    def figures(self, side: int, figures: Figures) -> Figures:
        """``figures`` with the side's luck, its result and its result with luck taken out."""
        other = AWAY if side == HOME else HOME
        adjusted = self.result[side] - self.at_stake[side] + self.at_stake[other]
        marks = [luck_mark(luck) for luck in self.rolls[side]]
        very_lucky, lucky, unlucky, very_unlucky = (marks.count(mark) for mark in LUCK_MARKS)
        return replace(
            figures,
            luck=self.total(side),
            result=self.result[side],
            luck_adjusted=adjusted,
            rolls_marked=(very_lucky, lucky, unlucky, very_unlucky),
        )


def game_luck(
    chosen: Engine, record: MatchRecord, game: GameRecord, replay: GameReplay
) -> GameLuck:
    """The luck of every roll of a game, at 0-ply, and its result by side."""
    rolls: dict[int, list[float]] = {HOME: [], AWAY: []}
    at_stake = {HOME: 0.0, AWAY: 0.0}
    stake, moves = 1, 0
    for action in game.actions:
        if isinstance(action, Take):
            stake = record.variant.dave.next_stake(stake)
        if not isinstance(action, Turn):
            continue
        before = replay.positions[moves]
        opening = moves == 0 and record.variant.opens_with_throw
        moves += 1
        luck = roll_luck(chosen, before, action.dice, opening=opening)
        side = game.player(before.turn)
        rolls[side].append(luck)
        at_stake[side] += luck * stake
    outcome = replay.outcome
    result = {HOME: 0.0, AWAY: 0.0}
    if outcome.winner is not None:
        winner = game.player(outcome.winner)
        result[winner] = float(outcome.points)
        result[AWAY if winner == HOME else HOME] = -float(outcome.points)
    return GameLuck(rolls, result, at_stake)


def roll_luck(chosen: Engine, before: Position, dice: Dice, *, opening: bool = False) -> float:
    """The luck of ``dice`` rolled in ``before``, for its side on roll, at 0-ply: what the roll's
    best play keeps less the average over the rolls (``opening``: over the opening throws, which
    are not doubles and half of which the other side wins)."""
    rolled = ROLLS.index((min(dice), max(dice)))
    mine = best_equities(chosen, before)
    if not opening or dice[0] == dice[1]:  # an opening throw is never a double (gnubg alike)
        return float(mine[rolled] - WEIGHTS @ mine)
    theirs = best_equities(chosen, before.swapped())
    throws = np.array([a != b for a, b in ROLLS])
    mean = (mine[throws].sum() - theirs[throws].sum()) / (2 * throws.sum())
    return float(mine[rolled] - mean)


def best_equities(chosen: Engine, position: Position) -> Array:
    """For each of ``ROLLS``, the 0-ply equity of its best play for the side on roll."""
    found: Array = equity_of(chosen.replies([position])[0].left)
    return found
