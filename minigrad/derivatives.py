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
· copies and in-place. The user-facing functions (argument parsing, dtype promotion, errors) are in
``_ops.py``; they call these entries.
"""
from __future__ import annotations

import numpy as np

from ._dispatch import Op

# ruff: noqa: E731  (lambdas are the point of a table)


def _ops():
    from . import _ops as ops
    return ops


# =============================================================================================
# Formula helpers (tensor code, so they are differentiable too)
# =============================================================================================

def sum_backward(grad, sizes, dim, keepdim):
    """d sum(x, dim) / dx: put the reduced dims back and expand.  grad ↦ expand(unsqueeze(grad, dim))."""
    if not keepdim and len(sizes) > 0:
        for d in sorted(_dims(dim, len(sizes))):
            grad = grad.unsqueeze(d)
    return grad.expand(sizes)


def _dims(dim, ndim):
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return list(range(ndim))
    if isinstance(dim, int):
        dim = (dim,)
    return [d % ndim if ndim else 0 for d in dim]


def _reduced_count(sizes, dim) -> int:
    n = 1
    for d in _dims(dim, len(sizes)):
        n *= sizes[d] if sizes else 1
    return n


def unsqueeze_to(grad, sizes, dim=None):
    """Inverse of squeeze: restore the size-1 dims of ``sizes``."""
    if dim is None:
        return grad.reshape(sizes)
    for d in sorted(_dims(dim, len(sizes))):
        if len(sizes) and sizes[d] == 1:
            grad = grad.unsqueeze(d)
    return grad


def pow_backward(grad, self, exponent):
    """d x^p / dx = p·x^(p-1)   (0 when p == 0, as PyTorch)."""
    if exponent == 0:
        return _ops().zeros_like(self)
    return grad * (exponent * self.pow(exponent - 1)).conj()


def pow_backward_self(grad, self, exponent):
    """d x^y / dx = y·x^(y-1)   (0 where y == 0)."""
    ops = _ops()
    return ops.where(exponent == 0.0, ops.zeros_like(grad), grad * (exponent * self.pow(exponent - 1)).conj())


def pow_backward_exponent(grad, self, exponent, result):
    """d x^y / dy = x^y·log(x)   (0 where x == 0 and y >= 0)."""
    ops = _ops()
    cond = (self == 0) & (exponent >= 0) if not self.is_complex() else (self == 0)
    return ops.where(cond, ops.zeros_like(grad), grad * (result * self.log()).conj())


def select_backward(grad, sizes, dim, index):
    """Scatter the selected row back into zeros of the input's shape."""
    return select_backward_op(grad, input_sizes=tuple(sizes), dim=dim, index=index)


def slice_backward(grad, sizes, dim, start, end, step):
    """Scatter the slice back into zeros of the input's shape."""
    return slice_backward_op(grad, input_sizes=tuple(sizes), dim=dim, start=start, end=end, step=step)


def _scatter_into_zeros(g, input_sizes, index):
    out = np.zeros(input_sizes, dtype=g.dtype)
    out[index] = g
    return out


def permute_backwards(grad, dims):
    inverse = [0] * len(dims)
    for i, d in enumerate(dims):
        inverse[d % len(dims)] = i
    return grad.permute(inverse)


# =============================================================================================
# Elementwise functions of one tensor
# =============================================================================================

neg = Op("neg", "NegBackward0", np.negative,
         self=lambda grad: grad.neg())                                    # d(-x) = -1
exp = Op("exp", "ExpBackward0", np.exp,
         self=lambda grad, result: grad * result.conj())                  # d e^x = e^x
log = Op("log", "LogBackward0", np.log,
         self=lambda grad, self: grad.div(self.conj()))                   # d log x = 1/x
sigmoid = Op("sigmoid", "SigmoidBackward0", lambda x: _sigmoid(x),
             self=lambda grad, result: grad * (result * (1 - result)).conj())   # σ' = σ(1-σ)
tanh = Op("tanh", "TanhBackward0", np.tanh,
          self=lambda grad, result: grad * (1 - result * result).conj())         # tanh' = 1 - tanh²
relu = Op("relu", "ReluBackward0", lambda x: np.maximum(x, 0).astype(x.dtype, copy=False),
          self=lambda grad, result: grad * (result > 0))                         # relu' = [x > 0]


def _sigmoid(x):
    # σ(x) = 1/(1+e^-x), evaluated without overflow for large |x|.
    with np.errstate(over="ignore"):
        return (1 / (1 + np.exp(-x))).astype(x.dtype, copy=False)


# =============================================================================================
# Arithmetic (two tensors; a Python number is wrapped as a 0-dim tensor, giving a (None, 0) edge)
# =============================================================================================

add = Op("add", "AddBackward0", lambda a, b, alpha: np.add(a, b) if alpha == 1 else a + alpha * b,
         inputs=("self", "other"), args=("alpha",),
         self=lambda grad: grad,                                          # d(x + αy)/dx = 1
         other=lambda grad, alpha: grad if alpha == 1 else grad * alpha)  # d(x + αy)/dy = α
sub = Op("sub", "SubBackward0", lambda a, b, alpha: np.subtract(a, b) if alpha == 1 else a - alpha * b,
         inputs=("self", "other"), args=("alpha",),
         self=lambda grad: grad,                                          # d(x - αy)/dx = 1
         other=lambda grad, alpha: grad.neg() if alpha == 1 else grad * -alpha)
rsub = Op("rsub", "RsubBackward1", lambda a, b, alpha: b - alpha * a if alpha != 1 else np.subtract(b, a),
          inputs=("self", "other"), args=("alpha",),
          self=lambda grad, alpha: grad.neg() if alpha == 1 else grad * -alpha)
mul = Op("mul", "MulBackward0", np.multiply, inputs=("self", "other"),
         self=lambda grad, other: grad * other.conj(),                    # d(xy)/dx = y
         other=lambda grad, self: grad * self.conj())                     # d(xy)/dy = x
div = Op("div", "DivBackward0", np.true_divide, inputs=("self", "other"),
         self=lambda grad, other: grad / other.conj(),                    # d(x/y)/dx = 1/y
         other=lambda grad, self, other: grad.neg() * ((self / other) / other).conj())  # -x/y²
pow = Op("pow", "PowBackward0", lambda a, exponent: np.power(a, exponent), args=("exponent",),
         self=pow_backward)                                               # d x^p = p x^(p-1)
pow_tensor = Op("pow", "PowBackward1", np.power, inputs=("self", "exponent"),
                self=pow_backward_self, exponent=pow_backward_exponent)


# =============================================================================================
# Reductions
# =============================================================================================

sum = Op("sum", "SumBackward0", lambda a: np.sum(a, dtype=a.dtype),
         self=lambda grad, self_sym_sizes: grad.expand(self_sym_sizes))   # d Σx / dx_i = 1
sum_dim = Op("sum", "SumBackward1", lambda a, dim, keepdim: np.sum(a, axis=dim, keepdims=keepdim, dtype=a.dtype),
             args=("dim", "keepdim"),
             self=lambda grad, self_sym_sizes, dim, keepdim: sum_backward(grad, self_sym_sizes, dim, keepdim))
mean = Op("mean", "MeanBackward0", lambda a: np.mean(a, dtype=a.dtype),
          self=lambda grad, self_sym_sizes, self_sym_numel: grad.expand(self_sym_sizes) / self_sym_numel)
mean_dim = Op("mean", "MeanBackward1",
              lambda a, dim, keepdim: np.mean(a, axis=dim, keepdims=keepdim, dtype=a.dtype),
              args=("dim", "keepdim"),
              self=lambda grad, self_sym_sizes, dim, keepdim, self_sym_numel:
                  sum_backward(grad, self_sym_sizes, dim, keepdim) / _reduced_count(self_sym_sizes, dim))


# =============================================================================================
# Shape and views (the outputs share memory with the input)
# =============================================================================================

view = Op("view", "ViewBackward0", lambda a, size: a.reshape(size), args=("size",), view=True,
          self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes))
unsafe_view = Op("_unsafe_view", "UnsafeViewBackward0", lambda a, size: a.reshape(size), args=("size",),
                 self=lambda grad, self_sym_sizes: grad.reshape(self_sym_sizes))
t = Op("t", "TBackward0", lambda a: a.T, view=True,
       self=lambda grad: grad.t())
transpose = Op("transpose", "TransposeBackward0", lambda a, dim0, dim1: np.swapaxes(a, dim0, dim1),
               args=("dim0", "dim1"), view=True,
               self=lambda grad, dim0, dim1: grad.transpose(dim0, dim1))
permute = Op("permute", "PermuteBackward0", lambda a, dims: np.transpose(a, dims), args=("dims",), view=True,
             self=lambda grad, dims: permute_backwards(grad, dims))
expand = Op("expand", "ExpandBackward0", lambda a, size: np.broadcast_to(a, size), args=("size",), view=True,
            self=lambda grad, self_sym_sizes: grad.sum_to_size(self_sym_sizes))
unsqueeze = Op("unsqueeze", "UnsqueezeBackward0", lambda a, dim: np.expand_dims(a, dim), args=("dim",), view=True,
               self=lambda grad, dim: grad.squeeze(dim))
squeeze = Op("squeeze", "SqueezeBackward0", np.squeeze, view=True,
             self=lambda grad, self_sym_sizes: unsqueeze_to(grad, self_sym_sizes))
squeeze_dim = Op("squeeze", "SqueezeBackward1", lambda a, dim: _squeeze_dims(a, (dim,)), args=("dim",), view=True,
                 self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
squeeze_dims = Op("squeeze", "SqueezeBackward2", lambda a, dim: _squeeze_dims(a, dim), args=("dim",), view=True,
                  self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
# matmul of a 1-D by a 2-D tensor squeezes its mm result in place: PyTorch names that node SqueezeBackward4.
squeeze_inplace_dim = Op("squeeze_", "SqueezeBackward4", lambda a, dim: _squeeze_dims(a, (dim,)), args=("dim",),
                         view=True,
                         self=lambda grad, self_sym_sizes, dim: unsqueeze_to(grad, self_sym_sizes, dim))
select = Op("select", "SelectBackward0", lambda a, dim, index: a[(_slice_all,) * dim + (index,)],
            args=("dim", "index"), view=True,
            self=lambda grad, self_sym_sizes, dim, index: select_backward(grad, self_sym_sizes, dim, index))
slice = Op("slice", "SliceBackward0",
           lambda a, dim, start, end, step: a[(_slice_all,) * dim + (_builtin_slice(start, end, step),)],
           args=("dim", "start", "end", "step"), view=True,
           self=lambda grad, self_sym_sizes, dim, start, end, step:
               slice_backward(grad, self_sym_sizes, dim, start, end, step))

select_backward_op = Op(
    "select_backward", "SelectBackwardBackward0",
    lambda g, input_sizes, dim, index: _scatter_into_zeros(g, input_sizes, (_slice_all,) * dim + (index,)),
    inputs=("grad_output",), args=("input_sizes", "dim", "index"),
    grad_output=lambda grad, dim, index: grad.select(dim, index))
slice_backward_op = Op(
    "slice_backward", "SliceBackwardBackward0",
    lambda g, input_sizes, dim, start, end, step:
        _scatter_into_zeros(g, input_sizes, (_slice_all,) * dim + (_builtin_slice(start, end, step),)),
    inputs=("grad_output",), args=("input_sizes", "dim", "start", "end", "step"),
    grad_output=lambda grad, dim, start, end, step: grad[(_slice_all,) * dim + (_builtin_slice(start, end, step),)])

_builtin_slice = __builtins__["slice"] if isinstance(__builtins__, dict) else __builtins__.slice
_slice_all = _builtin_slice(None)


def _squeeze_dims(a, dims):
    dims = tuple(d for d in dims if a.shape[d] == 1) if a.ndim else ()
    return np.squeeze(a, axis=dims) if dims else a.view()


# =============================================================================================
# Linear algebra
# =============================================================================================

mm = Op("mm", "MmBackward0", np.matmul, inputs=("self", "mat2"),
        # d(AB)/dA: G·Bᴴ ;  d(AB)/dB: Aᴴ·G
        self=lambda grad, mat2, mat2_sym_sizes, mat2_sym_strides: grad.mm(mat2.t().conj()),
        mat2=lambda grad, self, self_sym_sizes, self_sym_strides: self.t().conj().mm(grad))
mv = Op("mv", "MvBackward0", np.matmul, inputs=("self", "vec"),
        self=lambda grad, vec: grad.outer(vec.conj()),                    # d(Av)/dA = g vᴴ
        vec=lambda grad, self: self.conj().t().mv(grad))                  # d(Av)/dv = Aᴴ g
dot = Op("dot", "DotBackward0", lambda a, b: np.dot(a, b), inputs=("self", "tensor"),
         self=lambda grad, tensor: grad * tensor.conj(),
         tensor=lambda grad, self: grad * self.conj())
bmm = Op("bmm", "BmmBackward0", np.matmul, inputs=("self", "mat2"),
         self=lambda grad, mat2: grad.bmm(mat2.transpose(1, 2).conj()),
         mat2=lambda grad, self: self.transpose(1, 2).conj().bmm(grad))
outer = Op("outer", "OuterBackward0", np.outer, inputs=("self", "vec2"),
           self=lambda grad, vec2: grad.mv(vec2.conj()),
           vec2=lambda grad, self: grad.t().mv(self.conj()))


# =============================================================================================
# Neural-network ops
# =============================================================================================

def _bce_logits_forward(x, y, weight, pos_weight, reduction):
    # loss = (1 - y)·x + (1 + (p - 1)·y)·softplus(-x),  softplus(z) = log(1 + e^z) computed stably.
    softplus_neg = np.logaddexp(0, -x)
    if pos_weight is None:
        loss = (1 - y) * x + softplus_neg
    else:
        pw = pos_weight._data
        loss = (1 - y) * x + (1 + (pw - 1) * y) * softplus_neg
    if weight is not None:
        loss = loss * weight._data
    return _reduce(loss.astype(x.dtype, copy=False), reduction)


def _reduce(loss, reduction: str):
    if reduction == "mean":
        return np.mean(loss, dtype=loss.dtype)
    if reduction == "sum":
        return np.sum(loss, dtype=loss.dtype)
    return loss


def bce_logits_backward(grad, self, target, weight, pos_weight, reduction):
    """d/dx: (σ(x) - y) for plain BCE; ((p·y + 1 - y)·σ(x) - p·y) with pos_weight p; times weight."""
    if pos_weight is None:
        g = self.sigmoid() - target
    else:
        g = (pos_weight * target + 1 - target) * self.sigmoid() - pos_weight * target
    if weight is not None:
        g = g * weight
    return _apply_reduction_grad(g, grad, reduction)


def bce_logits_target_backward(grad, self, target, weight, pos_weight, reduction):
    """d/dy: -x (plain), or -x·... with pos_weight: (1-p)·log σ(x)... written out below."""
    if pos_weight is None:
        g = self.neg()
    else:
        # loss = (1-y)x + (1+(p-1)y)·softplus(-x)  ⇒  d/dy = -x + (p-1)·softplus(-x)
        g = self.neg() + (pos_weight - 1) * _ops().softplus_neg(self)
    if weight is not None:
        g = g * weight
    return _apply_reduction_grad(g, grad, reduction)


def _apply_reduction_grad(g, grad, reduction):
    if reduction == "mean":
        return g * grad / g.numel()
    return g * grad


binary_cross_entropy_with_logits = Op(
    "binary_cross_entropy_with_logits", "BinaryCrossEntropyWithLogitsBackward0", _bce_logits_forward,
    inputs=("self", "target"), args=("weight", "pos_weight", "reduction"),
    self=bce_logits_backward, target=bce_logits_target_backward)


# =============================================================================================
# Copies, conversions and in-place writes
# =============================================================================================

clone = Op("clone", "CloneBackward0", lambda a: a.copy(),
           self=lambda grad: grad)
to_copy = Op("_to_copy", "ToCopyBackward0", lambda a, dtype: a.astype(dtype.np), args=("dtype",),
             self=lambda grad: grad)                    # the engine casts grad back to the input dtype
copy_ = Op("copy_", "CopyBackwards", lambda a, src: np.broadcast_to(src, a.shape).astype(a.dtype),
           inputs=("self", "src"),
           self=lambda grad: _ops().zeros_like(grad),   # the old value is overwritten: no gradient
           src=lambda grad: grad)
zero_ = Op("zero_", "ZeroBackward0", np.zeros_like,
           self=lambda grad: _ops().zeros_like(grad))
fill_ = Op("fill_", "FillBackward2", lambda a, value: np.full_like(a, value._data if hasattr(value, "_data") else value),
           args=("value",),
           self=lambda grad: _ops().zeros_like(grad))


class _AsStridedOp(Op):
    """A view replayed on its base after an in-place change (PyTorch's AsStridedBackward0)."""


def _as_strided_backward(grad, self_sym_sizes, size, stride, storage_offset, self_geometry):
    """Scatter-add the view's gradient into the base's positions (by memory offset)."""
    ops = _ops()
    base_offsets = _element_offsets(self_sym_sizes, self_geometry[0], self_geometry[1])
    view_offsets = _element_offsets(size, stride, storage_offset)
    order = np.argsort(base_offsets, kind="stable")
    pos = order[np.searchsorted(base_offsets, view_offsets.ravel(), sorter=order)]
    return ops.index_add_flat(ops.zeros(self_sym_sizes, dtype=grad.dtype), pos, grad)


def _element_offsets(shape, stride, offset):
    idx = np.full(tuple(shape), offset, dtype=np.int64)
    for d, (n, s) in enumerate(zip(shape, stride)):
        r = np.arange(n, dtype=np.int64) * s
        idx = idx + r.reshape((n,) + (1,) * (len(shape) - d - 1))
    return idx.ravel()


as_strided = Op("as_strided", "AsStridedBackward0",
                lambda a, size, stride, storage_offset, self_geometry, view_data: view_data,
                args=("size", "stride", "storage_offset", "self_geometry", "view_data"),
                self=lambda grad, self_sym_sizes, size, stride, storage_offset, self_geometry:
                    _as_strided_backward(grad, self_sym_sizes, size, stride, storage_offset, self_geometry))


def as_strided_view(base, view):
    """grad_fn for ``view`` read through ``base``'s current history (after an in-place change)."""
    from .autograd import grad_mode
    geometry = (base.stride(), base.storage_offset())
    with grad_mode.enable_grad():
        out = as_strided(base, size=tuple(view._data.shape), stride=view.stride(),
                         storage_offset=view.storage_offset(), self_geometry=geometry, view_data=view._data)
    return out._grad_fn


# =============================================================================================
# Advanced indexing (copies, not views)
# =============================================================================================

def _index_backward(grad, self_sym_sizes, indices):
    """Scatter-add grad into zeros at ``indices`` (repeated indices accumulate)."""
    return index_put_zeros(grad, input_sizes=tuple(self_sym_sizes), indices=indices)


def _index_put_zeros_forward(g, input_sizes, indices):
    out = np.zeros(input_sizes, dtype=g.dtype)
    np.add.at(out, indices, g)
    return out


index = Op("index", "IndexBackward0", lambda a, indices: a[indices], args=("indices",),
           self=lambda grad, self_sym_sizes, indices: _index_backward(grad, self_sym_sizes, indices))
index_put_zeros = Op("_index_put_impl_", "IndexPutBackward0", _index_put_zeros_forward,
                     inputs=("values",), args=("input_sizes", "indices"),
                     values=lambda grad, indices: grad[indices])


def _index_put_forward(a, values, indices, accumulate):
    out = a.copy()
    if accumulate:
        np.add.at(out, indices, values)
    else:
        out[indices] = values
    return out


index_put = Op("index_put_", "IndexPutBackward0", _index_put_forward, inputs=("self", "values"),
               args=("indices", "accumulate"),
               # overwritten positions get no gradient (unless accumulating); values get grad[indices]
               self=lambda grad, indices, accumulate: grad if accumulate else _masked_zero(grad, indices),
               values=lambda grad, indices: grad[indices])


def _masked_zero(grad, indices):
    return index_put(grad, _ops().zeros((), dtype=grad.dtype), indices=indices, accumulate=False)
