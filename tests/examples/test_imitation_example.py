"""examples/imitation at a tiny size: a dataset of a few local matches, written by the
platform's own writer, is read, encoded and learned from; the bot archive it writes
plays `agon-kit play` without a fault, unboxed and in a bubblewrap box (whose Python has
NumPy but no Gymnasium); and its network's step makes the action taken more likely."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import numpy as np
import pyarrow.parquet as pq
import pytest

from agon.datasets.parquet_parts import ARROW_SCHEMA
from tests.sandbox.support import require_backend

REPO_DIR = Path(__file__).resolve().parents[2]
EXAMPLES = REPO_DIR / "examples" / "imitation"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """Three matches of greedy bots as a dataset, learned from for two epochs."""
    folder = tmp_path_factory.mktemp("imitation")
    rows = load("local_dataset").write_dataset(
        "megalopolis", folder / "dataset", matches=3, bots=["builtin:greedy", "builtin:random"]
    )
    # As `agon-kit dataset pull` leaves a folder: its manifest, a part half downloaded.
    (folder / "dataset" / "manifest.json").write_text("{}\n")
    (folder / "dataset" / "part-000002-0123456789ab.parquet.partial").write_bytes(b"PAR1")
    lines: list[str] = []
    scores = load("train_imitation").train(
        folder / "dataset",
        "megalopolis",
        hidden=8,
        epochs=2,
        out=folder / "bot.zip",
        report=lines.append,
    )
    return {"folder": folder, "rows": rows, "scores": scores, "lines": lines}


def test_the_local_dataset_is_the_platforms_parquet(trained: dict[str, object]) -> None:
    folder = trained["folder"]
    assert isinstance(folder, Path)
    table = pq.read_table(folder / "dataset" / "part-00001.parquet")
    assert table.schema.equals(ARROW_SCHEMA, check_metadata=True)
    assert table.num_rows == trained["rows"]
    assert set(table["match_id"].to_pylist()) == {1, 2, 3}
    assert set(table["bot"].to_pylist()) == {"builtin:greedy", "builtin:random"}


def test_every_decision_is_encoded_and_learned_from(trained: dict[str, object]) -> None:
    scores = trained["scores"]
    assert isinstance(scores, dict)
    assert scores["decisions"] == trained["rows"], "no row is dropped"
    assert scores["matches"] == 3
    assert 0.0 <= scores["accuracy"] <= 1.0
    lines = trained["lines"]
    assert isinstance(lines, list)
    assert lines[1].startswith("epoch 1: loss ")
    assert lines[-1].startswith("wrote ")


def test_the_archive_holds_the_bot_and_its_model(trained: dict[str, object]) -> None:
    folder = trained["folder"]
    assert isinstance(folder, Path)
    with zipfile.ZipFile(folder / "bot.zip") as archive:
        assert sorted(archive.namelist()) == ["main.py", "model.npz"]
        assert archive.read("main.py") == (EXAMPLES / "imitation_bot.py").read_bytes()
        archive.extract("model.npz", folder / "unpacked")
    with np.load(folder / "unpacked" / "model.npz", allow_pickle=False) as model:
        assert json.loads(str(model["meta"])) == {
            "game": "megalopolis",
            "options": {},
            "players": 2,
        }
        assert model["w1"].shape[1] == 8 and model["w2"].shape[0] == 8


def play(bot: Path, sandbox: str, cwd: Path) -> dict[str, object]:
    match = ["play", "--game", "megalopolis", "--seed", "5", "--sandbox", sandbox]
    played = subprocess.run(  # noqa: S603 - our own command
        [sys.executable, "-m", "agon_kit", *match, str(bot), "builtin:random"],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
        check=False,
    )
    assert played.returncode == 0, played.stderr
    outcome: dict[str, object] = json.loads(played.stdout.strip().splitlines()[-1])
    return outcome


def test_the_bot_plays_a_whole_match_unboxed(trained: dict[str, object]) -> None:
    folder = trained["folder"]
    assert isinstance(folder, Path)
    outcome = play(folder / "bot.zip", "none", folder)
    assert outcome["faults"] == []


def test_the_bot_plays_in_a_box_without_gymnasium(trained: dict[str, object]) -> None:
    require_backend("bwrap")
    folder = trained["folder"]
    assert isinstance(folder, Path)
    outcome = play(folder / "bot.zip", "bwrap", folder)
    assert outcome["faults"] == []


def test_an_encoding_loads_without_gymnasium_or_pettingzoo() -> None:
    """What a box offers: NumPy, agon_bot and the engine; the bot's imports hold there."""
    script = (
        "import sys\n"
        "sys.modules['gymnasium'] = sys.modules['pettingzoo'] = None\n"
        "from agon_bot.envs.games import make_encoding\n"
        "from engine.registry import get_game\n"
        "game = get_game('megalopolis')\n"
        "state = game.new_state(1, 2, {})\n"
        "observation = game.observation(state, 0)\n"
        "encoding = make_encoding('megalopolis', 2, {})\n"
        "print(encoding.encode_observation(observation).shape[0],\n"
        "      len(encoding.legal_indices(game.legal_actions(state), observation)))\n"
    )
    ran = subprocess.run(  # noqa: S603 - our own script
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        cwd=REPO_DIR,
        timeout=120,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    size, legal = map(int, ran.stdout.split())
    assert size > 0 and legal > 0


def test_a_training_step_makes_the_action_taken_likelier_among_the_legal_ones() -> None:
    module = load("train_imitation")
    network = module.Network(inputs=4, hidden=6, actions=10, seed=0)
    x = np.array([[1.0, -0.5, 0.25, 0.0]], np.float32)
    legal = [np.array([2, 5, 7])]
    mask = module.masks(legal, 10)
    assert mask.sum() == 3 and mask[0, [2, 5, 7]].all()

    def chosen_probability() -> float:
        _, logits = network.forward(x)
        row = logits[0, legal[0]]
        odds = np.exp(row - row.max())
        return float(odds[1] / odds.sum())

    before = chosen_probability()
    losses = [network.train_batch(x, mask, np.array([5]), rate=0.05) for _ in range(20)]
    assert chosen_probability() > before + 0.3
    assert losses[-1] < losses[0]
    assert network.accuracy(x, legal, np.array([5])) == 1.0
