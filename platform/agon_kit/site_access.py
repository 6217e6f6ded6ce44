"""What `login`, `submit` and `test` share: the options naming the site and the token,
those of following something the site does, and one line instead of a traceback for
whatever goes wrong between the command and the site."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable
from pathlib import Path

from agon_kit.common import fail
from agon_kit.remote import (
    DEFAULT_SERVER,
    SERVER_VARIABLE,
    TOKEN_VARIABLE,
    RemoteError,
    Site,
    check_token,
    find_server,
    find_token,
    printable,
    token_file,
)
from sandbox.errors import PackageError

DEFAULT_WAIT_MINUTES = 30.0
UNEXPECTED_ANSWERS = (KeyError, IndexError, TypeError, ValueError, AttributeError)
"""What reading an answer of another shape than the API's raises: a site newer (or older)
than the kit, or something else answering at the site's address."""

Command = Callable[[argparse.Namespace], int]


def add_site_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--server",
        help=f"the site's address (default ${SERVER_VARIABLE}, else {DEFAULT_SERVER})",
    )
    parser.add_argument(
        "--token", help=f"your API token (default ${TOKEN_VARIABLE}, else the one `login` kept)"
    )


def add_wait_arguments(parser: argparse.ArgumentParser, what: str) -> None:
    parser.add_argument(
        "--no-wait", action="store_true", help=f"start the {what} and return at once"
    )
    parser.add_argument(
        "--wait-minutes",
        type=minutes,
        default=DEFAULT_WAIT_MINUTES,
        metavar="M",
        help=f"how long to follow the {what} at most (default {DEFAULT_WAIT_MINUTES:g})",
    )


def minutes(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a number of minutes, not {text!r}") from None
    if not 0 < value <= 24 * 60:
        raise argparse.ArgumentTypeError(f"from 0 to a day's 1440 minutes, not {text}")
    return value


def shown_token_file() -> str:
    home = str(Path.home())
    path = str(token_file())
    return "~" + path[len(home) :] if path.startswith(home) else path


def site_of(args: argparse.Namespace) -> Site:
    """The site --server names, with the token of --token, $AGON_TOKEN or the file."""
    server = find_server(args.server)
    token = find_token(args.token)
    if not token:
        raise RemoteError(
            f"no API token: get yours at {server}/my/token/, then run `agon-kit login` "
            f"(or pass --token, or set ${TOKEN_VARIABLE})"
        )
    return Site(server, check_token(token, server))


def reported(command: Command) -> Command:
    """`command`, with whatever the site or the bot's files refuse as one line."""

    @functools.wraps(command)
    def run(args: argparse.Namespace) -> int:
        try:
            return command(args)
        except (RemoteError, PackageError) as error:
            return fail(str(error))
        except UNEXPECTED_ANSWERS as error:
            server = find_server(args.server)
            unexpected = f"{type(error).__name__}: {printable(error, 80)}"
            return fail(
                f"{server} answered what this kit does not expect ({unexpected}): is the kit "
                f"older than the site? Get the new one at {server}/docs/"
            )

    return run
