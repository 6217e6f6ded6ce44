"""A game's dataset made on your machine, without the site: matches played here by the
builtin bots, written as the platform writes its dataset (the same rows,
`agon.datasets.rows.decision_rows`, and the same Parquet writer,
`agon.datasets.parquet_parts.PartWriter`). It needs a checkout of the platform (`make
venv`); with the site at hand, `agon-kit dataset pull GAME` gives you the real one.

    .venv/bin/python examples/imitation/local_dataset.py --game megalopolis --matches 1000 \\
        --out megalopolis-dataset

Seat after seat takes the next bot of `--bots` (default: builtin:greedy against itself);
match i is dealt by seed `--first-seed` + i. The rows go into one part,
`OUT/part-00001.parquet`, which `train_imitation.py` reads as it reads a pulled dataset.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agon.datasets.parquet_parts import PartWriter
from agon.datasets.rows import MatchFacts, SeatFacts, decision_rows
from engine.bots import builtin_bot
from engine.match import play_match
from engine.registry import get_game

ROW_GROUP_BYTES = 8 * 1024 * 1024
"""The platform's default AGON_DATASET_ROW_GROUP_BYTES."""


def write_dataset(
    game_id: str,
    out: Path,
    *,
    matches: int,
    players: int = 2,
    bots: Sequence[str] = ("builtin:greedy",),
    first_seed: int = 0,
) -> int:
    """Play `matches` matches and write their rows to `out`/part-00001.parquet; the rows."""
    game = get_game(game_id)
    out.mkdir(parents=True, exist_ok=True)
    writer = PartWriter(out / "part-00001.parquet", row_group_bytes=ROW_GROUP_BYTES)
    try:
        for number in range(matches):
            seed = first_seed + number
            specs = [bots[(number + seat) % len(bots)] for seat in range(players)]
            replay = play_match(
                game,
                seed=seed,
                players=players,
                options={},
                bots=[
                    builtin_bot(spec.removeprefix("builtin:"), game_id, seed, seat)
                    for seat, spec in enumerate(specs)
                ],
                bot_ids=list(specs),
            )
            ranks: Any = replay.result["ranks"]
            scores: Any = replay.result["scores"]
            seats = [
                SeatFacts(bot=spec, rank=int(rank), score=int(score), thinking_seconds=None)
                for spec, rank, score in zip(specs, ranks, scores, strict=True)
            ]
            for row in decision_rows(replay, MatchFacts(number + 1, "ranked", seats)):
                writer.add(row)
    finally:
        writer.close()
    return writer.rows


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("--game", default="megalopolis")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument(
        "--bots", default="builtin:greedy", help="comma-separated builtin bots, seat after seat"
    )
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="default: ./GAME-dataset")
    args = parser.parse_args(argv)
    bots = args.bots.split(",")
    if any(bot not in ("builtin:random", "builtin:greedy") for bot in bots):
        parser.error("--bots takes builtin:random and builtin:greedy")
    out = args.out or Path(f"{args.game}-dataset")
    rows = write_dataset(
        args.game,
        out,
        matches=args.matches,
        players=args.players,
        bots=bots,
        first_seed=args.first_seed,
    )
    print(f"{args.matches} matches, {rows} rows in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
