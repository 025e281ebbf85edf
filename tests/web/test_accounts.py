"""Signing up, logging in and out on the site's pages."""

import html

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

pytestmark = pytest.mark.django_db

PASSWORD = "long-nardy-2024"


def test_a_visitor_signs_up_is_logged_in_and_goes_back_where_they_came_from(client):
    response = client.post(
        reverse("signup"),
        {"username": "anna", "password1": PASSWORD, "password2": PASSWORD, "next": "/me/matches/"},
    )

    assert response.status_code == 302 and response.url == "/me/matches/"
    assert User.objects.filter(username="anna").exists()
    assert client.get(reverse("my-matches")).status_code == 200


def test_without_a_safe_next_page_a_new_account_lands_on_the_home_page(client):
    response = client.post(
        reverse("signup"),
        {"username": "anna", "password1": PASSWORD, "password2": PASSWORD,
         "next": "https://elsewhere.example/"},
    )  # fmt: skip

    assert response.status_code == 302 and response.url == reverse("home")


def test_a_signup_that_does_not_check_out_is_a_400_and_makes_no_account(client):
    User.objects.create_user("boris", password=PASSWORD)

    mismatch = client.post(
        reverse("signup"), {"username": "anna", "password1": PASSWORD, "password2": "other"}
    )
    taken = client.post(
        reverse("signup"), {"username": "boris", "password1": PASSWORD, "password2": PASSWORD}
    )

    assert mismatch.status_code == 400 and taken.status_code == 400
    assert "The two password fields didn’t match." in html.unescape(mismatch.content.decode())
    assert "A user with that username already exists." in html.unescape(taken.content.decode())
    assert list(User.objects.values_list("username", flat=True)) == ["boris"]


def test_the_signup_and_login_pages_keep_the_next_page(client):
    signup = client.get(reverse("signup"), {"next": "/t/cup/"})
    login = client.get(reverse("login"), {"next": "/t/cup/"})

    assert signup.status_code == 200 and login.status_code == 200
    assert 'name="next" value="/t/cup/"' in signup.content.decode()
    assert 'name="next" value="/t/cup/"' in login.content.decode()


def test_a_player_logs_in_and_out(client):
    User.objects.create_user("anna", password=PASSWORD)

    logged_in = client.post(
        reverse("login"), {"username": "anna", "password": PASSWORD, "next": "/me/matches/"}
    )
    logged_out = client.post(reverse("logout"))

    assert logged_in.status_code == 302 and logged_in.url == "/me/matches/"
    assert logged_out.status_code == 302
    assert client.get(reverse("my-matches")).status_code == 302


def test_a_wrong_password_is_a_400_with_the_reason(client):
    User.objects.create_user("anna", password=PASSWORD)

    response = client.post(reverse("login"), {"username": "anna", "password": "guess"})

    assert response.status_code == 400
    assert "Please enter a correct username and password." in response.content.decode()
    assert "_auth_user_id" not in client.session
