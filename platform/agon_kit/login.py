"""`agon login`: check an API token with the site and keep it for `submit` and `test`."""

from __future__ import annotations

import argparse
import getpass
import sys
from typing import Any

from agon_kit.common import fail
from agon_kit.remote import Site, check_token, find_server, printable, save_token
from agon_kit.site_access import add_site_arguments, reported, shown_token_file

HELP = "keep your API token for the commands that talk to the site"
EPILOG = """\
examples:
  agon login                          # asks for the token shown at /my/token/
  agon login --server https://agon.example
  echo "$TOKEN" | agon login          # from a script

The token is checked with the site before it is kept; `submit` and `test` then send it
with every request. --token or $AGON_TOKEN, when given, go before the file.
"""


def register(commands: Any) -> None:
    login = commands.add_parser(
        "login",
        help=HELP,
        description="Check an API token with the site and keep it in "
        f"{shown_token_file()} (readable by you only) for `submit` and `test`. The token "
        "is on the site's page /my/token/, once you are signed in.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add_site_arguments(login)
    login.set_defaults(run=run_login)


@reported
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
    me = Site(server, check_token(token, server)).get("/api/auth/me/")
    path = save_token(token)
    print(f"signed in to {server} as {printable(me['username'])}; the token is kept in {path}")
    return 0
