"""Every rating carries its uncertainty (the Glicko of `agon.ratings.glicko`): the time
its deviation was brought up to date (`deviation_at`) and whether it is settled enough to
rank (`rankable`, first in the `leaderboard` index).

The Elo left `deviation` empty. Each existing rating gets the deviation the Glicko would
have given after its games against settled opponents of equal rating (each game adds
0.25 * q^2 of precision, a table of n seats n - 1 pairs of weight PAIR_WEIGHT[n]), at
least the new-version deviation for a version with no game yet, as of its last update.
Written out here rather than imported, so that a later change of the system does not
change what this migration did."""

import math
from typing import Any

from django.db import migrations, models

START_DEVIATION = 350.0
MIN_DEVIATION = 30.0
NEW_VERSION_DEVIATION = 150.0
PROVISIONAL_DEVIATION = 110.0
PAIR_WEIGHT = {2: 1.0, 3: 0.75, 4: 0.6, 5: 0.5, 6: 0.45}
Q = math.log(10.0) / 400.0


def deviation_after(games: int, players: int) -> float:
    information = games * (players - 1) * PAIR_WEIGHT.get(players, 0.45) * 0.25
    return max(math.sqrt(1.0 / (1.0 / START_DEVIATION**2 + Q**2 * information)), MIN_DEVIATION)


def give_deviations(apps: Any, schema_editor: Any) -> None:
    Rating = apps.get_model("ladders", "Rating")
    rows = list(Rating.objects.select_related("ladder"))
    for row in rows:
        deviation = deviation_after(row.games, row.ladder.players)
        if row.version_games == 0:
            deviation = max(deviation, NEW_VERSION_DEVIATION)
        row.deviation = deviation
        row.deviation_at = row.updated
        row.rankable = deviation < PROVISIONAL_DEVIATION
    Rating.objects.bulk_update(rows, ["deviation", "deviation_at", "rankable"], batch_size=500)


def forget_deviations(apps: Any, schema_editor: Any) -> None:
    apps.get_model("ladders", "Rating").objects.update(deviation=None)


class Migration(migrations.Migration):
    dependencies = [
        ("bots", "0002_game_without_choices"),
        ("ladders", "0005_shared_firsts"),
    ]

    operations = [
        migrations.RemoveIndex(model_name="rating", name="leaderboard"),
        migrations.AddField(
            model_name="rating",
            name="deviation_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="rating",
            name="rankable",
            field=models.BooleanField(default=False),
        ),
        migrations.AddIndex(
            model_name="rating",
            index=models.Index(
                fields=["ladder", "active", "-rankable", "-rating", "id"], name="leaderboard"
            ),
        ),
        migrations.RunPython(give_deviations, forget_deviations),
    ]
