"""A token bucket per connection: a phone may send bursts, not floods."""

from __future__ import annotations

import time
from collections.abc import Callable

Clock = Callable[[], float]


class TokenBucket:
    """Allow ``rate`` events per second on average, with bursts up to ``burst``.

    ``clock`` returns seconds (``time.monotonic`` by default); the tests pass their own, so that
    how fast a busy machine runs them cannot refill the bucket.
    """

    __slots__ = ("burst", "clock", "last", "rate", "tokens")

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.tokens = float(burst)
        self.last = clock()

    def allow(self) -> bool:
        """Take a token if one is left; refill at ``rate`` per second since the last call."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False
