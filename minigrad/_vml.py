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

# torch op -> MKL's name (vs<Name> for float32, vd<Name> for float64); checked bit for bit against PyTorch
OPS = {"exp": "Exp", "log": "Ln", "log2": "Log2", "log10": "Log10", "sqrt": "Sqrt", "sin": "Sin", "cos": "Cos",
       "tan": "Tan", "asin": "Asin", "acos": "Acos", "atan": "Atan", "tanh": "Tanh", "erf": "Erf", "erfc": "Erfc",
       "erfinv": "ErfInv"}
_MKL_THREADING_SEQUENTIAL = 1   # (VML's results do not depend on threads; this keeps OpenMP out)
_CHUNK = 2 ** 31 - 1            # n is a 32-bit int (MKL's LP64 interface)


def _load():
    """libmkl_rt from the ``mkl`` package (installed next to the interpreter), or None."""
    installed = os.path.join(sys.prefix, "lib", "libmkl_rt.so.2")
    for name in (installed if os.path.exists(installed) else None, ctypes.util.find_library("mkl_rt")):
        if name is None:
            continue
        try:
            lib = ctypes.CDLL(name)
            lib.MKL_Set_Threading_Layer(_MKL_THREADING_SEQUENTIAL)
            return lib
        except (OSError, AttributeError):
            continue
    return None


_LIB = None if os.environ.get("MINIGRAD_NO_MKL") else _load()
available = _LIB is not None
_PREFIX = {np.dtype(np.float32): "vs", np.dtype(np.float64): "vd"}


def _function(name: str, dtype: np.dtype):
    fn = getattr(_LIB, _PREFIX[dtype] + name)
    fn.restype = None
    fn.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p]
    return fn


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
        out = np.empty_like(x)
        flat_in, flat_out = x.reshape(-1), out.reshape(-1)
        for start in range(0, x.size, _CHUNK):
            n = min(_CHUNK, x.size - start)
            fn(n, flat_in[start:].ctypes.data, flat_out[start:].ctypes.data)
        return out.reshape(shape)
    forward.__name__ = op
    forward.__doc__ = f"{op}: MKL's v?{OPS[op]} for float32/float64, as PyTorch's CPU build (minigrad/_vml.py)."
    return forward
