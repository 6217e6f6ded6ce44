"""A Docker box's launcher (`sandbox/box_launch.c`), run here without a container: it
connects the box's pipes, installs the box's seccomp filter and replaces the environment
before the program it starts runs its first instruction, and starts nothing when any
of that fails. (In a real box: tests/sandbox/test_docker_backend.py and the hostile
suite, on an image built with deploy/bot-image/build.sh.)"""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from pathlib import Path

import pytest

from sandbox import seccomp
from sandbox.backends.base import BOX_ENV
from sandbox.backends.bwrap import BOX_PYTHON
from sandbox.backends.docker import IO_DIR, LAUNCHER, SECCOMP_FILTER, launch_command
from sandbox.box_start import start_argv

PYTHON = BOX_PYTHON if Path(BOX_PYTHON).exists() else sys.executable
ENV = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}

needs_filter = pytest.mark.skipif(seccomp.box_filter() is None, reason="no filter here")


def launch(
    launcher: Path,
    folder: Path,
    program: list[str],
    *,
    seccomp_filter: Path | None = None,
    env: dict[str, str] = ENV,
    stdin: str = "",
) -> tuple[subprocess.CompletedProcess[str], str, str]:
    """Run `program` through the launcher, its pipes plain files of `folder`: the launch's
    result, then what the program wrote to its stdout and its stderr."""
    for name in ("in", "out", "log"):
        (folder / name).write_text(stdin if name == "in" else "")
    argv = [str(launcher)]
    for option, name in (("--stdin", "in"), ("--stdout", "out"), ("--stderr", "log")):
        argv += [option, str(folder / name)]
    if seccomp_filter is not None:
        argv += ["--seccomp", str(seccomp_filter)]
    for key, value in env.items():
        argv += ["--env", f"{key}={value}"]
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [*argv, "--", *program],
        cwd=folder,
        # What the launcher itself is given must not reach the program.
        env={**ENV, "AGON_TEST_SECRET": "the host's"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    return done, (folder / "out").read_text(), (folder / "log").read_text()


def write_filter(folder: Path) -> Path:
    program = seccomp.box_filter()
    assert program is not None
    (folder / "filter.bpf").write_bytes(program)
    return folder / "filter.bpf"


@needs_filter
def test_the_filter_is_in_force_from_the_programs_first_instruction(
    box_launcher: Path, tmp_path: Path
) -> None:
    done, out, _ = launch(
        box_launcher, tmp_path, ["cat", "/proc/self/status"], seccomp_filter=write_filter(tmp_path)
    )
    assert done.returncode == 0, done.stderr
    status = dict(line.split(":\t", 1) for line in out.splitlines() if ":\t" in line)
    assert status["NoNewPrivs"].strip() == "1"
    assert status["Seccomp"].strip() == "2"  # a filter, from the exec on


REPORTER = """\
import ctypes, json, os, sys
libc = ctypes.CDLL(None, use_errno=True)
refused = libc.sysinfo(ctypes.create_string_buffer(256)) == -1 and ctypes.get_errno()
print(json.dumps({"argv": sys.argv, "environ": dict(os.environ), "line": sys.stdin.read(),
    "sysinfo_errno": refused, "path0": sys.path[0]}))
print("to the log", file=sys.stderr)
"""


@needs_filter
def test_a_bot_starts_on_the_pipes_with_the_filter_and_only_the_environment_given(
    box_launcher: Path, tmp_path: Path
) -> None:
    (tmp_path / "main.py").write_text(REPORTER)
    done, out, log = launch(
        box_launcher,
        tmp_path,
        start_argv(PYTHON),
        seccomp_filter=write_filter(tmp_path),
        stdin="the referee's line\n",
    )
    assert done.returncode == 0, log
    assert (done.stdout, done.stderr) == ("", "")
    report = json.loads(out)
    assert report["argv"] == ["main.py"]
    assert report["environ"] == ENV
    assert report["line"] == "the referee's line\n"
    assert report["sysinfo_errno"] == errno.ENOSYS
    assert report["path0"] == str(tmp_path)
    assert log == "to the log\n"


@pytest.mark.parametrize(
    "content", [b"", b"\x20\x00\x00\x00\x04\x00", b"\x06\x00\x00\x00" * 2 * 5000]
)
def test_a_filter_that_cannot_be_installed_starts_nothing(
    box_launcher: Path, tmp_path: Path, content: bytes
) -> None:
    (tmp_path / "filter.bpf").write_bytes(content)  # empty, half an instruction, too long
    done, _, log = launch(
        box_launcher, tmp_path, ["touch", "ran"], seccomp_filter=tmp_path / "filter.bpf"
    )
    assert done.returncode == 1
    assert log.startswith("agon: the box's seccomp filter could not be installed: ")
    assert not (tmp_path / "ran").exists()


def test_a_filter_the_kernel_refuses_starts_nothing(box_launcher: Path, tmp_path: Path) -> None:
    # One instruction that jumps past the program's end: well formed, and invalid.
    (tmp_path / "filter.bpf").write_bytes(b"\x05\x00\x00\x00\x09\x00\x00\x00")
    done, _, log = launch(
        box_launcher, tmp_path, ["touch", "ran"], seccomp_filter=tmp_path / "filter.bpf"
    )
    assert done.returncode == 1
    assert log == "agon: the box's seccomp filter could not be installed: Invalid argument\n"
    assert not (tmp_path / "ran").exists()


def test_a_missing_filter_or_pipe_starts_nothing(box_launcher: Path, tmp_path: Path) -> None:
    done, _, log = launch(
        box_launcher, tmp_path, ["touch", "ran"], seccomp_filter=tmp_path / "missing.bpf"
    )
    assert done.returncode == 1
    assert "No such file or directory" in log
    (tmp_path / "out").unlink()
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [
            *(str(box_launcher), "--stdin", str(tmp_path / "in")),
            *("--stdout", str(tmp_path / "out"), "--stderr", str(tmp_path / "log")),
            *("--", "touch", "ran"),
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    assert done.stderr == f"agon: {tmp_path / 'out'}: No such file or directory\n"
    assert not (tmp_path / "ran").exists()


def test_the_program_is_found_on_the_path_given_and_its_absence_is_127(
    box_launcher: Path, tmp_path: Path
) -> None:
    done, out, _ = launch(box_launcher, tmp_path, ["env"])
    assert done.returncode == 0
    assert out.splitlines() == [f"{key}={value}" for key, value in ENV.items()]
    done, _, log = launch(box_launcher, tmp_path, ["env"], env={"PATH": str(tmp_path)})
    assert done.returncode == 127
    assert log == "agon: env: No such file or directory\n"


@pytest.mark.parametrize(
    "argv",
    [
        [],
        ["--stdin", "/dev/null", "--stdout", "/dev/null", "--", "true"],
        ["--stdin", "/dev/null", "--stdout", "/dev/null", "--stderr", "/dev/null"],
        ["--stdin", "/dev/null", "--stdout", "/dev/null", "--stderr", "/dev/null", "--env", "X"],
        ["--stdin", "/dev/null", "--stdout", "/dev/null", "--stderr", "/dev/null", "--pipe", "x"],
    ],
)
def test_a_command_line_it_does_not_read_starts_nothing(
    box_launcher: Path, argv: list[str]
) -> None:
    done = subprocess.run(  # noqa: S603 - a fixed argv
        [str(box_launcher), *argv], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2
    assert "usage: box-launch --stdin PATH --stdout PATH --stderr PATH" in done.stderr


def test_the_containers_command_is_the_launcher_then_one_interpreter() -> None:
    for with_filter in (True, False):
        argv = launch_command(with_filter=with_filter)
        assert argv[0] == LAUNCHER
        split = argv.index("--")
        options = argv[1:split]
        pairs = dict(zip(options[::2], options[1::2], strict=True))
        assert pairs["--stdin"] == f"{IO_DIR}/in"
        assert pairs["--stdout"] == f"{IO_DIR}/out"
        assert pairs["--stderr"] == f"{IO_DIR}/log"
        assert pairs.get("--seccomp") == (f"{IO_DIR}/{SECCOMP_FILTER}" if with_filter else None)
        given = [options[i + 1] for i in range(0, len(options), 2) if options[i] == "--env"]
        assert given == [f"{key}={value}" for key, value in sorted(BOX_ENV.items())]
        assert argv[split + 1 :] == start_argv("python3")
