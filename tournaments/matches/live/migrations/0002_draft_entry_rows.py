"""A draft's entries move from one JSON list to a row each (``DraftEntry``), so that an entry
appends a row instead of rewriting the list. Existing drafts keep every entry, in order; their
time and author are the draft's last write (the only ones known), and the game in progress
(``current``) is rebuilt from its entries at the next write. The list itself goes in 0003, a transaction of its own (PostgreSQL
alters no table with the rows' checks still pending)."""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def entries_to_rows(apps, schema_editor):
    Draft = apps.get_model("live", "Draft")
    DraftEntry = apps.get_model("live", "DraftEntry")
    for draft in Draft.objects.order_by("pk").iterator():
        DraftEntry.objects.bulk_create(
            DraftEntry(
                draft_id=draft.pk,
                ply=ply,
                data=data,
                made_at=draft.updated_at,
                made_by_id=draft.updated_by_id,
            )
            for ply, data in enumerate(draft.entries)
        )


def rows_to_entries(apps, schema_editor):
    Draft = apps.get_model("live", "Draft")
    DraftEntry = apps.get_model("live", "DraftEntry")
    for draft in Draft.objects.order_by("pk").iterator():
        rows = DraftEntry.objects.filter(draft_id=draft.pk).order_by("ply")
        Draft.objects.filter(pk=draft.pk).update(entries=[row.data for row in rows])


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="DraftEntry",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("ply", models.PositiveIntegerField(verbose_name="ply")),
                ("data", models.JSONField(verbose_name="entry")),
                ("made_at", models.DateTimeField(default=django.utils.timezone.now, verbose_name="made at")),
                ("draft", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="entry_rows", to="live.draft", verbose_name="draft")),
                ("made_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL, verbose_name="made by")),
            ],
            options={
                "verbose_name": "live entry",
                "verbose_name_plural": "live entries",
                "ordering": ["draft", "ply"],
                "constraints": [models.UniqueConstraint(fields=("draft", "ply"), name="live_entry_ply_unique")],
            },
        ),
        migrations.AddField(
            model_name="draft",
            name="current",
            field=models.JSONField(blank=True, null=True, verbose_name="game in progress"),
        ),
        migrations.RunPython(entries_to_rows, rows_to_entries, elidable=False),
    ]
