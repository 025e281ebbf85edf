"""Reads of who players are: players found by name, what a user may do on a player's page, the
claims waiting for a user's decision, the players a merge may take, and what a merge would
move."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.db.models import BooleanField, Case, F, Func, IntegerField, Q, QuerySet, Value, When
from django.utils.translation import gettext as _

from nardy_site.joined import Join, Table
from tournaments.clubs.models import Club
from tournaments.clubs.selectors import clubs_run_by
from tournaments.models import Pair, Player, Tournament
from tournaments.names import search_words
from tournaments.players.models import PlayerClaim
from tournaments.policy import User, has_a_match, is_staff, may
from tournaments.ratings.models import RatingList

#: The order of ``players_found``: how well the name matches (``found_rank``), then the name.
SEARCH_ORDER = ("found_rank", "display_name")


class _WordSimilar(Func):
    """PostgreSQL's ``query <% key`` (pg_trgm): the query is like a word of the key, a typo or a
    spelling apart ("aleksei" and "alexey"); answered by the key's trigram index."""

    arg_joiner = " <%% "  # (a % in SQL is doubled)
    template = "%(expressions)s"
    output_field = BooleanField()


def players_found(*, query: str, among: QuerySet[Player] | None = None) -> QuerySet[Player]:
    """The players (of ``among``; None: all) whose name has every word of ``query`` in it,
    written in Cyrillic or Latin letters (``Player.search_key``); on PostgreSQL, when no name
    has them, the names a typo apart. Names that begin with the query come first, then by name.
    Nothing for a query with no word."""
    words = search_words(query)
    players = Player.objects.all() if among is None else among
    if not words:  # (still in the search's order, which the API may ask for)
        return players.none().annotate(found_rank=Value(1, IntegerField()))
    every_word = Q()
    for word in words:
        every_word &= Q(search_key__contains=word)
    found = every_word
    if connection.vendor == "postgresql" and not players.filter(every_word).exists():
        # No name has the words: those a typo or a spelling apart (never beside exact ones,
        # which a list of similar names would bury).
        found = Q(_WordSimilar(Value(" ".join(words)), F("search_key")))
    rank = Case(
        When(search_key__startswith=words[0], then=0), default=1, output_field=IntegerField()
    )
    return players.filter(found).annotate(found_rank=rank).order_by(*SEARCH_ORDER)


@dataclass(frozen=True)
class PlayerActions:
    """What the signed-in user may do about a player: claim it (or has claimed it), merge."""

    can_claim: bool
    claimed: bool
    may_merge: bool
    #: The account link can be removed by this user (its runners, staff, the account itself).
    may_unlink: bool
    #: This user may read the player's identity trail.
    may_read_trail: bool
    #: This user may read and edit the player's profile (gender, birth year).
    may_edit_profile: bool = False
    #: This user may rename the record (a pair: its home club's runners; a player not in a
    #: match yet: they too; staff).
    may_rename: bool = False
    #: This user may delete the player, a mistake: its home club's runners or staff, while the
    #: player is in no match, no pair and linked to no account (``services.player_delete``).
    may_delete: bool = False


def player_with_club(pk: int) -> Player | None:
    """The player with their home club (None: no such player): what a player page reads first,
    in one statement compiled once."""
    return _PLAYER_WITH_CLUB.one([pk])  # type: ignore[return-value]


_PLAYER_WITH_CLUB = Join(
    f"""SELECT {{columns}} FROM {Player._meta.db_table} p
    LEFT JOIN {Club._meta.db_table} c ON c.id = p.home_club_id
    WHERE p.id = %s""",
    (Table(Player, "p"), Table(Club, "c", into=("p", "home_club"))),
)


def player_actions(*, player: Player, user: User) -> PlayerActions | None:
    if not user.is_authenticated:
        return None
    has_player = Player.objects.filter(user_id=user.pk).exists()
    claimed = player.claims.filter(user_id=user.pk, state=PlayerClaim.State.PENDING).exists()
    decides = may(user, "player.decide", player)
    return PlayerActions(
        can_claim=player.user_id is None and not has_player and not claimed,
        claimed=claimed,
        may_merge=decides,
        may_unlink=player.user_id is not None and may(user, "player.unlink", player),
        may_read_trail=decides,
        may_edit_profile=may(user, "profile.edit", player),
        may_rename=may(user, "player.rename", player),
        may_delete=may(user, "player.delete", player) and deletion_refusal(player) is None,
    )


def deletion_refusal(player: Player) -> str | None:
    """Why the player is not deleted as a mistake (None: they may be): they are in a match,
    decided or not; they play in a pair; or a site account is linked to them."""
    if has_a_match(player):
        return _(
            "%(name)s is in a match already: a player who has played is not deleted (merge a "
            "duplicate into the right player instead)."
        ) % {"name": player.display_name}
    pair = Pair.objects.filter(Q(first=player) | Q(second=player)).select_related("player").first()
    if pair is not None:
        return _("%(name)s plays in the pair %(pair)s: delete the pair first.") % {
            "name": player.display_name,
            "pair": pair.player.display_name,
        }
    if player.user_id is not None:
        return _("%(name)s is linked to a site account: remove the link first.") % {
            "name": player.display_name
        }
    return None


def player_entries(*, player: Player) -> QuerySet[Tournament]:
    """The tournaments the player is entered in, newest first: what a deletion takes them out
    of."""
    return Tournament.objects.filter(entries__player=player).order_by("-created_at", "-pk")


def claims_to_decide(*, user: User) -> QuerySet[PlayerClaim]:
    """Pending claims of the players whose home club the user runs (staff: all of them)."""
    pending = PlayerClaim.objects.filter(state=PlayerClaim.State.PENDING).select_related(
        "player", "user"
    )
    if is_staff(user):
        return pending
    return pending.filter(player__home_club__in=clubs_run_by(user))


def merge_candidates(*, keep: Player, user: User) -> QuerySet[Player]:
    """The players the user may merge into ``keep``: of its home club (staff: any)."""
    others = Player.objects.exclude(pk=keep.pk).order_by("display_name")
    if is_staff(user):
        return others
    if keep.home_club_id is None or not may(user, "player.decide", keep):
        return others.none()
    return others.filter(home_club_id=keep.home_club_id)


@dataclass(frozen=True)
class MergePreview:
    """What folding ``drop`` into ``keep`` moves: its tournaments, its account, the rating
    lists that will be replayed."""

    tournaments: list[Tournament]
    shared: list[Tournament]
    account: str | None
    rating_lists: list[RatingList]


def merge_preview(*, keep: Player, drop: Player) -> MergePreview:
    tournaments = list(Tournament.objects.filter(entries__player=drop).order_by("-created_at"))
    shared = [t for t in tournaments if t.entries.filter(player=keep).exists()]
    lists = RatingList.objects.filter(Q(changes__player=drop) | Q(ratings__player=drop))
    return MergePreview(
        tournaments,
        shared,
        drop.user.get_username() if drop.user else None,
        list(lists.distinct()),
    )
