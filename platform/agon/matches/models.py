"""Matches: queued -> running -> finished | failed, with seats, replay and logs."""

from __future__ import annotations

from datetime import datetime

from django.db import models

from agon.matches.bot_logs import log_display, turn_logs
from agon.matches.fields import SeedField


class Match(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        FINISHED = "finished"
        FAILED = "failed"

    class Kind(models.TextChoices):
        RANKED = "ranked"
        VALIDATION = "validation"
        CHALLENGE = "challenge"
        TOURNAMENT = "tournament"
        VERSION_TEST = "version_test"
        HUMAN = "human"
        """A signed-in user in one seat, bots in the others: never rated (agon.human_games)."""

    kind = models.CharField(max_length=16, choices=Kind.choices)
    ladder = models.ForeignKey(
        "ladders.Ladder", null=True, blank=True, on_delete=models.SET_NULL, related_name="matches"
    )
    game = models.CharField(max_length=32)
    players = models.PositiveSmallIntegerField()
    options = models.JSONField(default=dict)
    seed = SeedField()
    """From 0 to 2**64 - 1, as the engine takes it."""
    background = models.BooleanField(default=False)
    """Played in the background share of the workers (a private tournament's or a version
    test's game: agon.matches.background), on the background queue."""
    private = models.BooleanField(default=False)
    """Played for a private event (a private tournament's game, a version test's): only
    its audience sees it, and it counts in no public record. Who that is is decided in one
    place, `agon.matches.visibility`."""
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED)
    attempts = models.PositiveSmallIntegerField(default=0)
    claimed_by = models.CharField(max_length=64, blank=True)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created = models.DateTimeField(auto_now_add=True)
    enqueued = models.DateTimeField(null=True, blank=True)
    """When its task was last sent; a queued match not picked up long after is sent again."""
    started = models.DateTimeField(null=True, blank=True)
    heartbeat = models.DateTimeField(null=True, blank=True)
    """When the run playing it last said it is alive (every AGON_MATCH_HEARTBEAT_SECONDS);
    once stale, another task or the sweep takes the match over."""
    finished = models.DateTimeField(null=True, blank=True)
    scores = models.JSONField(default=list, blank=True)
    ranks = models.JSONField(default=list, blank=True)
    faults = models.JSONField(default=list, blank=True)
    replay = models.FileField(upload_to="replays/", blank=True)
    match_seconds = models.FloatField(null=True, blank=True)
    listed = models.TextField(blank=True, default="", editable=False)
    """A finished match as the API lists it, in JSON (agon.matches.listed): written when it
    finishes, again when one of its bots is renamed; empty before, and for a match finished
    before it was kept (then made as it is read)."""
    """Wall time inside the sandbox (boxes started to boxes gone)."""
    pipeline_seconds = models.FloatField(null=True, blank=True)
    """Wall time of the whole task: claim, sandbox, storing the result."""

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "ladder"], name="match_status_ladder"),
            models.Index(fields=["ladder", "-id"], name="match_ladder_recent"),
            models.Index(fields=["status", "started"], name="match_status_started"),
            models.Index(fields=["game", "-id"], name="match_game_recent"),
        ]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"match {self.pk} ({self.game}, {self.status})"

    def last_sign_of_life(self) -> datetime:
        """The run's last heartbeat; its claim if it has not beaten yet (or was claimed
        before heartbeats existed)."""
        return self.heartbeat or self.started or self.created


class MatchSeat(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField()
    version = models.ForeignKey(
        "bots.BotVersion", null=True, blank=True, on_delete=models.PROTECT, related_name="seats"
    )
    builtin = models.CharField(max_length=32, blank=True)
    """For a builtin opponent (validation matches): its name; then `version` is empty."""
    human = models.ForeignKey(
        "auth.User", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    """For a human game's seat played in the browser: who plays it (then `version` and
    `builtin` are empty)."""
    rank = models.PositiveSmallIntegerField(null=True, blank=True)
    score = models.IntegerField(null=True, blank=True)
    fault = models.CharField(max_length=32, blank=True)
    log = models.BinaryField(blank=True, default=b"")
    """The bot's stderr as it wrote it, byte for byte (a bot may write any bytes, NUL
    included, which no text column takes): shown to the bot's owner only."""
    log_dropped_bytes = models.PositiveBigIntegerField(default=0)
    """How much more it wrote than the referee kept."""
    log_turn_offsets = models.JSONField(default=list, blank=True)
    """Where each of the bot's turns begins in `log` (byte offsets, one per turn it was
    asked to play): the viewer shows each turn's log beside its step."""
    thinking_seconds = models.FloatField(null=True, blank=True)
    turn_milliseconds = models.JSONField(default=list, blank=True)
    """How long each of the bot's turns took, in milliseconds, as the referee timed it
    (empty for a builtin, and for matches played before it was kept): the datasets'
    time per decision."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_bot_per_seat")]
        indexes = [models.Index(fields=["version", "match"], name="seat_version_match")]
        ordering = ["match_id", "seat"]

    def __str__(self) -> str:
        return f"seat {self.seat} of match {self.match_id}"

    @property
    def log_text(self) -> str:
        """The log to read on a page or in the API: see `log_display`."""
        return log_display(bytes(self.log), self.log_dropped_bytes)

    @property
    def turn_logs(self) -> list[str]:
        """Each turn's log to read: see `turn_logs`."""
        return turn_logs(bytes(self.log), self.log_turn_offsets)

    @property
    def bot_id_label(self) -> str:
        if self.version_id and self.version:
            return self.version.label
        if self.human_id and self.human:
            return f"human:{self.human.username}"
        return f"builtin:{self.builtin}"


class HumanTurn(models.Model):
    """One turn of a human seat: what the match asked (the seat's observation and legal
    actions, the deadline) and the move the player sent from the browser.

    This row is the channel between the web and the worker playing the match: the worker
    writes the turn and polls the row for its move (agon.matches.human_seat) while the
    bots' boxes stay frozen; the web writes the move once, if it is one of `legal`."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="human_turns")
    seat = models.PositiveSmallIntegerField()
    number = models.PositiveIntegerField()
    """The seat's own move, counted from 0: the page sends it with the move, so a move
    meant for an earlier turn is refused."""
    observation = models.JSONField()
    legal = models.JSONField()
    """The legal actions, expanded (a game's compact form made plain)."""
    asked = models.DateTimeField()
    deadline = models.DateTimeField()
    move = models.JSONField(null=True, blank=True)
    moved = models.DateTimeField(null=True, blank=True)
    expired = models.BooleanField(default=False)
    """The deadline passed with no move: the seat faulted (a timeout) and a stand-in
    played the rest of its moves."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_human_turn_a_number")
        ]
        ordering = ["match_id", "number"]

    def __str__(self) -> str:
        return f"human turn {self.number} of match {self.match_id}"
