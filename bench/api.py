"""API latency under load: the read endpoints on a database of a busy site.

A PostgreSQL database of its own (agon_bench_api by default, made afresh each run, or
kept from the last run with --reuse) is migrated and filled with 2,000 users owning
10,000 bots (each with an active version; a fifth also with a retired one), their
ratings on the default ladders and 200,000 matches with their seats: mostly ranked on
the ladders and finished, with scores, ranks, a few faults and failures, the newest
queued or running; a validation match per version and some challenges; 5% of the seats
have a log of 1 to 8 KiB. Two public Swiss tournaments of 256 Akropolis bots, paired by
the real format, take the first match ids: one finished (2,304 games), one running (4
rounds decided, the fifth half decided, a quarter of it running, a quarter queued). Every
finished ranked match has its rating changes, from the
real rating system (`competition.ratings`) played through in order, so the ratings, games
and wins are those the matches give. Replays are real (a random game per ladder, played by the
engine) and shared: each finished match points at its ladder's file, and every version
at one small archive, in a temporary MEDIA_ROOT. Rows go in with COPY, the foreign keys'
triggers off and the secondary indexes built after; then VACUUM ANALYZE.

Then the real app (`agon.wsgi`, production settings by default: persistent database
connections, no debug) is started under gunicorn (sync workers) on a free loopback port,
and this process plays clients against one endpoint at a time: leaderboards (page 1, the
middle page, the last page; a random ladder per request), the match list (first page
unfiltered, filtered by bot, by ladder, by status, and a page three quarters deep) and
replays and timelines of random finished matches, then every other read endpoint: a
match, the games, the ladders, a random page of the bots, a bot, the tournaments, and
each tournament's detail and a random page of its games. Per endpoint, after a short
warm-up: one client
(requests one at a time: the service time), then 16 concurrent clients for --requests
requests or --seconds seconds, whichever ends first. It prints the requests/s, the
p50/p99 latency seen by the clients (a new connection per request, as gunicorn's sync
workers close them, and the wait for a free worker) and in the worker (gunicorn's
access log, %(D)s: the app alone), and the CPU each request took in the workers, the
database's backends and the clients (from /proc). The target is p99 < 100 ms (clients).

    .venv/bin/python bench/api.py [--reuse] [--workers 3] [--clients 16] [--compare DIR]

--compare DIR serves the app of another checkout too (a git worktree of an earlier
commit: `git worktree add DIR <commit>`), from the same database, with a gunicorn, a cache
and broker keys of its own, and measures the two in turn endpoint by endpoint (the first
one alternating), so that both see the same load; a table each.

PostgreSQL on 127.0.0.1:5432 as postgres (trust auth). Migrations run with
DJANGO_SETTINGS_MODULE=agon.settings.test and AGON_TEST_DATABASE_URL set to the bench
database. The database is kept for --reuse (--drop removes it at the end); the server
is stopped and the temporary folder removed whatever happens. The server's broker is
Redis database 14 (--broker-url; no task is sent, but the rate limits count there, under
--redis-prefix, deleted at the end) and its cache a capped redis-server started for the
run (--cache-url names another; production settings want it on a server of its own);
it listens on a free port (--port). Figures are in
bench/README.md; `--explain` prints every query of each endpoint with its EXPLAIN
ANALYZE.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import http.client
import json
import os
import random
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from rich.progress import Progress  # noqa: E402

from bench.redis_support import (  # noqa: E402
    DEFAULT_PREFIX,
    cache_server,
    delete_keys,
    free_port,
    key_prefix,
    prefix_environment,
)

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/agon_bench_api"
TARGET_P99_MS = 100.0
GAME_SHARES = {"akropolis": 0.35, "attika": 0.25, "megalopolis": 0.25, "architekton": 0.15}
"""How the bots spread over the games."""
SECOND_VERSION_SHARE = 0.2
CHALLENGE_SHARE = 0.04
FAILED_SHARE = 0.005
FAULT_SHARE = 0.02
LOG_SHARE = 0.05
"""Seats whose bot wrote something on stderr: 1 to 8 KiB of it (the sandbox keeps up to
256 KiB), from a few made-up logs."""
UNFINISHED = (30, 10)
"""The newest matches: this many queued, then this many running."""
INACTIVE_RATING_SHARE = 0.02
HISTORY_DAYS = 120
CHUNK_ROWS = 20_000
ACCESS_LOG_FORMAT = '%({x-bench}i)s %(s)s %(D)s "%(r)s"'


# --- The database ------------------------------------------------------------------------


def admin_url(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return urlunsplit(parts._replace(scheme="postgresql", path="/postgres")), parts.path[1:]


def database_exists(url: str) -> bool:
    import psycopg

    admin, name = admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        found = connection.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name])
        return found.fetchone() is not None


def recreate_database(url: str) -> None:
    import psycopg

    admin, name = admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        connection.execute(f'CREATE DATABASE "{name}"')


def drop_database(url: str) -> None:
    import psycopg

    admin, name = admin_url(url)
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def configure_django(database_url: str, var_dir: Path) -> None:
    os.environ.update(
        {
            "DJANGO_SETTINGS_MODULE": "agon.settings.test",
            "AGON_TEST_DATABASE_URL": database_url,
            "AGON_VAR_DIR": str(var_dir),
            "AGON_LOG_LEVEL": "WARNING",
        }
    )
    import django

    django.setup()


def migrate() -> None:
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


# --- The files: one archive, one real replay per ladder ----------------------------------

ARCHIVE_NAME = "bots/bench-bot.py"
BOT_SOURCE = b"""\
import random
import secrets

from agon_bot import Bot, run


class RandomBot(Bot):
    def act(self, observation, legal_actions):
        return random.choice(legal_actions)


run(RandomBot())
"""


def replay_name(game: str, players: int) -> str:
    return f"replays/bench-{game}-{players}p.json"


def write_media(media_root: Path, ladders: Iterable[tuple[str, int]]) -> bytes:
    """The shared archive and a replay per (game, players); the archive's bytes."""
    from engine import get_game
    from engine.bots import builtin_bot
    from engine.match import play_match

    source = BOT_SOURCE
    (media_root / "bots").mkdir(parents=True, exist_ok=True)
    (media_root / ARCHIVE_NAME).write_bytes(source)
    (media_root / "replays").mkdir(parents=True, exist_ok=True)
    for game, players in ladders:
        seed = 1000 + players
        replay = play_match(
            get_game(game),
            seed=seed,
            players=players,
            options={},
            bots=[builtin_bot("random", game, seed, seat) for seat in range(players)],
            bot_ids=[f"bench/bot{seat}@v1" for seat in range(players)],
        )
        (media_root / replay_name(game, players)).write_text(replay.dumps())
    return source


# --- The rows ----------------------------------------------------------------------------


NULL = "\\N"


COPY_ESCAPES = str.maketrans({"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r"})


def tsv(value: object) -> str:
    """A value in COPY's text format."""
    if value is None:
        return NULL
    if isinstance(value, bool):
        return "t" if value else "f"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, list | dict):
        return json.dumps(value, separators=(",", ":")).translate(COPY_ESCAPES)
    return str(value).translate(COPY_ESCAPES)


@dataclass
class Table:
    name: str
    columns: tuple[str, ...]
    rows: list[str] = field(default_factory=list)
    """Lines in COPY's text format, without their newline."""

    def add(self, *values: object) -> None:
        self.rows.append("\t".join(map(tsv, values)))


@dataclass
class Site:
    """Everything the load writes, as rows in column order."""

    tables: dict[str, Table]

    def table(self, name: str, *columns: str) -> Table:
        return self.tables.setdefault(name, Table(name, columns))


def make_site(
    args: argparse.Namespace, ladders: Sequence[Any], archive: bytes, progress: Progress
) -> Site:
    """Users, bots, versions, matches, seats, rating changes and ratings; deterministic for a
    given --seed (timestamps count back from now)."""
    from competition import ratings as rating_system
    from engine.core import competition_ranks
    from engine.registry import get_game

    rng = random.Random(args.seed)
    now = datetime.now(UTC).replace(microsecond=0)
    start = now - timedelta(days=HISTORY_DAYS)
    site = Site({})

    users = site.table(
        "auth_user",
        "id", "password", "last_login", "is_superuser", "username", "first_name",
        "last_name", "email", "is_staff", "is_active", "date_joined",
    )  # fmt: skip
    for user_id in range(1, args.users + 1):
        joined = start + timedelta(seconds=rng.uniform(0, HISTORY_DAYS * 86400 * 0.8))
        name = f"user{user_id:05d}"
        users.add(
            user_id, "!", None, False, name, "", "", f"{name}@example.org", False, True, joined
        )

    # Bots: a few owners have many, most have a handful (a Pareto spread).
    bots = site.table("bots_bot", "id", "owner_id", "name", "game", "created")
    versions = site.table(
        "bots_botversion",
        "id", "bot_id", "number", "archive", "filename", "sha256", "size", "status", "reason",
        "created",
    )  # fmt: skip
    owner_weights = [rng.paretovariate(1.5) for _ in range(args.users)]
    owners = rng.choices(range(1, args.users + 1), weights=owner_weights, k=args.bots)
    owners[: args.users] = range(1, min(args.users, args.bots) + 1)  # every user has one
    games = list(GAME_SHARES)
    bot_game: dict[int, str] = {}
    versions_of: dict[int, list[int]] = {}
    version_bot: dict[int, int] = {}
    switch_at: dict[int, int] = {}
    """Bots with a second version: the first match (index) it plays in."""
    sha = hashlib.sha256(archive).hexdigest()
    version_id = 0
    dealt = first_bots_games()
    for bot_id in range(1, args.bots + 1):
        game = rng.choices(games, weights=list(GAME_SHARES.values()))[0]
        if bot_id <= len(dealt):  # a small site too can fill each ladder's tables
            game = dealt[bot_id - 1]
        bot_game[bot_id] = game
        created = start + timedelta(seconds=rng.uniform(0, HISTORY_DAYS * 86400 * 0.5))
        bots.add(bot_id, owners[bot_id - 1], f"bot{bot_id:05d}", game, created)
        count = 2 if rng.random() < SECOND_VERSION_SHARE else 1
        versions_of[bot_id] = []
        for number in range(1, count + 1):
            version_id += 1
            status = "active" if number == count else "retired"
            versions.add(
                version_id, bot_id, number, ARCHIVE_NAME, "main.py", sha, len(archive),
                status, "", created + timedelta(days=number - 1),
            )  # fmt: skip
            versions_of[bot_id].append(version_id)
            version_bot[version_id] = bot_id
        if count == 2:
            switch_at[bot_id] = rng.randrange(args.matches)

    game_bots: dict[str, list[int]] = {game: [] for game in games}
    for bot_id, game in bot_game.items():
        game_bots[game].append(bot_id)

    def version_at(bot_id: int, index: int) -> int:
        vs = versions_of[bot_id]
        return vs[-1] if len(vs) == 1 or index >= switch_at[bot_id] else vs[0]

    # Matches, oldest first: a validation match per version, challenges, ranked the rest.
    matches = site.table(
        "matches_match",
        "id", "kind", "ladder_id", "game", "players", "options", "seed", "status",
        "attempts", "claimed_by", "error", "created_by_id", "created", "started",
        "finished", "scores", "ranks", "faults", "replay", "match_seconds",
        "pipeline_seconds",
    )  # fmt: skip
    seats = site.table(
        "matches_matchseat",
        "id", "match_id", "seat", "version_id", "builtin", "rank", "score", "fault", "log",
        "log_dropped_bytes", "thinking_seconds",
    )  # fmt: skip
    changes = site.table(
        "ladders_ratingchange",
        "id", "match_id", "ladder_id", "bot_id", "version_id", "before", "deviation_before",
        "after", "deviation_after", "provisional", "created",
    )  # fmt: skip
    validations = list(version_bot)
    rng.shuffle(validations)
    kinds = ["validation"] * min(len(validations), args.matches)
    challenges = int(args.matches * CHALLENGE_SHARE)
    kinds += ["challenge"] * challenges
    kinds += ["ranked"] * (args.matches - len(kinds))
    rng.shuffle(kinds)
    queued, running = UNFINISHED
    rated: dict[tuple[int, int], list[Any]] = {}
    """(ladder, bot) -> [rating, games, version games, wins, version, last rated]."""
    step = HISTORY_DAYS * 86400 / args.matches
    logs = [bot_log(rng, 1024 * (1 + n % 8)) for n in range(16)]
    # The tournaments' matches take the first ids, the history's follow.
    first_id = make_tournaments(args, rng, site, game_bots["akropolis"], versions_of, owners, now)
    seat_id = len(seats.rows)
    change_id = 0
    task = progress.add_task("making rows", total=args.matches)
    for index, kind in enumerate(kinds):
        match_id = first_id + index
        created = start + timedelta(seconds=index * step)
        ladder = None
        builtins: list[str] = []
        if kind == "validation":
            version = validations.pop()
            game = bot_game[version_bot[version]]
            players = min(get_game(game).player_counts)
            seat_versions: list[int | None] = [version] + [None] * (players - 1)
            builtins = [""] + ["random"] * (players - 1)
        else:
            ladder = ladders[rng.randrange(len(ladders))]
            game, players = ladder.game, ladder.players
            seat_bots = rng.sample(game_bots[game], players)
            seat_versions = [version_at(bot, index) for bot in seat_bots]
            builtins = [""] * players
        from_end = args.matches - index
        status = (
            "queued"
            if from_end <= queued
            else "running"
            if from_end <= queued + running
            else "failed"
            if rng.random() < FAILED_SHARE
            else "finished"
        )
        started = created + timedelta(seconds=rng.uniform(0.5, 5)) if status != "queued" else None
        match_seconds = rng.uniform(1, 20)
        finished = (
            started + timedelta(seconds=match_seconds + 0.3)
            if started is not None and status in ("finished", "failed")
            else None
        )
        scores: list[int] = []
        ranks: list[int] = []
        faults: list[dict[str, object]] = []
        if status == "finished":
            scores = [rng.randrange(20, 120) for _ in range(players)]
            faulted = {seat for seat in range(players) if rng.random() < FAULT_SHARE}
            faults = [
                {"seat": seat, "kind": "timeout", "turn": rng.randrange(1, 40), "detail": "slow"}
                for seat in sorted(faulted)
            ]
            ranks = competition_ranks(
                [(0 if seat in faulted else 1, score) for seat, score in enumerate(scores)]
            )
        assert seat_versions[0] is not None
        creator = owners[version_bot[seat_versions[0]] - 1] if kind == "challenge" else NULL
        # The big tables' lines are written out here: much faster than through tsv().
        done = status == "finished"
        finished_text = finished.isoformat() if finished else NULL
        matches.rows.append(
            f"{match_id}\t{kind}\t{ladder.id if ladder else NULL}\t{game}\t{players}\t{{}}\t"
            f"{rng.getrandbits(62)}\t{status}\t{0 if status == 'queued' else 1}\t"
            f"{'' if status == 'queued' else f'worker{index % 4}@bench'}\t"
            f"{'SandboxError: the box did not start' if status == 'failed' else ''}\t"
            f"{creator}\t{created.isoformat()}\t{started.isoformat() if started else NULL}\t"
            f"{finished_text}\t{json.dumps(scores)}\t{json.dumps(ranks)}\t"
            f"{json.dumps(faults)}\t{replay_name(game, players) if done else ''}\t"
            f"{match_seconds if finished else NULL}\t{match_seconds + 0.4 if finished else NULL}"
        )
        for seat in range(players):
            seat_id += 1
            fault = next((str(f["kind"]) for f in faults if f["seat"] == seat), "")
            seats.rows.append(
                f"{seat_id}\t{match_id}\t{seat}\t{seat_versions[seat] or NULL}\t"
                f"{builtins[seat]}\t{ranks[seat] if done else NULL}\t"
                f"{scores[seat] if done else NULL}\t{fault}\t"
                f"{rng.choice(logs) if done and rng.random() < LOG_SHARE else ''}\t0\t"
                f"{rng.uniform(0.1, 5) if done else NULL}"
            )
        if kind == "ranked" and status == "finished" and ladder is not None:
            states = []
            for seated in seat_versions:
                assert seated is not None
                bot = version_bot[seated]
                state = rated.setdefault(
                    (ladder.id, bot), [rating_system.initial(), 0, 0, 0, seated, None]
                )
                if state[4] != seated:  # a new version is provisional again
                    state[2], state[4] = 0, seated
                states.append(state)
            afters = rating_system.update([s[0] for s in states], ranks, [s[2] for s in states])
            for state, seated, after, rank in zip(
                states, seat_versions, afters, ranks, strict=True
            ):
                change_id += 1
                before = state[0]
                provisional = rating_system.is_provisional(before, state[2])
                changes.rows.append(
                    f"{change_id}\t{match_id}\t{ladder.id}\t{version_bot[seated or 0]}\t"
                    f"{seated}\t{before.value}\t{tsv(before.deviation)}\t"
                    f"{after.value}\t{tsv(after.deviation)}\t"
                    f"{'t' if provisional else 'f'}\t{finished_text}"
                )
                state[0] = after
                state[1] += 1
                state[2] += 1
                state[3] += int(rank == 1)
                state[5] = finished
        if index % 1000 == 999:
            progress.advance(task, 1000)
    progress.update(task, completed=args.matches)

    # Ratings: every bot on every ladder of its game, as its active version entered them.
    ratings = site.table(
        "ladders_rating",
        "id", "ladder_id", "bot_id", "version_id", "rating", "deviation", "games",
        "version_games", "wins", "active", "updated", "ranking", "deviation_at", "rankable",
    )  # fmt: skip
    rating_id = 0
    for ladder in ladders:
        for bot in game_bots[ladder.game]:
            rating_id += 1
            active = versions_of[bot][-1]
            rating, played, version_games, wins, version, last_rated = rated.get(
                (ladder.id, bot), [rating_system.initial(), 0, 0, 0, active, None]
            )
            if version != active:
                version_games = 0
            ratings.add(
                rating_id, ladder.id, bot, active, rating.value, rating.deviation,
                int(played), int(version_games), int(wins),
                rng.random() >= INACTIVE_RATING_SHARE, now, rating_system.ranking_value(rating),
                last_rated, not rating_system.is_provisional(rating, int(version_games)),
            )  # fmt: skip
    return site


TOURNAMENT_ENTRANTS = 256
"""Entrants of each of the two tournaments (fewer on a site with fewer Akropolis bots)."""
TOURNAMENT_GAME = "akropolis"


def make_tournaments(
    args: argparse.Namespace,
    rng: random.Random,
    site: Site,
    game_bots: Sequence[int],
    versions_of: dict[int, list[int]],
    owners: Sequence[int],
    now: datetime,
) -> int:
    """Two public Swiss tournaments of Akropolis for two, paired by the real format: one
    finished a month ago (its final standings stored), one running (its last paired round
    half decided, a quarter of it running, a quarter queued). Their matches take the first
    ids; the id the history's matches start from."""
    from agon.matches.fields import stored_seed
    from competition.formats.core import Result, ScheduledGame, deal_seed
    from competition.formats.protocol import Settings
    from competition.formats.registry import get_format
    from engine.core import competition_ranks

    tournaments = site.table(
        "tournaments_tournament",
        "id", "name", "game", "format", "players", "rounds", "meetings", "options", "seed",
        "public", "owner_id", "max_entrants", "entry_opens", "entry_closes", "status",
        "created", "started", "finished", "standings", "results_seen", "note",
    )  # fmt: skip
    entries = site.table(
        "tournaments_entry",
        "id", "tournament_id", "bot_id", "entered_by_id", "created", "version_id", "number",
        "withdrawn",
    )  # fmt: skip
    games = site.table(
        "tournaments_tournamentgame",
        "id", "tournament_id", "round", "tie", "index", "bots", "seed", "match_id", "replays",
        "ranks", "void", "forfeited", "created",
    )  # fmt: skip
    matches, seats = site.tables["matches_match"], site.tables["matches_matchseat"]
    size = min(TOURNAMENT_ENTRANTS, len(game_bots))
    match_id = 0
    for tournament_id, status in ((1, "finished"), (2, "running")):
        began = now - timedelta(days=30 if status == "finished" else 1)
        seed = rng.getrandbits(63)
        bots = rng.sample(list(game_bots), size)
        labels = []
        for number, bot in enumerate(bots):
            version = versions_of[bot][-1]
            labels.append(f"user{owners[bot - 1]:05d}/bot{bot:05d}@v{len(versions_of[bot])}")
            entries.add(
                len(entries.rows) + 1, tournament_id, bot, owners[bot - 1],
                began - timedelta(days=1), version, number, None,
            )  # fmt: skip
        event = get_format("swiss").from_settings(Settings(size, seed, 2, 1, None))
        rounds = event.round_count() or 1
        stop = max(1, rounds // 2 + 1) if status == "running" else rounds + 1
        results: list[Result] = []
        paired: list[ScheduledGame] = []
        while (batch := event.next_games(results)) and batch[0].round <= stop:
            paired += batch
            last = batch[0].round == stop
            for place, game in enumerate(batch):
                played = began + timedelta(minutes=10 * game.round, seconds=place)
                ranks: list[int] | None = [1]
                match: int | None = None
                if not game.is_bye:
                    share = place / len(batch)
                    state = (
                        "finished"
                        if not last or share < 0.5
                        else "running"
                        if share < 0.75
                        else "queued"
                    )
                    match_id += 1
                    match = match_id
                    scores = [rng.randrange(20, 120) for _ in game.bots]
                    done = state == "finished"
                    ranks = competition_ranks([(1, score) for score in scores]) if done else None
                    matches.add(
                        match_id, "tournament", None, TOURNAMENT_GAME, len(game.bots), {},
                        stored_seed(deal_seed(game)), state, int(state != "queued"),
                        "" if state == "queued" else "worker0@bench", "", None, played,
                        played if state != "queued" else None,
                        played + timedelta(seconds=9) if done else None,
                        scores if done else [], ranks or [], [],
                        replay_name(TOURNAMENT_GAME, len(game.bots)) if done else "",
                        9.0 if done else None, 9.4 if done else None,
                    )  # fmt: skip
                    for seat, entrant in enumerate(game.bots):
                        seats.add(
                            len(seats.rows) + 1, match_id, seat, versions_of[bots[entrant]][-1],
                            "", ranks[seat] if ranks else None, scores[seat] if done else None,
                            "", "", 0, rng.uniform(0.1, 5) if done else None,
                        )  # fmt: skip
                games.add(
                    len(games.rows) + 1, tournament_id, game.round, game.tie, game.index,
                    list(game.bots), stored_seed(game.seed), match, 0, ranks, False, False,
                    played,
                )  # fmt: skip
                if ranks is not None:
                    results.append(Result(game, tuple(ranks)))
            if last:
                break
        standings = [
            {
                "rank": standing.rank,
                "entrant": standing.bot,
                "bot": bots[standing.bot],
                "version": labels[standing.bot],
                "points": standing.points,
                "tiebreaks": dict(standing.tiebreaks),
            }
            for standing in event.standings(results)
        ]
        over = began + timedelta(minutes=10 * (rounds + 1))
        tournaments.add(
            tournament_id, f"Bench {status} Swiss", TOURNAMENT_GAME, "swiss", 2, None, 1, {},
            seed, True, 1, max(2, size), began - timedelta(days=2), began, status,
            began - timedelta(days=2), began, over if status == "finished" else None,
            standings if status == "finished" else [], len(results), "",
        )  # fmt: skip
    return match_id + 1


def first_bots_games() -> list[str]:
    """The games of the first bots: as many for each game as its largest table seats."""
    from engine.registry import get_game

    return [game for game in GAME_SHARES for _ in range(max(get_game(game).player_counts))]


def bot_log(rng: random.Random, size: int) -> str:
    """A bot's stderr of about `size` bytes, as COPY's text format writes a bytea."""
    lines = []
    length = turn = 0
    while length < size:
        turn += 1
        line = (
            f"turn {turn}: {rng.randrange(1, 80)} legal actions, "
            f"best {rng.uniform(-5, 30):.2f} after {rng.randrange(100, 5000)} playouts"
        )
        lines.append(line)
        length += len(line) + 1
    return "\\\\x" + ("\n".join(lines) + "\n").encode().hex()


def model_filled_columns(
    table: str, written: Sequence[str], now: datetime
) -> list[tuple[str, str]]:
    """The columns of `table` the bench does not write, each with the text (COPY's format)
    of the value the model gives a new row: the field's default (a blank text field's is
    ""), `now` for an automatic timestamp, NULL for a nullable field without a default;
    a column with a default of the database's own is left to it. So a column added to a
    model with a default needs nothing here; one without a default stops the load, naming
    it, instead of failing deep inside COPY."""
    from django.apps import apps
    from django.db import models

    (model,) = [m for m in apps.get_models() if m._meta.db_table == table]
    filled: list[tuple[str, str]] = []
    for model_field in model._meta.concrete_fields:
        if model_field.column in written:
            continue
        if model_field.db_default is not models.NOT_PROVIDED and not model_field.has_default():
            continue
        name = f"{table}.{model_field.column}"
        if getattr(model_field, "auto_now", False) or getattr(model_field, "auto_now_add", False):
            value: object = now
        elif model_field.has_default() and model_field.unique:
            raise SystemExit(f"bench/api.py: {name} is unique: the bench must write it")
        else:
            value = model_field.get_default()
        if value is None and not model_field.null:
            raise SystemExit(
                f"bench/api.py: {name} is NOT NULL without a default: write it in make_site"
            )
        if isinstance(model_field, models.JSONField) and value is not None:
            text = json.dumps(value, separators=(",", ":")).translate(COPY_ESCAPES)
        else:
            text = tsv(model_field.get_prep_value(value))
        filled.append((model_field.column, text))
    return filled


LOAD_ORDER = (
    "auth_user",
    "bots_bot",
    "bots_botversion",
    "ladders_rating",
    "matches_match",
    "matches_matchseat",
    "ladders_ratingchange",
    "tournaments_tournament",
    "tournaments_entry",
    "tournaments_tournamentgame",
)


SECONDARY_INDEXES = """
SELECT i.indexname, i.indexdef FROM pg_indexes i
WHERE i.schemaname = 'public' AND i.tablename = ANY(%s)
  AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)
"""


def copy_site(database_url: str, site: Site, progress: Progress) -> dict[str, float]:
    """COPY every table in one transaction and reset the id sequences, then VACUUM ANALYZE
    (as autovacuum would after a while: statistics and visibility maps). The rows are
    consistent by construction, so the foreign keys' triggers are off while they go in
    (session_replication_role), and the secondary indexes are dropped first and built
    again after, which is several times faster than updating them row by row. The seconds
    each step took."""
    import psycopg

    seconds: dict[str, float] = {}
    now = datetime.now(UTC)
    filled = {
        name: model_filled_columns(name, site.tables[name].columns, now) for name in LOAD_ORDER
    }
    total = sum(len(table.rows) for table in site.tables.values())
    task = progress.add_task("COPY", total=total)
    with psycopg.connect(database_url) as connection, connection.cursor() as cursor:
        cursor.execute("SET LOCAL session_replication_role = replica")
        indexes = cursor.execute(SECONDARY_INDEXES, [list(LOAD_ORDER)]).fetchall()
        for name, _ in indexes:
            cursor.execute(f'DROP INDEX "{name}"')
        started = time.perf_counter()
        for name in LOAD_ORDER:
            table = site.tables[name]
            columns = ", ".join([*table.columns, *(column for column, _ in filled[name])])
            tail = "".join(f"\t{text}" for _, text in filled[name])
            with cursor.copy(f"COPY {name} ({columns}) FROM STDIN") as copy:
                for first in range(0, len(table.rows), CHUNK_ROWS):
                    chunk = table.rows[first : first + CHUNK_ROWS]
                    copy.write(f"{tail}\n".join(chunk) + f"{tail}\n")
                    progress.advance(task, len(chunk))
            cursor.execute(  # a table name of LOAD_ORDER
                f"SELECT setval(pg_get_serial_sequence('{name}', 'id'), "  # noqa: S608
                f"(SELECT coalesce(max(id), 1) FROM {name}))"
            )
        seconds["COPY"] = time.perf_counter() - started
        started = time.perf_counter()
        rebuild = progress.add_task("indexes", total=len(indexes))
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        for _, definition in indexes:
            cursor.execute(definition)
            progress.advance(rebuild)
        connection.commit()
        seconds["indexes"] = time.perf_counter() - started
    started = time.perf_counter()
    vacuum = progress.add_task("VACUUM ANALYZE", total=len(LOAD_ORDER))
    with psycopg.connect(database_url, autocommit=True) as connection:
        for name in LOAD_ORDER:
            connection.execute(f"VACUUM ANALYZE {name}")
            progress.advance(vacuum)
    seconds["VACUUM ANALYZE"] = time.perf_counter() - started
    return seconds


def load(args: argparse.Namespace, media_root: Path) -> float | None:
    """Fill the database unless --reuse finds it filled with the same sizes; the seconds
    the load took (None when reused). The media files are written every run."""
    from agon.bots.models import Bot
    from agon.ladders.models import Ladder
    from agon.ladders.services import ladder_ensure_defaults
    from agon.matches.models import Match
    from agon.tournaments.models import Tournament

    ladders = ladder_ensure_defaults()
    archive = write_media(media_root, sorted({(ladder.game, ladder.players) for ladder in ladders}))
    history = Match.objects.exclude(kind="tournament")
    tournaments = Tournament.objects.count()
    if args.reuse and Bot.objects.count() == args.bots and history.count() == args.matches:
        if tournaments != 2:
            raise SystemExit(
                "the database is of an older bench (no tournaments): run without --reuse"
            )
        print(f"reusing the database: {args.bots} bots, {args.matches} matches")
        return None
    if Bot.objects.exists() or Match.objects.exists():
        raise SystemExit("the database holds other data: run without --reuse to start afresh")
    started = time.perf_counter()
    with Progress(transient=True) as progress:
        site = make_site(args, list(Ladder.objects.order_by("id")), archive, progress)
        steps = {"rows": time.perf_counter() - started}
        steps.update(copy_site(args.database_url, site, progress))
    seconds = time.perf_counter() - started
    sizes = ", ".join(f"{len(t.rows):,} {t.name}" for t in site.tables.values())
    print(f"loaded {sizes}")
    print(
        f"in {seconds:.1f} s ("
        + ", ".join(f"{step} {took:.1f} s" for step, took in steps.items())
        + f"), load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    return seconds


def write_listed_entries() -> None:
    """Each finished match's entry in the API's lists, as the workers write it when a match
    finishes (agon.matches.listed): COPY does not. Only those missing (none when reused)."""
    from agon.matches.listed import listed_entries_fill

    started = time.perf_counter()
    written = listed_entries_fill()
    if written:
        print(f"wrote {written:,} matches' listed entries in {time.perf_counter() - started:.1f} s")


# --- The server --------------------------------------------------------------------------


@dataclass
class Contender:
    """An app under test: the code of a checkout (this one, or --compare's), served by a
    gunicorn of its own with a cache of its own and its own keys in the broker."""

    label: str
    root: Path
    port: int
    prefix: str
    cache_url: str = ""
    server: subprocess.Popen[bytes] | None = None
    results: list[Result] = field(default_factory=list)


def server_environment(
    args: argparse.Namespace, var_dir: Path, contender: Contender
) -> dict[str, str]:
    root = contender.root
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(root), str(root / "platform")]),
        "AGON_VAR_DIR": str(var_dir),
        "AGON_LOG_LEVEL": "WARNING",
        "AGON_ALLOWED_HOSTS": "127.0.0.1",
        "AGON_LIST_CACHE_SECONDS": str(args.list_cache_seconds),
        # The timelines' limit counts every request, but 16 clients on one address do not
        # reach it (it is per client address when signed out).
        "AGON_TIMELINE_RATE": "1000000/minute",
    }
    if args.server_settings == "production":
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "agon.settings.production",
                "AGON_DATABASE_URL": args.database_url,
                "AGON_SECRET_KEY": secrets.token_urlsafe(50),
                "AGON_BROKER_URL": args.broker_url,  # no task is sent; the rate limits count
                "AGON_CACHE_URL": contender.cache_url,
                "AGON_SSL_REDIRECT": "false",
                **prefix_environment(contender.prefix),
            }
        )
    else:
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "agon.settings.test",
                "AGON_TEST_DATABASE_URL": args.database_url,
            }
        )
    return env


def start_server(
    args: argparse.Namespace, var_dir: Path, contender: Contender
) -> subprocess.Popen[bytes]:
    port, label = contender.port, contender.label
    log = (var_dir / f"gunicorn-{label}.log").open("wb")
    argv = [
        sys.executable, "-m", "gunicorn", "agon.wsgi",
        "--bind", f"127.0.0.1:{port}",
        "--workers", str(args.workers),
        "--worker-class", "sync",
        "--backlog", "512",
        "--access-logfile", str(var_dir / f"access-{label}.log"),
        "--access-logformat", ACCESS_LOG_FORMAT,
    ]  # fmt: skip
    server = subprocess.Popen(  # noqa: S603 - a fixed argv
        argv,
        cwd=contender.root,
        env=server_environment(args, var_dir, contender),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    log.close()
    deadline = time.monotonic() + 60
    while True:
        try:
            status, _ = get("127.0.0.1", port, "/api/games/", "start")
            if status == 200:
                return server
        except OSError:
            pass
        if server.poll() is not None or time.monotonic() > deadline:
            stop_server(server)
            tail = (var_dir / f"gunicorn-{label}.log").read_text(errors="replace")[-3000:]
            raise SystemExit(f"gunicorn did not start:\n{tail}")
        time.sleep(0.2)


def stop_server(server: subprocess.Popen[bytes]) -> None:
    """TERM to gunicorn's master (it stops its workers), then KILL to its whole session
    if it has not gone within 10 s."""
    if server.poll() is None:
        server.send_signal(signal.SIGTERM)
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()


# --- The load ----------------------------------------------------------------------------


def process_cpu(pid: int) -> tuple[int, float]:
    """(parent pid, CPU seconds so far) of a process on this machine; (0, 0) if gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return 0, 0.0
    return int(fields[1]), (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ServerCpu:
    """CPU seconds spent by gunicorn's workers and by the PostgreSQL backends of the bench
    database (all but this process's own) while it runs, sampled every SAMPLE_SECONDS per
    process: a backend that ends (the app reconnects after CONN_MAX_AGE) keeps what it
    was last seen to have used, so only the CPU of its last moments is missed (and all of
    a backend that lives shorter than a sample, as with a connection per request)."""

    SAMPLE_SECONDS = 0.25

    def __init__(self, master: int, database_url: str) -> None:
        self.master = master
        self.database_url = database_url
        self.first: dict[tuple[str, int], float] = {}
        self.last: dict[tuple[str, int], float] = {}
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.ready = threading.Event()
        """Set once the first sample is taken: the clients start after it."""

    def __enter__(self) -> ServerCpu:
        self.thread.start()
        while not self.ready.wait(0.1):
            if not self.thread.is_alive():
                raise SystemExit("the CPU sampler stopped before its first sample")
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.thread.join()

    def run(self) -> None:
        import psycopg

        with psycopg.connect(self.database_url, autocommit=True) as connection:
            self.sample(connection)
            self.ready.set()
            while not self.stopping.wait(self.SAMPLE_SECONDS):
                self.sample(connection)
            self.sample(connection)

    def sample(self, connection: Any) -> None:
        seen: dict[tuple[str, int], float] = {}
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                parent, seconds = process_cpu(int(entry.name))
                if parent == self.master:
                    seen["app", int(entry.name)] = seconds
        backends = connection.execute(
            "SELECT pid FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchall()
        for (pid,) in backends:
            seen["db", pid] = process_cpu(pid)[1]
        started = not self.first and not self.last
        for key, seconds in seen.items():
            if seconds:
                self.first.setdefault(key, seconds if started else 0.0)
                self.last[key] = seconds

    def seconds(self) -> tuple[float, float]:
        """(workers, backends)."""
        used = {"app": 0.0, "db": 0.0}
        for key, seconds in self.last.items():
            used[key[0]] += seconds - self.first[key]
        return used["app"], used["db"]


def get(host: str, port: int, path: str, tag: str) -> tuple[int, int]:
    """One GET on a new connection: (status, body bytes)."""
    connection = http.client.HTTPConnection(host, port, timeout=30)
    try:
        connection.request("GET", path, headers={"X-Bench": tag, "Accept": "application/json"})
        response = connection.getresponse()
        return response.status, len(response.read())
    finally:
        connection.close()


@dataclass
class Endpoint:
    name: str
    url: Callable[[random.Random], str]


@dataclass
class Result:
    name: str
    latencies: list[float]
    seconds: float
    errors: dict[int, int]
    body_bytes: int
    load_before: float
    load_after: float
    client_cpu: float = 0.0
    """CPU seconds the client threads spent (their own thread time)."""
    app_cpu: float = 0.0
    """CPU seconds gunicorn's workers spent."""
    db_cpu: float = 0.0
    """CPU seconds the PostgreSQL backends of the bench database spent."""
    server_ms: list[float] = field(default_factory=list)
    alone_ms: list[float] = field(default_factory=list)
    """Client-side latencies of the serial pass (one client): the service time."""


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest rank; `values` sorted."""
    if not values:
        return float("nan")
    rank = max(1, round(q / 100 * len(values) + 0.5))
    return values[min(rank, len(values)) - 1]


def hammer(
    port: int, endpoint: Endpoint, clients: int, requests: int, seconds: float, seed: int, tag: str
) -> Result:
    """`clients` threads, each sending a request as soon as its last one is answered, until
    `requests` were sent or `seconds` passed."""
    lock = threading.Lock()
    sent = 0
    latencies: list[float] = []
    errors: dict[int, int] = {}
    body_bytes = 0
    client_cpu = 0.0
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    deadline = started + seconds

    def client(number: int) -> None:
        nonlocal sent, body_bytes, client_cpu
        rng = random.Random(f"{seed}:{endpoint.name}:{number}")
        cpu_begun = time.thread_time()
        while True:
            with lock:
                if sent >= requests or time.perf_counter() > deadline:
                    client_cpu += time.thread_time() - cpu_begun
                    return
                sent += 1
            path = endpoint.url(rng)
            begun = time.perf_counter()
            try:
                status, size = get("127.0.0.1", port, path, tag)
            except OSError:
                status, size = 0, 0
            took = time.perf_counter() - begun
            with lock:
                latencies.append(took * 1000)
                body_bytes += size
                if status != 200:
                    errors[status] = errors.get(status, 0) + 1

    threads = [threading.Thread(target=client, args=(n,)) for n in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()
    return Result(
        endpoint.name,
        latencies,
        elapsed,
        errors,
        body_bytes,
        load_before,
        os.getloadavg()[0],
        client_cpu,
    )


def endpoints(args: argparse.Namespace) -> list[Endpoint]:
    """The URLs, from what is in the database."""
    from django.db.models import Count

    from agon.bots.models import Bot
    from agon.ladders.models import Ladder, Rating
    from agon.matches.models import Match
    from agon.tournaments.models import Tournament, TournamentGame

    page_size = 50
    ladder_sizes = dict(
        Rating.objects.filter(active=True)
        .values_list("ladder")
        .annotate(n=Count("id"))
        .values_list("ladder", "n")
    )
    ladders = list(Ladder.objects.filter(id__in=ladder_sizes).values_list("id", flat=True))
    bots = list(Bot.objects.values_list("id", flat=True))
    total = Match.objects.count()
    finished_ids = list(
        Match.objects.filter(status=Match.Status.FINISHED).values_list("id", flat=True)
    )
    deep_page = max(1, (total // page_size) * 3 // 4)
    bot_pages = max(1, -(-len(bots) // page_size))
    decided = Tournament.objects.get(status=Tournament.Status.FINISHED).id
    running = Tournament.objects.get(status=Tournament.Status.RUNNING).id
    game_counts = dict(
        TournamentGame.objects.values_list("tournament")
        .annotate(n=Count("id"))
        .values_list("tournament", "n")
    )

    def tournament_games(tournament: int) -> Callable[[random.Random], str]:
        pages = max(1, -(-int(game_counts[tournament]) // page_size))
        return lambda rng: f"/api/tournaments/{tournament}/games/?page={rng.randrange(pages) + 1}"

    def pages(ladder: int) -> int:
        return max(1, -(-int(ladder_sizes[ladder]) // page_size))

    def board(which: Callable[[int], int]) -> Callable[[random.Random], str]:
        def url(rng: random.Random) -> str:
            ladder = rng.choice(ladders)
            return f"/api/ladders/{ladder}/leaderboard/?page={which(pages(ladder))}"

        return url

    return [
        Endpoint("leaderboard p1", board(lambda n: 1)),
        Endpoint("leaderboard middle", board(lambda n: max(1, n // 2))),
        Endpoint("leaderboard last", board(lambda n: n)),
        Endpoint("matches", lambda rng: "/api/matches/"),
        Endpoint("matches ?bot=", lambda rng: f"/api/matches/?bot={rng.choice(bots)}"),
        Endpoint("matches ?ladder=", lambda rng: f"/api/matches/?ladder={rng.choice(ladders)}"),
        Endpoint("matches ?status=finished", lambda rng: "/api/matches/?status=finished"),
        Endpoint("matches ?status=queued", lambda rng: "/api/matches/?status=queued"),
        Endpoint(f"matches ?page={deep_page}", lambda rng: f"/api/matches/?page={deep_page}"),
        Endpoint("replay", lambda rng: f"/api/matches/{rng.choice(finished_ids)}/replay/"),
        Endpoint("timeline", lambda rng: f"/api/matches/{rng.choice(finished_ids)}/timeline/"),
        Endpoint("match", lambda rng: f"/api/matches/{rng.choice(finished_ids)}/"),
        Endpoint("games", lambda rng: "/api/games/"),
        Endpoint("ladders", lambda rng: "/api/ladders/"),
        Endpoint("bots", lambda rng: f"/api/bots/?page={rng.randrange(1, bot_pages + 1)}"),
        Endpoint("bot", lambda rng: f"/api/bots/{rng.choice(bots)}/"),
        Endpoint("tournaments", lambda rng: "/api/tournaments/"),
        Endpoint("tournament finished", lambda rng: f"/api/tournaments/{decided}/"),
        Endpoint("tournament running", lambda rng: f"/api/tournaments/{running}/"),
        Endpoint("tournament games finished", tournament_games(decided)),
        Endpoint("tournament games running", tournament_games(running)),
    ]


def server_times(access_log: Path) -> dict[str, list[float]]:
    """Milliseconds in the worker per tag, from gunicorn's access log."""
    times: dict[str, list[float]] = {}
    for line in access_log.read_text(errors="replace").splitlines():
        tag, _, rest = line.partition(" ")
        fields = rest.split(" ", 2)
        if len(fields) >= 2 and fields[1].isdigit():
            times.setdefault(tag, []).append(int(fields[1]) / 1000)
    for values in times.values():
        values.sort()
    return times


def report(results: Sequence[Result], clients: int) -> None:
    print(
        f"\n{'':<26} {'1 client':>8}  {clients} clients{'':<39} CPU ms per request\n"
        f"{'endpoint':<26} {'p50 ms':>8} {'req/s':>6} {'p50 ms':>7} {'p99 ms':>7} "
        f"{'max ms':>7} {'app p50':>7} {'app p99':>7} {'app':>5} {'db':>5} {'cli':>5} "
        f"{'KB':>5} {'load':>9}  target"
    )
    for r in results:
        done = max(1, len(r.latencies))
        p99 = percentile(r.latencies, 99)
        errors = f"  errors {r.errors}" if r.errors else ""
        print(
            f"{r.name:<26} {percentile(r.alone_ms, 50):>8.1f} {len(r.latencies) / r.seconds:>6.0f} "
            f"{percentile(r.latencies, 50):>7.1f} {p99:>7.1f} {r.latencies[-1]:>7.1f} "
            f"{percentile(r.server_ms, 50):>7.1f} {percentile(r.server_ms, 99):>7.1f} "
            f"{r.app_cpu * 1000 / done:>5.1f} {r.db_cpu * 1000 / done:>5.1f} "
            f"{r.client_cpu * 1000 / done:>5.1f} {r.body_bytes / done / 1024:>5.1f} "
            f"{r.load_before:>4.1f}>{r.load_after:<4.1f}  "
            f"{'ok' if p99 < TARGET_P99_MS else 'MISSED'}{errors}"
        )
    print(
        "\nA new connection per request. 1 client: requests one at a time (the service "
        f"time). {clients} clients: ms client-side (p50, p99, max, with the wait for a free "
        "worker) and in the worker (app, gunicorn's access log); CPU per request of "
        "gunicorn's workers (app), of the database's backends (db, persistent connections "
        "only) and of the clients (cli, this process), from /proc; KB per response; load: "
        "the 1-minute load average before>after; target: p99 < 100 ms."
    )


# --- Query plans -------------------------------------------------------------------------


def explain(args: argparse.Namespace) -> None:
    """Each endpoint once, through Django's test client in this process: every query it
    makes, with its EXPLAIN ANALYZE."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client()
    for endpoint in endpoints(args):
        url = endpoint.url(random.Random(args.seed))
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            response = client.get(url, HTTP_HOST="127.0.0.1")
            took = (time.perf_counter() - started) * 1000
        print(f"=== {endpoint.name}: GET {url} -> {response.status_code}, {took:.1f} ms")
        with connection.cursor() as cursor:
            for query in queries.captured_queries:
                sql = query["sql"]
                print(f"--- {float(query['time']) * 1000:.1f} ms: {sql[:300]}")
                if sql.lstrip().upper().startswith("SELECT"):
                    cursor.execute(f"EXPLAIN (ANALYZE, BUFFERS) {sql}")
                    print("    " + "\n    ".join(row[0] for row in cursor.fetchall()))


def measure(args: argparse.Namespace, contender: Contender, endpoint: Endpoint) -> Result:
    """One endpoint of one contender: a warm-up, one client, then --clients clients."""
    assert contender.server is not None
    port, seed = contender.port, args.seed
    hammer(port, endpoint, args.clients, 10 * args.clients, 10, seed, "warm")
    alone = hammer(port, endpoint, 1, args.serial_requests, 10, seed, "alone")
    tag = endpoint.name.replace(" ", "_")
    with ServerCpu(contender.server.pid, args.database_url) as cpu:
        result = hammer(port, endpoint, args.clients, args.requests, args.seconds, seed, tag)
    result.app_cpu, result.db_cpu = cpu.seconds()
    result.alone_ms = alone.latencies
    return result


# --- Main --------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--database-url", default=DEFAULT_DATABASE_URL, help="bench database")
    parser.add_argument(
        "--broker-url",
        default="redis://127.0.0.1:6379/14",
        help="the server's broker: no task is sent, the rate limits count there (keys under "
        "--redis-prefix, deleted at the end)",
    )
    parser.add_argument(
        "--cache-url",
        help="the server's cache, a Redis server other than the broker's (default: a capped "
        "redis-server started for the run)",
    )
    parser.add_argument(
        "--redis-prefix",
        type=key_prefix,
        default=DEFAULT_PREFIX,
        help=f"the start of the server's every key in the broker's Redis ({DEFAULT_PREFIX})",
    )
    parser.add_argument(
        "--port",
        type=int,
        default=0,
        help="the server's port, the compared one's the next (default: free ones)",
    )
    parser.add_argument(
        "--reuse", action="store_true", help="keep the database if it holds the same sizes"
    )
    parser.add_argument("--drop", action="store_true", help="drop the database at the end")
    parser.add_argument("--users", type=int, default=2000, help="users (default 2000)")
    parser.add_argument("--bots", type=int, default=10_000, help="bots (default 10000)")
    parser.add_argument("--matches", type=int, default=200_000, help="matches (default 200000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the data and the URLs")
    parser.add_argument("--workers", type=int, default=3, help="gunicorn workers (default 3)")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients (16)")
    parser.add_argument(
        "--requests", type=int, default=2000, help="requests per endpoint (default 2000)"
    )
    parser.add_argument(
        "--seconds", type=float, default=30.0, help="at most this long per endpoint (30)"
    )
    parser.add_argument(
        "--serial-requests",
        type=int,
        default=100,
        help="requests per endpoint from one client first, at most 10 s (default 100)",
    )
    parser.add_argument(
        "--server-settings",
        choices=("production", "test"),
        default="production",
        help="the server's settings module (default production: persistent connections)",
    )
    parser.add_argument(
        "--list-cache-seconds",
        type=int,
        default=2,
        help="AGON_LIST_CACHE_SECONDS of the server: how long match lists and leaderboards "
        "are served from the cache (default 2, as in production; 0 computes every page)",
    )
    parser.add_argument("--only", help="endpoints whose name contains this text")
    parser.add_argument(
        "--compare",
        type=Path,
        help="another checkout (a git worktree of an earlier commit, say): its app is served "
        "too, from the same database, and measured endpoint by endpoint in turn with this one",
    )
    parser.add_argument("--explain", action="store_true", help="print the query plans, then stop")
    parser.add_argument("--no-load", action="store_true", help="fill the database, then stop")
    args = parser.parse_args()
    if args.users < 1 or args.bots < args.users or args.matches < sum(UNFINISHED) + 1:
        parser.error("need users >= 1, bots >= users, and more matches than unfinished ones")
    if args.bots < len(first_bots_games()):
        parser.error(f"need bots >= {len(first_bots_games())}: every game's largest table")

    var_dir = Path(tempfile.mkdtemp(prefix="agon-bench-api-"))
    contenders: list[Contender] = []
    cache = contextlib.ExitStack()
    try:
        if not (args.reuse and database_exists(args.database_url)):
            recreate_database(args.database_url)
        configure_django(args.database_url, var_dir)
        migrate()
        load(args, var_dir / "media")
        write_listed_entries()
        if args.explain:
            explain(args)
            return
        if args.no_load:
            return
        chosen = [e for e in endpoints(args) if not args.only or args.only in e.name]
        # With --port, the compared app listens on the next one (a machine's allotted range).
        ports = [args.port, args.port + 1] if args.port else [free_port(), free_port()]
        contenders = [Contender("this", ROOT, ports[0], args.redis_prefix)]
        if args.compare is not None:
            contenders.append(Contender("compared", args.compare.resolve(), ports[1], ""))
            contenders[0].prefix = f"{args.redis_prefix}this:"
            contenders[1].prefix = f"{args.redis_prefix}compared:"
        for contender in contenders:
            contender.cache_url = cache.enter_context(cache_server(args.cache_url))
            contender.server = start_server(args, var_dir, contender)
        print(
            f"gunicorn: {args.workers} sync workers each, {args.server_settings} settings, lists "
            + (
                f"cached for {args.list_cache_seconds} s"
                if args.list_cache_seconds > 0
                else "computed for every request"
            )
            + f"; {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}"
        )
        with Progress(transient=True) as progress:
            task = progress.add_task("requests", total=len(chosen))
            for number, endpoint in enumerate(chosen):
                progress.update(task, description=endpoint.name)
                # Interleaved: each endpoint's contenders in turn, the first one alternating.
                for contender in contenders if number % 2 == 0 else contenders[::-1]:
                    contender.results.append(measure(args, contender, endpoint))
                progress.advance(task)
        for contender in contenders:
            assert contender.server is not None
            stop_server(contender.server)
            times = server_times(var_dir / f"access-{contender.label}.log")
            for result in contender.results:
                result.server_ms = times.get(result.name.replace(" ", "_"), [])
            if args.compare is not None:
                print(f"\n== {contender.label}: {contender.root}")
            report(contender.results, args.clients)
    finally:
        for contender in contenders:
            if contender.server is not None:
                stop_server(contender.server)
        if contenders and args.server_settings == "production":
            delete_keys(args.broker_url, args.redis_prefix)
        cache.close()
        shutil.rmtree(var_dir, ignore_errors=True)
        if args.drop:
            from django.db import connections

            connections.close_all()
            drop_database(args.database_url)


if __name__ == "__main__":
    main()
