from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0004_bot_open_to_events"),
    ]

    operations = [
        migrations.AddField(
            model_name="bot",
            name="retired",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
