"""Loaded into a test worker (``celery worker --include=tests.support.ratings_fail_once``):
the first rating task fails with a database error after its work is committed, as if the
connection dropped just then, so the retry must find the work done and change nothing.

The failure happens once, while the file named by ``NARDY_FAIL_ONCE`` exists.
"""

import os
from pathlib import Path

from django.db import OperationalError

from tournaments.ratings import ledger

_apply = ledger.ratings_apply
_MARK = Path(os.environ["NARDY_FAIL_ONCE"])


def _apply_then_fail_once(match_id: int) -> str:
    done = _apply(match_id)
    if _MARK.exists():
        _MARK.unlink()
        raise OperationalError("injected: the connection dropped after the commit")
    return done


ledger.ratings_apply = _apply_then_fail_once
