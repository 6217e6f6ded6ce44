"""The docker backend: whole matches in containers, the box's lockdown, freezing between
turns, out-of-memory faults and cleanup.

Skipped only when no Docker engine answers (a failure where AGON_TEST_REQUIRE names
docker: tests.required); an engine without the bot image is a failure (build it with
deploy/bot-image/build.sh).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import docker
import pytest

from engine.replay import verify_replay
from sandbox.backends import BoxSpec, SandboxError, get_backend
from sandbox.backends.base import BOX_ENV, BOX_UID
from sandbox.backends.container_cgroup import ContainerCgroup
from sandbox.backends.docker import (
    BOX_LABEL,
    DockerBackend,
    DockerBox,
    DockerEngineUnavailable,
)
from sandbox.limits import MIB, Limits
from sandbox.runner import MatchRecord, Program, run_match
from tests.required import missing


def _no_engine_reason() -> str | None:
    try:
        DockerBackend().check()
    except DockerEngineUnavailable as error:
        return str(error)
    except SandboxError:
        return None  # the engine answers: a missing image must fail the tests, not skip them
    return None


@pytest.fixture(scope="module")
def docker_engine() -> None:
    reason = _no_engine_reason()
    if reason is not None:
        missing("docker", reason)


needs_engine = pytest.mark.usefixtures("docker_engine")

FIRST_LEGAL_BOT = """\
from agon_bot import log, run

def act(observation, legal_actions):
    return legal_actions[0]

log("hello from the box")
run(act)
"""

PROBE_BOT = """\
import errno, json, os, socket
from agon_bot import log, run

def attempt(action):
    try:
        action()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    return "ok"

def write(path):
    with open(path, "w") as file:
        file.write("x")

def connect():
    socket.create_connection(("192.0.2.1", 80), timeout=2).close()

status = dict(
    line.split(":\\t", 1)
    for line in open("/proc/self/status").read().splitlines()
    if ":\\t" in line
)
scratch = os.statvfs("/tmp")
facts = {
    "uid": os.getuid(), "gid": os.getgid(), "euid": os.geteuid(), "groups": os.getgroups(),
    "environ": dict(os.environ),
    "hostname": socket.gethostname(),
    "interfaces": [name for _, name in socket.if_nameindex()],
    "connect": attempt(connect),
    "write_bot": attempt(lambda: write("/bot/new.txt")),
    "write_root": attempt(lambda: write("/new.txt")),
    "write_library": attempt(lambda: write("/opt/agon/lib/new.txt")),
    "write_tmp": attempt(lambda: write("/tmp/new.txt")),
    "tmp_bytes": scratch.f_blocks * scratch.f_frsize,
    "cap_eff": status["CapEff"].strip(),
    "no_new_privs": status["NoNewPrivs"].strip(),
    "pid": os.getpid(),
}
log("FACTS " + json.dumps(facts))
run(lambda observation, legal_actions: legal_actions[0])
"""

# A thread ticks about once a millisecond. Between two of the bot's turns the opponent
# thinks for 30 ms, so a box left running would tick ~30 times per gap; a frozen one
# ticks at most once or twice around the moments it is frozen and thawed. During its own
# turn the bot sleeps 20 ms and counts ticks too, to prove the ticker does run.
TICKER_BOT = """\
import json, threading, time
from agon_bot import Bot, log, run

ticks = 0

def tick():
    global ticks
    while True:
        time.sleep(0.001)
        ticks += 1

threading.Thread(target=tick, daemon=True).start()

class Ticker(Bot):
    last = None

    def act(self, observation, legal_actions):
        now, seen = time.monotonic(), ticks
        if self.last is not None:
            gap_ms = (now - self.last[0]) * 1000
            log("GAP " + json.dumps({"ms": gap_ms, "ticks": seen - self.last[1]}))
        time.sleep(0.02)
        log("TURN " + json.dumps({"ms": (time.monotonic() - now) * 1000, "ticks": ticks - seen}))
        self.last = (time.monotonic(), ticks)
        return legal_actions[0]

run(Ticker())
"""

SLOW_BOT = """\
import time
from agon_bot import run

def act(observation, legal_actions):
    time.sleep(0.03)
    return legal_actions[-1]

run(act)
"""

GREEDY_FOR_MEMORY_BOT = """\
from agon_bot import run

hoard = []

def act(observation, legal_actions):
    while True:
        hoard.append(bytearray(8 * 1024 * 1024))

run(act)
"""


@pytest.fixture
def token() -> str:
    """A label value of this test's own boxes, so parallel tests do not see each other's."""
    return uuid.uuid4().hex


@pytest.fixture
def backend(token: str) -> DockerBackend:
    backend = DockerBackend(labels={"agon.test-run": token})
    backend.check()
    return backend


@pytest.fixture
def engine_client() -> Iterator[Any]:
    client = docker.from_env()
    yield client
    client.close()


def boxes_of(client: Any, token: str) -> list[Any]:
    filters = {"label": [f"{BOX_LABEL}=1", f"agon.test-run={token}"]}
    return list(client.containers.list(all=True, filters=filters))


def bot_file(folder: Path, name: str, source: str) -> Path:
    path = folder / name
    path.write_text(source)
    return path


def log_records(record: MatchRecord, seat: int, tag: str) -> list[dict[str, Any]]:
    prefix = tag + " "
    return [
        json.loads(line.removeprefix(prefix))
        for line in record.seats[seat].log.splitlines()
        if line.startswith(prefix)
    ]


@needs_engine
def test_a_bot_plays_a_whole_akropolis_match_in_a_docker_box(
    tmp_path: Path, backend: DockerBackend
) -> None:
    bot = bot_file(tmp_path, "first_legal.py", FIRST_LEGAL_BOT)
    record = run_match(
        game_id="akropolis",
        seed=11,
        options={},
        programs=[Program.from_file(bot), Program.builtin("random")],
        sandbox=backend,
    )
    assert record.backend == "docker"
    assert record.replay.faults == []
    verify_replay(record.replay)
    seat = record.seats[0]
    assert seat.turns > 5
    assert "hello from the box" in seat.log
    assert seat.memory_peak_bytes is not None and seat.memory_peak_bytes > 0


@needs_engine
def test_it_runs_a_match_through_get_backend_by_name(tmp_path: Path) -> None:
    bot = bot_file(tmp_path, "first_legal.py", FIRST_LEGAL_BOT)
    record = run_match(
        game_id="akropolis",
        seed=12,
        options={},
        programs=[Program.from_file(bot), Program.builtin("random")],
        sandbox="docker",
    )
    assert record.backend == "docker"
    assert record.replay.faults == []


@needs_engine
def test_the_box_has_no_network_no_privileges_and_only_its_own_environment(
    tmp_path: Path, backend: DockerBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGON_HOST_SECRET", "must-not-leak")
    bot = bot_file(tmp_path, "probe.py", PROBE_BOT)
    record = run_match(
        game_id="akropolis",
        seed=3,
        options={},
        programs=[Program.from_file(bot), Program.builtin("random")],
        sandbox=backend,
    )
    assert record.replay.faults == []
    [facts] = log_records(record, 0, "FACTS")
    assert (facts["uid"], facts["gid"], facts["euid"]) == (BOX_UID, BOX_UID, BOX_UID)
    assert facts["groups"] in ([], [BOX_UID])
    assert facts["environ"] == BOX_ENV
    assert facts["hostname"] == "box"
    assert facts["interfaces"] == ["lo"]
    assert facts["connect"] == "ENETUNREACH"
    assert facts["write_bot"] == "EROFS"
    assert facts["write_root"] == "EROFS"
    assert facts["write_library"] == "EROFS"
    assert facts["write_tmp"] == "ok"
    assert facts["tmp_bytes"] == record.limits.scratch_bytes
    assert facts["cap_eff"] == "0000000000000000"
    assert facts["no_new_privs"] == "1"
    assert facts["pid"] == 1  # its own PID namespace


@needs_engine
def test_each_container_is_created_with_the_limits_of_the_match(
    tmp_path: Path, backend: DockerBackend, engine_client: Any, token: str
) -> None:
    bot_file(tmp_path, "main.py", FIRST_LEGAL_BOT)
    limits = Limits(memory_bytes=96 * MIB, pids=20, scratch_bytes=8 * MIB)
    box = backend.open(BoxSpec(tmp_path, limits))
    try:
        [container] = boxes_of(engine_client, token)
        config = container.attrs["HostConfig"]
        assert config["NetworkMode"] == "none"
        assert config["ReadonlyRootfs"] is True
        assert config["CapDrop"] == ["ALL"]
        assert config["SecurityOpt"] == ["no-new-privileges"]
        assert config["Memory"] == config["MemorySwap"] == 96 * MIB
        assert config["PidsLimit"] == 20
        assert config["NanoCpus"] == 1_000_000_000
        assert config["Tmpfs"] == {"/sys": "size=64k,mode=755"}
        assert {u["Name"]: u["Hard"] for u in config["Ulimits"]} == {"msgqueue": 0, "core": 0}
        assert config["LogConfig"]["Type"] == "none"
        assert config["IpcMode"] != "host" and config["PidMode"] == ""
        assert container.attrs["Config"]["User"] == f"{BOX_UID}:{BOX_UID}"
        assert container.attrs["Config"]["Hostname"] == "box"
        mounts = {mount["Destination"]: mount for mount in container.attrs["Mounts"]}
        assert mounts["/bot"]["RW"] is False
        assert mounts["/bot"]["Source"] == str(tmp_path.resolve())
        # /tmp and /dev/shm are one tmpfs of scratch_bytes
        assert mounts["/tmp"]["Type"] == mounts["/dev/shm"]["Type"] == "volume"  # noqa: S108
        assert mounts["/tmp"]["Name"] == mounts["/dev/shm"]["Name"]  # noqa: S108
        volume = engine_client.volumes.get(mounts["/tmp"]["Name"])  # noqa: S108
        assert volume.attrs["Options"]["o"].startswith(f"size={8 * MIB},")
        assert mounts["/proc/stat"]["RW"] is False
    finally:
        box.close()


def _gaps_and_turns(record: MatchRecord) -> tuple[float, int, float, int]:
    gaps = log_records(record, 0, "GAP")
    turns = log_records(record, 0, "TURN")
    assert len(gaps) >= 10, record.seats[0].log
    return (
        sum(gap["ms"] for gap in gaps),
        sum(gap["ticks"] for gap in gaps),
        sum(turn["ms"] for turn in turns),
        sum(turn["ticks"] for turn in turns),
    )


def _ticker_match(folder: Path, backend: DockerBackend) -> MatchRecord:
    ticker = bot_file(folder, "ticker.py", TICKER_BOT)
    slow = bot_file(folder, "slow.py", SLOW_BOT)
    record = run_match(
        game_id="akropolis",
        seed=5,
        options={},
        programs=[Program.from_file(ticker), Program.from_file(slow)],
        sandbox=backend,
    )
    assert record.replay.faults == []
    return record


@needs_engine
def test_a_frozen_box_does_not_run_between_its_turns(
    tmp_path: Path, backend: DockerBackend
) -> None:
    gap_ms, gap_ticks, turn_ms, turn_ticks = _gaps_and_turns(_ticker_match(tmp_path, backend))
    assert turn_ticks > 0.4 * turn_ms, "the ticker thread should run during the bot's turns"
    assert gap_ms > 300, "the opponent should have kept the bot waiting"
    assert gap_ticks < 0.2 * gap_ms, f"{gap_ticks} ticks in {gap_ms:.0f} ms between turns"


@needs_engine
def test_the_freezing_check_notices_a_box_that_keeps_running(
    tmp_path: Path, backend: DockerBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control for the test above: with freezing switched off, it sees the ticks,
    over the line that test draws (a tick a millisecond on a quiet core; 322 in 648 ms
    on a busy machine, so not half)."""
    monkeypatch.setattr(DockerBox, "freeze", lambda self: None)
    gap_ms, gap_ticks, _, _ = _gaps_and_turns(_ticker_match(tmp_path, backend))
    assert gap_ticks > 0.2 * gap_ms, f"{gap_ticks} ticks in {gap_ms:.0f} ms between turns"


@needs_engine
def test_without_its_cgroup_a_box_is_paused_through_the_engine_instead(
    tmp_path: Path, backend: DockerBackend, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the container's cgroup is out of reach (another user, another host's
    engine), `docker pause` stands in for the freezer: slower, but the same guarantee."""
    monkeypatch.setattr(ContainerCgroup, "find", staticmethod(lambda container_id, pid: None))
    record = _ticker_match(tmp_path, backend)
    gap_ms, gap_ticks, turn_ms, turn_ticks = _gaps_and_turns(record)
    assert turn_ticks > 0.4 * turn_ms
    assert gap_ticks < 0.2 * gap_ms, f"{gap_ticks} ticks in {gap_ms:.0f} ms between turns"
    assert record.seats[0].memory_peak_bytes is None


@needs_engine
def test_a_bot_that_exhausts_its_memory_is_faulted_for_memory(
    tmp_path: Path, backend: DockerBackend
) -> None:
    bot = bot_file(tmp_path, "greedy_for_memory.py", GREEDY_FOR_MEMORY_BOT)
    record = run_match(
        game_id="akropolis",
        seed=8,
        options={},
        programs=[Program.from_file(bot), Program.builtin("random")],
        sandbox=backend,
        limits={"memory_bytes": 64 * MIB},
    )
    [fault] = record.replay.faults
    assert (fault["seat"], fault["kind"]) == (0, "memory")


@needs_engine
def test_nothing_is_left_after_a_match(
    tmp_path: Path, backend: DockerBackend, engine_client: Any, token: str
) -> None:
    bot = bot_file(tmp_path, "first_legal.py", FIRST_LEGAL_BOT)
    workdir = tmp_path / "work"
    workdir.mkdir()
    run_match(
        game_id="akropolis",
        seed=2,
        options={},
        programs=[Program.from_file(bot), Program.from_file(bot)],
        sandbox=backend,
        workdir=workdir,
    )
    assert boxes_of(engine_client, token) == []
    assert list(workdir.iterdir()) == []


@needs_engine
def test_closing_a_frozen_box_removes_its_container_and_pipes_and_can_be_repeated(
    tmp_path: Path, backend: DockerBackend, engine_client: Any, token: str
) -> None:
    package = tmp_path / "bot"
    package.mkdir()
    bot_file(package, "main.py", FIRST_LEGAL_BOT)
    box = backend.open(BoxSpec(package, Limits()))
    assert len(boxes_of(engine_client, token)) == 1
    assert box.folder.is_dir()
    assert box.exit_code() is None
    box.freeze()
    started = time.monotonic()
    box.close()
    assert time.monotonic() - started < 5
    box.close()
    assert boxes_of(engine_client, token) == []
    assert not box.folder.exists()
    assert [path.name for path in tmp_path.iterdir()] == ["bot"]


@needs_engine
def test_check_explains_that_the_bot_image_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGON_BOT_IMAGE", f"agon-bot-missing:{uuid.uuid4().hex[:8]}")
    with pytest.raises(SandboxError, match=r"bot image agon-bot-missing:\w+ is missing.*build\.sh"):
        get_backend("docker")


class _EngineWithImage:
    """The two calls `check` makes, answered for an image with these labels."""

    def __init__(self, labels: dict[str, str] | None) -> None:
        self.labels = labels

    def ping(self) -> bool:
        return True

    def inspect_image(self, image: str) -> dict[str, Any]:
        return {"Id": "sha256:0", "Config": {"Labels": self.labels}}


@pytest.mark.parametrize("labels", [None, {"agon.box-launch": "0"}])
def test_check_refuses_an_image_built_without_this_versions_launcher(
    labels: dict[str, str] | None,
) -> None:
    backend = DockerBackend(image="agon-bot:older")
    backend._api = _EngineWithImage(labels)
    with pytest.raises(SandboxError, match=r"agon-bot:older was built for another version.*build"):
        backend.check()
    backend._api = _EngineWithImage({"agon.box-launch": "1"})
    backend.check()


def test_check_explains_that_no_docker_engine_answers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-engine.sock")
    with pytest.raises(DockerEngineUnavailable, match="no Docker engine answers"):
        get_backend("docker")
