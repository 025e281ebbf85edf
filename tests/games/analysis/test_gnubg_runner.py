"""The analysis runner against gnubg itself: for three corpus matches, the figures the runner reads
back from gnubg's Python (``gnubg.match``) equal the match statistics gnubg prints for the same
file when it is driven as a plain command file (``show statistics match``). A differential test:
two ways out of gnubg, one answer."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import pytest

from games.analysis.runner import (
    AWAY,
    BLUNDER,
    ERROR,
    HOME,
    AnalysisError,
    AnalysisTimeout,
    AnalysisUnavailable,
    analyse,
    gnubg_path,
    joined_games,
    split_games,
)
from games.rules import Double, MatchGame, ShortNardy
from games.rules.matfile import match_record, read_match, write_match
from tests.support.corpus import corpus_or_skip, match_files

GNUBG = gnubg_path()
if GNUBG is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)

#: Three matches of different lengths, fixed: their places in the corpus's sorted file list.
PICKS = (0, 700, 1400)


def gnubg_statistics(path: Path) -> list[tuple[str, dict[str, float]]]:
    """``show statistics match`` of gnubg for the file at 0 ply: each column's player name and
    figures, in gnubg's order."""
    script = (
        f'import mat "{path}"\n'
        "set analysis chequerplay evaluation plies 0\n"
        "set analysis cubedecision evaluation plies 0\n"
        "analyse match\nshow statistics match\n"
    )
    done = subprocess.run(
        [GNUBG, "-t", "-q"], input=script, capture_output=True, text=True, timeout=300
    )
    text = done.stdout
    names = re.search(r"^Player\s+(\S+)\s+(\S+)", text, re.M)
    assert names, text[-2000:]
    sections = {
        name: text.split(f"{name} statistics", 1)[1]
        for name in ("Chequerplay", "Luck", "Cube", "Overall")
    }

    def pair(section: str, label: str, number: str = r"([-+]?\d+(?:\.\d+)?)") -> list[float]:
        line = next(l for l in sections[section].splitlines() if l.startswith(label))  # noqa: E741
        return [float(v) for v in re.findall(number, line[len(label) :])][:2]

    emg = r"([-+]?\d+\.\d+) \("
    figures = {
        "checker_error": [-v for v in pair("Chequerplay", "Error total EMG", emg)],
        "unforced_moves": pair("Chequerplay", "Unforced moves"),
        "luck": pair("Luck", "Luck total EMG", emg),
        "close_cube_decisions": pair("Cube", "Close or actual cube decisions"),
        "cube_error": [-v for v in pair("Cube", "Error total EMG", emg)],
        "error_rate": [-v for v in pair("Overall", "Error rate mEMG", r"([-+]?\d+\.\d+)\s+\(")],
    }
    return [
        (name, {key: values[column] for key, values in figures.items()})
        for column, name in enumerate(names.groups())
    ]


@pytest.mark.parametrize("pick", PICKS)
def test_the_runners_figures_equal_gnubgs_own_statistics(pick):
    path = match_files(corpus_or_skip())[pick]
    analysis = analyse(path.read_text(encoding="utf-8", errors="replace"))
    (left, left_figures), (right, right_figures) = gnubg_statistics(path)
    # gnubg's first column is X, the left column of the file: the runner's home side.
    assert analysis.players == (left, right)
    expected = {HOME: left_figures, AWAY: right_figures}
    assert set(analysis.totals) == {HOME, AWAY}
    for side, figures in analysis.totals.items():
        want = expected[side]
        assert figures.unforced_moves == want["unforced_moves"], side
        assert figures.close_cube_decisions == want["close_cube_decisions"], side
        for key in ("checker_error", "cube_error", "luck"):
            assert getattr(figures, key) == pytest.approx(want[key], abs=0.0006), (side, key)
        assert figures.error_rate == pytest.approx(want["error_rate"], abs=0.06), side
        assert figures.pr == pytest.approx(figures.error_rate / 2)


def test_marked_decisions_follow_the_thresholds():
    path = match_files(corpus_or_skip())[PICKS[0]]
    analysis = analyse(path.read_text(encoding="utf-8", errors="replace"))
    decisions = [d for game in analysis.games for d in game.decisions]
    assert decisions and all(d.loss > 0 for d in decisions)
    for decision in decisions:
        assert decision.mark == ("blunder" if decision.loss > BLUNDER else
                                 "error" if decision.loss > ERROR else "")  # fmt: skip
        assert decision.best != decision.played and decision.side in (HOME, AWAY)
    for side, total in analysis.totals.items():
        marked = [d for d in decisions if d.side == side]
        assert total.blunders == sum(1 for d in marked if d.mark == "blunder")


def test_without_gnubg_the_runner_says_so(monkeypatch):
    monkeypatch.setenv("GNUBG", "")
    assert gnubg_path() is None
    with pytest.raises(AnalysisUnavailable, match="not installed"):
        analyse(" 1 point match\n")


def test_a_file_gnubg_cannot_read_is_an_analysis_error():
    with pytest.raises(AnalysisError, match="could not read") as raised:
        analyse("this is not a match file\n", timeout=60)
    assert not isinstance(raised.value, AnalysisTimeout | AnalysisUnavailable)  # not retried


def test_progress_is_reported_game_by_game():
    path = match_files(corpus_or_skip())[PICKS[1]]
    seen = []
    analysis = analyse(path.read_text(encoding="utf-8", errors="replace"),
                       progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    total = len(analysis.games)
    assert seen == [(n, total) for n in range(1, total + 1)]


def test_a_match_that_takes_too_long_is_stopped():
    path = match_files(corpus_or_skip())[PICKS[2]]
    with pytest.raises(AnalysisTimeout, match="longer than"):
        analyse(path.read_text(encoding="utf-8", errors="replace"), plies=2, timeout=0.5)


def test_a_match_where_backgammons_count_two_is_read_to_its_last_game():
    """gnubg counts every backgammon as 3: at 3 points, the backgammon of game 1 (2 points here,
    without koks) ends the match for gnubg, so the runner reads game 2 in a run of its own."""
    path = corpus_or_skip() / "lasse" / "raw" / "match12496474.txt"
    source = read_match(path.read_text(encoding="utf-8", errors="replace"))
    backgammon = source.games[0]  # won with a backgammon, no cube turned: fit for game 2 too,
    assert not any(isinstance(action, Double) for action in backgammon.actions)  # the Crawford
    record = match_record(
        ShortNardy(koks=False),
        source.players,
        [MatchGame(game.first, game.actions) for game in (backgammon, backgammon)],
        length=3,
    )
    text = write_match(record)
    assert [game.score for game in record.games] == [(0, 0), (0, 2)]  # game 1 won by player 2
    seen: list[tuple[int, int]] = []
    analysis = analyse(text, progress=lambda done, total: seen.append((done, total)))
    assert [game.number for game in analysis.games] == [1, 2]
    assert seen == [(1, 2), (2, 2)]
    alone = analyse(split_games(text)[0] + joined_games(split_games(text)[1][1:]))
    assert analysis.games[1].figures == alone.games[0].figures
    for side in (HOME, AWAY):
        assert analysis.totals[side] == (
            analysis.games[0].figures[side] + analysis.games[1].figures[side]
        )


def test_a_files_games_are_split_and_numbered_again_from_one():
    text = " 3 point match\n\n Game 1\n a : 0    b : 0\n x\n\n Game 2\n a : 1    b : 0\n y\n"
    header, games = split_games(text)
    assert header == " 3 point match\n\n"
    assert joined_games(games) == text[len(header) :]
    assert joined_games(games[1:]) == " Game 1\n a : 1    b : 0\n y\n"


def test_two_names_the_mat_writer_makes_alike_keep_their_own_sides():
    """``Ab:cd`` is written ``Ab꞉cd`` (U+A789) on a score line, the very name of the other player:
    by name the two would be one. gnubg's X and O are the file's columns, so each side gets its
    own figures, the same as under two plain names."""
    path = match_files(corpus_or_skip())[PICKS[0]]
    source = read_match(path.read_text(encoding="utf-8", errors="replace"))
    games = [MatchGame(game.first, game.actions) for game in source.games]

    def analysed(players: tuple[str, str]):
        record = match_record(ShortNardy(koks=True), players, games, length=source.length)
        return analyse(write_match(record))

    alike = analysed(("Ab:cd", "Ab\ua789cd"))
    assert alike.players[0] == alike.players[1]  # gnubg read one name twice
    plain = analysed(("Left", "Right"))
    assert set(alike.totals) == {HOME, AWAY}
    assert alike.totals == plain.totals
    assert alike.totals[HOME] != alike.totals[AWAY]
    assert [d.side for g in alike.games for d in g.decisions] == [
        d.side for g in plain.games for d in g.decisions
    ]
    assert {d.side for g in alike.games for d in g.decisions} == {HOME, AWAY}
