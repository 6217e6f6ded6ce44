"""bench/interleave.py: contenders take turns in short spells, so the load falls on
each alike and their ratio holds on a busy machine."""

from __future__ import annotations

import pytest

from bench import interleave


class FakeClock:
    """A clock that each contender's work moves on by its own cost, times a load that
    changes half-way through the measurement: what a neighbour's job does."""

    def __init__(self, load_after: float) -> None:
        self.now = 0.0
        self.load_after = load_after

    def __call__(self) -> float:
        return self.now

    def spend(self, cost: float) -> None:
        self.now += cost * (3.0 if self.now >= self.load_after else 1.0)


def test_the_ratio_holds_when_the_load_changes_half_way() -> None:
    clock = FakeClock(load_after=1.0)
    figures = interleave.rates(
        {"fast": lambda: clock.spend(0.001), "slow": lambda: clock.spend(0.002)},
        seconds=1.0,
        spell=0.01,
        clock=clock,
    )
    assert figures["fast"] / figures["slow"] == pytest.approx(2.0, rel=0.05)


def test_one_after_the_other_the_same_load_would_bend_the_ratio() -> None:
    """The reason for the helper: timed in two blocks, the second one pays the load."""
    clock = FakeClock(load_after=1.0)
    blocks = {}
    for name, cost in (("fast", 0.001), ("slow", 0.002)):
        start, runs = clock(), 0
        while clock() - start < 1.0:
            clock.spend(cost)
            runs += 1
        blocks[name] = runs / (clock() - start)
    assert blocks["fast"] / blocks["slow"] > 2.5


def test_samples_take_turns_and_rotate_the_order() -> None:
    calls: list[str] = []

    def contender(name: str) -> float:
        calls.append(name)
        return float(len(calls))

    found = interleave.samples({"a": lambda: contender("a"), "b": lambda: contender("b")}, 3)
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert found == {"a": [1.0, 4.0, 5.0], "b": [2.0, 3.0, 6.0]}
    assert interleave.medians(found) == {"a": 4.0, "b": 3.0}


def test_it_refuses_a_measurement_that_would_never_end() -> None:
    with pytest.raises(ValueError, match="positive"):
        interleave.rates({"a": lambda: None}, seconds=0)
    with pytest.raises(ValueError, match="one round"):
        interleave.samples({"a": lambda: 1.0}, 0)
    assert interleave.rates({}, seconds=1.0) == {}
