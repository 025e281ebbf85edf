"""Finding a player by name among a federation's: on the site (``/players/?q=``), in the API
(``players/?search=``) and in the entry forms, which take a typed name instead of a list of
every player. Cyrillic and Latin spellings find each other; a search is counted against the
client's rate."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests.support.database import database_state
from tournaments import services
from tournaments.models import Player

pytestmark = pytest.mark.django_db

NAMES = ["Виктор Петров", "Viktor Sokolov", "Пётр Викторов", "Hélène Şahin", "Anna Berzina"]


@pytest.fixture
def people() -> dict[str, Player]:
    return {name: Player.objects.create(display_name=name) for name in NAMES}


def found(client, query: str) -> list[str]:
    answer = client.get("/api/v1/players/", {"search": query})
    assert answer.status_code == 200
    return [player["display_name"] for player in answer.json()["results"]]


@pytest.mark.parametrize(
    ("query", "names"),
    [
        ("viktor", ["Viktor Sokolov", "Виктор Петров", "Пётр Викторов"]),  # begins first
        ("Петров", ["Виктор Петров"]),
        ("petrov VIK", ["Виктор Петров"]),  # every word, any order, any case
        ("викторов", ["Пётр Викторов"]),
        ("helene sahin", ["Hélène Şahin"]),
        ("nobody", []),
        ("%%%", []),  # no word: nothing, not everyone
    ],
)
def test_the_api_finds_players_in_either_script(client, people, query, names):
    assert found(client, query) == names  # (a typo's guesses only where no name has the words)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="pg_trgm's word similarity")
def test_a_name_a_typo_apart_is_found_when_none_has_the_words(client, people):
    assert found(client, "petrof") == ["Виктор Петров"]  # no name has "petrof"
    assert found(client, "sokolof") == ["Viktor Sokolov"]


def test_a_search_page_on_the_site(client, people):
    page = client.get(reverse("player-search"), {"q": "petrov"}).content.decode()
    assert f'href="/p/{people["Виктор Петров"].pk}/"' in page
    assert "Viktor Sokolov" not in page
    empty = client.get(reverse("player-search")).content.decode()
    assert 'name="q"' in empty and "players-found" not in empty
    assert "No player’s name has “zzz” in it." in client.get("/players/?q=zzz").content.decode()


def test_searches_are_counted_per_client(client, people, settings):
    settings.DRAWINGS_PER_CLIENT = "3/m"
    cache.clear()
    assert [client.get("/players/", {"q": f"a{n}"}).status_code for n in range(3)] == [200] * 3
    refused = client.get("/players/", {"q": "anna"})
    assert refused.status_code == 429 and "Retry-After" in refused
    api = client.get("/api/v1/players/", {"search": "anna"})
    assert api.status_code == 429 and api.json()["error"]["code"] == "throttled"
    assert client.get("/players/").status_code == 200  # the form itself is no search


def test_a_search_costs_the_same_queries_among_few_and_many(client, people):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert found(client, "a")
        return len(captured)

    few = queries()
    Player.objects.bulk_create(Player(display_name=f"Anna {n}", search_key=f"anna {n}")
                               for n in range(300))  # fmt: skip
    assert queries() == few


# --- The entry form ---------------------------------------------------------------------------


@pytest.fixture
def olga():
    return User.objects.create_user("olga-search", password="x")


@pytest.fixture
def draft(olga):
    return services.tournament_create(
        organizer=olga, name="Search Open", variant="short", match_length=5
    )


def add(client, olga, draft, name: str):
    client.force_login(olga)
    return client.post(
        reverse("tournament-players", args=[draft.slug]), {"action": "add", "player": name}
    )


def test_an_organizer_enters_a_player_by_typing_their_name(client, olga, draft, people):
    client.force_login(olga)
    page = client.get(reverse("tournament-players", args=[draft.slug])).content.decode()
    assert 'data-player-search="/api/v1/players/?search="' in page  # names offered as one types
    assert "<select" not in page.split('name="player"')[0][-300:]  # no list of every player
    assert add(client, olga, draft, "петров").status_code == 302  # the one name with it
    assert add(client, olga, draft, "anna berzina").status_code == 302  # the full name
    entered = set(draft.entries.values_list("player__display_name", flat=True))
    assert entered == {"Виктор Петров", "Anna Berzina"}


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        (
            "viktor",
            "Several players match “viktor” (Viktor Sokolov, Пётр Викторов): type the full name.",
        ),  # (Петров is entered already)
        ("nobody", "No player here is called “nobody”"),
    ],
)
def test_a_name_that_is_not_one_players_is_a_400_and_enters_nobody(
    client, olga, draft, people, typed, message
):
    assert add(client, olga, draft, "Виктор Петров").status_code == 302
    before = database_state()
    answer = add(client, olga, draft, typed)
    assert answer.status_code == 400
    assert message in answer.content.decode().replace("&ldquo;", "“").replace("&rdquo;", "”")
    assert database_state() == before
