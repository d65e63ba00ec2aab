"""Forward-mode AD: carry a tangent (a directional derivative) alongside each value.

    with forward_ad.dual_level():
        x = forward_ad.make_dual(primal, tangent)     # x "is" primal + tangent·ε
        y = f(x)
        jvp = forward_ad.unpack_dual(y).tangent       # J_f(primal) · tangent, in one forward pass

Each table op declares its forward derivative next to its backward formulas (``jvp=`` in
``derivatives.py``); ``Op.__call__`` sends every op through ``_call_with_extras`` while a level is
active. Only one level at a time, as in PyTorch.
"""
from __future__ import annotations

import weakref
from typing import Any, NamedTuple

import numpy as np

from .. import _conj
from .._class_names import TorchNamed, object_repr, torch_named_tuple
from .._per_thread import PerThreadFlag
from .grad_mode import STATE, _DecoratorContextManager
from .graph import Node

__all__ = ["UnpackedDualTensor", "enter_dual_level", "exit_dual_level", "make_dual", "unpack_dual", "dual_level"]

_level = [None]        # the active dual level (0) or None
_current_level = -1    # PyTorch's name for it (-1: none), a module global some programs read
# (the level is the process's, as PyTorch's; what follows is per thread: a thread's jvp formula or torch.func.jvp,
# and PyTorch's forward-grad mode, part of its per-thread AutogradState)
_suspended = PerThreadFlag(False)   # True while a jvp formula runs (its own ops must not propagate tangents)
DOUBLE_VJP = PerThreadFlag(0)       # > 0 while torch.func.jvp runs as the double-vjp trick (nested in a forward level)
_owners: list = []     # weak references to the tensors given a tangent at this level (cleared on exit)
_fwd_enabled = PerThreadFlag(True)  # PyTorch's forward-grad mode (torch.autograd.forward_ad._set_fwd_grad_enabled)


def _sync_extras() -> None:
    """Tell ``Op.__call__`` whether it must take the slower path (forward AD or profiler active)."""
    from .. import _dispatch, _vmap_batched
    from . import profiler
    # (a vmap in any thread: each thread's ops then read their own thread's DEPTH)
    _dispatch._extras[0] = _level[0] is not None or profiler._enabled[0] or _vmap_batched.RUNNING[0] > 0


def enter_dual_level() -> int:
    """Start a dual level (use ``dual_level()`` instead); returns its index."""
    global _current_level
    if _level[0] is not None:
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    _level[0] = _current_level = 0
    _sync_extras()
    return 0


def _current() -> int:
    """PyTorch's ``_current_level``: the active level's index, -1 when there is none."""
    return _current_level


def exit_dual_level(*, level: int | None = None) -> None:
    """End the dual level: every tangent created in it is dropped."""
    global _current_level
    level = _current() if level is None else level
    if level != _current():
        raise RuntimeError("Trying to exit a forward AD level that was not the last one that was created. "
                           "This is not supported.")
    if level < 0:  # (no level open: PyTorch asks its C++ side to exit level -1)
        raise RuntimeError("Dual level must be a positive number.")
    for ref in _owners:
        t = ref()
        if t is not None:
            t._fw_grad = None
    _owners.clear()
    _level[0], _current_level = None, -1
    _sync_extras()


def _is_fwd_grad_enabled() -> bool:
    """Whether tangents are made and propagated (PyTorch's private forward-grad mode)."""
    return _fwd_enabled[0]


def _set_fwd_grad(mode: bool) -> None:
    """Turn tangents on or off for good (PyTorch's ``torch._C._set_fwd_grad_enabled``)."""
    _fwd_enabled[0] = bool(mode)


class _set_fwd_grad_enabled(_DecoratorContextManager):
    """Turns tangents off (or on) from construction until the ``with`` block ends, as PyTorch's."""

    def __init__(self, mode: bool) -> None:
        self.prev = _fwd_enabled[0]
        _fwd_enabled[0] = bool(mode)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _fwd_enabled[0] = self.prev


class _transform_level:
    """Marks the level open as torch.func.jvp's own (``_transform_level.active``): a jvp nested in it takes
    another route, while a jvp inside a user's ``dual_level`` is PyTorch's nesting error."""

    active = False
    vmap_depth = 0         # how many vmaps were running when the level opened (see _lifted_number_dtype)
    lifts_numbers = True   # False while linearize's jvp_fn runs (PyTorch's replays a traced plain forward AD)
    hides_tangents = False  # a grad/vjp transform runs inside the level: unpack_dual sees no tangent there

    def __enter__(self) -> None:
        from .. import _vmap_batched
        self.saved = (_transform_level.active, _transform_level.vmap_depth, _transform_level.hides_tangents)
        _transform_level.active, _transform_level.vmap_depth = True, _vmap_batched.DEPTH[0]
        _transform_level.hides_tangents = False

    def __exit__(self, *exc) -> None:
        _transform_level.active, _transform_level.vmap_depth, _transform_level.hides_tangents = self.saved


class dual_level(_DecoratorContextManager, metaclass=TorchNamed):
    """Context manager (or decorator) for a forward-AD level: ``with dual_level(): ...``."""

    __repr__ = object_repr

    def __enter__(self) -> int:
        return enter_dual_level()

    def __exit__(self, *exc) -> None:
        exit_dual_level()


@torch_named_tuple
class UnpackedDualTensor(NamedTuple):
    r"""Namedtuple returned by :func:`unpack_dual` containing the primal and tangent components of the dual tensor.

    See :func:`unpack_dual` for more details.
    """

    primal: Any
    tangent: Any


def _refuse_in_vmap(name: str, *tensors) -> None:
    """PyTorch's vmap has no batching rule for _make_dual/_unpack_dual, view ops its fallback refuses, when one of
    ``tensors`` is batched (the legacy vmap of autograd.functional's vectorized jacobian has one; torch.func.jvp's
    own calls run below its transform, never reaching vmap's)."""
    from .. import _vmap_batched
    mask = 0
    for t in tensors:
        mask |= _vmap_batched.levels(t)
    if mask and not _vmap_batched.LEGACY[mask.bit_length() - 1] and not _transform_level.active:
        raise RuntimeError(f"Batching rule not implemented for aten::{name}; the fallback path doesn't work on out= "
                           "or view ops.")


def make_dual(tensor, tangent, *, level: int | None = None):
    """A view of ``tensor`` carrying ``tangent`` as its forward gradient."""
    level = _current() if level is None else level
    if level < 0:
        raise RuntimeError("Trying to create a dual Tensor for forward AD but no level exists, make sure to "
                           "enter_dual_level() first.")
    if not (tensor.is_floating_point() or tensor.is_complex()):
        raise ValueError(f"Expected primal to be floating point or complex, but got: {tensor.dtype}")
    if not (tangent.is_floating_point() or tangent.is_complex()):
        raise ValueError(f"Expected tangent to be floating point or complex, but got: {tangent.dtype}")
    _refuse_in_vmap("_make_dual", tensor, tangent)
    if STATE.inference:
        # (PyTorch's C++ checks and the tangent belong to its autograd kernel, which inference mode skips: the
        # primal's alias alone, with no tangent)
        suspended, _suspended[0] = _suspended[0], True
        try:
            return tensor.view_as(tensor)
        finally:
            _suspended[0] = suspended
    if level != _current():  # (PyTorch's C++ side: a level that was never opened, or not the one open)
        raise RuntimeError("Invalid level given to _make_dual" if _level[0] is not None else
                           "Trying to access a forward AD level with an invalid index. This index was either not "
                           "created or is already deleted.")
    if tensor.is_sparse:   # (PyTorch's alias of the primal reads its storage, which a COO tensor has not)
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")
    if tangent.shape != tensor.shape:
        raise RuntimeError("Trying to set a forward gradient that has a different size than that of the original "
                           f"Tensor, this is not supported. Tensor is of size {list(tensor.shape)} while the given "
                           f"forward gradient is of size {list(tangent.shape)}.")
    if tangent.is_sparse:  # (then its has_same_meta check reads the tangent's storage)
        raise NotImplementedError("Cannot access storage of SparseTensorImpl")
    if tensor._fw_grad is not None and _fwd_enabled[0]:   # (PyTorch's _fw_grad reads nothing with forward grads off)
        raise RuntimeError("Making a dual Tensor based on a Tensor that already has a forward gradient at the same "
                           "level 0 is not supported.")
    suspended, _suspended[0] = _suspended[0], True
    try:
        dual = tensor.view_as(tensor)  # a view, so backward still reaches ``tensor`` (ViewBackward0)
    finally:
        _suspended[0] = suspended
    # (forward grads off: the tangent is still set, as PyTorch's; it shows and propagates once they are on again)
    if not _same_meta(tangent, tensor) or tangent.is_conj() != tensor.is_conj():
        # PyTorch's set_fw_grad keeps the tangent itself only if laid out as the primal (has_same_meta: strides,
        # storage size and offset, conjugate bit); else it copies it into _new_zeros_with_same_feature_meta (the
        # primal's layout and dtype: a float64 tangent of a float32 primal becomes float32) given the primal's
        # conjugate bit (_set_conj), so a conj view primal gets a tangent that is_conj() with the given values
        from .. import _conj, _dispatch
        from .._tensor import Tensor
        copy = Tensor._make(_zeros_with_same_meta(tensor._data, tensor._data.dtype))
        # (its copy_ refuses zeros whose elements share memory: an expanded primal with a tangent of its own layout)
        _dispatch._no_internal_overlap_first(None, copy)
        if tensor.is_conj():
            _conj.set_conj_bit(copy)
        if _records(tangent):   # (a recorded copy_: backward through the tangent reaches the given one)
            suspended, _suspended[0] = _suspended[0], True
            try:
                copy.copy_(tangent)
            finally:
                _suspended[0] = suspended
        else:   # (complex into real: PyTorch's copy_ warning)
            copy._data[...] = _dispatch.cast_array(tangent._data, copy._data.dtype)
            if _conj.MIRRORS:
                _conj.after_write(copy)
        from .. import _vmap_batched
        tangent = _vmap_batched.follow(copy, tangent) if _vmap_batched.DEPTH[0] else copy   # (batched as it was)
    _set_tangent(dual, tangent)   # (its own dtype, as in PyTorch: a float64 tangent stays float64)
    return dual


def _laid_out_as(tangent, primal):
    """PyTorch's set_fw_grad "basic layout constraint": a tangent not laid out as its (non-view) primal is copied
    into zeros with the primal's strides (_new_zeros_with_same_feature_meta + copy_, recorded when the tangent
    has a history), so a tangent has its primal's strides (the LU factor's column-major ones, ...)."""
    from .. import _zerotensor
    from .._tensor import Tensor
    if _zerotensor.ZEROS and primal.numel() > 1 and _zerotensor.is_zero(tangent):
        # (a ZeroTensor's strides are 0: has_same_meta holds for one element only, else set_fw_grad copies it into
        # zeros laid out as the primal, so sgn(x)'s tangent is a ZeroTensor only for a one-element x)
        return Tensor._make(_zeros_with_same_meta(primal._data, tangent._data.dtype))
    if primal._base is not None or tangent._data.dtype.kind not in "fc" or _same_meta(tangent, primal):
        return tangent
    suspended, _suspended[0] = _suspended[0], True
    try:
        copy = Tensor._make(_zeros_with_same_meta(primal._data, tangent._data.dtype))
        if _records(tangent):
            copy.copy_(tangent)
        else:
            copy._data[...] = tangent._data
    finally:
        _suspended[0] = suspended
    from .. import _vmap_batched
    if _vmap_batched.DEPTH[0]:   # (batched as the tangent it copies, see _cast)
        _vmap_batched.mark(copy, _vmap_batched.levels(tangent))
    return copy


def _zeros_with_same_meta(primal: np.ndarray, dtype) -> np.ndarray:
    """PyTorch's _new_zeros_with_same_feature_meta: zeros in a storage as large as the primal's, seen with the
    primal's strides and offset (a primal that is part of a larger buffer, e.g. lstsq's solution rows of its
    (m, k) result, gives a tangent with the same strides)."""
    from ..derivatives import _storage
    storage, offset = _storage(primal)
    strides = [s // primal.itemsize for s in primal.strides]
    end = offset + sum((n - 1) * s for n, s in zip(primal.shape, strides)) if primal.size else offset
    if primal.size == 0 or min(strides, default=0) < 0 or end >= storage.size:
        return np.empty_like(primal, dtype=dtype)
    buf = np.zeros(storage.size, dtype)
    return np.lib.stride_tricks.as_strided(buf[offset:], primal.shape, [s * buf.itemsize for s in strides])


def _same_meta(a, b) -> bool:
    """PyTorch's has_same_meta: same strides (but along size-1 dims), storage offset and storage size."""
    from ..derivatives import _storage
    if any(n != 1 and sa != sb for n, sa, sb in zip(a.shape, a.stride(), b.stride())):
        return False
    (sa, oa), (sb, ob) = _storage(a._data), _storage(b._data)
    from .. import _vmap_batched
    if _vmap_batched.DEPTH[0] and (_vmap_batched.levels(a) or _vmap_batched.levels(b)):
        # (a batched tangent or primal, inside vmap: PyTorch's BatchedTensor has no storage of its own, its offset
        # is 0 and it passes the storage size check whatever the other's (a view P[0] of a bigger P at offset 0
        # keeps a batched tangent, P[1] does not), so the tangent is kept, and writes through it reach the tangents
        # the user gave; minigrad's slice has the offset and storage of the whole batch)
        return (0 if _vmap_batched.levels(a) else oa) == (0 if _vmap_batched.levels(b) else ob)
    return oa == ob and sa.size == sb.size


def unpack_dual(tensor, *, level: int | None = None) -> UnpackedDualTensor:
    """``(primal, tangent)`` of a dual tensor; tangent is None for an ordinary tensor."""
    level = _current() if level is None else level
    if level < 0:
        return UnpackedDualTensor(tensor, None)
    from .._tensor import Tensor
    if not isinstance(tensor, Tensor):
        raise TypeError(f"_unpack_dual(): argument 'dual' (position 1) must be Tensor, not {type(tensor).__name__}")
    _refuse_in_vmap("_unpack_dual", tensor)
    if _transform_level.hides_tangents:
        return UnpackedDualTensor(tensor, None)
    # (forward grad mode off: PyTorch's _fw_primal alias still, but no tangent)
    tangent = _base_tangent_view(tensor) if _fwd_enabled[0] else None
    if tangent is not None and level != _current():
        raise RuntimeError("Invalid level given to _fw_primal")
    # (the primal is PyTorch's _fw_primal alias, a tangent or not: a view of the tensor, Identity when it requires
    # grad)
    suspended, _suspended[0] = _suspended[0], True
    try:
        primal = tensor.view_as(tensor)
    finally:
        _suspended[0] = suspended
    primal.__dict__["_fw_primal"] = True
    if primal._grad_fn is not None:  # PyTorch's primal is an alias whose node is named Identity
        primal._grad_fn = _Identity(primal._grad_fn)
    if tangent is not None and type(primal) is not Tensor:   # (a subclass's: __torch_function__ wraps both results)
        from ..overrides import _convert
        tangent = _convert(tangent, type(primal))
    return UnpackedDualTensor(primal, tangent)


def _primals_read(op, primals) -> set:
    """The inputs whose primal value the op's forward formula reads (PyTorch's generated code takes ``self_p``
    only for the inputs its formula names)."""
    if callable(op.jvp):
        return set(op.jvp_params)
    from .._tensor import Tensor
    from .grad_mode import is_grad_enabled
    # (only the terms of inputs with a tangent; all of them when some primal requires grad: the ZeroTensor
    # terms are recorded then, see _elementwise_jvp)
    every = is_grad_enabled() and any(p.requires_grad for p in primals if isinstance(p, Tensor))
    read = set()
    for (_formula, params), name in zip(op.formulas, op.diff_inputs):
        if every or primals[op.inputs.index(name)]._fw_grad is not None:
            read.update(params)
    return read


def _fw_primal(p, made: list):
    """PyTorch's ``self_p = self._fw_primal(0)`` in a forward formula: an alias of the input whose node, when the
    input requires grad (grad mode on), is an Identity node; so the tangent's own graph reaches the primal
    through it (what backward through a tangent walks, e.g. under create_graph). The alias has no tangent of
    its own: the tangent's graph saves it, and a gradient computed from it later (``autograd.grad`` of a
    tangent inside the dual level) is a plain tensor, not a dual one. ``made`` collects the aliases: while the
    formula runs they carry the input's tangent (formulas ask a primal whether it has one: B._fw_grad is None),
    which _op_jvp takes away afterwards."""
    from .._tensor import Tensor
    from .grad_mode import is_grad_enabled
    if not isinstance(p, Tensor) or not is_grad_enabled() or not (p.requires_grad or p._fw_grad is not None):
        return p
    alias = p.view_as(p)
    if alias._grad_fn is not None:
        alias._grad_fn = _Identity(alias._grad_fn)
    alias._fw_grad = p._fw_grad
    alias.__dict__["_fw_primal"] = True   # (nor a view of its base's tangent later: _base_tangent_view)
    made.append(alias)
    return alias


class _Identity(Node):
    """The node of ``unpack_dual(t).primal``: passes the gradient to ``t`` unchanged."""

    __slots__ = ()

    def __init__(self, view_node) -> None:
        super().__init__()
        self._next_nodes, self._next_nrs = view_node._next_nodes, view_node._next_nrs
        self._input_meta = view_node._input_meta

    def name(self) -> str:
        """PyTorch's node name."""
        return "torch::autograd::Identity"

    def _apply(self, grad_outputs: tuple) -> tuple:
        """The gradient, as it came."""
        return (grad_outputs[0],)


# PyTorch's Identity node is a generic C++ function: type(node) prints <class 'CppFunction'>
_Identity.__module__, _Identity.__name__, _Identity.__qualname__ = "builtins", "CppFunction", "CppFunction"


def _set_tangent(t, tangent) -> None:
    if tangent._data.dtype.kind == "c" and tangent.is_conj() and not t.is_conj():
        # (PyTorch's tangent of an op's result has its lazy conjugation done; a view of a conj view keeps the
        # view of the conj tangent, through which an in-place op writes the base's tangent)
        tangent = tangent.resolve_conj()
    t._fw_grad = tangent
    _owners.append(weakref.ref(t))


def _base_tangent_view(t):
    """The tangent of a view made before its base got one (PyTorch's lazy ``AutogradMeta::fw_grad``): the view
    replayed on the base's tangent, kept as the view's own; None if the base has none either."""
    base = t._base
    if base is None or base._fw_grad is None or t._fw_grad is not None or "_fw_primal" in t.__dict__:
        return t._fw_grad   # (unpack_dual's primal is an alias that never carries a tangent, as PyTorch's)
    suspended, _suspended[0] = _suspended[0], True
    try:
        region = t._view_fn(base._fw_grad) if t._view_fn is not None else \
            base._fw_grad.as_strided(t.shape, t.stride(), t.storage_offset())
    finally:
        _suspended[0] = suspended
    _set_tangent(t, region)
    return region


# ---- propagation (called by Op.__call__ and Function.apply) ---------------------------------------

def _call_with_extras(op, tensors, dtype, out, args):
    """Run ``op`` under the profiler and/or with tangent propagation (and inside vmap: mark batched outputs)."""
    from .. import _vmap_batched
    if _vmap_batched.DEPTH[0]:
        mask = _vmap_batched.input_levels(op, tensors, out, args)  # (PyTorch's errors come before the op runs)
        result = _call_with_extras_unbatched(op, tensors, dtype, out, args)
        if mask:
            for o in result if isinstance(result, tuple) else (result,):
                _vmap_batched.mark(o, mask)
            if out is None:   # (a fresh result: how PyTorch's legacy vmap lays out its batch)
                _vmap_batched.mark_batch_outer(result, op.name, tensors, mask)
            if STATE.enabled:   # (recorded: its saved outputs batched too; which inputs its backward sums over)
                _vmap_batched.mark_saved_outputs(result, mask)
                _vmap_batched.note_batch_sums(result, tensors, mask)
        elif out is None:  # computed from unbatched tensors only: unbatched, as the function's own tensors are
            _vmap_batched.unbatched(result)
        return result
    return _call_with_extras_unbatched(op, tensors, dtype, out, args)


def _call_with_extras_unbatched(op, tensors, dtype, out, args):
    from . import profiler
    if profiler._enabled[0]:
        with profiler._record_op(op.name):
            return _run_with_tangents(op, tensors, dtype, out, args)
    return _run_with_tangents(op, tensors, dtype, out, args)


def _run_with_tangents(op, tensors, dtype, out, args):
    if (_level[0] is None or _suspended[0] or STATE.inference or not _fwd_enabled[0]
            or all(_base_tangent_view(tensors[i]) is None for i in _jvp_reads(op, len(tensors)))):
        return op._run(tensors, dtype, out, args, STATE.enabled)  # (inference mode computes no tangents, as PyTorch)
    from .._tensor import Tensor
    if out is None and _refuses_before_kernel(op):
        raise not_implemented(op.name)
    decomposition = getattr(op, "jvp_decomposition", None)   # (set on a few ops, see _run_decomposed)
    if decomposition is not None and out is None:
        return _run_decomposed(op, decomposition, tensors, dtype, args)
    primals = tensors
    tangent_of_out = None
    if out is not None:  # in place: the formula needs the value from before the write
        # PyTorch's in-place formulas read ``original_self_p`` (``self.clone()``: recorded when self requires grad,
        # so x.mul_(2)'s new tangent requires grad too) for self, but an operand that is self itself (x.mul_(x)) is
        # read as it is when the formula runs: already written (its tangent not yet), the tensor itself (its
        # history then includes the write)
        from .. import _dispatch
        if out._base is not None and _dispatch._unreplayed_view(out):
            # (PyTorch's check_inplace comes first: the formula's self.clone() would give the view its grad_fn)
            _dispatch._check_inplace(out, False)
        first = next(i for i, t in enumerate(tensors) if t is out) if any(t is out for t in tensors) else -1
        primals = tuple(t if t is not out else _copy_of_tangent(t) if i == first else t
                        for i, t in enumerate(tensors))
        tangent_of_out = _base_tangent_view(out)
        # (the formula reads the old tangent: a copy, since the new one is written into the same memory; a
        # recorded clone when the tangent has a history, so backward through the new tangent reaches it)
        # (PyTorch clones self_t only: an operand that is self itself reads the tangent as it is, x.mul_(x)'s
        # other_t, so a tangent graph that saved it fails backward once self_t.copy_ wrote it)
        old = None if tangent_of_out is None else _copy_of_tangent(tangent_of_out)
        primals = tuple(p if t is not out else _with_tangent(p, old if i == first else tangent_of_out)
                        for i, (p, t) in enumerate(zip(primals, tensors)))
    result = op._run(tensors, dtype, out, args, STATE.enabled)
    if tangent_of_out is not None and op.node_name in _TANGENT_WRITES_CHECKED:
        _refuse_tangent_overlap(op, tangent_of_out, [t._fw_grad for t in tensors if t is not out])
    outs = result if isinstance(result, tuple) else (result,)
    tangents = _op_jvp(op, primals, outs, dtype, args, inplace=out is not None)
    if tangent_of_out is not None and tangents and tangents[0] is None:
        # PyTorch's in-place forward grad is self_t.copy_(formula): a formula with no tangent (scatter_reduce_'s
        # prod) fails in that copy
        raise RuntimeError("Expected a proper Tensor but got None (or an undefined Tensor in C++) for argument #1 "
                           "'src'")
    for o, t in zip(outs if op.variadic else outs[: op.n_diff_outputs], tangents):
        if t is not None and (o.dtype.is_floating_point or o.dtype.is_complex):
            cast_to = _tangent_dtype(t, o, op)
            if cast_to is not None:
                t = _cast(t, cast_to)
            if t.shape != o.shape:
                t = t.expand(o.shape).clone()
            if o is out and (tangent_of_out is not None or op.name in ("fill", "fill_")):
                # (PyTorch writes the new tangent into self's in place, self_t.copy_(formula) or the op itself on
                # self_t: vmap refuses a batched tangent written into an unbatched one, as it does for primals;
                # fill_'s self_t.fill_(value_t) runs on fresh zeros when self had no tangent)
                from .. import _vmap_batched
                if _vmap_batched.DEPTH[0]:
                    written = tangent_of_out if tangent_of_out is not None else Tensor._make(np.zeros(()))
                    _vmap_batched.check_inplace(_TANGENT_WRITE_NAMES.get(op.name, "copy_"), written, (t,),
                                                op.node_name, tangent=True)
            if o is out and tangent_of_out is not None:   # (sgn(x).cos_(): self_t.copy_ into its ZeroTensor)
                from .. import _zerotensor
                _zerotensor.check_mutable(tangent_of_out, _TANGENT_WRITE_NAMES.get(op.name, "copy_"))
            if o is out and tangent_of_out is not None and op.name not in _TANGENT_WRITE_NAMES and op.name != "copy_":
                # (self_t.copy_(formula) refuses a tangent whose elements share memory, as the primal's of
                # b.expand(2, 2).tril_() (a dual b) does, which tril_'s kernel writes; copy_ of the same data
                # returns at once, for the primal and its tangent alike)
                from .. import _dispatch
                _dispatch._no_internal_overlap_first(None, tangent_of_out)
            if o is out and tangent_of_out is not None and _write_in_place(tangent_of_out, t):
                t = tangent_of_out  # (the views sharing that tangent see the change, as in PyTorch)
            else:
                _set_tangent(o, _laid_out_as(t, o))
                if o is out and out._base is not None and out._view_fn is not None:
                    _write_into_base_tangent(out, t)
            _share_with_saved_output(o, t)
    return result


# In-place ops whose forward formula is the op itself on self's tangent (self_t.masked_scatter_(mask, source_t)),
# by the name vmap's refusal gives; the others' is copy_'s (self_t.copy_(formula))
_TANGENT_WRITE_NAMES = {"masked_scatter": "masked_scatter_", "index_copy": "index_copy_", "masked_fill": "masked_fill_",
                        "index_put_": "index_put_", "_index_put_impl_": "index_put_", "scatter": "scatter_",
                        "fill": "fill_", "fill_": "fill_", "index_fill": "index_fill", "put": "put_",
                        "zero_": "zero_", "conj_physical_": "conj_physical_"}


# In-place ops whose PyTorch forward formula writes the source's tangent into self's in place (index_copy_:
# ``self_t.index_copy_(dim, index, source_t)``): that write makes the same overlap checks as the primal's, so two
# tangents sharing memory (frac's output shares its input's tangent) are refused after the primal was written.
_TANGENT_WRITES_CHECKED = frozenset({"IndexCopyBackward0", "ScatterBackward0", "IndexPutBackward0",
                                     "IndexPutImplBackward0", "PutBackward0", "CopyBackwards"})


def _refuse_tangent_overlap(op, tangent, sources) -> None:
    from .. import _dispatch, _ops
    for src in sources:
        if src is None:
            continue
        if op.node_name == "CopyBackwards":  # (copy_ is a TensorIterator op: the very same elements are fine)
            _dispatch._check_no_partial_overlap(tangent, [tangent, src], op)
        else:  # (the index/scatter family's assert_no_overlap)
            _ops._refuse_source_overlap(tangent, src)


def _jvp_reads(op, n: int) -> range | tuple:
    """The positions of the inputs whose tangents ``op``'s forward formula reads: an output gets a tangent only
    when one of them has one (PyTorch's generated ``isFwGradDefined`` checks cover the inputs named ``x_t`` in the
    ``result:`` formula, so copysign(x, y) with only y dual has no tangent). Every input for ``linear``,
    ``element_wise`` and ``reduction`` formulas and for list inputs (cat, stack)."""
    reads = op.__dict__.get("_jvp_reads")
    if reads is None:
        if callable(op.jvp) and not op.list_input:
            reads = tuple(i for i, name in enumerate(op.inputs) if name + "_t" in op.jvp_params)
        else:
            reads = ()
        op._jvp_reads = reads
    return reads if reads else range(n)


def _copy_of_tangent(t):
    """A copy of ``t`` (a tangent, or the primal an in-place formula reads): a recorded clone when it has a history
    to keep (``_records``), else a plain copy (batched as ``t`` is, as PyTorch's clone)."""
    from .. import _vmap_batched
    from .._tensor import Tensor
    if not _records(t):
        copy = Tensor._make(t._data.copy())
        _vmap_batched.set_levels(copy, _vmap_batched.levels(t))
        return copy
    suspended, _suspended[0] = _suspended[0], True
    try:
        return t.clone()
    finally:
        _suspended[0] = suspended


def _records(*tangents) -> bool:
    """Whether work on these tangents must be recorded for backward (a tangent requiring grad, grad mode on):
    reverse mode through forward mode, PyTorch's fwgrad_bwgrad."""
    from .grad_mode import is_grad_enabled
    return is_grad_enabled() and any(t.requires_grad for t in tangents)


def _write_in_place(old, new) -> bool:
    """An in-place op updates the tangent its tensor already had in place (False if that memory is read-only)."""
    if not old._data.flags.writeable:
        return False
    if tuple(new.shape) != tuple(old.shape):
        # (self resized by the op, addbmm_ on a broadcastable self: PyTorch's self_t.copy_(new_t) refuses to
        # write the larger tangent into the old one)
        try:
            shape = np.broadcast_shapes(tuple(old.shape), tuple(new.shape))
        except ValueError:
            shape = None
        if shape != tuple(old.shape):
            raise RuntimeError(f"output with shape {list(old.shape)} doesn't match the broadcast shape "
                               f"{list(shape or new.shape)}")
    if new is not old and _records(old, new):
        # PyTorch's generated in-place code does ``self_t.copy_(new_t)``: recorded (CopyBackwards), so backward
        # through the tangent sees the write (and a leaf tangent requiring grad refuses it)
        suspended, _suspended[0] = _suspended[0], True
        try:
            old.copy_(new)
        finally:
            _suspended[0] = suspended
        return True
    _assign(old._data, new._data)
    if _conj.MIRRORS:   # (the tangent of x.conj(): the write goes on, conjugated, into x's tangent)
        _conj.after_write(old)
    return True


def _assign(dst, src) -> None:
    # (a complex tangent written into a real one keeps its real part, silently as PyTorch's: no ComplexWarning)
    dst[...] = src.real if src.dtype.kind == "c" and dst.dtype.kind != "c" else src


def _write_into_base_tangent(view, tangent) -> None:
    """An in-place op on a view changes its base too: the base's tangent (zeros if it had none) gets the
    view's new tangent in the view's region, and the view's tangent becomes that region (as in PyTorch)."""
    from .. import _vmap_batched
    from .._creation import zeros_like
    base = view._base
    suspended, _suspended[0] = _suspended[0], True
    try:
        if base._fw_grad is None:
            zeros = zeros_like(base)
            # (PyTorch's _new_zeros_with_same_feature_meta(new_grad, base): batched as the view's new tangent, so
            # a batched tangent of jacfwd's vmap written into a CopySlices grad buffer under hessian fits)
            _vmap_batched.mark(zeros, _vmap_batched.levels_of(base, tangent))
            _set_tangent(base, zeros)
        region = view._view_fn(base._fw_grad)
        if tangent is not region and _records(tangent):
            # (PyTorch's self_t.copy_(new_t) on the view of the base's tangent: recorded, the base's tangent
            # then has a CopySlices node, so backward through it reaches the written tangent: F.pad circular)
            region.copy_(tangent)
        else:
            _assign(region._data, tangent._data)
            if _conj.MIRRORS:   # (a region of x.conj(): the write goes on, conjugated, into the base's tangent)
                _conj.after_write(region)
    finally:
        _suspended[0] = suspended
    view._fw_grad = region


def _share_with_saved_output(o, tangent) -> None:
    """A node that saved its own output ``o`` sees ``o``'s tangent too (so reverse mode inside forward mode works).

    The saved output is kept as its array only (see SavedTensor); its free ``_tensor`` slot holds the tangent.
    """
    from .. import _dispatch
    from .graph import SavedTensor
    node = o._grad_fn
    if o._base is not None and type(o._base._grad_fn) is _dispatch.CopySlices:
        node = o._base._grad_fn.fn  # (an in-place op on a view: its node sits inside the base's CopySlices)
    # (a built-in node keeps its saved tensors in ``_saved``, a custom Function's ctx in ``_stored_tensors``)
    for v in (*getattr(node, "_saved", ()), *(getattr(node, "_stored_tensors", None) or ())):
        if type(v) is SavedTensor and v._is_output and v._output_nr == o._output_nr and v._data is o._data:
            v._tensor = tangent


def _tangent_dtype(tangent, out, op):
    """The dtype to convert an output's tangent to, or None to keep the formula's (PyTorch: a float64 tangent of
    a float32 primal stays float64, a complex tangent of x * 2 stays complex).

    An integer tangent (of a wrapped number) takes the output's dtype; a complex tangent of a real output of an
    elementwise op keeps its real part (PyTorch's handle_r_to_c). (Where a tangent's dtype differs from its
    primal's, PyTorch's formulas differ op by op in the dtype they give: relu float64, where float32 ...; only
    the common cases are followed here.)
    """
    if tangent.dtype == out.dtype:
        return None
    if not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        return out.dtype
    if tangent.dtype.is_complex and (op.jvp == "element_wise" and len(op.diff_inputs) == 1 or op.name == "neg"):
        # (a unary op of a complex tangent of another dtype than its primal: PyTorch's auto_element_wise formula
        # (neg's too) ends in .conj() (abs's in a real view), a lazy view set_fw_grad copies into zeros of the
        # output's dtype. abs's and angle's real view of a tangent batched by a vmap outside the forward level is
        # copied only where has_same_meta fails, whose storage check a BatchedTensor passes: on the strides, twice
        # the output's along a dim of size > 1, so a one-element tangent is kept, float64 for a complex128 one)
        from .. import _vmap_batched
        if not out.dtype.is_complex and out._data.size == 1 and _vmap_batched.DEPTH[0] and \
                _vmap_batched.batched_below_forward(tangent):
            return tangent.dtype.to_real()
        return out.dtype
    if op.jvp == "element_wise" and tangent.dtype.is_complex and not out.dtype.is_complex:
        return tangent.dtype.to_real()
    return None


def _cast(t, dtype):
    # A plain copy in the new dtype (recorded when the tangent has a history: backward through tangents).
    # A complex tangent of a real output keeps its real part (PyTorch's handle_r_to_c: abs, angle of complex).
    if _records(t):
        suspended, _suspended[0] = _suspended[0], True
        try:
            # (a real view of the complex tangent is not laid out as the result: PyTorch's set_fw_grad copies it)
            return t.real.clone() if t.is_complex() and not dtype.is_complex else t.to(dtype)
        finally:
            _suspended[0] = suspended
    data = t._data.real if t._data.dtype.kind == "c" and not dtype.is_complex else t._data
    out = type(t)._make(data.astype(dtype.np))
    from .. import _vmap_batched
    if _vmap_batched.DEPTH[0]:   # (batched as the tangent it casts: a batched value is no unbatched one to write)
        _vmap_batched.mark(out, _vmap_batched.levels(t))
    return out


def _with_tangent(t, tangent):
    t._fw_grad = tangent
    return t


def not_implemented(name: str, inplace: bool = False) -> NotImplementedError:
    """PyTorch's error for an op with no forward formula (``name``: the aten op's)."""
    return NotImplementedError(
        f"Trying to use forward AD with {name} that does not support it because it has not been implemented "
        "yet.\nPlease file an issue to PyTorch at https://github.com/pytorch/pytorch/issues/new?template="
        "feature-request.yml so that we can prioritize its implementation"
        # (PyTorch's in-place overloads end the sentence there: a different generated check)
        + ("." if inplace else " or submit a PR adding the implementation to derivatives.yaml"))


def refuse_tangents(name: str, *tensors) -> None:
    """Raise ``not_implemented(name)`` when a tangent would propagate through ``tensors`` (for the functions that
    are not table ops, e.g. to_sparse: PyTorch's _to_sparse has no forward formula; and for the front-ends whose
    checks PyTorch's kernel makes, after an out-of-place op without a formula refused: see _run_with_tangents)."""
    if _any_tangent(tensors):
        raise not_implemented(name)


def _any_tangent(tensors) -> bool:
    """Whether forward AD is on and one of ``tensors`` has a tangent (a view's lazy one too)."""
    from .._tensor import Tensor
    return (_level[0] is not None and not _suspended[0] and _fwd_enabled[0] and not STATE.inference
            and any(isinstance(t, Tensor) and _base_tangent_view(t) is not None for t in tensors))


def _refuses_before_kernel(op) -> bool:
    """Whether out-of-place ``op`` has no forward formula, which PyTorch's generated code finds out before the kernel
    runs (it looks for a jit decomposition for jvp), so a tangent is refused before the kernel's own checks (index,
    shape, dtype); in-place ops refuse after their kernel (_op_jvp). Not the backward ops whose formulas minigrad
    lacks (PyTorch has them: torch.func.jvp takes another route, see ``minigrad_gap``)."""
    return op.jvp is None and op.node_name != "NotImplemented" and not _minigrad_gap(op)


# Backward ops PyTorch has no forward formula for either (torch.func.jvp of grad refuses them too)
_NO_FORWARD_FORMULA = frozenset({"huber_loss_backward", "soft_margin_loss_backward"})


def _minigrad_gap(op) -> bool:
    """Whether ``op`` lacks a forward formula that PyTorch has (a backward op: the second derivatives)."""
    return op.name.endswith("backward") and op.name not in _NO_FORWARD_FORMULA


def refuse_in_fallback(name: str, *tensors) -> None:
    """PyTorch's autograd fallback for an op without derivatives (``aten::histogram``): a tangent refused before
    the kernel runs."""
    if _any_tangent(tensors):
        raise NotImplementedError(f"Trying to use forward AD with {name} that does not support it.")


def refuse_before_kernel(op, *tensors) -> None:
    """The refusal of ``_refuses_before_kernel`` for a front-end whose checks PyTorch's kernel makes (call it first)."""
    if _refuses_before_kernel(op):
        refuse_tangents(op.name, *tensors)


def check_tangent_size(tangent, primal):
    """``tangent``, refused as PyTorch's set_fw_grad refuses one whose size differs from its primal's (a formula
    such as normal(mean, std)'s zeros_like(mean_t) when std broadcasts mean)."""
    if tuple(tangent.shape) != tuple(primal.shape):
        raise RuntimeError(
            "Trying to set a forward gradient that has a different size than that of the original Tensor, this is "
            f"not supported. Tensor is of size {list(primal.shape)} while the given forward gradient is of size "
            f"{list(tangent.shape)}.")
    return tangent


def _op_jvp(op, primals, outs, dtype, args, inplace: bool = False) -> tuple:
    """The output tangents of one op from its inputs' tangents (zeros where an input has none)."""
    from .. import _dispatch, _zerotensor
    from .._creation import zeros_like
    # (PyTorch names the in-place overload: atanh_; a table op of an in-place-only aten op has its name already)
    name = op.name + "_" if inplace and not op.name.endswith("_") else op.name
    if op.jvp is None and op.node_name == "NotImplemented":  # (PyTorch's autograd-not-implemented fallback)
        raise NotImplementedError(f"Trying to use forward AD with aten::{name} that does not support it.")
    if op.jvp is None:
        error = not_implemented(name, inplace)
        # The ops PyTorch has forward formulas for and minigrad not are backward ops (second derivatives):
        # torch.func.jvp may then take another route (``minigrad_gap``); for the others PyTorch raises this too.
        error.minigrad_gap = _minigrad_gap(op)
        raise error
    # (a missing optional tensor, derivatives.absent(), stays itself: its formulas leave it out)
    # (a missing tangent is PyTorch's ZeroTensor, whose mul/div/add/sub skip the arithmetic: 0·inf is 0; but real
    # zeros for self of an in-place op, whose new tangent is written into it)
    tangents = [p._fw_grad if p._fw_grad is not None else p if type(p._data) is _dispatch.Absent else
                zeros_like(p) if inplace and i == 0 else _zerotensor.mark(zeros_like(p))
                for i, p in enumerate(primals)]
    if op.node_name in _dispatch._vmap_batched._FALLBACK_FORMULAS:
        _dispatch._vmap_batched.formula_fallback(op.node_name, tangents, inplace)
    _suspended[0] = True
    aliases = []  # (the primal aliases _fw_primal made: their tangent is taken away once the formula ran)
    try:
        if op.jvp == "linear":  # f(x + εt) = f(x) + ε·f(t); an input it is not linear in (an index) stays as is
            if not op.list_input:
                tangents = [t if name in op.diff_inputs else p for name, p, t in zip(op.inputs, primals, tangents)]
            lin_args = args
            if op.node_name in ("AddBackward0", "SubBackward0"):
                tangents = _signed_zero_tangents(op, primals, tangents, args.get("alpha", 1))
                alpha = args.get("alpha", 1)
                if (type(alpha) in (float, int) and alpha != 1 and primals[1]._fw_grad is not None
                        and (primals[0]._fw_grad is not None or not tangents[1].dtype.is_complex)):
                    # PyTorch's formula is self_t ± maybe_multiply(other_t, alpha): the product is rounded on
                    # its own (an int alpha's too), not fused into the add kernel's a + alpha·b as the primal's
                    # is; without self_t (a ZeroTensor) the tangent is that product alone
                    tangents = [tangents[0], tangents[1] * alpha]
                    lin_args = {**args, "alpha": 1}
            if op.name == "as_strided" and args["storage_offset"] is not None and \
                    _dispatch._vmap_batched.DEPTH[0]:
                # (inside vmap the offset counts from each example's start: the primal's, then the tangent's)
                vb = _dispatch._vmap_batched
                offset = args["storage_offset"] - vb.batch_offset(primals[0]) + vb.batch_offset(tangents[0])
                lin_args = {**args, "storage_offset": offset}
            if op.name == "block_diag" and _dispatch._vmap_batched.DEPTH[0]:  # (its tangent is a block_diag too)
                _dispatch._vmap_batched.check_block_diag(tangents)
            r = op(*tangents, dtype=_linear_dtype(dtype, primals, tangents), **lin_args)
        else:
            env = dict(args)
            if op.list_input:  # cat/stack: the one input is the whole list of tensors
                env[op.inputs[0]], env[op.inputs[0] + "_t"] = list(primals), list(tangents)
            else:
                read = _primals_read(op, primals)
                for name, p, t in zip(op.inputs, primals, tangents):
                    env[name] = _fw_primal(p, aliases) if name in read else p
                    env[name + "_t"] = t
            for name, o in zip(op.outputs, outs):
                # (in place, PyTorch's formula reads self_p for result: the primal's alias, whose tangent graph
                # saves no tangent, so backward through it gives a gradient without one up to the in-place node)
                env[name] = _fw_primal(o, aliases) if inplace else o
            if op.jvp == "element_wise":
                r = _result_dtype(_elementwise_jvp(op, env, primals, tangents, _dispatch), outs[0], primals, inplace)
            elif op.jvp == "reduction":
                r = _reduction_jvp(op, env, primals, tangents, outs, _dispatch)
            else:
                r = op.jvp(*[_lookup(env, p, op, primals, _dispatch) for p in op.jvp_params])
        r = r if isinstance(r, tuple) else (r,)
        if (len(r) == 1 and len(outs) == 1 and r[0] is not None and not inplace and r[0].dtype != outs[0].dtype
                and _batched_beats_0d_tangent(r[0], primals)):   # (div's formula, not only elementwise ones)
            r = (r[0].to(outs[0].dtype),)
        if op.node_name in ("AddBackward0", "SubBackward0") and primals[1]._fw_grad is None:
            r = (_zero_times_alpha(r[0], primals, args.get("alpha", 1)),)
        if op.name in ("addcmul", "addcdiv"):
            r = (_zero_terms_times_value(r[0], primals, args["value"]),)
        if (op.node_name in _LIFTED_NUMBER_OPS and _transform_level.active and _transform_level.lifts_numbers
                and not inplace and _dispatch._vmap_batched.DEPTH[0] == _transform_level.vmap_depth):
            r = (_lifted_number_dtype(r[0], primals, op.node_name, tangents),)
        # a formula that returns an input's tangent itself (remainder(x, y) with only x dual: self_t): the output
        # gets its own copy, so an in-place op on the output cannot write into the input's tangent. PyTorch's
        # frac, fmod.Scalar and remainder.Scalar are the exception: their formula is the tangent itself
        # (``result: self_t``), so the output shares its input's tangent and writes through it.
        if op.node_name not in _SHARES_TANGENT and any(
                t is not None and any(t is p._fw_grad for p in primals) for t in r):
            r = tuple(t.clone() if t is not None and any(t is p._fw_grad for p in primals) else t for t in r)
    finally:
        _suspended[0] = False
        for alias in aliases:
            alias._fw_grad = None
    return r


def _run_decomposed(op, decomposition, tensors, dtype, args):
    """A backward op PyTorch has no forward formula for, with a tangent in: its decomposition for jvp
    (torch/_decomp/decompositions_for_jvp.py, which VariableType runs then: run_jit_decomposition_with_args_for_jvp)
    computes the value and the tangent with ops (their own last bits and signed zeros; the tangent's graph is
    theirs); the result keeps the op's own node. ``op.jvp_decomposition`` (derivatives.py): the op's inputs and
    arguments -> that value, as a tensor with its tangent."""
    decomposed = decomposition(*tensors, **args)
    result = op._run(tensors, dtype, None, args, STATE.enabled)
    for r, d in zip(result, decomposed) if isinstance(result, tuple) else ((result, decomposed),):
        if r is not None and d is not None and r.shape == d.shape:   # (not the outputs left out: output_mask)
            r._data = d._data
            if d._fw_grad is not None:
                _set_tangent(r, d._fw_grad)
    return result


# The ops whose output's tangent IS their input's (PyTorch's ``result: self_t``; see _op_jvp)
_SHARES_TANGENT = frozenset({"FracBackward0", "FmodBackward0", "RemainderBackward0", "AliasBackward0"})


def _signed_zero_tangents(op, primals, tangents, alpha) -> list:
    """add/sub with an input that has no tangent: PyTorch's is a ZeroTensor, which the sum leaves out, so a -0.
    tangent stays -0.; here the missing tangent is the zero whose sum keeps the other's sign (x + (-0) = x,
    x - (+0) = x, -0 - y = -y)."""
    missing = [p._fw_grad is None for p in primals]
    if missing[0] == missing[1]:
        return tangents
    i = 0 if missing[0] else 1
    from .. import _zerotensor
    if _zerotensor.is_zero(tangents[1 - i]):   # (a ZeroTensor tangent, sgn(x)'s: 0 + 0 is a ZeroTensor, +0.)
        return tangents
    negative = i == 0 or op.node_name == "AddBackward0" and not (isinstance(alpha, (int, float)) and alpha < 0)
    zero, other = tangents[i], tangents[1 - i]
    if negative and (zero.dtype.is_floating_point or zero.dtype.is_complex):
        zero = zero.neg()   # (-0.)
    elif negative and (other.dtype.is_floating_point or other.dtype.is_complex):   # (an integer zero: x + 1)
        from .._tensor import Tensor
        zero = Tensor._make(np.full(zero._data.shape, -0.0, other._data.dtype))
    return [zero if j == i else t for j, t in enumerate(tangents)]


# The ops whose Python-number operand torch.func.jvp lifts to a plain 0-d tensor (see _lifted_number_dtype)
_LIFTED_NUMBER_OPS = frozenset({"AddBackward0", "SubBackward0", "MulBackward0", "DivBackward0"})


def _lifted_number_dtype(tangent, primals, node_name, tangents):
    """Inside torch.func.jvp (and jacfwd) PyTorch's tensors are functorch wrappers, and a Python number given to
    add/sub/mul/div (x * 2.5, torch.sub(2.5, x)) is lifted to the transform's level as a plain 0-d tensor (float64,
    complex128, int64): no longer a wrapped number. The ZeroTensor term of its missing tangent (other_t · x in
    x_t · other + other_t · x) then promotes as a 0-d tensor does: a 0-d float32 x gets a float64 tangent, where
    the primal (and PyTorch's own dual_level) keep float32. A tangent of rank >= 1 keeps its dtype (a 0-d operand
    does not win against it), as does an int number (int64 does not win against a float). Not under a vmap that
    runs inside the jvp (jacfwd(jacrev(f))): there the tangent is a batched tensor, physically 1-d at least."""
    if not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        return tangent
    numbers = [p for p in primals if p._wrapped_number is not None and p._fw_grad is None]
    if not numbers:
        return tangent
    from .._dtypes import result_type
    from .._tensor import Tensor
    like = Tensor._make(np.zeros((1,) * tangent.dim(), tangent.dtype.np))   # (only the dtype and the rank count)
    target = result_type(like, *(Tensor._make(np.zeros((), p.dtype.np)) for p in numbers))
    if target == tangent.dtype:
        return tangent
    if node_name == "DivBackward0" and primals[1]._wrapped_number is not None:
        # x / 2.5: (x_t - other_t · result) / other, where the ZeroTensor difference is already float64, so the
        # division by the number happens in double (mul's x_t · 2.5 is a float32 product, cast after)
        return tangents[0].to(target) / primals[1]._wrapped_number
    return tangent.to(target)


def _zero_times_alpha(tangent, primals, alpha):
    """add/sub(x, y, alpha=<float>) where y has no tangent: PyTorch's maybe_multiply(y_t, alpha) multiplies y's
    ZeroTensor by alpha as a 0-d double tensor, whose dtype then counts (0-d float32 x - 0-d y * 0.5, or x - integer
    y * 0.5: a float64 tangent), where the primal's promotion keeps float32."""
    if not isinstance(alpha, float) or alpha == 1 or not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        return tangent
    from .._dtypes import float64, result_type
    from .._tensor import Tensor
    x, y = primals[0], primals[1]
    zero = Tensor._make(np.zeros((1,) * y.dim(), y.dtype.np))   # (only the dtype and the rank count)
    scaled = result_type(zero, Tensor._make(np.zeros((), float64.np)))
    target = result_type(Tensor._make(np.zeros((1,) * x.dim(), tangent.dtype.np)),
                         Tensor._make(np.zeros((1,) * y.dim(), scaled.np)))
    if target == tangent.dtype:
        return tangent
    from .. import _zerotensor
    # (the sum of two ZeroTensors, sgn(x)'s tangent and y's, is a ZeroTensor again)
    return _zerotensor.mark(tangent.to(target)) if _zerotensor.is_zero(tangent) else tangent.to(target)


def _zero_terms_times_value(tangent, primals, value):
    """addcmul/addcdiv(x, y, z, value=<float or complex>): PyTorch's formula, x_t + maybe_multiply(y_t·z, value)
    + maybe_multiply(z_t·y, value) (addcdiv: y_t/z and z_t·(y/z)/z), multiplies each term by value (unless it is
    1, or an int, which never changes a floating dtype). The term of a missing tangent is a ZeroTensor, whose ops
    promote on meta copies of the operands where the Python number is no longer a wrapped number but a 0-d double
    (complex double) tensor, so its dtype counts: all 0-d float32 operands give a float64 tangent, where the
    primal's promotion keeps float32. A complex value makes a real term complex (as a wrapped number: complex64)."""
    if not isinstance(value, (float, complex)) or isinstance(value, float) and value == 1:
        return tangent
    if not (tangent.dtype.is_floating_point or tangent.dtype.is_complex):
        return tangent
    from .._dtypes import complex128, float64, result_type
    from .._tensor import Tensor
    scalar = Tensor._make(np.zeros((), (complex128 if isinstance(value, complex) else float64).np))

    def like(rank, dt):   # (only the dtype and the rank count in a promotion)
        return Tensor._make(np.zeros((1,) * rank, dt.np))
    x, y, z = primals
    operands = [like(tangent.dim(), tangent.dtype)]
    for diff, other in ((y, z), (z, y)):
        term = like(max(diff.dim(), other.dim()), result_type(diff, other))   # y_t·z, y_t/z, z_t·(y/z)/z ...
        # times value: a ZeroTensor's with the number as a plain 0-d tensor, a real term's as a wrapped number
        operands.append(like(term.dim(), result_type(term, scalar if diff._fw_grad is None else value)))
    target = result_type(*operands)
    return tangent if target == tangent.dtype else tangent.to(target)


def _linear_dtype(dtype, primals, tangents):
    """The dtype a linear op computes its tangent in: the op's own, unless a tangent has another dtype than its
    primal: PyTorch applies the op to the tangents as they are (float32 x + float64 tangent: a float64 tangent;
    float64 x + float32 tangent: float32), so then the tangents' own promotion decides."""
    from .._dtypes import result_type
    if dtype is None or not any(p._fw_grad is not None and t.dtype != p.dtype for p, t in zip(primals, tangents)):
        return dtype
    # an explicit dtype= (x.sum(dtype=torch.float64)) still applies; a promotion of the primals does not (a Python
    # number, x + 1.0, promotes as the number it wraps)
    promoted = result_type(*(p if p._wrapped_number is None else p._wrapped_number for p in primals))
    return dtype if dtype != promoted else result_type(*tangents)


def _batched_beats_0d_tangent(total, primals) -> bool:
    """Under a vmap that runs inside torch.func.jvp's level (jacfwd(jacrev(f)): jacrev's backward), a 0-d operand
    that vmap batches is physically 1-d in PyTorch, so an unbatched 0-d tangent of another dtype (a float64 one,
    see _lifted_number_dtype) does not promote the result's tangent (grad * x_t stays float32). minigrad's vmap
    loops over 0-d slices, where NumPy's promotion would let the float64 win."""
    from .. import _vmap_batched
    if total.dim() or _vmap_batched.DEPTH[0] <= _transform_level.vmap_depth or not _transform_level.active:
        return False
    if not _vmap_batched.levels_of(*primals):
        return False
    return all(p.dim() == 0 and not _vmap_batched.levels(p) for p in primals
               if p._fw_grad is not None and p._fw_grad.dtype != p.dtype)


def _result_dtype(total, out, primals, inplace: bool = False):
    """An elementwise tangent in its result's dtype, as PyTorch's: its missing tangents are ZeroTensors of their
    input's dtype (float32 x, float64 y: a float64 tangent even when only x has one) and a Python number stays
    out of the promotion (0-d float32 x * 0.5: float32). Not when a tangent has another dtype than its primal.
    In place, the inputs' promoted dtype (float32 x.mul_(dual float64 y): a float64 tangent, as PyTorch's; when x
    had a tangent, the new one is written into it, in its dtype)."""
    target = out.dtype
    if inplace:
        from .._dtypes import result_type
        target = result_type(*primals)
    if total is not None and total.dtype != target and not inplace and _batched_beats_0d_tangent(total, primals):
        return total.to(target)
    if (total is None or total.dtype == target or total.is_complex() != target.is_complex
            or not (target.is_floating_point or target.is_complex)
            or any(p._fw_grad is not None and p._fw_grad.dtype != p.dtype for p in primals)):
        return total
    from .. import _zerotensor
    if _zerotensor.is_zero(total):   # (ZeroTensor kernels promote a Python number as a 0-d tensor: sgn(x) * 2.0
        return total                 # of a 0-d float32 x has a float64 tangent; _zerotensor._kernel_dtype)
    return total.to(target)


def _elementwise_jvp(op, env, primals, tangents, _dispatch):
    """Σ_i ∂f/∂x_i · t_i for an elementwise op: each backward formula applied to its input's tangent.

    A backward formula maps grad ↦ grad·∂f/∂x (conjugated for complex), so feeding it the tangent
    (and conjugating back) gives ∂f/∂x · t.
    """
    # PyTorch's generated formula is the sum ``self_t * ∂f/∂self + other_t * ∂f/∂other``, and C++ evaluates an
    # operator's right operand first: the last input's term is built first (the order backward through the
    # tangent runs its nodes in). mul's own formula ``other_t * self_p + self_t * other_p`` builds self's first.
    from .. import _creation
    from .grad_mode import is_grad_enabled
    terms, zero_terms = {}, {}
    order = list(zip(op.formulas, op.diff_inputs))
    for (formula, params), name in (order if op.name in _LAST_TERM_FIRST else order[::-1]):
        if primals[op.inputs.index(name)]._fw_grad is None and (op.name, name) in _MATERIALIZED_ZERO_TANGENTS:
            # (the ZeroTensor tangent made real zeros by an op that has no ZeroTensor kernel: a signed zero term)
            env["grad"] = _creation.zeros_like(primals[op.inputs.index(name)])
            terms[name] = formula(*[_lookup(env, p, op, primals, _dispatch) for p in params])
            continue
        if primals[op.inputs.index(name)]._fw_grad is None:  # as PyTorch: no tangent adds nothing (not a +0.)
            # ... to the value; but PyTorch's term of a ZeroTensor tangent is still computed and added, so with
            # grad mode on the sum is recorded when some term requires grad (an AddBackward0; ``0 * other_p``
            # reaches ``other`` when it requires grad), while its value is the other terms' sum
            if is_grad_enabled():
                zero_terms[name] = None   # (a constant zero: computed below only if the sum is recorded)
                if _zero_term_recorded(env, params):
                    tangent = tangents[op.inputs.index(name)]
                    if op.name == "mul" and (tangent.is_complex() or _is_complex_factor(env, params, op, primals,
                                                                                         _dispatch)):
                        # (mul's own formula, as below: no conj round trip, whose ConjBackward0 nodes PyTorch's
                        # graph has not)
                        zero_terms[name] = tangent * _lookup(env, params[1], op, primals, _dispatch)
                        continue
                    env["grad"] = tangent.conj()
                    zero_terms[name] = formula(*[_lookup(env, p, op, primals, _dispatch) for p in params]).conj()
            continue
        tangent = tangents[op.inputs.index(name)]
        if op.name == "mul" and (tangent.is_complex() or _is_complex_factor(env, params, op, primals, _dispatch)):
            # PyTorch's own mul formulas (``other_t * self_p + self_t * other_p``; ``self_t * other`` for a
            # Scalar): the plain product, where the conj round trip would turn a +0 imaginary part into -0.
            term = tangent * _lookup(env, params[1], op, primals, _dispatch)
            terms[name] = term
            continue
        env["grad"] = tangent.conj()
        term = formula(*[_lookup(env, p, op, primals, _dispatch) for p in params]).conj()
        if op.name in _REAL_PART_TERMS and term.is_complex() and not primals[op.inputs.index(name)].is_complex():
            term = term.real.to(term.dtype)
            if len(op.diff_inputs) > 1:  # (the sum with the other input's zero tangent is complex, then conj: -0j)
                term = term.conj()
        terms[name] = term
    total = None
    for name in (op.diff_inputs[::-1] if op.name in _LAST_TERM_FIRST else op.diff_inputs):
        if name in terms:
            total = terms[name] if total is None else total + terms[name]
    if zero_terms and total is not None and (total.requires_grad or any(
            t is not None for t in zero_terms.values())):
        recorded = None
        for name in (op.diff_inputs[::-1] if op.name in _LAST_TERM_FIRST else op.diff_inputs):
            term = terms[name] if name in terms else zero_terms.get(name, False)
            if term is None:
                term = _creation.zeros_like(total)
            if term is not False:
                recorded = term if recorded is None else recorded + term
        if recorded.shape == total.shape:   # (a ZeroTensor adds nothing: the value is the other terms' sum)
            value = total._data.astype(recorded._data.dtype, copy=True)
            if any((op.name, name) in _MATERIALIZED_ZERO_TERMS for name in zero_terms):
                value = value + np.zeros((), value.dtype)   # (a real +0. added: -0. becomes 0.)
            recorded._data = np.asarray(value)
            total = recorded
    elif total is not None and total._data.flags.writeable and any(
            (op.name, name) in _MATERIALIZED_ZERO_TERMS for name in op.diff_inputs if name not in terms):
        total._data += np.zeros((), total._data.dtype)   # (the formula's own result: -0. becomes 0. in place)
    return total


# Terms whose PyTorch formula turns the ZeroTensor tangent into real zeros (pow_backward_self's
# ``where(exponent == 0, zeros({}), grad * ...)``; xlogy's and xlog1py's self terms), which the sum then adds as +0.
_MATERIALIZED_ZERO_TERMS = frozenset({("pow", "self"), ("xlogy", "self"), ("special_xlog1py", "self")})

# Terms PyTorch computes by running a backward op on the ZeroTensor tangent (``gelu_backward(grad_output_t, self_p)``
# in gelu_backward's formula): the ZeroTensor fallback hands the op real zeros, so the term is 0·∂f, a zero with
# the sign of ∂f (-0. where gelu'(x) < 0), which the sum keeps when the other term is -0. too.
_MATERIALIZED_ZERO_TANGENTS = frozenset({("gelu_backward", "grad_output"), ("log_sigmoid_backward", "grad_output")})


def _is_complex_factor(env, params, op, primals, _dispatch) -> bool:
    """Whether mul's other factor (a tensor or a Python number) is complex."""
    factor = _lookup(env, params[1], op, primals, _dispatch)
    return factor.is_complex() if hasattr(factor, "is_complex") else isinstance(factor, complex)


def _zero_term_recorded(env, params) -> bool:
    """Whether the term of an input without a tangent is recorded in PyTorch's tangent graph: some factor of it
    (a primal) requires grad, with grad mode on."""
    from .._tensor import Tensor
    from .grad_mode import is_grad_enabled
    return is_grad_enabled() and any(
        isinstance(v, Tensor) and v.requires_grad for v in (env.get(p) for p in params if p != "grad"))


# Ops whose PyTorch forward formula adds the terms in the other order (mul: ``other_t * self_p + self_t * other_p``):
# the same value, but the tangent's graph (an AddBackward0's inputs, the nodes' order) follows the formula.
_LAST_TERM_FIRST = frozenset({"mul"})

# Ops whose PyTorch forward formulas are their backward functions, which end in handle_r_to_c: the term of a real
# input keeps its real part even when the result is complex (real x ** complex y: a real tangent from x).
_REAL_PART_TERMS = frozenset({"pow"})


def _reduction_jvp(op, env, primals, tangents, outs, _dispatch):
    """Σ_i ∂f/∂x_i · t_i summed into each output element, for ops where every input element feeds one
    output element (sum-like reductions, losses): the backward formula with grad = 1 gives ∂f/∂x_i (its
    conjugate for complex x)."""
    from .._creation import ones_like
    result = outs[0]
    dim = env.get("dim")
    total = None
    for (formula, params), name in zip(op.formulas, op.diff_inputs):
        if primals[op.inputs.index(name)]._fw_grad is None:  # as PyTorch: no tangent adds nothing (not a +0.)
            continue
        env["grad"] = ones_like(result)
        env["grads"] = tuple(ones_like(o) for o in outs)
        grad = formula(*[_lookup(env, p, op, primals, _dispatch) for p in params])
        t = tangents[op.inputs.index(name)]
        # the backward formula gives conj(∂f/∂x) (PyTorch's convention for complex x), so the term is conj of it
        # times t; a real function of complex x keeps the real part
        term = grad.conj() * t if grad.is_complex() else grad * t
        if term.is_complex() and not result.is_complex():
            term = term.real
        if term.shape != result.shape or op.name in _SUMMED_JVPS:  # sum over the reduced elements, keep the dims or not
            term = term.sum() if dim is None else term.sum(dim, keepdim=bool(env.get("keepdim", False)))
            term = term if term.shape == result.shape else term.reshape(result.shape)
        total = term if total is None else total + term
    if total is not None and primals[0].numel() == 0 and (op.name == "std" or env.get("reduction") == 1):
        # over no elements, PyTorch's formulas divide their zero sum by the nan result (std) or by the count (a
        # loss's mean): a nan tangent, where the sum of the products here is 0
        total = total + float("nan")
    return total


# Reductions whose PyTorch formula sums the products even over dims of size 1 (prod_jvp, var_jvp, std's): a sum
# starts from 0, so a -0. product gives 0. (max.dim's gathers the tangent: -0. stays)
_SUMMED_JVPS = frozenset({"prod", "var", "std"})


def _lookup(env, name, op, primals, _dispatch):
    if name in env:
        return env[name]
    prop = _dispatch._input_property(name)  # e.g. self_sym_sizes
    if prop is not None:
        return _dispatch._PROPERTIES[prop[1]](primals[op.inputs.index(prop[0])])
    raise TypeError(f"{op.name}: jvp parameter {name!r} is not an input, tangent, output or argument")


def _in_func_transform() -> bool:
    """True under torch.func (jvp, jacfwd, vmap ...): PyTorch runs a custom Function's jvp there through
    functorch's own rule, which sets the tangents without the view check of _check_view_tangent."""
    from .. import _dispatch
    from .function import _TRANSFORMS_ACTIVE
    return bool(_TRANSFORMS_ACTIVE[0] or _transform_level.active or _dispatch._vmap_batched.DEPTH[0])


def _check_view_tangent(o, t, args) -> None:
    """A custom Function output that is a view of an input with a tangent (or the input returned as-is, which
    becomes a view of it) must get a tangent that is a view of that input's tangent: the two share memory as
    the primals do (PyTorch compares the bases; the input itself may be a view, then its tangent's base)."""
    for a in args:
        if a is None or not hasattr(a, "_fw_grad") or a._fw_grad is None:
            continue
        if o._base is (a._base if a._base is not None else a):
            grad = a._fw_grad
            if t._base is None or (t._base is not grad and (grad._base is None or t._base is not grad._base)):
                raise RuntimeError("A custom Function's forward is returning a view (or an input as-is) but the jvp "
                                   "is not returning a view.")
            return


def _refuse_no_tangent(o, args, dirty) -> None:
    """A custom Function's jvp returned None for a differentiable output: PyTorch's errors (it sets the
    undefined tangent on the output)."""
    if any(o is d for d in dirty):
        raise RuntimeError("An inplace custom Function is not modifying the forward mode gradients inplace. If the "
                           "forward is modifying an input inplace, then the jvp function must modify the "
                           "corresponding gradient inplace.")
    if o._base is not None or any(o is a for a in args):   # (a view, or an input given back)
        raise RuntimeError("cannot call get_autograd_meta() on undefined tensor")
    raise RuntimeError(_NOT_FLOATING_TANGENT)


# PyTorch's set_fw_grad assert, for a tangent of an integer or bool dtype and for jvp's None alike
_NOT_FLOATING_TANGENT = (
    "(new_grad_base.is_floating_point() || new_grad_base.is_complex()) && (self_base.is_floating_point() || "
    "self_base.is_complex()) INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/torch/csrc/autograd/autograd_meta.cpp\""
    ":159, please report a bug to PyTorch. Expected both tensor and its forward grad to be floating point or complex")


def _function_jvp(cls, node, args, outputs, originals) -> None:
    """A custom Function's outputs (all of them, a non-tensor one included; ``originals``: its tensor outputs as
    forward returned them) get their tangents from ``cls.jvp(ctx, *input_tangents)``."""
    from .._creation import zeros_like
    from .._tensor import Tensor
    if _suspended[0] or not _fwd_enabled[0]:
        return
    for a in args:   # (a view made before its base had a tangent gets it now)
        if isinstance(a, Tensor) and a._base is not None:
            _base_tangent_view(a)
    if all(not isinstance(a, Tensor) or a._fw_grad is None for a in args):
        return
    # An input without a tangent gets zeros (None after ctx.set_materialize_grads(False)); one of an integer/bool
    # dtype (never differentiable) gets None, as in PyTorch.
    materialize = getattr(node, "_materialize_grads", True)
    tangents = [(a._fw_grad if a._fw_grad is not None else zeros_like(a) if materialize else None)
                if isinstance(a, Tensor) and (a.dtype.is_floating_point or a.dtype.is_complex) else None
                for a in args]
    # the versions of the inputs' tangents before jvp runs (an input changed in place must have its tangent
    # changed in place too: see below)
    versions = [a._fw_grad._version if isinstance(a, Tensor) and a._fw_grad is not None else None for a in args]
    _suspended[0] = True
    _fwd_enabled[0] = False   # (PyTorch runs jvp with forward grad mode off: its inputs show no tangent)
    # what ctx.saved_tensors returns inside jvp: only what save_for_forward kept (as in PyTorch)
    node._jvp_saved = tuple(node.saved_for_forward or ())
    try:
        r = cls.jvp(node, *tangents)
    finally:
        _suspended[0] = False
        _fwd_enabled[0] = True
        node._jvp_saved = None
    r = r if isinstance(r, tuple) else (r,)
    for i, t in enumerate(r):   # (PyTorch converts the values before it counts them)
        if t is not None and not isinstance(t, Tensor):
            from .graph import _c_type_name
            raise RuntimeError(f"expected Variable or None (got {_c_type_name(t)}) for grad output {i}.")
    if len(r) != len(outputs):
        raise RuntimeError(f"Function's jvp returned an invalid number of forward gradients (expected "
                           f"{len(outputs)} but got {len(r)})")
    dirty = node.dirty_tensors or ()
    originals = iter(originals)
    for i, (o, t) in enumerate(zip(outputs, r)):
        if not isinstance(o, Tensor):   # (PyTorch ignores what jvp gives a non-tensor output)
            continue
        original = next(originals)
        if not (o.dtype.is_floating_point or o.dtype.is_complex) or any(
                original is n for n in node.non_differentiable or ()):
            if t is not None:
                raise RuntimeError(f"Function's jvp returned a gradient at position {i}, but  the corresponding "
                                   "forward output is not a differentiable Tensor.You should return None at that "
                                   "position instead.")
            continue
        if t is None:
            _refuse_no_tangent(o, args, dirty)
        if dirty and any(o is d for d in dirty):
            # an input changed in place keeps its tangent, which jvp must change in place too: PyTorch checks
            # that the returned tangent's version is not the one the input's tangent had before jvp ran
            j = next((k for k, a in enumerate(args) if a is o), None)
            if j is not None and versions[j] is not None and t is not None and t._version == versions[j]:
                raise RuntimeError("An inplace custom Function is not modifying the forward mode gradients inplace. "
                                   "If the forward is modifying an input inplace, then the jvp function must modify "
                                   "the corresponding gradient inplace.")
        elif t is not None and o._base is not None and not _in_func_transform():
            _check_view_tangent(o, t, args)
        if t is not None:
            if not (t.dtype.is_floating_point or t.dtype.is_complex):
                raise RuntimeError(_NOT_FLOATING_TANGENT)
            if t.shape != o.shape:
                raise RuntimeError("Trying to set a forward gradient that has a different size than that of the "
                                   f"original Tensor, this is not supported. Tensor is of size {list(o.shape)} "
                                   f"while the given forward gradient is of size {list(t.shape)}.")
            _set_tangent(o, t)
            # PyTorch packs ctx.save_for_backward's tensors after jvp ran: a saved output carries this tangent
            _share_with_saved_output(o, t)
