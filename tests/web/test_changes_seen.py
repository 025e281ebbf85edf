"""Whoever changes a thing sees the change (issue 46): a signed-in user whose write succeeded, on
the site or through the API, is served no shared copy older than their change, while everyone
else keeps the shared copy (nardy_site.page_cache.ChangeMakersMiddleware, ``changed_lately``)."""

from __future__ import annotations

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from nardy_site import page_cache
from tournaments.models import Match
from tournaments.web import public

#: Long enough that no shared copy is drawn again within a test by the clock alone.
REFRESH = {"PUBLIC_PAGE_REFRESH_SECONDS": 60}


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def status_shown(client: Client, match: Match) -> str:
    page = client.get(reverse("match", args=[match.pk])).content.decode()
    return "reported" if "Reported" in page else "scheduled" if "Scheduled" in page else page


@override_settings(**REFRESH)
def test_a_player_who_reports_sees_the_match_reported_at_once(site, monkeypatch):
    match = site.match("Anna", "Boris")
    anna, carl = signed_in(site.players["Anna"]), signed_in(site.players["Carl"])
    anonymous = Client()
    assert {status_shown(reader, match) for reader in (anna, carl, anonymous)} == {"scheduled"}

    reported = anna.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "1"},
    )
    assert reported.status_code == 302
    assert status_shown(anna, match) == "reported"  # not the copy drawn before, 60 s long

    # The others keep the shared copy: the one the reporter's view drew, served as it is.
    drawn: list[str] = []
    monkeypatch.setattr(public, "render", lambda *args, **kwargs: drawn.append("page"))
    assert status_shown(carl, match) == "reported"
    assert status_shown(anonymous, match) == "reported"
    assert drawn == []


@override_settings(**REFRESH)
def test_a_change_through_the_api_is_seen_by_its_maker_on_the_site(site):
    match = site.match("Anna", "Boris")
    boris = signed_in(site.players["Boris"])
    assert status_shown(boris, match) == "scheduled"

    answer = boris.post(
        f"/api/v1/matches/{match.pk}/result",
        {"score": [1, 3]},
        content_type="application/json",
    )

    assert answer.status_code == 200, answer.content
    assert status_shown(boris, match) == "reported"


@override_settings(**REFRESH)
def test_a_refused_write_or_a_read_marks_nobody(site):
    match = site.match("Anna", "Boris")
    carl = signed_in(site.players["Carl"])
    refused = carl.post(
        reverse("match-report", args=[match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "1"},
    )
    carl.get(reverse("match", args=[match.pk]))
    assert refused.status_code == 403
    assert not page_cache.changed_lately(site.players["Carl"])
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED


@override_settings(**REFRESH)
def test_the_api_standings_follow_their_reader_s_change(site):
    url = f"/api/v1/tournaments/{site.tournament.slug}/standings/"
    organizer = signed_in(site.organizer)
    before = organizer.get(url).json()
    assert max(row["match_points"] for row in before) == 0

    corrected = organizer.post(
        f"/api/v1/matches/{site.match('Anna', 'Boris').pk}/result",
        {"score": [3, 1]},
        content_type="application/json",
    )

    assert corrected.status_code == 200, corrected.content
    assert page_cache.changed_lately(site.organizer)
    assert max(row["match_points"] for row in organizer.get(url).json()) > 0


def test_the_maker_gets_the_current_copy_while_another_request_draws_it():
    versions = iter(["1", "2", "2"])

    def serve(latest: bool) -> str:
        return page_cache.fresh_or_stale(
            "k", lambda: next(versions), lambda: f"page {latest}", refresh=0, latest=latest
        )

    assert serve(False) == "page False"
    claim = f"shared:{page_cache._SHAPE}:k:rendering"
    page_cache.cache.add(claim, "2")  # another request is drawing version 2
    assert serve(False) == "page False"  # a reader gets the copy there is
    assert serve(True) == "page True"  # the maker of version 2 gets version 2 drawn for them
    assert page_cache.cache.get(claim) == "2"  # the other request's claim is left to it


@pytest.mark.parametrize("method", ["get", "head", "options"])
def test_reading_is_no_change(site, method):
    carl = signed_in(site.players["Carl"])
    getattr(carl, method)(reverse("match", args=[site.match("Anna", "Boris").pk]))
    assert not page_cache.changed_lately(site.players["Carl"])
