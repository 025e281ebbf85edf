"""The pages of a recording: the recorder page (who may open it, the state it starts from), the
match page's button and live view, and the tournament pages that point to the matches being
recorded now (shared pages: rendered again when a recording starts and when it ends)."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client

from tests.web.conftest import make_site

pytestmark = pytest.mark.django_db


def client_of(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def start_recording(site, match) -> None:
    player = site.players[match.home.player.display_name]
    answer = client_of(player).post(
        f"/api/v1/matches/{match.pk}/live", {"ply": 0, "action": {"dice": "31"}}, "application/json"
    )
    assert answer.status_code == 200, answer.content


def test_the_players_and_organizers_open_the_recorder_and_nobody_else():
    site = make_site(variant="long")
    match = site.match("Anna", "Boris")
    start_recording(site, match)
    for user in (site.players["Anna"], site.players["Boris"], site.organizer):
        page = client_of(user).get(f"/m/{match.pk}/record/")
        assert page.status_code == 200
        state = json.loads(re.search(r'id="live-state"[^>]*>(.*?)</script>', page.text).group(1))
        assert (state["ply"], state["dice"], state["variant"]) == (1, "31", "long")
    organizer_page = client_of(site.organizer).get(f"/m/{match.pk}/record/").text
    assert 'data-action="discard"' in organizer_page  # organizers alone may discard
    assert (
        'data-action="discard"'
        not in client_of(site.players["Anna"]).get(f"/m/{match.pk}/record/").text
    )
    refused = client_of(site.players["Carl"]).get(f"/m/{match.pk}/record/")
    assert refused.status_code == 403
    assert "Only the players of this match, an organizer or a judge" in refused.text
    anonymous = client_of().get(f"/m/{match.pk}/record/")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert client_of(site.organizer).get("/m/99999/record/").status_code == 404


def test_the_match_page_offers_recording_to_its_players_and_shows_spectators_the_live_board():
    site = make_site()
    match = site.match("Anna", "Boris")
    player_page = client_of(site.players["Anna"]).get(f"/m/{match.pk}/").text
    assert f'href="/m/{match.pk}/record/"' in player_page
    public_page = client_of().get(f"/m/{match.pk}/").text
    assert f'href="/m/{match.pk}/record/"' not in public_page
    assert (
        f'data-follow="/api/v1/matches/{match.pk}/live/next"' in public_page
    )  # the live view, hidden
    assert "nardy/live.js" in public_page


def test_the_tournament_pages_mark_the_matches_recorded_now_until_the_recording_is_discarded():
    site = make_site()
    match = site.match("Anna", "Boris")
    slug = site.tournament.slug
    anonymous = client_of()
    assert 'data-role="recorded-now"' not in anonymous.get(f"/t/{slug}/").text
    assert 'data-role="live"' not in anonymous.get(f"/t/{slug}/rounds/").text

    start_recording(site, match)
    overview = anonymous.get(f"/t/{slug}/").text
    now = overview[overview.index('data-role="recorded-now"') :]
    assert f'href="/m/{match.pk}/"' in now.split("</section>")[0]
    assert 'data-role="live"' in anonymous.get(f"/t/{slug}/rounds/").text

    discarded = client_of(site.organizer).delete(f"/api/v1/matches/{match.pk}/live")
    assert discarded.status_code == 204
    assert 'data-role="recorded-now"' not in anonymous.get(f"/t/{slug}/").text
    assert 'data-role="live"' not in anonymous.get(f"/t/{slug}/rounds/").text


def test_the_recorder_page_is_in_russian_for_a_russian_reader():
    site = make_site()
    match = site.match("Anna", "Boris")
    client = client_of(site.players["Anna"])
    client.cookies["django_language"] = "ru"
    page = client.get(f"/m/{match.pk}/record/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    assert 'lang="ru"' in page.text and "Отменить" in page.text
