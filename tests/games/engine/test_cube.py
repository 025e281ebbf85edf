"""Dave (cube) decisions of Long Nardy: the match equity table made from the engine's own rates,
the cubeful decisions under the tournament's dave rules, and the ``cube`` command's contract."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys

import pytest

from games.engine.cli import answer_lines, cube_json
from games.engine.cube import (
    MARS_RATE,
    CubeError,
    MatchState,
    cube_efficiency,
    decide,
    decide_at,
    match_equity_table,
)
from games.engine.evaluator import Probabilities
from games.rules import LongNardy, Position
from games.rules.variants import DaveRules

LENGTH = 11
ACTIONS = {"no-double", "double-take", "double-drop", "too-good"}


# --- The table ----------------------------------------------------------------------------------


def test_the_table_is_symmetric_and_even_at_equal_scores():
    table = match_equity_table(LENGTH)
    for own in range(1, LENGTH + 1):
        assert table.pre[own][own] == pytest.approx(0.5)
        for other in range(1, LENGTH + 1):
            assert table.pre[own][other] + table.pre[other][own] == pytest.approx(1.0)


def test_needing_fewer_points_is_never_worse():
    table = match_equity_table(LENGTH)
    for own in range(1, LENGTH + 1):
        for other in range(1, LENGTH + 1):
            if own < LENGTH:
                assert table.pre[own][other] >= table.pre[own + 1][other]
            if other < LENGTH:
                assert table.pre[own][other] <= table.pre[own][other + 1]
    assert table.pre[1][LENGTH] > 0.9 > 0.1 > table.pre[LENGTH][1]
    assert table.mars_rate == MARS_RATE


def test_the_crawford_game_is_one_game_without_dave_then_the_trailer_doubles():
    table = match_equity_table(LENGTH)
    g = MARS_RATE
    for other in range(2, LENGTH + 1):
        crawford = table.mwc(1, other, post_crawford=False)
        after = [table.mwc(1, other - points, post_crawford=True) for points in (1, 2)]
        assert crawford == pytest.approx(0.5 + 0.5 * ((1 - g) * after[0] + g * after[1]))
        # The Crawford game favours the leader: after it, the trailer's dave does.
        assert crawford >= table.mwc(1, other, post_crawford=True)
    # Post-Crawford, 2-away is no better than 1-away for the trailer: it doubles at once.
    assert table.mwc(2, 1, post_crawford=True) == pytest.approx(0.5)


def test_a_mars_counts_double_in_the_table():
    without, with_mars = match_equity_table(5, 0.0), match_equity_table(5, 0.5)
    # 2-away in the Crawford game: a mars wins the match at once, an oyn only reaches 1-away
    # against 1-away (an even game).
    assert without.pre[2][1] == pytest.approx(0.25)
    assert with_mars.pre[2][1] == pytest.approx(0.5 * (0.5 * 0.5 + 0.5))


# --- Decisions ----------------------------------------------------------------------------------


def bear_offs(count: int, seed: int) -> list[Position]:
    """Pure bear-offs where both sides have borne off checkers: the database decides them and
    no mars is left."""
    rng = random.Random(seed)
    found = []
    for _ in range(count):
        homes = []
        for _side in range(2):
            home: dict[int, int] = {}
            for _checker in range(rng.randint(1, 8)):
                point = rng.randint(1, 6)
                home[point] = home.get(point, 0) + 1
            homes.append(home)
        found.append(Position.from_points(LongNardy(), homes[0], homes[1]))
    return found


def test_a_bear_off_doubles_and_the_take_point_decides_take_or_drop(shipped):
    """With a most stake of 2, a taken dave is dead: taking is worth the cubeless match chances
    of stake 2, so the taker's take point comes from the table alone."""
    table = match_equity_table(LENGTH)
    away = 8
    state = MatchState(LENGTH, (LENGTH - away, LENGTH - away), dave=DaveRules(max_stake=2))
    win2, lose2, drop = (
        table.mwc(own, other, post_crawford=False)
        for own, other in ((away - 2, away), (away, away - 2), (away, away - 1))
    )
    take_point = (drop - lose2) / (win2 - lose2)
    seen = set()
    for position in bear_offs(300, seed=4):
        probabilities = shipped.evaluate(position, 0)
        assert probabilities.win_mars == probabilities.lose_mars == 0
        decision = decide(probabilities, state, efficiency=cube_efficiency(position))
        if decision.action not in ("double-take", "double-drop"):
            continue
        seen.add(decision.action)
        assert decision.double_mwc is not None and decision.double_mwc > decision.no_double_mwc
        taker = 1 - probabilities.win
        assert (decision.action == "double-take") == (taker > take_point)
    assert seen == {"double-take", "double-drop"}


@pytest.mark.parametrize("efficiency", [0.0, 0.68, 1.0])
def test_far_from_the_end_of_a_match_the_take_point_is_janowskis_money_one(efficiency):
    """Without mars, 0-0 in a long match is nearly money play: the taker's take point is
    Janowski's (L − 1/2) / (W + L + x/2) with W = L = 1 (dead cube 1/4, fully live 1/5)."""
    table = match_equity_table(41, mars_rate=0.0)
    state = MatchState(41, (0, 0))

    def take_is_right(win: float) -> bool:
        return decide(
            Probabilities(win, 0, 0), state, efficiency=efficiency, table=table
        ).take_is_right

    low, high = 0.5, 1.0
    for _ in range(40):
        middle = (low + high) / 2
        low, high = (middle, high) if take_is_right(middle) else (low, middle)
    assert 1 - low == pytest.approx(0.5 / (2 + efficiency / 2), abs=0.005)


def test_an_even_position_is_no_double():
    decision = decide(Probabilities(0.5, 0.1, 0.1), MatchState(LENGTH, (0, 0)), efficiency=0.65)
    assert decision.action == "no-double"
    assert decision.emg(decision.no_double_mwc) == pytest.approx(0.0, abs=1e-9)
    assert decision.double_drop_mwc is not None and decision.emg(decision.double_drop_mwc) == 1.0


def test_a_certain_mars_worth_the_match_is_not_cashed(shipped):
    """One checker on point 1 against fifteen on the head: the mars is certain, and at 2-away
    it wins the match; a drop would give one point."""
    position = Position.from_points(LongNardy(), {1: 1}, {24: 15})
    probabilities = shipped.evaluate(position, 1)
    assert probabilities.win == pytest.approx(1) and probabilities.win_mars == pytest.approx(1)
    assert probabilities.lose_mars == 0
    decision = decide(probabilities, MatchState(5, (3, 0)), efficiency=cube_efficiency(position))
    assert decision.action == "too-good"
    assert decision.no_double_mwc == pytest.approx(1.0)
    assert decision.double_drop_mwc == pytest.approx(match_equity_table(5).pre[1][5])


def test_a_side_that_cannot_gain_from_a_higher_stake_never_offers():
    """2-away holding the dave at stake 2: a win already wins the match."""
    state = MatchState(7, (5, 0), stake=2, owner="own")
    for win in (0.55, 0.7, 0.85):
        decision = decide(Probabilities(win, 0.1, 0.05), state, efficiency=0.65)
        assert decision.action in ("no-double", "too-good")
        assert decision.double_mwc is not None and decision.double_mwc <= decision.no_double_mwc


def test_the_post_crawford_leader_does_not_offer():
    state = MatchState(5, (4, 1))
    decision = decide(Probabilities(0.6, 0.1, 0.05), state, efficiency=0.65)
    assert decision.refusal is None and decision.action in ("no-double", "too-good")


@pytest.mark.parametrize(
    ("state", "refusal"),
    [
        (MatchState(5, (4, 2), crawford=True), "no dave in the Crawford game"),
        (MatchState(5, (0, 0), stake=2, owner="other"), "the side on roll does not hold the dave"),
        (
            MatchState(9, (0, 0), stake=2, owner="own", dave=DaveRules(max_stake=2)),
            "the stake may not exceed 2",
        ),
        (MatchState(5, (0, 0), dave=DaveRules(enabled=False)), "dave is not played in this match"),
    ],
)
def test_an_offer_that_may_not_be_made_is_no_double(state, refusal):
    decision = decide(Probabilities(0.85, 0.3, 0.0), state, efficiency=0.65)
    assert (decision.action, decision.refusal) == ("no-double", refusal)
    assert decision.double_take_mwc is None and decision.double_drop_mwc is None


def test_the_progression_changes_what_an_offer_is_worth():
    """Holding the dave at 2 in a long match: the next stake is 4, or 3."""
    probabilities = Probabilities(0.7, 0.1, 0.05)
    geometric = MatchState(15, (0, 0), stake=2, owner="own")
    arithmetic = MatchState(
        15, (0, 0), stake=2, owner="own", dave=DaveRules(progression="arithmetic")
    )
    found = [decide(probabilities, state, efficiency=0.65) for state in (geometric, arithmetic)]
    assert found[0].double_take_mwc != pytest.approx(found[1].double_take_mwc)


@pytest.mark.parametrize(
    ("state", "says"),
    [
        (dict(length=5, score=(5, 0)), "each score is from 0 to 4"),
        (dict(length=5, score=(0, 0), stake=3), "a stake of the geometric progression"),
        (dict(length=5, score=(0, 0), stake=2), "both sides hold the dave at stake 1"),
        (dict(length=5, score=(0, 0), crawford=True), "the Crawford game is played at stake 1"),
        (dict(length=5, score=(0, 0), owner="mine"), "dave_owner is"),
        (dict(length=0, score=(0, 0)), "match_length must be at least 1"),
    ],
)
def test_a_state_that_cannot_be_is_refused(state, says):
    with pytest.raises(CubeError, match=says):
        MatchState(**state)


def test_an_arithmetic_stake_is_a_stake_of_its_progression():
    MatchState(9, (0, 0), stake=3, owner="other", dave=DaveRules(progression="arithmetic"))


# --- The command --------------------------------------------------------------------------------


def cube_answers(lines: list[str], plies: int = 0) -> list[dict]:
    out = io.StringIO()
    answer_lines(lambda request: cube_json(request, plies), io.StringIO("\n".join(lines)), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def request(position: Position, **changes: object) -> str:
    asked = {"position_id": position.position_id(), "match_length": 7, "score": [2, 4],
             "stake": 1, "crawford": False, "dave_owner": "centered"}  # fmt: skip
    return json.dumps({**asked, **changes})


def test_cube_answers_the_action_and_the_equities():
    position = Position.initial(LongNardy())
    lines = [
        request(position),
        request(position, dave_owner=None, plies=1),
        request(position, stake=2, dave_owner="own", progression="arithmetic", max_stake=4),
        request(position, stake=2, dave_owner="other"),
        request(position, score=[6, 4], crawford=True, dave_owner=None),
    ]
    found = cube_answers(lines)
    names = {"no_double", "double_take", "double_drop"}
    for answer in found:
        assert set(answer) == {"action", "equities", "no_offer"}
        assert answer["action"] in ACTIONS
        assert set(answer["equities"]) == names | {f"{name}_mwc" for name in names}
        assert 0 <= answer["equities"]["no_double_mwc"] <= 1
    for answer in found[:3]:
        assert answer["no_offer"] is None and answer["equities"]["double_drop"] == 1.0
    assert found[3]["no_offer"] == "the side on roll does not hold the dave"
    assert found[4]["no_offer"] == "no dave in the Crawford game"
    for answer in found[3:]:
        assert answer["action"] == "no-double" and answer["equities"]["double_take"] is None


@pytest.mark.parametrize(
    ("changes", "says"),
    [
        (dict(dave_owner="mine"), "dave_owner is 'centered' (or null), 'own' or 'other'"),
        (dict(score=[2, 7]), "each score is from 0 to 6"),
        (dict(score=[2]), "score is [own, other]"),
        (dict(stake=2), "both sides hold the dave at stake 1"),
        (dict(stake="1"), "stake is a whole number"),
        (dict(crawford="no"), "crawford is true or false"),
        (dict(plies=3), "plies is one of"),
        (dict(progression="fast"), "unknown dave progression"),
        (dict(max_stake=0), "max_stake must be at least 1"),
        (dict(match_length=None), "match_length is a whole number"),
    ],
)
def test_cube_refuses_a_bad_line_with_a_clear_error(changes, says):
    [answer] = cube_answers([request(Position.initial(LongNardy()), **changes)])
    assert says in answer["error"]


def test_cube_refuses_a_finished_game_a_missing_field_and_goes_on():
    done = Position.from_points(LongNardy(), {}, {24: 15})
    found = cube_answers(["[]", '{"position_id": "x"}', request(done), "{}"])
    assert "JSON object" in found[0]["error"]
    assert "error" in found[1]
    assert "the game is over" in found[2]["error"]
    assert "missing field 'position_id'" in found[3]["error"]


def test_the_program_answers_cube_lines():
    answered = subprocess.run(
        [sys.executable, "-m", "games.rules", "cube", "--variant", "long"],
        input=request(Position.initial(LongNardy())) + "\noops\n",
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    first, second = (json.loads(line) for line in answered.stdout.splitlines())
    assert first["action"] in ACTIONS and "error" in second


def test_two_rolls_ahead_a_bear_off_double_is_worth_what_the_dice_say(shipped):
    """Four checkers on point 1 against two on point 6, the side on roll to move: a double wins
    at once (1/6); otherwise the other side has one roll to finish, which only 3-3, 4-4, 5-5 and
    6-6 do (1/9), and then any roll bears the last two off. Rolling on wins 1/6 + 5/6 · 8/9 and
    is worth 1/6 + 5/6 · 7/9 = 44/54 of a stake; offering, the other side drops (a take is worth
    twice that to the doubler): a cash, 1. The model alone, and a roll ahead, value the other
    side's last roll as if the doubler could cash before it; two rolls ahead see the dice."""
    position = Position.from_points(LongNardy(), {1: 4}, {6: 2})
    assert shipped.evaluate(position).win == pytest.approx(49 / 54, abs=1e-5)  # fixed point
    far = MatchState(41, (0, 0))  # far from the end: the EMG is nearly money's
    exact = decide_at(shipped, position, far, 2)
    assert exact.action == "double-drop"
    assert exact.emg(exact.no_double_mwc) == pytest.approx(44 / 54, abs=0.01)
    assert exact.emg(exact.double_take_mwc) == pytest.approx(2 * 44 / 54, abs=0.03)
    missed = exact.emg_loss(exact.double_mwc - exact.no_double_mwc)
    assert missed == pytest.approx(10 / 54, abs=0.01)  # a blunder, by the checker plays' marks
    for shallow in (decide_at(shipped, position, far, 0), decide_at(shipped, position, far, 1)):
        assert shallow.emg_loss(shallow.double_mwc - shallow.no_double_mwc) < missed - 0.05
