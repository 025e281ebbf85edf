"""The anomaly guard: a single change larger than ``RATING_REVIEW_THRESHOLD`` is held for review.
The list stays untouched (later matches go on without it) until a rating officer confirms it,
and then the list equals a serial replay. The ratings task holds a match once however often it
runs, and the site's "ratings pending" and the catch-up do not wait for a held change."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.errors import Conflict, NotAllowed
from tournaments.models import Match, Round, Tournament
from tournaments.ratings import ledger
from tournaments.ratings.models import RatingAudit, RatingChange, RatingHold, RatingList
from tournaments.ratings.services import ratings_hold_confirm

pytestmark = pytest.mark.django_db

#: FIBS between newcomers (K = 5) at equal ratings: 4 × 5 × sqrt(n) × ½, so a 1-point match
#: moves 10 points and a 3-point match 17.3: with the threshold at 15 the second is held.
THRESHOLD = 15


@pytest.fixture(autouse=True)
def low_threshold(settings):
    settings.RATING_REVIEW_THRESHOLD = THRESHOLD


def rated_tournament(slug: str, length: int) -> Tournament:
    organizer, _ = User.objects.get_or_create(username="olga")
    return Tournament.objects.create(
        name=slug, slug=slug, variant="short", status="running", organizer=organizer,
        match_length=length, rated=True,
    )  # fmt: skip


def decided(tournament: Tournament, home: str, away: str, minute: int) -> Match:
    from datetime import UTC, datetime, timedelta  # noqa: PLC0415

    from tournaments.models import Player  # noqa: PLC0415

    entries = [
        tournament.entries.get_or_create(player=Player.objects.get_or_create(display_name=name)[0])[
            0
        ]
        for name in (home, away)
    ]
    round_, _ = Round.objects.get_or_create(tournament=tournament, number=1)
    return Match.objects.create(
        tournament=tournament, round=round_, home=entries[0], away=entries[1],
        status=Match.Status.FINAL, score_home=tournament.match_length, score_away=0,
        winner=entries[0],
        decided_at=datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=minute),
    )  # fmt: skip


def rows() -> list[tuple[int, int, float]]:
    return sorted(RatingChange.objects.values_list("match_id", "player_id", "after"))


def test_a_large_change_waits_for_an_officer_and_then_the_list_is_a_serial_replay():
    long_matches, short_matches = rated_tournament("long", 3), rated_tournament("short", 1)
    big = decided(long_matches, "Anna", "Boris", minute=0)
    small = decided(short_matches, "Anna", "Carl", minute=1)

    assert ledger.ratings_apply(big.pk) == "held"
    assert ledger.ratings_apply(big.pk) == "held"  # the task run twice holds it once
    assert ledger.ratings_apply(small.pk) == "rated"
    hold = RatingHold.objects.get()
    assert (hold.match, hold.status) == (big, RatingHold.Status.PENDING)
    assert hold.largest == pytest.approx(4 * 5 * 3**0.5 / 2)
    assert not RatingChange.objects.filter(match=big).exists()  # the list is untouched by it
    anna_small = RatingChange.objects.get(match=small, score=1.0)
    assert anna_small.before == 1500.0  # the later match went on without the held one
    assert ledger.ratings_pending([big, small]) == 0  # nothing for a worker to do
    assert ledger.ratings_verify() == {} and ledger.ratings_behind() == {}
    kept = rows()
    ledger.ratings_replay(None)  # a replay decides again, and holds again
    assert rows() == kept and RatingHold.objects.get().status == RatingHold.Status.PENDING
    assert RatingAudit.objects.filter(action="hold", match=big).count() == 1

    officer = User.objects.create_user("rita")
    RatingList.objects.get(system="fibs", discipline="short").officers.add(officer)
    with pytest.raises(NotAllowed):
        ratings_hold_confirm(hold=hold, by=User.objects.get(username="olga"))
    ratings_hold_confirm(hold=hold, by=officer)
    ledger.ratings_replay((big.decided_at, big.pk))  # what the task enqueued on commit does
    with pytest.raises(Conflict):
        ratings_hold_confirm(hold=hold, by=officer)

    assert RatingChange.objects.filter(match=big).count() == 2
    assert RatingChange.objects.get(match=small, score=1.0).before > 1500.0  # after the big one
    confirmed = rows()
    ledger.ratings_replay(None)
    assert rows() == confirmed  # the list equals a serial replay with the confirmation
    assert RatingAudit.objects.filter(action="release", actor=officer, match=big).exists()


def test_below_the_threshold_nothing_is_held():
    tournament = rated_tournament("short", 1)
    match = decided(tournament, "Anna", "Boris", minute=0)
    assert ledger.ratings_apply(match.pk) == "rated"
    assert not RatingHold.objects.exists()


def test_officers_review_held_changes_through_the_api_and_the_match_page_says_so(client):
    big = decided(rated_tournament("long", 3), "Anna", "Boris", minute=0)
    ledger.rating_list_of(big.tournament)  # the list is there: holding changes nothing else
    page = client.get(reverse("match", args=[big.pk])).content.decode()
    assert 'data-role="ratings-progress"' in page and 'data-role="held"' not in page
    ledger.ratings_apply(big.pk)
    hold = RatingHold.objects.get()
    page = client.get(reverse("match", args=[big.pk])).content.decode()  # a new version: held
    assert 'data-role="held"' in page and "Rating change if confirmed" in page
    assert 'data-role="ratings-progress"' not in page

    url = "/api/v1/ratings/fibs/short/holds/"
    client.force_login(User.objects.get(username="olga"))
    assert client.get(url).status_code == 403
    assert client.post(f"/api/v1/ratings/holds/{hold.pk}/confirm").status_code == 403
    staff = User.objects.create_user("sam", is_staff=True)
    client.force_login(staff)
    listed = client.get(url).json()["results"]
    assert [(row["match_id"], row["status"]) for row in listed] == [(big.pk, "pending")]
    confirmed = client.post(f"/api/v1/ratings/holds/{hold.pk}/confirm")
    assert confirmed.status_code == 200 and confirmed.json()["confirmed_by"] == "sam"
    assert client.post(f"/api/v1/ratings/holds/{hold.pk}/confirm").status_code == 409
