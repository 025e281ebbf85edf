"""The whole database as values, to prove that a refused write changed nothing and that an
allowed one changed something: every row of every model of the project and of Django's auth,
compared table by table (sessions aside: signing in writes one)."""

from __future__ import annotations

import functools
from typing import Any

from django.apps import apps
from django.db import connection

#: Tables a request writes whatever it does: a signed-in request's session.
SKIPPED = {"sessions.session"}
#: Columns a sign-in writes: a session's (a test client's ``force_login``), a token's use.
SIGN_IN_COLUMNS = {"last_login", "last_used_at"}


def database_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, by model label, in primary-key order: the columns as the
    database keeps them, read by one plain statement a table (the ORM's querysets cost four
    times as much, and the permission matrix reads the whole database twice a case)."""
    state = {}
    with connection.cursor() as cursor:
        for label, statement in _statements():
            cursor.execute(statement)
            state[label] = cursor.fetchall()
    return state


@functools.cache
def _statements() -> tuple[tuple[str, str], ...]:
    """For each table: its label and the statement that reads its rows."""
    quote = connection.ops.quote_name
    found = []
    for model in apps.get_models(include_auto_created=True):
        label = model._meta.label_lower
        if label in SKIPPED or not model._meta.managed:
            continue
        columns = ", ".join(
            quote(field.column)
            for field in model._meta.concrete_fields
            if field.attname not in SIGN_IN_COLUMNS
        )
        table, key = quote(model._meta.db_table), quote(model._meta.pk.column)
        found.append((label, f"SELECT {columns} FROM {table} ORDER BY {key}"))
    return tuple(found)


def changed_tables(before: dict[str, list[tuple[Any, ...]]]) -> list[str]:
    """The tables whose rows differ from ``before``."""
    after = database_state()
    return sorted(label for label in after if after[label] != before.get(label))
