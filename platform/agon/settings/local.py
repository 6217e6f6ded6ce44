"""The embedded setup of `agon up`: SQLite, a file-system broker, bubblewrap boxes."""

from __future__ import annotations

from agon.settings.base import *  # noqa: F403
from agon.settings.base import (
    CELERY_BROKER_URL,
    DATABASES,
    VAR_DIR,
    broker_transport,
    filesystem_broker_options,
    sandbox_setting,
    shared_sqlite_options,
)

# DEBUG stays off (base.py: AGON_DEBUG, default false): `agon up` serves other people
# too, and Django's debug pages would show them every URL pattern, settings and code.
VAR_DIR.mkdir(parents=True, exist_ok=True)

# Boxes run the engine and agon_bot of this checkout (bwrap shows them read-only), not
# the copies baked into a Docker bot image, which go stale as soon as the code changes.
AGON_SANDBOX = sandbox_setting("bwrap")

# The web server, the worker's processes and beat share one SQLite file.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"].setdefault("OPTIONS", {}).update(shared_sqlite_options())

# A broker that needs no server: messages are files under var/broker. Every folder is
# absolute: the transport's default for its exchange tables is `control` in the working
# directory of each process, so processes started in different folders would not share
# them. A taken message is renamed into `processed` on the same file system, an atomic
# step, so two consumers never both take it (the default moves it to the system's
# temporary folder, a copy and a delete when that is another file system). `agon up`
# prunes `processed`.
if CELERY_BROKER_URL == "filesystem://":
    CELERY_BROKER_URL = "filesystem://localhost/"  # the same, without kombu's warning
CELERY_BROKER_TRANSPORT = broker_transport(CELERY_BROKER_URL)
BROKER_DIR = VAR_DIR / "broker"
if CELERY_BROKER_URL.startswith("filesystem:"):
    CELERY_BROKER_TRANSPORT_OPTIONS = filesystem_broker_options(BROKER_DIR)
