"""A third-place match is played by the two semifinal losers. With 2 or 3 entrants there are no
two semifinals: the start goes on without it, and the organizer is told why, on the tournament
page before the start, in the message after it, and in the API's answer."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.models import Match, Player, Tournament

pytestmark = pytest.mark.django_db


def knockout(client, entrants: int) -> str:
    """A single elimination with a third-place match, ``entrants`` players, through the API."""
    olga = User.objects.create_user("olga", password="x")
    client.force_login(olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Small Cup", "variant": "long", "format": "single-elimination",
         "match_length": 3, "third_place": True},
        "application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    slug = made.json()["slug"]
    assert client.post(f"/api/v1/tournaments/{slug}/open-registration").status_code == 200
    for number in range(entrants):
        player = Player.objects.create(display_name=f"Player {number + 1}")
        added = client.post(
            f"/api/v1/tournaments/{slug}/entries/new", {"player_id": player.pk}, "application/json"
        )
        assert added.status_code == 201
    return slug


@pytest.mark.parametrize(("entrants", "matches"), [(2, 1), (3, 2), (4, 4)])
def test_the_third_place_match_is_played_only_with_two_semifinals(client, entrants, matches):
    slug = knockout(client, entrants)
    before = client.get(f"/api/v1/tournaments/{slug}/").json()["notices"]
    page = client.get(reverse("tournament", args=[slug])).content.decode()

    started = client.post(f"/api/v1/tournaments/{slug}/start")

    assert started.status_code == 200
    answer = started.json()
    assert answer["status"] == "running"
    tournament = Tournament.objects.get(slug=slug)
    assert tournament.matches.count() == matches
    has_third_place = Match.objects.filter(tournament=tournament, slot="3P").exists()
    assert has_third_place == (entrants >= 4)
    if entrants >= 4:
        assert before == answer["notices"] == []
        assert 'data-role="start-notice"' not in page
    else:
        expected = (
            "No third-place match: it is played by the two semifinal losers, so it needs at "
            f"least 4 players, and there are {entrants}."
        )
        assert before == answer["notices"] == [expected]
        assert expected in page


def test_the_organizer_starting_on_the_site_is_told_why(client):
    slug = knockout(client, 3)
    started = client.post(reverse("tournament-step", args=[slug, "start"]), follow=True)
    assert started.status_code == 200
    text = started.content.decode()
    assert "The tournament has started" in text
    assert text.count("No third-place match") == 1  # the start's message, not the panel again
    assert 'data-role="start-notice"' not in text
    assert Tournament.objects.get(slug=slug).status == Tournament.Status.RUNNING
