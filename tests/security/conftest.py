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
from django.utils import timezone

from nardy_site.accounts.models import ApiToken
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)
from tournaments.signups.services import signup_request

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


def entered_in_tallinn(users: dict[str, User | None], players: list[Player]) -> Tournament:
    """The user "entering_organizer", an organizer of Tallinn, enters the players in a Tallinn
    tournament of their own, starts it and records its result: an entry (a match played, a result
    recorded) gives no right in the players' other tournaments."""
    tallinn = Club.objects.get(name="Tallinn")
    member_add(club=tallinn, by=users["other_club_organizer"], username="entering_organizer",
               role=Membership.Role.ORGANIZER)  # fmt: skip
    by = users["entering_organizer"]
    evening = tournament_create(organizer=by, name="Tallinn evening", slug="tallinn-evening",
                                variant="long", club=tallinn, format="round-robin",
                                match_length=1)  # fmt: skip
    evening = tournament_open_registration(tournament=evening, by=by)
    for player in players:
        entry_register(tournament=evening, player=player, by=by)
    tournament_start(tournament=evening, by=by)
    for match in Match.objects.filter(tournament=evening, away__isnull=False):
        match_result_record(match=match, by=by, score=(1, 0))
    return evening


def cup_after_stage_one(users: dict[str, User | None]) -> Tournament:
    """Riga's two-stage event "cup" (two groups of two, one goes on from each) with every
    stage-1 match decided: stage 2 may be built. Its players are A, B, C and D; A is the account
    "player" when there is one. The players A and B also play in a Tallinn tournament of
    "entering_organizer" when there is one."""
    riga = riga_beside_tallinn(users)
    cup = tournament_create(organizer=users["organizer"], name="Cup", slug="cup", variant="long",
                            club=riga, format="single-elimination", first_stage="groups",
                            groups=2, advance=1, match_length=1)  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=users["organizer"])
    for name in ("A", "B", "C", "D"):
        account = users.get("player") if name == "A" else None
        player = Player.objects.create(display_name=name, user=account)
        entry_register(tournament=cup, player=player, by=users["organizer"])
    tournament_start(tournament=cup, by=users["organizer"])
    for match in Match.objects.filter(tournament__parent=cup):
        match_result_record(match=match, by=users["organizer"], score=(1, 0))
    if "entering_organizer" in users:
        entered_in_tallinn(users, list(Player.objects.filter(display_name__in=["A", "B"])))
    return Tournament.objects.get(pk=cup.pk)


def tuesday_with_signups(users: dict[str, User | None]) -> Tournament:
    """Riga's tournament "tuesday" open to sign-ups that wait for approval (and with a check-in
    open now): Mila (the account "mila") and Pavel (the account "player") have signed up; both
    also play in a Tallinn tournament of "entering_organizer" when there is one."""
    riga = riga_beside_tallinn(users)
    tournament = tournament_create(
        organizer=users["organizer"], name="Tuesday", slug="tuesday", variant="long", club=riga,
        self_signup=True, signup_approval=True, starts_at=timezone.now(), checkin_minutes=30,
    )  # fmt: skip
    tournament_open_registration(tournament=tournament, by=users["organizer"])
    for name in ("mila", "nina"):
        User.objects.create_user(name)
    signup_request(tournament=tournament, by=User.objects.get(username="mila"), display_name="Mila")
    signup_request(tournament=tournament, by=users["player"], display_name="Pavel")
    if "entering_organizer" in users:
        entered_in_tallinn(users, list(Player.objects.filter(display_name__in=["Mila", "Pavel"])))
    return Tournament.objects.get(pk=tournament.pk)
