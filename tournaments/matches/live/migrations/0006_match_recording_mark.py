"""The matches being recorded now are marked (``Match.recording``): a draft with entries that has
not become the match's result. From now on the recorder keeps the mark."""

from django.db import migrations


def mark(apps, schema_editor):
    Draft = apps.get_model("live", "Draft")
    Match = apps.get_model("tournaments", "Match")
    recorded = Draft.objects.filter(finished=False, ply__gt=0).values("match_id")
    Match.objects.filter(pk__in=recorded).update(recording=True)


class Migration(migrations.Migration):
    dependencies = [
        ("live", "0005_draft_entry_awaits"),
        ("tournaments", "0030_match_recording_mark"),
    ]

    operations = [migrations.RunPython(mark, migrations.RunPython.noop)]
