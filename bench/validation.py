"""Upload to validated with every ladder busy: what a new bot author waits for.

`agon up` as `make run` starts it (SQLite, the example bots entered on every ladder,
web, one worker of concurrency 2, beat), once on the embedded file-system broker and
once on Redis. When every ladder with bots has had ranked matches (matchmaking keeps its
queue full from then on), this process uploads a bot every few seconds, for each game
in turn, through the same service as the API's upload, and times each upload until its
version is active or rejected. Each upload waits for a busy moment: every worker
playing a ranked match and more of them queued. It prints, per upload:

- validated s: from the upload until the version is judged (the target: under 60 s);
- wait s: from the validation match's creation until a worker claimed it;
- match s: the validation match itself (engine and boxes);
- running, queued: the ranked matches playing and waiting at the upload;

then the median and the worst, and the ranked matches each ladder played meanwhile
(matchmaking shares the workers by games per bot: `agon.ladders.matchmaking`).

    .venv/bin/python bench/validation.py [--uploads 8] [--brokers filesystem,redis]

It needs bubblewrap boxes (as `agon up` does), works in a temporary folder and serves on
port 8601. The Redis run's broker is Redis database 11, where every key it makes starts
with --redis-prefix and only those are deleted, before and after. Options change them,
and --games plays fewer games (the example bots of those only, and uploads for them).
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from bench.redis_support import DEFAULT_PREFIX, delete_keys, key_prefix  # noqa: E402

TARGET_SECONDS = 60.0
BUSY_TIMEOUT = 900.0
"""How long `agon up` may take to validate the example bots and fill every ladder."""
VERDICT_TIMEOUT = 300.0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--uploads", type=int, default=8, help="uploads timed per broker (8)")
    parser.add_argument(
        "--pause", type=float, default=5.0, help="seconds between a verdict and the next upload"
    )
    parser.add_argument("--brokers", default="filesystem,redis", help="filesystem,redis")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/11")
    parser.add_argument(
        "--redis-prefix",
        type=key_prefix,
        default=DEFAULT_PREFIX,
        help=f"the start of the Redis run's every key (default {DEFAULT_PREFIX})",
    )
    parser.add_argument(
        "--matchmaking-seconds",
        type=float,
        help="how often beat fills the ladders (AGON_MATCHMAKING_SECONDS; default the "
        "settings', 5)",
    )
    parser.add_argument(
        "--games", help="GAME[,GAME]: only these games' example bots and uploads (all)"
    )
    parser.add_argument("--port", type=int, default=8601)
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--one", help=argparse.SUPPRESS)  # a child process: one broker
    parser.add_argument("--var-dir", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        return measure(args, args.one, Path(args.var_dir))
    print(f"load average at the start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} cores)")
    failed = 0
    for broker in args.brokers.split(","):
        with tempfile.TemporaryDirectory(prefix="agon-bench-validation-") as folder:
            # Django is set up once per process: each broker in a process of its own.
            done = subprocess.run(  # noqa: S603 - this script, our own arguments
                [sys.executable, __file__, *sys.argv[1:], "--one", broker, "--var-dir", folder],
                check=False,
            )
            failed += done.returncode != 0
    return 1 if failed else 0


def environment(args: argparse.Namespace, broker: str, var_dir: Path) -> dict[str, str]:
    """The embedded defaults of `agon up` in `var_dir`, on this broker; the environment
    `agon up` gets too."""
    env = {
        "DJANGO_SETTINGS_MODULE": "agon.settings.local",
        "AGON_VAR_DIR": str(var_dir),
        "AGON_SANDBOX": "bwrap",
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "platform")]),
        # The ladder's matches are the example bots': the anchors' search, seconds of the
        # worker's CPU a match, would time the search instead of the validation.
        "AGON_LADDER_ANCHORS": "none",
    }
    if args.matchmaking_seconds is not None:
        env["AGON_MATCHMAKING_SECONDS"] = str(args.matchmaking_seconds)
    if broker == "redis":
        env["AGON_BROKER_URL"] = args.redis_url
        env["AGON_BROKER_KEY_PREFIX"] = args.redis_prefix
    elif broker != "filesystem":
        raise SystemExit(f"unknown broker {broker!r}: filesystem or redis")
    for name in ("AGON_BROKER_URL", "AGON_BROKER_KEY_PREFIX", "AGON_DATABASE_URL"):
        os.environ.pop(name, None)
    os.environ.update(env)
    return env


def measure(args: argparse.Namespace, broker: str, var_dir: Path) -> int:
    env = environment(args, broker, var_dir)
    if broker == "redis":
        delete_keys(args.redis_url, args.redis_prefix)
    import django

    django.setup()
    log_path = var_dir / "agon-up.log"
    with log_path.open("wb") as log:
        up = subprocess.Popen(  # noqa: S603 - a fixed argv
            [
                sys.executable,
                "-m",
                "agon.cli",
                "up",
                "--port",
                str(args.port),
                "--concurrency",
                str(args.concurrency),
                "--status-seconds",
                "30",
                *(["--games", args.games] if args.games else []),
            ],
            cwd=ROOT,
            env={**os.environ, **env},
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        return run_uploads(args, broker, up, log_path)
    finally:
        up.send_signal(signal.SIGINT)
        try:
            up.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(up.pid, signal.SIGKILL)
            up.wait()
        if broker == "redis":
            delete_keys(args.redis_url, args.redis_prefix)


def wait_until(
    check: Callable[[], bool], timeout: float, what: str, up: subprocess.Popen[bytes], log: Path
) -> None:
    deadline = time.monotonic() + timeout
    while not check():
        if up.poll() is not None or time.monotonic() > deadline:
            tail = log.read_text(errors="replace")[-3000:]
            raise SystemExit(f"gave up waiting for {what}; the end of agon up's output:\n{tail}")
        time.sleep(0.5)


def every_ladder_busy() -> bool:
    """The example bots are judged, and every ladder with bots enough for a table has
    had ranked matches."""
    from django.db import DatabaseError

    from agon.bots.models import BotVersion
    from agon.ladders.models import Ladder, Rating
    from agon.matches.models import Match

    try:
        if BotVersion.objects.filter(status=BotVersion.Status.VALIDATING).exists():
            return False
        if not BotVersion.objects.exists():
            return False
        for ladder in Ladder.objects.filter(active=True):
            bots = Rating.objects.filter(ladder=ladder, active=True).count()
            played = Match.objects.filter(ladder=ladder, kind=Match.Kind.RANKED).exists()
            if bots >= ladder.players and not played:
                return False
        return True
    except DatabaseError:  # agon up is still migrating
        return False


def ranked_load() -> tuple[int, int]:
    """The ranked matches playing and waiting for a worker."""
    from agon.matches.models import Match

    ranked = Match.objects.filter(kind=Match.Kind.RANKED)
    return (
        ranked.filter(status=Match.Status.RUNNING).count(),
        ranked.filter(status=Match.Status.QUEUED).count(),
    )


def all_workers_busy(concurrency: int) -> bool:
    """Every worker process plays a ranked match and more are queued: an upload now
    waits for a worker as long as it ever does."""
    running, queued = ranked_load()
    return running >= concurrency and queued > 0


def run_uploads(
    args: argparse.Namespace, broker: str, up: subprocess.Popen[bytes], log: Path
) -> int:
    from django.contrib.auth.models import User
    from django.core.files.uploadedfile import SimpleUploadedFile

    from agon.bots.models import BotVersion
    from agon.bots.services import bot_submit
    from agon.matches.models import Match
    from engine.registry import game_ids

    started = time.monotonic()
    wait_until(every_ladder_busy, BUSY_TIMEOUT, "every ladder to be busy", up, log)
    print(f"\n== {broker} broker: every ladder busy after {time.monotonic() - started:.0f} s")
    first_ranked = Match.objects.order_by("-id").values_list("id", flat=True).first() or 0
    owner = User.objects.create_user("bench-author")
    source = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()
    games = args.games.split(",") if args.games else game_ids()
    print(
        f"{'upload':<28} {'validated s':>11} {'wait s':>7} {'match s':>8} {'running':>7} "
        f"{'queued':>7}"
    )
    verdicts: list[float] = []
    for number in range(args.uploads):
        game = games[number % len(games)]
        wait_until(
            lambda: all_workers_busy(args.concurrency), BUSY_TIMEOUT, "busy workers", up, log
        )
        running, queued = ranked_load()
        sent = time.monotonic()
        bot = bot_submit(
            owner=owner,
            name=f"newcomer-{number}",
            game=game,
            upload=SimpleUploadedFile("random_bot.py", source, content_type="text/x-python"),
        )
        version = bot.versions.get()

        def judged(version: BotVersion = version) -> bool:
            version.refresh_from_db()
            return version.status != BotVersion.Status.VALIDATING

        wait_until(judged, VERDICT_TIMEOUT, f"{version} to be judged", up, log)
        verdicts.append(time.monotonic() - sent)
        match = Match.objects.filter(kind=Match.Kind.VALIDATION, seats__version=version).latest(
            "id"
        )
        wait = (match.started - match.created).total_seconds() if match.started else float("nan")
        print(
            f"{f'{game} ({version.status})':<28} {verdicts[-1]:>11.1f} {wait:>7.1f} "
            f"{match.match_seconds or float('nan'):>8.1f} {running:>7} {queued:>7}"
        )
        time.sleep(args.pause)
    print(
        f"upload -> validated: median {statistics.median(verdicts):.1f} s, worst "
        f"{max(verdicts):.1f} s (target: under {TARGET_SECONDS:.0f} s); load average "
        f"{os.getloadavg()[0]:.1f}"
    )
    print_shares(first_ranked)
    print(json.dumps({"broker": broker, "validated_seconds": [round(v, 1) for v in verdicts]}))
    return 0 if max(verdicts) < TARGET_SECONDS else 1


def print_shares(after_id: int) -> None:
    """The ranked matches each ladder got while the uploads were timed."""
    from django.db.models import Count

    from agon.ladders.models import Ladder, Rating
    from agon.matches.models import Match

    played = dict(
        Match.objects.filter(kind=Match.Kind.RANKED, id__gt=after_id)
        .order_by()
        .values_list("ladder")
        .annotate(n=Count("id"))
    )
    cells: list[str] = []
    for ladder in Ladder.objects.filter(active=True).order_by("game", "players"):
        bots = Rating.objects.filter(ladder=ladder, active=True).count()
        matches: Any = played.get(ladder.id, 0)
        games = matches * ladder.players / bots if bots else 0.0
        cells.append(f"{ladder.name} {matches} ({games:.1f}/bot)")
    print("ranked matches made meanwhile (games per bot): " + ", ".join(cells))


if __name__ == "__main__":
    sys.exit(main())
