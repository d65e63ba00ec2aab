"""Memory layouts of copies, as PyTorch lays them out (strides matter: MKL reads them, ``.stride()`` prints them).

NumPy's ``order="K"`` copy and PyTorch's ``preserve_format`` agree on plain tensors but not on expanded ones
(stride 0) or size-1 dims: PyTorch keeps a dense tensor's strides exactly (``empty_strided``) and packs any
other tensor in the order of its strides (``infer_dense_strides``). ``channels_last`` is NHWC order.
Elementwise results take TensorIterator's output layout (``elementwise``: dims ordered by the inputs' strides),
advanced indexing its own (``index_result``); convolutions and poolings of channels_last inputs stay so.
Known differences: the strides PyTorch gives size-1 dims in a few places (see tests/test_parity_strides.py).
"""
from __future__ import annotations

import weakref

import numpy as np

from . import _dtypes, _layout
from ._reduce import _dense, _dense_strides, _reorder


def _plain(a: np.ndarray) -> bool:
    """True when NumPy's C-order copy already has PyTorch's layout (the common case: checked first, cheaply)."""
    if not a.flags.c_contiguous:
        return False
    if 1 not in a.shape:
        return True
    # (a size-1 dim may have any stride in a C-contiguous array: PyTorch's copy keeps it) The C strides, last dim
    # first, compared one by one: an index loop, ~2.5k instructions less than zip(reversed(...), reversed(...)).
    shape, strides = a.shape, a.strides
    step = a.itemsize
    i = len(shape)
    while i:
        i -= 1
        if strides[i] != step:
            return False
        step *= shape[i]
    return True


def with_strides(shape: tuple, strides, npd) -> np.ndarray:
    """An uninitialised array of this shape with these element strides (a packed buffer)."""
    npd = np.dtype(npd)
    size = 1
    for m in shape:
        size *= m
    return np.lib.stride_tricks.as_strided(np.empty(size, npd), shape, [s * npd.itemsize for s in strides])


def preserve_strides(a: np.ndarray) -> list | None:
    """Element strides of ``empty_like(a)`` (preserve_format); None where NumPy's C order gives them."""
    if _plain(a) or a.size == 0:
        return None
    if any(s < 0 or s % a.itemsize for s in a.strides):  # (NumPy only: PyTorch's strides are never negative)
        return None
    strides = [s // a.itemsize for s in a.strides]
    return strides if _dense(a.shape, strides) else _dense_strides(a.shape, strides)


def empty_like(a: np.ndarray, npd=None, memory_format=None) -> np.ndarray:
    """An uninitialised array shaped like ``a``, laid out as PyTorch's ``empty_like(a, memory_format=...)``."""
    npd = a.dtype if npd is None else npd
    if memory_format in (_layout.channels_last, _layout.channels_last_3d):
        rank = 4 if memory_format is _layout.channels_last else 5
        if a.ndim != rank:
            raise RuntimeError(f"required rank {rank} tensor to use {str(memory_format)[6:]} format")
        return with_strides(a.shape, channels_last_strides(a.shape), npd)
    strides = None if memory_format is _layout.contiguous_format else preserve_strides(a)
    return np.empty(a.shape, npd) if strides is None else with_strides(a.shape, strides, npd)


def copy_into(out: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``out`` holding ``values`` (same shape): a copy with out's layout."""
    np.copyto(out, values)
    return out


def like_input(forward):
    """``forward`` (of an array, giving arrays shaped like it) with its results laid out as ``empty_like(a)``."""
    def laid_out(a, *args, **kwargs):
        results = forward(a, *args, **kwargs)
        if preserve_strides(a) is None:
            return results
        return tuple(copy_into(empty_like(a, r.dtype), r) if r.shape == a.shape else r for r in results)
    return laid_out


def astype(a: np.ndarray, npd) -> np.ndarray:
    """``a.astype(npd)`` (a copy) laid out as PyTorch's ``a.to(dtype)``."""
    if npd is _dtypes.COMPLEX32_NP or _dtypes.is_complex32(a.dtype):   # (no NumPy cast: see _dtypes.complex32)
        if npd is _dtypes.COMPLEX32_NP:
            real = a.dtype.kind != "c" and not _dtypes.is_complex32(a.dtype)
            return _dtypes.as_complex32(astype(a, np.complex64) if real else a)
        values = _dtypes.complex32_values(a)
        return astype(values if np.dtype(npd).kind == "c" else values.real, npd)
    strides = preserve_strides(a)
    if a.dtype == np.float64 and npd == np.float16:
        # c10::Half is made from a float: PyTorch rounds a double to float first, then to half (twice, so a
        # double just off a half tie lands on the tie and goes to even)
        a = a.astype(np.float32)
    if strides is None:
        return a.astype(npd)
    out = with_strides(a.shape, strides, npd)
    np.copyto(out, a, casting="unsafe")
    return out


def channels_last_strides(shape: tuple) -> list:
    """Element strides of a channels_last (NHWC) 4-D or channels_last_3d (NDHWC) 5-D tensor."""
    order = [1, *range(len(shape) - 1, 1, -1), 0]  # innermost first: C, W, H, (D), N
    out, step = [0] * len(shape), 1
    for d in order:
        out[d] = step
        step *= shape[d]   # (as c10's: a size-0 dim gives the dims outside it stride 0)
    return out


def clone(a: np.ndarray, memory_format=None) -> np.ndarray:
    """``clone(a, memory_format=...)``: preserve_format by default."""
    if memory_format is None and _plain(a):
        return a.copy()
    out = empty_like(a, None, memory_format)
    np.copyto(out, a)
    return out


def channels_last(a: np.ndarray) -> np.ndarray:
    """``a`` laid out channels_last (NHWC): itself if it is already."""
    return a if is_contiguous_as(a, _layout.channels_last) else clone(a, _layout.channels_last)


def is_contiguous_as(a: np.ndarray, memory_format, strides: tuple | None = None) -> bool:
    """``is_contiguous(memory_format=...)`` for channels_last (4-D) / channels_last_3d (5-D).

    c10's compute_channels_last_contiguous: walking the dims innermost first (C, W, H, (D), N), each dim of size
    other than 1 must have the stride ``expected`` (the product of the sizes walked so far); size-1 dims may have
    any stride. A size-0 dim makes ``expected`` 0, so an empty tensor passes when its later dims have stride 0 or
    size 1 (whatever its strides' other values).
    """
    ndim = 4 if memory_format is _layout.channels_last else 5 if memory_format is _layout.channels_last_3d else None
    if ndim is None:
        return bool(a.flags.c_contiguous)  # (preserve_format: PyTorch refuses it; contiguous_format: C order)
    if a.ndim != ndim:
        return False
    if strides is None:   # (in elements; an empty tensor's are PyTorch's, given by Tensor.stride(), not NumPy's 0s)
        strides = [s // a.itemsize for s in a.strides]
    expected = 1
    for d in [1, *range(ndim - 1, 1, -1), 0]:
        if a.shape[d] != 1:
            if strides[d] != expected:
                return False
            expected *= a.shape[d]
    return True


def elementwise(result: np.ndarray, tensors, promotes: bool = True, number: bool = False) -> np.ndarray:
    """``result`` of an elementwise op laid out as TensorIterator lays out its output (re-laid only if needed).

    Called (by ``Op._run``) only for results of 2+ dims with an input that is not C-contiguous: inputs that are
    all C-contiguous keep NumPy's C order (TensorIterator's too, but for odd strides of size-1 dims).
    ``promotes``: the op computes in the result's dtype, so an operand of another dtype is cast first (see
    ``_promoted``). ``number``: a Scalar overload's number is one more operand (``NUMBER_OPERAND``).
    """
    arrays = [t._data for t in tensors]
    if number:
        arrays.append(NUMBER_OPERAND)
    if promotes:
        cast = [_promoted(a, result.dtype) for a in arrays]
        if any(c is not a for c, a in zip(cast, arrays)):
            # (iterator_layout leaves the result as it is where TensorIterator's order is C order, NumPy's order for
            # C-ordered operands; NumPy computed this one from the operands before the cast, so C order first)
            return iterator_layout(np.ascontiguousarray(result), cast)
    return iterator_layout(result, arrays)


def _promoted(a: np.ndarray, npd) -> np.ndarray:
    """An operand as TensorIterator's CPU setup sees it: one of another dtype than the common one is replaced by
    ``a.to(common)`` (compute_types) before the dims are ordered, a copy laid out as empty_like(a) (dense strides in
    a's dim order, infer_dense_strides): an expanded float32 gradient (strides all 0) times a complex (1, 3)-strided
    tensor gives C order, not the complex operand's order."""
    if a.dtype == npd or npd == np.bool_ or a.dtype == np.bool_ or a.ndim < 2 or a.size == 0:
        return a
    if any(s < 0 or s % a.itemsize for s in a.strides) or _dense(a.shape, [s // a.itemsize for s in a.strides]):
        return a
    return empty_like(a, npd)   # (its layout only)


# A Python number's operand in TensorIterator (a 0-d wrapped number): it has no say in the order of the dims, but
# its shape differs from the tensor's (see iterator_layout)
NUMBER_OPERAND = np.zeros(())


def iterator_layout(result: np.ndarray, arrays) -> np.ndarray:
    """``result`` of an elementwise computation on ``arrays`` laid out as TensorIterator's output."""
    if result.ndim < 2:
        return result
    for a in arrays:  # (a plain loop: the common all-C-contiguous case costs a flag test per operand)
        if not a.flags.c_contiguous:
            break
        if 1 in a.shape and not _plain(a) and (a.shape != result.shape or any(b.shape != a.shape for b in arrays)):
            # (size-1 dims with other strides decide TensorIterator's order when the operands' shapes differ: a
            # broadcast operand's, or the full-shape one's beside a broadcast number, x.t() * 2; with all shapes
            # equal the fast setup takes C order, PyTorch's contiguity ignoring size-1 dims as NumPy's)
            break
    else:
        return result
    if _c_order_kept(result, arrays):
        return result
    strides = _iterator_strides(arrays, result.shape)
    if strides is None or [s * result.itemsize for s in strides] == list(result.strides):
        return result
    out = with_strides(result.shape, strides, result.dtype)
    np.copyto(out, result)
    return out


def _c_order_kept(result: np.ndarray, arrays) -> bool:
    """True when ``result`` is in C order and TensorIterator's layout is C order too, known without working it out.

    The case taken: each operand has the result's shape and is either C-contiguous with C strides (``_plain``)
    or broadcast in every dim (all strides 0: the expanded gradient of a sum, W5's backward products). Operands
    of stride 0 have no say in TensorIterator's dim order, and C strides order the dims as C order does (equal
    strides only beside a size-1 dim, which stays where it is), so the permutation is the identity.
    """
    shape = result.shape
    for a in arrays:
        if a.shape != shape or (any(a.strides) and not _plain(a)):
            return False
    return _plain(result)


def _iterator_strides(arrays: list, shape: tuple) -> list | None:
    """TensorIterator's output strides (elements) for inputs broadcast to ``shape``; None: C order."""
    ndim = len(shape)
    if any(a.size == 0 or a.ndim > ndim or any(s < 0 for s in a.strides) for a in arrays):
        return None
    if all(a.shape == shape for a in arrays):  # compute_fast_setup_type (c-contiguous was ruled out above)
        first = [s // a.itemsize for a in arrays[:1] for s in a.strides]
        if ndim == 4 and all(is_contiguous_as(a, _layout.channels_last) for a in arrays):
            return channels_last_strides(shape)
        if _dense(shape, first) and all([s // a.itemsize for s in a.strides] == first for a in arrays):
            return first
    # reorder_dimensions: each operand's strides, 0 where it is broadcast (the output has none yet)
    operands = []
    for a in arrays:
        off = ndim - a.ndim
        if any(m not in (1, shape[off + i]) for i, m in enumerate(a.shape)):
            return None  # (not an elementwise broadcast: leave NumPy's layout)
        operands.append([0] * off + [0 if m == 1 and shape[off + i] != 1 else s // a.itemsize
                                     for i, (m, s) in enumerate(zip(a.shape, a.strides))])
    return _permuted_strides(operands, shape)


def view_strides(old_shape, old_strides, new_shape):
    """PyTorch's computeStride: the strides of a view of a tensor (element strides), or None when it cannot be
    one. Differs from NumPy's only in the strides it gives size-1 dims (observable: .stride(), kernel choices)."""
    new = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    base = old_strides[-1] if old_strides else 1
    tensor_numel = view_numel = 1
    for d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[d]
        if d == 0 or (old_shape[d - 1] != 1 and old_strides[d - 1] != tensor_numel * base):   # a chunk ends
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new[view_d] = view_numel * base
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if d > 0:
                base, tensor_numel, view_numel = old_strides[d - 1], 1, 1
    return new if view_d == -1 else None


def index_result(a: np.ndarray, index: tuple) -> np.ndarray:
    """``a[index]`` (full slices and integer arrays, NumPy's advanced indexing) laid out as PyTorch's index."""
    result = a[index]
    arrays = [i for i in index if isinstance(i, np.ndarray)]
    if result.ndim < 2 or result.size == 0 or not arrays or any(i.dtype.kind not in "iu" for i in arrays) or \
            any(s < 0 for s in a.strides):
        return result
    at = [k for k, i in enumerate(index) if isinstance(i, np.ndarray)]
    if at != list(range(at[0], at[0] + len(at))):
        # (separated index arrays: PyTorch's transposeToFront permutes self's indexed dims first, in order, as
        # NumPy's result has their dims; only self's strides are read below)
        a = a.transpose(at + [k for k in range(a.ndim) if k not in at])
        at = list(range(len(at)))
    block = np.broadcast_shapes(*(i.shape for i in arrays))
    pre, post = at[0], a.ndim - at[-1] - 1
    nb = len(block)
    # TensorIterator's operands: self with its indexed dims replaced by the index dims (stride 0), then each index
    elems = [st // a.itemsize for st in a.strides]
    operands = [elems[:pre] + [0] * nb + elems[at[-1] + 1:]]
    padded = (1,) * pre + block + (1,) * post
    for i in arrays:
        # (PyTorch's index operand: expanded to the block (inferExpandGeometry), reshaped with size-1 dims before
        # and after it (reshape_indexer: computeStride's strides, which a size-1 dim of the result keeps and so
        # can order the dims); TensorIterator zeroes the strides of the dims it broadcasts)
        if i.shape != block:
            from .derivatives import _expand  # (here: derivatives imports this module)
            i = _expand(i, block)
        st = [s // i.itemsize for s in i.strides]
        st = view_strides(block, st, padded) if block else [1] * len(padded)   # (a 0-dim index: all 1s)
        if st is None:   # (no view: negative strides, NumPy's only)
            return result
        operands.append([0 if m == 1 and n != 1 else s for m, n, s in zip(padded, result.shape, st)])
    strides = _permuted_strides(operands, result.shape)
    if [s * result.itemsize for s in strides] == list(result.strides):
        return result
    return copy_into(with_strides(result.shape, strides, result.dtype), result)


def _permuted_strides(operands: list, shape: tuple) -> list:
    """Packed strides in TensorIterator's dim order (reorder_dimensions) for operands' element strides."""
    return _packed(_iterator_perm(operands, shape), shape)


def _iterator_perm(operands: list, shape: tuple) -> list:
    """TensorIterator's dim order (reorder_dimensions), innermost first, for operands' element strides."""
    ndim = len(shape)

    def should_swap(d0: int, d1: int) -> int:
        for st in operands:  # the first operand with an opinion decides
            s0, s1 = st[d0], st[d1]
            if s0 == 0 or s1 == 0:
                continue
            if s0 != s1:
                return -1 if s0 < s1 else 1
            if shape[d0] > shape[d1]:  # equal strides: the smaller dim goes inside
                return 1
        return 0

    perm = list(reversed(range(ndim)))  # innermost first
    _reorder(perm, should_swap)  # TensorIterator's insertion sort with ambiguous comparisons
    return perm


def _packed(perm: list, shape: tuple) -> list:
    """TensorIterator's compatible_stride: dense strides, dim ``perm[0]`` innermost. It multiplies by the sizes as
    they are, so every dim after a size-0 one gets stride 0 (C order's contiguous strides count a 0 as 1)."""
    out, step = [0] * len(shape), 1
    for d in perm:
        out[d] = step
        step *= shape[d]
    return out


def suggests_channels_last(a) -> bool:
    """``a.suggest_memory_format() == channels_last``: c10's is_channels_last_strides_2d (C, W, H, N order)."""
    if not isinstance(a, np.ndarray) or a.ndim != 4 or a.flags.c_contiguous:
        return False  # (C-contiguous: NCHW, also for the ambiguous N111 / N1H1 cases)
    strides = [st // a.itemsize for st in a.strides]
    if strides[1] == 0:
        return False
    low = 0
    for d in (1, 3, 2, 0):
        if a.shape[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return False
        low = strides[d] * (a.shape[d] if a.shape[d] > 1 else 1)
    return True


def suggested_memory_format(a: np.ndarray):
    """``suggest_memory_format()``: channels_last(_3d) when the strides look so (c10's
    is_channels_last_strides_2d/3d, ambiguous cases resolving to NCHW), else contiguous_format."""
    if a.ndim not in (4, 5):
        return _layout.contiguous_format
    order, fmt = ((1, 3, 2, 0), _layout.channels_last) if a.ndim == 4 else ((1, 4, 3, 2, 0), _layout.channels_last_3d)
    strides = [st // a.itemsize for st in a.strides]
    if strides[1] == 0:
        return _layout.contiguous_format
    low = 0
    for d in order:
        if a.shape[d] == 0 or strides[d] < low or (d == 0 and low == strides[1]):
            return _layout.contiguous_format
        low = strides[d] * (a.shape[d] if a.shape[d] > 1 else 1)
    return fmt


def channels_last_like(forward, n_inputs: int = 1, five_d: bool = False):
    """``forward`` whose 4-D results are channels_last when one of its first ``n_inputs`` arrays is.

    PyTorch's convolutions (input or weight) and poolings (input) give channels_last outputs for such inputs.
    ``five_d``: 5-D results are channels_last_3d too when the input is (PyTorch's upsample_nearest3d/trilinear3d).
    """
    def laid_out(*arrays, **kwargs):
        results = forward(*arrays, **kwargs)
        if five_d and isinstance(arrays[0], np.ndarray) and arrays[0].ndim == 5:
            if suggested_memory_format(arrays[0]) is not _layout.channels_last_3d:
                return results

            def relay5(r):
                if not isinstance(r, np.ndarray) or r.ndim != 5 or r.size == 0:
                    return r
                return copy_into(with_strides(r.shape, channels_last_strides(r.shape), r.dtype), r)
            return tuple(relay5(r) for r in results) if isinstance(results, tuple) else relay5(results)
        if not any(suggests_channels_last(a) for a in arrays[:n_inputs]):
            return results

        def relay(r):
            if not isinstance(r, np.ndarray) or r.ndim != 4 or r.size == 0:
                return r
            return copy_into(with_strides(r.shape, channels_last_strides(r.shape), r.dtype), r)
        return tuple(relay(r) for r in results) if isinstance(results, tuple) else relay(results)
    return laid_out


def unsqueeze(a: np.ndarray, dim: int) -> np.ndarray:
    """``np.expand_dims(a, dim)`` (a view) with PyTorch's strides: the new dim's is ``size * stride`` of the dim
    it goes before (1 at the end), and the others are kept (NumPy's reshape may change those of size-1 dims)."""
    out = np.expand_dims(a, dim)
    d = dim % out.ndim
    strides = list(a.strides)
    strides.insert(d, a.shape[d] * a.strides[d] if d < a.ndim else a.itemsize)
    if out.strides == tuple(strides):
        return out
    return np.lib.stride_tricks.as_strided(a, out.shape, strides, writeable=a.flags.writeable)


def contiguous(a: np.ndarray) -> np.ndarray:
    """``a`` in C order with PyTorch's contiguous strides (size-1 dims too): ``a`` itself when it has them already."""
    if _plain(a):
        return a
    a = np.ascontiguousarray(a)
    if _plain(a):
        return a
    return np.lib.stride_tricks.as_strided(a, a.shape, _c_strides(a.shape, a.itemsize))  # (a view: same memory)


def _c_strides(shape: tuple, itemsize: int) -> list:
    out, step = [0] * len(shape), itemsize
    for d in range(len(shape) - 1, -1, -1):
        out[d] = step
        step *= max(shape[d], 1)
    return out


# ---- strides of tensors with no elements ------------------------------------------------------------------------
# NumPy gives every empty array strides 0, so an empty tensor's strides cannot be read off its array. PyTorch's
# follow the same rules as for other tensors: a new tensor (zeros(2, 0, 3), most ops' results) is contiguous,
# counting a size-0 dim as 1 ((3, 3, 1)); an elementwise result is laid out by TensorIterator (empty_elementwise);
# a view computes them from its input's (zeros(2, 0, 3).transpose(0, 2):
# (1, 3, 3)); a tensor made from an empty ndarray (from_numpy, torch.tensor) keeps NumPy's (0, ...); clone
# preserves them. Where they are not the contiguous ones, they are kept in the tensor's ``__dict__``, with the
# shape they belong to (a resize_ or an in-place view op changes the shape, and then they no longer apply).
# mm's backward reads them (a column-major input's gradient is computed transposed), and ``.stride()`` prints them.

def empty_strides(t):
    """PyTorch's strides of ``t``, a tensor with no elements (in elements)."""
    kept = t.__dict__.get("_empty_strides")
    if kept is not None and kept[0] == t._data.shape:
        return kept[1]
    strides, step = [], 1
    for n in reversed(t._data.shape):
        strides.insert(0, step)
        step *= max(n, 1)
    return tuple(strides)


def keep_empty_strides(t, strides) -> None:
    """Record ``strides`` (in elements) as the strides of ``t``, an empty tensor."""
    t.__dict__["_empty_strides"] = (t._data.shape, tuple(int(s) for s in strides))


def keep_copy_strides(out, input, memory_format) -> None:
    """Strides of ``out``, an empty copy of ``input`` laid out as ``memory_format`` (None: preserve_format, which
    keeps input's strides; channels_last ones have 0 after a size-0 dim, as c10's get_channels_last_strides)."""
    if memory_format is None or memory_format is _layout.preserve_format:
        keep_empty_strides(out, empty_strides(input))
    elif memory_format in (_layout.channels_last, _layout.channels_last_3d):
        keep_empty_strides(out, channels_last_strides(out._data.shape))


def into_empty_like(input, out):
    """``out`` as a kernel writing into ``empty_like(input)`` leaves it (deg2rad, rad2deg, a complex input's abs and
    conj_physical): an empty input's strides are kept (a (0, 1, 2) tensor from NumPy has strides 0, which
    view_as_complex then refuses)."""
    if out._data.size == 0:
        keep_empty_strides(out, empty_strides(input))
    return out


def empty_elementwise(out, tensors, number: bool = False) -> None:
    """Strides of ``out``, the empty result of an elementwise op on ``tensors`` (``number``: and a Python number),
    as TensorIterator lays it out.

    PyTorch counts every empty tensor contiguous, so operands all of out's shape (all empty) take the fast setup:
    C order. Otherwise the dims are ordered by the operands' strides as for any other result (a size-1 dim
    broadcast has stride 0) and packed by compatible_stride, which gives 0 to every dim after the size-0 one:
    ``ones(0, 3).t() * 2`` has strides (1, 3), ``ones(2, 0, 3).transpose(0, 2) * 2`` (1, 3, 0). A dim order that
    stays C order gives the contiguous strides (allocate_or_resize_outputs' "inverted" case), as NumPy's.
    """
    shape = out._data.shape
    if not number and all(t._data.shape == shape for t in tensors):
        return
    ndim = len(shape)
    operands = []
    for t in tensors:
        a = t._data
        strides = empty_strides(t) if a.size == 0 else [s // a.itemsize for s in a.strides]
        if any(s < 0 for s in strides):   # (NumPy only: PyTorch's strides are never negative)
            return
        off = ndim - a.ndim
        operands.append([0] * off + [0 if m == 1 and shape[off + i] != 1 else s
                                     for i, (m, s) in enumerate(zip(a.shape, strides))])
    perm = _iterator_perm(operands, shape)
    if perm != list(range(ndim - 1, -1, -1)):
        keep_empty_strides(out, _packed(perm, shape))


# Views whose forward computes its strides from its input's (on a stand-in array with the input's strides):
# the others (view, reshape, unflatten ... of an empty tensor) are contiguous in PyTorch too (computeStride).
# (slice: see empty_view)
_STRIDED_VIEWS = frozenset({"t", "transpose", "permute", "expand", "unsqueeze", "squeeze", "select", "alias",
                            "diagonal", "narrow", "movedim", "swapaxes", "swapdims", "unbind", "split",
                            "split_with_sizes", "chunk", "tensor_split", "unfold", "view_as_real", "view_as_complex"})


def empty_view(out, base, op, args, k) -> None:
    """Strides of ``out``, an empty view of ``base`` made by ``op`` (``k``: its index among the op's outputs)."""
    from numpy.lib.stride_tricks import as_strided
    name = getattr(op, "name", None)   # (conj_view / neg_view pass their replay function: same shape, same strides)
    if name == "as_strided":  # (the strides asked for)
        keep_empty_strides(out, args["stride"])
        return
    if name == "slice":   # (PyTorch multiplies the dim's stride by the step; NumPy keeps it where at most 1 is left)
        strides = list(base.stride())
        strides[args["dim"] % len(strides)] *= args["step"] or 1
        keep_empty_strides(out, strides)
        return
    if name not in _STRIDED_VIEWS:
        if out._data.shape == base._data.shape:  # (view, reshape ... to the same shape: computeStride keeps them)
            keep_empty_strides(out, empty_strides(base))
        return
    a = base._data
    stand_in = as_strided(np.empty(1, a.dtype), a.shape, [s * a.itemsize for s in empty_strides(base)]) \
        if a.size == 0 else a
    r = op.forward(stand_in, **args)
    if k is not None:
        r = r[k]
    keep_empty_strides(out, [s // r.itemsize for s in r.strides])   # (r.itemsize: view_as_real halves it)


# =============================================================================================
# Storages that cannot grow: memory shared with NumPy
# =============================================================================================
# PyTorch's storage of ``torch.from_numpy(a)`` is a's memory, which it cannot reallocate. Growing such a storage
# (``resize_`` to more elements, an in-place op whose result is bigger than its input, as ``addbmm_``) raises "Trying
# to resize storage that is not resizable". Keyed by the id of the array owning the memory, forgotten with it.
# (PyTorch also refuses after ``t.numpy()`` hands the storage to NumPy: that one is a flag on the tensor owning the
# memory, ``Tensor._shared_with_numpy``, as a registry entry per call cost +4.9% on W4's step, bench/PROFILE.md
# round 22. A tensor sharing memory in other ways, e.g. ``t.detach()``, does not see that flag.)
_NOT_RESIZABLE: dict = {}


def storage_owner(a: np.ndarray) -> np.ndarray:
    """The array owning ``a``'s memory (through as_strided's holder objects too)."""
    while True:
        base = a.base
        base = base if isinstance(base, np.ndarray) else getattr(base, "base", None)
        if not isinstance(base, np.ndarray):
            return a
        a = base


def mark_not_resizable(a: np.ndarray) -> None:
    """The storage of ``a`` is shared with NumPy from now on: it can no longer grow."""
    owner = storage_owner(a)
    key = id(owner)
    if key not in _NOT_RESIZABLE:
        # (the weak reference's callback forgets the id once the memory is freed: ids are reused)
        _NOT_RESIZABLE[key] = weakref.ref(owner, lambda _, key=key: _NOT_RESIZABLE.pop(key, None))


def check_resizable(a: np.ndarray, shared_with_numpy: bool = False) -> None:
    """PyTorch's error for growing a storage shared with NumPy (see mark_not_resizable; ``shared_with_numpy``:
    the tensor's memory went out through ``numpy()``)."""
    if shared_with_numpy or _NOT_RESIZABLE and id(storage_owner(a)) in _NOT_RESIZABLE:
        raise RuntimeError("Trying to resize storage that is not resizable")
