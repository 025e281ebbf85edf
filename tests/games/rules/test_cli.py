"""The command-line contract: ``python -m games.rules plays``."""

import json
import subprocess
import sys

from games.rules import LongNardy, Position, ShortNardy, check_play

LONG_OPENING = Position.initial(LongNardy()).position_id()


def run(*args, stdin=""):
    return subprocess.run(
        [sys.executable, "-m", "games.rules", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=False,
    )


def test_plays_for_a_person_one_per_line_with_the_resulting_position_id():
    done = run("plays", "--variant", "long", "--position", LONG_OPENING, "--dice", "3", "3")
    assert done.returncode == 0
    lines = [line.split() for line in done.stdout.splitlines()]
    assert [line[:-1] for line in lines] == [["24/18(2)"], ["24/21", "24/15"]]
    after = Position.from_position_id(lines[0][-1], LongNardy())
    assert after.opponent[18] == 2 and after.opponent[24] == 13
    assert after.mover[24] == 15


def test_plays_as_json():
    args = ["--position", "4HPwATDgc/ABMA", "--dice", "6", "5", "--json"]
    answer = json.loads(run("plays", "--variant", "short", *args).stdout)
    assert len(answer["plays"]) == 7
    run_ = next(play for play in answer["plays"] if play["play"] == "24/13")
    expected = check_play(Position.initial(ShortNardy()), (6, 5), "24/18/13").position
    assert run_["position_id"] == expected.position_id()


def test_batch_answers_each_line_in_order_and_goes_on_after_a_bad_one():
    lines = [
        {"position_id": "4HPwATDgc/ABMA", "dice": [3, 1]},
        {"position_id": "garbage", "dice": [3, 1]},
        {"dice": [3, 1]},
        {"position_id": "4HPwATDgc/ABMA", "dice": [7, 1]},
        {"position_id": LONG_OPENING, "dice": [6, 6]},
    ]
    text = "\n".join(json.dumps(line) for line in lines) + "\nnot json\n"
    done = run("plays", "--variant", "short", stdin=text)
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert done.returncode == 0
    assert len(answers) == 6
    assert len(answers[0]["plays"]) == 16
    assert {"8/5 6/5", "24/23 13/10"} <= {play["play"] for play in answers[0]["plays"]}
    assert all(set(play) == {"play", "position_id"} for play in answers[0]["plays"])
    assert "Position ID" in answers[1]["error"]
    assert "position_id" in answers[2]["error"]
    assert "dice" in answers[3]["error"]
    assert set(answers[4]) == {"plays"}
    assert "error" in answers[5]


def test_a_position_with_no_legal_play_gives_an_empty_list():
    # The mover has two checkers on the bar against a closed board.
    closed = Position.from_points(
        ShortNardy(),
        {25: 2, 6: 13},
        {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3},
    )
    done = run(
        "plays",
        "--variant",
        "short",
        stdin=json.dumps({"position_id": closed.position_id(), "dice": [6, 5]}),
    )
    assert json.loads(done.stdout) == {"plays": []}
    human = run(
        "plays", "--variant", "short", "--position", closed.position_id(), "--dice", "6", "5"
    )
    assert human.stdout.strip() == "no legal play: the turn passes"


def test_a_bad_position_id_is_an_error_with_exit_code_2():
    done = run("plays", "--variant", "long", "--position", "nonsense", "--dice", "3", "1")
    assert done.returncode == 2
    assert "Position ID" in done.stderr


def test_plays_under_the_no_hit_and_hide_house_rule():
    # White hits on its 5 with the 3 (8/5*); hiding the hitter on its own 4 with the 1 is refused.
    position = Position.from_points(
        ShortNardy(), {8: 2, 6: 5, 4: 1, 13: 5, 24: 2}, {20: 1, 10: 5, 9: 5, 2: 4}
    )
    args = ["--position", position.position_id(), "--dice", "3", "1", "--json"]
    default = {
        p["play"] for p in json.loads(run("plays", "--variant", "short", *args).stdout)["plays"]
    }
    house = json.loads(run("plays", "--variant", "short", "--no-hit-and-hide", *args).stdout)
    strict = {p["play"] for p in house["plays"]}
    assert "8/5*/4" in default
    assert "8/5*/4" not in strict
    assert strict < default
