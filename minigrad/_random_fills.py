"""In-place random samplers: ``x.uniform_()``, ``normal_``, ``bernoulli_``, ``exponential_``, ``geometric_``,
``log_normal_``, ``cauchy_`` and ``random_``.

Each checks its arguments as PyTorch does (same order, same messages), draws the values from minigrad's
generator with PyTorch's own samplers (``_random.py``: the same values as PyTorch, drawn in the tensor's
memory order as PyTorch's kernels do) and writes them through a table op (``UniformBackward0`` ...), so
the tensor's version goes up and autograd records the overwrite: no gradient flows back to the old values.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _meta, _random, _vmap_batched
from . import derivatives as D
from ._creation import _check_normal
from ._dispatch import _check_inplace
from ._ops import _legacy, _meta_name
from ._tensor import Tensor, _user_stacklevel
from .autograd import grad_mode


def _check_write(input: Tensor, name: str) -> None:
    """The checks before a fill draws: torch.func's refusal to write a captured tensor (``name``: PyTorch's overload),
    then autograd's of a leaf, then vmap's randomness flag."""
    _dispatch.check_captured_write(input, name)
    _check_inplace(input, False)
    _check_vmap_randomness(input)


def _check_vmap_randomness(input: Tensor) -> None:
    """Inside vmap: PyTorch's refusals of a fill under its randomness flag, before anything is drawn."""
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((), inplace_self=input)


def _write(op, input: Tensor, values: np.ndarray, *tensors) -> Tensor:
    """Write ``values`` (input's shape) into input through ``op``: a version bump and, if watched, a node."""
    return op(input, *tensors, out=input, values=np.asarray(values).astype(input._data.dtype, copy=False))


def _placed(input: Tensor, values: np.ndarray) -> np.ndarray:
    """Values drawn one per element (a complex element: its real part, then its imaginary part), placed in
    input's memory order, as PyTorch's kernels (and view_as_real for complex tensors) fill it."""
    if input.is_complex():
        values = values.view(input._data.dtype)
    return _random.fill_order(_random.to_dtype(values, input._data.dtype), input._data)


def _parts(input: Tensor) -> tuple:
    """(how many real numbers, their NumPy dtype): a complex tensor is sampled through view_as_real."""
    if input.is_complex():
        return 2 * input.numel(), np.dtype(input.dtype.to_real().np)   # (complex32's parts: float16)
    return input.numel(), input._data.dtype


def _real(x) -> float:
    """A sampler's number argument as the C++ double PyTorch's binding makes of it (a 0-dim tensor too); a
    TypeError for anything else, before any draw (the method's wrapper then reports PyTorch's message)."""
    if isinstance(x, (str, bytes, complex)) or x is None:
        raise TypeError(f"expected a real number, got {type(x).__name__}")
    return float(x)


def _fmt(x) -> str:
    """A number as PyTorch's C++ messages print a double (6 significant digits)."""
    return f"{float(x):g}"


# =============================================================================================
# Continuous distributions
# =============================================================================================

@_meta.draws_nothing
def uniform_(input: Tensor, a: float = 0.0, b: float = 1.0, *, generator=None, **kwargs) -> Tensor:
    """Fill with values drawn from U(a, b) (PyTorch's keywords ``from``/``to`` work too)."""
    a, b = kwargs.pop("from", a), kwargs.pop("to", b)
    if kwargs:
        raise TypeError(f"uniform_() got an unexpected keyword argument '{next(iter(kwargs))}'")
    _random.check_generator(generator, "uniform_")
    _check_write(input, "aten::uniform_")
    _check_uniform_bounds(float(a), float(b), input.dtype)
    n, np_dtype = _parts(input)
    return _write(D.uniform_, input, _placed(input, _random.uniform(_random.gen(generator), n, np_dtype, a, b)))


def _check_uniform_bounds(a: float, b: float, dt) -> None:
    """PyTorch's checks of uniform_: a floating dtype (complex: its parts'), a and b finite in it, a <= b."""
    if dt.is_complex:
        dt = _dtypes.float32 if dt is _dtypes.complex64 else _dtypes.float64
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"check_uniform_bounds\" not implemented for '{_legacy(dt)}'")
    limit = float(_dtypes.finfo(dt).max)
    for name, v in (("from", a), ("to", b)):
        if not -limit <= v <= limit:
            raise RuntimeError(f"{name} is out of bounds for {_meta_name(dt)}")
    if a > b:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found from={_fmt(a)} > to={_fmt(b)}")
    if b - a > limit:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<{_legacy(dt)}>::max(), but found "
                           f"to={_fmt(b)} and from={_fmt(a)} which result in to-from to exceed the limit")


@_meta.draws_nothing
def normal_(input: Tensor, mean: float = 0.0, std: float = 1.0, *, generator=None) -> Tensor:
    """Fill with values drawn from N(mean, std²) (complex: each part N(mean, std²/2))."""
    _random.check_generator(generator, "normal_")
    mean, std = _real(mean), _real(std)
    _check_write(input, "aten::normal_")
    _check_normal(std, input.dtype)
    scale = std / math.sqrt(2) if input.is_complex() else std
    n, np_dtype = _parts(input)
    values = _random.normal(_random.gen(generator), n, np_dtype, mean, scale, input.is_contiguous())
    return _write(D.normal_, input, _placed(input, values))


@_meta.draws_nothing
def exponential_(input: Tensor, lambd: float = 1.0, *, generator=None) -> Tensor:
    """Fill with values drawn from the exponential distribution of rate ``lambd``."""
    _random.check_generator(generator, "exponential_")
    _check_write(input, "aten::exponential_")
    if not lambd > 0.0:
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={_fmt(lambd)}")
    if input.numel() == 0:
        return input
    if not input.is_floating_point():
        raise RuntimeError("Exponential distribution is a continuous probability distribution. dtype must be a "
                           f"floating point but you specified {_legacy(input.dtype)}")
    return _write(D.exponential_, input, _placed(input, _random.exponential(_random.gen(generator), input.numel(),
                                                                             lambd)))


@_meta.draws_nothing
def log_normal_(input: Tensor, mean: float = 1.0, std: float = 2.0, *, generator=None) -> Tensor:
    """Fill with values exp(N(mean, std²))."""
    _random.check_generator(generator, "log_normal_")
    mean, std = _real(mean), _real(std)
    _check_write(input, "aten::log_normal_")
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={_fmt(std)}")
    if input.numel() == 0:
        return input
    if not input.is_floating_point():
        raise NotImplementedError(f"\"log_normal_cpu\" not implemented for '{_legacy(input.dtype)}'")
    values = _random.log_normal(_random.gen(generator), input.numel(), mean, std)
    return _write(D.log_normal_, input, _placed(input, values))


@_meta.draws_nothing
def cauchy_(input: Tensor, median: float = 0.0, sigma: float = 1.0, *, generator=None) -> Tensor:
    """Fill with values drawn from the Cauchy distribution centred on ``median`` with scale ``sigma``."""
    _random.check_generator(generator, "cauchy_")
    median, sigma = _real(median), _real(sigma)
    _check_write(input, "aten::cauchy_")
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={_fmt(sigma)}")
    if not input.is_floating_point():
        raise RuntimeError("Cauchy distribution is a continuous probability distribution. dtype must be a floating "
                           f"point but you specified {_meta_name(input.dtype)}")
    if input.numel() == 0:
        return input
    values = _random.cauchy(_random.gen(generator), input.numel(), median, sigma)
    return _write(D.cauchy_, input, _placed(input, values))


# =============================================================================================
# Discrete distributions
# =============================================================================================

_NO_P = object()  # (no p given: bernoulli_'s 0.5, geometric_'s error)
_BERNOULLI_OVERLOADS = ("(Tensor p, *, torch.Generator generator = None)",
                        "(float p = 0.5, *, torch.Generator generator = None)")


@_meta.draws_nothing
def bernoulli_(input: Tensor, p=_NO_P, *, generator=None) -> Tensor:
    """Fill with 1 (probability p, a number or a tensor broadcast to input) or 0 (p = 0.5 by default)."""
    if generator is not None and not isinstance(generator, _random.Generator):
        raise _arg_errors.invalid_combination("bernoulli_", () if p is _NO_P else (p,), {"generator": generator},
                                              _BERNOULLI_OVERLOADS)
    p = 0.5 if p is _NO_P else p
    if isinstance(p, Tensor):
        _dispatch.check_captured_write(input, "aten::bernoulli_.Tensor")   # (not bernoulli(out=)'s: no in-place op)
        return _bernoulli_tensor(input, p, generator)
    if not isinstance(p, (int, float)):
        raise _arg_errors.invalid_combination("bernoulli_", (p,), {}, _BERNOULLI_OVERLOADS)
    _check_write(input, "aten::bernoulli_.float")
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={_fmt(p)}")
    if input.numel() == 0:
        return input
    if input.is_complex():
        raise NotImplementedError(f"\"bernoulli_scalar_cpu_\" not implemented for '{_legacy(input.dtype)}'")
    values = _random.bernoulli_scalar(_random.gen(generator), input.numel(), p)
    return _write(D.bernoulli_float, input, _placed(input, values))


def _bernoulli_tensor(input: Tensor, p: Tensor, generator) -> Tensor:
    _check_inplace(input, False)
    _check_vmap_randomness(input)
    if input.numel() == 0:
        return input
    if input.is_complex():
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_self_\" not implemented for '{_legacy(input.dtype)}'")
    if not p.is_floating_point():
        raise NotImplementedError(f"\"bernoulli_tensor_cpu_p_\" not implemented for '{_legacy(p.dtype)}'")
    from ._ops import expand
    probs = expand(p.detach(), input._data.shape)._data  # (expand's errors for a p of another shape)
    ordered, g = _random.memory_order(probs, input._data), _random.gen(generator)
    bad = ~((ordered >= 0) & (ordered <= 1))
    if bad.any():  # PyTorch checks each p as it samples: the entries before the bad one have drawn already
        _random.bernoulli_tensor(g, ordered[:int(np.argmax(bad))])
        raise RuntimeError("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this error message be "
                           "improved?  If so, please report an enhancement request to PyTorch.)")
    values = _random.bernoulli_tensor(g, ordered)
    return _write(D.bernoulli_tensor, input, _placed(input, values), p)


_BERNOULLI_FN_OVERLOADS = ("(Tensor input, *, torch.Generator generator = None, Tensor out = None)",
                           "(Tensor input, float p, *, torch.Generator generator = None)")


def bernoulli(input: Tensor, p=None, *, generator=None, out=None) -> Tensor:
    """A new tensor of 0/1 draws: 1 with probability ``input`` (elementwise), or with probability ``p``."""
    bad_p = p is not None and not isinstance(p, (Tensor, int, float, np.number))
    if bad_p or (generator is not None and not isinstance(generator, _random.Generator)):
        raise _arg_errors.invalid_combination("bernoulli", (input,) if p is None else (input, p),
                                              {} if generator is None else {"generator": generator},
                                              _BERNOULLI_FN_OVERLOADS)
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_random((input,))
    if out is not None:  # bernoulli.out: out resized to input's shape (no warning), then out.bernoulli_(input)
        if p is not None:
            raise _arg_errors.invalid_combination("bernoulli", (input, p), {"out": out}, _BERNOULLI_FN_OVERLOADS)
        if grad_mode.is_grad_enabled() and (input.requires_grad or out.requires_grad):
            raise RuntimeError("bernoulli(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        if out._data.shape != input._data.shape:
            from ._ops_inplace_views import resize_output
            resize_output(out, input._data.shape)
        with grad_mode.no_grad():
            return _bernoulli_tensor(out, input, generator)
    if p is not None:  # bernoulli.p: empty_like(input).bernoulli_(p) (PyTorch has no gradient formula for it)
        return bernoulli_(Tensor._make(np.zeros(input._data.shape, dtype=input._data.dtype)), p, generator=generator)
    out = Tensor._make(np.zeros(input._data.shape, dtype=input._data.dtype))
    _bernoulli_tensor(out, input.detach(), generator)
    return D.bernoulli(input, values=out._data)  # BernoulliBackward0 when input requires grad (zero gradient)


@_meta.draws_nothing
def geometric_(input: Tensor, p=_NO_P, *, generator=None) -> Tensor:
    """Fill with the number of Bernoulli(p) trials up to the first success (1, 2, 3 ...)."""
    if p is _NO_P:
        raise TypeError('geometric_() missing 1 required positional arguments: "p"')
    _random.check_generator(generator, "geometric_")
    _check_write(input, "aten::geometric_")
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={_fmt(p)}")
    if input.numel() == 0:
        return input
    if input.dtype is _dtypes.bool_ or input.is_complex():
        raise NotImplementedError(f"\"geometric_cpu\" not implemented for '{_legacy(input.dtype)}'")
    values = _random.geometric(_random.gen(generator), input.numel(), p)
    return _write(D.geometric_, input, _placed(input, values))


# ---- random_: integers, uniform over a range --------------------------------------------------

_RANDOM_OVERLOADS = ("(*, torch.Generator generator = None)",
                     "(int from, int to, *, torch.Generator generator = None)",
                     "(int to, *, torch.Generator generator = None)")
_INT64_MIN, _INT64_MAX = -2**63, 2**63 - 1
# Bits of precision of each floating dtype (std::numeric_limits<T>::digits): integers up to 2**digits
# are exact in it.
_DIGITS = {"float16": 11, "bfloat16": 8, "float32": 24, "float64": 53}


@_meta.draws_nothing
def random_(input: Tensor, *args, generator=None, **kwargs) -> Tensor:
    """Fill with integers uniform in [from, to) (random_(to): [0, to); random_(): the dtype's whole range)."""
    if generator is not None and not isinstance(generator, _random.Generator):
        raise _arg_errors.overload_error("random_", _RANDOM_OVERLOADS, args, {**kwargs, "generator": generator},
                                         ("to",))
    frm, to, node = _random_args(args, kwargs)
    _check_write(input, "aten::random_" + ("" if node is D.random_ else ".to" if node is D.random_to else ".from"))
    dt = input.dtype
    if node is D.random_:
        if dt.is_complex:
            raise NotImplementedError(f"\"random_kernel_cpu\" not implemented for '{_legacy(dt)}'")
        lo, hi = 0, _random_top(dt)
    elif to is not None:
        if not frm < to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got from={frm} >= to={to}")
        if dt.is_floating_point:
            frm, to = _update_from(frm, dt), _update_to(to, dt)
            if not frm < to:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than 'to' casted to dtype, but "
                                   f"got from={frm} >= to={to}")
        _check_from_to_in_range(frm, to - 1, dt)
        lo, hi = frm, to - 1
    elif frm != _INT64_MIN:
        if dt.is_complex:
            raise RuntimeError("random_from_to_impl handles only integral, floating-point and boolean types")
        hi = _random_top(dt)
        if dt.is_floating_point:
            frm = _update_from(frm, dt)
            if not frm < hi:
                raise RuntimeError("random_ expects 'from' casted to dtype to be less than or equal to 'to_inc' "
                                   f"casted to dtype, but got from={frm} > to_inc={hi}")
        _check_from_to_in_range(frm, hi, dt)
        lo = frm
    else:
        lo, hi = _INT64_MIN, _INT64_MAX  # the whole 64-bit range, wrapped into the dtype
    if input.numel() == 0:
        return input
    g = _random.gen(generator)
    if node is D.random_:
        values = _random.random_default(g, input.numel(), dt.np)
    elif lo == _INT64_MIN and hi == _INT64_MAX:
        values = _random.random_full_range(g, input.numel())
    else:  # range = to - from as uint64 (wrapping), as random_from_to_impl
        values = _random.random_from_to(g, input.numel(), (hi - lo + 1) & (2 ** 64 - 1), lo)
    if dt is _dtypes.bool_:
        values = values & 1  # (the low bit when the whole 64-bit range was drawn)
    elif not dt.is_floating_point:
        values = values.astype(dt.np)  # wraps, as PyTorch's cast of a 64-bit draw does
    return _write(node, input, _placed(input, values))


def _random_args(args: tuple, kwargs: dict) -> tuple:
    """(from, to, table op) from random_'s three overloads; PyTorch's TypeError for anything else."""
    given = dict(kwargs)
    if len(args) > 2 or set(given) - {"from", "to"}:
        raise _arg_errors.overload_error("random_", _RANDOM_OVERLOADS, args, kwargs, ("to",))
    names = ("to",) if len(args) == 1 and "to" not in given and "from" not in given else ("from", "to")
    for name, value in zip(names, args):
        given[name] = value
    ok = all(isinstance(v, (int, np.integer)) and not isinstance(v, bool) or (k == "to" and v is None)
             for k, v in given.items())
    if not ok or ("to" in given and "from" not in given and given["to"] is None):
        raise _arg_errors.overload_error("random_", _RANDOM_OVERLOADS, args, kwargs, ("to",))
    if not given:
        return 0, None, D.random_
    if "from" not in given:
        return 0, int(given["to"]), D.random_to
    to = given.get("to")
    return int(given["from"]), None if to is None else int(to), D.random_from


def _random_top(dt) -> int:
    """The largest value random_() draws: 2**digits for floats (every integer up to it is exact), else max."""
    if dt.is_floating_point:
        return 2 ** _DIGITS[dt.name]
    return 1 if dt is _dtypes.bool_ else int(np.iinfo(dt.np).max)


def _as_float(x: int, dt) -> int:
    """``static_cast<int64_t>(static_cast<T>(x))``: x rounded to the nearest value of a floating dtype.

    A value past the dtype's range becomes inf, which the x86 conversion to int64 turns into INT64_MIN.
    """
    with np.errstate(over="ignore"):
        rounded = float(np.asarray(float(x)).astype(dt.np))
    return int(rounded) if math.isfinite(rounded) else _INT64_MIN


def _update_from(frm: int, dt) -> int:
    """PyTorch's update_from: move ``from`` right until rounding to the dtype cannot take it below ``from``."""
    rounded = _as_float(frm + 1, dt)
    if rounded < frm:
        n = abs(frm + 1).bit_length() - 1
        frm = rounded + (1 << (n - _DIGITS[dt.name] + 1))
    return frm


def _update_to(to: int, dt) -> int:
    """PyTorch's update_to: move ``to`` left until rounding to the dtype cannot reach ``to``."""
    rounded = _as_float(to - 1, dt)
    if rounded >= to:
        n = abs(to - 1).bit_length() - 1
        to = rounded - (1 << (n - _DIGITS[dt.name] + 1))
    return to


def _check_from_to_in_range(frm: int, to_inc: int, dt) -> None:
    """PyTorch's bounds of random_: both ends representable in the dtype (floats: a warning past 2**digits)."""
    if dt.is_floating_point:
        limit = float(_dtypes.finfo(dt).max)
        for name, v in (("from", frm), ("to - 1", to_inc)):
            if not -limit <= v <= limit:
                raise RuntimeError(f"{name} is out of bounds for {_meta_name(dt)}")
        digits = _DIGITS[dt.name]
        for name, v in (("from", frm), ("to - 1", to_inc)):
            if not -(1 << digits) <= v <= 1 << digits:
                warnings.warn(f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                              f"{_meta_name(dt)} can support discrete uniform distribution only within this range. "
                              "This warning will become an error in version 1.7 release, please fix the code in "
                              f"advance (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                              f"DistributionTemplates.h:{110 if name == 'from' else 111}.)", UserWarning,
                              stacklevel=_user_stacklevel())
    elif dt.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and boolean types")
    else:
        info = (0, 1) if dt is _dtypes.bool_ else (int(np.iinfo(dt.np).min), int(np.iinfo(dt.np).max))
        for name, v in (("from", frm), ("to - 1", to_inc)):
            if not info[0] <= v <= info[1]:
                raise RuntimeError(f"{name} is out of bounds for {_meta_name(dt)}")


# =============================================================================================
# Tensor methods (PyTorch has no torch.* functions for these)
# =============================================================================================

METHODS = ["uniform_", "normal_", "bernoulli_", "exponential_", "geometric_", "log_normal_", "cauchy_", "random_",
           "bernoulli"]


def _attach_methods() -> None:
    for name in METHODS:
        setattr(Tensor, name, globals()[name])


_attach_methods()
