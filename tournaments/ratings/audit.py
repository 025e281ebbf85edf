"""The audit trail of the rating lists: who changed a list, when, and how (``RatingAudit``).

Writers call ``audit_record`` inside the transaction of their change, so a row exists exactly
when the change does. The trail is read by the list's rating officers and staff (all of it) and
by organizers (the rows of their own tournaments): ``audit_trail``."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from tournaments.models import Match, Tournament
from tournaments.ratings.models import RatingAudit, RatingList
from tournaments.scoring import as_fraction, written

User = AbstractBaseUser | AnonymousUser


def audit_record(
    action: RatingAudit.Action,
    *,
    rating_list: RatingList,
    by: User | None,
    tournament: Tournament | None = None,
    match: Match | None = None,
) -> RatingAudit:
    """Write one row of the trail (the note names the match or tournament in words)."""
    note = match_words(match) if match is not None else tournament.name if tournament else ""
    return RatingAudit.objects.create(
        rating_list=rating_list,
        action=action,
        actor=by if by is not None and by.is_authenticated else None,
        tournament=tournament if tournament is not None else getattr(match, "tournament", None),
        match=match,
        note=note[:300],
    )


def match_words(match: Match) -> str:
    """ "Club Cup: Anna – Boris 3–1", from the match as it is now."""
    names = [side.player.display_name if side else "?" for side in (match.home, match.away)]
    score = ""
    if match.score_home is not None and match.score_away is not None:
        home, away = (written(as_fraction(side)) for side in (match.score_home, match.score_away))
        score = f" {home}–{away}"
    return f"{match.tournament.name}: {names[0]} – {names[1]}{score}"
