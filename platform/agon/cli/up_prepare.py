"""What `agon up` does before it starts its children: the database migrated, the default
ladders, the embedded queue resynchronised and the example bots entered."""

from __future__ import annotations

import argparse
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

from agon.cli.up_processes import Console

# --- preparing the data ---------------------------------------------------------------------


def debug_line(debug: bool) -> str:
    """What `agon up` says of DEBUG: on, anybody who reaches the site gets Django's debug
    pages (every URL pattern, settings, code); off, what production serves."""
    if debug:
        return (
            "serving with debug ON (AGON_DEBUG is set): error pages show code and settings "
            "to anyone who reaches the site; for development only"
        )
    return (
        "serving with debug off: plain error pages, JSON errors under /api/ "
        "(AGON_DEBUG=1 turns debug on)"
    )


def shown_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def prepare(args: argparse.Namespace, console: Console) -> None:
    # Imported late: the other commands start fast, and models load only once Django is set up.
    from django.conf import settings
    from django.core.management import call_command
    from django.db import connection

    from agon.ladders.anchors import anchors_ensure
    from agon.ladders.services import ladder_ensure_defaults

    database = settings.DATABASES["default"]
    where = (
        shown_path(Path(database["NAME"]))
        if database["ENGINE"].endswith("sqlite3")
        else f"{database['ENGINE'].rsplit('.', 1)[-1]} {database.get('NAME')}"
    )
    console.say(f"database: {where}; migrating")
    call_command("migrate", interactive=False, verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)
    ladders = ladder_ensure_defaults()
    console.say("ladders: " + ", ".join(ladder.name for ladder in ladders))
    if settings.AGON_LADDER_ANCHORS:
        anchors_ensure()
        console.say("anchors on every ladder: " + ", ".join(settings.AGON_LADDER_ANCHORS))
    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        resync_embedded_queue(console, settings)
    if not args.no_examples:
        enter_examples(args, console, settings)
    connection.close()


def resync_embedded_queue(console: Console, settings: Any) -> None:
    """The embedded broker has no other worker than ours: start it from a clean folder,
    with one task for each queued match and the matches left `running` given back."""
    # Imported late: the other commands start fast, and models load only once Django is set up.
    from agon.matches.models import Match
    from agon.matches.services import requeue_stuck_matches

    options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        folder = Path(options[key])
        if folder.is_dir():
            shutil.rmtree(folder)
        folder.mkdir(parents=True, exist_ok=True)
    queued = set(Match.objects.filter(status=Match.Status.QUEUED).values_list("id", flat=True))
    sent = requeue_stuck_matches(stuck_seconds=0)  # sends each queued match's task too
    cut_short = len(set(sent) - queued)
    if sent:
        console.say(
            f"queue: {len(queued)} queued match{'es' if len(queued) != 1 else ''} sent again, "
            f"{cut_short} cut short by the last stop queued again"
        )


def enter_examples(args: argparse.Namespace, console: Console, settings: Any) -> None:
    # Imported late: the other commands start fast, and models load only once Django is set up.
    from agon.bots.examples import EXAMPLES_OWNER, examples_register

    folder = Path(settings.REPO_DIR) / "examples" / "bots"
    entries = examples_register(folder=folder, games=args.games)
    if not entries:
        console.say(f"no example bots in {shown_path(folder)}")
        return
    games = Counter(entry.bot.game for entry in entries)
    statuses = Counter(str(entry.version.status) for entry in entries)
    new = sum(entry.submitted for entry in entries)
    console.say(
        f"example bots of {EXAMPLES_OWNER} from {shown_path(folder)}: "
        + ", ".join(f"{count} for {game}" for game, count in sorted(games.items()))
        + " ("
        + ", ".join(f"{count} {status}" for status, count in sorted(statuses.items()))
        + (f"; {new} new versions entered for validation" if new else "")
        + ")"
    )
