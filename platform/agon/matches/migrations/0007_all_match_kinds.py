"""Joins the three migrations made side by side (tournament games, version tests, the
per-turn log offsets) and gives `kind` every choice the two new kinds added."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0006_match_kind_version_test"),
        ("matches", "0006_seat_log_turn_offsets"),
        ("matches", "0006_tournament_kind"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="kind",
            field=models.CharField(
                choices=[
                    ("ranked", "Ranked"),
                    ("validation", "Validation"),
                    ("challenge", "Challenge"),
                    ("tournament", "Tournament"),
                    ("version_test", "Version Test"),
                ],
                max_length=16,
            ),
        ),
    ]
