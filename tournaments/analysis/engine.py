"""Whether this server analyses matches: ``ANALYSIS`` is on, or auto with gnubg installed."""

from __future__ import annotations

from django.conf import settings

from games.analysis.runner import gnubg_path


def analysis_available() -> bool:
    mode = settings.ANALYSIS
    return mode == "on" or (mode == "auto" and gnubg_path() is not None)
