"""The embedded setup of `agon up`: SQLite, a file-system broker, bubblewrap boxes."""

from __future__ import annotations

from agon.env import env_bool
from agon.settings.base import *  # noqa: F403
from agon.settings.base import VAR_DIR

DEBUG = env_bool("AGON_DEBUG", default=True)
VAR_DIR.mkdir(parents=True, exist_ok=True)

# A broker that needs no server: messages are files under var/broker.
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "data_folder_in": str(VAR_DIR / "broker" / "queue"),
    "data_folder_out": str(VAR_DIR / "broker" / "queue"),
    "processed_folder": str(VAR_DIR / "broker" / "processed"),
    "store_processed": False,
}
