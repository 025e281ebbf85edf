"""Pairs (the pairs discipline of Short Nardy): two players who play as one side.

A pair is made once for its two players, whichever way round they are named (``Pair``), with a
player record of its own that carries its name, its entries and its rating on the pairs' list:
the formats, the standings and the ratings take it as a player. Its record is owned as a
player's is (its home club: ``players.ownership``), and only its owner or staff rename it.
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _

from tournaments.clubs.models import Club
from tournaments.errors import Conflict, InvalidInput
from tournaments.models import Entry, Pair, Player, Tournament

#: The longest pair name (the player record's ``display_name``).
NAME_MAX = Player._meta.get_field("display_name").max_length


def pair_name(first: Player, second: Player) -> str:
    """The name a pair is given when none is: its players' names."""
    return f"{first.display_name} & {second.display_name}"


@transaction.atomic
def pair_of(first: Player, second: Player, name: str = "", *, home: Club | None = None) -> Pair:
    """The pair of these two players: the one made already, under its own name, or a new one
    named ``name`` (else after them) whose home club (its owner) is ``home``. Entering a pair
    never renames it: a ``name`` other than an existing pair's is refused (its owner renames
    it, ``players.services.player_rename``)."""
    if first.pk == second.pk:
        raise InvalidInput(_("A pair is two different players."))
    for player in (first, second):
        if hasattr(player, "pair"):
            raise InvalidInput(
                _("%(player)s is a pair already: a pair is made of two players.")
                % {"player": player}
            )
    pair = existing_pair(first, second, name)
    if pair is not None:
        return pair
    name = " ".join(name.split())
    if len(name) > (NAME_MAX or 100):
        raise InvalidInput(_("A pair's name has at most %(most)s characters.") % {"most": NAME_MAX})
    wanted = name or pair_name(first, second)
    if Player.objects.filter(display_name=wanted).exists():
        raise InvalidInput(
            _("A player or a pair is already called %(name)s: choose another name.")
            % {"name": wanted}
        )
    low, high = sorted((first, second), key=lambda player: player.pk)
    record = Player.objects.create(display_name=wanted, home_club=home)
    return Pair.objects.create(player=record, first=low, second=high)


def existing_pair(first: Player, second: Player, name: str = "") -> Pair | None:
    """The pair these two players make already (None: none yet); refused (409) when ``name``
    is not its name: an entry or a sign-up takes a pair as it is called."""
    low, high = sorted((first, second), key=lambda player: player.pk)
    pair = Pair.objects.select_related("player").filter(first=low, second=high).first()
    name = " ".join(name.split())
    if pair is not None and name and name != pair.player.display_name:
        raise Conflict(
            _(
                "%(first)s and %(second)s are a pair already, called %(name)s: enter them under "
                "that name. Only the pair's club or staff may rename a pair."
            )
            % {"first": first, "second": second, "name": pair.player.display_name}
        )
    return pair


def members_of(player: Player) -> list[Player]:
    """The players a record stands for: a pair's two, else the player."""
    pair = Pair.objects.select_related("first", "second").filter(player=player).first()
    return [player] if pair is None else [pair.first, pair.second]


def in_pair_with(*players: Player | int) -> Q:
    """For entries or sign-ups: their player is a pair with one of ``players`` in it."""
    return Q(player__pair__first__in=players) | Q(player__pair__second__in=players)


def entered_with(tournament: Tournament, pair: Pair) -> Entry | None:
    """Another entry of ``tournament`` that is a pair with one of ``pair``'s players: a player
    plays in one pair of a tournament."""
    return (
        Entry.objects.filter(tournament=tournament)
        .filter(in_pair_with(*pair.members))
        .exclude(player=pair.player)
        .select_related("player")
        .first()
    )
