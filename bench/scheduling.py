"""The cost of moving a large tournament on: each beat step, and how long it holds the
tournament's row lock, on a database of its own.

A private Swiss of --entrants bots (default 64, 128 and 256, one after the other) is
made, its entry closed, and its rounds played out without a worker: every undecided
game is decided at once with made-up ranks (the entrant with the better hidden strength
wins, a tenth of the games drawn), then the beat's step (`tournaments_advance`) runs,
which stores the next round. Per round it prints:

- pair: the step that stores the next round (the format's pairing included);
- lock: how long that step held the tournament's row (the time inside `_store`, the
  locked part; with code that pairs under the lock, the whole step);
- idle: a beat step right after, with the round's games undecided: what every beat
  costs while a round is being played.

`--code DIR` runs the same against another checkout of Agon (its `platform/`, `engine/`
and migrations first on the path), so two versions can be compared side by side:

    .venv/bin/python bench/scheduling.py                       # this checkout
    .venv/bin/python bench/scheduling.py --code ../agon-before # another one

The database is PostgreSQL's agon_bench_scheduling (made afresh, dropped at the end) by
default; `--database sqlite` uses a temporary SQLite file as `agon up` does. No broker
is used: the matches' tasks are not sent.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from random import Random
from typing import Any

from database_support import fresh_database  # bench/ is on the path: this runs as a script

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_POSTGRES = "postgres://postgres@127.0.0.1:5432/agon_bench_scheduling"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--entrants", type=int, nargs="+", default=[64, 128, 256], help="field sizes"
    )
    parser.add_argument("--rounds", type=int, default=7, help="Swiss rounds (7)")
    parser.add_argument("--code", type=Path, default=ROOT, help="the checkout to measure")
    parser.add_argument(
        "--database",
        default="postgres",
        help="'postgres' (agon_bench_scheduling), 'sqlite', or a database URL",
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    code = args.code.resolve()
    sys.path[:0] = [str(code), str(code / "platform")]
    with fresh_database(DEFAULT_POSTGRES if args.database == "postgres" else args.database) as url:
        os.environ["AGON_TEST_DATABASE_URL"] = url
        os.environ["DJANGO_SETTINGS_MODULE"] = "agon.settings.test"
        import django

        django.setup()
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
        _no_broker()
        print(f"code: {code.name} · database: {url.split('@')[-1]}")
        print(f"{'entrants':>8} {'round':>5} {'pair ms':>9} {'lock ms':>9} {'idle ms':>9}")
        for entrants in args.entrants:
            for row in run(entrants, args.rounds, Random(args.seed)):
                print(
                    f"{entrants:>8} {row['round']:>5} {row['pair']:>9.1f} "
                    f"{row['lock']:>9.1f} {row['idle']:>9.1f}"
                )
                sys.stdout.flush()
    return 0


def _no_broker() -> None:
    """Matches are made but their tasks not sent: there is no worker here."""
    from agon.matches import services

    services._enqueue = lambda match_id: None


def run(entrants: int, rounds: int, rng: Random) -> list[dict[str, Any]]:
    from django.contrib.auth.models import User
    from django.utils import timezone

    from agon.bots.models import Bot, BotVersion
    from agon.tournaments import scheduling
    from agon.tournaments.models import Entry, Tournament, TournamentGame

    owner = User.objects.create(username=f"owner{entrants}")
    bots = Bot.objects.bulk_create(
        Bot(owner=owner, name=f"b{n}", game="akropolis") for n in range(entrants)
    )
    BotVersion.objects.bulk_create(
        BotVersion(
            bot=bot,
            number=1,
            archive="bots/none.py",
            filename="main.py",
            sha256="0" * 64,
            size=1,
            status=BotVersion.Status.ACTIVE,
        )
        for bot in bots
    )
    now = timezone.now()
    tournament = Tournament.objects.create(
        name=f"bench {entrants}",
        game="akropolis",
        format="swiss",
        rounds=rounds,
        seed=7,
        owner=owner,
        max_entrants=entrants,
        entry_opens=now,
        entry_closes=now,
    )
    Entry.objects.bulk_create(
        Entry(tournament=tournament, bot=bot, entered_by=owner) for bot in bots
    )
    strength = {n: rng.gauss(0, 1) for n in range(entrants)}
    timed = _timed_lock(scheduling)
    results: list[dict[str, Any]] = []
    for round_ in range(1, rounds + 1):
        timed.held.clear()
        started = time.perf_counter()
        scheduling.tournaments_advance()
        pair = time.perf_counter() - started
        lock = sum(timed.held) if timed.patched else pair
        idle_started = time.perf_counter()
        scheduling.tournaments_advance()
        idle = time.perf_counter() - idle_started
        results.append(
            {"round": round_, "pair": pair * 1e3, "lock": lock * 1e3, "idle": idle * 1e3}
        )
        undecided = TournamentGame.objects.filter(tournament=tournament, ranks__isnull=True)
        for row in undecided:
            a, b = row.bots
            draw = rng.random() < 0.1
            first = strength[a] + rng.gauss(0, 1) > strength[b] + rng.gauss(0, 1)
            row.ranks = [1, 1] if draw else ([1, 2] if first else [2, 1])
            row.save(update_fields=["ranks"])
    scheduling.tournaments_advance()  # the last results in: it finishes
    tournament.refresh_from_db()
    medians = statistics.median(row["pair"] for row in results)
    print(f"{'':>8} {'':>5} median pair {medians:.1f} ms ({tournament.status})")
    return results


class _timed_lock:
    """Wraps the locked part of a step, where the code has one apart (`_store`)."""

    def __init__(self, scheduling: Any) -> None:
        self.held: list[float] = []
        locked: Callable[..., Any] | None = getattr(scheduling, "_store", None)
        self.patched = locked is not None
        if locked is None:
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return locked(*args, **kwargs)
            finally:
                self.held.append(time.perf_counter() - started)

        scheduling._store = timed


if __name__ == "__main__":
    raise SystemExit(main())
