"""Ladders (a game, a player count and options), ratings and every rating change."""

from __future__ import annotations

from django.db import models

from agon.ratings.stored import BEST_FIRST, RatedColumns, RatingChangeColumns
from competition import ratings


class Ladder(models.Model):
    name = models.CharField(max_length=100, unique=True)
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    active = models.BooleanField(default=True)
    open = models.BooleanField(default=True)
    """Open to every bot of its game: each newly active version enters it. A
    competition's ladder is not: only the bots entered into the competition are rated
    on it (agon.competitions)."""
    pinned = models.BooleanField(default=False)
    """The versions its ratings name play, whatever their bots upload since: a
    competition's ladder from its freeze on. A new version enters no pinned ladder."""

    class Meta:
        ordering = ["game", "players", "id"]

    def __str__(self) -> str:
        return self.name


LEADERBOARD_ORDER = (*BEST_FIRST, "id")
"""The order of every leaderboard: best first by the rating's columns
(`agon.ratings.stored.BEST_FIRST`), then `id` to break ties. The ORM's queries order by
it, the `leaderboard` index follows it and the leaderboard listing's SQL is written from
it (`agon.ladders.selectors.order_sql`)."""


class Rating(RatedColumns):
    """One bot's standing on one ladder, its rating in the columns of `RatedColumns`; the
    bot's active version plays for it."""

    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="ratings")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="ratings")
    version = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="+")
    games = models.PositiveIntegerField(default=0)
    """Rated games on this ladder, all versions."""
    version_games = models.PositiveIntegerField(default=0)
    """Rated games of the current version: it is provisional for its first games."""
    wins = models.PositiveIntegerField(default=0)
    """Rated games it finished first alone."""
    shared_firsts = models.PositiveIntegerField(default=0)
    """Rated games whose first place it shared: a tie, not a win."""
    active = models.BooleanField(default=True)
    updated = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["ladder", "bot"], name="rating_per_ladder")]
        # Leaderboards page through this index in order.
        indexes = [
            models.Index(fields=["ladder", "active", *LEADERBOARD_ORDER], name="leaderboard")
        ]

    def __str__(self) -> str:
        return f"{self.bot_id} on {self.ladder_id}: {self.shown}"

    @property
    def provisional(self) -> bool:
        return ratings.is_provisional(self.current, self.version_games)


class RatingChange(RatingChangeColumns):
    """What one rated match did to one bot's rating (before and after, in the columns of
    `RatingChangeColumns`): the history charts and audits use."""

    match = models.ForeignKey(
        "matches.Match", on_delete=models.CASCADE, related_name="rating_changes"
    )
    ladder = models.ForeignKey(Ladder, on_delete=models.CASCADE, related_name="+")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="rating_changes")
    version = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="+")
    provisional = models.BooleanField()
    """Whether the rating was provisional before the match."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "bot"], name="one_change_per_bot_per_match")
        ]
        indexes = [models.Index(fields=["bot", "ladder", "id"], name="rating_history")]

    def __str__(self) -> str:
        return f"{self.bot_id} in match {self.match_id}: {self.shown_before} -> {self.shown_after}"
