"""Where a match's wall time goes, step by step, in a real worker: what waits, what works.

The pipeline of bench/pipeline.py (PostgreSQL, Redis, a prefork worker, bwrap boxes, two
random example bots on the 2-player Akropolis ladder), with the worker started on
`bench/wall_probe.py`, which records a monotonic timestamp at each step of every match
in every worker process; this process records when it queued each match and when the
task was sent. Matches are queued as others finish (`--matches` a turn, `--concurrency`
in flight, as pipeline.py's throughput), and the split printed is the median over the
timed matches of each step:

    queued -> sent -> received (the worker's consumer) -> task starts (a pool process)
    -> claimed -> boxes opening -> boxes up -> first move -> last move -> played (the
    end messages, the bots' exits) -> boxes closed (run_match returns) -> finish
    committed -> timeline stored -> task ends -> the next task starts (same process)

then each turn's round trip (thaw, the turn message, the reply, freeze), the freezer's
writes, the box's opening and closing, and every sleep a match's process took, by the
module that slept. With `--old PATH` and `--fork-server`, the contenders of
pipeline.py (old code, this code, this code with the fork server) take turns,
`--rounds` times each.

    .venv/bin/python bench/match_wall.py [--matches 20] [--rounds 2] [--old PATH] [--fork-server]

Root, PostgreSQL and Redis as pipeline.py (whose options it takes).
"""

from __future__ import annotations

import argparse
import itertools
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench import pipeline  # noqa: E402
from bench.redis_support import cache_server  # noqa: E402
from bench.wall_probe import PROBE_DIR_ENV  # noqa: E402
from sandbox.backends.bwrap import FORK_SERVER_ENV  # noqa: E402

PROBE_MODULE = "agon_wall_probe"

STEPS = (
    ("queued", "sent", "queued -> task sent (create, commit, send)"),
    ("sent", "received", "sent -> received (broker, consumer)"),
    ("received", "prerun", "received -> task starts (pool dispatch)"),
    ("prerun", "claimed", "task starts -> claimed"),
    ("claimed", "run_start", "claimed -> boxes opening (match, bots read)"),
    ("run_start", "boxes_up", "boxes opening -> boxes up"),
    ("boxes_up", "first_move", "boxes up -> first move (bots start)"),
    ("first_move", "last_move", "first move -> last move"),
    ("last_move", "played", "last move -> played (ends, exits)"),
    ("played", "run_end", "played -> boxes closed"),
    ("run_end", "finish_committed", "boxes closed -> finish committed"),
    ("finish_committed", "timeline_stored", "committed -> timeline stored"),
    ("timeline_stored", "postrun", "timeline stored -> task ends"),
    ("postrun", "next_prerun", "task ends -> next task starts (idle)"),
    ("finish_committed", "next_queued", "  of which: committed -> next queued"),
    ("next_queued", "next_prerun", "  of which: next queued -> it starts"),
)
TASK_STEPS = STEPS[3:13]
"""The steps of the task itself, "task starts" to "task ends", one after the other."""
TIMED_STEPS = (
    "turn",
    "freeze",
    "thaw",
    "box_open",
    "box_close",
    "cgroup_made",
    "cgroup_kill_all",
    "cgroup_removed",
    "end",
    "close",
    "unpack",
)


@dataclass
class MatchSteps:
    """What the probes recorded of one match: each step's first time, and the values."""

    times: dict[str, float] = field(default_factory=dict)
    values: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    pid: int = 0
    next: MatchSteps | None = None
    faulted: bool = False
    """The match its pool process played next."""


def read_probes(folder: Path) -> dict[int, MatchSteps]:
    """Every probe file's lines, by match."""
    matches: dict[int, MatchSteps] = defaultdict(MatchSteps)
    for path in sorted(folder.glob("probe-*.log")):
        for line in path.read_text().splitlines():
            match_text, step, at, pid, value = line.split()
            steps = matches[int(match_text)]
            if step in ("prerun", "claimed"):
                steps.pid = int(pid)
            if step == "move":
                steps.times.setdefault("first_move", float(at))
                steps.times["last_move"] = float(at)
            elif step in TIMED_STEPS or step.startswith("sleep:"):
                steps.values[step].append(float(value))
            else:
                steps.times.setdefault(step, float(at))
    _link_next_tasks(matches)
    return matches


def _link_next_tasks(matches: dict[int, MatchSteps]) -> None:
    """Each match's `next_prerun`: when its pool process started its next task."""
    by_pid: dict[int, list[MatchSteps]] = defaultdict(list)
    for steps in matches.values():
        if steps.pid and "prerun" in steps.times:
            by_pid[steps.pid].append(steps)
    for runs in by_pid.values():
        runs.sort(key=lambda steps: steps.times["prerun"])
        for run, following in itertools.pairwise(runs):
            run.times["next_prerun"] = following.times["prerun"]
            run.next = following


def step_medians(matches: Sequence[MatchSteps]) -> dict[str, float | None]:
    """The median of each step over the matches that have both ends of it (seconds)."""
    medians: dict[str, float | None] = {}
    for start, end, _ in STEPS:
        spans = [
            m.times[end] - m.times[start] for m in matches if start in m.times and end in m.times
        ]
        medians[f"{start}>{end}"] = statistics.median(spans) if spans else None
    walls = [m.times["postrun"] - m.times["prerun"] for m in matches if "postrun" in m.times]
    medians["task"] = statistics.median(walls) if walls else None
    added = [
        sum(m.times[end] - m.times[start] for start, end, _ in TASK_STEPS)
        for m in matches
        if all(start in m.times and end in m.times for start, end, _ in TASK_STEPS)
    ]
    medians["task steps"] = statistics.median(added) if added else None
    return medians


def value_summary(matches: Sequence[MatchSteps]) -> dict[str, tuple[float, float, float]]:
    """Per timed step: (calls a match, median call in seconds, total a match in seconds)."""
    names = sorted({name for m in matches for name in m.values})
    summary = {}
    for name in names:
        every = [value for m in matches for value in m.values.get(name, [])]
        if every:
            summary[name] = (
                len(every) / len(matches),
                statistics.median(every),
                sum(every) / len(matches),
            )
    return summary


def run_contender(
    ladder: Any,
    seats: Sequence[Any],
    count: int,
    in_flight: int,
    probe_dir: Path,
) -> tuple[list[MatchSteps], float]:
    """`count` matches queued as others finish, their steps, and matches a minute."""
    from agon.celery import app as celery_app

    sent: dict[int, float] = {}
    send_task = celery_app.send_task

    def note_and_send(name: str, args: Sequence[Any], **options: Any) -> Any:
        sent[int(args[0])] = time.monotonic()  # just before: the worker may get it at once
        return send_task(name, args, **options)

    celery_app.send_task = note_and_send  # type: ignore[method-assign,assignment]
    queued: dict[int, float] = {}
    pending: set[int] = set()
    began = time.monotonic()
    try:
        while len(queued) < count or pending:
            while len(queued) < count and len(pending) < in_flight:
                at = time.monotonic()
                match_id = pipeline.queue(ladder, seats).id
                queued[match_id] = at
                pending.add(match_id)
            pending -= pipeline.finished(list(pending))
            time.sleep(pipeline.THROUGHPUT_POLL_SECONDS)
    finally:
        del celery_app.send_task  # the app's own again
    rate = count / (time.monotonic() - began) * 60
    from agon.matches.models import Match

    faulted = Match.objects.filter(id__in=list(queued)).exclude(faults=[]).count()
    steps = read_probes(probe_dir)
    timed = []
    for match_id, at in queued.items():
        one = steps.setdefault(match_id, MatchSteps())
        one.times["queued"] = at
        if match_id in sent:
            one.times["sent"] = sent[match_id]
        timed.append(one)
    for one in timed[:faulted]:
        one.faulted = True  # counted, whichever they were
    for one in timed:
        if one.next is not None and "queued" in one.next.times:
            one.times["next_queued"] = one.next.times["queued"]
    return timed, rate


def measure(args: argparse.Namespace, env: dict[str, str], var_dir: Path, worker: Any) -> None:
    from agon.ladders.models import Ladder

    versions = pipeline.enter_bots({f"random-{i}": "random_bot.py" for i in range(2)})
    two = Ladder.objects.get(game="akropolis", players=2)
    seats = [versions["random-0"], versions["random-1"]]
    os.killpg(worker.pid, 9)  # the probed workers take the matches from here on
    worker.wait()
    without = {FORK_SERVER_ENV: "0"}
    contenders: dict[str, tuple[Path, dict[str, str]]] = {}
    if args.old is not None:
        contenders["old"] = (args.old.resolve(), without)
    contenders["new"] = (ROOT, without)
    if args.fork_server:
        if args.old is not None:
            contenders["old-fork"] = (args.old.resolve(), {FORK_SERVER_ENV: "1"})
        contenders["fork"] = (ROOT, {FORK_SERVER_ENV: "1"})
    module_dir = var_dir / "probe-module"
    module_dir.mkdir()
    shutil.copy(Path(__file__).with_name("wall_probe.py"), module_dir / f"{PROBE_MODULE}.py")
    results: dict[str, list[MatchSteps]] = {name: [] for name in contenders}
    rates: dict[str, list[float]] = {name: [] for name in contenders}
    loads = [os.getloadavg()[0]]
    for turn in range(args.rounds):
        for name, (root, extra) in contenders.items():
            probe_dir = var_dir / f"probes-{name}-{turn}"
            probe_dir.mkdir()
            path = os.pathsep.join([str(root), str(root / "platform"), str(module_dir)])
            contender = start_probed_worker(
                {**env, **extra, PROBE_DIR_ENV: str(probe_dir), "PYTHONPATH": path},
                var_dir / f"worker-{name}.log",
                args.concurrency,
                root,
            )
            try:
                # Untimed: each pool process's first box compiles the bot libraries.
                pipeline.throughput(two, seats, 2 * args.concurrency, args.concurrency)
                steps, rate = run_contender(two, seats, args.matches, args.concurrency, probe_dir)
            finally:
                os.killpg(contender.pid, 9)
                contender.wait()
            results[name] += steps
            rates[name].append(rate)
            loads.append(os.getloadavg()[0])
    print_split(args, contenders, results, rates, loads)


def start_probed_worker(env: dict[str, str], log: Path, concurrency: int, root: Path) -> Any:
    """pipeline.start_worker, its app module the probe's (on the PYTHONPATH in `env`)."""
    from django.conf import settings

    from agon.worker_command import worker_command

    command = worker_command(
        queues=settings.AGON_WORKER_QUEUES,
        concurrency=concurrency,
        hostname="bench@%h",
        alone=True,
    )
    command[command.index("agon.celery")] = PROBE_MODULE
    return pipeline.start_command(command, env, log, root)


def print_split(
    args: argparse.Namespace,
    contenders: dict[str, tuple[Path, dict[str, str]]],
    results: dict[str, list[MatchSteps]],
    rates: dict[str, list[float]],
    loads: list[float],
) -> None:
    names = list(contenders)
    print(
        f"Wall time of a random v random (2p) Akropolis match, {args.matches} matches a turn "
        f"queued as others finish, {args.rounds} turns each, worker concurrency "
        f"{args.concurrency}, bwrap boxes; {os.cpu_count()} CPUs, load average "
        f"{min(loads):.1f}-{max(loads):.1f}"
    )
    for name in names:
        root, extra = contenders[name]
        print(f"  {name}: {root}, {FORK_SERVER_ENV}={extra[FORK_SERVER_ENV]}")
    print(f"  {'step (median ms)':<46}" + "".join(f"{name:>9}" for name in names))
    medians = {name: step_medians(results[name]) for name in names}
    for start, end, label in STEPS:
        print(f"  {label:<46}" + "".join(_ms(medians[name][f"{start}>{end}"]) for name in names))
    print(f"  {'the task (starts -> ends)':<46}" + "".join(_ms(medians[n]["task"]) for n in names))
    steps_row = "  its steps added up, per match"
    print(f"{steps_row:<48}" + "".join(_ms(medians[n]["task steps"]) for n in names))
    cycle: dict[str, float | None] = {}
    for name in names:
        task, idle = medians[name]["task"], medians[name]["postrun>next_prerun"]
        cycle[name] = task + idle if task is not None and idle is not None else None
    print(f"  {'a slot cycle (task + idle)':<46}" + "".join(_ms(cycle[n]) for n in names))
    print(
        f"  {'matches with a fault (a bot replaced)':<46}"
        + "".join(f"{sum(m.faulted for m in results[name]):9d}" for name in names)
    )
    print(
        f"  {'matches/min (median of turns)':<46}"
        + "".join(f"{statistics.median(rates[name]):9.0f}" for name in names)
    )
    summaries = {name: value_summary(results[name]) for name in names}
    print("  Timed calls (calls a match / median call ms / total ms a match):")
    every = sorted({step for summary in summaries.values() for step in summary})
    for step in every:
        cells = []
        for name in names:
            got = summaries[name].get(step)
            cells.append(f"{got[0]:5.1f} {got[1] * 1000:6.2f} {got[2] * 1000:7.1f}" if got else "-")
        print(f"    {step:<44}" + "   ".join(f"{cell:>20}" for cell in cells))


def _ms(seconds: float | None) -> str:
    return f"{seconds * 1000:9.1f}" if seconds is not None else f"{'-':>9}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=20, help="timed matches a turn")
    parser.add_argument("--rounds", type=int, default=2, help="turns each contender takes")
    parser.add_argument("--database-url", default="postgres://postgres@127.0.0.1:5432/agon_bench")
    parser.add_argument("--broker-url", default="redis://127.0.0.1:6379/14")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--old", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--fork-server", action="store_true", help="this code with it, too")
    pipeline.add_redis_arguments(parser)
    args = parser.parse_args()
    var_dir = Path(tempfile.mkdtemp(prefix="agon-bench-wall-"))
    with cache_server(args.cache_url) as cache_url:
        env = pipeline.configure(args, var_dir, cache_url)
        with pipeline.running_pipeline(args, env, var_dir) as worker:
            measure(args, env, var_dir, worker)


if __name__ == "__main__":
    main()
