"""Rated events need a rating officer: a tournament's results count on its shared rating list
only once an officer of that list (site staff, or a user named in ``RatingList.officers``)
approves it, and a change the anomaly guard held counts once an officer confirms it. The
approval can come before the start or after the results, and can be withdrawn; either way the
list is replayed from the tournament's first decided match, on commit, by the rating tasks.
Tournaments of before approvals existed were migrated as rated."""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Match, Tournament
from tournaments.ratings.audit import audit_record
from tournaments.ratings.ledger import first_result_key, locked_list, rating_list_of
from tournaments.ratings.models import RatingAudit, RatingHold, RatingList

User = AbstractBaseUser | AnonymousUser


def is_rating_officer(rating_list: RatingList, user: User) -> bool:
    """Staff, or an officer named for this list."""
    return _officer_of(RatingList.objects.filter(pk=rating_list.pk), user)


def may_approve(tournament: Tournament, user: User) -> bool:
    """Whether ``user`` may approve (or withdraw) the rating of ``tournament``: read only, so a
    page may ask it for every visitor (no list is made for asking)."""
    lists = RatingList.objects.filter(system=tournament.rating_system, variant=tournament.variant)
    return _officer_of(lists, user)


def _officer_of(lists: QuerySet[RatingList], user: User) -> bool:
    if not user.is_authenticated:
        return False
    return getattr(user, "is_staff", False) or lists.filter(officers=user.pk).exists()


def ratings_approve(*, tournament: Tournament, by: User) -> Tournament:
    """Rate the tournament's results on its list (those decided already and those to come)."""
    return _set_rated(tournament, by, rated=True)


def ratings_withdraw(*, tournament: Tournament, by: User) -> Tournament:
    """Take the tournament's results off its list; the list is replayed without them."""
    return _set_rated(tournament, by, rated=False)


def ratings_hold_confirm(*, hold: RatingHold, by: User) -> RatingHold:
    """An officer confirms a held change: the list is replayed from the match, with it."""
    if not is_rating_officer(hold.rating_list, by):
        raise NotAllowed(_("Only a rating officer of this rating list may confirm its changes."))
    from tournaments.queue import enqueue  # noqa: PLC0415
    from tournaments.ratings.tasks import ratings_replay  # noqa: PLC0415

    with transaction.atomic():
        locked_list(hold.rating_list_id)  # the ledger's order: the list, then its holds
        hold = (
            RatingHold.objects.select_for_update(of=("self",))
            .select_related("rating_list", "match__tournament", "match__home__player")
            .select_related("match__away__player")
            .get(pk=hold.pk)
        )
        if hold.status != RatingHold.Status.PENDING:
            raise Conflict(_("This change was confirmed already."))
        hold.status = RatingHold.Status.CONFIRMED
        hold.confirmed_by = by  # type: ignore[assignment]
        hold.confirmed_at = timezone.now()
        hold.save(update_fields=["status", "confirmed_by", "confirmed_at"])
        audit_record(
            RatingAudit.Action.RELEASE, rating_list=hold.rating_list, by=by, match=hold.match
        )
        match = hold.match
        if match.decided_at is not None:
            key = [match.decided_at.isoformat(), match.pk]
            enqueue(ratings_replay, key, hold.rating_list_id)
    return hold


def _set_rated(tournament: Tournament, by: User, *, rated: bool) -> Tournament:
    rating_list = rating_list_of(tournament)
    if not is_rating_officer(rating_list, by):
        raise NotAllowed(_("Only a rating officer of this rating list may approve its events."))
    with transaction.atomic():
        Tournament.lock_for_change(tournament.pk)
        tournament = Tournament.objects.get(pk=tournament.pk)
        if tournament.rated == rated:
            raise Conflict(
                _("This tournament is rated already.")
                if rated
                else _("This tournament is not rated.")
            )
        tournament.rated = rated
        tournament.rated_by = by if rated else None  # type: ignore[assignment]
        tournament.rated_at = timezone.now() if rated else None
        tournament.save(update_fields=["rated", "rated_by", "rated_at"])
        # The stages of a two-stage event hold its matches: they are rated with it.
        tournament.stages.update(
            rated=tournament.rated, rated_by=tournament.rated_by, rated_at=tournament.rated_at
        )
        action = RatingAudit.Action.APPROVAL if rated else RatingAudit.Action.WITHDRAWAL
        audit_record(action, rating_list=rating_list, by=by, tournament=tournament)
        first = first_result_key(
            Match.objects.filter(Q(tournament=tournament) | Q(tournament__parent=tournament))
        )
        if first is not None:  # the list is replayed from there once this commits
            from tournaments.queue import enqueue  # noqa: PLC0415
            from tournaments.ratings.tasks import ratings_replay  # noqa: PLC0415

            enqueue(ratings_replay, [first[0].isoformat(), first[1]], rating_list.pk)
    return tournament
