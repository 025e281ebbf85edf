"""The analysis read for a club player, pure: what a play's loss is called, and the rating band
a PR falls in.

The bands are GNU Backgammon's own ("rating" words of its match statistics: ``aszRating`` and
``arThrsRating`` in gnubg's analysis.c, mirrored at github.com/GitMirroring/gnubg). gnubg rates
the error per decision (checker and cube errors over the unforced moves and close cube
decisions, in normalised equity); PR is that × 500, so its thresholds 0.002, 0.005, 0.008, 0.012,
0.018, 0.026 and 0.035 are PR 1, 2.5, 4, 6, 9, 13 and 17.5. A band holds the PRs below its upper
bound (gnubg's ``rError < arThrsRating[i]``), down to the next one's:

==============  ===========  ==================================
band            PR           read as
==============  ===========  ==================================
supernatural    below 1      plays like the engine itself
world-class     1 to 2.5     the world's best
expert          2.5 to 4     a strong tournament player
advanced        4 to 6       a strong club player
intermediate    6 to 9       a good club player
casual          9 to 13      an average club player
beginner        13 to 17.5   still learning
awful           17.5 and up  many big mistakes
==============  ===========  ==================================

Long Nardy's engine counts equity on the same scale (points of a game, oyn 1 and mars 2; see
``games.engine.analysis``), so the same bands read its PR; its marks differ
(``games.engine.analysis.BLUNDER``, ``ERROR``).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.analysis import runner
from games.engine import analysis as long_analysis

#: (upper bound of PR, band), best first; the last band has no upper bound.
BANDS: tuple[tuple[float, str], ...] = (
    (1.0, "supernatural"),
    (2.5, "world-class"),
    (4.0, "expert"),
    (6.0, "advanced"),
    (9.0, "intermediate"),
    (13.0, "casual"),
    (17.5, "beginner"),
    (float("inf"), "awful"),
)


@dataclass(frozen=True, slots=True)
class Thresholds:
    """The equity a play must lose to be a blunder, and an error."""

    blunder: float
    error: float

    def mark(self, loss: float) -> str:
        """ "blunder", "error" or "" for a play that lost ``loss``."""
        return runner.mark_of(loss, self.blunder, self.error)


#: Short Nardy, as gnubg's figures are counted (``games.analysis.runner``).
SHORT = Thresholds(runner.BLUNDER, runner.ERROR)
#: Long Nardy, by the project's engine (``games.engine.analysis``).
LONG = Thresholds(long_analysis.BLUNDER, long_analysis.ERROR)


def thresholds(*, long: bool) -> Thresholds:
    return LONG if long else SHORT


def band_of(pr: float | None) -> str | None:
    """The rating band of a PR (None: no decision, so no PR)."""
    if pr is None:
        return None
    return next(band for bound, band in BANDS if pr < bound)
