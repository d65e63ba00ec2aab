"""Matrix products (mm, addmm, mv, addmv, dot, bmm, baddbmm) through MKL's BLAS, as PyTorch's CPU build.

PyTorch hands float32, float64 and complex products to MKL (2024.2 in PyTorch 2.13): ``mm``/``addmm``/
``matmul`` go through ``addmm_impl_cpu_`` (aten/src/ATen/native/LinearAlgebra.cpp) to ``gemm`` (CPUBlas.cpp),
``mv``/``addmv`` to ``gemv`` and ``dot`` to ``dot`` (BlasKernel.cpp), ``bmm``/``baddbmm`` from 400
multiply-adds per matrix to MKL's batch gemm. Float addition is not associative, and MKL picks its kernel, so
its order of additions, by shape, memory layout and thread count: NumPy's OpenBLAS differs from PyTorch in the
last bit of about half the elements. minigrad makes PyTorch's own calls into the same MKL (the ``mkl`` package,
loaded by ``_vml``): the same transposition flags and leading dimensions, read off the operands' strides, and
the same thread count (MKL's GNU OpenMP layer, as PyTorch's). So the products have PyTorch's bits, at BLAS speed.

Without MKL (another platform, ``MINIGRAD_NO_MKL=1``) the products run in NumPy: close, not the same bits.
Integer, bool, float16 and bfloat16 products use NumPy too (PyTorch runs its own kernels there; integer
products are exact either way).
"""
from __future__ import annotations

import ctypes

import numpy as np

from . import _complex_bits, _reduce, _vml  # _reduce.THREADS[0]: PyTorch's intra-op thread count (MKL's too)
from ._per_thread import PerThreadFlag

_F32 = np.dtype(np.float32)
IN_VMAP = PerThreadFlag(0)  # > 0 while torch.func.vmap calls its function (see mm; per thread, as vmap's levels)
_LIB = _vml._LIB
_COL_MAJOR, _N, _T = 102, 111, 112          # CBLAS enums (PyTorch's BLAS calls are column-major)
_P, _I = ctypes.c_void_p, ctypes.c_int
_BLAS_TYPES = (np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.complex64), np.dtype(np.complex128))


def _cblas(prefix_name: str, argtypes, restype=None) -> dict:
    """dtype -> MKL's cblas function for it (``prefix_name`` with ? for s/d/c/z); empty without MKL."""
    if _LIB is None:
        return {}
    out = {}
    for dtype, prefix in zip(_BLAS_TYPES, "sdcz"):
        if "?" in prefix_name or prefix in prefix_name.split(",")[0]:
            name = prefix_name.replace("?", prefix)
            if not hasattr(_LIB, "cblas_" + name):
                continue
            fn = getattr(_LIB, "cblas_" + name)
            fn.argtypes, fn.restype = argtypes(dtype), restype
            out[dtype] = fn
    return out


def _alpha_type(dtype: np.dtype):
    """How gemm/gemv take alpha and beta: by value for real types, by pointer for complex ones."""
    return {"f": ctypes.c_float, "d": ctypes.c_double}.get(dtype.char, _P)


_GEMM = _cblas("?gemm", lambda t: [_I] * 6 + [_alpha_type(t), _P, _I, _P, _I, _alpha_type(t), _P, _I])
_GEMM_BATCH = _cblas("?gemm_batch", lambda t: [_I] + [_P] * 13 + [_I, _P])
_GEMV = _cblas("?gemv", lambda t: [_I] * 4 + [_alpha_type(t), _P, _I, _P, _I, _alpha_type(t), _P, _I])
_SDOT = _cblas("sdot", lambda t: [_I, _P, _I, _P, _I], ctypes.c_float)
_DDOT = _cblas("ddot", lambda t: [_I, _P, _I, _P, _I], ctypes.c_double)
_DOTU = _cblas("?dotu_sub", lambda t: [_I, _P, _I, _P, _I, _P])
_DOTC = _cblas("?dotc_sub", lambda t: [_I, _P, _I, _P, _I, _P])
_mkl_threads = [None]


def _unchecked(name: str) -> dict:
    """dtype -> MKL's cblas_s``name`` / cblas_d``name`` without ctypes' argument conversion, which costs ~1,000
    instructions per argument (gemm has 14): callers pass Python ints for C ints (ctypes' default), ``_C_REAL``
    objects for float/double values and ``_arg`` pointers. Only the real types; empty without MKL."""
    if _LIB is None:
        return {}
    out = {}
    for dtype, prefix in zip(_BLAS_TYPES[:2], "sd"):
        fn = _LIB["cblas_" + prefix + name]   # (indexing makes a new function object: the one above keeps
        fn.restype = None                     # its argtypes)
        out[dtype] = fn
    return out


_GEMM_REAL = _unchecked("gemm")
_C_REAL = {np.dtype(np.float32): ctypes.c_float, np.dtype(np.float64): ctypes.c_double}
_arg = _vml.arg   # a matrix's first element, as an argument of an ``_unchecked`` function


def _scalars(dtype: np.dtype, *values):
    """alpha/beta for MKL: numbers (real types: ctypes rounds them to float32 as PyTorch's ``alpha.to<float>``)
    or pointers into the returned ``keep`` array (complex types, and the batch gemm's arrays of them)."""
    if dtype.kind != "c":
        return None, [float(v) for v in values]
    keep = np.array(values, dtype)
    return keep, [keep[i:].ctypes.data for i in range(len(values))]


_ptr = _vml.address   # an array's address for MKL
_byref, _from_buffer, _addressof = ctypes.byref, ctypes.c_char.from_buffer, ctypes.addressof


def _sync_threads() -> None:
    """Run MKL with PyTorch's intra-op thread count: its kernels split the work by it."""
    threads = _vml.num_threads()
    if _mkl_threads[0] != threads:
        _LIB.MKL_Set_Num_Threads(threads)
        _mkl_threads[0] = threads


def _st(x: np.ndarray, dim: int) -> int:
    """Stride of ``dim`` in elements."""
    return x.strides[dim] // x.itemsize


def _uses_mkl(a: np.ndarray, b: np.ndarray) -> bool:
    """True when MKL takes the product: a BLAS dtype shared by both operands, strides BLAS can follow."""
    return (_LIB is not None and a.dtype in _GEMM and b.dtype == a.dtype
            and min(a.strides + b.strides, default=0) >= 0)


# =============================================================================================
# gemm: PyTorch's addmm_impl_cpu_, cpublas::gemm and gemm_batched_with_stride
# =============================================================================================

def _normalized(transa: bool, transb: bool, m, n, k, lda, ldb, ldc) -> tuple:
    """(CBLAS transpose flags, lda, ldb, ldc) as cpublas's ``normalize_last_dims`` passes them to MKL: a
    leading dimension of a matrix with one row or column is not read, and MKL wants it at least that size."""
    if n == 1:
        ldc = m
    if transa:
        lda = k if m == 1 else lda
    elif k == 1:
        lda = m
    if transb:
        ldb = n if k == 1 else ldb
    elif n == 1:
        ldb = k
    return (_T if transa else _N), (_T if transb else _N), lda, ldb, ldc


def _gemm(transa: bool, transb: bool, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, batch=None) -> None:
    """Column-major C = α·op(A)·op(B) + β·C as cpublas::gemm calls MKL (``batch``: (count, A's, B's and C's
    item strides) for gemm_batched_with_stride), leading dimensions normalized as ``normalize_last_dims``."""
    ta, tb, lda, ldb, ldc = _normalized(transa, transb, m, n, k, lda, ldb, ldc)
    if _mkl_threads[0] != _vml.num_threads():
        _sync_threads()
    if batch is None or batch[0] == 1:
        gemm = _GEMM_REAL.get(c.dtype)
        if gemm is not None:   # (alpha and beta by value, as float for sgemm: PyTorch's ``alpha.to<float>``)
            scalar = _C_REAL[c.dtype]
            gemm(_COL_MAJOR, ta, tb, m, n, k, scalar(alpha), _arg(a), lda, _arg(b), ldb, scalar(beta), _arg(c), ldc)
            return
        keep, (alpha, beta) = _scalars(c.dtype, alpha, beta)
        _GEMM[c.dtype](_COL_MAJOR, ta, tb, m, n, k, alpha, _ptr(a), lda, _ptr(b), ldb, beta, _ptr(c), ldc)
        return
    keep = np.array([alpha, beta], c.dtype)   # (the batch gemm takes arrays of alpha and beta)
    count, strides = batch[0], batch[1:]   # mkl_gemm_batched: one group of ``count`` products
    pointers = [(_P * count)(*(x.ctypes.data + i * s * x.itemsize for i in range(count)))
                for x, s in zip((a, b, c), strides)]
    ints = [ctypes.byref(ctypes.c_int(v)) for v in (ta, tb, m, n, k, lda, ldb, ldc, count)]
    _GEMM_BATCH[c.dtype](_COL_MAJOR, *ints[:5], keep[0:].ctypes.data, pointers[0], ints[5], pointers[1],
                         ints[6], keep[1:].ctypes.data, pointers[2], ints[7], 1, ints[8])  # (α, β by pointer)


def _as_blas_matrix(x: np.ndarray, major: int, minor: int, rows: int, cols: int, transpose_c: bool):
    """(transposed?, matrix, leading dimension) as addmm_impl_cpu_ casts an operand: column-major as is (its
    row index has stride 1), else row-major as a transposed matrix, else a row-major copy."""
    strides, size = x.strides, x.itemsize
    s_major, s_minor = strides[major] // size, strides[minor] // size
    if s_major == 1 and s_minor >= max(1, rows):
        return False, x, s_minor
    if s_minor == 1 and s_major >= max(1, cols):
        return True, x, s_major
    x = np.ascontiguousarray(x)
    return not transpose_c, x, x.strides[0] // size   # (row-major: the row length either way)


def _addmm_into(c: np.ndarray, m1: np.ndarray, m2: np.ndarray, beta, alpha) -> np.ndarray:
    """PyTorch's addmm_impl_cpu_ on arrays: c = β·c + α·m1 @ m2, c a fresh row-major result."""
    m, n = c.shape
    k = m1.shape[1]
    if k == 0:
        c[...] = 0 if beta == 0 else c * c.dtype.type(beta)
        return c
    # the result is row-major: PyTorch reads it as column-major Cᵀ = m2ᵀ·m1ᵀ (transpose_c), unless it has
    # one column (then it is column-major itself)
    transpose_c = n != 1
    if transpose_c:
        m1, m2, m, n = m2, m1, n, m
        major, minor = 1, 0
    else:
        major, minor = 0, 1
    transa, a, lda = _as_blas_matrix(m1, major, minor, m, k, transpose_c)   # m1 as matrix a (m x k)
    transb, b, ldb = _as_blas_matrix(m2, major, minor, k, n, transpose_c)   # m2 as matrix b (k x n)
    ldc = c.strides[0] // c.itemsize if transpose_c else max(1, m)
    _gemm(transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
    return c


def _mm(a: np.ndarray, b: np.ndarray, bias=None, threads=None) -> np.ndarray:
    """``a @ b (+ bias)`` as PyTorch's gemm (bias: β = 1); ``threads`` overrides MKL's thread count (a call
    from inside a PyTorch parallel loop runs on one thread)."""
    if not _uses_mkl(a, b):
        return a @ b if bias is None else np.asarray(bias + a @ b, a.dtype)
    out = np.empty((a.shape[0], b.shape[1]), a.dtype)
    if bias is not None:
        out[...] = bias
    with _reduce.inner_threads(threads or _reduce.THREADS[0]):   # (this thread's count only)
        return _addmm_into(out, a, b, 0 if bias is None else 1, 1)


def _np_matmul(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.matmul``, float16 accumulated in float32 as PyTorch's kernels do (NumPy's own float16 product rounds
    after every step; ml_dtypes' bfloat16 one accumulates in float32 already)."""
    if a.dtype == np.float16 and b.dtype == np.float16:
        return np.matmul(a.astype(_F32), b.astype(_F32))
    return np.matmul(a, b)


def _in_dtype(out: np.ndarray, a: np.ndarray) -> np.ndarray:
    """A product in its operands' dtype: ml_dtypes' bfloat16 matmul returns float32 (PyTorch accumulates in
    float32 too, then rounds once to bfloat16)."""
    return out if out.dtype == a.dtype else out.astype(a.dtype)


_MM_PLANS: dict = {}  # (shapes, strides, dtypes) of mm's operands -> its MKL call (see _mm_plan); False: none
_ONE_ZERO = {dt: (_C_REAL[dt](1), _C_REAL[dt](0)) for dt in _C_REAL}   # mm's alpha and beta


def _mm_plan(a: np.ndarray, b: np.ndarray):
    """The one gemm call ``_addmm_into`` makes for ``a @ b`` into a fresh row-major result, worked out once per
    layout (the operands' shapes, strides and dtypes decide it all), or False where the product is not one plain
    call on the operands as they lie (a copied operand, complex or other dtypes, an empty product). A k = 1
    product has a plan, but ``mm`` does not take it under vmap (its special case below).

    The plan: (gemm, CBLAS flags and sizes, which operand is MKL's first matrix, whether each is passed as its
    transpose's buffer (``_arg``'s rule: a column-major matrix starts where its transpose does), lda, ldb, ldc,
    mm's α = 1 and β = 0 in the dtype's C type).
    """
    m, k = a.shape
    n = b.shape[1]
    if not (m and n and k and _uses_mkl(a, b) and a.dtype in _GEMM_REAL):
        return False
    transpose_c = n != 1   # (as _addmm_into: Cᵀ = bᵀ·aᵀ unless the result has one column)
    first, second, rows, cols = (b, a, n, m) if transpose_c else (a, b, m, n)
    major, minor = (1, 0) if transpose_c else (0, 1)
    transa, x, lda = _as_blas_matrix(first, major, minor, rows, k, transpose_c)
    transb, y, ldb = _as_blas_matrix(second, major, minor, k, cols, transpose_c)
    if x is not first or y is not second:   # (a row-major copy: _addmm_into makes it each time)
        return False
    ta, tb, lda, ldb, ldc = _normalized(transa, transb, rows, cols, k, lda, ldb, n if transpose_c else max(1, rows))
    flip = tuple(t.strides[-1] != t.itemsize for t in (first, second))   # (_arg's choice of buffer)
    return _GEMM_REAL[a.dtype], ta, tb, rows, cols, k, transpose_c, flip, lda, ldb, ldc, _ONE_ZERO[a.dtype]


def _plan_for(a: np.ndarray, b: np.ndarray):
    """``a @ b``'s plan (``_mm_plan``, made once per layout) when it can run now, else False (no plan, or MKL's
    thread count not yet minigrad's: the general path sets it)."""
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)
    plan = _MM_PLANS.get(key)
    if plan is None:
        plan = _mm_plan(a, b)
        if len(_MM_PLANS) < 4096:
            _MM_PLANS[key] = plan
    if plan and _mkl_threads[0] == _vml.num_threads() and _LIB is not None:   # (_LIB: a test may unload MKL)
        return plan
    return False


def _gemm_planned(plan, a: np.ndarray, b: np.ndarray, c: np.ndarray, alpha, beta) -> np.ndarray:
    """c = β·c + α·(a @ b) by the plan's one gemm call (α, β: ``_C_REAL`` values), c a fresh row-major result."""
    gemm, ta, tb, rows, cols, k, transpose_c, flip, lda, ldb, ldc, _one_zero = plan
    first, second = (b, a) if transpose_c else (a, b)
    try:   # (_arg without its calls; a read-only operand takes _arg's other way)
        pa = _byref(_from_buffer(first.T if flip[0] else first))
        pb = _byref(_from_buffer(second.T if flip[1] else second))
    except (TypeError, ValueError):
        pa, pb = _arg(first), _arg(second)
    gemm(_COL_MAJOR, ta, tb, rows, cols, k, alpha, pa, lda, pb, ldb, beta, _byref(_from_buffer(c)), ldc)
    return c


def mm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` of two matrices, with PyTorch's bits (MKL's gemm) for float and complex types."""
    # The usual product (bench W4: 8 per step, W1: 5) makes the very call of _addmm_into from a plan kept per layout,
    # without working out the flags and leading dimensions again (~20k instructions less per product).
    # (inline, not _plan_for/_gemm_planned as addmm: two calls more cost W4 ~0.2%)
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)
    plan = _MM_PLANS.get(key)
    if plan is None:
        plan = _mm_plan(a, b)
        if len(_MM_PLANS) < 4096:
            _MM_PLANS[key] = plan
    if (plan and _mkl_threads[0] == _vml.num_threads() and _LIB is not None   # (_LIB: a test may unload MKL)
            and not (plan[5] == 1 and IN_VMAP[0])):   # (k = 1 under vmap: the special case below)
        gemm, ta, tb, rows, cols, k, transpose_c, flip, lda, ldb, ldc, (one, zero) = plan
        c = np.empty((cols, rows) if transpose_c else (rows, cols), a.dtype)
        first, second = (b, a) if transpose_c else (a, b)
        try:   # (_arg without its calls; a read-only operand takes _arg's other way)
            pa = _byref(_from_buffer(first.T if flip[0] else first))
            pb = _byref(_from_buffer(second.T if flip[1] else second))
        except (TypeError, ValueError):
            pa, pb = _arg(first), _arg(second)
        gemm(_COL_MAJOR, ta, tb, rows, cols, k, one, pa, lda, pb, ldb, zero, _byref(_from_buffer(c)), ldc)
        return c
    m, k = a.shape
    n = b.shape[1]
    if m and n and _uses_mkl(a, b) and not (k == 1 and IN_VMAP[0]):   # (the usual case first)
        return _addmm_into(np.empty((m, n), a.dtype), a, b, 0, 1)
    if a.dtype == np.bool_ and a.size and b.size:  # (PyTorch's BLAS kernels have no bool; an empty product
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")  # runs none)
    if k == 1 and m and n and IN_VMAP[0]:
        # under vmap PyTorch runs a batched product (bmm, a sum from +0) where minigrad loops: per-sample
        # weight gradients (k = the slice's batch of 1) print 0. where a k = 1 gemm keeps -0.
        return a * b + a.dtype.type(0)
    return _in_dtype(_np_matmul(a, b), a)


def addmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(a @ b)`` (bias broadcast), as PyTorch's addmm: the bias copied into the result,
    then gemm with β and α (β = 0: bias unread, its NaNs too)."""
    m, n = a.shape[0], b.shape[1]
    if m and n and bias.dtype == a.dtype:
        # nn.Linear's forward: mm's plan (a plan implies _uses_mkl), the same gemm call with β and α
        plan = _plan_for(a, b)
        if plan or _uses_mkl(a, b):
            out = np.empty((m, n), a.dtype)
            if beta != 0:
                out[...] = bias
            if plan:
                scalar = _C_REAL[a.dtype]   # (by value, as float for sgemm: PyTorch's ``alpha.to<float>``)
                return _gemm_planned(plan, a, b, out, scalar(alpha), scalar(beta))
            return _addmm_into(out, a, b, beta, alpha)
    prod = _np_matmul(a, b)
    out = alpha * prod if beta == 0 else beta * bias + alpha * prod
    return np.asarray(out).astype(np.result_type(bias, a, b), copy=False)


# =============================================================================================
# gemv and dot: PyTorch's addmv_impl_cpu and dot_impl
# =============================================================================================

_GEMV_REAL = _unchecked("gemv")
_MV_PLANS: dict = {}  # (shapes, strides, dtypes) of addmv's matrix and vector -> its gemv call (_mv_plan); False: none


def _mv_plan(mat: np.ndarray, vec: np.ndarray):
    """The gemv call ``addmv`` makes for ``mat @ vec`` (float32/float64), worked out once per layout as mm's
    ``_mm_plan``: (gemv, transpose flag, rows, cols, lda, incx), or False where addmv does more than that one
    call on the operands as they lie (an empty product, a copied matrix, a vector of stride 0, other dtypes)."""
    m, n = mat.shape
    if not (m and n and _uses_mkl(mat, vec) and mat.dtype in _GEMV_REAL):
        return False
    s0, s1 = _st(mat, 0), _st(mat, 1)
    if s0 == 1 and (n == 1 or s1 >= max(1, m)):   # (the same choice as addmv's below)
        trans, rows, cols, lda = _N, m, n, s1
    elif s1 == 1 and (m == 1 or s0 >= max(1, n)):
        trans, rows, cols, lda = _T, n, m, s0
    else:
        return False
    incx = _st(vec, 0) if n > 1 else 1
    if incx <= 0:
        return False
    return _GEMV_REAL[mat.dtype], trans, rows, cols, rows if cols == 1 else lda, incx


def addmv(bias: np.ndarray, mat: np.ndarray, vec: np.ndarray, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(mat @ vec)`` as PyTorch's addmv: the bias copied into the result, then gemv on
    ``mat`` as it lies (column-major as is, row-major as its transpose, else a row-major copy)."""
    m, n = mat.shape
    if bias.dtype == mat.dtype:
        # The usual product (mv, MvBackward0's Aᵀ·g): the same gemv call from a plan kept per layout, without
        # np.result_type, the flags and ctypes' conversion of 12 arguments (~60k -> ~25k instructions).
        key = (mat.shape, mat.strides, vec.shape, vec.strides, mat.dtype, vec.dtype)
        plan = _MV_PLANS.get(key)
        if plan is None:
            plan = _mv_plan(mat, vec)
            if len(_MV_PLANS) < 4096:
                _MV_PLANS[key] = plan
        if plan and _mkl_threads[0] == _vml.num_threads() and _LIB is not None:   # (_LIB: a test may unload MKL)
            gemv, trans, rows, cols, lda, incx = plan
            out = np.empty(m, mat.dtype)
            if beta != 0:
                out[...] = bias
            scalar = _C_REAL[mat.dtype]   # (by value, as float for sgemv: what gemv's argtypes make of them)
            gemv(_COL_MAJOR, trans, rows, cols, scalar(alpha), _arg(mat), lda, _arg(vec), incx, scalar(beta),
                 _byref(_from_buffer(out)), 1)
            return out
    dtype = np.result_type(bias, mat, vec)
    if m and n and _half_gemv_applies(dtype, mat, vec):
        return _half_addmv(np.broadcast_to(bias, (m,)), mat, vec, beta, alpha)
    if m and n and dtype.kind == "c" and mat.dtype == vec.dtype == dtype:
        return _complex_addmv(np.broadcast_to(bias, (m,)).astype(dtype), mat, vec, beta, alpha)
    if not (m and n and dtype == mat.dtype and dtype.kind == "f" and _uses_mkl(mat, vec)):
        # (mixed dtypes, empty products, integers: NumPy's product, close to PyTorch's)
        if m and n and mat.dtype == np.bool_:
            raise NotImplementedError("\"addmv_impl_cpu\" not implemented for 'Bool'")
        prod = _in_dtype(np.matmul(mat, vec), mat) if n else np.zeros(m, dtype)
        out = alpha * prod if beta == 0 else beta * bias + alpha * prod
        return np.asarray(out).astype(dtype, copy=False)
    out = np.empty(m, dtype)
    if beta != 0:
        out[...] = bias
    s0, s1 = _st(mat, 0), _st(mat, 1)
    if s0 == 1 and (n == 1 or s1 >= max(1, m)):
        trans, rows, cols, lda = _N, m, n, s1
    elif s1 == 1 and (m == 1 or s0 >= max(1, n)):
        trans, rows, cols, lda = _T, n, m, s0
    else:
        mat = np.ascontiguousarray(mat)
        trans, rows, cols, lda = _T, n, m, n
    incx = _st(vec, 0) if n > 1 else 1
    if incx <= 0:   # (gemv_use_fast_path: positive increments)
        return _naive_gemv(trans == _T, mat, vec, beta, alpha, out)
    keep, (alpha, beta) = _scalars(dtype, alpha, beta)
    _sync_threads()
    _GEMV[dtype](_COL_MAJOR, trans, rows, cols, alpha, _ptr(mat), rows if cols == 1 else lda, _ptr(vec), incx,
                 beta, _ptr(out), 1)
    return out


# ---- float16 / bfloat16 gemv: PyTorch's own kernels (BlasKernel.cpp, ReducedPrecisionFloatGemvFastPathKernel.cpp)

_HALF_LANES = 8   # floats per vector of the fast path's dot product (the kernel PyTorch's CPU build runs: AVX2)
_MKLDNN_MIN = 16 * 16 * 16   # bfloat16 mv above this many matrix elements goes to oneDNN (not modelled)


def _half_gemv_applies(dtype, mat, vec) -> bool:
    """float16/bfloat16 operands of one dtype that PyTorch's own gemv takes (not oneDNN's bfloat16 gemm)."""
    return (dtype.itemsize == 2 and dtype.kind in "fV" and mat.dtype == vec.dtype == dtype
            and not (dtype.kind == "V" and mat.size > _MKLDNN_MIN))


def _tree_sum(v: np.ndarray) -> np.ndarray:
    """vec_reduce_all over the last axis (one float vector): lane i + lane i + w/2, halving down to one lane."""
    while v.shape[-1] > 1:
        half = v.shape[-1] // 2
        v = v[..., :half] + v[..., half:]
    return v[..., 0]


def _dot_fp32(p: np.ndarray) -> np.ndarray:
    """dot_with_fp32_arith of each row of ``p`` (the float32 products x_j·a_ij, exact for half inputs), in its
    order: eight float vectors of w lanes take blocks of 8w products (vector r the products r·w .. r·w + w-1 of
    each block), then add pairwise (r + r+4, r + r+2, r + r+1) and across lanes (_tree_sum); one more vector
    takes the remaining runs of 2w products (first w, then the next w, per lane), reduced and added; the last
    products (fewer than 2w) are added one by one."""
    rows, k = p.shape
    w = _HALF_LANES
    blocks, runs = k & ~(8 * w - 1), k & ~(2 * w - 1)
    acc = _running_sum(p[:, :blocks].reshape(rows, -1, 8, w), 1)         # (rows, 8, w), each from +0
    acc = acc[:, :4] + acc[:, 4:]
    acc = acc[:, :2] + acc[:, 2:]
    total = _tree_sum(acc[:, 0] + acc[:, 1])
    tail = _running_sum(p[:, blocks:runs].reshape(rows, -1, w), 1)       # (rows, w)
    return _running_sum(p[:, runs:], 1, start=total + _tree_sum(tail))


def _half_addmv(bias, mat, vec, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(mat @ vec)`` of float16/bfloat16 as PyTorch's gemv<Half/BFloat16>.

    The layout picks the call as in addmv_out_cpu: a column-major ``mat`` is gemv 'n', otherwise 't' (on a
    contiguous copy if need be). gemv 't' with α = 1 and a contiguous vector (bfloat16: also β = 0) is the fast
    path: float32 dot products (_dot_fp32), y = dot, float(y) + dot or β·y + dot, rounded once. Otherwise
    BlasKernel's loops: 't' sums the products one by one in float, then y = α·sum or (β·y in the half type) +
    α·sum; 'n' scales y by β in the half type, sums (α·x_j)·column_j in float per output, and adds that sum
    rounded to the half type to y."""
    dtype = mat.dtype
    t = dtype.type
    beta_h, alpha_h = t(beta), t(alpha)          # (Scalar::to<scalar_t>)
    f32 = _F32.type
    m, n = mat.shape
    y = np.array(bias, dtype=dtype) if beta != 0 else np.zeros(m, dtype)
    s0, s1 = _st(mat, 0), _st(mat, 1)
    column_major = s0 == 1 and (n == 1 or s1 >= max(1, m))
    incx = _st(vec, 0) if n > 1 else 1
    if not column_major:
        p = mat.astype(_F32) * vec.astype(_F32)          # (exact: 11- or 8-bit significands)
        fast = incx == 1 and alpha_h == 1 and (dtype.kind == "f" or beta_h == 0)
        if fast:
            dot = _dot_fp32(p)
            if beta_h == 0:
                return dot.astype(dtype)
            if beta_h == 1:
                return (y.astype(_F32) + dot).astype(dtype)
            return (f32(beta_h) * y.astype(_F32) + dot).astype(dtype)
        scaled = f32(alpha_h) * _running_sum(p, 1)
        if beta_h == 0:
            return scaled.astype(dtype)
        return ((beta_h * y).astype(_F32) + scaled).astype(dtype)
    if beta_h != 0 and beta_h != 1:
        y = np.where(beta_h == 0, t(0), y * beta_h).astype(dtype)
    z = f32(alpha_h) * vec.astype(_F32)                    # α·x_j in float
    sums = _running_sum((z[None, :] * mat.astype(_F32)), 1)  # Σ_j (α·x_j)·a_ij, each product rounded
    if beta_h == 0:
        return sums.astype(dtype)
    return (y + sums.astype(dtype)).astype(dtype)   # (Half += float: the sum rounded, then added in the half type)


def _plain_product(a, b):
    """Complex a·b from rounded products, (ac - bd, ad + bc): the compiled loops of PyTorch's complex gemv."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), np.result_type(a, b))
    out.real, out.imag = a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real
    return out


def _complex_addmv(bias, mat, vec, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(mat @ vec)`` for complex operands: PyTorch's own gemv loop (BlasKernel.cpp; no BLAS for
    complex gemv), products plain and added in order from 0. A column-major matrix (the 'n' loop): y = β·bias,
    then y += (α·x_j)·column_j, j by j; otherwise (the 't' loop over the rows) β·y + α·Σ_j x_j·row_j. The
    scalars' products are c10's (fused multiply-adds), except with β = 1, where they are plain too (read off
    PyTorch 2.13 by probing)."""
    dtype = bias.dtype

    def scalar_times(number, x):
        number = np.asarray(number, dtype)
        if beta == 1:
            return _plain_product(number, x)
        out = np.empty(x.shape, dtype)   # (c10::complex's operator* in scalar code: _complex_bits)
        ar, ai, br, bi = number.real, number.imag, x.real, x.imag
        out.real, out.imag = _complex_bits._fma(ar, br, -(ai * bi)), _complex_bits._fma(ar, bi, ai * br)
        return out

    m, n = mat.shape
    with np.errstate(all="ignore"):
        if _st(mat, 0) == 1 and (n == 1 or _st(mat, 1) >= max(1, m)):
            z = vec if alpha == 1 else scalar_times(alpha, vec)
            start = None if beta == 0 else bias if beta == 1 else scalar_times(beta, bias)
            return _running_sum(_plain_product(z, mat), 1, start)
        sums = _running_sum(_plain_product(vec, mat), 1)
        out = sums if alpha == 1 else scalar_times(alpha, sums)
        return out if beta == 0 else (bias if beta == 1 else scalar_times(beta, bias)) + out


def _naive_gemv(trans: bool, mat, vec, beta, alpha, out) -> np.ndarray:
    """PyTorch's own gemv loop (BlasKernel.cpp) for an expanded vector: with ``trans`` (a row-major
    matrix) a running sum per output, then β·y + α·sum; else y (0, y or β·y) += (α·x_k)·column_k, k by k."""
    t = out.dtype.type
    if trans:
        sums = _running_sum(vec * mat, 1)
        return t(alpha) * sums if beta == 0 else t(beta) * out + t(alpha) * sums
    start = np.zeros_like(out) if beta == 0 else (out if beta == 1 else out * t(beta))
    return _running_sum((t(alpha) * vec) * mat, 1, start)


def mv(a: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Matrix @ vector as PyTorch's mv (addmv with β = 0: MKL's gemv)."""
    if a.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"addmv_impl_cpu\" not implemented for 'Bool'")
    return addmv(np.zeros((), a.dtype), a, v, 0, 1)


def dot(x: np.ndarray, y: np.ndarray, conjugate: bool = False) -> np.ndarray:
    """The inner product of two vectors as PyTorch's dot (MKL's ?dot; ``conjugate``: vdot's conj(x)·y)."""
    if x.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    k = x.shape[0]
    if k and x.dtype == y.dtype and _half_gemv_applies(x.dtype, x, y):
        # float16/bfloat16: dot_with_fp32_arith on contiguous vectors, else dot_naive (a float sum in order)
        p = (x.astype(_F32) * y.astype(_F32))[None]
        contiguous = k == 1 or (_st(x, 0) == 1 and _st(y, 0) == 1)
        return np.asarray((_dot_fp32(p) if contiguous else _running_sum(p, 1))[0], dtype=x.dtype)
    if not (k and _uses_mkl(x, y)):
        return np.asarray((np.vdot(x, y) if conjugate else np.dot(x, y)) + 0)   # + 0: a sum from +0 (no -0)
    incx, incy = (1, 1) if k == 1 else (_st(x, 0), _st(y, 0))
    _sync_threads()
    if x.dtype.kind != "c":
        return np.asarray((_SDOT if x.dtype == _F32 else _DDOT)[x.dtype](k, _ptr(x), incx, _ptr(y), incy), x.dtype)
    out = np.zeros((), x.dtype)
    (_DOTC if conjugate else _DOTU)[x.dtype](k, _ptr(x), incx, _ptr(y), incy, _ptr(out))
    return out


# =============================================================================================
# bmm and baddbmm: PyTorch's bmm_out_or_baddbmm_
# =============================================================================================

def _items_ok(x: np.ndarray) -> bool:
    """batch_items_contiguous_or_transposed: each matrix row-major or column-major."""
    s1, s2 = _st(x, 1), _st(x, 2)
    return (s2 == 1 and (x.shape[1] == 1 or s1 >= x.shape[2])) or (s1 == 1 and (x.shape[2] == 1 or s2 >= x.shape[1]))


def _unchecked_batch() -> dict:
    """dtype -> MKL's cblas_?gemm_batch without ctypes' argument conversion (every argument but two is a
    pointer: callers pass ``byref`` objects, ctypes arrays and Python ints). Empty without MKL."""
    if _LIB is None:
        return {}
    out = {}
    for dtype, prefix in zip(_BLAS_TYPES, "sdcz"):
        fn = _LIB["cblas_" + prefix + "gemm_batch"]   # (a new function object: _GEMM_BATCH's keeps its argtypes)
        fn.restype = None
        out[dtype] = fn
    return out


_GEMM_BATCH_ANY = _unchecked_batch()
_BMM_PLANS: dict = {}  # (shapes, strides, dtypes) of _bmm_into's operands -> its batch gemm (_bmm_plan); False: none


def _bmm_plan(a: np.ndarray, b: np.ndarray):
    """The one batch gemm call ``_bmm_into`` makes for ``a @ b`` into a fresh contiguous result, worked out once
    per layout as mm's ``_mm_plan`` (the operands' shapes, strides and dtypes decide it all), or False where
    ``_bmm_into`` does something else: items neither row- nor column-major (one addmm each), a batch of one (a
    plain gemm).

    The plan: (gemm_batch, its nine int arguments as ``byref`` pointers (transa, transb, m, n, k, lda, ldb, ldc,
    the group's size), whether a's and b's items are passed as their transposes' buffers (``_arg``'s rule), and
    the byte offset of every item of MKL's A, B and C (b, a and the result) from the first one, a (3, count)
    array of addresses to add the operands' first addresses to)."""
    count, rows, k = a.shape
    cols = b.shape[2]
    if count == 1 or a.dtype not in _GEMM_BATCH_ANY or not (_items_ok(a) and _items_ok(b)):
        return False
    # the same flags and leading dimensions as _bmm_into's general path, normalized as _gemm does
    transa = _st(b, 1) == 1 and _st(b, 2) >= b.shape[1]
    transb = _st(a, 1) == 1 and _st(a, 2) >= a.shape[1]
    lda = _st(b, 2 if transa else 1)
    ldb = _st(a, 2 if transb else 1)
    ta, tb, lda, ldb, ldc = _normalized(transa, transb, cols, rows, k, lda, ldb, cols)   # (the result's row: cols)
    ints = tuple(ctypes.byref(ctypes.c_int(v)) for v in (ta, tb, cols, rows, k, lda, ldb, ldc, count))
    item_bytes = np.array([[_st(b, 0)], [_st(a, 0)], [rows * cols]], np.uintp) * a.itemsize
    offsets = np.arange(count, dtype=np.uintp) * item_bytes   # (a batch of stride 0: one item, count times)
    flip = tuple(x.strides[2] != x.itemsize for x in (a, b))
    return _GEMM_BATCH_ANY[a.dtype], ints, flip, offsets


def _item_address(x: np.ndarray, flip: bool) -> int:
    """The address of a batch's first element (MKL's pointers to the items count from it): through the buffer
    protocol for its first item, row-major or the transpose of a column-major one (``_arg``'s rule), else from
    ``x.ctypes.data`` (a read-only batch, or items whose rows have gaps)."""
    try:
        return _addressof(_from_buffer(x[0].T if flip else x[0]))
    except (TypeError, ValueError):
        return x.ctypes.data


def _bmm_into(out: np.ndarray, a: np.ndarray, b: np.ndarray, beta, alpha) -> np.ndarray:
    """out = β·out + α·a @ b per item with MKL, ``out`` a fresh contiguous batch: the batch gemm
    (baddbmm_with_gemm_) when each item is row- or column-major, else one addmm per item."""
    count, rows, k = a.shape
    cols = b.shape[2]
    # The usual batch: the call below from a plan kept per layout, without working out the flags and leading
    # dimensions again, with the items' addresses added by NumPy (not ``x.ctypes.data`` per item: ~14k
    # instructions each) and no argument conversion by ctypes.
    key = (a.shape, a.strides, b.shape, b.strides, a.dtype, b.dtype)
    plan = _BMM_PLANS.get(key)
    if plan is None:
        plan = _bmm_plan(a, b)
        if len(_BMM_PLANS) < 4096:
            _BMM_PLANS[key] = plan
    if plan:
        gemm_batch, (ta, tb, m, n, kk, lda, ldb, ldc, size), (flip_a, flip_b), offsets = plan
        if _mkl_threads[0] != _vml.num_threads():
            _sync_threads()
        first = np.array([[_item_address(b, flip_b)], [_item_address(a, flip_a)], [_ptr(out)]], np.uintp)
        pointers = offsets + first   # (3, count): MKL's A, B and C item by item
        scalars = np.array([alpha, beta], out.dtype)   # (the batch gemm takes arrays of alpha and beta)
        p, s = _from_buffer(pointers), _from_buffer(scalars)
        row, item = pointers.strides[0], out.itemsize
        gemm_batch(_COL_MAJOR, ta, tb, m, n, kk, _byref(s), _byref(p), lda, _byref(p, row), ldb, _byref(s, item),
                   _byref(p, 2 * row), ldc, 1, size)
        return out
    if not (_items_ok(a) and _items_ok(b)):
        for i in range(count):
            _addmm_into(out[i], a[i], b[i], beta, alpha)
        return out
    # gemm reads column-major matrices, so PyTorch swaps the operands to compute outᵀ = bᵀ·aᵀ
    transa = _st(b, 1) == 1 and _st(b, 2) >= b.shape[1]
    transb = _st(a, 1) == 1 and _st(a, 2) >= a.shape[1]
    lda = _st(b, 2 if transa else 1)
    ldb = _st(a, 2 if transb else 1)
    _gemm(transa, transb, cols, rows, k, alpha, b, lda, a, ldb, beta, out, _st(out, 1),
          batch=(count, _st(b, 0), _st(a, 0), _st(out, 0)))
    return out


def _loop_product(a, b, opmath):
    """baddbmm_cpu_kernel's sums (below 400 multiply-adds): each element a running sum from 0 over k."""
    terms = a.astype(opmath)[:, :, :, None] * b.astype(opmath)[:, None]
    if opmath.kind == "c":
        # c10::complex's product (ac - bd, ad + bc) from rounded products: LinearAlgebra.cpp is compiled without
        # FMA contraction, and NumPy's complex multiply rounds otherwise
        x, y = np.broadcast_arrays(a.astype(opmath)[:, :, :, None], b.astype(opmath)[:, None])
        with np.errstate(all="ignore"):
            terms.real, terms.imag = x.real * y.real - x.imag * y.imag, x.real * y.imag + x.imag * y.real
    zero = np.zeros(terms.shape[:2] + (1,) + terms.shape[3:], opmath)
    return np.add.accumulate(np.concatenate([zero, terms], axis=2), axis=2).take(-1, axis=2)   # (a copy)


def _opmath(dtype: np.dtype) -> np.dtype:
    """PyTorch's accumulation type: float32 for half and bfloat16, else the dtype."""
    return np.dtype(np.float32) if dtype.itemsize <= 2 and dtype.kind in "fV" else dtype


def bmm(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Batched matrix product as PyTorch's bmm (its own loop below 400 multiply-adds, else MKL)."""
    batch, m, k = a.shape
    n = b.shape[2]
    if not (a.size and b.size and m * n):   # (PyTorch returns zeros in mat2's dtype before any dtype check)
        return np.zeros((batch, m, n), b.dtype)
    if a.dtype == np.bool_:  # (PyTorch's BLAS kernels have no bool)
        raise NotImplementedError("\"bmm\" not implemented for 'Bool'")
    if m * k * n < 400 and a.dtype.kind in "fcV":
        return _loop_product(a, b, _opmath(a.dtype)).astype(a.dtype, copy=False)
    if _uses_mkl(a, b):
        return _bmm_into(np.empty((batch, m, n), a.dtype), a, b, 0, 1)
    return _in_dtype(_np_matmul(a, b), a)


def baddbmm(bias: np.ndarray, a: np.ndarray, b: np.ndarray, beta, alpha) -> np.ndarray:
    """``beta·bias + alpha·(a @ b)`` per batch (bias broadcast); β = 0 ignores bias (even its NaNs), as PyTorch."""
    dtype = np.result_type(bias, a, b)
    if dtype.kind in "iub":   # integer inputs: PyTorch reads β and α in the tensor's integer type
        beta, alpha = int(beta), int(alpha)
    opmath = _opmath(dtype)
    shape = (a.shape[0], a.shape[1], b.shape[2])
    if dtype.kind in "fcV" and a.shape[1] * a.shape[2] * b.shape[2] < 400:
        # PyTorch's own loop (baddbmm_cpu_kernel) in the "opmath" type: self·β + α·sum (β = 0: α·sum)
        acc = _loop_product(a, b, opmath)
        beta, alpha = opmath.type(beta), opmath.type(alpha)
        out = alpha * acc if beta == 0 else np.broadcast_to(bias, acc.shape).astype(opmath) * beta + alpha * acc
        return out.astype(dtype)
    if a.size and b.size and a.shape[2] and dtype == a.dtype and _uses_mkl(a, b):
        out = np.empty(shape, dtype)
        if beta != 0:
            out[...] = bias
        return _bmm_into(out, a, b, beta, alpha)
    if dtype.kind in "fcV":
        beta, alpha = opmath.type(beta), opmath.type(alpha)
    prod = _np_matmul(a, b) if a.shape[2] else np.zeros(shape, dtype)
    out = alpha * prod if beta == 0 else np.broadcast_to(bias, prod.shape) * beta + alpha * prod
    return np.asarray(out).astype(dtype, copy=False)


def _running_sum(terms: np.ndarray, axis: int, start=None) -> np.ndarray:
    """sum(terms) along ``axis`` added one by one (float32 for other types), from +0 (or ``start``), as a loop
    would."""
    shape = list(terms.shape)
    shape[axis] = 1
    head = np.zeros(shape, terms.dtype if terms.dtype.kind in "fc" else _F32)
    if start is not None:
        head[...] = np.expand_dims(start, axis)
    # accumulate is a running sum by definition (reduce may add pairwise)
    return np.add.accumulate(np.concatenate([head, terms], axis=axis), axis=axis).take(-1, axis=axis)
