"""A competition is a season: open (a ladder of its own, entered bot by bot), frozen (each
entrant's version locked, the ladder plays on with them), final (a tournament of the top
N on their frozen versions, seeded by the ladder), finished (its standings and every final
game archived as copies that nothing later changes).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from agon.matches.fields import SeedField


class Competition(models.Model):
    class Phase(models.TextChoices):
        UPCOMING = "upcoming"
        """Bots may be entered; nothing is played before `opens`."""
        OPEN = "open"
        """Its ladders play; a new version of an entered bot plays from its validation."""
        FROZEN = "frozen"
        """From `freezes`: every entrant's version is locked; its ladders play on with them."""
        FINAL = "final"
        """From `final_starts`: the top `final_size` play the final tournament."""
        FINISHED = "finished"
        """The final is over and archived."""
        CANCELLED = "cancelled"

    name = models.CharField(max_length=80, unique=True)
    game = models.CharField(max_length=32)
    player_counts = models.JSONField()
    """Its ladders' player counts, one ladder each (`ladders`)."""
    options = models.JSONField(default=dict, blank=True)
    """The game's options, as a ladder's."""
    rules = models.TextField(blank=True)
    """What its page shows beyond what the platform writes itself (limits, the final's
    format and tie-breaks are written from the fields)."""
    opens = models.DateTimeField()
    freezes = models.DateTimeField()
    final_starts = models.DateTimeField()
    final_format = models.CharField(max_length=24)
    """A name in the formats' registry (`competition.formats.registry`)."""
    final_size = models.PositiveSmallIntegerField(default=8)
    """The top N of the ladder of `final_players` at the start of the final play it."""
    final_players = models.PositiveSmallIntegerField(default=2)
    final_meetings = models.PositiveSmallIntegerField(default=1)
    final_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    seed = SeedField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    phase = models.CharField(max_length=16, choices=Phase.choices, default=Phase.UPCOMING)
    phase_changed = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    ladders = models.ManyToManyField("ladders.Ladder", related_name="competitions")
    final = models.OneToOneField(
        "tournaments.Tournament",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="competition",
    )
    note = models.TextField(blank=True)
    """Why it was cancelled, or what its phases had to decide."""

    class Meta:
        ordering = ["-opens", "-id"]
        indexes = [models.Index(fields=["phase", "opens"], name="competition_phase_opens")]

    def __str__(self) -> str:
        return f"{self.name} ({self.phase})"


class CompetitionEntry(models.Model):
    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="+")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    version = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """Its version locked at the freeze; empty before, and for a bot that had no active
    version then (it plays no more)."""
    ladder_place = models.PositiveIntegerField(null=True, blank=True)
    """Its place on the final's ladder when the final started (1 is the best)."""
    ladder_rating = models.CharField(max_length=32, blank=True)
    """Its rating there then, as shown."""
    finalist = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["competition", "bot"], name="one_competition_entry")
        ]
        # Unplaced last on every database (SQLite puts NULL first, PostgreSQL last).
        ordering = ["competition_id", models.F("ladder_place").asc(nulls_last=True), "id"]
        verbose_name_plural = "competition entries"

    def __str__(self) -> str:
        return f"{self.bot_id} in competition {self.competition_id}"


class ArchivedStanding(models.Model):
    """One entrant's result, copied when the final ended: names, digests and figures as
    they were, never joined to rows that may change since."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="archived_standings"
    )
    rank = models.PositiveIntegerField(null=True, blank=True)
    """Its place in the final (ties share one); empty for an entrant not in the final."""
    ladder_place = models.PositiveIntegerField(null=True, blank=True)
    ladder_rating = models.CharField(max_length=32, blank=True)
    bot_id = models.IntegerField()
    bot_name = models.CharField(max_length=100)
    owner_name = models.CharField(max_length=150)
    version_number = models.PositiveIntegerField(null=True, blank=True)
    version_digest = models.CharField(max_length=64, blank=True)
    """The SHA-256 of the archive it played with."""
    points = models.FloatField(null=True, blank=True)
    tiebreaks = models.JSONField(default=dict, blank=True)

    class Meta:
        # The finalists by place, then the others by their place on the ladder; NULL
        # last on every database (SQLite puts it first, PostgreSQL last).
        ordering = [
            "competition_id",
            models.F("rank").asc(nulls_last=True),
            models.F("ladder_place").asc(nulls_last=True),
            "id",
        ]

    def __str__(self) -> str:
        return f"{self.bot_name} in competition {self.competition_id}: {self.rank}"


class ArchivedGame(models.Model):
    """One game of the final, copied when it ended."""

    competition = models.ForeignKey(
        Competition, on_delete=models.CASCADE, related_name="archived_games"
    )
    round = models.PositiveSmallIntegerField()
    tie = models.CharField(max_length=64)
    index = models.PositiveSmallIntegerField()
    seed = models.CharField(max_length=24)
    """The game's seed, in decimal (up to 2**64 - 1)."""
    seats = models.JSONField()
    """Per seat: the entrant's number, bot id and name, version number and digest."""
    ranks = models.JSONField(null=True, blank=True)
    scores = models.JSONField(default=list, blank=True)
    void = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)
    match_id = models.IntegerField(null=True, blank=True)
    """The match that played it (a plain number: the archive outlives a deleted match)."""
    replay = models.CharField(max_length=255, blank=True)
    """Its replay's stored name."""
    rules_version = models.PositiveIntegerField()
    """The version of the game's rules it was played under: its replay plays back with it."""

    class Meta:
        ordering = ["competition_id", "round", "id"]

    def __str__(self) -> str:
        return f"competition {self.competition_id} round {self.round} {self.tie}#{self.index}"
