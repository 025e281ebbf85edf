"""Dave (cube) decisions of Long Nardy in match play: whether the side on roll should offer
dave, and whether the other side should take it, under the tournament's dave rules
(``games.rules.variants.DaveRules``: the progression, the most stake; the Crawford rule; oyn 1
and mars 2).

**The match equity table** (``match_equity_table``) is Long Nardy's own, made from the engine's
own rates, not backgammon's table. Self-play of the shipped engine at 0-ply (``bench/long_met.py``)
measured ``FIRST_MOVER_WINS`` and ``MARS_RATE`` (the share of wins that are mars). In a match the
colours alternate by game, so the first mover's edge evens out: each game is taken as won by
either player with 1/2, a win being a mars with ``MARS_RATE``. The table is then:

- before the Crawford game, a cubeless recursion over the next game's outcomes (oyn or mars,
  either way); the dave is not in this part of the model;
- the Crawford game (a player 1-away for the first time): no dave, the same recursion;
- after it, the trailer offers dave at once (the stake goes 1 → 2 in both progressions) and the
  leader takes or drops, whichever is better for it (the free drop falls out of this).

The table is per score only. What the progression and the most stake change (what a dave is
worth) is in the cube model below, which walks the stakes of the match's own progression.

**Cubeful equity** follows Janowski's model as gnubg adapts it to match play (``Cl2CfMatch`` in
gnubg's eval.c): the match-winning chance (MWC) of a position is the interpolation
``x · live + (1 − x) · dead`` between

- the dead cube: the cubeless MWC through the table, ``p · W + (1 − p) · L``, where ``W`` and
  ``L`` are the MWC of a win and a loss at the stake, oyn and mars weighed by the position's own
  mars shares (``win_mars / win``, ``lose_mars / (1 − win)``);
- the live cube: the MWC if the winning chance moved continuously, so that a side that may offer
  does so exactly at the other's take point and the other is then indifferent. It is piecewise
  linear in the winning chance ``p``: from the loss (p = 0) to the other side's cash (at our take
  point of its offer, if it may offer), to our cash (at its take point of ours, if we may offer),
  to the win (p = 1). The take points come from the same model one stake higher, the taker then
  holding the dave, recursively until the stake can rise no more;

and ``x`` is the cube efficiency: Long Nardy has no hitting, so gnubg's race efficiency is the
nearest (``0.55 + 0.00125 · pips`` of the side on roll, within 0.6..0.7), and 0.6 in a pure
bear-off (gnubg's one-sided bear-off value). A dead-cube model alone never sees a market loser;
the live part does.

A side may not offer when it does not hold the dave (``dave_owner`` is the other), in the Crawford
game, when dave is not played, and when the next stake would pass the most stake. A side whose
win at the stake already wins the match gains nothing from a higher stake: its dave is dead and
the model never offers it.

**Looking rolls ahead** (``decide_at``, gnubg's cubeful n-ply evaluation): ``rolls`` ahead,
no double and double/take are each worth the average, over the side on roll's 21 rolls, of what
its best play leaves, valued by the other side's own best dave choice there (roll on, or offer
and be answered at the taker's best), and so on, the model above valuing the last leaves from
their 0-ply probabilities. The model alone takes the winning chance to move smoothly, so that a
side can always double just in time; in the last rolls of a race it jumps, and the market a
side loses by waiting is what the lookahead sees. Four checkers on point 1 against two on point
6, the side on roll to move: rolling on is worth 44/54 of a stake, a cash 1, so a missed double
loses 0.185; the model alone and one roll ahead (which still values the other side's last roll
as if the doubler could cash before it) call it about 0.07; two rolls ahead find 0.185 (a
test). The analysis judges every dave decision at least a roll ahead, and two in a pure
bear-off.

The answer (``CubeDecision``): the MWC of no double, double/take and double/drop, and the same as
gnubg's normalised equity (EMG: the MWC scaled so that losing one stake is −1 and winning it +1,
so double/drop is always +1). The action: "double-take" or "double-drop" when the offer is right
(the taker's best answer is the one that gives the doubler less: take when double/take is below
double/drop), "too-good" when the answer would be a drop but playing on is worth more than that
drop (playing for mars), else "no-double".
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from games.engine.evaluator import Probabilities, flipped
from games.engine.exact import bear_offs
from games.engine.features import boards_of
from games.engine.search import WEIGHTS, Engine
from games.rules.position import Position
from games.rules.variants import DaveRules

#: The engine's own rates (``bench/long_met.py --games 3000 --seed 49``, the shipped weights
#: v2-230k at 0-ply, 3000 self-play games, 2026-11-29, 177 s): the first mover (White) won
#: 1827 games, 0.609 ± 0.009; 743 of the 3000 wins were mars, 0.248 ± 0.008 (0.284 of the first
#: mover's wins, 0.191 of the second's). The table uses the mars share; the first mover's edge
#: evens out in a match, where the colours alternate. (v1-60k: 0.567 and 0.249.)
FIRST_MOVER_WINS = 0.609
MARS_RATE = 0.248

#: gnubg's cube efficiency for a race (``rRaceFactorX``, ``rRaceCoefficientX``, ``rRaceMin``,
#: ``rRaceMax``) and a one-sided bear-off (``rOSCubeX``).
RACE_FACTOR, RACE_COEFFICIENT, RACE_MIN, RACE_MAX = 0.00125, 0.55, 0.6, 0.7
BEAR_OFF_EFFICIENCY = 0.6

Owner = Literal["centered", "own", "other"]
Action = Literal["no-double", "double-take", "double-drop", "too-good"]
OWNERS: tuple[Owner, ...] = ("centered", "own", "other")
#: A dave decision is close (gnubg's ``isCloseCubedecision``) when offering and rolling on are
#: within this (EMG) of each other.
CLOSE = 0.16
#: Equities closer than this are equal (a tie goes to the drop, and to no double).
TIE = 1e-9


class CubeError(ValueError):
    """A match state that cannot be: the message says what is wrong."""


# --- The match equity table ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchEquityTable:
    """Match-winning chances by the points each side still needs ("away"), up to ``length``.

    ``pre[a][b]``: before the Crawford game, or in it (a or b is 1 for the first time), for the
    side ``a`` away against ``b`` away, at the start of a game. ``trailer[b]``: after the
    Crawford game, the chance of the side ``b`` away against a leader 1-away.
    """

    length: int
    mars_rate: float
    pre: tuple[tuple[float, ...], ...]
    trailer: tuple[float, ...]

    def mwc(self, own: int, other: int, *, post_crawford: bool) -> float:
        """The chance of the side ``own`` away against ``other`` away; ``post_crawford``: the
        Crawford game has been played (it only matters when a side is 1-away)."""
        if own <= 0:
            return 1.0
        if other <= 0:
            return 0.0
        if post_crawford and 1 in (own, other):
            return 1.0 - self.trailer[other] if own == 1 else self.trailer[own]
        return self.pre[own][other]


@lru_cache(maxsize=64)
def match_equity_table(length: int, mars_rate: float = MARS_RATE) -> MatchEquityTable:
    """The table to ``length`` points from a game won by either side with 1/2, a win being a
    mars with ``mars_rate`` (the module's docstring says how)."""
    if length < 1:
        raise CubeError(f"match_length must be at least 1, not {length}")
    g = mars_rate
    size = length + 1

    trailer = [0.0] * size  # trailer[0] unused: a side 0 away has won

    def t(away: int) -> float:
        return 1.0 if away <= 0 else trailer[away]

    for away in range(1, size):
        no_double = 0.5 * ((1 - g) * t(away - 1) + g * t(away - 2))
        take = 0.5 * ((1 - g) * t(away - 2) + g * t(away - 4))
        drop = t(away - 1)
        trailer[away] = max(no_double, min(take, drop))

    pre = [[0.5] * size for _ in range(size)]

    def m(own: int, other: int) -> float:
        return 1.0 if own <= 0 else 0.0 if other <= 0 else pre[own][other]

    for total in range(2, 2 * length + 1):
        for own in range(max(1, total - length), min(length, total - 1) + 1):
            other = total - own
            if own == 1 and other == 1:
                value = 0.5
            elif own == 1:  # the Crawford game, then the other trails
                value = 0.5 + 0.5 * ((1 - g) * (1 - t(other - 1)) + g * (1 - t(other - 2)))
            elif other == 1:
                value = 0.5 * ((1 - g) * t(own - 1) + g * t(own - 2))
            else:
                won = (1 - g) * m(own - 1, other) + g * m(own - 2, other)
                lost = (1 - g) * m(own, other - 1) + g * m(own, other - 2)
                value = 0.5 * (won + lost)
            pre[own][other] = value
    return MatchEquityTable(length, mars_rate, tuple(tuple(row) for row in pre), tuple(trailer))


# --- The match state and the decision -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchState:
    """The match as the side on roll sees it before its roll: the length, the score (its own
    first), the game's stake, whether this is the Crawford game, who holds the dave ("centered":
    both, "own": the side on roll, "other": its opponent) and the dave rules."""

    length: int
    score: tuple[int, int]
    stake: int = 1
    crawford: bool = False
    owner: Owner = "centered"
    dave: DaveRules = field(default_factory=DaveRules)

    def __post_init__(self) -> None:
        if self.length < 1:
            raise CubeError(f"match_length must be at least 1, not {self.length}")
        if any(points < 0 or points >= self.length for points in self.score):
            raise CubeError(
                f"each score is from 0 to {self.length - 1} in a match to {self.length}, "
                f"not {list(self.score)}"
            )
        if self.owner not in OWNERS:
            raise CubeError(f"dave_owner is 'centered', 'own' or 'other', not {self.owner!r}")
        if self.stake not in self._stakes():
            raise CubeError(f"a stake of the {self.dave.progression} progression, not {self.stake}")
        if (self.stake == 1) != (self.owner == "centered"):
            raise CubeError(
                "both sides hold the dave at stake 1 and only the last taker after it: "
                f"stake {self.stake} with dave_owner {self.owner!r}"
            )
        if self.crawford and (self.stake != 1 or self.length - 1 not in self.score):
            raise CubeError(
                "the Crawford game is played at stake 1, right after a side reached "
                f"{self.length - 1} points"
            )

    def _stakes(self) -> list[int]:
        stakes, stake = [], 1
        while self.dave.max_stake is None or stake <= self.dave.max_stake:
            stakes.append(stake)
            if stake > 2 * self.length:  # far more than the match holds
                break
            stake = self.dave.next_stake(stake)
        return stakes

    @property
    def aways(self) -> tuple[int, int]:
        """The points each side still needs: its own first."""
        return self.length - self.score[0], self.length - self.score[1]

    @property
    def post_crawford(self) -> bool:
        """Whether the match goes on after the Crawford game when this game ends: this is the
        Crawford game, or a side is 1-away and this is not it (it has been played)."""
        return self.crawford or 1 in self.aways

    @property
    def dead_dave(self) -> bool:
        """Whether the side on roll cannot gain from a higher stake: a win at this stake
        already wins it the match."""
        return self.aways[0] <= self.stake

    def offer_refusal(self) -> str | None:
        """Why the side on roll may not offer dave (None: it may)."""
        if not self.dave.enabled:
            return "dave is not played in this match"
        if self.crawford:
            return "no dave in the Crawford game"
        if self.owner == "other":
            return "the side on roll does not hold the dave"
        if not self._may_raise(self.stake):
            return f"the stake may not exceed {self.dave.max_stake}"
        return None

    def _may_raise(self, stake: int) -> bool:
        cap = self.dave.max_stake
        return cap is None or self.dave.next_stake(stake) <= cap


@dataclass(frozen=True, slots=True)
class CubeDecision:
    """What the side on roll should do with the dave, and what each choice is worth to it.

    ``*_mwc``: its match-winning chances of no double, double/take and double/drop (the last two
    None when ``refusal`` says why no offer may be made; the action is then "no-double");
    ``stake_mwc``: its chances after winning and after losing one stake, the scale of the EMG
    (``emg``: gnubg's normalised equity, −1 a loss of one stake, +1 a win of it).
    """

    action: Action
    no_double_mwc: float
    double_take_mwc: float | None
    double_drop_mwc: float | None
    stake_mwc: tuple[float, float]
    refusal: str | None = None

    @property
    def double_mwc(self) -> float | None:
        """An offer, answered at its best by the taker (None: no offer may be made)."""
        if self.double_take_mwc is None or self.double_drop_mwc is None:
            return None
        return min(self.double_take_mwc, self.double_drop_mwc)

    @property
    def take_is_right(self) -> bool:
        """Whether the taker should take an offer (a tie drops)."""
        assert self.double_take_mwc is not None and self.double_drop_mwc is not None
        return self.double_take_mwc < self.double_drop_mwc - TIE

    @property
    def best_mwc(self) -> float:
        """The side on roll's best: no double, or an offer answered at its best."""
        offered = self.double_mwc
        return self.no_double_mwc if offered is None else max(self.no_double_mwc, offered)

    def emg(self, mwc: float) -> float:
        """A match-winning chance as EMG."""
        win, lose = self.stake_mwc
        return (2 * mwc - win - lose) / (win - lose)

    def emg_loss(self, mwc: float) -> float:
        """A loss of match-winning chances as EMG (for either side: the scale is symmetric)."""
        win, lose = self.stake_mwc
        return 2 * mwc / (win - lose)


def cube_efficiency(position: Position) -> float:
    """gnubg's cube efficiency for the position (see the module's docstring)."""
    mover, opponent = position.mover, position.opponent
    if not any(mover[7:25]) and not any(opponent[7:25]):
        return BEAR_OFF_EFFICIENCY
    pips = sum(point * mover[point] for point in range(1, 25))
    return min(RACE_MAX, max(RACE_MIN, RACE_COEFFICIENT + RACE_FACTOR * pips))


def decide(
    probabilities: Probabilities,
    state: MatchState,
    *,
    efficiency: float,
    table: MatchEquityTable | None = None,
) -> CubeDecision:
    """The dave decision of the side on roll, before its roll, from its probabilities."""
    model = _Model(probabilities, state, efficiency, table or match_equity_table(state.length))
    stake = state.stake
    win_stake, lose_stake = model.points(stake), model.points(-stake)
    no_double = model.cubeful(stake, state.owner, model.p)

    refusal = state.offer_refusal()
    if refusal is not None:
        return CubeDecision("no-double", no_double, None, None, (win_stake, lose_stake), refusal)
    take = model.cubeful(state.dave.next_stake(stake), "other", model.p)
    drop = win_stake
    return CubeDecision(
        _action(no_double, take, drop), no_double, take, drop, (win_stake, lose_stake)
    )


def decide_at(engine: Engine, position: Position, state: MatchState, rolls: int) -> CubeDecision:
    """The dave decision of the side on roll ``rolls`` rolls ahead (0: the model on the
    position's 0-ply probabilities; see the module's docstring)."""
    shallow = decide(engine.evaluate(position, 0), state, efficiency=cube_efficiency(position))
    if rolls == 0 or _certain(engine, position):
        return shallow  # the model is exact on a certain win or loss
    lookahead = _Lookahead(engine, match_equity_table(state.length))
    no_double = lookahead.rolled(position, state, rolls)
    if shallow.refusal is not None:
        return replace(shallow, no_double_mwc=no_double)
    take = lookahead.rolled(position, _taken(state), rolls)
    drop = shallow.stake_mwc[0]
    return CubeDecision(_action(no_double, take, drop), no_double, take, drop, shallow.stake_mwc)


def judge(engine: Engine, position: Position, state: MatchState, plies: int) -> CubeDecision:
    """The dave decision as the analysis and the ``cube`` command make it: ``plies`` rolls
    ahead, one at least, and two in a pure bear-off where the decision is close (the offer
    within ``CLOSE`` of rolling on), where a roll ahead still values the other side's last
    roll as if the doubler could cash before it."""
    decided = decide_at(engine, position, state, max(plies, 1))
    offered = decided.double_mwc
    if offered is None or plies >= 2:
        return decided
    close = decided.emg_loss(abs(offered - decided.no_double_mwc)) < CLOSE
    if close and bear_offs(boards_of([position]))[0]:
        return decide_at(engine, position, state, 2)
    return decided


class _Lookahead:
    """Cubeful match-winning chances some rolls ahead: each roll played by its 0-ply best
    (cubeless, as gnubg plays inside its search), each side choosing its best dave action
    before its roll, and the model on the leaves' 0-ply probabilities."""

    def __init__(self, engine: Engine, table: MatchEquityTable) -> None:
        self.engine, self.table = engine, table

    def rolled(self, position: Position, state: MatchState, rolls: int) -> float:
        """The side on roll's MWC when it rolls now, without offering, the dave as ``state``
        says: over its 21 rolls, what each roll's best play leaves, valued by the other side's
        best choice there."""
        replies = self.engine.replies([position])[0]
        leaves = [play.position for play in replies.plays]
        theirs = _mirrored(state)
        if rolls == 1:
            found = flipped(replies.left)  # for the other side, on roll there
            values = [
                decide(Probabilities.of(row), theirs, efficiency=cube_efficiency(leaf),
                       table=self.table).best_mwc
                for row, leaf in zip(found, leaves, strict=True)
            ]  # fmt: skip
        else:
            values = [self.best(leaf, theirs, rolls - 1) for leaf in leaves]
        return float(sum(w * (1.0 - v) for w, v in zip(WEIGHTS, values, strict=True)))

    def best(self, position: Position, state: MatchState, rolls: int) -> float:
        """The side on roll's MWC at its best dave choice: roll on, or offer and be answered
        at the other's best."""
        if _certain(self.engine, position):
            return decide(self.engine.evaluate(position, 0), state, efficiency=1.0,
                          table=self.table).best_mwc  # fmt: skip  # exact
        no_double = self.rolled(position, state, rolls)
        if state.offer_refusal() is not None or state.dead_dave:
            return no_double
        take = self.rolled(position, _taken(state), rolls)
        drop = self.table.mwc(
            state.aways[0] - state.stake, state.aways[1], post_crawford=state.post_crawford
        )
        return max(no_double, min(take, drop))


def _certain(engine: Engine, position: Position) -> bool:
    """Whether the side on roll wins or loses for certain (a finished game too): no roll can
    change what the dave is worth."""
    probabilities, exact = engine.glance(position)
    return exact and probabilities.win in (0.0, 1.0)


def _mirrored(state: MatchState) -> MatchState:
    """The same match as the other side sees it."""
    return replace(state, score=state.score[::-1], owner=_MIRRORED[state.owner])


def _taken(state: MatchState) -> MatchState:
    """The match once the side on roll has offered and the other has taken."""
    return replace(state, stake=state.dave.next_stake(state.stake), owner="other")


#: Who holds the dave, as the other side says it.
_MIRRORED: dict[Owner, Owner] = {"centered": "centered", "own": "other", "other": "own"}


def _action(no_double: float, take: float, drop: float) -> Action:
    """What the side on roll should do: the taker answers at its best (take while taking gives
    the doubler less than a drop), and the doubler offers when that answer beats no double."""
    if take < drop - TIE:  # the taker takes
        return "double-take" if take > no_double + TIE else "no-double"
    return "double-drop" if drop > no_double + TIE else "too-good"


class _Model:
    """Janowski's live and dead cube over the match equity table, for one position and score."""

    def __init__(
        self,
        probabilities: Probabilities,
        state: MatchState,
        efficiency: float,
        table: MatchEquityTable,
    ) -> None:
        self.state, self.x, self.table = state, efficiency, table
        win = min(max(probabilities.win, 0.0), 1.0)
        self.p = win
        self.win_mars = min(probabilities.win_mars / win, 1.0) if win > 0 else 0.0
        self.lose_mars = min(probabilities.lose_mars / (1 - win), 1.0) if win < 1 else 0.0
        self.own_away, self.other_away = state.aways
        self.post_crawford = state.post_crawford
        self._corners: dict[tuple[int, Owner], list[tuple[float, float]]] = {}

    def points(self, gained: int) -> float:
        """The MWC once the side on roll has won (``gained`` > 0) or lost that many points."""
        if gained > 0:
            own, other = self.own_away - gained, self.other_away
        else:
            own, other = self.own_away, self.other_away + gained
        return self.table.mwc(own, other, post_crawford=self.post_crawford)

    def win(self, stake: int) -> float:
        m = self.win_mars
        return (1 - m) * self.points(stake) + m * self.points(2 * stake)

    def lose(self, stake: int) -> float:
        m = self.lose_mars
        return (1 - m) * self.points(-stake) + m * self.points(-2 * stake)

    def dead(self, stake: int, p: float) -> float:
        return p * self.win(stake) + (1 - p) * self.lose(stake)

    def may_offer(self, stake: int, side: Owner) -> bool:
        """Whether ``side`` ("own" or "other") may raise ``stake`` and can gain by it: a side
        whose win at this stake already wins the match has a dead dave."""
        state = self.state
        if not state.dave.enabled or state.crawford or not state._may_raise(stake):
            return False
        away = self.own_away if side == "own" else self.other_away
        return away > stake

    def cubeful(self, stake: int, owner: Owner, p: float) -> float:
        """The MWC at ``p`` with the dave held by ``owner`` at ``stake``."""
        return self.x * _between(self.corners(stake, owner), p) + (1 - self.x) * self.dead(stake, p)

    def corners(self, stake: int, owner: Owner) -> list[tuple[float, float]]:
        """The live cube's corners (p, MWC), p rising from 0 to 1: the loss, the other side's
        cash at our take point of its offer (if it may offer), our cash at its take point of
        ours (if we may offer), the win. Between them the live MWC is linear."""
        key = (stake, owner)
        if key not in self._corners:
            raised = self.state.dave.next_stake(stake)
            found = [(0.0, self.lose(stake)), (1.0, self.win(stake))]
            if owner != "own" and self.may_offer(stake, "other"):
                # We take when taking is worth at least the drop's loss of ``stake``.
                dropped = self.points(-stake)
                found.append((self._reaches(raised, "own", dropped), dropped))
            if owner != "other" and self.may_offer(stake, "own"):
                # It drops once its take gives us more than its drop.
                cashed = self.points(stake)
                found.append((self._reaches(raised, "other", cashed), cashed))
            ends = found[:2]
            inner = sorted(corner for corner in found[2:] if 0.0 < corner[0] < 1.0)
            self._corners[key] = [ends[0], *inner, ends[1]]
        return self._corners[key]

    def _reaches(self, stake: int, owner: Owner, level: float) -> float:
        """The least p where the cubeful MWC at ``stake`` with ``owner`` holding the dave
        reaches ``level`` (0 or 1 when it is always or never there): it is piecewise linear
        and rising, so the crossing is found exactly on its corners."""
        cubeful = [(p, self.cubeful(stake, owner, p)) for p, _ in self.corners(stake, owner)]
        if cubeful[0][1] >= level:
            return 0.0
        for (p0, e0), (p1, e1) in zip(cubeful, cubeful[1:], strict=False):
            if e1 >= level:
                return p0 + (level - e0) * (p1 - p0) / (e1 - e0)
        return 1.0


def _between(corners: list[tuple[float, float]], p: float) -> float:
    """The piecewise-linear function through ``corners`` at ``p``."""
    for (p0, e0), (p1, e1) in zip(corners, corners[1:], strict=False):
        if p <= p1 and p1 > p0:
            return e0 + (e1 - e0) * (p - p0) / (p1 - p0)
    return corners[-1][1]
