"""The fork server's review (docs/threat-model.md, "The fork server: the review"): two
boxes of one server, open at once, share no namespace but the user one; one can neither
see, signal, trace nor connect to the other, the server or their monitors; each holds
no descriptor but its three pipes; each box's processes are in its own cgroup, and the
server is in none of them. (Field by field against a bubblewrap box:
test_fork_server.py's box_view test.)"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from sandbox.backends import bwrap
from sandbox.backends.base import BoxSpec
from sandbox.backends.bwrap import BwrapBackend
from sandbox.fork_server import ForkedBox
from sandbox.limits import limits_for
from tests.sandbox.support import require_backend

NAMESPACES = ("cgroup", "ipc", "mnt", "net", "pid", "time", "user", "uts")
OWN_PER_BOX = ("cgroup", "ipc", "mnt", "net", "pid", "uts")

TARGET = """\
import json, os, socket, sys
names = {name: os.readlink(f"/proc/self/ns/{name}") for name in NAMESPACES}
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind("\\0agon-neighbour")
listener.listen(1)
open("/tmp/mine", "w").write("secret")
sys.stderr.write(json.dumps(names) + "\\n")
sys.stderr.flush()
sys.stdin.read()
""".replace("NAMESPACES", repr(NAMESPACES))

ATTACKER = """\
import ctypes, errno, json, os, signal, socket, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
PTRACE = {"x86_64": 101, "aarch64": 117}[os.uname().machine]
PIDFD_OPEN, PTRACE_ATTACH = 434, 16
fds = sorted(os.listdir("/proc/self/fd"))  # before it opens any of its own
with open("/bot/targets.json") as file:
    targets = json.load(file)
found = {"fds": fds, "names": {n: os.readlink(f"/proc/self/ns/{n}") for n in NAMESPACES}}

def attempt(what, call):
    try:
        result = call()
    except OSError as error:
        return errno.errorcode.get(error.errno, str(error.errno))
    if isinstance(result, int) and result < 0:
        return errno.errorcode.get(ctypes.get_errno(), "?")
    return "done"

for pid in targets:
    found[str(pid)] = {
        "kill 0": attempt("kill", lambda: os.kill(pid, 0)),
        "kill 9": attempt("kill", lambda: os.kill(pid, signal.SIGKILL)),
        "ptrace": attempt("ptrace", lambda: libc.syscall(PTRACE, PTRACE_ATTACH, pid, 0, 0)),
        "pidfd": attempt("pidfd", lambda: libc.syscall(PIDFD_OPEN, pid, 0)),
        "proc": attempt("proc", lambda: open(f"/proc/{pid}/status").read()),
    }
found["kill -1"] = attempt("kill", lambda: os.kill(-1, signal.SIGKILL))
found["processes"] = sorted(int(n) for n in os.listdir("/proc") if n.isdigit())
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
found["abstract socket"] = attempt("connect", lambda: client.connect("\\0agon-neighbour"))
found["its scratch"] = attempt("read", lambda: open("/tmp/mine").read())
sys.stderr.write(json.dumps(found) + "\\n")
""".replace("NAMESPACES", repr(NAMESPACES))


@pytest.fixture
def folders(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    require_backend("bwrap")
    made = []
    for name, source in (("target", TARGET), ("attacker", ATTACKER)):
        folder = tmp_path / name
        folder.mkdir()
        folder.chmod(0o755)
        (folder / "main.py").write_text(source)
        (folder / "main.py").chmod(0o644)
        made.append(folder)
    yield made[0], made[1]


def open_box(folder: Path) -> ForkedBox:
    box = BwrapBackend(fork_server=True).open(BoxSpec(folder, limits_for("akropolis")))
    assert isinstance(box, ForkedBox)
    return box


def first_line(box: ForkedBox) -> dict[str, object]:
    said = b""
    while not said.endswith(b"\n"):
        chunk = os.read(box.stderr_fd, 1 << 16)
        assert chunk, said
        said += chunk
    return json.loads(said.splitlines()[-1])  # type: ignore[no-any-return]


def box_pids(box: ForkedBox) -> list[int]:
    deadline = time.monotonic() + 10
    while not (pids := box.cgroup.pids_inside()) and time.monotonic() < deadline:
        time.sleep(0.01)
    return sorted(pids)


def server_interpreter() -> int:
    """The pid of this process's server's interpreter (below its bubblewrap)."""
    queue = [bwrap.fork_server("bwrap").process.pid]
    while queue:
        pid = queue.pop(0)
        if Path(f"/proc/{pid}/comm").read_text().strip().startswith("python"):
            return pid
        for task in Path(f"/proc/{pid}/task").glob("*"):
            queue += [int(child) for child in (task / "children").read_text().split()]
    raise AssertionError("no interpreter below the server")


def namespaces_of(pid: int) -> dict[str, str]:
    return {name: os.readlink(f"/proc/{pid}/ns/{name}") for name in NAMESPACES}


def parent_of(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def test_two_boxes_of_one_server_share_only_its_user_namespace_and_the_host_s_clocks(
    folders: tuple[Path, Path],
) -> None:
    target, _ = folders
    first, second = open_box(target), open_box(target)
    try:
        one, two = first_line(first), first_line(second)
        server = namespaces_of(server_interpreter())
        referee = namespaces_of(os.getpid())
        for name in OWN_PER_BOX:
            assert len({one[name], two[name], server[name], referee[name]}) == 4, name
        # One user namespace per server: uid 65534 without capabilities in it, in boxes
        # with no pid, socket or IPC object of each other to use it on (below).
        assert one["user"] == two["user"] == server["user"] != referee["user"]
        assert one["time"] == two["time"] == referee["time"]  # as every bubblewrap box
    finally:
        first.close()
        second.close()


def test_a_box_cannot_reach_another_box_of_its_server_nor_the_server(
    folders: tuple[Path, Path],
) -> None:
    target, attacker = folders
    victim = open_box(target)
    try:
        first_line(victim)  # listening, its scratch written
        victims = box_pids(victim)  # its monitor (in its cgroup first) and its bot
        [monitor] = [pid for pid in victims if parent_of(pid) not in victims]
        server = server_interpreter()
        assert parent_of(monitor) == server
        (attacker / "targets.json").write_text(json.dumps([*victims, server]))
        (attacker / "targets.json").chmod(0o644)
        box = open_box(attacker)
        try:
            found = first_line(box)
        finally:
            box.close()
        for pid in [*victims, server]:
            tried = found[str(pid)]
            assert tried == {
                "kill 0": "ESRCH",
                "kill 9": "ESRCH",
                "ptrace": tried["ptrace"],  # type: ignore[index]
                "pidfd": "ESRCH",
                "proc": "ENOENT",
            }, (pid, tried)
            # Refused by the filter (ENOSYS) before the kernel would say ESRCH.
            assert tried["ptrace"] in ("ENOSYS", "EPERM", "ESRCH"), tried
        assert found["kill -1"] == "ESRCH"  # none but itself in its PID namespace
        assert found["processes"] == [1]
        assert found["abstract socket"] == "ECONNREFUSED"
        assert found["its scratch"] == "ENOENT"
        assert found["fds"] == ["0", "1", "2", "3"]  # 3: the listing's own
        # The victim lives on, untouched; its processes are in its cgroup, and the
        # server in none of the boxes'.
        assert victim.exit_code() is None
        assert box_pids(victim) == victims
        for folder in victim.cgroup.folders.values():  # each v1 controller, or v2's one
            inside = {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
            assert inside == set(victims), folder
            assert server not in inside
    finally:
        victim.close()
