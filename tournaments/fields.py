"""Model fields that more than one model declares the same way."""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from tournaments import eligibility


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


def age_field(
    verbose_name: str | Promise, help_text: str | Promise
) -> models.PositiveSmallIntegerField:  # type: ignore[type-arg]
    """An optional age a tournament asks for (its youngest or its oldest), counted as the sport
    rules count it (``tournaments.eligibility``)."""
    return models.PositiveSmallIntegerField(
        verbose_name,
        null=True,
        blank=True,
        validators=[
            MinValueValidator(eligibility.MIN_AGE_LOWEST),
            MaxValueValidator(eligibility.MIN_AGE_HIGHEST),
        ],
        help_text=help_text,
    )
