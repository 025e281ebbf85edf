"""A match read with its tournament and its two players in one statement compiled once
(``nardy_site.joined``): the join that the match pages and the recording at the table build
their own reads on. The match's alias is ``m``."""

from __future__ import annotations

from games.models import Game
from nardy_site.joined import Join, Table
from tournaments.models import Entry, Match, Player, Tournament

#: ``select_related("tournament", "home__player", "away__player")`` of the match ``m``.
WITH_PLAYERS = """JOIN tournaments_tournament t ON t.id = m.tournament_id
    LEFT JOIN tournaments_entry he ON he.id = m.home_id
    LEFT JOIN tournaments_player hp ON hp.id = he.player_id
    LEFT JOIN tournaments_entry ae ON ae.id = m.away_id
    LEFT JOIN tournaments_player ap ON ap.id = ae.player_id"""


def match_with_players(into: tuple[str, str] | None = None) -> tuple[Table, ...]:
    """The tables of ``WITH_PLAYERS``, the match first (``into``: where the match goes)."""
    return (
        Table(Match, "m", into=into),
        Table(Tournament, "t", into=("m", "tournament")),
        Table(Entry, "he", into=("m", "home")),
        Table(Player, "hp", into=("he", "player")),
        Table(Entry, "ae", into=("m", "away")),
        Table(Player, "ap", into=("ae", "player")),
    )


#: ``Match.objects.select_related("tournament", "home__player", "away__player")`` by the match's id.
MATCH_WITH_PLAYERS = Join(
    f"SELECT {{columns}} FROM tournaments_match m {WITH_PLAYERS} WHERE m.id = %s",
    match_with_players(),
)


def games_of(match_id: int) -> list[Game]:
    """The match's games in their order (a statement compiled once: every match page reads
    them when it is drawn)."""
    return _GAMES.all([match_id])  # type: ignore[return-value]


_GAMES = Join(
    f"SELECT {{columns}} FROM {Game._meta.db_table} g WHERE g.match_id = %s ORDER BY g.number",
    (Table(Game, "g"),),
)
