"""The backward engine: walk the graph from the outputs, calling each node once, in dependency order.

1. Count, for every node reachable from the roots, how many edges point at it (its dependencies).
2. Seed the roots' input buffers with the output gradients.
3. Repeatedly take a ready node (all its dependencies delivered; among ready nodes the most recently
   created first, as PyTorch does), run its hooks and its ``apply``, undo broadcasting / dtype changes
   on what it returns (``_validate_outputs``), and add each gradient into the buffer of the next node.

No recursion, so a 100,000-node chain is fine.
"""
from __future__ import annotations

import heapq

import numpy as np

from . import grad_mode

_STATE = grad_mode.STATE
_anomaly = [False]  # set by anomaly_mode (kept here so the hot loop reads a plain list)


def _num_outputs(node) -> int:
    meta = getattr(node, "_out_meta", None)
    if meta is not None:
        return len(meta)
    return getattr(node, "_n_outputs", 1)


def _collect(roots) -> tuple[dict, dict]:
    """Dependencies of every node reachable from ``roots`` (iterative DFS)."""
    deps: dict = {}
    seen = set(roots)
    order = list(roots)
    stack = list(roots)
    while stack:
        fn = stack.pop()
        for nxt, _ in fn.next_functions:
            if nxt is None:
                continue
            deps[nxt] = deps.get(nxt, 0) + 1
            if nxt not in seen:
                seen.add(nxt)
                order.append(nxt)
                stack.append(nxt)
    return deps, order


def _needed(order, targets: set) -> set:
    """Nodes from which some target node is reachable (only these need to run)."""
    needed = set(targets)
    # ``order`` lists parents before children along DFS discovery; iterate to a fixed point cheaply by
    # processing in reverse topological order computed with an explicit stack.
    post = []
    state: dict = {}
    for start in order:
        if start in state:
            continue
        stack = [(start, iter(start.next_functions))]
        state[start] = 1
        while stack:
            node, it = stack[-1]
            advanced = False
            for nxt, _ in it:
                if nxt is not None and nxt not in state:
                    state[nxt] = 1
                    stack.append((nxt, iter(nxt.next_functions)))
                    advanced = True
                    break
            if not advanced:
                stack.pop()
                post.append(node)
    for node in post:  # children come before parents in post-order
        if node in needed:
            continue
        for nxt, _ in node.next_functions:
            if nxt is not None and nxt in needed:
                needed.add(node)
                break
    return needed


def _validate_outputs(node, grads) -> list:
    """Undo broadcasting and dtype changes: each gradient takes its input's shape and dtype.

    This is the one place where broadcasting is undone (d(x+y)/dx for x of shape (3,) and y of
    shape (2, 3) arrives with shape (2, 3) and is summed back to (3,)).
    """
    from .._dtypes import from_numpy
    edges = node.next_functions
    if len(grads) != len(edges):
        raise RuntimeError(f"function {node.name()} returned an incorrect number of gradients "
                           f"(expected {len(edges)}, got {len(grads)})")
    out = list(grads)
    meta = node._input_meta
    for i, g in enumerate(out):
        if g is None or edges[i][0] is None:
            continue
        shape, npdtype = meta[i]
        data = g._data
        if data.shape != shape:
            if not _expandable(shape, data.shape):
                raise RuntimeError(
                    f"Function {node.name()} returned an invalid gradient at index {i} - got "
                    f"{list(data.shape)} but expected shape compatible with {list(shape)}")
            g = g.sum_to_size(shape)
        if g._data.dtype != npdtype:
            if np.issubdtype(g._data.dtype, np.complexfloating) and not np.issubdtype(npdtype, np.complexfloating):
                g = g.real  # real input: keep the real part of a complex gradient
            g = g.to(from_numpy(npdtype))
        out[i] = g
    return out


def _expandable(shape, target) -> bool:
    """True if ``shape`` broadcasts to ``target``."""
    if len(shape) > len(target):
        return False
    for s, t in zip(reversed(shape), reversed(target)):
        if s != t and s != 1:
            return False
    return True


def _call_tensor_pre_hooks(node, grads: list) -> list:
    """Hooks registered with ``tensor.register_hook`` and ``retain_grad`` (which runs last)."""
    from .graph import AccumulateGrad
    if type(node) is AccumulateGrad:
        hooks = node.variable._backward_hooks
        if hooks:
            for hook in list(hooks.values()):
                r = hook(grads[0])
                if r is not None:
                    grads[0] = r
        return grads
    if node._tensor_pre_hooks:
        for nr, hook in list(node._tensor_pre_hooks.values()):
            if grads[nr] is not None:
                r = hook(grads[nr])
                if r is not None:
                    grads[nr] = r
    if node._retains_grad:
        for nr, ref in node._retains_grad.items():
            t = ref()
            g = grads[nr]
            if t is None or g is None:
                continue
            if t._grad is None:
                t._grad = g.clone() if _STATE.enabled else g._detached_copy()
            else:
                t._grad = t._grad + g
    return grads


def run_backward(tensors, grad_tensors, keep_graph: bool, create_graph: bool,
                 inputs=None, accumulate: bool = True, allow_unused: bool = False,
                 materialize_grads: bool = False):
    """The engine entry point behind ``backward()`` and ``autograd.grad()``.

    ``accumulate=True`` (backward): leaves' ``.grad`` is updated; with ``inputs``, only theirs.
    ``accumulate=False`` (grad): gradients w.r.t. ``inputs`` are returned, ``.grad`` is untouched.
    """
    from .._tensor import Tensor
    from .graph import AccumulateGrad

    # ---- roots
    root_nodes = []
    buffers: dict = {}
    for i, (t, g) in enumerate(zip(tensors, grad_tensors)):
        node, nr = t._edge()
        if node is None:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        buf = buffers.get(node)
        if buf is None:
            buf = buffers[node] = [None] * _num_outputs(node)
            root_nodes.append(node)
        buf[nr] = g if buf[nr] is None else buf[nr] + g

    deps, order = _collect(root_nodes)

    # ---- what to capture / which nodes must run
    captures = None
    targets = None
    if inputs is not None:
        captures = []
        for t in inputs:
            if not t._requires_grad:
                raise RuntimeError("One of the differentiated Tensors does not require grad")
            node, nr = t._edge()
            captures.append((node, nr, t))
        if accumulate:
            targets = {n for n, _, _ in captures}
        else:
            targets = {n for n, _, _ in captures}
        needed = _needed(order, targets)
    else:
        needed = None
    captured = [None] * (len(captures) if captures else 0)
    capture_at: dict = {}
    if captures is not None:
        for k, (node, nr, t) in enumerate(captures):
            capture_at.setdefault(node, []).append((k, nr, t))

    heap = []
    for node in root_nodes:
        if deps.get(node, 0) == 0:
            heapq.heappush(heap, (-node._seq, len(heap), node))
    tick = len(heap)

    prev = _STATE.enabled
    _STATE.enabled = create_graph
    try:
        while heap:
            node = heapq.heappop(heap)[2]
            grads = buffers.pop(node, None) or [None] * _num_outputs(node)
            grads = _call_tensor_pre_hooks(node, grads)

            if node in capture_at:
                for k, nr, t in capture_at[node]:
                    g = grads[nr]
                    if accumulate:
                        if type(node) is not AccumulateGrad and g is not None:
                            # backward(inputs=[non_leaf]) accumulates into its .grad too.
                            t._grad = g._detached_copy() if t._grad is None else t._grad + g
                    else:
                        captured[k] = g if g is None or create_graph else g.detach()
                if not accumulate or type(node) is not AccumulateGrad:
                    if node not in _children_needed(node, needed):
                        _release_and_skip(node, keep_graph, deps, heap)
                        continue
            if needed is not None and node not in needed:
                continue
            if not accumulate and type(node) is AccumulateGrad:
                continue

            if node._pre_hooks:
                for hook in list(node._pre_hooks.values()):
                    r = hook(tuple(grads))
                    if r is not None:
                        grads = list(r)

            if all(g is None for g in grads):
                outputs = [None] * len(node.next_functions)
            else:
                if _anomaly[0]:
                    from .anomaly_mode import _run_with_anomaly_check
                    outputs = _run_with_anomaly_check(node, tuple(grads))
                else:
                    outputs = node.apply(tuple(grads))
                outputs = _validate_outputs(node, outputs)
            if not keep_graph:
                node.release_variables()

            if node._post_hooks:
                for hook in list(node._post_hooks.values()):
                    r = hook(tuple(outputs), tuple(grads))
                    if r is not None:
                        outputs = list(r)

            for (nxt, nr), g in zip(node.next_functions, outputs):
                if nxt is None:
                    continue
                if g is not None:
                    buf = buffers.get(nxt)
                    if buf is None:
                        buf = buffers[nxt] = [None] * _num_outputs(nxt)
                    buf[nr] = g if buf[nr] is None else buf[nr] + g
                d = deps[nxt] - 1
                deps[nxt] = d
                if d == 0 and (needed is None or nxt in needed):
                    tick += 1
                    heapq.heappush(heap, (-nxt._seq, tick, nxt))
    finally:
        _STATE.enabled = prev

    if captures is None or accumulate:
        return None
    result = []
    for k, (node, nr, t) in enumerate(captures):
        g = captured[k]
        if g is None:
            if materialize_grads:
                g = Tensor._make(np.zeros_like(t._data))
            elif not allow_unused:
                raise RuntimeError(
                    f"The differentiated Tensor at index {k} appears to not have been used in the graph. "
                    "Set allow_unused=True if this is the desired behavior.")
        result.append(g)
    return tuple(result)


def _children_needed(node, needed) -> set:
    # A captured node still runs if some other capture lies below it.
    if needed is None:
        return {node}
    for nxt, _ in node.next_functions:
        if nxt is not None and nxt in needed:
            return {node}
    return set()


def _release_and_skip(node, keep_graph, deps, heap) -> None:
    if not keep_graph:
        node.release_variables()
