"""minigrad.autograd: backward(), grad(), grad modes, Function, and the graph tools (like torch.autograd)."""

import itertools as _itertools
import math as _math
import operator as _operator
import warnings
from collections.abc import Mapping

import numpy as _np

# (_tensor partly loaded now: it imports this package; Tensor read at call time)
from .. import _meta, _strides, _tensor, _vmap_batched
from .._per_thread import PerThreadFlag as _PerThreadFlag
from .._warn_once import first_time as _first_time
from . import grad_mode, graph
from .engine import BATCHED_ROWS as _BATCHED_ROWS
from .engine import on_devices as _on_devices
from .engine import run_backward as _run_backward
from .grad_mode import (
    enable_grad,
    enforce_grad_layout_policy,
    inference_mode,
    is_multithreading_enabled,  # noqa: F401 (torch.autograd.is_multithreading_enabled, not in __all__)
    no_grad,
    set_grad_enabled,
    set_multithreading_enabled,
)

# PyTorch's list, in its order (``print(torch.autograd.__all__)``)
__all__ = ["Variable", "Function", "backward", "grad_mode", "NestedIOFunction", "detect_anomaly", "enable_grad", "grad",
           "gradcheck", "gradgradcheck", "inference_mode", "no_grad", "set_detect_anomaly", "set_grad_enabled",
           "set_multithreading_enabled", "enforce_grad_layout_policy", "variable"]


# How many vmap loops (minigrad/func/_vmap.py) will call their function again: while above 0, grad() keeps
# the graph by default, since the next slice's call may need it (PyTorch's one batched call needs it once).
_vmap_calls_ahead = _PerThreadFlag(0)   # (per thread, as the vmaps it counts)


def _as_tuple(x) -> tuple:
    """A tensor or GradientEdge becomes a 1-tuple; a sequence becomes a tuple."""
    if isinstance(x, (_tensor.Tensor, graph.GradientEdge)):
        return (x,)
    return tuple(x)


def _inputs_tuple(inputs, fn: str) -> tuple:
    # ``inputs`` may also be a dict (e.g. ``dict(model.named_parameters())``): its values are used.
    if type(inputs) is dict:
        return tuple(inputs.values())
    if isinstance(inputs, Mapping):
        raise TypeError(f"`inputs` argument to `{fn}()` must be a dict, not {type(inputs).__name__}. "
                        "Other Mapping types are not supported.")
    return _as_tuple(inputs)


def _grads_tuple(grads, length: int) -> tuple:
    if grads is None:
        return (None,) * length
    if isinstance(grads, _tensor.Tensor):
        return (grads,)
    return tuple(grads)


def _make_grads(outputs: tuple, grads: tuple, is_grads_batched: bool = False) -> list:
    """Fill in implicit output gradients (ones for scalars) and check shapes, as PyTorch does."""
    new = []
    for o, g in zip(outputs, grads):  # zip: extra gradients are ignored, as in PyTorch
        if isinstance(o, _tensor.Tensor):
            oshape, odtype = o._data.shape, o.dtype
        elif isinstance(o, graph.GradientEdge):
            meta = _edge_meta(o)
            if meta is None:  # an edge made by hand to a node whose outputs minigrad does not know
                if g is None:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                new.append(g)  # (taken as it is)
                continue
            oshape, odtype = meta
        else:
            raise AssertionError("Expected output to be a torch.Tensor")
        if isinstance(g, _tensor.Tensor):
            # Batched: PyTorch checks the batch's first gradient, and reports that one's shape minus its first dim.
            shape = g[0]._data.shape if is_grads_batched else g._data.shape
            if shape != oshape or g.dtype.is_complex != odtype.is_complex:
                # PyTorch names the positions with ``list.index``, which compares with ``==``: an earlier
                # tensor of another shape makes that comparison raise (or be ambiguous), as it does here.
                i, j = grads.index(g), outputs.index(o)
            if shape != oshape and is_grads_batched:
                if isinstance(o, graph.GradientEdge):
                    raise RuntimeError("Batched grads are not supported with GradientEdge")
                raise RuntimeError("If `is_grads_batched=True`, we interpret the first dimension of each grad_output "
                                   "as the batch dimension. The sizes of the remaining dimensions are expected to "
                                   "match the shape of corresponding output, but a mismatch was detected: "
                                   f"grad_output[{i}] has a shape of {g[0].shape[1:]} and output[{j}] has a shape "
                                   f"of {o.shape}. If you only want some tensors in `grad_output` to be considered "
                                   "batched, consider using vmap.")
            if shape != oshape:
                raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{j}] "
                                   f"has a shape of {_tensor.Size(oshape)}.")
            if g.dtype.is_complex != odtype.is_complex:
                raise RuntimeError("For complex Tensors, both grad_output and output are required to have the same "
                                   f"dtype. Mismatch in dtype: grad_output[{i}] has a dtype of {g.dtype!r} and "
                                   f"output[{j}] has a dtype of {odtype!r}.")
            if g.dtype is not odtype:
                g = g.to(odtype)  # the engine hands each root a gradient of its own dtype
            new.append(g)
        elif g is None:
            if isinstance(o, graph.GradientEdge) or o._requires_grad:
                if _math.prod(oshape) != 1:  # (PyTorch's numel() == 1 check)
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not odtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                       f"{odtype!r}")
                g = _tensor.Tensor._make(_np.ones(oshape, odtype.np))
                if _meta.METAS and not isinstance(o, graph.GradientEdge) and _meta.is_meta(o):
                    _meta.mark(g)   # (a meta output's gradient is a meta tensor: see _meta.py)
            new.append(g)
        else:
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
    return new


def _edge_meta(edge):
    """``(shape, dtype)`` of the tensor whose gradient enters at ``edge``, or None if unknown.

    PyTorch reads it off the node's input metadata; minigrad's nodes keep their forward inputs' metadata
    only, so it is what ``get_gradient_edge`` noted down, or a leaf's own (its AccumulateGrad holds it).
    """
    meta = graph.edge_metadata(edge)
    if meta is None and type(edge.node) is graph.AccumulateGrad:
        variable = edge.node.variable
        meta = (variable._data.shape, variable.dtype)
    return meta


def _c_flag(value) -> bool:
    """A flag as PyTorch's C++ engine entry parses it (format "b": an integer from 0 to 255), so that
    ``create_graph=None`` or ``retain_graph=1.5`` fail there with Python's own messages."""
    n = _operator.index(value)
    if n < 0:
        raise OverflowError("unsigned byte integer is less than minimum")
    if n > 255:
        raise OverflowError("unsigned byte integer is greater than maximum")
    return bool(n)


def _check_edge(edge) -> None:
    """A user-made GradientEdge must name a node (PyTorch's C++ parsing of it)."""
    if not isinstance(edge[0], graph.Node):
        raise RuntimeError("GradientEdge's first object must be an autograd.graph.Node but got "
                           f"{type(edge[0]).__name__}")


def _check_roots(tensors: tuple, grads: list, in_vmap: bool = False, in_transform: bool = False) -> None:
    # The checks PyTorch's C++ engine entry makes before running anything.
    if len(tensors) != len(grads):
        raise RuntimeError(f"got {len(tensors)} tensors and {len(grads)} gradients")
    for i, t in enumerate(tensors):
        if isinstance(t, graph.GradientEdge):
            _check_edge(t)
            continue
        if t.grad_fn is None and not t._requires_grad or in_vmap and _vmap_batched.hides_autograd(t) or \
                in_transform and _transforms().hides_autograd(t):
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if _meta.METAS:  # the engine's validate_outputs: a root's gradient on its tensor's device (cpu or meta)
        want = [_meta.is_meta(t) if isinstance(t, _tensor.Tensor) else _meta.is_meta(g) for t, g in zip(tensors, grads)]
        grads[:] = _on_devices(grads, want, "invalid gradient")


def _transforms():
    """``minigrad.func._transforms`` (imported when used: it loads after this package)."""
    from ..func import _transforms
    return _transforms


def _check_inputs(inputs: tuple, accumulate: bool, in_vmap: bool = False, in_transform: bool = False) -> None:
    for t in inputs:
        if isinstance(t, graph.GradientEdge):
            _check_edge(t)
            continue
        if not isinstance(t, _tensor.Tensor):
            raise RuntimeError(f"all inputs have to be Tensors or GradientEdges, but got {type(t).__name__}")
        if accumulate:
            t.retain_grad()  # backward(inputs=[non_leaf]) fills its .grad (and keeps doing so)
        # (a view made before its base required grad requires grad through it, as PyTorch's requires_grad())
        if not (t._requires_grad or t._base is not None and t._base._requires_grad) or \
                in_vmap and _vmap_batched.hides_autograd(t) or in_transform and _transforms().hides_autograd(t):
            raise RuntimeError("One of the differentiated Tensors does not require grad")


def _batched_grad(outputs: tuple, grads: list, retain_graph: bool, create_graph: bool, inputs: tuple,
                  allow_unused: bool) -> tuple:
    """``grad(..., is_grads_batched=True)``: one vector-Jacobian product per row of the gradients, stacked.

    PyTorch vectorizes the single backward with its legacy vmap (torch._vmap_internals); minigrad runs the backward
    once per batch row instead (same values and layouts, see _stack_rows; hooks that only look are called once, see
    engine._call_hook; with ``create_graph`` the results hang from a StackBackward0 node instead of the batched ops).
    The rows are marked batched, so what that vmap refuses in a custom backward (``.numpy()``, ``.item()``, a random
    op ...) raises its errors (``_vmap_batched``'s legacy level).

    Why not one backward under minigrad's own vmap: it is the same loop (func/_vmap.py calls the function once per
    slice and stacks), with no BatchedTensor whose ops carry a batch dim, so the backward would still run per row.
    Hence what only one batched backward gives stays apart: with ``create_graph`` the result's grad_fn is
    StackBackward0 (PyTorch's the last batched op: ``grad(x * x, x, eye, ...)`` AddBackward0), and a hook that
    returns or changes a gradient, or a custom Function's backward, runs (its side effects too) once per row.
    """
    from .._random import default_generator
    from ..func._vmap import first_row_only_shows
    sizes = [g._data.shape[0] for g in grads if g is not None and g._data.ndim > 0]
    if any(g is not None and g._data.ndim == 0 for g in grads):
        raise ValueError("vmap(vjp, in_dims=0, ...)(<inputs>): Got in_dim=0 for some input, but that input is a "
                         "Tensor of dimensionality 0 so expected in_dim to satisfy 0 <= in_dim < 0.")
    if len(set(sizes)) > 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, got sizes "
                         f"{sizes} for the mapped dimension")
    rows, passed = [], []
    _vmap_batched.enter(sizes[0], None, [], legacy=True)
    _BATCHED_ROWS.append([0, {}])   # (the hooks PyTorch calls once: see engine._call_hook)
    try:
        for b in range(sizes[0]):
            _BATCHED_ROWS[-1][0] = b
            row = [None if g is None else g[b] for g in grads]
            passed.append(row)
            for g in row:
                if g is not None:
                    _vmap_batched.mark_slice(g)
            last = b == sizes[0] - 1
            state = default_generator.get_state()
            try:
                with first_row_only_shows(b):
                    rows.append(_run_backward(outputs, row, retain_graph or not last, create_graph, inputs=inputs,
                                             accumulate=False, allow_unused=allow_unused))
            finally:
                # (PyTorch raises at the random op itself, before drawing; the loop sees it afterwards, as a changed
                # generator state, or the op drew before raising itself)
                drew = default_generator.get_state()._data.tobytes() != state._data.tobytes()
                if drew:
                    default_generator.set_state(state)
            if drew:
                raise RuntimeError(_vmap_batched.LEGACY_RANDOM)
        outer = [_vmap_batched.batch_outer(r) for r in rows[0]]   # (how PyTorch's vmap made them: see _stack_rows)
    finally:
        _BATCHED_ROWS.pop()
        _vmap_batched.exit_()
    return tuple(None if rows[0][k] is None else
                 _stack_rows([r[k] for r in rows], passed, grads, outer[k], create_graph) for k in range(len(inputs)))


def _stack_rows(rows: list, passed: list = (), grads: list = (), outer: bool | None = None,
                create_graph: bool = False):
    """One input's gradient rows (``rows[b]`` from the backward of ``passed[b]``, the rows of ``grads``) as the one
    batched gradient PyTorch's legacy vmap gives: its backward ran once on the whole batch, batch dim in front, so
    each row keeps the layout one backward gives it (a transposed gradient's ``(6, 1, 2)``, not C order's (6, 3, 1)).

    A row that is the grad_output's row itself gives that grad_output; a view of it (a sum's expanded gradient, a
    transpose's transposed one) the same view of the whole batch; any other row sits in a block the size of its
    storage, as the batch of storages PyTorch's formulas made: in C order where the op that made them gives that
    (``outer`` True: one without an elementwise legacy batching rule, see _vmap_batched.mark_batch_outer), batch dim
    outermost where an elementwise op ran on such a batch (``outer`` False), else laid out as a grad_output's batch
    where the storage is an elementwise result of its rows (see _led_by), else batch dim outermost. Rows with a
    history (create_graph) are stacked, StackBackward0 (minigrad's graph is one backward per row), in the layout of
    the same rows without. A view so made is a no_grad view but with ``create_graph``, as PyTorch's batch and its
    views are made inside its one backward pass, which records only then (refused in place while grad mode records).
    """
    from .._ops import stack
    for j, g in enumerate(grads):
        if g is not None and all(r is p[j] for r, p in zip(rows, passed)):
            return g
    first, data = rows[0], rows[0]._data
    if len(rows) > 1 and all(r is first for r in rows):   # (a result that is not batched: the vmap expands it)
        return first.expand((len(rows),) + tuple(first.shape))
    if _meta.METAS and _meta.is_meta(first) or first.is_neg() or min(data.strides, default=0) < 0:
        return stack(rows)   # (meta or negative rows as they are)
    if any(r._requires_grad for r in rows):
        batch = stack(rows)
        if not first.is_conj():
            # (the same batch laid out as PyTorch's, in memory of its own: no row with a history is a view of a
            # grad_output that requires no grad, the only kind _batch_of views)
            with grad_mode.no_grad():
                batch.data = _batch_of(rows, grads, outer)
        return batch
    with grad_mode.set_grad_enabled(create_graph):
        if first.is_conj():   # (PyTorch's batch is a conjugate view too: the batch of the rows' conjugates, conjugated)
            return _stack_rows([r.conj() for r in rows], passed, grads, outer, create_graph).conj()
        return _batch_of(rows, grads, outer)


def _batch_of(rows: list, grads: list, outer: bool | None):
    """_stack_rows' batch of rows that are no grad_output's (nor conjugate, negative or meta) rows, as PyTorch's
    legacy vmap lays it out."""
    from .._ops import stack
    from ..derivatives import _storage
    first, data = rows[0], rows[0]._data
    if data.size == 0:   # (no memory to lay out: the strides a contiguous batch gives, size-0 dims counted as 1)
        out = stack(rows)
        _strides.keep_empty_strides(out, (_math.prod(max(n, 1) for n in data.shape),) + first.stride())
        return out
    flat, start = _storage(data)
    shape = (len(rows),) + data.shape
    owner = _strides.storage_owner(data)
    if first._base is None:   # (a row in memory of its own)
        led = None if outer is not None else _led_by(data.shape, first.stride(), grads)
        if outer or led is None and data.flags.c_contiguous and data.base is None:
            return stack(rows)   # (fresh C-order rows, or a batch PyTorch makes in C order)
        if led is not None:
            batch = _tensor.Tensor._make(_strides.with_strides(shape, led, data.dtype))
            _np.stack([r._data for r in rows], out=batch._data)
            return batch
    source = next((g for g in grads if g is not None and _strides.storage_owner(g._data) is owner), None)
    if source is not None and not source._requires_grad and \
            _storage(rows[-1]._data)[1] == start + (len(rows) - 1) * source.stride(0):
        # (row b is a view of grad_output row b: the batch is the same view of the grad_output, its _base)
        return source.as_strided(shape, (source.stride(0),) + first.stride(), start)
    memory = _np.empty(len(rows) * flat.size, data.dtype)
    step = flat.size * data.itemsize
    if first._base is None:   # (laid out otherwise than C order)
        batch = _tensor.Tensor._make(_np.lib.stride_tricks.as_strided(memory[start:], shape, (step,) + data.strides))
    else:   # (a view: PyTorch's batch is that view of the batch of the storages, an op's result laid out as the owner)
        dims, steps = (owner.shape, owner.strides) if owner.size == flat.size else (flat.shape, flat.strides)
        dims, steps = tuple(dims), tuple(s // data.itemsize for s in steps)
        if first._base._data.size == flat.size:   # (the storage is the view's base, an op's result: its layout)
            dims, steps = tuple(first._base.shape), first._base.stride()
        # (the storages' batch in C order (outer), or as a grad_output's batch (_led_by), the view moved onto it;
        # else batch dim outermost, each storage laid out as it is)
        full = (len(rows),) + dims
        batch_steps = [_math.prod(full[d + 1:]) for d in range(len(full))] if outer else \
            None if outer is not None else _led_by(dims, steps, grads)
        view = None if batch_steps is None else _moved_view(first, start, dims, steps, batch_steps[1:])
        if view is None:
            batch_steps, view = (flat.size,) + steps, (first.stride(), start)
        base = _tensor.Tensor._make(_np.lib.stride_tricks.as_strided(
            memory, full, [n * data.itemsize for n in batch_steps]))
        batch = base.as_strided(shape, (batch_steps[0],) + tuple(view[0]), view[1])
    _np.stack([r._data for r in rows], out=batch._data)
    return batch


def _moved_view(t, start: int, dims: tuple, steps: tuple, new_steps) -> tuple | None:
    """(strides, offset) of ``t``, a view at ``start`` of a dense storage (``dims``, element ``steps``), as the same
    view of that storage laid out with ``new_steps``; None where the view is no such one (its steps cross dims)."""
    index = []
    for n in (start, *t.stride()):   # (each offset or step as a move along the storage's dims)
        move = [0] * len(dims)
        for d in sorted(range(len(dims)), key=lambda d: -steps[d]):
            if steps[d]:
                move[d], n = divmod(n, steps[d])
        if n:
            return None
        index.append(move)
    far = [index[0][d] + sum((m - 1) * k[d] for m, k in zip(t.shape, index[1:])) for d in range(len(dims))]
    if any(i >= max(m, 1) for i, m in zip(far, dims)):   # (its last element past a dim: the view wraps around)
        return None
    strides = [sum(i * s for i, s in zip(move, new_steps)) for move in index]
    return tuple(strides[1:]), strides[0]


def _led_by(shape: tuple, strides: tuple, grads: list) -> list | None:
    """The element strides of PyTorch's batch of row storages (``shape``, ``strides``: one row's), an elementwise
    result of a grad_output's rows (or of a permuted view of them: the gradient of a ``t()``), else None.

    PyTorch's batching rule runs the op on the grad_output's whole batch: TensorIterator orders the row dims as the
    row's own op did (its operands first, the grad_output too) and puts the batch dim where the grad_output has it,
    the other operands being broadcast there. A grad_output with its batch dim innermost, ``v.t()``, has rows that
    alone cannot tell: the loop's rows come out in C order, PyTorch's batch strided ``(1, n)``. (_stack_rows asks
    only for rows that no op making C-order batches made, see _vmap_batched.mark_batch_outer.)
    """
    rank = len(shape)
    for g in grads:
        if g is None or g.dim() != rank + 1:
            continue
        # (the rows' dims as they are, else the one order of them that has the storage's shape and its layout)
        orders = [order for order in (_itertools.permutations(range(rank)) if rank <= 4 else (range(rank),))
                  if tuple(g.shape[1 + d] for d in order) == tuple(shape)]
        if not orders or list(orders[0]) != list(range(rank)) and len(orders) > 1:
            continue
        row = [g.stride(1 + d) for d in orders[0]]
        if list(orders[0]) == list(range(rank)) or _strides._permuted_strides([row], shape) == list(strides):
            return _strides._permuted_strides([[0, *strides], [g.stride(0), *row]], (len(g), *shape))
    return None


def _legacy_vmap(func, *batches) -> tuple:
    """PyTorch's legacy vmap (torch._vmap_internals) of ``func`` over dim 0 of ``batches``, as gradcheck's batched
    forward-AD check uses it: one call per row, its slices marked batched (what that vmap refuses raises its errors;
    what the rows after the first print or warn is dropped), the tuples of results stacked. Unlike torch.func.vmap it
    runs custom Functions that have no setup_context."""
    from .._ops import stack
    from .._random import default_generator
    from ..func._vmap import first_row_only_shows
    rows = []
    _vmap_batched.enter(len(batches[0]), None, [], legacy=True)
    try:
        for b in range(len(batches[0])):
            row = [batch[b] for batch in batches]
            for t in row:
                _vmap_batched.mark_slice(t)
            state = default_generator.get_state()
            with first_row_only_shows(b):
                rows.append(func(*row))
            if default_generator.get_state()._data.tobytes() != state._data.tobytes():
                default_generator.set_state(state)   # (PyTorch raises at the random op, before drawing)
                raise RuntimeError(_vmap_batched.LEGACY_RANDOM)
    finally:
        _vmap_batched.exit_()
    return tuple(stack([r[k] for r in rows]) for k in range(len(rows[0])))


def _functorch_active() -> bool:
    """Whether a torch.func transform (grad, vjp, jvp, vmap, ...) is running the user's function."""
    # (module-level imports: an import statement in the function cost ~15k instructions per backward)
    return _TRANSFORMS_ACTIVE[0] > 0 or _vmap_batched.DEPTH[0] > 0


def backward(tensors, grad_tensors=None, retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables=None, inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` (weighted by ``grad_tensors``) into the leaves' ``.grad``."""
    if _functorch_active():
        if _vmap_batched.legacy_only():
            raise RuntimeError("backward() called inside torch.vmap. This is not supported, please call backward() "
                               "outside torch.vmap or instead use torch.autograd.grad inside torch.vmap")
        raise RuntimeError("backward() called inside a functorch transform. This is not supported, please use "
                           "functorch.grad or functorch.vjp instead or call backward() outside of functorch "
                           "transforms.")
    if (grad_tensors is None and retain_graph is None and create_graph is False and grad_variables is None
            and inputs is None and type(tensors) is _tensor.Tensor and _backward_scalar(tensors)):
        return
    if grad_variables is not None:
        warnings.warn("`grad_variables` is deprecated. Use `grad_tensors` instead.", FutureWarning,
                      stacklevel=_tensor._user_stacklevel())  # (the caller's line, past the overrides wrapper)
        if grad_tensors is None:
            grad_tensors = grad_variables
        else:
            raise RuntimeError("`grad_tensors` and `grad_variables` (deprecated) arguments both passed to "
                               "`backward()`. Please only use `grad_tensors`.")
    inputs_tuple = () if inputs is None else _inputs_tuple(inputs, "backward")
    if inputs is not None and len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    tensors = _as_tuple(tensors)
    grads = _make_grads(tensors, _grads_tuple(grad_tensors, len(tensors)))
    if retain_graph is None:
        retain_graph = create_graph
    retain_graph, create_graph = _c_flag(retain_graph), _c_flag(create_graph)
    _check_roots(tensors, grads)
    _check_inputs(inputs_tuple, accumulate=True)
    # (the create_graph warning, once per process: PyTorch's TORCH_WARN_ONCE; given by the engine, cleared once given)
    warn = [create_graph and _first_time("backward create_graph")]
    graph._engine_run_backward(warn, tensors, grads, retain_graph, create_graph, inputs_tuple or None, True)


# The real floating dtypes of ``_backward_scalar``'s implicit gradient (others take the general path).
_SCALAR_ROOT_DTYPES = frozenset((_np.dtype(_np.float32), _np.dtype(_np.float64)))


def _backward_scalar(t) -> bool:
    """``loss.backward()`` with every argument left out, for a float32/float64 one-element root that
    requires grad: the general path's steps (``_make_grads``' implicit gradient of ones, ``_check_roots``,
    no retained graph) without its argument handling, ~25k instructions less per backward. Returns
    False, having done nothing, for any other root: the general path then runs (and raises its errors)."""
    data = t._data
    if not t._requires_grad or data.size != 1 or data.dtype not in _SCALAR_ROOT_DTYPES:
        return False
    # (np.array(1): ~6k instructions less than np.ones for the usual 0-dim loss; the same fresh array)
    ones = _np.array(1, data.dtype) if data.ndim == 0 else _np.ones(data.shape, data.dtype)
    seed = _tensor.Tensor._make(ones)
    if _meta.METAS and _meta.is_meta(t):
        _meta.mark(seed)   # (a meta loss's gradient is a meta tensor: see _meta.py)
    graph._engine_run_backward([False], (t,), [seed], False, False, None, True)
    return True


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False):
    """Return d(outputs)/d(inputs) (weighted by ``grad_outputs``) without touching ``.grad``."""
    from .._creation import zeros_like
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    outputs = _as_tuple(outputs)
    inputs_tuple = _inputs_tuple(inputs, "grad")
    if len(inputs_tuple) == 0:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if not only_inputs:
        warnings.warn("only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
                      "gradient for other parts of the graph, please use torch.autograd.backward.",
                      FutureWarning, stacklevel=_tensor._user_stacklevel())
    grads = _make_grads(outputs, _grads_tuple(grad_outputs, len(outputs)), is_grads_batched)
    if retain_graph is None:  # (inside vmap's loop, a graph made outside must outlive every slice's call)
        retain_graph = True if _vmap_calls_ahead[0] > 0 else create_graph   # (no bool(): a tensor fails below)
    retain_graph, create_graph, allow_unused = _c_flag(retain_graph), _c_flag(create_graph), _c_flag(allow_unused)
    # (the user's call inside vmap: a batched root or input is a BatchedTensor there, which has no autograd state)
    user = not _tensor._caller_module().startswith("minigrad")
    in_vmap = bool(_vmap_batched.DEPTH[0]) and user
    # (and inside a torch.func transform: what its level tracks, see func/_transforms.py's hides_autograd)
    in_transform = bool(_vmap_batched.TRANSFORM_CALLS) and user
    _check_roots(outputs, grads, in_vmap, in_transform)
    _check_inputs(inputs_tuple, accumulate=False, in_vmap=in_vmap, in_transform=in_transform)
    if is_grads_batched:
        result = _batched_grad(outputs, grads, retain_graph, create_graph, inputs_tuple, allow_unused)
    else:
        result = _run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs_tuple, accumulate=False,
                              allow_unused=allow_unused)
    if in_transform:  # (a tensor from outside the level is in no graph the level's backward walks)
        result = tuple(None if isinstance(t, _tensor.Tensor) and _transforms().tracked(t) is None else r
                       for r, t in zip(result, inputs_tuple))
        unused = next((k for k, r in enumerate(result) if r is None), None)
        if unused is not None and not allow_unused:
            raise RuntimeError(f"The differentiated Tensor at index {unused} appears to not have been used in the "
                               "graph. Set allow_unused=True if this is the desired behavior.")
    if materialize_grads:
        if any(r is None and isinstance(t, graph.GradientEdge) for r, t in zip(result, inputs_tuple)):
            raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
        result = tuple(r if r is not None else zeros_like(t, requires_grad=create_graph)
                       for r, t in zip(result, inputs_tuple))
    if type(inputs) is dict:
        return dict(zip(inputs.keys(), result))
    return result


# The rest of torch.autograd: anomaly mode, gradcheck, functional API, forward AD, profiler. (Not Node nor
# once_differentiable: PyTorch keeps those in torch.autograd.graph and torch.autograd.function only.)
from . import anomaly_mode, forward_ad, functional, profiler  # noqa: F401
from .anomaly_mode import detect_anomaly, set_detect_anomaly
from .function import _TRANSFORMS_ACTIVE, Function, NestedIOFunction  # noqa: F401
from .gradcheck import gradcheck, gradgradcheck
from .profiler import DeviceType  # noqa: F401  (torch._C._autograd's, re-exported by torch.autograd)
from .variable import Variable


def variable(*args, **kwargs):
    """Removed long ago: PyTorch's error (the name shadows the ``variable`` submodule, as in PyTorch)."""
    raise RuntimeError("torch.autograd.variable(...) is deprecated, use torch.tensor(...) instead")


def is_tensor_like(inp) -> bool:
    """torch.overrides.is_tensor_like, which PyTorch's torch.autograd imports into its namespace too."""
    from ..overrides import is_tensor_like as check  # (here, not at the top: overrides loads after this package)
    return check(inp)


# PyTorch's engine is C++: ``torch.autograd`` has no ``engine`` attribute. The module stays importable
# (``from minigrad.autograd import engine``, ``import minigrad.autograd.engine``) but is no name of the namespace.
del engine  # noqa: F821 (bound by the import of the submodule above)


from .graph import SavedTensor  # noqa: E402, F401 (the type of a node's ``_raw_saved_*``, as torch.autograd names it)


def _profiler_enabled() -> bool:
    """Whether a ``torch.autograd.profiler.profile`` is recording (PyTorch's ``torch.autograd._profiler_enabled``)."""
    return profiler._enabled[0]
