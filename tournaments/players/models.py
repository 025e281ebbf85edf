"""A user's claim that an existing Player profile is theirs, until an organizer decides."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class PlayerClaim(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("Waiting for approval")
        APPROVED = "approved", _("Approved")
        DECLINED = "declined", _("Declined")

    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="claims",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.CASCADE,
        related_name="player_claims",
    )
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.PENDING
    )
    created_at = models.DateTimeField(_("claimed at"), auto_now_add=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("player claim")
        verbose_name_plural = _("player claims")
        constraints = [
            models.UniqueConstraint(
                fields=["player", "user"],
                condition=models.Q(state="pending"),
                name="claim_pending_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} claims {self.player} ({self.get_state_display()})"
