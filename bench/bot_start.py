"""A file bot's start, in CPU time: what a box costs before the bot's first answer, split,
for this checkout and (with --old) another one, side by side in one run, against a bare
interpreter's start (`python3 -c pass`) measured in the same run.

Per backend, each of these bots is boxed and sent a start message and a real mid-game
4-player Akropolis turn (as `bench/sandbox.py`); the box's CPU (its cgroup's: every
process the box ran, bubblewrap's own set-up or the container's shell and env included)
is read once it has answered, frozen:

- `raw`: main.py answers with `sys` only: the box's launch and the interpreter(s);
- `import`: the same after `import agon_bot`: + the bot library's import;
- `random`: `agon_bot.run` answering `legal_actions[0]`: + the turn (for Akropolis, the
  compact legal actions expanded by the engine);

and for bubblewrap, `bwrap`: a box whose program is /bin/true (bubblewrap alone, to its
exit). Time to first answer is the wall time from opening the box to the answer.

For Docker, what the container's cgroup holds besides the bot is split off as bubblewrap's
is: `launch`, a box whose program is /bin/sleep (runc's `init`, which sets the container
up inside it, then the launch: the box's launcher, `sandbox/box_launch.c`, which installs
the filter; before it, `sh` and `env`), read once sleep runs. A bot's own CPU
(its interpreter, `sandbox.box_start` and its imports, its first turn) is its row less
`launch`, against a bare interpreter's start in the same image (`python3 -c pass`, run
in a container of that image, its CPU from `RUSAGE_CHILDREN`). Docker's daemons, outside
the container, are `daemons`: dockerd's and containerd's CPU while the box opened and
answered (every other container of the machine's included: a ceiling) and the box's own
containerd shim with the `runc` commands it ran.

For bubblewrap, this checkout runs twice: without its fork server (`new`,
AGON_SANDBOX_FORK_SERVER=0), and as it comes (`fork`: the setting unset, the fork
server where the machine supports it, which the bench requires): a forked box's CPU is its
cgroup's plus what the server itself spent while the box was made (the fork; the server
was started, and its imports done, before the first box measured, once per referee).
Contenders and bots take turns so that the machine's drift falls on all alike; each
contender runs in a child process that imports its own checkout's `sandbox`.

    .venv/bin/python bench/bot_start.py [--old PATH] [--boxes 9] [--backends bwrap,docker]

As root (boxes need cgroups). For the old code, a worktree of the commit before:
`git worktree add <folder> <commit>`; for Docker, its own image through AGON_BOT_IMAGE
(--old-image), as the image holds the bot library.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

BOTS = {
    "raw": (
        "import sys\n"
        "for line in sys.stdin:\n"
        "    if '\"turn\"' in line:\n"
        "        sys.stdout.write('{\"action\": null}\\n')\n"
        "        sys.stdout.flush()\n"
    ),
    "import": (
        "import sys\n"
        "import agon_bot\n"
        "for line in sys.stdin:\n"
        "    if '\"turn\"' in line:\n"
        "        sys.stdout.write('{\"action\": null}\\n')\n"
        "        sys.stdout.flush()\n"
    ),
    "random": "from agon_bot import run\n\nrun(lambda observation, legal: legal[0])\n",
}


def bare_interpreter_ms() -> float:
    """CPU of `python3 -c pass`: the box's interpreter, unboxed, with its site."""
    child = subprocess.Popen(["/usr/bin/python3", "-c", "pass"], env={})
    _, _, usage = os.wait4(child.pid, 0)
    return (usage.ru_utime + usage.ru_stime) * 1e3


BENCH_LABEL = "agon.bench"
"""On every container of the bench (with the value of BENCH_LABEL_VARIABLE): this run's."""
BENCH_LABEL_VARIABLE = "AGON_BENCH_LABEL"

IMAGE_BARE = """\
import resource, statistics, subprocess, sys
spent = []
for _ in range(int(sys.argv[1])):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(["python3", "-c", "pass"], check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    spent.append((after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1e3)
print(" ".join(f"{value:.3f}" for value in spent))
"""


def image_bare_ms(image: str, count: int) -> list[float]:
    """CPU of `count` runs of `python3 -c pass` in a container of `image`, each alone."""
    output = subprocess.run(  # noqa: S603 - a fixed argv
        [
            *("docker", "run", "--rm", "--network", "none"),
            *("--label", f"{BENCH_LABEL}={os.environ[BENCH_LABEL_VARIABLE]}"),
            *("--user", "65534:65534", image, "python3", "-c", IMAGE_BARE, str(count)),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return [float(value) for value in output.stdout.split()]


def _process_ms(pid: int, *, children: bool = False) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12])
    if children:
        ticks += int(fields[13]) + int(fields[14])
    return ticks * 1e3 / os.sysconf("SC_CLK_TCK")


def _daemons_ms(container_id: str | None = None) -> float:
    """CPU of dockerd and containerd so far, and of the container's shim with its
    reaped children (the `runc` commands) when `container_id` is given."""
    spent = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            comm = (entry / "comm").read_text().strip()
            if comm in ("dockerd", "containerd"):
                spent += _process_ms(int(entry.name))
            elif (
                container_id
                and comm.startswith("containerd-shim")
                and container_id in (entry / "cmdline").read_text()
            ):
                spent += _process_ms(int(entry.name), children=True)
        except (OSError, ValueError, IndexError):
            continue
    return spent


# --- in the child: one contender's boxes ---------------------------------------------


def _cgroup_ms(box: Any) -> float:
    """CPU of everything the box ran so far, from its cgroup."""
    cgroup = getattr(box, "cgroup", None)
    if cgroup is not None:  # a bubblewrap box: the cgroup the referee made
        if "cpuacct" in cgroup.folders:
            return int((cgroup.folders["cpuacct"] / "cpuacct.usage").read_text()) / 1e6
        stat = (cgroup.folders["unified"] / "cpu.stat").read_text()
        return int(stat.split("usage_usec ")[1].split()[0]) / 1e3
    pid = box._api.inspect_container(box.container_id)["State"]["Pid"]
    for line in Path(f"/proc/{pid}/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        if "cpuacct" in controllers.split(","):
            mount = Path("/sys/fs/cgroup") / controllers
            return int((mount / path.lstrip("/") / "cpuacct.usage").read_text()) / 1e6
        if controllers == "":
            stat = (Path("/sys/fs/cgroup") / path.lstrip("/") / "cpu.stat").read_text()
            return int(stat.split("usage_usec ")[1].split()[0]) / 1e3
    raise RuntimeError("no CPU accounting for the container")


FORK = "bwrap-fork"
"""The bwrap backend with its fork server, as a contender of the bwrap table."""


def _server_ms(forked: bool) -> float:
    """CPU of the fork server's own process so far (not its boxes'); 0 without one."""
    if not forked:
        return 0.0
    from sandbox.backends import bwrap

    server = bwrap._servers[os.getpid()]
    tick = os.sysconf("SC_CLK_TCK")
    parents = {server.process.pid}
    while parents:  # bubblewrap, its init, then the server: the first python3 down
        found = set()
        for entry in Path("/proc").iterdir():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if fields[1].isdigit() and int(fields[1]) in parents:
                    if (entry / "comm").read_text().strip().startswith("python"):
                        return (int(fields[11]) + int(fields[12])) * 1e3 / tick
                    found.add(int(entry.name))
            except (OSError, ValueError):
                continue
        parents = found
    raise RuntimeError("the fork server's process is not there")


def measure(backend_name: str, bot: str, boxes: int) -> list[tuple[float, float, float]]:
    """(CPU ms, wall ms, Docker's daemons' CPU ms) to the first answer of `boxes` boxes of
    `bot`; for "bwrap", the CPU of a box running /bin/true; for "launch" (Docker), of a
    box running /bin/sleep, once it runs."""
    import sandbox.cgroups
    from bench.sandbox import turn_payload
    from sandbox.backends import BoxSpec, bwrap, get_backend
    from sandbox.limits import limits_for
    from sandbox.referee import BoxBot

    # Boxes' cgroups in the cpuacct hierarchy too, where it is one of its own (v1).
    if "cpuacct" not in sandbox.cgroups.V1_CONTROLLERS:
        sandbox.cgroups.V1_CONTROLLERS = (*sandbox.cgroups.V1_CONTROLLERS, "cpuacct")
    observation, legal = turn_payload()
    limits = limits_for("akropolis")
    forked = False
    if backend_name == FORK:
        backend: Any = bwrap.BwrapBackend()  # as it comes: AGON_SANDBOX_FORK_SERVER unset
        backend.check()
        forked = backend.forks_boxes()
        if not forked:
            raise SystemExit(f"this machine's bwrap boxes are not forked: {backend.box_path()}")
        bwrap.fork_server(backend.executable)  # started (and its probe done) unmeasured
    elif backend_name == "bwrap":
        backend = bwrap.BwrapBackend(fork_server=False)
        backend.check()
    elif backend_name == "docker":
        from sandbox.backends.docker import DockerBackend

        backend = DockerBackend(labels={BENCH_LABEL: os.environ[BENCH_LABEL_VARIABLE]})
    else:
        backend = get_backend(backend_name)
    results = []
    with tempfile.TemporaryDirectory() as work:
        folder = Path(work)
        folder.chmod(0o755)
        (folder / "main.py").write_text(BOTS.get(bot, ""))
        (folder / "main.py").chmod(0o644)
        for _ in range(boxes):
            if bot == "bwrap":
                real_argv = bwrap.bwrap_argv

                def true_argv(*args: Any, real: Callable[..., list[str]] = real_argv) -> list[str]:
                    argv = real(*args)
                    return [*argv[: argv.index("--") + 1], "/bin/true"]

                bwrap.bwrap_argv = true_argv  # type: ignore[assignment]
                try:
                    box: Any = backend.open(BoxSpec(folder, limits))
                finally:
                    bwrap.bwrap_argv = real_argv  # type: ignore[assignment]
                box.stdin.close()
                box.process.wait()
                results.append((_cgroup_ms(box), 0.0, 0.0))
                box.close()
                continue
            if bot == "launch":
                results.append(_sleeping_box(backend, BoxSpec(folder, limits)))
                continue
            daemons_before = _daemons_ms() if backend_name == "docker" else 0.0
            server_before = _server_ms(forked)
            started = time.perf_counter()
            box = backend.open(BoxSpec(folder, limits))
            player = BoxBot(box, limits)
            try:
                player.start({"game": "akropolis", "player": 0, "players": 4, "options": {}})
                player.act(observation, legal)
                wall = time.perf_counter() - started
                server = _server_ms(forked) - server_before
                daemons = 0.0
                if backend_name == "docker":
                    daemons = _daemons_ms(box.container_id) - daemons_before
                results.append((_cgroup_ms(box) + server, wall * 1e3, daemons))
            finally:
                player.close()
    return results


def _sleeping_box(backend: Any, spec: Any) -> tuple[float, float, float]:
    """A Docker box launched as always but with /bin/sleep for its python3: its cgroup's
    CPU once sleep runs (runc's init, then the launch: `sh` and `env` before the box's
    launcher, since then the launcher, which installs the filter)."""
    from sandbox.backends import docker

    real = docker.launch_command

    def sleeping(*, with_filter: bool) -> Any:
        command = real(with_filter=with_filter)
        if isinstance(command, str):  # before the launcher: `sh -c` ran this line
            program = command.index(" python3 ")
            redirections = command.rindex(" <")
            return command[:program] + " /bin/sleep 600" + command[redirections:]
        return [*command[: command.index("--") + 1], "/bin/sleep", "600"]

    daemons_before = _daemons_ms()
    docker.launch_command = sleeping
    try:
        started = time.perf_counter()
        box = backend.open(spec)
    finally:
        docker.launch_command = real
    try:
        pid = box._api.inspect_container(box.container_id)["State"]["Pid"]
        deadline = time.monotonic() + 30
        while Path(f"/proc/{pid}/comm").read_text().strip() != "sleep":
            if time.monotonic() > deadline:
                raise RuntimeError("the sleeping box never ran sleep")
            time.sleep(0.002)
        wall = time.perf_counter() - started
        return _cgroup_ms(box), wall * 1e3, _daemons_ms(box.container_id) - daemons_before
    finally:
        box.close()


# --- in the parent: contenders and bots in turn ---------------------------------------


def run_child(root: Path, image: str | None, backend: str, bot: str, boxes: int) -> Any:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(root), str(root / "platform")])}
    env.pop("AGON_SANDBOX_FORK_SERVER", None)  # each contender says how it boxes
    if image:
        env["AGON_BOT_IMAGE"] = image
    # This file loaded by its path: its folder on the path would shadow `sandbox`.
    code = (
        "import importlib.util, json, sys\n"
        "spec = importlib.util.spec_from_file_location('bot_start', sys.argv[1])\n"
        "bench = importlib.util.module_from_spec(spec); spec.loader.exec_module(bench)\n"
        "print(json.dumps(bench.measure(sys.argv[2], sys.argv[3], int(sys.argv[4]))))"
    )
    output = subprocess.run(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", code, __file__, backend, bot, str(boxes)],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if output.returncode != 0:
        raise SystemExit(f"{root} {backend} {bot}:\n{output.stderr[-3000:]}")
    return json.loads(output.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--old", type=Path, help="a checkout of the code to compare with")
    parser.add_argument("--old-image", help="the old code's bot image (Docker)")
    parser.add_argument("--new-image", help="this checkout's bot image (Docker)")
    parser.add_argument("--boxes", type=int, default=9, help="boxes per bot and contender")
    parser.add_argument("--rounds", type=int, default=3, help="turns the contenders take")
    parser.add_argument("--backends", default="bwrap,docker")
    args = parser.parse_args()
    os.environ.setdefault(BENCH_LABEL_VARIABLE, f"bot_start-{os.getpid()}")
    # name: (checkout, image, backend in place of the table's own)
    contenders: dict[str, tuple[Path, str | None, str | None]] = {
        "new": (ROOT, args.new_image, None)
    }
    if args.old:
        contenders = {"old": (args.old.resolve(), args.old_image, None), **contenders}
    per_round = max(1, args.boxes // args.rounds)
    for backend in args.backends.split(","):
        bare: list[float] = []
        load = [os.getloadavg()[0]]
        extra = {"bwrap": ["bwrap"], "docker": ["launch"]}.get(backend, [])
        bots = extra + list(BOTS)
        columns = dict(contenders)
        if backend == "bwrap":
            columns["fork"] = (ROOT, None, FORK)
        cpu: dict[tuple[str, str], list[float]] = {}
        wall: dict[tuple[str, str], list[float]] = {}
        daemons: dict[str, list[float]] = {}
        image_bare: dict[str, list[float]] = {}
        for _ in range(args.rounds):
            for bot in bots:
                for name, (root, image, instead) in columns.items():
                    if bot == "bwrap" and instead == FORK:
                        continue  # no bubblewrap per box to measure alone
                    bare += [bare_interpreter_ms() for _ in range(per_round)]
                    if backend == "docker" and bot == "launch":
                        in_image = image or os.environ.get("AGON_BOT_IMAGE") or "agon-bot:latest"
                        image_bare.setdefault(name, []).extend(image_bare_ms(in_image, per_round))
                    results = run_child(root, image, instead or backend, bot, per_round)
                    for used, took, outside in results:
                        cpu.setdefault((name, bot), []).append(used)
                        wall.setdefault((name, bot), []).append(took)
                        if bot == "random":
                            daemons.setdefault(name, []).append(outside)
            load.append(os.getloadavg()[0])
        print_table(backend, columns, bots, cpu, wall, bare, load, per_round * args.rounds)
        if backend == "docker":
            print_docker_split(columns, cpu, daemons, image_bare)


def print_table(
    backend: str,
    columns: dict[str, Any],
    bots: list[str],
    cpu: dict[tuple[str, str], list[float]],
    wall: dict[tuple[str, str], list[float]],
    bare: list[float],
    load: list[float],
    boxes: int,
) -> None:
    med = statistics.median
    print(
        f"\n{backend}: CPU ms to the first answer (median of {boxes} "
        f"boxes; the bare interpreter's start, python3 -c pass, {med(bare):.1f} ms; "
        f"load average {min(load):.1f}-{max(load):.1f} on {os.cpu_count()} CPUs)"
    )
    if backend == "bwrap":
        print(
            "  new: this code, AGON_SANDBOX_FORK_SERVER=0 (bubblewrap per box); "
            "fork: this code as it comes (the fork server, the default where it works)"
        )
    print(f"  {'bot':<8}" + "".join(f"{name:>12}{'x bare':>8}" for name in columns))
    for bot in bots:
        row = f"  {bot:<8}"
        for name in columns:
            if (name, bot) not in cpu:
                row += f"{'-':>12}{'-':>8}"
                continue
            value = med(cpu[name, bot])
            row += f"{value:10.1f}ms{value / med(bare):7.2f}x"
        print(row)
    print(
        "  time to first answer (wall, random bot): "
        + ", ".join(f"{name} {med(wall[name, 'random']):.0f} ms" for name in columns)
    )


def print_docker_split(
    columns: dict[str, Any],
    cpu: dict[tuple[str, str], list[float]],
    daemons: dict[str, list[float]],
    image_bare: dict[str, list[float]],
) -> None:
    """The bots' own CPU (their row less `launch`) against a bare interpreter's start in
    their image, and Docker's daemons' CPU a box, outside the container."""
    med = statistics.median
    print(
        "  the bot's own (its row less launch), against python3 -c pass in its image ("
        + ", ".join(f"{name} {med(image_bare[name]):.1f} ms" for name in columns)
        + "):"
    )
    for bot in BOTS:
        row = f"  {bot + ' own':<12}"
        for name in columns:
            value = med(cpu[name, bot]) - med(cpu[name, "launch"])
            row += f"{value:8.1f}ms{value / med(image_bare[name]):7.2f}x"
        print(row)
    print(
        "  Docker's daemons a random bot's box, to its answer (outside the container): "
        + ", ".join(f"{name} {med(daemons[name]):.1f} ms" for name in columns)
    )


if __name__ == "__main__":
    main()
