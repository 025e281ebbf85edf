"""Reads of seasons: a season's table from every event at once, in a constant number of queries
whatever the number of events and players, and the version its page and API are cached by; the
standings by region and the medal tables of official events, one or a season's, from the same
finishes."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from django.db.models import Count, F, Max, QuerySet, Sum

from tournaments.medals import NO_REGION, Finish, MedalRow, by_region, medal_table
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.ratings.models import Rating
from tournaments.seasons.models import Season
from tournaments.seasons.table import EventFinish, SeasonRow, season_table
from tournaments.selectors import STANDINGS_MATCH_FIELDS, places_of, standings_of
from tournaments.standings import Tiebreak
from tournaments.words import region_name


@dataclass(frozen=True)
class SeasonLine:
    """A row of the season table with its player loaded."""

    row: SeasonRow
    player: Player


@dataclass(frozen=True)
class SeasonTable:
    season: Season
    #: The season's tournaments past their draft, in its order (by creation): those started
    #: earn points.
    events: list[Tournament]
    lines: list[SeasonLine]

    @property
    def provisional(self) -> list[Tournament]:
        """The events still running: their points are those of the standings so far."""
        return [event for event in self.events if event.status == Tournament.Status.RUNNING]


def season_of(*, club_slug: str, season_slug: str) -> Season | None:
    return (
        Season.objects.select_related("club").filter(club__slug=club_slug, slug=season_slug).first()
    )


def season_version(*, club_slug: str, season_slug: str) -> str | None:
    """The season's revision, with its events' number, newest and revisions summed (a result
    in any event raises that event's revision); None: no such season."""
    row = (
        Season.objects.filter(club__slug=club_slug, slug=season_slug)
        .annotate(
            events=Count("tournaments"),
            newest=Max("tournaments__pk"),
            revisions=Sum("tournaments__revision"),
        )
        .values_list("revision", "events", "newest", "revisions")
        .first()
    )
    return None if row is None else ":".join(str(part) for part in row)


def season_events(*, season: Season) -> QuerySet[Tournament]:
    return Tournament.objects.filter(season=season).order_by("created_at", "pk")


def season_standings(*, season: Season) -> SeasonTable:
    """The season's table. Seven queries whatever its size: the events, the stages of two-stage
    events, their entries, their players, their decided matches, and the entries' ratings (two,
    read only when an event's tie-breaks use them). The finish of a round robin or Swiss
    is its standings' rank; of a bracket, its final place once the bracket is played out; of a
    two-stage event, the bracket's places for those who went on, then the rest by their
    stage-1 places (see ``_staged``). Wins are the matches won over the board in every stage (a
    draw is half; a bye is no match).

    Started events count, the running ones provisionally: a result corrected while an event
    runs (a finished event's results no longer change) shows in the table at once. In a running
    round robin or Swiss only those who have played a match have a place yet."""
    events = list(
        season_events(season=season)
        .filter(status__in=Tournament.PUBLIC)
        .annotate(lots_order=F("lots__order"))  # the lots drawn at the finish: no query more
    )
    started = (Tournament.Status.RUNNING, Tournament.Status.FINISHED)
    counted = [event for event in events if event.status in started]
    finishes, players = _finishes_of(counted)
    rows = season_table([event.pk for event in events], finishes, season.rule())
    return SeasonTable(season, events, [SeasonLine(row, players[row.player]) for row in rows])


@dataclass(frozen=True)
class RegionLine:
    """A player of a region in an event's standings."""

    place: int
    player: Player


@dataclass(frozen=True)
class RegionStanding:
    """A region's players in an event's standings, best place first ("" region: none given)."""

    region: str
    lines: list[RegionLine]


@dataclass(frozen=True)
class RegionTable:
    """Standings by region and the medal table: of one official event, or summed over a
    season's official events."""

    #: The events counted: started (one event), or finished and official (a season).
    events: list[Tournament]
    #: Each region's players and places (one event only; empty for a season).
    regions: list[RegionStanding]
    #: The medal table; empty for an event still running (medals are won at the finish).
    medals: list[MedalRow]
    #: The finish is final: the event (every event of the season counted) is finished.
    final: bool

    @property
    def regions_counted(self) -> int:
        """The regions represented ("no region" aside)."""
        rows = self.medals or [MedalRow(0, group.region, 0, 0, 0, 0) for group in self.regions]
        return sum(1 for row in rows if row.region != NO_REGION)


def event_regions(*, tournament: Tournament) -> RegionTable:
    """An official event's standings grouped by the regions its players represent, and its
    medal table once it is finished (the places as the season table counts them:
    ``_finishes_of``). Seven queries at most, whatever the number of players."""
    events = list(
        Tournament.objects.filter(
            pk=tournament.pk,
            status__in=(Tournament.Status.RUNNING, Tournament.Status.FINISHED),
        ).annotate(lots_order=F("lots__order"))
    )
    found, players = _finishes_of(events)
    finishes = [Finish(f.player, players[f.player].region, f.place) for f in found]
    groups = by_region(finishes, region_name)
    regions = [
        RegionStanding(
            group.region,
            [RegionLine(finish.place, players[finish.player]) for finish in group.finishes],
        )
        for group in groups
    ]
    final = tournament.status == Tournament.Status.FINISHED
    medals = medal_table(finishes, region_name) if final else []
    return RegionTable(events, regions, medals, final)


def season_regions(*, season: Season) -> RegionTable:
    """The medal table of a season's official events that are finished, summed by region."""
    events = list(
        season_events(season=season)
        .filter(official=True, status=Tournament.Status.FINISHED)
        .annotate(lots_order=F("lots__order"))
    )
    found, players = _finishes_of(events)
    finishes = [Finish(f.player, players[f.player].region, f.place) for f in found]
    return RegionTable(events, [], medal_table(finishes, region_name), True)


# --- Inside ------------------------------------------------------------------------------------


def _finishes_of(counted: list[Tournament]) -> tuple[list[EventFinish], dict[int, Player]]:
    """Each player's finish in each of the ``counted`` events (started ones, with their
    ``lots_order``), and the players by id. Six queries: the stages of two-stage events, their
    entries, their players, their decided matches, and the entries' ratings (two, read only when
    an event's tie-breaks use them)."""
    stages: dict[int, list[Tournament]] = {event.pk: [] for event in counted}
    parents = [event.pk for event in counted]
    for stage in Tournament.objects.filter(parent_id__in=parents).order_by("stage", "group"):
        if stage.parent_id in stages:
            stages[stage.parent_id].append(stage)
    ids = [event.pk for event in counted] + [s.pk for found in stages.values() for s in found]
    entries: dict[int, list[Entry]] = {pk: [] for pk in ids}
    in_events = Entry.objects.filter(tournament_id__in=ids).order_by()  # no order: no joins
    for entry in in_events:
        entries[entry.tournament_id].append(entry)
    entrants = Player.objects.filter(pk__in=in_events.values("player_id")).order_by()
    players = {player.pk: player for player in entrants}
    matches: dict[int, list[tuple[object, ...]]] = {pk: [] for pk in ids}
    decided = (
        Match.objects.filter(tournament_id__in=ids, status__in=Match.DECIDED)
        .order_by()
        .values_list("tournament_id", "slot", *STANDINGS_MATCH_FIELDS)
    )
    for row in decided:
        matches[row[0]].append(row[1:])
    every = [*counted, *(stage for found in stages.values() for stage in found)]
    by_rating = any(Tiebreak.RATING in tournament.tiebreaks for tournament in every)
    ratings = _entry_ratings(ids) if by_rating else {}
    finishes = []
    for event in counted:
        if event.first_stage:
            finishes += _staged(event, stages[event.pk], entries, matches, ratings)
        else:
            finishes += _finishes(event, entries[event.pk], matches[event.pk], ratings)
    return finishes, players


def _entry_ratings(tournament_ids: list[int]) -> dict[int, float]:
    """Each entry's rating in its tournament's rating list, by entry id (two queries: the
    entries with their list, then those players' ratings; joined here: joined by the database,
    with the list compared column by column, it read every rating for every entry)."""
    entries = list(
        Entry.objects.filter(tournament_id__in=tournament_ids).values_list(
            "pk", "player_id", "tournament__rating_system", "tournament__discipline"
        )
    )  # fmt: skip
    players = Entry.objects.filter(tournament_id__in=tournament_ids).values("player_id")
    ratings = {
        (player, system, discipline): rating
        for player, system, discipline, rating in Rating.objects.filter(
            player_id__in=players
        ).values_list(
            "player_id",
            "rating_list__system",
            "rating_list__discipline",
            "rating",
        )  # fmt: skip
    }
    found = {}
    for entry, player, system, discipline in entries:
        if (player, system, discipline) in ratings:
            found[entry] = ratings[player, system, discipline]
    return found


def _staged(
    event: Tournament,
    stages: list[Tournament],
    entries: dict[int, list[Entry]],
    matches: dict[int, list[tuple[object, ...]]],
    ratings: dict[int, float],
) -> list[EventFinish]:
    """A two-stage event's finishes. With its bracket played out: the bracket's places first,
    then those who stayed in stage 1 by their place in it (the groups' 3rds share the next
    place, then the 4ths …; after a Swiss, in its order); one who stayed tied with a qualifier
    counts as just behind the qualifiers. Before that, provisionally, the stage-1 places alone,
    shared across the groups the same way."""
    first = [stage for stage in stages if stage.stage == 1]
    second = next((stage for stage in stages if stage.stage == 2), None)
    wins: dict[int, Fraction] = {}
    in_stage_one: dict[int, int] = {}
    for stage in first:
        for finish in _finishes(stage, entries[stage.pk], matches[stage.pk], ratings):
            in_stage_one[finish.player] = finish.place
            wins[finish.player] = wins.get(finish.player, Fraction(0)) + finish.wins
    bracket = [] if second is None else _finishes(
        second, entries[second.pk], matches[second.pk], ratings
    )  # fmt: skip
    for finish in bracket:
        wins[finish.player] = wins.get(finish.player, Fraction(0)) + finish.wins
    placed = {finish.player: finish.place for finish in bracket}
    went_on = len(placed)
    behind = (event.advance or 0) + 1 if went_on else 1
    stayed = {p: max(place, behind) for p, place in in_stage_one.items() if p not in placed}
    for player, place in stayed.items():
        placed[player] = went_on + 1 + sum(1 for other in stayed.values() if other < place)
    return [EventFinish(event.pk, player, place, wins[player]) for player, place in placed.items()]


def _finishes(
    event: Tournament,
    entries: list[Entry],
    matches: list[tuple[object, ...]],
    ratings: dict[int, float],
) -> list[EventFinish]:
    """Each entrant's place and wins in a started event (see ``season_standings``)."""
    player_of = {entry.pk: entry.player_id for entry in entries}
    halves = dict.fromkeys(player_of, 0)  # wins counted in halves: a draw is one, a win two
    for _slot, _round, home, away, winner, _score_home, _score_away, forfeit in matches:
        if home is None or away is None:
            continue  # a bye
        if forfeit == Match.Forfeit.BOTH:
            continue  # neither came: no win for either
        if winner is None:
            halves[home] += 1  # type: ignore[index]
            halves[away] += 1  # type: ignore[index]
        else:
            halves[winner] += 2  # type: ignore[index]
    if event.format in Tournament.ROUND_FORMATS:
        rounds = [row[1:] for row in matches if row[1] is not None]
        places = [
            (standing.row.rank, standing.entry)
            for standing in standings_of(
                event, entries, rounds, ratings, lots=getattr(event, "lots_order", None)
            )
        ]
    else:
        bracket = [(str(row[0]), row[2], row[4]) for row in matches if row[0] and row[4]]
        places = places_of(event, entries, bracket)  # type: ignore[arg-type]
    if event.status == Tournament.Status.RUNNING:
        played = {side for row in matches if row[3] is not None for side in (row[2], row[3])}
        places = [(place, entry) for place, entry in places if entry.pk in played]
    return [
        EventFinish(event.pk, player_of[entry.pk], place, Fraction(halves[entry.pk], 2))
        for place, entry in places
    ]
