"""Regenerate the Akropolis golden playthroughs in tests/engine/akropolis/goldens/.

A golden is a fixed match (seed, player count, options, builtin bots) written out as its
replay plus, after every 10th turn and at the end, the full state JSON and each player's
score. tests/engine/akropolis/test_goldens.py plays every golden again and compares, so
any change in setup, legal placements, scoring, serialization or a builtin bot's choices
shows up as a failing test and a reviewable diff of these files.

Run this only when the rules (or a builtin bot's decisions) change on purpose; review the
diff, and bump engine.core.ENGINE_VERSION if old replays would now play differently.

    python -m scripts.regenerate_goldens           # rewrite the files
    python -m scripts.regenerate_goldens --check   # exit 1 if a file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (None, ""):  # run as a file: make the repository's packages importable
    sys.path.insert(0, str(ROOT))

from engine.bots import builtin_bot  # noqa: E402
from engine.core import JSON  # noqa: E402
from engine.match import play_match  # noqa: E402
from engine.registry import get_game  # noqa: E402

GOLDEN_DIR = ROOT / "tests" / "engine" / "akropolis" / "goldens"
CHECKPOINT_EVERY = 10
ALL_VARIANTS: dict[str, JSON] = dict.fromkeys(
    ("houses", "markets", "barracks", "temples", "gardens"), True
)


@dataclass(frozen=True)
class Golden:
    name: str
    seed: int
    players: int
    bots: tuple[str, ...]
    options: dict[str, JSON] = field(default_factory=dict)

    @property
    def path(self) -> Path:
        return GOLDEN_DIR / f"{self.name}.json"


GOLDENS: tuple[Golden, ...] = (
    Golden("two-players-random", 1, 2, ("random", "random")),
    Golden("three-players-all-variants", 2, 3, ("random",) * 3, ALL_VARIANTS),
    Golden("four-players-greedy-and-random", 3, 4, ("greedy", "random", "greedy", "random")),
    Golden("two-players-all-tiles", 4, 2, ("random", "random"), {"all_tiles": True}),
)


def build_golden(golden: Golden) -> dict[str, Any]:
    """Play the golden's match and collect the replay and the checkpoints."""
    game = get_game("akropolis")
    checkpoints: list[dict[str, Any]] = []

    def on_turn(state: Any, seat: int, action: JSON) -> None:
        turn = game.turn_number(state)
        if turn % CHECKPOINT_EVERY == 0 or game.is_over(state):
            checkpoints.append(
                {
                    "turn": turn,
                    "scores": game.result(state).scores,
                    "state": game.state_to_json(state),
                }
            )

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
        "about": "golden playthrough; regenerate with: python -m scripts.regenerate_goldens",
        "name": golden.name,
        "bots": list(golden.bots),
        "replay": replay.to_json(),
        "checkpoints": checkpoints,
    }


def golden_text(data: dict[str, Any]) -> str:
    """Compact, canonical JSON: the same golden always gives the same bytes."""
    return json.dumps(data, sort_keys=True, separators=(",", ":")) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Rewrite the Akropolis golden playthroughs used by "
        "tests/engine/akropolis/test_goldens.py (only after an intended rule change).",
    )
    parser.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit with status 1 if any golden file is missing or out of date",
    )
    args = parser.parse_args(argv)
    stale = []
    for golden in GOLDENS:
        text = golden_text(build_golden(golden))
        current = golden.path.read_text(encoding="utf-8") if golden.path.exists() else None
        if current == text:
            print(f"{golden.path.name}: up to date")
            continue
        stale.append(golden.path.name)
        if args.check:
            print(f"{golden.path.name}: out of date")
        else:
            golden.path.parent.mkdir(parents=True, exist_ok=True)
            golden.path.write_text(text, encoding="utf-8")
            print(f"{golden.path.name}: written ({len(text) // 1024} KB)")
    return 1 if args.check and stale else 0


if __name__ == "__main__":
    sys.exit(main())
