"""What a spectator sees of an Akropolis match (see `engine.spectator`).

Everything on the table is public, so `reveal` changes nothing; only the stacks' order
stays hidden. A hex is written `[q, r, level, code, tile]` with a one-letter code: the
initial of its colour in upper case for a district (`H` house, `M` market, `B` barracks,
`T` temple, `G` garden), in lower case for a plaza, and `Q` for a quarry.
"""

from __future__ import annotations

from typing import Any

from engine.akropolis.actions import parse_action
from engine.akropolis.components import (
    COLOR_INDEX_OF,
    COLORS,
    IS_PLAZA,
    PLAZA_STARS,
    QUARRY,
    TILES,
    describe_hex,
)
from engine.akropolis.geometry import STEP
from engine.akropolis.rules import city_score
from engine.akropolis.state import AkropolisState
from engine.core import JSON
from engine.hexgrid import decode, encode
from engine.spectator import Explained

_LETTERS = "HMBTG"


def hex_letter(code: int) -> str:
    if code == QUARRY:
        return "Q"
    letter = _LETTERS[COLOR_INDEX_OF[code]]
    return letter.lower() if IS_PLAZA[code] else letter


def hex_words(code: int) -> str:
    kind, color = describe_hex(code)
    return "quarry" if color is None else f"{color} {kind}"


class AkropolisSpectator:
    def view(self, state: AkropolisState, *, reveal: bool) -> dict[str, JSON]:
        over = len(state.site) <= 1 and not state.stacks
        # Each city's running score, kept up to date placement by placement as a replay
        # plays (equal to `scoring.score_surface`, the plain oracle), not a rescoring of
        # every city at every step: most of a timeline's cost before.
        scores = [city_score(state, player) for player in range(len(state.cities))]
        return {
            "turn": state.turn,
            "current": None if over else state.turn % state.players,
            "over": over,
            "options": dict(sorted(state.options.items())),
            "plaza_stars": dict(PLAZA_STARS),
            "stacks_left": len(state.stacks),
            "site": [
                [tile_id, [hex_letter(code) for code in TILES[tile_id].hexes]]
                for tile_id in state.site
            ],
            "stones": list(state.stones),
            "scores": [score.total for score in scores],
            "breakdown": [
                {color: [score.colors[color].value, score.colors[color].stars] for color in COLORS}
                for score in scores
            ],
            "cities": [
                {
                    "tiles": city.tiles,
                    "hexes": [
                        [*decode(cell), level, hex_letter(code), city.tile_at[cell]]
                        for cell, (level, code, _) in sorted(city.top.items())
                    ],
                }
                for city in state.cities
            ],
        }

    def explain(self, state: AkropolisState, seat: int, action: JSON) -> Explained:
        position, q, r, rotation = parse_action(action)
        tile_id = state.site[position]
        anchor = encode(q, r)
        cells = (anchor, anchor + STEP[rotation], anchor + STEP[(rotation + 1) % 6])
        below: list[Any] = [state.cities[seat].top.get(cell) for cell in cells]
        level = 1 if all(h is None for h in below) else max(h[0] for h in below if h) + 1
        quarries = sum(1 for h in below if h is not None and h[1] == QUARRY)
        hexes = ", ".join(hex_words(code) for code in TILES[tile_id].hexes)
        price = "for free" if position == 0 else f"for {position} stone{'s' * (position > 1)}"
        text = f"took tile {tile_id} ({hexes}) {price} and placed it at ({q}, {r}) on level {level}"
        if quarries:
            text += f", covering {quarries} quarr{'ies' if quarries > 1 else 'y'} (+{quarries})"
        mark = {"seat": seat, "tile": tile_id, "cells": [list(decode(c)) for c in cells]}
        return Explained(text, mark)
