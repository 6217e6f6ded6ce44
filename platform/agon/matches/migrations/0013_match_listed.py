from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("matches", "0012_human_games"),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="listed",
            field=models.TextField(blank=True, default="", editable=False),
        ),
    ]
