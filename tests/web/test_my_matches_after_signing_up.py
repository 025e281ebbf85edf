"""A player who signs up themselves is linked to their entry by the sign-up: "My matches" lists
the sign-up and then the matches, and never asks them to wait for an organizer to link the entry
(issue 46). A pair's two players see the pair's matches: the pair's record has no account."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tests.tournaments.test_pairs import enter_pairs_by_api, pairs_event
from tournaments.models import Player
from tournaments.services import (
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def signed_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="pw-olga-123")


def test_a_player_who_signed_up_sees_the_sign_up_then_the_matches_and_no_wait_for_a_link(olga):
    tournament = tournament_create(
        organizer=olga, name="Tuesday", variant="long", format="round-robin", self_signup=True
    )
    tournament = tournament_open_registration(tournament=tournament, by=olga)
    clients = {}
    for name in ("Anna", "Boris", "Carl"):
        clients[name] = signed_in(User.objects.create_user(name.lower(), password="pw-x-12345"))
        signup = reverse("tournament-signup", args=[tournament.slug])
        posted = clients[name].post(signup, {"action": "signup", "display_name": name})
        assert posted.status_code == 302
    anna = clients["Anna"]

    before = anna.get(reverse("my-matches"))
    assert 'data-role="signups"' in before.content.decode() and "Tuesday Entered" in text(before)
    assert "as soon as their rounds are paired" in text(before)
    assert "organizer" not in text(before).split("My sign-ups")[1]
    russian = text(anna.get(reverse("my-matches"), HTTP_ACCEPT_LANGUAGE="ru"))
    assert "как только будут составлены пары" in russian and "организатор" not in russian

    tournament_start(tournament=tournament, by=olga)
    after = anna.get(reverse("my-matches"))
    assert 'data-role="to_play"' in after.content.decode()
    assert 'data-role="no-matches-yet"' not in after.content.decode()
    to_play = text(after).split("To play")[1]
    assert "Tuesday" in to_play and ("Boris" in to_play or "Carl" in to_play)


def test_a_user_in_no_tournament_is_told_how_to_get_matches(olga):
    page = text(signed_in(olga).get(reverse("my-matches")))
    assert "sign up for one on its page, or ask its organizer to link your entry" in page


def test_the_two_players_of_a_pair_see_the_pairs_matches(olga):
    tournament = pairs_event(olga, "round-robin")
    people = []
    for name in ("Anna", "Boris", "Carl", "Dina"):
        user = User.objects.create_user(name.lower(), password="pw-x-12345")
        people.append(Player.objects.create(display_name=name, user=user))
    enter_pairs_by_api(olga, tournament, people)
    tournament_start(tournament=tournament, by=olga)
    for member in people:
        page = signed_in(member.user).get(reverse("my-matches"))
        assert 'data-role="to_play"' in page.content.decode(), member
        mine, theirs = ("Team 1", "Team 2") if member.display_name < "C" else ("Team 2", "Team 1")
        row = text(page).split("To play")[1]
        assert theirs in row and mine not in row  # the opponent is the other pair
        assert "Report the result" in row  # a pair's two players report as their pair
