"""Serving a stored file from a byte on, for downloads that resume (HTTP Range)."""

from __future__ import annotations

import re
from collections.abc import Iterator

from django.core.files.storage import default_storage

CHUNK_BYTES = 1 << 20
BYTE_RANGE = re.compile(r"bytes=(\d{1,19})-(\d{0,19})")


class UnsatisfiableRange(ValueError):
    """A range that starts past the file's end (416)."""


def requested_range(header: str | None, size: int) -> tuple[int, int] | None:
    """The one range `header` asks of a file of `size` bytes, as (first, last) byte
    inclusive; None for the whole file (no header, or one this server does not take:
    several ranges, a suffix). UnsatisfiableRange if it starts past the end."""
    match = BYTE_RANGE.fullmatch((header or "").strip())
    if match is None:
        return None
    first = int(match.group(1))
    last = int(match.group(2)) if match.group(2) else size - 1
    if first >= size:
        raise UnsatisfiableRange(f"bytes {first}- of a file of {size} bytes")
    if last < first:
        return None
    return first, min(last, size - 1)


def stored_bytes(name: str, first: int, last: int) -> Iterator[bytes]:
    """Bytes `first` to `last` (inclusive) of the stored file, a block at a time."""
    with default_storage.open(name, "rb") as stored:
        stored.seek(first)
        left = last - first + 1
        while left > 0:
            block = stored.read(min(CHUNK_BYTES, left))
            if not block:
                return
            left -= len(block)
            yield block
