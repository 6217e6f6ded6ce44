"""Architekton's pictures: the square grid and its checkerboard, a building tile turned
two ways with the four landscapes, and a finished city from a real game, coloured as the
replay viewer colours them (agon_kit/viewer/static/web/games/architekton.js)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures import squares
from agon.web.rules_pictures.figure import INK, SEAT_COLOURS, WHITE, Figure, plural
from agon.web.rules_pictures.positions import played_position
from engine.architekton.board import kept_houses
from engine.architekton.components import TERRAINS, rotated_edges
from engine.squaregrid import encode

TERRAIN = {"water": "#3d86d6", "mountain": "#8b7765", "plain": "#e2c75e", "forest": "#2f7a3a"}
TERRAIN_INK = {"water": WHITE, "mountain": WHITE, "plain": INK, "forest": WHITE}
LANDSCAPE_CELL_FILL, BUILDING_CELL_FILL = "#f4f1ea", "#e3e0da"

SHOWN_TILE = 1
BIG = 110.0
"""The side of a tile in the picture of one tile."""
EXAMPLE_SEED, EXAMPLE_ACTIONS = 2, 200


def _triangles(cell: float) -> list[list[tuple[float, float]]]:
    """The north, east, south and west quarters of a cell, around its centre."""
    h = cell / 2
    return [
        [(-h, -h), (h, -h), (0, 0)],
        [(h, -h), (h, h), (0, 0)],
        [(h, h), (-h, h), (0, 0)],
        [(-h, h), (-h, -h), (0, 0)],
    ]


def building_parts(edges: list[str], cell: float, *, names: bool = False) -> list[SafeString]:
    """A building as four triangles in the terrains its edges show (N, E, S, W); with
    `names`, each terrain's name written in its triangle."""
    parts = [
        svg.empty(
            "polygon",
            {
                "points": svg.points(points),
                "fill": TERRAIN[terrain],
                "stroke": WHITE,
                "stroke-width": 1.0,
            },
        )
        for points, terrain in zip(_triangles(cell), edges, strict=True)
    ]
    if names:
        inset = cell * 0.28
        for (dx, dy), terrain in zip(((0, -1), (1, 0), (0, 1), (-1, 0)), edges, strict=True):
            parts.append(
                svg.text(
                    dx * inset,
                    dy * inset,
                    terrain,
                    {"font-size": 9.5, "fill": TERRAIN_INK[terrain]},
                )
            )
    return parts


def coordinates() -> Figure:
    cells = []
    for x, y in squares.block(2):
        landscape = (x + y) % 2 == 0
        note = "start" if (x, y) in ((0, 0), (1, 1)) else squares.direction_notes().get((x, y), "")
        fill = LANDSCAPE_CELL_FILL if landscape else BUILDING_CELL_FILL
        cells.append(squares.plain_cell(x, y, fill, note=note))
    drawing = svg.image(
        svg.view_box_around(
            [*squares.spots(squares.block(2)), *squares.axes_reach(2)], squares.CELL / 2 + 2
        ),
        "The city's grid of cells (x, y), in its checkerboard of landscapes and buildings",
        [*cells, *squares.axes(2)],
        picture="coordinates",
    )
    return Figure(
        drawing,
        "Each cell is labelled with its coordinates x,y: x grows to the east, y to the "
        "north. The two starting landscapes lie on 0,0 and 1,1, so landscapes always stand "
        "where x + y is even (pale cells) and buildings where it is odd (grey cells). The "
        "neighbours of 0,0 are marked with their direction: N (0), E (1), S (2), W (3).",
        "medium",
    )


def building_tile() -> Figure:
    drawn = []
    spots = []
    for index, rotation in enumerate((0, 1)):
        edges = [TERRAINS[t] for t in rotated_edges(SHOWN_TILE, rotation)]
        x = index * (BIG + 40)
        spots.append((x, 0.0))
        drawn.append(
            svg.group(
                {
                    "class": "building",
                    "transform": f"translate({x} 0)",
                    "data-rotation": rotation,
                    "data-edges": " ".join(edges),
                },
                building_parts(edges, BIG, names=True),
            )
        )
        drawn.append(
            svg.text(x, BIG / 2 + 12, f"rotation {rotation}", {"font-size": 10, "fill": INK})
        )
    side = 58.0
    for k, terrain in enumerate(TERRAINS):
        x, y = -BIG / 2 + side / 2 + k * (side + 10), BIG / 2 + 28 + side / 2
        drawn.append(
            svg.empty(
                "rect",
                {
                    "x": x - side / 2,
                    "y": y - side / 2,
                    "width": side,
                    "height": side,
                    "fill": TERRAIN[terrain],
                },
            )
        )
        drawn.append(svg.text(x, y, terrain, {"font-size": 10, "fill": TERRAIN_INK[terrain]}))
    right = max(x for x, _ in spots) + BIG / 2
    box = (-BIG / 2 - 4, -BIG / 2 - 4, right + BIG / 2 + 8, BIG + 28 + side + 8)
    drawing = svg.image(
        box,
        f"Building tile {SHOWN_TILE} unturned and turned a quarter, and the four landscapes",
        drawn,
        picture="tile",
        tile=str(SHOWN_TILE),
    )
    return Figure(
        drawing,
        f"Building tile {SHOWN_TILE}: its edges show, unturned, north to west, "
        f"{', '.join(TERRAINS[t] for t in rotated_edges(SHOWN_TILE, 0))}. Turned a quarter "
        "turn clockwise (rotation 1), each terrain moves one side on: edge d shows "
        "edges[(d - rotation) % 4]. Below, the four landscapes, one terrain each.",
        "medium",
    )


def example() -> Figure:
    position = played_position("architekton", EXAMPLE_SEED, 2, EXAMPLE_ACTIONS)
    board: list[dict[str, Any]] = position.observation["board"]
    kept = kept_houses(position.state)
    drawn = []
    for tile in board:
        x, y = tile["x"], tile["y"]
        if tile["kind"] == "landscape":
            drawn.append(squares.square(x, y, TERRAIN[tile["terrain"]], data={"kind": "landscape"}))
            continue
        inside = building_parts(tile["edges"], squares.CELL)
        owner = tile["house"]
        if owner is not None:
            stays = kept.get(encode(x, y)) == owner
            inside.append(
                svg.empty(
                    "circle",
                    {
                        "r": 7,
                        "fill": SEAT_COLOURS[owner] if stays else WHITE,
                        "stroke": SEAT_COLOURS[owner] if not stays else WHITE,
                        "stroke-width": 2,
                    },
                )
            )
        drawn.append(
            squares.square(
                x,
                y,
                WHITE,
                stroke=WHITE,
                inside=inside,
                data={"kind": "building", "house": "" if owner is None else owner},
            )
        )
    details = position.result.details
    drawing = svg.image(
        svg.view_box_around(squares.spots((t["x"], t["y"]) for t in board), squares.CELL / 2 + 2),
        "A finished city of a real game",
        drawn,
        picture="example",
        tiles=str(len(board)),
    )
    return Figure(drawing, example_caption(details))


def example_caption(details: list[Any]) -> str:
    seats = "; ".join(
        f"seat {seat} ({'blue' if seat == 0 else 'orange'}): {plural(d['points'], 'point')} "
        "from play "
        f"+ {d['largest_group']} for its largest chain = {d['points'] + d['largest_group']}"
        for seat, d in enumerate(details)
    )
    return (
        f"A finished city: the end of a game between two greedy bots (seed {EXAMPLE_SEED}). "
        "A building shows the terrain of each edge; a dot is its owner's house (hollow: "
        "removed at the end, being beside only one or two landscapes). Houses on buildings "
        f"that touch at a corner form chains. Scores: {seats}."
    )


def figures() -> dict[str, list[Figure]]:
    return {
        "coordinates": [coordinates()],
        "pieces": [building_tile()],
        "example": [example()],
    }
