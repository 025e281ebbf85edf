"""A new player finds "Sign up" without passing through the login page (issue 46): beside "Log in"
in every page's header, and on a tournament that takes sign-ups a call to create an account that
comes back to the tournament's sign-up. The call is the same for every visitor, so the copy
visitors share carries it; a signed-in reader is not asked to create an account."""

import html
import re
from urllib.parse import quote

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Player
from tournaments.services import tournament_create, tournament_open_registration

pytestmark = pytest.mark.django_db

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="pw-olga-123")


@pytest.fixture
def tuesday(olga):
    tournament = tournament_create(organizer=olga, name="Tuesday", variant="long", self_signup=True)
    return tournament_open_registration(tournament=tournament, by=olga)


def create_account_link(tournament) -> str:
    signup_page = reverse("tournament-signup", args=[tournament.slug])
    return f'href="{reverse("signup")}?next={quote(signup_page, safe="/")}"'


def test_a_visitor_is_called_to_create_an_account_on_a_tournament_that_takes_sign_ups(tuesday):
    url = reverse("tournament", args=[tuesday.slug])
    first, second = Client().get(url), Client().get(url)
    assert create_account_link(tuesday) in first.content.decode()
    assert 'data-role="signup-invitation"' in first.content.decode()
    each = [TOKEN.sub("", page.content.decode()) for page in (first, second)]
    assert each[0] == each[1]  # one copy for every visitor (each with a CSRF token of their own)
    signup_page = Client().get(reverse("tournament-signup", args=[tuesday.slug]))
    assert create_account_link(tuesday) in signup_page.content.decode()
    assert "Log in to sign up" in text(signup_page)


def test_no_call_where_there_is_no_sign_up_or_for_a_signed_in_reader(olga, tuesday):
    closed = tournament_create(organizer=olga, name="Closed", variant="long")
    closed = tournament_open_registration(tournament=closed, by=olga)
    page = Client().get(reverse("tournament", args=[closed.slug])).content.decode()
    assert 'data-role="signup-call"' not in page
    reader = Client()
    reader.force_login(User.objects.create_user("rita", password="pw-rita-123"))
    page = reader.get(reverse("tournament", args=[tuesday.slug])).content.decode()
    assert 'data-role="signup-call"' not in page


def test_the_header_offers_sign_up_beside_log_in_coming_back_to_the_page(tuesday):
    url = reverse("tournament", args=[tuesday.slug])
    page = Client().get(url).content.decode()
    header = page.split('class="account"')[1].split("</div>")[0]
    assert f'href="{reverse("login")}?next={quote(url, safe="/")}"' in header
    assert f'href="{reverse("signup")}?next={quote(url, safe="/")}"' in header


def test_a_new_player_creates_an_account_and_comes_back_to_sign_up(tuesday):
    visitor = Client()
    signup_page = reverse("tournament-signup", args=[tuesday.slug])
    created = visitor.post(
        reverse("signup"),
        {
            "username": "anna",
            "password1": "a-long-pass-phrase-1",
            "password2": "a-long-pass-phrase-1",
            "next": signup_page,
        },
    )
    assert created.status_code == 302 and created["Location"] == signup_page
    form = text(visitor.get(signup_page))
    assert "Your name as a player" in form
    posted = visitor.post(signup_page, {"action": "signup", "display_name": "Anna K"})
    assert posted.status_code == 302
    assert tuesday.entries.filter(player__display_name="Anna K").exists()
    assert Player.objects.get(display_name="Anna K").user.username == "anna"


def test_the_call_in_russian(tuesday):
    url = reverse("tournament", args=[tuesday.slug])
    page = text(Client().get(url, HTTP_ACCEPT_LANGUAGE="ru"))
    assert "Запись открыта" in page
    assert "Создать учётную запись и записаться" in page and "Войдите, чтобы записаться" in page
    assert "Регистрация" in page  # the header's "Sign up"
