"""`fast.map_rules`: the map's questions and a build's cost answered from the kept tables
must be the plain rules' answers (`map.tile_centres`, `map.tile_fits`, `map.free_cells`,
`costs.build_cost`, `colonies.shrines_linked`): every few decisions of random games,
for every player, every building and cells free or not."""

from __future__ import annotations

from hypothesis import given

from engine.attika import costs
from engine.attika.colonies import shrines_linked
from engine.attika.components import BUILDING_COUNT
from engine.attika.fast import map_rules
from engine.attika.map import free_cells, tile_centres, tile_fits
from tests.engine.attika.support import random_game
from tests.engine.attika.test_properties import Setup, setups
from tests.engine.support import property_settings


@property_settings(8)
@given(setups)
def test_the_kept_answers_are_the_plain_rules_answers(setup: Setup) -> None:
    for state, chosen in random_game(*setup):
        if chosen is not None and state.turn % 5:
            continue
        centres = tile_centres(state)
        assert map_rules.tile_centres(state) == centres
        free = free_cells(state)
        for cell in [*free[::7], *centres[::9]]:
            assert map_rules.is_free(state, cell) == (cell in free)
            assert map_rules.tile_fits(state, cell) == tile_fits(state, cell)
        for player, seat in enumerate(state.seats):
            for building in range(0, BUILDING_COUNT, 3):
                for cell in free[player::5]:
                    assert map_rules.build_cost(state, player, building, cell) == (
                        costs.build_cost(state, player, building, cell)
                    )
            colony_of = state.caches.index.colony_of[player]
            for cell in seat.placed.values():
                linked = shrines_linked(state, player, cell) >= 2
                assert (map_rules.shrines_touched(state, player, colony_of[cell]) >= 2) == linked
