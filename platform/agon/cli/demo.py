"""`agon demo`: a live ladder of builtin bots in the terminal, rated as the ladders rate.

A look at a game without the platform (no server, no database): matches of each of the
game's player counts in turn, between the builtin bots and blends of them, one after
another, with the ratings table redrawn after each match.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from competition import ratings
from engine.bots import builtin_bot
from engine.core import JSON
from engine.match import play_match
from engine.players import Player
from engine.registry import get_game
from engine.rng import SplitMix64, derive_seed

if TYPE_CHECKING:
    from rich.console import Group
    from rich.text import Text


class BlendBot(Player):
    """Plays greedy, except for a share of turns where it plays at random."""

    def __init__(self, greedy: Player, random: Player, random_share: float, seed: int) -> None:
        self.greedy, self.random = greedy, random
        self.threshold = int(random_share * 1000)
        self.rng = SplitMix64(seed)

    def act(self, observation: JSON, legal_actions: Sequence[JSON]) -> JSON:
        chosen = self.random if self.rng.below(1000) < self.threshold else self.greedy
        return chosen.act(observation, legal_actions)


@dataclass
class Entrant:
    name: str
    random_share: float
    rating: ratings.RatingEstimate = field(default_factory=ratings.initial)
    games: int = 0
    wins: int = 0

    def make_bot(self, game_id: str, seed: int, seat: int) -> Player:
        if self.random_share >= 1.0:
            return builtin_bot("random", game_id, seed, seat)
        greedy = builtin_bot("greedy", game_id, seed, seat)
        if self.random_share <= 0.0:
            return greedy
        random = builtin_bot("random", game_id, seed, seat)
        return BlendBot(greedy, random, self.random_share, derive_seed(seed, self.name, seat))


def default_entrants(seats: int) -> list[Entrant]:
    """Greedy, random and blends between them: at least two more than `seats`, the most
    the game seats, so every match draws its players from a larger field."""
    count = max(5, seats + 2)
    entrants = [Entrant("builtin:greedy", 0.0)]
    for step in range(1, count - 1):
        random_share = step / (count - 1)
        entrants.append(Entrant(f"greedy-{round(100 * (1 - random_share))}", random_share))
    return [*entrants, Entrant("builtin:random", 1.0)]


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "demo",
        help="watch a live demo ladder of the builtin bots",
        description="Play a ladder of builtin bots (greedy, random and blends of the two) "
        "and redraw the ratings table after every match. Stop with Ctrl-C.",
    )
    parser.add_argument("--game", default="akropolis", help="game id (default: akropolis)")
    parser.add_argument(
        "--matches", type=int, default=0, help="stop after N matches (0: run until Ctrl-C)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the first match (default: 1)")
    parser.add_argument(
        "--replays", type=Path, metavar="DIR", help="also write each match's replay here"
    )
    parser.set_defaults(run=run)


def _bar(rating: float, low: float, high: float, width: int = 24) -> Text:
    # rich is imported here so that the other commands start fast.
    from rich.text import Text

    share = 0.5 if high <= low else (rating - low) / (high - low)
    filled = max(1, round(share * width))
    return Text("█" * filled, style="cyan") + Text("░" * (width - filled), style="grey30")


def render(entrants: list[Entrant], recent: list[str], played: int) -> Group:
    # rich is imported here so that the other commands start fast.
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"Agon demo ladder — {played} matches played", expand=False)
    for column, justify in (
        ("#", "right"),
        ("bot", "left"),
        ("rating", "right"),
        ("", "left"),
        ("games", "right"),
        ("wins", "right"),
    ):
        table.add_column(column, justify=justify)  # type: ignore[arg-type]
    ordered = sorted(entrants, key=lambda e: -e.rating.value)
    low = min(e.rating.value for e in entrants) - 20
    high = max(e.rating.value for e in entrants)
    for place, entrant in enumerate(ordered, start=1):
        table.add_row(
            str(place),
            entrant.name,
            ratings.display(entrant.rating),
            _bar(entrant.rating.value, low, high),
            str(entrant.games),
            str(entrant.wins),
        )
    return Group(table, Text("\n".join(recent[-6:]), style="grey70"))


def run(args: argparse.Namespace) -> int:
    # rich is imported here so that the other commands start fast.
    from rich.console import Console
    from rich.live import Live

    game = get_game(args.game)
    entrants = default_entrants(max(game.player_counts))
    console = Console()
    if args.replays:
        args.replays.mkdir(parents=True, exist_ok=True)
    recent: list[str] = []
    picker = SplitMix64(args.seed)
    played = 0
    with Live(
        render(entrants, recent, played), console=console, auto_refresh=False, transient=False
    ) as live:
        while args.matches <= 0 or played < args.matches:
            seed = args.seed + played
            players = game.player_counts[played % len(game.player_counts)]
            pool = list(entrants)
            picker.shuffle(pool)
            seated = pool[:players]
            replay = play_match(
                game,
                seed=seed,
                players=players,
                options={},
                bots=[e.make_bot(game.id, seed, seat) for seat, e in enumerate(seated)],
                bot_ids=[e.name for e in seated],
            )
            ranks = replay.result["ranks"]
            afters = ratings.update([e.rating for e in seated], ranks, [e.games for e in seated])
            for entrant, rank, after in zip(seated, ranks, afters, strict=True):
                entrant.rating = after
                entrant.games += 1
                entrant.wins += rank == 1
            if args.replays:
                replay.write(args.replays / f"{game.id}-{seed}.json")
            played += 1
            line = f"match {played} (seed {seed}, {players} players): " + ", ".join(
                f"{e.name} {score}"
                for e, score in zip(seated, replay.result["scores"], strict=True)
            )
            recent.append(line)
            if not console.is_terminal:
                console.print(line)
            live.update(render(entrants, recent, played), refresh=True)
    return 0
