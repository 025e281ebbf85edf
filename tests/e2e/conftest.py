"""Browser tests: Playwright drives Debian's Chromium, headless and off the network, against a
live server of the site on the test database.

Every request the pages make to anything but the live server is blocked and fails the test: all
assets are served locally. A JavaScript error on a page fails the test too. Screenshots of the
pages go to ``build/screenshots/`` (``SCREENSHOTS_DIR`` overrides it).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.words import SYSTEM_NAMES

# Playwright's sync API runs an event loop in the test thread; Django's ORM refuses to run in a
# thread with a running loop unless told that this is fine (it is: the loop is idle meanwhile).
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))
SCREENSHOTS = Path(os.environ.get("SCREENSHOTS_DIR", PROJECT_ROOT / "build" / "screenshots"))
IN_CI = os.environ.get("CI", "").lower() == "true"

#: Words that stay Latin in the Russian pages: the interface's and the charts' (SVG, PR, mEMG), the
#: protocol's files (PDF, XLSX) and the Roman numerals of the adult ranks (II, III).
LATIN_ALLOWED = SYSTEM_NAMES | {"SVG", "PR", "mEMG", "PDF", "XLSX", "II", "III"}


#: The text of a page as a reader sees it, without what is marked translate="no" (user data).
VISIBLE_TRANSLATABLE_TEXT = """() => {
  const body = document.body.cloneNode(true);
  const skipped = '[translate="no"], script, style, noscript, [hidden]';
  body.querySelectorAll(skipped).forEach(e => e.remove());
  const texts = [body.innerText];
  body.querySelectorAll('[aria-label], [title], [placeholder]').forEach(e => {
    for (const name of ['aria-label', 'title', 'placeholder']) {
      if (e.getAttribute(name)) texts.push(e.getAttribute(name));
    }
  });
  return texts.join('\\n');
}"""


def blunder_frames(page) -> list[dict]:
    """The board viewer's frames of an analysed match that the analysis marks as blunders, each
    with its index among the frames."""
    frames = json.loads(page.locator("#board-frames").text_content())["frames"]
    return [
        {"index": index, **frame}
        for index, frame in enumerate(frames)
        if frame.get("analysis", {}).get("mark") == "blunder"
    ]


def untranslated_words(page) -> list[str]:
    """The Latin words on the page a Russian reader would see (user data and names left out)."""
    words = set(re.findall(r"[A-Za-z]{2,}", page.evaluate(VISIBLE_TRANSLATABLE_TEXT)))
    return sorted(words - LATIN_ALLOWED)


#: Chromium with nothing of its own to fetch: no updates, sync, safe-browsing or metrics, and no
#: host name resolves except the live server's.
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root in a container, where the sandbox cannot start
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--disable-domain-reliability",
    "--disable-sync",
    "--disable-client-side-phishing-detection",
    "--metrics-recording-only",
    "--no-first-run",
    "--no-pings",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost",
]


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    if not CHROMIUM.exists():
        message = f"browser tests need Chromium at {CHROMIUM} (apt-get install chromium)"
        if IN_CI:
            pytest.fail(message)
        pytest.skip(message)
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield launched
        launched.close()


def outside_of(live: str, outside: list[Any]) -> Callable[[Any], None]:
    """A request listener that keeps the requests to another host than the live server.

    Requests are seen, not routed: a routed context has no HTTP cache, and each page would fetch
    the site's scripts and styles again (half of the browser tests' time)."""

    def seen(request: Any) -> None:
        if not request.url.startswith((live, "data:", "blob:")):
            outside.append(request)

    return seen


def asked_outside(requests: list[Any]) -> list[str]:
    """The outside requests the browser made: not those the page's own Content-Security-Policy
    refused before they left (Redoc's footer logo, ``nardy_site.urls.RedocView``)."""
    return [r.url for r in requests if r.failure not in ("csp", "net::ERR_BLOCKED_BY_CSP")]


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(language="en", width=1280, service_workers=False)``: a fresh browser context
    (its own cookies) on the live server; outside requests and page errors are collected and fail
    the test at its end."""
    contexts = []
    outside: list[Any] = []
    errors: list[str] = []

    def open_page(
        language: str = "en", width: int = 1280, height: int = 900, service_workers: bool = False
    ):
        # The recorder's service worker downloads Pyodide: only the offline tests let it.
        context = browser.new_context(
            base_url=live_server.url,
            locale=language,
            extra_http_headers={"Accept-Language": language},
            viewport={"width": width, "height": height},
            service_workers="allow" if service_workers else "block",
        )
        contexts.append(context)

        context.on("request", outside_of(live_server.url, outside))
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        return page

    yield open_page
    for context in contexts:
        context.close()
    asked = asked_outside(outside)
    assert not asked, f"pages asked for outside resources: {asked}"
    assert not errors, f"JavaScript errors: {errors}"


@pytest.fixture
def screenshot():
    """``screenshot(page, "name")`` saves the whole page as build/screenshots/name.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> Path:
        path = SCREENSHOTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return save


@pytest.fixture
def log_in():
    """``log_in(page, username, password)`` through the login page."""

    def submit(page, username: str, password: str) -> None:
        page.goto("/accounts/login/")
        page.fill("#id_username", username)
        page.fill("#id_password", password)
        page.locator("main form button[type=submit]").click()
        page.wait_for_url(lambda url: "/accounts/login/" not in url)

    return submit
