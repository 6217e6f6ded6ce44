"""Celery tasks of the competitions: thin adapters over agon.competitions.phases."""

from __future__ import annotations

from celery import shared_task

from agon.competitions import phases


@shared_task
def competitions_advance() -> list[tuple[int, str]]:
    """Beat's: every competition's phase changed when it is due, each change once."""
    return phases.competitions_advance()
