"""Celery tasks: ratings are written by workers, after the result's transaction commits.

Each task takes ids (or an order key), is safe to run twice, and retries with back-off when the
database is briefly unavailable; ``acks_late`` (the project default, set again here) means a task
lost with its worker is delivered again.
"""

from __future__ import annotations

from datetime import datetime

from celery import shared_task
from django.db import InterfaceError, OperationalError

from tournaments import ledger
from tournaments.models import RatingList

RETRY = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": True,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 8,
    "acks_late": True,
}


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
