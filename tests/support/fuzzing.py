"""Shared by the fuzz tests: a per-call deadline, and inputs shown short enough to read."""

from __future__ import annotations

import contextlib
import faulthandler
import signal
from collections.abc import Iterator
from typing import Any

#: How long one call of a parser may take before the fuzz test calls it a hang.
CALL_SECONDS = 2.0


class Hang(Exception):
    """A call that did not answer in time."""


@contextlib.contextmanager
def deadline(seconds: float = CALL_SECONDS) -> Iterator[None]:
    """Interrupt the block after ``seconds`` (regular expressions check for signals, so a
    backtracking one is stopped too); C code that never looks is caught by faulthandler, which
    dumps every stack and ends the run rather than hang it."""

    def interrupt(signum: int, frame: Any) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    faulthandler.dump_traceback_later(seconds * 15, exit=True)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        faulthandler.cancel_dump_traceback_later()
        signal.signal(signal.SIGALRM, previous)


def shown(value: Any, limit: int = 1500) -> str:
    """``repr(value)`` cut to ``limit`` characters, or its type when nested too deeply."""
    try:
        text = repr(value)
    except RecursionError:
        text = f"<{type(value).__name__} nested too deeply to show>"
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"
