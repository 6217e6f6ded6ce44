"""A seat's log becomes bytes (a bot may write NUL or invalid UTF-8, which a text column
refuses on PostgreSQL), with the count of bytes the referee dropped beside it.

The old text is kept, encoded as UTF-8; a note of dropped bytes the referee appended to
it stays part of that text."""

from django.db import migrations, models


def copy_text_logs(apps, schema_editor):
    MatchSeat = apps.get_model("matches", "MatchSeat")
    for seat in MatchSeat.objects.exclude(log="").only("id", "log").iterator():
        MatchSeat.objects.filter(id=seat.id).update(log_bytes=seat.log.encode("utf-8"))


def copy_byte_logs(apps, schema_editor):
    MatchSeat = apps.get_model("matches", "MatchSeat")
    for seat in MatchSeat.objects.only("id", "log_bytes").iterator():
        text = bytes(seat.log_bytes).decode("utf-8", "replace").replace("\x00", "\ufffd")
        MatchSeat.objects.filter(id=seat.id).update(log=text)


class Migration(migrations.Migration):

    dependencies = [
        ("matches", "0003_match_enqueued"),
    ]

    operations = [
        migrations.AddField(
            model_name="matchseat",
            name="log_bytes",
            field=models.BinaryField(blank=True, default=b""),
        ),
        migrations.RunPython(copy_text_logs, copy_byte_logs),
        migrations.RemoveField(
            model_name="matchseat",
            name="log",
        ),
        migrations.RenameField(
            model_name="matchseat",
            old_name="log_bytes",
            new_name="log",
        ),
        migrations.AddField(
            model_name="matchseat",
            name="log_dropped_bytes",
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]
