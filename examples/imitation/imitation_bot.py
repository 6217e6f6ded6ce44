"""A bot that plays the policy `train_imitation.py` learned from a game's dataset.

It is the `main.py` of the bot archive that `train_imitation.py` writes, beside the
model (`model.npz`). At each turn it encodes its observation with the environments'
fixed encoding (`agon_bot.envs`: the JSON observation into the float vector, each legal
action to its index), runs the model (one hidden layer, NumPy alone: what a box offers)
and plays the legal action with the highest logit: every other index is masked out, so
it never plays an illegal move. A match of another game or player count than the
model's is played by the first legal action (the log says so).
"""

import json
from pathlib import Path

import numpy as np

from agon_bot import Bot, log, run
from agon_bot.envs.games import make_encoding

MODEL = Path(__file__).resolve().parent / "model.npz"


class Policy:
    """The trained network: logits = relu(x * scale @ w1 + b1) @ w2 + b2."""

    def __init__(self, path):
        with np.load(path, allow_pickle=False) as model:
            self.meta = json.loads(str(model["meta"]))
            self.scale = model["scale"].astype(np.float32)
            self.w1 = model["w1"].astype(np.float32)
            self.b1 = model["b1"].astype(np.float32)
            self.w2 = model["w2"].astype(np.float32)
            self.b2 = model["b2"].astype(np.float32)

    def logits(self, vector, indices):
        """The logits of the actions `indices` only (the legal ones)."""
        hidden = np.maximum((vector * self.scale) @ self.w1 + self.b1, 0.0)
        return hidden @ self.w2[:, indices] + self.b2[indices]


class ImitationBot(Bot):
    def __init__(self):
        self.policy = Policy(MODEL)
        self.encoding = None

    def start(self, info):
        meta = self.policy.meta
        if info["game"] != meta["game"] or info["players"] != meta["players"]:
            log(
                f"the model is for {meta['game']} with {meta['players']} players, not "
                f"{info['game']} with {info['players']}: playing the first legal action"
            )
            return
        self.encoding = make_encoding(info["game"], info["players"], info.get("options") or {})
        if self.encoding.n_actions != self.policy.w2.shape[1]:
            log("these options change the encoding's size: playing the first legal action")
            self.encoding = None

    def act(self, observation, legal_actions):
        if self.encoding is None:
            return legal_actions[0]
        vector = self.encoding.encode_observation(observation)
        indices = self.encoding.legal_indices(legal_actions, observation)
        best = int(np.argmax(self.policy.logits(vector, indices)))
        return legal_actions[best]


if __name__ == "__main__":
    run(ImitationBot())
