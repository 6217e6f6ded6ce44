"""Attika: a decision a turn at a time: draw from a stack, build a building (which one,
then the hex), keep it, pay, place a new map tile (the hex, then its turn), spend an
amphora, end the turn."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agon.human_games.targets.steps import Step, Targets, cell, pick

LAND = {"mountain": "#8b7765", "hill": "#c7a568", "forest": "#2f7a3a", "water": "#3d86d6"}
BLANK = "#ece7dc"
STACKS = {0: "your main buildings"}


def action_steps(action: dict[str, Any], drawn: str | None) -> list[Step]:
    kind = action["type"]
    if kind == "draw":
        stack = action["stack"]
        return [
            pick(f"draw-{stack}", f"Draw from stack {stack} ({STACKS.get(stack, 'buildings')})")
        ]
    if kind == "build":
        building = action["building"]
        return [pick(f"build-{building}", f"Build {building}"), cell(action["q"], action["r"])]
    if kind == "keep":
        return [pick("keep", f"Keep {drawn or 'the building'} on your board")]
    if kind == "pay":
        paid = ", ".join(f"{n} {land}" for land, n in sorted(action["cards"].items()) if n)
        return [pick(f"pay-{paid}", f"Pay {paid or 'nothing'}")]
    if kind == "extend":
        rotation = action["rotation"]
        return [
            cell(action["q"], action["r"], "the new map tile's centre"),
            pick(f"turn-{rotation}", f"Turned {60 * rotation}°"),
        ]
    if kind == "amphora":
        use = action["use"]
        label = "one more draw or build" if use == "action" else "a landscape card"
        return [pick(f"amphora-{use}", f"Spend an amphora on {label}")]
    if kind == "end_turn":
        return [pick("end", "End the turn")]
    return [pick(f"other-{kind}", str(kind))]


def targets(observation: Any, legal: Sequence[Any]) -> Targets:
    board_map = observation["map"]
    cells = [
        [
            h["q"],
            h["r"],
            (h["building"] or "")[:2] if h["player"] is not None else "",
            LAND.get(h["landscape"], BLANK),
        ]
        for h in board_map["hexes"]
    ]
    cells += [[q, r, "☆", "#fff8e1"] for q, r in board_map["shrines"]]
    pending = observation.get("pending") or {}
    drawn = pending.get("building") if pending.get("kind") == "drawn" else None
    hand = ", ".join(f"{n} {land}" for land, n in sorted(observation["hand"].items()) if n)
    facts = [
        f"Your cards: {hand or 'none'}.",
        f"Your board: {', '.join(observation['board']) or 'empty'}.",
    ]
    if pending.get("kind"):
        building = pending.get("building")
        facts.append(f"Now: {pending['kind']}{f' ({building})' if building else ''}.")
    return Targets(
        board="hex",
        cells=cells,
        facts=facts,
        steps=[action_steps(action, drawn) for action in legal],
    )
