"""A match's seed keeps all 64 bits (stored as signed; the column does not change)."""

from django.db import migrations

import agon.matches.fields


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_all_match_kinds"),
    ]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="seed",
            field=agon.matches.fields.SeedField(),
        ),
    ]
