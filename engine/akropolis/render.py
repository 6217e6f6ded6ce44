"""A text picture of an Akropolis position, for `agon replay show`.

Each visible hex prints as three characters: a letter for what it is (upper case for a
district, lower case for a plaza, `q` for a quarry), its level, and `*` on a plaza.
"""

from __future__ import annotations

from engine.akropolis.city import City
from engine.akropolis.components import COLOR_INDEX_OF, IS_PLAZA, QUARRY, TILES
from engine.akropolis.rules import current_player, is_over
from engine.akropolis.scoring import score_surface
from engine.akropolis.state import AkropolisState
from engine.hexgrid import decode

_LETTERS = "HMBTG"
LEGEND = (
    "H house  M market  B barracks  T temple  G garden  (lower case + * = plaza)  q quarry;"
    " the digit is the level"
)


def hex_label(level: int, code: int) -> str:
    if code == QUARRY:
        return f"q{level} "
    letter = _LETTERS[COLOR_INDEX_OF[code]]
    return f"{letter.lower()}{level}*" if IS_PLAZA[code] else f"{letter}{level} "


def render_city(city: City) -> list[str]:
    """Rows of the city, r growing upwards, each hex four characters wide."""
    placed = {decode(cell): hex_ for cell, hex_ in city.top.items()}
    if not placed:
        return ["(empty)"]
    columns = {pos: 2 * pos[0] + pos[1] for pos in placed}
    left = min(columns.values())
    rows = []
    for r in range(max(r for _, r in placed), min(r for _, r in placed) - 1, -1):
        line: dict[int, str] = {}
        for (q, row), (level, code, _) in placed.items():
            if row == r:
                line[columns[(q, row)] - left] = hex_label(level, code)
        width = 2 * (max(line) + 2)
        chars = [" "] * width
        for column, label in line.items():
            chars[2 * column : 2 * column + 3] = label
        rows.append("".join(chars).rstrip())
    return rows


def render_state(state: AkropolisState) -> str:
    lines = [
        f"Akropolis, {state.players} players, turn {state.turn}"
        + (" (game over)" if is_over(state) else f", player {current_player(state)} to move"),
        "Construction Site: "
        + "  ".join(
            f"[{k}] #{tile}: " + "/".join(hex_label(1, c).strip()[0] for c in TILES[tile].hexes)
            for k, tile in enumerate(state.site)
        ),
        f"Stacks left: {len(state.stacks)}",
        LEGEND,
    ]
    for player, city in enumerate(state.cities):
        score = score_surface(city.top, state.stones[player], state.variants)
        lines += ["", f"Player {player}: {state.stones[player]} stones, {score.total} points"]
        lines += ["  " + row for row in render_city(city)]
    return "\n".join(lines) + "\n"
