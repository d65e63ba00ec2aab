"""torch.sparse: COO sparse tensors (``layout=torch.sparse_coo``) and their autograd.

A sparse COO tensor of shape ``size`` keeps ``nnz`` stored entries: ``indices``, an int64 tensor of shape
(sparse_dim, nnz) (column k: where entry k sits in the first sparse_dim dims), and ``values``, of shape
(nnz, *dense dims). An entry may appear several times ("uncoalesced"): its value is then the sum of
its copies. ``coalesce()`` sorts the entries and adds up the copies.

Here a sparse tensor is a ``SparseTensor``, a Tensor subclass (it prints as ``torch.Tensor``, as PyTorch's
sparse tensors are plain Tensors with another layout) that holds the two tensors. Its ``_data``, the
dense ndarray every dense op reads, is computed from them on first use and kept (read-only): so shape,
dtype, the engine's checks and dense ops taking a sparse operand (``dense + sparse``, ``torch.mm``)
work unchanged, while the sparse operations below keep the entries. Elementwise functions (``torch.sin(s)``,
``s.abs_()`` ...) have their sparse kernels or PyTorch's refusals (_UNARY, _NO_KERNEL: torch's functions find them
through overrides.LAYOUT_KERNELS). Unlike PyTorch, other dense-only ops called as functions on a sparse tensor
(``torch.mean(s)`` ...) compute on the dense values instead of raising (the common methods, ``s.view`` /
``s.mean()`` ..., raise PyTorch's errors), and the engine sees a sparse gradient's dense values when it checks its
shape (computed once, kept).

The nodes of sparse operations (ToDenseBackward0, SparseAddmmBackward0 ...) are ``_SparseNode``s: a
backward function per node, written with tensor ops; the gradient arriving at a node may be sparse or
dense, so each backward accepts both.
"""
from __future__ import annotations

import math
import weakref

import numpy as np

from . import _dtypes, _layout
from . import overrides as _overrides
from ._class_names import CNodeNamed
from ._ops import _NO_ROUNDING_MODE
from ._tensor import Size, Tensor
from ._warn_once import warn_once as _warn_once
from .autograd import forward_ad, grad_mode
from .autograd.graph import FREED_MESSAGE, Node
from .overrides import _disabled_torch_function_impl

__all__ = ["addmm", "log_softmax", "mm", "softmax", "sum"]


def _warn_invariants() -> None:
    """PyTorch's once-per-process warning of its first sparse_coo_tensor() (a TORCH_WARN_ONCE)."""
    _warn_once(
        "sparse invariants",
        "Sparse invariant checks are implicitly disabled. Memory errors (e.g. SEGFAULT) will occur when operating "
        "on a sparse tensor which violates the invariants, but checks incur performance overhead. To silence this "
        "warning, explicitly opt in or out. See `torch.sparse.check_sparse_tensor_invariants.__doc__` for guidance. "
        " (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/Context.cpp:816.)")


def _not_for_sparse(op: str, backend: str = "SparseCPU") -> NotImplementedError:
    """PyTorch's dispatcher error for an operator with no kernel for the backend (its first paragraph)."""
    return NotImplementedError(
        f"Could not run '{op}' with arguments from the '{backend}' backend. This could be because the operator "
        "doesn't exist for this backend, or was omitted during the selective/custom build process (if using "
        "custom build). If you are a Facebook employee using PyTorch on mobile, please visit "
        f"https://fburl.com/ptmfixes for possible resolutions. '{op}' is only available for these backends: "
        "[CPU, Meta, ...].")


# ---- the tensor ---------------------------------------------------------------------------------------------
class SparseTensor(Tensor):
    """A COO sparse tensor: ``_idx`` (int64, sparse_dim × nnz) and ``_vals`` (nnz × dense dims) of shape ``_size``."""

    _torch_name = "torch.Tensor"
    __slots__ = ("_coalesced", "_dense", "_dense_of", "_idx", "_size", "_stand_in", "_vals", "_strided_values")
    # A layout, not a user's subclass: ops return plain tensors (no __torch_function__ conversion)
    __torch_function__ = _disabled_torch_function_impl

    @property
    def _data(self) -> np.ndarray:
        # The dense values, computed once (read-only: a sparse tensor never changes through them), again when the
        # values shared with a detach() of it were changed in place there.
        d = self._dense
        if d is None or self._dense_of is not self._vals._data:
            d = np.zeros(self._size, dtype=self._vals._data.dtype)
            if d.dtype.kind == "c":   # (PyTorch's zeros + 1·s: the complex product makes NaNs of 0·inf parts)
                d = add_into_dense(d, self, 1)
            else:
                np.add.at(d, tuple(self._idx._data), self._vals._data)  # (copies of an entry add up, in order)
            d.flags.writeable = False
            self._dense, self._dense_of = d, self._vals._data
        return d

    # -- what it is
    @property
    def layout(self):
        """``torch.sparse_coo``."""
        return _layout.sparse_coo

    @property
    def is_sparse(self) -> bool:
        """True."""
        return True

    @property
    def dtype(self) -> _dtypes.dtype:
        return self._vals.dtype

    @property
    def shape(self) -> Size:
        return Size(self._size)

    def size(self, dim: int | None = None):
        return Size(self._size) if dim is None else self._size[self._wrap_dim(dim, len(self._size))]

    def dim(self) -> int:
        return len(self._size)

    def sparse_dim(self) -> int:
        """How many leading dims the indices address."""
        return self._idx._data.shape[0]

    def dense_dim(self) -> int:
        """How many trailing dims each stored value has."""
        return self._vals._data.ndim - 1

    def _nnz(self) -> int:
        """The number of stored entries (copies of one entry counted apart)."""
        return self._idx._data.shape[1]

    def is_coalesced(self) -> bool:
        """True if the entries are sorted and unique (set by coalesce())."""
        return self._coalesced

    def _indices(self) -> Tensor:
        """The indices as stored (no autograd)."""
        return self._idx

    def _values(self) -> Tensor:
        """The values as stored (no autograd)."""
        return self._vals

    def indices(self) -> Tensor:
        """The indices of a coalesced tensor."""
        if not self._coalesced:
            raise RuntimeError("Cannot get indices on an uncoalesced tensor, please call .coalesce() first")
        return self._idx

    def values(self) -> Tensor:
        """The values of a coalesced tensor (ValuesBackward0: their gradient is sparse)."""
        if not self._coalesced:
            raise RuntimeError("Cannot get values on an uncoalesced tensor, please call .coalesce() first")
        out = Tensor._make(self._vals._data)
        # d values -> d self: a sparse tensor with self's indices and the gradient as values
        # (not version-checked: PyTorch's output is a view of self, whose in-place changes rebase it instead)
        return _record("ValuesBackward0", out, (self,), lambda g: (_like(self, g),), {"self": self}, versioned=False)

    def _legacy_type_name(self) -> str:
        return "torch.sparse." + Tensor._legacy_type_name(self)[6:]   # (torch.sparse.FloatTensor ...)

    def __getattr__(self, name: str):
        # (only for a missing attribute: PyTorch's sparse tensors are Tensors, so its error names 'Tensor')
        raise AttributeError(f"'Tensor' object has no attribute '{name}'")

    def data_ptr(self) -> int:
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")

    def is_contiguous(self, memory_format=None) -> bool:
        return False

    def stride(self, dim: int | None = None):
        # (PyTorch reports 0 for every dim of a sparse tensor)
        return (0,) * len(self._size) if dim is None else 0

    def storage_offset(self) -> int:
        return 0

    @property
    def nbytes(self) -> int:
        raise RuntimeError("nbytes is not defined for sparse tensors.  If you want the size of the constituent "
                           "tensors, add the nbytes of the indices and values.  If you want the size of the  "
                           "equivalent dense tensor, multiply numel() by element_size()")

    def numpy(self, *, force: bool = False):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def __array__(self, dtype=None, copy=None):
        raise TypeError("can't convert Sparse layout tensor to numpy. Use Tensor.to_dense() first.")

    def __repr__(self, *, tensor_contents=None) -> str:
        from ._printing import _add_suffixes, _tensor_str
        indent = len("tensor(")
        suffixes = [f"size={tuple(self._size)}", f"nnz={self._nnz()}"]
        if self.dtype not in (_dtypes.get_default_dtype(), _dtypes.int64, _dtypes.bool_, _dtypes.complex64):
            suffixes.append(f"dtype={self.dtype!r}")
        suffixes.append("layout=torch.sparse_coo")

        def body(t: Tensor, prefix: str) -> str:
            # the nested tensor's values alone (no suffixes), as PyTorch's _tensor_str prints them
            s = _tensor_str(t._data, t.dtype, indent + len(prefix))
            if t._data.size == 0:
                s += f", size={tuple(t._data.shape)}"
            return prefix + s + ")"
        text = (body(self._idx, "indices=tensor(") + ",\n" + " " * indent + body(self._vals, "values=tensor("))
        fn = self._grad_fn
        if fn is not None:
            suffixes.append(f"grad_fn=<{type(fn).__name__}>")
        elif self._requires_grad:
            suffixes.append("requires_grad=True")
        return _add_suffixes("tensor(" + text, suffixes, indent, force_newline=True)

    # -- conversions
    def to_dense(self, dtype=None, *, masked_grad=None) -> Tensor:
        """The dense tensor (ToDenseBackward0: the gradient flows back sparse, masked to self's entries unless
        ``masked_grad=False``: PyTorch's to_dense_backward)."""
        if dtype is not None:
            raise RuntimeError("dtype argument is not supported by sparse_to_dense")
        out = Tensor._make(np.array(self._data))
        if masked_grad is False:  # grad.to_sparse(sparse_dim): every nonzero entry of the gradient
            return _record("ToDenseBackward0", out, (self,), lambda g: (to_sparse(_dense(g), self.sparse_dim()),),
                           {"self": self})
        return _record("ToDenseBackward0", out, (self,), lambda g: (_sparse_mask(g, self),), {"self": self})

    def to_sparse(self, sparse_dim=None, *, layout=None, blocksize=None, dense_dim=None) -> SparseTensor:
        """Self (already COO); another sparse_dim is refused, as PyTorch's sparse_coo_to_sparse."""
        if sparse_dim is not None and sparse_dim != self.sparse_dim():
            raise RuntimeError("to_sparse: conversion from Sparse to Sparse with sparse_dim argument "
                               "!=self.sparse_dim() is not supported")
        return self

    to_sparse_coo = to_sparse

    def to(self, *args, **kwargs) -> SparseTensor:
        """The same entries in another dtype (ToCopyBackward0); a device must be the CPU."""
        dtype = kwargs.get("dtype")
        for a in args:
            if isinstance(a, _dtypes.dtype):
                dtype = a
            elif isinstance(a, Tensor):
                dtype = a.dtype
        if dtype is None or dtype is self.dtype:
            return self
        out = _make(self._idx._data, self._vals._data.astype(dtype.np), self._size, self._coalesced)
        if not (dtype.is_floating_point or dtype.is_complex):
            return out  # (integer tensors leave the graph)
        source = self.dtype
        return _record("ToCopyBackward0", out, (self,), lambda g: (g.to(source),))

    def float(self) -> SparseTensor:  # noqa: A003
        return self.to(_dtypes.float32)

    def double(self) -> SparseTensor:
        return self.to(_dtypes.float64)

    def long(self) -> SparseTensor:
        return self.to(_dtypes.int64)

    def int(self) -> SparseTensor:  # noqa: A003
        return self.to(_dtypes.int32)

    def coalesce(self) -> SparseTensor:
        """Entries sorted by index, copies of an entry added up (self if already coalesced)."""
        if self._coalesced:
            return self
        idx, vals = _coalesce(self._idx._data, self._vals._data, self._size)
        out = _make(idx, vals, self._size, coalesced=True)
        # d coalesce(x) -> dx: the same sparse tensor (its entries are the same sums)
        return _record("CoalesceBackward0", out, (self,), lambda g: (g,))

    def zero_(self) -> SparseTensor:
        """Drop every entry (nnz becomes 0), in place (ZeroBackward0: a zero gradient)."""
        before = self._inplace_checked()
        out = _make(np.zeros((self.sparse_dim(), 0), dtype=np.int64),
                    np.zeros((0,) + self._vals._data.shape[1:], dtype=self._vals._data.dtype), self._size, True)
        return self._take(_record("ZeroBackward0", out, (before,), lambda g: (_zeros_like(g),)), "")

    def detach(self) -> SparseTensor:
        # (self's indices and values tensors and version counter, as PyTorch's: an in-place op that writes the values
        # in place, d.div_(2), changes both)
        out = self.data
        out._version_counter = self._version_counter
        return out

    @property
    def data(self) -> SparseTensor:
        out = _make(self._idx._data, self._vals._data, self._size, self._coalesced)
        out._idx, out._vals = self._idx, self._vals   # (shared: see _take)
        return out

    def _detached_copy(self) -> SparseTensor:
        return _make(self._idx._data.copy(), self._vals._data.copy(), self._size, self._coalesced)

    def __reduce_ex__(self, protocol):
        # (pickle, torch.save: the entries and the size; as PyTorch's, not requires_grad)
        return (_rebuild_sparse, (self._idx._data, self._vals._data, self._size, self._coalesced, False))

    def __deepcopy__(self, memo):
        out = _rebuild_sparse(self._idx._data.copy(), self._vals._data.copy(), self._size, self._coalesced,
                              self._requires_grad)
        memo[id(self)] = out
        return out

    def clone(self, *, memory_format=None) -> SparseTensor:
        out = self._detached_copy()
        return _record("CloneBackward0", out, (self,), lambda g: (g,))

    # -- arithmetic (the sparse kernels PyTorch has; a dense right operand of + is refused, as there)
    def __add__(self, other):
        return add(self, other)

    def __sub__(self, other):
        return add(self, other, alpha=-1, name="SubBackward0")

    def __radd__(self, other):
        # (tried before Tensor.__add__, a sparse tensor's class being a subclass: dense + sparse is dense)
        return Tensor.__add__(other, self) if isinstance(other, Tensor) else add(self, other)

    def add(self, other, *, alpha=1):
        return add(self, other, alpha=alpha)

    def sub(self, other, *, alpha=1):
        return add(self, other, alpha=-alpha, name="SubBackward0")

    def __mul__(self, other):
        return mul(self, other)

    def __rmul__(self, other):
        return mul(other, self) if isinstance(other, Tensor) else mul(self, other)

    mul = __mul__

    def __truediv__(self, other):
        return div(self, other)

    def div(self, other, *, rounding_mode=_NO_ROUNDING_MODE):
        return div(self, other, rounding_mode)

    # -- in place: the out-of-place result's entries taken over, cast to self's dtype, with its node (a rebase)
    def add_(self, other, *, alpha=1):
        return self._take(add(self._inplace_checked(), other, alpha=alpha), "add")

    def sub_(self, other, *, alpha=1):
        return self._take(add(self._inplace_checked(), other, alpha=-alpha, name="SubBackward0"), "add")

    def mul_(self, other):
        self._take(mul(self._inplace_checked(), other), "mul" if isinstance(other, SparseTensor) else "")
        if not isinstance(other, SparseTensor):   # (PyTorch's kernel for a number or a dense factor: not coalesced)
            self._coalesced = self._nnz() < 2
        return self

    def div_(self, other, *, rounding_mode=_NO_ROUNDING_MODE):
        return self._take(div(self._inplace_checked(), other, rounding_mode), "div", in_values=True)

    def floor_divide(self, other):
        return floor_divide(self, other)

    def floor_divide_(self, other):
        return self._take(floor_divide(self._inplace_checked(), other, "floor_divide_"), "div", in_values=True)

    def fill_(self, value):
        raise _not_for_sparse("aten::fill_.Tensor" if isinstance(value, Tensor) else "aten::fill_.Scalar")

    def copy_(self, src, non_blocking: bool = False):
        """src's entries, copied and cast to self's dtype, its size and coalesced flag (PyTorch's copy_sparse_:
        CopyBackwards, the gradient goes to src; self's old value would get zeros_like(grad), which has no sparse
        kernel)."""
        if not isinstance(src, SparseTensor):
            raise RuntimeError(f"copy_() between dense and sparse Tensors is not implemented! Found self type = "
                               f"{self._legacy_type_name()} and src type = {src._legacy_type_name()}")
        before = self._inplace_checked()
        self._check_resize(src._size, src.sparse_dim(), src.dense_dim())
        vals = src._vals._data
        if vals.dtype.kind == "c" and not self.is_complex():   # (the real parts: PyTorch's cast drops the rest)
            vals = vals.real
        out = _make(src._idx._data.copy(), vals.astype(self._vals._data.dtype), src._size, src._coalesced)

        def backward(g):
            if before._requires_grad:
                raise RuntimeError("memory format option is only supported by strided tensors")
            return None, g.to(src.dtype)
        self._take(_record("CopyBackwards", out, (before, src), backward), "")
        self._size = src._size
        return self

    def sparse_resize_(self, size, sparse_dim: int, dense_dim: int) -> SparseTensor:
        """A new size, dims kept (or any, with no entries): PyTorch refuses to shrink a non-empty tensor."""
        size = tuple(int(n) for n in size)
        self._check_resize(size, sparse_dim, dense_dim)
        idx, vals = self._idx._data, self._vals._data
        if sparse_dim != idx.shape[0] or dense_dim != vals.ndim - 1:   # (no entries)
            idx, vals = np.zeros((sparse_dim, 0), np.int64), np.zeros((0, *size[sparse_dim:]), vals.dtype)
        elif size[sparse_dim:] != vals.shape[1:]:   # (larger dense dims: PyTorch's values keep their memory, the
            # rest uninitialised; zeros here)
            flat = np.zeros(len(vals) * math.prod(size[sparse_dim:]), vals.dtype)
            flat[:vals.size] = vals.reshape(-1)
            vals = flat.reshape(len(vals), *size[sparse_dim:])
        return self._resized(size, idx, vals, self._coalesced, "sparse_resize_")

    def sparse_resize_and_clear_(self, size, sparse_dim: int, dense_dim: int) -> SparseTensor:
        """A new size and dims, no entries."""
        size = tuple(int(n) for n in size)
        self._check_resize(size, sparse_dim, dense_dim, empty=True)
        return self._resized(size, np.zeros((sparse_dim, 0), np.int64),
                             np.zeros((0, *size[sparse_dim:]), self._vals._data.dtype), True,
                             "sparse_resize_and_clear_")

    def _coalesced_(self, coalesced: bool) -> SparseTensor:
        """Set the coalesced flag (the entries stay as they are)."""
        return self._resized(self._size, self._idx._data, self._vals._data, coalesced, "_coalesced_")

    def _resized(self, size: tuple, idx: np.ndarray, vals: np.ndarray, coalesced: bool, op: str) -> SparseTensor:
        """Self with new entries, size and flag, in place (a NotImplemented node: no derivative)."""
        from .derivatives import _not_implemented
        before = self._inplace_checked()
        formula = _not_implemented(op)
        self._take(_record("NotImplemented", _make(idx, vals, size, coalesced), (before,), lambda g: (formula(g),)),
                   "")
        self._size, self._coalesced = size, coalesced
        return self

    def _check_resize(self, size: tuple, sparse_dim: int, dense_dim: int, empty: bool = False) -> None:
        """PyTorch's checks of a new size and dims (SparseTensorImpl::resize_): a tensor with entries (unless
        ``empty``: they are cleared) keeps its numbers of dims and does not shrink."""
        if len(size) != sparse_dim + dense_dim:
            raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                               f"sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
        if empty or self._nnz() == 0:
            return
        old, sd = self._size, self.sparse_dim()
        if sparse_dim != sd:
            problem = f"changing the number of sparse dimensions (from {sd} to {sparse_dim})"
        elif dense_dim != self.dense_dim():
            problem = f"changing the number of dense dimensions (from {self.dense_dim()} to {dense_dim})"
        elif any(n < o for n, o in zip(size[:sd], old[:sd])):
            problem = f"shrinking the size of sparse dimensions (from {list(old[:sd])} to {list(size[:sd])})"
        elif any(n < o for n, o in zip(size[sd:], old[sd:])):
            problem = f"shrinking the size of dense dimensions (from {list(old[sd:])} to {list(size[sd:])})"
        else:
            problem = None
        if problem:
            raise RuntimeError(
                f"{problem} on a non-empty sparse tensor is not supported.\nYou could try the following options:\n"
                "1. If you need an empty sparse tensor of this size, call `x = torch.sparse_coo_tensor(size)`.\n"
                "2. If you need to resize this tensor, you have the following options:\n"
                "    1. For both sparse and dense dimensions, keep the number of them constant and the size of them "
                "non-shrinking, and then try the same call again.\n"
                "    2. Or, create a new sparse tensor with the correct indices and values from this sparse tensor.")

    def _inplace_checked(self) -> SparseTensor:
        """Self before an in-place change (refused for a leaf that requires grad): a stand-in with its entries and its
        place in the graph, for the op's node to save (self then takes new entries: PyTorch's node saves a clone)."""
        if self._requires_grad and self._grad_fn is None and grad_mode.STATE.enabled:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        before = _make(self._idx._data, self._vals._data, self._size, self._coalesced)
        before._grad_fn, before._requires_grad, before._output_nr = self._grad_fn, self._requires_grad, self._output_nr
        before._stand_in = True
        return before

    def _take(self, out: SparseTensor, op: str, in_values: bool = False) -> SparseTensor:
        """Become ``out`` (an in-place op's result): its entries, in self's dtype, and its node, if any. ``op``
        names the kernel whose refusal of a result that cannot be cast down a kind is raised ('' for mul_ by a
        number or a dense tensor, which scales the values in place). ``in_values``: PyTorch's kernel writes the new
        values (and indices, if they changed: a coalesced result) into self's tensors, which a detach() of self
        shares."""
        vals = out._vals._data
        if vals.dtype != self._vals._data.dtype:
            if out.dtype._kind > self.dtype._kind:   # (PyTorch's can_cast: never down a kind)
                r, o = _dtypes.legacy_name(out.dtype), _dtypes.legacy_name(self.dtype)
                raise RuntimeError(f"Can't convert result type {r} to output {o} in {op} operation" if op in (
                    "add", "mul") else f"result type {r} can't be cast to the desired output type {o}" if op else
                    f"dtype of values ({r}) must match dtype of sparse tensor ({o})")
            vals = vals.astype(self._vals._data.dtype)
        if in_values:
            if out._idx._data is not self._idx._data:
                self._idx._data = out._idx._data
                self._idx._version_counter[0] += 1
            self._vals._data = vals
            self._vals._version_counter[0] += 1
        else:
            self._idx, self._vals = out._idx, Tensor._make(vals)
        self._coalesced = out._coalesced
        self._dense = None
        self._version_counter[0] += 1
        fn = out._grad_fn
        if fn is not None:
            self._grad_fn, self._requires_grad, self._output_nr = fn, True, 0
            if isinstance(fn, _SparseNode):   # (a saved result is self now: checked against self's later changes)
                fn._versions = {k: (self._version_counter, self._version_counter[0])
                                if counter is out._version_counter else (counter, v)
                                for k, (counter, v) in fn._versions.items()}
        return self

    def __neg__(self):
        with grad_mode.no_grad():   # (the dense negation of the values: its refusal of bool)
            vals = Tensor._make(self._vals._data).neg()._data
        out = _make(self._idx._data, vals, self._size, self._coalesced)
        return _record("NegBackward0", out, (self,), lambda g: (-g,))

    def t(self) -> SparseTensor:
        """The transpose of a 2-dim sparse tensor (its two index rows swapped)."""
        return _record("TBackward0", self._swapped(0, 1), (self,), lambda g: (g.t(),))

    def transpose(self, dim0: int, dim1: int) -> SparseTensor:
        """Two sparse dims swapped (TransposeBackward0, the dims saved as given)."""
        out = self._swapped(self._wrap_dim(dim0, self.dim()), self._wrap_dim(dim1, self.dim()))
        return _record("TransposeBackward0", out, (self,), lambda g: (g.transpose(dim0, dim1),),
                       {"dim0": dim0 % 2**64, "dim1": dim1 % 2**64})

    @property
    def mT(self):  # noqa: N802  (PyTorch's name)
        """The transpose of the last two dims (TransposeBackward0): both must be sparse dims; their index rows swap."""
        return Tensor.mT.__get__(self) if self.dim() < 2 else self.transpose(-2, -1)

    def _swapped(self, d0: int, d1: int) -> SparseTensor:
        """Self with sparse dims d0 and d1 swapped, as PyTorch's sparse_transpose_ on a view of it: any entries are
        then marked uncoalesced (even one), and the version counter is self's."""
        sd = self.sparse_dim()
        if d0 >= sd or d1 >= sd:
            raise RuntimeError(f"sparse transpose: transposed dimensions must be sparse Got sparse_dim: {sd}, "
                               f"d0: {d0}, d1: {d1}")
        idx, size = self._idx._data.copy(), list(self._size)
        idx[[d0, d1]], size[d0], size[d1] = idx[[d1, d0]], size[d1], size[d0]
        out = _make(idx, self._vals._data, size)
        out._coalesced = self._coalesced and self._nnz() == 0
        out._version_counter = self._version_counter
        return out

    @property
    def mH(self):  # noqa: N802
        """The conjugate transpose of the last two dims (real values: mT; complex ones: on the dense values)."""
        return self.mT if not self.is_complex() else Tensor.mH.__get__(self)

    def sum(self, dim=None, keepdim: bool = False, *, dtype=None):
        if dim is None:  # (a dense scalar: SumBackward0, with a dense gradient, as PyTorch's)
            return Tensor.sum(self, dtype=dtype)
        return _sum_method(self, dim, keepdim, dtype)

    def __getitem__(self, index):
        """``s[i]``: the entries in row i (SelectBackward0); a sparse result while sparse dims remain."""
        if isinstance(index, slice):
            raise _not_for_sparse("aten::as_strided")
        if not isinstance(index, int) or isinstance(index, bool):
            return Tensor.__getitem__(self, index)  # (other indices: on the dense values)
        n = self._size[0]
        if not -n <= index < n:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size {n}")
        row = index % n
        keep = self._idx._data[0] == row
        if self.sparse_dim() > 1:
            out = _make(self._idx._data[1:, keep], self._vals._data[keep], self._size[1:], self._coalesced)
        else:  # (no sparse dim left: the row's dense values, its copies added up)
            out = Tensor._make(np.asarray(self._vals._data[keep].sum(axis=0), dtype=self._vals._data.dtype))
        sizes = self.shape

        def backward(g):
            # the gradient of row i alone, zeros elsewhere (PyTorch has no such kernel for a sparse gradient)
            if isinstance(g, SparseTensor):
                raise _not_for_sparse("aten::select_backward")
            from ._creation import zeros
            full = zeros(sizes, dtype=g.dtype)
            full[row] = g
            return (full,)
        return _record("SelectBackward0", out, (self,), backward,
                       {"dim": 0, "index": index, "self_sym_sizes": tuple(sizes)})

    # -- dense-only operations: PyTorch's errors
    def view(self, *shape):
        raise _not_for_sparse("aten::view")

    def reshape(self, *shape):
        raise RuntimeError("reshape is not implemented for sparse tensors")

    def mean(self, *args, **kwargs):
        raise _not_for_sparse("aten::mean.dim")

    def contiguous(self, memory_format=None):
        raise RuntimeError("unsupported memory format option Contiguous")


def _make(indices: np.ndarray, values: np.ndarray, size, coalesced: bool = False) -> SparseTensor:
    """Wrap an index array and a value array as a sparse tensor (no copy, no autograd)."""
    t = object.__new__(SparseTensor)
    for slot in Tensor.__slots__[2:]:
        if slot != "_data":
            setattr(t, slot, None)
    t._requires_grad = False
    t._output_nr = 0
    t._version_counter = [0]
    t._view_version = 0
    t._is_inference = False
    t._idx = Tensor._make(np.asarray(indices, dtype=np.int64))
    t._vals = Tensor._make(values)
    t._size = tuple(int(n) for n in size)
    t._coalesced = bool(coalesced) or t._idx._data.shape[1] < 2   # (PyTorch: nnz 0 or 1 is coalesced)
    t._dense = t._dense_of = None
    t._strided_values = False   # (PyTorch's values tensor is a strided view: see embedding_grad)
    t._stand_in = False   # (self before an in-place op: see _inplace_checked)
    return t


def _rebuild_sparse(indices, values, size, coalesced: bool, requires_grad: bool) -> SparseTensor:
    """Unpickle a sparse tensor (see ``SparseTensor.__reduce_ex__``)."""
    out = _make(indices, values, size, coalesced)
    out._requires_grad = requires_grad
    return out


def _like(s: SparseTensor, values) -> SparseTensor:
    """A sparse tensor with ``s``'s indices and ``values`` (a tensor or an array)."""
    vals = values._data if isinstance(values, Tensor) else values
    return _make(s._idx._data, vals, s._size, s._coalesced)


def _times_one(vals: np.ndarray) -> np.ndarray:
    """1·v, as PyTorch's axpy adds a value: for complex values a complex product, whose 0·inf parts are NaNs."""
    if vals.dtype.kind != "c":
        return vals
    out = np.empty_like(vals)
    out.real, out.imag = vals.real - 0 * vals.imag, vals.imag + 0 * vals.real
    return out


def _coalesce(idx: np.ndarray, vals: np.ndarray, size) -> tuple[np.ndarray, np.ndarray]:
    """Sorted unique indices and the summed values of each (copies added in their stored order)."""
    sparse_size = size[: idx.shape[0]]
    if idx.shape[1] == 0:
        return idx, vals
    flat = np.ravel_multi_index(tuple(idx), sparse_size)
    order = np.argsort(flat, kind="stable")
    flat = flat[order]
    first = np.r_[True, flat[1:] != flat[:-1]]
    starts = np.flatnonzero(first)
    # As PyTorch's coalesce kernel: copy an entry's first value, then add the copies one at a time (axpy), left to
    # right; np.add.reduceat would add the pairwise sum of the rest to the first (a + (b + c)): other float bits.
    ordered = vals[order]
    summed = ordered[starts].copy()
    np.add.at(summed, np.cumsum(first)[~first] - 1, _times_one(ordered[~first]))
    return np.stack(np.unravel_index(flat[starts], sparse_size)).astype(np.int64), summed.astype(vals.dtype)


# ---- autograd nodes -----------------------------------------------------------------------------------------
class _SparseNode(Node, metaclass=CNodeNamed):   # (C++ classes in PyTorch: see CNodeNamed)
    """The grad_fn of a sparse operation: ``_backward(grad)`` gives the inputs' gradients."""

    __slots__ = ("_backward", "_freed", "_saved", "_versions")

    def _apply(self, grad_outputs: tuple) -> tuple:
        if self._freed:
            raise RuntimeError(FREED_MESSAGE)
        for name in self._versions:
            self._check_version(name)
        return tuple(self._backward(grad_outputs[0]))

    def _check_version(self, name: str) -> None:
        """PyTorch's error if saved tensor ``name`` was modified in place since it was saved (as SavedTensor.unpack)."""
        counter, version = self._versions[name]
        if counter[0] != version:
            from .autograd.graph import SavedTensor
            value = self._saved[name]
            is_output = type(value) is weakref.ref or name == "result"
            t = value() if type(value) is weakref.ref else value
            saved = SavedTensor(t, is_output=is_output)
            saved._saved_version = version
            saved._raise_modified(self, counter[0], t)

    def __getattr__(self, name: str):
        saved = object.__getattribute__(self, "_saved")
        if name.startswith("_saved_") and name[7:] in saved:
            value = saved[name[7:]]
            if self._freed and _is_tensor_slot(value):
                raise RuntimeError(FREED_MESSAGE)
            if name[7:] in self._versions:
                self._check_version(name[7:])
            # (the node's own output is held weakly: output -> node -> output would be a reference cycle)
            if type(value) is weakref.ref:
                return value()
            if name == "_saved_result" and isinstance(value, SparseTensor):
                # (or kept without its node, for a formula: unpacked with it, as PyTorch's saved output)
                out = value.detach()
                out._grad_fn, out._requires_grad = self, True
                return out
            return value
        if name.startswith("_raw_saved_") and name[11:] in saved and _is_tensor_slot(saved[name[11:]]):
            from .autograd.graph import SavedTensor
            value = saved[name[11:]]
            raw = SavedTensor(value(), is_output=True) if type(value) is weakref.ref else SavedTensor(value)
            if name[11:] in self._versions:   # (its version when saved: unpack() checks it)
                raw._version_counter, raw._saved_version = self._versions[name[11:]]
            return raw
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __dir__(self):
        # (a tensor PyTorch saves also has its ``_raw_saved_*``, the SavedTensor)
        return sorted((set(super().__dir__()) - {"_saved", "_versions"}) | {"_saved_" + k for k in self._saved}
                      | {"_raw_saved_" + k for k, v in self._saved.items() if _is_tensor_slot(v)})

    def _release_variables(self) -> None:
        # (as PyTorch's SavedVariables: a node that saved a tensor cannot run, nor show it, a second time)
        if any(_is_tensor_slot(v) for v in self._saved.values()):
            self._freed = True


def _is_tensor_slot(value) -> bool:
    return isinstance(value, Tensor) or type(value) is weakref.ref


_NODE_CLASSES: dict = {}


def _record(name: str, out: Tensor, inputs: tuple, backward, saved: dict | None = None,
            versioned: bool = True) -> Tensor:
    """Make ``out`` the output of a ``name`` node over ``inputs`` (if any of them requires grad); the saved tensors
    are checked against in-place changes when the node runs (unless not ``versioned``)."""
    if not (grad_mode.STATE.enabled and any(t is not None and t._requires_grad for t in inputs)):
        return out
    cls = _NODE_CLASSES.get(name)
    if cls is None:
        cls = _NODE_CLASSES[name] = type(name, (_SparseNode,), _node_attributes(name))
    node = cls()
    node._set_edges([t._edge() if t is not None else (None, 0) for t in inputs])
    node._input_meta = tuple(_meta(t) for t in inputs)
    node._backward = backward
    # (self before an in-place op is saved as PyTorch's kernel saves it: a clone, CloneBackward0 to its history)
    node._saved = {k: _clone_of(v) if isinstance(v, SparseTensor) and v._stand_in else v
                   for k, v in (saved or {}).items()}
    node._freed = False
    # name -> (version counter, version now) of each saved tensor (an output is held weakly)
    tensors = {k: v() if type(v) is weakref.ref else v for k, v in node._saved.items() if _is_tensor_slot(v)}
    node._versions = {k: (t._version_counter, t._version_counter[0]) for k, t in tensors.items()
                      if versioned and t is not None}
    out._requires_grad = True
    out._grad_fn = node
    out._output_nr = 0
    return out


def _node_attributes(name: str) -> dict:
    """The class attributes of a sparse node named ``name``: PyTorch's hand-written C++ nodes have a qualified
    name(); its error node NotImplemented lists only the edges to inputs that require grad (as _dispatch's)."""
    attrs = {"__slots__": (), "__module__": "builtins"}
    if name in ("NotImplemented", "CopyBackwards"):
        attrs["name"] = lambda node: "torch::autograd::" + name
    if name == "NotImplemented":
        attrs["next_functions"] = property(
            lambda node: tuple(e for e in zip(node._next_nodes, node._next_nrs) if e[0] is not None))
    return attrs


def _clone_of(s: SparseTensor) -> SparseTensor:
    """``s.clone()`` (without marking it a stand-in)."""
    out = _make(s._idx._data, s._vals._data, s._size, s._coalesced)
    return _record("CloneBackward0", out, (s,), lambda g: (g,))


def _meta(t) -> tuple:
    """(shape, NumPy dtype) of a node's input, as the engine checks gradients against (a sparse tensor's
    without computing its dense values)."""
    if t is None:
        return ((), None)
    if isinstance(t, SparseTensor):
        return (t._size, t._vals._data.dtype)
    return (t._data.shape, t._data.dtype)


def _dense(g: Tensor) -> Tensor:
    """A gradient as a dense tensor (differentiably)."""
    return g.to_dense() if isinstance(g, SparseTensor) else g


def _sparse_mask(g: Tensor, mask: SparseTensor) -> SparseTensor:
    """``g`` at ``mask``'s entries, as a coalesced sparse tensor (PyTorch's ``g.sparse_mask(mask.coalesce())``,
    SparseMaskBackward0 when g requires grad: a double backward goes through it)."""
    idx = mask._idx._data
    if not mask._coalesced:
        idx, _ = _coalesce(idx, np.zeros(idx.shape[1]), mask._size)
        mask = _make(idx, np.zeros((idx.shape[1],) + mask._vals._data.shape[1:], mask._vals._data.dtype),
                     mask._size, True)
    with grad_mode.no_grad():
        out = _make(idx, _gather(_dense(g), idx)._data, mask._size, True)
    sparse_in = isinstance(g, SparseTensor)

    def backward(gg):
        # d sparse_mask(g) -> dg: the incoming gradient at the mask's entries (dense again for a dense g)
        masked = _sparse_mask(gg, mask)
        return (masked if sparse_in else masked.to_dense(),)
    return _record("SparseMaskBackward0", out, (g,), backward, {"mask": mask})


def _gather(dense: Tensor, idx: np.ndarray) -> Tensor:
    """The dense tensor's values at each index column of ``idx`` (nnz × dense dims)."""
    return dense[tuple(Tensor._make(row) for row in idx)]


# ---- construction -------------------------------------------------------------------------------------------
def sparse_coo_tensor(indices, values, size=None, *, dtype=None, device=None, pin_memory: bool = False,
                      requires_grad: bool = False, check_invariants=None, is_coalesced=None) -> SparseTensor:
    """A COO sparse tensor from indices (sparse_dim × nnz) and values (nnz × dense dims)."""
    from ._creation import tensor as _tensor
    _warn_invariants()
    idx = indices if isinstance(indices, Tensor) else _tensor(indices)
    vals = values if isinstance(values, Tensor) else _tensor(values, dtype=dtype)
    if dtype is not None and vals.dtype != dtype:
        vals = vals.to(dtype)
    idx_data = np.asarray(idx._data, dtype=np.int64)
    if idx_data.ndim == 1:  # (one column: PyTorch reads a vector of indices as sparse_dim × 1)
        idx_data = idx_data.reshape(-1, 1)
    if size is None:  # each sparse dim as large as its largest index + 1, then the values' dims
        size = tuple(int(r.max()) + 1 if r.size else 0 for r in idx_data) + tuple(vals.shape[1:])
    _check_entries(idx_data, vals._data, tuple(size))
    out = _make(idx_data, np.array(vals._data), size, bool(is_coalesced))
    if requires_grad:
        out._requires_grad = True
        return out
    # d out -> d values: the gradient at each stored entry
    return _record("SparseCooTensorWithDimsAndTensorsBackward0", out, (vals,),
                   lambda g: (_gather(_dense(g), idx_data),), {"result": weakref.ref(out)})


def _check_entries(idx: np.ndarray, vals: np.ndarray, size: tuple) -> None:
    """PyTorch's checks of sparse_coo_tensor's arguments (the index bounds are not checked, as there)."""
    sparse_dim, dense_dim = idx.shape[0], vals.ndim - 1
    if len(size) != sparse_dim + dense_dim:
        raise RuntimeError(f"'len(size) == sparse_dim + dense_dim' is not satisfied: len(size) = {len(size)}, "
                           f"sparse_dim = {sparse_dim}, dense_dim = {dense_dim}")
    if idx.shape[1] != vals.shape[0]:
        raise RuntimeError(f"indices and values must have same nnz, but got nnz from indices: {idx.shape[1]}, "
                           f"nnz from values: {vals.shape[0]}")
    if vals.shape[1:] != size[sparse_dim:]:
        raise RuntimeError(f"values has incorrect size, expected {[vals.shape[0], *size[sparse_dim:]]}, "
                           f"got {list(vals.shape)}")


def to_sparse(x: Tensor, sparse_dim: int | None = None, *, layout=None, blocksize=None,
              dense_dim=None) -> SparseTensor:
    """The nonzero entries of a dense tensor (ToSparseBackward1; ToSparseBackward0 with sparse_dim)."""
    if isinstance(x, SparseTensor):
        return x
    # (PyTorch's _to_sparse / _to_sparse_csr ... have no forward formula: a dual input is refused)
    forward_ad.refuse_tangents("_to_sparse" if layout is None or "coo" in str(layout)
                               else "_to_" + str(layout).rpartition(".")[2], x)
    data = x._data
    nd = data.ndim if sparse_dim is None else sparse_dim
    if nd < data.ndim:  # (an entry: a whole row of dense dims, kept when any of it is nonzero)
        keep = np.any(data.reshape(data.shape[:nd] + (-1,)) != 0, axis=-1)
    else:
        keep = data != 0
    idx = np.stack(np.nonzero(keep)).reshape(nd, -1).astype(np.int64)
    out = _make(idx, np.array(data[tuple(idx)]), data.shape, True)
    if sparse_dim is None:
        return _record("ToSparseBackward1", out, (x,), lambda g: (_dense(g),),
                       {"self_self_sym_blocksize_opt": None})
    return _record("ToSparseBackward0", out, (x,), lambda g: (_dense(g),), {"self_self_sym_blocksize_opt": None})


def _as_sparse_method(self, *args, **kwargs):
    """``Tensor.to_sparse()`` (the dense tensor's nonzero entries)."""
    return to_sparse(self, *args, **kwargs)


def _to_dense_method(self, dtype=None, *, masked_grad=None) -> Tensor:
    """``Tensor.to_dense()`` of a dense tensor: itself, or ``self.to(dtype)`` (PyTorch's at::to_dense)."""
    return self if dtype is None else self.to(dtype)


# ---- operations ---------------------------------------------------------------------------------------------
def add(a: SparseTensor, b, alpha=1, name: str = "AddBackward0") -> Tensor:
    """sparse + sparse (merged entries, PyTorch's add_out_sparse_contiguous); sparse + dense is refused."""
    if not isinstance(b, SparseTensor):
        if isinstance(b, Tensor) or isinstance(b, (int, float)):
            raise RuntimeError("add(sparse, dense) is not supported. Use add(dense, sparse) instead.")
        return NotImplemented
    if a._size != b._size:
        raise RuntimeError(f"add: expected sizes of 'self' and 'other' to match, but {list(a._size)} != "
                           f"{list(b._size)}")   # (add_sparse's check, before add_out's)
    dt = _dtypes.promote_types(a.dtype, b.dtype).np
    out = _merge(a, b, alpha, dt)
    return _record(name, out, (a, b), lambda g: (g, g * alpha if alpha != 1 else g),
                   {"alpha": -alpha if name == "SubBackward0" else alpha})   # (sub's own alpha: a - alpha·b)


def _merge(a: SparseTensor, b: SparseTensor, alpha, dt) -> SparseTensor:
    """a + alpha·b by PyTorch's add_out_sparse_contiguous (no autograd): one walk over both entry lists."""
    ai, bi, av = a._idx._data, b._idx._data, a._vals._data.astype(dt)
    with np.errstate(all="ignore"):   # (0·inf is nan, quietly)
        bv = b._vals._data.astype(dt) * dt.type(alpha)
    # (PyTorch's result values start as zeros and each entry is added into them, axpy: -0.0 comes out 0.0)
    av, bv = _times_one(av) + dt.type(0), bv + dt.type(0)
    from ._fused import fma
    fused, alpha_, b_raw = alpha != 1 and dt.char in "fd", dt.type(alpha), b._vals._data.astype(dt)
    # A merge walk over both entry lists: equal indices are added into one entry, the rest copied in order.
    idx, vals, i, j = [], [], 0, 0
    na, nb = ai.shape[1], bi.shape[1]
    while i < na or j < nb:
        if i >= na:
            cmp = -1
        elif j >= nb:
            cmp = 1
        else:
            ca, cb = tuple(ai[:, i]), tuple(bi[:, j])
            cmp = 1 if ca < cb else (-1 if ca > cb else 0)
        if cmp > 0:
            idx.append(ai[:, i]), vals.append(av[i])
            i += 1
        elif cmp < 0:
            idx.append(bi[:, j]), vals.append(bv[j])
            j += 1
        else:   # (an axpy onto a's value: α·b + a rounded once in float32 / float64)
            idx.append(ai[:, i]), vals.append(av[i] + bv[j] if not fused else fma(alpha_, b_raw[j], av[i], dt))
            i, j = i + 1, j + 1
    shape = (ai.shape[0], len(idx))
    return _make(np.array(idx, dtype=np.int64).T.reshape(shape),
                 np.array(vals, dtype=dt).reshape((len(vals),) + av.shape[1:]), a._size,
                 a._coalesced and b._coalesced)


def add_into_dense(x: np.ndarray, s: SparseTensor, alpha, contiguous: bool = True) -> np.ndarray:
    """x + alpha·s for a dense x, rounded as PyTorch's add_out_dense_sparse_cpu (an optimizer's p.add_(grad, ...)).

    Uncoalesced entries are added one at a time in their stored order, each an axpy (one rounding of α·v + r for
    float32 / float64: BLAS's fused multiply-add), not summed first; coalesced ones the same, except without dense
    dims (a plain ``r += α·v``, the product rounded); non-contiguous values, or a non-contiguous result
    (``contiguous`` False: x.add_(s) on a strided x), are coalesced first, then added by the dense add kernel
    (fused)."""
    from ._fused import fma
    dt = np.result_type(x.dtype, s._vals._data.dtype)
    out = np.array(x, dtype=dt, copy=True)
    idx, vals = s._idx._data, s._vals._data.astype(dt, copy=False)
    if idx.shape[1] == 0:
        return out
    fused = dt.char in "fd" and alpha != 1
    a = dt.type(alpha)
    if s._strided_values or not contiguous:
        idx, vals = _coalesce(idx, vals, s._size)
    elif s._coalesced and idx.shape[0] == x.ndim:
        fused = False
    # (in rounds: the first copy of every entry, then the second ... so that each round writes distinct places)
    flat = np.ravel_multi_index(tuple(idx), s._size[: idx.shape[0]])
    order = np.argsort(flat, kind="stable")
    ranked = flat[order]
    first = np.r_[True, ranked[1:] != ranked[:-1]]
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order)) - np.maximum.accumulate(np.where(first, np.arange(len(order)), 0))
    for r in range(int(rank.max()) + 1):
        at = tuple(idx[:, rank == r])
        v = vals[rank == r]
        out[at] = fma(a, v, out[at], dt) if fused else out[at] + a * v
    return out


def _accumulate(old: SparseTensor, new: SparseTensor) -> None:
    """``old += new`` for two sparse gradients (AccumulateGrad), as PyTorch's add_out_sparse_cpu: when both value
    tensors are contiguous, add's merge walk (coalesced if both were); otherwise (a new gradient whose values are
    a view of an expanded one, see ``embedding_grad``) the entries concatenated, and coalesced when they outnumber
    the dense elements (add_out_sparse_non_contiguous's guard against unbounded growth), uncoalesced."""
    if new._idx._data.shape[1] == 0:   # (nothing to add: PyTorch copies self, flags included)
        pass
    elif not new._strided_values and old._idx._data.shape[1]:
        merged = _merge(old, new, 1, old._vals._data.dtype)
        old._idx, old._vals, old._coalesced = merged._idx, merged._vals, merged._coalesced
    else:
        idx = np.concatenate([old._idx._data, new._idx._data], axis=1)
        vals = np.concatenate([old._vals._data, new._vals._data.astype(old._vals._data.dtype)])
        if idx.shape[1] > math.prod(old._size):
            idx, vals = _coalesce(idx, vals, old._size)
        old._idx, old._vals = Tensor._make(idx), Tensor._make(vals)
        old._coalesced = idx.shape[1] < 2
    old._dense = None
    old._version_counter[0] += 1


def _product(a: Tensor, b: Tensor) -> Tensor:
    """a * b with no autograd, for at least one sparse operand (PyTorch's mul_out_sparse rules):
    - sparse * dense, dense * sparse: the sparse operand's entries, each times the dense value at its index;
    - two coalesced sparse tensors: the entries they share (coalesced);
    - otherwise the uncoalesced operand's entries (the second's if both are), each times the other operand's (summed)
      value at its index."""
    dt = _dtypes.promote_types(a.dtype, b.dtype).np   # (PyTorch's promotion: NumPy's int64 * float32 is float64)
    if not isinstance(a, SparseTensor) or not isinstance(b, SparseTensor):
        s, d = (a, b) if isinstance(a, SparseTensor) else (b, a)
        vals = _gather(d.detach() if not isinstance(d, SparseTensor) else d, s._idx._data)._data.astype(dt) * \
            s._vals._data.astype(dt)
        return _make(s._idx._data, vals, s._size, s._coalesced)
    if a._coalesced and b._coalesced:
        ka = np.ravel_multi_index(tuple(a._idx._data), a._size[: a.sparse_dim()])
        kb = np.ravel_multi_index(tuple(b._idx._data), b._size[: b.sparse_dim()])
        common, ia, ib = np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
        idx = a._idx._data[:, ia]
        return _make(idx, a._vals._data[ia].astype(dt) * b._vals._data[ib].astype(dt), a._size, True)
    s, d = (a, b) if b._coalesced else (b, a)
    vals = d._data[tuple(s._idx._data)].astype(dt) * s._vals._data.astype(dt)
    return _make(s._idx._data, vals, s._size, False)


def mul(a, b) -> Tensor:
    """a * b with a sparse operand (MulBackward0); a number or a 0-dim dense tensor scales the entries."""
    if _is_scalar(b):
        return _scale(a, b, "MulBackward0")
    if _is_scalar(a):   # (a 0-dim tensor first: its edge first; a number: x.mul(2), as PyTorch's 2 * x)
        return _scale(b, a, "MulBackward0", other_first=isinstance(a, Tensor))
    if a._data.shape != b._data.shape:
        raise RuntimeError("mul(sparse, dense) of differently shaped tensors is not supported by minigrad")
    out = _product(a, b)
    # d(a·b) = g·b for a, g·a for b, with the same sparse products
    return _record("MulBackward0", out, (a, b), lambda g: (_product(g, b) if _sparse_in(g, b) else g * b,
                                                           _product(g, a) if _sparse_in(g, a) else g * a),
                   {"self": a, "other": b})


def div(a, b, rounding_mode=_NO_ROUNDING_MODE) -> Tensor:
    """a / b with a sparse operand: a sparse a over a number or a 0-dim dense tensor (PyTorch's div_sparse; with a
    rounding_mode, its div.Tensor_mode: DivBackward2)."""
    if not _is_scalar(b):
        raise RuntimeError(f"Sparse division requires a scalar or zero-dim dense tensor divisor (got shape "
                           f"{list(b.shape)} for divisor)")
    if rounding_mode is _NO_ROUNDING_MODE:
        return _scale(a, b, "DivBackward0")
    return _scale(a, b, "DivBackward2", rounding_mode=rounding_mode)


def floor_divide(a: SparseTensor, b, name: str = "floor_divide") -> Tensor:
    """a // b: div(a, b, rounding_mode='floor'), with no derivative (a NotImplemented node, as PyTorch's)."""
    from .derivatives import _not_implemented
    if not _is_scalar(b):
        raise RuntimeError(f"Sparse floor division requires a scalar or zero-dim dense tensor divisor (got shape "
                           f"{list(b.shape)} for divisor)")
    with grad_mode.no_grad():
        out = div(a, b, "floor")
    formula = _not_implemented(name)
    divisor = b if isinstance(b, Tensor) else None
    return _record("NotImplemented", out, (a, divisor), lambda g: (formula(g), None))


def _sparse_in(*tensors) -> bool:
    return any(isinstance(t, SparseTensor) for t in tensors)


def _is_scalar(x) -> bool:
    """A number or a 0-dim dense tensor: a factor or divisor that scales a sparse tensor's entries."""
    return not isinstance(x, Tensor) or (x.dim() == 0 and not isinstance(x, SparseTensor))


def _scale(s: SparseTensor, other, name: str, other_first: bool = False, rounding_mode=None) -> Tensor:
    """s * other, s / other (``other_first``: other * s) for a number or a 0-dim dense tensor ``other``: the entries
    scaled (MulBackward0, DivBackward0; DivBackward2 for div's rounding_mode overload, whose 'floor' and 'trunc' round
    the quotients of the coalesced entries: a step function, zero gradients). A tensor ``other`` has an edge:
    d(s·t)/dt = Σ g·s, d(s/t)/dt = -Σ g·s/t². As PyTorch's, each operand is saved when the other one requires grad
    (a number as a 0-dim tensor), a divisor always."""
    from ._creation import tensor as _tensor
    # (a number is a wrapped 0-dim tensor, of double precision for a Python float or complex, as PyTorch's)
    wrapped = {float: _dtypes.float64, complex: _dtypes.complex128}.get(type(other))
    t = other if isinstance(other, Tensor) else _tensor(other, dtype=wrapped)
    number = t.item()
    mul, rounded = name == "MulBackward0", rounding_mode is not None
    idx, vals, coalesced = s._idx._data, s._vals._data, s._coalesced
    if rounded and not coalesced:
        (idx, vals), coalesced = _coalesce(idx, vals, s._size), True
    with grad_mode.no_grad():
        v = Tensor._make(vals)
        vals = v * number if mul else v.div(number, rounding_mode=rounding_mode) if rounded else v / number
    out = _make(idx, vals._data, s._size, coalesced)

    def backward(g):
        if rounded:
            gs, gt = _zeros_like(g), _zeros_like(t)
        else:
            # (derivatives.yaml's: grad · conj(other), grad / conj(other), their Σ for the 0-dim operand)
            conj = number.conjugate()
            gs = g * conj if mul else g / conj
            gt = ((g * s.conj()).sum() if mul else (-g * (s / number / number).conj()).sum()).to(t.dtype) \
                if t._requires_grad else None
        gt = gt if t._requires_grad else None
        return (gt, gs) if other_first else (gs, gt)
    operand = other if isinstance(other, Tensor) else None
    first, second = (t, s) if other_first else (s, t)
    if mul:
        saved = {"other": second if first._requires_grad else None, "self": first if second._requires_grad else None}
    else:
        saved = {"other": t, "self": s if t._requires_grad else None}
        if name == "DivBackward2":
            saved["rounding_mode"] = rounding_mode
    return _record(name, out, (operand, s) if other_first else (s, operand), backward, saved)


# ---- elementwise functions --------------------------------------------------------------------------------------
# A function with f(0) = 0 keeps a tensor sparse: PyTorch's sparse kernel applies f to the values of the coalesced
# input (its indices, a coalesced result; neg, linear, keeps the entries as they are); the in-place form refuses an
# uncoalesced tensor instead. The backward formulas are derivatives.yaml's, run on sparse tensors (the incoming
# gradient is sparse, or dense): where one needs an operation with no sparse kernel (cos, sparse + 1 ...), PyTorch's
# backward raises that operation's error, and so do these. Each entry: (node name, saved names, the gradient of
# self from (grad, self, result)); no backward for a bool result.

def _zeros_like(g: Tensor) -> Tensor:
    """zeros_like(g): a sparse g's has no entries."""
    if isinstance(g, SparseTensor):
        return g._detached_copy().zero_()
    from ._creation import zeros_like
    return zeros_like(g)


def _needs(op: str):
    """A formula that calls ``op``, which has no sparse kernel: the dispatcher's error."""
    def backward(g, x, y):
        raise _not_for_sparse(op)
    return backward


def _threshold_backward(g, x, y):
    """relu: threshold_backward(grad, result, 0), value by value: both coalesced, with as many entries."""
    if not isinstance(g, SparseTensor):
        raise _not_for_sparse("aten::_nnz", "CPU")
    g = g.coalesce()
    n, m = y._nnz(), g._nnz()
    if n != m:
        raise RuntimeError(f"The size of tensor a ({n}) must match the size of tensor b ({m}) at non-singleton "
                           "dimension 0")
    return _like(y, np.where(y._vals._data <= 0, 0, g._vals._data).astype(g._vals._data.dtype))   # (NaN passes)


def _log1p_backward(g, x, y):
    """d log(1 + x) = 1 / (1 + x), on x made dense (PyTorch warns it)."""
    import warnings
    warnings.warn("log1p_backward: received self with sparse layout, but backward requires materialization of a "
                  "dense tensor with this shape (Triggered internally at "
                  "/__w/pytorch/pytorch/torch/csrc/autograd/FunctionsManual.cpp:5341.)", UserWarning, stacklevel=2)
    return g * (x.to_dense() + 1).conj().reciprocal()


def _sgn_backward(g, x, y):
    """Real x: zeros (an _efficientzerotensor of x's layout, which has no sparse kernel); complex x:
    (g - Re(g·conj(sgn x))·sgn x) / |x|, written g / |x| - ...: the division by a sparse |x| is refused."""
    if not x.is_complex():
        raise _not_for_sparse("aten::_efficientzerotensor")
    return div(g, x.abs())


def _atanh_backward(g, x, y):
    # (d atanh x = 1 / (1 - x²): PyTorch's formula stops at a strided-only allocation)
    raise RuntimeError("memory format option is only supported by strided tensors")


_ROUNDING = ((), lambda g, x, y: _zeros_like(g))   # (a step function: zero gradient)
_UNARY = {
    "abs": ("AbsBackward0", ("self",), lambda g, x, y: g * x.sgn()),              # d|x| = sgn(x)
    "sgn": ("SgnBackward0", ("result", "self"), _sgn_backward),
    "sign": ("SignBackward0", *_ROUNDING),
    "sin": ("SinBackward0", ("self",), lambda g, x, y: g * x.cos()),               # d sin x = cos x
    "sinh": ("SinhBackward0", ("self",), lambda g, x, y: g * x.cosh()),            # d sinh x = cosh x
    "tan": ("TanBackward0", ("result",), lambda g, x, y: g * (1 + y.pow(2))),      # d tan x = 1 + tan² x
    "tanh": ("TanhBackward0", ("result",), _needs("aten::tanh_backward")),         # (1 - tanh² x)
    "asin": ("AsinBackward0", ("self",), lambda g, x, y: g * (-x * x + 1).rsqrt()),   # 1 / √(1 - x²)
    "asinh": ("AsinhBackward0", ("self",), lambda g, x, y: g * (x.pow(2) + 1).rsqrt()),   # 1 / √(x² + 1)
    "atan": ("AtanBackward0", ("self",), lambda g, x, y: g / (x * x + 1)),        # 1 / (1 + x²)
    "atanh": ("AtanhBackward0", ("self",), _atanh_backward),
    "sqrt": ("SqrtBackward0", ("result",), lambda g, x, y: div(g, 2 * y)),        # d √x = 1 / (2√x)
    "ceil": ("CeilBackward0", *_ROUNDING),
    "floor": ("FloorBackward0", *_ROUNDING),
    "round": ("RoundBackward0", *_ROUNDING),
    "trunc": ("TruncBackward0", *_ROUNDING),
    "frac": ("FracBackward0", (), lambda g, x, y: g),                              # d (x - trunc x) = 1
    "expm1": ("Expm1Backward0", ("result",), lambda g, x, y: g * (y + 1)),        # d (eˣ - 1) = eˣ
    "log1p": ("Log1PBackward0", ("self",), _log1p_backward),
    "relu": ("ReluBackward0", ("result",), _threshold_backward),
    "deg2rad": ("Deg2RadBackward0", (), lambda g, x, y: g * (math.pi / 180)),
    "rad2deg": ("Rad2DegBackward0", (), lambda g, x, y: g * (180 / math.pi)),
    "nan_to_num": ("NanToNumBackward0", ("self",), lambda g, x, y: g * x.isfinite()),   # 1 where x is finite
    "erf": ("ErfBackward0", ("self",), lambda g, x, y: 2 / math.sqrt(math.pi) * (-x.pow(2)).exp() * g),
    "erfinv": ("ErfinvBackward0", ("self",), lambda g, x, y: 0.5 * math.sqrt(math.pi) * x.erfinv().pow(2).exp() * g),
    "signbit": (None, (), None), "isnan": (None, (), None), "isinf": (None, (), None),
    "isposinf": (None, (), None), "isneginf": (None, (), None),
}
_ALIASES = {"absolute": "abs", "arcsin": "asin", "arcsinh": "asinh", "arctan": "atan", "arctanh": "atanh",
            "fix": "trunc"}
# Elementwise functions with no sparse kernel (f(0) != 0, or none written): name -> the operator PyTorch names
_NO_KERNEL = {name: f"aten::{name}" for name in (
    "cos", "cosh", "acos", "acosh", "exp", "exp2", "log", "log2", "log10", "sigmoid", "reciprocal", "rsqrt",
    "sinc", "lgamma", "digamma", "i0", "logit", "erfc", "angle", "bitwise_not")}
_NO_KERNEL.update(isfinite="aten::ne.Scalar", logical_not="aten::logical_not.out")


def _unary(input: SparseTensor, name: str, *args, **kwargs) -> SparseTensor:
    """``name(input)`` for a function of _UNARY: f of the coalesced values, at their indices."""
    node, saved, backward = _UNARY[name]
    if "out" in kwargs:
        if name in ("relu", "isnan", "isinf"):   # (no out= overload: Python's error)
            raise TypeError(f"{name}() got an unexpected keyword argument 'out'")
        target = kwargs.pop("out")
        return _into_out(name, input, target, lambda: _unary(input, name, *args, **kwargs))
    if name == "round" and (args or kwargs):
        raise _not_for_sparse("aten::round.decimals")
    idx, vals = input._idx._data, input._vals._data
    if not input._coalesced:
        idx, vals = _coalesce(idx, vals, input._size)
    with grad_mode.no_grad():
        values = getattr(Tensor._make(vals), name)(*args, **kwargs)._data
    out = _make(idx, values, input._size, True)
    if backward is None:
        return out
    y = _make(idx, values, input._size, True)   # (the result without its node: no reference cycle)
    y._version_counter = out._version_counter   # (an in-place change of the result is caught in backward)
    slots = {"self": input, "result": y}
    return _record(node, out, (input,), lambda g: (backward(g, input, y),), {k: slots[k] for k in saved})


_COMPLEX_ABS_ = "In-place abs is not supported for complex tensors."


def _unary_(self: SparseTensor, name: str, *args, **kwargs) -> SparseTensor:
    """In-place ``name``: the input must be coalesced."""
    before = self._inplace_checked()
    # (|z| is real: it cannot go back into z; refused before the kernel's coalesced check when autograd records)
    complex_abs = name == "abs" and self.is_complex()
    if complex_abs and before._requires_grad and grad_mode.STATE.enabled:
        raise RuntimeError(_COMPLEX_ABS_)
    if not self._coalesced:
        raise RuntimeError(f"{name}_ requires coalesced input")
    if complex_abs:
        raise RuntimeError(_COMPLEX_ABS_)
    if name == "round" and (args or kwargs):
        raise _not_for_sparse("aten::round_.decimals")
    if name not in ("asinh", "atanh"):
        return self._take(_unary(before, name, *args, **kwargs), name, in_values=True)
    # (PyTorch has no derivative for asinh_ / atanh_: their nodes, AsinhBackward1 ..., raise in backward)
    from .derivatives import _not_differentiable
    with grad_mode.no_grad():
        out = _unary(before, name, *args, **kwargs)
    formula = _not_differentiable(f"inplace version of {name}")
    return self._take(_record(_UNARY[name][0][:-1] + "1", out, (before,), lambda g: (formula(g),)), name)


def _into_out(name: str, input: SparseTensor, target, compute, checked: bool = True) -> SparseTensor:
    """``name(input, out=target)``: not differentiable; a sparse ``target`` takes the entries and size of
    ``compute()``, with PyTorch's checks of out='s dtype (unless not ``checked``: _out_args._checked, the functions
    that keep the dtype checked first) and a cast that never goes down a kind."""
    if target is None:
        return compute()
    if grad_mode.STATE.enabled and (input._requires_grad or target._requires_grad):
        raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic differentiation, "
                           "but one of the arguments requires grad.")
    if not isinstance(target, SparseTensor):
        raise RuntimeError("Expected self.is_sparse() && result.is_sparse() to be true, but got false.  (Could this "
                           "error message be improved?  If so, please report an enhancement request to PyTorch.)")
    from ._out_args import _SAME_DTYPE, _checked
    if checked and name in _SAME_DTYPE and target.dtype is not input.dtype:   # (before the kernel's dtype errors)
        raise RuntimeError(f"Found dtype {_legacy_name(target.dtype)} but expected {_legacy_name(input.dtype)}")
    result = _checked(name, compute, target, (input,))() if checked else compute()
    target._take(result, name)
    target._size = result._size
    return target


def _neg(input: SparseTensor, *, out=None) -> SparseTensor:
    """torch.neg(s): -s (its entries kept as they are, uncoalesced too); into ``out``, as PyTorch's neg_out: the
    entries copied there (cast to its dtype), then negated."""
    return -input if out is None else _into_out("neg", input, out, lambda: -input.to(out.dtype), checked=False)


def _pow(input: SparseTensor, exponent, *, out=None) -> SparseTensor:
    """input ** exponent for a real number exponent other than 0, in input's dtype (PowBackward0: d xᵉ = e·xᵉ⁻¹)."""
    if out is not None:
        return _into_out("pow", input, out, lambda: _pow(input, exponent))
    if isinstance(exponent, Tensor):
        raise _not_for_sparse("aten::pow.Tensor_Tensor")
    if isinstance(exponent, complex):   # (the sparse kernel takes a double)
        raise RuntimeError("value cannot be converted to type double without overflow")
    if exponent == 0:
        raise RuntimeError("pow: cannot raise to zeroth power on sparse tensor; it would make the result tensor dense")
    idx, vals = input._idx._data, input._vals._data
    if not input._coalesced:
        idx, vals = _coalesce(idx, vals, input._size)
    with grad_mode.no_grad():
        values = Tensor._make(vals).pow(exponent)
    if values.dtype is not input.dtype:   # (written into a result of input's dtype: never cast down a kind)
        if values.dtype._kind > input.dtype._kind:
            raise RuntimeError(f"result type {_dtypes.legacy_name(values.dtype)} can't be cast to the desired output "
                               f"type {_dtypes.legacy_name(input.dtype)}")
        values = values.to(input.dtype)
    out = _make(idx, values._data, input._size, True)
    return _record("PowBackward0", out, (input,), lambda g: (g * (exponent * input.pow(exponent - 1)).conj(),),
                   {"exponent": exponent, "self": input})


def mm(mat1: Tensor, mat2: Tensor) -> Tensor:
    """sparse @ dense (SparseAddmmBackward0; the sparse operand's gradient is masked to its entries)."""
    return _addmm(None, mat1, mat2, 0, 1)


def addmm(mat: Tensor, mat1: Tensor, mat2: Tensor, *, beta=1, alpha=1) -> Tensor:
    """beta·mat + alpha·(sparse @ dense)."""
    return _addmm(mat, mat1, mat2, beta, alpha)


def check_mm(mat1: Tensor, mat2: Tensor) -> None:
    """PyTorch's errors of ``mm`` with a sparse operand, in its order (its ``size`` calls raise the first ones)."""
    if isinstance(mat1, SparseTensor) and isinstance(mat2, SparseTensor):
        for name, t in (("mat1", mat1), ("mat2", mat2)):
            if t.dim() != 2:
                raise RuntimeError(f"Expected {name}_.dim() == 2 to be true, but got false.  (Could this error "
                                   "message be improved?  If so, please report an enhancement request to PyTorch.)")
        return
    if isinstance(mat1, SparseTensor):   # (_sparse_mm's result of zeros(mat1.size(-2), mat2.size(1)) comes first)
        sparse, dense = mat1, mat2
        mat1.size(-2)
        mat2.size(1)
        inner, dense_rows = mat1.size(-1), mat2.size(0)
    else:   # dense @ sparse: computed as (sparseᵀ @ denseᵀ)ᵀ
        sparse, dense = mat2, mat1
        mat1.size(-2)
        mat2.size(-2)
        if mat2.dim() > mat2.sparse_dim():
            raise RuntimeError(f"sparse transpose: transposed dimensions must be sparse Got sparse_dim: "
                               f"{mat2.sparse_dim()}, d0: {mat2.dim() - 2}, d1: {mat2.dim() - 1}")
        inner, dense_rows = mat2.size(-2), mat1.size(-1)
    if sparse.sparse_dim() != 2:
        raise RuntimeError(f"addmm: matrices expected, got {sparse.sparse_dim()}D tensor")
    if sparse.dense_dim() != 0:
        raise RuntimeError(f"addmm: scalar values expected, got {sparse.dense_dim()}D values")
    if dense.dim() != 2:
        raise RuntimeError(f"addmm: matrices expected, got {dense.dim()}D tensor")
    if inner != dense_rows:
        raise RuntimeError(f"addmm: Argument #3 (dense): Expected dim 0 size {inner}, got {dense_rows}")


def check_matmul(input: Tensor, other: Tensor) -> None:
    """``matmul`` of a sparse operand with a 3-d or larger one: PyTorch folds the larger operand into a matrix
    (a reshape) when the other has at most 2 dims, else expands both to a batch; sparse tensors refuse both."""
    larger, smaller = (input, other) if input.dim() >= other.dim() else (other.mT, input)
    # (should_fold: a 2-d input in front is not folded, unless the larger operand requires grad)
    fold = larger.dim() >= 3 and smaller.dim() <= 2 and (larger.requires_grad or input.dim() != 2)
    if fold and larger.is_sparse:
        raise RuntimeError("reshape is not implemented for sparse tensors")
    if not fold:
        raise RuntimeError("expand is unsupported for Sparse tensors")


def check_addmm(input: Tensor, mat1: Tensor, mat2: Tensor) -> None:
    """PyTorch's errors of ``addmm`` with a sparse operand: ``input`` expanded to the product's shape first."""
    input.expand(mat1.size(-2), mat2.size(1))
    check_mm(mat1, mat2)


def sparse_sparse_mm(a: SparseTensor, b: SparseTensor, name: str = "SparseSparseMatmulBackward0") -> Tensor:
    """a @ b of two sparse matrices, sparse (torch.sparse.mm: SparseSparseMatmulBackward0; torch.mm: MmBackward0).

    The result holds every entry where a's and b's patterns meet (PyTorch's symbolic CSR product: an entry whose
    terms cancel stays, as a zero), coalesced. Gradients: g @ bᵀ for a, aᵀ @ g for b; sparse_sparse_matmul_backward
    zeroes the products' entries outside the operands' patterns, mm's (mm_mat1_backward's fallback) keeps them.
    """
    check_mm(a, b)
    if a._data.shape[1] != b._data.shape[0]:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({a._size[0]}x{a._size[1]} and "
                           f"{b._size[0]}x{b._size[1]})")
    if a.dtype is not b.dtype:
        raise RuntimeError(f"mat1 dtype {_legacy_name(a.dtype)} does not match mat2 dtype {_legacy_name(b.dtype)}")
    out = _sparse_product(a, b)

    def backward(g):
        if name == "MmBackward0":
            if isinstance(g, SparseTensor):
                return sparse_sparse_mm(g, b.t(), name), sparse_sparse_mm(a.t(), g, name)
            return g.mm(b.to_dense().t()), a.to_dense().t().mm(g)
        if isinstance(g, SparseTensor):   # (the products' entries kept; those outside the operand's pattern zeroed)
            return _zeroed_outside(_sparse_product(g, b.t()), a), _zeroed_outside(_sparse_product(a.t(), g), b)
        return _sparse_mask(g.mm(b.to_dense().t()), a), _sparse_mask(a.to_dense().t().mm(g), b)
    saved = {"self": a, "other": b} if name != "MmBackward0" else {
        "mat2": b, "mat2_sym_sizes": b._size, "mat2_sym_strides": (), "self": a, "self_sym_sizes": a._size,
        "self_sym_strides": ()}   # (mm's saved sizes and strides: a sparse tensor has no strides)
    return _record(name, out, (a, b), backward, saved)


def _pattern(s: SparseTensor) -> np.ndarray:
    """1 where ``s`` (a sparse matrix) has an entry, else 0 (a dense int64 matrix)."""
    pattern = np.zeros(s._size, dtype=np.int64)
    pattern[tuple(s._idx._data)] = 1
    return pattern


def _sparse_product(a: SparseTensor, b: SparseTensor) -> SparseTensor:
    """a @ b with no autograd: the entries where the patterns meet, coalesced (row-major)."""
    idx = np.array(np.nonzero(_pattern(a) @ _pattern(b)), dtype=np.int64).reshape(2, -1)
    return _make(idx, (a._data @ b._data)[tuple(idx)], (a._size[0], b._size[1]), True)


def _zeroed_outside(product: SparseTensor, operand: SparseTensor) -> SparseTensor:
    """``product``'s entries, zero where ``operand`` has none (what PyTorch's sparse-sparse matmul gradient is)."""
    keep = _pattern(operand)[tuple(product._idx._data)].astype(bool)
    return _make(product._idx._data, np.where(keep, product._vals._data, 0), product._size, True)


def _legacy_name(dt) -> str:
    from ._dispatch import _legacy_scalar_name
    return _legacy_scalar_name(dt)


def _addmm(mat, mat1, mat2, beta, alpha) -> Tensor:
    if mat is None and isinstance(mat1, SparseTensor) and isinstance(mat2, SparseTensor):
        return sparse_sparse_mm(mat1, mat2)
    if not isinstance(mat1, SparseTensor):
        from ._ops import mm as dense_mm
        return dense_mm(mat1, mat2) if mat is None else mat * beta + dense_mm(mat1, mat2) * alpha
    from ._matmul import mm as np_mm
    check_mm(mat1, mat2) if mat is None else check_addmm(mat, mat1, mat2)
    prod = np_mm(mat1._data, mat2._data) if mat2.dtype == mat1.dtype else mat1._data @ mat2._data
    result = prod if alpha == 1 else prod * alpha
    if mat is not None:
        result = result + (mat._data if beta == 1 else mat._data * beta)
    out = Tensor._make(np.asarray(result, dtype=mat1._data.dtype))

    def backward(g):
        # d(beta·M + alpha·A@B): beta·g for M; alpha·g@Bᵀ at A's entries; alpha·Aᵀ@g for B (a factor of 1 is
        # left out, as PyTorch's maybe_multiply: no MulBackward0 in a double-backward graph)
        def times(t, k):
            return t if k == 1 else t * k
        gm = times(g, beta) if mat is not None else None
        ga = _sparse_mask(times(g.mm(mat2.t()), alpha), mat1)
        gb = times(mat1.t().to_dense().mm(g), alpha)
        return (gm, ga, gb) if mat is not None else (ga, gb)
    inputs = (mat, mat1, mat2) if mat is not None else (mat1, mat2)
    return _record("SparseAddmmBackward0", out, inputs, backward, {"mat1": mat1, "mat2": mat2, "alpha": alpha})


def _dims(input: SparseTensor, dim) -> tuple:
    """``dim`` (an int or a sequence) as sorted non-negative dims."""
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    return tuple(sorted(input._wrap_dim(d, input.dim()) for d in dims))


def _summed(input: SparseTensor, dims: tuple, keepdim: bool, dtype) -> Tensor:
    """The entries summed over ``dims`` (no autograd): sparse while a sparse dim remains, else dense."""
    nsparse = input.sparse_dim()
    vals = input._vals._data if dtype is None else input._vals._data.astype(dtype.np)
    dense_axes = tuple(d - nsparse + 1 for d in dims if d >= nsparse)
    if dense_axes:
        vals = vals.sum(axis=dense_axes, keepdims=keepdim)
    summed = [d for d in dims if d < nsparse]
    if len(summed) == nsparse:  # every sparse dim summed: a dense result
        total = np.asarray(vals.sum(axis=0))
        return Tensor._make(total.reshape((1,) * nsparse + total.shape) if keepdim else total)
    size = tuple(1 if d in dims else n for d, n in enumerate(input._size) if keepdim or d not in dims)
    if keepdim:  # (a summed dim stays, of size 1: its indices all 0)
        idx = input._idx._data.copy()
        idx[summed] = 0
    else:
        idx = input._idx._data[[d for d in range(nsparse) if d not in dims]]
    idx, vals = _coalesce(idx, vals, size)
    return _make(idx, vals, size, True)


def sum(input: Tensor, dim=None, dtype=None) -> Tensor:  # noqa: A001  (torch.sparse.sum)
    """The sum of all entries (a dense scalar), or over ``dim`` (a sparse tensor when sparse dims remain)."""
    if not isinstance(input, SparseTensor):
        if dim is None:
            raise RuntimeError("coalesce expected sparse coordinate tensor layout but got Strided")
        raise _not_for_sparse("aten::_indices", "CPU")
    if dim is None:  # PyTorch's _sparse_sum: input.coalesce().values().sum(dtype) (a dense scalar)
        return input.coalesce().values().sum(dtype=dtype)
    dims = _dims(input, dim)
    if input.is_complex() and input._requires_grad and grad_mode.STATE.enabled:
        raise RuntimeError("_sparse_sum does not support automatic differentiation for outputs with complex dtype.")
    out = _summed(input, dims, False, dtype)

    def backward(g):
        # each stored entry gets the gradient of the output entry it was summed into
        gd = _dense(g)
        for d in dims:
            gd = gd.unsqueeze(d)
        return (_sparse_mask(gd.expand(input._size), input),)
    return _record("SparseSumBackward0", out, (input,), backward, {"self": input, "dim": dims})


def _sum_method(input: SparseTensor, dim, keepdim: bool, dtype) -> Tensor:
    """``s.sum(dim, keepdim)`` (SumBackward1): as torch.sparse.sum, but its gradient must be dense."""
    dims = _dims(input, dim)
    out = _summed(input, dims, keepdim, dtype)
    sizes = input._size

    def backward(g):
        # the output's gradient repeated along the summed dims (no expand of a sparse tensor, as PyTorch)
        if isinstance(g, SparseTensor):
            raise RuntimeError("expand is unsupported for Sparse tensors")
        if not keepdim:
            for d in dims:
                g = g.unsqueeze(d)
        return (g.expand(sizes),)
    return _record("SumBackward1", out, (input,), backward,
                   {"dim": dims, "keepdim": keepdim, "self_sym_sizes": tuple(sizes)})


def _line_softmax(x: np.ndarray, log: bool) -> np.ndarray:
    """(log_)softmax over axis 0, as PyTorch's sparse kernel: in double (its accumulation type on the CPU), the
    max skipping NaNs (std::max from -inf), glibc's exp, Σ in order; softmax stores e^(x - max) rounded, then
    multiplies by 1/Σ; log_softmax subtracts max + log Σ."""
    from ._softmax_cpu import _KERNELS
    wide = x.astype(np.float64)
    top = np.fmax.reduce(wide, axis=0, initial=-np.inf)
    e = _KERNELS[wide.dtype].scalar_exp(wide - top)
    total = np.add.accumulate(e, axis=0)[-1]
    if log:
        return (wide - (top + np.log(total))).astype(x.dtype)
    return (e.astype(x.dtype).astype(np.float64) * (1.0 / total)).astype(x.dtype)


def _line_softmax_backward(g: np.ndarray, y: np.ndarray, log: bool) -> np.ndarray:
    """d (log_)softmax over axis 0, as PyTorch's sparse kernel: t = -Σ g·y (log_softmax: -Σ g) in order, in the
    values' dtype, then y·(g + t) (log_softmax: g + e^y·t, glibc's exp)."""
    from ._softmax_cpu import _KERNELS
    t = np.zeros(y.shape[1:], y.dtype)
    for k in range(len(y)):
        t = t - (g[k] if log else y[k] * g[k])
    return g + _KERNELS[y.dtype].scalar_exp(y) * t if log else y * (g + t)


def _softmax(input: SparseTensor, dim: int, log: bool) -> SparseTensor:
    """Softmax over each line of stored entries along ``dim`` (entries not stored count as -inf)."""
    if not isinstance(input, SparseTensor):
        raise _not_for_sparse("aten::_sparse_log_softmax" if log else "aten::_sparse_softmax", "CPU")
    if not input.is_floating_point():
        name = "log_softmax" if log else "softmax"
        raise NotImplementedError(f"\"{name}\" not implemented for '{_dtypes.legacy_name(input.dtype)}'")
    s = input.coalesce()
    dim = dim % input.dim()
    idx, vals = s._idx._data, s._vals._data
    others = [d for d in range(idx.shape[0]) if d != dim]
    key = np.ravel_multi_index(tuple(idx[others]), tuple(s._size[d] for d in others)) if others else \
        np.zeros(idx.shape[1], dtype=np.int64)
    out_vals = np.empty_like(vals)
    groups = [np.flatnonzero(key == k) for k in np.unique(key)]
    for rows in groups:
        out_vals[rows] = _line_softmax(vals[rows], log)
    out = _make(idx, out_vals, s._size, True)

    def backward(g):
        gv = _gather(_dense(g), idx)._data
        res = np.empty_like(out_vals)
        for rows in groups:
            res[rows] = _line_softmax_backward(gv[rows], out_vals[rows], log)
        return (_like(s, res),)
    name = "SparseLogSoftmaxBackward0" if log else "SparseSoftmaxBackward0"
    return _record(name, out, (input,), backward, {"self": input, "dim": dim})


def softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """Softmax of the stored entries along ``dim`` (the missing ones are -inf, so they stay missing), of input
    cast to ``dtype`` first if given."""
    return _softmax(input if dtype is None else input.to(dtype), dim, log=False)


def log_softmax(input: Tensor, dim: int, *, dtype=None) -> Tensor:
    """log of ``softmax``."""
    return _softmax(input if dtype is None else input.to(dtype), dim, log=True)


# ---- nn.Embedding(sparse=True) --------------------------------------------------------------------------------
def embedding_grad(grad: Tensor, indices: Tensor, num_weights: int, padding_idx: int) -> SparseTensor:
    """Embedding's sparse weight gradient: one entry per looked-up index (not the padding one), uncoalesced."""
    idx = indices._data.reshape(-1)
    vals = grad._data.reshape(-1, grad._data.shape[-1])
    # (PyTorch's values are grad.reshape(-1, features): a view when it can be, so the gradient of x.sum() (an
    # expanded one) gives non-contiguous values, which decide how a later gradient is added to it: _accumulate)
    strided = not vals.flags.c_contiguous and padding_idx < 0
    if padding_idx >= 0:
        keep = idx != padding_idx
        idx, vals = idx[keep], vals[keep]
    out = _make(idx.reshape(1, -1), np.array(vals), (num_weights, grad._data.shape[-1]), False)
    out._strided_values = strided
    return out


# Dense tensors' conversions (a sparse tensor's own methods above take precedence).
Tensor.to_sparse = _as_sparse_method
Tensor.to_sparse_coo = _as_sparse_method
Tensor.to_dense = _to_dense_method


# A sparse tensor's elementwise methods, and torch's functions called on one (overrides.LAYOUT_KERNELS)
def _unary_method(name: str, op: str, inplace: bool):
    """``s.name()``: ``op``'s sparse kernel (in place: ``_unary_``)."""
    def method(self, *args, **kwargs):
        return (_unary_ if inplace else _unary)(self, op, *args, **kwargs)
    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    return method


def _refusing_method(name: str, op: str):
    """``s.name()`` of a function with no sparse kernel: the dispatcher's error."""
    def method(self, *args, **kwargs):
        raise _not_for_sparse(op)
    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    return method


def _neg_(self) -> SparseTensor:
    """In-place negation (an uncoalesced tensor too: it keeps its entries)."""
    return self._take(-self._inplace_checked(), "", in_values=True)


def _conj_physical_(self) -> SparseTensor:
    """In-place conjugate: a real tensor's values stay (ConjPhysicalBackward1); PyTorch has no complex kernel."""
    if self.is_complex():
        raise RuntimeError("unsupported tensor layout: Sparse")
    out = _make(self._idx._data, self._vals._data, self._size, self._coalesced)
    return self._take(_record("ConjPhysicalBackward1", out, (self._inplace_checked(),), lambda g: (g,)), "")


def _conj(self) -> SparseTensor:
    """conj / conj_physical: a real tensor itself; a complex one's entries with their values conjugated, in new
    memory (ConjPhysicalBackward0: d conj(z) = conj(g))."""
    if not self.is_complex():
        return self
    out = _make(self._idx._data, np.conj(self._vals._data), self._size, self._coalesced)
    return _record("ConjPhysicalBackward0", out, (self,), lambda g: (g.conj(),))


def _pow_(self, exponent) -> SparseTensor:
    raise _not_for_sparse("aten::pow_.Tensor" if isinstance(exponent, Tensor) else "aten::pow_.Scalar")


def _rpow(self, base) -> SparseTensor:
    """``base ** s``: refused (a dense tensor base's ``d ** s`` comes here first, s's class being a subclass)."""
    raise _not_for_sparse("aten::pow.Tensor_Tensor" if isinstance(base, Tensor) else "aten::pow.Scalar")


_METHODS = {"neg": _neg, "negative": _neg, "neg_": _neg_, "negative_": _neg_, "conj": _conj, "conj_physical": _conj,
            "conj_physical_": _conj_physical_,
            "pow": _pow, "__pow__": _pow, "pow_": _pow_, "__ipow__": _pow_, "__rpow__": _rpow,
            "square": lambda self, *, out=None: _pow(self, 2, out=out), "square_": lambda self: _pow_(self, 2)}
for _name, _op in (*((n, n) for n in _UNARY), *_ALIASES.items()):
    _METHODS[_name] = _unary_method(_name, _op, False)
    if _UNARY[_op][0] is not None:   # (no in-place form of the bool-valued ones)
        _METHODS[_name + "_"] = _unary_method(_name + "_", _op, True)
for _name, _op in _NO_KERNEL.items():
    _METHODS[_name] = _refusing_method(_name, _op)
    if not _name.startswith(("is", "angle")):
        _METHODS[_name + "_"] = _refusing_method(_name + "_", _op if _op.endswith(".out") else _op + "_")
for _name, _fn in _METHODS.items():
    setattr(SparseTensor, _name, _fn)
_overrides.LAYOUT_KERNELS[SparseTensor] = {f"torch.{n}": f for n, f in _METHODS.items() if not n.startswith("__")}
# (F.relu calls torch.relu / torch.relu_ in PyTorch)
_overrides.LAYOUT_KERNELS[SparseTensor]["torch.nn.functional.relu"] = \
    lambda input, inplace=False: (_unary_ if inplace else _unary)(input, "relu")
_overrides.LAYOUT_KERNELS[SparseTensor].update({
    "torch.floor_divide": lambda input, other, *, out=None: _into_out(
        "floor_divide", input, out, lambda: floor_divide(input, other)),
    "torch.fill": SparseTensor.fill_, "torch.fill_": SparseTensor.fill_})


def _layout_refusal(name: str, layout: str):
    """A sparse tensor's accessor on a dense one: PyTorch's layout check refuses it."""
    def method(self):
        raise RuntimeError(f"{name} expected {layout} layout but got Strided")
    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    return method


def _no_dense_kernel(name: str, takes_args: bool = False):
    """A sparse-only operator called on a dense tensor: PyTorch's dispatcher finds no CPU kernel."""
    def method(self):
        raise _not_for_sparse(f"aten::{name}", "CPU")

    def method_with_args(self, *args):
        raise _not_for_sparse(f"aten::{name}", "CPU")
    method = method_with_args if takes_args else method
    method.__name__, method.__qualname__ = name, f"Tensor.{name}"
    return method


def _dense_sparse_dim(self) -> int:
    """A dense tensor's sparse dims: none."""
    return 0


def _dense_dense_dim(self) -> int:
    """A dense tensor's dense dims: all of them."""
    return self.dim()


# A dense tensor's sparse attributes (the accessors refuse it)
for _name, _fn in (("sparse_dim", _dense_sparse_dim), ("dense_dim", _dense_dense_dim)):
    _fn.__name__, _fn.__qualname__ = _name, f"Tensor.{_name}"
    setattr(Tensor, _name, _fn)
for _name, _expected in (("indices", "sparse coordinate tensor"), ("coalesce", "sparse coordinate tensor"),
                         ("is_coalesced", "sparse coordinate tensor"), ("values", "sparse tensor"),
                         ("crow_indices", "sparse row compressed tensor"),
                         ("col_indices", "sparse row compressed tensor"),
                         ("ccol_indices", "sparse column compressed tensor"),
                         ("row_indices", "sparse column compressed tensor")):
    setattr(Tensor, _name, _layout_refusal(_name, _expected))
for _name in ("_indices", "_values", "_nnz"):
    setattr(Tensor, _name, _no_dense_kernel(_name))
for _name in ("_coalesced_", "sparse_resize_", "sparse_resize_and_clear_"):
    setattr(Tensor, _name, _no_dense_kernel(_name, takes_args=True))
# A dense tensor's quantized accessors: only QuantizedCPU has their kernels (dequantize: the tensor itself)
for _name in ("q_scale", "q_zero_point", "q_per_channel_scales", "q_per_channel_zero_points", "q_per_channel_axis",
              "int_repr", "qscheme"):
    setattr(Tensor, _name, _no_dense_kernel(_name))


def dequantize(self):
    """A dense tensor's dequantized values: itself."""
    return self


Tensor.dequantize = dequantize
