"""MKL's DFTI: the FFT library behind torch.fft in PyTorch's CPU build, called the way PyTorch calls it.

PyTorch's three FFT primitives on CPU are ``_fft_c2c_mkl``, ``_fft_r2c_mkl`` and ``_fft_c2r_mkl``
(aten/src/ATen/native/mkl/SpectralOps.cpp; the pocketfft branch of that file is built only without MKL,
and PyTorch 2.13's x86-64 wheel has MKL: checked by experiment, its bits are DFTI's). Each plans one DFTI
descriptor (``_plan_mkl_fft``) for one batched transform (``_exec_fft``): the transformed dims last, the
other dims collapsed into one batch dim, MKL's own scaling for the ``norm`` modes. An FFT's rounding depends
on how the library factors the length, orders its passes and applies the scale, so NumPy's pocketfft agrees
only to within a few ulps; this module hands the same descriptor to the same MKL (the ``mkl`` package,
2024.2 as in PyTorch 2.13, loaded by ``_vml.py``), which gives PyTorch's bits. ``derivatives.py``'s three
Fourier primitives (``_fft_c2c``, ``_fft_r2c``, ``_fft_c2r``, behind every ``minigrad.fft`` function and
their gradients) call ``c2c``, ``r2c`` and ``c2r`` below.

MKL splits a batch, or one long transform, between its threads, and that changes the bits (batched real
transforms of 8 to 64 points, scaled ones, and transforms of thousands of points): each call runs on
minigrad's intra-op thread count, as PyTorch sets MKL's. That takes MKL's threaded (GNU OpenMP) layer; on
the sequential layer ``_vml.py`` falls back to without libgomp, the bits are PyTorch's on one thread only.

``available`` is False without the library; ``derivatives.py`` then keeps NumPy's transforms.
"""
from __future__ import annotations

import ctypes
import math
import threading
from collections import OrderedDict

import numpy as np

from . import _vml

_LIB = _vml._LIB
available = _LIB is not None

# configuration parameters and values (mkl_dfti.h)
_FORWARD_SCALE, _BACKWARD_SCALE, _NUMBER_OF_TRANSFORMS = 4, 5, 7
_CONJUGATE_EVEN_STORAGE, _PLACEMENT, _INPUT_STRIDES, _OUTPUT_STRIDES = 10, 11, 12, 13
_INPUT_DISTANCE, _OUTPUT_DISTANCE = 14, 15
_COMPLEX, _REAL, _SINGLE, _DOUBLE, _COMPLEX_COMPLEX, _NOT_INPLACE = 32, 33, 35, 36, 39, 44

_Long = ctypes.c_long   # MKL_LONG: 64 bits in the LP64 interface on Linux
if available:
    _LIB.DftiErrorMessage.restype = ctypes.c_char_p


def _check(status: int) -> None:
    """PyTorch's MKL_DFTI_CHECK: a failed call becomes "MKL FFT error: <MKL's message>"."""
    if status != 0:
        message = _LIB.DftiErrorMessage(_Long(status)).decode()
        raise RuntimeError(f"MKL FFT error: {message}")


class _Descriptor:
    """One DFTI descriptor handle, freed when the transform is done (PyTorch's DftiDescriptor)."""

    def __init__(self, precision: int, domain: int, sizes: list) -> None:
        # DftiCreateDescriptor is a macro over these four (PyTorch's DftiDescriptor::init passes sizes[0]
        # for one dim and the array for more)
        self.handle = ctypes.c_void_p()
        kind = {_SINGLE: "s", _DOUBLE: "d"}[precision]
        if len(sizes) == 1:
            create = getattr(_LIB, f"DftiCreateDescriptor_{kind}_1d")
            _check(create(ctypes.byref(self.handle), ctypes.c_int(domain), _Long(sizes[0])))
        else:
            create = getattr(_LIB, f"DftiCreateDescriptor_{kind}_md")
            lengths = (_Long * len(sizes))(*sizes)
            _check(create(ctypes.byref(self.handle), ctypes.c_int(domain), _Long(len(sizes)), lengths))

    def set(self, param: int, value) -> None:
        """DftiSetValue (variadic: each value goes as the C type MKL reads for that parameter)."""
        _check(_LIB.DftiSetValue(self.handle, ctypes.c_int(param), value))

    def free(self) -> None:
        _LIB.DftiFreeDescriptor(ctypes.byref(self.handle))


def _plan(in_strides, out_strides, sizes, complex_input: bool, complex_output: bool,
          normalization: int, forward: bool, precision: int) -> _Descriptor:
    """PyTorch's ``_plan_mkl_fft``: ``sizes`` is (batch, *signal), strides in elements of each side's type."""
    signal = list(sizes[1:])
    domain = _COMPLEX if (complex_input if forward else complex_output) else _REAL
    desc = _Descriptor(precision, domain, signal)
    try:
        desc.set(_PLACEMENT, ctypes.c_int(_NOT_INPLACE))
        desc.set(_NUMBER_OF_TRANSFORMS, _Long(sizes[0]))
        desc.set(_INPUT_DISTANCE, _Long(in_strides[0]))
        desc.set(_OUTPUT_DISTANCE, _Long(out_strides[0]))
        # (the first entry is an offset, 0)
        desc.set(_INPUT_STRIDES, (_Long * (len(sizes)))(0, *in_strides[1:]))
        desc.set(_OUTPUT_STRIDES, (_Long * (len(sizes)))(0, *out_strides[1:]))
        if not (complex_input and complex_output):   # a one-sided spectrum: bins 0 .. n//2 as complex numbers
            desc.set(_CONJUGATE_EVEN_STORAGE, ctypes.c_int(_COMPLEX_COMPLEX))
        if normalization != 0:   # MKL scales inside its last pass: scaling afterwards rounds differently
            numel = math.prod(signal)
            scale = 1.0 / math.sqrt(numel) if normalization == 1 else 1.0 / numel
            desc.set(_FORWARD_SCALE if forward else _BACKWARD_SCALE, ctypes.c_double(scale))
        _check(_LIB.DftiCommitDescriptor(desc.handle))
    except BaseException:
        desc.free()
        raise
    return desc


# Committed descriptors by plan and thread count, least recently used first. PyTorch plans each call
# afresh; a plan is a pure function of its settings, so reusing one changes no bit and saves the commit
# (tens of microseconds, more than a small transform takes).
_PLANS: OrderedDict = OrderedDict()
_PLANS_KEPT = 16
_PLANS_LOCK = threading.Lock()


def _keep(key: tuple, desc: _Descriptor) -> None:
    """Put a descriptor (back) in the cache, freeing the least recently used beyond ``_PLANS_KEPT``."""
    with _PLANS_LOCK:
        old = _PLANS.pop(key, None)   # (another thread's copy of the same plan)
        _PLANS[key] = desc
        while len(_PLANS) > _PLANS_KEPT:
            _PLANS.popitem(last=False)[1].free()
    if old is not None:
        old.free()


def _element_strides(a: np.ndarray) -> tuple:
    return tuple(s // a.itemsize for s in a.strides)


def _batch_first(ndim: int, dim: tuple) -> list:
    """The batch dims in the order libstdc++'s std::partition leaves them (it swaps the outermost misplaced
    pair first: the order decides which of two equal strides comes first, so the result's strides)."""
    order = list(range(ndim))
    first, last = 0, ndim
    while True:
        while first != last and order[first] not in dim:
            first += 1
        if first == last:
            return order[:first]
        last -= 1
        while first != last and order[last] in dim:
            last -= 1
        if first == last:
            return order[:first]
        order[first], order[last] = order[last], order[first]
        first += 1


def _exec(out_shape: tuple, out_dtype, x: np.ndarray, dim: tuple, normalization: int,
          forward: bool) -> np.ndarray:
    """PyTorch's ``_exec_fft``: one batched transform of ``x`` over ``dim`` into an array of ``out_shape``.

    The batch dims go first, ordered by decreasing stride, and are collapsed into one (a copy where they
    cannot be); the result is written contiguously in that order and handed back as a view in ``x``'s dim
    order, with PyTorch's strides.
    """
    strides = x.strides
    batch = sorted(_batch_first(x.ndim, dim), key=lambda d: -strides[d])   # (stable, as std::sort of <= 16)
    permute = batch + list(dim)
    x = x.transpose(permute).reshape(-1, *(x.shape[d] for d in dim))
    if any(s == 0 and n > 1 for s, n in zip(x.strides, x.shape)):
        # an expanded input: DFTI refuses zero strides; PyTorch's bits are those of this permuted copy
        # (found by experiment: a copy in the input's own dim order rounds otherwise)
        x = np.ascontiguousarray(x)
    # the signal: the two-sided sizes (the larger of input and output for a one-sided dim)
    signal = [max(n, out_shape[d]) for n, d in zip(x.shape[1:], dim)]
    out = np.empty([x.shape[0]] + [out_shape[d] for d in dim], dtype=out_dtype)
    precision = _SINGLE if x.real.dtype == np.float32 else _DOUBLE
    # MKL splits big transforms and batches between threads, which changes the bits: run on PyTorch's
    # count (its mkl_set_num_threads follows torch.set_num_threads); the plan takes it at commit
    threads = _vml.num_threads()   # (one in a forked child: OpenMP would hang there)
    previous = _LIB.MKL_Set_Num_Threads_Local(threads)
    try:
        plan = (_element_strides(x), _element_strides(out), (x.shape[0], *signal), x.dtype.kind == "c",
                out.dtype.kind == "c", normalization, forward, precision)
        key = (*plan, threads)
        desc = _PLANS.pop(key, None) or _plan(*plan)   # (taken out while in use: no other thread shares it)
        compute = _LIB.DftiComputeForward if forward else _LIB.DftiComputeBackward
        try:
            _check(compute(desc.handle, ctypes.c_void_p(x.ctypes.data), ctypes.c_void_p(out.ctypes.data)))
        except BaseException:
            desc.free()
            raise
        _keep(key, desc)
    finally:
        _LIB.MKL_Set_Num_Threads_Local(previous)
    # back to the batch shape in x's dim order: PyTorch's as_strided_ (its strides for size-1 dims too)
    strides = [0] * len(permute)
    step = math.prod(out.shape[1:])   # out.strides()[0], in elements
    for d in reversed(batch):
        strides[d] = step
        step *= out_shape[d]
    for i, d in enumerate(dim):
        strides[d] = math.prod(out.shape[i + 2:])
    return np.ndarray(out_shape, out.dtype, buffer=out, strides=[s * out.itemsize for s in strides])


def _usable(a: np.ndarray) -> np.ndarray:
    """``a`` itself where MKL reads it as PyTorch hands it over, else a contiguous copy.

    (NumPy's strides can be negative or a fraction of an element, PyTorch's cannot.)
    """
    if any(s < 0 or s % a.itemsize for s in a.strides):
        return np.ascontiguousarray(a)
    return a


def _sort_dims(a: np.ndarray, dim: tuple, exclude_last: bool = False) -> tuple:
    """PyTorch's ``_sort_dims``: transform dims by decreasing input stride (the one-sided last dim stays last)."""
    head, tail = (dim[:-1], dim[-1:]) if exclude_last else (dim, ())
    return tuple(sorted(head, key=lambda d: -a.strides[d])) + tuple(tail)


def c2c(a: np.ndarray, dim: tuple, normalization: int, forward: bool) -> np.ndarray:
    """PyTorch's ``_fft_c2c_mkl``: the complex transform over ``dim``, e^(-2πi·jk/n) when ``forward``."""
    a = _usable(a)
    return _exec(a.shape, a.dtype, a, _sort_dims(a, dim), normalization, forward)


def r2c(a: np.ndarray, dim: tuple, normalization: int, onesided: bool) -> np.ndarray:
    """PyTorch's ``_fft_r2c_mkl``: the forward transform of a real signal, bins 0 .. n//2 of the last dim
    (or all of them, the rest filled by conjugate symmetry, when not ``onesided``)."""
    a = _usable(a)
    last, n = dim[-1], a.shape[dim[-1]]
    half = list(a.shape)
    half[last] = n // 2 + 1
    out_shape = tuple(half) if onesided else a.shape
    out = _exec(out_shape, np.result_type(a.dtype, np.complex64), a, _sort_dims(a, dim, exclude_last=True),
                normalization, forward=True)
    if not onesided:
        _fill_with_conjugate_symmetry(out, dim)
    return out


def _fill_with_conjugate_symmetry(out: np.ndarray, dim: tuple) -> None:
    """PyTorch's ``_fft_fill_with_conjugate_symmetry_``: bins past n//2 of the last dim are X[k] =
    conj(X[-k mod n]) in every transformed dim."""
    last, n = dim[-1], out.shape[dim[-1]]
    upper = n - (n // 2 + 1)
    if upper <= 0:
        return
    source = np.take(out, np.arange(n - (n // 2 + 1), 0, -1), axis=last)   # bins n-k for k = n//2+1 .. n-1
    for d in dim[:-1]:
        source = np.roll(np.flip(source, d), 1, d)
    index = [slice(None)] * out.ndim
    index[last] = slice(n // 2 + 1, n)
    out[tuple(index)] = np.conj(source)


def c2r(a: np.ndarray, dim: tuple, normalization: int, last_dim_size: int) -> np.ndarray:
    """PyTorch's ``_fft_c2r_mkl``: a real signal from a one-sided spectrum; over more than one dim, first
    the complex inverse over all but the last dim, then the one-dim c2r (as PyTorch does, see its NOTE)."""
    a = _usable(a)
    if len(dim) > 1:
        a = c2c(a, dim[:-1], normalization, forward=False)
        dim = dim[-1:]
    out_shape = list(a.shape)
    out_shape[dim[-1]] = last_dim_size
    return _exec(tuple(out_shape), a.real.dtype, a, dim, normalization, forward=False)
