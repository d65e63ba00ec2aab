"""MKL's vector math (VML): the library PyTorch's CPU build calls for exp, log, sin, sqrt, tanh ...

PyTorch hands 15 unary ops on float32 and float64 tensors to MKL (``aten/src/ATen/cpu/vml.h``,
``IMPLEMENT_VML_MKL``): ``vsExp`` / ``vdExp`` and the like, in MKL's default high-accuracy mode. Their
results are within an ulp, not always correctly rounded: about 5% of float32 ``sin`` values differ from the
correctly rounded ones (NumPy's), and so does ``log(0.75)``. minigrad calls the same functions of the same MKL
(the ``mkl`` package, 2024.2 as in PyTorch 2.13) through ctypes, so these ops give PyTorch's bits. Each
element's result depends on its value only, not on its place in the array, so any layout can be passed as
a contiguous copy (PyTorch also copies strided inputs into a buffer first).

Without the library (another CPU architecture, or the package not installed) ``available`` is False and
the ops keep their NumPy route: correctly rounded, within an ulp of PyTorch's.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import os
import sys

import numpy as np

from ._reduce import THREADS  # PyTorch's intra-op thread count

# torch op -> MKL's name (vs<Name> for float32, vd<Name> for float64); checked bit for bit against PyTorch
OPS = {"exp": "Exp", "log": "Ln", "log2": "Log2", "log10": "Log10", "sqrt": "Sqrt", "sin": "Sin", "cos": "Cos",
       "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan", "tanh": "Tanh", "erf": "Erf", "erfc": "Erfc",
       "erfinv": "ErfInv"}
# GNU OpenMP, as PyTorch links it: MKL's LAPACK takes other code paths in its sequential layer (getrf of a
# 17 x 17 or 33 x 33 matrix differs in the last bits), even run on one thread (minigrad/_lapack.py), and its
# gemm splits work between threads as PyTorch's does (minigrad/_matmul.py). Intel's OpenMP layer splits
# otherwise once PyTorch's libgomp is in the process; without libgomp, the sequential layer is the fallback.
_MKL_THREADING_GNU, _MKL_THREADING_SEQUENTIAL = 3, 1
_CHUNK = 2 ** 31 - 1            # n is a 32-bit int (MKL's LP64 interface)


def _has_gomp() -> bool:
    """True when GNU's OpenMP runtime (libgomp) can be loaded: MKL's GNU layer needs it."""
    try:
        ctypes.CDLL("libgomp.so.1")
        return True
    except OSError:
        return False


def _load():
    """libmkl_rt from the ``mkl`` package (installed next to the interpreter), or None."""
    installed = os.path.join(sys.prefix, "lib", "libmkl_rt.so.2")
    for name in (installed if os.path.exists(installed) else None, ctypes.util.find_library("mkl_rt")):
        if name is None:
            continue
        try:
            lib = ctypes.CDLL(name)
            lib.MKL_Set_Threading_Layer(_MKL_THREADING_GNU if _has_gomp() else _MKL_THREADING_SEQUENTIAL)
            # No thread count set here: MKL's (even its _Local one) is OpenMP's count of the calling thread, from
            # which a PyTorch imported after minigrad takes its default. The callers whose bits depend on the
            # count set it per call (_lapack.py, _dfti.py, _matmul.py); VML's elementwise results do not.
            return lib
        except (OSError, AttributeError):
            continue
    return None


_LIB = None if os.environ.get("MINIGRAD_NO_MKL") else _load()
available = _LIB is not None
_FORKED = [False]


def num_threads() -> int:
    """MKL's thread count for a call: PyTorch's intra-op count; one in a forked child process, where GNU
    OpenMP's parallel regions would hang (PyTorch's DataLoader workers run on one thread too)."""
    return 1 if _FORKED[0] else THREADS[0]


def _after_fork_in_child() -> None:
    _FORKED[0] = True
    _LIB.MKL_Set_Num_Threads_Local(1)


if _LIB is not None:
    os.register_at_fork(after_in_child=_after_fork_in_child)
_PREFIX = {np.dtype(np.float32): "vs", np.dtype(np.float64): "vd"}


def _function(name: str, dtype: np.dtype):
    """MKL's v?``name`` without ctypes' argument conversion (~1,000 instructions per argument): called with a
    Python int (ctypes passes it as a C int) and two ``arg`` pointers."""
    fn = _LIB[_PREFIX[dtype] + name]  # (indexing makes a function object of its own: no argtypes)
    fn.restype = None
    return fn


def address(a: np.ndarray) -> int:
    """The address of an array's first element for MKL: through the buffer protocol for a writable row-major
    or column-major array (``a.ctypes.data`` makes a Python object: ~3x the cost), else ``a.ctypes.data``."""
    try:
        return _addressof(_from_buffer(a))
    except (TypeError, ValueError):  # (read-only, empty, or not row-major)
        pass
    try:
        return _addressof(_from_buffer(a.T))  # (a column-major array's transpose starts at the same place)
    except (TypeError, ValueError):
        return a.ctypes.data


_from_buffer, _addressof, _byref, _void_p = ctypes.c_char.from_buffer, ctypes.addressof, ctypes.byref, ctypes.c_void_p


def arg(a: np.ndarray):
    """A pointer to an array's first element as an argument of a function without argtypes (VML here, gemm in
    _matmul.py): through the buffer protocol for a writable row-major array or the transpose of a column-major
    one (both start at the first element), else from ``a.ctypes.data``. Not for 0-dim arrays."""
    try:
        return _byref(_from_buffer(a if a.strides[-1] == a.itemsize else a.T))
    except (TypeError, ValueError):  # (read-only, or neither layout)
        return _void_p(a.ctypes.data)


def unary(op: str, fallback):
    """The forward of ``op`` on arrays: MKL's function for float32 and float64, else ``fallback``."""
    if _LIB is None:
        return fallback
    functions = {dt: _function(OPS[op], dt) for dt in _PREFIX}

    def forward(x: np.ndarray) -> np.ndarray:
        fn = functions.get(x.dtype)
        if fn is None:
            return fallback(x)
        shape = x.shape
        x = np.ascontiguousarray(x)  # (a 0-dim array comes back 1-dim: the result is reshaped to ``shape``)
        out = np.empty(x.shape, x.dtype)
        n = x.size
        if 0 < n <= _CHUNK:  # (the usual case: one call)
            try:  # (``arg`` inline: both are row-major)
                src, dst = _byref(_from_buffer(x)), _byref(_from_buffer(out))
            except (TypeError, ValueError):  # (a read-only x)
                src, dst = arg(x), arg(out)
            fn(n, src, dst)
        elif n:
            src, dst = address(x), address(out)
            for start in range(0, n, _CHUNK):
                fn(min(_CHUNK, n - start), _void_p(src + start * x.itemsize), _void_p(dst + start * x.itemsize))
        return out if out.shape == shape else out.reshape(shape)
    forward.__name__ = op
    forward.__doc__ = f"{op}: MKL's v?{OPS[op]} for float32/float64, as PyTorch's CPU build (minigrad/_vml.py)."
    return forward
