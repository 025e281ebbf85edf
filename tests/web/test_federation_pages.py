"""Every list at a federation's size stays small: a page at a time (``?page=N``, 404 past the
last), totals counted by the database, and a fixed number of queries whatever the list's size
(each list drawn at two sizes). A player's matches are found by the indexes, not by a scan."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.history import rated_history
from tournaments import selectors, versions
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.selectors import CLUB_MEMBERS_PAGE, CLUB_MEMBERS_SHOWN
from tournaments.models import Match, Player, Tournament

pytestmark = pytest.mark.django_db


def queries_of(client, url: str) -> int:
    """The queries of a page drawn anew (nothing kept in the cache)."""
    cache.clear()
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return len(captured)


def busiest(seed: int) -> Player:
    """The player with the most matches of the history ``seed`` made."""
    players = Player.objects.filter(display_name__startswith=f"Player {seed}-")
    return max(players, key=lambda player: selectors.player_matches_count(player_id=player.pk))


def test_a_players_page_shows_a_page_of_matches_and_the_whole_record(client):
    rated_history(matches=300, players=6, seed=1)
    player = busiest(1)
    total = selectors.player_matches_count(player_id=player.pk)
    assert total > 2 * selectors.PLAYER_MATCHES_PAGE
    url = reverse("player", args=[player.pk])

    first = client.get(url).content.decode()
    assert first.count('href="/m/') == selectors.PLAYER_MATCHES_PAGE
    record = selectors.player_record(player_id=player.pk)
    decided = Match.objects.filter(home__player=player) | Match.objects.filter(away__player=player)
    assert record.played == decided.count() == total
    won = sum(1 for match in decided if match.winner.player_id == player.pk)
    assert (record.won, record.lost) == (won, total - won)
    assert f"Played {total} · won {won} · lost {total - won}" in first
    assert f"1–{selectors.PLAYER_MATCHES_PAGE} of {total}" in first

    pages = -(-total // selectors.PLAYER_MATCHES_PAGE)
    last = client.get(url, {"page": pages}).content.decode()
    assert last.count('href="/m/') == total - (pages - 1) * selectors.PLAYER_MATCHES_PAGE
    assert client.get(url, {"page": pages + 1}).status_code == 404
    shown = set()
    for page in range(1, pages + 1):
        shown |= {row.pk for row in selectors.player_matches(player_id=player.pk, page=page)}
    assert shown == {match.pk for match in decided}  # every match, each on one page


def test_a_players_page_costs_the_same_queries_at_two_sizes(client):
    rated_history(matches=20, players=6, seed=2)
    rated_history(matches=400, players=6, seed=3)
    few, many = busiest(2), busiest(3)
    assert selectors.player_matches_count(player_id=many.pk) > 5 * (
        selectors.player_matches_count(player_id=few.pk)
    )
    for url in ("player", "player"):
        small = queries_of(client, reverse(url, args=[few.pk]))
        large = queries_of(client, reverse(url, args=[many.pk]))
        assert small == large


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans")
def test_a_players_queries_walk_the_indexes_not_every_match():
    """With scans and hash joins priced out, each read of the match table in a player's queries
    must find its rows by an index key (the entry on one side): a plan that can only walk the
    whole table, or the whole of an index (an OR of the two sides), has none to take."""
    history = rated_history(matches=200, players=10, seed=4)
    player = history.players[0]
    with connection.cursor() as cursor:
        for setting in ("enable_seqscan", "enable_hashjoin", "enable_mergejoin"):
            cursor.execute(f"SET LOCAL {setting} = off")
        for sql, params in (
            versions._PLAYER._compiled("default")[:2],
            selectors._player_matches(player.pk)[:50].query.sql_with_params(),
            selectors._player_matches(player.pk).query.sql_with_params(),
        ):
            given = [player.pk if param == -424_242 else param for param in params]
            cursor.execute(f"EXPLAIN {sql}", given)
            plan = [row[0] for row in cursor.fetchall()]
            reads = [n for n, line in enumerate(plan) if " on tournaments_match " in line]
            assert reads, plan
            for read in reads:  # its condition: on the next line, or under its bitmap index scan
                condition = "\n".join(plan[read + 1 : read + 6])
                found = re.search(r"(Index|Recheck) Cond: \(+(home|away)_id = ", condition)
                assert found, "\n".join(plan)


# --- Rating lists ------------------------------------------------------------------------------


def rated_list(seed: int, players: int, matches: int) -> list[tuple[int, int, str]]:
    """A FIBS Short Nardy list of about ``players`` players, with some ratings tied across a
    page's end; each row as (rank, player id, name), ranked here the slow way."""
    from tournaments.ratings import ledger  # noqa: PLC0415
    from tournaments.ratings.models import Rating  # noqa: PLC0415

    rated_history(matches=matches, players=players, seed=seed)
    ledger.ratings_replay(None)
    ordered = list(
        Rating.objects.select_related("player").order_by(
            "-rating", "player__display_name", "player_id"
        )
    )
    tie = ordered[97].rating  # the last rows of the first page and the first of the second
    Rating.objects.filter(pk__in=[one.pk for one in ordered[98:103]]).update(rating=tie)
    ratings = list(Rating.objects.values_list("rating", "player_id", "player__display_name"))
    ratings.sort(key=lambda row: (-row[0], row[2], row[1]))
    return [(1 + sum(1 for other in ratings if other[0] > row[0]), row[1], row[2])
            for row in ratings]  # fmt: skip


def shown_rows(html: str) -> list[tuple[int, int]]:
    """(rank, player id) of each row of a rating table."""
    return [
        (int(rank), int(player))
        for rank, player in re.findall(
            r'<td class="num">(\d+)</td>\s*<td><a href="/p/(\d+)/"', html
        )
    ]


def test_a_rating_list_is_paged_with_each_rank_of_the_whole_list(client):
    expected = rated_list(seed=5, players=260, matches=500)
    assert len(expected) > 200
    pages = [client.get("/ratings/short/", {"page": n}).content.decode() for n in (1, 2, 3)]
    shown = [row for page in pages for row in shown_rows(page)]
    assert shown == [(rank, player) for rank, player, _ in expected]
    assert expected[99][0] < 100 < 101  # a tie across the pages' end keeps its first rank
    assert client.get("/ratings/short/", {"page": 4}).status_code == 404
    assert f"101–200 of {len(expected)}" in pages[1]


def test_a_search_in_a_rating_list_and_a_readers_own_place(client):

    expected = rated_list(seed=6, players=150, matches=300)
    rank, player_id, name = expected[120]
    found = client.get("/ratings/short/", {"q": name.split()[-1]}).content.decode()
    assert shown_rows(found) == [(rank, player_id)]

    anna = User.objects.create_user("anna-own")
    Player.objects.filter(pk=player_id).update(user=anna)
    client.force_login(anna)
    page = client.get("/ratings/short/").content.decode()
    assert f"place {rank}," in page and 'href="?system=fibs&amp;page=2"' in page
    assert shown_rows(page)[:3] == [(r, p) for r, p, _ in expected[:3]]  # the shared rows


def test_the_api_pages_a_rating_list_and_finds_a_player_in_it(client):
    expected = rated_list(seed=7, players=230, matches=450)
    first = client.get("/api/v1/ratings/fibs/short/").json()
    second = client.get(first["next"]).json()
    assert first["count"] == len(expected) and first["previous"] is None
    rows = [(row["rank"], row["player_id"]) for row in first["results"] + second["results"]]
    assert rows == [(rank, player) for rank, player, _ in expected[:200]]
    rank, player_id, name = expected[150]
    one = client.get("/api/v1/ratings/fibs/short/", {"player": player_id}).json()
    assert [(row["rank"], row["player_id"]) for row in one["results"]] == [(rank, player_id)]
    found = client.get("/api/v1/ratings/fibs/short/", {"search": name}).json()
    assert (rank, player_id) in [(row["rank"], row["player_id"]) for row in found["results"]]
    assert client.get("/api/v1/ratings/fibs/short/", {"page": 9}).status_code == 404
    assert client.get("/api/v1/ratings/fibs/short/", {"player": "x"}).status_code == 400


def test_rating_lists_cost_the_same_queries_at_two_sizes(client):
    rated_list(seed=8, players=120, matches=200)
    small = [queries_of(client, url) for url in ("/ratings/short/", "/api/v1/ratings/fibs/short/")]
    rated_list(seed=9, players=400, matches=900)
    large = [queries_of(client, url) for url in ("/ratings/short/", "/api/v1/ratings/fibs/short/")]
    assert small == large
    paged = [queries_of(client, url) for url in ("/ratings/short/?page=3",
                                                 "/api/v1/ratings/fibs/short/?page=3")]  # fmt: skip
    assert all(count <= one + 1 for count, one in zip(paged, large, strict=True))


# --- Tournament lists, clubs and seasons --------------------------------------------------------


def club_with_events(name: str, events: int, seed: int, players: int = 6):
    """A club that has run ``events`` finished, rated round robins (with entries and decided
    matches), all in one season."""

    from tournaments.seasons.models import Season  # noqa: PLC0415

    owner = User.objects.create_user(f"{name}-owner")
    club = Club.objects.create(name=name, slug=name)
    Membership.objects.create(club=club, user=owner, role=Membership.Role.OWNER)
    season = Season.objects.create(club=club, name="2026", slug="s2026")
    history = rated_history(matches=events * 3, players=players, tournaments=events, seed=seed)

    Tournament.objects.filter(pk__in=[t.pk for t in history.tournaments]).update(
        club=club, season=season
    )
    return club, season


def test_the_home_page_shows_the_running_then_pages_of_every_tournament(client):

    club, _ = club_with_events("pages-club", events=120, seed=11)
    newest = list(Tournament.objects.order_by("-created_at", "-pk"))
    Tournament.objects.filter(pk=newest[-1].pk).update(status=Tournament.Status.RUNNING)
    first = client.get("/").content.decode()
    running = first.split('data-role="running-tournaments"')[1].split("</table>")[0]
    assert newest[-1].name in running  # the oldest, running: at the top
    listed = first.split('data-role="tournament-list"')[1].split("</table>")[0]
    assert listed.count("<tr>") - 1 == selectors.TOURNAMENTS_PAGE
    third = client.get("/", {"page": 3}).content.decode()
    assert "running-tournaments" not in third and newest[-1].name in third
    assert client.get("/", {"page": 4}).status_code == 404
    own = client.get("/", {"club": club.slug}).content.decode()
    assert f"Tournaments of {club.name}" in own


def test_lists_cost_the_same_queries_at_two_sizes(client):

    small_club, small_season = club_with_events("small-club", events=4, seed=12)
    small = {
        "home": queries_of(client, "/"),
        "club": queries_of(client, f"/c/{small_club.slug}/"),
        "season": queries_of(client, f"/c/{small_club.slug}/s/{small_season.slug}/"),
        "api tournaments": queries_of(client, "/api/v1/tournaments/"),
        "api club": queries_of(client, f"/api/v1/clubs/{small_club.slug}/"),
        "api club members": queries_of(client, f"/api/v1/clubs/{small_club.slug}/members/"),
        "api players": queries_of(client, "/api/v1/players/"),
    }
    big_club, big_season = club_with_events("big-club", events=70, seed=13)

    joined = [User.objects.create_user(f"big-member-{n}") for n in range(60)]
    Membership.objects.bulk_create(Membership(club=big_club, user=user) for user in joined)
    officer = User.objects.create_user("officer-two-sizes")
    Tournament.objects.update(rated_by=officer, third_place=True)  # once rated_by: a user more
    large = {
        "home": queries_of(client, "/"),
        "club": queries_of(client, f"/c/{big_club.slug}/"),
        "season": queries_of(client, f"/c/{big_club.slug}/s/{big_season.slug}/"),
        "api tournaments": queries_of(client, "/api/v1/tournaments/"),
        "api club": queries_of(client, f"/api/v1/clubs/{big_club.slug}/"),
        "api club members": queries_of(client, f"/api/v1/clubs/{big_club.slug}/members/"),
        "api players": queries_of(client, "/api/v1/players/"),
    }
    assert large == small


def test_a_clubs_members_are_listed_a_page_at_a_time(client):

    club, _ = club_with_events("crowded-club", events=1, seed=15)  # its owner: one member
    organizer = User.objects.create_user("crowded-organizer")
    Membership.objects.create(club=club, user=organizer, role=Membership.Role.ORGANIZER)
    joined = [User.objects.create_user(f"crowded-{n:03}") for n in range(118)]
    Membership.objects.bulk_create(Membership(club=club, user=user) for user in joined)

    detail = client.get(f"/api/v1/clubs/{club.slug}/").json()
    assert detail["member_count"] == 120 and len(detail["members"]) == CLUB_MEMBERS_SHOWN
    assert [row["role"] for row in detail["members"][:2]] == ["owner", "organizer"]
    listed, url = [], f"/api/v1/clubs/{club.slug}/members/"
    while url:
        page = client.get(url).json()
        assert page["count"] == 120 and len(page["results"]) <= CLUB_MEMBERS_PAGE
        listed += [row["username"] for row in page["results"]]
        url = page["next"]
    assert listed == ["crowded-club-owner", "crowded-organizer", *(u.username for u in joined)]
    assert client.get(f"/api/v1/clubs/{club.slug}/members/?page=4").status_code == 404
    assert client.get("/api/v1/clubs/no-such-club/members/").status_code == 404

    client.force_login(organizer)
    members = reverse("club-members", args=[club.slug])
    third = client.get(members, {"page": 3}).content.decode()
    rows = third.split('data-role="members"')[1].split("<tbody>")[1].split("</tbody>")[0]
    assert rows.count("<tr>") == 120 - 2 * CLUB_MEMBERS_PAGE and "crowded-117" in rows
    assert client.get(members, {"page": 4}).status_code == 404


def test_a_seasons_table_is_paged_with_one_events_column_when_there_are_many(client):

    from tournaments.web import seasons as views  # noqa: PLC0415

    club, season = club_with_events("season-club", events=16, seed=14, players=60)
    url = f"/c/{club.slug}/s/{season.slug}/"
    page = client.get(url).content.decode()
    assert views.SEASON_EVENT_COLUMNS < 16 and 'data-role="by-event"' in page
    header = page.split('data-role="season-table"')[1].split("</thead>")[0]
    assert header.count('<th scope="col" class="num"') == 3  # place, points, events: no event
    event = Tournament.objects.filter(season=season).order_by("created_at", "pk")[4]
    one = client.get(url, {"event": event.slug}).content.decode()
    header = one.split('data-role="season-table"')[1].split("</thead>")[0]
    assert f'title="{event.name}"' in header and header.count('title="') == 1

    player = Player.objects.filter(entries__tournament__season=season).first()
    anna = User.objects.create_user("season-anna")
    Player.objects.filter(pk=player.pk).update(user=anna)
    api = f"/api/v1/clubs/{club.slug}/seasons/{season.slug}/"
    first = client.get(api).json()
    assert first["count"] == 60 and len(first["table"]) == 50 and first["previous"] is None
    second = client.get(first["next"]).json()
    ranks = [row["rank"] for row in first["table"] + second["table"]]
    assert len(second["table"]) == 10 and ranks == sorted(ranks)

    client.force_login(anna)
    own = client.get(url).content.decode()
    assert 'data-role="own-line"' in own and player.display_name in own
