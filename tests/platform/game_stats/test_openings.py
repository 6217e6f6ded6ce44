"""Openings read the same across deals: the viewer's words for a seat's first action,
without what differs from match to match (a tile's number, a cell of a map built during
play); bounded, and never failing on an action they do not expect."""

from __future__ import annotations

import re

import pytest

from agon.game_stats.digests import replay_digest
from agon.game_stats.openings import MAX_LABEL, opening_label
from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import get_game
from engine.replay import Replay


def played(game_id: str, players: int, seed: int) -> Replay:
    return play_match(
        get_game(game_id),
        seed=seed,
        players=players,
        options={},
        bots=[builtin_bot("greedy", game_id, seed, seat) for seat in range(players)],
        bot_ids=[f"seat{seat}" for seat in range(players)],
    )


@pytest.mark.parametrize(
    ("game_id", "players", "shape"),
    [
        ("akropolis", 2, r"tile [1-9] of the site \((free|\d stones?)\) at \(-?\d+, -?\d+\)"),
        ("akropolis", 4, r"tile [1-9] of the site \((free|\d stones?)\) at \(-?\d+, -?\d+\)"),
        ("architekton", 2, r"placed a building at \(-?\d+, -?\d+\)"),
        ("attika", 3, r"(built the [A-Z][\w ]+ \([\w ]+\)|drew a building from .+)"),
        ("megalopolis", 2, r"[a-z].*[A-Za-z]"),
    ],
)
def test_every_seat_gets_an_opening_of_its_games_shape(
    game_id: str, players: int, shape: str
) -> None:
    digest = replay_digest(played(game_id, players, seed=7))

    assert set(digest.openings) == set(range(players))
    for label in digest.openings.values():
        assert re.fullmatch(shape, label), label
        assert not re.search(r"at \(-?\d+, -?\d+\)", label) or game_id in (
            "akropolis",
            "architekton",
        )


def test_the_same_choice_on_two_deals_reads_the_same() -> None:
    # The greedy bot opens from the first place of the site, to the same cell, whatever
    # tile the deal put there: one opening, though the viewer names two tiles.
    first = replay_digest(played("akropolis", 2, seed=7)).openings[0]
    second = replay_digest(played("akropolis", 2, seed=8)).openings[0]

    assert first == second


def test_attika_and_megalopolis_openings_name_no_cell() -> None:
    assert (
        opening_label("attika", "built the Agora (City) at (-2, 6)", {}) == "built the Agora (City)"
    )
    assert opening_label("megalopolis", "played a Stadium at (-2, 0)", {}) == "played a Stadium"
    assert (
        opening_label("attika", "placed map tile 3 with its centre at (1, -1), turned 2", {})
        == "placed map tile 3, turned 2"
    )


def test_an_action_of_an_unexpected_shape_falls_back_to_the_viewers_words() -> None:
    assert opening_label("akropolis", "something odd", ["not", "a", "dict"]) == "something odd"
    assert opening_label("akropolis", "odd", {"tile": "x", "q": 0, "r": 0}) == "odd"
    assert opening_label("no-such-game", "as said", {}) == "as said"


def test_a_label_is_bounded_and_on_one_line() -> None:
    label = opening_label("attika", "drew\n" + "a" * 1000, {})

    assert len(label) == MAX_LABEL
    assert "\n" not in label and label.endswith("…")


def test_the_openings_are_in_the_order_the_seats_first_acted() -> None:
    replay = played("megalopolis", 3, seed=7)
    game = get_game("megalopolis")
    first = game.current_player(game.new_state(7, 3, {}))

    digest = replay_digest(replay)

    assert next(iter(digest.openings)) == first
