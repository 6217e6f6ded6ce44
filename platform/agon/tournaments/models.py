"""Tournaments: an entry window, then rounds of games paired by a format, then standings.

A tournament's games are matches of the kind `tournament`: each `TournamentGame` is one
game the format asked for (its round, tie, index, entrants and seed, as
`competition.formats.core.ScheduledGame`), linked to the match that plays it. A game whose
match failed for the platform's sake is played again by a new match (`replays` counts
them, and keeps the failed ones as its `attempts`); its result is the ranks of the match
that finished it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from agon.matches.fields import SeedField
from competition.formats.registry import UnknownFormat, get_format


class Tournament(models.Model):
    class Status(models.TextChoices):
        ENTRY = "entry"
        """Bots may enter until `entry_closes`."""
        RUNNING = "running"
        """The entrants' versions are frozen; rounds are played."""
        FINISHED = "finished"
        CANCELLED = "cancelled"

    name = models.CharField(max_length=100)
    game = models.CharField(max_length=32)
    format = models.CharField(max_length=24)
    """A name in the formats' registry (`competition.formats.registry`), which the
    services check it against: a new format needs no migration."""
    players = models.PositiveSmallIntegerField(default=2)
    """Bots at each table."""
    rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    """Swiss rounds (empty for the other formats)."""
    meetings = models.PositiveSmallIntegerField(default=1)
    """Meetings each table plays: a meeting is one game per rotation of the seats."""
    options = models.JSONField(default=dict, blank=True)
    """The game's options, as a ladder's."""
    seed = models.BigIntegerField()
    public = models.BooleanField(default=False)
    """Public: made by staff, listed for all, any user enters their own bots. Private: its
    owner enters their own bots and bots open to events; only its owner, staff and the
    owners of the entered bots see it and its games."""
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournaments"
    )
    max_entrants = models.PositiveSmallIntegerField(default=32)
    entry_opens = models.DateTimeField()
    entry_closes = models.DateTimeField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.ENTRY)
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    """When the entry closed and the versions were frozen."""
    finished = models.DateTimeField(null=True, blank=True)
    standings = models.JSONField(default=list, blank=True)
    """The final standings once finished: one object per entrant, best first."""
    results_seen = models.PositiveIntegerField(default=0)
    """How many of its games were decided when its format was last asked for more: the
    format is asked again only once another is (agon.tournaments.scheduling)."""
    note = models.TextField(blank=True)
    """Why it was cancelled, or anything the schedule had to decide (a game voided)."""

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "entry_closes"], name="tournament_status_closes"),
            models.Index(fields=["public", "-id"], name="tournament_public_recent"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.format}, {self.status})"

    @property
    def format_label(self) -> str:
        """The format's name for people ("Round Robin")."""
        try:
            return get_format(self.format).LABEL
        except UnknownFormat:
            return self.format


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    bot = models.ForeignKey("bots.Bot", on_delete=models.CASCADE, related_name="entries")
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    version = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """The bot's active version when the entry closed: it plays every game."""
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    """Its index among the entrants (0 is the first seed), given when the entry closed;
    empty for an entry dropped then (no active version)."""
    withdrawn = models.DateTimeField(null=True, blank=True)
    """When its bot left the running tournament: it forfeits every game not decided then
    and every game paired for it later (`agon.tournaments.withdrawal`)."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "bot"], name="one_entry_per_bot"),
            models.UniqueConstraint(fields=["tournament", "number"], name="one_entrant_per_number"),
        ]
        ordering = ["tournament_id", "number", "id"]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return f"{self.bot} in {self.tournament_id}"


class TournamentGame(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="games")
    round = models.PositiveSmallIntegerField()
    tie = models.CharField(max_length=64)
    """What the game belongs to: a table of a round ("0-5"), a knockout tie ("W2.1"), a bye."""
    index = models.PositiveSmallIntegerField()
    """The game's place within its tie."""
    bots = models.JSONField()
    """Entrant numbers in seat order; one for a bye."""
    seed = SeedField()
    """The format's seed of the game, from 0 to 2**64 - 1 (stored as signed 64 bits)."""
    match = models.OneToOneField(
        "matches.Match",
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="tournament_game",
    )
    """The match playing (or that played) it; empty for a bye, and for a game of a private
    tournament waiting for room in the background share (agon.matches.background)."""
    replays = models.PositiveSmallIntegerField(default=0)
    """How often a failed match was replaced by a new one."""
    attempts = models.ManyToManyField("matches.Match", blank=True, related_name="+")
    """The failed matches a replay replaced, kept so that the game's history is shown."""
    ranks = models.JSONField(null=True, blank=True)
    """Per seat, 1 is best, once the game is decided; empty while it is played."""
    void = models.BooleanField(default=False)
    """Decided as a tie of all its seats: its match and every replay of it failed
    (AGON_TOURNAMENT_MAX_REPLAYS replays)."""
    forfeited = models.BooleanField(default=False)
    """Decided unplayed because a seat's bot withdrew: the withdrawn seats last, the
    others sharing the first place (`agon.tournaments.withdrawal`)."""
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "round", "tie", "index"], name="one_game_per_slot"
            )
        ]
        ordering = ["tournament_id", "round", "id"]

    def __str__(self) -> str:
        return f"{self.tournament_id} round {self.round} {self.tie}#{self.index}"

    @property
    def is_bye(self) -> bool:
        return len(self.bots) == 1
