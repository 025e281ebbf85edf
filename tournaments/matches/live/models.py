"""The draft of a match recorded at the table."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Draft(models.Model):
    """A match's record while it is entered at the table: every entry so far (``recording``'s
    JSON), checkpoints of the finished games, and a revision raised by every write.

    ``ply`` is the number of entries: a write names the ply it expects, so a stale tab is refused
    instead of forking the record. ``revision`` never goes back (an undo lowers the ply), so the
    spectators' pages and the phones key on it. A finished draft became the match's result and
    is not written again unless that entry is taken back, so its ``updated_at`` is when the
    deciding entry was made (its players may take it back for ``LIVE_UNDO_WINDOW_SECONDS`` after
    that, an organizer later: ``services.live_undo``).
    """

    match = models.OneToOneField(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="live_draft",
    )
    entries = models.JSONField(_("entries"), default=list, blank=True)
    done = models.JSONField(_("finished games"), default=list, blank=True)
    ply = models.PositiveIntegerField(_("ply"), default=0)
    revision = models.PositiveIntegerField(_("revision"), default=0)
    finished = models.BooleanField(_("finished"), default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("started by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    updated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("last entry by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("live draft")
        verbose_name_plural = _("live drafts")

    def __str__(self) -> str:
        return f"{self.match}: {self.ply} entries"
