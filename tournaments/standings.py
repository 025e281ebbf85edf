"""Standings: match points and tie-breaks from a list of results. Pure: no Django.

``compute(entrants, results, tiebreaks)`` returns one ``StandingRow`` per entrant, best first.
Every number is a ``Fraction`` (see ``tournaments.scoring``): tied values compare exactly.

Ordering: match points, then the tie-breaks in the order asked, all "more is better"; entrants
equal on all of them share a rank (1, 2, 2, 4) and are listed by entrant id, unless lots were
drawn (``lots``, below): then the lots order them and every rank is their own.

Default orders (``ROUND_ROBIN_ORDER``, ``SWISS_ORDER``): what an arbiter expects when nothing else
is said, after FIDE's C.07 Tie-Break Regulations (2023) and the backgammon clubs' use of the game
points. A round robin: the direct encounter first (everybody met everybody, so the tied players'
own games decide), then Sonneborn-Berger (whom they beat), the wins, and the game points
difference. A Swiss: the Buchholz cut 1 first (the strength of the opposition, the weakest
opponent left out, C.07's first choice for a Swiss), then the whole Buchholz, Sonneborn-Berger,
the direct encounter, the wins and the game points difference.

Lots: the last resort, when the tie-breaks leave entrants level. ``compute`` takes the entrants
in the order the lots drew them (``lots``), and ``lot_order`` draws that order from a seed: each
entrant's lot is the SHA-256 of ``"<seed>:<entrant id>"`` (hex), the lowest first, so anyone with
the seed and the ids can draw it again and get the same order.

Results. A result is one match of a round between entrants ``a`` and ``b``, or a bye (``b`` is
None). Its match points come from ``MatchPoints`` (win, draw, loss, bye). ``wins``, ``draws`` and
``losses`` count played matches only; a bye counts in ``match_points`` and its ``game_points_*``,
not as a win. A round in which an entrant has no result (not yet played, withdrawn) adds nothing.

Tie-breaks (``Tiebreak``; the string values are the identifiers the tournament stores):

* ``buchholz``: the sum, over the entrant's rounds, of the opponent's score (see byes below).
* ``buchholz-cut-1``: Buchholz without the lowest of those values.
* ``median-buchholz``: Buchholz without the highest and the lowest value (one each; with a single
  value there is nothing left).
* ``sonneborn-berger``: the opponent's score for each match won, half of it for each match drawn
  (scores in match points; a bye as below).
* ``direct-encounter``: among the entrants tied on match points and on every tie-break listed
  before this one, the match points each scored in the matches between them (all such matches
  when they met more than once). Applied only when every two of the tied entrants met at least
  once; otherwise, and for an entrant tied with nobody, it is 0, so it leaves the tie as it was.
* ``wins``: the number of played matches won.
* ``game-points-difference``: game points won minus game points lost.
* ``rating``: the entrant's rating.

Byes in Buchholz and Sonneborn-Berger follow FIDE's rule for unplayed games, Handbook C.02
(Standards ... and tie-break regulations, 2017 edition, art. 13.15; adopted by the 2009 FIDE
Congress; the C.07 Tie-Break Regulations of 2023 replaced it, counting an unplayed round as a game
against a "dummy opponent" with the player's own score):

* The entrant's own bye in round R counts as a match against a *virtual opponent* who starts the
  round with the entrant's score, gets the opposite of the entrant's result in round R and draws
  every later round. With n rounds its score is

      Svon = SPR + (1 − SfPR) + ½ · (n − R)

  where SPR is the entrant's score before round R and SfPR its points for round R (so 1 − SfPR is
  the virtual opponent's result). With general match points this reads SPR + opposite + draw ·
  (n − R), where the bye counts as a win for the entrant when it is worth more than a draw (the
  virtual opponent gets ``loss``), as a draw when worth a draw, else as a loss (it gets ``win``).
  n is the number of rounds played: the highest round in the results unless ``rounds`` is given.
  FIDE's example: 9 rounds, a player with 1½ after round 2 who scores 0 by default in round 3 gets
  1½ + (1 − 0) + ½ · 6 = 5½ from that round.
* For everybody else's tie-breaks, an opponent's own unplayed rounds count as draws (art. 13.15.1:
  unplayed games in which a player is indirectly involved are drawn): an opponent's score here is
  its *adjusted* score, each of its byes worth ``draw`` instead of ``bye``.
* Sonneborn-Berger uses the same values: the virtual opponent's score times 1, ½ or 0 as the bye
  counts as a win, a draw or a loss.

Forfeits (``Result.forfeit``): a match one side did not come to is won by the other; one neither
came to is lost by both. It counts in match points, wins and losses like a played match, and in
``forfeits_won``/``forfeits_lost`` (the standings' +/−). For tie-breaks it is an unplayed game, as
FIDE's art. 13.15 has it: each side's round counts against a virtual opponent, as a bye does (with
the side's own result, win or loss), and in everybody else's tie-breaks the round counts as a
draw of theirs. Direct encounter counts it: it is the result between the two. Its game points
are none.
"""

from __future__ import annotations

import enum
import hashlib
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Literal

from tournaments.scoring import MatchPoints, MatchScoreResult, Number, as_fraction


class Tiebreak(enum.StrEnum):
    BUCHHOLZ = "buchholz"
    BUCHHOLZ_CUT_1 = "buchholz-cut-1"
    MEDIAN_BUCHHOLZ = "median-buchholz"
    SONNEBORN_BERGER = "sonneborn-berger"
    DIRECT_ENCOUNTER = "direct-encounter"
    WINS = "wins"
    GAME_POINTS_DIFFERENCE = "game-points-difference"
    RATING = "rating"


#: A round robin's default tie-break order (see the module docstring).
ROUND_ROBIN_ORDER = (
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.WINS,
    Tiebreak.GAME_POINTS_DIFFERENCE,
)
#: A Swiss's default tie-break order (see the module docstring).
SWISS_ORDER = (
    Tiebreak.BUCHHOLZ_CUT_1,
    Tiebreak.BUCHHOLZ,
    Tiebreak.SONNEBORN_BERGER,
    Tiebreak.DIRECT_ENCOUNTER,
    Tiebreak.WINS,
    Tiebreak.GAME_POINTS_DIFFERENCE,
)


def lot_order(seed: int, entrant_ids: Iterable[int]) -> list[int]:
    """The entrants in the order the lots of ``seed`` draw them, first to last: each one's lot
    is the SHA-256 of ``"<seed>:<id>"``, the lowest first (the same seed, the same order).

    >>> lot_order(7, [1, 2, 3]) == lot_order(7, [3, 2, 1])
    True
    """
    return sorted(entrant_ids, key=lambda entrant_id: (_lot(seed, entrant_id), entrant_id))


def _lot(seed: int, entrant_id: int) -> str:
    return hashlib.sha256(f"{seed}:{entrant_id}".encode()).hexdigest()


@dataclass(frozen=True, slots=True, init=False)
class Entrant:
    """A tournament entrant: its id (any stable integer, e.g. the Entry id) and its rating."""

    id: int
    rating: Fraction

    def __init__(self, id: int, rating: Number = 0) -> None:
        object.__setattr__(self, "id", id)
        object.__setattr__(self, "rating", as_fraction(rating))


@dataclass(frozen=True, slots=True, init=False)
class Result:
    """A finished match of round ``round``: ``a`` against ``b``, or a bye for ``a`` (``b`` None).

    ``winner`` is ``a``, ``b`` or None for a drawn match (None for a bye); it has no default, so
    that a forgotten winner is not a silent draw. Game points are each side's match score (a bye
    may carry game points for ``a``).
    """

    round: int
    a: int
    b: int | None
    winner: int | None
    game_points_a: Fraction
    game_points_b: Fraction
    forfeit: bool

    def __init__(
        self,
        round: int,
        a: int,
        b: int | None,
        winner: int | None,
        game_points_a: Number = 0,
        game_points_b: Number = 0,
        forfeit: bool = False,
    ) -> None:
        if round < 1:
            raise ValueError(f"rounds are numbered from 1, not {round}")
        if a == b:
            raise ValueError(f"round {round}: entrant {a} cannot play itself")
        if b is None and (winner is not None or as_fraction(game_points_b)):
            raise ValueError(f"round {round}: a bye for {a} has no winner and no opponent")
        if winner not in (a, b, None):
            raise ValueError(f"round {round}: the winner {winner} did not play {a}–{b}")
        if forfeit and (b is None or as_fraction(game_points_a) or as_fraction(game_points_b)):
            raise ValueError(f"round {round}: a forfeit has two sides and no game points")
        object.__setattr__(self, "round", round)
        object.__setattr__(self, "a", a)
        object.__setattr__(self, "b", b)
        object.__setattr__(self, "winner", winner)
        object.__setattr__(self, "game_points_a", as_fraction(game_points_a))
        object.__setattr__(self, "game_points_b", as_fraction(game_points_b))
        object.__setattr__(self, "forfeit", forfeit)

    @classmethod
    def bye(cls, round: int, entrant: int, game_points: Number = 0) -> Result:
        return cls(round, entrant, None, None, game_points)

    @classmethod
    def by_forfeit(cls, round: int, a: int, b: int, winner: int | None) -> Result:
        """``a`` against ``b`` decided by forfeit: ``winner`` came and the other did not; None:
        neither came, and both lose."""
        return cls(round, a, b, winner, forfeit=True)

    @classmethod
    def from_score(cls, round: int, a: int, b: int, score: MatchScoreResult) -> Result:
        """The result of a finished match whose player 1 is ``a`` and player 2 is ``b``."""
        if not score.finished:
            raise ValueError(f"round {round}: the match {a}–{b} is not finished")
        winner = None if score.winner is None else a if score.winner == 1 else b
        return cls(round, a, b, winner, score.score1, score.score2)

    @property
    def is_bye(self) -> bool:
        return self.b is None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """One line of the standings; ``tiebreaks`` holds each value asked for, in the order asked.
    ``lot``: when the tie-breaks left it level with others and lots decided, its number in
    their draw (1 for the first of them); None otherwise."""

    rank: int
    entrant: Entrant
    match_points: Fraction
    wins: int
    draws: int
    losses: int
    game_points_for: Fraction
    game_points_against: Fraction
    tiebreaks: dict[str, Fraction]
    forfeits_won: int = 0
    forfeits_lost: int = 0
    lot: int | None = None


Kind = Literal["win", "draw", "loss", "bye"]
_FACTOR: dict[str, Fraction] = {"win": Fraction(1), "draw": Fraction(1, 2), "loss": Fraction(0)}


@dataclass(frozen=True, slots=True)
class _Round:
    """One round of one entrant's sheet."""

    round: int
    opponent: int | None
    kind: Kind
    points: Fraction
    unplayed: bool  # a bye or a forfeit: a virtual opponent in the tie-breaks
    game_points_for: Fraction
    game_points_against: Fraction


@dataclass(slots=True)
class _Sheet:
    """What one entrant did: its rounds and its totals."""

    entrant: Entrant
    rounds: list[_Round]
    match_points: Fraction = Fraction(0)
    adjusted: Fraction = Fraction(0)  # byes counted as draws: its score in others' tie-breaks
    wins: int = 0
    draws: int = 0
    losses: int = 0
    game_points_for: Fraction = Fraction(0)
    game_points_against: Fraction = Fraction(0)
    forfeits_won: int = 0
    forfeits_lost: int = 0


def compute(
    entrants: Iterable[Entrant],
    results: Iterable[Result],
    tiebreaks: Sequence[Tiebreak | str],
    *,
    points: MatchPoints | None = None,
    rounds: int | None = None,
    lots: Sequence[int] | None = None,
) -> list[StandingRow]:
    """The standings, best first (see the module docstring for every rule).

    ``points`` defaults to ``MatchPoints()`` (1, ½, 0, bye 1); ``rounds`` is n in the FIDE
    virtual-opponent formula, by default the highest round in ``results``; ``lots``: the entrants
    in the order the lots drew them (``lot_order``; None: none were drawn, and level entrants
    share their rank). An unknown tie-break,
    a result naming an unknown entrant, two results of one entrant in one round or a result after
    ``rounds`` is a ``ValueError``.
    """
    points = points or MatchPoints()
    order = _tiebreak_order(tiebreaks)
    sheets = _sheets(entrants, results, points)
    played = max((turn.round for sheet in sheets.values() for turn in sheet.rounds), default=0)
    if rounds is None:
        rounds = played
    elif rounds < played:
        raise ValueError(f"there are results of round {played}, but only {rounds} rounds")
    bye_kind: Kind = (
        "win" if points.bye > points.draw else "draw" if points.bye == points.draw else "loss"
    )
    opposite = {"win": points.loss, "draw": points.draw, "loss": points.win}

    def opponent_scores(sheet: _Sheet) -> list[tuple[Kind, Fraction]]:
        """Each round's result and opponent's score for tie-breaks: real or virtual."""
        values: list[tuple[Kind, Fraction]] = []
        earned: list[Fraction] = []  # the points before the round: SPR is their sum
        for turn in sorted(sheet.rounds, key=lambda turn: turn.round):
            if turn.unplayed:
                kind = bye_kind if turn.kind == "bye" else turn.kind
                virtual = exact_sum(earned) + opposite[kind] + points.draw * (rounds - turn.round)
                values.append((kind, virtual))
            else:
                assert turn.opponent is not None
                values.append((turn.kind, sheets[turn.opponent].adjusted))
            earned.append(turn.points)
        return values

    values: dict[int, dict[str, Fraction]] = {entrant_id: {} for entrant_id in sheets}
    for entrant_id, sheet in sheets.items():
        scores = opponent_scores(sheet)
        faced = [score for _, score in scores]
        buchholz = exact_sum(faced)
        mine = values[entrant_id]
        for tiebreak in order:
            if tiebreak is Tiebreak.BUCHHOLZ:
                mine[tiebreak] = buchholz
            elif tiebreak is Tiebreak.BUCHHOLZ_CUT_1:
                mine[tiebreak] = buchholz - min(faced) if faced else buchholz
            elif tiebreak is Tiebreak.MEDIAN_BUCHHOLZ:
                mine[tiebreak] = (
                    buchholz - min(faced) - max(faced) if len(faced) > 1 else Fraction(0)
                )
            elif tiebreak is Tiebreak.SONNEBORN_BERGER:
                mine[tiebreak] = exact_sum(
                    _FACTOR[kind] * score for kind, score in scores if kind != "loss"
                )
            elif tiebreak is Tiebreak.WINS:
                mine[tiebreak] = Fraction(sheet.wins)
            elif tiebreak is Tiebreak.GAME_POINTS_DIFFERENCE:
                mine[tiebreak] = sheet.game_points_for - sheet.game_points_against
            elif tiebreak is Tiebreak.RATING:
                mine[tiebreak] = sheet.entrant.rating
    if Tiebreak.DIRECT_ENCOUNTER in order:
        before_it = order[: order.index(Tiebreak.DIRECT_ENCOUNTER)]
        _direct_encounter(sheets, values, before_it)

    def key(sheet: _Sheet) -> tuple[Fraction, ...]:
        mine = values[sheet.entrant.id]
        return (sheet.match_points, *(mine[tiebreak] for tiebreak in order))

    drawn = {} if lots is None else {entrant: n for n, entrant in enumerate(lots)}
    unlisted = len(drawn)  # an entrant the draw does not list (none should) comes after
    ranked = sorted(
        sheets.values(),
        key=lambda sheet: (
            _negated(key(sheet)),
            drawn.get(sheet.entrant.id, unlisted),
            sheet.entrant.id,
        ),
    )
    level: dict[tuple[Fraction, ...], int] = defaultdict(int)
    for sheet in ranked:
        level[key(sheet)] += 1
    rows: list[StandingRow] = []
    for position, sheet in enumerate(ranked, start=1):
        shares = bool(rows) and key(sheet) == key(ranked[position - 2])
        lot = None
        if lots is not None and level[key(sheet)] > 1:
            lot = rows[-1].lot + 1 if shares and rows[-1].lot else 1
        rows.append(
            StandingRow(
                rank=rows[-1].rank if shares and lot is None else position,
                entrant=sheet.entrant,
                match_points=sheet.match_points,
                wins=sheet.wins,
                draws=sheet.draws,
                losses=sheet.losses,
                game_points_for=sheet.game_points_for,
                game_points_against=sheet.game_points_against,
                tiebreaks={str(tiebreak): values[sheet.entrant.id][tiebreak] for tiebreak in order},
                forfeits_won=sheet.forfeits_won,
                forfeits_lost=sheet.forfeits_lost,
                lot=lot,
            )
        )
    return rows


def shared_places(rows: Sequence[StandingRow]) -> list[list[int]]:
    """The entrants who share a place in ``compute``'s standings, a list for each place shared
    (empty: every place is decided)."""
    places: dict[int, list[int]] = defaultdict(list)
    for row in rows:
        places[row.rank].append(row.entrant.id)
    return [ids for ids in places.values() if len(ids) > 1]


def level_among_first(rows: Sequence[StandingRow], count: int) -> bool:
    """Whether players level after the tie-breaks share a place that one of ``compute``'s first
    ``count`` rows holds: where the order decides who goes on from a stage, or their seeds."""
    first = {row.entrant.id for row in rows[:count]}
    return any(first.intersection(level) for level in shared_places(rows))


def deciding_tiebreaks(rows: Sequence[StandingRow]) -> list[tuple[str, ...]]:
    """For each row of ``compute``'s standings, the tie-breaks that decided its place: against
    each neighbour on equal match points, the first tie-break (in the order asked) whose values
    differ. A row whose neighbours have other points, or who shares its rank, gets none.

    >>> a = StandingRow(1, Entrant(1), Fraction(2), 2, 0, 0, Fraction(6), Fraction(2),
    ...                 {"buchholz": Fraction(5), "wins": Fraction(2)})
    >>> b = StandingRow(2, Entrant(2), Fraction(2), 2, 0, 0, Fraction(6), Fraction(3),
    ...                 {"buchholz": Fraction(4), "wins": Fraction(2)})
    >>> deciding_tiebreaks([a, b])
    [('buchholz',), ('buchholz',)]
    """
    deciders: list[list[str]] = [[] for _ in rows]
    for index, (upper, lower) in enumerate(zip(rows, rows[1:], strict=False)):
        if upper.match_points != lower.match_points:
            continue
        differs = (name for name, value in upper.tiebreaks.items()
                   if lower.tiebreaks.get(name) != value)  # fmt: skip
        name = next(differs, None)
        if name is None:
            continue
        for side in (index, index + 1):
            if name not in deciders[side]:
                deciders[side].append(name)
    order = list(rows[0].tiebreaks) if rows else []
    return [tuple(sorted(names, key=order.index)) for names in deciders]


def _negated(key: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    return tuple(-value for value in key)


def _tiebreak_order(tiebreaks: Sequence[Tiebreak | str]) -> list[Tiebreak]:
    order: list[Tiebreak] = []
    for name in tiebreaks:
        try:
            tiebreak = Tiebreak(name)
        except ValueError:
            known = ", ".join(tiebreak.value for tiebreak in Tiebreak)
            raise ValueError(f"unknown tie-break {name!r}: expected one of {known}") from None
        if tiebreak in order:
            raise ValueError(f"the tie-break {tiebreak.value!r} is listed twice")
        order.append(tiebreak)
    return order


def _sheets(
    entrants: Iterable[Entrant], results: Iterable[Result], points: MatchPoints
) -> dict[int, _Sheet]:
    sheets: dict[int, _Sheet] = {}
    for entrant in entrants:
        if entrant.id in sheets:
            raise ValueError(f"entrant {entrant.id} is listed twice")
        sheets[entrant.id] = _Sheet(entrant, [])
    seen: set[tuple[int, int]] = set()
    for result in results:
        sides = [(result.a, result.b, result.game_points_a, result.game_points_b)]
        if result.b is not None:
            sides.append((result.b, result.a, result.game_points_b, result.game_points_a))
        for me, opponent, won, lost in sides:
            sheet = sheets.get(me)
            if sheet is None:
                raise ValueError(f"round {result.round}: {me} is not an entrant")
            if (me, result.round) in seen:
                raise ValueError(f"entrant {me} has two results in round {result.round}")
            seen.add((me, result.round))
            kind: Kind
            if opponent is None:
                kind, value = "bye", points.bye
            elif result.winner is None and not result.forfeit:
                kind, value = "draw", points.draw
                sheet.draws += 1
            elif result.winner == me:
                kind, value = "win", points.win
                sheet.wins += 1
                sheet.forfeits_won += int(result.forfeit)
            else:  # lost, or neither came to a forfeit
                kind, value = "loss", points.loss
                sheet.losses += 1
                sheet.forfeits_lost += int(result.forfeit)
            unplayed = opponent is None or result.forfeit
            sheet.rounds.append(_Round(result.round, opponent, kind, value, unplayed, won, lost))
    for sheet in sheets.values():
        sheet.match_points = exact_sum(turn.points for turn in sheet.rounds)
        # Unplayed rounds (byes, forfeits) count as draws in everybody else's tie-breaks.
        sheet.adjusted = exact_sum(
            points.draw if turn.unplayed else turn.points for turn in sheet.rounds
        )
        sheet.game_points_for = exact_sum(turn.game_points_for for turn in sheet.rounds)
        sheet.game_points_against = exact_sum(turn.game_points_against for turn in sheet.rounds)
    return sheets


def exact_sum(values: Iterable[Fraction]) -> Fraction:
    """The exact sum of ``values``, the whole ones added as ints. Standings add tens of
    thousands of points, mostly whole, and each Fraction addition costs a microsecond.

    >>> exact_sum([Fraction(1), Fraction(1, 2), Fraction(2), Fraction(1, 3)])
    Fraction(23, 6)
    """
    whole = 0
    parts: list[Fraction] = []
    for value in values:
        if value.denominator == 1:
            whole += value.numerator
        else:
            parts.append(value)
    return sum(parts, Fraction(whole))


def _direct_encounter(
    sheets: dict[int, _Sheet], values: dict[int, dict[str, Fraction]], before: list[Tiebreak]
) -> None:
    """Fill in direct-encounter: points among each group tied on everything before it."""
    groups: dict[tuple[Fraction, ...], list[int]] = defaultdict(list)
    for entrant_id, sheet in sheets.items():
        tied_on = (sheet.match_points, *(values[entrant_id][tiebreak] for tiebreak in before))
        groups[tied_on].append(entrant_id)
    for group in groups.values():
        members = set(group)
        met = {
            frozenset((entrant_id, turn.opponent))
            for entrant_id in group
            for turn in sheets[entrant_id].rounds
            if turn.opponent in members
        }
        everyone_met = len(group) > 1 and all(
            frozenset(pair) in met for pair in combinations(group, 2)
        )
        for entrant_id in group:
            among = (
                turn.points
                for turn in sheets[entrant_id].rounds
                if everyone_met and turn.opponent in members
            )
            values[entrant_id][Tiebreak.DIRECT_ENCOUNTER] = exact_sum(among)
