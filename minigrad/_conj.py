"""PyTorch's lazy conjugation (the "conjugate bit"), on NumPy.

In PyTorch ``y = x.conj()`` of a complex tensor copies nothing: y is a *view* of x's memory carrying a flag, the
conjugate bit, that makes every kernel read the values conjugated. So ``y.is_conj()`` is True, ``y._base`` is x,
y shares x's ``_version``, an in-place op on y writes x (conjugated back) and an in-place op on x shows in y.
``y.resolve_conj()`` (or ``clone()``, or any op's result) holds the conjugated values in memory of its own.

NumPy has no conjugating view, so minigrad gives y memory of its own, a *mirror* holding conj(x), and keeps the two
in step: every in-place write (all of them go through ``_dispatch._check_inference_write``; forward AD's writes into
tangents call it too) calls ``after_write``, which copies the side that was written, conjugated, into the other.
The mirror is recorded here, keyed by the NumPy array that owns its memory, so a view of y (``y[0]``, ``y.T``,
``y.detach()``) is a conjugate view too and is kept in step as well, while a tensor in memory of its own (clone,
the result of any op) never is.

Real tensors never meet any of this: ``x.conj()`` of a real tensor is x itself, and while no conjugate view is
alive ``after_write`` and ``is_conj`` return at their first test.
"""
from __future__ import annotations

import weakref

import numpy as np

from . import _dtypes, _meta
from ._strides import storage_owner as _owner  # (the array owning a tensor's memory)


class _Mirror:
    """The memory of conjugate views: ``mirror`` holds conj(``source``), two flat arrays of one size."""

    __slots__ = ("source", "source_owner", "_mirror", "bit", "_view", "flip", "neg")

    def __init__(self, source, mirror, bit, view, flip=np.conjugate, neg=False):
        self.source = source                    # (kept alive here, as a PyTorch view keeps its storage alive)
        self.source_owner = id(_owner(source))
        # The mirror's own arrays are held weakly: the views alive keep them, and the last one gone drops the entry.
        self._mirror = weakref.ref(mirror)
        self.bit = bit    # the conjugate bit: False for x.conj().conj(), which reads x's values again
        self._view = weakref.ref(view)  # the array of the conj() result itself (not of a view of it)
        # How mirror and source map to each other: np.conjugate, or np.negative for a negative view (_neg.py,
        # whose ``neg`` bit the views of this memory carry; the two bits pass on to mirrors of mirrors)
        self.flip = flip
        self.neg = neg

    @property
    def mirror(self):
        return self._mirror()

    @property
    def view(self):
        return self._view()


# id(array owning a mirror's memory) -> _Mirror, oldest first (a mirror of a mirror comes after its source's).
MIRRORS: dict = {}


def conj_view(input):
    """``input.conj()`` of a complex tensor: ConjBackward0's result, made a conjugate view of ``input``.

    The mirror conjugates all of input's storage, so the view has input's strides and storage offset (as PyTorch's),
    and its address maps back to input's (data_ptr). Not for an input with gaps (x[::2]): PyTorch's ops read such a
    view as resolve_conj() gives it, a contiguous copy (whose layout decides their rounding: _complex_bits), so the
    mirror is laid out as that copy.
    """
    from . import derivatives as D  # (here: _dispatch imports this module, and derivatives imports _dispatch)
    from ._dispatch import _make_view
    out = D.conj(input)               # the values, recorded as ConjBackward0
    storage, start = D._storage(input._data)
    # (dense: the copy's strides are input's, but for a size-1 dim's, which may be anything: a (1, 1) imag view's)
    dense = all(a == b or n == 1 for a, b, n in zip(out._data.strides, input._data.strides, input._data.shape))
    if input._data.size and dense and _owner(storage) is _owner(input._data):
        meta = _meta.METAS and _meta.is_meta(input)   # (a meta tensor's mirror is meta memory: no values)
        # (complex32's float16 pairs have no NumPy conjugate)
        flip = _dtypes.complex32_conj if _dtypes.is_complex32(storage.dtype) else np.conjugate
        mirror = _meta.empty(storage.shape, storage.dtype) if meta else flip(storage)
        out._data = np.lib.stride_tricks.as_strided(mirror[start:], input._data.shape, input._data.strides)
        if meta:
            _meta.mark(out)
    else:   # (gaps, or no storage to mirror whole (an empty tensor ...): just the values, laid out as clone's)
        storage, mirror = input._data, out._data
    _make_view(out, input, _replay, {}, None)   # _base, shared _version; autograd replays it as conj_view(base)
    source = MIRRORS.get(id(_owner(storage)))
    add_mirror(_Mirror(storage, mirror, not (source is not None and source.bit), out._data,
                       _dtypes.complex32_conj if _dtypes.is_complex32(storage.dtype) else np.conjugate,
                       neg=source is not None and source.neg))
    if out._fw_grad is not None and input._fw_grad is not None:
        out._fw_grad = conj_view(input._fw_grad)   # (forward AD: the tangent is the conj view of input's, as PyTorch's)
    return out


def add_mirror(m: _Mirror) -> None:
    """Record ``m``, keyed by the array owning its mirror's memory, until the last view of that memory is gone."""
    key = id(_owner(m.mirror))
    MIRRORS[key] = m
    weakref.finalize(_owner(m.mirror), MIRRORS.pop, key, None)


def with_conj_bit(out):
    """``out``, the fresh result of an op whose PyTorch kernel returns ``result.conj()`` of a temporary
    (vdot(x, y.conj()) is dot(x, y).conj()): same values, but carrying the conjugate bit (is_conj() True) as
    PyTorch's does. Not a view of anything (no _base): its memory holds conj(values), read conjugated."""
    if out._data.dtype.kind != "c" or not out._data.flags.c_contiguous:
        return out
    mirror = out._data
    source = np.conjugate(mirror, out=np.empty_like(mirror))   # the kernel's temporary, which out reads conjugated
    key = id(_owner(mirror))
    MIRRORS[key] = _Mirror(source, mirror, True, source)   # (view: not out's array, so not a conj() result itself)
    weakref.finalize(_owner(mirror), MIRRORS.pop, key, None)
    return out


def set_conj_bit(t) -> None:
    """PyTorch's ``t._set_conj(True)`` on a fresh tensor (a storage of its own, no other view of it): t reads its
    memory conjugated from now on. Its array keeps the values as read (the mirror); the storage it stands for
    holds their conjugates."""
    if t._data.dtype.kind != "c":
        return
    mirror = _owner(t._data)
    key = id(mirror)
    MIRRORS[key] = _Mirror(np.conjugate(mirror), mirror, True, np.empty(0))   # (view: none, not a conj() result)
    weakref.finalize(mirror, MIRRORS.pop, key, None)


def _replay(base):
    """How autograd replays the view on its base (CopySlices, a regenerated grad_fn): a conj view again, so that
    writing into it writes the base."""
    from ._ops import conj
    return conj(base)


def is_direct(t) -> bool:
    """Whether ``t`` is the result of conj() (or _neg_view()) itself (its grad_fn is regenerated by replaying it, as
    PyTorch's)."""
    m = MIRRORS.get(id(_owner(t._data))) if MIRRORS else None
    return m is not None and m.view is t._data


def is_conj(t) -> bool:
    """Whether ``t`` reads its memory conjugated: a view of a mirror made by ``conj_view``."""
    # (y.real of a conj view y reads the mirror too, and has no bit; "V": complex32's float16 pairs, or bfloat16)
    if not MIRRORS or t._data.dtype.kind not in "cV":
        return False
    m = MIRRORS.get(id(_owner(t._data)))
    return m is not None and m.bit


def data_ptr(t, address: int) -> int:
    """``address`` of ``t``'s first element, or in the memory its mirror stands for (PyTorch's view shares it)."""
    m = MIRRORS.get(id(_owner(t._data)))
    while m is not None and m.mirror.strides == m.source.strides:   # (a mirror laid out otherwise: its own address)
        address += m.source.__array_interface__["data"][0] - m.mirror.__array_interface__["data"][0]
        m = MIRRORS.get(m.source_owner)   # (x.conj().conj(): a mirror of a mirror, in x's memory too)
    return address


def after_write(t) -> None:
    """Keep mirrors in step after an in-place write into ``t``'s memory."""
    owner = id(_owner(t._data))
    changed = {owner}
    # Up: a write into a mirror goes back, conjugated, into the memory it mirrors (and on, for a mirror of a mirror).
    m = MIRRORS.get(owner)
    while m is not None:
        m.flip(m.mirror, out=m.source)
        changed.add(m.source_owner)
        m = MIRRORS.get(m.source_owner)
    # Down: every mirror of memory that changed shows the new values (oldest first: a mirror of a mirror last).
    # (dict.copy() runs no Python code, so a collection's finalizers cannot pop an entry mid-copy, as they can
    # while list() walks the items; a mirror they drop after the copy is skipped.)
    for key, m in MIRRORS.copy().items():
        if m.source_owner in changed and (mirror := m.mirror) is not None:
            m.flip(m.source, out=mirror)
            changed.add(key)


def check_resolved(t, message: str) -> None:
    """PyTorch's refusal to hand out the memory of a conjugate view (numpy(), view_as_real)."""
    if MIRRORS and is_conj(t):
        raise RuntimeError(message)
