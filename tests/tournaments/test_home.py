import pytest

from tournaments.demo import DEMO_TOURNAMENT_NAME, demo_data_seed

pytestmark = pytest.mark.django_db


def test_it_says_what_the_service_is_and_that_there_are_no_tournaments_yet(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"A tournament service for Long Nardy and Short Nardy clubs" in response.content
    assert b"No tournaments yet." in response.content


def test_it_lists_tournaments_with_their_player_counts(client):
    demo_data_seed()

    response = client.get("/")

    tournaments = {t.name: t.entry_count for t in response.context["tournaments"]}
    assert tournaments[DEMO_TOURNAMENT_NAME] == 8
    # 5 entered in the Friday Open so far, 3 club evenings of 6.
    assert sorted(tournaments.values()) == [5, 6, 6, 6, 8, 12, 16, 16]
    assert DEMO_TOURNAMENT_NAME in response.content.decode()


def test_it_speaks_russian_when_the_browser_asks_for_it(client):
    demo_data_seed()

    response = client.get("/", headers={"accept-language": "ru"})

    page = response.content.decode()
    assert '<html lang="ru">' in page
    assert "Турниры" in page
    assert "Длинные нарды" in page
