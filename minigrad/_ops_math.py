"""Elementwise math beyond ``_ops.py``: trigonometric and special functions, remainders, bitwise ops.

Also a few ops along one dim (softmax, cumprod, std_mean, trapezoid) and the constants ``pi``, ``e``, ``inf``, ``nan``.
As in ``_ops.py``: argument checks, dtype promotion and PyTorch's error messages here, derivatives in
``derivatives.py``.
"""
from __future__ import annotations

import math

import numpy as np

from . import _arg_errors, _dispatch, _dtypes, _ops, _strides, return_types
from . import derivatives as D
from ._tensor import Tensor
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast
from .autograd import grad_mode
from .nn import functional as _F  # (imported before this module: minigrad/__init__.py)

# =============================================================================================
# Trigonometric, hyperbolic and error functions
# =============================================================================================

def _real_only(input, kernel: str) -> None:
    """PyTorch's error for a complex tensor given to a function with real kernels only (erf, lgamma ...)."""
    if isinstance(input, Tensor) and input.dtype.is_complex:
        if kernel.endswith(" tensors."):  # (a check of its own, not a missing kernel)
            raise RuntimeError(kernel)
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(input.dtype)}'")


def _real_only_inplace(input, kernel: str, name: str) -> None:
    """``_real_only`` for the in-place op ``name``: the refusal to write a tensor a torch.func transform captured
    comes first, then TensorIterator's of a write into an expanded tensor, before the kernel is looked up for its
    dtype (a check of the op's own, deg2rad's, comes before TensorIterator's)."""
    if isinstance(input, Tensor) and input.dtype.is_complex:
        from ._dispatch import _no_internal_overlap_first, check_captured_write
        check_captured_write(input, f"aten::{name}")
        if not kernel.endswith(" tensors."):
            _no_internal_overlap_first(None, input)
    _real_only(input, kernel)


def _float_unary(op, real_only: str | None = None):
    def fn(input):
        if real_only is not None:
            _real_only(input, real_only)
        return _ops._unary(op, input)
    fn.__name__ = op.name
    fn.__doc__ = f"Elementwise {op.name} (integers give floats)."
    return fn


sinh, cosh = _float_unary(D.sinh), _float_unary(D.cosh)


asin, acos, atan = _float_unary(D.asin), _float_unary(D.acos), _float_unary(D.atan)


asinh, acosh, atanh = _float_unary(D.asinh), _float_unary(D.acosh), _float_unary(D.atanh)


erf, erfc = _float_unary(D.erf, "erf_vml_cpu"), _float_unary(D.erfc, "erfc_vml_cpu")


arcsin, arccos, arctan, arcsinh, arccosh, arctanh = asin, acos, atan, asinh, acosh, atanh


def atan2(input, other):
    """Elementwise angle of the point (other, input), in (-π, π]."""
    _ops._tensors_only("atan2", input, other)
    _ops._no_complex_kernel("atan2", input, other)
    return _ops._binary(D.atan2, input, other, promote_int_to_float=True)


arctan2 = atan2


# =============================================================================================
# Special functions
# =============================================================================================

def _float_args(op, input, **args):
    dt = _ops._float_dtype(input)
    return op(input, dtype=dt if dt.np != input._data.dtype else None, **args)


def nan_to_num(input, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None):
    """NaN -> ``nan``, +inf/-inf -> ``posinf``/``neginf`` (the dtype's largest/smallest by default)."""
    nan, posinf, neginf = _nan_to_num_args("nan_to_num", nan, posinf, neginf)
    if input.is_complex() and input.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError("nan_to_num does not support automatic differentiation for outputs with complex dtype.")
    if not (input.is_floating_point() or input.is_complex()):   # (complex: real and imaginary parts replaced)
        return input.clone()
    info = _dtypes.finfo(input.dtype)  # (NumPy's finfo knows no bfloat16)
    nan = 0.0 if nan is None else float(nan)   # (a float?: None is 0)
    posinf = float(info.max if posinf is None else posinf)
    neginf = float(info.min if neginf is None else neginf)
    # (PyTorch's kernel writes into empty_like(input))
    return _strides.into_empty_like(input, D.nan_to_num(input, nan=nan, posinf=posinf, neginf=neginf))


def _nan_to_num_args(name: str, nan, posinf, neginf) -> tuple:
    """nan_to_num's ``float?`` arguments as its parser reads them, before anything else (a tensor: scalar_arg)."""
    read = _arg_errors.scalar_arg
    return (None if nan is None else read(nan, name, "nan", 2),
            None if posinf is None else read(posinf, name, "posinf", 3),
            None if neginf is None else read(neginf, name, "neginf", 4))


def lgamma(input):
    """log |Γ(x)|."""
    _real_only(input, "lgamma_vml_cpu")
    return _float_args(D.lgamma, input)


def digamma(input):
    """ψ(x) = d log Γ(x) / dx."""
    _real_only(input, "digamma")
    return _float_args(D.digamma, input)


def polygamma(n: int, input):
    """ψ⁽ⁿ⁾(x), the n-th derivative of digamma."""
    n = _arg_errors.scalar_arg(n, "polygamma", "n", 1, "int")
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    _real_only(input, ("digamma", "trigamma")[n] if n < 2 else "polygamma")
    return _float_args(D.polygamma, input, n=int(n))


def _polygamma_method(self, n: int):
    """``x.polygamma(n)``: polygamma(n, x) (its arguments parsed as the method's, ``(int n)``: _arg_errors)."""
    return polygamma(n, self)


# =============================================================================================
# Two-tensor functions: hypot, remainders, xlogy, logaddexp
# =============================================================================================

def _float_only(name, input, other):
    """hypot/logaddexp have no integer kernels in PyTorch: the promoted dtype must be floating."""
    _ops._check_broadcast(input, other)
    dt = _dtypes.result_type(input, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_ops._legacy(dt)}\'')


def hypot(input, other):
    """√(input² + other²), elementwise."""
    _ops._tensors_only("hypot", input, other)
    _float_only("hypot", input, other)
    _ops._no_complex_kernel("hypot", input, other)
    return _ops._binary(D.hypot, input, other)


def _no_integer_zero_divisor(input, other, name: str | None = None) -> None:
    """PyTorch's error for an integer remainder by zero (a float one is NaN); before it, broadcasting's and
    (for function ``name``) complex operands'."""
    if name is None:
        _ops._check_broadcast(input, other)
    else:
        _ops._no_complex_kernel(name, input, other)
        if _dtypes.result_type(input, other) is _dtypes.bool_:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for 'Bool'")
        if not (input.numel() if isinstance(input, Tensor) else 1) or (
                isinstance(other, Tensor) and not other.numel()):
            return  # (an empty result divides nothing)
    if not _dtypes.result_type(input, other).is_floating_point and not np.all(
            other._data if isinstance(other, Tensor) else other):
        raise RuntimeError("ZeroDivisionError")


def fmod(input, other):
    """C-style remainder (sign of the dividend)."""
    if not isinstance(input, Tensor):
        raise _arg_errors.no_overload("fmod", input, other)
    _no_integer_zero_divisor(input, other, "fmod")
    if isinstance(other, Tensor):
        return _ops._binary(D.fmod_tensor, input, other)
    dt = _dtypes.result_type(input, other)
    return D.fmod(input, dtype=dt, other=_in_int_range(other, dt))   # int % 2.5 is float


def remainder(input, other):
    """Python-style remainder (sign of the divisor)."""
    if isinstance(input, Tensor) or isinstance(other, Tensor):
        _no_integer_zero_divisor(input, other, "remainder")
    if not isinstance(input, Tensor):       # 2 % t: the number becomes a tensor of the result's dtype
        if not isinstance(other, Tensor) or isinstance(input, _ops._NOT_NUMBERS):   # ([1, 2] % t: no overload)
            raise _arg_errors.no_overload("remainder", input, other)
        number = _in_int_range(input, _dtypes.result_type(input, other))   # (-2 % uint8 tensor: 254 % t)
        result = _ops._binary(D.remainder_tensor, _ops._as_tensor_like(number, other), other.detach())
        if (grad_mode.is_grad_enabled() and other.requires_grad) or other._fw_grad is not None:  # no derivative
            return D.NOT_IMPLEMENTED["remainder_scalar"].call((other,), None, None, {"_result": result._data})
        return result
    if isinstance(other, Tensor):
        return _ops._binary(D.remainder_tensor, input, other)
    dt = _dtypes.result_type(input, other)
    return D.remainder(input, dtype=dt, other=_in_int_range(other, dt))


def _in_int_range(number, dt):
    """A Python int as PyTorch's wrapped number in integer dtype ``dt``: a C cast (-2 in uint8 is 254)."""
    if type(number) is int:
        _ops._check_scalar_int(number)
    if dt._kind == 1 and isinstance(number, int) and not _dtypes.iinfo(dt).min <= number <= _dtypes.iinfo(dt).max:
        return np.asarray(number).astype(dt.np).item()
    return number


def xlogy(input, other):
    """input · log(other), 0 where input == 0 (unless other is NaN)."""
    if not isinstance(input, Tensor):
        if not isinstance(other, Tensor):
            raise _arg_errors.no_overload("xlogy", input, other)
        if type(input) is int:
            _ops._check_scalar_int(input)
        # (a wrapped number: an int need not fit other's dtype, xlogy(-2, uint8 tensor) is a float result)
        number, input = input, _ops._wrap_scalar(input) if type(input) is int else _ops._as_tensor_like(input, other)
    else:
        number = None
        if type(other) is int:
            _ops._check_scalar_int(other)
    _ops._no_complex_kernel("xlogy", input, other)
    if number is not None or not isinstance(other, Tensor):   # a number: XlogyBackward1 / 2, one edge
        dt = _dtypes.result_type(input if number is None else number, other)
        dt = dt if dt.is_floating_point or dt.is_complex else _dtypes.get_default_dtype()
        if number is not None:
            return D.xlogy_scalar_self(other, dtype=dt, self=number)
        return D.xlogy_scalar(input, dtype=dt, other=other)
    return _ops._binary(D.xlogy, input, other, promote_int_to_float=True)


def logaddexp(input, other):
    """log(e^input + e^other), without overflow."""
    _ops._tensors_only("logaddexp", input, other)
    _float_only("logaddexp", input, other)
    return _ops._binary(D.logaddexp, input, other)


def logaddexp2(input, other):
    """log₂(2^input + 2^other), without overflow."""
    _ops._tensors_only("logaddexp2", input, other)
    _float_only("logaddexp2", input, other)
    dt = _dtypes.result_type(input, other)
    if dt.is_complex:   # (unlike logaddexp, no complex kernel)
        raise NotImplementedError(f"\"logaddexp2_cpu\" not implemented for '{_ops._legacy(dt)}'")
    return _ops._binary(D.logaddexp2, input, other)


def signbit(input):
    """True where the sign bit is set (-0.0 included); never for unsigned or bool tensors."""
    if not isinstance(input, Tensor):
        raise _ops._not_a_tensor("signbit", input)
    if input.dtype.is_complex:
        raise NotImplementedError("signbit is not implemented for complex tensors.")
    data = input._data
    # (bfloat16, integers and bools as float64, which keeps every sign)
    return Tensor._make(np.asarray(np.signbit(data if data.dtype.kind == "f" else data.astype(np.float64))))


# =============================================================================================
# Bitwise (integers and bools; no gradients)
# =============================================================================================

def _bitwise(np_fn, name):
    def fn(input, other):
        if isinstance(input, Tensor):
            a = input
        elif isinstance(other, Tensor):
            a = _ops._wrap_scalar(input)
        else:  # (two numbers: no overload takes them; the public wrapper raises PyTorch's parser error)
            raise TypeError(f"{name}(): no overload takes two numbers")
        for v in (input, other):   # ([1, 2] & t, or another library's tensor: no Tensor nor Scalar)
            if not isinstance(v, (Tensor, int, float, complex, np.generic)):
                raise TypeError(f"{name}(): no overload takes a {type(v).__name__}")
        for v in (input, other):
            if type(v) is int:
                _ops._check_scalar_int(v)
        _ops._check_broadcast(input, other)
        if _ops._vmap_batched.DEPTH[0]:
            _ops._vmap_batched.check_first_example(name, a, other if isinstance(other, Tensor) else
                                                   _ops._wrap_scalar(other))
        dt = _dtypes.result_type(input, other)   # (a number on either side counts as a wrapped number)
        if name.endswith("shift"):   # (and/or/xor run the barebones unsigned dtypes, the shifts do not)
            _dtypes.refuse_unsigned(f"{name}_cpu", dt)
        if dt._kind > 1 or (dt._kind == 0 and name.endswith("shift")):  # (no float, complex or bool shift kernel)
            _dispatch.check_rebased_inputs(input, other)   # (the kernel's check, after VariableType's edges)
            raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_ops._legacy(dt)}\'')
        # (a number converted as a C cast: -2 into uint8 is 254, as PyTorch's)
        b = other._data if isinstance(other, Tensor) else np.asarray(other).astype(dt.np)
        # (the operands cast to the result dtype first, as the kernel reads them: int8 -1 >> uint8 4 is 255 >> 4)
        out = np.asarray(np_fn(a._data.astype(dt.np, copy=False), b.astype(dt.np, copy=False)))
        out = Tensor._make(_strides.iterator_layout(out, (a._data, b)))  # (TensorIterator's layout)
        if not out._data.size and out._data.ndim > 1:   # (an empty result's strides: see _strides)
            _strides.empty_elementwise(out, [t for t in (input, other) if isinstance(t, Tensor)],
                                       not isinstance(input, Tensor) or not isinstance(other, Tensor))
        return _ops._vmap_batched.follow(out, input, other) if _ops._vmap_batched.DEPTH[0] else out
    fn.__name__ = name
    fn.__doc__ = f"Elementwise {name.replace('_', ' ')} of integer or bool tensors."
    return fn


bitwise_and = _bitwise(np.bitwise_and, "bitwise_and")


bitwise_or = _bitwise(np.bitwise_or, "bitwise_or")


bitwise_xor = _bitwise(np.bitwise_xor, "bitwise_xor")


bitwise_left_shift = _bitwise(np.left_shift, "lshift")


bitwise_right_shift = _bitwise(np.right_shift, "rshift")


def bitwise_not(input):
    """~x for integer and bool tensors."""
    if input.dtype.is_floating_point or input.dtype.is_complex:
        raise NotImplementedError(f"\"bitwise_not_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    _dtypes.refuse_unsigned("bitwise_not_cpu", input.dtype)
    return Tensor._make(np.asarray(np.invert(input._data)))   # (of a 0-d array NumPy returns a scalar)


# =============================================================================================
# Along one dim: softmax, running product, (std|var, mean) in one node
# =============================================================================================

def softmax(input, dim, dtype=None):
    """e^x / Σ e^x along ``dim`` (as torch.nn.functional.softmax, but dim is required)."""
    dim = _ops._check_int_dim("softmax", dim)
    return _F.softmax(input, dim, dtype=dtype)


def log_softmax(input, dim, dtype=None):
    """log(softmax(x)) along ``dim`` (as torch.nn.functional.log_softmax, but dim is required)."""
    dim = _ops._check_int_dim("log_softmax", dim)
    return _F.log_softmax(input, dim, dtype=dtype)


def cumprod(input, dim, *, dtype=None):
    """Running product along ``dim``."""
    dim = _ops._check_int_dim("cumprod", dim)
    d = _ops._raw_dims(dim, input.dim(), input)[0]  # (the dim's error before the dtype's)
    if dtype is _dtypes.bool_ and input.dim() and input.numel():  # (a 0-dim or empty tensor: no kernel runs)
        raise NotImplementedError("\"cumprod_out_cpu\" not implemented for 'Bool'")
    dtype = _ops._int_to_long(input, dtype)
    return D.cumprod(input, dtype=dtype, dim=d)


def std_mean(input, dim=_ops._ALL_DIMS, unbiased=_ops._NO_ARG, keepdim=False, *, correction=None):
    """(std, mean) over ``dim``, recorded as one node (StdMeanBackward0)."""
    return D.std_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "std_mean"))


def var_mean(input, dim=_ops._ALL_DIMS, unbiased=_ops._NO_ARG, keepdim=False, *, correction=None):
    """(var, mean) over ``dim``, recorded as one node (VarMeanBackward0)."""
    return D.var_mean(input, **_ops._var_args(input, dim, unbiased, keepdim, correction, "var_mean"))


# =============================================================================================
# Fused pointwise: input + value·t1·t2 and input + value·t1/t2 (what optimizers are written with)
# =============================================================================================

def _addc(op, input, tensor1, tensor2, value, out=None):
    value = _arg_errors.scalar_arg(value, op.name + ("_" if out is not None else ""), "value", None, "Number")
    if out is not None:
        # (the in-place forms have no batching rule: vmap's fallback comes before autograd's refusal of a leaf or a
        # view, after it where a grad transform runs inside the vmap, and before the kernel's checks)
        vmap = _ops._vmap_batched
        fallback_first = vmap.DEPTH[0] and not vmap.autograd_first()
        if fallback_first:
            vmap.fallback(op.name + "_", input, tensor1, tensor2, out=out)
        if out._requires_grad or out._base is not None:
            _ops._dispatch._check_inplace(out, False)
        if vmap.DEPTH[0] and not fallback_first:
            vmap.fallback(op.name + "_", input, tensor1, tensor2, out=out)
    dt = _dtypes.result_type(*_ops._vmap_batched.physical(input, tensor1, tensor2))
    # (PyTorch refuses integer (or bool) tensor1 and tensor2, whatever input is)
    if op is D.addcdiv and not any(t.is_floating_point() or t.is_complex() for t in (tensor1, tensor2)):
        raise RuntimeError(
            "Integer division with addcdiv is no longer supported, and in a future  release addcdiv will perform "
            "a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented as "
            "(input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
            "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
            "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")
    if out is not None:
        _ops._dispatch._no_internal_overlap_first(None, out)  # (TensorIterator's first check, before the shapes')
    shapes = [t._data.shape for t in (input, tensor1, tensor2)]
    for i, a in enumerate(shapes):
        for b in shapes[i + 1:]:
            try:
                np.broadcast_shapes(a, b)
            except ValueError:
                _ops._raise_broadcast_error(a, b, tensors=(input, tensor1, tensor2))
    if out is not None and np.broadcast_shapes(*shapes) != out._data.shape:
        raise RuntimeError(f"output with shape {list(out._data.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(*shapes))}")
    if out is not None and dt._kind > out.dtype._kind:   # (the iterator's cast check, before value is read)
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")
    # (PyTorch converts value to the computation's type: float for halves)
    _ops._check_scalar_fits(value, _dtypes.float32 if dt in (_dtypes.float16, _dtypes.bfloat16) else dt)
    value = value.real if isinstance(value, complex) and not dt.is_complex else value
    if dt is _dtypes.bool_ and op is D.addcmul:  # (its kernel has every dtype but bool)
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    return op.call((input, tensor1, tensor2), dt, out, {"value": value})


def addcmul(input, tensor1, tensor2, _old=_ops._NO_ARG, *, value=1):
    """input + value · tensor1 · tensor2 (elementwise)."""
    if _old is not _ops._NO_ARG:  # (the deprecated x.addcmul(value, tensor1, tensor2))
        _arg_errors.scalar_first("addcmul", tensor1, (tensor2, _old), value=value)
        tensor1, tensor2, value = tensor2, _old, tensor1
    return _addc(D.addcmul, input, tensor1, tensor2, value)


def addcdiv(input, tensor1, tensor2, _old=_ops._NO_ARG, *, value=1):
    """input + value · tensor1 / tensor2 (elementwise; floats only)."""
    if _old is not _ops._NO_ARG:  # (the deprecated x.addcdiv(value, tensor1, tensor2))
        _arg_errors.scalar_first("addcdiv", tensor1, (tensor2, _old), value=value)
        tensor1, tensor2, value = tensor2, _old, tensor1
    return _addc(D.addcdiv, input, tensor1, tensor2, value)


def addcmul_(input, tensor1, tensor2, _old=_ops._NO_ARG, *, value=1):
    """In-place addcmul."""
    if _old is not _ops._NO_ARG:  # (the deprecated x.addcmul_(value, tensor1, tensor2))
        _arg_errors.scalar_first("addcmul_", tensor1, (tensor2, _old), value=value)
        tensor1, tensor2, value = tensor2, _old, tensor1
    return _addc(D.addcmul, input, tensor1, tensor2, value, out=input)


def addcdiv_(input, tensor1, tensor2, _old=_ops._NO_ARG, *, value=1):
    """In-place addcdiv."""
    if _old is not _ops._NO_ARG:  # (the deprecated x.addcdiv_(value, tensor1, tensor2))
        _arg_errors.scalar_first("addcdiv_", tensor1, (tensor2, _old), value=value)
        tensor1, tensor2, value = tensor2, _old, tensor1
    return _addc(D.addcdiv, input, tensor1, tensor2, value, out=input)


# =============================================================================================
# More elementwise functions and NaN-ignoring reductions
# =============================================================================================

def logit(input, eps=None):
    """log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given."""
    _real_only(input, "logit_cpu")
    return D.logit(input, dtype=_ops._float_dtype(input), eps=eps)


def deg2rad(input):
    """Degrees to radians."""
    _real_only(input, "deg2rad is not supported for complex tensors.")
    return _strides.into_empty_like(input, _ops._unary(D.deg2rad, input))


def rad2deg(input):
    """Radians to degrees."""
    _real_only(input, "rad2deg is not supported for complex tensors.")
    return _strides.into_empty_like(input, _ops._unary(D.rad2deg, input))


def sinc(input):
    """sin(πx) / (πx), 1 at 0."""
    return _ops._unary(D.sinc, input)


def positive(input):
    """The input itself (unary plus); refused for bool, as in PyTorch."""
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


def copysign(input, other):
    """|input| with the sign of other (floats)."""
    if not isinstance(input, Tensor):
        raise _arg_errors.no_overload("copysign", input, other)
    if type(other) is int:
        _ops._check_scalar_int(other)
    _ops._no_complex_kernel("copysign", input, other)
    if isinstance(other, Tensor):
        dt = _dtypes.result_type(input, other)
        dt = dt if dt.is_floating_point else _dtypes.get_default_dtype()
        return _ops._binary(D.copysign, input, other) if dt is input.dtype is other.dtype else \
            D.copysign(input, other, dtype=dt)
    dt = _dtypes.result_type(input, other)
    return D.copysign_scalar(input, dtype=dt if dt.is_floating_point else _dtypes.get_default_dtype(), other=other)


def float_power(input, exponent):
    """input ** exponent computed in float64 (complex128 for complex arguments)."""
    if not isinstance(input, Tensor) and not isinstance(exponent, Tensor):
        raise _arg_errors.no_overload("float_power", input, exponent)
    def is_complex(x):
        return x.is_complex() if isinstance(x, Tensor) else isinstance(x, complex)
    for v in (input, exponent):
        if type(v) is int:
            _ops._check_scalar_int(v)
    dt = _dtypes.complex128 if is_complex(input) or is_complex(exponent) else _dtypes.float64
    number = complex if dt.is_complex else float
    if not isinstance(input, Tensor):
        return _ops.pow(number(input), _ops.to(exponent, dt))
    if isinstance(exponent, Tensor):
        # (GCC evaluates at::pow(base.to(dtype), exp.to(dtype))'s arguments right to left; a sparse exponent stays
        # sparse, for pow's refusal)
        exp = exponent.to(dt) if exponent.is_sparse else _ops.to(exponent, dt)
        return _ops.pow(_ops.to(input, dt), exp)
    base = _ops.to(input, dt)
    return _ops.pow(base, number(exponent))


def heaviside(input, values):
    """0 for x < 0, ``values`` at x = 0, 1 for x > 0 (not differentiable)."""
    if not isinstance(input, Tensor):
        raise _ops._not_a_tensor("heaviside", input)
    if not isinstance(values, Tensor):  # (PyTorch names the second argument ``values``)
        raise _ops._not_a_tensor("heaviside", values, "values", 2)
    if input.is_complex() or values.is_complex():
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")
    if input.dtype is not values.dtype:
        raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
    _ops._check_broadcast(input, values)
    _dtypes.refuse_unsigned("heaviside_cpu", input.dtype)
    a, b = np.broadcast_arrays(input._data, values._data)
    result = _strides.iterator_layout(np.where(a == 0, b, (a > 0).astype(a.dtype)), (input._data, values._data))
    # (through the NotImplemented op when autograd records, or forward AD or the profiler is on: PyTorch's
    # fallback then refuses a tangent)
    if (grad_mode.is_grad_enabled() and (input.requires_grad or values.requires_grad)) or _ops._dispatch._extras[0]:
        out = D.NOT_IMPLEMENTED["heaviside"].call((input, values), None, None, {"_result": result})
    else:
        out = Tensor._make(result)
    if not result.size and result.ndim > 1:   # (an empty result's strides: see _strides)
        _strides.empty_elementwise(out, (input, values))
    return out


def nansum(input, dim=None, keepdim=False, *, dtype=None):
    """Sum ignoring NaNs (NansumBackward0: no gradient to the NaNs)."""
    if dim is True or dim is False:   # (x.nansum(True): its parser's error, numbered after self by the method)
        raise _arg_errors.must_be("nansum", "dim", "tuple of ints", dim, 2)
    dims = _ops._reduce_dims(dim, input)  # (a bad dim's error first)
    _ops._check_bool("nansum", "keepdim", keepdim, 3)
    if input.dtype.is_complex:
        raise RuntimeError("nansum on CPU does not support complex inputs")
    dtype = _ops._int_to_long(input, dtype)
    if dtype is not None and dtype.is_complex and input.dtype.is_floating_point and input.numel():
        # (no float->complex kernel; an empty input runs none)
        raise NotImplementedError(f"\"nansum_cpu\" not implemented for '{_ops._legacy(dtype)}'")
    return D.nansum(input, dtype=dtype, dim=dims, keepdim=keepdim)


def nanmean(input, dim=None, keepdim=False, *, dtype=None):
    """Mean of the non-NaN elements: nansum / their count (DivBackward0, as PyTorch builds it)."""
    _ops._check_bool("nanmean", "keepdim", keepdim, 3)
    if dim is True or dim is False:
        raise _arg_errors.must_be("nanmean", "dim", "tuple of ints", dim, 2)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("nanmean(): expected input to have floating point or complex dtype but got "
                           f"{_ops._legacy(input.dtype)}")
    count = _ops.sum(_ops.logical_not(_ops.isnan(input)), dim, keepdim)
    return _ops.div(nansum(input, dim, keepdim, dtype=dtype), count)


def dist(input, other, p=2):
    """‖input - other‖_p over all elements (broadcast together)."""
    _ops._refuse_bool_sub(input, other)  # (PyTorch's dist subtracts first: its bool errors come before norm's)
    _ops._check_broadcast(input, other)
    dt = _dtypes.result_type(input, other)
    if not (dt.is_floating_point or dt.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. Got {_ops._legacy(dt)} "
                           "instead.")
    try:
        np.broadcast_shapes(input._data.shape, other._data.shape)
    except ValueError:
        _ops._raise_broadcast_error(input._data.shape, other._data.shape)
    return D.dist(input, other, dtype=dt, p=p)


def take(input, index):
    """The elements of the flattened input at ``index`` (shaped like index)."""
    try:
        if index.dtype is not _dtypes.int64:
            raise RuntimeError(f"take(): Expected a long tensor for index, but got {_ops._legacy(index.dtype)}")
        n = input.numel()
        if n == 0 and index.numel():
            raise IndexError("take(): tried to take from an empty tensor")
        bad = index._data[(index._data >= n) | (index._data < -n)]
        if bad.size:
            raise IndexError(f"out of range: tried to access index {int(bad.flat[0])} on a tensor of {n} elements.")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.take(input, index)


def _cumulative(op, name, input, dim):
    dim = _ops._check_int_dim(name, dim)
    if input.dim() == 0 and dim not in (0, -1):
        raise IndexError(f"{name}(): Expected reduction dim -1 or 0 for scalar but got {dim}")
    if input.numel() == 0 and not -input.dim() <= dim < input.dim():
        dim = 0  # (PyTorch's kernel returns before it wraps the dim of an empty input)
    dim = _ops._raw_dims(dim, input.dim(), input)[0]
    # (an empty or 0-dim input runs no kernel; a batched 0-dim example is 1-dim to the kernel under vmap)
    if input.dtype.is_complex and input.numel() and (input.dim() or _ops._vmap_batched.batch_dims(input)):
        raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    if input.dtype.is_complex and input.requires_grad and grad_mode.is_grad_enabled():
        raise RuntimeError(f"{name} does not support automatic differentiation for outputs with complex dtype.")
    values, indices = op(input, dim=dim)
    return return_types.make(name, values, indices)


def cummax(input, dim):
    """Running maximum along ``dim`` and where it was found (ties: the later index)."""
    return _cumulative(D.cummax, "cummax", input, dim)


def cummin(input, dim):
    """Running minimum along ``dim`` and where it was found (ties: the later index)."""
    return _cumulative(D.cummin, "cummin", input, dim)


def logcumsumexp(input, dim):
    """log Σ exp over the running prefix along ``dim``."""
    _ops._wrap_dim_of(dim, input) if _ops._is_int(dim) else None  # (the dim's error first)
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise NotImplementedError(f"\"logcumsumexp_out_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    dim = _ops._check_int_dim("logcumsumexp", dim)
    return D.logcumsumexp(input, dim=_ops._raw_dims(dim, input.dim())[0])


# =============================================================================================
# erfinv, fmax/fmin, trapezoid (missing-ops pass)
# =============================================================================================

def erfinv(input):
    """The inverse error function (integers give floats; ±1 give ±inf, |x| > 1 NaN)."""
    if isinstance(input, Tensor) and input.is_complex():
        raise NotImplementedError(f"\"erfinv_vml_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    return _ops._unary(D.erfinv, input)


def erfinv_(input):
    """In-place erfinv."""
    if input.is_complex():
        _real_only_inplace(input, "erfinv_vml_cpu", "erfinv_")  # (PyTorch's error)
    return _ops._unary(D.erfinv, input, out=input)


def _fmax_fmin(op, name, input, other):
    _ops._tensors_only(name, input, other)
    if input.is_complex() or other.is_complex():
        raise RuntimeError(f"{name} not implemented for complex tensors.")
    return _ops._binary(op, input, other)


def fmax(input, other):
    """Elementwise maximum where a NaN loses to a number (NaN only where both are NaN)."""
    return _fmax_fmin(D.fmax, "fmax", input, other)


def fmin(input, other):
    """Elementwise minimum where a NaN loses to a number (NaN only where both are NaN)."""
    return _fmax_fmin(D.fmin, "fmin", input, other)


# How PyTorch's "invalid combination of arguments" error lists trapezoid's (and trapz's) overloads.
_TRAPEZOID_OVERLOADS = ("(Tensor y, Tensor x, *, int dim = -1)", "(Tensor y, *, Number dx = 1, int dim = -1)")


def trapezoid(y, x=None, *, dx=None, dim=-1):
    """∫ y along ``dim`` by the trapezoid rule, at sample points ``x`` or spacing ``dx`` (PyTorch's composite)."""
    return _trapezoid("trapezoid", y, x, dx, dim)


_TRAPZ_OVERLOADS = ("(Tensor y, *, float dx = 1, int dim = -1)", "(Tensor y, Tensor x, *, int dim = -1)")


def trapz(y, x=None, *, dx=None, dim=-1):
    """The older name of trapezoid (its parser reads dx as a float: True is 1.0, a complex number no float)."""
    if (x is not None and not isinstance(x, Tensor)) or (dx is not None and (
            x is not None or isinstance(dx, Tensor) or not isinstance(dx, (int, float, np.integer, np.floating)))):
        args = (y,) if x is None else (y, x)
        kwargs = {k: v for k, v in (("dx", dx), ("dim", dim)) if v is not None and (k != "dim" or v != -1)}
        raise _arg_errors.invalid_combination("trapz", args, kwargs, _TRAPZ_OVERLOADS)
    return _trapezoid("trapz", y, x, None if dx is None else float(dx), dim)


def _trapezoid(name, y, x, dx, dim):
    if (x is not None and not isinstance(x, Tensor)) or (x is not None and dx is not None):
        args = (y,) if x is None else (y, x)
        kwargs = {k: v for k, v in (("dx", dx), ("dim", dim)) if v is not None and (k != "dim" or v != -1)}
        raise _arg_errors.invalid_combination(name, args, kwargs, _TRAPEZOID_OVERLOADS)
    if x is None:
        # (dx=1 by default) ((Σ y) - (y_first + y_last)/2)·dx
        dx = 1 if dx is None else dx
        if y.dim() == 0:
            raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
        if y.shape[_ops._wrap_dim(dim, y.dim())] == 0:
            return _zeros_without(y, dim)
        if y.dtype is _dtypes.bool_:
            raise RuntimeError("trapezoid: received a bool input for `y`, but bool is not supported")
        if isinstance(dx, (bool, complex)):
            raise RuntimeError("trapezoid: Currently, we only support dx as a real number.")
        ends = _ops.add(_ops.select(y, dim, 0), _ops.select(y, dim, -1))
        return _scalar_mul(_ops.sub(_ops.sum(y, dim), _scalar_mul(ends, 0.5)), float(dx))
    d = _ops._wrap_dim(dim, y.dim())
    if y.dim() == 0:
        raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
    if y.shape[d] == 0:
        return _zeros_without(y, d)
    if y.dtype is _dtypes.bool_ or x.dtype is _dtypes.bool_:
        raise RuntimeError("trapezoid: received a bool input for `x` or `y`, but bool is not supported")
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError("trapezoid: There must be one `x` value for each sample point")
        x = _ops.view(x, [x.shape[0] if i == d else 1 for i in range(y.dim())])
    elif x.dim() < y.dim():
        x = _ops.view(x, (1,) * (y.dim() - x.dim()) + tuple(x.shape))
    # (made in PyTorch's order, left before right: backward then sums their gradients in its order too)
    left = D.slice(x, dim=d, start=0, end=-1, step=1)
    spacing = _ops.sub(D.slice(x, dim=d, start=1, end=None, step=1), left)
    pairs = _ops.add(D.slice(y, dim=d, start=0, end=-1, step=1), D.slice(y, dim=d, start=1, end=None, step=1))
    return _scalar_div(_ops.sum(_ops.mul(pairs, spacing), d), 2.0)


def cumulative_trapezoid(y, x=None, *, dx=None, dim=-1):
    """The running trapezoid-rule integral of y along ``dim`` (one value per interval; PyTorch's composite)."""
    if (x is not None and not isinstance(x, Tensor)) or (x is not None and dx is not None):
        args = (y,) if x is None else (y, x)
        kwargs = {k: v for k, v in (("dx", dx), ("dim", dim)) if v is not None and (k != "dim" or v != -1)}
        raise _arg_errors.invalid_combination("cumulative_trapezoid", args, kwargs, _TRAPEZOID_OVERLOADS)
    if x is None and y.dtype is _dtypes.bool_:   # (the dx path refuses bool before it reads any dim)
        raise RuntimeError("cumulative_trapezoid: received a bool input for `y`, but bool is not supported")
    if y.dim() == 0:
        if x is not None:   # (the x path wraps dim, checks dtypes and reads y.size(dim) for a 1-d x first)
            d = _ops._wrap_dim(dim, 0)
            if y.dtype is _dtypes.bool_ or x.dtype is _dtypes.bool_:
                raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not "
                                   "supported")
            if x.dim() == 1:
                raise IndexError(f"Dimension specified as {d} but tensor has no dimensions")
        sliced = y if x is None else x
        if _ops._vmap_batched.DEPTH[0] and _ops._vmap_batched.levels(sliced) and not _ops._vmap_batched._legacy(sliced):
            # (slice's batch rule wraps dim against the example, then slices the physical tensor: batch dim first)
            _ops._wrap_dim(dim, 0)
            raise IndexError("Dimension out of range (expected to be in range of [-1, 0], but got 1)")
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    d = _ops._wrap_dim(dim, y.dim())
    if x is None:
        dx = 1 if dx is None else dx
        if isinstance(dx, (bool, complex)):
            raise RuntimeError("cumulative_trapezoid: Currently, we only support dx as a real number.")
        # cumsum(dx/2·(y[:-1] + y[1:])) (ATen wraps dim only on the x path: the nodes save the dim as given)
        pairs = _ops.add(D.slice(y, dim=dim, start=0, end=-1, step=1),
                         D.slice(y, dim=dim, start=1, end=None, step=1))
        return _ops.cumsum(_scalar_mul(pairs, float(dx) / 2.0), dim)
    if y.dtype is _dtypes.bool_ or x.dtype is _dtypes.bool_:
        raise RuntimeError("cumulative_trapezoid: received a bool input for `x` or `y`, but bool is not supported")
    if x.dim() == 1:
        if x.shape[0] != y.shape[d]:
            raise RuntimeError("cumulative_trapezoid: There must be one `x` value for each sample point")
        x = _ops.view(x, [x.shape[0] if i == d else 1 for i in range(y.dim())])
    elif x.dim() < y.dim():
        x = _ops.view(x, (1,) * (y.dim() - x.dim()) + tuple(x.shape))
    # cumsum((y[:-1] + y[1:])·(x[1:] - x[:-1])) / 2
    # (ATen slices x_left before x_right: the nodes' sequence numbers, the order backward runs them in)
    x_left = D.slice(x, dim=d, start=0, end=-1, step=1)
    spacing = _ops.sub(D.slice(x, dim=d, start=1, end=None, step=1), x_left)
    pairs = _ops.add(D.slice(y, dim=d, start=0, end=-1, step=1), D.slice(y, dim=d, start=1, end=None, step=1))
    return _scalar_div(_ops.cumsum(_ops.mul(pairs, spacing), d), 2.0)


def _zeros_without(y, dim):
    """PyTorch's answer for no samples: zeros shaped like y without ``dim``."""
    shape = list(y.shape)
    del shape[_ops._wrap_dim(dim, y.dim())]
    return Tensor._make(np.zeros(shape, y._data.dtype))


def _other_first_method(name: str):
    """``x.fmax(other)``: PyTorch's method counts ``other`` as argument 1 in its TypeError."""
    fn = globals()[name]

    def method(self, other):
        if not isinstance(other, Tensor):
            raise _ops._not_a_tensor(name, other, "other", 1)
        return fn(self, other)
    method.__name__, method.__doc__ = name, fn.__doc__
    return method


def _scalar_mul(t, number: float):
    """``t * number`` as PyTorch's C++ does it: the Scalar overload (MulBackward1) for a floating ``t``."""
    return D.mul_scalar(t, other=number) if t.is_floating_point() or t.is_complex() else _ops.mul(t, number)


def _scalar_div(t, number: float):
    """``t / number`` as PyTorch's C++ does it: the Scalar overload (DivBackward1) for a floating ``t``."""
    return D.div_scalar(t, other=number) if t.is_floating_point() or t.is_complex() else _ops.div(t, number)


# torch.pi, torch.e, torch.inf, torch.nan
pi = math.pi
e = math.e
inf = math.inf
nan = math.nan


def _softmax_method(name):
    def call(self, dim=_ops._ALL_DIMS, dtype=None):
        if dim is _ops._ALL_DIMS:
            raise TypeError(f'{name}() missing 1 required positional arguments: "dim"')
        return globals()[name](self, dim, dtype=dtype)

    def method(self, *args, **kwargs):
        if args and not _arg_errors._is_index(args[0]):   # (a dim given by position: the parser's error says so)
            raise _arg_errors.must_be(name, "dim", "int", args[0], 1)
        if len(args) > 1 and args[1] is not None and not _arg_errors._check("torch.dtype", args[1]):
            raise _arg_errors.must_be(name, "dtype", "torch.dtype", args[1], 2)
        return call(self, *args, **kwargs)
    method.__name__ = name
    return method


# =============================================================================================
# torch.special, more: i0 and mvlgamma (the torch.* / Tensor names; the rest is in special.py)
# =============================================================================================

def i0(input):
    """The modified Bessel function of the first kind, order 0."""
    _real_only(input, "i0_vml_cpu")
    return _ops._unary(D.i0, input)


def i0_(input):
    """In-place i0."""
    _real_only_inplace(input, "i0_vml_cpu", "i0_")
    return _ops._unary(D.i0, input, out=input)


def mvlgamma(input, p: int):
    """The multivariate log-gamma log Γ_p(x), elementwise."""
    p = _arg_errors.scalar_arg(p, "mvlgamma", "p", 2, "int")
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("The input tensor may not be a boolean tensor.")
    if p < 1:
        raise RuntimeError("p has to be greater than or equal to 1")
    if input.is_complex():  # (PyTorch's arange of the p shifts in input's dtype)
        raise NotImplementedError(f'"arange_cpu" not implemented for \'{_ops._legacy(input.dtype)}\'')
    return _float_args(D.mvlgamma, input, p=int(p))


# =============================================================================================
# In-place forms (x.sinh_(), x.erf_() ...): the same table ops written into x
# =============================================================================================

_inplace = _ops._unary_inplace   # (a float result into an integer tensor is PyTorch's cast error)
sinh_, cosh_, asin_, acos_, atan_ = (_inplace(op) for op in (D.sinh, D.cosh, D.asin, D.acos, D.atan))
# (their nodes have no derivative, as in PyTorch)
asinh_, acosh_, atanh_ = (_inplace(D.NOT_IMPLEMENTED[name]) for name in ("asinh_", "acosh_", "atanh_"))
def _real_inplace(op, kernel: str):
    inplace = _inplace(op)
    return lambda input: (_real_only_inplace(input, kernel, op.name + "_"), inplace(input))[1]


erf_, erfc_ = _real_inplace(D.erf, "erf_vml_cpu"), _real_inplace(D.erfc, "erfc_vml_cpu")
arcsin_, arccos_, arctan_, arcsinh_, arccosh_, arctanh_ = asin_, acos_, atan_, asinh_, acosh_, atanh_
deg2rad_ = _real_inplace(D.deg2rad, "deg2rad is not supported for complex tensors.")
rad2deg_ = _real_inplace(D.rad2deg, "rad2deg is not supported for complex tensors.")
sinc_ = _inplace(D.sinc)
lgamma_, digamma_ = _real_inplace(D.lgamma, "lgamma_vml_cpu"), _real_inplace(D.digamma, "digamma")


def logit_(input, eps=None):
    """In-place logit."""
    _real_only_inplace(input, "logit_cpu", "logit_")
    return D.logit(input, out=input, dtype=_ops._float_dtype(input), eps=eps)


def nan_to_num_(input, nan: float = 0.0, posinf: float | None = None, neginf: float | None = None):
    """In-place nan_to_num (an integer tensor has nothing to replace: PyTorch copies it onto itself)."""
    nan, posinf, neginf = _nan_to_num_args("nan_to_num_", nan, posinf, neginf)
    if not (input.is_floating_point() or input.is_complex()):
        return input.copy_(input)
    info = _dtypes.finfo(input.dtype)  # (NumPy's finfo knows no bfloat16)
    return D.nan_to_num(input, out=input, nan=0.0 if nan is None else float(nan),
                        posinf=float(info.max if posinf is None else posinf),
                        neginf=float(info.min if neginf is None else neginf))


INPLACE_METHODS = [
    "sinh_", "cosh_", "asin_", "acos_", "atan_", "asinh_", "acosh_", "atanh_", "erf_", "erfc_", "arcsin_",
    "arccos_", "arctan_", "arcsinh_", "arccosh_", "arctanh_", "deg2rad_", "rad2deg_", "sinc_", "lgamma_",
    "digamma_", "logit_", "nan_to_num_",
]


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
METHODS = [
    "sinh", "cosh", "asin", "acos", "atan", "asinh", "acosh", "atanh", "erf", "erfc", "atan2", "arcsin", "arccos",
    "arctan", "arcsinh", "arccosh", "arctanh", "arctan2", "nan_to_num", "lgamma", "digamma", "hypot", "fmod",
    "remainder", "xlogy", "logaddexp", "logaddexp2", "bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_not",
    "bitwise_left_shift", "bitwise_right_shift", "cumprod", "addcmul", "addcdiv", "addcmul_", "addcdiv_",
    "logit", "deg2rad", "rad2deg", "sinc", "positive", "copysign", "float_power", "heaviside", "nansum", "nanmean",
    "dist", "take", "cummax", "cummin", "logcumsumexp",
    "erfinv", "erfinv_", "fmax", "fmin",
    "i0", "i0_", "mvlgamma", "signbit",
]
# minigrad.* functions only.
FUNCTIONS = [
    "polygamma", "softmax", "log_softmax", "std_mean", "var_mean", "pi", "e", "inf", "nan",
    "trapezoid", "trapz", "cumulative_trapezoid",
]


def _operator(fn, name: str):
    """Operator ``name`` computed by ``fn``; a TypeError (``t << [1, 2]``) becomes NotImplemented, so Python
    tries the other operand and then says "unsupported operand type(s)", as PyTorch's operators do."""
    def method(self, other):
        try:
            return fn(self, other)
        except TypeError:
            return NotImplemented
    method.__name__ = name
    method.__qualname__ = f"Tensor.{name}"
    return method


def _attach_methods():
    for name in METHODS + INPLACE_METHODS:
        setattr(Tensor, name, globals()[name])
    for name in ("nansum", "nanmean"):   # (x.nansum(1, 1): "argument 'keepdim' (position 2)", self not counted)
        setattr(Tensor, name, _arg_errors.counting_without_self(globals()[name], name))
    # PyTorch's other spellings of the in-place arithmetic, each under its own name where torch.func refuses writing
    # a captured tensor (aten::divide_.Tensor_mode)
    def overload(args, kwargs):
        return ".Tensor_mode" if kwargs.get("rounding_mode") is not None or len(args) > 1 else ".Tensor"
    Tensor.negative_ = _ops._dispatch.captured_alias(Tensor.neg_, "negative_", composite=True)
    # (with their own names in PyTorch's parser errors: x.true_divide("a") says "true_divide()")
    for alias, name in (("divide", "div"), ("true_divide", "div"), ("multiply", "mul"), ("subtract", "sub"),
                        ("divide_", "div_"), ("true_divide_", "div_"), ("multiply_", "mul_"), ("subtract_", "sub_")):
        fn = getattr(Tensor, name)
        if alias.endswith("_"):   # (vmap decomposes them, but for subtract_: its fallback's, see captured_alias)
            fn = _ops._dispatch.captured_alias(fn, alias, overload, composite=alias == "subtract_")
        setattr(Tensor, alias, _arg_errors.alias_method(fn, alias))
    # torch.softmax(x, dim) is also x.softmax(dim), where dim is required too
    Tensor.softmax = _softmax_method("softmax")
    Tensor.log_softmax = _softmax_method("log_softmax")
    Tensor.polygamma = _polygamma_method
    Tensor.fmax, Tensor.fmin = _other_first_method("fmax"), _other_first_method("fmin")
    for name in ("atan2", "arctan2", "hypot", "logaddexp", "logaddexp2"):
        setattr(Tensor, name, _other_first_method(name))
    Tensor.__lshift__ = _operator(lambda self, other: bitwise_left_shift(self, other), "__lshift__")
    Tensor.__rshift__ = _operator(lambda self, other: bitwise_right_shift(self, other), "__rshift__")
    Tensor.__rlshift__ = _operator(lambda self, other: bitwise_left_shift(other, self), "__rlshift__")
    Tensor.__rrshift__ = _operator(lambda self, other: bitwise_right_shift(other, self), "__rrshift__")


_attach_methods()


# =============================================================================================
# Missing-ops pass 2: frexp, ldexp, gcd/lcm, nextafter, renorm, complex/polar, gradient, and two
# scattering ops (index_copy, scatter_reduce)
# =============================================================================================

def _tensor_arg(name: str, arg: str, value, position: int) -> None:
    if not isinstance(value, Tensor):
        raise _arg_errors.must_be(name, arg, "Tensor", value, position)


def frexp(input):
    """(mantissa, exponent) with input = mantissa·2^exponent, 0.5 ≤ |mantissa| < 1 (exponent int32)."""
    if not input.dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    return return_types.frexp(D.frexp(input))


def ldexp(input, other):
    """input·2^other (integers give floats)."""
    _tensor_arg("ldexp", "input", input, 1)
    _tensor_arg("ldexp", "other", other, 2)
    _ops._check_broadcast(input, other)  # (the shapes before the kernel's dtype)
    if other.dtype is _dtypes.bool_ and input.dtype.is_floating_point:  # (PyTorch's kernel for a float input)
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    if input.dtype.is_floating_point and other.dtype._kind < 2 and input._data.size:
        # PyTorch's integer-exponent kernel writes into an output shaped like input, then resizes it to the
        # broadcast shape: the out= deprecation warning, even though the user passed no out=
        shape = np.broadcast_shapes(input._data.shape, other._data.shape)
        if shape != input._data.shape:
            _ops._warn_resized(input._data.shape, shape)
    return _ops._binary(D.ldexp, input, other, promote_int_to_float=True)


def ldexp_(input, other):
    """In-place ldexp."""
    _tensor_arg("ldexp_", "other", other, 1)
    _ops._vmap_batched.check_inplace("ldexp_", input, (other,))   # (vmap's fallback refuses before the kernel)
    if input.dtype._kind < 2:
        raise RuntimeError(f"ldexp can't be cast to the desired output type {_ops._legacy(input.dtype)}")
    _ops._dispatch._no_internal_overlap_first(None, input)  # (its mul_'s TensorIterator: before shapes and casts)
    if other.dtype.is_complex and not input.dtype.is_complex:
        raise RuntimeError(f"result type {_ops._legacy(other.dtype)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")
    _ops._check_broadcast(input, other)  # (then other's broadcast into input)
    shape = np.broadcast_shapes(input._data.shape, other._data.shape)
    if shape != input._data.shape:
        raise RuntimeError(f"output with shape {list(input._data.shape)} doesn't match the broadcast shape "
                           f"{list(shape)}")
    if other.dtype is _dtypes.bool_ and input.dtype.is_floating_point:
        raise NotImplementedError('"ldexp_cpu_exp" not implemented for \'Bool\'')
    return D.ldexp(input, other, dtype=input.dtype, out=input)


def _two_tensors(name: str, input, other) -> None:
    """PyTorch's (Tensor input, Tensor other) functions: both tensors, then broadcastable (before any dtype check)."""
    _tensor_arg(name, "input", input, 1)
    _tensor_arg(name, "other", other, 2)
    _ops._check_broadcast(input, other)


def _gcd_lcm(name: str, ufunc, input, other, out=None):
    if out is None:
        _two_tensors(name, input, other)
        if _ops._vmap_batched.DEPTH[0]:
            _ops._vmap_batched.check_first_example(name, input, other)
    else:
        _ops._vmap_batched.check_inplace(name, out, (other,))
    _tensor_arg(name, "other", other, 2 if out is None else 1)
    dt = _dtypes.result_type(input, other)
    if dt._kind != 1 or dt in _dtypes.BAREBONES_UNSIGNED:
        if out is None:   # (the kernel's check, after VariableType collected the edges)
            _dispatch.check_rebased_inputs(input, other)
        raise NotImplementedError(f"\"{name.rstrip('_')}_cpu\" not implemented for '{_ops._legacy(dt)}'")
    if out is not None and dt._kind > out.dtype._kind:  # (an integer result into a bool tensor)
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(out.dtype)}")
    try:
        values = ufunc(input._data.astype(dt.np), other._data.astype(dt.np))
    except ValueError:
        _ops._raise_broadcast_error(input._data.shape, other._data.shape)
    if out is None:
        out = Tensor._make(np.asarray(values))
        return _ops._vmap_batched.follow(out, input, other) if _ops._vmap_batched.DEPTH[0] else out
    return _ops.copy_(out, Tensor._make(np.asarray(values)))


def gcd(input, other):
    """Greatest common divisor, elementwise (integers only; never negative)."""
    return _gcd_lcm("gcd", np.gcd, input, other)


def lcm(input, other):
    """Least common multiple, elementwise (integers only; never negative)."""
    return _gcd_lcm("lcm", np.lcm, input, other)


def gcd_(input, other):
    """In-place gcd."""
    return _gcd_lcm("gcd_", np.gcd, input, other, out=input)


def lcm_(input, other):
    """In-place lcm."""
    return _gcd_lcm("lcm_", np.lcm, input, other, out=input)


def nextafter(input, other):
    """The next representable float after input in the direction of other."""
    _two_tensors("nextafter", input, other)
    dt = _dtypes.result_type(input, other)
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_ops._legacy(dt)}'")
    return _ops._binary(D.nextafter, input, other)


def nextafter_(input, other):
    """In-place nextafter."""
    _tensor_arg("nextafter_", "other", other, 1)
    _ops._vmap_batched.check_inplace("nextafter_", input, (other,))   # (vmap's fallback refuses before the kernel)
    dt = _dtypes.result_type(input, other)
    if dt._kind > input.dtype._kind:   # (TensorIterator's cast check, before the kernel's dtype error)
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")
    if not dt.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_ops._legacy(dt)}'")
    return D.nextafter(input, other, dtype=input.dtype, out=input)


@_dispatch.kernel_checks
def _check_renorm(input, p, dim, maxnorm) -> None:
    for name, value in (("p", p), ("maxnorm", maxnorm)):   # (a complex Scalar, even with no imaginary part)
        if isinstance(value, (complex, np.complexfloating)):
            raise RuntimeError(f"renorm: {name} must be real-valued")
    if not p > 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    if input.dim() < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.dim()} dimensions")
    _ops._wrap_dim(dim, input.dim())
    if not (input.is_floating_point() or input.is_complex()):
        raise RuntimeError("linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                           f"{_ops._legacy(input.dtype)}")
    if p == np.inf and input.numel() == 0:   # (its norm over the other dims has no identity on an empty one)
        kept = _ops._wrap_dim(dim, input.dim())
        for d, n in enumerate(input.shape):
            if d != kept and n == 0:
                raise RuntimeError(f"linalg.vector_norm cannot compute the inf norm on the dimension {d}because "
                                   "this dimension is empty and the operation does not have an identity")


def renorm(input, p, dim, maxnorm):
    """Each slice along ``dim`` rescaled so that its p-norm is at most ``maxnorm``."""
    _check_renorm(input, p, dim, maxnorm)
    return D.renorm(input, p=p, dim=dim, maxnorm=maxnorm)


def renorm_(input, p, dim, maxnorm):
    """In-place renorm."""
    _check_renorm(input, p, dim, maxnorm)
    return D.renorm(input, p=p, dim=dim, maxnorm=maxnorm, out=input)


def _complex_parts(name: str, second_name: str, first, second, op):
    _tensor_arg(name, {"complex": "real", "polar": "abs"}[name], first, 1)
    _tensor_arg(name, second_name, second, 2)
    try:
        for t in (first, second):
            if t.dtype not in (_dtypes.float16, _dtypes.float32, _dtypes.float64):
                raise RuntimeError("Expected both inputs to be Half, Float or Double tensors but got "
                                   f"{_ops._legacy(first.dtype)} and {_ops._legacy(second.dtype)}")
        if first.dtype is not second.dtype:
            raise RuntimeError(f"Expected object of scalar type {_ops._legacy(first.dtype)} but got scalar type "
                               f"{_ops._legacy(second.dtype)} for second argument")
        if name == "polar" and first.dtype is _dtypes.float16:  # (no ComplexHalf kernel of polar, after the shapes)
            np.broadcast_shapes(first._data.shape, second._data.shape)
            raise NotImplementedError("\"polar_cpu\" not implemented for 'Half'")
        return op(first, second)
    except (RuntimeError, ValueError) as e:   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(first, second)
        if isinstance(e, ValueError):
            _ops._raise_broadcast_error(first._data.shape, second._data.shape)
        raise


def complex_(real, imag):
    """torch.complex: real + i·imag (float32 parts give complex64, float64 parts complex128).

    (Named complex_ here, not to hide Python's complex in this module; ``__init__`` exports it as complex.)
    """
    return _complex_parts("complex", "imag", real, imag, D.complex_)


def polar(abs, angle):
    """abs·(cos(angle) + i·sin(angle))."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("polar", polar, **locals())
    return _complex_parts("polar", "angle", abs, angle, D.polar)


def gradient(input, *, spacing=1, dim=None, edge_order=1):
    """Central differences along each dim (one-sided at the edges), as a tuple: PyTorch's slices and sums."""
    if spacing is None:  # (PyTorch's Python wrapper: spacing=None means unit spacing)
        spacing = 1
    dims = list(range(input.dim())) if dim is None else [dim] if isinstance(dim, int) else list(dim)
    scalar_spacing = not isinstance(spacing, (list, tuple))
    if input.dtype is _dtypes.uint8:
        raise RuntimeError("torch.gradient does not support uint8 input.")
    if not scalar_spacing and dim is None and len(spacing) != input.dim():
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar, or a list of length equal "
                           f"to 'self.dim() = {input.dim()}', since dim argument was not given, but got a list of "
                           f"length {len(spacing)}")
    if not scalar_spacing and dim is not None and len(spacing) != len(dims):
        raise RuntimeError("torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                           f"arguments to have the same length, but got a spacing argument of length {len(spacing)} "
                           f"and a dim argument of length {len(dims)}.")
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    dims = [_ops._wrap_dim(d, input.dim()) for d in _ops._raw_dims(dims, input.dim())]
    if any(input.shape[d] < edge_order + 1 for d in dims):
        raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    spacings = [spacing] * len(dims) if scalar_spacing else list(spacing)
    if any(isinstance(h, Tensor) for h in spacings):   # coordinates of the samples along each dim
        for i, h in enumerate(spacings):
            if not isinstance(h, Tensor):
                raise TypeError(f"expected Tensor as element {i} in argument 1, but got {type(h).__name__}")
            if h.dim() != 1:
                raise RuntimeError("torch.gradient expected each element of spacing to have one dimension, but got "
                                   f"an element with {h.dim()} dimensions!")
        return tuple(_gradient_at(input, d, h, edge_order) for d, h in zip(dims, spacings))
    return tuple(_gradient_along(input, d, h, edge_order) for d, h in zip(dims, spacings))


def _gradient_along(x, d: int, h, edge_order: int):
    """(x[i+1] - x[i-1]) / 2h inside, first- or second-order one-sided differences at both ends."""
    if x.dtype is _dtypes.bool_:   # (PyTorch subtracts the slices as they are: bool - bool is refused)
        _ops._refuse_bool_sub(x, x)
    if x.dtype._kind < 2:   # (integers: the differences divided give floats; no graph to keep)
        x = _ops.to(x, _dtypes.get_default_dtype())

    def s(start, end=None):   # x[start:end] along d (SliceBackward0, as PyTorch's at::slice)
        return x[(slice(None),) * d + (slice(start, end),)]

    def mul(t, number):       # PyTorch's C++ Scalar products and quotients: MulBackward1, DivBackward1
        return D.mul_scalar(t, other=number)

    def div(t, number):
        return D.div_scalar(t, other=number)

    # (each difference's operands made right to left, as the C++ compiler evaluates them: the order of the slices'
    # nodes is the order their gradients are added in backward)
    lower = s(0, -2)
    center = div(_ops.sub(s(2), lower), h)
    if edge_order == 1:
        lower = s(0, 1)
        first = div(_ops.sub(s(1, 2), lower), h)
        lower = s(-2, -1)
        last = div(_ops.sub(s(-1), lower), h)
    else:   # (-3/2·x0 + 2·x1 - 1/2·x2) / h, and its mirror image at the end
        t2, t1 = mul(s(2, 3), 0.5), mul(s(1, 2), 2)
        first = div(_ops.sub(_ops.add(mul(s(0, 1), -1.5), t1), t2), h)
        t2, t1 = mul(s(-1), 1.5), mul(s(-2, -1), 2)
        last = div(_ops.add(_ops.sub(mul(s(-3, -2), 0.5), t1), t2), h)
    return _ops.cat([first, div(center, 2), last], d)


def _gradient_at(x, d: int, coordinates, edge_order: int):
    """The same for samples at uneven ``coordinates``: the second-order formulas for uneven steps."""
    def s(start, end=None):
        return x[(slice(None),) * d + (slice(start, end),)]

    def weighted(a, b, c, *bounds):   # a·x_i + b·x_j + c·x_k, its products made right to left (as C++ does)
        tc = _ops.mul(c, s(*bounds[2]))
        tb = _ops.mul(b, s(*bounds[1]))
        return _ops.add(_ops.add(_ops.mul(a, s(*bounds[0])), tb), tc)

    shape = [1] * x.dim()
    shape[d] = -1
    h = coordinates.diff()                                          # the steps
    h1, h2 = h[:-1], h[1:]
    a = _ops.div(_ops.neg(h2), _ops.mul(h1, _ops.add(h1, h2)))
    b = _ops.div(_ops.sub(h2, h1), _ops.mul(h1, h2))
    c = _ops.div(h1, _ops.mul(h2, _ops.add(h1, h2)))
    center = weighted(*(_ops.reshape(w, shape) for w in (a, b, c)), (0, -2), (1, -1), (2, None))
    if edge_order == 1:
        lower = s(0, 1)
        first = _ops.div(_ops.sub(s(1, 2), lower), h[0])
        lower = s(-2, -1)
        last = _ops.div(_ops.sub(s(-1), lower), h[-1])
    else:
        h0, h1, hl, hm = h[0], h[1], h[-1], h[-2]
        first = weighted(_ops.div(_ops.neg(_ops.add(D.mul_scalar(h0, other=2.0), h1)), _ops.mul(h0, _ops.add(h0, h1))),
                         _ops.div(_ops.add(h0, h1), _ops.mul(h0, h1)),
                         _ops.div(_ops.neg(h0), _ops.mul(h1, _ops.add(h0, h1))), (0, 1), (1, 2), (2, 3))
        last = weighted(_ops.div(hl, _ops.mul(hm, _ops.add(hl, hm))),
                        _ops.div(_ops.neg(_ops.add(hl, hm)), _ops.mul(hl, hm)),
                        _ops.div(_ops.add(D.mul_scalar(hl, other=2), hm), _ops.mul(hl, _ops.add(hl, hm))),
                        (-3, -2), (-2, -1), (-1, None))
    return _ops.cat([first, center, last], d)


def _index_copy(input, dim, index, source, out=None):
    _index_copy_checks(input, dim, index, source)
    return D.index_copy(input, index, source, dim=dim, source_dim=source.dim(), out=out)


@_dispatch.kernel_checks
def _index_copy_checks(input, dim, index, source) -> None:
    _ops._wrap_dim(dim, input.dim())  # (the dim's error first)
    if index.dim() >= 2:
        raise IndexError(f"index_copy_(): Index should have dimension 1 or 0 (got {index.dim()})")
    n = index.numel()
    if source.dim() == 0 and n != 1:
        raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
    if source.dim() != input.dim() and source.dim() != 0 and input.dim() != 0:
        raise IndexError("index_copy_(): When source and destination are not scalars, their dimensionality must "
                         f"match. Source dimensionality ({source.dim()}), destination dimensionality ({input.dim()})")
    if index.dtype is not _dtypes.int64:
        raise RuntimeError(f"index_copy_(): Expected a long tensor for index, but got {_ops._legacy(index.dtype)}")
    if input.dtype is not source.dtype:
        raise RuntimeError("index_copy_(): self and source expected to have the same dtype, but got (self) "
                           f"{_ops._legacy(input.dtype)} and (source) {_ops._legacy(source.dtype)}")
    d = _ops._wrap_dim(dim, input.dim())
    kept = [list(t.shape[:d]) + list(t.shape[d + 1:]) for t in (input, source)]
    if kept[0] != kept[1]:
        raise RuntimeError("index_copy_(): Source/destination tensor must have same slice shapes. Destination slice "
                           f"shape: {' '.join(map(str, kept[0]))} at dimension {d} and source slice shape: "
                           f"{' '.join(map(str, kept[1]))} at dimension 0.")
    if source.dim() and n != source.shape[d]:
        raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
                         f"({source.shape[d]})")
    size = input.shape[d] if input.dim() else 1
    bad = index._data[(index._data >= size) | (index._data < 0)]  # (no negative index either)
    if bad.size and not (input.dim() > 1 and input._data.size == 0):  # (PyTorch: no check, nothing copied)
        raise IndexError(f"index_copy_(): index {int(bad.flat[0])} is out of bounds for dimension {d} with size "
                         f"{size}")


def index_copy(input, dim, index, source):
    """A copy of input with its slices at ``index`` along ``dim`` replaced by source's."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("index_copy", index_copy, **locals())
    vb = _ops._vmap_batched
    if vb.DEPTH[0] and isinstance(index, Tensor) and isinstance(source, Tensor) \
            and vb.levels_of(input, index, source):
        return _index_copy_as_scatter(input, dim, index, source)
    return _index_copy(input, dim, index, source)


def _index_copy_as_scatter(input, dim, index, source):
    """index_copy on a batched tensor, as PyTorch's vmap runs it: a scatter (functorch's ``index_copy_decomp``).

    The index is first spread over self's shape (sizes [.., len(index) at dim, ..]); scatter's checks and errors
    (not index_copy's) are what the user sees."""
    if input.dim() > index.dim():
        if index.dim() == 0:
            index = _ops.expand(index, input.shape)
        else:
            d = _ops._wrap_dim(dim, input.dim())
            shape = [1] * input.dim()
            shape[d] = index.shape[0]
            index = index.view(shape)
            index = _ops.expand(index, (*input.shape[:d], index.shape[d], *input.shape[d + 1:]))
    return _ops.scatter(input, dim, index, source)


def index_copy_(input, dim, index, source):
    """In-place index_copy."""
    _ops._vmap_batched.check_inplace("index_copy_", input, (index, source))  # (vmap's refusal before dtype checks)
    _ops._dispatch._check_inplace(input, _ops._STATE.enabled and _ops._any_requires_grad(source))  # (autograd's first)
    _ops._refuse_source_overlap(input, source)
    return _index_copy(input, dim, index, source, out=input)


_REDUCTIONS = ("sum", "prod", "mean", "amax", "amin", "max", "min")   # (max, min: amax, amin)


def _scatter_reduce(input, dim, index, src, reduce, include_self, out=None):
    try:
        # (PyTorch's order: the dim, the dtypes of index, then of self and src, then the reduction's name)
        _ops._wrap_dim(dim, input.dim())
        index = _ops._check_index(index, "scatter_reduce", "scatter(): Expected dtype int32/int64 for index")
        if src.dtype is not input.dtype:
            raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
        if reduce not in _REDUCTIONS:
            raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
        d = _ops._wrap_dim(dim, input.dim())
        if index.numel():   # PyTorch's scatter_shape_check
            for other, name in ((input, "self"), (src, "src")):
                if max(index.dim(), 1) != max(other.dim(), 1):
                    raise RuntimeError(f"Index tensor must have the same number of dimensions as {name} tensor")
            # (a 0-d self or src counts as size 1: PyTorch's ensure_nonempty_size)
            sizes = [(index.shape[i], input.shape[i] if input.dim() else 1, src.shape[i] if src.dim() else 1)
                     for i in range(index.dim())]
            if any((i != d and n > s) or n > r for i, (n, s, r) in enumerate(sizes)):
                raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than self {list(input.shape)} "
                                   f"apart from dimension {d} and to be no larger size than src {list(src.shape)}")
        # (the kernel's loop checks the indices, a 0-dim input counting as size 1; include_self=False first fills the
        # reduced places with a scatter_ of the reduction's identity, whose loop checks them before any dtype)
        size = input._data.shape[d] if input.dim() else 1
        if not include_self:
            _ops._check_bounds(index._data, size, d, input, index, src)
        if (input.is_complex() and reduce in ("amax", "amin")) or (input.dtype is _dtypes.bool_ and reduce == "mean"):
            raise NotImplementedError(f"\"scatter_gather_tensor_cpu_reduce_{reduce}\" not implemented for "
                                      f"'{_ops._legacy(input.dtype)}'")  # (no complex amax/amin, no bool mean kernel)
        _ops._check_bounds(index._data, size, d, input, index, src)
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, src)
        raise
    if out is None and input.is_complex() and grad_mode.is_grad_enabled() and (input.requires_grad or
                                                                                src.requires_grad):
        raise RuntimeError("scatter_reduce does not support automatic differentiation for outputs with complex "
                           "dtype.")
    return D.scatter_reduce(input, index, src, dim=dim, reduce=reduce, include_self=bool(include_self), out=out)


def scatter_reduce(input, dim, index, src, reduce, *, include_self=True):
    """src's elements reduced (sum, prod, mean, amax, amin) into input at ``index`` along ``dim``."""
    return _scatter_reduce(input, dim, index, src, reduce, include_self)


def scatter_reduce_(input, dim, index, src, reduce, *, include_self=True):
    """In-place scatter_reduce."""
    _ops._vmap_batched.check_inplace("scatter_reduce_", input, (index, src))  # (before the dtype check)
    return _scatter_reduce(input, dim, index, src, reduce, include_self, out=input)


METHODS += ["frexp", "ldexp", "ldexp_", "gcd", "gcd_", "lcm", "lcm_", "nextafter", "renorm", "index_copy",
            "scatter_reduce"]
FUNCTIONS += ["polar", "gradient"]
for _name in ("frexp", "ldexp", "ldexp_", "gcd", "gcd_", "lcm", "lcm_", "nextafter", "renorm", "index_copy",
              "scatter_reduce", "nextafter_", "renorm_", "index_copy_", "scatter_reduce_"):
    setattr(Tensor, _name, globals()[_name])   # (the last four: Tensor methods only, as in PyTorch)
