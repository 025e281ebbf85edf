"""Rate limits on corrections, uploads and analysis requests (``nardy_site.throttle``): per user
and per tournament, answered 429 with Retry-After and a message saying when to come back, in the
API and on the site's pages; a refused write changes nothing; the limit lapses with its window;
a cache that fails lets the writes through.

django-ratelimit's windows follow the clock, so the tests hold its clock still (``clock``) and
move it on by hand: no test sleeps."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from decimal import Decimal
from types import SimpleNamespace
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from games.rules import MatchGame, action_to_json
from games.rules.matfile import match_record, write_match
from tests.web.conftest import Site, make_site
from tournaments import services
from tournaments.matches import results
from tournaments.models import Match

pytestmark = pytest.mark.django_db

SCORES = ([3, 0], [3, 1], [3, 2], [0, 3], [1, 3], [2, 3])


class Clock:
    """django-ratelimit's ``time.time()``, still until moved."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def time(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> Iterator[Clock]:
    still = Clock()
    with mock.patch("django_ratelimit.core.time", SimpleNamespace(time=still.time)):
        yield still


@pytest.fixture
def site(clock) -> Site:
    return make_site()


@pytest.fixture
def decided(site: Site) -> Match:
    """Anna–Boris with Olga's final result 3–1."""
    match = site.match("Anna", "Boris")
    return results.match_result_record(match=match, by=site.organizer, score=(3, 1))


def client_of(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def correct(client: Client, match: Match, n: int):
    url = f"/api/v1/matches/{match.pk}/correct"
    return client.post(url, {"score": SCORES[n % len(SCORES)]}, "application/json")


def result_of(match: Match) -> tuple:
    match.refresh_from_db()
    return match.status, match.score_home, match.score_away, match.updated_at


def assert_throttled(response, limit: str, per: str) -> dict:
    assert response.status_code == 429, response.content
    wait = int(response["Retry-After"])
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert error["details"] == {"limit": limit, "per": per, "retry_after": wait}
    assert f"Try again in {-(-wait // 60)} min." in error["message"]
    return error


# --- Corrections ---------------------------------------------------------------------------------


def test_a_flood_of_corrections_is_refused_with_429_retry_after_and_when_to_come_back(
    site, decided
):
    """The defaults: 20 corrections in one second by one organizer; 5 a minute go through."""
    olga = client_of(site.organizer)
    answers = [correct(olga, decided, n) for n in range(20)]

    assert [answer.status_code for answer in answers] == [200] * 5 + [429] * 15
    error = assert_throttled(answers[5], "corrections", "user")
    assert error["message"].startswith("Too many corrections in a short time")
    assert 1 <= int(answers[5]["Retry-After"]) <= 60


def test_a_refused_correction_changes_nothing(site, decided):
    olga = client_of(site.organizer)
    for n in range(5):
        assert correct(olga, decided, n).status_code == 200
    before = result_of(decided)

    refused = olga.post(
        f"/api/v1/matches/{decided.pk}/correct", {"score": [0, 3]}, "application/json"
    )

    assert refused.status_code == 429
    assert result_of(decided) == before
    assert before[1:3] != (Decimal(0), Decimal(3))


def test_another_user_is_still_served(site, decided):
    """Per user: Olga's flood does not stop Sam (staff, so an organizer of every tournament)
    from correcting the same match."""
    olga = client_of(site.organizer)
    for n in range(8):
        correct(olga, decided, n)
    assert correct(olga, decided, 0).status_code == 429

    sam = client_of(User.objects.create_user("sam", password="x", is_staff=True))
    assert correct(sam, decided, 1).status_code == 200


@override_settings(CORRECTIONS_PER_TOURNAMENT="8/h")
def test_many_users_on_one_tournament_hit_its_limit(site, decided):
    """Each user within their own 5 a minute, the tournament's 8 an hour are used up; another
    tournament is still served. A user refused by their own limit uses none of the tournament's."""
    staff = [User.objects.create_user(f"staff{n}", password="x", is_staff=True) for n in range(3)]
    olga, first, second, third = map(client_of, [site.organizer, *staff])
    answers = [correct(olga, decided, n) for n in range(7)]  # 5 served, 2 refused per user
    assert [answer.status_code for answer in answers] == [200] * 5 + [429] * 2
    assert [correct(first, decided, n).status_code for n in range(3)] == [200, 200, 200]

    refused = correct(second, decided, 0)

    assert_throttled(refused, "corrections", "tournament")
    assert 1 <= int(refused["Retry-After"]) <= 3600
    assert correct(third, decided, 1).status_code == 429
    other = services.tournament_create(
        organizer=site.organizer, name="Other Cup", variant="short", format="round-robin",
        match_length=3,
    )  # fmt: skip
    for seed, name in enumerate(["Anna", "Boris"], start=1):
        player = decided.home.player if name == "Anna" else decided.away.player
        services.entry_register(tournament=other, player=player, by=site.organizer, seed=seed)
    services.tournament_start(tournament=other, by=site.organizer)
    elsewhere = Match.objects.get(tournament=other)
    results.match_result_record(match=elsewhere, by=site.organizer, score=(3, 0))
    assert correct(second, elsewhere, 1).status_code == 200


@override_settings(CORRECTIONS_PER_USER="2/10s")
def test_the_limit_lapses_with_its_window(site, decided, clock):
    olga = client_of(site.organizer)
    assert [correct(olga, decided, n).status_code for n in range(3)] == [200, 200, 429]
    refused = correct(olga, decided, 3)
    wait = int(refused["Retry-After"])
    assert 1 <= wait <= 10

    clock.advance(wait - 1)  # the last second of the window
    assert correct(olga, decided, 4).status_code == 429
    clock.advance(1)  # the time Retry-After named
    assert [correct(olga, decided, n).status_code for n in range(3)] == [200, 200, 429]


def test_the_correct_page_answers_429_with_the_message_and_keeps_the_form(site, decided):
    olga = client_of(site.organizer)
    url = reverse("match-correct", args=[decided.pk])
    for n in range(5):
        served = olga.post(url, {"mode": "score", "score_home": 3, "score_away": n % 3})
        assert served.status_code == 302, served.content
    before = result_of(decided)

    refused = olga.post(url, {"mode": "score", "score_home": 0, "score_away": 3})

    assert refused.status_code == 429
    assert 1 <= int(refused["Retry-After"]) <= 60
    page = refused.content.decode()
    assert "Too many corrections in a short time: nothing was changed. Try again in 1 min." in page
    assert 'name="score_home" value="0"' in page  # what was typed is still there
    assert result_of(decided) == before


# --- Uploads and analysis requests ---------------------------------------------------------------


@override_settings(ANALYSES_PER_USER="2/h")
def test_records_of_short_nardy_count_as_analysis_requests_and_scores_do_not(site):
    olga = client_of(site.organizer)
    matches = [site.match("Anna", "Boris"), site.match("Carl", "Dina"), site.match("Anna", "Carl")]
    games = [{"white": game.white, "actions": [action_to_json(a) for a in game.actions]}
             for game in site.recorded_games()]  # fmt: skip
    first, second = (
        olga.post(f"/api/v1/matches/{match.pk}/result", {"games": games}, "application/json")
        for match in matches[:2]
    )
    assert first.status_code == second.status_code == 200, (first.content, second.content)

    refused = olga.post(
        f"/api/v1/matches/{matches[2].pk}/result", {"games": games}, "application/json"
    )
    score = olga.post(
        f"/api/v1/matches/{matches[2].pk}/result", {"score": [3, 0]}, "application/json"
    )

    error = assert_throttled(refused, "analyses", "user")
    assert error["message"].startswith("Too many matches sent for analysis")
    assert score.status_code == 200, score.content


@override_settings(UPLOADS_PER_USER="2/h")
def test_a_mat_on_the_report_page_is_an_upload(site):
    anna = client_of(site.players["Anna"])
    match = site.match("Anna", "Boris")
    text = write_match(
        match_record(
            site.tournament.game_variant(),
            ("Anna", "Boris"),
            [MatchGame(game.white, game.actions) for game in site.recorded_games()],
            length=site.tournament.match_length,
            crawford=site.tournament.crawford,
        )
    )
    url = reverse("match-report", args=[match.pk])
    for _ in range(2):  # refused by the rules (the names do not fit), but counted
        anna.post(url, {"mode": "mat", "mat_text": "not a match file"})

    refused = anna.post(url, {"mode": "mat", "mat_text": text})

    assert refused.status_code == 429
    assert "Too many match records sent in a short time" in refused.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert anna.post(url, {"mode": "score", "score_home": 3, "score_away": 1}).status_code == 302


@override_settings(UPLOADS_PER_USER="3/m")
def test_records_validate_is_limited_per_client_address(client, clock):
    body = {"variant": "short", "games": [{"white": 1, "actions": []}]}
    url = "/api/v1/records/validate"
    served = [client.post(url, body, "application/json").status_code for _ in range(3)]
    refused = client.post(url, body, "application/json")
    elsewhere = client.post(url, body, "application/json", REMOTE_ADDR="192.0.2.7")

    assert served == [200, 200, 200]
    assert_throttled(refused, "uploads", "user")
    assert elsewhere.status_code == 200


# --- The cache fails -----------------------------------------------------------------------------


def test_a_failing_cache_lets_the_writes_through_and_says_so(site, decided, caplog):
    olga = client_of(site.organizer)
    with (
        mock.patch("nardy_site.throttle.get_usage", side_effect=ConnectionError("cache down")),
        caplog.at_level(logging.ERROR, logger="nardy_site.throttle"),
    ):
        answers = [correct(olga, decided, n).status_code for n in range(8)]

    assert answers == [200] * 8
    assert "the cache is unreachable; not applied" in caplog.text


def test_an_unreachable_redis_cache_lets_the_writes_through(site, decided):
    """TolerantRedisCache turns the outage into misses: django-ratelimit counts nothing."""
    unreachable = {
        "BACKEND": "nardy_site.cache.TolerantRedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
        "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
    }
    olga = client_of(site.organizer)
    with override_settings(CACHES={"default": unreachable}):
        answers = [correct(olga, decided, n).status_code for n in range(8)]

    assert answers == [200] * 8
