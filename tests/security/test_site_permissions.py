"""Who sees the organizer's pages of the site (the writes they post are rows of the generated
matrix, test_permission_matrix.py): a visitor is sent to the login page (302), a signed-in user
who may not see them gets 403, one who may gets the page (200)."""

import pytest
from django.urls import reverse

from .conftest import LOGIN, PERSONAS, assert_expected

ORGANIZERS = {
    "anonymous": LOGIN, "player": 403, "opponent": 403, "another_player": 403,
    "other_organizer": 403, "organizer": 302, "staff": 302, "rating_officer": 403,
}  # fmt: skip
ORGANIZER_PAGES = {**ORGANIZERS, "organizer": 200, "staff": 200}


# --- States the actions need (the world's tournament runs, its one match is scheduled) ----------


def client_as(client, world, persona):
    user = world.users[persona]
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("page", ["tournament-edit", "tournament-players"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_organizer_pages_are_shown_to_organizers_only(client, world, page, persona):
    response = client_as(client, world, persona).get(reverse(page, args=["cup"]))

    assert_expected(response, ORGANIZER_PAGES[persona], persona)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_create_page_and_my_matches_need_a_sign_in_only(client, world, persona):
    client_as(client, world, persona)

    pages = [client.get(reverse("tournament-create")), client.get(reverse("my-matches"))]

    for response in pages:
        assert_expected(response, LOGIN if persona == "anonymous" else 200, persona)
