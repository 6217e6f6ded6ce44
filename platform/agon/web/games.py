"""The games as the pages present them: names, player counts and a line about each."""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import game_ids, get_game

BLURBS = {
    "akropolis": "Build a city of hex tiles, stack them for height and buy the best ones "
    "with stones; districts score by level and by the stars of their plazas.",
    "architekton": "Two builders lay buildings and landscapes in a checkerboard; edges "
    "that match win points, mismatches cost them.",
    "attika": "Grow Athens across a hex map made during play: draw and build 30 buildings "
    "with landscape cards, or link two shrines first.",
    "megalopolis": "Play tiles with powers, place your tokens and control the largest "
    "groups of the city, from 2 to 6 players.",
}


@dataclass(frozen=True)
class GameInfo:
    id: str
    name: str
    player_counts: tuple[int, ...]
    blurb: str

    @property
    def players_text(self) -> str:
        counts = self.player_counts
        if len(counts) == 1:
            return f"{counts[0]} players"
        return f"{counts[0]}\N{EN DASH}{counts[-1]} players"


def games() -> list[GameInfo]:
    found = []
    for game_id in game_ids():
        game = get_game(game_id)
        found.append(GameInfo(game.id, game.name, game.player_counts, BLURBS.get(game.id, "")))
    return found


def game_name(game_id: str) -> str:
    return GAME_NAMES.get(game_id, game_id)


GAME_NAMES = {game_id: get_game(game_id).name for game_id in game_ids()}
