"""Statements prepared on the PostgreSQL server, for the busiest reads.

A bot's matches and a bot's detail are a few short statements on keys, each a different
page for each of thousands of bots (rarely found in a cache): PostgreSQL spent more of
their time planning them than running them (bench/README.md, "Fourth round"). A statement
run through `prepared_cursor` is prepared once per connection and then only bound and run.

Django's own cursors bind parameters in the client and prepare nothing (for poolers in
transaction mode); this cursor binds them on the server (`%s` placeholders as usual) and
prepares every statement it runs, on PostgreSQL when the settings allow it
(AGON_DATABASE_PREPARED, which sets psycopg's `prepare_threshold`). Elsewhere, and with
it off, it is Django's cursor. Statements whose text varies with their parameters (a
list of keys written out) should not go through it: each text is prepared once, and
psycopg keeps the last 100 per connection. Queries run through it are logged and counted
as Django's are (the debug cursor in tests).
"""

from __future__ import annotations

from typing import Any

import psycopg
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper


class _PreparingCursor(psycopg.Cursor[Any]):
    """psycopg's server-binding cursor, preparing every statement it runs."""

    def execute(
        self, query: Any, params: Any = None, *, prepare: bool | None = None, binary: Any = None
    ) -> _PreparingCursor:
        return super().execute(query, params, prepare=True, binary=binary)


class _PreparedDebugWrapper(CursorDebugWrapper):
    """Django's debug cursor (tests, DEBUG), logging each statement with its values
    written in, as Django's own cursor does (for a server-binding cursor Django logs None)."""

    def execute(self, sql: Any, params: Any = None) -> Any:
        shown = connection.ops.compose_sql(sql, params)  # type: ignore[attr-defined]
        with self.debug_sql(shown, params, use_last_executed_query=False):
            return CursorWrapper.execute(self, sql, params)


def preparing() -> bool:
    """Whether `prepared_cursor` prepares (PostgreSQL, prepared statements allowed)."""
    return (
        connection.vendor == "postgresql"
        and connection.settings_dict.get("OPTIONS", {}).get("prepare_threshold") is not None
    )


def prepared_cursor() -> CursorWrapper:
    """A cursor of the default database whose statements are prepared on the server (see
    above); Django's cursor where they are not."""
    if not preparing():
        return connection.cursor()
    connection.close_if_health_check_failed()
    connection.ensure_connection()
    connection.validate_thread_sharing()
    with connection.wrap_database_errors:
        raw = _PreparingCursor(connection.connection)
    if connection.queries_logged:
        return _PreparedDebugWrapper(raw, connection)
    return CursorWrapper(raw, connection)
