"""The drawing of lots: the last resort for the places a finished tournament's tie-breaks leave
shared, unless its organizer chose shared places (``Tournament.shared_places``).

The finish draws them (``lots_drawn_if_needed``, as the one who finishes): that is when the
standings become final (a finished tournament's results no longer change), so a finished
tournament never shows a shared place by accident and nobody has a step to forget. An organizer
draws them for a tournament finished before the finish drew lots (``tournament_lots_draw``).
Either way the draw is recorded once (``Lots``): its seed (so that anyone may draw it again and
get the same order, ``standings.lot_order``), who drew it and when.

The cut of a two-stage event is decided the same way: building stage 2 draws lots for a stage-1
tournament whose players are level where the order decides who goes on or their seed in the
bracket (``cut_lots_drawn_if_needed``), whatever the event says of shared places."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.models import Lots, Tournament
from tournaments.policy import require
from tournaments.selectors import tournament_standings
from tournaments.services.checks import Status, User, locked_tournament
from tournaments.standings import level_among_first, lot_order, shared_places

#: The seed's bits: a positive number that a BigIntegerField holds on every database.
SEED_BITS = 62


@transaction.atomic
def tournament_lots_draw(*, tournament: Tournament, by: User) -> Lots:
    """An organizer draws lots for the places a finished tournament's tie-breaks left shared.
    Refused (409, nothing changed) before the finish, when the organizer chose shared places,
    when lots were drawn already, and when no place is shared: a pointless draw."""
    tournament = locked_tournament(tournament)
    require(by, "tournament.lots", tournament)
    if tournament.status != Status.FINISHED:
        raise Conflict(
            _("Lots are drawn when the tournament finishes: until then its places may change.")
        )
    if tournament.format not in Tournament.ROUND_FORMATS or tournament.parent_id is not None:
        raise Conflict(_("Only a round robin or a Swiss has standings to draw lots for."))
    if tournament.shared_places:
        raise Conflict(
            _("By the tournament's rules, players level after the tie-breaks share their place: "
              "there are no lots to draw.")
        )  # fmt: skip
    if Lots.objects.filter(tournament=tournament).exists():
        raise Conflict(_("The lots are drawn already."))
    lots = lots_drawn_if_needed(tournament, by)
    if lots is None:
        raise Conflict(_("No place is shared: there are no lots to draw."))
    return lots


def lots_drawn_if_needed(tournament: Tournament, by: User) -> Lots | None:
    """The lots drawn for the places the finished ``tournament``'s tie-breaks leave shared (in
    the caller's transaction, on its locked row), or None when none is shared, its organizer
    chose shared places, or it has no standings of its own (a bracket; a stage of a two-stage
    event, whose standings the event's bracket follows)."""
    if not tournament.decides_places_by_lots:
        return None
    drawn = Lots.objects.filter(tournament=tournament).first()
    if drawn is not None:
        return drawn
    rows = [standing.row for standing in tournament_standings(tournament=tournament)]
    if not shared_places(rows):
        return None
    return _drawn(tournament, by)


def cut_lots_drawn_if_needed(stage: Tournament, advance: int, by: User) -> Lots | None:
    """The lots that decide a stage-1 ``stage``'s standings where the order decides who goes on
    (its top ``advance``) and their seeds, drawn as the one who builds stage 2 (in the caller's
    transaction) when players level after the tie-breaks share a place there; None when none
    do. A cut must be decided, so they are drawn whatever the event says of shared places.
    Drawn once: a reset of stage 2 keeps them and the rebuild reuses them (the draw orders every
    entry of the stage, so it still decides after a correction), so nobody draws again until
    they like the result."""
    drawn = Lots.objects.filter(tournament=stage).first()
    if drawn is not None:
        return drawn
    rows = [standing.row for standing in tournament_standings(tournament=stage)]
    if not level_among_first(rows, advance):
        return None
    return _drawn(locked_tournament(stage), by)


def _drawn(tournament: Tournament, by: User) -> Lots:
    """The lots drawn now for every entry of ``tournament`` (locked by the caller), recorded."""
    seed = secrets.randbits(SEED_BITS)
    return Lots.objects.create(
        tournament=tournament,
        seed=seed,
        order=lot_order(seed, sorted(tournament.entries.values_list("pk", flat=True))),
        drawn_by=by if by.is_authenticated else None,
        drawn_at=timezone.now(),
    )
