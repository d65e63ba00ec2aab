"""Conjugate views' mirrors stay in step when a garbage collection runs in the middle of a write.

Each mirror's entry in ``_conj.MIRRORS`` is dropped by a ``weakref.finalize`` when its memory dies. Memory held by
a reference cycle dies at a collection, which any allocation can start: CI saw one start while ``after_write`` was
listing the entries ("dictionary changed size during iteration", in an in-place copy_ of a backward pass).
"""
from __future__ import annotations

import gc

import numpy as np

import minigrad as torch
from minigrad import _conj


def test_a_collection_during_after_write_drops_entries_safely():
    live = [torch.tensor([1 + 1j, 2 + 2j]).conj() for _ in range(30)]   # entries after_write walks past
    x = torch.tensor([1 + 2j, 3 + 4j])
    y = x.conj()
    old = gc.get_threshold()
    try:
        # A generation-1 collection after every t1 generation-0 ones: for some t1 it lands while the entries are
        # walked, freeing cycles that hold conjugate views (so their finalizers pop MIRRORS entries right then).
        for t1 in range(1, 40):
            gc.collect()
            cycles = []
            for _ in range(10):
                cycle = [torch.tensor([1 + 1j, 2 + 2j]).conj()]
                cycle.append(cycle)
                cycles.append(cycle)
            del cycle
            gc.collect(0)    # the cycles are alive here: they move to generation 1
            del cycles       # now garbage only a generation-1 collection frees
            gc.set_threshold(1, t1, 100000)
            try:
                y.add_(1)   # writes x through the mirror, then refreshes every mirror of x's memory
            finally:
                gc.set_threshold(*old)
        gc.collect()
    finally:
        gc.set_threshold(*old)
    # 39 writes of +1 into y = conj(x) add 39 to x's real part; every view still reads its values
    np.testing.assert_array_equal(x.numpy(), np.array([40 + 2j, 42 + 4j]))
    np.testing.assert_array_equal(y.resolve_conj().numpy(), np.array([40 - 2j, 42 - 4j]))
    assert all(v.is_conj() and v.resolve_conj().tolist() == [1 - 1j, 2 - 2j] for v in live)
    assert len(_conj.MIRRORS) >= len(live) + 1
