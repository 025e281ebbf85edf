"""What every concept's services do to a row the same way: lock it for a write by raising its
revision (the pages cached by it retire at once), and give it a free slug."""

from __future__ import annotations

from typing import TypeVar

from anyascii import anyascii
from django.db import models
from django.db.models import F, QuerySet
from django.utils.text import slugify

M = TypeVar("M", bound=models.Model)


def lock(model: type[models.Model], pk: int) -> None:
    """Lock the row for this write, raising its revision on the way (one UPDATE): writers wait
    for each other here, and what the pages cached of it is retired."""
    model._default_manager.filter(pk=pk).update(revision=F("revision") + 1)


def locked(model: type[M], pk: int, *related: str) -> M:
    """The row as it is now, locked for this write: what the caller holds may be stale."""
    lock(model, pk)
    return model._default_manager.select_related(*related).get(pk=pk)


def free_slug(taken: QuerySet[M], name: str, *, fallback: str, limit: int) -> str:
    """The name's slug, made from its transliteration ("Кубок ФНР" is ``kubok-fnr``; at most
    ``limit`` characters, ``fallback`` when the name has none), with -2, -3 … added until no row
    of ``taken`` has it."""
    base = slugify(anyascii(name))[:limit].strip("-") or fallback
    slug, number = base, 1
    while taken.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug
