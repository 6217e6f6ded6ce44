"""The referee's side of a boxed bot: clocks, the time bank, the log cap, freezing between
turns, and the protocol messages, in real boxes (`none` and `bwrap`; freezing in every
backend). Also `agon_bot.run`, the library bots use, with a function and a Bot class.
"""

from __future__ import annotations

import io
import itertools
import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agon_bot import Bot, run
from engine.registry import get_game
from sandbox import protocol
from sandbox.limits import limits_for
from sandbox.referee import BoxBot, exception_type, how_it_ended
from sandbox.runner import MatchRecord, Program
from tests.sandbox.conftest import make_arena
from tests.sandbox.support import (
    BOXED_BACKENDS,
    FAST_LIMITS,
    GAME,
    Arena,
    LingeringBox,
    assert_fault,
    assert_no_fault,
    reports,
)

RANDOM = Program.builtin("random")


@pytest.fixture(params=("none", "bwrap"))
def arena(request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Arena:
    return make_arena(request.param, tmp_path, monkeypatch)


@pytest.fixture(params=("none", *BOXED_BACKENDS))
def freezing_arena(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Arena:
    return make_arena(request.param, tmp_path, monkeypatch)


# --- the time bank -------------------------------------------------------------------

BANK_LIMITS = {"turn_seconds": 0.2, "time_bank_seconds": 1.0, "first_turn_seconds": 3}


def test_the_time_bank_pays_for_slow_turns_until_it_runs_out(arena: Arena) -> None:
    # Each slow turn overdraws 0.5 - 0.2 = 0.3 s: three fit in a bank of 1.15 s (with
    # room for a slow machine), the fourth finds at most 0.25 s left and is cut at 0.45 s.
    slow = arena.bot("slow", seconds_per_turn=0.5)
    record = arena.play(slow, RANDOM, limits={**BANK_LIMITS, "time_bank_seconds": 1.15})
    assert_fault(record, seat=0, kind="timeout", turn=2 * 4)
    assert record.replay.faults[0]["detail"] == "did not answer in time"
    left = [report["time_left_ms"] for report in reports(record.seats[0].log)]
    assert len(left) == 5
    # turn + what is left of the bank: 3 s + 1.15 s on the first turn, then 0.2 s + bank
    assert left[:2] == [4150, 1350]
    for earlier, later in itertools.pairwise(left[1:]):
        assert -450 <= later - earlier <= -300


def test_a_small_overdraw_each_turn_lasts_several_turns_then_times_out(arena: Arena) -> None:
    # 0.3 s a turn against 0.2 s overdraws about 0.1 s: the 1 s bank holds for about ten.
    slow = arena.bot("slow", seconds_per_turn=0.3)
    record = arena.play(slow, RANDOM, limits=BANK_LIMITS)
    assert_fault(record, seat=0, kind="timeout")
    slow_turns_survived = record.replay.faults[0]["turn"] // 2 - 1
    assert 4 <= slow_turns_survived <= 9


def test_turns_within_the_allowance_never_touch_the_bank(arena: Arena) -> None:
    steady = arena.bot("slow", seconds_per_turn=0.05)
    record = arena.play(steady, RANDOM, limits={**BANK_LIMITS, "time_bank_seconds": 0.05})
    assert_no_fault(record)
    left = [report["time_left_ms"] for report in reports(record.seats[0].log)]
    assert left[1:] == [250] * (len(left) - 1)


# --- the first turn ------------------------------------------------------------------

FIRST_TURN_LIMITS = {"turn_seconds": 0.2, "time_bank_seconds": 0.2}


def test_the_first_turn_allows_for_a_slow_start(arena: Arena) -> None:
    late_riser = arena.bot("slow", startup_seconds=1.5)
    record = arena.play(late_riser, RANDOM, limits={**FIRST_TURN_LIMITS, "first_turn_seconds": 3})
    assert_no_fault(record)


def test_a_start_slower_than_the_first_turn_allows_times_out_on_it(arena: Arena) -> None:
    late_riser = arena.bot("slow", startup_seconds=1.5)
    record = arena.play(late_riser, RANDOM, limits={**FIRST_TURN_LIMITS, "first_turn_seconds": 1})
    assert_fault(record, seat=0, kind="timeout", turn=0)


def test_the_first_turns_allowance_is_for_the_first_turn_only(arena: Arena) -> None:
    second_turn_sleeper = arena.bot("slow", sleep_on_turns={"1": 1.5})
    record = arena.play(
        second_turn_sleeper, RANDOM, limits={**FIRST_TURN_LIMITS, "first_turn_seconds": 3}
    )
    assert_fault(record, seat=0, kind="timeout", turn=2)


# --- the log -------------------------------------------------------------------------


def test_the_log_keeps_its_first_log_bytes_and_says_how_much_was_dropped(arena: Arena) -> None:
    chatty = arena.bot("protocol_echo", log_bytes=5000)
    record = arena.play(chatty, RANDOM, limits={"log_bytes": 1000})
    assert_no_fault(record)
    written = "".join(str(i % 10) for i in range(5000))
    log = record.seats[0].log
    assert log.startswith(written[:1000] + "\n[agon: ")
    # the start and end reports were dropped too, so more than 4000 bytes went
    assert log.endswith(" more bytes of log were dropped]\n")
    assert int(log.split("[agon: ")[1].split()[0]) > 4000


# --- freezing between turns ----------------------------------------------------------


THINKING = 0.3
THINKING_TURNS = 6


@pytest.mark.parametrize("bot", ["bots/stopwatch", "hostile/resume_itself"])
def test_a_bot_gets_no_cpu_between_its_turns(freezing_arena: Arena, bot: str) -> None:
    """While the opponent (another boxed bot) thinks 0.3 s on each of its first six
    turns, a thread of the bot watching the clock must be kept from running, however
    the bot tries to resume itself."""
    watcher = freezing_arena.program(Path(__file__).parent / f"{bot}.py", turn_seconds=0.05)
    thinker = freezing_arena.bot(
        "slow", sleep_on_turns={str(turn): THINKING for turn in range(THINKING_TURNS)}
    )
    record = freezing_arena.play(watcher, thinker, limits={"turn_seconds": 1})
    assert_no_fault(record)
    found = reports(record.seats[0].log)
    turns = [report for report in found if "began" in report]
    assert len(turns) == record.seats[0].turns
    # The thread notes a pause once it runs again: the next turn, or the one after, or
    # the end reports it.
    pauses = [pause for report in found for pause in report["pauses"]]
    for before, after in itertools.pairwise(turns[: THINKING_TURNS + 1]):
        start, end = before["ended"], after["began"]
        assert end - start >= THINKING  # the opponent thought meanwhile
        stopped = sum(max(0.0, min(end, b) - max(start, a)) for a, b in pauses)
        # Not quite all of it: answering and reading the next message take a while, more
        # so on a busy machine; a bot that escapes is not stopped at all.
        assert stopped > 0.8 * THINKING, f"stopped {stopped:.3f} s of {end - start:.3f} s"


def test_a_bot_gets_no_cpu_before_its_first_turn(freezing_arena: Arena) -> None:
    """Seat 0 thinks for a while on its first turn; seat 1 spins a thread from start-up.
    Held still until its first turn, seat 1 has used little CPU when that turn comes.

    Even held still, it has used some: its start-up, and what the spinner burns from the
    thaw until the report, as the main thread waits for the GIL after each read (0.45 to
    1 s here, more on a busy machine). Seat 0 thinks long enough that a box left running
    would have spun far more than that."""
    thinker = freezing_arena.bot("slow", sleep_on_turns={"0": 4.0})
    spinner = freezing_arena.bot("early_spinner")
    record = freezing_arena.play(
        thinker, spinner, limits={"turn_seconds": 6, "first_turn_seconds": 6}
    )
    assert_no_fault(record)
    first = reports(record.seats[1].log)[0]
    assert first["cpu_seconds"] < 2.0, f"used {first['cpu_seconds']:.2f} s of CPU before its turn"


# --- the protocol --------------------------------------------------------------------


def test_the_start_message_has_no_seed_and_carries_the_limits(arena: Arena) -> None:
    record = arena.play(arena.bot("protocol_echo"), RANDOM, seed=123456)
    assert_no_fault(record)
    start = reports(record.seats[0].log)[0]["start"]
    assert "seed" not in start
    assert "123456" not in json.dumps(start)
    assert start["type"] == "start"
    assert start["game"] == GAME
    assert (start["player"], start["players"]) == (0, 2)
    assert start["options"] == record.replay.options
    assert start["limits"] == {
        "turn_ms": round(FAST_LIMITS["turn_seconds"] * 1000),
        "first_turn_ms": round(FAST_LIMITS["first_turn_seconds"] * 1000),
        "time_bank_ms": round(FAST_LIMITS["time_bank_seconds"] * 1000),
        "memory_bytes": FAST_LIMITS["memory_bytes"],
    }


def test_the_end_message_carries_the_result(arena: Arena) -> None:
    record = arena.play(RANDOM, arena.bot("protocol_echo"))
    assert_no_fault(record)
    end = reports(record.seats[1].log)[-1]["end"]
    assert end == record.replay.result
    assert set(end) >= {"scores", "ranks"}


def test_each_seat_is_told_its_own_seat(arena: Arena) -> None:
    record: MatchRecord = arena.play(arena.bot("protocol_echo"), arena.bot("protocol_echo"))
    seats = [reports(seat.log)[0]["start"]["player"] for seat in record.seats]
    assert seats == [0, 1]


# --- agon_bot.run --------------------------------------------------------------------


def conversation(turns: int = 2) -> tuple[list[str], list[Sequence[Any]], dict[str, Any]]:
    """The referee's lines for a match's first turns (a real game's observations and
    compact legal actions), the legal actions of each turn, and the end's result."""
    game = get_game(GAME)
    state = game.new_state(5, 2, {})
    lines = [protocol.encode(protocol.start_message({"game": GAME, "player": 0, "players": 2}))]
    legal_per_turn = []
    for turn in range(turns):
        legal = game.legal_actions(state)
        legal_per_turn.append(legal)
        lines.append(
            protocol.encode(protocol.turn_message(turn, game.observation(state, 0), legal, 900))
        )
        game.apply(state, legal[0])
        game.apply(state, game.legal_actions(state)[0])
    result: dict[str, Any] = {"scores": [1, 2], "ranks": [2, 1]}
    lines.append(protocol.encode(protocol.end_message(result)))
    return [line.decode() for line in lines], legal_per_turn, result


def test_run_turns_a_function_into_a_bot() -> None:
    lines, legal_per_turn, _ = conversation()
    seen: list[tuple[Any, int]] = []

    def act(observation: Any, legal_actions: Sequence[Any]) -> Any:
        seen.append((observation, len(legal_actions)))
        return legal_actions[-1]

    out = io.StringIO()
    run(act, stdin=io.StringIO("".join(lines)), stdout=out)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies == [{"action": legal[-1]} for legal in legal_per_turn]
    assert [count for _, count in seen] == [len(legal) for legal in legal_per_turn]
    assert all(isinstance(observation, dict) for observation, _ in seen)


def test_run_drives_a_bot_class_through_start_turns_and_end() -> None:
    lines, legal_per_turn, result = conversation()
    calls: list[Any] = []

    class Recorder(Bot):
        def start(self, info: dict[str, Any]) -> None:
            calls.append(("start", info["player"], info["game"]))

        def act(self, observation: Any, legal_actions: Sequence[Any]) -> Any:
            calls.append(("act", self.time_left_ms))
            return legal_actions[0]

        def end(self, result: dict[str, Any]) -> None:
            calls.append(("end", result))

    out = io.StringIO()
    run(
        Recorder(), stdin=io.StringIO("\n" + "".join(lines) + "ignored after the end\n"), stdout=out
    )
    assert calls == [("start", 0, GAME), ("act", 900), ("act", 900), ("end", result)]
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies == [{"action": legal[0]} for legal in legal_per_turn]


# --- what a crash may say ------------------------------------------------------------

TRACEBACK = b'Traceback (most recent call last):\n  File "main.py", line 3, in act\n'


@pytest.mark.parametrize(
    ("log", "name"),
    [
        (TRACEBACK + b"ValueError: my secret plan\n", "ValueError"),
        (TRACEBACK + b"agon_bot.errors.Oops\n\n", "agon_bot.errors.Oops"),
        (b"ValueError: with no traceback before it\n", None),
        (TRACEBACK + b"my secret plan is to win\n", None),
        (TRACEBACK + b"\x00\xff: junk\n", None),
        (TRACEBACK + b"A" * 200 + b": too long a name\n", None),
    ],
)
def test_a_crash_names_the_exception_only_from_a_final_traceback_line(
    log: bytes, name: str | None
) -> None:
    assert exception_type(log) == name


@pytest.mark.parametrize(
    ("code", "words"),
    [
        (1, "the program exited with code 1"),
        (-11, "the program was killed by SIGSEGV"),
        (137, "the program exited with code 137 (SIGKILL)"),
        (200, "the program exited with code 200"),
    ],
)
def test_an_exit_status_is_said_in_words(code: int, words: str) -> None:
    assert how_it_ended(code) == words


# --- the end: every seat told before any box is waited for ---------------------------


def test_end_tells_the_bot_and_close_waits_for_it_so_all_seats_leave_together() -> None:
    limits = limits_for(GAME)
    boxes = [LingeringBox(), LingeringBox()]
    bots = [BoxBot(box, limits) for box in boxes]  # type: ignore[arg-type]
    result: dict[str, Any] = {"scores": [1, 2], "ranks": [2, 1]}
    for bot in bots:
        bot.end(result)
    # Both told, neither waited for nor ended: seat 1 heard the result while seat 0
    # was still leaving (one after the other, every exit was on the match's clock).
    assert [json.loads(box.told())["type"] for box in boxes] == ["end", "end"]
    assert not any(box.closed for box in boxes)
    boxes[0].leave()
    bots[0].close()
    assert boxes[0].closed and bots[0].log() == "bye\n"  # what it wrote as it left is kept
    bots[1].close()  # never leaves: ended once its time to leave is up
    assert boxes[1].closed and boxes[1].code is None


def test_a_bot_that_cannot_be_told_the_end_is_ended_at_once() -> None:
    box = LingeringBox()
    bot = BoxBot(box, limits_for(GAME))  # type: ignore[arg-type]
    box.leave()
    os.close(box._stdin_read)
    box._stdin_read = os.open(os.devnull, os.O_RDONLY)
    bot.end({"scores": [1, 2], "ranks": [2, 1]})
    assert box.closed
