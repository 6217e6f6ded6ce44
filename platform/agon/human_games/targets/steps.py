"""The form of a human's steps and of the board under them (see the package's doc)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

Step = list[Any]
Cell = list[Any]


@dataclass
class Targets:
    board: str
    """`hex` (axial q, r; pointy hexes), `square` (x east, y north) or `none`."""
    cells: list[Cell] = field(default_factory=list)
    """What lies on the seat's board, as `[a, b, text, fill]`."""
    facts: list[str] = field(default_factory=list)
    steps: list[list[Step]] = field(default_factory=list)
    """The steps of each legal action, in the legal actions' order."""

    def to_json(self) -> dict[str, Any]:
        """For the page: each step's label written once in `labels` and named by its
        index (Akropolis' widest turn is 873 actions of three steps, over 200 KB with
        the labels repeated, 40 KB this way)."""
        labels: dict[str, int] = {}
        steps = [
            [[*step[:-1], labels.setdefault(step[-1], len(labels))] for step in action]
            for action in self.steps
        ]
        return {
            "board": self.board,
            "cells": self.cells,
            "facts": self.facts,
            "labels": list(labels),
            "steps": steps,
        }


def pick(key: str, label: str) -> Step:
    return ["pick", key, label]


def cell(a: int, b: int, label: str = "") -> Step:
    return ["cell", a, b, label]


def plain_targets(observation: Any, legal: Sequence[Any]) -> Targets:
    """Any game's actions as one button each, labelled with their JSON: what a game
    without a module of its own gets."""
    return Targets(
        board="none",
        steps=[
            [pick(f"a{index}", json.dumps(action, sort_keys=True))]
            for index, action in enumerate(legal)
        ],
    )


TargetsFor = Callable[[Any, Sequence[Any]], Targets]
