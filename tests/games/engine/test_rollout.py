"""Rollouts: within their standard error of the exact answer where it is known, the same answer
for the same seed whatever the number of processes, less spread with the luck taken out, and the
``rollout`` command's contract."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest

from games.engine.cli import answer_lines, rollout_json
from games.engine.evaluator import Evaluator
from games.engine.rollout import rollout
from games.engine.search import Engine
from games.rules import LongNardy, Position

from .conftest import played_positions

LONG = LongNardy()
FIELDS = {"position_id", "win", "win_mars", "lose_mars", "equity", "stderr", "games"}


def contact() -> Position:
    """A position of the late middle game, from random play: the checkers still in contact, the
    games short."""
    return next(
        p
        for p, _ in played_positions(400, seed=31)
        if p.mover[0] == p.opponent[0] == 0 and sum(i * n for i, n in enumerate(p.mover)) < 100
    )


def test_a_bear_off_race_rolled_out_to_the_end_agrees_with_the_database(shipped):
    """Without the database the rollout plays the race out to the last checker (and its luck is
    measured by the network): the database's exact chance is within its standard error."""
    race = Position.from_points(LONG, {1: 2, 2: 2, 4: 1, 5: 2}, {1: 1, 3: 2, 4: 2, 6: 2})
    exact = shipped.database.win(race.mover[1:7], race.opponent[1:7])
    played = Engine(Evaluator(shipped.evaluator.network))
    found = rollout(race, games=72, seed=5, workers=1, found=played)
    assert found.games == 72 and found.stderr > 0
    assert abs(found.win - exact) <= 3 * found.stderr + 0.01, (found, exact)
    assert found.win_mars == pytest.approx(0, abs=1e-3)  # both sides have borne off
    assert found.lose_mars == pytest.approx(0, abs=1e-3)


def test_a_finished_game_and_a_certain_mars_are_rolled_out_exactly(shipped):
    lost = Position.from_points(LONG, {3: 2, 6: 13}, {})
    found = rollout(lost, games=4, seed=1, workers=1, found=shipped)
    assert (found.win, found.win_mars, found.lose_mars, found.equity) == (0, 0, 1, -2)
    assert found.stderr == 0
    certain = Position.from_points(LONG, {1: 2}, {24: 15})  # every die bears a checker off
    found = rollout(certain, games=12, seed=2, workers=1, found=shipped)
    assert (found.win, found.win_mars, found.equity, found.stderr) == (1, 1, 2, 0)
    # Home long before they are, but a checker that could in theory be held up by their
    # blocks: not certain by the rules' bounds, and a mars in every game played.
    nearly = Position.from_points(LONG, {6: 1, 5: 1}, {24: 15})
    found = rollout(nearly, games=12, seed=2, workers=1, found=shipped)
    assert abs(found.equity - 2.0) <= 3 * found.stderr + 0.01
    plain = rollout(nearly, games=12, seed=2, workers=1, found=shipped, reduce=False)
    assert (plain.win, plain.win_mars, plain.equity) == (1, 1, 2)


def test_the_same_seed_gives_the_same_answer_with_one_process_or_two(shipped):
    position = contact()
    alone = rollout(position, games=6, seed=7, workers=1, found=shipped)
    shared = rollout(position, games=6, seed=7, workers=2, found=shipped)
    assert alone == shared
    assert rollout(position, games=6, seed=8, workers=1, found=shipped) != alone


def test_taking_the_luck_out_reduces_the_standard_error(shipped):
    position = contact()
    reduced = rollout(position, games=24, seed=3, workers=1, found=shipped)
    plain = rollout(position, games=24, seed=3, workers=1, found=shipped, reduce=False)
    assert reduced.stderr < plain.stderr / 2, (reduced, plain)
    assert abs(reduced.equity - plain.equity) <= 3 * plain.stderr


def test_the_rollout_command_answers_each_line_with_the_contract_fields(shipped):
    start = Position.initial(LONG).position_id()
    over = Position.from_points(LONG, {3: 2}, {}).position_id()
    lines = [
        json.dumps({"position_id": start, "games": 2, "seed": 1, "plies": 0}),
        json.dumps({"position_id": start, "games": 2, "seed": 1, "dice": [6, 5]}),
        "not json",
        json.dumps({"position_id": start, "seed": 1}),
        json.dumps({"position_id": start, "games": 0, "seed": 1}),
        json.dumps({"position_id": start, "games": 2, "seed": -1}),
        json.dumps({"position_id": start, "games": 2.5, "seed": 1}),
        json.dumps({"position_id": start, "games": 2, "seed": 1, "plies": 3}),
        json.dumps({"position_id": start, "games": 2, "seed": 1, "dice": [7, 1]}),
        json.dumps({"position_id": over, "games": 2, "seed": 1, "dice": [3, 1]}),
        json.dumps({"position_id": "AAAA", "games": 2, "seed": 1}),
    ]
    out = io.StringIO()
    answer_lines(
        lambda request: rollout_json(request, 0, workers=1, found=shipped),
        io.StringIO("\n".join(lines)),
        out,
    )
    found = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(found) == len(lines)
    for answer in found[:2]:
        assert set(answer) == FIELDS and answer["position_id"] == start
        assert answer["games"] == 2 and 0 <= answer["win_mars"] <= 1 and answer["stderr"] >= 0
    assert found[0] != found[1]  # the 6-5 is played first
    assert all(set(answer) == {"error"} and answer["error"] for answer in found[2:])
    assert "games" in found[3]["error"] and "games" in found[4]["error"]
    assert "seed" in found[5]["error"] and "games" in found[6]["error"]
    assert "plies" in found[7]["error"] and "game is over" in found[9]["error"]


def test_the_rollout_program_answers_at_once_and_takes_its_options():
    program = subprocess.Popen(
        [sys.executable, "-m", "games.rules", "rollout", "--variant", "long", "--workers", "1",
         "--plies", "2"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert program.stdin is not None and program.stdout is not None
    race = Position.from_points(LONG, {7: 1}, {2: 2, 4: 2, 5: 1, 6: 1}).position_id()
    program.stdin.write(json.dumps({"position_id": race, "games": 3, "seed": 4}) + "\n")
    program.stdin.flush()
    answer = json.loads(program.stdout.readline())
    assert set(answer) == FIELDS and answer["games"] == 3
    program.stdin.write("{}\n")
    program.stdin.flush()
    assert "position_id" in json.loads(program.stdout.readline())["error"]
    program.stdin.close()
    assert program.wait(timeout=60) == 0
