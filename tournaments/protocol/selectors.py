"""The protocol of a tournament, read in a fixed number of queries and built as one document
(``tournaments.protocol.document``) in the active language."""

from __future__ import annotations

from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy

from tournaments import disciplines, selectors
from tournaments.models import Entry, Match, Tournament, forfeit_marks
from tournaments.norms import selectors as norms
from tournaments.officials.models import Judge
from tournaments.officials.selectors import judge_names
from tournaments.protocol.document import (
    UNKNOWN,
    Fact,
    Line,
    Protocol,
    Result,
    RoundResults,
    Signature,
    deciding_columns,
    tiebreak_cells,
)
from tournaments.standings import deciding_tiebreaks
from tournaments.words import BRACKET_NAMES, TIEBREAK_NAMES, clock_text, points_text, region_name

#: The ranks as a protocol's narrow column writes them (the adult ranks in Roman numerals, as
#: Russian protocols do).
RANK_SHORT = {
    "3y": pgettext_lazy("rank", "III youth"),
    "2y": pgettext_lazy("rank", "II youth"),
    "1y": pgettext_lazy("rank", "I youth"),
    "3": "III",
    "2": "II",
    "1": "I",
    "kms": gettext_lazy("KMS"),
    "ms": gettext_lazy("MS"),
    "msmk": gettext_lazy("MSMK"),
}


def rank_short(rank: str) -> str:
    """A rank as the protocol's column writes it ("KMS", "I"; "" for none)."""
    return str(RANK_SHORT.get(rank, rank))


def protocol_visible(tournament: Tournament, *, runs: bool) -> bool:
    """Whether the protocol is shown: to everyone once the event has started (entering an
    official event publishes the birth year, the region and the rank), to those who run it
    before."""
    started = tournament.status in (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    return started or runs


def tournament_protocol(*, tournament: Tournament) -> Protocol:
    """The protocol of ``tournament`` in the active language.

    Queries, whatever the size: the standings' (3, a fourth for the lots of a finished event) or
    the bracket's places (2), the matches with their sides' players (1), the panel with its
    users (1), the event status and the norms of its status (2, only for a finished official
    event with a status).
    """
    rounds_format = tournament.format in Tournament.ROUND_FORMATS
    personal = tournament.official
    columns: tuple[str, ...] = ()
    lines: list[Line] = []
    if rounds_format:
        standings = selectors.tournament_standings(tournament=tournament)
        deciders = deciding_tiebreaks([standing.row for standing in standings])
        columns = deciding_columns(tuple(tournament.tiebreaks), deciders)
        places = [(standing.row.rank, standing.entry) for standing in standings]
        cells = [
            tiebreak_cells(
                columns,
                {name: _number(value) for name, value in standing.row.tiebreaks.items()},
                names,
            )
            for standing, names in zip(standings, deciders, strict=True)
        ]
        points = [_number(standing.row.match_points) for standing in standings]
    else:
        places = selectors.bracket_places(tournament=tournament)
        cells = [() for _place in places]
        points = ["" for _place in places]
        if not places:  # not played out: the seeded entries, without places
            entries = tournament.entries.filter(seed__isnull=False).select_related("player")
            places = [(0, entry) for entry in entries.order_by("seed")]
            cells = [() for _place in places]
            points = ["" for _place in places]
    met = _norms(tournament, places)
    for (place, entry), tiebreaks, score in zip(places, cells, points, strict=True):
        player = entry.player
        norm = met.get(entry.pk)
        lines.append(
            Line(
                place=place or None,
                name=player.display_name,
                birth_year=str(player.birth_year or "") if personal else "",
                region=region_name(player.region) if personal else "",
                rank=rank_short(player.sport_rank) if personal else "",
                club=player.club,
                points=score,
                tiebreaks=tiebreaks,
                norm=rank_short(norm.norm.rank) if norm is not None else "",
                note=_entry_note(entry),
            )
        )
    matches = _matches(tournament)
    entries = [entry for _place, entry in places]
    return Protocol(
        title=tournament.name,
        heading=(
            _("Final protocol")
            if tournament.status == Tournament.Status.FINISHED
            else _("Provisional protocol")
        ),
        official=tournament.official,
        finished=tournament.status == Tournament.Status.FINISHED,
        personal=personal,
        facts=tuple(_facts(tournament, entries, matches, personal)),
        tiebreak_names=tuple(str(TIEBREAK_NAMES.get(name, name)) for name in columns),
        lines=tuple(lines),
        rounds=tuple(_rounds(tournament, matches)),
        signatures=tuple(_signatures(tournament)),
        norms_example=bool(met) and any(norm.norm.example for norm in met.values()),
        sport=_("Sport: nardy (code %(code)s)") % {"code": disciplines.SPORT_CODE},
        footer=_("Made on %(date)s") % {"date": date_format(timezone.localtime(), "DATE_FORMAT")},
    )


def _number(value: Fraction) -> str:
    amount = (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
        Decimal("0.01"), rounding=ROUND_HALF_UP
    )
    return points_text(amount)


def _entry_note(entry: Entry) -> str:
    if entry.removed_at is not None:
        return _("removed by the chief judge")
    if entry.withdrawn:
        return _("withdrew")
    return ""


def _norms(tournament: Tournament, places: list[tuple[int, Entry]]) -> dict[int, norms.NormMet]:
    if not norms.counts_for_norms(tournament) or not any(place for place, _entry in places):
        return {}
    table = norms.norm_table(status_id=tournament.event_status_id)
    found = norms.norms_of_places(tournament, [p for p in places if p[0]], table)
    return {met.entry.pk: met for met in found}


def _matches(tournament: Tournament) -> list[Match]:
    return list(
        Match.objects.filter(tournament=tournament)
        .select_related("round", "home__player", "away__player")
        .order_by("round__number", "bracket", "bracket_round", "pk")
    )


def _dates(tournament: Tournament, matches: list[Match]) -> str:
    start = tournament.starts_at
    decided = [match.decided_at for match in matches if match.decided_at is not None]
    end: datetime | None = max(decided) if decided else None
    if start is None and end is None:
        return UNKNOWN
    first = date_format(timezone.localtime(start or end), "DATE_FORMAT")  # type: ignore[arg-type]
    if end is None:
        return first
    last = date_format(timezone.localtime(end), "DATE_FORMAT")
    return first if last == first else f"{first} – {last}"


def _age_group(tournament: Tournament) -> str:
    low, high = tournament.min_age, tournament.max_age
    if low is not None and high is not None:
        return _("%(low)s–%(high)s years") % {"low": low, "high": high}
    if low is not None:
        return _("from %(age)s years") % {"age": low}
    if high is not None:
        return _("up to %(age)s years") % {"age": high}
    return _("any age")


def _system(tournament: Tournament) -> str:
    system = str(tournament.get_format_display())
    if tournament.format == Tournament.Format.SWISS and tournament.swiss_out_after_losses:
        n = tournament.swiss_out_after_losses
        system += ", " + ngettext(
            "out after %(n)s lost match", "out after %(n)s lost matches", n
        ) % {"n": n}
    return system


def _match_length(tournament: Tournament) -> str:
    if tournament.match_length:
        n = tournament.match_length
        return ngettext("to %(n)s point", "to %(n)s points", n) % {"n": n}
    n = tournament.match_games or 0
    return ngettext("%(n)s game", "%(n)s games", n) % {"n": n}


def _facts(
    tournament: Tournament, entries: list[Entry], matches: list[Match], personal: bool
) -> list[Fact]:
    control = tournament.clock()
    category = tournament.get_category_display()
    facts = [
        Fact(_("Dates"), _dates(tournament, matches)),
        Fact(_("Venue"), tournament.venue or UNKNOWN),
        Fact(_("Discipline"), str(tournament.get_discipline_display())),
        Fact(_("Discipline code"), disciplines.CODES.get(tournament.discipline, UNKNOWN)),
        Fact(_("Category"), str(category)),
        Fact(_("Age group"), _age_group(tournament)),
        Fact(_("System"), _system(tournament)),
        Fact(_("Clock"), clock_text(control) if control is not None else _("none")),
        Fact(_("Match length"), _match_length(tournament)),
        Fact(_("Participants"), str(len(entries))),
    ]
    if personal:
        regions = {entry.player.region for entry in entries if entry.player.region}
        facts.append(Fact(_("Regions"), str(len(regions))))
    if tournament.event_status_id is not None:
        facts.insert(0, Fact(_("Event status"), str(tournament.event_status)))
    return facts


def _side(entry: Entry | None) -> str:
    return entry.player.display_name if entry is not None else ""


def _score(match: Match) -> tuple[str, str]:
    if match.away_id is None:
        return _("bye"), "home"
    if match.status not in Match.DECIDED:
        return "", ""
    winner = (
        "home"
        if match.winner_id == match.home_id
        else "away"
        if match.winner_id is not None
        else ""
    )
    marks = forfeit_marks(match.forfeit)
    if marks is not None:
        return f"{marks[0]}:{marks[1]}", winner
    home, away = (
        points_text(score or Decimal(0)) for score in (match.score_home, match.score_away)
    )
    return f"{home}:{away}", winner


def _rounds(tournament: Tournament, matches: list[Match]) -> list[RoundResults]:
    groups: dict[tuple[Any, ...], list[Result]] = {}
    titles: dict[tuple[Any, ...], str] = {}
    brackets = list(BRACKET_NAMES)
    for match in matches:
        decided = match.status in Match.DECIDED
        if match.home_id is None or (match.away_id is None and not decided):
            continue  # a bracket's side not known yet
        if match.round is not None:
            key: tuple[Any, ...] = (0, match.round.number, 0)
            titles[key] = _("Round %(n)s") % {"n": match.round.number}
        else:
            order = brackets.index(match.bracket) if match.bracket in brackets else len(brackets)
            key = (1, order, match.bracket_round or 0)
            titles[key] = _("%(bracket)s, round %(n)s") % {
                "bracket": BRACKET_NAMES.get(match.bracket, match.bracket),
                "n": match.bracket_round,
            }
        score, winner = _score(match)
        groups.setdefault(key, []).append(
            Result(_side(match.home), _side(match.away) if match.away_id else "", score, winner)
        )
    return [RoundResults(titles[key], tuple(groups[key])) for key in sorted(groups)]


def _signatures(tournament: Tournament) -> list[Signature]:
    panel = list(
        Judge.objects.filter(tournament=tournament).select_related("user").order_by("added_at")
    )
    names = judge_names(judge.user for judge in panel)
    by_role: dict[str, list[str]] = {}
    for judge in panel:
        by_role.setdefault(judge.role, []).append(names[judge.user_id])
    labels = dict(Judge.Role.choices)
    lines = []
    for role in (Judge.Role.CHIEF, Judge.Role.SECRETARY):  # always signed, blank if not set
        for name in by_role.get(role, [""]):
            lines.append(Signature(str(labels[role]), name))
    for name in by_role.get(Judge.Role.JUDGE, []):
        lines.append(Signature(str(labels[Judge.Role.JUDGE]), name))
    return lines
