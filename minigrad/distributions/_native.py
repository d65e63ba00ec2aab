"""PyTorch's native samplers for the distributions: ``torch._standard_gamma``, ``poisson``, ``binomial``,
``_sample_dirichlet`` and the reparameterisation gradients ``_standard_gamma_grad`` / ``_dirichlet_grad``.

Ported step by step from aten/src/ATen/native/Distributions.h and Distributions.cpp (CPU kernels) on top of
minigrad's generator, so after ``manual_seed`` they draw PyTorch's exact numbers: each value is drawn in turn
(``cpu_serial_kernel``, memory order) with ``uniform_real_distribution<double>`` (53-bit uniforms) and
``normal_distribution<double>`` (Box-Muller with its cached second value). Arithmetic that the C++ code does
in the tensor's own type (``scalar_t``: float32 for float tensors) is done here in that type too, with the C
library's float functions (logf, powf, log1pf through ``_float_math``). No fused multiply-adds: PyTorch's
results show this file's arithmetic is not contracted.

Scalar loops (rejection samplers: one value at a time, as in PyTorch): 5 to 20 us per value.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _float_math, _random, _vmap_batched
from .._tensor import Tensor


def _check_floating(t: Tensor, kernel: str) -> np.dtype:
    np_dtype = t._data.dtype
    if np_dtype not in (np.float32, np.float64):
        from .._ops import _legacy
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_legacy(t.dtype)}'")
    return np_dtype


class _Draws:
    """The two samplers the kernels use, on one generator: standard uniform and standard normal doubles.

    A context manager: the generator's 32-bit outputs are read ahead in blocks (one NumPy call per block
    instead of one per value) and, on exit, the generator is put back and advanced by exactly the number of
    outputs used, so it ends where PyTorch's does. The values are those of ``_uniform_double`` (53 bits of two
    outputs, the first one high) and ``_normal_double`` (Box-Muller, the second value cached in the generator).
    """

    _BLOCK = 4096

    def __init__(self, generator) -> None:
        self.g = _random.gen(generator)

    def __enter__(self) -> _Draws:
        self._start = self.g._engine.state
        self._words: list = []
        self._used = 0
        return self

    def __exit__(self, *exc) -> None:
        self.g._engine.state = self._start
        self.g._random(self._used)  # (advances the engine and marks the generator as drawn from)

    def _word(self) -> int:
        if self._used == len(self._words):
            self._words += self.g._engine.random_raw(self._BLOCK).tolist()
        self._used += 1
        return self._words[self._used - 1]

    def uniform(self) -> float:
        high = self._word()
        return (((high << 32) | self._word()) & _MASK53) * 2.0 ** -53

    def normal(self) -> float:
        cached = self.g._next_double_normal
        if cached is not None:
            self.g._next_double_normal = None
            return cached
        u1, u2 = self.uniform(), self.uniform()
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        self.g._next_double_normal = r * math.sin(theta)
        return r * math.cos(theta)


_MASK53 = (1 << 53) - 1


# ---- Gamma (Marsaglia & Tsang), Distributions.h: sample_gamma ------------------------------------------

def _sample_gamma(alpha, draws: _Draws, S) -> float:
    """One Gamma(alpha, 1) draw; ``alpha`` has the tensor's type S (its small-alpha boost is done in S)."""
    scale = 1.0
    if alpha < 1.0:
        if alpha == 0:
            return 0.0
        # scale *= pow(1 - u, 1.0f / alpha): the exponent is computed in S
        try:
            scale *= math.pow(1 - draws.uniform(), float(S(1.0) / alpha))
        except OverflowError:  # (a negative alpha near 0: C's pow gives inf)
            scale = math.inf
        alpha = S(alpha + S(1.0))
    d = float(S(alpha - S(np.float32(1.0) / np.float32(3.0))))  # alpha - 1.0f / 3.0f, in S
    # c = 1 / sqrt(9d) with C's arithmetic: inf for d = 0, NaN for a d < 0 (a negative alpha), which then
    # makes every test below false, as in PyTorch, until a NaN is returned (clamped to the dtype's tiny)
    c = 1.0 / math.sqrt(9.0 * d) if 9.0 * d > 0 else math.inf if d == 0 else math.nan
    while True:
        while True:
            x = draws.normal()
            y = 1.0 + c * x
            if not y <= 0:  # (C's do-while (y <= 0): a NaN y leaves the loop)
                break
        v = y * y * y
        u = 1 - draws.uniform()
        xx = x * x
        if u < 1.0 - float(np.float32(0.0331)) * xx * xx:  # (0.0331f: a float constant)
            return scale * d * v
        if math.log(u) < 0.5 * xx + d * (1.0 - v + math.log(v)):
            return scale * d * v


def _standard_gamma(self: Tensor, generator=None) -> Tensor:
    """Gamma(self, 1) draws (torch._standard_gamma); its gradient is ``_standard_gamma_grad`` (reparameterised)."""
    from .. import derivatives as D
    _random.check_generator(generator, "_standard_gamma")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((self,))
    np_dtype = _check_floating(self, "gamma_cpu")
    S = np_dtype.type
    tiny = np.finfo(np_dtype).tiny
    flat = np.ascontiguousarray(self._data).reshape(-1)
    with _Draws(generator) as draws:
        out = np.array([max(tiny, S(_sample_gamma(S(a), draws, S))) for a in flat], dtype=np_dtype)
    return D.DISTRIBUTION_OPS["_standard_gamma"](self, values=out.reshape(self._data.shape))


# ---- Poisson (Distributions.cpp: sample_poisson) -------------------------------------------------------

def _sample_poisson(lam: float, draws: _Draws) -> int:
    """One Poisson(lam) draw: Hörmann's transformed rejection for lam >= 10, else products of uniforms."""
    if not lam >= 0:
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    if lam >= 10:
        slam, loglam = math.sqrt(lam), math.log(lam)
        b = 0.931 + 2.53 * slam
        a = -0.059 + 0.02483 * b
        invalpha = 1.1239 + 1.1328 / (b - 3.4)
        vr = 0.9277 - 3.6224 / (b - 2)
        while True:
            U = draws.uniform() - 0.5
            V = draws.uniform()
            us = 0.5 - abs(U)
            k = math.floor((2 * a / us + b) * U + lam + 0.43)
            if us >= 0.07 and V <= vr:
                return k
            if k < 0 or (us < 0.013 and V > us):
                continue
            if (math.log(V) + math.log(invalpha) - math.log(a / (us * us) + b)
                    <= -lam + k * loglam - math.lgamma(k + 1)):
                return k
    if lam == 0:
        return 0
    enlam, x, prod = math.exp(-lam), 0, 1.0
    while True:
        prod *= draws.uniform()
        if prod > enlam:
            x += 1
        else:
            return x


def poisson(input: Tensor, generator=None) -> Tensor:
    """Poisson draws with rates ``input`` (torch.poisson); no gradient flows (PoissonBackward0 gives zeros)."""
    from .. import derivatives as D
    _random.check_generator(generator, "poisson")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((input,))
    if not input.is_floating_point():  # (the kernel is for floating types, the half ones included)
        from .._ops import _legacy
        raise NotImplementedError(f"\"poisson_cpu\" not implemented for '{_legacy(input.dtype)}'")
    np_dtype = input._data.dtype
    flat = np.ascontiguousarray(input._data).reshape(-1).astype(np.float64)
    with _Draws(generator) as draws:
        out = np.array([_sample_poisson(lam, draws) for lam in flat.tolist()], dtype=np.float64).astype(np_dtype)
    return D.DISTRIBUTION_OPS["poisson"](input, values=out.reshape(input._data.shape))


# ---- Binomial (Distributions.h: sample_binomial, btrs, binomial_inversion) --------------------------------

_STIRLING_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287)


def _stirling_approx_tail(k: float) -> float:
    if k <= 9:
        return _STIRLING_TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _log1p_s(x, S):
    if S is np.float64:
        return S(math.log1p(x))
    return S(_float_math.libm_float("log1pf", np.log1p)(np.array([x], np.float32))[0])


def _binomial_inversion(count, prob, draws: _Draws, S):
    geom_sum, num_geom = 0.0, S(0)
    logprob = float(_log1p_s(-prob, S))  # (std::log1p of a scalar_t: log1pf for float32)
    while True:
        geom = math.ceil(math.log(draws.uniform()) / logprob)
        geom_sum += geom
        if geom_sum > count:
            return num_geom
        num_geom = S(num_geom + S(1))


def _btrs(count, prob, draws: _Draws, S):
    """Hörmann's BTRS transformed rejection (count·prob >= 10)."""
    stddev = float(np.sqrt(S(count * prob * (S(1) - prob))))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * float(prob)
    c = float(S(count * prob)) + 0.5
    v_r = 0.92 - 4.2 / b
    r = float(S(prob / (S(1) - prob)))
    alpha = (2.83 + 5.1 / b) * stddev
    m = float(np.floor(S((count + S(1)) * prob)))
    n = float(count)
    while True:
        U = draws.uniform() - 0.5
        V = draws.uniform()
        us = 0.5 - abs(U)
        k = S(math.floor((2 * a / us + b) * U + c))
        if k < 0 or k > count:
            continue
        if us >= 0.07 and V <= v_r:
            return k
        V = math.log(V * alpha / (a / (us * us) + b))
        kf = float(k)
        upperbound = ((m + 0.5) * math.log((m + 1) / (r * (n - m + 1)))
                      + (n + 1) * math.log((n - m + 1) / (n - kf + 1))
                      + (kf + 0.5) * math.log(r * (n - kf + 1) / (kf + 1))
                      + _stirling_approx_tail(m) + _stirling_approx_tail(n - m)
                      - _stirling_approx_tail(kf) - _stirling_approx_tail(n - kf))
        if V <= upperbound:
            return k


def _sample_binomial(count, prob, draws: _Draws, S):
    if count <= 0.0 or prob <= 0.0:
        return S(0)
    if prob >= 1.0:
        return count
    if prob <= 0.5:
        if count * prob >= 10.0:
            return _btrs(count, prob, draws, S)
        return _binomial_inversion(count, prob, draws, S)
    if prob > 0.5:
        qprob = S(1.0 - float(prob))
        if count * qprob >= 10.0:
            return S(count - _btrs(count, qprob, draws, S))
        return S(count - _binomial_inversion(count, qprob, draws, S))
    return S(math.nan)


def binomial(count: Tensor, prob: Tensor, generator=None) -> Tensor:
    """Binomial(count, prob) draws (torch.binomial), count and prob broadcast together."""
    from .._ops_shapes import broadcast_tensors
    _random.check_generator(generator, "binomial")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((count, prob))
    from .._ops import _legacy
    for t, name in ((count, "count"), (prob, "prob")):
        if not t.is_floating_point():
            raise ValueError(f"binomial only supports floating-point dtypes for {name}, got: {_legacy(t.dtype)}")
    if prob.dtype != count.dtype:
        raise RuntimeError(f"Found dtype {_legacy(prob.dtype)} but expected {_legacy(count.dtype)}")
    np_dtype = _check_floating(count, "binomial_cpu")  # (no kernel for the half types)
    S = np_dtype.type
    c, p = broadcast_tensors(count.detach(), prob.detach())
    pairs = zip(np.ascontiguousarray(c._data).reshape(-1), np.ascontiguousarray(p._data).reshape(-1).astype(np_dtype))
    with _Draws(generator) as draws:
        out = np.array([_sample_binomial(S(n), S(q), draws, S) for n, q in pairs], dtype=np_dtype)
    out = out.reshape(c._data.shape)
    needs_grad = [t for t in (count, prob) if t.requires_grad]
    if needs_grad:  # PyTorch records a NotImplemented node (its backward raises)
        from .. import derivatives as D
        op = D.NOT_IMPLEMENTED["binomial2" if len(needs_grad) == 2 else "binomial"]
        return op(*needs_grad, values=out)
    return Tensor._make(out)


# ---- Dirichlet (Distributions.cpp: _s_dirichlet_cpu) ---------------------------------------------------

def _sample_dirichlet(alpha: Tensor, generator=None) -> Tensor:
    """Dirichlet(alpha) draws over the last dim: Gamma(alpha_i, 1) in double, normalised, clamped to (0, 1)."""
    _random.check_generator(generator, "_sample_dirichlet")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((alpha,))
    np_dtype = _check_floating(alpha, "dirichlet")
    tiny64 = np.finfo(np.float64).tiny
    flat = np.ascontiguousarray(alpha._data).reshape(-1).astype(np.float64)
    with _Draws(generator) as draws:
        gamma = np.array([max(tiny64, _sample_gamma(a, draws, np.float64)) for a in flat.tolist()], dtype=np.float64)
    gamma = Tensor._make(gamma.reshape(alpha._data.shape))
    total = gamma.sum(-1, keepdim=True)._data  # (minigrad's sum adds in PyTorch's order)
    ratio = (gamma._data / total).astype(np_dtype)
    upper = np.nextafter(np_dtype.type(1), np_dtype.type(0))
    out = np.minimum(upper, np.maximum(np.finfo(np_dtype).tiny, ratio))
    if alpha.requires_grad:  # PyTorch records a NotImplemented node (its backward raises)
        from .. import derivatives as D
        return D.NOT_IMPLEMENTED["_sample_dirichlet"](alpha, values=out)
    return Tensor._make(out)


# ---- reparameterisation gradients (Distributions.h) ------------------------------------------------------

_PSI_10 = 2.25175258906672110764
_DIGAMMA_A = (8.33333333333333333333E-2, -2.10927960927960927961E-2, 7.57575757575757575758E-3,
              -4.16666666666666666667E-3, 3.96825396825396825397E-3, -8.33333333333333333333E-3,
              8.33333333333333333333E-2)


def _digamma_one(x: float) -> float:
    """digamma(x) in double (Cephes, as Distributions.h's digamma_one)."""
    if x == 0:
        return math.inf
    additional = 0.0
    if x < 0:
        if x == math.floor(x):
            return math.inf
        additional = -math.pi / math.tan(math.pi * x)
        x = 1 - x
    result = 0.0
    while x < 10:
        result -= 1 / x
        x += 1
    if x == 10:
        return result + _PSI_10 + additional
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / (x * x)
        poly = 0.0
        for coef in _DIGAMMA_A:
            poly = poly * z + coef
        y = z * poly
    return result + math.log(x) - (0.5 / x) - y + additional


_GAMMA_GRAD_COEF = (
    (0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084),
    (0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623),
    (0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
     -1.5247877e-07),
)


def _standard_gamma_grad_one(alpha: float, x: float) -> float:
    """-(∂/∂α CDF(x; α)) / pdf(x; α): how a Gamma(α, 1) draw x moves with α (implicit reparameterisation)."""
    if x < 0.8:  # Taylor series for small x
        numer, denom = 1.0, alpha
        series1, series2 = numer / denom, numer / (denom * denom)
        for i in range(1, 6):
            numer *= -x / i
            denom += 1
            series1 += numer / denom
            series2 += numer / (denom * denom)
        pow_x_alpha = math.pow(x, alpha)
        gamma_pdf = math.pow(x, alpha - 1) * math.exp(-x)
        gamma_cdf = pow_x_alpha * series1
        gamma_cdf_alpha = (math.log(x) - _digamma_one(alpha)) * gamma_cdf - pow_x_alpha * series2
        result = -gamma_cdf_alpha / gamma_pdf
        return 0.0 if math.isnan(result) else result
    if alpha > 8.0:  # Rice saddle point expansion for large alpha
        if 0.9 * alpha <= x <= 1.1 * alpha:
            numer_1 = 1 + 24 * alpha * (1 + 12 * alpha)
            numer_2 = (1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha
                       + alpha * (107 + 3600 * x))
            denom = 1244160 * (alpha * alpha) * (alpha * alpha)
            return numer_1 * numer_2 / denom
        denom = math.sqrt(8 * alpha)
        term2 = denom / (alpha - x)
        term3 = math.pow(x - alpha - alpha * math.log(x / alpha), -1.5)
        term23 = term2 - term3 if x < alpha else term2 + term3
        term1 = math.log(x / alpha) * term23 - math.sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x))
        stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha))
        return -stirling * (x * term1) / denom
    # a bivariate rational approximation
    u, v = math.log(x / alpha), math.log(alpha)
    c = [c0 + u * (c1 + u * c2) for c0, c1, c2 in zip(*_GAMMA_GRAD_COEF)]
    p = c[0] + v * (c[1] + v * (c[2] + v * c[3]))
    q = c[4] + v * (c[5] + v * (c[6] + v * c[7]))
    return math.exp(p / q)


def _standard_gamma_grad(self: Tensor, output: Tensor) -> Tensor:
    """d output / d self for output = _standard_gamma(self) (torch._standard_gamma_grad; not differentiable)."""
    from .. import derivatives as D
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.warn_fallback("_standard_gamma_grad", self, output)
    np_dtype = _check_floating(self, "_standard_gamma_grad_cpu")
    a, x = np.broadcast_arrays(self._data.astype(np.float64), output._data.astype(np.float64))
    out = np.array([_standard_gamma_grad_one(ai, xi) for ai, xi in zip(a.reshape(-1).tolist(), x.reshape(-1).tolist())],
                   dtype=np.float64).astype(np_dtype).reshape(a.shape)
    return D.DISTRIBUTION_OPS["_standard_gamma_grad"](self, output, values=out)


_LOGF = _float_math.libm_float("logf", np.log)
_POWF = _float_math.libm_float("powf", np.power, 2)


def _log_s(x, S):
    """std::log of an S value: glibc's log (double) or logf (float32)."""
    if S is np.float64:
        return S(math.log(x))
    return S(_LOGF(np.array([x], np.float32))[0])


def _pow_s(x, y, S):
    """std::pow of S values: glibc's pow or powf."""
    if S is np.float64:
        return S(math.pow(x, y))
    return S(_POWF(np.array([x], np.float32), np.array([y], np.float32))[0])


def _digamma_s(x, S):
    """digamma_one<scalar_t, double>: the argument (and its shifts, 1/x, log x) stay in S, the sum is double."""
    x = S(x)
    if x == 0:
        return S(math.inf)
    if x < 0:  # (the reflection: not reached from the gradients below, whose arguments are positive)
        return S(_digamma_one(float(x)))
    result = 0.0
    while x < 10:
        result -= float(S(1) / x)
        x = S(x + S(1))
    if x == 10:
        return S(result + _PSI_10)
    y = 0.0
    if x < 1.0e17:
        z = 1.0 / float(x * x)
        poly = 0.0
        for coef in _DIGAMMA_A:
            poly = poly * z + coef
        y = z * poly
    return S(result + float(_log_s(x, S)) - float(S(0.5) / x) - y)


def _beta_grad_alpha_small(x, alpha, beta, S):
    """Near x = 0 (Taylor series); computed in the tensor's type S, as ATen."""
    factor = S(_digamma_s(alpha, S) - _digamma_s(S(alpha + beta), S)) - _log_s(x, S)
    numer = S(1)
    series = numer / alpha * (factor + S(1) / alpha)
    for i in range(1, 11):
        ci = S(i)
        numer = numer * ((ci - beta) * x / ci)
        denom = alpha + ci
        series = series + numer / denom * (factor + S(1) / denom)
    result = x * _pow_s(S(1) - x, -beta, S) * series
    return S(0) if np.isnan(result) else result


def _beta_grad_beta_small(x, alpha, beta, S):
    """Near x = 1 (Taylor series in 1 - x); computed in S."""
    factor = _digamma_s(S(alpha + beta), S) - _digamma_s(beta, S)
    numer, betas, dbetas, series = S(1), S(1), S(0), factor / alpha
    for i in range(1, 9):
        ci = S(i)
        numer = numer * (-x / ci)
        dbetas = dbetas * (beta - ci) + betas
        betas = betas * (beta - ci)
        series = series + numer / (alpha + ci) * (dbetas + factor * betas)
    result = -_pow_s(S(1) - x, S(1) - beta, S) * series
    return S(0) if np.isnan(result) else result


def _beta_grad_alpha_mid(x, alpha, beta) -> float:
    total = alpha + beta
    mean = alpha / total
    std = math.sqrt(alpha * beta / (total + 1)) / total
    if mean - 0.1 * std <= x <= mean + 0.1 * std:  # avoid the singularity at x = mean
        poly = 47 * x * (beta * beta) * (beta * beta) + alpha * (
            (43 + 20 * (16 + 27 * beta) * x) * (beta * beta) * beta + alpha * (
                3 * (59 + 180 * beta - 90 * x) * (beta * beta) + alpha * (
                    (453 + 1620 * beta * (1 - x) - 455 * x) * beta + alpha * (8 * (1 - x) * (135 * beta - 11)))))
        prefactor_num = (1 + 12 * alpha) * (1 + 12 * beta) / (total * total)
        prefactor_den = 12960 * alpha * alpha * alpha * beta * beta * (1 + 12 * total)
        return prefactor_num / (1 - x) * poly / prefactor_den
    prefactor = -x / math.sqrt(2 * alpha * beta / total)
    stirling = ((1 + 1 / (12 * alpha) + 1 / (288 * alpha * alpha)) * (1 + 1 / (12 * beta) + 1 / (288 * beta * beta))
                / (1 + 1 / (12 * total) + 1 / (288 * total * total)))
    term1_num = 2 * (alpha * alpha) * (x - 1) + alpha * beta * (x - 1) - x * (beta * beta)
    axbx = alpha * (x - 1) + beta * x
    term1 = term1_num / (math.sqrt(2 * alpha / beta) * math.pow(total, 1.5) * axbx * axbx)
    term2 = 0.5 * math.log(alpha / (total * x))
    term3 = math.sqrt(8 * alpha * beta / total) / (beta * x + alpha * (x - 1))
    term4 = math.pow(beta * math.log(beta / (total * (1 - x))) + alpha * math.log(alpha / (total * x)), -1.5)
    return stirling * prefactor * (term1 + term2 * (term3 + (term4 if x < mean else -term4)))


_DIRICHLET_C = np.array([
    [[[1.003668233, -0.01061107488, -0.0657888334, 0.01201642863],
      [0.6336835991, -0.3557432599, 0.05486251648, -0.001465281033],
      [-0.03276231906, 0.004474107445, 0.002429354597, -0.0001557569013]],
     [[0.221950385, -0.3187676331, 0.01799915743, 0.01074823814],
      [-0.2951249643, 0.06219954479, 0.01535556598, 0.001550077057],
      [0.02155310298, 0.004170831599, 0.001292462449, 6.976601077e-05]],
     [[-0.05980841433, 0.008441916499, 0.01085618172, 0.002319392565],
      [0.02911413504, 0.01400243777, -0.002721828457, 0.000751041181],
      [0.005900514878, -0.001936558688, -9.495446725e-06, 5.385558597e-05]]],
    [[[1, -0.02924021934, -0.04438342661, 0.007285809825],
      [0.6357567472, -0.3473456711, 0.05454656494, -0.002407477521],
      [-0.03301322327, 0.004845219414, 0.00231480583, -0.0002307248149]],
     [[0.5925320577, -0.1757678135, 0.01505928619, 0.000564515273],
      [0.1014815858, -0.06589186703, 0.01272886114, -0.0007316646956],
      [-0.007258481865, 0.001096195486, 0.0003934994223, -4.12701925e-05]],
     [[0.06469649321, -0.0236701437, 0.002902096474, -5.896963079e-05],
      [0.001925008108, -0.002869809258, 0.0008000589141, -6.063713228e-05],
      [-0.0003477407336, 6.959756487e-05, 1.097287507e-05, -1.650964693e-06]]],
]).tolist()


def _dirichlet_grad_one(xs, alphas, totals, S):
    """-(∂/∂α CDF(x; α, total - α)) / pdf / (1 - x): how a Beta draw moves with α (for Dirichlet's rsample).

    The arguments have the tensor's type S; the series near 0 and 1 are computed in S, the rest in double.
    """
    x, alpha, total = float(xs), float(alphas), float(totals)
    beta = total - alpha
    beta_s = S(totals - alphas)
    boundary = totals * xs * (S(1) - xs)
    if xs <= 0.5 and boundary < 2.5:  # x close to 0
        return _beta_grad_alpha_small(xs, alphas, beta_s, S)
    if xs >= 0.5 and boundary < 0.75:  # x close to 1
        return -_beta_grad_beta_small(S(1) - xs, beta_s, alphas, S)
    if alphas > 6 and beta_s > 6:  # both large
        return S(_beta_grad_alpha_mid(x, alpha, beta))
    u = math.log(x)
    a = math.log(alpha) - u
    b = math.log(total) - a
    pow_u, pow_a = (1, u, u * u), (1, a, a * a)
    p = q = 0.0
    for i in range(3):
        for j in range(3):
            ua = pow_u[i] * pow_a[j]
            cp, cq = _DIRICHLET_C[0][i][j], _DIRICHLET_C[1][i][j]
            p += ua * (cp[0] + b * (cp[1] + b * (cp[2] + b * cp[3])))
            q += ua * (cq[0] + b * (cq[1] + b * (cq[2] + b * cq[3])))
    approx = x * float(_digamma_s(total, S) - _digamma_s(alpha, S)) / beta  # (digamma_one<scalar_t>: in S)
    return S(p / q * approx)


def _dirichlet_grad(x: Tensor, alpha: Tensor, total: Tensor) -> Tensor:
    """The Beta-marginal reparameterisation gradient Dirichlet's rsample uses (torch._dirichlet_grad)."""
    np_dtype = _check_floating(x, "_dirichlet_grad_cpu")
    S = np_dtype.type
    arrays = np.broadcast_arrays(*(t._data.astype(np_dtype) for t in (x, alpha, total)))
    flat = zip(*(a.reshape(-1) for a in arrays))
    out = np.array([_dirichlet_grad_one(*v, S) for v in flat], dtype=np_dtype)
    return Tensor._make(out.reshape(arrays[0].shape))
