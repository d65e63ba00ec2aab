"""The backward engine: walk the graph from the outputs, calling each node once, in dependency order.

1. Count, for every node reachable from the roots, how many edges point at it (its dependencies).
2. With ``inputs`` (``autograd.grad`` or ``backward(inputs=...)``), mark which nodes must run: those
   with a path to an input (``_exec_info``); the others are skipped.
3. Repeatedly take a ready node (all its dependencies delivered) from the ready queue, run its hooks
   and its ``_apply``, undo broadcasting / dtype changes on what it returns (``_validate_outputs``),
   and add each gradient into the input buffer of the next node.

The ready queue pops the most recently created node first (``Node._seq``; AccumulateGrad nodes come
first of all), as PyTorch's does. It is the same binary heap as C++'s std::priority_queue, so even
nodes of equal priority (several leaves) come out in PyTorch's order.

No recursion, so a 100,000-node chain is fine.
"""
from __future__ import annotations

import itertools
import sys
import threading

import numpy as np

from .. import _errstate, _meta, _vmap_batched, _zerotensor
from .._errstate import call_user
from .._layout import contiguous_format
from .._per_thread import PerThreadList
from .._zerotensor import ZEROS as _ZEROS
from . import grad_mode
from .graph import _TENSOR_CLASS, AccumulateGrad, GradientEdge, Node, SavedTensor, _c_type_name, _dense, _task_wanted

_STATE = grad_mode.STATE
_anomaly = [False]  # set by anomaly_mode (kept here so the hot loop reads a plain list)
_profiling = [False]  # set by profiler.profile
_task_ids = itertools.count()
_PER_THREAD = threading.local()   # each thread's running backward passes (PyTorch's graph tasks are their thread's)
# Per running ``autograd.grad(is_grads_batched=True)``, which minigrad runs as one backward per row (its
# _batched_grad): [the row running, {hook call site: (its node, its hook)}] for the hooks whose first-row call
# stands for PyTorch's one call on the whole batch (see _call_hook).
BATCHED_ROWS = PerThreadList()


def graph_tasks() -> list:
    """This thread's running backward passes, innermost last: (number, root, dependencies, needed, captures, the
    callbacks queued during it by queue_callback)."""
    tasks = getattr(_PER_THREAD, "tasks", None)
    if tasks is None:
        tasks = _PER_THREAD.tasks = []
    return tasks


class _EngineBase:
    """``Variable._execution_engine``: PyTorch's engine object, for what programs call on it."""

    __module__ = "torch._C"

    def queue_callback(self, callback) -> None:
        """Run ``callback()`` once the backward pass now running has gone through its whole graph."""
        tasks = graph_tasks()
        if not tasks:
            raise RuntimeError("Final callbacks can only be installed during backward pass.")
        tasks[-1][5].append(callback)


ENGINE = _EngineBase()


class _ReadyQueue:
    """A max-heap on ``node._seq`` with libstdc++'s push_heap / pop_heap (PyTorch's tie order)."""

    __slots__ = ("heap",)

    def __init__(self) -> None:
        self.heap: list = []

    def push(self, node) -> None:
        heap = self.heap
        heap.append(node)
        if len(heap) > 1:  # a chain keeps at most one node waiting: nothing to sift
            self._sift_up(len(heap) - 1, node)

    def _sift_up(self, hole: int, node) -> None:
        heap = self.heap
        seq = node._seq
        while hole > 0:
            parent = (hole - 1) // 2
            if not heap[parent]._seq < seq:
                break
            heap[hole] = heap[parent]
            hole = parent
        heap[hole] = node

    def pop(self):
        heap = self.heap
        top = heap[0]
        n = len(heap) - 1  # size of the heap once the top is gone
        if n > 0:
            last = heap[n]
            # Move the hole down to a leaf along the larger children, then sift ``last`` up from there.
            hole = child = 0
            while child < (n - 1) // 2:
                child = 2 * (child + 1)
                if heap[child]._seq < heap[child - 1]._seq:
                    child -= 1
                heap[hole] = heap[child]
                hole = child
            if n % 2 == 0 and child == (n - 2) // 2:
                child = 2 * (child + 1)
                heap[hole] = heap[child - 1]
                hole = child - 1
            self._sift_up(hole, last)
        heap.pop()
        return top


class _GraphRoot:
    """The dummy first node for several roots: hands each root its gradient (as PyTorch's GraphRoot)."""

    __slots__ = ("_next_node", "_next_nrs", "_next_rest", "_seq", "grads")
    _next_nodes = Node._next_nodes  # edges stored as a Node stores them

    def __init__(self, edges: tuple, grads: list) -> None:
        from .graph import _sequence
        self._next_nodes = tuple(node for node, _ in edges)
        self._next_nrs = tuple(nr for _, nr in edges)
        self._seq = next(_sequence)
        self.grads = grads


def _dependencies(root) -> dict:
    """For every node reachable from ``root``: how many edges point at it (iterative DFS)."""
    deps: dict = {}
    stack = [root]
    while stack:
        node = stack.pop()
        for nxt in (node._next_node,) + node._next_rest:  # node._next_nodes, without a call
            if nxt is None:
                continue
            if nxt in deps:
                deps[nxt] += 1
            else:
                deps[nxt] = 1
                stack.append(nxt)
    return deps


def _exec_info(root, output_edges, accumulate: bool) -> tuple[dict, dict]:
    """Which nodes must run (``needed``) and where gradients are captured, for a backward with inputs.

    ``backward(inputs=...)``: the inputs' nodes run (AccumulateGrad fills ``.grad``; a non-leaf input
    fills its ``.grad`` through retain_grad). ``grad()``: the gradient arriving at an input's node is
    captured, and the node itself runs only if some other input lies below it.
    """
    needed = {}  # (the root too runs only if an input lies below it: grad(y, y) does not run y's node)
    captures: dict = {}
    for k, (node, nr) in enumerate(output_edges):
        if accumulate:
            needed[node] = True
        else:
            captures.setdefault(node, []).append((nr, k))

    def should_execute(n) -> bool:
        return n in needed or n in captures

    # Post-order DFS: a node is needed if one of its children should execute.
    seen = {root}
    stack = [(root, iter(root._next_nodes))]
    while stack:
        fn, children = stack[-1]
        for child in children:
            if child is None:
                continue
            if child in seen:
                if should_execute(child):
                    needed[fn] = True
                continue
            seen.add(child)
            stack.append((child, iter(child._next_nodes)))
            break
        else:
            stack.pop()
            if stack and should_execute(fn):
                needed[stack[-1][0]] = True
    return needed, captures


# Nodes whose PyTorch formulas hand a complex gradient to a real input as it is (no handle_r_to_c: the value of
# masked_fill / index_fill / fill_, both sides of where, diagonal_scatter's src, dist of a complex and a real
# tensor, solve_triangular's real B under a complex A, bmm's empty product of a real and a complex batch): its
# engine then refuses it.
_NO_REAL_PART = frozenset({"MaskedFillBackward1", "IndexFillBackward1", "FillBackward1", "FillBackward3",
                           "WhereBackward0", "DiagonalScatterBackward0", "DistBackward0",
                           "LinalgSolveTriangularBackward0", "BmmBackward0"})


def _validate_outputs(node, grads, plain_leaves: bool = False, nodes=None) -> list:
    """Undo broadcasting and dtype changes: each gradient takes its input's shape and dtype.

    This is the one place where broadcasting is undone (d(x+y)/dx for x of shape (3,) and y of
    shape (2, 3) arrives with shape (2, 3) and is summed back to (3,)).
    ``plain_leaves``: nothing in this backward captures gradients (no ``inputs``) and ``node`` has no
    hooks, so a sum going to a leaf without hooks need not be PyTorch's view (see ``_sum_to``).
    ``nodes``: ``node._next_nodes`` when the caller has it already.
    """
    if nodes is None:
        nodes = node._next_nodes
    if len(grads) != len(nodes):
        raise RuntimeError(f"function {type(node).name(node)} returned an incorrect number of gradients "
                           f"(expected {len(nodes)}, got {len(grads)})")
    out = grads  # copied into a list only if a gradient has to change
    meta = node._input_meta
    # A custom Function's backward may return a gradient on another device than its input's: while a meta tensor
    # exists, its node's _meta_inputs (None: no input was meta; other nodes: False, their formulas keep devices)
    on_meta = getattr(node, "_meta_inputs", False) if _meta.METAS else False
    for i, g in enumerate(grads):
        if g is None:
            continue
        shape, npdtype = meta[i]
        data = g._data
        if (data.shape == shape and (data.dtype is npdtype or data.dtype == npdtype)) or nodes[i] is None:
            continue  # the usual case: already the input's shape and dtype (``is`` first: NumPy's ``==`` costs more)
        if data.dtype.kind == "c" and npdtype.kind != "c":
            name = type(node).name(node)   # (not node.name(): a custom Function's ctx.name may hide it, as in PyTorch)
            if name in _NO_REAL_PART or (
                    name == "torch::autograd::CopySlices" and type(node.fn).name(node.fn) in _NO_REAL_PART):
                raise RuntimeError("Expected isFloatingType(grad.scalar_type()) || (input_is_complex == "
                                   "grad_is_complex) to be true, but got false.  (Could this error message be improved?"
                                   "  If so, please report an enhancement request to PyTorch.)")
        if data.shape != shape:
            if not _expandable(shape, data.shape):
                raise RuntimeError(
                    f"Function {type(node).name(node)} returned an invalid gradient at index {i} - got "
                    f"{list(data.shape)} but expected shape compatible with {list(shape)}")
            if data.dtype.kind == "c" and npdtype.kind != "c":
                # (the real part first: PyTorch's formulas take it (handle_r_to_c) before the engine sums)
                g = g.real
                data = g._data
            if _STATE.enabled or (_meta.METAS and _meta.is_meta(g)):   # (recorded, or a meta sum: the op's)
                g = g.sum_to_size(shape)
            else:
                nxt = nodes[i]
                summed = _sum_to(data, shape, as_view=not (
                    plain_leaves and type(nxt) is AccumulateGrad and nxt._extras is None
                    and not nxt.variable._backward_hooks))
                if _vmap_batched.DEPTH[0]:   # (inside vmap the sum is batched as the gradient it reduces)
                    _vmap_batched.follow(summed, g)
                g = summed
        if g._data.dtype != npdtype:
            if ((np.issubdtype(g._data.dtype, np.complexfloating) or g._data.dtype.names is not None)  # (complex32)
                    and not (np.issubdtype(npdtype, np.complexfloating) or npdtype.names is not None)):
                g = g.real  # real input: keep the real part of a complex gradient (a view: nothing cast, no warning)
            from .._dtypes import from_numpy  # here, not above: this function runs once per node
            g = g.to(from_numpy(npdtype))
        if out is grads:
            out = list(grads)
        out[i] = g
    if on_meta is not False:
        out = on_devices(out, [on_meta is not None and on_meta[i] for i in range(len(out))],
                         f"Function {type(node).name(node)} returned an invalid gradient")
    return out


def on_devices(grads: list, want_meta: list, what: str) -> list:
    """PyTorch's validate_outputs' device step: each gradient on its input's device (cpu or meta), a 0-dim one
    moved there (as a number would be), any other refused."""
    out = list(grads)
    for i, g in enumerate(grads):
        if g is not None and _meta.is_meta(g) != want_meta[i]:
            if g._data.ndim == 0:
                out[i] = g.to("meta" if want_meta[i] else "cpu")   # (meta to cpu: "Cannot copy out of meta tensor")
                continue
            want, got = ("meta", "cpu") if want_meta[i] else ("cpu", "meta")
            raise RuntimeError(f"{what} at index {i} - expected device {want} but got {got}")
    return out


def _sum_to(data, shape, as_view: bool = True):
    """``sum_to_size`` when nothing records (backward without create_graph), without its argument
    parsing: ~5 us less per broadcast bias gradient. Same values. PyTorch's ``sum_to`` returns a view
    when leading dims go (hooks and ``autograd.grad`` see ``_base``; ``sum_to_size`` makes one for
    shape () too, which PyTorch does not). ``as_view=False``: the gradient goes straight into a leaf's
    ``.grad``, where nobody sees the view; then one reduction gives a fresh array that AccumulateGrad
    may keep without copying (the usual bias gradient: (n, k) -> (k,))."""
    if not _SUM_TO:
        from .. import derivatives  # here, not above: it imports the autograd package
        from .._tensor import Tensor
        _SUM_TO.extend((derivatives._sum_in_acc, Tensor._make, derivatives.view))
    if data.dtype.names and data.shape != tuple(shape):   # (complex32: PyTorch's sum has no kernel for it)
        raise NotImplementedError("\"sum_cpu\" not implemented for 'ComplexHalf'")
    lead = data.ndim - len(shape)
    inner = []  # the kept dims that shrink to 1 (a loop: a generator is a function call of its own)
    for i in range(lead, data.ndim):
        if shape[i - lead] == 1 and data.shape[i] != 1:
            inner.append(i)
    inner = tuple(inner)
    # inf + -inf in the sum is nan, without NumPy's "invalid value" warning (PyTorch prints none); a
    # backward pass has made NumPy quiet already (see _errstate.py)
    token = None if _errstate.get() is _errstate.QUIET else _errstate.state.set(_errstate.QUIET)
    try:
        if not as_view and (not inner or not lead):
            # Only leading dims go, or only inner dims shrink to 1: ``shape`` comes out of one reduction.
            if inner:
                out = _SUM_TO[0](data, axis=inner, keepdims=True)
            elif shape:  # (keepdim, as PyTorch's sum_to: kept size-1 dims can change the order of additions)
                out = _SUM_TO[0](data, axis=tuple(range(lead)), keepdims=True)
                if out.base is None and out.flags.c_contiguous:
                    out.shape = shape  # in place: a reshaped view would have to be copied by AccumulateGrad
                else:
                    out = out.reshape(shape)
            else:
                out = _SUM_TO[0](data, axis=tuple(range(lead)), keepdims=False)
            return _SUM_TO[1](out if type(out) is np.ndarray else np.asarray(out))
        out = _SUM_TO[0](data, axis=tuple(range(lead)) + inner, keepdims=bool(shape))  # (to (): a plain sum)
    finally:
        if token is not None:
            _errstate.state.reset(token)
    if not shape:  # PyTorch sums to a 0-dim tensor directly (not a view)
        return _SUM_TO[1](out.reshape(()))
    out = _SUM_TO[1](out)
    return _SUM_TO[2](out, size=shape) if lead > 0 else out


_SUM_TO: list = []  # (sum_dim's forward, Tensor._make, the view op), found on first use


def _expandable(shape, target) -> bool:
    """True if ``shape`` broadcasts to ``target``."""
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True


def _sole_owner(grad, extra: int = 0) -> bool:
    """True if nothing but the engine refers to ``grad`` and its array (so it may become a ``.grad``).

    PyTorch checks the gradient's use count for the same purpose. Expected references: the engine's
    local variable, this function's parameter and getrefcount's own argument (3); for the array: the
    tensor, ``data`` and the argument (3). A read-only array is never taken.
    A view (``_base`` set) is taken whoever holds what it views: PyTorch's AccumulateGrad counts only the
    references to the gradient itself, so ``x.view(3).backward(v)`` makes ``x.grad`` share ``v``'s memory
    (and a second backward adds into ``v``). An array that is a NumPy view of a formula's own temporary
    (a reshape of a fresh result: a fresh tensor in PyTorch) is taken when nothing else holds that temporary.
    ``extra``: references the caller knows to be harmless (see _buffer_add).
    """
    if grad._requires_grad or sys.getrefcount(grad) > _OWNED_REFS[0] + extra:
        return False
    data = grad._data
    if not data.flags.writeable:
        return False
    if grad._view_base is not None:   # (the slot itself: _base's property costs a call)
        return True
    if sys.getrefcount(data) > _OWNED_REFS[1]:
        return False
    base = data.base
    while base is not None:  # NumPy views of views: each held only by the one below it
        # (as_strided's DummyArray wraps an array the same way, and so does the memoryview under the aligned
        # buffers of _lapack._empty, LAPACK's results: its ``obj`` is the array it views; a buffer of another
        # kind may be anyone's)
        kind = type(base)
        if not (kind is np.ndarray or kind is memoryview or kind.__name__ == "DummyArray") or \
                sys.getrefcount(base) > _OWNED_REFS[2]:
            return False
        if kind is not memoryview:
            base = base.base
        elif type(base.obj) is np.ndarray:
            base = base.obj
        else:
            return False
    return True


def _buffer_add(buf: list, nr: int, g, outputs):
    """``buf[nr] + g`` for a node's input buffer, made as PyTorch's InputBuffer makes it.

    Without create_graph, PyTorch adds into the waiting gradient itself when nothing else refers to it
    (a plain, fresh, dense tensor): ``old.add_(g)``, which bumps its version. The version is what shows:
    a hook, ``autograd.grad`` or the ``.grad`` that takes the sum over sees 1 where a sum made out of
    place has 0 (``(a * a).sum().backward()`` leaves ``a.grad._version`` at 1).
    ``outputs``: what the running node returned. PyTorch moves each gradient out of it into a buffer, so
    the waiting gradient's references from there (MulBackward0 of ``a * a`` sends two) do not count.
    """
    if buf[nr] is g:
        return g + g  # (a node returned one tensor twice: PyTorch's use count is 2 then)
    moved = sum(1 for o in outputs if o is buf[nr])
    # (before ``old`` exists: it would be one more reference)
    if not _STATE.enabled and _sole_owner(buf[nr], moved):
        old = buf[nr]
        data, other = old._data, g._data
        if not _TENSOR_CLASS:
            from .._tensor import Tensor
            _TENSOR_CLASS.append(Tensor)
        # (not a view: its base's share of the storage is a second reference in PyTorch)
        if (type(old) is type(g) is _TENSOR_CLASS[0] and old._base is None and old._fw_grad is None
                and data.shape == other.shape and data.dtype == other.dtype and _dense(data)
                and not (_ZEROS and _zerotensor.is_zero(old))):   # (a ZeroTensor has no memory to add into)
            if data.dtype.kind == "c" or data.dtype.names:   # (PyTorch's complex add_ multiplies g by alpha = 1 + 0j
                # first: -inf·0 is NaN, so (-inf - inf j) + (-inf - inf j) is NaN + NaN j, as Tensor.add_; complex32,
                # NumPy's structured dtype, has no += of its own)
                return old.add_(g)
            data += other
            old._version_counter[0] += 1
            return old
    return buf[nr] + g


def _calibrate_owned_refs() -> tuple[int, int, int]:
    """The reference counts _sole_owner sees for an object nobody else holds, measured on this Python:
    the gradient, its array and the array its array views.

    Reference counting details change between CPython versions (3.14 borrows stack references), so
    the expected counts are measured the same way _sole_owner measures them instead of hard-coded.
    """
    class _Probe:
        _data = None

    def count(obj):
        holder_count = sys.getrefcount(obj)
        data = obj._data
        data_count = sys.getrefcount(data)
        base = data.base
        return holder_count, data_count, sys.getrefcount(base)

    def engine_like():
        grad = _Probe()
        grad._data = np.zeros(2)[1:]
        return count(grad)

    return engine_like()


_OWNED_REFS = _calibrate_owned_refs()


def _check_hook_result(hook, original, result) -> None:
    """PyTorch's checks on a gradient a hook returned in place of ``original`` (python_hook.cpp)."""
    if result is original:
        return
    if original is None:
        raise RuntimeError("can't replace a None gradient with a non-None value")
    from .._tensor import Tensor
    if not isinstance(result, Tensor):
        raise TypeError(f"expected Variable, but hook returned '{_c_type_name(result)}'")
    name = getattr(hook, "__name__", None)
    name = name if isinstance(name, str) else "<unknown>"
    if result.dtype != original.dtype or _meta.METAS and _meta.is_meta(result) != _meta.is_meta(original):
        raise RuntimeError(f"hook '{name}' has changed the type of value "
                           f"(was {_hook_type_string(original)} got {_hook_type_string(result)})")
    if result.shape != original.shape:
        raise RuntimeError(f"hook '{name}' has changed the size of value")


def _hook_type_string(t) -> str:
    """How python_hook.cpp names a tensor's type: as C++ does (CPUComplexFloatType), MetaFloatType on meta."""
    from .._ops import _legacy, _type_string
    return f"Meta{_legacy(t.dtype)}Type" if _meta.METAS and _meta.is_meta(t) else _type_string(t.dtype)


def _check_hook_tuple(hook, original, result) -> None:
    """The same checks for a node hook, which returns a tuple of gradients."""
    if not isinstance(result, tuple):
        raise TypeError(f"expected tuple, but hook returned '{_c_type_name(result)}'")
    if len(result) != len(original):
        name = getattr(hook, "__name__", None)
        raise RuntimeError(f"hook '{name if isinstance(name, str) else '<unknown>'}' has returned an incorrect "
                           f"number of values (got {len(result)}, but expected {len(original)})")
    for o, r in zip(original, result):
        if r is not None:
            _check_hook_result(hook, o, r)


def _call_hook(hook, node, slot: int, grads, *args):
    """``hook(*args)``, a user's hook at ``slot`` of ``node`` (which reads or replaces ``grads``).

    PyTorch runs an is_grads_batched backward once, so each hook once, on the whole batch. minigrad runs one backward
    per row (BATCHED_ROWS): a hook whose first-row call returned nothing and changed no gradient in place (it only
    looked: printed, counted, kept a reference) has made that one call; one that returned or changed a gradient did
    work every row needs, and is called again in each row (what the later rows print is dropped).
    """
    if not BATCHED_ROWS:
        return call_user(hook, *args)
    row, once = BATCHED_ROWS[-1]
    key = (id(node), slot, id(hook))   # (node and hook are kept in ``once``: their ids stay theirs)
    if row:
        return None if key in once else call_user(hook, *args)
    versions = [g._version_counter[0] for g in grads if g is not None]
    r = call_user(hook, *args)
    if r is None and versions == [g._version_counter[0] for g in grads if g is not None]:
        once[key] = (node, hook)
    return r


def _call_tensor_pre_hooks(node, grads: list) -> list:
    """Hooks registered with ``tensor.register_hook``, then ``retain_grad`` (PyTorch's order)."""
    if type(node) is AccumulateGrad:
        hooks = node.variable._backward_hooks
        if hooks:
            for hook in list(hooks.values()):  # called even with None, as PyTorch does
                # (the leaf, not its AccumulateGrad node, which a later row may make anew)
                r = _call_hook(hook, node.variable, 0, grads, grads[0])
                if r is not None:
                    _check_hook_result(hook, grads[0], r)
                    grads[0] = r
        return grads
    if node._tensor_pre_hooks:
        for nr, hook in list(node._tensor_pre_hooks.values()):
            r = _call_hook(hook, node, nr, grads[nr:nr + 1], grads[nr])  # even with None (an output without one)
            if r is not None:
                _check_hook_result(hook, grads[nr], r)
                grads[nr] = r
    if node._retains_grad and not (BATCHED_ROWS and BATCHED_ROWS[-1][0]):  # (once per batch: see _call_hook)
        for nr, ref in node._retains_grad.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:  # (a C-order copy, as PyTorch's retain_grad hook: clone(contiguous_format))
                if _STATE.enabled or g._fw_grad is not None:   # (the op: a tangent is cloned too, as PyTorch's)
                    t._grad = g.clone(memory_format=contiguous_format)
                elif _meta.METAS and _meta.is_meta(g):   # (a meta gradient's copy is a meta tensor: nothing copied)
                    t._grad = _meta.mark(type(g)._make(_meta.clone(g._data, contiguous_format)))
                else:
                    t._grad = type(g)._make(np.array(g._data, order="C"))
            else:
                t._grad = t._grad + g
    return grads


def _unpack_saved(node) -> None:
    """A node that gets no gradient at all still unpacks its saved tensors, as PyTorch's nodes do first thing
    (a saved tensor changed in place since raises its error even then)."""
    op = getattr(node, "_op", None)
    if op is None:
        return
    saved = node._saved
    for i in op.tensor_slots:
        if type(saved[i]) is SavedTensor:
            saved[i].unpack(node, True)
        elif isinstance(saved[i], tuple):   # (index's indices)
            from .._dispatch import unpack_indices
            unpack_indices(saved[i], node)


def _call_function(node, grads: list) -> list:
    """Run one node: its hooks, ``_apply``, and the shape/dtype fix-up of what it returns."""
    if not _anomaly[0]:
        return _run_node(node, grads)
    try:
        return _run_node(node, grads)
    except Exception:
        # (PyTorch's GraphTask::set_exception: whatever fails while a node is processed, its hooks too, shows
        # the node's forward trace)
        from .anomaly_mode import _warn_trace
        _warn_trace(node)
        raise


def _run_node(node, grads: list) -> list:
    """_call_function's work."""
    grads = _call_tensor_pre_hooks(node, grads)
    if node._pre_hooks:
        for hook in list(node._pre_hooks.values()):
            r = _call_hook(hook, node, -1, grads, tuple(grads))
            if r is not None:
                _check_hook_tuple(hook, grads, r)
                grads = list(r)
    if all(g is None for g in grads) and not node._runs_without_grads:
        _unpack_saved(node)
        outputs = [None] * len(node._next_nodes)
        if type(node) is AccumulateGrad:
            node._post_accumulate_hooks()   # (PyTorch runs a leaf's post-accumulate hooks without a gradient too)
    else:
        if _profiling[0]:
            from .profiler import _run_node_profiled
            outputs = _run_node_profiled(node, tuple(grads))
        elif _anomaly[0]:
            from .anomaly_mode import _run_with_anomaly_check
            outputs = _run_with_anomaly_check(node, tuple(grads))
        elif type(node) is AccumulateGrad and not node._post_hooks:
            # A leaf with hooks: as in run_backward's fast path, a gradient nobody else holds (one a hook
            # made and returned) becomes .grad as it is; PyTorch steals it too (version 0, not a copy's 1).
            grad = grads[0]
            grads[0] = None  # (drop this list's reference: see _sole_owner)
            owned = _sole_owner(grad)  # (first: ``grad`` pushed as _accumulate's argument would be one more reference)
            node._accumulate(grad, owned, _STATE.enabled)   # (the mode now: a pre-hook may have changed it)
            outputs = ()
        else:
            outputs = node._apply(tuple(grads))
        outputs = _validate_outputs(node, outputs)
        if node._batch_sums is not None:   # (an op run batched by a vmap that has ended: see note_batch_sums)
            outputs = _vmap_batched.batch_summed(node._batch_sums, outputs)
    if node._post_hooks:
        # (a list: the hooks get a tuple of their own, so one they keep counts as a holder of its gradients
        # in _buffer_add; ``tuple(outputs)`` of a tuple would be ``outputs`` itself)
        outputs = list(outputs)
        for hook in list(node._post_hooks.values()):
            r = _call_hook(hook, node, -2, outputs + grads, tuple(outputs), tuple(grads))
            if r is not None:
                _check_hook_tuple(hook, outputs, r)
                outputs = list(r)
    return outputs


_torch_function: list = []  # [overrides._STATE, overrides._TLS] once a backward has run (imported late: no cycle)


def _set_wanted(thread: int, wanted) -> None:
    """Record the nodes ``thread``'s pass needs (None: every node, no entry; see graph._task_wanted)."""
    if wanted is None:
        _task_wanted.pop(thread, None)
    else:
        _task_wanted[thread] = wanted


def run_backward(tensors, grad_tensors, keep_graph: bool, create_graph: bool,
                 inputs=None, accumulate: bool = True, allow_unused: bool = False):
    """The engine entry point behind ``backward()`` and ``autograd.grad()``.

    ``tensors`` are tensors (or GradientEdges) whose gradients ``grad_tensors`` start the walk.
    ``accumulate=True`` (backward): leaves' ``.grad`` is updated; with ``inputs``, only theirs.
    ``accumulate=False`` (grad): the gradients arriving at ``inputs`` are returned; ``.grad`` is untouched.
    """
    root_edges = []
    # A root's gradient has its tensor's shape and dtype (_make_grads) unless the root is a GradientEdge, whose
    # metadata may be unknown: then no node skips the fix-up of what it returns (node._grads_fit).
    grads_checked = True
    for i, t in enumerate(tensors):
        if isinstance(t, GradientEdge):
            edge = t[:2]
            grads_checked = False
        else:
            edge = t._edge()
        if edge[0] is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        root_edges.append(edge)
    output_edges = None
    if inputs is not None:
        output_edges = [t[:2] if isinstance(t, GradientEdge) else t._edge() for t in inputs]

    # One root is run directly; several hang off a dummy GraphRoot (which also counts as a dependency).
    if len(root_edges) == 1:
        root, nr = root_edges[0]
        buffers = {root: [None] * root._n_outputs}
        buffers[root][nr] = grad_tensors[0]
    else:
        root = _GraphRoot(tuple(root_edges), list(grad_tensors))
        buffers = {}
    deps = _dependencies(root)
    needed = captures = None
    captured = None
    if output_edges is not None:
        needed, captures = _exec_info(root, output_edges, accumulate)
        captured = [None] * len(output_edges)

    queue = _ReadyQueue()
    queue.push(root)
    # The formulas run with __torch_function__ off, as PyTorch's C++ ones: saved subclass tensors and modes
    # see none of their operations (minigrad/overrides.py).
    if not _torch_function:
        from .. import overrides
        _torch_function.extend((overrides._STATE, overrides._TLS))
    torch_function = _torch_function[1] if _torch_function[0].active else None  # (this thread's state)
    if torch_function is not None:
        prev_torch_function, torch_function.disabled = torch_function.disabled, 2
    prev = _STATE.enabled
    task_grad_mode = _STATE.enabled = create_graph and not _STATE.inference  # (inference mode records nothing)
    # This thread's dict of the per-thread state (threading.local's ``__dict__``), read once: the per-node
    # restore below is then a dict store, ~600 instructions less than setting the attribute each time
    thread_state = _STATE.__dict__
    # NumPy quiet once for the whole pass, not around each op of each formula (~1 us less per op); hooks
    # and custom backwards get the user's error state back (_errstate.call_user).
    errstate_token = _errstate.begin_pass()
    tasks = graph_tasks()
    tasks.append((next(_task_ids), root, deps, needed, captures, []))  # (register_multi_grad_hook, queue_callback)
    thread = threading.get_ident()
    prev_wanted = _task_wanted.get(thread)
    _set_wanted(thread, None if needed is None else set(needed) | set(captures))
    heap, pop, push = queue.heap, queue.pop, queue.push
    plain_leaves = needed is None  # no gradient is captured on its way to a leaf (see _validate_outputs)
    try:
        while heap:
            # A chain has one ready node at a time, a layer's backward two (its input's node and a weight's
            # AccumulateGrad): no heap to rearrange, no function call (of two, the top is heap[0]: pop's result).
            if len(heap) == 1:
                node = heap.pop()
            elif len(heap) == 2:
                node, heap[0] = heap[0], heap.pop()
            else:
                node = pop()
            # Each node runs in the pass's grad mode, as PyTorch restores its graph task's thread-local state per
            # node: a mode changed meanwhile (a hook, a generator's `with enable_grad()` closed by the garbage
            # collector) does not leak into the next node's formula or into .grad
            thread_state["enabled"] = task_grad_mode  # (_STATE.enabled = task_grad_mode, see thread_state)
            # (node._next_nodes, without a call; each slot read once: a node's class changes from one node to the next,
            # so CPython 3.11 cannot specialize these reads and each costs a generic attribute lookup)
            nrs = node._next_nrs
            nexts = (node._next_node,) + node._next_rest if nrs else ()
            if node is root and type(node) is _GraphRoot:
                outputs = node.grads
            else:
                grads = buffers.pop(node, None) or [None] * node._n_outputs
                if needed is not None:
                    run = node in needed
                    here = captures.get(node)
                    if here is not None:
                        # A node that will not run still calls its tensor hooks before the capture.
                        hooked = grads if run else _call_tensor_pre_hooks(node, grads)
                        for nr, k in here:
                            captured[k] = hooked[nr]
                    if not run:
                        if here is None:   # (only the root, a single output's own node, gets here: PyTorch's
                            _call_tensor_pre_hooks(node, grads)   # engine runs its tensor hooks, retain_grad too)
                        continue
                # The usual case, tested inline (a function call per node is measurable): one gradient
                # in, no hooks of any kind, no profiler or anomaly mode. Same steps as _call_function.
                if (len(grads) == 1 and grads[0] is not None and node._extras is None
                        and not _profiling[0] and not _anomaly[0]):
                    if type(node) is AccumulateGrad:
                        if not node.variable._backward_hooks:
                            grad = grads[0]
                            grads = buf = None  # drop the engine's other references (see _sole_owner)
                            owned = _sole_owner(grad)
                            node._accumulate(grad, owned, task_grad_mode)   # (the mode just set)
                            grad = None
                            continue
                        outputs = _call_function(node, grads)
                    else:
                        outputs = node._apply_in_mode((grads[0],), task_grad_mode, nexts)  # (the mode just set)
                        # (Op.grads_fit: nothing to fix up; unless a ZeroTensor is alive: its kernel promotes a
                        # 0-dim gradient times a number, 0-dim float32 * 2.5 is float64, cast back here as PyTorch)
                        if not (node._grads_fit and grads_checked) or _ZEROS:
                            outputs = _validate_outputs(node, outputs, plain_leaves, nexts)
                else:
                    outputs = _call_function(node, grads)
                if not keep_graph:
                    node._release_variables()

            for nxt, nr, g in zip(nexts, nrs, outputs):
                if nxt is None:
                    continue
                d = deps[nxt] - 1
                deps[nxt] = d
                if needed is not None and nxt not in needed and nxt not in captures:
                    continue
                if g is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * nxt._n_outputs
                    buf[nr] = g if buf[nr] is None else _buffer_add(buf, nr, g, outputs)
                if d == 0:
                    if len(heap) == 1:  # (push's sift for a heap of one, inline: the later node goes on top)
                        heap.append(nxt)
                        if heap[0]._seq < nxt._seq:
                            heap[0], heap[1] = nxt, heap[0]
                    elif heap:
                        push(nxt)
                    else:
                        heap.append(nxt)
            # Keep no reference to the gradients just handed on: AccumulateGrad may take a gradient
            # without copying it only when the engine's buffer is its sole holder (_sole_owner).
            outputs = g = buf = None
        # The callbacks queued on the way (Variable._execution_engine.queue_callback), in order, in the pass's
        # grad mode; one may queue more.
        callbacks = tasks[-1][5]
        _STATE.enabled = task_grad_mode
        for callback in callbacks:
            callback()
    finally:
        _errstate.end_pass(errstate_token)
        _STATE.enabled = prev
        if torch_function is not None:
            torch_function.disabled = prev_torch_function
        _set_wanted(thread, prev_wanted)
        tasks.pop()

    if captured is None or accumulate:
        return None
    for k, g in enumerate(captured):
        if g is None and not allow_unused:
            raise RuntimeError(
                f"The differentiated Tensor at index {k} appears to not have been used in the graph. "
                "Set allow_unused=True if this is the desired behavior.")
    return tuple(captured)
