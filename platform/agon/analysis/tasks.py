"""Celery tasks of the analysis: thin adapters over agon.analysis.services."""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

from agon.analysis import services


@shared_task
def analyses_schedule() -> int:
    """Beat's: the newest finished ranked and tournament matches sent to be analysed,
    within the day's budget; how many."""
    return services.analyses_schedule(limit=settings.AGON_ANALYSIS_PER_RUN)


@shared_task(
    acks_late=True,
    soft_time_limit=settings.AGON_ANALYSIS_TIME_LIMIT - 10,
    time_limit=settings.AGON_ANALYSIS_TIME_LIMIT,
)
def analysis_run(match_id: int) -> bool:
    """One match analysed, on the `analysis` queue (AGON_ANALYSIS_QUEUE)."""
    return services.analysis_run(match_id=match_id)
