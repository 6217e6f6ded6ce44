"""What every game's encoding provides: a fixed-size observation vector made of named
segments, and a fixed-size discrete action space into which every legal action maps.

An encoding is defined on what a bot reads: the observation JSON and the legal actions
(docs/environments.md describes each game's). Some action indices point into the
observation (an entry of the board list, a position of the display): their meaning is
fixed given the observation the acting seat sees, which is what the policy sees too.

The env asks for the same vectors and indices straight from the engine's state
(`encode_state`, `state_legal_indices`), which a game may compute without building the
observation JSON (its fast path); the JSON versions stay the definition, and the tests
hold the two equal at every position of whole random games.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from engine.registry import get_game

if TYPE_CHECKING:
    from gymnasium import spaces


@dataclass(frozen=True)
class Segment:
    """A named part of the observation vector: `shape` values between `low` and `high`."""

    name: str
    shape: tuple[int, ...]
    high: float
    doc: str
    low: float = 0.0

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))


class Encoding(ABC):
    """One game's encodings for a player count and its options (the sizes may depend
    on both). Subclasses set `segments` and `n_actions` in `__init__`."""

    game_id: str
    segments: tuple[Segment, ...]
    n_actions: int
    action_doc: str = ""

    def __init__(self, players: int, options: Mapping[str, Any]) -> None:
        self.players = players
        self.options = dict(options)
        self.game: Any = get_game(self.game_id)

    # --- the observation ------------------------------------------------------------

    def _layout(self) -> None:
        """Offsets of the segments; call once `segments` is set."""
        self.offsets: dict[str, tuple[int, int]] = {}
        self._shapes: dict[str, tuple[slice, tuple[int, ...]]] = {}
        start = 0
        for segment in self.segments:
            self.offsets[segment.name] = (start, start + segment.size)
            self._shapes[segment.name] = (slice(start, start + segment.size), segment.shape)
            start += segment.size
        self.observation_size = start

    def observation_space(self) -> spaces.Box:
        # Gymnasium only here: a bot in a box (NumPy, no Gymnasium) encodes with the rest.
        from gymnasium import spaces

        low = np.concatenate([np.full(s.size, s.low, np.float32) for s in self.segments])
        high = np.concatenate([np.full(s.size, s.high, np.float32) for s in self.segments])
        return spaces.Box(low=low, high=high, dtype=np.float32)

    def view(self, vector: np.ndarray, name: str) -> np.ndarray:
        """The segment `name` of an observation vector, in its shape (a view, no copy)."""
        where, shape = self._shapes[name]
        return vector[where].reshape(shape)

    def views(self, vector: np.ndarray) -> dict[str, np.ndarray]:
        """Every segment of an observation vector by name, in its shape."""
        return {segment.name: self.view(vector, segment.name) for segment in self.segments}

    def encode_observation(self, observation: Mapping[str, Any]) -> np.ndarray:
        vector = np.zeros(self.observation_size, np.float32)
        self.fill(observation, vector)
        return vector

    def encode_state(self, state: Any, seat: int) -> np.ndarray:
        """`encode_observation` of `seat`'s observation of the engine's `state`. This
        builds the JSON; a game's encoding may read the state directly instead."""
        return self.encode_observation(self.game.observation(state, seat))

    def vector_buffer(self) -> Any:
        """What `encode_state_into` keeps for one seat between its observations (None:
        nothing, each vector is new)."""
        return None

    def encode_state_into(self, state: Any, seat: int, kept: Any) -> np.ndarray:
        """`encode_state`, maybe written into the vector `kept` (from `vector_buffer`)
        holds: a game whose vector is large rewrites only what changed since that seat's
        last one, and returns the same array each time."""
        return self.encode_state(state, seat)

    def moved(self, seat: int, move: Any) -> None:
        """`seat` has just played `move` (the env tells each move it applies): a game's
        encoding may update what it keeps of the state from it, checking that it still
        matches (a hint, never trusted blindly)."""
        return None

    @abstractmethod
    def fill(self, observation: Mapping[str, Any], vector: np.ndarray) -> None:
        """Write `observation` (the game's JSON for one seat) into a zeroed vector."""

    def relative(self, observation: Mapping[str, Any], seat: int) -> int:
        """Seats are shown from the observer's side: 0 is the observer, then the next."""
        return (seat - int(observation["player"])) % self.players

    # --- the actions ----------------------------------------------------------------

    @abstractmethod
    def encode_action(self, action: Any, observation: Mapping[str, Any]) -> int:
        """The index of an action in the position `observation` shows; ValueError if the
        encoding cannot represent it (which the tests prove never happens for a legal one)."""

    @abstractmethod
    def decode_action(self, index: int, observation: Mapping[str, Any]) -> Any:
        """The action JSON an index stands for in the position `observation` shows."""

    def legal_indices(self, legal: Sequence[Any], observation: Mapping[str, Any]) -> np.ndarray:
        """The index of each legal action, in the order of `legal`."""
        # The compact form bots receive, as its JSON text or as JSON, where the game has one.
        compact_text = getattr(legal, "compact_text", None)
        if compact_text is not None:
            indices = self.compact_text_indices(compact_text(), observation)
            if indices is not None:
                return indices
        compact = getattr(legal, "compact", None)
        if compact is not None:
            indices = self.compact_indices(compact(), observation)
            if indices is not None:
                return indices
        return np.fromiter(
            (self.encode_action(action, observation) for action in legal),
            dtype=np.int64,
            count=len(legal),
        )

    def state_legal_indices(self, state: Any, legal: Sequence[Any]) -> np.ndarray:
        """`legal_indices` of `legal`, the engine's `legal_actions(state)`, in the position
        the seat to move sees. This builds its observation; a game's encoding may read the
        state directly instead."""
        observation = self.game.observation(state, self.game.current_player(state))
        return self.legal_indices(legal, observation)

    def legal_position(self, legal: Sequence[Any], indices: np.ndarray, index: int) -> int:
        """Where index `index` is among `indices` (`legal`'s, in its order), -1 if not
        there: a search, unless a game finds it from what the index stands for."""
        if not len(indices):
            return -1
        found = int((indices == index).argmax())
        return found if indices[found] == index else -1

    def compact_text_indices(self, text: str, observation: Mapping[str, Any]) -> np.ndarray | None:
        """`legal_indices` from the compact form's JSON text, where a game can read it
        faster than the JSON itself."""
        return None

    def compact_indices(self, compact: Any, observation: Mapping[str, Any]) -> np.ndarray | None:
        """`legal_indices` from the compact form, where a game can do it in bulk."""
        return None


def seat_order(players: int, me: int) -> list[int]:
    """The absolute seats in the order the encodings show them: me first, then onwards."""
    return [(me + offset) % players for offset in range(players)]
