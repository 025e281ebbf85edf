import os
import subprocess
import sys
from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import authenticate
from django.contrib.auth.models import User
from django.core.management import call_command
from django.test import override_settings

from games.models import Game
from games.rules import action_from_json, replay_game
from tests.support.demo import unanalysed
from tests.support.shared_rows import rows_for_the_module
from tournaments.clubs.models import Club
from tournaments.demo import (
    DEMO_CLUB_SLUG,
    DEMO_ORGANIZER,
    DEMO_PASSWORD,
    DEMO_PLAYER_USER,
    DEMO_RATING_OFFICER,
    DEMO_SEASON_SLUG,
    DEMO_SIGNUP_SLUG,
    DEMO_TOURNAMENT_SLUG,
)
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.seasons.selectors import season_standings

pytestmark = pytest.mark.django_db


def seed_demo() -> str:
    out = StringIO()
    with unanalysed():
        call_command("seed_demo", stdout=out)
    return out.getvalue()


def seeded_by_a_newcomer() -> str:
    """The seed as ``make run`` makes it on a newcomer's machine (DEBUG on: the demo accounts
    get the printed password); its output."""
    with override_settings(DEBUG=True):
        return seed_demo()


@pytest.fixture(scope="module")
def demo(django_db_setup, django_db_blocker) -> Iterator[str]:
    """The demo seeded once for the module's tests (each in a savepoint of its own); the seed's
    output."""
    yield from rows_for_the_module(django_db_blocker, seeded_by_a_newcomer)


def counts() -> tuple[int, ...]:
    return tuple(model.objects.count() for model in (Player, Tournament, Entry, Match, Game))


def test_it_creates_a_club_with_tournaments_in_every_state(demo):
    output = demo

    assert Player.objects.count() == 16
    by_slug = {t.slug: t for t in Tournament.objects.all()}
    robin = by_slug[DEMO_TOURNAMENT_SLUG]
    assert (robin.variant, robin.format, robin.status) == ("long", "round-robin", "finished")
    assert robin.entries.count() == 8 and robin.matches.filter(away__isnull=False).count() == 28
    swiss = by_slug["demo-short-nardy-swiss"]
    assert (swiss.status, swiss.rounds.count(), swiss.swiss_rounds) == ("running", 3, 5)
    assert swiss.entries.count() == 12
    double = by_slug["demo-double-elimination"]
    assert double.format == "double-elimination" and double.entries.count() == 16
    assert double.matches.filter(status=Match.Status.FINAL).count() == 8
    assert by_slug["demo-consolation-cup"].format == "consolation"
    assert "16 players created" in output
    club = Club.objects.get(slug=DEMO_CLUB_SLUG)
    assert set(club.tournaments.values_list("slug", flat=True)) == set(by_slug)
    season = club.seasons.get(slug=DEMO_SEASON_SLUG)
    evenings = season.tournaments.order_by("slug")
    assert [t.status for t in evenings] == ["finished", "finished", "running"]
    two_stage = evenings[1]  # two groups of three, then a final
    assert two_stage.first_stage == "groups"
    assert sorted(two_stage.stages.values_list("stage", "group", "status")) == [
        (1, "A", "finished"), (1, "B", "finished"), (2, "", "finished"),
    ]  # fmt: skip
    assert evenings[2].matches.filter(status=Match.Status.FINAL).count() == 3  # its 1st round
    table = season_standings(season=season)
    assert len(table.lines) == 6 and table.provisional == [evenings[2]]
    friday = by_slug[DEMO_SIGNUP_SLUG]
    assert (friday.status, friday.self_signup, friday.entries.count()) == ("registration", True, 5)
    assert friday.starts_at.weekday() == 4 and friday.checkin_opens_at() < friday.starts_at


def test_every_demo_game_is_a_full_legal_record(demo):
    robin = Tournament.objects.get(slug=DEMO_TOURNAMENT_SLUG)
    variant = robin.game_variant()
    games = Game.objects.filter(match__tournament=robin)
    assert games.count() >= 28
    for game in games[:10]:
        outcome = replay_game(variant, [action_from_json(a) for a in game.actions]).outcome
        assert (outcome.ending.value, outcome.points) == (game.ending, game.points)


def test_running_it_again_creates_nothing(demo):
    first = counts()

    output = seed_demo()

    assert counts() == first
    assert "0 players created" in output and "none (all were there already)" in output


def test_with_debug_on_the_demo_accounts_log_in_with_the_printed_password(demo):
    output = demo

    for username in (DEMO_ORGANIZER, DEMO_RATING_OFFICER, DEMO_PLAYER_USER):
        assert f"{username}" in output and DEMO_PASSWORD in output
        assert authenticate(username=username, password=DEMO_PASSWORD) is not None, username
    assert Player.objects.get(user__username=DEMO_PLAYER_USER).display_name == "Anna Berzina"


def test_with_debug_off_no_demo_account_has_a_known_password(demo, settings):
    settings.DEBUG = False  # after a newcomer's run (``demo``): known passwords

    output = seed_demo()

    for username in (DEMO_ORGANIZER, DEMO_RATING_OFFICER, DEMO_PLAYER_USER):
        assert not User.objects.get(username=username).has_usable_password(), username
        assert authenticate(username=username, password=DEMO_PASSWORD) is None
    assert DEMO_PASSWORD not in output and "no password" in output


def test_make_runs_first_start_is_quiet(tmp_path):
    """What ``make run`` prints on a fresh clone (migrate, then the seed), in a process of its
    own with eager tasks: the summary, and no task lines or broker warning around it."""
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_BROKER_URL", "LOG_LEVEL")}
    # A newcomer's machine has no GNU Backgammon (CI's has, for its oracle tests): without it the
    # seed analyses only the Long Nardy demo matches, as a fresh clone does.
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DJANGO_DEBUG": "1",
            "DJANGO_SETTINGS_MODULE": "nardy_site.settings", "GNUBG": ""}  # fmt: skip
    root = Path(__file__).resolve().parents[2]
    lines = []
    for args in (["migrate", "--noinput", "--verbosity", "0"],
                 ["seed_demo", "--url", "http://127.0.0.1:8000/"]):  # fmt: skip
        done = subprocess.run([sys.executable, "manage.py", *args], cwd=root, env=env,
                              capture_output=True, text=True, timeout=300, check=True)  # fmt: skip
        lines += (done.stdout + done.stderr).splitlines()
    assert not [line for line in lines if "WARNING" in line or "nardy_site.tasks" in line], lines
    assert len(lines) <= 10, lines
    assert lines[0].startswith("Demo data ready: 16 players created")
    assert "http://127.0.0.1:8000/" in "\n".join(lines) and DEMO_PASSWORD in lines[-1]
