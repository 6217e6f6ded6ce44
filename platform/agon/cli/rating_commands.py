"""`agon ratings recompute LADDER [--dry-run]` and `agon ratings fit LADDER`: a ladder's
stored ranked results replayed through the current rating code, and an offline
maximum-likelihood fit of them beside the live ratings (`agon.ladders.recompute`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from agon_kit.common import fail
from competition import ratings

PLATFORM_DIR = Path(__file__).resolve().parents[2]
REPO_DIR = PLATFORM_DIR.parent

EPILOG = """\
examples:
  agon ratings recompute "Akropolis 2p" --dry-run   # what a replay would change
  agon ratings recompute 3                          # replay ladder 3 and store it
  agon ratings fit "Akropolis 2p"                   # the offline fit beside the ratings

LADDER is a ladder's id or its name. It reads the platform's settings
(DJANGO_SETTINGS_MODULE, AGON_DATABASE_URL, ...), like `agon up`."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "ratings",
        help="recompute a ladder's ratings, or fit its results offline",
        description="Replay a ladder's stored ranked results through the current rating "
        "code (after a rule change or a bug fix), or set an offline maximum-likelihood "
        "(Bradley-Terry) fit of them beside the live ratings.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    actions = parser.add_subparsers(dest="action", required=True, metavar="ACTION")
    recompute = actions.add_parser(
        "recompute",
        help="replay the ladder's ranked results and store the ratings they give",
        description="Start every bot of the ladder afresh and rate its finished ranked "
        "matches again in the order they finished; store the ratings and rating changes "
        "and print how many ranks moved.",
    )
    recompute.add_argument("ladder", metavar="LADDER", help="a ladder's id or name")
    recompute.add_argument(
        "--dry-run", action="store_true", help="print what would change, store nothing"
    )
    recompute.set_defaults(run=run_recompute)
    fit = actions.add_parser(
        "fit",
        help="print the offline Bradley-Terry fit beside the live ratings",
        description="Fit the ladder's finished ranked results at once (Bradley-Terry, "
        "pairwise, ties half a point) and print the fit beside each bot's live rating.",
    )
    fit.add_argument("ladder", metavar="LADDER", help="a ladder's id or name")
    fit.add_argument("--top", type=int, default=50, help="bots to list (default 50)")
    fit.set_defaults(run=run_fit)


def _setup() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agon.settings.local")
    sys.path[:0] = [p for p in (str(REPO_DIR), str(PLATFORM_DIR)) if p not in sys.path]
    # Django only here: `agon --help` imports this module, and starts fast without it.
    import django
    from django.apps import apps

    if not apps.ready:
        django.setup()


def _ladder(name_or_id: str) -> Any:
    # Only once Django is set up (`_setup`): models need the apps loaded.
    from agon.ladders.models import Ladder

    found = Ladder.objects.filter(name=name_or_id).first()
    if found is None and name_or_id.isdigit():
        found = Ladder.objects.filter(id=int(name_or_id)).first()
    return found


def run_recompute(args: argparse.Namespace) -> int:
    _setup()
    # rich only here: `agon --help` imports this module, and starts fast without it.
    from rich.progress import Progress

    # Only once Django is set up: models need the apps loaded.
    from agon.ladders.recompute import ladder_recompute

    ladder = _ladder(args.ladder)
    if ladder is None:
        return fail(f"there is no ladder {args.ladder!r}")
    with Progress(transient=True) as bar:
        task = bar.add_task(f"replaying {ladder.name}", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        report = ladder_recompute(ladder=ladder, dry_run=args.dry_run, progress=advance)
    verb = "would move" if report.dry_run else "moved"
    print(
        f"{ladder.name}: replayed {report.matches} ranked matches of {report.bots} bots; "
        f"{report.ranks_moved} ranks {verb}"
        + (" (dry run: nothing stored)" if args.dry_run else "")
    )
    moved = sorted(
        (bot for bot in report.after if report.before[bot] != report.after[bot]),
        key=lambda bot: abs(report.after[bot][1] - report.before[bot][1]),
        reverse=True,
    )
    for bot in moved[:10]:
        (rank_before, value_before), (rank_after, value_after) = (
            report.before[bot],
            report.after[bot],
        )
        print(
            f"  bot {bot}: rank {rank_before or '-'} -> {rank_after or '-'}, "
            f"rating {value_before:.0f} -> {value_after:.0f}"
        )
    return 0


def run_fit(args: argparse.Namespace) -> int:
    _setup()
    # Only once Django is set up: models need the apps loaded.
    from agon.ladders.models import LEADERBOARD_ORDER, Rating
    from agon.ladders.recompute import ladder_fit

    ladder = _ladder(args.ladder)
    if ladder is None:
        return fail(f"there is no ladder {args.ladder!r}")
    fitted = ladder_fit(ladder=ladder)
    rows = list(
        Rating.objects.filter(ladder=ladder, active=True)
        .select_related("bot__owner")
        .order_by(*LEADERBOARD_ORDER)[: args.top]
    )
    print(f"{ladder.name}: live rating (95%) beside the offline Bradley-Terry fit")
    print(f"{'rank':>4}  {'bot':<32} {'live':>12} {'fit':>6} {'games':>6}")
    for place, row in enumerate(rows, start=1):
        fit = fitted.get(row.bot_id)
        print(
            f"{place:>4}{' ' if row.rankable else '?'} {str(row.bot)[:32]:<32} "
            f"{ratings.display(row.current):>12} {'-' if fit is None else f'{fit:.0f}':>6} "
            f"{row.games:>6}"
        )
    return 0


__all__ = ["register"]
