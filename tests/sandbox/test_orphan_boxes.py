"""A box whose referee died (a worker killed while the box was frozen between turns) is
killed and removed by the next box made on the host."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from sandbox.cgroups import BoxCgroup, CgroupUnavailable, check_available, reap_orphans
from tests.required import missing

REFEREE = """\
import json, subprocess, sys
from sandbox.cgroups import BoxCgroup

box = BoxCgroup(64 * 1024 * 1024, 8)
child = subprocess.Popen(["sleep", "300"], preexec_fn=box.attach_self)
box.freeze()
print(json.dumps({"name": box.name, "pid": child.pid}), flush=True)
sys.stdin.read()  # until the test kills this referee
"""


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.fixture
def cgroups() -> None:
    try:
        check_available()
    except CgroupUnavailable as error:
        missing("cgroups", f"no cgroups for boxes here: {error}")


def test_a_frozen_box_whose_referee_was_killed_is_reaped(cgroups: None) -> None:
    root = Path(__file__).resolve().parents[2]
    referee = subprocess.Popen(  # noqa: S603 - a fixed argv
        [sys.executable, "-c", REFEREE],
        cwd=root,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert referee.stdout is not None
    box = json.loads(referee.stdout.readline())
    referee.send_signal(signal.SIGKILL)
    referee.wait()
    folders = BoxCgroup._existing(box["name"]).folders.values()
    try:
        # A box made by another test on this host meanwhile may reap the orphan first,
        # with the same code: what matters is that it is gone, processes and cgroups.
        deadline = time.monotonic() + 10
        while any(f.exists() for f in folders) and time.monotonic() < deadline:
            reap_orphans()
            time.sleep(0.05)
        while alive(box["pid"]) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(box["pid"]), "a frozen box outlives its referee"
        assert not any(f.exists() for f in folders)
    finally:
        BoxCgroup._existing(box["name"]).remove()


def test_a_box_of_a_live_referee_is_left_alone(cgroups: None) -> None:
    box = BoxCgroup(64 * 1024 * 1024, 8)
    try:
        assert box.name.startswith(f"agon-box-{os.getpid()}-")
        assert box.name not in reap_orphans()
        assert all(folder.is_dir() for folder in box.folders.values())
    finally:
        box.remove()
