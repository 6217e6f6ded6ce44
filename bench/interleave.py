"""Contenders measured in alternating short spells, so that one run on a busy machine
gives a stable ratio.

Timed one after the other, two contenders see different machines: a neighbour's job
that starts half-way slows only the second. Taking turns in spells of a few tens of
milliseconds (the order rotated every round, so none always follows the same one), every
contender sees the same mix of load, and the load cancels out of their ratio.

Two forms: `rates` for work that is run over and over (runs per CPU-second of each
contender), `samples` for figures a contender measures itself, one per call (a child
process's CPU time, a round trip): each round takes one sample of every contender.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Mapping
from typing import TypeVar

Figure = TypeVar("Figure")

SPELL_SECONDS = 0.05
"""A contender's turn: long enough that the clock's resolution and the switch cost
nothing, short enough that the load changes little within a round."""


def rates(
    contenders: Mapping[str, Callable[[], object]],
    seconds: float,
    *,
    spell: float = SPELL_SECONDS,
    clock: Callable[[], float] = time.process_time,
) -> dict[str, float]:
    """Runs per second of `clock` (CPU time by default) of each contender's work, each
    run in spells of `spell` seconds taking turns, until each has had `seconds`."""
    if not contenders:
        return {}
    if seconds <= 0 or spell <= 0:
        raise ValueError("seconds and spell must be positive")
    names = list(contenders)
    runs = dict.fromkeys(names, 0)
    spent = dict.fromkeys(names, 0.0)
    for work in contenders.values():  # a first run apart: warm caches, lazy imports
        work()
    round_ = 0
    while min(spent.values()) < seconds:
        for name in rotated(names, round_):
            work, start = contenders[name], clock()
            while True:
                work()
                runs[name] += 1
                elapsed = clock() - start
                if elapsed >= spell:
                    break
            spent[name] += elapsed
        round_ += 1
    return {name: runs[name] / spent[name] for name in names}


def samples(contenders: Mapping[str, Callable[[], Figure]], rounds: int) -> dict[str, list[Figure]]:
    """`rounds` figures of each contender, one per call, the calls taking turns (each
    contender called once a round, the order rotated every round). A figure may be any
    value: a box's start and its turns' times, say."""
    if rounds < 1:
        raise ValueError("need one round or more")
    names = list(contenders)
    found: dict[str, list[Figure]] = {name: [] for name in names}
    for round_ in range(rounds):
        for name in rotated(names, round_):
            found[name].append(contenders[name]())
    return found


def medians(figures: Mapping[str, list[float]]) -> dict[str, float]:
    return {name: statistics.median(values) for name, values in figures.items()}


def rotated(names: list[str], by: int) -> list[str]:
    """`names` begun at index `by` (modulo their count): the order of round `by`."""
    shift = by % len(names)
    return names[shift:] + names[:shift]
