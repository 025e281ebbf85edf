"""Every list at a federation's size stays small: a page at a time (``?page=N``, 404 past the
last), totals counted by the database, and a fixed number of queries whatever the list's size
(each list drawn at two sizes). A player's matches are found by the indexes, not by a scan."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.history import rated_history
from tournaments import selectors, versions
from tournaments.models import Match, Player

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
            for read in reads:
                condition = plan[read + 1] if read + 1 < len(plan) else ""
                assert re.search(r"Index Cond: \(+(home|away)_id = ", condition), "\n".join(plan)
