"""Megalopolis's pictures: the square grid with the starting cross, a few tiles with
their tokens, and a city from a real game, coloured as the replay viewer colours them
(agon_kit/viewer/static/web/games/megalopolis.js)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import SafeString

from agon.web import svg
from agon.web.rules_pictures import squares
from agon.web.rules_pictures.figure import INK, SEAT_COLOURS, WHITE, Figure
from agon.web.rules_pictures.positions import played_position
from engine.megalopolis.components import KIND_OF_NAME, KINDS
from engine.megalopolis.rules import CROSS
from engine.squaregrid import decode

FILLS = (
    "#dbeafe",
    "#fde7c8",
    "#dcfce7",
    "#f3e8ff",
    "#fee2e2",
    "#e0f2fe",
    "#fef9c3",
    "#ede9fe",
    "#ffedd5",
    "#d1fae5",
    "#fce7f3",
)
SILVER_EDGE, PLAIN_EDGE = "#6b6f78", "#9aa0a6"
FACE_DOWN_FILL, FACE_DOWN_INK = "#3a3f4b", "#e5e7eb"

SHOWN_KINDS = (("power_station", [0, 2]), ("police_hq", [1, 1]), ("plaza", [1, 0]))
"""Tiles shown with the tokens on them (per seat)."""
EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS = 15, 2, 24


def fill_of(kind: str) -> str:
    """The viewer's colour for a kind: a small hash of its name picks one of FILLS."""
    hashed = 0
    for char in kind:
        hashed = (hashed * 31 + ord(char)) % 9973
    return FILLS[hashed % len(FILLS)]


def tile(x: int, y: int, entry: dict[str, Any], *, cell: float = squares.CELL) -> SafeString:
    """A tile as the viewer draws it: its kind's short name, its bonus in the corner, a
    thick grey edge if silver-bordered, and a dot per token in its owner's colour (six at
    most, then +n); a face-down tile dark and blank."""
    scale = cell / squares.CELL
    inside: list[SafeString] = []
    fill, edge, width = FACE_DOWN_FILL, INK, 1.0
    if entry.get("face_up", True) and "kind" in entry:
        kind = KINDS[KIND_OF_NAME[entry["kind"]]]
        fill = fill_of(kind.name)
        edge, width = (SILVER_EDGE, 3.0) if kind.silver else (PLAIN_EDGE, 1.0)
        label = {"font-size": 9 * scale, "font-weight": 700, "fill": INK}
        inside.append(svg.text(0.0, -3 * scale, kind.abbreviation, label))
        if kind.bonus:
            corner = {"font-size": 7 * scale, "fill": INK, "text-anchor": "end"}
            spot = (cell / 2 - 3.5 * scale, -cell / 2 + 5.5 * scale)
            inside.append(svg.text(*spot, f"+{kind.bonus}", corner))
    tokens = [seat for seat, count in enumerate(entry["tokens"]) for _ in range(count)]
    for k, seat in enumerate(tokens[:6]):
        dot = {"r": 3.4 * scale, "fill": SEAT_COLOURS[seat], "stroke": WHITE, "stroke-width": 0.8}
        spot = ((-10 + (k % 3) * 10) * scale, (6.5 + (k // 3) * 7.5) * scale)
        inside.append(svg.empty("circle", {"cx": spot[0], "cy": spot[1], **dot}))
    if len(tokens) > 6:
        more = {"font-size": 7 * scale, "fill": INK, "text-anchor": "end"}
        inside.append(svg.text(cell / 2 - 2, cell / 2 - 4, f"+{len(tokens) - 6}", more))
    return squares.square(
        x,
        y,
        fill,
        stroke=edge,
        stroke_width=width,
        inside=inside,
        cell=cell,
        rounded=3.0,
        data={
            "kind": entry.get("kind", "face-down"),
            "tokens": " ".join(map(str, entry["tokens"])),
        },
    )


def coordinates() -> Figure:
    start = {decode(code) for code in CROSS}
    cells = []
    for x, y in squares.block(2):
        if (x, y) in start:
            label = squares.coordinate_label(x, y, FACE_DOWN_INK)
            cells.append(
                squares.square(
                    x,
                    y,
                    FACE_DOWN_FILL,
                    stroke=INK,
                    inside=[label],
                    data={"kind": "face-down"},
                    rounded=3.0,
                )
            )
        else:
            cells.append(squares.plain_cell(x, y))
    drawing = svg.image(
        svg.view_box_around(
            [*squares.spots(squares.block(2)), *squares.axes_reach(2)], squares.CELL / 2 + 2
        ),
        "The table's grid of cells (x, y), with the five face-down tiles of the start",
        [*cells, *squares.axes(2)],
        picture="coordinates",
    )
    return Figure(
        drawing,
        "Each cell is labelled with its coordinates x,y: x grows to the east, y to the "
        "north. The dark cells are the five face-down tiles every game starts with, 0,0 "
        "and the four cells sharing an edge with it.",
        "medium",
    )


def some_tiles() -> Figure:
    big, gap = 64.0, 36.0
    shown = [
        ({"kind": kind, "tokens": tokens, "face_up": True}, kind.replace("_", " "))
        for kind, tokens in SHOWN_KINDS
    ]
    shown.append(({"tokens": [0, 0], "face_up": False}, "face down"))
    drawn = []
    spots = []
    for k, (entry, name) in enumerate(shown):
        spot = (k * (big + gap), 0.0)
        spots.append(spot)
        label = svg.text(0.0, big / 2 + 13, name, {"font-size": 12, "fill": INK})
        shift = {"transform": f"translate({svg.number(spot[0])} 0)"}
        drawn.append(svg.group(shift, [tile(0, 0, entry, cell=big), label]))
    box = svg.view_box_around(spots, big / 2 + 4)
    drawing = svg.image(
        (box[0] - 8, box[1], box[2] + 16, box[3] + 22),
        "A Power Station, a Police HQ, a Plaza and a face-down tile, with tokens",
        drawn,
        picture="tiles",
    )
    return Figure(
        drawing,
        "A tile shows its kind's short name; a bonus point in its corner (+1); a thick grey "
        "edge if it has a silver border; and a dot per token, in its owner's colour (seat 0 "
        "blue, seat 1 orange, seat 2 green). Here seat 1 controls the Power Station with two "
        "tokens, seats 0 and 1 share the Police HQ, seat 0 holds the Plaza, and a face-down "
        "tile shows nothing of its kind.",
        "medium",
    )


def example() -> Figure:
    position = played_position("megalopolis", EXAMPLE_SEED, EXAMPLE_PLAYERS, EXAMPLE_ACTIONS)
    board: list[dict[str, Any]] = position.observation["board"]
    drawn = [tile(entry["x"], entry["y"], entry) for entry in board]
    drawing = svg.image(
        svg.view_box_around(squares.spots((t["x"], t["y"]) for t in board), squares.CELL / 2 + 2),
        f"The table of a real game after {position.observation['turns_played']} turns",
        drawn,
        picture="example",
        tiles=str(len(board)),
    )
    return Figure(
        drawing, example_caption(position.observation["turns_played"], position.result.details)
    )


def example_caption(turns: int, details: list[Any]) -> str:
    seats = "; ".join(
        f"seat {seat}: {d['groups']} for groups + {d['bonus']} bonus + {d['silver']} silver "
        f"= {d['total']}"
        for seat, d in enumerate(details)
    )
    return (
        f"A real table: a game between two greedy bots (seed {EXAMPLE_SEED}) after {turns} "
        "turns; the short names are those of the component table. Scored now, as at the "
        f"end: {seats}."
    )


def figures() -> dict[str, list[Figure]]:
    return {
        "coordinates": [coordinates()],
        "pieces": [some_tiles()],
        "example": [example()],
    }
