"""Fast path of `compact_json(observation.observation(state, player))`: the observation as
JSON text, written without building it (what a boxed bot is sent). Each placed tile's
text is written once (`landscape_text`, `building_text`); the rest is small and written
field by field. Checked against the plain encoding by
tests/engine/architekton/fast/test_message_text.py.
"""

from __future__ import annotations

import functools

from engine.architekton.components import TERRAINS, rotated_edges
from engine.architekton.state import ArchitektonState
from engine.architekton.turns import current_player
from engine.core import compact_json
from engine.squaregrid import decode


def observation_text(state: ArchitektonState, player: int) -> str:
    """`compact_json(observation(state, player))`."""
    landscapes, buildings, houses = state.landscapes, state.buildings, state.houses
    board = ",".join(
        [
            landscape_text(code, landscapes[code])
            if code in landscapes
            else building_text(code, *buildings[code], houses.get(code))
            for code in sorted((*landscapes, *buildings))
        ]
    )
    unseen_landscapes = state.landscape_pile + state.reserve_landscapes
    unseen = ",".join([f'"{name}":{unseen_landscapes.count(t)}' for t, name in enumerate(TERRAINS)])
    pending = compact_json([d.to_json() for d in state.pending]) if state.pending else "[]"
    display_buildings = ",".join([display_text(t) for t in state.display_buildings])
    display_landscapes = ",".join([f'"{TERRAINS[t]}"' for t in state.display_landscapes])
    return (
        f'{{"game":"architekton","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{current_player(state)},'
        f'"turn_player":{state.turn_player},'
        f'"options":{options_text(tuple(state.options.items()))},"stage":"{state.stage}",'
        f'"turns_taken":{_ints(state.turns_taken)},"placed_this_turn":{state.placed_this_turn},'
        f'"idle_turns":{state.idle_turns},"points":{_ints(state.points)},'
        f'"houses_in_supply":{_ints(state.supply)},"houses_removed":{_ints(state.removed)},'
        f'"lost_early":{"null" if state.loser is None else state.loser},'
        f'"display":{{"buildings":[{display_buildings}],"landscapes":[{display_landscapes}]}},'
        f'"piles":{{"buildings":{len(state.building_pile)},'
        f'"landscapes":{len(state.landscape_pile)}}},'
        f'"reserve":{{"buildings":{len(state.reserve_buildings)},'
        f'"landscapes":{len(state.reserve_landscapes)}}},'
        f'"unseen_buildings":{_ints(sorted(state.building_pile + state.reserve_buildings))},'
        f'"unseen_landscapes":{{{unseen}}},"board":[{board}],"pending":{pending}}}'
    )


def _ints(values: list[int]) -> str:
    return f"[{','.join(map(str, values))}]"


@functools.lru_cache(maxsize=4096)
def landscape_text(code: int, terrain: int) -> str:
    """A placed landscape as `board_to_json` gives it, as JSON text."""
    x, y = decode(code)
    return f'{{"x":{x},"y":{y},"kind":"landscape","terrain":"{TERRAINS[terrain]}"}}'


@functools.lru_cache(maxsize=8192)
def building_text(code: int, tile_id: int, rotation: int, house: int | None) -> str:
    """A placed building as `board_to_json` gives it, as JSON text."""
    x, y = decode(code)
    edges = ",".join([f'"{TERRAINS[t]}"' for t in rotated_edges(tile_id, rotation)])
    return (
        f'{{"x":{x},"y":{y},"kind":"building","tile":{tile_id},"rotation":{rotation},'
        f'"edges":[{edges}],"house":{"null" if house is None else house}}}'
    )


@functools.lru_cache(maxsize=256)
def display_text(tile_id: int) -> str:
    """A display building as the observation shows it, as JSON text."""
    edges = ",".join([f'"{TERRAINS[t]}"' for t in rotated_edges(tile_id, 0)])
    return f'{{"tile":{tile_id},"edges":[{edges}]}}'


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))
