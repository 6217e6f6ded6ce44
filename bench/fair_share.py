"""Ranked matches a minute on `make run`, with and without a large private tournament,
and a version test's pace while the ladders are busy.

It starts `agon up` as `make run` does (SQLite, the file-system broker, bwrap boxes,
every example bot on every ladder, two matches at once) on a fresh data folder and a
free port (or --port), waits until the ladders play, then measures, each for --minutes:

1. ranked matches finished a minute, the ladders alone;
2. the same while a private Swiss of --entrants random bots runs (made through the
   platform's services, owned by one user, its bots' versions stored active without a
   validation match each: what matters here is the Swiss's games), with the Swiss's own
   games a minute; the Swiss is cancelled after;
3. a version test (a random bot against builtin random, at most --max-games games, the
   default SPRT) started while the ladders play: its games a minute, and its wall time
   if it ends within --test-minutes.

Ratios are against window 1 of the same run. Counts come from the SQLite file itself.

    .venv/bin/python bench/fair_share.py [--minutes 3] [--entrants 255] [--max-games 200]

--entry-seconds (20) is how long the Swiss's entry stays open, --beat-seconds how often
beat fills the ladders and moves tournaments on (AGON_MATCHMAKING_SECONDS and
AGON_TOURNAMENT_SECONDS; default the settings', 5): a tiny run shortens both.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

READY = re.compile(r"ready: open http://")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="each window (3)")
    parser.add_argument("--entrants", type=int, default=255, help="the Swiss's bots (255)")
    parser.add_argument("--rounds", type=int, default=7, help="the Swiss's rounds (7)")
    parser.add_argument("--max-games", type=int, default=200, help="the test's limit (200)")
    parser.add_argument(
        "--test-minutes", type=float, default=30.0, help="how long to wait for the test (30)"
    )
    parser.add_argument("--game", default="akropolis", help="the Swiss's and the test's game")
    parser.add_argument("--port", type=int, default=0, help="agon up's port (default: free)")
    parser.add_argument(
        "--games", default="", help="agon up --games: the ladders that play (default: all)"
    )
    parser.add_argument(
        "--entry-seconds", type=float, default=20.0, help="the Swiss's entry stays open (20)"
    )
    parser.add_argument(
        "--beat-seconds",
        type=float,
        help="how often beat runs matchmaking and the tournaments (default the settings', 5)",
    )
    args = parser.parse_args(argv)
    beat = {} if args.beat_seconds is None else _beat_env(args.beat_seconds)
    with (
        tempfile.TemporaryDirectory(prefix="agon-fair-") as folder,
        _agon_up(Path(folder), args.games, args.port, beat) as up,
    ):
        os.environ["AGON_VAR_DIR"] = str(Path(folder) / "var")
        os.environ["DJANGO_SETTINGS_MODULE"] = "agon.settings.local"
        import django

        django.setup()
        counts = Counts(Path(folder) / "var" / "agon.sqlite3")
        _wait(lambda: counts.finished("ranked", since=None) >= 2, 600, "ranked matches", up)
        alone = _window("the ladders alone", args.minutes, counts)
        swiss = _private_swiss(args.entrants, args.rounds, args.game, args.entry_seconds)
        _wait(lambda: counts.started("tournament") > 0, 120, "the Swiss's first game", up)
        with_swiss = _window("with the private Swiss", args.minutes, counts)
        _cancel(swiss)
        test, started = _version_test(args.game, args.max_games), time.monotonic()
        with_test = _window("with a version test", args.minutes, counts)
        ended = _test_end(test, started, args.test_minutes)
    ratio = with_swiss["ranked"] / alone["ranked"] if alone["ranked"] else float("nan")
    print()
    print(
        f"ranked a minute: alone {alone['ranked']:.1f}, with the Swiss {with_swiss['ranked']:.1f}"
        f" ({ratio:.2f}x); its games {with_swiss['tournament']:.1f} a minute"
    )
    print(
        f"with the version test: ranked {with_test['ranked']:.1f} a minute, "
        f"the test's games {with_test['version_test']:.1f} a minute"
    )
    print(ended)
    return 0


class Counts:
    """Matches counted in the platform's SQLite file (read-only, beside the writers)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _one(self, sql: str, *params: object) -> int:
        with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as db:
            db.execute("PRAGMA busy_timeout = 10000")
            return int(db.execute(sql, params).fetchone()[0])

    def finished(self, kind: str, since: datetime | None) -> int:
        floor = (since or datetime(2000, 1, 1, tzinfo=UTC)).strftime("%Y-%m-%d %H:%M:%S.%f")
        return self._one(
            "SELECT count(*) FROM matches_match WHERE kind = ? AND status = 'finished' "
            "AND finished >= ?",
            kind,
            floor,
        )

    def slots_held(self, kind: str, start: datetime, end: datetime) -> float:
        """How many matches of `kind` played at once, on average, from `start` to `end`:
        the part of the workers the kind held."""
        text = "%Y-%m-%d %H:%M:%S.%f"
        with contextlib.closing(sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)) as db:
            db.execute("PRAGMA busy_timeout = 10000")
            rows = db.execute(
                "SELECT started, finished FROM matches_match WHERE kind = ? AND started < ? "
                "AND (finished IS NULL OR finished > ?)",
                (kind, end.strftime(text), start.strftime(text)),
            ).fetchall()
        held = 0.0
        for began, ended in rows:
            first = max(start, _parsed(began))
            last = min(end, _parsed(ended) if ended else end)
            held += max(0.0, (last - first).total_seconds())
        return held / (end - start).total_seconds()

    def started(self, kind: str) -> int:
        return self._one(
            "SELECT count(*) FROM matches_match WHERE kind = ? AND started IS NOT NULL", kind
        )


def _parsed(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


KINDS = ("ranked", "tournament", "version_test")


def _window(name: str, minutes: float, counts: Counts) -> dict[str, float]:
    since = datetime.now(UTC)
    time.sleep(minutes * 60)
    rates = {kind: counts.finished(kind, since) / minutes for kind in KINDS}
    held = {kind: counts.slots_held(kind, since, datetime.now(UTC)) for kind in KINDS}
    shown = ", ".join(f"{kind} {rate:.1f}" for kind, rate in rates.items())
    slots = ", ".join(f"{kind} {share:.2f}" for kind, share in held.items())
    print(f"{name}: {shown} a minute; slots held: {slots}")
    sys.stdout.flush()
    return rates


def _beat_env(seconds: float) -> dict[str, str]:
    if not 0 < seconds <= 3600:
        raise SystemExit(f"--beat-seconds must be in (0, 3600], not {seconds:g}")
    return {"AGON_MATCHMAKING_SECONDS": str(seconds), "AGON_TOURNAMENT_SECONDS": str(seconds)}


def _private_swiss(entrants: int, rounds: int, game: str, entry_seconds: float) -> int:
    from django.contrib.auth.models import User
    from django.core.files.base import ContentFile
    from django.utils import timezone

    from agon.accounts.services import user_register
    from agon.bots.models import Bot, BotVersion
    from agon.tournaments.services import entry_create, tournament_create

    source = (ROOT / "examples" / "bots" / "random_bot.py").read_bytes()
    owner = User.objects.filter(username="swiss-owner").first() or user_register(
        username="swiss-owner",
        password="a long password",  # noqa: S106 - a bench's user
    )
    tournament = tournament_create(
        owner=owner,
        name="a large private Swiss",
        game=game,
        format="swiss",
        rounds=rounds,
        max_entrants=entrants,
        entry_closes=timezone.now() + timedelta(seconds=entry_seconds),
    )
    for number in range(entrants):
        bot = Bot.objects.create(owner=owner, name=f"swiss-{number}", game=game)
        version = BotVersion(
            bot=bot,
            number=1,
            filename="main.py",
            sha256="0" * 64,
            size=len(source),
            status=BotVersion.Status.ACTIVE,
        )
        version.archive.save("main.py", ContentFile(source), save=False)
        version.save()
        entry_create(user=owner, tournament_id=tournament.id, bot_id=bot.id)
    print(
        f"a private Swiss of {entrants} bots, {rounds} rounds: entry closes in {entry_seconds:g} s"
    )
    return tournament.id


def _cancel(tournament_id: int) -> None:
    from django.contrib.auth.models import User

    from agon.tournaments.cancellation import tournament_cancel
    from agon.tournaments.models import Tournament

    if Tournament.objects.get(id=tournament_id).status == Tournament.Status.FINISHED:
        return  # a small one may be over already
    tournament_cancel(user=User.objects.get(username="swiss-owner"), tournament_id=tournament_id)


def _version_test(game: str, max_games: int) -> int:
    from django.contrib.auth.models import User

    from agon.bots.models import Bot
    from agon.version_testing.services import Baseline, version_test_create

    owner = User.objects.get(username="swiss-owner")
    bot = Bot.objects.filter(owner=owner, game=game).order_by("id").first()
    assert bot is not None
    test = version_test_create(
        user=owner, bot=bot, candidate=1, baseline=Baseline(builtin="random"), max_games=max_games
    )
    return test.id


def _test_end(test_id: int, started: float, minutes: float) -> str:
    from agon.version_testing.models import VersionTest

    deadline = started + minutes * 60
    while time.monotonic() < deadline:
        test = VersionTest.objects.get(id=test_id)
        if test.status != VersionTest.Status.RUNNING:
            wall = (time.monotonic() - started) / 60
            return (
                f"the version test ended ({test.status}, {test.verdict or '-'}) after "
                f"{test.games_counted} games in {wall:.1f} min"
            )
        time.sleep(2)
    test = VersionTest.objects.get(id=test_id)
    return f"the version test still ran after {minutes:.0f} min: {test.games_counted} games"


@contextlib.contextmanager
def _agon_up(folder: Path, games: str, port: int, beat: dict[str, str]) -> Iterator[list[str]]:
    if not port:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
    env = {k: v for k, v in os.environ.items() if not k.startswith("AGON_")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(AGON_VAR_DIR=str(folder / "var"), NO_COLOR="1", **beat)
    argv = [sys.executable, "-m", "agon.cli", "up", "--port", str(port), "--status-seconds", "0"]
    if games:
        argv += ["--games", games]
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(ROOT / "platform")])
    process = subprocess.Popen(  # noqa: S603 - a fixed argv
        argv,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    lines: list[str] = []

    def read() -> None:
        assert process.stdout is not None
        for raw in process.stdout:
            lines.append(raw.decode(errors="replace").rstrip())

    threading.Thread(target=read, daemon=True).start()
    try:
        _wait(lambda: any(READY.search(line) for line in lines), 300, "agon up", lines)
        yield lines
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=30)


def _wait(done: Callable[[], bool], seconds: float, what: str, lines: list[str]) -> None:
    deadline = time.monotonic() + seconds
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit(f"waited {seconds:.0f} s for {what}:\n" + "\n".join(lines[-40:]))
        time.sleep(1)


if __name__ == "__main__":
    raise SystemExit(main())
