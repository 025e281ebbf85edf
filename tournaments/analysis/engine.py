"""Which program analyses a tournament's matches, at how many plies, and whether this server
analyses them at all.

Short Nardy is analysed by GNU Backgammon, a separate program (``ANALYSIS`` on, or auto with
gnubg installed; ``ANALYSIS_PLIES``); Long Nardy by the project's own engine (``games.engine``),
which is always here (unless ``ANALYSIS`` is off; ``LONG_ANALYSIS_PLIES``).
"""

from __future__ import annotations

from django.conf import settings
from django.utils.translation import gettext as _

from games.analysis.runner import gnubg_path
from games.engine.search import engine_name

GNUBG = "gnubg"
LONG = "long"


def analysis_available(variant: str) -> bool:
    """Whether matches of ``variant`` ("long" or "short") are analysed on this server."""
    mode = settings.ANALYSIS
    if mode == "off":
        return False
    return variant == LONG or mode == "on" or gnubg_path() is not None


def analysis_plies(variant: str) -> int:
    return settings.LONG_ANALYSIS_PLIES if variant == LONG else settings.ANALYSIS_PLIES


def analysis_engine(variant: str) -> str:
    """The name of the program (and weights) that analyses ``variant``: an analysis made by
    another is not copied to a match with the same record."""
    return engine_name() if variant == LONG else GNUBG


def engine_label(engine: str, plies: int) -> str:
    """What the page says made the figures, in plain words (``engine_details`` has the rest)."""
    if engine == GNUBG:
        return _("GNU Backgammon, the free backgammon program")
    return _("our Long Nardy engine, trained by playing against itself")


def engine_details(engine: str, plies: int) -> str:
    """The technical side of ``engine_label``: the weights and how far the engine looks ahead."""
    if engine == GNUBG:
        return _("%(plies)d-ply search") % {"plies": plies}
    weights = engine.removeprefix("nardy-long").strip()
    return _("network weights %(weights)s, %(plies)d-ply search") % {
        "weights": weights,
        "plies": plies,
    }


def is_long_engine(engine: str) -> bool:
    return engine != GNUBG
