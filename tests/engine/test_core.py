"""engine.core: ranks, faults in the ranking, option checking, the protocol's JSON."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core import (
    InvalidOptions,
    MatchResult,
    OptionSpec,
    compact_json,
    competition_ranks,
    normalize_options,
    ranks_with_faults,
)
from tests.games.nim.rules import NIM


@pytest.mark.parametrize(
    ("keys", "ranks"),
    [
        ([(10,), (20,), (15,)], [3, 1, 2]),
        ([(10, 1), (10, 3), (9, 9)], [2, 1, 3]),
        ([(10, 3), (10, 3), (9, 9)], [1, 1, 3]),
        ([(5, 0), (7, 0), (7, 0), (7, 0)], [4, 1, 1, 1]),
        ([(1,)], [1]),
    ],
)
def test_competition_ranks_share_ties_and_skip_the_places_they_take(
    keys: list[tuple[int, ...]], ranks: list[int]
) -> None:
    assert competition_ranks(keys) == ranks


def test_a_faulted_seat_ranks_below_every_seat_that_did_not_fault() -> None:
    result = MatchResult(scores=[90, 10, 50], ranks=[1, 3, 2])
    assert ranks_with_faults(result, {0}) == [3, 2, 1]


def test_faulted_seats_keep_their_order_among_themselves() -> None:
    result = MatchResult(scores=[90, 10, 50, 40], ranks=[1, 4, 2, 3])
    assert ranks_with_faults(result, {0, 2}) == [3, 2, 4, 1]


def test_without_faults_the_games_ranks_stand() -> None:
    result = MatchResult(scores=[5, 5, 1], ranks=[1, 1, 3])
    assert ranks_with_faults(result, set()) == [1, 1, 3]


def test_a_match_result_serializes_its_three_fields() -> None:
    result = MatchResult(scores=[1, 2], ranks=[2, 1], details=[{"a": 1}, {"a": 2}])
    assert result.to_json() == {"scores": [1, 2], "ranks": [2, 1], "details": [{"a": 1}, {"a": 2}]}


SPECS = (OptionSpec("long", False, "a longer game", (2, 3)), OptionSpec("fast", True, "quick"))


def test_it_fills_option_defaults() -> None:
    assert normalize_options(SPECS, 4, {}) == {"long": False, "fast": True}


def test_it_keeps_the_options_given() -> None:
    assert normalize_options(SPECS, 2, {"long": True, "fast": False}) == {
        "long": True,
        "fast": False,
    }


def test_it_rejects_an_unknown_option_and_names_the_known_ones() -> None:
    with pytest.raises(InvalidOptions, match=r"unknown option.*speedy.*known: fast, long"):
        normalize_options(SPECS, 2, {"speedy": True})


@pytest.mark.parametrize("value", [1, 0, "yes", None, [True]])
def test_it_rejects_an_option_that_is_not_a_boolean(value: object) -> None:
    with pytest.raises(InvalidOptions, match="must be true or false"):
        normalize_options(SPECS, 2, {"fast": value})


def test_it_rejects_an_option_switched_on_for_a_player_count_it_is_not_for() -> None:
    with pytest.raises(InvalidOptions, match="only for 2/3 players"):
        normalize_options(SPECS, 4, {"long": True})


def test_an_option_for_some_player_counts_may_be_switched_off_for_the_others() -> None:
    assert normalize_options(SPECS, 4, {"long": False})["long"] is False


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6) | st.integers(), inner, max_size=4)
    ),
    max_leaves=20,
)


@given(JSON_VALUES)
def test_compact_json_writes_what_json_dumps_writes(value: object) -> None:
    """`compact_json` calls the C encoder directly: the same text as `json.dumps` with
    the protocol's settings, and the same refusal of NaN and infinities."""
    try:
        expected = json.dumps(value, separators=(",", ":"), allow_nan=False)
    except ValueError:
        with pytest.raises(ValueError, match="not JSON compliant"):
            compact_json(value)
    else:
        assert compact_json(value) == expected


def test_a_game_that_writes_no_observation_text_has_the_observation_encoded() -> None:
    """`Game.observation_text`'s default, for a game that subclasses the contract."""
    state = NIM.new_state(3, 2, {})
    state.pile -= 2
    for seat in (0, 1):
        text = NIM.observation_text(state, seat)
        assert text == compact_json(NIM.observation(state, seat))
        assert json.loads(text) == NIM.observation(state, seat)
