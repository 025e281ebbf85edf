"""``Authorization: Token <key>`` (or ``Bearer <key>``) for the API, against the stored digests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from rest_framework import authentication, exceptions
from rest_framework.request import Request

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
    """The key after ``Token``, the project's own word, or after ``Bearer``, which generated
    clients (openapi-python-client's ``AuthenticatedClient``) send by default: the same keys.
    A 401 still says ``WWW-Authenticate: Token`` (``keyword``)."""

    keyword = "Token"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        # DRF's own reading (and messages, translated by DRF), after either word.
        return super().authenticate(request) or _AfterBearer().authenticate(request)

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token: ApiToken | None = _TOKEN_WITH_USER.one([digest(key)])  # type: ignore[assignment]
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        if token.last_used_at is None or (timezone.now() - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return token.user, token


class _AfterBearer(TokenAuthentication):
    """The same keys read after ``Bearer``."""

    keyword = "Bearer"

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        return authentication.TokenAuthentication.authenticate(self, request)  # type: ignore[no-any-return]
