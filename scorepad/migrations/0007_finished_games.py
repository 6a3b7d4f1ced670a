"""Finished games get rows of their own (FinishedGame); a Mulatschak session's running
state keeps only the 20 most recent of them and how many there are (``games_total``)."""

import django.db.models.deletion
from django.db import migrations, models

#: The games a state keeps (scorepad.games.base.RECENT_GAMES when this was written).
RECENT = 20


def _states(apps):
    Session = apps.get_model("scorepad", "Session")
    return Session.objects.filter(game="mulatschak").only("id", "state").iterator(
        chunk_size=200)


def games_to_rows(apps, schema_editor):
    """Each game listed in a state becomes a row; the state keeps the most recent."""
    Session = apps.get_model("scorepad", "Session")
    FinishedGame = apps.get_model("scorepad", "FinishedGame")
    for session in _states(apps):
        state = session.state if isinstance(session.state, dict) else {}
        finished = state.get("games")
        if not isinstance(finished, list) or "games_total" in state:
            continue
        FinishedGame.objects.bulk_create(
            [FinishedGame(session_id=session.id, number=g["number"], summary=g)
             for g in finished], batch_size=500)
        state = {**state, "games": finished[-RECENT:], "games_total": len(finished)}
        Session.objects.filter(pk=session.id).update(state=state)


def rows_to_games(apps, schema_editor):
    """Back: every game listed in the state again."""
    Session = apps.get_model("scorepad", "Session")
    FinishedGame = apps.get_model("scorepad", "FinishedGame")
    for session in _states(apps):
        state = session.state if isinstance(session.state, dict) else {}
        if "games_total" not in state:
            continue
        finished = list(FinishedGame.objects.filter(session_id=session.id)
                        .order_by("number").values_list("summary", flat=True))
        state = {k: v for k, v in state.items() if k != "games_total"} | {"games": finished}
        Session.objects.filter(pk=session.id).update(state=state)


class Migration(migrations.Migration):

    dependencies = [
        ('scorepad', '0006_game_choices_from_the_registry'),
    ]

    operations = [
        migrations.CreateModel(
            name='FinishedGame',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField()),
                ('summary', models.JSONField()),
                ('session', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='finished_games', to='scorepad.session')),
            ],
            options={
                'ordering': ['number'],
                'constraints': [models.UniqueConstraint(fields=('session', 'number'), name='one_row_per_game')],
            },
        ),
        migrations.RunPython(games_to_rows, rows_to_games, elidable=False),
    ]
