"""Counting attempts in windows, exactly, from any number of processes at once.

A window opens at a key's first attempt and lasts the rate's period. Each store counts
with one atomic step, so two web processes counting at the same moment never both see
the same number: with Redis (AGON_RATE_LIMIT_REDIS_URL: production's broker) a Lua
script, INCR and PEXPIRE together; without it (the embedded setup: SQLite) one INSERT ..
ON CONFLICT DO UPDATE .. RETURNING statement on a table, which the database applies one
at a time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import cache
from typing import Protocol

import redis
from django.conf import settings
from django.db import connection

from agon.rate_limits.models import RateCounter


@dataclass(frozen=True)
class Hit:
    count: int
    """Attempts in the window, this one included."""
    resets_in: float
    """Seconds until the window ends."""


class Counter(Protocol):
    def hit(self, key: str, period: int) -> Hit: ...

    def undo(self, key: str) -> None:
        """Take one attempt back (one that was refused, or that turned out not to count)."""


class DatabaseCounter:
    SWEEP_AFTER = 60.0
    """Rows whose window ended this long ago are deleted when a window opens."""

    def __init__(self) -> None:
        self.table = connection.ops.quote_name(RateCounter._meta.db_table)

    def hit(self, key: str, period: int) -> Hit:
        now = time.time()
        # SET's expressions all read the row as it was: both CASEs see the old window.
        sql = (
            f"INSERT INTO {self.table} (key, count, resets_at) VALUES (%s, 1, %s) "  # noqa: S608 - our table
            "ON CONFLICT (key) DO UPDATE SET "
            f"count = CASE WHEN {self.table}.resets_at <= %s THEN 1 "
            f"ELSE {self.table}.count + 1 END, "
            f"resets_at = CASE WHEN {self.table}.resets_at <= %s THEN excluded.resets_at "
            f"ELSE {self.table}.resets_at END "
            "RETURNING count, resets_at"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [key, now + period, now, now])
            count, resets_at = cursor.fetchone()
            if count == 1:
                cursor.execute(
                    f"DELETE FROM {self.table} WHERE resets_at < %s",  # noqa: S608 - our table
                    [now - self.SWEEP_AFTER],
                )
        return Hit(int(count), max(0.0, float(resets_at) - now))

    def undo(self, key: str) -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                f"UPDATE {self.table} SET count = count - 1 "  # noqa: S608 - our table
                "WHERE key = %s AND count > 0 AND resets_at > %s",
                [key, time.time()],
            )


HIT_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
local left = redis.call('PTTL', KEYS[1])
if count == 1 or left < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  left = tonumber(ARGV[1])
end
return {count, left}
"""
UNDO_SCRIPT = """
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
if count > 0 then
  return redis.call('DECR', KEYS[1])
end
return 0
"""


class RedisCounter:
    def __init__(self, url: str, prefix: str) -> None:
        self.client = redis.Redis.from_url(url)
        self.prefix = prefix
        self.hit_script = self.client.register_script(HIT_SCRIPT)
        self.undo_script = self.client.register_script(UNDO_SCRIPT)

    def hit(self, key: str, period: int) -> Hit:
        count, left_ms = self.hit_script(keys=[self.prefix + key], args=[period * 1000])
        return Hit(int(count), int(left_ms) / 1000)

    def undo(self, key: str) -> None:
        self.undo_script(keys=[self.prefix + key])


@cache
def _redis_counter(url: str, prefix: str) -> RedisCounter:
    return RedisCounter(url, prefix)


def rate_counter() -> Counter:
    """Redis when AGON_RATE_LIMIT_REDIS_URL names one (AGON_CACHE_URL by default; the
    broker's Redis in production, which evicts nothing), else the database's table (SQLite
    in the embedded setup; its file is shared too)."""
    if settings.AGON_RATE_LIMIT_REDIS_URL:
        return _redis_counter(
            settings.AGON_RATE_LIMIT_REDIS_URL, f"{settings.AGON_CACHE_KEY_PREFIX}:limit:"
        )
    return DatabaseCounter()
