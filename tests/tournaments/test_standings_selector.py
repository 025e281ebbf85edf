"""The standings of a stored tournament: right rows, in a number of queries that does not grow."""

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.models import Match, Player, Round, Tournament
from tournaments.selectors import tournament_standings
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db


def running_round_robin(count: int, **settings) -> Tournament:
    olga = User.objects.create_user(f"olga{count}", password="x")
    tournament = tournament_create(organizer=olga, name="RR", variant="short", **settings)
    tournament = tournament_open_registration(tournament=tournament, by=olga)
    for n in range(count):
        player = Player.objects.create(display_name=f"P{count}-{n + 1}")
        entry_register(tournament=tournament, player=player, by=olga)
    return tournament_start(tournament=tournament, by=olga)


def decide(tournament: Tournament, home_wins) -> None:
    """Decide every match of the rounds: ``home_wins(match)`` says whether home won 5-2."""
    for match in tournament.matches.filter(away__isnull=False):
        won = home_wins(match)
        match.score_home, match.score_away = (5, 2) if won else (2, 5)
        match.winner = match.home if won else match.away
        match.status = Match.Status.FINAL
        match.save()


def test_round_robin_standings_with_byes_and_tiebreaks():
    tournament = running_round_robin(5, tiebreaks=["sonneborn-berger", "wins"])
    decide(tournament, lambda match: match.home.seed < match.away.seed)  # the better seed wins

    standings = tournament_standings(tournament=tournament)

    assert [s.entry.seed for s in standings] == [1, 2, 3, 4, 5]
    first = standings[0].row
    # Seed 1 beat all four (4 points) and had a bye (1 point): 5 match points.
    assert (first.rank, first.match_points, first.wins, first.losses) == (1, 5, 4, 0)
    assert (first.game_points_for, first.game_points_against) == (20, 8)
    assert list(first.tiebreaks) == ["sonneborn-berger", "wins"]
    assert standings[-1].row.match_points == 1  # only its bye


def test_the_query_count_does_not_grow_with_the_entrants():
    counts = []
    for size in (6, 20):
        tournament = running_round_robin(size)
        decide(tournament, lambda match: match.pk % 2 == 0)
        tournament = Tournament.objects.get(pk=tournament.pk)
        with CaptureQueriesContext(connection) as queries:
            rows = tournament_standings(tournament=tournament)
        assert len(rows) == size
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 10


def test_undecided_matches_do_not_count_yet():
    tournament = running_round_robin(4)
    standings = tournament_standings(tournament=tournament)
    assert {s.row.match_points for s in standings} == {0}
    assert Round.objects.filter(tournament=tournament).count() == 3
