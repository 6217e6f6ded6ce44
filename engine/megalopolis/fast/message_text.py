"""Fast path of the bot message's two big parts as JSON text, written without building
them: `observation_text` is `compact_json(observation.observation(state, player))`, and
`LegalActionsText.compact_text` is `compact_json(legal.compact())` (`actions.LegalActions`).
The board's text comes kept from `fast.board_text`; the rest is small and written field
by field, each kind's and cell's text written once. Checked against the plain encoding by
tests/engine/megalopolis/fast/test_message_text.py.
"""

from __future__ import annotations

import functools

from engine.core import compact_json
from engine.megalopolis.actions import Choice, LegalActions, choice_json
from engine.megalopolis.fast.board_text import KIND_TEXT, board_text
from engine.megalopolis.observation import temple_hand_shown
from engine.megalopolis.state import FRAME_POWER_NAMES, Frame, MegalopolisState, known
from engine.squaregrid import decode


def observation_text(state: MegalopolisState, player: int) -> str:
    """`observation(state, player)` as JSON text only, written without building it: what
    a boxed bot is sent. The board's text is kept on the state and rewritten where
    tiles changed (`board_text`); the rest is small and written field by field."""
    tiles, unseen = board_text(state)
    unseen_for_player(state, player, unseen)
    unseen_text = _unseen_text(tuple(unseen))
    stack = ",".join([frame_text(state, frame, player) for frame in state.stack])
    return (
        f'{{"game":"megalopolis","player":{player},"players":{state.players},'
        f'"turn":{state.turn},"turns_played":{state.turns_played},'
        f'"current_player":{state.turn_player},"turn_player":{state.turn_player},'
        f'"first_player":{state.first_player},'
        f'"options":{options_text(tuple(state.options.items()))},'
        f'"tokens_in_supply":[{",".join(map(str, state.supply))}],'
        f'"hand":[{",".join([KIND_TEXT[k] for k in state.hands[player]])}],'
        f'"hand_sizes":[{",".join([str(len(hand)) for hand in state.hands])}],'
        f'"deck_size":{len(state.deck)},"board":[{tiles}],"next_serial":{state.next_serial},'
        f'"unseen":{{{unseen_text}}},"stack":[{stack}],"resolving":{_FLAG[state.resolving]},'
        f'"factory_draws":{state.factory_draws},"last_token_by":{_or_null(state.last_token_by)},'
        f'"final_round":{"null" if state.final_round is None else _ints(state.final_round)},'
        f'"passes":{state.passes},"over":{_FLAG[state.over]},'
        f'"end_reason":{"null" if state.end_reason is None else compact_json(state.end_reason)}}}'
    )


@functools.lru_cache(maxsize=4096)
def _unseen_text(unseen: tuple[int, ...]) -> str:
    """The unseen counts as the observation's JSON object, without its braces."""
    return ",".join([f"{KIND_TEXT[k]}:{n}" for k, n in enumerate(unseen) if n])


def unseen_for_player(state: MegalopolisState, player: int, unseen: list[int]) -> None:
    """Take from the counts per kind what the player sees beyond the board: their hand,
    and while it is their turn the tiles a Library shows or a Temple's hand."""
    for kind in state.hands[player]:
        unseen[kind] -= 1
    if state.stack and player == state.turn_player:
        for frame in state.stack:
            for kind in frame.looked:
                unseen[kind] -= 1
            if temple_hand_shown(state, frame, player):
                for kind in state.hands[known(frame.player, "player")]:
                    unseen[kind] -= 1


def frame_text(state: MegalopolisState, frame: Frame, player: int) -> str:
    """`frame_view(state, frame, player)` as JSON text."""
    if player != state.turn_player:
        looked, more = "", f',"looked_count":{len(frame.looked)}'
    else:
        looked = ",".join([KIND_TEXT[k] for k in frame.looked])
        if temple_hand_shown(state, frame, player):
            hand = state.hands[known(frame.player, "player")]
            more = f',"hand":[{",".join([KIND_TEXT[k] for k in hand])}]'
        else:
            more = ""
    return (
        f'{{"power":"{FRAME_POWER_NAMES[frame.power]}","source":{_or_null(frame.source)},'
        f'"step":{frame.step},"count":{frame.count},"chosen":{_or_null(frame.chosen)},'
        f'"done":{_ints(frame.done)},"looked":[{looked}],"player":{_or_null(frame.player)}'
        f"{more}}}"
    )


def _ints(values: list[int]) -> str:
    return f"[{','.join(map(str, values))}]"


_FLAG = {False: "false", True: "true"}


def _or_null(value: int | None) -> str:
    return "null" if value is None else str(value)


@functools.lru_cache(maxsize=64)
def options_text(options: tuple[tuple[str, bool], ...]) -> str:
    """The match's options as JSON text (a handful of combinations in all)."""
    return compact_json(dict(options))


class _CellTexts(dict[int, str]):
    """Cell code -> its `[x,y]` JSON text, written the first time it is asked for."""

    def __missing__(self, code: int) -> str:
        text = self[code] = "[{},{}]".format(*decode(code))
        return text


CELL_TEXT = _CellTexts()


@functools.lru_cache(maxsize=4096)
def choice_text(choice: Choice) -> str:
    """`compact_json(choice_json(choice))`, once per choice."""
    return compact_json(choice_json(choice))


class LegalActionsText(LegalActions):
    """The legal actions as `turns.legal_actions` gives them: `actions.LegalActions` that
    also write their compact form as JSON text (what the bot protocol sends)."""

    __slots__ = ()

    def compact_text(self) -> str:
        """`compact_json(self.compact())`, written from each kind's and cell's text."""
        kinds = ",".join([KIND_TEXT[k] for k in self.kinds])
        spaces = ",".join(map(CELL_TEXT.__getitem__, self.spaces))
        others = ",".join(map(choice_text, self.others))
        return f'{{"play":{{"kinds":[{kinds}],"spaces":[{spaces}]}},"others":[{others}]}}'
