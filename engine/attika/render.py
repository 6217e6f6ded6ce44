"""A text picture of an Attika position, for `agon replay show`.

Each map hex prints as three characters: a free hex shows its landscape letter
(` M `, ` H `, ` F `, ` W `, or ` . ` when blank), a shrine `(S)`, and a building the
owner's seat, its group's letter and the landscape under it in lower case (`0Cm`).
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.attika.components import BUILDINGS, GROUP_OF, GROUPS, LETTER_OF_LANDSCAPE
from engine.attika.state import MODE_NAMES, AttikaState
from engine.hexgrid import decode

GROUP_LETTERS = "CDSURIV"
"""City, Defence, Shipping, sUpply, Roads, mInt, Vineyard."""
LEGEND = (
    "free hex: landscape letter (M mountain, H hill, F forest, W water, . blank); (S) shrine;"
    "\nbuilding: seat + group (C city, D defence, S shipping, U supply, R roads, I mint,"
    " V vineyard) + landscape below"
)


def hex_rows(labels: Mapping[int, str]) -> list[str]:
    """Rows of three-character labels by cell code, r growing upwards, offset rows."""
    placed = {decode(cell): label for cell, label in labels.items()}
    if not placed:
        return ["(empty)"]
    columns = {pos: 2 * pos[0] + pos[1] for pos in placed}
    left = min(columns.values())
    rows = []
    for r in range(max(r for _, r in placed), min(r for _, r in placed) - 1, -1):
        line = {columns[pos] - left: label for pos, label in placed.items() if pos[1] == r}
        if not line:
            rows.append("")
            continue
        chars = [" "] * (2 * max(line) + 3)
        for column, label in line.items():
            chars[2 * column : 2 * column + 3] = label
        rows.append("".join(chars).rstrip())
    return rows


def map_labels(state: AttikaState) -> dict[int, str]:
    labels = {}
    for cell, symbol in state.caches.index.symbol_at.items():
        letter = LETTER_OF_LANDSCAPE[symbol] if symbol >= 0 else "."
        owner = state.caches.index.owner_at.get(cell)
        if owner is None:
            labels[cell] = f" {letter} "
        else:
            group = GROUP_LETTERS[GROUP_OF[state.caches.index.building_at[cell]]]
            labels[cell] = f"{owner}{group}{letter.lower()}"
    for cell in state.shrines:
        labels[cell] = "(S)"
    return labels


def render_state(state: AttikaState) -> str:
    if state.over:
        status = (
            f"game over: player {state.winner} wins ({state.win_reason})"
            if state.winner is not None
            else "game over: no one can move"
        )
    else:
        status = f"player {state.current} to move"
        if state.mode:
            status += f", {MODE_NAMES[state.mode]}ing, {state.actions_left} left"
        if state.pending is not None:
            status += f", owes: {state.pending.kind}"
            if state.pending.building >= 0:
                status += f" {BUILDINGS[state.pending.building].id}"
    lines = [
        f"Attika, {state.players} players, decision {state.turn}, {status}",
        f"Deck {len(state.deck)} cards, discard "
        + " ".join(f"{n}{LETTER_OF_LANDSCAPE[i]}" for i, n in enumerate(state.discard))
        + f"; map tiles left {len(state.tile_pile)}; amphorae in supply {state.amphora_supply}",
        LEGEND,
        "",
        *("  " + row for row in hex_rows(map_labels(state))),
    ]
    for player, seat in enumerate(state.seats):
        hand = " ".join(f"{n}{LETTER_OF_LANDSCAPE[i]}" for i, n in enumerate(seat.hand))
        earned = ",".join(GROUPS[g].id for g in seat.amphora_groups) or "-"
        lines += [
            "",
            f"Player {player}: {len(seat.placed)} on the map,"
            f" {state.caches.index.colonies[player]} colonies, cards {hand},"
            f" amphorae {seat.amphorae} (groups joined: {earned})",
            "  board: " + (", ".join(BUILDINGS[b].id for b in seat.board) or "-"),
            "  stacks: " + " ".join(str(len(stack)) for stack in seat.stacks),
        ]
    return "\n".join(lines) + "\n"
