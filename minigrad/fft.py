"""torch.fft: discrete Fourier transforms, built as PyTorch builds them (aten/src/ATen/native/SpectralOps.cpp).

Every transform is one of three table ops (``derivatives.py``, section "Fourier transforms"):
``_fft_c2c`` (complex to complex), ``_fft_r2c`` (real to complex, maybe one-sided) and ``_fft_c2r`` (a one-sided
spectrum back to a real signal); around them the same small steps as PyTorch's, so the graph shows the same
nodes: a cast to complex (ToCopyBackward0), slicing and zero-padding to the requested size (SliceBackward0,
ConstantPadNdBackward0) and conjugates (ConjBackward0) where a transform runs in the other direction.
"""

import math as _math

import numpy as _np

from . import _arg_errors, _conj, _dtypes, _ops
from . import derivatives as _D
from ._tensor import _LEGACY_NAMES, Tensor
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast

__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]


# ---- arguments --------------------------------------------------------------------------------------

_REQ = _arg_errors.REQUIRED
_ONE_DIM = {"input": _REQ, "n": None, "dim": -1, "norm": None}


def _parse(name: str, args: tuple, kwargs: dict, params: dict) -> dict:
    """The arguments of ``torch.fft.<name>(*args, **kwargs)``, with the TypeErrors of PyTorch's parser.

    ``dim`` is one int for the one-dimensional transforms (``params is _ONE_DIM``), else a list of ints.
    """
    fname = "fft_" + name
    bound = _arg_errors.bind(fname, args, kwargs, params)
    out = {}
    for arg, (value, position) in bound.items():
        if arg == "input":
            if not isinstance(value, Tensor):
                raise _arg_errors.must_be(fname, arg, "Tensor", value, position)
        elif arg == "norm":
            if value is not None and not isinstance(value, str):
                raise _arg_errors.must_be(fname, arg, "str", value, position)
        elif arg == "s" or (arg == "dim" and params is not _ONE_DIM):  # (one int is accepted for a list)
            if value is not None:
                value = _arg_errors.int_list(fname, arg, value, position, one_int=True)
        elif value is not None or arg == "dim":  # n (or None), and the one int dim
            if not _arg_errors._is_int(value):
                raise _arg_errors.must_be(fname, arg, "int", value, position)
            value = int(value)
        out[arg] = value
    return out


def _norm_mode(norm: str | None, forward: bool) -> int:
    """PyTorch's fft_norm_mode for NumPy's ``norm`` names: 0 none, 1 by 1/√n, 2 by 1/n.

    "backward" (the default) scales the inverse transforms by 1/n, "forward" the forward ones, "ortho" both by 1/√n.
    """
    if norm is None or norm == "backward":
        return 0 if forward else 2
    if norm == "forward":
        return 2 if forward else 0
    if norm == "ortho":
        return 1
    raise RuntimeError(f'Invalid normalization mode: "{norm}"')


def _promote(x: Tensor, require_complex: bool) -> Tensor:
    """Integers and bools to the default float dtype, then (if asked) to complex; half precision is refused."""
    dtype = x.dtype
    if dtype.is_complex:
        return x
    if not dtype.is_floating_point:
        dtype = _dtypes.get_default_dtype()
    if dtype not in (_dtypes.float32, _dtypes.float64):
        raise RuntimeError(f"Unsupported dtype {_LEGACY_NAMES[dtype.name]}")
    if require_complex:
        dtype = dtype.to_complex()
    return x if dtype is x.dtype else x.to(dtype)


def _wrap(dim: int, ndim: int) -> int:
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    return _ops._wrap_dim(dim, ndim)


def _resize(x: Tensor, dims, sizes) -> Tensor:
    """x with ``x.size(dims[i]) == sizes[i]``: sliced from 0 where longer, zero-padded at the end where shorter."""
    pad = [0] * (2 * x.dim())
    for d, n in zip(dims, sizes):
        size = x.shape[d]
        if size < n:
            pad[len(pad) - 2 * d - 1] = n - size   # constant_pad_nd's order: last dim first, (before, after)
        elif size > n:
            x = _D.slice(x, dim=d, start=0, end=n, step=1)
    return _D.constant_pad_nd(x, pad=tuple(pad), value=0.0) if any(pad) else x


def _real_only(name: str, x: Tensor, message: str = "expects a real input tensor, but got") -> None:
    if x.dtype.is_complex:
        raise RuntimeError(f"{name} {message} {_LEGACY_NAMES[x.dtype.name]}")


# ---- the one-dimensional transforms -----------------------------------------------------------------

def _c2c(x: Tensor, n, dim: int, norm, forward: bool) -> Tensor:
    d = _wrap(dim, x.dim())
    n = x.shape[d] if n is None else n
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    x = _resize(x, (d,), (n,))
    return _D.fft_c2c(x, dim=(d,), normalization=_norm_mode(norm, forward), forward=forward)


def _r2c(name: str, x: Tensor, n, dim: int, norm, forward: bool, onesided: bool) -> Tensor:
    _real_only(name, x)
    x = _promote(x, require_complex=False)
    d = _wrap(dim, x.dim())
    n = x.shape[d] if n is None else n
    if n < 1:
        raise RuntimeError(f"Invalid number of data points ({n}) specified")
    x = _resize(x, (d,), (n,))
    out = _D.fft_r2c(x, dim=(d,), normalization=_norm_mode(norm, forward), onesided=onesided)
    if forward:
        return out
    # the inverse transform of a real signal: the conjugate of the forward one (with the inverse's scaling);
    # PyTorch's conj is a lazy conjugate view of it (is_conj() True; it shares the version the kernel wrote)
    return _conj.conj_view(out)


def _c2r(x: Tensor, n, dim: int, norm, forward: bool) -> Tensor:
    x = _promote(x, require_complex=True)
    d = _wrap(dim, x.dim())
    last_dim_size = 2 * (x.shape[d] - 1) if n is None else n
    if last_dim_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_dim_size}) specified")
    if n is not None:
        x = _resize(x, (d,), (n // 2 + 1,))
    normalization = _norm_mode(norm, forward)
    if forward:  # hfft: c2r runs the inverse direction, so transform the conjugate
        inference = x._is_inference is True
        x = _D.conj(x)
        if inference:   # (PyTorch's conj is a view, and a view of an inference tensor is one: see _dispatch)
            x._is_inference = True
    return _D.fft_c2r(x, dim=(d,), normalization=normalization, last_dim_size=last_dim_size)


def fft(*args, **kwargs) -> Tensor:
    """fft(input, n=None, dim=-1, norm=None): the discrete Fourier transform along ``dim``."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_fft", fft, *args, **kwargs)
    a = _parse("fft", args, kwargs, _ONE_DIM)
    x = a["input"]
    if x.dtype.is_complex:
        return _c2c(x, a["n"], a["dim"], a["norm"], forward=True)
    return _r2c("fft", x, a["n"], a["dim"], a["norm"], forward=True, onesided=False)


def ifft(*args, **kwargs) -> Tensor:
    """ifft(input, n=None, dim=-1, norm=None): the inverse discrete Fourier transform along ``dim``."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_ifft", ifft, *args, **kwargs)
    a = _parse("ifft", args, kwargs, _ONE_DIM)
    x = a["input"]
    if x.dtype.is_complex:
        return _c2c(x, a["n"], a["dim"], a["norm"], forward=False)
    return _r2c("ifft", x, a["n"], a["dim"], a["norm"], forward=False, onesided=False)


def rfft(*args, **kwargs) -> Tensor:
    """rfft(input, n=None, dim=-1, norm=None): the transform of a real signal, bins 0 .. n//2 only."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_rfft", rfft, *args, **kwargs)
    a = _parse("rfft", args, kwargs, _ONE_DIM)
    return _r2c("rfft", a["input"], a["n"], a["dim"], a["norm"], forward=True, onesided=True)


def irfft(*args, **kwargs) -> Tensor:
    """irfft(input, n=None, dim=-1, norm=None): the real signal of length n (default 2·(size - 1)) whose rfft
    is ``input``."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_irfft", irfft, *args, **kwargs)
    a = _parse("irfft", args, kwargs, _ONE_DIM)
    return _c2r(a["input"], a["n"], a["dim"], a["norm"], forward=False)


def hfft(*args, **kwargs) -> Tensor:
    """hfft(input, n=None, dim=-1, norm=None): the (real) transform of a Hermitian-symmetric signal given by
    its first half."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_hfft", hfft, *args, **kwargs)
    a = _parse("hfft", args, kwargs, _ONE_DIM)
    return _c2r(a["input"], a["n"], a["dim"], a["norm"], forward=True)


def ihfft(*args, **kwargs) -> Tensor:
    """ihfft(input, n=None, dim=-1, norm=None): the inverse of hfft, bins 0 .. n//2 of ifft of a real signal."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_ihfft", ihfft, *args, **kwargs)
    a = _parse("ihfft", args, kwargs, _ONE_DIM)
    return _r2c("ihfft", a["input"], a["n"], a["dim"], a["norm"], forward=False, onesided=True)


# ---- the n-dimensional transforms -------------------------------------------------------------------

def _shape_and_dims(x: Tensor, s, dim) -> tuple:
    """(the signal sizes, the wrapped dims) from ``s`` and ``dim`` with PyTorch's defaults and checks."""
    ndim = x.dim()
    if dim is not None:
        dims = [_wrap(d, ndim) for d in dim]
        if len(set(dims)) != len(dims):
            raise RuntimeError("FFT dims must be unique")
    if s is not None:
        if dim is not None and len(dim) != len(s):
            raise RuntimeError("When given, dim and shape arguments must have the same length")
        if len(s) > ndim:
            raise RuntimeError(f"Got shape with {len(s)} values but input tensor only has {ndim} dimensions.")
        if dim is None:  # the last len(s) dims
            dims = list(range(ndim - len(s), ndim))
        sizes = [x.shape[d] if n == -1 else n for d, n in zip(dims, s)]
    elif dim is None:
        dims, sizes = list(range(ndim)), list(x.shape)
    else:
        sizes = [x.shape[d] for d in dims]
    for n in sizes:
        if n <= 0:
            raise RuntimeError(f"Invalid number of data points ({n}) specified")
    return sizes, dims


def _c2r_shape_and_dims(name: str, x: Tensor, s, dim) -> tuple:
    """As _shape_and_dims, plus the output size of the last dim (its input size becomes that // 2 + 1)."""
    sizes, dims = _shape_and_dims(x, s, dim)
    if not sizes:
        raise RuntimeError(f"{name} must transform at least one axis")
    last_dim_size = 2 * (x.shape[dims[-1]] - 1) if s is None or s[-1] == -1 else sizes[-1]
    if last_dim_size < 1:
        raise RuntimeError(f"Invalid number of data points ({last_dim_size}) specified")
    sizes[-1] = last_dim_size // 2 + 1
    return sizes, dims, last_dim_size


def _fftn_c2c(name: str, args, kwargs, params, forward: bool) -> Tensor:
    a = _parse(name, args, kwargs, params)
    x = a["input"]
    sizes, dims = _shape_and_dims(x, a["s"], a["dim"])
    x = _resize(_promote(x, require_complex=True), dims, sizes)
    return _D.fft_c2c(x, dim=tuple(dims), normalization=_norm_mode(a["norm"], forward), forward=forward)


def _rfftn(name: str, args, kwargs, params) -> Tensor:
    a = _parse(name, args, kwargs, params)
    x = a["input"]
    _real_only("rfftn", x, "expects a real-valued input tensor, but got")
    sizes, dims = _shape_and_dims(x, a["s"], a["dim"])
    if not sizes:
        raise RuntimeError("rfftn must transform at least one axis")
    x = _resize(_promote(x, require_complex=False), dims, sizes)
    return _D.fft_r2c(x, dim=tuple(dims), normalization=_norm_mode(a["norm"], True), onesided=True)


def _irfftn(name: str, args, kwargs, params) -> Tensor:
    a = _parse(name, args, kwargs, params)
    sizes, dims, last_dim_size = _c2r_shape_and_dims("irfftn", a["input"], a["s"], a["dim"])
    x = _resize(_promote(a["input"], require_complex=True), dims, sizes)
    return _D.fft_c2r(x, dim=tuple(dims), normalization=_norm_mode(a["norm"], False), last_dim_size=last_dim_size)


def _hfftn(name: str, args, kwargs, params) -> Tensor:
    a = _parse(name, args, kwargs, params)
    sizes, dims, last_dim_size = _c2r_shape_and_dims("hfftn", a["input"], a["s"], a["dim"])
    x = _resize(_promote(a["input"], require_complex=True), dims, sizes)
    normalization = _norm_mode(a["norm"], True)
    if len(dims) > 1:  # the full dims first, then the Hermitian one (conjugated: c2r runs the other way)
        x = _D.fft_c2c(x, dim=tuple(dims[:-1]), normalization=normalization, forward=True)
    return _D.fft_c2r(_D.conj(x), dim=(dims[-1],), normalization=normalization, last_dim_size=last_dim_size)


def _ihfftn(name: str, args, kwargs, params) -> Tensor:
    a = _parse(name, args, kwargs, params)
    x = a["input"]
    sizes, dims = _shape_and_dims(x, a["s"], a["dim"])
    if not sizes:
        raise RuntimeError("ihfftn must transform at least one axis")
    x = _resize(_promote(x, require_complex=False), dims, sizes)
    normalization = _norm_mode(a["norm"], False)
    if x.dtype.is_complex:  # (PyTorch's _fft_r2c refuses it only here)
        raise RuntimeError(f"Only supports floating-point dtypes, but found: {_LEGACY_NAMES[x.dtype.name]}")
    out = _D.fft_r2c(x, dim=(dims[-1],), normalization=normalization, onesided=True)
    if len(dims) == 1:
        return _conj.conj_view(out)   # (a lazy conjugate view, as PyTorch's: is_conj() True)
    out = _D.conj_physical(out)
    return _D.fft_c2c(out, dim=tuple(dims[:-1]), normalization=normalization, forward=False)


_N_DIMS = {"input": _REQ, "s": None, "dim": None, "norm": None}
_TWO_DIMS = {"input": _REQ, "s": None, "dim": (-2, -1), "norm": None}


def fftn(*args, **kwargs) -> Tensor:
    """fftn(input, s=None, dim=None, norm=None): the n-dimensional transform over ``dim`` (all dims by default)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_fftn", fftn, *args, **kwargs)
    return _fftn_c2c("fftn", args, kwargs, _N_DIMS, forward=True)


def ifftn(*args, **kwargs) -> Tensor:
    """ifftn(input, s=None, dim=None, norm=None): the n-dimensional inverse transform."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_ifftn", ifftn, *args, **kwargs)
    return _fftn_c2c("ifftn", args, kwargs, _N_DIMS, forward=False)


def rfftn(*args, **kwargs) -> Tensor:
    """rfftn(input, s=None, dim=None, norm=None): fftn of a real signal, the last dim one-sided."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_rfftn", rfftn, *args, **kwargs)
    return _rfftn("rfftn", args, kwargs, _N_DIMS)


def irfftn(*args, **kwargs) -> Tensor:
    """irfftn(input, s=None, dim=None, norm=None): the inverse of rfftn (a real signal)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_irfftn", irfftn, *args, **kwargs)
    return _irfftn("irfftn", args, kwargs, _N_DIMS)


def hfftn(*args, **kwargs) -> Tensor:
    """hfftn(input, s=None, dim=None, norm=None): the n-dimensional hfft (a real result)."""
    return _hfftn("hfftn", args, kwargs, _N_DIMS)


def ihfftn(*args, **kwargs) -> Tensor:
    """ihfftn(input, s=None, dim=None, norm=None): the inverse of hfftn, the last dim one-sided."""
    return _ihfftn("ihfftn", args, kwargs, _N_DIMS)


def fft2(*args, **kwargs) -> Tensor:
    """fft2(input, s=None, dim=(-2, -1), norm=None): fftn over two dims."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_fft2", fft2, *args, **kwargs)
    return _fftn_c2c("fft2", args, kwargs, _TWO_DIMS, forward=True)


def ifft2(*args, **kwargs) -> Tensor:
    """ifft2(input, s=None, dim=(-2, -1), norm=None): ifftn over two dims."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_ifft2", ifft2, *args, **kwargs)
    return _fftn_c2c("ifft2", args, kwargs, _TWO_DIMS, forward=False)


def rfft2(*args, **kwargs) -> Tensor:
    """rfft2(input, s=None, dim=(-2, -1), norm=None): rfftn over two dims."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_rfft2", rfft2, *args, **kwargs)
    return _rfftn("rfft2", args, kwargs, _TWO_DIMS)


def irfft2(*args, **kwargs) -> Tensor:
    """irfft2(input, s=None, dim=(-2, -1), norm=None): irfftn over two dims."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("fft_irfft2", irfft2, *args, **kwargs)
    return _irfftn("irfft2", args, kwargs, _TWO_DIMS)


def hfft2(*args, **kwargs) -> Tensor:
    """hfft2(input, s=None, dim=(-2, -1), norm=None): hfftn over two dims."""
    return _hfftn("hfft2", args, kwargs, _TWO_DIMS)


def ihfft2(*args, **kwargs) -> Tensor:
    """ihfft2(input, s=None, dim=(-2, -1), norm=None): ihfftn over two dims."""
    return _ihfftn("ihfft2", args, kwargs, _TWO_DIMS)


# ---- sample frequencies and shifts ------------------------------------------------------------------

def _frequencies(name: str, k: _np.ndarray, n: int, d: float, dtype, requires_grad: bool) -> Tensor:
    dtype = _dtypes.get_default_dtype() if dtype is None else dtype
    if dtype.is_complex:  # (PyTorch fills them with arange, which has no complex kernel)
        raise NotImplementedError(f"\"arange_cpu\" not implemented for '{_LEGACY_NAMES[dtype.name]}'")
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} requires a floating point or complex dtype")
    # k · (1/(n·d)) in the dtype, as PyTorch's out.mul_(1.0 / (n * d))
    scale = 1.0 / (n * d) if n * d != 0 else _math.copysign(_math.inf, d)
    with _np.errstate(invalid="ignore", over="ignore"):   # (0 · inf is nan, as in PyTorch)
        out = Tensor._make(k.astype(dtype.np) * dtype.np.type(scale))
    return out.requires_grad_(True) if requires_grad else out


def _n_and_d(name: str, args: tuple, kwargs: dict) -> tuple:
    """(n, d) of ``fftfreq(n, d=1.0, *, dtype, layout, device, requires_grad)``, with PyTorch's TypeErrors."""
    fname = "fft_" + name
    kwargs = {k: v for k, v in kwargs.items() if k not in ("dtype", "layout", "device", "requires_grad")}
    bound = _arg_errors.bind(fname, args, kwargs, {"n": _REQ, "d": 1.0})
    (n, n_at), (d, d_at) = bound["n"], bound["d"]
    if not _arg_errors._is_int(n):
        raise _arg_errors.must_be(fname, "n", "int", n, n_at)
    if isinstance(d, Tensor):
        d = d.item()
    if not isinstance(d, (int, float)) or isinstance(d, bool):
        raise _arg_errors.must_be(fname, "d", "float", d, d_at)
    return int(n), float(d)


def fftfreq(*args, dtype=None, layout=None, device=None, requires_grad: bool = False, **kwargs) -> Tensor:
    """fftfreq(n, d=1.0): the sample frequencies of fft's bins, [0, 1, ..., (n-1)//2, -(n//2), ..., -1] / (n·d)."""
    n, d = _n_and_d("fftfreq", args, kwargs)
    if n < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {n}: [{n}]")
    k = _np.concatenate([_np.arange((n + 1) // 2), _np.arange(-(n // 2), 0)])
    return _frequencies("fftfreq", k, n, d, dtype, requires_grad)


def rfftfreq(*args, dtype=None, layout=None, device=None, requires_grad: bool = False, **kwargs) -> Tensor:
    """rfftfreq(n, d=1.0): the sample frequencies of rfft's bins, [0, 1, ..., n//2] / (n·d)."""
    n, d = _n_and_d("rfftfreq", args, kwargs)
    count = int(n / 2) + 1  # (C++'s integer division: toward zero, so n = -1 gives one bin)
    if count < 0:
        raise RuntimeError(f"Trying to create tensor with negative dimension {count}: [{count}]")
    return _frequencies("rfftfreq", _np.arange(count), n, d, dtype, requires_grad)


def _shift(name: str, args, kwargs, inverse: bool) -> Tensor:
    a = _parse(name, args, kwargs, {"input": _REQ, "dim": None})
    x = a["input"]
    dims = range(x.dim()) if a["dim"] is None else [_wrap(d, x.dim()) for d in a["dim"]]
    shifts = tuple((x.shape[d] + inverse) // 2 for d in dims)
    if not shifts:
        raise RuntimeError("`shifts` required")
    return _D.roll(x, shifts=shifts, dims=tuple(dims))


def fftshift(*args, **kwargs) -> Tensor:
    """fftshift(input, dim=None): roll the zero frequency to the middle (by size//2 along each dim)."""
    return _shift("fftshift", args, kwargs, inverse=False)


def ifftshift(*args, **kwargs) -> Tensor:
    """ifftshift(input, dim=None): undo fftshift (roll by (size+1)//2 along each dim)."""
    return _shift("ifftshift", args, kwargs, inverse=True)


# PyTorch's names for the functions (``torch.fft.X.__name__`` is "fft_X": see _c_names.py)
from ._c_names import rename_namespace as _rename_namespace  # noqa: E402

_rename_namespace(globals(), "fft")
