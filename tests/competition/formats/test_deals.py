"""No two games of an event are dealt alike: a bot that remembers one game's face-down
stacks, hands and piles (by any channel between sandboxes, docs/threat-model.md) learns
nothing of another's, not even the second game of its own meeting."""

from __future__ import annotations

import json

import pytest

from competition.formats.core import ScheduledGame, deal_seed, meeting
from competition.formats.gauntlet import Gauntlet
from competition.formats.knockout import Knockout
from competition.formats.round_robin import RoundRobin
from competition.formats.swiss import Swiss
from competition.version_pairing import pair_legs
from engine.registry import game_ids, get_game
from tests.competition.formats.support import Format, play_out, random_results

EVENTS: dict[str, Format] = {
    "round robin of 5, 2 meetings": RoundRobin(5, 7, 2, 2),
    "round robin of 6 at tables of 3": RoundRobin(6, 7, 3),
    "Swiss of 7 (byes), 2 meetings": Swiss(7, 7, rounds=3, meetings=2),
    "Swiss of 8 at tables of 4": Swiss(8, 7, rounds=3, players=4),
    "knockout of 8, 2 meetings": Knockout(8, 7, meetings=2),
    "double elimination of 6 (byes, sudden death)": Knockout(6, 7, double=True),
    "gauntlet of 4, 3 meetings": Gauntlet(4, 7, 3),
}


@pytest.mark.parametrize("name", list(EVENTS))
def test_every_game_of_a_tournament_is_dealt_afresh(name: str) -> None:
    played = [r.game for r in play_out(EVENTS[name], random_results(3)) if not r.game.is_bye]
    deals = [deal_seed(game) for game in played]
    assert len(played) > 1 and len(set(deals)) == len(deals)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_every_game_of_a_version_test_is_dealt_afresh(players: int) -> None:
    games = [game for number in range(50) for leg in pair_legs(number, 7, players) for game in leg]
    deals = [deal_seed(game) for game in games]
    assert len(set(deals)) == len(deals) == 50 * (2 if players == 2 else 4)


def test_a_game_played_again_after_a_failure_is_dealt_afresh() -> None:
    game = meeting(1, "0-1", (0, 1), 7)[0]
    assert len({deal_seed(game, replay) for replay in range(5)}) == 5


def test_a_deal_is_the_same_wherever_the_game_is_played() -> None:
    """`agon tournament` on a laptop and the platform deal a game alike: one function of
    the game's seed, its place in the meeting and its replays, and of nothing else."""
    game = ScheduledGame(3, "0-1", 1, (1, 0), 2**64 - 1)
    assert deal_seed(game) == deal_seed(ScheduledGame(3, "0-1", 1, (1, 0), 2**64 - 1))
    assert deal_seed(game) != deal_seed(ScheduledGame(3, "0-1", 0, (0, 1), 2**64 - 1))
    assert 0 <= deal_seed(game) < 2**64


def _dealt(game_id: str, seed: int, players: int) -> str:
    rules = get_game(game_id)
    return json.dumps(rules.state_to_json(rules.new_state(seed, players, {})), sort_keys=True)


@pytest.mark.parametrize("game_id", game_ids())
def test_the_two_games_of_a_meeting_hide_different_stacks_hands_and_piles(game_id: str) -> None:
    """The attack this closes: on one seed, the second game of a meeting set out exactly
    what the first did, so a bot that kept the first game's revealed order knew the
    second's face-down order before any of it was shown."""
    players = min(get_game(game_id).player_counts)
    games = meeting(1, "0-1", range(players), 7)
    assert _dealt(game_id, games[0].seed, players) == _dealt(game_id, games[1].seed, players)
    dealt = {_dealt(game_id, deal_seed(game), players) for game in games}
    assert len(dealt) == len(games)
