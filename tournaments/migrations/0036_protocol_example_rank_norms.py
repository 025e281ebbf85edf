"""The example table of rank norms (every row ``example=True``): the official ЕВСК table for
nardy could not be found. Its rows are ``tournaments/norms/example_norms.csv``, the same file
``manage.py load_rank_norms`` takes, so the real table replaces it without code."""

import csv
from pathlib import Path

import django.db.models.deletion
from django.db import migrations, models

EXAMPLE = Path(__file__).resolve().parent.parent / "norms" / "example_norms.csv"


def add_example(apps, schema_editor):
    EventStatus = apps.get_model("tournaments", "EventStatus")
    RankNorm = apps.get_model("tournaments", "RankNorm")
    if RankNorm.objects.exists():  # a table already loaded stays
        return
    statuses = {}
    norms = []
    with EXAMPLE.open(encoding="utf-8") as file:
        for row in csv.DictReader(file):
            code = row["status"]
            if code not in statuses:
                statuses[code], _ = EventStatus.objects.get_or_create(
                    code=code,
                    defaults={"name": row["status_name"], "order": int(row["status_order"])},
                )
            norms.append(
                RankNorm(
                    status=statuses[code],
                    discipline=row["discipline"],
                    gender=row["gender"],
                    rank=row["rank"],
                    participants_from=int(row["participants_from"]),
                    places_up_to=int(row["places_up_to"]),
                    example=True,
                )
            )
    RankNorm.objects.bulk_create(norms)


def remove_example(apps, schema_editor):
    apps.get_model("tournaments", "RankNorm").objects.filter(example=True).delete()


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0035_official_events")]

    operations = [
        migrations.RunPython(add_example, remove_example),
        # The event status is a declared setting of official events: its help on the form.
        migrations.AlterField(
            model_name="tournament",
            name="event_status",
            field=models.ForeignKey(
                blank=True,
                help_text="The event's status in the federation's calendar (the Championship of "
                "Russia, an all-Russian event …): the rank norms its places meet depend on it.",
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="tournaments",
                to="tournaments.eventstatus",
                verbose_name="event status",
            ),
        ),
    ]
