"""Names that are code, or odd text: shown as text everywhere, never run, never breaking a file.

Players, their clubs, two tournaments and a dispute note are given HTML, SVG, template and
format-string injections and hard unicode (RTL marks, combining characters, emoji, CJK,
zero-width characters, 100 characters), entered through the pages and services as organizers
and players do. Then every page that shows them is rendered, and:

* the page has exactly the elements and attributes it has with plain names (an HTML parser counts
  every start tag and every attribute name): a name created no ``<script>``, no ``on*``
  attribute, no ``<svg>``, no closing of an element;
* no injection appears raw (``<script>alert``, ``<svg onload``, ``"><`` of a name), no URL is
  ``javascript:``, and the names are there escaped once (``&amp;`` of a name shows as ``&amp;``);
* the board viewer's JSON (``json_script``) holds the names exactly;
* the API's JSON, the standings CSV and the .mat exports give the names back exactly, and a name
  with line breaks and colons adds no line to a .mat file;
* ``%(x)s`` and ``{name}`` in names go through the messages built with ``%`` unchanged.
"""

from __future__ import annotations

import csv
import io
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.rules import ShortNardy
from games.rules.matfile import match_record, read_match, write_match
from games.rules.selfplay import random_match
from tournaments import services
from tournaments.models import Match, Player, Tournament
from tournaments.ratings import ledger
from tournaments.ratings import services as approvals

pytestmark = pytest.mark.django_db

#: Player names (unique, at most 100 characters): 16 fill a single-elimination bracket.
NAMES = {
    "script": "<script>alert(1)</script>",
    "svg onload": '"><svg onload=alert(1)>',
    "title": "</title><script>alert(2)</script>",
    "cdata": "]]><script>alert(3)</script>",
    "svg text": '</text><a href="javascript:alert(4)">x</a>',
    "quote attribute": "' onmouseover='alert(5)' x='",
    "json script": "</script><script>alert(6)</script><!--",
    "template": "{{ 7|add:7 }} {% now 'Y' %} {{ request }}",
    "entities": "&amp; &lt;b&gt; &#60;i&#62; &quot;",
    "format": "%(x)s %s %(player)s {name} {0} {white} $& $1",
    "rtl": "\u202eevil\u202c \u200fRTL\u200e \u2067isolate\u2069",
    "combining": "Z\u0334\u0321\u0348a\u0338\u0345l\u0337g\u0335o\u0336 n\u0303a\u0308",
    "emoji": "\U0001f468\u200d\U0001f469\u200d\U0001f467 \U0001f3b2\U0001f3b2 Nardy",
    "cjk": "長谷川 陽子",
    "zero width": "A\u200bn\u200dn\ufeffa\u2060",
    "lines and colons": 'Mal : 9\n Game 9\n; [Variation "Long Nardy"]\r\nX : 1',
}
LONG_NAME = "Λ" * 100
CLUB = '<img src=x onerror=alert("club")> "><svg/onload=alert(11)>'
TOURNAMENT = (
    '</title><script>alert("cup")</script> "><svg onload=alert(9)> %(x)s {name} {{ x }} ]]>'
)
ROBIN = "Robin <b>bold</b> & 'quotes' \u202eevil\u202c %(n)s {0}"
CSV_NAME = 'CSV <script>alert(12)</script> "q";x,y'
NOTE = '</span><script>alert("note")</script> "><svg onload=alert(10)> %(x)s {name} &amp; ]]>'
#: What must never be in a page as it is.
RAW = ["<script>alert", "<svg onload", "<svg/onload", "<img src=x"]


# --- Reading pages -----------------------------------------------------------------------------


class Elements(HTMLParser):
    """Every start tag and attribute of a page, the text of each element kind, the JSON of
    ``<script type="application/json">`` elements by id, and every URL."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: Counter[str] = Counter()
        self.attributes: Counter[tuple[str, str]] = Counter()
        self.urls: list[str] = []
        self.handlers: list[tuple[str, str]] = []
        self.scripts: list[dict[str, str | None]] = []
        self.json: dict[str, Any] = {}
        self.text: list[str] = []
        self._script: dict[str, str | None] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags[tag] += 1
        for name, value in attrs:
            self.attributes[(tag, name)] += 1
            if name.startswith("on"):
                self.handlers.append((tag, name))
            if name in ("href", "src", "action", "formaction", "xlink:href") and value:
                self.urls.append(value)
        if tag == "script":
            self._script = dict(attrs)
            self.scripts.append(self._script)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag: str) -> None:
        if tag == "script":
            self._script = None

    def handle_data(self, data: str) -> None:
        script = self._script
        if script is not None and script.get("type") == "application/json":
            self.json[script.get("id") or ""] = json.loads(data)
        elif script is None:
            self.text.append(data)


def parse(page: str) -> Elements:
    elements = Elements()
    elements.feed(page)
    elements.close()
    return elements


def assert_safe_html(url: str, page: str, shown: list[str]) -> Elements:
    """The rules every page keeps, whatever its names: no raw injection, no handler attribute,
    no ``javascript:`` URL, only the site's own scripts; ``shown`` names are there, escaped."""
    for raw in RAW:
        assert raw not in page, f"{url}: {raw!r} in the page"
    for name in [*NAMES.values(), LONG_NAME, CLUB, TOURNAMENT, ROBIN, NOTE, CSV_NAME]:
        if any(c in name for c in "<>\"'&"):
            assert name not in page, f"{url}: the raw name {name!r} in the page"
    elements = parse(page)
    assert not elements.handlers, f"{url}: handler attributes {elements.handlers}"
    bad_urls = [u for u in elements.urls if u.strip().lower().startswith(("javascript:", "data:"))]
    assert not bad_urls, f"{url}: {bad_urls}"
    for script in elements.scripts:
        own = (script.get("src") or "").startswith("/static/") or (
            script.get("type") == "application/json" and script.get("id") == "board-frames"
        )
        assert own, f"{url}: a script that is not the site's own: {script}"
    for name in shown:
        assert escape(name) in page, f"{url}: {name!r} is not shown (escaped once)"
    return elements


# --- The stage ---------------------------------------------------------------------------------


@dataclass
class Stage:
    olga: User
    accounts: dict[str, User]
    cup: Tournament  # single elimination, 16 players
    robin: Tournament  # round robin, 4 of them
    played: Match  # recorded game by game from a .mat upload: board viewer, ratings
    disputed: Match  # reported by a player, disputed by the other with NOTE
    open: Match  # no result yet
    players: dict[str, Player] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)

    def client(self, user: User | None = None) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    def user_of(self, player: Player) -> User:
        assert player.user is not None
        return player.user


def pages(stage: Stage) -> list[tuple[User | None, str, list[str]]]:
    """Every HTML page that shows the names: (who looks, URL, names it must show in full)."""
    cup, robin = stage.cup.slug, stage.robin.slug
    everyone = [*list(NAMES.values())[:15], LONG_NAME]
    robin_names = [p.display_name for p in Player.objects.filter(entries__tournament=stage.robin)]
    played, disputed = stage.played, stage.disputed
    home = played.home.player
    return [
        (None, reverse("home"), [TOURNAMENT, ROBIN]),
        (None, reverse("tournament", args=[cup]), [TOURNAMENT, *everyone]),
        (None, reverse("tournament-rounds", args=[cup]), [TOURNAMENT]),
        (None, reverse("tournament-bracket", args=[cup]), [TOURNAMENT]),
        (None, reverse("tournament-print", args=[cup]), [TOURNAMENT]),
        (None, reverse("tournament", args=[robin]), [ROBIN, *robin_names]),
        (None, reverse("tournament-rounds", args=[robin]), [ROBIN, *robin_names]),
        (None, reverse("tournament-standings", args=[robin]), [ROBIN, *robin_names]),
        (None, reverse("tournament-print", args=[robin]), [ROBIN, *robin_names]),
        (None, reverse("match", args=[played.pk]), [played.away.player.display_name]),
        (None, reverse("match", args=[disputed.pk]), [NOTE]),
        (None, reverse("player", args=[home.pk]), [home.display_name, CLUB]),
        (None, reverse("player", args=[played.away.player.pk]), [CLUB]),
        (None, reverse("rating-list", args=["short"]), [home.display_name]),
        (stage.user_of(home), reverse("my-matches"), [TOURNAMENT]),
        (stage.olga, reverse("tournament-players", args=[cup]), [*everyone, CLUB]),
        (stage.olga, reverse("tournament-players", args=[robin]), robin_names),
        (stage.olga, reverse("tournament", args=[cup]), [TOURNAMENT]),
        (stage.olga, reverse("match-report", args=[stage.open.pk]), [TOURNAMENT]),
        (stage.olga, reverse("match-resolve", args=[disputed.pk]), [NOTE]),
        (stage.olga, reverse("match-correct", args=[played.pk]), [TOURNAMENT]),
        (stage.user_of(disputed.home.player), reverse("match", args=[disputed.pk]), [NOTE]),
    ]


def problem(response: Any) -> str:
    """The error a page shows (for a failure message): its alerts and form errors, as text."""
    page = response.content.decode()
    found = re.findall(r'(?s)role="alert".*?</div>|<ul class="errorlist.*?</ul>', page)
    return f"{response.status_code}: " + " | ".join(re.sub(r"<[^>]+>|\s+", " ", f) for f in found)


def followed_messages(response: Any) -> list[str]:
    return [str(message) for message in response.context["messages"]] if response.context else []


def build_stage() -> Stage:
    olga = User.objects.create_user("olga", password="pw-olga-123")
    organizer = Client()
    organizer.force_login(olga)
    cup = services.tournament_create(
        organizer=olga, name=TOURNAMENT, variant="short", format="single-elimination",
        match_length=3,
    )  # fmt: skip
    # Rated, so that the names reach the rating list and the rating history too.
    officer = User.objects.create_user("rita", is_staff=True)
    approvals.ratings_approve(tournament=cup, by=officer)
    names = [*NAMES.values()][:15] + [LONG_NAME]
    # The 16th payload goes to the round robin, with three of the cup's players.
    extra = NAMES["lines and colons"]
    accounts: dict[str, User] = {}
    messages: list[str] = []
    for seed, name in enumerate(names, start=1):
        username = f"player{seed:02d}"
        accounts[name] = User.objects.create_user(username, password="pw-x-123456")
        response = organizer.post(
            reverse("tournament-players", args=[cup.slug]),
            {"action": "add", "display_name": name, "club": CLUB, "country": "LV",
             "username": username, "seed": seed},
            follow=True,
        )  # fmt: skip
        assert response.status_code == 200, problem(response)
        messages += followed_messages(response)
    started = organizer.post(reverse("tournament-step", args=[cup.slug, "start"]))
    assert started.status_code == 302, started.content[:1000]

    robin = services.tournament_create(
        organizer=olga, name=ROBIN, variant="short", format="round-robin", match_length=1
    )
    approvals.ratings_approve(tournament=robin, by=officer)
    robin_players = [Player.objects.get(display_name=name) for name in names[:3]]
    for seed, player in enumerate(robin_players, start=1):
        response = organizer.post(
            reverse("tournament-players", args=[robin.slug]),
            {"action": "add", "player": player.pk, "seed": seed},
            follow=True,
        )
        assert response.status_code == 200
        messages += followed_messages(response)
    # The API takes a name as it is, line breaks too (the pages and services join its lines);
    # its "club" is a home club's slug, so the club as written comes from the forms and the CSV.
    made = organizer.post(
        "/api/v1/players/new",
        {"display_name": extra, "country": "LV"},
        "application/json",
    )
    assert made.status_code == 201, made.content
    assert Player.objects.get(pk=made.json()["id"]).display_name == extra
    response = organizer.post(
        reverse("tournament-players", args=[robin.slug]),
        {"action": "add", "player": made.json()["id"]},
        follow=True,
    )
    assert problem(response) == "200: ", problem(response)
    messages += followed_messages(response)
    quoted, club = CSV_NAME.replace('"', '""'), CLUB.replace('"', '""')
    csv_file = SimpleUploadedFile("players.csv", f'name;club\n"{quoted}";"{club}"\n'.encode())
    response = organizer.post(
        reverse("tournament-players", args=[robin.slug]),
        {"action": "import", "file": csv_file},
        follow=True,
    )
    assert problem(response) == "200: ", problem(response)
    messages += followed_messages(response)
    response = organizer.post(reverse("tournament-step", args=[robin.slug, "start"]))
    assert response.status_code == 302, problem(response)

    round_one = list(cup.matches.filter(bracket_round=1).order_by("pk"))
    played, disputed, open_ = round_one[0], round_one[1], round_one[2]
    # A .mat file with the players' names in it, uploaded through the result form.
    games = random_match(ShortNardy(), 3, random.Random(5))
    text = write_match(
        match_record(
            ShortNardy(),
            (played.home.player.display_name, played.away.player.display_name),
            games,
            length=3,
            headers=[("Event", TOURNAMENT)],
        )
    )
    response = organizer.post(
        reverse("match-report", args=[played.pk]), {"mode": "mat", "mat_text": text}
    )
    assert response.status_code == 302, problem(response)
    ledger.ratings_apply(played.pk)

    reporter = Client()
    reporter.force_login(accounts[disputed.home.player.display_name])
    response = reporter.post(
        reverse("match-report", args=[disputed.pk]),
        {"mode": "score", "score_home": "3", "score_away": "0"},
    )
    assert response.status_code == 302, problem(response)
    opponent = Client()
    opponent.force_login(accounts[disputed.away.player.display_name])
    response = opponent.post(
        reverse("match-answer", args=[disputed.pk]), {"answer": "dispute", "note": NOTE}
    )
    assert response.status_code == 302, problem(response)

    first = robin.matches.filter(home__isnull=False, away__isnull=False).order_by("pk").first()
    assert first is not None
    response = organizer.post(
        reverse("match-report", args=[first.pk]),
        {"mode": "score", "score_home": "1", "score_away": "0"},
    )
    assert response.status_code == 302
    ledger.ratings_apply(first.pk)
    for client in (organizer, reporter, opponent):  # the messages are shown once: now
        client.get(reverse("home"))
    players = {p.display_name: p for p in Player.objects.all()}
    return Stage(
        olga, accounts, cup, robin, Match.objects.get(pk=played.pk),
        Match.objects.get(pk=disputed.pk), open_, players, messages,
    )  # fmt: skip


def make_plain(stage: Stage) -> None:
    """Every name replaced by a plain one of the same line breaks: the pages' own elements."""
    for number, player in enumerate(Player.objects.order_by("pk"), start=1):
        player.display_name = f"Plain {number:02d}" + "\n" * player.display_name.count("\n")
        player.club = "Plain club"
        player.save()
    Tournament.objects.filter(pk=stage.cup.pk).update(name="Plain cup")
    Tournament.objects.filter(pk=stage.robin.pk).update(name="Plain robin")
    Match.objects.filter(pk=stage.disputed.pk).update(dispute_note="Plain note")


@pytest.fixture
def stage(db) -> Stage:
    return build_stage()


# --- The tests ---------------------------------------------------------------------------------


def test_every_page_shows_the_names_as_text_and_only_its_own_elements(stage):
    rendered = {}
    for user, url, shown in pages(stage):
        client = stage.client(user)
        response = client.get(url)
        assert response.status_code == 200, f"{url}: {response.status_code}"
        page = response.content.decode()
        assert_safe_html(url, page, shown)
        rendered[(user.pk if user else None, url)] = parse(page)
    make_plain(stage)
    for user, url, _ in pages(stage):
        page = stage.client(user).get(url).content.decode()
        plain = parse(page)
        named = rendered[(user.pk if user else None, url)]
        assert named.tags == plain.tags, f"{url}: elements {named.tags - plain.tags} were added"
        assert named.attributes == plain.attributes, (
            f"{url}: attributes {named.attributes - plain.attributes} were added"
        )


def test_the_board_viewer_json_holds_the_names_exactly(stage):
    played = stage.played
    page = stage.client().get(reverse("match", args=[played.pk])).content.decode()
    frames = parse(page).json["board-frames"]
    assert frames["names"] == [played.home.player.display_name, played.away.player.display_name]
    # json_script escapes what would end the script element.
    script = re.search(
        r'<script id="board-frames" type="application/json">(.*?)</script>', page, re.S
    )
    assert script is not None
    assert "<" not in script.group(1) and ">" not in script.group(1)


def test_the_api_gives_the_names_back_exactly(stage):
    client = stage.client()
    cup, robin = stage.cup.slug, stage.robin.slug
    everyone = {*list(NAMES.values())[:15], LONG_NAME}
    detail = client.get(f"/api/v1/tournaments/{cup}/")
    assert detail["Content-Type"] == "application/json"
    assert detail.json()["name"] == TOURNAMENT
    entries = client.get(f"/api/v1/tournaments/{cup}/entries/").json()
    rows = entries["results"] if isinstance(entries, dict) else entries
    assert {row["player"]["display_name"] for row in rows} == everyone
    played = client.get(f"/api/v1/matches/{stage.played.pk}/").json()
    assert (played["home"], played["away"]) == (
        stage.played.home.player.display_name,
        stage.played.away.player.display_name,
    )
    players = client.get("/api/v1/players/", {"page_size": 100}).json()
    listed = players["results"] if isinstance(players, dict) else players
    assert {row["display_name"] for row in listed} == {
        *everyone,
        NAMES["lines and colons"],
        CSV_NAME,
    }
    assert {row["club"] for row in listed} == {CLUB, ""}
    for url in (
        f"/api/v1/tournaments/{cup}/matches/",
        f"/api/v1/tournaments/{cup}/rounds/",
        f"/api/v1/tournaments/{robin}/standings/",
        f"/api/v1/matches/{stage.played.pk}/",
        f"/api/v1/matches/{stage.disputed.pk}/",
        f"/api/v1/matches/{stage.played.pk}/games/",
        f"/api/v1/players/{stage.played.home.player.pk}/",
        "/api/v1/tournaments/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"] == "application/json", url
        assert response["X-Content-Type-Options"] == "nosniff", url
        strings = list(_strings(response.json()))
        for name in (*NAMES.values(), TOURNAMENT, NOTE, CLUB):
            assert escape(name) not in strings or escape(name) == name, f"{url}: {name!r} escaped"
    disputed = client.get(f"/api/v1/matches/{stage.disputed.pk}/").json()
    assert NOTE in _strings(disputed)


def _strings(value: Any) -> Any:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def test_the_standings_csv_gives_the_names_back_exactly(stage):
    response = stage.client().get(f"/api/v1/tournaments/{stage.robin.slug}/standings.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode(), newline="")))
    names = {p.display_name for p in Player.objects.filter(entries__tournament=stage.robin)}
    assert rows[0][:2] == ["rank", "player"]
    assert {row[1] for row in rows[1:]} == names
    assert len(rows) == 1 + len(names)  # a line break in a name is quoted, not a new row


def test_the_mat_exports_keep_one_line_per_name_and_read_back(stage):
    client = stage.client()
    played = stage.played
    # A player of the played match gets the name with line breaks and colons.
    player = played.home.player
    player.display_name = NAMES["lines and colons"] + " (cup)"
    player.save()
    for url in (
        f"/api/v1/matches/{played.pk}/record.mat",
        f"/api/v1/tournaments/{stage.cup.slug}/games.mat",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Content-Type"].startswith("text/plain")
        text = response.content.decode()
        record = read_match(text)
        assert [line.strip() for line in text.splitlines() if line.strip().startswith("Game ")] == [
            f"Game {n}" for n in range(1, len(record.games) + 1)
        ]
        # The writer keeps a header on its line: a double quote would end the value.
        assert [v for k, v in record.headers if k == "Event"] == [TOURNAMENT.replace('"', "'")]
        assert isinstance(record.variant, ShortNardy)  # no injected Variation header
        away = played.away.player.display_name
        # A name is kept on its line, and a double quote would end its header: one line, "'".
        one_line = " ".join(player.display_name.splitlines()).replace('"', "'")
        assert record.players == (one_line, away.replace('"', "'"))
        assert len(record.games) == played.games.count()


def test_a_mat_with_hostile_names_and_headers_is_written_so_it_reads_back():
    games = random_match(ShortNardy(), 3, random.Random(9))
    for names in [
        (NAMES["lines and colons"], NAMES["svg onload"]),
        ("x: 3 y", "b"),
        ("A" * 40, "B" * 100),
        ('a"b', 'c"]d'),
        (NAMES["format"], NAMES["rtl"]),
    ]:
        record = match_record(
            ShortNardy(), names, games, length=3,
            headers=[("Event", 'Cup "2"\n; [Variation "Long Nardy"]'), ("Round", "1\r2")],
        )  # fmt: skip
        text = write_match(record)
        again = read_match(text)
        one_line = tuple(" ".join(name.splitlines()).replace('"', "'") for name in names)
        assert again.players == one_line, names
        assert dict(again.headers)["Event"] == "Cup '2' ; [Variation 'Long Nardy']"
        assert isinstance(again.variant, ShortNardy)
        assert [g.actions for g in again.games] == [g.actions for g in read_match(text).games]


def test_format_strings_in_names_go_through_the_messages_unchanged(stage):
    name = NAMES["format"]
    assert f"{name} is entered." in stage.messages
    organizer = stage.client(stage.olga)
    again = organizer.post(
        reverse("tournament-players", args=[stage.robin.slug]),
        {"action": "add", "player": stage.players[name].pk},
    )
    # Entered already, or not offered: refused either way, with the name as it is if named.
    assert again.status_code in (400, 409)
    listed_twice = SimpleUploadedFile("players.csv", f"name\n{name}\n{name}\n".encode())
    refused = organizer.post(
        reverse("tournament-players", args=[stage.cup.slug]),
        {"action": "import", "file": listed_twice},
    )
    page = refused.content.decode()
    assert refused.status_code in (400, 409)
    assert escape(name) in page, "the refusal names the player as written"
