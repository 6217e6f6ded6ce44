"""The texts of the 21 kinds of Megalopolis tiles, one function per power.

A tile's text is resolved as a frame on the state's stack. Each power has a function
`<power>(state, frame, choice)` that carries out the acting player's choice (or, for
powers without a choice, does the work when the text begins), and an options function
`<power>_options(state, frame)` that lists the choices open now; no options means the
text is done. Choices are small tuples (see `Choice`); every effect on a tile or its
tokens checks the Power Station's protection (`reachable`, `is_shielded`, both built on
`shielded_cells`, at the top).

Our decisions where the text is unclear, besides those of the rules file (all of them,
each with its anchor and tests, are in docs/rules/megalopolis-decisions.md):
- A text whose own tile has left the table ends (Bank, Capitol, Embassy, Mausoleum,
  Stadium need it).
- Arboretum: any of your tokens, the one just placed included; `done` stops early.
- Bank: the token taken is chosen by tile and owner.
- Capitol: the acting player takes the adjacent tiles over one at a time in the order they
  choose (a face-down one turns up and its text is resolved before the next); with no
  token left and none on a tile, that tile cannot be taken over.
- Disaster Site: any other tile in play, face up or down.
- Embassy: a tile where you have a token counts: its tokens go back and you put one.
- Library: the four others go to the bottom in the order they were drawn, before the
  played tile's text; with only Libraries among them, all five go back.
- Post Office: any tile, to an empty cell next to another tile; not its own cell.
- Police HQ: the player who played it has their token on it already; every other player
  with a token left puts one on it, in turn order.
- Stadium: one token (chosen by owner) or all of them.
- Temple: the player drawn from draws after the played tile's text is resolved.
- Transit Station: any two tiles, face up or down.
- After a player places their last token in a turn, no further tile is played or placed
  by a text that turn (Construction Site, Library, Temple, Port do nothing).

Why one module of about 650 lines: it is a table of 21 short texts (some 20 lines each,
read one at a time, in alphabetical order), the Power Station's protection they all go
through, and the few steps they share. The texts, the shared steps and the table at the
end refer to one another (a Construction Site, Library or Temple plays a tile and a
Capitol may reveal one; that tile's text starts through `push_power`, which looks it up
in the table), so parts in separate modules would import each other in a cycle; and the
decisions above sit next to the code that makes them.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.megalopolis.actions import ALL_TOKENS, NONE, Choice, Options
from engine.megalopolis.components import (
    ARBORETUM,
    ARBORETUM_TOKENS,
    BANK,
    CAPITOL,
    CONSTRUCTION_SITE,
    DISASTER_SITE,
    EMBASSY,
    FACTORY,
    FACTORY_DRAW,
    HOTEL,
    HOUSING,
    LIBRARY,
    LIBRARY_LOOK,
    MAUSOLEUM,
    PLAZA,
    POLICE_HQ,
    PORT,
    POST_OFFICE,
    POWER_STATION,
    SECURITY_GUARD,
    SHOPPING_COMPLEX,
    STADIUM,
    TEMPLE,
    TRANSIT_STATION,
)
from engine.megalopolis.state import DRAW, Frame, MegalopolisState, known
from engine.megalopolis.table import (
    add_to_hand,
    adjacent_tiles,
    can_move_somewhere,
    draw,
    end_if_all_power_stations,
    move_destinations,
    move_tokens,
    new_tile,
    place_tile,
    placement_spaces,
    put_token,
    return_tokens,
    swap_tiles,
    take_back_token,
    take_from_hand,
    take_tile,
    token_owners,
)
from engine.squaregrid import NEIGHBOUR_STEPS

DONE = -1
"""A frame's step once its text is fully resolved."""


# --- the Power Station's protection: the one check every effect goes through ---------
#
# A face-up Power Station shields itself, the tiles adjacent to it, and the tokens on them
# from the text of every other tile: they cannot be chosen, moved, swapped, removed, taken,
# or have tokens put on or taken off them by an effect. The Capitol overrides it. A tile's
# text still applies to its own tile (a Stadium next to a Power Station still gathers tokens
# onto itself). Empty spaces are never shielded: a tile may be played, placed or moved next
# to a Power Station. Face-down tiles have no text yet, so a face-down Power Station shields
# nothing.


def shielded_cells(state: MegalopolisState, effect: Frame) -> set[int]:
    """The cells whose tiles and tokens `effect` cannot touch: every face-up Power
    Station and the cells next to it, except the effect's own tile; none for the
    Capitol."""
    if effect.power == CAPITOL:
        return set()
    cells = set()
    for code, tile in state.board.items():
        if tile.kind == POWER_STATION and tile.face_up:
            cells.add(code)
            cells.update(code + step for step in NEIGHBOUR_STEPS)
    own = state.serial_cell(effect.source) if cells else None
    if own is not None:
        cells.discard(own)
    return cells


def is_shielded(state: MegalopolisState, code: int, effect: Frame) -> bool:
    """Whether the tile at `code` and its tokens are out of reach of `effect`."""
    return code in state.board and code in shielded_cells(state, effect)


def reachable(state: MegalopolisState, cells: list[int], effect: Frame) -> list[int]:
    """The cells among `cells` whose tiles `effect` may affect."""
    shielded = shielded_cells(state, effect)
    return [code for code in cells if code not in shielded]


# --- shared steps --------------------------------------------------------------------


def acting(state: MegalopolisState) -> int:
    return state.turn_player


def push_power(state: MegalopolisState, kind: int, serial: int | None) -> None:
    """Start resolving a tile's text (its automatic part, if any, happens now)."""
    frame = Frame(kind, serial)
    state.stack.append(frame)
    begin = BEGIN.get(kind)
    if begin is not None:
        begin(state, frame)


def reveal(state: MegalopolisState, code: int) -> None:
    """A token turned the tile at `code` face up: the game may end, else its text applies."""
    if end_if_all_power_stations(state):
        return
    tile = state.board[code]
    push_power(state, tile.kind, tile.serial)


def put_token_and_reveal(state: MegalopolisState, code: int, player: int) -> None:
    if put_token(state, code, player):
        reveal(state, code)


def play_tile(state: MegalopolisState, kind: int, code: int) -> None:
    """Play a tile face up, put the acting player's token on it and apply its text."""
    tile = new_tile(state, kind, face_up=True)
    place_tile(state, code, tile)
    put_token(state, code, acting(state))
    if end_if_all_power_stations(state):
        return
    push_power(state, kind, tile.serial)


def can_play_another(state: MegalopolisState) -> bool:
    """Tiles played or placed by a text need a token, and none after a last token."""
    return state.last_token_by is None and state.supply[acting(state)] > 0


def play_options(state: MegalopolisState, kinds: list[int]) -> Options:
    if not kinds or not can_play_another(state):
        return NONE
    return Options(kinds=sorted(set(kinds)), spaces=placement_spaces(state))


def tile_choices(cells: list[int]) -> Options:
    return Options(others=[("tile", code) for code in sorted(cells)]) if cells else NONE


def own_cell(state: MegalopolisState, frame: Frame) -> int | None:
    return state.serial_cell(frame.source)


def finish(frame: Frame) -> None:
    frame.step = DONE


# --- the 21 powers -------------------------------------------------------------------


def arboretum_options(state: MegalopolisState, frame: Frame) -> Options:
    if frame.count >= ARBORETUM_TOKENS:
        return NONE
    me = acting(state)
    mine = [code for code, tile in state.board.items() if tile.tokens[me] > 0]
    cells = reachable(state, mine, frame)
    if not cells:
        return NONE
    return Options(others=[*tile_choices(cells).others, ("done",)])


def arboretum(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Take back up to three of your tokens from tiles."""
    if choice[0] == "done":
        finish(frame)
        return
    take_back_token(state, choice[1], acting(state))
    frame.count += 1


def bank_options(state: MegalopolisState, frame: Frame) -> Options:
    me = acting(state)
    bank = own_cell(state, frame)
    if bank is None or state.board[bank].tokens[me] == 0:
        return NONE
    cells = [
        code
        for code, tile in state.board.items()
        if code != bank and tile.tokens[me] == 0 and tile.has_tokens()
    ]
    choices: list[Choice] = [
        ("token", code, owner)
        for code in sorted(reachable(state, cells, frame))
        for owner in token_owners(state.board[code])
    ]
    return Options(others=choices)


def bank(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Swap your token on this tile with a token on a tile you do not control."""
    me = acting(state)
    _, code, owner = choice
    own = known(own_cell(state, frame), "tile")
    move_tokens(state, own, code, me, 1)
    move_tokens(state, code, own, owner, 1)
    finish(frame)


def capitol_options(state: MegalopolisState, frame: Frame) -> Options:
    me = acting(state)
    capitol = own_cell(state, frame)
    if capitol is None:
        return NONE
    cells = [
        code
        for code in adjacent_tiles(state, capitol)
        if state.board[code].serial not in frame.done
        and (state.supply[me] > 0 or state.board[code].tokens[me] > 0)
    ]
    return tile_choices(reachable(state, cells, frame))


def capitol(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Put one of your tokens on each adjacent tile, returning the tokens there; this
    overrides the Power Station (see `shielded_cells`). One tile per choice."""
    code = choice[1]
    frame.done.append(state.board[code].serial)
    return_tokens(state, code)
    put_token_and_reveal(state, code, acting(state))


def construction_site_options(state: MegalopolisState, frame: Frame) -> Options:
    return play_options(state, state.hands[acting(state)])


def construction_site(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Play another tile from your hand."""
    _, kind, code = choice
    take_from_hand(state.hands[acting(state)], kind)
    finish(frame)
    play_tile(state, kind, code)


def disaster_site_options(state: MegalopolisState, frame: Frame) -> Options:
    cells = [code for code, tile in state.board.items() if tile.serial != frame.source]
    return tile_choices(reachable(state, cells, frame))


def disaster_site(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Put a tile in play at the bottom of the deck, returning its tokens."""
    code = choice[1]
    return_tokens(state, code)
    state.deck.append(take_tile(state, code).kind)
    finish(frame)


def embassy_options(state: MegalopolisState, frame: Frame) -> Options:
    me = acting(state)
    embassy = own_cell(state, frame)
    if embassy is None:
        return NONE
    cells = [
        code
        for code in adjacent_tiles(state, embassy)
        if state.supply[me] > 0 or state.board[code].tokens[me] > 0
    ]
    return tile_choices(reachable(state, cells, frame))


def embassy(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Put one of your tokens on an adjacent tile, returning the tokens there."""
    code = choice[1]
    return_tokens(state, code)
    finish(frame)
    put_token_and_reveal(state, code, acting(state))


def factory(state: MegalopolisState, frame: Frame) -> None:
    """After refilling your hand at the end of the turn, draw five more tiles."""
    state.factory_draws += FACTORY_DRAW
    finish(frame)


def hotel(state: MegalopolisState, frame: Frame) -> None:
    """Nothing when played: a player without a token on a face-up Hotel may put one on it
    instead of playing a tile (a main action, see `turns.main_options`)."""
    finish(frame)


def housing_options(state: MegalopolisState, frame: Frame) -> Options:
    if state.supply[acting(state)] == 0:
        return NONE
    cells = [code for code, tile in state.board.items() if not tile.has_tokens()]
    return tile_choices(reachable(state, cells, frame))


def housing(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Put one of your tokens on an empty tile (a placed tile with no token)."""
    finish(frame)
    put_token_and_reveal(state, choice[1], acting(state))


def library_begin(state: MegalopolisState, frame: Frame) -> None:
    """Look at the top five tiles of the deck (unless no tile may be played)."""
    if not can_play_another(state):
        finish(frame)
        return
    frame.looked = state.deck[:LIBRARY_LOOK]
    del state.deck[:LIBRARY_LOOK]
    if all(kind == LIBRARY for kind in frame.looked):
        library_end(state, frame)


def library_options(state: MegalopolisState, frame: Frame) -> Options:
    return play_options(state, [kind for kind in frame.looked if kind != LIBRARY])


def library(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Play one of the tiles looked at (not a Library); the others go to the bottom."""
    _, kind, code = choice
    frame.looked.remove(kind)
    library_end(state, frame)
    play_tile(state, kind, code)


def library_end(state: MegalopolisState, frame: Frame) -> None:
    state.deck.extend(frame.looked)
    frame.looked = []
    finish(frame)


def mausoleum_options(state: MegalopolisState, frame: Frame) -> Options:
    mausoleum = own_cell(state, frame)
    if mausoleum is None:
        return NONE
    return tile_choices(reachable(state, adjacent_tiles(state, mausoleum), frame))


def mausoleum(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Take an adjacent tile into your hand, returning its tokens."""
    code = choice[1]
    return_tokens(state, code)
    add_to_hand(state, acting(state), take_tile(state, code).kind)
    finish(frame)


def plaza(state: MegalopolisState, frame: Frame) -> None:
    """Nothing when played: tiles must be placed next to a Plaza while they can be (see
    `table.placement_spaces`)."""
    finish(frame)


def police_hq(state: MegalopolisState, frame: Frame) -> None:
    """Every other player with a token left puts one on this tile, in turn order."""
    code = own_cell(state, frame)
    if code is not None and not is_shielded(state, code, frame):  # its own tile: never
        for step in range(1, state.players):
            player = (acting(state) + step) % state.players
            if state.supply[player] > 0:
                put_token(state, code, player)
    finish(frame)


def port_options(state: MegalopolisState, frame: Frame) -> Options:
    if state.last_token_by is not None or not state.deck:
        return NONE
    return Options(others=[("space", code) for code in placement_spaces(state)])


def port(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Place the top tile of the deck face down next to any tile."""
    place_tile(state, choice[1], new_tile(state, state.deck.pop(0), face_up=False))
    finish(frame)


def post_office_options(state: MegalopolisState, frame: Frame) -> Options:
    if frame.step == 0:
        if not can_move_somewhere(state):
            return NONE
        return tile_choices(reachable(state, list(state.board), frame))
    chosen = state.serial_cell(frame.chosen)
    if chosen is None:
        return NONE
    return Options(others=[("space", code) for code in move_destinations(state, chosen)])


def post_office(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Move a tile, with its tokens, to a new place (first the tile, then the place)."""
    if frame.step == 0:
        frame.chosen = state.board[choice[1]].serial
        frame.step = 1
        return
    chosen = known(state.serial_cell(frame.chosen), "chosen tile")
    place_tile(state, choice[1], take_tile(state, chosen))
    finish(frame)


def power_station(state: MegalopolisState, frame: Frame) -> None:
    """Nothing when played: it shields (see `shielded_cells`), and the fifth in play ends the
    game (see `table.end_if_all_power_stations`)."""
    finish(frame)


def security_guard_options(state: MegalopolisState, frame: Frame) -> Options:
    cells = [code for code, tile in state.board.items() if tile.has_tokens()]
    return tile_choices(reachable(state, cells, frame))


def security_guard(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Return all the tokens on a tile of your choice to their owners."""
    return_tokens(state, choice[1])
    finish(frame)


def shopping_complex_options(state: MegalopolisState, frame: Frame) -> Options:
    me = acting(state)
    return Options(others=[("player", p) for p in range(state.players) if p != me])


def shopping_complex(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Swap your hand with another player's."""
    me, other = acting(state), choice[1]
    state.hands[me], state.hands[other] = state.hands[other], state.hands[me]
    finish(frame)


def stadium_options(state: MegalopolisState, frame: Frame) -> Options:
    stadium = own_cell(state, frame)
    if stadium is None:
        return NONE
    choices: list[Choice] = []
    for code in reachable(state, adjacent_tiles(state, stadium), frame):
        tile = state.board[code]
        choices.extend(("token", code, owner) for owner in token_owners(tile))
        if sum(tile.tokens) >= 2:
            choices.append(("token", code, ALL_TOKENS))
    choices.sort()
    return Options(others=choices)


def stadium(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Move one or all of the tokens of an adjacent tile onto this one."""
    _, code, owner = choice
    own = known(own_cell(state, frame), "tile")
    if owner == ALL_TOKENS:
        for player, count in enumerate(state.board[code].tokens):
            move_tokens(state, code, own, player, count)
    else:
        move_tokens(state, code, own, owner, 1)
    finish(frame)


def temple_options(state: MegalopolisState, frame: Frame) -> Options:
    me = acting(state)
    if frame.step == 0:
        if not can_play_another(state):
            return NONE
        players = [p for p in range(state.players) if p != me and state.hands[p]]
        return Options(others=[("player", p) for p in players])
    return play_options(state, state.hands[known(frame.player, "player")])


def temple(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Look at another player's hand (first the player), take one of its tiles and play
    it (then the tile and where); that player then draws a tile."""
    if frame.step == 0:
        frame.player = choice[1]
        frame.step = 1
        return
    _, kind, code = choice
    take_from_hand(state.hands[known(frame.player, "player")], kind)
    finish(frame)
    state.stack.append(Frame(DRAW, frame.source, player=frame.player))
    play_tile(state, kind, code)


def draw_after_temple(state: MegalopolisState, frame: Frame) -> None:
    draw(state, known(frame.player, "player"), 1)


def transit_station_options(state: MegalopolisState, frame: Frame) -> Options:
    cells = reachable(state, list(state.board), frame)
    if frame.step == 0:
        return tile_choices(cells) if len(cells) >= 2 else NONE
    chosen = state.serial_cell(frame.chosen)
    return tile_choices([code for code in cells if code != chosen])


def transit_station(state: MegalopolisState, frame: Frame, choice: Choice) -> None:
    """Swap the places of two tiles, with their tokens (first one tile, then the other)."""
    if frame.step == 0:
        frame.chosen = state.board[choice[1]].serial
        frame.step = 1
        return
    first = known(state.serial_cell(frame.chosen), "chosen tile")
    second = choice[1]
    swap_tiles(state, first, second)
    finish(frame)


# --- the table of powers -------------------------------------------------------------

OptionsOf = Callable[[MegalopolisState, Frame], Options]
Resolve = Callable[[MegalopolisState, Frame, Choice], None]
Automatic = Callable[[MegalopolisState, Frame], None]


def no_options(state: MegalopolisState, frame: Frame) -> Options:
    return NONE


OPTIONS: dict[int, OptionsOf] = {
    ARBORETUM: arboretum_options,
    BANK: bank_options,
    CAPITOL: capitol_options,
    CONSTRUCTION_SITE: construction_site_options,
    DISASTER_SITE: disaster_site_options,
    EMBASSY: embassy_options,
    FACTORY: no_options,
    HOTEL: no_options,
    HOUSING: housing_options,
    LIBRARY: library_options,
    MAUSOLEUM: mausoleum_options,
    PLAZA: no_options,
    POLICE_HQ: no_options,
    PORT: port_options,
    POST_OFFICE: post_office_options,
    POWER_STATION: no_options,
    SECURITY_GUARD: security_guard_options,
    SHOPPING_COMPLEX: shopping_complex_options,
    STADIUM: stadium_options,
    TEMPLE: temple_options,
    TRANSIT_STATION: transit_station_options,
    DRAW: no_options,
}
"""The choices a text offers now (none: the text is done)."""

RESOLVE: dict[int, Resolve] = {
    ARBORETUM: arboretum,
    BANK: bank,
    CAPITOL: capitol,
    CONSTRUCTION_SITE: construction_site,
    DISASTER_SITE: disaster_site,
    EMBASSY: embassy,
    HOUSING: housing,
    LIBRARY: library,
    MAUSOLEUM: mausoleum,
    PORT: port,
    POST_OFFICE: post_office,
    SECURITY_GUARD: security_guard,
    SHOPPING_COMPLEX: shopping_complex,
    STADIUM: stadium,
    TEMPLE: temple,
    TRANSIT_STATION: transit_station,
}
"""Carries out the acting player's choice for the texts that ask for one."""

BEGIN: dict[int, Automatic] = {
    FACTORY: factory,
    HOTEL: hotel,
    LIBRARY: library_begin,
    PLAZA: plaza,
    POLICE_HQ: police_hq,
    POWER_STATION: power_station,
}
"""The texts (or parts of texts) that need no choice: done as the text begins."""

END: dict[int, Automatic] = {LIBRARY: library_end, DRAW: draw_after_temple}
"""What happens when a text is done and leaves the stack."""


def frame_options(state: MegalopolisState, frame: Frame) -> Options:
    if frame.step == DONE:
        return NONE
    return OPTIONS[frame.power](state, frame)
