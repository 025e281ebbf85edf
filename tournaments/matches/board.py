"""The board replay a match page embeds: every recorded play of the match replayed by the rules
engine (``games.viewer.match_frames``), as the JSON script element the board viewer reads.

A match's analysis marks each play that lost equity with its loss and the engine's best play
(gnubg's in Short Nardy, the project's own in Long Nardy; ``games.viewer.Verdict``): the
analysis hands its verdicts in (``tournaments.analysis``), this module knows nothing of it.

A replay costs tens of milliseconds, so it is made once per set of games (a correction writes
new Game rows, a confirmation none) and analysis, and kept in the cache: by the worker right
after a record is stored (``tasks.board_frames_prepare``) or analysed, or else by the first view.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.core.cache import cache
from django.utils.html import json_script
from django.utils.safestring import SafeString

from games.models import Game
from games.rules import action_from_json
from games.viewer import BoardReplay, Verdict, match_frames
from tournaments.models import Match

FRAMES_SECONDS = 7 * 24 * 3600

_MADE_AHEAD: ContextVar[bool] = ContextVar("board_replays_made_ahead", default=True)


def made_ahead() -> bool:
    """Whether a record stored or analysed now has its replay made ahead of its first view."""
    return _MADE_AHEAD.get()


@contextmanager
def replays_made_on_first_view() -> Iterator[None]:
    """Within it, no replay is made ahead: for work whose cache no page will read (the demo's
    seed runs in a command, or in a test with a cache of its own), where it would be lost."""
    token = _MADE_AHEAD.set(False)
    try:
        yield
    finally:
        _MADE_AHEAD.reset(token)


def board_frames(
    match: Match,
    games: Sequence[Game],
    verdicts: Mapping[tuple[int, int], Verdict] | None = None,
    analysed: str = "",
) -> SafeString | None:
    """The ``<script id="board-frames">`` element of the match's recorded games (None when it
    has none). ``verdicts``: the plays an analysis judged, by (game, checker play), which the
    viewer marks; ``analysed`` names that analysis (its frames are kept apart from the plain
    ones). ``match`` comes with its tournament and both sides' players."""
    recorded = [game for game in games if game.actions]
    home, away = match.home, match.away
    if not recorded or home is None or away is None:
        return None
    names = (home.player.display_name, away.player.display_name)

    def replayed() -> BoardReplay:
        tournament = match.tournament
        return match_frames(
            tournament.game_variant(),
            [(game.white, [action_from_json(a) for a in game.actions]) for game in recorded],
            names=names,
            length=tournament.match_length,
            crawford=tournament.crawford,
            verdicts=dict(verdicts or {}),
            times=[game.times for game in recorded],
        )

    games_key = ",".join(f"{game.pk}:{len(game.times)}" for game in recorded)
    version = hashlib.sha256(
        f"{names[0]}\n{names[1]}\n{games_key}\n{analysed}".encode()
    ).hexdigest()[:24]
    frames: SafeString = cache.get_or_set(
        f"match-frames:{match.pk}:{version}",
        lambda: json_script(replayed(), "board-frames"),
        timeout=FRAMES_SECONDS,
    )
    return frames


def board_frames_of(
    match_id: int,
    verdicts: Mapping[tuple[int, int], Verdict] | None = None,
    analysed: str = "",
) -> SafeString | None:
    """``board_frames`` of a match by its id (None also when there is no such match)."""
    match = match_for_board(match_id)
    if match is None:
        return None
    return board_frames(match, list(match.games.order_by("number")), verdicts, analysed)


@dataclass(frozen=True)
class AcceptedPlay:
    """A play of the record that the opponent accepted as made though the rules forbid it:
    what whoever confirms the result reads before agreeing."""

    game: int
    player: str
    dice: str
    play: str


def accepted_plays(match: Match) -> list[AcceptedPlay]:
    """The plays accepted as made in the match's stored games, in order (none: no replay).
    ``match`` comes with its tournament and both sides' players."""
    games = list(match.games.order_by("number"))
    if not any(action.get("accepted") for game in games for action in game.actions):
        return []
    home, away = match.home, match.away
    if home is None or away is None:
        return []
    names = (home.player.display_name, away.player.display_name)
    tournament = match.tournament
    replay = match_frames(
        tournament.game_variant(),
        [(game.white, [action_from_json(a) for a in game.actions]) for game in games],
        names=names,
        length=tournament.match_length,
        crawford=tournament.crawford,
    )
    found = []
    for frame in replay["frames"]:
        if not frame.get("accepted") or frame["side"] is None:
            continue
        white = frame["white_player"]
        player = white if frame["side"] == "white" else 3 - white
        dice = "".join(str(die) for die in frame["dice"] or [])
        found.append(AcceptedPlay(frame["game"], names[player - 1], dice, frame["play"] or ""))
    return found


def match_for_board(match_id: int) -> Match | None:
    """The match with what its board shows loaded (its tournament, both sides' players)."""
    return (
        Match.objects.select_related("tournament", "home__player", "away__player")
        .filter(pk=match_id)
        .first()
    )
