"""Production: every secret and address comes from the environment; nothing defaults."""

from __future__ import annotations

import dj_database_url

from agon.env import env_bool, env_int, env_list, env_required
from agon.settings.base import *  # noqa: F403

SECRET_KEY = env_required("AGON_SECRET_KEY")
DEBUG = False
ALLOWED_HOSTS = env_list("AGON_ALLOWED_HOSTS", [])
DATABASES = {
    "default": dj_database_url.parse(
        env_required("AGON_DATABASE_URL"), conn_max_age=60, conn_health_checks=True
    )
}
CELERY_BROKER_URL = env_required("AGON_BROKER_URL")
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("AGON_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("AGON_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True
