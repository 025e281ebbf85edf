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

from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match, Player, Round, Tournament
from tournaments.ratings.ledger import ratings_replay
from tournaments.ratings.models import RatingChange, RatingHold
from tournaments.ratings.services import ratings_approve, ratings_hold_confirm, ratings_withdraw

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
        rated=True,  # approved by a rating officer (tournaments.ratings.services)
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


def test_an_approval_and_its_withdrawal_on_the_worker_replay_the_list(real_worker):
    worker = real_worker()
    rated, rated_matches = club(players=4, matches=3, seed=11)
    unrated, unrated_matches = club(players=4, matches=3, seed=12)
    Tournament.objects.filter(pk=unrated.pk).update(rated=False)
    for match in [*rated_matches, *unrated_matches]:
        match_result_record(match=match, by=match.tournament.organizer, score=(3, 0))
    wait_for(lambda: RatingChange.objects.count() == 6, worker)
    assert not RatingChange.objects.filter(match__in=unrated_matches).exists()
    officer = User.objects.create_user("rita-worker", is_staff=True)

    ratings_approve(tournament=unrated, by=officer)
    wait_for(lambda: RatingChange.objects.count() == 12, worker)
    by_worker = ledger_state()
    ratings_replay(None)
    assert ledger_state() == by_worker

    ratings_withdraw(tournament=rated, by=officer)
    wait_for(lambda: not RatingChange.objects.filter(match__in=rated_matches).exists(), worker)
    by_worker = ledger_state()
    ratings_replay(None)
    assert ledger_state() == by_worker
    assert RatingChange.objects.filter(match__in=unrated_matches).count() == 6


def test_the_worker_holds_a_change_over_the_threshold_until_an_officer_confirms_it(
    real_worker, settings
):
    # Newcomers' 3-point matches move 17.3 points: over a threshold of 15, every one is held.
    settings.RATING_REVIEW_THRESHOLD = 15
    worker = real_worker(env={"RATING_REVIEW_THRESHOLD": "15"})
    tournament, matches = club(players=4, matches=2, seed=13)
    for match in matches:
        match_result_record(match=match, by=tournament.organizer, score=(3, 0))
    wait_for(lambda: RatingHold.objects.count() == 2, worker)
    assert not RatingChange.objects.exists()  # the list is untouched
    officer = User.objects.create_user("rita-holds", is_staff=True)

    for hold in RatingHold.objects.order_by("match__decided_at"):
        ratings_hold_confirm(hold=hold, by=officer)
    wait_for(lambda: RatingChange.objects.count() == 4, worker)
    by_worker = ledger_state()
    ratings_replay(None)
    assert ledger_state() == by_worker  # equals a serial replay with the confirmations
    assert set(RatingHold.objects.values_list("status", flat=True)) == {"confirmed"}
