"""PyTorch's lazy negation (the "negative bit"), on NumPy: the conjugate bit's twin (see _conj.py).

``y = torch._neg_view(x)`` copies nothing in PyTorch: y is a view of x's memory whose kernels read it negated
(``y.is_neg()``), and PyTorch makes one where a value is a negation that must stay a view: ``z.conj().imag`` is the
imaginary part of z's memory, read negated. ``resolve_neg()`` (or ``clone()``, or any op's result) holds the values
in memory of their own. minigrad gives y a mirror holding -x, kept in step with x by ``_conj.after_write`` as a
conjugate view's is: one registry of mirrors, each carrying both bits, so a negative view of a conjugate view (or
the reverse) is kept in step through both.
"""
from __future__ import annotations

import numpy as np

from . import _conj, _meta
from ._strides import storage_owner as _owner


def neg_view(input):
    """``torch._neg_view(input)``: NegViewBackward0's result, made a negative view of ``input``."""
    from . import derivatives as D  # (here: derivatives imports _dispatch, which imports _conj)
    from ._dispatch import _make_view
    out = D._neg_view(input)             # the values, recorded as NegViewBackward0
    storage, start = D._storage(input._data)
    flip = _copy if input._data.dtype == bool else np.negative   # (bools: no negation, see check_readable)
    if input._data.size and _owner(storage) is _owner(input._data) and min(input._data.strides, default=0) >= 0:
        # (negation is exact whatever the layout: the mirror negates all of input's storage, so the view keeps
        # input's strides and storage offset, and its address maps back to input's)
        meta = _meta.METAS and _meta.is_meta(input)   # (a meta tensor's mirror is meta memory: no values)
        mirror = _meta.empty(storage.shape, storage.dtype) if meta else flip(storage)
        out._data = np.lib.stride_tricks.as_strided(mirror[start:], input._data.shape, input._data.strides)
        if meta:
            _meta.mark(out)
    else:
        storage, mirror = input._data, out._data
    _make_view(out, input, _replay, {}, None)   # _base, shared _version; autograd replays it as neg_view(base)
    source = _conj.MIRRORS.get(id(_owner(storage)))
    _conj.add_mirror(_conj._Mirror(storage, mirror, source is not None and source.bit, out._data, flip,
                                   not (source is not None and source.neg)))
    if out._fw_grad is not None and input._fw_grad is not None:
        out._fw_grad = neg_view(input._fw_grad)
    return out


def _copy(source, out=None):
    """The mirror of a bool tensor's negative view: its values as they are (PyTorch has no bool negation: reading
    them is refused, see check_readable)."""
    if out is None:
        return source.copy()
    np.copyto(out, source)
    return out


def check_readable(t) -> None:
    """PyTorch's error for reading a negative view of a bool tensor (its kernels would negate bools)."""
    if t._data.dtype == bool and is_neg(t):
        raise NotImplementedError('"neg_cpu" not implemented for \'Bool\'')


def _replay(base):
    """How autograd replays the view on its base: a negative view again, so that writing into it writes the base."""
    return neg_view(base)


def is_neg(t) -> bool:
    """Whether ``t`` reads its memory negated: a view of a mirror made by ``neg_view``."""
    if not _conj.MIRRORS:
        return False
    m = _conj.MIRRORS.get(id(_owner(t._data)))
    return m is not None and m.neg


def resolve_neg(input):
    """A negative view's values in memory of their own (CloneBackward0); any other tensor: input itself."""
    check_readable(input)
    return input.clone() if is_neg(input) else input
