"""An official event's status in the federation's calendar (issue 48): a declared setting of
official events, chosen on the organizer's form and in the API by its code, said in the rules
summary; the rank norms its places meet depend on it."""

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tests.web.test_organize import FORM
from tournaments.declarations import summary_of
from tournaments.models import Tournament
from tournaments.norms.models import EventStatus

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def test_the_organizer_chooses_it_on_the_form_of_an_official_event(client, olga):
    client.force_login(olga)
    form = client.get(reverse("tournament-create")).context["form"]
    assert "event_status" in form.fields
    assert "official" in form.fields["event_status"].applies_when  # shown for official events
    status = EventStatus.objects.get(code="all-russian")
    response = client.post(
        reverse("tournament-create"),
        {**FORM, "official": "on", "event_status": str(status.pk), "venue": "Kazan"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get()
    assert (tournament.official, tournament.event_status, tournament.venue) == (
        True, status, "Kazan",
    )  # fmt: skip
    assert ("Event status", "All-Russian event") in summary_of(tournament)


def test_the_api_takes_and_gives_it_by_its_code(client, olga):
    client.force_login(olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup", "variant": "long", "official": True,
         "event_status": "championship-of-russia"},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.json()
    assert made.json()["event_status"] == "championship-of-russia"
    assert Tournament.objects.get().event_status.code == "championship-of-russia"
    refused = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup 2", "variant": "long", "official": True, "event_status": "nowhere"},
        content_type="application/json",
    )
    assert refused.status_code == 400
    assert Tournament.objects.count() == 1
