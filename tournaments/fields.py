"""Model fields that more than one model declares the same way."""

from __future__ import annotations

from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


def country_field() -> models.CharField:  # type: ignore[type-arg]
    """An optional ISO 3166-1 alpha-2 country code in capitals (a player's, a club's)."""
    return models.CharField(
        _("country"),
        max_length=2,
        blank=True,
        validators=[
            RegexValidator(
                r"^[A-Z]{2}\Z", _("Enter a two-letter country code in capitals, such as LV.")
            )
        ],
        help_text=_("ISO 3166-1 alpha-2 code, such as LV."),
    )
