"""`agon test`: start a version test of your bot on the site (is a version stronger than a
baseline?) and follow it to its verdict.

The version under test is the newest, as on the bot's page: one still validating is
waited for first (it is the one just submitted), one rejected is not quietly replaced
by an older one."""

from __future__ import annotations

import argparse
import time
from typing import Any

from agon_kit.common import fail
from agon_kit.progress import progress_bar
from agon_kit.remote import RemoteError, Site, printable
from agon_kit.remote_bots import (
    POLL_SECONDS,
    VALIDATING,
    follow_validation,
    my_bot,
    versions_of,
)
from agon_kit.site_access import add_site_arguments, add_wait_arguments, reported, site_of
from agon_kit.sprt_option import parse_sprt

HELP = "start a version test of your bot on the site and follow it"
PLAYED = ("active", "retired")
"""The statuses of versions that passed validation: those a test may play."""
RUNNING = "running"
EPILOG = """\
examples:
  agon test --bot first                                # newest version against the one before
  agon test --bot first --baseline builtin:greedy --sprt elo0=0,elo1=30
  agon test --bot first --version 4 --baseline v2 --players 4
  agon test --bot first --baseline alice/rival         # another user's public bot

The site plays pairs of games (seats swapped, each dealt afresh) until a sequential test
decides, as `agon match` does here: yes, the version is at least elo1 Elo stronger; no,
it is elo0 Elo stronger or less; or inconclusive at the game limit. The command follows
it with a progress line, then prints the answer, the Elo estimate and the test's page.
The games count in your daily budget of version-test games on the site.
Exit status: 0 a verdict (or not waited for), 1 failed or still running, 2 refused.
"""


def register(commands: Any) -> None:
    test = commands.add_parser(
        "test",
        help=HELP,
        description="Start a version test on the site: is a version of your bot stronger "
        "than a baseline? The version must pass validation first; the newest one is "
        "waited for while it validates.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    test.add_argument("--bot", required=True, help="your bot's name (or its id)")
    test.add_argument(
        "--version", type=int, metavar="N", help="the version under test (default: the newest)"
    )
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
    test.add_argument("--max-games", type=int, metavar="N", help="the game limit (default 400)")
    add_wait_arguments(test, "test")
    add_site_arguments(test)
    test.set_defaults(run=run_test)


@reported
def run_test(args: argparse.Namespace) -> int:
    site = site_of(args)
    bot = my_bot(site, args.bot)
    if bot is None:
        return fail(f"you have no bot {args.bot!r}")
    bot_id = int(bot["id"])
    try:
        candidate = candidate_version(site, bot, args)
    except KeyboardInterrupt:
        print(f"stopped waiting; the validation goes on: {site.page(f'/my/bots/{bot_id}/')}")
        return 130
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
    test = site.post(f"/api/bots/{bot_id}/tests/", fields)
    page = site.page(f"/bots/{bot_id}/tests/{int(test['id'])}/")
    print(f"test #{int(test['id'])}: {printable(test['question'])}", flush=True)
    if args.no_wait:
        print(f"follow it at {page}")
        return 0
    try:
        test = follow_test(site, bot_id, test, args.wait_minutes * 60)
    except KeyboardInterrupt:
        print(f"stopped following; the test goes on: {page}")
        return 130
    if test["status"] == RUNNING:
        print(f"still running after {args.wait_minutes:g} minutes: {page}")
        return 1
    if test["status"] == "failed":
        print(f"the test failed: {printable(test.get('error') or 'see the page')}. {page}")
        return 1
    print(f"{printable(test['answer'])} {printable(test['estimate'])}")
    print(page)
    return 0


def candidate_version(site: Site, bot: dict[str, Any], args: argparse.Namespace) -> int:
    """The number of the version to test: --version, else the newest; waited for while
    it validates (unless --no-wait); RemoteError when it cannot be tested."""
    name = printable(bot["name"])
    versions = versions_of(site, int(bot["id"]))
    if not versions:
        raise RemoteError(f"{name} has no version yet: `agon-kit submit` one")
    if args.version is None:
        version, which = versions[-1], ", your newest version,"
    else:
        found = [v for v in versions if v["number"] == args.version]
        if not found:
            raise RemoteError(f"{name} has no version v{args.version}")
        version, which = found[0], ""
    number = int(version["number"])
    if version["status"] == VALIDATING:
        if args.no_wait:
            played = [int(v["number"]) for v in versions if v["status"] in PLAYED]
            instead = f", or give --version {played[-1]}" if played else ""
            raise RemoteError(
                f"{name} v{number} is still validating: leave out --no-wait to wait for it"
                + instead
            )
        print(f"{name} v{number} is still validating: waiting for it", flush=True)
        version = follow_validation(site, int(bot["id"]), number, args.wait_minutes * 60)
        if version["status"] == VALIDATING:
            raise RemoteError(
                f"{name} v{number} is still validating after {args.wait_minutes:g} minutes"
            )
        if version["status"] in PLAYED:
            print(f"{name} v{number} passed validation", flush=True)
    if version["status"] not in PLAYED:
        reason = printable(version.get("reason") or "see the bot's page")
        later = "give --version to test an earlier one" if which else "it cannot be tested"
        raise RemoteError(
            f"{name} v{number}{which} was {printable(version['status'])} ({reason}): {later}"
        )
    return number


def baseline_fields(
    site: Site, bot: dict[str, Any], candidate: int, given: str | None
) -> dict[str, Any]:
    """The API's baseline field for --baseline (default: the played version before the
    candidate, else the greedy builtin bot, as the bot's page offers)."""
    if given is None:
        earlier = [
            int(v["number"])
            for v in versions_of(site, int(bot["id"]))
            if int(v["number"]) < candidate and v["status"] in PLAYED
        ]
        return {"baseline_version": max(earlier)} if earlier else {"baseline_builtin": "greedy"}
    if given.startswith("builtin:"):
        return {"baseline_builtin": given.removeprefix("builtin:")}
    if given[:1] == "v" and given[1:].isdigit():
        return {"baseline_version": int(given[1:])}
    owner, slash, name = given.partition("/")
    if slash and owner and name:
        for page in range(1, 51):
            answer = site.get("/api/bots/", owner=owner, game=bot["game"], page=page, page_size=200)
            for other in answer["results"]:
                if other["name"] == name:
                    return {"baseline_bot": int(other["id"])}
            if not answer.get("next"):
                break
        raise RemoteError(f"{printable(owner)} has no {printable(bot['game'])} bot named {name!r}")
    raise RemoteError(f"--baseline is vN, builtin:NAME or OWNER/NAME, not {given!r}")


def follow_test(site: Site, bot_id: int, test: dict[str, Any], seconds: float) -> dict[str, Any]:
    """The test once it ended, or as it is after `seconds`; a progress line meanwhile."""
    deadline = time.monotonic() + seconds
    with progress_bar(int(test["max_games"]), "games") as progress:
        while test["status"] == RUNNING and time.monotonic() < deadline:
            time.sleep(POLL_SECONDS)
            test = site.get(f"/api/bots/{bot_id}/tests/{int(test['id'])}/")
            llr = test.get("llr")
            evidence = f"evidence {llr:+.2f}" if isinstance(llr, int | float) else "games"
            progress.update(
                progress.task_ids[0], completed=int(test["games"]), description=evidence
            )
    return test
