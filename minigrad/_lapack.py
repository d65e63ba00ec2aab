"""MKL's LAPACK through ctypes: the routines PyTorch's CPU build calls for torch.linalg, called the same way.

PyTorch 2.13 links MKL 2024.2 statically and calls its Fortran LAPACK symbols (``sgetrf_``, ``dsyevd_`` ...)
one matrix at a time (aten/src/ATen/native/BatchLinearAlgebra.cpp, ``apply_*``): on a column-major copy of
each matrix, with the optimal workspace that a first ``lwork = -1`` call reports. This module calls the same
routines of the same MKL (the ``mkl`` package, loaded by ``_vml.py``) with the same arguments, so the values
are PyTorch's bit for bit; NumPy's LAPACK (OpenBLAS / lapack_lite) agrees only to within rounding.

Two things decide MKL's bits beyond the arguments: its threading layer (the threaded one, which PyTorch uses,
takes other code paths than the sequential one even on one thread, see ``_vml.py``) and its thread count:
larger matrices are split across threads, so each call runs on minigrad's intra-op thread count
(``minigrad.set_num_threads``, PyTorch's default), as PyTorch sets MKL's.

Every function takes NumPy arrays of shape (..., m, n) in any layout (a batch is looped over) and returns
them as PyTorch does: each matrix column-major (its strides then match PyTorch's, and so do the later ops
whose BLAS calls depend on the layout), buffers on 64-byte boundaries. ``available`` is False without the
library (other architectures): callers then keep their NumPy route. Only float32, float64, complex64 and
complex128 are handled (``supports``).
"""
from __future__ import annotations

import ctypes
from contextlib import contextmanager

import numpy as np

from . import _reduce as _sums
from . import _vml
from ._float_math import _fma64

_LIB = _vml._LIB
available = _LIB is not None
_PREFIX = {np.dtype(np.float32): "s", np.dtype(np.float64): "d", np.dtype(np.complex64): "c",
           np.dtype(np.complex128): "z"}
_REAL = {"s": ctypes.c_float, "d": ctypes.c_double, "c": ctypes.c_float, "z": ctypes.c_double}
_INT = np.int32  # MKL_INT of the LP64 interface
_ALIGN = 64      # bytes (c10::gAlignment)
_log = _vml.unary("log", np.log)
_NO_INFO = ("trsm",)  # (BLAS)


def supports(*arrays: np.ndarray) -> bool:
    """True when MKL is loaded and every array has a LAPACK dtype."""
    return available and all(a.dtype in _PREFIX for a in arrays)


@contextmanager
def _threads():
    """MKL's thread count for this thread = minigrad's intra-op count (PyTorch's mkl_set_num_threads; one
    thread in a forked child, see ``_vml.num_threads``)."""
    previous = _LIB.MKL_Set_Num_Threads_Local(int(_vml.num_threads()))
    try:
        yield
    finally:
        _LIB.MKL_Set_Num_Threads_Local(previous)


def _call(routine: str, dtype: np.dtype, *args) -> int:
    """Call ``<s|d|c|z><routine>_`` with Fortran's by-reference arguments; returns LAPACK's info.

    ints become MKL_INT, floats the real type of ``dtype``, one-letter strings Fortran characters (their
    hidden lengths appended), arrays their data pointers. info (LAPACK's last argument) is added here.
    """
    prefix = _PREFIX[np.dtype(dtype)]
    info = ctypes.c_int(0)
    refs, lengths = [], []
    for x in args:
        if isinstance(x, np.ndarray):
            refs.append(ctypes.c_void_p(x.ctypes.data))
        elif isinstance(x, str):
            refs.append(ctypes.c_char_p(x.encode()))
            lengths.append(ctypes.c_size_t(1))
        elif isinstance(x, float):
            refs.append(ctypes.byref(_REAL[prefix](x)))
        else:
            refs.append(ctypes.byref(ctypes.c_int(int(x))))
    getattr(_LIB, f"{prefix}{routine}_")(*refs, *([] if routine in _NO_INFO else [ctypes.byref(info)]), *lengths)
    return info.value


def _empty(shape: tuple, dtype) -> np.ndarray:
    """A C-contiguous array whose data start on a 64-byte boundary, as PyTorch's CPU allocator places them.

    (MKL's kernels peel their loops by the address: a buffer on another boundary can round differently.)
    """
    dtype = np.dtype(dtype)
    nbytes = max(1, int(np.prod(shape, dtype=np.int64))) * dtype.itemsize
    raw = np.empty(nbytes + _ALIGN, np.uint8)
    start = -raw.ctypes.data % _ALIGN
    # (through a memoryview: the array owns its storage from the aligned start, so a result's storage_offset()
    # is 0 as PyTorch's fresh tensors', not the padding before it)
    flat = np.frombuffer(memoryview(raw[start:start + nbytes]), dtype)
    return flat[:int(np.prod(shape, dtype=np.int64))].reshape(shape)


def _zeros(shape: tuple, dtype) -> np.ndarray:
    out = _empty(shape, dtype)
    out[...] = 0
    return out


def _columns(a: np.ndarray, dtype=None) -> np.ndarray:
    """A copy of the batch in which each matrix is column-major (PyTorch's batched F-contiguous clone)."""
    out = _empty(a.shape[:-2] + a.shape[-2:][::-1], dtype or a.dtype)
    out[...] = np.swapaxes(a, -1, -2)
    return np.swapaxes(out, -1, -2)


def _row_major(a: np.ndarray) -> np.ndarray:
    """A row-major (C-contiguous) copy on a 64-byte boundary."""
    out = _empty(a.shape, a.dtype)
    out[...] = a
    return out


def column_major(a: np.ndarray) -> np.ndarray:
    """``a`` laid out as PyTorch's batched column-major result (for a vector result: its batch as the rows)."""
    return _columns(a) if a.ndim >= 2 else np.ascontiguousarray(a)


def _work_size(routine: str, dtype, before: tuple, after: tuple = ()) -> int:
    """lwork from a query: ``before`` are the arguments up to work, ``after`` those between lwork and info."""
    work = _zeros(1, dtype)
    _call(routine, dtype, *before, work, -1, *after)
    return max(1, int(work[0].real))


# =============================================================================================
# LU: getrf, getrs
# =============================================================================================

def getrf(a: np.ndarray):
    """(LU, pivots, info) of each m x n matrix: linalg.lu_factor_ex (apply_lu_factor, ?getrf)."""
    lu = _columns(a)
    m, n = lu.shape[-2:]
    pivots = _zeros(lu.shape[:-2] + (min(m, n),), _INT)
    info = _zeros(lu.shape[:-2], _INT)
    with _threads():
        for i in np.ndindex(lu.shape[:-2]):
            if lu[i].size:
                info[i] = _call("getrf", lu.dtype, m, n, lu[i], max(1, m), pivots[i])
    return lu, pivots, info


def getrs(lu: np.ndarray, pivots: np.ndarray, b: np.ndarray, trans: str = "N") -> np.ndarray:
    """X with op(A) X = B, A = PLU given packed (op: N, T or C): linalg.lu_solve (apply_lu_solve, ?getrs).

    Batch dims broadcast, as PyTorch's lu_solve broadcasts LU, pivots and B.
    """
    batch = np.broadcast_shapes(lu.shape[:-2], pivots.shape[:-1], b.shape[:-2])
    dtype = np.result_type(lu, b)  # (a real B with a complex LU: promoted, as the NumPy route did)
    x = _columns(np.broadcast_to(b, batch + b.shape[-2:]), dtype)
    lu = _columns(np.broadcast_to(lu, batch + lu.shape[-2:]), dtype)
    pivots = np.ascontiguousarray(np.broadcast_to(pivots, batch + pivots.shape[-1:]), _INT)
    n, nrhs = x.shape[-2:]
    with _threads():
        for i in np.ndindex(batch):
            if x[i].size:
                _call("getrs", x.dtype, trans, n, nrhs, lu[i], max(1, n), pivots[i], x[i], max(1, n))
    return x


def solve(a: np.ndarray, b: np.ndarray, left: bool = True):
    """(X, LU, pivots, info) of AX = B (XA = B): linalg.solve_ex (_linalg_solve_ex_out: getrf, then getrs).

    X = BA⁻¹ is solved as Aᴴ Xᴴ = Bᴴ (linalg_lu_solve). (PyTorch 2.13 factors A itself: its LU output and
    its bits are those of getrf(A), not of the Aᵀ shortcut that a comment in the source still describes.)
    """
    lu, pivots, info = getrf(a)
    if left:
        return getrs(lu, pivots, b), lu, pivots, info
    xh = getrs(lu, pivots, np.conj(np.swapaxes(b, -1, -2)), trans_letter(True, a))
    return np.conj(np.swapaxes(xh, -1, -2)), lu, pivots, info  # (row-major, as PyTorch's transposed result)


def trans_letter(adjoint: bool, a: np.ndarray) -> str:
    """getrs' trans: N, or for the adjoint T (real) / C (complex)."""
    return ("C" if a.dtype.kind == "c" else "T") if adjoint else "N"


def lu_det_p(pivots: np.ndarray) -> np.ndarray:
    """det P = ±1 from LAPACK's row swaps (PyTorch's lu_det_P: the parity of pivots[i] != i + 1)."""
    swaps = (pivots != np.arange(1, pivots.shape[-1] + 1, dtype=pivots.dtype)).sum(-1)
    return 1 - 2 * (swaps % 2)


def _det_lu(a: np.ndarray):
    """(LU, pivots): _linalg_det_out / _linalg_slogdet_out factor Aᴴ (= Aᵀ) for a C-contiguous real A."""
    use_a_t = a.flags.c_contiguous and a.dtype.kind != "c"
    lu, pivots, _ = getrf(np.swapaxes(a, -1, -2) if use_a_t else a)
    return lu, pivots


def _diagonal_product(d: np.ndarray) -> np.ndarray:
    """Π d[..., j], multiplied left to right (PyTorch's prod over the strided diagonal)."""
    out = np.ones(d.shape[:-1], d.dtype)
    for j in range(d.shape[-1]):
        if d.dtype == np.complex64:  # (c10::complex's a·c - b·d, a·d + b·c, each product rounded; probed)
            x, y = out, d[..., j]
            out = np.empty_like(out)
            out.real = x.real * y.real - x.imag * y.imag
            out.imag = x.real * y.imag + x.imag * y.real
        else:
            out = out * d[..., j]
    return out


def _fused_product(d: np.ndarray) -> np.ndarray:
    """Π d[..., j] of a contiguous complex tensor, left to right, each part fused as c10::complex's product
    compiles in PyTorch's AVX2/AVX512 kernels: re = fma(a, c, -b·d), im = fma(a, d, b·c) (probed: prod of
    up to 8 complex64 factors; longer rows are summed in vector lanes, not reproduced here)."""
    fma = _fma64 if d.dtype == np.complex128 else (lambda x, y, z: x.astype(np.float64) * y + z)
    real = d.real.dtype
    out = np.ones(d.shape[:-1], d.dtype)
    for j in range(d.shape[-1]):
        a, b, c, e = out.real, out.imag, d[..., j].real, d[..., j].imag
        out = np.empty_like(out)
        out.real = np.asarray(fma(a, c, -(b * e)), real)
        out.imag = np.asarray(fma(a, e, b * c), real)
    return out


def det(a: np.ndarray):
    """(det, LU, pivots): linalg.det (_linalg_det_out: det P · Π diag(U), from getrf)."""
    lu, pivots = _det_lu(a)
    with np.errstate(over="ignore", under="ignore", invalid="ignore"):
        product = _diagonal_product(np.diagonal(lu, axis1=-2, axis2=-1))
    return np.asarray(product * lu_det_p(pivots).astype(a.dtype)), lu, pivots


def slogdet(a: np.ndarray):
    """(sign, log|det|, LU, pivots): linalg.slogdet (_linalg_slogdet_out: Π sgn(diag U) · det P, Σ log|diag U|)."""
    lu, pivots = _det_lu(a)
    d = np.diagonal(lu, axis1=-2, axis2=-1)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        if d.dtype.kind == "c":  # (on the strided diagonal PyTorch's abs is libm's hypot, its sgn z·(1/|z|))
            size = np.hypot(d.real.astype(np.float64), d.imag.astype(np.float64)).astype(d.real.dtype)
            sgn = np.zeros_like(d)
            sgn.real, sgn.imag = d.real * (1 / size), d.imag * (1 / size)
            sgn[size == 0] = 0
            sign = _fused_product(sgn)  # (sgn's result is contiguous: another prod kernel than det's)
        else:
            size = np.abs(d)
            # (PyTorch's sign is (0 < x) - (x < 0): 0 for a NaN pivot, where NumPy's sign gives NaN)
            sign = _diagonal_product((d > 0).astype(d.dtype) - (d < 0).astype(d.dtype))
        sign = sign * lu_det_p(pivots).astype(a.dtype)
        logabsdet = _sums.sum(_log(np.ascontiguousarray(size)), axis=-1)
    return np.asarray(sign), np.asarray(logabsdet, size.dtype), lu, pivots


# =============================================================================================
# Cholesky: potrf, potrs
# =============================================================================================

def potrf(a: np.ndarray, upper: bool):
    """(L or U, info): linalg.cholesky_ex (apply_cholesky, ?potrf), then the other triangle zeroed."""
    c = _columns(a)
    n = c.shape[-1]
    info = _zeros(c.shape[:-2], _INT)
    with _threads():
        for i in np.ndindex(c.shape[:-2]):
            if n:
                info[i] = _call("potrf", c.dtype, "U" if upper else "L", n, c[i], max(1, n))
    c[...] = np.triu(c) if upper else np.tril(c)  # (in the column-major buffer: PyTorch's triu_ / tril_)
    return c, info


def potrs(b: np.ndarray, factor: np.ndarray, upper: bool) -> np.ndarray:
    """X with AX = B, A = LLᴴ (UᴴU) from its factor: cholesky_solve (apply_cholesky_solve, ?potrs)."""
    batch = np.broadcast_shapes(b.shape[:-2], factor.shape[:-2])
    x = _columns(np.broadcast_to(b, batch + b.shape[-2:]))
    f = _columns(np.broadcast_to(factor, batch + factor.shape[-2:]))
    n, nrhs = x.shape[-2:]
    with _threads():
        for i in np.ndindex(batch):
            if x[i].size:
                _call("potrs", x.dtype, "U" if upper else "L", n, nrhs, f[i], max(1, n), x[i], max(1, n))
    return x


# =============================================================================================
# Symmetric / Hermitian eigenproblem: syevd, heevd
# =============================================================================================

def syevd(a: np.ndarray, uplo: str = "L", vectors: bool = True):
    """(eigenvalues, eigenvectors or None): linalg.eigh / eigvalsh (apply_lapack_eigh, ?syevd / ?heevd)."""
    v = _columns(a)
    n = v.shape[-1]
    complex_ = v.dtype.kind == "c"
    real = v.real.dtype
    w = _zeros(v.shape[:-1], real)
    jobz = "V" if vectors else "N"
    info = _zeros(v.shape[:-2], _INT)
    with _threads():
        for i in np.ndindex(v.shape[:-2]):
            if not n:
                continue
            work, iwork, rwork = _zeros(1, v.dtype), _zeros(1, _INT), _zeros(1, real)
            if complex_:  # (one query reports all three sizes)
                _call("heevd", v.dtype, jobz, uplo, n, v[i], n, w[i], work, -1, rwork, -1, iwork, -1)
                work, rwork = _zeros(max(1, int(work[0].real)), v.dtype), _zeros(max(1, int(rwork[0])), real)
                iwork = _zeros(max(1, int(iwork[0])), _INT)
                info[i] = _call("heevd", v.dtype, jobz, uplo, n, v[i], n, w[i], work, work.size, rwork, rwork.size,
                                iwork, iwork.size)
            else:
                _call("syevd", v.dtype, jobz, uplo, n, v[i], n, w[i], work, -1, iwork, -1)
                work, iwork = _zeros(max(1, int(work[0])), v.dtype), _zeros(max(1, int(iwork[0])), _INT)
                info[i] = _call("syevd", v.dtype, jobz, uplo, n, v[i], n, w[i], work, work.size, iwork, iwork.size)
    if info.any():
        # PyTorch's _linalg_check_errors(info, "linalg.eigh"): the first matrix LAPACK failed on (info > 0: that
        # many off-diagonal elements did not converge). eigvalsh and pinv(hermitian=True) report it so too.
        from ._ops_matrices import _LinAlgError, batch_prefix
        bad = info != 0
        raise _LinAlgError(f"linalg.eigh: {batch_prefix(bad, bad.shape)}The algorithm failed to converge because "
                           f"the input matrix is ill-conditioned or has too many repeated eigenvalues (error code: "
                           f"{int(info[bad][0]) if bad.shape else int(info)}).")
    return w, (v if vectors else None)


# =============================================================================================
# Singular value decomposition: gesdd
# =============================================================================================

def _svd_rwork(jobz: str, m: int, n: int) -> int:
    """PyTorch's computeLRWorkDim: the complex gesdd's real workspace."""
    mn, mx = min(m, n), max(m, n)
    if jobz == "N":
        return 5 * mn
    if mx > 10 * mn:
        return 5 * mn * mn + 5 * mn
    return max(5 * mn * mn + 5 * mn, 2 * mx * mn + 2 * mn * mn + mn)


def gesdd(a: np.ndarray, full_matrices: bool = False, compute_uv: bool = True):
    """(U, S, Vh) (U, Vh None without compute_uv): linalg.svd / svdvals (apply_svd, ?gesdd).

    jobz is 'A' (full_matrices), 'S' or 'N' (no vectors: PyTorch's svdvals unless a gradient is needed).
    """
    work_a = _columns(a)
    m, n = work_a.shape[-2:]
    k = min(m, n)
    batch = work_a.shape[:-2]
    jobz = ("A" if full_matrices else "S") if compute_uv else "N"
    real = work_a.real.dtype
    ucols, vrows = (m, n) if jobz == "A" else (k, k)
    u = _columns(_zeros(batch + (m, ucols if compute_uv else 1), work_a.dtype))
    vh = _columns(_zeros(batch + (vrows if compute_uv else 1, n), work_a.dtype))
    s = _zeros(batch + (k,), real)
    ldu, ldvt = max(1, m), max(1, vrows if compute_uv else 1)
    iwork = _zeros(max(1, 8 * k), _INT)
    complex_ = work_a.dtype.kind == "c"
    rwork = (_zeros(max(1, _svd_rwork(jobz, m, n)), real),) if complex_ else ()
    info = _zeros(batch, _INT)
    with _threads():
        for i in np.ndindex(batch):
            if not work_a[i].size:
                continue
            head = (jobz, m, n, work_a[i], max(1, m), s[i], u[i], ldu, vh[i], ldvt)
            lwork = _work_size("gesdd", work_a.dtype, head, rwork + (iwork,))
            info[i] = _call("gesdd", work_a.dtype, *head, _zeros(lwork, work_a.dtype), lwork, *rwork, iwork)
    if not compute_uv:
        return None, s, None
    if not work_a.size and full_matrices:  # (an empty A: identities are its SVD, as PyTorch fills them)
        u[...], vh[...] = np.eye(m, dtype=u.dtype), np.eye(n, dtype=vh.dtype)
    return u, s, vh


# =============================================================================================
# QR: geqrf, orgqr / ungqr, ormqr / unmqr
# =============================================================================================

def geqrf(a: np.ndarray):
    """(a, tau): R above, reflectors below the diagonal: torch.geqrf / linalg.qr (apply_geqrf, ?geqrf)."""
    qr = _columns(a)
    m, n = qr.shape[-2:]
    tau = _zeros(qr.shape[:-2] + (min(m, n),), qr.dtype)
    with _threads():
        for i in np.ndindex(qr.shape[:-2]):
            if not qr[i].size:
                continue
            head = (m, n, qr[i], max(1, m), tau[i])
            lwork = _work_size("geqrf", qr.dtype, head)
            _call("geqrf", qr.dtype, *head, _zeros(lwork, qr.dtype), lwork)
    return qr, tau


def orgqr(a: np.ndarray, tau: np.ndarray) -> np.ndarray:
    """The m x n matrix H_1 ⋯ H_k from geqrf's reflectors: householder_product (apply_orgqr, ?orgqr / ?ungqr)."""
    q = _columns(a)
    m, n = q.shape[-2:]
    k = tau.shape[-1]
    tau = np.ascontiguousarray(np.broadcast_to(tau, q.shape[:-2] + (k,)), q.dtype)
    routine = "ungqr" if q.dtype.kind == "c" else "orgqr"
    with _threads():
        for i in np.ndindex(q.shape[:-2]):
            if not n:
                continue
            head = (m, n, k, q[i], max(1, m), tau[i])
            lwork = _work_size(routine, q.dtype, head)
            _call(routine, q.dtype, *head, _zeros(lwork, q.dtype), lwork)
    return q


def qr(a: np.ndarray, mode: str = "reduced"):
    """(Q, R) of linalg.qr (linalg_qr_out: geqrf, R = the upper triangle, Q from orgqr); mode 'r': Q empty."""
    m, n = a.shape[-2:]
    k = min(m, n)
    packed, tau = geqrf(a)
    if mode == "complete" and m > n:  # (Q is m x m: the reflectors padded with columns that orgqr overwrites)
        columns = _zeros(a.shape[:-2] + (m, m), packed.dtype)
        columns[..., :n] = packed
    else:
        columns = packed[..., :k]
    r = _columns(np.triu(packed[..., :(m if mode == "complete" else k), :]))
    if mode == "r":
        return np.empty((0,), a.dtype), r
    return orgqr(columns, tau), r


def ormqr(a: np.ndarray, tau: np.ndarray, c: np.ndarray, left: bool, transpose: bool) -> np.ndarray:
    """Q·C, Qᴴ·C (left) or C·Q, C·Qᴴ from geqrf's reflectors: torch.ormqr (apply_ormqr, ?ormqr / ?unmqr)."""
    batch = np.broadcast_shapes(a.shape[:-2], c.shape[:-2])
    out = _columns(np.broadcast_to(c, batch + c.shape[-2:]))
    reflectors = _columns(np.broadcast_to(a, batch + a.shape[-2:]))
    tau = np.ascontiguousarray(np.broadcast_to(tau, batch + tau.shape[-1:]))
    m, n = out.shape[-2:]
    k = tau.shape[-1]
    complex_ = out.dtype.kind == "c"
    routine = "unmqr" if complex_ else "ormqr"
    side, trans = "L" if left else "R", ("C" if complex_ else "T") if transpose else "N"
    lda = max(1, reflectors.shape[-2])
    with _threads():
        for i in np.ndindex(batch):
            if not out[i].size:
                continue
            head = (side, trans, m, n, k, reflectors[i], lda, tau[i], out[i], max(1, m))
            lwork = _work_size(routine, out.dtype, head)
            _call(routine, out.dtype, *head, _zeros(lwork, out.dtype), lwork)
    return out


# =============================================================================================
# Triangular solves: trsm (BLAS)
# =============================================================================================

def _row_or_column_contiguous(x: np.ndarray) -> bool:
    return x.flags.c_contiguous or np.swapaxes(x, -1, -2).flags.c_contiguous


def _last_stride_is_one(x: np.ndarray) -> bool:
    return x.strides[-1] == x.itemsize


def trsm(a: np.ndarray, b: np.ndarray, upper: bool, left: bool, unitriangular: bool) -> np.ndarray:
    """X with AX = B (XA = B) for a triangular A: linalg.solve_triangular (linalg_solve_triangular_out, ?trsm).

    PyTorch avoids copies: the result is column-major unless it has one row (then the transposed equation
    is solved), and a row- or column-major A is passed as it lies (transposed when row-major, its other
    triangle then the one read).
    """
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    out = _columns(np.broadcast_to(b, batch + b.shape[-2:]))
    transpose_a = out.shape[-2] == 1 and out.ndim >= 2  # (the fresh column-major result has stride(-1) == 1)
    if transpose_a:
        left, out = not left, np.swapaxes(out, -1, -2)
    if not _row_or_column_contiguous(a):
        a = _row_major(a) if transpose_a else _columns(a)
        a_is_f_contig = True
    elif a.ctypes.data % _ALIGN:  # (as it lies, but where PyTorch's allocator would have put it)
        a = _row_major(a) if a.flags.c_contiguous else _columns(a)
        a_is_f_contig = _last_stride_is_one(a) == transpose_a
    else:
        a_is_f_contig = _last_stride_is_one(a) == transpose_a
    if _last_stride_is_one(a):  # (A lies transposed in memory: its stored triangle is the other one)
        upper = not upper
    trans = "N" if a_is_f_contig else "T"  # (A^T, not A^H: the memory of A read column-major)
    _trsm_loop(a, out, left, upper, trans, unitriangular)
    if transpose_a:
        out = np.swapaxes(out, -1, -2)
    return out


def _trsm_loop(a: np.ndarray, out: np.ndarray, left: bool, upper: bool, trans: str, unitriangular: bool) -> None:
    """?trsm on each matrix of the batch (apply_triangular_solve): ``out`` column-major, solved in place."""
    m, n = out.shape[-2:]
    k = m if left else n
    lda = max(1, a.strides[-2 if _last_stride_is_one(a) else -1] // a.itemsize, k)
    ldb = max(1, out.strides[-1] // out.itemsize, m)
    alpha = np.ones(1, a.dtype)
    with _threads():
        for i in np.ndindex(out.shape[:-2]):
            if out[i].size:
                _call("trsm", a.dtype, "L" if left else "R", "U" if upper else "L", trans,
                      "U" if unitriangular else "N", m, n, alpha, a[i], lda, out[i], ldb)


def triangular_solve(b: np.ndarray, a: np.ndarray, upper: bool, transpose: bool, unitriangular: bool):
    """(X, A) with op(A) X = B: torch.triangular_solve (triangular_solve_out_impl: column-major clones, ?trsm)."""
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    out = _columns(np.broadcast_to(b, batch + b.shape[-2:]))
    a = _columns(np.broadcast_to(a, batch + a.shape[-2:]))
    _trsm_loop(a, out, True, upper, "T" if transpose else "N", unitriangular)
    return out, a


def potri(factor: np.ndarray, upper: bool) -> np.ndarray:
    """A⁻¹ from A's Cholesky factor: torch.cholesky_inverse (apply_cholesky_inverse, ?potri).

    potri writes one triangle; PyTorch mirrors it (conjugated) into the other (apply_reflect_conj_tri_single).
    """
    c = _columns(factor)
    n = c.shape[-1]
    with _threads():
        for i in np.ndindex(c.shape[:-2]):
            if n:
                _call("potri", c.dtype, "U" if upper else "L", n, c[i], max(1, n))
    part = np.triu(c) if upper else np.tril(c)
    strict = np.triu(c, 1) if upper else np.tril(c, -1)
    c[...] = part + np.conj(np.swapaxes(strict, -1, -2))
    return c


# =============================================================================================
# Least squares: gels, gelsy, gelsd, gelss
# =============================================================================================

def lstsq(a: np.ndarray, b: np.ndarray, rcond: float, driver: str):
    """(X, residuals, rank, singular values) of min ‖AX - B‖: linalg.lstsq (linalg_lstsq_out_info, apply_lstsq).

    B (batch broadcast) is copied into the top of a column-major max(m, n)-row buffer that the driver
    overwrites with X (rows n.. keep the residual parts when m > n); residuals are Σ|those|² as PyTorch
    sums them, for m > n and a driver other than gelsy (gelsd / gelss: only when every rank is n).
    """
    m, n = a.shape[-2:]
    nrhs = b.shape[-1]
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:a.ndim - 2])  # (B of one dim less: all but its last dim)
    work_a = _columns(np.broadcast_to(a, batch + a.shape[-2:]))
    x = _columns(_zeros(batch + (max(m, n), nrhs), a.dtype))
    x[..., :m, :] = np.broadcast_to(b, batch + (m, nrhs))
    real = work_a.real.dtype
    complex_ = a.dtype.kind == "c"
    rank = np.zeros(batch, np.int64)
    sv = _zeros(batch + (min(m, n),), real)
    lda, ldb = max(1, m), max(1, m, n)
    infos = np.zeros(batch, np.int64)
    with _threads():
        for i in np.ndindex(batch):
            if not (m and n and nrhs):
                continue
            rank[i], infos[i] = _lstsq_one(driver, work_a[i], x[i], sv[i], rcond, lda, ldb, complex_)
    if (infos < 0).any():
        # (MKL refuses a matrix with a NaN or an infinity as an illegal argument (info -4, gels: -5), which
        # PyTorch's error check reports as an internal assert, naming the first failing matrix of a batch of more
        # than one: its is_matrix is infos.numel() <= 1, its infos of A's and B's batch dims broadcast)
        k = int(np.flatnonzero(infos.reshape(-1) < 0)[0])
        several = int(np.prod(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]))) > 1
        where = f"(Batch element {k}): " if several else ""
        raise RuntimeError('false INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/native/'
                           'BatchLinearAlgebra.cpp":1613, please report a bug to PyTorch. torch.linalg.lstsq: '
                           f"{where}Argument {-int(infos.reshape(-1)[k])} has illegal value. Most certainly there "
                           "is a bug in the implementation calling the backend library.")
    residuals = _zeros((0,), real)
    if m > n and driver != "gelsy" and (driver in ("gels",) or (rank == n).all()):
        tail = x[..., n:, :]  # (squared in place, then summed down the strided columns, as PyTorch)
        if complex_:  # (z·z̄ as PyTorch's vectorized complex product: re·re - im·(-im), each product rounded)
            tail.real, tail.imag = tail.real * tail.real - tail.imag * -tail.imag, 0
        else:
            tail *= tail
        residuals = np.asarray(_sums.sum(tail.real if complex_ else tail, axis=-2), real)
    return x[..., :n, :], residuals, rank, sv


def _lstsq_one(driver: str, a: np.ndarray, b: np.ndarray, s: np.ndarray, rcond: float, lda: int, ldb: int,
               complex_: bool) -> int:
    """One matrix through the driver (workspace sizes from a query, as PyTorch); returns (rank, LAPACK's info)."""
    m, n = a.shape
    nrhs = b.shape[-1]
    rank = np.zeros(1, _INT)
    real = s.dtype
    if driver == "gels":
        head, extra = ("N", m, n, nrhs, a, lda, b, ldb), ()
    elif driver == "gelsy":
        # (PyTorch hands gelsy an uninitialized jpvt; its results vary from call to call, most often those
        # of a nonzero jpvt, every column fixed in place: probed on 90 calls, 68 such, 5 as a zero jpvt)
        jpvt = _empty(max(1, n), _INT)
        jpvt[...] = 1
        head = (m, n, nrhs, a, lda, b, ldb, jpvt, float(rcond), rank)
        extra = (_zeros(max(1, 2 * n), real),) if complex_ else ()
    elif driver == "gelss":
        head = (m, n, nrhs, a, lda, b, ldb, s, float(rcond), rank)
        extra = (_zeros(max(1, 5 * min(m, n)), real),) if complex_ else ()
    else:  # gelsd: the query also sizes iwork (and rwork)
        head = (m, n, nrhs, a, lda, b, ldb, s, float(rcond), rank)
        rwork, iwork = _zeros(1, real), _zeros(1, _INT)
        work = _zeros(1, a.dtype)
        _call("gelsd", a.dtype, *head, work, -1, *((rwork,) if complex_ else ()), iwork)
        rwork, iwork = _zeros(max(1, int(rwork[0])), real), _zeros(max(1, int(iwork[0])), _INT)
        extra = ((rwork,) if complex_ else ()) + (iwork,)
    lwork = _work_size(driver, a.dtype, head, extra)
    info = _call(driver, a.dtype, *head, _zeros(lwork, a.dtype), lwork, *extra)
    return int(rank[0]), info


# =============================================================================================
# General eigenproblem: geev
# =============================================================================================

def geev(a: np.ndarray, vectors: bool = True):
    """(eigenvalues, right eigenvectors or None), complex: linalg.eig / eigvals (apply_linalg_eig, ?geev).

    A real A gives wr and wi side by side and real vectors; a complex pair (λ, λ̄) shares columns j, j + 1
    of V as v_j ± i·v_j+1 (linalg_eig_make_complex_eigenvectors).
    """
    work_a = _columns(a)
    n = work_a.shape[-1]
    batch = work_a.shape[:-2]
    complex_ = a.dtype.kind == "c"
    real = work_a.real.dtype
    values = _zeros(batch + ((n,) if complex_ else (2 * n,)), a.dtype)
    vr = _columns(_zeros(batch + (n, n), a.dtype))
    rwork = (_zeros(max(1, 2 * n), real),) if complex_ else ()
    jobvr = "V" if vectors else "N"
    no_left = _zeros(1, a.dtype)  # (jobvl = 'N': never written)
    with _threads():
        for i in np.ndindex(batch):
            if not n:
                continue
            w = (values[i],) if complex_ else (values[i][:n], values[i][n:])
            head = ("N", jobvr, n, work_a[i], n, *w, no_left, 1, vr[i], n)
            lwork = _work_size("geev", a.dtype, head, rwork)
            _call("geev", a.dtype, *head, _zeros(lwork, a.dtype), lwork, *rwork)
    if complex_:
        return values, (vr if vectors else None)
    cdtype = np.result_type(a.dtype, np.complex64)
    wr, wi = values[..., :n], values[..., n:]
    w = (wr + 1j * wi).astype(cdtype)
    if not vectors:
        return w, None
    v = vr.astype(cdtype)
    for idx in np.ndindex(batch):  # (each conjugate pair: the first column real part, the second imaginary)
        j = 0
        while j < n:
            if wi[idx][j] != 0 and j + 1 < n:
                re, im = vr[idx][:, j], vr[idx][:, j + 1]
                # the parts set directly, as PyTorch's complex(re, im) and complex(re, -im): a 0 part of the
                # conjugate becomes -0 (re ± 1j·im would round -0 to +0)
                pair = v[idx]
                pair[:, j].real, pair[:, j].imag = re, im
                pair[:, j + 1].real, pair[:, j + 1].imag = re, -im
                j += 2
            else:
                j += 1
    return w, v


# =============================================================================================
# Symmetric indefinite: sytrf / hetrf, sytrs / hetrs
# =============================================================================================

def _ldl_routine(stem: str, dtype, hermitian: bool) -> str:
    return ("he" if hermitian and np.dtype(dtype).kind == "c" else "sy") + stem


def sytrf(a: np.ndarray, hermitian: bool):
    """(LD, pivots, info): linalg.ldl_factor_ex (apply_ldl_factor, ?sytrf / ?hetrf with uplo='L')."""
    ld = _columns(a)
    n = ld.shape[-1]
    pivots = _zeros(ld.shape[:-1], _INT)
    info = _zeros(ld.shape[:-2], _INT)
    routine = _ldl_routine("trf", ld.dtype, hermitian)
    with _threads():
        for i in np.ndindex(ld.shape[:-2]):
            if n:
                head = ("L", n, ld[i], n, pivots[i])
                lwork = _work_size(routine, ld.dtype, head)
                info[i] = _call(routine, ld.dtype, *head, _zeros(lwork, ld.dtype), lwork)
    ld[...] = np.tril(ld)  # (PyTorch's LD.tril_(): the upper triangle still held A's)
    return ld, pivots, info


def sytrs(ld: np.ndarray, pivots: np.ndarray, b: np.ndarray, hermitian: bool) -> np.ndarray:
    """X with AX = B from ldl_factor's (LD, pivots): linalg.ldl_solve (apply_ldl_solve, ?sytrs / ?hetrs)."""
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    dtype = np.result_type(ld, b)
    x = _columns(np.broadcast_to(b, batch + b.shape[-2:]), dtype)
    ld = _columns(np.broadcast_to(ld, batch + ld.shape[-2:]), dtype)
    pivots = np.ascontiguousarray(np.broadcast_to(pivots, batch + pivots.shape[-1:]), _INT)
    n, nrhs = x.shape[-2:]
    routine = _ldl_routine("trs", dtype, hermitian)
    with _threads():
        for i in np.ndindex(batch):
            if x[i].size:
                _call(routine, dtype, "L", n, nrhs, ld[i], max(1, n), pivots[i], x[i], max(1, n))
    return x
