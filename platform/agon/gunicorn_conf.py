"""Gunicorn's configuration for production: `gunicorn -c python:agon.gunicorn_conf agon.wsgi`.

Gunicorn's own records (start, workers booted, stopped or killed, errors) go through the
platform's LOGGING, so with JSON logs (production's default) every line on stdout is
JSON. Requests are logged by `agon.logs.RequestLogMiddleware` with the fields of every
other record; gunicorn's access log would repeat them in another format and is kept quiet
(also when `--access-logfile` is given).
"""

from __future__ import annotations

import os
from typing import Any

from django.conf import settings

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.production")
logconfig_dict: dict[str, Any] = {
    **settings.LOGGING,
    "loggers": {
        "gunicorn.error": {"level": "INFO", "handlers": [], "propagate": True},
        "gunicorn.access": {"level": "WARNING", "handlers": [], "propagate": True},
    },
}
