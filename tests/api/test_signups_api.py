"""Sign-up and check-in through the API, with the site's rules; every refusal is a 4xx in the
one error shape that changes nothing."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tournaments.models import Entry
from tournaments.services import tournament_create, tournament_open_registration
from tournaments.signups.models import SignUp

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    users = {name: User.objects.create_user(name) for name in ("olga", "anna", "boris", "carl")}
    tournament = tournament_create(
        organizer=users["olga"], name="Tuesday", slug="tuesday", variant="long",
        self_signup=True, capacity=2, signup_approval=True,
        starts_at=timezone.now() + timedelta(minutes=20), checkin_minutes=30,
    )  # fmt: skip
    tournament_open_registration(tournament=tournament, by=users["olga"])
    return users


def as_user(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


def test_the_whole_flow(client, world):
    base = "/api/v1/tournaments/tuesday/signups/"
    made = {}
    for name in ("anna", "boris", "carl"):
        response = as_user(client, world[name]).post(f"{base}new", {"display_name": name.title()})
        assert response.status_code == 201 and response.json()["state"] == "pending"
        made[name] = response.json()["id"]
    public = as_user(client, None).get(base).json()
    assert public["pending"] == [] and public["capacity"] == 2  # pending: organizers only
    as_user(client, world["olga"])
    assert len(client.get(base).json()["pending"]) == 3
    for name in ("anna", "boris", "carl"):
        client.post(f"{base}{made[name]}/approve")
    lists = client.get(base).json()
    assert [e["player"] for e in lists["entered"]] == ["Anna", "Boris"]
    assert [s["player"] for s in lists["waiting"]] == ["Carl"]
    withdrawn = as_user(client, world["anna"]).delete(f"{base}{made['anna']}/")
    assert withdrawn.status_code == 200 and withdrawn.json()["state"] == "withdrawn"
    lists = client.get(base).json()
    assert [e["player"] for e in lists["entered"]] == ["Boris", "Carl"] and lists["waiting"] == []
    carl = Entry.objects.get(player__display_name="Carl")
    checked = as_user(client, world["carl"]).post(
        f"/api/v1/tournaments/tuesday/entries/{carl.pk}/check-in"
    )
    assert checked.status_code == 200 and checked.json()["checked_in_at"]
    undo = client.delete(f"/api/v1/tournaments/tuesday/entries/{carl.pk}/check-in")
    assert undo.status_code == 403  # only organizers undo
    assert (
        as_user(client, world["olga"])
        .delete(f"/api/v1/tournaments/tuesday/entries/{carl.pk}/check-in")
        .json()["checked_in_at"]
        is None
    )


@pytest.mark.parametrize("who, expected", [(None, 401), ("boris", 403), ("anna", 403)])
def test_only_organizers_approve(client, world, who, expected):
    response = as_user(client, world["anna"]).post(
        "/api/v1/tournaments/tuesday/signups/new", {"display_name": "Anna"}
    )
    pk = response.json()["id"]
    refused = as_user(client, world.get(who)).post(
        f"/api/v1/tournaments/tuesday/signups/{pk}/approve"
    )
    assert refused.status_code == expected
    assert SignUp.objects.get().state == "pending"


def test_a_sign_up_without_a_name_or_twice_is_refused(client, world):
    as_user(client, world["anna"])
    missing = client.post("/api/v1/tournaments/tuesday/signups/new", {})
    assert missing.status_code == 400 and "no player yet" in missing.json()["error"]["message"]
    client.post("/api/v1/tournaments/tuesday/signups/new", {"display_name": "Anna"})
    twice = client.post("/api/v1/tournaments/tuesday/signups/new", {})
    assert twice.status_code == 409
    assert SignUp.objects.count() == 1
