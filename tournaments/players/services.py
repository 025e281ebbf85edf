"""Claims and merges. A claim links a Player to the user who says it is theirs, once an organizer
of a club the player has played for (or staff) approves it. A merge folds a duplicate Player into
the one kept, in one transaction: entries, sign-ups and claims move over, the account link too,
the duplicate's ledger rows go, its rating lists are replayed (on commit) and their audit trails
say so. Each raises a ``TournamentError`` having changed nothing when it cannot be done."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.clubs.permissions import User, runs_club
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.players.models import PlayerClaim
from tournaments.ratings.audit import audit_record
from tournaments.ratings.history import OrderKey
from tournaments.ratings.ledger import first_result_key
from tournaments.ratings.models import RatingAudit, RatingChange, RatingList
from tournaments.ratings.tasks import ratings_replay
from tournaments.signups.models import SignUp
from tournaments.tasks import enqueue

State = PlayerClaim.State


def may_decide(player: Player, user: User) -> bool:
    """Staff, or one who runs a club the player has played for."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_staff", False):
        return True
    return any(runs_club(club, user) for club in clubs_played_for(player))


def clubs_played_for(player: Player) -> list[Club]:
    return list(Club.objects.filter(tournaments__entries__player=player).distinct())


@transaction.atomic
def claim_request(*, player: Player, by: User) -> PlayerClaim:
    """The signed-in user says the player is them; an organizer decides."""
    if not by.is_authenticated:
        raise NotAllowed(_("Sign in to claim a player."))
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.user_id is not None:
        raise Conflict(_("This player is linked to an account already."))
    if Player.objects.filter(user_id=by.pk).exists():
        raise Conflict(
            _("Your account has a player already: ask an organizer to merge the two instead.")
        )
    if player.claims.filter(user_id=by.pk, state=State.PENDING).exists():
        raise Conflict(_("You have claimed this player already: an organizer will decide."))
    return PlayerClaim.objects.create(player=player, user_id=by.pk)


@transaction.atomic
def claim_approve(*, claim: PlayerClaim, by: User) -> PlayerClaim:
    """Link the player to the claiming account; the player's other claims are declined."""
    claim = _pending(claim, by)
    player = Player.objects.select_for_update().get(pk=claim.player_id)
    if player.user_id is not None:
        raise Conflict(_("This player is linked to an account already."))
    if Player.objects.filter(user_id=claim.user_id).exists():
        raise Conflict(_("The claiming account has a player already: merge the two instead."))
    player.user_id = claim.user_id
    player.save(update_fields=["user"])
    _decide(claim, State.APPROVED, by)
    for other in player.claims.filter(state=State.PENDING).exclude(pk=claim.pk):
        _decide(other, State.DECLINED, by)
    return claim


@transaction.atomic
def claim_decline(*, claim: PlayerClaim, by: User) -> PlayerClaim:
    claim = _pending(claim, by)
    _decide(claim, State.DECLINED, by)
    return claim


@transaction.atomic
def players_merge(*, keep: Player, drop: Player, by: User) -> Player:
    """Fold ``drop`` into ``keep``: they are the same person. Refused when they played in the
    same tournament (a match of one against the other cannot be undone by a merge) or are linked
    to two different accounts."""
    if keep.pk == drop.pk:
        raise InvalidInput(_("Choose two different players."))
    keep, drop = (Player.objects.select_for_update().get(pk=p.pk) for p in (keep, drop))
    if not (may_decide(keep, by) and may_decide(drop, by)):
        raise NotAllowed(
            _("Only staff, or an organizer of a club both players have played for, may merge.")
        )
    shared = Tournament.objects.filter(entries__player=keep).filter(entries__player=drop)
    if shared.exists():
        raise Conflict(
            _("Both played in %(tournament)s: they are two people, or one of the entries is a "
              "mistake to correct in that tournament first.") % {"tournament": shared.first()}
        )  # fmt: skip
    if keep.user_id and drop.user_id and keep.user_id != drop.user_id:
        raise Conflict(_("The two players are linked to two different accounts."))
    replays = _ledger_of(drop)
    keep.user_id = keep.user_id or drop.user_id
    keep.club = keep.club or drop.club
    keep.country = keep.country or drop.country
    Entry.objects.filter(player=drop).update(player=keep)
    SignUp.objects.filter(player=drop).update(player=keep)
    PlayerClaim.objects.filter(player=drop).update(player=keep)
    drop_name = drop.display_name
    drop.delete()  # its ledger rows and cached ratings go with it; the replays rebuild them
    keep.save()
    for rating_list, key in replays:
        audit = audit_record(RatingAudit.Action.MERGE, rating_list=rating_list, by=by)
        audit.note = f"{drop_name} → {keep.display_name}"[:300]
        audit.save(update_fields=["note"])
        enqueue(ratings_replay, None if key is None else [key[0].isoformat(), key[1]],
                rating_list.pk)  # fmt: skip
    return keep


# --- Inside ------------------------------------------------------------------------------------


def _pending(claim: PlayerClaim, by: User) -> PlayerClaim:
    claim = PlayerClaim.objects.select_for_update().select_related("player").get(pk=claim.pk)
    if not may_decide(claim.player, by):
        raise NotAllowed(
            _("Only staff, or an organizer of a club the player has played for, may decide.")
        )
    if claim.state != State.PENDING:
        raise Conflict(_("This claim is decided already."))
    return claim


def _decide(claim: PlayerClaim, state: str, by: User) -> None:
    claim.state = state
    claim.decided_by_id = by.pk
    claim.decided_at = timezone.now()
    claim.save(update_fields=["state", "decided_by", "decided_at"])


def _ledger_of(player: Player) -> list[tuple[RatingList, OrderKey | None]]:
    """The rating lists the player is in, each with where its replay starts: the player's first
    rated match in it (None: from the beginning)."""
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
