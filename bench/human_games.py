"""What a human who thinks costs the worker playing their game (agon.matches.human_seat).

A human game's task holds its pool process for the whole game: the bots' boxes are
frozen, and the seat polls its `HumanTurn` row for the move the web writes. This bench
plays turns of a human seat on a real database, a thread acting as the web: it writes
the move after --think seconds, give or take a fifth (drawn from --seed: a move lands
at any point of a poll's interval). For each way of polling, taking turns
(bench/interleave.py `samples`, --rounds turns each):

- backoff 50-500 ms: what ships (POLL_FIRST_SECONDS, growing 1.5 times a look to
  POLL_MAX_SECONDS);
- fixed 50 ms: the baseline, a look every 50 ms all along;
- fixed 1 s: a look a second.

Each turn gives the pickup (the move written -> the seat has it: what the poll adds to
a move's round trip; median and max over the turns); over all the turns, the waiting
thread's CPU time and the database server's (the backend process of the seat's
connection, from /proc: PostgreSQL only), both per minute of waiting, and the looks at
the row per minute. The wall time a waiting human holds is
their thinking plus the pickup: the pool process does nothing else meanwhile.

    .venv/bin/python bench/human_games.py [--think 3] [--rounds 5]

The database is PostgreSQL's agon_bench_human_games (made afresh, dropped at the end);
`--database URL` names another PostgreSQL database, or `sqlite:///FILE` a SQLite one
(made and removed). No broker is used.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from random import Random
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/agon_bench_human_games"
LEGAL = [{"play": "a"}, {"play": "b"}]
WAYS = {
    "backoff 50-500 ms": (0.05, 0.5),
    "fixed 50 ms": (0.05, 0.05),
    "fixed 1 s": (1.0, 1.0),
}


@dataclass
class Turn:
    pickup_ms: float
    waited_minutes: float
    cpu_seconds: float
    database_cpu_seconds: float | None
    """The backend's CPU, from /proc in clock ticks (10 ms): summed over the turns."""
    looks: int


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--think", type=float, default=3.0, help="seconds a move (3)")
    parser.add_argument("--rounds", type=int, default=5, help="turns of each way (5)")
    parser.add_argument("--database", default=DEFAULT_POSTGRES)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with _database(args.database) as url:
        os.environ["AGON_TEST_DATABASE_URL"] = url
        os.environ["DJANGO_SETTINGS_MODULE"] = "agon.settings.test"
        import django

        django.setup()
        from django.core.management import call_command

        from bench.interleave import samples

        call_command("migrate", verbosity=0)
        match, user = _running_game()
        print(f"database: {url.split('@')[-1]} · think {args.think:g} s · load: {_load()}")
        turns = _counter()
        rng = Random(args.seed)
        found = samples(
            {
                name: _turn_of(match, user, first, most, args.think, turns, rng)
                for name, (first, most) in WAYS.items()
            },
            args.rounds,
        )
        print(
            f"{'polling':<18} {'pickup ms':>9} {'max ms':>7} {'CPU ms/min':>10} "
            f"{'db CPU ms/min':>13} {'looks/min':>9} {'held s':>7}"
        )
        for name, figures in found.items():
            pickups = [turn.pickup_ms for turn in figures]
            minutes = sum(turn.waited_minutes for turn in figures)
            database = [turn.database_cpu_seconds for turn in figures]
            measured = [figure for figure in database if figure is not None]
            db_shown = (
                f"{sum(measured) * 1000 / minutes:>13.0f}"
                if len(measured) == len(database)
                else f"{'-':>13}"
            )
            cpu = sum(turn.cpu_seconds for turn in figures) * 1000 / minutes
            looks = sum(turn.looks for turn in figures) / minutes
            print(
                f"{name:<18} {statistics.median(pickups):>9.0f} {max(pickups):>7.0f} "
                f"{cpu:>10.1f} {db_shown} {looks:>9.0f} "
                f"{args.think + statistics.median(pickups) / 1000:>7.2f}"
            )
    return 0


def _counter() -> Iterator[int]:
    number = 0
    while True:
        yield number
        number += 1


def _running_game() -> tuple[Any, Any]:
    from django.contrib.auth.models import User

    from agon.matches.models import Match
    from agon.matches.services import match_claim, match_create

    user = User.objects.create_user("thinker")
    match = match_create(
        kind=Match.Kind.HUMAN, game="akropolis", players=2, options={}, seats=[user, "greedy"]
    )
    match_claim(match_id=match.id)
    return match, user


def _turn_of(
    match: Any,
    user: Any,
    first: float,
    most: float,
    think: float,
    numbers: Iterator[int],
    rng: Random,
) -> Callable[[], Turn]:
    from django.db import connection

    from agon.human_games.services import human_move_submit
    from agon.matches.human_seat import HumanSeat

    def turn() -> Turn:
        number = next(numbers)
        seat = HumanSeat(
            match_id=match.id,
            seat=0,
            turn_seconds=2 * think + 30,
            game_seconds=2 * think + 60,
            poll_first=first,
            poll_max=most,
        )
        seat.number = number
        written: list[float] = []
        thinking = think * rng.uniform(0.8, 1.2)

        def web() -> None:
            time.sleep(thinking)
            human_move_submit(user=user, match_id=match.id, number=number, choice=1)
            written.append(time.monotonic())
            connection.close()

        thread = threading.Thread(target=web)
        database_before = _backend_cpu()
        thread.start()
        assert seat.act({}, LEGAL) == LEGAL[1]
        got = time.monotonic()
        database_after = _backend_cpu()
        thread.join()
        database = (
            None
            if database_before is None or database_after is None
            else database_after - database_before
        )
        return Turn(
            pickup_ms=(got - written[0]) * 1000,
            waited_minutes=seat.waited_seconds / 60,
            cpu_seconds=seat.waiting_cpu_seconds,
            database_cpu_seconds=database,
            looks=seat.polls,
        )

    return turn


def _backend_cpu() -> float | None:
    """The CPU seconds of this thread's PostgreSQL backend process so far (its utime and
    stime from /proc, the server on this machine); None on SQLite."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _load() -> str:
    loadavg = Path("/proc/loadavg")
    return " ".join(loadavg.read_text().split()[:3]) if loadavg.exists() else "?"


@contextmanager
def _database(url: str) -> Iterator[str]:
    if url.startswith("sqlite:///"):
        path = Path(url.removeprefix("sqlite:///"))
        path.unlink(missing_ok=True)
        try:
            yield url
        finally:
            path.unlink(missing_ok=True)
        return
    import psycopg

    base, name = url.rsplit("/", 1)
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield url
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


if __name__ == "__main__":
    raise SystemExit(main())
