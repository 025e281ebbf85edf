"""API tokens: a user makes several, sees the key once, uses it, revokes it."""

import pytest
from django.contrib.auth.models import User

from nardy_site.accounts.models import ApiToken

pytestmark = pytest.mark.django_db


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
