"""A roster player may carry a category (a ranking of its own: "Damen", "Jugend"), and a
tournament the day it is played (seasons count it by this day). An existing tournament's
day is the day it was made, in the site's time zone."""

import django.utils.timezone
from django.db import migrations, models


def dates_from_making(apps, schema_editor):
    Tournament = apps.get_model("scorepad", "Tournament")
    for pk, created_at in Tournament.objects.values_list("pk", "created_at").iterator(
            chunk_size=500):
        Tournament.objects.filter(pk=pk).update(
            date=django.utils.timezone.localdate(created_at))


class Migration(migrations.Migration):

    dependencies = [
        ("scorepad", "0012_guest"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="category",
            field=models.CharField(blank=True, default="", max_length=20,
                                   verbose_name="category"),
        ),
        migrations.AddField(
            model_name="tournament",
            name="date",
            field=models.DateField(default=django.utils.timezone.localdate,
                                   verbose_name="date"),
        ),
        migrations.RunPython(dates_from_making, migrations.RunPython.noop, elidable=False),
    ]
