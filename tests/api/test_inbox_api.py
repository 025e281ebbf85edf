"""``GET me/inbox`` (issue 46): the organizer's inbox through the API, each item with its kind,
its tournament, what it is about and where it is decided, on the site and through the API."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User

from tests.web.conftest import make_site
from tournaments.clubs.services import club_create
from tournaments.matches import results
from tournaments.models import Match, Player
from tournaments.players import services as players
from tournaments.services import tournament_create, tournament_open_registration
from tournaments.signups import services as signups

pytestmark = pytest.mark.django_db
URL = "/api/v1/me/inbox"


@pytest.fixture
def site():
    return make_site()


def first_round(site) -> list[Match]:
    rounds = Match.objects.filter(tournament=site.tournament, round__number=1)
    return list(rounds.select_related("home__player").order_by("pk"))


def test_anonymous_is_refused(client):
    answer = client.get(URL)
    assert answer.status_code == 401
    assert answer.json()["error"]["code"] == "not_authenticated"


def test_the_items_with_their_decisions(client, site):
    olga = site.organizer
    match, other = first_round(site)
    reporter = User.objects.get(players__pk=match.home.player_id)
    results.match_result_record(match=match, by=reporter, score=(3, 1))
    riga = club_create(by=olga, name="Riga")
    claimer = User.objects.create_user("mila")
    claim = players.claim_request(
        player=Player.objects.create(display_name="Mila K.", home_club=riga), by=claimer
    )
    event = tournament_create(
        organizer=olga, name="Tuesday", variant="long", self_signup=True, signup_approval=True
    )
    tournament_open_registration(tournament=event, by=olga)
    signup = signups.signup_request(tournament=event, by=site.outsider, display_name="Oscar")

    client.force_login(olga)
    answer = client.get(URL)
    assert answer.status_code == 200
    body = answer.json()
    assert body["count"] == 3  # the match to play is listed, not counted
    items = {item["kind"]: item for item in body["items"]}
    assert [item["kind"] for item in body["items"]] == ["reported", "signup", "claim", "to-play"]

    reported = items["reported"]
    assert reported["id"] == match.pk and reported["decision"] is True
    assert reported["tournament"] == {"slug": site.tournament.slug, "name": "Club Cup"}
    assert reported["about"] == str(match) and reported["since"]
    assert reported["url"] == f"http://testserver/m/{match.pk}/"
    assert reported["api_url"] == f"http://testserver/api/v1/matches/{match.pk}/confirm"
    assert items["signup"]["id"] == signup.pk and items["signup"]["about"] == "Oscar signs up"
    assert items["signup"]["api_url"].endswith(
        f"/api/v1/tournaments/{event.slug}/signups/{signup.pk}/approve"
    )
    assert items["claim"]["tournament"] is None
    assert items["claim"]["about"] == "mila says Mila K. is them"
    assert items["claim"]["api_url"].endswith(f"/api/v1/claims/{claim.pk}/approve")
    to_play = items["to-play"]
    assert to_play["id"] == other.pk and to_play["decision"] is False
    assert to_play["since"] is None
    assert to_play["api_url"].endswith(f"/api/v1/matches/{other.pk}/result")

    # Its API action decides it: the item leaves the inbox.
    confirmed = client.post(reported["api_url"])
    assert confirmed.status_code == 200, confirmed.content
    after = client.get(URL).json()
    assert after["count"] == 2 and "reported" not in {i["kind"] for i in after["items"]}


def test_only_the_users_own_items(client, site):
    match = first_round(site)[0]
    reporter = User.objects.get(players__pk=match.home.player_id)
    results.match_result_record(match=match, by=reporter, score=(3, 1))
    for user in (reporter, site.players["Carl"], site.outsider):
        client.force_login(user)
        assert client.get(URL).json() == {"count": 0, "items": []}


def test_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/v1/me/inbox"]["get"]
    assert set(operation["responses"]) >= {"200", "401"}
    body = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
    assert body.endswith("/Inbox")
    item = schema["components"]["schemas"]["InboxItem"]
    assert {"kind", "id", "tournament", "about", "since", "decision", "url", "api_url"} <= set(
        item["properties"]
    )
