"""PyTorch's CPU complex multiply and divide, bit for bit (and, below, its other complex kernels: see their sections).

NumPy's complex loops round differently (fused multiply-adds in its SIMD loops). PyTorch's kernel
(``cpu_kernel_vec``) has two paths:
- the AVX512 vector ``Vectorized<c10::complex<T>>::operator*``: (ac - bd, ad + bc) from rounded products;
- the scalar ``c10::complex`` operators, compiled with fused multiply-adds (GCC contracts ``a*c - b*d`` to
  fma(a, c, -(b*d))), for the elements that do not fill two vectors at the end of a contiguous inner loop,
  and for every element of a non-contiguous one. Division is always the scalar Smith algorithm (the
  vector operator/ stores and divides element by element).
The arrays carrying these rules are ``TorchComplex`` views (made by ``_dispatch._pytorch_operands`` for
complex mul/div only): NumPy hands ``np.multiply``/``np.true_divide`` on them to ``__array_ufunc__`` below,
so the float ops keep calling the ufunc directly, with no extra check.
"""
import functools

import numpy as np

# Complex numbers per loop step of cpu_kernel_vec on AVX512: two 512-bit vectors.
_BLOCK = {np.dtype(np.complex64): 16, np.dtype(np.complex128): 8}


def _round_to_odd(s, err):
    """s, moved one ulp towards ``err`` when s is inexact (err != 0) and even: round-to-odd of s + err."""
    bits = s.view(np.int64)
    move = (err != 0) & ((bits & 1) == 0)
    if move.any():
        s = np.where(move, np.nextafter(s, np.copysign(np.inf, err)), s)
    return s


def _fma(a, b, c):
    """a·b + c rounded once (float32 or float64 arrays), as the FPU's fused multiply-add."""
    from ._float_math import _SPLIT_SAFE, _two_product  # (here: _float_math imports _dispatch, which imports us)
    if a.dtype == np.float32:
        # Exact product and no overflow in float64: the sum rounded to odd there, then to float32 (one rounding).
        p = a.astype(np.float64) * b
        c64 = c.astype(np.float64)
        s = p + c64
        v = s - p
        err = (p - (s - v)) + (c64 - v)
        finite = np.isfinite(s)
        return np.where(finite, _round_to_odd(np.where(finite, s, 0), np.where(finite, err, 0)), s).astype(np.float32)
    big = (np.abs(a) > _SPLIT_SAFE) | (np.abs(b) > _SPLIT_SAFE)
    if big.any():
        fa, ea = np.frexp(a)
        fb, eb = np.frexp(b)
        p, e = _two_product(fa, fb)
        p, e = np.ldexp(p, ea + eb), np.ldexp(e, ea + eb)
    else:
        p, e = _two_product(a, b)
    # Boldo & Melquiond: (th, tl) = TwoSum(c, p); the low parts added rounding to odd; then one rounding.
    th = c + p
    v = th - c
    tl = (c - (th - v)) + (p - v)
    lo = tl + e
    w = lo - tl
    lerr = (tl - (lo - w)) + (e - w)
    fused = th + _round_to_odd(lo, lerr)
    plain = a * b + c
    # Not finite: an infinite c wins over a finite product that overflows; otherwise the plain result.
    plain = np.where(np.isinf(c) & np.isfinite(a) & np.isfinite(b), c, plain)
    fused = np.where(np.isfinite(fused) & np.isfinite(plain), fused, plain)
    # A zero: the split's error terms lose its sign. An underflowing product (c = 0) keeps the product's
    # sign; otherwise the plain sum has IEEE's sign of an exact zero.
    zero = fused == 0
    if zero.any():
        tiny = (c == 0) & (a != 0) & (b != 0)
        signed = np.copysign(0.0, np.where(np.signbit(a) ^ np.signbit(b), -1.0, 1.0))
        fused = np.where(zero, np.where(tiny, signed, plain), fused)
    return fused


# How PyTorch computes one element (read off by probing PyTorch 2.13's AVX512 build): the kernel's inner
# loop is cpu_kernel_vec's; its scalar loop is itself auto-vectorised by GCC, the wide blocks without
# contraction, the narrow ones with it, a lone complex64 element on its own.
PLAIN, FUSED, LONE = 0, 1, 2   # (LONE: multiply plain; divide with only its denominator fused)


def _tail_kinds(m, dtype, scalar_other, divide, inplace=False):
    """The kinds of the m elements of a contiguous loop's tail (the scalar loop)."""
    k = np.arange(m)
    kinds = np.full(m, FUSED, np.int8)
    if dtype == np.complex128:
        if not divide:
            kinds[k < m - m % 4] = PLAIN    # (4-blocks plain, the rest fused)
        return kinds
    if divide:
        if inplace:                      # (written over an input: 8-blocks fused, the rest alone)
            kinds[k >= m - m % 8] = LONE
            return kinds
    elif not scalar_other:               # 8-blocks plain, pairs fused, a last odd one alone
        kinds[k < m - m % 8] = PLAIN
    else:                                # by a broadcast number: 8-blocks plain; of the rest, if more
        kinds[:] = PLAIN                 # than 4, the first plain, 4 fused, the others plain
        rest = m % 8
        if rest > 4:
            kinds[m - rest + 1:m - rest + 5] = FUSED
        return kinds
    if m % 2:
        kinds[-1] = LONE
    return kinds


def _strided_kinds(m, dtype):
    """A non-contiguous loop of m elements: fused throughout, in pairs (complex64: a last odd one alone)."""
    kinds = np.full(m, FUSED, np.int8)
    if m % 2 and dtype == np.complex64:
        kinds[-1] = LONE
    return kinds


_GRAIN_SIZE = 32768   # (at::internal::GRAIN_SIZE: TensorIterator splits bigger loops between threads)


def _chunks(inner, size, grain=_GRAIN_SIZE):
    """The (start, end) pieces of a one-row loop of ``inner`` elements that at::parallel_for gives each thread
    (``grain``: the loop's grain size)."""
    from ._reduce import THREADS  # (PyTorch's intra-op thread count, as set_num_threads sets it)

    if inner != size or size < grain or THREADS[0] == 1:
        return [(0, inner)]   # (several rows split between threads: not modelled, each row as one loop)
    n = min(THREADS[0], -(-size // grain))
    step = -(-size // n)
    return [(i, min(i + step, size)) for i in range(0, size, step)]


def _kinds(a, b, out, divide, inplace=False):
    """How PyTorch's loop computes each output element (PLAIN/FUSED/LONE), or one kind for all.

    The inner loop runs over the innermost dimension left after TensorIterator drops size-1 dimensions,
    orders them by the output's layout and coalesces those every operand steps through contiguously. It
    is vectorised if each input there is contiguous or a single broadcast value (not both): blocks of two
    vectors (multiply plain, divide fused: its vector operator/ divides element by element), the rest by
    the scalar loop (_tail_kinds). Otherwise the scalar loop does every element (_strided_kinds)."""
    shape = out.shape
    if out.size == 0:
        return PLAIN
    ops = [np.broadcast_to(a, shape), np.broadcast_to(b, shape), out]
    keep = [i for i, n in enumerate(shape) if n != 1]
    if not keep:   # (one element: a contiguous loop of one, all tail)
        return int(_tail_kinds(1, out.dtype, False, divide)[0])
    keep.sort(key=lambda i: -out.strides[i])
    sizes = [shape[i] for i in keep]
    strides = [[x.strides[i] // x.itemsize for i in keep] for x in ops]
    inner = sizes[-1]
    d = len(sizes) - 1
    while d > 0 and all(st[d - 1] == st[d] * sizes[d] for st in strides):
        d -= 1
        inner *= sizes[d]
    s = [st[-1] for st in strides]
    if s[2] == 1 and s[0] in (0, 1) and s[1] in (0, 1) and s[:2] != [0, 0]:
        row = np.full(inner, FUSED if divide else PLAIN, np.int8)
        for start, end in _chunks(inner, out.size):   # (each thread's loop has its own tail)
            cut = end - (end - start) % _BLOCK[out.dtype]
            row[cut:end] = _tail_kinds(end - cut, out.dtype, 0 in s[:2], divide, inplace)
    else:
        row = _strided_kinds(inner, out.dtype)
    if (row == row[0]).all():
        return int(row[0])
    # (the rows of the loop in the output's memory order)
    order = sorted(range(out.ndim), key=lambda i: -out.strides[i] if shape[i] != 1 else 0)
    flat = np.broadcast_to(row, (out.size // inner, inner)).reshape([shape[i] for i in order])
    return flat.transpose(np.argsort(order))


def _pick(kinds, choices):
    """The choice of each element's kind (``choices``: the results per kind, arrays of the output's shape)."""
    if isinstance(kinds, int):
        return choices[kinds]()
    out = None
    for k in np.unique(kinds):
        part = choices[int(k)]()
        out = np.where(kinds == k, part, 0) if out is None else np.where(kinds == k, part, out)
    return out


def multiply(a, b, out=None):
    """PyTorch's complex product of a and b (arrays of one complex dtype, broadcastable)."""
    a = np.asarray(a)
    dtype = np.result_type(a, b)
    a = a.astype(dtype, copy=False)
    b = np.asarray(b, dtype=dtype)
    result = _empty_like_layout(a, b, dtype) if out is None else out
    shape = result.shape
    ar, ai, br, bi = (np.broadcast_to(x, shape) for x in (a.real, a.imag, b.real, b.imag))
    kinds = _kinds(a, b, result, False)
    with np.errstate(all="ignore"):
        plain = (lambda: ar * br - ai * bi, lambda: ar * bi + ai * br)
        fused = (lambda: _fma(ar, br, -(ai * bi)), lambda: _fma(ar, bi, ai * br))
        re = _pick(kinds, (plain[0], fused[0], plain[0]))
        im = _pick(kinds, (plain[1], fused[1], plain[1]))
    result.real, result.imag = re, im
    return result


def _div_scalar(a, b, c, d, numerators_fused=True, second_fused=None):
    """c10::complex's operator/ (Smith's algorithm, as NumPy's) with GCC's contractions (``second_fused``: of the
    numerators of the branch |c| < |d|, when they differ from the other branch's)."""
    num = _fma if numerators_fused else (lambda x, y, z: x * y + z)
    num2 = num if second_fused is None else _fma if second_fused else (lambda x, y, z: x * y + z)
    with np.errstate(all="ignore"):
        first = np.abs(c) >= np.abs(d)
        zero = first & (c == 0) & (d == 0)
        rat1 = d / c
        scl1 = 1 / _fma(d, rat1, c)
        re1 = num(b, rat1, a) * scl1
        im1 = num(-a, rat1, b) * scl1
        rat2 = c / d
        scl2 = 1 / _fma(c, rat2, d)
        re2 = num2(a, rat2, b) * scl2
        im2 = num2(b, rat2, -a) * scl2
        re = np.where(first, re1, re2)
        im = np.where(first, im1, im2)
        re = np.where(zero, a / np.abs(c), re)
        im = np.where(zero, b / np.abs(d), im)
    return re, im


def divide(a, b, out=None):
    """PyTorch's complex quotient a / b (arrays of one complex dtype, broadcastable)."""
    a = np.asarray(a)
    dtype = np.result_type(a, b)
    a = a.astype(dtype, copy=False)
    b = np.asarray(b, dtype=dtype)
    result = _empty_like_layout(a, b, dtype) if out is None else out
    parts = [np.broadcast_to(x, result.shape) for x in (a.real, a.imag, b.real, b.imag)]
    kinds = _kinds(a, b, result, True, out is not None and (np.shares_memory(out, a) or np.shares_memory(out, b)))
    fused = _div_scalar(*parts)
    if isinstance(kinds, int) and kinds != LONE:   # (PLAIN only for an empty output: division has no plain kind)
        re, im = fused
    else:
        lone = _div_scalar(*parts, numerators_fused=False)
        re = _pick(kinds, (None, lambda: fused[0], lambda: lone[0]))
        im = _pick(kinds, (None, lambda: fused[1], lambda: lone[1]))
    result.real, result.imag = re, im
    return result


def _empty_like_layout(a, b, dtype):
    """The output array laid out as TensorIterator's (its loop order decides each element's kind, _kinds): an
    expanded operand's stride-0 dims have no say in the order (x.expand(5, 10, 5) * y keeps C order)."""
    from . import _strides  # (here: _strides imports _dispatch, which imports us)
    return _strides.iterator_layout(np.empty(np.broadcast_shapes(a.shape, b.shape), dtype), [a, b])


class TorchComplex(np.ndarray):
    """A complex array whose ``np.multiply``/``np.true_divide`` compute PyTorch's bits (see above)."""

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kwargs):
        plain = [x.view(np.ndarray) if isinstance(x, TorchComplex) else x for x in inputs]
        target = None
        if out is not None:
            target = out[0].view(np.ndarray) if isinstance(out[0], TorchComplex) else out[0]
        if method == "__call__" and not kwargs and ufunc in _EXACT and len(plain) == 2:
            return _EXACT[ufunc](plain[0], plain[1], target)
        if target is not None:
            kwargs["out"] = (target,)
        return getattr(ufunc, method)(*plain, **kwargs)


_EXACT = {np.multiply: multiply, np.true_divide: divide}


def _dense_strides(x):
    """The strides (in bytes of a bool) mapping a flat memory-order array onto x's layout, or None if x has gaps,
    overlaps or negative strides."""
    dims = sorted((s, n) for n, s in zip(x.shape, x.strides) if n != 1)
    expect = x.itemsize
    for s, n in dims:
        if s != expect:
            return None
        expect *= n
    return tuple(s // x.itemsize if n != 1 else 0 for n, s in zip(x.shape, x.strides))


def power_product(a, b, base, cube_step=False):
    """The product a·b inside the one-input kernel of pow(base, 2 or 3) (z·z, then ``cube_step``: (z·z)·z): the
    vector blocks of a contiguous loop over base plain, its scalar tail fused (also a last odd element), except
    complex64's cube step, fused on the tail's runs of 4 and plain on the rest (the compiler's code for
    ``base * base * base``); a strided base's loop fused. (Read off PyTorch 2.13 by probing, AVX512 kernels.)"""
    ar, ai, br, bi = a.real, a.imag, b.real, b.imag
    cube64 = cube_step and a.dtype == np.complex64
    with np.errstate(all="ignore"):
        re, im = _fma(ar, br, -(ai * bi)), _fma(ar, bi, ai * br)
        plain = None
        strides = _dense_strides(base)
        if strides is not None:   # (dense, in any dim order: TensorIterator coalesces it into one loop in memory order)
            flat = np.ones(a.size, bool)   # (fused)
            for start, end in _chunks(a.size, a.size):
                tail = end - (end - start) % _BLOCK[a.dtype]
                flat[start:tail] = False
                if cube64:
                    flat[end - (end - tail) % 4:end] = False
            plain = np.lib.stride_tricks.as_strided(flat, a.shape, strides) == 0   # (memory order -> a's layout)
        elif cube64 and a.ndim:   # (a strided loop, along the last dim: runs of 4 fused, the rest plain)
            m = a.shape[-1]
            plain = np.broadcast_to(np.arange(m) >= m - m % 4, a.shape)
        if plain is not None:
            re = np.where(plain, ar * br - ai * bi, re)
            im = np.where(plain, ar * bi + ai * br, im)
    out = np.empty(a.shape, a.dtype)
    out.real, out.imag = re, im
    return out


def addcmul(a, t1, t2, value):
    """addcmul's self + (value·t1)·t2 for complex arrays (broadcast, one dtype), as its cpu_kernel_vec rounds it:
    dense operands of one layout run one loop in memory order, blocks of two vectors with plain products, then
    the scalar tail (complex64: runs of 8 plain, then a run of 4 fused, the rest plain; complex128: runs of 4
    plain, the rest fused). complex128 loops of the scalar code only (strided operands): both products fused.
    Other layouts: the products as mul's kernel rounds them (not probed further).
    (Read off PyTorch 2.13 by probing, AVX512 kernels.)"""
    dtype = np.result_type(a, t1, t2)
    a, t1, t2 = (np.asarray(x, dtype) for x in (a, t1, t2))
    v = np.asarray(value, dtype)
    strides = _dense_strides(a)
    if strides is None or not (a.shape == t1.shape == t2.shape and _dense_strides(t1) == strides == _dense_strides(t2)):
        from . import _strides  # (here: _strides imports _dispatch, which imports us)
        out = _strides.iterator_layout(np.empty(np.broadcast_shapes(a.shape, t1.shape, t2.shape), dtype), [a, t1, t2])
        # (complex64's scalar loop fuses in pairs, a last odd element's product with t2 not, and in place none of
        # those: not modelled)
        if dtype != np.complex128 or not _scalar_loop((a, t1, t2), out):
            return a + multiply(multiply(t1, v), t2)
        v, t1, t2 = (np.broadcast_to(x, out.shape) for x in (v, t1, t2))
        with np.errstate(all="ignore"):   # (complex128's scalar lambda: value·t1, then its product with t2, fused)
            out[...] = a + _pick_product(_pick_product(v, t1, True), t2, True)
        return out
    fused = np.zeros(a.size, bool)
    for start, end in _chunks(a.size, a.size):
        m = (end - start) % _BLOCK[dtype]
        if dtype == np.complex64:
            if m % 8 >= 4:
                fused[end - m % 8:end - m % 8 + 4] = True
        else:
            fused[end - m % 4:end] = True
    fused = np.lib.stride_tricks.as_strided(fused, a.shape, strides)   # (memory order -> the operands' layout)
    with np.errstate(all="ignore"):
        x = t1 * v if v.imag == 0 else _pick_product(t1, np.broadcast_to(v, t1.shape), fused)
        out = a + _pick_product(x, t2, fused)
    return out


def _scalar_loop(inputs, out) -> bool:
    """Whether cpu_kernel_vec runs its scalar lambda on every element of ``out``: unless along its inner loop every
    input is contiguous, or one is a broadcast value and the others contiguous (then it vectorises)."""
    shape = out.shape
    keep = [i for i, n in enumerate(shape) if n != 1]
    if not keep:
        return False
    ops = [np.broadcast_to(x, shape) for x in inputs] + [out]
    keep.sort(key=lambda i: -out.strides[i])
    sizes = [shape[i] for i in keep]
    strides = [[x.strides[i] // x.itemsize for i in keep] for x in ops]
    d = len(sizes) - 1
    while d > 0 and all(st[d - 1] == st[d] * sizes[d] for st in strides):   # (the dims TensorIterator coalesces)
        d -= 1
    s = [st[-1] for st in strides]
    return not (s[-1] == 1 and all(x in (0, 1) for x in s[:-1]) and s[:-1].count(0) <= 1)


def addcdiv(a, t1, t2, value):
    """addcdiv's self + (value·t1)/t2 for complex arrays (broadcast, one dtype): dense operands of one layout run
    one loop whose vector blocks divide element by element and whose scalar tail is the same code, so every
    quotient is the fused Smith division; other layouts: division's kernel (``divide``), not probed further.
    (Read off PyTorch 2.13 by probing, AVX512 kernels.)"""
    dtype = np.result_type(a, t1, t2)
    a, t1, t2 = (np.asarray(x, dtype) for x in (a, t1, t2))
    v = np.asarray(value, dtype)
    with np.errstate(all="ignore"):
        x = t1 * v if v.imag == 0 else _pick_product(t1, np.broadcast_to(v, t1.shape), False)
        strides = _dense_strides(a)
        if strides is None or not (a.shape == t1.shape == t2.shape
                                   and _dense_strides(t1) == strides == _dense_strides(t2)):
            return a + divide(x, t2)
        re, im = _div_scalar(x.real, x.imag, t2.real, t2.imag)
        quotient = np.empty(x.shape, dtype)
        quotient.real, quotient.imag = re, im
        return a + quotient


def _pick_product(x, y, fused):
    """x·y with (ac - bd, ad + bc) from rounded products, or fused where ``fused`` says (GCC's scalar code)."""
    xr, xi, yr, yi = x.real, x.imag, y.real, y.imag
    out = np.empty(x.shape, x.dtype)
    out.real = np.where(fused, _fma(xr, yr, -(xi * yi)), xr * yr - xi * yi)
    out.imag = np.where(fused, _fma(xr, yi, xi * yr), xr * yi + xi * yr)
    return out


# ---- neg: the vector blocks compute 0 - z, the scalar loop -z -----------------------------------------------------
# PyTorch's neg kernel is registered for AVX2 only (REGISTER_DISPATCH): blocks of two 256-bit vectors, 8 complex64
# or 4 complex128, whose Vectorized<complex>::neg() is 0 - z (a zero part comes out +0, a NaN keeps its sign); the
# scalar lambda, -z, takes the tail of a contiguous loop and every element of a strided one. (Read off PyTorch 2.13
# by probing.)
_NEG_BLOCK = {np.dtype(np.complex64): 8, np.dtype(np.complex128): 4}


def neg(a):
    """-a for a complex array, with the signs of zeros and NaNs PyTorch's kernel gives."""
    out = np.negative(a)
    block = _NEG_BLOCK[a.dtype]
    strides = _dense_strides(a)
    if strides is not None:   # (dense, in any dim order: one loop in memory order, a tail per thread's piece)
        flat = np.zeros(a.size, bool)
        for start, end in _chunks(a.size, a.size):
            flat[start:end - (end - start) % block] = True
        vec = np.lib.stride_tricks.as_strided(flat, a.shape, strides)
    else:   # (a loop per line of the inner dims TensorIterator coalesces, in the result's layout, vectorised if a
        # steps through it contiguously or is one broadcast value)
        from . import _strides  # (here: _strides imports _dispatch, which imports us)
        res = _strides.iterator_layout(np.empty(a.shape, a.dtype), [a])
        dims = sorted((d for d in range(a.ndim) if a.shape[d] != 1), key=lambda d: -res.strides[d])
        sizes = [a.shape[d] for d in dims]
        steps = [[x.strides[d] // x.itemsize for d in dims] for x in (a, res)]
        if not sizes or steps[0][-1] not in (0, 1) or steps[1][-1] != 1 or not a.size:
            return out
        line, d = sizes[-1], len(sizes) - 1
        while d > 0 and all(st[d - 1] == st[d] * sizes[d] for st in steps):
            d -= 1
            line *= sizes[d]
        flat = np.broadcast_to(np.arange(line) < line - line % block, (a.size // line, line)).reshape(-1)
        vec = np.lib.stride_tricks.as_strided(flat.copy(), a.shape, _dense_strides(res))   # (memory order -> layout)
    return np.where(vec, a.dtype.type(0) - a, out)


# ---- tanh_backward and sigmoid_backward: g · conj(f(y)), f(y) = 1 - y² or (1 - y)·y --------------------------
# PyTorch's kernels (BinaryOpsKernel.cpp) are cpu_kernel_vec's: blocks of two vectors with plain products, then the
# scalar lambda, which GCC compiles with fused multiply-adds (f's products fused; the outer product's imaginary
# part fused on its other product, except a last lone element's). The scalar loop takes every element of a loop that
# is not contiguous, and the tail of one that is; complex128 runs it in pairs, complex64 in runs of 4, the rest with
# the outer product plain. (Read off PyTorch 2.13 by probing, AVX512 kernels.)
_VEC, _PAIR, _LAST, _REST = 0, 1, 2, 3


def _product(xr, xi, yr, yi, re_kind, im_kind):
    """(x·y).real and .imag: plain ("p"), fused on the first product ("1") or on the second ("2")."""
    re = xr * yr - xi * yi if re_kind == "p" else _fma(xr, yr, -(xi * yi))
    im = xr * yi + xi * yr if im_kind == "p" else _fma(xr, yi, xi * yr) if im_kind == "1" else _fma(xi, yr, xr * yi)
    return re, im


def _loop_kinds(m: int, dtype, contiguous):
    """Each element's kind in the loop of a kernel above over m elements: contiguous (vector blocks, then the
    scalar tail), or strided (the scalar code throughout: its pairs / runs of 4 carry on from one line to the next)."""
    k = np.arange(m)
    tail = m - m % _BLOCK[np.dtype(dtype)] if contiguous else 0
    kinds = np.full(m, _VEC, np.int8)
    rest = m - tail
    if dtype == np.complex128:
        kinds[tail:] = _PAIR
        if rest % 2:
            kinds[-1] = _LAST
    else:
        kinds[tail:] = _PAIR
        kinds[k >= m - rest % 4] = _REST
    return kinds


def grad_times_conj(g, y, inner: str):
    """PyTorch's complex ``tanh_backward`` (inner "tanh": g·conj(1 - y²)) or ``sigmoid_backward`` (inner
    "sigmoid": g·conj((1 - y)·y)), bit for bit."""
    dtype = np.result_type(g, y)
    shape = np.broadcast_shapes(g.shape, y.shape)
    g, y = np.broadcast_to(g.astype(dtype, copy=False), shape), np.broadcast_to(y.astype(dtype, copy=False), shape)
    dense = _dense_strides(g) if g.strides == y.strides else None
    if dense is not None:   # (one loop in memory order, as TensorIterator coalesces dense operands of one layout)
        kinds = np.lib.stride_tricks.as_strided(_loop_kinds(g.size, dtype, True), shape, dense)
    else:   # (the loop over the inner dims TensorIterator coalesces, once per outer index, in C order)
        dims = [d for d in range(len(shape)) if shape[d] != 1]
        out_strides = np.cumprod((1,) + tuple(shape[:0:-1]))[::-1]
        strides = [[x.strides[d] // x.itemsize for d in dims] for x in (g, y)] + [[out_strides[d] for d in dims]]
        sizes = [shape[d] for d in dims]
        line, d = (sizes[-1] if sizes else 1), len(sizes) - 1
        while d > 0 and all(st[d - 1] == st[d] * sizes[d] for st in strides):
            d -= 1
            line *= sizes[d]
        contiguous = bool(sizes) and all(st[-1] == 1 for st in strides)   # (rows of contiguous lines: vectorised)
        kinds = np.broadcast_to(_loop_kinds(line, dtype, contiguous), (g.size // max(line, 1), line)).reshape(shape)
    one, zero = dtype.type(1).real, dtype.type(0).real
    yr, yi, gr, gi = y.real, y.imag, g.real, g.imag
    out = np.empty(shape, dtype)
    with np.errstate(all="ignore"):
        for fused in (False, True):
            kind = "1" if fused else "p"
            if inner == "tanh":   # scalar_t{1} - b * b
                sr, si = _product(yr, yi, yr, yi, kind, kind)
                ur, ui = one - sr, zero - si
            else:                 # (scalar_t{1} - b) * b
                ur, ui = _product(one - yr, zero - yi, yr, yi, kind, kind)
            cr, ci = ur, -ui      # (conj)
            if not fused:
                re, im = _product(gr, gi, cr, ci, "p", "p")
                out.real, out.imag = np.where(kinds == _VEC, re, 0), np.where(kinds == _VEC, im, 0)
                continue
            for kind_, (re_kind, im_kind) in ((_PAIR, ("1", "2")), (_LAST, ("1", "1")), (_REST, ("p", "p"))):
                where = kinds == kind_
                if where.any():
                    re, im = _product(gr, gi, cr, ci, re_kind, im_kind)
                    out.real, out.imag = np.where(where, re, out.real), np.where(where, im, out.imag)
    return out


# ---- complex elementwise functions (c10/util/complex_math.h and the AVX512 Vectorized<complex> methods) ---------
# Each runs on every element the same way (the vector methods map the scalar function, or are exact lane-wise
# arithmetic), so they depend on the values alone. glibc's clog/csin/casin are NumPy's log/sin/arcsin here
# (equal on every value tried); the real functions are glibc's, through ctypes (_float_math).

def _complex(re, im, dtype):
    out = np.empty(np.shape(re), dtype)
    out.real, out.imag = re, im
    return out


@functools.cache
def _libm(name: str, dtype):
    """glibc's real function ``name`` for ``dtype``'s parts (``expm1`` or ``expm1f``)."""
    from . import _float_math  # (here: _float_math imports _dispatch, which imports us)
    if dtype == np.complex128:
        return _float_math.libm_double(name, getattr(np, name))
    return _float_math.libm_float(name + "f", getattr(np, name))


def expm1(z):
    """c10's complex expm1: (expm1(x)·cos(y) - 2·sin(y/2)², e^x·sin(y)), the real part's first product fused."""
    x, y, real = z.real, z.imag, z.real.dtype.type
    with np.errstate(all="ignore"):
        a = _libm("sin", z.dtype)(y / real(2))
        re = _fma(_libm("expm1", z.dtype)(x), _libm("cos", z.dtype)(y), -(real(2) * a * a))
        im = _libm("exp", z.dtype)(x) * _libm("sin", z.dtype)(y)
    return _complex(re, im, z.dtype)


_VML_BUFFER = 8192   # (bytes: the buffers of IMPLEMENT_COMPLEX_KERNEL's strided loop, 1024 complex64 or 512 complex128)


def _vml_plain(z):
    """Which elements of a complex VML kernel's input PyTorch computes without contractions, or None.

    IMPLEMENT_COMPLEX_KERNEL maps vml's vector function over a row whose input and output are both contiguous
    (compiled with fused multiply-adds: every element); any other row of TensorIterator's loop (strided,
    broadcast, and a 0-dim tensor's, whose strides are 0) is copied into buffers of 8 KiB and mapped there, and of
    each buffer the elements past its last whole AVX512 vector (8 complex64, 4 complex128) come out plain (read off
    by probing PyTorch 2.13's AVX512 build)."""
    from ._reduce import _dense, _dense_strides
    if z.ndim == 0:
        return np.True_
    if z.size == 0:
        return None
    shape, strides = z.shape, [s // z.itemsize for s in z.strides]
    if _dense(shape, strides):
        return None   # (the output takes the input's layout: both contiguous along the inner row)
    # The output is dense in the order reorder_dimensions gives the input's dims; the inner row is the
    # innermost dims the input's strides coalesce.
    out = _dense_strides(shape, strides)
    order = sorted((d for d in range(z.ndim) if shape[d] != 1), key=lambda d: out[d])
    inner, prev = shape[order[0]], order[0]
    for d in order[1:]:
        if strides[d] != strides[prev] * shape[prev]:
            break
        inner, prev = inner * shape[d], d
    if strides[order[0]] == 1:
        return None
    buffer, lanes = _VML_BUFFER // z.itemsize, 64 // z.itemsize
    pos = np.arange(inner)
    row = np.zeros(inner, bool)
    # (each thread's loop buffers from its own start; IMPLEMENT_COMPLEX_KERNEL's grain size is 2048)
    for start, end in _chunks(inner, z.size, 2048):
        at = pos[start:end] - start
        width = np.minimum(buffer, end - start - at // buffer * buffer)
        row[start:end] = at % buffer >= width - width % lanes
    flat = np.broadcast_to(row, (z.size // inner, inner)).reshape([shape[d] for d in reversed(order)])
    return flat.transpose(np.argsort(list(reversed(order)))).reshape(shape)


def log1p(z, kernel: bool = True):
    """c10's complex log1p (CPU): u = z + 1; z if u == 1, else log(u)·(z / (u - 1)) (log(u) when u - 1 == z).
    ``kernel``: rounded as the log1p kernel does on z's layout (see _vml_plain); else as code calling c10's log1p."""
    x, y, real = z.real, z.imag, z.real.dtype.type
    with np.errstate(all="ignore"):
        u = _complex(x + real(1), y, z.dtype)
        log_u = np.log(u)
        w = u.real - real(1)
        q = _div_scalar(x, y, w, y)
        re, im = _fma(log_u.real, q[0], -(log_u.imag * q[1])), _fma(log_u.real, q[1], log_u.imag * q[0])
        plain = _vml_plain(z) if kernel else None
        if plain is not None:   # (the division's numerators and the product not fused there; complex128's
            # numerators of the |u - 1| < |y| branch are, as read off PyTorch 2.13)
            q = _div_scalar(x, y, w, y, numerators_fused=False, second_fused=z.dtype == np.complex128)
            re = np.where(plain, log_u.real * q[0] - log_u.imag * q[1], re)
            im = np.where(plain, log_u.real * q[1] + log_u.imag * q[0], im)
        exact = (w == x) & (y == y)   # (u - 1 == z: the imaginary parts are y on both sides, unequal when nan)
        re, im = np.where(exact, log_u.real, re), np.where(exact, log_u.imag, im)
        one = (u.real == 1) & (y == 0)
        re, im = np.where(one, x, re), np.where(one, y, im)
    return _complex(re, im, z.dtype)


def log_base(z, base: float):
    """The vector log2/log10: log(z) with both parts divided by ln(base) rounded to the part type."""
    log = np.log(z)
    ln = z.real.dtype.type(np.log(base))
    return _complex(log.real / ln, log.imag / ln, z.dtype)


def acos(z):
    """complex128: the vector acos, π/2 - asin(z) lane-wise; complex64: glibc's cacosf (NumPy's arccos)."""
    if z.dtype != np.complex128:
        return np.arccos(z)
    a = np.arcsin(z)
    return _complex(np.pi / 2 - a.real, 0.0 - a.imag, z.dtype)


def sinc(z):
    """PyTorch's sinc kernel on complex: sin(πz) / (πz) with c10's division (numerators fused), 1 at 0."""
    real = z.real.dtype.type
    with np.errstate(all="ignore"):
        p = _complex(real(np.pi) * z.real, real(np.pi) * z.imag, z.dtype)
        s = np.sin(p)
        re, im = _div_scalar(s.real, s.imag, p.real, p.imag)
    zero = z == 0
    return _complex(np.where(zero, 1, re), np.where(zero, 0, im), z.dtype)


def unary(kernel, other):
    """``kernel`` for complex arrays, ``other`` for the rest."""
    return lambda x, *args: kernel(x, *args) if x.dtype.kind == "c" else other(x, *args)


def sigmoid(z):
    """PyTorch's complex sigmoid, 1 / (1 + exp(-z)), with c10's division (every element, vector blocks too)."""
    real = z.real.dtype.type
    with np.errstate(all="ignore"):
        d = np.exp(-z)
        re, im = _div_scalar(real(1), real(0), d.real + real(1), d.imag)
    return _complex(re, im, z.dtype)


# ---- prod: PyTorch's reduction kernel (binary_kernel_reduce_vec, aten/src/ATen/native/cpu/Reduce.h) ----------
# Its reduction kernels run with 256-bit vectors here (probed: the block of 4 vectors is 16 complex64, 8 complex128).
_REDUCE_LANES = {np.dtype(np.complex64): 4, np.dtype(np.complex128): 2}


def _times(a, b, fused: bool):
    """a·b as c10::complex's scalar operator* (fused multiply-adds) or the vector one (plain)."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape), np.result_type(a, b))
    if fused:
        out.real, out.imag = _fma(a.real, b.real, -(a.imag * b.imag)), _fma(a.real, b.imag, a.imag * b.real)
    else:
        out.real, out.imag = a.real * b.real - a.imag * b.imag, a.real * b.imag + a.imag * b.real
    return out


def prod_rows(rows, vectorized: bool = True, start=None):
    """The product of each row of a 2-D complex array, as PyTorch's inner reduction: blocks of 4 vectors multiplied
    lane by lane (plain), the 4 vectors then combined as (v0·v1)·(v2·v3), the lanes in order and the rest of the row
    one by one, from 1 (or ``start``), with the scalar product (every element so when not ``vectorized``: a strided
    row)."""
    lanes = _REDUCE_LANES[rows.dtype]
    block = 4 * lanes
    count = rows.shape[1] // block if vectorized else 0
    with np.errstate(all="ignore"):
        out = np.ones(rows.shape[0], rows.dtype) if start is None else start
        if count:
            acc = rows[:, :block]
            for i in range(1, count):
                acc = _times(acc, rows[:, i * block:(i + 1) * block], False)
            v = [acc[:, j * lanes:(j + 1) * lanes] for j in range(4)]
            v = _times(_times(v[0], v[1], False), _times(v[2], v[3], False), False)
            total = v[:, 0]
            for j in range(1, lanes):
                total = _times(total, v[:, j], True)
            out = _times(out, total, True)
        for i in range(count * block, rows.shape[1]):
            out = _times(out, rows[:, i], True)
    return out


def prod_columns(cols):
    """The products down axis 1 of a 3-D complex array (its last axis contiguous), as PyTorch's outer reduction:
    blocks of 4 vectors of columns multiplied row by row (plain), the rest of the columns one by one (the scalar
    product), from 1."""
    block = 4 * _REDUCE_LANES[cols.dtype]
    cut = cols.shape[2] - cols.shape[2] % block
    with np.errstate(all="ignore"):
        out = np.ones((cols.shape[0], cols.shape[2]), cols.dtype)
        if cut:
            acc = cols[:, 0, :cut]
            for i in range(1, cols.shape[1]):
                acc = _times(acc, cols[:, i, :cut], False)
            out[:, :cut] = _times(acc, out[:, :cut], False)
        for i in range(cols.shape[1]):
            out[:, cut:] = _times(out[:, cut:], cols[:, i, cut:], True)
    return out


@functools.cache
def _cpow(dtype):
    """The C library's cpowf / cpow for ``dtype``'s parts, on one pair of Python complex numbers, or None."""
    import ctypes

    from ._float_math import _LIBM  # (here: _float_math imports _dispatch, which imports us)
    if _LIBM is None:
        return None
    part = ctypes.c_float if dtype == np.complex64 else ctypes.c_double
    # (a struct of two floats or two doubles travels as the C complex type does, in SSE registers, on x86-64)
    pair = type("pair", (ctypes.Structure,), {"_fields_": [("re", part), ("im", part)]})
    fn = _LIBM.cpowf if dtype == np.complex64 else _LIBM.cpow
    fn.restype, fn.argtypes = pair, [pair, pair]

    def call(x, y):
        r = fn(pair(x.real, x.imag), pair(y.real, y.imag))
        return complex(r.re, r.im)
    return call


def logspace(start, end, steps: int, base: float, dtype) -> np.ndarray:
    """PyTorch's complex logspace kernel (steps > 1): the exponents start + step·i in the dtype (end - step·(steps-1-i)
    in the second half), step = (end - start) / (steps - 1) by c10's division, and base**exponent by the C library's
    cpowf / cpow of complex(base) (NumPy's power rounds otherwise)."""
    dtype = np.dtype(dtype)
    part = np.float32 if dtype == np.complex64 else np.float64
    s, e = np.complex128(start).astype(dtype), np.complex128(end).astype(dtype)
    d = e - s
    step_re, step_im = _div_scalar(d.real, d.imag, part(steps - 1), part(0))
    i = np.arange(steps)
    first = i < steps // 2
    k = np.where(first, i, steps - 1 - i).astype(part)
    with np.errstate(all="ignore"):
        m_re, m_im = step_re * k - step_im * part(0), step_re * part(0) + step_im * k   # (step · complex(k, 0))
        exponents = _complex(np.where(first, s.real + m_re, e.real - m_re),
                             np.where(first, s.imag + m_im, e.imag - m_im), dtype)
        cpow = _cpow(dtype)
        if cpow is None or steps > 1 << 17:   # (beyond: NumPy's power stands in, as for _float_math's functions)
            return np.power(dtype.type(base), exponents)
        x = complex(dtype.type(base))
        return np.array([cpow(x, y) for y in exponents.tolist()], dtype)
