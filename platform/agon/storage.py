"""Where replays and bot archives are kept: a local folder, or an S3-compatible bucket.

The settings choose (STORAGES["default"]); the code only ever goes through Django's
storage API (`FieldFile.open`, `default_storage`), never a path, so both work alike.

The bucket's variables (read once, at start; a bad value stops the process):

- `AGON_S3_BUCKET`: the bucket (it must exist); setting it switches to the bucket.
- `AGON_S3_ENDPOINT_URL`: the service's URL (MinIO, Ceph, ...); unset for AWS itself.
- `AGON_S3_ACCESS_KEY_ID`, `AGON_S3_SECRET_ACCESS_KEY`: both or neither; without them
  boto3 looks for credentials its own way (instance role, AWS_* variables, ...).
- `AGON_S3_REGION`: the region, if the service wants one.
- `AGON_S3_PREFIX`: a folder inside the bucket for every key (e.g. `agon/`), if shared.
- `AGON_S3_ADDRESSING_STYLE`: `auto` (the default), `path` or `virtual`; many
  self-hosted services want `path`.
"""

from __future__ import annotations

from typing import Any

from agon.env import EnvError, env_choice, env_required, env_str, env_url

S3_BACKEND = "storages.backends.s3.S3Storage"


def s3_storage_from_env() -> dict[str, Any]:
    """The STORAGES entry of the bucket the environment names."""
    key_id = env_str("AGON_S3_ACCESS_KEY_ID", "")
    secret = env_str("AGON_S3_SECRET_ACCESS_KEY", "")
    if bool(key_id) != bool(secret):
        raise EnvError("AGON_S3_ACCESS_KEY_ID and AGON_S3_SECRET_ACCESS_KEY go together")
    return {
        "BACKEND": S3_BACKEND,
        "OPTIONS": {
            "bucket_name": env_required("AGON_S3_BUCKET"),
            "endpoint_url": env_url("AGON_S3_ENDPOINT_URL", "", schemes=("https", "http")) or None,
            "access_key": key_id or None,
            "secret_key": secret or None,
            "region_name": env_str("AGON_S3_REGION", "") or None,
            "location": env_str("AGON_S3_PREFIX", "").strip().strip("/"),
            "addressing_style": env_choice(
                "AGON_S3_ADDRESSING_STYLE", ("auto", "path", "virtual"), "auto"
            ),
            # As on a local disk: a taken name gets a new one, nothing is overwritten.
            "file_overwrite": False,
            # Objects stay private (the bucket's policy); links, as the admin shows, are
            # signed and expire.
            "default_acl": None,
            "querystring_auth": True,
            # A file read from the bucket is held in memory up to this size, then on disk.
            "max_memory_size": 8 * 1024 * 1024,
        },
    }
