"""One organizer's typo must not reach the shared rating list: match lengths and stakes are
bounded on every path that takes them (API, site forms, the tournament import, the admin), a
score no match can produce is refused with the rule it breaks, and the FIBS formula takes at
most ``FIBS_MAX_LENGTH`` points, so no valid input moves a rating by more than 100 points."""

from __future__ import annotations

import json
import math
from datetime import UTC, datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from hypothesis import given
from hypothesis import strategies as st

from tournaments import services
from tournaments.backup import tournament_export, tournament_import
from tournaments.errors import TournamentError
from tournaments.matches import results
from tournaments.models import Match, Player, Tournament
from tournaments.ratings import fibs
from tournaments.ratings.history import FIBS_MAX_LENGTH, RatedMatch, Standing, replay
from tournaments.ratings.models import RatingChange
from tournaments.scoring import MAX_MATCH_LENGTH, MatchRules, score_from_typed

pytestmark = pytest.mark.django_db

BAD_SIZES = [0, 65, 10**9, -1, "NaN", "five", 5.5, "5.5"]
BAD_SCORES = [[99999, 0], [0, 135], [-1, 3], ["NaN", 0], ["three", 1], [2.5, 0], [10**9, 0]]
ORIGIN = datetime(2026, 1, 1, tzinfo=UTC)


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def api_post(client, path: str, body) -> object:
    return client.post(path, json.dumps(body), content_type="application/json")


# --- The newcomer's four calls ---------------------------------------------------------------


@pytest.mark.parametrize("length", [99999, 1_000_000_000])
def test_the_four_calls_now_stop_at_the_first(client, olga, length):
    client.force_login(olga)
    created = api_post(
        client,
        "/api/v1/tournaments/new",
        {"name": "Typo Cup", "variant": "short", "format": "round-robin", "match_length": length},
    )
    assert created.status_code == 400
    error = created.json()["error"]
    assert "match_length" in json.dumps(error["details"])
    assert f"less than or equal to {MAX_MATCH_LENGTH}" in json.dumps(error["details"])
    assert not Tournament.objects.exists()


# --- Every route that takes a length ---------------------------------------------------------


@pytest.mark.parametrize("value", BAD_SIZES)
@pytest.mark.parametrize("field", ["match_length", "match_games", "max_stake"])
def test_the_api_refuses_a_length_or_stake_out_of_bounds(client, olga, field, value):
    client.force_login(olga)
    body = {"name": "Cup", "variant": "short", "match_length": 5, "match_games": None}
    if field == "match_games":
        body["match_length"] = None
    body[field] = value
    answer = api_post(client, "/api/v1/tournaments/new", body)
    assert 400 <= answer.status_code < 500, answer.content
    assert not Tournament.objects.exists()


@pytest.mark.parametrize("value", [0, 65, 10**9, -1, "NaN", "five", 5.5])
@pytest.mark.parametrize("page", ["create", "edit"])
def test_the_site_forms_refuse_a_length_out_of_bounds(client, olga, page, value):
    from tests.web.test_organize import FORM  # noqa: PLC0415  (the site's valid form)

    client.force_login(olga)
    if page == "create":
        answer = client.post(reverse("tournament-create"), {**FORM, "match_size": str(value)})
        assert answer.status_code == 400
        assert not Tournament.objects.exists()
    else:
        tournament = services.tournament_create(
            organizer=olga, name="Cup", variant="short", match_length=5
        )
        answer = client.post(
            reverse("tournament-edit", args=[tournament.slug]), {**FORM, "match_size": str(value)}
        )
        assert answer.status_code == 400
        tournament.refresh_from_db()
        assert tournament.match_length == 5


@pytest.mark.parametrize("value", [0, 65, 10**9, -1, "NaN", 5.5])
@pytest.mark.parametrize("field", ["match_length", "match_games", "max_stake"])
def test_the_tournament_import_refuses_a_length_out_of_bounds(olga, field, value):
    source = services.tournament_create(organizer=olga, name="Cup", variant="short")
    document = json.loads(json.dumps(tournament_export(source)))
    document["tournament"][field] = value
    if field == "match_games":
        document["tournament"]["match_length"] = None
    with pytest.raises(TournamentError):
        tournament_import(document, as_slug="copy")
    assert not Tournament.objects.filter(slug="copy").exists()


@pytest.mark.parametrize("value", ["0", "65", "1000000000", "-1", "NaN", "five", "5.5"])
def test_the_admin_refuses_a_length_out_of_bounds(client, value):
    staff = User.objects.create_superuser("root", password="x")
    client.force_login(staff)
    answer = client.post(
        reverse("admin:tournaments_tournament_add"),
        {
            "name": "Admin Cup", "slug": "admin-cup", "variant": "short",
            "format": "round-robin", "status": "draft", "organizer": staff.pk,
            "match_length": value, "draw_counts": "half", "block_check": "step",
            "dave_progression": "geometric", "grand_final": "reset",
            "consolation_kind": "first-round", "tiebreaks": "[]", "points_win": "1",
            "points_draw": "0.5", "points_loss": "0", "points_bye": "1",
            "rating_system": "fibs",
        },
    )  # fmt: skip
    assert answer.status_code == 200  # the form again, with its error
    assert "errornote" in answer.text
    assert not Tournament.objects.exists()


# --- Scores ------------------------------------------------------------------------------------


@pytest.fixture
def running(olga):
    tournament = services.tournament_create(
        organizer=olga, name="Cup", variant="short", match_length=7
    )
    for seed, name in enumerate(["Anna", "Boris"], start=1):
        player = Player.objects.create(display_name=name)
        services.entry_register(tournament=tournament, player=player, by=olga, seed=seed)
    services.tournament_start(tournament=tournament, by=olga)
    return Match.objects.get(tournament=tournament)


@pytest.mark.parametrize("score", BAD_SCORES)
def test_the_api_refuses_a_score_no_match_to_7_can_end_with(client, olga, running, score):
    client.force_login(olga)
    answer = api_post(client, f"/api/v1/matches/{running.pk}/result", {"score": score})
    assert 400 <= answer.status_code < 500, answer.content
    running.refresh_from_db()
    assert running.status == Match.Status.SCHEDULED and running.score_home is None
    assert not RatingChange.objects.exists()


@pytest.mark.parametrize("score", BAD_SCORES)
def test_the_report_form_refuses_a_score_no_match_to_7_can_end_with(client, olga, running, score):
    client.force_login(olga)
    home, away = (str(value) for value in score)
    answer = client.post(
        reverse("match-report", args=[running.pk]),
        {"mode": "score", "score_home": home, "score_away": away},
    )
    assert answer.status_code == 400
    running.refresh_from_db()
    assert running.status == Match.Status.SCHEDULED


@pytest.mark.parametrize("score", BAD_SCORES)
@pytest.mark.parametrize("route", ["api", "site"])
def test_a_correction_refuses_a_score_no_match_to_7_can_end_with(
    client, olga, running, score, route
):
    results.match_result_record(match=running, by=olga, score=(7, 2))
    client.force_login(olga)
    if route == "api":
        answer = api_post(client, f"/api/v1/matches/{running.pk}/correct", {"score": score})
    else:
        home, away = (str(value) for value in score)
        answer = client.post(
            reverse("match-correct", args=[running.pk]),
            {"mode": "score", "score_home": home, "score_away": away},
        )
    assert 400 <= answer.status_code < 500
    running.refresh_from_db()
    assert (running.score_home, running.score_away) == (7, 2)


def test_a_score_beyond_the_length_and_the_largest_stake_names_the_rule():
    rules = MatchRules(variant="short", length=7)  # dave with no highest stake: 64
    with pytest.raises(ValueError, match=r"99999.* out of reach.* at most 128"):
        score_from_typed(rules, 99999, 0)
    assert score_from_typed(rules, 6 + 128, 0).winner == 1  # 6 points, then a mars at 64
    with pytest.raises(ValueError, match="neither player reached 7"):
        score_from_typed(rules, 6, 5)
    capped = MatchRules(variant="short", length=7, koks=True, max_stake=4)
    with pytest.raises(ValueError, match="at most 12"):
        score_from_typed(capped, 6 + 13, 0)


# --- The formula's bound ------------------------------------------------------------------------


def largest_change(length: int) -> float:
    """The most one match can move a rating: a newcomer (K = 5) beating a far stronger
    player, where P, the chance the winner would have lost, is all but 1."""
    newcomer, master = Standing(rating=-100_000, experience=0), Standing(100_000, 0)
    match = RatedMatch((ORIGIN, 1), first=1, second=2, length=length)
    changes, _, _ = replay("fibs", [match], {1: newcomer, 2: master})
    return max(abs(change.delta) for change in changes)


def test_the_largest_change_of_one_match_is_at_the_cap_and_just_under_100():
    at_cap = largest_change(FIBS_MAX_LENGTH)
    # 4 × K × sqrt(25) × P with K = 5 and P within a rounding of 1: 100, never more.
    assert at_cap == pytest.approx(4 * 5 * math.sqrt(FIBS_MAX_LENGTH)) == pytest.approx(100)
    assert at_cap <= 100
    assert largest_change(99999) == at_cap  # a longer match counts as one at the cap
    assert largest_change(MAX_MATCH_LENGTH) == at_cap
    assert largest_change(9) < at_cap
    # Without the cap, the newcomer's typo match would have moved it by ~6,000 points.
    assert fibs.change(-1e5, 0, 1e5, 0, 99999)[0] > 6000


ratings = st.floats(min_value=-5000, max_value=8000, allow_nan=False)
experience = st.integers(min_value=0, max_value=100_000)


@given(
    winner=ratings,
    loser=ratings,
    winner_experience=experience,
    loser_experience=experience,
    length=st.integers(min_value=1, max_value=MAX_MATCH_LENGTH),
    drawn=st.booleans(),
    system=st.sampled_from(["fibs", "elo"]),
)
def test_no_valid_match_moves_a_rating_by_more_than_100(
    winner, loser, winner_experience, loser_experience, length, drawn, system
):
    match = RatedMatch((ORIGIN, 1), first=1, second=2, length=length, drawn=drawn)
    start = {1: Standing(winner, winner_experience), 2: Standing(loser, loser_experience)}
    changes, _, _ = replay(system, [match], start)
    for change in changes:
        assert abs(change.delta) <= 100
        assert change.after.experience - change.before.experience <= FIBS_MAX_LENGTH


def test_the_schema_documents_the_limits(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    tournament = schema["components"]["schemas"]["TournamentRequest"]["properties"]
    for field in ("match_length", "match_games"):
        assert (tournament[field]["minimum"], tournament[field]["maximum"]) == (1, 64)
    assert tournament["max_stake"]["maximum"] == 64
    score = schema["components"]["schemas"]["ResultInRequest"]["properties"]["score"]
    assert "the most one game brings" in score["description"]


@pytest.mark.parametrize("route", ["api", "site"])
def test_a_correction_with_a_possible_score_is_taken(client, olga, running, route):
    """The control of the test above: the same request with a score the rules allow passes."""
    results.match_result_record(match=running, by=olga, score=(7, 2))
    client.force_login(olga)
    if route == "api":
        answer = api_post(client, f"/api/v1/matches/{running.pk}/correct", {"score": [2, 7]})
        assert answer.status_code == 200
    else:
        answer = client.post(
            reverse("match-correct", args=[running.pk]),
            {"mode": "score", "score_home": "2", "score_away": "7"},
        )
        assert answer.status_code == 302
    running.refresh_from_db()
    assert (running.score_home, running.score_away) == (2, 7)
