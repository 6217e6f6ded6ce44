from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0007_all_match_kinds"),
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournamentgame",
            name="attempts",
            field=models.ManyToManyField(blank=True, related_name="+", to="matches.match"),
        ),
    ]
