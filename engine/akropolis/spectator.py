"""What a spectator sees of an Akropolis match (see `engine.spectator`).

Everything on the table is public, so `reveal` changes nothing; only the stacks' order
stays hidden. A hex is written `[q, r, level, code, tile]` with a one-letter code: the
initial of its colour in upper case for a district (`H` house, `M` market, `B` barracks,
`T` temple, `G` garden), in lower case for a plaza, and `Q` for a quarry.
"""

from __future__ import annotations

from typing import Any

from engine.akropolis.actions import parse_action
from engine.akropolis.city import City
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
    def __init__(self) -> None:
        self._cities: dict[int, tuple[City, int, JSON]] = {}
        """Each city's last entry in a view, by the city's id (`_city_entry`)."""

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
            "cities": [self._city_entry(city) for city in state.cities],
        }

    def _city_entry(self, city: City) -> JSON:
        """A city's part of the view. A replay changes one city a step, by placing a tile
        (which counts in `tiles`): the others' entries are the ones the step before
        made, the same objects, unchanged (a view is read, never changed, by whoever
        asks for it), and the timeline compares them to themselves at no cost."""
        made = self._cities.get(id(city))
        if made is not None and made[0] is city and made[1] == city.tiles:
            return made[2]
        entry: JSON = {
            "tiles": city.tiles,
            "hexes": [
                [*decode(cell), level, hex_letter(code), city.tile_at[cell]]
                for cell, (level, code, _) in sorted(city.top.items())
            ],
        }
        # The city is kept with its entry, so that its id is not another city's meanwhile.
        self._cities[id(city)] = (city, city.tiles, entry)
        return entry

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
