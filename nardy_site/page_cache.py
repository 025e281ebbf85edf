"""Whole public pages kept in the cache for visitors who are not logged in, one copy per
version of what they show.

A tournament day is many people reading the same few pages while results come in: each
result retires every page of its tournament. Three rules keep that cheap:

* A page is stored with the version it was rendered for (the tournament's revision, say);
  a request whose version matches is answered from the store, with no query beyond the one
  that reads the version.
* For ``PUBLIC_PAGE_REFRESH_SECONDS`` (3) after its version was last read, a stored page is
  served without reading it again: a page costs at most one version query and one render
  per that many seconds however many read it and however fast results come in, and a
  visitor may see a change that many seconds late.
* While one request renders a retired page again, the others get the previous copy instead
  of rendering it too, never waiting behind a queue of identical renders.

With no concurrent request and a refresh of 0 (the tests) a page is always rendered for the
current version.

Whoever changes a thing sees the change: a signed-in user whose write succeeded (on the site or
through the API, ``ChangeMakersMiddleware``) is served no shared copy older than the current
version for a while after it (``changed_lately``), so a player who has just reported a result
finds the match reported, not the copy drawn before. The copy drawn for them is the shared one
from then on, so everyone else still reads the shared copy.

Only GETs are shared. A page's copies are keyed by the query parameters the view declares and
reads (``params``: each with the values it shares); any other parameter, or a value the page
does not share, is dropped from the request before the page is drawn, so ``?x=1`` or a tracking
tag is served the shared copy and costs nothing. A parameter whose every value is its own page
(a search: ``fresh``) is drawn for its request alone, counted against the client's rate of such
drawings (``throttle.DRAWINGS``: 429 past it). Copies are shared by anonymous visitors and by
the signed-in readers a view names (``reader``: a user the page shows nothing of their own but
its own parts, such as a match's spectator): anything else is rendered as usual. A shared copy
is always drawn as for an anonymous visitor with no pending message; the CSRF token of its forms
is put in per response, so visitors never share one, and a signed-in reader, or a visitor with
messages, gets the page's own parts drawn for them: the site's (``partials/own_*.html``: their
name, their links, their messages) and the view's (``own``: what they may do on a match).

A page whose parts change apart (a player's matches at each report, their rating charts at each
rating) names them (``parts``): at a new version that leaves the rest of the page as it was, only
the parts whose own version changed are drawn, into the stored copy between their markers
(``<!--part:NAME-->...<!--/part:NAME-->``), and the page around them is not drawn again.
"""

from __future__ import annotations

import functools
import hashlib
import re
import time
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TypeVar

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, QueryDict
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.translation import get_language

from nardy_site import throttle

T = TypeVar("T")
View = Callable[..., HttpResponse]
#: The values of a query parameter a page shares: a list of them, or a test of one.
Values = Collection[str] | Callable[[str], bool]


def page_number(value: str) -> bool:
    """A page of a paged list (``?page=N``): each is a copy of its own; past the last, a 404."""
    return value.isdigit() and 0 < int(value) <= 100_000


def is_slug(value: str) -> bool:
    """A slug (``?club=<slug>``): each is a copy of its own; one that names nothing, a 404 or
    an empty list."""
    return 0 < len(value) <= 100 and all(c.isalnum() or c in "-_" for c in value)


#: How long a stored copy may live unasked: versions retire copies, this frees the memory.
STORE_SECONDS = 600
#: How long one request may hold the right to render a retired copy before another may.
RENDER_CLAIM_SECONDS = 30
#: The stored entries' shape: raised when it changes, so that a new release never reads an
#: entry an older one left in a shared cache.
_SHAPE = 4
_TOKEN = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*(")')
_TOKEN_SLOT = "\x00csrf-token\x00"
#: The parts of a page that are its reader's own, as base.html's partials mark them.
_OWN = re.compile(r"<!--own:(?P<name>[a-z]+)-->.*?<!--/own:(?P=name)-->", re.DOTALL)
#: A part of a page drawn apart (``shared_page``'s ``parts``).
_PART = re.compile(r"<!--part:(?P<name>[a-z-]+)-->.*?<!--/part:(?P=name)-->", re.DOTALL)
#: Where ``shared_page`` leaves on the request the version it read (``page_version``).
_VERSION = "_shared_page_version"
#: How long past ``PUBLIC_PAGE_REFRESH_SECONDS`` a user who changed something is served only the
#: current version: a copy drawn before the change may also be one whose drawing was under way.
CHANGE_SEEN_MARGIN_SECONDS = 10
#: The methods that change something.
_WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def note_change(user_id: int) -> None:
    """The user has just changed something: for a while, they are served nothing older."""
    seconds = settings.PUBLIC_PAGE_REFRESH_SECONDS + CHANGE_SEEN_MARGIN_SECONDS
    cache.set(f"changed-by:{user_id}", time.time(), seconds)


def changed_lately(user: Any) -> bool:
    """Whether ``user`` (a request's) changed something lately (``note_change``): they are
    served the current version, never a shared copy that may be older than their change."""
    if not user.is_authenticated:
        return False
    return cache.get(f"changed-by:{user.pk}") is not None


class ChangeMakersMiddleware:
    """Notes each signed-in user whose write succeeded (a POST, PUT, PATCH or DELETE answered
    below 400), on the site or through the API (whose authentication sets the request's user
    too), as having changed something lately."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.method in _WRITES and response.status_code < 400:
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated:
                note_change(user.pk)
        return response


def fresh_or_stale(
    key: str,
    version: Callable[[], str],
    compute: Callable[[], T],
    *,
    refresh: float,
    update: Callable[[T], T | None] | None = None,
    latest: bool = False,
) -> T:
    """The value computed for the current ``version()``, stored under ``key``. The stored value
    instead: without even asking the version when it was last found current less than
    ``refresh`` seconds ago, and while another request computes a newer one. Only the very
    first request computes without a stored value to fall back on. ``update(stored)``: the
    value for the current version made from the retired one, when it can be (else None), which
    is cheaper than ``compute``. ``latest``: the caller gets the current version's value, never
    a retired one (computing it when another request is at it too)."""
    key = f"shared:{_SHAPE}:{key}"
    checked_key, claim = f"{key}:checked", f"{key}:rendering"
    found = cache.get_many([key, checked_key])
    stored = found.get(key)
    recent = time.time() - found.get(checked_key, 0.0) < refresh
    if stored is not None and recent and not latest:
        return stored[1]  # type: ignore[no-any-return]
    current = version()
    claimed = False
    if stored is not None:
        if stored[0] == current:
            if refresh:
                cache.set(checked_key, time.time(), STORE_SECONDS)
            return stored[1]  # type: ignore[no-any-return]
        claimed = cache.add(claim, current, RENDER_CLAIM_SECONDS)
        if not claimed and not latest:
            return stored[1]  # type: ignore[no-any-return]
    try:
        value = None if stored is None or update is None else update(stored[1])
        if value is None:
            value = compute()
        cache.set_many({key: (current, value), checked_key: time.time()}, STORE_SECONDS)
    finally:
        if claimed:
            cache.delete(claim)
    return value


def store(key: str, version: str, value: Any) -> None:
    """Keep ``value`` as the one computed for ``version`` under ``key``, as ``fresh_or_stale``
    would: a writer that has the new value at hand spares its readers computing it."""
    key = f"shared:{_SHAPE}:{key}"
    cache.set_many({key: (version, value), f"{key}:checked": time.time()}, STORE_SECONDS)


@dataclass(frozen=True)
class StoredPage:
    status: int
    content_type: str
    body: str  # with _TOKEN_SLOT where the CSRF token goes
    #: What the body was drawn for, when the page has parts (``Composition``).
    drawn: Composition | None = None


@dataclass(frozen=True)
class Composition:
    """A page's version as the page around its parts and each part's own: ``frame``, the
    version of all but the parts; ``parts``, each part's version by its name."""

    frame: str
    parts: Mapping[str, str]


@dataclass(frozen=True)
class Parts:
    """What ``shared_page``'s ``parts`` gives for a version of a page: that version in its
    parts, each part's template by name, and what they read (``context(request)``). A part
    drawn alone is its template drawn with that, as the page's markers hold it."""

    composition: Composition
    templates: Mapping[str, str]
    context: Callable[[HttpRequest], dict[str, Any]]


def shared_page(
    version: Callable[..., str],
    *,
    params: Mapping[str, Values] | None = None,
    fresh: Collection[str] = (),
    reader: Callable[..., bool] | None = None,
    parts: Callable[..., Parts] | None = None,
    own: Mapping[str, Callable[..., str]] | None = None,
) -> Callable[[View], View]:
    """Share the view's page among anonymous visitors, per language and ``version(**kwargs)``
    (which raises Http404 for what does not exist). ``params`` names the query parameters the
    page reads and the values worth sharing (``Values``); any other parameter or value is
    dropped before the page is drawn. ``fresh`` names those whose every value is drawn alone
    (a search), counted against the client's rate of fresh drawings.
    ``reader(request, **kwargs)``: this signed-in user sees the page as a visitor does but for
    its own parts (they may do nothing on it), so they get the shared copy too.
    ``parts(version, **kwargs)``: the page's parts (``Parts``), which a new version that
    changes only some of them draws alone into the stored copy. ``own``: the view's own parts
    (between ``<!--own:NAME-->`` markers), each drawn by ``own[NAME](request, **kwargs)``."""
    allowed = params or {}
    own_parts = own or {}

    def decorate(view: View) -> View:
        @functools.wraps(view)
        def page(request: HttpRequest, **kwargs: Any) -> HttpResponse:
            query = _kept_query(request, allowed, fresh)
            request.GET = query  # what the page reads: the rest is nobody's business
            if any(name in query for name in fresh):
                try:
                    throttle.check(request, kinds=[throttle.DRAWINGS])
                except throttle.Throttled as error:
                    page = render(request, "429.html", {"message": str(error)}, status=429)
                    return throttle.refused_page(page, error)
                return view(request, **kwargs)
            signed_in = request.user.is_authenticated
            if (
                request.method not in ("GET", "HEAD")
                or "HTTP_AUTHORIZATION" in request.META
                or (signed_in and (reader is None or not reader(request, **kwargs)))
            ):
                return view(request, **kwargs)
            address = f"{get_language()}\n{request.path}\n{query.urlencode()}"
            key = "page:" + hashlib.sha256(address.encode()).hexdigest()[:32]

            def current() -> str:
                found = version(**kwargs)
                setattr(request, _VERSION, found)  # the view reads it, not again (page_version)
                return found

            def drawn() -> StoredPage:
                page = _stored(_as_visitor(request, view, kwargs))
                if parts is None:
                    return page
                composition = parts(getattr(request, _VERSION), **kwargs).composition
                return StoredPage(page.status, page.content_type, page.body, composition)

            def redrawn(retired: StoredPage) -> StoredPage | None:
                if parts is None or retired.drawn is None or retired.status != 200:
                    return None
                new = parts(getattr(request, _VERSION), **kwargs)
                return _redrawn(request, retired, new)

            stored = fresh_or_stale(
                key,
                current,
                drawn,
                refresh=settings.PUBLIC_PAGE_REFRESH_SECONDS,
                update=redrawn,
                latest=signed_in and changed_lately(request.user),
            )
            drawings = {name: functools.partial(draw, request, **kwargs)
                        for name, draw in own_parts.items()}  # fmt: skip
            return _response(request, stored, drawings, signed_in=signed_in)

        page.shared_params = frozenset(allowed) | frozenset(fresh)  # type: ignore[attr-defined]
        return page

    return decorate


def _as_visitor(request: HttpRequest, view: View, kwargs: dict[str, Any]) -> HttpResponse:
    """The page drawn as for an anonymous visitor, whoever asked: the copy every reader shares."""
    with _anonymous(request):
        return view(request, **kwargs)


@contextmanager
def _anonymous(request: HttpRequest) -> Iterator[None]:
    """The request as an anonymous visitor's, with no pending message, while it lasts."""
    user, pending = request.user, getattr(request, "_messages", None)
    request.user = AnonymousUser()
    if pending is not None:
        del request._messages  # type: ignore[attr-defined]  # (get_messages: none)
    try:
        yield
    finally:
        request.user = user
        if pending is not None:
            request._messages = pending  # type: ignore[attr-defined]


def _redrawn(request: HttpRequest, retired: StoredPage, new: Parts) -> StoredPage | None:
    """The retired copy with the parts whose version changed drawn again (None: the page
    around them changed too, or a part is missing from the copy)."""
    old, now = retired.drawn, new.composition
    if old is None or old.frame != now.frame or old.parts.keys() != now.parts.keys():
        return None
    changed = {name for name, part in now.parts.items() if old.parts[name] != part}
    with _anonymous(request):
        context = new.context(request)
        drawings = {
            name: _token_slotted(render_to_string(new.templates[name], context, request))
            for name in changed
        }
    found: set[str] = set()

    def draw(part: re.Match[str]) -> str:
        name = part["name"]
        found.add(name)
        if name not in drawings:
            return part[0]
        return f"<!--part:{name}-->{drawings[name]}<!--/part:{name}-->"

    body = _PART.sub(draw, retired.body)
    if not changed <= found:
        return None
    return StoredPage(retired.status, retired.content_type, body, now)


def page_version(request: HttpRequest, version: Callable[[], str]) -> str:
    """The version of the page being rendered: the one ``shared_page`` has just read to find its
    stored copy retired, or else ``version()``. A view that keys cached parts on its page's
    version reads it through this, so that an anonymous visitor's miss reads it once."""
    found: str | None = getattr(request, _VERSION, None)
    return version() if found is None else found


def _kept_query(
    request: HttpRequest, allowed: Mapping[str, Values], fresh: Collection[str]
) -> QueryDict:
    """The request's query as the page reads it: the parameters it names, once each, with a
    value it shares (any value for a ``fresh`` one), in their order; nothing else."""
    kept = QueryDict(mutable=True)
    for name in sorted(request.GET.keys()):
        value = request.GET.get(name, "")
        values = allowed.get(name)
        if name in fresh:
            if value.strip():
                kept[name] = value
        elif values is not None and (values(value) if callable(values) else value in values):
            kept[name] = value
    kept._mutable = False
    return kept


def _stored(response: HttpResponse) -> StoredPage:
    body = _token_slotted(response.content.decode())
    return StoredPage(response.status_code, response["Content-Type"], body)


def _token_slotted(html: str) -> str:
    """``html`` with a slot where each form's CSRF token was, for each reader's own."""
    return _TOKEN.sub(rf"\g<1>{_TOKEN_SLOT}\g<2>", html)


def _response(
    request: HttpRequest,
    page: StoredPage,
    own: Mapping[str, Callable[[], str]] | None = None,
    *,
    signed_in: bool = False,
) -> HttpResponse:
    """The stored page for this reader: with their own parts when they are signed in, or their
    messages when they have some. ``own``: the view's own parts, by name (drawn for a visitor
    in the stored copy, so drawn again only for a signed-in reader); the others are the site's
    (``partials/own_*.html``)."""
    body = page.body
    if signed_in or len(messages.get_messages(request)):
        views = own or {}

        def drawn(part: re.Match[str]) -> str:
            name = part["name"]
            if name not in views:
                return render_to_string(f"partials/own_{name}.html", request=request)
            if not signed_in:
                return part[0]
            return f"<!--own:{name}-->{views[name]()}<!--/own:{name}-->"

        body = _OWN.sub(drawn, body)
    if _TOKEN_SLOT in body:
        body = body.replace(_TOKEN_SLOT, get_token(request))
    return HttpResponse(body, status=page.status, content_type=page.content_type)
