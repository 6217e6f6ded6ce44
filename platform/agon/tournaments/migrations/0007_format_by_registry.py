"""A tournament's format is a name in the formats' registry (competition.formats.registry),
checked by the services: the column keeps no choices, so a new format needs no migration."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournaments', '0006_private_tournament_matches'),
    ]

    operations = [
        migrations.AlterField(
            model_name='tournament',
            name='format',
            field=models.CharField(max_length=24),
        ),
    ]
