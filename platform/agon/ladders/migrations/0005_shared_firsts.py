"""A shared first place is a tie, not a win: `Rating.shared_firsts`, and the wins that
were ties until now moved there (from the finished ranked matches with a shared first)."""

from typing import Any

from django.db import migrations, models
from django.db.models import Count, F, Q


def move_ties_out_of_wins(apps: Any, schema_editor: Any) -> None:
    Match = apps.get_model("matches", "Match")
    MatchSeat = apps.get_model("matches", "MatchSeat")
    Rating = apps.get_model("ladders", "Rating")
    tied = (
        Match.objects.filter(kind="ranked", status="finished", ladder__isnull=False)
        .annotate(firsts=Count("seats", filter=Q(seats__rank=1)))
        .filter(firsts__gt=1)
    )
    for seat in MatchSeat.objects.filter(match__in=tied, rank=1, version__isnull=False).values(
        "match__ladder_id", "version__bot_id"
    ):
        Rating.objects.filter(
            ladder_id=seat["match__ladder_id"], bot_id=seat["version__bot_id"], wins__gt=0
        ).update(wins=F("wins") - 1, shared_firsts=F("shared_firsts") + 1)


def count_ties_as_wins_again(apps: Any, schema_editor: Any) -> None:
    Rating = apps.get_model("ladders", "Rating")
    Rating.objects.update(wins=F("wins") + F("shared_firsts"))


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0004_rating_seam"),
        ("matches", "0005_match_heartbeat"),
    ]

    operations = [
        migrations.AddField(
            model_name="rating",
            name="shared_firsts",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunPython(move_ties_out_of_wins, count_ties_as_wins_again),
    ]
