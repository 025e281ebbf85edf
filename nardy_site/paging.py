"""Pages of a long list on the site: which page was asked for (``?page=N``), how many there are,
and the links between them (``templates/partials/pager.html``). The API pages its lists with
REST framework's ``PageNumberPagination``, the same ``?page=N``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from django.http import Http404, QueryDict
from django.utils.translation import gettext as _

#: What a page is cut from: a list, or a queryset.
Rows = TypeVar("Rows")


@dataclass(frozen=True)
class Pager:
    """Page ``number`` of ``pages`` (each ``size`` rows, ``total`` in all); ``query``: the
    page's other query parameters, kept in its links."""

    number: int
    pages: int
    total: int
    size: int
    query: str = ""

    @property
    def offset(self) -> int:
        return (self.number - 1) * self.size

    def cut(self, rows: Rows) -> Rows:
        """This page's rows of ``rows``, all of them (a list, or a queryset: its LIMIT)."""
        return rows[self.offset : self.offset + self.size]  # type: ignore[index,no-any-return]

    @property
    def first_row(self) -> int:
        return self.offset + 1 if self.total else 0

    @property
    def last_row(self) -> int:
        return min(self.offset + self.size, self.total)

    @property
    def previous(self) -> int | None:
        return self.number - 1 if self.number > 1 else None

    @property
    def next(self) -> int | None:
        return self.number + 1 if self.number < self.pages else None

    @property
    def nearby(self) -> list[tuple[int, str]]:
        """The pages a pager links to, each with its link: the first, the last, and two on each
        side of this one."""
        shown = {1, self.pages, *range(self.number - 2, self.number + 3)}
        return [(page, self.link(page)) for page in sorted(shown) if 1 <= page <= self.pages]

    @property
    def previous_link(self) -> str | None:
        return None if self.previous is None else self.link(self.previous)

    @property
    def next_link(self) -> str | None:
        return None if self.next is None else self.link(self.next)

    def link(self, page: int) -> str:
        """The query string of ``page`` (the first page has none of its own)."""
        parts = [self.query] if self.query else []
        if page > 1:
            parts.append(f"page={page}")
        return "?" + "&".join(parts) if parts else "?"


def page_of(index: int, size: int) -> int:
    """The page (from 1) that shows the row at ``index`` (from 0), ``size`` rows a page: where
    a link to a reader's own row goes."""
    return index // size + 1


def pager(query: QueryDict, *, total: int, size: int) -> Pager:
    """The page ``query`` asks for (``page``; none: the first) of ``total`` rows; 404 past the
    last page (the first always exists, empty or not)."""
    asked = query.get("page", "1")
    number = int(asked) if asked.isdigit() else 1
    pages = max(1, -(-total // size))
    if not 1 <= number <= pages:
        raise Http404(_("There is no such page."))
    others = query.copy()
    others.pop("page", None)
    return Pager(number, pages, total, size, others.urlencode())
