"""A player's sign-up for a tournament, as the player asked for it: waiting for approval, on the
waiting list, entered (with its Entry), declined or withdrawn."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy


class SignUp(models.Model):
    class State(models.TextChoices):
        PARTNER = "partner", _("Waiting for the partner")
        PENDING = "pending", _("Waiting for approval")
        WAITING = "waiting", _("On the waiting list")
        ENTERED = "entered", pgettext_lazy("sign-up status", "Entered")
        DECLINED = "declined", _("Declined")
        WITHDRAWN = "withdrawn", _("Withdrawn")

    #: A player has at most one sign-up in these states per tournament.
    ACTIVE = (State.PARTNER, State.PENDING, State.WAITING, State.ENTERED)

    tournament = models.ForeignKey(
        "tournaments.Tournament",
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="signups",
    )
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="signups",
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("signed up by"),
        on_delete=models.CASCADE,
        related_name="signups",
    )
    state = models.CharField(_("state"), max_length=10, choices=State.choices)
    #: A pairs tournament: the partner the player signed up with, who confirms (``PARTNER``);
    #: once they do, ``player`` is the pair's record.
    partner = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("partner"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="partner_signups",
    )
    pair_name = models.CharField(_("pair's name"), max_length=100, blank=True)
    entry = models.OneToOneField(
        "tournaments.Entry",
        verbose_name=_("entry"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="signup",
    )
    created_at = models.DateTimeField(_("signed up at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)

    class Meta:
        app_label = "tournaments"  # the tables and migrations of the tournaments app
        ordering = ["tournament", "created_at", "pk"]
        verbose_name = _("sign-up")
        verbose_name_plural = _("sign-ups")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(state__in=["partner", "pending", "waiting", "entered"]),
                name="signup_active_once_per_player",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} for {self.tournament} ({self.get_state_display()})"
