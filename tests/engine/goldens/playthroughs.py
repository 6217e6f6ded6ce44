"""Golden playthroughs of every game: fixed matches written out turn by turn.

A golden is a match fixed by its game, seed, player count, options and builtin bots. Its
file in `tests/engine/goldens/<game>/` holds, for every action, the seat that took it,
the action, the turn number and scores after it, and short hashes of what it left behind:
the state's JSON (`state`), every seat's observation (`seen`), and the spectator's views
and text render (`shown`); then the final result. One short match per game also keeps
its whole replay, to pin the replay format. A file has one line per action, so the diff
of a regenerated file starts at the first action that plays differently.

tests/engine/test_goldens.py plays every golden again and compares; any change in setup,
legal actions, effects, scoring, serialization, observations, views or a builtin bot's
choices fails it. Regenerate (`python -m tests.engine.goldens`) only after such a change
made on purpose; review the diff, and bump the game's rules_version if old replays
would now play differently.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.bots import builtin_bot
from engine.core import JSON, Game
from engine.match import play_match
from engine.registry import get_game, get_spec

GOLDEN_DIR = Path(__file__).resolve().parent
REGENERATE = "python -m tests.engine.goldens"
ABOUT = f"golden playthrough; only after a deliberate rule change: {REGENERATE}"
HASH_CHARS = 10

AKROPOLIS_VARIANTS: dict[str, JSON] = dict.fromkeys(
    ("houses", "markets", "barracks", "temples", "gardens"), True
)


@dataclass(frozen=True)
class Golden:
    game: str
    name: str
    seed: int
    bots: tuple[str, ...]
    options: dict[str, JSON] = field(default_factory=dict)
    keep_replay: bool = False
    """Store the whole replay too (one short match per game)."""

    @property
    def players(self) -> int:
        return len(self.bots)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / self.game / f"{self.name}.json"

    @property
    def id(self) -> str:
        return f"{self.game}/{self.name}"


def _mixed(players: int) -> tuple[str, ...]:
    return tuple("greedy" if seat % 2 == 0 else "random" for seat in range(players))


GOLDENS: tuple[Golden, ...] = (
    Golden("akropolis", "two-players-random", 1, ("random",) * 2, keep_replay=True),
    Golden("akropolis", "three-players-all-variants", 2, ("random",) * 3, AKROPOLIS_VARIANTS),
    Golden("akropolis", "four-players-greedy-and-random", 3, _mixed(4)),
    Golden("akropolis", "two-players-all-tiles", 4, ("random",) * 2, {"all_tiles": True}),
    Golden(
        "akropolis",
        "three-players-greedy-all-tiles-and-variants",
        5,
        ("greedy",) * 3,
        {**AKROPOLIS_VARIANTS, "all_tiles": True},
    ),
    Golden("architekton", "two-players-random", 1, ("random",) * 2, keep_replay=True),
    Golden("architekton", "two-players-greedy", 2, ("greedy",) * 2),
    Golden("architekton", "two-players-greedy-and-random", 3, _mixed(2)),
    Golden("attika", "two-players-random", 1, ("random",) * 2, keep_replay=True),
    Golden("attika", "three-players-greedy-and-random", 2, _mixed(3)),
    Golden("attika", "four-players-random", 3, ("random",) * 4),
    Golden("megalopolis", "two-players-random", 1, ("random",) * 2, keep_replay=True),
    Golden("megalopolis", "three-players-greedy-and-random", 2, _mixed(3)),
    Golden("megalopolis", "four-players-greedy", 3, ("greedy",) * 4),
    Golden("megalopolis", "five-players-random", 4, ("random",) * 5),
    Golden("megalopolis", "six-players-greedy-and-random", 5, _mixed(6)),
)


def digest(value: JSON) -> str:
    """A short hash of a JSON value (key order ignored, list order kept)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:HASH_CHARS]


def position(game: Game[Any], state: Any) -> dict[str, JSON]:
    """What a golden keeps of a position: turn, scores and hashes of everything shown."""
    spectator = get_spec(game.id).spectator()
    players = len(game.result(state).scores)
    seen = [game.observation(state, seat) for seat in range(players)]
    shown = [
        spectator.view(state, reveal=False),
        spectator.view(state, reveal=True),
        game.render_text(state),
    ]
    return {
        "turn": game.turn_number(state),
        "scores": game.result(state).scores,
        "state": digest(game.state_to_json(state)),
        "seen": digest(seen),
        "shown": digest(shown),
    }


def build_golden(golden: Golden) -> dict[str, Any]:
    """Play the golden's match and collect what its file holds."""
    game = get_game(golden.game)
    turns: list[dict[str, JSON]] = []

    def on_turn(state: Any, seat: int, action: JSON) -> None:
        turns.append({"seat": seat, "action": action, **position(game, state)})

    bots = [builtin_bot(name, game.id, golden.seed, seat) for seat, name in enumerate(golden.bots)]
    replay = play_match(
        game,
        seed=golden.seed,
        players=golden.players,
        options=dict(golden.options),
        bots=bots,
        bot_ids=list(golden.bots),
        on_turn=on_turn,
    )
    return {
        "about": ABOUT,
        "game": golden.game,
        "name": golden.name,
        "seed": golden.seed,
        "players": golden.players,
        "options": replay.options,
        "bots": list(golden.bots),
        "start": position(game, game.new_state(golden.seed, golden.players, golden.options)),
        "result": replay.result,
        "faults": replay.faults,
        "replay": replay.to_json() if golden.keep_replay else None,
        "turns": turns,
    }


def golden_text(data: dict[str, Any]) -> str:
    """Canonical JSON with one line per header field and per turn, so that the same golden
    always gives the same bytes and a diff points at the turns that changed."""

    def line(value: JSON) -> str:
        return json.dumps(value, sort_keys=True, separators=(",", ":"))

    header = [f"{line(key)}: {line(value)}," for key, value in data.items() if key != "turns"]
    turns = ",\n".join(line(turn) for turn in data["turns"])
    text = "{\n" + "\n".join(header) + '\n"turns": [\n' + turns + "\n]}\n"
    assert json.loads(text) == data, "golden_text must write exactly the golden"
    return text


def read_golden(golden: Golden) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(golden.path.read_text(encoding="utf-8"))
    return data
