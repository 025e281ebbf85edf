"""The organizer's pages and a player's own matches. Every refusal is the page again with its
reason under a 4xx status, and changes nothing."""

import html
import re

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import Q
from django.urls import reverse

from tournaments import services
from tournaments.errors import Conflict
from tournaments.matches import results
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.services import tournament_update
from tournaments.web.forms import TournamentForm

pytestmark = pytest.mark.django_db

#: A valid form: a Short Nardy round robin, matches to 5 points, every switch at its default.
FORM = {
    "name": "Spring Open",
    "variant": "short",
    "format": "round-robin",
    "rating_system": "fibs",
    "match_kind": "points",
    "match_size": "5",
    "draw_counts": "half",
    "block_check": "step",
    "dave": "on",
    "dave_progression": "geometric",
    "crawford": "on",
    "grand_final": "reset",
    "consolation_kind": "first-round",
    "points_win": "1",
    "points_draw": "0.5",
    "points_loss": "0",
    "points_bye": "1",
}


@pytest.fixture
def olga():
    return User.objects.create_user("olga", password="x")


@pytest.fixture
def outsider():
    return User.objects.create_user("oscar", password="x")


@pytest.fixture
def draft(olga):
    return services.tournament_create(
        organizer=olga, name="Spring Open", variant="short", match_length=5
    )


def as_user(client, user):
    client.force_login(user)
    return client


def page_text(response) -> str:
    return html.unescape(response.content.decode())


def entry_names(tournament) -> list[str]:
    return sorted(tournament.entries.values_list("player__display_name", flat=True))


# --- Creating a tournament ---------------------------------------------------------------------


def test_the_create_form_explains_every_rule_in_plain_words(client, olga):
    response = as_user(client, olga).get(reverse("tournament-create"))

    assert response.status_code == 200
    form = response.context["form"]
    shown = [field.name for _, fields in form.fieldsets() for field in fields]
    assert sorted(shown) == sorted(form.fields)
    assert all(field.help_text for field in form.fields.values())
    text = page_text(response)
    assert "the loser has borne off no checker and still has one on the bar" in text
    assert "nobody may offer dave" in text


def test_the_form_covers_every_rule_the_service_lets_an_organizer_change():
    # The match's size and the clock are each made of fields of the form's own.
    fields = set(TournamentForm.Meta.fields) | {"match_length", "match_games", "time_control"}

    assert fields == services.EDITABLE_SETTINGS


def test_an_organizer_creates_a_tournament_and_lands_on_its_page(client, olga):
    form = {
        **FORM, "match_kind": "games", "match_size": "3",
        "tiebreaks": ["sonneborn-berger", "", "buchholz"], "koks": "on",
    }  # fmt: skip

    response = as_user(client, olga).post(reverse("tournament-create"), form)

    tournament = Tournament.objects.get()
    assert response.status_code == 302
    assert response.url == reverse("tournament", args=[tournament.slug])
    assert tournament.organizer == olga and tournament.status == Tournament.Status.DRAFT
    assert (tournament.match_length, tournament.match_games) == (None, 3)
    assert tournament.tiebreaks == ["sonneborn-berger", "buchholz"]
    assert tournament.koks and tournament.crawford and not tournament.federation_draw


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": "swiss"}, "Say how many rounds the Swiss tournament has, or after how many "
         "lost matches a player is out."),
        ({"format": "single-elimination", "first_stage": "groups", "advance": "1"},
         "Say how many groups the first stage has."),
    ],
)  # fmt: skip
def test_rules_that_do_not_fit_together_are_refused_with_the_reason(client, olga, change, message):
    response = as_user(client, olga).post(reverse("tournament-create"), {**FORM, **change})

    assert response.status_code == 400
    assert message in page_text(response)
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    ("change", "ignored"),
    [
        ({"variant": "long", "koks": "on", "no_hit_and_hide": "on"},
         {"koks": False, "no_hit_and_hide": False}),
        ({"federation_draw": "on", "draw_counts": "one", "block_check": "turn"},
         {"federation_draw": False, "draw_counts": "half", "block_check": "step"}),
        ({"dave": "", "max_stake": "8", "dave_progression": "arithmetic"},
         {"max_stake": None, "dave_progression": "geometric"}),
        ({"third_place": "on", "swiss_rounds": "5", "first_stage": "groups", "groups": "4"},
         {"third_place": False, "swiss_rounds": None, "first_stage": "", "groups": None}),
        ({"format": "single-elimination", "tiebreaks": ["wins"], "points_win": "3"},
         {"tiebreaks": [], "points_win": 1}),
        ({"capacity": "8", "signup_approval": "on"}, {"capacity": None, "signup_approval": False}),
    ],
)  # fmt: skip
def test_the_fields_that_do_not_apply_are_ignored(client, olga, change, ignored):
    """What the page hides for the chosen game and format is not applied, whatever it says."""
    response = as_user(client, olga).post(reverse("tournament-create"), {**FORM, **change})

    assert response.status_code == 302, page_text(response)
    tournament = Tournament.objects.get()
    assert {name: getattr(tournament, name) for name in ignored} == ignored


@pytest.mark.parametrize(
    "change",
    [
        {"match_size": "0"},
        {"match_kind": ""},
        {"name": ""},
        {"tiebreaks": ["wins", "wins"]},
        {"tiebreaks": ["luck"]},
    ],
)
def test_a_form_with_bad_fields_is_a_400_and_creates_nothing(client, olga, change):
    response = as_user(client, olga).post(reverse("tournament-create"), {**FORM, **change})

    assert response.status_code == 400
    assert response.context["form"].errors
    assert not Tournament.objects.exists()


def test_a_visitor_is_sent_to_log_in_before_creating(client):
    response = client.get(reverse("tournament-create"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


# --- Editing the rules -------------------------------------------------------------------------


def test_the_edit_form_shows_the_stored_rules(client, olga):
    tournament = services.tournament_create(
        organizer=olga,
        name="Cup",
        variant="long",
        match_length=None,
        match_games=4,
        tiebreaks=["wins", "rating"],
    )

    response = as_user(client, olga).get(reverse("tournament-edit", args=[tournament.slug]))

    assert response.status_code == 200
    form = response.context["form"]
    assert (form["match_kind"].value(), form["match_size"].value()) == ("games", 4)
    assert form["tiebreaks"].value() == ["wins", "rating"]
    assert not response.context["locked"]


def test_an_organizer_changes_the_rules_before_the_start(client, olga, draft):
    response = as_user(client, olga).post(
        reverse("tournament-edit", args=[draft.slug]),
        {**FORM, "name": "Spring Cup", "match_size": "7"},
    )

    assert response.status_code == 302
    draft.refresh_from_db()
    assert (draft.name, draft.match_length, draft.slug) == ("Spring Cup", 7, "spring-open")


def test_an_edit_that_does_not_fit_is_refused_and_changes_nothing(client, olga, draft):
    response = as_user(client, olga).post(
        reverse("tournament-edit", args=[draft.slug]), {**FORM, "format": "swiss"}
    )

    assert response.status_code == 400
    assert (
        "Say how many rounds the Swiss tournament has, or after how many lost matches a player "
        "is out." in page_text(response)
    )
    draft.refresh_from_db()
    assert (draft.format, draft.swiss_rounds) == ("round-robin", None)


def test_after_the_start_the_rules_are_shown_locked_but_the_name_and_venue(client, site):
    tournament = site.tournament
    organizer = as_user(client, site.organizer)
    url = reverse("tournament-edit", args=[tournament.slug])

    shown = organizer.get(url)
    posted = organizer.post(url, {**FORM, "name": "Club Cup 2026", "match_size": "11"})

    assert shown.status_code == 200 and shown.context["locked"]
    fields = shown.context["form"].fields
    assert [name for name, field in fields.items() if not field.disabled] == ["name", "venue"]
    assert "its rules are locked" in page_text(shown)
    assert posted.status_code == 302
    tournament.refresh_from_db()
    assert (tournament.name, tournament.match_length) == ("Club Cup 2026", 3)


def test_after_the_start_a_rule_changed_by_a_program_is_a_conflict(site):
    tournament = site.tournament

    with pytest.raises(Conflict, match="its rules are locked"):
        tournament_update(tournament=tournament, by=site.organizer, name="New", match_length=11)

    tournament.refresh_from_db()
    assert (tournament.name, tournament.match_length) == ("Club Cup", 3)


def test_an_outsider_cannot_see_or_change_the_rules(client, outsider, draft):
    url = reverse("tournament-edit", args=[draft.slug])

    shown = as_user(client, outsider).get(url)
    posted = client.post(url, {**FORM, "name": "Mine"})

    assert shown.status_code == 403
    assert posted.status_code == 403
    assert "Only the tournament's organizers may do this." in page_text(posted)
    draft.refresh_from_db()
    assert draft.name == "Spring Open"


# --- Players -----------------------------------------------------------------------------------


def test_the_players_page_lists_the_entrants_for_the_organizer_only(client, site):
    url = reverse("tournament-players", args=[site.tournament.slug])

    response = as_user(client, site.organizer).get(url)
    refused = as_user(client, site.outsider).get(url)

    assert response.status_code == 200
    assert [entry.player.display_name for entry in response.context["entries"]] == [
        "Anna", "Boris", "Carl", "Dina",
    ]  # fmt: skip
    assert refused.status_code == 403


def test_the_organizer_adds_a_new_player_linked_to_an_account(client, olga, draft):
    anna = User.objects.create_user("anna", password="x")
    url = reverse("tournament-players", args=[draft.slug])

    response = as_user(client, olga).post(
        url,
        {"action": "add", "display_name": "Anna", "club": "Riga", "country": "LV",
         "username": "anna", "seed": "1"},
    )  # fmt: skip

    assert response.status_code == 302 and response.url == url
    entry = draft.entries.get()
    assert (entry.player.display_name, entry.player.user, entry.seed) == ("Anna", anna, 1)
    assert "Anna is entered." in page_text(client.get(url))


def test_the_organizer_enters_an_existing_player_from_the_list(client, olga, draft):
    boris = Player.objects.create(display_name="Boris", club="Baku")

    response = as_user(client, olga).post(
        reverse("tournament-players", args=[draft.slug]), {"action": "add", "player": boris.pk}
    )

    assert response.status_code == 302
    assert draft.entries.get().player == boris


@pytest.mark.parametrize(
    ("form", "message"),
    [
        ({}, "Pick an existing player or type a new player's name."),
        ({"display_name": "Anna", "username": "nobody"}, "No site account is called"),
        ({"display_name": "Anna", "country": "lv1"}, "at most 2 characters"),
    ],
)
def test_a_player_that_cannot_be_added_is_a_400_and_adds_nobody(client, olga, draft, form, message):
    response = as_user(client, olga).post(
        reverse("tournament-players", args=[draft.slug]), {"action": "add", **form}
    )

    assert response.status_code == 400
    assert message in page_text(response)
    assert not Player.objects.exists() and not Entry.objects.exists()


def csv_upload(text: str, name: str = "players.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, text.encode("utf-8-sig"), content_type="text/csv")


def test_a_csv_file_adds_every_player_and_says_how_many(client, olga, draft):
    User.objects.create_user("anna", password="x")
    url = reverse("tournament-players", args=[draft.slug])
    upload = csv_upload("name;club;country;seed;username\nAnna;Riga;LV;1;anna\nBoris;Baku;AZ;2;\n")

    response = as_user(client, olga).post(url, {"action": "import", "file": upload})

    assert response.status_code == 302
    assert entry_names(draft) == ["Anna", "Boris"]
    assert "2 players added." in page_text(client.get(url))


def test_a_csv_file_with_one_bad_line_is_rejected_whole_naming_the_line(client, olga, draft):
    upload = csv_upload("name,country\nAnna,LV\nBoris,Azerbaijan\nCarl,EE\n")

    response = as_user(client, olga).post(
        reverse("tournament-players", args=[draft.slug]), {"action": "import", "file": upload}
    )

    assert response.status_code == 400
    assert "Line 3: country: " in page_text(response)
    assert not Player.objects.exists() and not Entry.objects.exists()


def test_a_csv_file_naming_an_entered_player_is_rejected_whole(client, site):
    before = entry_names(site.tournament)
    site.tournament.status = Tournament.Status.REGISTRATION
    site.tournament.save()
    upload = csv_upload("name\nEve\nAnna\n")

    response = as_user(client, site.organizer).post(
        reverse("tournament-players", args=[site.tournament.slug]),
        {"action": "import", "file": upload},
    )

    assert response.status_code == 400
    assert "Line 3: Anna is already entered." in page_text(response)
    assert entry_names(site.tournament) == before
    assert not Player.objects.filter(display_name="Eve").exists()


def test_an_outsider_cannot_import_players(client, outsider, draft):
    response = as_user(client, outsider).post(
        reverse("tournament-players", args=[draft.slug]),
        {"action": "import", "file": csv_upload("name\nEve\n")},
    )

    assert response.status_code == 403
    assert not Player.objects.exists()


def test_withdrawing_before_the_start_removes_the_entry(client, olga, draft):
    services.entries_register(tournament=draft, by=olga, entries=[services.NewEntry(name="Anna")])
    entry = draft.entries.get()

    response = as_user(client, olga).post(
        reverse("tournament-players", args=[draft.slug]), {"action": "withdraw", "entry": entry.pk}
    )

    assert response.status_code == 302
    assert not draft.entries.exists()


def test_withdrawing_during_play_keeps_the_entry_but_marks_it(client, site):
    entry = site.tournament.entries.get(player__display_name="Dina")

    response = as_user(client, site.organizer).post(
        reverse("tournament-players", args=[site.tournament.slug]),
        {"action": "withdraw", "entry": entry.pk},
    )

    assert response.status_code == 302
    entry.refresh_from_db()
    assert entry.withdrawn


def test_withdrawing_by_an_outsider_or_an_unknown_entry_changes_nothing(client, site):
    entry = site.tournament.entries.get(player__display_name="Dina")
    url = reverse("tournament-players", args=[site.tournament.slug])

    by_outsider = as_user(client, site.outsider).post(
        url, {"action": "withdraw", "entry": entry.pk}
    )
    unknown = as_user(client, site.organizer).post(url, {"action": "withdraw", "entry": "x"})
    no_action = client.post(url, {"action": "explode"})

    assert (by_outsider.status_code, unknown.status_code, no_action.status_code) == (403, 400, 400)
    entry.refresh_from_db()
    assert not entry.withdrawn


# --- The tournament's steps --------------------------------------------------------------------


def step(client, tournament, name):
    return client.post(reverse("tournament-step", args=[tournament.slug, name]))


def test_an_organizer_opens_starts_and_finishes_a_tournament(client, olga, draft):
    services.entries_register(
        tournament=draft,
        by=olga,
        entries=[services.NewEntry(name="Anna"), services.NewEntry(name="Boris")],
    )
    as_user(client, olga)

    opened = step(client, draft, "open")
    draft.refresh_from_db()
    assert opened.status_code == 302 and draft.status == Tournament.Status.REGISTRATION
    assert opened.url == reverse("tournament", args=[draft.slug])

    started = step(client, draft, "start")
    draft.refresh_from_db()
    assert started.status_code == 302 and draft.status == Tournament.Status.RUNNING
    match = draft.matches.get()
    results.match_result_record(match=match, by=olga, score=(5, 2))

    finished = step(client, draft, "finish")
    draft.refresh_from_db()
    assert finished.status_code == 302 and draft.status == Tournament.Status.FINISHED


def test_an_organizer_pairs_the_next_swiss_round(client, new_site):
    site = new_site(format="swiss", swiss_rounds=3)
    organizer = site.organizer
    for match in site.tournament.matches.filter(status=Match.Status.SCHEDULED):
        results.match_result_record(match=match, by=organizer, score=(3, 1))

    response = step(as_user(client, organizer), site.tournament, "pair")

    assert response.status_code == 302
    assert site.tournament.rounds.count() == 2
    assert "Round 2 is paired." in page_text(client.get(response.url))


def test_an_outsider_cannot_start_someone_elses_tournament(client, outsider, draft):
    response = step(as_user(client, outsider), draft, "start")

    assert response.status_code == 403
    assert "Only the tournament's organizers may do this." in page_text(response)
    draft.refresh_from_db()
    assert draft.status == Tournament.Status.DRAFT


def test_a_step_that_does_not_fit_the_state_is_a_conflict_and_changes_nothing(client, site):
    before = (Round.objects.count(), Match.objects.count())

    response = step(as_user(client, site.organizer), site.tournament, "finish")

    assert response.status_code == 409
    assert "matches have no decided result yet." in page_text(response)
    assert step(client, site.tournament, "pair").status_code == 409
    assert step(client, site.tournament, "open").status_code == 409
    site.tournament.refresh_from_db()
    assert site.tournament.status == Tournament.Status.RUNNING
    assert (Round.objects.count(), Match.objects.count()) == before


def test_an_unknown_step_is_not_found_and_a_get_is_not_allowed(client, olga, draft):
    as_user(client, olga)

    assert step(client, draft, "explode").status_code == 404
    assert client.get(reverse("tournament-step", args=[draft.slug, "open"])).status_code == 405


# --- My matches --------------------------------------------------------------------------------


def between(site, one: str, other: str) -> Match:
    """The match of two players, whoever plays home."""
    return Match.objects.get(
        Q(home__player__display_name=one, away__player__display_name=other)
        | Q(home__player__display_name=other, away__player__display_name=one),
        tournament=site.tournament,
    )


def test_my_matches_are_grouped_by_who_acts_next(client, site):
    anna = site.players["Anna"]
    reported_by_boris = site.match("Anna", "Boris")
    results.match_result_record(match=reported_by_boris, by=site.players["Boris"], score=(1, 3))
    decided = between(site, "Anna", "Carl")
    results.match_result_record(match=decided, by=site.organizer, score=(3, 0))
    to_play = between(site, "Anna", "Dina")

    response = as_user(client, anna).get(reverse("my-matches"))

    assert response.status_code == 200
    groups = response.context["groups"]
    assert {key: [row.match for row in rows] for key, rows in groups.items()} == {
        "to_play": [to_play], "to_answer": [reported_by_boris], "waiting": [],
        "decided": [decided],
    }  # fmt: skip
    answer = groups["to_answer"][0]
    assert answer.opponent.player.display_name == "Boris"
    assert (answer.my_score, answer.their_score) == (1, 3)
    assert reverse("match", args=[reported_by_boris.pk]) in page_text(response)


def test_the_reporter_waits_for_the_opponent(client, site):
    match = site.match("Anna", "Boris")
    results.match_result_record(match=match, by=site.players["Anna"], score=(3, 1))

    response = as_user(client, site.players["Anna"]).get(reverse("my-matches"))

    assert [row.match for row in response.context["groups"]["waiting"]] == [match]


def test_my_matches_needs_an_account(client):
    response = client.get(reverse("my-matches"))

    assert response.status_code == 302
    assert response.url.startswith(reverse("login"))


def test_a_name_entered_already_leaves_the_field_empty_for_the_next_one(client, olga, draft):
    """A slip (a name entered twice) is refused, and the next name typed is not appended to it:
    the field is empty again, so no player of both names is made (issue 46)."""
    anna = Player.objects.create(display_name="Anna Berzina")
    services.entry_register(tournament=draft, player=anna, by=olga)
    url = reverse("tournament-players", args=[draft.slug])

    refused = as_user(client, olga).post(url, {"action": "add", "display_name": "Anna  Berzina"})

    assert refused.status_code == 400
    assert "Anna Berzina is already entered." in page_text(refused)
    field = re.search(r'<input[^>]*name="display_name"[^>]*>', refused.content.decode())
    assert field is not None and "value=" not in field.group(0)
    assert client.post(url, {"action": "add", "display_name": "Elena Kim"}).status_code == 302
    assert entry_names(draft) == ["Anna Berzina", "Elena Kim"]
    assert not Player.objects.filter(display_name__contains="BerzinaElena").exists()


def test_a_name_refused_for_another_reason_stays_to_be_corrected(client, olga, draft):
    anna = Player.objects.create(display_name="Anna Berzina")
    services.entry_register(tournament=draft, player=anna, by=olga, seed=1)
    url = reverse("tournament-players", args=[draft.slug])

    refused = as_user(client, olga).post(
        url, {"action": "add", "display_name": "Elena Kim", "seed": "1"}
    )

    assert refused.status_code == 400
    assert 'value="Elena Kim"' in refused.content.decode()
    assert not Player.objects.filter(display_name="Elena Kim").exists()
