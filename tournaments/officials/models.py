"""The judges of an official event, and the disqualifications staff record."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament


class Judge(models.Model):
    """A member of an official event's panel: its chief judge, its secretary or a judge. The
    panel decides disputes, forfeits, clock actions and accepted moves; the chief closes the
    event. Nobody on the panel may play in it."""

    class Role(models.TextChoices):
        CHIEF = "chief", _("Chief judge")
        SECRETARY = "secretary", _("Chief secretary")
        JUDGE = "judge", _("Judge")

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="judges"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="judged_tournaments",
    )
    role = models.CharField(_("role"), max_length=10, choices=Role.choices)
    added_at = models.DateTimeField(_("added at"), auto_now_add=True)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("added by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        app_label = "tournaments"
        ordering = ["tournament", "role", "added_at"]
        verbose_name = _("judge")
        verbose_name_plural = _("judges")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="judge_once_a_panel"),
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(role="chief"),
                name="judge_one_chief_a_panel",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}) in {self.tournament}"


class Sanction(models.Model):
    """A disqualification recorded by staff: the player may not be entered in an official event
    until its end date (None: without end)."""

    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="sanctions"
    )
    reason = models.TextField(_("reason"))
    starts_on = models.DateField(_("from"))
    ends_on = models.DateField(_("until"), null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("recorded by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    recorded_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["-starts_on", "pk"]
        verbose_name = _("disqualification")
        verbose_name_plural = _("disqualifications")

    def __str__(self) -> str:
        return f"{self.player}: {self.starts_on}–{self.ends_on or '…'}"
