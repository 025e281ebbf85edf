"""API tokens: a user makes several, sees the key once, uses it, revokes it; a script with no
browser makes one with a username and password; an operator makes one from the shell. A key is
sent after ``Token`` or ``Bearer``."""

from io import StringIO

import pytest
from django.contrib.auth.models import User
from django.core.management import CommandError, call_command
from django.test import override_settings

from nardy_site.accounts.models import ApiToken

pytestmark = pytest.mark.django_db

PASSWORD = "long-nardy-2024"


@pytest.fixture
def anna():
    return User.objects.create_user("anna", password=PASSWORD)


def make(client, body, **extra):
    return client.post("/api/v1/tokens/", body, "application/json", **extra)


def test_a_user_makes_uses_and_revokes_tokens(client):
    anna = User.objects.create_user("anna")
    client.force_login(anna)
    made = client.post("/api/v1/tokens/", {"name": "Telegram bot"}, "application/json")
    assert made.status_code == 201
    key = made.json()["key"]
    assert made.json()["token"]["prefix"] == key[:8]
    client.post("/api/v1/tokens/", {"name": "Scoreboard"}, "application/json")
    listed = client.get("/api/v1/tokens/").json()
    assert [token["name"] for token in listed] == ["Scoreboard", "Telegram bot"]
    assert "key" not in listed[0] and not ApiToken.objects.filter(key_digest=key).exists()
    client.logout()

    with_token = client.get("/api/v1/tokens/", headers={"authorization": f"Token {key}"})
    assert with_token.status_code == 200 and len(with_token.json()) == 2
    assert ApiToken.objects.get(name="Telegram bot").last_used_at is not None

    token_id = made.json()["token"]["id"]
    revoked = client.delete(
        f"/api/v1/tokens/{token_id}/", headers={"authorization": f"Token {key}"}
    )
    assert revoked.status_code == 204
    refused = client.get("/api/v1/tokens/", headers={"authorization": f"Token {key}"})
    assert refused.status_code == 401
    assert refused.json()["error"]["code"] == "authentication_failed"


def test_nobody_revokes_anothers_token(client):
    anna = User.objects.create_user("anna")
    boris = User.objects.create_user("boris")
    token, _ = ApiToken.issue(user=anna, name="mine")
    client.force_login(boris)
    assert client.delete(f"/api/v1/tokens/{token.pk}/").status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()
    assert client.post("/api/v1/tokens/", {}, "application/json").status_code == 400


def test_a_signed_in_token_makes_another_for_its_own_user(client, anna):
    _, key = ApiToken.issue(user=anna, name="first")
    made = make(client, {"name": "second"}, headers={"authorization": f"Bearer {key}"})
    assert made.status_code == 201
    assert ApiToken.objects.get(name="second").user == anna


# --- Without a browser: a username and password -----------------------------------------------


def test_a_script_makes_a_token_with_a_username_and_password_and_uses_it_at_once(client, anna):
    made = make(client, {"username": "anna", "password": PASSWORD, "name": "Scoreboard"})

    assert made.status_code == 201
    body = made.json()
    assert set(body) == {"token", "key"}
    assert body["token"]["name"] == "Scoreboard" and "password" not in body["token"]
    assert ApiToken.objects.get().user == anna
    assert "sessionid" not in made.cookies  # a token, not a login
    for word in ("Token", "Bearer"):
        listed = client.get("/api/v1/tokens/", headers={"authorization": f"{word} {body['key']}"})
        assert listed.status_code == 200, word
        assert [token["name"] for token in listed.json()] == ["Scoreboard"]


@pytest.mark.parametrize(
    "username, password", [("anna", "guess"), ("nobody", PASSWORD), ("ANNA ", "guess")]
)
def test_a_wrong_username_or_password_is_401_saying_not_which(client, anna, username, password):
    refused = make(client, {"username": username, "password": password, "name": "bot"})

    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    assert refused.json() == {
        "error": {
            "code": "authentication_failed",
            "message": "Wrong username or password.",
            "details": {},
        }
    }
    assert not ApiToken.objects.exists()


def test_an_inactive_user_gets_no_token_with_the_right_password(client, anna):
    anna.is_active = False
    anna.save()

    refused = make(client, {"username": "anna", "password": PASSWORD, "name": "bot"})

    assert refused.status_code == 401
    assert refused.json()["error"]["message"] == "Wrong username or password."
    assert not ApiToken.objects.exists()


@pytest.mark.parametrize("given", [{"username": "anna"}, {"password": PASSWORD}])
def test_a_username_without_a_password_or_the_other_way_is_400(client, anna, given):
    refused = make(client, {"name": "bot", **given})

    assert refused.status_code == 400
    missing = "password" if "username" in given else "username"
    assert refused.json()["error"]["details"]["fields"] == {
        missing: ["Give the username and the password together."]
    }
    assert not ApiToken.objects.exists()


def test_a_signed_in_request_giving_a_password_too_is_refused(client, anna):
    boris = User.objects.create_user("boris")
    client.force_login(boris)

    refused = make(client, {"username": "anna", "password": PASSWORD, "name": "bot"})

    assert refused.status_code == 400
    assert "username" in refused.json()["error"]["details"]["fields"]
    assert not ApiToken.objects.exists()


def test_nobody_signed_in_and_no_password_is_401(client):
    refused = make(client, {"name": "bot"})

    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    assert refused.json()["error"]["code"] == "not_authenticated"


@override_settings(LOGIN_FAILURES_PER_USERNAME=3, LOGIN_FAILURE_WINDOW_SECONDS=900)
def test_after_too_many_wrong_passwords_even_the_right_one_is_429_and_makes_nothing(client, anna):
    for _ in range(3):
        assert (
            make(client, {"username": "anna", "password": "guess", "name": "b"}).status_code == 401
        )

    refused = make(client, {"username": "anna", "password": PASSWORD, "name": "bot"})

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 900
    error = refused.json()["error"]
    assert error["code"] == "throttled"
    assert error["message"].startswith("Too many failed logins")
    assert error["details"]["limit"] == "logins"
    assert not ApiToken.objects.exists()


# --- The header: Token or Bearer ----------------------------------------------------------------


@pytest.mark.parametrize("word", ["Token", "Bearer", "bearer", "TOKEN"])
def test_a_key_authenticates_after_either_word(client, anna, word):
    _, key = ApiToken.issue(user=anna, name="bot")
    assert (
        client.get("/api/v1/tokens/", headers={"authorization": f"{word} {key}"}).status_code == 200
    )


@pytest.mark.parametrize("word", ["Token", "Bearer"])
@pytest.mark.parametrize("key", ["not-a-key", ""])
def test_a_wrong_key_after_either_word_is_401_saying_token(client, anna, word, key):
    ApiToken.issue(user=anna, name="bot")

    refused = client.get("/api/v1/tokens/", headers={"authorization": f"{word} {key}".strip()})

    assert refused.status_code == 401
    assert refused["WWW-Authenticate"] == "Token"
    assert refused.json()["error"]["code"] == "authentication_failed"


def test_the_schema_declares_the_token_both_ways(client):
    schema = client.get("/api/schema/?format=json").json()

    schemes = schema["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["type"] == "apiKey"
    assert (schemes["tokenAuth"]["in"], schemes["tokenAuth"]["name"]) == ("header", "Authorization")
    assert "Authorization: Token <key>" in schemes["tokenAuth"]["description"]
    assert {key: schemes["bearerAuth"][key] for key in ("type", "scheme")} == {
        "type": "http",
        "scheme": "bearer",
    }
    listing = schema["paths"]["/api/v1/tokens/"]["get"]["security"]
    assert listing == [{"tokenAuth": []}, {"bearerAuth": []}, {"cookieAuth": []}]
    making = schema["paths"]["/api/v1/tokens/"]["post"]
    assert making["security"] == [{"tokenAuth": []}, {"bearerAuth": []}, {"cookieAuth": []}, {}]
    assert "429" in making["responses"]
    body = schema["components"]["schemas"]["TokenRequest"]
    assert set(body["properties"]) == {"name", "username", "password"}
    assert body["required"] == ["name"]


# --- The operator's command ---------------------------------------------------------------------


def test_the_command_prints_a_key_that_works(client, anna):
    out, err = StringIO(), StringIO()
    call_command("api_token", "anna", "--name", "Scoreboard", stdout=out, stderr=err)

    key, err = out.getvalue().strip(), err.getvalue()
    token = ApiToken.objects.get()
    assert (token.user, token.name, token.prefix) == (anna, "Scoreboard", key[:8])
    assert "not shown again" in err and key not in err
    assert (
        client.get("/api/v1/tokens/", headers={"authorization": f"Token {key}"}).status_code == 200
    )


def test_the_command_refuses_an_unknown_or_inactive_user(anna):
    with pytest.raises(CommandError, match="No user 'boris'"):
        call_command("api_token", "boris", stdout=StringIO(), stderr=StringIO())
    anna.is_active = False
    anna.save()
    with pytest.raises(CommandError, match="not active"):
        call_command("api_token", "anna", stdout=StringIO(), stderr=StringIO())
    assert not ApiToken.objects.exists()
