"""The permission matrices of building and resetting stage 2 (``POST`` / ``DELETE
tournaments/<slug>/stage-2``) and of approving and declining a sign-up (``POST
tournaments/<slug>/signups/<id>/approve`` / ``decline``) through the API, beside the site's
(test_stage_permissions.py, test_signup_permissions.py). They are the tournament's organizer's,
its club's organizers' and staff's; the anonymous get 401, anyone else 403 in the one error shape,
an organizer of another club who entered the tournament's players in a tournament of their own
included. A refused call changes nothing; an allowed one does what it says. Each call is made with
a session and with a token."""

import pytest
from django.contrib.auth.models import User

from nardy_site.accounts.models import ApiToken
from tournaments.models import Entry, Match, Tournament
from tournaments.signups.models import SignUp
from tournaments.stages.services import stage_two_build

from .conftest import cup_after_stage_one, persona_users, tuesday_with_signups

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "player", "other_club_organizer", "entering_organizer",
            "club_organizer", "organizer", "staff")  # fmt: skip
ALLOWED = "allowed"
ORGANIZERS = {"anonymous": 401, "outsider": 403, "player": 403, "other_club_organizer": 403,
              "entering_organizer": 403, "club_organizer": ALLOWED, "organizer": ALLOWED,
              "staff": ALLOWED}  # fmt: skip
AUTHS = ("session", "token")


def signed_in(client, user: User | None, auth: str) -> dict[str, str]:
    """Sign the client in as ``user`` (None: stay anonymous); the headers to send."""
    if user is None:
        return {}
    if auth == "session":
        client.force_login(user)
        return {}
    _, key = ApiToken.issue(user=user, name="matrix")
    return {"HTTP_AUTHORIZATION": f"Token {key}"}


def assert_refused(response, expected: int, persona: str) -> None:
    assert response.status_code == expected, (persona, response.content[:500])
    assert set(response.json()["error"]) == {"code", "message", "details"}, persona


# --- Stage 2 -----------------------------------------------------------------------------------


@pytest.fixture
def cup_world():
    users = persona_users(PERSONAS)
    cup_after_stage_one(users)
    return users


def stage_snapshot() -> dict:
    return {
        "tournaments": list(
            Tournament.objects.order_by("pk").values_list("pk", "slug", "stage", "status")
        ),
        "entries": list(Entry.objects.order_by("pk").values_list("pk", "tournament_id", "seed")),
        "matches": list(
            Match.objects.order_by("pk").values_list(
                "pk", "tournament_id", "status", "score_home", "score_away", "winner_id"
            )
        ),
    }


def stage_two() -> Tournament | None:
    return Tournament.objects.filter(parent__slug="cup", stage=2).first()


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("persona", PERSONAS)
def test_building_stage_two(client, cup_world, persona, auth):
    headers = signed_in(client, cup_world[persona], auth)
    state = stage_snapshot()

    response = client.post("/api/v1/tournaments/cup/stage-2", **headers)

    if ORGANIZERS[persona] == ALLOWED:
        assert response.status_code == 201, (persona, response.content[:500])
        assert response.json()["slug"] == "cup-stage-2"
        built = stage_two()
        assert built is not None and built.status == Tournament.Status.RUNNING
        assert built.entries.count() == 2 and built.matches.exists()
    else:
        assert_refused(response, ORGANIZERS[persona], persona)
        assert stage_snapshot() == state
        assert stage_two() is None


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize("persona", PERSONAS)
def test_resetting_stage_two(client, cup_world, persona, auth):
    stage_two_build(event=Tournament.objects.get(slug="cup"), by=cup_world["organizer"])
    headers = signed_in(client, cup_world[persona], auth)
    state = stage_snapshot()

    response = client.delete("/api/v1/tournaments/cup/stage-2", **headers)

    if ORGANIZERS[persona] == ALLOWED:
        assert response.status_code == 204, (persona, response.content[:500])
        assert stage_two() is None
        assert not Match.objects.filter(tournament__slug="cup-stage-2").exists()
    else:
        assert_refused(response, ORGANIZERS[persona], persona)
        assert stage_snapshot() == state
        assert stage_two() is not None


# --- Sign-up decisions -------------------------------------------------------------------------


@pytest.fixture
def tuesday_world():
    users = persona_users(PERSONAS)
    tuesday_with_signups(users)
    return users


def signup_snapshot() -> dict:
    return {
        "signups": list(
            SignUp.objects.order_by("pk").values_list("pk", "state", "entry_id", "decided_at")
        ),
        "entries": list(
            Entry.objects.order_by("pk").values_list(
                "pk", "tournament__slug", "player__display_name", "withdrawn", "checked_in_at"
            )
        ),
    }


def signup_of(name: str) -> SignUp:
    return SignUp.objects.get(tournament__slug="tuesday", player__display_name=name)


#: (action, whose sign-up) → its state once allowed
DECISIONS = {
    ("approve", "Mila"): SignUp.State.ENTERED,
    ("decline", "Mila"): SignUp.State.DECLINED,
    ("approve", "Pavel"): SignUp.State.ENTERED,  # "player" approving their own: refused too
}


@pytest.mark.parametrize("auth", AUTHS)
@pytest.mark.parametrize(("action", "name"), list(DECISIONS))
@pytest.mark.parametrize("persona", PERSONAS)
def test_deciding_a_signup(client, tuesday_world, persona, action, name, auth):
    signup = signup_of(name)
    assert signup.state == SignUp.State.PENDING
    headers = signed_in(client, tuesday_world[persona], auth)
    state = signup_snapshot()

    response = client.post(f"/api/v1/tournaments/tuesday/signups/{signup.pk}/{action}", **headers)

    if ORGANIZERS[persona] == ALLOWED:
        assert response.status_code == 200, (persona, response.content[:500])
        assert response.json()["state"] == DECISIONS[action, name]
        assert signup_of(name).state == DECISIONS[action, name]
        entered = Entry.objects.filter(tournament__slug="tuesday", player__display_name=name)
        assert entered.exists() == (action == "approve")
    else:
        assert_refused(response, ORGANIZERS[persona], persona)
        assert signup_snapshot() == state


@pytest.mark.parametrize("action", ["approve", "decline"])
def test_a_signup_is_decided_only_under_its_own_tournament(client, tuesday_world, action):
    """The organizer of Tallinn's tournament names it in the address with Riga's sign-up: not
    found, and the sign-up still waits."""
    mila = signup_of("Mila")
    client.force_login(tuesday_world["entering_organizer"])
    state = signup_snapshot()

    response = client.post(f"/api/v1/tournaments/tallinn-evening/signups/{mila.pk}/{action}")

    assert_refused(response, 404, "entering_organizer")
    assert signup_snapshot() == state
    assert signup_of("Mila").state == SignUp.State.PENDING
