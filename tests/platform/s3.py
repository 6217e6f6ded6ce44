"""A real S3-compatible server for tests: moto's, on a free loopback port, with an
empty bucket, and the platform's environment variables that name it."""

from __future__ import annotations

import contextlib
import logging
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import boto3  # type: ignore[import-untyped]  # boto3 ships no type information
from moto.server import ThreadedMotoServer

KEY_ID = "agon-test-key"
SECRET = "agon-test-secret"  # noqa: S105 - moto's, made up
REGION = "us-east-1"


@dataclass
class Bucket:
    client: Any  # boto3's S3 client
    name: str
    endpoint: str

    def environment(self, prefix: str) -> dict[str, str]:
        """The platform's variables for this bucket, its keys under `prefix`."""
        return {
            "AGON_S3_BUCKET": self.name,
            "AGON_S3_ENDPOINT_URL": self.endpoint,
            "AGON_S3_ACCESS_KEY_ID": KEY_ID,
            "AGON_S3_SECRET_ACCESS_KEY": SECRET,
            "AGON_S3_REGION": REGION,
            "AGON_S3_PREFIX": prefix,
        }

    def objects(self) -> dict[str, bytes]:
        """Every object of the bucket: key -> bytes (an object deleted between the
        listing and its read, as a worker may be doing, is left out)."""
        found = {}
        for page in self.client.get_paginator("list_objects_v2").paginate(Bucket=self.name):
            for item in page.get("Contents", []):
                try:
                    body = self.client.get_object(Bucket=self.name, Key=item["Key"])["Body"]
                except self.client.exceptions.NoSuchKey:
                    continue
                found[item["Key"]] = body.read()
        return found

    def settled(self, keys: set[str], seconds: float = 60.0) -> dict[str, bytes]:
        """The bucket's objects once they are exactly `keys`: a worker stores a match's
        timeline and removes its moves so far just after the match is finished."""
        deadline = time.monotonic() + seconds
        while True:
            found = self.objects()
            if set(found) == keys or time.monotonic() > deadline:
                return found
            time.sleep(0.05)

    def empty(self) -> None:
        for key in self.objects():
            self.client.delete_object(Bucket=self.name, Key=key)


def free_port(address: str = "127.0.0.1") -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind((address, 0))
        port: int = probe.getsockname()[1]
        return port


@contextlib.contextmanager
def moto_bucket(name: str = "agon-media", address: str = "127.0.0.1") -> Iterator[Bucket]:
    """An empty bucket on a moto S3 server of its own listening on `address` (loopback,
    or where containers reach the host), stopped at the end."""
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # a line per S3 request
    port = free_port(address)
    server = ThreadedMotoServer(ip_address=address, port=port, verbose=False)
    server.start()
    try:
        endpoint = f"http://{address}:{port}"
        client = boto3.client(
            "s3",
            endpoint_url=endpoint,
            aws_access_key_id=KEY_ID,
            aws_secret_access_key=SECRET,
            region_name=REGION,
        )
        client.create_bucket(Bucket=name)
        bucket = Bucket(client, name, endpoint)
        try:
            yield bucket
        finally:
            # moto keeps its buckets in the process, not in the server: the next server
            # this test process starts would find this one's objects.
            bucket.empty()
            client.delete_bucket(Bucket=name)
    finally:
        server.stop()
