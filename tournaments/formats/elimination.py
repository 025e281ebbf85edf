"""Elimination brackets drawn before play: single, double and backgammon consolation. Pure.

A generator returns the whole bracket as a list of ``BracketMatch``: each side of a match is a
``Seed`` (entrant seeded k, 1 the strongest), the ``WinnerOf`` an earlier match or the ``LoserOf``
one. Nothing depends on who wins, so the bracket can be stored and printed before round 1, and a
match becomes playable when its sides are known (``pairings``). ``places`` turns the winners of a
complete run into each entrant's final place.

Ids. ``<prefix><round>-<number>``: ``M`` main (single elimination and consolation formats), ``W``
winners, ``L`` losers, ``C`` consolation, ``LC`` last chance; ``number`` counts the matches of the
round from the top of the bracket, 1 up, byes skipped (``W1-3`` is the third match of round 1 of
the winners bracket). Fixed names: ``3P`` third-place match, ``GF`` grand final, ``GF-reset``.
``round`` counts within the bracket from 1, except that the third-place match carries the main
final's round (it is played alongside). The list comes in an order the matches can be played in:
by the earliest round each can start in, so every match comes after those its sides come from.

Seeding and byes. The bracket is drawn for the next power of two, in the standard order that
keeps 1 and 2 apart until the final (8: 1-8, 4-5, 3-6, 2-7 top to bottom), and the missing
entrants n+1, n+2, ... are byes, so byes fall to the top seeds. No match is made for a bye: the
seed appears as ``Seed(k)`` in its round-2 match. Brackets that take losers (losers, consolation,
last chance) are drawn at full size too, and a line nobody can reach is a bye the same way, so a
round may have no matches at all (its number is kept: ``L2-1`` may be the first losers match).
In the main and winners brackets ``home`` holds the better seed on paper; elsewhere ``home`` is
the side already in the bracket and ``away`` the one dropping in; in the grand final ``home`` is
the winners-bracket champion.

Formats.

* ``single``: one loss and out; ``third_place`` adds ``3P`` between the two semifinal losers.
* ``double``: a loss drops a winners-bracket entrant into the losers bracket, a second loss is out.
  Round-1 losers meet each other; the losers of each later winners round drop in against the
  losers-bracket survivors in an order that varies from round to round (reversed, halves
  swapped, ...; see ``_drop_order``), so that nobody meets the same opponent again early.
  Grand final ``"reset"``: ``GF`` and then ``GF-reset`` (``if_needed=True``), played only if the
  losers-bracket champion (away) wins ``GF``, since the winners-bracket champion has not lost yet.
  ``"single"``: ``GF`` alone decides. ``"none"``: no final; the winners-bracket champion is 1st
  and the losers-bracket champion 2nd.
* ``consolation``: a single-elimination main bracket plus a consolation bracket, and with
  ``last_chance`` a third bracket. Nobody drops from a bracket's final: its loser is that
  bracket's runner-up. "First-round losers" of a bracket (our reading of the backgammon rule that
  a player with a bye who loses in round 2 is a first-round loser): the losers of every match in
  which a player plays their first match of that bracket, having entered it in round 1. A bye
  round-2 match therefore sends its loser down whoever it is; that keeps the bracket fixed
  before play (the strict club rule would send only the bye-holder, which depends on who wins).

  - ``"first-round"``: the main bracket's first-round losers play a single-elimination
    consolation; those arriving first (round-1 losers) are paired first, byes go to the latest
    arrivals, and two losers who may have met already are not paired in round 1 if avoidable.
  - ``"progressive"``: the losers of every main round but the final drop into the consolation,
    entering at the matching round exactly like a double-elimination losers bracket (round-1
    losers meet each other in C1; round-r losers meet the survivors in the drop round C(2r-2)).
    A bye-holder who loses in round 2 drops with the other round-2 losers.
  - ``last_chance``: the consolation's first-round losers (same reading as above) play a
    single-elimination last-chance bracket, drawn like the first-round consolation.

Places (``places``): an entrant finishes where they lose without dropping to another bracket,
or win a match whose winner goes nowhere (a bracket's champion). Finishes are ordered by bracket
(grand final, then main or winners with the third-place match just after the main final, then
losers or consolation, then last chance), then by round, later first, then winner before loser.
Entrants finishing alike share a place and the next place skips (1, 2, 3, 3, 5, 5, 5, 5): in
single elimination the round-r losers share place ``size / 2**r + 1``. So the consolation
formats rank the main finalists first, then the main losers who did not drop (first-round
consolation: semifinal losers 3rd, quarterfinal losers 5th, ...), then everyone the consolation
placed, and last-chance entrants last. An entrant alone in a bracket plays no match there and
keeps the place of the match that sent them.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal, TypeAlias

__all__ = [
    "CONSOLATION_KINDS",
    "GRAND_FINALS",
    "BracketMatch",
    "ConsolationKind",
    "GrandFinal",
    "LoserOf",
    "Seed",
    "Side",
    "Winner",
    "WinnerOf",
    "bracket_order",
    "consolation",
    "double",
    "pairings",
    "places",
    "single",
]

GrandFinal: TypeAlias = Literal["reset", "single", "none"]
ConsolationKind: TypeAlias = Literal["first-round", "progressive"]
Winner: TypeAlias = Literal["home", "away"]

GRAND_FINALS: tuple[GrandFinal, ...] = ("reset", "single", "none")
CONSOLATION_KINDS: tuple[ConsolationKind, ...] = ("first-round", "progressive")


@dataclass(frozen=True, slots=True)
class Seed:
    """The entrant seeded ``k``: 1 is the strongest."""

    k: int


@dataclass(frozen=True, slots=True)
class WinnerOf:
    match_id: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    match_id: str


Side: TypeAlias = Seed | WinnerOf | LoserOf


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """One match of a bracket. ``if_needed`` marks the bracket reset: played only if the away
    side wins the grand final its sides come from."""

    id: str
    bracket: str
    round: int
    home: Side
    away: Side
    if_needed: bool = False


#: A third-place match is played between the two semifinal losers: it needs two semifinals.
THIRD_PLACE_ENTRANTS = 4


def single(n: int, third_place: bool = False) -> list[BracketMatch]:
    """Single elimination: n - 1 matches, one more with the third-place match."""
    _check_entrants(n)
    if third_place and n < THIRD_PLACE_ENTRANTS:
        raise ValueError(
            "a third-place match needs two semifinals: "
            f"at least {THIRD_PLACE_ENTRANTS} entrants, not {n}"
        )
    draw = _Draw()
    main = draw.knockout(_seeded_lines(n), "main", "M", favourite_home=True)
    if third_place:
        first, second = [line for line in main.losers[-2] if line is not None]
        draw.play("third-place", "3P", len(main.losers), first, second, match_id="3P")
    return draw.matches()


def double(n: int, grand_final: GrandFinal = "reset") -> list[BracketMatch]:
    """Double elimination: winners and losers brackets, then the grand final as asked."""
    _check_entrants(n)
    if grand_final not in GRAND_FINALS:
        raise ValueError(f"unknown grand final {grand_final!r}: use one of {GRAND_FINALS}")
    draw = _Draw()
    winners = draw.knockout(_seeded_lines(n), "winners", "W", favourite_home=True)
    losers = draw.losers_bracket(winners.losers, "losers", "L")
    if grand_final != "none":
        assert winners.champion is not None and losers.champion is not None
        champion, runner_up = draw.play(
            "final", "GF", 1, winners.champion, losers.champion, match_id="GF"
        )
        if grand_final == "reset":
            assert champion is not None and runner_up is not None
            # Played only when the winners-bracket champion lost GF: they are home again.
            draw.play("final", "GF", 2, runner_up, champion, match_id="GF-reset", if_needed=True)
    return draw.matches()


def consolation(
    n: int, kind: ConsolationKind = "first-round", last_chance: bool = False
) -> list[BracketMatch]:
    """A main single-elimination bracket with a consolation bracket (and a last chance)."""
    _check_entrants(n)
    if kind not in CONSOLATION_KINDS:
        raise ValueError(f"unknown consolation {kind!r}: use one of {CONSOLATION_KINDS}")
    draw = _Draw()
    main = draw.knockout(_seeded_lines(n), "main", "M", favourite_home=True)
    if kind == "first-round":
        lines = _arrange(main.first_round_losers)
        second = draw.knockout(lines, "consolation", "C", favourite_home=False)
    else:
        second = draw.losers_bracket(main.losers[:-1], "consolation", "C")
    if last_chance:
        draw.knockout(
            _arrange(second.first_round_losers), "last-chance", "LC", favourite_home=False
        )
    return draw.matches()


def pairings(
    matches: Sequence[BracketMatch], winners: Mapping[str, Winner]
) -> dict[str, tuple[int, int]]:
    """The (home, away) seeds of every match whose two sides are known from ``winners``: the
    matches played and those ready to play. A reset that turned out not needed is left out."""
    run = _Run(matches, winners)
    return {
        match.id: players
        for match in matches
        if run.needed(match) and (players := run.players(match)) is not None
    }


def places(matches: Sequence[BracketMatch], winners: Mapping[str, Winner]) -> dict[int, int]:
    """Each entrant's final place (seed -> place) from a complete run; shared places as the
    format has them (see the module docstring)."""
    run = _Run(matches, winners)
    needed = [match for match in matches if run.needed(match)]
    unplayed = [match.id for match in needed if match.id not in winners]
    if unplayed:
        raise ValueError(f"the run is not complete: no winner for {', '.join(unplayed)}")
    going_on = {side for match in needed for side in (match.home, match.away)}
    finishes: dict[int, tuple[int, int, int]] = {}
    for match in needed:
        result = run.result(match.id)
        assert result is not None
        for outcome, seed, side in (
            (0, result[0], WinnerOf(match.id)),
            (1, result[1], LoserOf(match.id)),
        ):
            if side not in going_on:
                if seed in finishes:
                    raise ValueError(f"seed {seed} finishes twice, the second time in {match.id}")
                finishes[seed] = _finish_key(match, outcome)
    missing = sorted(run.seeds - finishes.keys())
    if missing:
        raise ValueError(f"seeds {missing} never finish: not a complete bracket")
    keys = sorted(finishes.values())
    return {seed: 1 + bisect_left(keys, key) for seed, key in sorted(finishes.items())}


# Finishing order of the brackets; the third-place match ranks just after the main final.
_STANDING = {
    "final": 0,
    "winners": 1,
    "main": 1,
    "third-place": 1,
    "losers": 2,
    "consolation": 2,
    "last-chance": 3,
}


def _finish_key(match: BracketMatch, outcome: int) -> tuple[int, int, int]:
    """Smaller is better: bracket, later round, then winner (0) before loser (1)."""
    offset = 2 if match.bracket == "third-place" else 0
    return (_STANDING[match.bracket], -match.round, offset + outcome)


def _check_entrants(n: int) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 2:
        raise ValueError(f"an elimination bracket needs at least 2 entrants, not {n!r}")


def bracket_order(size: int) -> list[int]:
    """Seeds top to bottom in a bracket of ``size`` (a power of two): 8 -> 1 8 5 4 3 6 7 2.

    Each step pairs every seed s of the half-size order with size + 1 - s, every other pair
    flipped, so the better seed of each pair sits where the half-size bracket had it.
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [
            seed
            for index, top in enumerate(order)
            for seed in ((top, total - top) if index % 2 == 0 else (total - top, top))
        ]
    return order


def _drop_order(lines: Sequence[_Line | None], winners_round: int) -> list[_Line | None]:
    """The losers of winners round r (r >= 2), reordered to meet the losers-bracket survivors
    (top to bottom), so that a dropped player rarely meets someone they may have beaten already.

    Round 2: reversed. Round 3: halves swapped when 8 or more drop, else each half reversed.
    Later rounds: neighbours swapped (2 1 4 3 ...). Chosen by simulating every mix of the usual
    orders (as is, reversed, halves swapped, each half reversed, neighbours swapped): the fewest
    rematches before the losers final for 8 to 128 entrants, none when favourites always win.
    """
    half = len(lines) // 2
    if winners_round == 2 or len(lines) < 2:
        return list(reversed(lines))
    if winners_round == 3 and len(lines) >= 8:
        return [*lines[half:], *lines[:half]]
    if winners_round == 3:
        return [*reversed(lines[:half]), *reversed(lines[half:])]
    return [line for pair in zip(lines[1::2], lines[::2], strict=True) for line in pair]


@dataclass(frozen=True, slots=True)
class _Line:
    """A place in a bracket that one entrant will hold: who (``side``), the best seed who can
    arrive there (``best``), whether they have yet to play in this bracket since entering it in
    round 1 (``fresh``), every match they may have played (``history``), and the earliest round
    of play after which it is known (``ready``)."""

    side: Side
    best: int
    fresh: bool
    history: frozenset[str]
    ready: int


@dataclass(slots=True)
class _Bracket:
    """What drawing one bracket gave: its champion's line, the losers of each round (top to
    bottom, None for a bye or a line nobody reaches) and the first-round losers, in order."""

    champion: _Line | None
    losers: list[list[_Line | None]]
    first_round_losers: list[_Line]


def _seeded_lines(n: int) -> list[_Line | None]:
    size = 1 << (n - 1).bit_length()
    return [
        _Line(Seed(seed), seed, True, frozenset(), 0) if seed <= n else None
        for seed in bracket_order(size)
    ]


def _arrange(lines: Sequence[_Line]) -> list[_Line | None]:
    """Lines entering a knockout, top to bottom with None for byes. Round 1 pairs the earliest
    arrivals, each with the next one it cannot have met yet (if any); byes go to the latest."""
    if len(lines) <= 1:
        return [replace(line, fresh=True) for line in lines]
    size = 1 << (len(lines) - 1).bit_length()
    waiting = [replace(line, fresh=True) for line in lines]
    arranged: list[_Line | None] = []
    for _ in range(len(lines) - size // 2):
        first = waiting.pop(0)
        partner = next((line for line in waiting if not line.history & first.history), waiting[0])
        waiting.remove(partner)
        arranged += [first, partner]
    for line in waiting:
        arranged += [line, None]
    return arranged


class _Draw:
    """Collects the matches of one bracket drawing; a would-be match with a missing side is not
    made and the other side goes straight on."""

    def __init__(self) -> None:
        self._made: list[tuple[int, int, BracketMatch]] = []
        self._numbers: dict[tuple[str, int], int] = {}

    def matches(self) -> list[BracketMatch]:
        return [match for _, _, match in sorted(self._made, key=lambda made: made[:2])]

    def play(
        self,
        bracket: str,
        prefix: str,
        round: int,
        home: _Line | None,
        away: _Line | None,
        *,
        match_id: str | None = None,
        if_needed: bool = False,
    ) -> tuple[_Line | None, _Line | None]:
        """The winner's and the loser's lines of a match between ``home`` and ``away``."""
        if home is None or away is None:
            return home if away is None else away, None
        number = self._numbers.get((prefix, round), 0) + 1
        self._numbers[prefix, round] = number
        match_id = match_id or f"{prefix}{round}-{number}"
        ready = 1 + max(home.ready, away.ready)
        history = home.history | away.history | {match_id}
        best = min(home.best, away.best)
        match = BracketMatch(match_id, bracket, round, home.side, away.side, if_needed)
        self._made.append((ready, len(self._made), match))
        return (
            _Line(WinnerOf(match_id), best, False, history, ready),
            _Line(LoserOf(match_id), best, False, history, ready),
        )

    def knockout(
        self, lines: Sequence[_Line | None], bracket: str, prefix: str, *, favourite_home: bool
    ) -> _Bracket:
        """Single elimination over ``lines`` (a power of two long, or a single line)."""
        result = _Bracket(None, [], [])
        current = list(lines)
        round_no = 0
        while len(current) > 1:
            round_no += 1
            current = self._pair_round(current, bracket, prefix, round_no, result, favourite_home)
        result.champion = current[0] if current else None
        self._drop_final(result)
        return result

    def losers_bracket(
        self, drops: Sequence[Sequence[_Line | None]], bracket: str, prefix: str
    ) -> _Bracket:
        """A double-elimination losers bracket fed by the losers of each winners round."""
        result = _Bracket(None, [], [])
        if not drops:
            return result
        current: list[_Line | None] = [
            None if line is None else replace(line, fresh=True) for line in drops[0]
        ]
        round_no = 0
        if len(current) > 1:
            round_no += 1
            current = self._pair_round(current, bracket, prefix, round_no, result, False)
        for winners_round, dropped in enumerate(drops[1:], start=2):
            round_no += 1
            losers: list[_Line | None] = []
            after: list[_Line | None] = []
            for survivor, drop in zip(current, _drop_order(dropped, winners_round), strict=True):
                winner, loser = self.play(bracket, prefix, round_no, survivor, drop)
                self._note_loser(result, survivor, drop, loser)
                losers.append(loser)
                after.append(winner)
            result.losers.append(losers)
            current = after
            if len(current) > 1:
                round_no += 1
                current = self._pair_round(current, bracket, prefix, round_no, result, False)
        result.champion = current[0]
        self._drop_final(result)
        return result

    def _pair_round(
        self,
        current: list[_Line | None],
        bracket: str,
        prefix: str,
        round: int,
        result: _Bracket,
        favourite_home: bool,
    ) -> list[_Line | None]:
        winners: list[_Line | None] = []
        losers: list[_Line | None] = []
        for home, away in zip(current[::2], current[1::2], strict=True):
            if favourite_home and home is not None and away is not None and away.best < home.best:
                home, away = away, home
            winner, loser = self.play(bracket, prefix, round, home, away)
            self._note_loser(result, home, away, loser)
            winners.append(winner)
            losers.append(loser)
        result.losers.append(losers)
        return winners

    @staticmethod
    def _note_loser(
        result: _Bracket, home: _Line | None, away: _Line | None, loser: _Line | None
    ) -> None:
        if loser is not None and any(side is not None and side.fresh for side in (home, away)):
            result.first_round_losers.append(loser)

    @staticmethod
    def _drop_final(result: _Bracket) -> None:
        """The final's loser is the bracket's runner-up, never a first-round loser to send on."""
        champion = result.champion
        if champion is not None and isinstance(champion.side, WinnerOf):
            final_loser = LoserOf(champion.side.match_id)
            result.first_round_losers = [
                line for line in result.first_round_losers if line.side != final_loser
            ]


class _Run:
    """Who played whom in a (partial) run: ``winners`` maps a match id to "home" or "away"."""

    def __init__(self, matches: Sequence[BracketMatch], winners: Mapping[str, Winner]) -> None:
        self._by_id: dict[str, BracketMatch] = {}
        for match in matches:
            if match.id in self._by_id:
                raise ValueError(f"two matches have the id {match.id!r}")
            self._by_id[match.id] = match
        for match_id, winner in winners.items():
            if match_id not in self._by_id:
                raise ValueError(f"no match {match_id!r} in this bracket")
            if winner not in ("home", "away"):
                raise ValueError(
                    f"the winner of {match_id} must be 'home' or 'away', not {winner!r}"
                )
        self._winners = winners
        self._results: dict[str, tuple[int, int] | None] = {}
        self.seeds = {
            side.k
            for match in matches
            for side in (match.home, match.away)
            if isinstance(side, Seed)
        }
        for match in matches:
            if match.id in winners and not self.needed(match):
                raise ValueError(
                    f"{match.id} is played only if the away side wins the match before"
                )
            self.result(match.id)  # a winner for a match whose players are not known is refused

    def needed(self, match: BracketMatch) -> bool:
        """False only for a reset whose grand final the home side won (or is not yet played)."""
        if not match.if_needed:
            return True
        if isinstance(match.home, Seed):
            raise ValueError(f"{match.id} is marked if needed but follows no match")
        return self._winners.get(match.home.match_id) == "away"

    def players(self, match: BracketMatch) -> tuple[int, int] | None:
        home, away = self._seed(match.home), self._seed(match.away)
        return None if home is None or away is None else (home, away)

    def result(self, match_id: str) -> tuple[int, int] | None:
        """(winner, loser) seeds of a played match."""
        if match_id not in self._results:
            self._results[match_id] = None  # a cycle resolves to "not known"
            match = self._by_id[match_id]
            winner = self._winners.get(match_id)
            players = self.players(match)
            if winner is not None and players is None:
                raise ValueError(f"{match_id} has a winner but its players are not known yet")
            if winner is not None and players is not None:
                home, away = players
                self._results[match_id] = (home, away) if winner == "home" else (away, home)
        return self._results[match_id]

    def _seed(self, side: Side) -> int | None:
        if isinstance(side, Seed):
            return side.k
        if side.match_id not in self._by_id:
            raise ValueError(f"a side refers to an unknown match {side.match_id!r}")
        result = self.result(side.match_id)
        if result is None:
            return None
        return result[0] if isinstance(side, WinnerOf) else result[1]
