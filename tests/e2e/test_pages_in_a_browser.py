"""The public pages in a real browser: the bracket and the board viewer render and step, an
illegal match file is shown back with its error, and the Russian interface has no English left.
Screenshots of the main pages are saved on the way."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import User

from tests.support.demo import demo_seeded
from tournaments import services
from tournaments.demo import DEMO_ORGANIZER, DEMO_TOURNAMENT_SLUG
from tournaments.models import Match, Player, Tournament
from tournaments.ratings.ledger import ratings_replay

from .conftest import untranslated_words

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def demo_club(db):
    demo_seeded()
    ratings_replay(None)  # the worker's part, done here whether or not a worker runs
    organizer = User.objects.get(username=DEMO_ORGANIZER)
    organizer.set_password("demo-pass-123")
    organizer.save()
    return organizer


def test_the_bracket_and_the_board_viewer_render_and_step(new_page, demo_club, screenshot):
    double = Tournament.objects.get(format=Tournament.Format.DOUBLE_ELIMINATION)
    played = Match.objects.filter(tournament=double, games__isnull=False).distinct().first()
    page = new_page()

    page.goto(f"/t/{double.slug}/bracket/")
    boxes = page.locator("svg .bracket-box")
    assert boxes.count() == double.matches.count()
    assert page.locator("section.bracket svg").count() >= 3  # winners, losers, grand final
    screenshot(page, "bracket-double-elimination")

    page.goto(f"/m/{played.pk}/")
    counter = page.locator('[data-role="counter"]')
    board = page.locator('[data-role="board"]')
    assert re.fullmatch(r"1\s*/\s*\d+", counter.inner_text().strip())
    total = int(counter.inner_text().split("/")[1])
    assert page.locator("circle.checker.white").count() == 15
    assert page.locator("circle.checker.black").count() == 15
    assert page.locator('[data-step="prev"]').get_attribute("aria-disabled") == "true"
    screenshot(page, "match-board-start")

    page.locator('[data-step="next"]').click()
    assert counter.inner_text().split("/")[0].strip() == "2"
    first_play = page.locator('[data-role="play"]').inner_text()
    assert first_play.strip()
    assert page.locator(".die").count() == 2
    board.focus()
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert counter.inner_text().split("/")[0].strip() == "4"
    page.keyboard.press("ArrowLeft")
    assert counter.inner_text().split("/")[0].strip() == "3"
    page.locator('[data-step="last"]').click()
    assert counter.inner_text().split("/")[0].strip() == str(total)
    screenshot(page, "match-board-end")
    page.keyboard.press("Home")
    assert counter.inner_text().split("/")[0].strip() == "1"
    if page.locator('[data-role="game"] option').count() > 1:
        page.locator('[data-role="game"]').select_option("2")
        assert board.get_attribute("aria-label").startswith("Game 2, move 0: ")
        assert page.locator('[data-role="live"]').inner_text().startswith("Game 2")


def test_an_illegal_mat_upload_shows_its_error_and_saves_nothing(
    new_page, demo_club, log_in, screenshot, tmp_path
):
    match = Match.objects.filter(
        tournament__status=Tournament.Status.RUNNING,
        tournament__variant=Tournament.Variant.SHORT,  # the file is a Short Nardy match
        status=Match.Status.SCHEDULED,
        home__isnull=False,
        away__isnull=False,
    ).first()
    file = tmp_path / "illegal.mat"
    file.write_text(
        " 3 point match\n\n Game 1\n"
        f" {match.home.player.display_name} : 0{' ' * 20}{match.away.player.display_name} : 0\n"
        "  1) 31: 24/1\n",
        encoding="utf-8",
    )
    page = new_page()
    log_in(page, DEMO_ORGANIZER, "demo-pass-123")

    page.goto(f"/m/{match.pk}/report/")
    page.locator("input[name=mode][value=mat]").check()
    page.set_input_files("input[name=mat_file]", str(file))
    page.locator('[data-action="submit-result"]').click()
    error = page.locator('[data-role="error"]')
    error.wait_for()

    text = error.inner_text()
    assert "Game" in text and "Move" in text and "Reason" in text
    assert "24/1" in text
    screenshot(page, "result-illegal-mat")
    match.refresh_from_db()
    assert match.status == Match.Status.SCHEDULED
    assert not match.games.exists()


RUSSIAN_PAGES = [
    ("home", "/"),
    ("tournament", f"/t/{DEMO_TOURNAMENT_SLUG}/"),
    ("rounds", f"/t/{DEMO_TOURNAMENT_SLUG}/rounds/"),
    ("standings", f"/t/{DEMO_TOURNAMENT_SLUG}/standings/"),
    ("ratings", "/ratings/long/"),
    ("login", "/accounts/login/"),
    ("signup", "/accounts/signup/"),
]


def test_the_russian_interface_shows_no_untranslated_text(new_page, demo_club, log_in, screenshot):
    double = Tournament.objects.get(format=Tournament.Format.DOUBLE_ELIMINATION)
    played = Match.objects.filter(tournament=double, games__isnull=False).distinct().first()
    player = Player.objects.filter(rating_changes__isnull=False).first()
    pages = [
        *RUSSIAN_PAGES,
        ("bracket", f"/t/{double.slug}/bracket/"),
        ("match", f"/m/{played.pk}/"),
        ("player", f"/p/{player.pk}/"),
    ]
    page = new_page(language="en")
    page.goto("/")
    with page.expect_navigation():
        page.select_option("#language", "ru")
    assert page.locator("html").get_attribute("lang") == "ru"

    untranslated = {}
    for name, url in pages:
        page.goto(url)
        if words := untranslated_words(page):
            untranslated[name] = words
        screenshot(page, f"ru-{name}")

    log_in(page, DEMO_ORGANIZER, "demo-pass-123")
    scheduled = Match.objects.filter(
        tournament=double, status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    ).first()
    organizer_pages = [
        ("create", "/tournaments/new/"),
        ("my-matches", "/me/matches/"),
        ("players", f"/t/{double.slug}/players/"),
        ("result-form", f"/m/{scheduled.pk}/report/"),
        ("correct", f"/m/{played.pk}/correct/"),
    ]
    for name, url in organizer_pages:
        page.goto(url)
        if words := untranslated_words(page):
            untranslated[name] = words
        screenshot(page, f"ru-{name}")
    assert untranslated == {}


def test_the_main_pages_on_a_desktop_a_phone_and_a_wall(new_page, demo_club, screenshot):
    swiss = Tournament.objects.get(slug="demo-short-nardy-swiss")
    phone = new_page(width=390, height=844)
    for name, url in [("home", "/"), ("standings", f"/t/{swiss.slug}/standings/")]:
        phone.goto(url)
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"{name} scrolls sideways on a phone: {width}px"
        screenshot(phone, f"phone-{name}")
    phone_tables_keep_what_matters(phone, swiss)

    desktop = new_page()
    consolation = Tournament.objects.get(format=Tournament.Format.CONSOLATION)
    player = Player.objects.filter(rating_changes__isnull=False).first()
    for name, url in [
        ("home", "/"),
        ("rounds", f"/t/{swiss.slug}/rounds/"),
        ("bracket-consolation", f"/t/{consolation.slug}/bracket/"),
        ("player", f"/p/{player.pk}/"),
        ("ratings", "/ratings/short/"),
    ]:
        desktop.goto(url)
        screenshot(desktop, name)

    wall = new_page(width=1920, height=1080)
    wall.goto(f"/t/{swiss.slug}/standings/?wall=1")
    assert wall.locator("header.site-header").is_hidden()
    screenshot(wall, "wall-standings")


SHOWN_HEADINGS = """(table) => [...table.querySelectorAll('thead th')]
  .filter((th) => getComputedStyle(th).display !== 'none').map((th) => th.textContent.trim())"""
RIGHT_EDGE = "(element) => Math.round(element.getBoundingClientRect().right)"


def phone_tables_keep_what_matters(phone, swiss: Tournament) -> None:
    """On a 390 px phone each table shows, whole, the columns a person came for."""
    phone.goto(f"/t/{swiss.slug}/standings/")
    standings = phone.locator('table[data-role="standings"]')
    assert standings.evaluate(SHOWN_HEADINGS) == ["Place", "Player", "Points", "Tie-breaks"]
    decided = [
        text.strip()
        for text in phone.locator('td[data-role="decided-by"]').all_text_contents()
        if text.strip()
    ]
    assert decided, "no place on equal points says which tie-break decided it"
    assert all(re.match(r"^[A-Za-z].* -?[0-9.]+", text) for text in decided), decided
    assert standings.evaluate(RIGHT_EDGE) <= 390

    match = (
        Match.objects.filter(tournament=swiss, games__isnull=False, rating_changes__isnull=False)
        .distinct()
        .select_related("home__player", "away__player")
        .first()
    )
    phone.goto(f"/p/{match.home.player_id}/")
    played = phone.locator('table[data-role="player-matches"]')
    assert played.evaluate(SHOWN_HEADINGS) == ["Tournament", "Home", "Score", "Away"]
    assert played.evaluate(RIGHT_EDGE) <= 390
    row = played.locator("tbody tr").filter(has_text=match.away.player.display_name).first
    assert row.is_visible()

    phone.goto(f"/m/{match.pk}/")
    games = phone.locator('table[data-role="games"]')
    assert games.evaluate(SHOWN_HEADINGS) == ["Game", "Winner", "Value", "Points"]
    effect = phone.locator('[data-role="rating-effect"] table')
    assert effect.evaluate(SHOWN_HEADINGS) == ["Player", "Before", "After", "Change"]
    for table in (games, effect):
        assert table.evaluate(RIGHT_EDGE) <= 390


def test_a_player_reports_a_short_nardy_match_and_the_opponent_confirms(
    new_page, log_in, screenshot
):
    organizer = User.objects.create_user("olga", password="olga-pass-123")
    tournament = services.tournament_create(
        organizer=organizer, name="Thursday Short", variant="short", match_length=3
    )
    accounts = {}
    for seed, name in enumerate(["Anna", "Boris"], start=1):
        accounts[name] = User.objects.create_user(name.lower(), password=f"{name}-pass-123")
        player = Player.objects.create(display_name=name, user=accounts[name])
        services.entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    services.tournament_start(tournament=tournament, by=organizer)
    match = Match.objects.get(tournament=tournament, away__isnull=False)

    anna = new_page()
    log_in(anna, "anna", "Anna-pass-123")
    anna.goto("/me/matches/")
    screenshot(anna, "my-matches")
    anna.locator(f'a[href="/m/{match.pk}/"]').first.click()
    anna.locator('[data-action="report"]').click()
    anna.locator("input[name=mode][value=score]").check()
    anna.fill("input[name=score_home]", "3")
    anna.fill("input[name=score_away]", "1")
    screenshot(anna, "result-form")
    anna.locator('[data-action="submit-result"]').click()
    anna.wait_for_url(f"**/m/{match.pk}/")
    assert anna.locator('[data-role="match-status"]').inner_text().strip() == "Reported"

    boris = new_page()
    log_in(boris, "boris", "Boris-pass-123")
    boris.goto(f"/m/{match.pk}/")
    boris.locator('[data-action="confirm"]').click()
    boris.wait_for_url(f"**/m/{match.pk}/")
    assert boris.locator('[data-role="match-status"]').inner_text().strip() == "Confirmed"
    screenshot(boris, "match-confirmed")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert (match.score_home, match.score_away) == (3, 1)
