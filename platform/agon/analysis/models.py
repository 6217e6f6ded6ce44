"""A match's analysis, made once on the `analysis` queue and stored (agon.analysis.services)."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class MatchAnalysis(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        DONE = "done"
        FAILED = "failed"

    match = models.OneToOneField(
        "matches.Match", primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.QUEUED)
    requested = models.DateTimeField(db_index=True)
    """When it was asked for: what the daily bound counts (AGON_ANALYSIS_PER_DAY)."""
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL
    )
    """The owner who asked for it; empty when beat chose the match (ranked, tournament)."""
    sent = models.DateTimeField(null=True, blank=True)
    """When its task was last sent: a queued analysis sent long ago lost its message."""
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    level = models.CharField(max_length=16, blank=True)
    """The search level that judged the positions (engine.search.analysis.LEVELS)."""
    values = models.JSONField(default=list, blank=True)
    """values[step][seat]: each seat's expected share of its meetings, in thousandths."""
    movers = models.JSONField(default=list, blank=True)
    """movers[step]: the seat whose move led to the step (null for step 0)."""
    cpu_seconds = models.FloatField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes = [models.Index(fields=["status", "sent"], name="analysis_status_sent")]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"
