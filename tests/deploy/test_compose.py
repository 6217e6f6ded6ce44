"""deploy/compose.yaml in the real Docker engine: the images built (or reused) by
deploy/build-images.sh, the whole stack up under a project name of its own, a user
signed up through the API, two example bots uploaded, validated and playing ladder
matches in boxes the `matches` worker starts through the host's engine, a replay
downloaded and re-run through the engine; then everything removed (containers, volumes,
network, leftover boxes) whatever happened.

Then deploy/README.md's recipe for a worker on another host: a second project with only
the `matches` worker, naming the first one's PostgreSQL and Redis, files in an S3 bucket
(moto's server), plays the ladder matches.

Skipped, saying why, where no Docker engine or no compose command answers (a failure
where AGON_TEST_REQUIRE names compose: tests.required). About 1.5
minutes for both on a warm machine (the images exist); the first build takes longer.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import secrets
import shutil
import socket
import struct
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from engine.replay import Replay, verify_replay
from tests.platform.pipeline.support import wait_for
from tests.platform.s3 import free_port, moto_bucket
from tests.required import missing

REPO_DIR = Path(__file__).resolve().parents[2]
COMPOSE_FILE = REPO_DIR / "deploy" / "compose.yaml"
BUILD_IMAGES = REPO_DIR / "deploy" / "build-images.sh"
EXAMPLE_BOTS = REPO_DIR / "examples" / "bots"
GAME = "architekton"
"""Two players only, and quick: its ladder is the one the two bots fill."""
SERVICES_WITH_HEALTH = (
    "postgres",
    "redis",
    "cache",
    "web",
    "beat",
    "default-worker",
    "analysis-worker",
    "matches-worker",
)
BUILD_SECONDS = 900.0
UP_SECONDS = 240.0
VALIDATION_SECONDS = 180.0
MATCHES_SECONDS = 180.0
HEALTHY_SECONDS = 150.0
"""The matches worker's first health check (a boxed match) comes 30 s after it starts."""
RANKED_MATCHES = 2
DOCKER = shutil.which("docker") or "docker"


def _answers(command: list[str]) -> bool:
    try:
        done = subprocess.run(  # noqa: S603 - fixed commands
            command, capture_output=True, timeout=30, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def compose_command() -> list[str] | None:
    """`docker compose` (v2 plugin) if it answers, else Debian's `docker-compose`."""
    if _answers(["docker", "compose", "version"]):
        return ["docker", "compose"]
    if shutil.which("docker-compose") and _answers(["docker-compose", "version"]):
        return ["docker-compose"]
    return None


def why_skip() -> str | None:
    if shutil.which("docker") is None:
        return "the docker command is missing (Debian package: docker.io)"
    if not _answers(["docker", "info"]):
        return "no Docker engine answers (start dockerd; scripts/prepare-machine.sh does)"
    if compose_command() is None:
        return "no compose command (Debian package: docker-compose, or the v2 plugin)"
    return None


pytestmark = pytest.mark.deploy


@dataclass
class Stack:
    """The compose project: its commands, its environment and its logs."""

    command: list[str]
    project: str
    env: dict[str, str]
    port: int
    work_dir: Path
    env_file: Path
    """Empty: compose then reads no deploy/.env an operator may have left there."""

    def compose(self, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
        return subprocess.run(  # noqa: S603 - the compose command and our arguments
            [
                *self.command,
                "--file",
                str(COMPOSE_FILE),
                "--project-name",
                self.project,
                "--env-file",
                str(self.env_file),
                *args,
            ],
            cwd=REPO_DIR,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )

    def logs(self, tail: int = 60) -> str:
        try:
            done = self.compose("logs", "--no-color", f"--tail={tail}", timeout=60)
        except subprocess.TimeoutExpired:
            return "\n(docker-compose logs did not answer within 60 s)"
        heading = f"--- docker-compose logs (the last {tail} lines of each service) ---"
        return f"\n{heading}\n{done.stdout}{done.stderr}"

    def container(self, service: str) -> str:
        return self.compose("ps", "-q", service, timeout=60).stdout.strip()

    def container_name(self, service: str) -> str:
        container = self.container(service)
        assert container, f"no container for {service} in {self.project}"
        inspected = subprocess.run(  # noqa: S603 - fixed command
            [DOCKER, "inspect", "--format", "{{.Name}}", container],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        return inspected.stdout.strip().lstrip("/")

    def network(self) -> str:
        """The project's default network (compose names it after the project)."""
        listed = subprocess.run(  # noqa: S603 - fixed command
            [
                DOCKER,
                "network",
                "ls",
                "--quiet",
                "--filter",
                f"label=com.docker.compose.project={self.project}",
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=True,
        )
        (network,) = listed.stdout.split()
        return network

    def health(self, service: str) -> str:
        container = self.container(service)
        if not container:
            return "no container"
        done = subprocess.run(  # noqa: S603 - fixed command
            [
                DOCKER,
                "inspect",
                "--format",
                "{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}",
                container,
            ],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        return done.stdout.strip() or done.stderr.strip()

    def healths(self) -> dict[str, str]:
        return {service: self.health(service) for service in SERVICES_WITH_HEALTH}

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@pytest.fixture(scope="module")
def compose_tools() -> None:
    reason = why_skip()
    if reason is not None:
        missing("compose", reason)


@pytest.fixture(scope="module")
def images(compose_tools: None) -> None:
    """deploy/build-images.sh once for the module: quick when the images are there."""
    clock = time.monotonic()
    built = subprocess.run(  # noqa: S603 - the repository's script
        [str(BUILD_IMAGES)],
        cwd=REPO_DIR,
        capture_output=True,
        text=True,
        timeout=BUILD_SECONDS,
        check=False,
    )
    assert built.returncode == 0, (
        f"deploy/build-images.sh failed:\n{built.stdout[-4000:]}\n{built.stderr[-4000:]}"
    )
    print(f"deploy/build-images.sh: {time.monotonic() - clock:.0f} s")


def stack_environment(work_dir: Path, **extra: str) -> dict[str, str]:
    return {
        **{name: value for name, value in os.environ.items() if not name.startswith("AGON_")},
        "AGON_SECRET_KEY": secrets.token_urlsafe(50),
        "AGON_ALLOWED_HOSTS": "localhost,127.0.0.1",
        "AGON_POSTGRES_PASSWORD": secrets.token_urlsafe(24),
        "AGON_REDIS_PASSWORD": secrets.token_urlsafe(24),
        # No registry here: the images build-images.sh made from the local Debian base.
        "AGON_POSTGRES_IMAGE": "agon-postgres:15",
        "AGON_REDIS_IMAGE": "agon-redis:7",
        "AGON_WORK_DIR": str(work_dir),
        "AGON_WEB_PORT": str(free_port()),
        # The ladder tests count the uploads' matches: the anchors would take seats.
        "AGON_LADDER_ANCHORS": "none",
        **extra,
    }


@contextlib.contextmanager
def compose_project(
    tmp_path_factory: pytest.TempPathFactory, env: Mapping[str, str], *up: str
) -> Iterator[Stack]:
    """A compose project of its own, `up` with these arguments (or only created, for
    `--no-start`), then taken down with its volumes and leftover boxes whatever happens."""
    command = compose_command()
    assert command is not None
    env_file = tmp_path_factory.mktemp("compose-env") / "empty.env"
    env_file.write_text("")
    stack = Stack(
        command=command,
        project=f"agon-test-{uuid.uuid4().hex[:8]}",
        env=dict(env),
        port=int(env["AGON_WEB_PORT"]),
        work_dir=Path(env["AGON_WORK_DIR"]),
        env_file=env_file,
    )
    try:
        clock = time.monotonic()
        started = stack.compose("up", *up, timeout=UP_SECONDS)
        assert started.returncode == 0, (
            f"compose up failed:\n{started.stdout}{started.stderr}{stack.logs()}"
        )
        print(f"compose up {stack.project}: {time.monotonic() - clock:.0f} s")
        yield stack
    finally:
        clock = time.monotonic()
        down = stack.compose("down", "--volumes", "--remove-orphans", "--timeout=10", timeout=180)
        remove_leftover_boxes(stack.work_dir)
        print(f"compose down {stack.project}: {time.monotonic() - clock:.0f} s")
        assert down.returncode == 0, f"compose down failed:\n{down.stdout}{down.stderr}"
        assert not stack.compose("ps", "-q", timeout=60).stdout.strip()


@pytest.fixture
def stack(images: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    env = stack_environment(tmp_path_factory.mktemp("compose-work"))
    with compose_project(tmp_path_factory, env, "--detach") as stack:
        yield stack


def remove_leftover_boxes(work_dir: Path) -> None:
    """Bot boxes whose worker was stopped mid-match, with their scratch volumes: the ones
    with folders of this test's scratch folder (other tests' boxes on the same engine are
    left alone)."""
    listed = subprocess.run(  # noqa: S603 - fixed command
        [DOCKER, "ps", "--all", "--quiet", "--filter", "label=agon.box=1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    for container in listed.stdout.split():
        inspected = subprocess.run(  # noqa: S603 - fixed command
            [DOCKER, "inspect", "--format", "{{json .Mounts}}", container],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        with contextlib.suppress(json.JSONDecodeError):
            mounts = json.loads(inspected.stdout or "[]")
            if any(str(mount.get("Source", "")).startswith(str(work_dir)) for mount in mounts):
                volumes = [m["Name"] for m in mounts if m.get("Type") == "volume"]
                commands = [["rm", "--force", container]]
                if volumes:  # the box's scratch, once the container is gone
                    commands.append(["volume", "rm", *volumes])
                for command in commands:
                    subprocess.run(  # noqa: S603 - fixed command
                        [DOCKER, *command], capture_output=True, timeout=60, check=False
                    )


# --- the API, as a script would use it ----------------------------------------------------


class Api:
    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.token = ""

    def request(
        self, method: str, path: str, *, body: bytes | None = None, content_type: str = ""
    ) -> tuple[int, bytes]:
        # The TLS proxy in front of a real deployment says the request came over HTTPS.
        headers = {"X-Forwarded-Proto": "https", "Accept": "application/json"}
        if content_type:
            headers["Content-Type"] = content_type
        if self.token:
            headers["Authorization"] = f"Token {self.token}"
        request = urllib.request.Request(  # noqa: S310 - a local http URL
            self.stack.url(path), data=body, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
                return int(response.status), bytes(response.read())
        except urllib.error.HTTPError as error:
            return int(error.code), bytes(error.read())

    def json(self, method: str, path: str, data: dict[str, Any] | None = None) -> Any:
        body = json.dumps(data).encode() if data is not None else None
        status, content = self.request(
            method, path, body=body, content_type="application/json" if body else ""
        )
        assert 200 <= status < 300, f"{method} {path}: {status} {content[:500]!r}"
        return json.loads(content)

    def upload_bot(self, name: str, path: Path) -> dict[str, Any]:
        boundary = uuid.uuid4().hex
        parts = [
            *(
                f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"\r\n\r\n'
                f"{value}\r\n".encode()
                for field, value in (("name", name), ("game", GAME))
            ),
            f'--{boundary}\r\nContent-Disposition: form-data; name="file"; '
            f'filename="{path.name}"\r\nContent-Type: text/x-python\r\n\r\n'.encode(),
            path.read_bytes(),
            f"\r\n--{boundary}--\r\n".encode(),
        ]
        status, content = self.request(
            "POST",
            "/api/bots/",
            body=b"".join(parts),
            content_type=f"multipart/form-data; boundary={boundary}",
        )
        assert status == 201, f"uploading {name}: {status} {content[:500]!r}"
        bot: dict[str, Any] = json.loads(content)
        return bot


# --- a user's way through the platform ---------------------------------------------------


def wait_web_healthy(stack: Stack) -> None:
    wait_for(
        lambda: stack.health("web") == "running healthy",
        timeout=UP_SECONDS,
        what="the web server's health",
        explain=stack.logs,
        interval=1.0,
    )


def sign_up_and_upload_the_example_bots(api: Api) -> list[dict[str, Any]]:
    """Each example bot uploaded by a user of its own: ranked tables never seat two bots
    of one owner."""
    bots = []
    for number, path in enumerate(sorted(EXAMPLE_BOTS.glob("*_bot.py")), start=1):
        username, password = f"deployer-{number}", secrets.token_urlsafe(16)
        api.json("POST", "/api/auth/register/", {"username": username, "password": password})
        api.token = api.json(
            "POST", "/api/auth/token/", {"username": username, "password": password}
        )["token"]
        bots.append(api.upload_bot(f"{path.stem.replace('_', '-')}", path))
    assert len(bots) >= 2, f"two example bots in {EXAMPLE_BOTS}"
    return bots


def wait_validated(api: Api, bots: list[dict[str, Any]], explain: Callable[[], str]) -> None:
    def all_active() -> bool:
        statuses = []
        for bot in bots:
            versions = api.json("GET", f"/api/bots/{bot['id']}/")["versions"]
            status = versions[-1]["status"] if versions else "none"
            assert status != "rejected", f"{bot['name']} was rejected: {versions}{explain()}"
            statuses.append(status)
        return all(status == "active" for status in statuses)

    wait_for(
        all_active,
        timeout=VALIDATION_SECONDS,
        what="the bots to pass their validation matches",
        explain=explain,
        interval=1.0,
    )


def wait_ranked(
    api: Api, bots: list[dict[str, Any]], count: int, explain: Callable[[], str]
) -> list[dict[str, Any]]:
    """`count` ranked matches finished between the bots, each replay re-run by the engine."""

    def ranked_finished() -> list[dict[str, Any]] | None:
        listed = api.json("GET", f"/api/matches/?bot={bots[0]['id']}&status=finished")
        ranked = [match for match in listed["results"] if match["kind"] == "ranked"]
        return ranked if len(ranked) >= count else None

    ranked = wait_for(
        ranked_finished,
        timeout=MATCHES_SECONDS,
        what=f"{count} ranked matches to finish",
        explain=explain,
        interval=1.0,
    )
    for match in ranked:
        assert {seat["bot"] for seat in match["seats"]} == {bot["id"] for bot in bots}
        status, content = api.request("GET", f"/api/matches/{match['id']}/replay/")
        assert status == 200, f"replay of match {match['id']}: {status} {content[:500]!r}"
        replay = Replay.from_json(json.loads(content))
        assert replay.game == GAME
        verify_replay(replay)
    return ranked


# --- the tests ----------------------------------------------------------------------------


def test_the_referees_image_and_the_bots_image_use_the_compiled_cores(
    images: None,
) -> None:
    """Issue 32: each image builds the cores against its own Python in a stage of its own;
    the engine the referee (the `matches` worker) and a bot import uses them."""
    probe = (
        "import engine.akropolis.native as a, engine.attika.native as b, "
        "engine.megalopolis.native as c; "
        "print(*(n.CORE and n.CORE.__file__ for n in (a, b, c)), sep='\\n')"
    )
    for variable, default, folder in (
        ("AGON_APP_IMAGE", "agon-app:latest", "/opt/agon/app"),
        ("AGON_BOT_IMAGE", "agon-bot:latest", "/opt/agon/lib"),
    ):
        image = os.environ.get(variable) or default
        done = subprocess.run(  # noqa: S603 - fixed command
            [DOCKER, "run", "--rm", "--network", "none", "--entrypoint", "python3", image,
             "-c", probe],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert done.returncode == 0 and done.stderr == "", (image, done.stderr)
        cores = done.stdout.split()
        assert len(cores) == 3, (image, cores)
        for core, game in zip(cores, ("akropolis", "attika", "megalopolis"), strict=True):
            assert core.startswith(f"{folder}/engine/{game}/native/_core.cpython-"), (image, core)


def test_the_stack_plays_ladder_matches_between_uploaded_bots_in_docker_boxes(
    stack: Stack,
) -> None:
    api = Api(stack)
    started = time.monotonic()

    def phase(name: str) -> None:
        print(f"{name}: {time.monotonic() - started:.0f} s after the stack was up")

    wait_web_healthy(stack)
    phase("web healthy")
    status, content = api.request("GET", "/healthz")
    assert status == 200 and json.loads(content)["status"] == "ok", content

    bots = sign_up_and_upload_the_example_bots(api)
    wait_validated(api, bots, stack.logs)
    phase("bots validated")
    wait_ranked(api, bots, RANKED_MATCHES, stack.logs)
    phase(f"{RANKED_MATCHES} ranked matches finished")

    # The worker reaches its boxes' freezer through the host's cgroups (mounted), not
    # through `docker pause` (the backend warns once per process when it has to).
    worker_log = stack.compose("logs", "--no-color", "matches-worker", timeout=60).stdout
    assert "cgroups are out of reach" not in worker_log, worker_log[-3000:]

    status, content = api.request("GET", "/metrics")
    assert status == 200 and b"agon_matches_queued" in content, content[:500]
    scraped = stack.compose(
        "exec",
        "-T",
        "matches-worker",
        "python3",
        "-c",
        "import urllib.request; print(urllib.request.urlopen('http://127.0.0.1:9808/').read()"
        ".decode())",
        timeout=60,
    )
    assert f'agon_matches_finished_total{{game="{GAME}",kind="ranked"}}' in scraped.stdout, (
        f"the matches worker's metrics:\n{scraped.stdout[-3000:]}{scraped.stderr[-2000:]}"
    )

    def every_service_healthy() -> bool:
        return all(health == "running healthy" for health in stack.healths().values())

    wait_for(
        every_service_healthy,
        timeout=HEALTHY_SECONDS,
        what="every service to be healthy",
        explain=lambda: f": {stack.healths()}{stack.logs()}",
        interval=1.0,
    )
    phase("every service healthy")


def docker_bridge_gateway() -> str | None:
    """The host's address on Docker's default bridge: containers reach the host there
    (the network's gateway, else the address of its bridge interface)."""
    inspected = subprocess.run(  # noqa: S603 - fixed command
        [DOCKER, "network", "inspect", "bridge", "--format", "{{json .}}"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    try:
        network = json.loads(inspected.stdout or "{}")
    except json.JSONDecodeError:
        return None
    for config in (network.get("IPAM") or {}).get("Config") or []:
        if config.get("Gateway"):
            return str(config["Gateway"])
    interface = (network.get("Options") or {}).get("com.docker.network.bridge.name")
    if not interface:
        return None
    siocgifaddr = 0x8915
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            packed = fcntl.ioctl(
                probe.fileno(), siocgifaddr, struct.pack("256s", interface.encode()[:15])
            )
        except OSError:
            return None
    return socket.inet_ntoa(packed[20:24])


def test_a_matches_worker_of_another_host_plays_through_the_same_database_broker_and_bucket(
    images: None, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """deploy/README.md's recipe for a worker host: the platform's own project without
    its `matches` worker, files in S3; a second project runs only that worker, naming the
    first one's PostgreSQL and Redis (a second host, as near as one engine gets)."""
    gateway = docker_bridge_gateway()
    if gateway is None:
        missing("docker", "Docker's default bridge has no gateway address to serve S3 on")
    with moto_bucket(address=gateway) as bucket:
        s3 = bucket.environment("agon")
        main_env = stack_environment(tmp_path_factory.mktemp("compose-work"), **s3)
        with compose_project(
            tmp_path_factory, main_env, "--detach", "--scale", "matches-worker=0"
        ) as main:
            wait_web_healthy(main)
            postgres, redis, cache = (
                main.container_name(service) for service in ("postgres", "redis", "cache")
            )
            worker_env = {
                **main_env,
                "AGON_WORK_DIR": str(tmp_path_factory.mktemp("compose-work")),
                "AGON_WEB_PORT": str(free_port()),
                "AGON_POSTGRES_HOST": postgres,
                "AGON_REDIS_HOST": redis,
                "AGON_CACHE_HOST": cache,
            }
            with compose_project(
                tmp_path_factory, worker_env, "--no-deps", "--no-start", "matches-worker"
            ) as other:
                # Another host would reach them over its network; here the worker joins
                # the first project's network, where their container names resolve.
                joined = subprocess.run(  # noqa: S603 - fixed command
                    [
                        DOCKER,
                        "network",
                        "connect",
                        main.network(),
                        other.container("matches-worker"),
                    ],
                    capture_output=True,
                    text=True,
                    timeout=60,
                    check=False,
                )
                assert joined.returncode == 0, joined.stderr
                started = other.compose("start", "matches-worker", timeout=120)
                assert started.returncode == 0, started.stdout + started.stderr

                def explain() -> str:
                    return main.logs() + other.logs()

                api = Api(main)
                bots = sign_up_and_upload_the_example_bots(api)
                wait_validated(api, bots, explain)
                wait_ranked(api, bots, 1, explain)
                assert not main.container("matches-worker"), "the first project has no worker"
                played = other.compose("logs", "--no-color", "matches-worker", timeout=60).stdout
                assert "agon.matches.tasks.execute_queued_match" in played, played[-3000:]
                stored = [key for key in bucket.objects() if key.startswith("agon/replays/")]
                assert stored, f"no replay in the bucket: {list(bucket.objects())}"
