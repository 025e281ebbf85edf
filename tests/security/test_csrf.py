"""CSRF: every form that posts carries the token, every site endpoint that takes a POST refuses
one without it (403, nothing changed), and the API asks it of session-authenticated writes only
(a token in the Authorization header cannot be sent by another site)."""

import re
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from nardy_site.accounts.models import ApiToken
from tournaments.matches.results import match_result_record
from tournaments.models import Match

from .conftest import PROJECT_ROOT, TOURNAMENT_FORM, snapshot

TEMPLATES = PROJECT_ROOT / "templates"
FORM = re.compile(r"<form\b(?P<attributes>[^>]*)>(?P<body>.*?)</form>", re.DOTALL | re.IGNORECASE)
POSTS = re.compile(r"""\bmethod\s*=\s*["']?post\b""", re.IGNORECASE)
PASSWORD = "long-nardy-2024"


def post_forms() -> list[tuple[Path, str]]:
    forms = []
    for template in sorted(TEMPLATES.rglob("*.html")):
        for form in FORM.finditer(template.read_text(encoding="utf-8")):
            if POSTS.search(form["attributes"]):
                forms.append((template.relative_to(PROJECT_ROOT), form["body"]))
    return forms


def test_every_form_that_posts_has_a_csrf_token():
    forms = post_forms()
    missing = [str(path) for path, body in forms if "{% csrf_token %}" not in body]

    assert len(forms) >= 15, "the form finder finds too little: is its pattern broken?"
    assert missing == []


def test_no_template_opens_a_form_the_finder_cannot_close():
    """Every <form> is matched with its </form>, so no posting form escapes the check above."""
    for template in TEMPLATES.rglob("*.html"):
        source = template.read_text(encoding="utf-8")
        opened = len(re.findall(r"<form\b", source, re.IGNORECASE))
        assert opened == len(FORM.findall(source)), template


# --- Every site endpoint that takes a POST --------------------------------------------------------


def site_posts(world) -> list[tuple[str, str, str, dict]]:
    """(what, who, address, body): who may do it, with a body the view's form accepts."""
    cup, match = world.tournament.slug, world.match.pk
    csv = SimpleUploadedFile("players.csv", b"name\nNewcomer\n", content_type="text/csv")
    score = {"mode": "score", "score_home": "3", "score_away": "1"}
    return [
        ("login", "anonymous", reverse("login"), {"username": "olga", "password": PASSWORD}),
        ("signup", "anonymous", reverse("signup"),
         {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD}),
        ("logout", "organizer", reverse("logout"), {}),
        ("set_language", "organizer", reverse("set_language"), {"language": "ru", "next": "/"}),
        ("tournament-create", "organizer", reverse("tournament-create"),
         {**TOURNAMENT_FORM, "name": "Forged Open"}),
        ("tournament-edit", "organizer", reverse("tournament-edit", args=[cup]),
         {**TOURNAMENT_FORM, "name": "Forged"}),
        ("players: add", "organizer", reverse("tournament-players", args=[cup]),
         {"action": "add", "display_name": "Newcomer"}),
        ("players: import", "organizer", reverse("tournament-players", args=[cup]),
         {"action": "import", "file": csv}),
        ("players: withdraw", "organizer", reverse("tournament-players", args=[cup]),
         {"action": "withdraw", "entry": world.entries["another_player"].pk}),
        *[(f"step: {step}", "organizer", reverse("tournament-step", args=[cup, step]), {})
          for step in ("open", "start", "pair", "finish")],
        ("match-report", "player", reverse("match-report", args=[match]), score),
        ("match-answer: confirm", "opponent", reverse("match-answer", args=[match]),
         {"answer": "confirm"}),
        ("match-answer: dispute", "opponent", reverse("match-answer", args=[match]),
         {"answer": "dispute", "note": "It was 1-3"}),
        ("match-resolve", "organizer", reverse("match-resolve", args=[match]),
         {"accept": "reported"}),
        ("match-correct", "organizer", reverse("match-correct", args=[match]), score),
    ]  # fmt: skip


SITE_POSTS = [
    "login", "signup", "logout", "set_language", "tournament-create", "tournament-edit",
    "players: add", "players: import", "players: withdraw", "step: open", "step: start",
    "step: pair", "step: finish", "match-report", "match-answer: confirm",
    "match-answer: dispute", "match-resolve", "match-correct",
]  # fmt: skip


def test_the_list_covers_every_site_post(world):
    assert [what for what, *_ in site_posts(world)] == SITE_POSTS


@pytest.mark.parametrize("what", SITE_POSTS)
def test_a_site_post_without_the_token_is_refused_and_changes_nothing(world, what):
    ((_, who, address, body),) = [post for post in site_posts(world) if post[0] == what]
    if what.startswith("match-answer") or what == "match-resolve":
        match_result_record(match=world.match, by=world.users["player"], score=(3, 1))
    client = Client(enforce_csrf_checks=True)
    if world.users[who] is not None:
        client.force_login(world.users[who])
    before = snapshot()

    response = client.post(address, body)

    assert response.status_code == 403
    assert "CSRF verification failed" in response.content.decode()
    assert snapshot() == before
    signed_in = client.session.get("_auth_user_id")
    assert signed_in == (str(world.users[who].pk) if world.users[who] else None)
    assert "django_language" not in response.cookies


def test_with_the_token_the_same_posts_go_through(world):
    """The refusals above are the token's doing: with it, a login and a report are accepted."""
    world.users["organizer"].set_password(PASSWORD)
    world.users["organizer"].save()
    client = Client(enforce_csrf_checks=True)
    token = client.get(reverse("login")).cookies["csrftoken"].value

    login = client.post(
        reverse("login"),
        {"username": "olga", "password": PASSWORD, "csrfmiddlewaretoken": token},
    )
    token = client.cookies["csrftoken"].value  # a login rotates the token
    report = client.post(
        reverse("match-report", args=[world.match.pk]),
        {"mode": "score", "score_home": "3", "score_away": "1", "csrfmiddlewaretoken": token},
    )

    assert login.status_code == 302 and report.status_code == 302
    world.match.refresh_from_db()
    assert world.match.status == Match.Status.FINAL  # an organizer records a final result


# --- The API -----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_a_session_authenticated_api_write_needs_the_csrf_token(world):
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["player"])
    before = snapshot()

    forged = client.post(
        f"/api/v1/matches/{world.match.pk}/result", {"score": [3, 1]}, "application/json"
    )
    token_made = client.post("/api/v1/tokens/", {"name": "bot"}, "application/json")

    assert forged.status_code == 403 and token_made.status_code == 403
    assert "CSRF" in forged.json()["error"]["message"]
    assert snapshot() == before

    csrf = client.get(reverse("home")).cookies["csrftoken"].value
    accepted = client.post(
        "/api/v1/tokens/", {"name": "bot"}, "application/json", HTTP_X_CSRFTOKEN=csrf
    )
    assert accepted.status_code == 201


@pytest.mark.django_db
def test_a_token_authenticated_api_write_needs_no_csrf_token(world):
    _, key = ApiToken.issue(user=world.users["player"], name="bot")
    client = Client(enforce_csrf_checks=True)

    response = client.post(
        f"/api/v1/matches/{world.match.pk}/result",
        {"score": [3, 1]},
        "application/json",
        HTTP_AUTHORIZATION=f"Token {key}",
    )

    assert response.status_code == 200, response.content
