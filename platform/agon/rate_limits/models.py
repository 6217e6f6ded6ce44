"""The counters of rate limits when there is no Redis (the embedded setup of `agon up`)."""

from __future__ import annotations

from django.db import models


class RateCounter(models.Model):
    """Attempts counted under `key` in a window that ends at `resets_at` (Unix time).
    Written only by `agon.rate_limits.counters.DatabaseCounter`, one atomic statement a hit."""

    key = models.CharField(max_length=200, primary_key=True)
    count = models.IntegerField()
    resets_at = models.FloatField(db_index=True)

    def __str__(self) -> str:
        return f"{self.key}: {self.count}"
