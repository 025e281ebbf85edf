"""The migration that gave players a home club: a player of before gets one only where there is
no doubt (every tournament they were entered in is of one and the same club); the others are
left to staff. Nothing else of theirs changes."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = ("tournaments", "0014_analysis_by_digest")
AFTER = ("tournaments", "0015_player_home_club_and_identity_audit")


@pytest.mark.django_db(transaction=True)
def test_players_of_one_club_get_it_and_the_others_none():
    executor = MigrationExecutor(connection)
    executor.migrate([BEFORE])
    old = executor.loader.project_state([BEFORE]).apps
    user = old.get_model("auth", "User").objects.create(username="old-olga")
    clubs = {name: old.get_model("tournaments", "Club").objects.create(name=name, slug=name)
             for name in ("riga", "tallinn")}  # fmt: skip
    tournaments = {
        name: old.get_model("tournaments", "Tournament").objects.create(
            name=name, slug=name, variant="long", organizer_id=user.pk, club=clubs.get(club)
        )
        for name, club in (
            ("riga-1", "riga"),
            ("riga-2", "riga"),
            ("tallinn-1", "tallinn"),
            ("open", None),
        )  # fmt: skip
    }
    player = old.get_model("tournaments", "Player").objects
    entries = {
        "Riga only": ("riga-1", "riga-2"),
        "Two clubs": ("riga-1", "tallinn-1"),
        "Club and open": ("tallinn-1", "open"),
        "Open only": ("open",),
        "Never entered": (),
    }
    for name, entered in entries.items():
        made = player.create(display_name=name, club="As written", country="LV")
        for slug in entered:
            old.get_model("tournaments", "Entry").objects.create(
                tournament=tournaments[slug], player=made
            )

    executor = MigrationExecutor(connection)
    executor.migrate([AFTER])
    new = executor.loader.project_state([AFTER]).apps
    homes = dict(
        new.get_model("tournaments", "Player").objects.values_list(
            "display_name", "home_club__slug"
        )
    )
    assert homes == {"Riga only": "riga", "Two clubs": None, "Club and open": None,
                     "Open only": None, "Never entered": None}  # fmt: skip
    kept = set(new.get_model("tournaments", "Player").objects.values_list("club", "country"))
    assert kept == {("As written", "LV")}
    MigrationExecutor(connection).migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())
