"""What the published OpenAPI schema declares, for checking every answer the API gives in the
suite against it: each operation's statuses (``undeclared_status``) and the fields of its
JSON bodies (``undeclared_answer_fields``)."""

from __future__ import annotations

import re
from functools import cache
from typing import Any

#: A URL pattern's parameter (``<int:pk>``, ``<slug:slug>``) as the schema names it (``{id}``,
#: ``{slug}``): drf-spectacular calls a primary key ``id``.
_PARAMETER = re.compile(r"<(?:\w+:)?(\w+)>")


def schema_path(route: str) -> str:
    """``api/v1/matches/<int:pk>/result`` → ``/api/v1/matches/{id}/result``."""

    def named(found: re.Match[str]) -> str:
        return "{id}" if found[1] == "pk" else "{" + found[1] + "}"

    return "/" + _PARAMETER.sub(named, route)


@cache
def published_schema() -> dict[str, Any]:
    """The schema ``/api/schema/`` serves, made once per test process."""
    from drf_spectacular.generators import SchemaGenerator  # noqa: PLC0415

    return SchemaGenerator().get_schema(request=None, public=True)  # type: ignore[no-any-return]


def _operation(method: str, route: str) -> dict[str, Any] | None:
    """The schema's operation, or None for a route that is none (a page, or a method the
    schema does not publish, which the API answers 405)."""
    found: dict[str, Any] | None = (
        published_schema()["paths"].get(schema_path(route), {}).get(method.lower())
    )
    return found


def undeclared_status(method: str, route: str, status: int) -> str | None:
    """Why this answer is not one the schema declares for its operation, or None when it is
    (or when the route is no operation of the schema)."""
    operation = _operation(method, route)
    if operation is None:
        return None
    declared = set(operation["responses"])
    if str(status) in declared or "default" in declared:
        return None
    return (
        f"{method} {schema_path(route)} answered {status}, which its schema does not declare "
        f"(it declares {', '.join(sorted(declared))})"
    )


def undeclared_answer_fields(method: str, route: str, status: int, body: Any) -> str | None:
    """Which fields of this JSON answer its operation's schema for the status does not
    declare (``tests.support.schema.undeclared_fields``), or None when it declares them all."""
    from tests.support.schema import undeclared_fields  # noqa: PLC0415

    operation = _operation(method, route)
    declared = (operation or {}).get("responses", {}).get(str(status), {})
    schema = declared.get("content", {}).get("application/json", {}).get("schema")
    if schema is None:
        return None
    components = published_schema()["components"]["schemas"]
    fields = undeclared_fields(body, schema, components)
    if not fields:
        return None
    return f"{method} {schema_path(route)} answered {status} with undeclared {', '.join(fields)}"
