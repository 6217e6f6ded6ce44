"""The notifications queue's tasks: thin adapters over agon.notifications.delivery."""

from __future__ import annotations

from celery import shared_task

from agon.notifications.delivery import deliveries_overdue, delivery_attempt


@shared_task
def deliver(delivery_id: int) -> str:
    return delivery_attempt(delivery_id=delivery_id)


@shared_task
def sweep() -> int:
    return len(deliveries_overdue())
