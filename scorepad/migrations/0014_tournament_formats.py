"""A tournament's formats (docs/tournaments.md, "Tournament formats"): combined points,
tie-breaks, a final, confirmed results, an entry fee and a prize list; who has paid and
the draw by lot of each entrant; the final round; who confirmed a table's result.
Existing tournaments keep behaving as before (the defaults)."""

import scorepad.models
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('scorepad', '0013_category_and_tournament_date'),
    ]

    operations = [
        migrations.AddField(
            model_name='entrant',
            name='lot',
            field=models.PositiveIntegerField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='entrant',
            name='paid',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='tournament',
            name='confirm_results',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='tournament',
            name='entry_fee',
            field=models.DecimalField(blank=True, decimal_places=4, max_digits=14, null=True),
        ),
        migrations.AddField(
            model_name='tournament',
            name='final_tables',
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.AddField(
            model_name='tournament',
            name='prizes',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='tournament',
            name='rank_points',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='tournament',
            name='tiebreaks',
            field=models.JSONField(default=scorepad.models.default_tiebreaks),
        ),
        migrations.AddField(
            model_name='tournamentround',
            name='final',
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name='tournamenttable',
            name='confirmed_at',
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name='tournamenttable',
            name='confirmed_by',
            field=models.CharField(blank=True, default='', max_length=40),
        ),
        migrations.AlterField(
            model_name='tournament',
            name='scoring',
            field=models.CharField(choices=[('placement', 'placement'), ('score', 'score'), ('combined', 'combined')], max_length=10),
        ),
    ]
