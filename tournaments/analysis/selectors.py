"""Reads of a match's analysis for its page and the API."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Max, Q
from django.utils.functional import Promise
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from games.analysis.runner import ZERO, Figures
from games.rules.game import Ending, Outcome
from games.rules.position import Colour
from games.viewer import Verdict
from nardy_site.joined import Compiled
from tournaments.analysis.engine import (
    analysis_available,
    engine_details,
    engine_label,
    is_long_engine,
)
from tournaments.analysis.models import MatchAnalysis, Mistake, PlayerFigures
from tournaments.analysis.reading import Thresholds, band_of, thresholds
from tournaments.matches.board import board_frames, match_for_board
from tournaments.models import Entry, Match, Tournament
from tournaments.scoring.match import PlayedGame, match_score


@dataclass(frozen=True)
class AnalysisView:
    """What the match page and the API say of a match's analysis.

    ``state``: "unavailable" (this server does not analyse the match's variant: no gnubg for
    Short Nardy, or ``ANALYSIS`` off), "none" (no record to analyse, or not yet queued),
    "running" (queued or running), "done" or "failed".
    """

    state: str
    analysis: MatchAnalysis | None = None
    #: Side 1 (home) and 2 (away): the whole match's figures.
    totals: dict[int, PlayerFigures] | None = None
    #: Per game: {side: figures}, in game order.
    games: list[tuple[int, dict[int, PlayerFigures]]] | None = None
    mistakes: list[Mistake] | None = None
    #: Whether the match is played with dave (the tournament's rules): without, no dave
    #: decision is there to judge.
    dave: bool = True
    #: The number of the match's Crawford game, where nobody may offer dave (None: none).
    crawford_game: int | None = None

    @property
    def engine(self) -> str:
        """What made the figures, for the page: the program and its plies."""
        found = self.analysis
        return "" if found is None else engine_label(found.engine, found.plies)

    @property
    def engine_details(self) -> str:
        """The technical side of ``engine``: the weights, the plies."""
        found = self.analysis
        return "" if found is None else engine_details(found.engine, found.plies)

    @property
    def long(self) -> bool:
        """Made by the Long Nardy engine (its own thresholds and scale)."""
        return self.analysis is not None and is_long_engine(self.analysis.engine)

    @property
    def luck_measured(self) -> bool:
        """Whether the figures measure luck: gnubg's always do, the Long Nardy engine's since
        it gives each side's result with luck taken out (an older analysis has none)."""
        if not self.long:
            return True
        return bool(self.totals) and all(
            row.result is not None for row in (self.totals or {}).values()
        )

    @property
    def cube_note(self) -> Promise | str:
        """Why the figures judge no dave (cube) decision, or "" when they judge them: the match
        is played without dave, or a Long Nardy analysis made before dave decisions were
        analysed (they came with luck)."""
        if not self.dave:
            return _("No dave in this match: there are no doubling decisions to judge.")
        if not self.luck_measured:
            return _(
                "Made before doubling (dave) decisions and luck were analysed: the figures "
                "are of checker moves only."
            )
        return ""

    @property
    def cube_analysed(self) -> bool:
        return not self.cube_note

    @property
    def thresholds(self) -> Thresholds:
        """The losses over which this analysis' plays are errors and blunders."""
        return thresholds(long=self.long)

    @property
    def summaries(self) -> list[PlayerSummary]:
        """Each side's figures in words, home first (none unless done)."""
        if self.state != "done" or not self.totals:
            return []
        marks = self.thresholds
        found: list[PlayerSummary] = []
        for side, row in sorted(self.totals.items()):
            mine = [m for m in self.mistakes or () if m.side == side]
            marked = [(m, marks.mark(m.loss)) for m in mine]
            plays = [pair for pair in marked if pair[0].kind == Mistake.Kind.MOVE]
            worst = sorted((pair for pair in plays if pair[1]), key=lambda p: -p[0].loss)
            band = band_of(row.pr)
            found.append(
                PlayerSummary(
                    side=side,
                    decisions=row.unforced_moves + row.close_cube_decisions,
                    blunders=sum(1 for _, mark in plays if mark == "blunder"),
                    errors=sum(1 for _, mark in plays if mark == "error"),
                    pr=row.pr,
                    band=band,
                    band_words=BAND_WORDS.get(band or "", ("", "")),
                    worst=[WorstPlay(m, mark) for m, mark in worst[:WORST]],
                    cube=sorted(
                        (
                            WorstPlay(m, mark)
                            for m, mark in marked
                            if m.kind == Mistake.Kind.CUBE and mark
                        ),
                        key=lambda worst: -worst.mistake.loss,
                    ),  # fmt: skip
                    luck=row.luck if self.luck_measured else None,
                    result=row.result,
                    luck_adjusted=row.luck_adjusted,
                    rolls_marked=row.rolls_marked,
                )
            )
        return found


#: How many of a player's worst plays the summary links to.
WORST = 3

#: Each rating band (``reading.BANDS``): gnubg's name for it, and what it means at a club.
BAND_WORDS: dict[str, tuple[Promise, Promise]] = {
    "supernatural": (_("Supernatural"), _("plays like the engine itself")),
    "world-class": (_("World class"), _("the level of the world's best players")),
    "expert": (_("Expert"), _("like a strong tournament player")),
    "advanced": (_("Advanced"), _("like a strong club player")),
    "intermediate": (_("Intermediate"), _("like a good club player")),
    "casual": (_("Casual player"), _("like an average club player")),
    "beginner": (_("Beginner"), _("like a player still learning the game")),
    "awful": (_("Awful"), _("many big mistakes, more than a beginner makes")),
}


#: A dave decision's actions, as the analysis writes them (``runner.Decision``), in words.
CUBE_WORDS: dict[str, Promise] = {
    "double": _("double"),
    "no double": _("no double"),
    "take": _("take"),
    "drop": _("drop"),
    "double, take": _("double, take"),
    "double, drop": _("double, drop"),
    "too good": _("too good to double"),
}


@dataclass(frozen=True)
class WorstPlay:
    """One of a player's worst plays (or a dave decision that lost equity), with what it is
    called."""

    mistake: Mistake
    mark: str

    @property
    def played(self) -> Promise | str:
        """What was played: a dave decision's action in words, a play as written."""
        return CUBE_WORDS.get(self.mistake.played, self.mistake.played)

    @property
    def best(self) -> Promise | str:
        return CUBE_WORDS.get(self.mistake.best, self.mistake.best)


@dataclass(frozen=True)
class PlayerSummary:
    """A side's match in words: its decisions, its errors and blunders (counted from the
    checker plays with the analysis' thresholds), its PR and the band it falls in, its
    worst plays, its dave decisions that lost equity, its luck."""

    side: int
    decisions: int
    blunders: int
    errors: int
    pr: float | None
    band: str | None
    band_words: tuple[Promise | str, Promise | str]
    worst: list[WorstPlay]
    #: The dave (cube) decisions that were mistakes (errors and blunders), the worst first: as
    #: for the plays, the smaller losses are left out (the API has them all).
    cube: list[WorstPlay]
    #: The luck of the side's rolls (None: not measured), the points it won, the same with
    #: luck taken out (None: not given: gnubg, an older analysis).
    luck: float | None
    result: float | None
    luck_adjusted: float | None
    #: The side's rolls by gnubg's luck marks (``models.ROLL_MARKS``), None: not given.
    rolls_marked: dict[str, int] | None


def match_analysis(*, match: Match) -> AnalysisView:
    found = (
        MatchAnalysis.objects.filter(match=match).exclude(status=MatchAnalysis.Status.KEPT).first()
    )
    dave = match.tournament.dave
    if found is None:
        available = analysis_available(match.tournament.variant)
        return AnalysisView("none" if available else "unavailable", dave=dave)
    if found.status == MatchAnalysis.Status.QUEUED:  # waiting for a worker: 0 games done
        return AnalysisView("running", found, dave=dave)
    if found.status != MatchAnalysis.Status.DONE:
        return AnalysisView(found.status, found, dave=dave)
    totals: dict[int, PlayerFigures] = {}
    games: dict[int, dict[int, PlayerFigures]] = {}
    for row in found.figures.all():
        if row.game == 0:
            totals[row.side] = row
        else:
            games.setdefault(row.game, {})[row.side] = row
    mistakes = list(found.mistakes.all())
    crawford = crawford_game(match=match)
    return AnalysisView(
        "done", found, totals, sorted(games.items()), mistakes, dave=dave, crawford_game=crawford
    )


def crawford_game(*, match: Match) -> int | None:
    """The number of the match's Crawford game (no dave may be offered in it), from its games'
    outcomes; None when its rules have no Crawford game, none was played, or the games do not
    score (an unfinished one)."""
    rules = match.tournament.match_rules()
    if not rules.crawford_applies:
        return None
    played = []
    rows = match.games.order_by("number").values_list("white", "winner", "ending", "value", "stake")
    for white, winner, ending, value, stake in rows:
        colour = None if winner is None else Colour.WHITE if winner == white else Colour.BLACK
        played.append(PlayedGame(white, Outcome(colour, Ending(ending), value, stake)))
    try:
        return match_score(rules, played).crawford_game
    except ValueError:  # RulesError is one
        return None


@dataclass(frozen=True)
class PrRow:
    """A line of a tournament's PR table: an entrant's figures over its analysed matches."""

    rank: int
    entry: Entry
    matches: int
    figures: Figures

    @property
    def band_words(self) -> tuple[Promise | str, Promise | str]:
        """The rating band of the row's PR: gnubg's name for it and its reading at a club."""
        return BAND_WORDS.get(band_of(self.figures.pr) or "", ("", ""))


def pr_table(*, tournament: Tournament) -> list[PrRow]:
    """The entrants with analysed matches, best PR (lowest) first; equal PRs share the rank.
    Two queries: the entries, and the whole-match figures of the tournament's analyses."""
    entries = {e.pk: e for e in tournament.entries.select_related("player")}
    rows = PlayerFigures.objects.filter(
        game=0,
        analysis__status=MatchAnalysis.Status.DONE,
        analysis__match__tournament=tournament,
    ).select_related("analysis__match")
    totals: dict[int, Figures] = {}
    counts: dict[int, int] = {}
    for row in rows:
        match = row.analysis.match
        entry_id = match.home_id if row.side == 1 else match.away_id
        if entry_id is None:
            continue
        totals[entry_id] = totals.get(entry_id, ZERO) + row.figures()
        counts[entry_id] = counts.get(entry_id, 0) + 1
    ordered = sorted(
        (entry_id for entry_id in totals if totals[entry_id].pr is not None),
        key=lambda entry_id: (totals[entry_id].pr, entries[entry_id].player.display_name),
    )
    table: list[PrRow] = []
    for position, entry_id in enumerate(ordered, start=1):
        figures = totals[entry_id]
        tied = table and table[-1].figures.pr == figures.pr
        rank = table[-1].rank if tied else position
        table.append(PrRow(rank, entries[entry_id], counts[entry_id], figures))
    return table


def pr_table_version(*, tournament: Tournament) -> str:
    """What the PR table depends on: its analyses shown (their number and the newest end; one
    set aside for a result taken back counts out)."""
    done = MatchAnalysis.objects.filter(
        match__tournament=tournament, status=MatchAnalysis.Status.DONE
    )
    found = done.aggregate(count=Count("pk"), newest=Max("finished_at"))
    return f"{found['count']}:{found['newest']}"


def player_pr_history(*, player_id: int) -> dict[str, list[tuple[datetime, float]]]:
    """The player's PR in each analysed match, by when the match was decided, per variant (the
    engines of Long and Short Nardy rate on scales of their own): one query, compiled once (a
    player's page is drawn again at each analysis of their matches)."""
    points: dict[str, list[tuple[datetime, float]]] = {}
    for variant, decided_at, *figures in _PLAYER_FIGURES.rows(player_id):
        pr = Figures(*figures).pr
        if pr is not None and decided_at is not None:
            points.setdefault(variant, []).append((decided_at, pr))
    return {variant: sorted(points[variant]) for variant in sorted(points)}


_PLAYER_FIGURES = Compiled(
    lambda player_id: (
        PlayerFigures.objects.filter(game=0, analysis__status=MatchAnalysis.Status.DONE)
        .filter(
            Q(side=1, analysis__match__home__player_id=player_id)
            | Q(side=2, analysis__match__away__player_id=player_id)
        )
        .order_by()
        .values_list(
            "analysis__match__tournament__variant",
            "analysis__match__decided_at",
            *("checker_error", "cube_error", "luck", "unforced_moves"),
            *("close_cube_decisions", "blunders", "errors"),
        )
    ),
    placeholder=-424_242,
    converted=True,
)


def verdicts_of(view: AnalysisView | None) -> tuple[dict[tuple[int, int], Verdict], str]:
    """The board viewer's verdicts of a done analysis, by (game, checker play), and the name of
    that analysis (``tournaments.matches.board.board_frames`` keys its frames on it); nothing
    for no analysis, or one not done."""
    if view is None or view.state != "done" or view.analysis is None:
        return {}, ""
    marks = view.thresholds
    verdicts = {
        (mistake.game, mistake.move): Verdict(mistake.loss, marks.mark(mistake.loss), mistake.best)
        for mistake in view.mistakes or ()
        if mistake.kind == Mistake.Kind.MOVE  # a dave decision is no play on the board
    }
    return verdicts, f"{view.analysis.pk}:{view.analysis.finished_at}"


def analysed_frames_of(match_id: int) -> SafeString | None:
    """The match page's board frames with the match's analysis on them (None: no such match or
    no record)."""
    match = match_for_board(match_id)
    if match is None:
        return None
    games = list(match.games.order_by("number"))
    return board_frames(match, games, *verdicts_of(match_analysis(match=match)))
