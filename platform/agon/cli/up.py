"""`agon up`: the whole platform on this machine, in the foreground.

It prepares the local data (database, default ladders, the example bots, entered
through the normal upload and validation path), then runs three child processes: the
web server (gunicorn), one Celery worker for every queue (validations and challenges
first, then the short tasks, then the ranked matches) and Celery beat (matchmaking, the
stuck-match sweep). The terminal shows only `agon up`'s own lines: its steps, the
address to open (again with every status line, so it stays in view) and now and then a
status of the ladders (agon.cli.up_status). The children's output (Celery's banners,
the lines of every match and request) goes to a log file it names at start,
var/agon-up.log; a child that stops on its own also shows its last lines there.
Ctrl-C or SIGTERM stops them: each child is asked to stop, then killed if it has not
within the stop timeout.

With the embedded defaults (SQLite and the file-system broker under var/) this
command runs the only worker there is, so at start it also gives back to the queue
the matches a previous run left `running`, and sends every queued match's task again.
Django and Celery are imported inside `run`, so that the other commands start fast.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agon.cli.up_prepare import debug_line, prepare, shown_path
from agon.cli.up_processes import Child, Console, Supervisor, open_log
from agon.worker_command import worker_command
from agon_kit.common import fail
from engine.registry import game_ids
from sandbox.backends import SandboxError, get_backend

PLATFORM_DIR = Path(__file__).resolve().parents[2]
REPO_DIR = PLATFORM_DIR.parent
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1", "[::1]"}
PROCESSED_MESSAGE_SECONDS = 60.0
"""Taken broker messages (files under var/broker/processed) are pruned after this long."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "up",
        help="run the platform here: web, worker, scheduler, example bots playing",
        description="Run the whole Agon platform on this machine: migrate the database, "
        "create the default ladders, enter the example bots, then run the web server, "
        "a Celery worker and Celery beat until Ctrl-C. With no settings in the "
        "environment it uses SQLite and a file-system broker under var/ and bubblewrap "
        "boxes.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to serve on (127.0.0.1)")
    parser.add_argument("--port", type=int, default=8000, help="port to serve on (8000)")
    parser.add_argument(
        "--concurrency",
        type=int,
        choices=(1, 2, 3, 4),
        default=2,
        help="matches the worker plays at once (default: 2)",
    )
    parser.add_argument(
        "--status-seconds",
        type=float,
        default=20.0,
        metavar="S",
        help="look every S seconds for news worth a line (a ranked-match milestone, a "
        "failed match, a ladder's new settled leader; a summary at most every 10 min) "
        "(default: 20; 0: never)",
    )
    parser.add_argument(
        "--stop-timeout",
        type=float,
        default=20.0,
        metavar="S",
        help="on Ctrl-C, how long to let running matches finish before killing (default: 20)",
    )
    parser.add_argument(
        "--games",
        type=_game_list,
        metavar="GAME[,GAME]",
        help="enter the example bots for these games only (default: every game)",
    )
    parser.add_argument("--no-examples", action="store_true", help="do not enter the example bots")
    parser.set_defaults(run=run)


def _game_list(text: str) -> list[str]:
    games = [game.strip() for game in text.split(",") if game.strip()]
    unknown = [game for game in games if game not in game_ids()]
    if not games or unknown:
        raise argparse.ArgumentTypeError(
            f"unknown game {', '.join(unknown) or text!r}; games: {', '.join(game_ids())}"
        )
    return games


def child_commands(args: argparse.Namespace, settings: Any) -> list[Child]:
    python = sys.executable
    # The embedded broker has no other worker than this one.
    worker = worker_command(
        queues=settings.AGON_WORKER_QUEUES,
        concurrency=args.concurrency,
        hostname="agon-up@%h",
        alone=settings.CELERY_BROKER_URL.startswith("filesystem"),
    )
    return [
        Child(
            "web",
            [
                python,
                "-m",
                "gunicorn",
                "agon.wsgi",
                "--workers",
                "2",
                "--bind",
                _bind_address(args.host, args.port),
                "--access-logfile",
                "-",
                "--graceful-timeout",
                "10",
                "--no-control-socket",
            ],
        ),
        Child("worker", worker),
        Child(
            "beat",
            [
                python,
                "-m",
                "celery",
                "--app",
                "agon.celery",
                "beat",
                "--schedule",
                str(Path(settings.VAR_DIR) / "celerybeat-schedule"),
                "--loglevel",
                "WARNING",
            ],
        ),
    ]


def address_line(url: str, log: str) -> str:
    """Said after each status: where the site is stays in view."""
    return f"open {url}/ · the API at {url}/api/ · Ctrl-C stops · log: {log}"


def _bind_address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


def _url(host: str, port: int) -> str:
    shown = "127.0.0.1" if host in {"0.0.0.0", "", "::"} else host  # noqa: S104
    if ":" in shown and not shown.startswith("["):
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def _port_free(host: str, port: int) -> str | None:
    """Why the address cannot be served on, or None if it can."""
    family = socket.AF_INET6 if ":" in host.strip("[]") else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as error:
            return error.strerror or str(error)
    return None


def _answers(host: str, port: int) -> bool:
    target = "127.0.0.1" if host in {"0.0.0.0", ""} else host.strip("[]")  # noqa: S104
    target = "::1" if target == "::" else target
    try:
        with socket.create_connection((target, port), timeout=0.5):
            return True
    except OSError:
        return False


def child_env(args: argparse.Namespace) -> dict[str, str]:
    env = dict(os.environ)
    paths = [str(REPO_DIR), str(PLATFORM_DIR)]
    if env.get("PYTHONPATH"):
        paths.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(paths)
    env["PYTHONUNBUFFERED"] = "1"
    # The only worker plays this many matches at once: the background share is part of it.
    env["AGON_MATCH_SLOTS"] = str(args.concurrency)
    if args.host not in LOOPBACK_HOSTS and not env.get("AGON_ALLOWED_HOSTS"):
        wildcard = args.host in {"0.0.0.0", "::", ""}  # noqa: S104
        env["AGON_ALLOWED_HOSTS"] = ",".join(
            ["localhost", "127.0.0.1", "[::1]", "*" if wildcard else args.host]
        )
    return env


def fresh_metrics_folder(settings: Any) -> Path:
    """An empty folder for the metrics every child counts (prometheus_client's
    multiprocess mode, see agon.ops.metrics): the web's /metrics then adds up its
    gunicorn workers and the Celery worker's pool, matches included."""
    folder = Path(settings.VAR_DIR) / "metrics"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return folder


# --- the command --------------------------------------------------------------------------


def _signals(stop: threading.Event, now: threading.Event) -> Callable[[int, Any], None]:
    def handler(signum: int, frame: Any) -> None:
        if stop.is_set():
            now.set()
        stop.set()

    return handler


def _prune_processed(settings: Any) -> None:
    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    folder = Path(options.get("processed_folder", ""))
    if not options.get("store_processed") or not folder.is_dir():
        return
    limit = time.time() - PROCESSED_MESSAGE_SECONDS
    for path in folder.iterdir():
        try:
            if path.stat().st_mtime < limit:
                path.unlink()
        except FileNotFoundError:
            pass


def run(args: argparse.Namespace) -> int:
    if not 0 < args.port < 65536:
        return fail(f"--port must be between 1 and 65535, not {args.port}")
    console = Console(sys.stdout)
    problem = _port_free(args.host, args.port)
    if problem:
        return fail(f"cannot serve on {_bind_address(args.host, args.port)}: {problem}")

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")
    sys.path[:0] = [p for p in (str(REPO_DIR), str(PLATFORM_DIR)) if p not in sys.path]
    # Django only here: `agon --help` imports this module, and starts fast without it.
    import django
    from django.conf import settings

    django.setup()

    try:
        backend = get_backend(settings.AGON_SANDBOX)
    except SandboxError as error:
        return fail(f"bots cannot be boxed here (AGON_SANDBOX={settings.AGON_SANDBOX}): {error}")
    log_path, console.log_stream = open_log(Path(settings.VAR_DIR))
    try:
        console.say(
            f"settings: {os.environ['DJANGO_SETTINGS_MODULE']}; "
            f"data in {shown_path(settings.VAR_DIR)}; sandbox: {backend.name}"
        )
        console.say(debug_line(settings.DEBUG))
        return _serve(args, console, settings, shown_path(log_path))
    finally:
        console.log_stream.close()


def _serve(args: argparse.Namespace, console: Console, settings: Any, log: str) -> int:
    # Only once Django is set up (`run`): the status reads the models.
    from django.db import DatabaseError

    from agon.cli.up_status import SUMMARY_SECONDS, Snapshot, news, snapshot

    prepare(args, console)

    stop, now = threading.Event(), threading.Event()
    handler = _signals(stop, now)
    previous = {sig: signal.signal(sig, handler) for sig in (signal.SIGINT, signal.SIGTERM)}
    env = child_env(args)
    if not env.get("PROMETHEUS_MULTIPROC_DIR"):
        env["PROMETHEUS_MULTIPROC_DIR"] = str(fresh_metrics_folder(settings))
    supervisor = Supervisor(child_commands(args, settings), console, env, REPO_DIR)
    url = _url(args.host, args.port)
    code = 0
    try:
        console.say(
            f"starting web (gunicorn, 2 workers, {_bind_address(args.host, args.port)}), "
            f"worker (celery, concurrency {args.concurrency}) and beat (celery); "
            f"their output goes to {log}"
        )
        supervisor.start()
        ready = False
        started = time.monotonic()
        last_status = last_summary = Snapshot()
        last_status_at = last_summary_at = time.monotonic()
        last_prune = 0.0
        while not stop.wait(0.25):
            gone = supervisor.exited()
            if gone is not None:
                assert gone.process is not None  # noqa: S101
                supervisor.show_last_lines(gone)
                console.say(
                    f"{gone.name} stopped on its own (exit status {gone.process.returncode}); "
                    "stopping the rest"
                )
                code = 1
                break
            if not ready and _answers(args.host, args.port):
                ready = True
                console.say(
                    f"ready: open {url}/ (the site) or {url}/api/ (the API, with its docs at "
                    f"{url}/api/docs/); Ctrl-C stops everything"
                )
            elif not ready and time.monotonic() - started > 30:
                ready = True
                console.say(f"the web server does not answer on {url} yet; see its lines in {log}")
            moment = time.monotonic()
            if args.status_seconds > 0 and moment - last_status_at >= args.status_seconds:
                last_status_at = moment
                try:
                    current = snapshot()
                except DatabaseError as error:
                    console.say(f"no news this time: {error}")
                    current = last_status
                lines = news(last_status, current)
                if not lines and moment - last_summary_at >= SUMMARY_SECONDS:
                    lines = [current.summary()] if current.moved(last_summary) else []
                if lines:
                    for line in lines:
                        console.say(line)
                    console.say(address_line(url, log))
                    if current.summary() in lines:
                        last_summary, last_summary_at = current, moment
                last_status = current
            if moment - last_prune >= PROCESSED_MESSAGE_SECONDS:
                last_prune = moment
                _prune_processed(settings)
    finally:
        try:
            if stop.is_set() and code == 0:
                console.say(
                    f"stopping: running matches get {args.stop_timeout:g} s to finish "
                    "(Ctrl-C again to stop at once)"
                )
        finally:
            supervisor.stop(args.stop_timeout, now)
            for sig, old in previous.items():
                signal.signal(sig, old)
    console.say("stopped")
    return code


__all__ = ["register", "run"]
