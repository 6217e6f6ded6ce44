"""The rules of Akropolis, in the order of our rules page (docs/rules/akropolis.md):
setup, a turn (its legal actions and what applying one does), the end and the result.

Read with `components` (the tiles), `geometry` (where a tile may go), `city` (placing
one) and `scoring` (a city's points). `spec.Akropolis`, the game object the registry
holds, is these functions behind the engine's contract. Speed lives in `fast/`: the
legal placements and the scores are kept up to date placement by placement
(`fast.city_cache`), equal to the plain rules they stand for.
"""

from __future__ import annotations

import functools
from operator import mul

from engine.akropolis import native
from engine.akropolis.actions import LegalActions, parse_action
from engine.akropolis.city import City
from engine.akropolis.components import COLORS, STARTING_STONES, TILE_HEXES, TILES
from engine.akropolis.geometry import (
    ACTION_CELLS,
    FAR,
    ORIGIN,
    Q_STEP,
    R_STEP,
    TILE_STEPS,
    TRIANGLE_FROM_ANCHOR,
    explain_illegal,
)
from engine.akropolis.scoring import VARIANTS, CityScore, details_json
from engine.akropolis.state import AkropolisState
from engine.core import JSON, IllegalAction, MatchResult, OptionSpec, competition_ranks
from engine.rng import SplitMix64

# --- setup ------------------------------------------------------------------------------

PLAYER_COUNTS: tuple[int, ...] = (2, 3, 4)
STANDARD_STACKS = 11
"""Stacks of players + 1 tiles in a standard game; the players + 2 others are the site."""
ALL_TILES_STACKS = {2: 19, 3: 14}
"""Stacks with the `all_tiles` option (2 or 3 players: all 61 tiles)."""

_VARIANT_HELP = {
    "houses": "variant: the scoring house group's value is doubled if it is 10 or more",
    "markets": "variant: a scoring market next to a market plaza is worth double",
    "barracks": "variant: a scoring barracks with 3 or 4 empty outside neighbours is worth double",
    "temples": "variant: a scoring temple on level 2 or higher is worth double",
    "gardens": "variant: a garden next to a lake (an enclosed empty space) is worth double",
}
OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec("all_tiles", False, "play with all 61 tiles (a longer game)", (2, 3)),
    *(OptionSpec(name, False, _VARIANT_HELP[name]) for name in VARIANTS),
)


def deal(seed: int, players: int, options: dict[str, bool]) -> AkropolisState:
    """Setup, once the options are checked (`OPTIONS`, defaults filled in): the tiles in
    play shuffled by the seed; stacks of players + 1 tiles face down, the rest (players
    + 2) face up in the Construction Site; each player a city of the starting tile and
    their seat's starting stones (1, 2, 3, 4)."""
    all_tiles = options["all_tiles"]
    tiles = list(tiles_in_play(players, all_tiles))
    core = native.CORE
    if core is None:
        SplitMix64(seed).shuffle(tiles)
    else:
        core.shuffle(tiles, SplitMix64(seed).state)  # the same shuffle, in C
    stack_size = players + 1
    stacks_count = ALL_TILES_STACKS[players] if all_tiles else STANDARD_STACKS
    site_size = len(tiles) - stacks_count * stack_size
    if site_size != players + 2:
        raise AssertionError("the rules' tile counts do not add up")
    stacks = [tiles[i : i + stack_size] for i in range(site_size, len(tiles), stack_size)]
    return AkropolisState(
        seed=seed,
        players=players,
        options=options,
        stacks=stacks,
        site=tiles[:site_size],
        stones=list(STARTING_STONES[:players]),
        cities=[City.starting() for _ in range(players)],
    )


@functools.cache
def tiles_in_play(players: int, all_tiles: bool) -> tuple[int, ...]:
    """The ids of the tiles a game deals, sorted (before the shuffle): those for this
    many players (37 / 49 / 61), or all 61."""
    return tuple(sorted(t.id for t in TILES.values() if all_tiles or t.min_players <= players))


# --- a turn -----------------------------------------------------------------------------


def current_player(state: AkropolisState) -> int:
    # A round has players + 1 turns and the Chief Architect passes on each round,
    # so turns simply go round the table.
    return state.turn % state.players


def is_over(state: AkropolisState) -> bool:
    """The game ends when one tile is left in the site and no stack remains (the last
    tile is never played)."""
    return len(state.site) <= 1 and not state.stacks


def legal_actions(state: AkropolisState) -> LegalActions:
    """Every site position the player can pay for (position k costs k stones) crossed
    with every placement in their city, as a lazy product (`actions.LegalActions`)."""
    core = native.CORE
    if core is not None:
        made: LegalActions = core.legal_actions(state)  # the same, in C
        return made
    # `is_over` and `current_player` written out: a playout asks this every turn.
    site = state.site
    if len(site) <= 1 and not state.stacks:
        return LegalActions((), ())
    player = state.turn % state.players
    affordable = range(min(len(site), state.stones[player] + 1))
    city = state.cities[player]
    return LegalActions(affordable, city.legal_triangles(), city)


def apply_action(state: AkropolisState, action: JSON) -> None:
    """A turn: check the action against the rules (IllegalAction saying which one it
    breaks), then `take_and_place`."""
    core = native.CORE
    if core is not None and core.apply_action(state, action):
        # The compiled core took a plain legal action; anything else is checked below,
        # where each refusal is explained (the core left the state as it was).
        return
    site, stones = state.site, state.stones
    if len(site) <= 1 and not state.stacks:  # `is_over`, written out as in `legal_actions`
        raise IllegalAction("the game is over")
    position, q, r, rotation = parse_action(action)
    player = state.turn % state.players
    if not 0 <= position < len(site):
        raise IllegalAction(
            f"tile {position} is not in the Construction Site (positions 0..{len(site) - 1})"
        )
    if position > stones[player]:
        raise IllegalAction(
            f"tile {position} costs {position} stones but player {player} has {stones[player]}"
        )
    if not (-FAR < q < FAR and -FAR < r < FAR):
        raise IllegalAction(f"({q}, {r}) is far outside any city")
    anchor = ORIGIN + q * Q_STEP + r * R_STEP
    triangle = 2 * anchor + TRIANGLE_FROM_ANCHOR[rotation]
    city = state.cities[player]
    if not city.can_cover(triangle):
        raise IllegalAction(
            f"tile cannot be placed at ({q}, {r}) rotation {rotation}: "
            + explain_illegal(city.top, anchor, rotation)
        )
    second, third = TILE_STEPS[rotation]
    take_and_place(state, player, position, triangle, (anchor, anchor + second, anchor + third))


def apply_legal(state: AkropolisState, legal: LegalActions, index: int) -> None:
    """Apply `legal[index]` without checking it again: `legal` must be
    `legal_actions(state)` of this state as it is now, so the action is legal by
    construction (a lookahead trying its own position's moves). Nothing untrusted comes
    this way: the referee applies bots' actions with `apply_action`."""
    core = native.CORE
    if core is not None:
        # The compiled core (`engine.akropolis.native`): this function and
        # `take_and_place`, in C.
        core.apply_legal(state, legal, index)
        return
    if not 0 <= index < legal.size:
        raise IndexError("legal action index out of range")
    triangles = legal.triangles
    tile, rest = divmod(index, 3 * len(triangles))
    triangle = triangles[rest // 3]
    first, second, third = ACTION_CELLS[triangle & 1][rest % 3]
    y = triangle >> 1
    cells = (y + first, y + second, y + third)
    take_and_place(state, state.turn % state.players, legal.tiles[tile], triangle, cells)


def take_and_place(
    state: AkropolisState, player: int, position: int, triangle: int, cells: tuple[int, int, int]
) -> None:
    """The rest of a turn once its action is known legal: take the Construction Site's
    tile at `position` and pay its cost, place it on `cells` (covering `triangle`) and
    take a stone per quarry covered; when one tile is left in the site and stacks
    remain, the next stack is revealed behind it."""
    core = native.CORE
    if core is not None:
        core.take_and_place(state, player, position, triangle, cells)  # the same, in C
        return
    site, stones = state.site, state.stones
    tile_id = site.pop(position)
    # `city_to_change` called only when the city is shared (the check written out).
    city = (
        state.city_to_change(player) if state.shared_cities >> player & 1 else state.cities[player]
    )
    stones[player] += city.place(triangle, cells, TILE_HEXES[tile_id], tile_id) - position
    state.turn += 1
    if len(site) == 1 and state.stacks:
        site.extend(state.stacks.pop(0))


# --- the end: scores and ranks -------------------------------------------------------------


def city_score(state: AkropolisState, player: int) -> CityScore:
    """A player's score with each colour's value and stars (`scoring.score_surface`)."""
    city = state.cities[player]
    running = city.running_score(state.variants)
    return running.city_score(city.top, state.stones[player])


def scores(state: AkropolisState) -> list[int]:
    """Every seat's score now, as `result` would give it if the game ended here: each
    city's points (kept up to date by `apply`, no rescoring) and a point per stone."""
    core = native.CORE
    if core is not None:
        every: list[int] = core.scores(state)  # the same, in C
        return every
    variants = state.variants
    return [
        city.points(variants) + stones
        for city, stones in zip(state.cities, state.stones, strict=True)
    ]


def score(state: AkropolisState, seat: int) -> int:
    """One seat's score of `scores` (the others' are not worked out)."""
    core = native.CORE
    if core is not None:
        points: int = core.score(state, seat)  # the same, in C
        return points
    return state.cities[seat].points(state.variants) + state.stones[seat]


def result(state: AkropolisState) -> MatchResult:
    """The scores as `city_score` has them; ranked by points, then stones left, tied
    players sharing a rank. A city that keeps no running score (a random playout's) is
    scored once, on boards, and starts none: the game is over."""
    totals: list[int] = []
    details: list[JSON] = []
    for city, stones in zip(state.cities, state.stones, strict=True):
        values, stars = city.colour_values(state.variants)
        total = stones + sum(map(mul, values, stars))
        totals.append(total)
        details.append(details_json(stones, total, zip(COLORS, values, stars, strict=True)))
    return MatchResult(
        scores=totals,
        ranks=competition_ranks(list(zip(totals, state.stones, strict=True))),
        details=details,
    )
