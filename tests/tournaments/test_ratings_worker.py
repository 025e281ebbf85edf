"""Ratings written by a real Celery worker on the real broker (CI: Redis): concurrent results
give exactly the ratings of a serial replay, a failed task retries without duplicates, and a
correction replays what came after it."""

import random
import threading
import time

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db import close_old_connections, connection

from tournaments.ledger import ratings_replay
from tournaments.models import Match, Player, RatingChange, Round, Tournament
from tournaments.results import match_result_correct, match_result_record

WAIT_SECONDS = 90

pytestmark = [
    pytest.mark.skipif(
        settings.CELERY_TASK_ALWAYS_EAGER, reason="needs CELERY_BROKER_URL (a real broker)"
    ),
    pytest.mark.django_db(transaction=True),
]


def club(players: int, matches: int, seed: int = 3) -> tuple[Tournament, list[Match]]:
    organizer = User.objects.create_user(f"olga-{seed}")
    tournament = Tournament.objects.create(
        name="Rated club",
        slug=f"rated-club-{seed}",
        variant="short",
        status=Tournament.Status.RUNNING,
        organizer=organizer,
        match_length=3,
    )
    entries = [
        tournament.entries.create(player=Player.objects.create(display_name=f"R{seed}-{n}"))
        for n in range(players)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1)
    rng = random.Random(seed)
    made = []
    for _ in range(matches):
        home, away = rng.sample(entries, 2)
        made.append(Match.objects.create(tournament=tournament, round=round_, home=home, away=away))
    return tournament, made


def ledger_state() -> list[tuple[int, int, float]]:
    return sorted(
        (match, player, round(after, 9))
        for match, player, after in RatingChange.objects.values_list(
            "match_id", "player_id", "after"
        )
    )


def wait_for(condition, worker) -> None:
    """Until ``condition()`` holds and the ledger has been still for a second."""
    deadline = time.monotonic() + WAIT_SECONDS
    last, still_since = None, time.monotonic()
    while time.monotonic() < deadline:
        state = ledger_state()
        if state != last:
            last, still_since = state, time.monotonic()
        elif condition() and time.monotonic() - still_since > 1.0:
            return
        if worker.process.poll() is not None:
            pytest.fail(f"the worker exited:\n{worker.output()}")
        time.sleep(0.2)
    pytest.fail(f"the worker did not finish in {WAIT_SECONDS}s:\n{worker.output()}")


def test_fifty_matches_finished_concurrently_give_the_serial_ratings(real_worker):
    worker = real_worker()
    tournament, matches = club(players=12, matches=50)
    rng = random.Random(8)
    scores = {match.pk: rng.choice([(3, 0), (3, 2), (1, 3), (0, 3)]) for match in matches}
    chunks = [matches[i::10] for i in range(10)]
    barrier = threading.Barrier(len(chunks))
    errors: list[BaseException] = []

    def finish(chunk: list[Match]) -> None:
        close_old_connections()
        try:
            barrier.wait()
            for match in chunk:
                match_result_record(match=match, by=tournament.organizer, score=scores[match.pk])
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=finish, args=(chunk,)) for chunk in chunks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors

    wait_for(lambda: RatingChange.objects.count() == 100, worker)
    by_worker = ledger_state()
    ratings_replay(None)  # the serial replay, in this process
    assert ledger_state() == by_worker
    assert {match for match, _, _ in by_worker} == {match.pk for match in matches}


def test_a_task_that_fails_once_retries_and_leaves_no_duplicate_rows(real_worker, tmp_path):
    mark = tmp_path / "fail-once"
    mark.touch()
    worker = real_worker(
        include="tests.support.ratings_fail_once", env={"NARDY_FAIL_ONCE": str(mark)}
    )
    tournament, (match,) = club(players=2, matches=1, seed=4)

    match_result_record(match=match, by=tournament.organizer, score=(3, 1))

    wait_for(lambda: not mark.exists() and RatingChange.objects.count() == 2, worker)
    assert "Retry in" in worker.output()  # Celery logs the retry of the failed task
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_correction_on_the_worker_replays_everything_after_it(real_worker):
    worker = real_worker()
    tournament, matches = club(players=6, matches=8, seed=5)
    for match in matches:
        match_result_record(match=match, by=tournament.organizer, score=(3, 0))
    wait_for(lambda: RatingChange.objects.count() == 16, worker)
    before = ledger_state()

    match_result_correct(match=matches[0], by=tournament.organizer, score=(0, 3))

    wait_for(lambda: ledger_state() != before, worker)
    by_worker = ledger_state()
    ratings_replay(None)
    assert ledger_state() == by_worker
    first_rows = RatingChange.objects.filter(match=matches[0])
    winner = first_rows.get(player=matches[0].away.player)
    assert winner.delta > 0
