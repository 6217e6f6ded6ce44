"""Leaderboards rank by the low end of a rating's interval (`agon.ratings.ranking_value`),
provisional ratings included, instead of listing the settled ratings first: the value is
kept in its own column, filled here for every stored rating, and the `leaderboard` index
follows the new order."""

from django.db import migrations, models

import agon.ratings.stored
from competition import ratings


def fill_ranking(apps, schema_editor):
    Rating = apps.get_model("ladders", "Rating")
    rows = list(Rating.objects.only("id", "rating", "deviation"))
    for row in rows:
        row.ranking = ratings.ranking_value(ratings.RatingEstimate(row.rating, row.deviation))
    Rating.objects.bulk_update(rows, ["ranking"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0004_bot_open_to_events"),
        ("ladders", "0006_rating_uncertainty"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="rating", name="leaderboard"),
        migrations.AddField(
            model_name="rating",
            name="ranking",
            field=models.FloatField(default=agon.ratings.stored.initial_ranking),
        ),
        migrations.RunPython(fill_ranking, migrations.RunPython.noop),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                fields=["ladder", "active", "-ranking", "-rating", "id"], name="leaderboard"
            ),
        ),
    ]
