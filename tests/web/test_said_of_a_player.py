"""What the site says of a player is said in the player's grammatical gender where the profile
gives it, and in a phrasing that needs none where it does not (issue 46: "Не подтвердил" was
said of every player, women included)."""

import html
import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.template import Context, Template
from django.urls import reverse
from django.utils import timezone, translation

from tests.web.conftest import make_site
from tournaments import said
from tournaments.errors import Conflict
from tournaments.models import Player
from tournaments.services import (
    entry_withdraw,
    tournament_create,
    tournament_open_registration,
)
from tournaments.signups.services import signup_request

pytestmark = pytest.mark.django_db

SENTENCES = [value for value in vars(said).values() if isinstance(value, said.SaidOf)]


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.mark.parametrize("sentence", SENTENCES)
def test_every_sentence_has_a_womans_a_mans_and_a_neutral_russian_and_one_english(sentence):
    with translation.override("en"):
        english = {sentence.of(gender) for gender in ("female", "male", "")}
    with translation.override("ru"):
        woman, man, someone = (sentence.of(gender) for gender in ("female", "male", ""))
    assert len(english) == 1
    assert woman != man and someone not in (woman, man)
    assert english.isdisjoint({woman, man, someone})  # translated, each of them


def test_the_tag_says_a_sentence_of_a_player_with_the_values_escaped():
    page = Template('{% load players %}{% said "lost-on-time" player name=player.display_name %}')
    player = Player(display_name="<b>Ann</b>", gender="female")
    with translation.override("ru"):
        assert page.render(Context({"player": player})) == (
            "&lt;b&gt;Ann&lt;/b&gt; проиграла по времени"
        )
        player.gender = ""
        assert page.render(Context({"player": player})) == (
            "&lt;b&gt;Ann&lt;/b&gt;: поражение по времени"
        )
    with translation.override("en"):
        assert page.render(Context({"player": player})) == "&lt;b&gt;Ann&lt;/b&gt; lost on time"


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="pw-olga-123")


def open_event(organizer, **settings):
    tournament = tournament_create(
        organizer=organizer, name="Tuesday", variant="long", self_signup=True, **settings
    )
    return tournament_open_registration(tournament=tournament, by=organizer)


def test_the_check_in_list_says_who_has_not_checked_in_by_their_gender(client, olga):
    tournament = open_event(
        olga, starts_at=timezone.now() + timedelta(minutes=10), checkin_minutes=30
    )
    for name, gender in (("Anna", "female"), ("Boris", "male"), ("Carl", "")):
        user = User.objects.create_user(name.lower(), password="pw-x-12345")
        signup_request(tournament=tournament, by=user, display_name=name)
        Player.objects.filter(display_name=name).update(gender=gender)
    url = reverse("tournament-signup", args=[tournament.slug])
    russian = text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Anna Не подтвердила участие" in russian
    assert "Boris Не подтвердил участие" in russian
    assert "Carl Участие не подтверждено" in russian
    english = text(client.get(url, HTTP_ACCEPT_LANGUAGE="en"))
    assert english.count("Not checked in") == 3


def test_a_second_sign_up_is_refused_in_the_players_gender(olga):
    tournament = open_event(olga, signup_approval=True)  # the sign-up waits
    anna = User.objects.create_user("anna", password="pw-x-12345")
    signup_request(tournament=tournament, by=anna, display_name="Anna")
    Player.objects.filter(display_name="Anna").update(gender="female")
    with translation.override("ru"), pytest.raises(Conflict) as refused:
        signup_request(tournament=tournament, by=anna, display_name="Anna")
    assert "Anna уже подала заявку" in str(refused.value)


def test_a_withdrawn_player_is_said_so_in_their_gender(client):
    site = make_site(rated=False)
    for name, gender in (("Anna", "female"), ("Boris", "male"), ("Carl", "")):
        Player.objects.filter(display_name=name).update(gender=gender)
        entry = site.tournament.entries.get(player__display_name=name)
        entry_withdraw(entry=entry, by=site.organizer)
    url = reverse("tournament", args=[site.tournament.slug])
    page = text(client.get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Anna снята с турнира" in page
    assert "Boris снят с турнира" in page
    assert "Carl вне турнира" in page
    assert "Dina вне турнира" not in page and "Dina снят" not in page
