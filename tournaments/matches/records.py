"""A match's recorded games as a Jellyfish/gnubg .mat text: for the downloads, the backup and
the analysis."""

from __future__ import annotations

from games.rules import MatchGame, action_from_json
from games.rules.matfile import match_record, write_match
from tournaments.models import Match


def match_mat_text(match: Match, *, names: tuple[str, str] | None = None) -> str | None:
    """The match's recorded games as a .mat text, or None when it has none (games entered
    without their moves cannot be written as plays). ``names`` replace the players' names and
    leave out the Event and Round headers: the text then holds the games and rules alone (what
    the analysis is keyed by)."""
    games = sorted(match.games.all(), key=lambda game: game.number)
    if not games or not all(game.actions for game in games):
        return None
    if match.home_id is None or match.away_id is None:
        return None
    tournament = match.tournament
    played = [
        MatchGame(game.white, tuple(action_from_json(action) for action in game.actions))
        for game in games
    ]
    headers = [
        ("Event", tournament.name),
        ("Round", str(match.round.number) if match.round else match.slot),
    ]
    players = names or (match.home.player.display_name, match.away.player.display_name)
    record = match_record(
        tournament.game_variant(),
        players,
        played,
        length=tournament.match_length,
        crawford=tournament.crawford,
        headers=[] if names else headers,
    )
    return write_match(record)
