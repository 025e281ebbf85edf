"""A sign-up is decided only under its own tournament: an organizer of another tournament gets
404 for it in the one error shape, and nothing changes (the writes of stage 2 and of sign-ups, by
every persona, with a session and a token, are rows of the generated matrix,
test_permission_matrix.py)."""

import pytest

from tests.support.database import database_state
from tournaments.signups.models import SignUp

from .conftest import persona_users, tuesday_with_signups

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "other_club_organizer", "entering_organizer",
            "club_organizer", "organizer", "staff")  # fmt: skip


def assert_refused(response, expected: int, persona: str) -> None:
    assert response.status_code == expected, (persona, response.content[:500])
    assert set(response.json()["error"]) == {"code", "message", "details"}, persona


@pytest.fixture
def tuesday_world():
    users = persona_users(PERSONAS)
    tuesday_with_signups(users)
    return users


def signup_of(name: str) -> SignUp:
    return SignUp.objects.get(tournament__slug="tuesday", player__display_name=name)


@pytest.mark.parametrize("action", ["approve", "decline"])
def test_a_signup_is_decided_only_under_its_own_tournament(client, tuesday_world, action):
    """The organizer of Tallinn's tournament names it in the address with Riga's sign-up: not
    found, and the sign-up still waits."""
    mila = signup_of("Mila")
    client.force_login(tuesday_world["entering_organizer"])
    state = database_state()

    response = client.post(f"/api/v1/tournaments/tallinn-evening/signups/{mila.pk}/{action}")

    assert_refused(response, 404, "entering_organizer")
    assert database_state() == state
    assert signup_of("Mila").state == SignUp.State.PENDING
