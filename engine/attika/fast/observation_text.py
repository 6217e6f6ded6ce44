"""Fast path of `compact_json(observation.observation(state, player))`: the observation as
JSON text, written without building it (what a boxed bot is sent). The map, most of it,
comes from the text kept between turns (`fast.map_text`); each seat's part is written
once per view of it; the rest is small and written field by field. Checked against the
plain encoding by tests/engine/attika/fast/test_message_text.py.
"""

from __future__ import annotations

import functools

from engine.attika.components import GROUPS, LANDSCAPES
from engine.attika.fast.legal_text import BUILDING_TEXT
from engine.attika.fast.map_text import map_text
from engine.attika.state import MODE_NAMES, AttikaState, PlayerState
from engine.attika.state_json import pending_json
from engine.core import compact_json


def observation_text(state: AttikaState, player: int) -> str:
    """`compact_json(observation(state, player))`."""
    seat = state.seats[player]
    pending = state.pending
    if pending is None:
        pending_text = "null"
    else:
        shown = pending_json(pending)
        if shown is not None and shown["kind"] == "drawn" and state.current != player:
            shown["building"] = None
        pending_text = compact_json(shown)
    seats = ",".join(map(_seat_text, state.seats, state.caches.index.colonies))
    return (
        f'{{"game":"attika","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"current_player":{state.current},'
        f'"options":{options_text(tuple(state.options.items()))},'
        f'"over":{_FLAG[state.over]},"winner":{_or_null(state.winner)},'
        f'"win_reason":{"null" if state.win_reason is None else compact_json(state.win_reason)},'
        f'"action":"{MODE_NAMES[state.mode]}","actions_left":{state.actions_left},'
        f'"took_cards":{_FLAG[state.took_cards]},"acted":{_FLAG[state.acted]},'
        f'"pending":{pending_text},"passes":{state.passes},"map":{map_text(state)},'
        f'"unplaced_tiles":[{_pile_text(tuple(state.tile_pile))}],'
        f'"deck_size":{len(state.deck)},"discard":{_cards_text(state.discard)},'
        f'"amphora_supply":{state.amphora_supply},"hand":{_cards_text(seat.hand)},'
        f'"board":[{_board_text(tuple(seat.board))}],"seats":[{seats}]}}'
    )


_FLAG = {False: "false", True: "true"}
_GROUP_TEXT = tuple(compact_json(group.id) for group in GROUPS)


def _seat_text(seat: PlayerState, colonies: int) -> str:
    """What every player sees of a seat, as JSON text (written once per such view)."""
    return _seat_view_text(
        sum(seat.hand),
        tuple(seat.board),
        tuple(map(len, seat.stacks)),
        seat.amphorae,
        tuple(seat.amphora_groups),
        len(seat.placed),
        colonies,
    )


@functools.lru_cache(maxsize=8192)
def _seat_view_text(
    hand_size: int,
    board: tuple[int, ...],
    stack_sizes: tuple[int, ...],
    amphorae: int,
    groups: tuple[int, ...],
    on_map: int,
    colonies: int,
) -> str:
    return (
        f'{{"hand_size":{hand_size},"board_size":{len(board)},"board":[{_board_text(board)}],'
        f'"stack_sizes":[{",".join(map(str, stack_sizes))}],"amphorae":{amphorae},'
        f'"amphora_groups":[{",".join(map(_GROUP_TEXT.__getitem__, groups))}],'
        f'"buildings_on_map":{on_map},"colonies":{colonies}}}'
    )


@functools.lru_cache(maxsize=4096)
def _pile_text(pile: tuple[int, ...]) -> str:
    """The face-down tiles' ids, sorted, as JSON text without the brackets."""
    return ",".join(map(str, sorted(pile)))


@functools.lru_cache(maxsize=4096)
def _board_text(board: tuple[int, ...]) -> str:
    """A seat's board as JSON text without its brackets."""
    return ",".join(map(BUILDING_TEXT.__getitem__, board))


def _or_null(value: int | None) -> str:
    return "null" if value is None else str(value)


_CARDS_FORMAT = "{{" + ",".join(f'"{name}":{{}}' for name in LANDSCAPES) + "}}"


def _cards_text(counts: list[int]) -> str:
    """Cards counted per landscape, as `cards_json` gives them, as JSON text."""
    return _CARDS_FORMAT.format(*counts)


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))
