"""PyTorch's CPU complex multiply and divide, bit for bit.

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


def _chunks(inner, size):
    """The (start, end) pieces of a one-row loop of ``inner`` elements that at::parallel_for gives each thread."""
    from ._reduce import THREADS  # (PyTorch's intra-op thread count, as set_num_threads sets it)

    if inner != size or size < _GRAIN_SIZE or THREADS[0] == 1:
        return [(0, inner)]   # (several rows split between threads: not modelled, each row as one loop)
    n = min(THREADS[0], -(-size // _GRAIN_SIZE))
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


def _div_scalar(a, b, c, d, numerators_fused=True):
    """c10::complex's operator/ (Smith's algorithm, as NumPy's) with GCC's contractions."""
    num = _fma if numerators_fused else (lambda x, y, z: x * y + z)
    with np.errstate(all="ignore"):
        first = np.abs(c) >= np.abs(d)
        zero = first & (c == 0) & (d == 0)
        rat1 = d / c
        scl1 = 1 / _fma(d, rat1, c)
        re1 = num(b, rat1, a) * scl1
        im1 = num(-a, rat1, b) * scl1
        rat2 = c / d
        scl2 = 1 / _fma(c, rat2, d)
        re2 = num(a, rat2, b) * scl2
        im2 = num(b, rat2, -a) * scl2
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
