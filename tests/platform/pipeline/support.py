"""Real Celery workers for the pipeline tests, and bounded waits.

A `CeleryWorker` is `python -m celery -A agon.celery worker` in its own session, with
the test settings, the test database of this pytest process (pytest-django's
`test_<name>`, passed as AGON_TEST_DATABASE_URL) and the same Redis broker and key
prefix. Its output goes to a file whose end is quoted when something goes wrong.
Killing it takes its whole process tree: the pool processes and the bot boxes under
them; `assert_gone` checks that every process it ever had is gone.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import quote

import kombu.pools
import pytest
import redis
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from pytest_django import Settings
from rest_framework.test import APIClient

from agon.bots.models import BotVersion
from agon.ladders.models import Ladder, Rating, RatingChange
from agon.ladders.services import ladder_ensure_defaults
from agon.matches.models import Match
from agon.settings.base import broker_transport, filesystem_broker_options
from agon.worker_command import worker_command
from competition import ratings
from engine.replay import Replay, verify_replay

REPO_DIR = Path(__file__).resolve().parents[3]
READY_SECONDS = 60.0
T = TypeVar("T")


def wait_for(
    check: Callable[[], T | None],
    *,
    timeout: float,
    what: str,
    explain: Callable[[], str] = lambda: "",
    interval: float = 0.1,
) -> T:
    """Poll `check` until it returns something other than None or False; fail with
    `what` (and whatever `explain` adds) after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value is not None and value is not False:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {timeout:g} s for {what}, in vain{explain()}")
        time.sleep(interval)


def json_of(response: Any, status: int = 200) -> Any:
    """An API response's JSON, once its status is the one expected."""
    assert response.status_code == status, (response.status_code, response.content[:2000])
    return response.json()


def signed_in_client(username: str) -> APIClient:
    """An API client of a new user, registered and signed in with a token as a bot
    author's script would be."""
    client = APIClient()
    account = {"username": username, "password": "pipeline passes"}
    json_of(client.post("/api/auth/register/", account), 201)
    token = json_of(client.post("/api/auth/token/", account))["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    return client


def wait_validated(client: Any, bot_ids: Sequence[int], explain: Callable[[], str]) -> None:
    """Until each bot's first version passed its validation (fail at once if rejected)."""

    def active(bot_id: int) -> bool:
        versions = json_of(client.get(f"/api/bots/{bot_id}/"))["versions"]
        assert versions[0]["status"] != "rejected", versions
        return bool(versions[0]["status"] == "active")

    for bot_id in bot_ids:
        wait_for(
            functools.partial(active, bot_id),
            timeout=120,
            what=f"bot {bot_id}'s first version to pass its validation",
            explain=explain,
        )


def test_database_url() -> str:
    """The URL of the database this test process uses (pytest-django's test database):
    PostgreSQL's, or the SQLite file of AGON_TEST_SQLITE_FILE."""
    db = connection.settings_dict
    if db["ENGINE"].endswith("sqlite3"):
        assert getattr(settings, "AGON_TEST_SQLITE_FILE", ""), "workers share a file, not memory"
        return f"sqlite:///{db['NAME']}"
    assert db["ENGINE"].endswith("postgresql"), "the pipeline tests need PostgreSQL or SQLite"
    user = quote(db["USER"] or "", safe="")
    password = f":{quote(str(db['PASSWORD']), safe='')}" if db["PASSWORD"] else ""
    credentials = f"{user}{password}@" if user else ""
    port = f":{db['PORT']}" if db["PORT"] else ""
    return f"postgres://{credentials}{db['HOST'] or '127.0.0.1'}{port}/{db['NAME']}"


def broker_prefix() -> str:
    prefix = settings.CELERY_BROKER_TRANSPORT_OPTIONS.get("global_keyprefix", "")
    assert isinstance(prefix, str) and prefix, "the test settings give the broker a key prefix"
    return prefix


def purge_broker() -> int:
    """Drop every broker key of this test process (queues, unacknowledged messages), or
    every message file of the file-system broker."""
    if settings.CELERY_BROKER_URL.startswith("filesystem"):
        options = settings.CELERY_BROKER_TRANSPORT_OPTIONS
        files = [
            path
            for key in ("data_folder_in", "processed_folder")
            for path in Path(str(options[key])).glob("*")
        ]
        for path in files:
            path.unlink(missing_ok=True)
        return len(files)
    client = redis.Redis.from_url(settings.CELERY_BROKER_URL)
    try:
        keys = list(client.scan_iter(match=f"{broker_prefix()}*", count=1000))
        return int(client.delete(*keys)) if keys else 0
    finally:
        client.close()


def _start_time(pid: int) -> str | None:
    """The kernel's start time of a process (tells a pid from a reused one), or None."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rsplit(")", 1)[1].split()[19]


def _children(pid: int) -> list[int]:
    found: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found += [int(child) for child in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return found


def process_tree(root: int) -> dict[int, str]:
    """The live processes under `root` (itself included): pid -> start time."""
    found: dict[int, str] = {}
    queue = [root]
    while queue:
        pid = queue.pop(0)
        started = _start_time(pid)
        if started is not None:
            found[pid] = started
            queue += _children(pid)
    return found


def assert_processes_gone(processes: Mapping[int, str], *, what: str, timeout: float) -> None:
    """Every one of these processes exits within `timeout` (a reused pid does not count)."""

    def survivors() -> list[int]:
        return [pid for pid, started in processes.items() if _start_time(pid) == started]

    wait_for(
        lambda: not survivors(),
        timeout=timeout,
        what=what,
        explain=lambda: f": still there: {survivors()}",
    )


@dataclass
class CeleryWorker:
    name: str
    process: subprocess.Popen[bytes]
    log_path: Path
    seen: dict[int, str] = field(default_factory=dict)
    """Every process of its tree seen so far: pid -> start time."""

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def log_tail(self, lines: int = 60) -> str:
        tail = "\n".join(self.log().splitlines()[-lines:])
        return f"\n--- the end of worker {self.name}'s log ---\n{tail}"

    def tree(self) -> dict[int, str]:
        """The worker's live processes (and remembers them)."""
        tree = process_tree(self.process.pid)
        self.seen.update(tree)
        return tree

    def pool_processes(self) -> list[int]:
        """The prefork pool's processes: the worker's direct children."""
        return _children(self.process.pid)

    def wait_ready(self) -> None:
        def ready() -> bool:
            if self.process.poll() is not None:
                raise AssertionError(
                    f"worker {self.name} exited with {self.process.returncode} before it was "
                    f"ready{self.log_tail()}"
                )
            return " ready." in self.log()

        wait_for(
            ready,
            timeout=READY_SECONDS,
            what=f"worker {self.name} to be ready",
            explain=self.log_tail,
        )
        self.tree()

    def kill(self) -> None:
        """SIGKILL to every process of the worker's tree, now."""
        for pid in reversed(list(self.tree())):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=30)

    def kill_pool_process(self) -> dict[int, str]:
        """SIGKILL to the one pool process, as the OOM killer would; the processes of
        its tree then (its bot boxes included)."""
        (pool,) = self.pool_processes()
        tree = process_tree(pool)
        self.seen.update(tree)
        os.kill(pool, signal.SIGKILL)
        return tree

    def assert_gone(self, timeout: float = 15.0) -> None:
        """Every process the worker's tree was ever seen to have is gone."""
        assert_processes_gone(
            self.seen, what=f"the processes of worker {self.name} to be gone", timeout=timeout
        )


def start_worker(
    folder: Path,
    *,
    concurrency: int = 1,
    env: Mapping[str, str] | None = None,
    beat: bool = False,
) -> CeleryWorker:
    """A real worker for every queue of this test process (AGON_WORKER_QUEUES), on
    its broker (Redis, or the file-system broker of `embedded_broker`); with `beat`, it
    runs Celery beat too, on the settings' schedule."""
    name = f"pipeline-{uuid.uuid4().hex[:8]}"
    folder.mkdir(parents=True, exist_ok=True)
    log_path = folder / f"{name}.log"
    child_env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "agon.settings.test",
        "PYTHONPATH": os.pathsep.join([str(REPO_DIR), str(REPO_DIR / "platform")]),
        "PYTHONUNBUFFERED": "1",
        "AGON_TEST_DATABASE_URL": test_database_url(),
        "AGON_TEST_BROKER_URL": settings.CELERY_BROKER_URL,
        "AGON_VAR_DIR": str(Path(settings.MEDIA_ROOT).parent),
        "AGON_SANDBOX": settings.AGON_SANDBOX,
        **broker_env(),
        **(env or {}),
    }
    beat_args = ["--beat", "--schedule", str(folder / f"{name}-beat")] if beat else []
    with log_path.open("wb") as log:
        process = subprocess.Popen(  # noqa: S603 - a fixed argv
            [
                *worker_command(
                    queues=settings.AGON_WORKER_QUEUES,
                    concurrency=concurrency,
                    hostname=f"{name}@%h",
                    alone=True,
                ),
                *beat_args,
            ],
            cwd=REPO_DIR,
            env=child_env,
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    worker = CeleryWorker(name, process, log_path)
    try:
        worker.wait_ready()
    except BaseException:
        worker.kill()
        raise
    return worker


def broker_env() -> dict[str, str]:
    """The environment that gives a worker this process's broker."""
    if not settings.CELERY_BROKER_URL.startswith("filesystem"):
        return {}
    queue = Path(str(settings.CELERY_BROKER_TRANSPORT_OPTIONS["data_folder_in"]))
    return {"AGON_TEST_BROKER_DIR": str(queue.parent)}


@contextlib.contextmanager
def embedded_broker(test_settings: Settings, folder: Path) -> Iterator[None]:
    """This process and the workers it starts use kombu's file-system broker in
    `folder`, as `agon up` does, instead of Redis."""
    from agon.celery import app

    before = (app.conf.broker_url, app.conf.broker_transport_options)

    def use(url: str, options: Mapping[str, object]) -> None:
        # Celery and kombu keep connections and producers (kombu by broker, in pools a
        # later switch back would find closed): all go; the next send makes new ones.
        kombu.pools.reset()
        app.conf.update(
            broker_url=url,
            broker_transport=broker_transport(url),
            broker_transport_options=dict(options),
        )
        app._pool = None  # type: ignore[attr-defined]  # not in Celery's type stubs
        app.amqp._producer_pool = None  # type: ignore[attr-defined]

    url = "filesystem://localhost/"
    options = filesystem_broker_options(folder)
    test_settings.CELERY_BROKER_URL = url
    test_settings.CELERY_BROKER_TRANSPORT = broker_transport(url)
    test_settings.CELERY_BROKER_TRANSPORT_OPTIONS = options
    use(url, options)
    try:
        yield
    finally:
        use(*before)


# --- the platform's side ------------------------------------------------------------------

EXAMPLE_BOTS = REPO_DIR / "examples" / "bots"

SLEEPY_BOT = b"""\
import time

from agon_bot import run


def act(observation, legal_actions):
    time.sleep(0.2)  # a slow thinker: a 2-player match lasts several seconds
    return legal_actions[0]


run(act)
"""


def only_ladder(game: str, players: int) -> Ladder:
    """The default ladders, of which only this one is active (matchmaking then only
    fills it, and new versions are rated only there)."""
    ladder_ensure_defaults()
    Ladder.objects.exclude(game=game, players=players).update(active=False)
    return Ladder.objects.get(game=game, players=players, active=True)


def py_upload(name: str, data: bytes) -> SimpleUploadedFile:
    return SimpleUploadedFile(name, data, content_type="text/x-python")


def wait_active(version: BotVersion, pipeline_explain: Callable[[], str]) -> BotVersion:
    def active() -> BotVersion | None:
        version.refresh_from_db()
        if version.status == BotVersion.Status.REJECTED:
            raise AssertionError(f"{version} was rejected: {version.reason}")
        return version if version.status == BotVersion.Status.ACTIVE else None

    return wait_for(
        active, timeout=120, what=f"{version} to pass its validation", explain=pipeline_explain
    )


def wait_finished(match: Match, pipeline_explain: Callable[[], str], timeout: float = 120) -> Match:
    def finished() -> Match | None:
        match.refresh_from_db()
        if match.status == Match.Status.FAILED:
            raise AssertionError(f"match {match.id} failed: {match.error}")
        return match if match.status == Match.Status.FINISHED else None

    return wait_for(
        finished, timeout=timeout, what=f"match {match.id} to finish", explain=pipeline_explain
    )


def assert_finished_exactly_once(match: Match) -> None:
    """One rating change per bot, each rating moved once by it, and a replay that the
    engine reproduces."""
    seats = list(match.seats.select_related("version__bot").order_by("seat"))
    bots = [seat.version.bot for seat in seats if seat.version is not None]
    changes = list(RatingChange.objects.filter(match=match).order_by("id"))
    assert sorted(change.bot_id for change in changes) == sorted(bot.id for bot in bots)
    assert RatingChange.objects.filter(bot__in=bots).count() == len(bots), (
        "these bots played no other rated match"
    )
    for change in changes:
        rating = Rating.objects.get(ladder=match.ladder, bot_id=change.bot_id)
        assert (rating.games, rating.version_games) == (1, 1)
        assert rating.current == change.rating_after
        assert change.rating_before == ratings.initial()
    assert sum(change.after - change.before for change in changes) == pytest.approx(0, abs=1e-6)
    with match.replay.open("rb") as stored:
        replay = Replay.from_json(json.loads(stored.read()))
    verify_replay(replay)
    assert replay.seed == match.seed
    assert replay.result["ranks"] == match.ranks
    assert replay.bots == [seat.bot_id_label for seat in seats]
