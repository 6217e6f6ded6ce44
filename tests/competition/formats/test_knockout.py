from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from competition.formats.core import ScheduledGame
from competition.formats.knockout import (
    SUDDEN_DEATH_GAMES,
    TIEBREAK_PAIRS,
    Bracket,
    Knockout,
    seeded_slots,
)
from tests.competition.formats.support import (
    draws,
    play_out,
    random_results,
    ranks_by,
    stronger_wins,
)


def test_eight_seeds_sit_in_the_standard_bracket_order() -> None:
    assert seeded_slots(8) == [0, 7, 3, 4, 1, 6, 2, 5]


@given(st.integers(2, 70))
def test_the_top_seeds_meet_only_as_late_as_possible(entrants: int) -> None:
    slots = seeded_slots(entrants)
    size = len(slots)
    assert size >= entrants > size // 2 or entrants == 2
    assert sorted(s for s in slots if s is not None) == list(range(entrants))
    for parts in (2, 4, 8):  # halves, quarters, eighths
        if parts > size:
            break
        section = {slot: place * parts // size for place, slot in enumerate(slots)}
        top = range(min(parts, entrants))
        assert len({section[seed] for seed in top}) == len(top)


@given(st.integers(2, 40))
def test_byes_go_to_the_top_seeds(entrants: int) -> None:
    slots = seeded_slots(entrants)
    with_bye = {
        a if b is None else b
        for a, b in zip(slots[::2], slots[1::2], strict=True)
        if None in (a, b)
    }
    assert with_bye == set(range(len(with_bye)))


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6))
def test_single_elimination_puts_out_every_bot_but_one_exactly_once(
    entrants: int, seed: int
) -> None:
    knockout = Knockout(entrants, seed)
    results = play_out(knockout, random_results(seed))
    ties = knockout.ties(results)
    assert len(ties) == entrants - 1
    losers = Counter(bot for tie in ties for bot in tie.bots if tie.advancing != (bot,))
    assert set(losers.values()) == {1} and len(losers) == entrants - 1


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 20), st.integers(0, 10**6))
def test_double_elimination_puts_out_a_bot_on_its_second_loss(entrants: int, seed: int) -> None:
    knockout = Knockout(entrants, seed, double=True)
    results = play_out(knockout, random_results(seed))
    ties = knockout.ties(results)
    losses = Counter(bot for tie in ties for bot in tie.bots if tie.advancing != (bot,))
    champion = knockout.standings(results)[0].bot
    assert losses[champion] <= 1
    assert all(losses[bot] == 2 for bot in range(entrants) if bot != champion)


def test_seeds_one_and_two_meet_in_the_final_when_the_stronger_always_wins() -> None:
    for double in (False, True):
        knockout = Knockout(12, 5, double=double)
        results = play_out(knockout, stronger_wins)
        final = knockout.ties(results)[-1]
        assert final.bots == (0, 1) and final.advancing == (0,)
        assert [s.bot for s in knockout.standings(results)[:2]] == [0, 1]


def test_the_losers_champion_forces_a_reset_by_winning_the_grand_final() -> None:
    def upset_in_the_final(game: ScheduledGame) -> tuple[int, ...]:
        if game.tie == "GF":
            return ranks_by(sorted(range(2), key=lambda seat: -game.bots[seat]))
        return stronger_wins(game)

    knockout = Knockout(4, 1, double=True)
    results = play_out(knockout, upset_in_the_final)
    assert [tie.name for tie in knockout.ties(results)][-2:] == ["GF", "GF2"]
    assert knockout.standings(results)[0].bot == 0


def test_a_level_tie_goes_to_tie_break_pairs_then_sudden_death_then_the_better_seed() -> None:
    knockout = Knockout(2, 1, meetings=2)
    results = play_out(knockout, draws)
    assert len(results) == 2 * 2 + 2 * TIEBREAK_PAIRS + SUDDEN_DEATH_GAMES
    sudden = [r.game for r in results][-SUDDEN_DEATH_GAMES:]
    assert [g.bots for g in sudden[:2]] == [(0, 1), (1, 0)]
    assert len({g.seed for g in sudden}) == SUDDEN_DEATH_GAMES
    assert knockout.standings(results)[0].bot == 0


def test_sudden_death_ends_on_the_first_won_game() -> None:
    def second_seed_wins_the_third_sudden_game(game: ScheduledGame) -> tuple[int, ...]:
        if game.index == 2 + 2 * TIEBREAK_PAIRS + 2:
            return ranks_by(sorted(range(2), key=lambda seat: -game.bots[seat]))
        return draws(game)

    knockout = Knockout(2, 1)
    results = play_out(knockout, second_seed_wins_the_third_sudden_game)
    assert len(results) == 2 + 2 * TIEBREAK_PAIRS + 3
    assert knockout.standings(results)[0].bot == 1


@settings(max_examples=30, deadline=None)
@given(st.integers(3, 30), st.integers(3, 6), st.integers(0, 10**6))
def test_heats_send_the_top_half_of_each_table_through(
    entrants: int, players: int, seed: int
) -> None:
    knockout = Knockout(entrants, seed, players=players)
    results = play_out(knockout, random_results(seed))
    *heats, final = knockout.ties(results)
    for tie in [*heats, final]:
        assert 2 <= len(tie.bots) <= players
        assert tie.advancing is not None and len(tie.advancing) == len(tie.bots) // 2
    assert final.name == "F" and final.advancing is not None
    assert knockout.standings(results)[0].bot == final.advancing[0]


def test_heats_crown_the_strongest_when_the_stronger_always_wins() -> None:
    knockout = Knockout(16, 1, players=4)
    standings = knockout.standings(play_out(knockout, stronger_wins))
    assert [s.bot for s in standings[:4]] == [0, 1, 2, 3]


def _tables(bracket: Bracket) -> list[tuple[int, str]]:
    return sorted((tie.round, tie.name) for tie in [*bracket.ties, *bracket.byes])


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 40), st.booleans(), st.integers(0, 10**6))
def test_the_outline_has_the_tables_of_any_play_out_but_a_reset(
    entrants: int, double: bool, seed: int
) -> None:
    knockout = Knockout(entrants, seed, double=double)
    played = knockout.run(play_out(knockout, random_results(seed)))
    without_reset = [table for table in _tables(played) if table[1] != "GF2"]
    assert _tables(knockout.outline()) == without_reset


def test_the_outline_of_six_seeds_gives_the_two_best_a_bye() -> None:
    outline = Knockout(6, 1).outline()
    assert [(bye.name, bye.bots) for bye in outline.byes] == [("R1.1", (0,)), ("R1.3", (1,))]
    assert [tie.name for tie in outline.ties] == ["R1.2", "R1.4", "R2.1", "R2.2", "R3"]


def test_the_outline_of_heats_has_every_heat_table_and_the_final() -> None:
    outline = Knockout(13, 1, players=4).outline()
    # 13 dealt to 4 tables in snake order; the top halves, 5 then 2 bots, go through.
    tables = " ".join(f"{tie.name}:{len(tie.bots)}" for tie in outline.ties)
    assert tables == "H1.1:3 H1.2:3 H1.3:3 H1.4:4 H2.1:3 H2.2:2 F:2"
    assert outline.byes == []
