"""The draft of a match recorded at the table."""

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Draft(models.Model):
    """A match's record while it is entered at the table: its entries (``DraftEntry``, a row
    each), checkpoints of the finished games (``done``), and a revision raised by every write.
    An entry is checked against the game in progress only, replayed from its checkpoint, so
    its cost does not grow with the match.

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
    done = models.JSONField(_("finished games"), default=list, blank=True)
    #: The game on the board after the last entry (``Recording.checkpoint``): the next entry is
    #: checked from it. Empty: rebuilt from the game's entries (after an undo, or a migration).
    current = models.JSONField(_("game in progress"), null=True, blank=True)
    ply = models.PositiveIntegerField(_("ply"), default=0)
    #: The match clocks after the last timed event (``clock.Clock.to_json``), for a tournament
    #: with a time control: the next event goes on from here. Empty: untimed, or not started.
    clock = models.JSONField(_("clocks"), null=True, blank=True)
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

    @property
    def recording(self) -> bool:
        """Being recorded now: it has entries, and they have not become the match's result (the
        match keeps it as its mark, ``Match.recording``: ``drafts.mark_recording``)."""
        return self.ply > 0 and not self.finished


class DraftEntry(models.Model):
    """One entry of a draft (``recording``'s JSON) at its place, ``ply`` (from 0), with the
    server's time it was taken and who made it: the match clocks of the blitz disciplines are
    computed from these times. Rows are only appended, and deleted from the end by an undo. An
    entry synced from a phone that recorded offline keeps the phone's time too."""

    draft = models.ForeignKey(
        Draft, verbose_name=_("draft"), on_delete=models.CASCADE, related_name="entry_rows"
    )
    ply = models.PositiveIntegerField(_("ply"))
    data = models.JSONField(_("entry"))
    made_at = models.DateTimeField(_("made at"), default=timezone.now)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("made by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    #: Each player's seconds left once the entry was taken (``{"home": 812.4, "away": 790.0}``),
    #: in a timed tournament: the record keeps the time of every move.
    clock = models.JSONField(_("clocks"), null=True, blank=True)
    #: The side whose word the entry waits for (1 home, 2 away): a play accepted as made that
    #: the account of its own mover entered. The match's result then waits for that side.
    awaits = models.PositiveSmallIntegerField(
        _("waits for the word of side"), null=True, blank=True
    )
    #: The phone's own time of an entry recorded offline and synced (``services.live_sync``);
    #: ``made_at`` is the time taken. Empty: the entry was posted when it was made.
    phone_at = models.DateTimeField(_("time on the phone"), null=True, blank=True)
    #: The phone's time could not be: before the entry it follows, or after it reached the
    #: server. ``made_at`` is then the nearest time that could be, for the judge to look at.
    clamped = models.BooleanField(_("phone's time clamped"), default=False)

    class Meta:
        verbose_name = _("live entry")
        verbose_name_plural = _("live entries")
        ordering = ["draft", "ply"]
        constraints = [
            models.UniqueConstraint(fields=["draft", "ply"], name="live_entry_ply_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.draft_id} #{self.ply}: {self.data}"


class ClockAction(models.Model):
    """A judge's hand on a recording's clocks: a pause, a resume, or time given to (``seconds``
    above zero) or taken from (below) ``side``, with when and who. Not an entry of the record: an
    undo of a play leaves it."""

    class Kind(models.TextChoices):
        PAUSE = "pause", _("pause")
        RESUME = "resume", _("resume")
        ADJUST = "adjust", _("adjust")

    draft = models.ForeignKey(
        Draft, verbose_name=_("draft"), on_delete=models.CASCADE, related_name="clock_actions"
    )
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices)
    side = models.CharField(_("side"), max_length=4, blank=True)
    seconds = models.IntegerField(_("seconds"), default=0)
    made_at = models.DateTimeField(_("made at"), default=timezone.now)
    made_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("made by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("clock action")
        verbose_name_plural = _("clock actions")
        ordering = ["draft", "made_at", "pk"]

    def __str__(self) -> str:
        return f"{self.draft_id} {self.kind} {self.side} {self.seconds}"


class SetAside(models.Model):
    """Entries a phone recorded offline that the match did not take (another phone's entries
    came first, or the server refused one of them), handed to the judge instead of discarded:
    nothing is merged into the record silently, and nothing the players entered is lost. The
    judge sees them with the match and enters what they decide."""

    match = models.ForeignKey(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="set_aside",
    )
    #: The ply the phone went on from when it lost the network.
    ply = models.PositiveIntegerField(_("from ply"))
    #: The phone's entries as it held them: ``[{"action": …, "at": ISO time}, …]``.
    entries = models.JSONField(_("entries"))
    #: Why the match did not take them: the server's answer the phone showed.
    reason = models.TextField(_("reason"), blank=True)
    handed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("handed over by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    handed_at = models.DateTimeField(_("handed over at"), default=timezone.now)

    class Meta:
        verbose_name = _("entries set aside for the judge")
        verbose_name_plural = _("entries set aside for the judge")
        ordering = ["handed_at", "pk"]

    def __str__(self) -> str:
        return f"{self.match_id}: {len(self.entries)} from ply {self.ply}"
