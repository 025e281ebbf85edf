"""Reads: what the pages, the API and the tasks show, in a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import Decimal
from typing import Any, Literal

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import (
    BooleanField,
    Count,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
)
from django.db.models.functions import Coalesce

from tournaments.formats import elimination, swiss
from tournaments.models import Entry, Lots, Match, Tournament, forfeit_marks, slot_name
from tournaments.policy import answers_the_report, plays_as
from tournaments.ratings.history import INITIAL_RATING
from tournaments.ratings.models import Rating
from tournaments.scoring import MatchPoints
from tournaments.standings import Entrant, Result, StandingRow, compute, shared_places


def entry_ratings(*, tournament: Tournament) -> dict[int, float]:
    """Each rated entry's current rating in the tournament's rating list, by entry id."""
    return dict(
        Rating.objects.filter(
            rating_list__system=tournament.rating_system,
            rating_list__discipline=tournament.discipline,
            player__entries__tournament=tournament,
        ).values_list("player__entries__pk", "rating")
    )


def hinted_matches(*, tournament: Tournament) -> list[Match]:
    """The matches of the tournament (and of its stages) recorded with the engine's practice
    hint (``Match.hinted``): what a rating officer weighs before approving it."""
    return list(
        Match.objects.filter(Q(tournament=tournament) | Q(tournament__parent=tournament))
        .filter(hinted=True)
        .select_related("home__player", "away__player")
        .order_by("pk")
    )


#: Tournaments per page of a list (the home page, a club's).
TOURNAMENTS_PAGE = 50
#: The running tournaments (and those taking entries) the home page shows above the list.
RUNNING_SHOWN = 20


def tournament_list() -> QuerySet[Tournament]:
    """All tournaments, newest first (the stages of a two-stage event are shown on its page, not
    here): page it, then ``with_entry_counts``."""
    return Tournament.objects.filter(parent__isnull=True).order_by("-created_at", "-pk")


def with_entry_counts(tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """Each tournament with ``entry_count``, counted for the rows asked for (a subquery each),
    not for every tournament before a page is cut."""
    entries = (
        Entry.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(count=Count("pk"))
        .values("count")
    )
    return tournaments.annotate(entry_count=Coalesce(Subquery(entries), 0))


@dataclass(frozen=True)
class Standing:
    """A standings row with its entry (and player) loaded; ``out``: out of a Swiss after its
    number of lost matches (``swiss_out_after_losses``), paired no more."""

    row: StandingRow
    entry: Entry
    out: bool = False


def tournament_standings(*, tournament: Tournament) -> list[Standing]:
    """The standings of a round robin or Swiss tournament, by its points and tie-break order
    (and, once it is finished, the lots drawn for the places they leave shared; a stage's, once
    drawn at the cut).

    Three queries whatever the size: the entries with their players, their current ratings in
    the tournament's rating list (1500 for the unrated), and the decided matches of the rounds;
    a finished tournament's (or a stage's) lots are a fourth.
    """
    entries = list(Entry.objects.filter(tournament=tournament).select_related("player"))
    matches = Match.objects.filter(
        tournament=tournament, round__isnull=False, status__in=Match.DECIDED
    ).values_list(*STANDINGS_MATCH_FIELDS)
    ratings = entry_ratings(tournament=tournament)
    lots = tournament_lots(tournament=tournament)
    order = None if lots is None else lots.order
    return standings_of(tournament, entries, list(matches), ratings, lots=order)


def lots_to_draw(*, tournament: Tournament) -> bool:
    """Whether the organizer has lots to draw: a finished tournament whose places the tie-breaks
    leave shared by accident (no shared places chosen, no lots drawn: it was finished before the
    finish drew them)."""
    if tournament.status != Tournament.Status.FINISHED or not tournament.decides_places_by_lots:
        return False
    if Lots.objects.filter(tournament=tournament).exists():
        return False
    rows = tournament_standings(tournament=tournament)
    return bool(shared_places([standing.row for standing in rows]))


def rounds_complete(*, tournament: Tournament) -> tuple[int, int]:
    """How many rounds are complete from the first on (each of their matches decided), and how
    many rounds there are: one query."""
    rounds = (
        Match.objects.filter(tournament=tournament, round__isnull=False)
        .order_by("round__number")
        .values("round__number")
        .annotate(undecided=Count("pk", filter=UNDECIDED))
        .values_list("round__number", "undecided")
    )
    complete = 0
    made = 0
    for _number, undecided in rounds:
        made += 1
        if not undecided and complete == made - 1:
            complete = made
    return complete, made


#: The matches of a round still to be decided (a bye is decided as it is made).
UNDECIDED = ~Q(status__in=Match.DECIDED) & Q(away__isnull=False)


def tournament_lots(*, tournament: Tournament) -> Lots | None:
    """The lots drawn for the places the finished tournament's tie-breaks left shared, or at the
    cut of a stage-1 tournament when stage 2 was built, with who drew them (None: none were; no
    query before the finish of a one-stage tournament, when none can be)."""
    if tournament.status != Tournament.Status.FINISHED and tournament.parent_id is None:
        return None
    return Lots.objects.filter(tournament=tournament).select_related("drawn_by").first()


#: The columns of a decided round match that the standings read, as ``standings_of`` takes them.
STANDINGS_MATCH_FIELDS = (
    "round__number", "home_id", "away_id", "winner_id", "score_home", "score_away", "forfeit"
)  # fmt: skip


def standings_of(
    tournament: Tournament,
    entries: list[Entry],
    matches: list[tuple[Any, ...]],
    ratings: dict[int, float],
    *,
    lots: list[int] | None = None,
) -> list[Standing]:
    """The standings from rows already read: the entries (with players), the decided round
    matches (``STANDINGS_MATCH_FIELDS``), the entries' ratings and the order the lots drew
    (``Lots.order``; None: none were drawn). No query."""
    by_id = {entry.pk: entry for entry in entries}
    results = []
    for number, home, away, winner, score_home, score_away, forfeit in matches:
        if away is None:
            results.append(Result.bye(number, home))
        elif forfeit:
            results.append(Result.by_forfeit(number, home, away, winner))
        else:
            results.append(Result(number, home, away, winner, score_home or 0, score_away or 0))
    points = MatchPoints(
        win=tournament.points_win,
        draw=tournament.points_draw,
        loss=tournament.points_loss,
        bye=tournament.points_bye,
    )
    rows = compute(
        [Entrant(entry_id, ratings.get(entry_id, INITIAL_RATING)) for entry_id in by_id],
        results,
        tournament.tiebreaks,
        points=points,
        rounds=tournament.swiss_rounds if tournament.format == Tournament.Format.SWISS else None,
        lots=lots,
    )
    out = swiss.eliminated(
        {row.entrant.id: row.losses for row in rows}, tournament.swiss_out_after_losses
    )
    return [Standing(row, by_id[row.entrant.id], row.entrant.id in out) for row in rows]


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """A match as a player's page lists it: where it was played, by whom, and how it stands."""

    pk: int
    tournament: str
    tournament_slug: str
    discipline: str
    round_number: int | None
    slot: str
    status: str
    score_home: Decimal | None
    score_away: Decimal | None
    forfeit: str
    home_won: bool
    away_won: bool
    home: str
    away: str | None  # None: a bye, or a side still to be decided

    @property
    def slot_name(self) -> str:
        return slot_name(self.slot)

    @property
    def discipline_name(self) -> str:
        return str(Tournament.Discipline(self.discipline).label)

    @property
    def forfeit_marks(self) -> tuple[str, str] | None:
        return forfeit_marks(self.forfeit)

    @property
    def status_name(self) -> str:
        return str(Match.Status(self.status).label)


#: A player's matches per page of their page (``?page=N``).
PLAYER_MATCHES_PAGE = 50


@dataclass(frozen=True, slots=True)
class PlayerRecord:
    """A player's decided matches in numbers, counted by the database."""

    played: int
    won: int
    lost: int


def player_matches(*, player_id: int, page: int = 1, discipline: str = "") -> list[PlayerMatch]:
    """One page of the player's matches with a home side, newest tournament first
    (``PLAYER_MATCHES_PAGE`` a page; ``discipline``: in its tournaments only). Each side is
    found apart and the two joined (UNION ALL), so the database walks the player's entries and
    their matches by their indexes: an OR of the two sides scanned every match."""
    start = (page - 1) * PLAYER_MATCHES_PAGE
    matches = []
    for row in _player_matches(player_id, discipline)[start : start + PLAYER_MATCHES_PAGE]:
        *shown, winner, home, away, home_name, away_name, _ = row
        won = (winner is not None and winner == home, winner is not None and winner == away)
        matches.append(PlayerMatch(*shown, *won, home_name, away_name))
    return matches


def player_matches_count(*, player_id: int, discipline: str = "") -> int:
    """How many matches with a home side the player has (the pages of ``player_matches``)."""
    return _player_matches(player_id, discipline).count()


def player_record(*, player_id: int) -> PlayerRecord:
    """How many matches the player has played (decided), won and lost: one query."""
    decided = [
        Match.objects.filter(**{f"{side}__player": player_id}, status__in=Match.DECIDED)
        .order_by()
        .values(f"{side}__player")
        .annotate(
            played=Count("pk"),
            won=Count("pk", filter=Q(winner_id=F(f"{side}_id"))),
            lost=Count("pk", filter=Q(winner__isnull=False) & ~Q(winner_id=F(f"{side}_id"))),
        )
        .values_list("played", "won", "lost")
        for side in ("home", "away")
    ]
    rows = list(decided[0].union(decided[1], all=True))
    return PlayerRecord(*(sum(row[index] for row in rows) for index in range(3)))


def _player_matches(player_id: int, discipline: str = "") -> QuerySet[Any]:
    columns = (
        "pk", "tournament__name", "tournament__slug", "tournament__discipline", "round__number",
        "slot", "status",
        "score_home", "score_away", "forfeit", "winner_id", "home_id", "away_id",
        "home__player__display_name", "away__player__display_name", "tournament__created_at",
    )  # fmt: skip
    of = {"tournament__discipline": discipline} if discipline else {}
    home = Match.objects.filter(home__player=player_id, **of).order_by().values_list(*columns)
    away = (
        Match.objects.filter(away__player=player_id, home__isnull=False, **of)
        .order_by()
        .values_list(*columns)
    )
    return home.union(away, all=True).order_by("-tournament__created_at", "-pk")


def correction_reaches(*, match: Match) -> list[Match]:
    """The later bracket matches with a result that a correction of ``match`` may reset: those
    it feeds a winner or loser to, and those they feed in turn (one query)."""
    if not match.slot:
        return []
    fed_by: dict[str, list[Match]] = {}
    later = (
        Match.objects.filter(tournament_id=match.tournament_id)
        .exclude(slot="")
        .select_related("home__player", "away__player")
    )
    for candidate in later:
        for feeder in candidate.feeder_slots():
            fed_by.setdefault(feeder, []).append(candidate)
    reached: dict[int, Match] = {}
    waiting = [match.slot]
    while waiting:
        for candidate in fed_by.get(waiting.pop(), []):
            if candidate.pk not in reached:
                reached[candidate.pk] = candidate
                waiting.append(candidate.slot)
    return [m for m in reached.values() if m.status != Match.Status.SCHEDULED]


@dataclass(frozen=True)
class MyMatch:
    """A match seen from the side of one of the user's players."""

    match: Match
    mine: Entry
    opponent: Entry | None
    my_score: Decimal | None
    their_score: Decimal | None


def _plays(user: AbstractBaseUser | AnonymousUser, side: str) -> Q:
    """The match's ``side`` is the user's player, or a pair the user plays in."""
    return plays_as(user.pk, f"{side}__")


def user_matches(*, user: AbstractBaseUser | AnonymousUser) -> dict[str, list[MyMatch]]:
    """The matches of the user's players (and of the pairs they play in: a pair's record has
    no account of its own), grouped: ``to_play``, ``to_answer`` (the opponent reported),
    ``waiting`` (for the opponent or an organizer) and ``decided``; one query (and one for each
    reported match of a pair: whether the partner reported it)."""
    matches = (
        Match.objects.filter(_plays(user, "home") | _plays(user, "away"))
        .annotate(mine_home=ExpressionWrapper(_plays(user, "home"), output_field=BooleanField()))
        .select_related("tournament", "round", "home__player", "away__player")
        .order_by(
            "-tournament__created_at", "tournament__pk", "round__number", "bracket_round", "pk"
        )
    )
    groups: dict[str, list[MyMatch]] = {
        "to_play": [],
        "to_answer": [],
        "waiting": [],
        "decided": [],
    }
    for match in matches:
        mine_home = bool(match.mine_home)  # type: ignore[attr-defined]
        row = MyMatch(
            match=match,
            mine=match.home if mine_home else match.away,  # type: ignore[arg-type]
            opponent=match.away if mine_home else match.home,
            my_score=match.score_home if mine_home else match.score_away,
            their_score=match.score_away if mine_home else match.score_home,
        )
        if match.status in Match.DECIDED:
            groups["decided"].append(row)
        elif match.status == Match.Status.SCHEDULED:
            groups["to_play"].append(row)
        elif match.status == Match.Status.REPORTED and answers_the_report(user, match):
            groups["to_answer"].append(row)
        else:  # reported by the user, or disputed: the opponent or an organizer acts next
            groups["waiting"].append(row)
    return groups


def bracket_places(*, tournament: Tournament) -> list[tuple[int, Entry]]:
    """The final places of an elimination tournament once its bracket is played out (shared
    places as the format has them), best first; empty while a needed match is undecided."""
    entries = list(tournament.entries.filter(seed__isnull=False).select_related("player"))
    decided = Match.objects.filter(
        tournament=tournament, status__in=Match.DECIDED, winner__isnull=False
    ).exclude(slot="")
    return places_of(tournament, entries, [(m.slot, m.home_id, m.winner_id) for m in decided])


def places_of(
    tournament: Tournament, entries: list[Entry], decided: list[tuple[str, int | None, int]]
) -> list[tuple[int, Entry]]:
    """``bracket_places`` from rows already read: the entries, and the decided bracket matches
    as (slot, home entry id, winner entry id). No query."""
    seeded = {entry.seed: entry for entry in entries if entry.seed is not None}
    if tournament.status == Tournament.Status.DRAFT or len(seeded) < 2:
        return []
    winners: dict[str, Literal["home", "away"]] = {
        slot: "home" if winner == home else "away" for slot, home, winner in decided if slot
    }
    try:
        places = elimination.places(tournament.bracket_plan(len(seeded)), winners)
    except ValueError:  # not played out yet
        return []
    return sorted(((place, seeded[seed]) for seed, place in places.items()), key=lambda p: p[0])
