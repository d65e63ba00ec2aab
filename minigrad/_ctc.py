"""CTC loss kernels on NumPy arrays, as PyTorch's CPU kernels (aten/src/ATen/native/LossCTC.cpp) compute them.

The target l (length L) is extended with blanks, l' = (blank, l1, blank, l2, ..., blank) of length 2L + 1.
alpha[t, s] = log P(the first t + 1 frames emit l'[:s + 1] as a path ending in state s), by Graves et al.'s
recursion (eq. 6-7): alpha[t, s] = logsumexp(alpha[t-1, s], alpha[t-1, s-1], alpha[t-1, s-2] if l'[s] differs
from l'[s-2]) + log_probs[t, l'[s]]. The loss is -logsumexp of the last two states at the last frame; beta
runs the same recursion backwards, and the gradient (eq. 16) is exp(lp) - exp(logsumexp over the states of each
label of alpha + beta, + nll - lp), times the incoming gradient. Every step rounds in the input's dtype, with
exp / log as glibc computes them (PyTorch's kernel calls std::exp / std::log), so the bits match PyTorch's.
"""
from __future__ import annotations

import math

import numpy as np

from . import _float_math

_NEG_INF = -np.inf


_LIBM_EXP = np.frompyfunc(math.exp, 1, 1)   # (C's exp and log: NumPy's own float64 ones differ in the last bit)


def _libm_log(v: float) -> float:
    return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)


_LIBM_LOG = np.frompyfunc(_libm_log, 1, 1)


_LOGF = _float_math.libm_float("logf", np.log)


def _exp(x):
    """e^x as glibc's exp / expf compute it (PyTorch's kernel calls std::exp)."""
    if x.dtype == np.float64:
        safe = np.where(np.isnan(x) | (x > 709), 0.0, np.maximum(x, -1e4))
        out = np.asarray(_LIBM_EXP(safe), np.float64)
        return np.where(np.isnan(x), np.nan, np.where(x > 709, np.exp(np.minimum(x, 710.0)), out))
    return _float_math.glibc_expf(np.asarray(x))


def _log(x):
    """log x as glibc's log / logf compute it."""
    if x.dtype == np.float64:
        return np.asarray(_LIBM_LOG(x), np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.asarray(_LOGF(np.asarray(x)), np.float32).reshape(np.shape(x))


def _primes(targets, offset: int, stride: int, length: int, blank: int) -> np.ndarray:
    """l' for one sample: blank, target 1, blank, target 2, ..., blank."""
    out = np.full(2 * length + 1, blank, np.int64)
    out[1::2] = targets.reshape(-1)[offset + stride * np.arange(length)]
    return out


def _layout(targets, target_lengths, batch: int) -> tuple:
    """Where each sample's target starts in the flat targets, and the step between its labels."""
    if targets.ndim == 1:   # concatenated targets
        return np.concatenate([[0], np.cumsum(target_lengths)[:-1]]).astype(np.int64), 1
    return np.arange(batch) * targets.shape[1], 1


def _logsumexp3(a, b, c, extra):
    """log(e^(a-m) + e^(b-m) + e^(c-m)) + m + extra, m the max (0 when all are -inf), step by step."""
    t = a.dtype.type
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == _NEG_INF, t(0), m)
    total = (_exp(a - m) + _exp(b - m)) + _exp(c - m)
    return (_log(total) + m) + extra


def forward(log_probs, targets, input_lengths, target_lengths, blank):
    """(neg_log_likelihood (N,), log_alpha (N, T, 2·max L + 1)) for log_probs (T, N, C)."""
    steps, batch, _ = log_probs.shape
    dtype = log_probs.dtype
    t_ = dtype.type
    max_len = int(max(target_lengths, default=0))
    log_alpha = np.full((batch, steps, 2 * max_len + 1), _NEG_INF, dtype)   # (rows PyTorch leaves unset: -inf)
    nll = np.zeros(batch, dtype)
    offsets, stride = _layout(targets, target_lengths, batch)
    for b in range(batch):
        n_in, n_tg = int(input_lengths[b]), int(target_lengths[b])
        if n_in == 0:
            nll[b] = -(t_(0) if n_tg == 0 else t_(-np.inf))   # (-0.0 for an empty target, as PyTorch)
            continue
        primes = _primes(targets, int(offsets[b]), stride, n_tg, blank)
        lp = log_probs[:, b]
        alpha = log_alpha[b]
        alpha[0, 0] = lp[0, blank]
        if n_tg > 0:
            alpha[0, 1] = lp[0, primes[1]]
        width = 2 * n_tg + 1
        # s - 2 is a third way in where l'[s] differs from l'[s-2] (never for blanks or repeated labels)
        skip = np.zeros(width, bool)
        skip[2:] = primes[2:] != primes[:-2]
        for t in range(1, n_in):
            prev = alpha[t - 1, :width]
            la2 = np.concatenate([[_NEG_INF], prev[:-1]]).astype(dtype)
            la3 = np.where(skip, np.concatenate([[_NEG_INF, _NEG_INF], prev[:-2]])[:width], _NEG_INF).astype(dtype)
            alpha[t, :width] = _logsumexp3(prev, la2, la3, lp[t, primes])
        if n_tg == 0:
            nll[b] = -alpha[n_in - 1, 0]
        else:
            l1, l2 = alpha[n_in - 1, 2 * n_tg], alpha[n_in - 1, 2 * n_tg - 1]
            m = max(l1, l2)
            m = t_(0) if m == _NEG_INF else m
            nll[b] = -((_log(np.asarray(_exp(np.asarray(l1 - m)) + _exp(np.asarray(l2 - m))))) + m)
    return nll, log_alpha


def backward(grad_out, log_probs, targets, input_lengths, target_lengths, nll, log_alpha, blank, zero_infinity):
    """d loss[b] / d log_probs, times grad_out[b] (PyTorch's ctc_loss_backward_cpu_template)."""
    steps, batch, labels = log_probs.shape
    dtype = log_probs.dtype
    t_ = dtype.type
    grad = np.full((steps, batch, labels), _NEG_INF, dtype)
    offsets, stride = _layout(targets, target_lengths, batch)
    for b in range(batch):
        g = grad[:, b]
        if zero_infinity and nll[b] == np.inf:
            g[:] = 0
            continue
        n_in, n_tg = int(input_lengths[b]), int(target_lengths[b])
        primes = _primes(targets, int(offsets[b]), stride, n_tg, blank)
        lp, alpha = log_probs[:, b], log_alpha[b]
        width = 2 * n_tg + 1
        beta = np.full((steps, width), _NEG_INF, dtype)
        if n_in > 0:
            last = n_in - 1
            beta[last, 2 * n_tg] = lp[last, blank]
            g[last, blank] = alpha[last, 2 * n_tg] + beta[last, 2 * n_tg]
            if n_tg > 0:
                label = primes[2 * n_tg - 1]
                beta[last, 2 * n_tg - 1] = lp[last, label]
                g[last, label] = alpha[last, 2 * n_tg - 1] + beta[last, 2 * n_tg - 1]
        skip = np.zeros(width, bool)
        skip[:-2] = primes[2:] != primes[:-2]
        for t in range(n_in - 2, -1, -1):
            nxt = beta[t + 1]
            lb2 = np.concatenate([nxt[1:], [_NEG_INF]]).astype(dtype)
            lb3 = np.where(skip, np.concatenate([nxt[2:], [_NEG_INF, _NEG_INF]])[:width], _NEG_INF).astype(dtype)
            beta[t] = _logsumexp3(nxt, lb2, lb3, lp[t, primes])
        if n_in > 1:   # "log +=" α·β of each state into its label, s descending as the kernel (all frames at once)
            both = alpha[:n_in - 1, :width] + beta[:n_in - 1]
            for s in range(width - 1, -1, -1):
                c = primes[s]
                acc, new = g[:n_in - 1, c], both[:, s]
                m = np.maximum(acc, new)
                with np.errstate(invalid="ignore"):
                    merged = (_log(_exp(acc - m) + _exp(new - m)) + m).astype(dtype)
                g[:n_in - 1, c] = np.where(acc == _NEG_INF, new, merged)
        gr = grad_out[b]
        rows = g[:n_in]
        lps = lp[:n_in]
        g[:n_in] = (_exp(lps) - _exp((rows + nll[b]) - lps)) * gr
        g[n_in:] = t_(0)
    return grad
