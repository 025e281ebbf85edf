"""Shared by the security tests: a fresh cache for every test (the login counters live there), and
the personas of the site's permission matrix, as in tests/api/conftest.py: a running tournament
of Olga's where Anna (home) plays Boris, Carl plays in it too, Otto organizes another tournament,
Sam is staff, Rita is a rating officer of its rating list."""

import os
import subprocess
import sys
from pathlib import Path

from django.contrib.auth.models import User
from django.urls import reverse

from nardy_site.accounts.models import ApiToken
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.models import Entry, Match, Round, Tournament

PROJECT_ROOT = Path(__file__).resolve().parents[2]

PERSONAS = ("anonymous", "player", "opponent", "another_player", "other_organizer", "organizer",
            "staff", "rating_officer")  # fmt: skip

#: Every variable the settings read: unset in the subprocesses unless a test gives it.
OUR_VARIABLES = (
    "DJANGO_SECRET_KEY", "DJANGO_DEBUG", "DJANGO_ALLOWED_HOSTS", "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DJANGO_BEHIND_TLS_PROXY", "DJANGO_TRUSTED_PROXY_COUNT", "DJANGO_SECURE_SSL_REDIRECT",
    "DJANGO_SECURE_COOKIES", "DJANGO_HSTS_SECONDS", "DJANGO_HSTS_INCLUDE_SUBDOMAINS",
    "DJANGO_HSTS_PRELOAD", "CACHE_URL", "LOGIN_FAILURES_PER_USERNAME", "LOGIN_FAILURES_PER_IP",
    "LOGIN_FAILURE_WINDOW_SECONDS", "DATABASE_URL", "DATABASE_CONN_MAX_AGE", "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND", "TIME_ZONE", "API_MAX_UPLOAD_BYTES", "DJANGO_ALLOW_ASYNC_UNSAFE",
)  # fmt: skip


def run_django(args: list[str], **variables: str) -> subprocess.CompletedProcess[str]:
    """``python <args>`` in the project with only the given variables of ours set."""
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env.update(variables, DJANGO_SETTINGS_MODULE="nardy_site.settings")
    return subprocess.run(
        [sys.executable, *args],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


#: A valid tournament form: a Short Nardy round robin, matches to 5 points (as in test_organize).
TOURNAMENT_FORM = {
    "name": "Spring Open", "variant": "short", "format": "round-robin", "rating_system": "fibs",
    "match_kind": "points", "match_size": "5", "draw_counts": "half", "block_check": "step",
    "dave": "on", "dave_progression": "geometric", "crawford": "on", "grand_final": "reset",
    "consolation_kind": "first-round", "points_win": "1", "points_draw": "0.5",
    "points_loss": "0", "points_bye": "1",
}  # fmt: skip


def snapshot() -> dict:
    """Everything a site or API write could change."""
    return {
        "users": sorted(User.objects.values_list("username", flat=True)),
        "tournaments": sorted(
            Tournament.objects.values_list(
                "slug", "name", "status", "format", "match_length", "rated", "rated_by"
            )
        ),
        "rounds": sorted(Round.objects.values_list("tournament__slug", "number")),
        "entries": sorted(
            Entry.objects.values_list("tournament__slug", "player__display_name", "withdrawn")
        ),
        "matches": sorted(
            Match.objects.values_list("pk", "status", "score_home", "score_away", "winner_id")
        ),
        "tokens": ApiToken.objects.count(),
    }


LOGIN = "login"  # expected: a redirect to the login page


def assert_expected(response, expected, persona):
    """A page's answer as the matrix expects: ``LOGIN``, or a status code."""
    if expected == LOGIN:
        assert response.status_code == 302, persona
        assert response["Location"].startswith(reverse("login") + "?next="), persona
    else:
        assert response.status_code == expected, (persona, response.content.decode()[:2000])


def persona_users(personas: tuple[str, ...]) -> dict[str, User | None]:
    """A user named after each persona (None for "anonymous"); the one named "staff" is staff."""
    users: dict[str, User | None] = {
        name: User.objects.create_user(name, is_staff=name == "staff")
        for name in personas
        if name != "anonymous"
    }
    return {**users, "anonymous": None}


def riga_beside_tallinn(users: dict[str, User | None]) -> Club:
    """The club Riga, owned by "organizer" with "club_organizer" as an organizer, beside Tallinn,
    owned by "other_club_organizer" (a role in one club is none in the other)."""
    riga = club_create(by=users["organizer"], name="Riga")
    member_add(club=riga, by=users["organizer"], username="club_organizer",
               role=Membership.Role.ORGANIZER)  # fmt: skip
    club_create(by=users["other_club_organizer"], name="Tallinn")
    return riga
