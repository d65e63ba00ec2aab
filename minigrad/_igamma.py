"""The regularized incomplete gamma functions: ``torch.igamma`` / ``igammac`` (``special.gammainc`` / ``gammaincc``).

P(a, x) = γ(a, x) / Γ(a) and Q(a, x) = 1 - P(a, x), computed as ATen's Math.h (calc_igamma / calc_igammac,
from Cephes via SciPy): a power series for P, a series or a continued fraction for Q, whichever converges
without cancellation. Computed in double and rounded to the tensor's dtype. (ATen also switches to an
asymptotic expansion when a > 20 and x is near a; the series used here instead agree to about 1e-14.)
Gamma.cdf and Chi2.cdf use it.
"""
from __future__ import annotations

import math

import numpy as np

from . import _ops, _ops_math
from . import derivatives as D
from ._tensor import Tensor

_MACHEP = 1.11022302462515654042e-16
_BIG, _BIGINV = 4.503599627370496e15, 2.22044604925031308085e-16
_MAXLOG = 7.09782712893383996843e2
_LANCZOS_G = 6.024680040776729583740234375
_LANCZOS_NUM = (0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
                19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,
                6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,
                601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,
                14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,
                86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,
                56906521.91347156388090791033559122686859)
_LANCZOS_DEN = (1., 66., 1925., 32670., 357423., 2637558., 13339535., 45995730., 105258076., 150917976.,
                120543840., 39916800., 0.)


def _lanczos_sum_expg_scaled(x: float) -> float:
    """Boost's rational Lanczos sum (ratevl: Horner in 1/x for x > 1)."""
    if abs(x) > 1:
        y, num, den = 1 / x, _LANCZOS_NUM[::-1], _LANCZOS_DEN[::-1]
    else:
        y, num, den = x, _LANCZOS_NUM, _LANCZOS_DEN
    n = d = 0.0
    for c in num:
        n = n * y + c
    for c in den:
        d = d * y + c
    return n / d  # (num and den have the same degree: no power of x left over)


def _fac(a: float, x: float) -> float:
    """x^a e^-x / Γ(a), accurately when x is near a."""
    if abs(a - x) > 0.4 * abs(a):
        ax = a * math.log(x) - x - math.lgamma(a)
        return 0.0 if ax < -_MAXLOG else math.exp(ax)
    fac = a + _LANCZOS_G - 0.5
    res = math.sqrt(fac / math.e) / _lanczos_sum_expg_scaled(a)
    if a < 200 and x < 200:
        return res * math.exp(a - x) * math.pow(x / fac, a)
    numfac = (x - a - _LANCZOS_G + 0.5) / fac
    return res * math.exp(a * (math.log1p(numfac) - numfac) + x * (0.5 - _LANCZOS_G) / fac)


def _p_series(a: float, x: float) -> float:
    """P(a, x) by DLMF 8.11.4."""
    ax = _fac(a, x)
    if ax == 0.0:
        return 0.0
    r, c, ans = a, 1.0, 1.0
    for _ in range(2000):
        r += 1.0
        c *= x / r
        ans += c
        if c <= _MACHEP * ans:
            break
    return ans * ax / a


def _q_series(a: float, x: float) -> float:
    """Q(a, x) by DLMF 8.7.3 (small x)."""
    fac, total = 1.0, 0.0
    for n in range(1, 2000):
        fac *= -x / n
        term = fac / (a + n)
        total += term
        if abs(term) <= _MACHEP * abs(total):
            break
    logx = math.log(x)
    return -math.expm1(a * logx - math.lgamma(1 + a)) - math.exp(a * logx - math.lgamma(a)) * total


def _q_continued_fraction(a: float, x: float) -> float:
    """Q(a, x) by DLMF 8.9.2 (large x)."""
    ax = _fac(a, x)
    if ax == 0.0:
        return 0.0
    y, z, c = 1.0 - a, x + 2.0 - a, 0.0
    pkm2, qkm2, pkm1, qkm1 = 1.0, x, x + 1.0, z * x
    ans = pkm1 / qkm1
    for _ in range(2000):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk, qk = pkm1 * z - pkm2 * yc, qkm1 * z - qkm2 * yc
        if qk != 0:
            r = pk / qk
            t = abs((ans - r) / r)
            ans = r
        else:
            t = 1.0
        pkm2, pkm1, qkm2, qkm1 = pkm1, pk, qkm1, qk
        if abs(pk) > _BIG:
            pkm2, pkm1, qkm2, qkm1 = pkm2 * _BIGINV, pkm1 * _BIGINV, qkm2 * _BIGINV, qkm1 * _BIGINV
        if t <= _MACHEP:
            break
    return ans * ax


def _edge(a: float, x: float, upper: bool) -> float | None:
    """The boundary values (SciPy's): NaN outside a, x >= 0; None inside the domain."""
    if x < 0 or a < 0 or math.isnan(a) or math.isnan(x):
        return math.nan
    if a == 0:
        return (0.0 if upper else 1.0) if x > 0 else math.nan
    if x == 0:
        return 1.0 if upper else 0.0
    if math.isinf(a):
        return math.nan if math.isinf(x) else (1.0 if upper else 0.0)
    if math.isinf(x):
        return 0.0 if upper else 1.0
    return None


def _q(a: float, x: float) -> float:
    edge = _edge(a, x, True)
    if edge is not None:
        return edge
    if x > 1.1:
        return 1.0 - _p_series(a, x) if x < a else _q_continued_fraction(a, x)
    small_a = (-0.4 / math.log(x) < a) if x <= 0.5 else (x * 1.1 < a)
    return 1.0 - _p_series(a, x) if small_a else _q_series(a, x)


def _p(a: float, x: float) -> float:
    edge = _edge(a, x, False)
    if edge is not None:
        return edge
    if x > 1.0 and x > a:
        return 1.0 - _q(a, x)
    return _p_series(a, x)


def igamma_np(a: np.ndarray, x: np.ndarray, upper: bool = False) -> np.ndarray:
    """P(a, x) (or Q with ``upper``) elementwise on NumPy arrays of one floating dtype."""
    fn = _q if upper else _p
    a_b, x_b = np.broadcast_arrays(a, x)
    out = [fn(ai, xi) for ai, xi in zip(a_b.reshape(-1).tolist(), x_b.reshape(-1).tolist())]
    return np.array(out, dtype=np.float64).astype(np.result_type(a, x)).reshape(a_b.shape)


def _check(input: Tensor, other: Tensor, name: str) -> None:
    from ._dtypes import result_type
    dt = result_type(input, other)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_ops._legacy(dt)}'")


def igamma(input: Tensor, other: Tensor) -> Tensor:
    """The regularized lower incomplete gamma function P(input, other)."""
    _ops_math._two_tensors("igamma", input, other)
    _check(input, other, "igamma")
    return _ops._binary(D.igamma, input, other)


def igammac(input: Tensor, other: Tensor) -> Tensor:
    """The regularized upper incomplete gamma function Q(input, other) = 1 - P(input, other)."""
    _ops_math._two_tensors("igammac", input, other)
    _check(input, other, "igammac")
    return _ops._binary(D.igammac, input, other)


Tensor.igamma = igamma
Tensor.igammac = igammac
