"""Entering pairs (the pairs discipline of Short Nardy): a pair enters only a pairs
tournament and a player only another, a player plays in at most one pair of a tournament, and a
tournament of a category checks both players of a pair. The pairs themselves are
``tournaments.players.pairs``."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.models import Pair, Player, Tournament
from tournaments.players.pairs import entered_with
from tournaments.policy import User
from tournaments.signups.services import category_check


def require_pairs_entry(
    tournament: Tournament, player: Player, by: User, *, profile_given: bool = False
) -> None:
    """Refuse to enter ``player`` in ``tournament`` unless it is a pair in a pairs tournament,
    or a player in one that is not; refuse a pair with a player already in another pair of the
    tournament; a tournament of a category checks both players of a pair."""
    pair = Pair.objects.filter(player=player).first()
    if not tournament.pairs:
        if pair is not None:
            raise Conflict(
                _("%(player)s is a pair: pairs play in tournaments of the pairs discipline.")
                % {"player": player}
            )
        category_check(tournament=tournament, player=player, by=by, told=profile_given)
        return
    if pair is None:
        raise Conflict(_("This is a pairs tournament: enter two players as a pair."))
    other = entered_with(tournament, pair)
    if other is not None:
        raise Conflict(
            _("A player plays in one pair of a tournament: %(pair)s is entered already.")
            % {"pair": other.player}
        )
    for member in (pair.first, pair.second):
        category_check(tournament=tournament, player=member, by=by)
