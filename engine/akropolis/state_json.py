"""The Akropolis game state's JSON form (and that of a city's visible hexes)."""

from __future__ import annotations

from typing import Any

from engine.akropolis.city import City
from engine.akropolis.components import HEX_CODES, IS_PLAZA, STARS_OF_CODE, describe_hex, hex_code
from engine.akropolis.state import AkropolisState
from engine.hexgrid import decode, encode


def hex_to_json(cell: int, level: int, code: int, stars: int) -> dict[str, Any]:
    """A visible hex in the JSON form of the rules file (and of `agon score`)."""
    q, r = decode(cell)
    kind, color = describe_hex(code)
    data: dict[str, Any] = {"q": q, "r": r, "level": level, "kind": kind}
    if color is not None:
        data["color"] = color
    if kind == "plaza":
        data["stars"] = stars
    return data


_KIND_AND_COLOR: tuple[dict[str, str], ...] = tuple(
    {"kind": kind} if color is None else {"kind": kind, "color": color}
    for kind, color in map(describe_hex, range(HEX_CODES))
)


def city_hexes_to_json(city: City) -> list[dict[str, Any]]:
    """The visible hexes, each with the id of its tile (0: the starting tile); each as
    `hex_to_json` writes it, built from a per-code template (the observation's bulk)."""
    top, tile_at = city.top, city.tile_at
    return [hex_json(cell, top[cell], tile_at[cell]) for cell in sorted(top)]


def hex_json(cell: int, hex_: tuple[int, int, int], tile: int) -> dict[str, Any]:
    """One visible hex of `city_hexes_to_json`: the cell's (level, code, stars) and tile."""
    level, code, stars = hex_
    q, r = decode(cell)
    data: dict[str, Any] = {"q": q, "r": r, "level": level, **_KIND_AND_COLOR[code]}
    if IS_PLAZA[code]:
        data["stars"] = stars
    data["tile"] = tile
    return data


def state_to_json(state: AkropolisState) -> dict[str, Any]:
    return {
        "game": "akropolis",
        "seed": state.seed,
        "players": state.players,
        "options": dict(sorted(state.options.items())),
        "turn": state.turn,
        "stones": list(state.stones),
        "site": list(state.site),
        "stacks": [list(stack) for stack in state.stacks],
        "cities": [
            {
                "tiles": city.tiles,
                "hexes": city_hexes_to_json(city),
            }
            for city in state.cities
        ],
    }


def state_from_json(data: dict[str, Any]) -> AkropolisState:
    if data.get("game") != "akropolis":
        raise ValueError("not an Akropolis state")
    cities = []
    for city_data in data["cities"]:
        city = City()
        city.tiles = int(city_data["tiles"])
        for h in city_data["hexes"]:
            code = hex_code(h["kind"], h.get("color"))
            stars = int(h.get("stars", STARS_OF_CODE[code]))
            cell = encode(int(h["q"]), int(h["r"]))
            city.top[cell] = (int(h["level"]), code, stars)
            city.tile_at[cell] = int(h["tile"])
        cities.append(city)
    return AkropolisState(
        seed=int(data["seed"]),
        players=int(data["players"]),
        options={str(k): bool(v) for k, v in data["options"].items()},
        stacks=[[int(t) for t in stack] for stack in data["stacks"]],
        site=[int(t) for t in data["site"]],
        stones=[int(s) for s in data["stones"]],
        cities=cities,
        turn=int(data["turn"]),
    )
