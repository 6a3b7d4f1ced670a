"""Sessions get a name, a date and a note. The date of an existing session is the day it
was started, in the site's time zone (as the lists showed it)."""

import django.utils.timezone
from django.db import migrations, models


def dates_from_starts(apps, schema_editor):
    Session = apps.get_model("scorepad", "Session")
    for pk, created_at in Session.objects.values_list("pk", "created_at").iterator(
            chunk_size=500):
        Session.objects.filter(pk=pk).update(
            date=django.utils.timezone.localdate(created_at))


class Migration(migrations.Migration):

    dependencies = [
        ("scorepad", "0009_access_generation"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="name",
            field=models.CharField(blank=True, default="", max_length=80, verbose_name="name"),
        ),
        migrations.AddField(
            model_name="session",
            name="date",
            field=models.DateField(default=django.utils.timezone.localdate, verbose_name="date"),
        ),
        migrations.AddField(
            model_name="session",
            name="note",
            field=models.TextField(blank=True, default="", max_length=2000, verbose_name="note"),
        ),
        migrations.RunPython(dates_from_starts, migrations.RunPython.noop, elidable=False),
    ]
