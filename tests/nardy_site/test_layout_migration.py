"""A database of the old layout migrates forward with no data loss (issue 28): the demo data,
dumped from a database migrated and seeded before the code moved to its new rooms (the recording
at the table then lived in ``games.live``, the rating and analysis models were imported by
``tournaments.models``), with a match being recorded, is loaded into a database at the old
layout's migrations, migrated forward, and dumped again: every row is there, equal."""

from __future__ import annotations

import gzip
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

DUMP = Path(__file__).resolve().parents[1] / "fixtures" / "demo-before-layout.json.gz"
#: The last migration of each app when the dump was made.
OLD_LAYOUT = [
    ("tournaments", "0015_player_home_club_and_identity_audit"),
    ("games", "0001_initial"),
    ("live", "0001_initial"),
]
EXCLUDED = ("contenttypes", "auth.permission", "sessions", "admin.logentry")


def rows(objects: list[dict]) -> dict[tuple[str, object], dict]:
    return {(item["model"], item["pk"]): item["fields"] for item in objects}


def dumped() -> list[dict]:
    out = StringIO()
    call_command("dumpdata", "--natural-foreign", *(f"--exclude={x}" for x in EXCLUDED),
                 stdout=out)  # fmt: skip
    return json.loads(out.getvalue())


@pytest.mark.django_db(transaction=True)
def test_the_demo_data_of_the_old_layout_migrates_forward_whole():
    old = json.loads(gzip.decompress(DUMP.read_bytes()))
    assert {item["model"] for item in old} >= {
        "live.draft",
        "tournaments.ratingchange",
        "tournaments.matchanalysis",
        "games.game",
    }
    executor = MigrationExecutor(connection)
    executor.migrate(OLD_LAYOUT)
    call_command("loaddata", str(DUMP), verbosity=0)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert rows(dumped()) == rows(old)
