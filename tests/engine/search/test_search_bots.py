"""The search bots: deterministic from their seed, always legal, bounded by their
iterations, guided by the greedy bots, and stronger than chance."""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from engine.bots import SEARCH_BOTS, builtin_bot
from engine.core import MatchResult, compact_json
from engine.match import play_match
from engine.players import Player, RandomBot
from engine.registry import get_game, get_spec
from engine.rng import SplitMix64, derive_seed
from engine.search.bot import LEVELS, Level, SearchBot
from engine.search.guided import open_candidates, ranked
from engine.search.uct import Searcher, margin_rewards, pairwise_rewards

GAMES = ["akropolis", "architekton", "attika", "megalopolis"]

TINY = Level(iterations=8, determinizations=2, candidates=4, horizon=4)
"""A level small enough to play whole games of every size in the suite."""


def play(game_id: str, players: int, seed: int, bots: list[Player]) -> Any:
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=bots,
        bot_ids=[f"bot{seat}" for seat in range(players)],
    )


def greedy_positions(game_id: str, count: int, seed: int = 3) -> list[tuple[Any, Any]]:
    """Observations and legal actions of `count` decisions spread over a greedy match."""
    game = get_game(game_id)
    state = game.new_state(seed, 2, {})
    bots = [builtin_bot("greedy", game_id, seed, seat) for seat in range(2)]
    seen = []
    while not game.is_over(state):
        seat = game.current_player(state)
        observation, legal = game.observation(state, seat), game.legal_actions(state)
        if len(legal) > 1:
            seen.append((observation, legal))
        game.apply(state, bots[seat].act(observation, legal))
    step = max(1, len(seen) // count)
    return seen[step // 2 :: step][:count]


def test_the_levels_grow_weakest_first() -> None:
    levels = [LEVELS[name] for name in SEARCH_BOTS]
    assert [level.iterations for level in levels] == sorted({level.iterations for level in levels})
    for lower, higher in itertools.pairwise(levels):
        # more deals seen, not only the same few more often; longer and wider
        assert higher.determinizations > lower.determinizations
        assert higher.candidates > lower.candidates
        assert (higher.horizon or 0) >= (lower.horizon or 0)


def test_a_builtin_search_bot_is_seeded_from_the_match_seed_its_name_and_seat() -> None:
    bot = builtin_bot("mcts-2", "architekton", 17, 1)
    assert isinstance(bot, SearchBot)
    assert bot.level == LEVELS["mcts-2"]
    assert bot.rng.state == derive_seed(17, "mcts-2", 1)


@pytest.mark.parametrize("game_id", ["akropolis", "architekton", "attika", "megalopolis"])
def test_the_same_seed_plays_the_same_moves(game_id: str) -> None:
    def replay() -> Any:
        bots: list[Player] = [builtin_bot("mcts-1", game_id, 5, 0), RandomBot(9)]
        return play(game_id, 2, 5, bots).to_json()

    first = replay()
    assert replay() == first
    other = [SearchBot(game_id, LEVELS["mcts-1"], 6), RandomBot(9)]
    assert play(game_id, 2, 5, list(other)).to_json()["actions"] != first["actions"]


@pytest.mark.parametrize(
    ("game_id", "players"),
    [
        ("akropolis", 2),
        ("akropolis", 3),
        ("akropolis", 4),
        ("architekton", 2),
        ("attika", 2),
        ("attika", 3),
        ("attika", 4),
        ("megalopolis", 2),
        ("megalopolis", 3),
        ("megalopolis", 4),
        ("megalopolis", 6),
    ],
)
def test_every_move_is_legal_over_many_seeds(game_id: str, players: int) -> None:
    game = get_game(game_id)
    for seed in range(3):
        searching = seed % players  # the other seats play at random, which costs less
        bot = SearchBot(game_id, TINY, seed)
        others = RandomBot(seed)
        state = game.new_state(seed, players, {})
        while not game.is_over(state):
            seat = game.current_player(state)
            legal = game.legal_actions(state)
            if seat != searching:
                game.apply(state, others.act(None, legal))
                continue
            action = bot.act(game.observation(state, seat), legal)
            assert compact_json(action) in {compact_json(a) for a in legal}
            game.apply(state, action)


@pytest.mark.parametrize("game_id", ["akropolis", "architekton", "attika", "megalopolis"])
def test_a_decision_runs_exactly_its_iterations_and_no_more_playout_moves(game_id: str) -> None:
    game = get_game(game_id)
    state = game.new_state(4, 2, {})
    rng = RandomBot(4)
    for _ in range(6):  # a little way in
        game.apply(state, rng.act(None, game.legal_actions(state)))
    seat = game.current_player(state)
    level = LEVELS["mcts-1"]
    bot = SearchBot(game_id, level, 1)
    bot.act(game.observation(state, seat), game.legal_actions(state))
    assert bot.last.iterations == level.iterations
    assert bot.last.determinizations == level.determinizations
    assert 0 < bot.last.playout_moves <= level.iterations * (level.horizon or 0)


@pytest.fixture
def no_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any look at a clock fails: a decision's work is its iterations, never a time."""

    def clock() -> float:
        raise AssertionError("a search bot read a clock")

    for name in ("time", "monotonic", "perf_counter", "process_time", "thread_time"):
        monkeypatch.setattr(time, name, clock)
        monkeypatch.setattr(time, f"{name}_ns", clock)


@pytest.mark.usefixtures("no_clock")
@pytest.mark.parametrize("name", SEARCH_BOTS)
@pytest.mark.parametrize("game_id", GAMES)
def test_every_level_decides_alike_from_one_seed_within_its_bounds_and_no_clock(
    game_id: str, name: str
) -> None:
    level = LEVELS[name]
    [(observation, legal)] = greedy_positions(game_id, 1)
    decided = []
    for _ in range(2):
        bot = SearchBot(game_id, level, 11)
        decided.append((compact_json(bot.act(observation, legal)), bot.last))
    assert decided[0] == decided[1]
    stats = decided[0][1]
    assert stats.iterations == level.iterations
    assert stats.determinizations == level.determinizations
    assert 1 < stats.candidates <= level.candidates
    assert 0 < stats.playout_moves <= level.iterations * (level.horizon or 0)


@pytest.mark.parametrize("game_id", GAMES)
def test_a_single_iteration_plays_the_greedy_move(game_id: str) -> None:
    """The greedy bot's choice is the first candidate: the guide is the greedy bot."""
    one = Level(iterations=1, determinizations=1, candidates=4, horizon=1)
    for number, (observation, legal) in enumerate(greedy_positions(game_id, 6)):
        greedy = builtin_bot("greedy", game_id, 1, 0).act(observation, legal)
        searched = SearchBot(game_id, one, number).act(observation, legal)
        assert compact_json(searched) == compact_json(greedy)


def test_candidates_open_one_by_one_the_greedy_move_first() -> None:
    opened = [open_candidates(done, 12) for done in (0, 1, 2, 8, 18, 32, 128, 392, 10_000)]
    assert opened == [1, 1, 2, 3, 4, 5, 9, 12, 12]
    assert ranked([3.0, 7.0, 3.0, 9.0, 7.0], 4) == [3, 1, 4, 0]


@pytest.mark.parametrize("game_id", GAMES)
def test_a_search_tries_no_more_candidates_than_widening_has_opened(game_id: str) -> None:
    level = Level(iterations=9, determinizations=3, candidates=8, horizon=2)
    for number, (observation, legal) in enumerate(greedy_positions(game_id, 3)):
        bot = SearchBot(game_id, level, number)
        bot.act(observation, legal)
        assert bot.last.candidates <= min(open_candidates(8, 8), len(legal))


def test_attika_standing_counts_the_buildings_or_more_near_two_shrines() -> None:
    spec = get_spec("attika")
    assert spec.standing is not None
    game = spec.game
    state = game.new_state(2, 2, {})
    bots = [builtin_bot("greedy", "attika", 2, seat) for seat in range(2)]
    while not game.is_over(state):
        standing = spec.standing(state)
        placed = game.result(state).scores
        assert all(mine >= built for mine, built in zip(standing, placed, strict=True))
        seat = game.current_player(state)
        game.apply(state, bots[seat].act(game.observation(state, seat), game.legal_actions(state)))


def test_a_forced_move_is_played_without_searching() -> None:
    bot = SearchBot("architekton", LEVELS["mcts-3"], 1)
    assert bot.act({}, [{"only": 1}]) == {"only": 1}
    assert bot.last.iterations == 0


@pytest.mark.parametrize("game_id", ["akropolis", "architekton", "megalopolis"])
def test_mcts_1_beats_random_in_most_games(game_id: str) -> None:
    won = 0
    for seed in range(4):
        seat = seed % 2
        bots: list[Player] = [RandomBot(seed), RandomBot(seed)]
        bots[seat] = builtin_bot("mcts-1", game_id, seed, seat)
        ranks = play(game_id, 2, seed, bots).result["ranks"]
        won += ranks[seat] == 1 and ranks[1 - seat] == 2
    assert won >= 3


def test_a_finished_game_rewards_each_seat_its_share_of_pairwise_meetings() -> None:
    assert pairwise_rewards(MatchResult(scores=[5, 9, 5], ranks=[2, 1, 2])) == [0.25, 1.0, 0.25]
    assert pairwise_rewards(MatchResult(scores=[3, 3], ranks=[1, 1])) == [0.5, 0.5]


def test_an_unfinished_game_rewards_a_larger_lead_more_and_stays_within_0_and_1() -> None:
    close, wide = margin_rewards([50, 48]), margin_rewards([90, 10])
    assert 0.5 < close[0] < wide[0] < 1.0
    assert 0.0 < wide[1] < close[1] < 0.5
    assert close[0] + close[1] == pytest.approx(1.0)
    assert margin_rewards([7, 7, 7]) == [0.5, 0.5, 0.5]


def test_a_root_given_an_order_tries_those_moves_alone_best_first() -> None:
    game = get_game("architekton")
    state = game.new_state(2, 2, {})
    searcher = Searcher(game, SplitMix64(1), horizon=2)
    root = searcher.root(state, [5, 2, 0])
    for _ in range(9):
        searcher.iterate(root, state)
    assert list(root.children) == [5, 2, 0]
    assert root.visits == sum(child.visits for child in root.children.values()) == 9
    unordered = searcher.root(state)
    for _ in range(3):
        searcher.iterate(unordered, state)
    assert len(unordered.children) == 3
    assert list(unordered.children) != [len(unordered.legal or []) - 1 - n for n in range(3)]
