"""What happens to the table outside the turn's bookkeeping: landscape cards taken
(with the discard reshuffled by the state's seeded PRNG when the deck runs out) and a
building put on the map (with the win or the amphora it may bring)."""

from __future__ import annotations

from engine.attika.colonies import group_joined
from engine.attika.components import BUILDING_COUNT, GROUP_OF
from engine.attika.fast.map_rules import shrines_touched
from engine.attika.state import AttikaState
from engine.rng import SplitMix64


def take_cards(state: AttikaState, player: int, count: int) -> None:
    """Draw landscape cards, reshuffling the discard when the deck runs out."""
    hand = state.seats[player].hand
    for _ in range(count):
        if not state.deck:
            if not any(state.discard):
                return
            reshuffle(state)
        hand[state.deck.pop(0)] += 1


def reshuffle(state: AttikaState) -> None:
    cards = [landscape for landscape, n in enumerate(state.discard) for _ in range(n)]
    rng = SplitMix64(state.rng_state)
    rng.shuffle(cards)
    state.rng_state = rng.state
    state.deck = cards
    state.discard = [0, 0, 0, 0]


def place_building(state: AttikaState, player: int, building: int, cell: int) -> None:
    """Put the building on the map and settle what follows: a win, or an amphora."""
    seat = state.seats[player]
    seat.placed[building] = cell
    colony = state.caches.index.add_building(player, building, cell)
    if len(seat.placed) == BUILDING_COUNT:
        _win(state, player, "all_buildings")
    elif shrines_touched(state, player, colony) >= 2:  # colonies.shrines_linked(...) >= 2
        _win(state, player, "shrines")
    if state.over:
        return
    group = GROUP_OF[building]
    if group not in seat.amphora_groups and group_joined(state, player, group):
        seat.amphora_groups.append(group)
        seat.amphora_groups.sort()
        if state.amphora_supply:
            state.amphora_supply -= 1
            seat.amphorae += 1
        else:
            # A reward, not a forgone action: it does not end the player's draws or builds.
            take_cards(state, player, 1)


def _win(state: AttikaState, player: int, reason: str) -> None:
    state.winner = player
    state.win_reason = reason
    state.over = True
    state.pending = None
