"""A version test's games are its owner's business: the ones made before
`Match.private` existed become private."""

from django.db import migrations


def mark_private(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Match.objects.filter(kind="version_test").update(private=True)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0010_match_private"),
        ("version_tests", "0002_background_share"),
    ]

    operations = [migrations.RunPython(mark_private, migrations.RunPython.noop)]
