"""Matrices: triangles, diagonals, trace, determinant, inverse, cross product; products and statistics built
from them as PyTorch builds them (kron, tensordot, cdist, cov, corrcoef).

``minigrad.linalg`` (torch.linalg) re-exports det/inv/cross from here. As in ``_ops.py``: argument checks
and PyTorch's error messages here, derivatives in ``derivatives.py``.
"""
from __future__ import annotations

import math
import warnings

import numpy as np

from . import _arg_errors, _conj, _creation, _dispatch, _dtypes, _layout, _ops, _vmap_batched
from . import derivatives as D
from ._tensor import Tensor, _user_stacklevel
from ._warn_once import warn_once
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast

# =============================================================================================
# Triangles, diagonals and trace
# =============================================================================================

@_dispatch.kernel_checks
def _check_2d(input, name):
    if input.dim() < 2:
        raise RuntimeError(f"{name}: input tensor must have at least 2 dimensions")


def tril(input, diagonal=0):
    """The lower triangle (entries on and below the ``diagonal``-th diagonal), zeros elsewhere."""
    diagonal = _arg_errors.scalar_arg(diagonal, "tril", "diagonal", 2, "SymInt")   # (PyTorch's parser first)
    if not _arg_errors._is_index(diagonal):
        raise _arg_errors.must_be("tril", "diagonal", "int", diagonal, 2)
    _check_2d(input, "tril")
    return D.tril(input, diagonal=int(diagonal))


def triu(input, diagonal=0):
    """The upper triangle (entries on and above the ``diagonal``-th diagonal), zeros elsewhere."""
    diagonal = _arg_errors.scalar_arg(diagonal, "triu", "diagonal", 2, "SymInt")   # (PyTorch's parser first)
    if not _arg_errors._is_index(diagonal):
        raise _arg_errors.must_be("triu", "diagonal", "int", diagonal, 2)
    _check_2d(input, "triu")
    return D.triu(input, diagonal=int(diagonal))


def trace(input):
    """Sum of the main diagonal of a matrix."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("trace", trace, **locals())
    _check_trace(input)
    dt = _dtypes.int64 if input.dtype._kind < 2 else None
    return D.trace(input, dtype=dt)


@_dispatch.kernel_checks
def _check_trace(input) -> None:
    if input.dtype is _dtypes.bool_:  # (the kernel's dtype dispatch comes before its rank check)
        raise NotImplementedError("\"trace\" not implemented for 'Bool'")
    _dtypes.refuse_unsigned("trace", input.dtype)
    if input.dim() != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {input.dim()}")


def diag(input, diagonal=0):
    """A vector's square diagonal matrix, or a matrix's diagonal as a vector."""
    if not _arg_errors._is_index(diagonal):  # (x.diag(0.5): the method's error; torch.diag's wrappers word their own)
        error = _arg_errors.must_be("diag", "diagonal", "int", diagonal, 1)
        error.method_form = True
        raise error
    if input.dim() == 1:
        return D.diag_embed(input, offset=int(diagonal), dim1=-2, dim2=-1)  # (the dims PyTorch's node saves)
    if input.dim() == 2:
        return D.diagonal_copy(input, offset=int(diagonal), dim1=0, dim2=1)
    raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + f"{input.dim()}D")


def diag_embed(input, offset=0, dim1=-2, dim2=-1):
    """Each last-dim vector of ``input`` on the diagonal (``offset``) of the matrices spanned by output dims
    ``dim1`` (rows) and ``dim2`` (columns); the other output dims are input's leading dims, in order."""
    offset = _arg_errors.scalar_arg(offset, "diag_embed", "offset", 2, "int")   # (PyTorch's parser first)
    nd = input.dim() + 1
    try:
        d1, d2 = _ops._wrap_dim(dim1, nd), _ops._wrap_dim(dim2, nd)  # (PyTorch's dim errors first)
        if d1 == d2:
            raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    except (IndexError, RuntimeError):   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.diag_embed(input, offset=offset, dim1=dim1, dim2=dim2)  # (saved as given, as PyTorch's)


def _tri_indices_args(name: str, row, col, offset, dtype, requires_grad) -> None:
    """PyTorch's checks of tril_indices / triu_indices: ints (its parser), sizes >= 0, int32 or int64 (which cannot
    require grad)."""
    for position, (arg, value) in enumerate((("row", row), ("col", col), ("offset", offset)), 1):
        if not _arg_errors._is_index(value):
            raise _arg_errors.must_be(name, arg, "int", value, position)
    for arg, value in (("row", row), ("col", col)):
        if value < 0:
            raise RuntimeError(f"{arg} must be non-negative, got{value}")
    if dtype is not None and dtype.name not in ("int32", "int64"):
        raise NotImplementedError(f"\"{name}\" not implemented for '{_ops._legacy(dtype)}'")
    if requires_grad:
        raise RuntimeError("Only Tensors of floating point and complex dtype can require gradients")


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False, requires_grad=False):
    """Indices (2, n) of the lower triangle of a row x col matrix."""
    _tri_indices_args("tril_indices", row, col, offset, dtype, requires_grad)
    return Tensor._make(np.stack(np.tril_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None, pin_memory=False, requires_grad=False):
    """Indices (2, n) of the upper triangle of a row x col matrix."""
    _tri_indices_args("triu_indices", row, col, offset, dtype, requires_grad)
    return Tensor._make(np.stack(np.triu_indices(row, offset, col)).astype((dtype or _dtypes.int64).np))


# =============================================================================================
# Determinant, inverse, cross product
# =============================================================================================

class _LinAlgError(RuntimeError):
    """A matrix has no inverse, factorization or solution (PyTorch's torch.linalg.LinAlgError)."""


def batch_prefix(failed, shape) -> str:
    """PyTorch's "(Batch element k): " for the first failing matrix of a batch (nothing for one matrix)."""
    if not shape:
        return ""
    return f"(Batch element {int(np.flatnonzero(np.asarray(failed).reshape(-1))[0])}): "


def singular_pivot(A) -> np.ndarray:
    """For each matrix of A, the 1-based index of the first zero pivot of its LU factorization (0: none)."""
    lu, _ = D._lu(A._data)
    zero = np.diagonal(lu, axis1=-2, axis2=-1) == 0
    if not zero.shape[-1]:  # (an empty matrix is not singular)
        return np.zeros(zero.shape[:-1], np.int32)
    return np.where(zero.any(-1), zero.argmax(-1) + 1, 0).astype(np.int32)


def _linalg():
    from . import linalg  # (linalg imports this module)
    return linalg


@_dispatch.kernel_checks
def _check_square(A, name):
    if A.dim() < 2:
        raise RuntimeError(f"linalg.{name}: The input tensor A must have at least 2 dimensions.")
    if A.shape[-1] != A.shape[-2]:
        raise RuntimeError(f"linalg.{name}: A must be batches of square matrices, but they are "
                           f"{A.shape[-2]} by {A.shape[-1]} matrices")
    if not (A.is_floating_point() or A.is_complex()):
        raise RuntimeError(f"linalg.{name}: Expected a floating point or complex tensor as input. "
                           f"Got {_ops._legacy(A.dtype)}")


def det(A):
    """Determinant of a (batch of) square matrices."""
    _check_square(A, "det")
    _linalg()._check_lapack_dtype(A, "lu_cpu")
    return D.linalg_det(A)[0]


def inverse(A):
    """Inverse of a (batch of) square matrices."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("inverse", inverse, **locals())
    _check_square(A, "inv")
    _linalg()._check_low_precision(A, "linalg.inv")
    info = singular_pivot(A)
    if info.any():
        raise _LinAlgError(f"linalg.inv: {batch_prefix(info, info.shape)}The diagonal element "
                           f"{info.reshape(-1)[np.flatnonzero(info)[0]]} is zero, the inversion could not be "
                           "completed because the input matrix is singular.")
    return D.linalg_inv(A)


def cross(input, other, dim=None):
    """Cross product of 3-vectors along ``dim`` (the first dim of size 3 if None)."""
    if dim is None:
        if isinstance(input, Tensor) and isinstance(other, Tensor):  # (PyTorch's TORCH_WARN_ONCE)
            warn_once("cross without dim",
                      "Using torch.cross without specifying the dim arg is deprecated.\nPlease either pass the dim "
                      "explicitly or simply use torch.linalg.cross.\nThe default value of dim will change to agree "
                      "with that of linalg.cross in a future release. (Triggered internally at "
                      "/__w/pytorch/pytorch/aten/src/ATen/native/Cross.cpp:63.)")
        sizes = [i for i, s in enumerate(input.shape) if s == 3]  # (input's sizes, as PyTorch's default dim)
        if not sizes:
            raise RuntimeError("no dimension of size 3 in input")
        dim = sizes[0]
    return linalg_cross(input, other, dim=dim)


def linalg_cross(input, other, *, dim=-1):
    """Cross product of 3-vectors along ``dim``."""
    if input.dim() != other.dim():
        _dispatch.check_rebased_inputs(input, other)   # (the kernel's checks, after VariableType collected the edges)
        raise RuntimeError("linalg.cross: inputs must have the same number of dimensions.")
    d = _ops._wrap_dim_of(dim, input)
    if input.shape[d] != 3 or other.shape[d] != 3:
        _dispatch.check_rebased_inputs(input, other)
        if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, other):   # (the batch rule's physical dim)
            dim = d + bin(_vmap_batched.levels_of(input, other)).count("1")
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {input.shape[d]} "
                           f"and {other.shape[d]}")
    _ops._check_broadcast(input, other)
    # (no type promotion: the kernel takes one dtype, and has none for bool)
    if input.dtype.name == "bool":
        raise NotImplementedError("\"cross\" not implemented for 'Bool'")
    if isinstance(other, Tensor) and other.dtype is not input.dtype:
        raise RuntimeError(f"expected scalar type {_ops._legacy(input.dtype)} but found {_ops._legacy(other.dtype)}")
    return _ops._binary(D.linalg_cross, input, other, dim=dim)


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods that are also minigrad.* functions.
# =============================================================================================
# Products with an added term
# =============================================================================================

@_arg_errors.beta_first("addmm")
def addmm(input, mat1, mat2, *, beta=1, alpha=1):
    """beta·input + alpha·(mat1 @ mat2), input broadcast to the product's shape (AddmmBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("addmm", addmm, **locals())
    _arg_errors.check_product_args("addmm", {"input": input, "mat1": mat1, "mat2": mat2}, beta, alpha)
    if _decomposed_in_vmap(input, mat1, mat2, matrices=True):   # (functorch's addmm_decomp)
        return _ops.add(input * beta, _ops.mm(mat1, mat2), alpha=alpha)
    try:
        # (PyTorch's first checks)
        for x, y, names in ((input, mat2, "self and mat2"), (mat1, mat2, "mat1 and mat2")):
            if x.dtype is not y.dtype:
                raise RuntimeError(f"{names} must have the same dtype, but got {_ops._legacy(x.dtype)} and "
                                   f"{_ops._legacy(y.dtype)}")
        if (type(mat1) is not Tensor or type(mat2) is not Tensor) and (mat1.is_sparse or mat2.is_sparse):
            # (its sparse kernels' checks: minigrad/sparse.py)
            from .sparse import check_addmm
            check_addmm(input, mat1, mat2)
        _check_addmm_matrices(input, mat1, mat2)
        (a, b), (c, d) = mat1.shape, mat2.shape
        sizes = input.shape
        if len(sizes) > 2:
            raise RuntimeError(f"expand({input._legacy_type_name()}{{{list(sizes)}}}, size=[{a}, {d}]): the number "
                               f"of sizes provided (2) must be greater or equal to the number of dimensions in the "
                               f"tensor ({len(sizes)})")
        for i in range(1, len(sizes) + 1):
            if sizes[-i] != (a, d)[-i] and sizes[-i] != 1:
                raise RuntimeError(f"The expanded size of the tensor ({(a, d)[-i]}) must match the existing size "
                                   f"({sizes[-i]}) at non-singleton dimension {2 - i}.  Target sizes: [{a}, {d}].  "
                                   f"Tensor sizes: {list(sizes)}")
        if input.dtype is _dtypes.bool_:
            raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edges)
        _dispatch.check_rebased_inputs(input, mat1, mat2)
        raise
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    return D.addmm(input, mat1, mat2, beta=beta, alpha=alpha)


@_arg_errors.beta_first("baddbmm")
def baddbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta·input + alpha·(batch1 @ batch2) per batch, input broadcast to the product's shape (BaddbmmBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("baddbmm", baddbmm, **locals())
    _arg_errors.check_product_args("baddbmm", {"input": input, "batch1": batch1, "batch2": batch2}, beta, alpha)
    if _decomposed_in_vmap(input, batch1, batch2):
        return _product_plus_input(_ops.bmm(batch1, batch2), input, beta, alpha)
    _check_baddbmm(input, batch1, batch2)
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"baddbmm\" not implemented for 'Bool'")
    if batch2.dtype is not batch1.dtype and not (batch1.shape[2] and batch1.shape[0] * batch1.shape[1] *
                                                 batch2.shape[2]):
        # Nothing to multiply: PyTorch's kernel returns before it reads batch2 (no dtype check), having only copied
        # input into the output, of batch2's dtype (the meta function's), and scaled it by beta (mul_'s errors)
        if beta != 0:
            Tensor._make(np.empty(0, batch2.dtype.np)).mul_(beta)
        beta, alpha = product_scalars(batch2.dtype, beta, alpha)
        return D.baddbmm(input, batch1, batch2, beta=beta, alpha=alpha, dtype=batch2.dtype)
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    _check_batch2_dtype(batch1, batch2)
    return D.baddbmm(input, batch1, batch2, beta=beta, alpha=alpha)


@_arg_errors.beta_first("baddbmm_")
def baddbmm_(input, batch1, batch2, *, beta=1, alpha=1):
    """In-place baddbmm: input = beta·input + alpha·(batch1 @ batch2); input must have the product's shape."""
    target = _check_baddbmm(input, batch1, batch2)
    if batch2.dtype is not input.dtype:   # (the meta function's output takes batch2's dtype: check_inplace's order)
        raise RuntimeError(f"Bad in-place call: input tensor dtype {_ops._meta_name(input.dtype)} and output tensor "
                           f"dtype {_ops._meta_name(batch2.dtype)} should match")
    if list(input.shape) != target:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(input.shape)} and output tensor size {target} "
                           "should match")
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"baddbmm\" not implemented for 'Bool'")
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    _check_batch2_dtype(batch1, batch2)
    return D.baddbmm(input, batch1, batch2, beta=beta, alpha=alpha, out=input)


def _decomposed_in_vmap(input, batch1, batch2, summed: bool = False, matrices: bool = False) -> bool:
    """Whether baddbmm / addbmm (``summed``) / addmm (``matrices``) runs as PyTorch's vmap batch rule does, a
    decomposition (``_product_plus_input``, functorch's *_decomp): inside vmap, with a batched operand, when the
    fused op would refuse what the decomposition does not (a product's 1 broadcast against the input's 0, dtypes
    promoted) or words its error otherwise (add's broadcast, bmm's physical sizes); the fused op's values else."""
    if not (_vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, batch1, batch2)):
        return False
    rank = 2 if matrices else 3
    if batch1.dim() != rank or batch2.dim() != rank or input.dtype is not batch1.dtype or \
            batch1.dtype is not batch2.dtype:
        return True
    target = (batch1.shape[-2], batch2.shape[-1]) if summed or matrices else \
        (batch1.shape[0], batch1.shape[1], batch2.shape[2])
    return tuple(input.shape) != target


def _product_plus_input(out, input, beta, alpha):
    """functorch's baddbmm_decomp / addbmm_decomp: alpha·out unless alpha is 1, then beta·input + that unless beta
    is 0 (input then unread)."""
    if alpha != 1:
        out = alpha * out
    return out if beta == 0 else beta * input + out


@_dispatch.kernel_checks
def _check_baddbmm(input, batch1, batch2) -> list:
    """PyTorch's meta checks, in its order: input expanded to (b, n, p) first, then the ranks, dtypes and sizes."""
    target = [batch1.size(0), batch1.size(1), batch2.size(2)]
    sizes = input.shape
    if len(sizes) > 3:
        input.expand(target)   # expand's own error for too many dims
    for i in range(1, len(sizes) + 1):   # expand compares the trailing dims first
        if sizes[-i] != target[-i] and sizes[-i] != 1:
            raise RuntimeError(f"The expanded size of the tensor ({target[-i]}) must match the existing size "
                               f"({sizes[-i]}) at non-singleton dimension {3 - i}.  Target sizes: {target}.  "
                               f"Tensor sizes: {list(sizes)}")
    for name, m in (("batch1", batch1), ("batch2", batch2)):
        if m.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if input.dtype is not batch1.dtype:
        raise RuntimeError(f"Input dtypes must be the same, got: input {_ops._meta_name(input.dtype)}, batch1: "
                           f"{_ops._meta_name(batch1.dtype)}, batch2: {_ops._meta_name(batch2.dtype)}")
    (b, _, k), (b2, k2, _) = batch1.shape, batch2.shape
    if (b2, k2) != (b, k):
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{b}, {k}] but got: "
                           f"[{b2}, {k2}].")
    return target


def _check_batch2_dtype(batch1, batch2) -> None:
    """The kernel's accessor of batch2, after beta and alpha are converted (baddbmm_cpu_kernel)."""
    if batch2.dtype is not batch1.dtype:
        raise RuntimeError(f"expected scalar type {_ops._legacy(batch1.dtype)} but found {_ops._legacy(batch2.dtype)}")


# =============================================================================================
# kron, tensordot, cdist, cov, corrcoef (missing-ops pass): PyTorch's compositions, so their nodes
# are the nodes of the ops PyTorch's C++ calls, in its order
# =============================================================================================

def _unsafe_view(input, size):
    """PyTorch's ``at::_unsafe_view``: a reshape that must not copy (UnsafeViewBackward0)."""
    size = tuple(size)
    if not _ops._viewable(input._data, size):
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one "
                           "dimension spans across two contiguous subspaces). Use .reshape(...) instead.")
    return D.unsafe_view(input, size=size)


def kron(input, other):
    """The Kronecker product: every element of ``input`` times the whole of ``other``, in blocks."""
    n = max(input.dim(), other.dim())
    a_shape = (1,) * (n - input.dim()) + tuple(input.shape)
    b_shape = (1,) * (n - other.dim()) + tuple(other.shape)
    a_view = [s for a in a_shape for s in (a, 1)]              # (a0, 1, a1, 1, ...)
    b_view = [s for b in b_shape for s in (1, b)]              # (1, b0, 1, b1, ...)
    product = _ops.mul(_unsafe_view(input, a_view), _unsafe_view(other, b_view))
    return _unsafe_view(product, [a * b for a, b in zip(a_shape, b_shape)])


def tensordot(a, b, dims=2, out=None):
    """Contract ``a``'s dims ``dims[0]`` with ``b``'s ``dims[1]`` (or a's last ``dims`` with b's first)."""
    if out is not None:
        return _ops._into_out("tensordot", out, (a, b), lambda: tensordot(a, b, dims))
    if not isinstance(dims, (tuple, list, Tensor, int)):
        raise RuntimeError("tensordot expects dims to be int or tuple[list[int], list[int]] or list[list[int]] "
                           f"containing two lists, but got dims={dims}")
    if isinstance(dims, Tensor):
        if dims.numel() > 1:
            dims = dims.tolist()
        else:
            count = int(dims.item())
            if count < 0:
                raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
            dims = count
    if isinstance(dims, int):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims = (list(range(-dims, 0)), list(range(dims)))
    dims_a, dims_b = ([int(d) for d in ds] if isinstance(ds, (list, tuple)) else [int(ds)] for ds in dims)
    return _tensordot(a, b, dims_a, dims_b)


def _tensordot(a, b, dims_a, dims_b):
    # PyTorch's native tensordot (aten/src/ATen/native/Linear.cpp), step for step.
    if len(dims_a) != len(dims_b):
        raise RuntimeError("both dimension lists should have same length")
    if a.dtype is not b.dtype:
        raise RuntimeError("both inputs should have same dtype")
    t1, t2, csize = a, b, 1
    for da, db in zip(dims_a, dims_b):
        s1, s2 = a.shape[_ops._wrap_dim(da, a.dim())], b.shape[_ops._wrap_dim(db, b.dim())]
        if s2 == 1:  # a broadcast dim: summed right away
            t1 = _ops.sum(t1, da, True, dtype=t1.dtype)
        elif s1 == 1:
            t2 = _ops.sum(t2, db, True, dtype=t2.dtype)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} in dim {da} and second "
                               f"has size {s2} in dim {db}")
        else:
            csize *= s1
    kept_a = [i for i in range(a.dim()) if i not in _wrapped(dims_a, a.dim())]
    kept_b = [i for i in range(b.dim()) if i not in _wrapped(dims_b, b.dim())]
    sizes = [t1.shape[i] for i in kept_a] + [t2.shape[i] for i in kept_b]
    size1, size2 = math.prod(t1.shape[i] for i in kept_a), math.prod(t2.shape[i] for i in kept_b)
    if size1 != 1 or size2 != 1:  # (each operand permuted and reshaped in turn, as ATen: the order of the nodes)
        m1 = _ops.reshape(_ops.permute(t1, kept_a + dims_a), size1, csize)
        m2 = _ops.reshape(_ops.permute(t2, dims_b + kept_b), csize, size2)
        return _ops.reshape(_ops.mm(m1, m2), sizes)
    t1, t2 = _ops.permute(t1, kept_a + dims_a), _ops.permute(t2, dims_b + kept_b)
    # A full contraction: a dot product (or, if a flatten would copy, a product and a sum).
    # (t2's view first: GCC evaluates ATen's `at::dot(t1.flatten(), t2.flatten())` arguments right to left)
    if t1._data.flags["C_CONTIGUOUS"] and t2._data.flags["C_CONTIGUOUS"]:
        flat2 = _ops.flatten(t2)
        return _ops.reshape(_ops.dot(_ops.flatten(t1), flat2), sizes)
    squeezed2 = _ops.squeeze(t2)
    return _ops.reshape(_ops.sum(_ops.mul(_ops.squeeze(t1), squeezed2), dtype=t1.dtype), sizes)


def _wrapped(dims, ndim: int) -> list:
    """``dims`` wrapped into [0, ndim), with PyTorch's error for a dim given twice."""
    return [_ops._wrap_dim(d, ndim) for d in _ops._raw_dims(dims, ndim)]


_CDIST_MODES = {"use_mm_for_euclid_dist_if_necessary": 0, "use_mm_for_euclid_dist": 1,
                "donot_use_mm_for_euclid_dist": 2}


def cdist(x1, x2, p=2.0, compute_mode="use_mm_for_euclid_dist_if_necessary"):
    """‖x1[..., i, :] - x2[..., j, :]‖_p for every pair of rows (batch dims broadcast)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("cdist", cdist, **locals())
    if compute_mode not in _CDIST_MODES:
        raise ValueError(f"{compute_mode} is not a valid value for compute_mode")
    # (then PyTorch's Python calls the C cdist(Tensor x1, Tensor x2, float p, int? compute_mode): its parser's errors)
    for position, (name, value, kind) in enumerate((("x1", x1, "Tensor"), ("x2", x2, "Tensor"), ("p", p, "float"))):
        if not _arg_errors._check(kind, value):
            raise _arg_errors.must_be("cdist", name, kind, value, position + 1)
    for name, x in (("X1", x1), ("X2", x2)):
        if x.dim() < 2:
            raise RuntimeError(f"cdist only supports at least 2D tensors, {name} got: {x.dim()}D")
    if x1.shape[-1] != x2.shape[-1]:
        raise RuntimeError(f"X1 and X2 must have the same number of columns. X1: {x1.shape[-1]} X2: {x2.shape[-1]}")
    mode = _CDIST_MODES[compute_mode]
    r1, r2 = x1.shape[-2], x2.shape[-2]
    euclid = x1.numel() and x2.numel() and p == 2 and (mode == 1 or (mode == 0 and (r1 > 25 or r2 > 25)))
    if not euclid:   # (_cdist_forward has no forward formula: a tangent is refused before its kernel's checks)
        from .autograd import forward_ad
        forward_ad.refuse_before_kernel(D.cdist, x1, x2)
    for name, x in (("X1", x1), ("X2", x2)):
        if not x.dtype.is_floating_point:
            raise RuntimeError(f"cdist only supports floating-point dtypes, {name} got: {_ops._legacy(x.dtype)}")
    if not p >= 0:
        raise RuntimeError("cdist only supports non-negative p values")
    if x1.dtype in (_dtypes.float16, _dtypes.bfloat16):  # (x1's kernel first, then the dtypes' match)
        raise NotImplementedError(f"\"cdist\" not implemented for '{_ops._legacy(x1.dtype)}'")
    if x1.dtype is not x2.dtype:
        raise RuntimeError(f"expected scalar type {_ops._legacy(x1.dtype)} but found {_ops._legacy(x2.dtype)}")
    try:
        batch = np.broadcast_shapes(x1.shape[:-2], x2.shape[:-2])
    except ValueError:
        _ops._raise_broadcast_error(x1.shape[:-2], x2.shape[:-2])
    if euclid:
        # The matrix-product path (PyTorch's _euclidean_dist), on batch-expanded copies when batched.
        if math.prod(batch) != 1:
            x1 = _ops.view(_ops.contiguous(_ops.expand(x1, batch + (r1, x1.shape[-1]))), -1, r1, x1.shape[-1])
            x2 = _ops.view(_ops.contiguous(_ops.expand(x2, batch + (r2, x2.shape[-1]))), -1, r2, x2.shape[-1])
        return _ops.view(D.euclidean_dist(x1, x2), batch + (r1, r2))
    return D.cdist(x1, x2, p=float(p), compute_mode=None)


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of the variables in ``input``'s rows (observations in its columns)."""
    if input.dim() > 2:
        raise RuntimeError("cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    if input.dtype is _dtypes.bool_:
        raise RuntimeError("cov(): bool dtype is not supported for input")
    x = _ops.view(input, 1, -1) if input.dim() < 2 else input
    n = x.shape[1]
    w = None
    if fweights is not None:
        _check_cov_weights("fweights", fweights, n, "integral", fweights.dtype._kind == 1)
        w = fweights
    if aweights is not None:
        _check_cov_weights("aweights", aweights, n, "floating point", aweights.dtype.is_floating_point)
        w = aweights if w is None else _ops.mul(w, aweights)
    w_sum = _ops.sum(w) if w is not None else _long(n)
    if w is not None and not bool(w_sum != 0):
        raise RuntimeError("cov(): weights sum to zero, can't be normalized")
    avg = _ops.div(_ops.sum(x if w is None else _ops.mul(x, w), 1), w_sum)
    if w is None:
        norm = _long(n - correction)
    elif correction == 0:
        norm = w_sum
    elif aweights is None:
        norm = _ops.sub(w_sum, correction)
    elif fweights is None and n == 1 and correction == 1:
        norm = _long(0)
    else:
        norm = _ops.sub(w_sum, _ops.div(_ops.mul(_ops.sum(_ops.mul(w, aweights)), correction), w_sum))
    if bool(norm <= 0):
        warnings.warn("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                      "observations. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                      "Correlation.cpp:129.)", UserWarning, stacklevel=_user_stacklevel())
        norm = _ops.zero_(norm)
    if n == 1 and (fweights is None) != (aweights is None):
        # PyTorch zeroes the (viewed) input itself here: one weighted observation is its own mean.
        x = _ops.zero_(x)
        if x.dtype._kind < 2:
            x = _ops.to(x, _dtypes.float32)
    else:
        x = _ops.sub(x, _ops.unsqueeze(avg, 1))
    xw_t = _ops.t(x if w is None else _ops.mul(x, w))
    if xw_t.is_complex():   # (the conjugate transpose: PyTorch's .t().conj(), a no-op for real tensors)
        xw_t = _ops.conj(xw_t)
    c = _ops.mm(x, xw_t)
    return _ops.squeeze(_ops.div(c, norm))


def _long(value: int):
    return Tensor._make(np.array(value, np.int64))


def _check_cov_weights(name, weights, n, kind, kind_ok):
    if weights.dim() > 1:
        raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                           f"{weights.dim()} dimensions")
    if not kind_ok:
        raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                           f"{_ops._legacy(weights.dtype)} dtype")
    if weights.numel() != n:
        raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the input "
                           f"but got {weights.numel()} != {n}")
    if n and bool(weights._data.min() < 0):
        raise RuntimeError(f"cov(): {name} cannot be negative")


def corrcoef(input):
    """Pearson correlation coefficients of the variables in ``input``'s rows, clipped to [-1, 1]."""
    if input.dim() > 2:
        raise RuntimeError("corrcoef(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.dim()} dimensions")
    c = cov(input)
    if c.dim() == 0:
        return _ops.div(c, c)   # 1, or NaN for a covariance of 0, inf or NaN
    d = _ops.diagonal(c)
    std = _ops.sqrt(_ops.real(d) if d.is_complex() else d)
    c = _ops.div(c, _ops.view(std, -1, 1))
    c = _ops.div(c, _ops.view(std, 1, -1))
    if c.is_complex():   # (each part clipped: PyTorch's complex(real(c).clip(-1, 1), imag(c).clip(-1, 1)))
        from ._ops_math import complex_
        return complex_(_ops.clamp(_ops.real(c), -1, 1), _ops.clamp(_ops.imag(c), -1, 1))
    return _ops.clamp(c, -1, 1)

METHODS = [
    "tril", "triu", "trace", "diag", "diag_embed", "det", "inverse", "cross", "addmm", "baddbmm",
    "kron", "cov", "corrcoef",
]
# minigrad.* functions only.
FUNCTIONS = [
    "tril_indices", "triu_indices", "tensordot", "cdist",
]


def _attach_methods():
    for name in METHODS:
        setattr(Tensor, name, globals()[name])
    for name in ("tril", "triu"):   # (their TypeErrors number the arguments after self)
        setattr(Tensor, name, _arg_errors.counting_without_self(globals()[name], name))


_attach_methods()
Tensor.baddbmm_ = baddbmm_   # a Tensor method only, as in PyTorch (no torch.baddbmm_)


# =============================================================================================
# Missing-ops pass 2: inner, vdot, addr, addmv, addbmm, matrix_power, multi_dot, chain_matmul
# (PyTorch's checks in its order; inner, matrix_power and multi_dot compose other ops as its C++ does)
# =============================================================================================

def inner(input, other):
    """Σ_k input[..., k]·other[..., k]: PyTorch's tensordot over both last dims (a product for 0-dim inputs)."""
    if input.dim() == 0 or other.dim() == 0:
        return _ops.mul(input, other)
    if input.shape[-1] != other.shape[-1]:
        raise RuntimeError("inner() the last dimension must match on both input tensors but got shapes "
                           f"{list(input.shape)} and {list(other.shape)}")
    return _tensordot(input, other, [-1], [-1])


def vdot(input, other):
    """conj(input)·other for two vectors (VdotBackward0)."""
    if input.dim() != 1 or other.dim() != 1:
        raise RuntimeError(f"1D tensors expected, but got {input.dim()}D and {other.dim()}D tensors")
    if input.dtype is not other.dtype:
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.check_dot_dtypes(input, other)
        raise RuntimeError(f"dot : expected both vectors to have same dtype, but found {_ops._legacy(input.dtype)} "
                           f"and {_ops._legacy(other.dtype)}")
    if input.numel() != other.numel():
        raise RuntimeError(f"inconsistent tensor size, expected tensor [{input.numel()}] and src [{other.numel()}] to "
                           "have the same number of elements, but got "
                           f"{input.numel()} and {other.numel()} elements respectively")
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    out = D.vdot(input, other)
    if other.is_conj() and not input.is_conj():
        out = _conj.with_conj_bit(out)   # (PyTorch's kernel: vdot(x, y.conj()) is dot(x, y).conj())
    return out


def _expanded(input, target: list) -> None:
    """PyTorch's expand_size errors for ``input`` broadcast to ``target`` (the op itself broadcasts)."""
    _ops.expand(input.detach(), target)


def product_scalars(dtype, beta, alpha, opmath: bool = True) -> tuple:
    """beta and alpha converted as PyTorch's product kernels convert them (``opmath``: to float for float16/bfloat16):
    "value cannot be converted" when out of range or complex into a real type; a complex number's real part."""
    op_dtype = _dtypes.float32 if opmath and dtype in (_dtypes.float16, _dtypes.bfloat16) else dtype
    out = []
    for value in (beta, alpha):
        if not isinstance(value, Tensor):
            _ops._check_scalar_fits(value, op_dtype)
            if isinstance(value, complex) and not dtype.is_complex:
                value = value.real
            if dtype._kind < 2 and isinstance(value, float):  # (C++'s conversion: toward zero)
                value = bool(value) if dtype is _dtypes.bool_ else int(value)
            if dtype._kind == 1 and isinstance(value, int) and not isinstance(value, bool):  # (C casts: -2 is 254)
                value = np.array(value).astype(dtype.np).item()
        out.append(value)
    return tuple(out)


def _check_addr_scalars(dtype, beta, alpha) -> None:
    """PyTorch's check_addr_scalar, beta's two checks then alpha's: no bool for a non-bool result, no float or
    complex for an integral one."""
    for name, value in (("beta", beta), ("alpha", alpha)):
        if isinstance(value, bool) and dtype is not _dtypes.bool_:
            raise RuntimeError(f"Boolean {name} only supported for Boolean results.")
        if dtype._kind < 2 and isinstance(value, (float, complex)):
            raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating point number.")


@_dispatch.kernel_checks
def addr_iter(input, vec1, vec2):
    """PyTorch's build_addr_iter checks: 1-D vectors, input expandable to their product; its shape and dtype."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    # (input is expanded to the product's shape before the TensorIterator: a 0-dim one promotes as a full tensor)
    dt = _dtypes.promote_types(_dtypes.promote_types(input.dtype, vec1.dtype), vec2.dtype)
    _expanded(input, [vec1.shape[0], vec2.shape[0]])
    return (vec1.shape[0], vec2.shape[0]), dt


@_arg_errors.beta_first("addr")
def addr(input, vec1, vec2, *, beta=1, alpha=1):
    """beta·input + alpha·outer(vec1, vec2), input broadcast to the product's shape (AddrBackward0)."""
    _, dt = addr_iter(input, vec1, vec2)
    _check_addr_scalars(dt, beta, alpha)
    beta, alpha = product_scalars(dt, beta, alpha, opmath=False)  # (addr's kernel: the result's own type)
    return D.addr(input, vec1, vec2, beta=beta, alpha=alpha, dtype=dt)


@_arg_errors.beta_first("addr_")
def addr_(input, vec1, vec2, *, beta=1, alpha=1):
    """In-place addr: input must have the outer product's shape."""
    for name, v in (("vec1", vec1), ("vec2", vec2)):  # (PyTorch's order: the vectors, input's rank, the sizes)
        if v.dim() != 1:
            raise RuntimeError(f"addr: Expected 1-D argument {name}, but got {v.dim()}-D")
    if input.dim() != 2:
        raise RuntimeError(f"2D tensor expected, got {input.dim()}D tensor for input")
    if list(input.shape) != [vec1.shape[0], vec2.shape[0]]:
        raise RuntimeError(f"size mismatch, input: {list(input.shape)}, v1: {list(vec1.shape)}, v2: "
                           f"{list(vec2.shape)}")
    dt = _dtypes.result_type(input, vec1, vec2)
    if dt._kind > input.dtype._kind:
        raise RuntimeError(f"result type {_ops._legacy(dt)} can't be cast to the desired output type "
                           f"{_ops._legacy(input.dtype)}")
    _check_addr_scalars(input.dtype, beta, alpha)
    product_scalars(dt, beta, alpha, opmath=False)   # (PyTorch's kernel converts them to the iterator's common dtype)
    beta, alpha = product_scalars(input.dtype, beta, alpha, opmath=False)
    return D.addr(input, vec1, vec2, beta=beta, alpha=alpha, out=input)


def _check_addmm_matrices(input, mat1, mat2) -> None:
    """addmm's meta function on its factors (after their dtypes, before out='s and input's expand)."""
    for name, m in (("mat1", mat1), ("mat2", mat2)):
        if m.dim() != 2:
            raise RuntimeError(f"{name} must be a matrix, got {m.dim()}-D tensor")
    (a, b), (c, d) = mat1.shape, mat2.shape
    if b != c:
        if _vmap_batched.DEPTH[0] and _vmap_batched.levels_of(input, mat1, mat2):
            # (PyTorch's batch rule is add(input * beta, mm(mat1, mat2), alpha): mm's batched errors)
            _vmap_batched.check_mm_sizes(mat1, mat2)
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})")


@_dispatch.kernel_checks
def _check_addmv(input, mat, vec) -> None:
    if mat.dim() != 2 or vec.dim() != 1 or input.dim() > 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {input.dim()}, {mat.dim()}, {vec.dim()}")
    if mat.shape[1] != vec.shape[0] or (input.numel() != 1 and input.shape[0] != mat.shape[0]):
        if not input.dim():   # (PyTorch's message reads input.size(0), which a 0-dim input refuses)
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
        raise RuntimeError(f"size mismatch, got input ({input.shape[0] if input.dim() else 1}), mat "
                           f"({mat.shape[0]}x{mat.shape[1]}), vec ({vec.shape[0]})")
    if not (input.dtype is mat.dtype is vec.dtype):
        raise RuntimeError(f"addmv input tensors must have the same dtype, but got {_ops._legacy(input.dtype)}, "
                           f"{_ops._legacy(mat.dtype)}, and {_ops._legacy(vec.dtype)}")


@_arg_errors.beta_first("addmv")
def addmv(input, mat, vec, *, beta=1, alpha=1):
    """beta·input + alpha·(mat @ vec), input broadcast to the product's length (AddmvBackward0)."""
    _check_addmv(input, mat, vec)
    beta, alpha = product_scalars(input.dtype, beta, alpha, opmath=False)  # (addmv's kernel: input's own type)
    return D.addmv(input, mat, vec, beta=beta, alpha=alpha)


@_arg_errors.beta_first("addmv_")
def addmv_(input, mat, vec, *, beta=1, alpha=1):
    """In-place addmv: input must have the product's length."""
    if input._requires_grad:   # (a leaf's refusal before the meta function's checks)
        _ops._dispatch._check_inplace(input, False)
    _check_addmv(input, mat, vec)
    if list(input.shape) != [mat.shape[0]]:
        raise RuntimeError(f"Bad in-place call: input tensor size {list(input.shape)} and output tensor size "
                           f"{[mat.shape[0]]} should match")
    beta, alpha = product_scalars(input.dtype, beta, alpha, opmath=False)
    return D.addmv(input, mat, vec, beta=beta, alpha=alpha, out=input)


@_dispatch.kernel_checks
def _check_addbmm(input, batch1, batch2, in_place: bool, dtypes: bool = True) -> None:
    """PyTorch's order: the expand of input to (n, p) first, then the batches' ranks, counts and sizes (then their
    dtypes, unless ``dtypes`` is False: with out=, addmm_ into out= checks them)."""
    if not in_place:
        _expanded(input, [batch1.size(1), batch2.size(2)])
    for name, b in (("batch1", batch1), ("batch2", batch2)):
        if b.dim() != 3:
            raise RuntimeError(f"{name} must be a 3D tensor")
    if batch1.shape[0] != batch2.shape[0]:
        raise RuntimeError(f"batch1 and batch2 must have same number of batches, got {batch1.shape[0]} and "
                           f"{batch2.shape[0]}")
    (_, n, k), (_, k2, p) = batch1.shape, batch2.shape
    if k != k2:
        raise RuntimeError(f"Incompatible matrix sizes for bmm ({n}x{k} and {k2}x{p})")
    for x, y, names in ((input, batch2, "self and mat2"), (batch1, batch2, "mat1 and mat2")) if dtypes else ():
        if x.dtype is not y.dtype:
            raise RuntimeError(f"{names} must have the same dtype, but got {_ops._legacy(x.dtype)} and "
                               f"{_ops._legacy(y.dtype)}")


@_arg_errors.beta_first("addbmm")
def addbmm(input, batch1, batch2, *, beta=1, alpha=1):
    """beta·input + alpha·Σ_b batch1[b] @ batch2[b] (AddbmmBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("addbmm", addbmm, **locals())
    if _decomposed_in_vmap(input, batch1, batch2, summed=True):
        return _product_plus_input(_ops.bmm(batch1, batch2).sum(0), input, beta, alpha)
    _check_addbmm(input, batch1, batch2, in_place=False)
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    return D.addbmm(input, batch1, batch2, beta=beta, alpha=alpha)


@_arg_errors.beta_first("addbmm_")
def addbmm_(input, batch1, batch2, *, beta=1, alpha=1):
    """In-place addbmm; an input of another shape (one that broadcasts to the product's) is resized to it."""
    batch1.size(1), batch2.size(2)  # (PyTorch reads the product's sizes first: their dim errors)
    _check_addbmm(input, batch1, batch2, in_place=False)  # (input's expand first, in place too)
    target = [batch1.shape[1], batch2.shape[2]]
    if input.dtype is _dtypes.bool_:
        raise NotImplementedError("\"addmm_impl_cpu_\" not implemented for 'Bool'")
    beta, alpha = product_scalars(input.dtype, beta, alpha)
    if list(input.shape) != target:
        # PyTorch's addbmm_ is addbmm_out(input, batch1, batch2, out=input): input expanded to the product's shape,
        # the out tensor (input itself) resized to it, its memory grown ("not resizable" if shared with NumPy),
        # then beta·expanded + alpha·Σ written into it. (The expanded view keeps reading the old memory here;
        # PyTorch's reads the grown one, which only differs where the copy overwrites what it reads next.)
        from ._ops_inplace_views import resize_storage
        expanded = input.expand(target)
        resize_storage(input, tuple(target))
        return D.addbmm(expanded, batch1, batch2, beta=beta, alpha=alpha, out=input)
    return D.addbmm(input, batch1, batch2, beta=beta, alpha=alpha, out=input)


def matrix_power(input, n):
    """input @ input @ ... (n times); n = 0 the identity, n < 0 powers of the inverse (PyTorch's steps)."""
    if isinstance(n, bool) or not isinstance(n, int):
        raise _arg_errors.must_be("matrix_power", "n", "int", n, 2)
    if input.dim() < 2:
        raise RuntimeError("linalg.matrix_power: The input tensor A must have at least 2 dimensions.")
    if input.shape[-1] != input.shape[-2]:
        raise RuntimeError(f"linalg.matrix_power: A must be batches of square matrices, but they are "
                           f"{input.shape[-2]} by {input.shape[-1]} matrices")
    if n == 0:   # a copy of the input (so the result is in the graph) overwritten by the identity
        eye = _creation.eye(input.shape[-1], dtype=input.dtype)
        return _ops.copy_(_ops.clone(input, memory_format=_layout.contiguous_format), eye)
    if n == 1:
        return _ops.clone(input, memory_format=_layout.contiguous_format)
    if n == -1:
        return inverse(input)
    a = inverse(input) if n < 0 else input
    n = abs(n)
    if n == 2:
        return _ops.matmul(a, a)
    if n == 3:
        return _ops.matmul(_ops.matmul(a, a), a)
    z = result = None   # square-and-multiply over n's bits, lowest first
    while n > 0:
        bit, n = n % 2, n // 2
        z = a if z is None else _ops.matmul(z, z)
        if bit:
            result = z if result is None else _ops.matmul(result, z)
    return result


def multi_dot(tensors):
    """The product of a chain of matrices in the cheapest order (first/last may be vectors)."""
    n = len(tensors)
    if n < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {n}")
    first, last = tensors[0], tensors[-1]
    out_shape = []
    for t, name in ((first, "first"), (last, "last")):
        if t.dim() not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {name} tensor must be 1D or 2D but got {t.dim()}D")
    for i in range(1, n - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {tensors[i].dim()}D")
    mats = list(tensors)
    if first.dim() == 1:
        mats[0] = _ops.unsqueeze(first, 0)
    else:
        out_shape.append(first.shape[0])
    if last.dim() == 1:
        mats[-1] = _ops.unsqueeze(last, -1)
    else:
        out_shape.append(last.shape[1])
    for i in range(1, n):
        if mats[i].dtype is not mats[0].dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but tensor 0 is "
                               f"{_ops._meta_name(mats[0].dtype)} and tensor {i} {_ops._meta_name(mats[i].dtype)}")
        if mats[i - 1].shape[-1] != mats[i].shape[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes {list(tensors[i - 1].shape)} and "
                               f"{list(tensors[i].shape)} cannot be multiplied")
    if n == 2:
        result = _ops.mm(mats[0], mats[1])
    elif n == 3:   # PyTorch compares the two orders' costs directly
        a, b, c, d = mats[0].shape[0], mats[1].shape[0], mats[2].shape[0], mats[2].shape[1]
        if (a * c) * (b + d) > (b * d) * (a + c):
            result = _ops.mm(mats[0], _ops.mm(mats[1], mats[2]))
        else:
            result = _ops.mm(_ops.mm(mats[0], mats[1]), mats[2])
    else:
        result = _chain(mats, _chain_order(mats), 0, n - 1)
    return _ops.view(result, out_shape)


def _chain_order(mats) -> list:
    """The textbook matrix-chain dynamic program: split[i][j] = where to split the product i..j."""
    n = len(mats)
    p = [m.shape[0] for m in mats] + [mats[-1].shape[1]]
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                q = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] is None or q < cost[i][j]:
                    cost[i][j], split[i][j] = q, k
    return split


def _chain(mats, split, i: int, j: int):
    if i == j:
        return mats[i]
    # (the right factor first: PyTorch's at::mm(chain(i, k), chain(k + 1, j)) evaluates its C++ arguments right to
    # left, and that order numbers the nodes, so it decides the order a backward runs them and sums gradients in)
    right = _chain(mats, split, split[i][j] + 1, j)
    return _ops.mm(_chain(mats, split, i, split[i][j]), right)


def chain_matmul(*matrices):
    """Deprecated torch.chain_matmul: multi_dot of matrices (one matrix: a copy)."""
    warn_once("chain_matmul",   # (PyTorch's TORCH_WARN_ONCE)
              "torch.chain_matmul is deprecated and will be removed in a future PyTorch release. Use "
              "torch.linalg.multi_dot instead, which accepts a list of two or more tensors rather than multiple "
              "parameters. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/LinearAlgebra.cpp:"
              "1102.)")
    for m in matrices:
        if m.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {m.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) == 1:
        return _ops.clone(matrices[0], memory_format=_layout.contiguous_format)
    return multi_dot(matrices)


METHODS += ["inner", "vdot", "addr", "addmv", "addmv_", "addbmm", "matrix_power"]
FUNCTIONS += ["chain_matmul"]
for _name in ("inner", "vdot", "addr", "addmv", "addmv_", "addbmm", "matrix_power", "addr_", "addbmm_"):
    setattr(Tensor, _name, globals()[_name])   # (addr_, addbmm_: Tensor methods only, as in PyTorch)
