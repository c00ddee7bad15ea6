"""Token buckets per seat and per address: a phone may send bursts, not floods."""

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
        if self.left():
            self.tokens -= 1
            return True
        return False

    def left(self) -> bool:
        """Whether a token is left, taking none (refilled as by :meth:`allow`)."""
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        return self.tokens >= 1


class RateLimits:
    """One bucket per key, kept across connections: a seat's phone or an address that
    reconnects finds its bucket as it left it, not a full one.

    Buckets that have refilled are forgotten once there are more than ``most`` (a full bucket is
    what a new one would be), so that many addresses cannot grow the table without bound.
    """

    def __init__(self, rate: float, burst: int, clock: Clock = time.monotonic, most: int = 512):
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self.most = most
        self.buckets: dict[str, TokenBucket] = {}

    def allow(self, key: str) -> bool:
        """Take a token from ``key``'s bucket if one is left."""
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.most:
                self._forget_full()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst, self.clock)
        return bucket.allow()

    def left(self, key: str) -> bool:
        """Whether ``key``'s bucket has a token left, taking none (a key never seen has)."""
        bucket = self.buckets.get(key)
        return bucket is None or bucket.left()

    def forget(self, key: str) -> None:
        """Drop a bucket nobody can come back to (a closed connection's own)."""
        self.buckets.pop(key, None)

    def _forget_full(self) -> None:
        now = self.clock()
        for key, bucket in list(self.buckets.items()):
            if bucket.tokens + (now - bucket.last) * bucket.rate >= bucket.burst:
                del self.buckets[key]
        if len(self.buckets) >= self.most:  # all busy: the one left alone longest goes
            oldest = min(self.buckets, key=lambda k: self.buckets[k].last)
            del self.buckets[oldest]
