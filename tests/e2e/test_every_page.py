"""Every page of the site, in a browser, fits a phone and a desktop (issue 29).

Each URL pattern of the site (the resolver's list, less /api/ and /admin/) is either a page,
visited with the demo data, or named in ``NOT_A_PAGE`` with the reason; a new pattern that is
neither fails ``test_every_url_pattern_is_a_visited_page_or_named_not_a_page``, so no page can be
forgotten.

``test_every_page_fits_the_screen`` visits every page as one persona (anonymous, a player, the demo
organizer, a rating officer: one test each, so that pytest-xdist spreads them), in English and in
Russian, at 390×844 and at 1920×1080, one browser context per language and size. A page fails
when

* it is wider than the screen (``scrollWidth``): reported with its overflow and the element that
  sticks out furthest;
* a part of it scrolls sideways inside the page (a table in an ``overflow-x: auto`` box, a
  bracket in a narrow column): on a phone a table shows the columns a person came for instead;
* a chart's text is drawn smaller than 11 px;
* on a phone, a page of the main flows (``MAIN_FLOWS``: pairings, match, report, recorder,
  players, sign-up, inbox) has a link or button smaller than 44 × 44 CSS px that a finger must hit
  (``TAP_TARGET``): a link inside a sentence is exempt (WCAG 2.5.5's "inline" exception), and
  every other exception is named in ``SMALL_TAP_TARGETS_ALLOWED`` with its reason;
* it logs a console error, throws, asks for an outside address, or a request it makes fails or
  answers 400 or more.

A page itself may answer 403 or 404 to a persona who may not see it (the status is recorded and
its width is not checked); a page behind the login sends the anonymous visitor to the login page.
Every problem of every page is listed in one table at the end. Each visit's figures also go to
``build/page-widths/<persona>.tsv`` (``PAGE_WIDTHS_DIR`` overrides it), for the before/after table.

``test_screenshots_of_every_page`` saves a screenshot of every page (the organizer's view, and the
anonymous visitor's of the public pages) at both sizes in both languages into
``build/screenshots/pages/``. It takes minutes, so it runs only when asked:
``PAGE_SCREENSHOTS=1 pytest tests/e2e/test_every_page.py -k screenshots``.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.db.models import Q
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.support.demo import demo_seeded
from tournaments.analysis.receivers import analyse
from tournaments.clubs.models import Club
from tournaments.demo import (
    DEMO_CLUB_SLUG,
    DEMO_ORGANIZER,
    DEMO_RATING_OFFICER,
    DEMO_SEASON_SLUG,
    DEMO_SIGNUP_SLUG,
    DEMO_TOURNAMENT_SLUG,
)
from tournaments.matches.results import match_result_dispute, match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.players.pairs import pair_of
from tournaments.players.services import claim_approve, claim_request
from tournaments.ratings.ledger import ratings_replay

from .conftest import PROJECT_ROOT, SCREENSHOTS, asked_outside, outside_of

pytestmark = pytest.mark.django_db(transaction=True)

PERSONAS = ("anonymous", "player", "organizer", "officer")
LANGUAGES = ("en", "ru")
SIZES = {"phone": (390, 844), "desktop": (1920, 1080)}
#: The smallest chart text a reader can take in, in CSS pixels as drawn.
SMALLEST_CHART_TEXT = 11
WIDTHS = Path(os.environ.get("PAGE_WIDTHS_DIR", PROJECT_ROOT / "build" / "page-widths"))

#: The URL patterns that are not pages, by name, with the reason.
NOT_A_PAGE = {
    "tournament-list": "a redirect to the home page, which is the list",
    "tournament-step": "POST only: a step of a tournament's life (open, start, pair, finish)",
    "tournament-ratings-status": "JSON the match page polls while the ratings are replayed",
    "match-answer": "POST only: the opponent confirms or disputes a reported result",
    "player-claim": "POST only: 'this is me' on a player page",
    "player-unlink": "POST only: an organizer removes a player's account link",
    "season-csv": "a CSV download, not an HTML page",
    "tournament-protocol-pdf": "the protocol as a PDF download, not an HTML page",
    "tournament-protocol-xlsx": "the protocol as a spreadsheet download, not an HTML page",
    "logout": "POST only (Django 5): the header's log-out button",
    "set_language": "POST only: the header's language switcher",
    "healthz": "the health probe's JSON for the load balancer",
    "favicon": "a redirect to the site's icon (static/nardy/favicon.svg)",
    "offline-code": "the Python of the recorder's board, a zip for the page's Pyodide",
    "recorder-sw": "the recorder's service worker, a script",
    "web-manifest": "the web app manifest, JSON",
}
#: The pages of the main flows, where every link and button is a finger's tap on a phone.
MAIN_FLOWS = {
    "tournament-rounds", "match", "match-report", "match-record", "tournament-players",
    "tournament-signup", "signup", "my-inbox",
}  # fmt: skip
#: The smallest tap target, in CSS px each way (WCAG 2.5.5, Apple's and Google's guidelines).
TAP_TARGET = 44
#: Links and buttons of the main flows that may be smaller than a tap target: a CSS selector the
#: element matches → why.
SMALL_TAP_TARGETS_ALLOWED: dict[str, str] = {}

#: The address prefixes of what is not the site's pages: the API and the admin.
NOT_PAGES_PREFIXES = ("api/", "admin/")

#: Problems known and left to another engineer: (URL name, size or "*", problem kind) → why.
#: An entry here turns the problem into a note in the report; remove it with the fix.
KNOWN_ISSUES: dict[tuple[str, str, str], str] = {}

#: Where a part of a page may scroll sideways: (URL name, size) → why.
SIDEWAYS_ALLOWED = {
    ("tournament-bracket", "phone"): (
        "a bracket of 16 is a drawing wider than any phone: it scrolls inside its own box, "
        "the page does not"
    ),
}


# --- The URL patterns ------------------------------------------------------------------------


def url_patterns() -> dict[str, str]:
    """The site's URL patterns by name (route shown for messages), less the API and the admin."""

    def walk(patterns, prefix: str = "") -> Iterator[tuple[str, str | None]]:
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern), pattern.name

    found: dict[str, str] = {}
    for route, name in walk(get_resolver().url_patterns):
        if route.startswith(NOT_PAGES_PREFIXES):
            continue
        found.setdefault(name or f"<unnamed {route}>", route)
    return found


# --- The demo data, and the personas in it ---------------------------------------------------


@dataclass
class World:
    """The demo club, with what makes every page show its content: a player with an account
    (the player persona), a claim waiting for the organizer, a reported and a disputed match."""

    users: dict[str, User | None]
    player: Player
    reported: Match
    disputed: Match
    scheduled: Match
    played: Match
    played_long: Match
    #: A pair of the demo club (its rename page).
    pair: Player


def build_world() -> World:
    demo_seeded()  # its matches unanalysed but the two whose pages are visited (below)
    ratings_replay(None)  # the worker's part, done here whether or not a worker runs
    organizer = User.objects.get(username=DEMO_ORGANIZER)
    officer = User.objects.get(username=DEMO_RATING_OFFICER)
    double = Tournament.objects.get(slug="demo-double-elimination")
    consolation = Tournament.objects.get(slug="demo-consolation-cup")

    # Official events (issue 48): the season's evenings, their players representing regions (the
    # standings by region and the medal tables have something to show).
    Tournament.objects.filter(season__slug=DEMO_SEASON_SLUG).update(official=True)
    regions = ("RU-TA", "RU-MOW", "RU-SPE", "RU-KHM", "")
    for number, pk in enumerate(Player.objects.order_by("pk").values_list("pk", flat=True)):
        Player.objects.filter(pk=pk).update(region=regions[number % len(regions)])

    # The player persona: an account linked to the first demo player through a claim.
    player = Player.objects.get(display_name="Anna Berzina")
    account = User.objects.create_user("pages-player", password="pages-pass-123")
    claim_approve(claim=claim_request(player=player, by=account), by=organizer)
    # A claim that waits for the organizer (the claims page has a row to decide).
    claimant = User.objects.create_user("pages-claimant", password="pages-pass-123")
    claim_request(player=Player.objects.get(display_name="Karina Grigoryan"), by=claimant)

    def open_match_of(tournament: Tournament) -> Match:
        return Match.objects.get(
            Q(home__player=player, away__isnull=False) | Q(away__player=player, home__isnull=False),
            tournament=tournament,
            status=Match.Status.SCHEDULED,
        )

    reported = match_result_record(match=open_match_of(double), by=account, score=(3, 1))
    disputed = match_result_record(match=open_match_of(consolation), by=account, score=(3, 2))
    disputed = match_result_dispute(match=disputed, by=organizer, note="It was 2-3, not 3-2.")
    scheduled = (
        Match.objects.filter(
            tournament=double,
            status=Match.Status.SCHEDULED,
            home__isnull=False,
            away__isnull=False,
        )
        .order_by("pk")
        .first()
    )
    played = Match.objects.filter(tournament=double, games__isnull=False).order_by("pk").first()
    played_long = (
        Match.objects.filter(tournament__slug=DEMO_TOURNAMENT_SLUG, games__isnull=False)
        .order_by("pk")
        .first()
    )
    for analysed in (played, played_long):
        analyse(None, match=analysed)  # as a result commits: their pages show the analysis
    club = Club.objects.get(slug=DEMO_CLUB_SLUG)
    pair = pair_of(player, Player.objects.get(display_name="Karina Grigoryan"), home=club)
    return World(
        users={"anonymous": None, "player": account, "organizer": organizer, "officer": officer},
        player=player,
        reported=reported,
        disputed=disputed,
        scheduled=scheduled,
        played=played,
        played_long=played_long,
        pair=pair.player,
    )


# --- The pages: each URL pattern's addresses, filled from the demo data ----------------------

Addresses = list[tuple[str, str]]  # (what it shows, the address)


def _tournaments(name: str, *slugs: str) -> Callable[[World], Addresses]:
    return lambda world: [(slug, reverse(name, args=[slug])) for slug in slugs]


def _one(name: str, label: str = "", *args: object) -> Callable[[World], Addresses]:
    return lambda world: [(label, reverse(name, args=list(args)))]


def _matches(name: str, *which: str) -> Callable[[World], Addresses]:
    return lambda world: [(kind, reverse(name, args=[getattr(world, kind).pk])) for kind in which]


SWISS, DOUBLE, CONSOLATION = (
    "demo-short-nardy-swiss",
    "demo-double-elimination",
    "demo-consolation-cup",
)
TWO_STAGES, GROUP, FINAL = "demo-evening-2", "demo-evening-2-group-a", "demo-evening-2-stage-2"
ROUND_ROBIN = DEMO_TOURNAMENT_SLUG

#: Every page, by URL name: the addresses to visit.
PAGES: dict[str, Callable[[World], Addresses]] = {
    "home": _one("home"),
    "tournament-create": _one("tournament-create"),
    "tournament": _tournaments(
        "tournament", ROUND_ROBIN, SWISS, DOUBLE, CONSOLATION, TWO_STAGES, GROUP, DEMO_SIGNUP_SLUG
    ),
    "tournament-rounds": _tournaments("tournament-rounds", ROUND_ROBIN, SWISS, DOUBLE),
    "tournament-standings": _tournaments("tournament-standings", ROUND_ROBIN, SWISS, GROUP),
    "tournament-bracket": _tournaments("tournament-bracket", DOUBLE, CONSOLATION, FINAL),
    "tournament-print": _tournaments("tournament-print", SWISS, DOUBLE),
    "tournament-protocol": _tournaments("tournament-protocol", SWISS, DOUBLE),
    "tournament-norms": _tournaments("tournament-norms", SWISS),
    "norms": _one("norms"),
    "tournament-edit": _tournaments("tournament-edit", DEMO_SIGNUP_SLUG, SWISS),
    "tournament-players": _tournaments("tournament-players", DOUBLE, DEMO_SIGNUP_SLUG),
    "tournament-signup": _tournaments("tournament-signup", DEMO_SIGNUP_SLUG),
    "tournament-pr": _tournaments("tournament-pr", ROUND_ROBIN),
    "tournament-regions": _tournaments("tournament-regions", "demo-evening-1", TWO_STAGES),
    "tournament-judges": _tournaments("tournament-judges", "demo-evening-1"),
    "match": _matches("match", "played", "played_long", "disputed"),
    "match-record": _matches("match-record", "scheduled"),
    "match-report": _matches("match-report", "scheduled"),
    "match-resolve": _matches("match-resolve", "disputed"),
    "match-correct": _matches("match-correct", "played"),
    "player": lambda world: [("Anna Berzina", reverse("player", args=[world.player.pk]))],
    "player-merge": lambda world: [
        ("Anna Berzina", reverse("player-merge", args=[world.player.pk]))
    ],
    "player-profile": lambda world: [
        ("Anna Berzina", reverse("player-profile", args=[world.player.pk]))
    ],
    "player-rename": lambda world: [("a pair", reverse("player-rename", args=[world.pair.pk]))],
    "player-delete": lambda world: [
        ("Anna Berzina", reverse("player-delete", args=[world.player.pk]))
    ],
    "player-search": lambda world: [
        ("the form", reverse("player-search")),
        ("a search", reverse("player-search") + "?q=berzina"),
    ],
    "player-claims": _one("player-claims"),
    "identity-trail": _one("identity-trail"),
    "rating-list": lambda world: [
        (v, reverse("rating-list", args=[v])) for v in Tournament.Discipline.values
    ],
    "my-matches": _one("my-matches"),
    "my-inbox": _one("my-inbox"),
    "club-list": _one("club-list"),
    "club-create": _one("club-create"),
    "club": _one("club", DEMO_CLUB_SLUG, DEMO_CLUB_SLUG),
    "club-edit": _one("club-edit", DEMO_CLUB_SLUG, DEMO_CLUB_SLUG),
    "club-members": _one("club-members", DEMO_CLUB_SLUG, DEMO_CLUB_SLUG),
    "season-create": _one("season-create", DEMO_CLUB_SLUG, DEMO_CLUB_SLUG),
    "season": _one("season", DEMO_SEASON_SLUG, DEMO_CLUB_SLUG, DEMO_SEASON_SLUG),
    "season-edit": _one("season-edit", DEMO_SEASON_SLUG, DEMO_CLUB_SLUG, DEMO_SEASON_SLUG),
    "season-regions": _one("season-regions", DEMO_SEASON_SLUG, DEMO_CLUB_SLUG, DEMO_SEASON_SLUG),
    "signup": _one("signup"),
    "login": _one("login"),
    "password_change": _one("password_change"),
    "password_change_done": _one("password_change_done"),
    "password_reset": _one("password_reset"),
    "password_reset_done": _one("password_reset_done"),
    "password_reset_confirm": _one("password_reset_confirm", "a stale link", "MQ", "set-password"),
    "password_reset_complete": _one("password_reset_complete"),
}

#: The pages anyone may read: the anonymous visitor's screenshots.
PUBLIC = {
    "home", "tournament", "tournament-rounds", "tournament-standings", "tournament-bracket",
    "tournament-print", "tournament-signup", "tournament-pr", "match", "player", "rating-list",
    "club-list", "club", "season", "signup", "login", "password_reset", "tournament-protocol",
    "tournament-norms", "norms", "tournament-regions", "season-regions",
}  # fmt: skip


# --- One visit, measured ---------------------------------------------------------------------

#: What a page measures of itself: its width, the element that sticks out furthest (outside any
#: box that clips or scrolls), the boxes that scroll sideways, and the smallest chart text.
MEASURE = """(viewport) => {
  const describe = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    for (const c of e.classList) s += '.' + c;
    for (const a of ['data-role', 'data-label']) {
      if (e.getAttribute(a)) s += `[${a}="${e.getAttribute(a)}"]`;
    }
    return s;
  };
  const path = (e) => {
    const parts = [];
    for (let n = e; n && n !== document.body && parts.length < 3; n = n.parentElement) {
      parts.unshift(describe(n));
    }
    return parts.join(' > ');
  };
  // A box that clips or scrolls holds what is inside it, except what is positioned against a
  // box outside it (a visually hidden label in a scrolling table still widens the page).
  const inClippingBox = (e) => {
    let escaping = ['absolute', 'fixed'].includes(getComputedStyle(e).position);
    for (let n = e.parentElement; n && n !== document.body; n = n.parentElement) {
      const style = getComputedStyle(n);
      if (escaping && style.position === 'static') continue;
      if (style.overflowX !== 'visible') return true;
      if (escaping) escaping = ['absolute', 'fixed'].includes(style.position);
    }
    return false;
  };
  const width = document.documentElement.scrollWidth;
  let widest = null, right = viewport + 0.5;
  const sideways = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) continue;
    const style = getComputedStyle(e);
    const scrolls = style.overflowX === 'auto' || style.overflowX === 'scroll';
    const field = ['TEXTAREA', 'SELECT'].includes(e.tagName);
    if (scrolls && !field && e.scrollWidth > e.clientWidth + 1) {
      sideways.push(`${path(e)} (${e.scrollWidth - e.clientWidth}px)`);
    }
    if (width > viewport) {
      const r = e.getBoundingClientRect();
      if (r.right > right && !inClippingBox(e)) { right = r.right; widest = e; }
    }
  }
  // A chart's text as drawn: its font size times the scale the drawing is shown at (only the
  // drawing the screen shows: a chart holds a wide and a narrow one).
  let smallest = null;
  for (const text of document.querySelectorAll('svg.rating-chart text')) {
    if (!text.getClientRects().length) continue;
    const size = parseFloat(getComputedStyle(text).fontSize) * text.getScreenCTM().a;
    if (smallest === null || size < smallest) smallest = size;
  }
  return {
    width,
    widest: widest ? `${path(widest)} (right edge ${Math.round(right)}px)` : '',
    sideways,
    smallestChartText: smallest,
  };
}"""

#: The links and buttons a finger must hit that are smaller than ``size`` either way: those on
#: screen (not hidden, not in a closed <details>), less a link inside a sentence (its parent holds
#: text of its own beside it) and those matching an allowed selector.
SMALL_TAP_TARGETS = """([size, allowed]) => {
  const describe = (e) => {
    let s = e.tagName.toLowerCase();
    if (e.id) s += '#' + e.id;
    for (const c of e.classList) s += '.' + c;
    return s;
  };
  const inSentence = (e) => {
    if (getComputedStyle(e).display !== 'inline') return false;
    return [...e.parentElement.childNodes].some(
      (n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim().length > 1);
  };
  const targets = 'a[href], button, input[type="submit"], input[type="button"], summary, '
    + 'input[type="checkbox"], input[type="radio"], select';
  const small = [];
  for (const e of document.querySelectorAll(targets)) {
    const box = e.getBoundingClientRect();
    if (!box.width || !box.height || !e.checkVisibility({visibilityProperty: true})) continue;
    // kept off screen until focused (the skip link)
    if (box.right <= 0 || box.bottom + window.scrollY <= 0) continue;
    if (box.width >= size - 0.5 && box.height >= size - 0.5) continue;
    if (e.tagName === 'A' && inSentence(e)) continue;
    if (allowed.some((selector) => e.matches(selector))) continue;
    // A checkbox or radio counts with its label (the label that holds it or names it).
    const label = e.closest('label') || (e.id && document.querySelector(`label[for="${e.id}"]`));
    if (label) {
      const own = label.getBoundingClientRect();
      if (own.width >= size - 0.5 && own.height >= size - 0.5) continue;
    }
    const parent = e.parentElement ? describe(e.parentElement) + ' > ' : '';
    const text = (e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 30);
    const measured = `${Math.round(box.width)}x${Math.round(box.height)}`;
    small.push(`${parent}${describe(e)} "${text}" ${measured}`);
  }
  return small;
}"""


@dataclass
class Visit:
    name: str
    label: str
    url: str
    language: str
    size: str
    status: int = 0
    landed: str = ""
    width: int = 0
    widest: str = ""
    sideways: list[str] = field(default_factory=list)
    chart_text: float | None = None
    small_targets: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def overflow(self) -> int:
        return max(0, self.width - SIZES[self.size][0]) if self.width else 0


def persona_context(
    browser, live_server, persona: str, user: User | None, language: str, size: str
):
    """A browser context for one persona, language and size; signed in as ``user`` (a session
    made by Django's test client, so no login page is visited)."""
    width, height = SIZES[size]
    context = browser.new_context(
        base_url=live_server.url,
        locale=language,
        extra_http_headers={"Accept-Language": language},
        viewport={"width": width, "height": height},
        # The recorder's service worker would download Pyodide: the offline tests try it.
        service_workers="block",
    )
    if user is not None:
        client = Client()
        client.force_login(user)
        cookie = client.cookies[settings.SESSION_COOKIE_NAME]
        context.add_cookies([{"name": cookie.key, "value": cookie.value, "url": live_server.url}])
    return context


class Recorder:
    """A page's events (console errors, failed requests, outside requests, JavaScript errors),
    gathered for the visit under way."""

    def __init__(self, context, live_server_url: str) -> None:
        self.events: list[str] = []
        self.document_status: dict[str, int] = {}
        self.live = live_server_url

        self.outside: list[Any] = []
        self.page = context.new_page()
        self.page.on("request", outside_of(self.live, self.outside))
        self.page.set_default_timeout(15_000)
        self.page.on("pageerror", lambda error: self.events.append(f"JavaScript error: {error}"))
        self.page.on("console", self._console)
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _console(self, message) -> None:
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        # The browser logs a page's own 403 or 404 as a failed resource: that is the page's
        # status, recorded and judged by the visit, not a failed subresource.
        if where in self.document_status and "Failed to load resource" in message.text:
            return
        self.events.append(f"console error: {message.text} ({where})")

    def _failed(self, request) -> None:
        # Outside requests are reported when blocked; ERR_ABORTED is the browser dropping what
        # it was still fetching (the icon, lazily) because the test moved on to the next page.
        if request.url.startswith(self.live) and "ERR_ABORTED" not in (request.failure or ""):
            self.events.append(f"request failed: {request.url} ({request.failure})")

    def _response(self, response) -> None:
        request = response.request
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            self.document_status[response.url] = response.status
        elif response.status >= 400:
            self.events.append(f"{request.method} {response.url} answered {response.status}")

    def visit(self, visit: Visit) -> Visit:
        self.events.clear()
        self.outside.clear()
        self.document_status.clear()
        response = self.page.goto(visit.url, wait_until="load")
        visit.status = response.status if response else 0
        visit.landed = self.page.url.removeprefix(self.live)
        measured = self.page.evaluate(MEASURE, SIZES[visit.size][0])
        visit.width = measured["width"]
        visit.widest = measured["widest"]
        visit.sideways = measured["sideways"]
        visit.chart_text = measured["smallestChartText"]
        if visit.size == "phone" and visit.name in MAIN_FLOWS:
            visit.small_targets = self.page.evaluate(
                SMALL_TAP_TARGETS, [TAP_TARGET, list(SMALL_TAP_TARGETS_ALLOWED)]
            )
        visit.problems.extend(self.events)
        visit.problems.extend(f"outside request: {url}" for url in asked_outside(self.outside))
        return visit


def recorders(
    browser, live_server, persona: str, world: World
) -> Iterator[tuple[str, str, Recorder]]:
    """A page recorder for the persona in each language and size, its context closed after."""
    for language in LANGUAGES:
        for size in SIZES:
            context = persona_context(
                browser, live_server, persona, world.users[persona], language, size
            )
            try:
                yield language, size, Recorder(context, live_server.url)
            finally:
                context.close()


def judge(visit: Visit) -> None:
    """The visit's problems: too wide, sideways scrolling, small chart text (a page that answers
    403 or 404 is not measured: the persona may not see it)."""
    if visit.status in (403, 404) or visit.status >= 500 or visit.status == 0:
        if visit.status not in (403, 404):
            visit.problems.append(f"the page answered {visit.status}")
        return
    viewport = SIZES[visit.size][0]
    if visit.width > viewport:
        visit.problems.append(f"{visit.overflow}px wider than the screen; widest: {visit.widest}")
    if visit.sideways and (visit.name, visit.size) not in SIDEWAYS_ALLOWED:
        visit.problems.append("scrolls sideways inside: " + "; ".join(visit.sideways))
    if visit.chart_text is not None and visit.chart_text < SMALLEST_CHART_TEXT - 0.05:
        visit.problems.append(f"chart text {visit.chart_text:.1f}px (< {SMALLEST_CHART_TEXT}px)")
    if visit.small_targets:
        visit.problems.append(
            f"tap targets under {TAP_TARGET}px: " + "; ".join(visit.small_targets)
        )
    for (name, size, kind), why in KNOWN_ISSUES.items():
        if name == visit.name and size in (visit.size, "*"):
            known = [p for p in visit.problems if p.startswith(kind)]
            visit.problems = [p for p in visit.problems if not p.startswith(kind)]
            visit.notes.extend(f"known: {p} ({why})" for p in known)


def visits_of(world: World) -> list[tuple[str, str, str]]:
    """(URL name, label, address) of every page."""
    found = []
    for name, addresses in PAGES.items():
        listed = addresses(world)
        assert listed, f"{name}: no address to visit"
        found.extend((name, label, url) for label, url in listed)
    return found


def write_widths(persona: str, visits: list[Visit]) -> None:
    WIDTHS.mkdir(parents=True, exist_ok=True)
    lines = [
        "page\tlabel\turl\tlanguage\tsize\tstatus\tlanded\twidth\toverflow\tsideways\tchart_text"
    ]
    for v in visits:
        chart = f"{v.chart_text:.1f}" if v.chart_text is not None else ""
        lines.append(
            f"{v.name}\t{v.label}\t{v.url}\t{v.language}\t{v.size}\t{v.status}\t{v.landed}\t"
            f"{v.width}\t{v.overflow}\t{len(v.sideways)}\t{chart}"
        )
    (WIDTHS / f"{persona}.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (WIDTHS / f"{persona}-problems.md").write_text(offenders_table(visits) + "\n", encoding="utf-8")


def offenders_table(visits: list[Visit]) -> str:
    rows = [
        f"| {v.name} {v.label} | {v.url} | {v.language} | {v.size} | {v.status} | "
        + " / ".join(v.problems)
        + " |"
        for v in visits
        if v.problems
    ]
    head = "| page | address | language | size | status | problems |\n|---|---|---|---|---|---|"
    return "\n".join([head, *rows])


# --- The tests -------------------------------------------------------------------------------


def test_every_url_pattern_is_a_visited_page_or_named_not_a_page():
    patterns = url_patterns()
    forgotten = {name: route for name, route in patterns.items()
                 if name not in PAGES and name not in NOT_A_PAGE}  # fmt: skip
    both = set(PAGES) & set(NOT_A_PAGE)
    stale = (set(PAGES) | set(NOT_A_PAGE)) - set(patterns)
    assert not forgotten, (
        f"URL patterns neither visited nor named not a page: {forgotten}; add each to PAGES "
        "(with addresses from the demo data) or to NOT_A_PAGE (with the reason)"
    )
    assert not both, f"both a page and not a page: {both}"
    assert not stale, f"no such URL pattern any more: {stale}"


@pytest.mark.parametrize("persona", PERSONAS)
def test_every_page_fits_the_screen(persona, browser, live_server):
    started = time.monotonic()
    world = build_world()
    pages = visits_of(world)
    visits: list[Visit] = []
    for language, size, recorder in recorders(browser, live_server, persona, world):
        for name, label, url in pages:
            visit = recorder.visit(Visit(name, label, url, language, size))
            judge(visit)
            visits.append(visit)
    write_widths(persona, visits)
    elapsed = time.monotonic() - started
    print(f"{persona}: {len(visits)} visits in {elapsed:.0f}s")
    notes = [f"{v.name} {v.language} {v.size}: {n}" for v in visits for n in v.notes]
    if notes:
        print("\n".join(notes))
    failed = [v for v in visits if v.problems]
    assert not failed, (
        f"{len(failed)} of {len(visits)} visits as {persona} have problems:\n"
        + offenders_table(visits)
    )


@pytest.mark.skipif(
    not os.environ.get("PAGE_SCREENSHOTS"),
    reason="slow (minutes): PAGE_SCREENSHOTS=1 saves a screenshot of every page",
)
def test_screenshots_of_every_page(browser, live_server):
    world = build_world()
    pages = visits_of(world)
    folder = SCREENSHOTS / "pages"
    folder.mkdir(parents=True, exist_ok=True)
    for persona in ("organizer", "anonymous"):
        for language, size, recorder in recorders(browser, live_server, persona, world):
            for name, label, url in pages:
                if persona == "anonymous" and name not in PUBLIC:
                    continue
                recorder.visit(Visit(name, label, url, language, size))
                slug = f"{name}-{label}".rstrip("-").replace(" ", "-")
                recorder.page.screenshot(
                    path=str(folder / f"{persona}-{language}-{size}-{slug}.png"),
                    full_page=True,
                )
