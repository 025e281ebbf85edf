"""Words that stay Latin in the Russian interface: names of systems, programs and file formats.
The Russian pages (tests/e2e) and the reasons (test_reasons) each add the few of their own."""

from __future__ import annotations

SYSTEM_NAMES = frozenset(
    {"FIBS", "Elo", "CSV", "mat", "REST", "API", "GNU", "Backgammon", "Jellyfish"}
)
