"""Clubs and seasons through the API: the same rules as the site. A member of one club never
changes another; every refusal is a 4xx in the one error shape that changes nothing."""

import csv
import io

import pytest
from django.contrib.auth.models import User

from tests.support.api_numbers import assert_numbers
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.seasons.models import Season
from tournaments.seasons.services import season_create
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_finish,
    tournament_start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    users = {name: User.objects.create_user(name) for name in ("olga", "ivan", "mila", "tom")}
    riga = club_create(by=users["olga"], name="Riga", country="LV")
    member_add(club=riga, by=users["olga"], username="ivan", role=Membership.Role.ORGANIZER)
    tallinn = club_create(by=users["mila"], name="Tallinn", country="EE")
    member_add(club=tallinn, by=users["mila"], username="tom")
    return users, riga, tallinn


def as_user(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)
    return client


def played(organizer, season, names):
    event = tournament_create(organizer=organizer, name="Evening", variant="long", season=season,
                              match_length=1)  # fmt: skip
    for seed, name in enumerate(names, start=1):
        player, _ = Player.objects.get_or_create(display_name=name)
        entry_register(tournament=event, player=player, by=organizer, seed=seed)
    tournament_start(tournament=event, by=organizer)
    for match in event.matches.filter(away__isnull=False).select_related("home__player"):
        home_first = names.index(match.home.player.display_name) < names.index(
            match.away.player.display_name
        )
        match_result_record(match=match, by=organizer, score=(1, 0) if home_first else (0, 1))
    return tournament_finish(tournament=event, by=organizer)


def test_anyone_reads_clubs_and_a_clubs_detail(client, world):
    users, riga, _ = world
    season_create(club=riga, by=users["olga"], name="Autumn")
    tournament_create(organizer=users["olga"], name="Secret draft", variant="long", club=riga)
    listing = client.get("/api/v1/clubs/").json()
    assert [club["slug"] for club in listing["results"]] == ["riga", "tallinn"]
    detail = client.get("/api/v1/clubs/riga/").json()
    assert [(m["username"], m["role"]) for m in detail["members"]] == [
        ("olga", "owner"), ("ivan", "organizer"),
    ]  # fmt: skip
    assert [season["slug"] for season in detail["seasons"]] == ["autumn"]
    assert detail["tournaments"]["upcoming"] == []  # a draft is not public
    organizer_view = as_user(client, users["ivan"]).get("/api/v1/clubs/riga/").json()
    assert [t["name"] for t in organizer_view["tournaments"]["upcoming"]] == ["Secret draft"]


def test_a_signed_in_user_creates_a_club_and_a_taken_name_is_a_400(client, world):
    users, _, _ = world
    as_user(client, users["tom"])
    created = client.post("/api/v1/clubs/new", {"name": "Vilnius", "country": "LT"})
    assert created.status_code == 201 and created.json()["slug"] == "vilnius"
    assert Club.objects.get(slug="vilnius").memberships.get().user == users["tom"]
    taken = client.post("/api/v1/clubs/new", {"name": "Riga"})
    assert taken.status_code == 400 and "already exists" in taken.json()["error"]["message"]
    assert Club.objects.count() == 3
    assert as_user(client, None).post("/api/v1/clubs/new", {"name": "X"}).status_code == 401


@pytest.mark.parametrize(
    "who, expected",
    [(None, 401), ("tom", 403), ("mila", 403), ("ivan", 201), ("olga", 201)],
)
def test_only_the_clubs_own_organizers_add_members(client, world, who, expected):
    users, riga, _ = world
    response = as_user(client, users.get(who)).post(
        "/api/v1/clubs/riga/members/new", {"username": "tom"}
    )
    assert response.status_code == expected
    assert riga.memberships.filter(user__username="tom").exists() == (expected == 201)


def test_a_member_of_one_club_never_changes_another(client, world):
    users, riga, tallinn = world
    as_user(client, users["ivan"])  # an organizer of Riga
    assert client.post("/api/v1/clubs/tallinn/members/new", {"username": "ivan"}).status_code == 403
    assert client.delete(f"/api/v1/clubs/tallinn/members/{users['tom'].pk}/").status_code == 403
    assert client.post("/api/v1/clubs/tallinn/seasons/new", {"name": "Mine"}).status_code == 403
    theirs = tournament_create(organizer=users["mila"], name="Tue", variant="long", club=tallinn)
    season = season_create(club=riga, by=users["olga"], name="Autumn")
    refused = client.post(f"/api/v1/clubs/riga/seasons/{season.slug}/events/new",
                          {"tournament": theirs.slug})  # fmt: skip
    assert refused.status_code == 403
    theirs.refresh_from_db()
    assert theirs.season is None
    assert set(tallinn.memberships.values_list("user__username", flat=True)) == {"mila", "tom"}


def test_removing_members_and_the_last_owner(client, world):
    users, riga, _ = world
    as_user(client, users["olga"])
    last = client.delete(f"/api/v1/clubs/riga/members/{users['olga'].pk}/")
    assert last.status_code == 409 and last.json()["error"]["code"] == "conflict"
    assert client.delete(f"/api/v1/clubs/riga/members/{users['ivan'].pk}/").status_code == 204
    assert list(riga.memberships.values_list("user__username", flat=True)) == ["olga"]


def test_a_season_with_its_table_and_csv(client, world):
    users, riga, _ = world
    as_user(client, users["ivan"])
    created = client.post(
        "/api/v1/clubs/riga/seasons/new",
        {"name": "Autumn", "place_points": [10, 6, 4], "best_of": 1},
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    season = Season.objects.get()
    first = played(users["olga"], None, ["Anna", "Boris", "Carl"])
    second = played(users["olga"], None, ["Carl", "Anna", "Boris"])
    as_user(client, users["olga"])  # the events' organizer (they have no club yet)
    for event in (first, second):
        response = client.post("/api/v1/clubs/riga/seasons/autumn/events/new",
                               {"tournament": event.slug})  # fmt: skip
        assert response.status_code == 200
    data = as_user(client, None).get("/api/v1/clubs/riga/seasons/autumn/").json()
    assert [event["slug"] for event in data["events"]] == [first.slug, second.slug]
    assert_numbers(data, 1, "win_points", "points", "all_points", "running", "wins")
    assert type(data["season"]["win_points"]) is float  # a number (was the string "1.0")
    table = {row["player"]: row for row in data["table"]}
    assert {name: (row["rank"], row["points"]) for name, row in table.items()} == {
        "Anna": (1, 10.0), "Carl": (2, 10.0), "Boris": (3, 6.0),  # Anna: a 2nd place more
    }  # fmt: skip
    assert [event["counted"] for event in table["Anna"]["events"]] == [True, False]
    assert table["Anna"]["running"] == [10.0, 10.0] and table["Anna"]["all_points"] == 16.0
    rows = list(csv.reader(io.StringIO(client.get("/api/v1/clubs/riga/seasons/autumn/table.csv")
                                        .content.decode())))  # fmt: skip
    assert rows[1][:5] == ["1", "Anna", "10", "16", "2"] and rows[1][5:] == ["10", "(6)"]
    removed = as_user(client, users["olga"]).delete(
        f"/api/v1/clubs/riga/seasons/autumn/events/{second.slug}/"
    )
    assert removed.status_code == 204 and Tournament.objects.get(pk=second.pk).season is None
    assert season.tournaments.count() == 1


def test_a_bad_season_is_a_400_and_makes_nothing(client, world):
    users, _, _ = world
    as_user(client, users["olga"])
    response = client.post(
        "/api/v1/clubs/riga/seasons/new",
        {"name": "Autumn", "place_points": [1, 5]},
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "lower place" in str(response.json()["error"]["details"]["fields"]["place_points"])
    assert not Season.objects.exists()
    assert client.get("/api/v1/clubs/riga/seasons/nothing/").status_code == 404


def test_a_tournament_is_created_for_a_club_through_the_api(client, world):
    users, riga, tallinn = world
    as_user(client, users["ivan"])
    made = client.post("/api/v1/tournaments/new", {"name": "Club night", "variant": "long",
                                                   "club": "riga"})  # fmt: skip
    assert made.status_code == 201 and made.json()["club"] == "riga"
    refused = client.post("/api/v1/tournaments/new", {"name": "Not mine", "variant": "long",
                                                      "club": "tallinn"})  # fmt: skip
    assert refused.status_code == 403
    assert list(Tournament.objects.values_list("name", "club__slug")) == [("Club night", "riga")]
    assert Match.objects.count() == 0
