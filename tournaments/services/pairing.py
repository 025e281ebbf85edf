"""The matches a tournament plays, made from the pure ``tournaments.formats``: every round of
a round robin, the next Swiss round, the whole bracket."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import Conflict
from tournaments.formats import elimination, swiss
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.selectors import entry_ratings, tournament_standings


def seeded(tournament: Tournament) -> list[Entry]:
    """The active entries in seed order; entries without a seed follow, by entry time, and all
    are numbered 1..n."""
    entries = list(
        tournament.entries.filter(withdrawn=False)
        .select_related("player")
        .order_by("seed", "created_at", "pk")
    )
    entries.sort(key=lambda entry: (entry.seed is None, entry.seed or 0))
    for number, entry in enumerate(entries, start=1):
        if entry.seed != number:
            entry.seed = number
            entry.save(update_fields=["seed"])
    return entries


def round_matches_create(round_: Round, pairs: Iterable[tuple[Entry, Entry | None]]) -> None:
    """Matches of a round; a bye is a decided match with no away side."""
    tournament = round_.tournament
    matches = []
    for home, away in pairs:
        if away is None:
            matches.append(
                Match(
                    tournament=tournament,
                    round=round_,
                    home=home,
                    status=Match.Status.FINAL,
                    winner=home,
                )
            )
        else:
            matches.append(Match(tournament=tournament, round=round_, home=home, away=away))
    Match.objects.bulk_create(matches)


def swiss_next_round(tournament: Tournament) -> Round:
    """Pair the next Swiss round of the active entries still in (``swiss_out_after_losses``).

    A Swiss that drops its losers goes on while two players remain (or to its set number of
    rounds): when every pairing of those still in would repeat a game, it allows rematches rather
    than stop. The sport rules are silent on this; the federation's cups play on to one player."""
    played = tournament.rounds.count()
    if tournament.swiss_rounds and played >= tournament.swiss_rounds:
        raise Conflict(_("All %(n)s rounds are paired.") % {"n": tournament.swiss_rounds})
    if tournament.matches.exclude(status__in=Match.DECIDED).exists():
        raise Conflict(_("Every match of the round must be decided before the next is paired."))
    entries = {entry.pk: entry for entry in tournament.entries.filter(withdrawn=False)}
    # Scores and who is out as the standings count them (forfeits and byes included): one rule.
    standings = {
        standing.entry.pk: standing for standing in tournament_standings(tournament=tournament)
    }
    opponents: dict[int, set[int]] = defaultdict(set)
    had_bye: set[int] = set()
    for match in tournament.matches.filter(round__isnull=False):
        if match.away_id is None:
            had_bye.add(match.home_id)
        elif match.forfeit:
            # FIDE's rules for an unplayed game: the two have not met, and a win by forfeit
            # counts as the bye its winner had.
            if match.winner_id is not None:
                had_bye.add(match.winner_id)
        else:
            opponents[match.home_id].add(match.away_id)
            opponents[match.away_id].add(match.home_id)
    still_in = {pk: entry for pk, entry in entries.items() if not standings[pk].out}
    if len(still_in) < 2:
        raise Conflict(
            _("Fewer than two players are still in: the Swiss is over, finish the tournament.")
        )
    ratings = entry_ratings(tournament=tournament)
    field = [
        swiss.SwissEntrant(
            id=entry_id,
            score=float(standings[entry_id].row.match_points),
            # Rated players rank by rating; the unrated by seed, below a rating of 1500.
            rating=round(ratings[entry_id]) if entry_id in ratings else -(entry.seed or 0),
            opponents=frozenset(opponents[entry_id]),
            had_bye=entry_id in had_bye,
        )
        for entry_id, entry in still_in.items()
    ]
    try:
        pairs = _swiss_pairs(field, rematches=tournament.swiss_out_after_losses is not None)
    except ValueError as error:
        raise Conflict(str(error)) from None
    round_ = Round.objects.create(tournament=tournament, number=played + 1)
    round_matches_create(
        round_, [(entries[a], entries[b] if b is not None else None) for a, b in pairs]
    )
    return round_


def _swiss_pairs(
    field: list[swiss.SwissEntrant[int]], *, rematches: bool
) -> list[tuple[int, int | None]]:
    """``swiss.pair``; with ``rematches``, when no pairing avoids a rematch, the pairing by score
    alone, as if nobody had met (a Swiss that drops its losers plays on to its last two)."""
    try:
        return swiss.pair(field)
    except swiss.NoPairingError:
        if not rematches:
            raise
    return swiss.pair([replace(entrant, opponents=frozenset()) for entrant in field])


def bracket_create(tournament: Tournament, entries: list[Entry]) -> None:
    matches = []
    for planned in tournament.bracket_plan(len(entries)):
        match = Match(
            tournament=tournament,
            bracket=planned.bracket,
            bracket_round=planned.round,
            slot=str(planned.id),
            home_source=_source(planned.home),
            away_source=_source(planned.away),
        )
        if planned.if_needed:  # played only when the away side of the match before won it
            match.home_source = {**(match.home_source or {}), "if_needed": True}
        if isinstance(planned.home, elimination.Seed):
            match.home = entries[planned.home.k - 1]
        if isinstance(planned.away, elimination.Seed):
            match.away = entries[planned.away.k - 1]
        matches.append(match)
    Match.objects.bulk_create(matches)


def _source(side: object) -> dict[str, Any]:
    if isinstance(side, elimination.Seed):
        return {"seed": side.k}
    if isinstance(side, elimination.WinnerOf):
        return {"winner_of": str(side.match_id)}
    if isinstance(side, elimination.LoserOf):
        return {"loser_of": str(side.match_id)}
    raise TypeError(side)
