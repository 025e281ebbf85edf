"""Calls run at the same moment in threads, for the tests of row locks (PostgreSQL)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import close_old_connections, connection

from tournaments.errors import Conflict


def race(*calls: Callable[[], Any]) -> list[str]:
    """Run the calls at the same moment, each on its own connection: their outcomes, sorted
    ("done" or "conflict")."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call: Callable[[], Any]) -> None:
        close_old_connections()
        try:
            barrier.wait()
            call()
            outcomes.append("done")
        except Conflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return sorted(outcomes)
