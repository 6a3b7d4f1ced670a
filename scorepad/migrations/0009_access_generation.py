from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("scorepad", "0008_invitation"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccessGeneration",
            fields=[
                ("key", models.CharField(max_length=40, primary_key=True, serialize=False)),
                ("number", models.PositiveBigIntegerField(default=0)),
            ],
        ),
    ]
