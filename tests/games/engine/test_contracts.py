"""The engine's command-line contracts: ``python -m games.rules best --variant long`` answers
each JSON line at once with a legal play, and ``eval`` with coherent probabilities; a bad line
gets ``{"error": ...}`` and the program goes on."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from games.engine.cli import answer_lines, best_json, eval_json
from games.rules import LongNardy, Position, legal_plays

from .conftest import played_positions


def answers(command: str, lines: list[str], plies: int) -> list[dict]:
    out = io.StringIO()
    answer = best_json if command == "best" else eval_json
    answer_lines(lambda request: answer(request, plies), io.StringIO("\n".join(lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("plies", [0, 1])
def test_every_best_answer_is_a_legal_play_of_the_position(plies):
    asked = played_positions(60 if plies else 300, seed=10 + plies)
    lines = [json.dumps({"position_id": p.position_id(), "dice": list(d)}) for p, d in asked]
    for (position, dice), answer in zip(asked, answers("best", lines, plies), strict=True):
        legal = {
            play.position.position_id(): str(play.play) for play in legal_plays(position, dice)
        }
        assert answer["position_id"] in legal, (position.position_id(), dice, answer)
        assert answer["play"] == legal[answer["position_id"]]
        assert -2.0 <= answer["equity"] <= 2.0


def test_bad_lines_get_an_error_and_the_next_line_its_answer():
    start = Position.initial(LongNardy()).position_id()
    lines = [
        "not json",
        "[1, 2]",
        json.dumps({"dice": [3, 1]}),
        json.dumps({"position_id": start}),
        json.dumps({"position_id": start, "dice": [7, 1]}),
        json.dumps({"position_id": "AAAA", "dice": [3, 1]}),
        json.dumps({"position_id": 12, "dice": [3, 1]}),
        json.dumps(
            {
                "position_id": Position.from_points(LongNardy(), {}, {6: 1}).position_id(),
                "dice": [3, 1],
            }
        ),  # fmt: skip
        json.dumps({"position_id": start, "dice": [6, 5]}),
    ]
    found = answers("best", lines, plies=0)
    assert all(set(answer) == {"error"} and answer["error"] for answer in found[:-1])
    assert "dice" in found[3]["error"] and "game is over" in found[7]["error"]
    assert found[-1]["play"] == "24/13"  # the only play of an opening 6-5 with one head checker


def test_eval_gives_the_probabilities_and_the_equity_they_make():
    lines = [json.dumps({"position_id": p.position_id()}) for p, _ in played_positions(50, 12)]
    for answer in answers("eval", lines + ["{}"], plies=0)[:-1]:
        assert set(answer) == {"win", "win_mars", "lose_mars", "equity"}
        assert (
            0 <= answer["win_mars"] <= answer["win"] <= 1
            and answer["lose_mars"] <= 1 - answer["win"] + 1e-6
        )
        expected = 2 * answer["win"] - 1 + answer["win_mars"] - answer["lose_mars"]
        assert answer["equity"] == pytest.approx(expected, abs=1e-5)
    assert "position_id" in answers("eval", ["{}"], plies=0)[0]["error"]


def test_the_program_answers_each_line_as_soon_as_it_is_read():
    """A line is answered before the next is written: a caller may talk to it turn by turn."""
    program = subprocess.Popen(
        [sys.executable, "-m", "games.rules", "best", "--variant", "long", "--plies", "0"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert program.stdin is not None and program.stdout is not None
    position = Position.initial(LongNardy())
    for dice in ([6, 5], [3, 1]):
        program.stdin.write(
            json.dumps({"position_id": position.position_id(), "dice": dice}) + "\n"
        )
        program.stdin.flush()
        answer = json.loads(program.stdout.readline())
        position = Position.from_position_id(answer["position_id"], LongNardy())
    program.stdin.write("oops\n")
    program.stdin.flush()
    assert "error" in json.loads(program.stdout.readline())
    program.stdin.close()
    assert program.wait(timeout=30) == 0
    evaluation = subprocess.run(
        [sys.executable, "-m", "games.rules", "eval", "--variant", "long"],
        input=json.dumps({"position_id": position.position_id()}) + "\n",
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert set(json.loads(evaluation.stdout)) == {"win", "win_mars", "lose_mars", "equity"}
