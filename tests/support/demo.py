"""The demo club for the tests that read it, seeded as ``make run`` seeds it but not analysed.

The analysis of the demo's matches (the project's engine, and gnubg where it is installed) is
most of the seed's time, and no test of the demo reads it: the analysis is tested on matches of
its own (tests/tournaments/analysis, tests/e2e/test_*analysis*). ``test_every_page`` analyses the
two matches whose pages it visits, so that those show their analysis."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.test import override_settings

from tournaments.demo import demo_data_seed


@contextmanager
def unanalysed() -> Iterator[None]:
    """Within it, no result is analysed."""
    with override_settings(ANALYSIS="off"):
        yield


def demo_seeded() -> None:
    """The demo club, its matches not analysed."""
    with unanalysed():
        demo_data_seed()
