"""The permission matrix of the site's pages, as tests/api/test_permissions.py is the API's: every
organizer page and action and every player action, for every persona. A visitor is sent to the
login page (302), a signed-in user who may not act gets 403, one who may gets the page (200) or is
sent on (302); and a refused action changes nothing."""

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from tournaments.matches.results import match_result_record
from tournaments.models import Match, Tournament

from .conftest import LOGIN, PERSONAS, TOURNAMENT_FORM, assert_expected, snapshot

ORGANIZERS = {
    "anonymous": LOGIN, "player": 403, "opponent": 403, "another_player": 403,
    "other_organizer": 403, "organizer": 302, "staff": 302, "rating_officer": 403,
}  # fmt: skip
#: A rating officer of the tournament's list, or staff: not its organizer.
OFFICERS = {**ORGANIZERS, "organizer": 403, "rating_officer": 302}
ORGANIZER_PAGES = {**ORGANIZERS, "organizer": 200, "staff": 200}
PLAYERS_AND_ORGANIZERS = {**ORGANIZERS, "player": 302, "opponent": 302}
ANSWERERS = {**PLAYERS_AND_ORGANIZERS, "player": 403}  # the reporter (Anna) does not answer
SIGNED_IN = {persona: 302 for persona in PERSONAS} | {"anonymous": LOGIN}


# --- States the actions need (the world's tournament runs, its one match is scheduled) ----------


def registration(world):
    Match.objects.all().delete()
    world.tournament.rounds.all().delete()
    Tournament.objects.filter(pk=world.tournament.pk).update(status="registration")


def draft(world):
    registration(world)
    Tournament.objects.filter(pk=world.tournament.pk).update(status="draft")


def swiss_round_decided(world):
    Tournament.objects.filter(pk=world.tournament.pk).update(format="swiss", swiss_rounds=3)
    Match.objects.update(status=Match.Status.FINAL, winner=world.match.home)


def no_open_matches(world):
    Match.objects.all().delete()


def reported(world):
    match_result_record(match=world.match, by=world.users["player"], score=(3, 1))


def decided(world):
    match_result_record(match=world.match, by=world.users["organizer"], score=(3, 1))


def rated(world):
    Tournament.objects.filter(pk=world.tournament.pk).update(rated=True)


def players_csv():
    return SimpleUploadedFile("players.csv", b"name,club\nNewcomer,Riga\n", content_type="text/csv")


SCORE = {"mode": "score", "score_home": "3", "score_away": "1"}

# name: (before, address of the world, body, expected)
ACTIONS = {
    "create": (None, lambda w: reverse("tournament-create"), lambda: TOURNAMENT_FORM, SIGNED_IN),
    "edit": (registration, lambda w: reverse("tournament-edit", args=["cup"]),
             lambda: {**TOURNAMENT_FORM, "name": "Renamed Cup"}, ORGANIZERS),
    "players: add": (registration, lambda w: reverse("tournament-players", args=["cup"]),
                     lambda: {"action": "add", "display_name": "Newcomer"}, ORGANIZERS),
    "players: import": (registration, lambda w: reverse("tournament-players", args=["cup"]),
                        lambda: {"action": "import", "file": players_csv()}, ORGANIZERS),
    "players: withdraw": (None, lambda w: reverse("tournament-players", args=["cup"]),
                          lambda: {"action": "withdraw", "entry": "CARL"}, ORGANIZERS),
    "step: open": (draft, lambda w: reverse("tournament-step", args=["cup", "open"]),
                   dict, ORGANIZERS),
    "step: start": (registration, lambda w: reverse("tournament-step", args=["cup", "start"]),
                    dict, ORGANIZERS),
    "step: pair": (swiss_round_decided, lambda w: reverse("tournament-step", args=["cup", "pair"]),
                   dict, ORGANIZERS),
    "step: finish": (no_open_matches,
                     lambda w: reverse("tournament-step", args=["cup", "finish"]),
                     dict, ORGANIZERS),
    "step: rate": (None, lambda w: reverse("tournament-step", args=["cup", "rate"]),
                   dict, OFFICERS),
    "step: unrate": (rated, lambda w: reverse("tournament-step", args=["cup", "unrate"]),
                     dict, OFFICERS),
    "report": (None, lambda w: reverse("match-report", args=[w.match.pk]), lambda: SCORE,
               PLAYERS_AND_ORGANIZERS),
    "confirm": (reported, lambda w: reverse("match-answer", args=[w.match.pk]),
                lambda: {"answer": "confirm"}, ANSWERERS),
    "dispute": (reported, lambda w: reverse("match-answer", args=[w.match.pk]),
                lambda: {"answer": "dispute", "note": "It was 1-3"}, ANSWERERS),
    "resolve as reported": (reported, lambda w: reverse("match-resolve", args=[w.match.pk]),
                            lambda: {"accept": "reported"}, ORGANIZERS),
    "resolve with a score": (reported, lambda w: reverse("match-resolve", args=[w.match.pk]),
                             lambda: {**SCORE, "score_away": "2"}, ORGANIZERS),
    "correct": (decided, lambda w: reverse("match-correct", args=[w.match.pk]),
                lambda: {**SCORE, "score_home": "0", "score_away": "3"}, ORGANIZERS),
}  # fmt: skip


def client_as(client, world, persona):
    user = world.users[persona]
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("action", list(ACTIONS))
@pytest.mark.parametrize("persona", PERSONAS)
def test_site_actions(client, world, action, persona):
    before, address, body, expected = ACTIONS[action]
    if before:
        before(world)
    data = body()
    if data.get("entry") == "CARL":
        data["entry"] = world.entries["another_player"].pk
    state = snapshot()

    response = client_as(client, world, persona).post(address(world), data)

    assert_expected(response, expected[persona], persona)
    if response.status_code == 302 and expected[persona] != LOGIN:
        assert snapshot() != state, "an allowed action changed nothing: is the test still real?"
    else:
        assert snapshot() == state
    if response.status_code == 403:
        assert 'role="alert"' in response.content.decode()  # the page, with the reason


@pytest.mark.parametrize("page", ["tournament-edit", "tournament-players"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_organizer_pages_are_shown_to_organizers_only(client, world, page, persona):
    response = client_as(client, world, persona).get(reverse(page, args=["cup"]))

    assert_expected(response, ORGANIZER_PAGES[persona], persona)


@pytest.mark.parametrize("persona", PERSONAS)
def test_the_create_page_and_my_matches_need_a_sign_in_only(client, world, persona):
    client_as(client, world, persona)

    pages = [client.get(reverse("tournament-create")), client.get(reverse("my-matches"))]

    for response in pages:
        assert_expected(response, LOGIN if persona == "anonymous" else 200, persona)


def test_the_matrix_covers_every_organizer_and_player_action():
    assert set(ACTIONS) == {
        "create", "edit", "players: add", "players: import", "players: withdraw", "step: open",
        "step: start", "step: pair", "step: finish", "step: rate", "step: unrate", "report",
        "confirm", "dispute",
        "resolve as reported", "resolve with a score", "correct",
    }  # fmt: skip
