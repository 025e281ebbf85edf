"""What each persona reads of who players are (the identity writes are rows of the generated
matrix, test_permission_matrix.py): the claims and the trail list only what the user may decide,
the pages offer each action only to who may, and a player's profile is the player's and their
home club's. Among the personas the organizer of another club who entered Riga's players in a
tournament of their own, started it and recorded their match: an entry gives no right."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.clubs.models import Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player
from tournaments.players.services import claim_request, player_create, players_merge
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

from .conftest import LOGIN, assert_expected, persona_users

pytestmark = pytest.mark.django_db

PERSONAS = ("anonymous", "outsider", "claimant", "linked", "entered_by_other_club",
            "club_organizer", "owner", "staff")  # fmt: skip
RUNNERS = {"anonymous": 401, "outsider": 403, "claimant": 403, "linked": 403,
           "entered_by_other_club": 403, "club_organizer": 200, "owner": 200,
           "staff": 200}  # fmt: skip
THE_ACCOUNT_TOO = {**RUNNERS, "linked": 200}


@pytest.fixture
def world():
    """Riga (its owner and an organizer) makes P (claimed by "claimant"), its duplicate P.,
    L (linked to "linked"), and M and M. which staff merged. The owner of Tallinn entered P and L
    in Tallinn's tournament, started it and recorded P's match against L."""
    users = persona_users(PERSONAS)
    riga = club_create(by=users["owner"], name="Riga")
    member_add(club=riga, by=users["owner"], username="club_organizer",
               role=Membership.Role.ORGANIZER)  # fmt: skip
    tallinn = club_create(by=users["entered_by_other_club"], name="Tallinn")
    made = {name: player_create(by=users["owner"], display_name=name, club=riga)
            for name in ("P", "P.", "L", "M", "M.")}  # fmt: skip
    Player.objects.filter(pk=made["L"].pk).update(user=users["linked"])
    claim_request(player=made["P"], by=users["claimant"])
    players_merge(keep=made["M"], drop=made["M."], by=users["staff"])
    other = users["entered_by_other_club"]
    trap = tournament_create(organizer=other, name="Trap", variant="long", club=tallinn,
                             match_length=1)  # fmt: skip
    tournament_open_registration(tournament=trap, by=other)
    for name in ("P", "L"):
        entry_register(tournament=trap, player=made[name], by=other)
    tournament_start(tournament=trap, by=other)
    for match in Match.objects.filter(tournament=trap, away__isnull=False):
        match_result_record(match=match, by=other, score=(1, 0))
    return users


def pk(name: str) -> int:
    return Player.objects.get(display_name=name).pk


def signed_in(client, world, persona):
    if world[persona] is not None:
        client.force_login(world[persona])
    return client


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_claims_and_the_trail_list_only_what_the_user_may_decide(client, world, persona):
    if world[persona] is None:
        assert client.get("/api/v1/claims/").status_code == 401
        return
    client.force_login(world[persona])
    claims = client.get("/api/v1/claims/").json()["count"]
    trail = client.get("/api/v1/identity/").json()["count"]
    decides = RUNNERS[persona] == 200
    assert (claims, trail) == ((1, 1) if decides else (0, 0)), persona
    page = client.get(reverse("player-claims")).content.decode()
    assert ('data-role="claims"' in page) == decides


def test_the_site_pages_offer_each_action_only_to_who_may(client, world):
    users = world
    client.force_login(users["entered_by_other_club"])
    page = client.get(reverse("player", args=[pk("L")])).content.decode()
    assert 'data-action="unlink"' not in page and "player-merge" not in page
    client.force_login(users["linked"])
    page = client.get(reverse("player", args=[pk("L")])).content.decode()
    assert 'data-action="unlink"' in page
    client.force_login(users["club_organizer"])
    page = client.get(reverse("player", args=[pk("L")])).content.decode()
    assert 'data-action="unlink"' in page and reverse("player-merge", args=[pk("L")]) in page
    trail = client.get(reverse("identity-trail")).content.decode()
    assert 'data-action="merged"' in trail and 'data-action="undo-merge"' not in trail
    client.force_login(users["staff"])
    trail = client.get(reverse("identity-trail")).content.decode()
    assert 'data-action="undo-merge"' in trail
    assert User.objects.filter(username="staff", is_staff=True).exists()


@pytest.mark.parametrize("persona", PERSONAS)
def test_a_players_profile_is_the_players_and_their_home_clubs_only(client, world, persona):
    """Gender and birth year are personal: the player's account, the home club's runners and
    staff read and change them; not the organizer who entered the player in their tournament."""
    expected = THE_ACCOUNT_TOO[persona]
    address = f"/api/v1/players/{pk('L')}/profile"
    client = signed_in(client, world, persona)

    assert client.get(address).status_code == expected, persona
    response = client.patch(address, {"gender": "female", "birth_year": 1990}, "application/json")

    assert response.status_code == expected, (persona, response.content)
    changed = Player.objects.filter(pk=pk("L"), gender="female", birth_year=1990).exists()
    assert changed == (expected == 200)
    page = client.get(reverse("player-profile", args=[pk("L")]))
    assert_expected(page, {401: LOGIN, 403: 403, 200: 200}[expected], persona)
