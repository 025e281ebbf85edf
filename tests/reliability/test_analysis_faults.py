"""A worker killed in the middle of a match analysis, for real: gnubg is working on the match (one
game done, the page saying so), the worker and its gnubg are killed, and nothing of that analysis
is stored. Redis hands the unacknowledged message to the next worker of the analysis queue, which
stores the whole analysis: complete or absent, never half-written.

It needs the real broker mode (CI's stage 2) and gnubg."""

import os
import re
import signal
import time

import pytest

from games.analysis.runner import analyse, gnubg_path
from tests.conftest import needs_broker
from tests.tournaments.analysis.test_analysis_task import corpus_match, recorded
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.matches.records import match_mat_text

WAIT_SECONDS = 60
VISIBILITY_TIMEOUT_SECONDS = 3
#: A corpus match of several games: at 2 plies gnubg takes seconds over each.
PICK = 700

if gnubg_path() is None and os.environ.get("CI", "").lower() != "true":
    pytest.skip("gnubg is not installed: apt-get install gnubg", allow_module_level=True)


def waited(condition, worker, what: str) -> None:
    deadline = time.monotonic() + WAIT_SECONDS
    while not condition():
        if time.monotonic() > deadline or worker.process.poll() is not None:
            pytest.fail(f"{what}:\n{worker.output()}")
        time.sleep(0.05)


def stored(match_id: int) -> tuple[int, int]:
    """The rows of figures and of judged plays stored for the match."""
    figures = PlayerFigures.objects.filter(analysis__match_id=match_id).count()
    return figures, Mistake.objects.filter(analysis__match_id=match_id).count()


@needs_broker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_analysis_is_redelivered_and_the_analysis_is_whole(
    own_broker, own_worker, analysis_on
):
    visibility = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_SECONDS), "ANALYSIS": "on"}
    first = own_worker(env={**visibility, "ANALYSIS_PLIES": "2"}, queue="analysis")
    text, home, away, length = corpus_match(PICK)
    match, _ = recorded(text, home, away, length)  # on commit: analysis_run to the queue
    games = match.games.count()
    assert games >= 3

    def one_game_done() -> bool:
        found = MatchAnalysis.objects.filter(match=match).first()
        return found is not None and found.games_done >= 1

    waited(one_game_done, first, "gnubg did not finish a first game")
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == MatchAnalysis.Status.RUNNING and analysis.games_done < games
    os.killpg(first.pid, signal.SIGKILL)  # the worker and the gnubg it started
    first.process.wait()
    killed = time.monotonic()
    assert stored(match.pk) == (0, 0)  # nothing of the killed run is stored

    # Redis hands the unacknowledged message on once its visibility timeout has passed.
    time.sleep(max(0.0, killed + VISIBILITY_TIMEOUT_SECONDS + 0.5 - time.monotonic()))
    second = own_worker(env={**visibility, "ANALYSIS_PLIES": "0"}, queue="analysis")

    (taken,) = re.findall(
        r"Task tournaments\.analysis\.tasks\.analysis_run\[([\w-]+)\] received", first.output()
    )  # the very message the first worker took (same task id), delivered again
    success = f"tournaments.analysis.tasks.analysis_run[{taken}] SUCCESS"
    waited(lambda: success in second.output(), second, "the redelivered analysis did not finish")
    analysis.refresh_from_db()
    assert analysis.games_done == analysis.games == games and analysis.plies == 0
    direct = analyse(match_mat_text(match), plies=0)
    figures, mistakes = stored(match.pk)
    assert figures == 2 * (games + 1)  # each side, each game and the match
    assert mistakes == sum(len(game.decisions) for game in direct.games)
    for side in (1, 2):
        row = PlayerFigures.objects.get(analysis=analysis, game=0, side=side)
        assert row.checker_error == pytest.approx(direct.totals[side].checker_error)
        assert row.unforced_moves == direct.totals[side].unforced_moves
