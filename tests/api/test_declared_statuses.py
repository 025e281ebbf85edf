"""Every status an API operation answers is declared in the served schema, with its body: what
its code plainly can answer (``tests.support.answers``: a 409 of a service's conflict, a 422 of a
game record checked, a 429 of ``throttle.check``, a 304 of ``with_etag``) is among its responses,
and nothing claims a 304 or a 429 that its code never gives."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.urls import resolve

from tests.support.answers import answers_of

pytestmark = pytest.mark.django_db

#: What reading the code finds that cannot happen, and why.
UNREACHABLE = {
    # Withdrawing with forfeit_remaining records forfeits: no games, so no illegal record.
    ("DELETE", "/api/v1/tournaments/{slug}/entries/{id}/"): {422},
    # The check reports an illegal record in its answer (``"valid": false``), never as a 422.
    ("POST", "/api/v1/records/validate"): {422},
}
#: Statuses an operation must not declare unless its code answers them.
ONLY_WHEN_ANSWERED = {304, 429}
#: A value for each path parameter that routes (any key: no row is read).
SAMPLE = {"system": "fibs", "discipline": "long", "id": "1", "user_id": "1"}


@pytest.fixture(scope="module")
def operations(django_db_setup, django_db_blocker) -> list[tuple[str, str, dict[str, Any], Any]]:
    """(method, path, operation, view) of every operation of the served schema."""
    from django.test import Client  # noqa: PLC0415

    with django_db_blocker.unblock():
        schema = Client().get("/api/schema/", {"format": "json"}).json()
    found = []
    for path, item in schema["paths"].items():
        url = re.sub(r"\{(\w+)\}", lambda name: SAMPLE.get(name[1], "x"), path)
        func = resolve(url).func
        view = getattr(func, "view_class", func)
        for method, operation in item.items():
            if method in ("get", "post", "put", "patch", "delete"):
                found.append((method.upper(), path, operation, view))
    return found


def test_every_status_the_code_answers_is_declared(operations):
    undeclared = {}
    for method, path, operation, view in operations:
        declared = {int(code) for code in operation["responses"]}
        answered = answers_of(view, method) - UNREACHABLE.get((method, path), set())
        if answered - declared:
            undeclared[f"{method} {path}"] = sorted(answered - declared)
    assert undeclared == {}


def test_no_operation_declares_a_304_or_a_429_it_never_answers(operations):
    claimed = {}
    for method, path, operation, view in operations:
        declared = {int(code) for code in operation["responses"]} & ONLY_WHEN_ANSWERED
        if declared - answers_of(view, method):
            claimed[f"{method} {path}"] = sorted(declared - answers_of(view, method))
    assert claimed == {}


def test_the_throttled_and_the_etag_operations_are_found(operations):
    """The reading finds what it should: it is no test if it finds nothing."""
    answering = {
        code: {f"{method} {path}" for method, path, _, view in operations
               if code in answers_of(view, method)}
        for code in (304, 429)
    }  # fmt: skip
    assert {
        "GET /api/v1/tournaments/{slug}/standings/",
        "GET /api/v1/ratings/{system}/{discipline}/",
    } <= answering[304]
    assert {
        "GET /api/v1/players/",
        "GET /api/v1/ratings/{system}/{discipline}/",
        "GET /api/v1/clubs/{slug}/ratings/{system}/{discipline}/",
        "POST /api/v1/matches/{id}/result",
        "POST /api/v1/matches/{id}/resolve",
        "POST /api/v1/matches/{id}/correct",
        "POST /api/v1/records/validate",
    } <= answering[429]


def test_each_304_has_its_etag_and_each_error_its_shape(operations):
    for method, path, operation, _ in operations:
        responses = operation["responses"]
        where = f"{method} {path}"
        if "304" in responses:
            assert "ETag" in responses["304"].get("headers", {}), where
            assert "ETag" in responses["200"].get("headers", {}), where
            names = {parameter["name"] for parameter in operation.get("parameters", [])}
            assert "If-None-Match" in names, where
        if "429" in responses:
            assert "Retry-After" in responses["429"]["headers"], where
        for code, response in responses.items():
            if code.startswith("4"):
                body = response["content"]["application/json"]["schema"]
                assert body == {"$ref": "#/components/schemas/Error"}, f"{where} {code}"
