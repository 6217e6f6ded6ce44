"""What the statistics need of a ranked match's replay, read once (agon.game_stats.digests):
the length of the match and each seat's opening move. The rest (ranks, scores) the
matches' own rows hold."""

from __future__ import annotations

from django.db import models


class MatchDigest(models.Model):
    match = models.OneToOneField(
        "matches.Match", primary_key=True, on_delete=models.CASCADE, related_name="digest"
    )
    turns = models.PositiveIntegerField(null=True, blank=True)
    """The turns the match lasted, as its game counts them; empty when its replay could
    not be read or no longer plays through the engine (then it has no openings)."""

    def __str__(self) -> str:
        return f"digest of match {self.match_id}"


class SeatOpening(models.Model):
    seat = models.OneToOneField(
        "matches.MatchSeat", primary_key=True, on_delete=models.CASCADE, related_name="opening"
    )
    label = models.CharField(max_length=120)
    """Its first action, readable and shared by the matches that chose alike
    (agon.game_stats.openings)."""
    position = models.PositiveSmallIntegerField(default=0)
    """When the seat first acted among the seats of its match: 0 moved first (not always
    seat 0: Megalopolis draws its first player)."""

    def __str__(self) -> str:
        return f"opening of {self.seat_id}: {self.label}"
