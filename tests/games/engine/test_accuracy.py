"""The accuracy benchmark: its stages, its set, and its two scripts end to end on a tiny set."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from games.engine.accuracy import POSITIONS, QUOTAS, build, read_set, stage_of, write_set
from games.rules import LongNardy, Position, legal_plays

LONG = LongNardy()
ROOT = Path(__file__).resolve().parents[3]


def test_each_stage_is_told_by_its_rule():
    def at(mover, other, turn=10):
        return stage_of(Position.from_points(LONG, mover, other), turn)

    assert stage_of(Position.initial(LONG), 0) == "start"
    assert at({24: 14, 18: 1}, {24: 15}, turn=3) == "start"
    assert at({24: 14, 18: 1}, {24: 15}, turn=4) == "contact"
    assert at({24: 13, 20: 2}, {1: 5, 2: 4}) == "mars"  # none off, the other bearing off
    assert at({1: 5, 2: 4}, {3: 3}) == "bear-off"
    assert at({3: 15}, {2: 15}) == "mars"  # both home but one has borne off none
    assert at({12: 5, 3: 5}, {11: 5, 2: 5}) == "race"
    # The other side's rearmost checker on its 20 (the mover's 8); the mover holds 7, 6, 5, 4,
    # four of the six points in front of it, in a row.
    primed, behind = {7: 1, 6: 1, 5: 1, 4: 1, 24: 11}, {20: 1, 10: 14}
    assert at(primed, behind) == "prime"
    assert at({7: 1, 6: 1, 4: 1, 24: 12}, behind) == "contact"  # a gap: a run of two
    assert at(behind, primed) == "prime"  # the other side's prime counts too


def test_the_set_is_built_the_same_from_its_seed(shipped, tmp_path):
    quotas = {"start": 2, "mars": 1, "bear-off": 1, "race": 1, "prime": 1, "contact": 2}
    first = build(shipped, seed=3, quotas=quotas)
    assert first == build(shipped, seed=3, quotas=quotas)
    assert [entry.stage for entry in first] == [s for s, n in quotas.items() for _ in range(n)]
    write_set(first, tmp_path / "set.jsonl")
    assert [e.to_json() for e in read_set(tmp_path / "set.jsonl")] == [e.to_json() for e in first]


def test_the_shipped_set_has_every_stage_and_a_decision_in_each_position():
    entries = read_set(POSITIONS)
    assert len(entries) >= 500
    assert {stage: sum(e.stage == stage for e in entries) for stage in QUOTAS} == QUOTAS
    assert len({entry.position.position_id() for entry in entries}) == len(entries)
    for entry in entries:
        assert len({play.position for play in legal_plays(entry.position, entry.dice)}) > 1
        if entry.stage != "start":
            assert stage_of(entry.position, 4) == entry.stage


def test_the_rollouts_and_the_report_work_end_to_end(tmp_path):
    entries = read_set(POSITIONS)
    late = [e for e in entries if e.stage == "mars"][:2]
    late += [e for e in entries if e.stage == "bear-off"][:1]
    positions, results = tmp_path / "set.jsonl", tmp_path / "rollouts.jsonl"
    write_set(late, positions)
    command = [sys.executable, str(ROOT / "bench" / "engine_accuracy_rollouts.py"),
               "--positions", str(positions), "--results", str(results), "--games", "4",
               "--candidate-plies", "0,1", "--top", "2", "--workers", "1"]  # fmt: skip
    subprocess.run([*command, "--stages", "bear-off"], check=True, capture_output=True, cwd=ROOT)
    first = {json.loads(line)["position_id"] for line in results.read_text().splitlines()}
    assert first == {late[2].position.position_id()}  # the one bear-off position
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    assert {row["position_id"] for row in rows} == {e.position.position_id() for e in late}
    assert sum(row["after"] is None for row in rows) == len(late)
    assert all(row["games"] == 4 and -2 <= row["equity"] <= 2 for row in rows)
    subprocess.run(command, check=True, capture_output=True, cwd=ROOT)
    assert len(results.read_text().splitlines()) == len(rows)  # resumed: nothing again
    report = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "engine_accuracy.py"), "--positions",
         str(positions), "--rollouts", str(results), "--plies", "0,1"],
        check=True, capture_output=True, text=True, cwd=ROOT,
    ).stdout  # fmt: skip
    totals = [line.split("|") for line in report.splitlines() if "**all**" in line]
    assert [cells[2].strip() for cells in totals] == ["0", "1"]
    for cells in totals:
        assert cells[4].strip() == cells[6].strip() == str(len(late))  # positions, decisions
        assert cells[10].strip() == "0"  # every chosen play was rolled out
        assert 0 <= float(cells[11]) < 2  # the rollouts' mean standard error
