"""``Authorization: Token <key>`` for the API, against the stored digests."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import authentication, exceptions

from nardy_site.accounts.models import ApiToken, digest


class TokenAuthentication(authentication.TokenAuthentication):
    keyword = "Token"

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(key_digest=digest(key)).first()
        if token is None or not token.user.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked token.")
        if token.last_used_at is None or (timezone.now() - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=timezone.now())
        return token.user, token
