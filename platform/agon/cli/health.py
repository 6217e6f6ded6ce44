"""`agon health [--worker]`: is this process's setup healthy? For container health checks.

Checks the database and the broker (each bounded by AGON_HEALTH_TIMEOUT_SECONDS); with
`--worker`, also plays a short real match with one bot boxed by the configured sandbox
(AGON_SANDBOX), which must end without a fault. Prints one JSON object and exits with 0
when every check passed, 1 otherwise. Nothing it starts outlives it: the match's boxes
are removed when the match ends.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from agon.ops.errors import describe_error
from agon_kit.common import print_json

PLATFORM_DIR = Path(__file__).resolve().parents[2]
REPO_DIR = PLATFORM_DIR.parent

EPILOG = """\
examples:
  agon health             # database and broker (Celery beat's container check)
  agon health --worker    # and a boxed match (a Celery worker's container check)

It reads the same settings as the platform (DJANGO_SETTINGS_MODULE, AGON_DATABASE_URL,
AGON_BROKER_URL, AGON_SANDBOX, ...). Output, one line:
  {"status": "ok" | "failing", "failed": [...], "checks": {"database": {"ok": true,
   "seconds": 0.004, ...}, "broker": {...}, "sandbox": {...}}}
A failed check has an "error" saying why. Exit status: 0 healthy, 1 not."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "health",
        help="check the database, the broker and (--worker) the sandbox",
        description="Check that this machine's platform setup works: the database and "
        "the broker answer and, with --worker, that a bot can be boxed and play a match. "
        "Prints JSON; exits 0 when healthy, 1 otherwise.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--worker",
        action="store_true",
        help="also play a short match through the sandbox (AGON_SANDBOX), as a worker would",
    )
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")
    sys.path[:0] = [p for p in (str(REPO_DIR), str(PLATFORM_DIR)) if p not in sys.path]
    # Django only here: `agon --help` imports this module, and starts fast without it.
    import django
    from django.apps import apps

    try:
        if not apps.ready:
            django.setup()  # reads the settings: a missing or bad variable fails here
    except Exception as error:
        print_json({"status": "failing", "failed": ["settings"], "error": describe_error(error)})
        return 1
    # Only once Django is set up: the module reads the settings.
    from agon.ops.health import health

    report = health(sandbox=args.worker)
    print_json(report.to_json())
    return 0 if report.ok else 1


__all__ = ["register", "run"]
