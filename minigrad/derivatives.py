"""THE derivative table: every differentiable operation, its forward and one formula per input.

Read an entry like a row of PyTorch's ``tools/autograd/derivatives.yaml``::

    mul = Op("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
             self=lambda grad, other: grad * other.conj(),     # d(self*other)/d(self) = other
             other=lambda grad, self: grad * self.conj())      # d(self*other)/d(other) = self

- the second argument is the grad_fn's class name (PyTorch's);
- ``forward`` works on NumPy arrays;
- each formula is a vector-Jacobian product: given ``grad`` = dL/d(output) it returns dL/d(input),
  written with minigrad tensor ops so it can itself be differentiated (``create_graph=True``);
- the formula's parameter names say what the node saves (``_saved_self``, ``_saved_other`` ...);
- gradients may come back broadcast (shape of the output) — the engine sums them back to each input's
  shape in one place (``autograd/engine.py: _validate_outputs``). Complex gradients follow PyTorch's
  convention (conjugate Wirtinger), hence the ``.conj()``s, which are free for real tensors.

Sections: elementwise · arithmetic · reductions · shape and views · linear algebra · neural-network ops
· copies and in-place · (at the end) convolution, pooling, normalization. The user-facing functions
(argument parsing, dtype promotion, errors) are in ``_ops.py`` and ``nn/functional.py``; they call these entries.
"""
from __future__ import annotations

import contextlib
import math
import warnings

import numpy as np

from . import (
    _batch_norm_cpu,
    _complex_bits,
    _dfti,
    _dtypes,
    _float_math,
    _group_norm_cpu,
    _lapack,
    _layer_norm_cpu,
    _linalg_kernels,
    _loss_sums,
    _matmul,
    _meta,
    _norm_f32,
    _onednn_gelu,
    _pdist_cpu,
    _softmax_cpu,
    _strides,
    _var_cpu,
    _vmap_batched,
    _vml,
    _zerotensor,
)
from . import _polygamma as _polygamma_kernels
from . import _reduce as _sums
from ._dispatch import _QUIET, _STATE, Absent, Op, _errstate_get, _extras, _make_tensor, _np_errstate, cast_array, joint
from ._float_math import via_float64 as _via_float64
from ._fused import fma
from ._norm_f32 import vector_norm as _vector_norm_f32
from ._per_thread import PerThreadFlag
from ._tensor import Tensor

# ruff: noqa: E731  (lambdas are the point of a table)


def _ops():
    """The ``_ops`` module (it imports this one, so it is imported on first use and then kept)."""
    if not _OPS_MODULE:
        from . import _ops as ops
        _OPS_MODULE.append(ops)
    return _OPS_MODULE[0]


_OPS_MODULE: list = []  # an import statement per formula call would cost ~0.9 us


def _untracked() -> bool:
    """True when a formula's ops would record nothing (no create_graph, profiler or forward AD).

    Then a hot formula may run its NumPy directly (same arrays, same ufuncs, so the same bits): the
    tensor ops' argument checks, views and nodes only matter for the double-backward graph.
    """
    return not _STATE.enabled and not _extras[0]


def _conj(x):
    """``x.conj()``; ``x`` may also be a saved Python number (``x * 1.5``: see ``OpNode._apply``)."""
    return x.conj() if isinstance(x, Tensor) else x.conjugate()


def _conj_saved(x):
    """``x.conj()`` for mul/div's saved ``other``, which may be a saved Python number (a wrapped number).

    PyTorch's conj() of a real wrapped number is the number itself; of a complex one, a plain 0-dim complex128
    tensor, no longer a wrapped number: under create_graph ``grad * other.conj()`` then promotes (complex128,
    cast back by a ToCopyBackward0), as it does there.
    """
    if type(x) is complex:
        return Tensor._make(np.array(x.conjugate(), dtype=np.complex128))
    return x.conj() if isinstance(x, Tensor) else x


def _zeros_on(grad, sizes) -> Tensor:
    """``at::zeros(sizes, grad.options())``: zeros of grad's dtype, on grad's device (cpu or meta)."""
    return _meta.follow(_ops().zeros(sizes, dtype=grad.dtype), grad)


def _zeros_like_input(grad, meta) -> Tensor:
    """PyTorch's ``zeros_like(src)`` in a formula: zeros of an input's saved (shape, dtype), on grad's device (inside
    vmap, select_scatter(grad, zeros_like(src)) then meets the batch rule's dtype check)."""
    from ._dtypes import from_numpy
    return _meta.follow(_ops().zeros(meta[0], dtype=from_numpy(meta[1])), grad)


def _numpy_result(forward, *arrays) -> Tensor:
    """``forward(*arrays)`` as a tensor, with NumPy's warnings off as for every op (PyTorch gives inf/nan); on the
    meta device when an array is a meta tensor's (a formula's fast path past the ops: see _meta.py)."""
    if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already, see _errstate.py)
        out = _make_tensor(np.asarray(forward(*arrays)))
    else:
        token = _np_errstate.set(_QUIET)
        try:
            out = _make_tensor(np.asarray(forward(*arrays)))
        finally:
            _np_errstate.reset(token)
    if _meta.METAS and any(isinstance(a, np.ndarray) and _meta.holds_meta(a) for a in arrays):
        _meta.mark(out)
    return out


def _binary_op_layout(kernel):
    """``kernel(grad, self)`` with its result laid out as TensorIterator's binary_op(grad, self) output (a kernel
    fast path's result, which NumPy lays out in C order or in its own order: C order first, which iterator_layout
    takes its input to be)."""
    return lambda g, x: _strides.iterator_layout(_strides.contiguous(np.asarray(kernel(g, x))), (g, x))


# =============================================================================================
# Formula helpers (tensor code, so they are differentiable too)
# =============================================================================================

def sum_backward(grad, sizes, dim, keepdim):
    """d sum(x, dim) / dx: put the reduced dims back and expand.  grad ↦ expand(unsqueeze(grad, dim))."""
    if not keepdim and len(sizes) > 0 and dim is not None and dim != () and dim != []:  # (no dims: all reduced,
        # the 0-dim gradient expands as it is, as PyTorch's sum_backward does)
        if isinstance(dim, int) or (isinstance(dim, (tuple, list)) and len(dim) == 1):
            grad = grad.unsqueeze(dim if isinstance(dim, int) else dim[0])  # (unsqueeze_multiple: one dim as given)
        else:
            for d in sorted(_dims(dim, len(sizes))):
                grad = grad.unsqueeze(d)
    return expand(grad, size=sizes)  # (the op itself: the sizes need none of Tensor.expand's checks)


def _dims(dim, ndim):
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return [d % ndim if ndim else 0 for d in dim]


def _rank0_ok(forward, key="dim"):
    """Let a forward taking ``dim`` accept a 0-dim input with dim 0 or -1, as PyTorch does.

    NumPy has no axis 0 on a 0-dim array, so such an input runs as a 1-element vector over axis 0
    and every output is viewed back as 0-dim (reducing or scanning one element gives that element's shape).
    """
    def wrapped(*arrays, **args):
        dim = args[key]
        if arrays[0].ndim != 0 or dim is None or dim == ():
            return forward(*arrays, **args)
        args[key] = 0 if isinstance(dim, int) else (0,) * len(dim)
        out = forward(*(a.reshape(1) if a.ndim == 0 else a for a in arrays), **args)
        if isinstance(out, tuple):
            return tuple(np.asarray(o).reshape(()) for o in out)
        return np.asarray(out).reshape(())
    return wrapped


def _reduced_count(sizes, dim) -> int:
    n = 1
    for d in _dims(dim, len(sizes)):
        n *= sizes[d] if sizes else 1
    return n


def unsqueeze_to(grad, sizes, dim=None):
    """Inverse of squeeze: restore the size-1 dims of ``sizes`` (one unsqueeze each, as PyTorch's)."""
    if dim is None:
        for d, n in enumerate(sizes):
            if n == 1:
                grad = grad.unsqueeze(d)
        return grad
    if isinstance(dim, (tuple, list)) and not dim:   # squeeze(x, ()) squeezed nothing: grad passes as it is
        return grad
    for d in sorted(_dims(dim, len(sizes))):
        if len(sizes) and sizes[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


def pow_backward(grad, self, exponent):
    """d x^p / dx = p·x^(p-1)   (0 when p == 0, as PyTorch)."""
    if exponent == 0:   # (PyTorch: zeros_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT), C order whatever self's layout)
        from ._creation import zeros_like
        return zeros_like(self, memory_format=_ops()._layout.contiguous_format)
    # (not for a ZeroTensor grad, the real sgn's: PyTorch's product with it is a ZeroTensor, 0 where x is inf)
    if exponent == 2 and type(exponent) is not complex and _untracked() and not _zerotensor.is_zero(grad):
        g, x = grad._data, self._data
        # (same shapes: an unpack hook may give a saved x of another shape, whose error is the tensor ops')
        if g.dtype == x.dtype and g.dtype.kind == "f" and g.shape == x.shape:
            # (below: x.pow(1.0) is x, * 2.0, g *; the product laid out as TensorIterator's of grad, then x:
            # C order, as NumPy's, when both are C-contiguous, W4's loss; no layout work then)
            kernel = lambda g, x: g * (x * 2.0)  # noqa: E731
            if not (g.flags.c_contiguous and x.flags.c_contiguous):
                kernel = _binary_op_layout(kernel)
            return _numpy_result(kernel, g, x)
    # PyTorch takes the exponent as a double (or complex) here, and the number times a tensor is the
    # Scalar overload: a double-backward graph shows PowBackward0(2.0) and MulBackward1(3.0) for x ** 3.
    exponent = complex(exponent) if isinstance(exponent, complex) else float(exponent)
    return grad * mul_scalar(self.pow(exponent - 1), other=exponent).conj()


def pow_backward_self(grad, self, exponent):
    """d x^y / dx = y·x^(y-1)   (0 where y == 0)."""
    ops = _ops()
    ops._refuse_bool_sub(exponent, 1)  # (C++ y - 1: sub.Scalar, a SubBackward1, which refuses a bool y)
    # (PyTorch's zero is ``at::zeros({}, grad.options())``: a new 0-d tensor, not batched under vmap even when
    # grad is, so a float64 batched 0-d grad does not promote the float32 product; see _vmap_batched)
    return ops.where(exponent == 0.0, ops.zeros((), dtype=grad.dtype),
                     grad * (exponent * self.pow(sub_scalar(exponent, other=1))).conj())


def pow_backward_exponent(grad, self, exponent, result):
    """d x^y / dy = x^y·log(x)   (0 where x == 0 and y >= 0)."""
    ops = _ops()
    if exponent.is_complex():  # (PyTorch's test: a real, non-negative exponent)
        cond = (self == 0) & ((exponent.imag == 0) & (exponent.real >= 0))
    else:
        cond = (self == 0) & (exponent >= 0)
    from ._dtypes import result_type
    promoted = result_type(self, exponent)   # (not result's dtype: x **= y writes a float16 x for a float32 y)
    if self.dtype != promoted:  # (PyTorch's self.to(promoted dtype): log of a float16 base in float64, of a
        self = self.to(promoted)  # negative real base in the complex result's dtype)
    return grad * ops.where(cond, 0.0, (result * self.log()).conj())


def select_backward(grad, sizes, dim, index):
    """Scatter the selected row back into zeros of the input's shape."""
    return select_backward_op(grad, input_sizes=tuple(sizes), dim=dim, index=index)


def slice_backward(grad, sizes, dim, start, end, step):
    """Scatter the slice back into zeros of the input's shape. (A slice made by a formula, slice_scatter's
    grad.slice(dim, start, None, step), has no end: PyTorch's slice_backward_wrapper passes 0 / INT64_MAX for
    missing bounds, which its SliceBackwardBackward0 saves.)"""
    start, end = (0 if start is None else start), (2**63 - 1 if end is None else end)
    return slice_backward_op(grad, input_sizes=tuple(sizes), dim=dim, start=start, end=end, step=step)


def _scatter_into_zeros(g, input_sizes, index):
    out = np.zeros(input_sizes, dtype=g.dtype)
    out[index] = g
    return out


def permute_backwards(grad, dims):
    """grad of ``permute(dims)``: permute back by the inverse permutation."""
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d % len(dims)] = i
    return grad.permute(inverse)


# =============================================================================================
# Elementwise functions of one tensor
# =============================================================================================

neg = Op("neg", "NegBackward0", lambda a: _complex_bits.neg(a) if a.dtype.kind == "c" else np.negative(a),
         jvp="linear",
         self=lambda grad: grad.neg())                                    # d(-x) = -1
exp = Op("exp", "ExpBackward0", _vml.unary("exp", _via_float64(np.exp)),
         jvp="element_wise",
         self=lambda grad, result: grad * result.conj())                  # d e^x = e^x
log = Op("log", "LogBackward0", _vml.unary("log", _via_float64(np.log)),
         jvp="element_wise",
         self=lambda grad, self: grad.div(self.conj()))                   # d log x = 1/x
sigmoid = Op("sigmoid", "SigmoidBackward0", lambda x: _sigmoid(x),
             jvp="element_wise",
             self=lambda grad, result: _sigmoid_grad(grad, result))         # σ' = σ(1-σ)
tanh = Op("tanh", "TanhBackward0", _vml.unary("tanh", _via_float64(np.tanh)),
          jvp="element_wise",
          self=lambda grad, result: _tanh_grad(grad, result))                    # tanh' = 1 - tanh²


def _tanh_grad(grad, y):
    """``tanh_backward(grad, y)``, TanhBackward0's formula g·(1 - y²).

    When nothing records and both are C-contiguous real float32/float64 arrays of one shape and dtype, the kernel
    runs on the arrays straight (the very function the op's forward calls, so the same bits, and a C-order result
    as the op's layout rule gives for C-contiguous inputs), without the op's dispatch (bench W4's two tanh layers).
    """
    if type(grad) is Tensor and type(y) is Tensor and _untracked() and not _meta.METAS:   # (meta: the op's)
        g, d = grad._data, y._data
        if (g.dtype is d.dtype and g.shape == d.shape and g.ndim and g.dtype in _FLOAT32_64
                and g.flags.c_contiguous and d.flags.c_contiguous):
            if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already)
                return _make_tensor(_float_math.tanh_backward(g, d))
            return _numpy_result(_float_math.tanh_backward, g, d)
    _broadcastable(grad, y)
    return tanh_backward(grad, y)


def _sigmoid_grad(grad, y):
    """``sigmoid_backward(grad, y)``, SigmoidBackward0's formula g·σ(1-σ)."""
    _broadcastable(grad, y)
    return sigmoid_backward(grad, y)


def _broadcastable(grad, y) -> None:
    """PyTorch's broadcast error for a saved result of another shape (an unpack hook's), not NumPy's ValueError."""
    if grad._data.shape != y._data.shape:
        from ._ops import _check_broadcast
        _check_broadcast(grad, y)


def _maximum_keeps_minus_zero(dtype) -> bool:
    """Whether ``np.maximum(0, x)`` returns x on a tie here, so that -0.0 stays -0.0 (NumPy's choice
    depends on the dtype's loop: its SIMD float32/float64 loops keep x, its float16 loop does not)."""
    x = np.full(37, -0.0, dtype)  # long enough for the vector loop and its scalar tail
    return bool(np.signbit(np.maximum(0, x)).all() and np.signbit(np.maximum(0, x[::2])).all())


_RELU_BY_MAXIMUM = frozenset(d for d in map(np.dtype, (np.float32, np.float64)) if _maximum_keeps_minus_zero(d))


def _relu(x):
    """PyTorch's relu, ``x < 0 ? 0 : x``: nan stays nan and -0.0 stays -0.0 (np.maximum(x, 0) gives +0.0)."""
    if x.dtype in _RELU_BY_MAXIMUM:
        return np.maximum(0, x)  # fast path: the same result where this loop keeps x on a tie (see above)
    if x.dtype.kind == "b":
        raise RuntimeError("Boolean inputs not supported for relu")
    if x.dtype.kind == "c":
        raise NotImplementedError("clamp is not supported for complex types")
    if x.dtype.kind in "iu":
        return np.maximum(x, 0).astype(x.dtype, copy=False)  # integers have no -0
    return np.where(x < 0, np.zeros((), x.dtype), x)


relu = Op("relu", "ReluBackward0", _relu,
          jvp="element_wise",
          self=lambda grad, result: threshold_backward(grad, result, threshold=0))   # relu' = [x > 0]

# Their gradients are ops of their own, as in PyTorch (tanh_backward ...): a gradient built with
# create_graph=True ends in PyTorch's node (TanhBackwardBackward0), whose formulas give the second
# derivative. ``grad_output`` is the incoming gradient g, ``output`` the forward's result y.
sigmoid_backward = Op(
    "sigmoid_backward", "SigmoidBackwardBackward0",
    _float_math.in_float32(lambda g, y: g * (1 - y) * y if y.dtype.kind != "c" else
                           _complex_bits.grad_times_conj(g, y, "sigmoid"),
                           bfloat16_only=True),                                                   # g·σ(1-σ)
    inputs=("grad_output", "output"),
    # (PyTorch's result: formula; its output term is anti-holomorphic for complex y: output_t.conj(), y.conj())
    jvp=lambda grad_output_t, output_t, grad_output, output:
        sigmoid_backward(grad_output_t, output) + output_t.conj() * grad_output * (1 - output.conj() * 2),
    grad_output=lambda grad, output: sigmoid_backward(grad, output.conj()),             # linear in g
    output=lambda grad, grad_output, output: _sigmoid_backward_output(grad, grad_output, output))   # d/dy = g(1-2y)


def _sigmoid_backward_output(grad, grad_output, output):
    """PyTorch's ``grad.conj() * grad_output * (-2 * output.conj() + 1)``, the right operand made first (C++ builds
    an operator's right operand first: the nodes' sequence numbers, the order a third backward runs them in)."""
    one_minus_2y = add_scalar(mul_scalar(output.conj(), other=-2), other=1)
    return grad.conj() * grad_output * one_minus_2y


tanh_backward = Op(
    "tanh_backward", "TanhBackwardBackward0",
    # g·(1 - y²), with 1 - y² fused (PyTorch's compiled kernel contracts it to one fused multiply-add)
    _float_math.in_float32(lambda g, y: _float_math.tanh_backward(g, y) if y.dtype.kind != "c"
                           else _complex_bits.grad_times_conj(g, y, "tanh")),
    inputs=("grad_output", "output"),
    jvp=lambda grad_output_t, output_t, grad_output, output:   # (-2·g·conj(y)·conj(y_t), as sigmoid_backward's)
        tanh_backward(grad_output_t, output) + output_t.conj() * (output.conj() * grad_output * -2),
    grad_output=lambda grad, output: tanh_backward(grad, output.conj()),                # linear in g
    output=lambda grad, grad_output, output: grad.conj() * (mul_scalar(output.conj(), other=-2) * grad_output))  # -2gy


# Same-size integer types, for reading a float gradient's bits (_threshold_backward).
_SAME_SIZE_INT = {2: np.int16, 4: np.int32, 8: np.int64}


def _threshold_backward(g: np.ndarray, x: np.ndarray, threshold) -> np.ndarray:
    """``x <= threshold ? 0 : g`` (PyTorch's rule: g's nan/inf become +0 there too)."""
    if g.dtype.kind != "f" or g.dtype.itemsize not in _SAME_SIZE_INT:
        return np.where(x <= threshold, 0, g).astype(g.dtype, copy=False)
    # np.where is slow on a random mask (~40 us on (128, 256)); multiplying g's bit pattern, read as
    # integers, by the 0/1 mask keeps g bit for bit or gives +0, without branches (~8 us).
    keep = np.logical_not(x <= threshold)       # not (x > t): a nan x keeps g, as in PyTorch
    ints = _SAME_SIZE_INT[g.dtype.itemsize]
    return np.multiply(g.view(ints), keep, dtype=ints).view(g.dtype)


threshold_backward = Op(
    "threshold_backward", "ThresholdBackwardBackward0",
    _threshold_backward,                                                       # g where x > t
    inputs=("grad_output", "self"), args=("threshold",),
    # (PyTorch's zeros_like(self_t) + ...: self's tangent alone gives a tangent too, zeros)
    jvp=lambda grad_output_t, self_t, self, threshold:
        _ops().zeros_like(self_t) + threshold_backward(grad_output_t, self, threshold=threshold),
    grad_output=lambda grad, self, threshold: threshold_backward(grad, self, threshold=threshold),
    self=lambda grad: _ops().zeros_like(grad))                   # the mask is piecewise constant in x
# (PyTorch's TensorIterator takes self before grad: self's strides lay out the gradient)
threshold_backward.operand_step = -1

# F.threshold: x where x > t, else value (NaN stays: NaN <= t is false)
threshold = Op("threshold", "ThresholdBackward0",
               lambda a, threshold, value: np.where(a <= threshold, np.asarray(value).astype(a.dtype), a),
               args=("threshold", "value"), jvp="element_wise",
               self=lambda grad, self, threshold: threshold_backward(grad, self, threshold=threshold))  # g where x > t
# F.threshold(x, t, v, inplace=True): PyTorch's in-place overload has its own node name (it saves x from before)
threshold_inplace = Op("threshold_", "ThresholdBackward1", threshold.forward, args=("threshold", "value"),
                       jvp="element_wise",
                       self=lambda grad, self, threshold: threshold_backward(grad, self, threshold=threshold))


def _sigmoid_other(x):
    # σ(x) = 1/(1+e^-x), evaluated without overflow for large |x|.
    if x.dtype.kind == "c":
        return _complex_bits.sigmoid(x)
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


# float32 (and half) as PyTorch's kernel rounds it: SLEEF's exp on whole vectors (_float_math.py)
_sigmoid = _float_math.for_float32(
    _float_math.sigmoid, lambda x: _float_math.sigmoid64(x) if x.dtype == np.float64 else _sigmoid_other(x))


# ---- more elementwise functions (part A) ------------------------------------------------------
# PyTorch's formulas from derivatives.yaml; ``.conj()`` makes each one right for complex inputs too.

_LN2 = float(np.log(2.0))
_LN10 = 2.3025850929940456   # (the literal of PyTorch's log10 formula: one ulp below ln 10 as a double)


def _zeros(grad):
    return _ops().zeros_like(grad)


def _keep_int(np_fn):
    """Rounding functions leave integer (and bool) tensors unchanged, as PyTorch does."""
    return lambda a: a.copy() if a.dtype.kind in "biu" else np_fn(a)


def _sign(a):
    # PyTorch's (0 < x) - (x < 0): NaN and -0.0 give 0; a bool is its own sign
    if a.dtype.kind == "b":
        return a.copy()
    # (bfloat16's NumPy kind is "V": a float too, where np.sign would keep NaN and -0.0)
    if a.dtype.kind == "f" or a.dtype == _dtypes.bfloat16.np:
        return (a > 0).astype(a.dtype) - (a < 0).astype(a.dtype)
    return np.sign(a)


def sgn_backward(grad, self, result):
    """d sgn(z): 0 for real z (PyTorch's efficient zero tensor, shaped as the result); (g - sgn²·ḡ) / (2|z|) for
    complex z (0 at z = 0)."""
    if not self.is_complex():
        return _make_tensor(_zerotensor.efficient_zeros(result.shape, result._data.dtype))
    a = self.abs()
    two_a = mul_scalar(a, other=2)   # (C++ makes the right operand of (...) / (2. * abs) first)
    grad_conj = grad.conj()          # (and of (sgn * sgn) * gx.conj())
    # (masked_fill_ in place, as PyTorch's: the quotient keeps its layout, grad's, not a fill's C order)
    return ((grad - result * result * grad_conj) / two_a).masked_fill_(a == 0, 0.0)


def sgn_jvp(t, self, result):
    """d sgn(z)·t = (t - sgn²·t̄) / (2|z|) for complex z (not holomorphic: no backward formula reuse); 0 if real."""
    if not self.is_complex():   # (PyTorch's zero is shaped as the result, not the tangent: unbatched under vmap
        # when the primal is, so an in-place write of a batched tangent into it fails; an efficient zero tensor)
        return _zerotensor.mark(_zeros(result))
    a = self.abs()
    return ((t - result * result * t.conj()) / (a * 2)).masked_fill_(a == 0, 0.0)   # (in place: t's layout)


def _complex_abs_vector(x):
    """PyTorch's vector |z|: SLEEF's hypot (float32 parts: the same bits as a hypot in double, rounded)."""
    if x.dtype == np.complex128 and x.size <= _float_math._SLEEF64_LIMIT:
        return _float_math.sleef_hypot64(x.real, x.imag)
    return np.hypot(x.real, x.imag)


def _complex_abs_scalar(x):
    """PyTorch's scalar |z| (std::abs): glibc's hypot."""
    return np.hypot(x.real, x.imag)


def _complex_paths(vector, scalar, x, vectors: int = 2):
    """``two_paths`` for complex elementwise kernels: vector blocks of ``vectors``·Vectorized::size() elements
    (its size: 8 complex64 or 4 complex128 on AVX-512), the scalar code on the tail and on strided input."""
    return _float_math.two_paths(vector, scalar, x, block=vectors * (8 if x.dtype == np.complex64 else 4))


def _abs(x):
    """|x|; complex |x| as PyTorch's (SLEEF's hypot on vector blocks, glibc's on the rest): NumPy's own
    complex abs is not correctly rounded (a third of float32 values differ)."""
    if x.dtype.kind == "c":   # (one vector per step: a complex128 tail of 4 to 7 is SLEEF's too)
        return _complex_paths(_complex_abs_vector, _complex_abs_scalar, x, vectors=1)
    return np.abs(x)


def _sgn_with(abs_fn, vector: bool):
    """z/|z| (0 at 0): PyTorch's vector code divides each part by |z|, its scalar code divides z by the complex
    |z| + 0i as c10::complex does (GCC): ((x + y·r)·s, (y - x·r)·s) with r = 0/|z|, s = 1/|z| (NaN at |z| = inf)."""
    def sgn(x):
        a = abs_fn(x)
        safe = np.where(a == 0, 1, a)
        out = np.empty_like(x)
        if vector:
            out.real, out.imag = x.real / safe, x.imag / safe
        else:
            with np.errstate(invalid="ignore"):
                ratio, scale = 0 / safe, 1 / safe
                out.real, out.imag = (x.real + x.imag * ratio) * scale, (x.imag - x.real * ratio) * scale
        return np.where(a == 0, 0, out).astype(x.dtype, copy=False)
    return sgn


_sgn_vector, _sgn_scalar = _sgn_with(_complex_abs_vector, True), _sgn_with(_complex_abs_scalar, False)


def _sgn(x):
    if x.dtype.kind != "c":
        return _sign(x)   # (a real sgn is sign: NaN and -0.0 give 0, as PyTorch's)
    return _complex_paths(_sgn_vector, _sgn_scalar, x)


def angle_backward(grad, self):
    """d angle(z): 0 for real z; g·z·i/|z|² for complex z (0 at z = 0)."""
    if not self.is_complex():
        return _zeros(self)
    ops = _ops()
    # (built in the order of PyTorch's compiled formula: GCC evaluates an overloaded operator's operands right to
    # left, so |z|² is made before g·z; the nodes' sequence numbers, and so the graph under create_graph, follow)
    den = self.abs().pow(2)
    return ops.where(self == 0, 0.0, mul_scalar(grad * self / den, other=1j))


def clamp_backward(grad, self, min, max):
    """d clamp(x, lo, hi)/dx = [lo <= x <= hi]."""
    ops = _ops()
    if min is not None and max is not None:
        # (in place, as PyTorch's formula: [x <= hi] must broadcast to the shape of [lo <= x], or its error)
        inside = (self >= min).logical_and_(self <= max)
    elif min is not None:
        inside = self >= min
    elif max is not None:
        inside = self <= max
    else:
        return grad  # (no bound: the identity)
    return ops.where(inside, grad, 0.0)


def _clamp_forward(a, min, max):
    # clamp(x, lo, hi) = min(max(x, lo), hi): NaN in x propagates and lo > hi gives hi, as in PyTorch.
    # (a complex bound of a float x has no imaginary part: PyTorch reads it as a double)
    min, max = (b.real if isinstance(b, complex) else b for b in (min, max))
    if a.dtype.kind in "iu":  # an int bound in the int dtype by C's cast (uint8: -1 is 255), as PyTorch converts it
        min, max = (b if b is None or isinstance(b, np.ndarray) else np.asarray(b).astype(a.dtype) for b in (min, max))
    out = a
    if min is not None:
        out = _clamp_side(out, min, np.maximum, np.less)
    if max is not None:
        out = _clamp_side(out, max, np.minimum, np.greater)
    return np.asarray(out).astype(a.dtype, copy=False)


def _clamp_side(x, bound, pick, beyond):
    """One side of clamp: the bound where x is ``beyond`` it. Between +0.0 and -0.0 a number bound never
    replaces x (PyTorch's x < lo ? lo : x, on both its paths; a NaN bound gives NaN), a tensor bound does on
    the vector path (``pick``, maximum's or minimum's ties)."""
    if isinstance(bound, np.ndarray):
        return _signed_zero_ties(pick)(x, bound)
    if bound != bound:
        return pick(x, bound)
    return np.where(beyond(x, bound), bound, x)


# clamp(x, min=t) with one tensor bound: the other is an ``absent()`` stand-in (PyTorch's undefined tensor,
# shown as None and given a (None, 0) edge); the forward and the formulas leave it out.
def _clamp_tensor_forward(a, min, max):
    # (a real empty bound still broadcasts: clamp(x[1, 0, 1], t[3, 0, 1]) is [3, 0, 1], clamp(x[], t[0]) is [0])
    return _clamp_forward(a, None if is_absent(min) else min, None if is_absent(max) else max)


def clamp_tensor_backward(grad, self, min, max):
    """d clamp(x, lo, hi)/dx = [lo <= x <= hi] (a missing bound: no condition)."""
    return clamp_backward(grad, self, _given(min), _given(max))


def clamp_min_tensor_backward(grad, self, min, max):
    """d clamp/d lo = [x < lo] where lo wins (lo < hi, when there is a hi)."""
    max = _given(max)
    mask = self < min if max is None else (self < min).logical_and_(min < max)   # (in place, as clamp_backward)
    return _ops().where(mask, grad, 0.0)


def clamp_max_tensor_backward(grad, self, min, max):
    """d clamp/d hi = [x > hi] or [hi < lo] (then hi is the result)."""
    min = _given(min)
    mask = self > max if min is None else (self > max).logical_or_(max < min)   # (in place, as clamp_backward)
    return _ops().where(mask, grad, 0.0)


def clamp_min_max_tensor_backward(grad, self, min, max, grad_input_mask):
    """Both bounds' gradients from one formula, lo's first (PyTorch's clamp_backward_min_max, derivatives.yaml's
    ``min, max`` entry, which runs before ``self``'s: under create_graph that order numbers their where nodes)."""
    return (clamp_min_tensor_backward(grad, self, min, max) if grad_input_mask[0] else None,
            clamp_max_tensor_backward(grad, self, min, max) if grad_input_mask[1] else None)


def clamp_tensor_jvp(self_t, min_t, max_t, self, min, max):
    """The tangent of whichever of x, lo, hi clamp returns (PyTorch's clamp_jvp)."""
    ops = _ops()
    min, max = _given(min), _given(max)
    if min is None:
        return ops.where(self < max, self_t, max_t)
    if max is None:
        return ops.where(self > min, self_t, min_t)
    return ops.where(min > max, max_t, ops.where(self < min, min_t, ops.where(self > max, max_t, self_t)))


def _lerp(a, b, w):
    # PyTorch's two-sided form, exact at both ends: w < 0.5 ? a + w(b-a) : b - (b-a)(1-w); its float32/float64
    # kernel computes fma(w or w - 1, b - a, a or b) (lerp_vec), one rounding.
    dt = np.result_type(a, b)
    if isinstance(w, complex) and dt.kind != "c":   # (a real input's complex weight has no imaginary part)
        w = w.real
    if _is_half(dt) and a.dtype == b.dtype:   # float16/bfloat16: the float32 kernel below on the values in float32
        w32 = w.astype(np.float32) if isinstance(w, np.ndarray) else np.float32(w)   # (a number: not rounded
        return _lerp(a.astype(np.float32), b.astype(np.float32), w32).astype(dt)    # to the half type first)
    d = b - a
    small = np.abs(w) < 0.5
    if dt.char in "fd" and a.dtype == b.dtype and np.asarray(w).dtype.kind == "f":
        w = np.asarray(w, dtype=dt) if isinstance(w, np.ndarray) else dt.type(w)
        return fma(np.where(small, w, w - dt.type(1)), d, np.where(small, a, b), dt)
    return np.where(small, a + w * d, b - d * (1 - w)).astype(dt, copy=False)


absolute = Op("abs", "AbsBackward0", _abs,
         jvp="element_wise",
         self=lambda grad, self: grad * self.sgn())                        # d|x| = sgn(x)
sgn = Op("sgn", "SgnBackward0", _sgn,
         jvp=lambda self_t, self, result: sgn_jvp(self_t, self, result),
         self=sgn_backward)
sign = Op("sign", "SignBackward0", lambda a: _sign(a),
          jvp="element_wise",
          self=lambda grad: _zeros(grad))                                  # piecewise constant
def _reciprocal(a):
    """1/x; complex as PyTorch's kernel divides 1 by x (the imaginary part of 1/(c+0i) is +0, where NumPy's
    reciprocal, conj(x)/|x|², gives -0)."""
    return _complex_bits.divide(a.dtype.type(1), a) if a.dtype.kind == "c" else np.reciprocal(a)


reciprocal = Op("reciprocal", "ReciprocalBackward0", _reciprocal,
                jvp="element_wise",
                self=lambda grad, result: _reciprocal_backward(grad, result))   # d(1/x) = -1/x²
sqrt = Op("sqrt", "SqrtBackward0", _vml.unary("sqrt", np.sqrt),
          jvp="element_wise",
          self=lambda grad, result: grad / mul_scalar(result.conj(), other=2))   # d√x = 1/(2√x)
def _rsqrt(x):
    """1/√x. float16/bfloat16: PyTorch's vector code takes 1/√x in float32 and rounds once, its scalar code (the
    n % 32 last elements, or all of a strided tensor) rounds √x to the half type, then 1/that."""
    if _is_half(x.dtype):
        f32 = np.float32
        return _float_math.two_paths(lambda v: (f32(1) / np.sqrt(v.astype(f32))).astype(v.dtype),
                                     lambda v: np.reciprocal(np.sqrt(v)), x)
    return _reciprocal(np.sqrt(x))


rsqrt = Op("rsqrt", "RsqrtBackward0", _rsqrt,
           jvp="element_wise",
           self=lambda grad, result: _rsqrt_backward(grad, result))  # d x^-½ = -½ x^-3/2


def _reciprocal_backward(grad, result):
    """PyTorch's ``-grad * (result * result).conj()``, the right operand made first (as C++ evaluates it)."""
    square = (result * result).conj()
    return grad.neg() * square


def _rsqrt_backward(grad, result):
    """PyTorch's ``-0.5 * grad * result.pow(3).conj()``, the right operand made first (as C++ evaluates it)."""
    cube = result.pow(3).conj()
    return mul_scalar(grad, other=-0.5) * cube
exp2 = Op("exp2", "Exp2Backward0", _float_math.libm_two_paths("exp2", np.exp2, vector32=_float_math.sleef_exp2f,
                                                              vector64=_float_math.sleef_exp2_64),
          jvp="element_wise",
          self=lambda grad, result: mul_scalar(grad * result.conj(), other=_LN2))   # d 2^x = 2^x ln 2
expm1 = Op("expm1", "Expm1Backward0", _float_math.for_float32(  # (SLEEF's expm1 on every element; complex: c10's)
    _float_math.expm1, _float_math.or_float64(_float_math.sleef_expm1_64,
                                              _complex_bits.unary(_complex_bits.expm1, _via_float64(np.expm1)))),
           jvp="element_wise",
           self=lambda grad, result: grad * add_scalar(result.conj(), other=1))  # d(e^x - 1) = e^x
log2 = Op("log2", "Log2Backward0", _complex_bits.unary(lambda z: _complex_bits.log_base(z, 2),
                                                       _vml.unary("log2", _via_float64(np.log2))),
          jvp="element_wise",
          self=lambda grad, self: grad / mul_scalar(self.conj(), other=_LN2))   # d log₂x = 1/(x ln 2)
log10 = Op("log10", "Log10Backward0", _complex_bits.unary(lambda z: _complex_bits.log_base(z, 10),
                                                          _vml.unary("log10", _via_float64(np.log10))),
           jvp="element_wise",
           self=lambda grad, self: grad / mul_scalar(self.conj(), other=_LN10))  # d log₁₀x = 1/(x ln 10)
log1p = Op("log1p", "Log1PBackward0", _float_math.for_float32(  # (SLEEF's log1p on every element; complex: c10's)
    _float_math.log1p, _float_math.or_float64(_float_math.sleef_log1p64,
                                              _complex_bits.unary(_complex_bits.log1p, _via_float64(np.log1p)))),
           jvp="element_wise",
           self=lambda grad, self: grad / add_scalar(self, other=1).conj())  # d log(1+x) = 1/(1+x)
sin = Op("sin", "SinBackward0", _vml.unary("sin", _via_float64(np.sin)),
         jvp="element_wise",
         self=lambda grad, self: grad * self.cos().conj())                 # d sin = cos
cos = Op("cos", "CosBackward0", _vml.unary("cos", _via_float64(np.cos)),
         jvp="element_wise",
         self=lambda grad, self: grad * self.sin().conj().neg())           # d cos = -sin
tan = Op("tan", "TanBackward0", _vml.unary("tan", _via_float64(np.tan)),
         jvp="element_wise",
         self=lambda grad, result: grad * add_scalar(result.pow(2), other=1).conj())  # d tan = 1 + tan²
floor = Op("floor", "FloorBackward0", _keep_int(np.floor),
           jvp="element_wise",
           self=lambda grad: _zeros(grad))                                 # piecewise constant
ceil = Op("ceil", "CeilBackward0", _keep_int(np.ceil),
          jvp="element_wise",
          self=lambda grad: _zeros(grad))
round_half_even = Op("round", "RoundBackward0", _keep_int(np.round),
           jvp="element_wise",
           self=lambda grad: _zeros(grad))
round_decimals = Op("round", "RoundBackward1", lambda a, decimals: np.round(a, decimals), args=("decimals",),
                    jvp="element_wise",
                    self=lambda grad: _zeros(grad))
trunc = Op("trunc", "TruncBackward0", _keep_int(np.trunc),
           jvp="element_wise",
           self=lambda grad: _zeros(grad))
frac = Op("frac", "FracBackward0", lambda a: a - np.trunc(a),
          jvp="element_wise",
          self=lambda grad: grad)                                          # x - trunc(x): slope 1
clamp = Op("clamp", "ClampBackward1", _clamp_forward, args=("min", "max"),
           jvp="element_wise",
           self=clamp_backward)
clamp_tensor = Op("clamp", "ClampBackward0", _clamp_tensor_forward, inputs=("self", "min", "max"),
                  jvp=clamp_tensor_jvp,
                  self=clamp_tensor_backward, min=joint(clamp_min_max_tensor_backward),
                  max=joint(clamp_min_max_tensor_backward))
clamp_min = Op("clamp_min", "ClampMinBackward0", lambda a, min: _clamp_forward(a, min, None), args=("min",),
               jvp="element_wise",
               self=lambda grad, self, min: _ops().where(self >= min, grad, 0.0))     # [x >= lo]
clamp_max = Op("clamp_max", "ClampMaxBackward0", lambda a, max: _clamp_forward(a, None, max), args=("max",),
               jvp="element_wise",
               self=lambda grad, self, max: _ops().where(self <= max, grad, 0.0))     # [x <= hi]
# clamp_min(x, t) / clamp_max(x, t) with a tensor bound: max(x, t) / min(x, t) with clamp's tie rule.
clamp_min_tensor = Op("clamp_min", "ClampMinBackward1", lambda a, min: _clamp_forward(a, min, None),
                      inputs=("self", "min"),
                      jvp=lambda self_t, min_t, self, min: _ops().where(self >= min, self_t, min_t),
                      self=lambda grad, self, min: _ops().where(self >= min, grad, 0.0),   # [x >= lo]
                      min=lambda grad, self, min: _ops().where(self < min, grad, 0.0))     # [x < lo]
clamp_max_tensor = Op("clamp_max", "ClampMaxBackward1", lambda a, max: _clamp_forward(a, None, max),
                      inputs=("self", "max"),
                      jvp=lambda self_t, max_t, self, max: _ops().where(self <= max, self_t, max_t),
                      self=lambda grad, self, max: _ops().where(self <= max, grad, 0.0),   # [x <= hi]
                      max=lambda grad, self, max: _ops().where(self > max, grad, 0.0))     # [x > hi]


# =============================================================================================
# Arithmetic (two tensors; a Python number is wrapped as a 0-dim tensor, giving a (None, 0) edge)
# =============================================================================================

def _add_alpha(a, b, alpha):
    """a + α·b: PyTorch's float32/float64 kernels fuse the multiply-add (one rounding)."""
    dt = np.result_type(a, b)
    if _is_half(dt) and not isinstance(alpha, complex):
        # float16/bfloat16: α in the tensor's dtype; PyTorch's vector code computes a + α·b in float32 and
        # rounds once, its scalar code (the n % 32 last elements, or all of a strided tensor) rounds the
        # product, then the sum, to the half type
        a, b, al = a.astype(dt, copy=False), b.astype(dt, copy=False), np.asarray(alpha, dt)
        f32 = np.float32
        return _float_math.two_paths(
            lambda x, y: (x.astype(f32) + al.astype(f32) * y.astype(f32)).astype(dt),
            lambda x, y: (x + al * y).astype(dt, copy=False), a, b)
    if a.dtype == b.dtype and a.dtype.char in "fd" and not isinstance(alpha, complex):
        return fma(a.dtype.type(alpha), b, a, a.dtype)   # (with a Python number b, the last bit can differ)
    return a + alpha * b


add = Op("add", "AddBackward0", lambda a, b, alpha: np.add(a, b) if alpha == 1 else _add_alpha(a, b, alpha),
         jvp="linear", ufunc=np.add,
         inputs=("self", "other"), args=("alpha",),
         self=lambda grad: grad,                                          # d(x + αy)/dx = 1
         # d(x + αy)/dy = α (conj: ᾱ; a Scalar product, MulBackward1, as PyTorch's maybe_multiply)
         other=lambda grad, alpha: grad if alpha == 1 else mul_scalar(grad, other=_conj(alpha)))
def _sub_alpha(a, b, alpha):
    """a - α·b; complex as PyTorch computes it, a + (-α)·b with a complex product (zero signs differ)."""
    if a.dtype.kind == "c":
        return a + (-alpha) * b
    if a.dtype == b.dtype and a.dtype.char in "fd" or _is_half(np.result_type(a, b)):
        return _add_alpha(a, b, -alpha)   # (PyTorch's sub is add with -α)
    return a - alpha * b


sub = Op("sub", "SubBackward0", lambda a, b, alpha: np.subtract(a, b) if alpha == 1 else _sub_alpha(a, b, alpha),
         jvp="linear", ufunc=np.subtract,
         inputs=("self", "other"), args=("alpha",),
         self=lambda grad: grad,                                          # d(x - αy)/dx = 1
         other=lambda grad, alpha: grad.neg() if alpha == 1 else mul_scalar(grad.neg(), other=_conj(alpha)))  # -ᾱ
rsub = Op("rsub", "RsubBackward1", lambda a, b, alpha: _sub_alpha(b, a, alpha) if alpha != 1 else np.subtract(b, a),
          jvp="element_wise",  # (not "linear": the number y of y - αx is a constant, its tangent 0)
          inputs=("self", "other"), args=("alpha",),
          self=lambda grad, alpha: grad.neg() if alpha == 1 else mul_scalar(grad.neg(), other=_conj(alpha)))  # -ᾱ
_FLOAT32_64 = (np.dtype(np.float32), np.dtype(np.float64))


def _times_conj(grad, y):
    """``grad * conj(y)``, the gradient of a product: d(xy)/dx = y (ȳ for complex numbers).

    ``y`` may be a saved Python float (``x * 1.5``: its own conjugate, ``grad * y`` is the number op). When nothing
    records and ``y`` is a real tensor of ``grad``'s shape and dtype, the product is NumPy's, straight: the same
    ufunc on the same arrays as ``grad * y`` (the same bits), laid out as that op lays it out, without the
    operator's dispatch (bench W5: the two products by sum's expanded gradient).
    """
    if type(y) is float:
        if type(grad) is Tensor and grad._data.dtype in _FLOAT32_64 and not _extras[0]:
            # ``grad * y`` as _ops.mul's fast path runs it (the same conditions), without the operator's and
            # _ops.mul's calls: W2's 500 MulBackward0 nodes per step multiply by their saved number
            return mul.run_number(grad, y, {})
        return grad * y
    if type(y) is Tensor and type(grad) is Tensor and _untracked() and not (_zerotensor.ZEROS or _meta.METAS):
        g, d = grad._data, y._data
        # (not 0-d: NumPy's product of 0-d arrays is a scalar, not an array a later gradient may be added into)
        if g.dtype is d.dtype and g.shape == d.shape and g.ndim and g.dtype in _FLOAT32_64:
            if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already)
                result = np.multiply(g, d)
            else:
                result = _numpy_result(np.multiply, g, d)._data
            if result.ndim > 1 and not (g.flags.c_contiguous and d.flags.c_contiguous):
                result = _strides.iterator_layout(result, (g, d))  # (TensorIterator's layout, as Op._run's)
            return Tensor._make(result)
    return grad * _conj_saved(y)


mul = Op("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
         jvp="element_wise",
         self=lambda grad, other: _times_conj(grad, other),               # d(xy)/dx = y
         other=lambda grad, self: _times_conj(grad, self))                # d(xy)/dy = x


def _div_jvp(self_t, other_t, result, self, other):
    """PyTorch's own form (self_t - other_t * result) / other, in the result's dtype: there a Python number y is a
    wrapped number, which does not promote (0-d float32 x / 2.5: a float32 tangent); a tangent of another dtype
    than its primal's keeps deciding (PyTorch applies the formula to the tangents as they are)."""
    t = (self_t - other_t * result) / other
    # (with a dual y, as x.div_(y) of a float32 x by a float64 y, it decides; so does a ZeroTensor x_t, whose
    # kernels promote the number as a 0-d tensor: sgn(x) / 2.0 of a 0-d float32 x has a float64 tangent)
    if t.dtype != result.dtype and other._fw_grad is None and self_t.dtype == self.dtype and not (
            _zerotensor.ZEROS and _zerotensor.is_zero(t)):
        return t.to(result.dtype)
    return t


def _div_other_backward(grad, self, other):
    """d(x/y)/dy = -x/y², as PyTorch's ``-grad * ((self / other) / other).conj()`` (C++ builds an operator's right
    operand first: the quotients' nodes come before the negation's, the order backward runs them in)."""
    if isinstance(self, Tensor):
        first = self / other
    else:  # a number x (torch.div(2.5, y)), saved as the number: x / y is PyTorch's division, not Python's
        from . import _ops  # (x.__rtruediv__ would be PyTorch's reciprocal() * x, another rounding)
        first = _ops.div(self, other)
    quotient = (first / other).conj()
    return grad.neg() * quotient


div = Op("div", "DivBackward0", np.true_divide, inputs=("self", "other"),
         jvp=_div_jvp,
         self=lambda grad, other: grad / _conj_saved(other),              # d(x/y)/dx = 1/y
         other=_div_other_backward)                                       # -x/y²
def _div_mode_jvp(self_t, other_t, self, other):
    """PyTorch's div.Tensor_mode form, x_t / y - y_t · (x / y) / y. A number y is a wrapped number there, which does
    not promote (0-d float32 x_t / 2.5 is a float32 quotient), while y's missing tangent is a 0-d zero of y's dtype,
    which does: a 0-d float32 x gets that float32 quotient as a float64 tangent."""
    y = other if other._wrapped_number is None else other._wrapped_number
    if other._fw_grad is None:  # (y_t is PyTorch's ZeroTensor: its term adds no value, a -0. quotient stays)
        from ._dtypes import result_type
        q = self_t / y
        return q.to(result_type(q, other_t))
    return self_t / y - other_t * (self / y) / y


# div(x, y, rounding_mode=None): PyTorch's other overload (div.Tensor_mode), the same true division
div_mode = Op("div", "DivBackward2", lambda a, b, rounding_mode: np.true_divide(a, b), inputs=("self", "other"),
              args=("rounding_mode",), jvp=_div_mode_jvp,
              self=lambda grad, other, rounding_mode: grad / _conj_saved(other),
              other=lambda grad, self, other, rounding_mode: _div_other_backward(grad, self, other))
div_mode.number_formulas = True  # (x / 2.5 with rounding_mode=None: its formulas take the saved number, as div's)
def _int_power(a, b):
    """PyTorch's integer power. Both it and NumPy's wrap around on overflow, but NumPy refuses negative
    exponents: PyTorch gives 1 for a base of 1, ±1 for a base of -1 and 0 for any other base."""
    negative = b < 0
    if not np.any(negative):
        return np.power(a, b)
    r = np.power(a, np.where(negative, 0, b))
    inverse = np.where(a == 1, 1, np.where(a == -1, np.where(b % 2 == 0, 1, -1), 0))
    return np.where(negative, inverse, r).astype(r.dtype, copy=False)


def _cpow(a, b):
    """Complex ``a ** b`` as PyTorch's kernels compute it: glibc's cpow, e^(b·log a). NumPy's power calls the same
    cpow, except for a zero base and for whole real exponents, which it multiplies out exactly (2j ** 3 is -8j
    there, 9.5e-08-8j in PyTorch): those go through exp and log here."""
    with np.errstate(all="ignore"):
        out = np.power(a, b)
        exact = (np.imag(b) == 0) | (a == 0)
        if np.any(exact):
            b = np.asarray(b, out.dtype)   # (a Python number exponent in the result's precision, as PyTorch's)
            out = np.where(exact, np.exp(b * np.log(np.asarray(a, out.dtype))), out).astype(out.dtype, copy=False)
    return out


def _power(a, b):
    """``a ** b`` elementwise as PyTorch computes it (integers: _int_power; complex: _cpow)."""
    if a.dtype == np.float32 and np.result_type(a, b) == np.float32:
        return _float_math.pow_float32(a, b)   # SLEEF's powf on vector blocks, glibc's on the tail
    if a.dtype == np.float64 and np.result_type(a, b) == np.float64:
        return _float_math.pow_float64(a, b)   # (the same for double)
    if np.result_type(a, b).kind == "c":
        return _cpow(a, b)
    return _int_power(a, b) if a.dtype.kind in "iu" else np.power(a, b)


def _power_of_number(number, exponent):
    """``number ** exponent``; for an integer exponent the number is first cast to its dtype (wrapping)."""
    if exponent.dtype.kind in "iu":
        return _int_power(np.asarray(number).astype(exponent.dtype), exponent)
    if exponent.dtype == np.float32 and isinstance(number, (int, float)):
        return _float_math.pow_float32(np.float32(number), exponent)   # the base as a float32 tensor
    if exponent.dtype == np.float64 and isinstance(number, (int, float)):
        return _float_math.pow_float64(number, exponent)
    if _is_half(exponent.dtype) and isinstance(number, (int, float)):   # the base in the exponent's dtype, as a
        return _pow_via_float64(np.asarray(number, exponent.dtype), exponent)   # wrapped number takes it
    if exponent.dtype.kind == "c" or isinstance(number, complex):
        return _cpow(number, exponent)
    return np.power(number, exponent)


def _power_scalar(a, exponent):
    """``a ** exponent`` (a number) as PyTorch's float kernels compute it: x·x, x·x·x and 1/(x·x) for 2, 3
    and -2, sqrt, 1/sqrt and 1/x for 0.5, -0.5 and -1, pow in float64 rounded to float32 otherwise."""
    if a.dtype.kind == "c" and type(exponent) is complex and exponent.imag == 0:
        exponent = exponent.real   # (PyTorch's Scalar::equal(2.0) is true for 2+0j: the same special kernels)
    if a.dtype.kind == "c" and type(exponent) in (int, float) and exponent in (0.5, -0.5, -1, 2, 3, -2):
        # (PyTorch's complex kernels for these exponents: sqrt, rsqrt, reciprocal; z·z, z·z·z, 1/(z·z))
        if exponent in (0.5, -0.5, -1):
            return {0.5: sqrt.forward, -0.5: _rsqrt, -1: _reciprocal}[exponent](a)
        square = _complex_bits.power_product(a, a, a)
        if exponent == 2:
            return square
        return _complex_bits.power_product(square, a, a, cube_step=True) if exponent == 3 else _reciprocal(square)
    if a.dtype.kind == "c" and exponent not in (0, 1):   # (PyTorch fills 1 for 0 and copies for 1)
        return _cpow(a, exponent)
    if a.dtype.kind not in "fV" or not isinstance(exponent, (int, float)):
        return np.power(a, exponent)       # integers and complex
    if a.dtype.kind == "V" and exponent in (0.5, -0.5, -1):   # bfloat16 (not float16): PyTorch's sqrt, rsqrt and
        return {0.5: sqrt.forward, -0.5: _rsqrt, -1: _reciprocal}[exponent](a)   # reciprocal kernels
    if a.dtype.kind == "V" and exponent in (3, -2):   # bfloat16: x·x·x and 1/(x·x), each step rounded (ml_dtypes'
        return a * a * a if exponent == 3 else 1 / (a * a)  # arithmetic rounds each op to bfloat16, as PyTorch's)
    if a.dtype.itemsize == 2:   # float16, bfloat16: pow in float32, rounded; PyTorch's kernel reads the
        return _pow_via_float64(a, float(np.asarray(exponent, a.dtype)))  # exponent in the tensor's dtype
    if exponent == 2:
        return a * a
    if exponent == 3:
        return a * a * a
    if exponent == -2:
        return 1 / (a * a)
    if exponent == 0.5:   # (PyTorch's sqrt kernel: MKL's vsSqrt, not always the correctly rounded root)
        return sqrt.forward(a)
    if exponent in (-0.5, -1):   # (rsqrt: 1 / the exact root)
        r = np.sqrt(a) if exponent != -1 else a
        return 1 / r
    if a.dtype == np.float32:
        return _float_math.pow_scalar_exponent(a, exponent)
    if a.dtype == np.float64:   # SLEEF's pow on vector blocks, glibc's on the tail
        return _float_math.pow_float64(a, exponent)
    return _pow_via_float64(a, exponent)


_pow_via_float64 = _via_float64(np.power)
pow = Op("pow", "PowBackward0", _power_scalar, args=("exponent",),
         jvp="element_wise",
         self=pow_backward)                                               # d x^p = p x^(p-1)
pow_tensor = Op("pow", "PowBackward1", _power, inputs=("self", "exponent"),
                jvp="element_wise",
                self=pow_backward_self, exponent=pow_backward_exponent)


# ---- more arithmetic (part A) -----------------------------------------------------------------

def pow_backward_scalar_base(grad, self, exponent, result):
    """d b^y / dy = b^y·log(b) for a Python number b   (0 where b == 0 and y >= 0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        # (a complex exponent takes the base as a complex number, as PyTorch's base.toComplexDouble(): log(-3))
        complex_base = isinstance(self, complex) or exponent.is_complex()
        log_b = complex(np.log(complex(self))) if complex_base else float(np.log(float(self)))
    g = grad * mul_scalar(result, other=log_b).conj()  # (a Scalar product: PyTorch's MulBackward1)
    if self == 0:   # (a complex exponent: PyTorch's test is a real, non-negative one)
        cond = (exponent.imag == 0) & (exponent.real >= 0) if exponent.is_complex() else exponent >= 0
        g = _ops().where(cond, 0.0, g)
    return g


# 2 ** x: the base is a Python number, saved as a number (_saved_self = 2); one edge, to the exponent.
pow_scalar_base = Op("pow", "PowBackward2",   # (a new C-order tensor, as PyTorch's, whatever exponent's layout)
                     lambda exponent, self: _strides.contiguous(np.asarray(_power_of_number(self, exponent))),
                     jvp="element_wise",
                     inputs=("exponent",), args=("self",),
                     exponent=pow_backward_scalar_base)
pow_scalar_base.elementwise = False   # (C order: not TensorIterator's layout from the exponent's strides)
rsub_tensor = Op("rsub", "RsubBackward0",
                 lambda a, b, alpha: _sub_alpha(b, a, alpha) if alpha != 1 else np.subtract(b, a),
                 jvp="linear",
                 inputs=("self", "other"), args=("alpha",),
                 # d(y - αx)/dx = -α (PyTorch's maybe_multiply(-grad, α): a Scalar product, MulBackward1)
                 self=lambda grad, alpha: grad.neg() if alpha == 1 else mul_scalar(grad.neg(), other=_conj(alpha)),
                 other=lambda grad: grad)                                                 # d(y - αx)/dy = 1
# (PyTorch's rsub is sub(other, self): TensorIterator's layout, other as its first input, which breaks ties)
rsub_tensor.elementwise, rsub_tensor.operand_step = True, -1
def _tie_split(grad, self, other):
    """grad, halved where the two inputs tie (PyTorch divides by the Scalar 2: DivBackward1)."""
    return _ops().where(self == other, div_scalar(grad, other=2), grad)


def _pick_jvp(self_t, other_t, weight):
    """PyTorch's tangent of a pick between two inputs: other_t + w·(self_t - other_t), w the weight of self (so a
    nan or inf tangent of the input not picked still shows, as 0·inf)."""
    # (an integer or bool input has no tangent: PyTorch's ZeroTensor for it adds and subtracts as a float 0)
    if not (other_t.is_floating_point() or other_t.is_complex()):
        other_t = _ops().zeros_like(self_t)
    if not (self_t.is_floating_point() or self_t.is_complex()):
        self_t = _ops().zeros_like(other_t)
    return other_t + weight * (self_t - other_t)


_TIE_BLOCKS = {np.dtype(np.float32): 16, np.dtype(np.float64): 8, np.dtype(np.float16): 32,   # (measured)
               _sums._BF16: 32}


def _signed_zero_ties(kernel):
    """maximum/minimum as PyTorch picks between +0.0 and -0.0 (equal, so either is right): its vector code
    (AVX2 max/min: the second operand on a tie) takes `other` on whole blocks of 2 vectors (2 x 8 floats,
    2 x 4 doubles, 32 float16/bfloat16: this kernel's blocks, measured; clamp's tensor bounds too), its scalar code
    (std::max/min: the first) takes `self` on the rest. NumPy picks its own way; only zeros can differ."""
    def forward(a, b):
        out = kernel(a, b)
        block = _TIE_BLOCKS.get(out.dtype)
        if block is None or a.dtype != out.dtype or b.dtype != out.dtype:
            return out
        ties = (a == 0) & (b == 0)
        if not ties.any():
            return out
        shape = ties.shape
        pick = _float_math.two_paths(lambda a, b: np.array(np.broadcast_to(b, np.broadcast_shapes(a.shape, b.shape))),
                                     lambda a, b: np.broadcast_to(a, np.broadcast_shapes(a.shape, b.shape)),
                                     a, b, block=block)
        return np.where(ties, pick, out).reshape(shape).astype(out.dtype, copy=False)
    return forward


maximum = Op("maximum", "MaximumBackward0", _signed_zero_ties(np.maximum), inputs=("self", "other"),
             # w = 1 where self wins, 1/2 on a tie (PyTorch's result: formula)
             jvp=lambda self_t, other_t, self, other, result: _pick_jvp(
                 self_t, other_t, _ops().where(self == other, 0.5, (self > other).to(result.dtype))),
             # the larger input takes the gradient; a tie splits it in half (masked_fill_ in place on where's
             # result, as PyTorch's formula: the gradient keeps where's layout, an out-of-place one is C order)
             self=lambda grad, self, other: _tie_split(grad, self, other).masked_fill_(self < other, 0),
             other=lambda grad, self, other: _tie_split(grad, self, other).masked_fill_(self > other, 0))
minimum = Op("minimum", "MinimumBackward0", _signed_zero_ties(np.minimum), inputs=("self", "other"),
             jvp=lambda self_t, other_t, self, other, result: _pick_jvp(
                 self_t, other_t, _ops().where(self == other, 0.5, (self < other).to(result.dtype))),
             self=lambda grad, self, other: _tie_split(grad, self, other).masked_fill_(self > other, 0),
             other=lambda grad, self, other: _tie_split(grad, self, other).masked_fill_(self < other, 0))
# The condition goes through the dtype cast with the values; .astype(bool) undoes that exactly.
where = Op("where", "WhereBackward0", lambda c, a, b: np.where(c.astype(bool, copy=False), a, b),
           # PyTorch's result: formula, a where of the tangents (each missing one a zero of its input's dtype):
           # so the tangents' own promotion gives the dtype (a float64 one of a 0-d float64 input beside a float32
           # one, under jacfwd where vmap makes both physically 1-d: float64)
           jvp=lambda condition, self_t, other_t: _ops().where(condition, self_t, other_t),
           inputs=("condition", "self", "other"),
           self=lambda grad, condition: _ops().where(condition, grad, 0.0),     # d/dx where(c, x, y) = [c]
           other=lambda grad, condition: _ops().where(condition, 0.0, grad))    # d/dy = [not c]
lerp = Op("lerp", "LerpBackward0", lambda a, b, weight: _lerp(a, b, weight), inputs=("self", "end"),
          # PyTorch's result: formula, a lerp of the tangents: so they must share a dtype (a float64 one, see
          # forward_ad._lifted_number_dtype, beside a float32 one: lerp's "expected dtype" error)
          jvp=lambda self_t, end_t, weight: _ops().lerp(self_t, end_t, weight),
          args=("weight",),
          # d lerp/d start = 1 - w, d lerp/d end = w: conjugated for a complex w (a gradient is grad · conj(slope))
          self=lambda grad, weight: mul_scalar(grad, other=_conj_number(1 - weight)),
          end=lambda grad, weight: mul_scalar(grad, other=_conj_number(weight)))
lerp_tensor = Op("lerp", "LerpBackward1", _lerp, inputs=("self", "end", "weight"),
                 # PyTorch's result: formula, lerp(self_t, end_t, w) + w_t · (end - self) (see lerp's)
                 jvp=lambda self_t, end_t, weight_t, self, end, weight:
                     _ops().lerp(self_t, end_t, weight) + weight_t * (end - self),
                 self=lambda grad, weight: grad * _one_minus(weight).conj(),
                 end=lambda grad, weight: grad * weight.conj(),
                 weight=lambda grad, self, end: grad * (end - self).conj())   # d lerp/d w = end - start


def _complex32_round(z) -> np.ndarray:
    """Complex values rounded as c10::complex<Half> stores them (each part to float16), kept as complex64: its
    arithmetic rounds every operation so (each done in float)."""
    return _dtypes.complex32_values(_dtypes.as_complex32(np.asarray(z, np.complex64), warn=False))


def _addcmul(a, t1, t2, value):
    # PyTorch's kernel: self + (value·t1)·t2, the multiply-add fused (rounded once) for floats.
    if _dtypes.is_complex32(a.dtype):   # (operands as complex32: _dispatch._COMPLEX32_OWN_ROUNDING)
        a, t1, t2 = (_dtypes.complex32_values(x) for x in (a, t1, t2))
        scaled = _complex32_round(_complex32_round(value) * t1)
        return _complex32_round(a + _complex32_round(scaled * t2))
    dt = np.result_type(a, t1, t2)
    if _is_half(dt):   # float16/bfloat16: PyTorch's kernel computes self + value·t1·t2 in float32, rounded once
        f32 = np.float32
        return (a.astype(f32) + f32(value) * t1.astype(f32) * t2.astype(f32)).astype(dt)
    if dt.kind == "c":   # (PyTorch's complex products round otherwise than NumPy's: _complex_bits)
        return _complex_bits.addcmul(a, t1, t2, value)
    scaled = t1 * dt.type(value)
    if dt.kind == "f":
        return fma(scaled, t2, a, dt)
    return (a + scaled * t2).astype(dt, copy=False)


def _scalar_over(value, t):
    """value / t as ATen's ``Scalar / Tensor`` operator: empty_like(t, preserve_format).fill_(value).div_(t)."""
    from ._creation import empty_like
    out = empty_like(t)   # (empty_like preserves t's layout)
    out.fill_(value)
    return out.div_(t)


def _addcdiv(a, t1, t2, value):
    # self + (value·t1)/t2, in that order (no fused step).
    dt = np.result_type(a, t1, t2)
    if _is_half(dt):   # float16/bfloat16: PyTorch's kernel computes self + value·t1/t2 in float32, rounded once
        f32 = np.float32
        return (a.astype(f32) + f32(value) * t1.astype(f32) / t2.astype(f32)).astype(dt)
    if dt.kind == "c":   # (PyTorch's complex division rounds otherwise than NumPy's: _complex_bits)
        return _complex_bits.addcdiv(a, t1, t2, value)
    return (a + t1 * dt.type(value) / t2).astype(dt, copy=False)


def _maybe_multiply(t, value):
    """t·value, or t itself when value is 1 (PyTorch's maybe_multiply)."""
    return t if value == 1 else mul_scalar(t, other=value)


addcmul = Op("addcmul", "AddcmulBackward0", _addcmul, inputs=("self", "tensor1", "tensor2"), args=("value",),
             # PyTorch's result: formula, the products first (0-d float64 t1 times a bool t2 stays float64)
             jvp=lambda self_t, tensor1_t, tensor2_t, tensor1, tensor2, value:
                 self_t + _maybe_multiply(tensor1_t * tensor2 + tensor2_t * tensor1, value),
             self=lambda grad: grad,                                              # d/d self = 1
             tensor1=lambda grad, tensor2, value: grad * mul_scalar(tensor2, other=value).conj(),   # value·t2
             tensor2=lambda grad, tensor1, value: grad * mul_scalar(tensor1, other=value).conj())   # value·t1
addcdiv = Op("addcdiv", "AddcdivBackward0", _addcdiv, inputs=("self", "tensor1", "tensor2"), args=("value",),
             # PyTorch's result: formula, each quotient in its operands' dtype (float32 t1/t2 with a float64 self)
             jvp=lambda self_t, tensor1_t, tensor2_t, tensor1, tensor2, value:
                 self_t + _maybe_multiply(tensor1_t / tensor2, value)
                 - _maybe_multiply(tensor2_t * (tensor1 / tensor2) / tensor2, value),
             self=lambda grad: grad,                                              # d/d self = 1
             # d/d t1 = value/t2, as ATen's Scalar / Tensor operator computes it: empty_like(t2).fill_(value).div_(t2)
             # (a DivBackward0 whose _saved_self is the filled tensor)
             tensor1=lambda grad, tensor2, value: grad * _scalar_over(value, tensor2).conj(),
             # d/d t2 = -value·t1/t2²
             tensor2=lambda grad, tensor1, tensor2, value: _addcdiv_tensor2_backward(grad, tensor1, tensor2, value))


def _addcdiv_tensor2_backward(grad, tensor1, tensor2, value):
    """PyTorch's ``-grad * (value * tensor1 / (tensor2 * tensor2)).conj()``, each operator's right operand made first
    (as C++ evaluates it)."""
    square = tensor2 * tensor2
    quotient = (mul_scalar(tensor1, other=value) / square).conj()
    return grad.neg() * quotient


# =============================================================================================
# Reductions
# =============================================================================================

def mean_backward(grad, sizes, numel):
    """d mean(x) / dx_i = 1/n:  grad ↦ expand(grad, sizes) / n."""
    kind = grad._data.dtype.kind
    fast = _untracked() and not (_meta.METAS and _meta.is_meta(grad))   # (meta: the ops compute no values)
    if kind == "f" and type(numel) is int and fast and _errstate_get() is _QUIET:  # (quiet: in a pass)
        # Every element is the same quotient g/n: divided once and copied out. IEEE division is exactly
        # rounded, so these are the bits of dividing the expanded gradient, in a fresh C-order array as
        # PyTorch's (np.broadcast_to alone costs ~20k instructions: every ``loss.mean()``'s backward).
        return Tensor._make(np.full(sizes, np.divide(grad._data, numel)))
    if type(numel) is int and kind in "fc" and fast:
        # the same ufunc on the same arrays as the two ops below (tensor / int is np.divide)
        return _numpy_result(np.divide, np.broadcast_to(grad._data, sizes), numel)
    return div_scalar(grad.expand(sizes), other=numel)   # (PyTorch divides by the count as a Scalar: DivBackward1)


def _axes(dim):
    """NumPy's ``axis`` for a reduction's ``dim``: None and () (PyTorch's ``dim=[]``) both mean every dim."""
    return None if dim == () else dim


# Sums and means add in PyTorch's CPU order (minigrad/_reduce.py), so they round as PyTorch's do;
# half and bfloat16 accumulate in float32 there.
_sum_in_acc = _sums.sum
sum = Op("sum", "SumBackward0", _sum_in_acc,
         jvp="linear",
         self=lambda grad, self_sym_sizes: expand(grad, size=self_sym_sizes))   # d Σx / dx_i = 1
sum_dim = Op("sum", "SumBackward1",
             _rank0_ok(lambda a, dim, keepdim: _sum_in_acc(a, axis=_axes(dim), keepdims=keepdim)),
             jvp="linear",
             args=("dim", "keepdim"),
             self=lambda grad, self_sym_sizes, dim, keepdim: sum_backward(grad, self_sym_sizes, dim, keepdim))
mean = Op("mean", "MeanBackward0", _sums.mean,
          jvp="linear",
          self=lambda grad, self_sym_sizes, self_sym_numel: mean_backward(grad, self_sym_sizes, self_sym_numel))
mean_dim = Op("mean", "MeanBackward1",
              _rank0_ok(lambda a, dim, keepdim: _sums.mean(a, _axes(dim), keepdim)),
              jvp="linear",
              args=("dim", "keepdim"),
              self=lambda grad, self_sym_sizes, dim, keepdim, self_sym_numel:
                  div_scalar(sum_backward(grad, self_sym_sizes, dim, keepdim),
                             other=_reduced_count(self_sym_sizes, dim)))


# ---- more reductions (part A) -----------------------------------------------------------------

def _restore(t, sizes, dim, keepdim):
    """Put reduced dims back as size 1 (so ``t`` broadcasts against the input)."""
    if not keepdim and len(sizes) > 0:
        if isinstance(dim, int) or (isinstance(dim, (tuple, list)) and len(dim) == 1):
            return t.unsqueeze(dim if isinstance(dim, int) else dim[0])  # (unsqueeze_multiple: one dim as given)
        for d in sorted(_dims(dim, len(sizes))):
            t = t.unsqueeze(d)
    return t


def prod_backward(grad, self, result, dim=None, keepdim=False):
    """d Πx / dx_i = Π_{j≠i} x_j: result / x_i when no x is 0, else the product of the others."""
    sizes = tuple(self.shape)
    if not sizes:  # (a 0-dim input: PyTorch passes grad through)
        return grad
    if dim is not None:  # (the full product's 0-dim grad and result broadcast as they are, as in PyTorch)
        dim %= len(sizes)  # (prod_backward wraps the dim first)
        grad, result = _restore(grad, sizes, dim, keepdim), _restore(result, sizes, dim, keepdim)
    # (an input wrapped by a live torch.func level is "subclass-like": PyTorch always takes the safe path there)
    if not _wrapped_by_live_level(self) and not bool((self._data == 0).any()):
        return grad * (result / self).conj()
    if dim is None:  # as PyTorch: over the flattened input, viewed back (a ViewBackward0 on top)
        return _prod_safe_zeros_backward(grad, self.reshape(-1), 0).reshape(sizes)
    return _prod_safe_zeros_backward(grad, self, dim)


def _wrapped_by_live_level(*tensors) -> bool:
    """PyTorch's ``areAnyTensorSubclassLike(tensors)`` in a backward formula under torch.func: one is wrapped by a
    level still running (batched by a running vmap, seen by a running transform's function, or differentiated by
    grad's or jvp's own backward; not by a vjp_fn called after its vjp returned, whose level is dead)."""
    from .autograd.function import _TRANSFORMS_ACTIVE
    return bool(_TRANSFORMS_ACTIVE[0] or _vmap_batched.LIVE_LEVEL_BACKWARD[0] or _vmap_batched.levels_of(*tensors))


def _prod_safe_zeros_backward(grad, x, dim):
    """grad·Π_{j≠i} x_j along ``dim`` as PyTorch's prod_safe_zeros_backward: the exclusive cumulative products
    from the front and from the back (1, x0, x0x1 ... times ... x2x3, x3, 1), multiplied (its rounding)."""
    n = x.shape[dim]
    if x.numel() == 0:
        return grad.expand_as(x)
    if n == 1:
        return grad
    from ._creation import ones
    ops = _ops()
    one = _meta.follow(ones(x.shape[:dim] + (1,) + x.shape[dim + 1:], dtype=grad.dtype), x)   # (x's device)
    normal = ops.cat([one, x.narrow(dim, 0, n - 1)], dim).cumprod(dim)
    reverse = ops.cat([one, x.narrow(dim, 1, n - 1).flip(dim)], dim).cumprod(dim).flip(dim)
    return grad * (normal * reverse).conj()


def evenly_distribute_backward(grad, self, result):
    """max()/min()/median() over all elements: the gradient is shared evenly by every element equal to the
    result (by the NaNs when it is NaN). PyTorch's CPU form: zeros with the shares filled in, in place
    (MaskedFillBackward1; the gradient's version is 1). On the meta device, whose result cannot be read, and under
    torch.func (its "subclass-like" wrapped tensors, maybe batched; a vjp_fn's dead ones too), its form for such
    tensors: the mask of the elements equal to the result (or NaN with it), times grad / their count (0 · inf is NaN
    there)."""
    if (_meta.METAS and _meta.is_meta(self)) or _vmap_batched.TRANSFORM_BACKWARD[0] or \
            _wrapped_by_live_level(grad, self, result):
        mask = (self == result).logical_or_(self.isnan().logical_and(result.isnan()))
        return mask * (grad / mask.sum())
    mask = self.isnan() if bool(result.isnan()) else self == result
    # (new zeros in C order, as PyTorch's grad.new_zeros(input.sizes()): not self's layout, a transposed view's)
    return grad.new_zeros(self.shape, dtype=self.dtype).masked_fill_(mask, grad / mask.sum())


def evenly_read_jvp(self_t, self, result):
    """max()/min()/median()/nanmedian()'s forward derivative: the mean of the tangents of the elements equal to the
    result, PyTorch's sum(mask * (t / count)). Unlike the backward, a NaN result matches nothing (NaN != NaN), so
    its tangent is 0/0 = NaN."""
    mask = self == result
    return (mask * (self_t / mask.sum())).sum()


def value_selecting_backward(grad, dim, indices, sizes, keepdim):
    """max(dim)/min(dim)/sort/topk: grad scattered to the chosen positions of zeros (PyTorch's scatter_)."""
    if not keepdim and len(sizes):  # (a 0-dim input too scatters into zeros, as PyTorch's)
        grad = grad.unsqueeze(dim)
        indices = indices.unsqueeze(dim)
    return _ops().zeros(tuple(sizes), dtype=grad.dtype).scatter(dim, indices, grad)


def scale_grad_by_count(grad, self, result, dim, keepdim):
    """amax/amin: grad shared evenly by the elements equal to the result, per reduced slice."""
    sizes = tuple(self.shape)
    dims = _dims(dim, len(sizes))   # (a 0-dim input too: its count of 1 divides, a DivBackward0 under create_graph)
    mask = _reshape_reduced(result, sizes, dim, keepdim) == self
    # PyTorch's scale_grad_by_count: (grad / count) * mask, the reduced dims put back by a reshape
    return (_reshape_reduced(grad, sizes, dim, keepdim) / mask.sum(dims, keepdim=True)) * mask


def _reshape_reduced(t, sizes, dim, keepdim):
    """PyTorch's restore_reduced_dims: the reduced dims back as size 1, by a reshape (dim=[]: to its own shape)."""
    if keepdim:
        return t
    if dim is None or dim == ():   # (still a reshape: a ViewBackward0 under create_graph, as PyTorch's)
        return t.reshape(t.shape)
    dims = _dims(dim, len(sizes))
    if not sizes:   # (a 0-dim input over dim 0: one size-1 dim per listed dim, the engine sums it back)
        return t.reshape((1,) * len(dims))
    return t.reshape(tuple(1 if d in dims else s for d, s in enumerate(sizes)))


def _two_over(dof: float) -> float:
    return 2.0 / dof if dof != 0 else math.inf   # (C++'s 2.0 / 0.0 is inf)


def var_backward(grad, self, dim, correction, keepdim):
    """d var(x) / dx = 2 (x - mean) / (N - correction), built as PyTorch's var_backward builds it."""
    c = 1 if correction is None else correction
    if self.dim() == 0 or dim is None:
        dof = self.numel() - c
        if dof <= 0:   # 2/(n - c) is inf: NaN where x equals the mean (inf·0), inf elsewhere
            nan_or_inf = _ops().where(self == self.mean(), math.nan, math.inf)
            out = grad * nan_or_inf
            if out.dim() == 0 and grad.dim() == 0 and np.isnan(grad._data) and np.isnan(nan_or_inf._data):
                # (std's NaN grad at 0-dim: PyTorch's mul of two 0-dim NaNs keeps the second's sign, NumPy the first's)
                out._data = nan_or_inf._data.astype(out._data.dtype)
            return out
        centered = self - self.mean()   # (C++ makes the right operand of (2 / dof) * grad * (x - mean) first)
        return mul_scalar(grad, other=2.0 / dof) * centered
    sizes = tuple(self.shape)
    if not keepdim and len(sizes) > 1 and dim != ():   # (dim=[]: nothing to put back)
        grad = _restore(grad, sizes, dim, keepdim)
    # dim=[] reduces every dim, but PyTorch counts its elements as the empty product, 1: 2 / (1 - correction)
    n = 1 if dim == () else _reduced_count(sizes, dim)
    # (the dims as given, negative ones too: the mean node saves them, as PyTorch's does)
    dims = _dims(dim, len(sizes)) if dim == () else tuple(dim) if isinstance(dim, (tuple, list)) else (dim,)
    centered = self - self.mean(dims, keepdim=True)   # (the right operand first, as C++ evaluates it)
    return mul_scalar(grad, other=_two_over(n - c)) * centered


def std_backward(grad, self, dim, correction, keepdim, result):
    """d std = d var / (2 std)   (0 where std == 0)."""
    g = grad / mul_scalar(result, other=2)
    _zerotensor.check_mutable(g)   # (PyTorch's masked_fill_ in place: a ZeroTensor grad, from sgn, refuses it)
    g.masked_fill_(result == 0, 0)   # (in place: g keeps the division's layout, which var_backward's products follow)
    return var_backward(g, self, dim, correction, keepdim)


def _var(a, dim, correction, keepdim):
    if a.dtype.kind in "fc" and a.itemsize >= 4 and a.size:   # float32/64, complex64/128: PyTorch's order
        ddof = 1 if correction is None else correction
        axes = _axes(dim)
        n = a.size if axes is None else math.prod(a.shape[d] for d in np.atleast_1d(axes))
        if n - ddof > 0:
            # (complex: the variance of the real parts plus that of the imaginary parts, as PyTorch's)
            parts = [_var_cpu.var(a.real, axes, ddof), _var_cpu.var(a.imag, axes, ddof)] if a.dtype.kind == "c" \
                else [_var_cpu.var(a, axes, ddof)]
            if all(p is not None for p in parts):
                rdt = a.real.dtype
                parts = [p.astype(rdt) for p in parts]   # (each in the real dtype, as PyTorch's outputs)
                out = parts[0] + parts[1] if len(parts) == 2 else parts[0]
                if keepdim:
                    out = np.expand_dims(out, tuple(range(a.ndim)) if axes is None else axes)
                return np.asarray(out).copy(order="C")   # (a fresh C-order result; 0-dim stays 0-dim)
        elif a.dtype.kind == "c":   # (too few elements: still var(real) + var(imag), so a constant part's 0/0
            return _var(a.real, dim, correction, keepdim) + _var(a.imag, dim, correction, keepdim)   # nan shows)
    if a.dtype == np.float32:   # PyTorch's Welford kernel accumulates float32 in double, rounds once at the end
        return _var(a.astype(np.float64), dim, correction, keepdim).astype(np.float32)
    if _is_half(a.dtype):  # float16/bfloat16: PyTorch computes a float32 result (as above), then rounds it
        return _var(a.astype(np.float32), dim, correction, keepdim).astype(a.dtype)
    ddof = 1 if correction is None else correction
    axes = _axes(dim)
    n = a.size if axes is None else int(np.prod([a.shape[d] for d in np.atleast_1d(axes)]))
    if n - ddof > 0:
        out = np.var(a, axis=axes, ddof=ddof, keepdims=keepdim)
    else:
        # too few elements: nan/inf (var()/std() give PyTorch's warning). Computed here rather than by np.var,
        # whose own warning would need a warnings filter, and changing the filters makes Python repeat the
        # user's once-per-line warnings.
        with np.errstate(divide="ignore", invalid="ignore"):
            total = np.sum(a, axis=axes, keepdims=True)
            centred = a - total / n if n else a
            squares = np.sum(np.real(centred * np.conj(centred)), axis=axes, keepdims=keepdim)
            out = squares / np.float64(max(n - ddof, 0))
            if n == 0:
                out = np.full(np.shape(out), np.nan)
    return _strides.contiguous(np.asarray(out).astype(a.real.dtype, copy=False))  # (C order, as PyTorch's)


def _std(a, dim, correction, keepdim):
    if a.dtype == np.float32:   # (the square root too is taken in double: √ of the unrounded variance)
        return np.sqrt(_var(a.astype(np.float64), dim, correction, keepdim)).astype(np.float32)
    if _is_half(a.dtype):  # (a float32 result, as above, rounded)
        return _std(a.astype(np.float32), dim, correction, keepdim).astype(a.dtype)
    if a.dtype.kind == "c":   # (complex: PyTorch's at::sqrt_out of var(real) + var(imag), its VML sqrt)
        return _vml_sqrt(np.asarray(_var(a, dim, correction, keepdim)))
    return np.sqrt(_var(a, dim, correction, keepdim))


_vml_sqrt = _vml.unary("sqrt", np.sqrt)


_lse_exp, _lse_log = _vml.unary("exp", np.exp), _vml.unary("log", np.log)


def _logsumexp(a, dim, keepdim):
    # log Σ e^x = m + log Σ e^(x - m) with m = max x (taken as 0 where it is ±inf).
    dim = _axes(dim)
    m = np.amax(a, axis=dim, keepdims=True) if a.size else np.zeros((1,) * a.ndim, a.dtype)
    if a.dtype in (np.float32, np.float64) and a.size:   # PyTorch's steps: MKL's exp (in x's layout: the
        m = np.where(np.abs(m) == np.inf, a.dtype.type(0), m)   # sum's order follows it), its sum, MKL's log
        with np.errstate(invalid="ignore"):
            shifted = a - m
        e = np.empty_like(shifted)
        e[...] = _lse_exp(shifted)
        out = _lse_log(_sums.sum(e, axis=dim, keepdims=True)) + m
        return out if keepdim else np.squeeze(out, axis=dim)
    if _is_half(a.dtype) and a.size:   # float16/bfloat16: the same steps, each result rounded to the half type
        m = np.where(np.abs(m) == np.inf, a.dtype.type(0), m).astype(a.dtype)   # (the sum in float32, rounded)
        with np.errstate(invalid="ignore", divide="ignore"):
            e = np.exp((a - m).astype(a.dtype)).astype(a.dtype)
            out = (np.log(_sums.sum(e, axis=dim, keepdims=True)).astype(a.dtype) + m).astype(a.dtype)
        return out if keepdim else np.squeeze(out, axis=dim)
    if np.iscomplexobj(a) and a.size:   # complex: m is the max of the REAL parts (PyTorch's choice), so the imaginary
        m = np.amax(a.real, axis=dim, keepdims=True)   # part goes through exp and log: the principal value in (-π, π]
        m = np.where(np.abs(m) == np.inf, m.dtype.type(0), m)
    m = np.where(np.isfinite(m), m, 0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - m), axis=dim, keepdims=True)) + m
    return (out if keepdim else np.squeeze(out, axis=dim)).astype(a.dtype, copy=False)


def _running_total(x: np.ndarray, dim, keepdim) -> np.ndarray:
    """The sum over ``dim`` (None: all) added element by element in memory order, from 0, as binary_kernel_reduce's
    loop (one thread) adds a complex tensor's norm terms."""
    dims = tuple(range(x.ndim)) if dim is None else tuple(d % x.ndim for d in np.atleast_1d(dim))
    kept = [d for d in range(x.ndim) if d not in dims]
    order = sorted(dims, key=lambda d: -x.strides[d])   # (the reduced dims walked in memory order)
    terms = np.transpose(x, kept + order).reshape([x.shape[d] for d in kept] + [-1])
    head = np.zeros(terms.shape[:-1] + (1,), x.dtype)
    out = np.add.accumulate(np.concatenate([head, terms], axis=-1), axis=-1)[..., -1]
    return np.expand_dims(out, dims) if keepdim else out


def _vector_norm(a, ord, dim, keepdim, single=True):
    """‖a‖_ord over dim. ``single=False``: a 0-dim input reduced over dim 0 (seen here as 1 element), which
    PyTorch's one-element shortcut misses (it reads the sizes of a 0-dim tensor out of range): x^p and the root."""
    if _float_math._is_reduced(a.dtype) and a.size:   # float16/bfloat16: PyTorch accumulates in float32, rounds once
        return _vector_norm(a.astype(np.float32), ord, dim, keepdim, single).astype(a.dtype)
    dim = _axes(dim)
    reduced = a.shape if dim is None else [a.shape[d] for d in np.atleast_1d(dim)]
    if ord != 0 and a.size and math.prod(reduced) == 1 and (single or ord in (1, np.inf, -np.inf)):
        out = np.ascontiguousarray(_abs(a)).reshape(a.shape)   # one element per result: PyTorch returns |x| itself
        return out if keepdim else np.squeeze(out, axis=dim)   # (no x^p and root that round; 0-dim stays 0-dim)
    if ord == 0 and a.dtype.kind == "c" and a.size and math.prod(reduced) == 1 and single:
        # (PyTorch's one-element path counts x != 0 in the complex dtype, then copies the counts into the real
        # result: that copy gives the complex-to-real warning, once per process)
        cast_array(np.ones(1, a.dtype), np.float64)
    if a.dtype in (np.float32, np.float64) and ord not in (0, np.inf, -np.inf) and a.size:   # PyTorch's order
        out = _strides.contiguous(np.asarray(_vector_norm_f32(a, ord, dim, single)))   # (a new C-order tensor)
        return np.expand_dims(out, tuple(range(a.ndim)) if dim is None else dim) if keepdim else out
    x = _complex_abs_scalar(a) if a.dtype.kind == "c" else np.abs(a)   # (complex: std::abs, glibc's hypot)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if ord == 2 and a.dtype.kind == "c" and a.size:   # (NormTwoOps: acc + |z|·|z|, element by element)
            out = np.sqrt(_running_total(x * x, dim, keepdim))
        elif ord == 1 and a.dtype.kind == "c" and a.size:   # (NormOneOps: acc + |z|, the same)
            out = _running_total(x, dim, keepdim)
        elif ord not in (0, np.inf, -np.inf) and a.dtype.kind == "c" and a.size:   # (NormOps: acc + |z|^p, glibc pow)
            out = _norm_f32._finish(_running_total(_norm_f32._terms(x, ord), dim, keepdim), ord)
        elif ord == 2:
            out = np.sqrt(np.sum(x * x, axis=dim, keepdims=keepdim))
        elif ord == np.inf:
            out = np.amax(x, axis=dim, keepdims=keepdim)
        elif ord == -np.inf:
            out = np.amin(x, axis=dim, keepdims=keepdim)
        elif ord == 0:
            out = np.sum(x != 0, axis=dim, keepdims=keepdim)
        elif ord == 1:
            out = np.sum(x, axis=dim, keepdims=keepdim)
        else:
            out = np.power(np.sum(np.power(x, ord), axis=dim, keepdims=keepdim), 1.0 / ord)
    return _strides.contiguous(np.asarray(out).astype(x.dtype, copy=False))   # (NumPy's follows a's layout)


def norm_backward(grad, self, ord, dim, keepdim, result):
    """d ‖x‖_p: sgn(x) (p=1); x/‖x‖ (p=2); sgn(x)·|x|^(p-1)/‖x‖^(p-1) (other p); max-|x| share (p=±inf).

    Built from the same ops as PyTorch's norm_backward, so a double backward records the same graph.
    """
    sizes = tuple(self.shape)
    if dim is not None and (isinstance(dim, int) or len(dim)):   # (dim None or (): the result broadcasts as it is)
        grad = _restore(grad, sizes, dim, keepdim)
        result = _restore(result, sizes, dim, keepdim)
    if ord == 0:
        return None   # (PyTorch's undefined gradient: x does not count as used)
    if ord == 1:
        return self.sgn() * grad
    # (PyTorch's in-place steps on fresh tensors: the same versions, and pow_ saves a copy of its input; operands
    # built in C++'s right-to-left order, so the nodes get PyTorch's sequence numbers)
    if ord == 2:
        return grad * (self / result).masked_fill_(result == 0, 0)
    if ord in (np.inf, -np.inf):
        self_abs = self.abs()
        mask = self_abs.eq(result).logical_or(self_abs.isnan())   # the argmax (NaN included)
        share = (grad / mask.sum(_dims(dim, len(sizes)), keepdim=True)) * mask   # (C++ makes the right operand first)
        return self.sgn() * share
    if ord < 1:
        powered = self.abs().pow_(ord - 1).masked_fill_(self == 0, 0)
        self_scaled = self.sgn() * powered
        shrink = result.pow(1 - ord)
        return self_scaled * grad * shrink
    powered = self.abs().pow_(ord - 1 if ord < 2 else ord - 2)
    self_scaled = self.sgn() * powered if ord < 2 else self * powered
    scale_v = grad / result.pow(ord - 1)
    scale_v.masked_fill_(result == 0, 0)
    return self_scaled * scale_v


def cumsum_backward(grad, dim):
    """d cumsum: the reversed cumulative sum of grad, Σ_{j>=i} g_j (PyTorch's flip, cumsum, flip)."""
    if grad.numel() <= 1 or grad.shape[dim] == 1:
        return grad
    return grad.flip(dim).cumsum(dim).flip(dim)


def _select_dim(arg):
    def forward(a, dim, keepdim):
        idx = np.expand_dims(arg(a, axis=dim), dim)
        values = np.take_along_axis(a, idx, axis=dim)
        if not keepdim:
            values, idx = np.squeeze(values, dim), np.squeeze(idx, dim)
        return values, idx.astype(np.int64)
    return forward


_HALF_LANES = 16   # Vectorized<Half/BFloat16>::size() of the reduction kernels PyTorch's CPU build runs (AVX2)


def _half_prod_rows(x: np.ndarray) -> np.ndarray:
    """The product of each row of ``x`` (rows, n) in the half type itself, as binary_kernel_reduce_vec runs
    prod_kernel_impl along a contiguous dim (every multiplication rounded to the type; NumPy's float16 prod keeps
    a float32 running product instead): four vectors of 16 take blocks of 64 (the first block as the start),
    then (v0·v1)·(v2·v3), its lanes one by one, and 1 times that; the last n % 64 multiplied in order."""
    rows, n = x.shape
    block = 4 * _HALF_LANES
    out = np.ones(rows, x.dtype)
    count = n // block
    if count:
        acc = x[:, :block].reshape(rows, 4, _HALF_LANES)
        for i in range(1, count):
            acc = acc * x[:, i * block:(i + 1) * block].reshape(rows, 4, _HALF_LANES)
        lanes = (acc[:, 0] * acc[:, 1]) * (acc[:, 2] * acc[:, 3])
        total = lanes[:, 0]
        for j in range(1, _HALF_LANES):
            total = total * lanes[:, j]
        out = out * total
    for i in range(count * block, n):
        out = out * x[:, i]
    return out


def _prod_kernel(a: np.ndarray, dim=None, keepdim=False) -> np.ndarray:
    """prod over all elements (``dim`` None) or one dim. float16/bfloat16 step in their own type (PyTorch's
    kernel: _half_prod_rows along a contiguous dim, else one output at a time in order); complex: PyTorch's
    reduction kernel (_complex_bits); others: NumPy."""
    if a.dtype.kind == "c" and a.size:
        return _complex_prod(a, dim, keepdim)
    if not (a.dtype.itemsize == 2 and a.dtype.kind in "fV"):
        return np.prod(a, axis=dim, keepdims=keepdim, dtype=a.dtype)
    if dim is None:   # (TensorIterator reads the whole tensor in memory order as one row)
        out = _half_prod_rows(np.ravel(a, order="K")[None])[0]
        return out.reshape((1,) * a.ndim) if keepdim else out
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(math.prod(moved.shape[:-1]), a.shape[dim])
    if a.strides[dim] == a.itemsize or a.shape[dim] <= 4 * _HALF_LANES:
        out = _half_prod_rows(rows)
    else:   # (an outer reduction: each output a running product down the dim; no block of 64 first)
        out = np.ones(rows.shape[0], a.dtype)
        for i in range(rows.shape[1]):
            out = out * rows[:, i]
    out = out.reshape(moved.shape[:-1])
    return np.expand_dims(out, dim) if keepdim else out


def _complex_prod(a: np.ndarray, dim, keepdim) -> np.ndarray:
    """Complex prod as PyTorch's kernel: rows along a contiguous dim (or the whole tensor in memory order) by its
    inner reduction, a C-contiguous tensor's outer dims by its outer one, anything else one output at a time."""
    if dim is None:
        if _complex_bits._dense_strides(a) is not None:   # (one row in memory order)
            out = _complex_bits.prod_rows(np.ravel(a, order="K")[None])[0]
        else:   # (each contiguous line reduced into the same output in turn; a strided one element by element)
            lines = a.reshape(-1, a.shape[-1])
            out = np.ones(1, a.dtype)
            for line in lines:
                out = _complex_bits.prod_rows(line[None], a.strides[-1] == a.itemsize, out)
            out = out[0]
        return out.reshape((1,) * a.ndim) if keepdim else out
    n = a.shape[dim]
    if a.strides[dim] == a.itemsize or n == 1:
        out = _complex_bits.prod_rows(np.moveaxis(a, dim, -1).reshape(-1, n))
    elif a.flags.c_contiguous:   # (the dims after dim are each output row's columns)
        out = _complex_bits.prod_columns(a.reshape(math.prod(a.shape[:dim]), n, -1))
    else:
        out = _complex_bits.prod_rows(np.moveaxis(a, dim, -1).reshape(-1, n), vectorized=False)
    out = out.reshape(np.delete(a.shape, dim))
    return np.expand_dims(out, dim) if keepdim else out


prod = Op("prod", "ProdBackward0", lambda a: _prod_kernel(a),
          jvp="reduction",
          # (self in grad's dtype, as PyTorch's self.to(grad.scalar_type()): prod(z, dtype=float64) of complex z)
          self=lambda grad, self, result: prod_backward(grad, self.to(grad.dtype), result))
prod_dim = Op("prod", "ProdBackward1",
              _rank0_ok(lambda a, dim, keepdim:  # (C order, as PyTorch's)
                        _strides.contiguous(_prod_kernel(a, dim, keepdim))),
              jvp="reduction",
              args=("dim", "keepdim"),
              self=lambda grad, self, result, dim, keepdim: prod_backward(grad, self.to(grad.dtype), result, dim,
                                                                          keepdim))
max_all = Op("max", "MaxBackward1", lambda a: np.max(a),
         jvp=evenly_read_jvp,
         self=evenly_distribute_backward)
min_all = Op("min", "MinBackward1", lambda a: np.min(a),
         jvp=evenly_read_jvp,
         self=evenly_distribute_backward)
max_dim = Op("max", "MaxBackward0", _rank0_ok(_select_dim(np.argmax)), args=("dim", "keepdim"),
             jvp="reduction",
             outputs=("values", "indices"), differentiable_outputs=1,
             self=lambda grad, dim, indices, self_sym_sizes, keepdim:
                 value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))
min_dim = Op("min", "MinBackward0", _rank0_ok(_select_dim(np.argmin)), args=("dim", "keepdim"),
             jvp="reduction",
             outputs=("values", "indices"), differentiable_outputs=1,
             self=lambda grad, dim, indices, self_sym_sizes, keepdim:
                 value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))
def amaxamin_jvp(self_t, self, result, dim, keepdim):
    """amax/amin's tangent, PyTorch's amaxamin_jvp: the tangents of the elements equal to the result, averaged,
    where(mask, t, 0).sum(dim) / mask.sum(dim) (an infinite tangent of another element stays out: no 0 · inf)."""
    mask = self == _reshape_reduced(result, tuple(self.shape), dim, keepdim)
    dims = () if dim is None else dim
    return _ops().where(mask, self_t, 0.0).sum(dims, keepdim=keepdim) / mask.sum(dims, keepdim=keepdim)


amax = Op("amax", "AmaxBackward0",  # (a C-order result, as PyTorch's: NumPy's follows a's layout)
          _rank0_ok(lambda a, dim, keepdim: _strides.contiguous(np.amax(a, axis=dim or None,
                                                                          keepdims=keepdim))),
          jvp=amaxamin_jvp,
          args=("dim", "keepdim"),
          self=lambda grad, self, result, dim, keepdim: scale_grad_by_count(grad, self, result, dim, keepdim))
amin = Op("amin", "AminBackward0",  # (C order, as amax)
          _rank0_ok(lambda a, dim, keepdim: _strides.contiguous(np.amin(a, axis=dim or None, keepdims=keepdim))),
          jvp=amaxamin_jvp,
          args=("dim", "keepdim"),
          self=lambda grad, self, result, dim, keepdim: scale_grad_by_count(grad, self, result, dim, keepdim))
var = Op("var", "VarBackward0", _rank0_ok(_var), args=("dim", "correction", "keepdim"),
         jvp=lambda self_t, self, dim, correction, keepdim, result: var_jvp(self_t, self, dim, correction, keepdim,
                                                                          result),
         self=lambda grad, self, dim, correction, keepdim: var_backward(grad, self, dim, correction, keepdim))
std = Op("std", "StdBackward0", _rank0_ok(_std), args=("dim", "correction", "keepdim"),
         jvp=lambda self_t, self, dim, correction, keepdim, result: std_jvp(self_t, self, dim, correction, keepdim,
                                                                          result),
         self=lambda grad, self, dim, correction, keepdim, result:
             std_backward(grad, self, dim, correction, keepdim, result))
def _with_mean(stat):
    """Forward of var_mean / std_mean: (stat, mean) over the same dims, both in the input's real dtype."""
    def forward(a, dim, correction, keepdim):
        if a.dtype.kind in "fc" and a.itemsize >= 4 and a.size:   # one Welford pass in PyTorch's order
            got = _welford_stat_mean(a, stat is _std, dim, correction, keepdim)
            if got is not None:
                return got
            # (no degrees of freedom left: the same pass still gives the mean; the statistic is inf or nan)
            got = _welford_stat_mean(a, False, dim, 0, keepdim)
            if got is not None:
                return stat(a, dim, correction, keepdim), got[1]
        # (Welford's mean, also in double; float16/bfloat16 give a float32 one first, as their var does)
        wide = a.astype(np.float64) if a.dtype == np.float32 or _is_half(a.dtype) else a
        with warnings.catch_warnings() if a.size == 0 else contextlib.nullcontext():
            if a.size == 0:   # (an empty mean is nan quietly, as PyTorch's: not NumPy's "Mean of empty slice")
                warnings.simplefilter("ignore", RuntimeWarning)
            mean = np.asarray(np.mean(wide, axis=_axes(dim), keepdims=keepdim))
        if a.dtype.kind == "f" and a.size and np.isinf(a).any():   # (Welford's running mean: x - inf = -inf or
            axes = _axes(dim)                                       # nan, so ±inf among others gives nan)
            n = a.size if axes is None else math.prod(a.shape[d] for d in np.atleast_1d(axes))
            if n > 1:
                mean = np.where(np.isinf(wide).any(axis=axes, keepdims=keepdim), np.nan, mean)
        # (C order: NumPy's mean of a transposed input keeps its layout, PyTorch's reduction output is contiguous)
        mean = (mean.astype(np.float32) if _is_half(a.dtype) else mean).astype(a.dtype, copy=False)
        return stat(a, dim, correction, keepdim), mean if mean.flags.c_contiguous else mean.copy(order="C")
    return forward


def _welford_stat_mean(a, take_sqrt, dim, correction, keepdim):
    """(var or std, mean) of float32/64 or complex ``a`` from _var_cpu's Welford pass; None where it does not
    apply (too few values for the correction, or a reduction PyTorch splits across threads). Complex: the
    variances of the real and imaginary parts added (then VML's sqrt), the means as real + i·imag."""
    ddof = 1 if correction is None else correction
    axes = _axes(dim)
    n = a.size if axes is None else math.prod(a.shape[d] for d in np.atleast_1d(axes))
    if n - ddof <= 0:
        return None
    rdt = a.real.dtype
    parts = [_var_cpu.var(p, axes, ddof, with_mean=True) for p in ((a.real, a.imag) if a.dtype.kind == "c" else (a,))]
    if any(p is None for p in parts):
        return None
    if len(parts) == 1:   # (WelfordOps.project: the variance or its std::sqrt in double, then rounded)
        stat = (np.sqrt(parts[0][0]) if take_sqrt else parts[0][0]).astype(rdt)
        mean = parts[0][1].astype(rdt)
    else:
        stat = parts[0][0].astype(rdt) + parts[1][0].astype(rdt)
        stat = _vml_sqrt(np.asarray(stat)) if take_sqrt else stat
        mean = (parts[0][1].astype(rdt) + 1j * parts[1][1].astype(rdt)).astype(a.dtype)
    if keepdim:
        where = tuple(range(a.ndim)) if axes is None else axes
        stat, mean = np.expand_dims(stat, where), np.expand_dims(mean, where)
    return np.asarray(stat).copy(order="C"), np.asarray(mean).copy(order="C")


def _mean_backward(grad, self, dim, keepdim):
    """d mean(x) / dx_i = 1 / N."""
    sizes = tuple(self.shape)
    return div_scalar(_restore(grad, sizes, dim, keepdim).expand(sizes), other=_reduced_count(sizes, dim))


def _sum_defined(*terms):
    """The sum of the terms that are not None (PyTorch adds only the outputs' defined gradients)."""
    terms = [t for t in terms if t is not None]
    return terms[0] if len(terms) == 1 else terms[0] + terms[1]


# One node for both outputs, as in PyTorch (VarMeanBackward0 / StdMeanBackward0): the input's
# gradient is the sum of what each used output sends back (an unused output's grad is None here).
var_mean = Op("var_mean", "VarMeanBackward0", _rank0_ok(_with_mean(_var)), args=("dim", "correction", "keepdim"),
              outputs=("result0", "result1"), undefined_grads=True,
              jvp=lambda self_t, self, dim, correction, keepdim, result0, result1: (
                  var_jvp(self_t, self, dim, correction, keepdim, result0), _mean_jvp(self_t, dim, keepdim, result1)),
              self=lambda grads, self, dim, correction, keepdim: _sum_defined(
                  None if grads[0] is None else var_backward(grads[0], self, dim, correction, keepdim),
                  None if grads[1] is None else _mean_backward(grads[1], self, dim, keepdim)))
std_mean = Op("std_mean", "StdMeanBackward0", _rank0_ok(_with_mean(_std)), args=("dim", "correction", "keepdim"),
              outputs=("result0", "result1"), undefined_grads=True,
              jvp=lambda self_t, self, dim, correction, keepdim, result0, result1: (
                  std_jvp(self_t, self, dim, correction, keepdim, result0), _mean_jvp(self_t, dim, keepdim, result1)),
              self=lambda grads, self, dim, correction, keepdim, result0: _sum_defined(
                  None if grads[0] is None else std_backward(grads[0], self, dim, correction, keepdim, result0),
                  None if grads[1] is None else _mean_backward(grads[1], self, dim, keepdim)))
def _nan_if_empty(tangent, self):
    """The tangent of a mean or std over no elements: nan, as PyTorch's formulas divide the empty sum by the count
    (mean(self_t)) or by the nan result (std), where the sum of the products here is 0."""
    return tangent if self.numel() else tangent + float("nan")


def var_jvp(self_t, self, dim, correction, keepdim, result):
    """PyTorch's var_jvp: Σ (2/(n - c)·t)·(x - mean(x)) over the reduced dims (its var_backward of the tangent).
    (Complex inputs, no elements, dim=[] or n ≤ c: the backward formula times t, summed.)"""
    c = 1 if correction is None else correction
    n = self.numel() if dim is None else _reduced_count(tuple(self.shape), dim)
    if self.is_complex() or self_t.is_complex() or not self.numel() or dim == () or n - c <= 0:
        # (conj: a backward formula gives conj(∂f/∂x) for complex x, as in forward_ad._reduction_jvp)
        return _reduced_jvp(var_backward(_ones_like(result), self, dim, correction, keepdim).conj() * self_t,
                            dim, keepdim, result)
    centered = self - (self.mean() if dim is None else self.mean(dim, keepdim=True))
    products = mul_scalar(self_t, other=2.0 / (n - c)) * centered   # (var_backward(self_t, ...): (2/(n - c)·t)·(x - x̄))
    total = products.sum() if dim is None else products.sum(dim, keepdim=keepdim)
    return total.reshape(result.shape)


def std_jvp(self_t, self, dim, correction, keepdim, result):
    """PyTorch's std formula: var_jvp / (2·std), 0 where std is 0."""
    c = 1 if correction is None else correction
    n = self.numel() if dim is None else _reduced_count(tuple(self.shape), dim)
    if self.is_complex() or self_t.is_complex() or not self.numel() or dim == () or n - c <= 0:
        return _nan_if_empty(_reduced_jvp(std_backward(_ones_like(result), self, dim, correction, keepdim,
                                                       result).conj() * self_t, dim, keepdim, result), self)
    return (var_jvp(self_t, self, dim, correction, keepdim, result) / mul_scalar(result, other=2)).masked_fill_(
        result == 0, 0)   # (in place, as derivatives.yaml's: the quotient's layout kept)


def _mean_jvp(self_t, dim, keepdim, result):
    """The mean output's tangent of var_mean / std_mean: PyTorch's ``mean(self_t, dim, keepdim)`` (Σ t / n, not
    Σ t/n)."""
    return (mean(self_t) if dim is None else mean_dim(self_t, dim=dim, keepdim=keepdim)).reshape(result.shape)


def _reduced_jvp(term, dim, keepdim, result):
    """Σ over the reduced dims of ∂f/∂x_i·t_i (the tangent of a reduction, shaped like its result).
    Summed even over dims of size 1, as PyTorch's formulas do: a sum starts from 0, so a -0. term gives 0."""
    if term.is_complex() and not result.is_complex():  # (a real statistic of complex x: var, std)
        term = term.real
    return (term.sum() if dim is None else term.sum(dim, keepdim=True)).reshape(result.shape)


logsumexp = Op("logsumexp", "LogsumexpBackward0", _rank0_ok(_logsumexp), args=("dim", "keepdim"),
               jvp=lambda self_t, self, dim, keepdim: logsumexp_jvp(self, self_t, dim, keepdim),
               # d log Σ e^x / dx_i = e^(x_i - lse) (the softmax; conjugated for complex x, as every
               # holomorphic derivative: grad · conj(f'))
               self=lambda grad, self, result, dim, keepdim:
                   _restore(grad, tuple(self.shape), dim, keepdim)
                   * _conj((self - _restore(result, tuple(self.shape), dim, keepdim)).exp()))


def norm_jvp(self_t, self, result, ord, dim, keepdim):
    """PyTorch's norm_jvp, step by step (its dtypes and roundings): Σ re(conj(∂‖x‖/∂x)·t) over the reduced dims.
    p = 2: Σ re(x·t̄), divided by the norm in place (so x·t's dtype stays); p = 1: Σ re(sgn(x)·t̄); ±inf: the
    max-|x| elements' share; other p: Σ |x|^(p-2)·re(x·t̄) / ‖x‖^(p-1) (p < 1: |x|^(p-1)·re(sgn(x)·t̄)·‖x‖^(1-p));
    p = 0: zeros like the norm."""
    ops = _ops()

    def total(t):  # sum over the reduced dims (None or (): all of them)
        if dim is None or (isinstance(dim, (tuple, list)) and not len(dim)):
            return t.sum(tuple(range(t.dim())), keepdim=True).reshape(result.shape) if keepdim else t.sum()
        return t.sum(dim, keepdim=keepdim)
    if ord == 0:
        return ops.zeros_like(result)
    if ord == 1:   # (sgn(x)·t̄ in place outside torch.func, as PyTorch: sgn's saved result modified)
        sgn = self.sgn()
        return total((sgn * self_t.conj() if _subclass_like() else sgn.mul_(self_t.conj())).real)
    if ord == 2:
        sumsq_t = total((self * self_t.conj()).real)
        return (sumsq_t / result).to(sumsq_t.dtype).masked_fill_(result == 0, 0)   # (div_ in place)
    if ord in (math.inf, -math.inf):
        norm = result if keepdim or self.dim() == 0 else _restore(result, tuple(self.shape), dim, keepdim)
        is_eq_max = (self.abs() == norm).logical_or(self.isnan().logical_and(norm.isnan())).type_as(norm)
        nb_max = is_eq_max.sum(_dims(dim, self.dim()) if self.dim() else (), keepdim=True)
        return total((self.sgn() * self_t.conj()).real * is_eq_max / nb_max)
    if ord < 1:
        powered = self.abs().pow(ord - 1).masked_fill_(self == 0, 0)
        return total(powered * (self.sgn() * self_t.conj()).real) * result.pow(1 - ord)
    out = total(self.abs().pow(ord - 2) * (self * self_t.conj()).real) / result.pow(ord - 1)
    return out.masked_fill_(result == 0, 0)


def _vector_norm_op(a, ord, dim, keepdim):
    single = a.ndim != 0 or dim is None or dim == ()   # (see _vector_norm)
    return _rank0_ok(lambda a, ord, dim, keepdim: _vector_norm(a, ord, dim, keepdim, single))(
        a, ord=ord, dim=dim, keepdim=keepdim)


linalg_vector_norm = Op("linalg_vector_norm", "LinalgVectorNormBackward0", _vector_norm_op,
                        jvp=norm_jvp,
                        args=("ord", "dim", "keepdim"),
                        self=norm_backward)
# at::norm(x, p, dim, keepdim), called from C++ (F.pairwise_distance); torch.norm itself is linalg's
norm = Op("norm", "NormBackward1", lambda a, p, dim, keepdim: _vector_norm_op(a, p, dim, keepdim),
          jvp=lambda self_t, self, result, p, dim, keepdim: norm_jvp(self_t, self, result, p, dim, keepdim),
          args=("p", "dim", "keepdim"),
          self=lambda grad, self, p, dim, keepdim, result:
              norm_backward(grad, self, p, dim, keepdim, result))    # same derivative as the vector norm
# at::norm(x, p) over every element, called from C++ (norm_except_dim(v, p, -1): nn.utils.weight_norm(dim=None))
norm_all = Op("norm", "NormBackward0", lambda a, p: np.asarray(_vector_norm(a, p, None, False)),
              jvp=lambda self_t, self, result, p: norm_jvp(self_t, self, result, p, None, False), args=("p",),
              self=lambda grad, self, p, result: norm_backward(grad, self, p, None, False, result))  # d‖x‖_p
def _scan(np_scan, a, dim):
    """PyTorch's CPU cumsum / cumprod: the running value kept in its accumulate type (double for float32, float for
    float16/bfloat16, complex<double> for complex64, int64 for integers), each output rounded to a's dtype."""
    kind, size = a.dtype.kind, a.dtype.itemsize
    if np_scan is np.cumprod and kind == "c" and a.size:
        return _strides.contiguous(_complex_cumprod(a, dim))
    acc = (np.float32 if size == 2 else np.float64) if kind in "fV" else np.complex128 if kind == "c" else np.int64
    return _strides.contiguous(np_scan(a, axis=dim, dtype=acc).astype(a.dtype, copy=False))  # (C order, as PyTorch's)


def _complex_cumprod(a, dim):
    """The running product from 1 in complex<double>, its operator*= as compiled: (p + qi)(c + di) with the real
    part p·c - q·d = fma(p, c, -(q·d)) and the imaginary part p·d + q·c = fma(p, d, q·c)."""
    x = np.moveaxis(a.astype(np.complex128), dim, -1)
    out = np.empty_like(x)
    p, q = np.ones(x.shape[:-1]), np.zeros(x.shape[:-1])
    with np.errstate(all="ignore"):
        for k in range(x.shape[-1]):
            c, d = x[..., k].real, x[..., k].imag
            qd, qc = q * d, q * c
            re, im = _float_math._fma64(p, c, -qd), _float_math._fma64(p, d, qc)
            # (the emulated fma gives nan for infinite operands: there the unfused value, which the fused one is)
            re = np.where(np.isnan(re), p * c - qd, re)
            im = np.where(np.isnan(im), p * d + qc, im)
            p, q = re, im
            out.real[..., k], out.imag[..., k] = p, q
    return np.moveaxis(out, -1, dim).astype(a.dtype, copy=False)


def _cumsum(a, dim):
    """PyTorch's running sum starts from 0, NumPy's from a's first value: + 0 makes a leading -0. the 0. that
    PyTorch's 0 + (-0.) gives (and changes no other value)."""
    result = _scan(np.cumsum, a, dim)
    return result + result.dtype.type(0) if result.dtype.kind in "fc" else result


cumsum = Op("cumsum", "CumsumBackward0", _rank0_ok(_cumsum), args=("dim",),
            jvp="linear",
            # (PyTorch's cumsum_backward(grad.to(self.scalar_type()), dim): a dtype= sum's gradient cast first)
            self=lambda grad, dim, _input_meta: cumsum_backward(_grad_to_input_dtype(grad, _input_meta), dim))


def _grad_to_input_dtype(grad, metas):
    """``grad.to(self.scalar_type())`` of PyTorch's formulas for ops given dtype= (cumsum, cumprod): the cast comes
    before the formula's ops (under create_graph its ToCopyBackward0 sits there, not where the engine would cast)."""
    from ._dtypes import from_numpy
    npd = metas[0][1]
    return grad if grad._data.dtype == npd else grad.to(from_numpy(npd))


# =============================================================================================
# Complex numbers (gradients follow PyTorch's conjugate-Wirtinger convention: for a real loss L,
# z.grad = ∂L/∂Re z + i ∂L/∂Im z)
# =============================================================================================

def _view_as_real(a):
    # a[..., None] has a size-1 last axis, so NumPy can reinterpret it as two reals: a true view.
    # (complex32: float16 pairs)
    return a[..., None].view(a.real.dtype if not _dtypes.is_complex32(a.dtype) else np.float16)


def _view_as_complex(a):
    a = a if a.strides[-1] == a.itemsize else np.ascontiguousarray(a)
    out = a.view(np.result_type(a.dtype, np.complex64) if a.dtype != np.float16 else _dtypes.COMPLEX32_NP)[..., 0]
    # (a size-1 dim's odd stride halves as PyTorch's integer division does: 1 -> 0, not NumPy's half an element)
    strides = tuple(s // (2 * a.itemsize) * out.itemsize for s in a.strides[:-1])
    if out.strides == strides:
        return out
    return np.lib.stride_tricks.as_strided(out, out.shape, strides, writeable=out.flags.writeable)


conj = Op("conj", "ConjBackward0", np.conj,
          jvp="linear",
          self=lambda grad: grad.conj())                                   # d z̄: the gradient conjugated
_neg_view = Op("_neg_view", "NegViewBackward0",                       # (made a lazy negative view by _neg.py)
               lambda a: a.copy() if a.dtype == bool else np.negative(a),  # (a bool's: unreadable, _neg.py)
               jvp="linear",
               self=lambda grad: grad.neg())                               # d(-x) = -1
view_as_real = Op("view_as_real", "ViewAsRealBackward0", _view_as_real, view=True,
                  jvp="linear",
                  self=lambda grad: _ops().view_as_complex(grad.contiguous()))
view_as_complex = Op("view_as_complex", "ViewAsComplexBackward0", _view_as_complex, view=True,
                     jvp="linear",
                     # (PyTorch's view_as_real(grad.contiguous().resolve_conj()): a gradient that is a conjugate
                     # view, conj's under create_graph, is resolved first)
                     self=lambda grad: _ops().view_as_real(grad.contiguous().resolve_conj()))
_ATAN2_VECTOR = {np.dtype(np.complex64): _float_math.sleef_atan2f,
                 np.dtype(np.complex128): _float_math.sleef_atan2_64}
_ATAN2_SCALAR = {np.dtype(np.complex64): _float_math.libm_float("atan2f", np.arctan2, 2),
                 np.dtype(np.complex128): _float_math.libm_double("atan2", np.arctan2, 2)}


def _complex_angle(a):
    """arg z = atan2(Im z, Re z) as PyTorch's cpu_kernel_vec computes it: its vector code (SLEEF's atan2) on
    blocks of one Vectorized (8 complex64 or 4 complex128 numbers) of each contiguous or broadcast row, glibc's
    atan2 on the rest (on every element of a strided row, in memory order for a transpose), into a C-contiguous
    result whatever a's layout (as PyTorch's). NumPy's np.angle rounds float32 differently."""
    vector, scalar = _ATAN2_VECTOR[a.dtype], _ATAN2_SCALAR[a.dtype]
    out = _complex_paths(lambda z: vector(z.imag, z.real), lambda z: scalar(z.imag, z.real), a, vectors=1)
    return np.asarray(out, a.real.dtype, order="C")   # (ascontiguousarray would make a 0-dim result 1-d)


def _angle(a):
    # a real x: π where x < 0, else 0 (-0.0 too: NumPy's atan2 gives it π), NaN for NaN, as PyTorch's
    if a.dtype.kind == "c":
        return _complex_angle(a)
    return np.where(a < 0, a.dtype.type(math.pi), np.where(np.isnan(a), a, a.dtype.type(0))).astype(a.dtype)


angle = Op("angle", "AngleBackward0", _angle,
           jvp="element_wise",
           self=angle_backward)

# =============================================================================================
# Shape and views (the outputs share memory with the input)
# =============================================================================================

def _view(a, size):
    r = a.reshape(size)
    return r if 1 not in r.shape else _torch_strides(a, r)   # (only size-1 dims can differ: the cheap test first)


def _torch_strides(a, r):
    """``r`` (a view of ``a`` NumPy reshaped) with PyTorch's strides for its size-1 dims."""
    if (a.flags.c_contiguous and 1 not in a.shape) or 1 not in r.shape or r.size == 0 or not a.ndim:
        return r   # (NumPy's strides are PyTorch's; size-1 dims of a: their strides can count in PyTorch's)
    item = a.itemsize
    strides = _strides.view_strides(a.shape, [st // item for st in a.strides], r.shape)
    if strides is None or [st // item for st in r.strides] == strides or \
            r.__array_interface__["data"][0] != a.__array_interface__["data"][0]:   # (or NumPy copied)
        return r
    return np.lib.stride_tricks.as_strided(r, r.shape, [st * item for st in strides])


view = Op("view", "ViewBackward0", _view, args=("size",), view=True,
          jvp="linear",
          self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes))
# reshape of a non-contiguous tensor that needs no copy (PyTorch's _reshape_alias)
reshape_alias = Op("_reshape_alias", "ReshapeAliasBackward0", lambda a, size: _reshaped_view(a, size), args=("size",),
                   view=True, jvp="linear",
                   self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes))


def _reshaped_view(a, size):
    v = a.view()
    v.shape = size  # never copies (raises instead); the caller checked it can be done
    return _torch_strides(a, v)


# (PyTorch's view strides for size-1 dims, as view's: kron's product then takes its layout from them)
unsafe_view = Op("_unsafe_view", "UnsafeViewBackward0", lambda a, size: _torch_strides(a, a.reshape(size)),
                 args=("size",), jvp="linear",
                 self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes))
t = Op("t", "TBackward0", lambda a: a.T, view=True,
       jvp="linear",
       self=lambda grad: grad.t())
transpose = Op("transpose", "TransposeBackward0",  # (a 0-dim tensor: dims 0 / -1 swap nothing)
               lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1) if a.ndim else a[...],
               jvp="linear",
               args=("dim0", "dim1"), view=True,
               self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
permute = Op("permute", "PermuteBackward0", lambda a, dims: np.transpose(a, dims), args=("dims",), view=True,
             jvp="linear",
             self=lambda grad, dims: permute_backwards(grad, dims))


def _expand(a, size):
    if not a.ndim and a.base is None:
        # A 0-dim gradient spread over a shape (sum's backward: bench W5's SumBackward0): the view np.broadcast_to
        # makes (strides 0, base a), writeable as a is, without broadcast_to's Python layers and nditer (~10x
        # the time). A 0-dim array's buffer is its one element, so every index of the view reads it. (A 0-dim
        # view takes broadcast_to: given a view as buffer, NumPy would make the view's owner the base.)
        return np.ndarray(size, a.dtype, a, 0, (0,) * len(size))
    out = np.broadcast_to(a, size)
    lead = len(size) - a.ndim
    if (1 in a.shape and any(n == 1 and size[lead + i] == 1 and a.strides[i] for i, n in enumerate(a.shape))) or (
            lead and a.ndim and 1 in size[:lead]):
        # PyTorch's inferExpandGeometry (NumPy's broadcast gives both 0): a size-1 dim that stays size 1 keeps its
        # stride, a new leading dim of size 1 gets size·stride of the dim after it. Strides decide later view /
        # reshape nodes, the AsStridedBackward0 of a view changed in place and what x.stride() prints.
        strides = list(out.strides)
        for i in range(len(size) - 1, -1, -1):
            if i >= lead and a.shape[i - lead] == size[i]:
                strides[i] = a.strides[i - lead]
            elif i < lead and size[i] == 1:
                strides[i] = size[i + 1] * strides[i + 1]
        out = np.lib.stride_tricks.as_strided(a, size, strides)  # (writeable if a is)
    # NumPy hands out read-only broadcasts; PyTorch's expand is a view fill_ may write
    if a.flags.writeable and not out.flags.writeable:
        out.flags.writeable = True
    return out


expand = Op("expand", "ExpandBackward0", _expand, args=("size",), view=True,
            jvp="linear",
            self=lambda grad, self_sym_sizes: grad.sum_to_size(self_sym_sizes))
unsqueeze = Op("unsqueeze", "UnsqueezeBackward0", lambda a, dim: _strides.unsqueeze(a, dim), args=("dim",), view=True,
               jvp="linear",
               self=lambda grad, dim: grad.squeeze(dim))
squeeze = Op("squeeze", "SqueezeBackward0", np.squeeze, view=True,
             jvp="linear",
             self=lambda grad, self_sym_sizes: unsqueeze_to(grad, self_sym_sizes))
squeeze_dim = Op("squeeze", "SqueezeBackward1", lambda a, dim: _squeeze_dims(a, (dim,)), args=("dim",), view=True,
                 jvp="linear",
                 self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
squeeze_dims = Op("squeeze", "SqueezeBackward2", lambda a, dim: _squeeze_dims(a, dim), args=("dim",), view=True,
                  jvp="linear",
                  self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
# matmul of a 1-D by a 2-D tensor squeezes its mm result in place: PyTorch names that node SqueezeBackward4.
squeeze_inplace_dim = Op("squeeze_", "SqueezeBackward4", lambda a, dim: _squeeze_dims(a, (dim,)), args=("dim",),
                         jvp="linear",
                         view=True,
                         self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
# In-place view ops (x.t_(), x.unsqueeze_(0) ...): the tensor itself gets the node, whose formula is the
# out-of-place view's (``_ops_inplace_views`` records them; squeeze_(dim) is SqueezeBackward4 above).
t_ = Op("t_", "TBackward1", lambda a: a.T, view=True, jvp="linear",
        self=lambda grad: grad.t())
transpose_ = Op("transpose_", "TransposeBackward1", lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
                args=("dim0", "dim1"), view=True, jvp="linear",
                self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
unsqueeze_ = Op("unsqueeze_", "UnsqueezeBackward1", lambda a, dim: _strides.unsqueeze(a, dim), args=("dim",),
                view=True, jvp="linear",
                self=lambda grad, dim: grad.squeeze(dim))
squeeze_ = Op("squeeze_", "SqueezeBackward3", np.squeeze, view=True, jvp="linear",
              self=lambda grad, self_sym_sizes: unsqueeze_to(grad, self_sym_sizes))
squeeze_dims_ = Op("squeeze_", "SqueezeBackward5", lambda a, dim: _squeeze_dims(a, dim), args=("dim",),
                   view=True, jvp="linear",
                   self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
select = Op("select", "SelectBackward0", lambda a, dim, index: a[_at(dim, a.ndim, index)],
            jvp="linear",
            args=("dim", "index"), view=True,
            self=lambda grad, self_sym_sizes, dim, index: select_backward(grad, self_sym_sizes, dim, index))
slice = Op("slice", "SliceBackward0",
           lambda a, dim, start, end, step: a[_at(dim, a.ndim, _builtin_slice(start, end, step))],
           jvp="linear",
           args=("dim", "start", "end", "step"), view=True,
           self=lambda grad, self_sym_sizes, dim, start, end, step:
               slice_backward(grad, self_sym_sizes, dim, start, end, step))

select_backward_op = Op(
    "select_backward", "SelectBackwardBackward0",
    lambda g, input_sizes, dim, index: _scatter_into_zeros(g, input_sizes, _at(dim, len(input_sizes), index)),
    jvp="linear",
    inputs=("grad_output",), args=("input_sizes", "dim", "index"),
    grad_output=lambda grad, dim, index: grad.select(dim, index))
slice_backward_op = Op(
    "slice_backward", "SliceBackwardBackward0",
    lambda g, input_sizes, dim, start, end, step:
        _scatter_into_zeros(g, input_sizes, _at(dim, len(input_sizes), _builtin_slice(start, end, step))),
    jvp="linear",
    inputs=("grad_output",), args=("input_sizes", "dim", "start", "end", "step"),
    grad_output=lambda grad, dim, start, end, step: slice(grad, dim=dim, start=start, end=end, step=step))

_builtin_slice = __builtins__["slice"] if isinstance(__builtins__, dict) else __builtins__.slice
builtins_max = __builtins__["max"] if isinstance(__builtins__, dict) else __builtins__.max
_slice_all = _builtin_slice(None)


def _squeeze_dims(a, dims):
    dims = tuple(d for d in dims if a.shape[d] == 1) if a.ndim else ()
    return np.squeeze(a, axis=dims) if dims else a.view()


def _at(dim, ndim, index) -> tuple:
    """A NumPy index applying ``index`` along ``dim`` (which may be negative, as PyTorch saves it).

    The trailing ``...`` makes NumPy return a 0-dim view, not a copied scalar, when every dim is taken.
    """
    return (_slice_all,) * (dim % ndim if ndim else 0) + (index, Ellipsis)


alias = Op("alias", "AliasBackward0", lambda a: a.view(), view=True,        # x[...]: the same values
           jvp=lambda self_t: self_t,   # (PyTorch's: the input's tangent itself, which an in-place t_() then changes)
           self=lambda grad: grad)
diagonal = Op("diagonal", "DiagonalBackward0", lambda a, offset, dim1, dim2: _diagonal(a, offset, dim1, dim2),
              jvp="linear",
              args=("offset", "dim1", "dim2"), view=True,
              # scatter the diagonal back into zeros of the input's shape
              self=lambda grad, self_sym_sizes, offset, dim1, dim2:
                  diagonal_backward(grad, input_sizes=tuple(self_sym_sizes), offset=offset, dim1=dim1, dim2=dim2))
diagonal_backward = Op(
    "diagonal_backward", "DiagonalBackwardBackward0",
    lambda g, input_sizes, offset, dim1, dim2: _diagonal_scatter(g, input_sizes, offset, dim1, dim2),
    jvp="linear",
    inputs=("grad_output",), args=("input_sizes", "offset", "dim1", "dim2"),
    grad_output=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2))


def _diagonal(a, offset, dim1, dim2):
    d = np.diagonal(a, offset, dim1, dim2)
    d.flags.writeable = a.flags.writeable  # NumPy hands out read-only diagonals; PyTorch's are views
    return d


def _diagonal_scatter(g, input_sizes, offset, dim1, dim2):
    out = np.zeros(input_sizes, dtype=g.dtype)
    _diagonal(out, offset, dim1, dim2)[...] = g
    return out


# ---- several outputs (each a view of the input): gradients arrive as ``grads``, zeros where unused
def split_sizes(length: int, split_size: int) -> list:
    """Sizes of the pieces torch.split(split_size) makes of a dimension of ``length`` (last may be short)."""
    n = 1 if split_size == 0 else builtins_max(-(-length // split_size), 1)
    return [split_size] * (n - 1) + [length - split_size * (n - 1)]


def _split_arrays(a, sizes, dim):
    starts = np.cumsum((0,) + tuple(sizes))
    return [a[_at(dim, a.ndim, _builtin_slice(int(s), int(s) + n))] for s, n in zip(starts, sizes)]


split = Op("split", "SplitBackward0",
           lambda a, split_size, dim: _split_arrays(a, split_sizes(a.shape[dim], split_size), dim),
           jvp="linear",
           args=("split_size", "dim"), variadic=True, view=True,
           self=lambda grads, self_sym_sizes, split_size, dim:
               _ops().cat(grads, dim % len(self_sym_sizes)))   # pieces back together
split_with_sizes = Op("split_with_sizes", "SplitWithSizesBackward0",
                      lambda a, split_sizes, dim: _split_arrays(a, split_sizes, dim),
                      jvp="linear",
                      args=("split_sizes", "dim"), variadic=True, view=True,
                      self=lambda grads, self_sym_sizes, split_sizes, dim:
                          _ops().cat(grads, dim % len(self_sym_sizes)))
unbind = Op("unbind", "UnbindBackward0", lambda a, dim: [a[_at(dim, a.ndim, i)] for i in range(a.shape[dim])],
            args=("dim",),
            jvp="linear",
            variadic=True, view=True,
            self=lambda grads, dim: _ops().stack(grads, dim))                 # slices stacked back


# ---- several inputs: the formula returns one gradient per listed tensor
def cat_backward(grad, dim, metas):
    """d cat(xs, dim) / d xs[i]: the slice of grad where xs[i] went (``metas``: the inputs' shapes and dtypes)."""
    grads, start = [], 0
    dim %= builtins_max(grad.dim(), 1)  # (legacy_cat_wrap_dim: the slices save the dim non-negative)
    # A real input of a complex cat: PyTorch's cat_tensors_backward takes the real part of the whole gradient once
    # and slices that (under create_graph its nodes sit before the slice, not after as the engine's cast would)
    real = grad.real if grad.is_complex() and any(dt.kind != "c" for _, dt in metas) else None
    for shape, dt in metas:
        g = real if real is not None and dt.kind != "c" else grad
        if len(shape) == 1 and shape[0] == 0:  # legacy: empty 1-D inputs are skipped (a zeros gradient, no graph)
            grads.append(_ops().zeros(shape, dtype=g.dtype))
            continue
        n = shape[dim]
        grads.append(g.narrow(dim, start, n))
        start += n
    return tuple(grads)


cat = Op("cat", "CatBackward0", lambda *arrays, dim: _concatenate(arrays, dim), inputs=("tensors",),
         jvp="linear",
         args=("dim",), list_input=True,
         tensors=lambda grad, dim, _input_meta: cat_backward(grad, dim, _input_meta))
stack = Op("stack", "StackBackward0", lambda *arrays, dim: _strides.contiguous(np.stack(arrays, axis=dim)),  # (as cat)
           inputs=("tensors",),
           jvp="linear",
           args=("dim",), list_input=True,
           # the slices of grad, one select each (PyTorch's stack_tensors_backward: SelectBackward0 nodes;
           # when nothing records, unbind gives the same views at once)
           tensors=lambda grad, dim: grad.unbind(dim) if _untracked()
           else tuple(grad.select(dim, i) for i in range(grad.shape[dim])))


def _concatenate(arrays, dim):
    ndim = builtins_max(a.ndim for a in arrays)
    out = np.concatenate([a for a in arrays if a.ndim == ndim or a.size], axis=dim)
    # PyTorch's cat is C-order unless every input suggests channels_last (NumPy's follows the inputs' layouts)
    if ndim == 4 and all(_strides.suggests_channels_last(a) for a in arrays):
        return _strides.channels_last(out)
    return out if out.flags.c_contiguous else _strides.contiguous(out)


# ---- copies that move or repeat values
def repeat_backward(grad, repeats, sizes):
    """Sum the gradient over every copy: view as (r0, s0, r1, s1, ...) and sum the r's (PyTorch's steps: the
    new leading dims summed one at a time, then one reshape and sum, none where every repeat is 1)."""
    if 0 in repeats:
        return _ops().zeros(tuple(sizes), dtype=grad.dtype)
    for _ in range(len(repeats) - len(sizes)):
        grad = grad.sum(0)
    shape, dims = [], []
    for r, n in zip(repeats[len(repeats) - len(sizes):], sizes):
        if r != 1:
            shape.append(r)
            dims.append(len(shape) - 1)
        shape.append(n)
    return grad.reshape(shape).sum(dims) if dims else grad


repeat = Op("repeat", "RepeatBackward0", lambda a, repeats: _strides.contiguous(np.tile(a, repeats)),  # (C order)
            args=("repeats",),
            jvp="linear",
            self=lambda grad, repeats, self_sym_sizes: repeat_backward(grad, repeats, self_sym_sizes))
# (flip: laid out as a, PyTorch's empty_like)
flip = Op("flip", "FlipBackward0",
          _rank0_ok(lambda a, dims: _strides.copy_into(_strides.empty_like(a), np.flip(a, dims)), "dims"),
          args=("dims",),
          jvp="linear",
          self=lambda grad, dims: grad.flip(dims))                         # flipping twice is the identity


# ---- gathering and scattering along a dimension (``index`` is an integer tensor input)
def _along(index, dim):
    """NumPy index tuple addressing, for every position of ``index``, entry index[...] along ``dim``."""
    if index.ndim == 0:   # (with a 1-d self PyTorch reads a 0-d index as one element: ensure_nonempty_dim)
        return (index.reshape(1),)
    grid = list(np.indices(index.shape, sparse=True))
    grid[dim % index.ndim] = index
    return tuple(grid)


def _head(src, shape):
    """The leading ``shape`` block of ``src`` (gather/scatter only use that much of it)."""
    if not src.ndim:
        return src
    if not shape:   # a 0-d index: src's first element
        return src.reshape(-1)[:1]
    return src[tuple(_builtin_slice(0, n) for n in shape)]


def _scatter_forward(a, index, src, dim, reduce_add=False):
    out = a.copy()
    if not index.size:   # (an empty index writes nothing, whatever its rank)
        return out
    if a.ndim == 0:  # (a 0-dim a has one element: every index is 0)
        if index.size:
            values = np.broadcast_to(_head(src, index.shape) if np.ndim(src) else src, index.shape).reshape(-1)
            out[...] = out + values.sum(dtype=out.dtype) if reduce_add else values[-1]
        return out
    values = _head(src, index.shape) if np.ndim(src) else src
    if reduce_add:
        np.add.at(out, _along(index, dim), values)
    else:
        out[_along(index, dim)] = values
    return out


def _scatter_add_into_zeros(sizes, grad, index, dim):
    """zeros(sizes).scatter_add_(dim, index, grad): in place, as PyTorch's gather / cummax backward (version 1)."""
    z = _zeros_on(grad, sizes)
    return scatter_add(z, index, grad, dim=dim, out=z)


def _gather(a, index, dim, sparse_grad):
    if not index.size:   # (an empty index takes nothing: PyTorch checks neither its rank nor its dtype then)
        return np.empty(index.shape, a.dtype)
    # (a 0-dim a: its one element, at every (zero) index)
    return _strides.contiguous(  # (C order whatever index's layout, as PyTorch's)
        a[_along(index, dim)].reshape(index.shape) if a.ndim else np.broadcast_to(a, index.shape).copy())


gather = Op("gather", "GatherBackward0", _gather,
            jvp=lambda self_t, index, dim, sparse_grad: gather(self_t, index, dim=dim, sparse_grad=sparse_grad),
            inputs=("self", "index"), args=("dim", "sparse_grad"),
            # d gather / d self: add each gradient entry back where it was taken from
            self=lambda grad, self, dim, index, sparse_grad: _scatter_add_into_zeros(self.shape, grad, index, dim))
scatter_add = Op("scatter_add", "ScatterAddBackward0",
                 lambda a, index, src, dim: _scatter_forward(a, index, src, dim, reduce_add=True),
                 # (through the front-end, as PyTorch's formula calls scatter_add: its dtype check refuses a float64
                 # tangent of a float32 primal, jacfwd's clamp by a batched 0-d float64 bound, beside another)
                 jvp=lambda self_t, index, src_t, dim: _ops().scatter_add(self_t, dim, index, src_t),
                 inputs=("self", "index", "src"), args=("dim",),
                 self=lambda grad: grad,                                            # kept values pass through
                 src=lambda grad, dim, index: gather(grad, index, dim=dim, sparse_grad=False))
scatter = Op("scatter", "ScatterBackward0", lambda a, index, src, dim: _scatter_forward(a, index, src, dim),
             jvp=lambda self_t, index, src_t, dim: scatter(self_t, index, src_t, dim=dim),
             inputs=("self", "index", "src"), args=("dim",),
             # overwritten entries get no gradient; src gets the gradient of where it went
             self=lambda grad, dim, index: scatter_value(grad, index, dim=dim, value=0),
             src=lambda grad, dim, index: gather(grad, index, dim=dim, sparse_grad=False))
scatter_value = Op("scatter", "ScatterBackward1",
                   lambda a, index, dim, value: _scatter_forward(a, index, np.asarray(value, a.dtype), dim),
                   jvp=lambda self_t, index, dim: scatter_value(self_t, index, dim=dim, value=0),
                   inputs=("self", "index"), args=("dim", "value"),
                   self=lambda grad, dim, index: scatter_value(grad, index, dim=dim, value=0))
index_select = Op("index_select", "IndexSelectBackward0",
                  lambda a, index, dim: np.take(a, index.reshape(-1), axis=dim) if a.ndim else a.copy(),
                  jvp=lambda self_t, index, dim: index_select(self_t, index, dim=dim),
                  inputs=("self", "index"), args=("dim",),
                  # add the selected rows' gradients back into zeros (repeated rows accumulate)
                  self=lambda grad, self_sym_sizes, dim, index:
                      index_add(_ops().zeros(self_sym_sizes, dtype=grad.dtype), index, grad, dim=dim, alpha=1,
                                source_dim=grad.dim()))
index_add = Op("index_add", "IndexAddBackward0",
               # (nothing to add: alpha unconverted, as PyTorch's loop never reads it. A self of more than one dim
               # with alpha 1: PyTorch adds the source's slices as they are, where its 1-d loop multiplies by alpha,
               # which tells for complex infinities: (1+0j)·(inf+infj) is nan+nanj)
               lambda a, index, source, dim, alpha, source_dim:
                   _index_add_complex32(a, index, source, dim, alpha) if _dtypes.is_complex32(a.dtype)
                   else _index_add(a, index, source * alpha if a.size and index.size and (alpha != 1 or a.ndim < 2)
                                   else source, dim),
               jvp=lambda self_t, index, source_t, dim, alpha, source_dim:
                   index_add(self_t, index, source_t, dim=dim, alpha=alpha, source_dim=source_dim),
               inputs=("self", "index", "source"), args=("dim", "alpha", "source_dim"),
               self=lambda grad: grad,
               # d/d source: α · the rows of grad that source's rows were added to
               source=lambda grad, dim, index, source, alpha, source_dim:
                   mul_scalar(index_select(grad, index, dim=dim).expand_as(source), other=alpha) if alpha != 1
                   else index_select(grad, index, dim=dim).expand_as(source))


def _index_add(a, index, source, dim):
    out = a.copy()
    if a.ndim == 0:
        out += source.reshape(())
        return out
    if not a.size:   # (nothing to add to: PyTorch checks no index then)
        return out
    np.add.at(out, _at(dim, a.ndim, index.reshape(-1)), source)
    return out


def _index_add_complex32(a, index, source, dim, alpha):
    """index_add of complex32 operands (_dispatch._COMPLEX32_OWN_ROUNDING): source·alpha rounded to complex32 (alpha
    too), then added slice after slice, each sum rounded, as c10::complex<Half>'s arithmetic does."""
    out = _dtypes.complex32_values(a)
    source = _dtypes.complex32_values(source)
    if a.size and index.size and alpha != 1:
        source = _complex32_round(_complex32_round(alpha) * source)
    if a.ndim == 0:
        out = out + source.reshape(())
    elif a.size:
        source = np.broadcast_to(source, out[_at(dim, a.ndim, index.reshape(-1))].shape)
        for k, i in enumerate(index.reshape(-1)):   # (one slice at a time: a repeated index adds its sums in order)
            where = _at(dim, a.ndim, i)
            out[where] = _complex32_round(out[where] + source[_at(dim, a.ndim, k)])
    return _dtypes.as_complex32(out, warn=False)   # (the warning: _dispatch._complex32_copied's)


# ---- masked_fill: a mask (bool tensor input) chooses where the value replaces self
masked_fill = Op("masked_fill", "MaskedFillBackward0",
                 # (C order, as PyTorch's clone(contiguous_format) then masked_fill_)
                 lambda a, mask, value: _strides.contiguous(np.where(
                     mask, _element(value, a.dtype) if _dtypes.is_complex32(a.dtype) else np.asarray(value, a.dtype),
                     a)),
                 jvp=lambda self_t, mask: masked_fill(self_t, mask, value=0),
                 inputs=("self", "mask"), args=("value",),
                 self=lambda grad, mask: grad.masked_fill(mask, 0))                 # filled entries: 0
masked_fill_tensor = Op("masked_fill", "MaskedFillBackward1",
                        lambda a, mask, value: _strides.contiguous(np.where(mask, _element(value, a.dtype), a)),
                        jvp=lambda self_t, mask, value_t: masked_fill_tensor(self_t, mask, value_t),
                        inputs=("self", "mask", "value"),
                        self=lambda grad, mask: grad.masked_fill(mask, 0),
                        # the value went to every masked entry: sum their gradients (PyTorch's
                        # masked_fill_backward selects them first: MaskedSelectBackward0 under create_graph; under
                        # torch.func, whose masked_select of a batched mask is refused, a where)
                        value=lambda grad, mask: _ops().where(mask, grad, 0).sum()
                        if _wrapped_by_live_level(grad, mask) else grad.masked_select(mask).sum())


def _element(value, npd):
    """A number (or 0-dim array) as an element of ``npd``: for complex32 its float16 pair (NumPy's cast would give
    both parts the real part; no warning: an element, no tensor), else ``np.asarray(value).astype(npd)``."""
    if _dtypes.is_complex32(npd):
        value = np.asarray(value)
        return _dtypes.as_complex32(value if _dtypes.is_complex32(value.dtype) else value.astype(np.complex128),
                                    warn=False)
    return np.asarray(value).astype(npd)


# ---- index_fill: the slices at ``index`` along ``dim`` are set to value (a number or a 0-dim tensor)
def _index_fill(a, index, dim, value):
    out = _strides.clone(a)  # (laid out as a: PyTorch's clone, then index_fill_)
    if a.ndim == 0:
        if index.size:
            out[...] = value
        return out
    if not a.size:   # (nothing to fill: PyTorch checks no index then)
        return out
    out[_at(dim, a.ndim, index.reshape(-1))] = value
    return out


def _unique_index(index):
    # A slice filled twice took the value once: its gradient counts once (PyTorch's _unique(index)).
    return Tensor._make(np.unique(index._data.reshape(-1)))


index_fill = Op("index_fill", "IndexFillBackward0",
                lambda a, index, dim, value: _index_fill(a, index, dim, _element(value, a.dtype)),
                jvp=lambda self_t, index, dim: index_fill(self_t, index, dim=dim, value=0),
                inputs=("self", "index"), args=("dim", "value"),
                self=lambda grad, dim, index: index_fill(grad, index, dim=dim, value=0))   # filled slices: 0
index_fill_tensor = Op("index_fill", "IndexFillBackward1",
                       lambda a, index, value, dim: _index_fill(a, index, dim, _element(value, a.dtype)),
                       jvp=lambda self_t, index, value_t, dim: index_fill_tensor(self_t, index, value_t, dim=dim),
                       inputs=("self", "index", "value"), args=("dim",),
                       self=lambda grad, dim, index: index_fill(grad, index, dim=dim, value=0),
                       # the value went to every filled slice: sum their gradients (through index_select's checks,
                       # as PyTorch's formula: a negative index, which the fill wrapped, is out of range there)
                       value=lambda grad, dim, index: _ops().index_select(grad, dim, _unique_index(index)).sum())


# ---- masked_scatter: the masked positions take source's leading elements, in order
def _masked_scatter(a, mask, source):
    shape = np.broadcast_shapes(a.shape, mask.shape)
    out = np.array(np.broadcast_to(a, shape))
    where = np.broadcast_to(mask, shape).astype(bool, copy=False)
    values = source.reshape(-1)[: int(where.sum())]
    if MASKED_SCATTER_IN_PLACE[0] and source.flags.c_contiguous and np.shares_memory(a, source):
        values = _serial_reads(a, where, source, values)
    out[where] = values
    return _strides.contiguous(out)  # (C order, as PyTorch's)


# True while x.masked_scatter_ runs (set by _ops_fills): only in place can source be the memory being written (per
# thread: another thread's masked_scatter meanwhile is out of place)
MASKED_SCATTER_IN_PLACE = PerThreadFlag(False)


def _serial_reads(a, where, source, values):
    """The source values PyTorch's CPU masked_scatter_ reads when source shares self's memory: its kernel walks
    self's masked positions in order (C order) reading source element k for the k-th one, straight from
    memory (``source.contiguous()`` is source itself), so an element written earlier is read as written."""
    def addresses(x):   # the byte address of every element, C order
        index = np.indices(x.shape).reshape(x.ndim, x.size)   # (x.size, not -1: a 0-dim x has one element)
        return x.__array_interface__["data"][0] + (np.array(x.strides).reshape(-1, 1) * index).sum(0)
    written_at = addresses(a)[where.reshape(-1)]
    read_at = addresses(source)[: len(values)]
    values = values.copy()
    written = {}
    for k in range(len(values)):
        if read_at[k] in written:
            values[k] = written[read_at[k]]
        written[written_at[k]] = values[k]
    return values


def _masked_scatter_backward_forward(g, mask, sizes):
    """d/d source: grad at the masked positions, in order, then zeros for source's unused elements."""
    selected = g[np.broadcast_to(mask, g.shape)]
    out = np.zeros(math.prod(sizes), g.dtype)
    out[:selected.size] = selected[:out.size]
    return out.reshape(sizes)


def _masked_scatter_backward_jvp(grad_output_t, mask, result):
    """PyTorch's masked_scatter_backward(grad_output_t, mask, grad_output_t.sizes()): sized as grad_output, not as
    source (a PyTorch bug: forward-over-reverse of a source of another shape, hessian of x.masked_scatter(m, y),
    gets its error for a tangent whose size is not its primal's)."""
    from .autograd import forward_ad
    tangent = masked_scatter_backward_op(grad_output_t, mask, sizes=tuple(grad_output_t.shape))
    return forward_ad.check_tangent_size(tangent, result)


# PyTorch's masked_scatter_backward op (its own node under create_graph); its derivative scatters back
masked_scatter_backward_op = Op(
    "masked_scatter_backward", "MaskedScatterBackwardBackward0", _masked_scatter_backward_forward,
    inputs=("grad_output", "mask"), args=("sizes",), jvp=_masked_scatter_backward_jvp,
    # (zeros shaped as grad_output, which the mask broadcasts to: zeros_like(grad_output) in PyTorch)
    grad_output=lambda grad, mask, _input_sizes:
        _zeros_on(grad, _input_sizes[0]).masked_scatter(mask, grad))


def _masked_scatter_source_grad(grad, mask, source_sym_sizes):
    # (a broadcast mask too: PyTorch saves the mask as given, masked_scatter_backward broadcasts it)
    return masked_scatter_backward_op(grad, mask, sizes=tuple(source_sym_sizes))


masked_scatter = Op("masked_scatter", "MaskedScatterBackward0", _masked_scatter,
                    jvp=lambda self_t, mask, source_t: masked_scatter(self_t, mask, source_t),
                    inputs=("self", "mask", "source"),
                    self=lambda grad, mask: grad.masked_fill(mask, 0),                # overwritten: 0
                    source=lambda grad, mask, source_sym_sizes:
                        _masked_scatter_source_grad(grad, mask, source_sym_sizes))


# =============================================================================================
# Linear algebra
# =============================================================================================

# The products run in ``_matmul``: small float32 ones add in PyTorch's (MKL's) order, for the same bits.
_mm_forward = _matmul.mm


def _mm_mat1_grad(grad, mat2, sizes, strides) -> np.ndarray:
    """PyTorch's ``mm_mat1_backward`` on arrays: G·Bᵀ, computed as (B·Gᵀ)ᵀ for a column-major input."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return _matmul.mm(mat2, grad.T).T
    return _matmul.mm(grad, mat2.T)


def _mm_mat2_grad(grad, mat1, sizes, strides) -> np.ndarray:
    """PyTorch's ``mm_mat2_backward`` on arrays: Aᵀ·G, computed as (Gᵀ·A)ᵀ for a column-major input
    (``W.t()`` in ``nn.Linear``); the kernel, so the last bits, depends on the product's shape."""
    if strides[0] == 1 and strides[1] == sizes[0]:
        return _matmul.mm(grad.T, mat1).T
    return _matmul.mm(mat1.T, grad)


def _mm_real(a, b, axis: int) -> bool:
    """True when a formula's product of grad ``a`` and a saved matrix ``b`` (mat2ᵀ: ``axis`` 1, mat1ᵀ: 0) may run
    as ``_mm_forward`` on the arrays: nothing records, same real dtype, sizes that fit (a saved-tensor unpack hook
    may return another shape: the Tensor formula then raises mm's errors), no meta operand (whose product the op
    computes without values: _meta.py)."""
    return (a._data.dtype == b._data.dtype and a._data.dtype.kind == "f" and _untracked()
            and b._data.ndim == 2 and b._data.shape[axis] == a._data.shape[axis]
            and not (_meta.METAS and (_meta.is_meta(a) or _meta.is_meta(b))))


def _conj_number(x):
    """A complex scalar conjugated (PyTorch's ``alpha.conj()`` in the formulas); a real one as it is."""
    return x.conjugate() if isinstance(x, complex) else x


def mm_mat1_backward(grad, mat2, sizes, strides, alpha=1):
    """G·Bᴴ, as PyTorch's mm_mat1_backward: for a column-major mat1, (B̄·Gᵀ)ᵀ (its graph shows the transposes)."""
    if len(strides) == 2 and strides[0] == 1 and strides[1] == sizes[0]:
        out = mat2.conj().mm(grad.t()).t()
    else:
        out = grad.mm(mat2.t().conj())
    return out if alpha == 1 else mul_scalar(out, other=_conj_number(alpha))


def mm_mat2_backward(grad, mat1, sizes, strides, alpha=1):
    """Aᴴ·G, as PyTorch's mm_mat2_backward: for a column-major mat2, (Gᵀ·Ā)ᵀ."""
    if len(strides) == 2 and strides[0] == 1 and strides[1] == sizes[0]:
        out = grad.t().mm(mat1.conj()).t()
    else:
        out = mat1.t().conj().mm(grad)
    return out if alpha == 1 else mul_scalar(out, other=_conj_number(alpha))


mm = Op("mm", "MmBackward0", _mm_forward, inputs=("self", "mat2"),
        jvp=lambda self_t, mat2_t, self, mat2: self.mm(mat2_t) + self_t.mm(mat2),   # d(AB) = A·dB + dA·B
        # (A·dB first, as PyTorch computes it: a tangent of another dtype fails with its message)
        # d(AB)/dA: G·Bᴴ ;  d(AB)/dB: Aᴴ·G   (real and untracked: the same product on the arrays, .T is t())
        self=lambda grad, mat2, self_sym_sizes, self_sym_strides:
            _numpy_result(_mm_mat1_grad, grad._data, mat2._data, self_sym_sizes, self_sym_strides)
            if _mm_real(grad, mat2, 1) else mm_mat1_backward(grad, mat2, self_sym_sizes, self_sym_strides),
        mat2=lambda grad, self, mat2_sym_sizes, mat2_sym_strides:
            _numpy_result(_mm_mat2_grad, grad._data, self._data, mat2_sym_sizes, mat2_sym_strides)
            if _mm_real(grad, self, 0) else mm_mat2_backward(grad, self, mat2_sym_sizes, mat2_sym_strides))
mv = Op("mv", "MvBackward0", _matmul.mv, inputs=("self", "vec"),
        jvp=lambda self_t, vec_t, self, vec: self.mv(vec_t) + self_t.mv(vec),
        self=lambda grad, vec: grad.outer(vec.conj()),                    # d(Av)/dA = g vᴴ
        vec=lambda grad, self: self.conj().t().mv(grad))                  # d(Av)/dv = Aᴴ g
dot = Op("dot", "DotBackward0", _matmul.dot, inputs=("self", "tensor"),
         jvp=lambda self_t, tensor_t, self, tensor: self.dot(tensor_t) + self_t.dot(tensor),
         self=lambda grad, tensor: grad * tensor.conj(),
         tensor=lambda grad, self: grad * self.conj())
bmm = Op("bmm", "BmmBackward0", _matmul.bmm, inputs=("self", "mat2"),
         jvp=lambda self_t, mat2_t, self, mat2: self.bmm(mat2_t) + self_t.bmm(mat2),
         self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2).conj()),
         mat2=lambda grad, self: self.transpose(1, 2).conj().bmm(grad))
outer = Op("outer", "OuterBackward0", np.outer, inputs=("self", "vec2"),
           jvp=lambda self_t, vec2_t, self, vec2: self_t.outer(vec2) + self.outer(vec2_t),
           self=lambda grad, vec2: grad.mv(vec2.conj()),
           vec2=lambda grad, self: grad.t().mv(self.conj()))


# =============================================================================================
# Neural-network ops (minigrad.nn.functional). ``reduction`` is PyTorch's enum: 0 none, 1 mean, 2 sum.
# Integer arguments such as ``dim=-1`` and ``ignore_index=-100`` are saved as given; the node shows
# them as PyTorch does, read as uint64 (18446744073709551615): see ``_dispatch._INT64_ARGS``.
# =============================================================================================


def _reduce(loss, reduction: int):
    # apply_loss_reduction: loss.mean() / loss.sum(), in PyTorch's order of additions
    if reduction == 1:
        return _sums.mean(loss)
    if reduction == 2:
        return _sums.sum(loss)
    return loss


def _reduce_in_loss_buffer(loss, reduction: int):
    """``_reduce``, the reduced value kept in the first element of a buffer of the unreduced loss's size, as
    PyTorch's mse_loss, smooth_l1_loss, soft_margin_loss and binary_cross_entropy return it (their 0-d result's
    storage is the loss buffer's): its storage's size shows, and forward AD then copies a tangent of another
    storage size instead of sharing it (has_same_meta: frac of the loss keeps its own tangent)."""
    value = _reduce(loss, reduction)
    if reduction == 0:
        return value
    buf = np.zeros(max(loss.size, 1), np.asarray(value).dtype)
    buf[0] = value
    return buf[:1].reshape(())


def _apply_reduction_grad(g, grad, reduction: int):
    """Chain the per-element derivative ``g`` with the reduction: mean divides by the element count."""
    if reduction == 1:  # PyTorch divides by a Python number here (DivBackward1)
        return div_scalar(g * grad, other=g.numel())
    return g * grad


# ---- activations ----------------------------------------------------------------------------

def _leaky_relu_forward(x, negative_slope):
    if _is_half(x.dtype):   # float16/bfloat16: PyTorch's kernel computes in float32 (the slope too), rounds once
        return _leaky_relu_forward(x.astype(np.float32), negative_slope).astype(x.dtype)
    return np.where(x > 0, x, x * negative_slope).astype(x.dtype, copy=False)


def _softmax_forward(x, dim):
    # e^(x - max) / Σ e^(x - max): subtracting the max keeps every exponent <= 0 (no overflow).
    if x.size == 0:  # (nothing to normalise; NumPy's max has no identity for an empty slice)
        return x.copy()
    if _is_half(x.dtype):
        return _half_softmax(x, dim, log=False)
    if _softmax_lastdim(x, dim):   # PyTorch's float32/float64 rounding, step for step (minigrad/_softmax_cpu.py)
        return _softmax_cpu.softmax(x, _sums.THREADS[0])
    if _softmax_otherdim(x, dim):
        return _softmax_cpu.softmax_dim(x, dim % x.ndim, _sums.THREADS[0])
    e = np.exp(x - np.max(x, axis=dim, keepdims=True))
    return (e / np.sum(e, axis=dim, keepdims=True)).astype(x.dtype, copy=False)


def _is_half(dtype) -> bool:
    """float16 or bfloat16 (NumPy kind "V": ml_dtypes)."""
    return dtype.itemsize == 2 and dtype.kind in "fV"


def _softmax_lastdim(x, dim) -> bool:
    """Whether (log_)softmax and their gradients run PyTorch's float32/float64 last-dim kernel (_softmax_cpu.py)."""
    return _softmax_cpu.supports(x) and x.ndim > 0 and dim % x.ndim == x.ndim - 1 and x.size > 0


def _softmax_otherdim(x, dim) -> bool:
    """Whether (log_)softmax and their gradients run PyTorch's float32/float64 other-dim kernel (_softmax_cpu.py)."""
    return _softmax_cpu.supports(x) and x.ndim > 1 and dim % x.ndim != x.ndim - 1 and x.size > 0


def _half_softmax(x, dim, log: bool):
    """float16/bfloat16 (log_)softmax: PyTorch's kernels compute in float32, rounding where they store.

    Over the last dim, log_softmax keeps Σ e^(x - max) and its log in the input's dtype (both rounded) and
    softmax rounds only its result. Over another dim, both sum one slice after another; log_softmax rounds
    only its result, softmax too for the columns it handles as whole vectors, while for the remaining
    columns of each row (fewer than a vector) it first stores e^(x - max) in the output, rounded.
    """
    dim = dim % x.ndim
    last = dim == x.ndim - 1
    shifted = x.astype(np.float32) - np.max(x, axis=dim, keepdims=True).astype(np.float32)
    e = np.exp(shifted)
    if last:
        total = np.add.reduce(e, axis=dim, keepdims=True)
    else:
        total = np.zeros_like(np.take(e, [0], axis=dim))
        for k in range(x.shape[dim]):
            total = total + np.take(e, [k], axis=dim)
    if log:
        if last:
            total = total.astype(x.dtype).astype(np.float32)
            return (shifted - np.log(total).astype(x.dtype).astype(np.float32)).astype(x.dtype)
        return (shifted - np.log(total)).astype(x.dtype)
    if not last:
        # Which (outer, inner) columns are whole vectors depends on how the threads split the outer·inner
        # positions (each thread's range: whole vectors while they fit, the scalar code for the rest).
        inner = int(np.prod(x.shape[dim + 1:]))
        e = e.reshape(-1, x.shape[dim], inner)
        vector = _softmax_cpu._softmax_vector_positions(e.shape[0], inner, _sums.THREADS[0], _HALF_VECTOR)
        e = np.where(vector[:, None, :], e, e.astype(x.dtype).astype(np.float32)).reshape(x.shape)
    return (e / total).astype(x.dtype)


# 16-bit lanes of PyTorch's CPU vectors (Vectorized<BFloat16>::size() with AVX-512; 16 with AVX2), and the
# kernels' one-thread view of a tensor: a small tensor runs as one chunk (bigger ones split across threads,
# which moves the vector boundaries).
_HALF_VECTOR = 32


def _max_keepdim(x, dim):
    """np.max(x, axis=dim, keepdims=True), faster for the rows of a 2-D array (logits)."""
    if x.ndim == 2 and (dim == 1 or dim == -1) and x.shape[1]:
        # NumPy's max pays per row (~6 us for 128 × 10); argmax is one fast pass and the element it
        # points at is the same value (the first NaN too, where max would give NaN).
        return x[np.arange(x.shape[0]), x.argmax(axis=1)][:, None]
    return np.maximum.reduce(x, axis=dim, keepdims=True)


def _log_softmax_forward(x, dim):
    # x - max - log Σ e^(x - max): finite for logits of any size.
    if x.size == 0:  # (nothing to normalise; NumPy's max has no identity for an empty slice)
        return x.copy()
    if _is_half(x.dtype):
        return _half_softmax(x, dim, log=True)
    if _softmax_lastdim(x, dim):
        return _softmax_cpu.log_softmax(x)
    if _softmax_otherdim(x, dim):
        return _softmax_cpu.log_softmax_dim(x, dim % x.ndim)
    shifted = x - _max_keepdim(x, dim)
    # np.add.reduce is what np.sum runs, without its Python wrapper (~1 us)
    result = shifted - np.log(np.add.reduce(np.exp(shifted), axis=dim, keepdims=True))
    return result if result.dtype == x.dtype else result.astype(x.dtype)


_SQRT_2_OVER_PI = math.sqrt(2 / math.pi)
_GELU_C = 0.044715


def _gelu_forward(x, approximate):
    if x.dtype == np.float32 and approximate == "tanh":
        return _float_math.gelu_tanh(x)  # PyTorch's float32 rounding, step for step
    if x.dtype == np.float32 or _is_half(x.dtype) and approximate != "tanh":  # oneDNN's kernel or ATen's
        return _onednn_gelu.gelu_erf(x)
    if _is_half(x.dtype):  # (float32 math, rounded once)
        return (_float_math.gelu_tanh if approximate == "tanh" else _float_math.gelu_half)(x.astype(np.float32)).astype(
            x.dtype)
    if x.dtype == np.float64:   # PyTorch's rounding (SLEEF's / glibc's erf or tanh)
        return _float_math.gelu_tanh64(x) if approximate == "tanh" else _float_math.gelu64(x)
    if approximate == "tanh":   # 0.5·x·(1 + tanh(√(2/π)(x + 0.044715x³)))
        y = 0.5 * x * (1 + np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x ** 3)))
    else:                       # x·Φ(x),  Φ(x) = (1 + erf(x/√2)) / 2
        y = x * 0.5 * (1 + _erf(x / math.sqrt(2)).astype(np.float64))
    return y.astype(x.dtype, copy=False)


def _gelu_backward_forward(g, x, approximate):
    if approximate != "tanh" and g.dtype == x.dtype and (g.dtype == np.float32 or _is_half(g.dtype)):
        return _onednn_gelu.gelu_erf_backward(g, x)  # oneDNN's kernel or ATen's, bit for bit
    if g.dtype == x.dtype == np.float32:  # (tanh) ATen's kernel, its fused multiply-adds included
        return _onednn_gelu.gelu_tanh_backward(g, x)
    if _float_math._is_reduced(g.dtype):  # float16/bfloat16: computed in float32, rounded once (PyTorch's opmath)
        return _gelu_backward_forward(g.astype(np.float32), x.astype(np.float32), approximate).astype(g.dtype)
    if g.dtype == x.dtype == np.float64:   # ATen's kernel, its fused multiply-adds too
        return _float_math.gelu_tanh_backward64(g, x) if approximate == "tanh" else _float_math.gelu_backward64(g, x)
    if approximate == "tanh":   # 0.5(1 + t) + 0.5·x·(1 - t²)·u',  u = √(2/π)(x + cx³), t = tanh u
        t = np.tanh(_SQRT_2_OVER_PI * (x + _GELU_C * x ** 3))
        d = 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * _SQRT_2_OVER_PI * (1 + 3 * _GELU_C * x * x)
    else:                       # Φ(x) + x·φ(x)
        cdf = 0.5 * (1 + _erf(x / math.sqrt(2)).astype(np.float64))
        d = cdf + x * np.exp(-0.5 * x * x) / math.sqrt(2 * math.pi)
    return (g * d).astype(g.dtype, copy=False)


def gelu_double_backward(grad, grad_output, self, approximate):
    """d²gelu/dx², written as PyTorch's gelu_double_backward (its operations in its order: the same roundings).
    erf form: φ(x)(2 - x²); tanh form: with f = x/2, g = 1 - tanh²u, h = u' (u = β(x + κx³)), d(f'gh + fgh)/dx
    = 2f'gh + fhg' + fgh' (f' = 1/2, g' = -2·sech²u·tanh u·u', h' = 6κβx). A number times a tensor is C++'s
    Scalar overload there (MulBackward1, AddBackward1 under create_graph), 1 - t and 1 / t fill a tensor first."""
    if approximate == "tanh":
        beta = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5   # (M_SQRT2 * M_2_SQRTPI * 0.5)
        inner = mul_scalar(self + mul_scalar(self.pow(3), other=_GELU_C), other=beta)
        tanh_inner = inner.tanh()
        sech_inner = _scalar_over(1, inner.cosh())
        f = mul_scalar(self, other=0.5)
        g = _one_minus(tanh_inner * tanh_inner)
        h = mul_scalar(add_scalar(mul_scalar(self, other=3 * _GELU_C) * self, other=1), other=beta)
        f_prime_gh = mul_scalar(g, other=0.5) * h
        g_prime = mul_scalar(sech_inner, other=2) * (-sech_inner * tanh_inner) * h
        g_prime_fh = f * h * g_prime
        h_prime = mul_scalar(mul_scalar(self, other=6 * _GELU_C), other=beta)
        h_prime_fg = f * g * h_prime
        d2 = mul_scalar(f_prime_gh, other=2) + g_prime_fh + h_prime_fg
    else:
        beta = (2 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5   # (M_2_SQRTPI * M_SQRT1_2 * 0.5: 1/√(2π))
        input_sq = self * self
        pdf = mul_scalar(mul_scalar(input_sq, other=-0.5).exp(), other=beta)
        sq_pdf = input_sq * pdf   # (C++ makes the right operand of 2 * pdf - input_sq * pdf first)
        d2 = mul_scalar(pdf, other=2) - sq_pdf
    return grad * grad_output * d2


leaky_relu = Op("leaky_relu", "LeakyReluBackward0", _leaky_relu_forward, args=("negative_slope",),
                jvp="element_wise",
                # d leaky_relu / dx = 1 where x > 0, else negative_slope
                self=lambda grad, self, negative_slope:
                    leaky_relu_backward(grad, self, negative_slope=negative_slope))
# leaky_relu_ keeps the result: for a slope >= 0 it is > 0 exactly where the input was
leaky_relu_inplace = Op("leaky_relu", "LeakyReluBackward1", _leaky_relu_forward, args=("negative_slope",),
                        jvp="element_wise",
                        self=lambda grad, result, negative_slope: (
                            _negative_slope_in_place("leakyReLu", negative_slope),
                            leaky_relu_backward(grad, result, negative_slope=negative_slope))[1])
leaky_relu_backward = Op(
    "leaky_relu_backward", "LeakyReluBackwardBackward0",
    # (float16/bfloat16: the slope's product in float32, rounded once, as the forward's)
    lambda g, x, negative_slope: np.where(x > 0, g, (g.astype(np.float32) if _is_half(g.dtype) else g) * negative_slope
                                          ).astype(g.dtype, copy=False),
    inputs=("grad_output", "self"), args=("negative_slope",),
    jvp=lambda grad_output_t, self, negative_slope:
        leaky_relu_backward(grad_output_t, self, negative_slope=negative_slope),
    grad_output=lambda grad, self, negative_slope:                       # linear in g
        leaky_relu_backward(grad, self, negative_slope=negative_slope),
    self=lambda grad: _ops().zeros_like(grad))                           # the slope is piecewise constant in x
leaky_relu_backward.operand_step = -1   # (TensorIterator's operands: self, then grad, as threshold_backward's)
gelu_backward = Op("gelu_backward", "GeluBackwardBackward0", _gelu_backward_forward,
                   inputs=("grad_output", "self"), args=("approximate",),
                   # PyTorch's result: gelu_backward(grad_output_t, self) + gelu_double_backward(self_t, grad_output,
                   # self): the two formulas below applied to the tangents (jvp of grad(f) of a gelu, hessian)
                   jvp="element_wise",
                   grad_output=lambda grad, self, approximate: gelu_backward(grad, self, approximate=approximate),
                   self=gelu_double_backward)
gelu = Op("gelu", "GeluBackward0", _gelu_forward, args=("approximate",),
          jvp="element_wise",
          # gelu'(x) = Φ(x) + x·φ(x)  (its own op, as erf has no entry here)
          self=lambda grad, self, approximate: gelu_backward(grad, self, approximate=approximate))


def _one_minus(t):
    """``1 - t`` as PyTorch's C++ writes it: ``empty_like(t).fill_(1).sub_(t)`` (SubBackward0 with no edge for the 1,
    a tensor at version 2)."""
    # (a bool t: the 1 is bool too, and sub refuses "two bool tensors")
    r = _ops().sub(Tensor._make(np.array(1, dtype=np.bool_ if t._data.dtype == np.bool_ else np.int64)), t)
    r._version_counter[0] = 2
    return r


def silu_backward(grad, self):
    """d silu: PyTorch's silu_backward kernel when nothing records (its rounding: _float_math.silu_backward),
    else its infinitely_differentiable_silu_backward, the same formula in tensor ops."""
    if _untracked() and grad._data.dtype == self._data.dtype == np.float32:
        return _numpy_result(_binary_op_layout(_float_math.silu_backward), grad._data, self._data)
    if _untracked() and grad._data.dtype == self._data.dtype == np.float64:
        return _numpy_result(_binary_op_layout(_float_math.silu_backward64), grad._data, self._data)
    if _untracked() and grad._data.dtype == self._data.dtype and _float_math._is_reduced(grad._data.dtype):
        # float16/bfloat16: the float32 kernel, rounded once
        dt = grad._data.dtype
        return _numpy_result(_binary_op_layout(lambda g, x: _float_math.silu_backward(
            g.astype(np.float32), x.astype(np.float32)).astype(dt)), grad._data, self._data)
    sigmoid = self.sigmoid()
    inner = add_scalar(self * _one_minus(sigmoid), other=1.0)  # (C++ builds an operator's right operand first)
    result = grad * sigmoid * inner
    if _vmap_batched.DEPTH[0] and not _STATE.enabled:   # (PyTorch's kernel, which its legacy vmap has no rule for)
        _vmap_batched.mark_batch_outer(result, "silu_backward", (grad, self), _vmap_batched.levels_of(grad, self))
    return result


silu = Op("silu", "SiluBackward0",
          _float_math.for_float32(_float_math.silu, _float_math.or_float64(  # (float64: SLEEF's exp, glibc's)
              _float_math.silu64, lambda x: (x * _sigmoid(x)).astype(x.dtype))),
          jvp="element_wise",
          # d(x·σ(x))/dx = σ(x)·(1 + x·(1 - σ(x)))
          self=silu_backward)
def _subclass_like() -> bool:
    """PyTorch's ``areAnyTensorSubclassLike`` in a forward formula: true under torch.func (its wrapped tensors),
    where the formulas take their out-of-place branch instead of writing into their temporaries in place."""
    from .autograd import forward_ad
    return forward_ad._in_func_transform()


def logsumexp_jvp(self_p, self_t, dim, keepdim):
    """PyTorch's tangent of log Σ eˣ (also used by softmax and log_softmax): Σ e^(x - max)·t / Σ e^(x - max)."""
    # (PyTorch's own formula and order of operations, so float32 tangents round as its do)
    if self_p.numel() == 0:
        self_p_exp = self_p.exp()
    else:  # (the exp-normalize trick; a complex input is shifted by its largest real part)
        self_p_exp = (self_p - (self_p.real if self_p.is_complex() else self_p).amax(dim, keepdim=True)).exp()
    sumexp_p = self_p_exp.sum(dim, keepdim)
    if _subclass_like():
        return (self_p_exp * self_t).sum(dim, keepdim) / sumexp_p
    # PyTorch multiplies the exponentials by the tangent in place: exp's saved result is then modified, so
    # backward through this tangent raises its "modified by an inplace operation" error (and the product keeps
    # the primal's dtype)
    return self_p_exp.mul_(self_t).sum(dim, keepdim).div_(sumexp_p)


def _softmax_grad(backward_op, grad, result, dim):
    """``backward_op(grad, result)``, with the rule of PyTorch's vmap for it: "If the original input was a scalar,
    the grad is 0" (zeros, where the kernel computes g - e^y·g: inf - inf = NaN for an infinite g). Not under the
    legacy vmap of is_grads_batched alone: it has no rule for these, its fallback runs the kernel per slice."""
    if result.dim() == 0 and _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(grad, result) and \
            not _vmap_batched.legacy_only():
        return _zeros(grad)
    return backward_op(grad, result, dim=dim)


softmax = Op("_softmax", "SoftmaxBackward0", _rank0_ok(_softmax_forward), args=("dim",),
             jvp=lambda self_t, self, result, dim: result * (self_t - logsumexp_jvp(self, self_t, dim, True)),
             # dy_i/dx_j = y_i(δ_ij - y_j)  ⇒  grad_x = y ⊙ (g - Σ_j g_j y_j)
             self=lambda grad, result, dim: _softmax_grad(softmax_backward_data, grad, result, dim))
log_softmax = Op("_log_softmax", "LogSoftmaxBackward0", _rank0_ok(_log_softmax_forward), args=("dim",),
                 jvp=lambda self_t, self, dim: self_t - logsumexp_jvp(self, self_t, dim, True),
                 # d log_softmax_i/dx_j = δ_ij - softmax_j  ⇒  grad_x = g - e^y · Σ_j g_j
                 self=lambda grad, result, dim: _softmax_grad(log_softmax_backward_data, grad, result, dim))


def _softmax_backward_forward(g, y, dim):
    if _softmax_lastdim(y, dim) and g.dtype == y.dtype:
        return _softmax_cpu.softmax_backward(g, y, _sums.THREADS[0])
    if _softmax_otherdim(y, dim) and g.dtype == y.dtype:
        return _softmax_cpu.softmax_backward_dim(g, y, dim % y.ndim)
    if _float_math._is_reduced(y.dtype):  # float16/bfloat16: PyTorch's kernel works in float32, rounds once
        return _softmax_backward_forward(g.astype(np.float32), y.astype(np.float32), dim).astype(y.dtype)
    return (y * (g - np.sum(g * y, axis=dim, keepdims=True))).astype(y.dtype, copy=False)


def _log_softmax_backward_forward(g, y, dim):
    if _softmax_lastdim(y, dim) and g.dtype == y.dtype:
        return _softmax_cpu.log_softmax_backward(g, y)
    if _softmax_otherdim(y, dim) and g.dtype == y.dtype:
        return _softmax_cpu.log_softmax_backward_dim(g, y, dim % y.ndim)
    if _float_math._is_reduced(y.dtype):  # (as softmax's: in float32)
        return _log_softmax_backward_forward(g.astype(np.float32), y.astype(np.float32), dim).astype(y.dtype)
    result = g - np.exp(y) * np.add.reduce(g, axis=dim, keepdims=True)   # np.sum without its wrapper
    return result if result.dtype == y.dtype else result.astype(y.dtype)


def softmax_double_backward(grad, grad_output, dim, output):
    """d/dy of y ⊙ (g - Σ g·y), applied to grad: g·grad - Σ(y·g)·grad - g·Σ(y·grad)."""
    # (the terms made in the order of PyTorch's compiled expression: GCC evaluates an overloaded operator's
    # operands right to left, last term first; the nodes' sequence numbers decide the graph under create_graph)
    last = grad_output * (output * grad).sum(dim, keepdim=True)
    middle = (output * grad_output).sum(dim, keepdim=True) * grad
    return grad_output * grad - middle - last


# The gradients of softmax and log_softmax as ops (PyTorch's _softmax_backward_data ...): linear in
# the incoming gradient g (``grad_output``), with second derivatives through the saved ``output`` y.
softmax_backward_data = Op(
    "_softmax_backward_data", "SoftmaxBackwardDataBackward0", _rank0_ok(_softmax_backward_forward),
    inputs=("grad_output", "output"), args=("dim",),
    # d[y ⊙ (g - Σ g·y)] = softmax_backward(dg, y) + dy ⊙ (g - Σ g·y) - y ⊙ Σ g·dy
    jvp=lambda grad_output_t, output_t, grad_output, output, dim:
        softmax_backward_data(grad_output_t, output, dim=dim)
        + output_t * (grad_output - (grad_output * output).sum(dim, keepdim=True))
        - output * (grad_output * output_t).sum(dim, keepdim=True),
    grad_output=lambda grad, output, dim: softmax_backward_data(grad, output, dim=dim),
    output=lambda grad, grad_output, dim, output: softmax_double_backward(grad, grad_output, dim, output))
log_softmax_backward_data = Op(
    "_log_softmax_backward_data", "LogSoftmaxBackwardDataBackward0", _rank0_ok(_log_softmax_backward_forward),
    inputs=("grad_output", "output"), args=("dim",),
    # d[g - e^y Σ g] = dg - e^y Σ dg - e^y ⊙ dy Σ g
    jvp=lambda grad_output_t, output_t, grad_output, output, dim:
        log_softmax_backward_data(grad_output_t, output, dim=dim)
        - output.exp() * output_t * grad_output.sum(dim, keepdim=True),
    grad_output=lambda grad, output, dim: grad - (grad * output.exp()).sum(dim, keepdim=True),   # g ↦ g - Σ g e^y
    output=lambda grad, grad_output, dim, output:                        # d/dy = -e^y Σ g
        _log_softmax_backward_data_output(grad, grad_output, dim, output))


def _softmax_backward_data_decomposition(grad_output, output, dim):
    """PyTorch's decomposition, which gives the value and tangent under forward AD: g·y - y·Σ(g·y)."""
    new_grad_output = grad_output * output
    return (new_grad_output - output * new_grad_output.sum(dim, keepdim=True)).contiguous()


# (forward AD of it runs the decomposition: forward_ad._run_decomposed; its jvp formula serves the double-vjp
# route of nested jvps. _log_softmax_backward_data has a forward formula of its own in PyTorch.)
softmax_backward_data.jvp_decomposition = _softmax_backward_data_decomposition


def _log_softmax_backward_data_output(grad, grad_output, dim, output):
    """PyTorch's ``-grad_output.sum(dim, true) * output.exp() * grad``, the right operand made first (as C++
    evaluates it)."""
    exp = output.exp()
    return grad_output.sum(dim, keepdim=True).neg() * exp * grad


def _three_term_jvp(first, second, third):
    """first() + second() + third() as PyTorch's compiled ``a + b + c`` of three tensor expressions (addmm's
    forward formula): GCC evaluates an overloaded operator's operands right to left, so the last term is computed
    first (its dtype error is the one raised, its nodes are the oldest); the sum is then (a + b) + c."""
    c = third()
    b = second()
    return first() + b + c


# F.linear with a bias: β·bias + α·(mat1 @ mat2), PyTorch's fused addmm (its AddmmBackward0 node).
addmm = Op("addmm", "AddmmBackward0", _matmul.addmm,
           jvp=lambda self_t, mat1_t, mat2_t, mat1, mat2, beta, alpha: _three_term_jvp(
               lambda: _maybe_multiply(self_t, beta), lambda: _maybe_multiply(mat1_t.mm(mat2), alpha),
               lambda: _maybe_multiply(mat1.mm(mat2_t), alpha)),   # β·dC + α·dA·B + α·A·dB
           inputs=("self", "mat1", "mat2"), args=("beta", "alpha"),
           # d/d bias = β̄, summed over rows (a Scalar product, MulBackward1, as PyTorch's maybe_multiply)
           self=lambda grad, beta: grad if beta == 1 else mul_scalar(grad, other=_conj_number(beta)),
           # α·G·Bᴴ and α·Aᴴ·G (real, untracked, α = 1: PyTorch's product orientation on the arrays, as mm's)
           mat1=lambda grad, mat2, mat1_sym_sizes, mat1_sym_strides, alpha:
               _numpy_result(_mm_mat1_grad, grad._data, mat2._data, mat1_sym_sizes, mat1_sym_strides)
               if alpha == 1 and _mm_real(grad, mat2, 1)
               else mm_mat1_backward(grad, mat2, mat1_sym_sizes, mat1_sym_strides, alpha),
           mat2=lambda grad, mat1, mat2_sym_sizes, mat2_sym_strides, alpha:
               _numpy_result(_mm_mat2_grad, grad._data, mat1._data, mat2_sym_sizes, mat2_sym_strides)
               if alpha == 1 and _mm_real(grad, mat1, 0)
               else mm_mat2_backward(grad, mat1, mat2_sym_sizes, mat2_sym_strides, alpha))

# torch.baddbmm: β·self + α·(batch1 @ batch2) per batch (derivatives.yaml's maybe_multiply: no product for 1).
baddbmm = Op("baddbmm", "BaddbmmBackward0", _matmul.baddbmm,
             jvp=lambda self_t, batch1_t, batch2_t, batch1, batch2, beta, alpha: _three_term_jvp(
                 lambda: _maybe_times(self_t, beta), lambda: _maybe_times(batch1_t.bmm(batch2), alpha),
                 lambda: _maybe_times(batch1.bmm(batch2_t), alpha)),   # β·dC + α·dA·B + α·A·dB
             inputs=("self", "batch1", "batch2"), args=("beta", "alpha"),
             self=lambda grad, beta: _maybe_times(grad, _conj_number(beta)),              # d/d self = β̄
             batch1=lambda grad, batch2, alpha:
                 _maybe_times(grad.bmm(batch2.transpose(1, 2).conj()), _conj_number(alpha)),
             batch2=lambda grad, batch1, alpha:
                 _maybe_times(batch1.transpose(1, 2).conj().bmm(grad), _conj_number(alpha)))


def _maybe_times(t: Tensor, number) -> Tensor:
    """PyTorch's maybe_multiply: t itself for a factor of 1, else t·number (α·G·Bᴴ, α·Aᴴ·G above), a product
    by a C++ Scalar (MulBackward1, as addmm's mm_mat1_backward)."""
    return t if number == 1 else mul_scalar(t, other=number)


def _pixel_shuffle(a: np.ndarray, upscale_factor: int) -> np.ndarray:
    """(*, C·r², H, W) → (*, C, H·r, W·r): each channel block of r² becomes an r×r patch (a contiguous copy)."""
    r, (*batch, c, h, w) = upscale_factor, a.shape
    patches = a.reshape(*batch, c // (r * r), r, r, h, w)
    n = len(batch)
    order = (*range(n), n, n + 3, n + 1, n + 4, n + 2)   # (*, C, H, r, W, r)
    return patches.transpose(order).copy().reshape(*batch, c // (r * r), h * r, w * r)  # (a copy even when r = 1)


def _pixel_unshuffle(a: np.ndarray, downscale_factor: int) -> np.ndarray:
    """(*, C, H·r, W·r) → (*, C·r², H, W): pixel_shuffle's inverse."""
    r, (*batch, c, h, w) = downscale_factor, a.shape
    patches = a.reshape(*batch, c, h // r, r, w // r, r)
    n = len(batch)
    order = (*range(n), n, n + 2, n + 4, n + 1, n + 3)   # (*, C, r, r, H, W)
    return patches.transpose(order).copy().reshape(*batch, c * r * r, h // r, w // r)  # (a copy even when r = 1)


# Both are permutations of the elements, so each one's gradient is the other applied to grad.
pixel_shuffle = Op("pixel_shuffle", "PixelShuffleBackward0", _pixel_shuffle, args=("upscale_factor",),
                   jvp=lambda self_t, upscale_factor: pixel_shuffle(self_t, upscale_factor=upscale_factor),
                   self=lambda grad, upscale_factor: pixel_unshuffle(grad, downscale_factor=upscale_factor))
pixel_unshuffle = Op("pixel_unshuffle", "PixelUnshuffleBackward0", _pixel_unshuffle, args=("downscale_factor",),
                     jvp=lambda self_t, downscale_factor: pixel_unshuffle(self_t, downscale_factor=downscale_factor),
                     self=lambda grad, downscale_factor: pixel_shuffle(grad, upscale_factor=downscale_factor))


def _adaptive_grad(g, name: str):
    """``g``, checked as PyTorch's adaptive pooling backward checks it (no empty non-batch dim)."""
    _conv._check_adaptive_grad(g, name)
    return g


# adaptive_max_pool2d (here rather than with the other pooling rows: added in the missing-nn pass 2).
# Like max_pool2d: each window's gradient goes to its maximum, result1 holding where that was.
adaptive_max_pool2d = Op(
    "adaptive_max_pool2d", "AdaptiveMaxPool2DBackward0",
    _strides.channels_last_like(lambda x, output_size: _conv.adaptive_max_pool2d(x, output_size)),  # (_conv: below)
    args=("output_size",),
    outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1),
    self=lambda grad, self, result1: adaptive_max_pool2d_backward(grad, self, indices=result1))
adaptive_max_pool2d_backward = Op(
    "adaptive_max_pool2d_backward", "AdaptiveMaxPool2DBackwardBackward0",
    # (in the input's memory format, as PyTorch's kernel allocates it: channels_last for such an x)
    lambda g, x, indices: _strides.channels_last_like(lambda x, g: _conv.max_pool2d_backward(
        _adaptive_grad(g, "adaptive_max_pool2d_backward"), x.shape, indices._data))(x, g),
    inputs=("grad_output", "self"), args=("indices",),
    jvp="linear",  # linear in grad_output; self only gives the shape
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))   # piecewise constant in x


# ---- losses ---------------------------------------------------------------------------------

# PyTorch's composite losses (cross-entropy with probabilities or label smoothing) scale by a C++
# Scalar, not by a tensor: those are the Scalar overloads of mul/div, with their own node names.
def _opmath_number(a, number):
    """A Python number as PyTorch's float16/bfloat16 mul/div kernels read it: in float32 ("opmath"), so
    the product is computed in float32 and rounded once (as ``_dispatch._pytorch_operands`` does for tensors)."""
    return np.float32(number) if a.dtype.itemsize == 2 and a.dtype.kind in "fV" else number


def _number_result(a, number, divide=False):
    """The dtype of ``a * number`` (``a / number``) by PyTorch's promotion: an integer or bool tensor times a
    float gives the default float, a real tensor times a complex a complex; otherwise a's dtype."""
    kind = a.dtype.kind
    if kind in "biu":
        if isinstance(number, complex):
            return np.dtype(np.complex64)
        if divide or isinstance(number, float):
            return np.dtype(np.float32)
        return np.dtype(np.int64) if kind == "b" and type(number) is not bool else a.dtype
    if kind == "f" and isinstance(number, complex):
        return np.dtype(np.complex128 if a.dtype.itemsize == 8 else np.complex64)
    if isinstance(number, complex) and a.dtype == _dtypes.bfloat16.np:   # (no complex bfloat16: complex64)
        return np.dtype(np.complex64)
    return a.dtype


def _mul_number(a, other):
    """a · other (a number) as PyTorch's mul with a Scalar: a complex product in its kernel's rounding
    (_complex_bits), the number cast to the result's complex type; otherwise NumPy's product (half types in
    float32, as above)."""
    dtype = _number_result(a, other)
    if dtype.kind == "c":
        return _complex_bits.multiply(a.astype(dtype, copy=False), np.asarray(other, dtype))
    if dtype.kind in "iu" and type(other) is int and not np.can_cast(np.min_scalar_type(other), dtype):
        other = np.array(other & 0xFFFFFFFFFFFFFFFF, np.uint64).astype(dtype)   # (C++'s cast: uint8 · -2 is · 254)
    return (a * _opmath_number(a, other)).astype(dtype, copy=False)


mul_scalar = Op("mul", "MulBackward1", _mul_number,
                args=("other",),
                jvp="element_wise",
                # d(x·c)/dx = c (a Scalar op too; conjugated for a complex c, as PyTorch)
                self=lambda grad, other: mul_scalar(grad, other=other.conjugate() if type(other) is complex else other))
div_scalar = Op("div", "DivBackward1",
                lambda a, other: (a / _opmath_number(a, other)).astype(_number_result(a, other, True), copy=False),
                args=("other",),
                jvp="element_wise",
                # d(x/c)/dx = 1/c (a Scalar op too; conjugated for a complex c, as PyTorch)
                self=lambda grad, other: div_scalar(grad, other=other.conjugate() if type(other) is complex else other))


def _nll_pick(x, target, weight, ignore_index):
    """(x with its classes moved last, kept-target mask, kept targets, their weights or None).

    Ignored targets are left out, not multiplied by 0: PyTorch skips them, so an inf or nan that
    x holds in an ignored row never reaches the loss or the gradient.
    """
    xm = x if x.ndim == 1 else np.moveaxis(x, 1, -1)   # a view: writing into it writes into x
    t = target._data.reshape(()) if x.ndim == 1 else target._data   # a 1-D input's target may be (1,)
    keep = t != ignore_index
    kept = t[keep]
    # weight.reshape(-1): nll_loss2d takes any weight of C elements, e.g. (C, 1)
    w = None if weight is None else weight._data.reshape(-1)[kept].astype(x.dtype, copy=False)
    return xm, keep, kept, w


def _nll_plain_rows(x, target, weight, ignore_index):
    """np.arange(N) when x is (N, C) float32/64 with no weight and no target ignored, else None.

    Every per-target weight is then 1: the general path's products by w change nothing and its total
    weight, a sum of ones, is N (exactly, below 2^24). Plain fancy indexing then replaces
    take_along_axis / put_along_axis (~5 us each in their Python wrappers).
    """
    t = target._data
    if (weight is None and x.ndim == 2 and x.dtype.char in "fd" and t.size <= 1 << 24
            and not np.count_nonzero(t == ignore_index)):
        return np.arange(t.size)
    return None


def _nll_forward(x, target, weight, reduction, ignore_index):
    # loss_n = -w[t_n]·x[n, t_n];  mean divides by Σ w[t_n] (the "total_weight" output).
    rows = _nll_plain_rows(x, target, weight, ignore_index)
    if rows is not None:   # w = 1
        losses = -x[rows, target._data]
        total = np.asarray(rows.size if reduction != 0 else 0, dtype=x.dtype)
    else:
        xm, keep, kept, w = _nll_pick(x, target, weight, ignore_index)
        picked = xm[keep, kept]
        # ignored targets: loss 0 and weight 0, written, not computed as -x·0
        losses = np.zeros(keep.shape, x.dtype)
        losses[keep] = -picked if w is None else -picked * w
        weights = np.zeros(keep.shape, x.dtype)
        weights[keep] = 1 if w is None else w
        if x.ndim >= 2 and reduction != 0:   # (summed in PyTorch's order: minigrad/_loss_sums.py; nll_loss2d,
            # which takes every input of more than 2 dims, adds the samples in the targets' C order the same way)
            skipped = ~keep.reshape(-1)
            total = np.asarray(keep.sum() if w is None else _loss_sums.cascade_sum(weights.reshape(-1), skipped),
                               x.dtype)
            loss = _loss_sums.cascade_sum(losses.reshape(-1), skipped)
            return (loss / total if reduction == 1 else loss).astype(x.dtype), total
        # PyTorch keeps the total weight for reduction='none' too, but only for a 1-D input
        total = np.asarray(weights.sum() if reduction != 0 or x.ndim == 1 else 0, dtype=x.dtype)
    if x.ndim == 2 and reduction != 0:
        losses = _loss_sums.cascade_sum(losses)
    if reduction == 1:
        return (losses.sum() / total).astype(x.dtype), total
    if reduction == 2:
        return losses.sum(dtype=x.dtype), total
    return losses.astype(x.dtype, copy=False), total


def _nll_backward_forward(g, x, target, weight, reduction, ignore_index, total_weight):
    # grad_x[n, t_n] = -w[t_n]·g (/ total_weight for mean); zero elsewhere. (No np.errstate for the
    # division: forwards run with NumPy's warnings off, see _dispatch._QUIET.)
    rows = _nll_plain_rows(x, target, weight, ignore_index)
    if rows is not None:   # w = 1
        # np.zeros_like would keep x's memory order: the same array for a C-contiguous x, 0.8 us slower
        out = np.zeros(x.shape, x.dtype) if x.flags.c_contiguous else np.zeros_like(x)
        out[rows, target._data] = -g / total_weight._data if reduction == 1 else -g   # cast as astype
        return out
    if x.ndim == 1 and target._data.ndim == 1:   # the forward takes a (1,) target here, the backward doesn't
        raise RuntimeError(f"size mismatch (got input: {list(x.shape)}, target: {list(target._data.shape)})")
    out = np.zeros_like(x)
    om, keep, kept, w = _nll_pick(out, target, weight, ignore_index)
    g = g if g.ndim == 0 else g[keep]     # reduction='none': one gradient per target, the ignored ones unread
    if reduction == 0:
        coeff = -g if w is None else -w * g
    else:  # PyTorch's kernel: w · -(g / total_weight), the division first
        coeff = -(g / total_weight._data) if reduction == 1 else -g
        coeff = coeff if w is None else w * coeff
    om[keep, kept] = coeff.astype(x.dtype)   # ignored targets keep their exact 0, whatever g and the total are
    return out


nll_loss_backward = Op(
    "nll_loss_backward", "NllLossBackwardBackward0", _nll_backward_forward, inputs=("grad_output", "self"),
    args=("target", "weight", "reduction", "ignore_index", "total_weight"),
    # linear in grad_output; self only gives the shape (detached: no graph through it), so a tangent of self alone
    # gives none (PyTorch runs its jvp decomposition, whose result reads grad_output's tangent only)
    jvp=lambda grad_output_t, self, target, weight, reduction, ignore_index, total_weight:
        _nll_loss_backward(grad_output_t, self.detach(), target, weight, reduction, ignore_index, total_weight),
    # linear in grad_output: its derivative is nll_loss itself applied to the incoming gradient
    grad_output=lambda grad, target, weight, reduction, ignore_index:
        nll_loss(grad, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index)[0],
    self=lambda grad: _ops().zeros_like(grad))


def _nll_loss_backward(grad, self, target, weight, reduction, ignore_index, total_weight):
    return nll_loss_backward(grad, self, target=target, weight=weight, reduction=reduction,
                             ignore_index=ignore_index, total_weight=total_weight)


nll_loss = Op("nll_loss_forward", "NllLossBackward0", _nll_forward,
              args=("target", "weight", "reduction", "ignore_index"),
              jvp="linear",   # linear in self (PyTorch's jvp: nll_loss(self_t, ...)), ignored targets skipped
              outputs=("result", "total_weight"), differentiable_outputs=1,
              self=_nll_loss_backward)
# The same op on (N, C, H, W) inputs: PyTorch's nll_loss2d, a node of its own name.
nll_loss2d = Op("nll_loss2d_forward", "NllLoss2DBackward0", _nll_forward,
                jvp="linear",
                args=("target", "weight", "reduction", "ignore_index"),
                outputs=("result", "total_weight"), differentiable_outputs=1,
                self=lambda grad, self, target, weight, reduction, ignore_index, total_weight:
                    nll_loss2d_backward(grad, self, target=target, weight=weight, reduction=reduction,
                                        ignore_index=ignore_index, total_weight=total_weight))
nll_loss2d_backward = Op(
    "nll_loss2d_backward", "NllLoss2DBackwardBackward0", _nll_backward_forward, inputs=("grad_output", "self"),
    args=("target", "weight", "reduction", "ignore_index", "total_weight"),
    jvp=lambda grad_output_t, self, target, weight, reduction, ignore_index, total_weight:   # (as nll_loss_backward)
        nll_loss2d_backward(grad_output_t, self.detach(), target=target, weight=weight, reduction=reduction,
                            ignore_index=ignore_index, total_weight=total_weight),
    grad_output=lambda grad, target, weight, reduction, ignore_index:
        nll_loss2d(grad, target=target, weight=weight, reduction=reduction, ignore_index=ignore_index)[0],
    self=lambda grad: _ops().zeros_like(grad))


def _mse_backward_forward(g, x, y, reduction):
    # 2(x - y)·g, divided by the element count for mean (an integer target takes x's dtype: PyTorch's promotion)
    dtype = x.dtype if y.dtype.kind in "biu" else y.dtype if x.dtype.kind in "biu" else np.result_type(x, y)
    # (in the tensors' dtype first, as PyTorch's kernel; 2 / 0 elements is C's inf; the count is the broadcast
    # shape's: F.mse_loss expands both operands first)
    count = np.broadcast(x, y).size
    norm = dtype.type((2 / count if count else math.inf) if reduction == 1 else 2)
    # (computed in the common dtype, written in x's: PyTorch's grad_input is zeros_like(input,
    # LEGACY_CONTIGUOUS_MEMORY_FORMAT), so C order whatever x's layout)
    return _strides.contiguous(((x - y) * norm * g).astype(x.dtype if x.dtype.kind in "fc" else dtype, copy=False))


def _decomposed_under_vmap(op, decomposition):
    """``op`` (a loss's backward op) as PyTorch's vmap runs it: where an argument is batched at a vmap level the op
    reaches (jacrev's cotangents, a vmapped input), functorch calls its Python decomposition (torch._decomp), whose
    elementwise ops record their own nodes and compute in the promoted dtype of all three tensors
    (pw_cast_for_opmath: a float64 target makes a float64 gradient, which the engine then casts to the input's).
    ``tangents``: called by a forward formula, which runs below its jvp level: a vmap outside it batching a tangent
    (jacfwd's basis) decomposes it. Not the legacy vmap of ``is_grads_batched``: it runs the op slice by slice."""

    def call(grad_output, self, target, tangents: bool = False, **args):
        if _vmap_batched.DEPTH[0] and (_vmap_batched.batched_below_forward(grad_output, self, target) if tangents
                                       else _vmap_batched.reaches_vmap(grad_output, self, target, skip_legacy=True)):
            tensors = (grad_output, self, target)
            result = _dtypes.result_type(*tensors)
            compute = _dtypes.float32 if result in (_dtypes.float16, _dtypes.bfloat16) else result
            return decomposition(*(t.to(compute) for t in tensors), **args).to(result)
        return op(grad_output, self, target, **args)
    return call


def _mse_loss_backward_decomposed(grad_output, self, target, reduction):
    """2/n · (x - y) · g (n: the element count for mean, else 1)."""
    norm = 2.0 / self.numel() if reduction == 1 else 2.0
    return norm * (self - target) * grad_output


def _smooth_l1_loss_backward_decomposed(grad_output, self, target, reduction, beta):
    """1/n · g · (x - y)/β inside |x - y| < β, 1/n · g · sign(x - y) outside."""
    norm = 1.0 / self.numel() if reduction == 1 else 1.0
    x = self - target
    norm_grad = norm * grad_output
    return _ops().where(x.abs() < beta, norm_grad * x / beta, norm_grad * x.sign())


def huber_loss_jvp(self_t, target_t, self, target, reduction, delta):
    """dℓ = ∂ℓ/∂x·dx + ∂ℓ/∂y·dy per element, then reduced: PyTorch's huber_loss_backward of each tangent, unreduced
    (the target's term first, as C++ evaluates it: a missing tangent's zeros still meet the kernel's dtype check;
    a batched tangent's term decomposed, see _decomposed_under_vmap)."""
    t_target = _huber_loss_backward(target_t, target, self, True, reduction=0, delta=delta)
    t = _huber_loss_backward(self_t, self, target, True, reduction=0, delta=delta) + t_target
    return t if reduction == 0 else t.mean() if reduction == 1 else t.sum()


def smooth_l1_loss_jvp(self_t, target_t, self, target, reduction, beta):
    """The same for smooth_l1_loss: smooth_l1_loss_backward of each tangent, unreduced, the target's first."""
    t_target = _smooth_l1_loss_backward(target_t, target, self, True, reduction=0, beta=beta)
    t = _smooth_l1_loss_backward(self_t, self, target, True, reduction=0, beta=beta) + t_target
    return t if reduction == 0 else t.mean() if reduction == 1 else t.sum()


def _huber_loss_backward_decomposed(grad_output, self, target, reduction, delta):
    """1/n · g · clamp(x - y, -δ, δ), as three branches."""
    norm = 1.0 / self.numel() if reduction == 1 else 1.0
    x = self - target
    where = _ops().where
    return where(x < -delta, -norm * grad_output * delta,
                 where(x > delta, norm * grad_output * delta, norm * x * grad_output))


def mse_double_backward(grad, self, reduction):
    """d²(x - y)²/dx² = 2, times grad (divided by the element count for mean)."""
    g = mul_scalar(grad, other=2)                     # PyTorch scales by Python numbers here
    # (the element count of the expanded operands: grad has their broadcast shape; C++'s grad_input /= numel in
    # place, which a ZeroTensor refuses: the term of a missing tangent in the forward formula below, jvp(grad(f));
    # not in a jvp nested in another, PyTorch's real nested forward AD, here the double-vjp trick)
    from .autograd import forward_ad
    in_place = not forward_ad.DOUBLE_VJP[0]
    return div_scalar(g, other=max(g.numel(), self.numel()), out=g if in_place else None) if reduction == 1 else g


def mse_loss_jvp(self_t, target_t, self, target, reduction):
    """d (x - y)² = 2 (x - y)(dx - dy), then reduced (PyTorch's mse_loss_jvp: the promoted dtype of x and y)."""
    for x in (self, target):  # (an integer operand's tangent is PyTorch's integer ZeroTensor, written into: an error)
        if not (x.dtype.is_floating_point or x.dtype.is_complex):
            from ._ops import _legacy
            raise RuntimeError(f"result type {_legacy(self_t.dtype if x is target else target_t.dtype)} can't be "
                               f"cast to the desired output type {_legacy(x.dtype)}")
    # PyTorch's formula: mse_loss_backward(self_t, self, target) + mse_loss_backward(target_t, target, self), unreduced:
    # each term in its own input's dtype (a float32 x beside a float64 y: x's term rounded to float32 first)
    # (under jacfwd's vmap a batched tangent's term is decomposed, in the promoted dtype: _decomposed_under_vmap)
    t_target = _mse_loss_backward(target_t, target, self, True, reduction=0)   # (C++ makes the right operand first)
    t = _mse_loss_backward(self_t, self, target, True, reduction=0) + t_target
    return t if reduction == 0 else t.mean() if reduction == 1 else t.sum()


mse_loss_backward = Op(
    "mse_loss_backward", "MseLossBackwardBackward0", _mse_backward_forward,
    inputs=("grad_output", "self", "target"), args=("reduction",),
    # (PyTorch's order: the self and target terms first, so a missing tangent's ZeroTensor refuses the mean's
    # in-place division before anything else)
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, reduction:
        mse_double_backward(self_t * grad_output, self, reduction)
        - mse_double_backward(target_t * grad_output, target, reduction)
        + _mse_loss_backward(grad_output_t, self, target, True, reduction=reduction),
    # d/dg: the same linear map applied to grad (for a reduced g the engine sums it back, as PyTorch's)
    grad_output=lambda grad, self, target, reduction: _mse_loss_backward(grad, self, target, reduction=reduction),
    self=lambda grad, grad_output, self, reduction: mse_double_backward(grad * grad_output, self, reduction),
    target=lambda grad, grad_output, target, reduction:
        mse_double_backward(grad * grad_output, target, reduction).neg())
_mse_loss_backward = _decomposed_under_vmap(mse_loss_backward, _mse_loss_backward_decomposed)

mse_loss = Op("mse_loss", "MseLossBackward0",
              # (the squares laid out as TensorIterator's output: the mean adds them in that memory order)
              lambda x, y, reduction: _reduce_in_loss_buffer(_strides.iterator_layout(
                  ((x - y) ** 2).astype(np.result_type(x, y), copy=False), (x, y)), reduction),
              jvp=lambda self_t, target_t, self, target, reduction: mse_loss_jvp(self_t, target_t, self, target,
                                                                                 reduction),
              inputs=("self", "target"), args=("reduction",),
              # d (x - y)² / dx = 2(x - y);  / dy = 2(y - x): the same op with the roles swapped
              self=lambda grad, self, target, reduction: _mse_loss_backward(grad, self, target, reduction=reduction),
              target=lambda grad, self, target, reduction: _mse_loss_backward(grad, target, self, reduction=reduction))


_BCE_LOGS = {   # PyTorch's BCE kernel calls the C library's log and log1p (NumPy's float32 log rounds otherwise)
    np.dtype(np.float32): (_float_math._logf, _float_math._log1pf),
    np.dtype(np.float64): (_float_math._log64, _float_math._log1p64)}


def _bce_forward(x, y, weight, reduction):
    # (y - 1)·log(1 - x) - y·log x, each log clamped at -100 as PyTorch does (so x = 0 or 1 stays finite).
    log, log1p = _BCE_LOGS.get(x.dtype, (np.log, np.log1p))
    with np.errstate(divide="ignore"):
        loss = (y - 1) * np.maximum(log1p(-x), -100) - y * np.maximum(log(x), -100)
    if weight is not None:
        loss = loss * weight._data
    # (PyTorch's kernel writes into empty_like(self): self's layout, not TensorIterator's from target's strides,
    # which also orders the sum of a reduction)
    return _reduce_in_loss_buffer(_like_self(x, loss.astype(x.dtype, copy=False)), reduction)


_BCE_EPS = 1e-12  # PyTorch's guard against dividing by x(1 - x) = 0


def _bce_backward_forward(g, x, y, weight, reduction):
    # d/dx = g·(x - y) / max(x(1 - x), 1e-12), times weight (divided by the element count for mean)
    if _is_half(x.dtype):
        # PyTorch's kernel steps in the half type itself, 1 and ε too (typed: NumPy would widen a bfloat16 times a
        # Python number); the mean's division by the count is a Scalar op, in float32 and rounded once
        one, eps = x.dtype.type(1), x.dtype.type(_BCE_EPS)
        out = g * (x - y) / np.maximum((one - x) * x, eps)
        if weight is not None:
            out = out * weight._data
        out = (out.astype(np.float32) / np.float32(x.size)).astype(x.dtype) if reduction == 1 else out
        return _like_self(x, out)   # (PyTorch's kernel writes into empty_like(self))
    out = g * (x - y) / np.maximum((1 - x) * x, _BCE_EPS)
    if weight is not None:
        out = out * weight._data
    if reduction == 1:
        out = out / x.size
    return _like_self(x, out.astype(x.dtype, copy=False))


def bce_double_backward(grad, grad_output, self, target, weight, reduction):
    """d/dx of g·(x - y)/(x(1 - x)) = g·(x² - 2xy + y)/(x²(1 - x)²), ε-guarded as in PyTorch."""
    # (PyTorch's C++: 2 * x and x + ε are Scalar ops, 1 - x a filled tensor minus x; an operator's right operand
    # is made first, the denominator before the numerator)
    inp_pl_eps = add_scalar(self, other=_BCE_EPS)
    one_m_inp_pl_eps = add_scalar(_one_minus(self), other=_BCE_EPS)
    one_m_sq = one_m_inp_pl_eps.pow(2)
    denom = inp_pl_eps.pow(2) * one_m_sq
    two_xy = mul_scalar(self, other=2) * target
    g = (self * self - two_xy + target) / denom
    g = g.mul_(grad * grad_output)   # (C++'s gI *= ...: in place, a clone of gI saved when the factor needs grad)
    if weight is not None:
        g = g.mul_(weight)
    return div_scalar(g, other=self.numel()) if reduction == 1 else g


def bce_double_backward_grad_output(grad, self, target, weight, reduction):
    """d/dg: (x - y)/(x(1 - x)) applied to grad (summed when g was reduced)."""
    # (C++'s (x - y) / ((x + ε) * (1 - x + ε)), the right operand first; then ggO *= grad, *= weight in place)
    denom = add_scalar(_one_minus(self), other=_BCE_EPS)
    denom = add_scalar(self, other=_BCE_EPS) * denom
    g = (self - target) / denom
    g = g.mul_(grad)
    if weight is not None:
        g = g.mul_(weight)
    if reduction == 1:
        g = div_scalar(g, other=self.numel())
    return g if reduction == 0 else g.sum()


def bce_double_backward_target(grad, grad_output, self, target, weight, reduction):
    """d/dy of g·(x - y)/(x(1 - x)) = -g / max(x(1 - x), ε)."""
    from .autograd import grad_mode
    res = grad.neg() * grad_output
    if weight is not None:   # (C++'s in-place steps: res.mul_(w), (1 - x).mul_(x), res.div_(denom), res.div_(n))
        res = res.mul_(weight)
    denom = _one_minus(self).mul_(self)
    with grad_mode.no_grad():  # the ε guard changes values only, not the graph (as in PyTorch)
        denom.clamp_min_(_BCE_EPS)
    res = res.div_(denom)
    return div_scalar(res, other=target.numel(), out=res) if reduction == 1 else res


binary_cross_entropy_backward = Op(
    "binary_cross_entropy_backward", "BinaryCrossEntropyBackwardBackward0", _bce_backward_forward,
    inputs=("grad_output", "self", "target"), args=("weight", "reduction"),
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, weight, reduction:
        binary_cross_entropy_backward(grad_output_t, self, target, weight=weight, reduction=reduction)
        + bce_double_backward(self_t, grad_output, self, target, weight, reduction)
        + bce_double_backward_target(target_t, grad_output, self, target, weight, reduction),
    grad_output=bce_double_backward_grad_output,
    self=bce_double_backward,
    target=bce_double_backward_target)


def bce_backward(grad, self, target, weight, reduction):
    """d/dx = (x - y) / max(x(1 - x), 1e-12), times weight: PyTorch's binary_cross_entropy_backward op."""
    return binary_cross_entropy_backward(grad, self, target, weight=weight, reduction=reduction)


def bce_target_backward(grad, self, target, weight, reduction):
    """d/dy = -logit(x): PyTorch's logit(x).neg_(), times grad, then weight (mean: divided by the count)."""
    g = logit(self, eps=None).neg_().mul_(grad)   # (C++'s steps in place)
    if weight is not None:
        g = g.mul_(weight)
    return div_scalar(g, other=target.numel(), out=g) if reduction == 1 else g


binary_cross_entropy = Op("binary_cross_entropy", "BinaryCrossEntropyBackward0", _bce_forward,
                          jvp="reduction",
                          inputs=("self", "target"), args=("weight", "reduction"),
                          self=bce_backward, target=bce_target_backward)


def _bce_logits_forward(x, y, weight, pos_weight, reduction):
    # loss = (1 - y)·x - (1 + (p - 1)·y)·log σ(x), step by step as PyTorch's kernel, whose in-place steps keep
    # the dtype of the tensor they write into: log σ(x) (and its product with 1 + (p - 1)·y) in x's dtype, then
    # (1 - y)·x - that in y's dtype (a float32 x with a float64 y: log σ(x) rounded to float32 first)
    log_sigmoid = _np_log_sigmoid(x)[0]
    if pos_weight is not None:
        pw = pos_weight._data
        log_sigmoid = (log_sigmoid * ((pw - pw.dtype.type(1)) * y + 1)).astype(x.dtype, copy=False)
    loss = ((y.dtype.type(1) - y) * x).astype(y.dtype, copy=False)
    loss = (loss - log_sigmoid).astype(y.dtype, copy=False)
    if weight is not None:
        loss = (loss * weight._data).astype(y.dtype, copy=False)
    return _reduce(loss, reduction)


def bce_logits_backward(grad, self, target, weight, pos_weight, reduction):
    """d/dx: (σ(x) - y) for plain BCE; ((p·y + 1 - y)·σ(x) - p·y) with pos_weight p; times weight."""
    if pos_weight is None:
        g = self.sigmoid() - target
        # (PyTorch's in-place steps keep x's dtype: σ(x).sub_(y).mul_(grad), rounded there when y's dtype differs)
        def own(t):
            return t if t.dtype is self.dtype else to_copy(t, dtype=self.dtype)
    else:
        t = pos_weight * target
        g = (add_scalar(t, other=1) - target) * self.sigmoid() - t
        def own(t):
            return t
    # (PyTorch's order: times the incoming gradient, then the weight, then the mean's division by numel)
    g = own(own(g) * grad)
    if weight is not None:
        g = own(g * weight)
    return div_scalar(g, other=self.numel()) if reduction == 1 else g


def bce_logits_target_backward(grad, self, target, weight, pos_weight, reduction):
    """d/dy: -x (plain), or -x + (p - 1)·softplus(-x) with pos_weight p; times weight."""
    if pos_weight is None:
        g = self.neg()
        def own(t):
            return t
    else:
        # loss = (1-y)x + (1+(p-1)y)·softplus(-x)  ⇒  d/dy = -x + (p-1)·softplus(-x) = log σ(-x) - p·log σ(x)
        # (PyTorch's expression, its steps in place: in x's dtype when p, y or grad have another)
        def own(t):
            return t if t.dtype is self.dtype else to_copy(t, dtype=self.dtype)
        g = own(log_sigmoid(self.neg())[0] - own(log_sigmoid(self)[0] * pos_weight))
    # (PyTorch's order: times the incoming gradient, then the weight, then the mean's division by numel)
    g = own(g * grad)
    if weight is not None:
        g = own(g * weight)
    return div_scalar(g, other=target.numel()) if reduction == 1 else g


binary_cross_entropy_with_logits = Op(
    "binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", _bce_logits_forward,
    jvp="reduction",
    inputs=("self", "target"), args=("weight", "pos_weight", "reduction"),
    self=bce_logits_backward, target=bce_logits_target_backward)


# =============================================================================================
# Copies, conversions and in-place writes
# =============================================================================================

clone = Op("clone", "CloneBackward0", lambda a, memory_format=None: _strides.clone(a, memory_format),
           jvp="linear",
           self=lambda grad: grad)
# Called as to_copy(t, dtype=d): Op.__call__ casts the input to d, the forward only copies, keeping the memory
# layout (PyTorch's preserve_format: x.permute(2, 0, 1).float() stays non-contiguous; see _strides)
to_copy = Op("_to_copy", "ToCopyBackward0", _strides.clone,
             jvp=lambda self_t, result: to_copy(self_t, dtype=result.dtype),  # the tangent is converted too
             self=lambda grad: grad)                    # the engine casts grad back to the input dtype
def _no_copy_back(grad):
    """The gradient of ``x.to('meta')`` for a CPU x: copied back from the meta device, which holds no values."""
    raise NotImplementedError(_meta.NO_DATA)


to_copy_to_meta = Op("_to_copy", "ToCopyBackward0", _meta.clone,   # (x.to('meta') of a CPU x: see _meta.py)
                     jvp=lambda self_t, result: to_copy(self_t, dtype=result.dtype),
                     self=_no_copy_back)
def _copy_values(a, src):
    """src's values broadcast to a's shape in a's dtype (into complex32 without the warning: no new tensor)."""
    src = np.broadcast_to(src, a.shape)
    return _dtypes.as_complex32(src, warn=False) if _dtypes.is_complex32(a.dtype) else cast_array(src, a.dtype)


copy_ = Op("copy_", "CopyBackwards", _copy_values,
           jvp=lambda self_t, src_t: src_t,   # (self_t read too, as PyTorch's self_t.copy_(src_t): a zero tangent)
           inputs=("self", "src"),
           self=lambda grad: _ops().zeros_like(grad),   # the old value is overwritten: no gradient
           # PyTorch's CopyBackwards casts to src's dtype itself (real part first for a real src), before the engine
           # sums a broadcast src's gradient back: a 0-dim float64 src of a float32 self sums in float64
           src=lambda grad, _input_meta: _grad_to_src_dtype(grad, _input_meta[1][1]))


def _grad_to_src_dtype(grad, npd):
    """CopyBackwards' ``grad.to(src_options)``, with ``at::real(grad)`` first when only grad is complex."""
    if grad._data.dtype == npd:
        return grad
    if grad.is_complex() and npd.kind != "c":
        grad = grad.real
    from ._dtypes import from_numpy
    return grad if grad._data.dtype == npd else grad.to(from_numpy(npd))
zero_ = Op("zero_", "ZeroBackward0", np.zeros_like,
           jvp="linear",
           self=lambda grad: _ops().zeros_like(grad))
# x[...] = 0-dim tensor (and t.fill_(tensor)): the value goes everywhere, so its gradient is the sum
def _fill_like(a, value):
    """a full of value; a complex value into a real tensor with PyTorch's warning (NumPy's ComplexWarning not)."""
    value = np.asarray(value)
    if value.dtype.kind == "c" and a.dtype.kind != "c":
        value = cast_array(value, a.dtype)
    return np.full_like(a, value)


fill_tensor = Op("fill_", "FillBackward3", _fill_like, inputs=("self", "value"),
                 # (reads self_t too, as PyTorch's self_t.fill_(value_t): self's tangent alone gives zeros)
                 jvp=lambda self_t, value_t, self: value_t.expand(self.shape),
                 self=lambda grad: _ops().zeros_like(grad),
                 value=lambda grad: grad.sum())
fill_ = Op("fill_", "FillBackward2",
           lambda a, value: np.full_like(a, value._data if hasattr(value, "_data") else value),
           jvp=lambda self_t: _ops().zeros_like(self_t),
           args=("value",),
           self=lambda grad: _ops().zeros_like(grad))


# ---- in-place random samplers (x.uniform_(), x.bernoulli_(p) ...): the values are drawn by the caller
# (minigrad/_random_fills.py) and passed as ``values``; the old values are overwritten, so no gradient
# flows back to them (nor to a tensor p), as in PyTorch.
def _sampler(name: str, node_name: str, inputs=("self",)):
    if inputs == ("self",):
        return Op(name, node_name, lambda a, values: values, args=("values",),
                  jvp=lambda self_t: _ops().zeros_like(self_t),
                  self=lambda grad: _ops().zeros_like(grad))
    return Op(name, node_name, lambda a, p, values: values, inputs=inputs, args=("values",),
              jvp=lambda self_t: _ops().zeros_like(self_t),   # (p's tangent is not read: none from p alone)
              self=lambda grad: _ops().zeros_like(grad),
              # (zeros of p's shape: the engine casts them to p's dtype; PyTorch saves no tensor for this)
              p=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))


uniform_ = _sampler("uniform_", "UniformBackward0")
normal_ = _sampler("normal_", "NormalBackward0")
bernoulli_tensor = _sampler("bernoulli_", "BernoulliBackward1", inputs=("self", "p"))
bernoulli_float = _sampler("bernoulli_", "BernoulliBackward2")
exponential_ = _sampler("exponential_", "ExponentialBackward0")
geometric_ = _sampler("geometric_", "GeometricBackward0")
log_normal_ = _sampler("log_normal_", "LogNormalBackward0")
cauchy_ = _sampler("cauchy_", "CauchyBackward0")
random_from = _sampler("random_", "RandomBackward0")       # random_(from, to)
random_to = _sampler("random_", "RandomBackward1")         # random_(to)
random_ = _sampler("random_", "RandomBackward2")           # random_()
bernoulli = _sampler("bernoulli", "BernoulliBackward0")     # torch.bernoulli(p): a new tensor of 0/1 draws

# torch.normal(mean, std) with a tensor mean and/or std: the draws (``values``, from _creation.normal) do not
# depend smoothly on the parameters as PyTorch computes them, so d/dmean = d/dstd = 0 (its NormalBackward1/2/3
# save only the sizes, for those zeros).
normal_tensor_float = Op("normal", "NormalBackward1", lambda mean, values: values, inputs=("mean",),
                         args=("values",), jvp=lambda mean_t: _ops().zeros_like(mean_t),
                         mean=lambda grad, mean_sym_sizes: _zeros_on(grad, mean_sym_sizes))
normal_float_tensor = Op("normal", "NormalBackward2", lambda std, values: values, inputs=("std",),
                         args=("values",), jvp=lambda std_t: _ops().zeros_like(std_t),
                         std=lambda grad, std_sym_sizes: _zeros_on(grad, std_sym_sizes))
def _normal_tensor_tensor_jvp(mean_t, result):
    """PyTorch's zeros_like(mean_t) (std_t unread): mean's shape, so a mean broadcast by std gets PyTorch's error
    for a tangent whose size is not its primal's."""
    from .autograd import forward_ad
    return forward_ad.check_tangent_size(_ops().zeros_like(mean_t), result)


normal_tensor_tensor = Op("normal", "NormalBackward3", lambda mean, std, values: values, inputs=("mean", "std"),
                          args=("values",), jvp=_normal_tensor_tensor_jvp,
                          mean=lambda grad, mean_sym_sizes: _zeros_on(grad, mean_sym_sizes),
                          std=lambda grad, std_sym_sizes: _zeros_on(grad, std_sym_sizes))


# ---- torch.distributions' native samplers: the values are drawn by minigrad/distributions/_native.py
# (passed as ``values``). A registry rather than table rows: the gradients of random draws cannot be
# checked by finite differences; tests/test_parity_distributions2.py compares them with PyTorch's.
def _standard_gamma_grad(alpha, x):
    from .distributions._native import _standard_gamma_grad as grad_fn
    return grad_fn(alpha, x)


def _no_standard_gamma_grad_grad(grad):
    raise NotImplementedError("the derivative for '_standard_gamma_grad' is not implemented.")


DISTRIBUTION_OPS = {
    # x ~ Gamma(α, 1): dx/dα = -(∂CDF(x; α)/∂α) / pdf(x; α) (implicit reparameterisation)
    "_standard_gamma": Op("_standard_gamma", "StandardGammaBackward0", lambda a, values: values, args=("values",),
                          self=lambda grad, self, result: grad * _standard_gamma_grad(self, result)),
    "poisson": _sampler("poisson", "PoissonBackward0"),  # (zero gradient, as PyTorch)
    "_standard_gamma_grad": Op("_standard_gamma_grad", "StandardGammaGradBackward0", lambda a, x, values: values,
                               inputs=("self", "output"), args=("values",),
                               self=_no_standard_gamma_grad_grad, output=_no_standard_gamma_grad_grad),
}


class _AsStridedOp(Op):
    """A view replayed on its base after an in-place change (PyTorch's AsStridedBackward0)."""


def _as_strided_backward(grad, size, stride, storage_offset, _self_geometry):
    """Scatter-add the view's gradient into the base's positions (found by memory offset).

    View elements at addresses the input does not cover (``x[1:3].as_strided(...)`` may reach past
    it) give it no gradient, as in PyTorch.
    """
    if grad.requires_grad or (not _untracked() and grad._fw_grad is not None) or _meta.METAS and _meta.is_meta(grad):
        # (create_graph: PyTorch's steps as tensor ops, so the graph has its nodes; a dual gradient: so its
        # tangent goes the same way, as in a jvp over a backward pass; a meta gradient: no values to scatter)
        return _as_strided_backward_graph(grad, size, stride, storage_offset, _self_geometry)
    sizes, strides, offset = _self_geometry
    if 0 in tuple(size):  # (PyTorch's as_strided_backward: an empty view gives fresh zeros, not a storage view)
        return Tensor._make(np.zeros(tuple(sizes), grad._data.dtype))
    base_offsets = _element_offsets(sizes, strides, offset)
    view_offsets = _element_offsets(size, stride, offset if storage_offset is None else storage_offset)
    order = np.argsort(base_offsets, kind="stable")
    found = np.minimum(np.searchsorted(base_offsets, view_offsets, sorter=order), max(len(order) - 1, 0))
    pos = order[found] if len(order) else np.zeros(0, np.int64)
    if len(order):
        pos = np.where(base_offsets[pos] == view_offsets, pos, -1)  # -1: outside the input
    result = Tensor._make(_scatter_add_flat(grad._data, tuple(sizes), pos))
    if len(np.unique(base_offsets)) < len(base_offsets):
        return result
    return _as_strided_storage_view(result, _self_geometry, size, stride, storage_offset)


def _creation():
    """The ``_creation`` module (zeros, ones, arange), imported on first use as ``_ops``."""
    from . import _creation as creation
    return creation


def _maybe_overlapping(sizes, strides) -> bool:
    """PyTorch's _maybe_overlapping_memory: in increasing stride order, a stride not beyond the span of the dims
    before it means two indices may share an address."""
    span = 0
    for i in sorted(range(len(sizes)), key=lambda i: strides[i]):
        if strides[i] <= span:
            return True
        span += strides[i] * (sizes[i] - 1)
    return False


def _as_strided_backward_graph(grad, size, stride, storage_offset, geometry):
    """PyTorch's as_strided_backward, step by step in differentiable tensor ops (for create_graph).

    The view's size-1 dims are squeezed and its stride-0 dims summed; the gradient is written into zeros covering
    both geometries (``copy_`` through an as_strided view: CopySlices; ``index_add_`` where the view's elements
    overlap), divided by how often the input sees each address (overlapping inputs), and returned as an as_strided
    view of that storage with the input's geometry (AsStridedBackward0).
    """
    ops = _ops()
    sizes, strides, offset = geometry
    out_offset = offset if storage_offset is None else storage_offset
    out_sizes, out_strides = [], []
    for i in reversed(range(grad.dim())):
        if size[i] == 0:
            return _zeros_on(grad, tuple(sizes))
        if size[i] == 1:
            grad = grad.squeeze(i)
        elif stride[i] == 0:
            grad = grad.sum(i)
        else:
            out_sizes.insert(0, size[i])
            out_strides.insert(0, stride[i])
    inp_sizes, inp_strides = [], []
    for n, st in zip(reversed(sizes), reversed(strides)):
        if n == 0:
            return _zeros_on(grad, tuple(sizes))
        if n != 1:
            inp_sizes.insert(0, n)
            inp_strides.insert(0, st)
    out_overlap = _maybe_overlapping(out_sizes, out_strides)
    inp_overlap = _maybe_overlapping(inp_sizes, inp_strides)
    shared = min(offset, out_offset)
    inp_at, out_at = offset - shared, out_offset - shared
    base_size = max(_min_storage_size(inp_sizes, inp_strides, inp_at),
                    _min_storage_size(out_sizes, out_strides, out_at))
    storage = grad.new_zeros(base_size)
    if inp_overlap or out_overlap:
        flat = _creation().arange(base_size)
    if out_overlap:
        storage.index_add_(0, flat.as_strided(out_sizes, out_strides, out_at).reshape(-1), grad.reshape(-1))
    else:
        storage.as_strided(out_sizes, out_strides, out_at).copy_(grad)
    if inp_overlap:  # (NaN where the input sees no address: PyTorch's too)
        count = ops.zeros_like(storage, memory_format=ops._layout.contiguous_format)
        where = flat.as_strided(inp_sizes, inp_strides, inp_at).reshape(-1)
        count.index_add_(0, where, _creation().ones(1, dtype=grad.dtype).expand_as(where))
        storage.div_(count)
    return storage.as_strided(tuple(sizes), tuple(strides), inp_at)


def _min_storage_size(sizes, strides, offset) -> int:
    """Elements a storage needs for a strided tensor (PyTorch's _min_storage_size)."""
    if 0 in tuple(sizes):
        return offset
    return offset + 1 + int(np.dot(np.subtract(sizes, 1), strides)) if len(sizes) else offset + 1


def _as_strided_storage_view(result, geometry, size, stride, storage_offset):
    """``result`` as PyTorch's as_strided_backward returns it: a view (input geometry) of a fresh storage tensor.

    PyTorch copies the gradient into zeros covering both geometries (so the view's _version is 1) and views the
    input's sizes and strides out of it: the gradient is a view, laid out as the input. (Only without a graph and
    for an input whose elements do not overlap; else the flat scatter's result, as before.)
    """
    sizes, strides, offset = geometry
    out_offset = offset if storage_offset is None else storage_offset
    shared = min(offset, out_offset)
    base_size = max(_min_storage_size(sizes, strides, offset - shared),
                    _min_storage_size(size, stride, out_offset - shared))
    storage = Tensor._make(np.zeros(base_size, result._data.dtype))
    storage._version_counter[0] += 1   # (the copy_ of the gradient into it)
    view = storage.as_strided(tuple(sizes), tuple(strides), offset - shared)
    view._data[...] = result._data
    return view


def _scatter_add_flat(g, input_sizes, positions):
    """The base's gradient from the view's (arrays): each entry added at its flat position (-1: none)."""
    out = np.zeros(int(np.prod(input_sizes)), dtype=g.dtype)
    inside = positions >= 0
    np.add.at(out, positions[inside], g.reshape(-1)[inside])
    return out.reshape(input_sizes)


def _element_offsets(shape, stride, offset):
    idx = np.full(tuple(shape), offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, stride)):
        r = np.arange(n, dtype=np.int64) * s
        idx = idx + r.reshape((n,) + (1,) * (len(shape) - d - 1))
    return idx.ravel()


# (``_self_geometry``: the base's sizes, strides and offset, saved but not shown, as in PyTorch)
as_strided = Op("as_strided", "AsStridedBackward0",
                lambda a, size, stride, storage_offset, _self_geometry, view_data: view_data,
                args=("size", "stride", "storage_offset", "_self_geometry", "view_data"),
                self=lambda grad, size, stride, storage_offset, _self_geometry:
                    _as_strided_backward(grad, size, stride, storage_offset, _self_geometry))


def _storage(array: np.ndarray):
    """``array``'s storage as a flat array of its dtype, and where ``array`` starts in it (in elements).

    The storage is the memory of the array that owns ``array``'s data (PyTorch's ``untyped_storage()``).
    """
    owner = array
    while True:  # (np.lib.stride_tricks.as_strided puts a holder object between a view and its base)
        base = owner.base
        base = base if isinstance(base, np.ndarray) else getattr(base, "base", None)
        if not isinstance(base, np.ndarray):
            break
        owner = base
    itemsize = array.dtype.itemsize
    if not (owner.flags.c_contiguous or owner.flags.f_contiguous) and owner.ndim > 1:
        # an owner laid out densely in another dim order (``(x.permute(1, 2, 0) * 2)`` keeps x's permuted
        # layout): its memory is still one block; read it in memory order (dims by decreasing stride)
        order = sorted(range(owner.ndim), key=lambda d: -owner.strides[d])
        if owner.transpose(order).flags.c_contiguous:
            owner = owner.transpose(order)
    if not (owner.flags.c_contiguous or owner.flags.f_contiguous) or owner.nbytes % itemsize:
        return np.ascontiguousarray(array).reshape(-1), 0  # (no owner to share: a copy, a new storage)
    flat = owner.ravel(order="K").view(np.uint8).view(array.dtype)  # (a view: owner is contiguous)
    start = (array.__array_interface__["data"][0] - flat.__array_interface__["data"][0]) // itemsize
    return flat, min(max(start, 0), flat.size)


def _strided(a, size, stride, storage_offset, _self_geometry=None):
    """``a``'s storage seen with sizes ``size`` and strides ``stride`` (in elements) from ``storage_offset``."""
    flat, start = _storage(a)
    first = start if storage_offset is None else storage_offset
    return np.lib.stride_tricks.as_strided(flat[first:], tuple(size), tuple(st * a.itemsize for st in stride))


# x.as_strided(size, stride, offset) and x.as_strided_(...): views of x's memory; each view element's
# gradient goes to the input element at its address (``_self_geometry``: x's sizes, strides, offset)
strided_view = Op("as_strided", "AsStridedBackward0", _strided,
                  args=("size", "stride", "storage_offset", "_self_geometry"), view=True, jvp="linear",
                  self=lambda grad, size, stride, storage_offset, _self_geometry:
                      _as_strided_backward(grad, size, stride, storage_offset, _self_geometry))
as_strided_ = Op("as_strided_", "AsStridedBackward1", _strided,
                 args=("size", "stride", "storage_offset", "_self_geometry"), view=True, jvp="linear",
                 self=lambda grad, size, stride, storage_offset, _self_geometry:
                     _as_strided_backward(grad, size, stride, storage_offset, _self_geometry))


def as_strided_view(base, view):
    """grad_fn for ``view`` read through ``base``'s current history (after an in-place change)."""
    from .autograd import grad_mode
    geometry = (base._data.shape, base.stride(), base.storage_offset())
    with grad_mode.enable_grad():
        out = as_strided(base, size=tuple(view._data.shape), stride=view.stride(),
                         storage_offset=view.storage_offset(), _self_geometry=geometry, view_data=view._data)
    return out._grad_fn


# =============================================================================================
# Advanced indexing (copies, not views)
# =============================================================================================

class SavedIndices(tuple):
    """index / index_put_'s indices (NumPy arrays, which share the index tensors' memory), with the index tensors
    they were read from saved as PyTorch saves them (``sources``, unpacked with the node's other saved tensors): a
    backward after one of those tensors changed in place fails instead of reading the changed values."""


def saved_indices(indices: tuple, tensors) -> tuple:
    """``indices`` with ``tensors`` (one per array, in order) saved as PyTorch saves them (when recording: an
    inference tensor is not saved, None)."""
    from .autograd.graph import SavedTensor
    kept = SavedIndices(indices)
    kept.sources = [None if t._is_inference else SavedTensor(t) for t in tensors]
    kept.uint8 = any(t.dtype is _dtypes.uint8 for t in tensors)   # (a byte mask: see _warn_uint8)
    return kept


def _warn_uint8(indices) -> None:
    """PyTorch's deprecation warning for a byte mask, given again by each backward formula that indexes with it."""
    if getattr(indices, "uint8", False):
        from ._indexing import _UINT8_INDEX_WARNING
        from .autograd.graph import hold_engine_warning
        if not hold_engine_warning(_UINT8_INDEX_WARNING):   # (in backward(): given when it returns)
            warnings.warn(_UINT8_INDEX_WARNING, UserWarning, stacklevel=2)


def _index_put_self_backward(grad, indices, accumulate):
    """Overwritten positions get no gradient (unless accumulating: then all of grad)."""
    if accumulate:
        return grad
    _warn_uint8(indices)
    return _masked_zero(grad, indices)


def _index_put_values_backward(grad, indices):
    """grad[indices]."""
    _warn_uint8(indices)
    return index(grad, indices=indices)


def _index_backward(grad, self_sym_sizes, indices):
    """Scatter-add grad into zeros at ``indices`` (repeated indices accumulate): PyTorch's
    ``_index_put_impl_(zeros, indices, grad, accumulate=True)``, in place (IndexPutImplBackward0, version 1)."""
    _warn_uint8(indices)
    z = _zeros_on(grad, tuple(self_sym_sizes))
    return index_put_impl(z, grad, indices=indices, accumulate=True, out=z)


def _np_index(indices: tuple, shape: tuple) -> tuple:
    """PyTorch's index list as a NumPy index into ``shape``: None takes a whole dim, a k-dim bool mask is k int
    arrays."""
    out, sizes, whole, d = [], {}, [], 0   # (sizes: each int array's position in out, and its dim's size)
    for i in indices:
        if i is None:
            out.append(_slice_all)
            whole.append(shape[d])
            d += 1
        elif i.dtype == np.bool_:  # (a 0-d mask stays a mask: NumPy, as PyTorch, adds a dim of size 1 or 0)
            out.extend(np.nonzero(i) if i.ndim else (i,))
            d += i.ndim
        else:
            sizes[len(out)] = shape[d]
            out.append(i)
            d += 1
    if 0 in whole or 0 in shape[d:]:
        # An empty result reads no index, so PyTorch checks none (_check_bounds); NumPy checks them all: clip them
        out = [np.clip(i, -sizes[k], sizes[k] - 1) if sizes.get(k) else i for k, i in enumerate(out)]
    return tuple(out)


def _index_put_zeros_forward(g, input_sizes, indices):
    out = np.zeros(input_sizes, dtype=g.dtype)
    np.add.at(out, _np_index(indices, out.shape), g)
    return out


index = Op("index", "IndexBackward0", lambda a, indices: _strides.index_result(a, _np_index(indices, a.shape)),
           args=("indices",),
           jvp="linear",
           self=lambda grad, self_sym_sizes, indices: _index_backward(grad, self_sym_sizes, indices))
index_put_zeros = Op("_index_put_impl_", "IndexPutBackward0", _index_put_zeros_forward,
                     jvp="linear",
                     inputs=("values",), args=("input_sizes", "indices"),
                     values=lambda grad, indices: index(grad, indices=indices))


def _index_put_forward(a, values, indices, accumulate):
    if accumulate and getattr(indices, "into_shared_memory", False):
        # index_put_(accumulate=True) into an expanded tensor: PyTorch's CPU kernel adds value after value into
        # self's memory, so every position sharing an element adds to it (ones(3).expand(2, 3) indexed by
        # rows [0, 1, 0] gets 3 additions). An array aliased the same way takes them (np.add.at is unbuffered).
        if isinstance(values, np.ndarray) and np.shares_memory(a, values):
            return _serial_accumulate(a, values, indices)
        out = _shared_memory_copy(a)
        np.add.at(out, _np_index(indices, out.shape), values)
        return np.array(out)
    out = _strides.clone(a)  # (laid out as a: PyTorch's clone, then index_put_)
    if accumulate:
        np.add.at(out, _np_index(indices, out.shape), values)
    else:
        out[_np_index(indices, out.shape)] = values
    return out


def _serial_accumulate(a, values, indices):
    """index_put_(accumulate=True) into an expanded tensor whose values share its memory (x.expand(...) given x
    itself as values): PyTorch's serial CPU kernel walks the indexed positions in C order, reading values' element
    k straight from memory and adding it to the k-th position, so a value written earlier is read as written
    (ones(()).expand(3, 4) indexed by rows [0, 1] with itself as values doubles 8 times: 256). Memory is modelled
    as a dict from each element's byte address to its current value."""
    def addresses(x):   # the byte address of every element, C order
        index = np.indices(x.shape).reshape(x.ndim, x.size)   # (x.size, not -1: a 0-dim x has one element)
        return x.__array_interface__["data"][0] + (np.array(x.strides).reshape(-1, 1) * index).sum(0)
    targets = np.arange(a.size).reshape(a.shape)[_np_index(indices, a.shape)]   # (the flat positions written, in order)
    vals = np.broadcast_to(values, targets.shape)
    addr_a, addr_v = addresses(a).tolist(), addresses(vals).tolist()
    memory = dict(zip(addr_v, vals.reshape(-1).tolist()))
    memory.update(zip(addr_a, a.reshape(-1).tolist()))
    dtype = a.dtype.type
    for k, t in enumerate(targets.reshape(-1).tolist()):
        memory[addr_a[t]] = dtype(memory[addr_a[t]]) + dtype(memory[addr_v[k]])   # (a's dtype: float32 sums)
    return np.array([memory[x] for x in addr_a], dtype=a.dtype).reshape(a.shape)


def _shared_memory_copy(a):
    """A copy of ``a`` whose expanded dims (stride 0) share memory again, as they do in ``a``."""
    core = np.array(a[tuple(_builtin_slice(0, 1) if st == 0 and n > 1 else _slice_all
                            for st, n in zip(a.strides, a.shape))])
    strides = tuple(0 if st == 0 else cst for st, cst in zip(a.strides, core.strides))
    return np.lib.stride_tricks.as_strided(core, a.shape, strides)


def index_put_dtype_error(dest, source) -> RuntimeError:
    """index_put_'s refusal of values of another dtype than the destination's (``dest``, ``source``: dtypes)."""
    from ._ops import _legacy
    return RuntimeError(f"Index put requires the source and destination dtypes match, got {_legacy(dest)} for the "
                        f"destination and {_legacy(source)} for the source.")


def _index_put_jvp(op, self_t, values_t, indices, accumulate):
    """index_put's forward formula, ``self_t.index_put(indices, values_t, accumulate)``: the kernel refuses tangents
    of two dtypes (a float64 tangent of float32 values under torch.func.jvp, func 41773), except on masked_fill_'s
    path (one mask, one value, no accumulation), which converts."""
    if values_t.dtype is not self_t.dtype and (accumulate or values_t.numel() != 1 or len(indices) != 1
                                               or indices[0].dtype != np.bool_):
        raise index_put_dtype_error(self_t.dtype, values_t.dtype)
    return op(self_t, values_t, indices=indices, accumulate=accumulate)


index_put = Op("index_put_", "IndexPutBackward0", _index_put_forward, inputs=("self", "values"),
               jvp=lambda self_t, values_t, indices, accumulate:
                   _index_put_jvp(index_put, self_t, values_t, indices, accumulate),
               args=("indices", "accumulate"),
               # overwritten positions get no gradient (unless accumulating); values get grad[indices]
               self=lambda grad, indices, accumulate: _index_put_self_backward(grad, indices, accumulate),
               values=_index_put_values_backward)


# PyTorch's internal _index_put_impl_ (what indexing's backward calls): index_put_ under another node name
index_put_impl = Op("_index_put_impl_", "IndexPutImplBackward0", _index_put_forward, inputs=("self", "values"),
                    jvp=lambda self_t, values_t, indices, accumulate:
                        _index_put_jvp(index_put_impl, self_t, values_t, indices, accumulate),
                    args=("indices", "accumulate"),
                    self=lambda grad, indices, accumulate: _index_put_self_backward(grad, indices, accumulate),
                    values=lambda grad, indices: _index_put_values_backward(grad, indices))


def _masked_zero(grad, indices):
    return index_put(grad, _ops().zeros((), dtype=grad.dtype), indices=indices, accumulate=False)


# =============================================================================================
# More ops from the tensor-surface audit (hyperbolic and inverse trig, erf, triangular parts,
# trace, sorting and selection). The user-facing functions are in ``_ops_math.py``, ``_ops_matrices.py``
# and ``_ops_sorting.py``.
# =============================================================================================

_erf = np.vectorize(math.erf, otypes=[np.float64])
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)

sinh = Op("sinh", "SinhBackward0", _float_math.libm_two_paths("sinh", np.sinh, vector32=_float_math.sleef_sinhf,
                                                              vector64=_float_math.sleef_sinh64),
          jvp="element_wise",
          self=lambda grad, self: grad * self.cosh().conj())                # d sinh = cosh
cosh = Op("cosh", "CoshBackward0", _float_math.libm_two_paths("cosh", np.cosh, vector32=_float_math.sleef_coshf,
                                                              vector64=_float_math.sleef_cosh64),
          jvp="element_wise",
          self=lambda grad, self: grad * self.sinh().conj())                # d cosh = sinh
asin = Op("asin", "AsinBackward0", _vml.unary("asin", _via_float64(np.arcsin)),
          jvp="element_wise",
          self=lambda grad, self: grad * add_scalar(self.neg() * self, other=1).rsqrt().conj())  # d asin = 1/√(1-x²)
acos = Op("acos", "AcosBackward0",
          _complex_bits.unary(_complex_bits.acos, _vml.unary("acos", _via_float64(np.arccos))),
          jvp="element_wise",
          self=lambda grad, self: grad * add_scalar(self.neg() * self, other=1).rsqrt().conj().neg())  # -1/√(1-x²)
atan = Op("atan", "AtanBackward0", _vml.unary("atan", _via_float64(np.arctan)),
          jvp="element_wise",
          self=lambda grad, self: grad / add_scalar(self * self, other=1).conj())  # d atan = 1/(1+x²)
asinh = Op("asinh", "AsinhBackward0", _float_math.libm_op("asinh", np.arcsinh),
           jvp="element_wise",
           self=lambda grad, self: grad * add_scalar(self.pow(2), other=1).rsqrt().conj())  # d asinh = 1/√(x²+1)
acosh = Op("acosh", "AcoshBackward0", _float_math.libm_op("acosh", np.arccosh),
           jvp="element_wise",
           # d acosh = 1/√(x²-1), as PyTorch: one rsqrt for real x, √(x+1)·√(x-1) for complex (its branch cuts)
           self=lambda grad, self: _acosh_complex_backward(grad, self)
           if self.is_complex() else grad * sub_scalar(self * self, other=1).rsqrt())


def _acosh_complex_backward(grad, self):
    """PyTorch's ``grad * ((self + 1).rsqrt() * (self - 1).rsqrt()).conj()``, the right operand made first."""
    # (sub's own kernel: a zero imaginary part stays +0 in self - 1, which sub_scalar's NumPy subtraction makes -0)
    right = _ops().sub(self, 1).rsqrt()
    return grad * (add_scalar(self, other=1).rsqrt() * right).conj()
atanh = Op("atanh", "AtanhBackward0", _float_math.libm_two_paths("atanh", np.arctanh, vector32=_float_math.sleef_atanhf,
                                                                 vector64=_float_math.sleef_atanh64),
           jvp="element_wise",
           # d atanh = 1/(1-x²), as PyTorch's C++ ``grad * 1 / (1 - self.pow(2))`` (1 - t: a filled tensor minus t)
           self=lambda grad, self: mul_scalar(grad, other=1) / _one_minus(self.pow(2)).conj())
_erf_numpy = _float_math.for_float32(_via_float64(lambda a: _erf(a)), lambda a: _erf(a), halves=_float_math.vec_erf)
erf = Op("erf", "ErfBackward0", _vml.unary("erf", _erf_numpy),
         jvp="element_wise",
         self=lambda grad, self: mul_scalar((-self.pow(2)).exp(), other=_TWO_OVER_SQRT_PI) * grad)  # 2/√π e^(-x²)
erfc = Op("erfc", "ErfcBackward0", _vml.unary("erfc", _via_float64(lambda a: _erfc(a))),
          jvp="element_wise",
          self=lambda grad, self: mul_scalar((-self.pow(2)).exp(), other=-_TWO_OVER_SQRT_PI) * grad)  # -d erf
def _atan2_backward(grad, self, other, grad_input_mask):
    """(grad·x, -grad·y) times one shared 1/(x² + y²) (PyTorch's atan2_backward: one node for both)."""
    recip = _atan2_recip(self, other)
    return (grad * other * recip if grad_input_mask[0] else None,
            grad * -self * recip if grad_input_mask[1] else None)


# atan2(y, x) = angle of (x, y):  d/dy = x / (x² + y²),  d/dx = -y / (x² + y²)
atan2 = Op("atan2", "Atan2Backward0",
           _float_math.libm_two_paths("atan2", np.arctan2, 2, vector32=_float_math.sleef_atan2f,
                                      vector64=_float_math.sleef_atan2_64),
           inputs=("self", "other"),
           jvp=lambda self_t, other_t, self, other:                      # PyTorch's own form
               (self.neg() * other_t + other * self_t) / (self.pow(2) + other.pow(2)),
           self=joint(_atan2_backward), other=joint(_atan2_backward))


def _atan2_recip(self, other):
    """1/(x² + y²), 0 where x² + y² is 0 (at the origin the gradient is 0, as PyTorch's; a subnormal x² + y² keeps
    its infinite reciprocal)."""
    other_sq = other * other   # (C++ makes the right operand of self * self + other * other first)
    denom = self * self + other_sq
    return denom.reciprocal().masked_fill(denom == 0, 0)

# (tril/triu: C order, as PyTorch's)
tril = Op("tril", "TrilBackward0", lambda a, diagonal: _strides.contiguous(np.tril(a, diagonal)),
          args=("diagonal",),
          jvp="linear",
          self=lambda grad, diagonal: grad.tril(diagonal))                   # keeps the same entries
triu = Op("triu", "TriuBackward0", lambda a, diagonal: _strides.contiguous(np.triu(a, diagonal)),
          args=("diagonal",),
          jvp="linear",
          self=lambda grad, diagonal: grad.triu(diagonal))
def _trace(a: np.ndarray) -> np.ndarray:
    """The diagonal's sum as PyTorch's trace_cpu: a running sum in acc_type (double, complex<double> for the float
    types), rounded once to the dtype."""
    if a.dtype not in (np.float32, np.float64, np.complex64, np.complex128):
        return np.trace(a).astype(a.dtype, copy=False)
    acc = np.complex128 if a.dtype.kind == "c" else np.float64
    terms = np.concatenate([np.zeros(1, acc), np.diagonal(a).astype(acc)])
    return np.add.accumulate(terms)[-1].astype(a.dtype)


trace = Op("trace", "TraceBackward0", _trace,
           jvp="linear",
           # d tr(A) / dA = I (of A's shape): grad on the diagonal
           self=lambda grad, self_sym_sizes: _trace_backward(grad, tuple(self_sym_sizes)))


def _trace_backward(grad, sizes):
    """PyTorch's trace_backward: grad filled in place into a flat zeros at the diagonal's positions, viewed back.
    is_grads_batched's legacy vmap has a rule of its own (trace_backward_batching_rule): grad copied into the
    diagonal of zeros of the input's shape, so the batch is fresh memory, no view."""
    n, m = sizes
    if _vmap_batched.DEPTH[0] and _vmap_batched._legacy(grad):
        z = _zeros_on(grad, sizes)
        z.diagonal().copy_(grad)
        return z
    z = _zeros_on(grad, n * m)
    index = _meta.follow(Tensor._make(np.arange(min(n, m), dtype=np.int64) * (m + 1)), grad)   # (diagonal's places)
    return index_fill_tensor(z, index, grad, dim=0, out=z).view(sizes)
# diag of a matrix: a copy of its diagonal (PyTorch names the node after diagonal_copy)
diagonal_copy = Op("diagonal_copy", "DiagonalBackward0_copy",
                   lambda a, offset, dim1, dim2: np.diagonal(a, offset, dim1, dim2).copy(),
                   jvp="linear",
                   args=("offset", "dim1", "dim2"),
                   self=lambda grad, self_sym_sizes, offset, dim1, dim2:
                       diagonal_backward(grad, input_sizes=tuple(self_sym_sizes), offset=offset, dim1=dim1,
                                         dim2=dim2))


def _diag_embed(a, offset, dim1, dim2):
    # built with the matrix dims last, then moved to (dim1, dim2): the other dims keep input's batch order
    n = a.shape[-1] + abs(offset)
    out = np.zeros(a.shape[:-1] + (n, n), dtype=a.dtype)
    _diagonal(out, offset, -2, -1)[...] = a
    return np.ascontiguousarray(np.moveaxis(out, (-2, -1), (dim1, dim2)))


# diag of a vector: the vector on the diagonal of a square matrix of zeros
diag_embed = Op("diag_embed", "DiagEmbedBackward0", _diag_embed, args=("offset", "dim1", "dim2"),
                jvp="linear",
                self=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2))


def _sort_forward(a, dim, descending):
    # A stable sort, NaN counting as the largest value (NumPy's order too). Descending: the ascending sort
    # of the reversed row, reversed, keeps equal values (NaNs too) in their original order.
    if not descending:
        idx = np.argsort(a, axis=dim, kind="stable")
    else:
        n = a.shape[dim]
        idx = (n - 1) - np.flip(np.argsort(np.flip(a, axis=dim), axis=dim, kind="stable"), axis=dim)
    return np.take_along_axis(a, idx, axis=dim), idx.astype(np.int64)


def _sort_like_pytorch(a, dim, descending, stable=False):
    """PyTorch's CPU sort: std::stable_sort, or (stable False or None) std::sort, whose order of equal values
    (NaNs too) in a row of more than 16 is not the stable one: rows with ties replay libstdc++'s introsort.
    (A 1-D integer tensor of 32768 or more, sorted ascending, takes a radix sort: stable again.)"""
    values, idx = _sort_forward(a, dim, descending)
    n = a.shape[dim]
    radix = a.ndim == 1 and not descending and a.dtype.kind in "iu" and n >= 32768
    if stable or n <= 16 or radix or a.strides[dim] == 0:  # (an expanded dim: PyTorch leaves it as it is)
        return values, idx
    rows = np.moveaxis(values, dim, -1).reshape(-1, n)
    nan = rows != rows
    tied = ((rows[:, 1:] == rows[:, :-1]) | (nan[:, 1:] & nan[:, :-1])).any(axis=1)
    if not tied.any():
        return values, idx
    moved = np.moveaxis(idx, dim, -1).copy()
    flat_idx = moved.reshape(-1, n)
    inputs = np.moveaxis(a, dim, -1).reshape(-1, n)
    for r in np.flatnonzero(tied):
        flat_idx[r] = _sort_row_like_pytorch(inputs[r], descending)
    idx = np.moveaxis(flat_idx.reshape(moved.shape), -1, dim).copy()  # (C order, as PyTorch's)
    return np.take_along_axis(a, idx, axis=dim), idx


def _sort_row_like_pytorch(row, descending):
    from . import _stl
    if descending:
        def less(x, y):  # PyTorch's KeyValueCompDesc: NaN first
            return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    else:
        def less(x, y):  # KeyValueCompAsc: NaN last
            return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]
    queue = [(v, i) for i, v in enumerate(row.tolist())]
    _stl.sort(queue, len(queue), less)
    return [i for _, i in queue]


def _topk_forward(a, k, dim, largest, sorted):
    values, idx = _sort_forward(a, dim, descending=largest)
    idx = np.take(idx, np.arange(k), axis=dim)
    # Which of several equal values topk returns (and its order when not sorted) is decided by PyTorch's
    # calls to libstdc++'s partial_sort / nth_element + sort: rows with ties or NaNs replay them.
    rows = np.moveaxis(values, dim, -1).reshape(-1, a.shape[dim]) if a.shape[dim] else None
    if rows is not None and k and (not sorted or (rows[:, 1:] == rows[:, :-1]).any() or np.isnan(rows).any()):
        moved = np.moveaxis(idx, dim, -1).copy()
        flat_idx = moved.reshape(-1, k)
        for r, row in enumerate(np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])):
            flat_idx[r] = _topk_row_like_pytorch(row, k, largest, sorted)
        idx = np.moveaxis(flat_idx.reshape(moved.shape), -1, dim).copy()  # (C order, as PyTorch's)
    return np.take_along_axis(a, idx, axis=dim), idx


def _topk_row_like_pytorch(row, k, largest, sorted):
    from . import _stl
    if largest:
        def comp(x, y):  # NaN counts as the largest value
            return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    else:
        def comp(x, y):
            return (x[0] == x[0] and y[0] != y[0]) or x[0] < y[0]
    queue = [(v, i) for i, v in enumerate(row.tolist())]
    if k * 64 <= len(queue):
        _stl.partial_sort(queue, k, comp)
    else:
        _stl.nth_element(queue, k - 1, comp)
        if sorted:
            _stl.sort(queue, k - 1, comp)
    return [i for _, i in queue[:k]]


def _scatter_selected(grad, dim, indices, self_sym_sizes):
    """sort/topk/kthvalue: each output element's gradient goes back to the position it came from."""
    return value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim=True)


def _selected_jvp(self_t, dim, indices, keepdim):
    """Forward derivative of sort/topk/median(dim) & co: each output element's tangent is its source's."""
    if self_t.dim() == 0:
        return self_t
    from ._ops import _check_gather_shapes, _index_bounds
    index = indices if keepdim else indices.unsqueeze(dim)
    # (PyTorch's formula is a gather, with its checks: a tangent that an in-place t_() on an output sharing it
    # reshaped no longer fits the indices)
    _check_gather_shapes(self_t, index, dim % self_t.dim(), "gather")
    _index_bounds(self_t, index, dim % self_t.dim())
    out = gather(self_t, index, dim=dim, sparse_grad=False)
    return out if keepdim else out.squeeze(dim)


sort = Op("sort", "SortBackward0", _rank0_ok(_strides.like_input(_sort_like_pytorch)), args=("dim", "descending"),
          jvp=lambda self_t, dim, indices: _selected_jvp(self_t, dim, indices, True),
          outputs=("values", "indices"), differentiable_outputs=1,
          self=lambda grad, dim, indices, self_sym_sizes: _scatter_selected(grad, dim, indices, self_sym_sizes))
# sort(x, stable=...): PyTorch's other overload, the same derivative
sort_stable = Op("sort", "SortBackward1", _rank0_ok(_strides.like_input(_sort_like_pytorch)),
                 args=("stable", "dim", "descending"),
                 jvp=lambda self_t, dim, indices: _selected_jvp(self_t, dim, indices, True),
                 outputs=("values", "indices"), differentiable_outputs=1,
                 self=lambda grad, dim, indices, self_sym_sizes: _scatter_selected(grad, dim, indices, self_sym_sizes))
topk = Op("topk", "TopkBackward0", _rank0_ok(_topk_forward), args=("k", "dim", "largest", "sorted"),
          jvp=lambda self_t, dim, indices: _selected_jvp(self_t, dim, indices, True),
          outputs=("values", "indices"), differentiable_outputs=1,
          self=lambda grad, dim, indices, self_sym_sizes: _scatter_selected(grad, dim, indices, self_sym_sizes))


def _kthvalue_forward(a, k, dim, keepdim):
    values, idx = _sort_forward(a, dim, descending=False)
    idx = np.take(idx, [k - 1], axis=dim)
    # Which of several equal values (or NaNs) is the k-th is decided by PyTorch's quickselect: rows with
    # ties or NaNs replay it.
    rows = np.moveaxis(values, dim, -1).reshape(-1, a.shape[dim])
    replay = (rows[:, 1:] == rows[:, :-1]).any(axis=1) | (rows != rows).any(axis=1)
    if replay.any():
        moved = np.moveaxis(idx, dim, -1).copy()
        flat_idx = moved.reshape(-1)
        inputs = np.moveaxis(a, dim, -1).reshape(-1, a.shape[dim])
        for r in np.flatnonzero(replay):
            flat_idx[r] = _kthvalue_row_like_pytorch(inputs[r], k)
        idx = np.moveaxis(flat_idx.reshape(moved.shape), -1, dim).copy()  # (C order, as PyTorch's)
    values = np.take_along_axis(a, idx, axis=dim)
    return (values, idx) if keepdim else (np.squeeze(values, dim), np.squeeze(idx, dim))


def _kthvalue_row_like_pytorch(row, k):
    from . import _stl

    def greater(x, y):  # NaN counts as the largest value
        return (x[0] != x[0] and y[0] == y[0]) or x[0] > y[0]
    queue = [(v, i) for i, v in enumerate(row.tolist())]
    _stl.quick_select(queue, k - 1, greater)
    return queue[k - 1][1]


kthvalue = Op("kthvalue", "KthvalueBackward0", _rank0_ok(_kthvalue_forward), args=("k", "dim", "keepdim"),
              jvp=lambda self_t, dim, indices, keepdim: _selected_jvp(self_t, dim, indices, keepdim),
              outputs=("values", "indices"), differentiable_outputs=1,
              self=lambda grad, dim, indices, keepdim, self_sym_sizes:
                  value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))
# masked_select: the elements where mask is True, as a 1-D tensor; the gradient goes back to them
masked_select = Op("masked_select", "MaskedSelectBackward0",
                   lambda a, mask: np.broadcast_to(a, np.broadcast_shapes(a.shape, mask.shape))[
                       np.broadcast_to(mask._data, np.broadcast_shapes(a.shape, mask.shape))],
                   args=("mask",), jvp="linear",
                   self=lambda grad, self, mask: _masked_select_backward(grad, self, mask))


def _masked_select_backward(grad, self, mask):
    """zeros.masked_scatter_(mask, grad), in place as PyTorch's (MaskedScatterBackward0, version 1; the zeros have
    the broadcast shape, the mask is saved as it is)."""
    shape = np.broadcast_shapes(tuple(self.shape), tuple(mask.shape))
    z = _ops().zeros(shape, dtype=grad.dtype)
    return masked_scatter(z, mask, grad, out=z)


# =============================================================================================
# Coverage pass: more elementwise, scans, order statistics, linear algebra (PyTorch's formulas)
# =============================================================================================

def _lgamma(a):
    # log|Γ(x)| elementwise (inf at the poles 0, -1, -2 ..., as PyTorch); float64 and float32 as PyTorch
    # rounds them (SLEEF's lgamma_u10 / lgammaf_u10 on every element); a half type through float32, rounded
    if a.dtype == np.float64:
        return _float_math.sleef_lgamma64(a)
    if a.dtype == np.float32 or a.dtype == np.float16 or a.dtype.name == "bfloat16":
        return _float_math.sleef_lgammaf(a.astype(np.float32, copy=False)).astype(a.dtype, copy=False)

    def one(x):
        try:
            return math.lgamma(x)
        except ValueError:
            return math.inf
    return np.vectorize(one, otypes=[np.float64])(a).astype(a.dtype, copy=False)


def _polygamma(n, a):
    """ψ⁽ⁿ⁾(x), the n-th derivative of digamma, step for step as PyTorch computes it (see ``_polygamma.py``)."""
    a = np.asarray(a)
    return _polygamma_kernels.polygamma(n, a.astype(np.float64) if a.dtype.kind in "biu" else a)


def cumprod_backward(grad, self, dim, result):
    """d cumprod, as PyTorch's cumprod_backward: without zeros Σ_{j>=i} g_j·y_j / x_i (a reversed cumsum of
    w = ȳ·g, over x̄); with zeros, its O(n) masked formula when no graph is recorded, else (create_graph) the
    O(n²) loop whose graph is the true second derivative: column k gets Σ_{j>=k} g_j·Π_{i<=j, i≠k} x̄_i, copied
    into a zeros tensor (CopySlices), as there."""
    if self.numel() <= 1 or self.shape[dim] == 1:  # (PyTorch passes grad through)
        return grad
    dim %= self.dim()  # (wrapped first, as PyTorch's: the CumsumBackward0 node saves it non-negative)
    ops = _ops()
    input_conj, output_conj = self.conj(), result.conj()
    w = output_conj * grad
    is_zero = self._data == 0
    # (inputs wrapped by torch.func, "subclass-like", always take the O(n²) form, its columns stacked)
    wrapped = _wrapped_by_live_level(self, grad, result)
    if not wrapped and not bool(is_zero.any()):
        return w.flip(dim).cumsum(dim).flip(dim).div(input_conj)
    n = self.shape[dim]
    # (meta: no values to find zeros in, the O(n²) form too, as PyTorch's)
    stacked = _meta.METAS and _meta.is_meta(self) or wrapped
    if not _STATE.enabled and not stacked:
        # [0, z1) (before the first zero): the reversed cumsum of w there, over x̄; at z1 (the first zero):
        # Π_{i<z1} ȳ · Σ_{z1<=j<z2} g_j·Π_{z1<i<=j} x̄_i; zero from there on
        zero = Tensor._make(is_zero)
        cumsum = zero.cumsum(dim)
        # (written with where(), as PyTorch's: its result takes w's dtype when cumprod(dtype=) promoted the output)
        grad_input = _creation().zeros(self.shape, dtype=grad.dtype)
        mask = cumsum == 0
        grad_input = ops.where(mask, w.masked_fill(~mask, 0.).flip(dim).cumsum(dim).flip(dim).div_(input_conj),
                               grad_input)
        mask = cumsum == 1
        first_zero_index = mask.max(dim, keepdim=True)[1]
        first_zero_mask = _creation().zeros_like(mask).scatter_(dim, first_zero_index, 1).logical_and_(mask)
        mask &= ~first_zero_mask
        before = ops.gather(output_conj, dim, (first_zero_index - 1).relu_()).masked_fill_(first_zero_index == 0, 1.)
        return ops.where(first_zero_mask,
                         input_conj.masked_fill(~mask, 1.).cumprod(dim).mul_(grad.masked_fill(cumsum != 1, 0.))
                         .sum(dim, keepdim=True).mul_(before), grad_input)
    grad_input = _zeros_on(grad, self.shape)
    ones = _meta.follow(_creation().ones(1, dtype=grad.dtype), grad).expand(*self.shape[:dim], 1, *self.shape[dim + 1:])
    parts = []
    # (x.slice(dim, k) as there, with no end: its SliceBackward0 saves end None)
    for k in range(n):
        if k == 0:
            omitted = ops.cat([ones, slice(input_conj, dim=dim, start=1, end=None, step=1).cumprod(dim)], dim)
        else:
            until_k = input_conj.narrow(dim, 0, k).prod(dim, keepdim=True)
            if k == n - 1:
                omitted = until_k
            else:
                from_k1 = slice(input_conj, dim=dim, start=k + 1, end=None, step=1).cumprod(dim)
                omitted = ops.cat([until_k, until_k.expand_as(from_k1) * from_k1], dim)
        part = (slice(grad, dim=dim, start=k, end=None, step=1) * omitted).sum(dim)
        if stacked:   # (PyTorch's form for tensor-subclass-like inputs, meta ones too: the columns stacked)
            parts.append(part)
        else:
            grad_input.select(dim, k).copy_(part)
    return ops.stack(parts, dim) if stacked else grad_input


def _mH(t):
    return t.transpose(-2, -1).conj()


def _cross(a, b, dim):
    """a × b along dim, in C order (PyTorch's result, whatever the inputs' layout).

    Real floats as PyTorch's compiled kernel: each component a_j·b_k - a_k·b_j with the first product fused
    (fma(a_j, b_k, -(a_k·b_j))), so x × x is the products' rounding error, not exactly 0. complex64: each
    complex product (pr + i·pi)(qr + i·qi) = (pr·qr - pi·qi) + i(pr·qi + pi·qr) with every real product rounded
    (c10::complex's formula; NumPy's complex64 multiply rounds otherwise), so x × x is exactly 0.
    """
    dt = np.result_type(a, b)
    if dt not in (np.float32, np.float64, np.complex64):
        return _strides.contiguous(np.cross(a, b, axis=dim).astype(dt, copy=False))
    shape = np.broadcast_shapes(a.shape, b.shape)
    x = np.moveaxis(np.broadcast_to(a.astype(dt, copy=False), shape), dim, 0)
    y = np.moveaxis(np.broadcast_to(b.astype(dt, copy=False), shape), dim, 0)
    if dt == np.complex64:
        def times(p, q):
            out = np.empty(p.shape, dt)
            out.real = p.real * q.real - p.imag * q.imag
            out.imag = p.real * q.imag + p.imag * q.real
            return out
        parts = [times(x[(i + 1) % 3], y[(i + 2) % 3]) - times(x[(i + 2) % 3], y[(i + 1) % 3]) for i in range(3)]
        return _strides.contiguous(np.moveaxis(np.stack(parts), 0, dim))
    parts = [fma(x[(i + 1) % 3], y[(i + 2) % 3], -(x[(i + 2) % 3] * y[(i + 1) % 3]), dt) for i in range(3)]
    return _strides.contiguous(np.moveaxis(np.stack(parts), 0, dim))


def _lu(a):
    """Partial-pivoting LU, LAPACK's layout: L (unit, below) and U packed in one matrix, 1-based pivots."""
    if _lapack.supports(a):  # (MKL's getrf: PyTorch's factorization, and fast)
        return _lapack.getrf(a)[:2]
    lu = np.array(a, dtype=np.result_type(a, np.float32), copy=True)
    n = lu.shape[-1]
    piv = np.zeros(lu.shape[:-1], dtype=np.int32)
    for k in range(n):
        p = np.argmax(np.abs(lu[..., k:, k]), axis=-1) + k
        piv[..., k] = p + 1
        rows = np.indices(p.shape)
        top, pivot_row = lu[..., k, :].copy(), lu[(*rows, p)].copy()
        lu[..., k, :], lu[(*rows, p)] = pivot_row, top
        d = lu[..., k, k]
        with np.errstate(divide="ignore", invalid="ignore"):
            lu[..., k + 1:, k] /= d[..., None]
        lu[..., k + 1:, k + 1:] -= lu[..., k + 1:, k:k + 1] * lu[..., k:k + 1, k + 1:]
    return lu, piv


def _det_forward(a):
    if _lapack.supports(a):  # (MKL's getrf, as PyTorch: its bits, and its LU of Aᵀ for a contiguous A)
        return _lapack.det(a)
    result = np.linalg.det(a).astype(a.dtype, copy=False) if a.shape[-1] else np.ones(a.shape[:-2], a.dtype)
    lu, piv = _lu(a)
    return np.asarray(result), lu, piv


def _like_self(a, out):
    """``out`` (shaped like ``a``) laid out as ``empty_like(a)``: PyTorch's fill and nan_to_num write into one."""
    return out if _strides.preserve_strides(a) is None else _strides.copy_into(_strides.empty_like(a, out.dtype), out)


def _nan_to_num(a, nan, posinf, neginf):
    # (PyTorch's writes into empty_like(self): self's strides, a size-1 dim's too, not TensorIterator's C order)
    # (bfloat16, which NumPy's nan_to_num leaves alone: via float32)
    out = (np.nan_to_num(a, nan=nan, posinf=posinf, neginf=neginf) if a.dtype.kind in "fc" else
           np.nan_to_num(a.astype(np.float32), nan=nan, posinf=posinf, neginf=neginf).astype(a.dtype))
    return _like_self(a, out)


nan_to_num = Op("nan_to_num", "NanToNumBackward0", _nan_to_num,
                args=("nan", "posinf", "neginf"), jvp="element_wise",
                self=lambda grad, self: grad * self.isfinite())                 # slope 1 where x is finite
lgamma = Op("lgamma", "LgammaBackward0", _lgamma, jvp="element_wise",
            self=lambda grad, self: grad * self.digamma())                   # d log Γ(x) = ψ(x)
digamma = Op("digamma", "DigammaBackward0", lambda a: _polygamma(0, a), jvp="element_wise",
             self=lambda grad, self: grad * polygamma(self, n=1))             # d ψ(x) = ψ'(x)
polygamma = Op("polygamma", "PolygammaBackward0", lambda a, n: _polygamma(n, a), args=("n",),
               jvp="element_wise",
               self=lambda grad, n, self: grad * polygamma(self, n=n + 1))    # d ψ⁽ⁿ⁾ = ψ⁽ⁿ⁺¹⁾
def _hypot(a, b):
    """√(a² + b²): float64 as PyTorch's hypot kernel (SLEEF's hypot on vector blocks, glibc's on the rest);
    other dtypes NumPy's (glibc's hypotf, the correctly rounded value SLEEF's float32 one also gives)."""
    if a.dtype == np.float64 and b.dtype == np.float64:
        return _float_math.two_paths(_float_math.sleef_hypot64, np.hypot, a, b, block=_float_math._BLOCK64)
    return np.hypot(a, b)


hypot = Op("hypot", "HypotBackward0", _hypot, inputs=("self", "other"), jvp="element_wise",
           self=lambda grad, self, result: grad * self / result,              # d √(x²+y²)/dx = x/r
           other=lambda grad, other, result: grad * other / result)           # d/dy = y/r
fmod = Op("fmod", "FmodBackward0",   # (the number in a float tensor's dtype, as remainder's: bfloat16 too)
          lambda a, other: np.fmod(a, np.asarray(other, a.dtype) if a.dtype.kind in "fV" else other
                                   ).astype(a.dtype, copy=False),
          args=("other",), jvp="element_wise",
          self=lambda grad: grad)                                             # x - trunc(x/c)·c: slope 1
def _mod_jvp(rounding_mode):
    """fmod/remainder(Tensor, Tensor)'s forward formula as PyTorch's: self_t - other_t · self_p.div(other_p,
    rounding_mode) (trunc: fmod, floor: remainder). A missing tangent is PyTorch's ZeroTensor: every node of the
    formula is still recorded (a SubBackward0 on top), but ZeroTensor arithmetic gives self_t's copy when other_t
    is missing (no 0·inf = nan where other is 0) and -1·(other_t·q) when self_t is (+0 becomes -0, not 0 - 0)."""
    def jvp(self_t, other_t, self, other):
        product = other_t * self.div(other, rounding_mode=rounding_mode)
        result = self_t - product
        if other._fw_grad is None:
            result._data = np.array(np.broadcast_to(self_t._data, result.shape), result._data.dtype)
        elif self._fw_grad is None:
            result._data = np.asarray(np.multiply(product._data, -1).astype(result._data.dtype, copy=False))
        return result
    return jvp


fmod_tensor = Op("fmod", "FmodBackward1", np.fmod, inputs=("self", "other"), jvp=_mod_jvp("trunc"),
                 self=lambda grad: grad,
                 other=lambda grad, self, other: grad.neg() * self.div(other, rounding_mode="trunc"))
def _remainder(a, b):
    # Floats as PyTorch's kernel: fmod, then + b when the signs differ (a zero keeps a's sign; NumPy's mod
    # gives it b's sign). Integers: NumPy's floor mod is the same. (bfloat16's NumPy kind is "V".)
    if np.result_type(a, b).kind not in "fV":
        return np.mod(a, b)
    m = np.fmod(a, b)
    return np.where((m != 0) & ((b < 0) != (m < 0)), m + b, m)


remainder = Op("remainder", "RemainderBackward0",
               lambda a, other: _remainder(a, np.asarray(other, a.dtype) if a.dtype.kind in "fV" else other
                                           ).astype(a.dtype, copy=False),
               args=("other",), jvp="element_wise",
               self=lambda grad: grad)                                        # x - floor(x/c)·c: slope 1
remainder_tensor = Op("remainder", "RemainderBackward1", _remainder, inputs=("self", "other"),
                      jvp=_mod_jvp("floor"),
                      self=lambda grad: grad,
                      other=lambda grad, self, other: grad.neg() * self.div(other, rounding_mode="floor"))


def _xlogy(x, y):
    dt = np.result_type(x, y)
    # PyTorch's scalar kernel: x·std::log(y), glibc's logf / log (NumPy's own log rounds differently)
    log = {np.float32: _float_math._logf, np.float64: _float_math._log64}.get(dt.type, np.log)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x == 0, 0.0, x * log(np.asarray(y, dt) if log is not np.log else y))
    return np.where(np.isnan(y), np.nan, out).astype(dt, copy=False)


xlogy = Op("xlogy", "XlogyBackward0", _xlogy, inputs=("self", "other"), jvp="element_wise",
           # log y, but 0 where x == 0 and y <= 0 (where x·log y is held at 0)
           # (grad.xlogy: promoted as the function, a 0-dim other of a lower float type computed in grad's)
           self=lambda grad, self, other: grad.xlogy(other).masked_fill((self == 0) & (other <= 0), 0.0),
           other=lambda grad, self, other: grad * self / other)                               # x / y
def _no_r_to_c(g, input):
    """A formula's gradient for ``input`` as is: PyTorch's engine refuses a complex one for a real input (the
    formula has no handle_r_to_c), where minigrad's engine would keep its real part."""
    from .autograd import forward_ad
    if g.is_complex() and not input.is_complex() and not forward_ad._suspended[0]:  # (not as a jvp formula)
        raise RuntimeError("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == grad_is_complex) to "
                           "be true, but got false.  (Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    return g


logaddexp = Op("logaddexp", "LogaddexpBackward0", _float_math.logaddexp, inputs=("self", "other"), jvp="element_wise",
               self=lambda grad, self, other:   # e^x/(e^x+e^y)
                   _no_r_to_c(grad / add_scalar((other - self).exp(), other=1).conj(), self),
               other=lambda grad, self, other:
                   _no_r_to_c(grad / add_scalar((self - other).exp(), other=1).conj(), other))
logaddexp2 = Op("logaddexp2", "Logaddexp2Backward0", _float_math.logaddexp2, inputs=("self", "other"),
                jvp="element_wise",
                # 2^x/(2^x+2^y), with pow(2, ·) as PyTorch's formula has it (its rounding and graph)
                self=lambda grad, self, other: grad / add_scalar(2 ** (other - self), other=1),
                other=lambda grad, self, other: grad / add_scalar(2 ** (self - other), other=1))
cumprod = Op("cumprod", "CumprodBackward0",
             _rank0_ok(lambda a, dim: _scan(np.cumprod, a, dim)), args=("dim",),
             # (PyTorch's .to(dtype or self's dtype): the result's, also for a tangent of another dtype)
             jvp=lambda self_t, self, result, dim: _in_dtype_of(cumprod_jvp(self_t, self, result, dim), result),
             # (PyTorch's cumprod_backward(grad.to(self.scalar_type()), ...): see _grad_to_input_dtype)
             self=lambda grad, self, dim, result: cumprod_backward(grad.to(self.dtype), self, dim, result))


def cumprod_jvp(self_t, self, result, dim):
    """d cumprod·t = cumsum(t / x)·result, with PyTorch's repair after the first zero of x along dim."""
    gradient = (self_t / self).cumsum(dim) * result
    if self.dim() == 0:
        return _ops().where(self == 0, self_t, gradient)
    zeros = self == 0
    first_zero = zeros.logical_and(zeros.cumsum(dim) == 1)
    # after the first zero: the product of the values before it times its tangent (then of the values after)
    new_grad = _ops().where(first_zero, self_t, self).cumprod(dim)
    return _ops().where(first_zero.cumsum(dim).bool(), new_grad, gradient)
def _median_all(a):
    # The lower of the two middle values; NaN if there is a NaN (NumPy's sort puts NaNs last).
    if a.size == 0:
        return _nan_as(a.dtype)
    values = np.sort(a, axis=None)
    return np.asarray(values[-1] if _is_nan(values[-1]) else values[(a.size - 1) // 2])


def _nan_as(dtype) -> np.ndarray:
    """The median of nothing: PyTorch's NaN cast to ``dtype`` as C casts it (int64: -2**63, bool: True)."""
    with np.errstate(invalid="ignore"):
        return np.array(np.nan, np.float32).astype(dtype)


def _is_nan(x) -> bool:
    """x != x: true only for a NaN (of any dtype, ml_dtypes' bfloat16 too)."""
    return bool(x != x)


median_all = Op("median", "MedianBackward0", _median_all,
                jvp=evenly_read_jvp,
                self=evenly_distribute_backward)                                 # the middle element(s)


def _lower_median_dim(a, dim, keepdim):
    # PyTorch's median is the lower of the two middle values; its index is where that value sits. A row
    # holding a NaN gives its first NaN (PyTorch looks for one before partitioning the row).
    idx = np.argsort(a, axis=dim, kind="stable")
    idx = np.take(idx, [(a.shape[dim] - 1) // 2], axis=dim)
    nan = a != a
    if nan.any():
        idx = np.where(nan.any(axis=dim, keepdims=True), np.argmax(nan, axis=dim, keepdims=True), idx)
    values = np.take_along_axis(a, idx, axis=dim)
    if not keepdim:
        values, idx = np.squeeze(values, dim), np.squeeze(idx, dim)
    return values, idx.astype(np.int64)


def _mode_dim(a, dim, keepdim):
    # The most frequent value (the smallest among ties) and an index where it occurs: PyTorch sorts each row
    # with std::sort and takes the last of the longest run of equal values (each NaN a run of its own). A
    # short row without NaNs is insertion-sorted, stably: the value's last index. Other rows replay it.
    moved = np.moveaxis(a, dim, -1)
    flat = moved.reshape(-1, moved.shape[-1])
    values = np.empty(flat.shape[0], a.dtype)
    idx = np.empty(flat.shape[0], np.int64)
    for r, row in enumerate(flat):
        if row.size > 16 or (row != row).any():
            values[r], idx[r] = _mode_row_like_pytorch(row)
            continue
        uniq, counts = np.unique(row, return_counts=True)
        values[r] = uniq[np.argmax(counts)]
        idx[r] = np.nonzero(row == values[r])[0][-1]
    values, idx = values.reshape(moved.shape[:-1]), idx.reshape(moved.shape[:-1])
    if keepdim:
        values, idx = np.expand_dims(values, dim), np.expand_dims(idx, dim)
    return values, idx


def _mode_row_like_pytorch(row):
    from . import _stl
    queue = [(v, i) for i, v in enumerate(row.tolist())]
    _stl.sort(queue, len(queue), lambda x, y: x[0] < y[0])
    best, run, longest = queue[0], 0, 0
    for i, item in enumerate(queue):
        run += 1
        if i == len(queue) - 1 or item[0] != queue[i + 1][0]:  # the end of a run
            if run > longest:
                best, longest = item, run
            run = 0
    return best


median_dim = Op("median", "MedianBackward1", _rank0_ok(_lower_median_dim), args=("dim", "keepdim"),
                jvp=lambda self_t, dim, indices, keepdim: _selected_jvp(self_t, dim, indices, keepdim),
                outputs=("values", "indices"), differentiable_outputs=1,
                self=lambda grad, dim, indices, self_sym_sizes, keepdim:
                    value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))
mode = Op("mode", "ModeBackward0", _rank0_ok(_mode_dim), args=("dim", "keepdim"),
          jvp=lambda self_t, dim, indices, keepdim: _selected_jvp(self_t, dim, indices, keepdim),
          outputs=("values", "indices"), differentiable_outputs=1,
          self=lambda grad, dim, indices, self_sym_sizes, keepdim:
              value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))
linalg_cross = Op("linalg_cross", "LinalgCrossBackward0", _cross, inputs=("self", "other"), args=("dim",),
                  jvp=lambda self_t, other_t, self, other, dim:      # d(a × b) = da × b + a × db
                      linalg_cross(self_t, other, dim=dim) + linalg_cross(self, other_t, dim=dim),
                  self=lambda grad, other, dim: linalg_cross(other.conj(), grad, dim=dim),   # b × g
                  other=lambda grad, self, dim: linalg_cross(grad, self.conj(), dim=dim))    # g × a
def _inv_backward(grad, inverse):
    """-A⁻ᴴ G A⁻ᴴ, PyTorch's -at::matmul(inverse.mH(), at::matmul(grad, inverse.mH())): C++ evaluates a call's
    arguments right to left, so the inner product (and its mH) is made first; the nodes' sequence numbers, hence
    the order a second backward runs them in, are PyTorch's."""
    inner = grad.matmul(_mH(inverse))
    return _mH(inverse).matmul(inner).neg()


linalg_inv = Op("linalg_inv_ex", "LinalgInvExBackward0",
                lambda a: _lapack.solve(a, np.broadcast_to(np.eye(a.shape[-1], dtype=a.dtype), a.shape))[0]
                if _lapack.supports(a) else np.linalg.inv(a).astype(a.dtype, copy=False),  # (PyTorch: solve(A, I))
                inputs=("A",), outputs=("inverse",),
                jvp=lambda A_t, inverse: inverse.matmul(A_t).matmul(inverse).neg(),              # d A⁻¹ = -A⁻¹ dA A⁻¹
                A=lambda grad, inverse: _inv_backward(grad, inverse))                              # -A⁻ᴴ G A⁻ᴴ
linalg_det = Op("_linalg_det", "LinalgDetBackward0", _det_forward,
                inputs=("A",), outputs=("result", "LU", "pivots"), differentiable_outputs=1,
                jvp=lambda A_t, A, result, LU, pivots: _det_jvp(A_t, A, result, LU, pivots),
                A=lambda grad, A, LU, pivots, result: linalg_det_backward(grad, result, A, pivots, LU))


def _det_jvp(A_t, A, result, LU, pivots):
    """d det A = det A · tr(A⁻¹ dA).

    PyTorch solves with the forward's LU, a zero pivot nudged to eps (det is C¹, so this approximates the limit):
    a singular A then gets det · tr(...) = ±0 where a plain solve would give NaN. Without a zero pivot the
    nudge changes nothing, and the solve with A is the same quotient.
    """
    lu = LU._data
    pivot = np.diagonal(lu, axis1=-2, axis2=-1)
    if not (pivot == 0).any() or not _lapack.supports(lu):
        # (A detached: PyTorch's LU is a non-differentiable output, so backward through the tangent reaches A
        # only through det A)
        return result * _solve(A.detach(), A_t).diagonal(0, -2, -1).sum(-1)
    lu = lu + np.eye(lu.shape[-1], dtype=lu.dtype) * np.where(pivot == 0, np.finfo(lu.dtype).eps, 0).astype(
        lu.dtype)[..., None, :]
    use_a_t = A._data.flags.c_contiguous and not A.is_complex()  # (the LU is of Aᵀ then: see _det_forward)
    a_inv_e = _lapack.getrs(lu, pivots._data, A_t._data, _lapack.trans_letter(use_a_t, lu))
    return result * Tensor._make(a_inv_e).diagonal(0, -2, -1).sum(-1)


def linalg_det_backward(grad, det, A, pivots, LU=None):
    """d det A = det A · tr(A⁻¹ dA)  ⇒  gA = A⁻ᴴ·(g·conj(det A))·I, solved with A (PyTorch's, A invertible)."""
    if A.numel() == 0:   # (nothing to solve: PyTorch's zeros, with no graph behind them even under create_graph)
        from ._creation import zeros_like
        return zeros_like(A)
    if A.shape[-1] == 1:   # 1 x 1: det A = a, so gA = g itself (PyTorch's shortcut; also for a = 0, no solve)
        return grad.unsqueeze(-1).unsqueeze(-1).expand(tuple(A.shape))
    if _untracked() and LU is not None and _lapack.supports(LU._data):
        # PyTorch reuses the forward's LU (of Aᵀ when A is contiguous and real), a zero pivot nudged to eps
        lu, g = LU._data, (grad * det.conj())._data
        pivot = np.diagonal(lu, axis1=-2, axis2=-1)
        eps = np.finfo(lu.dtype).eps
        lu = lu + np.eye(lu.shape[-1], dtype=lu.dtype) * np.where(pivot == 0, eps, 0).astype(lu.dtype)[..., None, :]
        use_a_t = A._data.flags.c_contiguous and not A.is_complex()
        d = np.zeros(lu.shape, lu.dtype)  # (diag_embed: +0 off the diagonal, even for a -0 determinant)
        np.einsum("...ii->...i", d)[...] = g[..., None]
        return Tensor._make(_lapack.getrs(lu, pivots._data, d, _lapack.trans_letter(not use_a_t, lu)))
    if _untracked():  # the same solve in one LAPACK call (linalg_solve_ex also factors A for its outputs)
        a, g = A._data, (grad * det.conj())._data
        eye = np.eye(a.shape[-1], dtype=np.result_type(a, g))
        return _numpy_result(lambda: np.linalg.solve(np.conj(np.swapaxes(a, -1, -2)), g[..., None, None] * eye))
    if _wrapped_by_live_level(A):   # (PyTorch's SVD form for every matrix a torch.func level wraps, "subclass-like")
        return _det_singular_backward(A, grad)
    d = diag_embed((grad * det.conj()).unsqueeze(-1).expand(tuple(pivots.shape)), offset=0, dim1=-2, dim2=-1)
    # Under create_graph the matrices whose |det| < 100·eps take the SVD form (PyTorch's masked_fmap): a solve
    # with a singular A fails, and the SVD form is the limit of the formula
    singular = np.abs(det._data) < 100 * np.finfo(LU._data.dtype).eps if LU is not None else np.zeros(det.shape, bool)
    if not singular.any():
        rhs = d.mT   # (C++ makes the right operand of the solve first)
        return _solve(_mH(A), rhs)
    if singular.all():
        return _det_singular_backward(A, grad)
    from ._creation import empty_like
    mask = Tensor._make(singular)
    keep = Tensor._make(~singular)
    gA = empty_like(A)
    gA.index_put_((mask,), _det_singular_backward(A[mask], grad[mask]))
    gA.index_put_((keep,), _solve(_mH(A[keep]), d[keep].mT))
    return gA


def _det_singular_backward(A, grad):
    """gA of det for a singular A, from A = U diag(S) Vᴴ: det A = det U · det Vᴴ · Π S, so
    gA = U diag(g·conj(det U det Vᴴ)·Π_{j≠i} S_j) Vᴴ (PyTorch's singular case of linalg_det_backward)."""
    U, S, Vh = linalg_svd(A, full_matrices=True, S_sym_argsize_minus_1=A.shape[-1])
    alpha = (linalg_det(U)[0] * linalg_det(Vh)[0]).conj()
    D = _prod_safe_zeros_backward(grad.mul(alpha).unsqueeze(-1), S, S.dim() - 1)
    return (U * D.unsqueeze(-2)).matmul(Vh)


# =============================================================================================
# Linear algebra: decompositions, solvers, least squares (torch.linalg)
#
# The formulas are PyTorch's (FunctionsManual.cpp: linalg_qr_backward, linalg_eig_backward, svd_backward,
# slogdet_backward, cholesky_backward, linalg_solve backward, pinv_backward, linalg_lstsq_backward),
# written with tensor ops; every solve in them is ``linalg_solve_ex``, so they serve double backward
# too. Gradients of several outputs arrive as ``grads`` with None for an output that got none (as
# PyTorch's undefined tensors: svdvals then takes the cheap U diag(gS) Vᴴ path, eigvalsh V diag(gL) Vᴴ).
# The user-facing functions (argument checks, PyTorch's errors, return types) are in ``linalg.py``.
# =============================================================================================

def _eye(n: int, like):
    """The n x n identity in ``like``'s dtype (to put ones on a diagonal)."""
    return Tensor._make(np.eye(n, dtype=like._data.dtype))


def _gaps(x):
    """E_ij = x_j - x_i with ones on the diagonal (a divisor for the off-diagonal terms), the diagonal filled in
    place as PyTorch's svd/eigh backward do (under create_graph: a CopySlices node)."""
    right = x.unsqueeze(-1)   # (made first: C++ evaluates the operands of PyTorch's a - b right to left)
    E = x.unsqueeze(-2) - right
    E.diagonal(0, -2, -1).fill_(1)
    return E


def _solve(A, B, left=True):
    """A⁻¹B (or BA⁻¹ for left=False), differentiable."""
    return linalg_solve_ex(A, B, left=left)[0]


def linalg_qr_backward(grads, Q, R, mode):
    """A = QR.  m >= n: gA = (gQ + Q syminvadj(triu(gR Rᴴ - Qᴴ gQ))) R⁻ᴴ;  m < n: see below."""
    gQ, gR = grads
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    m, n = Q.shape[-2], R.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if gQ is None and gR is None:
        return None
    if gQ is None:
        gA = gR.matmul(_mH(R))
    else:   # (gR Rᴴ - Qᴴ gQ: a SubBackward0 under create_graph, as PyTorch's; its right operand made first)
        QhgQ = _mH(Q).matmul(gQ)
        gA = -QhgQ if gR is None else gR.matmul(_mH(R)) - QhgQ
    if m >= n:
        # syminvadj(X) = X + Xᴴ with the diagonal halved (the adjoint of X ↦ triu(X) - diag(X)/2), halved in
        # place as PyTorch's (under create_graph: a CopySlices node)
        X = gA.triu()
        X = X + _mH(X)
        # (PyTorch halves at::real(diagonal): for a complex X, a view through view_as_real; its diagonal is real)
        diagonal = X.diagonal(0, -2, -1).real if X.is_complex() else X.diagonal(0, -2, -1)
        mul_scalar(diagonal, other=0.5, out=diagonal)   # (a Scalar product: MulBackward1, one edge)
        gA = Q.matmul(X)
        if gQ is not None:
            gA = gA + gQ
        return linalg_solve_triangular(_mH(R), gA, upper=False, left=False, unitriangular=False)  # gA R⁻ᴴ
    # m < n: gA = Q gR + [Q trilImInvAdjSkew(Qᴴ gQ - gR Rᴴ) R₁⁻ᴴ, 0], R₁ = R[:, :m]
    X = -gA
    # trilImInvAdjSkew: (X - Xᴴ).tril() with Im diag halved in place (at::imag, a view; X - Xᴴ has no real diagonal)
    X = (X - _mH(X)).tril()
    if X.is_complex():
        diagonal = X.diagonal(0, -2, -1).imag
        mul_scalar(diagonal, other=0.5, out=diagonal)
    gA = Q.matmul(X)
    gA = linalg_solve_triangular(_mH(R[..., :m]), gA, upper=False, left=False, unitriangular=False)
    gA = _ops().cat([gA, _ops().zeros(tuple(R.shape[:-2]) + (m, n - m), dtype=gA.dtype)], -1)
    return gA if gR is None else gA + Q.matmul(gR)


def _check_phase_invariant(imag_diag, what: str, other=None) -> None:
    """The loss must not depend on the arbitrary phase of complex singular/eigen vectors (as PyTorch checks:
    allclose(imag_diag, other) with rtol = atol = 1e-2, so |imag_diag - other| <= 1e-2 (1 + |other|))."""
    if not np.allclose(imag_diag._data, 0 if other is None else other._data, rtol=1e-2, atol=1e-2):
        raise RuntimeError(what)


def linalg_eigh_backward(grads, eigenvalues, eigenvectors):
    """A = V diag(L) Vᴴ:  gA = V (diag(gL) + skew(Vᴴ gV)/2 / E) Vᴴ,  E_ij = L_j - L_i (1 on the diagonal)."""
    gL, gV = grads
    L, V = eigenvalues, eigenvectors
    if gL is None and gV is None:
        return None
    if gV is None:                                                      # eigvalsh: V diag(gL) Vᴴ
        # (Vᴴ made first: C++ evaluates the operands of PyTorch's matmul(V * gL, V.mH()) right to left, so under
        # create_graph the gradients reaching V arrive in PyTorch's order, through V * gL's node first)
        Vh = _mH(V)
        return (V * gL.unsqueeze(-2)).matmul(Vh)
    VhgV = _mH(V).matmul(gV)
    if VhgV.is_complex():
        _check_phase_invariant(VhgV.diagonal(0, -2, -1).imag,
                               "linalg_eigh_backward: The eigenvectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this quantity, "
                               "so it is ill-defined.")
    VhgV = mul_scalar(VhgV - _mH(VhgV), other=0.5)   # (a Scalar product, as PyTorch's: MulBackward1)
    E = _gaps(L)
    # (in place, as PyTorch's VhgV.div_(Econj): under create_graph the DivBackward0 saves a clone of VhgV)
    gA = VhgV.div_(E)
    if gL is not None:   # (the diagonal replaced by gL in place, as PyTorch's: a CopySlices node)
        gA.diagonal(0, -2, -1).copy_(gL)
    return V.matmul(gA.matmul(_mH(V)))


def slogdet_backward(grads, A, sign, LU=None, pivots=None):
    """d log|det A| = Re tr(A⁻¹ dA):  gA = g A⁻ᴴ,  g = g_logabsdet - i Im(conj(g_sign)·sign) (complex A)."""
    g_sign, g = grads
    if not A.is_complex():
        if g is None:
            return None                                                 # (a real sign has no derivative)
    elif g_sign is not None:
        # PyTorch multiplies by the Scalar i (-i without g): a MulBackward1 under create_graph
        im = (g_sign.conj() * sign).imag
        g = mul_scalar(im, other=-1j) if g is None else g - mul_scalar(im, other=1j)
    if g is None:
        return None
    # B = diag(g)ᵀ: PyTorch's formula transposes the diagonal matrix (a TransposeBackward0 under create_graph),
    # and C++ builds the right operand of linalg_solve(A.mH(), B) first
    B = diag_embed(g.unsqueeze(-1).expand(tuple(A.shape[:-1])), offset=0, dim1=-2, dim2=-1).mT
    from .autograd import grad_mode
    if LU is not None and not grad_mode.is_grad_enabled():
        # (PyTorch's backward without create_graph solves with the forward's LU factors: those of A (lu_solve's
        # adjoint gives A⁻ᴴ), or of Aᵀ for a contiguous real A (see _lapack._det_lu))
        use_a_t = A.is_contiguous() and not A.is_complex()
        return linalg_lu_solve(LU, pivots, B.to(A.dtype), left=True, adjoint=not use_a_t)
    return _solve(_mH(A), B)


def svd_backward(grads, U, S, Vh, full_matrices, k):
    """A = U diag(S) Vᴴ (PyTorch's svd_backward, for distinct singular values; rectangular A full rank)."""
    gU, gS, gVh = grads
    if gU is None and gS is None and gVh is None:
        return None
    if full_matrices:  # only the first k = min(m, n) singular vectors are determined by A
        U = U[..., :k]
        Vh = Vh[..., :k, :]
        gU = None if gU is None else gU[..., :k]
        gVh = None if gVh is None else gVh[..., :k, :]
    m, n = U.shape[-2], Vh.shape[-1]
    if gU is None and gVh is None:                                      # svdvals: U diag(gS) Vᴴ
        return U.matmul(gS.unsqueeze(-1) * Vh) if m >= n else (U * gS.unsqueeze(-2)).matmul(Vh)
    UhgU = None if gU is None else _mH(U).matmul(gU)
    UhgU = None if UhgU is None else UhgU - _mH(UhgU)                   # skew(Uᴴ gU)
    VhgV = None if gVh is None else Vh.matmul(_mH(gVh))
    VhgV = None if VhgV is None else VhgV - _mH(VhgV)                   # skew(Vᴴ gV)
    if U.is_complex():
        zero = _ops().zeros_like(S)
        im_u = zero if UhgU is None else UhgU.diagonal(0, -2, -1).imag
        im_v = zero if VhgV is None else VhgV.diagonal(0, -2, -1).imag
        # (PyTorch's allclose(Im diag(skew(Uᴴ gU)), -Im diag(skew(Vᴴ gV))): its rtol is relative to the V term)
        _check_phase_invariant(im_u,
                               "svd_backward: The singular vectors in the complex case are specified up to "
                               "multiplication by e^{i phi}. The specified loss function depends on this phase term, "
                               "making it ill-defined.", -im_v)
    S2 = S * S
    E = _gaps(S2)
    # (C++ evaluates the two operands of PyTorch's binary operators right to left: the right one is made first
    # below, which orders the nodes' sequence numbers, hence the graph under create_graph, as PyTorch's)
    if UhgU is not None and VhgV is not None:
        right = S.unsqueeze(-1) * VhgV
        gA = (UhgU * S.unsqueeze(-2) + right) / E
    elif UhgU is not None:
        right = S.unsqueeze(-2)
        gA = (UhgU / E) * right
    else:
        right = VhgV / E
        gA = S.unsqueeze(-1) * right
    if gS is not None:
        gA = gA + diag_embed(gS, offset=0, dim1=-2, dim2=-1)
    if U.is_complex() and UhgU is not None and VhgV is not None:
        twice_S = mul_scalar(S, other=2.0)   # (C++'s 2. * S: a Scalar product, MulBackward1, made first)
        gA = gA + diag_embed(UhgU.diagonal(0, -2, -1) / twice_S, offset=0, dim1=-2, dim2=-1)
    if m > n and gU is not None:                                        # + (I - UUᴴ) gU S⁻¹ Vᴴ
        gA = U.matmul(gA)
        gUSinv = gU / S.unsqueeze(-2)
        right = U.matmul(_mH(U).matmul(gUSinv))
        gA = gA + gUSinv - right
        return gA.matmul(Vh)
    if m < n and gVh is not None:                                       # + U S⁻¹ gVᴴ (I - VVᴴ)
        gA = gA.matmul(Vh)
        SinvgVh = gVh / S.unsqueeze(-1)
        right = SinvgVh.matmul(_mH(Vh)).matmul(Vh)
        gA = gA + SinvgVh - right
        return U.matmul(gA)
    return U.matmul(gA.matmul(Vh)) if m >= n else U.matmul(gA).matmul(Vh)


def cholesky_backward(grad, L, upper):
    """A = LLᴴ:  gA = L⁻ᴴ Φ(tril(Lᴴ gL)) L⁻¹,  Φ(X) = (X + tril(X, -1)ᴴ) / 2."""
    L_ = _mH(L) if upper else L
    gL = _mH(grad) if upper else grad
    gA = _mH(L_).matmul(gL).tril()
    gA = mul_scalar(gA + _mH(gA.tril(-1)), other=0.5)   # (a Scalar product, as PyTorch's: MulBackward1)
    gA = linalg_solve_triangular(_mH(L_), gA, upper=True, left=True, unitriangular=False)     # L⁻ᴴ (·)
    return linalg_solve_triangular(L_, gA, upper=False, left=False, unitriangular=False)     # (·) L⁻¹


def linalg_solve_backward(grad, A, LU, pivots, result, left, grad_input_mask):
    """X = A⁻¹B:  gB = A⁻ᴴ gX,  gA = -gB Xᴴ  (X = BA⁻¹: gB = gX A⁻ᴴ, gA = -Xᴴ gB).
    One formula for both (PyTorch's): gB is solved once, and under create_graph both gradients use that node."""
    B_is_vector = result.dim() < A.dim()  # (a matrix B gives X at least A's dims)
    gX, X = (grad.unsqueeze(-1), result.unsqueeze(-1)) if B_is_vector else (grad, result)
    if _untracked() and LU is not None:  # (PyTorch reuses the forward's LU when no graph is built)
        gB = linalg_lu_solve(LU, pivots, gX, left=left, adjoint=True)
    else:
        gB = _solve(_mH(A), gX, left=left)
    gA = None
    if grad_input_mask[0]:
        gA = -gB.matmul(_mH(X)) if left else -_mH(X).matmul(gB)
    return gA, (gB.squeeze(-1) if B_is_vector else gB)


def pinv_backward(grad, pinvA, A):
    """The derivative of A⁺ in terms of A⁺ itself (PyTorch's pinv_backward)."""
    m, n = A.shape[-2], A.shape[-1]
    pinvAh, gradh = _mH(pinvA), _mH(grad)
    # The terms are made in C++'s order: the operands of a + b and a - b right to left (the last term first),
    # a method call's object before its argument; the nodes' sequence numbers, hence the order a second
    # backward runs them in, are then PyTorch's.
    if m <= n:
        K = gradh.matmul(pinvA)
        KpinvAh = K.matmul(pinvAh)
        pinvAhpinvA = pinvAh.matmul(pinvA)
        last = pinvAhpinvA.matmul(gradh - K.matmul(A))
        third = A.matmul(pinvA).matmul(KpinvAh)
        return -_mH(pinvA.matmul(K)) + KpinvAh - third + last
    K = pinvA.matmul(gradh)
    pinvAhK = pinvAh.matmul(K)
    last = pinvAhK.matmul(pinvA).matmul(A)
    second = (gradh - A.matmul(K)).matmul(pinvA).matmul(pinvAh)
    return -_mH(K.matmul(pinvA)) + second + pinvAhK - last


def linalg_lstsq_backward(grads, self, b, solution, grad_input_mask):
    """X = A⁺B, residuals L = Σ|AX - B|²:  gA, gB from A⁺'s derivative and from 2(AX - B).
    One formula for both (PyTorch's): A⁺ is computed once, and under create_graph both gradients use that node."""
    A, B, X = self, b, solution
    gX, gL = grads
    vector = X.dim() < A.dim()  # (a vector B gives X of A's dims less one, a matrix B gives X of A's dims)
    if vector:
        B, X = B.unsqueeze(-1), X.unsqueeze(-1)
        gX = None if gX is None else gX.unsqueeze(-1)
    gA = gB = None
    if gX is not None:
        pinvA = linalg_pinv(A, atol=None, rtol=None, hermitian=False)
        if grad_input_mask[0]:
            gA = pinv_backward(gX.matmul(_mH(B)), pinvA, A)
        if grad_input_mask[1]:
            gB = _mH(pinvA).matmul(gX)
    if gL is not None and gL.numel():
        r = A.matmul(X) - B
        gL = gL.unsqueeze(-2)
        if grad_input_mask[0]:
            term = mul_scalar((gL * r).matmul(_mH(X)), other=2)
            gA = term if gA is None else gA + term
        if grad_input_mask[1]:
            term = -2 * gL * r
            gB = term if gB is None else gB + term
    if gB is not None and vector:
        gB = gB.squeeze(-1)
    return gA, gB


def linalg_solve_triangular_backward(grad, self, result, upper, left, unitriangular, grad_input_mask):
    """X = A⁻¹B, A triangular:  gB = A⁻ᴴ gX,  gA = -gB Xᴴ kept on A's triangle (X = BA⁻¹: -Xᴴ gB).
    One formula for both (PyTorch's): gB is solved once, and under create_graph both gradients use that node."""
    gB = linalg_solve_triangular(_mH(self), grad, upper=not upper, left=left, unitriangular=unitriangular)
    if not grad_input_mask[0]:
        return None, gB
    gA = -gB.matmul(_mH(result)) if left else -_mH(result).matmul(gB)
    return (gA.triu(int(unitriangular)) if upper else gA.tril(-int(unitriangular))), gB


def _solve_triangular_forward(a, b, upper, left, unitriangular):
    if _conj_transposed(a, b):
        # PyTorch's avoid_copy_A: A conjugated with a contiguous Aᵀ goes to trsm as it lies, its memory conj(A)
        # read column-major with trans='C' (op = Aᵀ), and the result is row-major: the transposed equation
        # Xᵀ Aᵀ = Bᵀ (Aᵀ Xᵀ = Bᵀ for left=False) solved in it, as PyTorch's
        if _lapack.supports(a, b):
            batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
            memory = _lapack._columns(np.conj(np.broadcast_to(a, batch + a.shape[-2:])))
            out = _lapack._row_major(np.broadcast_to(b, batch + b.shape[-2:]).astype(a.dtype, copy=False))
            _lapack._trsm_loop(memory, np.swapaxes(out, -1, -2), not left, upper, "C", unitriangular)
            return out
        return np.ascontiguousarray(_solve_triangular_forward(np.array(a), b, upper, left, unitriangular))
    if _lapack.supports(a, b) and a.dtype == b.dtype:  # (MKL's trsm, as PyTorch)
        return _lapack.trsm(a, b, upper, left, unitriangular)
    # (a general solve on the triangle: LAPACK's trtrs gives the same values up to rounding)
    t = np.triu(a) if upper else np.tril(a)
    if unitriangular:
        eye = np.eye(a.shape[-1], dtype=a.dtype)  # (in a's dtype: float32 stays float32)
        t = t - eye * np.diagonal(t, axis1=-2, axis2=-1)[..., None, :] + eye
    if left:
        return np.linalg.solve(t, b)
    return np.swapaxes(np.linalg.solve(np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)


def _conj_transposed(a, b) -> bool:
    """Whether ``a`` (of a solve with ``b``) is a conjugate view whose transpose is contiguous, after broadcasting."""
    from . import _conj
    if not _conj.MIRRORS or a.dtype.kind != "c" or a.ndim < 2 or a.ndim < b.ndim or a.shape[:-2] != \
            np.broadcast_shapes(a.shape[:-2], b.shape[:-2]):
        return False
    m = _conj.MIRRORS.get(id(_conj._owner(a)))
    return m is not None and m.bit and np.swapaxes(a, -1, -2).flags.c_contiguous


def _qr_forward(a, mode):
    if _lapack.supports(a):  # (MKL's geqrf + orgqr, as PyTorch)
        return _lapack.qr(a, mode)
    if mode == "r":
        return np.empty((0,), a.dtype), np.linalg.qr(a, mode="r")
    return tuple(np.linalg.qr(a, mode=mode))


def _slogdet_forward(a):
    if _lapack.supports(a):  # (MKL's getrf, as PyTorch)
        return _lapack.slogdet(a)
    sign, logabsdet = np.linalg.slogdet(a)
    lu, pivots = _lu(a)
    return np.asarray(sign), np.asarray(logabsdet), lu, pivots


def _svd_forward(a, full_matrices, S_sym_argsize_minus_1):
    if _lapack.supports(a):  # (MKL's gesdd, as PyTorch)
        return _lapack.gesdd(a, full_matrices)
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return u, s, vh


def _leading_minor_failure(a) -> int:
    """The order of the first leading minor of ``a`` that is not positive-definite (0 if none)."""
    for k in range(1, a.shape[-1] + 1):
        try:
            np.linalg.cholesky(a[:k, :k])
        except np.linalg.LinAlgError:
            return k
    return 0


def _cholesky_forward(a, upper):
    if _lapack.supports(a):  # (MKL's potrf, as PyTorch: a failed factorization leaves potrf's partial L)
        return _lapack.potrf(a, upper)
    info = np.zeros(a.shape[:-2], np.int32)
    try:
        L = np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        L = np.zeros_like(a)
        for i in np.ndindex(a.shape[:-2]):
            info[i] = _leading_minor_failure(a[i])
            if not info[i]:
                L[i] = np.linalg.cholesky(a[i])
    return (np.swapaxes(L, -1, -2).conj() if upper else L), info


def _solve_forward(a, b, left):
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    bm = b[..., None] if vector else b
    if _lapack.supports(a, b):  # (MKL's getrf + getrs, as PyTorch)
        x, lu, pivots, info = _lapack.solve(a, bm, left)
        return (_lapack.column_major(x[..., 0]) if vector else x), lu, pivots, info
    if left:
        x = np.linalg.solve(a, bm)
    else:  # X A = B  <=>  Aᵀ Xᵀ = Bᵀ
        x = np.swapaxes(np.linalg.solve(np.swapaxes(a, -1, -2), np.swapaxes(bm, -1, -2)), -1, -2)
    lu, pivots = _lu(a)
    return (x[..., 0] if vector else x), lu, pivots, np.zeros(a.shape[:-2], np.int32)


def _pinv_forward(a, atol, rtol, hermitian):
    """A⁺ from the SVD (eigh if hermitian): singular values up to max(atol, rtol·σ_max) count as zero."""
    atol, rtol = pinv_tolerances(a, atol, rtol)
    if hermitian:
        w, v = _lapack.syevd(a) if _lapack.supports(a) else np.linalg.eigh(a)
        s, u, vh = np.abs(w), v, np.swapaxes(v, -1, -2).conj()
        vals = w
    else:
        u, s, vh = _lapack.gesdd(a) if _lapack.supports(a) else np.linalg.svd(a, full_matrices=False)
        vals = s
    smax = s.max(-1, keepdims=True, initial=0.0)
    with np.errstate(divide="ignore"):
        inv = np.where(s > np.maximum(atol, rtol * smax), 1 / np.where(vals == 0, 1, vals), 0)
    x, y = np.swapaxes(vh, -1, -2).conj() * inv[..., None, :].astype(a.dtype), np.swapaxes(u, -1, -2).conj()
    if x.ndim == 2:  # (PyTorch's matmul: mm, or bmm over the batch folded into one dim)
        return _matmul.mm(x, y)
    if x.ndim == 3:
        return _matmul.bmm(x, y)
    batch = math.prod(x.shape[:-2])   # (not -1: a reshape cannot infer it when a matrix dim is 0)
    return _matmul.bmm(x.reshape((batch,) + x.shape[-2:]), y.reshape((batch,) + y.shape[-2:])).reshape(
        x.shape[:-1] + y.shape[-1:])


def pinv_tolerances(a, atol, rtol) -> tuple:
    """PyTorch's defaults: atol 0; rtol eps·max(m, n), or 0 when a positive atol is given."""
    if rtol is None:
        rtol = np.finfo(a.dtype).eps * max(a.shape[-2:]) if atol is None or atol <= 0 else 0.0
    return (0.0 if atol is None else atol), rtol


def _lstsq_forward(a, b, rcond, driver):
    # B is a (batch of) vector(s) when 1-D or shaped as A without its last dim (linalg_solve_is_vector_rhs);
    # a matrix B with one dim less than A broadcasts all but its last dim with A's batch (broadcast_batch_size)
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape == a.shape[:-1])
    bm = b[..., None] if vector else b
    m, n = a.shape[-2:]
    batch = np.broadcast_shapes(a.shape[:-2], bm.shape[:a.ndim - 2])
    A = np.broadcast_to(a, batch + a.shape[-2:])
    B = np.broadcast_to(bm, batch + (m, bm.shape[-1]))
    x = np.zeros(batch + (n, B.shape[-1]), np.result_type(a, b))
    rank = np.zeros(batch, np.int64)
    sv = np.zeros(batch + (min(m, n),), np.zeros((), a.dtype).real.dtype)
    if _lapack.supports(a, b) and a.dtype == b.dtype:  # (MKL's driver itself, as PyTorch)
        x, residuals, rank, sv = _lapack.lstsq(a, bm, rcond, driver)
    else:
        for i in np.ndindex(batch):
            x[i], _, rank[i], sv[i] = np.linalg.lstsq(A[i], B[i], rcond=rcond)
        residuals = np.zeros((0,), sv.dtype)
        if m > n and driver != "gelsy" and (driver not in ("gelsd", "gelss") or (rank == n).all()):
            residuals = (np.abs(np.matmul(A, x) - B) ** 2).sum(-2).astype(sv.dtype)
    # rank and singular values describe A's matrices: PyTorch gives them A's batch shape, not the broadcast one
    a_batch = a.shape[:-2]
    if tuple(rank.shape) != a_batch and rank.ndim == len(batch):
        keep = (len(batch) - len(a_batch)) * (0,) + tuple(
            np.s_[:] if da == db else np.s_[0:1] for da, db in zip(a_batch, batch[len(batch) - len(a_batch):]))
        rank = rank[keep].reshape(a_batch)
        sv = sv[keep + (np.s_[:],)].reshape(a_batch + sv.shape[-1:]) if sv.ndim == len(batch) + 1 else sv
    if driver == "gels":
        rank = np.zeros((0,), np.int64)
    if driver not in ("gelsd", "gelss"):
        sv = np.zeros((0,), sv.dtype)
    return (x[..., 0] if vector else x), residuals, rank, sv


linalg_solve_triangular = Op(
    "linalg_solve_triangular", "LinalgSolveTriangularBackward0", _solve_triangular_forward, inputs=("self", "B"),
    args=("upper", "left", "unitriangular"),
    jvp=lambda self, B, self_t, B_t, result, upper, left, unitriangular:
        _solve_triangular_jvp(self, self_t, None if B._fw_grad is None else B_t, result, upper, left, unitriangular),
    self=joint(linalg_solve_triangular_backward), B=joint(linalg_solve_triangular_backward))
linalg_qr = Op("linalg_qr", "LinalgQrBackward0", _qr_forward, inputs=("A",), args=("mode",), outputs=("Q", "R"),
               undefined_grads=True, jvp=lambda A_t, Q, R, mode: linalg_qr_jvp(A_t, Q, R, mode),
               A=lambda grads, Q, R, mode: linalg_qr_backward(grads, Q, R, mode))
linalg_eigh = Op("linalg_eigh", "LinalgEighBackward0",
                 lambda a, UPLO: _lapack.syevd(a, UPLO) if _lapack.supports(a) else tuple(np.linalg.eigh(a, UPLO=UPLO)),
                 inputs=("A",), args=("UPLO",), outputs=("eigenvalues", "eigenvectors"), undefined_grads=True,
                 jvp=lambda A_t, eigenvalues, eigenvectors: _eigh_jvp(A_t, eigenvalues, eigenvectors),
                 A=lambda grads, eigenvalues, eigenvectors: linalg_eigh_backward(grads, eigenvalues, eigenvectors))
linalg_slogdet = Op("_linalg_slogdet", "LinalgSlogdetBackward0", _slogdet_forward, inputs=("A",),
                    outputs=("sign", "logabsdet", "LU", "pivots"), differentiable_outputs=2, undefined_grads=True,
                    # real A: d log|det A| = tr(A⁻¹·dA); the sign does not move
                    jvp=lambda A, A_t, sign, LU, pivots: _slogdet_jvp(A, A_t, sign, LU, pivots),
                    # (LU and pivots are kept, as PyTorch keeps them, for its lu_solve)
                    A=lambda grads, A, LU, pivots, sign: slogdet_backward(grads, A, sign, LU, pivots))


def _slogdet_jvp(A, A_t, sign, LU, pivots):
    """d log|det A| = Re tr(A⁻¹·dA); the sign turns by i·Im tr(A⁻¹·dA) (complex A) and stays put (real A)."""
    from . import linalg
    lu = LU._data
    if _lapack.supports(lu) and (np.diagonal(lu, axis1=-2, axis2=-1) == 0).any():
        # Singular A: PyTorch solves with the forward's LU, unchecked (log|det| is not C¹ there), so the tangent
        # is inf/NaN where a checked solve would raise. (The LU is of Aᵀ for a contiguous real A: see _det_jvp.)
        use_a_t = A._data.flags.c_contiguous and not A.is_complex()
        with np.errstate(all="ignore"):
            a_inv_e = _lapack.getrs(lu, pivots._data, A_t._data, _lapack.trans_letter(use_a_t, lu))
        tr = Tensor._make(a_inv_e).diagonal(0, -2, -1).sum(-1)
    else:
        # (A detached: PyTorch solves with the forward's LU, a non-differentiable output, so backward through
        # the tangent does not reach A)
        tr = linalg.solve(A.detach(), A_t).diagonal(0, -2, -1).sum(-1)
    if A.is_complex():
        return sign * (tr.imag * 1j), tr.real
    return _ops().zeros_like(sign), tr


def _cholesky_jvp(dA, L, upper):
    """A = LLᴴ: dL = L·Φ(L⁻¹ dA L⁻ᴴ), Φ the lower triangle with half the diagonal (PyTorch's cholesky_jvp)."""
    from . import linalg
    L_ = L.mH if upper else L
    dL = linalg.solve_triangular(L_, dA, upper=False, left=True)
    dL = linalg.solve_triangular(L_.mH, dL, upper=True, left=False)
    dL = L_.matmul(dL.tril() - (dL.diagonal(0, -2, -1) * 0.5).diag_embed())
    return dL.mH if upper else dL


def _solve_triangular_jvp(A, A_t, B_t, X, upper, left, unitriangular):
    """X = A⁻¹B (A triangular): dX = A⁻¹(dB - dA·X), dA restricted to A's triangle (no diagonal if unit)."""
    from . import linalg
    dA = (A_t.triu(int(unitriangular)) if upper else A_t.tril(-int(unitriangular)))
    product = dA.matmul(X) if left else X.matmul(dA)
    rhs = product.neg() if B_t is None else B_t - product  # (no tangent: PyTorch's zero tensor, so -0.0)
    return linalg.solve_triangular(A, rhs, upper=upper, left=left, unitriangular=unitriangular)


def _eigh_jvp(dA, L, V):
    """A = V diag(L) Vᴴ: dL = diag(Vᴴ dA V), dV = V·(Vᴴ dA V / (L_i - L_j)) off the diagonal (PyTorch's)."""
    dP = V.mH.matmul(dA).matmul(V)
    dL = dP.diagonal(0, -2, -1)
    dL = dL.real if dA.is_complex() else dL
    from ._creation import eye
    from ._dtypes import bool_
    dV = dP / (L.unsqueeze(-2) - L.unsqueeze(-1))
    dV = dV.masked_fill(eye(L.shape[-1], dtype=bool_), 0)  # (the diagonal divided by 0: no rotation)
    return dL, V.matmul(dV)


def _solve_jvp(A, B, A_t, B_t, result, left):
    """X = A⁻¹B: dX = A⁻¹(dB - dA·X); with left=False, X = BA⁻¹: dX = (dB - X·dA)A⁻¹.

    PyTorch's linalg_solve_jvp applies A⁻¹ through the forward's LU, a non-differentiable output: backward
    through the tangent reaches A only through X, not through that A⁻¹. A detached A does the same."""
    from . import linalg
    A = A.detach()
    if result.dim() < A.dim():  # a vector right-hand side: dA·x as a matrix-vector product
        return linalg.solve(A, B_t - A_t.matmul(result.unsqueeze(-1)).squeeze(-1), left=left)
    if left:
        return linalg.solve(A, B_t - A_t.matmul(result))
    return linalg.solve(A, B_t - result.matmul(A_t), left=False)


# (S_sym_argsize_minus_1 = min(m, n): PyTorch saves S.size(-1); here the caller passes it as an argument)
linalg_svd = Op("_linalg_svd", "LinalgSvdBackward0", _svd_forward, inputs=("A",),
                args=("full_matrices", "S_sym_argsize_minus_1"), outputs=("U", "S", "Vh"), undefined_grads=True,
                jvp=lambda A_t, U, S, Vh, full_matrices: linalg_svd_jvp(A_t, U, S, Vh, full_matrices),
                A=lambda grads, U, S, Vh, full_matrices, S_sym_argsize_minus_1:
                    svd_backward(grads, U, S, Vh, full_matrices, S_sym_argsize_minus_1))
linalg_cholesky_ex = Op("linalg_cholesky_ex", "LinalgCholeskyExBackward0", _cholesky_forward, inputs=("A",),
                        args=("upper",), outputs=("L", "info"), differentiable_outputs=1,
                        jvp=lambda A_t, L, upper: _cholesky_jvp(A_t, L, upper),
                        A=lambda grad, L, upper: cholesky_backward(grad, L, upper))
# torch.cholesky (deprecated): the same factor, its own node (callers check info first: see linalg.py)
cholesky = Op("cholesky", "CholeskyBackward0", lambda a, upper: _cholesky_forward(a, upper)[0], args=("upper",),
              self=lambda grad, upper, result: cholesky_backward(grad, result, upper))
# (both formulas take every saved value, so the node saves them all whichever input requires grad, as PyTorch)
linalg_solve_ex = Op("linalg_solve_ex", "LinalgSolveExBackward0", _solve_forward, inputs=("A", "B"),
                     args=("left",), outputs=("result", "LU", "pivots", "info"), differentiable_outputs=1,
                     # X = A⁻¹B: dX = A⁻¹(dB - dA·X)  (X·A = B: dX = (dB - X·dA)A⁻¹)
                     jvp=lambda A, B, A_t, B_t, result, left: _solve_jvp(A, B, A_t, B_t, result, left),
                     A=joint(linalg_solve_backward), B=joint(linalg_solve_backward))
linalg_pinv = Op("linalg_pinv", "LinalgPinvBackward0", _pinv_forward, args=("atol", "rtol", "hermitian"),
                 jvp=lambda self_t, self, result: pinv_jvp(self, result, self_t),
                 self=lambda grad, result, self: pinv_backward(grad, result, self))


def pinv_jvp(A, pinvA, dA):
    """d pinv(A)·dA (PyTorch's pinv_jvp: products arranged to keep the matrices small)."""
    dAh, pinvAh = dA.mH, pinvA.mH
    if A.size(-2) <= A.size(-1):
        K = pinvAh.matmul(dAh)
        return (pinvA.matmul(K - K.mH - K.matmul(A.matmul(pinvA)))
                + (dAh - pinvA.matmul(A.matmul(dAh))).matmul(pinvAh.matmul(pinvA)))
    K = pinvA.matmul(dA)
    Kh = K.mH
    return ((Kh - K - pinvA.matmul(A).matmul(Kh)).matmul(pinvA)
            + pinvA.matmul(pinvAh).matmul(dAh - dAh.matmul(A).matmul(pinvA)))
linalg_lstsq = Op("linalg_lstsq", "LinalgLstsqBackward0", _lstsq_forward, inputs=("self", "b"),
                  args=("rcond", "driver"), outputs=("solution", "residuals", "rank", "singular_values"),
                  differentiable_outputs=2, undefined_grads=True,
                  jvp=lambda self, b, self_t, b_t, solution, residuals:
                      linalg_lstsq_jvp(self, b, self_t, b_t, solution, residuals),
                  self=joint(linalg_lstsq_backward), b=joint(linalg_lstsq_backward))


# ---- forward AD of the decompositions (PyTorch's linalg_qr_jvp, linalg_svd_jvp, linalg_lstsq_*_jvp) ---------

def linalg_qr_jvp(dA, Q, R, mode):
    """A = QR.  m >= n: dR = syminv(sym(Qᴴ dA R⁻¹)) R, dQ = dA R⁻¹ - Q syminv(·);  m < n: dQ from Qᴴ dA₁ R₁⁻¹."""
    if mode == "r":
        raise RuntimeError("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please "
                           "use linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr.")
    m, n = dA.shape[-2], dA.shape[-1]
    if mode == "complete" and m > n:
        raise RuntimeError("The QR decomposition is not differentiable when mode='complete' and nrows > ncols.")
    if m >= n:
        dARinv = linalg_solve_triangular(R, dA, upper=True, left=False, unitriangular=False)
        X = _mH(Q).matmul(dARinv)
        X = X + _mH(X)                                   # sym(Qᴴ dA R⁻¹), then syminv: the upper triangle,
        dR = X.triu() - 0.5 * diag_embed(X.diagonal(0, -2, -1), offset=0, dim1=-2, dim2=-1)  # half diagonal
        return dARinv - Q.matmul(dR), dR.matmul(R)
    # m < n: Qᴴ dQ is skew, its strict lower triangle (and imaginary diagonal) is that of Qᴴ dA₁ R₁⁻¹
    QHdA = _mH(Q).matmul(dA)
    X = linalg_solve_triangular(R[..., :m], QHdA[..., :m], upper=True, left=False, unitriangular=False)
    if X.is_complex():
        X = X.tril() - diag_embed(X.diagonal(0, -2, -1).real, offset=0, dim1=-2, dim2=-1)  # trilIm
        dQ = X - _mH(X)
        dQ = dQ - 0.5 * diag_embed(dQ.diagonal(0, -2, -1), offset=0, dim1=-2, dim2=-1)       # triliminv
    else:
        X = X.tril(-1)
        dQ = X - X.mT
    return Q.matmul(dQ), QHdA - dQ.matmul(R)


def linalg_svd_jvp(dA, U, S, Vh, full_matrices):
    """A = U diag(S) Vᴴ, dP = Uᴴ dA V:  dS = Re diag(dP);  dU = U sym(dX S)/E (+ (I - UUᴴ) dA V S⁻¹ if m > n);
    dVᴴ = -sym(S dX)/E Vᴴ (+ S⁻¹ Uᴴ dA (I - VVᴴ) if m < n);  dX = dP - diag(dS),  E_jk = S_k² - S_j²."""
    m, n, k = dA.shape[-2], dA.shape[-1], S.shape[-1]
    if full_matrices:  # only the first k singular vectors move; the rest get a zero tangent (as PyTorch)
        U, Vh = U[..., :k], Vh[..., :k, :]
    V = _mH(Vh)
    dP = _mH(U).matmul(dA.matmul(V)) if m < n else _mH(U).matmul(dA).matmul(V)
    dS = dP.diagonal(0, -2, -1)
    dS = dS.real if dA.is_complex() else dS
    dP = dP - diag_embed(dS, offset=0, dim1=-2, dim2=-1)
    S2 = S * S
    E = S2.unsqueeze(-2) - S2.unsqueeze(-1) + _eye(k, S)  # (1 on the diagonal: a 0/1 there)
    diag_term = None
    if dA.is_complex():                                   # i Im(diag(dX)) / (2S)
        diag_term = diag_embed(dP.diagonal(0, -2, -1) / (2 * S), offset=0, dim1=-2, dim2=-1)
    dUaux = dP * S.unsqueeze(-2)
    dUaux = (dUaux + _mH(dUaux)) / E
    dU = U.matmul(dUaux if diag_term is None else dUaux + diag_term)
    if m > n:
        dAVSinv = dA.matmul(V / S.unsqueeze(-2))
        dU = dU + dAVSinv - U.matmul(_mH(U).matmul(dAVSinv))
        if full_matrices:
            dU = _ops().cat([dU, _ops().zeros(tuple(dU.shape[:-1]) + (m - n,), dtype=dU.dtype)], -1)
    dVhaux = dP * (-S).unsqueeze(-1)
    dVhaux = (dVhaux + _mH(dVhaux)) / E
    dVh = (dVhaux if diag_term is None else dVhaux + diag_term).matmul(Vh)
    if m < n:
        UHdASinv = (_mH(U) / S.unsqueeze(-1)).matmul(dA)
        dVh = dVh + UHdASinv - UHdASinv.matmul(V).matmul(Vh)
        if full_matrices:
            dVh = _ops().cat([dVh, _ops().zeros(tuple(dVh.shape[:-2]) + (n - m, n), dtype=dVh.dtype)], -2)
    return dU, dS, dVh


def linalg_lstsq_jvp(A, B, dA, dB, X, L):
    """X = A⁺B: dX = d(A⁺)B + A⁺dB;  L = Σ|AX - B|²: dL = 2 Re Σ (AX - B)·conj(dA X - dB) (X held fixed, Danskin)."""
    vector = X.dim() < A.dim()  # (a vector B gives X of A's dims less one, a matrix B gives X of A's dims)
    Bm, dBm = (B.unsqueeze(-1), dB.unsqueeze(-1)) if vector else (B, dB)
    pinvA = linalg_pinv(A, atol=None, rtol=None, hermitian=False)
    dX = pinv_jvp(A, pinvA, dA).matmul(Bm) + pinvA.matmul(dBm)
    shape = dX.shape[:-1] if vector else dX.shape
    if shape != X.shape:
        # a matrix B of one dim less than A (batch broadcast with A's all but its last dim) is a matrix of its own
        # batch to matmul: PyTorch's tangent then has that product's shape, which it refuses to set
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(X.shape)} while the given "
                           f"forward gradient is of size {list(shape)}.")
    if L.numel() == 0:
        return (dX.squeeze(-1) if vector else dX), L.clone()
    Xm = X.unsqueeze(-1) if vector else X
    r = A.matmul(Xm) - Bm
    dr = dA.matmul(Xm) - dBm
    prod = r * dr.conj()
    dL = 2 * (prod.real if prod.is_complex() else prod).sum(-2)
    return (dX.squeeze(-1) if vector else dX), dL


# ---- coverage pass: more activations, losses, embedding, padding, layer norm ----------------------
# softplus, elu (selu, celu), log_sigmoid and the smooth L1 / Huber losses have their gradients as ops
# of their own, as in PyTorch (softplus_backward ...): computed in NumPy like PyTorch's kernels, and a
# gradient built with create_graph=True ends in PyTorch's node (SoftplusBackwardBackward0 ...), whose
# formulas are PyTorch's *_double_backward. The other gradients here are written with tensor ops.

def _np_softplus(x, beta, threshold):
    # log(1 + e^(βx))/β, and x itself where βx > threshold (no overflow)
    if x.dtype == np.float64:   # (SLEEF's exp and log1p on vector blocks, glibc's on the rest)
        return _float_math.softplus64(x, beta, threshold)
    with np.errstate(over="ignore"):
        soft = np.log1p(np.exp(beta * x)) / beta
    return np.where(x * beta > threshold, x, soft).astype(x.dtype, copy=False)


def _np_elu(x, alpha, scale, input_scale):
    # scale·x for x > 0, scale·α(e^(input_scale·x) - 1) otherwise
    return np.where(x > 0, scale * x, scale * alpha * np.expm1(input_scale * np.minimum(x, 0))).astype(
        x.dtype, copy=False)


_elu_forward = _float_math.for_float32(_float_math.elu, _float_math.or_float64(_float_math.elu, _np_elu))


def _np_log_sigmoid(x):
    # log σ(x) = min(x, 0) - log(1 + e^-|x|); the buffer is e^-|x| (PyTorch saves it)
    if _is_half(x.dtype):   # float16/bfloat16: the float32 kernel below, both outputs rounded once
        return tuple(r.astype(x.dtype) for r in _np_log_sigmoid(x.astype(np.float32)))
    if x.dtype == np.float32:   # PyTorch's vector code on every element: SLEEF's expf and log1pf
        buffer = _float_math.sleef_expf(-np.abs(x))
        return np.minimum(x, np.float32(0)) - _float_math.sleef_log1pf(buffer), buffer
    if x.dtype == np.float64:   # (SLEEF's exp and log1p for double)
        return _float_math.log_sigmoid64(x)
    buffer = np.exp(-np.abs(x))
    return (np.minimum(x, 0) - np.log1p(buffer)).astype(x.dtype, copy=False), buffer.astype(x.dtype, copy=False)


# The two losses' kernels treat the half types differently (measured against PyTorch): smooth L1 computes a
# bfloat16 loss in float32 and rounds once but a float16 one step by step in float16 (β rounded to it first);
# Huber the other way round. "Step by step": every operation rounds to the tensor's dtype, with the numbers
# (β, δ, 0.5) of that dtype (typed explicitly: NumPy widens bfloat16 times a Python float to float32).
def _smooth_l1(x, t, beta):
    if x.dtype.kind == "V":   # bfloat16 (ml_dtypes): in float32, one rounding
        return _smooth_l1(x.astype(np.float32), t.astype(np.float32), beta).astype(x.dtype)
    d = np.abs(x - t)
    if beta <= 0:
        return d
    b, half = x.dtype.type(beta), x.dtype.type(0.5)
    return np.where(d < b, half * d * d / b, d - half * b)


def _huber(x, t, delta):
    if x.dtype == np.float16:   # in float32, δ too, one rounding
        return _huber(x.astype(np.float32), t.astype(np.float32), delta).astype(x.dtype)
    d = np.abs(x - t)
    dl, half = x.dtype.type(delta), x.dtype.type(0.5)
    return np.where(d < dl, half * d * d, dl * (d - half * dl))


def _np_softplus_backward(g, x, beta, threshold):
    # g·σ(βx) as PyTorch's kernel computes it, z = e^(βx), g·z/(z + 1); g itself where βx > threshold
    if x.dtype == np.float32 and g.dtype == np.float32:   # SLEEF's expf on whole vectors, glibc's on the rest
        bx = x * np.float32(beta)                         # (of the (g, x) pair: a strided one makes it all scalar)
        z = _float_math.two_paths(lambda _, v: _float_math.sleef_expf(v * np.float32(beta)),
                                  lambda _, v: _float_math.glibc_expf(v * np.float32(beta)), g, x)
        return np.where(bx > np.float32(threshold), g, g * z / (z + np.float32(1)))
    if x.dtype == np.float64 and g.dtype == np.float64:   # SLEEF's exp on whole vectors, glibc's on the rest
        return _float_math.softplus_backward64(g, x, beta, threshold)
    if _is_half(x.dtype) and g.dtype == x.dtype:   # float16/bfloat16: the float32 kernel, rounded once
        return _np_softplus_backward(g.astype(np.float32), x.astype(np.float32), beta, threshold).astype(x.dtype)
    z = np.exp(x * beta)
    return np.where(x * beta > threshold, g, g * z / (z + 1)).astype(np.result_type(g, x), copy=False)


def softplus_double_backward(grad, self, beta, threshold):
    """d σ(βx)/dx = β·σ(βx)(1 - σ(βx)) below the threshold, 0 above (PyTorch's softplus_double_backward)."""
    x = mul_scalar(self, other=beta)   # (PyTorch multiplies by the Scalar beta: MulBackward1 nodes)
    return mul_scalar(sigmoid_backward(grad, x.sigmoid()) * (x < threshold).type_as(grad), other=beta)


softplus = Op("softplus", "SoftplusBackward0", _float_math.for_float32(_float_math.softplus, _np_softplus),
              args=("beta", "threshold"), jvp="element_wise",
              # d softplus = σ(βx), and 1 above the threshold
              self=lambda grad, self, beta, threshold: softplus_backward(grad, self, beta=beta, threshold=threshold))
softplus_backward = Op(
    "softplus_backward", "SoftplusBackwardBackward0", _np_softplus_backward, inputs=("grad_output", "self"),
    args=("beta", "threshold"), jvp="element_wise",
    grad_output=lambda grad, self, beta, threshold:                                       # linear in g
        softplus_backward(grad, self, beta=beta, threshold=threshold),
    self=lambda grad, grad_output, self, beta, threshold:
        softplus_double_backward(grad * grad_output, self, beta, threshold))


def _np_elu_backward(g, x, alpha, scale, input_scale, is_result):
    # PyTorch's kernel: g·scale above 0; at or below 0 g·input_scale·α·scale·e^(input_scale·x), or from the
    # result y (in-place elu_) g·input_scale·(y + α·scale)
    if g.dtype == x.dtype and x.dtype in (np.float32, np.float64):   # its rounding: SLEEF's exp on whole
        return _float_math.elu_backward(g, x, alpha, scale, input_scale, is_result)   # vectors (_float_math.py)
    if g.dtype == x.dtype and _is_half(x.dtype):   # float16/bfloat16: the float32 kernel, rounded once
        return _float_math.elu_backward(g.astype(np.float32), x.astype(np.float32), alpha, scale, input_scale,
                                        is_result).astype(x.dtype)
    if is_result:
        negative = g * input_scale * (x + alpha * scale)
    else:
        negative = g * input_scale * (alpha * scale) * np.exp(x * input_scale)
    return np.where(x <= 0, negative, g * scale).astype(np.result_type(g, x), copy=False)


def elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result):
    """d/dx of elu_backward: 0 above 0; below, input_scale times the slope (from the result y: input_scale·g)."""
    negative = (self_or_result < 0).type_as(grad)
    scaled = mul_scalar(grad * grad_output, other=input_scale)   # (a Scalar product, as PyTorch's: MulBackward1)
    if is_result:
        return scaled * negative
    return elu_backward(scaled, self_or_result, alpha=alpha, scale=scale, input_scale=input_scale,
                        is_result=False) * negative


elu = Op("elu", "EluBackward0", _elu_forward, args=("alpha", "scale", "input_scale"), jvp="element_wise",
         # d elu = scale for x > 0, scale·α·input_scale·e^(input_scale·x) otherwise
         self=lambda grad, self, alpha, scale, input_scale:
             elu_backward(grad, self, alpha=alpha, scale=scale, input_scale=input_scale, is_result=False))
celu = Op("celu", "CeluBackward0", lambda x, alpha: _elu_forward(x, alpha, 1.0, 1.0 / alpha), args=("alpha",),
          jvp="element_wise",
          # celu(x) = max(0, x) + min(0, α(e^(x/α) - 1)): elu's gradient with scale 1, input_scale 1/α
          # (there, as in derivatives.yaml, 1.0 / alpha.toFloat(): α rounded to float32 first)
          self=lambda grad, self, alpha: elu_backward(
              grad, self, alpha=alpha, scale=1, input_scale=1.0 / float(np.float32(alpha)), is_result=False))
elu_backward = Op(
    "elu_backward", "EluBackwardBackward0", _np_elu_backward, inputs=("grad_output", "self_or_result"),
    args=("alpha", "scale", "input_scale", "is_result"), jvp="element_wise",
    grad_output=lambda grad, alpha, scale, input_scale, is_result, self_or_result:      # linear in g
        elu_backward(grad, self_or_result, alpha=alpha, scale=scale, input_scale=input_scale, is_result=is_result),
    self_or_result=lambda grad, grad_output, alpha, scale, input_scale, is_result, self_or_result:
        elu_double_backward(grad, grad_output, alpha, scale, input_scale, is_result, self_or_result))


def _negative_slope_in_place(name: str, slope) -> None:
    # From the result alone, a negative slope cannot tell which side of 0 the input was on.
    if slope < 0:
        raise RuntimeError(f"In-place {name} backward calculation is triggered with a negative slope which is not "
                           "supported. This is caused by calling in-place forward function with a negative slope, "
                           "please call out-of-place version instead."
                           + (" File an issue at https://github.com/pytorch/pytorch if you do require supporting "
                              "in-place leakRelu backward calculation with negative slope" if name == "leakyReLu"
                              else ""))


def _elu_from_result(grad, result, alpha, scale, input_scale):
    _negative_slope_in_place("elu", alpha)
    return elu_backward(grad, result, alpha=alpha, scale=scale, input_scale=input_scale, is_result=True)


def _shrunk(x, lambd):
    return (x >= -lambd) & (x <= lambd)   # the band [-λ, λ] both shrinks send to 0


def _nan_split(g, x, vector, scalar, vectors: int = 1, always: bool = False):
    """A backward kernel whose vector and scalar code differ only at a nan x (hardtanh_backward, the shrinks'
    backward ...): PyTorch's vector code runs on whole blocks of ``vectors`` AVX512 vectors (16 floats or 8
    doubles each), its scalar code on the rest (see _float_math.two_paths). Without a nan, one path."""
    if x.dtype.kind != "f" or x.dtype.itemsize < 4 or not (always or np.isnan(x).any()):
        return scalar(g, x)
    block = (16 if x.dtype == np.float32 else 8) * vectors
    return _float_math.two_paths(vector, scalar, g, x, block=block)


def _softshrink(x, lambd):
    """x ∓ λ outside the band (by the sign of x: a nan x stays nan), 0 inside: PyTorch's vector code gives +0
    there, its scalar code x·0 (-0 for a negative x), on the blocks of one AVX512 vector (see _nan_split)."""
    def kernel(zero):
        return lambda g, v: np.where(_shrunk(v, lambd), zero(v), np.where(v > 0, v - lambd, v + lambd)).astype(
            v.dtype, copy=False)
    return _nan_split(x, x, kernel(lambda v: 0), kernel(lambda v: v * 0), always=True)


def _shrink_backward(g, x, lambd):
    # (vector code: g kept where x < -λ or x > λ, so a nan x gets 0; scalar code: 0 inside the band, so g)
    return _nan_split(g, x, lambda g, x: np.where((x < -lambd) | (x > lambd), g, 0).astype(g.dtype, copy=False),
                      lambda g, x: np.where(_shrunk(x, lambd), 0, g).astype(g.dtype, copy=False))


def _shrink_backward_jvp(grad_t, self, lambd, result):
    """PyTorch's where((self_p > λ) | (self_p < -λ), grad_t, 0): the band and a nan x pick 0, so a nan or inf
    tangent there stays out (hessian through softshrink)."""
    ops = _ops()
    outside = ops.logical_or(ops.gt(self, lambd), ops.lt(self, -lambd))
    return ops.where(outside, grad_t, ops.zeros((), dtype=result.dtype).expand_as(result))


hardshrink = Op("hardshrink", "HardshrinkBackward0",
                lambda x, lambd: np.where(_shrunk(x, lambd), 0, x).astype(x.dtype, copy=False), args=("lambd",),
                jvp="element_wise",
                self=lambda grad, self, lambd: hardshrink_backward(grad, self, lambd=lambd))  # 1 outside the band
hardshrink_backward = Op(
    "hardshrink_backward", "HardshrinkBackwardBackward0", _shrink_backward,
    inputs=("grad_out", "self"), args=("lambd",),
    jvp=lambda grad_out_t, self, lambd, result: _shrink_backward_jvp(grad_out_t, self, lambd, result),
    grad_out=lambda grad, self, lambd: hardshrink_backward(grad, self, lambd=lambd),        # linear in g
    self=lambda grad: _ops().zeros_like(grad))
softshrink = Op("softshrink", "SoftshrinkBackward0",
                lambda x, lambd: _softshrink(x, lambd), args=("lambd",), jvp="element_wise",
                self=lambda grad, self, lambd: softshrink_backward(grad, self, lambd=lambd))  # 1 outside the band
softshrink_backward = Op(
    "softshrink_backward", "SoftshrinkBackwardBackward0", _shrink_backward,
    inputs=("grad_output", "self"), args=("lambd",),
    jvp=lambda grad_output_t, self, lambd, result: _shrink_backward_jvp(grad_output_t, self, lambd, result),
    grad_output=lambda grad, self, lambd: softshrink_backward(grad, self, lambd=lambd),     # linear in g
    self=lambda grad: _ops().zeros_like(grad))


# The in-place forms (elu_, selu_, celu_, leaky_relu_) keep only the result: their own nodes (…Backward1)
elu_inplace = Op("elu", "EluBackward1", _elu_forward, args=("alpha", "scale", "input_scale"), jvp="element_wise",
                 # below 0, d elu = input_scale·(y + α·scale) in terms of the result y
                 self=lambda grad, result, alpha, scale, input_scale:
                     _elu_from_result(grad, result, alpha, scale, input_scale))
celu_inplace = Op("celu", "CeluBackward1", lambda x, alpha: _elu_forward(x, alpha, 1.0, 1.0 / alpha),
                  args=("alpha",), jvp="element_wise",
                  self=lambda grad, result, alpha: _elu_from_result(grad, result, alpha, 1, 1.0 / alpha))
hardtanh = Op("hardtanh", "HardtanhBackward0",   # (into empty_like(self), as PyTorch's: see _like_self)
              lambda x, min_val, max_val: _like_self(x, np.clip(x, min_val, max_val).astype(x.dtype, copy=False)),
              args=("min_val", "max_val"), jvp="element_wise",
              # slope 1 strictly inside (min_val, max_val), 0 outside
              self=lambda grad, self, min_val, max_val:
                  hardtanh_backward(grad, self, min_val=min_val, max_val=max_val))
# its gradient as an op (PyTorch's hardtanh_backward): linear in g, piecewise constant in x
hardtanh_backward = Op(
    "hardtanh_backward", "HardtanhBackwardBackward0",
    # (PyTorch's scalar code zeroes x <= min or x >= max: a nan x passes its gradient through; its vector code
    # keeps g where min < x < max: a nan x gets 0)
    lambda g, x, min_val, max_val: _nan_split(
        g, x, lambda g, x: np.where((x > min_val) & (x < max_val), g, 0).astype(g.dtype, copy=False),
        lambda g, x: np.where((x <= min_val) | (x >= max_val), 0, g).astype(g.dtype, copy=False)),
    inputs=("grad_output", "self"), args=("min_val", "max_val"),
    grad_output=lambda grad, self, min_val, max_val: hardtanh_backward(grad, self, min_val=min_val, max_val=max_val),
    self=lambda grad: _ops().zeros_like(grad))
def _np_log_sigmoid_backward(g, x, buffer):
    # g·σ(-x) as PyTorch's kernel computes it: z = e^-|x| (the buffer), g·(1 - z/(1+z)) for x < 0, else g·z/(1+z)
    if _is_half(g.dtype) and g.dtype == x.dtype:   # float16/bfloat16: in float32, rounded once (opmath)
        f32 = np.float32
        return _np_log_sigmoid_backward(g.astype(f32), x.astype(f32), buffer.astype(f32)).astype(g.dtype)
    r = buffer / (1 + buffer)
    return (g * np.where(x < 0, 1 - r, r)).astype(np.result_type(g, x), copy=False)


def log_sigmoid_double_backward(grad, self):
    """d σ(-x)/dx = (σ(x) - 1)·σ(x)  (PyTorch's log_sigmoid_double_backward)."""
    z = self.sigmoid()
    return grad * sub_scalar(z, other=1) * z   # (C++ z - 1: sub.Scalar, a SubBackward1 under create_graph)


log_sigmoid = Op("log_sigmoid_forward", "LogSigmoidBackward0",
                 # (both outputs new C-order tensors, as PyTorch's, whatever x's layout)
                 lambda x: tuple(_strides.contiguous(np.asarray(r)) for r in _np_log_sigmoid(x)),
                 outputs=("output", "buffer"), differentiable_outputs=1, jvp="element_wise",
                 self=lambda grad, self, buffer: log_sigmoid_backward(grad, self, buffer))    # d log σ(x) = σ(-x)
def _log_sigmoid_backward_forward(g, x, buffer):
    # (PyTorch's CPU kernel writes into empty_like(grad_output): grad's layout, C order for an expanded one)
    result = _np_log_sigmoid_backward(g, x, buffer)
    if result.shape != g.shape or _strides.preserve_strides(g) is None:
        return _strides.contiguous(result)
    return _strides.copy_into(_strides.empty_like(g, result.dtype), result)


log_sigmoid_backward = Op(
    "log_sigmoid_backward", "LogSigmoidBackwardBackward0", _log_sigmoid_backward_forward,
    inputs=("grad_output", "self", "buffer"), jvp="element_wise",     # (no edge to the buffer, as in PyTorch)
    grad_output=lambda grad, self, buffer: log_sigmoid_backward(grad, self, buffer),       # linear in g
    self=lambda grad, grad_output, self: log_sigmoid_double_backward(grad * grad_output, self))
log_sigmoid_backward.elementwise = False   # (laid out as empty_like(grad_output), not by TensorIterator)
def _in_opmath(x):
    # PyTorch computes half-precision activations in float32 and rounds once
    return x.astype(np.float32) if x.dtype.itemsize < 4 and x.dtype.kind in "fV" else x   # (bfloat16's kind: V)


hardsigmoid = Op("hardsigmoid", "HardsigmoidBackward0",
                 lambda x: (np.clip(_in_opmath(x) + 3, 0, 6) / 6).astype(x.dtype, copy=False), jvp="element_wise",
                 # 1/6 on (-3, 3), through PyTorch's hardsigmoid_backward (which has no derivative of its own)
                 self=lambda grad, self: _hardsigmoid_backward()(grad, self))


def _hardsigmoid_backward():
    return NOT_IMPLEMENTED["hardsigmoid_backward"]


hardswish = Op("hardswish", "HardswishBackward0",
               lambda x: (_in_opmath(x) * np.clip(_in_opmath(x) + 3, 0, 6) / 6).astype(x.dtype, copy=False),
               jvp="element_wise",
               # x·relu6(x+3)/6: 0 below -3, (2x+3)/6 on [-3, 3], 1 above
               self=lambda grad, self: hardswish_backward(grad, self))
# its gradient as an op (PyTorch's hardswish_backward): 0 up to -3, g·(x/3 + ½) on (-3, 3), g from 3 on
hardswish_backward = Op(
    "hardswish_backward", "HardswishBackwardBackward0",
    lambda g, x: _nan_split(g, x, lambda g, x: np.where(   # (vector code: a nan x gives a nan gradient)
        x >= 3, g, np.where(x <= -3, 0, _in_opmath(g) * (_in_opmath(x) / 3 + 0.5))).astype(g.dtype, copy=False),
        lambda g, x: np.where(x <= -3, 0, np.where(x < 3, _in_opmath(g) * (_in_opmath(x) / 3 + 0.5), g)).astype(
            g.dtype, copy=False), vectors=2),
    inputs=("grad_output", "self"),
    grad_output=lambda grad, self: hardswish_backward(grad, self),                      # linear in g
    # (PyTorch's grad * grad_output / 3.0 divides by a C++ Scalar: DivBackward1)
    self=lambda grad, grad_output, self: _ops().where((self > -3) & (self < 3),
                                                      div_scalar(grad * grad_output, other=3.0), 0.0))


def mish_backward(grad, self):
    """d mish: PyTorch's mish_backward kernel when nothing records (its rounding: _float_math.mish_backward),
    else its infinitely_differentiable_mish_backward, the same formula in tensor ops."""
    from . import _dispatch
    # (an is_grads_batched backward too, one row at a time here: PyTorch's batch rule runs the same kernel)
    batched = not _STATE.enabled and _vmap_batched.DEPTH[0] and _dispatch._vmap_only()
    kernel = None
    if (_untracked() or batched) and grad._data.dtype == self._data.dtype:
        kernel = _float_math.mish_backward64 if grad._data.dtype == np.float64 else _float_math.for_float32(
            _float_math.mish_backward, None) if grad._data.dtype in (np.float32, np.float16, _dtypes.bfloat16.np) \
            else None   # (float16/bfloat16: the float32 kernel on the values in float32, rounded once)
    if kernel is not None:
        out = _numpy_result(_binary_op_layout(kernel), grad._data, self._data)
        return _vmap_batched.follow(out, grad, self) if batched else out
    sigmoid = self.sigmoid()
    tanh_softplus = self.exp().log1p().tanh()
    one_minus = _one_minus(tanh_softplus * tanh_softplus)  # (C++ builds an operator's right operand first)
    return grad * (tanh_softplus + self * sigmoid * one_minus)


mish = Op("mish", "MishBackward0",
          _float_math.for_float32(_float_math.mish, _float_math.or_float64(
              _float_math.mish64, lambda x: (x * np.tanh(_np_softplus(x, 1.0, 20.0))).astype(x.dtype, copy=False))),
          jvp="element_wise",
          # d x·tanh(sp(x)) = tanh(sp) + x·σ(x)·(1 - tanh²(sp)),  sp(x) = log(1 + e^x)
          self=mish_backward)


def _loss_norm(x, t, reduction) -> float:
    n = np.broadcast(x, t).size   # mean: d/dx is divided by the count (no elements: nothing to scale)
    return 1.0 / n if reduction == 1 and n else 1.0


# The smooth L1 / Huber backward kernels' vector code covers whole vectors (16 floats, 8 doubles, 32 halves:
# blocks of two, then one more), the scalar code the rest (measured against PyTorch). Huber's float16 and bfloat16
# code is the float32 code in the half type: every operation rounds to it (ml_dtypes' bfloat16 arithmetic does).
_LOSS_BLOCKS = {8: 8, 4: 16, 2: 32}
_LOSS_DTYPES = (np.float32, np.float64, np.float16, _dtypes.bfloat16.np)


def _np_smooth_l1_backward(g, x, t, reduction, beta):
    # PyTorch's kernel, d = x - t: -g for d <= -β, g for d >= β, d·g/β between (mean: / count)
    dtype = np.result_type(g, x, t)
    if beta <= 0 or dtype not in _LOSS_DTYPES:
        d = x - t
        slope = np.where(d <= -beta, -g, np.where(d >= beta, g, d * g / beta)) if beta > 0 else np.sign(d) * g
        return (slope * _loss_norm(x, t, reduction)).astype(dtype, copy=False)
    # cpu_kernel_vec rounds differently on its two paths: vector blocks compute norm·(d/β or ±1)·g, the scalar
    # tail ±norm·g or norm·d·g/β (left to right); norm and β are numbers of the tensor's dtype. (Unlike the
    # Huber one, this kernel computes float16 and bfloat16 in float32, on the half types' vector lengths, and
    # rounds once.)
    compute = np.dtype(np.float32) if _is_half(dtype) else dtype
    norm, b = compute.type(_loss_norm(x, t, reduction)), compute.type(beta)

    def vector(x, t, g):
        d = x - t
        return norm * np.where(np.abs(d) >= b, np.where(d > 0, compute.type(1), compute.type(-1)), d / b) * g

    def scalar(x, t, g):
        # (β is the kernel's double argument here: a float32 norm·d·g is widened before the division)
        d = x - t
        inside = ((norm * d * g).astype(np.float64) / beta).astype(compute, copy=False)
        return np.where(d <= -b, -norm * g, np.where(d >= b, norm * g, inside))

    x, t, g = (np.asarray(v, compute) for v in (x, t, g))
    block = _LOSS_BLOCKS[dtype.itemsize]
    return _float_math.two_paths(vector, scalar, x, t, g, block=block).astype(dtype, copy=False)


def smooth_l1_loss_double_backward(grad, self, target, reduction, beta):
    """d/dx of smooth_l1_loss_backward: 1/β inside |x - t| < β, 0 outside (mean: / count)."""
    if beta == 0:
        return _ops().zeros_like(grad)
    # (C++'s t / beta: a Scalar division, which makes a ZeroTensor grad, a missing tangent's, plain zeros)
    grad_input = div_scalar(grad * ((self - target).abs() < beta).type_as(grad), other=beta)
    return div_scalar(grad_input, other=grad_input.numel(), out=grad_input) if reduction == 1 else grad_input


def _np_huber_backward(g, x, t, reduction, delta):
    # PyTorch's kernel, d = x - t: -g·δ for d <= -δ, g·δ for d >= δ, d·g between (mean: / count)
    if t.dtype != x.dtype:  # (its forward takes mixed dtypes, its backward does not)
        from ._dtypes import from_numpy
        from ._ops import _legacy
        raise RuntimeError(f"Found dtype {_legacy(from_numpy(t.dtype))} but expected {_legacy(from_numpy(x.dtype))}")
    dtype = np.result_type(g, x, t)
    if dtype not in _LOSS_DTYPES:
        d = x - t
        slope = np.where(d <= -delta, -g * delta, np.where(d >= delta, g * delta, d * g))
        return (slope * _loss_norm(x, t, reduction)).astype(dtype, copy=False)
    # cpu_kernel_vec's two paths (as smooth_l1's): vector blocks norm·(d or ±δ)·g, the scalar tail ±norm·g·δ
    # or norm·d·g (left to right); norm and δ are numbers of the tensor's dtype.
    norm, dl = dtype.type(_loss_norm(x, t, reduction)), dtype.type(delta)

    def vector(x, t, g):
        d = x - t
        return norm * np.where(np.abs(d) >= dl, np.where(d > 0, dtype.type(1), dtype.type(-1)) * dl, d) * g

    def scalar(x, t, g):
        # (here δ is the kernel's double argument: a float32 norm·g is widened before the product)
        d = x - t
        ng = (norm * g).astype(np.float64)
        return np.where(d <= -dl, -ng * delta, np.where(d >= dl, ng * delta, norm * d * g)).astype(dtype, copy=False)

    x, t, g = (np.asarray(v, dtype) for v in (x, t, g))
    block = _LOSS_BLOCKS[dtype.itemsize]
    return _float_math.two_paths(vector, scalar, x, t, g, block=block).astype(dtype, copy=False)


def huber_loss_double_backward(grad, self, target, reduction, delta):
    """d/dx of huber_loss_backward: 1 inside |x - t| < δ, 0 outside (mean: / count)."""
    grad_input = grad * ((self - target).abs() < delta).type_as(grad)
    return grad_input / grad_input.numel() if reduction == 1 else grad_input


def huber_loss_double_backward_grad_output(grad, grad_output, self, target, reduction, delta):
    """d/dg of huber_loss_backward (linear in g): the slopes, paired with grad (summed when g was reduced)."""
    if reduction == 0:
        return huber_loss_backward(grad, self, target, reduction=reduction, delta=delta)
    from ._creation import ones_like
    slope = huber_loss_backward(ones_like(grad_output), self, target, reduction=reduction, delta=delta)
    return (slope * grad).sum()


# d/dt of these losses is d/dx with x and t swapped (PyTorch's formulas: backward(grad, target, self))
smooth_l1_loss = Op("smooth_l1_loss", "SmoothL1LossBackward0",
                    lambda x, t, reduction, beta:
                        _reduce_in_loss_buffer(_strides.iterator_layout(_smooth_l1(x, t, beta).astype(
                            x.dtype, copy=False), (x, t)), reduction),
                    inputs=("self", "target"), args=("reduction", "beta"),
                    jvp=lambda self_t, target_t, self, target, reduction, beta:
                        smooth_l1_loss_jvp(self_t, target_t, self, target, reduction, beta),
                    self=lambda grad, self, target, reduction, beta:
                        _smooth_l1_loss_backward(grad, self, target, reduction=reduction, beta=beta),
                    target=lambda grad, self, target, reduction, beta:
                        _smooth_l1_loss_backward(grad, target, self, reduction=reduction, beta=beta))
smooth_l1_loss_backward = Op(
    "smooth_l1_loss_backward", "SmoothL1LossBackwardBackward0",
    # (C order and self's dtype: PyTorch's kernel writes into zeros_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT))
    lambda g, x, t, reduction, beta: _strides.contiguous(_np_smooth_l1_backward(g, x, t, reduction, beta).astype(
        x.dtype if x.dtype.kind in "fc" else np.result_type(g, x, t), copy=False)),
    inputs=("grad_output", "self", "target"), args=("reduction", "beta"),
    # d(g·∂ℓ/∂x) = dg·∂ℓ/∂x + g·∂²ℓ/∂x²·(dx - dt), in PyTorch's order of the terms
    jvp=lambda grad_output_t, self_t, target_t, grad_output, self, target, reduction, beta:
        smooth_l1_loss_double_backward(self_t * grad_output, self, target, reduction, beta)
        - smooth_l1_loss_double_backward(target_t * grad_output, self, target, reduction, beta)
        + _smooth_l1_loss_backward(grad_output_t, self, target, True, reduction=reduction, beta=beta),
    grad_output=lambda grad, self, target, reduction, beta:                                 # linear in g
        _smooth_l1_loss_backward(grad, self, target, reduction=reduction, beta=beta),
    self=lambda grad, grad_output, self, target, reduction, beta:
        smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, beta),
    target=lambda grad, grad_output, self, target, reduction, beta:
        smooth_l1_loss_double_backward(grad * grad_output, self, target, reduction, beta).neg())
huber_loss = Op("huber_loss", "HuberLossBackward0",
                lambda x, t, reduction, delta: _reduce(_strides.iterator_layout(
                    _huber(x, t, delta).astype(x.dtype, copy=False), (x, t)), reduction),
                inputs=("self", "target"), args=("reduction", "delta"),
                jvp=lambda self_t, target_t, self, target, reduction, delta:
                    huber_loss_jvp(self_t, target_t, self, target, reduction, delta),
                self=lambda grad, self, target, reduction, delta:
                    _huber_loss_backward(grad, self, target, reduction=reduction, delta=delta),
                target=lambda grad, self, target, reduction, delta:
                    _huber_loss_backward(grad, target, self, reduction=reduction, delta=delta))
huber_loss_backward = Op(
    "huber_loss_backward", "HuberLossBackwardBackward0",
    # (C order: PyTorch's kernel writes into zeros_like(input, MemoryFormat::Contiguous))
    lambda g, x, t, reduction, delta: _strides.contiguous(_np_huber_backward(g, x, t, reduction, delta)),
    inputs=("grad_output", "self", "target"), args=("reduction", "delta"),
    grad_output=lambda grad, grad_output, self, target, reduction, delta:
        huber_loss_double_backward_grad_output(grad, grad_output, self, target, reduction, delta),
    self=lambda grad, grad_output, self, target, reduction, delta:
        huber_loss_double_backward(grad * grad_output, self, target, reduction, delta),
    target=lambda grad, grad_output, self, target, reduction, delta:
        huber_loss_double_backward(grad * grad_output, self, target, reduction, delta).neg())
_smooth_l1_loss_backward = _decomposed_under_vmap(smooth_l1_loss_backward, _smooth_l1_loss_backward_decomposed)
_huber_loss_backward = _decomposed_under_vmap(huber_loss_backward, _huber_loss_backward_decomposed)
embedding = Op("embedding", "EmbeddingBackward0",
               lambda w, indices, padding_idx, scale_grad_by_freq, sparse: w[indices],
               inputs=("weight", "indices"), args=("padding_idx", "scale_grad_by_freq", "sparse"), jvp="linear",
               # rows of the table: gradients of repeated indices add up (not the padding row)
               weight=lambda grad, indices, weight_sym_argsize_0, padding_idx, scale_grad_by_freq, sparse:
                   _sparse_embedding_grad(grad, indices, weight_sym_argsize_0, padding_idx, scale_grad_by_freq)
                   if sparse else
                   embedding_dense_backward(grad, indices, num_weights=weight_sym_argsize_0, padding_idx=padding_idx,
                                            scale_grad_by_freq=scale_grad_by_freq))


def _embedding_dense_backward_forward(g, indices, num_weights, padding_idx, scale_grad_by_freq):
    idx = indices.reshape(-1)
    rows = g.reshape(idx.size, g.shape[-1])   # (not -1: no indices at all is an empty (0, D))
    if padding_idx >= 0:   # (the padding row gets no gradient)
        rows = np.where((idx == padding_idx)[:, None], np.zeros((), g.dtype), rows)
    if scale_grad_by_freq:   # (each row divided by its index's count in the batch)
        counts = np.bincount(idx, minlength=int(idx.max()) + 1 if idx.size else 0)
        rows = rows * (1.0 / counts[idx]).astype(g.dtype)[:, None]
    out = np.zeros((num_weights, rows.shape[1]), dtype=g.dtype)
    np.add.at(out, idx, rows)
    return out


def _embedding_dense_double_backward(grad, indices, padding_idx):
    # PyTorch's embedding_dense_double_backward: the rows each index read (scale_grad_by_freq is not applied)
    gg = index_select(grad, indices.reshape(-1), dim=0)
    if padding_idx >= 0:
        gg.masked_fill_((indices == padding_idx).reshape(-1, 1), 0)
    return gg.view(*indices.shape, -1)


embedding_dense_backward = Op(
    "embedding_dense_backward", "EmbeddingDenseBackwardBackward0", _embedding_dense_backward_forward,
    inputs=("grad_output", "indices"), args=("num_weights", "padding_idx", "scale_grad_by_freq"), jvp="linear",
    # linear in the gradient: its gradient reads back the rows each index added into
    grad_output=lambda grad, indices, padding_idx: _embedding_dense_double_backward(grad, indices, padding_idx))


def _sparse_embedding_grad(grad, indices, num_weights, padding_idx, scale_grad_by_freq):
    """Embedding(sparse=True)'s weight gradient: a sparse COO tensor, one entry per looked-up row (sparse.py)."""
    if scale_grad_by_freq:
        raise RuntimeError("embedding_backward: scale_grad_by_freq not supported with sparse gradients")
    from .sparse import embedding_grad
    return embedding_grad(grad, indices, num_weights, padding_idx)


def _embedding_grad_rows(grad, indices, padding_idx, scale_grad_by_freq):
    """The gradient rows embedding's backward adds into the table: none for the padding index, each divided by
    its index's count in the batch with scale_grad_by_freq."""
    if padding_idx >= 0:
        grad = grad.masked_fill((indices == padding_idx).unsqueeze(-1), 0.0)
    if scale_grad_by_freq:
        flat = indices._data.reshape(-1)
        counts = np.bincount(flat, minlength=int(flat.max()) + 1 if flat.size else 0)
        scale = (1.0 / counts[indices._data]).astype(grad._data.dtype)[..., None]
        grad = grad * Tensor._make(scale)
    return grad
constant_pad_nd = Op("constant_pad_nd", "ConstantPadNdBackward0",
                     lambda a, pad, value: _constant_pad(a, pad, value), args=("pad", "value"),
                     jvp=lambda self_t, pad: constant_pad_nd(self_t, pad=pad, value=0.0),  # (the fill is constant)
                     self=lambda grad, pad: constant_pad_nd(grad, pad=tuple(-p for p in pad), value=0.0))   # crop back


def _constant_pad(a, pad, value):
    # pad = (last_lo, last_hi, second_last_lo, ...): negative amounts crop, as in PyTorch, whose kernel narrows
    # by each negative amount in turn (the left one first): a crop past the size is narrow's negative length
    for i in range(len(pad) // 2):
        size = a.shape[a.ndim - 1 - i]
        for p in pad[2 * i:2 * i + 2]:
            size += min(p, 0)
            if size < 0:
                raise RuntimeError("narrow(): length must be non-negative.")
    if all(p <= 0 for p in pad):   # (PyTorch's shortcut: narrow, then clone(), which keeps the input's layout)
        index = [np.s_[:]] * a.ndim
        for i in range(len(pad) // 2):
            axis = a.ndim - 1 - i
            index[axis] = np.s_[-pad[2 * i]:a.shape[axis] + pad[2 * i + 1]]
        return _strides.clone(a[tuple(index)])
    out = a
    for i in range(len(pad) // 2):
        axis = a.ndim - 1 - i
        lo, hi = pad[2 * i], pad[2 * i + 1]
        index = [np.s_[:]] * out.ndim       # (``slice`` is an Op in this module)
        index[axis] = np.s_[max(-lo, 0):out.shape[axis] - max(-hi, 0)]
        out = out[tuple(index)]
        widths = [(0, 0)] * out.ndim
        widths[axis] = (max(lo, 0), max(hi, 0))
        out = np.pad(out, widths, constant_values=value)
    # (PyTorch's result: empty(new_shape, memory_format=self.suggest_memory_format()), then filled)
    return _in_suggested_format(a, np.ascontiguousarray(out))


def _in_suggested_format(a, out):
    """``out`` laid out in ``a.suggest_memory_format()``: channels_last(_3d) for such a 4-D (5-D) ``a``."""
    if out.ndim in (4, 5) and out.ndim == a.ndim and out.size and \
            _strides.suggested_memory_format(a) is not _strides._layout.contiguous_format:
        return _strides.copy_into(_strides.with_strides(out.shape, _strides.channels_last_strides(out.shape),
                                                        out.dtype), out)
    return out


# =============================================================================================
# More ops PyTorch programs use (tutorial parity): their nodes, saved values and formulas
# =============================================================================================

def _not_implemented(name):
    """The formula of an op PyTorch records but cannot differentiate (its node is ``NotImplemented``)."""
    def formula(grad):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return formula


# Rounded division: the caller (_ops._rounded_div) computes the values (``_result``, not saved); these
# entries only record the node PyTorch records. Piecewise constant, so the gradients are zero.
div_rounded = Op("div", "DivBackward2", lambda a, b, rounding_mode, _result: _result,
                 inputs=("self", "other"), args=("rounding_mode", "_result"),
                 jvp=lambda result: _ops().zeros_like(result),  # (a zero tangent, as PyTorch's new_zeros)
                 # (zeros, not grad * 0: an inf or nan grad does not leak through, as in PyTorch)
                 self=lambda grad, other, rounding_mode: _ops().zeros_like(grad),
                 other=lambda grad, self, other, rounding_mode: _ops().zeros_like(grad))  # (PyTorch's saves both)
# Ops PyTorch records without a derivative: grad_fn NotImplemented, whose backward raises. A registry rather
# than table rows, since there is no formula to check (tests/test_parity_programs_tutorials.py runs them).
NOT_IMPLEMENTED = {
    "floor_divide": Op("floor_divide", "NotImplemented", lambda a, b, _result: _result,
                       inputs=("self", "other"), args=("_result",),
                       self=_not_implemented("floor_divide"), other=_not_implemented("floor_divide")),
    "floor_divide_scalar": Op("floor_divide", "NotImplemented", lambda a, _result: _result, args=("_result",),
                              self=_not_implemented("floor_divide")),
    "remainder_scalar": Op("remainder", "NotImplemented", lambda a, _result: _result, args=("_result",),
                           self=_not_implemented("remainder")),      # number % tensor
}
for _op in NOT_IMPLEMENTED.values():
    _op.node_class.name = lambda node: "torch::autograd::NotImplemented"
del _op


def _not_differentiable(name):
    """The formula of an op whose node PyTorch records but whose backward raises (unique & co)."""
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
    return formula


# unique / unique_consecutive: the caller computes the values (``_result``); the node only records.
NOT_IMPLEMENTED["unique2"] = Op("_unique2", "Unique2Backward0", lambda a, _result: _result, args=("_result",),
                                self=_not_differentiable("_unique2"))
NOT_IMPLEMENTED["unique_dim"] = Op("unique_dim", "UniqueDimBackward0", lambda a, _result: _result, args=("_result",),
                                   self=_not_differentiable("unique_dim"))
NOT_IMPLEMENTED["unique_consecutive"] = Op("unique_consecutive", "UniqueConsecutiveBackward0",
                                           lambda a, _result: _result, args=("_result",),
                                           self=_not_differentiable("unique_consecutive"))

NOT_IMPLEMENTED["hardsigmoid_backward"] = Op(
    "hardsigmoid_backward", "NotImplemented",
    # (PyTorch's kernel multiplies by 1/6 rounded to float32, whatever the dtype; in the operands' promoted dtype: a
    # float64 tangent of a float32 primal, say, from prod(dtype=))
    lambda grad_output, x: np.where((x > -3) & (x < 3), grad_output * np.float64(np.float32(1 / 6)), 0).astype(
        np.result_type(grad_output.dtype, x.dtype), copy=False),
    inputs=("grad_output", "self"),   # (both get edges: the NotImplemented node lists those that require grad)
    grad_output=_not_implemented("hardsigmoid_backward"), self=_not_implemented("hardsigmoid_backward"))
NOT_IMPLEMENTED["hardsigmoid_backward"].node_class.name = lambda node: "torch::autograd::NotImplemented"

# torch.distributions' native samplers without a derivative (the values come from distributions/_native.py);
# binomial's node has an edge only for the inputs that require grad, so there is one Op per arity.
NOT_IMPLEMENTED["_sample_dirichlet"] = Op("_sample_dirichlet", "NotImplemented", lambda a, values: values,
                                          args=("values",), self=_not_implemented("_sample_dirichlet"))
NOT_IMPLEMENTED["binomial"] = Op("binomial", "NotImplemented", lambda a, values: values, args=("values",),
                                 self=_not_implemented("binomial"))
NOT_IMPLEMENTED["binomial2"] = Op("binomial", "NotImplemented", lambda a, b, values: values, inputs=("self", "prob"),
                                  args=("values",), self=_not_implemented("binomial"),
                                  prob=_not_implemented("binomial"))
# out= of kernels with no derivative (minigrad/_out_args.py: _not_implemented_into): PyTorch writes the values,
# then records this node on out when an input requires grad (ifft / ihfft of a real input end with
# conj_physical_out of the r2c transform). Only recorded, never run: the values are out's already.
NOT_IMPLEMENTED["conj_physical"] = Op("conj_physical", "NotImplemented", lambda a: a,
                                      self=_not_implemented("conj_physical"))
NOT_IMPLEMENTED["linalg_eigvals"] = Op("linalg_eigvals", "NotImplemented", lambda a: a,
                                       self=_not_implemented("linalg_eigvals"))
NOT_IMPLEMENTED["softmax"] = Op("softmax", "NotImplemented", lambda a: a, self=_not_implemented("softmax"))
NOT_IMPLEMENTED["log_softmax"] = Op("log_softmax", "NotImplemented", lambda a: a, self=_not_implemented("log_softmax"))
# (ldl_factor's and ldl_solve's own nodes, linalg_ldl_factor_ex and linalg_ldl_solve, are further down)
for _name in ("_sample_dirichlet", "binomial", "binomial2", "conj_physical", "linalg_eigvals", "softmax",
              "log_softmax"):
    NOT_IMPLEMENTED[_name].node_class.name = lambda node: "torch::autograd::NotImplemented"
del _name

# asinh_ / acosh_ / atanh_: PyTorch has no derivative for these in-place forms (AsinhBackward1 ...)
for _op in (asinh, acosh, atanh):
    NOT_IMPLEMENTED[_op.name + "_"] = Op(_op.name, _op.node_name.replace("Backward0", "Backward1"), _op.forward,
                                         self=_not_differentiable(f"inplace version of {_op.name}"))
del _op

# ---- soft margin and multi-class margin losses (PyTorch's own kernels; the other margin losses are composites
# in nn/functional.py). The target is saved, not an input: the nodes have one edge, to the input.
def _soft_margin_z(x, target):
    """z = e^(-x·y), step by step in x's dtype as PyTorch's ``at::neg(input).mul_(target).exp_()``."""
    return exp.forward((-x * target._data).astype(x.dtype, copy=False))


def _np_soft_margin(x, target, reduction):
    # log(1 + e^(-y·x)): PyTorch's exp and log1p kernels, each rounded to x's dtype; laid out as neg_out(x) lays
    # out its output (TensorIterator's layout from x alone: the later steps write in place), which also orders the
    # sum of a reduction
    loss = log1p.forward(_soft_margin_z(x, target))
    return _reduce_in_loss_buffer(_strides.iterator_layout(loss, (x,)), reduction)


def _np_soft_margin_backward(g, x, target, reduction):
    # -y·z/(1 + z)·g with z = e^(-y·x), norm = 1/numel for the mean; in PyTorch's order, every step rounded
    # to x's dtype: (y·z)·(-norm), then / (z + 1), then · g
    if target._data.dtype == np.bool_:   # (PyTorch's z = exp(-target * input): a bool target cannot be negated)
        raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert "
                           "a mask, use the `~` or `logical_not()` operator instead.")
    z = _soft_margin_z(x, target)
    norm = 1.0 / x.size if reduction == 1 and x.size else 1.0
    out = (target._data * z).astype(x.dtype, copy=False) * np.asarray(-norm, dtype=x.dtype)
    out = out / (z + x.dtype.type(1))
    # (laid out as PyTorch's mul_out(grad_input, target, z) with z = exp(-target * input), the rest in place:
    # TensorIterator's layouts, step by step)
    y = target._data
    z = _strides.iterator_layout(z, (_strides.iterator_layout(-y, (y,)), x))
    return _strides.iterator_layout((out * g).astype(x.dtype, copy=False), (y, z))


def soft_margin_loss_double_backward(grad, self, target, reduction):
    """d²/dx² log(1 + e^(-y·x)) = y²·z/(1 + z)², z = e^(-y·x) (PyTorch's soft_margin_loss_double_backward)."""
    z = (self * target.neg()).exp()
    zplus1 = add_scalar(z, other=1)   # (C++'s z + 1: the Scalar overload)
    zplus1_sq = zplus1 * zplus1       # (C++ makes the right operand of ... / (zplus1 * zplus1) first)
    g = grad * (target * target) * z / zplus1_sq
    return div_scalar(g, other=self.numel()) if reduction == 1 else g


soft_margin_loss = Op("soft_margin_loss", "SoftMarginLossBackward0", _np_soft_margin, args=("target", "reduction"),
                      jvp="reduction",
                      self=lambda grad, self, target, reduction:
                          soft_margin_loss_backward(grad, self, target=target, reduction=reduction))
soft_margin_loss_backward = Op(
    "soft_margin_loss_backward", "SoftMarginLossBackwardBackward0", _np_soft_margin_backward,
    inputs=("grad_output", "self"), args=("target", "reduction"),
    grad_output=lambda grad, self, target, reduction:                                    # linear in g
        soft_margin_loss_backward(grad, self, target=target, reduction=reduction),
    self=lambda grad, grad_output, self, target, reduction:
        soft_margin_loss_double_backward(grad * grad_output, self, target, reduction))


def _multi_margin_terms(x, target, p, margin, weight):
    """Per sample and class, in x's dtype as PyTorch's CPU loop: z = (margin - x[y]) + x[j], h = z (p = 1) or
    z·z, times w[y]; the hinge's mask (z > 0, j ≠ y)."""
    x2 = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    y = target._data.reshape(-1)
    rows = np.arange(x2.shape[0])
    z = (x.dtype.type(margin) - x2[rows, y])[:, None] + x2
    active = z > 0
    active[rows, y] = False
    h = np.where(active, z if p == 1 else z * z, x.dtype.type(0))
    w = None if weight is None else weight._data[y][:, None].astype(x.dtype, copy=False)
    return x2, y, rows, z, active, (h if w is None else h * w), w


def _row_sums_in_order(values):
    """Σ of each row, left to right from 0 (the C++ loop's ``sum += h``; np.add.accumulate runs in order)."""
    if values.shape[1] == 0:
        return np.zeros(values.shape[0], values.dtype)
    return np.add.accumulate(values, axis=1)[:, -1] + values.dtype.type(0)


def _np_multi_margin(x, target, p, margin, weight, reduction):
    x2, y, rows, z, active, h, w = _multi_margin_terms(x, target, p, margin, weight)
    loss = _row_sums_in_order(h) / x.dtype.type(x2.shape[1])          # each row's Σ h / C, in x's dtype
    if reduction == 0:   # one loss per frame, shaped as the target: (N,) for a 1-d target, () for a 0-d one
        return loss.reshape((len(loss),) if target.dim() > 0 else ())
    # the rows' losses added in the accumulate type (double for float), the mean divided there, rounded once
    acc = np.float64 if x.dtype in (np.float32, np.float16) else x.dtype.type
    total = np.add.accumulate(loss.astype(acc))[-1] if len(loss) else acc(0)
    if reduction == 1:
        with np.errstate(invalid="ignore"):   # (the mean of no rows: 0 / 0, nan)
            total = total / acc(len(loss))
    return np.array(total, dtype=x.dtype)


def _np_multi_margin_backward(x, grad_output, target, p, margin, weight, reduction):
    # PyTorch's loop, in x's dtype: with g = 1/C (1/(N·C) for the mean, rounded from double), each active j
    # gets h = g (p = 1) or (2·g)·z, times w[y]; x[y] gets 0 - h_1 - h_2 - ... in order; then all times
    # grad_output (its one value, or each row's)
    x2, y, rows, z, active, h, w = _multi_margin_terms(x, target, p, margin, weight)
    n, dim = x2.shape
    with np.errstate(divide="ignore"):   # (no rows: 1/0 = inf in C++, multiplying nothing)
        g = x.dtype.type(np.float64(1.0) / np.float64(n * dim if reduction == 1 else dim))
    d = np.where(active, g if p == 1 else (x.dtype.type(2) * g) * z, x.dtype.type(0))
    if w is not None:
        d = np.where(active, d * w, d)
    minus = np.concatenate([np.zeros((n, 1), x.dtype), d], axis=1)
    d[rows, y] = np.subtract.accumulate(minus, axis=1)[:, -1]   # (0 - Σ in order: no -0.0 where none is active)
    go = grad_output._data.astype(x.dtype, copy=False)
    go = go.reshape(-1, 1) if go.ndim else go
    return (d * go).reshape(x.shape).astype(x.dtype, copy=False)


multi_margin_loss = Op("multi_margin_loss", "MultiMarginLossBackward0", _np_multi_margin,
                       args=("target", "p", "margin", "weight", "reduction"),
                       self=lambda grad, self, target, p, margin, weight, reduction:
                           NOT_IMPLEMENTED["multi_margin_loss_backward"](
                               grad, self, target=target, p=p, margin=margin, weight=weight, reduction=reduction))
NOT_IMPLEMENTED["multi_margin_loss_backward"] = Op(
    "multi_margin_loss_backward", "NotImplemented",
    lambda g, x, target, p, margin, weight, reduction:
        _np_multi_margin_backward(x, Tensor._make(g), target, p, margin, weight, reduction),
    inputs=("grad_output", "self"), args=("target", "p", "margin", "weight", "reduction"),
    grad_output=_not_implemented("multi_margin_loss_backward"), self=_not_implemented("multi_margin_loss_backward"))
NOT_IMPLEMENTED["multi_margin_loss_backward"].node_class.name = lambda node: "torch::autograd::NotImplemented"

def _multilabel_margin_terms(x, target):
    """(x as rows, is_target, active pairs (row, target position, class)) of PyTorch's CPU loop: the targets of a
    row are its entries before the first -1; z = 1 - x[target] + x[d] for every non-target class d, rounded in
    the input's dtype, counts where z > 0."""
    dim = x.shape[-1] if x.ndim else 1
    x2, y = x.reshape(-1, dim), target._data.reshape(-1, dim)
    ended = np.cumsum(y < 0, axis=1) > 0            # entries from the first -1 on are not targets
    valid = ~ended
    is_target = np.zeros(x2.shape, x.dtype)
    rows = np.nonzero(valid)[0]
    is_target[rows, y[valid]] = 1
    one = x.dtype.type(1)
    x_target = np.take_along_axis(x2, np.where(valid, y, 0), axis=1)          # (rows, target position)
    z = (one - x_target)[:, :, None] + x2[:, None, :]                          # (rows, target position, class)
    active = valid[:, :, None] & (is_target[:, None, :] == 0) & (z > 0)
    return x2, y, valid, is_target, z, active


def _np_multilabel_margin(x, target, reduction):
    # each row: Σ over targets t and non-target classes d of max(0, 1 - x[t] + x[d]), over the class count;
    # PyTorch adds the terms in double (its CPU accumulator type for float), a row's sum then rounded for 'none'
    x2, y, valid, is_target, z, active = _multilabel_margin_terms(x, target)
    dim = x2.shape[1]
    terms = np.where(active, z, 0).astype(np.float64)
    row_sums = np.add.accumulate(terms.reshape(len(x2), -1), axis=1)[:, -1] if terms.size else np.zeros(len(x2))
    if reduction == 0 and x.ndim > 1:
        output = (row_sums.astype(x.dtype) / x.dtype.type(dim)).astype(x.dtype)
    else:
        # (each row's Σ is returned in x's dtype by PyTorch's inner loop, then added in double)
        row_sums = row_sums.astype(x.dtype).astype(np.float64)
        total = np.float64(np.add.accumulate(row_sums)[-1] if len(row_sums) else 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):   # (the mean of no rows: 0 / 0, nan)
            total = total / dim / (len(x2) if reduction == 1 else 1)
        output = np.array(total, dtype=x.dtype)
    return output, is_target.reshape(x.shape)


def _np_multilabel_margin_backward(x, grad_output, target, reduction, is_target):
    # d/dx[d] = +g and d/dx[t] = -g per active pair, g = 1/dim (1/(N·dim) for mean), added one pair at a time
    # in the input's dtype (so counted in float: n additions of g, not n·g), then times grad_output
    x2, y, valid, _, z, active = _multilabel_margin_terms(x, target)
    dim = x2.shape[1]
    with np.errstate(divide="ignore"):   # (no rows: an empty gradient, whatever g is)
        g = x.dtype.type(np.float64(1.0) / (len(x2) * dim) if reduction == 1 else 1.0 / dim)
    plus = active.sum(axis=1)                                                    # per (row, class)
    minus = np.zeros(x2.shape, np.int64)
    rows = np.nonzero(valid)[0]
    np.add.at(minus, (rows, y[valid]), active.sum(axis=2)[valid])
    up, down = np.zeros(x2.shape, x.dtype), np.zeros(x2.shape, x.dtype)
    for i in range(int(max(plus.max(initial=0), minus.max(initial=0)))):
        up = np.where(i < plus, up + g, up)
        down = np.where(i < minus, down - g, down)
    grad = up + down                                                             # (one of the two is zero)
    go = grad_output._data
    grad = grad * (go.reshape(-1, 1) if reduction == 0 and go.ndim else go)
    return grad.reshape(x.shape).astype(x.dtype)


multilabel_margin_loss = Op(
    "multilabel_margin_loss_forward", "MultilabelMarginLossBackward0", _np_multilabel_margin,
    args=("target", "reduction"), outputs=("output", "is_target"), differentiable_outputs=1,
    self=lambda grad, self, target, reduction, is_target:
        NOT_IMPLEMENTED["multilabel_margin_loss_backward"](
            grad, self, target=target, reduction=reduction, is_target=is_target))
NOT_IMPLEMENTED["multilabel_margin_loss_backward"] = Op(
    "multilabel_margin_loss_backward", "NotImplemented",
    lambda g, x, target, reduction, is_target:
        _np_multilabel_margin_backward(x, Tensor._make(g), target, reduction, is_target),
    inputs=("grad_output", "self"), args=("target", "reduction", "is_target"),
    grad_output=_not_implemented("multilabel_margin_loss_backward"),
    self=_not_implemented("multilabel_margin_loss_backward"))
NOT_IMPLEMENTED["multilabel_margin_loss_backward"].node_class.name = lambda node: "torch::autograd::NotImplemented"


roll = Op("roll", "RollBackward0", lambda a, shifts, dims: _roll(a, shifts, dims), args=("shifts", "dims"),
          jvp="linear",
          self=lambda grad, shifts, dims: roll(grad, shifts=tuple(-_signed(s) % 2 ** 64 for s in shifts), dims=dims))


def _signed(s):
    # PyTorch shows a roll's negative shifts as unsigned 64-bit numbers (its _saved_shifts): undo that.
    return s - 2 ** 64 if s >= 2 ** 63 else s


def _roll(a, shifts, dims):
    shifts = tuple(_signed(s) for s in shifts)
    if not dims:  # the flattened tensor, shape kept
        return np.roll(a.reshape(-1), shifts[0]).reshape(a.shape)
    if not (a.ndim and a.size):  # (a 0-dim or empty tensor: a copy, its dims unchecked, as PyTorch's)
        return a.copy()
    out = np.roll(a, shifts, tuple(_signed(d) for d in dims))
    # (laid out as PyTorch's roll, a cat of two slices: channels_last if a suggests it, else C order)
    return _strides.channels_last(out) if _strides.suggests_channels_last(a) else _strides.contiguous(out)


def _logit(a, eps):
    # log(x / (1 - x)), x clamped to [eps, 1 - eps] first when eps is given (x = 1 gives inf).
    if eps is not None:
        # (back in a's dtype: NumPy's clip of a bfloat16 array gives float32, and the steps below round each
        # result to bfloat16, as PyTorch's kernel does)
        a = np.clip(a, a.dtype.type(eps), a.dtype.type(1) - a.dtype.type(eps)).astype(a.dtype, copy=False)
    return np.where(a == 1, np.inf, np.log(a / (1 - a))).astype(a.dtype, copy=False)


def logit_backward(grad, self, eps):
    """d logit(x) = 1/(x(1-x)); outside [eps, 1-eps] zero (x clamped there), outside [0, 1] nan without eps."""
    lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
    fill = math.nan if eps is None else 0.0
    from .autograd import grad_mode
    if grad_mode.is_grad_enabled():  # (create_graph: PyTorch's infinitely_differentiable_logit_backward, 1 - x as
        inside = _ops().logical_and(self >= lo, self <= hi)  # its C++ writes it: a filled tensor minus x, version 2)
        return _ops().where(inside, grad / (self * _one_minus(self)), fill)
    outside = _ops().logical_or(self < lo, self > hi)  # (its kernel: a nan x gives nan)
    # (its kernel: grad·inf at x = 0 or 1 (-0.0 too: the division's sign would follow the zero's), then the formula)
    edge = _ops().logical_or(self == 0, self == 1)
    result = _ops().where(outside, fill, _ops().where(edge, grad * math.inf, grad / (self * (1 - self))))
    # (laid out as its kernel's TensorIterator over grad, then self)
    return _numpy_result(lambda r, g, x: _strides.iterator_layout(_strides.contiguous(r), (g, x)), result._data,
                         grad._data, self._data)


logit = Op("logit", "LogitBackward0",   # (float64 too: MKL's log of the ratio)
           _float_math.for_float32(
               _float_math.logit, lambda a, eps: _float_math.logit(a, eps) if a.dtype == np.float64 else _logit(a, eps),
               halves=False), args=("eps",),
           jvp="element_wise",
           self=lambda grad, self, eps: logit_backward(grad, self, eps))
def _in_dtype_of(t, result, cast: bool = True):
    """``t`` in ``result``'s dtype (if ``cast``): a tangent computed before the op's own dtype= cast."""
    return t.to(result.dtype) if cast and t.dtype != result.dtype else t


nansum = Op("nansum", "NansumBackward0",
            _rank0_ok(lambda a, dim, keepdim: _sums.sum(a, _axes(dim), keepdim, nan=True)),
            args=("dim", "keepdim"),
            # (PyTorch's: where(self_p.isnan(), 0, self_t).sum(dim, keepdim): no tangent from where x is nan)
            # (and its dtype= argument: a float64 sum of a float32 tangent)
            jvp=lambda self_t, self, dim, keepdim, result: _in_dtype_of(
                sum_dim(_ops().where(self.isnan(), 0.0, self_t), dim=() if dim is None else dim, keepdim=keepdim),
                result, self_t.dtype == self.dtype),
            # d Σ(non-nan x) / dx_i = 1, and 0 at the nans (PyTorch's formula casts the gradient of a dtype= sum
            # to self's dtype first: nansum_backward(grad.to(self.scalar_type()), ...), a ToCopyBackward0 below)
            self=lambda grad, self, dim, keepdim:
                sum_backward(grad.to(self.dtype), self.shape, dim, keepdim) * self.isnan().logical_not())
# x·π/180 and x·180/π as PyTorch's product with a Scalar: the constant rounded to the tensor's dtype first (to
# float32 for half and bfloat16, whose kernel computes in float32 and rounds the product once).
# (PyTorch's deg2rad / rad2deg multiply into empty_like(self): see _like_self)
deg2rad = Op("deg2rad", "Deg2RadBackward0",
             lambda a: _like_self(a, (a * _opmath_number(a, math.pi / 180)).astype(a.dtype, copy=False)), jvp="linear",
             self=lambda grad: mul_scalar(grad, other=math.pi / 180))   # (a Scalar product: MulBackward1)
rad2deg = Op("rad2deg", "Rad2DegBackward0",
             lambda a: _like_self(a, (a * _opmath_number(a, 180 / math.pi)).astype(a.dtype, copy=False)), jvp="linear",
             self=lambda grad: mul_scalar(grad, other=180 / math.pi))


def copysign_backward(grad, self, result):
    """d copysign(x, s)/dx = sign ratio result/x (±1), 0 where x = 0."""
    # (PyTorch's masked_fill_ in place: the ratio keeps its layout, which an out-of-place masked_fill's C order
    # would not, and with it the product's)
    return grad * (result / self).masked_fill_(self == 0, 0.0)


copysign = Op("copysign", "CopysignBackward0", np.copysign, inputs=("self", "other"),
              jvp=lambda self_t, self, result: copysign_backward(self_t, self, result),  # (s only picks the sign)
              self=copysign_backward,
              other=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))   # piecewise const
copysign_scalar = Op("copysign", "CopysignBackward1", lambda a, other: np.copysign(a, a.dtype.type(other)),
                     args=("other",), jvp="element_wise", self=copysign_backward)


_SINC_SIN = {np.float32: _float_math.libm_float("sinf", np.sin), np.float64: _float_math.libm_double("sin", np.sin)}


def _sinc(a):
    # sin(πx)/(πx) with π rounded to the dtype (PyTorch's scalar kernel: glibc's sin), 1 at 0.
    if a.dtype.kind == "c":
        return _complex_bits.sinc(a)
    if _is_half(a.dtype):   # float16/bfloat16: in float32, rounded once (PyTorch's opmath)
        return _sinc(a.astype(np.float32)).astype(a.dtype)
    with np.errstate(invalid="ignore", divide="ignore"):
        product = a.dtype.type(math.pi) * a
        sin = _SINC_SIN.get(a.dtype.type, np.sin)
        return np.where(a == 0, a.dtype.type(1), sin(product) / product).astype(a.dtype, copy=False)


def sinc_backward(grad, self):
    """d sinc(x) = (πx cos πx - sin πx) / (πx²), 0 at 0 (grad times the quotient, conjugated as PyTorch's)."""
    self_pi = mul_scalar(self, other=math.pi)
    squared_pi = mul_scalar(self * self, other=math.pi)
    sin = self_pi.sin()   # (made first: GCC evaluates the operands of PyTorch's a - b right to left)
    out = grad * ((self_pi * self_pi.cos() - sin) / squared_pi).conj()
    return _ops().where(squared_pi == 0.0, 0.0, out)


sinc = Op("sinc", "SincBackward0", _sinc, jvp="element_wise", self=lambda grad, self: sinc_backward(grad, self))
NOT_IMPLEMENTED["heaviside"] = Op("heaviside", "NotImplemented", lambda a, b, _result: _result,
                                  inputs=("self", "values"), args=("_result",),
                                  self=_not_implemented("heaviside"), values=_not_implemented("heaviside"))
NOT_IMPLEMENTED["heaviside"].node_class.name = lambda node: "torch::autograd::NotImplemented"


# ---- distances, take, running max/min and log-sum-exp, GLU ------------------------------------
dist = Op("dist", "DistBackward0", lambda a, b, p: _vector_norm((a - b).reshape(-1), float(p), 0, False),
          inputs=("self", "other"), args=("p",), jvp="reduction",
          # ‖x - y‖_p: the norm's gradient at x - y, and its negation for y
          self=lambda grad, self, other, p, result: norm_backward(grad, self - other, float(p), None, False, result),
          other=lambda grad, self, other, p, result:
              norm_backward(grad, self - other, float(p), None, False, result).neg())
dist.keeps_dtype = False  # (dtype= casts the inputs only: the distance of complex tensors is real)
take = Op("take", "TakeBackward0", lambda a, index: a.reshape(-1)[index], inputs=("self", "index"), jvp="linear",
          # each taken element's gradient added back at its flat position (repeats accumulate)
          self=lambda grad, self, index: _put_into_zeros(self, index, grad))


def _put_into_zeros(self, index, grad):
    """zeros_like(self).put_(index, grad, accumulate=True): in place, as PyTorch's take_backward (version 1). On
    torch.func's wrappers (a grad batched by jacrev's vmap) PyTorch's put is out of place, which has no batching
    rule: its fallback refuses a batch of no examples."""
    _vmap_batched.check_fallback_examples("put", grad)
    z = _ops().zeros_like(self)
    return put(z, index, grad, accumulate=True, out=z)


def _cumulative_extreme(a, dim, take_max):
    # PyTorch's scan: a NaN, or a value >= (<= for min) the running one, takes over (ties: the later index).
    if a.size == 0:
        return a.copy(), np.zeros(a.shape, np.int64)
    x = np.moveaxis(a, dim, -1)
    values, indices = np.empty_like(x), np.zeros(x.shape, dtype=np.int64)
    best, where = x[..., 0].copy(), np.zeros(x.shape[:-1], dtype=np.int64)
    for k in range(x.shape[-1]):
        v = x[..., k]
        better = v >= best if take_max else v <= best
        take = np.isnan(v) | (~np.isnan(best) & better) if k else np.ones(v.shape, dtype=bool)
        best = np.where(take, v, best)
        where = np.where(take, k, where)
        values[..., k], indices[..., k] = best, where
    return _strides.contiguous(np.moveaxis(values, -1, dim)), _strides.contiguous(np.moveaxis(indices, -1, dim))


def cummaxmin_backward(grad, self, indices, dim):
    """Each running extreme's gradient goes to the element it came from (summed over the positions)."""
    if _vmap_batched.DEPTH[0] and _vmap_batched.hides_autograd(grad):   # (a vmapped vjp: no grad transform inside
        # the vmap decomposes PyTorch's composite first, and it has no batching rule)
        _vmap_batched.check_fallback_examples("cummaxmin_backward", grad, self, indices)
    if self.numel() == 0:
        return self  # (PyTorch returns the empty input itself: under create_graph, a graph through it)
    return _scatter_add_into_zeros(self.shape, grad, indices, dim)


cummax = Op("cummax", "CummaxBackward0", _rank0_ok(lambda a, dim: _cumulative_extreme(a, dim, True)), args=("dim",),
            jvp=lambda self_t, dim, indices: _selected_jvp(self_t, dim, indices, True),
            outputs=("values", "indices"), differentiable_outputs=1,
            self=lambda grad, self, indices, dim: cummaxmin_backward(grad, self, indices, dim))
cummin = Op("cummin", "CumminBackward0", _rank0_ok(lambda a, dim: _cumulative_extreme(a, dim, False)), args=("dim",),
            jvp=lambda self_t, dim, indices: _selected_jvp(self_t, dim, indices, True),
            outputs=("values", "indices"), differentiable_outputs=1,
            self=lambda grad, self, indices, dim: cummaxmin_backward(grad, self, indices, dim))


def logcumsumexp_backward(grad, self, result, dim):
    """PyTorch's (TensorFlow's) formula: reversed log-cum-sum-exps of log|grad| - result, per sign of grad."""
    if grad.dim() == 0 or grad.numel() == 0:  # (only these pass grad through, as PyTorch's)
        return grad
    ops = _ops()
    if grad.is_complex():   # (no trick separating the signs needed: the log of a complex number is defined)
        return (ops.flip(logcumsumexp(ops.flip(grad.conj().log() - result, (dim,)), dim=dim), (dim,))
                + self).exp().conj()
    from ._dtypes import finfo
    lowest = float(finfo(grad.dtype).min)  # (NumPy's finfo knows no bfloat16)

    def reverse_lcse(x):
        return ops.flip(logcumsumexp(ops.flip(x, (dim,)), dim=dim), (dim,))

    log_abs = grad.abs().log()
    positive = ops.where(grad > 0, log_abs, lowest)
    negative = ops.where(grad < 0, log_abs, lowest)
    return (reverse_lcse(positive - result) + self).exp() - (reverse_lcse(negative - result) + self).exp()


_LCSE_LIBM = {   # accumulator type: the C library's exp and log1p
    np.dtype(np.float64): (_float_math.libm_double("exp", np.exp), _float_math.libm_double("log1p", np.log1p)),
    np.dtype(np.float32): (_float_math.libm_float("expf", np.exp), _float_math.libm_float("log1pf", np.log1p))}


def _logcumsumexp(a, dim):
    """PyTorch's CPU loop: c = log1p(e^(min - max)) + max of (x_i, c), in the accumulator type (double for
    float32, float for halves) with the C library's exp and log1p, c = x_i where both are the same infinity."""
    if a.dtype.kind == "c":
        return _logcumsumexp_complex(a, dim) if a.size else a.copy()
    if not (a.dtype.kind == "f" or _float_math._is_reduced(a.dtype)) or a.size == 0:
        return np.logaddexp.accumulate(a, axis=dim).astype(a.dtype, copy=False)
    acc = np.dtype(np.float64) if a.dtype.itemsize >= 4 else np.dtype(np.float32)
    _lcse_exp, _lcse_log1p = _LCSE_LIBM[acc] if a.size <= 1 << 17 else (np.exp, np.log1p)   # (ctypes: ~0.3 us a call)
    x = np.moveaxis(a, dim, -1).astype(acc)
    out = np.empty(x.shape, a.dtype)
    if x.size == x.shape[-1] and acc == np.float64:   # one line: Python floats, ~20x faster than 1-element arrays
        out.reshape(-1)[:] = _logcumsumexp_line(x.reshape(-1).tolist(), _lcse_exp, _lcse_log1p)
        return _strides.contiguous(np.moveaxis(out, -1, dim))  # (C order, as PyTorch's)
    c = np.full(x.shape[:-1], -np.inf, acc)
    with np.errstate(invalid="ignore"):
        for i in range(x.shape[-1]):
            v = x[..., i]
            nan = np.isnan(c)   # (std::min / std::max: the accumulator when it is nan, else x when x is nan)
            lo = np.where(nan, c, np.where(c < v, c, v))
            hi = np.where(nan, c, np.where(v < c, c, v))
            c = np.where((lo != hi) | np.isfinite(lo), _lcse_log1p(_lcse_exp(lo - hi)) + hi, v)
            out[..., i] = c
    return _strides.contiguous(np.moveaxis(out, -1, dim))


def _logcumsumexp_complex(a, dim):
    """PyTorch's CPU loop for complex numbers (in complex128): c = log1p(e^(min - max)) + max of (x_i, c), min and
    max by real part; a NaN (in either part) takes over as NaN + NaN·i; equal infinite real parts: -inf gives min,
    +inf log(e^min + e^max)."""
    x = np.moveaxis(a, dim, -1).astype(np.complex128)
    out = np.empty(x.shape, a.dtype)
    c = np.full(x.shape[:-1], complex(-np.inf, 0.0), np.complex128)
    with np.errstate(all="ignore"):
        for i in range(x.shape[-1]):
            v = x[..., i]
            c_nan, v_nan = np.isnan(c.real) | np.isnan(c.imag), np.isnan(v.real) | np.isnan(v.imag)
            v_low = v.real < c.real
            lo = np.where(c_nan, c, np.where(v_nan, v, np.where(v_low, v, c)))
            hi = np.where(c_nan, c, np.where(v_nan, v, np.where(v_low, c, v)))
            same_inf = ~np.isfinite(lo.real) & (lo.real == hi.real)
            c = np.where(c_nan | v_nan, complex(np.nan, np.nan),
                         np.where(same_inf, np.where(lo.real < 0, lo, np.log(np.exp(lo) + np.exp(hi))),
                                  _complex_bits.log1p(np.exp(lo - hi), kernel=False) + hi))   # (c10's log1p)
            out[..., i] = c
    return _strides.contiguous(np.moveaxis(out, -1, dim))


def _logcumsumexp_line(values, exp, log1p) -> list:
    """``_logcumsumexp`` of one line of Python floats (the C functions called one value at a time)."""
    exp, log1p = getattr(exp, "c_function", exp), getattr(log1p, "c_function", log1p)
    c, out = -math.inf, []
    for v in values:   # (std::min(v, c) and std::max(v, c): v when they are unordered)
        lo, hi = (c, c) if c != c else ((c, v) if c < v else (v, c if v < c else v))
        c = log1p(exp(lo - hi)) + hi if lo != hi or math.isfinite(lo) else v
        out.append(c)
    return out


logcumsumexp = Op("logcumsumexp", "LogcumsumexpBackward0", _rank0_ok(_logcumsumexp),
                  args=("dim",), jvp=lambda self_t, self, dim: logcumsumexp_jvp(self, self_t, dim),
                  self=lambda grad, self, result, dim: logcumsumexp_backward(grad, self, result, dim))


def logcumsumexp_jvp(self, self_t, dim):
    """Σ_{j<=i} e^(x_j)·t_j / Σ_{j<=i} e^(x_j), shifted by max x for range (PyTorch's logcumsumexp_jvp)."""
    e = (self - self.max(dim, keepdim=True)[0]).exp() if not self.is_complex() else self.exp()
    cumsumexp_p = e.cumsum(dim)
    # (e·t in place outside torch.func, as logsumexp_jvp: exp's saved result modified)
    cumsumexp_t = (e * self_t if _subclass_like() else e.mul_(self_t)).cumsum(dim)
    return cumsumexp_t.div_(cumsumexp_p.add_(1e-13))


def _glu(a, dim):
    if _is_half(a.dtype):   # float16/bfloat16: a·σ(b) in float32, rounded once (PyTorch's opmath)
        return _glu(a.astype(np.float32), dim).astype(a.dtype)
    first, second = np.split(a, 2, axis=dim)
    # (laid out as TensorIterator's binary op of the two halves)
    return _strides.iterator_layout(_strides.contiguous(first * _sigmoid(second)), (first, second))


def _np_glu_backward(g, x, dim):
    # d (a·σ(b)): g·σ(b) for the first half a, g·a·σ(b)(1-σ(b)) for the second half b, side by side
    if _is_half(g.dtype) and g.dtype == x.dtype:   # float16/bfloat16 as PyTorch's: σ(b) rounded to the half type,
        f32 = np.float32                            # then each half's product in float32, rounded once
        a, b = np.split(x, 2, axis=dim)
        sig = _sigmoid(b).astype(f32)
        first = sig * g.astype(f32)
        second = (f32(1) - sig) * sig * a.astype(f32) * g.astype(f32)
        return np.concatenate([first, second], axis=dim).astype(g.dtype)
    a, b = np.split(x, 2, axis=dim)
    sig = _sigmoid(b)
    return np.concatenate([sig * g, (1 - sig) * sig * a * g], axis=dim)


def glu_double_backward(grad, grad_output, self, dim):
    """d/dx of glu_backward (PyTorch's glu_double_backward): with s = σ(b), s' = s(1-s),
    d/da = gg_b·g·s',  d/db = gg_b·a·g·(s'(1-s) - s·s') + gg_a·g·s'."""
    half = self.shape[dim] // 2
    first, second = self.narrow(dim, 0, half), self.narrow(dim, half, half)
    sig = second.sigmoid()
    one_sub_sig = _one_minus(sig)   # (C++'s 1 - t: a SubBackward0)
    sig_one_sub_sig = sig * one_sub_sig
    gg_first, gg_second = grad.narrow(dim, 0, half), grad.narrow(dim, half, half)
    gg_second_times_first = gg_second * first
    g_first = gg_second * grad_output * sig_one_sub_sig
    # (each operator's right operand made first, as C++ evaluates them: the nodes' sequence numbers)
    sig_sig_one_sub_sig = sig * sig_one_sub_sig
    second_order = sig_one_sub_sig * one_sub_sig - sig_sig_one_sub_sig
    from_first = gg_first * grad_output * sig_one_sub_sig
    g_second = gg_second_times_first * grad_output * second_order + from_first
    return _ops().cat([g_first, g_second], dim)


def glu_double_backward_grad_output(grad, self, dim):
    """d/dg of glu_backward (linear in g): grad times the slopes, the two halves added."""
    dim = dim % self.dim()
    sizes = list(self.shape)
    sizes[dim] //= 2
    from ._creation import ones
    tmp = grad * glu_backward(ones(tuple(sizes), dtype=self.dtype), self, dim=dim)
    return tmp.narrow(dim, 0, sizes[dim]) + tmp.narrow(dim, sizes[dim], sizes[dim])


glu = Op("glu", "GluBackward0", _glu, args=("dim",),
         jvp=lambda self_t, self, result, dim: _glu_jvp(result, self, self_t, dim),
         self=lambda grad, self, dim: glu_backward(grad, self, dim=dim))
def _glu_jvp(result, x, dx, dim):
    """d glu = σ(b)·da + glu·(1 - σ(b))·db, with x = (a, b) halved along dim (PyTorch's glu_jvp)."""
    half = result.shape[dim]
    b = x.narrow(dim, half, half)
    return result * (1 - b.sigmoid()) * dx.narrow(dim, half, half) + b.sigmoid() * dx.narrow(dim, 0, half)


glu_backward = Op(
    "glu_backward", "GluBackwardBackward0",
    # (C order, as PyTorch's grad_input.resize_as_(input): NumPy's concatenate follows its operands' layout)
    lambda g, x, dim: _strides.contiguous(_np_glu_backward(g, x, dim)), inputs=("grad_output", "self"), args=("dim",),
    grad_output=lambda grad, self, dim: glu_double_backward_grad_output(grad, self, dim),
    self=lambda grad, grad_output, self, dim: glu_double_backward(grad, grad_output, self, dim))


# =============================================================================================
# Convolution, pooling, normalization (nn.functional conv1d/conv2d, max_pool2d, avg_pool2d,
# adaptive_avg_pool2d, batch_norm). The window arithmetic (im2col / col2im on NumPy views) is in
# ``_conv.py``; these rows say what each node saves and how its gradients are computed.
# PyTorch's optional tensors (``Tensor? bias``) arrive as ``absent()`` stand-ins: an empty tensor that
# gives the input its (None, 0) edge; a node shows it as None, as PyTorch shows an undefined tensor.
# =============================================================================================
from . import _conv  # noqa: E402  (this section's NumPy arithmetic)


def absent(dtype=np.float32) -> Tensor:
    """The stand-in for a missing optional tensor argument (PyTorch's undefined tensor)."""
    # (an empty array of its own type: a real empty tensor, shape (0,) too, is never taken for one)
    return Tensor._make(np.empty(0, dtype=dtype).view(Absent))


def is_absent(a) -> bool:
    """Whether an array (a forward's argument) is the ``absent()`` stand-in's."""
    return type(a) is Absent


def _given(t):
    """``t``, or None for a missing optional tensor (the ``absent()`` stand-in, or None as a node saved it)."""
    return None if t is None or type(t._data) is Absent else t


def _or_absent(t, like) -> Tensor:
    """A saved optional tensor passed on to another op: ``absent()`` (of ``like``'s dtype) where it is None."""
    return absent(like.dtype.np) if t is None else t


def _shows_none_when_absent(op: Op, *names: str) -> None:
    """``Tensor?`` inputs: an ``absent()`` one is saved as PyTorch's undefined tensor (the node's ``_saved_<name>``
    reads None, before and after backward; its formulas get None; no saved-tensor hook sees it)."""
    op.optional = op.optional | frozenset(names)
    op._plan_calls()


_shows_none_when_absent(clamp_tensor, "min", "max")  # (clamp(x, min=t): _saved_max is None)


def _expand_arg(values, k: int) -> tuple:
    """A saved size argument as k numbers: PyTorch keeps ``stride=[2]`` as (2,) and expands it when used."""
    values = tuple(values)
    return values * k if len(values) == 1 else values


def _geometry(weight_ndim: int, stride, padding, dilation) -> tuple:
    k = weight_ndim - 2
    return _expand_arg(stride, k), _expand_arg(padding, k), _expand_arg(dilation, k)


# ---- convolution: y = conv(x, w) + b, linear in each of x, w and b ---------------------------------

def _convolution_forward(x, w, b, stride, padding, dilation, transposed, output_padding, groups, bias_sym_sizes_opt):
    if not transposed and x.shape[1] == 0:   # (PyTorch's "Empty" backend: no input channels, no output channels)
        out = _conv._output_shape(x.shape, w.shape[2:], *_geometry(w.ndim, stride, padding, dilation))
        return np.zeros((x.shape[0], 0, *out), np.result_type(x, w))
    if transposed:   # (the scatter of x·w: _conv.py's "transposed convolution")
        y = _conv.conv_transpose_forward(x, w, None if is_absent(b) else b, *_geometry(w.ndim, stride, padding,
                                                                                     dilation),
                                         _expand_arg(output_padding, w.ndim - 2), groups, bits=True)
    else:
        y = _conv.conv_forward(x, w, None if is_absent(b) else b, *_geometry(w.ndim, stride, padding, dilation),
                               groups, bits=True)   # (bits: PyTorch's float32 order where _conv_bits can)
    # PyTorch's result is a fresh contiguous tensor: strides (4, 1, 1) for a (1, 4, 1) result, where NumPy's
    # "contiguous" moveaxis may leave other strides on the size-1 dims.
    return _strides.contiguous(y)


def _convolution_backward_forward(g, x, w, stride, padding, dilation, transposed, output_padding, groups,
                                  output_mask):
    # Only the gradients asked for (output_mask) are computed; the others are left empty.
    geometry = (*_geometry(w.ndim, stride, padding, dilation), groups)
    empty = np.empty(0, dtype=g.dtype)
    if not transposed and x.shape[1] == 0:   # (the "Empty" backend's output took nothing from x, w or b)
        return tuple(np.zeros(shape, g.dtype) if wanted else empty
                     for shape, wanted in zip((x.shape, w.shape, w.shape[:1]), output_mask))
    bias_geometry = (x.shape, w.shape, geometry[0], geometry[2], groups)   # (bits=True: PyTorch's float32 order)
    if transposed:
        grads = (_conv.conv_transpose_backward_input(g, w, x.shape, *geometry, bits=True) if output_mask[0] else empty,
                 _conv.conv_transpose_backward_weight(g, x, w.shape, *geometry, bits=True) if output_mask[1] else empty,
                 _conv.conv_backward_bias(g, bias_geometry, transposed=True) if output_mask[2] else empty)
    else:
        grads = (_conv.conv_backward_input(g, w, x.shape, *geometry, bits=True) if output_mask[0] else empty,
                 _conv.conv_backward_weight(g, x, w.shape, *geometry, bits=True) if output_mask[1] else empty,
                 _conv.conv_backward_bias(g, (*bias_geometry, geometry[1])) if output_mask[2] else empty)
    # PyTorch's gradients are new tensors in the convolution's memory format: channels_last (4-D ones) when the
    # input or the weight is, else contiguous (strides (126, 42, 6, 1) for a (1, 3, 7, 6) input's too).
    channels_last = any(_strides.suggests_channels_last(a) for a in (x, w))

    def laid_out(r):
        if channels_last and r.ndim == 4 and r.size:
            return _strides.copy_into(_strides.with_strides(r.shape, _strides.channels_last_strides(r.shape), r.dtype),
                                      r)
        return _strides.contiguous(r)
    return tuple(laid_out(r) for r in grads)


def _conv_backward(grad, input, weight, stride, padding, dilation, transposed, output_padding, groups,
                   bias_sym_sizes_opt, grad_input_mask):
    """(d/dx, d/dw, d/db) of a convolution: the outputs of one convolution_backward, as in PyTorch.

    d/dx = conv_input_backward(g, w) (col2im of g·w), d/dw = Σ g · windows of x, d/db = Σ g; only the
    gradients in grad_input_mask are computed.
    """
    return convolution_backward(grad, input, weight, stride=stride, padding=padding, dilation=dilation,
                                transposed=transposed, output_padding=output_padding, groups=groups,
                                output_mask=grad_input_mask)


def _conv_jvp(input_t, weight_t, bias_t, input, weight, stride, padding, dilation, transposed, output_padding,
              groups, bias_sym_sizes_opt):
    """d conv(x, w) + b = conv(dx, w) + conv(x, dw) + db (bilinear in x and w)."""
    geometry = dict(stride=stride, padding=padding, dilation=dilation, transposed=transposed,
                    output_padding=output_padding, groups=groups, bias_sym_sizes_opt=bias_sym_sizes_opt)
    return convolution(input_t, weight, bias_t, **geometry) + convolution(input, weight_t, absent(weight.dtype.np),
                                                                        **geometry)


convolution = Op("convolution", "ConvolutionBackward0", _strides.channels_last_like(_convolution_forward, 2),
                 inputs=("input", "weight", "bias"),
                 args=("stride", "padding", "dilation", "transposed", "output_padding", "groups",
                       "bias_sym_sizes_opt"),
                 jvp=_conv_jvp,
                 input=joint(_conv_backward), weight=joint(_conv_backward), bias=joint(_conv_backward))


def _conv_double_backward(grads, grad_output, input, weight, stride, padding, dilation, transposed, output_padding,
                          groups, grad_input_mask):
    """convolution_backward's gradients, for (grad_output, input, weight) together as in PyTorch.

    Its outputs (gI, gW, gb) = (Jxᵀg, Jwᵀg, Σg) are bilinear in g and (w, x), so with incoming
    gradients (ggI, ggW, ggb):
      d/dg = conv(ggI, w) + conv(x, ggW) + ggb,   d/dx = Jxᵀ(g) applied with weight ggW,
      d/dw = Jwᵀ(g) with input ggI   (each term only when its incoming gradient is defined).
    """
    ggi, ggw, ggb = grads
    geometry = dict(stride=stride, padding=padding, dilation=dilation, transposed=transposed,
                    output_padding=output_padding, groups=groups)
    g_grad_output = g_input = g_weight = None
    if grad_input_mask[0]:
        terms = []
        if ggi is not None:
            terms.append(convolution(ggi, weight, absent(ggi.dtype.np), bias_sym_sizes_opt=(0,), **geometry))
        if ggw is not None:
            terms.append(convolution(input, ggw, absent(ggw.dtype.np), bias_sym_sizes_opt=(0,), **geometry))
        if ggb is not None:
            terms.append(ggb.reshape((1, -1) + (1,) * (grad_output.dim() - 2)).expand(grad_output.shape))
        for term in terms:   # (``sum`` is this module's reduction op)
            g_grad_output = term if g_grad_output is None else g_grad_output + term
    if grad_input_mask[1] and ggw is not None and input.numel():
        g_input = _conv_double_backward_input(grad_output, input, ggw, **geometry)
    if grad_input_mask[2] and ggi is not None and input.numel():
        g_weight = _conv_double_backward_weight(grad_output, ggi, weight, **geometry)
    return g_grad_output, g_input, g_weight


def _conv_double_backward_weight(grad_output, ggi, weight, stride, padding, dilation, transposed, output_padding,
                                 groups):
    """d/dw of ⟨ggI, Jxᵀ g⟩: the weight gradient of a convolution with input ggI, as PyTorch computes it.

    The batch is the reduced dim, so it becomes the channel dim: one (groups=1) convolution of ggIᵀ by gOᵀ
    (dims 0 and 1 swapped, stride and dilation swapped), per group, cat along dim 1, transposed back and cut to
    the kernel size. (So the result is laid out (C_in, C_out, *k) in memory, a transposed view, as PyTorch's.)
    """
    k = weight.dim() - 2
    swapped = dict(stride=_expand_arg(dilation, k), padding=padding, dilation=_expand_arg(stride, k),
                   transposed=False, output_padding=output_padding, groups=1, bias_sym_sizes_opt=(0,))
    go_t, ggi_t = grad_output.transpose(0, 1), ggi.transpose(0, 1)
    parts = []
    for g in range(groups):   # (PyTorch's subvariable: the g-th of `groups` equal slices of dim 0)
        go_g = go_t.narrow(0, g * (go_t.shape[0] // groups), go_t.shape[0] // groups) if groups > 1 else go_t
        ggi_g = ggi_t.narrow(0, g * (ggi_t.shape[0] // groups), ggi_t.shape[0] // groups) if groups > 1 else ggi_t
        pair = (go_g, ggi_g) if transposed else (ggi_g, go_g)
        parts.append(convolution(*pair, absent(grad_output.dtype.np), **swapped))
    g_weight = (parts[0] if groups == 1 else _ops().cat(parts, 1)).transpose(0, 1)
    for d in range(2, g_weight.dim()):   # (windows past the last full one: cut to the kernel)
        if g_weight.shape[d] > weight.shape[d]:
            g_weight = g_weight.narrow(d, 0, weight.shape[d])
    return g_weight


def _conv_double_backward_input(grad_output, input, ggw, stride, padding, dilation, transposed, output_padding,
                                groups):
    """d/dx of ⟨ggW, Jwᵀ g⟩: g run back through the convolution with weight ggW, as PyTorch computes it (a
    transposed convolution of g for a convolution, a convolution of g for a transposed one, cut to x's size)."""
    k = input.dim() - 2
    stride, padding, dilation = _geometry(input.dim(), stride, padding, dilation)
    if transposed:
        g_input = convolution(grad_output, ggw, absent(grad_output.dtype.np), stride=stride, padding=padding,
                              dilation=dilation, transposed=False, output_padding=output_padding, groups=groups,
                              bias_sym_sizes_opt=(0,))
        for d in range(2, g_input.dim()):
            if g_input.shape[d] > input.shape[d]:
                g_input = g_input.narrow(d, 0, input.shape[d])
        return g_input
    # The input positions past the last window (lost to the stride) come back as output_padding.
    output_padding = list(_expand_arg(output_padding, k))
    for i in range(k):
        expected = ((ggw.shape[2 + i] - 1) * dilation[i] - 2 * padding[i]
                    + stride[i] * (grad_output.shape[2 + i] - 1) + 1)
        if expected != input.shape[2 + i]:
            output_padding[i] = input.shape[2 + i] - expected
    return convolution(grad_output, ggw, absent(grad_output.dtype.np), stride=stride, padding=padding,
                       dilation=dilation, transposed=True, output_padding=tuple(output_padding), groups=groups,
                       bias_sym_sizes_opt=(0,))


convolution_backward = Op(
    "convolution_backward", "ConvolutionBackwardBackward0", _convolution_backward_forward,
    inputs=("grad_output", "input", "weight"),
    args=("stride", "padding", "dilation", "transposed", "output_padding", "groups", "output_mask"),
    outputs=("result0", "result1", "result2"), undefined_grads=True,
    grad_output=joint(_conv_double_backward), input=joint(_conv_double_backward),
    weight=joint(_conv_double_backward))


# ---- pooling over the last two dims ------------------------------------------------------------
# Sizes are saved as given (kernel_size=[2] shows (2,), stride=None shows ()) and expanded when used.

def _pool_sizes(kernel_size, stride, padding, dilation=(1,)):
    kernel = _expand_arg(kernel_size, 2)
    return kernel, _expand_arg(stride, 2) if len(stride) else kernel, _expand_arg(padding, 2), _expand_arg(dilation, 2)


def _max_pool2d_forward(x, kernel_size, stride, padding, dilation, ceil_mode):
    return _conv.max_pool2d(x, *_pool_sizes(kernel_size, stride, padding, dilation), ceil_mode)


def max_pool_double_backward(grad, indices, dims: int = 2):
    """d/dg of the scatter to the maxima: read grad back at each window's maximum (a gather over the last
    ``dims`` dims: 2 for the 1-d/2-d poolings, 3 for the 3-d ones)."""
    return grad.flatten(-dims).gather(-1, indices.flatten(-dims)).view(indices.shape)


max_pool2d_with_indices = Op(
    "max_pool2d_with_indices", "MaxPool2DWithIndicesBackward0", _strides.channels_last_like(_max_pool2d_forward),
    args=("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1),
    # each window's gradient goes to the element that was its maximum (result1 holds where it was)
    self=lambda grad, self, kernel_size, stride, padding, dilation, ceil_mode, result1:
        max_pool2d_with_indices_backward(grad, self, indices=result1))
# (the gradient takes the INPUT's memory format, as PyTorch's kernel allocates it: channels_last for such an x)
_max_pool2d_grad_input = _strides.channels_last_like(
    lambda x, g, indices: _conv.max_pool2d_backward(g, x.shape, indices._data))
max_pool2d_with_indices_backward = Op(
    "max_pool2d_with_indices_backward", "MaxPool2DWithIndicesBackwardBackward0",
    lambda g, x, indices: _max_pool2d_grad_input(x, g, indices=indices),
    inputs=("grad_output", "self"), args=("indices",),
    jvp="linear",  # linear in grad_output; self only gives the shape
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))   # piecewise constant in x


def _avg_pool2d_args(kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override) -> tuple:
    return (*_pool_sizes(kernel_size, stride, padding)[:3], ceil_mode, count_include_pad, divisor_override)


avg_pool2d = Op(
    "avg_pool2d", "AvgPool2DBackward0",
    _strides.channels_last_like(lambda x, **args: _conv.avg_pool2d(x, *_avg_pool2d_args(**args))),
    args=("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    jvp="linear",
    # linear: each window's gradient, divided by its divisor, spread over the window
    self=lambda grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override:
        avg_pool2d_backward(grad, self, kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                            count_include_pad=count_include_pad, divisor_override=divisor_override))
avg_pool2d_backward = Op(
    "avg_pool2d_backward", "AvgPool2DBackwardBackward0",
    # (in the input's memory format, as PyTorch's kernel allocates it: channels_last for such an x)
    lambda g, x, **args: _strides.channels_last_like(
        lambda x, g: _conv.avg_pool2d_backward(g, x.shape, *_avg_pool2d_args(**args)))(x, g),
    inputs=("grad_output", "self"),
    args=("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"),
    jvp="linear",
    # linear in g: its gradient is the pooling itself
    grad_output=lambda grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override:
        avg_pool2d(grad, kernel_size=kernel_size, stride=stride, padding=padding, ceil_mode=ceil_mode,
                   count_include_pad=count_include_pad, divisor_override=divisor_override),
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))   # x only gives the shape
adaptive_avg_pool2d = Op(
    "_adaptive_avg_pool2d", "AdaptiveAvgPool2DBackward0",
    _strides.channels_last_like(lambda x, output_size: _conv.adaptive_avg_pool2d(x, output_size)),
    args=("output_size",), jvp="linear",
    # y = A_h·x·A_wᵀ  ⇒  dx = A_hᵀ·g·A_w
    self=lambda grad, self: adaptive_avg_pool2d_backward(
        grad, self, grad_output_sym_argsize_minus_2=grad.shape[-2], grad_output_sym_argsize_minus_1=grad.shape[-1]))
adaptive_avg_pool2d_backward = Op(
    "_adaptive_avg_pool2d_backward", "AdaptiveAvgPool2DBackwardBackward0",
    lambda g, x, grad_output_sym_argsize_minus_2, grad_output_sym_argsize_minus_1:   # (x's memory format, as above)
        _strides.channels_last_like(lambda x, g: _conv.adaptive_avg_pool2d_backward(g, x.shape))(x, g),
    inputs=("grad_output", "self"), args=("grad_output_sym_argsize_minus_2", "grad_output_sym_argsize_minus_1"),
    jvp="linear",
    grad_output=lambda grad, grad_output_sym_argsize_minus_2, grad_output_sym_argsize_minus_1:   # linear in g
        adaptive_avg_pool2d(grad, output_size=(grad_output_sym_argsize_minus_2, grad_output_sym_argsize_minus_1)),
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))


# ---- batch normalization: y = (x - μ)/√(σ² + eps)·w + b, statistics per channel (dim 1) -------------

def _batch_norm_forward(x, weight, bias, running_mean, running_var, training, momentum, eps):
    if _float_math._is_reduced(x.dtype) and x.size:
        # float16/bfloat16 (with float32 parameters under autocast: PyTorch's mixed type): the float32 kernel,
        # the output rounded once; the saved statistics in the parameters' dtype
        f32 = np.float32
        stats = _batch_norm_param_dtype(x, weight, bias, running_mean, running_var)
        bf16_update = training and stats == x.dtype and x.dtype.kind == "V"   # (updated below)
        y, mean, invstd = _batch_norm_forward(x.astype(f32), weight.astype(f32), bias.astype(f32),
                                              None if bf16_update else running_mean,
                                              None if bf16_update else running_var, training, momentum, eps)
        mean, invstd = mean.astype(stats), invstd.astype(stats)
        if bf16_update:
            # (bfloat16 parameters: the sum of squares is rounded to bfloat16, divided by n in bfloat16, then
            # invstd = 1/√(var + eps) in double, rounded to float, then to bfloat16)
            var_sum, n = _batch_norm_cpu._stats(x.astype(f32))[1:]
            var = (var_sum.astype(stats) / stats.type(n)).astype(stats)
            invstd = (1 / np.sqrt(var.astype(np.float64) + eps)).astype(f32).astype(stats)
            # The running statistics in c10::BFloat16 arithmetic (every operation rounded to it, momentum too):
            # m·mean + (1 - m)·running_mean; the variance's m·(var_sum / (n - 1)) in float (the quotient of a
            # bfloat16 by an integer is a bfloat16), plus (1 - m)·running_var rounded to bfloat16.
            m, one = stats.type(momentum), stats.type(1)
            if running_mean is not None:
                running_mean._data[...] = m * mean + (one - m) * running_mean._data
            if running_var is not None:
                unbiased = (var_sum.astype(stats) / stats.type(n - 1)).astype(f32)
                running_var._data[...] = f32(m) * unbiased + ((one - m) * running_var._data).astype(f32)
        if training and stats == x.dtype:
            # (parameters in the half type too: PyTorch's output is x·α + β, fused, in float32 from the statistics
            # as rounded to the half type: α = invstd·w, β = b - mean·α)
            shape = (1, -1) + (1,) * (x.ndim - 2)
            alpha = invstd.astype(f32) * (1 if is_absent(weight) else weight.astype(f32))
            beta = fma(-mean.astype(f32), alpha, np.zeros_like(alpha) if is_absent(bias) else bias.astype(f32), f32)
            y = fma(x.astype(f32), alpha.reshape(shape), beta.reshape(shape), f32)
        return y.astype(x.dtype), mean, invstd
    if x.dtype.char in "fd" and x.size:  # PyTorch's kernel, bit for bit (_batch_norm_cpu.py)
        return _batch_norm_cpu.forward(x, None if is_absent(weight) else weight, None if is_absent(bias) else bias,
                                       running_mean, running_var, training, momentum, eps)
    axes = (0, *range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        mean, var = x.mean(axis=axes), x.var(axis=axes)
        n = x.size // x.shape[1]
        # PyTorch's kernel updates the running statistics in place, without a version bump; the running
        # variance takes the unbiased batch variance (× n/(n-1)).
        if running_mean is not None:
            running_mean._data[...] = (1 - momentum) * running_mean._data + momentum * mean
        if running_var is not None:
            running_var._data[...] = (1 - momentum) * running_var._data + momentum * (var * (n / (n - 1)))
        invstd = 1 / np.sqrt(var + eps)
        saved = mean, invstd
    else:
        mean, invstd = running_mean._data, 1 / np.sqrt(running_var._data + eps)
        saved = np.empty(0, x.dtype), np.empty(0, x.dtype)   # PyTorch saves empty statistics in eval mode
    y = (x - mean.reshape(shape)) * invstd.reshape(shape)
    if not is_absent(weight):
        y = y * weight.reshape(shape)
    if not is_absent(bias):
        y = y + bias.reshape(shape)
    return y.astype(x.dtype, copy=False), saved[0].astype(x.dtype, copy=False), saved[1].astype(x.dtype, copy=False)


def _batch_norm_param_dtype(x, weight, bias, running_mean, running_var) -> np.dtype:
    """PyTorch's parameter type of a batch norm: the first given parameter's dtype, else the input's."""
    for t in (weight, bias):
        if not is_absent(t):
            return t.dtype
    for t in (running_mean, running_var):
        if t is not None:
            return t._data.dtype
    return x.dtype


def _invstd_jvp(input_p, input_t, mean_p, invstd_p, dims, numel: int, keepdim: bool):
    """PyTorch's _invstd_jvp: the tangent of rstd = 1/√(var(x) + eps) over `dims`,
        d rstd = -rstd³ · Σ (dx - mean(dx))·(x - μ) / n,
    with μ and rstd the forward's saved statistics (as the kernel computed them), in PyTorch's order."""
    t = (input_t - input_t.mean(dims, keepdim=True)) * (input_p - mean_p) * -invstd_p.pow(3)
    return t.sum(dims, keepdim=keepdim) / numel


def _norm_jvp(input_p, input_t, mean_p, invstd_p, dims, numel: int):
    """PyTorch's _norm_jvp: the tangent of x̂ = (x - μ)·rstd,  dx̂ = (dx - mean(dx))·rstd + (x - μ)·d rstd."""
    invstd_t = _invstd_jvp(input_p, input_t, mean_p, invstd_p, dims, numel, True)
    return (input_t - input_t.mean(dims, keepdim=True)) * invstd_p + (input_p - mean_p) * invstd_t


def _param_tangent(p, p_t, shape, zero_adds: bool = False):
    """A norm's weight/bias tangent viewed as `shape`, or None where PyTorch adds no term: the parameter is missing,
    or (unless `zero_adds`) has no tangent. PyTorch's missing tangent is a ZeroTensor: x̂·dw is then left out (a
    -0. tangent stays -0.), but db is added in place (`result_t += bias_t`), which writes zeros: -0. + 0 = 0."""
    if _given(p) is None or (p._fw_grad is None and not zero_adds):
        return None
    if p._fw_grad is None:   # (the ZeroTensor added in place reads as zeros: a plain copy of them)
        return p_t.reshape(shape).clone()
    return p_t.reshape(shape)


def _affine_jvp(xhat, xhat_t, weight, weight_t, bias_t):
    """PyTorch's _affine_jvp: the tangent of x̂·w + b,  dx̂·w + x̂·dw + db (`xhat()` computes x̂, only if needed;
    `weight` is None when missing, `weight_t`/`bias_t` when there is no such term: see _param_tangent)."""
    if weight is not None:
        xhat_t = xhat_t * weight if weight_t is None else xhat_t * weight + xhat() * weight_t
    return xhat_t if bias_t is None else xhat_t + bias_t


def _norm_not_implemented(name):
    """The formula of a saved statistic's edge: PyTorch records it but has no derivative for it."""
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")
    return formula


def _np_batch_norm_backward(g, x, weight, save_mean, save_invstd, running_mean, running_var, train, eps,
                            output_mask):
    # (d/dx, d/dw, d/db) with x̂ = (x - μ)/√(σ² + eps), ĝ = g·w, sums and means over every dim but 1:
    #   training: d/dx = (ĝ - mean(ĝ) - x̂·mean(ĝ·x̂))/√(σ² + eps)   (μ, σ are the batch's: they move with x)
    #   eval:     d/dx = ĝ/√(σ² + eps)                              (the running statistics are constants)
    #   d/dw = Σ g·x̂,   d/db = Σ g.   Only the gradients in output_mask are computed.
    if x.dtype.char in "fd" and x.size:  # PyTorch's kernels, bit for bit (_batch_norm_cpu.py)
        return _batch_norm_cpu_backward(g, x, weight, save_mean, save_invstd, running_mean, running_var, train,
                                        eps, output_mask)
    if _float_math._is_reduced(x.dtype) and x.size:  # float16/bfloat16: in float32, rounded once
        f32 = np.float32
        gi, gw, gb = _np_batch_norm_backward(g.astype(f32), x.astype(f32), weight.astype(f32), save_mean.astype(f32),
                                             save_invstd.astype(f32), running_mean, running_var, train, eps,
                                             output_mask)
        return gi.astype(x.dtype), gw.astype(weight.dtype), gb.astype(weight.dtype)
    axes = (0, *range(2, x.ndim))
    shape = (1, -1) + (1,) * (x.ndim - 2)
    if train:
        mean, invstd = save_mean, save_invstd
    else:
        mean, invstd = running_mean._data, 1 / np.sqrt(running_var._data + eps)
    mean, invstd = mean.reshape(shape), invstd.reshape(shape)
    xhat = (x - mean) * invstd
    empty = np.empty(0, dtype=x.dtype)
    grad_input = grad_weight = grad_bias = empty
    if output_mask[0]:
        gw = g if is_absent(weight) else g * weight.reshape(shape)
        if train:
            gw = gw - gw.mean(axis=axes, keepdims=True) - xhat * (gw * xhat).mean(axis=axes, keepdims=True)
        grad_input = (gw * invstd).astype(x.dtype, copy=False)
    if output_mask[1]:
        grad_weight = (g * xhat).sum(axis=axes).astype(x.dtype, copy=False)
    if output_mask[2]:
        grad_bias = g.sum(axis=axes).astype(x.dtype, copy=False)
    return grad_input, grad_weight, grad_bias


def _batch_norm_cpu_backward(g, x, weight, save_mean, save_invstd, running_mean, running_var, train, eps,
                             output_mask):
    if train:
        mean, invstd = save_mean, save_invstd
    else:
        mean, invstd = running_mean._data, _batch_norm_cpu._eval_invstd(running_var._data, eps, x.dtype)
    w = None if is_absent(weight) else weight
    if (g.flags.c_contiguous and x.flags.c_contiguous) or (
            _batch_norm_cpu.channels_last_layout(g) and _batch_norm_cpu.channels_last_layout(x)):
        grads = _batch_norm_cpu.backward(g, x, w, mean, invstd, train, output_mask)
    else:
        grads = _batch_norm_cpu.backward_strided(g, x, w, mean, invstd, train)
    empty = np.empty(0, dtype=x.dtype)
    return tuple(grad if wanted else empty for grad, wanted in zip(grads, output_mask))


def _batch_norm_backward(grad, input, weight, running_mean, running_var, result1, result2, training, eps,
                         grad_input_mask):
    """(d/dx, d/dw, d/db) of batch norm: the outputs of one native_batch_norm_backward, as in PyTorch."""
    return native_batch_norm_backward(grad, input, _or_absent(weight, input), result1, result2,
                                      running_mean=running_mean, running_var=running_var, train=training, eps=eps,
                                      output_mask=grad_input_mask)


def batchnorm_double_backward(grads, grad_out, input, weight, running_mean, running_var, train, eps, save_mean,
                              save_invstd, grad_input_mask):
    """native_batch_norm_backward's gradients (ggO, gI, gW) from the incoming (ggI, ggW, ggb): PyTorch's
    batchnorm_double_backward, with the saved statistics μ, s = 1/√(σ² + eps) (sums Σ over all but dim 1,
    M elements each, x̃ = x - μ, g = grad_out):
      ggO = w·s/M·(M·ggI - Σ ggI - x̃·s²·Σ ggI·x̃) + ggW·x̃·s + ggb      (training; eval: ggI·s·w + ...)
      gW  = Σ ggI·s/M·(M·g - Σ g - x̃·s²·Σ g·x̃)                          (eval: Σ ggI·g·s)
      gI  = w·(x̃s³/M²·(Σ ggI·Σ g - M·Σ g·ggI + 3s²·Σ g·x̃·Σ ggI·x̃) + Σ ggI·x̃·s³/M·(Σ g/M - g)
               + Σ g·x̃·s³/M·(Σ ggI/M - ggI)) + ggW·(g·s - s·Σ g/M - x̃s³·Σ g·x̃/M)   (eval: ggW·s·g)
    Op for op in C++'s order (its in-place steps too, an operator's right operand first): the same nodes.
    """
    ggI, ggG, ggB = grads
    gamma = _given(weight)
    _div_ = lambda t, n: div_scalar(t, other=n, out=t)   # (C++'s t.div_(n), t.mul_(n): Scalar ops in place)
    _mul_ = lambda t, n: mul_scalar(t, other=n, out=t)

    def sum_exclude_dim1(t, keepdim=True):  # (C++: dim 0, then the last dims one at a time)
        r = t.sum(0, keepdim=keepdim)
        for d in range(r.dim() - 1, 1 if keepdim else 0, -1):
            r = r.sum(d, keepdim=keepdim)
        return r

    def unsqueeze_dim1(t):  # a (C,) tensor shaped (1, C, 1, ...)
        while t.dim() < input.dim() - 1:
            t = t.unsqueeze(1)
        return t.unsqueeze(0) if t.dim() == input.dim() - 1 else t

    def expand_as_dim1(t):  # a (C,) tensor broadcast over the input
        while t.dim() < input.dim() - 1:
            t = t.unsqueeze(1)
        return t.expand_as(input)

    ggG_expanded = ggB_expanded = None
    if gamma is not None:
        gamma_expanded = expand_as_dim1(gamma)
        if ggG is not None:
            ggG_expanded = expand_as_dim1(ggG)
        if ggB is not None:
            ggB_expanded = expand_as_dim1(ggB)
    else:   # (a ones tensor: its products still make nodes; a bias without a weight gets no ggB term: see below)
        gamma_expanded = _scalar_one(input)
    M = input.numel() // input.shape[1]
    mu = unsqueeze_dim1(save_mean.to(input.dtype) if train else running_mean)
    input_sub_mu = input - mu
    s = unsqueeze_dim1(save_invstd.to(input.dtype) if train else (running_var + eps).pow(-0.5))
    s2, s3 = s.pow(2), s.pow(3)
    input_mu_s3 = input_sub_mu * s3
    gOinmu_sum = sum_exclude_dim1(grad_out * input_sub_mu)
    gO_sum = sum_exclude_dim1(grad_out)

    g_input = None
    if ggI is not None and train:
        ggI_sum = sum_exclude_dim1(ggI)
        ggIinmu_sum = sum_exclude_dim1(ggI * input_sub_mu)
        all_sub = _div_(ggI_sum * gO_sum, M)
        all_sub = all_sub.sub_(sum_exclude_dim1(grad_out * ggI))
        all_sub = all_sub.add_(_mul_(s2 * gOinmu_sum * ggIinmu_sum, 3.0 / M))
        gI_0t = _div_(input_mu_s3 * all_sub, M)
        right = div_scalar(gO_sum, other=M) - grad_out
        gI_1t = _div_(ggIinmu_sum * s3, M) * right
        right = div_scalar(ggI_sum, other=M) - ggI
        gI_2t = _div_(gOinmu_sum * s3, M) * right
        g_input = gamma_expanded * gI_0t.add_(gI_1t).add_(gI_2t)
    if ggG_expanded is not None:
        if train:
            t0 = grad_out * s
            t1 = _div_(s * gO_sum, -M)
            right = sum_exclude_dim1(grad_out * input_sub_mu)
            t2 = _div_(input_mu_s3 * right, -M)
            term = ggG_expanded * t0.add_(t1).add_(t2)
        else:
            term = ggG_expanded * s * grad_out
        g_input = term if g_input is None else g_input.add_(term)

    def first_backward(g, gamma):  # d/dx of batch norm (training) for the gradient g and weight gamma
        h0 = _div_(gamma * s, M)
        h1 = mul_scalar(g, other=M).sub_(sum_exclude_dim1(g))
        right = sum_exclude_dim1(g * input_sub_mu)
        h1 = h1.sub_(input_sub_mu.mul(s2) * right)
        return h0 * h1

    g_weight = None
    if gamma is not None and ggI is not None:
        if train:
            g_weight = sum_exclude_dim1(ggI * first_backward(grad_out, _scalar_one(s)), False)
        else:
            g_weight = sum_exclude_dim1(ggI * grad_out * s, False)
    g_grad_out = None
    if ggI is not None:
        g_grad_out = first_backward(ggI, gamma_expanded) if train else ggI * s * gamma_expanded
    if ggG_expanded is not None:
        term = ggG_expanded * input_sub_mu * s
        g_grad_out = term if g_grad_out is None else g_grad_out.add_(term)
    if ggB is not None:   # (PyTorch expands ggB only with a weight: without one, its term is an undefined tensor)
        if ggB_expanded is None and g_grad_out is not None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 "
                               "'other'")
        g_grad_out = ggB_expanded if g_grad_out is None else g_grad_out.add_(ggB_expanded)
    return g_grad_out, g_input, g_weight


def _scalar_one(like):
    """C++'s ``at::ones({}, like.options())``: a 0-dim 1 of ``like``'s dtype, recording nothing."""
    return Tensor._make(np.ones((), dtype=like._data.dtype))


def _batch_norm_jvp(input_t, weight_t, bias_t, input, weight, bias, running_mean, running_var, training, eps,
                    result1, result2):
    """PyTorch's batch_norm_jvp, over every dim but 1 (n values per channel):
        training: dy = ((dx - mean(dx))·rstd + (x - μ)·d rstd)·w + x̂·dw + db   (μ, rstd: the saved result1/result2)
        eval:     dy = dx·rstd·w + x̂·dw + db                                  (μ, rstd: the running statistics)
    The statistics are the forward's outputs, not recomputed: the kernel's bits, and backward through the tangent
    reaches the input only directly, as in PyTorch (whose saved statistics' gradients are dropped)."""
    dims = (0, *range(2, input.dim()))
    shape = (1, -1) + (1,) * (input.dim() - 2)
    if training:
        mean, invstd = result1.reshape(shape), result2.reshape(shape)
        out = _norm_jvp(input, input_t, mean, invstd, dims, math.prod(input.shape[d] for d in dims))
    else:
        if running_mean._fw_grad is not None or running_var._fw_grad is not None:
            raise RuntimeError("batch_norm is not differentiable wrt running_mean and running_var, they cannot have "
                               "forward grad defined")
        # (C++'s 1 / t: a division)
        mean, invstd = running_mean.reshape(shape), (running_var + eps).sqrt().reciprocal().reshape(shape)
        out = input_t * invstd
    w = _given(weight)
    return _affine_jvp(lambda: (input - mean) * invstd, out, None if w is None else w.reshape(shape),
                       _param_tangent(weight, weight_t, shape), _param_tangent(bias, bias_t, shape, zero_adds=True))


native_batch_norm = Op(
    "native_batch_norm", "NativeBatchNormBackward0", _batch_norm_forward, inputs=("input", "weight", "bias"),
    args=("running_mean", "running_var", "training", "momentum", "eps"),
    outputs=("result0", "result1", "result2"), differentiable_outputs=1, jvp=_batch_norm_jvp,
    input=joint(_batch_norm_backward), weight=joint(_batch_norm_backward), bias=joint(_batch_norm_backward))
_shows_none_when_absent(native_batch_norm, "weight")
def _grad_input_in_suggested_format(x, results):
    """``results`` with the first (a kernel's grad_input) laid out as ``empty_like(x, x.suggest_memory_format())``:
    C order, or channels_last(_3d) for such an x."""
    first = results[0]
    if first.shape != x.shape or first.size == 0:
        return results
    return (_in_suggested_format(x, _strides.contiguous(first)), *results[1:])


native_batch_norm_backward = Op(
    "native_batch_norm_backward", "NativeBatchNormBackwardBackward0",
    # (grad_input in the input's memory format: PyTorch's empty_like(input, input.suggest_memory_format()))
    lambda g, x, *args, **kwargs: _grad_input_in_suggested_format(x, _np_batch_norm_backward(g, x, *args, **kwargs)),
    inputs=("grad_out", "input", "weight", "save_mean", "save_invstd"),
    args=("running_mean", "running_var", "train", "eps", "output_mask"),
    outputs=("result0", "result1", "result2"), undefined_grads=True,
    grad_out=joint(batchnorm_double_backward), input=joint(batchnorm_double_backward),
    weight=joint(batchnorm_double_backward),
    save_mean=_norm_not_implemented("native_batch_norm_backward save_mean"),
    save_invstd=_norm_not_implemented("native_batch_norm_backward save_invstd"))
_shows_none_when_absent(native_batch_norm_backward, "weight")


# ---- layer normalization: y = (x - μ)/√(σ² + eps)·w + b, statistics over the last dims (normalized_shape) ----

def _layer_norm_forward(x, weight, bias, normalized_shape, eps):
    if _float_math._is_reduced(x.dtype):  # float16/bfloat16: the float32 kernel, rounded once
        y, mean, rstd = _layer_norm_forward(x.astype(np.float32), weight.astype(np.float32),
                                            bias.astype(np.float32), normalized_shape, eps)
        # (the statistics in the parameters' dtype: float32 ones under autocast, PyTorch's mixed type)
        stats = next((t.dtype for t in (weight, bias) if not is_absent(t)), x.dtype)
        return y.astype(x.dtype), mean.astype(stats), rstd.astype(stats)
    if x.dtype.char in "fd" and x.size:  # PyTorch's kernel, bit for bit (_layer_norm_cpu.py)
        lead = x.shape[:x.ndim - len(normalized_shape)]
        y, mean, rstd = _layer_norm_cpu.forward(np.ascontiguousarray(x).reshape(-1, math.prod(normalized_shape)),
                                                None if is_absent(weight) else weight.reshape(-1),
                                                None if is_absent(bias) else bias.reshape(-1), eps)
        stats = lead + (1,) * len(normalized_shape)
        return y.reshape(x.shape), mean.reshape(stats), rstd.reshape(stats)
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    if math.prod(normalized_shape) == 0:   # (empty rows: PyTorch's mean 0 and variance 0/0, a NaN rstd)
        stats = x.shape[:x.ndim - len(normalized_shape)] + (1,) * len(normalized_shape)
        return x.copy(), np.zeros(stats, x.dtype), np.full(stats, np.nan, x.dtype)
    mean = x.mean(axis=axes, keepdims=True)
    rstd = 1 / np.sqrt(((x - mean) ** 2).mean(axis=axes, keepdims=True) + eps)
    y = (x - mean) * rstd
    if not is_absent(weight):
        y = y * weight
    if not is_absent(bias):
        y = y + bias
    return y.astype(x.dtype, copy=False), mean.astype(x.dtype), rstd.astype(x.dtype)


def _np_layer_norm_backward(g, x, mean, rstd, weight, bias, normalized_shape, output_mask):
    # (d/dx, d/dw, d/db) with x̂ = (x - μ)·rstd, ĝ = g·w, means over the normalized dims, sums over the others:
    #   d/dx = rstd·(ĝ - mean(ĝ) - x̂·mean(ĝ·x̂)),   d/dw = Σ g·x̂,   d/db = Σ g   (those in output_mask)
    if _float_math._is_reduced(x.dtype) and x.size and g.dtype == x.dtype:  # half: in float32, rounded once
        f32 = [a.astype(np.float32) for a in (g, x, mean, rstd, weight, bias)]
        dx, dw, db = _np_layer_norm_backward(*f32, normalized_shape, output_mask)
        if (output_mask[1] and not is_absent(weight)) or (output_mask[2] and not is_absent(bias)):
            dw2, db2 = _reduced_layer_norm_param_grads(*f32[:4], math.prod(normalized_shape), x.dtype)
            # (each only where its parameter exists: LayerNorm(bias=False) has an absent, empty bias)
            if not is_absent(weight):
                dw = dw2.reshape(weight.shape)
            if not is_absent(bias):
                db = db2.reshape(bias.shape)
        return dx.astype(x.dtype), dw.astype(weight.dtype), db.astype(bias.dtype)   # (float32 parameters: mixed)
    if x.dtype.char in "fd" and x.size and g.dtype == x.dtype:  # PyTorch's kernel (_layer_norm_cpu.py)
        n = math.prod(normalized_shape)
        dx, dw, db = _layer_norm_cpu.backward(np.ascontiguousarray(g).reshape(-1, n),
                                              np.ascontiguousarray(x).reshape(-1, n), mean.reshape(-1),
                                              rstd.reshape(-1), None if is_absent(weight) else weight.reshape(-1),
                                              (output_mask[0], output_mask[1] and not is_absent(weight),
                                               output_mask[2] and not is_absent(bias)))
        empty = np.empty(0, dtype=x.dtype)
        return (dx.reshape(x.shape) if output_mask[0] else empty,
                dw.reshape(weight.shape) if output_mask[1] and not is_absent(weight) else empty,
                db.reshape(bias.shape) if output_mask[2] and not is_absent(bias) else empty)
    axes = tuple(range(x.ndim - len(normalized_shape), x.ndim))
    lead = tuple(range(x.ndim - len(normalized_shape)))
    xhat = (x - mean) * rstd
    empty = np.empty(0, dtype=x.dtype)
    grad_input = grad_weight = grad_bias = empty
    if output_mask[0] and x.size == 0:   # (nothing to normalise)
        grad_input = np.zeros(x.shape, x.dtype)
    elif output_mask[0]:
        gw = g if is_absent(weight) else g * weight
        grad_input = ((gw - gw.mean(axis=axes, keepdims=True) - xhat * (gw * xhat).mean(axis=axes, keepdims=True))
                      * rstd).astype(x.dtype, copy=False)
    if output_mask[1] and not is_absent(weight):
        grad_weight = (g * xhat).sum(axis=lead).astype(x.dtype, copy=False)
    if output_mask[2] and not is_absent(bias):
        grad_bias = g.sum(axis=lead).astype(x.dtype, copy=False)
    return grad_input, grad_weight, grad_bias


def _reduced_layer_norm_param_grads(g, x, mean, rstd, n: int, dtype) -> tuple:
    """(Σ g·x̂, Σ g) over the rows for a float16/bfloat16 input, as PyTorch's kernel adds them: the rows split
    into one contiguous chunk per thread, each chunk summed row by row into a buffer of the input's dtype
    (rounded at every row), the threads' buffers then added in float32."""
    g, x = g.reshape(-1, n), x.reshape(-1, n)
    a = rstd.reshape(-1, 1)
    b = -a * mean.reshape(-1, 1)
    terms = g * (a * x + b)
    rows, threads = g.shape[0], _sums.THREADS[0]
    chunk = -(-rows // threads) if rows else 0
    dw, db = np.zeros(n, np.float32), np.zeros(n, np.float32)
    for start in range(0, rows, max(chunk, 1)):
        buf_w, buf_b = np.zeros(n, np.float32), np.zeros(n, np.float32)
        for i in range(start, min(rows, start + chunk)):
            buf_w = (buf_w + terms[i]).astype(dtype).astype(np.float32)
            buf_b = (buf_b + g[i]).astype(dtype).astype(np.float32)
        dw, db = dw + buf_w, db + buf_b
    return dw, db


def _layer_norm_backward(grad, input, normalized_shape, result1, result2, weight, bias, grad_input_mask):
    """(d/dx, d/dw, d/db) of layer norm: the outputs of one native_layer_norm_backward, as in PyTorch."""
    return native_layer_norm_backward(grad, input, result1, result2, _or_absent(weight, input), _or_absent(bias, input),
                                      normalized_shape=normalized_shape, output_mask=grad_input_mask)


def layer_norm_double_backward(grads, grad_out, input, mean, rstd, weight, normalized_shape, grad_input_mask):
    """native_layer_norm_backward's gradients (ggO, gI, gW) from the incoming (ggI, ggW, ggb): PyTorch's
    layer_norm_double_backward, batch norm's formulas (batchnorm_double_backward) with the roles of the dims
    exchanged: the input seen as M rows of N normalized elements, each row with its saved μ and rstd.

    Written as PyTorch's C++ is, op for op (its in-place div_/sub_/add_, its Scalar products and quotients, a ones
    weight when there is none, each binary operator's right operand made first), so that a third derivative
    meets the same nodes in the same order."""
    ggI, ggG, ggB = grads
    gamma = _given(weight)
    axis = input.dim() - len(normalized_shape)
    M, N = math.prod(input.shape[:axis]), math.prod(input.shape[axis:])
    _div_ = lambda t, n: div_scalar(t, other=n, out=t)   # (C++'s t.div_(n), t.mul_(n): Scalar ops in place)
    _mul_ = lambda t, n: mul_scalar(t, other=n, out=t)
    x = input.reshape(M, N)
    gO = grad_out.reshape(M, N)
    save_mean, save_invstd = mean.reshape(M, 1), rstd.reshape(M, 1)
    if gamma is not None:
        gamma_expanded = gamma.reshape(1, N)
        ggG_expanded = ggG.reshape(1, N) if ggG is not None else None
        ggB_expanded = ggB.reshape(1, N) if ggB is not None else None
    else:
        from ._creation import ones
        gamma_expanded = ones((1,), dtype=x.dtype)
        ggG_expanded = ggB_expanded = None
    ggI_expanded = ggI.reshape(M, N) if ggI is not None else None
    mu = save_mean if save_mean.dtype == x.dtype else save_mean.to(x.dtype)   # (half inputs: float statistics)
    input_sub_mu = x - mu
    s = save_invstd if save_invstd.dtype == x.dtype else save_invstd.to(x.dtype)
    s2, s3 = s.pow(2), s.pow(3)
    input_mu_s3 = input_sub_mu * s3

    g_input = None
    if ggI is not None:
        gxhat = gO * gamma_expanded
        gxhat_mu_sum = (gxhat * input_sub_mu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI_expanded.sum(1, True)
        ggI_mu_sum = (ggI_expanded * input_sub_mu).sum(1, True)
        all_sub = _div_(ggI_sum * gxhat_sum, N).sub_((ggI_expanded * gxhat).sum(1, True))
        all_sub = all_sub.add_(_mul_(s2 * gxhat_mu_sum * ggI_mu_sum, 3.0 / N))
        gI_0t = _div_(input_mu_s3 * all_sub, N)
        right = div_scalar(gxhat_sum, other=N) - gxhat
        gI_1t = _div_(ggI_mu_sum * s3, N) * right
        right = div_scalar(ggI_sum, other=N) - ggI_expanded
        gI_2t = _div_(gxhat_mu_sum * s3, N) * right
        g_input = gI_0t.add_(gI_1t).add_(gI_2t)
    if gamma is not None and ggG_expanded is not None:
        t0 = gO * ggG_expanded * s
        t1 = _div_(s * (gO * ggG_expanded).sum(1, True), -N)
        t2 = _div_(input_mu_s3 * (gO * ggG_expanded * input_sub_mu).sum(1, True), -N)
        term = t0.add_(t1).add_(t2)
        g_input = term if g_input is None else g_input.add_(term)
    if g_input is not None:
        g_input = g_input.reshape_as(input)

    def first_backward(g, gamma):  # d/dx of layer norm for the gradient g (M × N) and weight gamma
        h0 = _div_(gamma * s, N)
        h1 = mul_scalar(g, other=N).sub_(g.sum(1, True))
        g_mu_sum = (g * input_sub_mu).sum(1, True)   # (the product's right operand, made first)
        h1 = h1.sub_(input_sub_mu.mul(s2) * g_mu_sum)
        return h0 * h1

    g_weight = None
    if gamma is not None and ggI is not None:
        from ._creation import ones
        g_weight = (gO * first_backward(ggI_expanded, ones((), dtype=s.dtype))).sum(0).reshape_as(gamma)
    g_grad_out = None
    if ggI is not None:
        g_grad_out = first_backward(ggI_expanded, gamma_expanded)
    if ggG_expanded is not None:
        term = ggG_expanded * input_sub_mu * s
        g_grad_out = term if g_grad_out is None else g_grad_out.add_(term)
    if ggB is not None and gamma is None:
        # PyTorch reshapes ggB only when there is a weight: without one its term is an undefined tensor, dropped
        # when nothing came before it, and refused by the addition otherwise (PyTorch's error, kept)
        if g_grad_out is not None:
            raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for "
                               "argument #1 'other'")
    elif ggB_expanded is not None:
        g_grad_out = ggB_expanded if g_grad_out is None else g_grad_out.add_(ggB_expanded)
    if g_grad_out is not None:
        g_grad_out = g_grad_out.expand(M, N).reshape_as(input)
    return g_grad_out, g_input, g_weight


def _layer_norm_jvp(input_t, weight_t, bias_t, input, weight, bias, normalized_shape, result1, result2):
    """PyTorch's layer_norm_jvp: dy = ((dx - mean(dx))·rstd + (x - μ)·d rstd)·w + x̂·dw + db, means over the
    normalized dims; μ and rstd are the forward's saved result1/result2 (see _batch_norm_jvp)."""
    lead = input.dim() - len(normalized_shape)
    dims = tuple(range(lead, input.dim()))
    affine = (1,) * lead + tuple(input.shape[lead:])
    mean, invstd = result1, result2   # (shaped (leading dims..., 1, ..., 1) already)
    out = _norm_jvp(input, input_t, mean, invstd, dims, math.prod(input.shape[lead:]))
    w = _given(weight)
    return _affine_jvp(lambda: (input - mean) * invstd, out, None if w is None else w.reshape(affine),
                       _param_tangent(weight, weight_t, affine), _param_tangent(bias, bias_t, affine, zero_adds=True))


native_layer_norm = Op("native_layer_norm", "NativeLayerNormBackward0", _layer_norm_forward,
                       inputs=("input", "weight", "bias"), args=("normalized_shape", "eps"), jvp=_layer_norm_jvp,
                       outputs=("result0", "result1", "result2"), differentiable_outputs=1,
                       input=joint(_layer_norm_backward), weight=joint(_layer_norm_backward),
                       bias=joint(_layer_norm_backward))
_shows_none_when_absent(native_layer_norm, "weight", "bias")
native_layer_norm_backward = Op(
    "native_layer_norm_backward", "NativeLayerNormBackwardBackward0", _np_layer_norm_backward,
    inputs=("grad_out", "input", "mean", "rstd", "weight", "bias"), args=("normalized_shape", "output_mask"),
    outputs=("result0", "result1", "result2"), undefined_grads=True,
    grad_out=joint(layer_norm_double_backward), input=joint(layer_norm_double_backward),
    weight=joint(layer_norm_double_backward),
    mean=_norm_not_implemented("native_layer_norm_backward mean"),
    rstd=_norm_not_implemented("native_layer_norm_backward rstd"),
    bias=lambda grad: None)                                   # (PyTorch's formula: an undefined tensor)
_shows_none_when_absent(native_layer_norm_backward, "weight")


def _layer_norm_backward_decomposition(grad_out, input, mean, rstd, weight, bias, normalized_shape, output_mask):
    """PyTorch's decomposition for jvp (decompositions_for_jvp.native_layer_norm_backward), which gives the values
    and tangents under forward AD: the mean and rstd recomputed from the input (its eps kept as a constant), so
    that they carry the input's tangent; then rstd/N·(N·ĝ - Σ ĝ - x̂·Σ ĝ·x̂), Σ g·x̂, Σ g, ĝ = g·w."""
    from ._ops_math import var_mean as _var_mean
    weight, bias = _given(weight), _given(bias)
    axis = input.dim() - len(normalized_shape)
    inner_dims, outer_dims = list(range(axis, input.dim())), list(range(axis))
    n, m = math.prod(input.shape[axis:]), math.prod(input.shape[:axis])
    if m <= 0 or n <= 0:
        return (_ops().zeros_like(input), input.new_zeros(input.shape[axis:]), input.new_zeros(input.shape[axis:]))
    var, mean_ = _var_mean(input, dim=inner_dims, correction=0, keepdim=True)
    eps = (rstd.reciprocal() ** 2 - var).detach()          # (1 / rstd)² - var: the eps the forward added
    rstd_ = (var + eps).rsqrt()
    x_hat = (input - mean_) * rstd_
    grad_x_hat = grad_out * weight if weight is not None else grad_out
    a = grad_x_hat * n
    b = grad_x_hat.sum(inner_dims, True)
    c3 = x_hat * (grad_x_hat * x_hat).sum(inner_dims, True)
    d_input = (rstd_ / n) * (a - b - c3) if output_mask[0] else _ops().zeros_like(input)
    if output_mask[1] and weight is not None:
        d_weight = (grad_out * x_hat).sum(outer_dims, False) if outer_dims else grad_out * x_hat
    else:
        d_weight = _ops().zeros_like(weight) if weight is not None else input.new_zeros(())
    if output_mask[2] and bias is not None:
        d_bias = grad_out.sum(outer_dims, False) if outer_dims else grad_out.clone()
    else:
        d_bias = _ops().zeros_like(bias) if bias is not None else input.new_zeros(())
    return d_input, d_weight, d_bias


native_layer_norm_backward.jvp_decomposition = _layer_norm_backward_decomposition   # (forward_ad._run_decomposed)


# =============================================================================================
# Missing-ops pass: block_diag, rot90, aminmax, erfinv, nanmedian, fmax/fmin, cdist (PyTorch's formulas)
# =============================================================================================

_builtin_sum = __builtins__["sum"] if isinstance(__builtins__, dict) else __builtins__.sum  # (sum is an Op here)


def _block_diag_forward(*arrays):
    """The arrays on the diagonal of a zero matrix (a 0-dim one as 1x1, a 1-D one as a row)."""
    blocks = [a.reshape(1, -1) if a.ndim == 1 else a.reshape(1, 1) if a.ndim == 0 else a for a in arrays]
    out = np.zeros((_builtin_sum(b.shape[0] for b in blocks), _builtin_sum(b.shape[1] for b in blocks)),
                   arrays[0].dtype if arrays else np.float32)
    row = col = 0
    for b in blocks:   # (an empty vector is a 1x0 block: it takes a row, which its backward does not skip)
        out[row:row + b.shape[0], col:col + b.shape[1]] = b
        row, col = row + b.shape[0], col + b.shape[1]
    return out


def block_diag_backward(grad, metas):
    """d block_diag(xs) / d xs[i]: the block of grad where xs[i] sits.

    As PyTorch: two slices, then ``squeeze(-1)`` for a 1-D input (a no-op unless it has one element: the
    engine then sums the (1, n) block to (n,)) and twice for a 0-dim one.
    """
    grads, row, col = [], 0, 0
    # (a real input of a complex result: the real part of the whole gradient, taken once, as for cat)
    real = grad.real if grad.is_complex() and any(dt.kind != "c" for _, dt in metas) else None
    for shape, dt in metas:
        g = real if real is not None and dt.kind != "c" else grad
        if len(shape) == 1 and shape[0] == 0:   # (PyTorch's backward: no row for it, though its forward has one)
            grads.append(_ops().zeros(0, dtype=g.dtype))
            continue
        rows, cols = shape if len(shape) == 2 else (1, shape[0]) if len(shape) == 1 else (1, 1)
        block = slice(slice(g, dim=0, start=row, end=row + rows, step=1), dim=1, start=col, end=col + cols, step=1)
        if len(shape) == 1:
            block = block.squeeze(-1)
        elif len(shape) == 0:
            block = block.squeeze(-1).squeeze(-1)
        grads.append(block)
        row, col = row + rows, col + cols
    return tuple(grads)


block_diag = Op("block_diag", "BlockDiagBackward0", _block_diag_forward, inputs=("tensors",), list_input=True,
                jvp="linear",
                tensors=lambda grad, _input_meta: block_diag_backward(grad, _input_meta))


def _rot90(a, k, dims):
    # PyTorch's kernel: flip one dim, then a transposed view (k = 1, 3), or flip both (k = 2), or a copy.
    # (flip's result keeps the input's layout: empty_like(a) with its strides, as PyTorch's flip)
    d0, d1 = (d % a.ndim for d in dims)
    k %= 4

    def flip(axes):
        return _strides.copy_into(_strides.empty_like(a), np.flip(a, axes))
    if k == 1:
        return np.swapaxes(flip(d1), d0, d1)
    if k == 3:
        return np.swapaxes(flip(d0), d0, d1)
    return flip((d0, d1)) if k == 2 else a.copy()


rot90 = Op("rot90", "Rot90Backward0", _rot90, args=("k", "dims"), jvp="linear",
           self=lambda grad, k, dims: rot90(grad, k=-k, dims=dims))          # rotate back by -k


def restore_reduced_dims(output, dims, keepdim):
    """A reduction's output reshaped with its reduced ``dims`` back as size 1 (PyTorch's reshape, a view)."""
    if keepdim:
        return output
    total = output.dim() + len(dims)
    target = [0] * total
    for d in dims:
        target[d + total if d < 0 else d] = 1
    sizes = iter(output.shape)
    return output.reshape([1 if t else next(sizes) for t in target])


def aminmax_backward(grads, self, dim, keepdim, min, max):
    """d (min, max) / dx: each output's gradient shared evenly by the elements equal to it (as amin/amax)."""
    # (no dim: every dim of self comes back as size 1, as PyTorch's formula reshapes to (1, 1, ...))
    dims = tuple(range(self.dim())) if dim is None else (dim,)
    result = None
    for g, value in zip(grads, (min, max)):
        if g is None:  # (an output that got no gradient adds nothing)
            continue
        mask = self == restore_reduced_dims(value, dims, keepdim)
        part = restore_reduced_dims(g, dims, keepdim) / mask.sum(dims, keepdim=True) * mask
        result = part if result is None else result + part
    return result


def _aminmax(a, dim, keepdim):
    # (C-order results, as PyTorch's reductions: NumPy's follow a's layout)
    return (_strides.contiguous(np.amin(a, axis=dim, keepdims=keepdim)),
            _strides.contiguous(np.amax(a, axis=dim, keepdims=keepdim)))


aminmax = Op("aminmax", "AminmaxBackward0", _rank0_ok(_aminmax), args=("dim", "keepdim"), outputs=("min", "max"),
             undefined_grads=True,
             # the tangent at the extreme elements, averaged over ties (as amin / amax)
             jvp=lambda self_t, self, dim, keepdim, min, max: tuple(
                 _reduced_jvp(self_t * m, dim, keepdim, r) / _reduced_jvp(m, dim, keepdim, r)
                 for r in (min, max)
                 for m in [(self == (r if dim is None or keepdim else r.unsqueeze(dim))).to(self_t.dtype)]),
             self=lambda grads, self, dim, keepdim, min, max: aminmax_backward(grads, self, dim, keepdim, min, max))


_erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _erfinv(a):
    """The inverse of erf to ~1 ulp: a rational first guess (Pavlis's, PyTorch's), then three Newton steps.

    PyTorch's CPU kernel is MKL's, correctly rounded or nearly. Near ±1 the steps solve erfc(x) = 1 - |y|
    (exact there), which stays accurate where erf(x) rounds to 1.
    """
    y = a.astype(np.float64)
    ya = np.abs(y)
    p = (0.886226899, -1.645349621, 0.914624893, -0.140543331)
    q = (-2.118377725, 1.442710462, -0.329097515, 0.012229801)
    c = (-1.970840454, -1.624906493, 3.429567803, 1.641345311)
    d = (3.543889200, 1.637067800)
    z = ya * ya
    x = ya * (((p[3] * z + p[2]) * z + p[1]) * z + p[0]) / ((((q[3] * z + q[2]) * z + q[1]) * z + q[0]) * z + 1.0)
    tail = 1.0 - ya
    w = np.sqrt(-np.log(tail / 2.0))
    x = np.where(ya <= 0.7, x, (((c[3] * w + c[2]) * w + c[1]) * w + c[0]) / ((d[1] * w + d[0]) * w + 1.0))
    near_zero = ya <= 0.5
    slope = 2.0 / math.sqrt(math.pi)                                  # d erf(x)/dx = 2/√π · e^(-x²)
    for _ in range(3):
        x = x - np.where(near_zero, _erf(x) - ya, tail - _erfc(x)) / (slope * np.exp(-x * x))
    x = np.where(ya == 1, np.inf, np.where(ya > 1, np.nan, x))
    return np.copysign(x, y).astype(a.dtype, copy=False)


erfinv = Op("erfinv", "ErfinvBackward0", _vml.unary("erfinv", _erfinv), jvp="element_wise",
            # d erfinv(y)/dy = √π/2 · exp(erfinv(y)²)
            self=lambda grad, self: mul_scalar(self.erfinv().pow(2).exp(), other=0.5 * math.sqrt(math.pi)) * grad)


def _nanmedian_all(a):
    # The lower median of the non-NaN values (NaN if there are none).
    values = np.sort(a[~np.isnan(a)] if a.dtype.kind in "fc" else a.reshape(-1))
    return np.asarray(values[(values.size - 1) // 2], a.dtype) if values.size else _nan_as(a.dtype)


def _nanmedian_dim(a, dim, keepdim):
    """(values, indices) of the lower median of the non-NaN values along ``dim``, PyTorch's index on ties.

    PyTorch runs std::nth_element with ties broken by index, so the answer is the stable sort's; only an
    all-NaN row (whose NaNs compare as neither smaller nor larger) takes the index nth_element leaves there.
    """
    moved = np.moveaxis(a, dim, -1)
    rows = moved.reshape(-1, moved.shape[-1])
    n = rows.shape[1]
    nan = np.isnan(rows) if a.dtype.kind in "fc" else np.zeros(rows.shape, bool)
    order = np.argsort(rows, axis=1, kind="stable")                  # NaNs last
    count = n - nan.sum(axis=1)
    idx = np.take_along_axis(order, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    idx = np.where(count == 0, _all_nan_median_index(n), idx)
    values = rows[np.arange(rows.shape[0]), idx]
    shape = moved.shape[:-1]
    values, idx = values.reshape(shape), idx.reshape(shape)
    if keepdim:
        values, idx = np.expand_dims(values, dim), np.expand_dims(idx, dim)
    return values, idx.astype(np.int64)


def _all_nan_median_index(n: int) -> int:
    """Where libstdc++'s nth_element(first, first, last) leaves index 0's place when nothing compares less."""
    if n == 0:
        return 0
    from . import _stl
    order = list(range(n))
    _stl.nth_element(order, 0, lambda i, j: False)
    return order[0]


nanmedian_all = Op("nanmedian", "NanmedianBackward0", _nanmedian_all,
                   jvp=evenly_read_jvp,
                   self=evenly_distribute_backward)                     # the median's equals share the gradient
nanmedian_dim = Op("nanmedian", "NanmedianBackward1", _rank0_ok(_nanmedian_dim), args=("dim", "keepdim"),
                   jvp=lambda self_t, dim, indices, keepdim: _selected_jvp(self_t, dim, indices, keepdim),
                   outputs=("values", "indices"), differentiable_outputs=1,
                   self=lambda grad, dim, indices, self_sym_sizes, keepdim:
                       value_selecting_backward(grad, dim, indices, self_sym_sizes, keepdim))

# fmax/fmin: like maximum/minimum, but a NaN loses to a number. The gradient goes to the chosen input
# (self on ties, as PyTorch's masks say).
def _self_on_ties(kernel):
    """fmax/fmin with `self` between +0.0 and -0.0 (PyTorch's vector and scalar code both keep it; NumPy's
    loops may not)."""
    def forward(a, b):
        out = kernel(a, b)
        if out.dtype.kind != "f":
            return out
        return np.where((a == 0) & (b == 0), a, out).astype(out.dtype, copy=False)
    return forward


fmax = Op("fmax", "FmaxBackward0", _self_on_ties(np.fmax), inputs=("self", "other"),
          jvp=lambda self_t, other_t, self, other: _pick_jvp(self_t, other_t, (self > other) | other.isnan()),
          self=lambda grad, self, other: grad.masked_fill((self >= other).logical_or(other.isnan()).logical_not(), 0),
          other=lambda grad, self, other: grad.masked_fill((self >= other).logical_or(other.isnan()), 0))
fmin = Op("fmin", "FminBackward0", _self_on_ties(np.fmin), inputs=("self", "other"),
          # (self on a tie, unlike fmax's: PyTorch's formula)
          jvp=lambda self_t, other_t, self, other: _pick_jvp(self_t, other_t, (self <= other) | other.isnan()),
          self=lambda grad, self, other: grad.masked_fill((self <= other).logical_or(other.isnan()).logical_not(), 0),
          other=lambda grad, self, other: grad.masked_fill((self <= other).logical_or(other.isnan()), 0))


def _cdist_forward(x1, x2, p, compute_mode=None):
    """‖x1[i] - x2[j]‖_p for every pair of rows, batch dims broadcast (PyTorch's direct kernel)."""
    diff = np.abs(x1[..., :, None, :] - x2[..., None, :, :])
    if p == 0:   # (C order, as the other p's fresh result: NumPy's reduction keeps a transposed x1's layout)
        # (PyTorch's term is min(ceil(diff), 1): 1 for any other difference, inf's too, and a NaN difference's NaN)
        return _strides.contiguous(np.minimum(np.ceil(diff), 1).sum(-1).astype(x1.dtype, copy=False))
    if p == math.inf:   # (PyTorch's std::max(agg, diff) from 0 skips NaN differences: fmax)
        return _strides.contiguous(np.fmax.reduce(diff, axis=-1, initial=0).astype(x1.dtype, copy=False))
    # PyTorch's kernel adds the features' terms one at a time, in order (agg += term), so do we
    m = diff.shape[-1]
    agg = np.zeros(diff.shape[:-1], diff.dtype)
    if p == 1:
        for k in range(m):
            agg = agg + diff[..., k]
        return agg
    if p == 2:
        # The compiled loop squares 16 bytes of features at a time (4 floats, 2 doubles) and adds those
        # squares in order; the last m % 4 (m % 2) features take a fused agg + d·d (one rounding)
        step = 16 // diff.itemsize
        whole = m - m % step
        for k in range(m):
            d = diff[..., k]
            agg = agg + d * d if k < whole else _fma_like(d, d, agg)
        return np.sqrt(agg)
    # other p: agg += std::pow(d, p) with p in x's dtype (glibc's powf for float32), then std::pow(agg, 1.0 / p):
    # the root in double (1.0 is a double), rounded back
    p = diff.dtype.type(p)
    power = _glibc_powf if diff.dtype == np.float32 else _glibc_pow
    for k in range(m):
        agg = agg + power(diff[..., k], p)
    return _glibc_pow(agg.astype(np.float64), 1.0 / np.float64(p)).astype(x1.dtype, copy=False)


_glibc_pow = _float_math.libm_double("pow", np.power, arity=2)
_glibc_powf = _float_math.libm_float("powf", np.power, arity=2)


def _fma_like(a, b, c):
    """a·b + c rounded once, in a's float dtype (float32 through float64; float64 emulated)."""
    if a.dtype == np.float32:
        return (a.astype(np.float64) * b + c).astype(np.float32)
    return _float_math._fma64(a, b, c)


def _cdist_backward_forward(grad, x1, x2, cdist, p):
    """PyTorch's _cdist_backward: d cdist / d x1, summed over x2's rows (x1's batch dims broadcast)."""
    diff = x1[..., :, None, :] - x2[..., None, :, :]
    g, dist = grad[..., None], cdist[..., None]
    sign = np.sign(diff)
    if p == 0:
        out = np.zeros_like(diff)
    elif p == 1:
        out = sign * g
    elif p == 2:
        out = np.where(dist == 0, 0.0, g * diff / dist)
    elif p == math.inf:
        out = g * sign * (np.abs(diff) == dist)
    else:
        # (Vectorized pow on every feature, remainder included: SLEEF's, with p - 1 and p - 2 in x's dtype)
        dt = diff.dtype
        pow_ = _float_math.sleef_powf if dt == np.float32 else _float_math.sleef_pow64
        one, two = dt.type(p) - dt.type(1), dt.type(p) - dt.type(2)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if p < 2:
                out = np.where(dist == 0, 0.0, sign * pow_(np.abs(diff), one) * g / pow_(dist, one))
                if p < 1:
                    out = np.where(diff == 0, 0.0, out)
            else:
                out = np.where(dist == 0, 0.0, diff * pow_(np.abs(diff), two) * g / pow_(dist, one))
    return out.sum(-2).astype(x1.dtype, copy=False)


def _cdist_backward_not_implemented(grad):
    raise NotImplementedError("the derivative for '_cdist_backward' is not implemented.")


# cdist's gradient is an op of its own, as in PyTorch, which has no derivative for it (double backward raises).
cdist_backward = Op("_cdist_backward", "CdistBackwardBackward0", _cdist_backward_forward,
                    inputs=("grad", "x1", "x2", "cdist"), args=("p",),
                    grad=_cdist_backward_not_implemented, x1=_cdist_backward_not_implemented,
                    x2=_cdist_backward_not_implemented, cdist=_cdist_backward_not_implemented)
cdist = Op("_cdist_forward", "CdistBackward0", _cdist_forward, inputs=("x1", "x2"), args=("p", "compute_mode"),
           x1=lambda grad, x1, x2, p, result: cdist_backward(grad.contiguous(), x1, x2, result, p=p),
           x2=lambda grad, x1, x2, p, result: cdist_backward(grad.mT.contiguous(), x2, x1, result.mT.contiguous(), p=p))


def _euclidean_dist(x1, x2):
    # √(|x|² - 2 x·y + |y|²) as one matrix product, clamped at 0 before the root (PyTorch's mm path), with
    # PyTorch's sums, MKL's products and VML's root: a point's distance to itself comes out exactly 0, as in PyTorch
    x1_norm = _sums.sum(x1 * x1, axis=-1, keepdims=True)
    x2_norm = _sums.sum(x2 * x2, axis=-1, keepdims=True)
    left = np.concatenate([x1 * -2, x1_norm, np.ones_like(x1_norm)], -1)
    right = np.concatenate([x2, np.ones_like(x2_norm), x2_norm], -1)
    right_t = np.swapaxes(right, -1, -2)
    # (x1.matmul(x2.mT) as PyTorch's matmul runs it, on tensors that do not require grad: mm; x2 a matrix, mm with
    # x1's batch folded into its rows; else bmm on the batch. The front-end expands the inputs to one batch unless
    # it has a single element.)
    if left.ndim == right.ndim == 2:
        product = _matmul.mm(left, right_t)
    elif right.ndim == 2:
        product = _matmul.mm(left.reshape(-1, left.shape[-1]), right_t).reshape(left.shape[:-1] + right_t.shape[-1:])
    else:
        batch = np.broadcast_shapes(left.shape[:-2], right.shape[:-2])
        product = _matmul.bmm(left.reshape((-1,) + left.shape[-2:]), right_t.reshape((-1,) + right_t.shape[-2:]))
        product = product.reshape(batch + product.shape[-2:])
    return sqrt.forward(np.maximum(product, 0)).astype(x1.dtype, copy=False)


def _euclidean_ratio(grad, result):
    # (masked_fill_ in place, as PyTorch's: the ratio keeps grad's layout, which decides its products' bits)
    return (grad / result).masked_fill_(result == 0, 0)


euclidean_dist = Op("_euclidean_dist", "EuclideanDistBackward0", _euclidean_dist, inputs=("x1", "x2"),
                    # d ‖x - y‖ / dx = (x - y) / ‖x - y‖, summed over the other set's rows
                    x1=lambda grad, x1, x2, result: x1 * _euclidean_ratio(grad, result).sum(-1, keepdim=True)
                    - _euclidean_ratio(grad, result).matmul(x2),
                    x2=lambda grad, x1, x2, result: x2 * _euclidean_ratio(grad, result).sum(-2).unsqueeze(-1)
                    - _euclidean_ratio(grad, result).mT.matmul(x1))


# =============================================================================================
# Recurrent layers and padding modes (nn.RNN / LSTM / GRU and their cells, F.pad's "reflect" and
# "replicate"). PyTorch's CPU recurrent kernels are compositions of ordinary ops (nn/modules/rnn.py
# repeats them); the rows here are the pieces that are not: unsafe_split, the gates' chunking, and the
# fused oneDNN LSTM layer that float32 nn.LSTM runs. Transposed convolution is ``convolution`` above.
# =============================================================================================

# ---- unsafe_split: split, but the pieces are not views for autograd (own version counters, no view
# tracking), though they share the input's memory as in PyTorch: changing one in place changes the input.
# Their strides are the input's: an RNN gate chunk is row-strided, so sigmoid_ runs PyTorch's scalar code on
# every element of it. (A read-only input, e.g. an expanded one, is copied first.)
def _unsafe_pieces(a, sizes, dim):
    return _split_arrays(a if a.flags.writeable else np.copy(a, order="K"), sizes, dim)


unsafe_split = Op("unsafe_split", "UnsafeSplitBackward0",
                  lambda a, split_size, dim: _unsafe_pieces(a, split_sizes(a.shape[dim], split_size), dim),
                  jvp="linear", args=("split_size", "dim"), variadic=True,
                  self=lambda grads, self_sym_sizes, split_size, dim:
                      _ops().cat(grads, dim % len(self_sym_sizes)))   # pieces back together


# ---- reflection and replication padding: every output element copies one input element, so the
# gradient adds each output gradient back to the element it copied (a 0/1 matrix per padded dim).

def _pad_source(n: int, before: int, after: int, mode: str) -> np.ndarray:
    """For each output position along one dim, the input position it copies (negative padding crops)."""
    i = np.arange(-before, n + after)
    if mode == "reflect":   # mirror at both ends, the edge element not repeated (padding < n: one bounce)
        return (n - 1) - np.abs((n - 1) - np.abs(i))
    return np.clip(i, 0, n - 1)                          # replicate: the edge element repeated


def _pad_dims(ndim: int, padding) -> list:
    """(axis, before, after) for each padded dim: ``padding`` lists the last dim first, as F.pad's."""
    return [(ndim - 1 - d, padding[2 * d], padding[2 * d + 1]) for d in range(len(padding) // 2)]


def _pad_forward(a, padding, mode: str) -> np.ndarray:
    """The padded array, in a's suggested memory format (PyTorch's padding kernels: channels_last stays)."""
    out = a
    for axis, before, after in _pad_dims(a.ndim, padding):
        out = np.take(out, _pad_source(out.shape[axis], before, after, mode), axis=axis)
    return _in_suggested_format(a, np.ascontiguousarray(out))


def _pad_backward(g, shape, padding, mode: str) -> np.ndarray:
    """Σ of the output gradients over the outputs that copied each input element (Pᵀg).

    PyTorch's CPU kernel (cpu_padding_backward) walks the output positions in row-major order and adds each
    one to the input element it copied, starting from 0: the same order here (np.add.at adds in index order),
    so every sum rounds as PyTorch's does."""
    dims = _pad_dims(len(shape), padding)
    k = len(dims)                                  # the padded (trailing) dims
    # flat input position (within the padded dims) of each output position, output in row-major order
    source = np.zeros((), dtype=np.int64)
    for axis in range(len(shape) - k, len(shape)):
        before, after = next((b, a) for ax, b, a in dims if ax == axis)
        source = source[..., None] * shape[axis] + _pad_source(shape[axis], before, after, mode)
    batch = shape[:len(shape) - k]
    rows = int(np.prod(batch, dtype=np.int64))
    out = np.zeros((int(np.prod(shape[len(shape) - k:], dtype=np.int64)), rows), dtype=g.dtype)
    # (the row length spelled out: with an empty batch, rows = 0, NumPy cannot infer a -1)
    np.add.at(out, source.reshape(-1), np.ascontiguousarray(g).reshape(rows, source.size).T)
    return np.ascontiguousarray(out.T.reshape(shape))


def _pad_backward_like(g, x, padding, mode: str) -> np.ndarray:
    """_pad_backward laid out in the input's suggested memory format (PyTorch's grad_input, as the input)."""
    return _in_suggested_format(x, _pad_backward(g, x.shape, padding, mode))


def _padding_ops(mode: str, k: int) -> tuple:
    """The pad op of one mode and dimension count, and its backward (an op too, for double backward)."""
    kind = {"reflect": "Reflection", "replicate": "Replication"}[mode]
    name = f"{kind.lower()}_pad{k}d"
    ops = {}
    ops["forward"] = Op(name, f"{kind}Pad{k}DBackward0", lambda a, padding: _pad_forward(a, padding, mode),
                        args=("padding",), jvp="linear",
                        self=lambda grad, self, padding: ops["backward"](grad, self, padding=padding))
    ops["backward"] = Op(
        f"{name}_backward", f"{kind}Pad{k}DBackwardBackward0",
        lambda g, x, padding: _pad_backward_like(g, x, padding, mode), inputs=("grad_output", "self"),
        args=("padding",), jvp="linear",   # linear in grad_output; self only gives the shape
        grad_output=lambda grad, padding: ops["forward"](grad, padding=padding),        # the pad again
        self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))
    return ops["forward"], ops["backward"]


reflection_pad1d, reflection_pad1d_backward = _padding_ops("reflect", 1)
reflection_pad2d, reflection_pad2d_backward = _padding_ops("reflect", 2)
reflection_pad3d, reflection_pad3d_backward = _padding_ops("reflect", 3)
replication_pad1d, replication_pad1d_backward = _padding_ops("replicate", 1)
replication_pad2d, replication_pad2d_backward = _padding_ops("replicate", 2)
replication_pad3d, replication_pad3d_backward = _padding_ops("replicate", 3)


# ---- linear / bilinear resizing (F.interpolate): y = A·x (1-D) or A_h·x·A_wᵀ (2-D), A's rows holding the
# two weights 1 - l, l of each output position; the kernels (PyTorch's rounding) are in _interpolate.py.

def _interp():
    """The ``_interpolate`` kernels (imported on first use: only these rows need them)."""
    from . import _interpolate
    return _interpolate


upsample_linear1d = Op(
    "upsample_linear1d", "UpsampleLinear1DBackward0",
    lambda x, output_size, align_corners, scales: _interp().upsample_linear1d(x, output_size, align_corners, scales),
    args=("output_size", "align_corners", "scales"), jvp="linear",
    # linear: dx = Aᵀ·g, each output gradient split over the two inputs it read
    self=lambda grad, self_sym_sizes, output_size, align_corners, scales: upsample_linear1d_backward(
        grad, output_size=output_size, input_size=self_sym_sizes, align_corners=align_corners, scales=scales))
upsample_linear1d_backward = Op(
    "upsample_linear1d_backward", "UpsampleLinear1DBackwardBackward0",
    lambda g, output_size, input_size, align_corners, scales:
        _interp().upsample_linear1d_backward(g, input_size, align_corners, scales),
    inputs=("grad_output",), args=("output_size", "input_size", "align_corners", "scales"), jvp="linear",
    # linear in g: its gradient is the resize itself
    grad_output=lambda grad, output_size, align_corners, scales: upsample_linear1d(
        grad, output_size=output_size, align_corners=align_corners, scales=scales))
upsample_bilinear2d = Op(
    "upsample_bilinear2d", "UpsampleBilinear2DBackward0",
    _strides.channels_last_like(lambda x, output_size, align_corners, scales_h, scales_w:
                                _interp().upsample_bilinear2d(x, output_size, align_corners, scales_h, scales_w)),
    args=("output_size", "align_corners", "scales_h", "scales_w"), jvp="linear",
    # linear: dx = A_hᵀ·g·A_w, each output gradient split over the four inputs it read
    self=lambda grad, self_sym_sizes, output_size, align_corners, scales_h, scales_w: upsample_bilinear2d_backward(
        grad, output_size=output_size, input_size=self_sym_sizes, align_corners=align_corners, scales_h=scales_h,
        scales_w=scales_w))
upsample_bilinear2d_backward = Op(
    "upsample_bilinear2d_backward", "UpsampleBilinear2DBackwardBackward0",
    lambda g, output_size, input_size, align_corners, scales_h, scales_w:
        _interp().upsample_bilinear2d_backward(g, input_size, align_corners, scales_h, scales_w),
    inputs=("grad_output",), args=("output_size", "input_size", "align_corners", "scales_h", "scales_w"),
    jvp="linear",
    # linear in g: its gradient is the resize itself
    grad_output=lambda grad, output_size, align_corners, scales_h, scales_w: upsample_bilinear2d(
        grad, output_size=output_size, align_corners=align_corners, scales_h=scales_h, scales_w=scales_w))

upsample_bicubic2d = Op(
    "upsample_bicubic2d", "UpsampleBicubic2DBackward0",
    _strides.channels_last_like(lambda x, output_size, align_corners, scales_h, scales_w:
                                _interp().upsample_bicubic2d(x, output_size, align_corners, scales_h, scales_w)),
    args=("output_size", "align_corners", "scales_h", "scales_w"), jvp="linear",
    # linear: dx = A_hᵀ·g·A_w, each output gradient split over the 4x4 inputs it read (cubic weights)
    self=lambda grad, self_sym_sizes, output_size, align_corners, scales_h, scales_w: upsample_bicubic2d_backward(
        grad, output_size=output_size, input_size=self_sym_sizes, align_corners=align_corners, scales_h=scales_h,
        scales_w=scales_w))
upsample_bicubic2d_backward = Op(
    "upsample_bicubic2d_backward", "UpsampleBicubic2DBackwardBackward0",
    lambda g, output_size, input_size, align_corners, scales_h, scales_w:
        _interp().upsample_bicubic2d_backward(g, input_size, align_corners, scales_h, scales_w),
    inputs=("grad_output",), args=("output_size", "input_size", "align_corners", "scales_h", "scales_w"),
    jvp="linear",
    # linear in g: its gradient is the resize itself
    grad_output=lambda grad, output_size, align_corners, scales_h, scales_w: upsample_bicubic2d(
        grad, output_size=output_size, align_corners=align_corners, scales_h=scales_h, scales_w=scales_w))


# ---- antialiased resizing (F.interpolate(..., antialias=True), bilinear and bicubic): each output a normalised
# filter-weighted sum of the inputs around it (kernels in _interpolate.py), so linear in x like the plain resizes.

def _upsample_aa_ops(name: str, node: str, cubic: bool) -> tuple:
    """_upsample_{name}2d_aa and its backward, with PyTorch's node names and saved arguments."""
    args = ("output_size", "align_corners", "scales_h", "scales_w")

    def backward(grad, self_sym_sizes, output_size, align_corners, scales_h, scales_w):
        # linear: dx = A_hᵀ·g·A_w, each output gradient spread over the inputs its filters read
        return resize_backward(grad, output_size=output_size, input_size=self_sym_sizes, align_corners=align_corners,
                               scales_h=scales_h, scales_w=scales_w)

    def backward_backward(grad, output_size, align_corners, scales_h, scales_w):
        # linear in g: its gradient is the resize itself
        return resize(grad, output_size=output_size, align_corners=align_corners, scales_h=scales_h,
                      scales_w=scales_w)

    resize = Op(
        f"_upsample_{name}2d_aa", f"Upsample{node}2DAaBackward0",
        _strides.channels_last_like(lambda x, output_size, align_corners, scales_h, scales_w:
                                    _interp().upsample_aa2d(x, output_size, align_corners, scales_h, scales_w, cubic)),
        args=args, jvp="linear", self=backward)
    resize_backward = Op(
        f"_upsample_{name}2d_aa_backward", f"Upsample{node}2DAaBackwardBackward0",
        lambda g, output_size, input_size, align_corners, scales_h, scales_w:
            _interp().upsample_aa2d_backward(g, input_size, align_corners, scales_h, scales_w, cubic),
        inputs=("grad_output",), args=("output_size", "input_size", *args[1:]), jvp="linear",
        grad_output=backward_backward)
    return resize, resize_backward


upsample_bilinear2d_aa, upsample_bilinear2d_aa_backward = _upsample_aa_ops("bilinear", "Bilinear", cubic=False)
upsample_bicubic2d_aa, upsample_bicubic2d_aa_backward = _upsample_aa_ops("bicubic", "Bicubic", cubic=True)

upsample_trilinear3d = Op(
    "upsample_trilinear3d", "UpsampleTrilinear3DBackward0",
    _strides.channels_last_like(   # (a channels_last_3d input gives a channels_last_3d output, as PyTorch's)
        lambda x, output_size, align_corners, scales_d, scales_h, scales_w:
            _interp().upsample_trilinear3d(x, output_size, align_corners, scales_d, scales_h, scales_w),
        five_d=True),
    args=("output_size", "align_corners", "scales_d", "scales_h", "scales_w"), jvp="linear",
    # linear: dx = Aᵀ·g, each output gradient split over the eight inputs it read
    self=lambda grad, self_sym_sizes, output_size, align_corners, scales_d, scales_h, scales_w:
        upsample_trilinear3d_backward(grad, output_size=output_size, input_size=self_sym_sizes,
                                      align_corners=align_corners, scales_d=scales_d, scales_h=scales_h,
                                      scales_w=scales_w))
upsample_trilinear3d_backward = Op(
    "upsample_trilinear3d_backward", "UpsampleTrilinear3DBackwardBackward0",
    lambda g, output_size, input_size, align_corners, scales_d, scales_h, scales_w:
        _interp().upsample_trilinear3d_backward(g, input_size, align_corners, scales_d, scales_h, scales_w),
    inputs=("grad_output",),
    args=("output_size", "input_size", "align_corners", "scales_d", "scales_h", "scales_w"), jvp="linear",
    # linear in g: its gradient is the resize itself
    grad_output=lambda grad, output_size, align_corners, scales_d, scales_h, scales_w: upsample_trilinear3d(
        grad, output_size=output_size, align_corners=align_corners, scales_d=scales_d, scales_h=scales_h,
        scales_w=scales_w))

# ---- nearest resizing (F.interpolate's default): each output copies one input element, so the gradient of
# an input element is the sum of the output gradients that copied it (kernels in _interpolate.py).

def _nearest_ops(dims: int, exact: bool = False) -> tuple:
    """upsample_nearest{dims}d (``exact``: _upsample_nearest_exact{dims}d, mode "nearest-exact") and its backward,
    with PyTorch's node names and saved scales."""
    scale_names = {1: ("scales",), 2: ("scales_h", "scales_w"), 3: ("scales_d", "scales_h", "scales_w")}[dims]
    name = f"_upsample_nearest_exact{dims}d" if exact else f"upsample_nearest{dims}d"
    node = f"UpsampleNearest{'Exact' if exact else ''}{dims}D"

    def forward(x, output_size, **scales):
        return _interp().upsample_nearest(x, output_size, [scales[n] for n in scale_names], exact)
    # (a channels_last(_3d) input gives a channels_last(_3d) output, as PyTorch's)
    forward = _strides.channels_last_like(forward, five_d=True)

    def backward_forward(g, output_size, input_size, **scales):
        return _interp().upsample_nearest_backward(g, input_size, [scales[n] for n in scale_names], exact)

    def self_formula(grad, self_sym_sizes, output_size, *scales):
        return backward_op(grad, output_size=output_size, input_size=self_sym_sizes, **dict(zip(scale_names, scales)))

    def grad_output_formula(grad, output_size, *scales):  # linear in g: its gradient is the resize itself
        return op(grad, output_size=output_size, **dict(zip(scale_names, scales)))

    # (formula parameters are read by name: give these generic functions the op's own signature)
    self_formula.__signature__ = _signature("grad", "self_sym_sizes", "output_size", *scale_names)
    grad_output_formula.__signature__ = _signature("grad", "output_size", *scale_names)
    op = Op(name, f"{node}Backward0", forward, args=("output_size", *scale_names), jvp="linear", self=self_formula)
    backward_op = Op(f"{name}_backward", f"{node}BackwardBackward0", backward_forward, inputs=("grad_output",),
                     args=("output_size", "input_size", *scale_names), jvp="linear", grad_output=grad_output_formula)
    return op, backward_op


def _signature(*names):
    import inspect
    return inspect.Signature([inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in names])


upsample_nearest1d, upsample_nearest1d_backward = _nearest_ops(1)
upsample_nearest2d, upsample_nearest2d_backward = _nearest_ops(2)
upsample_nearest3d, upsample_nearest3d_backward = _nearest_ops(3)
_upsample_nearest_exact1d, _upsample_nearest_exact1d_backward = _nearest_ops(1, exact=True)
_upsample_nearest_exact2d, _upsample_nearest_exact2d_backward = _nearest_ops(2, exact=True)
_upsample_nearest_exact3d, _upsample_nearest_exact3d_backward = _nearest_ops(3, exact=True)


# ---- the oneDNN LSTM layer: one direction of one layer of a float32 nn.LSTM, over the whole sequence.
# Gates (i, f, g, o) = (σ, σ, tanh, σ)(x_t W_ihᵀ + b_ih + h W_hhᵀ + b_hh); c' = f·c + i·g; h' = o·tanh(c').

def _sigmoid_np(x):
    return 1 / (1 + np.exp(-x))


def _lstm_layer_forward(x, w_ih, w_hh, b_ih, b_hh, hx, cx, reverse, batch_sizes, mode, hidden_size, num_layers,
                        has_biases, bidirectional, batch_first, train):
    bias = b_ih + b_hh if has_biases else 0   # (without biases the two inputs are placeholders)
    h, c = hx, cx
    out = np.empty(x.shape[:2] + (hidden_size,), dtype=x.dtype)
    x_gates = x @ w_ih.T + bias
    for t in (range(x.shape[0] - 1, -1, -1) if reverse else range(x.shape[0])):
        i, f, g, o = np.split(x_gates[t] + h @ w_hh.T, 4, axis=1)
        c = _sigmoid_np(f) * c + _sigmoid_np(i) * np.tanh(g)
        h = _sigmoid_np(o) * np.tanh(c)
        out[t] = h
    # the fourth output is oneDNN's workspace (opaque bytes): nothing is kept there
    return out, h.astype(x.dtype), c.astype(x.dtype), np.empty(0, dtype=np.uint8)


def _lstm_layer_backward(grads, input, weight0, weight1, weight2, weight3, hx_, cx_, reverse, batch_sizes, mode,
                         hidden_size, num_layers, has_biases, bidirectional, batch_first, train, result0, result1,
                         result2, result3, grad_input_mask):
    """Gradients of (output, h_n, c_n) back to every input, as mkldnn_rnn_layer_differentiable_backward:
    the gates are recomputed with tensor ops, then the recurrence is walked backwards, step by step
    (dc = dc' + dh·o·(1 - tanh²c'), and each gate's gradient through its σ or tanh). Every argument is
    taken so that the node saves what PyTorch's does (the outputs and the workspace are not needed here)."""
    ops = _ops()
    grad_output, grad_hy, grad_cy = grads[:3]
    if grad_output is None and grad_hy is None and grad_cy is None:
        return (None,) * 7
    grad_output = ops.zeros_like(result0) if grad_output is None else grad_output
    grad_hy = ops.zeros_like(hx_) if grad_hy is None else grad_hy
    grad_cy = ops.zeros_like(cx_) if grad_cy is None else grad_cy
    if input.dtype.itemsize == 2:  # bfloat16 (autocast): oneDNN computes the gradients in float32
        input, weight0, weight1, weight2, weight3, hx_, cx_, grad_output, grad_hy, grad_cy = (
            t.float() for t in (input, weight0, weight1, weight2, weight3, hx_, cx_, grad_output, grad_hy, grad_cy))
    b_ih = weight2 if has_biases else None
    b_hh = weight3 if has_biases else None
    steps = range(input.shape[0] - 1, -1, -1) if reverse else range(input.shape[0])
    gates, states = {}, [(hx_, cx_)]
    for t in steps:      # the forward again, keeping every gate and state
        hx, cx = states[-1]
        gate = _linear(input[t], weight0, b_ih) + _linear(hx, weight1, b_hh)
        i, f, g, o = gate.chunk(4, 1)
        i, f, g, o = i.sigmoid(), f.sigmoid(), g.tanh(), o.sigmoid()
        gates[t] = i, f, g, o
        cy = f * cx + i * g
        states.append((o * cy.tanh(), cy))
    d_input = [None] * input.shape[0]
    d_wx = d_wh = d_b = None
    for step, t in reversed(list(enumerate(steps))):
        i, f, g, o = gates[t]
        cy = states[step + 1][1]
        hx, cx = states[step]
        new_grad_hy = grad_output[t] + grad_hy
        tanh_cy = cy.tanh()
        d1 = grad_cy + new_grad_hy * o * (1 - tanh_cy * tanh_cy)
        d_gates = ops.cat([d1 * g * i * (1 - i), d1 * cx * f * (1 - f), d1 * i * (1 - g * g),
                           new_grad_hy * tanh_cy * o * (1 - o)], 1)
        d_input[t] = d_gates.matmul(weight0).unsqueeze(0)
        d_wx = _accumulate(d_wx, d_gates.t().matmul(input[t]))
        d_wh = _accumulate(d_wh, d_gates.t().matmul(hx))
        d_b = _accumulate(d_b, d_gates.sum(0))
        grad_hy, grad_cy = d_gates.matmul(weight1), d1 * f
    return ops.cat(d_input, 0), d_wx, d_wh, d_b, d_b, grad_hy, grad_cy


def _linear(x, w, b):
    out = x.matmul(w.t())
    return out if b is None else out + b


def _accumulate(total, term):
    return term if total is None else total + term


mkldnn_rnn_layer = Op(
    "mkldnn_rnn_layer", "MkldnnRnnLayerBackward0", _lstm_layer_forward,
    inputs=("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
    args=("reverse", "batch_sizes", "mode", "hidden_size", "num_layers", "has_biases", "bidirectional", "batch_first",
          "train"),
    outputs=("result0", "result1", "result2", "result3"), differentiable_outputs=3, undefined_grads=True,
    **dict.fromkeys(("input", "weight0", "weight1", "weight2", "weight3", "hx_", "cx_"),
                    joint(_lstm_layer_backward)))


# =============================================================================================
# torch.special, more: Bessel I0/I1 (scaled too), ndtr/ndtri/log_ndtr, entr, erfcx, xlog1py, mvlgamma
# (PyTorch's rows; forwards in float64 by series, rounded once to the input's float dtype -- the Bessel
# functions as PyTorch's Cephes kernels)
# =============================================================================================

def _bessel_i(nu, a, scaled):
    """I_ν(x) (ν = 0 or 1), times e^(-|x|) if ``scaled``: PyTorch's Cephes kernels (calc_i0 ... in
    _special_kernels), in float64 for float64 and in float32 otherwise (a half or bfloat16 input is upcast to
    float and the result rounded back, as PyTorch's kernels do; except i0e's scalar loop, see calc_i0e_half)."""
    from ._special_kernels import calc_i, calc_i0e_half
    t = np.float64 if a.dtype == np.float64 else np.float32
    if nu == 0 and scaled and a.dtype.itemsize == 2:   # (i0e's half scalar path steps in the half type)
        return _float_math.two_paths(lambda v: calc_i(0, v.astype(t), True).astype(v.dtype), calc_i0e_half, a)
    return calc_i(nu, np.asarray(a, dtype=t), scaled).astype(a.dtype, copy=False)


def _erfcx64(x):
    """e^(x²)·erfc(x) in float64; x² split in two exactly (Dekker) so that e^(x²) loses nothing."""
    hi = x * 134217729.0
    hi = hi - (hi - x)
    lo = x - hi
    small = np.where(x <= 25, x, 0.0)
    hi, lo = np.where(x <= 25, hi, 0.0), np.where(x <= 25, lo, 0.0)
    with np.errstate(over="ignore", invalid="ignore"):
        direct = np.exp(hi * hi) * np.exp(2 * hi * lo + lo * lo) * _erfc(small)
    # x > 25: 1/(x√π) · Σ (-1)^k (2k-1)!!/(2x²)^k (asymptotic, converged there)
    big = np.where(x > 25, x, 26.0)
    term, series = np.ones_like(big), np.ones_like(big)
    for k in range(1, 12):
        term = -term * (2 * k - 1) / (2 * big * big)
        series += term
    out = np.where(x > 25, series / (big * math.sqrt(math.pi)), direct)
    out = np.where(x == -np.inf, np.inf, out)
    return np.where(x == np.inf, 0.0, np.where(np.isnan(x), np.nan, out))


def _erfcx(a):
    if a.dtype in (np.float32, np.float64):   # PyTorch's kernel (the Faddeeva package), in _erfcx.py
        from ._erfcx import calc_erfcx
        return calc_erfcx(a)
    x = np.asarray(a, dtype=np.float64)
    # x < 0: 2e^(x²) - erfcx(-x), with x² rounded to the input's dtype first, as PyTorch's kernel squares
    # (in float32 that rounding, not the rest, sets the error: matched, not improved on)
    with np.errstate(over="ignore", invalid="ignore"):
        left = 2 * np.exp(np.square(a).astype(np.float64)) - _erfcx64(np.abs(x))
    return np.where(x < 0, left, _erfcx64(x)).astype(a.dtype, copy=False)


def _log_ndtr64(x, t=None):
    # log Φ(x), PyTorch's split: x < -1 through erfcx (no underflow), else log1p of the small tail.
    if t is None:
        t = x * math.sqrt(0.5)                                 # as PyTorch (not x / √2: erfc(t) is steep)
    with np.errstate(divide="ignore", invalid="ignore"):
        left = np.log(_erfcx64(np.minimum(-t, 1e300)) / 2) - t * t
        right = np.log1p(-_erfc(np.where(np.isnan(t), 0.0, t)) / 2)
    return np.where(np.isnan(x), np.nan, np.where(x < -1, left, right))


def _log_ndtr(a):
    if a.dtype in (np.float32, np.float64):   # PyTorch's kernel, step for step in a's dtype (_erfcx.py)
        from ._erfcx import calc_log_ndtr
        return calc_log_ndtr(a)
    # t = x/√2 rounded to the input's dtype, as PyTorch's kernel has it (the rest in float64)
    t = (a * np.asarray(math.sqrt(0.5), a.dtype)).astype(np.float64)
    return _log_ndtr64(np.asarray(a, dtype=np.float64), t).astype(a.dtype, copy=False)


def _ndtri(a):
    """Φ⁻¹(p): float32/float64 as PyTorch's Cephes kernel (_special_kernels.calc_ndtri); otherwise
    Abramowitz-Stegun 26.2.23 as a first guess (4.5e-4), then Newton steps on log Φ(x) = log p."""
    if a.dtype in (np.float32, np.float64):
        from ._special_kernels import calc_ndtri
        return calc_ndtri(a)
    p = np.asarray(a, dtype=np.float64)
    q = np.where(p > 0.5, 1 - p, p)                            # the lower tail; 1 - p is exact for p > 0.5
    q = np.where((q > 0) & (q <= 0.5), q, 0.25)
    t = np.sqrt(-2 * np.log(q))
    x = -(t - (2.515517 + 0.802853 * t + 0.010328 * t * t) / (1 + 1.432788 * t + 0.189269 * t * t + 0.001308 * t ** 3))
    for _ in range(6):      # d log Φ / dx = φ(x)/Φ(x) = 1 / (√(2π)/2 · erfcx(-x/√2))
        x = x - (_log_ndtr64(x) - np.log(q)) * (math.sqrt(2 * math.pi) / 2) * _erfcx64(-x / math.sqrt(2.0))
    x = np.where(p > 0.5, -x, x)
    x = np.where(p == 0.5, 0.0, np.where(p == 0, -np.inf, np.where(p == 1, np.inf, x)))
    return np.where((p < 0) | (p > 1) | np.isnan(p), np.nan, x).astype(a.dtype, copy=False)


def _entr(a):
    # -x·log x as PyTorch's scalar kernel: glibc's logf / log; a half type's log x (logf) is rounded to it, and
    # so is the product (of the two halves, in float)
    dt = a.dtype
    reduced = _float_math._is_reduced(dt)
    x = a.astype(np.float32) if reduced else a
    log = {np.float32: _float_math._logf, np.float64: _float_math._log64}.get(x.dtype.type, np.log)
    with np.errstate(divide="ignore", invalid="ignore"):
        lg = log(np.where(x > 0, x, x.dtype.type(1)))
        if reduced:
            lg = lg.astype(dt).astype(np.float32)
        out = np.where(x > 0, -x * lg, np.where(x == 0, 0, -np.inf))
    return np.where(np.isnan(x), np.nan, out).astype(dt, copy=False)


def _xlog1py(x, y):
    x, y = np.asarray(x), np.asarray(y)
    dt = np.result_type(x, y)
    # x · log1p(y): PyTorch's scalar kernel (cpu_kernel, not vectorized) calls glibc's log1p / log1pf; a half
    # type's log1p is rounded to it before the product, as NumPy's is
    log1p = {np.dtype(np.float32): _float_math._log1pf, np.dtype(np.float64): _float_math._log1p64}.get(dt)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.where(x == 0, 0.0, x * (np.log1p(y) if log1p is None else log1p(y.astype(dt, copy=False))))
    return np.where(np.isnan(y), np.nan, out).astype(dt, copy=False)


def _mvlgamma(a, p):
    # log Γ_p(x) = p(p-1)/4 · log π + Σ_{j<p} log Γ(x - j/2)
    # PyTorch's steps in x's dtype: x + [-(p-1)/2, ..., -1/2, 0] rounded there (near a pole of Γ that rounding
    # matters), their lgamma, summed as PyTorch's sum kernel adds (a half's sum accumulates in float), plus the
    # constant rounded to x's dtype; a C-ordered result (the sum's)
    args = a[..., None] + np.arange(-p / 2 + 0.5, 0.5, 0.5).astype(a.dtype)
    return _sums.sum(_lgamma(args), axis=-1) + a.dtype.type(p * (p - 1) / 4 * math.log(math.pi))


def _bessel_i1_backward(grad, self, result, scaled):
    """PyTorch's i1_backward / i1e_backward: I1'(x) = I0 - I1/x (scaled: I0e - I1e·(sgn x + 1/x)), 0.5 at 0."""
    if self.dtype.itemsize == 2:   # PyTorch's kernel is built for float and double only (no half, no bfloat16)
        raise NotImplementedError(f"\"{'i1e' if scaled else 'i1'}_backward\" not implemented for "
                                  f"'{_ops()._legacy(self.dtype)}'")
    eps = float(np.finfo(self._data.dtype).eps)
    not_tiny = self.abs() > eps
    safe = _ops().where(not_tiny, self, eps)
    # (C++ builds an operator's right operand first: the nodes' sequence numbers, the order backward runs them in)
    if scaled:
        reciprocal = safe.reciprocal()
        right = result * (safe.sgn() + reciprocal)
        gradx = special_i0e(safe) - right
    else:
        right = result * safe.reciprocal()
        gradx = i0(safe) - right
    return grad * _ops().where(not_tiny, gradx, 0.5)


def _bessel_i0e_backward(grad, self, result):
    """(e^-|x| I0)' = e^-|x| I1 - sgn(x) e^-|x| I0, as PyTorch's ``grad * (special_i1e(self) - self.sgn() *
    result)`` (the right operand built first)."""
    right = self.sgn() * result
    return grad * (special_i1e(self) - right)


i0 = Op("i0", "I0Backward0", lambda a: _bessel_i(0, a, False), jvp="element_wise",
        self=lambda grad, self: grad * special_i1(self))                                  # I0' = I1
special_i0e = Op("special_i0e", "SpecialI0EBackward0", lambda a: _bessel_i(0, a, True), jvp="element_wise",
                 self=lambda grad, self, result: _bessel_i0e_backward(grad, self, result))
special_i1 = Op("special_i1", "SpecialI1Backward0", lambda a: _bessel_i(1, a, False), jvp="element_wise",
                self=lambda grad, self, result: _bessel_i1_backward(grad, self, result, False))
special_i1e = Op("special_i1e", "SpecialI1EBackward0", lambda a: _bessel_i(1, a, True), jvp="element_wise",
                 self=lambda grad, self, result: _bessel_i1_backward(grad, self, result, True))
# x + c for a Python number c (add.Scalar): special.ndtr is (1 + erf(x/√2)) · 0.5, composite in PyTorch
add_scalar = Op("add", "AddBackward1", lambda a, other: (a + other).astype(a.dtype, copy=False), args=("other",),
                jvp="element_wise",
                self=lambda grad: grad)                                                   # slope 1
# x - c (sub.Scalar), as the C++ formulas below subtract a number (erfcx)
sub_scalar = Op("sub", "SubBackward1", lambda a, other: (a - other).astype(a.dtype, copy=False), args=("other",),
                jvp="element_wise",
                self=lambda grad: grad)                                                   # slope 1


def _ndtri_backward(grad, result):
    """(Φ⁻¹)'(p) = 1/φ(Φ⁻¹ p) = √(2π) · e^(y²/2)."""
    growth = div_scalar(result.square(), other=2).exp()   # (built first: C++'s right-to-left operands, as below)
    return mul_scalar(grad, other=math.sqrt(2 * math.pi)) * growth


special_ndtri = Op("special_ndtri", "SpecialNdtriBackward0", _ndtri, jvp="element_wise", self=_ndtri_backward)


def _log_ndtr_backward(grad, self, result):
    """(log Φ)' = φ/Φ = e^(-(log Φ + x²/2)) / √(2π)."""
    # the exp factor first: C++ evaluates the operands of * right to left, so the nodes get PyTorch's sequence
    # numbers and a second backward runs (and frees) them in PyTorch's order
    density = (result + div_scalar(self.pow(2), other=2)).neg().exp()
    return div_scalar(grad, other=math.sqrt(2 * math.pi)) * density


special_log_ndtr = Op("special_log_ndtr", "SpecialLogNdtrBackward0", _log_ndtr, jvp="element_wise",
                      self=_log_ndtr_backward)
special_entr = Op("special_entr", "SpecialEntrBackward0", _entr, jvp="element_wise",
                  self=lambda grad, self: grad * add_scalar(self.log(), other=1).neg())  # (-x log x)' = -(1 + log x)
special_erfcx = Op("special_erfcx", "SpecialErfcxBackward0", _erfcx, jvp="element_wise",
                   # (e^(x²) erfc x)' = 2x·erfcx(x) - 2/√π
                   self=lambda grad, self, result: sub_scalar(mul_scalar(self, other=2.0) * result,
                                                              other=2.0 / math.sqrt(math.pi)) * grad)
special_xlog1py = Op(
    "special_xlog1py", "SpecialXlog1PyBackward0", _xlog1py, inputs=("self", "other"), jvp="element_wise",
    # log(1 + y), held at 0 where x == 0 and y <= -1 (as xlogy at y <= 0)
    # (at::xlog1py(grad, y), promoted as the function: an integer or bool y is taken in grad's dtype, a float32 y
    # with a float64 grad gives log(1 + y) in double, and a double-backward node saves y as it is)
    self=lambda grad, self, other: _ops()._binary(special_xlog1py, grad, other, promote_int_to_float=True).masked_fill(
        (self == 0) & (other <= -1.0), 0.0),   # (-1.0: an unsigned y compares as a float, not with 255)
    other=lambda grad, self, other: _xlog1py_other_backward(grad, self, other))             # x / (1 + y)


def _xlog1py_other_backward(grad, self, other):
    """PyTorch's ``grad * self / (other + 1)``, the right operand made first (as C++ evaluates it)."""
    other_plus_1 = add_scalar(other, other=1)
    return grad * self / other_plus_1


# number x: one edge, to y; x saved as the number (as PowBackward2's base)
special_xlog1py_self_scalar = Op(
    "special_xlog1py", "SpecialXlog1PyBackward1", lambda other, self: _xlog1py(np.asarray(self, other.dtype), other),
    inputs=("other",), args=("self",), jvp="element_wise",
    other=lambda grad, self, other: _xlog1py_other_backward(grad, self, other))
special_xlog1py_other_scalar = Op(
    "special_xlog1py", "SpecialXlog1PyBackward2", lambda a, other: _xlog1py(a, np.asarray(other, a.dtype)),
    args=("other",), jvp="element_wise",
    self=lambda grad, self, other: (special_xlog1py_other_scalar(grad, other=other) if other > -1 else
                                    special_xlog1py_other_scalar(grad, other=other).masked_fill(self == 0, 0.0)))
# torch.special.zeta: Hurwitz's ζ(x, q) (values from minigrad/_special_kernels.py). PyTorch has no derivative in x;
# in q, dζ/dq = -x·ζ(x + 1, q).
def _zeta_np(x, q):
    from ._special_kernels import zeta
    return zeta(x, q)


def _zeta_promoted(x, q):
    """torch.special.zeta with its type promotion (an integer x's x + 1. is float; x and q may differ in dtype)."""
    from .special import zeta
    return zeta(x, q)


special_zeta = Op(
    "special_zeta", "SpecialZetaBackward0", _zeta_np, inputs=("self", "other"),
    self=_not_differentiable("zeta"),
    other=lambda grad, self, other: grad * -self * _zeta_promoted(self + 1.0, other))
def _negated_scalar(value):
    """-value of a number x, as PyTorch's Scalar negates it in the formula: a bool has no negative."""
    if isinstance(value, (bool, np.bool_)):
        raise RuntimeError("torch boolean negative, the `-` operator, is not supported.")
    return -value


special_zeta_self_scalar = Op(   # number x: one edge, to q
    "special_zeta", "SpecialZetaBackward1", lambda other, self: _zeta_np(np.asarray(self, other.dtype), other),
    inputs=("other",), args=("self",),
    other=lambda grad, self, other: grad * _negated_scalar(self) * special_zeta_self_scalar(other, self=self + 1.0))
# number q: the node has no derivative (PyTorch has none in x), so it goes in the registry of such nodes
NOT_IMPLEMENTED["special_zeta_other_scalar"] = Op(
    "special_zeta", "SpecialZetaBackward2", lambda a, other: _zeta_np(a, np.asarray(other, a.dtype)),
    args=("other",), self=_not_differentiable("zeta"))
# torch.igamma / igammac (special.gammainc / gammaincc): the values from minigrad/_igamma.py. PyTorch has no
# derivative in a; in x, dP/dx = x^(a-1) e^-x / Γ(a) = -dQ/dx.
def _igamma_forward(upper: bool):
    def forward(a, x):
        from ._igamma import igamma_np
        return igamma_np(a, x, upper)
    return forward


def _no_igamma_input_grad(name: str):
    def formula(grad):
        raise NotImplementedError(f"the derivative for '{name}: input' is not implemented.")
    return formula


def _gamma_pdf(a, x):
    return (sub_scalar(a, other=1) * x.log() - x - a.lgamma()).exp()


igamma = Op("igamma", "IgammaBackward0", _igamma_forward(False), inputs=("self", "other"),
            self=_no_igamma_input_grad("igamma"), other=lambda grad, self, other: grad * _gamma_pdf(self, other))
igammac = Op("igammac", "IgammacBackward0", _igamma_forward(True), inputs=("self", "other"),
             self=_no_igamma_input_grad("igammac"), other=lambda grad, self, other: -grad * _gamma_pdf(self, other))
mvlgamma = Op("mvlgamma", "MvlgammaBackward0", _mvlgamma, args=("p",), jvp="element_wise",
              # d log Γ_p(x) = Σ_{j<p} ψ(x - j/2)   (PyTorch's args.digamma_() in place: its DigammaBackward0
              # saves a clone of args, a CloneBackward0 under a second derivative)
              self=lambda grad, self, p: grad * (Tensor._make(np.arange(-p / 2 + 0.5, 0.5, 0.5, self._data.dtype))
                                                 + self.unsqueeze(-1)).digamma_().sum(-1))
mvlgamma.elementwise = False   # (a sum over the p shifts: a reduction's C-order result, not TensorIterator's layout)


# =============================================================================================
# Sliding windows: x.unfold(dim, size, step) (a view), im2col / col2im (F.unfold / F.fold)
# =============================================================================================
import itertools  # noqa: E402


def _unfold_view(a, dimension, size, step):
    """Windows of ``size`` elements every ``step`` along ``dimension``, as a new last dim (a strided view)."""
    if a.ndim == 0:   # (one window of ``size`` (0 or 1) elements)
        return a.reshape(1)[:size]
    d = dimension % a.ndim
    count = (a.shape[d] - size) // step + 1
    shape = a.shape[:d] + (count,) + a.shape[d + 1:] + (size,)
    strides = a.strides[:d] + (a.strides[d] * step,) + a.strides[d + 1:] + (a.strides[d],)
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def _unfold_scatter(g, input_sizes, dim, size, step):
    """unfold's gradient: each window's gradient added back where the window was read."""
    out = np.zeros(tuple(input_sizes), g.dtype)
    if out.ndim == 0:
        return g.reshape(()).copy() if g.size else out
    d = dim % out.ndim
    count = g.shape[d]
    # last offset first: an element gets its windows' gradients in window order, as PyTorch's kernel adds them
    for j in range(size - 1, -1, -1):
        out[_at(d, out.ndim, _builtin_slice(j, j + step * (count - 1) + 1, step))] += g[..., j]
    return out


unfold = Op("unfold", "UnfoldBackward0", _unfold_view, args=("dimension", "size", "step"), view=True, jvp="linear",
            self=lambda grad, self_sym_sizes, dimension, size, step:
                unfold_backward(grad, input_sizes=tuple(self_sym_sizes), dim=dimension, size=size, step=step))
unfold_backward = Op("unfold_backward", "UnfoldBackwardBackward0", _unfold_scatter, inputs=("grad_in",),
                     args=("input_sizes", "dim", "size", "step"), jvp="linear",
                     grad_in=lambda grad, dim, size, step: grad.unfold(dim, size, step))


def _im2col(x, kernel_size, dilation, padding, stride, self_sym_argsize_minus_2=None, self_sym_argsize_minus_1=None):
    """(N, C, H, W) → (N, C·kh·kw, L): row (c, i, j) holds tap (i, j) of channel c of every window (3-D: no N)."""
    x4 = x if x.ndim == 4 else x[None]
    n, c = x4.shape[:2]
    out = _conv._output_shape(x4.shape, kernel_size, stride, padding, dilation)
    cols = _conv.windows(_conv.pad(x4, padding, padding), kernel_size, stride, dilation, out)   # (N, C, oh, ow, kh, kw)
    # (a copy even when the windows are the input itself: a 1×1 kernel without padding)
    cols = cols.transpose(0, 1, 4, 5, 2, 3).copy().reshape(n, c * kernel_size[0] * kernel_size[1], out[0] * out[1])
    return cols if x.ndim == 4 else cols[0]


def _col2im(g, output_size, kernel_size, dilation, padding, stride):
    """(N, C·kh·kw, L) → (N, C, H, W): every column's taps added back where they were read (3-D: no N).

    PyTorch's kernel adds the taps in (i, j) order, so each pixel gets its sums in that order too."""
    g3 = g if g.ndim == 3 else g[None]
    (kh, kw), (h, w) = kernel_size, output_size
    out = _conv._output_shape((0, 0, h, w), kernel_size, stride, padding, dilation)
    n, c = g3.shape[0], g3.shape[1] // (kh * kw)
    cols = g3.reshape(n, c, kh, kw, *out)
    padded = np.zeros((n, c, h + 2 * padding[0], w + 2 * padding[1]), g.dtype)
    if 0 not in out:
        for i, j in itertools.product(range(kh), range(kw)):
            rows = _builtin_slice(i * dilation[0], i * dilation[0] + stride[0] * (out[0] - 1) + 1, stride[0])
            columns = _builtin_slice(j * dilation[1], j * dilation[1] + stride[1] * (out[1] - 1) + 1, stride[1])
            padded[:, :, rows, columns] += cols[:, :, i, j]
    result = np.ascontiguousarray(padded[:, :, padding[0]:padding[0] + h, padding[1]:padding[1] + w])
    return result if g.ndim == 3 else result[0]


# (PyTorch saves x.size(-2), x.size(-1) as ``_saved_self_sym_argsize_minus_2/1``; the caller passes them here)
im2col = Op("im2col", "Im2ColBackward0", _im2col, jvp="linear",
            args=("kernel_size", "dilation", "padding", "stride", "self_sym_argsize_minus_2",
                  "self_sym_argsize_minus_1"),
            # the transpose of copying windows out is adding them back: col2im
            self=lambda grad, kernel_size, dilation, padding, stride, self_sym_argsize_minus_2,
            self_sym_argsize_minus_1: col2im(grad, output_size=(self_sym_argsize_minus_2, self_sym_argsize_minus_1),
                                             kernel_size=kernel_size, dilation=dilation, padding=padding,
                                             stride=stride))
col2im = Op("col2im", "Col2ImBackward0", _col2im, jvp="linear",
            args=("output_size", "kernel_size", "dilation", "padding", "stride"),
            # and the transpose of adding windows back is copying them out: im2col
            self=lambda grad, kernel_size, dilation, padding, stride: im2col(
                grad, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride,
                self_sym_argsize_minus_2=grad.shape[-2], self_sym_argsize_minus_1=grad.shape[-1]))


# ---- packed sequences (nn.utils.rnn.pack_padded_sequence): the padded (T, B, *) input's real steps, one
# time step after another: step t contributes its first batch_sizes[t] rows (the sequences still running)

def _pack_padded(x, lengths, batch_first):
    steps = x.swapaxes(0, 1) if batch_first else x
    batch_sizes = np.array([int((np.asarray(lengths) > t).sum()) for t in range(int(lengths[0]))], np.int64)
    # (a length beyond T still counts in batch_sizes, but PyTorch's slice of the missing steps is empty)
    return np.concatenate([steps[t, :n] for t, n in enumerate(batch_sizes[:steps.shape[0]])]), batch_sizes


def _pack_padded_backward(grad, input_sym_sizes, result1, batch_first):
    """PyTorch's _pack_padded_sequence_backward (a composite): each step's rows copied back into zeros."""
    sizes = list(input_sym_sizes)
    if batch_first:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    grad_input = _ops().zeros(sizes, dtype=grad.dtype)
    offset = 0
    for t, n in enumerate(result1.tolist()):
        grad_input[t][:n].copy_(grad[offset:offset + n])
        offset += n
    return grad_input.transpose(0, 1) if batch_first else grad_input


pack_padded_sequence = Op("_pack_padded_sequence", "PackPaddedSequenceBackward0", _pack_padded, inputs=("input",),
                          args=("lengths", "batch_first"), outputs=("result0", "result1"), differentiable_outputs=1,
                          input=_pack_padded_backward)


# =============================================================================================
# Missing-ops pass 2: vdot, addr, addmv, addbmm, frexp, ldexp, nextafter, renorm, complex, polar,
# index_copy, scatter_reduce (PyTorch's rows and FunctionsManual formulas)
# =============================================================================================

def _ones_like(t: Tensor) -> Tensor:
    from ._creation import ones_like  # (imported on use: _creation needs the table's module loaded first)
    return ones_like(t)


def _vdot(a, b):
    return _matmul.dot(a, b, conjugate=a.dtype.kind == "c")


def _addr(a, vec1, vec2, beta, alpha):
    """β·self + α·v1 v2ᵀ as PyTorch's kernel rounds it: (α·v1_i)·v2_j, then + β·self (β = 0: self unread)."""
    if a.dtype == np.bool_:
        prod = np.outer(vec1, vec2) & bool(alpha)
        return prod if not beta else prod | a
    prod = (a.dtype.type(alpha) * vec1)[:, None] * vec2
    return prod if beta == 0 else a.dtype.type(beta) * np.broadcast_to(a, prod.shape) + prod


def _addmv(a, mat, vec, beta, alpha):
    """β·self + α·(mat @ vec): the bias copied into the result, then MKL's gemv (``_matmul.addmv``)."""
    return _matmul.addmv(np.broadcast_to(a, mat.shape[:1]), mat, vec, beta, alpha)


def _addbmm(a, batch1, batch2, beta, alpha):
    """β·self + α·Σ_b batch1[b] @ batch2[b]: PyTorch's loop of addmm_, β used on the first product only."""
    out = np.broadcast_to(a, (batch1.shape[1], batch2.shape[2]))
    if beta == 0:   # self unread (its NaNs too)
        out = np.zeros_like(out)
    if len(batch1) == 0:
        return out * a.dtype.type(beta)
    for b in range(len(batch1)):
        out = _matmul.addmm(out, batch1[b], batch2[b], beta, alpha).astype(a.dtype, copy=False)
        beta = 1
    return out


def _addbmm_expand(grad, batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2):
    return grad.unsqueeze(0).expand(batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2)


vdot = Op("vdot", "VdotBackward0", _vdot, inputs=("self", "other"),
          jvp=lambda self_t, other_t, self, other: vdot(self_t, other) + vdot(self, other_t),
          self=lambda grad, other: grad.conj() * other,        # d(x̄·y)/dx: y (conjugate Wirtinger)
          other=lambda grad, self: grad * self)                # d(x̄·y)/dy: x̄, so grad·x
addr = Op("addr", "AddrBackward0", _addr, inputs=("self", "vec1", "vec2"), args=("beta", "alpha"),
          jvp=lambda self_t, vec1_t, vec2_t, vec1, vec2, beta, alpha: _three_term_jvp(
              lambda: _maybe_times(self_t, beta), lambda: _maybe_times(vec1_t.outer(vec2), alpha),
              lambda: _maybe_times(vec1.outer(vec2_t), alpha)),
          # (conjugated factors: the gradients of complex inputs, as PyTorch's alpha.conj())
          self=lambda grad, beta: _maybe_times(grad, _conj(beta)),                          # d/d self = β
          vec1=lambda grad, vec2, alpha: _maybe_times(grad.mv(vec2.conj()), _conj(alpha)),  # α·G v̄2
          vec2=lambda grad, vec1, alpha: _maybe_times(grad.t().mv(vec1.conj()), _conj(alpha)))   # α·Gᵀ v̄1
addmv = Op("addmv", "AddmvBackward0", _addmv, inputs=("self", "mat", "vec"), args=("beta", "alpha"),
           jvp=lambda self_t, mat_t, vec_t, mat, vec, beta, alpha: _three_term_jvp(
               lambda: _maybe_times(self_t, beta), lambda: _maybe_times(mat_t.mv(vec), alpha),
               lambda: _maybe_times(mat.mv(vec_t), alpha)),
           self=lambda grad, beta: _maybe_times(grad, _conj(beta)),                         # d/d self = β
           mat=lambda grad, vec, alpha: _maybe_times(grad.outer(vec.conj()), _conj(alpha)),  # α·g v̄ᵀ
           vec=lambda grad, mat, alpha: _maybe_times(mat.t().conj().mv(grad), _conj(alpha)))  # α·Aᴴ g
addbmm = Op("addbmm", "AddbmmBackward0", _addbmm, inputs=("self", "batch1", "batch2"), args=("beta", "alpha"),
            jvp=lambda self_t, batch1_t, batch2_t, batch1, batch2, beta, alpha: _three_term_jvp(
                lambda: _maybe_times(self_t, beta), lambda: _maybe_times(batch1_t.bmm(batch2).sum(0), alpha),
                lambda: _maybe_times(batch1.bmm(batch2_t).sum(0), alpha)),
            self=lambda grad, beta: _maybe_times(grad, _conj(beta)),                        # d/d self = β
            # every batch got the same output gradient G: α·G B_bᴴ and α·A_bᴴ G, per batch
            batch1=lambda grad, batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2, batch2, alpha:
                _maybe_times(_addbmm_expand(grad, batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2)
                             .bmm(batch2.transpose(1, 2).conj()), _conj(alpha)),
            batch2=lambda grad, batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2, batch1, alpha:
                _maybe_times(batch1.transpose(1, 2).conj().bmm(
                    _addbmm_expand(grad, batch1_sym_argsize_0, batch1_sym_argsize_1, batch2_sym_argsize_2)),
                    _conj(alpha)))


def _frexp(a):
    mantissa, exponent = np.frexp(a)
    return mantissa, exponent.astype(np.int32, copy=False)


# x = m·2^e with 0.5 ≤ |m| < 1: dm/dx = 2^-e (e piecewise constant, not differentiable)
frexp = Op("frexp", "FrexpBackward0", _frexp, outputs=("mantissa", "exponent"), differentiable_outputs=1,
           jvp=lambda self_t, exponent: self_t / exponent.exp2(),
           self=lambda grad, exponent: grad / exponent.exp2())


def _ldexp(a, b):
    """a·2^b: exact (std::ldexp) for whole exponents, else PyTorch's mul(a, pow(2., b)) in the common dtype
    (pow's own kernel; a complex b turns 2^b complex: 2^x·e^(i·y·log 2))."""
    if a.dtype.kind != "c" and np.all(np.isfinite(b) & (b == np.round(b))):
        return np.ldexp(a, np.clip(b, -1100, 1100).astype(np.int32)).astype(a.dtype, copy=False)
    return (a * _power_of_number(2.0, b.astype(a.dtype, copy=False))).astype(a.dtype, copy=False)


# x·2^y: d/dx = 2^y, d/dy = x·2^y·log 2 (conjugated for complex: see mul)
ldexp = Op("ldexp", "LdexpBackward0", _ldexp,
           inputs=("self", "other"), jvp="element_wise",
           # (``result`` in both: PyTorch saves the output whichever input needs a gradient)
           self=lambda grad, other, result: grad * _ops().pow(2, other).conj(),
           other=lambda grad, result: mul_scalar(grad * result.conj(), other=math.log(2.0)))
# the next float after x towards y: a step of one ulp, PyTorch passes grad to x (not where x == y) and 0 to y
nextafter = Op("nextafter", "NextafterBackward0", np.nextafter, inputs=("self", "other"),
               # (reads self_t only: with only other dual, PyTorch's result has no tangent)
               jvp=lambda self_t, self, other: _ops().where(self != other, self_t, 0),
               self=lambda grad, self, other: _ops().where(self != other, grad, 0),
               other=lambda grad, other: _ops().zeros_like(other))


def _renorm(a, p, dim, maxnorm):
    """self · (maxnorm / (‖slice‖_p + 1e-7)) for the slices along ``dim`` whose norm exceeds maxnorm."""
    dims = tuple(d for d in range(a.ndim) if d != dim % a.ndim)
    norm = np.asarray(_vector_norm(a, p, dims, True))
    real = norm.dtype.type
    factor = np.where(norm > real(maxnorm), real(maxnorm) / (norm + real(1e-7)), real(1))
    # (C order whatever the input's layout: PyTorch's renorm allocates its output contiguous, no TensorIterator)
    return np.ascontiguousarray((a * factor.astype(a.dtype, copy=False)).astype(a.dtype, copy=False))


def _cpu_accumulate_type(dtype):
    """PyTorch's at::toAccumulateType on CPU: float64 for float32 and the 16-bit floats, else the dtype."""
    dtypes = _ops()._dtypes
    return dtypes.float64 if dtype in (dtypes.float32, dtypes.float16, dtypes.bfloat16) else dtype


def renorm_backward(grad, self, p, dim, maxnorm):
    """PyTorch's renorm_backward: where ‖x‖ > m, d(m·x/‖x‖) = m/‖x‖·(g - (1/‖x‖)·∇‖x‖·<x, g>), else g.

    The norm and <x, g> run in float64 for float32 (PyTorch's CPU accumulate type), hence the final cast.
    """
    dims = tuple(d for d in range(self.dim()) if d != dim % self.dim())
    acc = _cpu_accumulate_type(self.dtype)
    if self.is_complex():   # (the norm is real: <x, g> too, its real part summed in the real accumulate type)
        norm = linalg_vector_norm(self.to(acc), ord=p, dim=dims, keepdim=True)
        grad_output = (self.conj() * grad).real.sum(dims, keepdim=True, dtype=norm.dtype)
    else:
        norm = linalg_vector_norm(self, dtype=acc, ord=p, dim=dims, keepdim=True)
        grad_output = (self.conj() * grad).sum(dims, keepdim=True, dtype=acc)
    nb = norm_backward(grad_output, self, p, dims, True, norm)
    invnorm = add_scalar(norm, other=1e-7).reciprocal()
    diff = grad - invnorm * nb   # (PyTorch's nodes: the right operand of factor * (...) first)
    factor = mul_scalar(invnorm, other=maxnorm)
    return _ops().where(norm > maxnorm, (factor * diff).to(grad.dtype), grad)


def renorm_jvp(self_t, self, p, dim, maxnorm):
    """PyTorch's renorm_jvp: m/‖x‖·(t - x·d‖x‖/‖x‖) where ‖x‖ > m, else t (d‖x‖ = <∇‖x‖, t>)."""
    dims = tuple(d for d in range(self.dim()) if d != dim % self.dim())
    norm = linalg_vector_norm(self, ord=p, dim=dims, keepdim=True)
    norm_t = norm_jvp(self_t, self, norm, float(p), dims, True)   # (PyTorch's: p = 1 writes sgn(x) in place)
    invnorm = add_scalar(norm, other=1e-7).reciprocal()
    return _ops().where(norm > maxnorm, mul_scalar(invnorm, other=maxnorm) * (self_t - self * invnorm * norm_t),
                        self_t)


renorm = Op("renorm", "RenormBackward0", _renorm, args=("p", "dim", "maxnorm"), jvp=renorm_jvp,
            self=renorm_backward)


_cosf, _sinf = _float_math.libm_float("cosf", np.cos), _float_math.libm_float("sinf", np.sin)


def _polar(r, theta):
    """r·cos θ + i·r·sin θ; float32 with glibc's cosf/sinf, as PyTorch's (scalar) kernel calls them."""
    cos, sin = (_cosf(theta), _sinf(theta)) if theta.dtype == np.float32 else (np.cos(theta), np.sin(theta))
    out = np.empty(np.broadcast_shapes(r.shape, theta.shape), np.result_type(r, np.complex64))
    out.real, out.imag = r * cos, r * sin
    return out


def polar_backward(grad, result):
    """z = r·e^(iθ): dL/dr = Re(ḡ·sgn z), dL/dθ = Re(ḡ·i z)."""
    ops = _ops()
    grad_conj = grad.conj()
    return (ops.real(grad_conj * result.sgn()), ops.real(grad_conj * mul_scalar(result, other=1j)))


def _complex(re, im):
    """re + i·im, filled part by part (``re + 1j * im`` would turn an infinite imaginary part into nan + inf j)."""
    shape = np.broadcast_shapes(re.shape, im.shape)
    if re.dtype == np.float16:   # (complex32: a float16 pair per element, see _dtypes.complex32)
        out = np.empty(shape, _dtypes.COMPLEX32_NP)
        out["real"], out["imag"] = re, im
        _dtypes.warn_complex32()
        return out
    out = np.empty(shape, np.result_type(re, np.complex64))
    out.real, out.imag = re, im
    return out


def _complex_jvp(real_t, imag_t):
    """ż = ẋ + i·ẏ: PyTorch's at::complex(real_t, imag_t), which refuses parts of two dtypes (under torch.func.jvp
    the tangent of a float32 ``x * 0.5`` is float64: see forward_ad._lifted_number_dtype)."""
    if real_t.dtype is not imag_t.dtype:
        raise RuntimeError(f"Expected object of scalar type {_ops()._legacy(real_t.dtype)} but got scalar type "
                           f"{_ops()._legacy(imag_t.dtype)} for second argument")
    return complex_(real_t, imag_t)


# z = x + iy: dL/dx = Re g, dL/dy = Im g (PyTorch's node also saves both inputs, unused)
complex_ = Op("complex", "ComplexBackward0",   # (complex_: not to hide Python's complex)
             _complex,
             inputs=("real", "imag"), jvp=_complex_jvp,
             # (PyTorch's codegen takes the ``real`` of at::real(grad) for the input: each formula saves its own)
             real=lambda grad, real: _ops().real(grad),
             imag=lambda grad, imag: _ops().imag(grad))
polar = Op("polar", "PolarBackward0", _polar, inputs=("abs", "angle"),
           # d(r e^(iθ)) = dr·(cos θ + i sin θ) + r dθ·(-sin θ + i cos θ)
           jvp=lambda abs_t, angle_t, abs, angle: complex_(abs_t * angle.cos() - angle_t * abs * angle.sin(),
                                                            abs_t * angle.sin() + angle_t * abs * angle.cos()),
           abs=joint(polar_backward), angle=joint(polar_backward))


def _index_copy(a, index, source, dim, source_dim):
    out = a.copy()
    if a.ndim == 0:
        if source.size:   # (index [0, 0]: each copy in turn, as PyTorch's loop, so the last one stays)
            out[...] = source.reshape(-1)[-1]
        return out
    if not a.size:   # (nowhere to copy to: PyTorch checks no index then)
        return out
    out[_at(dim, a.ndim, index.reshape(-1))] = source
    return out


# the copied slices: their gradient goes to source; self's own there was overwritten (0)
index_copy = Op("index_copy", "IndexCopyBackward0", _index_copy, inputs=("self", "index", "source"),
                args=("dim", "source_dim"),
                jvp=lambda self_t, index, source_t, dim, source_dim:
                    index_copy(self_t, index, source_t, dim=dim, source_dim=source_dim),
                self=lambda grad, dim, index: index_fill(grad, index, dim=dim, value=0),
                source=lambda grad, dim, index, source, source_dim:
                    _index_copy_source_grad(grad, dim, index, source) if source_dim > 0
                    else _ops().index_select(grad, dim, index.squeeze(0)))


def _index_copy_source_grad(grad, dim, index, source):
    """grad.index_select(dim, index).expand_as(source), with index_select's checks (a 0-dim self copied to more
    than once, a negative index into an empty self: the copy took them)."""
    return _ops().index_select(grad, dim, index).expand_as(source)


_SCATTER_UFUNCS = {"sum": np.add, "mean": np.add, "prod": np.multiply, "amax": np.maximum, "amin": np.minimum}


def _scatter_reduce(a, index, src, dim, reduce, include_self):
    """Each src element reduced into self at its index along ``dim`` (self's own value first if include_self)."""
    out = a.copy()
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)   # (PyTorch's older spellings, forward only)
    if a.ndim == 0:
        out, index, src = out.reshape(1), index.reshape(-1), src.reshape(-1)
    where = _along(index, dim)
    if not include_self:   # start the reduction from src alone: its identity where src lands
        identity = {"sum": 0, "mean": 0, "prod": 1}.get(reduce)
        if identity is None and a.dtype == np.bool_:
            identity = reduce == "amin"   # (bool: False is amax's identity, True amin's)
        elif identity is None and a.dtype.kind in "fV":   # (V: bfloat16)
            # (PyTorch starts floats from ∓inf, not the finite extremes: an inf src must stay inf)
            identity = -np.inf if reduce == "amax" else np.inf
        elif identity is None:
            info = np.iinfo(a.dtype)
            identity = info.min if reduce == "amax" else info.max
        out[where] = identity
    _SCATTER_UFUNCS[reduce].at(out, where, _head(src, index.shape))
    if reduce == "mean":
        count = np.full(out.shape, 1 if include_self else 0, np.int64)
        np.add.at(count, where, 1)
        count = np.maximum(count, 1)
        # (true division for floats, bfloat16 (kind "V") included; floor division for integers, as PyTorch)
        out = np.floor_divide(out, count) if a.dtype.kind in "iu" else out / count
    return out.astype(a.dtype, copy=False).reshape(a.shape)


def scatter_reduce_backward(grad, self, dim, index, src, reduce, include_self, result):
    """PyTorch's scatter_reduce_backward (FunctionsManual.cpp), reduction by reduction."""
    ops = _ops()
    if reduce == "sum":            # each term's gradient is the output's
        grad_self, grad_src = grad, gather(grad, index, dim=dim, sparse_grad=False)
    elif reduce == "prod":         # ∂(Π)/∂x = Π / x, with zeros excluded from the division
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = masked_self.scatter_reduce(dim, index, src, reduce, include_self=include_self)
        grad_self = grad * masked_self_result / masked_self
        src_zero = src == 0
        src_num_zeros = ops.zeros_like(self).scatter_add(dim, index, src_zero.to(self.dtype)).gather(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = src.masked_fill(src_single_zero, 1)
        masked_src_result = self.scatter_reduce(dim, index, masked_src, reduce, include_self=include_self)
        # (GCC evaluates a call's arguments, and a / b's operands, right to left: the nodes' order under create_graph)
        divisor = src.masked_fill(src_zero, 1)
        otherwise = (grad * result).gather(dim, index) / divisor
        grad_src = ops.where(src_single_zero, (grad * masked_src_result).gather(dim, index), otherwise)
        # (PyTorch reads the count whenever grad mode is on, as in every torch.func transform's backward: inside vmap,
        # .item() of a batched value; with a gradient that requires grad, this formula's own one is then wrong)
        if (grad_src.requires_grad or _vmap_batched.TRANSFORM_BACKWARD[0] and _vmap_batched.DEPTH[0]) and \
                (src_num_zeros > 1).any().item() and grad_src.requires_grad:
            from .autograd.function import _with_delayed_error
            grad_src = _with_delayed_error(grad_src, "scatter_reduce(): Double backward is unsupported for src when "
                                           ">1 zeros in src are scattered to the same position in self", True)
    elif reduce == "mean":         # each term counts 1/N, N the terms reduced there
        n = _ones_like(grad) if include_self else ops.zeros_like(grad)
        n = n.scatter_add(dim, index, _ones_like(src))
        n = n.masked_fill(n == 0, 1)
        grad_self = grad / n
        grad_src = grad.gather(dim, index) / n.gather(dim, index)
    elif reduce in ("amax", "amin"):   # shared evenly by the terms equal to the result
        value = result.gather(dim, index)
        self_is_result = (self == result).to(self.dtype)
        src_is_result = (src == value).to(self.dtype)
        grad_distributed = grad / self_is_result.scatter_add(dim, index, src_is_result)
        grad_self = (self == result) * grad_distributed
        grad_src = (src == value) * grad_distributed.gather(dim, index)
    else:
        raise RuntimeError(f"Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', 'amin' but got {reduce}.")
    if not include_self:           # self's values where src landed took no part
        grad_self = scatter_value(grad_self, index, dim=dim, value=0)
    return grad_self, grad_src


def scatter_reduce_jvp(self, self_t, dim, index, src, src_t, reduce, include_self, result):
    """PyTorch's scatter_reduce_jvp: sum and mean are linear; amax/amin average the tangents of the terms equal
    to the result; prod has none (an undefined tangent, as in PyTorch)."""
    if reduce in ("sum", "mean"):
        return scatter_reduce(self_t, index, src_t, dim=dim, reduce=reduce, include_self=include_self)
    if reduce not in ("amax", "amin"):
        return None
    ops = _ops()
    mask_self, mask_src = self == result, src == result.gather(dim, index)
    count = scatter_reduce(mask_self.to(self_t.dtype), index, mask_src.to(self_t.dtype), dim=dim, reduce="sum",
                           include_self=include_self)
    total = scatter_reduce(ops.where(mask_self, self_t, 0), index, ops.where(mask_src, src_t, 0), dim=dim,
                           reduce="sum", include_self=include_self)
    return total / count


scatter_reduce = Op("scatter_reduce", "ScatterReduceBackward0", _scatter_reduce, inputs=("self", "index", "src"),
                    args=("dim", "reduce", "include_self"), jvp=scatter_reduce_jvp,
                    self=joint(scatter_reduce_backward), src=joint(scatter_reduce_backward))


# =============================================================================================
# More layers: _trilinear (F.bilinear), rrelu_with_noise (F.rrelu), avg_pool3d (F.local_response_norm)
# =============================================================================================

def _sumproduct_pair(left, right, sum_dims):
    """Σ over ``sum_dims`` of left·right (summed dims kept as 1) as one batched matrix product (PyTorch's
    sumproduct_pair: dims in both become the batch, dims in one side the rows or columns)."""
    if not sum_dims:
        return left * right
    lro, lo, ro = [], [], []
    for i in range(left.ndim):
        in_left, in_right = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:   # a dim on one side only is summed at once
            if in_left and not in_right:
                left = left.sum(i, keepdims=True)
            elif in_right and not in_left:
                right = right.sum(i, keepdims=True)
        elif in_left and in_right:
            lro.append(i)
        elif in_left:
            lo.append(i)
        else:
            ro.append(i)
    sum_dims = list(sum_dims)

    def size(t, dims):
        return int(np.prod([t.shape[d] for d in dims]))

    a = left.transpose(lro + lo + sum_dims + ro).reshape(size(left, lro), size(left, lo), size(left, sum_dims))
    b = right.transpose(lro + sum_dims + ro + lo).reshape(size(right, lro), size(right, sum_dims), size(right, ro))
    shape = [left.shape[d] for d in lro + lo] + [1] * len(sum_dims) + [right.shape[d] for d in ro]
    return _matmul.bmm(a, b).reshape(shape).transpose(np.argsort(lro + lo + sum_dims + ro))


def _trilinear_forward(i1, i2, i3, expand1, expand2, expand3, sumdim, unroll_dim=1):
    """Σ over ``sumdim`` of i1·i2·i3, each first given size-1 dims at its ``expand`` positions.

    PyTorch's loop: one slice of ``unroll_dim`` at a time, each two sumproduct_pairs (i1·i2 over the dims i3
    lacks, then ·i3 over the rest), added into zeros in order: the same roundings, so the same bits."""
    total = i1.ndim + len(expand1)
    sum_12, sum_23, out_size, unroll = [], [], [], 0
    for i in range(total):
        n = 0
        for name, expand in (("i1", expand1), ("i2", expand2)):
            if i in expand:
                i1, i2 = (np.expand_dims(i1, i), i2) if name == "i1" else (i1, np.expand_dims(i2, i))
            else:
                n = (i1 if name == "i1" else i2).shape[i]
        if i in expand3:
            i3 = np.expand_dims(i3, i)
            if i in sumdim and i != unroll_dim:
                sum_12.append(i)
        else:
            n = i3.shape[i]
            if i in sumdim and i != unroll_dim:
                sum_23.append(i)
        out_size.append(1 if i in sumdim else n)
        if i == unroll_dim:
            unroll = n
    out = np.zeros(out_size, i1.dtype)

    def part(t, k):   # slice k of unroll_dim (slice 0 of an expanded dim)
        k = k if t.shape[unroll_dim] != 1 else 0
        return t[(_slice_all,) * unroll_dim + (_builtin_slice(k, k + 1),)]

    if i1.size and i2.size and i3.size:
        for k in range(unroll):
            buf = _sumproduct_pair(_sumproduct_pair(part(i1, k), part(i2, k), sum_12), part(i3, k), sum_23)
            if unroll_dim in sumdim:
                out += buf
            else:
                out[(_slice_all,) * unroll_dim + (_builtin_slice(k, k + 1),)] += buf
    return out.reshape([n for i, n in enumerate(out_size) if i not in sumdim])


def _trilinear_backward(grad, i1, i2, i3, expand1, expand2, expand3, sumdim, grad_input_mask):
    """Each input's gradient is the same product with grad in its place (PyTorch's _trilinear_backward)."""
    return (trilinear(grad, i2, i3, expand1=sumdim, expand2=expand2, expand3=expand3, sumdim=expand1)
            if grad_input_mask[0] else None,
            trilinear(i1, grad, i3, expand1=expand1, expand2=sumdim, expand3=expand3, sumdim=expand2)
            if grad_input_mask[1] else None,
            trilinear(i1, i2, grad, expand1=expand1, expand2=expand2, expand3=sumdim, sumdim=expand3)
            if grad_input_mask[2] else None)


trilinear = Op("_trilinear", "TrilinearBackward0", _trilinear_forward, inputs=("i1", "i2", "i3"),
               args=("expand1", "expand2", "expand3", "sumdim", "unroll_dim"),
               # trilinear in (i1, i2, i3): one term per input tangent
               jvp=lambda i1, i2, i3, i1_t, i2_t, i3_t, expand1, expand2, expand3, sumdim, unroll_dim: (
                   trilinear(i1_t, i2, i3, expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim,
                             unroll_dim=unroll_dim)
                   + trilinear(i1, i2_t, i3, expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim,
                               unroll_dim=unroll_dim)
                   + trilinear(i1, i2, i3_t, expand1=expand1, expand2=expand2, expand3=expand3, sumdim=sumdim,
                               unroll_dim=unroll_dim)),
               i1=joint(_trilinear_backward), i2=joint(_trilinear_backward), i3=joint(_trilinear_backward))


# ---- prelu: x where x > 0, else w·x, w broadcast by the caller (a view with x's rank: one slope or one per
# channel at dim 1). Both gradients come from one _prelu_kernel_backward, as in PyTorch; the weight's one has
# x's shape and the engine sums it down to w's.

def _prelu_kernel_backward_forward(g, x, w):
    keep = x > 0
    # (both laid out by one TensorIterator over self, weight, grad_out, in that order)
    return tuple(_strides.iterator_layout(r, (x, w, g)) for r in (
        np.where(keep, g, w * g).astype(g.dtype, copy=False),
        np.where(keep, np.zeros((), g.dtype), x * g).astype(g.dtype, copy=False)))


def _prelu_double_backward(grads, grad_output, self, weight, grad_input_mask):
    """PyTorch's formulas for _prelu_kernel_backward's inputs: each output is bilinear in g and (x, w)."""
    gg_self, gg_weight = grads
    ops, positive = _ops(), self >= 0
    zero = self.new_zeros(())
    g_grad_output = g_self = g_weight = None
    if grad_input_mask[0]:
        if gg_self is None:
            g_grad_output = ops.where(positive, zero, gg_weight * self)
        elif gg_weight is None:
            g_grad_output = ops.where(positive, gg_self, gg_self * weight)
        else:
            g_grad_output = ops.where(positive, gg_self, gg_self * weight + gg_weight * self)
    if grad_input_mask[1]:
        g_self = (_ops().zeros_like(self) if gg_weight is None
                  else ops.where(positive, zero, grad_output * gg_weight))
    if grad_input_mask[2]:
        g_weight = (_ops().zeros_like(self) if gg_self is None
                    else ops.where(positive, zero, grad_output * gg_self))
    return g_grad_output, g_self, g_weight


prelu_kernel_backward = Op(
    "_prelu_kernel_backward", "PreluKernelBackwardBackward0", _prelu_kernel_backward_forward,
    inputs=("grad_output", "self", "weight"), outputs=("result0", "result1"), undefined_grads=True,
    grad_output=joint(_prelu_double_backward), self=joint(_prelu_double_backward),
    weight=joint(_prelu_double_backward))
def _prelu_kernel_grads(grad, self, weight, grad_input_mask):
    """(d/dx, d/dw) of prelu from one _prelu_kernel_backward node (the weight's with x's shape)."""
    return prelu_kernel_backward(grad, self, weight)


prelu_kernel = Op(
    "_prelu_kernel", "PreluKernelBackward0",
    lambda x, w: np.where(x > 0, x, w * x).astype(np.result_type(x, w), copy=False), inputs=("self", "weight"),
    jvp=lambda self, weight, self_t, weight_t: _ops().where(self >= 0, self_t, weight * self_t + weight_t * self),
    self=joint(_prelu_kernel_grads), weight=joint(_prelu_kernel_grads))


# ---- rrelu: x where x > 0, else x·r; r ~ U(lower, upper) per element when training (drawn by the caller
# into ``noise``, which holds 1 where x > 0), the mean slope (lower + upper)/2 in evaluation

def _rrelu_forward(x, noise, lower, upper, training):
    if training:
        return np.where(x <= 0, x * noise, x).astype(x.dtype, copy=False)
    # (C order: PyTorch writes into empty_like(self, LEGACY_CONTIGUOUS_MEMORY_FORMAT) in both modes)
    return _strides.contiguous(_leaky_relu_forward(x, (lower + upper) / 2))


def _rrelu_backward_forward(g, x, noise, lower, upper, training, self_is_result):
    # (laid out as PyTorch's noise * grad_output, or leaky_relu_backward's TensorIterator over self, then grad)
    if training and upper - lower > 1e-6:
        return _strides.iterator_layout(_strides.contiguous((g * noise).astype(g.dtype, copy=False)), (noise, g))
    return _strides.iterator_layout(np.where(x > 0, g, g * ((lower + upper) / 2)).astype(g.dtype, copy=False),
                                    (x, g))


def _rrelu_grad(grad, self, noise, lower, upper, training, self_is_result=False):
    # the slope r (training) or the mean slope where x <= 0, 1 elsewhere
    return rrelu_with_noise_backward(grad, self, noise, lower=lower, upper=upper, training=training,
                                     self_is_result=self_is_result)


rrelu_with_noise = Op("rrelu_with_noise", "RreluWithNoiseBackward0", _rrelu_forward, inputs=("self", "noise"),
                      args=("lower", "upper", "training"), jvp="element_wise",
                      self=lambda grad, self, noise, lower, upper, training:
                          _rrelu_grad(grad, self, noise, lower, upper, training))
rrelu_with_noise.elementwise = False   # (its output is C order, not TensorIterator's: see _rrelu_forward)
# (in place: the result is saved; it is <= 0 exactly where the input was, the slopes being positive)
rrelu_with_noise_ = Op("rrelu_with_noise_", "RreluWithNoiseBackward1", _rrelu_forward, inputs=("self", "noise"),
                       args=("lower", "upper", "training"),
                       self=lambda grad, result, noise, lower, upper, training:
                           _rrelu_grad(grad, result, noise, lower, upper, training, True))
rrelu_with_noise_backward = Op(
    "rrelu_with_noise_backward", "RreluWithNoiseBackwardBackward0", _rrelu_backward_forward,
    inputs=("grad_output", "self", "noise"), args=("lower", "upper", "training", "self_is_result"),
    grad_output=lambda grad, self, noise, lower, upper, training: _rrelu_grad(grad, self, noise, lower, upper,
                                                                              training),   # linear in g
    self=lambda grad: _ops().zeros_like(grad))                           # the slopes are piecewise constant in x


# ---- avg_pool3d over the last three dims (no padding, no ceil_mode: what local_response_norm needs)

def _avg_pool3d(x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Each window's elements added one by one in the input's dtype (PyTorch's kernel), then divided."""
    if any(padding) or ceil_mode:   # F.avg_pool3d's general case (missing-nn pass 4: _pool3d.py)
        return _pool3d().avg_pool(x, *_avg_pool3d_sizes(kernel_size, stride, padding), ceil_mode, count_include_pad,
                                  divisor_override)
    kernel, stride = _expand_arg(kernel_size, 3), _expand_arg(stride or kernel_size, 3)
    out = tuple(_conv.out_size(n, k, s, 0) for n, k, s in zip(x.shape[-3:], kernel, stride))
    total = np.zeros(x.shape[:-3] + out, x.dtype)
    if 0 not in out:
        for offset in itertools.product(*(range(k) for k in kernel)):
            total = total + x[(...,) + tuple(_builtin_slice(o, o + s * (n - 1) + 1, s)
                                             for o, s, n in zip(offset, stride, out))]
    divisor = divisor_override or kernel[0] * kernel[1] * kernel[2]
    if x.dtype.kind in "iu":   # an int64 input: C++'s integer division (truncating toward zero), int64 out
        return np.ascontiguousarray((total / divisor).astype(x.dtype))
    return np.ascontiguousarray(total / x.dtype.type(divisor))


def _avg_pool3d_backward(g, x, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override):
    """Each window's gradient over its divisor, added to the window in output order (PyTorch's kernel)."""
    if any(padding) or ceil_mode:
        return _pool3d().avg_pool_backward(g, x.shape, *_avg_pool3d_sizes(kernel_size, stride, padding), ceil_mode,
                                           count_include_pad, divisor_override)
    kernel, stride = _expand_arg(kernel_size, 3), _expand_arg(stride or kernel_size, 3)
    share = g / g.dtype.type(divisor_override or kernel[0] * kernel[1] * kernel[2])
    gx = np.zeros(x.shape, g.dtype)
    if 0 not in g.shape[-3:]:
        for offset in itertools.product(*(range(k - 1, -1, -1) for k in kernel)):
            gx[(...,) + tuple(_builtin_slice(o, o + s * (n - 1) + 1, s)
                              for o, s, n in zip(offset, stride, g.shape[-3:]))] += share
    return gx


_POOL3D_ARGS = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override")
avg_pool3d = Op("avg_pool3d", "AvgPool3DBackward0", _avg_pool3d, args=_POOL3D_ARGS, jvp="linear",
                # linear: each window's gradient, over its divisor, spread over the window
                self=lambda grad, self, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override:
                    avg_pool3d_backward(grad, self, **dict(zip(_POOL3D_ARGS, (
                        kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override)))))
avg_pool3d_backward = Op(
    "avg_pool3d_backward", "AvgPool3DBackwardBackward0", _avg_pool3d_backward, inputs=("grad_output", "self"),
    args=_POOL3D_ARGS, jvp="linear",
    # linear in g: its gradient is the pooling itself; x only gives the shape
    grad_output=lambda grad, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override:
        avg_pool3d(grad, **dict(zip(_POOL3D_ARGS, (kernel_size, stride, padding, ceil_mode, count_include_pad,
                                                   divisor_override)))),
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))


# ---- weight norm (torch._weight_norm_interface; nn.utils.weight_norm's fused CPU path) ----
from . import _weight_norm_cpu  # noqa: E402  (PyTorch's CPU kernels, on arrays)


def _weight_norm_backward(grad, v, g, result1, dim):
    """dv = (g/n)·(grad - v·s/n²), dg = s/n, with s = Σ grad·v over each slice and n = ‖v‖ (result1).

    Without create_graph: PyTorch's fused kernel on arrays (its last bits). With it: PyTorch's
    _weight_norm_differentiable_backward, ops for ops; like PyTorch it takes the saved norms as constants,
    so its second derivatives miss how n depends on v (PyTorch's gradgradcheck of _weight_norm fails too).
    """
    if not _STATE.enabled:
        dv, dg = _weight_norm_cpu.backward(grad._data, v._data, g._data, result1._data, dim)
        return Tensor._make(dv), Tensor._make(dg)
    grad = grad.contiguous()
    if dim == 0:
        bcast = [v.size(0)] + [1] * (v.dim() - 1)
        per_dim_sums = (grad * v).view(v.size(0), -1).sum(1).view(bcast)
    else:
        bcast = [1] * (v.dim() - 1) + [v.size(-1)]
        per_dim_sums = (grad * v).view(-1, v.size(-1)).sum(0).view(bcast)
    norms = result1
    return ((g / norms) * (grad - v * (per_dim_sums / (norms * norms))), per_dim_sums / norms)


weight_norm_interface = Op(
    "_weight_norm_interface", "WeightNormInterfaceBackward0", _weight_norm_cpu.forward, inputs=("v", "g"),
    args=("dim",), outputs=("result0", "result1"), differentiable_outputs=1,
    v=joint(_weight_norm_backward), g=joint(_weight_norm_backward))


# =============================================================================================
# Attention: safe softmax and PyTorch's fused CPU flash-attention node (nn.functional.scaled_dot_product_attention)
# =============================================================================================

def _safe_softmax_forward(x, dim):
    # softmax, except that a row that is entirely -inf (fully masked) gives zeros instead of NaNs
    y = _softmax_forward(x, dim)
    return np.where(np.all(x == -np.inf, axis=dim, keepdims=True), y.dtype.type(0), y)


def _safe_logsumexp_jvp(self_p, self_t, dim):
    """PyTorch's safe_logsumexp_jvp: logsumexp_jvp (written in place), 0 on the rows that are all -inf."""
    lse_t = logsumexp_jvp(self_p, self_t, dim, True)
    masked_rows = (self_p == -math.inf).all(dim, keepdim=True)
    return _ops().where(masked_rows, _ops().zeros((), dtype=lse_t.dtype), lse_t)


safe_softmax = Op("_safe_softmax", "SafeSoftmaxBackward0", _rank0_ok(_safe_softmax_forward), args=("dim",),
                  jvp=lambda self_t, self, result, dim: result * (self_t - _safe_logsumexp_jvp(self, self_t, dim)),
                  # as softmax: grad_x = y ⊙ (g - Σ_j g_j y_j)  (y = 0 on masked rows, so their gradient is 0)
                  self=lambda grad, result, dim: softmax_backward_data(grad, result, dim=dim))


def _attention_scale(query, scale) -> float:
    """The softmax scale: ``scale``, by default 1/√E (E = the query's last dim)."""
    return 1 / math.sqrt(query.shape[-1]) if scale is None else scale


def _repeat_heads(x, heads: int):
    """Grouped-query attention: key/value head h serves query heads h·g … h·g+g-1 (repeat_interleave)."""
    return x if x.shape[-3] == heads else np.repeat(x, heads // x.shape[-3], axis=-3)


def _attention_probs(q, k, attn_mask, is_causal, scale):
    """P = softmax(scale·q·kᵀ + mask) (causal: -inf above the diagonal) and log Σ e^(scores) per query row.

    A fully masked row gets P = 0 (as PyTorch's kernel); its log-sum-exp is -inf.
    """
    s = np.matmul(q, np.swapaxes(_repeat_heads(k, q.shape[-3]), -1, -2)) * q.dtype.type(_attention_scale(q, scale))
    if attn_mask is not None:
        s = s + attn_mask._data
    if is_causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    top = s.max(-1, keepdims=True)
    top = np.where(np.isfinite(top), top, 0)
    e = np.exp(s - top)
    total = e.sum(-1, keepdims=True)
    p = (e / np.where(total == 0, 1, total)).astype(q.dtype, copy=False)
    return p, (top + np.log(total))[..., 0].astype(q.dtype, copy=False)


from . import _flash_attention  # noqa: E402  (the float32 CPU kernel's arithmetic, on arrays)


def _flash_attention_forward(q, k, v, dropout_p, is_causal, attn_mask, scale):
    # out = P·v, P = softmax(scale·q·kᵀ + mask); also returns logsumexp (saved for the backward)
    if q.dtype.itemsize == 2:
        out, lse = _flash_attention_reduced(q, k, v, is_causal, attn_mask, scale)
    elif (exact := _flash_attention.forward(q, k, v, is_causal, None if attn_mask is None else attn_mask._data,
                                            scale)) is not None:
        return exact   # (float32: the kernel's bits, laid out as its results)
    else:
        p, lse = _attention_probs(q, k, attn_mask, is_causal, scale)
        out = np.matmul(p, _repeat_heads(v, q.shape[-3])).astype(q.dtype, copy=False)
    # laid out in memory as the query is (PyTorch's empty_like(query)): MHA's permute + reshape is then a view
    order = sorted(range(q.ndim), key=lambda d: -q.strides[d])
    # (PyTorch's (B, L, H) memory layout; a copy, as ascontiguousarray keeps a size-1 dim's stride)
    lse = np.swapaxes(lse, -1, -2).copy().swapaxes(-1, -2)
    return np.ascontiguousarray(out.transpose(order)).transpose(np.argsort(order)), lse


def _flash_attention_reduced(q, k, v, is_causal, attn_mask, scale):
    """bfloat16/float16 flash attention as PyTorch's CPU kernel: scores and e^(s - max) in float32, the
    unnormalised e^(...) rounded to q's dtype for the product with v (accumulated in float32), the division
    by Σ e^(...) last, then one rounding."""
    f32 = np.float32
    s = np.matmul(q.astype(f32), np.swapaxes(_repeat_heads(k, q.shape[-3]), -1, -2).astype(f32)) * f32(
        _attention_scale(q, scale))
    if attn_mask is not None:
        s = s + attn_mask._data.astype(f32)
    if is_causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    top = s.max(-1, keepdims=True)
    top = np.where(np.isfinite(top), top, f32(0))
    e = np.exp(s - top)
    total = e.sum(-1, keepdims=True)
    out = np.matmul(e.astype(q.dtype).astype(f32), _repeat_heads(v, q.shape[-3]).astype(f32))
    out = (out / np.where(total == 0, f32(1), total)).astype(q.dtype)
    return out, (top + np.log(total))[..., 0]   # (the log-sum-exp stays float32, as PyTorch's)


def _flash_attention_backward_forward(grad_out, q, k, v, out, logsumexp, dropout_p, is_causal, attn_mask, scale):
    """dQ, dK, dV of out = P·v with P = softmax(S), S = scale·q·kᵀ + mask (P recomputed, as the kernel does):
    dV = Pᵀ·g,  dS = P ⊙ (g·vᵀ - rowsum(g ⊙ out)),  dQ = scale·dS·k,  dK = scale·dSᵀ·q,
    with dK, dV summed over the query heads that share a key/value head (grouped-query attention)."""
    heads, kv_heads = q.shape[-3], k.shape[-3]
    if q.dtype.itemsize == 2:
        dq, dk, dv = _flash_attention_reduced_backward(grad_out, q, k, v, out, logsumexp, is_causal, attn_mask, scale)
        return tuple(_heads_inner(x) for x in (dq, _fold_heads(dk, kv_heads), _fold_heads(dv, kv_heads)))
    exact = _flash_attention.backward(grad_out, q, k, v, out, logsumexp._data, is_causal,
                                      None if attn_mask is None else attn_mask._data, scale)
    if exact is not None:   # (float32: the kernel's bits)
        return exact
    p, _ = _attention_probs(q, k, attn_mask, is_causal, scale)
    c = q.dtype.type(_attention_scale(q, scale))
    # g·vᵀ and rowsum(g ⊙ out) summed over E in the same order: where a row of P is one-hot (a causal first
    # row), out = v exactly, so they cancel to an exact 0, as in PyTorch's kernel
    vh = _repeat_heads(v, heads)
    g_v, g_out = np.zeros(p.shape, p.dtype), np.zeros(p.shape[:-1] + (1,), p.dtype)
    for e in range(q.shape[-1]):
        g_v += grad_out[..., :, e, None] * vh[..., None, :, e]
        g_out += grad_out[..., e, None] * out[..., e, None]
    d_scores = p * (g_v - g_out)
    dq = np.matmul(d_scores, _repeat_heads(k, heads)) * c
    dk = np.matmul(np.swapaxes(d_scores, -1, -2), q) * c
    dv = np.matmul(np.swapaxes(p, -1, -2), grad_out)

    def fold(x):  # sum the gradients of the query heads that share one key/value head
        return x.reshape(x.shape[:-3] + (kv_heads, heads // kv_heads) + x.shape[-2:]).sum(-3)
    return tuple(_heads_inner(x.astype(q.dtype, copy=False)) for x in (dq, fold(dk), fold(dv)))


def _heads_inner(x):
    """``x`` (B, H, L, E) laid out as (B, L, H, E) in memory: PyTorch's kernel fills zeros of the transposed
    shape, then transposes its gradients back."""
    return np.ascontiguousarray(np.swapaxes(x, -3, -2)).swapaxes(-3, -2)


def _fold_heads(x, kv_heads: int):
    """The gradients of the query heads that share one key/value head, summed (grouped-query attention)."""
    heads = x.shape[-3]
    return x.reshape(x.shape[:-3] + (kv_heads, heads // kv_heads) + x.shape[-2:]).sum(-3).astype(x.dtype)


def _flash_attention_reduced_backward(g, q, k, v, out, logsumexp, is_causal, attn_mask, scale):
    """bfloat16/float16 gradients as PyTorch's CPU kernel: P = e^(s - logsumexp) in float32, the products'
    left operands (P, dS) rounded to the input dtype, every product accumulated in float32, one last rounding."""
    f32, dtype, heads = np.float32, q.dtype, q.shape[-3]
    q32, k32, v32 = q.astype(f32), _repeat_heads(k, heads).astype(f32), _repeat_heads(v, heads).astype(f32)
    g32, c = g.astype(f32), f32(_attention_scale(q, scale))
    s = np.matmul(q32, np.swapaxes(k32, -1, -2)) * c
    if attn_mask is not None:
        s = s + attn_mask._data.astype(f32)
    if is_causal:
        s = np.where(np.tril(np.ones(s.shape[-2:], bool)), s, -np.inf)
    p = np.exp(s - logsumexp._data.astype(f32)[..., None])
    dv = np.matmul(np.swapaxes(p.astype(dtype).astype(f32), -1, -2), g32)
    d_scores = p * (np.matmul(g32, np.swapaxes(v32, -1, -2)) - (g32 * out.astype(f32)).sum(-1, keepdims=True))
    d_scores = d_scores.astype(dtype).astype(f32)
    dq = np.matmul(d_scores, k32) * c
    dk = np.matmul(np.swapaxes(d_scores, -1, -2), q32) * c
    return dq.astype(dtype), dk.astype(dtype), dv.astype(dtype)


def _flash_attention_backward(grad, query, key, value, output, logsumexp, dropout_p, is_causal, attn_mask, scale):
    """The three gradients from one call (PyTorch's _scaled_dot_product_flash_attention_for_cpu_backward)."""
    return NOT_IMPLEMENTED["sdpa_flash_cpu_backward"](
        grad, query, key, value, output, logsumexp=logsumexp, dropout_p=dropout_p, is_causal=is_causal,
        attn_mask=attn_mask, scale=scale)


# PyTorch records this one node when its CPU flash kernel runs (4-D inputs, no dropout, mask not requiring
# grad ...: see nn/functional.py::_use_flash_attention); logsumexp is a second, non-differentiable output.
sdpa_flash_cpu = Op(
    "_scaled_dot_product_flash_attention_for_cpu", "ScaledDotProductFlashAttentionForCpuBackward0",
    _flash_attention_forward, inputs=("query", "key", "value"),
    args=("dropout_p", "is_causal", "attn_mask", "scale"), outputs=("output", "logsumexp"), differentiable_outputs=1,
    query=joint(_flash_attention_backward), key=joint(_flash_attention_backward),
    value=joint(_flash_attention_backward))
# Its backward has no derivative in PyTorch: under create_graph the gradients come out of a NotImplemented node.
NOT_IMPLEMENTED["sdpa_flash_cpu_backward"] = Op(
    "_scaled_dot_product_flash_attention_for_cpu_backward", "NotImplemented", _flash_attention_backward_forward,
    inputs=("grad_out", "query", "key", "value", "out"),
    args=("logsumexp", "dropout_p", "is_causal", "attn_mask", "scale"),
    outputs=("grad_query", "grad_key", "grad_value"),
    **dict.fromkeys(("grad_out", "query", "key", "value", "out"),
                    _not_implemented("_scaled_dot_product_flash_attention_for_cpu_backward")))
NOT_IMPLEMENTED["sdpa_flash_cpu_backward"].node_class.name = lambda node: "torch::autograd::NotImplemented"


# =============================================================================================
# Fourier transforms (torch.fft's three primitives; the front-ends and their argument rules are in fft.py)
# =============================================================================================
# ``normalization`` is PyTorch's fft_norm_mode: 0 no scaling, 1 by 1/√n, 2 by 1/n (n: the signal's size over
# ``dim``), whatever the direction. NumPy names the same choices by direction: for e^(-2πi·jk/n) ("forward")
# and for e^(+2πi·jk/n) ("inverse") transforms, index = normalization:
_FORWARD_NORM = ("backward", "ortho", "forward")
_INVERSE_NORM = ("forward", "ortho", "backward")


_MKL_FFT_REFUSED = {"float16": "Half", "bfloat16": "BFloat16"}


def _refuse_empty(a) -> None:
    """PyTorch's CPU FFT (oneMKL) plans single or double precision only (half precision is refused while the
    plan is made), and cannot plan a transform of an empty batch; its errors, as PyTorch raises them."""
    if a.dtype.char not in "fdFD":
        name = _MKL_FFT_REFUSED.get(a.dtype.name, a.dtype.name)
        raise RuntimeError(f"MKL FFT doesn't support tensors of type: {name}")
    if a.size == 0:
        raise RuntimeError("MKL FFT error: Intel oneMKL DFTI ERROR: Inconsistent configuration parameters")


def _fft_c2c(a, dim, normalization, forward):
    if not dim:  # (fftn(x, dim=()) and fftn of a 0-dim tensor: nothing to transform)
        return a.copy()
    _refuse_empty(a)
    if _dfti.available:  # MKL's DFTI, as PyTorch's CPU build: its bits (NumPy's pocketfft rounds otherwise)
        return _dfti.c2c(a, dim, normalization, forward)
    if forward:
        return np.fft.fftn(a, axes=dim, norm=_FORWARD_NORM[normalization])
    return np.fft.ifftn(a, axes=dim, norm=_INVERSE_NORM[normalization])


def _fft_r2c(a, dim, normalization, onesided):
    """The real transform over ``dim``; the last of them keeps n//2 + 1 bins when ``onesided``."""
    _refuse_empty(a)
    if _dfti.available:
        return _dfti.r2c(a, dim, normalization, onesided)
    half = np.fft.rfftn(a, axes=dim, norm=_FORWARD_NORM[normalization])
    if onesided:
        return half
    # The other bins by conjugate symmetry, as PyTorch fills them: X[k] = conj(X[-k mod n]) in every dim.
    last, n = dim[-1], a.shape[dim[-1]]
    tail = np.take(half, np.arange(n - half.shape[last], 0, -1), axis=last)
    for d in dim[:-1]:
        tail = np.roll(np.flip(tail, d), 1, d)
    return np.concatenate([half, np.conj(tail)], axis=last)


def _fft_c2r(a, dim, normalization, last_dim_size):
    """The inverse of a one-sided spectrum: a real signal of ``last_dim_size`` along the last dim of ``dim``."""
    _refuse_empty(a)
    if _dfti.available:
        return _dfti.c2r(a, dim, normalization, last_dim_size)
    sizes = [a.shape[d] for d in dim[:-1]] + [last_dim_size]
    return np.fft.irfftn(a, s=sizes, axes=dim, norm=_INVERSE_NORM[normalization])


def fft_r2c_backward(grad, dim, normalization, onesided, self):
    """r2c is the complex transform of x with the upper half of the last dim dropped: its adjoint zero-pads
    that half back, runs the transform of the other direction (same scaling) and keeps the real part."""
    last, n = dim[-1], self.shape[dim[-1]]
    if onesided and n > grad.shape[last]:
        full = _ops().zeros(*grad.shape[:last], n, *grad.shape[last + 1:], dtype=grad.dtype)
        full.narrow(last, 0, grad.shape[last]).copy_(grad)   # (PyTorch's new_zeros + slice().copy_())
        grad = full
    return fft_c2c(grad, dim=dim, normalization=normalization, forward=False).real


def fft_c2r_backward(grad, dim, normalization):
    """c2r reads bins 1 .. n - (n//2 + 1) twice (each also stands for its mirror image): its adjoint is the
    one-sided r2c transform of grad with those bins doubled."""
    grad_input = fft_r2c(grad, dim=dim, normalization=normalization, onesided=True)
    doubled = grad.shape[dim[-1]] - grad_input.shape[dim[-1]]
    if doubled > 0:
        view = grad_input.narrow(dim[-1], 1, doubled)
        mul_scalar(view, other=2, out=view)                    # (PyTorch's narrow().mul_(2): MulBackward1)
    return grad_input


fft_c2c = Op("_fft_c2c", "FftC2CBackward0", _fft_c2c, args=("dim", "normalization", "forward"), jvp="linear",
             # a unitary map up to scaling: its adjoint is the transform the other way, same scaling
             self=lambda grad, dim, normalization, forward:
                 fft_c2c(grad, dim=dim, normalization=normalization, forward=not forward))
fft_r2c = Op("_fft_r2c", "FftR2CBackward0", _fft_r2c, args=("dim", "normalization", "onesided"), jvp="linear",
             self=fft_r2c_backward)
fft_c2r = Op("_fft_c2r", "FftC2RBackward0", _fft_c2r, args=("dim", "normalization", "last_dim_size"),
             jvp="linear",
             self=lambda grad, dim, normalization: fft_c2r_backward(grad, dim, normalization))
# ihfftn's conjugate (a copy, where ``conj`` is PyTorch's lazy view): d conj(z) is the gradient conjugated
conj_physical = Op("conj_physical", "ConjPhysicalBackward0", np.conj, jvp="linear",
                   self=lambda grad: conj_physical(grad))


# =============================================================================================
# Linear algebra, second wave: matrix exponential, eig, LU, Cholesky solves, triangular_solve,
# Householder products. PyTorch's FunctionsManual.cpp formulas written with tensor ops; the NumPy
# kernels are in ``_linalg_kernels.py``, the argument checks and errors in ``linalg.py``.
# =============================================================================================

def _matrix_exp_differential(A, E, adjoint: bool):
    """d exp(A)·E = the top-right block of exp([[A, E], [0, A]]) (Mathias); adjoint=True: the same with Aᴴ."""
    A = _mH(A) if adjoint else A
    n = A.shape[-1]
    if _wrapped_by_live_level(A, E):   # (PyTorch's composite-compliant form for torch.func: the blocks joined)
        ops = _ops()
        meta = ops.cat([ops.cat([A, E], -1), ops.cat([_creation().zeros_like(A), A], -1)], -2)
        return linalg_matrix_exp(meta).narrow(-2, 0, n).narrow(-1, n, n)
    # (the block matrix is written into zeros through views, as PyTorch does: CopySlices under create_graph)
    meta = _ops().zeros(tuple(A.shape[:-2]) + (2 * n, 2 * n), dtype=E.dtype)
    meta.narrow(-2, 0, n).narrow(-1, 0, n).copy_(A)
    meta.narrow(-2, n, n).narrow(-1, n, n).copy_(A)
    meta.narrow(-2, 0, n).narrow(-1, n, n).copy_(E)
    return linalg_matrix_exp(meta).narrow(-2, 0, n).narrow(-1, n, n)


def _matrix_exp(a):
    """exp(A) as PyTorch's kernel: a 1 x 1 matrix's is exp's forward (MKL's float32 exp, which NumPy's does not
    always round alike), every other one _linalg_kernels.matrix_exp's Taylor / Padé steps."""
    return exp.forward(a) if a.shape[-1] == 1 else _linalg_kernels.matrix_exp(a)


linalg_matrix_exp = Op("linalg_matrix_exp", "LinalgMatrixExpBackward0", _matrix_exp,
                       jvp=lambda self_t, self: _matrix_exp_differential(self, self_t, adjoint=False),
                       # gA = the adjoint of the differential at A, applied to G
                       self=lambda grad, self: _matrix_exp_differential(self, grad, adjoint=True))


def _eig_forward(a, vectors=True):
    if _lapack.supports(a):  # (MKL's geev, as PyTorch; vectors=False: eigvals without a gradient, jobvr='N')
        return _lapack.geev(a, vectors)
    # (always complex, as PyTorch: NumPy gives real arrays when every eigenvalue is real)
    w, v = np.linalg.eig(a)
    complex_type = np.result_type(a.dtype, np.complex64)
    return w.astype(complex_type, copy=False), v.astype(complex_type, copy=False)


def linalg_eig_backward(grads, eigenvalues, eigenvectors):
    """A = V diag(L) V⁻¹:  gA = V⁻ᴴ (diag(gL) + (Vᴴ gV - Vᴴ V Re diag(Vᴴ gV)) / conj(L_j - L_i)) Vᴴ."""
    gL, gV = grads
    L, V = eigenvalues, eigenvectors
    if gL is None and gV is None:
        return None
    # (each Vᴴ is its own view, as in PyTorch's formula: the double-backward graph is PyTorch's)
    if gV is None:                                                      # eigvals: V⁻ᴴ diag(gL) Vᴴ
        # (the right operand made first: C++ evaluates linalg_solve(V.mH(), gL * V.mH())'s operands right to left)
        right = gL.unsqueeze(-1) * _mH(V)
        return _solve(_mH(V), right)
    VhgV = _mH(V).matmul(gV)
    diag = VhgV.diagonal(0, -2, -1)
    _check_phase_invariant(diag.imag, "linalg_eig_backward: The eigenvectors in the complex case are specified up "
                                      "to multiplication by e^{i phi}. The specified loss function depends on this "
                                      "quantity, so it is ill-defined.")
    # project onto the tangent space of the unit-norm eigenvectors
    # (C++ evaluates operands right to left: V * Re diag(Vᴴ gV) is made before its Vᴴ)
    scaled = V * diag.real.unsqueeze(-2)
    VhgV = VhgV - _mH(V).matmul(scaled)
    E = _gaps(L.conj())   # conj(L_j - L_i), 1 on the diagonal
    # (in place, as PyTorch's VhgV.div_(Econj): under create_graph the DivBackward0 saves a clone of VhgV)
    gA = VhgV.div_(E)
    if gL is not None:
        gA.diagonal(0, -2, -1).copy_(gL)
    right = gA.matmul(_mH(V))   # (made first, as C++ evaluates linalg_solve(V.mH(), gA V.mH())'s operands)
    return _solve(_mH(V), right)


def _eig_jvp(dA, L, V):
    """dL = diag(V⁻¹ dA V);  dV = V (V⁻¹ dA V / (L_j - L_i), 0 on the diagonal), kept unit-norm (PyTorch's)."""
    dP = _solve(V, dA.to(V.dtype).matmul(V))
    dV = dP / (L.unsqueeze(-2) - L.unsqueeze(-1))
    dV.diagonal(0, -2, -1).zero_()
    dV = V.matmul(dV)
    return dP.diagonal(0, -2, -1), dV - V * _mH(V).matmul(dV).diagonal(0, -2, -1).real.unsqueeze(-2)


# (a real A gets the real part of the complex gradient: the engine casts it back, PyTorch's handle_r_to_c)
linalg_eig = Op("linalg_eig", "LinalgEigBackward0", _eig_forward, outputs=("eigenvalues", "eigenvectors"),
                undefined_grads=True, jvp=lambda self_t, eigenvalues, eigenvectors: _eig_jvp(self_t, eigenvalues,
                                                                                            eigenvectors),
                self=lambda grads, eigenvalues, eigenvectors: linalg_eig_backward(grads, eigenvalues, eigenvectors))


# ---- LU: A = PLU (L unit lower triangular, U upper triangular) --------------------------------------------

def _solve_tri(A, B, upper: bool, left: bool = True, unitriangular: bool = False):
    return linalg_solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular)


def linalg_lu_backward(gL, gU, P, L, U, pivot: bool):
    """A = PLU:  gA = P L⁻ᴴ (tril₋₁(Lᴴ gL) + triu(gU Uᴴ)) U⁻ᴴ for square A; the blocks of it otherwise."""
    if gL is None and gU is None:
        return None
    m, n = L.shape[-2], U.shape[-1]
    k = min(m, n)
    if m == n:
        gA = None if gL is None else _mH(L).matmul(gL).tril(-1)
        if gU is not None:
            gA = gU.matmul(_mH(U)).triu() if gA is None else gA + gU.matmul(_mH(U)).triu()
        gA = _solve_tri(_mH(U), gA, upper=False, left=False)
        gA = _solve_tri(_mH(L), gA, upper=True, unitriangular=True)
    elif m < n:  # wide: U = [U1 U2], U1 square
        gA = None if gL is None else _mH(L).matmul(gL)
        if gU is not None:
            gA = -gU.triu().matmul(_mH(U)) if gA is None else gA - gU.triu().matmul(_mH(U))
        gA = gA.tril(-1)   # (the solve's right-hand side before U1.mH(): C++ makes a call's arguments right to left)
        gA = _solve_tri(_mH(U.narrow(-1, 0, k)), gA, upper=False, left=False)
        if gU is not None:
            gA = _ops().cat([gA + gU.narrow(-1, 0, k).triu(), gU.narrow(-1, k, n - k)], -1)
        gA = _solve_tri(_mH(L), gA, upper=True, unitriangular=True)
        if gU is None:
            gA = _ops().cat([gA, _ops().zeros_like(U.narrow(-1, k, n - k))], -1)
    else:  # tall: L = [L1; L2], L1 square
        gA = None if gU is None else gU.matmul(_mH(U))
        if gL is not None:
            gA = -_mH(L).matmul(gL.tril(-1)) if gA is None else gA - _mH(L).matmul(gL.tril(-1))
        gA = gA.triu()   # (the solve's right-hand side before L1.mH(), as above)
        gA = _solve_tri(_mH(L.narrow(-2, 0, k)), gA, upper=True, unitriangular=True)
        if gL is not None:
            gA = _ops().cat([gA + gL.narrow(-2, 0, k).tril(-1), gL.narrow(-2, k, m - k)], -2)
        gA = _solve_tri(_mH(U), gA, upper=False, left=False)
        if gL is None:
            gA = _ops().cat([gA, _ops().zeros_like(L.narrow(-2, k, m - k))], -2)
    return P.matmul(gA) if pivot else gA


def lu_unpack_backward(grads, m: int, n: int):
    """(L, U) = unpack(LU): gLU = tril₋₁(gL) + triu(gU), on the blocks each one covers."""
    gL, gU = grads
    if gL is None and gU is None:
        return None
    k = min(m, n)
    if gL is not None and gU is not None:
        if m == n:
            upper = gU.triu()   # (C++ makes the right operand of L_grad.tril(-1) + U_grad.triu() first)
            return gL.tril(-1) + upper
        top = gL.narrow(-2, 0, k).tril(-1) + gU.narrow(-1, 0, k).triu()
        return _ops().cat([top, gL.narrow(-2, k, m - k) if m > n else gU.narrow(-1, k, n - k)], -2 if m > n else -1)
    if gL is not None:
        if m >= n:
            return gL.tril(-1)
        return _ops().cat([gL.tril(-1), _ops().zeros(tuple(gL.shape[:-1]) + (n - m,), dtype=gL.dtype)], -1)
    if n >= m:
        return gU.triu()
    return _ops().cat([gU.triu(), _ops().zeros(tuple(gU.shape[:-2]) + (m - n, n), dtype=gU.dtype)], -2)


def _reorder_plu(P, L, U):
    return L, U, P


def _lu_unpack_jvp(dLU):
    """L and U are the strict lower / upper triangles of the packed LU (the first min(m, n) columns / rows)."""
    m, n = dLU.shape[-2], dLU.shape[-1]
    dL = dLU.tril(-1) if m >= n else dLU[..., :m].tril(-1)
    dU = dLU.triu() if n >= m else dLU[..., :n, :].triu()
    return dL, dU


# outputs in the order (L, U, P): only the first two are differentiable (the caller returns P, L, U)
lu_unpack = Op("lu_unpack", "LuUnpackBackward0",
               lambda LU_data, LU_pivots, LU_data_sym_argsize_minus_2, LU_data_sym_argsize_minus_1:
                   _reorder_plu(*_linalg_kernels.lu_unpack(LU_data, LU_pivots)),
               inputs=("LU_data", "LU_pivots"), args=("LU_data_sym_argsize_minus_2", "LU_data_sym_argsize_minus_1"),
               outputs=("L", "U", "P"), differentiable_outputs=2, undefined_grads=True,
               jvp=lambda LU_data_t: _lu_unpack_jvp(LU_data_t),
               LU_data=lambda grads, LU_data_sym_argsize_minus_2, LU_data_sym_argsize_minus_1:
                   lu_unpack_backward(grads, LU_data_sym_argsize_minus_2, LU_data_sym_argsize_minus_1))


def _unpack(LU, pivots):
    """(P, L, U) through the differentiable lu_unpack."""
    L, U, P = lu_unpack(LU, pivots, LU_data_sym_argsize_minus_2=LU.shape[-2], LU_data_sym_argsize_minus_1=LU.shape[-1])
    return P, L, U


def lu_factor_ex_backward(grad, LU, pivots, pivot: bool):
    """The packed LU's gradient is the (L, U) one: gL = the part below the diagonal, gU the rest."""
    P, L, U = _unpack(LU, pivots)
    k = min(LU.shape[-2], LU.shape[-1])
    return linalg_lu_backward(grad.narrow(-1, 0, k), grad.narrow(-2, 0, k), P, L, U, pivot)


def _lu_jvp(dA, P, L, U):
    """A = PLU:  dL₁ = L₁ tril₋₁(K),  dU₁ = triu(K) U₁  with  K = L₁⁻¹ (PᵀdA)₁ U₁⁻¹ on the leading k x k blocks;
    wide A: dU₂ = L₁⁻¹ (PᵀdA)₂ - tril₋₁(K) U₂;  tall A: dL₂ = (PᵀdA)₂ U₁⁻¹ - L₂ triu(K)  (PyTorch's linalg_lu_jvp)."""
    m, n = dA.shape[-2], dA.shape[-1]
    k = min(m, n)
    PdA = P.mT.matmul(dA)
    L1, U1 = L[..., :k, :k], U[..., :k, :k]
    K = _solve_tri(L1, PdA[..., :k, :k], upper=False, unitriangular=True)
    K = _solve_tri(U1, K, upper=True, left=False)
    dL1, dU1 = L1.matmul(K.tril(-1)), K.triu().matmul(U1)
    if m < n:
        dU2 = _solve_tri(L1, PdA[..., k:], upper=False, unitriangular=True) - K.tril(-1).matmul(U[..., k:])
        return dL1, _ops().cat([dU1, dU2], -1)
    if m > n:
        dL2 = _solve_tri(U1, PdA[..., k:, :], upper=True, left=False) - L[..., k:, :].matmul(K.triu())
        return _ops().cat([dL1, dL2], -2), dU1
    return dL1, dU1


def _lu_factor_ex_jvp(dA, LU, pivots):
    """The packed tangent: dL's strict lower part plus dU (their shapes differ when A is not square)."""
    P, L, U = _unpack(LU, pivots)
    dL, dU = _lu_jvp(dA, P, L, U)
    m, n = dA.shape[-2], dA.shape[-1]
    if m >= n:
        return _ops().cat([dL[..., :n, :] + dU, dL[..., n:, :]], -2)
    return _ops().cat([dU[..., :m] + dL, dU[..., m:]], -1)


linalg_lu_factor_ex = Op("linalg_lu_factor_ex", "LinalgLuFactorExBackward0",
                         lambda a, pivot: _linalg_kernels.lu_factor(a), inputs=("A",), args=("pivot",),
                         outputs=("LU", "pivots", "info"), differentiable_outputs=1,
                         jvp=lambda A_t, LU, pivots: _lu_factor_ex_jvp(A_t, LU, pivots),
                         A=lambda grad, LU, pivots, pivot: lu_factor_ex_backward(grad, LU, pivots, pivot))


def _lu_forward(a, pivot):
    lu, piv, _ = _linalg_kernels.lu_factor(a)
    return _reorder_plu(*_linalg_kernels.lu_unpack(lu, piv))


# outputs in the order (L, U, P), as lu_unpack
linalg_lu = Op("linalg_lu", "LinalgLuBackward0", _lu_forward, inputs=("A",), args=("pivot",),
               outputs=("L", "U", "P"), differentiable_outputs=2, undefined_grads=True,
               jvp=lambda A_t, P, L, U: _lu_jvp(A_t, P, L, U),
               A=lambda grads, P, L, U, pivot: linalg_lu_backward(grads[0], grads[1], P, L, U, pivot))


def linalg_lu_solve_LU(gX, LU, pivots, X, left: bool, adjoint: bool):
    """X = op(A)⁻¹B with A = PLU: gR = U⁻ᴴ(-gX Xᴴ), gLU = tril₋₁(L⁻ᴴ gR Uᴴ) + triu(gR) (PyTorch's cases)."""
    P, L, U = _unpack(LU, pivots)
    # (each solve's right-hand side made before its matrix's mH(): C++ evaluates a call's arguments right to left)
    if left != adjoint:
        rhs = -(gX if left else _mH(gX)).matmul(_mH(X) if left else X)
        gR = _solve_tri(_mH(U), rhs, upper=False)
        rhs = gR.matmul(_mH(U))
        gL = _solve_tri(_mH(L), rhs, upper=True, unitriangular=True).tril(-1)
        return gL + gR.triu()
    gR = -P.mT.matmul(X if left else _mH(X)).matmul(_mH(gX) if left else gX).matmul(P)
    gR = _solve_tri(_mH(L), gR, upper=True, left=False, unitriangular=True)
    rhs = _mH(L).matmul(gR)
    gU = _solve_tri(_mH(U), rhs, upper=False, left=False).triu()
    return gR.tril(-1) + gU


def _lu_solve_jvp(dLU, dB, LU, pivots, X, left: bool, adjoint: bool):
    """op(A) X = B (or X op(A) = B), A = PLU:  dX = op(A)⁻¹(dB - op(dA) X)  (or (dB - X op(dA)) op(A)⁻¹),
    dA = P(dL U + L dU) from the packed tangent (dL its strict lower part, dU the rest)."""
    P, L, U = _unpack(LU, pivots)
    dA = P.matmul(dLU.tril(-1).matmul(U) + L.matmul(dLU.triu()))
    dA = _mH(dA) if adjoint else dA
    rhs = dB - (dA.matmul(X) if left else X.matmul(dA))
    return linalg_lu_solve(LU, pivots, rhs, left=left, adjoint=adjoint)


linalg_lu_solve = Op("linalg_lu_solve", "LinalgLuSolveBackward0", _linalg_kernels.lu_solve,
                     inputs=("LU", "pivots", "B"), args=("left", "adjoint"),
                     jvp=lambda LU_t, B_t, LU, pivots, result, left, adjoint:
                         _lu_solve_jvp(LU_t, B_t, LU, pivots, result, left, adjoint),
                     LU=lambda grad, LU, pivots, result, left, adjoint:
                         linalg_lu_solve_LU(grad, LU, pivots, result, left, adjoint),
                     # gB = op(A)⁻ᴴ gX: the same solve with the adjoint
                     B=lambda grad, LU, pivots, left, adjoint:
                         linalg_lu_solve(LU, pivots, grad, left=left, adjoint=not adjoint))


# ---- Cholesky solves and the deprecated triangular_solve ------------------------------------------------

def _cholesky_solve_forward(b, factor, upper):
    if _lapack.supports(b, factor) and b.dtype == factor.dtype:  # (MKL's potrs, as PyTorch)
        return _lapack.potrs(b, factor, upper)
    # A = LLᴴ (or UᴴU): X = L⁻ᴴ L⁻¹ B, two triangular solves as LAPACK's potrs
    L = np.conj(np.swapaxes(factor, -1, -2)) if upper else factor
    with np.errstate(divide="ignore", invalid="ignore"):
        y = _linalg_kernels._triangular_solve(L, b, lower=True, unit=False)
        return _linalg_kernels._triangular_solve(np.conj(np.swapaxes(L, -1, -2)), y, lower=False, unit=False)


def cholesky_solve_backward(grad, self, input2, result, upper, grad_input_mask):
    """X = A⁻¹B, A = LLᴴ:  gB = A⁻¹ gX;  gL = -(gB Xᴴ + X gBᴴ) L  (upper: -U (gB Xᴴ + X gBᴴ))."""
    grad_self = cholesky_solve(grad, input2, upper=upper)
    common = grad_self.matmul(_mH(result))
    common = common + _mH(common)
    return grad_self, (-input2.matmul(common) if upper else -common.matmul(input2))


def _cholesky_product_tangent(L, dL, upper):
    """dA for A = LLᴴ (UᴴU): dL Lᴴ + L dLᴴ (dUᴴ U + Uᴴ dU)."""
    term = _mH(L).matmul(dL) if upper else dL.matmul(_mH(L))
    return term + _mH(term)


cholesky_solve = Op("cholesky_solve", "CholeskySolveBackward0", _cholesky_solve_forward, inputs=("self", "input2"),
                    args=("upper",),
                    # X = A⁻¹B: dX = A⁻¹(dB - dA X)
                    jvp=lambda self_t, input2_t, input2, result, upper: cholesky_solve(
                        self_t - _cholesky_product_tangent(input2, input2_t, upper).matmul(result), input2,
                        upper=upper),
                    self=joint(cholesky_solve_backward), input2=joint(cholesky_solve_backward))


def _cholesky_inverse_forward(factor, upper):
    if _lapack.supports(factor):  # (MKL's potri, as PyTorch)
        return _lapack.potri(factor, upper)
    # A⁻¹ = L⁻ᴴ L⁻¹ (A = LLᴴ), or U⁻¹ U⁻ᴴ (A = UᴴU)
    eye = np.broadcast_to(np.eye(factor.shape[-1], dtype=factor.dtype), factor.shape)
    return _cholesky_solve_forward(eye, factor, upper)


cholesky_inverse = Op("cholesky_inverse", "CholeskyInverseBackward0", _cholesky_inverse_forward, args=("upper",),
                      # d A⁻¹ = -A⁻¹ dA A⁻¹
                      jvp=lambda self_t, self, result, upper:
                          -result.matmul(_cholesky_product_tangent(self, self_t, upper)).matmul(result),
                      # d A⁻¹ = -A⁻¹ dA A⁻¹, dA = dL Lᴴ + L dLᴴ  ⇒  gL = -A⁻¹ (G + Gᴴ) A⁻¹ L
                      self=lambda grad, self, upper, result:
                          (-self.matmul(result.matmul((grad + _mH(grad)).matmul(result))) if upper
                           else -result.matmul((grad + _mH(grad)).matmul(result)).matmul(self)))


def _triangular_solve_forward(b, a, upper, transpose, unitriangular):
    if _lapack.supports(a, b) and a.dtype == b.dtype:  # (MKL's trsm, as PyTorch)
        return _lapack.triangular_solve(b, a, upper, transpose, unitriangular)
    t = np.triu(a) if upper else np.tril(a)
    if transpose:
        t, upper = np.swapaxes(t, -1, -2), not upper
    with np.errstate(divide="ignore", invalid="ignore"):
        x = _linalg_kernels._triangular_solve(t, b, lower=not upper, unit=unitriangular)
    batch = x.shape[:-2]
    return x, np.array(np.broadcast_to(a, batch + a.shape[-2:]))


def _triangular_solve_jvp(dB, dA, A, X, upper, transpose, unitriangular):
    """X = op(A)⁻¹B: dX = op(A)⁻¹(dB - op(dA) X), dA on A's triangle (without the diagonal if unit)."""
    part = dA.triu(int(unitriangular)) if upper else dA.tril(-int(unitriangular))
    rhs = dB - (part.mT if transpose else part).matmul(X)
    # (the cloned coefficient is A: its tangent is dA, none if A has none)
    return (triangular_solve(rhs, A, upper=upper, transpose=transpose, unitriangular=unitriangular)[0],
            None if A._fw_grad is None else dA)


def triangular_solve_backward(grads, self, A, solution, upper, transpose, unitriangular, grad_input_mask):
    """X = op(A)⁻¹B (A triangular):  gB = op(A)⁻ᴴ gX;  gA = -gB Xᴴ (transpose: -conj(X) gBᵀ) on A's triangle."""
    grad_x, grad_m = grads
    grad_b = grad_a = None
    if grad_x is not None:
        grad_b = triangular_solve(grad_x, A.conj(), upper=upper, transpose=not transpose,
                                  unitriangular=unitriangular)[0]
        if grad_input_mask[1]:
            grad_a = -solution.conj().matmul(grad_b.mT) if transpose else -grad_b.matmul(_mH(solution))
            grad_a = grad_a.triu(int(unitriangular)) if upper else grad_a.tril(-int(unitriangular))
    if grad_m is not None and grad_input_mask[1]:  # the cloned coefficient is A itself
        grad_a = grad_m if grad_a is None else grad_a.add(grad_m)
    return grad_b, grad_a


triangular_solve = Op("triangular_solve", "TriangularSolveBackward0", _triangular_solve_forward,
                      inputs=("self", "A"), args=("upper", "transpose", "unitriangular"),
                      outputs=("solution", "cloned_coefficient"), undefined_grads=True,
                      jvp=lambda self_t, A_t, A, solution, upper, transpose, unitriangular:
                          _triangular_solve_jvp(self_t, A_t, A, solution, upper, transpose, unitriangular),
                      self=joint(triangular_solve_backward), A=joint(triangular_solve_backward))


# ---- Householder reflectors: Q = H_1 ⋯ H_k, H_i = I - τ_i v_i v_iᴴ -------------------------------------------

def _reflect(m, k, u_full, v_full, t, K, in_place, with_identity=True, left=True):
    """PyTorch's apply_simple_transformation: (I - t u vᴴ) K, or -t u vᴴ K without the identity (left); K (I - t u vᴴ)
    or -K t u vᴴ (right). u, v: (..., m, 1) columns, t: (..., 1). In place (a first-order backward: nothing to
    differentiate later) only rows/columns k: change, as u and v are zero above row k."""
    if left:
        if in_place:
            v = u_full.narrow(-2, k, m - k)
            u = _mH(v_full.narrow(-2, k, m - k)).matmul(K.narrow(-2, k, m - k))
            K.narrow(-2, k, m - k).sub_((t.unsqueeze(-1) * v) * u)
            return K
        right = _mH(v_full).matmul(K)   # (C++ makes an operator's right operand first)
        transformation = (t.unsqueeze(-1) * u_full) * right
    else:
        if in_place:
            v = u_full.narrow(-2, k, m - k)
            u = K.narrow(-1, k, m - k).matmul(t.unsqueeze(-1) * v_full.narrow(-2, k, m - k))
            K.narrow(-1, k, m - k).sub_(u * _mH(v))
            return K
        right = _mH(v_full)
        transformation = K.matmul(t.unsqueeze(-1) * u_full) * right
    return K - transformation if with_identity else -transformation


def householder_product_backward(grad, result, input_, tau, flip_order=False):
    """Gradients of Q = H_1 ⋯ H_k (first columns), H_i = I - τ_i v_i v_iᴴ, for the reflectors and τ, as PyTorch's
    householder_product_backward computes them (same ops, same order, so the same bits and graph).

    With K_i = H_{i+1}⋯H_k Q Gᴴ H_1⋯H_{i-1} (made one step at a time: K_{i+1} = H_{i+1}⁻¹ K_i H_i, where
    H(τ)⁻¹ = H(σ), σ = τ / (τ‖v‖² - 1)):  gv_i = (-τ_i v_iᴴ K_i)ᴴ - τ_i K_i v_i,  gτ_i = conj(-v_iᴴ K_i v_i).
    flip_order walks the reflectors from the last one with the sides swapped (ormqr applying Q from the right).
    """
    if input_.numel() == 0 or tau.numel() == 0:
        return None, None   # (no reflectors, or no matrices: PyTorch's early return leaves both gradients undefined)
    m, k = input_.shape[-2], tau.shape[-1]
    # the forward reads the strictly lower triangle, with ones on the diagonal
    input = input_.tril(-1)
    input.diagonal(0, -2, -1).fill_(1.0)
    first = input.narrow(-1, 0, k)
    sigma = tau / sub_scalar(tau * (first * first.conj()).sum(-2), other=1.0)   # (C++ ... - 1.0: SubBackward1)
    K = result.matmul(_mH(grad))
    in_place = not _STATE.enabled   # (PyTorch's !GradMode::is_enabled(): K is rewritten in place)

    def update_grad(i, v_full, t, K):
        v = v_full.narrow(-2, i, m - i)
        vHK = _mH(v).matmul(K.narrow(-2, i, m - i))
        Kv = K.narrow(-1, i, m - i).matmul(v)
        t = t.unsqueeze(-1)
        right = (t * Kv).squeeze(-1)   # (the right operand first, as C++ evaluates it)
        v_grad = (-t * vHK).conj().squeeze(-2) - right
        tau_grad = (-(vHK.narrow(-1, i, m - i).matmul(v)).conj()).squeeze(-1)   # (make_tuple's last argument first)
        return v_grad.unsqueeze(-1), tau_grad

    def flip(i):
        return k - i - 1 if flip_order else i

    apply_left = not flip_order
    at = flip(0)   # K <- H_0⁻¹ K (C++'s call: its arguments made right to left, v narrowed once)
    s_0 = sigma.narrow(-1, at, 1)
    v_0 = input.narrow(-1, at, 1)
    K = _reflect(m, at, v_0, v_0, s_0, K, in_place, left=apply_left)
    input_grad, tau_grad = _ops().zeros_like(input_), _ops().zeros_like(tau)
    for step in range(k):
        i = flip(step)
        v_i, t_i = input.narrow(-1, i, 1), tau.narrow(-1, i, 1)
        v_i_grad, tau_i_grad = update_grad(i, v_i, t_i, K)
        input_grad.select(-1, i).copy_(v_i_grad.squeeze(-1))
        tau_grad.select(-1, i).copy_(tau_i_grad.squeeze(-1))
        if i != flip(k - 1):   # K <- H_{i+1}⁻¹ K H_i
            n = i - 1 if flip_order else i + 1
            v_n = input.narrow(-1, n, 1)
            K = _reflect(m, n, v_n, v_n, sigma.narrow(-1, n, 1), K, in_place, left=apply_left)
            K = _reflect(m, i, v_i, v_i, t_i, K, in_place, left=not apply_left)
    input_grad.tril_(-1)   # (the forward reads only the strictly lower triangle)
    return input_grad, tau_grad


def _householder_jvp(input, tau, input_t, tau_t, ncols: int):
    """dQ = Σ_i H_1⋯H_{i-1} dH_i H_{i+1}⋯H_k E,  dH_i = -dτ_i v_i v_iᴴ - τ_i (dv_i v_iᴴ + v_i dv_iᴴ)."""
    m, k = input.shape[-2], tau.shape[-1]
    eye = _eye(m, input)
    rows = np.arange(m)
    below = [Tensor._make((rows > i).astype(input._data.dtype)) for i in range(k)]
    vs = [input.select(-1, i) * below[i] + Tensor._make((rows == i).astype(input._data.dtype)) for i in range(k)]
    dvs = [input_t.select(-1, i) * below[i] for i in range(k)]
    outer = [v.unsqueeze(-1) * v.conj().unsqueeze(-2) for v in vs]
    Hs = [eye - tau.select(-1, i).unsqueeze(-1).unsqueeze(-1) * outer[i] for i in range(k)]
    right, acc = [None] * k, eye.narrow(-1, 0, ncols)
    for i in range(k - 1, -1, -1):
        right[i], acc = acc, Hs[i].matmul(acc)
    left, dQ = eye, None
    for i, (v, dv) in enumerate(zip(vs, dvs)):
        t, dt = tau.select(-1, i).unsqueeze(-1).unsqueeze(-1), tau_t.select(-1, i).unsqueeze(-1).unsqueeze(-1)
        dv_vh = dv.unsqueeze(-1) * v.conj().unsqueeze(-2)
        dH = -dt * outer[i] - t * (dv_vh + v.unsqueeze(-1) * dv.conj().unsqueeze(-2))
        term = left.matmul(dH).matmul(right[i])
        dQ = term if dQ is None else dQ + term
        left = left.matmul(Hs[i])
    return dQ if dQ is not None else _ops().zeros_like(acc)


def _householder_product_backward(grad, input, tau, result, grad_input_mask):
    return householder_product_backward(grad, result, input, tau)


linalg_householder_product = Op(
    "linalg_householder_product", "LinalgHouseholderProductBackward0", _linalg_kernels.householder_product,
    inputs=("input", "tau"),
    jvp=lambda input_t, tau_t, input, tau, result: _householder_jvp(input, tau, input_t, tau_t, result.shape[-1]),
    input=joint(_householder_product_backward), tau=joint(_householder_product_backward))


def _geqrf_backward(grads):
    raise NotImplementedError("the derivative for 'geqrf' is not implemented.")


# PyTorch records the node but has no formula: backward raises (kept out of the table sweep, as the other
# NOT_IMPLEMENTED entries: there is no gradient to check)
NOT_IMPLEMENTED["geqrf"] = Op("geqrf", "GeqrfBackward0", _linalg_kernels.geqrf, outputs=("a", "tau"),
                              undefined_grads=True, self=lambda grads: _geqrf_backward(grads))


def ormqr_backward(grad, self, input2, input3, result, left, transpose, grad_input_mask):
    """out = op(Q)·C (or C·op(Q)):  gC = op(Q)ᴴ applied to G;  the reflectors' gradients as PyTorch's
    ormqr_backward: householder_product_backward on (G, out), which sees H_i's sensitivity as Q's."""
    g_other = ormqr(self, input2, grad, left=left, transpose=not transpose) if grad_input_mask[2] else None
    if not (grad_input_mask[0] or grad_input_mask[1]):
        return None, None, g_other
    if left != transpose:   # out = H_1⋯H_k C: householder_product_backward with (G, out) as (grad, result)
        self_grad, tau_grad = householder_product_backward(grad if not transpose else _mH(grad),
                                                           result if not transpose else _mH(result), self, input2)
    else:   # out = C H_1⋯H_k: the roles of G and out swapped, the reflectors walked from the last
        self_grad, tau_grad = householder_product_backward(_mH(result) if not transpose else result,
                                                           _mH(grad) if not transpose else grad, self, input2,
                                                           flip_order=True)
    return self_grad, tau_grad, g_other


ormqr = Op("ormqr", "OrmqrBackward0",
           lambda a, tau, c, left, transpose: _linalg_kernels.apply_reflectors(a, tau, c, left, transpose),
           inputs=("self", "input2", "input3"), args=("left", "transpose"),
           self=joint(ormqr_backward), input2=joint(ormqr_backward), input3=joint(ormqr_backward))


# LDLᴴ (Bunch-Kaufman): PyTorch records nodes without derivatives (NotImplemented), as here
NOT_IMPLEMENTED["linalg_ldl_factor_ex"] = Op(
    "linalg_ldl_factor_ex", "NotImplemented", _linalg_kernels.ldl_factor, args=("hermitian",),
    outputs=("LD", "pivots", "info"), differentiable_outputs=1, self=_not_implemented("linalg_ldl_factor_ex"))
NOT_IMPLEMENTED["linalg_ldl_solve"] = Op(
    "linalg_ldl_solve", "NotImplemented", _linalg_kernels.ldl_solve, inputs=("LD", "pivots", "B"),
    args=("hermitian",), LD=_not_implemented("linalg_ldl_solve"), B=_not_implemented("linalg_ldl_solve"))
for _name in ("linalg_ldl_factor_ex", "linalg_ldl_solve"):
    NOT_IMPLEMENTED[_name].node_class.name = lambda node: "torch::autograd::NotImplemented"


# ---- missing-nn pass 4: channel_shuffle, pdist, max_unpool2d ----------------------------------------------

def _channel_shuffle(a: np.ndarray, groups: int) -> np.ndarray:
    """(N, g·k, *) → (N, k·g, *): channel c = i·k + j moves to j·g + i (a contiguous copy)."""
    n, c = a.shape[:2]
    blocks = a.reshape(n, groups, c // groups, *a.shape[2:])
    return blocks.swapaxes(1, 2).copy().reshape(a.shape)  # (a copy even when the permutation is the identity)


# A permutation of the channels: its gradient is the inverse permutation, which is a shuffle with C / groups groups.
channel_shuffle = Op("channel_shuffle", "ChannelShuffleBackward0", _channel_shuffle, args=("groups",), jvp="linear",
                     self=lambda grad, groups: channel_shuffle(grad, groups=grad.shape[1] // groups))


def _pdist_forward(x, p):
    """‖x[i] - x[j]‖_p for every pair i < j of rows, in row-major order of the pairs (PyTorch's kernel's sums)."""
    return _pdist_cpu.pdist(np.ascontiguousarray(x), p)


def _pdist_backward_forward(grad, x, pdist, p):
    """PyTorch's _pdist_backward: the pair (i, j)'s gradient goes to row i and (negated) to row j, added in the
    kernel's order."""
    return _pdist_cpu.pdist_backward(np.ascontiguousarray(grad), np.ascontiguousarray(x), pdist, p)


def _pdist_backward_not_implemented(grad):
    raise NotImplementedError("the derivative for '_pdist_backward' is not implemented.")


# As cdist: the gradient is an op of its own, which PyTorch cannot differentiate (double backward raises).
pdist_backward = Op("_pdist_backward", "PdistBackwardBackward0", _pdist_backward_forward,
                    inputs=("grad", "self", "pdist"), args=("p",), grad=_pdist_backward_not_implemented,
                    self=_pdist_backward_not_implemented, pdist=_pdist_backward_not_implemented)
pdist = Op("_pdist_forward", "PdistBackward0", _pdist_forward, args=("p",),
           self=lambda grad, self, p, result: pdist_backward(grad.contiguous(), self, result, p=p))


def _max_unpool2d(x, indices, output_size):
    """Each value written at its index of the zeroed (N, C, H_out·W_out) planes (the later one wins on a tie)."""
    lead = x.shape[:-2]
    out = np.zeros((int(np.prod(lead)), output_size[0] * output_size[1]), dtype=x.dtype)
    flat = indices.reshape(out.shape[0], -1)
    np.put_along_axis(out, flat, x.reshape(flat.shape), axis=1)
    out = out.reshape(*lead, *output_size)
    channels_last = _strides._layout.channels_last
    if x.ndim == 4 and _strides.suggested_memory_format(x) is channels_last:
        out = _strides.clone(out, channels_last)   # (PyTorch's output takes a 4-D input's memory format)
    return out


# y[index[k]] = x[k], zero elsewhere: x's gradient reads grad back at each index (max pooling's double backward).
max_unpool2d = Op("max_unpool2d", "MaxUnpool2DBackward0", _max_unpool2d, inputs=("self", "indices"),
                  args=("output_size",),
                  jvp=lambda self_t, indices, output_size: max_unpool2d(self_t, indices, output_size=output_size),
                  self=lambda grad, indices: max_pool_double_backward(grad, indices))


# ---- group normalization: y = (x - μ)/√(σ² + eps)·w + b, statistics per (sample, group of C/G channels) ----

def _group_norm_forward(x, weight, bias, N, C, HxW, group, eps):
    w, b = (None if is_absent(weight) else weight), (None if is_absent(bias) else bias)
    if x.dtype.char in "fd" and x.size:   # PyTorch's kernel, bit for bit (_group_norm_cpu.py)
        return _group_norm_cpu.forward(x, w, b, N, C, group, eps)
    if _float_math._is_reduced(x.dtype) and x.size:   # float16/bfloat16: the float32 kernel, rounded once
        f32 = [None if a is None else a.astype(np.float32) for a in (x, w, b)]
        y, mean, rstd = _group_norm_cpu.forward(*f32, N, C, group, eps)
        # (with a float32 weight or bias, PyTorch's mixed-type kernel keeps the statistics in float32)
        stats = np.float32 if any(a is not None and a.dtype == np.float32 for a in (w, b)) else x.dtype
        return y.astype(x.dtype), mean.astype(stats), rstd.astype(stats)
    rows = x.reshape(N * group, C // group * HxW)
    # (an empty group: PyTorch's mean 0 and variance 0/0, a NaN rstd)
    mean = rows.mean(axis=1) if rows.size else np.zeros(N * group, x.dtype)
    var = ((rows - mean[:, None]) ** 2).mean(axis=1) if rows.size else np.full(N * group, np.nan, x.dtype)
    rstd = 1 / np.sqrt(var + eps)
    y = ((rows - mean[:, None]) * rstd[:, None]).reshape(x.shape)
    affine = (1, C) + (1,) * (x.ndim - 2)
    if w is not None:
        y = y * w.reshape(affine)
    if b is not None:
        y = y + b.reshape(affine)
    return (y.astype(x.dtype, copy=False), mean.reshape(N, group).astype(x.dtype),
            rstd.reshape(N, group).astype(x.dtype))


def _group_norm_backward(grads, input, result1, result2, weight, N, C, HxW, group, eps, grad_input_mask):
    """(d/dx, d/dw, d/db) of group norm: PyTorch's infinitely_differentiable_native_group_norm_backward, op for op
    in its order (an operator's right operand first, its in-place unsqueeze_ and reciprocal_). With sums over each
    (sample, group) of M = (C/G)·HxW values, s = 1/M, ds = Σ g·x, db = Σ g (and their w-weighted sums b, c):
      d/dx = rstd·w·g + b·x + c,   b = (c·μ - b)·rstd³·s,   c = -b·μ - c·rstd·s   (+ var_mean_backward of the
      statistics' own gradients: d var = -rstd³/2 · g_rstd),   d/dw = Σₙ (ds - db·μ)·rstd,   d/db = Σₙ db
    (μ and rstd are differentiable outputs too, as in PyTorch). ``eps``: saved as PyTorch's node saves it."""
    grad, grad_mean, grad_rstd = grads
    w = _given(weight)
    dt = input._data.dtype
    if (not _STATE.enabled and grad is not None and grad_mean is None and grad_rstd is None and input.numel()
            and (dt.char in "fd" or _float_math._is_reduced(dt)) and grad._data.dtype == dt
            and (w is not None or not (grad_input_mask[1] or grad_input_mask[2]))
            and _strides.suggested_memory_format(input._data) is _strides._layout.contiguous_format
            and not (_meta.METAS and _meta.is_meta(input))):   # (meta: the ops below, which compute no values)
        # (PyTorch without create_graph: its native_group_norm_backward kernel, bit for bit, on contiguous copies;
        # float16/bfloat16 in float32, rounded once, as its kernel: the ops below would overflow rstd³ there)
        arrays = [None if t is None else t._data for t in (grad, input, result1, result2, w)]
        if dt.char not in "fd":
            arrays = [None if a is None else a.astype(np.float32) for a in arrays]
        dx, dw, db = _group_norm_cpu.backward(*arrays, N, C, group, grad_input_mask)
        return tuple(None if r is None else Tensor._make(r.astype(t._data.dtype, copy=False))
                     for r, t in zip((dx, dw, db), (input, w, w)))
    G, D = group, C // group
    s = 1.0 / (D * HxW) if D * HxW else math.inf   # (C++'s 1.0 / 0: inf)
    X = input.reshape(N, G, D, HxW)
    mean = result1.reshape(N, G, 1, 1)
    rstd = result2.reshape(N, G, 1, 1)
    dY = ds = db = None
    if grad is not None:
        dY = grad.reshape(N, G, D, HxW)
        ds = (dY * X).sum(3).unsqueeze_(-1)
        db = dY.sum(3).unsqueeze_(-1)
    grad_input = grad_weight = grad_bias = None
    if grad_input_mask[0]:
        gamma = None if w is None else w.reshape(1, G, D, 1)
        sub_scalar((rstd * rstd).reciprocal_(), other=eps).clamp_min(0)   # (C++'s unused var: its nodes only)
        rstd_cube = rstd * rstd * rstd
        dvar = None
        if grad_rstd is not None:
            grad_rstd_view = grad_rstd.view(N, G, 1, 1)   # (the right operand first)
            dvar = mul_scalar(rstd_cube, other=-0.5) * grad_rstd_view
        if dY is not None:
            a = rstd if gamma is None else rstd * gamma
            b = (ds.sum(2) if gamma is None else (ds * gamma).sum(2)).unsqueeze_(-2)
            c = (db.sum(2) if gamma is None else (db * gamma).sum(2)).unsqueeze_(-2)
            b = mul_scalar((c * mean - b) * rstd_cube, other=s)
            right = mul_scalar(c * rstd, other=s)
            c = b.neg() * mean - right
            right = b * X
            grad_input = a * dY + right + c
            if grad_mean is not None and grad_rstd is not None:
                grad_input = grad_input.add_(_group_norm_var_mean_backward(dvar, grad_mean.view(N, G, 1, 1), X))
            grad_input = grad_input.reshape_as(input)
        elif grad_mean is not None and grad_rstd is not None:
            grad_input = _group_norm_var_mean_backward(dvar, grad_mean.view(N, G, 1, 1), X).reshape_as(input)
    if grad_input_mask[1] and dY is not None:
        grad_weight = ((ds - db * mean) * rstd).sum(0).reshape_as(w)
    if grad_input_mask[2] and dY is not None:
        if w is None:   # (PyTorch 2.13 fails on a bias without a weight: its kernel, or the reshape to weight's [0])
            if not _STATE.enabled:
                raise RuntimeError("tensor does not have a device")
            if C:
                raise RuntimeError(f"shape '[0]' is invalid for input of size {C}")
            grad_bias = db.sum(0).reshape(0)
        else:
            grad_bias = db.sum(0).reshape_as(w)
    if not _STATE.enabled and grad_input is not None and \
            _strides.suggested_memory_format(input._data) is not _strides._layout.contiguous_format:
        # (PyTorch's kernel writes into empty_like(X, X.suggest_memory_format()): channels_last(_3d) here. Its
        # channels-last kernel's last bits are not modelled: the composite's values, in that layout)
        grad_input = _numpy_result(lambda r, x: _in_suggested_format(x, _strides.contiguous(r)), grad_input._data,
                                   input._data)
    return grad_input, grad_weight, grad_bias


def _group_norm_var_mean_backward(gvar, gmean, X):
    """PyTorch's var_mean_backward(gvar, gmean, X, {2, 3}, correction 0, keepdim): var's gradient plus mean's."""
    gself = var_backward(gvar, X, (2, 3), 0, True)
    return gself + div_scalar(gmean.expand(tuple(X.shape)), other=X.shape[2] * X.shape[3])


def _group_norm_jvp(input_t, weight_t, bias_t, input, weight, bias, N, group, result1, result2):
    """PyTorch's group_norm_jvp, group_norm_mean_jvp and group_norm_invstd_jvp: the input seen as a batch norm's of
    shape (1, N·group, rest), whose saved statistics are result1/result2 (shaped (N, group)):
        dy = _norm_jvp(...)·w + x̂·dw + db,   dμ = mean(dx),   d rstd = -rstd³·Σ (x - mean(x))·(dx - μ) / n.
    (PyTorch's d rstd passes the primal and the tangent to _invstd_jvp swapped: equal to -rstd³·Σ(x - μ)·dx/n up to
    rounding, since Σ(x - mean(x)) = 0; computed as it does.)"""
    rows = (1, N * group, -1 if N else 1)
    x, dx = input.reshape(rows), input_t.reshape(rows)
    stat = (1, N * group, 1)
    mean, invstd = result1.reshape(stat), result2.reshape(stat)
    n = x.shape[2]
    out = _norm_jvp(x, dx, mean, invstd, (0, 2), x.shape[0] * n).reshape(input.shape)
    affine = (1, input.shape[1]) + (1,) * (input.dim() - 2)
    w = _given(weight)
    # (x̂ from views of its own of the statistics, as PyTorch's: backward through the tangent then sums their
    # gradients in its order)
    out = _affine_jvp(lambda: ((x - result1.reshape(stat)) * result2.reshape(stat)).reshape(input.shape), out,
                      None if w is None else w.reshape(affine), _param_tangent(weight, weight_t, affine),
                      _param_tangent(bias, bias_t, affine, zero_adds=True))
    mean_t = dx.mean(2).reshape(result1.shape)
    invstd_t = _invstd_jvp(dx, x, mean, invstd, (2,), n, False).reshape(result2.shape)
    return out, mean_t, invstd_t


native_group_norm = Op("native_group_norm", "NativeGroupNormBackward0",
                       _strides.channels_last_like(_group_norm_forward, five_d=True),
                       inputs=("input", "weight", "bias"), args=("N", "C", "HxW", "group", "eps"),
                       outputs=("result0", "result1", "result2"), undefined_grads=True, jvp=_group_norm_jvp,
                       input=joint(_group_norm_backward), weight=joint(_group_norm_backward),
                       bias=joint(_group_norm_backward))
_shows_none_when_absent(native_group_norm, "weight")


# ---- 3-d max pooling and adaptive max pooling (missing-nn pass 4; kernels in _pool3d.py): each window's gradient
# goes to its maximum, result1 holding where that was (a flat index into the input volume).

def _pool3d():
    """The ``_pool3d`` kernels (imported on first use: only these rows need them)."""
    from . import _pool3d
    return _pool3d


def _max_pool3d_forward(x, kernel_size, stride, padding, dilation, ceil_mode):
    kernel = _expand_arg(kernel_size, 3)
    return _pool3d().max_pool(x, kernel, _expand_arg(stride, 3) if len(stride) else kernel, _expand_arg(padding, 3),
                              _expand_arg(dilation, 3), ceil_mode)


max_pool3d_with_indices = Op(
    "max_pool3d_with_indices", "MaxPool3DWithIndicesBackward0",
    _strides.channels_last_like(_max_pool3d_forward, five_d=True),   # (channels_last_3d in, channels_last_3d out)
    args=("kernel_size", "stride", "padding", "dilation", "ceil_mode"),
    outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1, 3),
    self=lambda grad, self, kernel_size, stride, padding, dilation, ceil_mode, result1:
        max_pool3d_with_indices_backward(grad, self, indices=result1))
max_pool3d_with_indices_backward = Op(
    "max_pool3d_with_indices_backward", "MaxPool3DWithIndicesBackwardBackward0",
    lambda g, x, indices: _strides.channels_last_like(   # (the gradient in the input's memory format)
        lambda x, g: _pool3d().max_pool_backward(g, x.shape, indices._data, 3), five_d=True)(x, g),
    inputs=("grad_output", "self"), args=("indices",),
    jvp="linear",  # linear in grad_output; self only gives the shape
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices, 3),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))   # piecewise constant in x
adaptive_max_pool3d = Op(
    "adaptive_max_pool3d", "AdaptiveMaxPool3DBackward0",
    lambda x, output_size: _pool3d().adaptive_max_pool(x, output_size), args=("output_size",),
    outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1, 3),
    self=lambda grad, self, result1: adaptive_max_pool3d_backward(grad, self, indices=result1))
fractional_max_pool2d = Op(
    "fractional_max_pool2d", "FractionalMaxPool2DBackward0",
    lambda x, kernel_size, output_size, random_samples:
        _pool3d().fractional_max_pool2d(x, kernel_size, output_size, random_samples._data),
    args=("kernel_size", "output_size", "random_samples"), outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1, 2),
    # each window's gradient goes to the element that was its maximum
    self=lambda grad, self, kernel_size, output_size, result1: fractional_max_pool2d_backward(
        grad, self, kernel_size=kernel_size, output_size=output_size, indices=result1))
fractional_max_pool2d_backward = Op(
    "fractional_max_pool2d_backward", "FractionalMaxPool2DBackwardBackward0",
    lambda g, x, kernel_size, output_size, indices: _pool3d().max_pool_backward(g, x.shape, indices._data, 2),
    inputs=("grad_output", "self"), args=("kernel_size", "output_size", "indices"),
    jvp="linear",
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices, 2),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))
adaptive_avg_pool3d = Op(
    "_adaptive_avg_pool3d", "AdaptiveAvgPool3DBackward0",
    lambda x, output_size: _pool3d().adaptive_avg_pool(x, output_size), args=("output_size",),
    jvp="linear",
    # y = mean of each window  ⇒  dx = each output's gradient spread evenly over its window
    self=lambda grad, self: adaptive_avg_pool3d_backward(
        grad, self, grad_output_sym_argsize_minus_3=grad.shape[-3], grad_output_sym_argsize_minus_2=grad.shape[-2],
        grad_output_sym_argsize_minus_1=grad.shape[-1]))
adaptive_avg_pool3d_backward = Op(
    "_adaptive_avg_pool3d_backward", "AdaptiveAvgPool3DBackwardBackward0",
    lambda g, x, grad_output_sym_argsize_minus_3, grad_output_sym_argsize_minus_2, grad_output_sym_argsize_minus_1:
        _pool3d().adaptive_avg_pool_backward(_adaptive_grad(g, "adaptive_avg_pool3d_backward"), x.shape),
    inputs=("grad_output", "self"),
    args=("grad_output_sym_argsize_minus_3", "grad_output_sym_argsize_minus_2", "grad_output_sym_argsize_minus_1"),
    jvp="linear",
    grad_output=lambda grad, grad_output_sym_argsize_minus_3, grad_output_sym_argsize_minus_2,
    grad_output_sym_argsize_minus_1:   # linear in g: its gradient is the pooling itself
        adaptive_avg_pool3d(grad, output_size=(grad_output_sym_argsize_minus_3, grad_output_sym_argsize_minus_2,
                                               grad_output_sym_argsize_minus_1)),
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))
adaptive_max_pool3d_backward = Op(
    "adaptive_max_pool3d_backward", "AdaptiveMaxPool3DBackwardBackward0",
    lambda g, x, indices: _pool3d().max_pool_backward(_adaptive_grad(g, "adaptive_max_pool3d_backward"), x.shape,
                                                      indices._data, 3),
    inputs=("grad_output", "self"), args=("indices",),
    jvp="linear",
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices, 3),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))


def _avg_pool3d_sizes(kernel_size, stride, padding) -> tuple:
    """kernel, stride (the kernel when not given) and padding of avg_pool3d as three numbers each."""
    kernel = _expand_arg(kernel_size, 3)
    return kernel, _expand_arg(stride, 3) if len(stride) else kernel, _expand_arg(padding, 3)


# ---- put: the flattened self with source written (or added, accumulate) at the flat positions index ----

def _put(a, index, source, accumulate):
    out = a.copy()
    flat = out.reshape(-1)   # (a view of the fresh copy)
    if accumulate:
        np.add.at(flat, index.reshape(-1), source.reshape(-1))
    else:
        flat[index.reshape(-1)] = source.reshape(-1)
    # (PyTorch's put is clone(preserve_format).put_: a transposed input's result stays transposed)
    return out if _strides.preserve_strides(a) is None else _strides.copy_into(_strides.empty_like(a), out)


def _put_jvp(self_t, index, source_t, accumulate):
    """put's forward formula, ``self_t.put(index, source_t, accumulate)``: through the front-end, whose dtype check
    refuses a float64 tangent of float32 values (a Python number lifted under torch.func.jvp: nested 13192)."""
    from . import _ops_fills
    return _ops_fills.put(self_t, index, source_t, accumulate)


put = Op("put", "PutBackward0", _put, inputs=("self", "index", "source"), args=("accumulate",), jvp=_put_jvp,
         # the overwritten positions get no gradient (unless the values were added there)
         # (zeros as many as the indices: source itself is saved only when it requires grad, as in PyTorch)
         self=lambda grad, index, accumulate: grad if accumulate else put(
             grad, index, Tensor._make(np.zeros(index.shape, grad.dtype.np)), accumulate=False),
         # each source value reads the gradient at its position
         source=lambda grad, index, source: take(grad, index).reshape(source.shape))


# ---- affine_grid_generator (F.affine_grid; missing-nn pass 4): grid = base · θᵀ, base holding each output
# position's normalized coordinates (x, y[, z], 1), so the gradient of θ is (baseᵀ · grad)ᵀ (PyTorch's own ops).

def _affine_base_grid(dtype, size, align_corners: bool):
    """The (N, *spatial, k+1) grid of (x, y[, z], 1): x along the last dim, each coordinate in [-1, 1]."""
    from . import _dtypes
    from ._creation import linspace

    def coords(steps):
        if steps <= 1:
            return np.zeros(1, dtype)
        values = linspace(-1, 1, steps, dtype=_dtypes.from_numpy(dtype))._data
        return values if align_corners else values * dtype.type(steps - 1) / dtype.type(steps)

    spatial = tuple(size[2:])
    k = len(spatial)
    base = np.empty((size[0], *spatial, k + 1), dtype)
    for axis in range(k):   # coordinate 0 (x) varies along the last spatial dim, 1 (y) along the one before ...
        shape = [1] * k
        shape[k - 1 - axis] = spatial[k - 1 - axis]
        base[..., axis] = coords(spatial[k - 1 - axis]).reshape(shape)
    base[..., k] = 1
    return base


def _affine_grid_forward(theta, size, align_corners):
    base = _affine_base_grid(theta.dtype, size, align_corners)
    n, k = size[0], len(size) - 2
    a, b = np.ascontiguousarray(base.reshape(n, -1, k + 1)), theta.transpose(0, 2, 1)
    if theta.dtype == np.float64 and a.shape[1] * (k + 1) * k < 400:   # PyTorch's small-bmm loop: a running sum
        out = np.add.accumulate(a[:, :, :, None] * b[:, None], axis=2)[:, :, -1]
    else:
        out = _matmul.bmm(a, b)
    return np.ascontiguousarray(out.reshape(*base.shape[:-1], k))


def _affine_grid_backward(grad, size, align_corners):
    """dθ = (baseᵀ · grad)ᵀ per sample (PyTorch's affine_grid_generator_backward: bmm, transpose)."""
    n, k = size[0], len(size) - 2
    base = Tensor._make(_affine_base_grid(grad.dtype.np, size, align_corners))
    return base.view(n, -1, k + 1).transpose(1, 2).bmm(grad.reshape(n, -1, k)).transpose(1, 2)


affine_grid_generator = Op("affine_grid_generator", "AffineGridGeneratorBackward0", _affine_grid_forward,
                           inputs=("theta",), args=("size", "align_corners"), jvp="linear",  # (grid = base·θᵀ)
                           theta=lambda grad, size, align_corners: _affine_grid_backward(grad, size, align_corners))


# =============================================================================================
# Missing-nn pass 5: embedding_bag (kernels in _embedding_bag.py)
# =============================================================================================

def _embedding_bag_kernels():
    """The ``_embedding_bag`` kernels (imported on first use: only these rows need them)."""
    from . import _embedding_bag
    return _embedding_bag


def _embedding_bag_forward(weight, indices, offsets, per_sample_weights, scale_grad_by_freq, mode, sparse,
                           include_last_offset, padding_idx):
    return _embedding_bag_kernels().forward(weight, indices, offsets, per_sample_weights, mode,
                                            include_last_offset, padding_idx)


def _embedding_bag_weight_grad(grad, per_sample_weights, indices, offsets, result1, result2, result3,
                               weight_sym_argsize_0, scale_grad_by_freq, mode, sparse, padding_idx):
    """d out[b] / d weight[i] = scale · [i in bag b], scale = 1, 1/|b| (mean) or the entry's weight;
    max mode: the gradient goes to each column's maximum (PyTorch's _embedding_bag_backward)."""
    if sparse:
        return _embedding_bag_sparse_grad(grad, per_sample_weights, indices, offsets, result1, result2,
                                          weight_sym_argsize_0, scale_grad_by_freq, mode, padding_idx)
    return embedding_bag_backward(grad, _or_absent(per_sample_weights, grad), indices=indices._data,
                                  offsets=offsets._data, offset2bag=result1._data, bag_size=result2._data,
                                  maximum_indices=result3._data,
                                  num_weights=weight_sym_argsize_0, scale_grad_by_freq=scale_grad_by_freq,
                                  mode=mode, padding_idx=padding_idx)


def _embedding_bag_sparse_grad(grad, per_sample_weights, indices, offsets, offset2bag, bag_size, num_weights,
                               scale_grad_by_freq, mode, padding_idx):
    """EmbeddingBag(sparse=True)'s weight gradient (PyTorch's _embedding_bag_sparse_backward): each entry's bag
    gradient, divided by the bag's size (mean) or times the entry's weight, as a sparse embedding gradient."""
    kernels = _embedding_bag_kernels()
    idx, bags = indices._data.reshape(-1), offset2bag._data
    if bags.size == 0 and idx.size:   # (the fast sum path leaves offset2bag out)
        bags = kernels.offset2bag(idx, offsets._data, False)
    rows = grad._data[bags]
    if mode == kernels.MEAN:
        rows = rows * (1 / bag_size._data.astype(rows.dtype))[:, None][bags]
    if _given(per_sample_weights) is not None:
        rows = rows * per_sample_weights._data[:, None]
    return _sparse_embedding_grad(Tensor._make(rows), Tensor._make(idx), num_weights, padding_idx, scale_grad_by_freq)


def _embedding_bag_backward_not_implemented(grad):
    raise NotImplementedError("the derivative for '_embedding_bag_backward' is not implemented.")


# The weight's gradient is an op of its own, which PyTorch cannot differentiate (double backward raises).
embedding_bag_backward = Op(
    "_embedding_bag_backward", "EmbeddingBagBackwardBackward0",
    lambda grad, psw, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights, scale_grad_by_freq,
    mode, padding_idx: _embedding_bag_kernels().dense_backward(
        grad, indices, offsets, offset2bag, bag_size, maximum_indices, num_weights, scale_grad_by_freq, mode,
        psw, padding_idx),
    inputs=("grad", "per_sample_weights"),
    args=("indices", "offsets", "offset2bag", "bag_size", "maximum_indices", "num_weights", "scale_grad_by_freq",
          "mode", "padding_idx"),
    grad=_embedding_bag_backward_not_implemented, per_sample_weights=_embedding_bag_backward_not_implemented)
# d out[b] / d psw[k] = weight[indices[k]] for the bag b of entry k: a dot product per entry (no derivative in PyTorch)
embedding_bag_psw_backward = Op(
    "_embedding_bag_per_sample_weights_backward", "NotImplemented",
    lambda grad, weight, indices, offsets, offset2bag, padding_idx:
        _embedding_bag_kernels().per_sample_weights_backward(grad, weight, indices, offsets, offset2bag, padding_idx),
    inputs=("grad", "weight"), args=("indices", "offsets", "offset2bag", "padding_idx"),
    grad=_not_implemented("_embedding_bag_per_sample_weights_backward"),
    weight=_not_implemented("_embedding_bag_per_sample_weights_backward"))
embedding_bag_psw_backward.node_class.name = lambda node: "torch::autograd::NotImplemented"
embedding_bag = Op(
    "_embedding_bag", "EmbeddingBagBackward0", _embedding_bag_forward,
    inputs=("weight", "indices", "offsets", "per_sample_weights"),
    args=("scale_grad_by_freq", "mode", "sparse", "include_last_offset", "padding_idx"),
    outputs=("result0", "result1", "result2", "result3"), differentiable_outputs=1,
    weight=_embedding_bag_weight_grad,
    per_sample_weights=lambda grad, weight, indices, offsets, result1, mode, padding_idx: embedding_bag_psw_backward(
        grad, weight, indices=indices._data, offsets=offsets._data, offset2bag=result1._data, padding_idx=padding_idx))
_shows_none_when_absent(embedding_bag, "per_sample_weights")
# PyTorch's generated code saves outputs and optional tensors (Tensor? per_sample_weights) whatever requires grad
embedding_bag.always_saved |= {"per_sample_weights", "result2", "result3"}
embedding_bag._plan_calls()


# =============================================================================================
# Missing methods pass: in-place comparisons and polygamma_/conj_physical_, xlogy with a number,
# index_reduce, the *_scatter ops, the *_copy forms of the view ops. Front-ends: _ops_inplace_math.py,
# _ops_scatter_copy.py; parity: tests/test_parity_missing_methods.py.
# =============================================================================================

def _zero_gradient(grad):
    """Piecewise constant: no gradient (PyTorch's zeros_like)."""
    return _ops().zeros_like(grad)


# x.eq_(y) ...: x becomes 0 or 1 in its own dtype. The caller computes the values (``_result``); the node
# only records (EqBackward0 for a number y, one edge; EqBackward1 for a tensor y, two edges).
INPLACE_COMPARISONS = {}
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    INPLACE_COMPARISONS[_name, True] = Op(_name + "_", _name.capitalize() + "Backward0",
                                          lambda a, _result: _result, args=("_result",), self=_zero_gradient,
                                          jvp=lambda self: _ops().zeros_like(self))     # (a zero tangent too)
    INPLACE_COMPARISONS[_name, False] = Op(_name + "_", _name.capitalize() + "Backward1",
                                           lambda a, b, _result: _result, inputs=("self", "other"),
                                           args=("_result",), self=_zero_gradient, other=_zero_gradient,
                                           jvp=lambda self: _ops().zeros_like(self))
del _name
# x.floor_divide_(y) / x.heaviside_(y): the caller's values, PyTorch's NotImplemented node
NOT_IMPLEMENTED["heaviside_"] = Op("heaviside_", "NotImplemented", lambda a, b, _result: _result,
                                   inputs=("self", "values"), args=("_result",),
                                   self=_not_implemented("heaviside_"), values=_not_implemented("heaviside_"))
NOT_IMPLEMENTED["heaviside_"].node_class.name = lambda node: "torch::autograd::NotImplemented"
NOT_IMPLEMENTED["floor_divide_"] = Op("floor_divide_", "NotImplemented", lambda a, b, _result: _result,
                                      inputs=("self", "other"), args=("_result",),
                                      self=_not_implemented("floor_divide_"), other=_not_implemented("floor_divide_"))
NOT_IMPLEMENTED["floor_divide_scalar_"] = Op("floor_divide_", "NotImplemented", lambda a, _result: _result,
                                             args=("_result",), self=_not_implemented("floor_divide_"))
for _name in ("floor_divide_", "floor_divide_scalar_"):
    NOT_IMPLEMENTED[_name].node_class.name = lambda node: "torch::autograd::NotImplemented"
# scatter(..., reduce='add'/'multiply'), the legacy reductions: values from _ops._scatter, no derivative
for _name in ("scatter", "scatter_"):
    NOT_IMPLEMENTED[_name + "_reduce"] = Op(_name, "NotImplemented", lambda a, b, _result: _result,
                                            inputs=("self", "src"), args=("_result",),
                                            self=_not_implemented(_name), src=_not_implemented(_name))
    NOT_IMPLEMENTED[_name + "_value_reduce"] = Op(_name, "NotImplemented", lambda a, _result: _result,
                                                  args=("_result",), self=_not_implemented(_name))
    for _key in (_name + "_reduce", _name + "_value_reduce"):
        NOT_IMPLEMENTED[_key].node_class.name = lambda node: "torch::autograd::NotImplemented"
del _key

# x.polygamma_(n): PyTorch's in-place entry has its own node, PolygammaBackward1 (the same derivative)
polygamma_inplace = Op("polygamma_", "PolygammaBackward1", lambda a, n: _polygamma(n, a), args=("n",),
                       jvp="element_wise",
                       self=lambda grad, n, self: grad * polygamma(self, n=n + 1))    # d ψ⁽ⁿ⁾ = ψ⁽ⁿ⁺¹⁾
# x.conj_physical_(): ConjPhysicalBackward1 (for a real x too, where it changes nothing)
conj_physical_inplace = Op("conj_physical_", "ConjPhysicalBackward1",
                           lambda a: a.copy() if a.dtype == np.bool_ else np.conj(a),   # (NumPy's conj of bool: int8)
                           jvp="linear",
                           self=lambda grad: conj_physical(grad))                       # d z̄: conjugated
# xlogy(x, number): XlogyBackward2, the number saved as ``other``; d(x·log c)/dx = log c (0 where x == 0 and c <= 0)
xlogy_scalar = Op("xlogy", "XlogyBackward2",
                  lambda a, other: _xlogy(a, np.asarray(other, a.dtype)).astype(a.dtype, copy=False),
                  args=("other",), jvp="element_wise",
                  # d(x·log c)/dx = log c: PyTorch's xlogy(grad, c), zeroed where x == 0 unless c > 0
                  self=lambda grad, self, other: xlogy_scalar(grad, other=other) if other > 0 else
                  xlogy_scalar(grad, other=other).masked_fill(self == 0, 0.))
# xlogy(number, y): XlogyBackward1, one edge (to y); d(c·log y)/dy = c / y
xlogy_scalar_self = Op("xlogy", "XlogyBackward1",
                       lambda b, self: _xlogy(np.asarray(self, b.dtype), b).astype(b.dtype, copy=False),
                       inputs=("other",), args=("self",), jvp="element_wise",
                       # (grad · c: C++'s Tensor * Scalar, a MulBackward1 under create_graph)
                       other=lambda grad, self, other: mul_scalar(grad, other=self) / other)


_INDEX_REDUCE_UFUNCS = {"prod": np.multiply, "mean": np.add, "amax": np.maximum, "amin": np.minimum}


def _index_reduce_identity(reduce, dtype):
    """What a slice starts from when its own values take no part (include_self=False)."""
    if reduce in ("prod", "mean"):
        return 1 if reduce == "prod" else 0
    if dtype.kind in "fV":   # (V: bfloat16)
        return -np.inf if reduce == "amax" else np.inf
    return np.iinfo(dtype).min if reduce == "amax" else np.iinfo(dtype).max


def _index_reduce(a, index, source, dim, reduce, include_self):
    out = a.copy()
    o = np.moveaxis(out, dim, 0) if out.ndim else out.reshape(1)
    s = np.moveaxis(source, dim, 0) if source.ndim else source.reshape(1)
    idx = index.reshape(-1)
    if not include_self:
        o[idx] = _index_reduce_identity(reduce, a.dtype)
    _INDEX_REDUCE_UFUNCS[reduce].at(o, idx, s)
    if reduce == "mean":
        counts = np.bincount(idx, minlength=o.shape[0]) + (1 if include_self else 0)
        counts = np.maximum(counts, 1).reshape((-1,) + (1,) * (o.ndim - 1))
        o[...] = o // counts if a.dtype.kind in "iu" else o / counts
    return out


def index_reduce_backward(grad, self, dim, index, source, reduce, include_self, result):
    """PyTorch's index_reduce_backward (FunctionsManual.cpp): scatter_reduce's along index slices."""
    ops = _ops()
    if reduce == "prod":           # ∂(Π)/∂x = Π / x, with zeros excluded from the division
        masked_self = self.masked_fill(self == 0, 1)
        masked_self_result = index_reduce(masked_self, index, source, dim=dim, reduce=reduce,
                                          include_self=include_self)
        grad_self = grad * masked_self_result / masked_self
        src_zero = source == 0
        src_num_zeros = ops.zeros_like(self).index_add(dim, index, src_zero.to(self.dtype)).index_select(dim, index)
        src_single_zero = src_zero & (src_num_zeros == 1)
        masked_src = source.masked_fill(src_single_zero, 1)
        masked_src_result = index_reduce(self, index, masked_src, dim=dim, reduce=reduce, include_self=include_self)
        # (GCC evaluates a call's arguments, and a / b's operands, right to left: the nodes' sequence numbers,
        # hence the graph under create_graph, follow that order)
        divisor = source.masked_fill(src_zero, 1)
        otherwise = (grad * result).index_select(dim, index) / divisor
        grad_src = ops.where(src_single_zero, (grad * masked_src_result).index_select(dim, index), otherwise)
        # (PyTorch reads the count whenever grad mode is on, as in every torch.func transform's backward: inside vmap,
        # .item() of a batched value; with a gradient that requires grad, this formula's own one is then wrong)
        if (grad_src.requires_grad or _vmap_batched.TRANSFORM_BACKWARD[0] and _vmap_batched.DEPTH[0]) and \
                (src_num_zeros > 1).any().item() and grad_src.requires_grad:
            from .autograd.function import _with_delayed_error
            grad_src = _with_delayed_error(grad_src, "index_reduce(): Double backward is unsupported for source when "
                                           ">1 zeros in source are scattered to the same position in self", True)
    elif reduce == "mean":         # each term counts 1/N, N the terms reduced there
        n = _ones_like(grad) if include_self else ops.zeros_like(grad)
        n = n.index_add(dim, index, _ones_like(source))
        n = n.masked_fill(n == 0, 1)
        grad_self = grad / n
        grad_src = grad.index_select(dim, index) / n.index_select(dim, index)
    else:                          # amax / amin: shared evenly by the terms equal to the result
        value = result.index_select(dim, index)
        self_is_result = (self == result).to(self.dtype)
        source_is_result = (source == value).to(self.dtype)
        grad_distributed = grad / self_is_result.index_add(dim, index, source_is_result)
        grad_self = self_is_result * grad_distributed
        grad_src = source_is_result * grad_distributed.index_select(dim, index)
    if not include_self:           # self's values where source landed took no part
        grad_self = grad_self.index_fill(dim, index, 0)
    return grad_self, grad_src


index_reduce = Op("index_reduce", "IndexReduceBackward0", _index_reduce, inputs=("self", "index", "source"),
                  args=("dim", "reduce", "include_self"),
                  self=joint(index_reduce_backward), source=joint(index_reduce_backward))


# ---- x with a slice / a select / a diagonal / a strided window replaced by src (a copy, not a view)
def _clone_preserve_strides(a):
    """PyTorch's clone_preserve_strides (the *_scatter ops' copy): a's very strides, gaps included; an input
    whose elements overlap (expanded) is cloned instead (a dense layout)."""
    if a.size == 0 or any(s <= 0 and n > 1 or s % a.itemsize for s, n in zip(a.strides, a.shape)):
        return _strides.copy_into(_strides.empty_like(a), a)
    span = 1
    for n, s in zip(a.shape, a.strides):   # (the memory the strides reach: 1 + Σ (n-1)·stride)
        span += (n - 1) * s // a.itemsize
    out = np.lib.stride_tricks.as_strided(np.empty(span, a.dtype), a.shape, a.strides)
    out[...] = a
    return out


def _with_part(a, part, src):
    out = _clone_preserve_strides(a)
    part(out)[...] = src
    return out


# d/dself: the gradient with the replaced part zeroed; d/dsrc: the gradient's part
select_scatter = Op("select_scatter", "SelectScatterBackward0",
                    lambda a, src, dim, index: _with_part(a, lambda o: o[_at(dim, o.ndim, index)], src),
                    inputs=("self", "src"), args=("dim", "index"), jvp="linear",
                    self=lambda grad, dim, index, _input_meta:
                        select_scatter(grad, _zeros_like_input(grad, _input_meta[1]), dim=dim, index=index),
                    src=lambda grad, dim, index: grad.select(dim, index))
slice_scatter = Op("slice_scatter", "SliceScatterBackward0",
                   lambda a, src, dim, start, end, step:
                       _with_part(a, lambda o: o[_at(dim, o.ndim, _builtin_slice(start, end, step))], src),
                   inputs=("self", "src"), args=("dim", "start", "end", "step"), jvp="linear",
                   self=lambda grad, dim, start, end, step, _input_meta:
                       slice_scatter(grad, _zeros_like_input(grad, _input_meta[1]), dim=dim, start=start,
                                     end=end, step=step),
                   src=lambda grad, dim, start, end, step: slice(grad, dim=dim, start=start, end=end, step=step))
diagonal_scatter = Op("diagonal_scatter", "DiagonalScatterBackward0",
                      lambda a, src, offset, dim1, dim2: _with_part(a, lambda o: _diagonal(o, offset, dim1, dim2), src),
                      inputs=("self", "src"), args=("offset", "dim1", "dim2"), jvp="linear",
                      self=lambda grad, offset, dim1, dim2, _input_sizes:
                          diagonal_scatter(grad, _zeros_on(grad, _input_sizes[1]), offset=offset,
                                           dim1=dim1, dim2=dim2),
                      src=lambda grad, offset, dim1, dim2: grad.diagonal(offset, dim1, dim2))


def _strided_part(out, size, stride, storage_offset):
    """The window ``as_strided(size, stride, storage_offset)`` of the contiguous array ``out``."""
    first = 0 if storage_offset is None else storage_offset
    return np.lib.stride_tricks.as_strided(out.reshape(-1)[first:], tuple(size),
                                           tuple(st * out.itemsize for st in stride))


def as_strided_scatter_backward(grad, size, stride, storage_offset):
    """PyTorch's as_strided_scatter_backward: zeros with the WINDOW of the gradient (not the gradient with the
    window zeroed, which the math would give; kept for parity), written as PyTorch does: the window of grad
    copied into a view of new zeros (under create_graph: AsStridedBackward0 <- CopySlices). The input is
    contiguous (as_strided_scatter refuses others when they require grad), so its geometry is grad's."""
    grad_ = grad.contiguous()
    window = grad_.as_strided(size, stride, storage_offset)
    zeros = grad_.new_zeros(grad_.shape)
    result = zeros.as_strided(zeros.shape, zeros.stride())
    result.as_strided(size, stride, storage_offset).copy_(window)
    return result


as_strided_scatter = Op("as_strided_scatter", "AsStridedScatterBackward0",
                        lambda a, src, size, stride, storage_offset:
                            _with_part(np.ascontiguousarray(a),
                                       lambda o: _strided_part(o, size, stride, storage_offset), src),
                        inputs=("self", "src"), args=("size", "stride", "storage_offset"), jvp="linear",
                        self=lambda grad, size, stride, storage_offset:
                            as_strided_scatter_backward(grad, size, stride, storage_offset),
                        src=lambda grad, size, stride, storage_offset:
                            grad.contiguous().as_strided(size, stride, storage_offset))


# ---- torch.view_copy, torch.t_copy ...: the view op's values in new memory, its formula, node ``<Name>_copy``
def _copy_of(op: Op) -> Op:
    def forward(*arrays, **args):
        out = op.forward(*arrays, **args)
        return [np.array(o, order="C") for o in out] if op.variadic else np.array(out, order="C")
    return Op(op.name + "_copy", op.node_name + "_copy", forward, inputs=op.inputs, args=op.args,
              outputs=op.outputs, variadic=op.variadic, jvp=op.jvp, **op.formula_sources)


COPIES = {op.name if op.name != "squeeze" else op.node_name: _copy_of(op) for op in (
    view, t, permute, expand, select, slice, squeeze, squeeze_dim, squeeze_dims, unsqueeze, transpose, diagonal,
    alias, unbind, split, split_with_sizes, unfold, strided_view, view_as_real)}
# torch.narrow_copy has a node of its own: the slice's gradient put back into zeros
def _narrowed(start, length, size):
    """The slice narrow(dim, start, length) takes (start may count from the end)."""
    start = start + size if start < 0 else start
    return _builtin_slice(start, start + length)


def narrow_copy_backward(grad, self_sym_sizes, dim, start, length):
    """The slice's gradient put back into zeros at [start, start + length), start as given (PyTorch's formula)."""
    d = dim % len(self_sym_sizes)
    taken = len(range(*_builtin_slice(start, start + length).indices(self_sym_sizes[d])))
    if taken != length and length != 1:   # (a negative start: PyTorch's slice is then empty, and its copy_ fails
        # so -- but for one element, which broadcasts into the empty slice: a zero gradient)
        raise RuntimeError(f"The size of tensor a ({taken}) must match the size of tensor b ({length}) at "
                           f"non-singleton dimension {d}")
    return slice_backward(grad, self_sym_sizes, dim, start, start + length, 1)


narrow_copy = Op("narrow_copy", "NarrowCopyBackward0",
                 # (a C-contiguous copy whatever the input's layout: PyTorch's narrow_copy_dense writes into empty())
                 lambda a, dim, start, length: np.array(a[_at(dim, a.ndim, _narrowed(start, length, a.shape[dim]))],
                                                         order="C"),
                 args=("dim", "start", "length"), jvp="linear", self=narrow_copy_backward)
# torch.detach_copy: the values, and PyTorch's NotImplemented node
NOT_IMPLEMENTED["detach_copy"] = Op("detach_copy", "NotImplemented", lambda a: a.copy(),
                                    self=_not_implemented("detach_copy"))
NOT_IMPLEMENTED["detach_copy"].node_class.name = lambda node: "torch::autograd::NotImplemented"


# torch.fill(x, value): a new tensor of x's shape holding value (FillBackward0; a 0-dim tensor value: FillBackward1,
# whose gradient is the sum, since the value went everywhere)
fill_scalar = Op("fill", "FillBackward0", lambda a, value: _like_self(a, np.full_like(
                     a, _element(value, a.dtype) if _dtypes.is_complex32(a.dtype) else value)),
                 args=("value",),
                 jvp=lambda self_t: _ops().zeros_like(self_t),  # (a constant: a zero tangent)
                 self=_zero_gradient)
fill_tensor_value = Op("fill", "FillBackward1",
                       lambda a, value: _like_self(a, np.full_like(a, cast_array(value, a.dtype))),
                       inputs=("self", "value"),
                       # (PyTorch's formula reads self_t too, so self's tangent alone gives a zero one; the
                       # value's tangent in self's dtype, as the value itself)
                       jvp=lambda self_t, value_t, self: value_t.to(self.dtype).expand(self.shape),
                       self=_zero_gradient,
                       value=lambda grad: grad.sum())
# torch.histogram / histogramdd of a tensor that requires grad: the caller's values (hist, then the bin edges),
# each output with PyTorch's NotImplemented node
NOT_IMPLEMENTED["histogram"] = Op("histogram", "NotImplemented", lambda a, _results: list(_results),
                                  args=("_results",), variadic=True, self=_not_implemented("histogram"))
NOT_IMPLEMENTED["histogram"].node_class.name = lambda node: "torch::autograd::NotImplemented"
NOT_IMPLEMENTED["histogram_weight"] = Op("histogram", "NotImplemented", lambda a, w, _results: list(_results),
                                         inputs=("self", "weight"), args=("_results",), variadic=True,
                                         self=_not_implemented("histogram"), weight=_not_implemented("histogram"))
NOT_IMPLEMENTED["histogram_weight"].node_class.name = lambda node: "torch::autograd::NotImplemented"
# torch.native_dropout: output = input·mask·scale (mask: the caller's bool draw); d/dinput = mask·scale, where the
# scale is 1 when ``train`` was not True (PyTorch's formula, which also treats train=None so)
native_dropout = Op("native_dropout", "NativeDropoutBackward0",
                    lambda a, p, _train, _mask, _scale: [a * _mask * a.dtype.type(_scale), _mask],
                    args=("p", "_train", "_mask", "_scale"), outputs=("result0", "result1"), differentiable_outputs=1,
                    jvp="element_wise",
                    input=lambda grad, result1, p, _train:
                        grad * (result1.to(grad.dtype) * (1.0 if not _train else 0.0 if p == 1 else 1.0 / (1.0 - p))),
                    inputs=("input",))
# torch.unsafe_split_with_sizes: split_with_sizes, the pieces copies (not views) as unsafe_split's
unsafe_split_with_sizes = Op("unsafe_split_with_sizes", "UnsafeSplitWithSizesBackward0",
                             lambda a, split_sizes, dim: _unsafe_pieces(a, split_sizes, dim),
                             jvp="linear", args=("split_sizes", "dim"), variadic=True,
                             self=lambda grads, self_sym_sizes, split_sizes, dim:
                                 _ops().cat(grads, dim % len(self_sym_sizes)))


# ---- grid_sampler_2d (F.grid_sample on 4-D inputs; missing-nn pass 5, kernels in _grid_sample.py) ----------
# y[n, c, p] = Σ_taps w_t(grid[n, p]) · x[n, c, tap_t(grid[n, p])]: linear in x, smooth in the grid between pixels.

def _grid_kernels():
    """The ``_grid_sample`` kernels (imported on first use: only these rows need them)."""
    from . import _grid_sample
    return _grid_sample


def _grid_sampler_2d_backward_forward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners):
    return _grid_kernels().backward(grad_output, input, grid, interpolation_mode, padding_mode, align_corners, True)


def _grid_sampler_2d_grads(grad, input, grid, interpolation_mode, padding_mode, align_corners):
    """(d/d input, d/d grid): d/dx scatters g·w_t back to each tap; d/d grid = Σ_t (g·x_t) ∇w_t (PyTorch's
    grid_sampler_2d_backward, an op of its own)."""
    return tuple(grid_sampler_2d_backward(grad, input, grid, interpolation_mode=interpolation_mode,
                                          padding_mode=padding_mode, align_corners=align_corners))


def _grid_sampler_2d_double_backward(grads, grad_output, input, grid, interpolation_mode, padding_mode,
                                     align_corners):
    """With L = <g, y(x, grid)> and cotangents (a, b) of (dL/dx, dL/dgrid): the gradients of <a, dL/dx> +
    <b, dL/dgrid> = <g, J_x a + J_grid b> in g, x and the grid.

    dL/dx = J_xᵀ g is linear in g and reads nothing of x, so a's terms are the sampler's own ops, recorded as
    PyTorch records them (differentiable again): d/dg = grid_sample(a, grid), d/dgrid = grid_sampler_2d_backward(g,
    a, grid)'s grid gradient. b's terms (second derivatives of the tap weights: one Hessian-vector product) are
    computed on arrays: those have no further derivative here (PyTorch's are a composite of tensor ops)."""
    a, b = grads
    d_out = d_in = d_grid = None
    if a is not None:
        args = {"interpolation_mode": interpolation_mode, "padding_mode": padding_mode, "align_corners": align_corners}
        d_out = grid_sampler_2d(a, grid, **args)
        d_grid = grid_sampler_2d_backward(grad_output, a, grid, **args)[1]
    if b is None or interpolation_mode == 1:   # (nearest: the grid's gradient is 0 whatever the inputs)
        return d_out, d_in, d_grid
    g_out, g_in, g_grid = (Tensor._make(t) for t in _grid_kernels().double_backward(
        None, b._data, grad_output._data, input._data, grid._data, interpolation_mode, padding_mode, align_corners))
    return (g_out if d_out is None else d_out + g_out), g_in, (g_grid if d_grid is None else d_grid + g_grid)


grid_sampler_2d_backward = Op(
    "grid_sampler_2d_backward", "GridSampler2DBackwardBackward0", _grid_sampler_2d_backward_forward,
    inputs=("grad_output", "input", "grid"), args=("interpolation_mode", "padding_mode", "align_corners"),
    outputs=("result0", "result1"), undefined_grads=True,
    grad_output=joint(_grid_sampler_2d_double_backward), input=joint(_grid_sampler_2d_double_backward),
    grid=joint(_grid_sampler_2d_double_backward))
grid_sampler_2d = Op(
    "grid_sampler_2d", "GridSampler2DBackward0",
    lambda x, grid, interpolation_mode, padding_mode, align_corners:
        _grid_kernels().forward(x, grid, interpolation_mode, padding_mode, align_corners),
    inputs=("input", "grid"), args=("interpolation_mode", "padding_mode", "align_corners"),
    input=joint(_grid_sampler_2d_grads), grid=joint(_grid_sampler_2d_grads))


# ---- CTC loss (missing-nn pass 5; kernels in _ctc.py): -log Σ over the alignments of the target of Π_t p_t ----

def _ctc():
    """The ``_ctc`` kernels (imported on first use: only these rows need them)."""
    from . import _ctc as kernels
    return kernels


# PyTorch records _ctc_loss_backward without a derivative: its node is NotImplemented, with edges to the inputs
# that require grad (the incoming gradient under create_graph, log_probs and the loss)
ctc_loss_backward = Op(
    "_ctc_loss_backward", "NotImplemented",
    lambda grad, log_probs, neg_log_likelihood, targets, input_lengths, target_lengths, log_alpha, blank,
    zero_infinity: _ctc().backward(grad, log_probs, targets, input_lengths, target_lengths, neg_log_likelihood,
                                   log_alpha, blank, zero_infinity),
    inputs=("grad", "log_probs", "neg_log_likelihood"),
    args=("targets", "input_lengths", "target_lengths", "log_alpha", "blank", "zero_infinity"),
    grad=_not_implemented("_ctc_loss_backward"), log_probs=_not_implemented("_ctc_loss_backward"),
    neg_log_likelihood=_not_implemented("_ctc_loss_backward"))
ctc_loss_backward.node_class.name = lambda node: "torch::autograd::NotImplemented"
# d nll_b / d log_probs[t, b, c] = exp(lp) - Σ_{s: l'[s] = c} α_t(s)·β_t(s) / (exp(lp)·P(l|x)) (Graves eq. 16)
ctc_loss = Op(
    "_ctc_loss", "CtcLossBackward0",
    lambda log_probs, targets, input_lengths, target_lengths, blank, zero_infinity:
        _ctc().forward(log_probs, targets, input_lengths, target_lengths, blank),
    inputs=("log_probs", "targets"), args=("input_lengths", "target_lengths", "blank", "zero_infinity"),
    outputs=("result0", "result1"), differentiable_outputs=1,
    log_probs=lambda grad, log_probs, targets, input_lengths, target_lengths, result0, result1, blank, zero_infinity:
        ctc_loss_backward(grad, log_probs, result0, targets=targets._data, input_lengths=input_lengths,
                          target_lengths=target_lengths, log_alpha=result1._data, blank=blank,
                          zero_infinity=zero_infinity))


# ---- grid_sampler_3d (F.grid_sample on 5-D inputs): the same rows over D, H, W (trilinear: 8 taps) --------------

def _grid_sampler_3d_grads(grad, input, grid, interpolation_mode, padding_mode, align_corners):
    """(d/d input, d/d grid), as grid_sampler_2d's (PyTorch's grid_sampler_3d_backward)."""
    return tuple(grid_sampler_3d_backward(grad, input, grid, interpolation_mode=interpolation_mode,
                                          padding_mode=padding_mode, align_corners=align_corners))


grid_sampler_3d_backward = Op(
    "grid_sampler_3d_backward", "GridSampler3DBackwardBackward0", _grid_sampler_2d_backward_forward,
    inputs=("grad_output", "input", "grid"), args=("interpolation_mode", "padding_mode", "align_corners"),
    outputs=("result0", "result1"), undefined_grads=True,
    grad_output=joint(_grid_sampler_2d_double_backward), input=joint(_grid_sampler_2d_double_backward),
    grid=joint(_grid_sampler_2d_double_backward))
grid_sampler_3d = Op(
    "grid_sampler_3d", "GridSampler3DBackward0",
    lambda x, grid, interpolation_mode, padding_mode, align_corners:
        _grid_kernels().forward(x, grid, interpolation_mode, padding_mode, align_corners),
    inputs=("input", "grid"), args=("interpolation_mode", "padding_mode", "align_corners"),
    input=joint(_grid_sampler_3d_grads), grid=joint(_grid_sampler_3d_grads))


# ---- hunt 11 (nn): max_unpool3d, fractional_max_pool3d ----------------------------------------------------------

def _max_unpool3d(x, indices, output_size):
    """Each value written at its index of the zeroed (N, C, D_out·H_out·W_out) volumes (the later one wins)."""
    lead = x.shape[:-3]
    out = np.zeros((int(np.prod(lead)), int(np.prod(output_size))), dtype=x.dtype)
    flat = indices.reshape(out.shape[0], -1)
    np.put_along_axis(out, flat, x.reshape(flat.shape), axis=1)
    return out.reshape(*lead, *output_size)


# y[index[k]] = x[k], zero elsewhere: x's gradient reads grad back at each index (a gather over D, H, W).
max_unpool3d = Op("max_unpool3d", "MaxUnpool3DBackward0", _max_unpool3d, inputs=("self", "indices"),
                  args=("output_size",),
                  jvp=lambda self_t, indices, output_size: max_unpool3d(self_t, indices, output_size=output_size),
                  self=lambda grad, indices: max_pool_double_backward(grad, indices, 3))
fractional_max_pool3d = Op(
    "fractional_max_pool3d", "FractionalMaxPool3DBackward0",
    lambda x, kernel_size, output_size, random_samples:
        _pool3d().fractional_max_pool(x, kernel_size, output_size, random_samples._data),
    args=("kernel_size", "output_size", "random_samples"), outputs=("result0", "result1"), differentiable_outputs=1,
    jvp=lambda self_t, result1: max_pool_double_backward(self_t, result1, 3),
    # each window's gradient goes to the element that was its maximum
    self=lambda grad, self, kernel_size, output_size, result1: fractional_max_pool3d_backward(
        grad, self, kernel_size=kernel_size, output_size=output_size, indices=result1))
fractional_max_pool3d_backward = Op(
    "fractional_max_pool3d_backward", "FractionalMaxPool3DBackwardBackward0",
    lambda g, x, kernel_size, output_size, indices: _pool3d().max_pool_backward(g, x.shape, indices._data, 3),
    inputs=("grad_output", "self"), args=("kernel_size", "output_size", "indices"),
    jvp="linear",
    grad_output=lambda grad, indices: max_pool_double_backward(grad, indices, 3),   # linear in g
    self=lambda grad, _input_sizes: _zeros_on(grad, _input_sizes[1]))
