"""Celery beat tasks of the ladders."""

from __future__ import annotations

from celery import shared_task

from agon.ladders.services import matchmaking_round


@shared_task
def matchmaking() -> int:
    return len(matchmaking_round())
