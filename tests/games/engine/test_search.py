"""The engine's search at 2 plies: a legal play, the exact answer where the bear-off database
decides, and accepted wherever plies are."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from games.engine import cli
from games.engine.search import ROLLS, WEIGHTS
from games.rules import LongNardy, Position, legal_plays

from .conftest import played_positions

#: The mover's last checker is just outside its home, the other side has borne off some: whatever
#: the mover plays, it brings that checker home (or off), and the position it leaves is a pure
#: bear-off with no mars left, which the database decides.
LAST_CHECKER_OUT = Position.from_points(LongNardy(), {7: 1}, {2: 2, 4: 2, 5: 1, 6: 1})


def exact_after(shipped, play) -> float:
    """The chance to win the play leaves, from the database alone (the opponent on roll)."""
    after = play.position
    assert not any(after.opponent[7:25]), "the play left a checker outside the home"
    if after.opponent[0] == 15:
        return 1.0
    return 1.0 - shipped.database.win(after.mover[1:7], after.opponent[1:7])


def test_two_ply_picks_a_legal_play(shipped):
    for position, dice in played_positions(40, seed=21)[::10]:
        ranked = shipped.rank(position, dice, plies=2)
        legal = {play.position for play in legal_plays(position, dice)}
        assert ranked[0].play.position in legal
        assert {r.play.position for r in ranked} == legal
        assert ranked[0].plies in (0, 2) and -2.0 <= ranked[0].equity <= 2.0


def test_two_ply_agrees_with_the_database_where_it_decides(shipped):
    best_of_each_roll = [
        max(exact_after(shipped, play) for play in legal_plays(LAST_CHECKER_OUT, dice))
        for dice in ROLLS
    ]
    exact = float(np.dot(WEIGHTS, best_of_each_roll))
    assert shipped.evaluate(LAST_CHECKER_OUT, plies=2).win == pytest.approx(exact, abs=1e-6)
    for dice in ((2, 1), (6, 6), (4, 3)):
        ranked = shipped.rank(LAST_CHECKER_OUT, dice, plies=2)
        best = max(exact_after(shipped, play) for play in legal_plays(LAST_CHECKER_OUT, dice))
        assert exact_after(shipped, ranked[0].play) == pytest.approx(best, abs=1e-9)
        assert ranked[0].probabilities.win == pytest.approx(best, abs=1e-6)


def test_two_ply_is_accepted_by_best_and_eval(shipped):
    position, dice = played_positions(3, seed=22)[2]
    line = json.dumps({"position_id": position.position_id(), "dice": list(dice)})
    for command in ("best", "eval"):
        out = io.StringIO()
        cli.main([command, "--variant", "long", "--plies", "2"], io.StringIO(line + "\n"), out)
        assert "error" not in json.loads(out.getvalue())
    with pytest.raises(SystemExit):
        cli.main(["best", "--variant", "long", "--plies", "3"], io.StringIO(""), io.StringIO())
    with pytest.raises(ValueError, match="0, 1 or 2"):
        shipped.evaluate(position, plies=3)
