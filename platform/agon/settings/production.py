"""Production: every secret and address comes from the environment; nothing defaults.

A missing or malformed value stops the process at start (agon.env.EnvError) rather than
running half-configured; `manage.py check --deploy` with these settings reports no issue
(tests/deploy/test_production_settings.py).

Required: AGON_SECRET_KEY (50+ random characters), AGON_ALLOWED_HOSTS (host names, comma
separated), AGON_DATABASE_URL (postgres://...), AGON_BROKER_URL and AGON_CACHE_URL
(redis://..., two servers: the cache's capped and evicting, the broker's not). Optional
here: AGON_CSRF_TRUSTED_ORIGINS, AGON_SSL_REDIRECT (true), AGON_HSTS_SECONDS (a year),
AGON_DATABASE_CONN_MAX_AGE (60), AGON_DATABASE_PREPARED (true: false behind a pooler in
transaction mode), AGON_SANDBOX (docker), AGON_LOG_FORMAT (json) and
AGON_LOG_LEVEL (INFO), AGON_REQUEST_LOG_QUIET_PATHS (/healthz,/metrics); the stored
files' AGON_S3_* (agon.storage), and those of base.py.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from agon.env import EnvError, env_bool, env_choice, env_int, env_list, env_required, env_str
from agon.logs import LOG_FORMATS, logging_config
from agon.settings.base import *  # noqa: F403
from agon.settings.base import (
    AGON_CACHE_KEY_PREFIX,
    AGON_LOG_LEVEL,
    MIDDLEWARE,
    STORAGES,
    broker_transport,
    cache_setting,
    database,
    sandbox_setting,
)


def same_redis_server(one: str, other: str) -> bool:
    """Whether two redis:// URLs name one server (host and port), whatever the database."""
    first, second = urlsplit(one), urlsplit(other)
    return (first.hostname, first.port or 6379) == (second.hostname, second.port or 6379)


SECRET_KEY = env_required("AGON_SECRET_KEY")
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5 or SECRET_KEY.startswith("django-insecure"):
    raise EnvError(
        "AGON_SECRET_KEY must be a long random string (50 characters or more), e.g. "
        "`python -c 'import secrets; print(secrets.token_urlsafe(50))'`"
    )
if env_bool("AGON_DEBUG", default=False):
    raise EnvError("AGON_DEBUG cannot be on in production: it shows settings and code to anyone")
DEBUG = False

ALLOWED_HOSTS = env_list("AGON_ALLOWED_HOSTS", [])
if not ALLOWED_HOSTS:
    raise EnvError("AGON_ALLOWED_HOSTS must name the host names the site answers to")
CSRF_TRUSTED_ORIGINS = env_list("AGON_CSRF_TRUSTED_ORIGINS", [])
"""Other origins allowed to post forms (https://name), e.g. behind a proxy renaming hosts."""
for _origin in CSRF_TRUSTED_ORIGINS:
    if urlsplit(_origin).scheme not in {"http", "https"} or not urlsplit(_origin).netloc:
        raise EnvError(f"AGON_CSRF_TRUSTED_ORIGINS: {_origin!r} is not like https://name")

DATABASES = {
    "default": database(
        env_required("AGON_DATABASE_URL"),
        conn_max_age=env_int("AGON_DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
    raise EnvError("AGON_DATABASE_URL must name a PostgreSQL database (postgres://...)")
CELERY_BROKER_URL = env_required("AGON_BROKER_URL")
CELERY_BROKER_TRANSPORT = broker_transport(CELERY_BROKER_URL)
# The cache (lists, tournament pages, timelines) is shared by every web process: a Redis
# of its own, capped and evicting (compose's `cache`), never the broker's, which must
# evict nothing and would fill up with entries anonymous visitors can make. Rate limits
# count in the broker's Redis: nothing evicts a counter there.
AGON_CACHE_URL = env_required("AGON_CACHE_URL")
if same_redis_server(AGON_CACHE_URL, CELERY_BROKER_URL):
    raise EnvError(
        "AGON_CACHE_URL must name a Redis server of its own (with maxmemory and "
        "maxmemory-policy allkeys-lru), not the broker's (AGON_BROKER_URL): cached entries "
        "would fill the broker's memory, and an evicting broker loses tasks. "
        "deploy/compose.yaml runs one as the `cache` service."
    )
CACHES = {
    "default": cache_setting(AGON_CACHE_URL, AGON_CACHE_KEY_PREFIX, 0),
    "timelines": cache_setting(AGON_CACHE_URL, f"{AGON_CACHE_KEY_PREFIX}-timelines", 0),
}
AGON_RATE_LIMIT_REDIS_URL = env_str("AGON_RATE_LIMIT_REDIS_URL", CELERY_BROKER_URL)
AGON_SANDBOX = sandbox_setting("docker")

# HTTPS ends at the proxy in front, which says so in X-Forwarded-Proto (it must set or
# strip that header on every request).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env_bool("AGON_SSL_REDIRECT", default=True)
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env_int("AGON_HSTS_SECONDS", 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = True
SECURE_HSTS_PRELOAD = True

# Static files: collected once (`manage.py collectstatic`, at image build), served by
# whitenoise with content-hashed names, so browsers may cache them forever.
STORAGES = {
    **STORAGES,
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}

# JSON lines on stdout, and one line per request.
AGON_LOG_FORMAT = env_choice("AGON_LOG_FORMAT", LOG_FORMATS, "json")
LOGGING = logging_config(log_format=AGON_LOG_FORMAT, level=AGON_LOG_LEVEL)
AGON_REQUEST_LOG_QUIET_PATHS = env_list("AGON_REQUEST_LOG_QUIET_PATHS", ["/healthz", "/metrics"])
MIDDLEWARE = ["agon.logs.RequestLogMiddleware", *MIDDLEWARE]
