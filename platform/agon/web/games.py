"""The games as the pages present them: names, player counts and a line about each."""

from __future__ import annotations

from dataclasses import dataclass

from engine.registry import UnknownGame, game_ids, get_spec


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
        spec = get_spec(game_id)
        found.append(GameInfo(spec.id, spec.name, spec.game.player_counts, spec.blurb))
    return found


def game_name(game_id: str) -> str:
    """The game's name; a game no longer registered keeps its id."""
    try:
        return get_spec(game_id).name
    except UnknownGame:
        return game_id


def board_renderer(game_id: str) -> str:
    """The viewer's renderer for the game: web/games/<name>.js of agon_kit.viewer, or
    "text" (the spectator's text) for a game without one or no longer registered."""
    try:
        return get_spec(game_id).renderer or "text"
    except UnknownGame:
        return "text"
