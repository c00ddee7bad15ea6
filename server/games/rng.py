"""A small seeded random number generator whose whole state is one integer.

The games own their randomness so that a seed and the action log replay a game exactly, on any
Python version (``random.Random``'s algorithms are not promised to stay the same), and so that the
state serialises to JSON as a single number.  SplitMix64 (Steele, Lea and Flood, 2014) is fast in
pure Python and good enough for shuffling cards; it is not meant for secrets.
"""

from __future__ import annotations

from typing import TypeVar

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15

T = TypeVar("T")


class Rng:
    """SplitMix64 with unbiased bounded integers and Fisher-Yates shuffles."""

    __slots__ = ("state",)

    def __init__(self, state: int) -> None:
        self.state = state & MASK64

    @classmethod
    def from_seed(cls, seed: int, stream: str = "") -> Rng:
        """Derive a generator from a seed and a stream name (independent games from one seed)."""
        state = seed & MASK64
        for ch in stream.encode():
            state = ((state ^ ch) * 0x100000001B3) & MASK64
        rng = cls(state)
        rng.next64()
        return rng

    def next64(self) -> int:
        """Return the next 64-bit value."""
        self.state = z = (self.state + _GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """Return an integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def choice(self, items: list[T]) -> T:
        """Return one item of a non-empty list."""
        return items[self.below(len(items))]

    def shuffle(self, items: list[T]) -> None:
        """Shuffle a list in place (Fisher-Yates)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
