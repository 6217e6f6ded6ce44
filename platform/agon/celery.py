"""The Celery app: `celery -A agon.celery worker` (platform/ on the path)."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")

app = Celery("agon")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks(["agon.matches", "agon.ladders"])
