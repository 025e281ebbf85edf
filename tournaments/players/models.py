"""Who a player is: a user's claim that an existing Player is theirs (until the runners of the
player's home club, or staff, decide), and the audit trail of every such change."""

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
        app_label = "tournaments"  # the tables and migrations of the tournaments app
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


class IdentityAudit(models.Model):
    """One change of who a player is: a claim decided, an account link removed, a merge or a
    rename, or its undoing, a mistaken player deleted. ``before`` keeps both players as they
    were (and, for a merge, what moved; for a rename, the new name; for a deletion, the entries
    removed), so the change can be read later and undone from it."""

    class Action(models.TextChoices):
        CLAIM_APPROVED = "claim-approved", _("claim approved")
        CLAIM_DECLINED = "claim-declined", _("claim declined")
        UNLINKED = "unlinked", _("account link removed")
        MERGED = "merged", _("players merged")
        UNMERGED = "unmerged", _("merge undone")
        RENAMED = "renamed", _("renamed")
        RENAME_UNDONE = "rename-undone", _("rename undone")
        DELETED = "deleted", _("player deleted")

    action = models.CharField(_("action"), max_length=16, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    created_at = models.DateTimeField(_("when"), auto_now_add=True, db_index=True)
    #: The player changed; in a merge, the one kept.
    player = models.ForeignKey(
        "tournaments.Player",
        verbose_name=_("player"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="identity_audit",
    )
    #: The other player of a merge (gone after it; ``before`` keeps it whole).
    other_player_id = models.PositiveIntegerField(_("other player"), null=True, blank=True)
    #: The two players' home clubs then: whose runners may read the row.
    home_club = models.ForeignKey(
        "tournaments.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    other_home_club = models.ForeignKey(
        "tournaments.Club", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    claim = models.ForeignKey(
        PlayerClaim, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    before = models.JSONField(_("before the change"), default=dict)
    note = models.CharField(_("note"), max_length=300, blank=True)
    #: For a merge or a rename: the row of its undoing, once it was undone.
    undone_by = models.OneToOneField(
        "self",
        verbose_name=_("undone by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="undoes",
    )

    class Meta:
        app_label = "tournaments"
        ordering = ["-created_at", "-pk"]
        verbose_name = _("identity change")
        verbose_name_plural = _("identity changes")

    def __str__(self) -> str:
        return f"{self.get_action_display()}: {self.note}"
