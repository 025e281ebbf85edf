"""The sign-up page, a tournament's public link: anyone sees who is in and who waits; a player
signs up (a player is made for a new user), withdraws and checks in there; the organizers approve,
decline and check players in; "my matches" lists the user's sign-ups; the start shows who has not
checked in. Every refusal is a 4xx that changes nothing."""

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from tournaments.models import Player, Tournament
from tournaments.services import tournament_create, tournament_open_registration
from tournaments.signups.models import SignUp
from tournaments.signups.services import signup_request

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="pw-olga-123")


@pytest.fixture
def users():
    return {name: User.objects.create_user(name, password=f"pw-{name}-123")
            for name in ("anna", "boris", "carl")}  # fmt: skip


def open_event(organizer, **settings) -> Tournament:
    tournament = tournament_create(
        organizer=organizer, name="Tuesday", variant="long", self_signup=True, **settings
    )
    return tournament_open_registration(tournament=tournament, by=organizer)


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def url(tournament) -> str:
    return reverse("tournament-signup", args=[tournament.slug])


def test_a_new_user_signs_up_under_a_name_and_sees_it_on_my_matches(client, olga, users):
    tournament = open_event(olga, capacity=8)
    client.force_login(users["anna"])
    page = client.get(url(tournament))
    assert "Your name as a player" in text(page) and "0 of 8 places taken" in text(page)
    response = client.post(url(tournament), {"action": "signup", "display_name": "Anna B"})
    assert response.status_code == 302
    page = client.get(url(tournament))
    assert "You are in." in text(page) and "1 of 8 places taken" in text(page)
    assert Player.objects.get(user=users["anna"]).display_name == "Anna B"
    mine = client.get(reverse("my-matches"))
    assert 'data-role="signups"' in mine.content.decode() and "Tuesday" in text(mine)


def test_the_waiting_list_and_a_withdrawal_on_the_page(client, olga, users):
    tournament = open_event(olga, capacity=2)
    for name in ("anna", "boris", "carl"):
        signup_request(tournament=tournament, by=users[name], display_name=name.title())
    client.force_login(users["carl"])
    page = text(client.get(url(tournament)))
    assert "On the waiting list" in page and "1 on the waiting list" in page
    client.force_login(users["anna"])
    anna = SignUp.objects.get(player__display_name="Anna")
    assert (
        client.post(url(tournament), {"action": "withdraw", "signup": anna.pk}).status_code == 302
    )
    states = dict(SignUp.objects.values_list("player__display_name", "state"))
    assert states == {"Anna": "withdrawn", "Boris": "entered", "Carl": "entered"}


def test_another_players_sign_up_cannot_be_withdrawn(client, olga, users):
    tournament = open_event(olga)
    anna = signup_request(tournament=tournament, by=users["anna"], display_name="Anna")
    client.force_login(users["boris"])
    response = client.post(url(tournament), {"action": "withdraw", "signup": anna.pk})
    assert response.status_code == 403 and "Only the player who signed up" in text(response)
    assert SignUp.objects.get().state == "entered"


@pytest.mark.parametrize(
    "data, status, message",
    [
        ({"action": "signup", "display_name": ""}, 400, "no player yet"),
        ({"action": "approve", "signup": "999"}, 400, "no such sign-up"),
        ({"action": "check-in", "entry": "x"}, 400, "no such entrant"),
        ({"action": "dance"}, 400, "Unknown action"),
    ],
)
def test_bad_posts_are_refused_and_change_nothing(client, olga, users, data, status, message):
    tournament = open_event(olga)
    client.force_login(users["anna"])
    response = client.post(url(tournament), data)
    assert response.status_code == status and message in text(response)
    assert not SignUp.objects.exists() and not tournament.entries.exists()


def test_a_visitor_is_asked_to_log_in_and_nothing_changes(client, olga):
    tournament = open_event(olga)
    assert "Log in to sign up" in text(client.get(url(tournament)))
    response = client.post(url(tournament), {"action": "signup", "display_name": "Ghost"})
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert not Player.objects.exists()


def test_organizers_approve_and_decline_on_the_page(client, olga, users):
    tournament = open_event(olga, signup_approval=True)
    anna = signup_request(tournament=tournament, by=users["anna"], display_name="Anna")
    boris = signup_request(tournament=tournament, by=users["boris"], display_name="Boris")
    client.force_login(users["carl"])
    assert 'data-role="pending"' not in client.get(url(tournament)).content.decode()
    assert client.post(url(tournament), {"action": "approve", "signup": anna.pk}).status_code == 403
    client.force_login(olga)
    assert 'data-role="pending"' in client.get(url(tournament)).content.decode()
    client.post(url(tournament), {"action": "approve", "signup": anna.pk})
    client.post(url(tournament), {"action": "decline", "signup": boris.pk})
    assert dict(SignUp.objects.values_list("player__display_name", "state")) == {
        "Anna": "entered", "Boris": "declined",
    }  # fmt: skip


def test_check_in_on_the_page_and_the_start_says_who_has_not(client, olga, users):
    tournament = open_event(olga, starts_at=timezone.now() + timedelta(minutes=10),
                            checkin_minutes=30)  # fmt: skip
    for name in ("anna", "boris", "carl"):
        signup_request(tournament=tournament, by=users[name], display_name=name.title())
    carl = tournament.entries.get(player__display_name="Carl")
    client.force_login(olga)  # an organizer checks Carl in
    assert client.post(url(tournament), {"action": "check-in", "entry": carl.pk}).status_code == 302
    client.force_login(users["anna"])
    page = client.get(url(tournament))
    assert "The check-in is open until the start." in text(page)
    entry = tournament.entries.get(player__display_name="Anna")
    assert (
        client.post(url(tournament), {"action": "check-in", "entry": entry.pk}).status_code == 302
    )
    entry.refresh_from_db()
    assert entry.checked_in_at is not None
    client.force_login(olga)
    overview = text(client.get(reverse("tournament", args=[tournament.slug])))
    assert "Not checked in, so withdrawn at the start: Boris." in overview
    client.post(reverse("tournament-step", args=[tournament.slug, "start"]))
    assert sorted(tournament.entries.values_list("player__display_name", flat=True)) == [
        "Anna", "Carl",
    ]  # fmt: skip
    assert Tournament.objects.get(pk=tournament.pk).status == "running"


def test_the_tournament_form_sets_up_sign_up_and_check_in(client, olga):
    from tests.security.conftest import TOURNAMENT_FORM  # noqa: PLC0415

    client.force_login(olga)
    response = client.post(
        reverse("tournament-create"),
        {**TOURNAMENT_FORM, "self_signup": "on", "capacity": "16", "signup_approval": "on",
         "starts_at": "2026-12-01T19:00", "checkin_minutes": "30"},
    )  # fmt: skip
    assert response.status_code == 302
    made = Tournament.objects.get()
    assert (made.self_signup, made.capacity, made.signup_approval, made.checkin_minutes) == (
        True, 16, True, 30,
    )  # fmt: skip
    assert made.starts_at is not None and made.checkin_opens_at() < made.starts_at
    refused = client.post(
        reverse("tournament-create"), {**TOURNAMENT_FORM, "checkin_minutes": "30"}
    )
    assert refused.status_code == 400 and "start time" in text(refused)
    assert Tournament.objects.count() == 1
