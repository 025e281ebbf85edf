"""Regions and ranks on the profile (issue 48): the subjects of the Russian Federation by their
ISO 3166-2:RU codes, named in Russian and English; a player's region, sport rank and its date,
personal as the gender and birth year are (published only by official events, whose sign-up and
entry pages say so)."""

import doctest
from datetime import date, timedelta

import pycountry
import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import translation

from tests.web.test_organize import as_user
from tests.web.test_signup_pages import text as text_of
from tournaments import regions, words
from tournaments.models import Player
from tournaments.players.models import IdentityAudit
from tournaments.players.services import identity_undo, players_merge
from tournaments.services import tournament_create, tournament_open_registration

pytestmark = pytest.mark.django_db


# --- The regions ---------------------------------------------------------------------------------


def test_the_codes_are_iso_3166_2_rus_subdivisions():
    iso = {subdivision.code for subdivision in pycountry.subdivisions.get(country_code="RU")}
    assert iso == regions.REGION_CODES and len(iso) == 83
    assert max(len(code) for code in iso) == regions.REGION_CODE_LENGTH


def test_every_subject_has_a_russian_and_an_english_name_of_its_own():
    russian = [regions.region_name(code, "ru") for code in regions.REGION_CODES]
    english = [regions.region_name(code, "en") for code in regions.REGION_CODES]
    assert len(set(russian)) == len(set(english)) == 83
    assert all(any("а" <= letter <= "я" for letter in name.lower()) for name in russian)
    assert all(name.isascii() or "–" in name for name in english)
    assert regions.region_name("RU-KHM", "ru") == "Ханты-Мансийский автономный округ — Югра"
    assert regions.region_name("RU-KHM", "en") == "Khanty-Mansi Autonomous Okrug – Yugra"
    assert regions.region_name("RU-AD", "ru-RU") == "Республика Адыгея"
    assert regions.region_name("RU-MOW", "en") == "Moscow" and regions.region_name("", "ru") == ""


def test_the_choices_are_sorted_by_name_in_the_language():
    for language in ("ru", "en"):
        names = [name for _code, name in regions.region_choices(language)]
        assert names == sorted(names, key=regions.sort_key) and len(names) == 83
    russian = [name for _code, name in regions.region_choices("ru")]
    assert russian.index("Республика Адыгея") < russian.index("Алтайский край")  # by "Адыгея"
    assert russian[-1] == "Ярославская область"


def test_the_sites_helper_speaks_the_active_language():
    with translation.override("ru"):
        assert words.region_name("RU-SPE") == "Санкт-Петербург"
        assert words.region_choices()[0] == ("RU-AD", "Республика Адыгея")
    with translation.override("en"):
        assert words.region_name("RU-SPE") == "Saint Petersburg"


def test_the_docstring_examples_hold():
    assert doctest.testmod(regions).failed == 0


# --- The profile ---------------------------------------------------------------------------------


@pytest.fixture
def anna():
    user = User.objects.create_user("anna", password="x")
    Player.objects.create(display_name="Anna", user=user)
    return user


def test_a_player_sets_their_region_and_rank_on_the_profile_page(client, anna):
    player = Player.objects.get(user=anna)
    url = reverse("player-profile", args=[player.pk])
    page = as_user(client, anna).get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert '<option value="RU-TA">Республика Татарстан</option>' in page
    assert 'name="sport_rank"' in page and 'name="sport_rank_since"' in page
    response = client.post(
        url,
        {"gender": "female", "birth_year": "1990", "region": "RU-TA", "sport_rank": "kms",
         "sport_rank_since": "2025-06-01"},
    )  # fmt: skip
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.region, player.sport_rank, player.sport_rank_since) == (
        "RU-TA", "kms", date(2025, 6, 1)
    )  # fmt: skip
    # A rank's date without a rank is dropped; a region that is none is refused.
    client.post(url, {"gender": "female", "sport_rank": "", "sport_rank_since": "2025-06-01"})
    player.refresh_from_db()
    assert (player.region, player.sport_rank, player.sport_rank_since) == ("", "", None)
    bad = client.post(url, {"region": "RU-XX"})
    assert bad.status_code == 400 and bad.context["form"].errors["region"]


def test_the_api_shows_and_changes_the_region_and_rank_and_keeps_them_private(client, anna):
    player = Player.objects.get(user=anna)
    api = f"/api/v1/players/{player.pk}/profile"
    as_user(client, anna)
    changed = client.patch(
        api, {"region": "RU-MOW", "sport_rank": "1", "sport_rank_since": "2024-03-02"},
        content_type="application/json",
    )  # fmt: skip
    assert changed.status_code == 200
    assert {key: changed.json()[key] for key in ("region", "sport_rank", "sport_rank_since")} == {
        "region": "RU-MOW", "sport_rank": "1", "sport_rank_since": "2024-03-02"
    }  # fmt: skip
    assert (
        client.patch(api, {"gender": "female"}, content_type="application/json").json()["region"]
        == "RU-MOW"
    )  # a patch keeps what it does not name
    for bad in ({"region": "RU-XX"}, {"sport_rank": "gm"},
                {"sport_rank_since": (date.today() + timedelta(days=2)).isoformat()}):  # fmt: skip
        assert client.patch(api, bad, content_type="application/json").status_code == 400
    player.refresh_from_db()
    assert (player.region, player.sport_rank, player.sport_rank_since) == (
        "RU-MOW", "1", date(2024, 3, 2)
    )  # fmt: skip
    # Nobody else reads them, and the public player never says them.
    other = User.objects.create_user("oscar")
    as_user(client, other)
    assert client.get(api).status_code == 403
    public = client.get(f"/api/v1/players/{player.pk}/").json()
    assert not {"region", "sport_rank", "sport_rank_since"} & set(public)
    page = client.get(reverse("player", args=[player.pk])).content.decode()
    assert "RU-MOW" not in page and "Moscow" not in page


def test_a_merge_fills_in_the_region_and_rank_and_its_undoing_takes_them_back():
    staff = User.objects.create_user("sam", is_staff=True)
    keep = Player.objects.create(display_name="Vera")
    drop = Player.objects.create(
        display_name="Vera P.", region="RU-SPE", sport_rank="2", sport_rank_since=date(2023, 1, 5)
    )
    players_merge(keep=keep, drop=drop, by=staff)
    keep.refresh_from_db()
    assert (keep.region, keep.sport_rank, keep.sport_rank_since) == (
        "RU-SPE",
        "2",
        date(2023, 1, 5),
    )
    identity_undo(change=IdentityAudit.objects.get(action="merged"), by=staff)
    keep.refresh_from_db()
    restored = Player.objects.get(display_name="Vera P.")
    assert (keep.region, keep.sport_rank, keep.sport_rank_since) == ("", "", None)
    assert (restored.region, restored.sport_rank, restored.sport_rank_since) == (
        "RU-SPE", "2", date(2023, 1, 5)
    )  # fmt: skip


# --- The consent of an official event ------------------------------------------------------------


CONSENT = "An official event publishes the birth year, the region and the sport rank"


def test_an_official_events_sign_up_and_entry_pages_say_what_it_publishes(client, anna):
    olga = User.objects.create_user("olga")
    official = tournament_create(
        organizer=olga, name="Championship", slug="champ", variant="long", official=True,
        self_signup=True,
    )  # fmt: skip
    tournament_open_registration(tournament=official, by=olga)
    casual = tournament_create(
        organizer=olga, name="Evening", slug="evening", variant="long", self_signup=True
    )
    tournament_open_registration(tournament=casual, by=olga)
    as_user(client, anna)
    signup = text_of(client.get(reverse("tournament-signup", args=["champ"])))
    assert CONSENT in signup and "Signing up, you agree to have yours published." in signup
    assert CONSENT not in text_of(client.get(reverse("tournament-signup", args=["evening"])))
    lists = client.get("/api/v1/tournaments/champ/signups/").json()
    assert lists["official"] is True and lists["publishes"].startswith(CONSENT)
    assert client.get("/api/v1/tournaments/evening/signups/").json()["publishes"] == ""
    as_user(client, olga)
    entry = text_of(client.get(reverse("tournament-players", args=["champ"])))
    assert CONSENT in entry and "Entering a player is entering them on these terms" in entry
    assert CONSENT not in text_of(client.get(reverse("tournament-players", args=["evening"])))
