"""`login`, `submit` and `test`: the bot kit's commands that talk to an Agon site.

    agon login                                  # paste the token of /my/token/
    agon submit my_bot.py --bot first --game akropolis
    agon test --bot first --baseline builtin:greedy

They share the site's address (--server, $AGON_SERVER, default what `make run` serves)
and the token (--token, $AGON_TOKEN, or the file `login` writes)."""

from __future__ import annotations

import argparse
import getpass
import io
import sys
import tarfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from agon.cli.common import fail
from agon.cli.progress import progress_bar
from agon.cli.remote import (
    DEFAULT_SERVER,
    SERVER_VARIABLE,
    TOKEN_VARIABLE,
    RemoteError,
    Site,
    find_server,
    find_token,
    save_token,
    token_file,
)
from agon.cli.sprt_option import parse_sprt
from engine.registry import game_ids
from sandbox.packages import ENTRY_POINT, MAX_PACKED_BYTES, PackageError, check_package

POLL_SECONDS = 2.0
SKIPPED = ("__pycache__", ".git", ".venv", "venv", ".mypy_cache", ".pytest_cache")

LOGIN_EPILOG = """\
examples:
  agon login                          # asks for the token shown at /my/token/
  agon login --server https://agon.example
  echo "$TOKEN" | agon login          # from a script
"""
SUBMIT_EPILOG = """\
examples:
  agon submit main.py --bot first --game akropolis     # a new bot, or a new version
  agon submit my_bot/ --bot first                      # a folder with main.py at its top
  agon submit bot.tar.gz --bot 12 --no-wait

A new version is checked here as the site checks it, uploaded, then validated by a match
against a builtin bot; the command follows it until it is active or rejected.
"""
TEST_EPILOG = """\
examples:
  agon test --bot first                                # newest version against the one before
  agon test --bot first --baseline builtin:greedy --sprt elo0=0,elo1=30
  agon test --bot first --version 4 --baseline v2 --players 4
  agon test --bot first --baseline alice/rival         # another user's public bot

The site plays pairs of games (seats swapped) until the sequential test decides, as
`agon match` does here; the command follows it with a progress line.
"""


def register(commands: Any) -> None:
    login = commands.add_parser(
        "login",
        help="keep your API token for the commands that talk to the site",
        description="Check an API token with the site and keep it in "
        f"{_shown_path()} (readable by you only) for `submit` and `test`. The token is "
        "on the site's page /my/token/.",
        epilog=LOGIN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _site_arguments(login)
    login.set_defaults(run=run_login)

    submit = commands.add_parser(
        "submit",
        help="upload a bot, or a new version of it, and follow its validation",
        description="Upload a bot file (.py, .zip, .tar.gz) or a folder with main.py at its "
        "top to your bot named --bot (a new version), or make the bot when you have none "
        "of that name (give --game).",
        epilog=SUBMIT_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    submit.add_argument("path", metavar="PATH", help="the bot: a file or a folder")
    submit.add_argument("--bot", required=True, help="your bot's name (or its id)")
    submit.add_argument(
        "--game", choices=game_ids(), help="the game of a new bot (a bot keeps its game)"
    )
    _wait_arguments(submit, "validation")
    _site_arguments(submit)
    submit.set_defaults(run=run_submit)

    test = commands.add_parser(
        "test",
        help="start a version test of your bot on the site and follow it",
        description="Start a version test on the site: is a version of your bot stronger "
        "than a baseline? Needs a version that passed validation.",
        epilog=TEST_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    test.add_argument("--bot", required=True, help="your bot's name (or its id)")
    test.add_argument("--version", type=int, help="the version under test (default: newest active)")
    test.add_argument(
        "--baseline",
        help="vN (a version of the same bot), builtin:NAME, or OWNER/NAME (another user's "
        "public bot, its active version); default: the version before, else builtin:greedy",
    )
    test.add_argument("--players", type=int, default=2, help="bots at a table (default 2)")
    test.add_argument(
        "--sprt",
        type=parse_sprt,
        metavar="elo0=0,elo1=50,alpha=0.05,beta=0.05",
        help="the test's hypotheses and error rates (the site's defaults as shown)",
    )
    test.add_argument("--max-games", type=int, help="the game limit (site's default 400)")
    _wait_arguments(test, "test")
    _site_arguments(test)
    test.set_defaults(run=run_test)


def _shown_path() -> str:
    home = str(Path.home())
    path = str(token_file())
    return "~" + path[len(home) :] if path.startswith(home) else path


def _site_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        help=f"the site's address (default ${SERVER_VARIABLE}, else {DEFAULT_SERVER})",
    )
    parser.add_argument(
        "--token", help=f"your API token (default ${TOKEN_VARIABLE}, else the one `login` kept)"
    )


def _wait_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--no-wait", action="store_true", help=f"start the {what} and return at once"
    )
    parser.add_argument(
        "--wait-minutes",
        type=float,
        default=30.0,
        help=f"how long to follow the {what} at most (default 30)",
    )


def site_of(args: argparse.Namespace, *, token_needed: bool = True) -> Site:
    token = find_token(args.token)
    server = find_server(args.server)
    if token_needed and not token:
        raise RemoteError(
            f"no API token: get yours at {server}/my/token/, then run `agon-kit login` "
            f"(or pass --token, or set ${TOKEN_VARIABLE})"
        )
    return Site(server, token)


def _reported(command: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (RemoteError, PackageError) as error:
            return fail(str(error))

    return run


# --- login ---------------------------------------------------------------------------


@_reported
def run_login(args: argparse.Namespace) -> int:
    server = find_server(args.server)
    token = args.token
    if not token:
        if sys.stdin.isatty():
            print(f"Your token is on {server}/my/token/ (sign in there first).")
            token = getpass.getpass("API token: ")
        else:
            token = sys.stdin.readline()
    token = token.strip()
    if not token:
        return fail("no token given")
    me = Site(server, token).get("/api/auth/me/")
    path = save_token(token)
    print(f"signed in to {server} as {me['username']}; the token is kept in {path}")
    return 0


# --- submit --------------------------------------------------------------------------


def packed(path: Path) -> tuple[str, bytes]:
    """The upload's file name and bytes: a file as it is, a folder as a .tar.gz of its
    files (main.py at the top; caches, virtual environments and .git left out)."""
    if path.is_dir():
        if not (path / ENTRY_POINT).is_file():
            raise PackageError(f"{path} has no {ENTRY_POINT} at its top")
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
            for member in sorted(path.rglob("*")):
                relative = member.relative_to(path)
                if any(part in SKIPPED or part.endswith(".pyc") for part in relative.parts):
                    continue
                if member.is_file() and not member.is_symlink():
                    archive.add(member, arcname=relative.as_posix(), recursive=False)
        return f"{path.resolve().name or 'bot'}.tar.gz", buffer.getvalue()
    if not path.is_file():
        raise PackageError(f"{path}: no such file or folder")
    return path.name, path.read_bytes()


def checked(path: Path) -> tuple[str, bytes]:
    """`packed`, refused here for what the site would refuse."""
    filename, data = packed(path)
    if len(data) > MAX_PACKED_BYTES:
        raise PackageError(
            f"{filename} is {len(data) / 2**20:.1f} MiB; the site takes at most "
            f"{MAX_PACKED_BYTES // 2**20} MiB"
        )
    check_package(data, filename)
    return filename, data


def my_bots(site: Site) -> list[dict[str, Any]]:
    me = site.get("/api/auth/me/")
    bots: list[dict[str, Any]] = []
    page = 1
    while True:
        answer = site.get("/api/bots/", owner=me["username"], page=page, page_size=200)
        bots.extend(answer["results"])
        if not answer.get("next"):
            return bots
        page += 1


def my_bot(site: Site, name: str) -> dict[str, Any] | None:
    """The user's bot of that name (or id), None if there is none."""
    for bot in my_bots(site):
        if bot["name"] == name or str(bot["id"]) == name:
            return bot
    return None


@_reported
def run_submit(args: argparse.Namespace) -> int:
    site = site_of(args)
    filename, data = checked(Path(args.path))
    bot = my_bot(site, args.bot)
    if bot is None:
        if not args.game:
            return fail(f"you have no bot {args.bot!r}: give --game to make it")
        made = site.post_file("/api/bots/", {"name": args.bot, "game": args.game}, filename, data)
        bot_id, number = made["id"], made["versions"][-1]["number"]
        print(f"made {args.bot} ({made['game']}), version v{number}")
    else:
        if args.game and args.game != bot["game"]:
            return fail(f"your bot {bot['name']!r} plays {bot['game']}, not {args.game}")
        version = site.post_file(f"/api/bots/{bot['id']}/versions/", {}, filename, data)
        bot_id, number = bot["id"], version["number"]
        print(f"uploaded {bot['name']} v{number}")
    page = site.page(f"/my/bots/{bot_id}/")
    if args.no_wait:
        print(f"validating; follow it at {page}")
        return 0
    status = follow_validation(site, bot_id, number, args.wait_minutes * 60)
    if status["status"] == "active":
        print(f"v{number} passed validation and is active: it plays on the ladders. {page}")
        return 0
    if status["status"] == "validating":
        print(f"v{number} is still validating after {args.wait_minutes:g} minutes; see {page}")
        return 1
    print(f"v{number} is {status['status']}: {status.get('reason') or 'see the page'}. {page}")
    return 1


def follow_validation(site: Site, bot_id: int, number: int, seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    with progress_bar(0, f"validating v{number}") as progress:
        while True:
            bot = site.get(f"/api/bots/{bot_id}/")
            version = next(v for v in bot["versions"] if v["number"] == number)
            if version["status"] != "validating" or time.monotonic() > deadline:
                return dict(version)
            progress.update(progress.task_ids[0], description=f"validating v{number}")
            time.sleep(POLL_SECONDS)


# --- test ----------------------------------------------------------------------------


def baseline_fields(
    site: Site, bot: dict[str, Any], candidate: int, given: str | None
) -> dict[str, Any]:
    if given is None:
        earlier = [
            v["number"]
            for v in site.get(f"/api/bots/{bot['id']}/")["versions"]
            if v["number"] < candidate and v["status"] in ("active", "retired")
        ]
        return {"baseline_version": max(earlier)} if earlier else {"baseline_builtin": "greedy"}
    if given.startswith("builtin:"):
        return {"baseline_builtin": given.removeprefix("builtin:")}
    if given[:1] == "v" and given[1:].isdigit():
        return {"baseline_version": int(given[1:])}
    owner, slash, name = given.partition("/")
    if slash and owner and name:
        answer = site.get("/api/bots/", owner=owner, game=bot["game"], page_size=200)
        for other in answer["results"]:
            if other["name"] == name:
                return {"baseline_bot": other["id"]}
        raise RemoteError(f"{owner} has no public {bot['game']} bot named {name!r}")
    raise RemoteError(f"--baseline is vN, builtin:NAME or OWNER/NAME, not {given!r}")


@_reported
def run_test(args: argparse.Namespace) -> int:
    site = site_of(args)
    bot = my_bot(site, args.bot)
    if bot is None:
        return fail(f"you have no bot {args.bot!r}")
    candidate = args.version or bot["active_version"]
    if candidate is None:
        return fail(f"{bot['name']} has no active version yet: wait for its validation")
    fields: dict[str, Any] = {
        "candidate": candidate,
        "players": args.players,
        **baseline_fields(site, bot, candidate, args.baseline),
    }
    if args.sprt is not None:
        fields.update(
            elo0=args.sprt.elo0, elo1=args.sprt.elo1, alpha=args.sprt.alpha, beta=args.sprt.beta
        )
    if args.max_games is not None:
        fields["max_games"] = args.max_games
    test = site.post(f"/api/bots/{bot['id']}/tests/", fields)
    page = site.page(f"/bots/{bot['id']}/tests/{test['id']}/")
    print(f"test #{test['id']}: {test['question']}")
    if args.no_wait:
        print(f"follow it at {page}")
        return 0
    test = follow_test(site, bot["id"], test, args.wait_minutes * 60)
    if test["status"] == "running":
        print(f"still running after {args.wait_minutes:g} minutes: {page}")
        return 1
    if test["status"] == "failed":
        print(f"the test failed: {test.get('error') or 'see the page'}. {page}")
        return 1
    print(f"{test['answer']} {test['estimate']}")
    print(page)
    return 0


def follow_test(site: Site, bot_id: int, test: dict[str, Any], seconds: float) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    with progress_bar(test["max_games"], "games") as progress:
        while test["status"] == "running" and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            test = site.get(f"/api/bots/{bot_id}/tests/{test['id']}/")
            llr = test.get("llr")
            evidence = f"evidence {llr:+.2f}" if isinstance(llr, int | float) else "games"
            progress.update(progress.task_ids[0], completed=test["games"], description=evidence)
    return test
