"""The permission matrix of every write endpoint: who may, who may not, and a refusal changes
nothing. Statuses: 200/201/204 allowed, 401 for the anonymous, 403 for the signed-in refused."""

import pytest

from tournaments.matches.results import match_result_record
from tournaments.models import Match, Tournament

from .conftest import PERSONAS

ALLOWED_ALL_PLAYERS = {
    "anonymous": 401, "player": 200, "opponent": 200, "another_player": 403,
    "other_organizer": 403, "organizer": 200, "staff": 200, "rating_officer": 403,
}  # fmt: skip
ANSWERERS = {**ALLOWED_ALL_PLAYERS, "player": 403}  # the reporter (Anna) does not answer
ORGANIZERS = {**ALLOWED_ALL_PLAYERS, "player": 403, "opponent": 403}


def reported(world):
    match_result_record(match=world.match, by=world.users["player"], score=(3, 1))


def decided(world):
    match_result_record(match=world.match, by=world.users["organizer"], score=(3, 1))


def status_of(world):
    world.match.refresh_from_db()
    world.tournament.refresh_from_db()
    return world.match.status, world.match.score_home, world.tournament.status


MATCH_ACTIONS = [
    ("result", None, {"score": [3, 1]}, ALLOWED_ALL_PLAYERS),
    ("confirm", reported, {}, ANSWERERS),
    ("dispute", reported, {"note": "It was 1-3"}, ANSWERERS),
    ("resolve", reported, {}, ORGANIZERS),
    ("correct", decided, {"score": [0, 3]}, ORGANIZERS),
]


@pytest.mark.parametrize(("action", "before", "body", "expected"), MATCH_ACTIONS)
@pytest.mark.parametrize(
    "persona",
    PERSONAS,
)
def test_match_actions(world, as_persona, action, before, body, expected, persona):
    if before:
        before(world)
    state = status_of(world)
    client = as_persona(persona)

    response = client.post(f"/api/v1/matches/{world.match.pk}/{action}", body, "application/json")

    assert response.status_code == expected[persona], response.content
    if response.status_code >= 400:
        assert status_of(world) == state
        assert set(response.json()["error"]) == {"code", "message", "details"}


TOURNAMENT_ACTIONS = [
    ("finish", lambda world: Match.objects.all().delete()),
    ("pair", None),
    ("start", lambda world: (Match.objects.all().delete(), Tournament.objects.filter(
        pk=world.tournament.pk).update(status="registration"))),
    ("open-registration", lambda world: Tournament.objects.filter(pk=world.tournament.pk).update(
        status="draft")),
]  # fmt: skip


@pytest.mark.parametrize(("action", "before"), TOURNAMENT_ACTIONS)
@pytest.mark.parametrize(
    "persona",
    PERSONAS,
)
def test_tournament_actions_are_for_its_organizers(world, as_persona, action, before, persona):
    if before:
        before(world)
    Tournament.objects.filter(pk=world.tournament.pk).update(format="swiss", swiss_rounds=3)
    if action == "pair":
        Match.objects.update(status=Match.Status.FINAL, winner=world.match.home)
    world.tournament.refresh_from_db()
    state = (world.tournament.status, world.tournament.rounds.count())
    client = as_persona(persona)

    response = client.post(f"/api/v1/tournaments/cup/{action}")

    allowed = persona in ("organizer", "staff")
    assert (response.status_code == 200) == allowed, response.content
    if not allowed:
        # A draft is seen by its organizers only: to anyone else signed in it does not exist.
        hidden = action == "open-registration" and persona != "anonymous"
        expected = 401 if persona == "anonymous" else 404 if hidden else 403
        assert response.status_code == expected
        world.tournament.refresh_from_db()
        assert (world.tournament.status, world.tournament.rounds.count()) == state


@pytest.mark.parametrize(
    "persona",
    PERSONAS,
)
def test_entries_are_registered_and_withdrawn_by_organizers(world, as_persona, persona):
    Tournament.objects.filter(pk=world.tournament.pk).update(status="registration")
    from tournaments.models import Player  # noqa: PLC0415

    newcomer = Player.objects.create(display_name="Newcomer")
    client = as_persona(persona)
    added = client.post(
        "/api/v1/tournaments/cup/entries/new", {"player_id": newcomer.pk}, "application/json"
    )
    carl = world.entries["another_player"]
    Match.objects.all().delete()
    withdrawn = client.delete(f"/api/v1/tournaments/cup/entries/{carl.pk}/")
    allowed = persona in ("organizer", "staff")
    refused = 401 if persona == "anonymous" else 403
    expected = (201, 204) if allowed else (refused, refused)
    assert (added.status_code, withdrawn.status_code) == expected
    assert world.tournament.entries.filter(player=newcomer).exists() == allowed


#: Rating approval: a rating officer of the tournament's list, or staff; not its organizer.
OFFICERS = {
    "anonymous": 401, "player": 403, "opponent": 403, "another_player": 403,
    "other_organizer": 403, "organizer": 403, "staff": 200, "rating_officer": 200,
}  # fmt: skip


@pytest.mark.parametrize("method", ["post", "delete"])
@pytest.mark.parametrize("persona", PERSONAS)
def test_rating_approval_is_for_the_lists_officers(world, as_persona, method, persona):
    if method == "delete":  # withdrawing needs an approval to withdraw
        Tournament.objects.filter(pk=world.tournament.pk).update(rated=True)
    before = Tournament.objects.values_list("rated", "rated_by").get(pk=world.tournament.pk)
    client = as_persona(persona)

    response = getattr(client, method)("/api/v1/tournaments/cup/rating-approval")

    assert response.status_code == OFFICERS[persona], response.content
    after = Tournament.objects.values_list("rated", "rated_by").get(pk=world.tournament.pk)
    if response.status_code == 200:
        assert response.json()["rated"] is (method == "post")
        assert after == ((True, world.users[persona].pk) if method == "post" else (False, None))
    else:
        assert after == before
