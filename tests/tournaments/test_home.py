from collections.abc import Iterator

import pytest

from tests.support.demo import demo_seeded
from tests.support.shared_rows import rows_for_the_module
from tournaments.demo import DEMO_TOURNAMENT_NAME

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[None]:
    """The demo club, seeded once for the module's tests (each in a savepoint of its own).
    The home page with no tournament at all is ``test_home_empty``."""
    yield from rows_for_the_module(django_db_blocker, demo_seeded)


def test_it_lists_tournaments_with_their_player_counts(client, demo):
    response = client.get("/")

    tournaments = {t.name: t.entry_count for t in response.context["tournaments"]}
    assert tournaments[DEMO_TOURNAMENT_NAME] == 8
    # 5 entered in the Friday Open so far, 3 club evenings of 6.
    assert sorted(tournaments.values()) == [5, 6, 6, 6, 8, 12, 16, 16]
    assert DEMO_TOURNAMENT_NAME in response.content.decode()


def test_it_speaks_russian_when_the_browser_asks_for_it(client, demo):
    response = client.get("/", headers={"accept-language": "ru"})

    page = response.content.decode()
    assert '<html lang="ru">' in page
    assert "Турниры" in page
    assert "Длинные нарды" in page
