"""A text picture of a Megalopolis position, for `agon replay show`.

Each tile prints as its kind's three-letter abbreviation followed by the seats of the
tokens on it (one digit per token); a face-down tile prints as `###`.
"""

from __future__ import annotations

from engine.megalopolis.components import KINDS
from engine.megalopolis.scoring import score_state
from engine.megalopolis.state import FRAME_POWER_NAMES, MegalopolisState, Tile
from engine.squaregrid import bounds, decode, encode

LEGEND = "  ".join(f"{kind.abbreviation} {kind.name}" for kind in KINDS)


def tile_label(tile: Tile) -> str:
    name = KINDS[tile.kind].abbreviation if tile.face_up else "###"
    tokens = "".join(str(seat) * count for seat, count in enumerate(tile.tokens))
    return name + tokens


def render_board(state: MegalopolisState) -> list[str]:
    if not state.board:
        return ["(empty)"]
    labels = {code: tile_label(tile) for code, tile in state.board.items()}
    width = max(len(label) for label in labels.values()) + 1
    min_x, max_x, min_y, max_y = bounds(set(state.board))
    rows = []
    for y in range(max_y, min_y - 1, -1):
        cells = [labels.get(encode(x, y), ".").ljust(width) for x in range(min_x, max_x + 1)]
        rows.append("".join(cells).rstrip())
    return rows


def describe_stack(state: MegalopolisState) -> list[str]:
    lines = []
    for frame in reversed(state.stack):
        where = state.serial_cell(frame.source)
        place = "" if where is None else f" at {decode(where)}"
        lines.append(f"  resolving {FRAME_POWER_NAMES[frame.power]}{place}, step {frame.step}")
    return lines


def render_state(state: MegalopolisState) -> str:
    status = (
        f" (game over: {state.end_reason})"
        if state.over
        else f", player {state.turn_player} to act"
    )
    if state.final_round is not None and not state.over:
        status += f"; last turns for {state.final_round or 'nobody else'}"
    lines = [
        f"Megalopolis, {state.players} players, action {state.turn}, "
        f"turn {state.turns_played + 1}{status}",
        f"Deck: {len(state.deck)} tiles",
    ]
    for seat, score in enumerate(score_state(state)):
        hand = ", ".join(KINDS[k].abbreviation for k in state.hands[seat])
        lines.append(
            f"Player {seat}: {state.supply[seat]} tokens left, {score.total} points; "
            f"hand: {hand or '-'}"
        )
    lines += describe_stack(state)
    lines += ["", *render_board(state), "", LEGEND]
    return "\n".join(lines) + "\n"
