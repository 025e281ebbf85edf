"""The sign-up page is for everyone to read (its writes are rows of the generated matrix,
test_permission_matrix.py)."""

import pytest
from django.urls import reverse

from .conftest import LOGIN, persona_users, tuesday_with_signups

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "other_club_organizer", "entering_organizer",
            "club_organizer", "organizer", "staff")  # fmt: skip
ORGANIZERS = {"anonymous": LOGIN, "outsider": 403, "player": 403, "other_club_organizer": 403,
              "entering_organizer": 403, "club_organizer": 302, "organizer": 302,
              "staff": 302}  # fmt: skip


@pytest.fixture
def world():
    users = persona_users(PERSONAS)
    tuesday_with_signups(users)
    return users


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_signup_page_is_for_everyone(client, world, persona):
    if world[persona] is not None:
        client.force_login(world[persona])
    page = client.get(reverse("tournament-signup", args=["tuesday"])).content.decode()
    assert ('data-role="pending"' in page) == (ORGANIZERS[persona] == 302)
