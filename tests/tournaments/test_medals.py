"""Standings by region and regional medal tables (issue 48): an official event's standings
grouped by the region each player represents, its medal table (golds, then silvers, then
bronzes), and a season's official events' medals summed by region; on a page, linked from the
tournament, and in the API."""

import doctest
import itertools

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.web.test_signup_pages import text as text_of
from tournaments import medals
from tournaments.clubs.services import club_create
from tournaments.matches.results import match_result_record
from tournaments.medals import Finish, medal_table
from tournaments.models import Match, Player, Tournament
from tournaments.officials.services import judge_add
from tournaments.seasons.selectors import event_regions, season_regions
from tournaments.seasons.services import season_create
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_finish,
    tournament_start,
)

pytestmark = pytest.mark.django_db
NUMBERS = itertools.count(1)


# --- Counting ------------------------------------------------------------------------------------


def rows(table):
    return [(row.rank, row.region, row.gold, row.silver, row.bronze) for row in table]


def test_a_medal_table_orders_by_golds_then_silvers_then_bronzes():
    finishes = [
        Finish(1, "RU-TA", 1), Finish(2, "RU-MOW", 2), Finish(3, "RU-MOW", 2),
        Finish(4, "RU-MOW", 3), Finish(5, "RU-SPE", 3), Finish(6, "RU-SPE", 3),
        Finish(7, "RU-DA", 2), Finish(8, "RU-DA", 3), Finish(9, "RU-DA", 3),
    ]  # fmt: skip
    assert rows(medal_table(finishes)) == [
        (1, "RU-TA", 1, 0, 0),  # one gold beats any number of silvers
        (2, "RU-MOW", 0, 2, 1),
        (3, "RU-DA", 0, 1, 2),
        (4, "RU-SPE", 0, 0, 2),
    ]


def test_regions_level_on_every_medal_share_the_rank_and_no_region_counts_too():
    finishes = [
        Finish(1, "RU-TA", 3),
        Finish(2, "", 3),
        Finish(3, "RU-AD", 3),
        Finish(4, "RU-AL", 9),
    ]
    names = {"RU-TA": "Tatarstan", "RU-AD": "Adygea", "RU-AL": "Altai", "": "No region"}
    table = medal_table(finishes, names.__getitem__)
    assert rows(table) == [
        (1, "RU-AD", 0, 0, 1), (1, "RU-TA", 0, 0, 1), (1, "", 0, 0, 1), (4, "RU-AL", 0, 0, 0)
    ]  # fmt: skip
    assert [row.players for row in table] == [1, 1, 1, 1] and table[0].total == 1


def test_a_player_of_several_events_counts_once_among_the_regions_players():
    finishes = [Finish(1, "RU-TA", 1), Finish(1, "RU-TA", 2), Finish(2, "RU-TA", 1)]
    (row,) = medal_table(finishes)
    assert (row.gold, row.silver, row.players) == (2, 1, 2)


def test_the_docstring_examples_hold():
    assert doctest.testmod(medals).failed == 0


# --- An official event ---------------------------------------------------------------------------


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


REGIONS = {"Anna": "RU-TA", "Boris": "RU-MOW", "Dina": "RU-TA", "Emil": ""}


@pytest.fixture
def people():
    return [
        Player.objects.create(display_name=name, region=region, birth_year=1990)
        for name, region in REGIONS.items()
    ]


def event(organizer, players, *, official=True, fmt="round-robin", season=None) -> Tournament:
    tournament = tournament_create(
        organizer=organizer, name=f"Cup {next(NUMBERS)}", variant="long", format=fmt,
        match_length=3, official=official, season=season,
    )  # fmt: skip
    if official:  # the organizer judges it too: the panel decides an official event's results
        judge_add(tournament=tournament, username=organizer.username, role="chief", by=organizer)
    for seed, player in enumerate(players, start=1):
        entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    return tournament_start(tournament=tournament, by=organizer)


def play(tournament, organizer, order: list[str]) -> None:
    """Decide every open match: the player first in ``order`` wins."""
    while True:
        match = (
            tournament.matches.filter(status=Match.Status.SCHEDULED)
            .exclude(home__isnull=True).exclude(away__isnull=True)
            .select_related("home__player", "away__player").first()
        )  # fmt: skip
        if match is None:
            return
        home, away = match.home.player.display_name, match.away.player.display_name
        score = (3, 1) if order.index(home) < order.index(away) else (1, 3)
        match_result_record(match=match, by=organizer, score=score)


def test_an_official_event_is_shown_by_region_with_its_medal_table(olga, people):
    cup = event(olga, people)
    table = event_regions(tournament=cup)
    assert table.medals == [] and not table.final  # started, nothing played: no places yet
    play(cup, olga, ["Dina", "Boris", "Emil", "Anna"])
    running = event_regions(tournament=cup)
    assert not running.final and running.medals == []
    assert [
        (g.region, [(line.place, line.player.display_name) for line in g.lines])
        for g in running.regions
    ] == [
        ("RU-TA", [(1, "Dina"), (4, "Anna")]),
        ("RU-MOW", [(2, "Boris")]),
        ("", [(3, "Emil")]),
    ]  # fmt: skip  (the regions in the order of the places so far)
    tournament_finish(tournament=cup, by=olga)
    cup.refresh_from_db()
    final = event_regions(tournament=cup)
    assert final.final and final.regions_counted == 2
    assert [(row.rank, row.region, row.gold, row.silver, row.bronze, row.players)
            for row in final.medals] == [
        (1, "RU-TA", 1, 0, 0, 2), (2, "RU-MOW", 0, 1, 0, 1), (3, "", 0, 0, 1, 1)
    ]  # fmt: skip


def test_the_regions_page_is_linked_and_shows_the_medals(client, olga, people):
    cup = event(olga, people)
    play(cup, olga, ["Dina", "Boris", "Emil", "Anna"])
    tournament_finish(tournament=cup, by=olga)
    url = reverse("tournament-regions", args=[cup.slug])
    assert url in client.get(reverse("tournament", args=[cup.slug])).content.decode()
    page = client.get(url)
    assert page.status_code == 200
    text = text_of(page)
    assert "Medal table" in text and "Republic of Tatarstan" in text and "No region" in text
    assert "2 regions counted" in text
    russian = text_of(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Республика Татарстан" in russian and "Москва" in russian
    assert "Учтено 2 региона" in russian  # it begins the line
    assert client.post(url).status_code == 405


def test_an_event_that_is_not_official_has_no_regions(client, olga, people):
    cup = event(olga, people, official=False)
    assert (
        reverse("tournament-regions", args=[cup.slug])
        not in client.get(reverse("tournament", args=[cup.slug])).content.decode()
    )
    assert client.get(reverse("tournament-regions", args=[cup.slug])).status_code == 404
    assert client.get(f"/api/v1/tournaments/{cup.slug}/regions/").status_code == 404


def test_the_api_gives_the_standings_by_region_and_the_medal_table(client, olga, people):
    cup = event(olga, people, fmt="single-elimination")
    play(cup, olga, ["Emil", "Boris", "Anna", "Dina"])
    tournament_finish(tournament=cup, by=olga)
    body = client.get(f"/api/v1/tournaments/{cup.slug}/regions/").json()
    # The bracket: Emil 1st, Boris 2nd, Anna and Dina (both Tatarstan) share the 3rd place.
    assert body["final"] and body["events"] == [cup.slug] and body["regions_counted"] == 2
    assert [(row["region"], row["region_name"], row["gold"], row["silver"], row["bronze"])
            for row in body["medals"]] == [
        ("", "No region", 1, 0, 0),
        ("RU-MOW", "Moscow", 0, 1, 0),
        ("RU-TA", "Republic of Tatarstan", 0, 0, 2),
    ]  # fmt: skip
    tatarstan = next(group for group in body["regions"] if group["region"] == "RU-TA")
    assert [(line["place"], line["player"]) for line in tatarstan["players"]] == [
        (3, "Anna"), (3, "Dina")
    ]  # fmt: skip
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    assert "/api/v1/tournaments/{slug}/regions/" in schema["paths"]


def test_the_regions_of_an_event_are_read_in_a_fixed_number_of_queries(
    olga, people, django_assert_max_num_queries
):
    cup = event(olga, people)
    play(cup, olga, ["Dina", "Boris", "Emil", "Anna"])
    tournament_finish(tournament=cup, by=olga)
    cup.refresh_from_db()
    with django_assert_max_num_queries(7):
        event_regions(tournament=cup)


# --- A season ------------------------------------------------------------------------------------


def test_a_season_sums_its_finished_official_events_medals_by_region(client, olga, people):
    club = club_create(by=olga, name="Kazan Nardy")
    season = season_create(club=club, by=olga, name="Cup of Tatarstan 2026")
    first = event(olga, people, season=season)
    play(first, olga, ["Dina", "Boris", "Emil", "Anna"])
    tournament_finish(tournament=first, by=olga)
    second = event(olga, people, season=season)
    play(second, olga, ["Boris", "Anna", "Dina", "Emil"])
    tournament_finish(tournament=second, by=olga)
    casual = event(olga, people, season=season, official=False)  # not counted
    play(casual, olga, ["Emil", "Anna", "Boris", "Dina"])
    tournament_finish(tournament=casual, by=olga)
    event(olga, people, season=season)  # running: no medals yet
    table = season_regions(season=season)
    assert [event.pk for event in table.events] == [first.pk, second.pk]
    assert [(row.rank, row.region, row.gold, row.silver, row.bronze) for row in table.medals] == [
        (1, "RU-TA", 1, 1, 1), (2, "RU-MOW", 1, 1, 0), (3, "", 0, 0, 1)
    ]  # fmt: skip
    url = reverse("season-regions", args=[club.slug, season.slug])
    assert url in client.get(reverse("season", args=[club.slug, season.slug])).content.decode()
    text = text_of(client.get(url))
    assert "Medal table by region" in text and "Republic of Tatarstan" in text
    body = client.get(f"/api/v1/clubs/{club.slug}/seasons/{season.slug}/regions/").json()
    assert body["events"] == [first.slug, second.slug] and body["regions"] == []
    assert [(row["region"], row["gold"]) for row in body["medals"]] == [
        ("RU-TA", 1), ("RU-MOW", 1), ("", 0)
    ]  # fmt: skip
    assert client.get(f"/api/v1/clubs/{club.slug}/seasons/none/regions/").status_code == 404
