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
- optionally ``jvp=``, the forward-mode derivative (used inside ``forward_ad.dual_level()``), like
  the ``result:`` lines of derivatives.yaml. Either a formula whose parameters are tangents
  ``self_t``, ``other_t`` ... (zeros for inputs without one), primals ``self``, ``other`` ...,
  outputs ``result`` ... and arguments, returning the output's tangent (a tuple for several outputs),
  e.g. ``jvp=lambda self_t, other_t, self, other: self_t * other + self * other_t`` for mul; or
  ``"linear"`` (the op is linear in its tensor inputs: apply it to the tangents — add, sum, views)
  or ``"element_wise"`` (elementwise ops: each backward formula applied to its input's tangent, summed)
  or ``"reduction"`` (each input element feeds one output element — sum-like reductions, losses: the
  backward formula at grad = 1, times the tangent, summed over the reduced elements).
"""
from __future__ import annotations

import functools
import inspect
import operator
import weakref
from threading import get_ident as _get_ident

import numpy as np

from . import _complex_bits, _conj, _dtypes, _errstate, _meta, _neg, _strides, _vmap_batched, _zerotensor
from ._class_names import CNodeNamed
from ._conj import MIRRORS as _CONJ_MIRRORS
from ._meta import METAS as _METAS
from ._per_thread import PerThreadFlag
from ._tensor import Tensor  # _tensor imports this module only lazily, so no cycle at import time
from ._warn_once import warn_once
from ._zerotensor import ZEROS as _ZEROS
from .autograd import grad_mode
from .autograd.engine import _NO_REAL_PART
from .autograd.graph import (
    _NO_NODES,
    FREED_MESSAGE,
    Node,
    SavedTensor,
    _before_write,
    _hooks_tls,
    _not_writable,
    _rest_of,
    _saved_hooks_stack,
    _sequence,
    _task_wanted,
)

_STATE = grad_mode.STATE


class OpNode(Node, metaclass=CNodeNamed):   # (C++ classes in PyTorch: see CNodeNamed)
    """A Node made by a table op; subclasses are generated per op with PyTorch's name (MulBackward0)."""

    # ``_saved`` is a tuple aligned with ``op.saved_names`` (a tuple, not a dict: one object fewer
    # for the garbage collector per node, and ``()`` is shared by every op that saves nothing).
    # (_grads_fit: see Op.grads_fit; set by _record/run_number)
    __slots__ = ("_grads_fit", "_out_meta", "_out_shape", "_out_dtype", "_saved")
    _op: Op

    def __new__(cls, *args, **kwargs):
        # (PyTorch's generated node classes cannot be called; the ops make theirs with object.__new__: _record)
        raise TypeError(f"cannot create '{cls.__name__}' instances")

    def __dir__(self):
        # ``_saved`` and its readers are internal: a listing of the attributes with "saved" in their name (a
        # common way to find a node's ``_saved_*``) shows PyTorch's names only.
        return [name for name in super().__dir__() if name not in _HIDDEN_NODE_ATTRS]

    def _get_saved(self, name: str):
        value = self._read_saved(self._op.saved_index[name])
        if type(value) is SavedTensor or type(value) is _SavedNumber:
            return value.unpack(self)
        if name in _INT64_ARGS:
            if type(value) is Tensor and name != "index" and name != "repeats":
                value = int(value)   # (an int given as a 0-dim integer tensor, cat(ts, torch.tensor(1)): PyTorch's int)
            return _as_unsigned(value)
        if name == "indices" and isinstance(value, tuple):   # (a tuple, or D.SavedIndices)
            return _index_tensors(value, self)
        if type(value) is int and value >= 2**63:   # (a uint64 Scalar: PyTorch's getter reads it with toLong())
            _dtypes.to_int64(value)
        return value

    def _get_raw_saved(self, name: str):
        value = self._read_saved(self._op.saved_index[name])
        if value is _FREED_LIST:   # (PyTorch's getter of a freed list of saved tensors raises, an element's would not)
            raise RuntimeError(FREED_MESSAGE)
        if type(value) is SavedTensor or type(value) is _SavedNumber:
            # (its register_hooks may give an unpacked tensor of any dtype or shape: the engine fixes up what the
            # formulas return, as for nodes recorded under saved-tensor hooks)
            self._grads_fit = False
            return value
        # As PyTorch: an unsaved (undefined) tensor still has a SavedTensor; tensor arguments (a loss's
        # target, index's indices) are wrapped when read.
        if isinstance(value, tuple):
            if hasattr(value, "sources"):   # (index's indices: the SavedTensors the backward reads)
                sources = iter(value.sources)
                return tuple(SavedTensor.undefined() if v is None else next(sources, None) or _raw_saved_arg(v)
                             for v in value)
            return tuple(_raw_saved_arg(v) for v in value)
        return _raw_saved_arg(value)

    def _read_saved(self, i: int):
        """``_saved[i]``; a Python number saved as it is (see ``Op.run_number``) is wrapped first, once."""
        value = self._saved[i]
        if i in self._op.number_slots and type(value) in _NUMBER_META:
            value = _SavedNumber(value)
            self._saved = self._saved[:i] + (value,) + self._saved[i + 1:]
        return value

    def _apply(self, grad_outputs: tuple) -> tuple:
        """The gradients of the op's inputs, from its table formulas."""
        return OpNode._apply_in_mode(self, grad_outputs, _STATE.enabled,   # (not a subclass's: _apply_versioned)
                                     (self._next_node,) + self._next_rest)

    def _apply_in_mode(self, grad_outputs: tuple, grad_enabled: bool, nexts: tuple) -> tuple:
        # ``_apply`` when the caller knows the grad mode and has the next nodes (``self._next_nodes``): the engine's
        # pass sets the mode per node (W2's ~900 mul and add nodes would each read the per-thread state, ~600
        # instructions, to choose the create_graph order) and builds the tuple of next nodes before
        op = self._op
        if len(grad_outputs) > 1 or grad_outputs[0] is None:
            grad_outputs = self._materialize(grad_outputs)
        # Every saved tensor is unpacked (and checked for in-place changes) before any formula runs, as
        # in PyTorch. ``values`` lines up with ``op.formula_args``: the saved values, then grad, grads
        # and (only for the formulas that ask for it) the input shapes.
        values = list(self._saved)
        for i in op.tensor_slots:
            if type(values[i]) is SavedTensor:
                values[i] = values[i].unpack(self, True)
            elif type(values[i]) is _SavedNumber:  # (read through ``_saved_other``: still the number below)
                values[i] = values[i].number
            elif isinstance(values[i], tuple):   # (index's indices: the index tensors saved with them)
                values[i] = unpack_indices(values[i], self)
        # A number saved unwrapped (see Op.run_number) becomes the tensor PyTorch saved. Unless a profiler
        # or forward AD watches, the formula of a number op gets the number itself: ``grad * number`` runs
        # the same NumPy product as with the wrapped 0-dim tensor (the number is converted to grad's dtype
        # either way), without making that tensor and casting it. With create_graph this also keeps
        # PyTorch's promotion: its saved number is still a wrapped number, so a 0-dim float32 grad times
        # it stays float32 (a plain 0-dim float64 tensor would promote it, and the engine's cast back
        # would add a ToCopyBackward0 to the graph). Under vmap alone the number stays a number too:
        # PyTorch's batched grad (jacrev's cotangents) is physically at least 1-d, so the 0-dim float64
        # tensor would not promote it there either (jacrev(lambda a: a * 2.5) of a 0-d float32 a: float32).
        if op.number_slots and not (op.number_formulas and not (_extras[0] and not _vmap_only())):
            for i in op.number_slots:
                if type(values[i]) in _NUMBER_META:
                    values[i] = _number_tensor(values[i])
        values.append(grad_outputs[0])
        values.append(grad_outputs)
        if op.uses_input_sizes:
            values.append(self._input_meta if op.uses_input_meta else tuple(shape for shape, _ in self._input_meta))
        wanted = _task_wanted.get(_get_ident()) if _task_wanted else None   # (this thread's pass: graph._task_wanted)
        if wanted is not None:  # autograd.grad(..., inputs=...): only the edges toward an input
            nexts = tuple(node if node in wanted else None for node in nexts)
        if op.joint:  # one formula gives several gradients (cat/stack, convolution, norms: see ``joint``)
            return _apply_joint(op, values, nexts)
        if op.in_order and grad_enabled:  # create_graph: PyTorch's formula order, real inputs' real parts at once
            grads = _apply_in_order(op, values, nexts, self._input_meta)
            if op.number_formulas:
                _share_saved_numbers(self, values, grads)
            return grads
        # (plain loops: in Python 3.11 each comprehension is a function call of its own)
        grads = []
        try:
            for (formula, where, take), node in zip(op.formula_args, nexts):
                if node is None:
                    grads.append(None)
                elif len(where) == 1:  # (grad) alone: add, sub
                    grads.append(formula(values[where[0]]))
                elif len(where) == 2:  # the usual formula: (grad, one saved value) or (one saved value, grad)
                    grads.append(formula(values[where[0]], values[where[1]]))
                else:  # (mm's grad, other matrix, sizes, strides ...)
                    grads.append(formula(*take(values)))
        except Exception:
            # Two formulas may fail (an unpack hook returned other shapes): PyTorch reports the first to fail in
            # its order (mm's mat2 before self), so rerun them so; only this failure path pays for it.
            if op.in_order:
                _apply_in_order(op, values, nexts, self._input_meta)
            raise
        return tuple(grads)

    def _materialize(self, grad_outputs):
        # Outputs that received no gradient count as zeros (multi-output ops such as split).
        if self._op.undefined_grads:
            return grad_outputs
        from ._tensor import Tensor
        if _meta.METAS and any(g is not None and _meta.is_meta(g) for g in grad_outputs):   # (zeros on the meta device)
            return tuple(g if g is not None else _meta.mark(Tensor._make(_meta.empty(shape, dtype)))
                         for g, (shape, dtype) in zip(grad_outputs, self._out_meta))
        return tuple(g if g is not None else Tensor._make(np.zeros(shape, dtype))
                     for g, (shape, dtype) in zip(grad_outputs, self._out_meta))

    def _release_variables(self) -> None:
        """Free the saved values after backward (unless retain_graph)."""
        saved = self._saved
        if not saved:
            return
        op = self._op  # (read once: a class attribute read through the node costs ~280 instructions)
        if not op.releases:
            return
        freed = None  # the new ``_saved`` as a list, made once a slot changes (one tuple at the end, not one per slot)
        for i in op.tensor_slots:  # (only where a SavedTensor can be: not the sizes, strides and arguments)
            value = saved[i]
            if type(value) is SavedTensor:
                value.release()
            elif (type(value) in _NUMBER_META or type(value) is _SavedNumber) and i in op.number_slots:
                # (an input saved as a number, or one read already:) reading it now raises the "backward a
                # second time" error (one loop with the tensors': W2's mul nodes save their number here)
                if freed is None:
                    freed = list(saved)
                freed[i] = _FREED_NUMBER
        for i in op.tensor_arg_slots:  # a loss's target, index's indices: PyTorch frees them too
            value = saved[i]
            if isinstance(value, (Tensor, np.ndarray)):
                if freed is None:
                    freed = list(saved)
                freed[i] = _FREED_NUMBER
            elif isinstance(value, tuple) and any(isinstance(v, (Tensor, np.ndarray)) for v in value):
                if freed is None:
                    freed = list(saved)
                freed[i] = _FREED_LIST
        if freed is not None:
            self._saved = tuple(freed)


class joint:
    """One formula for the gradients of several inputs, like derivatives.yaml's ``input, weight, bias: f(...)``.

    Given for each of those inputs (``Op(..., input=joint(f), weight=joint(f), bias=joint(f))``), ``f`` runs once
    per backward and returns one gradient (or None) per input it is given for, in input order; its
    parameter ``grad_input_mask`` says which of them need one. Shared work is done once, and under
    create_graph the gradients come out of one node (PyTorch's single ConvolutionBackwardBackward0 ...).
    Everything ``f`` needs is saved as soon as any of its inputs requires grad.
    """

    __slots__ = ("fn",)

    def __init__(self, fn) -> None:
        self.fn = fn


def _share_saved_numbers(node: OpNode, values: list, grads: tuple) -> None:
    """Under create_graph, ``grad * other`` of mul/div's saved number records a node saving that number again:
    there it reads as the very tensor ``node._saved_other`` gives (PyTorch's formula saves its one wrapped-number
    tensor again; viz draws the two as one saved tensor). The new node gets ``node``'s ``_SavedNumber``."""
    for i in node._op.number_slots:
        number = values[i]  # (the number the formula got: the new node saved this very object)
        if type(number) not in _NUMBER_META:
            continue
        for g in grads:
            fn = g._grad_fn if g is not None else None
            if not isinstance(fn, OpNode) or not fn._op.number_slots:
                continue
            for j in fn._op.number_slots:
                if fn._saved[j] is number:
                    fn._saved = fn._saved[:j] + (node._read_saved(i),) + fn._saved[j + 1:]


def _apply_in_order(op, values: list, nexts: tuple, input_meta: tuple) -> tuple:
    """``OpNode._apply`` running the formulas in ``op.formula_order`` (the nodes they record are numbered so).

    A complex gradient of a real input becomes its real part right after its formula, before the next formula
    runs: PyTorch's formulas end in handle_r_to_c, so its real()'s nodes come before the next formula's (the
    engine would take it only after all of them; the ops whose formulas have none are left to its error)."""
    grads = [None] * len(nexts)
    real_part = op.node_name not in _NO_REAL_PART
    for j in op.formula_order or range(len(nexts)):
        if nexts[j] is not None:
            formula, where, _take = op.formula_args[j]
            g = formula(*[values[i] for i in where])
            if real_part and type(g) is Tensor and g._data.dtype.kind == "c" and input_meta[j][1].kind != "c":
                g = g.real
            grads[j] = g
    return tuple(grads)


def _apply_joint(op, values: list, nexts: tuple) -> tuple:
    """``OpNode._apply`` for an op with a joint formula (or cat/stack's one formula for every listed tensor)."""
    if op.list_input:
        (formula, where, _take), = op.formula_args
        # every listed tensor's gradient, even where no node takes it: a node hook sees them all (PyTorch's)
        if not any(node is not None for node in nexts):  # (none wanted by this grad(..., inputs=...))
            return nexts
        return tuple(formula(*[values[i] for i in where]))
    if not op.uses_input_sizes:
        values.append(None)  # (the slot of the input sizes: grad_input_mask comes after it)
    values.append(None)
    grads = [None] * len(nexts)
    for formula, where, members, together in op.joint_calls:
        mask = tuple(nexts[j] is not None for j in members)
        if not any(mask):
            continue
        values[-1] = mask
        result = formula(*[values[i] for i in where])
        if not together:
            result = (result,)
        for j, g, wanted in zip(members, result, mask):
            if wanted:
                grads[j] = g
    return tuple(grads)


def _all_reduced(args, inputs, outs) -> int:
    return 1 if args.get("dim") is None else 0


def _reduced_loss(args, inputs, outs) -> int:
    # (apply_loss_reduction: the elementwise loss's sum_out into the result, then div_ by the count for the mean;
    # of a 0-dim loss only the sum's copy)
    if args.get("reduction") == 0:
        return 0
    return 2 if inputs[0].ndim else 1


def _reduced_bce(args, inputs, outs) -> int:
    return 0 if args.get("reduction") == 0 or not inputs[0].ndim else 2


def _dim_pair(args, inputs, outs) -> int:
    # (max(dim)'s values and indices: made with keepdim, then squeeze_'d in place when keepdim is False; of a
    # 0-dim tensor, a copy of it: fill_)
    if not inputs[0].ndim:
        return 1
    return 0 if args.get("keepdim") else 2


def _mean_version(args, inputs, outs) -> int:
    # (sum_out, then div_; a float16 / bfloat16 mean sums in float32 and copies the quotient back: one write)
    return 1 if outs[0].dtype in (_dtypes.float16, _dtypes.bfloat16) else 2


def _scatter_version(version: int):
    # (float16 / bfloat16: the kernel works in float32, whose result is copied back: one write more)
    return lambda args, inputs, outs: version + (inputs[0].dtype in (_dtypes.float16, _dtypes.bfloat16))


def _fft_version(args, inputs, outs) -> int:
    # (c2c / r2c: one write when the transformed dims are exactly those after the first, the one batch dim the
    # kernel's plan takes as it is; otherwise the kernel works on a reshaped copy and copies the result back)
    ndim = inputs[0].ndim
    return 1 if ndim != 1 and sorted(d % ndim for d in args["dim"]) == list(range(1, ndim)) else 2


# The ``_version`` of a fresh result made from inference tensors used outside inference mode, by node name.
# PyTorch's kernel then runs below no autograd guard (no input has autograd keys), and its result is a normal
# tensor: every in-place write or ``out=`` call the kernel makes into that result goes through the
# ADInplaceOrView layer again and counts as a version (``abs`` calls ``abs_out``: 1; ``mean`` = ``sum_out``
# then ``div_``: 2). Normal inputs: 0. A function of (args, inputs, outputs) where the kernel's path depends
# on them.
_INFERENCE_RESULT_VERSIONS = {
    "AbsBackward0": 1, "PowBackward2": 1, "SumBackward0": 1, "SumBackward1": 1,
    "MeanBackward0": _mean_version, "MeanBackward1": _mean_version, "ProdBackward0": 1, "ProdBackward1": 1,
    "NansumBackward0": 1,
    "MaxBackward1": 1, "MinBackward1": 1, "MaxBackward0": _dim_pair, "MinBackward0": _dim_pair,
    "ModeBackward0": lambda args, inputs, outs: 0 if args.get("keepdim") and inputs[0].ndim else 2,
    "AmaxBackward0": 1, "AminBackward0": 1,
    "AminmaxBackward0": lambda args, inputs, outs: 1 if args.get("dim") is None else _dim_pair(args, inputs, outs),
    "VarBackward0": _all_reduced, "StdBackward0": _all_reduced, "LogsumexpBackward0": 1,
    "AngleBackward0": lambda args, inputs, outs: 1 if inputs[0]._data.dtype.kind == "c" else 0,
    # (repeat: no copy_ into the result when a repeat count is 0)
    "RepeatBackward0": lambda args, inputs, outs: 0 if 0 in tuple(args["repeats"]) else 1,
    "MaskedFillBackward0": 2, "MaskedFillBackward1": 2, "MvBackward0": 1,
    "DotBackward0": 1, "VdotBackward0": 1, "AddmmBackward0": 1, "BaddbmmBackward0": 1,
    "PixelShuffleBackward0": 1, "PixelUnshuffleBackward0": 1, "ChannelShuffleBackward0": 1,
    "UpsampleNearest2DBackward0": 1, "UpsampleNearestExact2DBackward0": 1, "UpsampleBilinear2DBackward0": 1,
    "MseLossBackward0": _reduced_loss, "BinaryCrossEntropyBackward0": _reduced_bce,
    "SmoothL1LossBackward0": _reduced_loss, "DiagonalBackward0_copy": 1, "DiagEmbedBackward0": 2,
    "SortBackward0": 1, "SortBackward1": 1, "KthvalueBackward0": 1, "MedianBackward1": 1,
    "NanmedianBackward1": 1, "CummaxBackward0": 1, "CumminBackward0": 1, "LinalgLstsqBackward0": 1,
    "HardtanhBackward0": 1, "ConstantPadNdBackward0": 2, "Deg2RadBackward0": 1, "Rad2DegBackward0": 1,
    "AdaptiveAvgPool2DBackward0": 1, "AdaptiveAvgPool3DBackward0": 1, "MaskedScatterBackward0": 2,
    "ReflectionPad2DBackward0": 1, "Rot90Backward0": 1, "Im2ColBackward0": 1, "Col2ImBackward0": 2,
    "FrexpBackward0": 1, "RenormBackward0": 1, "ComplexBackward0": 1, "PolarBackward0": 1,
    "FftR2CBackward0": _fft_version, "FftC2CBackward0": _fft_version,
    "FftC2RBackward0": lambda args, inputs, outs: 1 if inputs[0].ndim == 2 else 2,
    # (the scatter / index families: the input copied into the result, then the kernel's writes; a reduction
    # without include_self first fills the reduced positions, "mean" divides by the counts afterwards)
    # (scatter's float16 / bfloat16 kernels: one copy more)
    "ScatterBackward0": _scatter_version(1), "ScatterBackward1": 1, "ScatterAddBackward0": _scatter_version(1),
    "IndexCopyBackward0": 1, "IndexFillBackward0": 2,
    "ScatterReduceBackward0": lambda args, inputs, outs: _scatter_version(
        2 + (not args.get("include_self", True) and inputs[1].numel() > 0) + (args.get("reduce") == "mean"))(
        args, inputs, outs),
    "IndexReduceBackward0": lambda args, inputs, outs: (
        1 + (not args.get("include_self", True)) + (args.get("reduce") == "mean")),
    "IndexAddBackward0": lambda args, inputs, outs: 2 if args.get("alpha", 1) == 1 and inputs[0].numel() else 1,
    "ExpandBackward0_copy": 1,
    # (the linear algebra kernels: LAPACK works on a copy of the input, written back into the results; by output)
    # (lu: L, U, P; of a tall matrix L is the one copied twice. solve_triangular: a one-row result two writes more)
    "LinalgEigBackward0": (1, 1), "LinalgEighBackward0": (0, 1),
    "LinalgLuBackward0": lambda args, inputs, outs: (
        (2, 1, 1) if inputs[0].shape[-2] > inputs[0].shape[-1] else (1, 2, 1)),
    "LuUnpackBackward0": (2, 1, 2), "LinalgSolveExBackward0": (1, 0, 0, 1),
    "LinalgSolveTriangularBackward0": lambda args, inputs, outs: 5 if outs[0].shape[-2] == 1 else 3,
    "LinalgLuSolveBackward0": lambda args, inputs, outs: 1 if args.get("left", True) else 3,
    "LinalgCholeskyExBackward0": lambda args, inputs, outs: (1, 0) if inputs[0].numel() else (0, 1),
    "CholeskyInverseBackward0": 1, "LinalgSlogdetBackward0": (1, 1, 0, 0),
    # (matrix_exp: one matrix of size > 1 goes through the result twice; a batch, or 1x1 (exp itself), not at all)
    "LinalgMatrixExpBackward0": lambda args, inputs, outs: 2 if inputs[0].ndim == 2 and inputs[0].shape[-1] > 1 else 0,
    "GeqrfBackward0": (1, 1), "TriangularSolveBackward0": (1, 1),
    "LinalgHouseholderProductBackward0": 1, "OrmqrBackward0": 3, "PdistBackward0": 1,
    "MaxPool3DWithIndicesBackward0": 1, "SelectScatterBackward0": 2, "SliceScatterBackward0": 2,
    "DiagonalScatterBackward0": 2, "AsStridedScatterBackward0": 2, "FillBackward0": 1, "FillBackward1": 1,
    "NativeDropoutBackward0": 1,
    # (block_diag: zeros, then one copy_ per block into a narrowed view of the result)
    "BlockDiagBackward0": lambda args, inputs, outs: 1 + len(inputs),
    # (addbmm: the scaled self copied in unless beta is 0, then one addmm_ per matrix pair of the batch)
    "AddbmmBackward0": lambda args, inputs, outs: (1 if args.get("beta") == 0 else 2) + inputs[1].shape[0],
    # (one version per output: qr's wide R is copied out of the factored matrix, then triu_'d)
    "LinalgQrBackward0": lambda args, inputs, outs: (
        0 if args.get("mode") == "r" else 1,
        2 if args.get("mode") == "complete" or inputs[0].shape[-2] < inputs[0].shape[-1] else 1),
    "LinalgLuFactorExBackward0": (1, 0, 0),
    # (rounding an integer tensor is a clone: one copy_; flip over no dim likewise; nan_to_num writes nan_to_num_out)
    **dict.fromkeys(("FloorBackward0", "CeilBackward0", "RoundBackward0", "TruncBackward0"),
                    lambda args, inputs, outs: 0 if inputs[0].is_floating_point() or inputs[0].is_complex() else 1),
    "FlipBackward0": lambda args, inputs, outs: 0 if len(tuple(args["dims"])) else 1,
    "NanToNumBackward0": 1, "LinalgDetBackward0": 1,
    "LinalgInvExBackward0": 3,   # (inv solves A X = I: eye's fill, then the solve's copies)
    # Functions that run no table Op (see function_result_version), by function name:
    # (logical ops, nonzero, any/all write through their out= overloads: 1)
    **dict.fromkeys(("logical_and", "logical_or", "logical_xor", "logical_not", "nonzero", "any", "all"), 1),
    # (isinf / isfinite ... of a tensor that cannot hold inf: zeros_like / ones_like, one fill_; a complex isinf is
    # isinf(real) | isinf(imag): the or_ writes once)
    **dict.fromkeys(("isinf", "isfinite", "isposinf", "isneginf"),
                    lambda args, inputs, outs: 0 if inputs[0].is_floating_point() else 1),
    "isreal": lambda args, inputs, outs: 0 if inputs[0]._data.dtype.kind == "c" else 1,   # (ones_like: a fill_)
    "inv_ex info": 1,   # (linalg.inv_ex's info tensor, which its out= kernel writes)
    # (unique: its kernel's results written once each; of an empty input, none. unique(dim=): the counts only)
    "unique": lambda args, inputs, outs: 1 if inputs[0].numel() else 0, "unique_dim counts": 1,
    # (unique_consecutive without dim: values and inverse written once, the counts zeroed then written)
    "unique_consecutive": lambda args, inputs, outs: 1 if inputs[0].numel() else 0,
    "unique_consecutive counts": lambda args, inputs, outs: 2 if inputs[0].numel() else 0,
    # (histograms: the counts zeroed, then written (density: divided by their sum, then by each dim's bin widths);
    # the edges written once; bincount and isin write their result once, isin of no elements not at all)
    "histc": 2, "histogram": 2, "histogram density": lambda args, inputs, outs: 3 + outs.dim(),
    "histogram edges": 1, "bincount": 1, "isin": lambda args, inputs, outs: 1 if outs.numel() else 0,
    "ldl result": 1,   # (ldl_factor's LD, ldl_solve's result: LAPACK's copy written back once)
    "index_put": 2,    # (index_put: the input copied into the result, then the kernel's writes)
    # (eigvals: a real input's eigenvalues written into a complex result by eig, then copied out; complex: once)
    "eigvals": lambda args, inputs, outs: 1 if inputs[0]._data.dtype.kind == "c" else 2,
}


def function_result_version(name: str, inputs, outs):
    """``outs`` of function ``name`` (one that runs no table Op), with the versions _inference_result_version gives
    an Op's results when every input is an inference tensor used outside inference mode (and on the meta device
    when an input is, see _meta.py)."""
    if _METAS:
        for o in (outs if type(outs) is tuple else (outs,)):
            if isinstance(o, Tensor):
                _meta.follow(o, *inputs)
    if _STATE.inference or inputs[0]._is_inference is not True:
        return outs   # (the common case: nothing to do)
    inputs = [t for t in inputs if isinstance(t, Tensor) and t._wrapped_number is None]
    if not all(t._is_inference is True for t in inputs):
        return outs
    version = _INFERENCE_RESULT_VERSIONS[name]
    if callable(version):
        version = version({}, inputs, outs)
    for o in (outs if type(outs) is tuple else (outs,)):
        if o._base is None:  # (a view shares its base's counter)
            o._version_counter[0] = version
    return outs


def _inference_result_version(op, tensors, outs, args) -> None:
    """Give ``outs`` the version PyTorch's kernel leaves on them when every input is an inference tensor used
    outside inference mode (see _INFERENCE_RESULT_VERSIONS; one normal input and the call goes through
    autograd as usual: version 0). Python numbers (wrapped numbers) do not count."""
    if _STATE.inference:
        return
    first = tensors[0]
    if type(first) is Tensor and first._is_inference is not True and first._wrapped_number is None:
        return  # (the common case: a normal input)
    inputs = tensors[0] if op.list_input and len(tensors) == 1 and type(tensors[0]) in (list, tuple) else tensors
    inputs = [t for t in inputs if isinstance(t, Tensor) and t._wrapped_number is None]
    if not inputs or not all(t._is_inference is True for t in inputs):
        return
    version = op.inference_version
    if callable(version):
        version = version(args, inputs, outs)
    if type(version) is not tuple:
        version = (version,) * len(outs)
    for o, v in zip(outs, version):
        if o._base is None:  # (a view shares its base's counter)
            o._version_counter[0] = v


def _bce_with_logits_versions(node) -> dict:
    # (the loss's backward: sigmoid then in-place sub_/mul_ into one result; with pos_weight two more, with weight
    # one more (mul_); the mean reduction's div_ one more. Under create_graph the input's gradient takes the
    # out-of-place forms but for the mean's div_, which stays in place; the target's is written in place always)
    mean = node._get_saved("reduction") == 1
    weight = _saves_tensor(node, "weight")
    more = 2 if _saves_tensor(node, "pos_weight") else 0
    versions = {"self": int(mean) if _STATE.enabled else 2 + more + weight + mean, "target": more + weight + mean}
    return {k: v for k, v in versions.items() if v}


def _bce_versions(node) -> dict:
    # (binary_cross_entropy_target_backward: logit(x).neg_(), then mul_(grad), mul_(weight), and the mean's
    # div_(numel), in place in every grad mode)
    return {"target": 2 + _saves_tensor(node, "weight") + (node._get_saved("reduction") == 1)}


def _saves_tensor(node, name: str) -> bool:
    """Whether the optional tensor argument ``name`` was given, read without unpacking it (no unpack hook runs)."""
    return node._saved[node._op.saved_index[name]] is not None


# The ``_version`` of the gradients a node's formulas return, where PyTorch's formula fills a fresh tensor in
# place (value_selecting_reduction_backward: zeros, then scatter_; index_select's backward: zeros, then
# index_add_; copysign's other: zeros_like then an in-place fill). By node name: one version for every input,
# a dict by input name, or a function of the node giving that dict.
_GRAD_VERSIONS = {
    "IndexSelectBackward0": 1, "TraceBackward0": 2, "SortBackward0": 2, "SortBackward1": 2, "TopkBackward0": 2,
    "KthvalueBackward0": 2, "MedianBackward1": 2, "NanmedianBackward1": 2, "ModeBackward0": 2,
    "MaxBackward0": 2, "MinBackward0": 2, "CummaxBackward0": 2, "CumminBackward0": 2,
    "CopysignBackward0": {"other": 1}, "NextafterBackward0": {"other": 1},
    # (sgn_backward of a complex input: the quotient, then masked_fill_ where |x| is 0; a real one: zeros)
    "SgnBackward0": lambda node: 1 if node._input_meta[0][1].kind == "c" else None,
    "BinaryCrossEntropyBackward0": _bce_versions,
    "BinaryCrossEntropyWithLogitsBackward0": _bce_with_logits_versions,
}


def _not_implemented_apply(node, grad_outputs: tuple, grad_enabled: bool = True, nexts: tuple = ()) -> tuple:
    """A NotImplemented node's apply: PyTorch's error node raises, whichever gradients are wanted."""
    raise RuntimeError(f"derivative for aten::{node._op.name} is not implemented")


def _apply_versioned(node, grad_outputs: tuple) -> tuple:
    """OpNode._apply, then the gradients' versions PyTorch's formulas leave (see _GRAD_VERSIONS)."""
    # (a formula may return a saved input itself, not a fresh tensor: cummax's of an empty input; that one
    # keeps its version. Read before the formulas run: a backward without retain_graph frees the saved tensors)
    inputs = [s._version_counter for s in node._saved if type(s) is SavedTensor]
    grads = OpNode._apply(node, grad_outputs)
    op = node._op
    versions = op.grad_version
    if callable(versions):
        versions = versions(node)
    for name, g in zip(op.diff_inputs, grads):
        version = versions.get(name) if type(versions) is dict else versions
        if g is not None and version is not None and not any(g._version_counter is c for c in inputs):
            if g._base is not None and g._view_version == g._version_counter[0]:
                # (trace's view of its filled zeros: PyTorch's in-place steps all came before the view was
                # taken, so under create_graph the view keeps its ViewBackward0, not a regenerated AsStrided)
                g._view_version = version
            g._version_counter[0] = version   # (a fresh result, or a view of one: trace's)
    return grads


# PyTorch's CPU kernels that refuse the barebones unsigned dtypes (uint16/32/64; mul, sum, sort, views, copies,
# index, where ... do run them), by node name: the kernel their NotImplementedError names (_dtypes.refuse_unsigned).
# (clamp's kernel depends on which bounds are given: see _ops._clamp_args)
_UNSIGNED_KERNELS = {
    "AddBackward0": "add_stub", "SubBackward0": "add_stub", "RsubBackward0": "add_stub", "RsubBackward1": "add_stub",
    "NegBackward0": "neg_cpu", "AbsBackward0": "abs_cpu", "SignBackward0": "sign_cpu", "SgnBackward0": "sign_cpu",
    "PowBackward0": "pow", "PowBackward1": "pow", "PowBackward2": "pow",
    "RemainderBackward0": "remainder_cpu", "RemainderBackward1": "remainder_cpu",
    "FmodBackward0": "fmod_cpu", "FmodBackward1": "fmod_cpu",
    "MaximumBackward0": "maximum_cpu", "FmaxBackward0": "maximum_cpu", "ClampMinBackward1": "maximum_cpu",
    "MinimumBackward0": "minimum_cpu", "FminBackward0": "minimum_cpu", "ClampMaxBackward1": "minimum_cpu",
    "ClampMinBackward0": "clamp_min_scalar_cpu", "ReluBackward0": "clamp_min_scalar_cpu",
    "ClampMaxBackward0": "clamp_max_scalar_cpu", "HardtanhBackward0": "clamp_scalar_cpu",
    "ThresholdBackward0": "threshold_cpu", "ThresholdBackward1": "threshold_cpu",
    "MaxBackward1": "max_all", "MaxBackward0": "max_cpu", "MinBackward1": "min_all", "MinBackward0": "min_cpu",
    "AmaxBackward0": "max_values_cpu", "AminBackward0": "min_values_cpu", "AminmaxBackward0": "aminmax_cpu",
    "TopkBackward0": "topk_cpu", "KthvalueBackward0": "kthvalue_cpu", "ModeBackward0": "mode_cpu",
    "MedianBackward0": "median_cpu", "MedianBackward1": "median_out", "NanmedianBackward0": "median_cpu",
    "CummaxBackward0": "cummax_cpu", "CumminBackward0": "cummin_cpu",
    "TrilBackward0": "tril", "TriuBackward0": "triu",   # (flip, rot90: see _ops.refuse_unsigned_flip)
    "GatherBackward0": "scatter_gather_tensor_cpu", "ScatterBackward0": "scatter_gather_tensor_cpu",
    "ScatterBackward1": "scatter_gather_scalar_cpu", "ScatterAddBackward0": "scatter_gather_tensor_cpu",
    "ScatterReduceBackward0": "scatter_gather_tensor_cpu", "IndexPutBackward0": "index_put",
    "MaskedFillBackward0": "masked_fill", "MaskedFillBackward1": "masked_fill",
    "MaskedScatterBackward0": "masked_scatter",
    "MaskedSelectBackward0": "masked_select", "IndexSelectBackward0": "index_select", "TakeBackward0": "take_cpu",
    "PutBackward0": "take_put_cpu", "IndexFillBackward0": "index_fill_cpu", "IndexFillBackward1": "index_fill_cpu",
    "IndexAddBackward0": "index_add_", "IndexCopyBackward0": "index_copy_cpu", "IndexReduceBackward0": "index_func_",
    "DotBackward0": "dot", "MmBackward0": "addmm_impl_cpu_", "AddmmBackward0": "addmm_impl_cpu_",
    "MvBackward0": "addmv_impl_cpu", "AddmvBackward0": "addmv_impl_cpu", "BmmBackward0": "bmm",
    "AddcmulBackward0": "addcmul_cpu_out", "LinalgCrossBackward0": "cross",
    # (reductions into a uint dtype given by dtype=; of a uint tensor they run in int64)
    "SumBackward0": "sum_cpu", "SumBackward1": "sum_cpu", "NansumBackward0": "sum_cpu",
    "CumsumBackward0": "cumsum_out_cpu", "ProdBackward0": "prod_out_cpu", "ProdBackward1": "prod_out_cpu",
    "CumprodBackward0": "cumprod_out_cpu",
}


# The kernels PyTorch names when they refuse complex32 (ComplexHalf), by node; an op neither here nor in
# _COMPLEX32_OPS names its own "<name>_cpu"
_COMPLEX32_KERNELS = {
    "DivBackward0": "div_cpu", "ExpBackward0": "exp_vml_cpu", "SqrtBackward0": "sqrt_vml_cpu", "SinBackward0":
    "sin_vml_cpu", "TanhBackward0": "tanh_vml_cpu", "LogBackward0": "log_vml_cpu", "SumBackward0": "sum_cpu",
    "SumBackward1": "sum_cpu", "MeanBackward0": "sum_cpu", "MeanBackward1": "sum_cpu", "ProdBackward0":
    "prod_out_cpu", "ProdBackward1": "prod_out_cpu", "CumsumBackward0": "cumsum_out_cpu", "DotBackward0": "dot",
    "CumprodBackward0": "cumprod_out_cpu", "TanBackward0": "tan_vml_cpu",
    "PowBackward0": "pow", "PowBackward1": "pow", "PowBackward2": "pow", "MmBackward0": "addmm_impl_cpu_",
    "BmmBackward0": "bmm", "MvBackward0": "addmv_impl_cpu", "VdotBackward0": "vdot",
    "AddcdivBackward0": "addcdiv_cpu_out", "ScatterAddBackward0": "scatter_gather_tensor_cpu",
}
# Kernels that check the dtype before allocating their output (the others allocate it first, which warns)
_COMPLEX32_CHECKED_FIRST = frozenset({"dot", "vdot"})
# Ops whose complex kernel computes into a complex temporary first (PyTorch's unary_op_impl_with_complex_to_float)
_COMPLEX32_TEMPORARY = frozenset({"abs"})
# The ops PyTorch's CPU kernels run in complex32 (the copies, views and indexing ops need no computing)
_COMPLEX32_OPS = frozenset({"add", "sub", "rsub", "mul", "neg", "abs", "sgn", "conj", "conj_physical", "_to_copy",
                            "copy_", "fill_", "fill", "where", "masked_fill", "index_put_", "_index_put_impl_", "cat",
                            "stack", "clone", "index", "complex", "conj_physical_", "addcmul", "index_add"})
# complex32 ops whose forward takes the complex32 operands themselves (their arithmetic rounds each step)
_COMPLEX32_OWN_ROUNDING = frozenset({"addcmul", "index_add"})
# complex32 ops whose kernel converts the other operands as it copies them (no complex32 copy of them allocated)
_COMPLEX32_CONVERTING = frozenset({"_to_copy", "copy_", "cat", "stack", "masked_fill", "fill_", "fill"})
# complex32 ops that read a conjugate view as it is (the others copy it out first, which warns)
_COMPLEX32_CONJ_AWARE = frozenset({"_to_copy", "copy_", "conj", "conj_physical"})
# Ops whose kernel copies complex32 elements as they are (no compute dtype) into a new tensor, which PyTorch
# allocates with its warning (see _dtypes.warn_complex32; not when written in place); and index_add, whose forward
# makes its complex32 result itself
_COMPLEX32_COPIES = frozenset({"clone", "index", "index_select", "masked_select", "repeat", "roll", "flip",
                               "narrow_copy", "tril", "triu", "diag", "diag_embed", "repeat_interleave", "fill",
                               "index_copy", "masked_fill", "index_fill", "take", "gather", "scatter",
                               "masked_scatter", "put", "index_put_", "index_add"})
# ... those of them whose CPU kernel has no complex32 version, by node: it refuses it after allocating the output
_COMPLEX32_REFUSED_COPIES = {
    "TakeBackward0": "take_cpu", "GatherBackward0": "scatter_gather_tensor_cpu",
    "ScatterBackward0": "scatter_gather_tensor_cpu", "ScatterBackward1": "scatter_gather_scalar_cpu",
    "MaskedScatterBackward0": "masked_scatter", "PutBackward0": "take_put_cpu"}


# True while an ``out=`` tensor of dtype complex32 takes the op's result (_ops._into_out): PyTorch's kernel writes
# into it and allocates no complex32 result, so that warning is not given (its operands' complex32 copies still warn)
INTO_COMPLEX32_OUT = PerThreadFlag(False)


def _complex32_copied(op: Op, fresh: bool) -> None:
    """A copying op's complex32 result (see _COMPLEX32_COPIES): PyTorch's warning for a new tensor (``fresh``), and
    the refusal of a kernel without a complex32 version."""
    if fresh and not INTO_COMPLEX32_OUT[0]:
        _dtypes.warn_complex32()
    kernel = _COMPLEX32_REFUSED_COPIES.get(op.node_name)
    if kernel is not None:
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'ComplexHalf'")


def _complex32_operand(tensors) -> bool:
    """Whether an operand is a complex32 tensor (an array of float16 pairs, see _dtypes.complex32)."""
    return any(type(t) is Tensor and _dtypes.is_complex32(t._data.dtype) for t in tensors)


def _refuse_complex32(op: Op, fresh: bool = True) -> None:
    """PyTorch's error for an op whose CPU kernel has no complex32 (ComplexHalf) version (``fresh``: not in place)."""
    if op.name not in _COMPLEX32_OPS:
        kernel = _COMPLEX32_KERNELS.get(op.node_name, f"{op.name}_cpu")
        if kernel not in _COMPLEX32_CHECKED_FIRST and fresh and not INTO_COMPLEX32_OUT[0]:
            _dtypes.warn_complex32()   # (the output allocated before the kernel's dispatch refuses the dtype)
        raise NotImplementedError(f"\"{kernel}\" not implemented for 'ComplexHalf'")
    if op.name in _COMPLEX32_TEMPORARY:
        _dtypes.warn_complex32()


def _round_to(result: np.ndarray, npd, fresh: bool = True) -> np.ndarray:
    """An op's result in its compute dtype ``npd``; complex32 is computed in complex64, whose real results (|z|)
    round to float16. ``fresh``: a new tensor (PyTorch allocates it, so complex32 warns), not one written in place
    or into out=, nor conj()'s view."""
    if npd is _dtypes.COMPLEX32_NP:
        if result.dtype.kind == "c":
            return _dtypes.as_complex32(result, warn=fresh and not INTO_COMPLEX32_OUT[0])
        npd = _FLOAT16 if result.dtype.kind == "f" else result.dtype
    return _quiet_astype(result, npd)


_BAREBONES_NP_TYPES = _dtypes._BAREBONES_NP_TYPES   # (the test in Op._run, inline: it runs for every add, neg ...)


def _refuse_unsigned(op: Op, array: np.ndarray) -> None:
    """PyTorch's error for a kernel that does not dispatch a barebones unsigned dtype (see _UNSIGNED_KERNELS)."""
    _dtypes.refuse_unsigned(op.unsigned_kernel, _dtypes.from_numpy(array.dtype))


# Elementwise ops (TensorIterator's in PyTorch) whose table row does not say so by ``jvp="element_wise"`` or a ufunc
_ELEMENTWISE_NAMES = frozenset({
    "atan2", "clamp", "clamp_min", "clamp_max", "sigmoid_backward", "tanh_backward", "threshold_backward",
    "gelu_backward", "hardtanh_backward", "leaky_relu_backward", "addcmul", "addcdiv", "polar", "complex",
    "maximum", "minimum", "fmax", "fmin", "igamma", "igammac", "fmod", "remainder", "special_zeta",
    "hardsigmoid_backward", "hardswish_backward", "hardshrink_backward", "softshrink_backward", "lerp", "where",
    "neg"})


class Op:
    """One row of the derivative table."""

    # The first parameter is not called `self`: formulas are passed as keywords and may be named self=.
    def __init__(op, name: str, node_name: str, forward, inputs=("self",), args=(),
                 outputs=("result",), differentiable_outputs: int | None = None, view: bool = False,
                 jvp=None, variadic: bool = False, list_input: bool = False, ufunc=None,
                 undefined_grads: bool = False, **formulas) -> None:
        op.name = name
        # undefined_grads: the formulas get None (PyTorch's undefined tensor) for an output that received
        # no gradient, instead of zeros (var_mean: only the outputs used contribute, as in PyTorch).
        op.undefined_grads = undefined_grads
        op.node_name = node_name
        op.forward = forward
        if name in _COMPLEX32_COPIES:
            op.copies = True
        op.inputs = tuple(inputs)
        op.args = tuple(args)
        op.outputs = tuple(outputs)
        op.n_diff_outputs = len(op.outputs) if differentiable_outputs is None else differentiable_outputs
        op.view = view
        # variadic: forward returns a list of arrays, one output each (split, unbind);
        # list_input: every positional tensor belongs to the single input ``inputs[0]`` (cat, stack).
        op.variadic = variadic
        op.list_input = list_input
        unknown = set(formulas) - set(op.inputs)
        if unknown:
            raise TypeError(f"{name}: formulas for unknown inputs {sorted(unknown)}")
        # Edges go to the inputs that have a formula, in input order (like PyTorch's next_functions).
        op.diff_inputs = tuple(i for i in op.inputs if i in formulas)
        op.diff_positions = tuple(op.inputs.index(i) for i in op.diff_inputs)
        # A ``joint`` formula (one function given for several inputs) is called once for all of them (_apply_joint).
        op.joint_formulas = {i: f.fn for i, f in formulas.items() if type(f) is joint}
        functions = {i: f.fn if type(f) is joint else f for i, f in formulas.items()}
        op.formulas = tuple((functions[i], tuple(inspect.signature(functions[i]).parameters))
                              for i in op.diff_inputs)
        op.formula_sources = formulas
        # What each differentiable input's formula needs saved (for a joint formula: all of it, for each input).
        op.needs = tuple(tuple(p for p in params if p not in _GRAD_PARAMS) for _, params in op.formulas)
        # Names starting with "_" are kept out of sight (no ``_saved_`` attribute), as PyTorch hides some;
        # ``_input_sizes`` (the shapes of the inputs) is always at hand.
        # In PyTorch's save order (gen_variable_type's save_variables): the inputs sorted by name, before the
        # forward, then the outputs sorted by name: the order saved-tensor pack hooks see them in.
        op.saved_names = tuple(sorted(dict.fromkeys(p for ps in op.needs for p in ps if p not in _SHAPE_PARAMS),
                                      key=lambda p: (p in op.outputs, p)))
        for p in op.saved_names:
            if not (p in op.inputs or p in op.outputs or p in op.args or _input_property(p) or p in _SHAPE_PARAMS):
                raise TypeError(f"{name}: formula parameter {p!r} is not an input, output or argument")
        # Non-tensor arguments, input shapes and outputs are always saved (PyTorch's generated code guards
        # only saved *inputs*); input tensors and strides only when an input that requires grad needs them.
        op.always_saved = frozenset(p for p in op.saved_names if p in op.args or p in op.outputs or (
            _input_property(p) and not p.endswith("_sym_strides")))
        # ``Tensor?`` inputs (derivatives._shows_none_when_absent): an Absent one is saved as an undefined tensor.
        op.optional = frozenset()
        op._plan_calls()
        # ufunc: the NumPy ufunc the forward computes (when ``alpha``, if any, is 1); in-place calls
        # outside autograd then write straight into their tensor (see _run_into).
        op.ufunc = ufunc if ufunc is not None else (forward if isinstance(forward, np.ufunc) else None)
        # number_ufunc: set if ``tensor <op> python number`` may skip wrapping the number (run_number).
        op.number_ufunc = op.ufunc if (name in _NUMBER_OPS and op.inputs == ("self", "other")
                                       and not op.multi and not view) else None
        # number_formulas: the formulas take a saved Python number as it is (see OpNode._apply, _ops._binary)
        op.number_formulas = op.number_ufunc is not None
        # inference_version / grad_version: see _INFERENCE_RESULT_VERSIONS and _GRAD_VERSIONS
        op.inference_version = _INFERENCE_RESULT_VERSIONS.get(node_name)
        op.unsigned_kernel = _UNSIGNED_KERNELS.get(node_name)
        op.grad_version = _GRAD_VERSIONS.get(node_name)
        op.node_class = op._make_node_class()
        op.jvp = jvp
        # elementwise: the output takes TensorIterator's layout from the inputs' strides (_strides.elementwise)
        # (TensorIterator's operands in their order, which breaks ties of the layout: -1 for rsub, other - self)
        op.operand_step = 1
        op.elementwise = (jvp == "element_wise" or op.ufunc is not None or name in _ELEMENTWISE_NAMES) and not (
            op.multi or view or list_input)
        # number_operand: a Scalar overload of a binary op (mul(Tensor, Scalar), fmod, xlogy(Scalar, Tensor) ...):
        # PyTorch wraps the number as a 0-dim operand, whose other shape keeps TensorIterator off its C-order fast
        # setup, so the tensor's strides (a size-1 dim's too: x.t() * 2) order the output's dims
        op.number_operand = op.elementwise and (op.args == ("other",)
                                                or (op.args == ("self",) and op.inputs == ("other",)))
        op.jvp_params = tuple(inspect.signature(jvp).parameters) if callable(jvp) else ()

    def _plan_calls(op) -> None:
        """Precompute what ``_run``, ``_record`` and ``OpNode._apply`` would otherwise work out per call.

        Everything here depends only on the op, and the per-call versions (string tests, ``index``,
        dict building) cost microseconds per op on small tensors: see bench/PROFILE.md.
        """
        op.multi = op.variadic or len(op.outputs) > 1
        # plain: one output, not a view; with nothing to record such an op is its forward (_run_untracked).
        op.plain = not (op.multi or op.view or op.list_input)
        # diff (the tensors that get edges) is the whole tensors tuple, with no list to build.
        op.all_diff = op.diff_positions == tuple(range(len(op.inputs)))
        # The save plan: one (name, kind, index, unset, users) entry per saved name, in saved order.
        #   kind   _ARG, _INPUT, _OUTPUT, _NONDIFF_OUTPUT, or a property function of input ``index``
        #   unset  what PyTorch shows when nothing needed it (None; () for strides)
        #   users  bit mask of the differentiable inputs whose formula needs it; -1: always saved
        plan = []
        for s in op.saved_names:
            users = 0
            for j, names in enumerate(op.needs):
                if s in names:
                    users |= 1 << j
            if s in op.always_saved or op.list_input:  # list_input: one formula for every tensor
                users = -1
            if "backward" in op.name:  # PyTorch's generated code saves everything for *_backward ops
                users = -1
            if s in op.inputs and users & (users - 1):  # an input two formulas use: PyTorch saves it unguarded
                users = -1
            unset = () if s.endswith("_sym_strides") else None
            if s in op.args:
                plan.append((s, _ARG, s, unset, users))
            elif _input_property(s):
                name, prop = _input_property(s)
                plan.append((s, _PROPERTIES[prop], op.inputs.index(name), unset, users))
            elif s in op.outputs:
                i = op.outputs.index(s)
                plan.append((s, _OUTPUT if i < op.n_diff_outputs else _NONDIFF_OUTPUT, i, unset, users))
            else:
                plan.append((s, _OPTIONAL if s in op.optional else _INPUT, op.inputs.index(s), unset, users))
        op.save_plan = tuple(plan)
        op.save_programs = {}  # the plan for one mask of inputs that require grad, made by _save_program
        op.save_depends_on_inputs = any(users != -1 for *_, users in plan)  # else no mask to compute
        op.number_save = _number_save(plan)
        # grads_fit: given inputs of the output's shape and dtype, the formulas return gradients of the incoming
        # gradient's shape and dtype (grad, -grad, grad * y, grad * α, tanh_backward(grad, y), grad·p·x^(p-1) ...),
        # so the engine's fix-up (_validate_outputs: sum a broadcast away, cast back) has nothing to do and is skipped.
        op.grads_fit = (op.name in _GRADS_FIT_OPS or op.node_name in _GRADS_SHAPED_NODES) and not op.multi
        # (mm, mean: each gradient has its input's shape by construction, so only the dtypes need to match)
        op.grads_shaped = op.node_name in _GRADS_SHAPED_NODES
        op.saved_index = {s: i for i, s in enumerate(op.saved_names)}
        # Where in ``node._saved`` an input is saved: a Python number may sit there unwrapped (run_number).
        op.number_slots = tuple(i for i, (_, kind, *_rest) in enumerate(plan) if kind is _INPUT)
        # Arguments that are tensors in PyTorch (SavedVariables there): freed after backward like inputs.
        op.tensor_arg_slots = tuple(i for i, (s, kind, *_rest) in enumerate(plan)
                                    if kind is _ARG and s in _TENSOR_ARGS)
        # (lerp's ``weight`` is a number, never a SavedVariable)
        op.checked_args = frozenset(s for s, kind, *_rest in plan if kind is _ARG and s in _TENSOR_ARGS
                                    and op.node_name != "LerpBackward0")
        # Where a SavedTensor may sit (inputs, outputs, and tensor arguments once freed; other arguments and
        # sizes are kept as they are).
        # In PyTorch's unpack order: its generated nodes unpack the saved inputs sorted by name, then the saved
        # outputs sorted by name, so with two tensors changed in place since, the first of those is reported.
        op.tensor_slots = tuple(sorted(
            (i for i, (_, kind, *_rest) in enumerate(plan) if kind is _INPUT or kind is _OUTPUT
             or kind is _NONDIFF_OUTPUT or kind is _OPTIONAL or i in op.tensor_arg_slots),
            key=lambda i: (plan[i][1] is _OUTPUT or plan[i][1] is _NONDIFF_OUTPUT, plan[i][0])))
        # Whether _release_variables has anything to free (ops that save only arguments, like add's alpha,
        # keep nothing that a second backward must refuse).
        op.releases = any(kind is not _ARG for _, kind, *_rest in plan) or bool(op.tensor_arg_slots)
        # Formula arguments as positions in OpNode._apply's ``values`` list (saved values, grad, grads,
        # input sizes), so apply binds them without building a dict of names.
        slots = dict(op.saved_index)
        n = len(op.saved_names)
        slots.update({"grad": n, "grads": n + 1, "_input_sizes": n + 2, "_input_meta": n + 2, "grad_input_mask": n + 3})
        # (with ``take``, an itemgetter of those positions: one C call instead of a list built per call)
        op.formula_args = tuple((f, where, operator.itemgetter(*where) if len(where) > 2 else None)
                                for f, where in ((f, tuple(slots[p] for p in params)) for f, params in op.formulas))
        # (``_input_meta``: the inputs' (shape, NumPy dtype) pairs instead, in the same slot)
        op.uses_input_meta = any("_input_meta" in params for _, params in op.formulas)
        op.uses_input_sizes = op.uses_input_meta or any("_input_sizes" in params for _, params in op.formulas)
        # PyTorch's generated apply() runs the formulas in alphabetical order of their inputs' names
        # (load_derivatives sorts the yaml keys: mul's ``other`` before ``self``). Under create_graph that
        # order numbers the nodes the formulas record, so it decides the order backward runs them in.
        order = tuple(sorted(range(len(op.diff_inputs)), key=lambda j: op.diff_inputs[j]))
        op.formula_order = order if order != tuple(range(len(order))) else None
        # (with one formula there is no order to keep: a real input's real part is the engine's to take)
        op.in_order = op.formula_order is not None or len(order) > 1
        # joint: some formula gives several gradients. Its calls, one per distinct formula: (function,
        # argument slots, the edges it gives gradients for, whether it returns a tuple of them).
        op.joint = op.list_input or bool(op.joint_formulas)
        calls = []
        for j, (name, (f, where, _take)) in enumerate(zip(op.diff_inputs, op.formula_args)):
            group = op.joint_formulas.get(name)
            if group is None:
                calls.append((f, where, (j,), False))
            elif all(op.joint_formulas.get(other) is not group for other in op.diff_inputs[:j]):
                members = tuple(k for k, other in enumerate(op.diff_inputs) if op.joint_formulas.get(other) is group)
                calls.append((f, where, members, True))
        # (in PyTorch's order: load_derivatives sorts the yaml keys, a joint one, "min, max", by its first name)
        op.joint_calls = tuple(sorted(calls, key=lambda call: op.diff_inputs[call[2][0]]))

    def _make_node_class(self):
        # PyTorch's generated node classes live in no module: type(fn) prints <class 'MulBackward0'>.
        # (a view's node, a view op's or as_strided's as a view's grad_fn is regenerated, is referred to weakly by
        # a saved output, see _record_copy_slices; PyTorch's other C++ nodes refuse weak references: Node has none)
        weak = self.view or self.name == "as_strided"
        attrs = {"__slots__": ("__weakref__",) if weak else (), "_op": self, "__module__": "builtins"}
        if self.grad_version is not None:
            attrs["_apply"] = _apply_versioned
            attrs["_apply_in_mode"] = Node._apply_in_mode   # (the engine's call goes through _apply_versioned too)
        if self.multi:  # the engine reads node._n_outputs (1, from Node, for everyone else)
            attrs["_n_outputs"] = property(lambda node: len(node._out_meta))
        if self.node_name in _QUALIFIED_NAMES:
            attrs["name"] = lambda node, n=self.node_name: "torch::autograd::" + n
        if self.node_name == "NotImplemented":   # (PyTorch's lists edges only to the inputs that require grad)
            attrs["next_functions"] = property(
                lambda node: tuple(e for e in zip(node._next_nodes, node._next_nrs) if e[0] is not None))
            # and, an error node, has no sequence number (UINT64_MAX): the engine runs it as soon as it is ready
            from .autograd.graph import _RUNS_FIRST
            attrs["_seq"] = property(lambda node: _RUNS_FIRST, lambda node, value: None)
            # it raises whenever it runs, even when no input's gradient is wanted (backward(inputs=v) runs v's node)
            attrs["_apply"] = attrs["_apply_in_mode"] = _not_implemented_apply
        for s in self.saved_names:
            if s.startswith("_"):
                continue
            refuse = _not_writable(f"_saved_{s}")   # (assigning and deleting: PyTorch's getters have no setter)
            attrs[f"_saved_{s}"] = property(lambda node, s=s: node._get_saved(s), refuse, refuse)
            if s in self.inputs or s in self.outputs or (s in _TENSOR_ARGS and self.node_name != "LerpBackward0"):
                refuse = _not_writable(f"_raw_saved_{s}")
                attrs[f"_raw_saved_{s}"] = property(lambda node, s=s: node._get_raw_saved(s), refuse, refuse)
        return type(self.node_name, (OpNode,), attrs)

    def __repr__(self) -> str:
        return f"Op({self.name!r} -> {self.node_name})"

    # ---- running ---------------------------------------------------------------------------
    def __call__(op, *tensors, dtype=None, out=None, **args):
        # `op`, not `self`: a non-tensor argument may be called self (the number base of 2 ** x).
        """Run the op on tensors (positional, in ``inputs`` order) with keyword ``args``.

        ``dtype``: compute in this dtype (inputs are cast; gradients are cast back by the engine).
        ``out``: write the result into this tensor in place (used by ``add_`` and friends).
        """
        if _ZEROS or _METAS:   # (an efficient zero tensor or a meta tensor is alive: see _no_data)
            result = _no_data(op, tensors, dtype, out, args)
            if result is not None:
                return result
        if _extras[0]:  # profiler or forward-mode AD on: the slower path (one flag check otherwise)
            from .autograd.forward_ad import _call_with_extras
            return _call_with_extras(op, tensors, dtype, out, args)
        grad_enabled = _STATE.enabled  # (read once per op: a threading.local read costs ~550 instructions)
        try:
            if out is None and not grad_enabled and op.plain:
                return op._run_untracked(tensors, dtype, args)
            return op._run(tensors, dtype, out, args, grad_enabled)
        except TypeError:   # (NumPy has no loop for complex32's float16 pairs: computed in complex64 then)
            if dtype is not None or not _complex32_operand(tensors):
                raise
        return op._run(tensors, _dtypes.complex32, out, args, grad_enabled)

    def call(self, tensors: tuple, dtype, out, args: dict):
        """``op(*tensors, dtype=dtype, out=out, **args)`` without packing and unpacking the arguments.

        For the hot wrappers in _ops.py (``_binary``, ``_unary``): ~0.4 us less per op.
        """
        if _ZEROS or _METAS:
            result = _no_data(self, tensors, dtype, out, args)
            if result is not None:
                return result
        if _extras[0]:
            from .autograd.forward_ad import _call_with_extras
            return _call_with_extras(self, tensors, dtype, out, args)
        grad_enabled = _STATE.enabled  # (read once per op, as in __call__)
        try:
            if out is None and not grad_enabled and self.plain:
                return self._run_untracked(tensors, dtype, args)
            return self._run(tensors, dtype, out, args, grad_enabled)
        except TypeError:   # (complex32: see __call__)
            if dtype is not None or not _complex32_operand(tensors):
                raise
        return self._run(tensors, _dtypes.complex32, out, args, grad_enabled)

    def _run_untracked(self, tensors, dtype, args) -> Tensor:
        """``_run`` for a one-output op that is not a view, when nothing records (grad mode off, no out=).

        The common case in backward: every formula's own ops run here (~0.2 us less than ``_run``).
        """
        if dtype is None:
            arrays = []
            for t in tensors:  # (a loop: a comprehension is a function call of its own in Python 3.11)
                arrays.append(t._data)
        else:
            npd = dtype.np
            arrays = _cast_operands(self, tensors, dtype, args)
        if self.unsigned_kernel is not None and arrays and type(arrays[0].dtype) in _BAREBONES_NP_TYPES:
            _refuse_unsigned(self, arrays[0])
        if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already)
            result = self.forward(*arrays, **args)
        else:
            token = _np_errstate.set(_QUIET)
            try:
                result = self.forward(*arrays, **args)
            finally:
                _np_errstate.reset(token)
        if type(result) is not _ndarray:
            result = np.asarray(result)
        if dtype is not None and result.dtype != npd and self.keeps_dtype:
            result = _round_to(result, npd, self.name != "conj")  # (PyTorch rounds to the dtype without a warning)
        elif self.copies and _dtypes.is_complex32(result.dtype):
            _complex32_copied(self, True)
        if self.elementwise and result.ndim > 1:  # TensorIterator's output layout (see _strides.elementwise)
            same_shapes = None
            for t in tensors:  # (only when an input is not C-contiguous: nothing more in the common case)
                data = t._data
                if data.flags.c_contiguous:
                    if 1 not in data.shape:
                        continue
                    # A size-1 dim may have any stride in a C-contiguous array; an odd one orders the output's dims
                    # only when the operands' shapes differ (a broadcast input, x.t() * 2): with all shapes equal
                    # TensorIterator's fast setup takes C order. So the shapes are compared first (W4's
                    # ``pred - y`` of two (100, 1) tensors), the strides only when they differ.
                    if same_shapes is None:
                        same_shapes = not self.number_operand and _same_shapes(tensors, result.shape)
                    # A 1-D operand of this 2+-dim result (W4's bias b2 of shape (1,) in ``h @ W2 + b2``) has
                    # stride 0 in every other dim, and TensorIterator's reorder_dimensions skips an operand in any
                    # pair of dims where one stride is 0: its own stride never orders the output's dims.
                    if same_shapes or data.ndim == 1 or _strides._plain(data):
                        continue
                result = _strides.elementwise(result, _iterator_operands(self, tensors),
                                              self.name not in _NO_PROMOTION, self.number_operand)
                break
        o = _make_tensor(result)
        if not result.size and self.elementwise and result.ndim > 1:   # (an empty result's strides: see _strides)
            _strides.empty_elementwise(o, _iterator_operands(self, tensors), self.number_operand)
        if self.inference_version is not None:
            _inference_result_version(self, tensors, (o,), args)
        return o

    def _run(self, tensors, dtype, out, args, grad_enabled: bool):
        """Run the op; record it when ``grad_enabled`` (the caller's read of grad mode) and an input requires grad."""
        if out is not None and _CAPTURED[0] is not None:  # (inside torch.func.grad/vjp/jvp)
            _check_captured(self, out, tensors, args)
        if dtype is None:
            arrays = []
            for t in tensors:  # (a loop: a comprehension is a function call of its own in Python 3.11)
                arrays.append(t._data)
        else:
            npd = dtype.np
            if out is not None and dtype is _dtypes.complex32 and out.dtype._kind < dtype._kind:
                _refuse_complex32_into(out)   # (before the operands' casts: they would warn)
            arrays = _cast_operands(self, tensors, dtype, args, out)
        if self.unsigned_kernel is not None and arrays and type(arrays[0].dtype) in _BAREBONES_NP_TYPES:
            _refuse_unsigned(self, arrays[0])

        record = False
        if grad_enabled:  # a plain loop: any(<generator>) costs ~0.4 us per op
            for i in (range(len(tensors)) if self.list_input else self.diff_positions):
                if tensors[i]._requires_grad or tensors[i]._base is not None and _stale_view(tensors[i], out):
                    record = True
                    break
            if record and tensors[i]._is_inference is True and _only_inference(tensors):
                record = False
        if out is not None and self.elementwise and 0 in out._data.strides:
            _check_inplace(out, record)  # (autograd's refusals come first, as PyTorch's VariableType)
            _no_internal_overlap_first(self, out, tensors)
        if (out is not None and not record and self.ufunc is not None and dtype is not None
                and self._run_into(out, tensors, arrays, npd, args)):
            return out

        # PyTorch returns inf/nan silently; so does NumPy here (see _errstate.py).
        if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already)
            result = self.forward(*arrays, **args)
        else:
            token = _np_errstate.set(_QUIET)
            try:
                result = self.forward(*arrays, **args)
            finally:
                _np_errstate.reset(token)

        if self.multi:
            results = tuple(r if type(r) is np.ndarray else np.asarray(r) for r in result)
            if out is not None:
                return self._write_inplace(out, tensors, results[0], args, record)
            outs = [Tensor._make(r) for r in results]
            if self.view:
                for i, o in enumerate(outs):
                    _make_view(o, tensors[0], self, args, i)
            if self.inference_version is not None:
                _inference_result_version(self, tensors, outs, args)
            if record:
                _no_integer_history(outs[: self.n_diff_outputs])
                self._record(tensors, outs, args)
            return tuple(outs)

        # One output (most ops): the same steps without building lists and tuples.
        if type(result) is not _ndarray:
            result = np.asarray(result)
        if dtype is not None and result.dtype != npd and self.keeps_dtype:
            result = _round_to(result, npd, out is None and self.name != "conj")  # (no warning: PyTorch rounds)
        elif self.copies and _dtypes.is_complex32(result.dtype):
            _complex32_copied(self, out is None)
        if out is not None:
            return self._write_inplace(out, tensors, result, args, record)
        if self.elementwise and result.ndim > 1:  # TensorIterator's output layout (see _strides.elementwise)
            same_shapes = None
            for t in tensors:  # (only when an input is not C-contiguous: nothing more in the common case)
                data = t._data
                if data.flags.c_contiguous:
                    if 1 not in data.shape:
                        continue
                    # (odd strides of size-1 dims matter only when the shapes differ: see _run_untracked)
                    if same_shapes is None:
                        same_shapes = not self.number_operand and _same_shapes(tensors, result.shape)
                    if same_shapes or data.ndim == 1 or _strides._plain(data):   # (a 1-D operand: see _run_untracked)
                        continue
                result = _strides.elementwise(result, _iterator_operands(self, tensors),
                                              self.name not in _NO_PROMOTION, self.number_operand)
                break
        o = _make_tensor(result)
        if not result.size and self.elementwise and result.ndim > 1:   # (an empty result's strides: see _strides)
            _strides.empty_elementwise(o, _iterator_operands(self, tensors), self.number_operand)
        if self.view:
            _make_view(o, tensors[0], self, args, None)
        if self.inference_version is not None:
            _inference_result_version(self, tensors, (o,), args)
        if record:
            if result.dtype.kind in "biu" and self.n_diff_outputs:
                _no_integer_history((o,))
            self._record(tensors, (o,), args)
        return o

    keeps_dtype = True
    copies = False   # (see _COMPLEX32_COPIES)

    def _run_into(self, out, tensors, arrays, npd, args) -> bool:
        """An in-place op outside autograd, written straight into ``out`` by the ufunc; False: not here.

        ``w -= lr * w.grad`` would otherwise compute a weight-sized temporary and copy it over. For a
        big weight, fresh memory costs page faults, more than the arithmetic (bench W1's SGD step).
        Only the plain case is taken: one float dtype everywhere and no broadcasting into ``out``
        (the general path raises the errors of the other cases).
        """
        data = out._data
        if self.multi or data.dtype != npd or npd.kind not in "fc" or (args and args != {"alpha": 1}):
            return False
        for a in arrays:
            if a.shape != data.shape and not _broadcasts_to(a.shape, data.shape):
                return False
        _check_inplace(out, False)
        _check_no_partial_overlap(out, tensors)
        if _before_write:  # allow_mutation_on_saved_tensors (and the double-vjp trick): copy saved tensors first
            for before in _before_write:
                before(out)
        token = _np_errstate.set(_QUIET)
        try:
            self.ufunc(*arrays, out=data)
        finally:
            _np_errstate.reset(token)
        _check_inference_write(out)
        out._version_counter[0] += 1
        return True

    def _record(self, tensors, outs, args, edges=None):
        """Create the node, link it to the inputs' edges and save what the formulas need."""
        # ``node_class()`` with Node.__init__'s stores done here (keep them in step; the edges and
        # _input_meta are set below): calling a class enters __init__ through a C-level call of its own.
        node = _object_new(self.node_class)
        node._seq = next(_sequence)
        node._extras = None
        if self.list_input or (self.all_diff and len(tensors) == len(self.inputs)):
            diff = tensors
        else:
            diff = [tensors[i] for i in self.diff_positions]
        # The edges to the inputs, and their shapes and dtypes (the engine casts gradients back to them).
        nodes, nrs, meta = [], [], []
        for t in diff:
            data = t._data
            meta.append((data.shape, data.dtype))
            if edges is None:
                fn = t._grad_fn
                if fn is not None and t._view_fn is None and t._creation_meta is None:  # the usual input:
                    # t._edge() without its call (a view of a custom Function's input asks grad_fn: see _edge)
                    nodes.append(fn)
                    nrs.append(t._output_nr)
                else:
                    fn, nr = t._edge()
                    nodes.append(fn)
                    nrs.append(nr)
        nodes, node._next_nrs = edges if edges is not None else (tuple(nodes), tuple(nrs))
        node._next_node = nodes[0] if nodes else None  # (the _next_nodes setter, without its call)
        node._next_rest = _rest_of(nodes) if len(nodes) > 1 else ()  # (one input: no call)
        meta = tuple(meta)
        node._input_meta = _SHARED.get(meta) or _shared(meta)  # (the usual hit without a call)
        if self.multi:
            diff_outs = outs if self.variadic else outs[: self.n_diff_outputs]
            # Only differentiable outputs are the node's (max(dim)'s indices are not): hooks see one grad.
            node._out_meta = tuple((o._data.shape, o._data.dtype) for o in diff_outs)
        else:
            diff_outs = outs if self.n_diff_outputs else ()
            # (for node._input_metadata: the shape and dtype of its grad, in two slots: a tuple holding both would
            # stay tracked by the garbage collector, see tests/test_engine_round6.py; read once, grads_fit below
            # uses them too: each NumPy shape read builds a tuple)
            r = outs[0]._data
            node._out_shape = out_shape = r.shape
            node._out_dtype = out_dtype = r.dtype
        # (every input of the result's shape and dtype: nothing broadcast or promoted; no saved-tensor hooks,
        # whose unpacked tensors may have any dtype or shape)
        if self.grads_fit and not _saved_hooks_stack:  # (grads_fit: one output, whose out_shape / out_dtype are read)
            if self.grads_shaped:  # (nothing promoted: every input of the result's dtype; shapes are the formulas')
                fit = True
                for _, dt in meta:
                    if dt is not out_dtype and dt != out_dtype:  # (``is`` first: NumPy's ``!=`` costs more)
                        fit = False
                node._grads_fit = fit
            else:
                node._grads_fit = meta == ((out_shape, out_dtype),) * len(meta)
        else:
            node._grads_fit = False
        # Save only what the formulas of inputs that require grad need (as PyTorch does), following
        # the save plan made in _plan_calls. Bit j of ``mask``: differentiable input j requires grad. Read
        # before the outputs are marked below: an in-place op's output is its input ``self``, which may not
        # have required grad (v.copysign_(w) with only w requiring grad leaves _saved_self unset).
        mask = -1
        if self.save_plan and self.save_depends_on_inputs:
            mask = 0
            for j, t in enumerate(diff):
                if t._requires_grad:
                    mask |= 1 << j
        # Outputs get their grad_fn first: a saved output must know it requires grad, or the formulas
        # that use it (exp, tanh ...) would lose that path under create_graph.
        for i, o in enumerate(diff_outs):
            o._requires_grad = True
            o._grad_fn = node
            o._output_nr = i
        if self.save_plan:
            node._saved = self._save(tensors, outs, args, mask)
        else:
            node._saved = ()
        if _anomaly_enabled[0]:
            from .autograd.anomaly_mode import _record_trace
            _record_trace(node)
        return node

    def _save(self, tensors, outs, args, mask: int) -> tuple:
        """What the node keeps, following the save plan; bit j of ``mask``: input j requires grad."""
        # The plan's entries this mask needs, worked out once per mask (see _save_program): the loop visits only
        # what is saved, in the plan's order (the order pack hooks see the tensors in).
        program = self.save_programs.get(mask) or self._save_program(mask)
        saved = list(program[0])
        for i, name, kind, index in program[1]:
            if kind is _INPUT:
                t = tensors[index]
                if isinstance(t, Tensor):
                    number = t._wrapped_number  # (a Python number _ops._binary wrapped: saved as run_number's)
                    saved[i] = SavedTensor(t) if number is None else number
                else:
                    # A Python number (run_number), wrapped when read (OpNode._read_saved). Pack hooks never
                    # see it: PyTorch keeps wrapped numbers away from saved-tensor hooks.
                    saved[i] = t
            elif kind is _SIZES:  # (the property ``_sym_sizes`` without its call)
                saved[i] = tensors[index]._data.shape
            elif kind is _PROPERTY:  # a property of an input (its strides, numel ...): the function in ``name``
                saved[i] = name(tensors[index])
            elif kind is _ARG:
                value = args[name]
                # A tensor argument (a loss's target, batch norm's running statistics ...) is a SavedVariable in
                # PyTorch: saved with its version, so an in-place change before backward is caught when unpacked.
                saved[i] = (SavedTensor(value) if name in self.checked_args and isinstance(value, Tensor)
                            else value)
            elif kind is _OUTPUT:
                saved[i] = SavedTensor(outs[index], is_output=True)
            elif kind is _NONDIFF_OUTPUT:
                saved[i] = SavedTensor(outs[index])
            else:  # _OPTIONAL (a missing Tensor? argument: nothing saved, read as None, no pack hook)
                t = tensors[index]
                saved[i] = SavedTensor.undefined() if type(t._data) is Absent else SavedTensor(t)
        return tuple(saved)

    def _save_program(self, mask: int) -> tuple:
        """``(template, fills)`` for ``_save``: the saved tuple with what no input that requires grad needs left
        unset (PyTorch leaves it unset), and ``(slot, name, kind, index)`` for each value to save."""
        template, fills = [], []
        for i, (name, kind, index, unset, users) in enumerate(self.save_plan):
            template.append(unset if not mask & users else None)
            if mask & users:
                if kind is _PROPERTIES["_sym_sizes"]:
                    fills.append((i, None, _SIZES, index))
                else:
                    fills.append((i, kind, _PROPERTY, index) if callable(kind) else (i, name, kind, index))
        program = self.save_programs[mask] = (tuple(template), tuple(fills))
        return program

    def run_number(self, t, number, args):
        """``t <op> number`` for a float tensor and a Python number (``x * 1.5``, ``x + 1``); see _binary.

        NumPy gets the number as it is and converts it to the tensor's dtype, which is what casting
        PyTorch's wrapped 0-dim tensor would do. That is PyTorch's whole computation only for the dtypes
        ``_ops`` sends here: float32/float64 for all four ops, float16 for add/sub, complex for mul/div
        (PyTorch's float16 mul/div compute with the number in float32, its complex add/sub multiply the
        number by alpha: see ``_pytorch_operands``). That tensor (``_saved_other``) is made only if the
        node saves the number and someone reads it: no tensor, SavedTensor and cast per op otherwise.
        """
        if (_ZEROS or _METAS) and (_zerotensor.is_zero(t) or _meta.is_meta(t)):   # (see _no_data; the number
            # as the wrapped number _binary makes of it)
            wrapped = _make_tensor(np.array(number, dtype=np.float64 if type(number) is float else np.int64))
            if self.number_formulas:
                wrapped._wrapped_number = number
            return self.call((t, wrapped), t.dtype, None, args)
        data = t._data
        operand = number
        if type(number) is float:
            # NumPy's conversion of the float to the tensor's dtype, done once per (number, dtype) and kept:
            # the same 0-dim value gives the same bits, and the ufunc takes it ~2k instructions faster.
            operand = _NUMBER_OPERANDS.get((number, data.dtype))
            if operand is None:
                operand = _number_operand(number, data.dtype)
        if _errstate_get() is _QUIET:  # (in a backward pass: NumPy is quiet already)
            result = self.number_ufunc(data, operand)
        else:
            token = _np_errstate.set(_QUIET)
            try:
                result = self.number_ufunc(data, operand)
            finally:
                _np_errstate.reset(token)
        if result.ndim > 1 and (not data.flags.c_contiguous or 1 in data.shape):  # TensorIterator's layout
            # (the number is a 0-d operand: not the same shape as the tensor's, so no fast setup, and the strides
            # of the tensor's size-1 dims order the output's too, x.t() * 2; see _strides)
            result = _strides.iterator_layout(result, (data, _strides.NUMBER_OPERAND))
        o = Tensor._make(result if type(result) is np.ndarray else np.asarray(result))
        if not data.size and data.ndim > 1:   # (an empty result's strides: see _strides)
            _strides.empty_elementwise(o, (t,), True)
        # (the tensor's flags before grad mode: in backward, ``grad * number`` records nothing and its grad is no
        # view, so the per-thread read, ~550 instructions, is skipped; the view check still only in grad mode)
        if (t._requires_grad or t._base is not None) and _STATE.enabled and (t._requires_grad or _stale_view(t)):
            # _record for (t, number): the number gets no edge, only input 0 requires grad (mask 1).
            node = _object_new(self.node_class)  # (node_class(), as in _record)
            node._seq = next(_sequence)
            node._extras = None
            fn = t._grad_fn
            nr = t._output_nr
            if fn is None or t._view_fn is not None or t._creation_meta is not None:  # (as in _record)
                fn, nr = t._edge()
            node._next_node, node._next_rest, node._next_nrs = fn, _NO_NODES[1], (nr, 0)  # edges (fn, None)
            meta = ((t._data.shape, t._data.dtype), _NUMBER_META[type(number)])
            node._input_meta = _SHARED.get(meta) or _shared(meta)
            o._requires_grad = True
            o._grad_fn = node
            node._grads_fit = True  # (the number has no edge; the tensor has the result's shape and dtype)
            if self.number_save is None:
                node._saved = self._save((t, number), (o,), args, 1) if self.save_plan else ()
            else:  # (_save's result for this case, ~3k instructions less per op)
                template, fills = self.number_save
                saved = list(template)
                for i, name in fills:
                    saved[i] = number if name is None else args[name]
                node._saved = tuple(saved)
            if _anomaly_enabled[0]:
                from .autograd.anomaly_mode import _record_trace
                _record_trace(node)
        return o

    def _self_saved(self, tensors) -> bool:
        """Whether the node of this in-place op will save ``self``: a formula of an input that requires grad reads
        it (x.mul_(w) saves x for w's gradient only: not when w is a number or needs none, so no clone then)."""
        for _name, kind, index, _unset, users in self.save_plan:
            if kind is _INPUT and index == 0:
                if users == -1:
                    return True
                positions = range(len(tensors)) if self.list_input else self.diff_positions
                return any(users >> j & 1 and tensors[i]._requires_grad for j, i in enumerate(positions))
        return False

    def _write_inplace(self, out, tensors, result, args, record):
        _check_inplace(out, record)
        # Inputs that the formulas need are snapshotted before being overwritten.
        originals = list(tensors)
        overlapping = _check_no_partial_overlap(out, tensors, self)
        if record:
            for i, t in enumerate(tensors):
                # Only ``self`` is kept as it was (PyTorch's original_self); another input that is the
                # written tensor stays saved as is, so backward then reports the in-place change.
                if i == 0 and t is out and self.inputs[i] in self.saved_names and self._self_saved(tensors):
                    # PyTorch saves ``self.clone()``, recorded: its grad_fn is a CloneBackward0.
                    from . import derivatives
                    originals[i] = derivatives.clone(t)
            edges = _edges_of([tensors[i] for i in self.diff_positions])
            cloned = originals[0]._grad_fn if originals[0] is not tensors[0] else None
        if result.shape != out._data.shape and np.broadcast_shapes(result.shape, out._data.shape) != out._data.shape:
            # (PyTorch checks the shape before the dtype)
            raise RuntimeError(f"output with shape {list(out._data.shape)} doesn't match the broadcast shape "
                               f"{list(np.broadcast_shapes(result.shape, out._data.shape))}")
        if out.dtype.np != result.dtype and _dtypes.from_numpy(result.dtype)._kind > out.dtype._kind:
            # PyTorch's canCast: never down a category (complex > floating > integer > bool). Not NumPy's
            # "same_kind", which lets complex into bfloat16 and integers into bool.
            raise RuntimeError(f"result type {_legacy_scalar_name(_dtypes.from_numpy(result.dtype))} can't be cast "
                               f"to the desired output type {_legacy_scalar_name(out.dtype)}")
        if out.dtype is _dtypes.complex32 and not _dtypes.is_complex32(result.dtype):
            result = _dtypes.as_complex32(result, warn=False)   # (written into out: no complex32 allocated)
        elif out.dtype.np != result.dtype:
            result = _quiet_astype(result, out._data.dtype)  # (float64 into float16 overflows to inf silently)
        if _before_write:  # allow_mutation_on_saved_tensors (and the double-vjp trick): copy saved tensors first
            for before in _before_write:
                before(out)
        # (an inference operand, rare: PyTorch saves the inputs before its kernel runs, so a refused save leaves the
        # tensor as it was, its version too; minigrad records after the write, so it puts them back then)
        undo = None
        if record and not _STATE.inference and _any_inference(tensors):
            undo = out._data.copy(), out._grad_fn, out._output_nr, out._requires_grad
        if overlapping:  # an expanded tensor: write only what changed (the other copies would restore it)
            np.copyto(out._data, result, where=result != out._data)
        elif not (_METAS and _meta.is_meta(out)):   # (a meta tensor's memory is never written: _meta.py)
            out._data[...] = result
        _check_inference_write(out)
        out._version_counter[0] += 1
        try:
            if record:
                if out._base is not None and out._view_fn is not None:
                    # The view's grad_fn is regenerated (AsStridedBackward0) when next read; it requires grad now.
                    _record_copy_slices(self, out, originals, args, edges)
                    out._requires_grad = True
                    out._backward_hooks = None  # (hooks registered before stay on the old grad_fn, as in PyTorch)
                    node = out._base._grad_fn.fn
                    _saved_before_write(node, out)
                else:
                    old_fn = out._grad_fn
                    node = self._record(originals, [out], args, edges)
                    _saved_before_write(node, out)
                    out._view_version = out._version_counter[0]
                    out._backward_hooks = None  # (hooks registered before stay on the old grad_fn, as in PyTorch)
                    if out._retains_grad:  # retain_grad follows the tensor to its new grad_fn, as in PyTorch
                        out._move_retains_grad(old_fn)
                if cloned is not None:  # PyTorch makes the op's node first, then clones self: their numbers swapped
                    cloned._seq, node._seq = node._seq, cloned._seq
        except RuntimeError:
            if undo is not None:  # (see above)
                out._data[...], out._grad_fn, out._output_nr, out._requires_grad = undo
                out._version_counter[0] -= 1
            raise
        return out


def _iterator_operands(op: Op, tensors) -> list:
    """An elementwise op's tensors as TensorIterator's operands, in its order (see ``Op.operand_step``); a missing
    optional operand, clamp(x, max=t)'s min, is none of them."""
    return [u for u in tensors[::op.operand_step] if type(u._data) is not Absent]


def _number_operand(number: float, dtype: np.dtype) -> np.ndarray:
    """``number`` as a 0-dim array of ``dtype`` (what NumPy converts a Python float operand to), kept in
    ``_NUMBER_OPERANDS`` for the next use. Not kept: zeros (0.0 and -0.0 are equal keys) and nan."""
    token = _np_errstate.set(_QUIET)  # (1e300 in float32 is inf, without a warning)
    try:
        operand = np.array(number, dtype=dtype)
        operand.flags.writeable = False  # (shared)
    finally:
        _np_errstate.reset(token)
    if number != 0 and number == number and len(_NUMBER_OPERANDS) < 1024:
        _NUMBER_OPERANDS[(number, dtype)] = operand
    return operand


_NUMBER_OPERANDS: dict = {}  # (Python float, NumPy dtype) -> 0-dim array, for Op.run_number
_object_new = object.__new__
# Ops whose node may skip the engine's fix-up of its gradients (Op.grads_fit): their formulas keep the
# incoming gradient's shape and dtype when every input has the result's (tests/test_perf_round15.py).
# Checked per dtype (float16, bfloat16, float32, float64, complex64, complex128; with and without create_graph) for
# every Op of each name: neg, exp, sigmoid, relu, pow (by a number, by a tensor, of a number) and div (also with a
# rounding mode) were added in round 16 (tests/test_perf_round16.py).
_GRADS_FIT_OPS = frozenset({"add", "sub", "mul", "tanh", "neg", "exp", "sigmoid", "relu", "div", "pow"})
# Nodes whose formulas return gradients of their inputs' shapes whatever the result's shape (G·Bᵀ and Aᵀ·G for
# mm, the quotient expanded to the input's sizes for a full mean): fit when every input has the result's dtype
# (not mean(dtype=...), which promotes). Checked per dtype as above in round 17 (tests/test_perf_round17.py).
_GRADS_SHAPED_NODES = frozenset({"MmBackward0", "MeanBackward0"})


def _number_save(plan: tuple) -> tuple | None:
    """What ``Op._save`` keeps for ``run_number`` (input 0 a tensor that requires grad, input 1 the number:
    mask 1), as ``(template, fills)``: the unset values, and per slot to fill its name (an argument) or None
    (the number). None when a slot needs more (a tensor or a property of one): then ``_save`` runs."""
    template, fills = [], []
    for i, (name, kind, index, unset, users) in enumerate(plan):
        template.append(unset)
        if not users & 1:
            continue  # not needed by input 0's formula: left unset, as _save leaves it
        if kind is _ARG:
            fills.append((i, name))
        elif kind is _INPUT and index == 1:
            fills.append((i, None))
        else:
            return None
    return tuple(template), tuple(fills)


_anomaly_enabled = [False]
# Ops whose ``tensor <op> python number`` runs through Op.run_number (checked equal to wrapping the
# number for every float and complex dtype; _ops sends only the dtypes where that wrapping is PyTorch's
# arithmetic), and the (shape, dtype) of the wrapped number's input.
_NUMBER_OPS = frozenset({"add", "sub", "mul", "div"})
_UINT64 = np.dtype(np.uint64)
_NUMBER_META = {float: ((), np.dtype(np.float64)), int: ((), np.dtype(np.int64)),
                complex: ((), np.dtype(np.complex128)), bool: ((), np.dtype(bool))}

# ---- where PyTorch's CPU arithmetic is not NumPy's ufunc on the cast operands (Op._run's cast) ----------
# The dtypes and ops concerned; every other op and dtype casts its inputs and runs its forward.
_QUIRK_DTYPES = frozenset({_dtypes.float16, _dtypes.bfloat16, _dtypes.complex64, _dtypes.complex128})
_QUIRK_OPS = frozenset({"add", "sub", "rsub", "mul", "div"})
_FLOAT32 = np.dtype(np.float32)
_FLOAT16 = np.dtype(np.float16)
_COMPLEX64 = np.dtype(np.complex64)


def _pytorch_operands(name: str, tensors, npd, args) -> list:
    """The inputs of add/sub/rsub/mul/div cast to ``npd``, adjusted so NumPy's arithmetic gives PyTorch's bits.

    - float16/bfloat16 mul and div by a 0-dim second operand (a wrapped number, a 0-dim tensor):
      PyTorch's kernel reads that operand's own value in float32 and computes in float32 ("opmath"),
      so ``half_inf * 1e-30`` is inf, not inf * 0. Given the float32 operand NumPy computes in float32
      too; ``_run`` rounds the result to ``npd``. A 0-dim *first* operand is cast, as NumPy does.
    - complex add/sub/rsub with alpha 1: PyTorch computes ``self + alpha * other`` (rsub:
      ``other + -alpha * self``) with a complex product even for alpha = 1, so an infinite part brings
      a nan (``(1+0j) + inf`` is ``inf+nanj``) and zero signs follow the product. The forward's
      ``np.add(a, 1 * b)`` is exactly that; for subtraction ``a - q`` with ``q = -(-1 * b)``. (Other
      alphas: the forwards compute ``a + alpha * b`` themselves.)
    - complex mul/div: the first operand becomes a ``_complex_bits.TorchComplex`` view, whose
      ``np.multiply``/``np.true_divide`` round as PyTorch's kernels (the forwards stay the plain ufuncs).
    """
    token = _np_errstate.set(_QUIET)  # (casts to float16 overflow to inf without a warning, as in PyTorch)
    try:
        arrays = [t._data if t._data.dtype == npd else t._data.astype(npd) if not _dtypes.is_complex32(t._data.dtype)
                  else _strides.astype(t._data, npd) for t in tensors]   # (complex32: see _dtypes.complex32)
        if len(arrays) != 2:  # mul/div by a Python-number argument (MulBackward1): no wrapped operand
            return arrays
        if npd.kind == "c":
            if name == "mul" or name == "div":  # PyTorch's rounding, not NumPy's (see _complex_bits.py)
                arrays[0] = arrays[0].view(_complex_bits.TorchComplex)
            elif args.get("alpha", 1) == 1:
                if name == "add":
                    arrays[1] = 1 * arrays[1]
                else:  # sub: self - other; rsub: other - self
                    i = 0 if name == "rsub" else 1
                    arrays[i] = -(-1 * arrays[i])
        elif name == "mul" or name == "div":
            other = tensors[1]._data
            if other.ndim == 0 and other.dtype != npd:
                arrays[1] = other.astype(_FLOAT32)
    finally:
        _np_errstate.reset(token)
    return arrays


def _quiet_astype(array: np.ndarray, npd) -> np.ndarray:
    """``array.astype(npd)`` without NumPy's overflow warning (a float32 result rounded to float16 ...)."""
    if array.dtype.kind == "c" or _dtypes.is_complex32(array.dtype):
        return cast_array(array, npd)
    token = _np_errstate.set(_QUIET)
    try:
        return _strides.astype(array, npd)  # (PyTorch's layout: a transposed or expanded input keeps its order)
    finally:
        _np_errstate.reset(token)


def cast_array(array: np.ndarray, npd) -> np.ndarray:
    """``array.astype(npd)``; complex to real with PyTorch's warning (once per process), not NumPy's."""
    if _dtypes.is_complex32(array.dtype) and npd is not _dtypes.COMPLEX32_NP:   # (complex32: its values)
        array = _dtypes.complex32_values(array)
    if array.dtype.kind != "c" or np.dtype(npd).kind == "c" or npd is _dtypes.COMPLEX32_NP:
        return _strides.astype(array, npd)
    if array.size:  # (no element copied, no warning: PyTorch's kernel never runs)
        warn_once("complex to real", "Casting complex values to real discards the imaginary part (Triggered "
                  "internally at /__w/pytorch/pytorch/aten/src/ATen/native/Copy.cpp:307.)")   # (a TORCH_WARN_ONCE)
    # (laid out as empty_like(array): the real view's strides count two reals per element, a size-1 dim's too)
    values = _strides.astype(array.real.copy(), npd)
    strides = _strides.preserve_strides(array)
    return values if strides is None else _strides.copy_into(_strides.with_strides(array.shape, strides, npd), values)


# Elementwise ops whose result dtype is not their operands' common dtype (no operand is cast to it)
_NO_PROMOTION = frozenset({"complex", "polar"})


def _same_shapes(tensors, shape: tuple) -> bool:
    """Whether every operand has the result's ``shape`` (no broadcasting)."""
    for t in tensors:
        if t._data.shape != shape:
            return False
    return True


def _refuse_complex32_into(out) -> None:
    """An in-place op on a real tensor with a complex32 result: TensorIterator refuses the cast before it allocates
    the operands' complex32 copies (so no "ComplexHalf support is experimental" warning comes first)."""
    raise RuntimeError(f"result type ComplexHalf can't be cast to the desired output type "
                       f"{_legacy_scalar_name(out.dtype)}")


def _cast_operands(op: Op, tensors, dtype, args, out=None) -> list:
    """The inputs' arrays in the compute dtype (PyTorch's own operands for half-precision scalar ops). ``out``: the
    tensor written in place, if any."""
    npd = dtype.np
    if dtype is _dtypes.complex32:   # (computed in complex64, from operands rounded to complex32; _run rounds back)
        # (TensorIterator allocates a complex32 copy of another operand, with the warning; not of where's condition,
        # nor for the kernels that convert as they copy; an index tensor stays as it is)
        quiet = op.name in _COMPLEX32_CONVERTING
        index = op.inputs.index("index") if "index" in op.inputs else -1
        arrays = [t._data if i == index or _dtypes.is_complex32(t._data.dtype) else _dtypes.as_complex32(
            _quiet_astype(t._data, _COMPLEX64), warn=not (quiet or i == 0 and op.name == "where"))
            for i, t in enumerate(tensors)]
        if op.name not in _COMPLEX32_OWN_ROUNDING:
            arrays = [a if i == index else _dtypes.complex32_values(a) for i, a in enumerate(arrays)]
        if _CONJ_MIRRORS and op.name not in _COMPLEX32_CONJ_AWARE:
            for t in tensors:   # (PyTorch's conjugate fallback first copies a complex32 conjugate view out)
                if _dtypes.is_complex32(t._data.dtype) and _conj.is_conj(t):
                    _dtypes.warn_complex32()
        _refuse_complex32(op, out is None)   # (after the operands' casts: TensorIterator makes them first)
        return arrays
    if dtype in _QUIRK_DTYPES and op.name in _QUIRK_OPS:
        return _pytorch_operands(op.name, tensors, npd, args)
    if op.name == "mean" and npd.itemsize == 2:
        # mean(x, dtype=half/bfloat16): PyTorch's mean_out sums x in float32 (x cast to float32, not to the
        # half dtype), divides, then rounds to the dtype (_run does that rounding)
        return [t._data if t._data.dtype == _FLOAT32 else _quiet_astype(t._data, _FLOAT32) for t in tensors]
    # (a cast overflows to inf silently, as in PyTorch: _quiet_astype, only when there is a cast)
    return [t._data if t._data.dtype == npd else _quiet_astype(t._data, npd) for t in tensors]


def _vmap_only() -> bool:
    """Whether vmap is the only reason ``_extras`` is on (no profiler, no forward-AD dual level): this thread's or
    another's (``_vmap_batched.RUNNING``)."""
    from .autograd import forward_ad, profiler
    return forward_ad._level[0] is None and not profiler._enabled[0]


def _number_tensor(value) -> Tensor:
    """A saved Python number as the 0-dim tensor PyTorch wraps it in (float64 or int64; uint64 beyond int64, as
    PyTorch's parser reads such an int)."""
    npd = _NUMBER_META[type(value)][1] if type(value) is not int or value < 2**63 else _UINT64
    t = Tensor._make(np.array(value, dtype=npd))
    t._is_inference = False  # made now, but it stands for a tensor made when the op was recorded
    return t


class _SavedNumber(SavedTensor):
    """A saved Python number once read (``_saved_other``): the 0-dim tensor shown, the number kept for the
    formulas. PyTorch's saved number stays a wrapped number (``grad * other`` keeps a 0-dim float32 grad's
    dtype), which a plain 0-dim float64 tensor would not (it promotes)."""

    __module__ = SavedTensor.__module__  # (printed as PyTorch's SavedTensor, like every other saved value)
    __slots__ = ("number",)

    def __init__(self, number) -> None:
        super().__init__(_number_tensor(number))
        self.number = number


_SavedNumber.__name__ = _SavedNumber.__qualname__ = "SavedTensor"


# Kinds of saved values in an Op's save plan (see Op._plan_calls).
_ARG, _INPUT, _OUTPUT, _NONDIFF_OUTPUT = "arg", "input", "output", "non-differentiable output"
_OPTIONAL = "optional input"   # a ``Tensor?`` input (Op.optional)
_PROPERTY = "input property"   # (in a save program only: the plan's entry holds the property's function)
_SIZES = "input sizes"         # (in a save program only: the property ``_sym_sizes``)


class Absent(np.ndarray):
    """The array of a missing optional tensor argument (``derivatives.absent()``, PyTorch's undefined tensor): a
    type of its own, so that a real empty tensor (shape (0,) too) is never taken for a missing one."""

# Forwards run with NumPy's floating-point warnings off (see _errstate.py; ``_errstate_get() is _QUIET``:
# a backward pass has made NumPy quiet already, no set/reset needed).
_np_errstate, _QUIET, _errstate_get = _errstate.state, _errstate.QUIET, _errstate.get
# (read on every op: ``np.ndarray`` and ``Tensor._make`` take CPython 3.11's slow attribute lookup, ~300
# instructions each, as NumPy's module has a __getattr__ and Tensor a metaclass: no specialized read)
_ndarray, _make_tensor = np.ndarray, Tensor._make
_SHAPE_PARAMS = ("_input_sizes", "_input_meta")
_GRAD_PARAMS = ("grad", "grads", "grad_input_mask")  # formula parameters that are not saved values
# Nodes PyTorch implements in C++ by hand report a qualified name() (their class name stays short).
_QUALIFIED_NAMES = frozenset({"CopyBackwards"})
_extras = [False]  # True while a profiler or a forward-AD dual level is active (see Op.__call__)

# Saved properties of an input, named like PyTorch's (``_saved_self_sym_sizes``).
_PROPERTIES = {
    "_sym_sizes": lambda t: t._data.shape,
    "_sym_strides": inspect.unwrap(Tensor.stride),  # (without the wrapper for NumPy's axis= name: a call less)
    "_sym_numel": lambda t: int(t._data.size),
    "_sym_argsize_0": lambda t: int(t._data.shape[0]),
    "_sym_argsize_1": lambda t: int(t._data.shape[1]),
    "_sym_argsize_2": lambda t: int(t._data.shape[2]),
    "_scalar_type": lambda t: t.dtype,
}


def _input_property(name: str):
    for suffix in _PROPERTIES:
        if name.endswith(suffix):
            return name[: -len(suffix)], suffix
    return None


def _shared(value: tuple) -> tuple:
    """One shared tuple per distinct value, for a node's ``_input_meta``.

    All nodes of a loop hold equal ones. Fewer objects outlive each op: with gc on, the collector's
    full passes over every live node's tuples are most of a long graph's cost (bench W3: 100k ops
    11.3 -> 7.7 us/op). The table is bounded (a program with ever new shapes just stops sharing).
    """
    shared = _SHARED.get(value)
    if shared is None:
        shared = value
        if len(_SHARED) < 4096:
            _SHARED[value] = value
    return shared


_SHARED: dict = {}


def _edges_of(tensors) -> tuple[tuple, tuple]:
    """The edges to ``tensors`` (``Tensor._edge()`` of each) as a node keeps them: (nodes, input numbers)."""
    nodes, nrs = [], []
    for t in tensors:
        node, nr = t._edge()
        nodes.append(node)
        nrs.append(nr)
    return tuple(nodes), tuple(nrs)


def _broadcasts_to(shape, target) -> bool:
    """True if an array of ``shape`` broadcasts to ``target`` (without growing it)."""
    if len(shape) > len(target):
        return False
    return all(n == m or n == 1 for n, m in zip(reversed(shape), reversed(target)))


def _legacy_scalar_name(d) -> str:
    from ._tensor import _LEGACY_NAMES
    return _LEGACY_NAMES[d.name]


def _saved_before_write(node, out) -> None:
    """Inputs saved by an in-place op were saved before the write: they belong to the old version."""
    for value in node._saved:
        if type(value) is SavedTensor and not value._is_output and value._version_counter is out._version_counter:
            value._saved_version -= 1


def overlap_error(*tensors) -> RuntimeError:
    """assert_no_overlap's error: an input shares memory with the tensor written. PyTorch's kernel checks that after
    VariableType collected the inputs' edges, so a restricted view among ``tensors`` whose base was modified in
    place is refused first (check_rebased_inputs)."""
    check_rebased_inputs(*tensors)
    return RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor refer to "
                        "a single memory location. Please clone() the tensor before performing the operation.")


def _check_no_partial_overlap(out, tensors, op=None) -> bool:
    """Refuse writes PyTorch refuses; True if ``out``'s elements share memory (an allowed write into it)."""
    # Writing into memory that another input reads through a different view is refused, as in PyTorch.
    data = out._data
    overlapping = False
    if 0 in data.strides and data.size and any(st == 0 and n > 1 for st, n in zip(data.strides, data.shape)):
        _check_overlapping_write(op, out, tensors)  # an expanded tensor: elements share one location
        overlapping = True
    for k, t in enumerate(tensors):
        a, b = t._data, out._data
        if t is out and k and op is not None and op.node_name in _DENSE_CHECKED:
            # x.index_put_(i, x), x.scatter_(d, i, x): assert_no_overlap refuses the source that is the written
            # tensor itself (a full overlap, found before any layout test), where elementwise ops allow it (x += x)
            raise overlap_error(*tensors)
        # may_share_memory (a bounds check) first: the usual input is separate memory, and reading
        # the data pointers (``__array_interface__`` builds a dict) costs ~2 us.
        if t is out or not np.may_share_memory(a, b) or (
                a.shape == b.shape and a.strides == b.strides and
                _same_elements(a, b) and (op is None or op.node_name not in _DENSE_CHECKED) and
                (a.itemsize == b.itemsize or not (_dense(a) and _dense(b)))):
            # separate memory, or exactly the written elements (x += x; assert_no_overlap's Full refused); a part of
            # each written element in another dtype (z.copy_(z.real), z.copy_(z.imag)) is a partial overlap when
            # both are dense, else "too hard" for PyTorch and each element is read before it is written
            continue
        if op is not None and op.node_name in _UNCHECKED_INPUTS:
            continue
        # the index/scatter family's assert_no_overlap (get_overlap_status): "too hard" (allowed) unless both
        # are non-overlapping and dense. (TensorIterator ops then read what they write, element after element:
        # not emulated, so still refused.)
        if op is not None and op.node_name in _DENSE_CHECKED and not (_dense(a) and _dense(b)):
            continue
        if op is not None and op.elementwise and not (_dense(a) and _dense(b)):
            # (PyTorch's overlap test is "too hard" here and passes: the shape check that follows comes first,
            # x.mul_(x.expand(2, *x.shape)) is a broadcast error)
            shape = np.broadcast_shapes(*(u._data.shape for u in tensors), b.shape)
            if shape != b.shape:
                raise RuntimeError(f"output with shape {list(b.shape)} doesn't match the broadcast shape "
                                   f"{list(shape)}")
        if np.shares_memory(a, b) and not (_vmap_batched.DEPTH[0] and _vmap_batched.full_overlap(out, t)):
            raise overlap_error(*tensors)
    return overlapping


# torch.func's grad transforms (func/_transforms.py): the tensors the running function captured from outside,
# id -> weak reference (PyTorch's wrappers of one level: it refuses in-place changes to the others); else None.
# Per thread, as the transforms' levels.
_CAPTURED = PerThreadFlag(None)
# In-place kernels named with an overload in PyTorch's message: always .Tensor, or .Tensor from this many tensors
_OVERLOADS = {"add": 0, "sub": 0, "mul": 0, "div": 0, "pow": 2, "fill": 2, "masked_fill": 3, "index_fill": 3, "lerp": 3}


def _check_captured(op, out, tensors, args) -> None:
    """PyTorch's refusal to change a tensor the transformed function captured (or a view of one) in place."""
    if _is_captured(out):
        base = op.name.rstrip("_")
        n = _OVERLOADS.get(base)
        name = f"aten::{base}_" + ("" if n is None else ".Tensor" if len(tensors) >= n else ".Scalar")
        if base == "index_fill":   # (its overloads take a dim: index_fill_.int_Scalar / .int_Tensor)
            name = name.replace("_.", "_.int_")
        if base == "div" and args.get("rounding_mode") is not None:
            name += "_mode"
        if op.node_name in _NODE_OVERLOADS:
            name += _NODE_OVERLOADS[op.node_name]
        elif base in ("scatter", "floor_divide"):  # (scatter_ with reduce=: no node; floor_divide_ takes a Tensor)
            name += ".Tensor" if base == "floor_divide" else ".reduce" if len(tensors) > 1 else ".value_reduce"
        _refuse_captured(name)


# The overload each node name stands for in PyTorch (FmodBackward0 is fmod.Scalar's node), where the message names
# one: the comparisons' are .Scalar / .Tensor too
_NODE_OVERLOADS = {
    "FmodBackward0": ".Scalar", "FmodBackward1": ".Tensor", "RemainderBackward0": ".Scalar",
    "RemainderBackward1": ".Tensor", "CopysignBackward0": ".Tensor", "CopysignBackward1": ".Scalar",
    "XlogyBackward0": ".Tensor", "XlogyBackward2": ".Scalar_Other", "ClampBackward0": ".Tensor",
    "ClampMinBackward1": ".Tensor", "ClampMaxBackward1": ".Tensor", "ScatterBackward0": ".src",
    "ScatterBackward1": ".value", "ScatterReduceBackward0": ".two", "BernoulliBackward1": ".Tensor",
    "BernoulliBackward2": ".float", "RandomBackward0": ".from", "RandomBackward1": ".to",
    **{f"{c}Backward{i}": (".Scalar", ".Tensor")[i] for c in ("Eq", "Ne", "Lt", "Le", "Gt", "Ge") for i in (0, 1)}}


def captured_alias(fn, name: str, overload=None, composite: bool = False):
    """``fn``, an in-place op, as the alias or composite ``name`` (``clip_``, ``square_``): inside torch.func's grad
    transforms PyTorch refuses to write a captured tensor under the name called, before the op it dispatches to
    runs. ``overload(args, kwargs)``: the overload's suffix (``.Tensor``) from the other arguments. ``composite``:
    vmap has no batching rule for it, nor a decomposition (fix_, negative_, greater_: _vmap_batched.composite)."""
    def alias(input, *args, **kwargs):
        if _CAPTURED[0] is not None and isinstance(input, Tensor) and _is_captured(input):
            _refuse_captured(f"aten::{name}" + ("" if overload is None else overload(args, kwargs)))
        if composite and _vmap_batched.DEPTH[0]:
            suffix = "" if overload is None else overload(args, kwargs)
            with _vmap_batched.composite(name + suffix, input, *args, *kwargs.values(), out=input):
                return call(input, *args, **kwargs)
        return call(input, *args, **kwargs)
    from ._arg_errors import renamed
    call = renamed(fn, name)   # (the parser's errors name the alias called: "arctan2_(): argument ...")
    alias.__name__ = alias.__qualname__ = name
    alias.__doc__ = fn.__doc__
    return alias


class out_argument_write:
    """While an ``out=`` argument is written: torch.func only refuses in-place ops (whose first argument is written)
    on a captured tensor, so ``torch.exp(c, out=c)`` writes one."""

    def __enter__(self):
        self.saved, _CAPTURED[0] = _CAPTURED[0], None

    def __exit__(self, *exc) -> None:
        _CAPTURED[0] = self.saved


def tensor_or_scalar(args, kwargs) -> str:
    """The .Tensor / .Scalar overload of an op taking ``other`` (an alias of a comparison, float_power_)."""
    other = args[0] if args else next(iter(kwargs.values()), None)
    return ".Tensor" if isinstance(other, Tensor) else ".Scalar"


def check_captured_write(t, name: str) -> None:
    """``_check_captured`` for the in-place ops outside the table (t_, resize_, detach_ ...): ``name`` is PyTorch's
    (``aten::squeeze_.dim``)."""
    if _CAPTURED[0] is not None and _is_captured(t):
        _refuse_captured(name)


def _is_captured(t) -> bool:
    captured = _CAPTURED[0]
    # (a transform's stand-in for its input is a view of the caller's tensor, which the function may also reach
    # as a global: writing the stand-in, or a view of it, writes an input, as writing PyTorch's wrapper does)
    for x in (t,) if _stands_in(t) else (t, t._base):
        ref = None if x is None else captured.get(id(x))
        if ref is not None and ref() is x:
            return True
    return False


def _refuse_captured(name: str) -> None:
    raise RuntimeError(f"During a grad (vjp, jvp, grad, etc) transform, the function provided attempted to call "
                       f"in-place operation ({name}) that would mutate a captured Tensor. This is not supported; "
                       "please rewrite the function being transformed to explicitly accept the mutated Tensor(s) as "
                       "inputs.")


# Ops whose tensor inputs PyTorch never checks against the written tensor (a 0-dim value, read once: fill_'s too,
# x[0] = x.sum() of a 0-d value; masked_scatter_'s source, read element by element as the mask's positions are
# written).
_UNCHECKED_INPUTS = frozenset({"IndexFillBackward1", "MaskedFillBackward1", "FillBackward3",
                               "MaskedScatterBackward0"})
# Ops whose source PyTorch checks with assert_no_overlap (index_add_, index_copy_, scatter_, index_put_ ...).
_DENSE_CHECKED = frozenset({"IndexAddBackward0", "IndexCopyBackward0", "IndexPutBackward0", "IndexPutImplBackward0",
                            "IndexReduceBackward0", "ScatterBackward0", "ScatterBackward1", "ScatterAddBackward0",
                            "ScatterReduceBackward0", "PutBackward0"})


def _same_elements(a, b) -> bool:
    """Whether arrays of one shape and strides hold each element of one inside the same element of the other (at
    the same address, or z.imag inside z): reading an element before writing it gives each its own value."""
    d = a.__array_interface__["data"][0] - b.__array_interface__["data"][0]
    return 0 <= d <= b.itemsize - a.itemsize or 0 <= -d <= a.itemsize - b.itemsize


def _dense(a) -> bool:
    """PyTorch's is_non_overlapping_and_dense: some permutation of ``a``'s dims is contiguous."""
    expected = a.itemsize
    for st, n in sorted((st, n) for n, st in zip(a.shape, a.strides) if n != 1):
        if st != expected:
            return False
        expected *= n
    return True


def _no_internal_overlap_first(op, out, tensors=()) -> None:
    """TensorIterator's first check (compute_mem_overlaps, before compute_shape and compute_types): an in-place
    elementwise op into an expanded tensor is refused before any broadcast or cast error of its operands
    (``ones(1, 3).expand(2, 3).add_(ones(5))``). The writes allowed there (fill_, masked_fill_ ...) pass on, to
    be checked (and warned about) when written."""
    data = out._data
    if data.size and (op is None or op.node_name not in _OVERLAPPING_WRITES) and any(
            st == 0 and n > 1 for st, n in zip(data.strides, data.shape)):
        _check_overlapping_write(op, out, tensors)


def _check_overlapping_write(op, out, tensors) -> None:
    """Writing into a tensor whose elements share memory (``x.expand(3, 4)``): only some ops may, as in PyTorch.

    Every copy of an element gets the same value from fill_ and zero_; masked_fill_ and index_put_
    (``x[mask] = v``) are still allowed with a deprecation warning; copy_ of the same memory seen alike
    changes nothing. Everything else is refused.
    """
    name = op.node_name if op is not None else None
    if name in _OVERLAPPING_WRITES:
        if _OVERLAPPING_WRITES[name]:
            warn_expanded_write(name)
        return
    if name == "CopyBackwards" and len(tensors) > 1 and _same_data(out, tensors[1]):
        return
    if name in ("TrilBackward0", "TriuBackward0") and _triangle_in_place(out):
        return
    if name == "ConjPhysicalBackward1" and not out.dtype.is_complex:
        return  # (PyTorch's conj_physical_ of a real tensor returns before its kernel: nothing written)
    raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers to a "
                       "single memory location. Please clone() the tensor before performing the operation.")


def _same_data(a, b) -> bool:
    """PyTorch's is_same_data, copy_'s shortcut: ``b`` is ``a``'s memory seen alike (address, shape, strides, dtype,
    conjugate and negative bits), so there is nothing to copy (b.expand(2, 2).copy_(b.expand(2, 2)))."""
    x, y = a._data, b._data
    return (x.__array_interface__["data"][0] == y.__array_interface__["data"][0] and x.strides == y.strides
            and x.shape == y.shape and x.dtype == y.dtype and a.is_conj() == b.is_conj() and a.is_neg() == b.is_neg())


def _triangle_in_place(out) -> bool:
    """Whether PyTorch's tril_ / triu_ zero ``out``'s elements where they are (checkTrilTriuBatchContiguous): a
    tensor of at most 3 dims (or a batched one inside vmap), or whose batch dims are laid out one matrix after
    another (the first may be expanded). Zeros written where they are need no check of shared elements
    (_ops_inplace_math._triangle_ writes them so); otherwise the kernel works on a contiguous copy, whose copy_
    back refuses them."""
    a = out._data
    if a.ndim <= 3 or _vmap_batched.DEPTH[0] and _vmap_batched.levels(out):
        return True   # (inside vmap, seen so far: PyTorch's batch rule writes the zeros in place too)
    strides = [st // a.itemsize for st in a.strides]
    expected = a.shape[-1] * a.shape[-2]
    for i in range(a.ndim - 3, -1, -1):
        if i == 0 and (strides[0] == 0 or a.shape[0] == 1):
            continue
        if strides[i] != expected:
            return False
        expected *= a.shape[i]
    return True


def warn_expanded_write(name: str) -> None:
    """PyTorch's deprecation warning for the write of op ``name`` (a key of _OVERLAPPING_WRITES) into an expanded
    tensor."""
    import warnings

    from ._tensor import _user_stacklevel
    deprecated = _OVERLAPPING_WRITES[name]
    warnings.warn(f"Use of {deprecated[0]} on expanded tensors is deprecated. Please clone() the tensor before "
                  f"performing this operation. This also applies to advanced indexing e.g. {deprecated[1]} "
                  f"(Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                  f"TensorAdvancedIndexing.cpp:{deprecated[2]}.)", UserWarning, stacklevel=_user_stacklevel())


def is_expanded(a: np.ndarray) -> bool:
    """Whether some elements of ``a`` share memory (a dim of size > 1 with stride 0)."""
    return a.size > 0 and any(st == 0 and n > 1 for st, n in zip(a.strides, a.shape))


# Ops (by node name) that may write into an expanded tensor: None, or the deprecation warning's details.
_OVERLAPPING_WRITES = {
    "FillBackward2": None, "ZeroBackward0": None,
    "ThresholdBackward1": None,   # (threshold_: idempotent, its TensorIterator does not check overlap)
    "MaskedFillBackward0": ("masked_fill_", "tensor[mask] = scalar", 2450),
    "MaskedFillBackward1": ("masked_fill_", "tensor[mask] = scalar", 2450),
    "IndexPutBackward0": ("index_put_", "tensor[indices] = tensor", 976),
    "IndexFillBackward0": ("index_fill_", "tensor[mask] = scalar", 1913),
    "IndexFillBackward1": ("index_fill_", "tensor[mask] = scalar", 1913),
}


def _any_inference(tensors) -> bool:
    for t in tensors:
        if t._is_inference is True:
            return True
    return False


def _only_inference(tensors) -> bool:
    """True when every operand is an inference tensor (used outside inference mode, as grad mode is on): PyTorch's
    inference tensors lack the Autograd dispatch key, so such a call skips autograd altogether, even for one that
    requires grad (its result requires none). One normal operand, a Python number's wrapped tensor included, and
    the call is recorded (and saving an inference tensor then fails)."""
    for t in tensors:
        if t._is_inference is not True and type(t._data) is not Absent:
            return False
    return True


def _no_data(op, tensors, dtype, out, args):
    """The op on tensors without values (meta tensors: _meta.py; PyTorch's ZeroTensors: _zerotensor.py), or None
    when it has nothing of theirs to do: the caller then runs it as usual."""
    if _METAS:
        result = _meta.intercept(op, tensors, out, lambda o: _run_plain(o, tensors, dtype, out, args))
        if result is not None:
            return result
    if _ZEROS:
        return _zerotensor.intercept(op, tensors, dtype, out, args,
                                     lambda dt=dtype: _run_plain(op, tensors, dt, None, args))
    return None


def _run_plain(op, tensors, dtype, out, args):
    """``op(*tensors, dtype=dtype, out=out, **args)`` past ``_no_data``."""
    if _extras[0]:
        from .autograd.forward_ad import _call_with_extras
        return _call_with_extras(op, tensors, dtype, out, args)
    return op._run(tensors, dtype, out, args, _STATE.enabled)


def _check_inference_write(t) -> None:
    """Refuse an in-place change to an inference tensor outside inference mode.

    Called after the write: PyTorch refuses only once its kernel has run, so the values do change. Every
    in-place write comes through here, so here too conjugate views are kept in step with their memory (_conj.py).
    """
    if _CONJ_MIRRORS:  # (an empty dict while no x.conj() of a complex tensor is alive)
        _conj.after_write(t)
    if t._is_inference is True and not _STATE.inference:  # (not a detached one: see _tensor._COUNTED_INFERENCE)
        raise RuntimeError("Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
                           "clone to get a normal tensor before doing inplace update.See "
                           "https://github.com/pytorch/rfcs/pull/17 for more details.")


# torch.func's stand-ins for inputs that are differentiable outside the transform (func/_transforms.py's views
# ``x.view_as(x)``, by id -> weak reference): PyTorch's wrappers are leaves at their level, so an in-place op on
# one is refused as a leaf's, not as a view's
TRANSFORM_LEAVES: dict = {}


def _is_transform_leaf(t) -> bool:
    ref = TRANSFORM_LEAVES.get(id(t))
    return ref is not None and ref() is t


def transform_leaf(t) -> None:
    """``t`` (a view) stands for a leaf in a torch.func transform (see TRANSFORM_LEAVES)."""
    key = id(t)
    TRANSFORM_LEAVES[key] = weakref.ref(t, lambda _, key=key: TRANSFORM_LEAVES.pop(key, None))


# Views made of such a stand-in (or of one of these), by id -> weak reference: their ``_base`` is the caller's
# tensor, but writing one writes the transform's input (PyTorch's wrapper), not a tensor the function captured
STAND_IN_VIEWS: dict = {}


def _stands_in(t) -> bool:
    """``t`` is a transform's stand-in for its input, or a view of one."""
    ref = STAND_IN_VIEWS.get(id(t))
    return _is_transform_leaf(t) or ref is not None and ref() is t


def _check_inplace(t, record: bool) -> None:
    """PyTorch's errors for in-place changes autograd cannot handle."""
    if not _STATE.enabled or (t._is_inference is True and not record):
        # (an inference tensor written outside inference mode by a call that skips autograd, see _only_inference:
        # PyTorch's refusal is then the inference one, when the version is bumped)
        return
    # (``record`` False from an early check made before the other operands are looked at: the op records
    # anyway when ``t`` itself requires grad)
    base = t._base
    unreplayed = base is not None and _unreplayed_view(t)
    if t._creation_meta is not None and (record or t._requires_grad or unreplayed):
        raise RuntimeError(view_rebase_error(t, t._creation_meta, indirect=False))
    # As PyTorch's check_inplace: a view that requires grad whose base is a leaf (requiring grad or not:
    # ``torch.arange(6.).view(2, 3).requires_grad_()`` is such a view) may not change in place either.
    if base is not None:
        if TRANSFORM_LEAVES and _is_transform_leaf(t):
            if t._requires_grad:
                raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
            # (detach_()ed: PyTorch's write reaches the outer level's wrapper, which that level checks)
            return _check_inplace(base, record)
        if (t._requires_grad or base._requires_grad) and base._grad_fn is None:  # (a view requires grad with its base)
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
        if unreplayed:  # (PyTorch's is_leaf() reads the view's grad_fn as it is, without regenerating it)
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
    elif t._requires_grad and t._grad_fn is None:
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")


def _make_view(out, base, op: Op, args, output_nr=None) -> None:
    """Mark ``out`` as a view of ``base``: shared storage, shared version counter, replayable."""
    if out._data.size == 0:  # (NumPy's strides are all 0 then: PyTorch's computed from base's)
        _strides.empty_view(out, base, op, args, output_nr)
    if base._is_inference:
        # A view of an inference tensor is an inference tensor, and (as in PyTorch, whatever the mode it is
        # made in) carries no view metadata: no _base, no version counter, nothing autograd could replay.
        out._is_inference = True
        return
    out._is_inference = False  # (even when made in inference mode: a view of a normal tensor is normal)
    root = base._base if base._base is not None else base
    out._view_base = root
    out._version_counter = base._version_counter
    if TRANSFORM_LEAVES and _stands_in(base):
        key = id(out)
        STAND_IN_VIEWS[key] = weakref.ref(out, lambda _, key=key: STAND_IN_VIEWS.pop(key, None))
    outer = base._view_fn
    if outer is None:
        out._view_fn = lambda b, op=op, args=args, k=None: op(b, **args)
    else:
        out._view_fn = lambda b, op=op, args=args, outer=outer: op(outer(b), **args)
    # How the view was made decides which in-place changes autograd allows (PyTorch's CreationMeta):
    # outputs of multi-output views (split, unbind) and views made under no_grad may not be modified
    # in place while grad mode records. A view of such a view inherits the restriction. (The mode comes first, as
    # in PyTorch: an output of split made under no_grad is a no_grad view, and says so when modified in place.)
    if not _STATE.enabled:
        out._creation_meta = ("inference_mode" if _STATE.inference else "no_grad", None)
    elif output_nr is not None:
        out._creation_meta = "multi_output"
    else:
        out._creation_meta = base._creation_meta
    if not _STATE.enabled and base._requires_grad:
        out._requires_grad = True  # a no_grad view of a tensor that requires grad is a leaf that requires grad
    if base._base is not None and base._view_fn is None:
        out._view_fn = None
    out._view_version = base._version_counter[0]
    # (PyTorch's ViewInfo.chain: how the view's grad_fn is regenerated after an in-place change. A view that
    # changes the dtype is replayed, not an as_strided: made from a plain view of the root, it replays on the root
    # as_strided as that view (view_as_real(root.as_strided(...))); the plain views made from such a view then
    # add an as_strided each on top. Views of the root itself and plain chains: _tensor._replay_view's rules.)
    outer = base.__dict__.get("_dtype_regen")
    # (a conj view, _conj._replay, is regenerated the same way: as_strided cannot express the conjugation either,
    # nor the negation of a negative view, _neg._replay)
    if getattr(op, "name", None) in ("view_as_real", "view_as_complex") or op in (_conj._replay, _neg._replay):
        if outer is not None:
            out._dtype_regen = lambda r, op=op, args=args, outer=outer: op(outer(r), **args)
        elif base._base is None:
            out._dtype_regen = lambda r, op=op, args=args: op(r, **args)
        elif base._base is not None and base._data.dtype == root._data.dtype and not base.is_conj() \
                and not base.is_neg():
            geometry = (tuple(base._data.shape), base.stride(), base.storage_offset())
            out._dtype_regen = lambda r, op=op, args=args, g=geometry: op(r.as_strided(*g), **args)
    elif outer is not None and out._data.dtype == base._data.dtype:
        geometry = (tuple(out._data.shape), out.stride(), out.storage_offset())
        out._dtype_regen = lambda r, outer=outer, g=geometry: outer(r).as_strided(*g)


def _view_fn_name(fn) -> str:
    """A node's name as PyTorch's view errors show it: without "Backward0" (SqueezeBackward0: "Squeeze"), and without
    "Backward" in the other overloads' names (SqueezeBackward1: "Squeeze1")."""
    name = fn.name()
    if name.endswith("Backward0"):
        return name[:-len("Backward0")]
    i = name.rfind("Backward")
    return name if i < 0 else name[:i] + name[i + len("Backward"):]


def view_rebase_error(view, meta, indirect: bool) -> str:
    """PyTorch's message when a restricted view (see ``_make_view``) meets an in-place change."""
    what = ("its base or another view of its base has been modified inplace" if indirect
            else "is being modified inplace")
    # (PyTorch's header names the view's grad_fn; a view without one (its base requires no grad) gets the
    # no_grad header, whatever restriction follows: handle_view_on_rebase in torch/csrc/autograd/variable.cpp)
    fn = view._grad_fn
    header = (f"Output {view._output_nr} of {_view_fn_name(fn)} is a view and {what}." if fn is not None else
              f"A view was created in no_grad mode and {what} with grad mode enabled.")
    if meta == "multi_output":
        return (f"{header} This view is the output of a function that returns multiple "
                "views. Such functions do not allow the output views to be modified inplace. You should "
                "replace the inplace operation by an out-of-place one.")
    if meta == "custom_function":
        return (f"{header} This view was created inside a custom Function (or because an input "
                "was returned as-is) and the autograd logic to handle view+inplace would override the custom "
                "backward associated with the custom Function, leading to incorrect gradients. This behavior is "
                "forbidden. You can fix this by cloning the output of the custom Function.")
    fn = view._grad_fn  # a view made with grad mode on, of a view made in no_grad mode
    who = (f"Output {view._output_nr} of {_view_fn_name(fn)} is a view of a view which was"
           if fn is not None else "A view was")
    if meta[0] == "inference_mode":
        return (f"{who} created in inference mode and {what} in normal mode. Given that this use case is ambiguous "
                "and error-prone, it is forbidden. You can clarify your code by moving both the view and the inplace "
                "either both inside the inference_mode block (if you don't want the inplace to be tracked) or both "
                "outside (if you want the inplace to be tracked).")
    return (f"{who} created in no_grad mode and {what} with grad mode enabled. Given that this use case "
            "is ambiguous and error-prone, it is forbidden. You can clarify your code by moving both the view "
            "and the inplace either both inside the no_grad block (if you don't want the inplace to be tracked) "
            "or both outside (if you want the inplace to be tracked).")


# Saved int64 arguments: PyTorch's getters read them as unsigned, so -1 shows as 2**64 - 1.
_HIDDEN_NODE_ATTRS = frozenset({"_saved", "_get_saved", "_get_raw_saved", "_read_saved"})

_INT64_ARGS = frozenset({"dim", "dims", "dim0", "dim1", "index", "start", "end", "step", "split_size",
                         "split_sizes", "repeats", "offset", "dim2", "ignore_index", "k", "pad", "padding",
                         "dimension", "padding_idx", "diagonal"})


# Saved arguments that are tensors in PyTorch, so that they have a ``_raw_saved_*`` (lerp's number weight aside).
_TENSOR_ARGS = frozenset({"target", "weight", "pos_weight", "mask", "running_mean", "running_var", "attn_mask",
                          "indices"})


def _raw_saved_arg(value) -> SavedTensor:
    """A saved tensor argument (a Tensor, an array, or None) as the SavedTensor PyTorch shows for it."""
    if isinstance(value, np.ndarray):
        value = Tensor._make(value)
    return SavedTensor(value) if isinstance(value, Tensor) else SavedTensor.undefined()


def _as_unsigned(value):
    if type(value) is int:
        return value + 2**64 if value < 0 else value
    if type(value) is tuple:
        return tuple(_as_unsigned(v) for v in value)
    return value


def _index_tensors(indices: tuple, node=None) -> tuple:
    # Saved advanced indices show as tensors (None where a whole dimension is taken), as in PyTorch. An index
    # tensor the node kept (D.SavedIndices' sources) is given back itself, as PyTorch's SavedVariable returns the
    # tensor it saved: the same object, sharing its version counter (and raising once it was written in place).
    # (one source per array, in order; None: not saved, an inference tensor)
    sources = iter(getattr(indices, "sources", ()))
    return tuple(None if not isinstance(i, np.ndarray) else _unpacked_index(next(sources, None), i, node)
                 for i in indices)


def unpack_indices(indices: tuple, node) -> tuple:
    """``indices`` after unpacking the index tensors saved with them (D.SavedIndices), in order: PyTorch's in-place
    check of each, and its unpack hook, whose tensors the backward then indexes with."""
    sources = getattr(indices, "sources", None)
    if not sources:
        return indices
    arrays, k, changed = list(indices), 0, False
    for j, a in enumerate(indices):
        if not isinstance(a, np.ndarray):
            continue
        saved = sources[k]
        k += 1
        if saved is not None:
            hooked = saved._unpack_hook is not None
            t = saved.unpack(node, True)
            if hooked:   # (as the forward reads an index tensor: a mask as bool, integers as int64)
                arrays[j] = t._data.astype(np.bool_ if a.dtype == np.bool_ else np.int64, copy=False)
                changed = True
    if not changed:
        return indices
    from .derivatives import SavedIndices
    out = SavedIndices(arrays)
    out.sources, out.uint8 = sources, getattr(indices, "uint8", False)
    return out


def _unpacked_index(saved, array, node):
    """The index tensor ``saved`` gives back, or ``array`` as a new tensor when it saved none."""
    from ._tensor import Tensor
    return Tensor._make(array) if saved is None else saved.unpack(node)


def check_rebased_inputs(*tensors) -> None:
    """Call before an op's own argument error (an empty reduced dim, k out of range): PyTorch's VariableType collects
    the inputs' edges before its kernel checks them, so in grad mode a multi-output (or no_grad) view whose base was
    modified in place is refused first. Numbers and None among ``tensors`` are skipped."""
    if grad_mode.is_grad_enabled():
        for t in tensors:
            if (isinstance(t, Tensor) and t._creation_meta is not None and t._view_version != t._version_counter[0]
                    and t.requires_grad):
                t.grad_fn  # noqa: B018 - (its regeneration raises view_rebase_error)


def kernel_checks(check):
    """Decorator of a function holding an op's argument checks that PyTorch's kernel makes (sizes, ranks, dtypes):
    when one fails, a rebased view among its tensor arguments is refused first (check_rebased_inputs)."""
    @functools.wraps(check)
    def checked(*args, **kwargs):
        try:
            return check(*args, **kwargs)
        except (RuntimeError, IndexError):   # (a NotImplementedError is a RuntimeError)
            check_rebased_inputs(*args)
            raise
    return checked


def _check_rebased_views(op, tensors) -> None:
    """PyTorch's VariableType collects the inputs' edges before the kernel runs: a multi-output (or no_grad) view
    whose base was modified in place is refused then, before the kernel's warnings (var's degrees of freedom)."""
    for i in (range(len(tensors)) if op.list_input else op.diff_positions):
        t = tensors[i]
        if t._creation_meta is not None and t._view_version != t._version_counter[0]:
            t.grad_fn  # noqa: B018 - (its regeneration raises view_rebase_error)


def _stale_view(t, out=None) -> bool:
    """A view made before its base got a history in place (through another view: base[0].mul_(w) makes
    base[1] require grad too, as in PyTorch): its grad_fn is replayed now; whether it requires grad.

    Not when the op writes into that view and it never had a grad_fn (``_unreplayed_view``): PyTorch's
    check_inplace, which runs before the view's edge is collected, then takes it for a leaf.
    """
    if t._view_version != t._version_counter[0] and t._base._requires_grad:
        if t is out and _unreplayed_view(t):
            return True  # (_check_inplace refuses it)
        t._refresh_view_grad_fn()
    # (a view made before its base was set to require grad requires grad through it, as PyTorch's requires_grad(),
    # but has neither a grad_fn nor a gradient accumulator of its own: the op records, the view's edge is empty)
    return t._requires_grad or t._grad_fn is None and t._base._requires_grad


def _unreplayed_view(t) -> bool:
    """A view that requires grad only through its base, and whose grad_fn nothing has asked for since.

    A view made while its base did not require grad has no grad_fn (PyTorch's raw ``grad_fn_`` is null).
    Once the base gets a history in place, the view requires grad (as its base does), but PyTorch makes its
    grad_fn only when something asks for it: ``.grad_fn``, ``.is_leaf``, printing, using the view in an op
    with grad mode on, making a view of it. Until then PyTorch's C++ ``is_leaf()`` holds, so an in-place op
    on it is refused as on a leaf, and retain_grad() does nothing (``.requires_grad``, ``._version``, ``.shape``,
    ``.detach()`` ask nothing). ``_view_version`` -1: the view was written in place itself (it has one).
    """
    return (t._grad_fn is None and t._view_version != t._version_counter[0] and t._view_version != -1
            and t._base._requires_grad and t._view_fn is not None)


def _no_integer_history(outs) -> None:
    """An op on an integer tensor that requires grad (an in-place op gave it a history: x_int.masked_fill_(m, w)
    with w requiring grad): PyTorch refuses to give its integer result a grad_fn."""
    for o in outs:
        if o._data.dtype.kind in "biu":
            from ._tensor import _LEGACY_NAMES
            raise RuntimeError(f"Autograd not support dtype: {_LEGACY_NAMES[o._data.dtype.name]}")


def _record_copy_slices(op: Op, view, originals, args, edges) -> None:
    """In-place op on a view: the base's history becomes CopySlices(base history, op)."""
    from ._tensor import Tensor
    from .autograd.graph import AccumulateGrad  # noqa: F401  (kept for readers: leaves end there)
    base = view._base
    # The op's own node, as if applied out of place to the view's old value.
    tmp = Tensor._make(view._data)
    tmp._version_counter = view._version_counter  # (a saved output: a later in-place change must be caught)
    pack_later = []
    if _saved_hooks_stack:
        _hooks_tls.pack_later.append(pack_later)   # (the outputs it saves are packed below: see _HooksTLS)
        try:
            fn = op._record(originals, [tmp], args, edges)
        finally:
            _hooks_tls.pack_later.pop()
    else:
        fn = op._record(originals, [tmp], args, edges)
    # (a base that changed shape in place (t_, resize_ ...) since the view was made: the view found by address)
    if getattr(base, "_restrided", False) and not _replays_on(view, base):
        node = _OffsetCopySlices(base, view, fn)
    else:
        node = CopySlices(base, view._view_fn, fn, view)
    old_fn = base._grad_fn
    base._grad_fn, base._output_nr, base._requires_grad = node, 0, True
    base._view_version = base._version_counter[0]
    base._backward_hooks = None  # (hooks registered before stay on the old grad_fn, as in PyTorch)
    if base._retains_grad:  # retain_grad hooks follow the tensors to their new grad_fn, as in PyTorch
        base._move_retains_grad(old_fn)
    # The view now reads its values through the base.
    # Its grad_fn (AsStridedBackward0) is made when next read; PyTorch's rebase_history makes it now, after the
    # CopySlices: its sequence number is taken now (later nodes are numbered as in PyTorch), and given to it when
    # it is made, unless the base has changed again by then (PyTorch then makes another one, numbered then).
    view._view_version = -1
    view._reserved_seq = (next(_sequence), view._version_counter[0], node)   # (node: see _refresh_view_grad_fn)
    # (fn's saved output, e.g. exp_'s result: PyTorch's SavedVariable of an in-place op on a view keeps a weak
    # reference to the view's grad_fn as regenerated now, and an unpacked result gets that node as its grad_fn
    # while something (the view, a later op's graph) keeps it alive; else fn itself)
    saved_outputs = [s for s in getattr(fn, "_saved", ()) if type(s) is SavedTensor and s._is_output]
    if view._retains_grad or saved_outputs:
        view._refresh_view_grad_fn()  # (made now, not when next read: the hook moves on to it)
        node = view._grad_fn   # (a node class without weak references, see _make_node_class: fn itself then)
        for s in saved_outputs:
            s._view_grad_fn = weakref.ref(node) if node is not None and type(node).__weakrefoffset__ else None
    else:
        view._grad_fn = None
    for saved, hooks in pack_later:
        saved._pack_with(view, *hooks)


class CopySlices(Node, metaclass=CNodeNamed):
    """Gradient of an in-place op on a view: the op's gradient inside the view, identity outside."""

    __slots__ = ("_base_meta", "_view_fn", "fn", "_base_strides", "_view_geometry", "_regen")
    __module__ = "builtins"  # as PyTorch's: type(node) prints <class 'CopySlices'>
    _dir_hidden = ("fn",)   # (minigrad's handle on the op's node: PyTorch's is not a Python attribute)

    def __init__(self, base, view_fn, fn, view=None) -> None:
        super().__init__()
        base_node, base_nr = base._edge() if base._requires_grad else (None, 0)
        self.fn = fn
        self._view_fn = view_fn
        self._base_strides = base.stride()
        # (a view whose chain changes the dtype: PyTorch's view_fn, as _make_view builds it, for create_graph)
        self._regen = None if view is None else view.__dict__.get("_dtype_regen")
        # (where the view lies in the base, for create_graph: PyTorch reaches it with as_strided; not for a view
        # of another dtype (view_as_real ...), one whose chain went through one (view_as_complex(x).imag) or a
        # conjugate view (x.conj()), which are replayed)
        self._view_geometry = None if view is None or view._data.dtype != base._data.dtype or view.is_conj() or \
            view.is_neg() or self._regen is not None else (
            tuple(view.shape), view.stride(), view.storage_offset() - base.storage_offset())
        self._next_nodes = (base_node,) + fn._next_nodes[1:]
        self._next_nrs = (base_nr,) + fn._next_nrs[1:]
        self._input_meta = ((base._data.shape, base._data.dtype),) + fn._input_meta[1:]

    def _apply(self, grad_outputs: tuple) -> tuple:
        """The base's gradient: ``fn``'s gradient written into the view's region, the rest passed through."""
        if self.fn is None:   # (dropped by an earlier backward pass: PyTorch's check of its fn)
            raise RuntimeError(FREED_MESSAGE)
        grad = grad_outputs[0]
        if self._view_geometry is not None and _vmap_batched.DEPTH[0] and _vmap_batched._legacy(grad) and \
                0 in self._input_meta[0][0] and max(self._base_strides, default=0) > 0:
            # (an is_grads_batched backward into an empty base: the legacy vmap's new_empty_strided gives the batch
            # dims the stride of the base's storage size, 0, and its as_strided then refuses the layout)
            raise RuntimeError(
                "vmap: Calling Tensor.as_strided is not supported unless the batch dims being vmapped over are at "
                "the front of the tensor (in memory layout). When they are not at the front of the tensor this "
                "operation can be error prone so we actively discourage it; please file us a bug report and/or try "
                "to express the as_strided operation in terms of PyTorch view operations")
        if _STATE.enabled and self._view_geometry is not None:
            # create_graph: PyTorch's steps, whose nodes the new graph shows: the gradient copied into a tensor
            # laid out as the base (CopyBackwards), the view's region an as_strided view of it (AsStridedBackward0)
            from ._ops_extra import empty_strided
            result = _meta.follow(empty_strided(tuple(grad.shape), self._base_strides, dtype=grad.dtype), grad)
            result.copy_(grad)
            region = result.as_strided(*self._view_geometry)
        elif _STATE.enabled and self._regen is not None:
            # (create_graph through a view of another dtype: the gradient copied into a tensor laid out as the
            # base (CopyBackwards), the view replayed on it as PyTorch's view_fn does: view_as_real, as_strided)
            from ._ops_extra import empty_strided
            result = _meta.follow(empty_strided(tuple(grad.shape), self._base_strides, dtype=grad.dtype), grad)
            result.copy_(grad)
            region = self._regen(result)
        else:
            if grad.stride() == self._base_strides or grad.dim() != len(self._base_strides):
                result = grad.clone()
            else:  # (PyTorch's: the gradient laid out as the base was, so that replaying the view's ops on it
                # (a view(-1, n) of a contiguous base) finds the view's elements: new_empty_strided + copy_)
                from ._ops_extra import empty_strided
                result = _meta.follow(empty_strided(tuple(grad.shape), self._base_strides, dtype=grad.dtype), grad)
                result.copy_(grad)
            region = self._view_fn(result)
        from ._layout import contiguous_format
        res = self._fn_apply(region.clone(memory_format=contiguous_format))   # (PyTorch's: C order, always)
        if res and res[0] is not None:
            region.copy_(res[0])
        else:
            region.zero_()
        return (self._base_grad(result),) + tuple(res[1:])

    def _fn_apply(self, grad_region):
        """``fn``'s gradients; its first edge (the view's old history) counts as wanted: the base needs it."""
        wanted = _task_wanted.get(_get_ident()) if _task_wanted else None
        first = self.fn._next_node
        if wanted is None or first is None or first in wanted:
            return self.fn._apply((grad_region,))
        wanted.add(first)
        try:
            return self.fn._apply((grad_region,))
        finally:
            wanted.discard(first)

    def _base_grad(self, result):
        """``result``, or None when the base needs no gradient or an ``autograd.grad(..., inputs=...)`` pass does
        not need the base's (PyTorch's CopySlices leaves that output undefined: a post hook sees None)."""
        wanted = _task_wanted.get(_get_ident()) if _task_wanted else None
        base = self._next_nodes[0]
        return None if base is None or (wanted is not None and base not in wanted) else result

    def name(self) -> str:
        """PyTorch's node name."""
        return "torch::autograd::CopySlices"

    def _release_variables(self) -> None:
        """Drop the wrapped node (PyTorch's ``fn = nullptr``): what it saved goes with it, unless the node is
        reachable another way (a saved result's history under create_graph), which then still runs it."""
        self.fn = None


class _OffsetCopySlices(CopySlices):
    """CopySlices for a view whose base changed shape in place after the view was made.

    Replaying how the view was made would read the base's old layout; the view's elements are found
    by memory offset instead, once (``_positions``: each view element's flat index in the base).
    """

    __slots__ = ("_positions", "_view_shape")

    def __init__(self, base, view, fn) -> None:
        super().__init__(base, None, fn, view)
        self._positions = _positions_in(base._data, view._data)
        self._view_shape = view._data.shape

    def _apply(self, grad_outputs: tuple) -> tuple:
        """The base's gradient: ``fn``'s gradient at the view's positions, the rest passed through."""
        from . import derivatives as D
        if _STATE.enabled and self._view_geometry is not None and self.fn is not None:
            # create_graph: PyTorch's steps (the view's region an as_strided view of a copy laid out as the base,
            # from the view's strides as they are now), whose nodes the new graph shows
            return CopySlices._apply(self, grad_outputs)
        grad = grad_outputs[0]
        flat = grad.reshape(-1)
        at = (self._positions,)
        res = self._fn_apply(D.index(flat, indices=at).reshape(self._view_shape))
        new = res[0] if res and res[0] is not None else Tensor._make(np.zeros(self._view_shape, grad._data.dtype))
        result = D.index_put(flat, new.reshape(-1), indices=at, accumulate=False).reshape(grad.shape)
        return (self._base_grad(result),) + tuple(res[1:])


_OffsetCopySlices.__name__ = _OffsetCopySlices.__qualname__ = "CopySlices"  # (what PyTorch shows)


def _replays_on(view, base) -> bool:
    """Whether replaying how ``view`` was made on ``base`` as it is now finds the view's own memory (a view made
    after its base last changed shape in place: CopySlices replays it, a view_as_real or view(dtype) too)."""
    if view._view_fn is None:
        return False
    try:
        with grad_mode.no_grad():
            again = view._view_fn(base)._data
    except Exception:  # noqa: BLE001 - the old layout's ops do not fit the new shape: a view made before
        return False
    mine = view._data
    return (again.dtype == mine.dtype and again.shape == mine.shape and again.strides == mine.strides
            and again.__array_interface__["data"][0] == mine.__array_interface__["data"][0])


def _positions_in(base: np.ndarray, view: np.ndarray) -> np.ndarray:
    """For each element of ``view`` (in order), the flat index of the element of ``base`` at its address."""
    def addresses(a, start):
        out = np.full(a.shape, start, dtype=np.int64)
        for d, (n, st) in enumerate(zip(a.shape, a.strides)):
            out = out + (np.arange(n, dtype=np.int64) * st).reshape((n,) + (1,) * (a.ndim - d - 1))
        return out.reshape(-1)
    mine = addresses(base, 0)
    theirs = addresses(view, view.__array_interface__["data"][0] - base.__array_interface__["data"][0])
    order = np.argsort(mine, kind="stable")
    pos = order[np.minimum(np.searchsorted(mine, theirs, sorter=order), max(len(order) - 1, 0))]
    if not np.array_equal(mine[pos], theirs):
        raise RuntimeError("in-place write through a view whose memory its base no longer covers")
    return pos


# What a node shows for a saved number once its saved values are freed (OpNode._release_variables).
_FREED_NUMBER = SavedTensor(_number_tensor(0.0))
_FREED_NUMBER.release()
_FREED_LIST = SavedTensor(_number_tensor(0.0))   # (a list of saved tensors, index's indices, once freed)
_FREED_LIST.release()
