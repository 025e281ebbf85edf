"""Reading through the API: what anyone may see, lists with filters, standings and rating lists
with ETags."""

from collections.abc import Iterator

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command

from tests.support.api_numbers import assert_numbers
from tests.support.demo import unanalysed
from tests.support.shared_rows import rows_for_the_module
from tournaments.demo import DEMO_TOURNAMENT_SLUG
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def demo_seeded() -> None:
    with unanalysed():
        call_command("seed_demo", verbosity=0)
    # Rating tasks run on commit, which a test's transaction never reaches: replay them here.
    call_command("ratings_recompute", verbosity=0)


@pytest.fixture(scope="module")
def demo_once(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The demo club, seeded once for the module's readers (each test in a savepoint)."""
    yield from rows_for_the_module(django_db_blocker, demo_seeded)


@pytest.fixture
def demo(demo_once, db) -> None:
    """The demo club, for one test."""


def test_anyone_reads_public_tournaments_but_drafts_only_their_organizers(client):
    olga = User.objects.create_user("olga", password="x")
    Tournament.objects.create(name="Secret", slug="secret", variant="long", organizer=olga)
    Tournament.objects.create(
        name="Open", slug="open", variant="long", status=Tournament.Status.REGISTRATION
    )

    public = [t["slug"] for t in client.get("/api/v1/tournaments/").json()["results"]]
    assert public == ["open"]
    assert client.get("/api/v1/tournaments/secret/").status_code == 404

    client.force_login(olga)
    mine = {t["slug"] for t in client.get("/api/v1/tournaments/").json()["results"]}
    assert mine == {"open", "secret"}
    detail = client.get("/api/v1/tournaments/secret/").json()
    assert detail["organizer"] == "olga" and detail["match_length"] == 5


def test_lists_filter_and_order(client, demo):
    short = client.get("/api/v1/tournaments/", {"variant": "short"}).json()["results"]
    assert {t["variant"] for t in short} == {"short"} and len(short) == 4  # with the Friday Open
    players = client.get("/api/v1/players/", {"ordering": "-display_name"}).json()
    names = [p["display_name"] for p in players["results"]]
    assert names == sorted(names, reverse=True) and players["count"] == 16


def test_matches_and_their_games(client, demo):
    matches = client.get(f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}/matches/").json()
    decided = [m for m in matches["results"] if m["away"] is not None]
    assert len(decided) == 28 and all(m["status"] == "final" for m in decided)
    games = client.get(f"/api/v1/matches/{decided[0]['id']}/games/").json()
    assert games and games[0]["actions"][0].keys() == {"dice", "play"}
    assert sum(g["points"] for g in games if g["winner"]) >= 3


def test_standings_carry_an_etag_and_answer_304_when_unchanged(client, demo):
    url = f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}/standings/"
    first = client.get(url)
    assert first.status_code == 200
    rows = first.json()
    assert [row["rank"] for row in rows][0] == 1 and len(rows) == 8
    assert set(rows[0]["tiebreaks"]) == {"sonneborn-berger", "direct-encounter", "wins"}
    again = client.get(url, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again["ETag"] == first["ETag"]


def test_rating_lists_and_histories(client, demo):
    page = client.get("/api/v1/ratings/fibs/long/").json()
    rows = page["results"]
    assert page["count"] == len(rows) == 8 + 6 and rows[0]["rank"] == 1  # the championship and
    assert (page["next"], page["previous"]) == (None, None)  # the evenings: one page
    assert rows[0]["rating"] >= rows[-1]["rating"]
    history = client.get(f"/api/v1/players/{rows[0]['player_id']}/ratings/fibs/long/").json()
    assert history["count"] == rows[0]["matches"]
    assert history["results"][-1]["after"] == pytest.approx(rows[0]["rating"])
    assert (
        client.get("/api/v1/ratings/fibs/long/", headers={"if-none-match": "x"}).status_code == 200
    )


def test_a_tournaments_games_export_as_mat_and_its_standings_as_csv(client, demo, tmp_path):
    from games.rules.cli import check_file  # noqa: PLC0415
    from games.rules.matfile import read_match  # noqa: PLC0415

    matches = client.get(f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}/matches/").json()
    played = next(m for m in matches["results"] if m["away"] is not None)
    one = client.get(f"/api/v1/matches/{played['id']}/record.mat")
    assert one.status_code == 200 and one["Content-Type"].startswith("text/plain")
    path = tmp_path / "one.mat"
    path.write_bytes(one.content)
    code, report = check_file(str(path))
    assert code == 0 and report["valid"]
    record = read_match(one.content.decode())
    assert record.players == (played["home"], played["away"])
    assert record.variant.name == "long" and record.length == 3

    everything = client.get(f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}/games.mat").content
    assert everything.decode().count(" point match") == 28

    csv_text = client.get(f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}/standings.csv")
    lines = csv_text.content.decode().splitlines()
    assert lines[0].startswith("rank,player,match_points,wins,draws,losses")
    assert lines[0].endswith("sonneborn-berger,direct-encounter,wins") and len(lines) == 9


def test_scores_points_and_ratings_are_json_numbers_in_one_precision(client, demo):
    """Points and scores to one decimal place, ratings and tie-breaks to two: numbers, where
    decimals were strings ("3.0") before."""
    base = f"/api/v1/tournaments/{DEMO_TOURNAMENT_SLUG}"
    tournament = client.get(f"{base}/").json()
    assert_numbers(tournament, 1, "points_win", "points_draw", "points_loss", "points_bye")
    assert tournament["points_draw"] == 0.5
    matches = client.get(f"{base}/matches/").json()
    assert_numbers(matches, 1, "score_home", "score_away")
    one = client.get(f"/api/v1/matches/{matches['results'][0]['id']}/").json()
    assert_numbers(one, 1, "score_home", "score_away")
    standings = client.get(f"{base}/standings/").json()
    assert_numbers(standings, 1, "match_points", "game_points_for", "game_points_against")
    assert_numbers(standings, 2, "tiebreaks")
    ratings = client.get("/api/v1/ratings/fibs/long/").json()
    assert_numbers(ratings, 2, "rating", "last_change")
    assert any(row["rating"] != int(row["rating"]) for row in ratings["results"])  # not whole
    player = ratings["results"][0]["player_id"]
    history = client.get(f"/api/v1/players/{player}/ratings/fibs/long/").json()
    assert_numbers(history, 1, "score")
    assert_numbers(history, 2, "before", "after", "delta")


CLOSED_SET_PATHS = [
    "/api/v1/ratings/{system}/{discipline}/",
    "/api/v1/ratings/{system}/{discipline}/holds/",
    "/api/v1/ratings/{system}/{discipline}/audit/",
    "/api/v1/players/{id}/ratings/{system}/{discipline}/",
    "/api/v1/clubs/{slug}/ratings/{system}/{discipline}/",
]


@pytest.mark.parametrize("path", CLOSED_SET_PATHS)
@pytest.mark.parametrize(
    ("system", "discipline"), [("glicko", "long"), ("fibs", "backgammon"), ("fibs", "long-pairs")]
)
def test_an_unknown_rating_system_or_discipline_is_a_404_in_the_error_shape(
    client, path, system, discipline
):
    """Not 200 with an empty list, as before: the path names no list."""
    olga = User.objects.create_user("olga", password="x")
    client.force_login(olga)  # holds and audit need a user: the 404 comes first all the same
    url = path.format(system=system, discipline=discipline, id=1, slug="riga")
    response = client.get(url)
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert client.get("/api/v1/ratings/fibs/long/").status_code == 200  # a known list: empty


def test_the_schema_gives_the_rating_systems_and_disciplines_as_enums(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    for path in CLOSED_SET_PATHS:
        parameters = {
            parameter["name"]: parameter["schema"]
            for parameter in schema["paths"][path]["get"]["parameters"]
            if parameter["in"] == "path"
        }
        # The enums its fields use: one type each in a generated client.
        assert parameters["system"] == {"$ref": "#/components/schemas/RatingSystemEnum"}
        assert parameters["discipline"] == {"$ref": "#/components/schemas/DisciplineEnum"}
    enums = schema["components"]["schemas"]
    assert enums["RatingSystemEnum"]["enum"] == list(Tournament.RatingSystem.values)
    assert enums["DisciplineEnum"]["enum"] == list(Tournament.Discipline.values)
