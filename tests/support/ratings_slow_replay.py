"""Loaded into a test worker (``celery worker --include=tests.support.ratings_slow_replay``):
a rating replay stops in the middle of writing the ledger, inside its transaction, so that the
test can kill the worker there.

The replay writes the first half of its rows, writes a line to the file named by
``NARDY_SLOW_REPLAY_MARK`` (the test waits for it) and sleeps ``NARDY_SLOW_REPLAY_SECONDS``
(default 60) before it writes the rest. Single-match applies are not slowed down.
"""

import os
import time
from pathlib import Path

from tournaments.ratings import ledger

_MARK = Path(os.environ["NARDY_SLOW_REPLAY_MARK"])
_SECONDS = float(os.environ.get("NARDY_SLOW_REPLAY_SECONDS", "60"))
_replay_locked = ledger._replay_locked
_write = ledger._write


def _write_half_then_sleep(rating_list, changes):
    half = len(changes) // 2
    _write(rating_list, changes[:half])
    with _MARK.open("a") as mark:
        mark.write(f"pid {os.getpid()}: {half} of {len(changes)} rows written, sleeping\n")
    time.sleep(_SECONDS)
    _write(rating_list, changes[half:])


def _replay_slowly(rating_list, key):
    ledger._write = _write_half_then_sleep
    try:
        return _replay_locked(rating_list, key)
    finally:
        ledger._write = _write


ledger._replay_locked = _replay_slowly
