"""Which tensors are "batched" while ``torch.func.vmap`` runs its function, and PyTorch's errors that depend on it.

PyTorch's vmap hands the function BatchedTensors: ops on them are batched, ops on other tensors are not, and a
few things only work on unbatched tensors (``.item()``, data-dependent ``if``, writing a batched value into an
unbatched tensor in place). minigrad's vmap is a loop over plain slices (``func/_vmap.py``), so it keeps that
distinction on the side: each slice is marked with its vmap level (one bit per nested vmap), and while a vmap
runs every op goes through ``forward_ad._call_with_extras``, which gives each output its inputs' levels.
``autograd.grad(is_grads_batched=True)`` marks its gradient rows the same way, at a *legacy* level: PyTorch batches
that backward with its older vmap (torch._vmap_internals), whose refusals read otherwise (``LEGACY``).
(Top-level module: ``_tensor.py`` and ``_creation.py`` use it, and ``minigrad.func`` imports them.)
"""
from __future__ import annotations

import contextlib
import functools
import sys
import threading
import types
import weakref

import numpy as _np

from ._per_thread import PerThreadDict, PerThreadFlag, PerThreadList

# The state of the running transforms is per thread, as PyTorch's functorch levels (its DynamicLayer stack is
# thread-local): another thread's ops, random draws and backward passes meanwhile are plain ones.
DEPTH = PerThreadFlag(0)        # how many vmaps are running (0: none; the flag ops check)
SIZES = PerThreadList()   # the batch size of each running vmap, outermost first
RANDOMNESS = PerThreadList()  # the randomness flag of each running vmap
LEGACY = PerThreadList()  # per running vmap: True for the legacy one of autograd.grad(is_grads_batched=True)
GENERATORS = PerThreadList()  # per running vmap: {id: (generator, its state at first use)}, for randomness="same"
_TRANSFORMS_AT_ENTER = PerThreadList()  # autograd.function._TRANSFORMS_ACTIVE when each running vmap started
GRAD_TRANSFORMS = PerThreadFlag(0)  # how many grad / vjp transforms are running the user's function (func/_transforms)
_GRAD_AT_ENTER = PerThreadList()  # GRAD_TRANSFORMS when each running vmap started
TRANSFORM_CALLS = PerThreadList()  # the grad / vjp / jvp transform calls running the user's function (func/_transforms)
TRANSFORM_BACKWARD = PerThreadFlag(0)  # > 0 while a torch.func transform's backward runs (create_graph, grad mode on)
LIVE_LEVEL_BACKWARD = PerThreadFlag(0)  # > 0 while it runs inside its transform (grad, jvp), not in a later vjp_fn
_BACKWARD_AT_ENTER = PerThreadList()  # TRANSFORM_BACKWARD when each running vmap started
_FORWARD_AT_ENTER = PerThreadList()  # per running vmap: whether a forward AD level was on at its start (jvp(vmap(f)))
SUSPENDED = PerThreadFlag(False)  # True while a custom Function's own vmap rule runs its forward on plain tensors
DRAWS = PerThreadFlag(0)  # how many times this thread drew from a generator inside vmap (func/_vmap._Randomness)
SLICE_DRAWS = PerThreadFlag(0)  # DRAWS when the innermost vmap's running slice started
LATER_SLICE = PerThreadFlag(False)  # True while a running vmap calls its function for an example after its first
# (randomness="error": the generator's state a draw refused in the running slice leaves, set by a manual_seed before
# it; None: the state at the slice's start)
REFUSED_AT = PerThreadFlag(None)
# (inside a randomness="same" vmap, after its first example: the generator this thread's draws from the default one
# come from, a replay of what the first example drew, so other threads' draws meanwhile stay theirs)
REPLAY = PerThreadFlag(None)
IN_FALLBACK = PerThreadFlag(False)  # True while a composite runs that went through the fallback (see composite)
_OUTSIDE = PerThreadDict()  # id(tensor) -> weak reference: tensors the vmapped functions see from outside (unbatched)
_LEVELS = PerThreadDict()  # id(tensor) -> (weak reference, bit mask of the vmap levels it is batched at)
# How many vmaps run in all threads: while any does, every thread's ops take Op.__call__'s slower path (which reads
# the thread's own DEPTH), see forward_ad._sync_extras
RUNNING = [0]
_RUNNING_LOCK = threading.Lock()


def enter(size: int, func, unmapped: list, randomness: str = "error", legacy: bool = False) -> None:
    """A vmap starts calling ``func`` (``size`` slices); ``unmapped``: its tensor arguments with in_dim None;
    ``legacy``: PyTorch's legacy vmap (torch._vmap_internals), which batches ``is_grads_batched`` backwards."""
    from .autograd import forward_ad
    from .autograd.function import _TRANSFORMS_ACTIVE
    see_captured(func, unmapped)
    SIZES.append(size)
    RANDOMNESS.append(randomness)
    LEGACY.append(legacy)
    GENERATORS.append({})
    _TRANSFORMS_AT_ENTER.append(_TRANSFORMS_ACTIVE[0])
    _GRAD_AT_ENTER.append(GRAD_TRANSFORMS[0])
    _BACKWARD_AT_ENTER.append(TRANSFORM_BACKWARD[0])
    _FORWARD_AT_ENTER.append(forward_ad._level[0] is not None)
    DEPTH[0] += 1
    with _RUNNING_LOCK:
        RUNNING[0] += 1
        if RUNNING[0] == 1:   # (the first vmap to run: _base hides BatchedTensors' views from then on)
            from ._tensor import base_inside_vmap
            base_inside_vmap(True)
    forward_ad._sync_extras()


def exit_() -> None:
    """The innermost vmap is done: its marks go (all marks once the outermost one is)."""
    from .autograd import forward_ad
    SIZES.pop()
    RANDOMNESS.pop()
    LEGACY.pop()
    GENERATORS.pop()
    _TRANSFORMS_AT_ENTER.pop()
    _GRAD_AT_ENTER.pop()
    _BACKWARD_AT_ENTER.pop()
    _FORWARD_AT_ENTER.pop()
    DEPTH[0] -= 1
    with _RUNNING_LOCK:
        RUNNING[0] -= 1
        if RUNNING[0] == 0:
            from ._tensor import base_inside_vmap
            base_inside_vmap(False)
    if DEPTH[0] == 0:
        _LEVELS.clear()
        _OUTSIDE.clear()
        _BATCH_OUTER.clear()
    else:  # what this level made is batched at the outer levels only (its results are stacked out there)
        bit = 1 << DEPTH[0]
        for key, (ref, mask) in list(_LEVELS.items()):
            if mask & bit:
                if mask == bit:
                    del _LEVELS[key]
                else:
                    _LEVELS[key] = (ref, mask & ~bit)
    forward_ad._sync_extras()


def see_captured(func, unmapped: list = ()) -> None:
    """The tensors ``func`` reaches from outside (and ``unmapped``) are unbatched ones the user's code sees (those in
    its closure's dicts and tuples, or a helper's, too: func._vmap._reached_tensors)."""
    from ._tensor import Tensor
    from .func._vmap import _reached_tensors
    for t in (*unmapped, *_captured(func), *_reached_tensors(func)):
        if isinstance(t, Tensor):
            _OUTSIDE[id(t)] = weakref.ref(t)


def same_outside(new, old) -> None:
    """``new`` stands for ``old`` (a transform's wrapper of an argument): seen from outside the vmap as ``old`` is."""
    if _is_outside(old):
        _OUTSIDE[id(new)] = weakref.ref(new)


def _captured(func) -> list:
    """The values ``func`` can reach from outside: its closure, its module's globals, a partial's arguments."""
    values = []
    for _ in range(8):  # (partials of wrapped functions of ...: a few levels are plenty)
        if isinstance(func, functools.partial):
            values.extend(func.args)
            values.extend(func.keywords.values())
            func = func.func
            continue
        func = getattr(func, "__func__", func)  # (a bound method: its function)
        if not isinstance(func, types.FunctionType):
            break
        for cell in func.__closure__ or ():
            try:
                values.append(cell.cell_contents)
            except ValueError:  # (an empty cell)
                pass
        values.extend(func.__globals__.values())
        func = getattr(func, "__wrapped__", None)
    return values


# (minigrad._tensor: Tensor.new and torch.Tensor(...), minigrad._ops_shapes: Tensor.new_*, which only pass the call
# on to _creation)
_FACTORY_MODULES = ("minigrad._creation", "minigrad._arg_errors", "minigrad.overrides", "minigrad._tensor",
                    "minigrad._ops_shapes")


def created(t) -> None:
    """A factory made ``t`` inside vmap: when user code called it, ``t`` is an unbatched tensor of the user's."""
    frame = sys._getframe(2)
    while frame is not None and frame.f_globals.get("__name__") in _FACTORY_MODULES:
        frame = frame.f_back
    name = "" if frame is None else frame.f_globals.get("__name__", "")
    # (not minigrad's own buffer; torch.distributions is Python code over the public API, its tensors are the user's:
    # Normal.rsample's empty(shape).normal_() is refused under randomness="different")
    if name != "minigrad" and not name.startswith("minigrad.") or (
            name.startswith("minigrad.distributions.") and name != "minigrad.distributions._native"):
        _OUTSIDE[id(t)] = weakref.ref(t)


def unbatched(result) -> None:
    """An op's outputs made from unbatched tensors by the user's code inside vmap: PyTorch refuses to write a
    batched value into them in place, as into the function's unbatched inputs. (Not the temporaries of minigrad's
    own forward formulas and backward passes, which may mix unbatched values with batched tangents and grads.)"""
    from .autograd import forward_ad
    if forward_ad._suspended[0] or not _from_user():
        return
    for o in result if isinstance(result, (tuple, list)) else (result,):
        if hasattr(o, "_data"):
            _OUTSIDE[id(o)] = weakref.ref(o)


_INTERNAL = ("minigrad.autograd.engine", "minigrad.derivatives", "minigrad.func._transforms")


def _from_user() -> bool:
    """Whether the running op was called by user code, not inside a backward pass or a formula (a stack walk)."""
    frame = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name in _INTERNAL:
            return False
        if not name.startswith("minigrad"):
            return True
        frame = frame.f_back
    return True


def _is_outside(t) -> bool:
    """Whether ``t`` (or the base it is a view of) is a tensor the vmapped function sees from outside."""
    for x in (t, t._base):
        if x is not None:
            ref = _OUTSIDE.get(id(x))
            if ref is not None and ref() is x:
                return True
    return False


def levels(t) -> int:
    """The bit mask of the running vmap levels ``t`` is batched at (0: not batched)."""
    if SUSPENDED[0]:
        return 0
    entry = _LEVELS.get(id(t))
    return 0 if entry is None or entry[0]() is not t else entry[1]


def hides_autograd(t) -> bool:
    """Whether the user's code sees ``t`` as PyTorch's BatchedTensor, a wrapper without autograd state of its own
    (``requires_grad`` False, no ``grad_fn``, refused as a root of ``autograd.grad``): ``t`` is batched at a running
    vmap (not the legacy one) and no grad / vjp transform runs inside the innermost such vmap (whose wrapper would
    track it). minigrad's own loop still records the slices' graphs underneath, for what differentiates the vmap."""
    mask = levels(t)
    if not mask:
        return False
    level = mask.bit_length() - 1
    return not LEGACY[level] and GRAD_TRANSFORMS[0] == _GRAD_AT_ENTER[level]


def transposed_example(input, out) -> None:
    """``out`` is ``input.transpose(0, -1)`` of a 0-d ``input``: where ``input`` is a BatchedTensor, PyTorch's batch
    rule returns it as it is, not a view, so the example of a vmapped leaf is still refused in place as a leaf."""
    from . import _dispatch
    if _dispatch.TRANSFORM_LEAVES and _dispatch._is_transform_leaf(input) and hides_autograd(input):
        _dispatch.transform_leaf(out)


def mark(t, mask: int) -> None:
    """``t`` is batched at the levels in ``mask``."""
    if mask:
        _LEVELS[id(t)] = (weakref.ref(t), mask)


def set_levels(t, mask: int) -> None:
    """``t`` is batched at the levels in ``mask`` exactly (none: 0)."""
    if mask:
        mark(t, mask)
    else:
        _LEVELS.pop(id(t), None)


def mark_slice(t) -> None:
    """``t`` is a slice handed to the innermost vmap's function."""
    mark(t, levels(t) | 1 << (DEPTH[0] - 1))


def like(input, out):
    """``out``, made by a ``*_like`` factory from ``input``: batched as ``input`` is (as in PyTorch)."""
    if DEPTH[0]:
        mark(out, levels(input))
    return out


def physical(*operands) -> tuple:
    """The operands as PyTorch's batch rules for clamp, where, lerp, addcmul and addcdiv see them when they promote
    dtypes: a batched 0-d tensor is 1-d there (its batch dim), so it no longer gives way to the dimensioned tensors
    of its category as a "scalar" does (vmap(lambda m: x32.clamp(m, m + 1))(m64) is float64, x32 + m stays float32).
    Outside vmap: the operands themselves."""
    if not DEPTH[0]:
        return operands
    from ._tensor import Tensor
    return tuple(Tensor._make(_np.empty(1, o._data.dtype)) if isinstance(o, Tensor) and o._data.ndim == 0 and levels(o)
                 else o for o in operands)


# In-place binary ops with a batching rule of their own (binary_pointwise_inplace_batch_rule: the physical tensors'
# promotion); the others run through the slow fallback, example by example
_INPLACE_RULES = frozenset({"add", "sub", "mul", "div", "atan2", "copysign", "clamp_min", "clamp_max", "bitwise_and"})


def inplace_result_type(self, other, dt, name: str = ""):
    """``dt`` of ``self op= other`` inside vmap: PyTorch's kernel writes the physical tensor, where a batched 0-d
    example is [B], so an unbatched 0-d ``other`` gives way to self's dtype as a scalar does
    (x32.mul_(tensor(1.1, dtype=float64)) computes in float32; x32.atan2_(tensor(1., dtype=float64)) of complex64
    examples names ComplexFloat); a batched 0-d ``other`` is [B] there, padded to self's rank, so it promotes as a
    dimensioned tensor where the op ``name`` has a batching rule (c64.atan2_(x.nanmedian()) of float64 examples names
    ComplexDouble). ``dt`` itself otherwise (None stays None: one dtype, nothing to promote)."""
    from ._tensor import Tensor
    if dt is None or not DEPTH[0] or not isinstance(other, Tensor) or other._data.ndim or not levels(self):
        return dt
    from . import _dtypes
    if levels(other):
        return _dtypes.result_type(self, *physical(other)) if self._data.ndim and name in _INPLACE_RULES else dt
    return dt if self._data.ndim else _dtypes.result_type(*physical(self), other)


def batch_dims(t) -> int:
    """How many batch dims PyTorch's physical tensor of ``t`` has in front: one per running vmap level ``t`` is
    batched at (0 outside vmap). Its batch rules name physical dims in errors: logical dim + this."""
    return bin(levels(t)).count("1") if DEPTH[0] else 0


def levels_of(*inputs) -> int:
    """The levels any of ``inputs`` is batched at."""
    mask = 0
    for t in inputs:
        mask |= levels(t)
    return mask


def physical_dim(dim: int, *tensors) -> int:
    """``dim`` as a kernel under PyTorch's batch rules names it in its errors: one further per vmap level one of
    ``tensors`` is batched at (the batch dims go first)."""
    return dim + bin(levels_of(*tensors)).count("1") if DEPTH[0] else dim


def check_scalar_example_dim(t, dim) -> None:
    """select, unbind or split of a 0-d example batched at a running vmap: PyTorch's batch rule wraps ``dim`` as a
    scalar's (0 or -1 into 0; others refused as they are), moves it past the innermost level's batch dim and runs
    the op on that level's physical [B] tensor, which refuses dim 1 (where minigrad's kernel refuses a 0-d tensor)."""
    mask = levels(t) if DEPTH[0] else 0
    if mask and not LEGACY[mask.bit_length() - 1]:
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got "
                         f"{1 if dim in (0, -1) else dim})")


def permute_batch_dims(t, dims) -> int:
    """How many batch dims PyTorch's permute error counts for ``t.permute(dims)`` with a dim for each of ``t``'s
    missing or extra (its input.dim() and len(dims)): 1 where ``t`` is batched at a running vmap, whose batch rule
    first wraps each dim as the example's (refusing one out of its range) then permutes the physical tensor, batch
    dim in front; 0 elsewhere."""
    mask = levels(t) if DEPTH[0] else 0
    if not mask or LEGACY[mask.bit_length() - 1]:
        return 0
    from ._ops import _wrap_dim
    for d in dims:
        _wrap_dim(d, t.dim())
    return 1


def follow(out, *inputs):
    """``out``, computed from ``inputs`` outside the op table: batched as they are (unbatched as they are too)."""
    mask = levels_of(*inputs)
    if mask:
        mark(out, mask)
    else:
        unbatched(out)
    return out


# The ops whose batching rule in PyTorch's legacy vmap (is_grads_batched's, LegacyBatchingRegistrations.cpp) runs
# the op on the physical batch as it is laid out, so the result takes its layout (TensorIterator's): the elementwise
# ones, clone and to. Its other rules give C order (mm, sum, cat, new_zeros ...), and so does its fallback for an op
# it has no rule for, which stacks the slices' results (batchedTensorForLoopFallback).
_LEGACY_ELEMENTWISE = frozenset((
    "abs", "acos", "asin", "atan", "ceil", "cos", "cosh", "conj_physical", "digamma", "exp", "expm1", "floor", "frac",
    "lgamma", "log", "log10", "log1p", "log2", "neg", "reciprocal", "relu", "round", "rsqrt", "sigmoid", "sign",
    "sin", "sinh", "sqrt", "tan", "tanh", "trunc", "add", "sub", "rsub", "mul", "div", "pow", "sigmoid_backward",
    "threshold_backward", "clamp", "clamp_min", "clamp_max", "clone", "_to_copy", "eq", "gt", "ge", "le", "lt", "ne"))
_BATCH_OUTER = PerThreadDict()  # id(tensor) -> (weak reference, whether C order): see mark_batch_outer


def mark_batch_outer(result, name: str, tensors, mask: int) -> None:
    """Note ``result`` of op ``name`` on ``tensors`` (batched at ``mask``) where the innermost of those levels is a
    legacy one that makes the op's batch in C order (see _LEGACY_ELEMENTWISE), or an elementwise op runs on such a
    batch or a view of one: its batch dim is outermost then, the rows laid out as TensorIterator lays out one row of
    the physical operands (C order where such a batch is, whatever the loop's row of it). Not views (the legacy vmap
    has rules for views): a view's is its base's (autograd._stack_rows)."""
    if not (mask and LEGACY[mask.bit_length() - 1]):
        return
    noted = [batch_outer(t) for t in tensors]
    c_order = name not in _LEGACY_ELEMENTWISE
    if not c_order and any(k and t._base is None and not t._data.flags.c_contiguous for k, t in zip(noted, tensors)):
        from ._strides import _c_strides, _iterator_strides
        rows = [_np.lib.stride_tricks.as_strided(t._data, strides=_c_strides(t._data.shape, t._data.itemsize))
                if k and t._base is None else t._data for k, t in zip(noted, tensors) if hasattr(t, "_data")]
        shape = (result[0] if isinstance(result, tuple) else result)._data.shape   # (the stand-ins: strides only)
        c_order = _iterator_strides(rows, shape) in (None, _c_strides(shape, 1))
    if c_order or any(k is not None for k in noted):
        for o in result if isinstance(result, tuple) else (result,):
            if getattr(o, "_base", True) is None:
                _BATCH_OUTER[id(o)] = (weakref.ref(o), c_order)


def batch_outer(t) -> bool | None:
    """For a result (or a view of one) so noted while its legacy vmap runs: whether PyTorch's batch of it is in C
    order (else only its batch dim outermost); None for any other tensor."""
    base = getattr(t, "_base", None)
    t = t if base is None else base
    noted = _BATCH_OUTER.get(id(t))
    return noted[1] if noted is not None and noted[0]() is t else None


def mark_saved_outputs(result, mask: int) -> None:
    """The outputs the node of ``result`` saved (exp's, log_softmax's ...) are batched at ``mask`` too: they were
    saved while the op ran, before ``_call_with_extras`` marked them, and the backward formulas that check whether
    a saved output is batched (``_softmax_grad``) see the tensor rebuilt from them."""
    from ._tensor import Tensor
    node = next((o.grad_fn for o in (result if isinstance(result, tuple) else (result,))
                 if isinstance(o, Tensor) and o.grad_fn is not None), None)
    for saved in getattr(node, "_saved", ()):
        if getattr(saved, "_is_output", False):
            saved._vmap_levels = mask


def note_batch_sums(result, tensors, mask: int) -> None:
    """An op recorded batched at the levels in ``mask`` with an input that requires grad and is unbatched at some of
    them: a backward outside those vmaps runs PyTorch's formula on the physical tensors and sums that input's
    batched gradient over the batch dim, a reduction from +0, so all -0 arrives as +0 (jacrev(jacrev(f)) of a
    scalar f, whose inner vmap has one example); minigrad's slices each hand the input their own gradient. The
    node keeps (edge positions, the vmaps) for ``batch_summed``."""
    from ._tensor import Tensor
    from .func._vmap import _RULES
    outs = result if isinstance(result, tuple) else (result,)
    if any(o is t for o in outs for t in tensors):
        return   # (an input handed back: no node of this op's)
    node = next((o.grad_fn for o in outs if isinstance(o, Tensor) and o.grad_fn is not None), None)
    if node is None or not node._next_nrs:
        return
    nexts, nrs = (node._next_node,) + node._next_rest, node._next_nrs
    sums = []
    for t in tensors:
        missing = mask & ~levels(t) if isinstance(t, Tensor) and t._requires_grad else 0
        if missing:
            fn, nr = t._edge()
            where = tuple(i for i, (n, k) in enumerate(zip(nexts, nrs)) if n is fn and k == nr)
            if where:
                sums.append((where, tuple(weakref.ref(_RULES[i]) for i in range(len(_RULES)) if missing >> i & 1)))
    if sums:
        node._batch_sums = sums


def batch_summed(sums: list, grads):
    """``grads`` with +0 added to those ``note_batch_sums`` noted, where one of their vmaps has ended (a backward
    inside all of them, vmap(grad(f)), gives per-example gradients: no sum)."""
    from .func._vmap import _RULES
    out = list(grads)
    for where, vmaps in sums:
        if all(any(r() is v for v in _RULES) for r in vmaps):
            continue
        for i in where:
            g = out[i]
            if g is not None and g._data.dtype.kind in "fc":
                # (still batched at the vmaps running: jacrev's of a vjp_fn, which formulas check)
                out[i] = g + 0 if g._requires_grad else follow(type(g)._make(g._data + 0), g)
    return out


# ---- PyTorch's errors --------------------------------------------------------------------------------------

def _legacy(t) -> bool:
    """Whether the innermost vmap ``t`` is batched at is the legacy one (its errors are its fallback's)."""
    mask = levels(t)
    return bool(mask) and LEGACY[mask.bit_length() - 1]


def legacy_only() -> bool:
    """Whether every running vmap is a legacy one and no torch.func transform runs."""
    from .autograd.function import _TRANSFORMS_ACTIVE
    return bool(LEGACY) and all(LEGACY) and not _TRANSFORMS_ACTIVE[0]


def check_unsupported(name: str, decomposed: str) -> None:
    """An op PyTorch's vmap refuses outright, whatever its inputs and randomness flag (rrelu: its noise), called
    inside a running vmap (not the legacy one): refused under its own ``name``, or under the op a transform inside
    that vmap (grad, jvp) decomposes it into (``decomposed``: rrelu_with_noise)."""
    if DEPTH[0] and not LEGACY[-1]:
        raise RuntimeError(f"vmap: we do not yet support aten::{decomposed if _under_grad() else name}. Please file "
                           "an issue")


def _no_fallback(op: str) -> RuntimeError:
    """vmap's error for an op without a batching rule whose fallback cannot run it (the legacy vmap's, lstm_cell's)."""
    return RuntimeError(f"Batching rule not implemented for aten::{op}. We could not generate a fallback.")


# (the legacy vmap has no rule for detach, a view op: t.numpy(), t.detach() of a batched tensor)
_LEGACY_DETACH = ("Batching rule not implemented for aten::detach; the fallback path doesn't work on out= or view "
                  "ops.")
LEGACY_RANDOM = ("vmap: We do not yet support calling random operations inside of vmap. Please perform random "
                 "operations outside of vmap as a workaround")


def check_detach(t) -> None:
    """``t.detach()`` called by the user on a tensor batched by the legacy vmap (minigrad's own detach calls run)."""
    if _legacy(t):
        from ._tensor import _caller_module
        if not _caller_module(3).startswith("minigrad"):
            raise RuntimeError(_LEGACY_DETACH)


def check_repr(t) -> None:
    """Printing a tensor batched by the legacy vmap: PyTorch's printing asks ``is_nonzero``, which has no rule."""
    if _legacy(t):
        raise _no_fallback("is_nonzero")

_DETACH_VIEW = ("Can't detach views in-place. Use detach() instead. If you are using DistributedDataParallel (DDP) "
                "for training, and gradient_as_bucket_view is set as True, gradients are views of DDP buckets, and "
                "hence detach_() cannot be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")

def _under_grad() -> bool:
    """Whether a grad/vjp/jvp transform runs inside the innermost vmap, or its backward does (PyTorch's tensors are
    wrapped twice)."""
    from .autograd.function import _TRANSFORMS_ACTIVE
    return _TRANSFORMS_ACTIVE[0] > _TRANSFORMS_AT_ENTER[-1] or TRANSFORM_BACKWARD[0] > _BACKWARD_AT_ENTER[-1]


def reduces_flattened(t) -> bool:
    """Whether max() / min() / median() / nanmedian() of ``t`` is differentiated as PyTorch's batch rule computes it,
    the dim overload along the flattened example (the gradient to the picked index, not spread over ties; no saved
    input or result): ``t`` is batched, and its autograd or forward AD runs outside the vmap (grad of a vmap)."""
    mask = levels(t) if DEPTH[0] else 0
    if not mask or not (t._requires_grad or t._fw_grad is not None):
        return False
    from .autograd.function import _TRANSFORMS_ACTIVE
    level = mask.bit_length() - 1
    return (not LEGACY[level] and _TRANSFORMS_ACTIVE[0] == _TRANSFORMS_AT_ENTER[level]
            and TRANSFORM_BACKWARD[0] == _BACKWARD_AT_ENTER[level])


def reaches_vmap(*tensors, skip_legacy: bool = False) -> bool:
    """Whether a composite op without a batching rule (column_stack) reaches a vmap level that batches one of
    ``tensors``: PyTorch decomposes it at the first grad / vjp / jvp level it meets, so it only reaches the vmap
    levels inside the innermost running transform. ``skip_legacy``: not counting the legacy vmap of
    ``is_grads_batched``, which runs an op without a batching rule slice by slice (its fallback, as minigrad's loop)
    where functorch's vmap calls the op's decomposition."""
    from .autograd.function import _TRANSFORMS_ACTIVE
    mask, inner = levels_of(*tensors), _TRANSFORMS_ACTIVE[0]
    for level in reversed(range(DEPTH[0])):
        if inner > _TRANSFORMS_AT_ENTER[level]:  # (a transform runs inside this vmap: the op is decomposed there)
            return False
        if mask >> level & 1 and not (skip_legacy and LEGACY[level]):
            return True
        inner = _TRANSFORMS_AT_ENTER[level]
    return False


def batched_below_forward(*tensors) -> bool:
    """Whether a forward formula's op meets a vmap level batching one of ``tensors``: PyTorch runs the formula below
    its jvp level, so the vmaps that started before the forward level (jacfwd's), not those inside it."""
    mask = levels_of(*tensors)
    return any(mask >> level & 1 and not _FORWARD_AT_ENTER[level] for level in range(DEPTH[0]))


_EITHER = ("vmap: It looks like you're either (1) calling .item() on a Tensor or (2) attempting to use a Tensor in "
           "some data-dependent control flow or (3) encountering this error in PyTorch internals. For (1): we don't "
           "support vmap over calling .item() on a Tensor, please try to rewrite what you're doing with other "
           "operations. For (2): we don't support data-dependent control flow in vmap yet, please file an issue at "
           "https://github.com/pytorch/pytorch/issues . For (3): please file an issue.")


def check_item(t) -> None:
    """``.item()``, ``float()``, ``int()`` on a batched tensor."""
    if DEPTH[0] and levels(t):
        if _legacy(t):
            raise _no_fallback("item")
        if _under_grad():
            raise RuntimeError(_EITHER)
        raise RuntimeError("vmap: It looks like you're calling .item() on a Tensor. We don't support vmap over "
                           "calling .item() on a Tensor, please try to rewrite what you're doing with other "
                           "operations. If error is occurring somewhere inside PyTorch internals, please file a "
                           "bug report.")


def check_bool(t) -> None:
    """``if tensor:`` on a batched tensor."""
    if DEPTH[0] and levels(t):
        if _legacy(t):
            raise _no_fallback("is_nonzero")
        if _under_grad():
            raise RuntimeError(_EITHER)
        raise RuntimeError("vmap: It looks like you're attempting to use a Tensor in some data-dependent control "
                           "flow. We don't support that yet, please file an issue at "
                           "https://github.com/pytorch/pytorch/issues .")


def check_storage(t, numpy: bool = False) -> None:
    """``.tolist()``, ``.numpy()`` on a batched tensor (a BatchedTensor has no storage)."""
    if DEPTH[0] and levels(t):
        if numpy and _legacy(t):   # (PyTorch's numpy() detaches first)
            raise RuntimeError(_LEGACY_DETACH)
        raise RuntimeError("Cannot access data pointer of Tensor that doesn't have storage")


def check_no_storage_object(t) -> None:
    """``.untyped_storage()``, ``.storage()`` on a batched tensor."""
    if DEPTH[0] and levels(t):
        raise NotImplementedError("Cannot access storage of BatchedTensorImpl")


def check_data(t) -> None:
    """``.data`` of a batched tensor (the legacy vmap allows it)."""
    if DEPTH[0] and levels(t) and not _legacy(t):
        raise RuntimeError("accessing `data` under vmap transform is not allowed")


def check_dynamic(t, op_name: str) -> None:
    """An op whose output shape depends on the values (``nonzero``), on a batched tensor."""
    if DEPTH[0] and levels(t) and not _legacy(t):   # (the legacy vmap's fallback runs it slice by slice)
        raise RuntimeError("vmap: We do not support batching operators that can output dynamic shape. Attempted to "
                           f"vmap over {op_name}. Please file an issue at https://github.com/pytorch/pytorch/issues if "
                           "you need this feature.")


def check_mask_index(t, parts: tuple) -> list | None:
    """``t[mask]`` inside vmap with a batched boolean mask. PyTorch's batch rule only batches indices with elements,
    so a batched mask of empty examples goes on to the index kernel as it is: then the masks' levels (in order,
    0 for unbatched ones) for ``check_empty_masks``; None otherwise."""
    # (an unbatched mask on a batched tensor is fine: every slice keeps the same elements)
    masks = [i for i in parts if hasattr(i, "_data") and i._data.dtype.kind == "b"]
    if any(levels(m) and _physical_size(m) for m in masks):
        raise RuntimeError("vmap: We do not support batching operators that can support dynamic shape. Attempting "
                           "to batch over indexing with a boolean mask.")
    return [levels(m) for m in masks] if any(levels(m) for m in masks) else None


def _physical_size(t) -> int:
    """How many elements the batch rule of the innermost vmap level ``t`` is batched at sees in it: every example's
    there (none over a batch of none; an outer level's examples are one tensor to it)."""
    mask = levels(t)
    return t._data.size * SIZES[mask.bit_length() - 1] if mask else t._data.size


def check_empty_masks(t, view, advanced: list, mask_levels: list) -> None:
    """The index kernel's mask shape check as PyTorch runs it on batched empty masks (``check_mask_index``): on the
    physical tensors, the indexed one with its batch dims in front (an index each, before the user's) and each
    batched mask with its own, so sizes that match per example do not match there."""
    bools = [(dim, arr) for dim, arr in advanced if arr.dtype == _np.bool_]
    if len(bools) != len(mask_levels):  # (a list of bools among the indices: no tensor to read levels from)
        return

    def batch_sizes(mask: int) -> list:
        return [n for i, n in enumerate(SIZES) if mask >> i & 1]

    front = batch_sizes(levels(t))
    shape = front + list(view._data.shape)
    for (dim, arr), mask in zip(bools, mask_levels):
        _check_mask_shape(batch_sizes(mask) + list(arr.shape), shape, len(front) + dim)


def _check_mask_shape(mask_shape: list, shape: list, start: int) -> None:
    """The indexing kernel's check of a boolean mask against the dims of the indexed ``shape`` from ``start`` on."""
    for k, size in enumerate(mask_shape):
        src = start + k
        if src >= len(shape):
            raise IndexError(f"Dimension out of range (expected to be in range of [{-len(shape)}, "
                             f"{len(shape) - 1}], but got {src})")
        if size != shape[src]:
            raise IndexError(f"The shape of the mask {mask_shape} at index {k} does not match the shape of the "
                             f"indexed tensor {shape} at index {src}")


def check_index_put_masks(t, masks: list, others) -> None:
    """``index_put`` (or ``t[mask] = v``) inside vmap with a batched boolean mask, as PyTorch's batch rule at the
    innermost level any operand is batched at runs it: a mask batched there with elements is refused (dynamic
    shape); an empty one meets the kernel's mask shape check, with that level's batch dim in front of ``t``'s
    shape and of the mask's (its dims from ``dim`` on); a mask batched at outer levels only reaches them as
    ``nonzero``'s indices, refused there. ``masks``: (mask, the dim of ``t`` it starts at); ``others``: the
    other operands (values, indices)."""
    mask = levels_of(t, *others, *(m for m, _ in masks))
    if not mask or not any(levels(m) for m, _ in masks) or LEGACY[mask.bit_length() - 1]:
        return
    level = mask.bit_length() - 1
    for m, dim in masks:
        if not levels(m) >> level & 1:
            if levels(m):
                check_dynamic(m, "aten::nonzero")
            continue
        if _physical_size(m):
            raise RuntimeError("vmap: We do not support batching operators that can support dynamic shape. "
                               "Attempting to batch over indexing with a boolean mask.")
        # (the rule's batch dim goes first in both shapes)
        _check_mask_shape([SIZES[level], *m._data.shape], [SIZES[level], *t._data.shape], 1 + dim)


def _at_no_examples(mask: int) -> bool:
    """Whether one of the (non-legacy) vmap levels in ``mask`` runs over a batch of no examples."""
    return any(mask >> i & 1 and SIZES[i] == 0 and not LEGACY[i] for i in range(DEPTH[0]))


def no_examples(t) -> bool:
    """Whether ``t`` is batched at a vmap over no examples: PyTorch's physical tensor has no elements then, even
    where each example of minigrad's (a stand-in) has some."""
    return _at_no_examples(levels(t))


# minigrad's functions that are PyTorch composites viewing with a -1 (inside vmap, its view batch rule sees their
# views); minigrad's other internal views stand for kernels with batching rules of their own
_COMPOSITE_VIEWS = frozenset({"meshgrid", "ravel"})
_VIEW_FRONTS = ("minigrad._ops", "minigrad._tensor", "minigrad.overrides", "minigrad._arg_errors")


def _view_from_user() -> bool:
    """Whether the running view was asked for by user code or one of ``_COMPOSITE_VIEWS`` (a stack walk)."""
    frame, module = sys._getframe(2), ""
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        # (past the view's front-ends, and past minigrad's comprehensions to the function they run in)
        if not (module in _VIEW_FRONTS or module.startswith("minigrad") and frame.f_code.co_name.startswith("<")):
            break
        frame = frame.f_back
    return frame is None or not module.startswith("minigrad") or frame.f_code.co_name in _COMPOSITE_VIEWS


def check_view_of_no_examples(t, size) -> None:
    """``t.view(size)`` with a -1 in ``size``, ``t`` batched at a vmap over no examples: PyTorch's view batch rule
    views the physical tensor, whose 0 elements make the -1 ambiguous even where the example has elements
    (meshgrid's view(-1, 1), so cartesian_prod and combinations; ravel). So does view's forward formula,
    ``self_t.view(size)``, on a tangent batched there (jacfwd of a function of an input without elements)."""
    if not _view_from_user():
        return
    for x in (t, t._fw_grad):
        if x is not None and _at_no_examples(levels(x)):
            raise physical_view_error(x, size, RuntimeError("of 0 elements"))


def check_fallback_examples(name: str, *tensors) -> None:
    """An op without a batching rule (PyTorch runs it through its slow fallback, example by example) on a tensor
    batched at a vmap over no examples: the fallback cannot know the outputs' shapes and refuses."""
    if DEPTH[0] and _at_no_examples(levels_of(*(t for t in tensors if t is not None))):
        raise RuntimeError(f"Batching rule not implemented for aten::{name}. The fallback path does not support "
                           "vmap over dims of size 0.")


def fallback(overload: str, *tensors, out=None, composite: bool = False) -> bool:
    """The user's call of an op without a batching rule (``overload``: its aten name, ``scatter_.reduce``) inside
    vmap, where PyTorch runs its fallback: the warning, for an in-place op (``out``: the tensor written) the refusal
    to write a batched value into an unbatched ``out``, then the refusal of a batch of no examples, before the op's
    own checks. ``composite``: a PyTorch composite (fill_diagonal_, float_power_, clip_, square_), which reaches the
    fallback only where one of ``tensors`` is a BatchedTensor: a grad transform inside the vmap decomposes it first.
    Whether the fallback runs the op."""
    if not DEPTH[0] or IN_FALLBACK[0] or composite and not any(hides_autograd(t) for t in tensors):
        return False
    warn_fallback(overload, *tensors)
    if out is not None:
        check_inplace(overload.split(".")[0], out, tensors)
    check_fallback_examples(overload, *tensors)
    return True


@contextlib.contextmanager
def composite(overload: str, *tensors, out=None):
    """The block runs a PyTorch composite without a batching rule (``overload``: float_power_.Tensor, greater_.Scalar,
    fix_) with minigrad's ops (pow_, gt_, trunc_): where it reaches the fallback under its own name (see
    ``fallback``), the fallback runs it on each example's plain tensors, so those ops do not go through it again."""
    ran = fallback(overload, *tensors, out=out, composite=True)
    was = IN_FALLBACK[0]
    IN_FALLBACK[0] = was or ran
    try:
        yield
    finally:
        IN_FALLBACK[0] = was


def physical_view_error(t, size, error: RuntimeError) -> RuntimeError:
    """``error`` ("shape ... is invalid for input of size ...") of ``t.view(size)``, or of ``t.reshape(size)`` on a
    contiguous example, as PyTorch's view batch rule gives it inside vmap: it views the physical tensor, so the
    shape has the batch sizes in front (outermost first) and the size counts every example."""
    mask = levels(t) if DEPTH[0] else 0
    if not mask or LEGACY[mask.bit_length() - 1]:
        return error
    sizes = [n for i, n in enumerate(SIZES) if mask >> i & 1]
    if "of 0 elements" in str(error) or -1 in size and 0 in sizes:
        # (a -1 next to a 0, or over no examples: the same ambiguity with the batch sizes in front)
        return RuntimeError(f"cannot reshape tensor of 0 elements into shape {sizes + list(size)} because the "
                            "unspecified dimension size -1 can be any value and is ambiguous")
    numel = t._data.size
    for n in sizes:
        numel *= n
    return RuntimeError(f"shape '{sizes + list(size)}' is invalid for input of size {numel}")


def physical_conv(input, weight, groups: int) -> tuple[list, list, int]:
    """(input's shape, weight's shape, groups) of the convolution PyTorch's batch rule runs inside vmap, whose shape
    checks name them: a batched input's examples become more samples ([B·N, C, ...]), a batched weight's more
    output channels ([B·O, ...]), and both batched a grouped convolution ([N, B·C, ...], groups·B). (``input``
    as the convolution sees it: [N, C, ...].) Outside vmap, or batched at different levels: the shapes as they are."""
    x, w = list(input._data.shape), list(weight._data.shape)
    li, lw = (levels(input), levels(weight)) if DEPTH[0] else (0, 0)
    if not (li or lw) or (li and lw and li != lw):
        return x, w, groups
    size = 1
    for i, n in enumerate(SIZES):
        if (li | lw) >> i & 1:
            size *= n
    if lw:
        w[0] *= size
    if li and lw:
        return [x[0], x[1] * size, *x[2:]], w, groups * size
    if li:
        x[0] *= size
    return x, w, groups


def batch_offset(t) -> int:
    """Where ``t``'s example starts in the memory of the vmapped input it views, from the batch's first example's
    start (0 for a tensor of its own): PyTorch's as_strided batch rule reads every example at the requested
    storage offset plus its batch index times the batch dim's stride, where a loop's slice would read the first."""
    mask = levels(t) if DEPTH[0] else 0
    if not mask:
        return 0
    return sum(i * stride for i, stride, viewed in _batch_strides(t) if viewed)


def _batch_strides(t) -> list:
    """(batch index, the physical batch dim's stride, whether ``t`` views the vmapped input's memory) per vmap
    level ``t`` is batched at, outermost first: the stride is the input's at its in_dim where ``t`` views its
    memory, else that of a new batch-first tensor (whose examples a loop makes one by one: no offset between)."""
    from .derivatives import _storage
    from .func._vmap import _RULES
    mask = levels(t)
    memory = _storage(t._data)[0].__array_interface__["data"][0]
    out = []
    for level, rules in enumerate(_RULES):
        if mask >> level & 1:
            found = [whole.stride(d) for whole, d in zip(rules.flat_args, rules.flat_in_dims)
                     if d is not None and _storage(whole._data)[0].__array_interface__["data"][0] == memory]
            index = rules.slice % rules.chunk if rules.chunk else rules.slice  # (from its chunk's start)
            out.append([index, found[0] if found else None, bool(found)])
    numel = t._data.size
    for pair, size in zip(reversed(out), reversed([n for i, n in enumerate(SIZES) if mask >> i & 1])):
        if pair[1] is None:   # (a new tensor's examples one after another: inner batch dims first)
            pair[1] = numel
        numel *= size
    return [tuple(p) for p in out]


def check_as_strided(t, size, stride, storage_offset) -> None:
    """``t.as_strided(size, stride, storage_offset)`` inside vmap: PyTorch's batch rule refuses a view that reaches
    outside the example (checked for the first example: the memory from the batch's start, where ``t`` starts at
    its batch offset past it)."""
    if not (DEPTH[0] and levels(t)) or LEGACY[levels(t).bit_length() - 1]:
        return
    if len(size) != len(stride):
        raise RuntimeError(f"Tensor.as_strided(size, stride, ...): size and stride must have the same length! Got "
                           f"size {list(size)} and stride {list(stride)}")

    def last(sizes, strides, offset):  # (storage_size_for: one past the last element reached, None if empty)
        return None if 0 in sizes else offset + 1 + sum((n - 1) * st for n, st in zip(sizes, strides))
    base = t.storage_offset() - batch_offset(t)
    offset = base if storage_offset is None else storage_offset
    reach, own = last(size, stride, offset), last(t.shape, t.stride(), base)
    if reach is not None and own is not None and not (reach <= own and base <= offset):
        raise RuntimeError(f"result = tensor.as_strided({list(size)}, {list(stride)}, {offset}) can access memory "
                           f"outside of `tensor`. `result` can access some memory in range [{offset}, {reach}], but "
                           f"`tensor` can only access some memory in range [{base}, {own}]. This is not supported "
                           "inside of vmap, please try to rewrite the `as_strided` call as a sequence of PyTorch view "
                           "operations")
    if any(st < 0 for st in stride):   # (the kernel's check, on the physical strides)
        strides = [st for _, st, _ in _batch_strides(t)] + list(stride)
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {strides}")


def check_compare_all(a, b, what: str) -> None:
    """``torch.equal`` / ``torch.allclose`` (a Python bool) on batched tensors."""
    if DEPTH[0] and (levels(a) or levels(b)):
        if what == "equal" or _legacy(a) or _legacy(b):   # (the legacy vmap has no rule for allclose either)
            raise _no_fallback(what)
        raise RuntimeError("vmap over torch.allclose isn't supported yet. Please file an issue at "
                           "https://github.com/pytorch/pytorch/issues if you need this feature.")


def check_dot_sizes(a, b) -> None:
    """dot(a, b) (or a @ b) of vectors of different sizes, one of them batched (at one vmap level): PyTorch's batch
    rule (dot_batch_rule) computes it through matmul on the physical tensors, whose error shows instead of dot's:
    both batched, [B, 1, n] @ [B, m, 1] (bmm); a alone, [B, n] @ b (mv); b alone, a @ [B, m].T (mm)."""
    la, lb = levels(a), levels(b)
    mask = la | lb
    if not mask or mask & (mask - 1):   # (unbatched, or batched at several levels: the plain error)
        return
    size, n, m = SIZES[mask.bit_length() - 1], a._data.shape[0], b._data.shape[0]
    if la and lb:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {n}] but got: "
                           f"[{size}, {m}].")
    if la:
        raise RuntimeError(f"size mismatch, got input ({size}), mat ({size}x{n}), vec ({m})")
    raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied (1x{n} and {m}x{size})")


def check_dot_dtypes(a, b) -> None:
    """dot(a, b) / vdot(a, b) of vectors of different dtypes, one of them batched (at one vmap level): the dtype
    error of the matmul PyTorch's batch rule runs (see check_dot_sizes): bmm's, mv's (addmv) or mm's."""
    la, lb = levels(a), levels(b)
    mask = la | lb
    if not mask or mask & (mask - 1):
        return
    from ._ops import _check_mm_dtypes
    _check_mm_dtypes(a, b, "bmm" if la and lb else "mv" if la else "mm")


def dot_value_as_batched_matmul(a, b, out) -> None:
    """vmap(torch.dot) over two vectors batched alike: PyTorch's batch rule (dot_batch_rule) computes it as
    [B, 1, n] @ [B, n, 1], whose kernel sums each row in another order than dot's. Each slice's value is set to
    that 1×n @ n×1 product's; the node stays DotBackward0 (autograd records dot above the batch rule, so the
    backward is dot's formula). (One vector batched: PyTorch's mv over the B rows, not reproduced per slice; nor
    complex vectors, whose batched product sums in yet another order.)"""
    mask = levels(a)
    if not mask or levels(b) != mask or a.dtype.is_complex:
        return
    from .autograd import grad_mode
    with grad_mode.no_grad():
        value = (a.unsqueeze(0) @ b.unsqueeze(1))._data
    out._data[...] = value.reshape(out._data.shape)


def _one_level(*tensors):
    """(levels of each tensor, the batch size) when they are batched at one vmap level together, else None."""
    masks = [levels(t) for t in tensors]
    mask = 0
    for m in masks:
        mask |= m
    if not mask or mask & (mask - 1):   # (unbatched, or batched at several levels: the plain error)
        return None
    return masks, SIZES[mask.bit_length() - 1]


def _bmm_error(size: int, k: int, m: int) -> RuntimeError:
    return RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{size}, {k}] but got: "
                        f"[{size}, {m}].")


def check_mm_sizes(a, b) -> None:
    """mm(a, b) (or a @ b of matrices, or of a vector and a matrix) whose inner sizes differ, inside vmap: PyTorch's
    batch rule multiplies the physical tensors: a alone batched, [B·n, k] @ b (mm); otherwise a bmm (a expanded)."""
    found = _one_level(a, b)
    if found is None:
        return
    (la, lb), size = found
    (n, k), (m, p) = a._data.shape, b._data.shape
    if la and not lb:
        raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({size * n}x{k} and {m}x{p})")
    raise _bmm_error(size, k, m)


def check_mm_dtypes(a, b) -> None:
    """mm(a, b) of two dtypes inside vmap: PyTorch's batch rule multiplies the physical tensors, a alone batched by
    mm (the plain error), otherwise by a bmm, whose dtype check words it its own way."""
    found = _one_level(a, b)
    if found is None or (found[0][0] and not found[0][1]):
        return
    from ._ops import _legacy
    raise RuntimeError(f"expected scalar type {_legacy(a.dtype)} but found {_legacy(b.dtype)}")


def bmm_as_matmul(a, b) -> bool:
    """bmm(a, b) inside vmap that the unbatched op refuses (ranks, sizes, dtypes): PyTorch's batch rule checks the
    ranks, then runs matmul on the physical tensors (batch dim in front), whose error names their folded or
    broadcast sizes. True when that matmul works instead (an example of batch 1 broadcast: the caller's slice runs
    matmul too); False outside one vmap level (the plain error)."""
    found = _one_level(a, b)
    if found is None:
        return False
    (la, lb), size = found
    if a.dim() != 3 or b.dim() != 3:
        raise RuntimeError(f"Shape mismatch: Got incorrect dims for bmm(a, b). a has dim {a.dim()}and b has dim "
                           f"{b.dim()}but expected them to have dim 3 and dim 3")
    from ._ops import matmul
    from ._tensor import Tensor

    def stand_in(t, batched):   # (the physical tensor's shape and dtype, no values needed for its error)
        return Tensor._make(_np.broadcast_to(_np.zeros((), t._data.dtype), ((size,) if batched else ()) + t.shape))
    suspended, SUSPENDED[0] = SUSPENDED[0], True
    try:
        matmul(stand_in(a, la), stand_in(b, lb))
    finally:
        SUSPENDED[0] = suspended
    return True


def check_mv_sizes(mat, vec) -> None:
    """mv(mat, vec) (or mat @ vec) whose sizes differ, inside vmap: PyTorch's batch rule multiplies the physical
    tensors: both batched a bmm; mat alone [B·n, k] @ vec (mv); vec alone mat @ [B, m].T (mm)."""
    found = _one_level(mat, vec)
    if found is None:
        return
    (lm, lv), size = found
    (n, k), m = mat._data.shape, vec._data.shape[0]
    if lm and lv:
        raise _bmm_error(size, k, m)
    if lm:
        raise RuntimeError(f"size mismatch, got input ({size * n}), mat ({size * n}x{k}), vec ({m})")
    raise RuntimeError(f"mat1 and mat2 shapes cannot be multiplied ({n}x{k} and {m}x{size})")


def check_mv_dtypes(mat, vec) -> None:
    """mv(mat, vec) (or mat @ vec) of two dtypes inside vmap: PyTorch's batch rule multiplies the physical tensors:
    both batched a bmm, vec alone an mm (each worded its own way); mat alone [B·n, k] @ vec (mv: the plain error)."""
    found = _one_level(mat, vec)
    if found is None or (found[0][0] and not found[0][1]):
        return
    from ._ops import _check_mm_dtypes
    _check_mm_dtypes(mat, vec, "bmm" if found[0][0] else "mm")


def check_batch_norm(input, running_mean, running_var) -> None:
    """Training-mode batch norm on a batched input whose running statistics (updated in place) are not batched."""
    mask = levels(input)
    if mask and any(r is not None and mask & ~levels(r) for r in (running_mean, running_var)):
        raise RuntimeError("Batch norm got a batched tensor as input while the running_mean or running_var, which "
                           "will be updated in place, were not batched.\nIf you are using a module and do not need "
                           "eval mode, please set `track_running_stats` to be False.If you are using a prebuilt "
                           "module and do not need eval mode, please see the functorch website for resources on how "
                           "to patch your module to work with vmap")


def check_scalar_dims(t, dims, tangent: bool = True) -> None:
    """flip / roll of a batched 0-d tensor along a dim: PyTorch's batching rule adds 1 for the batch dim to the dim
    wrapped against the 0-d tensor, which the 1-d physical tensor then refuses (a dim the 0-d one refuses as is)."""
    # (a dual whose tangent is batched counts for flip: jacfwd's tangents are, and PyTorch flips them after the
    # primal; roll's own check of the 0-d primal comes first: tangent=False)
    if dims and DEPTH[0] and t.dim() == 0 and (levels(t) and not _legacy(t) or tangent and t._fw_grad is not None
                                               and levels(t._fw_grad)):
        # (not at the legacy vmap of is_grads_batched: it has no flip / roll rule, its fallback runs each 0-d slice)
        d = dims[0] if dims[0] not in (-1, 0) else 1
        raise IndexError(f"Dimension out of range (expected to be in range of [-1, 0], but got {d})")


def full_overlap(out, t) -> bool:
    """Whether writing into ``out`` while reading ``t`` (same memory) is PyTorch's full overlap inside vmap.

    Its batching rules pad the lower-rank physical tensor with size-1 dims before the kernel compares the two, so
    ``x.view(1, 1).mul_(x)`` of a batched 1-element ``x`` reads exactly the written elements (strides of size-1
    dims are not compared here: PyTorch's padding view gives both the same).
    """
    if not levels(out) or levels(out) != levels(t):
        return False
    a, b = out._data, t._data
    if a.__array_interface__["data"][0] != b.__array_interface__["data"][0]:
        return False
    n = max(a.ndim, b.ndim)
    shape_a, shape_b = (1,) * (n - a.ndim) + a.shape, (1,) * (n - b.ndim) + b.shape
    strides_a, strides_b = (0,) * (n - a.ndim) + a.strides, (0,) * (n - b.ndim) + b.strides
    return shape_a == shape_b and all(sa == sb for k, sa, sb in zip(shape_a, strides_a, strides_b) if k != 1)


# Ops with out= taking a list of tensors: PyTorch's fallback cannot even be generated for them
LIST_OUT = frozenset({"cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
                      "row_stack"})


def check_out(name: str, out, inputs) -> None:
    """An ``out=`` argument inside vmap, with a batched tensor involved: PyTorch has no batching rule for it."""
    if any(levels(t) for t in (out, *inputs)):
        if name in LIST_OUT:
            raise RuntimeError(f"Batching rule not implemented for aten::{name}.out. We could not generate a fallback.")
        overload = "self_out" if name == "where" else "out"  # (where(cond, x, y, out=): aten::where.self_out)
        raise RuntimeError(f"Batching rule not implemented for aten::{name}.{overload}; the fallback path doesn't "
                           "work on out= or view ops.")


def check_random(inputs, inplace_self=None) -> None:
    """A random op inside vmap: PyTorch's refusals for randomness="same" / "different" (the legacy vmap's: any)."""
    if LEGACY[-1]:
        raise RuntimeError(LEGACY_RANDOM)
    mode = RANDOMNESS[-1]
    if mode == "same" and any(levels(t) for t in inputs if hasattr(t, "_data")):
        raise RuntimeError("Vmap does not currently support same randomness with a batched tensor input. Please "
                           "file an issue with functorch")
    if mode == "different" and inplace_self is not None and not levels(inplace_self) and _is_outside(inplace_self):
        raise RuntimeError("vmap: Cannot ask for different inplace randomness on an unbatched tensor. This will "
                           "appear like same randomness. If this is necessary for your usage, please file an issue "
                           "with functorch.")


RANDOM_IN_ERROR_MODE = ("vmap: called random operation while in randomness error mode. Please either use the "
                        "'same' or 'different' randomness flags on vmap or perform the randomness operation out of "
                        "vmap")


def explicit_generator(g) -> None:
    """A random op inside vmap draws from ``generator=g``: refused in "error" mode (PyTorch raises at the op, for
    any generator); in "same" mode every slice must draw what the first did, so g's state is kept to be restored
    before each slice (func/_vmap.py does it for the default generator)."""
    mode = RANDOMNESS[-1]
    if LEGACY[-1]:
        raise RuntimeError(LEGACY_RANDOM)
    if mode == "error":
        raise RuntimeError(RANDOM_IN_ERROR_MODE)
    if mode == "same" and id(g) not in GENERATORS[-1]:
        GENERATORS[-1][id(g)] = (g, g.get_state())


def check_resize_(t) -> None:
    """resize_ of a vmap input's example: functorch's resize_ rule asserts that the physical batch dim is 0 at each
    level, innermost first (an in_dims=1 input, or an outer vmap's, fails; views and tensors made inside are
    batch-first there, as minigrad takes them)."""
    from .func._vmap import _RULES
    for rules in reversed(_RULES):
        found = next(((whole, d) for a, whole, d in zip(rules.flat, rules.flat_args, rules.flat_in_dims) if a is t),
                     None)
        if found is None:
            return
        whole, d = found
        if d is not None and d % whole.dim():
            raise RuntimeError('self_bdim == 0 INTERNAL ASSERT FAILED at "/__w/pytorch/pytorch/aten/src/ATen/functorch/'
                               'BatchRulesViews.cpp":170, please report a bug to PyTorch. NYI: resize_ batch rule for '
                               'batch dim != 0')
        t = whole


def check_masked_select(mask) -> None:
    """``torch.masked_select`` with a batched mask (each slice would select a different number of elements; the
    legacy vmap's fallback runs it slice by slice)."""
    if levels(mask) and not _legacy(mask):
        raise RuntimeError("vmap: Attempted to vmap over `mask` in torch.masked_select(self, mask) We cannot "
                           "support this because for each batch this would return a differently shaped Tensor. "
                           "Please file an issue at https://github.com/pytorch/pytorch/issues if you need this "
                           "feature.")


def check_detach_(t) -> None:
    """``detach_()`` on a batched tensor: PyTorch has no batching rule, its fallback detaches a slice (a view).
    Not under a grad transform inside the vmap: detach_ is the wrapper's autograd kernel, which does not go on."""
    mask = levels(t) if DEPTH[0] else 0
    if mask and (hides_autograd(t) or LEGACY[mask.bit_length() - 1]):
        _warn_fallback("detach_")
        raise RuntimeError(_DETACH_VIEW)


def _warn_fallback(op: str) -> None:
    """PyTorch's warning where vmap runs ``op`` (``aten::`` overload name) slice by slice, having no batch rule."""
    import warnings

    from ._tensor import _user_stacklevel
    warnings.warn(f"There is a performance drop because we have not yet implemented the batching rule for aten::{op}. "
                  "Please file us an issue on GitHub so that we can prioritize its implementation. (Triggered "
                  "internally at /__w/pytorch/pytorch/aten/src/ATen/functorch/BatchedFallback.cpp:82.)", UserWarning,
                  stacklevel=_user_stacklevel())


def rnn_fallback(op: str, *tensors) -> int:
    """An RNN op (no batch rule) called inside vmap with some of ``tensors`` batched where no grad transform runs
    inside that vmap (which would decompose it into ops with rules, in-place ones among them): the levels at which
    PyTorch's fallback runs a cell (``op``: rnn_tanh_cell, rnn_relu_cell, gru_cell) on each example's plain tensors,
    after its warning; 0 if none. Ops taking lists of tensors have no fallback: lstm_cell (its hidden states) and
    the layers (rnn_tanh, rnn_relu, gru, lstm, ``.input`` or ``.data``: their weights) are refused."""
    tensors = [t for t in tensors if t is not None]
    if not any(hides_autograd(t) for t in tensors):
        return 0
    if not op.endswith("_cell") or op == "lstm_cell":
        raise _no_fallback(op)
    _warn_fallback(op)
    return levels_of(*tensors)


def warn_composite_fallback(op: str, *tensors) -> None:
    """``op``, a PyTorch composite without a batch rule (bilinear, _upsample_nearest_exact2d.vec), called inside
    vmap: its fallback warns where one of ``tensors`` is batched and no grad transform runs inside that vmap (one
    would decompose the op into others first, whose fallbacks warn in turn: not emulated)."""
    if any(hides_autograd(t) for t in tensors if t is not None):
        warn_fallback(op, *tensors)


def warn_fallback(op: str, *tensors) -> None:
    """``op`` without a batch rule (clamp_, _standard_gamma_grad) called inside vmap: PyTorch's fallback warns when
    one of ``tensors`` is batched at a running vmap level (the legacy vmap's fallback does not warn)."""
    if RANDOMNESS[-1] == "error" and DRAWS[0] != SLICE_DRAWS[0]:
        return   # (PyTorch raised at the draw; the loop refuses the slice once it is done: see func/_vmap._Randomness)
    mask = levels_of(*(t for t in tensors if hasattr(t, "_data")))
    if any(mask >> i & 1 and not LEGACY[i] for i in range(DEPTH[0])):
        _warn_fallback(op)


def check_requires_grad_() -> None:
    """``Tensor.requires_grad_()`` called by the user (or autograd.functional) while a torch.func transform runs."""
    from .autograd.function import _TRANSFORMS_ACTIVE
    if not (DEPTH[0] or _TRANSFORMS_ACTIVE[0]) or legacy_only():
        return
    from ._tensor import _caller_module
    name = _caller_module(3)  # (the caller of Tensor.requires_grad_)
    # minigrad's own transforms make their leaves this way; PyTorch's do it beneath requires_grad_
    if name.startswith("minigrad") and name != "minigrad.autograd.functional":
        return
    raise RuntimeError("You are attempting to call Tensor.requires_grad_() (or perhaps using "
                       "torch.autograd.functional.* APIs) inside of a function being transformed by a functorch "
                       "transform. This is unsupported, please attempt to use the functorch transforms (e.g. grad, "
                       "vjp, jacrev, jacfwd, hessian) or call requires_grad_() outside of a function being "
                       "transformed instead.")


# PyTorch's batching rules name some in-place ops in their message; the rest go through its fallback
# ("aten::<op>_ ... at level N"). Keyed by op name, or by node name where the overloads differ.
_RULE_NAMES = {"sub": "inplace arithmetic", "mul": "inplace arithmetic", "div": "inplace arithmetic",
               "copy_": "inplace arithmetic", "masked_fill": "inplace arithmetic", "index_put_": "index_put_",
               "_index_put_impl_": "index_put_", "fill_": "fill_", "index_add": "index_add_",
               "index_fill": "index_fill_", "clamp_min": "inplace arithmetic", "clamp_max": "inplace arithmetic",
               "logical_and": "inplace arithmetic", "logical_or": "inplace arithmetic",
               "logical_xor": "inplace arithmetic", "scatter_add": "scatter_add_", "scatter_reduce": "scatter_reduce_",
               "MaskedFillBackward1": None}  # (masked_fill_ with a tensor value: the fallback)
# In-place ops whose rule calls the kernel unchecked: it finds the batched shape does not fit the output.
_SHAPE_ERRORS = frozenset({"add", "atan2", "copysign", "bitwise_and", "bitwise_or", "bitwise_xor",
                           "bitwise_left_shift", "bitwise_right_shift", "gcd", "lcm"})


# Ops PyTorch's vmap runs as Python decompositions (torch._decomp), whose mean reduction divides by the element
# count: ZeroDivisionError for an empty input (its C++ kernels give an empty or nan result)
_DECOMPOSED_MEAN_BACKWARDS = frozenset({"mse_loss_backward", "smooth_l1_loss_backward", "huber_loss_backward"})


# Out-of-place ops PyTorch batches with binary_pointwise_batch_rule (its composites too: ldexp, dist); a node name
# picks the tensor-tensor overload where a number's overload has a rule of its own (1 - x is rsub.Scalar).
_PROMOTE_WITH_FIRST_EXAMPLE = frozenset({
    "add", "sub", "mul", "div", "pow", "atan2", "maximum", "minimum", "fmax", "fmin", "fmod", "remainder", "xlogy",
    "special_xlog1py", "special_zeta", "hypot", "logaddexp", "logaddexp2", "copysign", "heaviside", "nextafter",
    "igamma", "igammac", "clamp_min", "clamp_max", "ldexp", "dist", "polar", "complex", "RsubBackward0",
    "bitwise_and", "bitwise_or", "bitwise_xor", "lshift", "rshift", "gcd", "lcm"})


def check_first_example(name: str, a, b) -> None:
    """``name(a, b)`` over a batch of no examples. PyTorch's binary batch rule, level by level from the innermost,
    promotes dtypes with a *logical scalar*'s first example (``physical[0]``, a select) when the other operand is
    none: a logical scalar is batched at the level and 0-d there (no batch dims of inner levels). With no examples
    that select fails. (x * x.sum(); the other operand may be a number, x.sum() + 1, or an unbatched tensor.)"""
    from ._tensor import Tensor
    if name not in _PROMOTE_WITH_FIRST_EXAMPLE or not isinstance(a, Tensor) or not isinstance(b, Tensor):
        return
    masks = levels(a), levels(b)
    both = masks[0] | masks[1]
    for level in reversed(range(DEPTH[0])):
        bit = 1 << level
        if not both & bit:
            continue
        scalars = [m & bit and t._data.ndim == 0 and not m >> (level + 1) for t, m in zip((a, b), masks)]
        if scalars[0] != scalars[1]:
            if SIZES[level] == 0 and _from_user():
                m = masks[0] if scalars[0] else masks[1]
                sizes = [n for i, n in enumerate(SIZES) if m >> i & 1]
                raise IndexError(f"select(): index 0 out of range for tensor of size {sizes} at dimension "
                                 f"{len(sizes) - 1}")


def check_block_diag(tensors) -> None:
    """block_diag of a tensor batched at a vmap over no examples: PyTorch's batching of it concatenates the
    examples' results, none, and fails."""
    mask = levels_of(*tensors)
    if any(mask >> level & 1 and size == 0 for level, size in enumerate(SIZES)):
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")


def check_cat_first_example(tensors, dim) -> None:
    """cat inside vmap: PyTorch's cat batch rule, level by level from the innermost, on that level's logical tensors:
    it wraps dim against the first input not skipped (the legacy empty [0]), takes the batch size from an input
    batched there and not skipped, passes a skipped batched input on as its first example (a select, which fails at a
    level of no examples: vmap(lambda t: torch.cat([t]))(torch.zeros(0, 0)); jacrev of split of an empty vector,
    whose backward is a cat), puts the level's batch dim in front of the others (expanded where unbatched) and moves
    dim one on; the plain cat of the physical tensors then refuses a 0-d one or a dim out of range (vmap(lambda t, u:
    torch.cat([t, u]))(torch.zeros(2, 0), torch.ones(2)): dim 1 of [0] and [2]). The physical tensor of a select:
    the outer levels' batch dims, then [0, 0] with the level's batch dim where the vmap's in_dim put it for an
    input's slice (vmap(..., in_dims=1)), first for a tensor computed inside or selected by an inner level.
    Returns the positions of the inputs the plain cat skips and minigrad's would not: 0-d examples of a vmap over no
    examples, whose physical tensors are [0] (vmap(lambda t, u: torch.cat([t, u]))(torch.ones(0), torch.ones(0)))."""
    if type(dim) is not int or any(LEGACY[:DEPTH[0]]):
        return []
    from ._ops import _wrap_dim
    from .func._vmap import _RULES
    entries = [[tuple(t._data.shape), levels(t)] for t in tensors]   # (each level's logical shape, levels left)

    def wrap(d):   # (legacy_cat_wrap_dim)
        return next((_wrap_dim(d, len(shape)) for shape, _ in entries if shape != (0,)), d)
    batched = False
    for level in reversed(range(DEPTH[0])):
        bit = 1 << level
        if not any(mask & bit for _, mask in entries):
            continue
        batched, dim = True, wrap(dim)
        size = SIZES[level] if any(mask & bit and shape != (0,) for shape, mask in entries) else None
        for t, entry in zip(tensors, entries):
            shape, mask = entry
            if mask & bit and shape == (0,) and SIZES[level] == 0:
                full = levels(t)
                bdim = 0 if full >> (level + 1) else next(
                    (d % 2 for a, d in zip(_RULES[level].flat, _RULES[level].flat_in_dims) if a is t and d is not None),
                    0)
                outer = [SIZES[i] for i in range(level) if full >> i & 1]
                raise IndexError(f"select(): index 0 out of range for tensor of size {outer + [0, 0]} at dimension "
                                 f"{len(outer) + bdim}")
            if shape != (0,) and (mask & bit or size is not None):
                entry[0] = (SIZES[level] if mask & bit else size,) + shape
            entry[1] = mask & ~bit
        dim += size is not None
    if not batched:
        return []
    for k, (shape, _) in enumerate(entries):   # (the plain cat's checks, on the physical shapes)
        if not shape:
            raise RuntimeError(f"zero-dimensional tensor (at position {k}) cannot be concatenated")
    dim = wrap(dim)
    shapes = [shape for shape, _ in entries if shape != (0,)]
    for k, (shape, _) in enumerate(entries):
        if shape == (0,):
            continue
        if len(shape) != len(shapes[0]):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(shapes[0])} and {len(shape)}")
        for i, (a, b) in enumerate(zip(shapes[0], shape)):
            if i != dim and a != b:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size {a} but "
                                   f"got size {b} for tensor number {k} in the list.")
    return [k for k, (t, (shape, _)) in enumerate(zip(tensors, entries)) if shape == (0,) and t._data.shape != (0,)]


def cat_levels(result, tensors) -> None:
    """cat's result inside vmap: PyTorch's cat rule takes the batch size at a level from an input not skipped there
    (examples other than the legacy empty [0]) and passes the skipped ones on as their first example, so a level
    where only those are batched leaves the result unbatched (hstack of an unbatched tensor and a batch of [0]
    examples), and an in-place op with a batched operand then refuses to write it."""
    mask = levels_of(*(t for t in tensors if tuple(t._data.shape) != (0,)))
    if mask != levels(result):
        set_levels(result, mask)
        if not mask:
            unbatched(result)


# PyTorch's ops without a batching rule (its slow fallback runs them example by example and refuses a vmap over no
# examples, see check_fallback_examples), by node name (op name for a NotImplemented node): the aten names of the
# out-of-place and the in-place form (None: that form has a rule of its own)
_FALLBACK_NAMES = {
    "MaskedFillBackward1": ("masked_fill.Tensor", "masked_fill_.Tensor"),
    "MaskedScatterBackward0": ("masked_scatter", "masked_scatter_"),
    "IndexReduceBackward0": ("index_reduce", "index_reduce_"), "IndexCopyBackward0": (None, "index_copy_"),
    "ScatterBackward0": (None, "scatter_.src"), "ScatterBackward1": (None, "scatter_.value"),
    "PutBackward0": ("put", "put_"), "TakeBackward0": ("take", None), "RenormBackward0": ("renorm", "renorm_"),
    "TrilBackward0": (None, "tril_"), "TriuBackward0": (None, "triu_"),
    "HypotBackward0": (None, "hypot_"), "IgammaBackward0": (None, "igamma_"),
    "NextafterBackward0": (None, "nextafter_"), "LdexpBackward0": (None, "ldexp_"),
    "XlogyBackward0": (None, "xlogy_.Tensor"), "XlogyBackward2": (None, "xlogy_.Scalar_Other"),
    "FmodBackward0": (None, "fmod_.Scalar"), "FmodBackward1": (None, "fmod_.Tensor"),
    "RemainderBackward1": (None, "remainder_.Tensor"), "PowBackward1": (None, "pow_.Tensor"),
    "LerpBackward0": (None, "lerp_.Scalar"), "LerpBackward1": (None, "lerp_.Tensor"),
    "CumsumBackward0": (None, "cumsum_"), "CumprodBackward0": (None, "cumprod_"),
    "AddmmBackward0": (None, "addmm_"), "BaddbmmBackward0": (None, "baddbmm_"),
    "PolygammaBackward1": (None, "polygamma_"), "heaviside_": (None, "heaviside_"),
    "floor_divide_": (None, "floor_divide_.Tensor")}


# Of those, the ops whose forward formula is PyTorch's, the op itself on the tangents (masked_fill's with a tensor
# value: self_t.masked_fill(mask, value_t)): the formula goes through the fallback too (see formula_fallback).
_FALLBACK_FORMULAS = frozenset({"MaskedFillBackward1", "MaskedScatterBackward0", "IndexCopyBackward0",
                                "ScatterBackward0", "ScatterBackward1", "PutBackward0"})


def formula_fallback(node_name: str, tangents, inplace: bool) -> None:
    """The forward formula of an op in ``_FALLBACK_FORMULAS`` on batched ``tangents`` (jacfwd batches only them):
    PyTorch's fallback warns and refuses a batch of no examples, naming the in-place overload for an in-place op,
    whose formula is the op in place on self_t (self_t.masked_fill_(mask, value_t))."""
    name = _FALLBACK_NAMES[node_name][inplace]
    if name is not None:   # (None: that form has a rule, scatter's)
        fallback(name, *tangents)


def input_levels(op, tensors, out, args=None) -> int:
    """The levels ``op``'s outputs are batched at; PyTorch's error for an in-place op that cannot be batched."""
    mask = levels_of(*tensors)
    fallback_name = None
    if mask and (op.node_name in _FALLBACK_NAMES or op.name in _FALLBACK_NAMES) and (
            out is None or out is tensors[0]) and not IN_FALLBACK[0] and _from_user():
        # (the user's call: minigrad's formulas use these ops where PyTorch's use others, with rules; the formulas
        # that are PyTorch's too go through formula_fallback)
        fallback_name = (_FALLBACK_NAMES.get(op.node_name) or _FALLBACK_NAMES[op.name])[out is not None]
        if fallback_name is not None:
            warn_fallback(fallback_name, *tensors)   # (PyTorch's fallback warns before its refusals)
    if out is not None and mask:
        check_inplace(op.name, out, tensors, op.node_name)
    if fallback_name is not None and 0 in SIZES:
        check_fallback_examples(fallback_name, *tensors)
    if mask and out is None and len(tensors) == 2 and 0 in SIZES:
        check_first_example(op.node_name if op.name == "rsub" else op.name, *tensors)
    if mask and op.name in _DECOMPOSED_MEAN_BACKWARDS and args and args.get("reduction") == 1 \
            and tensors[1]._data.size == 0 and any(mask >> k & 1 and not LEGACY[k] for k in range(DEPTH[0])):
        # (not at the legacy vmap of is_grads_batched: its fallback runs the C++ kernel slice by slice)
        raise ZeroDivisionError("float division by zero")
    if mask and op.name in ("select_scatter", "slice_scatter") and tensors[0]._data.dtype != tensors[1]._data.dtype:
        # (their batch rules write src with scatter(), which refuses another dtype: the user's call, a backward
        # formula's select_scatter(grad, zeros_like(src)), a forward formula's of the tangents)
        raise RuntimeError("scatter(): Expected self.dtype to be equal to src.dtype")
    return mask


def check_inplace(name: str, out, tensors, node_name: str | None = None, tangent: bool = False) -> None:
    """PyTorch's error for writing a value batched at some vmap level into ``out``, unbatched there.

    Front-ends call it before their own checks (dtypes, .item() of a value) where PyTorch's batching rule (or its
    fallback) runs first; ``name`` is the op's (``lerp_``, ``index_fill``), ``node_name`` picks an overload.
    ``tangent``: ``out`` is the tangent an in-place op's forward formula writes into (always the user's).
    """
    if not DEPTH[0]:
        return
    tensors = [t for t in tensors if hasattr(t, "_data")]
    mask = levels_of(*tensors)
    self_mask = levels(out)
    extra = mask & ~self_mask  # levels where another input is batched and the written-to tensor is not
    # A written-to tensor batched nowhere is the user's only if the function sees it from outside (a captured or
    # unmapped tensor, an op's result, or a view of one): minigrad's own kernels write into fresh buffers too.
    if not (extra and (self_mask or tangent or _is_outside(out))):
        return
    level = extra.bit_length()
    base = name.rstrip("_")
    from . import _dispatch
    if _dispatch._CAPTURED[0] is not None and GRAD_TRANSFORMS[0] != _GRAD_AT_ENTER[level - 1] and \
            _dispatch._is_captured(out):
        return   # (a grad transform inside that vmap refuses to write a captured tensor first: _check_captured)
    if LEGACY[level - 1]:   # (the legacy vmap's in-place rules all go through its fallback's check)
        raise RuntimeError(f"vmap: aten::{base}_(self, *extra_args) is not possible because there exists a Tensor "
                           "`other` in extra_args that has more elements than `self`. This happened due to `other` "
                           f"being vmapped over but `self` not being vmapped over at level {level}. Please try to "
                           f"use out-of-place operators instead of aten::{base}_. If said operator is being called "
                           "inside the PyTorch framework, please file a bug report instead.")
    if base in _SHAPE_ERRORS:
        # (PyTorch's fallback runs the op on the physical tensors: autograd refuses a leaf or a view of one, then
        # TensorIterator an expanded output, before it compares the shapes)
        if out._requires_grad or out._base is not None:
            _dispatch._check_inplace(out, False)
        if out._data.size and any(st == 0 and n > 1 for st, n in zip(out._data.strides, out._data.shape)):
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                               "single memory location. Please clone() the tensor before performing the operation.")
        shape, broadcast = _physical_add_shapes(out, tensors)
        raise RuntimeError(f"output with shape {shape} doesn't match the broadcast shape {broadcast}")
    rule = _RULE_NAMES[node_name] if node_name in _RULE_NAMES else _RULE_NAMES.get(name, _RULE_NAMES.get(base))
    where = "in a vmap"
    if rule is None:
        # (PyTorch numbers its levels across transforms: a grad around the vmap is one too)
        rule, where = f"aten::{base}_", f"at level {level + _TRANSFORMS_AT_ENTER[level - 1]}"
    raise RuntimeError(f"vmap: {rule}(self, *extra_args) is not possible because there exists a Tensor `other` "
                       "in extra_args that has more elements than `self`. This happened due to `other` being "
                       f"vmapped over but `self` not being vmapped over {where}. Please try to use out-of-place "
                       f"operators instead of {rule}. If said operator is being called inside the PyTorch "
                       "framework, please file a bug report instead.")


def autograd_first() -> bool:
    """Whether a grad transform runs inside the innermost vmap: its wrapper's autograd checks (of a leaf, a view
    written in place) then come before the vmap's batch rule or fallback."""
    return GRAD_TRANSFORMS[0] != _GRAD_AT_ENTER[-1]


def check_inplace_first(name: str, out, tensors, node_name: str | None = None) -> None:
    """``check_inplace`` where a front-end checks autograd's refusals of ``out`` (a leaf, a view of one) early:
    PyTorch's batch rule (or fallback) refuses before the autograd kernel of the physical tensors runs, unless a grad
    transform runs inside the innermost vmap (its wrapper's autograd checks come first) or the rule runs the kernel
    (``_SHAPE_ERRORS``: ``check_inplace`` checks autograd's refusals first there)."""
    if name.rstrip("_") not in _SHAPE_ERRORS and not autograd_first():
        if name == "masked_fill_" and len(tensors) > 1 and hasattr(tensors[1], "_data"):
            node_name = "MaskedFillBackward1"   # (a tensor value: the fallback's refusal)
        check_inplace(name, out, tensors, node_name)


def refused_first(error: Exception) -> bool:
    """Whether ``error`` is ``check_inplace``'s refusal, which comes before autograd's refusals of the written-to
    tensor (see ``check_inplace_first``)."""
    return (DEPTH[0] > 0 and not autograd_first() and str(error).startswith("vmap: ")
            and "being vmapped over but `self` not being vmapped over" in str(error))


def _physical_add_shapes(out, tensors) -> tuple[list, list]:
    """The shapes PyTorch's add_ kernel sees under nested vmaps: (the output's, the inputs' broadcast).

    Level by level, innermost first, each tensor batched at the level gets that level's batch size in front,
    after padding it with 1s to the level's largest rank; a tensor not batched there stays as it is.
    """
    import numpy as np
    shapes = [list(out.shape)] + [list(t.shape) for t in tensors if t is not out]
    masks = [levels(out)] + [levels(t) for t in tensors if t is not out]
    for level in reversed(range(DEPTH[0])):
        bit = 1 << level
        if not any(m & bit for m in masks):
            continue
        rank = max(len(s) for s in shapes)
        shapes = [[SIZES[level]] + [1] * (rank - len(s)) + s if m & bit else s for s, m in zip(shapes, masks)]
    return shapes[0], list(np.broadcast_shapes(*shapes))
