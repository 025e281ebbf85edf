"""Seasons: a club's organizers make them and put the club's tournaments in them; the table adds
up the finished events, by place or by wins, and a corrected result changes it at once."""

import itertools
from datetime import date
from decimal import Decimal

import pytest
from django.contrib.auth.models import User

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.seasons.models import Season
from tournaments.seasons.selectors import season_standings, season_version
from tournaments.seasons.services import season_create, season_event_set, season_update
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_finish,
    tournament_start,
)

pytestmark = pytest.mark.django_db
NUMBERS = itertools.count(1)


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


@pytest.fixture
def riga(olga):
    return club_create(by=olga, name="Riga Nardy Club")


@pytest.fixture
def people():
    return [Player.objects.create(display_name=name) for name in ("Anna", "Boris", "Dina", "Emil")]


def evening(organizer, season, players, fmt="round-robin", **settings) -> Tournament:
    settings.setdefault("match_length", 3)
    tournament = tournament_create(
        organizer=organizer, name=f"Evening {next(NUMBERS)}", variant="long", format=fmt,
        season=season, **settings,
    )  # fmt: skip
    for seed, player in enumerate(players, start=1):
        entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    return tournament_start(tournament=tournament, by=organizer)


def play(tournament, organizer, winner_first: list[str]) -> None:
    """Decide every open match: the side whose player comes first in ``winner_first`` wins."""
    while True:
        match = (
            tournament.matches.filter(status=Match.Status.SCHEDULED)
            .exclude(home__isnull=True).exclude(away__isnull=True)
            .select_related("home__player", "away__player").first()
        )  # fmt: skip
        if match is None:
            return
        home, away = match.home.player.display_name, match.away.player.display_name
        home_wins = winner_first.index(home) < winner_first.index(away)
        score = (3, 1) if home_wins else (1, 3)
        match_result_record(match=match, by=organizer, score=score)


def table(season):
    return [(line.player.display_name, line.row.rank, line.row.points)
            for line in season_standings(season=season).lines]  # fmt: skip


def test_a_season_adds_up_its_finished_events_by_place(olga, riga, people):
    season = season_create(club=riga, by=olga, name="Autumn 2026", place_points=[10, 6, 4, 2])
    first = evening(olga, season, people)
    play(first, olga, ["Anna", "Boris", "Dina", "Emil"])
    tournament_finish(tournament=first, by=olga)
    second = evening(olga, season, people, fmt="single-elimination")
    play(second, olga, ["Emil", "Boris", "Anna", "Dina"])
    tournament_finish(tournament=second, by=olga)
    running = evening(olga, season, people)  # started, nothing played: no points yet
    # Bracket: Emil 1st, Boris 2nd, Anna and Dina the semifinal losers, both 3rd. Boris and Emil
    # have 12 each: Emil's first place puts him ahead.
    assert table(season) == [("Anna", 1, 14), ("Emil", 2, 12), ("Boris", 3, 12), ("Dina", 4, 8)]
    standings = season_standings(season=season)
    assert [event.pk for event in standings.events] == [first.pk, second.pk, running.pk]
    assert standings.provisional == [running]
    anna = standings.lines[0].row
    assert [item.place if item else None for item in anna.events] == [1, 3, None]
    assert anna.running == (10, 14, 14)
    # The running evening counts as it stands, for those who have played.
    first_match = running.matches.filter(home__player__display_name="Dina").first()
    match_result_record(match=first_match, by=olga, score=(3, 0))
    rows = {name: points for name, _rank, points in table(season)}
    loser = first_match.away.player.display_name
    # The round robin's default tie-breaks put the loser (game points −3) fourth, behind the two
    # who have not played yet: 2 points.
    assert (
        rows["Dina"] == 8 + 10 and rows[loser] == {"Anna": 14, "Boris": 12, "Emil": 12}[loser] + 2
    )
    play(running, olga, ["Dina", "Emil", "Boris", "Anna"])
    assert table(season) == [("Emil", 1, 18), ("Dina", 2, 18), ("Anna", 3, 16), ("Boris", 4, 16)]


def test_wins_scoring_and_best_of(olga, riga, people):
    season = season_create(club=riga, by=olga, name="Wins", scoring="wins", win_points=2,
                           best_of=1)  # fmt: skip
    for order in (["Anna", "Boris", "Dina", "Emil"], ["Dina", "Anna", "Boris", "Emil"]):
        event = evening(olga, season, people)
        play(event, olga, order)
        tournament_finish(tournament=event, by=olga)
    rows = {line.player.display_name: line.row for line in season_standings(season=season).lines}
    # Round robin of four: the order's first wins 3, second 2, third 1, last 0; best 1 counts.
    assert {name: row.points for name, row in rows.items()} == {
        "Anna": 6, "Dina": 6, "Boris": 4, "Emil": 0,
    }  # fmt: skip
    assert rows["Anna"].all_points == 10 and rows["Dina"].all_points == 8
    assert rows["Anna"].rank == 1 and rows["Dina"].rank == 2  # more points over all events


def test_a_corrected_result_changes_the_table_at_once(olga, riga, people):
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 6, 4, 2])
    event = evening(olga, season, people[:2])
    play(event, olga, ["Anna", "Boris"])
    version = season_version(club_slug=riga.slug, season_slug=season.slug)
    assert table(season) == [("Anna", 1, 10), ("Boris", 2, 6)]
    match_result_correct(match=event.matches.get(), by=olga, score=(1, 3))
    assert table(season) == [("Boris", 1, 10), ("Anna", 2, 6)]
    tournament_finish(tournament=event, by=olga)
    assert season_version(club_slug=riga.slug, season_slug=season.slug) != version


def test_the_season_table_takes_a_constant_number_of_queries(
    olga, riga, people, django_assert_max_num_queries
):
    season = season_create(club=riga, by=olga, name="Autumn")
    for _ in range(3):
        event = evening(olga, season, people)
        play(event, olga, ["Anna", "Boris", "Dina", "Emil"])
        tournament_finish(tournament=event, by=olga)
    with django_assert_max_num_queries(6):  # events, stages, entries, matches, ratings (2)
        assert len(season_standings(season=season).lines) == 4


def test_only_those_who_run_the_club_make_and_change_its_seasons(olga, riga):
    ivan = User.objects.create_user("ivan", password="x")
    member_add(club=riga, by=olga, username="ivan", role=Membership.Role.MEMBER)
    with pytest.raises(NotAllowed):
        season_create(club=riga, by=ivan, name="Mine")
    season = season_create(club=riga, by=olga, name="Autumn", starts_on=date(2026, 9, 1))
    with pytest.raises(NotAllowed):
        season_update(season=season, by=ivan, name="Mine")
    member_add(club=riga, by=olga, username="ivan", role=Membership.Role.ORGANIZER)
    season_update(season=season, by=ivan, best_of=8, win_points=Decimal("1.5"))
    season.refresh_from_db()
    assert (season.name, season.best_of, season.win_points) == ("Autumn", 8, Decimal("1.5"))


@pytest.mark.parametrize(
    "fields, refusal",
    [
        ({"place_points": [10, 12]}, "lower place"),
        ({"place_points": []}, "place_points"),
        ({"place_points": [10, "x"]}, "number from 0"),
        ({"best_of": 0}, "best_of"),
        ({"starts_on": date(2026, 9, 1), "ends_on": date(2026, 8, 1)}, "end before"),
        ({"name": " "}, "needs a name"),
    ],
)
def test_a_bad_season_is_refused_and_nothing_changes(olga, riga, fields, refusal):
    season = season_create(club=riga, by=olga, name="Autumn")
    with pytest.raises(InvalidInput, match=refusal):
        season_update(season=season, by=olga, **fields)
    stored = Season.objects.get()
    assert (stored.name, stored.place_points, stored.best_of) == (
        "Autumn", [25, 18, 15, 12, 10, 8, 6, 4, 2, 1], None,
    )  # fmt: skip


def test_events_join_and_leave_a_season_of_their_own_club_only(olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn")
    loose = tournament_create(organizer=olga, name="Friday", variant="long")
    season_event_set(tournament=loose, season=season, by=olga)
    loose.refresh_from_db()
    assert (loose.season, loose.club) == (season, riga)
    mila = User.objects.create_user("mila", password="x")
    other = club_create(by=mila, name="Tallinn")
    theirs = tournament_create(organizer=mila, name="Tue", variant="long", club=other)
    with pytest.raises(NotAllowed):
        season_event_set(tournament=theirs, season=season, by=mila)
    member_add(club=riga, by=olga, username="mila", role=Membership.Role.ORGANIZER)
    with pytest.raises(Conflict, match="another club"):
        season_event_set(tournament=theirs, season=season, by=mila)
    season_event_set(tournament=loose, season=None, by=olga)
    loose.refresh_from_db()
    assert loose.season is None and loose.club == riga
    with pytest.raises(InvalidInput, match="another club's"):
        tournament_create(organizer=mila, name="X", variant="long", club=other, season=season)
    assert Tournament.objects.count() == 2
