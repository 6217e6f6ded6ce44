"""The matchmaker's pure pairing function: no database, seeded randomness."""

from __future__ import annotations

import statistics
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agon.ladders.matchmaking import (
    MAX_MEETINGS,
    PAIR_MEMORY,
    Candidate,
    LadderLoad,
    Pair,
    match_quality,
    meetings,
    pair,
    pair_memory,
    pick_tables,
    share_out,
)


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


def test_the_first_table_meets_near_in_rating_mostly() -> None:
    """With every bot free, an opponent is mostly near the anchor, sometimes further."""
    candidates = [Candidate(bot, 1000.0 + 10.0 * bot, 30, 60.0) for bot in range(200)]
    gaps = []
    for seed in range(400):
        table = pick_tables(candidates, 2, 1, Random(seed))[0]
        gaps.append(10.0 * abs(table[0] - table[1]))
    assert statistics.median(gaps) < 200.0
    assert sum(gap <= 100.0 for gap in gaps) > 2 * sum(300.0 < gap <= 400.0 for gap in gaps)
    assert max(gaps) > 300.0


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


def load(
    ladder_id: int, players: int, bots: int, recent: int, free: int | None = None
) -> LadderLoad:
    return LadderLoad(ladder_id, players, bots, bots if free is None else free, recent)


def test_the_next_match_goes_to_the_ladder_whose_bots_played_least_lately() -> None:
    busy, idle = load(1, 2, bots=8, recent=40), load(2, 2, bots=8, recent=4)
    assert share_out([busy, idle], 3) == {2: 3}


def test_shares_even_out_games_per_bot_not_matches() -> None:
    """A 4-player match gives twice the games of a 2-player one: with the same bots and
    no match lately, the 2-player ladder gets twice the matches."""
    two, four = load(1, 2, bots=40, recent=0), load(2, 4, bots=40, recent=0)
    assert share_out([two, four], 6) == {1: 4, 2: 2}


def test_a_ladder_gets_no_more_tables_than_its_free_bots_fill() -> None:
    starved = load(1, 4, bots=9, recent=0, free=5)  # room for one table
    other = load(2, 2, bots=8, recent=50)
    assert share_out([starved, other], 4) == {1: 1, 2: 3}
    assert share_out([load(1, 4, bots=3, recent=0), load(2, 2, bots=2, recent=0, free=1)], 4) == {}


@pytest.mark.parametrize("seed", range(20))
def test_the_shares_add_up_and_fit_the_free_bots(seed: int) -> None:
    rng = Random(seed)
    loads = []
    for ladder_id in range(1, 8):
        bots = rng.randrange(0, 20)
        loads.append(
            load(ladder_id, rng.randrange(2, 7), bots, rng.randrange(30), rng.randrange(bots + 1))
        )
    wanted = rng.randrange(0, 30)
    shares = share_out(loads, wanted)
    assert sum(shares.values()) <= wanted
    for item in loads:
        assert shares.get(item.ladder_id, 0) * item.players <= item.free
    room = sum(item.free // item.players for item in loads)
    assert sum(shares.values()) == min(wanted, room)


# Matchmaking by information: its bounds as properties, its preferences by sampling.

candidate_lists = st.lists(
    st.builds(
        Candidate,
        bot_id=st.integers(1, 60),
        rating=st.floats(800.0, 2400.0),
        version_games=st.integers(0, 100),
        deviation=st.one_of(st.none(), st.floats(30.0, 350.0)),
        overdue=st.booleans(),
    ),
    max_size=40,
    unique_by=lambda c: c.bot_id,
)


@given(
    candidates=candidate_lists,
    players=st.integers(2, 4),
    tables=st.integers(0, 12),
    met_pairs=st.dictionaries(
        st.tuples(st.integers(1, 60), st.integers(1, 60)).map(lambda p: pair(*p)),
        st.integers(0, 2 * MAX_MEETINGS),
    ),
    seed=st.integers(0, 2**32),
)
@settings(max_examples=300, deadline=None)
def test_no_pair_meets_more_than_the_bound_allows(
    candidates: list[Candidate], players: int, tables: int, met_pairs: dict[Pair, int], seed: int
) -> None:
    chosen = pick_tables(candidates, players, tables, Random(seed), met_pairs)
    seated = [bot for table in chosen for bot in table]
    assert len(seated) == len(set(seated)) and len(chosen) <= tables
    assert all(len(table) == players for table in chosen)
    for table in chosen:
        for i, one in enumerate(table):
            for other in table[i + 1 :]:
                assert met_pairs.get(pair(one, other), 0) < MAX_MEETINGS


@given(candidates=candidate_lists, players=st.integers(2, 4), seed=st.integers(0, 2**32))
@settings(max_examples=300, deadline=None)
def test_an_overdue_bot_is_seated_whenever_its_ladder_plays(
    candidates: list[Candidate], players: int, seed: int
) -> None:
    """However sure its rating: the overdue are anchored first, so with as many tables as
    the free bots fill, every overdue bot plays (up to one per table)."""
    tables = len(candidates) // players
    overdue = sorted(c.bot_id for c in candidates if c.overdue)[:tables]
    seated = {
        bot for table in pick_tables(candidates, players, tables, Random(seed)) for bot in table
    }
    assert set(overdue) <= seated


def test_bots_with_unsure_ratings_are_favoured_as_anchors() -> None:
    sure = [Candidate(bot, 1000.0 + 40.0 * bot, 200, 50.0) for bot in range(30)]
    unsure = [*sure[:10], Candidate(10, sure[10].rating, 200, 300.0), *sure[11:]]
    assert seated_share(unsure, 10) > 3 * seated_share(sure, 10)


def test_match_quality_favours_near_ratings_and_sure_opponents() -> None:
    anchor = Candidate(1, 1500.0, 0, 300.0)
    near, far = Candidate(2, 1550.0, 0, 80.0), Candidate(3, 1800.0, 0, 80.0)
    near_but_unsure = Candidate(4, 1550.0, 0, 300.0)
    assert match_quality(anchor, near) == pytest.approx(match_quality(near, anchor))
    assert match_quality(anchor, near) > match_quality(anchor, far)
    assert match_quality(anchor, near) > match_quality(anchor, near_but_unsure)
    assert 0 < match_quality(anchor, far) < 1


def test_the_pair_memory_is_a_round_robins_worth_of_matches_within_bounds() -> None:
    assert pair_memory(8, 2) == 28
    assert pair_memory(8, 4) == 5  # 28 pairs, 6 a table
    assert pair_memory(200, 2) == PAIR_MEMORY
    assert pair_memory(0, 2) == 1
    assert meetings([[1, 2, 3], [2, 1]]) == {(1, 2): 2, (1, 3): 1, (2, 3): 1}


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(10))
def test_no_table_seats_two_bots_of_one_owner(players: int, seed: int) -> None:
    rng = Random(seed)
    bots = [
        Candidate(bot, rng.uniform(1000.0, 2000.0), rng.randrange(60), owner=bot % 4)
        for bot in range(1, 13)
    ]
    tables = pick_tables(bots, players, tables=6, rng=Random(seed))
    owners = {c.bot_id: c.owner for c in bots}
    assert tables, "four owners fill tables of up to four seats"
    for table in tables:
        assert len({owners[bot] for bot in table}) == len(table), table


def test_one_owners_bots_alone_play_no_ranked_table() -> None:
    bots = [Candidate(bot, 1500.0, 0, owner=7) for bot in range(1, 9)]
    assert pick_tables(bots, 2, tables=4, rng=Random(1)) == []


def test_a_house_accounts_bots_may_meet_each_other() -> None:
    """The example bots of `agon up` are one account's: owner None, so their ladder plays."""
    bots = [Candidate(bot, 1500.0, 0, owner=None) for bot in range(1, 9)]
    assert len(pick_tables(bots, 4, tables=2, rng=Random(1))) == 2
