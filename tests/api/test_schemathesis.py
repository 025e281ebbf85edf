"""Schemathesis over the live OpenAPI schema, in process (WSGI), on pytest-django's test database.

Every operation of ``/api/schema/`` gets property-based requests, schema-valid and not:

* as an anonymous visitor: the reads with schemathesis' coverage cases (every boundary and wrong
  type of each parameter), the writes, which must all be 401s;
* as a staff user with an API token: the writes with the coverage cases, so that the services
  run on every kind of body (staff may do everything);
* as the organizer signed in by session, with the CSRF token a browser sends: everything, whose
  writes on another organizer's tournament are 403s.

Each answer must not be a server error, must have a documented status and content type, must
match the documented schema, and every error must be in the one error shape. Path and query
parameters are mostly the seeded rows' keys (a running round robin with recorded, reported and
scheduled matches, another organizer's Swiss, a finished tournament with ratings, one in
registration, a draft), so that the requests reach the views' work and not only their 404s.
"""

from __future__ import annotations

import os
import random
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

try:
    import schemathesis
except ImportError:  # pragma: no cover - the dev extra has it; CI must not skip silently
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        raise
    pytest.skip("schemathesis is not installed: pip install -e '.[dev]'", allow_module_level=True)

from django.contrib.auth.models import User
from django.core.signals import request_finished, request_started
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

from games.rules import LongNardy, ShortNardy
from games.rules.position import Position
from games.rules.selfplay import random_turns
from games.services import RecordedGame
from nardy_site.accounts.models import ApiToken
from nardy_site.wsgi import application
from tests.support.shared_rows import rows_for_the_module
from tournaments import services
from tournaments.clubs.services import club_create
from tournaments.matches import results
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.seasons.services import season_create, season_event_set

SCHEMA_PATH = "/api/schema/?format=json"
CSRF_TOKEN = "schemathesisschemathesisschemath"  # 32 letters: a valid unmasked CSRF secret
NOT_ROUTED = {"error": {"code": "not_found", "message": "No API endpoint here.", "details": {}}}
CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]
EXAMPLES = settings(
    max_examples=20,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=list(HealthCheck),
)
#: Only the generated examples: without schemathesis' coverage cases (hypothesis' explicit
#: examples: every boundary and wrong type of each field, hundreds for a big body).
GENERATED_ONLY = settings(EXAMPLES, phases=[Phase.generate, Phase.target, Phase.shrink])
#: For requests refused before their body is read (an anonymous write): a few bodies prove as
#: much as many.
REFUSED_UNREAD = settings(GENERATED_ONLY, max_examples=5)


@dataclass
class Seeded:
    """What the fixture made: the users, and the seeded rows' keys as path parameters."""

    staff: User
    organizer: User
    keys: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def path_parameters(self, path: str) -> list[dict[str, Any]]:
        """Consistent path parameters of seeded rows for an operation's path, if it has any."""
        if path.startswith("/api/v1/clubs/"):
            return self.club_parameters(path)
        if "{slug}" in path:
            return self.keys["entry" if "{id}" in path else "slug"]
        if "{position_id}" in path:
            return self.keys["position"]
        if path.startswith("/api/v1/matches/"):
            return self.keys["match"]
        if path.startswith("/api/v1/players/"):
            return self.keys["rating_history" if "{system}" in path else "player"]
        if path.startswith("/api/v1/ratings/"):
            return self.keys["rating_list"]
        return []

    def club_parameters(self, path: str) -> list[dict[str, Any]]:
        (club,) = self.keys["club"]
        for name in ("user_id", "tournament", "system"):
            if "{" + name + "}" in path:
                return self.keys[f"club_{name}"]
        return [{"slug": club["slug"], "season": club["season"]} if "{season}" in path else
                {"slug": club["slug"]}]  # fmt: skip


def recorded_games(length: int, seed: int) -> list[RecordedGame]:
    """Self-play Short Nardy games until a side has ``length`` points."""
    rng = random.Random(seed)
    games: list[RecordedGame] = []
    points = [0, 0]
    while max(points) < length:
        white = 1 + len(games) % 2
        turns = list(random_turns(ShortNardy(), rng))
        winner = white if len(turns) % 2 else 3 - white
        points[winner - 1] += 1 if turns[-1][0].opponent[0] else 2
        games.append(RecordedGame(white, tuple(turn for _, turn in turns)))
    return games


def entered(organizer: User, players: list[Player], **settings: Any) -> Tournament:
    tournament = services.tournament_create(organizer=organizer, **settings)
    tournament = services.tournament_open_registration(tournament=tournament, by=organizer)
    for seed, player in enumerate(players, start=1):
        services.entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    return tournament


@pytest.fixture(scope="module")
def seeded(django_db_setup, django_db_blocker) -> Iterator[Seeded]:
    """A small club, made once for the module's cases (each runs in a savepoint of its own)."""
    yield from rows_for_the_module(django_db_blocker, seeded_club)


def seeded_club() -> Seeded:
    """A small club, made through the services (far quicker than the demo's 2.5 s)."""
    olga = User.objects.create_user("olga")
    sam = User.objects.create_user("sam", is_staff=True)
    players = [
        Player.objects.create(display_name=name, club="Club", country=country)
        for name, country in [("Anna", "LV"), ("Boris", "RU"), ("Carl", "GE"), ("Dina", "AZ"),
                              ("Emil", "AM"), ("Fatma", "AZ")]
    ]  # fmt: skip

    cup = services.tournament_start(
        tournament=entered(olga, players[:4], name="Cup", slug="cup", variant="short",
                           match_length=1),
        by=olga,
    )  # fmt: skip
    matches = list(cup.matches.order_by("pk"))
    results.match_result_record(match=matches[0], by=olga, games=recorded_games(1, seed=1))
    results.match_result_record(match=matches[1], by=olga, score=(1, 0))
    # Anna reports one of hers: a result to confirm, dispute or resolve.
    anna = User.objects.create_user("anna")
    Player.objects.filter(pk=players[0].pk).update(user=anna)
    hers = cup.matches.filter(status=Match.Status.SCHEDULED, home__player=players[0]).first()
    hers = hers or cup.matches.get(status=Match.Status.SCHEDULED, away__player=players[0])
    results.match_result_record(match=hers, by=anna, score=(1, 0))
    services.tournament_start(
        tournament=entered(sam, players[2:6], name="Swiss", slug="swiss", variant="short",
                           format="swiss", swiss_rounds=3, match_length=1),
        by=sam,
    )  # fmt: skip
    final = services.tournament_start(
        tournament=entered(olga, players[:2], name="Final", slug="final", variant="short",
                           match_length=1),
        by=olga,
    )  # fmt: skip
    for match in final.matches.all():
        results.match_result_record(match=match, by=olga, score=(0, 1))
    services.tournament_finish(tournament=final, by=olga)
    riga = club_create(by=olga, name="Riga", country="LV")
    autumn = season_create(club=riga, by=olga, name="Autumn", best_of=2)
    season_event_set(tournament=final, season=autumn, by=olga)
    entered(
        olga, players[4:], name="Open", slug="open", variant="long", self_signup=True, capacity=3
    )
    services.tournament_create(organizer=olga, name="Draft", slug="draft", variant="long")

    systems = [system for system, _ in Tournament.RatingSystem.choices]
    lists = [{"system": system, "variant": v} for system in systems for v in ("short", "long")]
    return Seeded(
        staff=sam,
        organizer=olga,
        keys={
            "slug": [{"slug": slug} for slug in Tournament.objects.values_list("slug", flat=True)],
            "entry": [
                {"slug": e.tournament.slug, "id": e.pk}
                for e in Entry.objects.select_related("tournament")
            ],  # fmt: skip
            "match": [{"id": pk} for pk in Match.objects.values_list("pk", flat=True)],
            "player": [{"id": player.pk} for player in players],
            "rating_list": lists,
            "rating_history": [
                {"id": player.pk, **rating_list} for player in players[:2] for rating_list in lists
            ],  # fmt: skip
            "club": [{"slug": riga.slug, "season": autumn.slug}],
            "club_user_id": [{"slug": riga.slug, "user_id": olga.pk}],
            "club_tournament": [{"slug": riga.slug, "season": autumn.slug, "tournament": "final"}],
            "club_system": [{"slug": riga.slug, **rating_list} for rating_list in lists],
            "position": [
                {"position_id": Position.initial(variant).position_id()}
                for variant in (ShortNardy(), LongNardy())
            ],  # fmt: skip
        },
    )


@contextmanager
def wsgi_in_test_transaction() -> Iterator[None]:
    """Django closes the database connection around each WSGI request, which would end the
    test's transaction; its test client turns that off the same way."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


#: The seeded rows of the running test (the hooks below are the schema's, not the test's, and
#: primary keys differ from test to test on PostgreSQL).
SEEDED: list[Seeded] = []

# The live schema, loaded once when the module is collected (it needs no database).
with wsgi_in_test_transaction():
    schema = schemathesis.openapi.from_wsgi(SCHEMA_PATH, application)


def mostly(known: list[Any], generated: Any) -> Any:
    """Three times in four one of the known values, else the generated one."""
    if not known:
        return st.just(generated)
    return st.sampled_from([True, True, True, False]).flatmap(
        lambda pick: st.sampled_from(known) if pick else st.just(generated)
    )


@schema.hook
def flatmap_path_parameters(context: Any, path_parameters: dict[str, Any]) -> Any:
    """Mostly the keys of seeded rows, so that requests reach the views' work, not their 404s."""
    known = SEEDED[0].path_parameters(context.operation.path) if SEEDED and path_parameters else []
    return mostly([{**path_parameters, **keys} for keys in known], path_parameters)


@schema.hook
def flatmap_query(context: Any, query: dict[str, Any]) -> Any:
    """Mostly no page (the seeded lists have one page: any other is a 404), and sometimes a
    roll that the legal plays endpoint reads."""
    query = query or {}
    known = [{k: v for k, v in query.items() if k != "page"}] if "page" in query else []
    if "dice" in query:
        known = [{"variant": variant, "dice": dice}
                 for variant in ("short", "long") for dice in ("6,4", "3,3", "2-1")]  # fmt: skip
    return mostly(known, query)


@schema.hook
def flatmap_body(context: Any, body: Any) -> Any:
    """Half the time a body that the action takes (a score, a note, a seeded player to enter), so
    that the services get past their checks; JSON and form bodies only (a .mat text stays)."""
    path = context.operation.path
    known: list[Any] = []
    if isinstance(body, dict) and SEEDED:
        if path.endswith(("/result", "/resolve", "/correct")):
            known = [{"score": [1, 0]}, {"score": [0, 1]}]
        elif path.endswith("/dispute"):
            known = [{"note": "The score was 0-1."}]
        elif path.endswith("/entries/new"):
            known = [{"player_id": keys["id"]} for keys in SEEDED[0].keys["player"]]
    return st.sampled_from([known, [body]]).flatmap(st.sampled_from) if known else st.just(body)


@pytest.fixture
def api(seeded: Seeded, db: None) -> Iterator[Seeded]:
    SEEDED[:] = [seeded]
    with wsgi_in_test_transaction():
        yield seeded
    SEEDED.clear()


@pytest.fixture
def staff_headers(api: Seeded) -> dict[str, str]:
    """The staff user's API token."""
    _, key = ApiToken.issue(user=api.staff, name="schemathesis")
    return {"Authorization": f"Token {key}"}


@pytest.fixture
def organizer_session(api: Seeded) -> dict[str, Any]:
    """The organizer's session cookie and a CSRF token, as a signed-in browser sends them (and
    no token: an empty ``Authorization`` replaces whatever schemathesis would send)."""
    client = Client()
    client.force_login(api.organizer)
    return {
        "cookies": {"sessionid": client.cookies["sessionid"].value, "csrftoken": CSRF_TOKEN},
        "headers": {"X-CSRFToken": CSRF_TOKEN, "Authorization": ""},
    }


def body_coverage_on_a_seeded_row(case: Any) -> None:
    """Put the coverage cases of a body on a seeded row: with the made-up key they have, they
    would all be 404s before the body is read."""
    meta = case.meta
    if not (SEEDED and case.path_parameters and meta and meta.phase.name == "coverage"):
        return
    if meta.phase.data.parameter_location != "body":
        return
    known = SEEDED[0].path_parameters(case.operation.path)
    if known:
        chosen = known[zlib.crc32(meta.phase.data.description.encode()) % len(known)]
        case.path_parameters = {**case.path_parameters, **chosen}


def documented(case: Any) -> bool:
    """Not one of the requests with a method the path does not have (schemathesis sends some)."""
    return case.method.upper() == case.operation.method.upper()


def assert_error_shape(case: Any, response: Any) -> None:
    if documented(case) and response.status_code >= 400:
        error = response.json()["error"]
        assert isinstance(error["code"], str)
        assert isinstance(error["message"], str)
        assert isinstance(error["details"], dict)


@schema.include(method="GET").parametrize()
@EXAMPLES
def test_reads_anonymous(case: Any, api: Seeded) -> None:
    response = case.call_and_validate(checks=CHECKS)
    assert_error_shape(case, response)


@schema.exclude(method="GET").parametrize()
@REFUSED_UNREAD  # refused before the body is read: its coverage cases would add nothing
def test_writes_anonymous(case: Any, api: Seeded) -> None:
    response = case.call_and_validate(checks=CHECKS)
    assert_error_shape(case, response)
    if documented(case) and case.path == "/api/v1/tokens/":
        # Open to anybody giving a username and password (none right here): its body is read.
        assert response.status_code in (400, 401, 429), (case.path, response.status_code)
    elif documented(case) and not case.path.startswith(("/api/v1/records/", "/api/v1/positions/")):
        # Refused before anything is read, unless the path is no endpoint at all (/matches/x/).
        unrouted = response.status_code == 404 and response.json() == NOT_ROUTED
        assert response.status_code == 401 or unrouted, (case.path, response.status_code)


@schema.exclude(method="GET").parametrize()
@EXAMPLES  # the reads' coverage cases are the anonymous pass's: only drafts differ
def test_writes_as_staff_with_a_token(
    case: Any, api: Seeded, staff_headers: dict[str, str]
) -> None:
    body_coverage_on_a_seeded_row(case)
    response = case.call_and_validate(headers=staff_headers, checks=CHECKS)
    assert_error_shape(case, response)
    assert response.status_code != 401, response.json()


@schema.parametrize()
@GENERATED_ONLY  # the coverage cases are the other passes'
def test_api_as_organizer_by_session(
    case: Any, api: Seeded, organizer_session: dict[str, Any]
) -> None:
    response = case.call_and_validate(checks=CHECKS, **organizer_session)
    assert_error_shape(case, response)
    assert response.status_code != 401, response.json()
    if response.status_code == 403:  # never for a missing CSRF token: only the services refuse
        assert response.json()["error"]["code"] == "not_allowed", response.json()
