"""Celery beat tasks of the ladders."""

from __future__ import annotations

from celery import shared_task

from agon.ladders.services import matchmaking_round, ratings_age


@shared_task
def matchmaking() -> int:
    return len(matchmaking_round())


@shared_task
def age_ratings() -> int:
    return ratings_age()
