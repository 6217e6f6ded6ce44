from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0003_match_enqueued'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='heartbeat',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
