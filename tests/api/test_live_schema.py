"""The live recording's API as its served schema declares it: every answer of a recorded Long
Nardy match (timed, with dave and the practice hint) holds exactly the declared keys, every
declared shape of an entry is taken, and an entry of no declared shape is refused."""

from __future__ import annotations

import datetime as dt
import random
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.rules import Turn, action_to_json
from games.rules.selfplay import random_match
from tests.support.schema import undeclared_fields
from tests.web.conftest import Site, make_site
from tournaments.models import Match

pytestmark = pytest.mark.django_db

CONTROL = {"kind": "delay", "base_seconds": 600, "per_move_seconds": 8}
LIVE = "/api/v1/matches/{id}/live"


@pytest.fixture
def schema(client) -> dict[str, Any]:
    return client.get("/api/schema/", {"format": "json"}).json()


def answer_schema(schema: dict[str, Any], path: str, method: str, status: int = 200) -> Any:
    answer = schema["paths"][path][method]["responses"][str(status)]
    return answer["content"]["application/json"]["schema"]


class Table:
    """A match recorded through the API, each answer checked against the served schema."""

    def __init__(self, site: Site, match: Match, schema: dict[str, Any]) -> None:
        self.url = f"/api/v1/matches/{match.pk}/live"
        self.schema = schema
        self.client = Client()
        self.client.force_login(site.organizer)
        self.answers = 0
        self.hints = 0
        self.state = self.checked(self.client.get(self.url), LIVE, "get")

    def checked(self, response: Any, path: str, method: str) -> dict[str, Any]:
        assert response.status_code == 200, response.content
        state = response.json()
        declared = answer_schema(self.schema, path, method)
        components = self.schema["components"]["schemas"]
        assert undeclared_fields(state, declared, components) == [], (path, method)
        live_state = components["LiveState"]
        # Every key declared and always given is given (the hint only answers an entry).
        assert set(live_state["required"]) <= set(state) <= set(live_state["properties"])
        assert ("hint" in state) == (path == LIVE and method == "post")
        self.answers += 1
        self.hints += state.get("hint") is not None
        return state

    def enter(self, action: dict[str, Any]) -> dict[str, Any]:
        body = {"ply": self.state["ply"], "action": action, "revision": self.state["revision"]}
        response = self.client.post(self.url, body, "application/json")
        self.state = self.checked(response, LIVE, "post")
        return self.state

    def post(self, tail: str, body: dict[str, Any]) -> dict[str, Any]:
        response = self.client.post(f"{self.url}/{tail}", body, "application/json")
        self.state = self.checked(response, f"{LIVE}/{tail}", "post")
        return self.state


def long_site() -> Site:
    return make_site(
        variant="long",
        rated=False,
        casual=True,
        dave=True,
        time_control=CONTROL,
        match_length=7,
    )


def test_every_answer_of_a_recorded_long_nardy_match_holds_exactly_the_declared_keys(
    schema, settings
):
    settings.LIVE_FOLLOW_WAIT_SECONDS = 0
    site = long_site()
    match = site.match("Anna", "Boris")
    table = Table(site, match, schema)
    (game, *_) = random_match(site.tournament.match_rules().to_variant(), 3, random.Random(11))
    table.enter({"first": game.white})
    assert table.state["may"]["double"]
    table.enter({"double": True})
    assert table.state["offered"] == 2
    table.enter({"take": True})
    assert table.state["stake"] == 2 and table.state["holder"] is not None
    turns = [action for action in game.actions if isinstance(action, Turn)][:12]
    for number, turn in enumerate(turns):
        table.enter({"dice": f"{turn.dice[0]}{turn.dice[1]}"})
        assert table.state["steps"] and table.state["legal_plays"]
        played = action_to_json(turn)
        if number == 5:
            played["accepted"] = True  # a play the opponent accepts as made
        table.enter(played)
    table.post("undo", {"ply": table.state["ply"]})
    table.post("clock", {"action": "pause"})
    assert table.state["clock"]["paused"]
    table.post("clock", {"action": "resume"})
    table.post("clock", {"action": "adjust", "side": "home", "seconds": 30})

    # The spectators' reads: the state, 304 while it is the same, the long-poll.
    spectator = Client()
    read = spectator.get(table.url)
    table.checked(read, LIVE, "get")
    etag = read["ETag"]
    assert spectator.get(table.url, headers={"If-None-Match": etag}).status_code == 304
    following = spectator.get(f"{table.url}/next", headers={"If-None-Match": etag})
    assert following.status_code == 304 and following["ETag"] == etag
    table.checked(spectator.get(f"{table.url}/next"), f"{LIVE}/next", "get")
    missing = spectator.get("/api/v1/matches/999999/live/next")
    assert missing.status_code == 404 and missing["Content-Type"] == "application/json"
    error = answer_schema(schema, f"{LIVE}/next", "get", 404)
    components = schema["components"]["schemas"]
    assert undeclared_fields(missing.json(), error, components) == []
    assert missing.json()["error"]["code"] == "not_found"

    # Resignations end the games: a finished game, a new one, the match decided.
    resigner = table.state["on_roll"] if table.state["dice"] is None else None
    if resigner is None:
        table.post("undo", {"ply": table.state["ply"]})  # back before the roll
        resigner = table.state["on_roll"]
    table.enter({"resign": resigner, "value": 1})
    assert table.state["games"] and table.state["games"][0]["value"] == 1
    while not table.state["finished"]:
        if table.state["may"]["first"]:
            table.enter({"first": 1})
        table.enter({"resign": table.state["on_roll"]})
    assert table.state["winner"] in (1, 2) and table.state["take_back_until"] is not None
    assert table.state["board"]["frames"][0]["result"] is not None
    assert table.answers >= 40 and table.hints > 0


def test_every_declared_shape_of_an_entry_is_taken(schema, monkeypatch):
    shapes = schema["components"]["schemas"]["LiveActionRequest"]["oneOf"]
    names = {shape["$ref"].rsplit("/", 1)[1] for shape in shapes}
    site = long_site()
    match = site.match("Anna", "Boris")
    table = Table(site, match, schema)
    table.enter({"first": 1})  # LiveFirstActionRequest
    table.enter({"double": True})  # DoubleActionRequest
    table.enter({"drop": True})  # DropActionRequest: the game ends
    table.enter({"first": 2})
    table.enter({"double": True})
    table.enter({"take": True})  # TakeActionRequest
    table.enter({"dice": "31"})  # LiveRollActionRequest
    play = table.state["legal_plays"][0]["play"]
    table.enter({"dice": "31", "play": play})  # PlayActionRequest
    table.enter({"dice": "64", "play": "", "accepted": True})  # accepted as made
    assert table.state["board"]["frames"][0]["accepted"] is True
    table.enter({"resign": table.state["on_roll"], "value": 2})  # ResignActionRequest
    assert table.state["games"][-1]["value"] == 2 and not table.state["finished"]
    table.enter({"first": 1})
    # LiveFlagActionRequest: an hour later, the running side's time ran out.
    later = timezone.now() + dt.timedelta(hours=1)
    monkeypatch.setattr("django.utils.timezone.now", lambda: later)
    table.enter({"flag": table.state["clocks"]["running"]})
    assert table.state["finished"] and table.state["lost_on_time"] is not None
    assert names - OPENING_SHAPES == {
        *(f"{kind}ActionRequest" for kind in ("Play", "Double", "Take", "Drop", "Resign")),
        *(f"Live{kind}ActionRequest" for kind in ("Roll", "First", "Flag")),
    }


#: The shapes of the opening throw, taken where the tournament plays Long Nardy's opening roll.
OPENING_SHAPES = {"LiveOpeningActionRequest", "OpensActionRequest"}


def test_the_shapes_of_the_opening_throw_are_taken(schema):
    shapes = schema["components"]["schemas"]["LiveActionRequest"]["oneOf"]
    assert {shape["$ref"].rsplit("/", 1)[1] for shape in shapes} >= OPENING_SHAPES
    site = make_site(variant="long", official=True, match_length=3)
    table = Table(site, site.match("Anna", "Boris"), schema)
    assert table.state["opening_roll"] and table.state["may"]["opening"]
    table.enter({"opening": {"white": 3, "black": 6}})  # LiveOpeningActionRequest
    assert (table.state["first"], table.state["dice"]) == ("black", "63")
    table.enter({"resign": "black", "value": 1})
    table.enter({"opens": "black"})  # OpensActionRequest: who won, the dice entered next
    table.enter({"dice": "21", "play": "24/21"})
    assert table.state["on_roll"] == "white" and table.state["first"] == "black"


@pytest.mark.parametrize(
    "action",
    [
        {"double": False},
        {"pass": True},
        {"resign": "grey"},
        {"first": 3},
        {"flag": "white"},
        {"dice": 64},
        {"dice": "64", "play": 24},
        {"dice": "64", "play": "", "accepted": "yes"},
        [],
    ],
)
def test_an_entry_of_no_declared_shape_is_refused(schema, action):
    site = long_site()
    match = site.match("Anna", "Boris")
    client = Client()
    client.force_login(site.organizer)
    url = f"/api/v1/matches/{match.pk}/live"
    refused = client.post(url, {"ply": 0, "action": action}, "application/json")
    assert refused.status_code == 400, refused.content
    assert refused.json()["error"]["code"]
    assert client.get(url).json()["ply"] == 0
