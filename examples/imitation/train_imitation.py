"""Learn a policy from a game's dataset by imitation, and pack it as a bot.

Reads the Parquet files of a dataset folder (`agon-kit dataset pull GAME`, or
`local_dataset.py` without a site), keeps the decisions of matches with `--players`
seats and the most common options, not taken by the referee's stand-in (and, with
`--winners`, only the seats that finished first), and encodes each with the
environments' fixed encoding (`agon_bot.envs`): the observation JSON into its float
vector, the action taken into its index, and the legal actions (rebuilt by the engine
from the observation) into the mask. A one-hidden-layer network (NumPy alone) learns
to give the action taken the highest logit among the legal ones: a softmax over the
legal actions only, its cross-entropy minimised by Adam. A tenth of the matches is held
out and the share of their decisions the policy predicts is printed each epoch.

The bot archive it writes (`--out`, a zip: `main.py`, which is `imitation_bot.py`, and
`model.npz`) plays with `agon-kit match` and uploads as any bot:

    agon-kit dataset pull megalopolis
    .venv/bin/python examples/imitation/train_imitation.py megalopolis-dataset --game megalopolis
    agon-kit match imitation-bot.zip builtin:random --game megalopolis --max-games 200
"""

from __future__ import annotations

import argparse
import json
import time
import zipfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow.compute as pc
import pyarrow.dataset as ds

from agon_bot.envs import Encoding, make_encoding
from engine.registry import get_spec

BOT = Path(__file__).with_name("imitation_bot.py")
COLUMNS = ["match_id", "players", "options", "observation", "action", "legal_actions"]


@dataclass
class Decisions:
    """Encoded decisions: vectors, the index of the action taken, the legal indices."""

    vectors: np.ndarray
    chosen: np.ndarray
    legal: list[np.ndarray]
    matches: np.ndarray


def read_rows(folder: Path, players: int, winners: bool) -> tuple[Any, dict[str, Any]]:
    """The dataset's rows to learn from, and the options of their matches."""
    # The parts only: a pulled folder also holds manifest.json and maybe a `.partial`.
    parts = sorted(folder.glob("*.parquet"))
    if not parts:
        raise SystemExit(f"no Parquet file in {folder}")
    dataset = ds.dataset(parts, format="parquet")
    keep = (ds.field("players") == players) & ~ds.field("by_stand_in")
    if winners:
        keep &= ds.field("final_rank") == 1
    table = dataset.to_table(columns=COLUMNS, filter=keep)
    if not table.num_rows:
        raise SystemExit(f"no decision of a {players}-player match in {folder}")
    options = Counter(table["options"].to_pylist()).most_common(1)[0][0]
    table = table.filter(pc.equal(table["options"], options))
    return table, json.loads(options)


def encode_rows(game: str, encoding: Encoding, table: Any) -> Decisions:
    """Each row's vector, the index of its action and the indices of its legal actions
    (a row whose legal actions the engine does not give again is left out)."""
    spec = get_spec(game)
    if spec.state_from_observation is None:
        raise SystemExit(f"{spec.name} cannot rebuild a position from an observation")
    vectors, chosen, legal, matches = [], [], [], []
    columns = (table[name].to_pylist() for name in COLUMNS)
    for match_id, _, _, text, action, count in zip(*columns, strict=True):
        observation = json.loads(text)
        actions = spec.game.legal_actions(spec.state_from_observation(observation))
        if len(actions) != count:
            continue
        vectors.append(encoding.encode_observation(observation))
        chosen.append(encoding.encode_action(json.loads(action), observation))
        legal.append(encoding.legal_indices(actions, observation))
        matches.append(match_id)
    return Decisions(np.array(vectors), np.array(chosen), legal, np.array(matches))


class Network:
    """logits = relu(x @ w1 + b1) @ w2 + b2, x the vector scaled into [-1, 1]."""

    def __init__(self, inputs: int, hidden: int, actions: int, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.params = {
            "w1": (rng.standard_normal((inputs, hidden)) * np.sqrt(2 / inputs)).astype(np.float32),
            "b1": np.zeros(hidden, np.float32),
            "w2": np.zeros((hidden, actions), np.float32),
            "b2": np.zeros(actions, np.float32),
        }
        self._moments = {
            name: (np.zeros_like(p), np.zeros_like(p)) for name, p in self.params.items()
        }
        self._steps = 0

    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        p = self.params
        hidden = np.maximum(x @ p["w1"] + p["b1"], 0.0)
        return hidden, hidden @ p["w2"] + p["b2"]

    def train_batch(
        self, x: np.ndarray, mask: np.ndarray, chosen: np.ndarray, rate: float
    ) -> float:
        """One Adam step on the batch's cross-entropy over the legal actions; its mean."""
        hidden, logits = self.forward(x)
        logits = np.where(mask, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        odds = np.exp(logits)
        probabilities = odds / odds.sum(axis=1, keepdims=True)
        rows = np.arange(len(chosen))
        loss = float(-np.log(probabilities[rows, chosen] + 1e-12).mean())
        grad = probabilities
        grad[rows, chosen] -= 1.0
        grad /= len(chosen)
        grad_hidden = grad @ self.params["w2"].T
        grad_hidden[hidden <= 0] = 0.0
        grads = {
            "w1": x.T @ grad_hidden,
            "b1": grad_hidden.sum(axis=0),
            "w2": hidden.T @ grad,
            "b2": grad.sum(axis=0),
        }
        self._steps += 1
        for name, g in grads.items():
            first, second = self._moments[name]
            first *= 0.9
            first += 0.1 * g
            second *= 0.999
            second += 0.001 * g * g
            step = (first / (1 - 0.9**self._steps)) / (
                np.sqrt(second / (1 - 0.999**self._steps)) + 1e-8
            )
            self.params[name] -= (rate * step).astype(np.float32)
        return loss

    def accuracy(self, x: np.ndarray, legal: Sequence[np.ndarray], chosen: np.ndarray) -> float:
        """The share of decisions whose action taken has the highest legal logit."""
        if not len(chosen):
            return float("nan")
        _, logits = self.forward(x)
        hits = sum(
            int(indices[np.argmax(row[indices])] == taken)
            for row, indices, taken in zip(logits, legal, chosen, strict=True)
        )
        return hits / len(chosen)


def masks(legal: Sequence[np.ndarray], actions: int) -> np.ndarray:
    mask = np.zeros((len(legal), actions), bool)
    for row, indices in enumerate(legal):
        mask[row, indices] = True
    return mask


def train(
    folder: Path,
    game: str,
    *,
    players: int = 2,
    winners: bool = False,
    hidden: int = 64,
    epochs: int = 10,
    batch: int = 128,
    rate: float = 1e-3,
    seed: int = 0,
    out: Path = Path("imitation-bot.zip"),
    report: Callable[[str], Any] = print,
) -> dict[str, Any]:
    """Read, encode, train, write the bot archive; what it measured."""
    started = time.process_time()
    table, options = read_rows(folder, players, winners)
    encoding = make_encoding(game, players, options)
    decisions = encode_rows(game, encoding, table)
    space = encoding.observation_space()
    scale = (1.0 / np.maximum(np.maximum(abs(space.low), abs(space.high)), 1.0)).astype(np.float32)
    x = decisions.vectors * scale
    match_ids = np.unique(decisions.matches)
    held_out = np.isin(decisions.matches, match_ids[: max(1, len(match_ids) // 10)])
    if held_out.all():
        held_out[:] = False  # one match only: learn from it, measure on it
    learn = np.flatnonzero(~held_out)
    test = np.flatnonzero(held_out) if held_out.any() else learn
    report(
        f"{len(decisions.chosen)} decisions of {len(match_ids)} matches encoded "
        f"({time.process_time() - started:.0f} s of CPU); {len(test)} held out"
    )
    network = Network(encoding.observation_size, hidden, encoding.n_actions, seed)
    rng = np.random.default_rng(seed)
    accuracy = 0.0
    for epoch in range(1, epochs + 1):
        order = rng.permutation(learn)
        losses = []
        for start in range(0, len(order), batch):
            rows = order[start : start + batch]
            mask = masks([decisions.legal[row] for row in rows], encoding.n_actions)
            losses.append(network.train_batch(x[rows], mask, decisions.chosen[rows], rate))
        accuracy = network.accuracy(
            x[test], [decisions.legal[row] for row in test], decisions.chosen[test]
        )
        report(
            f"epoch {epoch}: loss {np.mean(losses):.3f}, held-out decisions predicted "
            f"{accuracy:.1%}"
        )
    meta = {"game": game, "players": players, "options": options}
    write_bot(out, network, scale, meta)
    seconds = time.process_time() - started
    report(f"wrote {out} ({out.stat().st_size // 1024} KiB; {seconds:.0f} s of CPU in all)")
    return {
        "decisions": len(decisions.chosen),
        "matches": len(match_ids),
        "accuracy": accuracy,
        "seconds": seconds,
    }


def write_bot(out: Path, network: Network, scale: np.ndarray, meta: dict[str, Any]) -> None:
    """The bot archive: `main.py` and the model, its large matrices as float16."""
    model = out.with_suffix(".npz.tmp")
    with model.open("wb") as file:
        np.savez_compressed(
            file,
            meta=np.array(json.dumps(meta, sort_keys=True)),
            scale=scale,
            w1=network.params["w1"].astype(np.float16),
            b1=network.params["b1"],
            w2=network.params["w2"].astype(np.float16),
            b2=network.params["b2"],
        )
    try:
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as archive:
            archive.write(BOT, "main.py")
            archive.write(model, "model.npz")
    finally:
        model.unlink()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.partition("\n")[0])
    parser.add_argument("dataset", type=Path, help="a folder of the dataset's Parquet files")
    parser.add_argument("--game", required=True)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--winners", action="store_true", help="learn from the winners only")
    parser.add_argument("--hidden", type=int, default=64, help="units of the hidden layer")
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--rate", type=float, default=1e-3, help="Adam's learning rate")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("imitation-bot.zip"))
    args = parser.parse_args(argv)
    train(
        args.dataset,
        args.game,
        players=args.players,
        winners=args.winners,
        hidden=args.hidden,
        epochs=args.epochs,
        rate=args.rate,
        seed=args.seed,
        out=args.out,
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
