"""Megalopolis' compiled core (`engine.megalopolis.native`) against the pure-Python engine.

The score's parts of every player (`scoring.score_parts`) are worked out both ways on
every state of random and greedy games, on copies a move ahead, and on made-up boards of
any shape (dense, scattered, tokens of several players on one tile, groups just under
and at the scoring size); whole games and the goldens must play the same byte for byte
with the core and without. Its loader falls back to pure Python, saying so in one line,
wherever the core cannot be used. Where the core is not built these tests skip, or fail
where AGON_TEST_REQUIRE asks for it (`make test`).
"""

from __future__ import annotations

from types import ModuleType
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bots import builtin_bot
from engine.megalopolis import native
from engine.megalopolis.components import BONUS, SILVER, SMALLEST_SCORING_GROUP
from engine.megalopolis.scoring import score_parts
from engine.megalopolis.state import MegalopolisState, Tile
from engine.rng import SplitMix64
from engine.squaregrid import encode
from tests.engine.goldens.playthroughs import GOLDENS, Golden, build_golden, golden_text
from tests.engine.megalopolis.support import GAME
from tests.engine.support import property_settings
from tests.required import missing


@pytest.fixture
def core(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The compiled core, set up, whatever AGON_PURE_PYTHON says."""
    monkeypatch.delenv(native.PURE_PYTHON_VARIABLE, raising=False)
    module = native.load_core()
    if module is None:
        missing("compiled-core", "Megalopolis' compiled core is not built here (`make venv`)")
    return module


def same_parts(core: ModuleType, state: MegalopolisState) -> None:
    assert core.score_parts(state.board, state.players) == score_parts(state)


def game_states(seed: int, players: int, greedy_seats: int) -> list[MegalopolisState]:
    """Every state of a game whose first `greedy_seats` seats play the greedy bot (which
    goes for the score) and the others at random, and after each turn a copy one random
    move ahead (what a lookahead scores)."""
    state = GAME.new_state(seed, players, {})
    rng = SplitMix64(seed)
    bots = [builtin_bot("greedy", GAME.id, seed, seat) for seat in range(greedy_seats)]
    seen = [GAME.copy_state(state)]
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        seat = GAME.current_player(state)
        twin = GAME.copy_state(state)
        GAME.apply(twin, legal[rng.below(len(legal))])
        seen.append(twin)
        if seat < greedy_seats:
            GAME.apply(state, bots[seat].act(GAME.observation(state, seat), legal))
        else:
            GAME.apply(state, legal[rng.below(len(legal))])
        seen.append(GAME.copy_state(state))
    return seen


@settings(
    property_settings(10),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.integers(min_value=0, max_value=2**64 - 1),
    st.sampled_from([2, 3, 4, 5, 6]),
    st.integers(min_value=0, max_value=6),
)
def test_every_state_of_random_and_greedy_games_scores_the_same_in_c_and_in_python(
    core: ModuleType, seed: int, players: int, greedy_seats: int
) -> None:
    for state in game_states(seed, players, min(greedy_seats, players)):
        same_parts(core, state)


CELLS = st.tuples(st.integers(-7, 7), st.integers(-7, 7))
TOKEN = st.one_of(st.just(0), st.just(0), st.integers(0, 3), st.just(10**30))
"""Mostly no token, sometimes a few, once in a while a count no board has: `if count:`."""


@st.composite
def boards(draw: st.DrawFn) -> tuple[int, dict[int, Tile]]:
    """A made-up board of any shape: cells scattered or packed in a 15 x 15 window, any
    kind, tokens of any players on any tile."""
    players = draw(st.integers(2, 6))
    cells = draw(st.lists(CELLS, max_size=120, unique=True))
    board = {}
    for serial, (x, y) in enumerate(cells):
        kind = draw(st.integers(0, len(BONUS) - 1))
        tokens = draw(st.lists(TOKEN, min_size=players, max_size=players))
        board[encode(x, y)] = Tile(kind, serial, draw(st.booleans()), tokens)
    return players, board


def painted(players: int, board: dict[int, Tile]) -> MegalopolisState:
    state = GAME.new_state(1, players, {})
    state.board = board
    return state


@settings(
    property_settings(300),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(boards())
def test_made_up_boards_of_any_shape_score_the_same_in_c_and_in_python(
    core: ModuleType, drawn: tuple[int, dict[int, Tile]]
) -> None:
    same_parts(core, painted(*drawn))


@pytest.mark.parametrize("length", [0, 1, SMALLEST_SCORING_GROUP - 1, SMALLEST_SCORING_GROUP, 9])
def test_lines_just_under_and_at_the_scoring_size(core: ModuleType, length: int) -> None:
    """A line of one player's tiles (scored from the scoring size up), a second player on
    every other one of them, a full 9 x 9 square of the third, diagonal touches only."""
    board = {encode(x, 0): Tile(x % len(BONUS), x, True, [1, x % 2, 0]) for x in range(length)}
    board |= {
        encode(x, y): Tile((x * y) % len(BONUS), 100 + 9 * x + y, True, [0, 0, 2])
        for x in range(20, 29)
        for y in range(9)
    }
    board |= {encode(40 + k, k): Tile(k, 300 + k, True, [1, 1, 1]) for k in range(5)}
    state = painted(3, board)
    same_parts(core, state)
    groups, _, _, largest = core.score_parts(state.board, 3)[0]
    assert largest == max(length, 1)
    assert groups == (length if length >= SMALLEST_SCORING_GROUP else 0)
    assert core.score_parts(state.board, 3)[2][3] == 81


def test_the_empty_board_scores_nothing(core: ModuleType) -> None:
    assert core.score_parts({}, 4) == [(0, 0, 0, 0)] * 4 == score_parts(painted(4, {}))


def test_the_core_refuses_what_is_not_a_board(core: ModuleType) -> None:
    class OtherTile(Tile):
        __slots__ = ()

    class NotSlotted:
        kind = 0
        tokens: ClassVar[list[int]] = []

    tile = Tile(0, 0, True, [1, 0])
    with pytest.raises(TypeError):
        core.score_parts([tile], 2)
    with pytest.raises(TypeError, match="a Tile expected"):
        core.score_parts({encode(0, 0): "not a tile"}, 2)
    with pytest.raises(TypeError, match="a Tile expected"):
        core.score_parts({encode(0, 0): OtherTile(0, 0, True, [1, 0])}, 2)
    with pytest.raises(TypeError, match="a cell code"):
        core.score_parts({(0, 0): tile}, 2)
    with pytest.raises(ValueError, match="a cell code"):
        core.score_parts({2**62: tile}, 2)
    with pytest.raises(ValueError, match="a tile's kind"):
        core.score_parts({0: Tile(len(BONUS), 0, True, [1, 0])}, 2)
    with pytest.raises(ValueError, match="a tile's kind"):
        core.score_parts({0: Tile(-1, 0, True, [1, 0])}, 2)
    with pytest.raises(TypeError, match="a tile's kind"):
        core.score_parts({0: Tile(True, 0, True, [1, 0])}, 2)
    with pytest.raises(ValueError, match="one count per player"):
        core.score_parts({0: tile}, 3)
    with pytest.raises(ValueError, match="one count per player"):
        core.score_parts({0: Tile(0, 0, True, (1, 0))}, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="ints expected"):
        core.score_parts({0: Tile(0, 0, True, [1.0, 0])}, 2)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="players"):
        core.score_parts({}, 0)
    with pytest.raises(AttributeError):
        core.score_parts({0: Tile.__new__(Tile)}, 2)
    with pytest.raises(ValueError, match="wrong sizes"):
        core.setup(Tile, (1, 2, 3), BONUS, (False,) * len(BONUS), 3)
    with pytest.raises(TypeError, match="not a slot"):
        core.setup(NotSlotted, (1, 2, 3, 4), BONUS, (False,) * len(BONUS), 3)
    # a refused setup leaves the core as it was
    assert core.score_parts({0: tile}, 2) == [(0, BONUS[0], int(SILVER[0]), 1), (0, 0, 0, 0)]


# --- whole games -----------------------------------------------------------------------


def transcript(seed: int, players: int) -> list[str]:
    """What a game of greedy bots shows, turn by turn (the greedy bot reads the scores):
    the actions, and every few turns a copy's result a move ahead; then the result."""
    state = GAME.new_state(seed, players, {})
    bots = [builtin_bot("greedy", GAME.id, seed, seat) for seat in range(players)]
    shown = []
    while not GAME.is_over(state):
        legal = GAME.legal_actions(state)
        seat = GAME.current_player(state)
        action = bots[seat].act(GAME.observation(state, seat), legal)
        shown.append(str(action))
        if state.turn % 3 == 0:
            twin = GAME.copy_state(state)
            GAME.apply(twin, legal[len(legal) - 1])
            shown.append(str(GAME.result(twin).to_json()))
        GAME.apply(state, action)
    shown.append(str(GAME.result(state).to_json()))
    return shown


def test_greedy_games_play_the_same_with_the_core_and_without(
    core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    setups = [(21, 2), (22, 4), (23, 6)]
    monkeypatch.setattr(native, "CORE", core)
    compiled = [transcript(*setup) for setup in setups]
    monkeypatch.setattr(native, "CORE", None)
    assert compiled == [transcript(*setup) for setup in setups]


MEGALOPOLIS_GOLDENS = [golden for golden in GOLDENS if golden.game == "megalopolis"]


@pytest.mark.parametrize("golden", MEGALOPOLIS_GOLDENS, ids=lambda g: g.id)
@pytest.mark.parametrize("compiled", [True, False], ids=["core", "pure-python"])
def test_the_goldens_play_byte_for_byte_with_the_core_and_without(
    golden: Golden, compiled: bool, core: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(native, "CORE", core if compiled else None)
    assert golden_text(build_golden(golden)) == golden.path.read_text()
