"""The sandbox conformance suite: one hostile bot per attack, run in every backend.

Seat 0 is the hostile bot, seat 1 a builtin bot (or another boxed bot). Whatever the
attack, the match finishes in bounded time, the hostile seat's fault is the expected
kind at the expected turn and ranks it last, the other seat's game is played to the
end, and nothing of the match survives it (`Arena.play` checks processes, cgroups,
containers and folders as soon as `run_match` returns).

`any_arena` runs on `none` too, for what needs no isolation; `boxed_arena` only on the
backends that isolate (bwrap, docker), skipped with the reason where one is missing
(failed instead where AGON_TEST_REQUIRE names it, as under `make test`: tests.required).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import platform
import re
import select
import socket
import struct
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

import agon_bot
from sandbox import seccomp
from sandbox.backends.base import BOX_ENV
from sandbox.limits import limits_for
from sandbox.runner import Program
from tests.sandbox.support import GAME, Arena, assert_fault, assert_no_fault, only_report, reports

RANDOM = Program.builtin("random")
ATTACK_TURN = 2
"""The hostile bot plays normally before its third turn: game turn 4 (seat 0 moves on
even turns of a two-player match)."""
FAULT_TURN = 2 * ATTACK_TURN
DROPPED = re.compile(r"\[agon: (\d+) more bytes of log were dropped\]")


# --- time ----------------------------------------------------------------------------


def test_a_busy_loop_times_out(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("busy_loop"), RANDOM)
    assert_fault(record, seat=0, kind="timeout", turn=FAULT_TURN)
    assert only_report(record.seats[0].log) == {"spinning": True}


def test_sleeping_past_the_limit_times_out(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("oversleep"), RANDOM)
    assert_fault(record, seat=0, kind="timeout", turn=FAULT_TURN)
    # turn + time bank, not the hour it asked for
    assert record.seats[0].slowest_turn_seconds < 0.5 + 0.5 + 0.5
    # Each turn's time is kept (the datasets' time per decision), the faulted one too.
    timed = record.seats[0].turn_milliseconds
    assert len(timed) == record.seats[0].turns
    assert max(timed) == round(record.seats[0].slowest_turn_seconds * 1000) >= 500


# --- output --------------------------------------------------------------------------


def test_a_line_that_is_not_json_is_bad_output(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("invalid_json"), RANDOM)
    assert_fault(record, seat=0, kind="bad_output", turn=FAULT_TURN)
    assert "not a JSON line" in record.replay.faults[0]["detail"]


def test_json_too_deep_to_decode_is_bad_output(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("deep_json"), RANDOM)
    assert_fault(record, seat=0, kind="bad_output", turn=FAULT_TURN)


def test_an_illegal_move_is_an_illegal_action(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("illegal_move"), RANDOM)
    assert_fault(record, seat=0, kind="illegal_action", turn=FAULT_TURN)


def test_exiting_early_is_a_crash(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("exit_early", exit_code=3), RANDOM)
    assert_fault(record, seat=0, kind="crash", turn=FAULT_TURN)
    assert "exited with code 3" in record.replay.faults[0]["detail"]
    assert "leaving now" in record.seats[0].log


def test_flooding_stdout_hits_the_output_limit(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("stdout_flood"), RANDOM)
    assert_fault(record, seat=0, kind="output_limit", turn=FAULT_TURN)


def test_flooding_the_log_keeps_its_head_and_counts_the_rest(any_arena: Arena) -> None:
    log_bytes, flood = 64 * 1024, 256 * 1024
    record = any_arena.play(
        any_arena.hostile("stderr_flood", flood_bytes=flood),
        RANDOM,
        limits={"log_bytes": log_bytes},
    )
    assert_no_fault(record)
    log = record.seats[0].log
    kept = log.partition("\n[agon:")[0]
    assert kept == "L" * log_bytes
    dropped = DROPPED.search(log)
    assert dropped is not None, log[-200:]
    assert int(dropped.group(1)) == record.seats[0].turns * flood - log_bytes


def test_flooding_both_pipes_after_the_end_cannot_hold_the_match(any_arena: Arena) -> None:
    peak_rss = PeakRss()
    record = any_arena.play(
        any_arena.hostile("flood_after_end", streams=["stdout", "stderr"]),
        RANDOM,
        watch=peak_rss.sample,
    )
    assert_no_fault(record)
    assert record.match_seconds < 10
    assert len(record.seats[0].log.encode()) < 64 * 1024 + 100
    # Kept, what the bot pours out in the half second of grace comes to tens of MiB.
    assert peak_rss.growth() < 16 * 1024 * 1024, "the referee kept what the bot poured out"


def test_hanging_up_while_flooding_the_log_is_a_prompt_crash(any_arena: Arena) -> None:
    record = any_arena.play(any_arena.hostile("hang_up_and_flood_log"), RANDOM)
    assert_fault(record, seat=0, kind="crash", turn=FAULT_TURN)
    assert record.match_seconds < 10
    assert len(record.seats[0].log.encode()) < 64 * 1024 + 100


def test_closing_stdout_while_staying_alive_is_a_crash_at_once(any_arena: Arena) -> None:
    # A whole turn's allowance of 20 s, which the fault must not wait out.
    slow = {"turn_seconds": 20, "time_bank_seconds": 20}
    record = any_arena.play(any_arena.hostile("close_stdout"), RANDOM, limits=slow)
    assert_fault(record, seat=0, kind="crash", turn=FAULT_TURN)
    assert "closed its output" in record.replay.faults[0]["detail"]
    # Far under the 20 s it must not wait out, with room for a loaded machine (at load 14
    # the turn, the box's start included, took 0.7 s).
    assert record.seats[0].slowest_turn_seconds < 5


def test_a_bot_that_stops_reading_its_messages_times_out(any_arena: Arena) -> None:
    # Its sixth turn's message is over a page long: it cannot all go into the pipe.
    record = any_arena.play(any_arena.hostile("stop_reading", attack_turn=5), RANDOM)
    assert_fault(record, seat=0, kind="timeout", turn=2 * 6)
    assert reports(record.seats[0].log) == [{"stdin_pipe_bytes": 4096}]


# --- what a fault may say, and what a bot may make the platform keep ----------------

DETAIL_CHARS = 300
"""The longest fault detail (engine.match.MAX_DETAIL_CHARS) plus room for its note."""
PRINTABLE = re.compile(r"[^\x00-\x1f\x7f\ud800-\udfff]*")


def assert_printable_and_bounded(detail: str) -> None:
    assert len(detail) <= DETAIL_CHARS + 40, detail[:400]
    assert PRINTABLE.fullmatch(detail), repr(detail[:400])
    detail.encode("utf-8")  # no lone surrogate


@pytest.mark.parametrize(
    ("line", "kind"),
    [
        ('{"action": ' + "7" * 5000 + "}", "bad_output"),
        ('{"action": {"tile": 0, "q": ' + "1" * 5000 + ', "r": 0, "rotation": 0}}', "bad_output"),
        ('{"action": {"tile": 0, "q": 1e999, "r": 0, "rotation": 0}}', "bad_output"),
        ('{"action": {"tile": 0, "q": NaN, "r": 0, "rotation": 0}}', "bad_output"),
        ('{"action": ' + "[" * 900 + "]" * 900 + "}", "bad_output"),
        ('{"action": {"tile": 0, "q": ' + "9" * 4000 + ', "r": 0, "rotation": 0}}', None),
        ('{"action": "\\ud800\\u0000\\u001b[2J"}', None),
        ('{"action": {"\\ud800": 1}}', None),
    ],
    ids=[
        "huge-integer",
        "huge-integer-inside",
        "huge-float",
        "nan",
        "deep-nesting",
        "long-integer",
        "lone-surrogate-and-controls",
        "odd-key",
    ],
)
def test_an_answer_the_decoder_chokes_on_is_bad_output_never_a_crash(
    any_arena: Arena, line: str, kind: str | None
) -> None:
    record = any_arena.play(any_arena.hostile("raw_reply", line=line), RANDOM)
    faults = record.replay.faults
    assert faults, "the answer was taken"
    if kind is None:  # well-formed JSON: bad output or illegal, the game decides
        assert faults[0]["kind"] in ("bad_output", "illegal_action"), faults
        kind = faults[0]["kind"]
    assert_fault(record, seat=0, kind=kind, turn=FAULT_TURN)
    assert_printable_and_bounded(faults[0]["detail"])


def test_a_long_illegal_action_leaves_a_bounded_fault(any_arena: Arena) -> None:
    chars = 10_000  # under the line limit, far over what a fault detail keeps
    record = any_arena.play(any_arena.hostile("long_illegal_action", chars=chars), RANDOM)
    assert_fault(record, seat=0, kind="illegal_action", turn=FAULT_TURN)
    detail = record.replay.faults[0]["detail"]
    assert_printable_and_bounded(detail)
    assert re.search(r"\.\.\. \(\d+ more characters\)$", detail), detail


@pytest.mark.parametrize("piece", [65536, 512])
def test_a_legal_reply_padded_to_a_megabyte_is_refused_before_it_is_read(
    any_arena: Arena, piece: int
) -> None:
    padding = 1024 * 1024 - 100
    record = any_arena.play(any_arena.hostile("padded_reply", padding=padding, piece=piece), RANDOM)
    assert_fault(record, seat=0, kind="output_limit", turn=FAULT_TURN)
    limit = limits_for(GAME).message_bytes
    assert record.replay.faults[0]["detail"] == (
        f"sent a line longer than {limit} bytes (the longest reply a bot may send)"
    )


@pytest.mark.parametrize("how", ["raise", "segfault"])
def test_a_crash_says_how_the_bot_ended_and_never_quotes_its_log(
    any_arena: Arena, how: str
) -> None:
    secret = "the-secret-plan-" + any_arena.marker
    record = any_arena.play(any_arena.hostile("crash_with_secret", secret=secret, how=how), RANDOM)
    assert_fault(record, seat=0, kind="crash", turn=FAULT_TURN)
    detail = record.replay.faults[0]["detail"]
    assert secret not in detail
    assert secret in record.seats[0].log  # the owner still reads it
    assert_printable_and_bounded(detail)
    if how == "raise":
        assert "exited with code 1" in detail
        assert "SecretPlanError" in detail
    else:
        assert "SIGSEGV" in detail


def test_a_log_of_any_bytes_is_kept_byte_for_byte(any_arena: Arena) -> None:
    log_bytes, flood = 64 * 1024, 100 * 1024
    dirt = b"\x00nul \xff\xfe invalid \xed\xa0\x80 surrogate \x1b[31m\x07\r\n"
    record = any_arena.play(
        any_arena.hostile("dirty_log", flood_bytes=flood),
        RANDOM,
        limits={"log_bytes": log_bytes},
    )
    assert_no_fault(record)
    seat = record.seats[0]
    assert seat.log_bytes == (dirt + b"\x00" * flood)[:log_bytes]
    assert seat.log_dropped_bytes == seat.turns * (len(dirt) + flood) - log_bytes


# --- resources -----------------------------------------------------------------------


def test_a_memory_hog_is_stopped_with_a_memory_fault(boxed_arena: Arena) -> None:
    # Time enough for the kernel to give up reclaiming under load: this is about the kind.
    record = boxed_arena.play(boxed_arena.hostile("memory_hog"), RANDOM, limits={"turn_seconds": 5})
    assert_fault(record, seat=0, kind="memory", turn=FAULT_TURN)
    held = max(report["held_bytes"] for report in reports(record.seats[0].log))
    assert held <= 128 * 1024 * 1024


def test_a_fork_bomb_cannot_pass_the_pids_limit(boxed_arena: Arena) -> None:
    pids = 16
    record = boxed_arena.play(boxed_arena.hostile("fork_bomb"), RANDOM, limits={"pids": pids})
    faults = record.replay.faults
    if faults:  # the bomb may starve the bot itself, which is its own loss
        assert_fault(record, seat=0, kind=faults[0]["kind"], turn=FAULT_TURN)
        assert faults[0]["kind"] in ("crash", "timeout")
    else:
        assert_no_fault(record)
    report = only_report(record.seats[0].log)
    assert report["forked"] >= 1
    assert "Resource temporarily unavailable" in report["refusal"]
    assert report["seen"] <= pids
    assert subprocess.run(["true"], check=False).returncode == 0  # noqa: S607 - the host can still fork


def test_a_child_left_behind_does_not_outlive_the_match(boxed_arena: Arena) -> None:
    sleepers: set[str] = set()

    def watch() -> None:
        sleepers.update(
            line for line in processes_with_argv(boxed_arena.marker) if "time.sleep" in line
        )

    record = boxed_arena.play(boxed_arena.hostile("orphan_child"), RANDOM, watch=watch)
    assert_no_fault(record)
    assert only_report(record.seats[0].log) == {"left": "a sleeper", "up": True}
    assert sleepers, "the sleeper never ran, so its absence proves nothing"
    # Arena.play has checked that no process with the marker is left


def test_signals_from_the_box_reach_nothing_outside_it(boxed_arena: Arena) -> None:
    record = boxed_arena.play(boxed_arena.hostile("signal_referee", test_pid=os.getpid()), RANDOM)
    assert_no_fault(record)
    outcome = only_report(record.seats[0].log)["outcome"]
    assert "ProcessLookupError" in outcome["test"]


# --- isolation -----------------------------------------------------------------------


def test_the_network_is_out_of_reach(boxed_arena: Arena) -> None:
    with listening_sockets(boxed_arena.marker) as (port, listeners):
        hosts = host_ipv4_addresses()
        record = boxed_arena.play(
            boxed_arena.hostile(
                "network", port=port, hosts=hosts, abstract_socket=f"agon-test-{boxed_arena.marker}"
            ),
            RANDOM,
        )
        assert_no_fault(record)
        attempts = only_report(record.seats[0].log)
        assert set(attempts) >= {f"tcp {host}:{port}" for host in hosts}
        assert {name: result[:8] for name, result in attempts.items()} == {
            name: "blocked:" for name in attempts
        }
        readable, _, _ = select.select(listeners, [], [], 0)
        assert readable == [], "a listener of the test was reached from the box"


def test_the_hosts_files_and_environment_are_out_of_sight(
    boxed_arena: Arena, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    file_secret, env_secret = "file-" + boxed_arena.marker, "env-" + boxed_arena.marker
    secret_file = tmp_path / "secret.txt"
    secret_file.write_text(file_secret)
    secret_file.chmod(0o644)
    monkeypatch.setenv("AGON_TEST_SECRET", env_secret)
    record = boxed_arena.play(
        boxed_arena.hostile("read_host_secrets", secret_file=str(secret_file)), RANDOM
    )
    assert_no_fault(record)
    log = record.seats[0].log
    assert file_secret not in log
    assert env_secret not in log
    found = only_report(log)
    files, environ = found["files"], found["environ"]
    assert "error" in files[str(secret_file)]
    assert "error" in files["/etc/shadow"] or "root:" not in files["/etc/shadow"]["content"]
    if Path("/etc/hostname").exists():
        assert files["/etc/hostname"].get("content") != Path("/etc/hostname").read_text()
    for folder in ("/root", "/home"):
        if Path(folder).is_dir():
            host_only = set(os.listdir(folder)) - {".bashrc", ".profile"}  # any Debian's
            assert not host_only & set(files[folder].get("entries", [])), folder
    assert "AGON_TEST_SECRET" not in environ
    # The box's own shell sets SHLVL (and PWD) for itself: equal to the host's by chance,
    # it carries nothing of the host's.
    own = {"SHLVL", "PWD", "_"}
    leaked = {(k, v) for k, v in environ.items() if k not in own} & set(os.environ.items())
    assert leaked <= set(BOX_ENV.items())


def test_only_the_scratch_folder_takes_writes_and_only_so_much(boxed_arena: Arena) -> None:
    scratch = 4 * 1024 * 1024
    library = Path(agon_bot.__file__)
    before = hashlib.sha256(library.read_bytes()).hexdigest()
    record = boxed_arena.play(
        boxed_arena.hostile("write_outside_scratch"), RANDOM, limits={"scratch_bytes": scratch}
    )
    assert_no_fault(record)
    attempts, fill = reports(record.seats[0].log)
    created, changed = attempts["created"], attempts["changed"]
    assert created.pop("/tmp") == "written"  # noqa: S108 - the box's own scratch
    assert {path: result[:8] for path, result in {**created, **changed}.items()} == {
        path: "refused:" for path in {**created, **changed}
    }
    assert scratch // 2 <= fill["filled"]["bytes"] <= scratch
    assert fill["filled"]["stopped"].startswith("OSError: [Errno 28]")  # no space left
    assert hashlib.sha256(library.read_bytes()).hexdigest() == before


def test_a_bot_cannot_find_the_other_bots_code(boxed_arena: Arena) -> None:
    secret = "keep-out-" + boxed_arena.marker
    keeper_path = Path(__file__).parent / "bots" / "plain.py"
    keeper = boxed_arena.program(
        keeper_path,
        extra={f"{secret}.txt": secret.encode(), "notes/strategy.txt": secret.encode()},
    )
    searcher = boxed_arena.hostile("read_other_bot", attack_turn=0, needle_reversed=secret[::-1])
    record = boxed_arena.play(searcher, keeper, limits={"first_turn_seconds": 40})
    assert_no_fault(record)
    search = only_report(record.seats[0].log)
    assert search["found"] == []
    assert search["read"] > 100  # it did look around


def test_the_kernel_stays_out_of_reach_and_nothing_runs_as_host_root(boxed_arena: Arena) -> None:
    uids: dict[int, int] = {}

    def watch() -> None:
        pids = {pid for cgroup in boxed_arena.cgroups for pid in cgroup.pids_inside()}
        pids |= set(pids_named(boxed_arena.marker))
        for pid in pids:
            with contextlib.suppress(OSError, ValueError):
                uids[pid] = host_uid(pid)

    record = boxed_arena.play(
        boxed_arena.hostile("kernel_tunables", attack_turn=0, linger_seconds=1.0),
        RANDOM,
        watch=watch,
    )
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    assert {path: result[:8] for path, result in found["knobs"].items()} == {
        path: "refused:" for path in found["knobs"]
    }
    assert found["user_namespace"] == "refused"
    assert uids, "no process of the box was seen"
    assert 0 not in uids.values(), f"processes of the box run as root on the host: {uids}"


# --- storage that outlives a box ------------------------------------------------------


def test_the_kernels_keyrings_carry_nothing_from_one_box_to_another(boxed_arena: Arena) -> None:
    numbers = seccomp.SYSCALL_NUMBERS[platform.machine()]
    keys = [f"agon-{boxed_arena.marker}-{seat}" for seat in range(2)]
    seats = [
        boxed_arena.hostile("keyring_channel", me=keys[seat], other=keys[1 - seat], numbers=numbers)
        for seat in range(2)
    ]
    record = boxed_arena.play(*seats)
    assert_no_fault(record)
    for seat in record.seats:
        wrote, read = reports(seat.log)
        refused = {"session": "refused: ENOSYS", "user": "refused: ENOSYS"}
        assert (wrote, read) == (refused, refused)


def test_the_page_cache_of_shared_files_can_be_neither_cleared_nor_read_exactly(
    boxed_arena: Arena,
) -> None:
    numbers = seccomp.SYSCALL_NUMBERS[platform.machine()]
    record = boxed_arena.play(boxed_arena.hostile("page_cache_channel", numbers=numbers), RANDOM)
    assert_no_fault(record)
    found = only_report(record.seats[0].log)
    assert set(found) == {
        "fadvise DONTNEED",
        "preadv2 RWF_NOWAIT",
        "mincore",
        "cachestat",
        "readahead",
    }
    assert found == dict.fromkeys(found, "refused: ENOSYS")


# --- helpers -------------------------------------------------------------------------


class PeakRss:
    """The test process's resident memory, sampled while a match runs."""

    def __init__(self) -> None:
        self.start = self.peak = self.current()

    @staticmethod
    def current() -> int:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
        raise AssertionError("no VmRSS in /proc/self/status")

    def sample(self) -> None:
        self.peak = max(self.peak, self.current())

    def growth(self) -> int:
        return self.peak - self.start


def processes_with_argv(marker: str) -> list[str]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                argv = (entry / "cmdline").read_bytes()
                if marker.encode() in argv:
                    found.append(argv.decode(errors="replace"))
    return found


def pids_named(marker: str) -> Iterator[int]:
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                if (entry / "comm").read_text().strip() == marker:
                    yield int(entry.name)


def host_uid(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[2])  # the effective uid
    raise ValueError(f"no Uid line for {pid}")


def host_ipv4_addresses() -> list[str]:
    """Every IPv4 address of this host's interfaces, loopback first."""
    addresses = ["127.0.0.1"]
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        for _, name in socket.if_nameindex():
            request = struct.pack("256s", name.encode()[:15])
            try:
                reply = fcntl.ioctl(probe.fileno(), 0x8915, request)  # SIOCGIFADDR
            except OSError:
                continue  # no IPv4 address on it
            address = socket.inet_ntoa(reply[20:24])
            if address not in addresses:
                addresses.append(address)
    return addresses


@contextlib.contextmanager
def listening_sockets(marker: str) -> Iterator[tuple[int, list[socket.socket]]]:
    """A TCP listener on every address of the host (one port) and an abstract unix one."""
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    unix = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    with tcp, unix:
        tcp.bind(("0.0.0.0", 0))  # noqa: S104 - reachable from every interface, on purpose
        tcp.listen()
        unix.bind(f"\0agon-test-{marker}")
        unix.listen()
        yield tcp.getsockname()[1], [tcp, unix]
