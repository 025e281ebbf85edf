"""``Authorization: Token <key>`` (or ``Bearer <key>``) for the API, against the stored digests."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext as _
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
    #: The words read before the key, lower-cased as the header is compared.
    keywords = (b"token", b"bearer")

    def authenticate(self, request: Request) -> tuple[Any, ApiToken] | None:
        # DRF's own, with two keywords instead of one (and its messages, translated by DRF).
        words = authentication.get_authorization_header(request).split()
        if not words or words[0].lower() not in self.keywords:
            return None
        if len(words) == 1:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. No credentials provided.")
            )
        if len(words) > 2:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain spaces.")
            )
        try:
            key = words[1].decode()
        except UnicodeError:
            raise exceptions.AuthenticationFailed(
                _("Invalid token header. Token string should not contain invalid characters.")
            ) from None
        return self.authenticate_credentials(key)

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token: ApiToken | None = _TOKEN_WITH_USER.one([digest(key)])  # type: ignore[assignment]
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        if token.last_used_at is None or (timezone.now() - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return token.user, token
