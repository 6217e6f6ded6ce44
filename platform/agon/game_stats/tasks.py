"""Celery tasks of the statistics: thin adapters over agon.game_stats.digests."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from agon.game_stats import digests


@shared_task
def game_stats_digest() -> int:
    """Beat's: the ranked matches finished since the last run digested, a bounded step
    at a time; how many were."""
    return digests.digests_make(limit=settings.AGON_GAME_STATS_DIGESTS_PER_RUN)
