"""An official long-blitz event run on a phone (390×844), through the site's pages, as its
organizer and its judges meet it (issue 48's showcase): the organizer names a panel of three
judges by the form, is refused a judge as a player (with the reason), and enters four players
whose birth years, regions and ranks are on their profiles; a judge records a first-round match
at the table (the opening throw with one die each, the clocks paused and resumed, two games
resigned), and decides the other by forfeit; the match pages name the judge; the final is
reported by a judge; the chief judge closes the event (the organizer is not offered the close);
the protocol is read as a page, as a PDF (its pages rendered) and as a spreadsheet; and the
regional table.

Screenshots go to ``SCREENSHOTS_DIR`` when it is set (else to the test's temporary directory):
the phone's pages, the protocol and the regional table at 1920×1080 too, the PDF's pages."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import openpyxl
import pytest
from django.contrib.auth.models import User

from tests.e2e.test_recorder_in_a_browser import PHONE, recorder, state_of, wait_ply
from tournaments import services
from tournaments.models import Match, Player, Tournament
from tournaments.norms.models import EventStatus
from tournaments.players import services as player_services
from tournaments.scoring.events import event_preset

pytestmark = pytest.mark.django_db(transaction=True)

DESKTOP = {"width": 1920, "height": 1080}
#: The men of the event: name, birth year, region, rank.
MEN = [
    ("Руслан Мамедов", 1983, "RU-MOW", "kms"),
    ("Давид Кузнецов", 1984, "RU-SE", "1"),
    ("Тимур Иванов", 1980, "RU-KDA", "2"),
    ("Арсен Смирнов", 1978, "RU-MOW", ""),
]
#: The panel: username, first and last name, role (as the form offers it).
PANEL = [
    ("ivan", "Иван", "Петров", "chief"),
    ("sveta", "Светлана", "Орлова", "secretary"),
    ("gleb", "Глеб", "Соколов", "judge"),
]


@pytest.fixture
def shoot(tmp_path):
    """``shoot(page, name)``: the whole page as ``name.png`` in ``SCREENSHOTS_DIR`` (when set),
    else in the test's temporary directory."""
    folder = Path(os.environ.get("SCREENSHOTS_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)

    def save(page, name: str, *, size: dict | None = None) -> Path:
        if size is not None:
            page.set_viewport_size(size)
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if size is not None:
            page.set_viewport_size(PHONE)
        return path

    save.folder = folder
    return save


def the_event() -> tuple[Tournament, User, dict[str, User]]:
    """Olga's official long-blitz event (the federation's preset) in draft; the judges' accounts
    (not yet on the panel) and Gleb's own player, and the four men with their profiles."""
    olga = User.objects.create_user("olga", password="pw-olga-123")
    staff = User.objects.create_superuser("sam", password="pw-sam-123")
    judges = {
        username: User.objects.create_user(
            username, password=f"pw-{username}-123", first_name=first, last_name=last
        )
        for username, first, last, _role in PANEL
    }
    event = services.tournament_create(
        organizer=olga,
        name="Кубок ФНР, длинные нарды — блиц",
        **event_preset("long-blitz").settings(),
        official=True,
        category="men",
        venue="Нижний Новгород",
        # (a transactional test before this one may have flushed the migrations' statuses)
        event_status=EventStatus.objects.get_or_create(
            code="all-russian", defaults={"name": "All-Russian event", "order": 2}
        )[0],
    )
    Player.objects.create(
        display_name="Глеб Соколов", user=judges["gleb"], gender="male", birth_year=1990
    )
    for name, born, region, rank in MEN:
        player = Player.objects.create(display_name=name, gender="male")
        player_services.player_profile_update(
            player=player, by=staff, gender="male", birth_year=born, region=region, sport_rank=rank
        )
    return event, olga, judges


def enter(page, name: str, seed: int | None = None) -> None:
    """The organizer enters a player already on the site, by name, on the players page."""
    form = page.locator("form[data-role=add-player]")
    form.locator("input[name=player]").fill(name)
    if seed is not None:
        form.locator("input[name=seed]").fill(str(seed))
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()


def test_an_official_long_blitz_event_on_a_phone(new_page, log_in, shoot):
    event, olga, judges = the_event()
    slug = event.slug

    # 1. The organizer names the panel on its page, by the form: the chief, the secretary, a
    # judge. A second chief is refused.
    page = new_page(language="ru", width=PHONE["width"], height=PHONE["height"])
    page.on("dialog", lambda dialog: dialog.accept())
    log_in(page, "olga", "pw-olga-123")
    page.goto(f"/t/{slug}/judges/")
    for username, _first, _last, role in (PANEL[2], PANEL[0], PANEL[1]):
        form = page.locator("form[data-role=add-judge]")
        form.locator("input[name=user]").fill(username)
        form.locator("select[name=role]").select_option(role)
        form.locator("[data-action=add-judge]").click()
        page.wait_for_url(f"**/t/{slug}/judges/")
    rows = page.locator("table[data-role=panel] tr[data-role=judge]")
    assert [row.locator("td").nth(1).inner_text() for row in rows.all()] == [
        "Иван Петров",
        "Светлана Орлова",
        "Глеб Соколов",
    ]
    assert rows.first.locator("strong").inner_text() == "Главный судья"
    shoot(page, "phone-official-panel")
    form = page.locator("form[data-role=add-judge]")
    form.locator("input[name=user]").fill("olga")
    form.locator("select[name=role]").select_option("chief")
    form.locator("[data-action=add-judge]").click()
    page.wait_for_load_state()
    assert "уже главный судья" in page.locator('[role="alert"]').first.inner_text()
    assert rows.count() == 3

    # 2. The organizer tries to enter the judge's player: refused, with the reason; then the
    # four men, found by name (their profiles say their birth years, regions and ranks).
    page.goto(f"/t/{slug}/players/")
    enter(page, "Глеб Соколов")
    refusal = page.locator('[role="alert"]').first
    assert "судья этого соревнования" in refusal.inner_text()
    assert "Глеб Соколов" in refusal.inner_text()
    refusal.scroll_into_view_if_needed()
    shoot(page, "phone-official-refused-judge")
    for seed, (name, *_profile) in enumerate(MEN, start=1):
        enter(page, name, seed)
    names = page.locator("table[data-role=entries] tbody tr").all_inner_texts()
    assert len(names) == 4 and not any("Глеб" in row for row in names)

    # 3. The organizer starts the event: the bracket is drawn.
    page.goto(f"/t/{slug}/")
    page.locator("[data-step=start]").click()
    page.wait_for_load_state()
    event.refresh_from_db()
    assert event.status == Tournament.Status.RUNNING
    first, second = Match.objects.filter(tournament=event, bracket_round=1).order_by("slot")

    # A judge (Gleb) records the first match at the table, on his phone: the opening throw, one
    # die each (White's 2, Black's 5: Black moves first), the clocks paused and resumed, and one
    # side resigning a mars in each of two games (colours alternate: White, then Black).
    judge = new_page(language="ru", width=PHONE["width"], height=PHONE["height"])
    judge.on("dialog", lambda dialog: dialog.accept())
    log_in(judge, "gleb", "pw-gleb-123")
    judge.goto(f"/m/{first.pk}/record/")
    wait_ply(judge, 0)
    assert recorder(judge).locator("[data-opening]").count() == 12
    recorder(judge).locator('[data-opening="white"][data-face="2"]').click()
    shoot(judge, "phone-official-recorder-opening")
    recorder(judge).locator('[data-opening="black"][data-face="5"]').click()
    wait_ply(judge, 1)
    assert state_of(judge, first)["clocks"]["running"] is not None
    controls = recorder(judge).locator('[data-role="organizer"]')
    controls.locator("summary").click()
    for action in ("clock-pause", "clock-resume"):
        controls.locator(f'[data-action="{action}"]').click()
        judge.wait_for_selector('[data-role="recorder"]:not([aria-busy])')
        judge.wait_for_function(
            "paused => fetch(location.pathname.replace('/m/', '/api/v1/matches/')"
            ".replace('/record/', '/live')).then(r => r.json())"
            ".then(s => !s.clocks.running === paused)",
            arg=action == "clock-pause",
        )
    for resigns, throw in (("white", (3, 1)), ("black", None)):
        ply = state_of(judge, first)["ply"]
        recorder(judge).locator('[data-role="resign"] summary').click()
        recorder(judge).locator(f'[data-resign="{resigns}"][data-value="2"]').click()
        recorder(judge).locator('[data-action="resign-confirm"]').click()
        wait_ply(judge, ply + 1)
        if throw is not None:  # the second game opens with its own throw
            white, black = throw
            recorder(judge).locator(f'[data-opening="white"][data-face="{white}"]').click()
            recorder(judge).locator(f'[data-opening="black"][data-face="{black}"]').click()
            wait_ply(judge, ply + 2)
    first.refresh_from_db()
    assert first.status == Match.Status.FINAL and first.decided_by == judges["gleb"]

    # The match page names the judge for the decision and for each clock action.
    judge.goto(f"/m/{first.pk}/")
    assert "Глеб Соколов" in judge.locator("[data-role=decided-by]").inner_text()
    clock_actions = judge.locator("details[data-role=clock-actions]")
    clock_actions.locator("summary").click()
    said = clock_actions.locator("li").all_inner_texts()
    assert len(said) == 2 and all("Глеб Соколов" in line for line in said), said
    assert "остановлены" in said[0] and "пущены" in said[1]
    shoot(judge, "phone-official-match-decided-by-judge")

    # The second match: its away player did not come; the judge decides it by forfeit on the
    # result page.
    judge.goto(f"/m/{second.pk}/")
    judge.locator("[data-action=report]").click()
    judge.locator("input[name=mode][value=forfeit]").check()
    judge.locator("input[name=forfeit][value=away]").check()
    judge.locator("[data-action=submit-result]").click()
    judge.wait_for_url(f"**/m/{second.pk}/")
    assert "Глеб Соколов" in judge.locator("[data-role=decided-by]").inner_text()
    assert judge.locator("[data-role=score]").inner_text().strip() == "+/−"
    shoot(judge, "phone-official-forfeit-by-judge")
    second.refresh_from_db()
    assert second.forfeit and second.decided_by == judges["gleb"]

    # 4. The final (and the match for third place, if the bracket has one) reported by a judge,
    # the secretary, as a score.
    secretary = new_page(language="ru", width=PHONE["width"], height=PHONE["height"])
    log_in(secretary, "sveta", "pw-sveta-123")
    playable = Match.objects.filter(
        tournament=event, status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    )
    assert playable.exists()
    for match in playable:
        secretary.goto(f"/m/{match.pk}/report/")
        secretary.locator("input[name=mode][value=score]").check()
        secretary.fill("input[name=score_home]", "3")
        secretary.fill("input[name=score_away]", "1")
        secretary.locator("[data-action=submit-result]").click()
        secretary.wait_for_url(f"**/m/{match.pk}/")
        assert "Светлана Орлова" in secretary.locator("[data-role=decided-by]").inner_text()

    # The organizer is not offered the close: the chief judge closes the event.
    page.goto(f"/t/{slug}/")
    assert page.locator("[data-step=finish]").count() == 0
    assert page.locator("[data-role=chief-closes]").is_visible()
    chief = new_page(language="ru", width=PHONE["width"], height=PHONE["height"])
    chief.on("dialog", lambda dialog: dialog.accept())
    log_in(chief, "ivan", "pw-ivan-123")
    chief.goto(f"/t/{slug}/")
    chief.locator("[data-role=judge-panel] [data-step=finish]").click()
    chief.wait_for_load_state()
    event.refresh_from_db()
    assert event.status == Tournament.Status.FINISHED

    # 5. The protocol: the page, the PDF (its pages rendered) and the spreadsheet from its
    # links; anyone reads them.
    reader = new_page(language="ru", width=PHONE["width"], height=PHONE["height"])
    reader.goto(f"/t/{slug}/protocol/")
    protocol = reader.locator("[data-role=protocol]").inner_text()
    for shown in ("0690022811Л", "Москва", "1983", "КМС", "Иван Петров", "Светлана Орлова",
                  "Глеб Соколов", "Нижний Новгород", "Руслан Мамедов"):  # fmt: skip
        assert shown in protocol, shown
    assert reader.locator("[data-role=provisional]").count() == 0
    shoot(reader, "phone-official-protocol")
    shoot(reader, "desktop-official-protocol-1920", size=DESKTOP)

    # The PDF is served inline (a desktop browser shows it); a phone saves it, as the link's
    # "download" does here (headless Chromium would open its PDF viewer, off the live server).
    pdf_link = reader.locator("[data-role=protocol-pdf]")
    pdf_link.evaluate("link => link.setAttribute('download', '')")
    with reader.expect_download() as pdf_download:
        pdf_link.click()
    pdf = Path(pdf_download.value.path()).read_bytes()
    assert pdf.startswith(b"%PDF")
    words = subprocess.run(
        ["pdftotext", "-layout", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    for shown in ("0690022811Л", "Руслан Мамедов", "Иван Петров", "Глеб Соколов"):
        assert shown in words, shown
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-", str(shoot.folder / "official-protocol-pdf")],
        input=pdf,
        check=True,
    )
    pages = sorted(shoot.folder.glob("official-protocol-pdf-*.png"))
    assert pages and pages[0].stat().st_size > 0

    with reader.expect_download() as xlsx_download:
        reader.locator("[data-role=protocol-xlsx]").click()
    assert xlsx_download.value.suggested_filename.endswith(".xlsx")
    book = openpyxl.load_workbook(io.BytesIO(Path(xlsx_download.value.path()).read_bytes()))
    cells = {str(cell.value) for row in book.active.iter_rows() for cell in row if cell.value}
    assert {name for name, *_profile in MEN} <= cells
    assert any("Иван Петров" in cell for cell in cells)

    # The regional table: Moscow's two men, North Ossetia's and the Krasnodar region's one each.
    reader.goto(f"/t/{slug}/regions/")
    regions = reader.locator("[data-role=regions]").inner_text()
    assert "Москва" in regions and "Руслан Мамедов" in regions and "Арсен Смирнов" in regions
    # The medal table fits the phone's screen: nothing scrolls sideways, "Всего" is seen.
    table = reader.locator("[data-role=medal-table]")
    assert table.evaluate("table => table.scrollWidth <= table.parentElement.clientWidth")
    assert table.evaluate("table => table.getBoundingClientRect().right <= innerWidth")
    assert "Всего" in table.locator("thead").inner_text()
    shoot(reader, "phone-official-regions")
    shoot(reader, "desktop-official-regions-1920", size=DESKTOP)
