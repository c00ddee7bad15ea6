"""The compiled play-out (``eketorp/native``, built by ``longhall.server.compiled``) plays the
same game as the full engine.

Where the machine has a C compiler (``./run`` installs one), these tests build and play the
compiled whole steps; the Python whole steps they are compared with are tested in
``test_playout.py`` and stay the fallback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from longhall.server import compiled
from longhall.server.gamedata import default_config
from longhall.server.games.eketorp import SPEC as EKETORP
from longhall.server.games.eketorp import native
from longhall.server.games.eketorp.bots import RandomBot
from longhall.server.games.eketorp.playout import random_playout, step
from longhall.server.games.eketorp.state import EketorpState
from longhall.server.games.playout import comparable, thinking_copy
from longhall.server.games.rng import Rng

from .eketorp.helpers import eketorp, full_step

pytestmark = pytest.mark.skipif(
    compiled.compiler() is None, reason="no C compiler on this machine: the Python path plays"
)
compiled.install()  # as ``longhall serve`` does at start-up


def test_the_compiled_play_out_is_built_and_loaded() -> None:
    """With a compiler at hand the tests play the compiled path, not the fallback."""
    assert native.available(), "a compiler is here but the compiled play-out did not load"
    assert compiled.library_path().exists()
    for source in compiled.SOURCES:  # never beside the sources
        assert compiled.build_dir() not in source.parents


def _native_step(st: EketorpState, rngs: list[Rng]) -> None:
    """One whole step, compiled; a fight under way is finished by the Python step first."""
    if st.phase in ("swap", "choose", "loot"):
        step(st, rngs)
    else:
        assert native.playout(st, rngs, 1), st.phase


@pytest.mark.parametrize(
    ("players", "seed", "start"),
    [
        (3, 31, None),
        (4, 32, None),
        (5, 33, None),
        (6, 34, None),
        (6, 35, "swap"),
        (4, 36, "choose"),
        (5, 37, "loot"),
        (3, 38, "building"),
        (6, 40, "sharing"),
    ],
)
def test_compiled_whole_steps_play_the_same_game_as_the_full_engine(
    players: int, seed: int, start: str | None
) -> None:
    """Every state and every generator after every compiled whole step, against random bots on
    the full engine (R1-R8); ``start``: copy the game there in round 2, as a search may."""
    full = eketorp(EKETORP.new(default_config("eketorp", players), seed))
    bots = [EKETORP.bots["random"](seed * 131 + s) for s in range(players)]
    randoms = [bot for bot in bots if isinstance(bot, RandomBot)]
    while start is not None and not (full.round >= 2 and full.phase == start):
        assert not full.is_over(), start
        full_step(full, bots)
    fast = thinking_copy(full)
    rngs = [Rng(bot.rng.state) for bot in randoms]
    steps = 0
    while not fast.is_over():
        before = fast.version
        _native_step(fast, rngs)
        assert fast.version > before
        steps += 1
        while full.version < fast.version:
            full_step(full, bots)
        assert comparable(fast) == comparable(full), (steps, full.phase)
        assert [r.state for r in rngs] == [bot.rng.state for bot in randoms], steps
        assert fast.rng.state == full.rng.state
    assert full.is_over() and fast.result == full.result
    assert not EKETORP.check_invariants(fast)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_compiled_and_python_whole_steps_agree_over_many_seeds(players: int) -> None:
    """Step by step against the Python whole steps: fresh deals and copies made mid-round."""
    for seed in range(16):
        st = eketorp(EKETORP.new(default_config("eketorp", players), 500 + seed))
        warm = [Rng(seed * 7 + s) for s in range(players)]
        for _ in range(seed % 9):  # some whole steps in: a plan, the fights, the building...
            step(st, warm)
        py, c = thinking_copy(st), thinking_copy(st)
        py_rngs = [Rng(r.state) for r in warm]
        c_rngs = [Rng(r.state) for r in warm]
        while not py.is_over():
            step(py, py_rngs)
            _native_step(c, c_rngs)
            assert comparable(c) == comparable(py), (players, seed, py.phase)
            assert [r.state for r in c_rngs] == [r.state for r in py_rngs]
        assert c.is_over() and c.winners() == py.winners()


def test_random_playout_plays_compiled_and_in_python_to_the_same_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``random_playout`` (what a search calls) gives the same games with and without C, also
    stopping at a round's end."""
    for k in range(12):
        deal = eketorp(EKETORP.new(default_config("eketorp", 3 + k % 4), 900 + k))
        ends: list[tuple[Any, list[int]]] = []
        for in_c in (True, False):
            if not in_c:
                monkeypatch.setattr(native, "engine", lambda: None)
            st = thinking_copy(deal)
            rngs = [Rng(k * 11 + s) for s in range(st.n)]
            random_playout(st, rngs, until=lambda s: s.phase == "round_end" and s.round == 2)
            assert st.phase == "round_end" and st.round == 2
            random_playout(st, rngs)
            ends.append((comparable(st), [r.state for r in rngs]))
        monkeypatch.undo()
        assert ends[0] == ends[1]


def test_the_compiled_play_out_declines_what_it_does_not_play() -> None:
    """A fight under way or the physical deck's entry: nothing changes, Python plays it."""
    st = eketorp(EKETORP.new(default_config("eketorp", 4, deck="physical"), 3))
    copy = thinking_copy(st)
    before = comparable(copy)
    assert not native.playout(copy, [Rng(s) for s in range(4)])
    assert comparable(copy) == before
    st = eketorp(EKETORP.new(default_config("eketorp", 4), 4))
    bots = [EKETORP.bots["random"](s) for s in range(4)]
    while st.phase != "swap":
        full_step(st, bots)
    copy = thinking_copy(st)
    before = comparable(copy)
    assert not native.playout(copy, [Rng(s) for s in range(4)])
    assert comparable(copy) == before
    random_playout(copy, [Rng(s) for s in range(4)])  # the Python step finishes the fight
    assert copy.is_over()
    shared = Rng(5)  # seats drawing from one generator draw in turn from it: Python plays that
    copy = thinking_copy(eketorp(EKETORP.new(default_config("eketorp", 3), 6)))
    assert not native.playout(copy, [shared] * 3)
    assert copy.version == 0 and shared.state == Rng(5).state


def test_a_library_built_from_other_sources_is_never_loaded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The library's name holds the hash of its source: an edited source builds anew and the
    stale library is removed."""
    monkeypatch.setenv("LONGHALL_NATIVE_DIR", str(tmp_path))
    first = compiled.build()
    assert first.parent == tmp_path and first.exists()
    edited = tmp_path / "playout.c"
    edited.write_text(compiled.SOURCES[-1].read_text() + "\n/* edited */\n")
    monkeypatch.setattr(compiled, "SOURCES", (*compiled.SOURCES[:-1], edited))
    assert compiled.library_path() != first
    second = compiled.build()
    assert second.exists() and not first.exists()
    assert sorted(p.name for p in tmp_path.glob("*.so")) == [second.name]
