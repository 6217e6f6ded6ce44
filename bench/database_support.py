"""A PostgreSQL database of a bench's own, made fresh for its run and dropped after it.

The URL's last part names the database: anything of that name is dropped first, so a run
that was stopped half-way leaves nothing the next one trips over. `sqlite` gives a file
in a temporary folder instead, for the benches that measure the embedded default too.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def fresh_database(url: str) -> Iterator[str]:
    """`url` (a PostgreSQL URL, or `sqlite`) made empty for the run; yields the URL to use."""
    if url == "sqlite":
        with tempfile.TemporaryDirectory(prefix="agon-bench-") as folder:
            yield f"sqlite:///{folder}/bench.sqlite3"
        return
    import psycopg  # only the PostgreSQL runs need the driver

    base, name = url.rsplit("/", 1)

    def recreate(*, again: bool) -> None:
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            if again:
                admin.execute(f'CREATE DATABASE "{name}"')

    recreate(again=True)
    try:
        yield url
    finally:
        from django.db import connections  # set up by the bench once the database exists

        connections.close_all()
        recreate(again=False)
