"""A match's analysis: its state while the engine works (gnubg for Short Nardy, the project's
own for Long Nardy), each side's figures for every game and for the whole match, and the plays
that lost equity.

An analysis is keyed by what is analysed: ``record``, the digest of the .mat text (written
without names or event headers, so the same games anywhere have the same digest), ``plies`` and
``engine``. A match's row is marked queued in the transaction that records its result, and a
task is enqueued only when that key changes: a correction to the same record queues nothing."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from games.analysis.runner import Figures


class MatchAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued for analysis")
        RUNNING = "running", _("Analysing")
        DONE = "done", _("Analysed")
        FAILED = "failed", _("Analysis failed")
        #: Done, for a result taken back since: the same record decided again has it back
        #: without a second run; never shown meanwhile.
        KEPT = "kept", _("Kept for its record")

    match = models.OneToOneField(
        "tournaments.Match",
        verbose_name=_("match"),
        on_delete=models.CASCADE,
        related_name="analysis",
    )
    status = models.CharField(_("status"), max_length=10, choices=Status.choices)
    plies = models.PositiveSmallIntegerField(_("plies"), default=0)
    #: The program that analyses it: "gnubg", or "nardy-long <weights>" (``analysis.engine``).
    engine = models.CharField(_("engine"), max_length=60, default="gnubg")
    games = models.PositiveSmallIntegerField(_("games"), default=0)
    #: How many games have been analysed so far (the page says "game 3 of 9").
    games_done = models.PositiveSmallIntegerField(_("games analysed"), default=0)
    #: The SHA-256 of the .mat text analysed (``services.analysis_record``): with ``plies``
    #: and ``engine``, what is analysed. An analysis of an older record is replaced.
    record = models.CharField(_("record digest"), max_length=64)
    error = models.TextField(_("error"), blank=True)
    #: The runs started for this record: a worker lost mid-run (its message is delivered
    #: again) counts too, and past ``services.ATTEMPTS`` the analysis is given up.
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    #: The Celery task running it: its message delivered again has the same id.
    task = models.CharField(_("task"), max_length=64, blank=True)
    #: When it was queued, then when its latest run started.
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        app_label = "tournaments"  # the tables and migrations of the tournaments app
        verbose_name = _("match analysis")
        verbose_name_plural = _("match analyses")
        indexes = [
            # Another match with the same record: its analysis is copied, not run again.
            models.Index(fields=["record", "plies"], name="analysis_record_plies"),
        ]

    def __str__(self) -> str:
        return f"{self.match}: {self.get_status_display()}"


#: The keys of ``PlayerFigures.rolls_marked``: gnubg's luck marks (``runner.LUCK_MARKS``).
ROLL_MARKS = ("very_lucky", "lucky", "unlucky", "very_unlucky")


class PlayerFigures(models.Model):
    """One player's figures in one game (``game`` 0: the whole match)."""

    analysis = models.ForeignKey(
        MatchAnalysis, on_delete=models.CASCADE, related_name="figures", verbose_name=_("analysis")
    )
    game = models.PositiveSmallIntegerField(_("game"))
    side = models.PositiveSmallIntegerField(_("side"))  # 1 home, 2 away
    checker_error = models.FloatField(_("checker error"))
    cube_error = models.FloatField(_("cube error"))
    luck = models.FloatField(_("luck"))
    unforced_moves = models.PositiveIntegerField(_("unforced moves"))
    close_cube_decisions = models.PositiveIntegerField(_("close cube decisions"))
    blunders = models.PositiveIntegerField(_("blunders"))
    errors = models.PositiveIntegerField(_("errors"))
    #: The points won (a loss negative) and the same with luck taken out (``Figures``): given
    #: by the Long Nardy engine; empty for gnubg and for analyses made before luck was measured.
    result = models.FloatField(_("result"), null=True, blank=True)
    luck_adjusted = models.FloatField(_("result with luck taken out"), null=True, blank=True)
    #: The side's rolls by gnubg's luck marks (``ROLL_MARKS``): {"very_lucky": n, "lucky": n,
    #: "unlucky": n, "very_unlucky": n}; empty where not given.
    rolls_marked = models.JSONField(_("rolls marked by luck"), null=True, blank=True)

    class Meta:
        app_label = "tournaments"
        ordering = ["analysis", "game", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["analysis", "game", "side"], name="figures_once_per_game_and_side"
            ),
        ]

    def __str__(self) -> str:
        return f"game {self.game or 'all'}, side {self.side}: {self.checker_error:.3f}"

    def figures(self) -> Figures:
        return Figures(
            self.checker_error, self.cube_error, self.luck, self.unforced_moves,
            self.close_cube_decisions, self.blunders, self.errors, self.result,
            self.luck_adjusted, self.marked_counts,
        )  # fmt: skip

    @property
    def marked_counts(self) -> tuple[int, int, int, int] | None:
        """``rolls_marked`` in ``ROLL_MARKS``' order, as ``Figures`` holds it."""
        found = self.rolls_marked
        if found is None:
            return None
        very_lucky, lucky, unlucky, very_unlucky = (int(found[mark]) for mark in ROLL_MARKS)
        return (very_lucky, lucky, unlucky, very_unlucky)

    @staticmethod
    def marked_from(counts: tuple[int, int, int, int] | None) -> dict[str, int] | None:
        """``Figures.rolls_marked`` as stored."""
        return None if counts is None else dict(zip(ROLL_MARKS, counts, strict=True))

    @property
    def error_rate(self) -> float | None:
        return self.figures().error_rate

    @property
    def pr(self) -> float | None:
        return self.figures().pr


class Mistake(models.Model):
    """A decision that lost equity, with the engine's best (what it is called depends on the
    engine: ``AnalysisView.thresholds``): a checker play, or a dave (cube) decision, whose
    ``played`` and ``best`` are actions ("double", "no double", "take", "drop")."""

    class Kind(models.TextChoices):
        MOVE = "move", _("checker play")
        CUBE = "cube", _("dave decision")

    analysis = models.ForeignKey(
        MatchAnalysis, on_delete=models.CASCADE, related_name="mistakes", verbose_name=_("analysis")
    )
    game = models.PositiveSmallIntegerField(_("game"))
    ply = models.PositiveIntegerField(_("ply"))
    #: The how-many-th checker play of its game it is (the board viewer's turn).
    move = models.PositiveIntegerField(_("move"))
    side = models.PositiveSmallIntegerField(_("side"))
    dice = models.CharField(_("dice"), max_length=2)
    played = models.CharField(_("played"), max_length=60)
    best = models.CharField(_("best play"), max_length=60)
    loss = models.FloatField(_("equity lost"))
    kind = models.CharField(_("kind"), max_length=4, choices=Kind.choices, default=Kind.MOVE)

    class Meta:
        app_label = "tournaments"
        ordering = ["analysis", "game", "ply"]

    def __str__(self) -> str:
        return (
            f"game {self.game}, ply {self.ply}: {self.played} (best {self.best}) −{self.loss:.3f}"
        )
