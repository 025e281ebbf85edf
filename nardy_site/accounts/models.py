"""API tokens: a user may hold several (one per tool or bot) and revoke each."""

from __future__ import annotations

import hashlib
import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

PREFIX_LENGTH = 8


def digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A token for ``Authorization: Token <key>``. Only a digest of the key is stored: the key is
    shown once, when the token is made."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="api_tokens",
    )
    name = models.CharField(_("name"), max_length=100)
    prefix = models.CharField(_("prefix"), max_length=PREFIX_LENGTH, db_index=True)
    key_digest = models.CharField(_("key digest"), max_length=64, unique=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    last_used_at = models.DateTimeField(_("last used at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @classmethod
    def issue(cls, *, user: object, name: str) -> tuple[ApiToken, str]:
        """A new token and its key (the only time the key is known)."""
        key = secrets.token_urlsafe(32)
        token = cls.objects.create(
            user=user, name=name, prefix=key[:PREFIX_LENGTH], key_digest=digest(key)
        )
        return token, key
