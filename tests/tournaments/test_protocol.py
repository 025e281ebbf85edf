"""The final protocol (issue 48): one document, drawn as a page, a PDF and a spreadsheet; the
places, the tie-breaks that decided, the rounds, the panel's signatures and the norms met; who
may see it, and what a non-official event's protocol leaves out; in the reader's language."""

import doctest
import html
import re
import shutil
import subprocess
from decimal import Decimal
from io import BytesIO

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from openpyxl import load_workbook

from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.norms.models import EventStatus, RankNorm
from tournaments.officials.models import Judge
from tournaments.protocol import document
from tournaments.protocol.selectors import tournament_protocol

pytestmark = pytest.mark.django_db

#: Round robin of four, to 3 points: A beats everyone; B, C and D beat one another in a circle,
#: so the game points difference decides (B −1, D −2, C −3).
RESULTS = [
    (1, "A", "B", 3, 0), (1, "C", "D", 3, 1),
    (2, "A", "C", 3, 1), (2, "D", "B", 3, 2),
    (3, "A", "D", 3, 2), (3, "B", "C", 3, 0),
]  # fmt: skip
TIEBREAKS = ["direct-encounter", "sonneborn-berger", "wins", "game-points-difference"]


def event(*, official: bool = True, status: str = Tournament.Status.FINISHED) -> Tournament:
    organizer = User.objects.create_user("olga", password="x")
    cup_status = EventStatus.objects.create(code="test-cup", name="Test Cup", order=9)
    RankNorm.objects.create(
        status=cup_status, discipline="long", gender="male", rank="kms",
        participants_from=4, places_up_to=1,
    )  # fmt: skip
    RankNorm.objects.create(
        status=cup_status, discipline="long", gender="male", rank="1",
        participants_from=4, places_up_to=2,
    )  # fmt: skip
    tournament = Tournament.objects.create(
        name="Cup of the Volga",
        slug="volga",
        variant="long",
        format=Tournament.Format.ROUND_ROBIN,
        match_length=3,
        status=status,
        organizer=organizer,
        official=official,
        venue="Kazan, Palace of Chess",
        category="men",
        min_age=10,
        tiebreaks=TIEBREAKS,
        event_status=cup_status,
    )
    entries = {}
    for seed, (name, region, year, rank) in enumerate(
        [
            ("A", "RU-TA", 1990, "1"),
            ("B", "RU-MOW", 1985, "kms"),
            ("C", "RU-SPE", 2001, ""),
            ("D", "RU-TA", 1999, "2"),
        ],
        start=1,
    ):
        player = Player.objects.create(
            display_name=f"Player {name}",
            gender="male",
            birth_year=year,
            region=region,
            sport_rank=rank,
            club=f"Club {name}",
        )
        entries[name] = Entry.objects.create(tournament=tournament, player=player, seed=seed)
    for number in (1, 2, 3):
        round_ = Round.objects.create(tournament=tournament, number=number)
        for _n, home, away, score_home, score_away in [r for r in RESULTS if r[0] == number]:
            Match.objects.create(
                tournament=tournament,
                round=round_,
                home=entries[home],
                away=entries[away],
                status=Match.Status.FINAL,
                winner=entries[home] if score_home > score_away else entries[away],
                score_home=Decimal(score_home),
                score_away=Decimal(score_away),
            )
    for username, full, role in [
        ("ivan", ("Ivan", "Petrov"), Judge.Role.CHIEF),
        ("sveta", ("", ""), Judge.Role.SECRETARY),
        ("gleb", ("Gleb", "Orlov"), Judge.Role.JUDGE),
    ]:
        user = User.objects.create_user(username, first_name=full[0], last_name=full[1])
        Judge.objects.create(tournament=tournament, user=user, role=role)
    return tournament


def test_the_docstring_examples_hold():
    assert doctest.testmod(document).failed == 0


def test_the_document_has_the_places_tiebreaks_rounds_judges_and_norms():
    protocol = tournament_protocol(tournament=event())
    assert [(line.place, line.name) for line in protocol.lines] == [
        (1, "Player A"), (2, "Player B"), (3, "Player D"), (4, "Player C"),
    ]  # fmt: skip
    assert [line.points for line in protocol.lines] == ["3", "1", "1", "1"]
    # Only the game points difference decided a place; its value is shown where it did.
    assert protocol.tiebreak_names == ("Game points difference",)
    assert [line.tiebreaks for line in protocol.lines] == [("",), ("-1",), ("-2",), ("-3",)]
    assert [(line.birth_year, line.region, line.rank) for line in protocol.lines][:2] == [
        ("1990", "Republic of Tatarstan", "I"),
        ("1985", "Moscow", "KMS"),
    ]
    assert [line.club for line in protocol.lines][0] == "Club A"
    # 1st of 4 meets the KMS norm (the highest), 2nd the 1st adult rank.
    assert [line.norm for line in protocol.lines] == ["KMS", "I", "", ""]
    assert [item.title for item in protocol.rounds] == ["Round 1", "Round 2", "Round 3"]
    first = protocol.rounds[0].results
    assert (first[0].home, first[0].away, first[0].score, first[0].winner) == (
        "Player A", "Player B", "3:0", "home",
    )  # fmt: skip
    assert [(s.role, s.name) for s in protocol.signatures] == [
        ("Chief judge", "Ivan Petrov"), ("Chief secretary", "sveta"), ("Judge", "Gleb Orlov"),
    ]  # fmt: skip
    facts = dict((fact.label, fact.value) for fact in protocol.facts)
    assert facts["Event status"] == "Test Cup"
    assert facts["Venue"] == "Kazan, Palace of Chess"
    assert facts["Discipline"] == "Long Nardy"
    assert facts["Discipline code"] == "0690012811Л"
    assert facts["Category"] == "Men"
    assert facts["Age group"] == "from 10 years"
    assert facts["Match length"] == "to 3 points"
    assert facts["Participants"] == "4"
    assert facts["Regions"] == "3"
    assert protocol.heading == "Final protocol"
    assert protocol.sport == "Sport: nardy (code 0690002411Л)"


def test_it_is_read_in_a_fixed_number_of_queries():
    tournament = event()
    with CaptureQueriesContext(connection) as few:
        tournament_protocol(tournament=Tournament.objects.get(pk=tournament.pk))
    for number in range(5, 9):  # four more players and their matches
        player = Player.objects.create(display_name=f"Player {number}", gender="male")
        entry = Entry.objects.create(tournament=tournament, player=player, seed=number)
        Match.objects.create(
            tournament=tournament,
            round=Round.objects.get(tournament=tournament, number=1),
            home=entry,
            away=None,
            status=Match.Status.FINAL,
            winner=entry,
        )
    with CaptureQueriesContext(connection) as more:
        tournament_protocol(tournament=Tournament.objects.get(pk=tournament.pk))
    assert len(more.captured_queries) == len(few.captured_queries)


def test_a_non_official_protocol_leaves_out_birth_year_region_and_rank():
    protocol = tournament_protocol(tournament=event(official=False))
    assert not protocol.personal
    assert {(line.birth_year, line.region, line.rank, line.norm) for line in protocol.lines} == {
        ("", "", "", "")
    }
    page = Client().get("/t/volga/protocol/").content.decode()
    assert "Moscow" not in page and "1985" not in page


def test_the_page_the_pdf_and_the_spreadsheet_answer():
    tournament = event()
    client = Client()
    page = client.get(f"/t/{tournament.slug}/protocol/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Final protocol" in text and "Player B" in text and "Moscow" in text
    assert "norm met: KMS" in text
    assert '<th class="num">Points</th>' in text
    assert "Ivan Petrov" in text
    tournament_page = client.get(f"/t/{tournament.slug}/").content.decode()
    assert f"/t/{tournament.slug}/protocol/" in tournament_page

    pdf = client.get(f"/t/{tournament.slug}/protocol.pdf")
    assert pdf.status_code == 200
    assert pdf["Content-Type"] == "application/pdf"
    assert pdf.content.startswith(b"%PDF")
    if shutil.which("pdftotext"):
        words = subprocess.run(
            ["pdftotext", "-layout", "-", "-"], input=pdf.content, capture_output=True, check=True
        ).stdout.decode()
        assert "FINAL PROTOCOL" in words
        assert "Player A" in words and "0690012811Л" in words
        assert "Ivan Petrov" in words and "Page 1 of 1" in words

    xlsx = client.get(f"/t/{tournament.slug}/protocol.xlsx")
    assert xlsx.status_code == 200
    assert xlsx["Content-Type"].startswith("application/vnd.openxmlformats")
    book = load_workbook(BytesIO(xlsx.content))
    rows = [row for row in book.worksheets[0].iter_rows(values_only=True)]
    header = rows.index(next(row for row in rows if row[:2] == ("Place", "Player")))
    assert "Points" in rows[header]
    assert [row[:2] for row in rows[header + 1 : header + 5]] == [
        (1, "Player A"), (2, "Player B"), (3, "Player D"), (4, "Player C"),
    ]  # fmt: skip
    rounds = list(book.worksheets[1].iter_rows(values_only=True))
    assert len(rounds) == 1 + len(RESULTS)


def test_it_speaks_the_readers_language():
    tournament = event()
    client = Client()
    page = client.get(f"/t/{tournament.slug}/protocol/", HTTP_ACCEPT_LANGUAGE="ru").content
    text = page.decode()
    assert "Тур 1" in text and "Мужчины" in text and "Длинные нарды" in text
    pdf = client.get(f"/t/{tournament.slug}/protocol.pdf", HTTP_ACCEPT_LANGUAGE="ru")
    assert pdf["Content-Language"] == "ru"
    if shutil.which("pdftotext"):
        words = subprocess.run(
            ["pdftotext", "-", "-"], input=pdf.content, capture_output=True, check=True
        ).stdout.decode()
        assert "Тур 1" in words and "Длинные нарды" in words
    xlsx = client.get(f"/t/{tournament.slug}/protocol.xlsx", HTTP_ACCEPT_LANGUAGE="ru")
    cells = [
        c
        for row in load_workbook(BytesIO(xlsx.content)).worksheets[0].iter_rows(values_only=True)
        for c in row
    ]
    assert "Место" in cells and "Игрок" in cells
    with translation.override("ru"):
        protocol = tournament_protocol(tournament=tournament)
    assert protocol.rounds[0].title == "Тур 1"


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="needs poppler's pdftotext")
def test_the_pdfs_fact_labels_stand_clear_of_their_values_in_russian():
    tournament = event()
    tournament.venue = "Казань, " + "Дворец шахмат и нард на улице Баумана, " * 3 + "зал 2"
    tournament.save(update_fields=["venue"])
    pdf = Client().get(f"/t/{tournament.slug}/protocol.pdf", HTTP_ACCEPT_LANGUAGE="ru").content
    boxes = subprocess.run(
        ["pdftotext", "-bbox", "-l", "1", "-", "-"], input=pdf, capture_output=True, check=True
    ).stdout.decode()
    words = [
        (float(x_min), float(y_min), float(x_max), html.unescape(text))
        for x_min, y_min, x_max, text in re.findall(
            r'xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="[\d.]+">([^<]*)<', boxes
        )
    ]

    def gap_after(label: str) -> float:
        """The space between the label's last word and the next word on its line, in points."""
        end = next(word for word in words if word[3] == label)
        after = [w for w in words if abs(w[1] - end[1]) < 1 and w[0] > end[0]]
        return min(w[0] for w in after) - end[2]

    for label in ("соревнования:", "проведения:", "группа:", "дисциплины:"):
        assert gap_after(label) > 3, label
    # A value too long for its column wraps rather than running into the next one.
    text = " ".join(word[3] for word in words)
    assert "зал 2" in text and text.count("Баумана") == 3


def test_the_public_sees_it_once_the_event_has_started():
    tournament = event(status=Tournament.Status.REGISTRATION)
    client = Client()
    for suffix in ("protocol/", "protocol.pdf", "protocol.xlsx"):
        assert client.get(f"/t/{tournament.slug}/{suffix}").status_code == 404
    client.force_login(tournament.organizer)
    assert client.get(f"/t/{tournament.slug}/protocol/").status_code == 200
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    running = Client().get(f"/t/{tournament.slug}/protocol/")
    assert running.status_code == 200
    assert "Provisional protocol" in running.content.decode()
    assert "The event is not finished: its places are not final." in running.content.decode()
    assert "norm met" not in running.content.decode()  # norms are met at the finish


def test_a_bracket_protocol_has_its_places_and_bracket_rounds():
    organizer = User.objects.create_user("olga", password="x")
    tournament = Tournament.objects.create(
        name="Knockout", slug="ko", variant="short", match_length=3,
        format=Tournament.Format.SINGLE_ELIMINATION, status=Tournament.Status.RUNNING,
        organizer=organizer, official=True,
    )  # fmt: skip
    entries = [
        Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(display_name=f"K{seed}"),
            seed=seed,
        )
        for seed in (1, 2)
    ]
    Match.objects.create(
        tournament=tournament, bracket="main", bracket_round=1, slot="F",
        home=entries[0], away=entries[1], status=Match.Status.FINAL, winner=entries[1],
        score_home=Decimal(1), score_away=Decimal(3),
    )  # fmt: skip
    Match.objects.create(tournament=tournament, bracket="third-place", bracket_round=1, slot="3")
    protocol = tournament_protocol(tournament=tournament)
    assert len(protocol.rounds) == 1  # a match whose sides are not known yet is left out
    assert protocol.rounds[0].title == "Main bracket, round 1"
    assert protocol.rounds[0].results[0].score == "1:3"
    assert [line.name for line in protocol.lines] == ["K1", "K2"] or [
        line.name for line in protocol.lines
    ] == ["K2", "K1"]
    assert Client().get("/t/ko/protocol.pdf").status_code == 200
    # A knockout event's places come from its bracket, not points: the page and the spreadsheet
    # leave the points out, as the PDF does.
    assert not protocol.with_points
    page = Client().get("/t/ko/protocol/").content.decode()
    assert '<th class="num">Points</th>' not in page
    book = load_workbook(BytesIO(Client().get("/t/ko/protocol.xlsx").content))
    rows = list(book.worksheets[0].iter_rows(values_only=True))
    header = next(row for row in rows if row[:2] == ("Place", "Player"))
    assert "Points" not in header and "Club" in header
