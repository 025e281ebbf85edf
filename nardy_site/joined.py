"""Queries compiled once: for the requests made many times a second, where building the query
costs more than running it.

Django compiles a queryset's SQL on every evaluation. For an entry at the table, the join of a
draft with its match, tournament and players (``select_related``) took 1.5 ms of CPU to compile
and 0.2 ms to run, prepared. A ``Join`` names its tables once; its SQL selects every concrete
field of each (so nothing is deferred), and each row becomes the instances the ORM would give,
through the fields' own converters, joined to each other as ``select_related`` joins them.
A ``Compiled`` query is any queryset of rows, compiled by Django once and run with each argument
in the place of a placeholder: a page's version took 5 ms of CPU to compile, 0.2 ms to run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.expressions import Col

Converter = Callable[[Any, Any, Any], Any]


@dataclass(frozen=True)
class Table:
    """A model under its alias in a join, and where its instance goes: ``into`` is the alias and
    the relation of the instance that holds it (``("m", "tournament")``: ``m.tournament``)."""

    model: type[Model]
    alias: str
    into: tuple[str, str] | None = None

    def columns(self) -> str:
        return ", ".join(
            f'{self.alias}."{field.column}"' for field in self.model._meta.concrete_fields
        )


#: The database's integers: 64 bits, signed.
_INT64 = (-(2**63), 2**63 - 1)


@dataclass(frozen=True)
class Join:
    """``sql`` with ``{columns}`` where the tables' columns go, in the order of ``tables``; the
    first table's instance is the answer, the others hang from it."""

    sql: str
    tables: tuple[Table, ...]
    #: Lock the first table's row (``select_for_update(of=("self",))``) where the database can;
    #: SQLite's writers take the whole database's lock when their transaction begins instead.
    for_update: bool = False

    def one(self, params: Sequence[Any], *, using: str = "default") -> Model | None:
        """The first table's instance of the first row (None: no row, as for an id beyond
        the database's integers, which the ORM's lookups also answer with nothing)."""
        if any(type(param) is int and not _INT64[0] <= param <= _INT64[1] for param in params):
            return None
        with connections[using].cursor() as cursor:
            cursor.execute(self._sql(using), params)
            row = cursor.fetchone()
        return None if row is None else self._instances(row, using)

    def all(self, params: Sequence[Any], *, using: str = "default") -> list[Model]:
        """The first table's instance of every row, in the order of the rows."""
        with connections[using].cursor() as cursor:
            cursor.execute(self._sql(using), params)
            rows = cursor.fetchall()
        return [self._instances(row, using) for row in rows]

    @functools.cache  # noqa: B019  (a Join is a module's constant: kept for the process)
    def _sql(self, using: str) -> str:
        sql = self.sql.format(columns=", ".join(table.columns() for table in self.tables))
        if self.for_update and connections[using].features.has_select_for_update_of:
            sql += f" FOR UPDATE OF {self.tables[0].alias}"
        return sql

    def _instances(self, row: Sequence[Any], using: str) -> Model:
        connection = connections[using]
        found: dict[str, Model | None] = {}
        start = 0
        for table in self.tables:
            layout = _layout(table.model, using)
            values = list(row[start : start + len(layout.names)])
            start += len(layout.names)
            for index, column, converters in layout.converters:
                for convert in converters:
                    values[index] = convert(values[index], column, connection)
            instance = None
            if values[layout.pk_index] is not None:  # an outer join found no row: None, as the ORM
                instance = table.model.from_db(using, layout.names, values)
            found[table.alias] = instance
            if table.into is not None:
                holder = found[table.into[0]]
                if holder is not None:
                    setattr(holder, table.into[1], instance)
        answer = found[self.tables[0].alias]
        assert answer is not None
        return answer


@dataclass(frozen=True)
class _Layout:
    """A model's columns in a join's row, worked out once per model and database: the fields'
    names, where the primary key is, and the converters the ORM applies (JSON text to objects,
    SQLite's integers to booleans and text to datetimes), per column that needs them."""

    names: list[str]
    pk_index: int
    converters: list[tuple[int, Col, list[Converter]]]


@functools.cache
def _layout(model: type[Model], using: str) -> _Layout:
    connection = connections[using]
    fields = model._meta.concrete_fields
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(model._meta.db_table)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((index, column, found))
    return _Layout(
        names=[field.attname for field in fields],
        pk_index=fields.index(model._meta.pk),
        converters=converters,
    )


@dataclass(frozen=True)
class Compiled:
    """The rows of ``query(argument)`` (a ``values_list`` queryset): compiled once per database
    with ``placeholder`` as the argument, then run with each argument in each of its places.
    The rows hold the database's own values, without the fields' converters (a datetime is text
    on SQLite): for versions and keys, which only have to differ when the data does; or, with
    ``converted``, the values the queryset would give, for rows a page shows."""

    query: Callable[[Any], QuerySet[Any]]
    #: Passed to ``query`` when compiling: a value no other parameter of the query has.
    placeholder: Any
    #: Give the rows as the queryset would (datetimes, not SQLite's text): for rows a page shows.
    converted: bool = False

    def rows(self, argument: Any, *, using: str = "default") -> list[tuple[Any, ...]]:
        sql, params, places, converters = self._compiled(using)
        given = list(params)
        for place in places:
            given[place] = argument
        connection = connections[using]
        with connection.cursor() as cursor:
            cursor.execute(sql, given)
            found = cursor.fetchall()
        if not converters:
            return found
        rows = []
        for row in found:
            values = list(row)
            for index, column, functions in converters:
                for convert in functions:
                    values[index] = convert(values[index], column, connection)
            rows.append(tuple(values))
        return rows

    def first(self, argument: Any, *, using: str = "default") -> tuple[Any, ...] | None:
        found = self.rows(argument, using=using)
        return found[0] if found else None

    @functools.cache  # noqa: B019  (a Compiled is a module's constant: kept for the process)
    def _compiled(
        self, using: str
    ) -> tuple[str, tuple[Any, ...], tuple[int, ...], list[tuple[int, Any, list[Converter]]]]:
        compiler = self.query(self.placeholder).query.get_compiler(using)
        sql, params = compiler.as_sql()
        places = tuple(index for index, param in enumerate(params) if param == self.placeholder)
        if not places:
            raise ValueError(f"the placeholder {self.placeholder!r} is no parameter of: {sql}")
        converters = []
        if self.converted:  # the compiler's own, per column that has any
            found = compiler.get_converters([column for column, _, _ in compiler.select])
            converters = [
                (index, column, functions) for index, (functions, column) in found.items()
            ]
        return sql, tuple(params), places, converters
