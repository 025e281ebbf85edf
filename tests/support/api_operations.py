"""docs/api-operations.md: every operation of the published API schema with the statuses it
declares, generated from the schema (``python -m tests.support.api_operations`` writes it;
tests/api/test_generated_clients.py checks it is current)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

DOC = Path(__file__).resolve().parents[2] / "docs" / "api-operations.md"
METHODS = ("get", "post", "put", "patch", "delete")
HEADER = """# The API's operations and their statuses

Generated from the OpenAPI schema the site serves at `/api/schema/`
(`python -m tests.support.api_operations`), which the suite checks is current. Every answer the
API gives in the suite has one of its operation's declared statuses (`tests/conftest.py`,
`api_answers_are_declared`), and every error is `{"error": {"code", "message", "details"}}`."""


def operations_markdown(schema: dict[str, Any]) -> str:
    rows = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in METHODS
    ]
    lines = [
        *HEADER.splitlines(),
        "",
        f"{len(rows)} operations.",
        "",
        "| operation | operationId | what | statuses |",
        "| --- | --- | --- | --- |",
    ]
    for path, method, operation in rows:
        statuses = ", ".join(sorted(operation["responses"]))
        summary = operation.get("summary", "")
        name = operation["operationId"]
        lines.append(f"| `{method.upper()} {path}` | `{name}` | {summary} | {statuses} |")
    return "\n".join(lines) + "\n"


def main() -> None:
    import django  # noqa: PLC0415

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")
    django.setup()
    from tests.support.declared import published_schema  # noqa: PLC0415

    DOC.write_text(operations_markdown(published_schema()))
    print(f"wrote {DOC}", file=sys.stderr)


if __name__ == "__main__":
    main()
