"""Rated events need a rating officer: an unrated tournament's results write nothing on the
shared list (its match pages show the change they would make), an approval before the start or
after the results rates them, a withdrawal replays the list without them, and the list always
equals a serial replay. Tournaments of before approvals migrate as rated."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse

from tests.web.conftest import make_site
from tournaments.errors import Conflict, NotAllowed
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Tournament
from tournaments.ratings import ledger
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import RatingChange, RatingList
from tournaments.ratings.services import ratings_approve, ratings_withdraw

pytestmark = pytest.mark.django_db


@pytest.fixture
def now(django_capture_on_commit_callbacks, eager_tasks):
    """``now(call)``: run a write and what it enqueues on commit (the rating tasks, in-process),
    as a committed write would; the test's own transaction never commits."""

    def run(call):
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


def ledger_rows() -> list[tuple[int, int, float, float]]:
    return sorted(
        (match, player, round(before, 9), round(after, 9))
        for match, player, before, after in RatingChange.objects.values_list(
            "match_id", "player_id", "before", "after"
        )
    )


def serial_replay_equals_ledger() -> bool:
    """The ledger as it stands equals the ledger of a replay of everything from the start."""
    kept = ledger_rows()
    ledger.ratings_replay(None)
    return ledger_rows() == kept


def play(now, site, *pairs) -> list[Match]:
    played = []
    for one, other in pairs:
        match = site.match(one, other)
        now(lambda match=match: match_result_record(match=match, by=site.organizer, score=(3, 1)))
        played.append(match)
    return played


def test_an_unrated_tournament_writes_nothing_and_shows_the_change_it_would_make(client, now):
    site = make_site(rated=False)
    (match,) = play(now, site, ("Anna", "Boris"))
    assert not RatingChange.objects.exists()
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-role="rating-effect" data-rated="false"' in page
    assert "Rating change if rated" in page and "+" in page

    officer = User.objects.create_user("rita")
    rating_list_of(site.tournament).officers.add(officer)
    now(lambda: ratings_approve(tournament=site.tournament, by=officer))  # after the results

    rows = RatingChange.objects.filter(match=match)
    assert rows.count() == 2
    winner = rows.get(score=1.0)
    # What the page promised is what the approval wrote (no other match came in between).
    assert f"+{winner.delta:.2f}" in page
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    assert 'data-rated="true"' in page and 'approved by <span translate="no">rita</span>' in page
    assert serial_replay_equals_ledger()


def test_an_approval_before_the_start_rates_results_as_they_come(now):
    site = make_site(rated=True)  # Rita approved it before the start
    site.tournament.refresh_from_db()
    assert site.tournament.rated and site.tournament.rated_by.username == "rita"
    play(now, site, ("Anna", "Boris"), ("Carl", "Dina"))
    assert RatingChange.objects.count() == 4
    assert serial_replay_equals_ledger()


def test_withdrawing_replays_the_list_without_the_tournament(client, now):
    rated = make_site(rated=True)
    first = play(now, rated, ("Anna", "Boris"))
    # Another tournament on the same list, its result later: its ratings start from the first's.
    other_officer = User.objects.get(username="rita")
    second = Tournament.objects.create(
        name="Second", slug="second", variant="short", status="running",
        organizer=rated.organizer, match_length=3, rated=True, rated_by=other_officer,
    )  # fmt: skip
    anna, boris = (rated.match("Anna", "Boris").home, rated.match("Anna", "Boris").away)
    home = second.entries.create(player=anna.player, seed=1)
    away = second.entries.create(player=boris.player, seed=2)
    rematch = Match.objects.create(tournament=second, home=home, away=away)
    now(lambda: match_result_record(match=rematch, by=rated.organizer, score=(1, 3)))
    before = RatingChange.objects.get(match=rematch, score=1.0).before
    assert before != 1500.0  # it started from the first tournament's result

    now(lambda: ratings_withdraw(tournament=rated.tournament, by=other_officer))

    assert not RatingChange.objects.filter(match__in=first).exists()
    assert RatingChange.objects.get(match=rematch, score=1.0).before == 1500.0
    assert serial_replay_equals_ledger()
    rated.tournament.refresh_from_db()
    assert (rated.tournament.rated, rated.tournament.rated_by) == (False, None)
    page = client.get(reverse("match", args=[first[0].pk])).content.decode()
    assert 'data-rated="false"' in page


def test_only_the_lists_officers_and_staff_approve_and_only_once():
    site = make_site(rated=False)
    with pytest.raises(NotAllowed):
        ratings_approve(tournament=site.tournament, by=site.organizer)
    elsewhere = User.objects.create_user("lena")
    RatingList.objects.create(system="fibs", discipline="long").officers.add(elsewhere)
    with pytest.raises(NotAllowed):  # an officer of another list
        ratings_approve(tournament=site.tournament, by=elsewhere)
    staff = User.objects.create_user("sam", is_staff=True)
    ratings_approve(tournament=site.tournament, by=staff)
    with pytest.raises(Conflict):
        ratings_approve(tournament=site.tournament, by=staff)
    ratings_withdraw(tournament=site.tournament, by=staff)
    with pytest.raises(Conflict):
        ratings_withdraw(tournament=site.tournament, by=staff)


def test_the_tournament_page_and_the_api_say_whether_it_is_rated_and_who_approved(client, now):
    site = make_site(rated=True)
    page = client.get(reverse("tournament", args=[site.tournament.slug])).content.decode()
    assert 'yes, approved by <span translate="no">rita</span>' in page
    data = client.get(f"/api/v1/tournaments/{site.tournament.slug}/").json()
    assert (data["rated"], data["rated_by"]) == (True, "rita")
    (match,) = play(now, site, ("Anna", "Boris"))
    player = match.home.player
    history = client.get(f"/api/v1/players/{player.pk}/ratings/fibs/short/").json()
    assert history["results"][0]["approved_by"] == "rita"
    player_page = client.get(reverse("player", args=[player.pk])).content.decode()
    assert f'href="/m/{match.pk}/"' in player_page and ">rita<" in player_page

    officer_view = client
    officer_view.force_login(User.objects.get(username="rita"))
    panel = officer_view.get(reverse("tournament", args=[site.tournament.slug])).content.decode()
    assert 'data-step="unrate"' in panel


@pytest.mark.django_db(transaction=True)
def test_the_tournaments_of_before_approvals_migrate_as_rated():
    executor = MigrationExecutor(connection)
    before, after = (
        ("tournaments", "0005_bounded_match_length_and_stake"),
        (
            "tournaments",
            "0006_rating_approval",
        ),
    )
    executor.migrate([before])
    old = executor.loader.project_state([before]).apps
    organizer = old.get_model("auth", "User").objects.create(username="old-olga")
    old.get_model("tournaments", "Tournament").objects.create(
        name="Old Cup", slug="old-cup", variant="short", organizer_id=organizer.pk
    )
    executor = MigrationExecutor(connection)
    executor.migrate([after])
    new = executor.loader.project_state([after]).apps
    migrated = new.get_model("tournaments", "Tournament").objects.get(slug="old-cup")
    assert (migrated.rated, migrated.rated_by_id) == (True, None)
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
