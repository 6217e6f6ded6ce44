from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('matches', '0004_seat_log_as_bytes'),
    ]

    operations = [
        migrations.AddField(
            model_name='match',
            name='heartbeat',
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
