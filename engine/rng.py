"""A small seeded PRNG (SplitMix64) whose whole state is one integer.

Python's `random` module could change its algorithms between versions; replays must not.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


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
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def derive_seed(seed: int, *labels: int | str) -> int:
    """A seed for a sub-stream (a seat's bot, a fallback player) derived from a match seed.

    Each label is framed by its type and length, so ("ab",) and ("a", "b") differ.
    """
    mixer = SplitMix64(seed)
    value = mixer.next_u64()
    for label in labels:
        if isinstance(label, str):
            body = label.encode()
            data = b"s" + len(body).to_bytes(4, "little") + body
        else:
            data = b"i" + label.to_bytes(8, "little", signed=True)
        for byte in data:
            mixer = SplitMix64(value ^ byte)
            value = mixer.next_u64()
    return value
