"""Attika's pictures: the axial coordinates, a map tile turned two ways, the arrows of
the Defence group, and a map from a real game, coloured as the replay viewer colours
them (agon_kit/viewer/static/web/games/attika.js)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures import hexes
from agon.web.rules_pictures.figure import INK, SEAT_COLOURS, WHITE, Figure
from agon.web.rules_pictures.marks import arrow
from agon.web.rules_pictures.positions import played_position
from engine.attika.components import (
    BUILDINGS,
    GROUPS,
    LANDSCAPES,
    LETTER_OF_LANDSCAPE,
    MAP_TILES,
    TILE_SYMBOLS,
    tile_cells,
)
from engine.hexgrid import decode

LAND = {"mountain": "#8b7765", "hill": "#c7a568", "forest": "#2f7a3a", "water": "#3d86d6"}
BLANK = "#ece7dc"
LAND_INK = {"mountain": WHITE, "hill": INK, "forest": WHITE, "water": WHITE, None: INK}
SHRINE_FILL, SHRINE_INK = "#fff8e1", "#7a4f00"
GROUP_LETTER = {
    "city": "C",
    "defence": "D",
    "shipping": "S",
    "supply": "U",
    "roads": "R",
    "mint": "I",
    "vineyard": "V",
}

SHOWN_TILE = 0
EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS = 7, 2, 60
SHOWN_GROUP = "defence"


def land_hex(q: int, r: int, landscape: str | None, lines: list[str]) -> SafeString:
    ink = LAND_INK[landscape]
    inside = [
        svg.text(0.0, (k - (len(lines) - 1) / 2) * 10.5, line, {"font-size": 9, "fill": ink})
        for k, line in enumerate(lines)
    ]
    return hexes.hexagon(
        q,
        r,
        LAND[landscape] if landscape else BLANK,
        inside=inside,
        data={"kind": "land", "landscape": landscape or ""},
    )


def shrine(q: int, r: int) -> SafeString:
    star = svg.text(0.0, 0.5, "☆", {"font-size": 13, "fill": SHRINE_INK})
    return hexes.hexagon(
        q,
        r,
        SHRINE_FILL,
        stroke=SHRINE_INK,
        stroke_width=1.4,
        inside=[star],
        data={"kind": "shrine"},
    )


def building(q: int, r: int, landscape: str | None, player: int, group: str) -> SafeString:
    disc = svg.empty(
        "circle", {"r": 8.5, "fill": SEAT_COLOURS[player], "stroke": WHITE, "stroke-width": 1.4}
    )
    letter = svg.text(
        0.0, 0.5, GROUP_LETTER[group], {"font-size": 9.5, "font-weight": 700, "fill": WHITE}
    )
    return hexes.hexagon(
        q,
        r,
        LAND[landscape] if landscape else BLANK,
        inside=[disc, letter],
        data={"kind": "building", "player": player, "group": group},
    )


def coordinates() -> Figure:
    drawing = svg.image(
        svg.view_box_around([*hexes.spots(hexes.disk(2)), *hexes.axes_reach(2)], hexes.SIZE),
        "The map's grid in axial coordinates (q, r)",
        [*(hexes.plain_cell(q, r) for q, r in hexes.disk(2)), *hexes.axes(2)],
        picture="coordinates",
    )
    return Figure(
        drawing,
        "The map is one grid for all players. Each hexagon is labelled with its coordinates "
        "q,r: q grows to the east, r to the north-east. The six neighbours of 0,0 carry "
        "their names in the rules, D[0] to D[5]; the neighbours of any hex lie in the same "
        "directions.",
        "medium",
    )


def map_tile() -> Figure:
    symbols = TILE_SYMBOLS[SHOWN_TILE]
    drawn = []
    every_cell = []
    for (q, r), rotation in (((0, 0), 0), ((4, -1), 1)):
        cells = [decode(code) for code in tile_cells(q, r, rotation)]
        every_cell += cells
        for k, ((cq, cr), symbol) in enumerate(zip(cells, symbols, strict=True)):
            landscape = None if symbol < 0 else LANDSCAPES[symbol]
            drawn.append(land_hex(cq, cr, landscape, ["centre" if k == 0 else f"ring {k - 1}"]))
        x, y = hexes.centre(q, r)
        label = f"rotation {rotation}"
        drawn.append(svg.text(x, y + 3 * hexes.SIZE + 9, label, {"font-size": 10, "fill": INK}))
    spots = hexes.spots(every_cell)
    below = max(y for _, y in spots) + hexes.SIZE + 16
    drawing = svg.image(
        svg.view_box_around([*spots, (spots[0][0], below)], hexes.SIZE + 2),
        f"Map tile {SHOWN_TILE} laid with rotation 0 and with rotation 1",
        drawn,
        picture="map-tile",
        tile=str(SHOWN_TILE),
    )
    letters = MAP_TILES[SHOWN_TILE].hexes
    return Figure(
        drawing,
        f"Map tile {SHOWN_TILE} ({letters} in the component data: its centre, then ring "
        "hexes 0 to 5; . is blank) laid twice. Ring hex k lies on the centre + "
        "D[(k + rotation) % 6]: with rotation 0 ring hex 0 is east of the centre, with "
        "rotation 1 it is south-east: each step of rotation turns the tile a sixth of a "
        "turn clockwise.",
        "medium",
    )


def group_arrows() -> Figure:
    """The buildings of one group, each below the building its arrow comes from."""
    members = [b for b in BUILDINGS if b.group == SHOWN_GROUP]
    depth: dict[str, int] = {}
    for member in members:  # the data lists a building after the one its arrow leaves
        depth[member.id] = 0 if member.upstream is None else depth[member.upstream] + 1
    rows: dict[int, list[str]] = {}
    for member in members:
        rows.setdefault(depth[member.id], []).append(member.id)
    width, height = 124.0, 46.0
    spot: dict[str, tuple[float, float]] = {}
    widest = max(len(row) for row in rows.values())
    for level, ids in rows.items():
        for k, building_id in enumerate(ids):
            x = (k - (len(ids) - 1) / 2) * (width + 16) + (widest - 1) / 2 * (width + 16)
            spot[building_id] = (x, level * (height + 34))
    drawn = []
    for member in members:
        if member.upstream is not None:
            drawn.append(_arrow_between(spot[member.upstream], spot[member.id], height))
    for member in members:
        drawn.append(_building_card(member.id, spot[member.id], width, height))
    xs = [x for x, _ in spot.values()]
    ys = [y for _, y in spot.values()]
    box = (
        min(xs) - width / 2 - 4,
        min(ys) - height / 2 - 4,
        max(xs) - min(xs) + width + 8,
        max(ys) - min(ys) + height + 8,
    )
    name = next(g.name for g in GROUPS if g.id == SHOWN_GROUP)
    drawing = svg.image(
        box,
        f"The {name} group's buildings, costs and arrows",
        drawn,
        picture="arrows",
        group=SHOWN_GROUP,
    )
    return Figure(
        drawing,
        f"The {name} group: each building with its printed cost (M mountain, H hill, "
        "F forest, W water), and the arrows between them. The Fortress is free next to "
        "its owner's Quarry, each Tower next to its owner's Fortress; the Quarry, a main "
        "building, is never free.",
        "medium",
    )


def _building_card(
    building_id: str, spot: tuple[float, float], width: float, height: float
) -> SafeString:
    member = next(b for b in BUILDINGS if b.id == building_id)
    x, y = spot
    parts = [
        svg.empty(
            "rect",
            {
                "x": x - width / 2,
                "y": y - height / 2,
                "width": width,
                "height": height,
                "rx": 6,
                "fill": "#ffffff",
                "stroke": INK if member.main else "#9aa0a6",
                "stroke-width": 2 if member.main else 1,
            },
        )
    ]
    title = member.name + (" (main)" if member.main else "")
    parts.append(svg.text(x, y - 11, title, {"font-size": 11, "font-weight": 700, "fill": INK}))
    letters = member.cost
    for k, letter in enumerate(letters):
        landscape = LANDSCAPES[LETTER_OF_LANDSCAPE.index(letter)]
        cx = x + (k - (len(letters) - 1) / 2) * 19
        parts.append(svg.empty("circle", {"cx": cx, "cy": y + 10, "r": 8, "fill": LAND[landscape]}))
        parts.append(
            svg.text(
                cx,
                y + 10.5,
                letter,
                {"font-size": 9, "font-weight": 700, "fill": LAND_INK[landscape]},
            )
        )
    return svg.group(
        {"class": "building", "data-building": building_id, "data-cost": letters}, parts
    )


def _arrow_between(
    start: tuple[float, float], end: tuple[float, float], height: float
) -> SafeString:
    (x1, y1), (x2, y2) = start, end
    return arrow((x1, y1 + height / 2 + 2), (x2, y2 - height / 2 - 2), "")


def example() -> Figure:
    position = played_position("attika", EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS)
    seen: dict[str, Any] = position.observation
    groups = {b.id: b.group for b in BUILDINGS}
    drawn = []
    cells = []
    for h in seen["map"]["hexes"]:
        cells.append((h["q"], h["r"]))
        if h["player"] is None:
            drawn.append(land_hex(h["q"], h["r"], h["landscape"], []))
        else:
            drawn.append(
                building(h["q"], h["r"], h["landscape"], h["player"], groups[h["building"]])
            )
    for q, r in seen["map"]["shrines"]:
        cells.append((q, r))
        drawn.append(shrine(q, r))
    on_map = [seat["buildings_on_map"] for seat in seen["seats"]]
    drawing = svg.image(
        svg.view_box_around(hexes.spots(cells), hexes.SIZE + 2),
        f"The map of a real game after {position.actions} decisions",
        drawn,
        picture="example",
        buildings=str(sum(on_map)),
    )
    counts = " and ".join(f"seat {seat} {n}" for seat, n in enumerate(on_map))
    return Figure(
        drawing,
        f"A real map: a game between two greedy bots (seed {EXAMPLE_SEED}) after "
        f"{position.actions} decisions, with {len(seen['map']['tiles'])} map tiles laid. "
        "Hexes show their landscape (pale: blank), ☆ marks a shrine, and a disc a building "
        "in its owner's colour (seat 0 blue, seat 1 orange) with its group's letter: C city, "
        "D defence, S shipping, U supply, R roads, I mint, V vineyard. The score is the "
        f"buildings on the map: {counts}.",
    )


def figures() -> dict[str, list[Figure]]:
    return {
        "coordinates": [coordinates()],
        "pieces": [map_tile(), group_arrows()],
        "example": [example()],
    }
