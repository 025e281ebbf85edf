"""The rating lists' Celery tasks: each takes ids (or an order key), is safe to run twice, and
retries as ``tournaments.queue.RETRY`` says. Enqueued with ``tournaments.queue.enqueue``."""

from __future__ import annotations

from datetime import datetime

from celery import shared_task

from tournaments.queue import RETRY
from tournaments.ratings import ledger
from tournaments.ratings.models import RatingList


@shared_task(**RETRY)
def ratings_apply(match_id: int) -> str:
    """Rate a match that became final (a replay when it arrives out of order)."""
    return ledger.ratings_apply(match_id)


@shared_task(**RETRY)
def ratings_replay(
    from_order_key: list[str | int] | None = None, rating_list_id: int | None = None
) -> int:
    """Replay the ratings from ``[decided_at ISO time, match id]`` on (None: everything), in one
    list or in all; returns how many matches were rated."""
    key = None
    if from_order_key is not None:
        moment, match_id = from_order_key
        key = (datetime.fromisoformat(str(moment)), int(match_id))
    rating_list = None
    if rating_list_id is not None:
        rating_list = RatingList.objects.filter(pk=rating_list_id).first()
        if rating_list is None:
            return 0
    return ledger.ratings_replay(key, rating_list).matches


@shared_task(**RETRY)
def ratings_catch_up() -> int:
    """Periodic (Celery beat, ``nardy_site/celery.py``): rate what the ledger is missing.

    A rating task can be lost: not enqueued because the broker was down when the result
    committed, or dropped with the broker's data. Each rating list whose ledger lacks a decided
    match, shows an old result or keeps the rows of a match no longer rated is replayed from the
    earliest such match. Idempotent; returns how many matches were rated (0: all up to date).
    """
    return ledger.ratings_catch_up()
