"""Akropolis's pictures: the axial coordinates with the starting tile, a tile and the
kinds of hex, and a city from a real game, coloured as the replay viewer colours them
(agon_kit/viewer/static/web/games/akropolis.js)."""

from __future__ import annotations

import json
from typing import Any, cast

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures import hexes
from agon.web.rules_pictures.figure import INK, Figure, plural
from agon.web.rules_pictures.positions import played_position
from engine.akropolis.city import City
from engine.akropolis.components import COLORS, PLAZA_STARS
from engine.akropolis.observation import tile_hexes_json
from engine.akropolis.state_json import city_hexes_to_json
from engine.hexgrid import DIRECTIONS

FILL = {
    "house": "#2f66c9",
    "market": "#e5b31c",
    "barracks": "#cf3a2b",
    "temple": "#7a4bc8",
    "garden": "#2f9a4c",
    "quarry": "#a3a6ad",
}
LABEL_INK = {colour: "#ffffff" for colour in FILL} | {"market": INK, "quarry": INK}
"""The text colour readable on each fill (as the viewer's INK)."""

EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS = 7, 2, 16
SHOWN_TILE = 2
"""A tile with a plaza, a district and a quarry: every kind of hex at once."""
TILE_LAYS: tuple[tuple[tuple[int, int], int], ...] = (((0, 0), 0), ((4, 0), 2))
"""Where the tile is shown laid: (anchor, rotation), the first as the rules explain it."""


def colour_of(hex_: dict[str, Any]) -> str:
    return str(hex_.get("color") or "quarry")


def describe(hex_: dict[str, Any]) -> str:
    if hex_["kind"] == "quarry":
        return "quarry"
    stars = f" ({hex_['stars']} star{'s' * (hex_['stars'] > 1)})" if "stars" in hex_ else ""
    return f"{hex_['color']} {hex_['kind']}{stars}"


def city_hex(
    q: int,
    r: int,
    hex_: dict[str, Any],
    lines: list[str],
    *,
    font_size: float = 8.5,
    stars: bool = True,
) -> SafeString:
    """A hex on (q, r) as the viewer draws it; see `hex_drawing`."""
    return hexes.hexagon(q, r, **hex_drawing(hex_, lines, font_size=font_size, stars=stars))


def hex_drawing(
    hex_: dict[str, Any], lines: list[str], *, font_size: float = 8.5, stars: bool = True
) -> dict[str, Any]:
    """How the viewer draws a hex, with up to two lines of text: a plaza gets an inner
    ring and its stars; a hex above the ground a dark edge, thicker with each level."""
    colour = colour_of(hex_)
    ink = LABEL_INK[colour]
    level = int(hex_.get("level", 1))
    inside = []
    plaza = hex_["kind"] == "plaza"
    if plaza:
        ring = svg.points(hexes.corners(0.72))
        inside.append(
            svg.empty(
                "polygon", {"points": ring, "fill": "none", "stroke": ink, "stroke-width": 1.2}
            )
        )
        if stars:
            inside.append(
                svg.text(0.0, -7.0, "★" * int(hex_["stars"]), {"font-size": 8, "fill": ink})
            )
    for k, line in enumerate(lines):
        y = (k - (len(lines) - 1) / 2) * (font_size + 1.5) + (3.0 if plaza and stars else 0)
        inside.append(svg.text(0.0, y, line, {"font-size": font_size, "fill": ink}))
    return {
        "fill": FILL[colour],
        "stroke": INK if level > 1 else "#ffffff",
        "stroke_width": 0.6 + 0.9 * (level - 1) if level > 1 else 1.0,
        "inside": inside,
        "data": {"kind": hex_["kind"], "color": hex_.get("color", ""), "level": level},
    }


def coordinates() -> Figure:
    start = {(h["q"], h["r"]): h for h in city_hexes_to_json(City.bare_starting())}
    cells = []
    for q, r in hexes.disk(2):
        if (q, r) in start:
            name = hexes.direction_names().get((q, r))
            cells.append(city_hex(q, r, start[(q, r)], [f"{q},{r}", *([name] if name else [])]))
        else:
            cells.append(hexes.plain_cell(q, r))
    drawing = svg.image(
        svg.view_box_around([*hexes.spots(hexes.disk(2)), *hexes.axes_reach(2)], hexes.SIZE),
        "A city's grid in axial coordinates (q, r), with the starting tile at its centre",
        [*cells, *hexes.axes(2)],
        picture="coordinates",
    )
    return Figure(
        drawing,
        "Every city has its own grid. Each hexagon is labelled with its coordinates q,r: q "
        "grows to the east, r to the north-east. The starting tile is already there: a "
        "house plaza (1 star) on 0,0 and quarries on 1,0, 0,-1 and -1,1, the neighbours "
        "D[0], D[2] and D[4].",
        "medium",
    )


def a_tile() -> Figure:
    tile = tile_hexes_json(SHOWN_TILE)
    drawn = []
    every_cell = []
    for anchor, rotation in TILE_LAYS:
        q, r = anchor
        cells = [
            anchor,
            (q + DIRECTIONS[rotation][0], r + DIRECTIONS[rotation][1]),
            (q + DIRECTIONS[(rotation + 1) % 6][0], r + DIRECTIONS[(rotation + 1) % 6][1]),
        ]
        every_cell += cells
        for k, ((cq, cr), hex_) in enumerate(zip(cells, tile, strict=True)):
            drawn.append(city_hex(cq, cr, hex_, [f"[{k}]", f"{cq},{cr}"], stars=False))
        xs, ys = zip(*hexes.spots(cells), strict=True)
        label = f"rotation {rotation}"
        drawn.append(
            svg.text(sum(xs) / 3, max(ys) + hexes.SIZE + 9, label, {"font-size": 9, "fill": INK})
        )
    spots = hexes.spots(every_cell)
    below = max(y for _, y in spots) + 9
    drawing = svg.image(
        svg.view_box_around([*spots, (spots[0][0], below)], hexes.SIZE + 4),
        f"Tile {SHOWN_TILE} laid with rotation 0 and with rotation 2",
        drawn,
        picture="tile",
        tile=str(SHOWN_TILE),
    )
    parts = ", ".join(describe(hex_) for hex_ in tile)
    return Figure(
        drawing,
        f"Tile {SHOWN_TILE} ({parts}) laid twice; [k] marks hexes[k], the tile's k-th "
        "hex in the observation. On the left, the action "
        f"{action_json(*TILE_LAYS[0])} puts hexes[0] on 0,0, hexes[1] on 0,0 + D[0] and "
        f"hexes[2] on 0,0 + D[1]. On the right, {action_json(*TILE_LAYS[1])}: the same tile "
        f"turned {TILE_LAYS[1][1]} sixths of a turn clockwise.",
        "medium",
    )


def action_json(anchor: tuple[int, int], rotation: int) -> str:
    """The placement part of the action that lays a tile so (its `tile` left out)."""
    return json.dumps({"q": anchor[0], "r": anchor[1], "rotation": rotation})


def kinds_of_hex() -> Figure:
    entries: list[dict[str, Any]] = [{"kind": "district", "color": c} for c in COLORS]
    entries += [{"kind": "plaza", "color": c, "stars": PLAZA_STARS[c]} for c in COLORS]
    entries.append({"kind": "quarry"})
    drawn = []
    spots = []
    row_height = 2 * hexes.SIZE + 6
    for index, hex_ in enumerate(entries):
        column, row = (index // 5, index % 5) if index < 10 else (0, 5)
        spot = (column * 140.0, row * row_height)
        spots.append(spot)
        drawn.append(hexes.hexagon_at(spot, **hex_drawing(hex_, [])))
        name = describe(hex_)
        drawn.append(
            svg.element(
                "text",
                {
                    "x": spot[0] + hexes.SIZE + 6,
                    "y": spot[1],
                    "dominant-baseline": "central",
                    "font-size": 10,
                    "fill": INK,
                },
                name,
            )
        )
    right = max(x for x, _ in spots) + 125
    drawing = svg.image(
        svg.view_box_around([*spots, (right, 0.0)], hexes.SIZE + 3),
        "The eleven kinds of hex: five districts, five plazas and the quarry",
        drawn,
        picture="kinds",
    )
    return Figure(
        drawing,
        "The five districts, the five plazas with their stars, and the quarry, in the "
        "colours of the replay viewer.",
        "medium",
    )


def example() -> Figure:
    position = played_position("akropolis", EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS)
    city = position.observation["cities"][0]["hexes"]
    drawn = [city_hex(h["q"], h["r"], h, [str(h["level"])], font_size=11) for h in city]
    details = cast(dict[str, Any], position.result.details[0])
    drawing = svg.image(
        svg.view_box_around(hexes.spots((h["q"], h["r"]) for h in city), hexes.SIZE + 2),
        f"Seat 0's city after {position.actions // position.players} turns, worth "
        f"{details['total']} points",
        drawn,
        picture="example",
        hexes=str(len(city)),
    )
    return Figure(drawing, example_caption(position.actions // position.players, details))


def example_caption(turns: int, details: dict[str, Any]) -> str:
    colours = details["colors"]
    counted = "; ".join(
        f"{name} {c['value']} x {c['stars']} = {c['points']}" for name, c in colours.items()
    )
    return (
        f"A real city: seat 0's after {turns} turns of a game between two greedy bots "
        f"(seed {EXAMPLE_SEED}). The number on a district is its level, so its value; a "
        "dark edge marks a hex above the ground. Points per colour, value x stars: "
        f"{counted}; plus {plural(details['stones'], 'stone')}: {details['total']} points."
    )


def figures() -> dict[str, list[Figure]]:
    return {
        "coordinates": [coordinates()],
        "pieces": [a_tile(), kinds_of_hex()],
        "example": [example()],
    }
