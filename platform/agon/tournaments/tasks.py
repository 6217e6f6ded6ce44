"""Celery tasks of the tournaments: thin adapters over agon.tournaments.scheduling."""

from __future__ import annotations

from celery import shared_task

from agon.tournaments import scheduling


@shared_task
def tournaments_advance() -> list[int]:
    """Beat's: close the entries due, start the rounds due, finish what is over."""
    return scheduling.tournaments_advance()


@shared_task
def tournament_advance(tournament_id: int) -> bool:
    """Sent when a tournament's last game in play ends, so its next round need not wait
    for beat."""
    return scheduling.tournament_advance(tournament_id=tournament_id)
