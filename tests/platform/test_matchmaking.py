"""The matchmaker's pure pairing function: no database, seeded randomness."""

from __future__ import annotations

from random import Random

import pytest

from agon.ladders.matchmaking import OPPONENT_WINDOW, Candidate, pick_tables


def ladder(size: int, seed: int) -> list[Candidate]:
    """`size` bots with distinct ids, spread ratings and assorted game counts."""
    rng = Random(seed)
    ids = rng.sample(range(1, 10 * size + 1), size)
    return [Candidate(bot, rng.uniform(1000.0, 2000.0), rng.randrange(60)) for bot in ids]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(10))
def test_no_bot_is_seated_twice_nor_repeated_across_tables(players: int, seed: int) -> None:
    candidates = ladder(37, seed)
    tables = pick_tables(candidates, players, 100, Random(seed))
    seated = [bot for table in tables for bot in table]
    assert len(seated) == len(set(seated))
    assert set(seated) <= {c.bot_id for c in candidates}
    assert all(len(table) == players for table in tables)


@pytest.mark.parametrize(
    ("bots", "players", "tables", "expected"),
    [
        (37, 2, 100, 18),  # as many as the free bots allow
        (37, 4, 100, 9),
        (37, 2, 5, 5),  # no more than asked for
        (37, 4, 0, 0),
        (3, 4, 2, 0),  # too few bots for one table
        (0, 2, 2, 0),
    ],
)
def test_respects_the_table_count(bots: int, players: int, tables: int, expected: int) -> None:
    assert len(pick_tables(ladder(bots, 1), players, tables, Random(1))) == expected


def test_deterministic_for_a_seeded_rng_whatever_the_candidate_order() -> None:
    candidates = ladder(50, 3)
    first = pick_tables(candidates, 4, 6, Random(42))
    assert first == pick_tables(candidates, 4, 6, Random(42))
    assert first == pick_tables(list(reversed(candidates)), 4, 6, Random(42))
    assert any(first != pick_tables(candidates, 4, 6, Random(seed)) for seed in range(5))


def test_the_first_table_meets_near_in_rating() -> None:
    """With every bot free, an opponent is one of the anchor's nearest few."""
    candidates = [Candidate(bot, 1000.0 + 10.0 * bot, 30) for bot in range(100)]
    for seed in range(200):
        table = pick_tables(candidates, 2, 1, Random(seed))[0]
        assert abs(table[0] - table[1]) <= OPPONENT_WINDOW


def test_opponents_vary() -> None:
    """Bot 50, new and so often the anchor, meets several of its neighbours."""
    candidates = [Candidate(bot, 1000.0 + 10.0 * bot, 0 if bot == 50 else 30) for bot in range(100)]
    opponents: set[int] = set()
    for seed in range(200):
        for table in pick_tables(candidates, 2, 1, Random(seed)):
            if 50 in table:
                opponents.update(set(table) - {50})
    assert len(opponents) >= 2


def seated_share(candidates: list[Candidate], bot: int, trials: int = 2000) -> float:
    hits = sum(
        any(bot in table for table in pick_tables(candidates, 2, 1, Random(seed)))
        for seed in range(trials)
    )
    return hits / trials


def test_bots_with_few_games_are_favoured_as_anchors() -> None:
    """One table among 30 bots: a bot new to its version gets it far more often than
    the same bot with many games."""
    veterans = [Candidate(bot, 1000.0 + 40.0 * bot, 200) for bot in range(30)]
    newcomer = [*veterans[:10], Candidate(10, veterans[10].rating, 0), *veterans[11:]]
    new_share, old_share = seated_share(newcomer, 10), seated_share(veterans, 10)
    assert new_share > 0.3
    assert new_share > 3 * old_share
