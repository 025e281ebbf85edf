"""Every field of the served schema is typed, so that a generated client knows it: no property
without a type, and no object that is a free map, except the one documented (``ErrorBody.details``,
whose keys depend on the error's code and its description lists them). And the JSON the server
really writes in the fields that were free (game actions and times, a record's report, where a
bracket side comes from, the identity trail's ``before``) is what their schemas declare, values
and all (openapi-schema-validator, as the OpenAPI 3.0 reader of a client would)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client
from openapi_schema_validator import OAS30ReadValidator, OAS30WriteValidator

from games.rules import (
    Colour,
    Double,
    Drop,
    Resign,
    ShortNardy,
    Take,
    Turn,
    action_to_json,
)
from games.rules.notation import parse_dice
from games.rules.selfplay import random_match
from tests.web.conftest import make_site
from tournaments.models import Match, Player
from tournaments.players import services as players
from tournaments.players.models import IdentityAudit

pytestmark = pytest.mark.django_db

#: The free maps the schema keeps, each documented: ``ErrorBody.details`` varies with the
#: error's code (its description lists the shapes).
FREE_MAPS = {"ErrorBody.details"}

#: The keys that give a schema a type.
_TYPED = ("type", "$ref", "oneOf", "anyOf", "allOf", "enum")


@pytest.fixture
def schema(client: Client) -> dict[str, Any]:
    return client.get("/api/schema/", {"format": "json"}).json()


def untyped(schema: Mapping[str, Any], where: str) -> Iterator[str]:
    """The places in ``schema`` with no type, or an object with no properties open to any key."""
    if not any(key in schema for key in _TYPED) or (
        schema.get("type") == "object"
        and not schema.get("properties")
        and schema.get("additionalProperties", True) in (True, {})
    ):
        yield where
    for name, value in schema.get("properties", {}).items():
        yield from untyped(value, f"{where}.{name}")
    if isinstance(schema.get("items"), Mapping):
        yield from untyped(schema["items"], f"{where}[]")
    rest = schema.get("additionalProperties")
    if isinstance(rest, Mapping) and rest:
        yield from untyped(rest, f"{where}{{}}")
    for key in ("oneOf", "anyOf", "allOf"):
        for number, part in enumerate(schema.get(key, ())):
            yield from untyped(part, f"{where}|{number}")


def test_every_field_of_the_schema_is_typed_but_the_documented_free_map(schema):
    found = {
        place
        for name, component in schema["components"]["schemas"].items()
        for place in untyped(component, name)
    }
    assert found == FREE_MAPS
    details = schema["components"]["schemas"]["ErrorBody"]["properties"]["details"]
    for shape in ("fields", "reason", "retry_after", "state"):
        assert shape in details["description"]


def test_the_walk_finds_a_property_with_no_type_and_a_free_map():
    component = {
        "type": "object",
        "properties": {
            "free": {"description": "anything"},
            "map": {"type": "object", "additionalProperties": {}},
            "typed": {"type": "array", "items": {"type": "object", "properties": {"a": {}}}},
            "closed": {"type": "object", "additionalProperties": {"type": "integer"}},
        },
    }
    assert set(untyped(component, "X")) == {"X.free", "X.map", "X.typed[].a"}


def nullable_as_generators_read_it(schema: Any) -> Any:
    """``schema`` with drf-spectacular's nullable reference (``{"allOf": [{"$ref": …}],
    "nullable": true}``) as the generators read it, null or the reference: OpenAPI 3.0.3 lets
    ``nullable`` add null only next to a ``type``, and openapi-schema-validator keeps to it."""
    if isinstance(schema, list):
        return [nullable_as_generators_read_it(part) for part in schema]
    if not isinstance(schema, dict):
        return schema
    schema = {key: nullable_as_generators_read_it(value) for key, value in schema.items()}
    if schema.get("nullable") is True and "type" not in schema:
        rest = {key: value for key, value in schema.items() if key != "nullable"}
        return {"anyOf": [rest, {"enum": [None], "nullable": True}]}
    return schema


def valid(schema: dict[str, Any], name: str, data: Any, *, answer: bool = True) -> list[str]:
    """The errors of ``data`` against the component ``name`` (an answer's or a request's)."""
    reference = {"allOf": [{"$ref": f"#/components/schemas/{name}"}]}
    document = nullable_as_generators_read_it({**reference, **schema})
    validator = (OAS30ReadValidator if answer else OAS30WriteValidator)(document)
    return [
        f"{list(error.absolute_path)}: {error.message}" for error in validator.iter_errors(data)
    ]


def every_kind_of_action() -> list[dict[str, Any]]:
    """Each action the engine stores: turns of real games (an empty play among them when a
    roll cannot move), one accepted as made, and dave and resignations."""
    games = random_match(ShortNardy(), 5, random.Random(7))
    turns = [action for game in games for action in game.actions if isinstance(action, Turn)]
    actions = [
        *turns[:40],
        Turn.of(parse_dice("66"), ""),
        Turn(turns[0].dice, turns[0].play, accepted=True),
        Double(),
        Take(),
        Drop(),
        Resign(Colour.WHITE),
        Resign(Colour.BLACK, 3),
    ]
    return [action_to_json(action) for action in actions]


def test_each_stored_action_is_exactly_one_declared_shape(schema):
    actions = every_kind_of_action()
    assert {"dice": "66", "play": ""} in actions
    for data in actions:
        assert valid(schema, "GameAction", data) == []
        assert valid(schema, "GameActionRequest", data, answer=False) == []
        assert valid(schema, "LiveActionRequest", data, answer=False) == []
    # A key of another shape is no action: the shapes are closed.
    assert valid(schema, "GameAction", {"dice": "64", "play": "", "double": True})
    assert valid(schema, "GameAction", {"resign": "red"})


def test_a_reported_record_is_its_declared_report(client, schema):
    opening = [{"white": 1, "actions": [{"dice": "64", "play": "24/18 13/9"}, {"double": True}]}]
    legal = client.post(
        "/api/v1/records/validate",
        {"variant": "short", "games": opening},
        content_type="application/json",
    ).json()
    assert legal["valid"] and legal["games"][0]["winner"] is None  # unfinished
    illegal = client.post(
        "/api/v1/records/validate",
        {"variant": "short", "games": [{"white": 1, "actions": [{"dice": "64", "play": "1/7"}]}]},
        content_type="application/json",
    ).json()
    assert set(illegal["error"]) == {"game", "move", "player", "play", "reason"}
    games = random_match(ShortNardy(), 3, random.Random(3))
    finished = client.post(
        "/api/v1/records/validate",
        {
            "variant": "short",
            "length": 3,
            "games": [
                {"white": game.white, "actions": [action_to_json(a) for a in game.actions]}
                for game in games
            ],
        },
        content_type="application/json",
    ).json()
    assert finished["valid"] and finished["games"]
    for report in (legal, illegal, finished):
        assert valid(schema, "RecordReport", report) == []


def test_the_sides_of_a_bracket_say_where_they_come_from(client, schema):
    site = make_site(format="double-elimination", grand_final="reset", rated=False)
    answer = client.get(f"/api/v1/tournaments/{site.tournament.slug}/matches/").json()
    rows = answer["results"] if isinstance(answer, dict) else answer
    sources = [row[side] for row in rows for side in ("home_source", "away_source")]
    assert {key for source in sources if source for key in source} == {
        "seed",
        "winner_of",
        "loser_of",
        "if_needed",
    }
    assert Match.objects.filter(home_source__if_needed=True).count() == 1
    for row in rows:
        assert valid(schema, "Match", row) == []


def test_the_identity_trail_before_holds_its_declared_keys(client, schema):
    staff = User.objects.create_superuser("sam", password="pw-sam-123")
    keep = Player.objects.create(display_name="Anna", club="Riga", country="LV")
    drop = Player.objects.create(display_name="Anna K.", club="", country="LV", birth_year=1990)
    players.players_merge(keep=keep, drop=drop, by=staff)
    players.player_rename(player=keep, by=staff, name="Anna Karenina")
    gone = Player.objects.create(display_name="Nobody", club="", country="")
    players.player_delete(player=gone, by=staff)
    merge = IdentityAudit.objects.get(action=IdentityAudit.Action.MERGED)
    players.identity_undo(change=merge, by=staff)
    client.force_login(staff)
    answer = client.get("/api/v1/identity/").json()
    rows = answer["results"] if isinstance(answer, dict) else answer
    assert {row["action"] for row in rows} == {"merged", "renamed", "deleted", "unmerged"}
    assert {key for row in rows for key in row["before"]} == {
        "player",
        "other",
        "moved",
        "name",
        "removed",
    }
    for row in rows:
        assert valid(schema, "IdentityAudit", row) == []


def test_a_game_recorded_live_keeps_its_times_as_declared(client, schema):
    site = make_site(
        variant="long",
        rated=False,
        time_control={"kind": "delay", "base_seconds": 600, "per_move_seconds": 8},
        match_length=1,
    )
    match = site.match("Anna", "Boris")
    client.force_login(site.organizer)
    url = f"/api/v1/matches/{match.pk}/live"

    def enter(action: dict[str, Any]) -> dict[str, Any]:
        state = client.get(url).json()
        body = {"ply": state["ply"], "action": action}
        response = client.post(url, body, "application/json")
        assert response.status_code == 200, response.content
        return response.json()

    enter({"first": 1})
    state = enter({"dice": "31"})  # a roll: a step of the recording, not an action
    state = enter({"dice": "31", "play": state["legal_plays"][0]["play"]})
    state = enter({"resign": state["on_roll"]})
    assert state["finished"]
    games = client.get(f"/api/v1/matches/{match.pk}/games/").json()
    rows = games["results"] if isinstance(games, dict) else games
    (game,) = rows
    assert [set(action) for action in game["actions"]] == [{"dice", "play"}, {"resign", "value"}]
    assert [set(time) for time in game["times"]] == [{"at", "home", "away"}] * 2
    assert valid(schema, "Game", game) == []
