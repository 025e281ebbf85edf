from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.utils.translation import gettext_lazy as _


class Player(models.Model):
    display_name = models.CharField(_("display name"), max_length=100, unique=True)
    club = models.CharField(_("club"), max_length=100, blank=True)
    country = models.CharField(
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
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name


class Tournament(models.Model):
    class Variant(models.TextChoices):
        LONG = "long", _("Long Nardy")
        SHORT = "short", _("Short Nardy")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    variant = models.CharField(_("variant"), max_length=10, choices=Variant.choices)
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    players = models.ManyToManyField(
        Player, through="Entry", related_name="tournaments", verbose_name=_("players")
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name


class Entry(models.Model):
    """A player's registration in a tournament."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="entries",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "seed", "player__display_name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_one_per_player_and_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"
