"""`fast.builds`: where each building can be built, priced by groups of cells, must be
what the plain rule gives (`costs.legal_builds`, every free cell priced on its own):
every decision of random games, and adversarial hands (empty, one card short of a
cost, enough for anything, lopsided) on the positions they reach."""

from __future__ import annotations

from hypothesis import given

from engine.attika import AttikaState, costs
from engine.attika.actions import BuildOptions
from engine.attika.components import BUILDING_COUNT
from engine.attika.fast import builds
from engine.rng import SplitMix64
from tests.engine.attika.support import GAME, random_game
from tests.engine.attika.test_properties import Setup, setups
from tests.engine.support import property_settings

ALL_BUILDINGS = range(BUILDING_COUNT)


def listed(options: BuildOptions) -> list[tuple[int, list[int]]]:
    """The options with their cells as lists (the fast path may give kept tuples)."""
    return [(building, list(cells)) for building, cells in options]


def assert_builds_agree(state: AttikaState, player: int) -> None:
    seat = state.seats[player]
    fast = builds.legal_builds(state, player, seat.board)
    assert listed(fast) == listed(costs.legal_builds(state, player, seat.board))


@property_settings(8)
@given(setups)
def test_the_grouped_pricing_finds_the_cells_each_priced_alone_finds(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        if chosen is None or state.turn % 6:
            continue
        assert_builds_agree(state, GAME.current_player(state))


@property_settings(3)
@given(setups)
def test_adversarial_hands_get_the_same_cells_as_the_plain_rule(setup: Setup) -> None:
    seed, _ = setup
    rng = SplitMix64(seed)
    for state, chosen in random_game(*setup):
        if chosen is None or state.turn % 40 != 20:
            continue
        for hand in ([0, 0, 0, 0], [1, 0, 0, 0], [0, 0, 0, 9], [20, 20, 20, 20]):
            for player in range(state.turn % state.players, state.players, 2):
                twin = GAME.copy_state(state)
                twin.seats[player].hand = [n + rng.below(2) * (n > 0) for n in hand]
                twin.rebuild_caches()
                fast = builds.legal_builds(twin, player, ALL_BUILDINGS)
                assert listed(fast) == listed(costs.legal_builds(twin, player, ALL_BUILDINGS))
