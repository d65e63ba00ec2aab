"""NumPy kernels of torch.linalg's second wave: the matrix exponential, LU, Householder reflectors, LDLᴴ.

The matrix exponential is PyTorch's CPU algorithm step for step (aten/src/ATen/native/LinearAlgebra.cpp:
Bader, Blanes and Casas' optimized Taylor polynomials of degree 1, 2, 4, 8, 12 and 18, with scaling and
squaring above the last one), so float32 results have PyTorch's bits. LU is partial pivoting as LAPACK's
getrf (the first largest pivot, 1-based pivots); its values agree with LAPACK's up to rounding (and have
MKL's float32 bits for most small matrices). LDLᴴ is LAPACK's unblocked Bunch-Kaufman ?sytf2 / ?hetf2, so
its pivots (1x1 and 2x2 blocks) are LAPACK's. With MKL loaded, LU, the Householder routines and LDLᴴ call
MKL's own routines (``_lapack.py``: PyTorch's bits); the NumPy code here is their fallback.
"""
from __future__ import annotations

import numpy as np

from . import _lapack, _matmul

# =============================================================================================
# Matrix exponential
# =============================================================================================

# Upper bounds of the 1-norm for which each degree (1, 2, 4, 8, 12, 18) is accurate enough.
_THETAS = {
    np.float32: (1.192092800768788e-07, 5.978858893805233e-04, 5.116619363445086e-02, 5.800524627688768e-01,
                 1.461661507209034e+00, 3.010066362817634e+00),
    np.float64: (2.220446049250313e-16, 2.580956802971767e-08, 3.397168839976962e-04, 4.991228871115323e-02,
                 2.996158913811580e-01, 1.090863719290036e+00),
}
# The coefficients of the degree-12 and degree-18 polynomials in {I, A, A², A³ (, A⁶)} (one row per term).
_B12 = ((9.0198e-16, 0.46932117595418237389, -0.20099424927047284052, -0.04623946134063071740),
        (5.31597895759871264183, 1.19926790417132231573, 0.01179296240992997031, 0.01108844528519167989),
        (0.18188869982170434744, 0.05502798439925399070, 0.09351590770535414968, 0.00610700528898058230),
        (-2.0861320e-13, -0.13181061013830184015, -0.02027855540589259079, -0.00675951846863086359))
_B18 = ((0., -1.00365581030144618291e-01, -8.02924648241156932449e-03, -8.92138498045729985177e-04, 0.),
        (0., 3.97849749499645077844e-01, 1.36783778460411720168e+00, 4.98289622525382669416e-01,
         -6.37898194594723280150e-04),
        (-1.09676396052962061844e+01, 1.68015813878906206114e+00, 5.71779846478865511061e-02,
         -6.98210122488052056106e-03, 3.34975017086070470649e-05),
        (-9.04316832390810593223e-02, -6.76404519071381882256e-02, 6.75961301770459654925e-02,
         2.95552570429315521194e-02, -1.39180257516060693404e-05),
        (0., 0., -9.23364619367118555360e-02, -1.69364939002081722752e-02, -1.40086798182036094347e-05))


def _scalar_type(a: np.ndarray):
    """The C++ scalar_t of PyTorch's mexp_impl: float for float32 (and complex64), double for every other dtype,
    float16 and bfloat16 included."""
    return np.float32 if a.real.dtype == np.float32 else np.float64


def _blob(values, dtype: np.dtype) -> np.ndarray:
    """The constants of mexp_impl<scalar_t> (``values``) as the tensor PyTorch makes of them: from_blob of the C++
    array with the matrix's own real dtype. For float16/bfloat16 the array holds doubles, whose bytes PyTorch then
    reads as 2-byte numbers (a PyTorch bug, reproduced: the first "coefficients" are the low bytes of the first
    double, so half matrix exponentials are mostly garbage); otherwise the values rounded to the dtype."""
    c = np.asarray(values, np.float64)
    if dtype.itemsize == 2:
        return c.reshape(-1).view(dtype)[:c.size].reshape(c.shape)
    return c.astype(dtype)


def _sum0(p: np.ndarray) -> np.ndarray:
    """p.sum(0), float16/bfloat16 accumulated in float32 and rounded once (PyTorch's sum)."""
    if p.dtype.itemsize == 2:
        return p.astype(np.float32).sum(0).astype(p.dtype)
    return p.sum(0)


def _combination(terms: np.ndarray, coefficients) -> np.ndarray:
    """Σ_j c_j·terms[j], a running sum from 0 in the terms' dtype (PyTorch's _compute_linear_combination; each
    product and sum of half types rounded to them, as c10::Half's operators)."""
    c = coefficients if isinstance(coefficients, np.ndarray) else _blob(coefficients, terms.real.dtype)
    out = np.zeros(terms.shape[1:], terms.dtype)
    for j in range(terms.shape[0]):
        out = out + terms[j] * c[j]
    return out


def _bmm(a, b):
    return _matmul.bmm(np.ascontiguousarray(a), np.ascontiguousarray(b))


def _powers(a, count: int) -> np.ndarray:
    """The first ``count`` of I, A, A², A³, A⁶ (PyTorch's _fill_matrix_powers), stacked on a new first dim."""
    eye = np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape)
    powers = [np.array(eye), a]
    if count > 2:
        powers.append(_bmm(a, a))
    if count > 3:
        powers.append(_bmm(a, powers[2]))
    if count > 4:
        powers.append(_bmm(powers[3], powers[3]))
    return np.stack(powers)


def _t1(a):  # I + A
    return _sum0(_powers(a, 2))


def _t2(a):  # I + A + A²/2
    p = _powers(a, 3)
    p[2] = p[2] / p.dtype.type(2)
    return _sum0(p)


def _t4(a):  # I + A + A²·(I/2 + A/6 + A²/24)
    p = _powers(a, 3)
    a4 = _bmm(p[2], _combination(p, (1 / 2.0, 1 / 6.0, 1 / 24.0)))
    return _combination(np.concatenate([p, a4[None]]), (1.0, 1.0, 0.0, 1.0))


def _t8(a):
    # (PyTorch's constants are computed from a float sqrt(177) and 2/3 when the matrix is float32)
    real = _scalar_type(a)
    s177, x3 = float(real(0.1330413469565007072504e+2)), float(real(2. / 3.))
    x1, x2 = x3 * ((1. + s177) / 88.), x3 * ((1. + s177) / 352.)
    x4, x5 = (-271. + 29. * s177) / (315. * x3), (-11. + 11. * s177) / (1260. * x3)
    x6, x7 = (-99. + 11. * s177) / (5040. * x3), (89. - s177) / (5040. * x3)
    y2 = (857. - 58. * s177) / 630.
    p = _powers(a, 3)
    a4 = _bmm(p[2], _combination(p[1:3], (x1, x2)))                      # A⁴ = A²(x1·A + x2·A²)
    q = np.concatenate([p, a4[None]])
    a8 = _bmm(_combination(q[2:4], (x3, 1.0)), _combination(q, (x4, x5, x6, x7)))
    return _combination(np.concatenate([q, a8[None]]), (1.0, 1.0, y2, 0.0, 1.0))   # I + A + y2·A² + A⁸


def _t12(a):
    b = [_combination(_powers(a, 4), row) for row in _blob(_B12, a.real.dtype)]
    b[2] = b[2] + _bmm(b[3], b[3])
    return b[0] + _bmm(b[1] + b[2], b[2])


def _t18(a):
    b = [_combination(_powers(a, 5), row) for row in _blob(_B18, a.real.dtype)]
    b[3] = b[3] + _bmm(b[0], b[4])
    return b[1] + _bmm(b[2] + b[3], b[3])


def _t18_scaled_squared(a, norm, theta):
    """exp(A) = exp(A/2ˢ)^(2ˢ) with s the smallest such that ‖A/2ˢ‖₁ <= theta."""
    real = a.real.dtype.type
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if norm.dtype.itemsize == 2:   # (half / double Scalar: the Scalar read as float, each result rounded)
            q = (norm.astype(np.float32) / np.float32(theta)).astype(norm.dtype)
            s = np.maximum(0, np.ceil(np.log2(q.astype(np.float32)).astype(norm.dtype).astype(np.float32)))
        else:
            s = np.maximum(0, np.ceil(np.log2(norm / real(theta))))
    s = np.where(np.isfinite(s), s, 0).astype(np.int64)
    result = _t18(a / np.power(2.0, s)[:, None, None].astype(a.real.dtype))
    for i in range(result.shape[0]):
        x = result[i]
        for _ in range(s[i]):
            x = _bmm(x[None], x[None])[0]
        result[i] = x
    return result


def matrix_exp(a: np.ndarray) -> np.ndarray:
    """exp(A) for a (batch of) square matrices, as PyTorch's CPU kernel computes it."""
    n = a.shape[-1]
    if n == 0 or a.size == 0:
        return a.copy()
    if n == 1:
        return np.exp(a)
    real = a.real.dtype.type
    # (PyTorch uses the float32 bounds for float32 and complex64 only, the double ones for every other dtype)
    bounds = _THETAS.get(real, _THETAS[np.float64])
    thetas = [real(t) for t in bounds]   # (compared with the norm in its dtype)
    a3 = np.ascontiguousarray(a).reshape(-1, n, n)
    norm = _sum0(np.moveaxis(np.abs(a3), -2, 0)).max(-1)
    if a3.shape[0] > 1:  # a batch: degree 18 with scaling for every matrix
        return _t18_scaled_squared(a3, norm, bounds[5]).reshape(a.shape)
    # one matrix: the lowest degree its norm allows (a NaN norm falls in no interval: the result stays NaN)
    result = np.full(a3.shape, np.nan, a.dtype)
    for i, taylor in enumerate((_t1, _t2, _t4, _t8, _t12)):
        low = real(-1) if i == 0 else thetas[i - 1]
        if low < norm[0] <= thetas[i]:
            result = taylor(a3)
    if norm[0] >= thetas[4]:
        result = _t18_scaled_squared(a3, norm, bounds[5])
    return result.reshape(a.shape)


# =============================================================================================
# LU with partial pivoting
# =============================================================================================

def lu_factor(a: np.ndarray):
    """(LU, pivots, info): LAPACK getrf's layout for any m x n; info = first zero pivot (1-based, 0 if none)."""
    if _lapack.supports(a):  # MKL's getrf itself (below: the same algorithm in NumPy, without MKL)
        return _lapack.getrf(a)
    lu = np.array(a, dtype=np.result_type(a, np.float32), copy=True)
    m, n = lu.shape[-2:]
    k = min(m, n)
    piv = np.zeros(lu.shape[:-2] + (k,), np.int32)
    info = np.zeros(lu.shape[:-2], np.int32)
    batch = np.indices(lu.shape[:-2])
    for j in range(k):
        column = lu[..., j:, j]
        # (LAPACK's i?amax: |re| + |im| for complex numbers, not the modulus)
        size = np.abs(column.real) + np.abs(column.imag) if column.dtype.kind == "c" else np.abs(column)
        p = np.argmax(size, axis=-1) + j
        piv[..., j] = p + 1
        top, pivot_row = lu[..., j, :].copy(), lu[(*batch, p)].copy()
        lu[..., j, :], lu[(*batch, p)] = pivot_row, top
        d = lu[..., j, j]
        zero = d == 0
        info = np.where((info == 0) & zero, j + 1, info)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            # LAPACK scales by the reciprocal of the pivot (dividing only by a pivot below the smallest normal
            # number); MKL's 2 x 2 kernel divides (probed: PyTorch's float32 bits for n = 2 and 5 ... 16; most
            # 3 x 3 and 4 x 4 matrices; not the blocked n >= 32)
            tiny = 0 if k <= 2 else np.finfo(lu.real.dtype).tiny
            column = lu[..., j + 1:, j]
            scaled = np.where((np.abs(d) >= tiny)[..., None] & (k > 2), column * (lu.dtype.type(1) / d)[..., None],
                              column / d[..., None])
            lu[..., j + 1:, j] = np.where(zero[..., None], column, scaled)
        lu[..., j + 1:, j + 1:] -= lu[..., j + 1:, j:j + 1] * lu[..., j:j + 1, j + 1:]
    return lu, piv, info


def _row_order(pivots: np.ndarray, m: int) -> np.ndarray:
    """perm with (PᵀA)[i] = A[perm[i]], from LAPACK's row swaps (row i swapped with pivots[i] - 1, in order)."""
    perm = np.broadcast_to(np.arange(m), pivots.shape[:-1] + (m,)).copy()
    batch = np.indices(pivots.shape[:-1])
    for i in range(pivots.shape[-1]):
        j = pivots[..., i].astype(np.int64) - 1
        a, b = perm[..., i].copy(), perm[(*batch, j)].copy()
        perm[..., i], perm[(*batch, j)] = b, a
    return perm


def permutation(pivots: np.ndarray, m: int, dtype) -> np.ndarray:
    """The m x m matrix P of A = PLU."""
    p = np.zeros(pivots.shape[:-1] + (m, m), dtype)
    np.put_along_axis(p, _row_order(pivots, m)[..., None, :], 1, axis=-2)   # P[perm[i], i] = 1
    return p


def _permute_rows(b, order):
    """b[..., order[i], :] as row i (batch dims broadcast): a permutation without 0·inf products."""
    batch = np.broadcast_shapes(b.shape[:-2], order.shape[:-1])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    order = np.broadcast_to(order, batch + order.shape[-1:])
    return np.take_along_axis(b, order[..., :, None], axis=-2)


def lu_unpack(lu: np.ndarray, pivots: np.ndarray, unpack_data: bool = True, unpack_pivots: bool = True):
    """(P, L, U) from the packed LU and its pivots (empty tensors for the parts not asked for)."""
    m, n = lu.shape[-2:]
    k = min(m, n)
    if unpack_data:
        L = np.tril(lu[..., :, :k], -1) + np.eye(m, k, dtype=lu.dtype)
        U = np.triu(lu[..., :k, :])
    else:
        L = U = np.empty((0,), lu.dtype)
    P = permutation(pivots, m, lu.dtype) if unpack_pivots else np.empty((0,), lu.dtype)
    return P, L, U


def _triangular_solve(t, b, lower: bool, unit: bool):
    """T⁻¹B for a triangular T, by substitution row after row (exact zeros above/below are never read)."""
    n = t.shape[-1]
    batch = np.broadcast_shapes(t.shape[:-2], b.shape[:-2])
    t = np.broadcast_to(t, batch + t.shape[-2:])
    x = np.array(np.broadcast_to(b, batch + b.shape[-2:]), dtype=np.result_type(t, b))
    rows = range(n) if lower else range(n - 1, -1, -1)
    for i in rows:
        done = slice(0, i) if lower else slice(i + 1, n)
        x[..., i, :] -= np.einsum("...k,...kj->...j", t[..., i, done], x[..., done, :])
        if not unit:
            x[..., i, :] /= t[..., i, i:i + 1]
    return x


def lu_solve(lu, pivots, b, left: bool, adjoint: bool):
    """X with AX = B (A = PLU given packed); left=False: XA = B; adjoint: Aᴴ in place of A."""
    if _lapack.supports(lu, b):  # MKL's getrs (linalg_lu_solve: XA = B solved as Aᴴ Xᴴ = Bᴴ)
        if left:
            return _lapack.getrs(lu, pivots, b, _lapack.trans_letter(adjoint, lu))
        xh = _lapack.getrs(lu, pivots, np.conj(np.swapaxes(b, -1, -2)), _lapack.trans_letter(not adjoint, lu))
        return np.conj(np.swapaxes(xh, -1, -2))
    if not left:  # XA = B  <=>  Aᴴ Xᴴ = Bᴴ
        return np.conj(np.swapaxes(lu_solve(lu, pivots, np.conj(np.swapaxes(b, -1, -2)), True, not adjoint),
                                   -1, -2))
    _, L, U = lu_unpack(lu, pivots, unpack_pivots=False)
    order = _row_order(pivots, lu.shape[-1])
    with np.errstate(divide="ignore", invalid="ignore"):
        if not adjoint:  # PLU X = B:  X = U⁻¹ L⁻¹ Pᵀ B
            y = _triangular_solve(L, _permute_rows(b, order), lower=True, unit=True)
            return _triangular_solve(U, y, lower=False, unit=False)
        # Uᴴ Lᴴ Pᵀ X = B:  X = P L⁻ᴴ U⁻ᴴ B
        y = _triangular_solve(np.conj(np.swapaxes(U, -1, -2)), b, lower=True, unit=False)
        y = _triangular_solve(np.conj(np.swapaxes(L, -1, -2)), y, lower=False, unit=True)
        return _permute_rows(y, np.argsort(order, axis=-1))


# =============================================================================================
# Householder reflectors (geqrf, householder_product / orgqr, ormqr)
# =============================================================================================

def reflector(a: np.ndarray, i: int) -> np.ndarray:
    """v_i of H_i = I - τ_i v_i v_iᴴ: zeros above row i, 1 at row i, a[i+1:, i] below."""
    v = np.zeros(a.shape[:-2] + (a.shape[-2],), a.dtype)
    v[..., i] = 1
    v[..., i + 1:] = a[..., i + 1:, i]
    return v


def apply_reflectors(a, tau, c, left: bool, transpose: bool):
    """Q·C, Qᴴ·C (left) or C·Q, C·Qᴴ, Q = H_1 H_2 ... H_k from the reflectors below a's diagonal."""
    if _lapack.supports(a, tau, c) and a.dtype == tau.dtype == c.dtype:
        return _lapack.ormqr(a, tau, c, left, transpose)
    c = np.array(c, dtype=np.result_type(a, tau, c))
    k = tau.shape[-1]
    # Q C = H_1 (H_2 (... H_k C)): the last reflector first; Qᴴ C = H_kᴴ (... H_1ᴴ C): the first first
    order = range(k) if left == transpose else range(k - 1, -1, -1)
    for i in order:
        v = reflector(a, i)
        t = tau[..., i, None, None]
        t = np.conj(t) if transpose else t
        if left:   # H C = C - τ v (vᴴ C)
            c = c - t * v[..., :, None] * np.matmul(np.conj(v)[..., None, :], c)
        else:      # C H = C - τ (C v) vᴴ
            c = c - t * np.matmul(c, v[..., :, None]) * np.conj(v)[..., None, :]
    return c


def householder_product(a, tau):
    """The first n columns of H_1 ... H_k (LAPACK's orgqr)."""
    if _lapack.supports(a, tau):
        return _lapack.orgqr(a, tau)
    m, n = a.shape[-2:]
    eye = np.broadcast_to(np.eye(m, n, dtype=np.result_type(a, tau)), a.shape[:-2] + (m, n))
    return apply_reflectors(a, tau, eye, left=True, transpose=False)


def geqrf(a):
    """(a, tau): R on and above the diagonal, the reflectors below it (LAPACK's geqrf, through NumPy's qr 'raw')."""
    if _lapack.supports(a):
        return _lapack.geqrf(a)
    m, n = a.shape[-2:]
    out = np.empty_like(a)
    tau = np.empty(a.shape[:-2] + (min(m, n),), a.dtype)
    for idx in np.ndindex(a.shape[:-2]):
        h, t = np.linalg.qr(a[idx], mode="raw")
        out[idx], tau[idx] = h.T, t
    return out, tau


# =============================================================================================
# LDLᴴ with Bunch-Kaufman pivoting (LAPACK's unblocked ?sytf2 / ?hetf2, lower triangle)
# =============================================================================================

def _cabs1(x):
    """LAPACK's i?amax size: |re| + |im| (the absolute value for real numbers)."""
    return np.abs(x.real) + np.abs(x.imag) if np.iscomplexobj(x) else np.abs(x)


def _ldl_one(a, hermitian: bool):
    """(LD, pivots, info) of one matrix: A = L D Lᵀ (Lᴴ if hermitian) with 1x1 and 2x2 pivot blocks."""
    a = np.array(a)
    n = a.shape[-1]
    herm = hermitian and np.iscomplexobj(a)
    cj = np.conj if herm else (lambda x: x)
    re = (lambda x: x.real) if herm else (lambda x: x)
    alpha = (1 + np.sqrt(17.0)) / 8
    piv = np.zeros(n, np.int32)
    info = 0
    k = 0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k].real) if herm else float(_cabs1(a[k, k]))
        if k < n - 1:
            imax = k + 1 + int(np.argmax(_cabs1(a[k + 1:, k])))
            colmax = float(_cabs1(a[imax, k]))
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            info = info or k + 1
            kp = k
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                rowmax = float(_cabs1(a[imax, k:imax]).max())
                if imax < n - 1:
                    rowmax = max(rowmax, float(_cabs1(a[imax + 1:, imax]).max()))
                diag = abs(a[imax, imax].real) if herm else float(_cabs1(a[imax, imax]))
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif diag >= alpha * rowmax:
                    kp = imax
                else:
                    kp, kstep = imax, 2
            kk = k + kstep - 1
            if kp != kk:  # swap rows and columns kk and kp of the trailing lower triangle
                a[kp + 1:, [kk, kp]] = a[kp + 1:, [kp, kk]]
                middle = slice(kk + 1, kp)
                column, row = a[middle, kk].copy(), a[kp, middle].copy()
                a[middle, kk], a[kp, middle] = cj(row), cj(column)
                if herm:
                    a[kp, kk] = np.conj(a[kp, kk])
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if herm:
                a[k, k] = a[k, k].real
                if kstep == 2:
                    a[k + 1, k + 1] = a[k + 1, k + 1].real
            if kstep == 1:
                if k < n - 1:   # A₂₂ -= x xᴴ / d, x scaled by 1/d
                    r1 = 1 / re(a[k, k])
                    x = a[k + 1:, k].copy()
                    a[k + 1:, k + 1:] -= np.tril(r1 * np.outer(x, cj(x)))
                    a[k + 1:, k] = x * r1
            elif k < n - 2:     # a 2x2 pivot block D = [[a_kk, ·], [a_k+1,k, a_k+1,k+1]]
                if herm:
                    d = abs(a[k + 1, k])
                    d11, d22 = a[k + 1, k + 1].real / d, a[k, k].real / d
                    d21 = a[k + 1, k] / d
                    tt = 1 / (d11 * d22 - 1)
                    d = tt / d
                    for j in range(k + 2, n):
                        wk = d * (d11 * a[j, k] - d21 * a[j, k + 1])
                        wkp1 = d * (d22 * a[j, k + 1] - np.conj(d21) * a[j, k])
                        a[j:, j] -= a[j:, k] * np.conj(wk) + a[j:, k + 1] * np.conj(wkp1)
                        a[j, k], a[j, k + 1] = wk, wkp1
                        a[j, j] = a[j, j].real
                else:
                    d21 = a[k + 1, k]
                    d11, d22 = a[k + 1, k + 1] / d21, a[k, k] / d21
                    t = 1 / (d11 * d22 - 1)
                    d21 = t / d21
                    for j in range(k + 2, n):
                        wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                        wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                        a[j:, j] -= a[j:, k] * wk + a[j:, k + 1] * wkp1
                        a[j, k], a[j, k + 1] = wk, wkp1
        if kstep == 1:
            piv[k] = kp + 1
        else:
            piv[k] = piv[k + 1] = -(kp + 1)
        k += kstep
    return np.tril(a), piv, info


def ldl_factor(a: np.ndarray, hermitian: bool):
    """(LD, pivots, info) for a (batch of) symmetric (or Hermitian) matrices, LAPACK's layout."""
    if _lapack.supports(a):  # MKL's blocked sytrf itself (below: the unblocked sytf2 in NumPy, without MKL)
        return _lapack.sytrf(a, hermitian)
    ld = np.empty_like(a)
    piv = np.empty(a.shape[:-1], np.int32)
    info = np.empty(a.shape[:-2], np.int32)
    for idx in np.ndindex(a.shape[:-2]):
        with np.errstate(divide="ignore", invalid="ignore"):
            ld[idx], piv[idx], info[idx] = _ldl_one(a[idx], hermitian)
    return ld, piv, info


def _ldl_solve_one(a, piv, b, hermitian: bool):
    """X with AX = B from one LDLᴴ factorization (LAPACK's ?sytrs / ?hetrs, lower)."""
    herm = hermitian and np.iscomplexobj(a)
    cj = np.conj if herm else (lambda x: x)
    b = np.array(b, dtype=np.result_type(a, b))
    n = a.shape[-1]
    k = 0
    while k < n:   # L D y = Pᵀ b
        if piv[k] > 0:
            kp = piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            b[k + 1:] -= np.outer(a[k + 1:, k], b[k])
            b[k] /= a[k, k].real if herm else a[k, k]
            k += 1
        else:
            kp = -piv[k] - 1
            b[[k + 1, kp]] = b[[kp, k + 1]]
            b[k + 2:] -= np.outer(a[k + 2:, k], b[k]) + np.outer(a[k + 2:, k + 1], b[k + 1])
            akm1k = a[k + 1, k]
            akm1, ak = a[k, k] / cj(akm1k), a[k + 1, k + 1] / akm1k
            denom = akm1 * ak - 1
            bkm1, bk = b[k] / cj(akm1k), b[k + 1] / akm1k
            b[k], b[k + 1] = (ak * bkm1 - bk) / denom, (akm1 * bk - bkm1) / denom
            k += 2
    k = n - 1
    while k >= 0:  # Lᴴ x = y, then the interchanges back
        if piv[k] > 0:
            b[k] -= cj(a[k + 1:, k]) @ b[k + 1:]
            kp = piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 1
        else:
            b[k] -= cj(a[k + 1:, k]) @ b[k + 1:]
            b[k - 1] -= cj(a[k + 1:, k - 1]) @ b[k + 1:]
            kp = -piv[k] - 1
            b[[k, kp]] = b[[kp, k]]
            k -= 2
    return b


def ldl_solve(ld, pivots, b, hermitian: bool):
    """X with AX = B for A given by ldl_factor's (LD, pivots); batch dims broadcast."""
    if _lapack.supports(ld, b):
        return _lapack.sytrs(ld, pivots, b, hermitian)
    batch = np.broadcast_shapes(ld.shape[:-2], b.shape[:-2])
    ld = np.broadcast_to(ld, batch + ld.shape[-2:])
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(b.shape, np.result_type(ld, b))
    for idx in np.ndindex(batch):
        with np.errstate(divide="ignore", invalid="ignore"):
            out[idx] = _ldl_solve_one(ld[idx], pivots[idx], b[idx], hermitian)
    return out
