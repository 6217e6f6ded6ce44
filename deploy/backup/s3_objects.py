#!/usr/bin/env python3
"""Copy the platform's objects between its S3-compatible bucket and a local folder, for
backup.sh (download) and restore.sh (upload).

The bucket is the platform's: AGON_S3_BUCKET, AGON_S3_ENDPOINT_URL, AGON_S3_ACCESS_KEY_ID,
AGON_S3_SECRET_ACCESS_KEY, AGON_S3_REGION, AGON_S3_PREFIX, AGON_S3_ADDRESSING_STYLE (see
platform/agon/storage.py). Keys are taken relative to the prefix, so a backup restores
under another prefix or into a local folder alike. Moves written while a match runs
(`live/`) are transient and left out.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

import boto3  # type: ignore[import-untyped]  # boto3 ships no type information
from botocore.config import Config  # type: ignore[import-untyped]

SKIPPED = ("live/",)


def env(name: str) -> str | None:
    return os.environ.get(name, "").strip() or None


def bucket_and_prefix() -> tuple[Any, str, str]:
    bucket = env("AGON_S3_BUCKET")
    if bucket is None:
        raise SystemExit("s3_objects.py: AGON_S3_BUCKET must name the bucket")
    client = boto3.client(
        "s3",
        endpoint_url=env("AGON_S3_ENDPOINT_URL"),
        aws_access_key_id=env("AGON_S3_ACCESS_KEY_ID"),
        aws_secret_access_key=env("AGON_S3_SECRET_ACCESS_KEY"),
        region_name=env("AGON_S3_REGION"),
        config=Config(s3={"addressing_style": env("AGON_S3_ADDRESSING_STYLE") or "auto"}),
    )
    prefix = (env("AGON_S3_PREFIX") or "").strip("/")
    return client, bucket, f"{prefix}/" if prefix else ""


def download(folder: Path) -> int:
    client, bucket, prefix = bucket_and_prefix()
    count = 0
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=prefix):
        for item in page.get("Contents", []):
            name = item["Key"][len(prefix) :]
            parts = Path(name).parts
            if not name or name.startswith(SKIPPED) or ".." in parts or Path(name).is_absolute():
                continue
            target = folder / name
            target.parent.mkdir(parents=True, exist_ok=True)
            client.download_file(bucket, item["Key"], str(target))
            count += 1
    return count


def upload(folder: Path) -> int:
    client, bucket, prefix = bucket_and_prefix()
    count = 0
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and not name.startswith(SKIPPED):
            client.upload_file(str(path), bucket, prefix + name)
            count += 1
    return count


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["download", "upload"])
    parser.add_argument("folder", type=Path)
    args = parser.parse_args(argv)
    if args.action == "download":
        args.folder.mkdir(parents=True, exist_ok=True)
        count = download(args.folder)
    else:
        count = upload(args.folder)
    print(f"s3_objects.py: {args.action}ed {count} objects", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
