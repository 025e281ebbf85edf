"""Who a player is: a player made with its home club, claims, the account link removed, merges,
renames and their undoing, each under the rules of ``tournaments.policy`` and each in
the audit trail (``tournaments.players.audit``) in its own transaction; and the player's
profile (gender, birth year), which is no part of who they are and leaves no trail.

A claim links a Player to the user who says it is theirs, once the runners of the player's home
club (or staff) approve it. A merge folds a duplicate Player into the one kept: entries,
sign-ups and claims move over, the account link too, the duplicate's ledger rows go and its
rating lists are replayed (on commit), their audit trails saying so. Staff can undo a merge from
its row of the trail. A pair is renamed by its owner (the runners of its home club) or staff, and
the rename can be undone from its row the same way; a mistaken new player is renamed or deleted
by its home club's runners until their first match. Each raises a ``TournamentError`` having
changed nothing when it cannot be done."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.errors import Conflict, InvalidInput
from tournaments.models import Entry, Pair, Player, Tournament
from tournaments.players.audit import Action, identity_record, player_snapshot
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.players.ownership import home_club_of_new
from tournaments.players.selectors import deletion_refusal
from tournaments.policy import TwoPlayers, User, require
from tournaments.ratings.models import RatingAudit
from tournaments.ratings.services import entry_lists, lists_replay, player_lists
from tournaments.signups.models import SignUp

State = PlayerClaim.State


@transaction.atomic
def player_create(
    *, by: User, display_name: str, club: Club | None = None, country: str = ""
) -> Player:
    """A new player whose home club is ``club`` (one ``by`` runs), else ``by``'s only club."""
    require(by, "player.create")
    home = home_club_of_new(by=by, given=club)
    player = Player(
        display_name=display_name,
        country=country,
        home_club=home,
    )
    try:
        player.full_clean()
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    try:
        with transaction.atomic():
            player.save()
    except IntegrityError:
        raise Conflict(_("A player of this name was added just now.")) from None
    return player


@transaction.atomic
def player_profile_update(
    *,
    player: Player,
    by: User,
    gender: str,
    birth_year: int | None,
    region: str = "",
    sport_rank: str = "",
    sport_rank_since: date | None = None,
) -> Player:
    """Set the player's profile (``gender``: "", male or female; ``birth_year`` or None; the
    ``region`` they represent, an ISO 3166-2:RU code or ""; their ``sport_rank`` and the date it
    was given), by the player or by those who decide who they are (``policy``'s
    ``profile.edit``). Entries made already stay: the profile is checked when a player signs up
    or is entered. A rank's date without a rank is dropped."""
    player = _locked(player.pk)
    require(by, "profile.edit", player)
    player.gender = gender
    player.birth_year = birth_year
    player.region = region
    player.sport_rank = sport_rank
    player.sport_rank_since = sport_rank_since if sport_rank else None
    if player.sport_rank_since is not None and player.sport_rank_since > timezone.localdate():
        raise InvalidInput.of_fields(
            {"sport_rank_since": [_("A rank cannot be given on a day still to come.")]}
        )
    try:
        player.clean_fields(exclude=["display_name", "club", "country", "home_club", "user"])
    except ValidationError as error:
        raise InvalidInput.of_fields(error.message_dict) from None
    player.save(update_fields=[*PROFILE_FIELDS])
    return player


#: The profile's fields: personal, shown only to those who may read the profile (and, for an
#: official event's players, in its protocol and its standings by region).
PROFILE_FIELDS = ("gender", "birth_year", "region", "sport_rank", "sport_rank_since")


@transaction.atomic
def claim_request(*, player: Player, by: User) -> PlayerClaim:
    """The signed-in user says the player is them; the home club's runners (or staff) decide."""
    require(by, "player.claim", player)
    player = Player.objects.select_for_update().get(pk=player.pk)
    if hasattr(player, "pair"):
        raise Conflict(_("This is a pair, not a person: each of its two players is claimed."))
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
    player = _locked(claim.player_id)
    if player.user_id is not None:
        raise Conflict(_("This player is linked to an account already."))
    if Player.objects.filter(user_id=claim.user_id).exists():
        raise Conflict(_("The claiming account has a player already: merge the two instead."))
    before = {"player": player_snapshot(player)}
    player.user_id = claim.user_id
    player.save(update_fields=["user"])
    _decide(claim, State.APPROVED, by)
    identity_record(Action.CLAIM_APPROVED, by=by, player=player, before=before, claim=claim,
                    note=f"{claim.user.get_username()} → {player.display_name}")  # fmt: skip
    for other in player.claims.filter(state=State.PENDING).exclude(pk=claim.pk):
        _decline(other, by, player)
    return claim


@transaction.atomic
def claim_decline(*, claim: PlayerClaim, by: User) -> PlayerClaim:
    claim = _pending(claim, by)
    _decline(claim, by, _locked(claim.player_id))
    return claim


@transaction.atomic
def player_unlink(*, player: Player, by: User) -> Player:
    """Remove the player's account link: by its runners or staff, or by the account itself."""
    player = _locked(player.pk)
    if player.user_id is None:
        raise Conflict(_("This player is not linked to an account."))
    require(by, "player.unlink", player)
    before = {"player": player_snapshot(player)}
    username = player.user.get_username() if player.user else ""
    player.user = None
    player.save(update_fields=["user"])
    identity_record(Action.UNLINKED, by=by, player=player, before=before,
                    note=f"{username} ✕ {player.display_name}")  # fmt: skip
    return player


@transaction.atomic
def players_merge(*, keep: Player, drop: Player, by: User) -> Player:
    """Fold ``drop`` into ``keep``: they are the same person. Refused when they played in the
    same tournament (a match of one against the other cannot be undone by a merge) or are linked
    to two different accounts."""
    if keep.pk == drop.pk:
        raise InvalidInput(_("Choose two different players."))
    locked = {pk: _locked(pk) for pk in sorted((keep.pk, drop.pk))}  # in one order: no deadlock
    keep, drop = locked[keep.pk], locked[drop.pk]
    require(by, "player.merge", TwoPlayers(keep, drop))
    paired = Pair.objects.filter(
        Q(player__in=(keep, drop)) | Q(first__in=(keep, drop)) | Q(second__in=(keep, drop))
    )
    if paired.exists():
        raise Conflict(
            _("A pair, or a player in a pair, is not merged: the pairs' records would be lost.")
        )
    shared = Tournament.objects.filter(entries__player=keep).filter(entries__player=drop)
    if shared.exists():
        raise Conflict(
            _("Both played in %(tournament)s: they are two people, or one of the entries is a "
              "mistake to correct in that tournament first.") % {"tournament": shared.first()}
        )  # fmt: skip
    if keep.user_id and drop.user_id and keep.user_id != drop.user_id:
        raise Conflict(_("The two players are linked to two different accounts."))
    before = {
        "player": player_snapshot(keep),
        "other": player_snapshot(drop),
        "moved": {
            "entries": list(Entry.objects.filter(player=drop).values_list("pk", flat=True)),
            "signups": list(SignUp.objects.filter(player=drop).values_list("pk", flat=True)),
            "claims": list(PlayerClaim.objects.filter(player=drop).values_list("pk", flat=True)),
        },
    }
    replays = player_lists(drop)
    keep.user_id = keep.user_id or drop.user_id
    keep.club = keep.club or drop.club
    keep.country = keep.country or drop.country
    keep.gender = keep.gender or drop.gender
    keep.birth_year = keep.birth_year or drop.birth_year
    keep.region = keep.region or drop.region
    if not keep.sport_rank:
        keep.sport_rank, keep.sport_rank_since = drop.sport_rank, drop.sport_rank_since
    keep.home_club_id = keep.home_club_id or drop.home_club_id
    Entry.objects.filter(player=drop).update(player=keep)
    SignUp.objects.filter(player=drop).update(player=keep)
    PlayerClaim.objects.filter(player=drop).update(player=keep)
    keep.save()
    note = f"{drop.display_name} → {keep.display_name}"
    identity_record(Action.MERGED, by=by, player=keep, other=drop, before=before, note=note)
    drop.delete()  # its ledger rows and cached ratings go with it; the replays rebuild them
    lists_replay(replays, RatingAudit.Action.MERGE, by=by, note=note)
    return keep


@transaction.atomic
def player_rename(*, player: Player, by: User, name: str) -> Player:
    """Give a player record a new name: a pair by its owner (the runners of its home club) or
    staff, a player by the runners of its home club until their first match (a slip corrected),
    any player by staff. In the identity trail, undone from its row (``identity_undo``)."""
    player = _locked(player.pk)
    require(by, "player.rename", player)
    name = " ".join(name.split())
    if not name:
        raise InvalidInput(_("The name is empty."))
    most = Player._meta.get_field("display_name").max_length
    if len(name) > (most or 100):
        raise InvalidInput(_("A name has at most %(most)s characters.") % {"most": most})
    if name == player.display_name:
        raise Conflict(_("It is called %(name)s already.") % {"name": name})
    _require_name_free(name, player)
    before = {"player": player_snapshot(player), "name": name}
    note = f"{player.display_name} → {name}"
    player.display_name = name
    _save_name(player)
    identity_record(Action.RENAMED, by=by, player=player, before=before, note=note)
    return player


@transaction.atomic
def player_delete(*, player: Player, by: User) -> dict[str, Any]:
    """Delete a mistaken player (a junk name, a slip): by the runners of its home club or staff
    (``policy``'s ``player.delete``), only while the player is in no match, decided or not,
    plays in no pair and is linked to no account. Their entries, none of which has a match, go
    with them (the tournaments' pages are drawn again); so do their sign-ups. In the identity
    trail, with the player as they were and the tournaments they were entered in: a deletion is
    not undone (the name can be added again). Returns that snapshot."""
    player = _locked(player.pk)
    require(by, "player.delete", player)
    refusal = deletion_refusal(player)
    if refusal is not None:
        raise Conflict(refusal)
    entries = list(Entry.objects.filter(player=player).select_related("tournament"))
    for tournament_id in sorted({entry.tournament_id for entry in entries}):
        Tournament.lock_for_change(tournament_id)  # in one order; its pages are drawn again
    before = {
        "player": player_snapshot(player),
        "removed": {"entries": [[entry.pk, entry.tournament.slug] for entry in entries]},
    }
    identity_record(Action.DELETED, by=by, player=player, before=before,
                    note=f"✕ {player.display_name}")  # fmt: skip
    Entry.objects.filter(pk__in=[entry.pk for entry in entries]).delete()
    player.delete()  # its sign-ups and claims go with it; the trail's row keeps it (SET_NULL)
    return before["player"]


@transaction.atomic
def identity_undo(*, change: IdentityAudit, by: User) -> Player:
    """Undo a merge (staff: ``_merge_undo``) or a rename (who may rename the player now) from
    its row of the trail; the player the undoing gives back, or renames back."""
    change = (
        IdentityAudit.objects.select_for_update(of=("self",))
        .select_related("player")
        .get(pk=change.pk)
    )
    require(by, "identity.undo", change)
    if change.action not in (Action.MERGED, Action.RENAMED):
        raise InvalidInput(_("Only a merge or a rename can be undone."))
    if change.undone_by_id is not None:
        raise Conflict(_("This change is undone already."))
    if change.player_id is None:
        raise Conflict(_("The player of this change is gone: there is nothing to undo."))
    if change.action == Action.RENAMED:
        return _rename_undo(change, by)
    return _merge_undo(change, by)


def _rename_undo(rename: IdentityAudit, by: User) -> Player:
    player = _locked(rename.player_id)  # type: ignore[arg-type]
    was = rename.before["player"]["display_name"]
    if player.display_name != rename.before["name"]:
        raise Conflict(
            _("%(name)s was renamed again since: undo the later rename first.")
            % {"name": player.display_name}
        )
    _require_name_free(was, player)
    before = {"player": player_snapshot(player), "name": was}
    note = f"{player.display_name} → {was}"
    player.display_name = was
    _save_name(player)
    undo = identity_record(Action.RENAME_UNDONE, by=by, player=player, before=before, note=note)
    rename.undone_by = undo
    rename.save(update_fields=["undone_by"])
    return player


def _require_name_free(name: str, player: Player) -> None:
    if Player.objects.filter(display_name=name).exclude(pk=player.pk).exists():
        raise Conflict(
            _("A player or a pair is already called %(name)s: choose another name.")
            % {"name": name}
        )


def _save_name(player: Player) -> None:
    try:
        with transaction.atomic():
            player.save(update_fields=["display_name"])
    except IntegrityError:
        raise Conflict(_("This name was just taken: choose another.")) from None


def _merge_undo(merge: IdentityAudit, by: User) -> Player:
    """Make the merged duplicate again, as it was, with the entries, sign-ups and claims that
    moved (and with them its matches and rating history), the account link it brought, and
    replay the rating lists. The kept player gets back what the merge filled in, unless it was
    changed since."""
    keep = _locked(merge.player_id)  # type: ignore[arg-type]
    was_keep, was_drop, moved = (merge.before[key] for key in ("player", "other", "moved"))
    taken = Q(pk=was_drop["id"]) | Q(display_name=was_drop["display_name"])
    if Player.objects.filter(taken).exists():
        raise Conflict(
            _("A player named %(name)s exists again: rename or merge it first.")
            % {"name": was_drop["display_name"]}
        )
    before = {"player": player_snapshot(keep)}
    restored = Player(
        pk=was_drop["id"],
        display_name=was_drop["display_name"],
        club=was_drop["club"],
        country=was_drop["country"],
        home_club=Club.objects.filter(pk=was_drop["home_club"]).first(),
        # A merge made before profiles existed has none in its trail.
        gender=was_drop.get("gender", ""),
        birth_year=was_drop.get("birth_year"),
        region=was_drop.get("region", ""),
        sport_rank=was_drop.get("sport_rank", ""),
        sport_rank_since=(
            date.fromisoformat(was_drop["sport_rank_since"])
            if was_drop.get("sport_rank_since")
            else None
        ),
    )
    # The account goes back with the duplicate when it came from it and is still the kept one's.
    if was_drop["user"] and not was_keep["user"] and keep.user_id == was_drop["user"]:
        restored.user_id, keep.user_id = keep.user_id, None
    filled = (("club", "club"), ("country", "country"), ("home_club", "home_club_id"),
              ("gender", "gender"), ("birth_year", "birth_year"), ("region", "region"))  # fmt: skip
    for field, column in filled:
        kept, dropped = was_keep.get(field), was_drop.get(field)
        if kept != dropped and getattr(keep, column) == (kept or dropped):
            setattr(keep, column, kept)
    took_rank = not was_keep.get("sport_rank") and was_drop.get("sport_rank")
    if took_rank and keep.sport_rank == was_drop["sport_rank"]:  # the rank the merge took
        keep.sport_rank, keep.sport_rank_since = "", None
    restored.save(force_insert=True)
    if was_drop["created_at"]:
        created = datetime.fromisoformat(was_drop["created_at"])
        Player.objects.filter(pk=restored.pk).update(created_at=created)
    keep.save()
    entries = Entry.objects.filter(pk__in=moved["entries"], player=keep)
    entries.update(player=restored)
    SignUp.objects.filter(pk__in=moved["signups"], player=keep).update(player=restored)
    PlayerClaim.objects.filter(pk__in=moved["claims"], player=keep).update(player=restored)
    note = f"{keep.display_name} → {restored.display_name}"
    undo = identity_record(Action.UNMERGED, by=by, player=keep, other=restored, before=before,
                           note=note)  # fmt: skip
    merge.undone_by = undo
    merge.save(update_fields=["undone_by"])
    lists_replay(entry_lists(moved["entries"]), RatingAudit.Action.UNMERGE, by=by, note=note)
    return restored


# --- Inside ------------------------------------------------------------------------------------


def _locked(pk: int) -> Player:
    try:
        return (
            Player.objects.select_for_update(of=("self",))
            .select_related("home_club", "user")
            .get(pk=pk)
        )
    except Player.DoesNotExist:
        raise Conflict(_("This player was merged or removed just now.")) from None


def _pending(claim: PlayerClaim, by: User) -> PlayerClaim:
    claim = (
        PlayerClaim.objects.select_for_update().select_related("player", "user").get(pk=claim.pk)
    )
    require(by, "player.decide", claim.player)
    if claim.state != State.PENDING:
        raise Conflict(_("This claim is decided already."))
    return claim


def _decide(claim: PlayerClaim, state: str, by: User) -> None:
    claim.state = state
    claim.decided_by_id = by.pk
    claim.decided_at = timezone.now()
    claim.save(update_fields=["state", "decided_by", "decided_at"])


def _decline(claim: PlayerClaim, by: User, player: Player) -> None:
    _decide(claim, State.DECLINED, by)
    identity_record(Action.CLAIM_DECLINED, by=by, player=player,
                    before={"player": player_snapshot(player)}, claim=claim,
                    note=f"{claim.user.get_username()} ✕ {player.display_name}")  # fmt: skip
