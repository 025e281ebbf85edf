"""The migration that gave the formats their default tie-break order: a tournament whose rules
are not locked yet (draft, registration) and that had no tie-break gets its format's order; one
that chose its own keeps it; a started or finished one keeps the rules it was started with (its
level players get lots when it finishes); a bracket has no standings and gets none."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.models import DEFAULT_TIEBREAKS

BEFORE = ("tournaments", "0030_match_recording_mark")
AFTER = ("tournaments", "0031_lots_and_default_tiebreaks")


@pytest.mark.django_db(transaction=True)
def test_tournaments_not_started_get_their_formats_order_and_the_others_keep_theirs():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    tournaments = old.get_model("tournaments", "Tournament").objects
    made = [
        ("draft-rr", "draft", "round-robin", "", []),
        ("open-swiss", "registration", "swiss", "", []),
        ("open-groups", "registration", "single-elimination", "groups", []),
        ("own-order", "draft", "swiss", "", ["wins"]),
        ("running", "running", "round-robin", "", []),
        ("finished", "finished", "swiss", "", []),
        ("bracket", "draft", "single-elimination", "", []),
    ]
    for slug, status, format, first_stage, tiebreaks in made:
        tournaments.create(
            name=slug, slug=slug, variant="long", status=status, format=format,
            first_stage=first_stage, tiebreaks=tiebreaks, swiss_rounds=5,
        )  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    orders = dict(
        new.get_model("tournaments", "Tournament").objects.values_list("slug", "tiebreaks")
    )
    assert orders == {
        "draft-rr": list(DEFAULT_TIEBREAKS["round-robin"]),
        "open-swiss": list(DEFAULT_TIEBREAKS["swiss"]),
        "open-groups": list(DEFAULT_TIEBREAKS["groups"]),
        "own-order": ["wins"],
        "running": [],
        "finished": [],
        "bracket": [],
    }
    shared = new.get_model("tournaments", "Tournament").objects.filter(shared_places=True)
    assert not shared.exists()  # nobody chose shared places: lots decide at the finish
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
