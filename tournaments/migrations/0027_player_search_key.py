"""Player search: each player's name as a search finds it (``tournaments.names``), and on
PostgreSQL a trigram index over it (pg_trgm, a trusted extension) for ``ILIKE '%word%'`` and
word similarity at a federation's size; SQLite searches without one."""

from django.db import migrations, models

from tournaments.names import search_key

INDEX = "tournaments_player_search_trgm"


def fill_keys(apps, schema_editor):
    Player = apps.get_model("tournaments", "Player")
    players = list(Player.objects.only("pk", "display_name"))
    for player in players:
        player.search_key = search_key(player.display_name)
    Player.objects.bulk_update(players, ["search_key"], batch_size=1000)


def trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("CREATE EXTENSION IF NOT EXISTS pg_trgm")
        schema_editor.execute(
            f"CREATE INDEX IF NOT EXISTS {INDEX} ON tournaments_player "
            "USING gin (search_key gin_trgm_ops)"
        )


def no_trigram_index(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"DROP INDEX IF EXISTS {INDEX}")


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_rating_checkpoints_and_backlog"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="search_key",
            field=models.CharField(blank=True, default="", editable=False, max_length=200),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.RunPython(trigram_index, no_trigram_index),
    ]
