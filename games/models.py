"""Recorded games of tournament matches, stored as the rules engine's actions."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.Model):
    """One game of a match: who played White (started), its record, and its validated outcome.

    ``actions`` holds the engine's game actions as JSON (``games.rules.action_to_json``); it is
    empty when only the outcome was recorded. ``winner`` and ``white`` are match sides: 1 home,
    2 away. The outcome is what the replay found, never typed in.
    """

    class Ending(models.TextChoices):
        BEAR_OFF = "bear-off", _("Bear-off")
        DROP = "drop", _("Dave declined")
        RESIGN = "resign", _("Resignation")
        DRAW = "draw", _("Draw")
        UNFINISHED = "unfinished", _("Unfinished")

    SIDES = [(1, _("home")), (2, _("away"))]

    match = models.ForeignKey(
        "tournaments.Match", verbose_name=_("match"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    white = models.PositiveSmallIntegerField(_("White (started)"), choices=SIDES)
    actions = models.JSONField(_("record"), default=list, blank=True)
    winner = models.PositiveSmallIntegerField(_("winner"), choices=SIDES, null=True, blank=True)
    ending = models.CharField(_("ending"), max_length=12, choices=Ending.choices)
    value = models.PositiveSmallIntegerField(_("value"))
    stake = models.PositiveIntegerField(_("stake"), default=1)
    points = models.PositiveIntegerField(_("points"))
    #: When each action was entered at the table, in the order of ``actions``: ``{"at": ISO
    #: 8601, the server's time}``, with each player's seconds left (``"home"``, ``"away"``) in a
    #: timed match. Empty: the record was not entered live.
    times = models.JSONField(_("times"), default=list, blank=True)

    class Meta:
        ordering = ["match", "number"]
        verbose_name = _("game")
        verbose_name_plural = _("games")
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="game_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.match}, game {self.number}"
