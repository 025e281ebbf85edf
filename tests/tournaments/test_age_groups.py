"""Age groups (issue 48): a maximum age beside the minimum, counted as art. 7.3 counts the age
(reached in the calendar year); the youth groups' presets (9–11 admitted from 7, 12–14, 15–17);
boys and girls in a youth event; an official event's minimum of 10 (art. 7.2) unless a youth
group is chosen; and refusals that say the group."""

from datetime import datetime

import pytest
from django.contrib.auth.models import User
from django.urls import reverse
from django.utils import timezone

from tests.web.test_organize import FORM, as_user
from tests.web.test_signup_pages import text as text_of
from tournaments import eligibility
from tournaments.declarations import summary_of
from tournaments.eligibility import YOUTH_GROUPS, Problem, Refusal, refusal, youth_group
from tournaments.errors import Conflict, InvalidInput, NotAllowed
from tournaments.models import Player, Tournament
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_update,
)
from tournaments.signups.models import SignUp
from tournaments.signups.services import signup_request

pytestmark = pytest.mark.django_db

START = timezone.make_aware(datetime(2026, 11, 10, 10))


# --- The pure check ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("birth_year", "expected"),
    [
        (2020, Refusal(Problem.TOO_YOUNG, 6)),
        (2019, None),  # 7 in 2026: the 9–11 group admits from 7
        (2015, None),  # 11 all through 2026, birthday or not
        (2014, Refusal(Problem.TOO_OLD, 12)),
        (None, Refusal(Problem.BIRTH_YEAR_UNKNOWN)),
    ],
)
def test_the_maximum_age_is_counted_in_the_calendar_year(birth_year, expected):
    found = refusal(
        gender="male", birth_year=birth_year, category="men", min_age=7, max_age=11, year=2026
    )
    assert found == expected


def test_a_maximum_alone_asks_for_the_birth_year_and_the_category_comes_first():
    assert refusal(
        gender="", birth_year=None, category="", min_age=None, max_age=17, year=2026
    ) == (Refusal(Problem.BIRTH_YEAR_UNKNOWN))
    assert refusal(
        gender="female", birth_year=2000, category="men", min_age=None, max_age=17, year=2026
    ) == Refusal(Problem.WRONG_CATEGORY)


def test_the_youth_groups_are_the_federations():
    assert {name: (g.min_age, g.max_age) for name, g in YOUTH_GROUPS.items()} == {
        "9-11": (7, 11), "12-14": (12, 14), "15-17": (15, 17)
    }  # fmt: skip
    assert youth_group(7, 11) is YOUTH_GROUPS["9-11"] and youth_group(9, 11) is None
    assert eligibility.is_youth(17) and not eligibility.is_youth(18)
    assert not eligibility.is_youth(None)


# --- Events --------------------------------------------------------------------------------------


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def youth(olga, group="9-11", **settings) -> Tournament:
    ages = YOUTH_GROUPS[group]
    cup = tournament_create(
        organizer=olga, name=f"Youth {group}", slug="youth", variant="long", self_signup=True,
        category="men", min_age=ages.min_age, max_age=ages.max_age, starts_at=START, **settings,
    )  # fmt: skip
    return tournament_open_registration(tournament=cup, by=olga)


def kid(name, birth_year, gender="male") -> User:
    user = User.objects.create_user(name.lower())
    Player.objects.create(display_name=name, user=user, gender=gender, birth_year=birth_year)
    return user


TWELVE = (
    "This tournament is for the age group 9–11, admitted from 7 (the age reached in 2026): "
    "you are 12 in 2026."
)


def test_a_youth_event_of_9_to_11_refuses_a_12_year_old(client, olga):
    cup = youth(olga)
    timur = kid("Timur", 2014)
    with pytest.raises(NotAllowed) as refused:
        signup_request(tournament=cup, by=timur)
    assert refused.value.message == TWELVE
    as_user(client, timur)
    answer = client.post(
        "/api/v1/tournaments/youth/signups/new", {}, content_type="application/json"
    )
    assert answer.status_code == 403 and answer.json()["error"]["message"] == TWELVE
    page = client.post(reverse("tournament-signup", args=["youth"]), {"action": "signup"})
    assert page.status_code == 403 and TWELVE in text_of(page)
    assert not SignUp.objects.filter(tournament=cup).exists()
    assert signup_request(tournament=cup, by=kid("Mark", 2019)).state == SignUp.State.ENTERED
    with pytest.raises(NotAllowed, match="you are 6 in 2026"):
        signup_request(tournament=cup, by=kid("Lev", 2020))


def test_an_organizers_entry_is_refused_by_the_group_with_the_reason(olga):
    cup = youth(olga, "12-14")
    club_player = Player.objects.create(display_name="Ruslan", birth_year=2010, gender="male")
    with pytest.raises(Conflict, match="does not meet this tournament's category"):
        entry_register(tournament=cup, player=club_player, by=olga)  # not hers: no reason given
    staff = User.objects.create_user("sam", is_staff=True)
    Tournament.objects.filter(pk=cup.pk).update(organizer=staff)
    cup.refresh_from_db()
    with pytest.raises(NotAllowed) as refused:
        entry_register(tournament=cup, player=club_player, by=staff)
    assert refused.value.message == (
        "This tournament is for the age group 12–14 (the age reached in 2026): Ruslan is 16 in "
        "2026."
    )
    assert not cup.entries.exists()


def test_a_youth_event_calls_its_men_boys_and_its_women_girls(olga):
    cup = youth(olga)
    summary = dict(summary_of(cup))
    assert summary["Category"] == "Boys"
    assert summary["Age group"] == "9–11, admitted from 7 (counted in the calendar year 2026)"
    assert "Minimum age" not in summary
    with pytest.raises(NotAllowed, match="^This tournament is for boys only.$"):
        signup_request(tournament=cup, by=kid("Alina", 2016, gender="female"))
    cup = tournament_update(tournament=cup, by=olga, category="women", max_age=17, min_age=15)
    assert dict(summary_of(cup))["Category"] == "Girls"
    assert dict(summary_of(cup))["Age group"].startswith("15–17 ")
    adults = tournament_create(organizer=olga, name="Adults", variant="long", category="women")
    assert dict(summary_of(adults))["Category"] == "Women"


def test_the_sign_up_page_says_the_group_in_words(client, olga):
    cup = youth(olga)
    page = text_of(
        as_user(client, kid("Mark", 2019)).get(reverse("tournament-signup", args=["youth"]))
    )
    assert (
        "For boys." in page and "Age group 9–11, admitted from 7, the age reached in 2026." in page
    )
    lists = client.get("/api/v1/tournaments/youth/signups/").json()
    assert (lists["min_age"], lists["max_age"], lists["age_group"]) == (
        7,
        11,
        "9–11, admitted from 7",
    )
    assert cup.is_youth


def test_a_maximum_below_the_minimum_is_refused(olga):
    with pytest.raises(InvalidInput, match="The maximum age is below the minimum age."):
        tournament_create(organizer=olga, name="Odd", variant="long", min_age=12, max_age=11)
    assert not Tournament.objects.exists()


# --- An official event's minimum age -------------------------------------------------------------


def test_an_official_event_takes_the_rules_minimum_of_10_unless_a_youth_group_is_chosen(olga):
    official = tournament_create(organizer=olga, name="Championship", variant="long", official=True)
    assert (official.min_age, official.max_age) == (10, None)
    group = tournament_create(
        organizer=olga, name="Youth", variant="long", official=True, min_age=7, max_age=11
    )
    assert (group.min_age, group.max_age) == (7, 11)
    only_max = tournament_create(
        organizer=olga, name="Under 15", variant="long", official=True, max_age=14
    )
    assert only_max.min_age is None
    given = tournament_create(
        organizer=olga, name="Seniors", variant="long", official=True, min_age=18
    )
    assert given.min_age == 18
    casual = tournament_create(organizer=olga, name="Evening", variant="long")
    assert casual.min_age is None


def test_the_api_gives_an_official_event_the_minimum_of_10(client, olga):
    as_user(client, olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup of Russia", "variant": "long", "official": True},
        content_type="application/json",
    )
    assert made.status_code == 201 and made.json()["min_age"] == 10
    youth_made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Youth Cup", "variant": "long", "official": True, "min_age": 12, "max_age": 14},
        content_type="application/json",
    )
    assert (youth_made.json()["min_age"], youth_made.json()["max_age"]) == (12, 14)


def test_the_form_offers_the_youth_groups_and_an_official_event_gets_10(client, olga):
    as_user(client, olga)
    page = client.get(reverse("tournament-create")).content.decode()
    assert 'name="age_group"' in page and "Youth 9–11, admitted from 7" in page
    response = client.post(
        reverse("tournament-create"), {**FORM, "name": "Youth", "age_group": "9-11", "min_age": "3"}
    )
    assert response.status_code == 302
    made = Tournament.objects.get(name="Youth")
    assert (made.min_age, made.max_age) == (7, 11)
    edit = client.get(reverse("tournament-edit", args=[made.slug]))
    assert edit.context["form"].initial["age_group"] == "9-11"
    assert 'data-when="{&quot;age_group&quot;: [&quot;&quot;]}"' in edit.content.decode()
    client.post(  # no group: the ages as given
        reverse("tournament-edit", args=[made.slug]),
        {**FORM, "name": "Youth", "age_group": "", "min_age": "8", "max_age": "12"},
    )
    made.refresh_from_db()
    assert (made.min_age, made.max_age, made.age_group_text()) == (8, 12, "8–12")
    client.post(reverse("tournament-create"), {**FORM, "name": "Official", "official": "on"})
    assert Tournament.objects.get(name="Official").min_age == 10
    client.post(
        reverse("tournament-create"),
        {**FORM, "name": "Official youth", "official": "on", "age_group": "15-17"},
    )
    assert (Tournament.objects.get(name="Official youth").min_age, 17) == (15, 17)
    client.post(reverse("tournament-create"), {**FORM, "name": "Casual"})
    assert Tournament.objects.get(name="Casual").min_age is None
    bad = client.post(
        reverse("tournament-create"), {**FORM, "name": "Odd", "min_age": "12", "max_age": "9"}
    )
    assert bad.status_code == 400 and bad.context["form"].errors["max_age"]
