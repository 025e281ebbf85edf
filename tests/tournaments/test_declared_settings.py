"""A tournament's settings are declared once, on their model fields: the organizer's form, the API
(its serializer and OpenAPI schema), the validation, the lists of what the start locks and what a
stage inherits, the rules summary and the page's show/hide data are all made from the
declarations, so a setting cannot be in one and missing from another. The minimum number of
players is the first rule added on this way: a start below it is refused, with the reason."""

import json

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.web.test_organize import FORM, as_user
from tournaments.api.serializers import TournamentSerializer
from tournaments.declarations import Section, Stages, settings_of
from tournaments.errors import Conflict, InvalidInput
from tournaments.models import Player, Tournament
from tournaments.services import (
    entry_register,
    pair_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
    tournament_update,
)
from tournaments.services.lifecycle import EDITABLE_SETTINGS, LOCKED_SETTINGS
from tournaments.services.two_stages import INHERITED
from tournaments.stages.services import BRACKET_OPTIONS
from tournaments.web.forms import TournamentForm
from tournaments.web.public import rules_summary

pytestmark = pytest.mark.django_db

SETTINGS = settings_of(Tournament)
NAMES = [item.name for item in SETTINGS]


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


def enter(tournament: Tournament, by: User, count: int) -> None:
    for number in range(1, count + 1):
        player = Player.objects.create(display_name=f"{tournament.slug} {number}")
        entry_register(tournament=tournament, player=player, by=by)


# --- Made from the declarations ------------------------------------------------------------------


def test_every_rule_of_a_tournament_is_declared_and_the_bookkeeping_fields_are_not():
    assert {"variant", "format", "match_length", "time_control", "min_age", "capacity"} <= set(
        NAMES
    )
    assert "min_participants" in NAMES
    assert not {"slug", "status", "organizer", "rated", "revision", "parent"} & set(NAMES)


def test_the_form_shows_every_declared_setting_once_in_its_section():
    form = TournamentForm(clubs=[])
    shown = [name for _legend, names in TournamentForm.FIELDSETS for name in names]
    assert len(shown) == len(set(shown))
    assert set(shown) == set(form.fields)
    for item in SETTINGS:
        legend = item.setting.section.label
        names = dict(TournamentForm.FIELDSETS)[legend]
        assert set(item.form_fields()) <= set(names), item.name
    assert [legend for legend, _names in TournamentForm.FIELDSETS] == [
        section.label for section in Section
    ]


def test_the_sections_are_named_in_the_readers_language(client, olga):
    with translation.override("ru"):
        assert str(TournamentForm.FIELDSETS[0][0]) == "Турнир"
    as_user(client, olga)
    page = client.get(reverse("tournament-create"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "<legend>Турнир</legend>" in page


def test_the_page_script_reads_each_settings_conditions_from_its_declaration():
    form = TournamentForm(clubs=[])
    for item in SETTINGS:
        if item.setting.applies and item.setting.form is None:
            data = json.loads(form.fields[item.name].applies_when)
            assert data == {key: list(values) for key, values in item.setting.applies.items()}
    assert not hasattr(form.fields["name"], "applies_when")


def test_the_api_and_its_schema_carry_every_declared_setting_with_its_help(client):
    fields = TournamentSerializer().fields
    assert set(NAMES) <= set(fields)
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    properties = schema["components"]["schemas"]["Tournament"]["properties"]
    for item in SETTINGS:
        assert item.name in properties
        described = properties[item.name].get("description", "")
        if item.field.choices and not (item.field.blank or item.field.null):
            assert not described, item.name  # a choice keeps its enum's bare reference
        elif item.field.help_text and item.name not in ("time_control", "tiebreaks"):
            assert described.startswith(str(item.field.help_text)), item.name
    assert properties["min_participants"]["minimum"] == 2


def test_the_lists_of_what_is_locked_and_inherited_come_from_the_declarations():
    assert set(NAMES) == EDITABLE_SETTINGS
    assert set(NAMES) - {"name", "venue"} == LOCKED_SETTINGS
    every = {item.name for item in SETTINGS if item.setting.stages == Stages.EVERY}
    assert every <= set(INHERITED) and {"pairs", "casual", "match_length"} <= every
    assert set(BRACKET_OPTIONS) == {"third_place", "grand_final", "consolation_kind", "last_chance"}


def test_a_pairs_events_stages_are_pairs_and_casual_as_it_is(olga):
    """Declared once, the stages take the discipline too: the stages of a pairs event were
    single players' tournaments, and their matches would have been rated on the singles list."""
    cup = tournament_create(
        organizer=olga, name="Pairs Cup", variant="short", format="single-elimination",
        first_stage="swiss", swiss_rounds=2, advance=2, match_length=3, pairs=True, casual=True,
    )  # fmt: skip
    for number in range(4):
        first = Player.objects.create(display_name=f"First {number}")
        second = Player.objects.create(display_name=f"Second {number}")
        pair_register(tournament=cup, first=first, second=second, by=olga)
    tournament_start(tournament=cup, by=olga)
    assert [(stage.pairs, stage.casual) for stage in cup.stages.all()] == [(True, True)]


def test_a_value_refused_where_its_rule_does_not_apply_names_the_rule(olga):
    cases = [
        ({"variant": "long", "koks": True}, "Short Nardy rules"),
        ({"variant": "short", "federation_draw": True}, "Long Nardy rule"),
        ({"variant": "long", "pairs": True}, "no pairs in Long Nardy"),
        ({"variant": "short", "swiss_out_after_losses": 2}, "one-stage Swiss"),
    ]
    for settings, reason in cases:
        with pytest.raises(InvalidInput, match=reason):
            tournament_create(organizer=olga, name="Cup", match_length=3, **settings)
    assert not Tournament.objects.exists()


def test_a_value_that_plays_no_part_is_kept_quietly(olga):
    cup = tournament_create(
        organizer=olga, name="Cup", variant="short", match_length=3, third_place=True
    )
    assert cup.third_place and "Third-place match" not in dict(rules_summary(cup))


def test_the_summary_says_what_applies_in_the_order_of_the_declarations(olga):
    cup = tournament_create(
        organizer=olga, name="Cup", variant="long", format="single-elimination", match_length=5,
        third_place=True, federation_draw=True, draw_counts="one", min_age=12,
        min_participants=6,
    )  # fmt: skip
    summary = dict(rules_summary(cup))
    assert summary["Game"] == "Long Nardy"
    assert summary["Third-place match"] == "yes"
    assert summary["Federation draw rule"] == "yes, a drawn game counts 1–1"
    assert summary["Fewest players"] == "6"
    assert summary["Minimum age"].startswith("12 ")
    assert "Koks (triple game)" not in summary and "Match points" not in summary
    labels = [label for label, _value in rules_summary(cup)]
    assert labels.index("Game") < labels.index("Match") < labels.index("Third-place match")
    assert labels[-1] == "Rated"


@pytest.mark.parametrize(
    ("length", "games", "english", "russian"),
    [
        (1, None, "to 1 point", "до 1 очка"),
        (3, None, "to 3 points", "до 3 очков"),
        (None, 1, "1 game", "из 1 партии"),
        (None, 5, "5 games", "из 5 партий"),
    ],
)
def test_the_match_is_said_with_the_number_s_plural(olga, length, games, english, russian):
    kind = {"match_length": length} if length else {"match_games": games, "match_length": None}
    cup = tournament_create(organizer=olga, name="Cup", variant="short", **kind)
    assert dict(rules_summary(cup))["Match"] == english
    with translation.override("ru"):
        assert dict(rules_summary(cup))["Матч"] == russian


def test_after_the_start_the_name_may_change_and_no_rule(olga):
    cup = tournament_create(organizer=olga, name="Cup", variant="short", match_length=3)
    enter(cup, olga, 2)
    cup = tournament_start(tournament=cup, by=olga)

    page = Client()
    page.force_login(olga)
    overview = page.get(reverse("tournament", args=[cup.slug])).content.decode()
    assert 'data-action="rename"' in overview
    renamed = tournament_update(tournament=cup, by=olga, name="Spring Cup", match_length=3)
    with pytest.raises(Conflict, match="locked"):
        tournament_update(tournament=cup, by=olga, match_length=5)

    renamed.refresh_from_db()
    assert (renamed.name, renamed.match_length) == ("Spring Cup", 3)


# --- The minimum number of players --------------------------------------------------------------


def test_a_start_below_the_fewest_players_is_refused_with_the_reason_and_changes_nothing(olga):
    cup = tournament_create(
        organizer=olga, name="Cup", variant="short", match_length=3, min_participants=4
    )
    cup = tournament_open_registration(tournament=cup, by=olga)
    enter(cup, olga, 3)

    with pytest.raises(Conflict, match="needs at least 4 players and 3 are entered"):
        tournament_start(tournament=cup, by=olga)

    cup.refresh_from_db()
    assert cup.status == Tournament.Status.REGISTRATION and not cup.matches.exists()
    player = Player.objects.create(display_name="Fourth")
    entry_register(tournament=cup, player=player, by=olga)
    assert tournament_start(tournament=cup, by=olga).status == Tournament.Status.RUNNING


def test_the_fewest_players_is_two_or_more_and_no_more_than_the_places(olga):
    with pytest.raises(InvalidInput, match="min_participants"):
        tournament_create(
            organizer=olga, name="Cup", variant="short", match_length=3, min_participants=1
        )
    with pytest.raises(InvalidInput, match="more than the places"):
        tournament_create(
            organizer=olga, name="Cup", variant="short", match_length=3, min_participants=9,
            self_signup=True, capacity=8,
        )  # fmt: skip
    assert not Tournament.objects.exists()


def test_the_organizer_sets_it_on_the_form_and_the_start_page_refuses_with_the_reason(client, olga):
    organizer = as_user(client, olga)
    made = organizer.post(reverse("tournament-create"), {**FORM, "min_participants": "3"})
    assert made.status_code == 302, made.content.decode()
    cup = Tournament.objects.get()
    assert cup.min_participants == 3
    edit = organizer.get(reverse("tournament-edit", args=[cup.slug])).content.decode()
    assert 'name="min_participants"' in edit
    enter(cup, olga, 2)

    refused = organizer.post(reverse("tournament-step", args=[cup.slug, "start"]))

    assert refused.status_code == 409
    assert "needs at least 3 players and 2 are entered" in refused.content.decode()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.DRAFT


def test_the_api_takes_it_and_refuses_the_start_below_it(olga):
    client = Client()
    client.force_login(olga)
    made = client.post(
        "/api/v1/tournaments/new",
        {"name": "Cup", "slug": "cup", "variant": "long", "match_length": 3,
         "min_participants": 3},
        content_type="application/json",
    )  # fmt: skip
    assert made.status_code == 201, made.content
    assert made.json()["min_participants"] == 3
    cup = Tournament.objects.get(slug="cup")
    enter(cup, olga, 2)

    refused = client.post("/api/v1/tournaments/cup/start", content_type="application/json")

    assert refused.status_code == 409
    assert "needs at least 3 players" in refused.content.decode()
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.DRAFT
