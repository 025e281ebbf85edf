"""A tournament written as the document (see ``tournaments.backup``)."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from decimal import Decimal
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import models
from django.utils import timezone

from tournaments.backup.document import FORMAT, SETTINGS, VERSION
from tournaments.matches.records import match_mat_text
from tournaments.models import Entry, Lots, Match, Tournament


def tournament_export(tournament: Tournament) -> dict[str, Any]:
    """The tournament as a JSON-ready document (see the module's text)."""
    entries = list(
        Entry.objects.filter(tournament=tournament)
        .select_related("player__user")
        .order_by("seed", "player__display_name", "pk")
    )
    matches = list(
        Match.objects.filter(tournament=tournament)
        .select_related(
            "tournament",
            "round",
            "home__player",
            "away__player",
            "winner__player",
            "reported_by",
            "confirmed_by",
        )  # fmt: skip
        .prefetch_related("games")
        .order_by("pk")
    )
    players = sorted({entry.player for entry in entries}, key=lambda p: p.display_name)
    organizer = tournament.organizer
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": _time(timezone.now()),
        "tournament": {
            **{setting.name: _setting_json(tournament, setting) for setting in SETTINGS},
            "organizer": _username(organizer),
            "co_organizers": sorted(user.get_username() for user in tournament.co_organizers.all()),
        },
        "players": [
            {
                "name": player.display_name,
                "club": player.club,
                "country": player.country,
                "username": _username(player.user),
            }
            for player in players
        ],
        "entries": [
            {
                "player": entry.player.display_name,
                "seed": entry.seed,
                "withdrawn": entry.withdrawn,
                "late_entry": entry.late_entry,
                "created_at": _time(entry.created_at),
            }
            for entry in entries
        ],
        "rounds": [
            {"number": round_.number, "created_at": _time(round_.created_at)}
            for round_ in tournament.rounds.order_by("number")
        ],
        "matches": [_match_json(match) for match in matches],
        "lots": _lots_json(tournament),
    }


def _lots_json(tournament: Tournament) -> dict[str, Any] | None:
    """The lots drawn for the places its tie-breaks left shared (None: none were): their order
    by player name, as the entries are named in the document."""
    lots = Lots.objects.filter(tournament=tournament).select_related("drawn_by").first()
    if lots is None:
        return None
    names = dict(
        Entry.objects.filter(tournament=tournament).values_list("pk", "player__display_name")
    )
    return {
        "seed": lots.seed,
        "order": [names[entry_id] for entry_id in lots.order if entry_id in names],
        "drawn_by": _username(lots.drawn_by),
        "drawn_at": _time(lots.drawn_at),
    }


def tournament_mat_text(document: Mapping[str, Any]) -> str:
    """Every recorded match of an exported document as one .mat text, in the order played."""
    recorded = [match for match in document["matches"] if match.get("mat")]
    recorded.sort(key=lambda match: (match.get("decided_at") or "~", match.get("slot") or ""))
    return "\n".join(match["mat"] for match in recorded)


def _match_json(match: Match) -> dict[str, Any]:
    games = sorted(match.games.all(), key=lambda game: game.number)
    # A .mat file holds moves: games entered as outcomes only would read as unfinished ones.
    mat = match_mat_text(match) if games and all(game.actions for game in games) else None
    return {
        "round": match.round.number if match.round else None,
        "bracket": match.bracket,
        "bracket_round": match.bracket_round,
        "slot": match.slot,
        "home_source": match.home_source,
        "away_source": match.away_source,
        "home": _player_name(match.home),
        "away": _player_name(match.away),
        "status": match.status,
        "score_home": _decimal_json(match.score_home),
        "score_away": _decimal_json(match.score_away),
        "winner": _player_name(match.winner),
        "forfeit": match.forfeit,
        "lost_on_time": match.lost_on_time,
        "reported_by": _username(match.reported_by),
        "reported_at": _time(match.reported_at),
        "confirmed_by": _username(match.confirmed_by),
        "confirmed_at": _time(match.confirmed_at),
        "dispute_note": match.dispute_note,
        "decided_at": _time(match.decided_at),
        "games": [
            {
                "number": game.number,
                "white": game.white,
                "actions": game.actions,
                "winner": game.winner,
                "ending": game.ending,
                "value": game.value,
                "stake": game.stake,
                "points": game.points,
                "times": game.times,
            }
            for game in games
        ],
        "mat": mat,
    }


def _setting_json(tournament: Tournament, setting: models.Field[Any, Any]) -> Any:
    value = setting.value_from_object(tournament)
    if isinstance(value, Decimal):
        return _decimal_json(value)
    if isinstance(value, datetime):
        return _time(value)
    return value


def _decimal_json(value: Decimal | None) -> str | None:
    return None if value is None else str(value)


def _time(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat()


def _username(user: AbstractBaseUser | None) -> str | None:
    return None if user is None else user.get_username()


def _player_name(entry: Entry | None) -> str | None:
    return None if entry is None else entry.player.display_name
