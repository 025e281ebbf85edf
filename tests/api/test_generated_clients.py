"""The API as a club's programmer meets it: clients generated from the served OpenAPI schema by
well-known generators that nobody here wrote (their versions pinned in the dev extra and in
``tests/api/clients/package.json``).

* openapi-spec-validator finds no error in the schema;
* openapi-python-client generates a Python client with no warning, every module of which
  imports, and the client runs a whole small tournament over HTTP against the live server: a
  club, players, entries, the start, results in each of the four forms (a score, the games, a
  .mat file as the body and as an upload), standings, the finish, the rating approval, a rating
  history and twenty entries of a Long Nardy match recorded live; every answer is of a declared
  status and parses into the declared models with no field left over;
* openapi-typescript generates TypeScript types with no error, and ``tsc --strict`` compiles a
  program that uses them.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import pkgutil
import random
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.test import Client

from games.rules import LongNardy, MatchGame, ShortNardy, Turn, action_to_json
from games.rules.matfile import match_record, write_match
from games.rules.selfplay import random_match
from nardy_site.accounts.models import ApiToken
from tests.support.api_operations import DOC, operations_markdown

IN_CI = os.environ.get("CI", "").lower() == "true"
CLIENTS = Path(__file__).parent / "clients"
#: The generator's own documented switch for a content type it does not know: ``text/plain``
#: (a .mat file as the whole body) is sent as raw bytes, as ``application/octet-stream`` is.
PYTHON_CLIENT_CONFIG = "content_type_overrides:\n  text/plain: application/octet-stream\n"
PACKAGE = "nardy_api_client"


@pytest.fixture(scope="module")
def served_schema(django_db_setup: None, django_db_blocker: Any) -> dict[str, Any]:
    with django_db_blocker.unblock():
        response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return json.loads(response.content)


def test_the_served_schema_validates(served_schema: dict[str, Any]) -> None:
    from openapi_spec_validator import validate  # noqa: PLC0415

    validate(served_schema)  # raises on the first error


@pytest.fixture(scope="module")
def python_client(
    served_schema: dict[str, Any], tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ModuleType]:
    """The client openapi-python-client generates from the served schema, imported."""
    where = tmp_path_factory.mktemp("python-client")
    (where / "schema.json").write_text(json.dumps(served_schema))
    (where / "config.yaml").write_text(PYTHON_CLIENT_CONFIG)
    scripts = str(Path(sys.executable).parent)  # its post-hooks run ruff from the same venv
    generated = subprocess.run(
        [
            sys.executable,
            "-m",
            "openapi_python_client",
            "generate",
            "--path",
            str(where / "schema.json"),
            "--config",
            str(where / "config.yaml"),
            "--output-path",
            str(where / PACKAGE),
            "--meta",
            "none",
        ],  # fmt: skip
        capture_output=True,
        text=True,
        env={**os.environ, "PATH": f"{scripts}{os.pathsep}{os.environ.get('PATH', '')}"},
        check=False,
    )
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "warning" not in said.lower(), said
    sys.path.insert(0, str(where))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(where))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_every_operation_of_the_generated_python_client_imports(
    python_client: ModuleType, served_schema: dict[str, Any]
) -> None:
    package = importlib.import_module(f"{PACKAGE}.api")
    modules = [
        importlib.import_module(found.name)
        for found in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.api.")
        if not found.ispkg
    ]
    operations = sum(
        method in ("get", "post", "put", "patch", "delete")
        for item in served_schema["paths"].values()
        for method in item
    )
    assert len(modules) == operations
    assert all(hasattr(module, "sync_detailed") for module in modules)


# --- A tournament run through the generated Python client ---------------------------------------


def leftovers(value: Any, at: str = "") -> list[str]:
    """Where a parsed answer holds a field its model does not declare: the paths of such
    fields, none when all is declared. Generated models keep those in ``additional_properties``,
    typed ``dict[str, Any]``; a map the schema declares (``additionalProperties`` with the
    values' schema, as the tie-breaks by name) types it by its values."""
    if isinstance(value, list):
        return [path for i, item in enumerate(value) for path in leftovers(item, f"{at}[{i}]")]
    fields = getattr(value, "__attrs_attrs__", None)
    if fields is None:
        return []
    found = []
    for field in fields:
        if field.name != "additional_properties":
            found += leftovers(getattr(value, field.name), f"{at}.{field.name}")
        elif str(field.type) == "dict[str, Any]":
            found += [f"{at}.{key}" for key in value.additional_properties]
        else:
            found += [
                path
                for key, item in value.additional_properties.items()
                for path in leftovers(item, f"{at}.{key}")
            ]
    return found


class Calls:
    """The generated operations, called as a programmer would: each answer must be the
    declared model of a success, whole."""

    def __init__(self, client: ModuleType, base_url: str, key: str | None = None) -> None:
        self.package = client
        self.client = (  # as generated: "Authorization: Bearer <key>"
            client.AuthenticatedClient(base_url=base_url, token=key)
            if key
            else client.Client(base_url=base_url)
        )

    def __call__(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        module = importlib.import_module(f"{PACKAGE}.api.v1.{operation}")
        answer = module.sync_detailed(*args, client=self.client, **kwargs)
        assert 200 <= answer.status_code < 300, (operation, answer.status_code, answer.content)
        if answer.status_code != 204:
            assert answer.parsed is not None, (operation, answer.content)
            assert not leftovers(answer.parsed), (operation, leftovers(answer.parsed))
        return answer.parsed

    def model(self, name: str) -> Any:
        return getattr(importlib.import_module(f"{PACKAGE}.models"), name)


@pytest.mark.django_db(transaction=True)
def test_a_tournament_through_the_generated_python_client(
    python_client: ModuleType, live_server: Any, eager_tasks: None
) -> None:
    """(The ratings are computed in the server's process, as without a broker: this is the
    client's test, not the worker's.)"""
    User.objects.create_user("olga", password="olga-password")
    rita = User.objects.create_user("rita", is_staff=True)  # a rating officer
    # The first call: a token from the username and password, no browser.
    m = Calls(python_client, live_server.url).model
    made = Calls(python_client, live_server.url)(
        "v1_tokens_create",
        body=m("TokenRequest")(name="club bot", username="olga", password="olga-password"),
    )
    call = Calls(python_client, live_server.url, made.key)

    club = call("v1_clubs_new_create", body=m("ClubRequest")(name="Hall of Nardy", city="Riga"))
    players = [
        call(
            "v1_players_new_create",
            body=m("PlayerInRequest")(display_name=name, club=club.slug),
        )
        for name in ("Anna", "Boris", "Carl", "Dina")
    ]
    cup = call(
        "v1_tournaments_new_create",
        body=m("TournamentRequest")(
            name="Friday Short",
            variant=m("VariantEnum").SHORT,
            format_=m("FormatEnum").ROUND_ROBIN,
            match_length=3,
            club=club.slug,
        ),
    )
    call("v1_tournaments_open_registration_create", cup.slug)
    for player in players:
        call("v1_tournaments_entries_new_create", cup.slug, body=m("EntryInRequest")(player.id))
    assert call("v1_tournaments_start_create", cup.slug).status.value == "running"

    matches = call("v1_tournaments_matches_list", cup.slug).results
    played = [match for match in matches if match.away is not None]
    assert len(played) == 6
    games = random_match(ShortNardy(), 3, random.Random(7))
    as_json = [
        m("GameRecordInRequest").from_dict(
            {"white": game.white, "actions": [action_to_json(a) for a in game.actions]}
        )
        for game in games
    ]
    mat = write_match(
        match_record(
            ShortNardy(),
            ("Home", "Away"),
            [MatchGame(game.white, game.actions) for game in games],
            length=3,
        )
    ).encode()
    file = python_client.types.File
    bodies = [
        m("ResultInRequest")(score=[3, 1]),
        m("ResultInRequest")(games=as_json),
        file(payload=mat, file_name="match.mat"),  # the .mat text as the whole body
        m("MatUploadRequest")(file=file(payload=mat, file_name="match.mat")),
    ]
    for match, body in zip(played, [*bodies, *bodies[:2]], strict=True):
        recorded = call("v1_matches_result_create", match.id, body=body)
        assert recorded.status.value == "final"  # an organizer's result is final at once

    standings = call("v1_tournaments_standings_list", cup.slug)
    assert [row.rank for row in standings][:1] == [1] and len(standings) == 4
    assert sum(row.match_points for row in standings) == 6  # 1 point a win, no draws
    assert call("v1_tournaments_finish_create", cup.slug).status.value == "finished"

    officer = Calls(python_client, live_server.url, ApiToken.issue(user=rita, name="officer")[1])
    assert officer("v1_tournaments_rating_approval_create", cup.slug).rated is True
    winner = standings[0]
    history = call("v1_players_ratings_list", winner.player_id, "fibs", "short")
    assert history.count == 3 and history.results[-1].after > history.results[0].before

    # Twenty entries of a Long Nardy match recorded live, as the phone page records them.
    long = call(
        "v1_tournaments_new_create",
        body=m("TournamentRequest")(
            name="Long evening",
            variant=m("VariantEnum").LONG,
            format_=m("FormatEnum").ROUND_ROBIN,
            match_length=1,
        ),
    )
    call("v1_tournaments_open_registration_create", long.slug)
    for player in players[:2]:
        call("v1_tournaments_entries_new_create", long.slug, body=m("EntryInRequest")(player.id))
    call("v1_tournaments_start_create", long.slug)
    (match,) = call("v1_tournaments_matches_list", long.slug).results
    state = call("v1_matches_live_retrieve", match.id)
    game = random_match(LongNardy(), 1, random.Random(3))[0]
    entries = [m("LiveFirstActionRequest")(first=game.white)]
    for action in game.actions:
        assert isinstance(action, Turn)  # a match to 1: no dave, so each action is a play
        dice = "".join(map(str, action.dice))
        entries.append(m("LiveRollActionRequest")(dice=dice))  # the roll, then its play
        entries.append(m("PlayActionRequest")(dice=dice, play=str(action.play)))
    for entry in entries[:20]:
        state = call(
            "v1_matches_live_create",
            match.id,
            body=m("LiveInRequest")(ply=state.ply, action=entry),
        )
    assert state.ply == 20 and state.game == 1 and not state.finished


# --- TypeScript ------------------------------------------------------------------------------


#: A program that uses the generated types: the paths, a request body, a response's model.
TYPESCRIPT_USE = """
import type { components, paths } from "./api";

type Standing = components["schemas"]["Standing"];
type Result = paths["/api/v1/matches/{id}/result"]["post"];
type LiveState = components["schemas"]["LiveState"];

export function leader(rows: Standing[]): number | undefined {
  return rows.find((row) => row.rank === 1)?.player_id;
}
export const score: NonNullable<Result["requestBody"]>["content"]["application/json"] = {
  score: [3, 1],
};
export function plyOf(state: LiveState): number {
  return state.ply;
}
"""


@pytest.fixture(scope="module")
def typescript_tools() -> Path:
    """openapi-typescript and tsc at the versions of ``tests/api/clients/package-lock.json``,
    installed once per lock under ``build/``."""
    npm = shutil.which("npm")
    if npm is None:
        if IN_CI:
            pytest.fail("npm is not installed: .ci/run installs Node.js")
        pytest.skip("npm is not installed (Debian: apt-get install nodejs npm)")
    lock = (CLIENTS / "package-lock.json").read_bytes()
    where = (
        Path(__file__).parents[2] / "build" / f"typescript-{hashlib.sha256(lock).hexdigest()[:12]}"
    )
    if not (where / "node_modules" / ".bin" / "tsc").exists():
        where.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(CLIENTS / name, where / name)
        subprocess.run(
            [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=where,
            check=True,
            capture_output=True,
        )
    return where / "node_modules" / ".bin"


def test_openapi_typescript_generates_types_that_compile(
    served_schema: dict[str, Any], typescript_tools: Path, tmp_path: Path
) -> None:
    (tmp_path / "schema.json").write_text(json.dumps(served_schema))
    generated = subprocess.run(
        [str(typescript_tools / "openapi-typescript"), "schema.json", "-o", "api.d.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    said = generated.stdout + generated.stderr
    assert generated.returncode == 0, said
    assert "error" not in said.lower() and "warn" not in said.lower(), said
    (tmp_path / "use.ts").write_text(TYPESCRIPT_USE)
    compiled = subprocess.run(
        [str(typescript_tools / "tsc"), "--noEmit", "--strict", "--target", "es2022", "use.ts"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_the_operations_doc_is_the_schemas(served_schema: dict[str, Any]) -> None:
    assert DOC.read_text() == operations_markdown(served_schema), (
        "docs/api-operations.md is not current: python -m tests.support.api_operations"
    )
