"""PyTorch's efficient zero tensors (``ZeroTensor``), on NumPy.

Some derivative formulas return ``at::_efficientzerotensor(...)``: a tensor of zeros with no memory behind it
(the real ``sgn``'s gradient, so every second derivative through ``abs``, ``l1_loss``, ``norm(p=1 or inf)``), and
forward AD gives one as the tangent of an input that has none (``autograd/forward_ad.py``: x_dual / y, y's tangent).
A program sees it: ``torch._is_zerotensor`` says so, ``tolist()`` / ``numpy()`` / in-place writes refuse it, and
the few ops PyTorch gives a ZeroTensor kernel skip the arithmetic: a product or a quotient 0/y is a ZeroTensor
again (``0 * inf`` is 0, never NaN, and never -0.0), ``0 + y`` is a copy of y (so a -0.0 stays -0.0), ``x / 0`` is
all +inf and ``0 / 0`` all NaN. Every other op reads plain zeros (``-z`` is -0.0, ``z.sum()`` is 0).

minigrad gives the tensor plain zeros and records the array that owns them here, as ``_conj.MIRRORS`` records the
mirrors: views of it (``z[0]``, ``z.t()``, ``z.detach()``) are ZeroTensors too, and the result of any op is not.
"""
from __future__ import annotations

import weakref

import numpy as np

from ._strides import storage_owner as _owner

# id(array owning a ZeroTensor's zeros) -> a weak reference to it (empty while none is alive: one test per op)
ZEROS: dict = {}

_IMMUTABLE = ("ZeroTensors are immutable. Please use the materialized zero tensor obtained using .clone() if you "
              "want a mutable tensor.")
_IMMUTABLE_COPY = ("ZeroTensors are immutable. Please materialize the tensor using `.clone()`, if you want a "
                   "mutable zero tensor.")

# The ops with a ZeroTensor kernel, by node name: how each combines its operands (the Scalar forms and rsub
# redispatch to the Tensor ones in PyTorch; "product": a ZeroTensor if either operand is one). Not div.Scalar
# (DivBackward1, a C++ formula's t / n): the ZeroTensor fallback materializes its zeros, so the quotient is a plain
# tensor (smooth_l1_loss_double_backward's grad * mask / beta can then be divided in place)
_KINDS = {"MulBackward0": "product", "MulBackward1": "product", "DotBackward0": "product",
          "VdotBackward0": "product", "LinalgCrossBackward0": "product", "DivBackward0": "div",
          "AddBackward0": "add", "AddBackward1": "add", "SubBackward0": "sub",
          "SubBackward1": "sub", "RsubBackward0": "rsub", "RsubBackward1": "rsub"}


def efficient_zeros(shape, dtype: np.dtype) -> np.ndarray:
    """Zeros of ``shape`` and ``dtype`` registered as a ZeroTensor's memory (``at::_efficientzerotensor``)."""
    data = np.zeros(tuple(shape), dtype)
    key = id(data)
    ZEROS[key] = weakref.ref(data, lambda _, key=key: ZEROS.pop(key, None))
    return data


def mark(t):
    """Make ``t`` (a tensor of fresh zeros) a ZeroTensor: its memory is registered as one's."""
    data = _owner(t._data)
    key = id(data)
    ZEROS[key] = weakref.ref(data, lambda _, key=key: ZEROS.pop(key, None))
    return t


def is_zero(t) -> bool:
    """Whether tensor ``t`` is a ZeroTensor (or a view of one)."""
    if not ZEROS:
        return False
    owner = _owner(t._data)
    ref = ZEROS.get(id(owner))
    return ref is not None and ref() is owner


def check_mutable(t, op_name: str = "") -> None:
    """PyTorch's refusal of an in-place write into a ZeroTensor (before anything is written)."""
    if is_zero(t):
        raise RuntimeError(_IMMUTABLE_COPY if op_name == "copy_" else _IMMUTABLE)


def intercept(op, tensors, dtype, out, args, run):
    """The ZeroTensor kernels of mul/div/add/sub (``run()``: the op as usual, recorded as usual); None: no
    ZeroTensor involved, or an op without such a kernel."""
    if out is not None:
        check_mutable(out, op.name)
        return None
    kind = _KINDS.get(op.node_name)
    if kind is None:
        return None
    zero = [is_zero(t) for t in tensors]
    if not any(zero):
        return None
    result = run()   # (the node, the result's dtype and shape: then only the values are PyTorch's)
    want = _kernel_dtype(tensors, args)
    if want is not None and want != result.dtype and (kind != "div" or want.is_floating_point or want.is_complex):
        result = run(want)   # (an integral quotient is the default float dtype's, as before)
    shape, dt = result._data.shape, result._data.dtype
    # the operands in the order of mul/div/add/sub's (self, other), a Scalar operand as a 0-d array
    operands = [t._data for t in tensors] + ([np.asarray(args["other"])] if len(tensors) == 1 else [])
    zero += [False] * (2 - len(zero))
    alpha = args.get("alpha", 1)
    if kind == "rsub":   # (rsub(x, y, α) is sub(y, x, α))
        kind, operands, zero = "sub", operands[::-1], zero[::-1]
    if kind == "sub":    # (sub(x, y, α) is add(x, y, -α))
        kind, alpha = "add", -alpha
    if kind == "product" or (kind == "div" and zero[0] and not zero[1]) or (kind == "add" and all(zero)):
        values = efficient_zeros(shape, dt)                    # 0·y, x·0, 0/y, 0 + 0: a ZeroTensor
    elif kind == "div":
        values = np.full(shape, np.nan if zero[0] else np.inf, dt)   # 0/0, x/0 (whatever x's sign)
    elif not zero[0]:
        values = np.array(np.broadcast_to(operands[0], shape), dt)   # x + 0: a copy of x (α unread)
    else:
        values = np.array(np.broadcast_to(operands[1], shape), dt)   # 0 + α·y: a copy of y, times α unless 1
        if alpha != 1:
            values = np.multiply(values, alpha, dtype=dt)
    result._data = values
    return result


def _kernel_dtype(tensors, args):
    """The result dtype of PyTorch's ZeroTensor kernels when a Python number is an operand, else None: they promote
    on meta copies of the operands, where the number is no longer a wrapped number but a 0-dim tensor of its own
    dtype (double, int64, bool, complex128), so a 0-dim float32 ZeroTensor times 2.0 is float64."""
    from ._dtypes import result_type
    from ._tensor import Tensor
    numbers = [t._wrapped_number for t in tensors if t._wrapped_number is not None]
    if len(tensors) == 1 and "other" in args:   # (a Scalar overload: mul(Tensor, Scalar) ...)
        numbers.append(args["other"])
    if not numbers:
        return None
    operands = [t for t in tensors if t._wrapped_number is None]
    operands += [Tensor._make(np.asarray(n, np.uint64 if type(n) is int and n >= 2**63 else None)) for n in numbers]
    return result_type(*operands)


def _efficientzerotensor(*size, dtype=None, layout=None, device=None, pin_memory=False, requires_grad=False):
    """``torch._efficientzerotensor(*size)``: a ZeroTensor of that size (float32 unless ``dtype``)."""
    from . import _creation
    _creation.check_creation_device(device)
    dt = _creation._dt(dtype)
    return _creation._finish(efficient_zeros(_creation._size(size, "_efficientzerotensor"), dt.np),
                             _creation._flag("_efficientzerotensor", requires_grad))


def _is_zerotensor(input) -> bool:
    """``torch._is_zerotensor(t)`` / ``t._is_zerotensor()``: whether t is an efficient zero tensor."""
    return is_zero(input)
