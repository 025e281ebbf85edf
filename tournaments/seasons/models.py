"""A season: a club's league over its events, and the rule that turns each event into points."""

from decimal import Decimal

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.seasons.table import DEFAULT_PLACE_POINTS, MAX_PLACE_POINTS, Rule


def validate_place_points(value: object) -> None:
    """A list of at most 64 points, non-negative and never rising: 25, 18, 15 …"""
    if not isinstance(value, list) or not value or len(value) > MAX_PLACE_POINTS:
        raise ValidationError(
            _("Give between 1 and %(most)s points, one per place."),
            params={"most": MAX_PLACE_POINTS},
        )
    for item in value:
        if isinstance(item, bool) or not isinstance(item, int | float) or not 0 <= item <= 1000:
            raise ValidationError(_("Each place's points are a number from 0 to 1000."))
    if any(later > earlier for earlier, later in zip(value, value[1:], strict=False)):
        raise ValidationError(_("A lower place cannot earn more points than a higher one."))


def default_place_points() -> list[int]:
    return list(DEFAULT_PLACE_POINTS)


class Season(models.Model):
    class Scoring(models.TextChoices):
        PLACE = "place", _("Points by final place")
        WINS = "wins", _("Points by match wins")

    club = models.ForeignKey(
        "tournaments.Club", verbose_name=_("club"), on_delete=models.CASCADE, related_name="seasons"
    )
    name = models.CharField(_("name"), max_length=150)
    slug = models.SlugField(_("slug"), max_length=150)
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    ends_on = models.DateField(_("ends on"), null=True, blank=True)
    scoring = models.CharField(
        _("points"), max_length=10, choices=Scoring.choices, default=Scoring.PLACE
    )
    place_points = models.JSONField(
        _("points by place"),
        default=default_place_points,
        validators=[validate_place_points],
        help_text=_("Points for 1st, 2nd, 3rd … place; places further down earn nothing."),
    )
    win_points = models.DecimalField(
        _("points for a match won"),
        max_digits=5,
        decimal_places=1,
        default=Decimal(1),
        validators=[MinValueValidator(Decimal(0)), MaxValueValidator(Decimal(100))],
    )
    best_of = models.PositiveSmallIntegerField(
        _("events that count"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(500)],
        help_text=_("Only each player's best N events count; empty: all of them."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Raised by every write to the season (its rule, its events): its table is cached by it and
    #: by its events' revisions.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)

    class Meta:
        app_label = "tournaments"  # the tables and migrations of the tournaments app
        ordering = ["club", "-starts_on", "name"]
        verbose_name = _("season")
        verbose_name_plural = _("seasons")
        constraints = [
            models.UniqueConstraint(fields=["club", "slug"], name="season_slug_unique_in_club"),
        ]

    def __str__(self) -> str:
        return f"{self.club}: {self.name}"

    def rule(self) -> Rule:
        """The season's rule as the pure table takes it."""
        return Rule(
            scoring="wins" if self.scoring == self.Scoring.WINS else "place",
            place_points=tuple(self.place_points),
            win_points=self.win_points,
            best_of=self.best_of,
        )
