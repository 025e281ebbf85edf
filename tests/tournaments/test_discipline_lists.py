"""Each discipline is rated on a list of its own (issue 48): a long-blitz tournament played to
its end rates its players on the long-blitz list and leaves the classical list untouched; the
migration that gave the lists their disciplines moves the blitz results rated on a classical
list to their own list through the backlog, which the beat's catch-up replays."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client

from tournaments import services
from tournaments.backup.export import tournament_export
from tournaments.clubs.models import Club
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.ratings import ledger
from tournaments.ratings import services as approvals
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import Rating, RatingChange, RatingList
from tournaments.scoring.clock import TimeControl

pytestmark = pytest.mark.django_db

BLITZ = TimeControl("delay", 60, 10).as_json()  # long-blitz: 1'+10"
CLASSICAL = TimeControl("delay", 14 * 60, 8).as_json()  # long: 14'+8"


@pytest.fixture
def commit(django_capture_on_commit_callbacks, eager_tasks):
    def run(call):  # the write and the rating tasks it enqueues, as when it commits
        with django_capture_on_commit_callbacks(execute=True):
            return call()

    return run


def played(olga: User, people: list[Player], commit, *, name: str, clock: dict) -> Tournament:
    """A rated Long Nardy knockout of ``people`` on ``clock``, played to its end (home wins)."""
    cup = services.tournament_create(
        organizer=olga, name=name, variant="long", format="single-elimination",
        match_length=3, time_control=clock,
    )  # fmt: skip
    for person in people:
        services.entry_register(tournament=cup, by=olga, player=person)
    officer, _ = User.objects.get_or_create(username=f"rita-{cup.discipline}")
    rating_list_of(cup).officers.add(officer)
    commit(lambda: approvals.ratings_approve(tournament=cup, by=officer))
    commit(lambda: services.tournament_start(tournament=cup, by=olga))
    while cup.matches.filter(status=Match.Status.SCHEDULED).exists():
        for match in (
            cup.matches.filter(status=Match.Status.SCHEDULED)
            .exclude(home__isnull=True)
            .exclude(away__isnull=True)
            .order_by("pk")
        ):
            commit(lambda m=match: match_result_record(match=m, by=olga, score=(3, 1)))
    return cup


def test_blitz_results_never_move_a_classical_rating(commit):
    olga = User.objects.create_user("olga")
    people = [
        Player.objects.create(display_name=name) for name in ("Anna", "Boris", "Carl", "Dina")
    ]
    long = played(olga, people, commit, name="Long", clock=CLASSICAL)
    assert long.discipline == Tournament.Discipline.LONG
    classical = RatingList.objects.get(system="fibs", discipline="long")
    before = sorted(Rating.objects.filter(rating_list=classical).values_list("player", "rating"))
    ledger_before = RatingChange.objects.filter(rating_list=classical).count()
    assert len(before) == 4 and ledger_before > 0

    blitz = played(olga, people, commit, name="Blitz", clock=BLITZ)

    assert blitz.discipline == Tournament.Discipline.LONG_BLITZ
    after = sorted(Rating.objects.filter(rating_list=classical).values_list("player", "rating"))
    assert after == before
    assert RatingChange.objects.filter(rating_list=classical).count() == ledger_before
    own = RatingList.objects.get(system="fibs", discipline="long-blitz")
    assert Rating.objects.filter(rating_list=own).count() == 4
    assert set(
        RatingChange.objects.filter(rating_list=own).values_list("match__tournament", flat=True)
    ) == {blitz.pk}
    assert ledger.ratings_verify() == {}


BEFORE = ("tournaments", "0036_protocol_example_rank_norms")
AFTER = ("tournaments", "0037_rating_lists_by_discipline")


@pytest.mark.django_db(transaction=True)
def test_the_migration_moves_blitz_results_to_their_list_through_the_catch_up():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    model = old.get_model
    lists, tournaments = (
        model("tournaments", "RatingList").objects,
        model("tournaments", "Tournament").objects,
    )
    olga = model("auth", "User").objects.create(username="olga")
    rita = model("auth", "User").objects.create(username="rita")
    people = [
        model("tournaments", "Player").objects.create(display_name=name)
        for name in ("Anna", "Boris", "Carl")
    ]
    classical = lists.create(system="fibs", variant="long", pairs=False)
    classical.officers.add(rita)
    pairs = lists.create(system="fibs", variant="short", pairs=True)
    moment = datetime(2026, 5, 1, tzinfo=UTC)
    made = {}
    for slug, discipline, clock in (("long", "long", CLASSICAL), ("blitz", "long-blitz", BLITZ)):
        event = tournaments.create(
            name=slug, slug=slug, variant="long", status="finished", rated=True,
            organizer=olga, time_control=clock, discipline=discipline, match_length=3,
        )  # fmt: skip
        entries = [event.entries.create(player=person, seed=n) for n, person in enumerate(people)]
        made[slug] = (event, entries)
    # Old results, rated on the classical list in the order they came: long, blitz, long.
    rounds = [("long", 0, 1), ("blitz", 0, 2), ("long", 1, 2)]
    for minutes, (slug, home, away) in enumerate(rounds):
        event, entries = made[slug]
        match = model("tournaments", "Match").objects.create(
            tournament=event, home=entries[home], away=entries[away], status="final",
            score_home=3, score_away=1, winner=entries[home],
            decided_at=moment + timedelta(minutes=minutes),
        )  # fmt: skip
        for entry, score in ((entries[home], 1.0), (entries[away], 0.0)):
            model("tournaments", "RatingChange").objects.create(
                rating_list=classical, player=entry.player, match=match,
                finished_at=match.decided_at, score=score, before=1500, after=1500 + score,
                delta=score, experience_before=0, experience_after=3,
            )  # fmt: skip
    model("tournaments", "RatingAudit").objects.create(
        rating_list=classical, action="approval", tournament=made["blitz"][0], note="blitz"
    )

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    executor.loader.build_graph()
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    assert dict(RatingList.objects.values_list("pk", "discipline")) == {
        classical.pk: "long",
        pairs.pk: "short-pairs",
        RatingList.objects.get(discipline="long-blitz").pk: "long-blitz",
    }
    blitz_list = RatingList.objects.get(discipline="long-blitz")
    assert list(blitz_list.officers.values_list("username", flat=True)) == ["rita"]
    assert list(blitz_list.audit.values_list("note", flat=True)) == ["blitz"]
    # Nothing replayed yet: the backlog asks for both lists, the blitz one from its start.
    behind = ledger.ratings_behind()
    blitz_match = Match.objects.get(tournament__slug="blitz")
    assert behind == {
        ("fibs", "long-blitz"): None,
        ("fibs", "long"): (blitz_match.decided_at, blitz_match.pk),
    }

    assert ledger.ratings_catch_up() == 2  # the blitz match on its list, the long one after it

    assert ledger.ratings_behind() == {} and ledger.ratings_verify() == {}
    on_classical = RatingChange.objects.filter(rating_list=classical.pk)
    assert set(on_classical.values_list("match__tournament__slug", flat=True)) == {"long"}
    assert set(
        RatingChange.objects.filter(rating_list=blitz_list).values_list("match_id", flat=True)
    ) == {blitz_match.pk}
    carl = Rating.objects.get(rating_list=classical.pk, player__display_name="Carl")
    assert carl.matches == 1  # lost to Boris in the long event; his blitz loss is on its list
    assert Rating.objects.filter(rating_list=blitz_list).count() == 2
    Tournament.objects.all().delete()


def test_each_list_has_its_addresses_and_the_old_ones_keep_answering(commit):
    olga = User.objects.create_user("olga")
    people = [
        Player.objects.create(display_name=name) for name in ("Anna", "Boris", "Carl", "Dina")
    ]
    played(olga, people, commit, name="Long", clock=CLASSICAL)
    blitz = played(olga, people[:2], commit, name="Blitz", clock=BLITZ)
    client = Client()

    def names(answer) -> set[str]:
        assert answer.status_code == 200, answer.content
        return {row["player"] for row in answer.json()["results"]}

    assert names(client.get("/api/v1/ratings/fibs/long/")) == {"Anna", "Boris", "Carl", "Dina"}
    assert names(client.get("/api/v1/ratings/fibs/long-blitz/")) == {"Anna", "Boris"}
    assert names(client.get("/api/v1/ratings/fibs/short-pairs/")) == set()
    # The pairs' list's old address answers as its own.
    old, new = (
        client.get(f"/api/v1/ratings/fibs/{path}") for path in ("short/?pairs=1", "short-pairs/")
    )
    assert old.json() == new.json()
    anna = people[0]
    history = client.get(f"/api/v1/players/{anna.pk}/ratings/fibs/long-blitz/").json()
    assert {row["tournament"] for row in history["results"]} == {blitz.slug}
    assert len(history["results"]) == 1
    officer = User.objects.get(username="rita-long-blitz")
    client.force_login(officer)
    assert client.get("/api/v1/ratings/fibs/long-blitz/holds/").status_code == 200
    trail = client.get("/api/v1/ratings/fibs/long-blitz/audit/").json()
    assert {row["tournament"] for row in trail["results"]} == {blitz.slug}
    client.logout()

    # The API's tournaments say their discipline and are filtered by it.
    listed = client.get("/api/v1/tournaments/", {"discipline": "long-blitz"}).json()["results"]
    assert [(row["slug"], row["discipline"]) for row in listed] == [(blitz.slug, "long-blitz")]
    assert client.get("/api/v1/tournaments/", {"discipline": "chess"}).status_code == 400

    # The page: a switch between the five lists, each list its own players.
    page = client.get("/ratings/long-blitz/").content.decode()
    switch = page[page.index('data-role="discipline-switch"') :]
    assert all(f'data-discipline="{value}"' in switch for value in Tournament.Discipline.values)
    assert 'data-discipline="long-blitz" aria-current="page"' in switch
    table = page[page.index('data-role="rating-list"') :]
    assert "Anna" in table and "Carl" not in table
    assert "Carl" in client.get("/ratings/long/").content.decode()
    assert client.get("/ratings/backgammon/").status_code == 404

    # The player's page: a rating history per list, and their matches filtered by discipline.
    own = client.get(f"/p/{anna.pk}/").content.decode()
    assert "FIBS · Long Nardy blitz:" in own and "FIBS · Long Nardy:" in own
    matches = own[own.index('data-role="player-matches"') :]
    assert ">Blitz</a>" in matches and ">Long</a>" in matches
    blitz_only = client.get(f"/p/{anna.pk}/", {"discipline": "long-blitz"}).content.decode()
    assert 'data-role="discipline-filter"' in blitz_only
    matches = blitz_only[blitz_only.index('data-role="player-matches"') :]
    assert ">Blitz</a>" in matches and ">Long</a>" not in matches


def test_the_tournament_lists_show_the_discipline_and_filter_by_it(commit):
    olga = User.objects.create_user("olga")
    club = Club.objects.create(name="Riga", slug="riga")
    club.memberships.create(user=olga, role="owner")
    season = club.seasons.create(name="2026", slug="2026", starts_on="2026-01-01")
    made = {}
    for name, clock in (("Classical", CLASSICAL), ("Blitz", BLITZ)):
        made[name] = services.tournament_create(
            organizer=olga, name=name, variant="long", match_length=3, time_control=clock,
            club=club, season=season,
        )  # fmt: skip
        services.tournament_open_registration(tournament=made[name], by=olga)
    client = Client()

    home = client.get("/", {"discipline": "long-blitz"}).content.decode()
    assert 'id="filter-discipline"' in home
    listed = home[home.index('data-role="tournament-list"') :]
    assert "Blitz" in listed and "Classical" not in listed
    assert 'data-discipline="long-blitz"' in listed
    both = client.get("/").content.decode()
    assert "Long Nardy blitz" in both and "Classical" in both

    club_page = client.get("/c/riga/", {"discipline": "long"}).content.decode()
    assert 'data-role="discipline-filter"' in club_page
    shown = club_page[club_page.index('id="club-tournaments"') : club_page.index("club-seasons")]
    assert "Classical" in shown and ">Blitz<" not in shown

    season_page = client.get("/c/riga/s/2026/", {"discipline": "long-blitz"}).content.decode()
    events = season_page[season_page.index('data-role="events"') :]
    events = events[: events.index("</ol>")]
    assert ">Blitz<" in events and ">Classical<" not in events

    page = client.get(f"/t/{made['Blitz'].slug}/").content.decode()
    assert '<span data-role="discipline">Long Nardy blitz</span>' in page
    rules = page[page.index('data-role="rules"') :]
    assert "Long Nardy blitz (code 0690022811Л)" in html.unescape(rules)


def test_the_backup_document_carries_the_discipline(db):
    olga = User.objects.create_user("olga")
    blitz = services.tournament_create(
        organizer=olga, name="Blitz", variant="short", match_length=5, time_control=BLITZ
    )
    assert tournament_export(blitz)["tournament"]["discipline"] == "short-blitz"
