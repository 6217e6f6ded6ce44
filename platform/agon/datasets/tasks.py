"""Celery tasks of the datasets: thin adapters over agon.datasets.building."""

from __future__ import annotations

from celery import shared_task

from agon.datasets import building


@shared_task
def datasets_build() -> list[dict[str, object]]:
    """Beat's: every game's dataset brought up to date, a bounded step at a time."""
    return [
        {
            "game": report.game,
            "parts_written": report.parts_written,
            "matches_added": report.matches_added,
            "rows_added": report.rows_added,
            "matches_withdrawn": report.matches_withdrawn,
            "more_pending": report.more_pending,
        }
        for report in building.dataset_build_all()
    ]
