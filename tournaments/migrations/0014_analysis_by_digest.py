# Written by hand (makemigrations would also pick up another change in progress to the
# tournaments models): an analysis is keyed by its record's digest, queued once per record, and
# its runs are counted. Existing rows keep their status; attempts 0 and no task.

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0013_match_analysis'),
    ]

    operations = [
        migrations.AlterField(
            model_name='matchanalysis',
            name='status',
            field=models.CharField(choices=[('queued', 'Queued for analysis'), ('running', 'Analysing'), ('done', 'Analysed'), ('failed', 'Analysis failed')], max_length=10, verbose_name='status'),
        ),
        migrations.AddField(
            model_name='matchanalysis',
            name='attempts',
            field=models.PositiveSmallIntegerField(default=0, verbose_name='attempts'),
        ),
        migrations.AddField(
            model_name='matchanalysis',
            name='task',
            field=models.CharField(blank=True, max_length=64, verbose_name='task'),
        ),
        migrations.AddIndex(
            model_name='matchanalysis',
            index=models.Index(fields=['record', 'plies'], name='analysis_record_plies'),
        ),
    ]
