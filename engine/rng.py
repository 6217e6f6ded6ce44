"""A small seeded PRNG (SplitMix64) whose whole state is one integer, and the one way a
seed is derived from another (`derive_seed`).

Python's `random` module could change its algorithms between versions; replays must not.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_SPAN = _MASK + 1


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014): fast, well mixed, trivially serializable."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next_u64(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """A uniform integer in [0, bound), without modulo bias."""
        if bound <= 0:
            raise ValueError("bound must be positive")
        if bound > _MASK + 1:
            # No 64-bit draw could be accepted: the loop below would never end.
            raise ValueError("bound must be at most 2**64")
        limit = _MASK + 1 - ((_MASK + 1) % bound)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates shuffle in place: each `j` drawn as `below(i + 1)` draws it, the
        draws written out (a game's deal shuffles its tiles: a random playout's setup)."""
        state = self.state
        for i in range(len(items) - 1, 0, -1):
            bound = i + 1
            limit = _SPAN - _SPAN % bound
            while True:
                state = (state + 0x9E3779B97F4A7C15) & _MASK
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
                value = z ^ (z >> 31)
                if value < limit:
                    break
            j = value % bound
            items[i], items[j] = items[j], items[i]
        self.state = state


def derive_seed(seed: int, *labels: int | str, one_way: bool = False) -> int:
    """A 64-bit seed for a sub-stream named by `labels`, derived from `seed`: the one
    derivation of the engine (a seat's bot, a fallback player) and of the competition
    code (a tournament's meetings and deals, a version test's pairs).

    Each label is framed by its type and length, so ("ab",) and ("a", "b") differ, and
    so do (1,) and ("1",). The framed labels are then mixed with the seed in one of two
    ways. By default a chain of SplitMix64 steps: fast, and what every replay of a
    builtin bot was played with (the goldens pin it), but reversible, which is harmless
    when `seed` is public anyway (a match seed is in its replay). With `one_way`, by
    SHA-256: for a seed shown to players (a game's deal) whose `seed` must stay secret
    (a tournament's or a meeting's, which would tell the deals of games not played yet).
    """
    framed = _framed(labels)
    if one_way:
        import hashlib  # here: OpenSSL's module costs a new process ~3 ms to load

        digest = hashlib.sha256((seed & _MASK).to_bytes(8, "little") + framed).digest()
        return int.from_bytes(digest[:8], "little")
    value = SplitMix64(seed).next_u64()
    for byte in framed:
        value = SplitMix64(value ^ byte).next_u64()
    return value


def _framed(labels: tuple[int | str, ...]) -> bytes:
    """The labels as bytes that no other labels give: a type mark, then a string's
    length and UTF-8 or an integer's 8 bytes (a signed 64-bit range)."""
    parts = []
    for label in labels:
        if isinstance(label, str):
            body = label.encode()
            parts.append(b"s" + len(body).to_bytes(4, "little") + body)
        else:
            parts.append(b"i" + label.to_bytes(8, "little", signed=True))
    return b"".join(parts)
