"""The audit trail of a rating list: every action that changes it is recorded with who and when
(a result that counts, a correction, an approval and its withdrawal, a deleted rated match or
tournament), in the same transaction; officers and staff read all of it, organizers the rows of
their own tournaments, through the API and the admin."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.web.conftest import make_site
from tournaments.matches.results import (
    match_result_confirm,
    match_result_correct,
    match_result_record,
)
from tournaments.models import Match, Tournament
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import RatingAudit
from tournaments.ratings.services import ratings_withdraw

pytestmark = pytest.mark.django_db


def trail() -> list[tuple[str, str | None, str]]:
    return [
        (row.action, row.actor.username if row.actor else None, row.note)
        for row in RatingAudit.objects.order_by("pk")
    ]


def test_every_change_to_a_rated_list_is_in_the_trail_with_who_did_it():
    site = make_site()  # Rita approved it before the start
    match = site.match("Anna", "Boris")
    anna, boris = site.players["Anna"], site.players["Boris"]
    reporter, opponent = (anna, boris) if match.home.player.user == anna else (boris, anna)
    match_result_record(match=match, by=reporter, score=(3, 1))  # reported: not decided yet
    match_result_confirm(match=match, by=opponent)
    match_result_correct(match=match, by=site.organizer, score=(1, 3))
    ratings_withdraw(tournament=site.tournament, by=User.objects.get(username="rita"))

    home, away = match.home.player.display_name, match.away.player.display_name
    assert trail() == [
        ("approval", "rita", "Club Cup"),
        ("result", opponent.username, f"Club Cup: {home} – {away} 3–1"),
        ("correction", "olga", f"Club Cup: {home} – {away} 1–3"),
        ("withdrawal", "rita", "Club Cup"),
    ]


def test_an_unrated_tournament_leaves_no_trail():
    site = make_site(rated=False)
    match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    assert not RatingAudit.objects.exists()


def test_deleting_a_rated_match_or_tournament_in_the_admin_is_in_the_trail(client):
    site = make_site()
    match = site.match("Anna", "Boris")
    match_result_record(match=match, by=site.organizer, score=(3, 1))
    root = User.objects.create_superuser("root", password="x")
    client.force_login(root)
    answer = client.post(f"/admin/tournaments/match/{match.pk}/delete/", {"post": "yes"})
    assert answer.status_code == 302
    deleted = RatingAudit.objects.get(action="deletion")
    assert deleted.actor == root and deleted.match is None  # the match is gone, its words stay
    assert "Club Cup: " in deleted.note and "3–1" in deleted.note

    other = site.match("Carl", "Dina")
    match_result_record(match=other, by=site.organizer, score=(3, 0))
    answer = client.post(
        f"/admin/tournaments/tournament/{site.tournament.pk}/delete/", {"post": "yes"}
    )
    assert answer.status_code == 302
    assert not Tournament.objects.exists()
    assert RatingAudit.objects.filter(action="deletion", note="Club Cup").count() == 1
    # The trail outlives what it tells of, and the admin shows it but does not change it.
    assert client.get("/admin/tournaments/ratingaudit/").status_code == 200
    assert client.get("/admin/tournaments/ratingaudit/add/").status_code == 403


def test_the_api_gives_officers_everything_and_organizers_their_own(client):
    site = make_site()
    match_result_record(match=site.match("Anna", "Boris"), by=site.organizer, score=(3, 1))
    stranger = Tournament.objects.create(
        name="Elsewhere", slug="elsewhere", variant="short", status="running",
        organizer=User.objects.create_user("otto"), match_length=3, rated=True,
    )  # fmt: skip
    RatingAudit.objects.create(
        rating_list=rating_list_of(site.tournament),
        action="result",
        tournament=stranger,
        note="Elsewhere: X – Y 3–0",
    )
    url = "/api/v1/ratings/fibs/short/audit/"

    assert client.get(url).status_code == 401
    client.force_login(User.objects.get(username="rita"))
    officer = [row["note"] for row in client.get(url).json()["results"]]
    assert len(officer) == 3 and officer[0] == "Elsewhere: X – Y 3–0"  # newest first
    client.force_login(site.organizer)
    own = client.get(url).json()["results"]
    assert {row["tournament"] for row in own} == {site.tournament.slug}
    assert {row["action"] for row in own} == {"approval", "result"}
    assert own[0]["actor"] == "olga" and own[1]["actor"] == "rita"
    client.force_login(site.players["Anna"])
    refused = client.get(url)
    assert refused.status_code == 403 and "rating officers" in refused.json()["error"]["message"]
    assert Match.objects.count() == 6  # reading changed nothing
