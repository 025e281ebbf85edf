"""The Long Nardy analyses stored before the engine had thresholds of its own (a blunder above
0.16 points of a game, an error above 0.08: ``games.engine.analysis``) counted with gnubg's 0.08
and 0.04: their blunders and errors are counted again from their stored plays. Short Nardy's
(gnubg's) are left as they are."""

from django.db import migrations

#: The thresholds as they were set: a migration keeps its own copy.
BLUNDER = 0.16
ERROR = 0.08


def recount(apps, schema_editor):
    MatchAnalysis = apps.get_model("tournaments", "MatchAnalysis")
    PlayerFigures = apps.get_model("tournaments", "PlayerFigures")
    Mistake = apps.get_model("tournaments", "Mistake")
    analyses = MatchAnalysis.objects.filter(engine__startswith="nardy-long").values_list(
        "pk", flat=True
    )
    for analysis_id in analyses.iterator():
        losses = list(
            Mistake.objects.filter(analysis_id=analysis_id).values_list("game", "side", "loss")
        )
        changed = []
        for row in PlayerFigures.objects.filter(analysis_id=analysis_id):
            mine = [
                loss for game, side, loss in losses if side == row.side and row.game in (0, game)
            ]
            row.blunders = sum(1 for loss in mine if loss > BLUNDER)
            row.errors = sum(1 for loss in mine if ERROR < loss <= BLUNDER)
            changed.append(row)
        PlayerFigures.objects.bulk_update(changed, ["blunders", "errors"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0032_points_draw_help"),
    ]

    operations = [migrations.RunPython(recount, migrations.RunPython.noop)]
