"""The games and player counts every environment test covers."""

from __future__ import annotations

from engine.registry import get_game

GAMES = ("akropolis", "architekton", "attika", "megalopolis")

CASES = [(game, players) for game in GAMES for players in get_game(game).player_counts]
"""Every game with every player count it is played by."""


def case_id(case: tuple[str, int]) -> str:
    return f"{case[0]}-{case[1]}p"
