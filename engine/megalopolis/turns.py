"""A Megalopolis turn: the main action, the resolution of tile texts, the end of a turn.

Play goes: the turn player's main action; then every text it set off is resolved, the
top of the stack first, asking the turn player whenever a text offers a choice; when
nothing is left to resolve, the turn ends (hands are refilled) and the next player
begins, or the game ends.
"""

from __future__ import annotations

from engine.core import IllegalAction
from engine.megalopolis.actions import (
    NONE,
    Choice,
    LegalActions,
    Options,
    choice_json,
    parse_action,
)
from engine.megalopolis.components import HOTEL
from engine.megalopolis.fast.message_text import LegalActionsText
from engine.megalopolis.powers import END, RESOLVE, frame_options, play_tile
from engine.megalopolis.state import MegalopolisState
from engine.megalopolis.table import (
    END_NO_MOVES,
    END_TOKENS,
    END_TURN_LIMIT,
    draw,
    end_game,
    placement_spaces,
    put_token,
    refill_hand,
    take_from_hand,
)

MAX_TURNS_PER_PLAYER = 60
"""Our decision (safety rule): the rules allow endless play (two Mausoleums taking each
other back, for one), so the game ends after 60 turns per player, scored as usual.
Random and greedy games take far fewer turns."""


def apply_action(state: MegalopolisState, action: object) -> None:
    """Check and carry out an action of the player to move, then resolve what follows."""
    if state.over:
        raise IllegalAction("the game is over")
    choice = parse_action(action)
    if not legal_actions(state).contains(choice):
        raise IllegalAction(explain_illegal(state, choice))
    if state.stack:
        frame = state.stack[-1]
        RESOLVE[frame.power](state, frame, choice)
    else:
        main_action(state, choice)
    state.turn += 1
    advance(state)


def legal_actions(state: MegalopolisState) -> LegalActionsText:
    """The legal actions: the choices open now (`current_options`). Kept in the state's
    caches until the next action is applied (the referee and `apply_action` both ask)."""
    kept = state.caches.legal
    if kept is not None and kept[0] == state.turn:
        legal: LegalActionsText = kept[1]
        return legal
    legal = LegalActionsText.of(current_options(state))
    state.caches.legal = (state.turn, legal)
    return legal


def main_options(state: MegalopolisState) -> Options:
    """On their turn a player plays a tile from their hand, or puts a token on a face-up
    Hotel where they have none; a player who can do neither passes."""
    me = state.turn_player
    if state.supply[me] == 0:
        return Options(others=[("pass",)])
    hotels: list[Choice] = [
        ("hotel", code)
        for code in sorted(state.board)
        if state.board[code].kind == HOTEL
        and state.board[code].face_up
        and state.board[code].tokens[me] == 0
    ]
    hand = sorted(set(state.hands[me]))
    if not hand and not hotels:
        return Options(others=[("pass",)])
    return Options(kinds=hand, spaces=placement_spaces(state) if hand else [], others=hotels)


def current_options(state: MegalopolisState) -> Options:
    if state.over:
        return NONE
    if state.stack:
        return frame_options(state, state.stack[-1])
    return main_options(state)


def main_action(state: MegalopolisState, choice: Choice) -> None:
    me = state.turn_player
    state.resolving = True
    if choice[0] == "pass":
        state.passes += 1
        return
    state.passes = 0
    if choice[0] == "hotel":
        put_token(state, choice[1], me)
        return
    _, kind, code = choice
    take_from_hand(state.hands[me], kind)
    play_tile(state, kind, code)


def advance(state: MegalopolisState) -> None:
    """Resolve what needs no choice: finished texts leave the stack (the one below goes
    on); with nothing left to resolve, the turn ends."""
    while not state.over:
        if state.stack:
            top = state.stack[-1]
            options = frame_options(state, top)
            if options:
                state.caches.legal = (state.turn, LegalActionsText.of(options))
                return
            state.stack.pop()
            end = END.get(top.power)
            if end is not None:
                end(state, top)
            continue
        if state.resolving:
            end_turn(state)
        return


def end_turn(state: MegalopolisState) -> None:
    """Draw up to 5 tiles (then 5 more per Factory); then the next player, or the end."""
    me = state.turn_player
    hand_before = len(state.hands[me])
    refill_hand(state, me)
    draw(state, me, state.factory_draws)
    if len(state.hands[me]) > hand_before:
        state.passes = 0  # a player who drew may be able to play next time
    state.factory_draws = 0
    state.turns_played += 1
    state.resolving = False
    if state.passes >= state.players:
        end_game(state, END_NO_MOVES)
        return
    if state.turns_played >= MAX_TURNS_PER_PLAYER * state.players:
        end_game(state, END_TURN_LIMIT)
        return
    last = state.last_token_by
    if state.final_round is None and last is not None:
        # Every player but the one who placed the last token plays once more, counted
        # from that player (on a Police HQ it need not be the turn player).
        state.final_round = [(last + step) % state.players for step in range(1, state.players)]
    state.last_token_by = None
    if state.final_round is None:
        state.turn_player = (me + 1) % state.players
    elif state.final_round:
        state.turn_player = state.final_round.pop(0)
    else:
        end_game(state, END_TOKENS)


def explain_illegal(state: MegalopolisState, choice: Choice) -> str:
    legal = LegalActions.of(current_options(state))
    shown = [choice_json(legal.choice(i)) for i in range(min(len(legal), 3))]
    what = "a main action" if not state.stack else "a choice for the tile being resolved"
    return (
        f"{choice_json(choice)} is not legal now ({what} is expected by player "
        f"{state.turn_player}); legal actions include {shown}"
    )
