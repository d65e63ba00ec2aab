"""How an entry of the derivative table runs: forward on arrays, then (if needed) record a Node.

An ``Op`` (declared in ``derivatives.py``) holds
- ``forward``: a function on NumPy arrays (plus plain-Python arguments such as ``dim``),
- one backward formula per differentiable input, written with minigrad tensor ops. The names of a
  formula's parameters say what it needs, exactly as in PyTorch's derivatives.yaml:
    grad / grads       the gradient of the (first / every) output
    result, <output>   an output (saved as ``_saved_result``, ``_saved_indices`` ...)
    self, other, ...   an input tensor (saved as ``_saved_self``, ``_saved_other`` ...)
    self_sym_sizes     an input's shape (``_saved_self_sym_sizes``)
    dim, keepdim, ...  a non-tensor argument (``_saved_dim`` ...)
  and so also what the node saves. Because formulas are tensor code, running them with grad mode on
  (``create_graph=True``) records their own graph: higher derivatives come for free.
"""
from __future__ import annotations

import inspect

import numpy as np

from .autograd import grad_mode
from .autograd.graph import Node, SavedTensor

_STATE = grad_mode.STATE


class OpNode(Node):
    """A Node made by a table op; subclasses are generated per op with PyTorch's name (MulBackward0)."""

    __slots__ = ("_saved", "_out_meta")
    _op: "Op"

    def _get_saved(self, name: str):
        value = self._saved.get(name)
        if type(value) is SavedTensor:
            return value.unpack(self)
        return value

    def _get_raw_saved(self, name: str):
        return self._saved.get(name)

    def apply(self, grad_outputs: tuple) -> tuple:
        op = self._op
        env = {}
        for name, value in self._saved.items():
            env[name] = value.unpack(self) if type(value) is SavedTensor else value
        if len(grad_outputs) > 1 or grad_outputs[0] is None:
            grad_outputs = self._materialize(grad_outputs)
        env["grad"] = grad_outputs[0]
        env["grads"] = grad_outputs
        out = []
        for (formula, params), (node, _) in zip(op.formulas, self.next_functions):
            out.append(None if node is None else formula(*[env[p] for p in params]))
        return tuple(out)

    def _materialize(self, grad_outputs):
        # Outputs that received no gradient count as zeros (multi-output ops such as split).
        from ._tensor import Tensor
        return tuple(g if g is not None else Tensor._make(np.zeros(shape, dtype))
                     for g, (shape, dtype) in zip(grad_outputs, self._out_meta))

    def release_variables(self) -> None:
        for value in self._saved.values():
            if type(value) is SavedTensor:
                value.release()


class Op:
    """One row of the derivative table."""

    # The first parameter is not called `self`: formulas are passed as keywords and may be named self=.
    def __init__(op, name: str, node_name: str, forward, inputs=("self",), args=(),
                 outputs=("result",), differentiable_outputs: int | None = None, view: bool = False,
                 **formulas) -> None:
        op.name = name
        op.node_name = node_name
        op.forward = forward
        op.inputs = tuple(inputs)
        op.args = tuple(args)
        op.outputs = tuple(outputs)
        op.n_diff_outputs = len(op.outputs) if differentiable_outputs is None else differentiable_outputs
        op.view = view
        unknown = set(formulas) - set(op.inputs)
        if unknown:
            raise TypeError(f"{name}: formulas for unknown inputs {sorted(unknown)}")
        # Edges go to the inputs that have a formula, in input order (like PyTorch's next_functions).
        op.diff_inputs = tuple(i for i in op.inputs if i in formulas)
        op.diff_positions = tuple(op.inputs.index(i) for i in op.diff_inputs)
        op.formulas = tuple((formulas[i], tuple(inspect.signature(formulas[i]).parameters))
                              for i in op.diff_inputs)
        op.formula_sources = formulas
        # What each differentiable input's formula needs saved.
        op.needs = tuple(tuple(p for p in params if p not in ("grad", "grads")) for _, params in op.formulas)
        op.saved_names = tuple(dict.fromkeys(p for ps in op.needs for p in ps))
        for p in op.saved_names:
            if not (p in op.inputs or p in op.outputs or p in op.args or _input_property(p)):
                raise TypeError(f"{name}: formula parameter {p!r} is not an input, output or argument")
        op.node_class = op._make_node_class()

    def _make_node_class(self):
        attrs = {"__slots__": (), "_op": self, "__module__": "torch.autograd.generated"}
        for s in self.saved_names:
            attrs[f"_saved_{s}"] = property(lambda node, s=s: node._get_saved(s))
            if s in self.inputs or s in self.outputs:
                attrs[f"_raw_saved_{s}"] = property(lambda node, s=s: node._get_raw_saved(s))
        return type(self.node_name, (OpNode,), attrs)

    def __repr__(self) -> str:
        return f"Op({self.name!r} -> {self.node_name})"

    # ---- running ---------------------------------------------------------------------------
    def __call__(self, *tensors, dtype=None, out=None, **args):
        """Run the op on tensors (positional, in ``inputs`` order) with keyword ``args``.

        ``dtype``: compute in this dtype (inputs are cast; gradients are cast back by the engine).
        ``out``: write the result into this tensor in place (used by ``add_`` and friends).
        """
        from ._tensor import Tensor
        arrays = [t._data for t in tensors]
        if dtype is not None:
            npd = dtype.np
            arrays = [a if a.dtype == npd else a.astype(npd) for a in arrays]
        result = self.forward(*arrays, **args)
        multi = len(self.outputs) > 1
        results = result if multi else (result,)
        results = tuple(r if type(r) is np.ndarray else np.asarray(r) for r in results)
        if dtype is not None and not multi and results[0].dtype != dtype.np and self.keeps_dtype:
            results = (results[0].astype(dtype.np),)

        record = _STATE.enabled and any(tensors[i]._requires_grad for i in self.diff_positions)
        if out is not None:
            return self._write_inplace(out, tensors, results[0], args, record)

        outs = [Tensor._make(r) for r in results]
        if self.view:
            base = tensors[0]
            for o in outs:
                _make_view(o, base, self, args)
        if record:
            self._record(tensors, outs, args)
        return tuple(outs) if multi else outs[0]

    keeps_dtype = True

    def _record(self, tensors, outs, args, edges=None):
        """Create the node, link it to the inputs' edges and save what the formulas need."""
        node = self.node_class()
        diff = [tensors[i] for i in self.diff_positions]
        node.next_functions = edges if edges is not None else tuple(t._edge() for t in diff)
        node._input_meta = tuple((t._data.shape, t._data.dtype) for t in diff)
        if len(self.outputs) > 1:
            node._out_meta = tuple((o._data.shape, o._data.dtype) for o in outs)
        # Save only what the formulas of inputs that require grad need (as PyTorch does).
        needed = set()
        for t, names in zip(diff, self.needs):
            if t._requires_grad:
                needed.update(names)
        saved = {}
        for s in self.saved_names:
            if s not in needed:
                saved[s] = None
            elif s in self.args:
                saved[s] = args[s]
            elif _input_property(s):
                name, prop = _input_property(s)
                saved[s] = _PROPERTIES[prop](tensors[self.inputs.index(name)])
            elif s in self.outputs:
                saved[s] = SavedTensor(outs[self.outputs.index(s)], is_output=True) \
                    if self.outputs.index(s) < self.n_diff_outputs else SavedTensor(outs[self.outputs.index(s)])
            else:
                saved[s] = SavedTensor(tensors[self.inputs.index(s)])
        node._saved = saved
        for i, o in enumerate(outs[: self.n_diff_outputs]):
            o._requires_grad = True
            o._grad_fn = node
            o._output_nr = i
        if _anomaly_enabled[0]:
            from .autograd.anomaly_mode import _record_trace
            _record_trace(node)
        return node

    def _write_inplace(self, out, tensors, result, args, record):
        from ._tensor import Tensor
        _check_inplace(out, record)
        # Inputs that the formulas need are snapshotted before being overwritten.
        originals = list(tensors)
        if record:
            for i, t in enumerate(tensors):
                if t is out and self.inputs[i] in self.saved_names:
                    snap = Tensor._make(t._data.copy(), t._requires_grad)
                    snap._grad_fn, snap._output_nr = t.grad_fn, t._output_nr
                    originals[i] = snap
            edges = tuple(t._edge() for t in (tensors[i] for i in self.diff_positions))
        if out.dtype.np != result.dtype and not np.can_cast(result.dtype, out._data.dtype, "same_kind"):
            from ._dtypes import from_numpy
            raise RuntimeError(f"result type {_legacy_scalar_name(from_numpy(result.dtype))} can't be cast to "
                               f"the desired output type {_legacy_scalar_name(out.dtype)}")
        out._data[...] = result
        out._version_counter[0] += 1
        if record:
            if out._base is not None and out._view_fn is not None:
                _record_copy_slices(self, out, originals, args, edges)
            else:
                self._record(originals, [out], args, edges)
            out._view_version = out._version_counter[0]
        return out


_anomaly_enabled = [False]

# Saved properties of an input, named like PyTorch's (``_saved_self_sym_sizes``).
_PROPERTIES = {
    "_sym_sizes": lambda t: t._data.shape,
    "_sym_strides": lambda t: t.stride(),
    "_sym_numel": lambda t: int(t._data.size),
    "_scalar_type": lambda t: t.dtype,
}


def _input_property(name: str):
    for suffix in _PROPERTIES:
        if name.endswith(suffix):
            return name[: -len(suffix)], suffix
    return None


def _legacy_scalar_name(d) -> str:
    from ._tensor import _LEGACY_NAMES
    return _LEGACY_NAMES[d.name]


def _check_inplace(t, record: bool) -> None:
    """PyTorch's errors for in-place changes autograd cannot handle."""
    if not _STATE.enabled:
        return
    if t._requires_grad and t._grad_fn is None and t._base is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    base = t._base
    if base is not None and base._requires_grad and base._grad_fn is None:
        raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")


def _make_view(out, base, op: Op, args) -> None:
    """Mark ``out`` as a view of ``base``: shared storage, shared version counter, replayable."""
    root = base._base if base._base is not None else base
    out._base = root
    out._version_counter = base._version_counter
    outer = base._view_fn
    if outer is None:
        out._view_fn = lambda b, op=op, args=args, k=None: op(b, **args)
    else:
        out._view_fn = lambda b, op=op, args=args, outer=outer: op(outer(b), **args)
    if len(op.outputs) > 1:
        out._view_fn = None  # multi-output views (split) are replayed as a whole; not supported in place
    out._view_version = base._version_counter[0]


def _record_copy_slices(op: Op, view, originals, args, edges) -> None:
    """In-place op on a view: the base's history becomes CopySlices(base history, op)."""
    from .autograd.graph import AccumulateGrad  # noqa: F401  (kept for readers: leaves end there)
    from ._tensor import Tensor
    base = view._base
    # The op's own node, as if applied out of place to the view's old value.
    tmp = Tensor._make(view._data)
    fn = op._record(originals, [tmp], args, edges)
    node = CopySlices(base, view._view_fn, fn)
    base._grad_fn, base._output_nr, base._requires_grad = node, 0, True
    base._view_version = base._version_counter[0]
    # The view now reads its values through the base.
    view._grad_fn = None
    view._view_version = -1


class CopySlices(Node):
    """Gradient of an in-place op on a view: the op's gradient inside the view, identity outside."""

    __slots__ = ("fn", "_view_fn", "_base_meta")

    def __init__(self, base, view_fn, fn) -> None:
        super().__init__()
        base_edge = base._edge() if base._requires_grad else (None, 0)
        self.fn = fn
        self._view_fn = view_fn
        self.next_functions = (base_edge,) + fn.next_functions[1:]
        self._input_meta = ((base._data.shape, base._data.dtype),) + fn._input_meta[1:]

    def apply(self, grad_outputs: tuple) -> tuple:
        grad = grad_outputs[0]
        result = grad.clone()
        region = self._view_fn(result)
        res = self.fn.apply((region.clone(),))
        if res and res[0] is not None:
            region.copy_(res[0])
        else:
            region.zero_()
        return (result,) + tuple(res[1:])

    def release_variables(self) -> None:
        self.fn.release_variables()
