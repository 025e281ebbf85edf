"""A tournament's bracket matches as the pure ``bracket_layout`` takes them: one query, then
labels in the reader's language. Render the result with ``tournaments/_bracket.html``."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tournaments.brackets.layout import (
    BracketDrawing,
    BracketSlot,
    SideName,
    Source,
    layout_brackets,
)
from tournaments.models import Entry, Match, Tournament, slot_name

__all__ = ["SECTION_TITLES", "bracket_drawings"]

#: Section headings, marked for makemessages; the template translates them when it renders.
SECTION_TITLES: Mapping[str, str] = {
    "main": gettext_noop("Main bracket"),
    "winners": gettext_noop("Winners bracket"),
    "losers": gettext_noop("Losers bracket"),
    "final": gettext_noop("Grand final"),
    "consolation": gettext_noop("Consolation bracket"),
    "last-chance": gettext_noop("Last chance bracket"),
}


def bracket_drawings(
    *, tournament: Tournament, match_url: Callable[[Match], str]
) -> list[BracketDrawing]:
    """Every bracket section of ``tournament``, laid out; ``match_url`` gives a match's page
    (an empty string: no link). Round robin and Swiss tournaments have none: an empty list."""
    matches = list(
        Match.objects.filter(tournament=tournament)
        .exclude(slot="")
        .select_related("home__player", "away__player")
        .order_by("pk")
    )
    by_slot = {match.slot: match for match in matches}
    slots = [_slot(match, by_slot, match_url(match) or None) for match in matches]
    return layout_brackets(slots, titles=SECTION_TITLES)


def _slot(match: Match, by_slot: Mapping[str, Match], href: str | None) -> BracketSlot:
    home_source = _source(match.home_source)
    away_source = _source(match.away_source)
    if_needed = bool((match.home_source or {}).get("if_needed"))
    decided = match.status in Match.DECIDED
    winner: SideName | None = None
    if decided and match.winner_id is not None:
        winner = "home" if match.winner_id == match.home_id else "away"
    home_label, home_placeholder = _label(match.home, home_source)
    away_label, away_placeholder = _label(match.away, away_source)
    status = match.get_status_display()
    marks = match.forfeit_marks if decided else None
    if if_needed and _reset_not_needed(home_source, by_slot):
        home_label, away_label = _("Not needed"), ""
        home_placeholder = away_placeholder = True
        status = _("Not needed")
    return BracketSlot(
        slot=match.slot,
        bracket=match.bracket,
        round=match.bracket_round or 1,
        home_label=home_label,
        away_label=away_label,
        home_source=home_source,
        away_source=away_source,
        home_placeholder=home_placeholder,
        away_placeholder=away_placeholder,
        home_seed=match.home.seed if match.home else None,
        away_seed=match.away.seed if match.away else None,
        home_score=match.score_home,
        away_score=match.score_away,
        home_mark=marks[0] if marks else "",
        away_mark=marks[1] if marks else "",
        winner=winner,
        status=status,
        href=href,
        if_needed=if_needed,
        name=slot_name(match.slot),
    )


def _source(stored: dict[str, Any] | None) -> Source | None:
    """``Match.home_source``/``away_source`` as written by
    ``tournaments.services.pairing.bracket_create``."""
    if not stored:
        return None
    if "seed" in stored:
        return Source.seeded(int(stored["seed"]))
    if "winner_of" in stored:
        return Source.winner_of(str(stored["winner_of"]))
    if "loser_of" in stored:
        return Source.loser_of(str(stored["loser_of"]))
    return None


def _label(entry: Entry | None, source: Source | None) -> tuple[str, bool]:
    """The player's name, or a placeholder saying where the side will come from."""
    if entry is not None:
        return entry.player.display_name, False
    if source is not None and source.slot == "GF":  # the reset's sides: said in words
        if source.kind == "winner":
            return _("Grand final winner"), True
        return _("Grand final loser"), True
    if source is not None and source.kind == "winner":
        return _("Winner of %(slot)s") % {"slot": slot_name(source.slot or "")}, True
    if source is not None and source.kind == "loser":
        return _("Loser of %(slot)s") % {"slot": slot_name(source.slot or "")}, True
    if source is not None and source.kind == "seed":  # a seed with no entry: nobody to play
        return _("Bye"), True
    return _("TBD"), True


def _reset_not_needed(source: Source | None, by_slot: Mapping[str, Match]) -> bool:
    """A bracket reset is not played when the winners-bracket champion (home) won the final."""
    final = by_slot.get(source.slot or "") if source is not None else None
    return (
        final is not None
        and final.status in Match.DECIDED
        and final.winner_id is not None
        and final.winner_id == final.home_id
    )
