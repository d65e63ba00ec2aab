"""torch.func's derivative transforms on minigrad's own autograd: grad, grad_and_value, vjp, jvp, jacrev, jacfwd,
hessian, linearize.

PyTorch gives each transform call a "level" and wraps tensors per level. minigrad does it with ordinary graphs:

- each differentiated input is replaced by a fresh leaf (``x.detach().requires_grad_()``), or, when ``x`` is
  already differentiable outside (the user's ``requires_grad`` tensor, or the input of an outer ``grad``), by
  the view ``x.view_as(x)``, which keeps the link so the outer level can differentiate through this one;
- ``func`` runs under ``enable_grad`` and ``autograd.grad`` differentiates its output;
- a result is detached unless its graph reaches a leaf that is not one of this call's fresh leaves: that is how
  ``grad(grad(f))`` gets second derivatives, and why ``grad(f)(x)`` has no ``grad_fn`` when nothing outside
  requires grad (as in PyTorch). ``create_graph`` is only used when something outside can differentiate;
- the one graph links all levels, but what the function's code reads of a tensor (``requires_grad``, ``grad_fn``,
  ``autograd.grad`` inside, its repr) is what PyTorch's level shows (``hides_autograd``, ``grad_tracking_repr``).

``jvp`` uses forward AD (``autograd/forward_ad.py``). Forward AD has a single level and not every op has a
forward formula, so inside another ``jvp``, or when an op lacks its formula, it falls back to the double-vjp
trick: ``u ↦ uᵀJ`` is linear in ``u``, so differentiating ``(uᵀJ)·t`` by ``u`` gives ``J·t``.
"""
from __future__ import annotations

import contextlib
import functools
import textwrap
import types
import weakref
from collections.abc import Callable
from typing import Any, NamedTuple

from .. import _dispatch, _vmap_batched, autograd
from .. import derivatives as D
from .._creation import zeros_like
from .._tensor import Tensor
from ..autograd import forward_ad as fwAD
from ..autograd import graph as _graph
from ..autograd.function import _TRANSFORMS_ACTIVE, _DelayedError
from ..autograd.grad_mode import enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled
from ..autograd.graph import AccumulateGrad
from ..autograd.graph import _sequence as _node_sequence
from ._pytree import tree_flatten, tree_map, tree_unflatten
from ._vmap import chunk_sizes, vmap

__all__ = ["grad", "grad_and_value", "vjp", "jvp", "jacrev", "jacfwd", "hessian", "linearize", "functionalize",
           "debug_unwrap"]

_JVP = "jvp(f, primals, tangents)"


# ---- argnums: which positional arguments are differentiated (PyTorch's checks and messages) ----------------

def _wrap_argnum(argnum, num_args: int) -> int:
    if not isinstance(argnum, int):
        raise RuntimeError(f"argnum must be int, got: {type(argnum)}")
    if -num_args <= argnum < num_args:
        return argnum % num_args
    raise RuntimeError(f"Got argnum={argnum}, but only {num_args} positional inputs")


def _check_argnums(argnums, num_args: int):
    """``argnums`` with negative indices wrapped, after PyTorch's checks."""
    if not isinstance(argnums, (int, tuple)):
        raise RuntimeError(f"argnums must be int or Tuple[int, ...], got: {type(argnums)}")
    if isinstance(argnums, int):
        return _wrap_argnum(argnums, num_args)
    argnums = tuple(_wrap_argnum(a, num_args) for a in argnums)
    if len(argnums) == 0:
        raise RuntimeError("argnums must be non-empty")
    if len(set(argnums)) != len(argnums):
        raise RuntimeError(f"argnums elements must be unique, got {argnums}")
    return argnums


def _slice_argnums(args: tuple, argnums, as_tuple: bool = True):
    argnums = _check_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return (args[argnums],) if as_tuple else args[argnums]
    return tuple(args[i] for i in argnums)


def _replace_args(args: tuple, new, argnums) -> tuple:
    """``args`` with the differentiated ones (``new``, shaped as ``_slice_argnums(as_tuple=False)``) swapped in."""
    argnums = _check_argnums(argnums, len(args))
    if isinstance(argnums, int):
        return tuple(new if i == argnums else a for i, a in enumerate(args))
    return tuple(new[argnums.index(i)] if i in argnums else a for i, a in enumerate(args))


def _pass_on_others(level, args: tuple, argnums) -> tuple:
    """``args`` with those not in ``argnums`` as ``level.pass_on`` hands them to the function."""
    nums = _check_argnums(argnums, len(args))
    nums = (nums,) if isinstance(nums, int) else nums
    return tuple(a if i in nums else tree_map(level.pass_on, a) for i, a in enumerate(args))


class _Call(NamedTuple):
    """One transform call running the user's function."""
    level: Any         # its _Level (grad, vjp, the double-vjp jvp), None for a forward-AD jvp
    args: list         # the caller's argument tensors
    entered: list      # what func gets for the differentiated ones ...
    callers: list      # ... and the caller's tensors they stand for
    grad_level: bool   # a grad / vjp level
    start: int         # the sequence number of the first node made for the call
    captured: dict     # the tensors func captured (see _captured_tensors), its arguments among them too


# The transform calls running the user's function, innermost last; read by grad_tracking_repr and hides_autograd.
# (The list is _vmap_batched's, so that Tensor's properties see cheaply whether a transform runs.)
_RUNNING: list = _vmap_batched.TRANSFORM_CALLS


def _next_sequence_nr() -> int:
    """The sequence number the next node will get, read without taking it (nodes' numbers stay PyTorch's)."""
    return int(repr(_node_sequence)[len("count("):-1])


def hides_autograd(t: Tensor) -> bool:
    """Whether the user's code sees ``t`` as PyTorch's wrapper at the innermost running transform's level without
    autograd state there (``requires_grad`` False, no ``grad_fn``, a leaf).

    PyTorch wraps what the function computes at the transform's level, and its level tracks only what depends on
    the transform's inputs: at a grad / vjp level, a result made from captured tensors alone (``w * 2`` with ``w``
    requiring grad outside) has no autograd state there; at a jvp level (forward AD) nothing has, the inputs
    neither. The caller's tensors the function captured are seen unwrapped, as they are. minigrad records all of
    it in one graph (the outer levels differentiate through it): only what the user reads is hidden."""
    return tracked(t) is False


def tracked(t: Tensor) -> bool | None:
    """Whether the innermost running transform's level tracks ``t`` (see ``hides_autograd``): True (an input of a
    grad / vjp level, a leaf that requires grad made during the call, or computed from one of those), False (a
    wrapper there without autograd state), None (a tensor from outside: the caller's arguments, captured tensors
    and what nodes made before the call computed; the level's backward never reaches it)."""
    level, args, entered, _, grad_level, start, _ = _RUNNING[-1]
    if any(t is e for e in entered):
        return grad_level
    node = t._grad_fn
    if node is None:
        return True if t._requires_grad and _made_inside(t, level, args) else None
    if node._seq < start:
        return None
    # hidden unless the graph reaches what the level tracks: a grad / vjp level's inputs (its fresh leaves, or the
    # views standing in for inputs that require grad outside), or a leaf made during the call
    inputs = {id(e._grad_fn) for e in entered if e._grad_fn is not None} if grad_level else set()
    stack, seen_nodes = [node], set()
    while stack:
        n = stack.pop()
        if id(n) in seen_nodes:
            continue
        seen_nodes.add(id(n))
        if id(n) in inputs:
            return True
        if isinstance(n, AccumulateGrad):
            v = n.variable
            if any(v is e for e in entered):
                if grad_level:
                    return True
            elif v._requires_grad and _made_inside(v, level, args):
                return True
            continue
        if n._seq < start:  # (made before the call: it cannot lead to what the call made)
            continue
        stack.extend(m for m, _ in n.next_functions if m is not None)
    return False


def _made_inside(leaf: Tensor, level, args: list) -> bool:
    """Whether ``leaf`` was made during the running call: none of the caller's arguments, the tensors the
    function captured, or the transform's own leaves. (A tensor reached some other way counts as made inside:
    then it shows its autograd state, as before this distinction.)"""
    if any(leaf is a for a in args) or level is not None and any(leaf is x for x in level.leaves):
        return False
    return not _in(leaf, _RUNNING[-1].captured)


def _in(t: Tensor, captured: dict) -> bool:
    ref = captured.get(id(t))
    return ref is not None and ref() is t


def grad_tracking_repr(t: Tensor, plain: Callable) -> str | None:
    """How PyTorch prints ``t`` inside running grad/vjp/jvp transforms: its wrappers of the levels,
    ``GradTrackingTensor(lvl=2, value=GradTrackingTensor(lvl=1, value=...))``, around the plain tensor; None to
    print ``t`` as usual.

    PyTorch wraps every tensor made while the function runs (what ops and factories return) at every running
    level, and the caller's arguments at the transform's level (around the caller's tensor as it is), not the
    tensors the function captured. Only the case whose inner value is a plain tensor (or, inside vmaps, a
    vmap input's example, as BatchedTensor), an outermost transform whose inputs nothing outside
    differentiates, ``t`` free of any outside autograd history."""
    if not _RUNNING or _TRANSFORMS_ACTIVE[0] != len(_RUNNING) or fwAD._suspended[0]:
        return None  # (_suspended: a custom Function's forward, which PyTorch runs below the level, on plain tensors)
    vmaps, batched = _vmap_batched.DEPTH[0], None
    if vmaps:  # (only transforms inside vmaps, of the examples of the vmaps' inputs: vmap(grad(f)))
        from ._vmap import _RULES, input_repr
        base = _wrapped_base(t, len(_RUNNING))
        if any(_vmap_batched._TRANSFORMS_AT_ENTER) or len(_RULES) != vmaps or base is None:
            return None
        batched = input_repr(base)
        if batched is None:
            return None
    outermost = _RUNNING[0].level
    if outermost is None:  # forward-AD jvp: a tensor that requires grad has an outer autograd history
        if not fwAD._transform_level.active:
            return None
    elif len(outermost.leaves) != len(outermost.entered):
        return None  # (an input linked to an outer level)
    if t.requires_grad and _reaches_outside(t):
        return None  # (a history reaching outside tensors)
    levels = _wrapper_levels(t, len(_RUNNING))
    if not levels:
        return None
    text = plain() if batched is None else batched
    for lvl in levels:  # (the outermost level's wrapper is the innermost one; the vmaps' levels come first)
        inner = textwrap.indent(text, "    ")  # (blank lines stay blank, as in PyTorch's)
        text = f"GradTrackingTensor(lvl={lvl + vmaps}, value=\n{inner}\n)"
    return text


def _wrapped_base(t: Tensor, k: int) -> Tensor | None:
    """The tensor outside the running transforms that ``t`` wraps (None: ``t`` was made inside them)."""
    while k:
        call = _RUNNING[k - 1]
        stand_in = next((c for e, c in zip(call.entered, call.callers) if e is t), None)
        if stand_in is not None:
            t = stand_in
        elif not (_in(t, call.captured) or any(t is a for a in call.args)):
            return None
        else:
            t = _passed_for(call, t)
        k -= 1
    return t


def _wrapper_levels(t: Tensor, k: int) -> list:
    """The levels (1 to ``k``, outermost first) whose wrappers of ``t`` the function of call ``k`` sees."""
    while k:
        call = _RUNNING[k - 1]
        stand_in = next((c for e, c in zip(call.entered, call.callers) if e is t), None)
        if stand_in is not None:
            return _wrapper_levels(stand_in, k - 1) + [k]
        if _in(t, call.captured):
            k -= 1
            continue
        if any(t is a for a in call.args):  # (an argument not differentiated: PyTorch wraps every one)
            return _wrapper_levels(_passed_for(call, t), k - 1) + [k]
        return list(range(1, k + 1))  # (made during call k: by ops that ran at every level)
    return []


def _passed_for(call, t: Tensor) -> Tensor:
    """The caller's tensor ``t`` stands for, when ``t`` is call's wrapper of an argument it does not differentiate
    (``_Level.pass_on``); else ``t``."""
    seen, x = (None, None) if call.level is None else call.level.passed.get(id(t), (None, None))
    return x if seen is t else t


def _reaches_outside(t: Tensor) -> bool:
    """Whether ``t``'s graph reaches a leaf that is none of the running transforms' fresh leaves."""
    return _graph_reaches_outside((t,), {id(leaf) for call in _RUNNING if call.level is not None
                                         for leaf in (*call.level.leaves, *call.level.inner)})


def _graph_reaches_outside(tensors, mine: set) -> bool:
    """True if some tensor's graph reaches a leaf whose id is not in ``mine`` (so someone else may need it)."""
    stack, seen = [], set()
    for t in tensors:
        if isinstance(t, Tensor) and t.requires_grad:
            if t.grad_fn is None:
                if id(t) not in mine:
                    return True
            else:
                stack.append(t.grad_fn)
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, AccumulateGrad):
            if id(node.variable) not in mine:
                return True
            continue
        if isinstance(node, _DelayedError) and node._fake_leaves:
            # once_differentiable's error node hangs from fresh leaves made at a transform's level: nobody outside
            # differentiates through them (PyTorch's unwrapping drops them with that level)
            continue
        stack.extend(n for n, _ in node.next_functions if n is not None)
    return False


@contextlib.contextmanager
def _calling_func(func=None, args=(), grad_level: bool = False, level=None, callers: list = ()):
    """While a transform runs the user's function: an autograd.Function needs setup_context there (PyTorch's),
    and the tensors ``func`` captured from outside (not its ``args``) may not change in place.

    ``grad_level``: a grad/vjp transform. Inside torch.func.jvp, PyTorch's tensors of such an inner level are
    new wrappers that carry no tangent of their own: ``unpack_dual`` there gives None (every tensor, captured
    ones too), until a jvp nested deeper opens its own level."""
    _TRANSFORMS_ACTIVE[0] += 1
    _vmap_batched.GRAD_TRANSFORMS[0] += grad_level
    saved = _dispatch._CAPTURED[0]
    captured: dict = {}  # (for what the function sees: the arguments it captured too)
    _dispatch._CAPTURED[0] = _captured_tensors(func, args, captured) if func is not None else saved
    captured.update(_dispatch._CAPTURED[0] or {})
    _RUNNING.append(_Call(level, [a for a in tree_flatten(args[0])[0] if isinstance(a, Tensor)] if args else [],
                          list(args[1]) if args else [], list(callers), grad_level,
                          level.start if level is not None else _next_sequence_nr(), captured))
    hidden = fwAD._transform_level.hides_tangents
    fwAD._transform_level.hides_tangents = grad_level and fwAD._transform_level.active
    snapshots = _graph.SNAPSHOTS
    held = bool(snapshots) and grad_level   # (a grad level inside a double-vjp trick: see graph.HeldSaves)
    if held:
        snapshots.append(_graph.HeldSaves())
    try:
        yield
    finally:
        if level is not None and level.passed:
            level.sync_passed()
        if held:
            for key, saves in snapshots.pop().items():
                snapshots[-1].setdefault(key, []).extend(saves)
        _TRANSFORMS_ACTIVE[0] -= 1
        _RUNNING.pop()
        _vmap_batched.GRAD_TRANSFORMS[0] -= grad_level
        _dispatch._CAPTURED[0] = saved
        fwAD._transform_level.hides_tangents = hidden


def _captured_tensors(func, args, also_args: dict | None = None) -> dict:
    """The tensors ``func`` reaches from outside (closure, globals, a partial's arguments; inside lists, tuples and
    dicts, a few levels deep), ``args`` left out: PyTorch wraps the arguments at the transform's level, and the
    others are captured tensors, which its grad transforms refuse to change in place. (``also_args`` gets the
    arguments the function's code names too.)"""
    from ..nn.modules.module import Module
    found: dict = {}

    def visit(value, depth: int) -> None:
        if isinstance(value, Tensor):
            found[id(value)] = weakref.ref(value)
        elif depth and isinstance(value, (list, tuple)):
            for v in value:
                visit(v, depth - 1)
        elif depth and isinstance(value, dict):
            for v in value.values():
                visit(v, depth - 1)
        elif isinstance(value, Module):  # (its parameters and buffers: a BatchNorm's running stats, say)
            for t in (*value.parameters(), *value.buffers()):
                found[id(t)] = weakref.ref(t)
        elif depth and isinstance(value, types.FunctionType):  # (a helper the function calls: what it closes over)
            for cell in value.__closure__ or ():
                if _filled(cell):
                    visit(cell.cell_contents, depth - 1)
    # (a module given as func, or one of its bound methods, reaches its own tensors too)
    visit(getattr(func, "__self__", func), 0)
    for value in _vmap_batched._captured(func):
        visit(value, 3)
    named = _named_tensors(func) if also_args is not None else set()
    for a in tree_flatten(args)[0]:
        ref = found.pop(id(a), None)
        if ref is not None and id(a) in named:
            also_args[id(a)] = ref
    return found


def _named_tensors(func) -> set:
    """The ids of the tensors ``func``'s code names (closure cells, the globals it reads), a level deep."""
    func = getattr(func, "__func__", func)
    while isinstance(func, functools.partial):
        func = func.func
    code = getattr(func, "__code__", None)
    if code is None:
        return set()
    values = [c.cell_contents for c in func.__closure__ or () if _filled(c)]
    values += [func.__globals__[n] for n in code.co_names if n in func.__globals__]
    found = set()
    for v in values:
        for x in (v if isinstance(v, (list, tuple)) else (v,)):
            if isinstance(x, Tensor):
                found.add(id(x))
    return found


def _filled(cell) -> bool:
    """Whether a closure cell holds a value (reading an empty one raises)."""
    try:
        cell.cell_contents  # noqa: B018
    except ValueError:
        return False
    return True


def _recording():
    """Grad mode on, inference mode off: a transform differentiates whatever modes its caller is in."""
    # (inference_mode(False) turns grad mode on as well)
    return inference_mode(False) if is_inference_mode_enabled() else enable_grad()


# ---- one transform call ----------------------------------------------------------------------------------

class _WrapperVersion(list):
    """The version counter of a transform's fresh leaf: from 0, as PyTorch's wrapper of each input starts its own
    (so func's saved-tensor errors count this call's writes only), and every bump also bumps the caller's tensor,
    whose memory it is."""

    __slots__ = ("outer",)

    def __init__(self, outer: list) -> None:
        super().__init__([0])
        self.outer = outer

    def __setitem__(self, i, value) -> None:
        self.outer[0] += value - self[0]
        super().__setitem__(i, value)


class _Level:
    """The fresh leaves of one transform call, and the rules for what its results keep."""

    def __init__(self) -> None:
        self.leaves: list = []                   # kept alive, so their ids stay unique
        self.inner: list = []                    # the fresh leaves of transform calls inside ours (kept alive too)
        self.entered: dict = {}                  # id(what func sees) -> (it, the caller's tensor)
        self.passed: dict = {}                   # ... for the arguments it does not differentiate (pass_on)
        self.grad_enabled = is_grad_enabled()    # outside the call: may anyone differentiate our results?
        self.start = _next_sequence_nr()         # the nodes made for this call are numbered from here on
        self.live = True                         # False once a vjp has returned: its vjp_fn's wrappers are dead

    def enter(self, x):
        """The tensor ``func`` sees in place of ``x``: differentiable at this level."""
        if not isinstance(x, Tensor):
            raise ValueError(f"Thing passed to transform API must be Tensor, got {type(x)}")
        if x.requires_grad and self.grad_enabled:  # an outer level differentiates x too: keep the link
            seen = x.view_as(x)
            _dispatch.transform_leaf(seen)  # (a leaf at this level, for in-place ops)
            return self._entered(seen, x)
        # (an integer tensor raises PyTorch's "only Tensors of floating ..."; an inference tensor needs a copy)
        leaf = (x.clone() if x.is_inference() else x.detach()).requires_grad_()
        if not x.is_inference():
            leaf._version_counter = _WrapperVersion(x._version_counter)
        self.leaves.append(leaf)
        for call in _RUNNING:  # (for the calls around ours, a tensor made inside them: PyTorch's wrapper of a
            if call.level is not None:  # level that ends before theirs, which nobody outside differentiates)
                call.level.inner.append(leaf)
        if x._fw_grad is not None:  # inside an outer jvp: the leaf carries x's tangent (forward-over-reverse)
            # (on the leaf itself, not a make_dual view: an in-place op on it is one on "a leaf Variable")
            fwAD._set_tangent(leaf, x._fw_grad)
            return leaf
        return self._entered(leaf, x)

    def pass_on(self, x):
        """The tensor ``func`` sees in place of an argument it does not differentiate: PyTorch wraps every argument
        at the level, so an in-place write of a value that requires grad there makes the wrapper require grad, not
        ``x`` (grad(f, argnums=1) of f(a, b) = a.mul_(b).sum() leaves ``a`` without a grad_fn, its values written)."""
        if not isinstance(x, Tensor) or x.requires_grad or x.is_inference():
            return x
        seen = x.detach()
        seen._version_counter = _WrapperVersion(x._version_counter)
        if _vmap_batched.DEPTH[0]:
            _vmap_batched.same_outside(seen, x)
        self.passed[id(seen)] = (seen, x)
        return seen

    def sync_passed(self) -> None:
        """What changed the metadata of ``pass_on``'s wrappers (resize_, t_ ...) reaches the caller's tensors, as
        PyTorch's wrappers pass it on (their values and versions are shared already)."""
        for seen, x in self.passed.values():
            a, b = seen._data, x._data
            if a.shape != b.shape or a.strides != b.strides or \
                    a.__array_interface__["data"][0] != b.__array_interface__["data"][0]:
                x._data = a

    def _entered(self, seen, x):
        """``seen`` stands for ``x`` in func: returned as is (as aux, say), it is ``x`` again, as in PyTorch."""
        self.entered[id(seen)] = (seen, x)
        if _vmap_batched.DEPTH[0]:   # (an unbatched argument of a vmap around us: a batched value may not go in)
            _vmap_batched.same_outside(seen, x)
        return seen

    def reaches_outside(self, tensors) -> bool:
        """True if some tensor's graph reaches a leaf that is not one of ours (so someone else may need it)."""
        return _graph_reaches_outside(tensors, {id(leaf) for leaf in (*self.leaves, *self.inner)})

    def unwrap(self, tree):
        """``tree`` with every tensor that only depends on our leaves detached (its tangent kept)."""
        def lift(t):
            if not isinstance(t, Tensor):
                return t
            seen, x = self.entered.get(id(t)) or self.passed.get(id(t), (None, None))
            if seen is t:
                return x
            if t.requires_grad and self.grad_enabled and self.reaches_outside((t,)):
                return t
            tangent = t._fw_grad  # (computed from our leaves too, so it is lifted the same way)
            if not t.requires_grad and (tangent is None or not tangent.requires_grad):
                return t
            t = t.detach()
            return t if tangent is None else fwAD.make_dual(t, lift(tangent))
        return tree_map(lift, tree)

    def grad(self, outputs, inputs, grad_outputs=None, create_graph: bool | None = None) -> tuple:
        """``autograd.grad`` with zeros for unreached inputs; the graph is kept (``vjp_fn`` may be called again)."""
        if grad_outputs is None:
            grad_outputs = [None] * len(outputs)
        pairs = [(o, g) for o, g in zip(outputs, grad_outputs) if o.requires_grad]
        if not pairs:
            return tuple(zeros_like(x) for x in inputs)
        outs, gos = zip(*pairs)
        keep = True
        if create_graph is None:
            # PyTorch's grad differentiates in grad mode, as its vjp_fn does when grad mode is on: the formulas take
            # their differentiable forms (silu's, cumprod's O(n²) ...), whose float32 bits differ from the kernels'.
            # The graph is only kept if something outside this call can use it.
            keep = fwAD._level[0] is not None or (
                is_grad_enabled() and self.grad_enabled and self.reaches_outside(outs + gos))
            create_graph = keep or is_grad_enabled()
        _vmap_batched.TRANSFORM_BACKWARD[0] += 1
        _vmap_batched.LIVE_LEVEL_BACKWARD[0] += self.live
        try:
            with _recording():
                grads = autograd.grad(outs, inputs, gos, retain_graph=True, create_graph=create_graph,
                                      allow_unused=True)
        finally:
            _vmap_batched.TRANSFORM_BACKWARD[0] -= 1
            _vmap_batched.LIVE_LEVEL_BACKWARD[0] -= self.live
        return tuple(zeros_like(x) if g is None else g if keep else g.detach() for g, x in zip(grads, inputs))


def _split_aux(output, has_aux: bool, api: str):
    if not has_aux:
        return output, None
    if not (isinstance(output, tuple) and len(output) == 2):
        raise RuntimeError(f"{api}: output of function f should be a tuple: (output, aux) if has_aux is True")
    return output


def _check_aux(aux) -> None:
    # PyTorch unwraps aux as tensors (or tuples of them): anything else is its error
    for a in tree_flatten(aux)[0]:
        if not isinstance(a, Tensor):
            raise RuntimeError(f"Expected tensors, got unsupported type {type(a)}")


def _check_tensor_outputs(flat: list, api: str) -> None:
    if (len(flat) == 1 and flat[0] is None) or len(flat) < 1:
        raise RuntimeError(f"{api}: Expected f to be a function that has non-empty output (got output = {flat})")
    for o in flat:
        if not isinstance(o, Tensor):
            raise RuntimeError(f"{api}: expected f(*primals) to return only tensors, got unsupported type {type(o)}")


def _error_if_complex(api: str, args, is_input: bool) -> None:
    for idx, a in enumerate(tree_flatten(args)[0]):
        if isinstance(a, Tensor) and a.is_complex():
            kind = "inputs" if is_input else "outputs"
            raise RuntimeError(f"{api}: Expected all {kind} to be real but received complex tensor at flattened "
                               f"input idx: {idx}")


# ---- reverse mode ----------------------------------------------------------------------------------------

def _refuses_saved_tensors_hooks(f: Callable) -> Callable:
    """``f`` run with saved-tensor hooks refused, as PyTorch's grad and vjp (``doesnt_support_saved_tensors_hooks``):
    hooks already active, or entered inside, raise its message."""
    message = ("torch.func.{grad, vjp, jacrev, hessian} don't yet support saved tensor hooks. "
               "Please open an issue with your use case.")

    @functools.wraps(f)
    def refusing(*args, **kwargs):
        with _graph.disable_saved_tensors_hooks(message):
            return f(*args, **kwargs)
    return refusing


def grad_and_value(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable:
    """``func`` → a function returning ``(gradient of func's scalar output w.r.t. args[argnums], output)``."""
    api = "grad_and_value(f)(*args)"

    @functools.wraps(func)
    @_refuses_saved_tensors_hooks
    def wrapper(*args, **kwargs):
        level = _Level()
        with _recording():
            diff, spec = tree_flatten(_slice_argnums(args, argnums, as_tuple=False))
            entered = [level.enter(x) for x in diff]
            others = _pass_on_others(level, args, argnums)
            with _calling_func(func, (others, entered), grad_level=True, level=level, callers=diff):
                output = func(*_replace_args(others, tree_unflatten(entered, spec), argnums), **kwargs)
            output, aux = _split_aux(output, has_aux, api)
            if not isinstance(output, Tensor):
                raise RuntimeError(f"{api}: Expected f(*args) to return a Tensor, got {type(output)}")
            if output.dim() != 0:
                raise RuntimeError(f"{api}: Expected f(*args) to return a scalar Tensor, got tensor with "
                                   f"{output.dim()} dims. Maybe you wanted to use the vjp or jacrev APIs instead?")
            grads = level.unwrap(tree_unflatten(level.grad((output,), entered), spec))
            value = level.unwrap(output)
        if has_aux:
            _check_aux(aux)
            return grads, (value, level.unwrap(aux))
        return grads, value
    return wrapper


def grad(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False) -> Callable:
    """``func`` → a function returning the gradient of func's scalar output w.r.t. ``args[argnums]``."""
    g = grad_and_value(func, argnums, has_aux)

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        grads, value = g(*args, **kwargs)
        return (grads, value[1]) if has_aux else grads
    return wrapper


def vjp(func: Callable, *primals, has_aux: bool = False):
    """``(func(*primals), vjp_fn)``: ``vjp_fn(cotangents)`` gives the cotangents times the Jacobian, per primal."""
    return _vjp(func, primals, None, has_aux)


@_refuses_saved_tensors_hooks
def _vjp(func: Callable, primals: tuple, argnums, has_aux: bool):
    level = _Level()
    with _recording():
        diff = primals if argnums is None else _slice_argnums(primals, argnums, as_tuple=False)
        flat_diff, diff_spec = tree_flatten(diff)
        entered = [level.enter(x) for x in flat_diff]
        others = primals if argnums is None else _pass_on_others(level, primals, argnums)
        args = tree_unflatten(entered, diff_spec) if argnums is None else \
            _replace_args(others, tree_unflatten(entered, diff_spec), argnums)
        with _calling_func(func, (others, entered), grad_level=True, level=level, callers=flat_diff):
            output, aux = _split_aux(func(*args), has_aux, "vjp(f, *primals)")
        if has_aux:
            _check_aux(aux)
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, "vjp(f, *primals)")
        for o in flat_out:
            if not (o.is_floating_point() or o.is_complex()):
                raise RuntimeError("vjp(f, ...): All outputs of f must be floating-point or complex Tensors, got "
                                   f"Tensor with dtype {o.dtype}")
        result = level.unwrap(output)
    level.live = False

    def vjp_fn(cotangents, retain_graph: bool = True, create_graph: bool | None = None):
        """The cotangents (shaped as func's output) times the Jacobian; the graph is always kept."""
        flat_ct, ct_spec = tree_flatten(cotangents)
        if ct_spec != out_spec:
            raise RuntimeError("Expected pytree structure of cotangents to be the same as pytree structure of "
                               f"outputs to the function. cotangents: {_pprint(ct_spec)}, primal output: "
                               f"{_pprint(out_spec)}")
        from ..autograd import _c_flag
        _c_flag(retain_graph)   # (the flags as torch.autograd.grad parses them: vjp_fn(ct, ct) is a TypeError)
        if create_graph is not None:
            _c_flag(create_graph)
        grads = level.grad(flat_out, entered, flat_ct, create_graph=create_graph)
        return level.unwrap(tree_unflatten(grads, diff_spec))

    vjp_fn.__name__ = "wrapper"   # (PyTorch's repr: <function _vjp_with_argnums.<locals>.wrapper at 0x...>)
    vjp_fn.__qualname__ = "_vjp_with_argnums.<locals>.wrapper"

    if has_aux:
        return result, vjp_fn, level.unwrap(aux)
    return result, vjp_fn


class _Star:
    def __repr__(self) -> str:
        return "*"


def _pprint(spec) -> str:
    """PyTorch's ``treespec_pprint``: the structure with ``*`` for every leaf."""
    return repr(tree_unflatten([_Star()] * spec.num_leaves, spec))


def jacrev(func: Callable, argnums: int | tuple[int, ...] = 0, *, has_aux: bool = False,
           chunk_size: int | None = None, _preallocate_and_copy: bool = False) -> Callable:
    """``func`` → a function returning its Jacobian w.r.t. ``args[argnums]``, one vjp per output element."""
    if not (chunk_size is None or chunk_size > 0):
        raise ValueError("jacrev: `chunk_size` should be greater than 0.")

    @functools.wraps(func)
    def wrapper(*args):
        _error_if_complex("jacrev", args, is_input=True)
        output, vjp_fn, *aux = _vjp(func, args, argnums, has_aux)
        flat_out, out_spec = tree_flatten(output)
        _error_if_complex("jacrev", flat_out, is_input=False)
        flat_primals, primals_spec = tree_flatten(_slice_argnums(args, argnums))
        numels = [o.numel() for o in flat_out]
        if chunk_size and chunk_size < sum(numels):  # PyTorch splits the basis into chunks (the same values)
            chunk_sizes(sum(numels), chunk_size)
        # Row k of the stacked basis is the k-th unit cotangent (over all outputs' elements, in order);
        # vmap (a loop here) runs one vjp per row, as PyTorch's vmap(vjp_fn)(basis) does in one batched pass.
        basis = tree_unflatten(_standard_basis(flat_out, numels), out_spec)
        per_input = _vjp_rows(vjp_fn, basis, out_spec) if chunk_size == 1 else tree_flatten(vmap(vjp_fn)(basis))[0]
        # per input: (total, *in.shape) → one block per output, shaped out.shape + in.shape
        per_input_per_output = [[block.reshape(o.shape + p.shape) for block, o in zip(r.split(numels, 0), flat_out)]
                                for r, p in zip(per_input, flat_primals)]
        jac = [tree_unflatten([blocks[j] for blocks in per_input_per_output], primals_spec)
               for j in range(len(flat_out))]
        if isinstance(argnums, int):
            jac = [j[0] for j in jac]
        jac = tree_unflatten(jac, out_spec)
        return (jac, aux[0]) if has_aux else jac
    return wrapper


def _vjp_rows(vjp_fn, basis, out_spec) -> list:
    """jacrev's chunk_size=1: PyTorch's for-loop, vjp_fn of each basis row without vmap (its batch rules' limits not
    met), the rows concatenated; a basis of no rows fails its sanity check."""
    from .._ops import cat
    flat = tree_flatten(basis)[0]
    rows = []
    for k in range(max(flat[0].shape[0], 1)):   # (PyTorch's chunks: one of no rows for an empty basis)
        chunk = [t[k:k + 1] for t in flat]
        for t in chunk:
            if t.size(0) != 1:
                raise AssertionError(f"expected t.size(0) to be 1, got {t.size(0)}")
        result = vjp_fn(tree_unflatten([t.squeeze(0) for t in chunk], out_spec))
        rows.append([r.unsqueeze(0) for r in tree_flatten(result)[0]])
    return rows[0] if len(rows) == 1 else [cat([row[i] for row in rows], 0) for i in range(len(rows[0]))]


def _standard_basis(tensors: list, numels: list) -> list:
    """For each tensor, rows ``total × tensor.shape`` of the identity over all tensors' elements together.

    As PyTorch's ``_construct_standard_basis_for``: each tensor's block is a [total, numel] tensor of its own
    (zeros, ones from its first row on), viewed as [total, *shape]; what reads memory (as_strided of a batched
    tangent) sees the same storage."""
    total = sum(numels)
    out, start = [], 0
    for t, n in zip(tensors, numels):
        block = t.new_zeros((total, n))
        block._data[range(start, start + n), range(n)] = 1
        out.append(block.view((total,) + tuple(t.shape)))
        start += n
    return out


# ---- forward mode ----------------------------------------------------------------------------------------

def jvp(func: Callable, primals: tuple, tangents: tuple, *, strict: bool = False, has_aux: bool = False):
    """``(func(*primals), J·tangents)`` (and aux): the directional derivative, by forward-mode AD."""
    return _jvp(func, primals, tangents, None, has_aux, strict)


def _jvp(func: Callable, primals, tangents, argnums, has_aux: bool, strict: bool = False):
    if not isinstance(primals, tuple):
        raise RuntimeError(f"{_JVP}: Expected primals to be a tuple. E.g. it should be valid to call f(*primals).")
    diff = primals if argnums is None else _slice_argnums(primals, argnums)
    flat_p, p_spec = tree_flatten(diff)
    flat_t, t_spec = tree_flatten(tangents)
    if p_spec != t_spec:
        raise RuntimeError(f"{_JVP}: Expected primals and tangents to have the same python structure. For "
                           "example, if primals is a tuple of 3 tensors, tangents also must be. Got primals with "
                           f"structure {p_spec} and tangents with structure {t_spec}")
    for flat, name in ((flat_p, "primals"), (flat_t, "tangents")):
        if len(flat) == 0:
            raise RuntimeError(f"{_JVP}: Expected {name} to contain at least one Tensor.")
        for x in flat:
            if not isinstance(x, Tensor):
                raise RuntimeError(f"{_JVP}: Expected {name} to only contain Tensors, got {type(x)}")
    if fwAD._level[0] is not None and not fwAD._transform_level.active:  # (a level the user opened)
        raise RuntimeError("Nested forward mode AD is not supported at the moment")
    if fwAD._level[0] is None:
        try:
            return _jvp_forward_ad(func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict)
        except NotImplementedError as e:
            # A backward op without a forward formula in minigrad (PyTorch has one): the double-vjp trick still
            # works (func runs a second time). The ops PyTorch has no forward formula for either: its error.
            if not getattr(e, "minigrad_gap", False):
                raise
    # Forward AD has one level only: nested inside another jvp, use the double-vjp trick.
    return _jvp_double_vjp(func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict)


def _call_with(func, primals, new_flat, p_spec, argnums):
    args = tree_unflatten(new_flat, p_spec)
    return func(*(args if argnums is None else _replace_args(primals, args if isinstance(argnums, tuple)
                                                             else args[0], argnums)))


def _jvp_forward_ad(func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict):
    with fwAD.dual_level(), fwAD._transform_level():
        duals = [fwAD.make_dual(p, t) for p, t in zip(flat_p, flat_t)]
        with _calling_func(func, (primals, duals), callers=flat_p):
            output, aux = _split_aux(_call_with(func, primals, duals, p_spec, argnums), has_aux, _JVP)
        if has_aux:
            _check_aux(aux)
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, _JVP)
        pairs = [fwAD.unpack_dual(o) for o in flat_out]
        if strict and any(t is None for _, t in pairs):
            raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                               "inputs. This is not allowed with strict=True.")
        tans = [zeros_like(p) if t is None else t for p, t in pairs]
    # PyTorch hands back an alias of each output (AliasBackward0 when it is differentiable)
    outs = [D.alias(o) if o.requires_grad else o for o in flat_out]
    result = (tree_unflatten(outs, out_spec), tree_unflatten(tans, out_spec))
    if has_aux:  # (aux too)
        aux = tree_map(lambda t: D.alias(t) if isinstance(t, Tensor) and t.requires_grad else t, aux)
    return result + (aux,) if has_aux else result


def _jvp_double_vjp(func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict):
    for p, t in zip(flat_p, flat_t):  # make_dual's check, which this path does not go through
        if t.shape != p.shape:
            raise RuntimeError("Trying to set a forward gradient that has a different size than that of the "
                               f"original Tensor, this is not supported. Tensor is of size {list(p.shape)} while "
                               f"the given forward gradient is of size {list(t.shape)}.")
    level = _Level()
    fwAD.DOUBLE_VJP[0] += 1
    try:
        return _double_vjp(level, func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict)
    finally:
        fwAD.DOUBLE_VJP[0] -= 1


def _double_vjp(level, func, primals, flat_p, flat_t, p_spec, argnums, has_aux, strict):
    with _recording():
        entered = [level.enter(p) for p in flat_p]
        # (PyTorch's forward AD reads each op's inputs as they are then: tensors saved for the trick's backward keep
        # their values through the function's later in-place writes, see graph.SNAPSHOTS; not when an outer grad
        # level differentiates through them, whose saved tensors PyTorch checks)
        snapshot = not (level.grad_enabled and any(p.requires_grad for p in flat_p))
        if snapshot:
            _graph.SNAPSHOTS.append({})
            _graph._before_write.append(_graph.copy_saved_before_write)
        try:
            with _calling_func(func, (primals, entered), level=level, callers=flat_p):
                output, aux = _split_aux(_call_with(func, primals, entered, p_spec, argnums), has_aux, _JVP)
        finally:
            if snapshot:
                _graph._before_write.remove(_graph.copy_saved_before_write)
                _graph.SNAPSHOTS.pop()
        if has_aux:
            _check_aux(aux)
        flat_out, out_spec = tree_flatten(output)
        _check_tensor_outputs(flat_out, _JVP)
        if strict and not any(o.requires_grad for o in flat_out):
            raise RuntimeError("jvp(f, primals, tangents, strict=True): The output of f is independent of the "
                               "inputs. This is not allowed with strict=True.")
        # g(u) = uᵀJ with dummy cotangents u; J·t = ∂(g(u)·t)/∂u (g is linear in u, so u = 0 will do)
        us = [zeros_like(o).requires_grad_() for o in flat_out]
        level.leaves.extend(us)
        g = level.grad(flat_out, entered, us, create_graph=True)
        tans = level.grad(g, us, [t.to(p.dtype) for t, p in zip(flat_t, flat_p)])
        tans = [level.unwrap(t) for t in tans]
        outs = level.unwrap(flat_out)
    result = (tree_unflatten(outs, out_spec), tree_unflatten(tans, out_spec))
    return result + (level.unwrap(aux),) if has_aux else result


def jacfwd(func: Callable, argnums: int | tuple[int, ...] = 0, has_aux: bool = False, *,
           randomness: str = "error") -> Callable:
    """``func`` → a function returning its Jacobian w.r.t. ``args[argnums]``, one jvp per input element."""

    @functools.wraps(func)
    def wrapper(*args):
        _error_if_complex("jacfwd", args, is_input=True)
        primals = args if argnums is None else _slice_argnums(args, argnums)
        flat_primals, primals_spec = tree_flatten(primals)
        numels = [p.numel() for p in flat_primals]
        basis = tree_unflatten(_standard_basis(flat_primals, numels), primals_spec)

        def push_jvp(basis):
            out = _jvp(func, args, basis, argnums, has_aux)
            _error_if_complex("jacfwd", out[0], is_input=False)
            return (out[1], out[2]) if has_aux else out[1]

        results = vmap(push_jvp, randomness=randomness)(basis)
        if has_aux:  # aux came out stacked once per basis vector: the first is func's own
            results, aux = results
            flat_aux, aux_spec = tree_flatten(aux)
            aux = tree_unflatten([a[0] for a in flat_aux], aux_spec)
        jac_outs, spec = tree_flatten(results)
        jac = []
        for j in jac_outs:  # (total, *out.shape) → per input: out.shape + in.shape
            blocks = j.movedim(0, -1).split(numels, dim=-1)
            jac.append(tree_unflatten([b.squeeze(-1) if len(p.shape) == 0 else b.unflatten(-1, p.shape)
                                       for b, p in zip(blocks, flat_primals)], primals_spec))
        if isinstance(argnums, int):
            jac = [j[0] for j in jac]
        jac = tree_unflatten(jac, spec)
        return (jac, aux) if has_aux else jac
    return wrapper


def hessian(func: Callable, argnums: int | tuple[int, ...] = 0) -> Callable:
    """``func`` → a function returning its Hessian w.r.t. ``args[argnums]`` (forward-over-reverse)."""
    return jacfwd(jacrev(func, argnums), argnums)


def linearize(func: Callable, *primals) -> tuple[Any, Callable]:
    """``(func(*primals), jvp_fn)``: ``jvp_fn(*tangents)`` is ``jvp(func, primals, tangents)[1]``."""
    output = func(*primals)
    flat_primals, primals_spec = tree_flatten(primals)
    # (the primals as the trace starts: what the primals alone determine is folded into PyTorch's trace, as the
    # trace computed it; a replay from these computes it again, even where func writes its input in place)
    at_trace = [p.detach().clone() if isinstance(p, Tensor) else p for p in flat_primals]

    def trace(flat_t, replay: bool = True):
        """The output tangents: PyTorch traces func under plain forward AD (its own dual_level, not a torch.func
        level: no checks for writes to captured tensors) and replays that trace for each jvp_fn call (where the
        primals are the trace's constants: func writing its input in place writes them at the trace only)."""
        if fwAD._level[0] is not None:  # (inside another forward AD level: torch.func.jvp's nesting)
            return _linearized_jvp(func, primals, tree_unflatten(flat_t, primals_spec))
        try:
            with fwAD.dual_level():
                duals = [fwAD.make_dual(s.clone() if replay else p, t)
                         for p, s, t in zip(flat_primals, at_trace, flat_t)]
                out = func(*tree_unflatten(duals, primals_spec))
                return tree_map(lambda o: _tangent_or_zeros(o) if isinstance(o, Tensor) else o, out)
        except NotImplementedError as e:
            if not getattr(e, "minigrad_gap", False):  # (a formula PyTorch has and minigrad not: jvp's other way)
                raise
        return _linearized_jvp(func, primals, tree_unflatten(flat_t, primals_spec))

    trace([zeros_like(p) for p in flat_primals], replay=False)  # (PyTorch's tracing: func's second call, its errors)

    def jvp_fn(*tangents):
        flat_t, t_spec = tree_flatten(tangents)
        if t_spec != primals_spec:
            raise RuntimeError(f"Expected the tangents {t_spec} to have the same argspec as the primals "
                               f"{primals_spec}")
        for idx, (t, p) in enumerate(zip(flat_t, flat_primals)):
            for what in ("shape", "device", "dtype"):
                if getattr(t, what) != getattr(p, what):
                    raise RuntimeError(f"tangent:{idx} with {what} {getattr(t, what)} in flattened pytree doesn't "
                                       f"match the {what} {getattr(p, what)} of the corresponding primal.")
        return trace(flat_t)
    return output, jvp_fn


def _tangent_or_zeros(o):
    tangent = fwAD.unpack_dual(o).tangent
    return zeros_like(o) if tangent is None else tangent


def _linearized_jvp(func, primals, tangents):
    """linearize's tangents by torch.func.jvp (where plain forward AD cannot run)."""
    # (PyTorch replays plain forward AD, where a Python number stays a wrapped number: see
    # forward_ad._lifted_number_dtype)
    saved, fwAD._transform_level.lifts_numbers = fwAD._transform_level.lifts_numbers, False
    try:
        return jvp(func, primals, tangents)[1]
    finally:
        fwAD._transform_level.lifts_numbers = saved


# ---- transforms that are the identity without PyTorch's wrapper tensors -----------------------------------

def functionalize(func: Callable, *, remove: str = "mutations") -> Callable:
    """``func`` itself: PyTorch's version rewrites in-place ops for compilers, with the same results in eager mode."""
    if remove not in ("mutations", "mutations_and_views"):
        raise RuntimeError(
            f"functionalize(f, remove='mutations'): received invalid argument for remove={remove}. Valid options "
            "are:\n     remove='mutations': all inplace and out= operators will be removed from the program, and "
            "replaced with their out-of-place equivalents.\n     remove='mutations_and_views': In addition to the "
            "above, all aliasing operators {view} will be replaced with their non-aliasing counterparts, "
            "{view}_copy.\n")

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        return func(*args, **kwargs)
    return wrapped


def debug_unwrap(tensor: Tensor, *, recurse: bool = True) -> Tensor:
    """The tensor itself: minigrad's transforms use ordinary tensors, there is no wrapper to take off."""
    return tensor
