"""A guest's group has no stored name (scorepad.models.Group.title shows it in the
reader's language): the guests' groups named "Played without an account" in the language of
the moment they were made lose that name, and the groups of guests who signed up since are
named by their owner's account, as a sign-up names it now (scorepad/guests.py)."""

from django.db import migrations

#: "Played without an account" as it was stored, in each language the project speaks.
STORED = ("Played without an account", "Ohne Konto gespielt", "Fiók nélkül játszva")


def names_of_no_language(apps, schema_editor):
    Group = apps.get_model("scorepad", "Group")
    Guest = apps.get_model("scorepad", "Guest")
    Membership = apps.get_model("scorepad", "Membership")
    Group.objects.filter(pk__in=Guest.objects.values("group_id")).update(name="")
    claimed = Group.objects.filter(name__in=STORED).exclude(
        pk__in=Guest.objects.values("group_id"))
    for group in claimed.iterator():
        owner = (Membership.objects.filter(group=group, role="owner")
                 .select_related("user").order_by("pk").first())
        if owner is not None:
            group.name = owner.user.username[:80]
            group.save(update_fields=["name"])


class Migration(migrations.Migration):

    dependencies = [
        ("scorepad", "0015_season"),
    ]

    operations = [
        migrations.RunPython(names_of_no_language, migrations.RunPython.noop),
    ]
