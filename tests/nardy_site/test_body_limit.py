"""One limit on every request body (``nardy_site.body_limit``): a body over
``API_MAX_UPLOAD_BYTES`` is answered 413 before anything reads it, in the API's error shape under
/api/ and with a short page on the site, and nothing is changed."""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.test import Client, override_settings
from django.test.client import FakePayload
from django.urls import reverse

from tests.web.conftest import Site, make_site
from tournaments.matches.live.models import Draft
from tournaments.models import Match

pytestmark = pytest.mark.django_db

#: 2.1 MB: over the default limit of 2 MB.
HUGE = 2_100_000


@pytest.fixture
def site() -> Site:
    return make_site()


def post_unread(client: Client, url: str, body: bytes, content_type: str):
    """POST ``body``; the payload object tells afterwards whether anything read from it."""
    payload = FakePayload(body)
    response = client.post(url, body, content_type, **{"wsgi.input": payload})
    return response, payload


def huge_live_entry() -> bytes:
    entry = {"ply": 0, "action": {"dice": "31", "play": "8/5 6/5" + " " * HUGE}}
    return json.dumps(entry).encode()


def test_the_default_limit_is_under_the_huge_body():
    assert settings.API_MAX_UPLOAD_BYTES < HUGE
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE == settings.API_MAX_UPLOAD_BYTES


def test_a_huge_body_to_the_live_api_is_a_413_unread_and_changes_nothing(client, site):
    match = site.match("Anna", "Boris")
    client.force_login(site.players["Anna"])

    response, payload = post_unread(
        client, f"/api/v1/matches/{match.pk}/live", huge_live_entry(), "application/json"
    )

    assert response.status_code == 413
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "error": {
            "code": "payload_too_large",
            "message": (
                f"The request is {len(huge_live_entry())} bytes: larger than "
                f"{settings.API_MAX_UPLOAD_BYTES} bytes, the most this site accepts. Nothing was "
                "read or changed."
            ),
            "details": {"size": len(huge_live_entry()), "limit": settings.API_MAX_UPLOAD_BYTES},
        }
    }
    assert payload.read_started is False
    assert not Draft.objects.filter(match=match).exists()


def test_the_same_entry_under_the_limit_is_read(client, site):
    """The refusal above is the limit's: the same request, smaller, reaches the view."""
    match = site.match("Anna", "Boris")
    client.force_login(site.players["Anna"])
    body = json.dumps({"ply": 0, "action": {"first": 1}}).encode()

    response, payload = post_unread(
        client, f"/api/v1/matches/{match.pk}/live", body, "application/json"
    )

    assert response.status_code == 200, response.content
    assert payload.read_started is True
    assert Draft.objects.filter(match=match).exists()


def test_a_huge_mat_to_the_sites_result_form_is_a_413_page_unread(client, site):
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)
    boundary = "nardyboundary"
    body = (
        f'--{boundary}\r\nContent-Disposition: form-data; name="mode"\r\n\r\nmat\r\n'
        f'--{boundary}\r\nContent-Disposition: form-data; name="mat_text"\r\n\r\n'
        + "x" * HUGE
        + f"\r\n--{boundary}--\r\n"
    ).encode()

    response, payload = post_unread(
        client,
        reverse("match-report", args=[match.pk]),
        body,
        f"multipart/form-data; boundary={boundary}",
    )

    assert response.status_code == 413
    page = response.content.decode()
    assert response["Content-Type"].startswith("text/html")
    assert f"larger than {settings.API_MAX_UPLOAD_BYTES} bytes" in page
    assert "<main>" in page  # what the upload script puts in place of the form
    assert len(page) < 2_000
    assert payload.read_started is False
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert not match.games.exists()


def test_the_413_page_speaks_the_users_language(client, site):
    client.force_login(site.organizer)
    match = site.match("Anna", "Boris")

    response, _ = post_unread(
        client,
        reverse("match-report", args=[match.pk]),
        b"x" * HUGE,
        "application/x-www-form-urlencoded",
    )
    russian = client.post(
        reverse("match-report", args=[match.pk]),
        b"x" * HUGE,
        "application/x-www-form-urlencoded",
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    assert response.status_code == russian.status_code == 413
    assert '<html lang="en">' in response.content.decode()
    assert '<html lang="ru">' in russian.content.decode()


@override_settings(API_MAX_UPLOAD_BYTES=1_000)
def test_the_limit_is_the_setting_on_every_endpoint(client, site):
    """Not only results and records/validate: any write, here the creation of a player and a
    tournament, and the login page."""
    client.force_login(site.organizer)
    padding = "x" * 1_001
    for url, body in [
        ("/api/v1/players/new", json.dumps({"display_name": padding})),
        ("/api/v1/tournaments/new", json.dumps({"name": padding})),
    ]:
        response, payload = post_unread(client, url, body.encode(), "application/json")
        assert response.status_code == 413, url
        assert response.json()["error"]["code"] == "payload_too_large"
        assert payload.read_started is False
    login, payload = post_unread(
        Client(),
        reverse("login"),
        f"username={padding}".encode(),
        "application/x-www-form-urlencoded",
    )
    assert login.status_code == 413
    assert payload.read_started is False
