"""The game store: one SQLite file that survives a power cut, its checkpointer, and what is done
with a store found damaged at start."""

from .store import Entry, Store, dumps

__all__ = ["Entry", "Store", "dumps"]
