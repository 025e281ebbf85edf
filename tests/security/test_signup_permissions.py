"""The permission matrix of the sign-up page: the tournament's organizer, an organizer of its club
and of another club, the player who signed up, another user, staff and an anonymous visitor. A
visitor is sent to the login page; a user who may not act gets 403 and the page with the reason;
one who may is sent on (302); a refused action changes nothing. An organizer of another club who
entered the players in a tournament of their own has no right here either. The same actions
through the API: test_stage_and_signup_api_permissions.py."""

import pytest
from django.urls import reverse

from tournaments.models import Entry, Tournament
from tournaments.signups.models import SignUp
from tournaments.signups.services import entry_check_in

from .conftest import LOGIN, assert_expected, persona_users, tuesday_with_signups

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "other_club_organizer", "entering_organizer",
            "club_organizer", "organizer", "staff")  # fmt: skip
ORGANIZERS = {"anonymous": LOGIN, "outsider": 403, "player": 403, "other_club_organizer": 403,
              "entering_organizer": 403, "club_organizer": 302, "organizer": 302,
              "staff": 302}  # fmt: skip
THE_PLAYER_TOO = {**ORGANIZERS, "player": 302}
SIGNED_IN = {persona: 302 for persona in PERSONAS} | {"anonymous": LOGIN}


@pytest.fixture
def world():
    users = persona_users(PERSONAS)
    tuesday_with_signups(users)
    return users


def signup_of(name: str) -> int:
    return SignUp.objects.get(player__display_name=name).pk


def entered_pavel() -> int:
    """Pavel's sign-up approved: the entry to check in."""
    signup = SignUp.objects.get(player__display_name="Pavel")
    entry = Entry.objects.create(tournament=signup.tournament, player=signup.player)
    SignUp.objects.filter(pk=signup.pk).update(state="entered", entry=entry)
    return entry.pk


def checked_in_pavel() -> int:
    pk = entered_pavel()
    entry = Entry.objects.get(pk=pk)
    entry_check_in(entry=entry, by=Tournament.objects.get(slug="tuesday").organizer)
    return pk


def snapshot() -> dict:
    return {
        "signups": sorted(SignUp.objects.values_list("player__display_name", "state")),
        "entries": list(
            Entry.objects.order_by("pk").values_list(
                "tournament__slug", "player__display_name", "withdrawn", "checked_in_at"
            )
        ),
    }


ACTIONS = {
    "approve": (lambda: {"action": "approve", "signup": signup_of("Mila")}, ORGANIZERS),
    "decline": (lambda: {"action": "decline", "signup": signup_of("Mila")}, ORGANIZERS),
    "withdraw the player's": (lambda: {"action": "withdraw", "signup": signup_of("Pavel")},
                              THE_PLAYER_TOO),
    "check the player in": (lambda: {"action": "check-in", "entry": entered_pavel()},
                            THE_PLAYER_TOO),
    "undo a check-in": (lambda: {"action": "check-in-undo", "entry": checked_in_pavel()},
                        ORGANIZERS),
    "sign up": (lambda: {"action": "signup", "display_name": "Newcomer"},
                {**SIGNED_IN, "player": 409}),  # Pavel has signed up already
}  # fmt: skip


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("persona", PERSONAS)
def test_signup_actions(client, world, action, persona):
    body, expected = ACTIONS[action]
    data = body()
    if world[persona] is not None:
        client.force_login(world[persona])
    state = snapshot()

    response = client.post(reverse("tournament-signup", args=["tuesday"]), data)

    assert_expected(response, expected[persona], persona)
    if response.status_code == 302 and expected[persona] != LOGIN:
        assert snapshot() != state, "an allowed action changed nothing: is the test still real?"
    else:
        assert snapshot() == state
    if response.status_code in (403, 409):
        assert 'role="alert"' in response.content.decode()


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_signup_page_is_for_everyone(client, world, persona):
    if world[persona] is not None:
        client.force_login(world[persona])
    page = client.get(reverse("tournament-signup", args=["tuesday"])).content.decode()
    assert ('data-role="pending"' in page) == (ORGANIZERS[persona] == 302)
