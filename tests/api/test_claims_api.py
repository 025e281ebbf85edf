"""Claims and merges through the API, with the site's rules."""

import pytest
from django.contrib.auth.models import User

from tournaments.clubs.services import club_create
from tournaments.models import Entry, Player
from tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    olga, anna, mila = (User.objects.create_user(n) for n in ("olga", "anna", "mila"))
    riga = club_create(by=olga, name="Riga")
    players = [Player.objects.create(display_name=n, home_club=riga) for n in ("Anna", "Anna B.")]
    for player in players:
        event = tournament_create(organizer=olga, name=f"N {player}", variant="long", club=riga)
        Entry.objects.create(tournament=event, player=player)
    return olga, anna, mila, players


def test_claim_and_approve(client, world):
    olga, anna, mila, (player, _) = world
    client.force_login(anna)
    made = client.post(f"/api/v1/players/{player.pk}/claim")
    assert made.status_code == 201 and made.json()["state"] == "pending"
    client.force_login(mila)
    assert client.get("/api/v1/claims/").json()["count"] == 0
    refused = client.post(f"/api/v1/claims/{made.json()['id']}/approve")
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "not_allowed"
    client.force_login(olga)
    assert client.get("/api/v1/claims/").json()["count"] == 1
    approved = client.post(f"/api/v1/claims/{made.json()['id']}/approve")
    assert approved.json()["state"] == "approved"
    player.refresh_from_db()
    assert player.user == anna


def test_merge(client, world):
    olga, _, mila, (keep, duplicate) = world
    client.force_login(mila)
    refused = client.post(f"/api/v1/players/{keep.pk}/merge", {"duplicate": duplicate.pk})
    assert refused.status_code == 403 and Player.objects.count() == 2
    client.force_login(olga)
    merged = client.post(f"/api/v1/players/{keep.pk}/merge", {"duplicate": duplicate.pk})
    assert merged.status_code == 200 and merged.json()["display_name"] == "Anna"
    assert Player.objects.count() == 1 and Entry.objects.filter(player=keep).count() == 2
    itself = client.post(f"/api/v1/players/{keep.pk}/merge", {"duplicate": keep.pk})
    assert itself.status_code == 400
