"""Bots and their versions. A version's archive is immutable once uploaded."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from agon.accounts.names import BOT_NAME_MAX


class Bot(models.Model):
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bots"
    )
    name = models.CharField(max_length=BOT_NAME_MAX)
    """Checked by `agon.bots.services.bot_name_available` (the rules: agon.accounts.names)."""
    game = models.CharField(max_length=32)
    """An engine game id; checked against the registry when the bot is submitted."""
    created = models.DateTimeField(auto_now_add=True)
    open_to_events = models.BooleanField(default=False)
    """Public: its owner lets other users enter it into their private tournaments and
    measure their versions against it; off, only its owner enters it anywhere or tests
    against it (`agon.tournaments.services.entry_create`,
    `agon.version_testing.services.baseline_offered`)."""
    human_games = models.BooleanField(default=True)
    """Public: signed-in users may play it from the browser in unranked human games
    (`agon.human_games`); its owner may turn that off (and still plays it themselves)."""
    retired = models.DateTimeField(null=True, blank=True)
    """When its owner retired it from the ladders (`agon.bots.retirement`); None while it
    plays."""

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="bot_name_per_owner")]
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.owner}/{self.name}"

    def active_version(self) -> BotVersion | None:
        return self.versions.filter(status=BotVersion.Status.ACTIVE).first()


class BotVersion(models.Model):
    class Status(models.TextChoices):
        VALIDATING = "validating"
        ACTIVE = "active"
        REJECTED = "rejected"
        RETIRED = "retired"

    bot = models.ForeignKey(Bot, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    archive = models.FileField(upload_to="bots/")
    filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField()
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.VALIDATING)
    reason = models.TextField(blank=True)
    created = models.DateTimeField(auto_now_add=True)
    paused_reason = models.TextField(blank=True)
    """Why matchmaking leaves this version out (it faulted too often: `agon.bots.pausing`);
    empty while it plays."""
    faults_counted_from = models.DateTimeField(null=True, blank=True)
    """Its faults are judged in the matches made since: its owner resumed it then."""
    builtin = models.CharField(max_length=32, blank=True)
    """A ladder anchor's (agon.ladders.anchors): the builtin bot it is, played by the
    worker itself; then `archive` is empty. Empty for every uploaded version."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["bot", "number"], name="version_number_per_bot"),
            models.UniqueConstraint(
                fields=["bot"],
                condition=models.Q(status="active"),
                name="one_active_version_per_bot",
            ),
        ]
        ordering = ["bot_id", "number"]

    def __str__(self) -> str:
        return f"{self.bot} v{self.number}"

    @property
    def label(self) -> str:
        return f"{self.bot.owner.username}/{self.bot.name}@v{self.number}"
