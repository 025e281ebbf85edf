"""The writes of the rating lists that other parts of the site ask for.

Rated events need a rating officer: a tournament's results count on its shared rating list
only once an officer of that list (site staff, or a user named in ``RatingList.officers``)
approves it, and a change the anomaly guard held counts once an officer confirms it. The
approval can come before the start or after the results, and can be withdrawn; either way the
list is replayed from the tournament's first decided match, on commit, by the rating tasks.
Tournaments of before approvals existed were migrated as rated.

When results leave or come back whole (a tournament deleted or imported, matches deleted in the
admin, players merged or a merge undone), ``lists_replay`` replays the lists they count in from
the first of them, each list's trail saying why. The lists follow single results by themselves
(``receivers``)."""

from __future__ import annotations

from datetime import datetime

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.models import Match, Player, Tournament
from tournaments.policy import require
from tournaments.ratings.audit import audit_record
from tournaments.ratings.history import OrderKey
from tournaments.ratings.ledger import first_result_key, locked_list, rating_list_of
from tournaments.ratings.models import RatingAudit, RatingChange, RatingHold, RatingList
from tournaments.ratings.work import replay_on_commit

User = AbstractBaseUser | AnonymousUser


def ratings_approve(*, tournament: Tournament, by: User) -> Tournament:
    """Rate the tournament's results on its list (those decided already and those to come)."""
    return _set_rated(tournament, by, rated=True)


def ratings_withdraw(*, tournament: Tournament, by: User) -> Tournament:
    """Take the tournament's results off its list; the list is replayed without them."""
    return _set_rated(tournament, by, rated=False)


def ratings_hold_confirm(*, hold: RatingHold, by: User) -> RatingHold:
    """An officer confirms a held change: the list is replayed from the match, with it."""
    require(by, "hold.confirm", hold)
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
            replay_on_commit((match.decided_at, match.pk), hold.rating_list)
    return hold


def _set_rated(tournament: Tournament, by: User, *, rated: bool) -> Tournament:
    require(by, "tournament.rate", tournament)
    rating_list = rating_list_of(tournament)
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
            replay_on_commit(first, rating_list)
    return tournament


# --- Results leaving or coming back whole ------------------------------------------------------

#: Rating lists, each with where its replay starts (None: from the beginning).
Replays = list[tuple[RatingList, OrderKey | None]]


def lists_replay(replays: Replays, action: str, *, by: User | None, note: str = "") -> None:
    """Replay each list from its key once the transaction commits, its trail saying why
    (``action``, a ``RatingAudit.Action``, and ``note``)."""
    for rating_list, key in replays:
        audit = audit_record(RatingAudit.Action(action), rating_list=rating_list, by=by)
        if note:
            audit.note = note[:300]
            audit.save(update_fields=["note"])
        replay_on_commit(key, rating_list)


def player_lists(player: Player) -> Replays:
    """The rating lists the player is in, each from the player's first rated match in it."""
    lists = RatingList.objects.filter(
        Q(changes__player=player) | Q(ratings__player=player)
    ).distinct()
    found = []
    for rating_list in lists:
        matches = Match.objects.filter(
            pk__in=RatingChange.objects.filter(rating_list=rating_list, player=player).values(
                "match"
            )
        )
        found.append((rating_list, first_result_key(matches)))
    return found


def entry_lists(entry_ids: list[int]) -> Replays:
    """The rating lists of the rated tournaments of these entries, each from the first decided
    match of them."""
    by_list: dict[int, tuple[RatingList, list[int]]] = {}
    tournaments = Tournament.objects.filter(entries__pk__in=entry_ids, rated=True).distinct()
    for tournament in tournaments:
        rating_list = rating_list_of(tournament)
        by_list.setdefault(rating_list.pk, (rating_list, []))[1].append(tournament.pk)
    replays: Replays = []
    for rating_list, tournament_ids in by_list.values():
        matches = Match.objects.filter(tournament_id__in=tournament_ids).filter(
            Q(home_id__in=entry_ids) | Q(away_id__in=entry_ids)
        )
        replays.append((rating_list, first_result_key(matches)))
    return replays


def tournament_leaving(tournament: Tournament, *, by: User | None) -> None:
    """Call in the transaction that deletes the tournament, before it does: its rated matches
    leave the ledger, and its list is replayed (on commit) from the first of them; a rated
    tournament's trail records the deletion."""
    first = first_result_key(Match.objects.filter(tournament=tournament))
    if first is None:
        return
    rating_list = rating_list_of(tournament)
    if tournament.rated:
        audit_record(
            RatingAudit.Action.DELETION, rating_list=rating_list, by=by, tournament=tournament
        )
    replay_on_commit(first, rating_list)


def tournament_arrived(tournament: Tournament, first: datetime) -> None:
    """On commit: replay the (imported) tournament's rating list from its first decided match."""
    replay_on_commit((first, 0), rating_list_of(tournament))
