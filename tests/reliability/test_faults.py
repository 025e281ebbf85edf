"""Faults, each injected for real: the broker (Redis) stops or hangs while results arrive; a
worker is killed in the middle of a rating replay; the database fails in the middle of recording
a result; the cache's Redis stops or hangs while people browse, log in and report. Results are
never lost nor half-written, requests never crash on the broker or the cache, and the ratings
end up equal to a serial replay by themselves.

The broker tests run workers and Celery beat on a Redis of their own (``conftest.py``); they need
the real broker mode (CI's stage 2) and are skipped in eager mode.
"""

import logging
import os
import random
import re
import signal
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User
from django.db import DatabaseError, connection
from django.test import Client, override_settings
from django.urls import reverse

from games.models import Game
from games.rules import ShortNardy
from games.rules.selfplay import random_match
from games.services import RecordedGame
from tests.conftest import Worker, needs_broker
from tournaments.matches.results import (
    match_result_confirm,
    match_result_correct,
    match_result_dispute,
    match_result_record,
    match_result_resolve,
)
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.ratings import ledger
from tournaments.ratings import selectors as rating_selectors
from tournaments.ratings.models import Rating, RatingChange

WAIT_SECONDS = 45
VISIBILITY_TIMEOUT_SECONDS = 3
NOT_ENQUEUED = "may not be enqueued"
PROGRESS_BOX = 'data-role="ratings-progress"'


# --- A club with rated matches --------------------------------------------------------------------


@dataclass
class Club:
    organizer: User
    tournament: Tournament
    matches: list[Match]

    def home(self, match: Match) -> User:
        return match.home.player.user

    def away(self, match: Match) -> User:
        return match.away.player.user


def make_club(slug: str, players: int, matches: int, seed: int = 1) -> Club:
    """A running Short Nardy tournament (matches to 3) of players with accounts, and ``matches``
    scheduled matches between random pairs of them."""
    organizer = User.objects.create_user(f"{slug}-olga")
    tournament = Tournament.objects.create(
        name=f"Club {slug}",
        slug=slug,
        variant="short",
        status=Tournament.Status.RUNNING,
        organizer=organizer,
        match_length=3,
        rated=True,  # approved by a rating officer (tournaments.ratings.services)
    )
    entries = [
        Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(
                display_name=f"{slug} {n}", user=User.objects.create_user(f"{slug}-{n}")
            ),
        )
        for n in range(players)
    ]
    round_ = Round.objects.create(tournament=tournament, number=1)
    rng = random.Random(seed)
    made = []
    for _ in range(matches):
        home, away = rng.sample(entries, 2)
        made.append(Match.objects.create(tournament=tournament, round=round_, home=home, away=away))
    return Club(organizer, tournament, made)


def ledger_state() -> list[tuple[int, int, float, float]]:
    return sorted(
        (match, player, score, round(after, 9))
        for match, player, score, after in RatingChange.objects.values_list(
            "match_id", "player_id", "score", "after"
        )
    )


def assert_consistent_and_serial() -> None:
    """The ledger has one row per player per rated match, the ``Rating`` cache is its last row
    per player, and a serial replay of all results gives the very same ledger."""
    rows = list(RatingChange.objects.values_list("rating_list_id", "match_id", "player_id"))
    assert len(rows) == len(set(rows)), "duplicate ledger rows"
    last: dict[tuple[int, int], tuple[float, int]] = {}
    for rating_list, player, after in RatingChange.objects.order_by(
        "finished_at", "match_id"
    ).values_list("rating_list_id", "player_id", "after"):
        count = last.get((rating_list, player), (0.0, 0))[1]
        last[(rating_list, player)] = (round(after, 9), count + 1)
    cache = {
        (rating_list, player): (round(rating, 9), matches)
        for rating_list, player, rating, matches in Rating.objects.values_list(
            "rating_list_id", "player_id", "rating", "matches"
        )
    }
    assert cache == last, "the Rating cache differs from the ledger"
    by_workers = ledger_state()
    ledger.ratings_replay(None)  # the serial replay, in this process
    assert ledger_state() == by_workers, "the ledger differs from a serial replay"
    assert ledger.ratings_verify() == {}
    assert ledger.ratings_behind() == {}  # no work left asked for


def settled(condition: Callable[[], bool], *processes: Worker, seconds: float = WAIT_SECONDS):
    """Wait until ``condition()`` holds and the ledger has been still for a second; fail with
    the processes' logs when that takes more than ``seconds`` or one of them exits."""
    deadline = time.monotonic() + seconds
    last, still_since = None, time.monotonic()
    while time.monotonic() < deadline:
        state = ledger_state()
        if state != last:
            last, still_since = state, time.monotonic()
        elif condition() and time.monotonic() - still_since > 1.0:
            return
        for process in processes:
            if process.process.poll() is not None:
                pytest.fail(f"a process exited:\n{process.output()}")
        time.sleep(0.2)
    logs = "\n\n".join(process.output() for process in processes)
    pytest.fail(f"not done within {seconds}s:\n{logs}")


def warnings_of(logger_name: str) -> Iterator[list[logging.LogRecord]]:
    """The warnings a logger logs while the fixture lives (whatever the logging configuration)."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    logger = logging.getLogger(logger_name)
    handler = Keep(logging.WARNING)
    logger.addHandler(handler)
    yield records
    logger.removeHandler(handler)


@pytest.fixture
def enqueue_log() -> Iterator[list[logging.LogRecord]]:
    yield from warnings_of("tournaments.queue")


@pytest.fixture
def cache_log() -> Iterator[list[logging.LogRecord]]:
    yield from warnings_of("nardy_site.cache")


# --- 1. Redis stopped -----------------------------------------------------------------------------


@needs_broker
@pytest.mark.django_db(transaction=True)
def test_results_are_recorded_while_redis_is_down_and_ratings_catch_up(
    own_broker, own_worker, own_beat, enqueue_log
):
    redis = own_broker
    worker = own_worker()
    beat = own_beat(env={"RATINGS_CATCH_UP_SECONDS": "1"})
    club = make_club("outage", players=6, matches=10)
    olga, m = club.organizer, club.matches
    # Before the outage: results rated as usual.
    match_result_record(match=m[0], by=olga, score=(3, 0))
    match_result_record(match=m[1], by=olga, score=(1, 3))
    settled(lambda: RatingChange.objects.count() == 4, worker, beat)

    redis.stop()
    started = time.monotonic()
    # The services: an organizer's final result, a player's report and the opponent's confirmation.
    match_result_record(match=m[2], by=olga, score=(3, 1))
    match_result_record(match=m[3], by=club.home(m[3]), score=(0, 3))
    match_result_confirm(match=m[3], by=club.away(m[3]))
    # The site: report and confirm, an organizer's result, a correction of a rated result.
    site = Client()
    site.force_login(club.home(m[4]))
    reported = site.post(
        reverse("match-report", args=[m[4].pk]),
        {"mode": "score", "score_home": "3", "score_away": "2"},
    )
    site.force_login(club.away(m[4]))
    confirmed = site.post(reverse("match-answer", args=[m[4].pk]), {"answer": "confirm"})
    site.force_login(olga)
    final = site.post(
        reverse("match-report", args=[m[5].pk]),
        {"mode": "score", "score_home": "0", "score_away": "3"},
    )
    corrected = site.post(
        reverse("match-correct", args=[m[0].pk]),
        {"mode": "score", "score_home": "2", "score_away": "3"},
    )
    # The API: an organizer's result, a player's report and the opponent's confirmation.
    api = Client()
    api.force_login(olga)
    by_api = api.post(f"/api/v1/matches/{m[6].pk}/result", {"score": [3, 0]}, "application/json")
    api.force_login(club.home(m[7]))
    api_report = api.post(
        f"/api/v1/matches/{m[7].pk}/result", {"score": [2, 3]}, "application/json"
    )
    api.force_login(club.away(m[7]))
    api_confirm = api.post(f"/api/v1/matches/{m[7].pk}/confirm")
    took = time.monotonic() - started

    assert [r.status_code for r in (reported, confirmed, final, corrected)] == [302] * 4
    assert [r.status_code for r in (by_api, api_report, api_confirm)] == [200] * 3
    assert api_confirm.json()["status"] == "confirmed"
    assert took < 20, f"recording 7 results with Redis down took {took:.1f}s"
    expected = {
        m[0]: ("final", 2, 3),
        m[2]: ("final", 3, 1),
        m[3]: ("confirmed", 0, 3),
        m[4]: ("confirmed", 3, 2),
        m[5]: ("final", 0, 3),
        m[6]: ("final", 3, 0),
        m[7]: ("confirmed", 2, 3),
    }
    for match, (status, home, away) in expected.items():
        match.refresh_from_db()
        assert (match.status, match.score_home, match.score_away) == (status, home, away)
    # Each lost rating task is a warning in the log, and the site says the ratings are pending.
    assert sum(NOT_ENQUEUED in record.getMessage() for record in enqueue_log) == 7
    assert PROGRESS_BOX in site.get(reverse("match", args=[m[2].pk])).content.decode()
    status_url = reverse("tournament-ratings-status", args=[club.tournament.slug])
    assert site.get(status_url).json() == {"pending": 7, "done": False}
    assert RatingChange.objects.count() == 4  # the ledger still shows m[0]'s old result

    # Redis comes back (empty): beat's catch-up rates everything, with no one asking.
    redis.start()
    back = time.monotonic()
    settled(
        lambda: rating_selectors.tournament_ratings_pending(tournament=club.tournament) == 0,
        worker,
        beat,
    )
    caught_up = time.monotonic() - back

    assert RatingChange.objects.count() == 2 * 8
    assert_consistent_and_serial()
    assert site.get(status_url).json() == {"pending": 0, "done": True}
    assert PROGRESS_BOX not in site.get(reverse("match", args=[m[2].pk])).content.decode()
    assert "Sending due task ratings-catch-up" in beat.output()
    assert "tournaments.ratings.tasks.ratings_catch_up" in worker.output()
    print(f"7 results recorded in {took:.2f}s with Redis down; caught up in {caught_up:.1f}s")


@needs_broker
@pytest.mark.django_db(transaction=True)
def test_a_hung_redis_delays_a_result_by_seconds_not_forever(own_broker, enqueue_log):
    redis = own_broker
    club = make_club("hung", players=2, matches=2)
    match_result_record(match=club.matches[0], by=club.organizer, score=(3, 0))  # connects

    redis.pause()
    started = time.monotonic()
    match_result_record(match=club.matches[1], by=club.organizer, score=(3, 1))
    took = time.monotonic() - started
    redis.resume()

    assert took < 15, f"recording a result with Redis hung took {took:.1f}s"
    club.matches[1].refresh_from_db()
    assert club.matches[1].status == Match.Status.FINAL
    assert [NOT_ENQUEUED in record.getMessage() for record in enqueue_log] == [True]
    assert rating_selectors.match_ratings_pending(match=club.matches[1])
    print(f"a result recorded in {took:.2f}s with Redis hung")


# --- 2. A worker killed in the middle of a replay -------------------------------------------------


@needs_broker
@pytest.mark.django_db(transaction=True)
def test_a_worker_killed_mid_replay_leaves_consistent_ratings(own_broker, own_worker, tmp_path):
    mark = tmp_path / "replaying"
    visibility = {"CELERY_VISIBILITY_TIMEOUT": str(VISIBILITY_TIMEOUT_SECONDS)}
    first = own_worker(
        include="tests.support.ratings_slow_replay",
        env={**visibility, "NARDY_SLOW_REPLAY_MARK": str(mark), "NARDY_SLOW_REPLAY_SECONDS": "60"},
    )
    club = make_club("killed", players=8, matches=16, seed=2)
    rng = random.Random(9)
    for match in club.matches:
        score = rng.choice([(3, 0), (3, 2), (1, 3), (0, 3)])
        match_result_record(match=match, by=club.organizer, score=score)
    settled(lambda: RatingChange.objects.count() == 32, first)
    before = ledger_state()

    # A correction of an early result: the worker replays the list from it, and dies halfway.
    corrected = club.matches[1]
    corrected.refresh_from_db()
    home, away = corrected.score_home, corrected.score_away
    corrected = match_result_correct(match=corrected, by=club.organizer, score=(away, home)).match
    deadline = time.monotonic() + WAIT_SECONDS
    while not mark.exists():
        if time.monotonic() > deadline or first.process.poll() is not None:
            pytest.fail(f"the replay did not start:\n{first.output()}")
        time.sleep(0.05)
    assert ledger_state() == before  # the half-written replay is not visible to anyone
    os.killpg(first.pid, signal.SIGKILL)
    first.process.wait()
    killed = time.monotonic()
    assert "rows written, sleeping" in mark.read_text()
    assert ledger_state() == before  # nothing of the killed replay was committed
    assert rating_selectors.match_ratings_pending(match=corrected)

    # Redis hands the unacknowledged message to a worker once its visibility timeout passed.
    time.sleep(max(0.0, killed + VISIBILITY_TIMEOUT_SECONDS + 0.5 - time.monotonic()))
    second = own_worker(env=visibility)
    settled(lambda: not rating_selectors.match_ratings_pending(match=corrected), second)

    # The very message the first worker took (same task id), delivered again.
    (taken,) = re.findall(
        r"Task tournaments\.ratings\.tasks\.ratings_replay\[([\w-]+)\] received", first.output()
    )
    assert f"task tournaments.ratings.tasks.ratings_replay[{taken}] SUCCESS" in second.output()
    assert RatingChange.objects.count() == 32
    assert ledger_state() != before
    assert_consistent_and_serial()


# --- 3. A database error in the middle of recording -----------------------------------------------


@dataclass
class Bracket:
    """Semi-finals S1 (Anna v Boris) and S2 (Carl v Dina), their winners meet in the final F."""

    organizer: User
    players: dict[str, User]
    semi1: Match
    semi2: Match
    final: Match


@pytest.fixture
def bracket() -> Bracket:
    organizer = User.objects.create_user("bracket-olga")
    tournament = Tournament.objects.create(
        name="Knock-out",
        slug="knock-out",
        variant="short",
        format=Tournament.Format.SINGLE_ELIMINATION,
        status=Tournament.Status.RUNNING,
        organizer=organizer,
        match_length=3,
        rated=True,
    )
    players, entries = {}, {}
    for name in ("Anna", "Boris", "Carl", "Dina"):
        players[name] = User.objects.create_user(f"bracket-{name.lower()}")
        entries[name] = Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(display_name=name, user=players[name]),
        )
    semi1 = Match.objects.create(
        tournament=tournament, slot="S1", home=entries["Anna"], away=entries["Boris"]
    )
    semi2 = Match.objects.create(
        tournament=tournament, slot="S2", home=entries["Carl"], away=entries["Dina"]
    )
    final = Match.objects.create(
        tournament=tournament,
        slot="F",
        home_source={"winner_of": "S1"},
        away_source={"winner_of": "S2"},
    )
    return Bracket(organizer, players, semi1, semi2, final)


@pytest.fixture
def sent(monkeypatch) -> list[tuple[str, tuple]]:
    """The tasks handed to the broker after a commit (recorded instead of sent)."""
    import tournaments.queue as queue  # noqa: PLC0415

    handed: list[tuple[str, tuple]] = []
    monkeypatch.setattr(queue, "_publish", lambda task, args: handed.append((task.name, args)))
    return handed


FAULT = "injected fault: the disk is full"


@pytest.fixture
def fault() -> Iterator[Callable[[str, str, str], None]]:
    """``fault(table, event, condition)``: a trigger that makes the database refuse the rows of
    ``table`` that match ``condition`` on ``event`` (INSERT or UPDATE), as a real error raised by
    the database in the middle of a transaction. Removed at teardown."""
    made: list[tuple[str, str]] = []

    def inject(table: str, event: str, condition: str) -> None:
        name = f"nardy_fault_{len(made)}"
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                cursor.execute(
                    "CREATE OR REPLACE FUNCTION nardy_fault() RETURNS trigger LANGUAGE plpgsql "
                    f"AS $$ BEGIN RAISE EXCEPTION '{FAULT}'; END $$"
                )
                cursor.execute(
                    f"CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW "
                    f"WHEN ({condition}) EXECUTE FUNCTION nardy_fault()"
                )
            elif connection.vendor == "sqlite":
                cursor.execute(
                    f"CREATE TRIGGER {name} BEFORE {event} ON {table} FOR EACH ROW "
                    f"WHEN {condition} BEGIN SELECT RAISE(ABORT, '{FAULT}'); END"
                )
            else:
                pytest.skip(f"no trigger recipe for {connection.vendor}")
        made.append((name, table))

    def clear() -> None:
        with connection.cursor() as cursor:
            for name, table in made:
                on = f" ON {table}" if connection.vendor == "postgresql" else ""
                cursor.execute(f"DROP TRIGGER IF EXISTS {name}{on}")
            if connection.vendor == "postgresql":
                cursor.execute("DROP FUNCTION IF EXISTS nardy_fault()")
        made.clear()

    inject.clear = clear  # type: ignore[attr-defined]
    yield inject
    clear()


def games_to(length: int, seed: int) -> list[RecordedGame]:
    return [
        RecordedGame(game.white, game.actions)
        for game in random_match(ShortNardy(), length, random.Random(seed))
    ]


def several_games(seed: int = 1) -> list[RecordedGame]:
    """Legal games that finish a match to 3 in two games or more."""
    for attempt in range(seed, seed + 200):
        games = games_to(3, attempt)
        if len(games) >= 2:
            return games
    raise AssertionError("no self-play match of two games or more")


def state(*matches: Match) -> list[tuple]:
    rows = []
    for match in matches:
        match.refresh_from_db()
        rows.append(
            (
                match.status,
                match.score_home,
                match.score_away,
                match.winner_id,
                match.home_id,
                match.away_id,
                match.decided_at,
                match.dispute_note,
                sorted(Game.objects.filter(match=match).values_list("pk", "number", "winner")),
            )
        )
    return rows


@pytest.mark.django_db(transaction=True)
def test_a_database_error_while_recording_leaves_nothing_half_written(bracket, sent, fault):
    b, olga = bracket, bracket.organizer
    matches = (b.semi1, b.semi2, b.final)
    games = several_games()
    match_table, game_table = Match._meta.db_table, Game._meta.db_table

    # Recording with games: the games and the match row are written, then advancing the winner
    # into the final fails. Everything is rolled back; no rating task is sent.
    fault(match_table, "UPDATE", f"NEW.id = {b.final.pk}")
    before = state(*matches)
    with pytest.raises(DatabaseError, match="injected fault"):
        match_result_record(match=b.semi1, by=olga, games=games)
    assert state(*matches) == before
    assert sent == [] and not RatingChange.objects.exists()

    # Through the site and the API: a server error (500), and the same clean state.
    site = Client(raise_request_exception=False)
    site.force_login(olga)
    page = site.post(
        reverse("match-report", args=[b.semi1.pk]),
        {"mode": "score", "score_home": "3", "score_away": "1"},
    )
    api = site.post(f"/api/v1/matches/{b.semi1.pk}/result", {"score": [3, 1]}, "application/json")
    assert (page.status_code, api.status_code) == (500, 500)
    assert state(*matches) == before and sent == []

    # Resolving a disputed result: the match row is written final, then the advance fails.
    match_result_record(match=b.semi2, by=b.players["Carl"], score=(3, 1))
    match_result_dispute(match=b.semi2, by=b.players["Dina"], note="It was 1-3.")
    before = state(*matches)
    with pytest.raises(DatabaseError, match="injected fault"):
        match_result_resolve(match=b.semi2, by=olga, score=(1, 3))
    assert state(*matches) == before and sent == []

    # The same results go through once the database works again.
    fault.clear()  # type: ignore[attr-defined]
    match_result_record(match=b.semi1, by=olga, games=games)
    match_result_resolve(match=b.semi2, by=olga, score=(1, 3))
    assert sent == [
        ("tournaments.tasks.board_frames_prepare", (b.semi1.pk,)),  # its games, for the board
        ("tournaments.ratings.tasks.ratings_apply", (b.semi1.pk,)),
        ("tournaments.ratings.tasks.ratings_apply", (b.semi2.pk,)),
    ]
    ledger.ratings_apply(b.semi1.pk)
    ledger.ratings_apply(b.semi2.pk)
    rated = ledger_state()

    # Correcting with games: the old games are deleted and the second new game is refused. The
    # old games, the score, the final's players and the ratings stay; no replay is sent.
    fault(game_table, "INSERT", "NEW.number >= 2")
    before = state(*matches)
    sent.clear()
    with pytest.raises(DatabaseError, match="injected fault"):
        match_result_correct(match=b.semi1, by=olga, games=several_games(seed=50))
    assert state(*matches) == before
    assert sent == [] and ledger_state() == rated


# --- 4. The cache's Redis stopped or hung ---------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_pages_logins_and_results_work_while_the_cache_redis_is_down_or_hung(
    own_redis, cache_log, monkeypatch
):
    """The site's cache (CACHE_URL) on a Redis of its own, as in production: shared pages, page
    parts and login limits live there. Stopped or frozen, the site answers every page, logs in
    and records results without it, current and without a 500; back, it is used again."""
    from nardy_site import cache as tolerant  # noqa: PLC0415
    from nardy_site.env import env_cache  # noqa: PLC0415

    # Each phase below must end within one retry period of its first failure, or the retry
    # logs again: 3 s is twice what a phase takes on a slow two-core machine under the suite.
    monkeypatch.setattr(tolerant, "RETRY_SECONDS", 3.0)
    monkeypatch.setattr(tolerant._Outage, "until", 0.0)
    entry = {**env_cache("CACHE_URL", {}, environ={"CACHE_URL": own_redis.url}), "KEY_PREFIX": "t"}
    club = make_club("cached", players=4, matches=0)
    entries = list(club.tournament.entries.order_by("pk"))
    round_ = club.tournament.rounds.get()
    m = [
        Match.objects.create(tournament=club.tournament, round=round_, home=home, away=away)
        for home, away in [(entries[0], entries[1]), (entries[2], entries[3])]
    ]
    olga = club.organizer
    olga.set_password("olga-password")
    olga.save()
    pages = [
        reverse("home"),
        reverse("tournament", args=[club.tournament.slug]),
        reverse("tournament-rounds", args=[club.tournament.slug]),
        reverse("tournament-standings", args=[club.tournament.slug]),
        reverse("match", args=[m[0].pk]),
        reverse("player", args=[m[0].home.player_id]),
        f"/api/v1/tournaments/{club.tournament.slug}/standings/",
    ]

    def stored_keys() -> int:
        with socket.create_connection(("127.0.0.1", own_redis.port), timeout=2) as conn:
            conn.sendall(b"DBSIZE\r\n")
            return int(conn.recv(64).strip().lstrip(b":"))

    def visit() -> list[int]:
        return [Client().get(page).status_code for page in pages]

    def record(match: Match, score: tuple[int, int]) -> int:
        organizer = Client()
        logged_in = organizer.post(
            reverse("login"), {"username": olga.username, "password": "olga-password"}
        )
        assert logged_in.status_code == 302, "the login failed"
        return organizer.post(
            reverse("match-report", args=[match.pk]),
            {"mode": "score", "score_home": str(score[0]), "score_away": str(score[1])},
        ).status_code

    with override_settings(CACHES={"default": entry}):
        assert visit() == [200] * len(pages)
        assert stored_keys() > 0  # the pages were shared through this Redis
        assert not cache_log

        own_redis.stop()
        assert record(m[0], (3, 1)) == 302
        assert visit() == [200] * len(pages)
        assert "3 – 1" in Client().get(pages[4]).content.decode()  # the page as it is now
        assert len(cache_log) == 1 and "unreachable" in cache_log[0].getMessage()

        own_redis.start()
        own_redis.pause()
        time.sleep(tolerant.RETRY_SECONDS)  # the process tries Redis again: it is frozen
        started = time.monotonic()
        assert record(m[1], (0, 3)) == 302
        assert visit() == [200] * len(pages)
        took = time.monotonic() - started
        assert took < 5, f"a login, a result and {len(pages)} pages took {took:.1f}s"
        assert "0 – 3" in Client().get(pages[2]).content.decode()
        assert len(cache_log) == 2

        own_redis.resume()
        time.sleep(tolerant.RETRY_SECONDS)
        assert visit() == [200] * len(pages)
        assert stored_keys() > 0  # used again
        assert len(cache_log) == 2
    for match, score in [(m[0], (3, 1)), (m[1], (0, 3))]:
        match.refresh_from_db()
        assert (match.status, match.score_home, match.score_away) == ("final", *score)


# --- The pieces on their own (also in eager mode, on SQLite) --------------------------------------


@pytest.mark.django_db(transaction=True)
def test_catch_up_rates_what_the_ledger_is_missing_and_nothing_twice(sent, bracket):
    """Rating tasks lost (``sent`` keeps them from running): the catch-up finds each list's
    missing, stale and orphaned rows and replays from the earliest; a second run does nothing."""
    from tournaments.ratings.tasks import ratings_catch_up  # noqa: PLC0415

    club = make_club("lost", players=5, matches=8, seed=3)
    for match in club.matches[:4]:
        match_result_record(match=match, by=club.organizer, score=(3, 1))
        ledger.ratings_apply(match.pk)  # rated as usual
    for match in club.matches[4:]:
        match_result_record(match=match, by=club.organizer, score=(0, 3))  # never rated
    match_result_correct(match=club.matches[1], by=club.organizer, score=(1, 3))  # stale
    b = bracket
    match_result_record(match=b.semi1, by=b.organizer, score=(3, 0))
    match_result_record(match=b.semi2, by=b.organizer, score=(3, 0))
    match_result_record(match=b.final, by=b.organizer, score=(3, 2))
    for match in (b.semi1, b.semi2, b.final):
        ledger.ratings_apply(match.pk)
    match_result_correct(match=b.semi1, by=b.organizer, score=(0, 3))  # the final is reset
    assert RatingChange.objects.filter(match=b.final).exists()  # orphaned rows

    club.matches[1].refresh_from_db()
    assert ledger.ratings_verify() == {
        ("fibs", "short"): (club.matches[1].decided_at, club.matches[1].pk)
    }
    behind = ledger.ratings_behind()  # what the backlog says: the same place
    assert list(behind) == [("fibs", "short")]
    assert behind[("fibs", "short")][1] == club.matches[1].pk  # the earliest wrong match

    assert ratings_catch_up.apply().get() > 0
    assert not RatingChange.objects.filter(match=b.final).exists()
    assert RatingChange.objects.count() == 2 * (8 + 2)
    assert ledger.ratings_behind() == {}
    assert ledger.ratings_verify() == {}
    settled_state = ledger_state()
    assert ratings_catch_up.apply().get() == 0
    assert ledger_state() == settled_state
    assert_consistent_and_serial()


def test_a_broker_that_refuses_connections_costs_a_warning_not_the_caller(enqueue_log):
    """``enqueue``'s publish with nothing listening at the broker's address: it returns at once
    and logs; the caller (the request that committed a result) goes on."""
    from nardy_site.celery import app  # noqa: PLC0415
    from tournaments.queue import _publish  # noqa: PLC0415
    from tournaments.ratings.tasks import ratings_apply  # noqa: PLC0415

    names = ("broker_write_url", "task_always_eager")
    saved = {name: app.conf.get(name) for name in names}
    pools = app._pool, app.amqp._producer_pool
    with socket.socket() as refusing:  # bound, so no one else takes the port; never listening
        refusing.bind(("127.0.0.1", 0))
        port = refusing.getsockname()[1]
        app.conf.update(broker_write_url=f"redis://127.0.0.1:{port}/0", task_always_eager=False)
        app._pool = app.amqp._producer_pool = None
        try:
            started = time.monotonic()
            _publish(ratings_apply, (12345,))
            took = time.monotonic() - started
        finally:
            app.pool.force_close_all()
            app.conf.update(saved)
            app._pool, app.amqp._producer_pool = pools
    assert took < 5
    (record,) = enqueue_log
    assert NOT_ENQUEUED in record.getMessage() and "(12345,)" in record.getMessage()
