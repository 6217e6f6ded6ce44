"""What a player sees: the table, every board, their own cards, and nothing else hidden."""

from __future__ import annotations

import json

import pytest

from engine.attika import AttikaState
from engine.attika.components import BUILDINGS, LANDSCAPES
from engine.attika.spectator import AttikaSpectator
from engine.hexgrid import decode
from tests.engine.attika.support import GAME, play_to_turn, reshuffle_hidden


@pytest.fixture(params=[(2, 30), (3, 55), (4, 80)])
def midgame(request: pytest.FixtureRequest) -> AttikaState:
    seed = 40 + request.param[0]
    return play_to_turn(seed, request.param[0], request.param[1])


def test_it_says_whose_view_and_whose_turn_it_is(midgame: AttikaState) -> None:
    seen = GAME.observation(midgame, 1)
    assert seen["game"] == "attika" and seen["player"] == 1
    assert seen["players"] == midgame.players and seen["turn"] == midgame.turn
    assert seen["current_player"] == GAME.current_player(midgame)


def test_it_shows_the_viewers_own_hand_every_board_and_only_counts_of_the_rest(
    midgame: AttikaState,
) -> None:
    for viewer in range(midgame.players):
        seen = GAME.observation(midgame, viewer)
        seat = midgame.seats[viewer]
        assert [seen["hand"][name] for name in LANDSCAPES] == seat.hand
        assert seen["board"] == [BUILDINGS[b].id for b in seat.board]
        for player, info in enumerate(seen["seats"]):
            other = midgame.seats[player]
            assert set(info) == {
                "hand_size",
                "board_size",
                "board",
                "stack_sizes",
                "amphorae",
                "amphora_groups",
                "buildings_on_map",
                "colonies",
            }
            assert info["hand_size"] == sum(other.hand)
            assert info["board_size"] == len(other.board)
            assert info["board"] == [BUILDINGS[b].id for b in other.board]
            assert info["stack_sizes"] == [len(stack) for stack in other.stacks]


def test_the_other_players_boards_are_public_so_a_free_build_can_be_blocked() -> None:
    """The rules lay each stack's top building "face visible" on its owner's board: at
    the start every player sees the four buildings each other player may build next.
    Decision #boards-public."""
    state = GAME.new_state(5, 3, {})
    for viewer in range(3):
        seen = GAME.observation(state, viewer)
        for player, info in enumerate(seen["seats"]):
            dealt = state.seats[player].board
            assert len(dealt) == 4
            assert info["board"] == [BUILDINGS[b].id for b in dealt]


def test_a_spectator_sees_every_board_before_the_end(midgame: AttikaState) -> None:
    """Decision #boards-public."""
    view = AttikaSpectator().view(midgame, reveal=False)
    boards = [seat["board"] for seat in view["seats"]]
    assert boards == [[BUILDINGS[b].id for b in seat.board] for seat in midgame.seats]
    assert all(seat["hand"] is None for seat in view["seats"])


def test_a_rebuilt_state_holds_the_other_players_real_boards(midgame: AttikaState) -> None:
    viewer = GAME.current_player(midgame)
    guess = GAME.state_from_observation(GAME.observation(midgame, viewer))
    assert [seat.board for seat in guess.seats] == [seat.board for seat in midgame.seats]


def test_it_shows_every_building_on_the_map(midgame: AttikaState) -> None:
    seen = GAME.observation(midgame, 0)
    shown = {
        (h["player"], h["building"], h["q"], h["r"])
        for h in seen["map"]["hexes"]
        if h["player"] is not None
    }
    expected = {
        (player, BUILDINGS[b].id, *decode(cell))
        for player, seat in enumerate(midgame.seats)
        for b, cell in seat.placed.items()
    }
    assert shown == expected


def test_nothing_hidden_from_the_viewer_changes_what_they_see(midgame: AttikaState) -> None:
    """Decision #boards-public."""
    for viewer in range(midgame.players):
        seen = GAME.observation(midgame, viewer)
        for seed in range(3):
            other = reshuffle_hidden(midgame, viewer, seed)
            assert GAME.observation(other, viewer) == seen


def test_the_seed_and_the_prng_are_never_shown(midgame: AttikaState) -> None:
    text = json.dumps(GAME.observation(midgame, 0))
    assert "seed" not in text and "rng" not in text and 'deck"' not in text
    assert "stacks" not in text and "tile_pile" not in text


def test_a_building_just_drawn_is_shown_to_its_drawer_only() -> None:
    """Decision #drawn-building-private."""
    state = GAME.new_state(9, 3, {})
    GAME.apply(state, {"type": "draw", "stack": 1})
    # A fixed seed: were the building kept automatically, pick another seed (a skip here
    # would hide the test for good).
    assert state.pending is not None and state.pending.kind == "drawn", "pick another seed"
    drawn = BUILDINGS[state.pending.building].id
    assert GAME.observation(state, 0)["pending"]["building"] == drawn
    assert GAME.observation(state, 1)["pending"]["building"] is None
    assert GAME.observation(state, 1)["pending"]["stack"] == 1


def test_a_state_rebuilt_from_an_observation_gives_the_same_view_and_choices(
    midgame: AttikaState,
) -> None:
    viewer = GAME.current_player(midgame)
    seen = json.loads(json.dumps(GAME.observation(midgame, viewer)))
    guess = GAME.state_from_observation(seen)
    assert GAME.observation(guess, viewer) == seen
    assert list(GAME.legal_actions(guess)) == list(GAME.legal_actions(midgame))
    for player, seat in enumerate(guess.seats):
        real = midgame.seats[player]
        assert sum(seat.hand) == sum(real.hand) and len(seat.board) == len(real.board)
        assert [len(s) for s in seat.stacks] == [len(s) for s in real.stacks]
    assert len(guess.deck) == len(midgame.deck)
    assert sorted(guess.tile_pile) == sorted(midgame.tile_pile)


def test_a_rebuilt_state_can_be_played_on_for_lookahead(midgame: AttikaState) -> None:
    viewer = GAME.current_player(midgame)
    guess = GAME.state_from_observation(GAME.observation(midgame, viewer))
    for action in list(GAME.legal_actions(guess))[:20]:
        after = GAME.copy_state(guess)
        GAME.apply(after, action)
        GAME.result(after)
