"""The platform's cost around a match: the whole pipeline against the engine and sandbox.

A real pipeline on this machine: PostgreSQL, Redis, one Celery worker (prefork,
concurrency 2) started here, bwrap boxes, and the example bots of examples/bots/
entered and validated like any upload. It prints, per pairing of bots:

- match s: `Match.match_seconds`, the engine and the boxes (boxes started to gone);
- task s: `Match.pipeline_seconds`: claim, load the bots, play, store the replay and
  seats (the rest of the finishing transaction, ratings and commit, counts in ->done);
- ->start s: from `match_create` (the task is sent on commit) to the worker's claim
  (`Match.started - Match.created`): the broker and Celery;
- ->done s: from `match_create` until this process sees the match finished (it polls
  every 5 ms);

and the platform's overhead as a share of the match time: in the task, and in all
(->done). Then how many matches a minute go through, queued as others finish and all at
once, and the overheads against the 10% target: for the worst pairing (the shortest
matches) and for all the timed matches together.

    .venv/bin/python bench/pipeline.py [--matches 40]

With `--old PATH` (a checkout of other code, e.g. `git worktree add <folder> <commit>`
of the commit before a change), it measures instead the throughput of random v random
(2p) matches with the old code's worker and this checkout's taking turns, `--rounds`
times each, one worker at a time on the same database and bots: matches a minute,
old and new, in one run. With `--fork-server`, this checkout's worker takes its turns
twice: with bwrap boxes started per bot (`new`) and made by the fork server (`fork`,
AGON_SANDBOX_FORK_SERVER=1).

It needs root (boxes use cgroups) and makes a database of its own (agon_bench, dropped
at the end). Its broker is Redis database 14, where every key it makes starts with
--redis-prefix and only those are deleted, before and after; its cache a capped
redis-server it starts for the run (production settings want the cache on a server of
its own). Options change them all.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from agon.worker_command import worker_command  # noqa: E402
from bench.redis_support import (  # noqa: E402
    DEFAULT_PREFIX,
    cache_server,
    delete_keys,
    key_prefix,
    prefix_environment,
)
from sandbox.backends.bwrap import FORK_SERVER_ENV  # noqa: E402

TARGET_OVERHEAD = 0.10
LATENCY_POLL_SECONDS = 0.005
"""How often this process looks for a match finished when timing one: it sees it half
of this late on average. Polling much faster takes CPU from the worker."""
THROUGHPUT_POLL_SECONDS = 0.05


@dataclass
class Timing:
    match_seconds: float
    task_seconds: float
    queue_to_start: float
    queue_to_done: float


def configure(args: argparse.Namespace, var_dir: Path, cache_url: str) -> dict[str, str]:
    """Production settings on the bench's own database, broker keys and cache; the
    environment the worker gets too."""
    env = {
        "DJANGO_SETTINGS_MODULE": "agon.settings.production",
        "AGON_SECRET_KEY": secrets.token_urlsafe(50),
        "AGON_CACHE_URL": cache_url,
        "AGON_ALLOWED_HOSTS": "127.0.0.1",
        "AGON_DATABASE_URL": args.database_url,
        "AGON_BROKER_URL": args.broker_url,
        "AGON_VAR_DIR": str(var_dir),
        "AGON_SANDBOX": "bwrap",
        "AGON_SSL_REDIRECT": "false",
        "AGON_LOG_LEVEL": "WARNING",
        "AGON_LOG_FORMAT": "plain",  # the worker's " ready." line is read below
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        **prefix_environment(args.redis_prefix),
    }
    os.environ.update(env)
    return env


def recreate_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    parts = urlsplit(url)
    admin = urlunsplit(parts._replace(scheme="postgresql", path="/postgres"))
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{parts.path.lstrip("/")}" WITH (FORCE)')


def start_worker(
    env: dict[str, str],
    log_path: Path,
    concurrency: int,
    beat_schedule: Path | None = None,
    root: Path = ROOT,
) -> subprocess.Popen[bytes]:
    """The worker, for every queue, running the code of the checkout at `root`; with
    `beat_schedule` (beat's state file), running Celery beat too."""
    from django.conf import settings

    beat = ["--beat", "--schedule", str(beat_schedule)] if beat_schedule is not None else []
    command = worker_command(
        queues=settings.AGON_WORKER_QUEUES, concurrency=concurrency, hostname="bench@%h", alone=True
    )
    if root != ROOT:
        env = {**env, "PYTHONPATH": os.pathsep.join([str(root), str(root / "platform")])}
    return start_command([*command, *beat], env, log_path, root)


def start_command(
    command: list[str], env: dict[str, str], log_path: Path, root: Path
) -> subprocess.Popen[bytes]:
    """A worker's `command` run in `root` with `env`, once it says it is ready."""
    with log_path.open("wb") as log:
        worker = subprocess.Popen(  # noqa: S603 - a fixed argv
            command,
            cwd=root,
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    deadline = time.monotonic() + 60
    while " ready." not in log_path.read_text(errors="replace"):
        if worker.poll() is not None or time.monotonic() > deadline:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(worker.pid, 9)  # else it would go on taking the bench's tasks
            worker.wait()
            raise SystemExit(f"the worker did not start:\n{log_path.read_text()[-3000:]}")
        time.sleep(0.1)
    return worker


@contextlib.contextmanager
def running_pipeline(
    args: argparse.Namespace,
    env: dict[str, str],
    var_dir: Path,
    beat_schedule: Path | None = None,
) -> Iterator[subprocess.Popen[bytes]]:
    """A fresh database (migrated, with the default ladders) and broker, and a worker on
    them (with beat if `beat_schedule`); afterwards, whatever happened, the worker stopped
    and everything removed, and the end of the worker's log shown if the bench gave up."""
    recreate_database(args.database_url)
    delete_keys(args.broker_url, args.redis_prefix)
    worker = None
    try:
        import django

        django.setup()
        from django.core.management import call_command

        from agon.ladders.services import ladder_ensure_defaults

        call_command("migrate", interactive=False, verbosity=0, skip_checks=True)
        ladder_ensure_defaults()
        worker = start_worker(env, var_dir / "worker.log", args.concurrency, beat_schedule)
        yield worker
    except SystemExit:
        worker_log = var_dir / "worker.log"
        if worker_log.exists():
            print("The end of the worker's log:", file=sys.stderr)
            print(worker_log.read_text(errors="replace")[-4000:], file=sys.stderr)
        raise
    finally:
        if worker is not None:
            with contextlib.suppress(ProcessLookupError):  # side_by_side stopped it
                os.killpg(worker.pid, 9)
            worker.wait()
        from django.db import connections

        connections.close_all()
        drop_database(args.database_url)
        delete_keys(args.broker_url, args.redis_prefix)
        shutil.rmtree(var_dir, ignore_errors=True)


def wait_until(check: Callable[[], bool], timeout: float, what: str, interval: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"gave up waiting for {what}")
        time.sleep(interval)


def validated(version_id: int) -> bool:
    from agon.bots.models import BotVersion

    return BotVersion.objects.get(pk=version_id).status != BotVersion.Status.VALIDATING


def enter_bots(names: dict[str, str]) -> dict[str, Any]:
    """Bots from example files (name -> file), validated by the worker; their versions."""
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile

    from agon.bots.models import BotVersion
    from agon.bots.services import bot_submit

    owner = User.objects.create_user("bench")
    versions = {}
    for name, filename in names.items():
        data = (ROOT / "examples" / "bots" / filename).read_bytes()
        bot = bot_submit(
            owner=owner, name=name, game="akropolis", upload=SimpleUploadedFile(filename, data)
        )
        versions[name] = bot.versions.get()
    for version in versions.values():
        wait_until(functools.partial(validated, version.pk), 120, f"{version} to be validated")
        version.refresh_from_db()
        if version.status != BotVersion.Status.ACTIVE:
            raise SystemExit(f"{version} was rejected: {version.reason}")
    return versions


def queue(ladder: Any, seats: Sequence[Any]) -> Any:
    from agon.matches.models import Match
    from agon.matches.services import match_create

    return match_create(
        kind=Match.Kind.RANKED,
        ladder=ladder,
        game=ladder.game,
        players=ladder.players,
        options={},
        seats=list(seats),
    )


def finished(match_ids: Sequence[int]) -> set[int]:
    from agon.matches.models import Match

    done = Match.objects.filter(
        id__in=match_ids, status__in=[Match.Status.FINISHED, Match.Status.FAILED]
    )
    failed = done.filter(status=Match.Status.FAILED).values_list("id", "error")
    for match_id, error in failed:
        raise SystemExit(f"match {match_id} failed: {error}")
    return set(done.values_list("id", flat=True))


def is_finished(match_id: int) -> bool:
    return bool(finished([match_id]))


def one_at_a_time(ladder: Any, seats: Sequence[Any], count: int) -> list[Timing]:
    from agon.matches.models import Match

    timings = []
    for _ in range(count):
        began = time.monotonic()
        match = queue(ladder, seats)
        wait_until(
            functools.partial(is_finished, match.id),
            300,
            f"match {match.id}",
            interval=LATENCY_POLL_SECONDS,
        )
        done = time.monotonic() - began
        match = Match.objects.get(id=match.id)
        assert match.match_seconds and match.pipeline_seconds and match.started
        start = (match.started - match.created).total_seconds()
        timings.append(Timing(match.match_seconds, match.pipeline_seconds, start, done))
    return timings


def throughput(ladder: Any, seats: Sequence[Any], count: int, in_flight: int) -> float:
    """Matches a minute with `in_flight` matches queued or running at any time."""
    pending: dict[int, float] = {}
    began, created, done = time.monotonic(), 0, 0
    while done < count:
        while created < count and len(pending) < in_flight:
            pending[queue(ladder, seats).id] = time.monotonic()
            created += 1
        for match_id in finished(list(pending)):
            del pending[match_id]
            done += 1
        time.sleep(THROUGHPUT_POLL_SECONDS)
    return count / (time.monotonic() - began) * 60


def report(label: str, timings: list[Timing]) -> tuple[float, float]:
    """Print a pairing's means; its overhead (in the task, in all) as shares of the match."""
    match = statistics.fmean(t.match_seconds for t in timings)
    task = statistics.fmean(t.task_seconds for t in timings)
    start = statistics.fmean(t.queue_to_start for t in timings)
    whole = statistics.fmean(t.queue_to_done for t in timings)
    in_task = (task - match) / match
    in_all = (whole - match) / match
    print(
        f"  {label:<24} {match:8.3f} {task:8.3f} {start:9.3f} {whole:9.3f} "
        f"{in_task:8.1%} {in_all:8.1%}   ({whole - match:.3f} s a match)"
    )
    return in_task, in_all


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=40, help="matches per throughput run")
    parser.add_argument("--sequential", type=int, default=8, help="matches per latency run")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/agon_bench")
    parser.add_argument("--broker-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--old", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--rounds", type=int, default=3, help="turns each code takes (--old)")
    parser.add_argument(
        "--waiting",
        type=int,
        default=0,
        help="side by side: matches kept waiting in the queue besides those played, as "
        "matchmaking keeps some (default 0: each queued as another finishes)",
    )
    parser.add_argument(
        "--slots",
        type=int,
        default=0,
        help="side by side: the last contender again, its worker at this concurrency",
    )
    parser.add_argument(
        "--fork-server",
        action="store_true",
        help="side by side: this checkout with bwrap's fork server and without (and --old)",
    )
    add_redis_arguments(parser)
    args = parser.parse_args()

    var_dir = Path(tempfile.mkdtemp(prefix="agon-bench-pipeline-"))
    with cache_server(args.cache_url) as cache_url:
        bench(args, configure(args, var_dir, cache_url), var_dir)


def add_redis_arguments(parser: argparse.ArgumentParser) -> None:
    """--cache-url and --redis-prefix (--broker-url is the caller's)."""
    parser.add_argument(
        "--cache-url",
        help="the cache: a Redis server other than the broker's (default: a capped "
        "redis-server started for the run)",
    )
    parser.add_argument(
        "--redis-prefix",
        type=key_prefix,
        default=DEFAULT_PREFIX,
        help=f"the start of every key in the broker's Redis (default {DEFAULT_PREFIX}); "
        "those keys are deleted before and after",
    )


def side_by_side(
    args: argparse.Namespace, env: dict[str, str], var_dir: Path, worker: subprocess.Popen[bytes]
) -> None:
    """Matches a minute of the old code's worker and this checkout's, taking turns."""
    from agon.ladders.models import Ladder

    versions = enter_bots({f"random-{i}": "random_bot.py" for i in range(2)})
    two = Ladder.objects.get(game="akropolis", players=2)
    seats = [versions["random-0"], versions["random-1"]]
    os.killpg(worker.pid, 9)  # the contenders' workers take the matches from here on
    worker.wait()
    contenders = pipeline_contenders(args)
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    cpu: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
    memory: dict[str, list[tuple[float, float]]] = {name: [] for name in contenders}
    loads = [os.getloadavg()[0]]
    for _ in range(args.rounds):
        for name, contender_spec in contenders.items():
            root, extra, slots = contender_spec
            log = var_dir / f"worker-{name}.log"
            contender = start_worker({**env, **extra}, log, slots, root=root)
            in_flight = slots + args.waiting
            try:
                # Untimed: each pool process's first box compiles the bot libraries
                # (the new code), once in the life of a worker.
                throughput(two, seats, 2 * slots, in_flight)
                before = _tree_cpu(contender.pid)
                rates[name].append(throughput(two, seats, args.matches, in_flight))
                after = _tree_cpu(contender.pid)
                memory[name].append(_memory_a_slot(contender.pid, slots))
                cpu[name].append(
                    (
                        (after[0] - before[0]) / args.matches,
                        (after[1] - before[1]) / args.matches,
                    )
                )
            finally:
                os.killpg(contender.pid, 9)
                contender.wait()
            loads.append(os.getloadavg()[0])
    how = f"{args.waiting} more kept waiting" if args.waiting else "queued as others finish"
    print(
        f"Random v random (2p) Akropolis, {args.matches} matches a turn {how}, worker "
        f"concurrency {args.concurrency}, bwrap boxes; {os.cpu_count()} CPUs, "
        f"load average {min(loads):.1f}-{max(loads):.1f}"
    )
    for name, (root, extra, slots) in contenders.items():
        at = f", concurrency {slots}" if slots != args.concurrency else ""
        print(
            f"  {name} ({root}, {FORK_SERVER_ENV}={extra[FORK_SERVER_ENV]}{at}): matches/min "
            + " ".join(f"{rate:.0f}" for rate in rates[name])
            + f", median {statistics.median(rates[name]):.0f}; CPU s a match: "
            + f"worker {statistics.median(own for own, _ in cpu[name]):.3f}, "
            + f"boxes {statistics.median(boxes for _, boxes in cpu[name]):.3f}"
        )
        main_mb = statistics.median(main for main, _ in memory[name])
        slot_mb = statistics.median(slot for _, slot in memory[name])
        print(
            f"    memory (PSS): the worker's main process {main_mb:.0f} MB, a slot {slot_mb:.0f} MB"
        )
    first, *others = contenders
    for name in others:
        ratio = statistics.median(rates[name]) / statistics.median(rates[first])
        print(f"  {name} / {first}: {ratio:.2f}x")


def pipeline_contenders(args: argparse.Namespace) -> dict[str, tuple[Path, dict[str, str], int]]:
    """Each contender's code, settings and concurrency: `old` (--old), `new`, `fork`
    (--fork-server), and with --slots the last of them again at that concurrency."""
    without = {FORK_SERVER_ENV: "0"}
    contenders = {}
    if args.old is not None:
        contenders["old"] = (args.old.resolve(), without, args.concurrency)
    contenders["new"] = (ROOT, without, args.concurrency)
    if args.fork_server:
        contenders["fork"] = (ROOT, {FORK_SERVER_ENV: "1"}, args.concurrency)
    if args.slots:
        name, (root, extra, _) = list(contenders.items())[-1]
        contenders[f"{name}@{args.slots}"] = (root, extra, args.slots)
    return contenders


def _memory_a_slot(pid: int, slots: int) -> tuple[float, float]:
    """MB of proportional set size (shared pages split among their users): the worker's
    main process, and a slot's (a pool process with everything below it, its fork
    server, a box left: the pool's total over the slots)."""
    main = _pss_mb(pid)
    pool = _processes_below(pid)
    return main, sum(_pss_mb(process) for process in pool) / slots


def _pss_mb(pid: int) -> float:
    try:
        text = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0.0
    for line in text.splitlines():
        if line.startswith("Pss:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _processes_below(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parents[int(entry.name)] = int(
                    (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
                )
            except OSError:
                continue
    below: set[int] = set()
    frontier = {pid}
    while frontier:
        frontier = {child for child, parent in parents.items() if parent in frontier} - below
        below |= frontier
    return below


def _tree_cpu(pid: int) -> tuple[float, float]:
    """CPU seconds of a worker and its pool's processes, and of every process below them,
    live or waited for (the boxes: bubblewrap waits for its bot; a fork server for the
    boxes it forked, and lives as long as its pool process; the pool's one-off compile
    of the bot libraries)."""
    tick = os.sysconf("SC_CLK_TCK")
    stats: dict[int, list[str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stats[int(entry.name)] = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
    pool = {pid} | {child for child, fields in stats.items() if fields[1] == str(pid)}
    below: set[int] = set()
    parents = pool
    while parents:
        parents = {c for c, fields in stats.items() if int(fields[1]) in parents} - pool - below
        below |= parents
    own = children = 0.0
    for process in pool:
        own += (int(stats[process][11]) + int(stats[process][12])) / tick
        children += (int(stats[process][13]) + int(stats[process][14])) / tick
    for process in below:  # live: what they spent, and what their own dead children did
        fields = stats[process]
        children += sum(int(fields[index]) for index in (11, 12, 13, 14)) / tick
    return own, children


def bench(args: argparse.Namespace, env: dict[str, str], var_dir: Path) -> None:
    with running_pipeline(args, env, var_dir) as worker:
        if args.old is not None or args.fork_server or args.slots:
            side_by_side(args, env, var_dir, worker)
            return
        from agon.ladders.models import Ladder

        versions = enter_bots(
            {f"random-{i}": "random_bot.py" for i in range(4)} | {"lookahead": "lookahead_bot.py"}
        )
        randoms = [versions[f"random-{i}"] for i in range(4)]
        lookahead = versions["lookahead"]
        two, four = (Ladder.objects.get(game="akropolis", players=p) for p in (2, 4))

        print(
            f"Pipeline: PostgreSQL, Redis, one Celery worker (prefork, concurrency "
            f"{args.concurrency}), bwrap boxes, example bots; {os.cpu_count()} CPUs, "
            f"load average {os.getloadavg()[0]:.1f} at the start"
        )
        print(f"One match at a time, means of {args.sequential}:")
        print(
            f"  {'pairing':<24} {'match s':>8} {'task s':>8} {'->start s':>9} {'->done s':>9} "
            f"{'in task':>8} {'in all':>8}   overhead"
        )
        pairings = {
            "random v random (2p)": one_at_a_time(two, randoms[:2], args.sequential),
            "random x4 (4p)": one_at_a_time(four, randoms, args.sequential),
            "lookahead v random (2p)": one_at_a_time(
                two, [lookahead, randoms[0]], max(1, args.sequential // 4)
            ),
        }
        shares = [report(label, timings) for label, timings in pairings.items()]
        everything = [t for timings in pairings.values() for t in timings]
        spent = sum(t.match_seconds for t in everything)
        verdicts = [
            ("in the task, worst pairing", max(in_task for in_task, _ in shares)),
            (
                "in the task, all together",
                sum(t.task_seconds - t.match_seconds for t in everything) / spent,
            ),
            ("queue to finished, worst pairing", max(in_all for _, in_all in shares)),
            (
                "queue to finished, all together",
                sum(t.queue_to_done - t.match_seconds for t in everything) / spent,
            ),
        ]
        for in_flight, how in ((args.concurrency, "queued as others finish"), (0, "all queued")):
            count = in_flight or args.matches
            rate = throughput(two, randoms[:2], args.matches, count)
            print(
                f"Throughput, random v random (2p), {args.matches} matches {how}: "
                f"{rate:.0f} matches/min"
            )
        print(f"The platform's overhead, as a share of the match time ({len(everything)} matches):")
        for label, share in verdicts:
            verdict = "within" if share <= TARGET_OVERHEAD else "over"
            print(f"  {label:<34} {share:6.1%}  ({verdict} the {TARGET_OVERHEAD:.0%} target)")


if __name__ == "__main__":
    main()
