"""`agon submit`: upload a bot, or a new version of it, and follow its validation."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from agon_kit.common import fail
from agon_kit.remote import Site, printable
from agon_kit.remote_bots import VALIDATING, follow_validation, my_bot
from agon_kit.site_access import add_site_arguments, add_wait_arguments, reported, site_of
from engine.registry import game_ids

HELP = "upload a bot, or a new version of it, and follow its validation"
EPILOG = """\
examples:
  agon submit main.py --bot first --game akropolis --create   # a new bot
  agon submit my_bot/ --bot first                             # a new version, from a folder
  agon submit bot.tar.gz --bot 12 --no-wait                   # by the bot's id; no waiting

The bot is checked here as the site checks it (at most 5 MiB, main.py at the top of an
archive or folder, Python a box can start), uploaded, then validated by a match against
a builtin bot; the command follows that match until the version is active (it plays on
the ladders) or rejected (with the reason), and ends with the bot's page. A folder is
packed as a .tar.gz without caches, version control, virtual environments or links.
Exit status: 0 active (or not waited for), 1 rejected or still validating, 2 refused.
"""


def register(commands: Any) -> None:
    submit = commands.add_parser(
        "submit",
        help=HELP,
        description="Upload a bot file (.py, .zip, .tar.gz) or a folder with main.py at its "
        "top as a new version of your bot --bot, or as a new bot with --create.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    submit.add_argument("path", metavar="PATH", help="the bot: a file or a folder")
    submit.add_argument("--bot", required=True, help="your bot's name (or its id)")
    submit.add_argument(
        "--create",
        action="store_true",
        help="make the bot if you have none of that name (with --game)",
    )
    submit.add_argument("--game", choices=game_ids(), help="the game of a new bot")
    add_wait_arguments(submit, "validation")
    add_site_arguments(submit)
    submit.set_defaults(run=run_submit)


@reported
def run_submit(args: argparse.Namespace) -> int:
    # The archive readers and the preflight, for the upload only: not for --help.
    from agon_kit.bot_packing import checked

    site = site_of(args)
    filename, data = checked(Path(args.path))
    bot = my_bot(site, args.bot)
    if bot is None:
        if not args.create:
            return fail(f"you have no bot {args.bot!r}: add --create --game GAME to make it")
        if not args.game:
            return fail("a new bot needs its game: add --game GAME")
        made = site.post_file("/api/bots/", {"name": args.bot, "game": args.game}, filename, data)
        bot_id, number = int(made["id"]), int(made["versions"][-1]["number"])
        print(f"made {printable(made['name'])} ({printable(made['game'])}), version v{number}")
    else:
        if args.game and args.game != bot["game"]:
            return fail(
                f"your bot {printable(bot['name'])!r} plays {printable(bot['game'])}, "
                f"not {args.game}"
            )
        version = site.post_file(f"/api/bots/{int(bot['id'])}/versions/", {}, filename, data)
        bot_id, number = int(bot["id"]), int(version["number"])
        print(f"uploaded {printable(bot['name'])} v{number}", flush=True)
    return _validation_followed(site, args, bot_id, number)


def _validation_followed(site: Site, args: argparse.Namespace, bot_id: int, number: int) -> int:
    page = site.page(f"/my/bots/{bot_id}/")
    if args.no_wait:
        print(f"validating; follow it at {page}")
        return 0
    try:
        version = follow_validation(site, bot_id, number, args.wait_minutes * 60)
    except KeyboardInterrupt:
        print(f"stopped following; the validation goes on: {page}")
        return 130
    status = printable(version["status"])
    if status == "active":
        print(f"v{number} passed validation and is active: it plays on the ladders. {page}")
        return 0
    if status == VALIDATING:
        print(f"v{number} is still validating after {args.wait_minutes:g} minutes; see {page}")
        return 1
    reason = printable(version.get("reason") or "see the page")
    print(f"v{number} is {status}: {reason}. {page}")
    return 1
