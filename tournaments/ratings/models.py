"""The rating lists: their ledger of changes, the cached current ratings, the audit trail and the
changes held for review. Written only by ``ledger`` (and ``approvals``), read by the selectors."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Match, Player, Tournament


class RatingList(models.Model):
    """One rating list: a rating system for one discipline of the sport rules (art. 7): blitz
    results never move a classical rating, and the pairs' ratings are apart from the players'.

    Its row is also the lock that keeps the writers of the list's ledger apart.
    """

    system = models.CharField(
        _("rating system"), max_length=10, choices=Tournament.RatingSystem.choices
    )
    discipline = models.CharField(
        _("discipline"), max_length=12, choices=Tournament.Discipline.choices
    )
    #: Raised with every write to the list's ledger: pages that show its ratings key on it.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)
    #: Matches rated since the list's last checkpoint: the next is taken at ``CHECKPOINT_EVERY``.
    since_checkpoint = models.PositiveIntegerField(default=0, editable=False)
    #: Who approves the tournaments rated on this list, besides the site's staff.
    officers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        blank=True,
        related_name="officed_rating_lists",
        verbose_name=_("rating officers"),
    )

    class Meta:
        app_label = "tournaments"  # the tables and migrations of the tournaments app
        ordering = ["discipline", "system"]
        verbose_name = _("rating list")
        verbose_name_plural = _("rating lists")
        constraints = [
            models.UniqueConstraint(
                fields=["system", "discipline"], name="rating_list_one_per_discipline"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_system_display()} · {self.get_discipline_display()}"


class RatingChange(models.Model):
    """The ledger: one row per player per rated match, in the deterministic order of
    ``(finished_at, match_id)``. Current ratings are read from it (``Rating`` caches them)."""

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="changes"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="rating_changes"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rating_changes"
    )
    finished_at = models.DateTimeField(_("finished at"))
    score = models.FloatField(_("score"))  # 1 won, 0 lost, ½ drawn
    before = models.FloatField(_("before"))
    after = models.FloatField(_("after"))
    delta = models.FloatField(_("change"))
    experience_before = models.PositiveIntegerField(_("experience before"))
    experience_after = models.PositiveIntegerField(_("experience after"))

    class Meta:
        app_label = "tournaments"
        ordering = ["rating_list", "finished_at", "match_id", "player_id"]
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "match", "player"], name="rating_change_once_per_match"
            ),
        ]
        indexes = [
            models.Index(
                fields=["rating_list", "finished_at", "match"], name="rating_change_order"
            ),
            models.Index(fields=["player", "rating_list"], name="rating_change_player"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.before:.2f} → {self.after:.2f}"


class RatingCheckpoint(models.Model):
    """Every player's place in a list after the matches up to ``(finished_at, match_id)``
    (``CheckpointStanding``): a replay from a later match starts here, not from the first row
    of the ledger. Taken by the ledger every ``CHECKPOINT_EVERY`` matches; a replay from an
    earlier match deletes it with the ledger rows after it."""

    rating_list = models.ForeignKey(
        RatingList, on_delete=models.CASCADE, related_name="checkpoints"
    )
    finished_at = models.DateTimeField()
    match_id = models.PositiveBigIntegerField()  # the order key's match (it may be deleted later)

    class Meta:
        app_label = "tournaments"
        ordering = ["rating_list", "finished_at", "match_id"]
        constraints = [
            models.UniqueConstraint(
                fields=["rating_list", "finished_at", "match_id"], name="rating_checkpoint_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rating_list} after {self.finished_at:%Y-%m-%d %H:%M} #{self.match_id}"


class CheckpointStanding(models.Model):
    """One player's row of a checkpoint: what the cached ``Rating`` row held at that point."""

    checkpoint = models.ForeignKey(
        RatingCheckpoint, on_delete=models.CASCADE, related_name="standings"
    )
    player_id = models.PositiveBigIntegerField()  # no key: a checkpoint outlives nobody's rows
    rating = models.FloatField()
    experience = models.PositiveIntegerField()
    matches = models.PositiveIntegerField()
    last_delta = models.FloatField()
    last_match_at = models.DateTimeField()

    class Meta:
        app_label = "tournaments"
        indexes = [models.Index(fields=["checkpoint"], name="checkpoint_standing_of")]

    def __str__(self) -> str:
        return f"#{self.player_id}: {self.rating:.2f}"


class RatingBacklog(models.Model):
    """Rating work asked for and not done yet: replay a list from a match (no match: from the
    beginning). Written in the transaction of the change that asks for it, beside the task it
    enqueues; deleted by the ledger as it starts the work. What a lost task leaves here, the
    beat's catch-up (``ledger.ratings_catch_up``) finds with one indexed read."""

    rating_list = models.ForeignKey(RatingList, on_delete=models.CASCADE, related_name="backlog")
    finished_at = models.DateTimeField(null=True)
    match_id = models.PositiveBigIntegerField(null=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        app_label = "tournaments"
        indexes = [
            models.Index(fields=["rating_list", "finished_at", "match_id"], name="rating_backlog")
        ]

    def __str__(self) -> str:
        return f"{self.rating_list} from {self.finished_at} #{self.match_id}"


class Rating(models.Model):
    """A player's current rating in a list: a cache of the ledger's last row, rebuilt with it."""

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="ratings"
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.CASCADE, related_name="ratings"
    )
    rating = models.FloatField(_("rating"))
    experience = models.PositiveIntegerField(_("experience"))
    matches = models.PositiveIntegerField(_("rated matches"))
    last_delta = models.FloatField(_("last change"))
    last_match_at = models.DateTimeField(_("last rated match"))

    class Meta:
        app_label = "tournaments"
        ordering = ["rating_list", "-rating"]
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "player"], name="rating_one_per_list"),
        ]
        indexes = [  # a list's pages in its order, and a rank: how many are rated above
            models.Index(fields=["rating_list", "-rating"], name="rating_list_order"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.rating:.2f}"


class RatingAudit(models.Model):
    """The audit trail of a rating list: every action that changed it, with who and when (a
    result that counted, a correction, an approval and its withdrawal, a deleted rated match).
    Rows are never changed; a tournament, match or user deleted later leaves its rows, unlinked."""

    class Action(models.TextChoices):
        RESULT = "result", _("result counted")
        CORRECTION = "correction", _("result corrected")
        APPROVAL = "approval", _("tournament approved as rated")
        WITHDRAWAL = "withdrawal", _("rating approval withdrawn")
        DELETION = "deletion", _("rated match deleted")
        HOLD = "hold", _("change held for review")
        RELEASE = "release", _("held change confirmed")
        MERGE = "merge", _("players merged")
        UNMERGE = "unmerge", _("merge undone")

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="audit"
    )
    action = models.CharField(_("action"), max_length=12, choices=Action.choices)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.SET_NULL, null=True, blank=True
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.SET_NULL, null=True, blank=True
    )
    #: What the row is about, in words that outlive deleted rows: "Anna – Boris 3–1".
    note = models.CharField(_("note"), max_length=300, blank=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["-at", "-pk"]
        verbose_name = _("rating audit entry")
        verbose_name_plural = _("rating audit trail")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.get_action_display()}: {self.note}"


class RatingHold(models.Model):
    """A rated match whose change is larger than ``RATING_REVIEW_THRESHOLD``: left out of its
    list (later matches go on without it) until a rating officer confirms it."""

    class Status(models.TextChoices):
        PENDING = "pending", _("pending review")
        CONFIRMED = "confirmed", _("confirmed")

    rating_list = models.ForeignKey(
        RatingList, verbose_name=_("rating list"), on_delete=models.CASCADE, related_name="holds"
    )
    match = models.ForeignKey(
        Match, verbose_name=_("match"), on_delete=models.CASCADE, related_name="rating_holds"
    )
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PENDING
    )
    #: The largest change the match would make (when it was last held).
    largest = models.FloatField(_("largest change"))
    created_at = models.DateTimeField(_("held at"), auto_now_add=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["-created_at", "-pk"]
        verbose_name = _("rating hold")
        verbose_name_plural = _("rating holds")
        constraints = [
            models.UniqueConstraint(fields=["rating_list", "match"], name="rating_hold_once"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.largest:.1f} ({self.get_status_display()})"
