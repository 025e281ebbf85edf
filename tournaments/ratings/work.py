"""Rating work a change asks for: the task, enqueued once the change commits, and its row in the
backlog (``RatingBacklog``), written in the change's own transaction. The ledger deletes the row
as it starts the work; a task the broker lost leaves its row for the beat's catch-up
(``ledger.ratings_catch_up``). Every enqueuer of rating work goes through here."""

from __future__ import annotations

from tournaments.models import Match
from tournaments.queue import enqueue
from tournaments.ratings.history import OrderKey
from tournaments.ratings.ledger import backlog_add, order_key, rating_list_of, rating_lists_used
from tournaments.ratings.models import RatingList
from tournaments.ratings.tasks import ratings_apply, ratings_replay


def rate_on_commit(match: Match) -> None:
    """Rate a match that was just decided (its tournament's list)."""
    if match.tournament.rated:  # an unrated match's task has nothing to catch up on
        backlog_add(rating_list_of(match.tournament), order_key(match))
    enqueue(ratings_apply, match.pk)


def replay_on_commit(key: OrderKey | None, rating_list: RatingList | None = None) -> None:
    """Replay ``rating_list`` (None: every list) from ``key`` (None: from the beginning)."""
    for one in [rating_list] if rating_list is not None else rating_lists_used():
        backlog_add(one, key)
    enqueue(
        ratings_replay,
        None if key is None else [key[0].isoformat(), key[1]],
        None if rating_list is None else rating_list.pk,
    )
