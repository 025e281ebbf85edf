"""Analyse a match with GNU Backgammon as a separate program and read back its figures.

``analyse(mat_text)`` writes the .mat text to a scratch file, runs ``gnubg -t -q -p`` on
``gnubg_script.py`` with a time limit, and parses the JSON it prints (``parse``) into plain
dataclasses: for each game and side the checker and cube errors, the luck and the unforced
decisions (gnubg's own statistics), and every decision that lost equity with gnubg's best play.

Figures are keyed by side, never by name: gnubg's player X is the left column of the .mat text
(side 1, ``HOME``), O the right one (side 2, ``AWAY``). Two names can read the same once a .mat
writer has replaced a character of one of them; two columns cannot.

Equities are gnubg's normalized equity (EMG): 1.0 is one point of the cube. The error rate and
PR follow gnubg and XG: gnubg's mEMG is the total error over the unforced moves and the close
cube decisions × 1000, XG's PR the same total × 500.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SCRIPT = Path(__file__).with_name("gnubg_script.py")
MARK = "=====NARDY-ANALYSIS====="
PROGRESS = "=====NARDY-PROGRESS====="
#: A decision that loses more than this much equity is a blunder; more than ``ERROR``, an error
#: (Short Nardy, by gnubg; the Long Nardy engine has thresholds of its own:
#: ``games.engine.analysis.BLUNDER``).
BLUNDER = 0.08
ERROR = 0.04
#: Where Debian installs gnubg, looked at after the PATH.
DEBIAN_GAMES = "/usr/games"


def mark_of(loss: float, blunder: float = BLUNDER, error: float = ERROR) -> str:
    """What a play that lost ``loss`` equity is called: "blunder", "error" or ""."""
    return "blunder" if loss > blunder else "error" if loss > error else ""


class AnalysisError(Exception):
    """gnubg failed, timed out or printed no analysis."""


class AnalysisTimeout(AnalysisError):
    """gnubg took longer than its time limit: it would again, so this is not worth a retry."""


class AnalysisUnavailable(AnalysisError):
    """gnubg is not installed here or does not start: another try (or another worker) may
    succeed."""


#: The sides, as the tournament's matches number them: gnubg's X is the left column of the .mat.
HOME = 1
AWAY = 2
SIDES = {"X": HOME, "O": AWAY}


def gnubg_path() -> str | None:
    """The gnubg program, or None: analysis is off (``GNUBG`` may name it, or be empty)."""
    named = os.environ.get("GNUBG")
    if named is not None:
        return shutil.which(named) if named else None
    return shutil.which("gnubg") or shutil.which("gnubg", path=DEBIAN_GAMES)


@dataclass(frozen=True, slots=True)
class Figures:
    """One player's figures over a game or a match."""

    checker_error: float
    cube_error: float
    luck: float
    unforced_moves: int
    close_cube_decisions: int
    blunders: int = 0
    errors: int = 0
    #: The points the side won (a loss counts negative), and the same with luck taken out:
    #: its own luck less the opponent's, each roll's at the stake it was rolled at (gnubg's
    #: "luck adjusted result", in points). None where the analysis does not give them (gnubg
    #: gives them in match-winning chances, not points).
    result: float | None = None
    luck_adjusted: float | None = None
    #: How many of the side's rolls were very lucky, lucky, unlucky and very unlucky (gnubg's
    #: marks, ``LUCK_MARKS``); None where the analysis does not give them (gnubg).
    rolls_marked: tuple[int, int, int, int] | None = None

    @property
    def decisions(self) -> int:
        return self.unforced_moves + self.close_cube_decisions

    @property
    def error_rate(self) -> float | None:
        """gnubg's error rate (mEMG): the total error per decision × 1000 (None: none made)."""
        if not self.decisions:
            return None
        return (self.checker_error + self.cube_error) / self.decisions * 1000

    @property
    def pr(self) -> float | None:
        """XG's performance rating: the total error per decision × 500."""
        rate = self.error_rate
        return None if rate is None else rate / 2

    def __add__(self, other: Figures) -> Figures:
        return Figures(
            self.checker_error + other.checker_error,
            self.cube_error + other.cube_error,
            self.luck + other.luck,
            self.unforced_moves + other.unforced_moves,
            self.close_cube_decisions + other.close_cube_decisions,
            self.blunders + other.blunders,
            self.errors + other.errors,
            _added(self.result, other.result),
            _added(self.luck_adjusted, other.luck_adjusted),
            _counted(self.rolls_marked, other.rolls_marked),
        )


def _added(one: float | None, other: float | None) -> float | None:
    """A sum that is unknown (None) when a part is."""
    return None if one is None or other is None else one + other


def _counted(
    one: tuple[int, int, int, int] | None, other: tuple[int, int, int, int] | None
) -> tuple[int, int, int, int] | None:
    if one is None or other is None:
        return None
    return (one[0] + other[0], one[1] + other[1], one[2] + other[2], one[3] + other[3])


#: What a roll is called by its luck, from the luckiest (``Figures.rolls_marked``'s order).
LUCK_MARKS = ("very lucky", "lucky", "unlucky", "very unlucky")
ZERO = Figures(0.0, 0.0, 0.0, 0, 0, result=0.0, luck_adjusted=0.0, rolls_marked=(0, 0, 0, 0))


@dataclass(frozen=True, slots=True)
class Decision:
    """A checker play or a dave (cube) decision that lost equity: where, which side, what was
    played, the best, the loss.

    A dave decision (``kind`` "cube", the Long Nardy engine's: ``games.engine.analysis``) comes
    before a roll: its ``dice`` are (0, 0), ``move`` counts the checker plays before it, and
    ``played`` and ``best`` are "double", "no double", "take" or "drop"; its loss is in EMG.
    """

    game: int
    #: Its place among the game's actions, and among its checker plays (the board viewer's turns).
    ply: int
    move: int
    #: ``HOME`` (gnubg's X, the .mat's left column) or ``AWAY`` (O, the right one).
    side: int
    dice: tuple[int, int]
    played: str
    best: str
    loss: float
    #: "move" (a checker play) or "cube" (a dave decision: to offer, or to take or drop).
    kind: str = "move"

    @property
    def mark(self) -> str:
        """With gnubg's thresholds (Short Nardy); the Long Nardy engine marks its own decisions
        with ``games.engine.analysis.long_mark_of``."""
        return mark_of(self.loss)


@dataclass(frozen=True, slots=True)
class GameAnalysis:
    number: int
    #: By side: ``HOME`` and ``AWAY``.
    figures: Mapping[int, Figures]
    decisions: Sequence[Decision]


@dataclass(frozen=True, slots=True)
class MatchAnalysis:
    """The analysis of a match, by side (``HOME``, ``AWAY``); ``players`` are the names gnubg
    read (left, right), for reading only: figures are never looked up by them."""

    players: tuple[str, str]
    plies: int
    games: Sequence[GameAnalysis]
    totals: Mapping[int, Figures] = field(default_factory=dict)


def analyse(
    mat_text: str,
    *,
    plies: int = 0,
    timeout: float = 300.0,
    progress: Callable[[int, int], None] | None = None,
) -> MatchAnalysis:
    """Run gnubg on a .mat text; ``progress(done, total)`` is called after each game. Raises
    ``AnalysisUnavailable`` when gnubg is not installed or does not start, ``AnalysisTimeout``
    when it takes longer than ``timeout``, ``AnalysisError`` when it fails otherwise.

    gnubg scores each game itself and always counts a backgammon as 3, so on a record where
    backgammons count 2 (Short Nardy without koks) it may think the match won before its last
    game and stop reading. The rest is then read on its own, from the score its header gives.
    """
    program = gnubg_path()
    if program is None:
        raise AnalysisUnavailable("gnubg is not installed")
    header, games = split_games(mat_text)
    if not games:
        raise AnalysisError("gnubg could not read the match file: it has no games")
    deadline = time.monotonic() + timeout
    parts: list[MatchAnalysis] = []
    done = 0
    while done < len(games):
        text = header + joined_games(games[done:])
        report = _counted_from(done, len(games), progress)
        found = _run(program, text, plies=plies, deadline=deadline, limit=timeout, progress=report)
        part = parse(found, plies=plies, first=done + 1)  # _run refuses a run with no game
        parts.append(part)
        done += len(part.games)
    return _joined(parts)


def split_games(mat_text: str) -> tuple[str, list[str]]:
    """A .mat text as its header (up to the first `` Game 1`` line) and its games' blocks."""
    blocks = _GAME.split(mat_text)
    return blocks[0], blocks[1:]


def joined_games(blocks: Sequence[str]) -> str:
    """Game blocks as the games of a file of their own, numbered from 1 (gnubg reads no file
    whose first game is not game 1); each keeps the score its header line gives."""
    return "".join(
        _GAME_LINE.sub(f" Game {number}", block, count=1)
        for number, block in enumerate(blocks, start=1)
    )


def _counted_from(
    before: int, total: int, progress: Callable[[int, int], None] | None
) -> Callable[[int, int], None]:
    """A part's progress as the whole match's: ``before`` games were read by earlier parts."""

    def report(read: int, _part_total: int) -> None:
        if progress is not None:
            progress(before + read, total)

    return report


_GAME = re.compile(r"^(?= Game \d+[ \t]*$)", re.MULTILINE)
_GAME_LINE = re.compile(r"\A Game \d+")


def _run(
    program: str,
    mat_text: str,
    *,
    plies: int,
    deadline: float,
    limit: float,
    progress: Callable[[int, int], None],
) -> Mapping[str, Any]:
    """One gnubg run on one .mat text, killed at ``deadline``: the ``gnubg.match(...)`` dict
    its script prints."""
    timeout = deadline - time.monotonic()
    with tempfile.TemporaryDirectory(prefix="nardy-analysis-") as folder:
        mat = Path(folder) / "match.mat"
        mat.write_text(mat_text, encoding="utf-8")
        env = {**os.environ, "NARDY_ANALYSIS_MAT": str(mat), "NARDY_ANALYSIS_PLIES": str(plies)}
        try:
            process = subprocess.Popen(
                [program, "-t", "-q", "-p", str(SCRIPT)],
                cwd=folder,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        except OSError as error:  # removed or broken since gnubg_path() found it
            raise AnalysisUnavailable(f"gnubg does not start: {error}") from error
        watchdog = threading.Timer(max(timeout, 0.0), process.kill)
        watchdog.start()
        try:
            lines = []
            assert process.stdout is not None
            for line in process.stdout:
                if line.startswith(PROGRESS):
                    done, total = (int(part) for part in line.split()[1:3])
                    progress(done, total)
                lines.append(line)
            errors = process.stderr.read() if process.stderr else ""
            process.wait()
        except BaseException:  # the task's own time limit, a progress write that failed...
            process.kill()  # ...: no gnubg is left running behind it
            process.wait()
            raise
        finally:
            killed = not watchdog.is_alive() and process.returncode not in (0, None)
            watchdog.cancel()
    if killed:
        raise AnalysisTimeout(f"gnubg took longer than {limit:.0f} s")
    parts = "".join(lines).split(MARK)
    if len(parts) != 3:
        raise AnalysisError(f"gnubg printed no analysis: {errors.strip()[-500:]}")
    found: Mapping[str, Any] = json.loads(parts[1])
    if not found or not found.get("games"):
        raise AnalysisError("gnubg could not read the match file")
    return found


def parse(match: Mapping[str, Any], *, plies: int = 0, first: int = 1) -> MatchAnalysis:
    """gnubg's ``match(analysis=1, statistics=1)`` dict as a ``MatchAnalysis`` (its games
    numbered from ``first``), by side: X is ``HOME``, O is ``AWAY``."""
    info = match["match-info"]
    games = []
    totals = {side: ZERO for side in SIDES.values()}
    for number, game in enumerate(match["games"], start=first):
        decisions = _decisions(number, game["game"])
        figures = {}
        for letter, side in SIDES.items():
            marked = [d for d in decisions if d.side == side]
            figures[side] = _figures(game["stats"][letter], marked)
            totals[side] = totals[side] + figures[side]
        games.append(GameAnalysis(number, figures, decisions))
    players = (str(info["X"]["name"]), str(info["O"]["name"]))
    return MatchAnalysis(players, plies, games, totals)


def _joined(parts: Sequence[MatchAnalysis]) -> MatchAnalysis:
    """The analyses of a match's consecutive parts as one."""
    totals = {side: ZERO for side in SIDES.values()}
    for part in parts:
        for side in totals:
            totals[side] = totals[side] + part.totals[side]
    games = [game for part in parts for game in part.games]
    return MatchAnalysis(parts[0].players, parts[0].plies, games, totals)


def _figures(stats: Mapping[str, Any], decisions: Sequence[Decision]) -> Figures:
    moves, cube, dice = stats.get("moves", {}), stats.get("cube", {}), stats.get("dice", {})
    return Figures(
        checker_error=float(moves.get("error-skill", 0.0)),
        # The sum of the cube's error kinds: gnubg's own totals add them up so (its "cube
        # error-skill" entry in a game's statistics is not that total).
        cube_error=sum(
            float(v) for k, v in cube.items() if k.startswith("err-") and k.endswith("-skill")
        ),
        luck=float(dice.get("luck", 0.0)),
        unforced_moves=int(moves.get("unforced-moves", 0)),
        close_cube_decisions=int(cube.get("close-cube", 0)),
        blunders=sum(1 for d in decisions if d.mark == "blunder"),
        errors=sum(1 for d in decisions if d.mark == "error"),
    )


def _decisions(number: int, actions: Sequence[Mapping[str, Any]]) -> list[Decision]:
    """The checker plays that lost equity, with gnubg's best play."""
    found = []
    moves = 0
    for ply, action in enumerate(actions, start=1):
        if action.get("action") != "move":
            continue
        moves += 1
        candidates = (action.get("analysis") or {}).get("moves") or []
        if len(candidates) < 2:
            continue
        played = _key(action.get("move") or [])
        chosen = next((c for c in candidates if _key(c["move"]) == played), None)
        if chosen is None:
            continue
        best = max(candidates, key=lambda candidate: candidate["score"])
        loss = float(best["score"]) - float(chosen["score"])
        if loss <= 0:
            continue
        dice = tuple(action.get("dice") or (0, 0))
        found.append(
            Decision(
                number,
                ply,
                moves,
                SIDES[action["player"]],
                (dice[0], dice[1]),
                _notation(action.get("move") or []),
                _notation(best["move"]),
                loss,
            )  # fmt: skip
        )
    return found


def _key(move: Sequence[Sequence[int]]) -> tuple[tuple[int, int], ...]:
    return tuple(sorted((int(step[0]), int(step[1])) for step in move))


def _notation(move: Sequence[Sequence[int]]) -> str:
    """gnubg's points (25 the bar, 0 off) as "24/18 13/9", "bar/22", "6/off"."""

    def point(number: int) -> str:
        return "bar" if number == 25 else "off" if number <= 0 else str(number)

    return " ".join(f"{point(int(a))}/{point(int(b))}" for a, b in move)
