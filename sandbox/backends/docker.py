"""`docker`: one container per box, from the bot image (deploy/bot-image).

The container gets no network, a read-only root, uid 65534, no capabilities, no new
privileges, memory = memory + swap, a PID limit, one CPU, the unpacked bot read-only at
/bot, and exactly `BOX_ENV` as its environment. Its only writable places, /tmp and
/dev/shm, are one tmpfs volume of `scratch_bytes` (Docker would give each its own
tmpfs), and it can make no POSIX message queue (their bytes are counted per user across
every container of the host). Its /proc shows fixed stand-ins for the host-wide files
and hides the rest of what is host-wide (`sandbox.host_view`, masked paths); its /sys
is an empty tmpfs but for its own cgroup; the system calls of `sandbox.seccomp.REFUSED`
(sysinfo, keyrings, the page cache's, io_uring, ...) are refused by a seccomp filter
stacked on Docker's own (`sandbox.seccomp`) by the container's command, the box's
launcher (`sandbox/box_launch.c`, compiled into the bot image), before the bot's
interpreter starts.

The protocol does not go through Docker's attach stream (several times slower than a
pipe): the referee makes a private folder with three named pipes (to the bot, from the
bot, its log), shows it at /io in the container, and the container's command (the
launcher) starts the bot with its stdin, stdout and stderr on them. Between turns the container is
frozen by writing its cgroup's freezer directly (`docker pause` costs a round trip to
the engine); only when the cgroup is out of this process's reach does it fall back to
pause and unpause through the API.

The engine must see the same file system as the referee (the named pipes and the bot's
folder are bind-mounted), so the referee runs on the Docker host itself. Every box's
container and scratch volume carries the label `agon.box=1`: should a referee die
without closing its boxes, `docker ps -aq --filter label=agon.box=1` and
`docker volume ls -q --filter label=agon.box=1` list what is left.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import functools
import logging
import os
import re
import select
import shutil
import tempfile
import time
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

import docker
import docker.errors
import requests
from docker.types import LogConfig, Mount, Ulimit

from sandbox.backends.base import BOX_ENV, BOX_UID, BoxSpec, SandboxError
from sandbox.backends.container_cgroup import ContainerCgroup
from sandbox.box_start import start_argv
from sandbox.host_view import hidden_paths, write_stand_ins
from sandbox.limits import Limits
from sandbox.seccomp import box_filter

log = logging.getLogger(__name__)

DEFAULT_IMAGE = "agon-bot:latest"
IMAGE_ENV = "AGON_BOT_IMAGE"
BOX_LABEL = "agon.box"
API_TIMEOUT_SECONDS = 60
CONNECT_SECONDS = 30.0
"""How long a fresh container may take to open its end of the pipes."""
IO_DIR = "/io"
KILLED_EXIT_CODE = 128 + 9
"""What Docker reports for a container ended with SIGKILL (as `close` does)."""

SECCOMP_FILTER = "seccomp.bpf"
"""The file of `box_filter()` in the box's /io."""


LAUNCHER = "/opt/agon/bin/box-launch"
"""The container's command (`sandbox/box_launch.c`, compiled into the bot image)."""
LAUNCHER_LABEL = "agon.box-launch"
LAUNCHER_VERSION = "1"
"""The bot image's label that says it has `LAUNCHER`, and which command line it reads."""


def launch_command(*, with_filter: bool) -> list[str]:
    """The container's command: the launcher opens the named pipes onto the bot's stdin,
    stdout and stderr (so the box is connected before any bot code runs), installs the
    box's seccomp filter (with the filter), replaces the environment with exactly
    `BOX_ENV` (not the image's own variables, nor Docker's HOSTNAME), then execs one
    python3, which runs the bot (`sandbox.box_start`)."""
    argv = [LAUNCHER]
    for option, name in (("--stdin", "in"), ("--stdout", "out"), ("--stderr", "log")):
        argv += [option, f"{IO_DIR}/{name}"]
    if with_filter:
        argv += ["--seccomp", f"{IO_DIR}/{SECCOMP_FILTER}"]
    for key, value in sorted(BOX_ENV.items()):
        argv += ["--env", f"{key}={value}"]
    return [*argv, "--", *start_argv("python3")]


class DockerEngineUnavailable(SandboxError):
    """No Docker engine answers here (as opposed to one that answers but cannot run boxes)."""


def _engine_address() -> str:
    return os.environ.get("DOCKER_HOST") or "the default socket"


@functools.cache
def _warn_once_about_pausing() -> None:
    log.warning(
        "boxes' cgroups are out of reach (not root, or the engine runs elsewhere): "
        "freezing between turns goes through docker pause, ~40 ms a turn instead of ~0.03"
    )


class DockerBox:
    """A bot running in its own container; the protocol travels over named pipes."""

    stdin: IO[bytes]
    stdout_fd: int
    stderr_fd: int

    def __init__(
        self, api: Any, image: str, spec: BoxSpec, labels: Mapping[str, str] | None = None
    ) -> None:
        self._api = api
        self.container_id: str | None = None
        self.scratch_volume: str | None = None
        self._cgroup: ContainerCgroup | None = None
        self._paused_by_api = False
        self._exit_code: int | None = None
        self._oom_killed = False
        self._memory_peak: int | None = None
        self._closed = False
        self.stdout_fd = self.stderr_fd = -1
        # A private (0700) folder holds the box's own (0711), so no other user of the
        # host can reach the pipes, while uid 65534 in the box can open them.
        self.folder = Path(tempfile.mkdtemp(prefix="agon-box-", dir=spec.package_dir.parent))
        try:
            self._start(image, spec, labels or {})
        except BaseException:
            self.close()
            raise

    def _start(self, image: str, spec: BoxSpec, labels: Mapping[str, str]) -> None:
        io_dir = self.folder / "io"
        io_dir.mkdir()
        io_dir.chmod(0o711)
        for name in ("in", "out", "log"):
            os.mkfifo(io_dir / name)
            (io_dir / name).chmod(0o666)
        seccomp_filter = box_filter()
        if seccomp_filter is not None:
            (io_dir / SECCOMP_FILTER).write_bytes(seccomp_filter)
            (io_dir / SECCOMP_FILTER).chmod(0o644)
        # Read ends first and non-blocking: they open at once, and show no end of file
        # before the bot has opened its side.
        self.stdout_fd = os.open(io_dir / "out", os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
        self.stderr_fd = os.open(io_dir / "log", os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)

        limits = spec.limits
        name = f"agon-{re.sub(r'[^a-zA-Z0-9_.-]', '-', spec.label)}-{uuid.uuid4().hex[:12]}"
        box_labels = {BOX_LABEL: "1", "agon.seat": spec.label, **labels}
        stand_ins = write_stand_ins(self.folder / "proc", limits)
        try:
            self.scratch_volume = self._create_scratch_volume(name, limits, box_labels)
            host_config = self._api.create_host_config(
                network_mode="none",
                read_only=True,
                cap_drop=["ALL"],
                security_opt=["no-new-privileges"],
                mem_limit=limits.memory_bytes,
                memswap_limit=limits.memory_bytes,
                pids_limit=limits.pids,
                nano_cpus=1_000_000_000,
                ulimits=[Ulimit(name=name, soft=0, hard=0) for name in ("msgqueue", "core")],
                # Nothing of the host's devices, memory, CPUs: only its own cgroup is
                # mounted in it (by Docker), read-only.
                tmpfs={"/sys": "size=64k,mode=755"},
                mounts=[
                    Mount("/bot", str(spec.package_dir.resolve()), type="bind", read_only=True),
                    Mount(IO_DIR, str(io_dir.resolve()), type="bind", read_only=True),
                    # One tmpfs for both: together they hold no more than scratch_bytes.
                    Mount("/tmp", self.scratch_volume, type="volume", no_copy=True),  # noqa: S108
                    Mount("/dev/shm", self.scratch_volume, type="volume", no_copy=True),  # noqa: S108
                    *(
                        Mount(path, str(file), type="bind", read_only=True)
                        for path, file in stand_ins.items()
                    ),
                ],
                log_config=LogConfig(type=LogConfig.types.NONE),
            )
            # Replaces Docker's own list, which hidden_paths() covers (bar /sys/firmware,
            # under the tmpfs /sys here).
            host_config["MaskedPaths"] = [path for path, _ in hidden_paths()]
            created = self._api.create_container(
                image,
                command=launch_command(with_filter=bool(seccomp_filter)),
                name=name,
                hostname="box",
                user=f"{BOX_UID}:{BOX_UID}",
                working_dir="/bot",
                environment=dict(BOX_ENV),
                labels=box_labels,
                host_config=host_config,
            )
            self.container_id = str(created["Id"])
            self._api.start(self.container_id)
            pid = int(self._api.inspect_container(self.container_id)["State"]["Pid"] or 0)
        except docker.errors.ImageNotFound as error:
            raise SandboxError(
                f"the bot image {image} is missing: build it with deploy/bot-image/build.sh"
            ) from error
        except (docker.errors.DockerException, requests.RequestException) as error:
            raise SandboxError(f"Docker could not start a box: {error}") from error
        self._cgroup = ContainerCgroup.find(self.container_id, pid)
        if self._cgroup is None:
            _warn_once_about_pausing()
        self.stdin = self._connect_stdin(io_dir / "in")

    def _create_scratch_volume(self, name: str, limits: Limits, labels: Mapping[str, str]) -> str:
        """A tmpfs volume of `scratch_bytes` owned by the box's user, for /tmp and /dev/shm."""
        options = f"size={limits.scratch_bytes},uid={BOX_UID},gid={BOX_UID},mode=1777"
        volume = self._api.create_volume(
            name=f"{name}-scratch",
            driver="local",
            driver_opts={"type": "tmpfs", "device": "tmpfs", "o": f"{options},nosuid,nodev,noexec"},
            labels=dict(labels),
        )
        return str(volume["Name"])

    def _connect_stdin(self, path: Path) -> IO[bytes]:
        """The write end of the bot's stdin, once the container has opened the read end.

        Opening it blocking would hang forever if the container never came up; a
        non-blocking open fails with ENXIO until a reader is there.
        """
        deadline = time.monotonic() + CONNECT_SECONDS
        next_check = time.monotonic() + 0.5
        pause = 0.0005
        while True:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            except OSError as error:
                if error.errno != errno.ENXIO:
                    raise SandboxError(f"cannot open the box's input: {error}") from error
            else:
                fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
                return open(fd, "wb")
            now = time.monotonic()
            if now > deadline:
                raise SandboxError(f"the box did not come up within {CONNECT_SECONDS:.0f} s")
            if now > next_check:
                next_check = now + 0.5
                if self._reload_state() is not None:
                    raise SandboxError(
                        f"the box ended before its bot started (exit code {self._exit_code})"
                    )
            time.sleep(pause)
            pause = min(pause * 2, 0.01)

    # --- Box --------------------------------------------------------------------------

    def freeze(self) -> None:
        if self._cgroup is not None:
            try:
                self._cgroup.freeze()
            except OSError:
                return  # the container is gone with its cgroup: nothing left to stop
            peak = self._cgroup.memory_peak()
            if peak is not None:
                self._memory_peak = peak
        elif not self._paused_by_api and self.container_id is not None:
            # A container that has just ended cannot be paused, and needs no pausing.
            with contextlib.suppress(docker.errors.DockerException, requests.RequestException):
                self._api.pause(self.container_id)
                self._paused_by_api = True

    def thaw(self) -> None:
        if self._cgroup is not None:
            with contextlib.suppress(OSError):
                self._cgroup.thaw()
        elif self._paused_by_api and self.container_id is not None:
            self._paused_by_api = False
            with contextlib.suppress(docker.errors.DockerException, requests.RequestException):
                self._api.unpause(self.container_id)

    def exit_code(self) -> int | None:
        """Polled by the referee: asks the engine only once nothing runs in the box."""
        if self._exit_code is not None or self.container_id is None:
            return self._exit_code
        if self._cgroup is not None:
            if self._cgroup.has_processes():
                return None
            # Read now whether the kernel killed it for memory: Docker removes the cgroup,
            # and its counter with it, once it sees the container end.
            self._oom_killed = self._oom_killed or (self._cgroup.oom_kills() or 0) > 0
        elif not self._stdout_hung_up():
            return None
        return self._reload_state()

    def _stdout_hung_up(self) -> bool:
        """Whether the bot side of stdout is closed (its processes ended), without reading."""
        poller = select.poll()
        poller.register(self.stdout_fd, select.POLLIN)
        return any(events & select.POLLHUP for _, events in poller.poll(0))

    def _reload_state(self) -> int | None:
        """The exit code from the engine if the container has ended (remembered), else None."""
        if self.container_id is None:
            return None
        try:
            state = self._api.inspect_container(self.container_id)["State"]
        except docker.errors.NotFound:
            self._exit_code = KILLED_EXIT_CODE
            return self._exit_code
        except (docker.errors.DockerException, requests.RequestException):
            return None
        self._oom_killed = self._oom_killed or bool(state.get("OOMKilled"))
        if state.get("Running") or state.get("Status") in ("created", "restarting"):
            return None
        self._exit_code = int(state.get("ExitCode") or 0)
        return self._exit_code

    def oom_killed(self) -> bool:
        if self._oom_killed:
            return True
        if self._cgroup is not None and (self._cgroup.oom_kills() or 0) > 0:
            self._oom_killed = True
            return True
        self._reload_state()
        return self._oom_killed

    def memory_peak(self) -> int | None:
        """Highest memory use of the box so far (also read at every freeze, as Docker
        removes the cgroup when the container ends)."""
        if self._cgroup is not None:
            peak = self._cgroup.memory_peak()
            if peak is not None:
                self._memory_peak = peak
        return self._memory_peak

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self.container_id is not None:
            self.thaw()  # a frozen process cannot die, so Docker's kill would wait on it
            try:
                self._api.remove_container(self.container_id, force=True)
            except docker.errors.NotFound:
                pass
            except (docker.errors.DockerException, requests.RequestException) as error:
                log.warning("could not remove box container %s: %s", self.container_id, error)
            if self._exit_code is None:
                self._exit_code = KILLED_EXIT_CODE
        if self.scratch_volume is not None:
            try:
                self._api.remove_volume(self.scratch_volume, force=True)
            except docker.errors.NotFound:
                pass
            except (docker.errors.DockerException, requests.RequestException) as error:
                log.warning("could not remove box volume %s: %s", self.scratch_volume, error)
        if self._cgroup is not None:
            self._cgroup.release()
        with contextlib.suppress(OSError, AttributeError):
            self.stdin.close()
        for fd in (self.stdout_fd, self.stderr_fd):
            if fd >= 0:
                with contextlib.suppress(OSError):
                    os.close(fd)
        shutil.rmtree(self.folder, ignore_errors=True)


class DockerBackend:
    """Boxes as containers of the bot image: `AGON_BOT_IMAGE`, else agon-bot:latest."""

    name = "docker"

    def __init__(
        self, *, image: str | None = None, labels: Mapping[str, str] | None = None
    ) -> None:
        self.image = image or os.environ.get(IMAGE_ENV) or DEFAULT_IMAGE
        self.labels = dict(labels or {})
        """Extra labels on every box's container (the tests find their own boxes by them)."""
        self._api: Any = None
        self._checked = False

    def check(self) -> None:
        try:
            if self._api is None:
                # DOCKER_HOST and friends, as the docker command reads them.
                self._api = docker.from_env(timeout=API_TIMEOUT_SECONDS).api
            api = self._api
            api.ping()
        except (docker.errors.DockerException, requests.RequestException, OSError) as error:
            raise DockerEngineUnavailable(
                f"no Docker engine answers at {_engine_address()}: {error}"
            ) from error
        try:
            config = api.inspect_image(self.image).get("Config") or {}
        except docker.errors.ImageNotFound:
            raise SandboxError(
                f"the bot image {self.image} is missing: build it with "
                f"deploy/bot-image/build.sh (or name another one in {IMAGE_ENV})"
            ) from None
        except (docker.errors.DockerException, requests.RequestException) as error:
            raise SandboxError(f"cannot inspect the bot image {self.image}: {error}") from error
        if (config.get("Labels") or {}).get(LAUNCHER_LABEL) != LAUNCHER_VERSION:
            raise SandboxError(
                f"the bot image {self.image} was built for another version of Agon (it has "
                f"no {LAUNCHER} of version {LAUNCHER_VERSION}, label {LAUNCHER_LABEL}): "
                "build it again with deploy/bot-image/build.sh"
            )
        self._checked = True

    def open(self, spec: BoxSpec) -> DockerBox:
        if not self._checked:
            self.check()
        return DockerBox(self._api, self.image, spec, self.labels)
