"""Rows made once for all the tests of a module that read them, and rolled back after the last.

The rows are written in a transaction of their own, held open while the module's tests run; each
test that asks for ``db`` (pytest-django) runs in a savepoint inside it, rolled back after the
test, so every test starts from the same rows and none sees another's writes. Building a club
once instead of once a test is what keeps a module of hundreds of cases quick."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from django.db import transaction

T = TypeVar("T")


def rows_for_the_module(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """For a module-scoped fixture: ``build()``'s rows, kept until the module's tests are done
    (``yield from rows_for_the_module(django_db_blocker, build)``)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield build()
        transaction.set_rollback(True)
