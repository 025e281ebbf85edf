"""``Authorization: Token <key>`` for the API, against the stored digests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework import authentication, exceptions

from nardy_site.accounts.models import ApiToken, digest
from nardy_site.joined import Join, Table

#: ``ApiToken.objects.select_related("user").filter(key_digest=…)``, compiled once (``joined``):
#: every request of a phone at the table asks it.
_TOKEN_WITH_USER = Join(
    "SELECT {columns} FROM accounts_apitoken t JOIN auth_user u ON u.id = t.user_id"
    " WHERE t.key_digest = %s",
    (Table(ApiToken, "t"), Table(get_user_model(), "u", into=("t", "user"))),
)


class TokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token: ApiToken | None = _TOKEN_WITH_USER.one([digest(key)])  # type: ignore[assignment]
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        if token.last_used_at is None or (timezone.now() - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return token.user, token
