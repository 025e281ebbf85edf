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
from django.core.serializers import python as python_serializer
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tournaments.disciplines import discipline_of
from tournaments.models import DEFAULT_TIEBREAKS
from tournaments.names import search_key

DUMP = Path(__file__).resolve().parents[1] / "fixtures" / "demo-before-layout.json.gz"
#: The last migration of each app when the dump was made.
OLD_LAYOUT = [
    ("tournaments", "0015_player_home_club_and_identity_audit"),
    ("games", "0001_initial"),
    ("live", "0001_initial"),
]
#: What the dump leaves out: Django's own, and the example table of rank norms that a migration
#: loads (its rows are the migration's, not the old data's: tests/tournaments/test_rank_norms.py).
EXCLUDED = (
    "contenttypes", "auth.permission", "sessions", "admin.logentry", "tournaments.eventstatus",
    "tournaments.ranknorm",
)  # fmt: skip


def rows(objects: list[dict]) -> dict[tuple[str, object], dict]:
    return {(item["model"], item["pk"]): item["fields"] for item in objects}


def dumped() -> list[dict]:
    out = StringIO()
    call_command("dumpdata", "--natural-foreign", *(f"--exclude={x}" for x in EXCLUDED),
                 stdout=out)  # fmt: skip
    return json.loads(out.getvalue())


#: The fields added since the dump, as the migrations fill them in for the old rows.
ADDED = {
    "tournaments.tournament": {
        "swiss_out_after_losses": None,
        "time_control": None,
        "category": "",
        "min_age": None,
        "accepted_moves": None,
        "pairs": False,
        "casual": False,
        "min_participants": None,
        "shared_places": False,
        "official": False,
        "venue": "",
        "event_status": None,
        "max_age": None,
        "opening_roll": None,
    },
    "tournaments.entry": {"removed_at": None, "removed_by": None, "removal_reason": ""},
    "tournaments.match": {
        "forfeit": "",
        "lost_on_time": "",
        "confirm_side": None,
        "hinted": False,
        "recording": False,  # but the matches recorded now: ``forward``
        "decided_by": None,
    },  # fmt: skip
    "tournaments.player": {
        "gender": "",
        "birth_year": None,
        "region": "",
        "sport_rank": "",
        "sport_rank_since": None,
    },  # fmt: skip
    "tournaments.ratinglist": {"pairs": False, "since_checkpoint": 0},
    "tournaments.signup": {"partner": None, "pair_name": ""},
    "tournaments.matchanalysis": {"engine": "gnubg"},
    "tournaments.playerfigures": {"result": None, "luck_adjusted": None, "rolls_marked": None},
    "tournaments.mistake": {"kind": "move"},
    "games.game": {"times": []},
    "live.draft": {"clock": None},
}


@pytest.mark.django_db(transaction=True)
def test_the_demo_data_of_the_old_layout_migrates_forward_whole(tmp_path, monkeypatch):
    old = json.loads(gzip.decompress(DUMP.read_bytes()))
    assert {item["model"] for item in old} >= {
        "live.draft",
        "tournaments.ratingchange",
        "tournaments.matchanalysis",
        "games.game",
    }
    executor = MigrationExecutor(connection)
    executor.migrate(OLD_LAYOUT)
    # The rows are written with the old layout's own models (loaddata would write today's,
    # whose columns the old tables lack): the deserializer looks its models up there.
    old_apps = executor.loader.project_state(OLD_LAYOUT).apps
    # The historical user model keeps its manager (natural keys) but not this class attribute.
    old_apps.get_model("auth", "User").USERNAME_FIELD = "username"
    with monkeypatch.context() as patched:
        patched.setattr(python_serializer, "apps", old_apps)
        call_command("loaddata", str(DUMP), verbosity=0)

    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    now, expected = rows(dumped()), rows(forward(old))
    assert now.keys() == expected.keys()
    differ = {
        key: {name: (expected[key].get(name, "(absent)"), now[key].get(name, "(absent)"))
              for name in expected[key].keys() | now[key].keys()
              if expected[key].get(name, "(absent)") != now[key].get(name, "(absent)")}
        for key in now
    }  # fmt: skip
    assert not {key: fields for key, fields in differ.items() if fields}


def default_order_before_the_start(tournament: dict) -> list[str]:
    """The tie-break order migration 0031 gives a tournament not started yet (none to one whose
    rules the start locked)."""
    if tournament["status"] not in ("draft", "registration"):
        return []
    return list(DEFAULT_TIEBREAKS.get(tournament["first_stage"] or tournament["format"], ()))


def forward(old: list[dict]) -> list[dict]:
    """The old dump as the migrations make it: a draft's entries are rows of their own, taken at
    the draft's last write by its last writer, and the game in progress is rebuilt later."""
    moved = []
    row = 0
    recorded = {
        item["fields"]["match"]
        for item in old
        if item["model"] == "live.draft"
        and item["fields"]["entries"]
        and not item["fields"]["finished"]
    }
    assert recorded, "the dump has a match being recorded"
    for item in old:
        if item["model"] != "live.draft":
            fields = {**item["fields"], **ADDED.get(item["model"], {})}
            if item["model"] == "tournaments.match" and item["pk"] in recorded:
                fields["recording"] = True  # marked by the migration
            if item["model"] == "tournaments.tournament":
                if not fields["tiebreaks"]:
                    fields["tiebreaks"] = default_order_before_the_start(fields)
                fields["discipline"] = discipline_of(  # no old tournament had a clock
                    variant=fields["variant"], pairs=fields["pairs"], blitz=False
                )
            if item["model"] == "tournaments.ratinglist":  # keyed by its discipline now
                variant, pairs = fields.pop("variant"), fields.pop("pairs")
                fields["discipline"] = discipline_of(variant=variant, pairs=pairs, blitz=False)
            if item["model"] == "tournaments.player":  # the search key, made from the name
                fields["search_key"] = search_key(fields["display_name"])
            moved.append({**item, "fields": fields})
            continue
        fields = dict(item["fields"])
        entries = fields.pop("entries")
        moved.append({**item, "fields": {**fields, "current": None, **ADDED["live.draft"]}})
        for ply, data in enumerate(entries):
            row += 1
            moved.append({"model": "live.draftentry", "pk": row, "fields": {
                "draft": item["pk"], "ply": ply, "data": data,
                "made_at": fields["updated_at"], "made_by": fields["updated_by"], "clock": None,
                "awaits": None, "phone_at": None, "clamped": False,
            }})  # fmt: skip
    return moved
