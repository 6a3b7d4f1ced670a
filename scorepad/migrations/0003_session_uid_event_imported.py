import uuid

from django.db import migrations, models


def give_every_session_a_uid(apps, schema_editor):
    Session = apps.get_model("scorepad", "Session")
    for pk in Session.objects.values_list("pk", flat=True):
        Session.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ("scorepad", "0002_watch_invites_idempotency"),
    ]

    operations = [
        migrations.AddField(
            model_name="session",
            name="uid",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(give_every_session_a_uid, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="session",
            name="uid",
            field=models.UUIDField(default=uuid.uuid4, editable=False),
        ),
        migrations.AddConstraint(
            model_name="session",
            constraint=models.UniqueConstraint(
                fields=("group", "uid"), name="session_uid_unique_in_group"
            ),
        ),
        migrations.AddField(
            model_name="dealevent",
            name="imported",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="dealevent",
            name="imported_user",
            field=models.CharField(blank=True, default="", max_length=150),
        ),
    ]
