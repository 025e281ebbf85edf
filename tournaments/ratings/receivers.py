"""The rating lists follow the results (``tournaments.matches.signals``), connected in
``RatingsConfig.ready``: a decided result is rated once the transaction commits, a corrected or
cleared one replays its list from its place in history. On a rated tournament's list, the trail
records a result that counts and a correction in the result's own transaction."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from tournaments.models import Match
from tournaments.ratings.audit import audit_record
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import RatingAudit
from tournaments.ratings.work import rate_on_commit, replay_on_commit


def rate_decided(sender: Any, *, match: Match, by: Any, first: bool, **kwargs: Any) -> None:
    if first and match.forfeit:
        return  # a forfeit is never rated, and was never on the list
    if first:
        rate_on_commit(match)
    else:
        replay_on_commit((match.decided_at, match.pk), rating_list_of(match.tournament))  # type: ignore[arg-type]
    if match.tournament.rated:
        action = RatingAudit.Action.RESULT if first else RatingAudit.Action.CORRECTION
        audit_record(action, rating_list=rating_list_of(match.tournament), by=by, match=match)


def replay_cleared(sender: Any, *, match: Match, decided_at: datetime, **kwargs: Any) -> None:
    """Its rating rows go: the list is replayed from where it stood."""
    replay_on_commit((decided_at, match.pk), rating_list_of(match.tournament))
