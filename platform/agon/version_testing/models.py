"""A version test and its games.

A test plays pairs of games (`competition.version_pairing.pair_legs`) between its
candidate (entrant 0) and its baseline (entrant 1), with builtin opponents (entrants 2..)
at tables of more than two. Each pair's outcome moves the counts and the LLR once, in
order of pair number, so that the verdict does not depend on which game a worker finished
first.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class VersionTest(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"

    class Verdict(models.TextChoices):
        H1 = "H1", "H1 accepted: the candidate is stronger by elo1"
        H0 = "H0", "H0 accepted: the candidate is not stronger by elo1"
        INCONCLUSIVE = "inconclusive", "inconclusive at the game limit"

    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="version_tests")
    candidate = models.ForeignKey("bots.BotVersion", on_delete=models.PROTECT, related_name="+")
    baseline = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """Another version of the bot or another bot's version; empty for a builtin baseline."""
    baseline_builtin = models.CharField(max_length=32, blank=True)
    opponents = models.JSONField(default=list, blank=True)
    """The builtin bots that fill the other seats of mirrored tables (players > 2)."""
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField(default=2)
    options = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    elo0 = models.FloatField()
    elo1 = models.FloatField()
    alpha = models.FloatField()
    beta = models.FloatField()
    max_games = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RUNNING)
    verdict = models.CharField(max_length=16, choices=Verdict.choices, blank=True)
    error = models.TextField(blank=True)
    pairs_created = models.PositiveIntegerField(default=0)
    pairs_counted = models.PositiveIntegerField(default=0)
    games_counted = models.PositiveIntegerField(default=0)
    pentanomial = models.JSONField(default=list)
    """Pairs by the candidate's points in them: 0, 1/2, 1, 3/2, 2."""
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    losses = models.PositiveIntegerField(default=0)
    """The candidate's legs (a game at two players, a comparison of mirrored tables above)."""
    llr = models.FloatField(default=0.0)
    llr_history = models.JSONField(default=list)
    """The LLR after each counted pair."""
    elo = models.FloatField(null=True, blank=True)
    elo_low = models.FloatField(null=True, blank=True)
    elo_high = models.FloatField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="version_tests"
    )
    created = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["bot", "-id"], name="version_test_bot_recent"),
            models.Index(fields=["created_by", "created"], name="version_test_user_created"),
        ]

    def __str__(self) -> str:
        return f"version test {self.pk} of {self.candidate} ({self.status})"

    @property
    def games_per_pair(self) -> int:
        return 2 if self.players == 2 else 4

    @property
    def pair_limit(self) -> int:
        return max(1, self.max_games // self.games_per_pair)

    @property
    def budget_games(self) -> int:
        """The games the test takes from its owner's budget: its limit while it runs, the
        games it counted once it is over."""
        return self.max_games if self.status == self.Status.RUNNING else self.games_counted

    @property
    def baseline_label(self) -> str:
        if self.baseline_id and self.baseline:
            return self.baseline.label
        return f"builtin:{self.baseline_builtin}"


class VersionTestGame(models.Model):
    """One game of a pair: leg 0 or 1, and its place in the leg (`side`: 0 at two
    players; at mirrored tables 0 is the candidate's table and 1 the baseline's). `match`
    is the match that plays it now: a new one when the last failed for the platform;
    empty while the game waits for room in the background share of the workers
    (agon.matches.background)."""

    test = models.ForeignKey(VersionTest, on_delete=models.CASCADE, related_name="games")
    pair = models.PositiveIntegerField()
    leg = models.PositiveSmallIntegerField()
    side = models.PositiveSmallIntegerField()
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="version_test_game",
    )
    replays = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["test_id", "pair", "leg", "side"]
        constraints = [
            models.UniqueConstraint(fields=["test", "pair", "leg", "side"], name="one_game_a_place")
        ]

    def __str__(self) -> str:
        return f"game {self.pair}.{self.leg}.{self.side} of version test {self.test_id}"
