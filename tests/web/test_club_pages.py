"""The club and season pages: anyone reads a club, its seasons and the season table (also as
CSV); those who run the club create and change them through the forms; every refusal is a 4xx
that changes nothing. The season table page takes a constant number of queries."""

import csv
import html
import io
import itertools
import re

import pytest
from django.contrib.auth.models import User
from django.urls import reverse

from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_correct, match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.seasons.models import Season
from tournaments.seasons.services import season_create
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db
NUMBERS = itertools.count(1)


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="pw-olga-123")


@pytest.fixture
def riga(olga):
    club = club_create(by=olga, name="Riga Nardy Club", city="Riga", country="LV")
    User.objects.create_user("ivan", password="pw-ivan-123")
    member_add(club=club, by=olga, username="ivan", role=Membership.Role.ORGANIZER)
    return club


def evening(organizer, season, names, finish=True, fmt="round-robin") -> Tournament:
    """A tournament of the season among ``names``, played out in the names' order (the first
    beats everyone)."""
    tournament = tournament_create(
        organizer=organizer, name=f"Evening {next(NUMBERS)}", variant="long", format=fmt,
        season=season, match_length=3,
    )  # fmt: skip
    for seed, name in enumerate(names, start=1):
        player, _ = Player.objects.get_or_create(display_name=name)
        entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    tournament_start(tournament=tournament, by=organizer)
    while match := (
        tournament.matches.filter(status=Match.Status.SCHEDULED, away__isnull=False)
        .select_related("home__player", "away__player").first()
    ):  # fmt: skip
        home_wins = names.index(match.home.player.display_name) < names.index(
            match.away.player.display_name
        )
        match_result_record(match=match, by=organizer, score=(3, 0) if home_wins else (0, 3))
    if finish:
        tournament_finish(tournament=tournament, by=organizer)
    return tournament


def text(response) -> str:
    return html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode())))


def test_anyone_reads_the_club_list_and_a_clubs_page(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn 2026")
    evening(olga, season, ["Anna", "Boris"])
    planned = tournament_create(organizer=olga, name="Next Friday", variant="short", club=riga)
    tournament_open_registration(tournament=planned, by=olga)
    tournament_create(organizer=olga, name="Secret draft", variant="short", club=riga)
    listing = client.get(reverse("club-list"))
    assert listing.status_code == 200 and "Riga Nardy Club" in text(listing)
    page = client.get(reverse("club", args=[riga.slug]))
    assert page.status_code == 200
    body = text(page)
    for shown in ("Riga, LV", "Evening", planned.name, "Autumn 2026", "olga", "ivan", "Owner"):
        assert shown in body, shown
    assert "Secret draft" not in body  # drafts are for those who run the club
    assert 'data-role="club-actions"' not in page.content.decode()  # not for visitors
    client.force_login(User.objects.get(username="ivan"))
    organizer_view = text(client.get(reverse("club", args=[riga.slug])))
    assert "Secret draft" in organizer_view and "New season" in organizer_view


def test_a_signed_in_user_creates_a_club_and_owns_it(client):
    User.objects.create_user("mila", password="pw-mila-123")
    client.login(username="mila", password="pw-mila-123")
    response = client.post(
        reverse("club-create"), {"name": "Tallinn Backgammon", "city": "Tallinn", "country": "EE"}
    )
    club = Club.objects.get()
    assert response.status_code == 302 and response["Location"] == reverse("club", args=[club.slug])
    assert club.memberships.get().role == Membership.Role.OWNER


@pytest.mark.parametrize(
    "data, message",
    [({"name": ""}, "This field is required"), ({"name": "X", "country": "lv"}, "two-letter")],
)
def test_a_bad_club_form_is_a_400_and_makes_nothing(client, data, message):
    User.objects.create_user("mila", password="pw-mila-123")
    client.login(username="mila", password="pw-mila-123")
    response = client.post(reverse("club-create"), data)
    assert response.status_code == 400 and message in text(response)
    assert not Club.objects.exists()


def test_a_taken_club_name_is_refused_with_the_reason(client, riga):
    User.objects.create_user("mila", password="pw-mila-123")
    client.login(username="mila", password="pw-mila-123")
    response = client.post(reverse("club-create"), {"name": "Riga Nardy Club"})
    assert response.status_code == 400 and "already exists" in text(response)
    assert Club.objects.count() == 1


def test_organizers_add_members_and_a_member_cannot(client, riga):
    User.objects.create_user("mila", password="pw-mila-123")
    User.objects.create_user("nina", password="pw-nina-123")
    client.login(username="ivan", password="pw-ivan-123")
    url = reverse("club-members", args=[riga.slug])
    assert (
        client.post(url, {"action": "add", "username": "mila", "role": "member"}).status_code == 302
    )
    refused = client.post(url, {"action": "add", "username": "nina", "role": "organizer"})
    assert refused.status_code == 403 and "owners" in text(refused)
    client.login(username="mila", password="pw-mila-123")
    assert client.get(url).status_code == 403
    assert client.post(url, {"action": "add", "username": "nina"}).status_code == 403
    roles = dict(riga.memberships.values_list("user__username", "role"))
    assert roles == {"olga": "owner", "ivan": "organizer", "mila": "member"}
    left = client.post(url, {"action": "remove", "user": User.objects.get(username="mila").pk})
    assert left.status_code == 302 and not riga.memberships.filter(user__username="mila").exists()


def test_the_last_owner_cannot_leave(client, olga, riga):
    client.login(username="olga", password="pw-olga-123")
    response = client.post(
        reverse("club-members", args=[riga.slug]), {"action": "remove", "user": olga.pk}
    )
    assert response.status_code == 409 and "at least one owner" in text(response)
    assert riga.memberships.filter(user=olga, role="owner").exists()


def test_the_club_page_of_another_club_gives_no_rights(client, riga):
    other_owner = User.objects.create_user("mila", password="pw-mila-123")
    other = club_create(by=other_owner, name="Tallinn")
    client.login(username="ivan", password="pw-ivan-123")
    assert client.get(reverse("club-edit", args=[other.slug])).status_code == 403
    response = client.post(reverse("club-edit", args=[other.slug]), {"name": "Taken over"})
    assert response.status_code == 403
    other.refresh_from_db()
    assert other.name == "Tallinn"
    response = client.post(reverse("season-create", args=[other.slug]), {"name": "Mine"})
    assert response.status_code == 403 and not Season.objects.exists()


def test_an_organizer_creates_a_season_and_adds_an_event(client, olga, riga):
    loose = tournament_create(organizer=olga, name="Friday Blitz", variant="long", club=riga)
    client.login(username="ivan", password="pw-ivan-123")
    response = client.post(
        reverse("season-create", args=[riga.slug]),
        {"name": "Winter", "scoring": "place", "place_points": "10, 6, 4-2", "win_points": "1"},
    )
    season = Season.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("season-edit", args=[riga.slug, season.slug])
    assert season.place_points == [10, 6, 4, 2]
    edit = reverse("season-edit", args=[riga.slug, season.slug])
    assert client.post(edit, {"action": "add", "tournament": loose.pk}).status_code == 302
    loose.refresh_from_db()
    assert loose.season == season
    assert client.post(edit, {"action": "remove", "tournament": loose.pk}).status_code == 302
    loose.refresh_from_db()
    assert loose.season is None


def test_a_bad_season_rule_is_a_400_and_changes_nothing(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Winter")
    client.login(username="ivan", password="pw-ivan-123")
    response = client.post(
        reverse("season-edit", args=[riga.slug, season.slug]),
        {"action": "rule", "name": "Winter", "scoring": "place", "place_points": "10, 12",
         "win_points": "1"},
    )  # fmt: skip
    assert response.status_code == 400 and "lower place" in text(response)
    season.refresh_from_db()
    assert season.place_points == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def test_the_season_page_shows_the_table_with_dropped_events_and_charts(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 6], best_of=1)
    evening(olga, season, ["Anna", "Boris"])
    evening(olga, season, ["Boris", "Anna"])
    evening(olga, season, ["Anna", "Boris"], finish=False)  # running: counts for now
    page = client.get(reverse("season", args=[riga.slug, season.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    assert "Points by place: 10-6; each player's best 1 events count" in text(page)
    assert body.count('data-role="dropped"') == 4  # each player's two events not counted
    assert body.count('data-role="chart"') == 2 and 'data-role="provisional"' in body
    rows = re.findall(r"<tr>\s*<td class=\"num\">(\d+)</td>\s*<td><a [^>]*>([^<]+)</a>", body)
    assert rows == [("1", "Anna"), ("2", "Boris")]


def test_the_season_csv_lists_every_event_and_marks_the_dropped(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 6], best_of=1)
    evening(olga, season, ["=Anna", "Boris"])
    evening(olga, season, ["Boris", "=Anna"])
    response = client.get(reverse("season-csv", args=[riga.slug, season.slug]))
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:5] == ["rank", "player", "points", "all_points", "events"]
    assert rows[1] == ["1", "'=Anna", "10", "16", "2", "10", "(6)"]
    assert rows[2] == ["1", "Boris", "10", "16", "2", "(6)", "10"]


def test_a_correction_shows_on_the_shared_season_page_at_once(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn", place_points=[10, 6])
    event = evening(olga, season, ["Anna", "Boris"], finish=False)
    url = reverse("season", args=[riga.slug, season.slug])
    first = re.findall(r"<td><a [^>]*>([^<]+)</a>", client.get(url).content.decode())
    assert first[:2] == ["Anna", "Boris"]
    match_result_correct(match=event.matches.get(), by=olga, score=(0, 3))
    again = re.findall(r"<td><a [^>]*>([^<]+)</a>", client.get(url).content.decode())
    assert again[:2] == ["Boris", "Anna"]


def test_the_season_page_takes_the_same_queries_whatever_its_size(
    client, olga, riga, django_assert_num_queries
):
    small = season_create(club=riga, by=olga, name="Small")
    evening(olga, small, ["A1", "A2"])
    large = season_create(club=riga, by=olga, name="Large")
    for _ in range(4):
        evening(olga, large, ["B1", "B2", "B3", "B4", "B5"])
    evening(olga, large, ["B1", "B2", "B3", "B4"], fmt="single-elimination")
    staged = tournament_create(organizer=olga, name="Two stages", variant="long", season=large,
                               format="single-elimination", first_stage="groups", groups=2,
                               advance=1, match_length=3)  # fmt: skip
    for name in ("B1", "B2", "B3", "B4"):
        entry_register(tournament=staged, player=Player.objects.get(display_name=name), by=olga)
    tournament_start(tournament=staged, by=olga)
    counts = []
    for season in (small, large):
        from django.db import connection  # noqa: PLC0415
        from django.test.utils import CaptureQueriesContext  # noqa: PLC0415

        with CaptureQueriesContext(connection) as queries:
            assert client.get(reverse("season", args=[riga.slug, season.slug])).status_code == 200
        counts.append(len(queries))
    print("season page queries", counts)
    assert counts[0] == counts[1] <= 10, counts


def test_tournament_pages_name_their_club_and_season(client, olga, riga):
    season = season_create(club=riga, by=olga, name="Autumn")
    event = evening(olga, season, ["Anna", "Boris"], finish=False)
    page = client.get(reverse("tournament", args=[event.slug]))
    assert 'data-role="club"' in page.content.decode() and "Autumn" in text(page)
