"""A seeded generator of small random autograd programs, and a runner that compares minigrad with PyTorch on them.

``generate(seed)`` writes a program as Python source lines over ``torch`` (2-4 leaves with shapes that broadcast,
then 3-8 random ops from a wide list: elementwise math (special functions, shrinks, aliases), comparisons and
``where``, reductions (nanmean, aminmax, quantile, mode, matrix norms ...), scans, softmax, views and indexing
(unflatten, tensor_split, view_as_complex ...), shape ops (diff, rot90, tile, repeat_interleave ...), cat/stack,
products (tensordot, baddbmm, addmv, addr, cdist, cross, multi_dot ...), sort/topk, gather/scatter
(select/slice/diagonal_scatter, index_reduce, put ...), norms, in-place ops on results and on their views; since
session 10 (``_Gen.extra``) also non-contiguous views (transposed, strided, expanded, permuted) handed to a random op,
complex programs through ~30 ops, integer and bool operands, tensor hooks and retain_grad, ``where`` with scalars,
in-place ops on views of views, ``out=`` (under no_grad, into fresh tensors, and the errors), dtype= of reductions,
scans and softmax), ending in a backward pass (sometimes ``create_graph=True`` and a second backward). Since session
11, programs of seeds >= ``S11_FIRST_SEED`` get 1-3 more ops (``_Gen.s11``, from a random stream of their own, so the
programs before them stay as they were): torch.linalg on well-conditioned matrices built from results (det, slogdet,
inv, solve, cholesky of SPD matrices, qr, eigh, svd, lstsq, pinv, matrix_exp, norms, cond ...), vector norms of every
ord, random einsum strings (diagonals, '...', implicit outputs, 1-3 operands), advanced indexing (index tensors,
masks, lists, take_along_dim) and writes through it (index_put_ with accumulate, x[mask] = v, x[idx] += y), dtype
conversion chains, clone/contiguous with memory formats, torch.autograd.grad and backward(inputs=...) in the middle
of a program, detach / detach_ / requires_grad_ on results, no_grad / enable_grad / set_grad_enabled /
inference_mode blocks. Since session 12, programs of seeds >= ``S12_FIRST_SEED`` get 1-3 more ops (``_Gen.s12``, from
a third stream of their own): custom autograd.Functions (save_for_backward of inputs, outputs and intermediates,
ctx attributes, mark_dirty, mark_non_differentiable, set_materialize_grads(False), once_differentiable,
needs_input_grad, None gradients, non-tensor inputs and outputs, setup_context, inputs returned as they are, wrong
gradients), torch.utils.checkpoint (reentrant or not) around short chains, saved_tensors_hooks / save_on_cpu /
disable_saved_tensors_hooks around them, tensor hooks that change gradients with retain_grad before or after,
Node.register_hook / register_prehook and post-accumulate-grad hooks, unbind/split/chunk pieces recombined, shared
subexpressions, two backward calls accumulating into .grad, is_grads_batched Jacobians, complex values reduced to
real losses, second and third derivatives mid-program. Since session 13, programs of seeds >= ``S13_FIRST_SEED`` get
1-3 more ops (``_Gen.s13``, from a fourth stream): chains of 1-4 views (narrow, select with negative indices, movedim,
unflatten, diagonal, non-overlapping unfold, split_with_sizes / unbind pieces, as_strided, view_as_real / complex,
real / imag of complex bases), each kept, written in place through the last or a middle one, then the base and the
views read again (CopySlices, regenerated grad_fns, _version, _base); retain_grad and hooks on a view and on its base
around an in-place op on either; .data / detach() writes into saved tensors; requires_grad_() mid-program (and on
integer tensors); argmax / argsort / sort / topk indices, comparisons, nonzero and where(cond) feeding gather,
take_along_dim, index_select, masks and index_put_; float16 / bfloat16 stretches; where / masked_fill / clamp with
scalars and 0-dim tensors; reductions over dim tuples with negative dims and keepdim (dim=[], repeated and out of range
dims); a student's errors (backward twice, of a non-scalar, with a gradient of the wrong shape, in-place on a leaf, a
modified saved tensor, grad of an unused input, numpy() / item() / view() misuse) caught, their type and message kept
as objects (``E<n>``) and the program going on. Since session 14, programs of seeds >= ``S14_FIRST_SEED`` get 1-3
more ops (``_Gen.s14``, from a fifth stream): complex graphs reduced to real losses (Wirtinger gradients of sgn,
polar, log, sqrt, rsqrt, conj views, det / inv / slogdet of complex matrices; abs, angle, real, imag, view_as_real),
integer-valued float ops (floor, ceil, round with decimals, trunc, sign, remainder, floor division, heaviside) and
their zero gradients, NaN and inf in forwards and gradients (the where() trap, nan_to_num, log / sqrt / division at
0, masked fills with nan / inf, nan-aware reductions), in-place ops whose operand broadcasts or promotes and their
errors (a bigger broadcast shape, results that cannot be cast back, expanded memory), 0-dim and empty tensors
through reductions, scans, views, indexing, cat / stack, sort and topk, dtype promotion with Python numbers and 0-dim
tensors (integer, bool, half, complex results; a float64 0-dim leaf's gradient), out= with tensors requiring grad,
resized or of another dtype, no_grad / inference_mode writes mid-graph (saved tensors, leaves, views made under
no_grad), embedding(sparse=True)'s sparse gradients accumulated, coalesced and stepped by SGD. The generator tracks
shapes and dtypes itself, so a program depends only on the seed, never on the library that runs it.

``record(module, program)`` runs the lines one at a time with ``torch`` bound to ``module`` and records what a user
can observe: each tensor's dtype, shape, strides, values, requires_grad, is_leaf, version; the whole graph reached
through ``next_functions`` (node names, order, ``None`` entries, which leaf each AccumulateGrad holds), every
``_saved_*`` attribute of every node and its value; warnings; the first exception (type and message); the leaves'
gradients. ``compare(mine, theirs)`` lists the differences.

``generate(seed, family="nn")`` (``_NNGen``) writes nn programs instead: 2-5 torch.nn.functional calls (linear,
bilinear, conv/conv_transpose 1d/2d, max/avg/adaptive/lp pooling, batch/layer/group/instance norm, dropout under
manual_seed, embedding, ~30 activations, 16 losses with each reduction, pad, interpolate, normalize, distances,
pixel_shuffle, unfold/fold, one_hot, scaled_dot_product_attention, affine_grid/grid_sample; 3-d convolutions,
pooling, fractional pooling, max_unpool, interpolate and grid_sample; local_response_norm, rms_norm, embedding_bag,
in-place activations, gumbel_softmax/rrelu/feature dropouts under manual_seed, margin and CTC losses, pdist,
channel_shuffle) or seeded modules (a Linear -> activation -> norm -> loss chain; RNN/LSTM/GRU and their cells,
MultiheadAttention, Transformer encoder/decoder layers in float64; clip_grad_norm_/clip_grad_value_ after a
backward of their own; weight_norm/spectral_norm parametrizations), each on fresh leaves, about one in twelve with
a deliberately wrong shape or dtype (PyTorch's error message is compared). Half of the nn programs without such an
error then get one more op from a random stream of their own (``_NNGen.op10``, so the programs before it stay as
they were): models in Sequential/ModuleList/ModuleDict (printed, parameter names, state_dict, gradients, frozen
layers, zero_grad, train/eval with dropout and batch-norm statistics), a conv net with a lazy layer, forward hook,
apply() and load_state_dict, optimizer steps with lr schedulers (get_last_lr() each step, LBFGS with a closure,
the optimizer's state and param_groups), init functions, parameters_to_vector, clip_grad_norm_ with foreach /
error_if_nonfinite, pad_sequence and packed sequences through RNNs, loss modules with class weights, ignore_index
and label smoothing, eps of normalize/distances, Embedding max_norm, in-place activations on intermediates and their
views, unfold/fold round trips. Since session 11, 40% of them then get one more op from a third stream
(``_NNGen.op11``): Conv/ConvTranspose modules (padding 'same'/'valid', reflect/replicate/circular padding, groups,
dilation, output_padding, output_size), BatchNorm/InstanceNorm modules (momentum=None, no running stats, no affine)
in train then eval mode, nn.Transformer / TransformerDecoder with masks, AdaptiveLogSoftmaxWithLoss, Bilinear,
Upsample/PixelUnshuffle/Flatten/Unflatten/ChannelShuffle modules, loss modules' reprs, a custom Module's buffers
(persistent or not), named_* and dtype casts, custom parametrizations (stacked, cached, removed), init gains and
modes, optimizers given a param group later and loaded from a state_dict, SequentialLR / ChainedScheduler / CyclicLR
loaded from a state_dict. Non-tensor results (reprs, names, learning rates, lists of tensors) are recorded
too (``Program.objs``).

``python tests/fuzz_graphs.py [first_seed] [count] [--nn]`` runs many seeds and prints each difference with its
program.
"""
from __future__ import annotations

import collections
import re
import sys
import warnings
from dataclasses import dataclass, field

import numpy as np

FLOATS = ("float32", "float64")
COMPLEX = ("complex64", "complex128")
_REAL_OF = {"complex64": "float32", "complex128": "float64"}
_CATEGORY = {"bool": 0, "int64": 1, "float32": 2, "float64": 2, "complex64": 3, "complex128": 3}


@dataclass
class V:
    """A variable of the generated program: its name and what the generator knows about it."""

    name: str
    shape: tuple
    dtype: str
    leaf: bool = False
    rg: bool = False          # may require grad
    contig: bool = True       # known contiguous (``view`` is safe)
    multi_view: bool = False  # output of unbind/split/chunk (in-place on it is an error)
    overlap: bool = False     # elements share memory (unfold with step < size): no in-place op on it (KNOWN)


@dataclass
class Program:
    """Source lines over ``torch``, the constants they read (``D[...]``) and the tensors to inspect."""

    seed: int
    lines: list = field(default_factory=list)
    data: dict = field(default_factory=dict)
    names: list = field(default_factory=list)      # variables whose tensors are recorded
    leaves: list = field(default_factory=list)
    final: list = field(default_factory=list)      # the backward lines (errors recorded separately)
    double: bool = False
    ops: list = field(default_factory=list)        # op kinds used (coverage)
    objs: list = field(default_factory=list)       # non-tensor results recorded as they are (reprs, names, lrs)

    def source(self) -> str:
        """The whole program, readable."""
        return "\n".join([*self.lines, "# backward", *self.final])


def _promote(*xs) -> str:
    """PyTorch's result dtype for tensors (V) and Python numbers: n-d tensors > 0-d tensors > numbers, by category."""
    tiers = [[], [], []]
    for x in xs:
        if isinstance(x, V):
            tiers[0 if x.shape else 1].append(x.dtype)
        elif isinstance(x, bool):
            tiers[2].append("bool")
        elif isinstance(x, int):
            tiers[2].append("int64")
        elif isinstance(x, float):
            tiers[2].append("float32")
        else:
            tiers[2].append("complex64")
    best = max((d for t in tiers for d in t), key=lambda d: _CATEGORY[d])
    cat = _CATEGORY[best]
    for t in tiers:
        ds = [d for d in t if _CATEGORY[d] == cat]
        if ds:
            if cat == 2:
                return "float64" if "float64" in ds else "float32"
            if cat == 3:
                wide = "complex128" in ds or any(d == "float64" for t2 in tiers[:1] for d in t2)
                return "complex128" if wide else "complex64"
            return ds[0]
    return best


def _floaty(dt: str) -> str:
    """The dtype a floating op gives on ``dt`` (integers become the default float32)."""
    return dt if _CATEGORY[dt] >= 2 else "float32"


def _real(dt: str) -> str:
    return _REAL_OF.get(dt, _floaty(dt))


def _bshape(*shapes):
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        return None


def _numel(shape) -> int:
    return int(np.prod(shape, dtype=np.int64))


class _Gen:
    """The state of one program being generated."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.p = Program(seed)
        self.vars: list[V] = []
        self.n = 0

    # -- helpers --------------------------------------------------------------------------------------------
    def r(self) -> float:
        return float(self.rng.random())

    def i(self, lo: int, hi: int) -> int:
        """An int in [lo, hi)."""
        return int(self.rng.integers(lo, hi))

    def pick(self, seq):
        return seq[self.i(0, len(seq))]

    def const(self, arr: np.ndarray, prefix: str = "k") -> str:
        """A ``D[...]`` name for a NumPy constant."""
        key = f"{prefix}{len(self.p.data)}"
        self.p.data[key] = arr
        return f"D[{key!r}]"

    def new(self, shape, dtype, rg, contig=True, **kw) -> V:
        v = V(f"v{self.n}", tuple(int(s) for s in shape), dtype, rg=rg, contig=contig, **kw)
        self.n += 1
        self.vars.append(v)
        self.p.names.append(v.name)
        return v

    def emit(self, kind: str, line: str) -> None:
        self.p.lines.append(line)
        self.p.ops.append(kind)

    def dim(self, x: V) -> int:
        """A random valid dim of x (negative half the time)."""
        nd = max(len(x.shape), 1)
        d = self.i(0, nd)
        return d - nd if self.r() < 0.4 else d

    def dims(self, x: V):
        """A dim, a tuple of distinct dims, or None."""
        nd = len(x.shape)
        r = self.r()
        if r < 0.15 or nd == 0:
            return None
        if r < 0.6:
            return self.dim(x)
        k = self.i(1, nd + 1)
        ds = sorted(self.rng.choice(nd, k, replace=False).tolist())
        return tuple(d - nd if self.r() < 0.3 else d for d in ds)

    @staticmethod
    def norm_dims(x: V, dims) -> list:
        nd = max(len(x.shape), 1)
        if dims is None:
            return list(range(len(x.shape)))
        if isinstance(dims, int):
            dims = (dims,)
        return sorted(d % nd for d in dims)

    @staticmethod
    def reduce_shape(x: V, dims, keepdim: bool) -> tuple:
        ds = _Gen.norm_dims(x, dims)
        if not x.shape:
            return ()
        return tuple(1 if i in ds else s for i, s in enumerate(x.shape) if keepdim or i not in ds)

    forced = None   # (a variable the next ``choose`` returns if it fits: the non-contiguous input of ``extra``)

    def choose(self, pred=lambda v: True, prefer_rg: bool = True):
        """A random existing variable satisfying ``pred`` (recent and differentiable ones preferred)."""
        if self.forced is not None:
            v, self.forced = self.forced, None
            if pred(v):
                return v
        cands = [v for v in self.vars if pred(v)]
        if not cands:
            return None
        if prefer_rg and self.r() < 0.8:
            rgc = [v for v in cands if v.rg]
            cands = rgc or cands
        if self.r() < 0.6:
            cands = cands[-3:]
        return self.pick(cands)

    def scalar(self, allow_complex: bool = False):
        r = self.r()
        if r < 0.35:
            return self.pick([2, -1, 3, 0, 1])
        if r < 0.9 or not allow_complex:
            return self.pick([0.5, -1.5, 2.0, 0.25, 3.0])
        return self.pick([1 + 2j, -0.5j])

    # -- leaves ---------------------------------------------------------------------------------------------
    def leaves(self) -> None:
        nd = self.pick([0, 1, 1, 2, 2, 2, 3, 3])
        base = [self.pick([1, 2, 3, 3, 4]) for _ in range(nd)]
        if nd and self.r() < 0.08:
            base[self.i(0, nd)] = 0
        dt0 = self.pick(["float32", "float32", "float64"])
        for k in range(self.i(2, 5)):
            shape = list(base)
            if shape and self.r() < 0.3:
                shape = shape[self.i(0, len(shape) + 1):]     # fewer leading dims
            shape = [1 if self.r() < 0.2 else s for s in shape]
            if k == 0:
                shape = list(base)
            r = self.r()
            dt = dt0 if r < 0.75 else ("float64" if dt0 == "float32" else "float32") if r < 0.9 else \
                ("complex64" if dt0 == "float32" else "complex128")
            rg = k == 0 or self.r() < 0.8
            vals = np.round(self.rng.standard_normal(shape) * 1.5, 2)
            if dt in COMPLEX:
                vals = vals + 1j * np.round(self.rng.standard_normal(shape), 2)
            name = "abcd"[k]
            v = V(name, tuple(shape), dt, leaf=True, rg=rg)
            self.vars.append(v)
            self.p.names.append(name)
            self.p.leaves.append(name)
            src = self.const(vals.astype(np.complex128 if dt in COMPLEX else np.float64), "x")
            self.emit("leaf", f"{name} = torch.tensor({src}, dtype=torch.{dt}, requires_grad={rg})")

    # -- op families ----------------------------------------------------------------------------------------
    UNARY = (  # (expression with X, allows complex, keeps float; domain-safe)
        ("torch.exp(X)", True), ("X.sin()", True), ("torch.cos(X)", True), ("X.tanh()", True),
        ("torch.sigmoid(X)", True), ("X.abs()", True), ("-X", True), ("X.neg()", True), ("X.square()", True),
        ("torch.sqrt(X.abs() + 0.5)", False), ("torch.log(X.abs() + 0.5)", False), ("X.relu()", False),
        ("torch.rsqrt(X.abs() + 1)", False), ("X.reciprocal()", True), ("torch.expm1(X)", True),
        ("torch.log1p(X.abs())", False), ("X.erf()", False), ("torch.atan(X)", True), ("X.sinh()", True),
        ("X.exp2()", False), ("torch.floor(X)", False), ("X.round()", False), ("X.trunc()", False),
        ("X.frac()", False), ("X.sign()", False), ("torch.clamp(X, -0.5, 0.8)", False),
        ("X.clamp(min=0.1)", False), ("X.clamp_max(0.3)", False), ("X.pow(2)", True), ("X ** 3", True),
        ("X.pow(0.5)", False), ("(X.abs() + 0.1) ** 1.5", False), ("2 ** X", True), ("X ** 0", True),
        ("torch.nn.functional.softplus(X)", False), ("torch.nn.functional.gelu(X)", False),
        ("torch.nn.functional.silu(X)", False), ("torch.nn.functional.leaky_relu(X, 0.1)", False),
        ("torch.nn.functional.elu(X)", False), ("torch.nn.functional.hardtanh(X)", False),
        ("torch.nn.functional.logsigmoid(X)", False), ("X.lgamma()", False), ("torch.digamma(X.abs() + 1)", False),
        ("torch.log2(X.abs() + 1)", False), ("X.conj()", True), ("X.angle()", True),
        ("X.sgn()", True), ("torch.nan_to_num(X)", False), ("X.deg2rad()", False), ("X.asinh()", True),
        ("torch.atan2(X, X.abs() + 1)", False), ("X * 2", True), ("2.5 - X", True), ("X / 3", True),
        ("1 / (X.abs() + 1)", False), ("X + True", True), ("X.clone()", True), ("X.detach()", True),
        ("X.double()", True), ("X.float()", True), ("X.to(torch.float64)", True), ("X.contiguous()", True),
        ("torch.xlogy(X, X.abs() + 1)", False), ("torch.special.expit(X)", False),
        ("torch.nn.functional.relu6(X)", False), ("torch.nn.functional.hardswish(X)", False),
        ("torch.nn.functional.mish(X)", False), ("torch.nn.functional.selu(X)", False),
        # (more elementwise ops: special functions, inverse trig on their domains, aliases, shrinks)
        ("torch.sinc(X)", False), ("torch.logit(X.sigmoid())", False), ("X.logit(0.2)", False), ("torch.i0(X)", False),
        ("torch.special.i1e(X)", False), ("X.ceil()", False), ("torch.fix(X)", False),
        ("torch.log10(X.abs() + 0.5)", False), ("torch.tan(X / 4)", True), ("X.cosh()", True),
        ("torch.asin(X.tanh() * 0.9)", False), ("torch.acos(X.tanh() * 0.9)", False),
        ("torch.atanh(X.tanh() * 0.9)", False), ("torch.acosh(X.abs() + 1.5)", False), ("torch.erfc(X)", False),
        ("torch.erfinv(X.tanh() * 0.9)", False), ("X.rad2deg()", False),
        ("torch.nan_to_num(X.log(), neginf=-5.0)", False),
        ("torch.float_power(X, 2)", True), ("torch.nn.functional.hardshrink(X, 0.5)", False),
        ("torch.nn.functional.softshrink(X)", False), ("torch.nn.functional.hardsigmoid(X)", False),
        ("torch.nn.functional.celu(X, 0.5)", False), ("torch.nn.functional.threshold(X, 0.1, 2.0)", False),
        ("torch.nn.functional.softsign(X)", False), ("torch.special.erfcx(X)", False),
        ("torch.special.log_ndtr(X)", False), ("torch.special.ndtri(X.sigmoid())", False),
        ("torch.special.entr(X)", False), ("torch.special.ndtr(X)", False), ("torch.mvlgamma(X.abs() + 2, 2)", False),
        ("torch.polygamma(1, X.abs() + 1)", False), ("torch.clip(X, -1, 1)", False), ("X.clamp_min(0.2)", False),
        ("X.positive()", True), ("torch.rsub(X, 2)", True), ("torch.negative(X)", True), ("torch.absolute(X)", True),
        ("torch.sqrt(X)", True), ("torch.special.xlog1py(X, X.abs())", False),
        ("torch.ldexp(X, torch.tensor(2))", False),
    )

    def unary(self) -> None:
        x = self.choose(lambda v: v.dtype != "bool")
        expr, cplx = self.pick(self.UNARY)
        if x.dtype in COMPLEX and not cplx:
            if self.r() < 0.9:
                return
        dt = _floaty(x.dtype)
        if expr in ("X.abs()", "X.angle()", "torch.absolute(X)") and dt in COMPLEX:
            dt = _real(dt)
        if expr == "torch.float_power(X, 2)":
            dt = "complex128" if dt in COMPLEX else "float64"
        elif expr == "X.double()" or expr == "X.to(torch.float64)":
            dt = "complex128" if dt in COMPLEX else "float64"
        elif expr == "X.float()":
            dt = "complex64" if dt in COMPLEX else "float32"
        elif expr in ("X.sign()", "X ** 0", "X.clone()", "X.detach()", "X.contiguous()", "-X", "X.neg()",
                      "X * 2", "X + True", "X.abs()", "X.pow(2)", "X ** 3", "X.square()", "X.relu()",
                      "X.positive()", "torch.negative(X)", "torch.rsub(X, 2)", "X.ceil()", "torch.fix(X)",
                      "torch.clip(X, -1, 1)") or (expr == "torch.absolute(X)" and dt not in COMPLEX):
            dt = x.dtype
        rg = x.rg and expr != "X.detach()"
        y = self.new(x.shape, dt, rg)
        self.emit("unary:" + expr, f"{y.name} = {expr.replace('X', x.name)}")

    BINARY = ("+", "-", "*", "/", "torch.add(X, Y, alpha=2)", "torch.sub(X, Y, alpha=0.5)", "torch.maximum(X, Y)",
              "torch.minimum(X, Y)", "torch.pow(X.abs() + 0.5, Y)", "torch.atan2(X, Y)", "torch.hypot(X, Y)",
              "torch.mul(X, Y)", "X.div(Y, rounding_mode='floor')", "torch.fmod(X, Y)", "torch.remainder(X, Y)",
              "torch.lerp(X, Y, 0.3)", "torch.xlogy(X, Y.abs() + 1)", "torch.copysign(X, Y)", "torch.fmax(X, Y)",
              "torch.true_divide(X, Y)", "torch.where(X > Y, X, Y)", "torch.where(Y > 0, X, 0.5)",
              "torch.addcmul(X, X, Y, value=0.5)", "torch.addcdiv(X, Y, Y.abs() + 1)", "X.clamp(min=Y)",
              "torch.clamp(X, Y - 1, Y + 1)", "torch.lerp(X, Y, Y.sigmoid())", "torch.dist(X, Y)",
              "torch.nn.functional.mse_loss(X, Y.expand_as(X))", "X.masked_fill(Y > 0, 1.5)", "X * (Y > 0)",
              "torch.logaddexp(X, Y)", "(X - Y) ** 2",
              "torch.fmin(X, Y)", "torch.logaddexp2(X, Y)", "torch.special.xlog1py(X, Y.abs())",
              "torch.rsub(X, Y, alpha=2)", "torch.float_power(X.abs() + 0.5, Y)", "X.lerp(Y, 0.7)",
              "torch.dist(X, Y, 3)", "torch.remainder(X, Y.abs() + 0.5)", "torch.divide(X, Y, rounding_mode='trunc')",
              "torch.subtract(X, Y, alpha=2)", "torch.multiply(X, Y)", "torch.clamp(X, max=Y)",
              "torch.where(X > 0, X, Y)")
    _CPLX_BINARY = {"+", "-", "*", "/", "torch.add(X, Y, alpha=2)", "torch.mul(X, Y)", "torch.true_divide(X, Y)",
                    "torch.rsub(X, Y, alpha=2)", "torch.subtract(X, Y, alpha=2)", "torch.multiply(X, Y)",
                    "torch.float_power(X.abs() + 0.5, Y)", "X.lerp(Y, 0.7)"}

    def binary(self) -> None:
        x = self.choose(lambda v: v.dtype != "bool")
        op = self.pick(self.BINARY)
        r = self.r()
        if op in ("+", "-", "*", "/") and r < 0.25:
            y = self.scalar(allow_complex=True)
            if self.r() < 0.5:
                expr, dt = f"{y!r} {op} {x.name}", _promote(x, y)
            else:
                expr, dt = f"{x.name} {op} {y!r}", _promote(x, y)
            if op == "/" and _CATEGORY[dt] < 2:
                dt = "float32"
            z = self.new(x.shape, dt, x.rg)
            self.emit("binary-scalar:" + op, f"{z.name} = {expr}")
            return
        if r < 0.35:  # an integer or bool non-leaf operand
            n = x.shape[-1] if x.shape else 1
            y = V(f"torch.arange({n})" if self.r() < 0.5 else f"(torch.arange({n}) % 2 == 0)", (n,) if x.shape
                  else (1,), "int64")
            if "==" in y.name:
                y.dtype = "bool"
        else:
            y = self.choose(lambda v: v is not x and _bshape(v.shape, x.shape) is not None and v.dtype != "bool")
            if y is None:
                y = x
        shape = _bshape(x.shape, y.shape)
        if shape is None:
            return
        if (x.dtype in COMPLEX or y.dtype in COMPLEX) and op not in self._CPLX_BINARY and self.r() < 0.9:
            return
        dt = _promote(x, y)
        if op in ("/", "torch.pow(X.abs() + 0.5, Y)", "torch.atan2(X, Y)", "torch.hypot(X, Y)",
                  "torch.lerp(X, Y, 0.3)", "torch.true_divide(X, Y)", "torch.xlogy(X, Y.abs() + 1)",
                  "torch.addcdiv(X, Y, Y.abs() + 1)", "torch.logaddexp(X, Y)", "torch.copysign(X, Y)",
                  "torch.logaddexp2(X, Y)", "torch.special.xlog1py(X, Y.abs())", "X.lerp(Y, 0.7)"):
            dt = _floaty(dt)
        if op == "torch.float_power(X.abs() + 0.5, Y)":
            dt = "complex128" if y.dtype in COMPLEX else "float64"
        if op in ("torch.dist(X, Y)", "torch.dist(X, Y, 3)"):
            shape = ()
        if op.startswith("torch.nn.functional.mse_loss"):
            if _bshape(y.shape, x.shape) != x.shape:
                return
            shape = ()
        if op in ("X.masked_fill(Y > 0, 1.5)", "X.clamp(min=Y)") and shape != x.shape:
            return
        if op == "X.masked_fill(Y > 0, 1.5)":
            dt = x.dtype
        if op == "torch.where(Y > 0, X, 0.5)":
            dt = _floaty(x.dtype)
        expr = f"{x.name} {op} {y.name}" if op in ("+", "-", "*", "/") else \
            op.replace("X", x.name).replace("Y", y.name)
        z = self.new(shape, dt, x.rg or y.rg)
        self.emit("binary:" + op, f"{z.name} = {expr}")

    def reduction(self) -> None:
        x = self.choose(lambda v: _CATEGORY[v.dtype] >= 1)
        kind = self.pick(["sum", "mean", "amax", "amin", "prod", "logsumexp", "norm", "var", "std", "nansum",
                          "max", "min", "median", "sum_all", "mean_all", "max_all", "var_mean", "count",
                          "vector_norm", "all_norm", "std_mean"])
        keep = self.r() < 0.35
        dims = self.dims(x)
        cplx = x.dtype in COMPLEX
        if cplx and kind not in ("sum", "mean", "prod", "norm", "var", "std", "sum_all", "mean_all",
                                 "vector_norm", "all_norm") and self.r() < 0.9:
            return
        kd = f", keepdim={keep}" if keep or self.r() < 0.3 else ""
        if kind in ("prod", "max", "min", "median", "logsumexp", "var_mean", "std_mean") and \
                not isinstance(dims, int) and x.shape:
            dims = self.dim(x)
        if kind in ("max", "min", "median"):
            if not x.shape:
                dims = 0
            v = self.new(self.reduce_shape(x, dims, keep), x.dtype, x.rg)
            ix = self.new(self.reduce_shape(x, dims, keep), "int64", False)
            self.emit(kind, f"{v.name}, {ix.name} = {x.name}.{kind}({dims}{kd})" if self.r() < 0.5 else
                      f"{v.name}, {ix.name} = torch.{kind}({x.name}, dim={dims}{kd})")
            return
        if kind in ("sum_all", "mean_all", "max_all", "all_norm"):
            m = {"sum_all": "sum", "mean_all": "mean", "max_all": "max", "all_norm": "norm"}[kind]
            dt = _real(x.dtype) if m == "norm" else x.dtype if m != "mean" else _floaty(x.dtype)
            v = self.new((), dt, x.rg)
            self.emit(kind, f"{v.name} = {x.name}.{m}()")
            return
        shape = self.reduce_shape(x, dims, keep)
        darg = "" if dims is None else f"{dims}"
        if kind in ("var", "std", "var_mean", "std_mean"):
            corr = self.pick(["", ", unbiased=False", ", correction=0", ", correction=2"])
            dt = _real(x.dtype)
            if kind.endswith("_mean"):
                v = self.new(shape, dt, x.rg)
                w = self.new(shape, _floaty(x.dtype), x.rg)
                self.emit(kind, f"{v.name}, {w.name} = torch.{kind}({x.name}, {darg or None}{corr}{kd})")
            else:
                v = self.new(shape, dt, x.rg)
                self.emit(kind, f"{v.name} = {x.name}.{kind}({darg or None}{corr}{kd})")
            return
        if kind in ("norm", "vector_norm"):
            p = self.pick([2, 1, 3, "float('inf')", 0.5])
            v = self.new(shape, _real(x.dtype), x.rg)
            if kind == "norm":
                self.emit(kind, f"{v.name} = {x.name}.norm({p}, {darg or None}{kd})")
            else:
                self.emit(kind, f"{v.name} = torch.linalg.vector_norm({x.name}, {p}, {darg or None}{kd})")
            return
        if kind == "count":
            v = self.new(shape, "int64", False)
            self.emit(kind, f"{v.name} = torch.count_nonzero({x.name}, {darg or None})")
            return
        dt = x.dtype
        if kind in ("mean", "logsumexp"):
            dt = _floaty(dt)
        if kind in ("sum", "prod", "nansum") and x.dtype in ("int64", "bool"):
            dt = "int64"
        if kind == "logsumexp" and darg == "":
            darg = "0" if x.shape else "()"
            shape = self.reduce_shape(x, 0, keep)
        if kind == "prod" and darg == "":
            v = self.new((), dt, x.rg)
            self.emit(kind, f"{v.name} = {x.name}.prod()")
            return
        v = self.new(shape, dt, x.rg)
        sep = ", " if darg else ""
        self.emit(kind, f"{v.name} = torch.{kind}({x.name}{sep}{darg}{kd})" if self.r() < 0.5 else
                  f"{v.name} = {x.name}.{kind}({darg}{kd})")

    def scan(self) -> None:
        x = self.choose(lambda v: _CATEGORY[v.dtype] >= 2)
        if x is None:
            return
        kind = self.pick(["cumsum", "cumprod", "logcumsumexp", "softmax", "log_softmax", "cummax", "cummin",
                          "F.softmax", "F.log_softmax", "flip", "roll", "tril", "triu"])
        d = self.dim(x) if x.shape else 0
        if x.dtype in COMPLEX and kind not in ("cumsum", "cumprod", "flip", "roll", "tril", "triu") \
                and self.r() < 0.9:
            return
        if kind in ("cummax", "cummin"):
            v = self.new(x.shape, x.dtype, x.rg)
            ix = self.new(x.shape, "int64", False)
            self.emit(kind, f"{v.name}, {ix.name} = torch.{kind}({x.name}, {d})")
            return
        if kind.startswith("F."):
            self.emit(kind, f"{self.new(x.shape, x.dtype, x.rg).name} = torch.nn.functional.{kind[2:]}({x.name}, "
                            f"dim={d})")
            return
        if kind == "flip":
            ds = self.dims(x)
            ds = (d,) if ds is None else (ds,) if isinstance(ds, int) else ds
            self.emit(kind, f"{self.new(x.shape, x.dtype, x.rg).name} = {x.name}.flip({ds})")
            return
        if kind == "roll":
            self.emit(kind, f"{self.new(x.shape, x.dtype, x.rg).name} = torch.roll({x.name}, {self.i(-2, 3)}, "
                            f"{d})")
            return
        if kind in ("tril", "triu"):
            if len(x.shape) < 2:
                return
            self.emit(kind, f"{self.new(x.shape, x.dtype, x.rg).name} = {x.name}.{kind}({self.i(-1, 2)})")
            return
        dt = self.pick(["", ", dtype=torch.float64"]) if kind in ("cumsum", "softmax", "cumprod") else ""
        out = "float64" if dt and x.dtype in FLOATS else x.dtype
        if dt and x.dtype in COMPLEX:
            dt = ""
        v = self.new(x.shape, out, x.rg)
        self.emit(kind, f"{v.name} = torch.{kind}({x.name}, {d}{dt})" if self.r() < 0.5 else
                  f"{v.name} = {x.name}.{kind}({d}{dt})")

    def view(self) -> None:
        x = self.choose(lambda v: True)
        nd = len(x.shape)
        kinds = ["reshape", "view", "transpose", "permute", "expand", "narrow", "select", "slice", "unsqueeze",
                 "squeeze", "flatten", "movedim", "unbind", "split", "chunk", "diagonal", "unfold", "t", "index1",
                 "view_as_real", "real", "mT", "view_neg", "as_strided"]
        kind = self.pick(kinds)
        sh = list(x.shape)
        name = x.name
        if kind in ("reshape", "view", "view_neg"):
            n = _numel(sh)
            opts = [(n,), (1, n), (n, 1)] + ([(sh[0], -1)] if sh else []) + ([tuple(reversed(sh))] if nd > 1
                                                                               else [])
            if n and n % 2 == 0:
                opts.append((2, n // 2))
            target = self.pick(opts)
            if kind == "view" and not x.contig and self.r() < 0.85:
                kind = "reshape"
            real = tuple(n // max(_numel([t for t in target if t != -1]), 1) if t == -1 else t for t in target)
            if kind == "view_neg":
                kind = "view"
                target = (-1,)
                real = (n,)
            v = self.new(real, x.dtype, x.rg, contig=x.contig)
            self.emit(kind, f"{v.name} = {name}.{kind}{target if len(target) > 1 else '(' + str(target[0]) + ')'}")
            return
        if kind == "transpose" and nd >= 1:
            a, b = self.dim(x), self.dim(x)
            sh[a], sh[b] = sh[b], sh[a]
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = {name}.transpose({a}, {b})")
        elif kind == "permute" and nd >= 1:
            perm = self.rng.permutation(nd).tolist()
            self.emit(kind, f"{self.new([sh[p] for p in perm], x.dtype, x.rg, contig=False).name} = "
                            f"{name}.permute({', '.join(map(str, perm))})")
        elif kind == "expand":
            new = [self.pick([2, 3]) if s == 1 else s for s in sh]
            lead = [2] if self.r() < 0.3 else []
            args = [-1 if self.r() < 0.3 and s == o else s for s, o in zip(new, sh)]
            self.emit(kind, f"{self.new(lead + new, x.dtype, x.rg, contig=False).name} = "
                            f"{name}.expand({', '.join(map(str, lead + args)) or '()'})")
        elif kind == "narrow" and nd >= 1:
            d = self.dim(x)
            size = sh[d]
            start = self.i(0, size + 1)
            length = self.i(0, size - start + 1)
            sh[d] = length
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = {name}.narrow({d}, {start}, "
                            f"{length})")
        elif kind == "select" and nd >= 1 and all(sh):
            d = self.dim(x)
            i = self.i(-sh[d], sh[d])
            del sh[d]
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = {name}.select({d}, {i})")
        elif kind == "slice" and nd >= 1:
            idx, out = [], []
            for s in sh:
                r = self.r()
                if r < 0.4:
                    idx.append(":")
                    out.append(s)
                elif r < 0.7:
                    start = self.i(-s - 1, s + 1) if s else 0
                    step = self.pick([1, 2])
                    idx.append(f"{start}::{step}")
                    out.append(len(range(s)[slice(start, None, step)]))
                elif r < 0.85 and s:
                    i = self.i(-s, s)
                    idx.append(str(i))
                else:
                    idx.append("None")
                    out.append(1)
                    idx.append(":")
                    out.append(s)
            if self.r() < 0.3:
                idx.insert(0, "...")
                idx = idx[:-1] if idx[-1] == ":" else idx
            self.emit(kind, f"{self.new(out, x.dtype, x.rg, contig=False).name} = {name}[{', '.join(idx)}]")
        elif kind == "unsqueeze":
            d = self.i(-nd - 1, nd + 1)
            sh.insert(d % (nd + 1), 1)
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=x.contig).name} = {name}.unsqueeze({d})")
        elif kind == "squeeze":
            if self.r() < 0.4 or nd == 0:
                out = [s for s in sh if s != 1]
                self.emit(kind, f"{self.new(out, x.dtype, x.rg, contig=x.contig).name} = {name}.squeeze()")
            else:
                d = self.dim(x)
                if sh[d] == 1:
                    del sh[d]
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=x.contig).name} = {name}.squeeze({d})")
        elif kind == "flatten":
            self.emit(kind, f"{self.new((_numel(sh),), x.dtype, x.rg).name} = {name}.flatten()")
        elif kind == "movedim" and nd >= 1:
            a, b = self.dim(x), self.dim(x)
            s = sh.pop(a % nd)
            sh.insert(b % nd, s)
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = torch.movedim({name}, {a}, {b})")
        elif kind in ("unbind", "split", "chunk") and nd >= 1:
            d = self.dim(x)
            size = sh[d]
            if kind == "unbind":
                if not 1 <= size <= 4:
                    return
                parts = [None] * size
                call = f"{name}.unbind({d})"
            elif kind == "split":
                k = self.i(1, 3)
                parts = [min(k, size - j) for j in range(0, size, k)] or [0]
                call = f"torch.split({name}, {k}, {d})"
            else:
                k = self.i(1, 4)
                step = -(-size // k) if size else 0
                parts = [min(step, size - j) for j in range(0, size, step)] if step else [0]
                call = f"{name}.chunk({k}, {d})"
            if len(parts) > 4:
                return
            outs = []
            for p in parts:
                s2 = list(sh)
                if p is None:
                    del s2[d]
                else:
                    s2[d] = p
                outs.append(self.new(s2, x.dtype, x.rg, contig=False, multi_view=True).name)
            self.emit(kind, f"{', '.join(outs)}, = {call}")
        elif kind == "diagonal" and nd >= 2:
            a = self.dim(x)
            b = self.dim(x)
            if a % nd == b % nd:
                return
            off = self.i(-1, 2)
            n = max(0, min(sh[a] + min(off, 0), sh[b] - max(off, 0)))
            rest = [s for i, s in enumerate(sh) if i not in (a % nd, b % nd)]
            self.emit(kind, f"{self.new(rest + [n], x.dtype, x.rg, contig=False).name} = "
                            f"{name}.diagonal({off}, {a}, {b})")
        elif kind == "unfold" and nd >= 1:
            d = self.dim(x)
            size = self.i(1, max(sh[d], 1) + 1)
            step = self.i(1, 3)
            if sh[d] < size:
                return
            cnt = (sh[d] - size) // step + 1
            sh[d] = cnt
            self.emit(kind, f"{self.new(sh + [size], x.dtype, x.rg, contig=False, overlap=step < size).name} = "
                            f"{name}.unfold({d}, {size}, {step})")
        elif kind == "t" and nd <= 2:
            self.emit(kind, f"{self.new(sh[::-1], x.dtype, x.rg, contig=nd < 2).name} = {name}.t()")
        elif kind == "mT" and nd >= 2:
            sh[-1], sh[-2] = sh[-2], sh[-1]
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = {name}.mT")
        elif kind in ("view_as_real", "real") and x.dtype in COMPLEX:
            if kind == "view_as_real":
                self.emit(kind, f"{self.new(sh + [2], _real(x.dtype), x.rg, contig=False).name} = "
                                f"torch.view_as_real({name})")
            else:
                part = self.pick(["real", "imag"])
                self.emit(kind, f"{self.new(sh, _real(x.dtype), x.rg, contig=False).name} = {name}.{part}")
        elif kind == "index1" and nd >= 1:
            self.index(x)
        elif kind == "as_strided" and x.contig and _numel(sh) >= 2:
            self.emit(kind, f"{self.new((2,), x.dtype, x.rg, contig=False).name} = "
                            f"{name}.as_strided((2,), (1,), {self.i(0, _numel(sh) - 1)})")

    def index(self, x: V) -> None:
        """Advanced indexing: integer tensors (broadcast together), masks, index_select, gather, take."""
        sh = list(x.shape)
        kind = self.pick(["int", "int2", "mask", "cmpmask", "index_select", "gather", "take", "sortgather",
                          "take_along_dim"])
        d = self.dim(x)
        if kind in ("int", "index_select") and sh[d] >= 1:
            m = self.i(1, 5)
            idx = self.rng.integers(-sh[d] if kind == "int" else 0, sh[d], m if self.r() < 0.7 else (2, 2))
            c = f"torch.tensor({self.const(idx, 'i')})"
            if kind == "int":
                pre = ", ".join([":"] * (d % len(sh)))
                out = sh[:d % len(sh)] + list(idx.shape) + sh[d % len(sh) + 1:]
                self.emit("index-int", f"{self.new(out, x.dtype, x.rg).name} = {x.name}[{pre}{', ' if pre else ''}"
                                       f"{c}]")
            else:
                idx = idx.reshape(-1)
                self.p.data[c[16:-3]] = idx
                sh[d] = idx.size
                self.emit("index_select", f"{self.new(sh, x.dtype, x.rg).name} = {x.name}.index_select({d}, {c})")
        elif kind == "int2" and len(sh) >= 2 and sh[0] and sh[1]:
            i0 = self.rng.integers(0, sh[0], (2, 1))
            i1 = self.rng.integers(-sh[1], sh[1], (3,))
            out = self.new([2, 3] + sh[2:], x.dtype, x.rg).name
            c0, c1 = self.const(i0, "i"), self.const(i1, "i")
            self.emit("index-int2", f"{out} = {x.name}[torch.tensor({c0}), torch.tensor({c1})]")
        elif kind in ("mask", "cmpmask"):
            if kind == "mask":
                mask = self.rng.random(sh) < 0.5
                m = f"torch.tensor({self.const(mask, 'm')})"
                cnt = int(mask.sum())
            else:
                if x.dtype in COMPLEX:
                    return
                m = f"({x.name} > 0)"
                cnt = None
            if cnt is None:
                # the count depends on values: keep the result for a reduction only
                out = self.new((), _floaty(x.dtype) if x.dtype != "int64" else "int64", x.rg).name
                self.emit("index-mask", f"{out} = {x.name}[{m}].sum()")
            else:
                self.emit("index-mask", f"{self.new((cnt,), x.dtype, x.rg).name} = {x.name}[{m}]")
        elif kind == "take" and _numel(sh):
            idx = self.rng.integers(-_numel(sh), _numel(sh), (2, 2))
            self.emit("take", f"{self.new((2, 2), x.dtype, x.rg).name} = torch.take({x.name}, "
                              f"torch.tensor({self.const(idx, 'i')}))")
        elif kind in ("gather", "take_along_dim") and sh[d] >= 1:
            ish = [self.i(1, s + 1) if s else 0 for s in sh]
            ish[d] = self.i(1, 4)
            idx = self.rng.integers(0, sh[d], ish)
            c = f"torch.tensor({self.const(idx, 'i')})"
            if kind == "gather":
                self.emit("gather", f"{self.new(ish, x.dtype, x.rg).name} = torch.gather({x.name}, {d}, {c})")
            else:
                idx2 = self.rng.integers(0, sh[d], [s if i != d % len(sh) else 2 for i, s in enumerate(sh)])
                self.p.data[c[16:-3]] = idx2
                self.emit("take_along_dim", f"{self.new(idx2.shape, x.dtype, x.rg).name} = "
                                            f"torch.take_along_dim({x.name}, {c}, {d})")
        elif kind == "sortgather" and x.dtype not in COMPLEX:
            y = self.choose(lambda v: v.shape == x.shape and v.dtype in FLOATS + COMPLEX and v is not x)
            if y is None:
                return
            s = self.new(sh, x.dtype, x.rg)
            ix = self.new(sh, "int64", False)
            g = self.new(sh, y.dtype, y.rg)
            self.emit("sort", f"{s.name}, {ix.name} = {x.name}.sort({d}, descending={self.r() < 0.5})")
            self.emit("gather", f"{g.name} = {y.name}.gather({d}, {ix.name})")

    def sort(self) -> None:
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1)
        if x is None:
            return
        d = self.dim(x)
        sh = list(x.shape)
        kind = self.pick(["sort", "topk", "kthvalue", "argsort", "argmax", "msort", "sort_stable"])
        if kind in ("sort", "sort_stable"):
            v, ix = self.new(sh, x.dtype, x.rg), self.new(sh, "int64", False)
            extra = ", stable=True" if kind == "sort_stable" else ""
            self.emit("sort", f"{v.name}, {ix.name} = torch.sort({x.name}, {d}, {self.r() < 0.5}{extra})")
        elif kind == "topk" and sh[d] >= 1:
            k = self.i(1, sh[d] + 1)
            sh[d] = k
            v, ix = self.new(sh, x.dtype, x.rg), self.new(sh, "int64", False)
            self.emit("topk", f"{v.name}, {ix.name} = {x.name}.topk({k}, {d}, largest={self.r() < 0.6}, "
                              f"sorted={self.r() < 0.8})")
        elif kind == "kthvalue" and sh[d] >= 1:
            k = self.i(1, sh[d] + 1)
            keep = self.r() < 0.3
            out = self.reduce_shape(x, d, keep)
            v, ix = self.new(out, x.dtype, x.rg), self.new(out, "int64", False)
            self.emit("kthvalue", f"{v.name}, {ix.name} = torch.kthvalue({x.name}, {k}, {d}, {keep})")
        elif kind == "argsort":
            self.emit("argsort", f"{self.new(sh, 'int64', False).name} = {x.name}.argsort({d})")
        elif kind == "argmax" and sh[d] >= 1:
            self.emit("argmax", f"{self.new(self.reduce_shape(x, d, False), 'int64', False).name} = "
                                f"torch.argmax({x.name}, {d})")
        elif kind == "msort":
            self.emit("msort", f"{self.new(sh, x.dtype, x.rg).name} = torch.msort({x.name})")

    def combine(self) -> None:
        x = self.choose(lambda v: v.dtype != "bool")
        kind = self.pick(["cat", "stack", "cat_self", "hstack", "mm_self", "matmul", "einsum", "bmm", "mv", "dot",
                          "outer", "trace", "addmm", "cross_outer", "kron"])
        sh = list(x.shape)
        nd = len(sh)
        if kind in ("cat", "stack", "hstack"):
            ys = [v for v in self.vars if v is not x and len(v.shape) == nd and v.dtype != "bool"]
            if kind == "stack":
                ys = [v for v in ys if v.shape == x.shape]
            if nd == 0 and kind != "stack":
                return
            d = self.dim(x) if nd else 0
            if kind == "cat" or kind == "hstack":
                ys = [v for v in ys if all(a == b for i, (a, b) in enumerate(zip(v.shape, sh)) if i != d % nd)]
            y = self.pick(ys) if ys else x
            dt = _promote(x, y) if x.shape and y.shape else x.dtype
            if x.dtype != y.dtype:
                dt = _promote(V("", (1,), x.dtype), V("", (1,), y.dtype))
            if kind == "stack":
                d = self.i(-nd - 1, nd + 1)
                out = list(sh)
                out.insert(d % (nd + 1), 2)
                self.emit(kind, f"{self.new(out, dt, x.rg or y.rg).name} = torch.stack(({x.name}, {y.name}), {d})")
            else:
                if kind == "hstack":
                    d = 0 if nd == 1 else 1
                    if nd >= 2 and y.shape[0] != sh[0]:
                        y = x
                    if nd >= 2 and any(a != b for i, (a, b) in enumerate(zip(y.shape, sh)) if i != 1):
                        y = x
                out = list(sh)
                out[d] = sh[d] + y.shape[d]
                call = f"torch.cat([{x.name}, {y.name}], {d})" if kind == "cat" else \
                    f"torch.hstack(({x.name}, {y.name}))"
                self.emit(kind, f"{self.new(out, dt, x.rg or y.rg).name} = {call}")
            return
        if kind == "cat_self":
            if nd == 0:
                return
            d = self.dim(x)
            sh[d] *= 2
            self.emit("cat", f"{self.new(sh, x.dtype, x.rg).name} = torch.cat(({x.name}, {x.name} * 2), dim={d})")
            return
        if x.dtype == "int64":
            return
        if kind == "mm_self" and nd >= 2:
            out = sh[:-1] + [sh[-2]]
            self.emit("matmul", f"{self.new(out, x.dtype, x.rg).name} = {x.name} @ {x.name}.mT")
        elif kind == "matmul" and nd >= 1:
            k = sh[-1]
            ys = [v for v in self.vars if v.dtype == x.dtype and k and _numel(v.shape) % k == 0 and _numel(v.shape)]
            if not ys:
                return
            y = self.pick(ys)
            m = _numel(y.shape) // k
            out = sh[:-1] + [m]
            call = f"torch.matmul({x.name}, {y.name}.reshape({k}, -1))" if self.r() < 0.5 else \
                f"{x.name} @ {y.name}.reshape({k}, {m})"
            self.emit("matmul", f"{self.new(out, x.dtype, x.rg or y.rg).name} = {call}")
        elif kind == "einsum" and nd >= 1:
            letters = "ijkl"[:nd]
            pat = self.pick(["self", "diag", "outer", "sumall"])
            if pat == "self":
                perm = "".join(self.rng.permutation(list(letters)))
                keep = perm[:self.i(0, nd + 1)]
                out = [sh[letters.index(c)] for c in keep]
                eq = f"{letters},{letters}->{keep}"
                self.emit("einsum", f"{self.new(out, x.dtype, x.rg).name} = torch.einsum('{eq}', {x.name}, {x.name})")
            elif pat == "outer":
                out = sh + [sh[-1]]
                eq = f"{letters},{letters[-1]}z->{letters}z"
                self.emit("einsum", f"{self.new(out, x.dtype, x.rg).name} = torch.einsum('{eq}', {x.name}, "
                                    f"torch.ones({sh[-1]}, {sh[-1]}, dtype={x.name}.dtype))")
            elif pat == "diag" and nd >= 2 and sh[0] == sh[1]:
                eq = "ii" + letters[2:] + "->i" + letters[2:]
                self.emit("einsum", f"{self.new([sh[0]] + sh[2:], x.dtype, x.rg).name} = "
                                    f"torch.einsum('{eq}', {x.name})")
            else:
                self.emit("einsum", f"{self.new((), x.dtype, x.rg).name} = torch.einsum('{letters}->', {x.name})")
        elif kind == "bmm" and nd == 3:
            self.emit("bmm", f"{self.new([sh[0], sh[1], sh[1]], x.dtype, x.rg).name} = "
                             f"torch.bmm({x.name}, {x.name}.transpose(1, 2))")
        elif kind == "mv" and nd == 2 and sh[0]:
            self.emit("mv", f"{self.new([sh[0]], x.dtype, x.rg).name} = torch.mv({x.name}, {x.name}[0])")
        elif kind == "dot":
            n = _numel(sh)
            ys = [v for v in self.vars if _numel(v.shape) == n and v.dtype == x.dtype]
            y = self.pick(ys)
            self.emit("dot", f"{self.new((), x.dtype, x.rg or y.rg).name} = torch.dot({x.name}.reshape(-1), "
                             f"{y.name}.flatten())")
        elif kind == "outer":
            y = self.choose(lambda v: v.dtype == x.dtype)
            self.emit("outer", f"{self.new((_numel(sh), _numel(y.shape)), x.dtype, x.rg or y.rg).name} = "
                               f"torch.outer({x.name}.flatten(), {y.name}.reshape(-1))")
        elif kind == "trace" and nd == 2:
            self.emit("trace", f"{self.new((), x.dtype, x.rg).name} = {x.name}.trace()")
        elif kind == "addmm" and nd == 2:
            self.emit("addmm", f"{self.new([sh[0], sh[0]], x.dtype, x.rg).name} = "
                               f"torch.addmm({x.name}[:, :1], {x.name}, {x.name}.t(), beta=0.5, alpha=2)")
        elif kind == "kron" and nd <= 2:
            y = self.choose(lambda v: len(v.shape) == nd and v.dtype == x.dtype)
            out = [a * b for a, b in zip(sh, y.shape)]
            self.emit("kron", f"{self.new(out, x.dtype, x.rg or y.rg).name} = torch.kron({x.name}, {y.name})")

    def scatter(self) -> None:
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX and len(v.shape) >= 1 and all(v.shape))
        if x is None:
            return
        sh = list(x.shape)
        d = self.dim(x)
        nd = len(sh)
        kind = self.pick(["scatter", "scatter_add", "index_add", "index_copy", "index_fill", "masked_scatter",
                          "scatter_value", "index_put", "scatter_reduce", "diag_embed", "repeat", "pad"])
        src = self.choose(lambda v: v.shape == x.shape and v.dtype == x.dtype) or x
        if kind in ("scatter", "scatter_add", "scatter_value", "scatter_reduce"):
            ish = [self.i(1, s + 1) for s in sh]
            # distinct indices along d (scatter with duplicates keeps an unspecified value)
            perm = np.argsort(self.rng.random([s if i == d % nd else ish[i] for i, s in enumerate(sh)]), axis=d)
            idx = np.take(perm, np.arange(min(ish[d], sh[d])), axis=d)
            c = f"torch.tensor({self.const(idx, 'i')})"
            if kind == "scatter":
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = "
                                f"torch.scatter({x.name}, {d}, {c}, {src.name})")
            elif kind == "scatter_add":
                idx2 = self.rng.integers(0, sh[d], idx.shape)
                self.p.data[c[16:-3]] = idx2
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = "
                                f"{x.name}.scatter_add({d}, {c}, {src.name})")
            elif kind == "scatter_reduce":
                if x.dtype in COMPLEX:
                    return
                red = self.pick(["sum", "prod", "mean", "amax", "amin"])
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = "
                                f"{x.name}.scatter_reduce({d}, {c}, {src.name}, {red!r}, "
                                f"include_self={self.r() < 0.5})")
            else:
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = {x.name}.scatter({d}, {c}, 0.5)")
        elif kind in ("index_add", "index_copy"):
            m = self.i(1, sh[d] + 1)
            idx = self.rng.permutation(sh[d])[:m] if kind == "index_copy" else self.rng.integers(0, sh[d], m)
            s2 = list(sh)
            s2[d] = m
            srcexpr = f"{src.name}.narrow({d}, 0, {m})"
            extra = ", alpha=2" if kind == "index_add" and self.r() < 0.3 else ""
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = {x.name}.{kind}({d}, "
                            f"torch.tensor({self.const(idx, 'i')}), {srcexpr}{extra})")
        elif kind == "index_fill":
            idx = self.rng.integers(0, sh[d], 2)
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = {x.name}.index_fill({d}, "
                            f"torch.tensor({self.const(idx, 'i')}), -1.0)")
        elif kind == "masked_scatter":
            mask = self.rng.random(sh) < 0.5
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = "
                            f"{x.name}.masked_scatter(torch.tensor({self.const(mask, 'm')}), {src.name})")
        elif kind == "index_put":
            idx = self.rng.integers(0, sh[0], 2)
            acc = self.r() < 0.5
            vals = self.choose(lambda v: _bshape(v.shape, [2] + sh[1:]) == tuple([2] + sh[1:])
                               and v.dtype == x.dtype)
            if vals is None:
                return
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or vals.rg).name} = {x.name}.index_put("
                            f"(torch.tensor({self.const(idx, 'i')}),), {vals.name}, accumulate={acc})")
        elif kind == "diag_embed":
            self.emit(kind, f"{self.new(sh + [sh[-1]], x.dtype, x.rg).name} = torch.diag_embed({x.name})")
        elif kind == "repeat":
            reps = [self.i(1, 3) for _ in sh]
            self.emit(kind, f"{self.new([a * b for a, b in zip(sh, reps)], x.dtype, x.rg).name} = "
                            f"{x.name}.repeat({', '.join(map(str, reps))})")
        elif kind == "pad":
            if x.dtype in COMPLEX:
                return
            lo, hi = self.i(0, 3), self.i(-1, 2)
            if sh[-1] + lo + hi < 0:
                return
            mode = "'constant'"
            sh[-1] += lo + hi
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = torch.nn.functional.pad({x.name}, ({lo}, {hi}),"
                            f" {mode}, 0.5)")

    INPLACE = ("mul_(2)", "add_(Y)", "sub_(Y, alpha=2)", "mul_(Y)", "div_(Y.abs() + 1)", "exp_()", "sigmoid_()",
               "tanh_()", "relu_()", "clamp_(-0.5, 0.5)", "zero_()", "fill_(1.5)", "neg_()", "pow_(2)",
               "copy_(Y)", "t_()", "unsqueeze_(0)", "squeeze_()", "masked_fill_(Y > 0, 0.0)", "abs_()",
               "sqrt_()", "addcmul_(Y, Y)", "lerp_(Y, 0.5)", "clamp_min_(0)", "transpose_(0, -1)", "sin_()",
               "index_add_", "scatter_", "setitem", "iadd", "detach_()", "requires_grad_()", "retain_grad()",
               "resize_", "swapdims_(0, -1)", "log_()", "reciprocal_()",
               "clamp_max_(0.3)", "floor_()", "addcdiv_(Y, Y.abs() + 1)", "hypot_(Y)", "atan2_(Y)", "copysign_(Y)",
               "fmod_(1.5)", "nan_to_num_()", "square_()", "exp2_()", "tril_()", "triu_(1)", "cumsum_(0)",
               "index_fill_", "masked_scatter_", "put_", "fill_diagonal_(2.0)", "sinc_()", "frac_()", "cos_()",
               "float_power_(2)", "div_(Y, rounding_mode='floor')", "renorm_(2, 0, 1.0)", "xlogy_(Y.abs() + 1)",
               "mul_(0.5j)", "logit_(0.1)", "erfinv_()", "index_copy_", "masked_fill_(Y < 0, Y)")
    _INPLACE_Y = ("add_(Y)", "sub_(Y, alpha=2)", "mul_(Y)", "div_(Y.abs() + 1)", "copy_(Y)", "masked_fill_(Y > 0, 0.0)",
                  "addcmul_(Y, Y)", "lerp_(Y, 0.5)", "addcdiv_(Y, Y.abs() + 1)", "hypot_(Y)", "atan2_(Y)",
                  "copysign_(Y)", "div_(Y, rounding_mode='floor')", "xlogy_(Y.abs() + 1)")
    _INPLACE_2D = ("tril_()", "triu_(1)", "fill_diagonal_(2.0)", "renorm_(2, 0, 1.0)")

    def inplace(self) -> None:
        """An in-place op on a non-leaf result, on a view of one, or (rarely: an error) on a leaf."""
        r = self.r()
        if r < 0.12:
            x = self.choose(lambda v: v.leaf)
        else:
            x = self.choose(lambda v: not v.leaf and not v.overlap)
        if x is None:
            return
        op = self.pick(self.INPLACE)
        if op in self._INPLACE_2D and len(x.shape) != 2:   # (these need a matrix: another result when there is one)
            x = self.choose(lambda v: not v.leaf and not v.overlap and len(v.shape) == 2) or x
        sh = list(x.shape)
        nd = len(sh)
        target = x.name
        if self.r() < 0.3 and nd >= 1 and sh[0] and op not in ("t_()", "unsqueeze_(0)", "squeeze_()",
                                                                 "transpose_(0, -1)", "swapdims_(0, -1)",
                                                                 "detach_()", "resize_") + \
                self._INPLACE_2D * (nd == 2):
            # on a view of x: x[0], x[1:], x.diagonal()...
            target = self.pick([f"{x.name}[0]", f"{x.name}[{sh[0] - 1}:]", f"{x.name}.narrow(0, 0, 1)",
                                f"{x.name}.select(0, -1)"])
            sub = sh[1:] if target.endswith("[0]") or "select" in target else [1] + sh[1:]
        else:
            sub = sh
        if op in self._INPLACE_2D and len(sub) != 2:
            return
        if op == "masked_fill_(Y < 0, Y)":   # (a 0-dim tensor as the value)
            y = self.choose(lambda v: v is not x and _bshape(v.shape, sub) == tuple(sub) and v.dtype in FLOATS)
            if y is None:
                return
            call, rg = f"masked_fill_({y.name} < 0, {y.name}.sum())", y.rg
        elif op in self._INPLACE_Y:
            y = self.choose(lambda v: v is not x and _bshape(v.shape, sub) == tuple(sub))
            if y is None:
                return
            if y.dtype in COMPLEX and x.dtype not in COMPLEX and self.r() < 0.8:
                return
            call = op.replace("Y", y.name)
            rg = y.rg
        else:
            call, rg = op, False
        if op == "index_add_":
            if not nd or not sh[0]:
                return
            idx = self.rng.integers(0, sh[0], 2)
            y = self.choose(lambda v: tuple(v.shape) == tuple([2] + sh[1:]))
            if y is None:
                return
            self.emit("inplace:index_add_", f"{x.name}.index_add_(0, torch.tensor({self.const(idx, 'i')}), {y.name})")
            x.rg = x.rg or y.rg
            return
        if op == "scatter_":
            if not nd or not sh[-1]:
                return
            idx = self.rng.integers(0, sh[-1], sh[:-1] + [1])
            self.emit("inplace:scatter_", f"{x.name}.scatter_(-1, torch.tensor({self.const(idx, 'i')}), 2.0)")
            return
        if op in ("index_fill_", "index_copy_", "masked_scatter_", "put_"):
            if not nd or not all(sh):
                return
            if op == "index_fill_":
                idx = self.rng.integers(0, sh[0], 2)
                self.emit("inplace:index_fill_", f"{x.name}.index_fill_(0, torch.tensor({self.const(idx, 'i')}), -2.0)")
                return
            if op == "index_copy_":
                y = self.choose(lambda v: v is not x and v.dtype == x.dtype and len(v.shape) == nd and
                                v.shape[1:] == x.shape[1:] and v.shape[0] >= 1)
            else:   # (masked_scatter_ takes as many source elements as the mask has: enough; put_ takes two)
                y = self.choose(lambda v: v is not x and v.dtype == x.dtype and
                                _numel(v.shape) >= (_numel(sh) if op == "masked_scatter_" else 2))
            if y is None or (op == "put_" and _numel(sh) < 2):
                return
            if op == "index_copy_":
                idx = self.rng.permutation(sh[0])[:1]
                self.emit("inplace:index_copy_", f"{x.name}.index_copy_(0, torch.tensor({self.const(idx, 'i')}), "
                                                 f"{y.name}[:1])")
            elif op == "masked_scatter_":
                mask = self.rng.random(sh) < 0.4
                self.emit("inplace:masked_scatter_", f"{x.name}.masked_scatter_(torch.tensor("
                                                     f"{self.const(mask, 'm')}), {y.name})")
            else:
                idx = self.rng.permutation(_numel(sh))[:2] - (_numel(sh) if self.r() < 0.3 else 0)  # (distinct)
                acc = self.r() < 0.5
                self.emit("inplace:put_", f"{x.name}.put_(torch.tensor({self.const(idx, 'i')}), "
                                          f"{y.name}.flatten()[:2], accumulate={acc})")
            x.rg = x.rg or y.rg
            return
        if op in ("setitem", "iadd"):
            if not nd or not sh[0]:
                return
            i = self.i(-sh[0], sh[0])
            if op == "iadd":
                self.emit("inplace:iadd", f"{x.name}[{i}] += 1")
            else:
                y = self.choose(lambda v: _bshape(v.shape, sh[1:]) == tuple(sh[1:]))
                val = y.name if y is not None and self.r() < 0.7 else "0.25"
                self.emit("inplace:setitem", f"{x.name}[{i}] = {val}")
                x.rg = x.rg or (y is not None and val == y.name and y.rg)
            return
        if op == "t_()" and nd > 2:
            return
        if op == "resize_":
            if not x.leaf and x.rg:
                call = f"resize_({_numel(sh)})"
            else:
                call = f"resize_({_numel(sh)})"
            x.shape = (_numel(sh),)
            x.contig = True
        if op in ("transpose_(0, -1)", "swapdims_(0, -1)") and nd == 0:
            return
        if op == "t_()" or op in ("transpose_(0, -1)", "swapdims_(0, -1)"):
            x.shape = tuple(sh[::-1]) if op == "t_()" else tuple([sh[-1]] + sh[1:-1] + [sh[0]]) if nd > 1 \
                else x.shape
            x.contig = x.contig and nd < 2
        elif op == "unsqueeze_(0)":
            x.shape = (1, *sh)
        elif op == "squeeze_()":
            x.shape = tuple(s for s in sh if s != 1)
        elif op == "detach_()":
            x.rg = False
        elif op == "requires_grad_()":
            if x.dtype not in FLOATS + COMPLEX:
                return
            x.rg = True
        x.rg = x.rg or rg
        self.emit("inplace:" + op, f"{target}.{call}")

    def nograd(self) -> None:
        """An op under ``torch.no_grad()``, or an in-place op on a leaf inside it."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        if x.leaf and self.r() < 0.5:
            self.emit("nograd-inplace", f"with torch.no_grad():\n    {x.name}.mul_(0.5)")
            return
        self.emit("nograd", f"with torch.no_grad():\n    {self.new(x.shape, x.dtype, False).name} = {x.name} * 2")

    def reduction2(self) -> None:
        """More reductions: nanmean, aminmax, nanmedian, mode, argmin, quantile, median of all, matrix norms,
        sums in another dtype, logsumexp over dim tuples, cov."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        kind = self.pick(["nanmean", "aminmax", "nanmedian", "mode", "argmin", "quantile", "median_all",
                          "matrix_norm", "sum_dtype", "logsumexp_dims", "cov", "nanmedian_all", "std_all"])
        sh, nd = list(x.shape), len(x.shape)
        keep = self.r() < 0.35
        kd = f", keepdim={keep}" if keep or self.r() < 0.3 else ""
        d = self.dim(x) if nd else 0
        if kind in ("nanmean", "sum_dtype", "logsumexp_dims"):
            dims = self.dims(x)
            if kind == "logsumexp_dims" and dims is None:
                dims = tuple(range(nd))
            shape = self.reduce_shape(x, dims, keep)
            if kind == "nanmean":
                self.emit(kind, f"{self.new(shape, x.dtype, x.rg).name} = torch.nanmean({x.name}, {dims}{kd})")
            elif kind == "sum_dtype":
                self.emit(kind, f"{self.new(shape, 'float64', x.rg).name} = {x.name}.sum({dims}{kd}, "
                                f"dtype=torch.float64)")
            else:
                self.emit(kind, f"{self.new(shape, x.dtype, x.rg).name} = torch.logsumexp({x.name}, {dims}{kd})")
        elif kind == "aminmax":
            if self.r() < 0.3 or not nd:
                lo, hi = self.new((), x.dtype, x.rg), self.new((), x.dtype, x.rg)
                self.emit(kind, f"{lo.name}, {hi.name} = torch.aminmax({x.name})")
            else:
                shape = self.reduce_shape(x, d, keep)
                lo, hi = self.new(shape, x.dtype, x.rg), self.new(shape, x.dtype, x.rg)
                self.emit(kind, f"{lo.name}, {hi.name} = {x.name}.aminmax(dim={d}{kd})")
        elif kind in ("nanmedian", "mode"):
            if nd and not sh[d]:
                return
            shape = self.reduce_shape(x, d, keep)
            v, ix = self.new(shape, x.dtype, x.rg), self.new(shape, "int64", False)
            self.emit(kind, f"{v.name}, {ix.name} = torch.{kind}({x.name}, {d}{kd})")
        elif kind == "argmin":
            if nd and not sh[d]:
                return
            self.emit(kind, f"{self.new(self.reduce_shape(x, d, keep), 'int64', False).name} = "
                            f"{x.name}.argmin({d}{kd})")
        elif kind == "quantile":
            if not _numel(sh):
                return
            interp = self.pick(["linear", "lower", "higher", "midpoint", "nearest"])
            if self.r() < 0.3:
                q = self.const(np.array([0.25, 0.8]), "q")
                self.emit(kind, f"{self.new([2] + list(self.reduce_shape(x, d, keep)), x.dtype, x.rg).name} = "
                                f"torch.quantile({x.name}, torch.tensor({q}, dtype={x.name}.dtype), {d}{kd}, "
                                f"interpolation={interp!r})")
            else:
                q = self.pick([0.3, 0.5, 0.9])
                self.emit(kind, f"{self.new(self.reduce_shape(x, d, keep), x.dtype, x.rg).name} = "
                                f"torch.quantile({x.name}, {q}, dim={d}{kd}, interpolation={interp!r})")
        elif kind in ("median_all", "nanmedian_all", "std_all"):
            m = {"median_all": "median", "nanmedian_all": "nanmedian", "std_all": "std"}[kind]
            if m != "std" and not _numel(sh):
                return
            self.emit(kind, f"{self.new((), x.dtype, x.rg).name} = {x.name}.{m}()")
        elif kind == "matrix_norm" and nd >= 2:
            o = self.pick(["'fro'", "1", "-1", "float('inf')"])
            self.emit(kind, f"{self.new(self.reduce_shape(x, (-2, -1), keep), x.dtype, x.rg).name} = "
                            f"torch.linalg.matrix_norm({x.name}, {o}{kd})")
        elif kind == "cov" and nd in (1, 2) and _numel(sh):
            n = sh[0] if nd == 2 else 1
            self.emit(kind, f"{self.new((n, n) if nd == 2 else (), x.dtype, x.rg).name} = "
                            f"torch.cov({x.name}, correction={self.pick([0, 1])})")

    def shape2(self) -> None:
        """More shape ops: diff, rot90, fliplr/flipud, renorm, tile, repeat_interleave, unflatten, swapaxes,
        moveaxis, squeeze over dim tuples, view_as/expand_as, ravel, mH/adjoint, tensor_split, split with sizes,
        broadcast_to, view_as_complex, narrow_copy, atleast_2d."""
        kind = self.pick(["diff", "rot90", "fliplr", "flipud", "renorm", "tile", "repeat_interleave", "unflatten",
                          "swapaxes", "moveaxis", "squeeze_dims", "view_as", "expand_as", "ravel", "mH", "adjoint",
                          "tensor_split", "split_sizes", "broadcast_to", "view_as_complex", "narrow_copy",
                          "atleast_2d", "imag"])
        if kind == "imag":
            x = self.choose(lambda v: v.dtype in COMPLEX)
        elif kind == "view_as_complex":
            x = self.choose(lambda v: v.dtype in FLOATS)
        else:
            x = self.choose(lambda v: v.dtype != "bool")
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        name = x.name
        d = self.dim(x) if nd else 0
        if kind == "diff" and nd:
            n = self.pick([1, 1, 2])
            extra = ""
            r = self.r()
            if r < 0.3:
                pre = list(sh)
                pre[d] = 1
                y = self.choose(lambda v: v.shape == tuple(pre) and v.dtype == x.dtype)
                extra = f", prepend={y.name}" if y is not None else ""
                if y is not None:
                    sh[d] += 1
            elif r < 0.5:
                extra = f", append={name}"
                sh[d] *= 2
            sh[d] = max(sh[d] - n, 0)
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or ', prepend=' in extra).name} = "
                            f"torch.diff({name}, {n}, {d}{extra})")
        elif kind == "rot90" and nd >= 2:
            k = self.pick([1, 2, 3, -1])
            a, b = self.pick([(0, 1), (1, 0), (-1, -2), (0, -1)])
            if k % 2:
                sh[a], sh[b] = sh[b], sh[a]
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = torch.rot90({name}, {k}, ({a}, {b}))")
        elif kind == "fliplr" and nd >= 2 or kind == "flipud" and nd >= 1:
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = torch.{kind}({name})")
        elif kind == "renorm" and nd >= 2 and x.dtype in FLOATS:
            p = self.pick([1, 2, 3, "float('inf')"])
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = {name}.renorm({p}, {d}, "
                            f"{self.pick([0.5, 1.0, 5.0])})")
        elif kind == "tile":
            reps = [self.i(1, 3) for _ in range(self.i(max(nd - 1, 0), nd + 2))] or [2]
            full = [1] * (len(reps) - nd) + sh if len(reps) >= nd else sh
            reps_full = [1] * (len(full) - len(reps)) + reps
            self.emit(kind, f"{self.new([a * b for a, b in zip(full, reps_full)], x.dtype, x.rg).name} = "
                            f"{name}.tile({tuple(reps)})")
        elif kind == "repeat_interleave" and nd:
            if self.r() < 0.5 or not sh[d]:
                k = self.i(1, 4)
                sh[d] *= k
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = {name}.repeat_interleave({k}, {d})")
            else:
                reps = self.rng.integers(0, 3, sh[d])
                sh[d] = int(reps.sum())
                self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = torch.repeat_interleave({name}, "
                                f"torch.tensor({self.const(reps, 'i')}), dim={d})")
        elif kind == "unflatten" and nd and sh[d] in (4, 6, 2):
            parts = {4: (2, 2), 6: (3, -1), 2: (1, 2)}[sh[d]]
            real = tuple(sh[d] // 3 if p == -1 else p for p in parts)
            out = self.new(sh[:d % nd] + list(real) + sh[d % nd + 1:], x.dtype, x.rg, contig=x.contig)
            self.emit(kind, f"{out.name} = {name}.unflatten({d}, {parts})")
        elif kind in ("swapaxes", "moveaxis") and nd:
            a, b = self.dim(x), self.dim(x)
            if kind == "swapaxes":
                sh[a], sh[b] = sh[b], sh[a]
            else:
                s = sh.pop(a % nd)
                sh.insert(b % nd, s)
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = torch.{kind}({name}, {a}, {b})")
        elif kind == "squeeze_dims" and nd:
            ds = self.dims(x)
            ds = (d,) if ds is None or isinstance(ds, int) else ds
            out = [s for i, s in enumerate(sh) if not (i in [e % nd for e in ds] and s == 1)]
            self.emit(kind, f"{self.new(out, x.dtype, x.rg, contig=x.contig).name} = {name}.squeeze({ds})")
        elif kind in ("view_as", "expand_as"):
            if kind == "view_as":
                y = self.choose(lambda v: _numel(v.shape) == _numel(sh) and x.contig)
            else:
                y = self.choose(lambda v: _bshape(v.shape, sh) == v.shape)
            if y is None:
                return
            self.emit(kind, f"{self.new(y.shape, x.dtype, x.rg, contig=kind == 'view_as').name} = "
                            f"{name}.{kind}({y.name})")
        elif kind == "ravel":
            self.emit(kind, f"{self.new((_numel(sh),), x.dtype, x.rg).name} = torch.ravel({name})")
        elif kind in ("mH", "adjoint") and nd >= 2:
            sh[-1], sh[-2] = sh[-2], sh[-1]
            call = f"{name}.mH" if kind == "mH" else f"torch.adjoint({name})"
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg, contig=False).name} = {call}")
        elif kind in ("tensor_split", "split_sizes") and nd:
            size = sh[d]
            if kind == "tensor_split":
                if self.r() < 0.5:
                    k = self.i(1, 4)
                    parts = [size // k + (1 if i < size % k else 0) for i in range(k)]
                    call = f"torch.tensor_split({name}, {k}, {d})"
                else:
                    cut = sorted(int(c) for c in self.rng.integers(0, size + 2, 2))
                    bounds = [0] + [min(c, size) for c in cut] + [size]
                    parts = [max(b - a, 0) for a, b in zip(bounds, bounds[1:])]
                    call = f"{name}.tensor_split({cut}, dim={d})"
            else:
                if size < 1:
                    return
                first = self.i(0, size + 1)
                parts = [first, size - first]
                call = f"{name}.split({parts}, {d})" if self.r() < 0.5 else \
                    f"torch.split_with_sizes({name}, {parts}, {d})"
            outs = []
            for p in parts:
                s2 = list(sh)
                s2[d] = p
                outs.append(self.new(s2, x.dtype, x.rg, contig=False, multi_view=True).name)
            self.emit(kind, f"{', '.join(outs)}, = {call}")
        elif kind == "broadcast_to":
            new = [self.pick([2, 3]) if s == 1 else s for s in sh]
            lead = [2] if self.r() < 0.4 else []
            self.emit(kind, f"{self.new(lead + new, x.dtype, x.rg, contig=False).name} = "
                            f"torch.broadcast_to({name}, {tuple(lead + new)})")
        elif kind == "view_as_complex" and x.dtype in FLOATS:
            dt = "complex64" if x.dtype == "float32" else "complex128"
            if nd and sh[-1] == 2 and x.contig:
                self.emit(kind, f"{self.new(sh[:-1], dt, x.rg, contig=False).name} = torch.view_as_complex({name})")
            else:   # (pairs made by a stack: contiguous, last dim 2)
                self.emit(kind, f"{self.new(sh, dt, x.rg, contig=False).name} = "
                                f"torch.view_as_complex(torch.stack(({name}, {name} * 2), -1))")
        elif kind == "narrow_copy" and nd:
            start = self.i(0, sh[d] + 1)
            length = self.i(0, sh[d] - start + 1)
            sh[d] = length
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = {name}.narrow_copy({d}, {start}, {length})")
        elif kind == "atleast_2d":
            out = sh if nd >= 2 else ([1] + sh if nd == 1 else [1, 1])
            self.emit(kind, f"{self.new(out, x.dtype, x.rg, contig=x.contig).name} = torch.atleast_2d({name})")
        elif kind == "imag" and x.dtype in COMPLEX:
            self.emit(kind, f"{self.new(sh, _real(x.dtype), x.rg, contig=False).name} = torch.imag({name})")

    def product2(self) -> None:
        """More products and combinations: tensordot, baddbmm/addbmm, addmv, addr, inner, vdot, cross, cdist,
        block_diag, multi_dot, matrix_power, complex/polar, vstack/column_stack, diag, cartesian_prod."""
        kind = self.pick(["tensordot", "baddbmm", "addbmm", "addmv", "addr", "inner", "vdot", "cross", "cdist",
                          "block_diag", "multi_dot", "matrix_power", "complex", "polar", "vstack", "column_stack",
                          "diag", "cartesian_prod"])
        ranks = {"baddbmm": (3,), "addbmm": (3,), "addmv": (2,), "addr": (1,), "cdist": (2,), "multi_dot": (2,),
                 "matrix_power": (2, 3), "cartesian_prod": (1,), "diag": (1, 2)}.get(kind, range(5))
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX and len(v.shape) in ranks and
                        (kind != "matrix_power" or v.shape[-1] == v.shape[-2]))
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        n = x.name
        same = [v for v in self.vars if v.dtype == x.dtype]
        if kind == "tensordot" and nd >= 1:
            ys = [v for v in same if len(v.shape) >= 1 and v.shape[0] == sh[-1]]
            if not ys:
                return
            y = self.pick(ys)
            out = sh[:-1] + list(y.shape[1:])
            call = f"torch.tensordot({n}, {y.name}, 1)" if self.r() < 0.5 else \
                f"torch.tensordot({n}, {y.name}, dims=([{nd - 1}], [0]))"
            self.emit(kind, f"{self.new(out, x.dtype, x.rg or y.rg).name} = {call}")
        elif kind in ("baddbmm", "addbmm") and nd == 3 and sh[0]:
            b, m, k = sh
            if self.r() < 0.5:
                kind, out = "baddbmm", [b, m, m]
                call = f"torch.baddbmm({n}[:, :, :1], {n}, {n}.mT, beta=0.5, alpha=2)"
            else:
                kind, out = "addbmm", [m, m]
                call = f"{n}[0, :, :1].addbmm({n}, {n}.transpose(1, 2), alpha=0.5)" if self.r() < 0.5 else \
                    f"torch.addbmm({n}[0, :1, :1], {n}, {n}.mT)"
            self.emit(kind, f"{self.new(out, x.dtype, x.rg).name} = {call}")
        elif kind == "addmv" and nd == 2:
            ys = [v for v in same if v.shape == (sh[1],)]
            vec = self.pick(ys).name if ys else f"{n}[0]"
            if not ys and not sh[0]:
                return
            self.emit(kind, f"{self.new([sh[0]], x.dtype, x.rg).name} = torch.addmv({n}[:, 0], {n}, {vec}, "
                            f"beta={self.pick([1, 0.5, 0])})")
        elif kind in ("addr", "inner", "vdot") and nd >= 1:
            if kind == "addr":
                ys = [v for v in same if len(v.shape) == 1]
                y = self.pick(ys) if ys else x
                if nd != 1:
                    return
                self.emit(kind, f"{self.new([sh[0], y.shape[0]], x.dtype, x.rg or y.rg).name} = "
                                f"torch.addr(torch.ones({sh[0]}, {y.shape[0]}, dtype={n}.dtype), {n}, {y.name}, "
                                f"alpha=2)")
            elif kind == "inner":
                y = self.pick([v for v in same if len(v.shape) >= 1 and v.shape[-1] == sh[-1]])
                self.emit(kind, f"{self.new(sh[:-1] + list(y.shape[:-1]), x.dtype, x.rg or y.rg).name} = "
                                f"torch.inner({n}, {y.name})")
            else:
                y = self.pick([v for v in same if _numel(v.shape) == _numel(sh)])
                self.emit(kind, f"{self.new((), x.dtype, x.rg or y.rg).name} = torch.vdot({n}.flatten(), "
                                f"{y.name}.reshape(-1))")
        elif kind == "cross" and nd >= 1 and 3 in sh:
            d = sh.index(3)
            ys = [v for v in same if _bshape(v.shape, sh) == tuple(sh)]
            y = self.pick(ys) if ys else x
            call = f"torch.linalg.cross({n}, {y.name}, dim={d})" if self.r() < 0.5 else \
                f"torch.cross({n}, {y.name}, dim={d - nd})"
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or y.rg).name} = {call}")
        elif kind == "cdist" and nd == 2 and x.dtype in FLOATS:
            ys = [v for v in same if len(v.shape) == 2 and v.shape[1] == sh[1]]
            y = self.pick(ys)
            p = self.pick([2.0, 1.0, 3.0, 0.5, "float('inf')"])
            self.emit(kind, f"{self.new([sh[0], y.shape[0]], x.dtype, x.rg or y.rg).name} = "
                            f"torch.cdist({n}, {y.name}, p={p})")
        elif kind == "block_diag" and nd <= 2:
            y = self.pick([v for v in same if len(v.shape) <= 2])
            s1 = (sh + [1, 1])[:2] if nd == 2 else [1, sh[0]] if nd == 1 else [1, 1]
            ys = list(y.shape)
            s2 = ys if len(ys) == 2 else [1, ys[0]] if len(ys) == 1 else [1, 1]
            self.emit(kind, f"{self.new([s1[0] + s2[0], s1[1] + s2[1]], x.dtype, x.rg or y.rg).name} = "
                            f"torch.block_diag({n}, {y.name})")
        elif kind == "multi_dot" and nd == 2:
            self.emit(kind, f"{self.new([sh[0], sh[0]], x.dtype, x.rg).name} = "
                            f"torch.linalg.multi_dot([{n}, {n}.mT, {n}, {n}.mT])")
        elif kind == "matrix_power" and nd >= 2 and sh[-1] == sh[-2]:
            k = self.pick([0, 1, 2, 3])
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg).name} = torch.linalg.matrix_power({n}, {k})")
        elif kind in ("complex", "polar") and x.dtype in FLOATS:
            y = self.choose(lambda v: v.dtype == x.dtype and _bshape(v.shape, sh) is not None)
            dt = "complex64" if x.dtype == "float32" else "complex128"
            call = f"torch.complex({n}, {y.name})" if kind == "complex" else f"torch.polar({n}.abs(), {y.name})"
            self.emit(kind, f"{self.new(_bshape(sh, y.shape), dt, x.rg or y.rg).name} = {call}")
        elif kind in ("vstack", "column_stack") and 1 <= nd <= 2:
            y = self.pick([v for v in same if v.shape == x.shape])
            if kind == "vstack":
                out = [2, sh[0]] if nd == 1 else [2 * sh[0], sh[1]]
            else:
                out = [sh[0], 2] if nd == 1 else [sh[0], 2 * sh[1]]
            self.emit(kind, f"{self.new(out, x.dtype, x.rg or y.rg).name} = torch.{kind}(({n}, {y.name}))")
        elif kind == "diag" and nd in (1, 2):
            k = self.pick([0, 1, -1])
            if nd == 1:
                m = sh[0] + abs(k)
                out = [m, m]
            else:
                out = [max(0, min(sh[0] + min(k, 0), sh[1] - max(k, 0)))]
            self.emit(kind, f"{self.new(out, x.dtype, x.rg).name} = torch.diag({n}, {k})")
        elif kind == "cartesian_prod" and nd == 1:
            y = self.pick([v for v in same if len(v.shape) == 1])
            self.emit(kind, f"{self.new([sh[0] * y.shape[0], 2], x.dtype, x.rg or y.rg).name} = "
                            f"torch.cartesian_prod({n}, {y.name})")

    def scatter2(self) -> None:
        """More scatters: select/slice/diagonal_scatter, index_reduce, put, masked_select, where with a source."""
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1 and all(v.shape))
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        d = self.dim(x)
        kind = self.pick(["select_scatter", "slice_scatter", "diagonal_scatter", "index_reduce", "put",
                          "masked_select"])
        n = x.name
        if kind == "select_scatter":
            sub = sh[:d % nd] + sh[d % nd + 1:]
            y = self.choose(lambda v: v.shape == tuple(sub) and v.dtype == x.dtype)
            if y is None:
                return
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or y.rg).name} = torch.select_scatter({n}, {y.name}, {d}, "
                            f"{self.i(-sh[d], sh[d])})")
        elif kind == "slice_scatter":
            start, step = self.i(0, sh[d]), self.pick([1, 2])
            sub = list(sh)
            sub[d] = len(range(start, sh[d], step))
            y = self.choose(lambda v: v.shape == tuple(sub) and v.dtype == x.dtype)
            src = y.name if y is not None else f"{n}.narrow({d}, 0, {sub[d]}).exp()" if sub[d] <= sh[d] else None
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or (y is not None and y.rg)).name} = "
                            f"{n}.slice_scatter({src}, {d}, {start}, None, {step})")
        elif kind == "diagonal_scatter" and nd >= 2:
            off = self.pick([0, 1, -1])
            m = max(0, min(sh[0] + min(off, 0), sh[1] - max(off, 0)))
            sub = sh[2:] + [m]
            y = self.choose(lambda v: v.shape == tuple(sub) and v.dtype == x.dtype)
            src = y.name if y is not None else f"torch.ones({tuple(sub)}, dtype={n}.dtype)"
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or (y is not None and y.rg)).name} = "
                            f"torch.diagonal_scatter({n}, {src}, {off})")
        elif kind == "index_reduce":
            src = self.choose(lambda v: v.shape == x.shape and v.dtype == x.dtype) or x
            m = self.i(1, sh[d] + 1)
            idx = self.rng.integers(0, sh[d], m)
            red = self.pick(["prod", "mean", "amax", "amin"])
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or src.rg).name} = {n}.index_reduce({d}, "
                            f"torch.tensor({self.const(idx, 'i')}), {src.name}.narrow({d}, 0, {m}), {red!r}, "
                            f"include_self={self.r() < 0.5})")
        elif kind == "put":
            k = min(2, _numel(sh))
            idx = self.rng.permutation(_numel(sh))[:k]
            y = self.choose(lambda v: _numel(v.shape) >= k and v.dtype == x.dtype) or x
            self.emit(kind, f"{self.new(sh, x.dtype, x.rg or y.rg).name} = torch.put({n}, torch.tensor("
                            f"{self.const(idx, 'i')}), {y.name}.flatten()[:{k}], accumulate={self.r() < 0.5})")
        elif kind == "masked_select":
            mask = self.rng.random(sh[d % nd:]) < 0.5   # (a mask that broadcasts against x)
            cnt = int(mask.sum()) * _numel(sh[:d % nd])
            self.emit(kind, f"{self.new((cnt,), x.dtype, x.rg).name} = torch.masked_select({n}, "
                            f"torch.tensor({self.const(mask, 'm')}))")

    # -- session 10: what the families above never wrote ---------------------------------------------------
    EXTRA = ("noncontig", "complex", "ints", "hook", "where", "inplace_view2", "out", "dtype_arg")
    _CPLX_UNARY = ("torch.exp(X)", "torch.log(X)", "X.rsqrt()", "torch.sqrt(X)", "X.conj_physical()", "X.sigmoid()",
                   "torch.tanh(X)", "X * X.conj()", "X.reciprocal()", "torch.sgn(X)", "X / (X.abs() + 1)",
                   "torch.asinh(X)", "torch.atan(X)", "X.pow(2)", "X.cumsum(0)", "X.cumprod(-1)", "X.sum(0)",
                   "X.mean(-1)", "X.prod()", "X.mT @ X", "torch.acos(X)", "X.tan()", "X.log1p()", "X.expm1()",
                   "torch.square(X)", "X.flip(0)", "torch.linalg.vector_norm(X)", "X.angle()", "X.abs()",
                   "torch.real(X) * torch.imag(X)", "X.exp().log()", "torch.var(X)", "torch.std(X, 0)")
    _INT_BINARY = ("X * I", "X + I", "I - X", "X / I", "X ** I", "torch.maximum(X, I)", "torch.where(B, X, I)",
                   "X.masked_fill(B, 0.5)", "X * B", "torch.add(X, I, alpha=2)", "I.float() * X", "X.clamp(min=I)",
                   "torch.fmod(X, I)", "X // I", "torch.where(B, I, X)", "X - B.double()",
                   "torch.lerp(X, I.to(X.dtype), 0.5)")
    _WHERE = ("torch.where(X > 0, 1.5, X)", "torch.where(X > 0, X, 0)", "torch.where(X > 0, 2, -1)",
              "torch.where(X > 0, 2.0, -1)", "X.where(X > 0, 0.0)", "torch.where(X > 0, X, torch.tensor(0.5))",
              "torch.where(X > 0, torch.tensor(1.0, dtype=torch.float64), X)", "torch.where(X > 0, X, True)",
              "torch.where(X > 0, 1j, X)", "X.where(X < 0, X * 2)")

    def extra(self) -> None:
        """Non-contiguous inputs into a random op, complex programs, integer and bool operands, hooks,
        ``where`` with scalars, in-place ops on views of views, ``out=``, dtype= of reductions and scans."""
        kind = self.pick(self.EXTRA)
        getattr(self, "x_" + kind)()

    def x_noncontig(self) -> None:
        """A transposed, sliced, expanded or flipped-stride view handed to the next op (through ``forced``)."""
        x = self.choose(lambda v: len(v.shape) >= 1 and _numel(v.shape) > 0)
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        r = self.r()
        if nd >= 2 and r < 0.35:
            v = self.new(sh[:-2] + [sh[-1], sh[-2]], x.dtype, x.rg, contig=False)
            self.emit("extra:noncontig", f"{v.name} = {x.name}.mT")
        elif r < 0.6 and sh[-1] >= 2:
            v = self.new(sh[:-1] + [len(range(0, sh[-1], 2))], x.dtype, x.rg, contig=False)
            self.emit("extra:noncontig", f"{v.name} = {x.name}[..., ::2]")
        elif r < 0.8:
            v = self.new([2] + sh, x.dtype, x.rg, contig=False)
            self.emit("extra:noncontig", f"{v.name} = {x.name}.expand(2, {', '.join(map(str, sh))})")
        else:
            perm = list(range(nd))[::-1]
            v = self.new([sh[p] for p in perm], x.dtype, x.rg, contig=nd < 2)
            self.emit("extra:noncontig", f"{v.name} = {x.name}.permute({', '.join(map(str, perm))})")
        self.forced = v
        fam = self.pick(["unary", "binary", "reduction", "scan", "sort", "combine", "scatter", "reduction2",
                         "shape2", "product2", "scatter2", "inplace", "x_complex", "x_dtype_arg", "x_where"])
        getattr(self, fam)()
        self.forced = None

    def x_complex(self) -> None:
        """A complex-valued op (a complex result of a real one first, when there is no complex variable)."""
        x = self.choose(lambda v: v.dtype in COMPLEX)
        if x is None or self.r() < 0.3:
            f = self.choose(lambda v: v.dtype in FLOATS)
            if f is None:
                return
            dt = "complex64" if f.dtype == "float32" else "complex128"
            x = self.new(f.shape, dt, f.rg, contig=f.contig)
            how = self.pick([f"torch.complex({f.name}, {f.name} * 0.5)", f"{f.name} * (1 + 0.5j)",
                             f"{f.name}.to(torch.{dt})", f"torch.polar({f.name}.abs() + 0.1, {f.name})"])
            self.emit("extra:to_complex", f"{x.name} = {how}")
        expr = self.pick(self._CPLX_UNARY)
        sh = list(x.shape)
        if expr == "X.mT @ X":
            if len(sh) != 2:
                return
            out, dt = [sh[1], sh[1]], x.dtype
        elif expr in ("X.cumsum(0)", "X.cumprod(-1)", "X.flip(0)", "X.sum(0)", "X.mean(-1)", "torch.std(X, 0)"):
            if not sh:
                return
            out, dt = (sh if expr in ("X.cumsum(0)", "X.cumprod(-1)", "X.flip(0)") else
                       sh[1:] if expr in ("X.sum(0)", "torch.std(X, 0)") else sh[:-1]), x.dtype
            if expr == "torch.std(X, 0)":
                dt = _real(x.dtype)
        elif expr in ("X.prod()", "torch.linalg.vector_norm(X)", "torch.var(X)"):
            out, dt = [], x.dtype if expr == "X.prod()" else _real(x.dtype)
        elif expr in ("X.angle()", "X.abs()", "torch.real(X) * torch.imag(X)"):
            out, dt = sh, _real(x.dtype)
        else:
            out, dt = sh, x.dtype
        self.emit("extra:complex", f"{self.new(out, dt, x.rg).name} = {expr.replace('X', x.name)}")

    def x_ints(self) -> None:
        """An integer or bool leaf (no grad) mixed into a floating op."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        sh = list(x.shape)
        if sh and self.r() < 0.3:
            sh = sh[1:]   # (broadcast from fewer dims)
        name = f"i{self.n}"
        self.n += 1
        ints = self.rng.integers(1, 4, sh)
        bools = self.rng.random(sh) < 0.5
        expr = self.pick(self._INT_BINARY)
        if expr == "X.clamp(min=I)" and tuple(sh) != x.shape:
            return
        if expr == "X.masked_fill(B, 0.5)" and tuple(sh) != x.shape:
            return
        lines = []
        if "I" in expr:
            lines.append(f"{name} = torch.tensor({self.const(ints, 'n')})")
        if "B" in expr:
            lines.append(f"{name}b = torch.tensor({self.const(bools, 'm')})")
        shape = _bshape(x.shape, tuple(sh))
        dt = x.dtype
        if expr == "I.float() * X":
            dt = _promote(x, V("", (1,), "float32"))
        if expr == "X - B.double()":
            dt = "float64"
        code = expr.replace("X", x.name).replace("B", f"{name}b").replace("I", name)
        self.emit("extra:ints", "\n".join(lines + [f"{self.new(shape, dt, x.rg).name} = {code}"]))

    def x_hook(self) -> None:
        """A tensor hook on an intermediate (or a leaf): one that changes the gradient, one that only reads it."""
        x = self.choose(lambda v: v.rg and v.dtype in FLOATS + COMPLEX)
        if x is None:
            return
        fn = self.pick(["lambda g: g * 2", "lambda g: None", "lambda g: g.clamp(-1, 1)", "lambda g: g + 1",
                        "lambda g: g.sum() * torch.ones_like(g)"])
        if x.leaf or self.r() < 0.3:
            self.emit("extra:retain_grad", f"{x.name}.retain_grad()")
        # (x's grad_fn read first: PyTorch 2.13 crashes (segfault) registering a hook on a view whose base was
        # written in place since, before anything regenerated the view's grad_fn; seed 300121)
        self.emit("extra:hook", f"_gf = {x.name}.grad_fn\n_h = {x.name}.register_hook({fn})")

    def x_where(self) -> None:
        """torch.where with Python scalars and 0-dim tensors on either side."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        expr = self.pick(self._WHERE)
        dt = x.dtype
        if expr in ("torch.where(X > 0, 2, -1)",):
            dt = "int64"
        elif expr == "torch.where(X > 0, 2.0, -1)":
            dt = "float32"
        elif expr == "torch.where(X > 0, 1j, X)":
            dt = "complex64" if x.dtype == "float32" else "complex128"
        elif "dtype=torch.float64" in expr and not x.shape:
            dt = "float64"
        rg = x.rg and dt not in ("int64",) and expr != "torch.where(X > 0, 2.0, -1)"
        self.emit("extra:where", f"{self.new(x.shape, dt, rg).name} = {expr.replace('X', x.name)}")

    def x_inplace_view2(self) -> None:
        """An in-place op on a view of a view of a result (x[0][1:], x.t()[0], x.unsqueeze(0)[0, :1] ...)."""
        x = self.choose(lambda v: not v.leaf and not v.overlap and not v.multi_view and len(v.shape) >= 1
                        and all(v.shape) and v.dtype in FLOATS + COMPLEX, prefer_rg=True)
        if x is None:
            if self.r() < 0.1:   # (a view of a view of a leaf: PyTorch's error)
                x = self.choose(lambda v: v.leaf and v.rg and len(v.shape) >= 1 and all(v.shape))
            if x is None:
                return
        nd = len(x.shape)
        views = [f"{x.name}.unsqueeze(0)[0]", f"{x.name}[-1:][0]" if nd >= 1 else None,
                 f"{x.name}.narrow(0, 0, 1)[0]", f"{x.name}[None][:, -1]"]
        if nd >= 2:
            views += [f"{x.name}[0][1:]", f"{x.name}.t()[0]" if nd == 2 else f"{x.name}.mT[0]",
                      f"{x.name}[:, :1].diagonal()" if nd == 2 else f"{x.name}[0].diagonal()",
                      f"{x.name}.transpose(0, 1)[-1, ::2]"]
        target = self.pick([v for v in views if v])
        op = self.pick(["mul_(2)", "add_(1.5)", "zero_()", "exp_()", "clamp_(-1, 1)", "neg_()", "sub_(0.5)",
                        "fill_(0.25)", "div_(3)", "sqrt_()" if x.dtype in COMPLEX else "abs_()"])
        self.emit("extra:inplace_view2", f"{target}.{op}")

    def x_out(self) -> None:
        """``out=``: under no_grad into a result, into a fresh tensor from detached inputs, or (an error) from
        inputs that require grad or into a leaf that requires grad."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        sh = tuple(x.shape)
        call = self.pick(["torch.add({x}, {x}, alpha=2, out={o})", "torch.mul({x}, 2, out={o})",
                          "torch.exp({x}, out={o})", "torch.sin({x}, out={o})", "torch.clamp({x}, -1, 1, out={o})",
                          "torch.sub({x}, 0.5, out={o})", "torch.where({x} > 0, {x}, {x} * 0, out={o})",
                          "torch.neg({x}, out={o})", "torch.sigmoid({x}, out={o})"])
        r = self.r()
        if r < 0.4:   # into an existing result of the same shape and dtype, under no_grad (a version bump)
            o = self.choose(lambda v: v.shape == sh and v.dtype == x.dtype and not v.leaf and not v.multi_view
                            and not v.overlap and v is not x)
            if o is None:
                return
            self.emit("extra:out", f"with torch.no_grad():\n    {call.format(x=x.name, o=o.name)}")
        elif r < 0.75:   # a fresh out (or an empty one, resized) from a detached input
            o = self.new(sh, x.dtype, False)
            size = "0" if self.r() < 0.3 else ", ".join(map(str, sh)) or "()"
            self.emit("extra:out", f"{o.name} = torch.empty({size}, dtype=torch.{x.dtype})\n"
                                   f"{call.format(x=x.name + '.detach()', o=o.name)}")
        elif r < 0.9:   # inputs that require grad: PyTorch refuses out= (an error ends the program)
            if not x.rg:
                return
            # (not recorded: PyTorch leaves it uninitialized)
            self.emit("extra:out_error", f"_o = torch.empty({', '.join(map(str, sh)) or '()'}, "
                                         f"dtype=torch.{x.dtype})\n{call.format(x=x.name, o='_o')}")
        else:   # into a leaf that requires grad
            o = self.choose(lambda v: v.leaf and v.rg and v.shape == sh and v.dtype == x.dtype)
            if o is None:
                return
            self.emit("extra:out_error", call.format(x=x.name + ".detach()", o=o.name))

    def x_dtype_arg(self) -> None:
        """A reduction, scan or softmax given dtype= (also on integer and bool tensors)."""
        x = self.choose(lambda v: v.dtype in FLOATS + ("int64",))
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        d = self.dim(x) if nd else 0
        to = self.pick(["float64", "float64", "float32"])
        src = x.name
        if self.r() < 0.15:   # (integer or bool operands: only the dtype makes them floating)
            src = f"({x.name} > 0)" if self.r() < 0.5 else f"{x.name}.long()"
        kind = self.pick(["sum", "mean", "prod", "nansum", "cumsum", "cumprod", "softmax", "log_softmax",
                          "F.softmax", "F.log_softmax", "sum_all", "mean_all", "prod_all", "vector_norm", "norm"])
        rg = x.rg and src == x.name
        if kind in ("sum_all", "mean_all", "prod_all"):
            m = kind[:-4]
            if m == "mean" and src != x.name:
                return
            self.emit("extra:dtype_arg", f"{self.new((), to, rg).name} = {src}.{m}(dtype=torch.{to})")
            return
        if kind in ("vector_norm", "norm"):
            if src != x.name:
                return
            if kind == "norm":
                self.emit("extra:dtype_arg", f"{self.new((), to, rg).name} = torch.norm({src}, dtype=torch.{to})")
            else:
                keep = self.r() < 0.3
                self.emit("extra:dtype_arg", f"{self.new(self.reduce_shape(x, d, keep), to, rg).name} = "
                                             f"torch.linalg.vector_norm({src}, 2, {d}, {keep}, dtype=torch.{to})")
            return
        if kind in ("mean",) and src != x.name:
            return
        if kind in ("sum", "mean", "prod", "nansum"):
            keep = self.r() < 0.3
            out = self.reduce_shape(x, d, keep)
            call = f"torch.{kind}({src}, {d}, keepdim={keep}, dtype=torch.{to})" if kind != "prod" or self.r() < 0.5 \
                else f"{src}.prod({d}, {keep}, dtype=torch.{to})"
            self.emit("extra:dtype_arg", f"{self.new(out, to, rg).name} = {call}")
            return
        fn = f"torch.nn.functional.{kind[2:]}" if kind.startswith("F.") else f"torch.{kind}"
        self.emit("extra:dtype_arg", f"{self.new(sh, to, rg).name} = {fn}({src}, {d}, dtype=torch.{to})")

    # -- session 11 (appended to programs of seeds >= S11_FIRST_SEED, from a random stream of their own: see
    # generate): linalg in graphs, einsum strings, advanced indexing, dtype conversion chains, memory formats,
    # autograd.grad / backward(inputs=) in the middle of a program, detach / requires_grad_, grad-mode blocks ------
    S11 = (("linalg", 5), ("vnorm", 2), ("einsum", 3), ("adv_index", 4), ("adv_put", 2), ("dtype_chain", 2),
           ("memfmt", 2), ("mid_grad", 3), ("mid_backward", 2), ("detach", 2), ("grad_mode", 2))

    def s11(self) -> None:
        """One op of the session-11 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.S11]
        w = np.array([w for _, w in self.S11], float)
        getattr(self, "y_" + names[int(self.rng.choice(len(names), p=w / w.sum()))])()

    def _square(self):
        """A well-conditioned (batch of) k x k matrix made from an existing float result: (V, k, batch shape)."""
        x = self.choose(lambda v: v.dtype in FLOATS and _numel(v.shape) > 0)
        if x is None:
            return None
        sh = list(x.shape)
        if len(sh) >= 2 and min(sh[-2:]) >= 2 and self.r() < 0.7:
            k = min(sh[-2:])
            batch, part = sh[:-2], f"{x.name}[..., :{k}, :{k}]"
        else:
            k = min(self.pick([2, 3]), _numel(sh))
            batch, part = [], f"{x.name}.flatten()[:{k}].outer({x.name}.flatten()[-{k}:])"
        # (bounded entries plus a fixed, diagonally dominant matrix with distinct values: no degenerate spectrum)
        c = np.round((k + 1) * np.eye(k) + 0.4 * self.rng.standard_normal((k, k)), 2)
        squash = self.pick(["torch.tanh({})", "({}).sin()", "torch.nn.functional.softsign({})"])
        m = self.new(batch + [k, k], x.dtype, x.rg)
        self.emit("s11:square", f"{m.name} = {squash.format(part)} + torch.tensor({self.const(c, 'c')}, "
                                f"dtype=torch.{x.dtype})")
        return m, k, batch

    def _rhs(self, k: int, dt: str, cols: int):
        """A right-hand side with k rows (1-d when cols == 0) from an existing float result, or a constant."""
        y = self.choose(lambda v: v.dtype in FLOATS and _numel(v.shape) >= k * max(cols, 1))
        n = k * max(cols, 1)
        shape = (k, cols) if cols else (k,)
        if y is None or self.r() < 0.2:
            return f"torch.tensor({self.const(np.round(self.rng.standard_normal(shape), 2), 'b')}, " \
                   f"dtype=torch.{dt})", False
        src = f"{y.name}.flatten()[:{n}]" + (f".reshape({k}, {cols})" if cols else "")
        return (src if y.dtype == dt else f"{src}.to(torch.{dt})"), y.rg

    LINALG = ("det", "slogdet", "logdet", "inv", "inv_ex", "solve", "solve_left", "cholesky", "cholesky_upper",
              "cholesky_ex", "qr", "qr_complete", "qr_r", "eigh", "eigvalsh", "svd", "svdvals", "lstsq", "pinv",
              "pinv_herm", "matrix_exp", "matrix_power", "matrix_norm", "norm", "cond", "solve_triangular",
              "cholesky_solve", "lu_solve", "cholesky_inverse", "matrix_rank", "multi_dot", "vecdot", "cross")

    def y_linalg(self) -> None:
        """torch.linalg on a well-conditioned square matrix (SPD for cholesky, symmetric for eigh)."""
        sq = self._square()
        if sq is None:
            return
        m, k, batch = sq
        M, dt, rg = m.name, m.dtype, m.rg
        kind = self.pick(self.LINALG)
        out = lambda shape, rg_=rg, dt_=dt: self.new(shape, dt_, rg_).name   # noqa: E731
        emit = lambda line: self.emit("linalg:" + kind, line)   # noqa: E731
        b = list(batch)
        if kind in ("cholesky", "cholesky_upper", "cholesky_ex", "cholesky_solve", "cholesky_inverse", "eigh",
                    "eigvalsh", "pinv_herm"):
            a = self.new(b + [k, k], dt, rg)
            sym = "+" if kind in ("eigh", "eigvalsh", "pinv_herm") and self.r() < 0.5 else "@"
            self.emit("s11:spd", f"{a.name} = {M} {sym} {M}.mT")
            M = a.name
        if kind == "det":
            emit(f"{out(b)} = torch.linalg.det({M})" if self.r() < 0.5 else f"{out(b)} = {M}.det()")
        elif kind == "slogdet":
            emit(f"{out(b, False)}, {out(b)} = torch.linalg.slogdet({M})")
        elif kind == "logdet":
            emit(f"{out(b)} = torch.logdet({M} @ {M}.mT)")
        elif kind == "inv":
            emit(f"{out(b + [k, k])} = torch.linalg.inv({M})" if self.r() < 0.6 else f"{out(b + [k, k])} = "
                 f"{M}.inverse()")
        elif kind == "inv_ex":
            emit(f"{out(b + [k, k])}, {out(b, False, 'int32')} = torch.linalg.inv_ex({M})")
        elif kind in ("solve", "solve_left", "lstsq", "solve_triangular", "cholesky_solve", "lu_solve"):
            cols = self.pick([0, 1, 2]) if kind in ("solve",) else self.pick([1, 2])
            B, brg = self._rhs(k, dt, cols)
            res = b + ([k] if not cols else [k, cols])
            if kind == "solve":
                emit(f"{out(res, rg or brg)} = torch.linalg.solve({M}, {B})")
            elif kind == "solve_left":   # (X A = B: B is (cols, k))
                emit(f"{out(b + [cols, k], rg or brg)} = torch.linalg.solve({M}, {B}.mT, left=False)")
            elif kind == "lstsq":
                emit(f"{out(res, rg or brg)} = torch.linalg.lstsq({M}, {B}).solution")
            elif kind == "solve_triangular":
                up = self.r() < 0.5
                tri = f"{M}.triu()" if up else f"{M}.tril()"
                emit(f"{out(res, rg or brg)} = torch.linalg.solve_triangular({tri}, {B}, upper={up}"
                     f"{', unitriangular=True' if self.r() < 0.2 else ''})")
            elif kind == "cholesky_solve":
                emit(f"{out(res, rg or brg)} = torch.cholesky_solve({B}, torch.linalg.cholesky({M}))")
            else:
                self.emit("s11:lu_factor", f"_LU, _piv = torch.linalg.lu_factor({M})")
                emit(f"{out(res, rg or brg)} = torch.linalg.lu_solve(_LU, _piv, {B})")
        elif kind == "cholesky":
            emit(f"{out(b + [k, k])} = torch.linalg.cholesky({M})")
        elif kind == "cholesky_upper":
            emit(f"{out(b + [k, k])} = torch.linalg.cholesky({M}, upper=True)")
        elif kind == "cholesky_ex":
            emit(f"{out(b + [k, k])}, {out(b, False, 'int32')} = torch.linalg.cholesky_ex({M})")
        elif kind == "cholesky_inverse":
            emit(f"{out(b + [k, k])} = torch.cholesky_inverse(torch.linalg.cholesky({M}))")
        elif kind in ("qr", "qr_complete"):
            mode = "'reduced'" if kind == "qr" else "'complete'"
            emit(f"{out(b + [k, k])}, {out(b + [k, k])} = torch.linalg.qr({M}, mode={mode})")
        elif kind == "qr_r":   # (mode='r': no Q, and backward through R then refuses)
            emit(f"_q, {out(b + [k, k])} = torch.linalg.qr({M}, mode='r')")
        elif kind == "eigh":   # (eigenvectors' signs are arbitrary: their squares are not)
            lam, q = out(b + [k]), self.new(b + [k, k], dt, rg)
            emit(f"{lam}, _Q = torch.linalg.eigh({M}{', UPLO=' + repr('U') if self.r() < 0.3 else ''})\n"
                 f"{q.name} = _Q.pow(2)")
        elif kind == "eigvalsh":
            emit(f"{out(b + [k])} = torch.linalg.eigvalsh({M})")
        elif kind == "svd":   # (U Vh, the polar factor, does not depend on the singular vectors' signs)
            s, uv = out(b + [k]), out(b + [k, k])
            emit(f"_U, {s}, _Vh = torch.linalg.svd({M}, full_matrices=False)\n{uv} = _U @ _Vh")
        elif kind == "svdvals":
            emit(f"{out(b + [k])} = torch.linalg.svdvals({M})")
        elif kind in ("pinv", "pinv_herm"):
            emit(f"{out(b + [k, k])} = torch.linalg.pinv({M}{', hermitian=True' if kind == 'pinv_herm' else ''})")
        elif kind == "matrix_exp":
            emit(f"{out(b + [k, k])} = torch.linalg.matrix_exp({M} / {k + 1})")
        elif kind == "matrix_power":
            emit(f"{out(b + [k, k])} = torch.linalg.matrix_power({M}, {self.pick([-2, -1, 0, 1, 3])})")
        elif kind in ("matrix_norm", "norm"):
            o = self.pick(["'fro'", "'nuc'", "2", "-2", "1", "-1", "float('inf')", "-float('inf')"])
            keep = self.r() < 0.3
            res = b + [1, 1] if keep else b
            fn = "matrix_norm" if kind == "matrix_norm" else "norm"
            emit(f"{out(res)} = torch.linalg.{fn}({M}, {o}{', keepdim=True' if keep else ''})")
        elif kind == "cond":
            emit(f"{out(b)} = torch.linalg.cond({M}{', ' + repr(self.pick(['fro', 'nuc'])) if self.r() < 0.4 else ''})")
        elif kind == "matrix_rank":
            emit(f"{out(b, False, 'int64')} = torch.linalg.matrix_rank({M})")
        elif kind == "multi_dot":
            emit(f"{out([k, k])} = torch.linalg.multi_dot([{M}.reshape(-1, {k}, {k})[0], {M}.reshape(-1, {k}, {k})"
                 f"[-1].mT, {M}.reshape(-1, {k}, {k})[0]])")
        elif kind == "vecdot":
            emit(f"{out(b + [k])} = torch.linalg.vecdot({M}, {M}.mT{', dim=-2' if self.r() < 0.4 else ''})")
        else:
            if k != 3:
                return
            emit(f"{out(b + [k, k])} = torch.linalg.cross({M}, {M}.flip(-1), dim={self.pick([-1, -2])})")

    def y_vnorm(self) -> None:
        """torch.linalg.vector_norm / torch.norm with every ord (0, ±inf, negative, fractional), dims tuples."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX)
        if x is None:
            return
        o = self.pick(["0", "1", "2", "float('inf')", "-float('inf')", "-1", "0.5", "3", "-2", "1.5"])
        dims = self.dims(x)
        keep = self.r() < 0.3
        out = self.new(self.reduce_shape(x, dims, keep), _real(x.dtype), x.rg)
        if self.r() < 0.7:
            self.emit("vnorm", f"{out.name} = torch.linalg.vector_norm({x.name}, {o}, {dims}, {keep})")
        elif dims is None or isinstance(dims, int) or len(dims) <= 2:
            self.emit("vnorm", f"{out.name} = torch.norm({x.name}, {o}, {dims}, {keep})")

    def y_einsum(self) -> None:
        """A random einsum string over one to three operands: shared letters contract or broadcast, repeated ones
        take diagonals, '...' carries leading dims, implicit outputs (no '->') sort the letters seen once."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX and v.shape)
        if x is None:
            return
        size = {}
        fresh = iter("abcdefghijklmnopqrstuvwxyz")
        ops, terms = [x], []
        ys = [v for v in self.vars if v is not x and v.dtype == x.dtype and len(v.shape) <= 3]
        for _ in range(self.pick([0, 1, 1, 2])):
            if ys:
                ops.append(self.pick(ys))
        ell = None
        for v in ops:
            letters = []
            nd = len(v.shape)
            lead = self.i(0, nd) if self.r() < 0.2 and nd >= 2 and v is x else 0
            if lead:
                ell = tuple(v.shape[:lead])
            for s in v.shape[lead:]:
                same = [c for c, n in size.items() if n == s and c not in letters]
                if (same and self.r() < 0.6) or (letters and self.r() < 0.1 and size[letters[-1]] == s):
                    c = self.pick(same) if same else letters[-1]   # (a shared letter, or a repeated one: diagonal)
                else:
                    c = next(fresh)
                    size[c] = s
                letters.append(c)
            terms.append(("..." if lead else "") + "".join(letters))
        counts = collections.Counter(c for t in terms for c in t if c != ".")
        if self.r() < 0.3:
            outl = sorted(c for c, n in counts.items() if n == 1)
            eq = ",".join(terms)
        else:
            outl = [c for c in counts if self.r() < 0.5]
            outl = [outl[j] for j in self.rng.permutation(len(outl))] if outl else outl
            eq = ",".join(terms) + "->" + ("..." if ell else "") + "".join(outl)
        shape = list(ell or ()) + [size[c] for c in outl]
        if ell and "->" not in eq:
            shape = list(ell) + [size[c] for c in outl]
        sep = self.pick([", ", " , "]) if self.r() < 0.1 else ", "
        args = sep.join(v.name for v in ops)
        call = f"torch.einsum('{eq}', {args})" if self.r() < 0.8 else f"torch.einsum('{eq}', [{args}])"
        self.emit("einsum2", f"{self.new(shape, x.dtype, any(v.rg for v in ops)).name} = {call}")

    def _adv_index(self, sh):
        """A random advanced index for shape ``sh``: (source text, NumPy index giving the result's shape)."""
        nd = len(sh)
        r = self.r()
        if r < 0.25:   # a bool mask over the leading dims
            k = self.i(1, nd + 1)
            mask = self.rng.random(sh[:k]) < 0.5
            return f"torch.tensor({self.const(mask, 'm')})", (mask,)
        if r < 0.35:   # a list of ints
            lst = [int(j) for j in self.rng.integers(-sh[0], sh[0], self.i(1, 4))]
            return repr(lst), (np.array(lst),)
        parts, np_parts = [], []
        for d, s in enumerate(sh):
            q = self.r()
            if q < 0.45 or (d == 0 and q < 0.7):
                ish = self.pick([(2,), (3,), (1, 2), ()])
                idx = self.rng.integers(-s, s, ish)
                parts.append(f"torch.tensor({self.const(idx, 'i')})" if ish else str(int(idx)))
                np_parts.append(idx if ish else int(idx))
            elif q < 0.8:
                parts.append(":")
                np_parts.append(slice(None))
            elif q < 0.9:
                parts.append("1:")
                np_parts.append(slice(1, None))
            else:
                parts.append("None")
                np_parts.append(None)
                parts.append(":")
                np_parts.append(slice(None))
        while parts and parts[-1] == ":" and self.r() < 0.7:
            parts.pop()
            np_parts.pop()
        if len(parts) >= 2 and parts[0] == ":" and self.r() < 0.3:
            parts[0], np_parts[0] = "...", Ellipsis
        return ", ".join(parts) or "...", tuple(np_parts) or (Ellipsis,)

    def y_adv_index(self) -> None:
        """Advanced indexing: index tensors (broadcast together, split by slices), bool masks, lists;
        take_along_dim."""
        x = self.choose(lambda v: len(v.shape) >= 1 and all(v.shape))
        if x is None:
            return
        sh = list(x.shape)
        if self.r() < 0.2:
            d = self.dim(x)
            ish = list(sh)
            ish[d] = self.i(1, 4)
            idx = self.rng.integers(0, sh[d], ish)
            self.emit("take_along_dim", f"{self.new(ish, x.dtype, x.rg).name} = torch.take_along_dim({x.name}, "
                                        f"torch.tensor({self.const(idx, 'i')}), {d})")
            return
        src, npi = self._adv_index(sh)
        try:
            shape = np.zeros(sh)[npi].shape
        except IndexError:
            return
        self.emit("adv_index", f"{self.new(shape, x.dtype, x.rg, contig=False).name} = {x.name}[{src}]")

    def y_adv_put(self) -> None:
        """Writing through advanced indices on a result: x[idx] = y, x[mask] = value, index_put_ with
        accumulate=True (repeated indices add up), x[idx] += y."""
        x = self.choose(lambda v: not v.leaf and not v.overlap and not v.multi_view and len(v.shape) >= 1
                        and all(v.shape) and v.dtype in FLOATS)
        if x is None:
            return
        sh = list(x.shape)
        kind = self.pick(["setitem", "mask_fill", "index_put_acc", "index_put", "iadd"])
        if kind == "mask_fill":
            mask = self.rng.random(sh) < 0.5
            val = self.pick(["0.5", "torch.tensor(-1.0)"])
            self.emit("adv_put:mask", f"{x.name}[torch.tensor({self.const(mask, 'm')})] = {val}")
            return
        if kind == "index_put_acc":   # (repeated indices on purpose)
            idx = self.rng.integers(0, sh[0], self.i(2, 5))
            y = self.choose(lambda v: v.dtype == x.dtype and _bshape(v.shape, [len(idx)] + sh[1:]) ==
                            tuple([len(idx)] + sh[1:]))
            if y is None:
                return
            self.emit("adv_put:acc", f"{x.name}.index_put_((torch.tensor({self.const(idx, 'i')}),), {y.name}, "
                                     f"accumulate=True)")
            x.rg = x.rg or y.rg
            return
        src, npi = self._adv_index(sh)
        try:
            tgt = np.zeros(sh)[npi].shape
        except IndexError:
            return
        if any(isinstance(p, np.ndarray) and p.dtype != bool and len(np.unique(p)) < p.size for p in npi):
            return   # (an assignment through repeated indices keeps an unspecified one)
        if len(npi) > 1 and sum(isinstance(p, (np.ndarray, int)) for p in npi) > 1:
            return   # (several index tensors broadcast together can repeat a position: unspecified too)
        y = self.choose(lambda v: v is not x and v.dtype in FLOATS and _bshape(v.shape, tgt) == tuple(tgt))
        val = y.name if y is not None else "0.25"
        if kind == "iadd" and y is not None:
            self.emit("adv_put:iadd", f"{x.name}[{src}] += {y.name}")
        elif kind == "index_put" and y is not None and src.startswith("torch.tensor") and "," not in src:
            self.emit("adv_put:index_put", f"{x.name}.index_put_(({src},), {y.name})")
        else:
            self.emit("adv_put:setitem", f"{x.name}[{src}] = {val}")
        x.rg = x.rg or (y is not None and y.rg)

    def y_dtype_chain(self) -> None:
        """Dtype conversions in the middle of a graph: double/float/half/bfloat16 round trips, to(dtype),
        type_as, to(other), type(dtype), to(copy=True) (a no-op conversion returns the tensor itself)."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX + ("int64",))
        if x is None:
            return
        other = "float64" if x.dtype == "float32" else "float32"
        y = self.choose(lambda v: v is not x and v.dtype in FLOATS)
        chains = [(".double().float()", "float32"), (".float().double()", "float64"), (".half().float()", "float32"),
                  (".bfloat16().double()", "float64"), (f".to(torch.{other})", other),
                  (".to(torch.float16).to(torch.float64)", "float64"), (f".type(torch.{other})", other),
                  (".to(torch.float64, copy=True)", "float64"), (".float()", "float32"),
                  (f".to(dtype=torch.{x.dtype})", x.dtype), (".to(torch.float32) * 2", "float32")]
        if y is not None:
            chains += [(f".type_as({y.name})", y.dtype), (f".to({y.name})", y.dtype),
                       (f".double().type_as({y.name})", y.dtype)]
        chain, dt = self.pick(chains)
        if x.dtype in COMPLEX:
            if "half" in chain or "16" in chain:
                return
            dt = {"float32": "complex64", "float64": "complex128"}.get(dt, dt) if "type_as" not in chain and \
                ".to(v" not in chain else dt
        if x.dtype in COMPLEX and dt in FLOATS:   # (complex -> real: a warning, and the imaginary part dropped)
            pass
        if x.dtype == "int64" and "to(dtype=" in chain:
            dt = "int64"
        rg = x.rg and _CATEGORY[dt] >= 2 and not (x.dtype in COMPLEX and dt in FLOATS and False)
        self.emit("dtype_chain", f"{self.new(x.shape, dt, rg, contig=x.contig).name} = {x.name}{chain}")

    def y_memfmt(self) -> None:
        """clone(memory_format=...) and contiguous() of transposed, strided, expanded or permuted views."""
        x = self.choose(lambda v: len(v.shape) >= 1)
        if x is None:
            return
        sh, nd = list(x.shape), len(x.shape)
        views = [(f"{x.name}.mT", sh[:-2] + sh[-2:][::-1]) if nd >= 2 else (f"{x.name}", sh),
                 (f"{x.name}.permute({', '.join(map(str, range(nd)[::-1]))})", sh[::-1]),
                 (f"{x.name}.expand(2, {', '.join(map(str, sh))})", [2] + sh)]
        if sh[-1] >= 2:
            views.append((f"{x.name}[..., ::2]", sh[:-1] + [len(range(0, sh[-1], 2))]))
        if nd == 4 or (nd == 3 and self.r() < 0.5):
            v4 = f"{x.name}" if nd == 4 else f"{x.name}.unsqueeze(0)"
            s4 = sh if nd == 4 else [1] + sh
            views.append((f"{v4}.contiguous(memory_format=torch.channels_last)", s4))
            views.append((f"{v4}.permute(0, 2, 3, 1)", [s4[0], s4[2], s4[3], s4[1]]))
        view, shape = self.pick(views)
        how = self.pick([".clone()", ".clone(memory_format=torch.preserve_format)",
                         ".clone(memory_format=torch.contiguous_format)", ".contiguous()", ".clone().exp()",
                         " * 1", ".clone(memory_format=torch.channels_last)" if len(shape) == 4 else ".contiguous()"])
        self.emit("memfmt", f"{self.new(shape, x.dtype, x.rg, contig=False).name} = {view}{how}")

    def y_mid_grad(self) -> None:
        """torch.autograd.grad in the middle of the program (retain_graph, allow_unused, materialize_grads,
        grad_outputs, create_graph), its results used by later ops."""
        y = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        if y is None:
            return
        xs = [v for v in self.vars if v.rg and v.dtype in FLOATS + COMPLEX and v is not y]
        if not xs:
            return
        x = self.pick(xs[-3:] + [v for v in xs if v.leaf])
        create = self.r() < 0.3
        args = []
        r = self.r()
        out = f"{y.name}.sum()"
        if r < 0.3:
            out = y.name
            args.append(f"grad_outputs=torch.ones_like({y.name}) * 0.5")
        elif r < 0.4:
            out = f"[{y.name}]"
            args.append(f"grad_outputs=[torch.full_like({y.name}, 2.0)]")
        if self.r() < 0.9:
            args.append("retain_graph=True")
        if create:
            args.append("create_graph=True")
        r = self.r()
        if r < 0.5:
            args.append("allow_unused=True")
        if 0.3 < r < 0.7:
            args.append("materialize_grads=True")
        g = self.new(x.shape, x.dtype, create)
        g.name = self.p.names[-1] = "g" + g.name[1:]   # (gN: a gradient, see KNOWN's entry on their _version)
        self.emit("mid_grad", f"{g.name}, = torch.autograd.grad("
                  f"{out}, {x.name if self.r() < 0.5 else '[' + x.name + ']'}"
                  f"{', ' if args else ''}{', '.join(args)})")
        if self.r() < 0.6:   # (use the gradient: an error when it is None)
            h = self.new(x.shape, x.dtype, create or x.rg)
            self.emit("mid_grad-use", f"{h.name} = {x.name} * {g.name}")

    def y_mid_backward(self) -> None:
        """backward() in the middle: with inputs= (leaves or results), retain_graph, a gradient argument, or
        torch.autograd.backward of several outputs; later ops and the final backward add to the same .grad."""
        y = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        if y is None:
            return
        leaves = [v.name for v in self.vars if v.leaf and v.rg]
        inter = [v for v in self.vars if v.rg and not v.leaf and v is not y and v.dtype in FLOATS]
        r = self.r()
        inputs = ""
        if r < 0.5 and leaves:
            inputs = f", inputs=[{', '.join(self.pick([leaves[:1], leaves[-1:], leaves]))}]"
        elif r < 0.7 and inter:
            z = self.pick(inter[-3:])
            self.emit("mid_backward-retain", f"{z.name}.retain_grad()")
            inputs = f", inputs={z.name}"
        if self.r() < 0.3:
            other = self.pick(inter) if inter else y
            self.emit("mid_backward", f"torch.autograd.backward([{y.name}.sum(), {other.name}.mean()], "
                                      f"retain_graph=True{inputs})")
        elif self.r() < 0.3:
            self.emit("mid_backward", f"{y.name}.backward(torch.ones_like({y.name}), retain_graph=True{inputs})")
        else:
            self.emit("mid_backward", f"{y.name}.sum().backward(retain_graph={self.r() < 0.9}{inputs})")

    def y_detach(self) -> None:
        """detach() / detach_() mid-graph, a detached result made a new leaf with requires_grad_(), and
        requires_grad_() on results (an error on one that requires grad already: only leaves' flags change)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        r = self.r()
        if r < 0.35:
            d = self.new(x.shape, x.dtype, True, contig=x.contig)
            d.leaf = True
            self.p.leaves.append(d.name)
            self.emit("detach-leaf", f"{d.name} = {x.name}.detach(){self.pick(['', '.clone()', '.mul(2)'])}"
                                     f".requires_grad_()")
        elif r < 0.55:
            d = self.new(x.shape, x.dtype, x.rg)
            self.emit("detach-mix", f"{d.name} = {x.name} * {x.name}.detach()")
        elif r < 0.7 and not x.leaf:
            self.emit("detach_", f"{x.name}.detach_()")
            x.rg = False
        elif r < 0.85:
            self.emit("requires_grad_", f"{x.name}.requires_grad_({self.pick(['', 'False', 'True'])})")
            if not x.leaf:
                x.rg = True
        else:
            self.emit("requires_grad-attr", f"{x.name}.requires_grad = {self.pick(['True', 'False'])}")

    def y_grad_mode(self) -> None:
        """no_grad / enable_grad / set_grad_enabled / inference_mode blocks mid-program, nested, as a decorator."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        a, b, c = self.new(x.shape, x.dtype, False), self.new(x.shape, x.dtype, x.rg), self.new(x.shape, x.dtype, x.rg)
        r = self.r()
        if r < 0.3:
            self.emit("grad_mode:nested", f"with torch.no_grad():\n    {a.name} = {x.name} * 2\n"
                      f"    with torch.enable_grad():\n        {b.name} = {x.name}.exp() * {a.name}\n"
                      f"    {c.name} = {b.name} + {a.name}")
            c.rg = False
        elif r < 0.5:
            flag = self.pick(["False", "True"])
            a.rg = flag == "True" and x.rg
            self.emit("grad_mode:set", f"with torch.set_grad_enabled({flag}):\n    {a.name} = {x.name}.sin()\n"
                                       f"{b.name} = {a.name} * {x.name}\n{c.name} = {b.name}.cos()")
        elif r < 0.65:
            self.emit("grad_mode:decorator", f"_f = torch.no_grad()(lambda t: t * 3)\n{a.name} = _f({x.name})\n"
                                             f"{b.name} = {a.name} + {x.name}\n{c.name} = {b.name} * 2")
        elif r < 0.8:   # (an inference tensor used by autograd: PyTorch's error, or its clone: fine)
            use = self.pick([f"_inf * {x.name}", f"_inf.clone() * {x.name}", f"_inf + {x.name}"])
            # (not recorded: _inf.clone()'s _version is 1 in PyTorch, whose clone of an inference tensor is
            # empty_like + a copy_ that counts; minigrad's is 0)
            self.p.names.remove(a.name)
            a.name = "_" + a.name
            self.emit("grad_mode:inference", f"with torch.inference_mode():\n    _inf = {x.name} * 2\n"
                                             f"{a.name} = _inf.clone()\n{b.name} = {use}\n{c.name} = {b.name}.exp()")
        else:
            self.emit("grad_mode:set_fn", f"torch.set_grad_enabled(False)\n{a.name} = {x.name} * 2\n"
                                          f"torch.set_grad_enabled(True)\n{b.name} = {a.name} * {x.name}\n"
                                          f"{c.name} = {b.name}.tanh()")

    # -- session 12 (appended to programs of seeds >= S12_FIRST_SEED, from a random stream of their own: see
    # generate): custom autograd.Function nodes, checkpoint, saved-tensor hooks, tensor / Node hooks, retain_grad,
    # multi-output ops recombined, shared subexpressions, accumulation over two backward calls, batched grads,
    # complex values with real losses ------------------------------------------------------------------------------
    S12 = (("function", 8), ("checkpoint", 3), ("saved_hooks", 3), ("tensor_hook", 2), ("node_hook", 3),
           ("multi_out", 2), ("shared", 2), ("accumulate", 2), ("batched", 2), ("complex_loss", 2), ("higher", 3))

    def s12(self) -> None:
        """One op of the session-12 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.S12]
        w = np.array([w for _, w in self.S12], float)
        getattr(self, "z_" + names[int(self.rng.choice(len(names), p=w / w.sum()))])()

    # (custom Functions, one per kind: forward's arguments after ctx, its body, backward's body (g: the incoming
    # gradient; ga, gb for two outputs). None: forward is set up by setup_context instead)
    _FN = {
        "save_out": ("x", "out = x.exp() * 0.5\n        ctx.save_for_backward(out)\n        return out",
                     "out, = ctx.saved_tensors\n        return g * out"),
        "save_in2": ("x, y", "ctx.save_for_backward(x, y)\n        return x * y + y",
                     "x, y = ctx.saved_tensors\n        gx = g * y if ctx.needs_input_grad[0] else None\n"
                     "        gy = g * (x + 1) if ctx.needs_input_grad[1] else None\n        return gx, gy"),
        "intermediate": ("x", "t = x.tanh()\n        ctx.save_for_backward(x, t)\n        return t * x",
                         "x, t = ctx.saved_tensors\n        return g * (t + x * (1 - t * t))"),
        "attr_saved": ("x", "ctx.x = x\n        ctx.k = 3\n        return x ** 3",
                       "return g * ctx.k * ctx.x ** 2"),
        "dirty": ("x", "x.mul_(2)\n        ctx.mark_dirty(x)\n        return x", "return g * 2"),
        "nondiff": ("x", "m = (x > 0).to(x.dtype)\n        ctx.mark_non_differentiable(m)\n"
                         "        ctx.save_for_backward(m)\n        return x * m, m",
                    "m, = ctx.saved_tensors\n        return ga * m + gb"),
        "no_materialize": ("x", "ctx.set_materialize_grads(False)\n        ctx.save_for_backward(x)\n"
                                "        return x.sin(), x.cos()",
                           "x, = ctx.saved_tensors\n        r = None\n        if ga is not None:\n"
                           "            r = ga * x.cos()\n        if gb is not None:\n"
                           "            r = -gb * x.sin() if r is None else r - gb * x.sin()\n        return r"),
        "once": ("x", "ctx.save_for_backward(x)\n        return x ** 3",
                 "x, = ctx.saved_tensors\n        return g * 3 * x ** 2"),
        "nontensor": ("x, k, flag", "ctx.k = k\n        return x * k, int(flag) + 1",
                      "return g * ctx.k, None, None"),
        "none_grad": ("x, y", "return x + y.detach() * 0 + y", "return g, None"),
        "identity": ("x", "return x", "return g * 3"),
        "bad_shape": ("x", "return x * 2", "return g.sum()"),
        "bad_count": ("x", "return x * 2", "return g, g"),
        "setup_context": ("x", None, "x, = ctx.saved_tensors\n        return g * x.cos()"),
    }

    def z_function(self) -> None:
        """A custom autograd.Function (save_for_backward of inputs / outputs / intermediates, attributes of ctx,
        mark_dirty, mark_non_differentiable, set_materialize_grads(False), once_differentiable, needs_input_grad,
        None gradients, non-tensor inputs and outputs, setup_context, wrong gradients: PyTorch's errors)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        kind = self.pick(list(self._FN))
        if kind.startswith("bad") and self.r() < 0.6:
            kind = "save_out"
        args, fwd, bwd = self._FN[kind]
        k = len([o for o in self.p.ops if o.startswith("function:")])
        cls = f"Fn{k}"
        grads = "ga, gb" if kind in ("nondiff", "no_materialize") else "g, _n" if kind == "nontensor" else "g"
        deco = "    @torch.autograd.function.once_differentiable\n" if kind == "once" else ""
        if kind == "setup_context":
            body = ("    @staticmethod\n    def forward(x):\n        return x.sin()\n"
                    "    @staticmethod\n    def setup_context(ctx, inputs, output):\n"
                    "        ctx.save_for_backward(*inputs)\n")
        else:
            body = f"    @staticmethod\n    def forward(ctx, {args}):\n        {fwd}\n"
        src = (f"class {cls}(torch.autograd.Function):\n{body}    @staticmethod\n{deco}"
               f"    def backward(ctx, {grads}):\n        {bwd}")
        self.emit(f"function:{kind}", src)
        if kind == "dirty":
            if x.leaf and x.rg:
                if self.r() < 0.8:
                    c = self.new(x.shape, x.dtype, x.rg)
                    self.emit("function-clone", f"{c.name} = {x.name}.clone()")
                    x = c
            elif x.overlap or x.multi_view:
                return
        if kind == "save_in2":
            y = self.choose(lambda v: v.dtype in FLOATS and v.shape == x.shape and v is not x) or x
            o = self.new(x.shape, _promote(x, y), x.rg or y.rg)
            self.emit("function-apply", f"{o.name} = {cls}.apply({x.name}, {y.name})")
        elif kind == "none_grad":
            y = self.choose(lambda v: v.dtype == x.dtype and v.shape == x.shape and v is not x) or x
            o = self.new(x.shape, x.dtype, x.rg or y.rg)
            self.emit("function-apply", f"{o.name} = {cls}.apply({x.name}, {y.name})")
        elif kind in ("nondiff", "no_materialize"):
            o1, o2 = self.new(x.shape, x.dtype, x.rg), self.new(x.shape, x.dtype, x.rg and kind != "nondiff")
            self.emit("function-apply", f"{o1.name}, {o2.name} = {cls}.apply({x.name})")
            if self.r() < 0.5:   # (only one output used later: the other's gradient is None or zeros)
                self.vars.remove(o2 if self.r() < 0.5 else o1)
        elif kind == "nontensor":
            o = self.new(x.shape, x.dtype, x.rg)
            n = f"n{o.name[1:]}"
            self.p.objs.append(n)
            self.emit("function-apply", f"{o.name}, {n} = {cls}.apply({x.name}, {self.pick([2.0, 0.5, -1])}, "
                                        f"{self.pick([True, False])})")
        else:
            o = self.new(x.shape, x.dtype, x.rg)
            self.emit("function-apply", f"{o.name} = {cls}.apply({x.name})")

    _CHAIN = ("t.sin() * t", "(t * 2).exp().clamp(max=20) - t", "t.tanh().pow(2) + t.sigmoid()",
              "torch.relu(t) * t.cos()", "(t.abs() + 1).log() * t", "t.softmax(-1) * t", "t.cumsum(-1).sin()")

    def z_checkpoint(self) -> None:
        """torch.utils.checkpoint.checkpoint (reentrant or not) around a short chain, sometimes of two inputs."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        chain = self.pick(self._CHAIN)
        reent = self.pick(["False", "False", "True"])
        y = self.choose(lambda v: v.dtype == x.dtype and v.shape == x.shape and v is not x) if self.r() < 0.3 else None
        o = self.new(x.shape, x.dtype, x.rg or (y is not None and y.rg))
        if y is None:
            self.emit("checkpoint", f"{o.name} = torch.utils.checkpoint.checkpoint(lambda t: {chain}, {x.name}, "
                                    f"use_reentrant={reent})")
        else:
            self.emit("checkpoint2", f"{o.name} = torch.utils.checkpoint.checkpoint(lambda t, u: ({chain}) * u, "
                                     f"{x.name}, {y.name}, use_reentrant={reent})")

    def z_saved_hooks(self) -> None:
        """saved_tensors_hooks (pack / unpack that copy, scale or pass through), save_on_cpu and
        disable_saved_tensors_hooks around a part of the program."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        chain = re.sub(r"\bt\b", x.name, self.pick(self._CHAIN))
        o = self.new(x.shape, x.dtype, x.rg)
        r = self.r()
        if r < 0.5:
            pack, unpack = self.pick([("lambda t: t", "lambda t: t"), ("lambda t: t.detach().clone()", "lambda t: t"),
                                      ("lambda t: (t, 2.0)", "lambda p: p[0] * p[1]"),
                                      ("lambda t: t * 1", "lambda t: t.neg()")])
            head = f"with torch.autograd.graph.saved_tensors_hooks({pack}, {unpack}):"
        elif r < 0.7:
            head = "with torch.autograd.graph.save_on_cpu():"
        elif r < 0.85:
            head = "with torch.autograd.graph.disable_saved_tensors_hooks('no saved hooks here'):"
        else:
            head = ("with torch.autograd.graph.disable_saved_tensors_hooks('no saved hooks here'):\n"
                    "    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):")
            self.emit("saved_hooks:error", f"{head}\n        {o.name} = {chain}")
            return
        self.emit("saved_hooks:" + head.split("(")[0].split(".")[-1], f"{head}\n    {o.name} = {chain}")

    def z_tensor_hook(self) -> None:
        """Hooks on an intermediate that change its gradient, retain_grad before or after them (.grad of a
        non-leaf sees every hook's result), a hook removed again."""
        x = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        if x is None:
            return
        before = self.r() < 0.5
        if before:
            self.emit("tensor_hook:retain", f"{x.name}.retain_grad()")
        second = self.pick(["lambda g: g + 1", "lambda g: None", "lambda g: g.flip(0) if g.dim() else g"])
        # (x's grad_fn read first: PyTorch 2.13 crashes (segfault) registering a hook on a view whose base was
        # written in place since, before anything regenerated the view's grad_fn; seed 200500)
        self.emit("tensor_hook", f"_gf = {x.name}.grad_fn\n_h1 = {x.name}.register_hook(lambda g: g * 2)\n"
                                 f"_h2 = {x.name}.register_hook({second})")
        if self.r() < 0.3:
            self.emit("tensor_hook:remove", "_h1.remove()")
        if not before:
            self.emit("tensor_hook:retain", f"{x.name}.retain_grad()")
        o = self.new(x.shape, x.dtype, True)
        self.emit("tensor_hook-use", f"{o.name} = {x.name} * {x.name}.detach().abs().add(1)")

    def z_node_hook(self) -> None:
        """Node.register_hook / register_prehook on a result's grad_fn (changing or reading the gradients), a
        post-accumulate-grad hook on a leaf."""
        r = self.r()
        if r < 0.25:
            x = self.choose(lambda v: v.leaf and v.rg and v.dtype in FLOATS)
            if x is None:
                return
            self.emit("node_hook:post_acc", f"_hp = {x.name}.register_post_accumulate_grad_hook("
                                            f"lambda p: (p.grad.mul_(0.5), None)[1])")
            return
        x = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        if x is None:
            return
        if r < 0.6:
            fn = self.pick(["lambda gi, go: tuple(None if g is None else g * 2 for g in gi)",
                            "lambda gi, go: None",
                            "lambda gi, go: (gi[0] * 0 if gi[0] is not None else None,) + gi[1:]"])
            self.emit("node_hook:hook", f"_hn = {x.name}.grad_fn.register_hook({fn})")
        else:
            fn = self.pick(["lambda go: (go[0] * 0.5,) + go[1:]", "lambda go: None"])
            self.emit("node_hook:prehook", f"_hn = {x.name}.grad_fn.register_prehook({fn})")
        if self.r() < 0.2:
            self.emit("node_hook:remove", "_hn.remove()")

    def z_multi_out(self) -> None:
        """unbind / split / chunk of a result, the pieces used in several branches and recombined."""
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1 and v.shape[0] >= 2)
        if x is None:
            return
        n = x.shape[0]
        how = self.pick(["unbind", "split", "chunk"])
        if how == "unbind":
            parts = f"{x.name}.unbind(0)"
            comb = self.pick(["torch.stack([p.sin() * p for p in P[::-1]])", "P[0] * P[-1] + P[0].exp()",
                              "torch.stack([P[0] + P[-1], P[0] * P[-1]] + list(P[1:-1]))"])
            shape = x.shape if "stack" in comb else x.shape[1:]
        else:
            parts = f"{x.name}.split(1)" if how == "split" else f"{x.name}.chunk({n})"
            comb = self.pick(["torch.cat([p.exp() for p in P[::-1]])", "P[0] * P[-1] + P[0].cos()",
                              "torch.cat([P[-1], P[0] * 2] + list(P[1:-1]))"])
            shape = x.shape if "cat" in comb else (1,) + x.shape[1:]
        o = self.new(shape, x.dtype, x.rg)
        self.emit(f"multi_out:{how}", f"P = {parts}\n{o.name} = {comb}")

    def z_shared(self) -> None:
        """A subexpression used many times (one node, several consumers: the engine sums its gradients)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        s = self.new(x.shape, x.dtype, x.rg)
        o = self.new(x.shape, x.dtype, x.rg)
        self.emit("shared", f"{s.name} = {x.name}.{self.pick(['sin', 'exp', 'tanh', 'sigmoid'])}()\n"
                            f"{o.name} = {s.name} * {s.name} + {s.name}.exp() * {s.name} - {s.name} / 2 + "
                            f"{s.name}.mean()")

    def z_accumulate(self) -> None:
        """Two backward calls through one graph (retain_graph) that accumulate into .grad, read in between,
        sometimes zeroed or set to None."""
        y = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        leaves = [v for v in self.vars if v.leaf and v.rg and v.dtype in FLOATS]
        if y is None or not leaves:
            return
        a = self.pick(leaves)
        self.emit("accumulate", f"({y.name} * 2).sum().backward(retain_graph=True)")
        g = self.new(a.shape, a.dtype, False)
        self.emit("accumulate-read", f"{g.name} = {a.name}.grad.clone() if {a.name}.grad is not None else "
                                     f"torch.zeros(())")
        self.vars.remove(g)   # (not used by later ops: a gradient or a 0-dim zero)
        r = self.r()
        if r < 0.2:
            self.emit("accumulate-none", f"{a.name}.grad = None")
        elif r < 0.4:
            self.emit("accumulate-zero", f"{a.name}.grad.zero_() if {a.name}.grad is not None else None")
        self.emit("accumulate", f"{y.name}.pow(2).sum().backward(retain_graph=True)")

    def z_batched(self) -> None:
        """torch.autograd.grad with is_grads_batched=True: a Jacobian of a result from the rows of an identity."""
        y = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS and 0 < _numel(v.shape) <= 12)
        xs = [v for v in self.vars if v.leaf and v.rg and v.dtype in FLOATS]
        if y is None or not xs or any("retain_grad" in line for line in self.p.lines):
            return   # (PyTorch's vmapped backward leaves a BatchedTensor in a retained .grad: unusable afterwards)
        x = self.pick(xs)
        k = _numel(y.shape)
        j = self.new((k, *x.shape), x.dtype, False)
        j.name = self.p.names[-1] = "g" + j.name[1:]
        self.emit("batched", f"{j.name}, = torch.autograd.grad({y.name}, {x.name}, torch.eye({k}, dtype={y.name}"
                             f".dtype).reshape({k}, *{y.name}.shape), retain_graph=True, is_grads_batched=True"
                             f"{', allow_unused=True, materialize_grads=True' if self.r() < 0.5 else ''})")

    def z_higher(self) -> None:
        """Second and third derivatives mid-program (torch.autograd.grad with create_graph=True, twice or three
        times) of a recent result, often one of a custom Function: its backward runs under create_graph."""
        y = self.choose(lambda v: v.rg and not v.leaf and v.dtype in FLOATS)
        xs = [v for v in self.vars if v.leaf and v.rg and v.dtype in FLOATS]
        if y is None or not xs:
            return
        x = self.pick(xs)
        names = []
        src = f"{y.name}.sum()"
        for order in range(self.pick([2, 2, 3])):
            g = self.new(x.shape, x.dtype, True)
            g.name = self.p.names[-1] = "g" + g.name[1:]
            names.append(g.name)
            self.emit("higher", f"{g.name}, = torch.autograd.grad({src}, {x.name}, create_graph=True, "
                                f"allow_unused=True, materialize_grads=True)")
            src = f"({g.name} * {g.name}).sum()" if order == 0 and self.r() < 0.5 else f"{g.name}.sum()"
            self.vars.remove(g)   # (its requires_grad depends on the formulas: not used by later ops)

    def z_complex_loss(self) -> None:
        """A complex value built from a result (or a complex leaf), reduced to a real loss through abs / angle /
        real / imag / view_as_real."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX)
        if x is None:
            return
        cdt = "complex128" if x.dtype in ("float64", "complex128") else "complex64"
        if x.dtype in FLOATS:
            c = self.new(x.shape, cdt, x.rg)
            self.emit("complex_loss:make", f"{c.name} = " + self.pick([
                f"torch.complex({x.name}, {x.name} * 0.5)", f"{x.name} * (1 + 2j)",
                f"torch.polar({x.name}.abs() + 0.1, {x.name})", f"torch.view_as_complex(torch.stack([{x.name}, "
                f"{x.name}.cos()], -1))"]))
            x = c
        o = self.new(x.shape, _REAL_OF[cdt], x.rg)
        self.emit("complex_loss", f"{o.name} = " + self.pick([
            f"{x.name}.abs() + {x.name}.angle()", f"{x.name}.real * {x.name}.imag",
            f"torch.view_as_real({x.name}).sum(-1)", f"({x.name} * {x.name}.conj()).real",
            f"{x.name}.abs().pow(2) - {x.name}.imag", f"torch.view_as_real({x.name} * {x.name})[..., 1]"]))

    # -- session 13 (appended to programs of seeds >= S13_FIRST_SEED, from a fourth stream of their own: see
    # generate): chains of views written in place and their bases read afterwards, hooks and retain_grad on views
    # and on bases written in place, .data / detach() writes, requires_grad_() mid-program, integer and bool
    # results feeding index ops, float16 / bfloat16 stretches, where / masked ops with scalars, reductions over
    # dim tuples / negative dims / keepdim (and their errors), a student's errors caught and the program going on --
    S13 = (("view_chain", 6), ("view_hooks", 3), ("data_write", 2), ("requires_grad_mid", 2), ("int_index", 3),
           ("half", 2), ("where_scalar", 2), ("reduce_dims", 2), ("errors", 4))

    def s13(self) -> None:
        """One op of the session-13 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.S13]
        w = np.array([w for _, w in self.S13], float)
        getattr(self, "w_" + names[int(self.rng.choice(len(names), p=w / w.sum()))])()

    def _caught(self, kind: str, body: str) -> None:
        """``body`` run in a try: the exception a student would see (type, message) kept as an object ``E<n>``
        (None when nothing was raised), and the program goes on: the state after the error is compared too."""
        e = f"E{self.n}"
        self.n += 1
        self.p.objs.append(e)
        lines = "\n".join("    " + ln for ln in body.split("\n"))
        self.emit(kind, f"try:\n{lines}\n    {e} = None\nexcept Exception as _e:\n"
                        f"    {e} = (type(_e).__name__, str(_e))")

    def _view_step(self, sh: list, dt: str, fresh: bool):
        """One random view of a tensor of shape ``sh``: (call text, new shape, new dtype, multi-output view) or
        None. ``fresh``: the tensor is a contiguous base at offset 0 (as_strided / view_as_complex are safe)."""
        nd = len(sh)
        kinds = ["narrow", "select", "movedim", "transpose", "unsqueeze", "unflatten", "diagonal", "unfold",
                 "split_with_sizes", "unbind", "t", "slice", "squeeze", "expand_contig", "real_view"]
        if fresh:
            kinds += ["as_strided", "as_strided", "view_as_complex"]
        kind = self.pick(kinds)
        if kind == "narrow" and nd and sh[0 if nd == 1 else -1] >= 1:
            d = self.pick([0, -1]) if nd > 1 else 0
            size = sh[d]
            start = self.i(0, size)
            length = self.i(1, size - start + 1)
            new = list(sh)
            new[d] = length
            return f".narrow({d}, {start}, {length})", new, dt, False
        if kind == "select" and nd and all(sh):
            d = self.i(-nd, nd)
            i = self.i(-sh[d], 0) if self.r() < 0.6 else self.i(0, sh[d])
            return f".select({d}, {i})", sh[:d % nd] + sh[d % nd + 1:], dt, False
        if kind == "movedim" and nd >= 2:
            a, b = self.i(-nd, nd), self.i(-nd, nd)
            new = list(sh)
            s = new.pop(a % nd)
            new.insert(b % nd, s)
            return f".movedim({a}, {b})", new, dt, False
        if kind == "transpose" and nd >= 2:
            a, b = self.i(-nd, nd), self.i(-nd, nd)
            new = list(sh)
            new[a], new[b] = new[b], new[a]
            return f".transpose({a}, {b})", new, dt, False
        if kind == "t" and nd <= 2:
            return ".t()", sh[::-1], dt, False
        if kind == "unsqueeze":
            d = self.i(-nd - 1, nd + 1)
            new = list(sh)
            new.insert(d % (nd + 1), 1)
            return f".unsqueeze({d})", new, dt, False
        if kind == "squeeze" and 1 in sh:
            d = sh.index(1) - (nd if self.r() < 0.5 else 0)
            return f".squeeze({d})", sh[:d % nd] + sh[d % nd + 1:], dt, False
        if kind == "unflatten" and nd:
            d = self.i(0, nd)
            s = sh[d]
            fs = [f for f in (2, 3) if s and s % f == 0]
            if not fs:
                return None
            f = self.pick(fs)
            part = (f, -1) if self.r() < 0.5 else (f, s // f)
            return f".unflatten({d - nd if self.r() < 0.4 else d}, {part})", sh[:d] + [f, s // f] + sh[d + 1:], \
                dt, False
        if kind == "diagonal" and nd >= 2:
            d1, d2 = self.rng.choice(nd, 2, replace=False).tolist()
            off = self.i(-1, 2)
            shape = np.empty(sh).diagonal(off, d1, d2).shape
            if 0 in shape:
                return None
            return f".diagonal({off}, {d1 - nd if self.r() < 0.3 else d1}, {d2})", list(shape), dt, False
        if kind == "unfold" and nd and sh[-1] >= 1:
            d = self.i(0, nd)
            size = self.i(1, min(sh[d], 3) + 1) if sh[d] else 0
            if not size:
                return None
            step = self.i(size, size + 2)   # (step >= size: windows that do not overlap)
            new = list(sh)
            new[d] = (sh[d] - size) // step + 1
            return f".unfold({d}, {size}, {step})", new + [size], dt, False
        if kind == "split_with_sizes" and nd and sh[0] >= 2:
            cut = self.i(1, sh[0])
            k = self.i(0, 2)
            new = list(sh)
            new[0] = cut if k == 0 else sh[0] - cut
            return f".split_with_sizes([{cut}, {sh[0] - cut}])[{k - 2 if self.r() < 0.5 else k}]", new, dt, True
        if kind == "unbind" and nd and sh[-1] >= 1:
            d = self.pick([0, -1])
            return f".unbind({d})[{self.i(-sh[d], sh[d])}]", sh[:d % nd] + sh[d % nd + 1:], dt, True
        if kind == "slice" and nd and sh[-1] >= 2:
            k = self.i(0, 3)
            return ["[..., 1:]", "[..., ::2]", "[..., :-1]"][k], \
                sh[:-1] + [len([range(1, sh[-1]), range(0, sh[-1], 2), range(0, sh[-1] - 1)][k])], dt, False
        if kind == "expand_contig" and nd:
            new = [2] + sh
            return f".expand({', '.join(map(str, new))}).contiguous()", new, dt, False
        if dt in COMPLEX and self.r() < 0.4:
            kind = "real_view"
        if kind == "real_view" and dt in COMPLEX:
            how = self.pick(["torch.view_as_real", ".real", ".imag"])
            if how.startswith("torch"):
                return "@view_as_real", sh + [2], _REAL_OF[dt], False
            return how, sh, _REAL_OF[dt], False
        if kind == "view_as_complex" and dt in FLOATS and nd and sh[-1] % 2 == 0 and sh[-1]:
            return "@view_as_complex", sh[:-1] + [sh[-1] // 2], "complex64" if dt == "float32" else "complex128", \
                False
        if kind == "as_strided":
            n = _numel(sh)
            if n < 2:
                return None
            rows = self.i(1, 3)
            cols = self.i(1, max(n // rows, 1) + 1)
            if rows * cols > n:
                return None
            off = self.i(0, n - rows * cols + 1)
            stride = (cols, 1) if self.r() < 0.5 else (1, rows)   # (row- or column-major: no element twice)
            return f".as_strided(({rows}, {cols}), {stride}, {off})", [rows, cols], dt, False
        return None

    def w_view_chain(self) -> None:
        """A chain of views (narrow, select with negative indices, movedim, unflatten, diagonal, unfold,
        split_with_sizes / unbind pieces, as_strided, view_as_real / complex, real / imag ...) of a result, each
        kept; an in-place op through the last (or one in the middle), then the base and the views read again:
        CopySlices, AsStridedBackward0 regeneration, _version and _base of each."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX and len(v.shape) >= 1 and _numel(v.shape) > 0)
        if x is None:
            return
        if x.dtype in FLOATS and self.r() < 0.2:   # (a complex base: real / imag / view_as_real views of it)
            b = self.new(x.shape, "complex64" if x.dtype == "float32" else "complex128", x.rg)
            self.emit("s13:base", f"{b.name} = {x.name} * {self.pick(['(1 + 0.5j)', '(0.5 - 2j)'])}")
        elif x.leaf and (x.rg and self.r() < 0.9) or self.r() < 0.4:   # (a base of its own: a leaf is an error)
            b = self.new(x.shape, x.dtype, x.rg)
            self.emit("s13:base", f"{b.name} = {x.name}{self.pick(['.clone()', ' * 1', '.exp()', '.sin()'])}")
        else:
            b = x
        fresh = not b.leaf and b.contig and b is not x
        cur, sh, dt, multi = b, list(b.shape), b.dtype, b.multi_view
        chain = []
        for _ in range(self.i(1, 5)):
            step = self._view_step(sh, dt, fresh)
            if step is None:
                continue
            call, sh, dt, m = step
            if call == "@view_as_real":
                expr = f"torch.view_as_real({cur.name})"
            elif call == "@view_as_complex":
                # (view_as_complex needs a last dim of size 2 with stride 1: unflatten the contiguous base first)
                expr = f"torch.view_as_complex({cur.name}.unflatten(-1, (-1, 2)))"
            else:
                expr = f"{cur.name}{call}"
            fresh = fresh and call.startswith(".unflatten")
            copy = call.endswith(".contiguous()")
            multi = (multi or m) and not copy
            cur = self.new(sh, dt, cur.rg, contig=False, multi_view=multi)
            self.emit("s13:view:" + ("slice" if call.startswith("[") else "expand_contiguous" if copy else
                                    call.split("(")[0].strip(".@")), f"{cur.name} = {expr}")
            chain.append(cur)
        if not chain:
            return
        # (the write: through the last view, or through one in the middle of the chain)
        tgt = chain[-1] if self.r() < 0.7 else self.pick(chain)
        y = self.choose(lambda v: v is not tgt and _bshape(v.shape, tgt.shape) == tuple(tgt.shape)
                        and _CATEGORY.get(v.dtype, 9) <= _CATEGORY[tgt.dtype] and v.dtype != "bool")
        ops = ["mul_(2)", "add_(0.5)", "exp_()", "zero_()", "sin_()", "clamp_(-1, 1)" if tgt.dtype in FLOATS else
               "neg_()", "fill_(1.25)", "[...] = 0.5"]
        if y is not None:
            ops += [f"add_({y.name})", f"mul_({y.name})", f"copy_({y.name})"]
        op = self.pick(ops)
        line = f"{tgt.name}{op}" if op.startswith("[") else f"{tgt.name}.{op}"
        if tgt.multi_view or self.r() < 0.1:   # (PyTorch's error for a piece of unbind / split; or under no_grad)
            if self.r() < 0.5:
                line = f"with torch.no_grad():\n    {line}"
        self.emit("s13:view_write", line)
        if y is not None and y.name in op:
            for v in [b, *chain]:
                v.rg = v.rg or y.rg
        r = self.r()
        o = self.new(b.shape, b.dtype, b.rg)
        self.emit("s13:read_base", f"{o.name} = {b.name}{self.pick(['.sin()', ' * 2', '.exp()', '.cumsum(0)'])}")
        if r < 0.5:   # (a view of the chain read again, after the write; and its _base)
            v = self.pick(chain)
            k = f"n{self.n}"
            self.n += 1
            self.p.objs.append(k)
            self.emit("s13:base_of", f"{k} = ({v.name}._base is {b.name}, {v.name}._base is None, "
                                     f"{v.name}.is_leaf, {v.name}._is_view())")

    def w_view_hooks(self) -> None:
        """retain_grad / register_hook on a view and on its base, then an in-place op on one of them: which
        gradient each hook and .grad sees after the graph was rewritten."""
        x = self.choose(lambda v: v.rg and v.dtype in FLOATS and len(v.shape) >= 1 and all(v.shape))
        if x is None:
            return
        b = self.new(x.shape, x.dtype, True)
        self.emit("s13:base", f"{b.name} = {x.name} * 1")
        view = self.pick([(f"{b.name}[0]", list(b.shape[1:])), (f"{b.name}.narrow(0, 0, 1)", [1, *b.shape[1:]]),
                          (f"{b.name}.unsqueeze(0)", [1, *b.shape]), (f"{b.name}.t()" if len(b.shape) <= 2 else
                                                                      f"{b.name}.mT", list(b.shape[::-1])
                                                                      if len(b.shape) <= 2 else
                                                                      [*b.shape[:-2], b.shape[-1], b.shape[-2]])])
        v = self.new(view[1], x.dtype, True, contig=False)
        self.emit("s13:view", f"{v.name} = {view[0]}")
        for t in self.rng.permutation([b.name, v.name]).tolist():
            r = self.r()
            if r < 0.4:
                self.emit("s13:hook_retain", f"{t}.retain_grad()")
            elif r < 0.8:
                hook = self.pick(['lambda g: g * 2', 'lambda g: g + 1', 'lambda g: None'])
                self.emit("s13:hook", f"_h = {t}.register_hook({hook})")
        tgt = self.pick([b, v])
        self.emit("s13:hook_write", f"{tgt.name}.{self.pick(['mul_(3)', 'add_(1)', 'exp_()', 'tanh_()'])}")
        for t in self.rng.permutation([b.name, v.name]).tolist():
            if self.r() < 0.4:
                # (the view's grad_fn read first: PyTorch 2.13 crashes (segfault) registering a hook on a view
                # whose base was written in place since, before anything regenerated the view's grad_fn)
                after = self.pick([f"{t}.retain_grad()",
                                   f"_gf = {t}.grad_fn\n_h = {t}.register_hook(lambda g: g * 0.5)"])
                self.emit("s13:hook_after", after)
        o = self.new((), x.dtype, True)
        self.emit("s13:hook_use", f"{o.name} = ({b.name}.sum() * 2 + {v.name}.sin().sum())")
        if self.r() < 0.5:   # (a backward of its own: the hooks fire now, and .grad of each is recorded here)
            k = f"n{self.n}"
            self.n += 1
            self.p.objs.append(k)
            self.emit("s13:hook_backward", f"{o.name}.backward(retain_graph=True)\n"
                                           f"{k} = ({b.name}.grad, {v.name}.grad)")

    def w_data_write(self) -> None:
        """Writes through .data or detach() into a tensor a node saved (.data: no version bump, backward uses the
        new values; detach(): the shared version counter makes backward fail), .data assigned a new tensor."""
        x = self.choose(lambda v: v.rg and v.dtype in FLOATS)
        if x is None:
            return
        s = self.new(x.shape, x.dtype, True)
        save = self.pick(["{x}.exp()", "{x} * {x}", "{x}.sin()", "{x}.pow(3)", "{x}.sigmoid()"])
        self.emit("s13:saved", f"{s.name} = {save.format(x=x.name)}")
        who = self.pick([x, s])
        how = self.pick([f"{who.name}.data.mul_(2)", f"{who.name}.detach().add_(1)", f"{who.name}.data.zero_()",
                         f"{who.name}.data = {who.name}.data * 0.5", f"{who.name}.detach().zero_()",
                         f"{who.name}.detach_()" if not who.leaf else f"{who.name}.data.add_(1)"])
        self.emit("s13:data_write", how)
        if how.endswith("detach_()"):
            who.rg = False
        o = self.new(x.shape, x.dtype, True)
        self.emit("s13:data_use", f"{o.name} = {s.name} * 2 + {x.name}")
        if self.r() < 0.5:
            self._caught("s13:data_backward", f"{o.name}.sum().backward(retain_graph=True)")

    def w_requires_grad_mid(self) -> None:
        """A tensor made without grad, used, then given requires_grad_() (earlier results keep no graph to it),
        a leaf's requires_grad turned off after it was used, requires_grad_() on an integer tensor (an error)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        r = self.r()
        if r < 0.5:
            e = self.new(x.shape, x.dtype, True)
            e.leaf = True
            self.p.leaves.append(e.name)
            vals = np.round(self.rng.standard_normal(x.shape), 2)
            u = self.new(x.shape, x.dtype, x.rg)
            w = self.new(x.shape, x.dtype, True)
            self.emit("s13:rg_later", f"{e.name} = torch.tensor({self.const(vals, 'x')}, dtype=torch.{x.dtype})\n"
                                      f"{u.name} = {e.name} * {x.name}\n{e.name}.requires_grad_()\n"
                                      f"{w.name} = {e.name}.sin() * {u.name}")
        elif r < 0.75:
            a = self.choose(lambda v: v.leaf and v.rg and v.dtype in FLOATS)
            if a is None:
                return
            u = self.new(a.shape, a.dtype, True)
            self.emit("s13:rg_off", f"{u.name} = {a.name}.exp()\n{a.name}.requires_grad_(False)")
            a.rg = False
            if self.r() < 0.5:
                self._caught("s13:rg_off_backward", f"{u.name}.sum().backward(retain_graph=True)")
        else:
            what = self.pick([f"{x.name}.argmax()", f"({x.name} > 0)", f"{x.name}.long()",
                              f"{x.name}.detach().requires_grad_().round()"])
            self._caught("s13:rg_int", f"{what}.requires_grad_()")

    def w_int_index(self) -> None:
        """Integer and bool results (argmax / argmin / argsort / sort and topk indices / nonzero / eq / where of
        one argument) feeding index ops (gather, take_along_dim, indexing, index_select, masked_fill, index_put)."""
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1 and all(v.shape))
        if x is None:
            return
        y = self.choose(lambda v: v.shape == x.shape and v.dtype in FLOATS) or x
        sh, nd = list(x.shape), len(x.shape)
        d = self.dim(x)
        r = self.r()
        if r < 0.45:   # (indices of the same shape or with a size-1 dim: gather / take_along_dim)
            idx_expr, ish = self.pick([(f"{x.name}.argmax({d}, keepdim=True)", None),
                                       (f"{x.name}.argmin(dim={d}, keepdim=True)", None),
                                       (f"{x.name}.argsort({d}, descending=True)", sh),
                                       (f"{x.name}.sort({d}).indices", sh), (f"torch.sort({x.name}, {d})[1]", sh),
                                       (f"{x.name}.topk(1, {d}).indices", None)])
            if ish is None:
                ish = list(sh)
                ish[d] = 1
            i = self.new(ish, "int64", False)
            self.emit("s13:int_idx", f"{i.name} = {idx_expr}")
            use = self.pick([f"{y.name}.gather({d}, {i.name})", f"torch.take_along_dim({y.name}, {i.name}, {d})",
                             f"torch.gather({y.name}, {d}, {i.name}, sparse_grad=False)"])
            o = self.new(ish, y.dtype, y.rg)
            self.emit("s13:int_use", f"{o.name} = {use}")
            return
        if r < 0.6:   # (a 0-dim index: argmax of all, into the flattened tensor)
            i = self.new((), "int64", False)
            self.emit("s13:int_idx", f"{i.name} = {x.name}.{self.pick(['argmax', 'argmin'])}()")
            o = self.new((), y.dtype, y.rg)
            self.emit("s13:int_use", f"{o.name} = {y.name}.flatten()[{i.name}] * 2")
            return
        if r < 0.75:   # (index_select along dim 0 by the order of the first column)
            i = self.new(sh[:1], "int64", False)
            col = f"{x.name}" + "[..., 0]" * (nd - 1) if nd > 1 else x.name
            self.emit("s13:int_idx", f"{i.name} = {col}.argsort()" if nd > 1 else f"{i.name} = {x.name}.argsort()")
            o = self.new(sh, y.dtype, y.rg)
            self.emit("s13:int_use", f"{o.name} = {y.name}.index_select(0, {i.name})")
            return
        # (bool masks from comparisons: masked_fill keeps the shape; indexing and nonzero give data-dependent ones)
        m = self.new(sh, "bool", False)
        self.emit("s13:bool_mask", f"{m.name} = " + self.pick([f"{x.name}.eq({x.name}.amax({d}, keepdim=True))",
                                                                f"{x.name} >= {x.name}.mean()",
                                                                f"{x.name}.ne(0) & ({x.name} < 1)",
                                                                f"torch.isclose({x.name}, {y.name})"]))
        k = self.r()
        if k < 0.35:
            o = self.new(sh, y.dtype, y.rg)
            self.emit("s13:mask_use", f"{o.name} = {y.name}.masked_fill({m.name}, 0.0)")
            return
        sel = self.new((0,), y.dtype, y.rg)
        self.vars.remove(sel)   # (its length depends on the values: not used by later ops)
        how = self.pick([f"{y.name}[{m.name}]", f"{y.name}[{m.name}.nonzero(as_tuple=True)]",
                         f"{y.name}[torch.where({m.name})]", f"torch.masked_select({y.name}, {m.name})",
                         f"{y.name}[tuple({m.name}.nonzero().t())]"])
        self.emit("s13:mask_index", f"{sel.name} = {how}")
        o = self.new((), y.dtype, y.rg)
        self.emit("s13:mask_use", f"{o.name} = ({sel.name} * {sel.name}).sum()")
        if self.r() < 0.4 and not y.leaf and not y.multi_view and not y.overlap:
            self.emit("s13:mask_put", f"{y.name}[{m.name}] = {sel.name}.sin()" if self.r() < 0.5 else
                      f"{y.name}.index_put_({m.name}.nonzero(as_tuple=True), {sel.name} * 2, accumulate=True)")

    def w_half(self) -> None:
        """A float16 / bfloat16 stretch in the middle of a float graph (elementwise ops and a sum in half
        precision, back to float by float() / to / type_as): values, dtypes of the leaves' gradients."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        hd = self.pick(["float16", "bfloat16"])
        h = self.new(x.shape, hd, x.rg)
        self.emit("s13:to_half", f"{h.name} = {x.name}." + self.pick([f"to(torch.{hd})", "half()" if hd ==
                                                                       "float16" else "bfloat16()",
                                                                       f"type(torch.{hd})"]))
        k = self.new(x.shape, hd, x.rg)
        self.emit("s13:half_op", f"{k.name} = " + self.pick([f"{h.name} * 2 + 1", f"{h.name} * {h.name}",
                                                             f"({h.name} - 0.5).abs()", f"{h.name}.neg() / 4",
                                                             f"torch.maximum({h.name}, {h.name} * 0.5)"]))
        back = self.pick([(".float()", "float32"), (f".to({x.name}.dtype)", x.dtype), (f".type_as({x.name})", x.dtype),
                          (".double()", "float64"), (".sum().float()", "float32")])
        o = self.new(() if "sum" in back[0] else x.shape, back[1], x.rg)
        self.emit("s13:from_half", f"{o.name} = {k.name}{back[0]}")
        for v in (h, k):
            self.vars.remove(v)   # (no half dtype in the generator's promotion tables: recorded, not reused)

    def w_where_scalar(self) -> None:
        """torch.where / masked_fill / clamp with Python scalars and 0-dim tensors (of another dtype, requiring
        grad) on either side, the method form where(), masked_fill with -inf before a softmax."""
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1)
        if x is None:
            return
        z = self.choose(lambda v: v.dtype in FLOATS and v.rg and not v.shape) or None
        zs = f"{z.name}" if z is not None else "torch.tensor(0.5, dtype=torch.float64)"
        exprs = [f"torch.where({x.name} > 0, {x.name}, 0.0)", f"torch.where({x.name} < 0, -1, {x.name})",
                 f"{x.name}.where({x.name} > 0.5, 0.25)", f"torch.where({x.name} > 0, {x.name}, {zs})",
                 f"{x.name}.masked_fill({x.name} < 0, {zs})",
                 f"{x.name}.masked_fill({x.name} > 1, float('-inf')).softmax(-1)",
                 f"torch.clamp({x.name}, min=torch.tensor(-0.5, dtype={x.name}.dtype))",
                 f"torch.where({x.name}.abs() > 1, {x.name} * 2, {x.name}.sum())"]
        expr = self.pick(exprs)
        rg = x.rg or (z is not None and zs in expr and z.rg)
        o = self.new(x.shape, x.dtype, rg)
        self.emit("s13:where_scalar", f"{o.name} = {expr}")

    def w_reduce_dims(self) -> None:
        """Reductions over dim tuples with negative dims and keepdim (sum, mean, amax, amin, logsumexp, std, var,
        nansum, norm, any / all ...), dim=[] (every dim), and the errors of repeated or out-of-range dims."""
        x = self.choose(lambda v: v.dtype in FLOATS and len(v.shape) >= 1)
        if x is None:
            return
        nd = len(x.shape)
        k = self.i(1, nd + 1)
        ds = sorted(self.rng.choice(nd, k, replace=False).tolist())
        dims = tuple(d - nd if self.r() < 0.5 else d for d in ds)
        keep = self.r() < 0.5
        fn = self.pick(["sum", "mean", "amax", "amin", "logsumexp", "std", "var", "nansum", "nanmean", "any",
                        "all", "norm", "count_nonzero"])
        r = self.r()
        if r < 0.15:   # (an error: a dim twice, or out of range)
            bad = self.pick([dims + (dims[0],), (nd,), (-nd - 1,)])
            self._caught("s13:reduce_err", f"_r = torch.{fn}({x.name}, {bad})")
            return
        if r < 0.25 and fn in ("sum", "mean", "nansum", "amax", "std", "var"):
            dims, keep = [], keep   # (an empty list: every dim for sum / mean ..., an error for amax)
            self._caught("s13:reduce_empty", f"_r = torch.{fn}({x.name}, [], keepdim={keep})")
            return
        shape = self.reduce_shape(x, dims, keep)
        dt = "bool" if fn in ("any", "all") else "int64" if fn == "count_nonzero" else x.dtype
        rg = x.rg and dt == x.dtype
        if fn == "count_nonzero":
            call = f"torch.count_nonzero({x.name}, {dims})"
            shape = self.reduce_shape(x, dims, False)
        elif fn == "norm":
            call = f"{x.name}.norm(2, {dims}, keepdim={keep})"
        else:
            call = f"{x.name}.{fn}({dims}, keepdim={keep})" if self.r() < 0.5 else \
                f"torch.{fn}({x.name}, dim={list(dims)}, keepdim={keep})"
        o = self.new(shape, dt, rg)
        self.emit("s13:reduce_dims", f"{o.name} = {call}")

    def w_errors(self) -> None:
        """A student's error in the middle of a program, caught: backward twice, backward of a non-scalar, an
        in-place op on a leaf, a saved tensor modified, a gradient of the wrong shape, grad of an unused or
        non-differentiable input, numpy() / item() misuse, view() of a non-contiguous tensor; then on."""
        x = self.choose(lambda v: v.dtype in FLOATS and v.rg)
        if x is None:
            return
        s = self.new(x.shape, x.dtype, True)
        kind = self.pick(["twice", "nonscalar", "leaf_inplace", "saved", "grad_shape", "unused", "no_grad_input",
                          "numpy", "item", "view", "not_rg"])
        self.emit("s13:err_setup", f"{s.name} = {x.name}.exp() * 2")
        if kind == "twice":
            self._caught("s13:err:twice", f"{s.name}.sum().backward()\n{s.name}.sum().backward()")
        elif kind == "nonscalar":
            self._caught("s13:err:nonscalar", f"{s.name}.backward()" if _numel(x.shape) != 1 else
                         f"torch.stack([{s.name}.sum(), {s.name}.sum()]).backward()")
        elif kind == "leaf_inplace":
            a = self.choose(lambda v: v.leaf and v.rg) or x
            self._caught("s13:err:leaf_inplace", f"{a.name}.{self.pick(['add_(1)', 'zero_()', 'mul_(2)'])}")
        elif kind == "saved":
            self._caught("s13:err:saved", f"{s.name}.mul_(2)\n{s.name}.sum().backward(retain_graph=True)")
        elif kind == "grad_shape":
            self._caught("s13:err:grad_shape", f"{s.name}.backward(torch.ones({_numel(x.shape) + 1}, "
                                               f"dtype={s.name}.dtype))")
        elif kind == "unused":
            a = self.choose(lambda v: v.leaf and v.rg and v is not x)
            if a is None:
                return
            self._caught("s13:err:unused", f"_g = torch.autograd.grad(({x.name} * 2).sum(), [{x.name}, {a.name}])")
        elif kind == "no_grad_input":
            self._caught("s13:err:no_grad_input", f"_g = torch.autograd.grad({s.name}.sum(), "
                                                  f"{s.name}.detach())")
        elif kind == "numpy":
            self._caught("s13:err:numpy", f"_a = {s.name}.numpy()")
        elif kind == "item":
            self._caught("s13:err:item", f"_a = {s.name}.item()")
        elif kind == "view":
            if len(x.shape) < 2:
                return
            self._caught("s13:err:view", f"_a = {s.name}.t().view(-1)")
        else:
            self._caught("s13:err:not_rg", f"{s.name}.detach().sum().backward()")

    # -- session 14 (appended to programs of seeds >= S14_FIRST_SEED, from a fifth stream of their own: see
    # generate): complex graphs with real losses (Wirtinger gradients of sgn / polar / log / sqrt / det ...),
    # integer-valued float ops (floor / round / sign ... and their zero gradients), NaN and inf in forwards and
    # gradients (the where() trap, nan_to_num, masked fills), in-place ops whose operand broadcasts or promotes
    # (and their errors), 0-dim and empty tensors through op families, dtype promotion with Python numbers and 0-dim
    # tensors, out= with tensors requiring grad, no_grad / inference_mode writes mid-graph, sparse embedding grads --
    S14 = (("complex_ad", 4), ("int_valued", 3), ("nonfinite", 4), ("bcast_inplace", 3), ("empty0d", 4),
           ("promo", 3), ("out_rg", 2), ("nograd_inplace", 3), ("sparse_emb", 2))

    def s14(self) -> None:
        """One op of the session-14 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.S14]
        w = np.array([w for _, w in self.S14], float)
        getattr(self, "u_" + names[int(self.rng.choice(len(names), p=w / w.sum()))])()

    def _side(self, kind: str, expr: str, shape=(), dtype: str = "float32", rg: bool = False) -> str:
        """A result recorded (a new variable the later ops do not use: its dtype / shape need not be tracked)."""
        o = self.new(shape, dtype, rg)
        self.vars.remove(o)
        self.emit(kind, f"{o.name} = {expr}")
        return o.name

    def _obj(self) -> str:
        k = f"n{self.n}"
        self.n += 1
        self.p.objs.append(k)
        return k

    _CPLX14 = ("{c}.exp()", "{c}.sgn()", "{c}.reciprocal()", "{c} * {c}.conj()", "({c} + 2).sqrt()",
               "({c} + 3).log()", "{c}.tanh()", "{c}.sigmoid()", "{c}.pow(2)", "(({c} + 2) ** 0.5)",
               "{c}.conj() * {c}.sin()", "torch.conj_physical({c})", "{c}.conj().exp()", "{c} / ({c}.abs() + 1)",
               "torch.polar({c}.abs() + 0.1, {c}.angle())", "{c}.conj().clone()", "{c}.sin() * 1j",
               "torch.view_as_complex(torch.view_as_real({c}) * 2)", "{c}.sgn() * {c}.abs()", "{c}.rsqrt()",
               "{c}.square() - {c}", "{c}.cosh()", "{c}.asinh()", "{c}.expm1()", "{c}.log1p()")
    _CLOSS14 = ("{o}.abs()", "{o}.angle()", "{o}.real", "{o}.imag", "torch.view_as_real({o}.resolve_conj())",
                "{o}.abs().pow(2)", "torch.real({o} * {o})", "{o}.conj().imag", "torch.imag({o}.conj() * 2)",
                "({o} * {o}.conj()).real.sqrt()", "{o}.abs() * {o}.angle().cos()")

    def u_complex_ad(self) -> None:
        """A complex graph (Wirtinger derivatives of sgn, polar, log, sqrt, conj views, det / inv of complex
        matrices ...) reduced to a real loss (abs, angle, real, imag, view_as_real)."""
        x = self.choose(lambda v: v.dtype in FLOATS + COMPLEX)
        if x is None:
            return
        cdt = "complex128" if x.dtype in ("float64", "complex128") else "complex64"
        c = x
        if x.dtype in FLOATS:
            c = self.new(x.shape, cdt, x.rg)
            self.emit("s14:to_complex", f"{c.name} = " + self.pick([
                f"torch.complex({x.name}, {x.name}.cos())", f"{x.name} * (0.5 - 1.5j)", f"{x.name}.to(torch.{cdt})",
                f"torch.polar({x.name}.abs() + 0.2, {x.name})", f"{x.name} + 1j"]))
        sh = c.shape
        if len(sh) >= 2 and sh[-1] == sh[-2] and sh[-1] > 0 and self.r() < 0.3:
            n = sh[-1]
            expr = self.pick([f"torch.linalg.det({c.name} + 3 * torch.eye({n}))",
                              f"torch.linalg.inv({c.name} + 3 * torch.eye({n}))",
                              f"{c.name} @ {c.name}.mH", f"torch.linalg.slogdet({c.name} + 3 * torch.eye({n}))[0]",
                              f"torch.trace({c.name}.flatten(0, -2)[:{n}])" if len(sh) == 2 else
                              f"{c.name}.diagonal(0, -2, -1).sum(-1)"])
            osh = sh[:-2] if ("det(" in expr or "trace" in expr or "diagonal" in expr) else sh
            o = self.new(osh, cdt, c.rg)
            self.emit("s14:complex_linalg", f"{o.name} = {expr}")
        else:
            o = c
            for _ in range(self.i(1, 3)):
                e = self.pick(self._CPLX14)
                n = self.new(o.shape, cdt, o.rg)
                self.emit("s14:complex_op", f"{n.name} = {e.format(c=o.name)}")
                o = n
        r = self.new(o.shape, _REAL_OF[cdt], o.rg)
        loss = self.pick(self._CLOSS14)
        if "view_as_real" in loss:
            r.shape = (*o.shape, 2)
        self.emit("s14:complex_loss", f"{r.name} = {loss.format(o=o.name)}")

    _INTV14 = (("{x}.floor()", "f"), ("{x}.ceil()", "f"), ("{x}.round()", "f"), ("{x}.round(decimals=1)", "f"),
               ("torch.round({x}, decimals=-1)", "f"), ("{x}.trunc()", "f"), ("{x}.sign()", "f"), ("{x}.sgn()", "f"),
               ("torch.fix({x})", "f"), ("{x}.frac()", "f"), ("torch.remainder({x}, 1.5)", "f"),
               ("torch.fmod({x}, 0.7)", "f"), ("{x} // 0.5", "f"), ("torch.floor_divide({x}, 2)", "f"),
               ("torch.heaviside({x}, {x}.abs())", "f"), ("torch.signbit({x})", "bool"), ("{x}.round().long()", "int64"),  # noqa: E501
               ("torch.div({x}, 2, rounding_mode='floor')", "f"), ("torch.div({x}, 0.3, rounding_mode='trunc')", "f"),
               ("{x}.floor().clamp(-1, 1)", "f"), ("({x} * 4).round() / 4", "f"), ("torch.special.round({x})", "f"),
               ("{x}.sign() * {x}", "f"), ("{x} - {x}.detach().round() + {x}.round().detach()", "f"))

    def u_int_valued(self) -> None:
        """Integer-valued float ops (floor, ceil, round with decimals, trunc, sign, remainder, floor division,
        heaviside ...): their (zero) gradients, grad_fn names and saved attributes, mixed into a differentiable
        expression (the straight-through trick)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        e, kind = self.pick(self._INTV14)
        expr = e.format(x=x.name)
        if kind != "f":
            self._side("s14:int_valued", expr, x.shape, kind)
            return
        o = self.new(x.shape, x.dtype, x.rg)
        self.emit("s14:int_valued", f"{o.name} = {expr}")
        if self.r() < 0.5:
            m = self.new(x.shape, x.dtype, x.rg)
            self.emit("s14:int_valued_use", f"{m.name} = {o.name} * {x.name} + {o.name}")

    _NONFIN14 = ("torch.where({x} > 0, {x}.sqrt(), 0.0)", "torch.where({x} > 0, {x}.log(), {x})",
                 "torch.nan_to_num({x}.log())", "torch.nan_to_num({x} / 0, posinf=1.0, neginf=-1.0)",
                 "{x}.relu().log()", "({x} * 0).sqrt()", "{x}.clamp(min=0).pow(0.5)", "torch.exp({x} * 100)",
                 "{x} / {x}.relu()", "{x}.masked_fill({x} < 0, float('nan'))",
                 "torch.where(torch.isfinite({x}.log()), {x}.log(), torch.zeros_like({x}))",
                 "{x}.masked_fill({x} < 0, float('inf')).softmax(-1)", "torch.maximum({x}, {x}.log())",
                 "torch.fmax({x}, {x}.log())", "torch.nan_to_num({x}.sqrt(), nan=0.5)",
                 "{x}.log().nan_to_num(nan=0.0, neginf=0.0)", "torch.where({x} != 0, 1 / {x}, {x})",
                 "({x} - {x}).div({x} - {x})", "{x}.abs().pow(-1)", "torch.xlogy({x}.relu(), {x}.relu())",
                 "{x}.clamp(max=0).sqrt()", "torch.special.xlog1py({x}.relu(), {x}.relu() - 1)",
                 "{x}.exp().log().mul(float('inf'))")
    _NONFIN_RED14 = ("torch.nansum({x}.log())", "torch.nanmean({x}.sqrt())", "torch.logsumexp({x}.masked_fill("
                     "{x} > 0, float('-inf')), -1)", "{x}.log().amax(-1)", "{x}.sqrt().sum()",
                     "torch.linalg.vector_norm({x} * 0)", "({x} * 0).norm()", "{x}.sqrt().nanmean()")

    def u_nonfinite(self) -> None:
        """NaN and inf in forwards and gradients: where() of a non-finite branch (NaN gradients though the branch is
        not selected), nan_to_num, log / sqrt / division at 0, masked fills with nan / inf, nan-aware reductions,
        norms of zeros; then isnan / isinf counts."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        if self.r() < 0.7 or not x.shape:
            e = self.pick(self._NONFIN14)
            o = self.new(x.shape, x.dtype, x.rg)
        else:
            e = self.pick(self._NONFIN_RED14)
            o = self.new(x.shape[:-1] if "-1)" in e else (), x.dtype, x.rg)
        self.emit("s14:nonfinite", f"{o.name} = {e.format(x=x.name)}")
        if self.r() < 0.3:
            self.emit("s14:nonfinite_count", f"{self._obj()} = (int({o.name}.isnan().sum()), "
                                             f"int({o.name}.isinf().sum()), bool({o.name}.isfinite().all()))")

    def u_bcast_inplace(self) -> None:
        """In-place ops whose other operand broadcasts into self (add_, mul_, copy_, addcmul_, lerp_ ... with a
        smaller, 0-dim or other-dtype tensor: self's dtype kept, the operand's gradient reduced back) and the
        errors: an operand broadcasting to a bigger shape, a result type that cannot be cast back (int.add_(0.5),
        bool, complex into float), writes into expanded memory."""
        x = self.choose(lambda v: v.dtype in FLOATS and not v.multi_view and not v.overlap)
        if x is None:
            return
        t = self.new(x.shape, x.dtype, x.rg)
        self.emit("s14:bc_base", f"{t.name} = {x.name} * 1")
        if self.r() < 0.4:
            sh = list(x.shape)
            big = ", ".join(map(str, [2, *sh]))
            kind, body = self.pick([
                ("bigger", f"{t.name}.add_(torch.ones({big}, dtype={t.name}.dtype))"),
                ("bigger", f"{t.name}.mul_({t.name}.unsqueeze(0).expand(2, *{t.name}.shape))"),
                ("cast", f"_i = {t.name}.detach().long()\n_i.add_(0.5)"),
                ("cast", f"_i = ({t.name} > 0)\n_i.add_(1)"),
                ("cast", f"{t.name}.mul_(1j)"),
                ("cast", f"{t.name}.add_(torch.ones((), dtype=torch.complex64))"),
                ("cast", f"_i = {t.name}.detach().int()\n_i.div_(2)"),
                ("expanded", f"{t.name}.unsqueeze(0).expand(2, *{t.name}.shape).add_(1)"),
                ("expanded", "_z = torch.zeros(1).expand(3)\n_z.mul_(2)"),
                ("ok_int", f"_i = {t.name}.detach().long()\n_i.add_(2)\n_i.mul_(torch.tensor(3))\n"
                           f"{self._obj()} = (_i.dtype, _i)")])
            self._caught(f"s14:bc_err:{kind}", body)
            return
        y = self.choose(lambda v: v is not t and v.dtype in FLOATS and _bshape(v.shape, t.shape) == tuple(t.shape))
        yname = y.name if y is not None else "torch.tensor(1.5, dtype=torch.float64, requires_grad=True)"
        op = self.pick([f"add_({yname})", f"mul_({yname})", f"sub_({yname}, alpha=2)", f"copy_({yname})",
                        f"addcmul_({yname}, {yname}, value=0.5)", f"lerp_({yname}, 0.3)", f"div_({yname}.exp())",
                        f"clamp_(min={yname})", f"addcdiv_({yname}, {yname}.exp())", f"mul_({yname}.double())",
                        f"add_({yname}.sum())", f"copy_({yname}.double().sum())", "pow_(2)", "mul_(2.5)"])
        self.emit("s14:bc_inplace", f"{t.name}.{op}")
        if y is not None and y.name in op:
            t.rg = t.rg or y.rg
        elif "requires_grad=True" in op:
            t.rg = True
        o = self.new(t.shape, t.dtype, t.rg)
        self.emit("s14:bc_use", f"{o.name} = {t.name}.sin() * 2")

    _EMPTY14 = ("{e}.sum()", "{e}.prod()", "{e}.mean()", "{e}.amax()", "{e}.max()", "{e}.logsumexp(-1)",
                "{e}.softmax(-1)", "{e}.cumsum(-1)", "{e}.norm()", "{e}.std()", "{e}.var(-1)", "{e}.median()",
                "{e}.argmax()", "{e}.sum(-1, keepdim=True)", "{e}.exp() * 2", "torch.cat([{e}, {e} * 2], -1)",
                "{e}.flatten() @ {e}.flatten()", "{e}.sort(-1).values", "{e}.min(-1).values", "{e}.cumprod(-1)",
                "torch.linalg.vector_norm({e}, 3)", "{e}.nansum()", "{e}.topk(0, -1).values",
                "{e}.reshape(-1, 0) if {e}.numel() == 0 else {e}", "{e}.unsqueeze(0).expand(2, *{e}.shape).sum()")
    _ZERO_D14 = ("{z}.unsqueeze(0)", "{z}.expand(3)", "{z}.view(1, 1)", "{z}.reshape(-1)", "{z}.flatten()",
                 "{z}.sum(0)", "{z}.sum(-1)", "{z}.t()", "{z}[()]", "{z}[None]", "{z}[...]", "{z}.squeeze(0)",
                 "torch.stack([{z}, {z} * 2])", "torch.cat([{z}, {z}])", "{z}.cumsum(0)", "{z}.softmax(0)",
                 "{z}.argmax(0)", "{z}.sort().values", "{z}.topk(1).values", "{z}.index_select(0, torch.tensor([0]))",
                 "{z}.gather(0, torch.tensor(0))", "{z}.flip(0)", "{z}.max(0).values", "{z}.norm(dim=0)",
                 "{z}.mean(-1, keepdim=True)", "{z}.sum(1)", "{z}.diff()", "{z} @ {z}", "{z}.dot({z})",
                 "{z}.amax([])", "{z}.logsumexp(0)", "{z}.T", "{z}.mT", "{z}.movedim(0, 0)",
                 "{z}.unbind(0)", "{z}.clone().resize_(2)", "torch.atleast_1d({z})", "{z}.repeat(2, 1)",
                 "{z}.masked_fill(torch.tensor(True), 0.0)", "{z}.where({z} > 0, torch.zeros(2))")

    def u_empty0d(self) -> None:
        """0-dim and empty tensors through every op family: reductions of nothing (0, 1, nan, -inf and the errors
        of amax / max / argmax), softmax, scans, matmul and cat of empties; a 0-dim tensor through views (dim 0 and
        -1 are valid), indexing with (), None and ..., stack / cat (an error), sort, topk, gather ..."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        if self.r() < 0.5:
            if x.shape:
                d = self.dim(x)
                src = self.pick([f"{x.name}.narrow({d}, 0, 0)", f"{x.name}[..., :0]", f"{x.name}.flatten()[:0]",
                                 f"{x.name}.flatten()[3:1]"])
            else:
                src = f"{x.name}.reshape(1, 1)[:, :0]"
            e = self.new((0,), x.dtype, x.rg)
            self.vars.remove(e)
            self.emit("s14:empty", f"{e.name} = {src}")
            for _ in range(self.i(1, 3)):
                expr = self.pick(self._EMPTY14).format(e=e.name)
                o = self.new((), x.dtype, x.rg)
                self.vars.remove(o)
                self._caught("s14:empty_op", f"{o.name} = {expr}")
            return
        z = self.new((), x.dtype, x.rg)
        self.emit("s14:zero_d", f"{z.name} = " + self.pick([f"{x.name}.sum()", f"{x.name}.flatten()[0]" if
                                                            _numel(x.shape) else f"{x.name}.sum()",
                                                            f"{x.name}.mean() * 2", f"{x.name}.amax()" if
                                                            _numel(x.shape) else f"{x.name}.sum()"]))
        for _ in range(self.i(1, 4)):
            expr = self.pick(self._ZERO_D14).format(z=z.name)
            o = self.new((), x.dtype, x.rg)
            self.vars.remove(o)
            self._caught("s14:zero_d_op", f"{o.name} = {expr}")

    _PROMO14 = ("{x} * torch.tensor(2.5, dtype=torch.float64)", "{x}.long() * 1.5",
                "{x}.long() + torch.tensor(1.5, dtype=torch.float64)", "{x} + torch.tensor(2)", "({x} > 0) + 1",
                "({x} > 0) * 1.5", "({x} > 0) + True", "{x}.to(torch.int32) + 2", "{x}.to(torch.int32) * torch.tensor(3)",  # noqa: E501
                "{x}.to(torch.int16) / 2", "{x}.abs().to(torch.uint8) - 3", "{x} * (1 + 1j)",
                "{x}.double() * torch.tensor(1j)", "{x} + torch.tensor([0.5], dtype=torch.float64)",
                "{x}.half() + torch.tensor(1.0, dtype=torch.float64)", "{x}.bfloat16() * 2.5",
                "{x}.half() + {x}.bfloat16()", "{x}.long() / {x}.long().clamp(min=1)", "{x}.long() // 2",
                "{x}.int() + {x}.long()", "{x}.to(torch.int8) * 1.0", "torch.tensor(3) * {x}.half()",
                "{x}.float() + torch.tensor(1, dtype=torch.complex128)", "torch.where({x} > 0, {x}.long(), 0.5)",
                "torch.where({x} > 0, {x}, torch.tensor(2, dtype=torch.float64))",
                "{x}.to(torch.int32).sum()", "{x}.to(torch.int16).cumsum(-1)", "({x} > 0).sum()",
                "({x} > 0).prod()", "{x}.to(torch.uint8).abs()", "torch.add({x}.int(), 2, alpha=1.5)",
                "torch.true_divide({x}.long(), 2)", "{x}.long() ** 2", "{x}.long() ** -1", "{x}.long() ** 0.5",
                "2 ** {x}.long().clamp(0, 3)", "{x}.long().float_power(2)", "({x} > 0) - ({x} < 0)",
                "-({x} > 0)", "~({x} > 0)", "{x}.long() & 3", "{x}.long() << 1", "{x}.bool().int().sum(dtype=torch.int8)")  # noqa: E501

    def u_promo(self) -> None:
        """dtype promotion with Python numbers and 0-dim tensors (a 0-dim tensor of a wider dtype in the same
        category does not widen; of a higher category it decides), integer, bool, half and complex results; a
        0-dim float64 leaf requiring grad times a float32 result: its gradient is float64; result_type /
        promote_types / can_cast; the errors (alpha on integers, ops on bools)."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        r = self.r()
        if r < 0.25:
            s = self.new((), "float64", True)
            s.leaf = True
            self.p.leaves.append(s.name)
            self.emit("s14:promo_leaf", f"{s.name} = torch.tensor({self.pick([1.5, -0.5, 2.0])}, "
                                        f"dtype=torch.{self.pick(['float64', 'float64', 'float32'])}, requires_grad=True)")  # noqa: E501
            o = self.new(x.shape, x.dtype, True)
            self.emit("s14:promo_mix", f"{o.name} = {x.name} * {s.name}" if self.r() < 0.5 else
                      f"{o.name} = torch.where({x.name} > 0, {x.name}, {s.name})" if self.r() < 0.5 else
                      f"{o.name} = {x.name}.clamp(min={s.name}.to({x.name}.dtype))")
            return
        if r < 0.35:
            self.emit("s14:promo_query", f"{self._obj()} = (torch.result_type({x.name}, "
                      f"{self.pick(['2', '2.5', '1j', 'True', 'torch.tensor(1.0, dtype=torch.float64)'])}), "
                      f"torch.promote_types({x.name}.dtype, torch.{self.pick(['int64', 'float16', 'bfloat16', 'complex64', 'bool'])}), "  # noqa: E501
                      f"torch.can_cast(torch.{self.pick(['float64', 'int64', 'complex64', 'bool'])}, {x.name}.dtype))")
            return
        e = self.pick(self._PROMO14).format(x=x.name)
        o = self.new(x.shape, x.dtype, x.rg)
        self.vars.remove(o)
        self._caught("s14:promo", f"{o.name} = {e}\n_dt = {o.name}.dtype")

    def u_out_rg(self) -> None:
        """out= with tensors requiring grad (PyTorch's error names the function), an out of another shape (resized,
        with a warning when it had elements), of a dtype the result cannot be cast to (an error), out= one of the
        inputs, reductions and matmul with out=."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        sh = ", ".join(map(str, x.shape)) or "()"
        o = self.new(x.shape, x.dtype, False)
        self.vars.remove(o)
        call = self.pick(["torch.exp({x}, out={o})", "torch.add({x}, 1, out={o})", "torch.mul({x}, {x}, out={o})",
                          "torch.sum({x}, -1, out={o})", "torch.cumsum({x}, -1, out={o})",
                          "torch.clamp({x}, 0, out={o})", "torch.matmul({x}, {x}.mT, out={o})",
                          "torch.tanh({x}, out={o})", "torch.abs({x}, out={o})", "torch.pow({x}, 2, out={o})",
                          "torch.where({x} > 0, {x}, 0.0, out={o})", "torch.amax({x}, -1, out={o})",
                          "torch.mean({x}, -1, out={o})", "torch.sort({x}, out=({o}, torch.empty(0, dtype="
                          "torch.long)))"])
        if ("-1" in call or "mT" in call) and not x.shape or ("mT" in call and len(x.shape) < 2):
            call = "torch.exp({x}, out={o})"
        kind = self.pick(["rg_in", "rg_out", "resize", "dtype", "self", "empty"])
        if kind == "self" and ("-1" in call or "mT" in call or "sort" in call):
            # (a reduction into its own input reads what it writes, resized: PyTorch's result is whatever its
            # kernel's order makes of it; out= self only for elementwise calls)
            call = "torch.exp({x}, out={o})"
        xs = x.name
        if kind == "rg_in":
            pre = f"{o.name} = torch.zeros({sh}, dtype={xs}.dtype)"
        elif kind == "rg_out":
            pre = f"{o.name} = torch.zeros({sh}, dtype={xs}.dtype) * {xs}"
            xs = f"{xs}.detach()"
        elif kind == "resize":
            pre = f"{o.name} = torch.ones(7, dtype={xs}.dtype)"
            xs = f"{xs}.detach()"
        elif kind == "dtype":
            pre = f"{o.name} = torch.zeros({sh}, dtype=torch.{self.pick(['long', 'int32', 'bool', 'float64', 'complex64', 'float16'])})"  # noqa: E501
            xs = f"{xs}.detach()"
        elif kind == "self":
            pre = f"{o.name} = {xs}.detach().clone()"
            xs = o.name
        else:
            pre = f"{o.name} = torch.empty(0, dtype={xs}.dtype)"
            xs = f"{xs}.detach()"
        self._caught(f"s14:out:{kind}", pre + "\n" + call.format(x=xs, o=o.name))

    def u_nograd_inplace(self) -> None:
        """no_grad / inference_mode writes in the middle of a graph: into a tensor a node saved (backward's version
        error), into one no node saved (backward goes on with the new values), into a leaf; a view made under
        no_grad written with grad enabled (an error); a tensor made under no_grad written by an op with an operand
        requiring grad (it gets a grad_fn); an inference tensor written outside inference mode (an error)."""
        x = self.choose(lambda v: v.dtype in FLOATS and v.rg and not v.multi_view and not v.overlap)
        if x is None:
            return
        kind = self.pick(["saved", "unsaved", "leaf", "view", "later_rg", "inference", "enable_grad"])
        if kind == "saved":
            s = self.new(x.shape, x.dtype, True)
            self.emit("s14:ng_saved", f"{s.name} = {x.name}.exp()\nwith torch.no_grad():\n    {s.name}.mul_(2)")
            self._caught("s14:ng_backward", f"{s.name}.sum().backward(retain_graph=True)")
            s.rg = False   # (its graph fails from here on)
            self.vars.remove(s)
        elif kind == "unsaved":
            s = self.new(x.shape, x.dtype, True)
            self.emit("s14:ng_unsaved", f"{s.name} = {x.name} + 1\nwith torch.no_grad():\n"
                                        f"    {s.name}.{self.pick(['add_(5)', 'mul_(0.5)', 'zero_()', 'clamp_(0, 1)'])}")  # noqa: E501
            o = self.new(x.shape, x.dtype, True)
            self.emit("s14:ng_use", f"{o.name} = {s.name} * {x.name}")
        elif kind == "leaf":
            a = self.choose(lambda v: v.leaf and v.rg and v.dtype in FLOATS)
            if a is None:
                return
            u = self.new(a.shape, a.dtype, True)
            self.emit("s14:ng_leaf", f"{u.name} = {a.name} * 3\nwith torch.no_grad():\n"
                                     f"    {a.name}.{self.pick(['mul_(0.5)', 'add_(1)', 'sub_(' + a.name + ' * 0.1)'])}")  # noqa: E501
        elif kind == "view":
            s = self.new(x.shape, x.dtype, True)
            view = f"{s.name}[0]" if x.shape else f"{s.name}.view(1)"
            self.emit("s14:ng_view_base", f"{s.name} = {x.name} * 2\nwith torch.no_grad():\n    _w = {view}")
            self._caught("s14:ng_view_write", f"_w.{self.pick(['mul_(2)', 'add_(1)', 'zero_()'])}")
        elif kind == "later_rg":
            s = self.new(x.shape, x.dtype, True)
            self.emit("s14:ng_later", f"with torch.no_grad():\n    {s.name} = {x.name} * 2\n"
                                      f"{s.name}.{self.pick(['mul_', 'add_', 'sub_', 'copy_'])}({x.name})")
        elif kind == "inference":
            s = self.new(x.shape, x.dtype, False)
            self.vars.remove(s)
            self.p.names.remove(s.name)   # (an inference tensor has no _version to record: its flags instead)
            self.emit("s14:ng_inference", f"with torch.inference_mode():\n    {s.name} = {x.name} * 2\n"
                                          f"{self._obj()} = ({s.name}.is_inference(), {s.name}.requires_grad)")
            self._caught("s14:ng_inference_write", f"{s.name}.{self.pick(['add_(1)', 'mul_(' + x.name + ')'])}")
        else:
            s = self.new(x.shape, x.dtype, True)
            self.emit("s14:ng_enable", f"with torch.no_grad():\n    _t = {x.name} * 2\n"
                                       f"    with torch.enable_grad():\n        {s.name} = {x.name} * 3\n"
                                       f"        {s.name}.add_(_t)")

    def u_sparse_emb(self) -> None:
        """embedding(sparse=True): the weight's gradient is a sparse COO tensor (uncoalesced: one row per index,
        padding_idx's rows zero), accumulated over two backward calls, coalesced, made dense; an SGD step with it;
        optimizers that refuse sparse gradients."""
        x = self.choose(lambda v: v.dtype in FLOATS)
        if x is None:
            return
        n, k = self.i(3, 6), self.i(1, 4)
        w = self.const(np.round(self.rng.standard_normal((n, k)), 2), "x")
        ish = self.pick([(4,), (2, 3), (3,)])
        idx = self.const(self.rng.integers(0, n, ish), "i")
        pad = self.pick(["", ", padding_idx=0", ", padding_idx=-1", ", max_norm=1.0"])
        o = self.new((), "float32", False)
        self.vars.remove(o)
        lines = [f"_w = torch.tensor({w}, dtype=torch.float32, requires_grad=True)",
                 f"_e = torch.nn.functional.embedding(torch.tensor({idx}), _w{pad}, sparse=True)",
                 f"{o.name} = (_e * _e).sum() if {self.r() < 0.5} else _e.sum()", f"{o.name}.backward()"]
        if self.r() < 0.4:
            lines.append(f"torch.nn.functional.embedding(torch.tensor({idx})[:1], _w, sparse=True).sum().backward()")
        lines.append("_g = _w.grad")
        lines.append(f"{self._obj()} = (_g.is_sparse, str(_g.layout), _g.is_coalesced(), _g.shape, _g.to_dense(), "
                     f"_g.coalesce().indices(), _g.coalesce().values(), _g._nnz())")
        after = self.pick(["sgd", "adam", "dense_add", "none"])
        if after == "sgd":
            lines.append("torch.optim.SGD([_w], lr=0.5).step()\n" f"{self._obj()} = _w.detach().clone()")
        elif after == "adam":
            lines.append("torch.optim.Adam([_w]).step()")
        elif after == "dense_add":
            lines.append(f"{self._obj()} = (_g + torch.ones({n}, {k})).is_sparse")
        self._caught("s14:sparse_emb", "\n".join(lines))

    FAMILIES = (("unary", 20), ("binary", 20), ("reduction", 12), ("scan", 7), ("view", 16), ("index", 6),
                ("sort", 4), ("combine", 8), ("scatter", 6), ("inplace", 15), ("nograd", 1), ("reduction2", 5),
                ("shape2", 7), ("product2", 5), ("scatter2", 4), ("extra", 12))

    def op(self) -> None:
        names = [f for f, _ in self.FAMILIES]
        w = np.array([w for _, w in self.FAMILIES], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        if fam == "index":
            x = self.choose(lambda v: len(v.shape) >= 1)
            if x is not None:
                self.index(x)
            return
        getattr(self, fam)()

    def finish(self) -> None:
        """The backward pass: on a sum of the last real differentiable result, or with a random gradient."""
        cands = [v for v in self.vars if v.rg and _CATEGORY[v.dtype] >= 2]
        y = cands[-1] if cands and self.r() < 0.7 else (self.pick(cands) if cands else self.vars[-1])
        expr = y.name
        if y.dtype in COMPLEX:
            expr = f"{y.name}.abs()" if self.r() < 0.5 else f"torch.view_as_real({y.name})"
        rgleaves = [v.name for v in self.vars if v.leaf and v.rg]
        if self.r() < 0.25 and rgleaves:
            self.p.double = True
            self.p.final.append(f"out = ({expr}).sum()")
            self.p.final.append(f"G = torch.autograd.grad(out, [{', '.join(rgleaves)}], create_graph=True, "
                                f"allow_unused=True)")
            self.p.final.append("S = sum((g * g).sum() for g in G if g is not None and g.requires_grad)")
            self.p.final.append("S.backward() if torch.is_tensor(S) else None")
            return
        if self.r() < 0.3 and y.dtype in FLOATS:
            g = np.round(self.rng.standard_normal(y.shape), 2)
            self.p.final.append(f"out = {expr}")
            self.p.final.append(f"out.backward(torch.tensor({self.const(g, 'g')}, dtype=out.dtype))")
        else:
            self.p.final.append(f"out = ({expr}).sum()")
            self.p.final.append("out.backward()")


# ---------------------------------------------------------------------------------------------------------------
# The nn family: torch.nn.functional calls (and short module chains) with random but valid arguments; about one
# op in ten gets a deliberately wrong shape or dtype, so PyTorch's error messages are compared too.

class _NNGen(_Gen):
    """The state of one nn program: each op makes its own leaves (named x0, x1 ...), activations chain on results."""

    def leaf(self, shape, dtype: str = "float32", rg: bool = True, vals=None, kind: str = "normal") -> str:
        """A new leaf tensor (rounded normal values unless ``vals`` / ``kind`` say otherwise); its name."""
        shape = tuple(int(s) for s in shape)
        if vals is None:
            if kind == "prob":
                vals = np.round(self.rng.uniform(0.05, 0.95, shape), 2)
            elif kind == "pos":
                vals = np.round(self.rng.uniform(0.2, 2.0, shape), 2)
            else:
                vals = np.round(self.rng.standard_normal(shape) * 1.2, 2)
        name = f"x{len(self.p.leaves)}"
        integral = dtype in ("int64", "bool")
        rg = rg and not integral
        v = V(name, shape, dtype, leaf=True, rg=rg)
        self.vars.append(v)
        self.p.names.append(name)
        self.p.leaves.append(name)
        src = self.const(np.asarray(vals, np.int64 if integral else np.float64), "x")
        self.p.lines.append(f"{name} = torch.tensor({src}, dtype=torch.{dtype}{', requires_grad=True' if rg else ''})")
        return name

    def ints(self, shape, lo: int, hi: int, dtype: str = "int64") -> str:
        return self.leaf(shape, dtype, False, self.rng.integers(lo, hi, tuple(shape)))

    def out(self, kind: str, expr: str, n: int = 1, dtype: str = "float32", rg: bool = True) -> None:
        """Emit ``v = expr`` (or ``v, w = expr`` when ``n == 2``: the second an int64 result)."""
        vs = [self.new((), dtype, rg)] + ([self.new((), "int64", False)] if n == 2 else [])
        self.emit("nn:" + kind, f"{', '.join(v.name for v in vs)} = {expr}")

    def fdt(self) -> str:
        return "float32" if self.r() < 0.75 else "float64"

    def red(self) -> str:
        return self.pick(["", ", reduction='none'", ", reduction='mean'", ", reduction='sum'"])

    # -- layers ---------------------------------------------------------------------------------------------
    def nn_linear(self, bad: bool) -> None:
        dt, n, i, o = self.fdt(), self.i(1, 4), self.i(1, 5), self.i(1, 4)
        lead = (n,) if self.r() < 0.7 else (2, n)
        x = self.leaf(lead + (i,), dt)
        w = self.leaf((o, i + (1 if bad else 0)), dt)
        b = self.leaf((o,), dt) if self.r() < 0.6 else "None"
        self.out("linear", f"torch.nn.functional.linear({x}, {w}, {b})", dtype=dt)

    def nn_bilinear(self, bad: bool) -> None:
        dt, n, i1, i2, o = self.fdt(), self.i(1, 4), self.i(1, 4), self.i(1, 4), self.i(1, 3)
        x1, x2 = self.leaf((n, i1), dt), self.leaf((n + (1 if bad else 0), i2), dt)
        w = self.leaf((o, i1, i2), dt)
        b = self.leaf((o,), dt) if self.r() < 0.5 else "None"
        self.out("bilinear", f"torch.nn.functional.bilinear({x1}, {x2}, {w}, {b})", dtype=dt)

    def nn_conv(self, bad: bool, nd: int, transpose: bool) -> None:
        dt, n, g = self.fdt(), self.i(1, 3), self.pick([1, 1, 2])
        cin, cout = g * self.i(1, 3), g * self.i(1, 3)
        k = [self.i(1, 4) for _ in range(nd)]
        s, d = self.pick([1, 1, 2]), self.pick([1, 1, 2])
        if transpose:
            p = self.i(0, min(d * (kk - 1) for kk in k) // 2 + 1)
            sp = [self.i(1, 4) for _ in range(nd)]
        else:
            p = self.i(0, 3)
            sp = [d * (kk - 1) + 1 + self.i(0, 3) for kk in k]
        x = self.leaf((n, cin + (1 if bad else 0)) + tuple(sp), dt)
        w = self.leaf(((cin, cout // g) if transpose else (cout, cin // g)) + tuple(k), dt)
        b = self.leaf((cout,), dt) if self.r() < 0.6 else "None"
        name = f"conv{'_transpose' if transpose else ''}{nd}d"
        if transpose:
            op = self.i(0, max(s, d))
            self.out(name, f"torch.nn.functional.{name}({x}, {w}, {b}, stride={s}, padding={p}, output_padding={op},"
                           f" groups={g}, dilation={d})", dtype=dt)
        else:
            self.out(name, f"torch.nn.functional.{name}({x}, {w}, {b}, stride={s}, padding={p}, dilation={d}, "
                           f"groups={g})", dtype=dt)

    def nn_pool(self, bad: bool, kinds=None) -> None:
        kind = self.pick(kinds or ["max_pool1d", "max_pool2d", "avg_pool1d", "avg_pool2d", "adaptive_avg_pool1d",
                                   "adaptive_avg_pool2d", "adaptive_max_pool1d", "adaptive_max_pool2d", "lp_pool1d",
                                   "lp_pool2d"])
        nd = int(kind[-2])
        dt, k, s = self.fdt(), self.i(1, 4), self.pick([None, 1, 2])
        d = self.pick([1, 1, 2]) if kind.startswith("max") else 1
        sp = [d * (k - 1) + 1 + self.i(0, 3) for _ in range(nd)]
        shape = ((self.i(1, 3),) if self.r() < 0.7 else ()) + (self.i(1, 3),) + tuple(sp)
        if bad:
            shape = shape[-1:]
        x = self.leaf(shape, dt, kind="pos" if kind.startswith("lp") else "normal")
        F_ = "torch.nn.functional."
        ceil = self.r() < 0.4
        p = self.i(0, k // 2 + 1)
        if kind.startswith("max"):
            ri = self.r() < 0.4
            self.out(kind, f"{F_}{kind}({x}, {k}, stride={s}, padding={p}, dilation={d}, ceil_mode={ceil}, "
                           f"return_indices={ri})", 2 if ri else 1, dt)
        elif kind.startswith("avg"):
            extra = f", divisor_override={self.i(1, 4)}" if kind != "avg_pool1d" and self.r() < 0.3 else ""
            self.out(kind, f"{F_}{kind}({x}, {k}, stride={s}, padding={p}, ceil_mode={ceil}, "
                           f"count_include_pad={self.r() < 0.5}{extra})", dtype=dt)
        elif kind.startswith("adaptive"):
            size = self.i(1, 4) if nd == 1 or self.r() < 0.5 else (self.i(1, 4), self.pick([None, 2]))
            size = (self.i(1, 3), *size) if nd == 3 and isinstance(size, tuple) else size
            ri = kind.startswith("adaptive_max") and self.r() < 0.5
            self.out(kind, f"{F_}{kind}({x}, {size!r}{', return_indices=True' if ri else ''})", 2 if ri else 1, dt)
        else:
            self.out(kind, f"{F_}{kind}({x}, {self.pick([1, 2, 3, 1.5])}, {k}, stride={s}, ceil_mode={ceil})",
                     dtype=dt)

    def nn_norm(self, bad: bool) -> None:
        kind = self.pick(["batch_norm", "layer_norm", "group_norm", "instance_norm"])
        dt, n, c = self.fdt(), self.i(2, 4), self.pick([2, 3, 4])
        sp = tuple(self.i(1, 4) for _ in range(self.i(0, 3)))
        if kind == "instance_norm" and not sp:
            sp = (self.i(2, 4),)
        x = self.leaf((n, c) + sp, dt)
        F_ = "torch.nn.functional."
        aff = self.r() < 0.6
        cc = c + (1 if bad else 0)
        w = self.leaf((cc,), dt) if aff and kind != "layer_norm" else "None"
        b = self.leaf((cc,), dt) if aff and kind != "layer_norm" and self.r() < 0.7 else "None"
        eps = self.pick(["", ", eps=1e-3"])
        if kind in ("batch_norm", "instance_norm"):
            stats = self.r() < 0.7 or kind == "batch_norm"
            rm = self.leaf((cc,), dt, False) if stats else "None"
            rv = self.leaf((cc,), dt, False, kind="pos") if stats else "None"
            if kind == "batch_norm":
                tr = self.r() < 0.6
                self.out(kind, f"{F_}batch_norm({x}, {rm}, {rv}, {w}, {b}, training={tr}, "
                               f"momentum={self.pick([0.1, 0.5])}{eps})", dtype=dt)
            else:
                use = self.r() < 0.7 or not stats
                self.out(kind, f"{F_}instance_norm({x}, {rm}, {rv}, {w}, {b}, use_input_stats={use}{eps})", dtype=dt)
        elif kind == "layer_norm":
            k = self.i(1, len(sp) + 2)
            ns = ((c,) + sp)[-k:]
            if bad:
                ns = ns[:-1] + (ns[-1] + 1,)
            wl = self.leaf(ns, dt) if aff else "None"
            bl = self.leaf(ns, dt) if aff and self.r() < 0.7 else "None"
            self.out(kind, f"{F_}layer_norm({x}, {list(ns)}, {wl}, {bl}{eps})", dtype=dt)
        else:
            gr = self.pick([gg for gg in (1, 2, 4) if c % gg == 0]) if not bad else 3 if c != 3 else 2
            self.out(kind, f"{F_}group_norm({x}, {gr}, {w if cc == c else 'None'}, {b if cc == c else 'None'}{eps})",
                     dtype=dt)

    def nn_dropout(self, bad: bool) -> None:
        kind = self.pick(["dropout", "dropout1d", "dropout2d", "alpha_dropout"])
        dt = self.fdt()
        shape = {"dropout": (2, 3), "dropout1d": (2, 3, 4), "dropout2d": (1, 3, 2, 2), "alpha_dropout": (3, 4)}[kind]
        x = self.leaf(shape, dt)
        p = self.pick([0.0, 0.3, 0.5]) if not bad else 1.5
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        self.out(kind, f"torch.nn.functional.{kind}({x}, p={p}, training={self.r() < 0.8})", dtype=dt)

    def nn_embedding(self, bad: bool) -> None:
        num, dim = self.i(3, 6), self.i(1, 4)
        wdt = self.fdt()
        w = self.leaf((num, dim), wdt)
        ix = self.ints((self.i(1, 4),) + ((self.i(1, 3),) if self.r() < 0.4 else ()), 0, num + (2 if bad else 0))
        extra = ""
        if self.r() < 0.4:
            extra += f", padding_idx={self.i(-num, num)}"
        if self.r() < 0.3:
            extra += f", max_norm={self.pick([1.0, 0.5])}, norm_type={self.pick([2.0, 1.0])}"
        self.out("embedding", f"torch.nn.functional.embedding({ix}, {w}{extra})", dtype=wdt)

    ACTS = ("relu(X)", "gelu(X)", "gelu(X, approximate='tanh')", "silu(X)", "mish(X)", "elu(X, alpha=0.5)",
            "selu(X)", "celu(X, alpha=1.5)", "leaky_relu(X, 0.2)", "hardtanh(X, -0.5, 0.7)", "hardswish(X)",
            "softplus(X, beta=2, threshold=1)", "softplus(X)", "softmax(X, dim=D)",
            "softmax(X, dim=D, dtype=torch.float64)", "log_softmax(X, dim=D)", "softmin(X, dim=D)",
            "log_softmax(X, D, dtype=torch.float64)", "glu(X, dim=G)", "prelu(X, P)", "rrelu(X, training=False)",
            "hardsigmoid(X)", "relu6(X)", "tanhshrink(X)", "softsign(X)", "logsigmoid(X)", "threshold(X, 0.1, -2.0)",
            "hardshrink(X, 0.3)", "softshrink(X, 0.3)", "sigmoid(X)", "tanh(X)", "elu(X)", "celu(X)")

    def nn_act(self, bad: bool) -> None:
        expr = self.pick(self.ACTS)
        prev = [v for v in self.vars if not v.leaf and v.dtype in FLOATS and v.rg and v.shape == ()]
        if prev and self.r() < 0.5 and "D" not in expr and "G" not in expr and "P" not in expr:
            x, dt = prev[-1].name, prev[-1].dtype
        else:
            dt = self.fdt()
            shape = tuple(self.i(1, 4) for _ in range(self.i(1, 4)))
            if "G" in expr:
                shape = shape[:-1] + (2 * self.i(1, 3) + (1 if bad else 0),)
            x = self.leaf(shape, dt)
        nd = len(self.vars[-1].shape) if self.vars[-1].leaf else 1
        expr = expr.replace("D", str(self.i(-nd, nd))).replace("G", "-1")
        if "P" in expr:
            c = self.vars[-1].shape[1] if len(self.vars[-1].shape) > 1 else 1
            expr = expr.replace("P", self.leaf((self.pick([1, c + (1 if bad else 0)]),), dt))
        if "float64" in expr:
            dt = "float64"
        self.out(expr.split("(")[0], f"torch.nn.functional.{expr.replace('X', x)}", dtype=dt)

    def nn_loss(self, bad: bool) -> None:
        kind = self.pick(["mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss", "binary_cross_entropy",
                          "binary_cross_entropy_with_logits", "cross_entropy", "cross_entropy_probs", "nll_loss",
                          "kl_div", "cosine_embedding_loss", "margin_ranking_loss", "triplet_margin_loss",
                          "hinge_embedding_loss", "poisson_nll_loss", "gaussian_nll_loss"])
        dt, n, c = self.fdt(), self.i(1, 4), self.i(2, 5)
        F_, red = "torch.nn.functional.", self.red()
        shape = (n, c)
        bshape = (n, c + 1) if bad else shape
        if kind in ("mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"):
            x, y = self.leaf(shape, dt), self.leaf(bshape, dt, self.r() < 0.4)
            extra = {"smooth_l1_loss": self.pick(["", ", beta=0.5", ", beta=0.0"]),
                     "huber_loss": self.pick(["", ", delta=0.5"])}.get(kind, "")
            self.out(kind, f"{F_}{kind}({x}, {y}{red}{extra})", dtype=dt)
        elif kind == "binary_cross_entropy":
            x, y = self.leaf(shape, dt, kind="prob"), self.leaf(bshape, dt, False, kind="prob")
            w = f", weight={self.leaf((c,), dt, False, kind='pos')}" if self.r() < 0.4 else ""
            self.out(kind, f"{F_}{kind}({x}, {y}{w}{red})", dtype=dt)
        elif kind == "binary_cross_entropy_with_logits":
            x, y = self.leaf(shape, dt), self.leaf(bshape, dt, self.r() < 0.3, kind="prob")
            w = f", weight={self.leaf((c,), dt, False, kind='pos')}" if self.r() < 0.4 else ""
            pw = f", pos_weight={self.leaf((c,), dt, self.r() < 0.5, kind='pos')}" if self.r() < 0.5 else ""
            self.out(kind, f"{F_}{kind}({x}, {y}{w}{pw}{red})", dtype=dt)
        elif kind in ("cross_entropy", "nll_loss"):
            extra_d = (self.i(1, 3),) if self.r() < 0.3 else ()
            x = self.leaf((n, c) + extra_d, dt)
            if kind == "nll_loss":
                x2 = self.new((n, c) + extra_d, dt, True)
                self.emit("nn-aux", f"{x2.name} = torch.nn.functional.log_softmax({x}, 1)")
                x = x2.name
            tv = self.rng.integers(0, c, (n,) + extra_d)
            ig = ""
            if self.r() < 0.3:
                ig = self.pick([-100, 0])
                tv.flat[0] = ig
                ig = f", ignore_index={ig}"
            t = self.leaf((n,) + extra_d, "float32" if bad else "int64", False, tv)
            w = f", weight={self.leaf((c,), dt, False, kind='pos')}" if self.r() < 0.4 else ""
            ls = f", label_smoothing={self.pick([0.1, 0.3])}" if kind == "cross_entropy" and self.r() < 0.3 else ""
            self.out(kind, f"{F_}{kind}({x}, {t}{w}{ig}{red}{ls})", dtype=dt)
        elif kind == "cross_entropy_probs":
            x = self.leaf(shape, dt)
            p = self.rng.dirichlet(np.ones(c), n)
            t = self.leaf(bshape if bad else shape, dt, self.r() < 0.3, np.round(p, 3) if not bad else None)
            ls = f", label_smoothing={self.pick([0.1, 0.3])}" if self.r() < 0.3 else ""
            self.out(kind, f"{F_}cross_entropy({x}, {t}{red}{ls})", dtype=dt)
        elif kind == "kl_div":
            lt = self.r() < 0.5
            x = self.leaf(shape, dt)
            t = self.leaf(bshape, dt, self.r() < 0.3, kind="normal" if lt else "prob")
            red = self.pick([red, ", reduction='batchmean'"])
            self.out(kind, f"{F_}kl_div({x}, {t}{red}, log_target={lt})", dtype=dt)
        elif kind == "cosine_embedding_loss":
            x1, x2 = self.leaf(shape, dt), self.leaf(bshape, dt)
            y = self.leaf((n,), dt, False, self.pick([1, -1], ) * np.ones(n) if self.r() < 0.3 else
                          self.rng.choice([1, -1], n))
            self.out(kind, f"{F_}{kind}({x1}, {x2}, {y}, margin={self.pick([0.0, 0.3])}{red})", dtype=dt)
        elif kind == "margin_ranking_loss":
            x1, x2 = self.leaf((n,), dt), self.leaf((n + (1 if bad else 0),), dt)
            y = self.leaf((n,), dt, False, self.rng.choice([1, -1], n))
            self.out(kind, f"{F_}{kind}({x1}, {x2}, {y}, margin={self.pick([0.0, 0.5])}{red})", dtype=dt)
        elif kind == "triplet_margin_loss":
            a, p_, q = self.leaf(shape, dt), self.leaf(shape, dt), self.leaf(bshape, dt)
            self.out(kind, f"{F_}{kind}({a}, {p_}, {q}, margin={self.pick([1.0, 0.5])}, p={self.pick([2, 1])}, "
                           f"swap={self.r() < 0.3}{red})", dtype=dt)
        elif kind == "hinge_embedding_loss":
            x = self.leaf(shape, dt)
            y = self.leaf(bshape, dt, False, self.rng.choice([1, -1], bshape))
            self.out(kind, f"{F_}{kind}({x}, {y}, margin={self.pick([1.0, 0.5])}{red})", dtype=dt)
        elif kind == "poisson_nll_loss":
            li = self.r() < 0.5
            x = self.leaf(shape, dt, kind="normal" if li else "pos")
            y = self.leaf(bshape, dt, False, self.rng.integers(0, 4, bshape))
            self.out(kind, f"{F_}{kind}({x}, {y}, log_input={li}, full={self.r() < 0.4}{red})", dtype=dt)
        else:
            x, y = self.leaf(shape, dt), self.leaf(shape, dt, False)
            var = self.leaf(self.pick([shape, (n, 1), (n,)]) if not bad else (n + 1,), dt, kind="pos")
            self.out(kind, f"{F_}{kind}({x}, {y}, {var}, full={self.r() < 0.4}{red})", dtype=dt)

    def nn_shape(self, bad: bool) -> None:
        kind = self.pick(["pad", "interpolate", "normalize", "cosine_similarity", "pairwise_distance",
                          "pixel_shuffle", "pixel_unshuffle", "unfold", "fold", "one_hot"])
        dt, F_ = self.fdt(), "torch.nn.functional."
        if kind == "pad":
            mode = self.pick(["constant", "reflect", "replicate", "circular"])
            nd = self.pick([1, 2])
            sp = tuple(self.i(2, 4) for _ in range(nd))
            x = self.leaf((self.i(1, 3),) * (self.r() < 0.6) + (self.i(1, 3),) + sp, dt)
            lim = min(sp) - 1 if mode == "reflect" else min(sp)
            if mode == "constant":
                pads = [self.i(-1, 3) for _ in range(2 * nd)]
            else:
                pads = [self.i(0, lim + 1 + (2 if bad else 0)) for _ in range(2 * nd)]
            val = f", value={self.pick([0.5, -1.0])}" if mode == "constant" and self.r() < 0.5 else ""
            self.out(kind, f"{F_}pad({x}, {tuple(pads)}, mode={mode!r}{val})", dtype=dt)
        elif kind == "interpolate":
            mode = self.pick(["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "area"])
            nd = {"linear": 1, "bilinear": 2, "bicubic": 2}.get(mode, self.pick([1, 2]))
            x = self.leaf((self.i(1, 3), self.i(1, 3)) + tuple(self.i(1, 4) for _ in range(nd)), dt)
            if self.r() < 0.5:
                size = f"size={self.i(1, 6) if nd == 1 else (self.i(1, 5), self.i(1, 5))}"
            else:
                size = f"scale_factor={self.pick([2, 0.5, 1.5, 3.0])}"
                if self.r() < 0.3:
                    size += f", recompute_scale_factor={self.r() < 0.5}"
            ac = f", align_corners={self.r() < 0.5}" if (mode in ("linear", "bilinear", "bicubic")) != bad else ""
            self.out(kind, f"{F_}interpolate({x}, {size}, mode={mode!r}{ac})", dtype=dt)
        elif kind == "normalize":
            x = self.leaf((self.i(1, 4), self.i(1, 4)), dt)
            self.out(kind, f"{F_}normalize({x}, p={self.pick([2.0, 1.0, 3.0])}, dim={self.pick([0, 1, -1])})", dtype=dt)
        elif kind in ("cosine_similarity", "pairwise_distance"):
            shape = (self.i(1, 4), self.i(1, 4))
            x1 = self.leaf(shape, dt)
            x2 = self.leaf(self.pick([shape, (1, shape[1])]) if not bad else (shape[0] + 1, shape[1] + 1), dt)
            if kind == "cosine_similarity":
                self.out(kind, f"{F_}cosine_similarity({x1}, {x2}, dim={self.pick([1, 0, -1])})", dtype=dt)
            else:
                self.out(kind, f"{F_}pairwise_distance({x1}, {x2}, p={self.pick([2.0, 1.0])}, "
                               f"keepdim={self.r() < 0.3})", dtype=dt)
        elif kind in ("pixel_shuffle", "pixel_unshuffle"):
            r = self.pick([1, 2])
            if kind == "pixel_shuffle":
                shape = (self.i(1, 3), r * r * self.i(1, 3) + (1 if bad else 0), self.i(1, 3), self.i(1, 3))
            else:
                shape = (self.i(1, 3), self.i(1, 3), r * self.i(1, 3), r * self.i(1, 3) + (1 if bad else 0))
            self.out(kind, f"{F_}{kind}({self.leaf(shape, dt)}, {r})", dtype=dt)
        elif kind == "unfold":
            k, d, p, s = self.i(1, 3), self.pick([1, 2]), self.i(0, 2), self.pick([1, 2])
            sp = (d * (k - 1) + 1 + self.i(0, 2), d * (k - 1) + 1 + self.i(0, 2))
            x = self.leaf((self.i(1, 3), self.i(1, 3)) + sp if not bad else sp, dt)
            self.out(kind, f"{F_}unfold({x}, {k}, dilation={d}, padding={p}, stride={s})", dtype=dt)
        elif kind == "fold":
            k, s, c = self.i(1, 3), self.pick([1, 2]), self.i(1, 3)
            size = (k + self.i(0, 3), k + self.i(0, 3))
            blocks = ((size[0] - k) // s + 1) * ((size[1] - k) // s + 1)
            x = self.leaf((self.i(1, 3), c * k * k, blocks + (1 if bad else 0)), dt)
            self.out(kind, f"{F_}fold({x}, {size}, {k}, stride={s})", dtype=dt)
        else:
            nc = self.i(3, 6)
            ix = self.ints((self.i(1, 4),), 0, nc + (1 if bad else 0))
            self.out(kind, f"{F_}one_hot({ix}, {self.pick([nc, -1])})", dtype="int64", rg=False)

    def nn_attention(self, bad: bool) -> None:
        dt, n, lq, s, e, ev = self.fdt(), self.i(1, 3), self.i(1, 4), self.i(1, 4), self.i(1, 4), self.i(1, 4)
        q, k = self.leaf((n, lq, e), dt), self.leaf((n, s, e + (1 if bad else 0)), dt)
        v = self.leaf((n, s, ev), dt)
        r = self.r()
        if r < 0.3:
            extra = ", is_causal=True"
        elif r < 0.5:
            m = self.rng.random((lq, s)) < 0.7
            m[:, 0] = True
            extra = f", attn_mask={self.leaf((lq, s), 'bool', False, m)}"
        elif r < 0.7:
            extra = f", attn_mask={self.leaf((lq, s), dt, self.r() < 0.5)}"
        else:
            extra = ""
        if self.r() < 0.3:
            extra += f", scale={self.pick([0.5, 1.0])}"
        self.out("scaled_dot_product_attention", f"torch.nn.functional.scaled_dot_product_attention({q}, {k}, {v}"
                                                 f"{extra})", dtype=dt)

    def nn_grid(self, bad: bool) -> None:
        dt, n, c, h, w = self.fdt(), self.i(1, 3), self.i(1, 3), self.i(1, 4), self.i(1, 4)
        ac = self.r() < 0.5
        if self.r() < 0.4:
            th = self.leaf((n, 2, 3 + (1 if bad else 0)), dt)
            self.out("affine_grid", f"torch.nn.functional.affine_grid({th}, {[n, c, h, w]}, align_corners={ac})",
                     dtype=dt)
            return
        x = self.leaf((n, c, h, w), dt)
        gs = (n, self.i(1, 4), self.i(1, 4), 2 + (1 if bad else 0))
        g = self.leaf(gs, dt, vals=np.round(self.rng.uniform(-1.2, 1.2, gs), 2))
        mode = self.pick(["bilinear", "nearest", "bicubic"])
        pm = self.pick(["zeros", "border", "reflection"])
        self.out("grid_sample", f"torch.nn.functional.grid_sample({x}, {g}, mode={mode!r}, padding_mode={pm!r}, "
                                f"align_corners={ac})", dtype=dt)

    def nn_modules(self, bad: bool) -> None:
        """A module chain: Linear -> activation -> norm -> loss (parameters seeded and recorded)."""
        n, i, o = self.i(2, 4), self.i(1, 4), self.i(2, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        x = self.leaf((n, i))
        act = self.pick(["ReLU()", "GELU()", "Tanh()", "SiLU()", "LeakyReLU(0.1)", "Softplus()", "ELU()"])
        norm = self.pick(["LayerNorm(O)", "BatchNorm1d(O)", "Identity()", "Dropout(0.0)"]).replace("O", str(o))
        m = self.new((), "float32", False)
        self.emit("nn:modules", f"{m.name} = torch.nn.Sequential(torch.nn.Linear({i + (1 if bad else 0)}, {o}), "
                                f"torch.nn.{act}, torch.nn.{norm})")
        self.p.names.remove(m.name)
        self.vars.remove(m)
        w = self.new((o, i), "float32", True)
        self.emit("nn-aux", f"{w.name} = {m.name}[0].weight")
        h = self.new((), "float32", True)
        self.emit("nn-aux", f"{h.name} = {m.name}({x})")
        if self.r() < 0.5:
            t = self.ints((n,), 0, o)
            self.out("modules-loss", f"torch.nn.CrossEntropyLoss()({h.name}, {t})")
        else:
            t = self.leaf((n, o), rg=False)
            self.out("modules-loss", f"torch.nn.MSELoss()({h.name}, {t})")

    # -- session 9: 3-d layers, fractional/unpooling, more norms, losses, recurrent and attention modules, utils --
    def nn_pool3d(self, bad: bool) -> None:
        self.nn_pool(bad, ["max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "adaptive_max_pool3d", "lp_pool3d"])

    def nn_fracpool(self, bad: bool) -> None:
        """fractional_max_pool2d/3d: random windows under manual_seed, or given ``_random_samples``."""
        nd, dt, k = self.pick([2, 2, 3]), self.fdt(), self.pick([1, 2, 2, 3])
        sp = tuple(k + self.i(0, 4) for _ in range(nd))
        shape = ((self.i(1, 3),) if self.r() < 0.7 else ()) + (self.i(1, 3),) + sp
        x = self.leaf(shape[-1:] if bad else shape, dt)
        if self.r() < 0.5:
            size = f"output_size={tuple(self.i(1, s - k + 2) for s in sp)}"
        else:
            size = f"output_ratio={self.pick([0.5, 0.7])}"
        extra = ""
        if self.r() < 0.3:
            n, c = (shape[0], shape[1]) if len(shape) == nd + 2 else (1, shape[0])
            extra = f", _random_samples={self.leaf((n, c, nd), dt, False, kind='prob')}"
        else:
            self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        ri = self.r() < 0.4
        kind = f"fractional_max_pool{nd}d"
        self.out(kind, f"torch.nn.functional.{kind}({x}, {k}, {size}, return_indices={ri}{extra})", 2 if ri else 1,
                 dt)

    def nn_unpool(self, bad: bool) -> None:
        """max_pool{1,2,3}d with return_indices, then max_unpool back (sometimes to a given output_size)."""
        nd, dt, k, s = self.pick([1, 2, 3]), self.fdt(), self.pick([1, 2, 3]), self.pick([None, 1, 2])
        st = k if s is None else s
        # (sizes the windows tile exactly: the default output size is the input's, so no index falls outside it;
        # an out-of-range index is reported by whichever of PyTorch's threads finishes last)
        sp = tuple(k + st * self.i(0, 2) for _ in range(nd))
        x = self.leaf(((self.i(1, 3),) if self.r() < 0.7 else ()) + (self.i(1, 3),) + sp, dt)
        p, w = self.new((), dt, True), self.new((), "int64", False)
        self.emit("nn-aux", f"{p.name}, {w.name} = torch.nn.functional.max_pool{nd}d({x}, {k}, stride={s}, "
                            "return_indices=True)")
        size = ""
        if self.r() < 0.3 or bad:   # (the pooled input's own size: every index stays in range; bad: too big)
            full = [n + (st + 1 if bad else 0) for n in sp]
            size = f", output_size={full}"
        self.out(f"max_unpool{nd}d", f"torch.nn.functional.max_unpool{nd}d({p.name}, {w.name}, {k}, stride={s}"
                                     f"{size})", dtype=dt)

    def nn_norm2(self, bad: bool) -> None:
        kind = self.pick(["local_response_norm", "rms_norm"])
        dt, F_ = self.fdt(), "torch.nn.functional."
        if kind == "local_response_norm":
            shape = (self.i(1, 3), self.i(1, 5)) + tuple(self.i(1, 4) for _ in range(self.i(1, 3)))
            x = self.leaf(shape[1:] if bad and len(shape) == 3 else shape, dt)
            self.out(kind, f"{F_}local_response_norm({x}, {self.i(1, 4)}, alpha={self.pick([1e-4, 0.5])}, "
                           f"beta={self.pick([0.75, 1.5])}, k={self.pick([1.0, 2.0])})", dtype=dt)
            return
        shape = tuple(self.i(1, 4) for _ in range(self.i(1, 4)))
        k = self.i(1, len(shape) + 1)
        ns = shape[-k:]
        if bad:
            ns = ns[:-1] + (ns[-1] + 1,)
        w = self.leaf(ns, dt) if self.r() < 0.6 else "None"
        eps = self.pick(["", ", eps=1e-3", ", eps=None"])
        self.out(kind, f"{F_}rms_norm({self.leaf(shape, dt)}, {list(ns)}, {w}{eps})", dtype=dt)

    def nn_embedding_bag(self, bad: bool) -> None:
        """embedding_bag: 2-d bags or 1-d indices with offsets; each mode, per_sample_weights, padding_idx."""
        num, dim, wdt = self.i(3, 6), self.i(1, 4), self.fdt()
        wdt = "float64" if bad else wdt   # (float32 sum/mean: fbgemm's report of a bad index depends on memory)
        w = self.leaf((num, dim), wdt)
        mode = self.pick(["mean", "sum", "max"])
        extra = f", mode={mode!r}"
        if self.r() < 0.5:
            bags, per = self.i(1, 4), self.i(1, 4)
            ix = self.ints((bags, per), 0, num + (2 if bad else 0))
            count = (bags * per,)
        else:
            n = self.i(1, 7)
            ix = self.ints((n,), 0, num + (2 if bad else 0))
            cuts = sorted(self.rng.integers(0, n + 1, self.i(1, 4)).tolist())
            ilo = self.r() < 0.3
            offs = [0] + cuts[1:] + ([n] if ilo else [])
            extra += f", offsets={self.leaf((len(offs),), 'int64', False, offs)}" + (
                ", include_last_offset=True" if ilo else "")
            count = (n,)
        if mode == "sum" and self.r() < 0.5:
            extra += f", per_sample_weights={self.leaf(count, wdt, self.r() < 0.5)}"
            if len(count) == 1 and ", offsets" not in extra:
                extra = extra.replace(", per_sample", ", offsets=None, per_sample")
        if self.r() < 0.3:
            extra += f", padding_idx={self.i(-num, num)}"
        if self.r() < 0.2:
            extra += f", max_norm={self.pick([1.0, 0.5])}"
        self.out("embedding_bag", f"torch.nn.functional.embedding_bag({ix}, {w}{extra})", dtype=wdt)

    ACTS2 = ("relu_(X * 1)", "elu_(X * 1, 0.5)", "leaky_relu_(X * 1, 0.1)", "hardtanh_(X * 1, -0.5, 0.5)",
             "selu_(X * 1)", "celu_(X * 1)", "threshold_(X * 1, 0.1, -1.0)", "rrelu_(X * 1, training=False)",
             "glu(X, 0)", "logsigmoid(X)")

    def nn_act2(self, bad: bool) -> None:
        """In-place activations (on a fresh product: an in-place op on a leaf that requires grad is an error)."""
        expr, dt = self.pick(self.ACTS2), self.fdt()
        shape = tuple(self.i(1, 4) for _ in range(self.i(1, 4)))
        if "glu" in expr:
            shape = (2 * self.i(1, 3) + (1 if bad else 0),) + shape[1:]
        x = self.leaf(shape, "int64" if bad and "glu" not in expr else dt, vals=None if not bad else
                      self.rng.integers(-3, 3, shape))
        self.out(expr.split("(")[0], f"torch.nn.functional.{expr.replace('X', x)}", dtype=dt)

    def nn_random(self, bad: bool) -> None:
        """Random functions under manual_seed: gumbel_softmax, rrelu in training, feature dropouts."""
        kind = self.pick(["gumbel_softmax", "rrelu", "feature_alpha_dropout", "dropout3d", "alpha_dropout"])
        dt, F_ = self.fdt(), "torch.nn.functional."
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        if kind == "gumbel_softmax":
            x = self.leaf((self.i(1, 4), self.i(2, 5)), dt)
            self.out(kind, f"{F_}gumbel_softmax({x}, tau={self.pick([1.0, 0.5, 2.0])}, hard={self.r() < 0.5}, "
                           f"dim={self.pick([-1, 0])})", dtype=dt)
        elif kind == "rrelu":
            x = self.leaf((self.i(1, 4), self.i(1, 5)), dt)
            self.out(kind, f"{F_}rrelu({x}, {self.pick([0.1, 1 / 8])}, {self.pick([0.3, 1 / 3])}, training=True)",
                     dtype=dt)
        else:
            shape = {"feature_alpha_dropout": (2, 3, 2), "dropout3d": (1, 2, 2, 1, 2), "alpha_dropout": (4, 3)}[kind]
            p = self.pick([0.0, 0.4, 0.5]) if not bad else -0.5
            self.out(kind, f"{F_}{kind}({self.leaf(shape, dt)}, p={p}, training={self.r() < 0.8})", dtype=dt)

    def nn_loss2(self, bad: bool) -> None:
        kind = self.pick(["multi_margin_loss", "multilabel_margin_loss", "multilabel_soft_margin_loss",
                          "soft_margin_loss", "triplet_margin_with_distance_loss", "ctc_loss"])
        dt, n, c = self.fdt(), self.i(1, 4), self.i(2, 5)
        F_, red = "torch.nn.functional.", self.red()
        if kind == "multi_margin_loss":
            x = self.leaf((n, c) if self.r() < 0.8 else (c,), dt)
            lead = self.vars[-1].shape[:-1]
            t = self.ints(lead, 0, c + (1 if bad else 0))
            w = f", weight={self.leaf((c,), dt, False, kind='pos')}" if self.r() < 0.4 else ""
            self.out(kind, f"{F_}multi_margin_loss({x}, {t}, p={self.pick([1, 2])}, margin={self.pick([1.0, 0.5])}"
                           f"{w}{red})", dtype=dt)
        elif kind == "multilabel_margin_loss":
            x = self.leaf((n, c), dt)
            tv = self.rng.integers(-1, c + (1 if bad else 0), (n, c))
            self.out(kind, f"{F_}multilabel_margin_loss({x}, {self.leaf((n, c), 'int64', False, tv)}{red})", dtype=dt)
        elif kind in ("multilabel_soft_margin_loss", "soft_margin_loss"):
            x = self.leaf((n, c), dt)
            vals = self.rng.integers(0, 2, (n, c)) if kind.startswith("multi") else self.rng.choice([1, -1], (n, c))
            y = self.leaf((n, c + (1 if bad else 0)), dt, False, None if bad else vals)
            w = f", weight={self.leaf((c,), dt, False, kind='pos')}" if kind.startswith("multi") and self.r() < 0.4 \
                else ""
            self.out(kind, f"{F_}{kind}({x}, {y}{w}{red})", dtype=dt)
        elif kind == "triplet_margin_with_distance_loss":
            a, p_, q = self.leaf((n, c), dt), self.leaf((n, c), dt), self.leaf((n, c + (1 if bad else 0)), dt)
            dist = self.pick(["", ", distance_function=torch.nn.functional.pairwise_distance",
                              ", distance_function=lambda u, v: 1.0 - torch.nn.functional.cosine_similarity(u, v)"])
            self.out(kind, f"{F_}{kind}({a}, {p_}, {q}{dist}, margin={self.pick([1.0, 0.5])}, swap={self.r() < 0.3}"
                           f"{red})", dtype=dt)
        else:
            t_len, s_len = self.i(2, 6), self.i(1, 4)
            x = self.leaf((t_len, n, c), dt)
            lp = self.new((), dt, True)
            self.emit("nn-aux", f"{lp.name} = {x}.log_softmax(2)")
            tl = self.rng.integers(0, s_len + 1, n)
            il = self.rng.integers(max(1, t_len - 1), t_len + 1, n)
            if self.r() < 0.5:
                tgt = self.ints((n, s_len), 1, c)
            else:
                tgt = self.leaf((int(tl.sum()),), "int64", False, self.rng.integers(1, c, int(tl.sum())))
            il_ = self.leaf((n,), "int64", False, il) if self.r() < 0.7 else str(il.tolist())
            tl_ = self.leaf((n + (1 if bad else 0),), "int64", False, np.append(tl, 1) if bad else tl)
            self.out(kind, f"{F_}ctc_loss({lp.name}, {tgt}, {il_}, {tl_}{red}, zero_infinity={self.r() < 0.5})",
                     dtype=dt)

    def nn_shape2(self, bad: bool) -> None:
        kind = self.pick(["channel_shuffle", "pdist", "upsample", "interpolate3d", "grid3d", "glu"])
        dt, F_ = self.fdt(), "torch.nn.functional."
        if kind == "channel_shuffle":
            g = self.pick([1, 2, 3])
            shape = (self.i(1, 3), g * self.i(1, 3) + (1 if bad else 0))
            shape += tuple(self.i(1, 3) for _ in range(self.i(1, 3)))
            self.out(kind, f"{F_}channel_shuffle({self.leaf(shape, dt)}, {g})", dtype=dt)
        elif kind == "pdist":
            x = self.leaf((self.i(1, 5), self.i(1, 4)) if not bad else (3,), dt)
            self.out(kind, f"{F_}pdist({x}, p={self.pick([2.0, 1.0, 3.0, 0.5])})", dtype=dt)
        elif kind == "upsample":
            name = self.pick(["upsample", "upsample_nearest", "upsample_bilinear"])
            x = self.leaf((1, self.i(1, 3), self.i(1, 4), self.i(1, 4)), dt)
            size = f"size={(self.i(1, 5), self.i(1, 5))}" if self.r() < 0.5 else f"scale_factor={self.pick([2, 1.5])}"
            mode = f", mode={self.pick(['nearest', 'bilinear'])!r}" if name == "upsample" else ""
            self.out(name, f"{F_}{name}({x}, {size}{mode})", dtype=dt)
        elif kind == "interpolate3d":
            mode = self.pick(["nearest", "nearest-exact", "area", "trilinear", "trilinear"])
            x = self.leaf((self.i(1, 3), self.i(1, 3)) + tuple(self.i(1, 4) for _ in range(3)), dt)
            size = f"size={tuple(self.i(1, 5) for _ in range(3))}" if self.r() < 0.5 else \
                f"scale_factor={self.pick([2, 0.5, 1.5, (2.0, 1.0, 0.5)])}"
            ac = f", align_corners={self.r() < 0.5}" if mode == "trilinear" and self.r() < 0.6 else ""
            self.out("interpolate3d", f"{F_}interpolate({x}, {size}, mode={mode!r}{ac})", dtype=dt)
        elif kind == "grid3d":
            n, c, ac = self.i(1, 3), self.i(1, 3), self.r() < 0.5
            if self.r() < 0.4:
                th = self.leaf((n, 3, 4 + (1 if bad else 0)), dt)
                self.out("affine_grid3d", f"{F_}affine_grid({th}, {[n, c, self.i(1, 3), self.i(1, 3), self.i(1, 3)]},"
                                          f" align_corners={ac})", dtype=dt)
                return
            x = self.leaf((n, c) + tuple(self.i(1, 4) for _ in range(3)), dt)
            gs = (n, self.i(1, 3), self.i(1, 3), self.i(1, 3), 3 + (1 if bad else 0))
            g = self.leaf(gs, dt, vals=np.round(self.rng.uniform(-1.2, 1.2, gs), 2))
            self.out("grid_sample3d", f"{F_}grid_sample({x}, {g}, mode={self.pick(['bilinear', 'nearest'])!r}, "
                                      f"padding_mode={self.pick(['zeros', 'border', 'reflection'])!r}, "
                                      f"align_corners={ac})", dtype=dt)
        else:
            shape = tuple(self.i(1, 3) for _ in range(self.i(1, 3))) + (2 * self.i(1, 3) + (1 if bad else 0),)
            self.out("glu", f"{F_}glu({self.leaf(shape, dt)}, {self.pick([-1, len(shape) - 1])})", dtype=dt)

    def _module(self, ctor: str) -> str:
        """``m = ctor`` (a module, not recorded); its name."""
        m = self.new((), "float64", False)
        self.emit("nn-aux", f"{m.name} = {ctor}")
        self.p.names.remove(m.name)
        self.vars.remove(m)
        return m.name

    def _param(self, expr: str, dt: str) -> None:
        """Record a parameter of a module (a leaf that requires grad) as a variable."""
        w = self.new((), dt, True)
        self.emit("nn-aux", f"{w.name} = {expr}")

    def nn_rnn(self, bad: bool) -> None:
        """RNN / LSTM / GRU modules and cells in float64 (seeded parameters), with or without initial states."""
        kind = self.pick(["RNN", "LSTM", "GRU", "RNNCell", "LSTMCell", "GRUCell"])
        n, t, i, h = self.i(1, 3), self.i(1, 4), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        if kind.endswith("Cell"):
            extra = f", bias={self.r() < 0.8}" + (f", nonlinearity={self.pick(['tanh', 'relu'])!r}"
                                                  if kind == "RNNCell" else "")
            m = self._module(f"torch.nn.{kind}({i}, {h}{extra}).double()")
            self._param(f"{m}.weight_ih", "float64")
            x = self.leaf(((n,) if self.r() < 0.8 else ()) + (i + (1 if bad else 0),), "float64")
            lead = self.vars[-1].shape[:-1]
            if self.r() < 0.5 and kind != "LSTMCell":
                self.out(kind, f"{m}({x})", dtype="float64")
            elif kind == "LSTMCell":
                state = ""   # (h, c) out, from given or zero states
                if self.r() < 0.5:
                    hx, cx = self.leaf(lead + (h,), "float64"), self.leaf(lead + (h,), "float64", self.r() < 0.5)
                    state = f", ({hx}, {cx})"
                hv, cv = self.new((), "float64", True), self.new((), "float64", True)
                self.emit("nn:" + kind, f"{hv.name}, {cv.name} = {m}({x}{state})")
            else:
                self.out(kind, f"{m}({x}, {self.leaf(lead + (h,), 'float64')})", dtype="float64")
            return
        layers, bi, bf = self.pick([1, 1, 2]), self.r() < 0.4, self.r() < 0.5
        extra = f", num_layers={layers}, bidirectional={bi}, batch_first={bf}"
        if kind == "RNN":
            extra += f", nonlinearity={self.pick(['tanh', 'relu'])!r}"
        if self.r() < 0.3:
            extra += f", bias={self.r() < 0.5}"
        ph = h   # (the hidden state's size: proj_size when an LSTM projects)
        if kind == "LSTM" and h > 1 and self.r() < 0.3:
            ph = self.i(1, h)
            extra += f", proj_size={ph}"
        m = self._module(f"torch.nn.{kind}({i}, {h}{extra}).double()")
        self._param(f"{m}.weight_hh_l0", "float64")
        batched = self.r() < 0.8
        shape = ((n, t) if bf else (t, n)) if batched else (t,)
        x = self.leaf(shape + (i + (1 if bad else 0),), "float64")
        o, hn = self.new((), "float64", True), self.new((), "float64", True)
        outs = f"{o.name}, {hn.name}"
        if kind == "LSTM":   # (h_n, c_n)
            outs = f"{o.name}, ({hn.name}, {self.new((), 'float64', True).name})"
        if self.r() < 0.5:
            self.emit("nn:" + kind, f"{outs} = {m}({x})")
            return
        hs = (layers * (2 if bi else 1),) + ((n,) if batched else ())
        h0 = self.leaf(hs + (ph,), "float64", self.r() < 0.6)
        if kind == "LSTM":
            c0 = self.leaf(hs + (h,), "float64", self.r() < 0.6)
            self.emit("nn:" + kind, f"{outs} = {m}({x}, ({h0}, {c0}))")
        else:
            self.emit("nn:" + kind, f"{outs} = {m}({x}, {h0})")

    def nn_attn_mod(self, bad: bool) -> None:
        """MultiheadAttention and TransformerEncoderLayer (float64, seeded, dropout 0)."""
        kind = self.pick(["MultiheadAttention", "TransformerEncoderLayer", "TransformerDecoderLayer"])
        heads = self.pick([1, 2])
        e, n, lq, s = heads * self.i(1, 3), self.i(1, 3), self.i(1, 4), self.i(1, 4)
        bf = self.r() < 0.5
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        sh = lambda L: (n, L, e) if bf else (L, n, e)   # noqa: E731 - (batch, seq) in the module's order
        if kind == "MultiheadAttention":
            kdim = e if self.r() < 0.7 else self.i(1, 4)
            extra = f", batch_first={bf}, bias={self.r() < 0.8}"
            extra += f", kdim={kdim}, vdim={kdim}" if kdim != e else ""
            extra += ", add_bias_kv=True" if self.r() < 0.2 else ""
            m = self._module(f"torch.nn.MultiheadAttention({e}, {heads}{extra}).double()")
            self._param(f"{m}.out_proj.weight", "float64")
            q = self.leaf(sh(lq), "float64")
            k = self.leaf(sh(s)[:-1] + (kdim + (1 if bad else 0),), "float64")
            v = self.leaf(sh(s)[:-1] + (kdim,), "float64")
            nw = self.r() < 0.6
            args = f", need_weights={nw}, average_attn_weights={self.r() < 0.6}"
            r = self.r()
            if r < 0.3:
                m_ = self.rng.random((n, s)) < 0.3
                m_[:, 0] = False
                args += f", key_padding_mask={self.leaf((n, s), 'bool', False, m_)}"
            elif r < 0.5:
                args += f", attn_mask={self.leaf((lq, s), 'float64', False)}"
            a = self.new((), "float64", True)
            w = self.new((), "float64", True).name if nw else "_"   # (no weights: None)
            self.emit("nn:" + kind, f"{a.name}, {w} = {m}({q}, {k}, {v}{args})")
            return
        extra = f", dim_feedforward={self.i(1, 5)}, dropout=0.0, batch_first={bf}, norm_first={self.r() < 0.5}"
        extra += f", activation={self.pick(['relu', 'gelu'])!r}"
        m = self._module(f"torch.nn.{kind}({e}, {heads}{extra}).double()")
        self._param(f"{m}.linear1.weight", "float64")
        x = self.leaf(sh(lq)[:-1] + (e + (1 if bad else 0),), "float64")
        if kind == "TransformerEncoderLayer":
            mask = f", src_mask={self.leaf((lq, lq), 'float64', False)}" if self.r() < 0.3 else ""
            self.out(kind, f"{m}({x}{mask})", dtype="float64")
        else:
            mem = self.leaf(sh(s), "float64")
            causal = ", tgt_is_causal=True, tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(" \
                     f"{lq}, dtype=torch.float64)" if self.r() < 0.3 else ""
            self.out(kind, f"{m}({x}, {mem}{causal})", dtype="float64")

    def nn_utils(self, bad: bool) -> None:
        """clip_grad_norm_ / clip_grad_value_ after a backward of their own; weight_norm / spectral_norm."""
        kind = self.pick(["clip_grad_norm_", "clip_grad_value_", "weight_norm", "spectral_norm"])
        dt = self.fdt()
        if kind.startswith("clip"):
            a, b = self.leaf((self.i(1, 4), self.i(1, 4)), dt), self.leaf((self.i(1, 4),), dt)
            self.emit("nn-aux", f"(({a} * {a}).sum() * 3 + {b}.exp().sum()).backward()")
            if kind == "clip_grad_norm_":
                nt = self.pick([2.0, 1.0, "inf", 3.0])
                nt = "float('inf')" if nt == "inf" else nt
                self.out(kind, f"torch.nn.utils.clip_grad_norm_([{a}, {b}], {self.pick([0.5, 1.0, 100.0])}, "
                               f"norm_type={nt})", dtype=dt, rg=False)
            else:
                self.emit("nn:" + kind, f"torch.nn.utils.clip_grad_value_([{a}, {b}], {self.pick([0.5, 1.0])})")
            return
        n, i, o = self.i(1, 4), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        base = self.pick([f"torch.nn.Linear({i}, {o})", f"torch.nn.Conv1d({i}, {o}, 1)"])
        if kind == "weight_norm":
            m = self._module(f"torch.nn.utils.parametrizations.weight_norm({base}.double(), dim={self.pick([0, 1])})")
            self._param(f"{m}.parametrizations.weight.original0", "float64")
        else:
            m = self._module(f"torch.nn.utils.parametrizations.spectral_norm({base}.double(), "
                             f"n_power_iterations={self.pick([1, 2])})")
            self._param(f"{m}.parametrizations.weight.original", "float64")
        x = self.leaf((n, i + (1 if bad else 0)) + ((self.i(1, 3),) if "Conv" in base else ()), "float64")
        self.out(kind, f"{m}({x})", dtype="float64")

    # -- session 10 (appended to some programs, from a random stream of their own: see generate): module-level
    # programs, optimizers and lr schedulers, init functions, nn.utils vectors / clipping / packed sequences, loss
    # modules with class weights, ignore_index and label smoothing, eps of distances, Embedding max_norm,
    # in-place activations on intermediates, unfold/fold ------------------------------------------------------
    def obj(self, expr: str, kind: str = "nn-aux") -> str:
        """``o<k> = expr``: a non-tensor result (a repr, names, learning rates, a list of tensors) recorded as is."""
        name = f"o{len(self.p.objs)}"
        self.p.objs.append(name)
        self.emit(kind, f"{name} = {expr}")
        return name

    def _layers(self, i: int, o: int) -> list:
        """Module constructors from ``i`` to ``o`` features: linear, an activation (some in place), a norm or a
        dropout, linear."""
        h = self.i(1, 5)
        act = self.pick(["ReLU(inplace=True)", "ReLU()", "Tanh()", "GELU()", "SiLU(inplace=True)", "Sigmoid()",
                         "LeakyReLU(0.2, inplace=True)", "ELU(inplace=True)", "Hardtanh(-0.5, 0.5, inplace=True)",
                         "Softplus()", "Mish(inplace=True)", "PReLU()"])
        norm = self.pick([f"BatchNorm1d({h}, momentum={self.pick([0.1, 0.5, None])}, affine={self.r() < 0.7}, "
                          f"track_running_stats={self.r() < 0.8})", f"LayerNorm({h}, bias={self.r() < 0.7})",
                          f"Dropout({self.pick([0.0, 0.3, 0.5])})", "Dropout(0.4, inplace=True)", "Identity()",
                          "AlphaDropout(0.3)", f"RMSNorm({h})"])
        return [f"Linear({i}, {h}, bias={self.r() < 0.8})", act, norm, f"Linear({h}, {o})"]

    def _grads(self, m: str) -> str:
        return self.obj(f"[p.grad for p in {m}.parameters()]")

    def nn_model(self, bad: bool) -> None:
        """A model in a container, printed, called in train then eval mode; its parameter names, state_dict and
        gradients recorded; sometimes its first layer frozen, zero_grad between two backward passes."""
        dt, n, i, o = self.fdt(), self.i(2, 5), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        layers = ["torch.nn." + s for s in self._layers(i, o)]
        kind = self.pick(["Sequential", "ModuleList", "ModuleDict", "OrderedDict"])
        cast = ".double()" if dt == "float64" else ""
        named = ", ".join(f"('l{k}', {s})" for k, s in enumerate(layers))
        ctor = {"Sequential": f"torch.nn.Sequential({', '.join(layers)})",
                "ModuleList": f"torch.nn.ModuleList([{', '.join(layers)}])",
                "ModuleDict": f"torch.nn.ModuleDict(dict([{named}]))",
                "OrderedDict": f"torch.nn.Sequential(__import__('collections').OrderedDict([{named}]))"}[kind]
        m = self._module(ctor + cast)
        self.obj(f"repr({m})", "nn:model")
        layers_of = f"{m}.values()" if kind == "ModuleDict" else m

        def emit_call(x: str, rg: bool) -> str:
            y = self.new((), dt, rg)
            if kind in ("Sequential", "OrderedDict"):
                self.emit("nn-aux", f"{y.name} = {m}({x})")
            else:
                self.emit("nn-aux", f"h = {x}\nfor layer in {layers_of}:\n    h = layer(h)\n{y.name} = h")
            return y.name

        if self.r() < 0.3:
            self.emit("nn-aux", f"list({m}.children())[0].requires_grad_(False)")
        self.obj(f"[(k, tuple(p.shape), p.dtype, p.requires_grad) for k, p in {m}.named_parameters()]")
        x = self.leaf((n, i + (1 if bad else 0)), dt, self.r() < 0.5)
        y = emit_call(x, False)
        if self.r() < 0.5:
            t = self.ints((n,), 0, o)
            loss = f"torch.nn.functional.cross_entropy({y}, {t})"
        else:
            loss = f"torch.nn.functional.mse_loss({y}, {self.leaf((n, o), dt, False)})"
        self.emit("nn-aux", f"({loss}).backward()")
        self._grads(m)
        self.obj(f"list({m}.state_dict().items())")
        if self.r() < 0.5:
            self.emit("nn-aux", f"{m}.zero_grad(set_to_none={self.r() < 0.5})")
            self._grads(m)
        if self.r() < 0.4:   # (a second backward accumulates)
            y2 = emit_call(x, False)
            self.emit("nn-aux", f"({y2} * {y2}).sum().backward()")
            self._grads(m)
        self.emit("nn-aux", f"{m}.eval()" if self.r() < 0.8 else f"{m}.train(False)")
        self.obj(f"[(k, mm.training) for k, mm in {m}.named_modules()]")
        emit_call(x, True)
        self.obj(f"list({m}.state_dict().items())")
        if self.r() < 0.3:
            self.emit("nn-aux", f"{m}.train()")
            emit_call(x, True)

    OPTIMS = ("SGD(P, lr=0.1)", "SGD(P, lr=0.1, momentum=0.9)",
              "SGD(P, lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)",
              "SGD(P, lr=0.1, momentum=0.5, dampening=0.3, maximize=True)", "Adam(P, lr=0.05)",
              "Adam(P, lr=0.05, amsgrad=True, weight_decay=0.1)", "AdamW(P, lr=0.05, amsgrad=True)",
              "AdamW(P, lr=0.02, betas=(0.8, 0.9), weight_decay=0.3)", "RMSprop(P, lr=0.01)",
              "RMSprop(P, lr=0.01, momentum=0.5, centered=True, weight_decay=0.1)",
              "Adagrad(P, lr=0.1, lr_decay=0.01, weight_decay=0.1)",
              "Adagrad(P, lr=0.1, initial_accumulator_value=0.5)",
              "Adamax(P, lr=0.1)", "NAdam(P, lr=0.05)", "RAdam(P, lr=0.05, decoupled_weight_decay=True)",
              "Adadelta(P)", "ASGD(P, lr=0.1)", "Rprop(P, lr=0.1)", "Adam(P, lr=0.05, foreach=False, maximize=True)",
              "SGD(P, lr=0.1, momentum=0.9, foreach=True)", "LBFGS(P, lr=0.5, max_iter=3)",
              "LBFGS(P, lr=1, max_iter=4, line_search_fn='strong_wolfe')")
    SCHEDS = ("StepLR(O, 2, gamma=0.5)", "MultiStepLR(O, [1, 3], gamma=0.3)", "ExponentialLR(O, 0.7)",
              "CosineAnnealingLR(O, 3, eta_min=0.01)", "OneCycleLR(O, 1.0, total_steps=8)",
              "OneCycleLR(O, 0.5, total_steps=8, anneal_strategy='linear', three_phase=True)",
              "LinearLR(O, 0.2, total_iters=3)", "CosineAnnealingWarmRestarts(O, 2, T_mult=2)",
              "ReduceLROnPlateau(O, patience=0, factor=0.5)", "ReduceLROnPlateau(O, mode='max', patience=1)",
              "CyclicLR(O, 0.01, 0.1, step_size_up=2)", "PolynomialLR(O, total_iters=4, power=2.0)",
              "ConstantLR(O, factor=0.5, total_iters=2)", "LambdaLR(O, lambda e: 0.9 ** e)")

    def nn_optim(self, bad: bool) -> None:
        """A few optimizer steps on a seeded model (sometimes with an lr scheduler, whose get_last_lr() is
        recorded each step); the parameters, the optimizer's state and param_groups recorded."""
        dt, n, i, o = self.pick(["float64", "float64", "float32"]), self.i(1, 4), self.i(1, 4), self.i(1, 3)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        m = self._module(self.pick([f"torch.nn.Linear({i}, {o}){cast}",
                                    f"torch.nn.Sequential(torch.nn.Linear({i}, 3), torch.nn.Tanh(), "
                                    f"torch.nn.Linear(3, {o})){cast}"]))
        x, t = self.leaf((n, i), dt, False), self.leaf((n, o), dt, False)
        opt = self.pick(self.OPTIMS)
        if bad:
            opt = opt.split("(")[0] + "(P, lr=-0.1)"
        os_ = self._module(f"torch.optim.{opt.replace('P', f'{m}.parameters()')}")
        sched = self.pick(self.SCHEDS) if self.r() < 0.6 else None
        s = self._module(f"torch.optim.lr_scheduler.{sched.replace('(O', '(' + os_)}") if sched else None
        lrs = self.obj("[]")
        loss = f"(({m}({x}) - {t}) ** 2).mean() + {m}({x}).sum().sin()"
        lines = [f"for step in range({self.i(1, 5)}):",
                 "    def closure():",
                 f"        {os_}.zero_grad()",
                 f"        loss = {loss}",
                 "        loss.backward()",
                 "        return loss",
                 f"    loss = {os_}.step(closure)" if "LBFGS" in opt else
                 f"    loss = closure()\n    {os_}.step()"]
        if s:
            lines.append(f"    {s}.step(loss.item())" if "Plateau" in sched else f"    {s}.step()")
            lines.append(f"    {lrs}.append({s}.get_last_lr())")
        else:
            lines.append(f"    {lrs}.append([g['lr'] for g in {os_}.param_groups])")
        self.emit("nn:optim", "\n".join(lines))
        self._param(f"list({m}.parameters())[0]", dt)
        self.obj(f"[(k, a, b) for k, st in {os_}.state_dict()['state'].items() for a, b in sorted(st.items()) "
                 f"if torch.is_tensor(b) or isinstance(b, (int, float))]")
        self.obj(f"[(k, v) for g in {os_}.state_dict()['param_groups'] for k, v in sorted(g.items())]")
        self.out("optim-loss", f"{loss}", dtype=dt)

    INITS = ("kaiming_uniform_(W, a=2.23606797749979)", "kaiming_normal_(W, mode='fan_out', nonlinearity='relu')",
             "kaiming_uniform_(W, nonlinearity='leaky_relu', a=0.2)", "kaiming_normal_(W, a=0.1, mode='fan_in')",
             "xavier_uniform_(W, gain=torch.nn.init.calculate_gain('tanh'))", "xavier_normal_(W, gain=0.5)",
             "orthogonal_(W)", "orthogonal_(W, gain=2.0)", "trunc_normal_(W, mean=0.5, std=2.0, a=-1.0, b=1.5)",
             "trunc_normal_(W, std=0.02)", "normal_(W, 1.0, 0.5)", "uniform_(W, -2, 1)", "sparse_(W, 0.5, std=0.1)",
             "eye_(W)", "dirac_(W)", "dirac_(W, groups=2)", "zeros_(W)", "constant_(W, 0.3)", "ones_(W)")

    def nn_init(self, bad: bool) -> None:
        """An init function under manual_seed on a leaf that requires grad (in place, under no_grad), then used."""
        expr, dt = self.pick(self.INITS), self.fdt()
        if expr.startswith(("eye_", "sparse_")):
            shape = (self.i(1, 5), self.i(1, 5))
        elif expr.startswith("dirac_"):
            g = 2 if "groups" in expr else 1
            shape = (g * self.i(1, 3), self.i(1, 3)) + tuple(self.i(1, 4) for _ in range(self.i(1, 4)))
        else:
            shape = tuple(self.i(1, 5) for _ in range(self.i(2, 5)))
        if bad:
            shape = shape[:1] if not expr.startswith("dirac_") else shape[:2]
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        w = self.leaf(shape, dt, True, vals=np.zeros(shape))
        self.out("init", f"torch.nn.init.{expr.replace('W', w)}", dtype=dt, rg=False)
        self.out("init-use", f"({w} * {w}).sum() + {w}.tanh().sum()", dtype=dt)
        if self.r() < 0.3:
            self.obj(f"torch.nn.init._calculate_fan_in_and_fan_out({w})")

    def nn_utils2(self, bad: bool) -> None:
        """parameters_to_vector / vector_to_parameters, clip_grad_norm_ (foreach, error_if_nonfinite, non-finite
        gradients), pad_sequence, pack_padded_sequence -> (an RNN) -> pad_packed_sequence."""
        kind = self.pick(["vector", "clip", "pad_sequence", "pack", "pack"])
        dt = self.fdt()
        F_ = "torch.nn.utils."
        if kind == "vector":
            self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
            i, o = self.i(1, 4), self.i(1, 4)
            m = self._module(f"torch.nn.Linear({i}, {o}){'.double()' if dt == 'float64' else ''}")
            self.out("parameters_to_vector", f"{F_}parameters_to_vector({m}.parameters())", dtype=dt)
            vec = self.vars[-1].name
            size = o * i + o - (1 if bad else 0)
            self.emit("nn-aux", f"{F_}vector_to_parameters({vec}.detach()[:{size}] * 0.5 + 1, {m}.parameters())")
            self._param(f"{m}.weight", dt)
            self.out("vector-use", f"{m}({self.leaf((self.i(1, 3), i), dt)})", dtype=dt)
        elif kind == "clip":
            a, b = self.leaf((self.i(1, 4), self.i(1, 4)), dt), self.leaf((self.i(1, 4),), dt)
            self.emit("nn-aux", f"(({a} * {a}).sum() * 3 + {b}.exp().sum()).backward()")
            if self.r() < 0.3:
                self.emit("nn-aux", f"{a}.grad[0] = float({self.pick(['nan', 'inf'])!r})")
            nt = self.pick([2.0, 1.0, "float('inf')", 3.0, 0.5])
            err = self.r() < 0.5
            fe = self.pick([None, True, False])
            fn = self.pick(["clip_grad_norm_", "clip_grad_norm_", "get_total_norm"])
            if fn == "clip_grad_norm_":
                self.out("clip_grad_norm_foreach", f"{F_}clip_grad_norm_([{a}, {b}], {self.pick([0.5, 1.0, 100.0])}, "
                                                   f"norm_type={nt}, error_if_nonfinite={err}, foreach={fe})",
                         dtype=dt, rg=False)
            else:
                self.out("get_total_norm", f"{F_}get_total_norm([{a}.grad, {b}.grad], norm_type={nt}, "
                                           f"error_if_nonfinite={err}, foreach={fe})", dtype=dt, rg=False)
                self.emit("nn-aux", f"{F_}clip_grads_with_norm_([{a}, {b}], 1.0, {self.vars[-1].name})")
            self.obj(f"[{a}.grad, {b}.grad]")
        elif kind == "pad_sequence":
            trail = tuple(self.i(1, 3) for _ in range(self.i(0, 2)))
            seqs = [self.leaf((self.i(1, 4),) + trail, dt) for _ in range(self.i(1, 4))]
            if bad:
                seqs.append(self.leaf((2,) + trail + (2,), dt))
            side = f", padding_side={self.pick(['right', 'left'])!r}" if self.r() < 0.4 else ""
            self.out("pad_sequence", f"{F_}rnn.pad_sequence([{', '.join(seqs)}], batch_first={self.r() < 0.5}, "
                                     f"padding_value={self.pick([0.0, -1.0, 0.5])}{side})", dtype=dt)
        else:
            bf, b, t, f = self.r() < 0.5, self.i(1, 4), self.i(1, 5), self.i(1, 3)
            lengths = sorted((int(v) for v in self.rng.integers(1, t + 1, b)), reverse=True)
            lengths[0] = t
            es = self.r() < 0.5
            if not es or bad:
                lengths = [int(v) for v in self.rng.permutation(lengths)]
            x = self.leaf((b, t, f) if bf else (t, b, f), "float64")
            ln = self.pick([repr(lengths), f"torch.tensor({lengths})"])
            pk = self._module(f"{F_}rnn.pack_padded_sequence({x}, {ln}, batch_first={bf}, enforce_sorted={es})")
            self.obj(f"({pk}.batch_sizes, {pk}.sorted_indices, {pk}.unsorted_indices)", "nn:pack_padded_sequence")
            self._param(f"{pk}.data", "float64")
            if self.r() < 0.6:
                self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
                cell = self.pick(["RNN", "LSTM", "GRU"])
                rnn = self._module(f"torch.nn.{cell}({f}, {self.i(1, 3)}, batch_first={bf}, "
                                   f"num_layers={self.pick([1, 2])}, bidirectional={self.r() < 0.4}).double()")
                o, hn = self.new((), "float64", False), self.new((), "float64", True)
                self.p.names.remove(o.name)   # (a PackedSequence)
                hs = f"({hn.name}, _c)" if cell == "LSTM" else hn.name
                self.emit("nn-aux", f"{o.name}, {hs} = {rnn}({pk})")
                pk = o.name
            tl = f", total_length={t + self.i(0, 2)}" if self.r() < 0.3 else ""
            pv = self.new((), "float64", True)
            self.emit("nn:pad_packed_sequence", f"{pv.name}, lens = {F_}rnn.pad_packed_sequence({pk}, "
                                                f"batch_first={bf}, padding_value={self.pick([0.0, -2.0])}{tl})")
            self.obj("lens")

    def nn_loss3(self, bad: bool) -> None:
        """Loss modules with class weights, ignore_index, label smoothing and each reduction (K-dim targets)."""
        kind = self.pick(["CrossEntropyLoss", "CrossEntropyLoss", "NLLLoss", "CrossEntropyLoss-probs",
                          "BCEWithLogitsLoss", "MultiMarginLoss", "MultiLabelSoftMarginLoss", "BCELoss"])
        dt, n, c = self.fdt(), self.i(1, 4), self.i(2, 5)
        red = self.pick(["", "reduction='none'", "reduction='mean'", "reduction='sum'"])
        args = [red] if red else []
        wv = self.pick([(c,), (c + 1,)]) if bad else (c,)
        if kind in ("CrossEntropyLoss", "NLLLoss"):
            extra = tuple(self.i(1, 3) for _ in range(self.pick([0, 0, 1, 2])))
            x = self.leaf((n, c) + extra, dt)
            ii = self.pick([-100, 0, c - 1, -1])
            tv = self.rng.integers(0, c, (n,) + extra)
            r = self.r()
            if r < 0.15:
                tv[...] = ii if ii >= 0 else -100
                ii = -100 if ii < 0 else ii
            elif r < 0.6:
                tv.flat[self.i(0, tv.size)] = ii if ii != -1 else -100
                ii = -100 if ii == -1 else ii
            t = self.leaf((n,) + extra, "int64", False, tv)
            args.append(f"ignore_index={ii}")
            if self.r() < 0.6:
                args.append(f"weight={self.leaf(wv, dt, False, kind='pos')}")
            if kind == "CrossEntropyLoss" and self.r() < 0.5:
                args.append(f"label_smoothing={self.pick([0.1, 0.25, 1.0])}")
            if kind == "NLLLoss":
                x2 = self.new((), dt, True)
                self.emit("nn-aux", f"{x2.name} = {x}.log_softmax(1)")
                x = x2.name
        elif kind == "CrossEntropyLoss-probs":
            x = self.leaf((n, c), dt)
            t = self.leaf((n, c), dt, self.r() < 0.3, np.round(self.rng.dirichlet(np.ones(c), n), 3))
            if self.r() < 0.6:
                args.append(f"weight={self.leaf(wv, dt, False, kind='pos')}")
            if self.r() < 0.5:
                args.append(f"label_smoothing={self.pick([0.1, 0.25])}")
            kind = "CrossEntropyLoss"
        elif kind in ("BCEWithLogitsLoss", "BCELoss", "MultiLabelSoftMarginLoss"):
            x = self.leaf((n, c), dt, kind="prob" if kind == "BCELoss" else "normal")
            t = self.leaf((n, c), dt, False, self.rng.integers(0, 2, (n, c)) if self.r() < 0.5 else None,
                          kind="prob")
            if self.r() < 0.6:
                ws = wv if kind != "BCELoss" else self.pick([(n, c), (c,), (n, 1)]) if not bad else (c + 1,)
                args.append(f"weight={self.leaf(ws, dt, False, kind='pos')}")
            if kind == "BCEWithLogitsLoss" and self.r() < 0.5:
                args.append(f"pos_weight={self.leaf(self.pick([(c,), (n, c), (1,)]), dt, False, kind='pos')}")
        else:
            x = self.leaf((n, c), dt)
            t = self.ints((n,), 0, c)
            args += [f"p={self.pick([1, 2])}", f"margin={self.pick([1.0, 0.5])}"]
            if self.r() < 0.6:
                args.append(f"weight={self.leaf(wv, dt, False, kind='pos')}")
        self.out("loss3:" + kind, f"torch.nn.{kind}({', '.join(args)})({x}, {t})", dtype=dt)

    def nn_misc(self, bad: bool) -> None:
        """eps of normalize / pairwise_distance / cosine_similarity (zero rows), Embedding max_norm (the weight
        renormalized in place), in-place activations on intermediates and their views, unfold/fold round trips."""
        kind = self.pick(["eps", "eps", "embedding_max_norm", "inplace", "inplace", "unfold_fold"])
        dt, F_ = self.fdt(), "torch.nn.functional."
        if kind == "eps":
            shape = (self.i(1, 4), self.i(1, 4))
            vals = np.round(self.rng.standard_normal(shape) * self.pick([1.0, 0.01]), 3)
            vals[self.i(0, shape[0])] = 0
            x1 = self.leaf(shape, dt, vals=vals)
            x2 = self.leaf(self.pick([shape, (1, shape[1])]) if not bad else (shape[0] + 1, shape[1] + 1), dt)
            eps = self.pick([0.0, 1e-8, 1e-3, 0.5])
            fn = self.pick(["normalize", "pairwise_distance", "cosine_similarity"])
            if fn == "normalize":
                self.out("normalize_eps", f"{F_}normalize({x1}, p={self.pick([2.0, 1.0, 3.0])}, "
                                          f"dim={self.pick([0, 1, -1])}, eps={eps})", dtype=dt)
            elif fn == "pairwise_distance":
                self.out("pairwise_distance_eps", f"{F_}pairwise_distance({x1}, {x2}, p={self.pick([2.0, 1.0, 3.0])}, "
                                                  f"eps={eps}, keepdim={self.r() < 0.3})", dtype=dt)
            else:
                self.out("cosine_similarity_eps", f"{F_}cosine_similarity({x1}, {x2}, dim={self.pick([1, 0, -1])}, "
                                                  f"eps={eps})", dtype=dt)
        elif kind == "embedding_max_norm":
            num, dim = self.i(2, 6), self.i(1, 4)
            self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
            extra = f", max_norm={self.pick([1.0, 0.5, 2.0])}, norm_type={self.pick([2.0, 1.0, 3.0])}"
            if self.r() < 0.4:
                extra += f", padding_idx={self.i(0, num)}"
            if self.r() < 0.3:
                extra += ", scale_grad_by_freq=True"
            e = self._module(f"torch.nn.Embedding({num}, {dim}{extra}){'.double()' if dt == 'float64' else ''}")
            self._param(f"{e}.weight", dt)
            ix = self.ints((self.i(1, 4),) + ((self.i(1, 3),) if self.r() < 0.4 else ()), 0, num + (2 if bad else 0))
            self.out("embedding_max_norm", f"{e}({ix})", dtype=dt)
            self.obj(f"({e}.weight._version, repr({e}))")
        elif kind == "inplace":
            shape = tuple(self.i(1, 4) for _ in range(self.i(1, 4)))
            x = self.leaf(shape, dt)
            h = self.new((), dt, True)
            self.emit("nn-aux", f"{h.name} = {x} * {self.pick([1.5, -1.0, 0.5])}")
            tgt = h.name if self.r() < 0.7 else f"{h.name}[0]"
            for _ in range(self.i(1, 3)):
                act = self.pick(["relu(@, inplace=True)", "leaky_relu(@, 0.2, inplace=True)", "elu(@, inplace=True)",
                                 "hardtanh(@, -0.5, 0.5, inplace=True)", "relu6(@, inplace=True)",
                                 "threshold(@, 0.1, -1.0, inplace=True)", "silu(@, inplace=True)",
                                 "hardsigmoid(@, inplace=True)", "selu(@, inplace=True)", "celu(@, inplace=True)",
                                 "mish(@, inplace=True)", "hardswish(@, inplace=True)",
                                 "dropout(@, 0.5, inplace=True)", "alpha_dropout(@, 0.5, True, inplace=True)"])
                if "dropout" in act:
                    self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
                self.emit("nn:inplace_intermediate", f"{F_}{act.replace('@', tgt)}")
            self.out("inplace-use", f"{h.name} * 2" if self.r() < 0.5 else f"{h.name}.exp()", dtype=dt)
        else:
            k = (self.i(1, 3), self.i(1, 3))
            d, p, s = self.pick([1, 2]), self.i(0, 2), self.pick([1, 2, (1, 2)])
            sp = tuple(d * (kk - 1) + 1 + self.i(0, 3) for kk in k)
            x = self.leaf((self.i(1, 3), self.i(1, 3)) + sp, dt)
            u = self.new((), dt, True)
            self.emit("nn:unfold_fold", f"{u.name} = {F_}unfold({x}, {k}, dilation={d}, padding={p}, stride={s})")
            size = tuple(v + (1 if bad else 0) for v in sp)
            self.out("fold_back", f"{F_}fold({u.name}, {size}, {k}, dilation={d}, padding={p}, stride={s})", dtype=dt)

    def nn_model2(self, bad: bool) -> None:
        """A small conv net (a lazy last layer): a forward hook recording shapes, apply() with an init function, its
        state_dict loaded into a second copy (all keys or not, strict or not), inference under no_grad in eval."""
        dt, n, c, h, length = self.fdt(), self.i(1, 4), self.i(1, 3), self.i(1, 4), self.i(4, 8)
        norm = self.pick(["BatchNorm1d(H)", "GroupNorm(1, H)", "InstanceNorm1d(H, affine=True)", "Dropout1d(0.3)",
                          "BatchNorm1d(H, affine=False)"]).replace("H", str(h))
        pool = self.pick(["MaxPool1d(2)", "AvgPool1d(2, ceil_mode=True)", "AdaptiveAvgPool1d(2)", "Identity()",
                          "MaxPool1d(3, stride=1, padding=1)"])
        pad = self.pick(["0", "1", "'same'"])
        cast = ".double()" if dt == "float64" else ""
        ctor = (f"torch.nn.Sequential(torch.nn.Conv1d({c}, {h}, {self.i(1, 4)}, padding={pad}), torch.nn.{norm}, "
                f"torch.nn.{self.pick(['ReLU()', 'GELU()', 'Tanh()'])}, torch.nn.{pool}, torch.nn.Flatten(), "
                f"torch.nn.LazyLinear({self.i(1, 4)})){cast}")
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m = self._module(ctor)
        shapes = self.obj("[]", "nn:model2")
        self.emit("nn-aux", f"hook = {m}[{self.pick([0, 1, 3, 4])}].register_forward_hook("
                            f"lambda mod, inp, out: {shapes}.append((type(mod).__name__, tuple(out.shape))))")
        if self.r() < 0.5:
            self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
            init = self.pick(["xavier_uniform_(mm.weight)", "kaiming_normal_(mm.weight, nonlinearity='relu')",
                              "orthogonal_(mm.weight)", "trunc_normal_(mm.weight, std=0.5)"])
            self.emit("nn-aux", f"{m}.apply(lambda mm: torch.nn.init.{init} if isinstance(mm, torch.nn.Conv1d) "
                                f"else None)")
        x = self.leaf((n, c + (1 if bad else 0), length), dt, self.r() < 0.5)
        y = self.new((), dt, False)
        self.emit("nn-aux", f"{y.name} = {m}({x})")
        self.obj(f"repr({m})")
        self.emit("nn-aux", f"({y.name} ** 2).mean().backward()")
        self._grads(m)
        if self.r() < 0.5:
            self.emit("nn-aux", "hook.remove()")
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m2 = self._module(ctor)
        self.emit("nn-aux", f"{m2}({x})")   # (materializes the lazy layer)
        keys = self.pick(["", "if 'running' not in k", "if not k.startswith('0.')", "if 'bias' not in k"])
        strict = self.r() < 0.3 or not keys
        self.obj(f"repr({m2}.load_state_dict({{k: v for k, v in {m}.state_dict().items() {keys}}}, "
                 f"strict={strict}))")
        self.emit("nn-aux", f"{m2}.eval()")
        out = self.new((), dt, False)
        self.emit("nn:model2-eval", f"with torch.no_grad():\n    {out.name} = {m2}({x})")
        self.obj(f"list({m2}.state_dict().items())")
        self.out("model2-train", f"{m2}.train()({x})", dtype=dt)

    NN_OPS10 = (("model", 5), ("optim", 5), ("init", 3), ("utils2", 4), ("loss3", 4), ("misc", 5), ("model2", 4))

    def op10(self) -> None:
        """One op of the session-10 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.NN_OPS10]
        w = np.array([w for _, w in self.NN_OPS10], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        bad = self.r() < 0.08
        if bad:
            self.p.ops.append("nn-bad")
        getattr(self, "nn_" + fam)(bad)

    # -- session 11 (appended to some programs after op10's, from a random stream of their own: see generate):
    # conv modules (padding 'same'/'valid', padding modes, groups, dilation, output_padding / output_size), batch
    # norms (momentum=None, no running stats, no affine) in train then eval, nn.Transformer / TransformerDecoder with
    # masks, AdaptiveLogSoftmaxWithLoss, Bilinear, shape modules, every loss module's repr, the Module API (buffers,
    # named_*, casts, requires_grad_), custom parametrizations, init gains and modes, optimizer param groups and
    # state_dict round trips, chained lr schedulers -----------------------------------------------------------
    def nn_conv_mod(self, bad: bool) -> None:
        """A Conv / ConvTranspose module (1-3 d) with padding 'same' / 'valid' / ints, a padding mode, groups,
        dilation, output_padding or output_size; its repr, output and gradients."""
        nd, dt, transpose = self.pick([1, 1, 2, 2, 3]), self.fdt(), self.r() < 0.35
        g = self.pick([1, 1, 2, 3])
        cin, cout = g * self.i(1, 3), g * self.i(1, 3)
        k = tuple(self.i(1, 4) for _ in range(nd))
        karg = k if self.r() < 0.5 else k[0]   # (an int kernel size: the same in each dimension)
        k = k if isinstance(karg, tuple) else (karg,) * nd
        d = self.pick([1, 1, 2, (1, 2, 1)[:nd] if nd > 1 else 2])
        dd = d if isinstance(d, tuple) else (d,) * nd
        mode = self.pick(["zeros", "zeros", "reflect", "replicate", "circular"])
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        bias = self.r() < 0.7
        if transpose:
            s = self.pick([1, 2, 2, (2, 1, 3)[:nd] if nd > 1 else 3])
            ss = s if isinstance(s, tuple) else (s,) * nd
            p = self.i(0, min(dd[j] * (k[j] - 1) for j in range(nd)) // 2 + 1)
            op = tuple(self.i(0, max(ss[j], dd[j])) for j in range(nd))
            op = op[0] if self.r() < 0.5 else op
            sp = tuple(self.i(1, 4) for _ in range(nd))
            mode = self.pick(["reflect", "circular"]) if bad else "zeros"   # (transposed: zeros only)
            ctor = (f"torch.nn.ConvTranspose{nd}d({cin}, {cout}, {karg}, stride={s}, "
                    f"padding={p}, output_padding={op}, groups={g}, bias={bias}, dilation={d}"
                    f"{'' if mode == 'zeros' else f', padding_mode={mode!r}'}){cast}")
        else:
            s = self.pick([1, 1, 2])
            pad = self.pick(["'same'", "'valid'", "0", "1", "2"])
            s = 1 if pad == "'same'" else s   # ('same' raises for strided convolutions)
            if bad:
                pad, s = "'same'", 2
            # (the non-zero padding modes pad by reflection, which needs padding < the input's size)
            sp = tuple(dd[j] * (k[j] - 1) + 1 + self.i(0, 3) + (3 if mode == "reflect" else 0) for j in range(nd))
            ctor = (f"torch.nn.Conv{nd}d({cin}, {cout}, {karg}, stride={s}, padding={pad}, "
                    f"dilation={d}, groups={g}, bias={bias}, padding_mode={mode!r}){cast}")
        m = self._module(ctor)
        self.obj(f"repr({m})", "nn:conv_mod")
        self._param(f"{m}.weight", dt)
        x = self.leaf((self.i(1, 3), cin) + sp if self.r() < 0.8 else (cin,) + sp, dt, self.r() < 0.8)
        if transpose and self.r() < 0.4:
            # (output_size: any size in [the smallest, the smallest + stride) picks the output padding)
            lo = [(sp[j] - 1) * ss[j] - 2 * p + dd[j] * (k[j] - 1) + 1 for j in range(nd)]
            size = [lo[j] + self.i(0, ss[j]) for j in range(nd)]
            self.out("conv_mod_output_size", f"{m}({x}, output_size={size})", dtype=dt)
        else:
            self.out("conv_mod_out", f"{m}({x})", dtype=dt)

    def nn_bn_mod(self, bad: bool) -> None:
        """A BatchNorm / InstanceNorm module (momentum None, no running stats, no affine) called in train mode
        then eval mode; its buffers, state_dict and repr."""
        nd, dt = self.pick([1, 1, 2, 3]), self.fdt()
        kind = self.pick(["BatchNorm", "BatchNorm", "BatchNorm", "InstanceNorm"])
        c = self.i(1, 4)
        args = [str(c)]
        if self.r() < 0.5:
            args.append(f"momentum={self.pick([None, 0.3, 0.0, 1.0])}")
        if self.r() < 0.5:
            args.append(f"affine={self.r() < (0.5 if kind == 'BatchNorm' else 0.3)}")
        if self.r() < 0.5:
            args.append(f"track_running_stats={self.r() < (0.4 if kind == 'BatchNorm' else 0.7)}")
        if self.r() < 0.2:
            args.append(f"eps={self.pick([1e-3, 0.5])}")
        m = self._module(f"torch.nn.{kind}{nd}d({', '.join(args)}){'.double()' if dt == 'float64' else ''}")
        self.obj(f"repr({m})", "nn:bn_mod")
        n = self.i(2, 4) if kind == "BatchNorm" else self.i(1, 3)
        # (BatchNorm1d takes (N, C) or (N, C, L); the others (N, C) + nd sizes; InstanceNorm needs > 1 value each)
        sp = tuple(self.i(1, 4) for _ in range(self.pick([0, 1]) if kind == "BatchNorm" and nd == 1 else nd))
        if kind == "InstanceNorm":
            sp = (self.i(2, 4),) + sp[1:]
        for _step in range(self.i(1, 4)):
            x = self.leaf((n, c + (1 if bad else 0)) + sp, dt)
            self.out("bn_mod_train", f"{m}({x})", dtype=dt)
        self.obj(f"[(k, v) for k, v in {m}.named_buffers()]")
        if self.r() < 0.3:
            self.emit("nn-aux", f"{m}.reset_running_stats()")
        self.emit("nn-aux", f"{m}.eval()")
        x = self.leaf((self.i(1, 3), c) + sp, dt)
        self.out("bn_mod_eval", f"{m}({x})", dtype=dt)
        self.obj(f"list({m}.state_dict().items())")

    def nn_transformer(self, bad: bool) -> None:
        """nn.Transformer (or a TransformerDecoder over a layer) in float64 with causal / key-padding masks."""
        e, h = self.pick([(2, 1), (4, 2), (4, 1), (6, 3)])
        bf, nf = self.r() < 0.5, self.r() < 0.4
        s_len, t_len, b = self.i(1, 4), self.i(1, 4), self.i(1, 3)
        act = self.pick(["'relu'", "'gelu'", "torch.nn.functional.tanh"])
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        common = f"dim_feedforward={self.i(1, 6)}, dropout=0.0, activation={act}, batch_first={bf}, norm_first={nf}"
        full = self.r() < 0.5
        if full:
            m = self._module(f"torch.nn.Transformer({e}, {h}, num_encoder_layers={self.i(1, 3)}, "
                             f"num_decoder_layers={self.i(1, 3)}, {common}, bias={self.r() < 0.8}).double()")
        else:
            norm = f", norm=torch.nn.LayerNorm({e})" if self.r() < 0.5 else ""
            m = self._module(f"torch.nn.TransformerDecoder(torch.nn.TransformerDecoderLayer({e}, {h}, {common}), "
                             f"{self.i(1, 3)}{norm}).double()")
        self.obj(f"[(k, tuple(p.shape)) for k, p in {m}.named_parameters()]", "nn:transformer")
        sh = (lambda length: (b, length, e) if bf else (length, b, e))
        src = self.leaf(sh(s_len), "float64")
        tgt = self.leaf(sh(t_len)[:-1] + (e + (1 if bad else 0),), "float64")
        kw = []
        if self.r() < 0.6:
            causal = self.r() < 0.5
            kw.append(f"tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask({t_len}, dtype=torch.float64)")
            if causal:
                kw.append("tgt_is_causal=True")
        if self.r() < 0.4:
            pm = self.rng.random((b, s_len)) < 0.3
            pm[:, 0] = False
            kw.append(f"memory_key_padding_mask={self.leaf((b, s_len), 'bool', False, pm)}")
        if self.r() < 0.4:
            pm = self.rng.random((b, t_len)) < 0.3
            pm[:, 0] = False
            kw.append(f"tgt_key_padding_mask={self.leaf((b, t_len), 'bool', False, pm)}")
        if full:
            if self.r() < 0.4:
                ms = np.where(self.rng.random((s_len, s_len)) < 0.3, -np.inf, 0.0)
                np.fill_diagonal(ms, 0.0)
                kw.append(f"src_mask={self.leaf((s_len, s_len), 'float64', False, ms)}")
            self.out("Transformer", f"{m}({src}, {tgt}{''.join(', ' + a for a in kw)})", dtype="float64")
        else:
            self.out("TransformerDecoder", f"{m}({tgt}, {src}{''.join(', ' + a for a in kw)})", dtype="float64")
        self._param(f"list({m}.parameters())[{self.i(0, 4)}]", "float64")

    def nn_adaptive(self, bad: bool) -> None:
        """AdaptiveLogSoftmaxWithLoss: output and loss, log_prob, predict; its repr."""
        dt, f, n = self.fdt(), self.i(2, 6), self.i(1, 5)
        nc = self.i(4, 12)
        cut = sorted(set(int(v) for v in self.rng.integers(1, nc, self.i(1, 3))))
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cutoffs = cut if not bad else cut + [nc + 1]
        m = self._module(f"torch.nn.AdaptiveLogSoftmaxWithLoss({f}, {nc}, {cutoffs}, "
                         f"div_value={self.pick([4.0, 2.0])}, head_bias={self.r() < 0.4})"
                         f"{'.double()' if dt == 'float64' else ''}")
        self.obj(f"repr({m})", "nn:adaptive_logsoftmax")
        batched = self.r() < 0.8
        x = self.leaf((n, f) if batched else (f,), dt)
        t = self.leaf((n,) if batched else (), "int64", False, self.rng.integers(0, nc, (n,) if batched else ()))
        r = self._module(f"{m}({x}, {t})")   # (an _ASMoutput named tuple)
        self.out("adaptive_output", f"{r}.output", dtype=dt)
        self.out("adaptive_loss", f"{r}.loss", dtype=dt)
        x2 = self.leaf((self.i(1, 4), f), dt)
        self.out("adaptive_log_prob", f"{m}.log_prob({x2})", dtype=dt)
        self.out("adaptive_predict", f"{m}.predict({x2})", dtype="int64", rg=False)

    def nn_layer_mod(self, bad: bool) -> None:
        """nn.Bilinear / Linear / Identity modules (bias or not, unbatched inputs); reprs, outputs, gradients."""
        dt, n = self.fdt(), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        i1, i2, o = self.i(1, 4), self.i(1, 4), self.i(1, 4)
        kind = self.pick(["Bilinear", "Bilinear", "Linear", "Identity"])
        lead = self.pick([(n,), (), (2, n)])
        if kind == "Bilinear":
            m = self._module(f"torch.nn.Bilinear({i1}, {i2}, {o}, bias={self.r() < 0.7}){cast}")
            expr = f"{m}({self.leaf(lead + (i1,), dt)}, {self.leaf(lead + (i2 + (1 if bad else 0),), dt)})"
        elif kind == "Linear":
            m = self._module(f"torch.nn.Linear({i1}, {o}, bias={self.r() < 0.7}){cast}")
            expr = f"{m}({self.leaf(lead + (i1 + (1 if bad else 0),), dt)})"
        else:
            m = self._module(f"torch.nn.Identity({i1}, unused={o})")
            expr = f"{m}({self.leaf(lead + (i1,), dt)})"
        self.obj(f"(repr({m}), {m}.extra_repr())", "nn:layer_mod")
        self.out("layer_mod:" + kind, expr, dtype=dt)
        if kind != "Identity":
            self._param(f"{m}.weight", dt)

    def nn_shape_mod(self, bad: bool) -> None:
        """Upsample / PixelShuffle / PixelUnshuffle / Flatten / Unflatten / ChannelShuffle modules: repr, output."""
        dt, kind = self.fdt(), self.pick(["Upsample", "Upsample", "PixelUnshuffle", "PixelShuffle", "Flatten",
                                          "Unflatten", "ChannelShuffle", "UpsamplingNearest2d",
                                          "UpsamplingBilinear2d"])
        n = self.i(1, 3)
        if kind == "Upsample":
            nd = self.pick([1, 2, 3])
            mode = self.pick({1: ["nearest", "linear", "nearest-exact"], 2: ["nearest", "bilinear", "bicubic",
                                                                             "nearest-exact"],
                              3: ["nearest", "trilinear"]}[nd])
            sp = tuple(self.i(1, 4) for _ in range(nd))
            if self.r() < 0.5:
                size = self.pick([self.i(1, 6), tuple(self.i(1, 6) for _ in range(nd))])
                arg = f"size={size}"
            else:
                arg = f"scale_factor={self.pick([2, 1.5, 0.5, tuple(self.pick([2.0, 1.5, 3]) for _ in range(nd))])}"
            ac = f", align_corners={self.r() < 0.5}" if mode in ("linear", "bilinear", "bicubic", "trilinear") else ""
            if bad:
                sp = sp[:-1] if nd > 1 else sp + (2, 2, 2)
            m = self._module(f"torch.nn.Upsample({arg}, mode={mode!r}{ac})")
            x = self.leaf((n, self.i(1, 3)) + sp, dt)
        elif kind in ("UpsamplingNearest2d", "UpsamplingBilinear2d"):
            m = self._module(f"torch.nn.{kind}(scale_factor={self.pick([2, 3])})" if self.r() < 0.5 else
                             f"torch.nn.{kind}(size={self.pick([(3, 2), 4])})")
            x = self.leaf((n, self.i(1, 3), self.i(1, 4), self.i(1, 4) + (0 if not bad else 0)), dt)
            if bad:
                x = self.leaf((n, 2, 3), dt)
        elif kind in ("PixelUnshuffle", "PixelShuffle"):
            r = self.pick([1, 2, 3])
            m = self._module(f"torch.nn.{kind}({r})")
            if kind == "PixelShuffle":
                shape = (self.i(1, 3) * r * r + (1 if bad else 0), self.i(1, 3), self.i(1, 3))
            else:
                shape = (self.i(1, 3), self.i(1, 3) * r + (1 if bad else 0), self.i(1, 3) * r)
            x = self.leaf(self.pick([(n,), (), (2, 1)]) + shape, dt)
        elif kind == "Flatten":
            shape = tuple(self.i(1, 4) for _ in range(self.i(1, 5)))
            nd_ = len(shape)
            sd, ed = self.i(-nd_, nd_), self.i(-nd_, nd_)
            if not bad and (sd % nd_) > (ed % nd_):
                sd, ed = ed, sd
            m = self._module(f"torch.nn.Flatten({sd}, {ed})" if self.r() < 0.8 else "torch.nn.Flatten()")
            x = self.leaf(shape, dt)
        elif kind == "Unflatten":
            a, b = self.i(1, 4), self.i(1, 4)
            shape = (n, a * b, self.i(1, 3))
            sizes = self.pick([(a, b), (-1, b), (a, -1), [a, b]])
            if bad:
                sizes = (a + 1, b)
            m = self._module(f"torch.nn.Unflatten({self.pick([1, -2])}, {sizes})")
            x = self.leaf(shape, dt)
        else:
            g = self.pick([1, 2, 3])
            m = self._module(f"torch.nn.ChannelShuffle({g})")
            x = self.leaf((n, g * self.i(1, 3) + (1 if bad else 0)) + tuple(self.i(1, 3) for _ in range(self.i(0, 3))),
                          dt)
        self.obj(f"repr({m})", "nn:shape_mod")
        self.out("shape_mod:" + kind, f"{m}({x})", dtype=dt)

    LOSSES = ("L1Loss", "MSELoss", "CrossEntropyLoss", "CTCLoss", "NLLLoss", "PoissonNLLLoss", "GaussianNLLLoss",
              "KLDivLoss", "BCELoss", "BCEWithLogitsLoss", "MarginRankingLoss", "HingeEmbeddingLoss",
              "MultiLabelMarginLoss", "HuberLoss", "SmoothL1Loss", "SoftMarginLoss", "MultiLabelSoftMarginLoss",
              "CosineEmbeddingLoss", "MultiMarginLoss", "TripletMarginLoss", "TripletMarginWithDistanceLoss",
              "NLLLoss2d")
    LOSS_ARGS = {"CrossEntropyLoss": ["ignore_index=3", "label_smoothing=0.2", "reduction='sum'"],
                 "CTCLoss": ["blank=1", "zero_infinity=True", "reduction='none'"],
                 "NLLLoss": ["ignore_index=-1", "reduction='none'"], "PoissonNLLLoss": ["log_input=False",
                                                                                          "full=True", "eps=0.1"],
                 "GaussianNLLLoss": ["full=True", "eps=0.01"], "KLDivLoss": ["log_target=True",
                                                                             "reduction='batchmean'"],
                 "MarginRankingLoss": ["margin=0.5"], "HingeEmbeddingLoss": ["margin=2.0"], "HuberLoss": ["delta=0.5"],
                 "SmoothL1Loss": ["beta=0.5"], "CosineEmbeddingLoss": ["margin=0.1"],
                 "MultiMarginLoss": ["p=2", "margin=0.5"], "TripletMarginLoss": ["margin=0.5", "p=1.0",
                                                                                 "swap=True", "eps=0.01"],
                 "TripletMarginWithDistanceLoss": ["margin=2.0", "swap=True",
                                                   "distance_function=torch.nn.PairwiseDistance()"],
                 "L1Loss": ["reduction='sum'", "size_average=False"], "MSELoss": ["reduce=False"],
                 "BCELoss": ["reduction='sum'"], "BCEWithLogitsLoss": ["reduction='none'"]}

    def nn_loss_repr(self, bad: bool) -> None:
        """Loss modules with random constructor arguments: repr, extra_repr, reduction, attributes (some legacy
        size_average / reduce arguments, which warn); sometimes a bad reduction string (the error on call)."""
        for _ in range(self.i(1, 4)):
            kind = self.pick(self.LOSSES)
            args = [a for a in self.LOSS_ARGS.get(kind, []) if self.r() < 0.5]
            if self.r() < 0.3:
                args.append(self.pick(["reduction='mean'", "reduction='sum'", "reduction='none'"]))
            if len([a for a in args if a.startswith("reduction")]) > 1:
                args = [a for a in args if not a.startswith("reduction")]
            m = self._module(f"torch.nn.{kind}({', '.join(args)})")
            self.obj(f"(repr({m}), {m}.extra_repr(), {m}.reduction, type({m}).__mro__[1].__name__, "
                     f"sorted(k for k in vars({m}) if not k.startswith('_') and k != 'training'), "
                     f"[getattr({m}, k) for k in sorted(vars({m})) if not k.startswith('_') and "
                     f"isinstance(getattr({m}, k), (int, float, str, bool))])", "nn:loss_repr")
        x = self.leaf((self.i(1, 4), 3), self.fdt())
        bad_red = self.pick(["'avg'", "'elementwise_mean'", "'batchmean'"]) if bad else "'sum'"
        self.out("loss_repr_call", f"torch.nn.{self.pick(['L1Loss', 'MSELoss', 'SmoothL1Loss', 'HuberLoss'])}("
                                   f"reduction={bad_red})({x}, {x}.detach() * 0.5)", dtype=self.vars[-1].dtype)

    def nn_module_api(self, bad: bool) -> None:
        """A custom Module with a persistent and a non-persistent buffer, a submodule and a parameter: named_* /
        children / state_dict / repr, casts (to(dtype), double(), half(), float()), requires_grad_(False)."""
        i, o = self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cls = self._module("type('Net', (torch.nn.Module,), {'forward': lambda self, x: "
                           "self.body(x) * self.scale + self.shift.sum() + self.p.sum()})")
        m = self._module(f"{cls}()")
        self.emit("nn-aux", f"{m}.body = torch.nn.Sequential(torch.nn.Linear({i}, {o}), "
                  f"torch.nn.{self.pick(['Tanh', 'ReLU'])}())\n"
                  f"{m}.register_buffer('scale', torch.full(({o},), 2.0))\n"
                  f"{m}.register_buffer('shift', torch.ones(2), persistent={self.r() < 0.4})\n"
                  f"{m}.register_buffer('none_buf', None)\n"
                  f"{m}.p = torch.nn.Parameter(torch.zeros(1))\n"
                  f"{m}.register_parameter('q', None)")
        self.obj(f"(repr({m}), [k for k, _ in {m}.named_modules()], [type(c).__name__ for c in {m}.children()], "
                 f"[k for k, _ in {m}.named_children()], [(k, b) for k, b in {m}.named_buffers()], "
                 f"list({m}.state_dict().keys()), [k for k, _ in {m}.named_parameters()])", "nn:module_api")
        cast = self.pick(["to(torch.float64)", "double()", "half()", "to(dtype=torch.float64)", "float()",
                          "to(torch.float16)", "bfloat16()", "to(torch.int64)" if bad else "double()"])
        self.emit("nn-aux", f"{m}.{cast}")
        self.obj(f"[(k, p.dtype) for k, p in {m}.named_parameters()] + [(k, b.dtype) for k, b in {m}.named_buffers()]")
        if self.r() < 0.4:
            self.emit("nn-aux", f"{m}.body.requires_grad_(False)")
        self.obj(f"[(k, p.requires_grad, p.is_leaf) for k, p in {m}.named_parameters()]")
        dt = "float64" if "64" in cast or "double" in cast else "float32"
        if "16" in cast or "half" in cast:   # (back to float32: half-precision matmuls differ by kernel)
            dt = "float32"
            self.emit("nn-aux", f"{m}.float()")
        x = self.leaf((self.i(1, 3), i), dt)
        self.out("module_api_out", f"{m}({x})", dtype=dt)
        self._param(f"{m}.p", dt)

    PARAMETRIZATIONS = (
        "Symmetric: lambda self, X: X.triu() + X.triu(1).transpose(-1, -2)",
        "Positive: lambda self, X: X.exp()",
        "Scaled: lambda self, X: X * 2.0 + 1.0",
        "Skew: lambda self, X: X.triu(1) - X.triu(1).transpose(-1, -2)")

    def nn_parametrize(self, bad: bool) -> None:
        """register_parametrization of a custom module on a Linear's weight (or bias), sometimes two stacked and
        unsafe; the module's repr, weight, parametrizations.weight.original, gradients; remove_parametrizations."""
        dt, n = self.fdt(), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        sq = self.r() < 0.7
        i = self.i(1, 4)
        o = i if sq else self.i(1, 4)
        lin = self._module(f"torch.nn.Linear({i}, {o}){'.double()' if dt == 'float64' else ''}")
        P = "torch.nn.utils.parametrize."
        name = "weight" if self.r() < 0.8 else "bias"
        for _ in range(self.pick([1, 1, 2])):
            spec = self.pick(self.PARAMETRIZATIONS if (sq and name == "weight") else self.PARAMETRIZATIONS[1:3])
            cname, body = spec.split(": ", 1)
            cls = self._module(f"type({cname!r}, (torch.nn.Module,), {{'forward': {body}}})")
            unsafe = ", unsafe=True" if bad else ""
            self.emit("nn-aux", f"{P}register_parametrization({lin}, {name!r}, {cls}(){unsafe})")
        if bad:
            cls = self._module("type('Shrink', (torch.nn.Module,), {'forward': lambda self, X: X[:1]})")
            self.emit("nn-aux", f"{P}register_parametrization({lin}, 'weight', {cls}())")
        self.obj(f"(repr({lin}), {P}is_parametrized({lin}), {P}is_parametrized({lin}, {name!r}), "
                 f"[k for k, _ in {lin}.named_parameters()], list({lin}.state_dict().keys()))", "nn:parametrize")
        self._param(f"{lin}.parametrizations.{name}.original", dt)
        self.out("parametrized_weight", f"{lin}.{name} * 1", dtype=dt)
        x = self.leaf((n, i), dt)
        if self.r() < 0.4:
            self.emit("nn-aux", f"with {P}cached():\n    _c = {lin}({x}) + {lin}({x})")
        self.out("parametrized_out", f"{lin}({x})", dtype=dt)
        if self.r() < 0.5:
            self.emit("nn-aux", f"{P}remove_parametrizations({lin}, {name!r}, leave_parametrized={self.r() < 0.6})")
            self.obj(f"(repr({lin}), [k for k, _ in {lin}.named_parameters()], {lin}.{name})")
            self.out("unparametrized_out", f"{lin}({x})", dtype=dt)

    NONLINS = ("linear", "conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
               "sigmoid", "tanh", "relu", "leaky_relu", "selu")

    def nn_init2(self, bad: bool) -> None:
        """calculate_gain of every nonlinearity (and a param), kaiming_* with each mode / nonlinearity and xavier_*
        on 2-5 d weights under manual_seed; fan computations; errors of unknown nonlinearities / modes."""
        dt = self.fdt()
        nl = self.pick(self.NONLINS)
        prm = f", {self.pick([0.2, 0, 1, 3])}" if nl == "leaky_relu" and self.r() < 0.6 else ""
        self.obj(f"[torch.nn.init.calculate_gain(n) for n in {list(self.NONLINS)!r}] + "
                 f"[torch.nn.init.calculate_gain('leaky_relu', 0.3), torch.nn.init.calculate_gain({nl!r}{prm})]",
                 "nn:init_gain")
        shape = tuple(self.i(1, 5) for _ in range(self.i(2, 6)))
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        w = self.leaf(shape, dt, self.r() < 0.7, vals=np.zeros(shape))
        fn = self.pick(["kaiming_uniform_", "kaiming_normal_", "xavier_uniform_", "xavier_normal_"])
        if fn.startswith("kaiming"):
            mode = self.pick(["'fan_in'", "'fan_out'"]) if not bad else "'fan_avg'"
            args = f"a={self.pick([0, 0.1, 2.0])}, mode={mode}, nonlinearity={nl!r}"
        else:
            args = f"gain={self.pick([1.0, 0.5, 3.0])}" if not bad else "gain=1.0, mode='fan_in'"
        self.out("init2", f"torch.nn.init.{fn}({w}, {args})", dtype=dt, rg=False)
        self.obj(f"torch.nn.init._calculate_fan_in_and_fan_out({w})")
        self.out("init2-use", f"{w}.tanh() * 2", dtype=dt)

    def nn_optim2(self, bad: bool) -> None:
        """An optimizer (maximize / weight_decay / nesterov / amsgrad ...) given a second param group later, its
        state_dict loaded into a fresh optimizer that continues; chained schedulers (SequentialLR,
        ChainedScheduler) with their state_dict."""
        dt = self.pick(["float64", "float64", "float32"])
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        i, o = self.i(1, 4), self.i(1, 3)
        a = self._module(f"torch.nn.Linear({i}, {o}){cast}")
        b = self._module(f"torch.nn.Linear({o}, 1, bias={self.r() < 0.6}){cast}")
        x = self.leaf((self.i(1, 4), i), dt, False)
        opt = self.pick(self.OPTIMS[:-2] + ("SGD(P, lr=0.1, weight_decay=0.1, maximize=True)",
                                           "Adam(P, lr=0.1, amsgrad=True, maximize=True, weight_decay=0.05)",
                                           "AdamW(P, lr=0.1, maximize=True)", "NAdam(P, lr=0.1, momentum_decay=0.01)",
                                           "RMSprop(P, lr=0.05, maximize=True, alpha=0.5)",
                                           "Adagrad(P, lr=0.2, maximize=True)"))
        os_ = self._module(f"torch.optim.{opt.replace('P', f'{a}.parameters()')}")
        later = self.r() < 0.6
        group = f"{{'params': {b}.parameters(), 'lr': {self.pick([0.01, 0.2])}}}"
        if bad:
            group = f"{{'params': {a}.parameters()}}"
        if not later:
            self.emit("nn-aux", f"{os_}.add_param_group({group})")
        sched = sched_ctor = None
        if self.r() < 0.6:
            kind = self.pick(["SequentialLR", "ChainedScheduler", "ChainedScheduler-opt", "CyclicLR"])
            L = "torch.optim.lr_scheduler."
            s1 = L + self.pick(["ConstantLR(@O, factor=0.5, total_iters=2)", "LinearLR(@O, 0.2, total_iters=2)",
                                "ExponentialLR(@O, 0.9)"])
            s2 = L + self.pick(["ExponentialLR(@O, 0.5)", "StepLR(@O, 2, gamma=0.1)", "CosineAnnealingLR(@O, 4)",
                                "MultiStepLR(@O, [2, 3], gamma=0.5)"])
            if kind == "SequentialLR":
                sched_ctor = f"{L}SequentialLR(@O, [{s1}, {s2}], milestones=[{self.i(1, 4)}])"
            elif kind == "ChainedScheduler":
                sched_ctor = f"{L}ChainedScheduler([{s1}, {s2}])"
            elif kind == "CyclicLR":
                fn = self.pick(["mode='triangular2'", "mode='exp_range', gamma=0.8",
                                "scale_fn=lambda x: 0.5 ** x, scale_mode='iterations'"])
                sched_ctor = f"{L}CyclicLR(@O, 0.01, 0.1, step_size_up=2, cycle_momentum=False, {fn})"
            else:
                sched_ctor = f"{L}ChainedScheduler([{s1}, {s2}], optimizer=@O)"
            sched = self._module(sched_ctor.replace("@O", os_))
        lrs = self.obj("[]", "nn:optim2")
        loss = f"{b}(torch.tanh({a}({x}))).pow(2).sum()"
        steps = self.i(1, 4)

        def run(o_, s_, k):
            lines = [f"for step in range({k}):", f"    {o_}.zero_grad()", f"    {loss}.backward()",
                     f"    {o_}.step()"]
            if s_:
                lines.append(f"    {s_}.step()")
            lines.append(f"    {lrs}.append([g['lr'] for g in {o_}.param_groups])")
            self.emit("nn:optim2-steps", "\n".join(lines))

        run(os_, sched, steps)
        if later:
            self.emit("nn-aux", f"{os_}.add_param_group({group})")
            run(os_, sched, self.i(1, 3))
        sd = self.obj(f"{os_}.state_dict()")
        self.obj(f"[(k, a, b) for k, st in {sd}['state'].items() for a, b in sorted(st.items())]")
        self.obj(f"[(k, v) for g in {sd}['param_groups'] for k, v in sorted(g.items()) if k != 'params'] + "
                 f"[g['params'] for g in {sd}['param_groups']]")
        if sched:
            self.obj(f"sorted((k, v) for k, v in {sched}.state_dict().items() if not isinstance(v, (list, dict)) "
                     f"or k in ('_last_lr', 'base_lrs', '_milestones'))")
        # (a fresh optimizer over the same parameters, loaded from the state_dict, continues the same way)
        groups = f"[{{'params': {a}.parameters()}}, {{'params': {b}.parameters()}}]"
        os2 = self._module(f"torch.optim.{opt.replace('P', groups)}")
        if self.r() < 0.5 and not bad:
            self.emit("nn-aux", f"{os2}.load_state_dict({os_}.state_dict())")
        else:
            self.emit("nn-aux", f"{os2}.load_state_dict({sd})")
        self.obj(f"[(k, v) for g in {os2}.param_groups for k, v in sorted(g.items()) if k != 'params']")
        s2_ = None
        if sched and self.r() < 0.7:   # (a fresh scheduler on the new optimizer, loaded from the first one's state)
            s2_ = self._module(sched_ctor.replace("@O", os2))
            self.emit("nn-aux", f"{s2_}.load_state_dict({sched}.state_dict())")
            self.obj(f"({s2_}.get_last_lr(), {s2_}.last_epoch if hasattr({s2_}, 'last_epoch') else None)")
        run(os2, s2_, self.i(1, 3))
        self._param(f"{a}.weight", dt)
        self.out("optim2-loss", loss, dtype=dt)

    NN_OPS11 = (("conv_mod", 5), ("bn_mod", 4), ("transformer", 3), ("adaptive", 2), ("layer_mod", 2),
                ("shape_mod", 4), ("loss_repr", 2), ("module_api", 3), ("parametrize", 3), ("init2", 2),
                ("optim2", 4))

    def op11(self) -> None:
        """One op of the session-11 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.NN_OPS11]
        w = np.array([w for _, w in self.NN_OPS11], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        bad = self.r() < 0.08
        if bad:
            self.p.ops.append("nn-bad")
        getattr(self, "nn_" + fam)(bad)

    # -- session 12 (appended to programs of seeds >= NN_S12_FIRST_SEED after op11's, from a random stream of
    # their own: see generate): recurrent modules with several layers / directions / projections / dropout fed
    # packed sequences in any order, MultiheadAttention's rarer options, loss modules' rarer options, interpolate
    # modes, norm modules, the old weight_norm / spectral_norm hooks and orthogonal, optimizers' flags with
    # swa_utils and clipping, torch.utils.checkpoint, Embedding / EmbeddingBag modules, update_bn, the inference
    # fast path of MultiheadAttention / TransformerEncoderLayer, unbatched cells ----------------------------------
    def nn_rnn3(self, bad: bool) -> None:
        """An RNN / LSTM / GRU (layers, directions, proj_size, dropout between layers: in eval mode, or in train
        mode under a seed) on a padded batch or on a packed one (any order of lengths), with or without h0."""
        kind = self.pick(["RNN", "LSTM", "GRU"])
        n, t, i, h = self.i(1, 4), self.i(1, 5), self.i(1, 4), self.i(1, 4)
        layers, bi, bf = self.pick([1, 2, 3]), self.r() < 0.5, self.r() < 0.5
        extra = f", num_layers={layers}, bidirectional={bi}, batch_first={bf}"
        if kind == "RNN" and self.r() < 0.5:
            extra += ", nonlinearity='relu'"
        if self.r() < 0.2:
            extra += ", bias=False"
        ph = h
        if kind == "LSTM" and h > 1 and self.r() < 0.4:
            ph = self.i(1, h)
            extra += f", proj_size={ph}"
        drop = layers > 1 and self.r() < 0.6
        if drop:
            extra += f", dropout={self.pick([0.3, 0.5])}"
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m = self._module(f"torch.nn.{kind}({i}, {h}{extra}).double()")
        self.obj(f"(repr({m}), [k for k, _ in {m}.named_parameters()])", "nn:rnn3")
        if drop and self.r() < 0.7:
            self.emit("nn-aux", f"{m}.eval()")
        else:
            self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        self._param(f"{m}.weight_ih_l{layers - 1}{'_reverse' if bi else ''}", "float64")
        x = self.leaf(((n, t) if bf else (t, n)) + (i + (1 if bad else 0),), "float64")
        hs = (layers * (2 if bi else 1), n)
        state = ""
        if self.r() < 0.5:
            h0 = self.leaf(hs + (ph,), "float64", self.r() < 0.7)
            state = f", ({h0}, {self.leaf(hs + (h,), 'float64', self.r() < 0.5)})" if kind == "LSTM" else f", {h0}"
        o, hn = self.new((), "float64", True), self.new((), "float64", True)
        hs_ = f"({hn.name}, {self.new((), 'float64', True).name})" if kind == "LSTM" else hn.name
        if self.r() < 0.4:
            self.emit("nn:rnn3_padded", f"{o.name}, {hs_} = {m}({x}{state})")
            return
        lengths = [int(v) for v in self.rng.integers(1, t + 1, n)]
        lengths[self.i(0, n)] = t
        es = self.r() < 0.3
        if es:
            lengths = sorted(lengths, reverse=True)
        ln = self.pick([repr(lengths), f"torch.tensor({lengths})"])
        F_ = "torch.nn.utils.rnn."
        pk = self._module(f"{F_}pack_padded_sequence({x}, {ln}, batch_first={bf}, enforce_sorted={es})")
        self.p.names.remove(o.name)   # (a PackedSequence: not a tensor result)
        self.vars.remove(o)
        self.emit("nn:rnn3_packed", f"{o.name}, {hs_} = {m}({pk}{state})")
        self.obj(f"({o.name}.batch_sizes, {o.name}.sorted_indices, {o.name}.unsorted_indices)")
        self.out("rnn3_data", f"{o.name}.data * 1", dtype="float64")
        tl = f", total_length={t + self.i(0, 2)}" if self.r() < 0.3 else ""
        self.out("rnn3_unpacked", f"{F_}pad_packed_sequence({o.name}, batch_first={bf}, "
                                  f"padding_value={self.pick([0.0, -1.0])}{tl})", 2, "float64")

    def nn_mha2(self, bad: bool) -> None:
        """MultiheadAttention with kdim / vdim, add_bias_kv, add_zero_attn, bool / float masks (2-d, or 3-d per
        head), key_padding_mask bool or float, is_causal, unbatched inputs, need_weights with or without
        averaging."""
        heads = self.pick([1, 2, 3])
        e, n, lq, s = heads * self.i(1, 3), self.i(1, 3), self.i(1, 4), self.i(1, 4)
        bf, batched = self.r() < 0.5, self.r() < 0.8
        kdim = e if self.r() < 0.6 else self.i(1, 4)
        vdim = kdim if self.r() < 0.6 else self.i(1, 4)
        extra = f", batch_first={bf}, bias={self.r() < 0.8}, add_bias_kv={self.r() < 0.4}, " \
                f"add_zero_attn={self.r() < 0.4}"
        extra += f", kdim={kdim}, vdim={vdim}" if (kdim, vdim) != (e, e) else ""
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m = self._module(f"torch.nn.MultiheadAttention({e}, {heads}{extra}).double()")
        self._param(f"{m}.out_proj.weight", "float64")
        self._param(f"{m}.{'in_proj_weight' if (kdim, vdim) == (e, e) else 'k_proj_weight'}", "float64")
        sh = lambda L, d: ((n, L) if bf else (L, n)) + (d,) if batched else (L, d)   # noqa: E731
        q = self.leaf(sh(lq, e), "float64")
        k = self.leaf(sh(s, kdim + (1 if bad else 0)), "float64")
        v = self.leaf(sh(s, vdim), "float64")
        nw = self.r() < 0.6
        args = f", need_weights={nw}, average_attn_weights={self.r() < 0.5}"
        if self.r() < 0.5:
            km = self.rng.random((n, s) if batched else (s,)) < 0.4
            km[..., 0] = False   # (a row with every key masked: NaN probabilities)
            if self.r() < 0.5:
                args += f", key_padding_mask={self.leaf(km.shape, 'bool', False, km)}"
            else:
                args += f", key_padding_mask={self.leaf(km.shape, 'float64', False, np.where(km, -2.5, 0.0))}"
        r = self.r()
        if r < 0.6:
            shape = (lq, s) if self.r() < 0.6 or not batched else (n * heads, lq, s)
            am = self.rng.random(shape) < 0.4
            am[..., 0] = False
            if self.r() < 0.5 and "key_padding_mask" not in args:
                args += f", attn_mask={self.leaf(shape, 'bool', False, am)}"
            else:   # (a float mask beside a bool key_padding_mask: PyTorch's deprecation warning, compared too)
                args += f", attn_mask={self.leaf(shape, 'float64', False)}"
        elif r < 0.75 and lq == s:
            args += f", attn_mask=torch.nn.Transformer.generate_square_subsequent_mask({lq}, dtype=torch.float64)" \
                    f", is_causal=True"
        a = self.new((), "float64", True)
        w = self.new((), "float64", True).name if nw else "_"
        self.emit("nn:mha2", f"{a.name}, {w} = {m}({q}, {k}, {v}{args})")

    def nn_loss4(self, bad: bool) -> None:
        """Loss modules with their rarer options (CTC, multilabel margin, triplet with a distance function,
        Poisson / Gaussian NLL, Huber, multi-margin with p and weights, smooth L1 with beta, KL with log targets);
        the module's repr, its value and gradients."""
        kind = self.pick(["CTCLoss", "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss", "PoissonNLLLoss",
                          "GaussianNLLLoss", "HuberLoss", "MultiMarginLoss", "SmoothL1Loss", "KLDivLoss"])
        dt, n, c = self.fdt(), self.i(1, 4), self.i(2, 5)
        red = self.pick(["mean", "sum", "none"])
        L = "torch.nn."
        if kind == "CTCLoss":
            t, s = self.i(3, 7), self.i(1, 3)
            blank = self.pick([0, c - 1])
            m = self._module(f"{L}CTCLoss(blank={blank}, reduction={red!r}, zero_infinity={self.r() < 0.5})")
            x = self.leaf((t, n, c), dt)
            lp = self.new((), dt, True)
            self.emit("nn-aux", f"{lp.name} = {x}.log_softmax(2)")
            labels = [k for k in range(c) if k != blank]
            tg = self.leaf((n, s), "int64", False, self.rng.choice(labels, (n, s)))
            il = self.leaf((n,), "int64", False, self.rng.integers(1, t + 1 + (2 if bad else 0), n))
            tl = self.leaf((n,), "int64", False, self.rng.integers(1, s + 1, n))
            args = f"{lp.name}, {tg}, {il}, {tl}"
        elif kind == "MultiLabelMarginLoss":
            m = self._module(f"{L}MultiLabelMarginLoss(reduction={red!r})")
            x = self.leaf((n, c) if self.r() < 0.8 else (c,), dt)
            tg = self.rng.integers(-1, c + (1 if bad else 0), self.vars[-1].shape)
            args = f"{x}, {self.leaf(tg.shape, 'int64', False, tg)}"
        elif kind == "TripletMarginWithDistanceLoss":
            dist = self.pick(["None", "torch.nn.PairwiseDistance(p=1.0)", "torch.nn.CosineSimilarity()",
                              "lambda a, b: 1.0 - torch.nn.functional.cosine_similarity(a, b)",
                              "torch.nn.PairwiseDistance(p=3.0, eps=1e-3)"])
            m = self._module(f"{L}TripletMarginWithDistanceLoss(distance_function={dist}, "
                             f"margin={self.pick([1.0, 0.5, 2.0])}, swap={self.r() < 0.5}, reduction={red!r})")
            d = self.i(1, 4)
            args = ", ".join(self.leaf((n, d + (1 if bad and j == 2 else 0)), dt) for j in range(3))
        elif kind == "PoissonNLLLoss":
            li = self.r() < 0.5
            m = self._module(f"{L}PoissonNLLLoss(log_input={li}, full={self.r() < 0.5}, "
                             f"eps={self.pick([1e-8, 0.1])}, reduction={red!r})")
            shape = (n, c)
            x = self.leaf(shape, dt, kind="normal" if li else "pos")
            tg = self.leaf(shape, dt, False, self.rng.integers(0, 4, shape) + np.where(self.rng.random(shape) < 0.2,
                                                                                      0.5, 0.0))
            args = f"{x}, {tg}"
        elif kind == "GaussianNLLLoss":
            m = self._module(f"{L}GaussianNLLLoss(full={self.r() < 0.5}, eps={self.pick([1e-6, 0.5])}, "
                             f"reduction={red!r})")
            shape = (n, c)
            vs = self.pick([shape, (n, 1), (n,), (c + 1,) if bad else shape])
            vals = np.round(self.rng.uniform(0.2, 2.0, vs), 2)
            if self.r() < 0.2:
                vals.flat[0] = 0.0   # (clamped to eps)
            args = f"{self.leaf(shape, dt)}, {self.leaf(shape, dt, self.r() < 0.5)}, {self.leaf(vs, dt, True, vals)}"
        elif kind in ("HuberLoss", "SmoothL1Loss"):
            p = "delta" if kind == "HuberLoss" else "beta"
            vals = [1.0, 0.5, 2.0, 0.0] if p == "beta" else [1.0, 0.5, 2.0]   # (beta=0: plain L1)
            m = self._module(f"{L}{kind}(reduction={red!r}, {p}={self.pick(vals)})")
            shape = (n, c)
            args = f"{self.leaf(shape, dt)}, {self.leaf(shape if not bad else (n, c + 1), dt, self.r() < 0.5)}"
        elif kind == "MultiMarginLoss":
            wt = f", weight={self.leaf((c,), dt, False, kind='pos')}" if self.r() < 0.6 else ""
            m = self._module(f"{L}MultiMarginLoss(p={self.pick([1, 2])}, margin={self.pick([1.0, 0.5, 2.0])}"
                             f"{wt}, reduction={red!r})")
            x = self.leaf((n, c) if self.r() < 0.8 else (c,), dt)
            tshape = self.vars[-1].shape[:-1]
            args = f"{x}, {self.leaf(tshape, 'int64', False, self.rng.integers(0, c + (1 if bad else 0), tshape))}"
        else:
            lt = self.r() < 0.5
            m = self._module(f"{L}KLDivLoss(reduction={self.pick(['batchmean', red])!r}, log_target={lt})")
            x = self.new((), dt, True)
            self.emit("nn-aux", f"{x.name} = {self.leaf((n, c), dt)}.log_softmax(1)")
            tg = self.leaf((n, c), dt, self.r() < 0.5, kind="normal" if lt else "prob")
            args = f"{x.name}, {tg}"
        self.obj(f"repr({m})")
        self.out("loss4:" + kind, f"{m}({args})", dtype=dt)

    def nn_interp2(self, bad: bool) -> None:
        """interpolate in every mode (size or scale_factor, recompute_scale_factor, align_corners, antialias),
        affine_grid + grid_sample (each mode / padding mode / align_corners), fold of unfold with every option."""
        kind = self.pick(["interpolate", "interpolate", "grid", "fold"])
        dt, n, c = self.fdt(), self.i(1, 3), self.i(1, 3)
        F_ = "torch.nn.functional."
        if kind == "interpolate":
            mode = self.pick(["nearest", "nearest-exact", "linear", "bilinear", "bicubic", "trilinear", "area",
                              "bilinear", "bicubic"])
            nd = {"linear": 1, "bilinear": 2, "bicubic": 2, "trilinear": 3}.get(mode, self.pick([1, 2, 3]))
            sp = tuple(self.i(1, 6) for _ in range(nd))
            x = self.leaf((n, c) + sp, dt)
            if self.r() < 0.5:
                size = tuple(self.i(1, 8) for _ in range(nd))
                arg = f"size={size if nd > 1 and self.r() < 0.7 else size[0]}"
            else:
                sf = tuple(self.pick([0.5, 0.7, 1.5, 2.0, 2.5, 3.0, 1.0]) for _ in range(nd))
                sf = sf if nd > 1 and self.r() < 0.6 else sf[0]
                arg = f"scale_factor={sf}, recompute_scale_factor={self.pick([None, True, False])}"
            if mode in ("linear", "bilinear", "bicubic", "trilinear"):
                arg += f", align_corners={self.r() < 0.5}"
            if mode in ("bilinear", "bicubic") and self.r() < 0.5 or bad:
                arg += ", antialias=True"
            self.out("interp2", f"{F_}interpolate({x}, {arg}, mode={mode!r})", dtype=dt)
        elif kind == "grid":
            nd = self.pick([2, 2, 3])
            sp = tuple(self.i(1, 5) for _ in range(nd))
            ac = self.r() < 0.5
            theta = self.leaf((n, nd, nd + 1), dt)
            osz = (n, c) + tuple(self.i(1, 4) for _ in range(nd))
            g = self.new((), dt, True)
            self.emit("nn:affine_grid2", f"{g.name} = {F_}affine_grid({theta}, {list(osz)}, align_corners={ac})")
            x = self.leaf((n, c + (1 if bad else 0)) + sp, dt)
            mode = self.pick(["bilinear", "nearest", "bicubic"] if nd == 2 else ["bilinear", "nearest"])
            pm = self.pick(["zeros", "border", "reflection"])
            self.out("grid_sample2", f"{F_}grid_sample({x}, {g.name} * 1.3, mode={mode!r}, padding_mode={pm!r}, "
                                     f"align_corners={self.r() < 0.5})", dtype=dt)
        else:
            k = (self.i(1, 3), self.i(1, 3))
            d, p, s = self.pick([1, 2, (1, 2)]), self.pick([0, 1, (1, 0)]), self.pick([1, 2, (2, 1)])
            dd = d if isinstance(d, tuple) else (d, d)
            sp = tuple(dd[j] * (k[j] - 1) + 1 + self.i(0, 3) for j in range(2))
            x = self.leaf((n, c) + sp, dt)
            u = self.new((), dt, True)
            self.emit("nn:unfold2", f"{u.name} = {F_}unfold({x}, {k}, dilation={d}, padding={p}, stride={s})")
            osz = (sp[0] + (1 if bad else 0), sp[1])
            self.out("fold2", f"{F_}fold({u.name} * 1.5, {osz}, {k}, dilation={d}, padding={p}, stride={s})",
                     dtype=dt)

    def nn_norm3(self, bad: bool) -> None:
        """Norm modules: LocalResponseNorm / CrossMapLRN2d, RMSNorm (eps None, no affine), LayerNorm without
        affine or bias, GroupNorm without affine, InstanceNorm with affine / running stats in train then eval."""
        kind = self.pick(["LocalResponseNorm", "CrossMapLRN2d", "RMSNorm", "LayerNorm", "GroupNorm", "InstanceNorm"])
        dt, n, c = self.fdt(), self.i(1, 4), self.pick([1, 2, 3, 4, 6])
        sp = tuple(self.i(1, 4) for _ in range(self.pick([1, 2, 2, 3])))
        L = "torch.nn."
        cast = ".double()" if dt == "float64" else ""
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        if kind == "LocalResponseNorm":
            m = self._module(f"{L}LocalResponseNorm({self.i(1, 5)}, alpha={self.pick([1e-4, 0.5, 1.0])}, "
                             f"beta={self.pick([0.75, 0.5, 1.5])}, k={self.pick([1.0, 2.0, 0.5])})")
        elif kind == "CrossMapLRN2d":
            sp = (self.i(1, 4), self.i(1, 4)) + (() if not bad else (2,))
            m = self._module(f"{L}CrossMapLRN2d({self.i(1, 5)}, alpha={self.pick([1e-4, 0.5])}, "
                             f"beta={self.pick([0.75, 0.5])}, k={self.pick([1.0, 2.0])})")
        elif kind in ("RMSNorm", "LayerNorm"):
            ns = ((c,) + sp)[-self.i(1, len(sp) + 2):]
            if bad:
                ns = ns[:-1] + (ns[-1] + 1,)
            ea = self.r() < 0.5
            extra = f", eps={self.pick([None, 1e-3])}" if kind == "RMSNorm" else f", bias={self.r() < 0.5}"
            m = self._module(f"{L}{kind}({list(ns) if len(ns) > 1 or self.r() < 0.5 else ns[0]}{extra}, "
                             f"elementwise_affine={ea}){cast}")
            if ea:
                self.emit("nn-aux", f"with torch.no_grad():\n    {m}.weight.uniform_(0.5, 1.5)")
        elif kind == "GroupNorm":
            g = self.pick([gg for gg in (1, 2, 3) if c % gg == 0]) if not bad else 4 if c != 4 else 3
            m = self._module(f"{L}GroupNorm({g}, {c}, eps={self.pick([1e-5, 0.1])}, affine={self.r() < 0.5}){cast}")
        else:
            sp = sp[:self.i(1, 3)]
            m = self._module(f"{L}InstanceNorm{len(sp)}d({c}, affine={self.r() < 0.5}, "
                             f"track_running_stats={self.r() < 0.6}, momentum={self.pick([0.1, 0.5, None])}){cast}")
        self.obj(f"repr({m})", "nn:norm3")
        x = self.leaf((n, c) + sp, dt)
        self.out("norm3:" + kind, f"{m}({x})", dtype=dt)
        if kind == "InstanceNorm":
            self.obj(f"list({m}.state_dict().items())")
            self.emit("nn-aux", f"{m}.eval()")
            self.out("norm3:InstanceNorm-eval", f"{m}({x})", dtype=dt)

    def nn_param2(self, bad: bool) -> None:
        """The old hooks torch.nn.utils.weight_norm / spectral_norm (dim, power iterations; forward in train and
        eval; removed), and parametrizations.orthogonal (each map, with or without trivialization)."""
        kind = self.pick(["weight_norm", "spectral_norm", "orthogonal"])
        dt, n = self.fdt(), self.i(1, 4)
        i, o = self.i(1, 5), self.i(1, 5)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        U = "torch.nn.utils."
        base = self.pick([f"torch.nn.Linear({i}, {o}){cast}", f"torch.nn.Conv1d({i}, {o}, 2){cast}"])
        conv = "Conv" in base
        if kind == "weight_norm":
            dim = self.pick([0, 1, None, -1])
            m = self._module(f"{U}weight_norm({base}, dim={dim})")
            self._param(f"{m}.weight_g", dt)
        elif kind == "spectral_norm":
            m = self._module(f"{U}spectral_norm({base}, n_power_iterations={self.pick([1, 2, 3])}, "
                             f"eps={self.pick([1e-12, 1e-3])}{', dim=1' if self.r() < 0.3 else ''})")
            self._param(f"{m}.weight_orig", dt)
        else:
            base = f"torch.nn.Linear({i}, {o}){cast}"
            conv = False
            omap = self.pick(["None", "'matrix_exp'", "'cayley'", "'householder'"])
            if bad:
                omap = "'qr'"
            m = self._module(f"{U}parametrizations.orthogonal({base}, orthogonal_map={omap}, "
                             f"use_trivialization={self.r() < 0.6})")
            self._param(f"{m}.parametrizations.weight.original", dt)
            self.out("orthogonal_weight", f"{m}.weight * 1", dtype=dt)
        self.obj(f"[k for k, _ in {m}.named_parameters()]", "nn:param2")
        x = self.leaf((n, i) + ((self.i(2, 4),) if conv else ()), dt)
        self.out("param2:" + kind, f"{m}({x})", dtype=dt)
        if kind == "spectral_norm" and self.r() < 0.6:
            self.out("param2:spectral_norm-again", f"{m}({x})", dtype=dt)
            self.emit("nn-aux", f"{m}.eval()")
            self.out("param2:spectral_norm-eval", f"{m}({x})", dtype=dt)
        if kind != "orthogonal" and self.r() < 0.4:
            self.emit("nn-aux", f"{U}remove_{kind}({m})")
            self.obj(f"[k for k, _ in {m}.named_parameters()]")
            self.out("param2:removed", f"{m}({x})", dtype=dt)

    OPTIMS3 = ("RAdam(P, lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)", "RAdam(P, lr=0.05, foreach=True)",
               "NAdam(P, lr=0.05, momentum_decay=0.01, decoupled_weight_decay=True, weight_decay=0.1)",
               "NAdam(P, lr=0.05, weight_decay=0.2, foreach=False)", "Adamax(P, lr=0.1, weight_decay=0.1)",
               "Adamax(P, lr=0.1, foreach=True, maximize=True)", "ASGD(P, lr=0.1, lambd=0.01, alpha=0.5, t0=1)",
               "ASGD(P, lr=0.05, weight_decay=0.1, foreach=True)", "Rprop(P, lr=0.05, etas=(0.3, 1.5), "
               "step_sizes=(1e-3, 1.0))", "Rprop(P, foreach=True, maximize=True)",
               "LBFGS(P, lr=0.8, max_iter=5, history_size=2, line_search_fn='strong_wolfe')",
               "LBFGS(P, lr=0.5, max_iter=3, tolerance_grad=1e-3)", "Adadelta(P, lr=0.5, rho=0.5, weight_decay=0.1)",
               "Adadelta(P, foreach=True, maximize=True)", "SGD(P, lr=0.1, momentum=0.9, dampening=0.5)",
               "SGD(P, lr=0.1, momentum=0.9, nesterov=True, foreach=False)", "Adam(P, lr=0.05, differentiable=True)",
               "SGD(P, lr=0.1, momentum=0.5, differentiable=True)", "AdamW(P, lr=0.05, foreach=True, amsgrad=True)",
               "Adagrad(P, lr=0.1, foreach=True, maximize=True)", "RMSprop(P, lr=0.01, alpha=0.9, foreach=True)")

    def nn_optim3(self, bad: bool) -> None:
        """Optimizers with their rarer flags, a few steps with clip_grad_norm_ (foreach, error_if_nonfinite)
        between backward and step, sometimes an AveragedModel (SWA / EMA) updated each step and SWALR."""
        dt, n, i, o = self.pick(["float64", "float64", "float32"]), self.i(1, 4), self.i(1, 4), self.i(1, 3)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        m = self._module(f"torch.nn.Sequential(torch.nn.Linear({i}, 3), torch.nn.Tanh(), torch.nn.Linear(3, {o}))"
                         f"{cast}")
        x, t = self.leaf((n, i), dt, False), self.leaf((n, o), dt, False)
        opt = self.pick(self.OPTIMS3)
        if bad:
            opt = opt.split("(")[0] + "(P, lr=0.1, weight_decay=-0.5)"
        os_ = self._module(f"torch.optim.{opt.replace('P', f'{m}.parameters()')}")
        self.obj(f"repr({os_})", "nn:optim3")
        swa = self.r() < 0.5
        S = "torch.optim.swa_utils."
        if swa:
            avg = self.pick(["", f", multi_avg_fn={S}get_ema_multi_avg_fn({self.pick([0.9, 0.5])})",
                             f", avg_fn={S}get_ema_avg_fn(0.8)", ", use_buffers=True"])
            am = self._module(f"{S}AveragedModel({m}{avg})")
            sw = self._module(f"{S}SWALR({os_}, swa_lr={self.pick([0.05, 0.01])}, anneal_epochs="
                              f"{self.pick([1, 2, 3])}, anneal_strategy={self.pick(['cos', 'linear'])!r})")
        lrs = self.obj("[]")
        loss = f"(({m}({x}) - {t}) ** 2).mean() + {m}({x}).sum().sin()"
        clip = ""
        if self.r() < 0.6:
            clip = (f"        torch.nn.utils.clip_grad_norm_({m}.parameters(), {self.pick([0.1, 1.0])}, "
                    f"norm_type={self.pick([2.0, 1.0, 'inf'])!r}, error_if_nonfinite={self.r() < 0.5}, "
                    f"foreach={self.pick([None, True, False])})\n").replace("'inf'", "float('inf')")
        lines = [f"for step in range({self.i(1, 5)}):",
                 "    def closure():",
                 f"        {os_}.zero_grad()",
                 f"        loss = {loss}",
                 "        loss.backward()",
                 clip + "        return loss",
                 f"    loss = {os_}.step(closure)" if "LBFGS" in opt else f"    loss = closure()\n    {os_}.step()"]
        if swa:
            lines += [f"    {am}.update_parameters({m})", f"    {sw}.step()", f"    {lrs}.append({sw}.get_last_lr())"]
        else:
            lines.append(f"    {lrs}.append([g['lr'] for g in {os_}.param_groups])")
        self.emit("nn:optim3-steps", "\n".join(lines))
        self._param(f"list({m}.parameters())[0]", dt)
        self.obj(f"[(k, a, b) for k, st in {os_}.state_dict()['state'].items() for a, b in sorted(st.items()) "
                 f"if torch.is_tensor(b) or isinstance(b, (int, float))]")
        if swa:
            self.obj(f"[(k, v) for k, v in {am}.state_dict().items()]")
            self.out("optim3-swa", f"{am}({x})", dtype=dt)
        self.out("optim3-loss", loss, dtype=dt)

    def nn_ckpt(self, bad: bool) -> None:
        """torch.utils.checkpoint.checkpoint of a module block (reentrant or not; dropout inside, the RNG state
        preserved or not) and checkpoint_sequential: the result, its graph and the gradients."""
        dt, n, i = self.fdt(), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        drop = self.r() < 0.3
        m = self._module(f"torch.nn.Sequential(torch.nn.Linear({i}, 3), torch.nn.{self.pick(['Tanh', 'GELU', 'SiLU'])}"
                         f"(), {'torch.nn.Dropout(0.5), ' if drop else ''}torch.nn.Linear(3, 2), torch.nn.Sigmoid())"
                         f"{cast}")
        self._param(f"{m}[0].weight", dt)
        x = self.leaf((n, i + (1 if bad else 0)), dt, self.r() < 0.7)
        C = "torch.utils.checkpoint."
        reent = self.r() < 0.5
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        if self.r() < 0.6:
            self.out("ckpt", f"{C}checkpoint({m}, {x}, use_reentrant={reent}, "
                             f"preserve_rng_state={not drop or self.r() < 0.5 and not reent})", dtype=dt)
        else:
            self.out("ckpt_sequential", f"{C}checkpoint_sequential({m}, {self.pick([1, 2, 3])}, {x}, "
                                        f"use_reentrant={reent})", dtype=dt)

    def nn_emb2(self, bad: bool) -> None:
        """Embedding / EmbeddingBag modules: padding_idx, max_norm (renormalizing the weight in place),
        scale_grad_by_freq, from_pretrained (freeze), EmbeddingBag's modes, offsets, include_last_offset and
        per_sample_weights."""
        num, dim, dt = self.i(3, 7), self.i(1, 4), self.fdt()
        dt = "float64" if bad else dt   # (float32 sum/mean: fbgemm's report of a bad index depends on memory)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        bag = self.r() < 0.5
        pad = f", padding_idx={self.i(-num, num)}" if self.r() < 0.4 else ""
        mn = f", max_norm={self.pick([1.0, 0.5, 2.0])}, norm_type={self.pick([2.0, 1.0])}" if self.r() < 0.3 else ""
        sg = ", scale_grad_by_freq=True" if self.r() < 0.3 else ""
        hi = num + (2 if bad else 0)
        if not bag:
            if self.r() < 0.3:
                w = self.leaf((num, dim), dt)
                m = self._module(f"torch.nn.Embedding.from_pretrained({w}, freeze={self.r() < 0.5}{pad}{mn}{sg})")
            else:
                m = self._module(f"torch.nn.Embedding({num}, {dim}{pad}{mn}{sg}){cast}")
                self._param(f"{m}.weight", dt)
            self.obj(f"repr({m})", "nn:emb2")
            ix = self.ints(tuple(self.i(1, 4) for _ in range(self.i(1, 3))), 0, hi)
            self.out("emb2:Embedding", f"{m}({ix})", dtype=dt)
            return
        mode = self.pick(["mean", "sum", "max"])
        sg = sg if mode != "max" else ""
        ilo = self.r() < 0.3
        m = self._module(f"torch.nn.EmbeddingBag({num}, {dim}, mode={mode!r}{pad}{mn}{sg}"
                         f"{', include_last_offset=True' if ilo else ''}){cast}")
        self._param(f"{m}.weight", dt)
        self.obj(f"repr({m})", "nn:emb2")
        if self.r() < 0.4 and not ilo:
            ix = self.ints((self.i(1, 4), self.i(1, 4)), 0, hi)
            count, extra = self.vars[-1].shape, ""
        else:
            k = self.i(1, 7)
            ix = self.ints((k,), 0, hi)
            cuts = sorted(self.rng.integers(0, k + 1, self.i(1, 4)).tolist())
            offs = [0] + cuts[1:] + ([k] if ilo else [])
            extra = f", offsets={self.leaf((len(offs),), 'int64', False, offs)}"
            count = (k,)
        if mode == "sum" and self.r() < 0.5:
            extra += f", per_sample_weights={self.leaf(count, dt, self.r() < 0.5)}"
        self.out("emb2:EmbeddingBag", f"{m}({ix}{extra})", dtype=dt)

    def nn_misc12(self, bad: bool) -> None:
        """swa_utils.update_bn over a loader of batches; MultiheadAttention / TransformerEncoderLayer in eval mode
        without grad (PyTorch's fast path); the cells unbatched with a given state (RNNCell with relu)."""
        kind = self.pick(["update_bn", "fast_path", "cells"])
        dt, i = self.fdt(), self.i(1, 4)
        cast = ".double()" if dt == "float64" else ""
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        if kind == "update_bn":
            m = self._module(f"torch.nn.Sequential(torch.nn.Linear({i}, 3), torch.nn.BatchNorm1d(3, momentum="
                             f"{self.pick([0.1, None])}), torch.nn.ReLU(), torch.nn.Linear(3, 2)){cast}")
            am = self._module(f"torch.optim.swa_utils.AveragedModel({m})")
            batches = [self.leaf((self.i(2, 4), i + (1 if bad and k == 1 else 0)), dt, False)
                       for k in range(self.i(1, 4))]
            loader = f"[{', '.join(batches)}]" if self.r() < 0.5 else f"[(b,) for b in [{', '.join(batches)}]]"
            self.emit("nn:update_bn", f"torch.optim.swa_utils.update_bn({loader}, {am})")
            self.obj(f"(list({am}.state_dict().items()), {am}.training, {am}.module[1].momentum)")
            self.out("update_bn-out", f"{am}({batches[0]})", dtype=dt)
        elif kind == "fast_path":
            heads = self.pick([1, 2])
            e, n, L = heads * self.i(1, 3), self.i(1, 3), self.i(1, 4)
            if self.r() < 0.5:
                m = self._module(f"torch.nn.MultiheadAttention({e}, {heads}, batch_first=True){cast}")
                x = self.leaf((n, L, e + (1 if bad else 0)), dt, False)
                self.emit("nn-aux", f"{m}.eval()")
                a, w = self.new((), dt, False), self.new((), dt, False)
                self.emit("nn:fast_path_mha", f"with torch.no_grad():\n    {a.name}, {w.name} = {m}({x}, {x}, {x})")
            else:
                m = self._module(f"torch.nn.TransformerEncoderLayer({e}, {heads}, dim_feedforward={self.i(1, 5)}, "
                                 f"batch_first=True, norm_first={self.r() < 0.5}){cast}")
                x = self.leaf((n, L, e + (1 if bad else 0)), dt, False)
                self.emit("nn-aux", f"{m}.eval()")
                y = self.new((), dt, False)
                self.emit("nn:fast_path_encoder", f"with torch.no_grad():\n    {y.name} = {m}({x})")
        else:
            cell = self.pick(["RNNCell", "GRUCell", "LSTMCell"])
            h = self.i(1, 4)
            extra = ", nonlinearity='relu'" if cell == "RNNCell" and self.r() < 0.6 else ""
            m = self._module(f"torch.nn.{cell}({i}, {h}, bias={self.r() < 0.7}{extra}){cast}")
            x = self.leaf((i,), dt)
            hx = self.leaf((h + (1 if bad else 0),), dt, self.r() < 0.6)
            if cell == "LSTMCell":
                hv, cv = self.new((), dt, True), self.new((), dt, True)
                self.emit("nn:cells12", f"{hv.name}, {cv.name} = {m}({x}, ({hx}, {self.leaf((h,), dt)}))")
            else:
                self.out("cells12", f"{m}({x}, {hx})", dtype=dt)

    NN_OPS12 = (("rnn3", 5), ("mha2", 4), ("loss4", 5), ("interp2", 4), ("norm3", 4), ("param2", 3),
                ("optim3", 4), ("ckpt", 2), ("emb2", 3), ("misc12", 3))

    def op12(self) -> None:
        """One op of the session-12 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.NN_OPS12]
        w = np.array([w for _, w in self.NN_OPS12], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        bad = self.r() < 0.08
        if bad:
            self.p.ops.append("nn-bad")
        getattr(self, "nn_" + fam)(bad)

    # -- session 13 (appended to programs of seeds >= NN_S13_FIRST_SEED after op12's, from a random stream of
    # their own: see generate): Module hooks (forward pre-hooks with kwargs, forward hooks prepended / always
    # called, full backward hooks and pre-hooks that change gradients, global module hooks, state_dict hooks), the
    # Module API's corners (shared submodules, remove_duplicate, apply, zero_grad without None, get_* errors,
    # containers' editing, load_state_dict results), nn.utils (pack_sequence, unpad / unpack, pruning, conv-bn
    # fusion, functional_call with tied weights), lr schedulers with momentum cycling and state_dict round trips,
    # many modules' reprs, transformer layers with callable activations, functional losses with every option ----
    def tryobj(self, expr: str, kind: str = "nn-aux") -> str:
        """``o<k> = expr``, or ('error', type, message) when it raises: a probe that lets the program go on."""
        name = f"o{len(self.p.objs)}"
        self.p.objs.append(name)
        self.emit(kind, f"try:\n    {name} = {expr}\nexcept Exception as e:\n    {name} = ('error', type(e).__name__, "
                        f"str(e))")
        return name

    def _seq13(self, dt: str, i: int, h: int, o: int) -> str:
        cast = ".double()" if dt == "float64" else ""
        act = self.pick(["Tanh()", "Sigmoid()", "GELU()", "ReLU(inplace=True)", "Hardtanh(-0.5, 0.5, inplace=True)"])
        return self._module(f"torch.nn.Sequential(torch.nn.Linear({i}, {h}), torch.nn.{act}, torch.nn.Linear({h}, {o}))"
                            f"{cast}")

    HOOKS13 = (
        "pre_kw: @[0].register_forward_pre_hook(lambda mod, args, kwargs: ((args[0] * 2,), kwargs), with_kwargs=True)",
        "pre_log: @[K].register_forward_pre_hook(lambda mod, args: L.append(('pre', type(mod).__name__, "
        "tuple(args[0].shape))))",
        "pre_ret: @[2].register_forward_pre_hook(lambda mod, args: args[0] + 1)",
        "fwd_kw: @[K].register_forward_hook(lambda mod, args, kwargs, out: out * 0.5, with_kwargs=True)",
        "fwd_prepend: @[K].register_forward_hook(lambda mod, args, out: L.append(('first', type(mod).__name__)), "
        "prepend=True)",
        "fwd_ret: @[0].register_forward_hook(lambda mod, args, out: out.relu())",
        "bwd_log: @[K].register_full_backward_hook(lambda mod, gi, go: L.append(('bwd', type(mod).__name__, "
        "[None if g is None else g.detach().clone() for g in gi], [g.detach().clone() for g in go])))",
        "bwd_mod: @[2].register_full_backward_hook(lambda mod, gi, go: tuple(None if g is None else g * 3 "
        "for g in gi))",
        "bwd_pre: @[K].register_full_backward_pre_hook(lambda mod, go: (go[0] * -1,))",
        "bwd_pre_log: @.register_full_backward_pre_hook(lambda mod, go: L.append(('bwd_pre', len(go))))",
        "always: @.register_forward_hook(lambda mod, args, out: L.append(('always', tuple(out.shape))), "
        "always_call=True)",
        "whole_bwd: @.register_full_backward_hook(lambda mod, gi, go: L.append(('whole', [None if g is None else "
        "tuple(g.shape) for g in gi])))")

    def nn_hooks13(self, bad: bool) -> None:
        """Module hooks on a Sequential and its layers (forward pre-hooks with kwargs or returning an input, forward
        hooks prepended / returning an output / always called, full backward hooks and pre-hooks that log or
        change gradients, a global module hook removed in a finally); the log, the output, its graph, gradients."""
        dt, n, i, h, o = self.fdt(), self.i(1, 4), self.i(1, 4), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m = self._seq13(dt, i, h, o)
        log = self.obj("[]", "nn:hooks13")
        handles = []
        for _ in range(self.i(1, 4)):
            spec = self.pick(self.HOOKS13)
            tag, body = spec.split(": ", 1)
            hname = f"hk{len(self.p.lines)}"
            handles.append(hname)
            self.emit("nn:hooks13:" + tag, f"{hname} = " + body.replace("@", m).replace("[K]", f"[{self.i(0, 3)}]")
                      .replace("L.", f"{log}."))
        if bad:   # (a backward hook returning one gradient too many: PyTorch's error at backward)
            self.emit("nn-aux", f"{m}[0].register_full_backward_hook(lambda mod, gi, go: tuple(gi) + (gi[0],))")
        x = self.leaf((n, i) if self.r() < 0.8 else (i,), dt, self.r() < 0.8)
        if self.r() < 0.3:   # (a global forward hook, always removed: the next programs must not see it)
            y = self.new((), dt, True)
            self.emit("nn:hooks13:global", f"gh = torch.nn.modules.module.register_module_forward_hook("
                                           f"lambda mod, inp, out: {log}.append(('global', type(mod).__name__)))\n"
                                           f"try:\n    {y.name} = {m}({x})\nfinally:\n    gh.remove()")
        else:
            self.out("hooks13_out", f"{m}({x})", dtype=dt)
        if self.r() < 0.5:
            self.emit("nn-aux", f"{self.vars[-1].name}.sum().backward(retain_graph=True)")
            self.obj(f"[p.grad for p in {m}.parameters()]")
        if self.r() < 0.4:
            self.emit("nn-aux", f"{self.pick(handles)}.remove()")
            self.out("hooks13_again", f"{m}({x})", dtype=dt)
        if self.r() < 0.4:   # (a module whose forward takes a keyword: a with_kwargs pre-hook rewrites it)
            kw = self._module("type('KW', (torch.nn.Module,), {'forward': lambda self, x, scale=1.0: x * scale})()")
            self.emit("nn-aux", f"{kw}.register_forward_pre_hook(lambda mod, a, k: (a, {{**k, 'scale': "
                                f"k.get('scale', 1.0) * 3}}), with_kwargs=True)")
            self.out("hooks13_kwargs", f"{kw}({x}, scale={self.pick([0.5, 2.0])}) + {kw}({x})", dtype=dt)

    def nn_sdhooks13(self, bad: bool) -> None:
        """state_dict pre / post hooks (one adding a key), load_state_dict pre / post hooks (the post hook clears the
        missing keys), load_state_dict(strict=False) results, assign=True."""
        dt, i, o = self.fdt(), self.i(1, 4), self.i(1, 4)
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m = self._seq13(dt, i, 2, o)
        log = self.obj("[]", "nn:sdhooks13")
        self.emit("nn-aux", f"{m}.register_state_dict_pre_hook(lambda mod, prefix, keep_vars: {log}.append(('pre', "
                            f"prefix, keep_vars)))")
        if self.r() < 0.5:
            self.emit("nn-aux", f"{m}[0].register_state_dict_post_hook(lambda mod, sd, prefix, meta: {log}.append(("
                                f"'post', prefix, sorted(sd))))")
        self.obj(f"list({m}.state_dict().keys())")
        self.obj(f"list({m}.state_dict(prefix='net.', keep_vars=True).keys())")
        self.emit("nn-aux", f"{m}.register_load_state_dict_pre_hook(lambda mod, sd, prefix, meta, strict, missing, "
                            f"unexpected, errs: {log}.append(('load_pre', prefix, sorted(sd), strict)))")
        clear = self.r() < 0.5
        if clear:
            self.emit("nn-aux", f"{m}.register_load_state_dict_post_hook(lambda mod, keys: keys.missing_keys.clear())")
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        m2 = self._seq13(dt, i, 2, o)
        drop = self.pick(["", "if k != '0.bias'", "if not k.startswith('2.')"])
        extra = ", 'extra.weight': torch.zeros(1)" if self.r() < 0.4 else ""
        strict = self.r() < 0.3 or bad
        self.tryobj(f"repr({m}.load_state_dict({{**{{k: v for k, v in {m2}.state_dict().items() {drop}}}{extra}}}, "
                    f"strict={strict}, assign={self.r() < 0.3}))")
        self._param(f"{m}[0].weight", dt)
        self.out("sdhooks13_out", f"{m}({self.leaf((self.i(1, 3), i), dt)})", dtype=dt)

    def nn_module13(self, bad: bool) -> None:
        """A Sequential sharing one Linear twice: named_modules / named_parameters with remove_duplicate, apply,
        zero_grad(set_to_none=False), get_submodule / get_parameter / get_buffer (and their errors), train / eval
        flags, ModuleList / ModuleDict / ParameterList / ParameterDict editing and reprs."""
        dt, n, i = self.fdt(), self.i(1, 4), self.i(1, 4)
        cast = ".double()" if dt == "float64" else ""
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        lin = self._module(f"torch.nn.Linear({i}, {i}){cast}")
        m = self._module(f"torch.nn.Sequential({lin}, torch.nn.{self.pick(['ReLU', 'Tanh'])}(), {lin}, "
                         f"torch.nn.BatchNorm1d({i}){cast})")
        self.obj(f"([k for k, _ in {m}.named_modules()], [k for k, _ in {m}.named_modules(remove_duplicate=False)], "
                 f"[k for k, _ in {m}.named_parameters(remove_duplicate=False)], [k for k, _ in "
                 f"{m}.named_parameters(prefix='net', recurse={self.r() < 0.7})], [k for k, _ in "
                 f"{m}.named_buffers(remove_duplicate=False)], list({m}.state_dict().keys()), repr({m}))",
                 "nn:module13")
        if self.r() < 0.5:
            self.emit("nn-aux", f"{m}.apply(lambda mm: torch.nn.init.constant_(mm.bias, {self.pick([0.1, -0.5])}) "
                                f"if isinstance(mm, torch.nn.Linear) else None)")
        x = self.leaf((n + 1, i), dt, self.r() < 0.6)
        y = self.new((), dt, True)
        self.emit("nn:module13_fwd", f"{y.name} = {m}({x})")
        self.emit("nn-aux", f"({y.name} ** 2).sum().backward(retain_graph=True)")
        self.obj(f"[p.grad for p in {m}.parameters()]")
        stn = self.r() < 0.5
        self.emit("nn-aux", f"{m}.zero_grad(set_to_none={stn})")
        self.obj(f"[p.grad for p in {m}.parameters()]")
        for path in self.rng.permutation(["0", "2", "3", "5", "0.weight", "1", "a.b", ""])[:self.i(1, 4)]:
            self.tryobj(f"repr({m}.get_submodule({str(path)!r}))")
        for path in self.rng.permutation(["0.weight", "3.bias", "1.weight", "0.nope", "3.running_mean", "7.w"])[:2]:
            self.tryobj(f"{m}.get_parameter({str(path)!r})")
        for path in self.rng.permutation(["3.running_mean", "3.num_batches_tracked", "0.weight", "3.nope"])[:2]:
            self.tryobj(f"{m}.get_buffer({str(path)!r})")
        self.emit("nn-aux", f"{m}.eval()")
        if self.r() < 0.5:
            self.emit("nn-aux", f"{m}[{self.pick([0, 3])}].train()")
        self.obj(f"[(k, mm.training) for k, mm in {m}.named_modules()]")
        self.out("module13_eval", f"{m}({x})", dtype=dt)
        kind = self.pick(["ModuleList", "ModuleDict", "ParameterList", "ParameterDict"])
        if kind == "ModuleList":
            ml = self._module(f"torch.nn.ModuleList([torch.nn.Linear({i}, 2), torch.nn.ReLU()])")
            self.emit("nn-aux", f"{ml}.append(torch.nn.Tanh())\n{ml}.extend([torch.nn.Identity(), {lin}])\n"
                                f"{ml}.insert({self.i(0, 5)}, torch.nn.Sigmoid())")
            if self.r() < 0.5:
                self.obj(f"repr({ml}.pop({self.i(-2, 3)}))")
            self.obj(f"(repr({ml}), len({ml}), repr({ml}[1:3]), repr({ml}[-1]), "
                     f"[k for k, _ in {ml}.named_parameters()])")
            if bad:
                self.emit("nn-aux", f"{ml}[9]")
        elif kind == "ModuleDict":
            md = self._module(f"torch.nn.ModuleDict({{'b': torch.nn.Linear({i}, 2), 'a': torch.nn.ReLU()}})")
            self.emit("nn-aux", f"{md}.update([('c', torch.nn.Tanh()), ('a', {lin})])\n{md}['d'] = torch.nn.Identity()")
            if self.r() < 0.5:
                self.obj(f"repr({md}.pop('b'))")
            self.obj(f"(repr({md}), list({md}.keys()), 'a' in {md}, [k for k, _ in {md}.named_parameters()])")
            if bad:
                self.emit("nn-aux", f"{md}['zz']")
        elif kind == "ParameterList":
            pl = self._module(f"torch.nn.ParameterList([torch.nn.Parameter(torch.zeros(2)), torch.ones(2, 3)"
                              f"{cast}, torch.nn.Parameter(torch.ones(1), requires_grad=False)])")
            self.emit("nn-aux", f"{pl}.append(torch.nn.Parameter(torch.full(({i},), 0.5)))")
            self.obj(f"(repr({pl}), len({pl}), [k for k, _ in {pl}.named_parameters()], "
                     f"[p.requires_grad for p in {pl}])")
            self.out("module13_plist", f"{pl}[3] * {x}.sum()", dtype=dt)
        else:
            pd = self._module(f"torch.nn.ParameterDict({{'w': torch.nn.Parameter(torch.ones(2){cast}), 'b': "
                              f"torch.zeros(1, 2)}})")
            self.emit("nn-aux", f"{pd}['c'] = torch.nn.Parameter(torch.full((3,), 2.0))")
            self.obj(f"(repr({pd}), list({pd}.keys()), sorted({pd}), [k for k, _ in {pd}.named_parameters()])")
            self.out("module13_pdict", f"{pd}['w'] * {x}.sum()", dtype=dt)

    def nn_utils13(self, bad: bool) -> None:
        """pack_sequence (sorted or not) / unpack_sequence, pad_sequence then unpad_sequence, pruning (l1 / random /
        ln structured / stacked / global, remove), conv-bn and linear-bn fusion, functional_call with tied weights."""
        kind = self.pick(["pack", "unpad", "prune", "prune", "global_prune", "fuse", "functional_call"])
        dt, F_ = self.fdt(), "torch.nn.utils."
        cast = ".double()" if dt == "float64" else ""
        if kind in ("pack", "unpad"):
            trail = tuple(self.i(1, 3) for _ in range(self.i(0, 2)))
            lens = [self.i(1, 5) for _ in range(self.i(1, 4))]
            es = self.r() < 0.4
            if es or kind == "unpad":
                lens = sorted(lens, reverse=True)
            seqs = [self.leaf((k,) + trail, dt) for k in lens]
            if bad:
                seqs.append(self.leaf((lens[-1],) + trail + (2,), dt))
            if kind == "pack":
                ps = self._module(f"{F_}rnn.pack_sequence([{', '.join(seqs)}], enforce_sorted={es})")
                self.obj(f"({ps}.batch_sizes, {ps}.sorted_indices, {ps}.unsorted_indices)", "nn:utils13:pack_sequence")
                self.out("utils13_packed_data", f"{ps}.data * 1", dtype=dt)
                self.out("utils13_unpack", f"torch.cat({F_}rnn.unpack_sequence({ps}))", dtype=dt)
            else:
                bf = self.r() < 0.5
                pd = self.new((), dt, True)
                self.emit("nn:utils13:pad_sequence", f"{pd.name} = {F_}rnn.pad_sequence([{', '.join(seqs)}], "
                                                     f"batch_first={bf})")
                ln = self.pick([f"torch.tensor({lens})", f"torch.tensor({lens[::-1]})"])
                self.out("utils13_unpad", f"torch.cat({F_}rnn.unpad_sequence({pd.name}, {ln}, batch_first={bf}))",
                         dtype=dt)
            return
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        i, o, n = self.i(2, 5), self.i(2, 5), self.i(1, 4)
        P, INF = "prune.", "float('inf')"
        if "prune" in kind:   # (PyTorch's torch.nn.utils does not import its prune submodule: the program does)
            self.emit("nn-aux", "prune = __import__('importlib').import_module(torch.__name__ + '.nn.utils.prune')")
        if kind == "prune":
            lin = self._module(f"torch.nn.Linear({i}, {o}){cast}")
            for _ in range(self.pick([1, 1, 2])):
                name = self.pick(["'weight'", "'weight'", "'bias'"])
                amt = self.pick([0.3, 0.5, 1, 0.0])
                how = self.pick([f"l1_unstructured({lin}, {name}, amount={amt})",
                                 f"random_unstructured({lin}, {name}, amount={amt})",
                                 f"random_structured({lin}, 'weight', amount={amt}, dim={self.pick([0, 1, -1])})",
                                 f"ln_structured({lin}, 'weight', amount={amt}, n={self.pick([1, 2, INF])}, "
                                 f"dim={self.pick([0, 1])})", f"identity({lin}, {name})"])
                if bad:
                    how = f"l1_unstructured({lin}, 'weight', amount={i * o + 3})"
                self.emit("nn:utils13:prune", f"{P}{how}")
            self.obj(f"([k for k, _ in {lin}.named_parameters()], [(k, b) for k, b in {lin}.named_buffers()], "
                     f"{P}is_pruned({lin}), repr({lin}), list({lin}.state_dict().keys()))")
            self._param(f"{lin}.weight_orig if hasattr({lin}, 'weight_orig') else {lin}.weight", dt)
            x = self.leaf((n, i), dt)
            self.out("utils13_pruned_out", f"{lin}({x})", dtype=dt)
            if self.r() < 0.5:
                self.emit("nn-aux", f"{P}remove({lin}, 'weight') if hasattr({lin}, 'weight_mask') else None")
                self.obj(f"([k for k, _ in {lin}.named_parameters()], {P}is_pruned({lin}))")
                self.out("utils13_pruned_removed", f"{lin}({x})", dtype=dt)
        elif kind == "global_prune":
            a = self._module(f"torch.nn.Linear({i}, {o}){cast}")
            b = self._module(f"torch.nn.Linear({o}, 2){cast}")
            meth = self.pick(["L1Unstructured", "RandomUnstructured"])
            amt = self.pick([0.4, 3, 0.0]) if not bad else 10 ** 3
            self.emit("nn:utils13:global_unstructured", f"{P}global_unstructured([({a}, 'weight'), ({b}, 'weight'), "
                                                        f"({b}, 'bias')], pruning_method={P}{meth}, amount={amt})")
            self.obj(f"[({a}.weight_mask, {b}.weight_mask, {b}.bias_mask)]")
            x = self.leaf((n, i), dt)
            self.out("utils13_global_out", f"{b}(torch.tanh({a}({x})))", dtype=dt)
        elif kind == "fuse":
            conv = self.r() < 0.6
            if conv:
                tr = self.r() < 0.3
                c = self._module(f"torch.nn.Conv{'Transpose' if tr else ''}2d({i}, {o}, {self.i(1, 3)}, "
                                 f"bias={self.r() < 0.6}){cast}")
                bn = self._module(f"torch.nn.BatchNorm2d({o}, affine={self.r() < 0.7}){cast}")
                x = self.leaf((2, i + (1 if bad else 0), 3, 3), dt)
            else:
                tr = False
                c = self._module(f"torch.nn.Linear({i}, {o}, bias={self.r() < 0.6}){cast}")
                bn = self._module(f"torch.nn.BatchNorm1d({o}, affine={self.r() < 0.7}){cast}")
                x = self.leaf((3, i + (1 if bad else 0)), dt)
            self.emit("nn-aux", f"{bn}({c}({x}) * 2)\n{c}.eval()\n{bn}.eval()")   # (running stats of one batch)
            fused = self._module(f"torch.nn.utils.fusion.fuse_{'conv' if conv else 'linear'}_bn_eval({c}, {bn}"
                                 f"{', transpose=True' if tr else ''})")
            self.obj(f"(repr({fused}), [k for k, _ in {fused}.named_parameters()])", "nn:utils13:fuse")
            self._param(f"{fused}.weight", dt)
            self.out("utils13_fused", f"{fused}({x})", dtype=dt)
            self.out("utils13_unfused", f"{bn}({c}({x}))", dtype=dt)
        else:
            m = self._module(f"torch.nn.Sequential(torch.nn.Linear({i}, {i}), torch.nn.Tanh(), "
                             f"torch.nn.Linear({i}, {i})){cast}")
            tie = self.r() < 0.5
            if tie:
                self.emit("nn-aux", f"{m}[2].weight = {m}[0].weight")
            w = self.leaf((i, i), dt)
            params = f"{{'0.weight': {w}}}"
            if self.r() < 0.4:
                params = f"{{'0.weight': {w}, '2.bias': {self.leaf((i,), dt)}}}"
            strict = ""
            if bad:
                strict = ", strict=True"
            elif self.r() < 0.3:
                params = params[:-1] + f", '0.bias': {self.leaf((i,), dt)}, '2.weight': {w} * 2, " \
                                       f"'2.bias': torch.zeros({i}{', dtype=torch.float64' if cast else ''})}}"
                strict = ", strict=True"
            x = self.leaf((n, i), dt, self.r() < 0.5)
            fn = self.pick(["torch.func.functional_call", "torch.nn.utils.stateless.functional_call"])
            tw = f", tie_weights={self.r() < 0.6}" if self.r() < 0.7 else ""
            self.out("utils13_functional_call", f"{fn}({m}, {params}, ({x},){tw}{strict})", dtype=dt)
            self.obj(f"[p.grad for p in {m}.parameters()]", "nn:utils13:functional_call")

    SCHEDS13 = ("OneCycleLR(O, max_lr=[0.5, 0.2], total_steps=6, pct_start=0.4, div_factor=5.0, "
                "final_div_factor=10.0)",
                "OneCycleLR(O, 0.3, epochs=2, steps_per_epoch=3, anneal_strategy='linear', base_momentum=0.5, "
                "max_momentum=0.8)",
                "OneCycleLR(O, 0.3, total_steps=5, cycle_momentum=False, three_phase=True)",
                "ReduceLROnPlateau(O, mode='min', factor=0.5, patience=1, threshold=0.1, threshold_mode='abs', "
                "cooldown=1, min_lr=[0.01, 0.02])",
                "ReduceLROnPlateau(O, mode='max', factor=0.2, patience=0, threshold=0.05, eps=0.001)",
                "ReduceLROnPlateau(O, patience=2, threshold_mode='rel', threshold=0.5)",
                "CosineAnnealingWarmRestarts(O, T_0=2, T_mult=1, eta_min=0.01)",
                "CosineAnnealingWarmRestarts(O, 3, T_mult=2)",
                "PolynomialLR(O, total_iters=3, power=0.5)", "PolynomialLR(O)",
                "LambdaLR(O, [lambda e: 0.5 ** e, lambda e: 1 / (e + 1)])",
                "MultiplicativeLR(O, lambda e: 0.9)", "MultiplicativeLR(O, [lambda e: 0.5, lambda e: 0.8])",
                "CyclicLR(O, [0.01, 0.02], [0.1, 0.2], step_size_up=2, step_size_down=1, mode='exp_range', "
                "gamma=0.9, base_momentum=0.5, max_momentum=0.9)",
                "CyclicLR(O, 0.01, 0.1, step_size_up=1, mode='triangular2', cycle_momentum=False)",
                "LinearLR(O, start_factor=1.0, end_factor=0.1, total_iters=3)",
                "StepLR(O, step_size=1, gamma=0.8)", "CosineAnnealingLR(O, T_max=2, eta_min=0.05)",
                "ConstantLR(O, factor=0.25, total_iters=1)")

    def nn_sched13(self, bad: bool) -> None:
        """An lr scheduler over two param groups of an optimizer with momentum (SGD / Adam / RMSprop): its learning
        rates and momenta (or betas) each step, CosineAnnealingWarmRestarts stepped with fractional epochs,
        ReduceLROnPlateau fed a sequence of metrics, its state_dict loaded into a fresh scheduler that continues."""
        dt = self.pick(["float64", "float32"])
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        cast = ".double()" if dt == "float64" else ""
        i = self.i(1, 4)
        a = self._module(f"torch.nn.Linear({i}, 2){cast}")
        b = self._module(f"torch.nn.Linear(2, 1){cast}")
        opt = self.pick(["SGD(G, lr=0.1, momentum=0.9)", "Adam(G, lr=0.05)", "RMSprop(G, lr=0.01, momentum=0.5)",
                         "SGD(G, lr=0.1, momentum=0.5, nesterov=True)", "AdamW(G, lr=0.05, betas=(0.8, 0.9))"])
        groups = f"[{{'params': {a}.parameters()}}, {{'params': {b}.parameters(), 'lr': {self.pick([0.05, 0.2])}}}]"
        os_ = self._module(f"torch.optim.{opt.replace('G', groups)}")
        sched = self.pick(self.SCHEDS13)
        if "CyclicLR" in sched and "momentum" not in opt and "cycle_momentum=False" not in sched:
            sched = sched.replace("gamma=0.9,", "gamma=0.9, cycle_momentum=False,")
        if bad:
            sched = self.pick(["StepLR(O, step_size=0)", "LambdaLR(O, [lambda e: 1.0])", "CyclicLR(O, 0.1, 0.2)"
                               if "Adam" in opt else "OneCycleLR(O, 0.1)"])
        L = "torch.optim.lr_scheduler."
        s = self._module(f"{L}{sched.replace('(O', '(' + os_)}")
        lrs = self.obj("[]", "nn:sched13")
        loss = f"{b}(torch.tanh({a}({self.leaf((self.i(1, 4), i), dt, False)}))).pow(2).sum()"
        plateau = "Plateau" in sched
        metrics = [self.pick([1.0, 0.95, 0.9, 1.2, 0.5]) for _ in range(6)]
        mom = "'betas' if 'betas' in g else 'momentum'"
        steps = self.i(2, 6)
        lines = [f"for step in range({steps}):", f"    {os_}.zero_grad()", f"    {loss}.backward()",
                 f"    {os_}.step()"]
        if plateau:
            lines.append(f"    {s}.step({metrics!r}[step])")
        elif "WarmRestarts" in sched and self.r() < 0.5:
            lines.append(f"    {s}.step(step + {self.pick([0.5, 0.25])})")
        else:
            lines.append(f"    {s}.step()")
        lines.append(f"    {lrs}.append(({s}.get_last_lr(), [g[{mom}] for g in {os_}.param_groups], "
                     f"[g['lr'] for g in {os_}.param_groups]))")
        self.emit("nn:sched13-steps", "\n".join(lines))
        self.obj(f"sorted((k, v) for k, v in {s}.state_dict().items() if isinstance(v, (int, float, str, bool, "
                 f"type(None))) or k in ('_last_lr', 'base_lrs', 'min_lrs', 'best'))")
        if self.r() < 0.6:
            s2 = self._module(f"{L}{sched.replace('(O', '(' + os_)}")
            self.emit("nn-aux", f"{s2}.load_state_dict({s}.state_dict())")
            self.obj(f"({s2}.get_last_lr() if hasattr({s2}, 'get_last_lr') else None, {s2}.last_epoch)")
            step = f"{s2}.step({metrics[0]})" if plateau else f"{s2}.step()"
            self.emit("nn-aux", f"{os_}.step()\n{step}")
            self.obj(f"[(g['lr'], g[{mom}]) for g in {os_}.param_groups]")
        self._param(f"{a}.weight", dt)
        self.out("sched13-loss", loss, dtype=dt)

    REPRS13 = (
        "Conv2d(2, 4, (1, 3), stride=(2, 1), padding=(0, 1), dilation=2, groups=2, bias=False, padding_mode='reflect')",
        "Conv1d(3, 3, 2, padding='same', dilation=3)", "Conv3d(1, 2, 2, padding='valid')",
        "ConvTranspose1d(2, 3, 3, stride=2, output_padding=1, groups=1, dilation=1)",
        "ConvTranspose2d(2, 2, (2, 3), stride=(1, 2), padding=(1, 0), output_padding=(0, 1), groups=2)",
        "MaxPool2d(3, stride=1, padding=1, dilation=1, ceil_mode=True)", "MaxPool1d(2, return_indices=True)",
        "AvgPool2d((2, 1), count_include_pad=False, divisor_override=2)", "AvgPool1d(3, ceil_mode=True)",
        "LPPool2d(2.0, 2, ceil_mode=True)", "LPPool1d(1, 3, stride=2)",
        "AdaptiveMaxPool2d((None, 2), return_indices=True)",
        "AdaptiveAvgPool3d(1)", "FractionalMaxPool2d(2, output_ratio=(0.5, 0.5))", "MaxUnpool2d(2, stride=2)",
        "Fold(output_size=(4, 5), kernel_size=2, dilation=1, padding=0, stride=1)", "Unfold((2, 3), padding=1)",
        "Softmax(dim=1)", "Softmax()", "LogSoftmax(-1)", "Softmin(0)", "Softmax2d()", "Threshold(0.1, 20.0)",
        "Hardshrink(0.3)", "Softshrink()", "RReLU(0.1, 0.3)", "CELU(0.5, inplace=True)", "GLU(-1)", "ELU(alpha=2.0)",
        "Hardtanh(-2.0, 2.0)", "ReLU6(inplace=True)", "Softplus(beta=2.0, threshold=10.0)", "LeakyReLU(0.02)",
        "PReLU(3, init=0.1)", "GELU(approximate='tanh')", "SiLU()", "Mish()", "Hardswish()", "Hardsigmoid()",
        "Tanhshrink()", "LogSigmoid()", "Softsign()", "SELU()",
        "Embedding(5, 2, padding_idx=-1, max_norm=1.0, norm_type=1.0, scale_grad_by_freq=True, sparse=True)",
        "EmbeddingBag(4, 3, max_norm=2.0, mode='max', padding_idx=0)", "EmbeddingBag(4, 3, include_last_offset=True)",
        "RNN(2, 3, num_layers=2, nonlinearity='relu', bias=False, batch_first=True, dropout=0.5, bidirectional=True)",
        "LSTM(2, 3, proj_size=2)", "GRU(3, 2, 1)", "LSTMCell(2, 3, bias=False)", "GRUCell(1, 1)", "RNNCell(2, 2, "
        "nonlinearity='relu')",
        "MultiheadAttention(4, 2, dropout=0.1, bias=False, add_bias_kv=True, kdim=3, vdim=2)",
        "TransformerEncoderLayer(4, 2, dim_feedforward=8, dropout=0.0, norm_first=True, bias=False)",
        "TransformerDecoderLayer(4, 1, 3, activation='gelu', batch_first=True)",
        "ZeroPad2d((1, 0, 2, 1))", "ZeroPad1d(2)", "ReflectionPad1d((1, 2))", "ReflectionPad2d(1)",
        "ReplicationPad3d((1, 0, 0, 1, 1, 0))", "ConstantPad2d(1, 3.5)", "ConstantPad1d((0, 2), -1)",
        "CircularPad2d((1, 1, 0, 2))", "CircularPad1d(1)", "Upsample(scale_factor=2.0, mode='bilinear', "
        "align_corners=True)", "Upsample(size=(3, 4))", "UpsamplingNearest2d(scale_factor=3)",
        "CosineSimilarity(dim=0, eps=0.001)", "PairwiseDistance(p=1.0, keepdim=True)", "Dropout(0.2, inplace=True)",
        "Dropout2d()", "AlphaDropout(0.1)", "FeatureAlphaDropout(0.3)", "Dropout1d(p=0.0)",
        "LayerNorm((2, 3), eps=1e-3, elementwise_affine=False)", "LayerNorm(4, bias=False)",
        "GroupNorm(2, 4, affine=False)",
        "LocalResponseNorm(3, alpha=0.001, beta=0.5, k=2.0)", "CrossMapLRN2d(3, 1e-4, 0.75, 1)", "RMSNorm([2, 3], "
        "eps=1e-5)", "RMSNorm(3, elementwise_affine=False)", "InstanceNorm2d(3, affine=True)",
        "BatchNorm3d(2, eps=0.1, momentum=None)", "SyncBatchNorm(3)",
        "Flatten(0, -2)", "Unflatten(1, (2, 2))", "ChannelShuffle(2)", "PixelShuffle(3)", "PixelUnshuffle(2)",
        "Bilinear(2, 3, 4, bias=False)", "Identity(3, foo='bar')", "LazyLinear(3)", "LazyConv2d(4, 3)",
        "AdaptiveLogSoftmaxWithLoss(4, 10, [2, 6], div_value=2.0)", "Linear(3, 2, bias=False)",
        "CTCLoss(blank=2, zero_infinity=True)", "TripletMarginLoss(margin=0.5, p=1.5, swap=True)",
        "Transformer(4, 2, 1, 1, 8)", "TransformerEncoder(torch.nn.TransformerEncoderLayer(4, 2, 8), 2, "
        "enable_nested_tensor=False)")

    def nn_repr13(self, bad: bool) -> None:
        """Modules built with many constructor arguments: repr, extra_repr, parameter names and shapes, buffers, and
        the printed list of a small one's parameters (Parameter containing: ...)."""
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        for _ in range(self.i(2, 6)):
            ctor = self.pick(self.REPRS13)
            m = self._module(f"torch.nn.{ctor}")
            self.obj(f"(repr({m}), {m}.extra_repr(), [(k, tuple(p.shape), p.dtype, p.requires_grad) for k, p in "
                     f"{m}.named_parameters() if not isinstance(p, torch.nn.parameter.UninitializedParameter)], "
                     f"[(k, tuple(b.shape), b.dtype) for k, b in {m}.named_buffers()], type({m}).__mro__[1].__name__)",
                     "nn:repr13")
        small = self.pick(["Linear(2, 1)", "PReLU()", "LayerNorm(2)", "Bilinear(1, 1, 1)", "Conv1d(1, 1, 1)"])
        small = self._module(f"torch.nn.{small}")
        self.obj(f"(repr(list({small}.parameters())), str(next({small}.parameters())), "
                 f"repr(dict({small}.named_parameters())))")
        if bad:
            self.emit("nn-aux", "torch.nn.Conv2d(2, 3, 2, padding='same', stride=2)")

    def nn_tfm13(self, bad: bool) -> None:
        """TransformerDecoderLayer / TransformerEncoderLayer (norm_first, bias, activation given as a string, a
        function or a module, layer_norm_eps) in train mode without dropout with causal / padding masks; a
        TransformerEncoder with a final norm."""
        e, h = self.pick([(2, 1), (4, 2), (4, 1), (6, 2)])
        bf, nf = self.r() < 0.5, self.r() < 0.5
        s_len, t_len, b = self.i(1, 4), self.i(1, 4), self.i(1, 3)
        act = self.pick(["'relu'", "'gelu'", "torch.nn.functional.gelu", "torch.nn.GELU()", "torch.nn.Tanh()",
                         "torch.nn.functional.silu", "torch.nn.ReLU()"])
        self.emit("nn-seed", f"torch.manual_seed({self.i(0, 100)})")
        common = (f"dim_feedforward={self.i(1, 6)}, dropout=0.0, activation={act}, batch_first={bf}, norm_first={nf}, "
                  f"bias={self.r() < 0.8}, layer_norm_eps={self.pick([1e-5, 0.1])}")
        sh = (lambda length: (b, length, e) if bf else (length, b, e))
        kind = self.pick(["dec", "enc", "encoder"])
        src = self.leaf(sh(s_len), "float64")
        if kind == "dec":
            m = self._module(f"torch.nn.TransformerDecoderLayer({e}, {h}, {common}).double()")
            tgt = self.leaf(sh(t_len)[:-1] + (e + (1 if bad else 0),), "float64")
            kw = []
            if self.r() < 0.6:
                kw.append(f"tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask({t_len}, "
                          f"dtype=torch.float64)")
                if self.r() < 0.5:
                    kw.append("tgt_is_causal=True")
            if self.r() < 0.4:
                mm = self.rng.random((t_len, s_len)) < 0.3
                mm[:, 0] = False
                kw.append(f"memory_mask={self.leaf((t_len, s_len), 'bool', False, mm)}")
            if self.r() < 0.4:
                pm = self.rng.random((b, s_len)) < 0.3
                pm[:, 0] = False
                kw.append(f"memory_key_padding_mask={self.leaf((b, s_len), 'bool', False, pm)}")
            self.obj(f"repr({m})", "nn:tfm13")
            self.out("tfm13_dec", f"{m}({tgt}, {src}{''.join(', ' + a for a in kw)})", dtype="float64")
        else:
            layer = f"torch.nn.TransformerEncoderLayer({e}, {h}, {common})"
            if kind == "enc":
                m = self._module(f"{layer}.double()")
            else:
                norm = f", norm=torch.nn.LayerNorm({e})" if self.r() < 0.5 else ""
                m = self._module(f"torch.nn.TransformerEncoder({layer}, {self.i(1, 3)}{norm}, "
                                 f"enable_nested_tensor=False).double()")
            kw = []
            if self.r() < 0.5:
                kw.append(f"src_mask=torch.nn.Transformer.generate_square_subsequent_mask({s_len}, "
                          f"dtype=torch.float64)")
                if self.r() < 0.5:
                    kw.append("is_causal=True")
            if self.r() < 0.4:
                pm = self.rng.random((b, s_len)) < 0.3
                pm[:, 0] = False
                kw.append(f"src_key_padding_mask={self.leaf((b, s_len), 'bool', False, pm)}")
            if bad:   # (a padding mask of the wrong batch size)
                kw = [k for k in kw if not k.startswith("src_key_padding_mask")]
                kw.append(f"src_key_padding_mask={self.leaf((b + 1, s_len), 'bool', False)}")
            self.obj(f"repr({m})", "nn:tfm13")
            self.out("tfm13_enc", f"{m}({src}{''.join(', ' + a for a in kw)})", dtype="float64")
        self._param(f"list({m}.parameters())[{self.i(0, 4)}]", "float64")

    def nn_loss13(self, bad: bool) -> None:
        """Functional losses with each reduction and their weights: cross_entropy over K-dim inputs with class
        probabilities, weights and label smoothing; nll_loss with every target ignored (mean: nan); binary cross
        entropies with broadcast weights; kl_div / poisson / gaussian / margin losses with their options."""
        kind = self.pick(["ce_probs", "ce_index", "nll_ignored", "bce", "kl_div", "poisson", "gaussian",
                          "multilabel_margin", "soft_margin", "cosine_embedding", "margin_ranking", "hinge"])
        dt, n, c, F_ = self.fdt(), self.i(1, 4), self.i(2, 5), "torch.nn.functional."
        red = self.pick(["'none'", "'mean'", "'sum'"])
        extra = tuple(self.i(1, 3) for _ in range(self.pick([0, 1, 2])))
        wt = (c + 1,) if bad else (c,)
        if kind in ("ce_probs", "ce_index"):
            x = self.leaf((n, c) + extra, dt)
            if kind == "ce_probs":
                p = np.moveaxis(self.rng.dirichlet(np.ones(c), (n,) + extra), -1, 1)
                t = self.leaf(p.shape, dt, self.r() < 0.3, np.round(p, 3))
            else:
                t = self.ints((n,) + extra, 0, c)
            w = f", weight={self.leaf(wt, dt, False, kind='pos')}" if self.r() < 0.6 else ""
            ls = f", label_smoothing={self.pick([0.0, 0.1, 0.5])}" if self.r() < 0.6 else ""
            ii = f", ignore_index={self.i(0, c)}" if kind == "ce_index" and self.r() < 0.5 else ""
            self.out("loss13:cross_entropy", f"{F_}cross_entropy({x}, {t}{w}{ls}{ii}, reduction={red})", dtype=dt)
        elif kind == "nll_ignored":
            x = self.leaf((n, c) + extra, dt)
            t = self.leaf((n,) + extra, "int64", False, np.full((n,) + extra, self.pick([-100, 1])))
            w = f", weight={self.leaf(wt, dt, False, kind='pos')}" if self.r() < 0.5 else ""
            ii = ", ignore_index=1" if "1" in self.p.lines[-1].split("D[")[0] or self.r() < 0.5 else ""
            self.out("loss13:nll_loss", f"{F_}nll_loss({x}.log_softmax(1), {t}{w}{ii}, reduction={red})", dtype=dt)
        elif kind == "bce":
            logits = self.r() < 0.5
            x = self.leaf((n, c), dt, kind="normal" if logits else "prob")
            t = self.leaf((n, c), dt, self.r() < 0.3, kind="prob")
            ws = self.pick([(c,), (n, 1), (1, c), (n, c)]) if not bad else (c + 1,)
            w = f", weight={self.leaf(ws, dt, False, kind='pos')}" if self.r() < 0.7 else ""
            pw = f", pos_weight={self.leaf(self.pick([(c,), (1,)]), dt, False, kind='pos')}" if logits and \
                self.r() < 0.5 else ""
            fn = "binary_cross_entropy_with_logits" if logits else "binary_cross_entropy"
            self.out("loss13:" + fn, f"{F_}{fn}({x}, {t}{w}{pw}, reduction={red})", dtype=dt)
        elif kind == "kl_div":
            lt = self.r() < 0.5
            x = self.leaf((n, c), dt)
            t = self.leaf((n, c), dt, self.r() < 0.5, kind="normal" if lt else "prob")
            r2 = self.pick([red, "'batchmean'"])
            self.out("loss13:kl_div", f"{F_}kl_div({x}.log_softmax(-1), {t}{'.log_softmax(-1)' if lt else ''}, "
                                      f"reduction={r2}, log_target={lt})", dtype=dt)
        elif kind == "poisson":
            li = self.r() < 0.5
            x = self.leaf((n, c), dt, kind="normal" if li else "pos")
            t = self.leaf((n, c), dt, False, self.rng.integers(0, 4, (n, c)))
            self.out("loss13:poisson_nll_loss", f"{F_}poisson_nll_loss({x}, {t}, log_input={li}, "
                                                f"full={self.r() < 0.5}, eps={self.pick([1e-8, 0.1])}, "
                                                f"reduction={red})", dtype=dt)
        elif kind == "gaussian":
            x, t = self.leaf((n, c), dt), self.leaf((n, c), dt, self.r() < 0.3)
            var = self.leaf(self.pick([(n, c), (n, 1), (n,)]) if not bad else (n + 1, c), dt, self.r() < 0.5,
                            kind="pos")
            self.out("loss13:gaussian_nll_loss", f"{F_}gaussian_nll_loss({x}, {t}, {var}, full={self.r() < 0.5}, "
                                                 f"eps={self.pick([1e-6, 0.5])}, reduction={red})", dtype=dt)
        elif kind == "multilabel_margin":
            x = self.leaf((n, c), dt)
            tv = np.full((n, c), -1)
            for r_ in range(n):
                k = self.i(0, c + 1)
                tv[r_, :k] = self.rng.permutation(c)[:k]
            t = self.leaf((n, c), "int64", False, tv)
            self.out("loss13:multilabel_margin_loss", f"{F_}multilabel_margin_loss({x}, {t}, reduction={red})",
                     dtype=dt)
        elif kind == "soft_margin":
            x = self.leaf((n, c), dt)
            t = self.leaf((n, c), dt, False, self.rng.choice([-1.0, 1.0], (n, c)))
            self.out("loss13:soft_margin_loss", f"{F_}soft_margin_loss({x}, {t}, reduction={red})", dtype=dt)
        elif kind == "cosine_embedding":
            x1, x2 = self.leaf((n, c), dt), self.leaf((n, c), dt)
            t = self.leaf((n,), dt, False, self.rng.choice([-1.0, 1.0], n))
            self.out("loss13:cosine_embedding_loss", f"{F_}cosine_embedding_loss({x1}, {x2}, {t}, margin="
                                                     f"{self.pick([0.0, 0.3, -0.2])}, reduction={red})", dtype=dt)
        elif kind == "margin_ranking":
            x1, x2 = self.leaf((n,), dt), self.leaf((n,), dt)
            t = self.leaf((n,), dt, False, self.rng.choice([-1.0, 1.0], n))
            self.out("loss13:margin_ranking_loss", f"{F_}margin_ranking_loss({x1}, {x2}, {t}, margin="
                                                   f"{self.pick([0.0, 0.5])}, reduction={red})", dtype=dt)
        else:
            x = self.leaf((n, c), dt)
            t = self.leaf((n, c), dt, False, self.rng.choice([-1.0, 1.0], (n, c)))
            self.out("loss13:hinge_embedding_loss", f"{F_}hinge_embedding_loss({x}, {t}, margin="
                                                    f"{self.pick([1.0, 0.5, 2.0])}, reduction={red})", dtype=dt)

    NN_OPS13 = (("hooks13", 6), ("sdhooks13", 3), ("module13", 4), ("utils13", 5), ("sched13", 4), ("repr13", 3),
                ("tfm13", 3), ("loss13", 4))

    def op13(self) -> None:
        """One op of the session-13 families (drawn from the generator's current stream)."""
        names = [f for f, _ in self.NN_OPS13]
        w = np.array([w for _, w in self.NN_OPS13], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        bad = self.r() < 0.08
        if bad:
            self.p.ops.append("nn-bad")
        getattr(self, "nn_" + fam)(bad)

    NN_OPS = (("linear", 4), ("bilinear", 3), ("conv1d", 3), ("conv2d", 3), ("conv_transpose1d", 3),
              ("conv_transpose2d", 3), ("pool", 12), ("norm", 8), ("dropout", 6), ("embedding", 3), ("act", 34),
              ("loss", 24), ("shape", 16), ("attention", 3), ("grid", 4), ("modules", 3),
              ("conv3d", 2), ("conv_transpose3d", 2), ("pool3d", 5), ("fracpool", 3), ("unpool", 3), ("norm2", 3),
              ("embedding_bag", 4), ("act2", 5), ("random", 5), ("loss2", 9), ("shape2", 8), ("rnn", 6),
              ("attn_mod", 4), ("utils", 4))

    def op(self) -> None:
        names = [f for f, _ in self.NN_OPS]
        w = np.array([w for _, w in self.NN_OPS], float)
        fam = names[int(self.rng.choice(len(names), p=w / w.sum()))]
        bad = self.r() < 0.08
        if bad:
            self.p.ops.append("nn-bad")   # (coverage: an op given a wrong shape or dtype on purpose)
        if fam.startswith("conv"):
            self.nn_conv(bad, int(fam[-2]), "transpose" in fam)
        else:
            getattr(self, "nn_" + fam)(bad)

    def finish(self) -> None:
        """The backward pass, through the sum of every differentiable float result (sometimes create_graph)."""
        outs = [v.name for v in self.vars if not v.leaf and v.rg and v.dtype in FLOATS]
        rgleaves = [v.name for v in self.vars if v.leaf and v.rg]
        if not outs:
            return
        self.p.final.append(f"out = sum(t.sum() for t in [{', '.join(outs)}] if t.requires_grad)")
        if self.r() < 0.2 and rgleaves:
            self.p.double = True
            self.p.final.append(f"G = torch.autograd.grad(out, [{', '.join(rgleaves)}], create_graph=True, "
                                f"allow_unused=True)")
            self.p.final.append("S = sum((g * g).sum() for g in G if g is not None and g.requires_grad)")
            self.p.final.append("S.backward() if torch.is_tensor(S) else None")
        else:
            self.p.final.append("out.backward() if torch.is_tensor(out) else None")


# Seeds from here on get session 11's families appended (``_Gen.s11``); the programs of smaller seeds (the fixed
# seeds of test_parity_graph_fuzz.py, the KNOWN witnesses) stay as they were.
S11_FIRST_SEED = 121000
# nn seeds from here on get session 12's families appended (``_NNGen.op12``); smaller nn seeds stay as they were.
NN_S12_FIRST_SEED = 150000
# nn seeds from here on also get session 13's families (``_NNGen.op13``).
NN_S13_FIRST_SEED = 170000
# Seeds from here on also get session 12's families (``_Gen.s12``).
S12_FIRST_SEED = 140000
# Seeds from here on also get session 13's families (``_Gen.s13``).
S13_FIRST_SEED = 160000
# Seeds from here on also get session 14's families (``_Gen.s14``).
S14_FIRST_SEED = 180000


def generate(seed: int, family: str = "tensor") -> Program:
    """The program of a seed (deterministic); ``family="nn"``: torch.nn.functional calls and module chains."""
    if family == "nn":
        g = _NNGen(seed)
        target = g.i(2, 6)
        while sum(1 for k in g.p.ops if k.startswith("nn:")) < target:
            g.op()
        extra = np.random.default_rng([seed, 10])   # (a stream of its own: the programs above stay as they were)
        if extra.random() < 0.5 and "nn-bad" not in g.p.ops:   # (after an error nothing more would run)
            g.rng, main = extra, g.rng
            g.op10()
            g.rng = main
        more = np.random.default_rng([seed, 11])   # (session 11: another stream, the programs above stay as they were)
        if more.random() < 0.4 and "nn-bad" not in g.p.ops:
            g.rng, main = more, g.rng
            g.op11()
            g.rng = main
        s12 = np.random.default_rng([seed, 12])   # (session 12: seeds from NN_S12_FIRST_SEED on, a stream of its own)
        if seed >= NN_S12_FIRST_SEED and s12.random() < 0.6 and "nn-bad" not in g.p.ops:
            g.rng, main = s12, g.rng
            for _ in range(g.i(1, 3)):
                if "nn-bad" not in g.p.ops:
                    g.op12()
            g.rng = main
        s13 = np.random.default_rng([seed, 13])   # (session 13: seeds from NN_S13_FIRST_SEED on, a stream of its own)
        if seed >= NN_S13_FIRST_SEED and s13.random() < 0.7 and "nn-bad" not in g.p.ops:
            g.rng, main = s13, g.rng
            for _ in range(g.i(1, 4)):
                if "nn-bad" not in g.p.ops:
                    g.op13()
            g.rng = main
        g.finish()
        return g.p
    g = _Gen(seed)
    g.leaves()
    target = g.i(3, 9)
    tries = 0
    while sum(1 for k in g.p.ops if k != "leaf") < target and tries < 60:
        tries += 1
        g.op()
    s11 = np.random.default_rng([seed, 11])   # (a stream of its own: the programs above stay as they were)
    if seed >= S11_FIRST_SEED and s11.random() < 0.6:
        g.rng, main = s11, g.rng
        for _ in range(g.i(1, 4)):
            g.s11()
        g.rng = main
    s12 = np.random.default_rng([seed, 12])   # (session 12's stream: the programs above stay as they were)
    if seed >= S12_FIRST_SEED and s12.random() < 0.7:
        g.rng, main = s12, g.rng
        for _ in range(g.i(1, 4)):
            g.s12()
        g.rng = main
    s13 = np.random.default_rng([seed, 13])   # (session 13's stream: the programs above stay as they were)
    if seed >= S13_FIRST_SEED and s13.random() < 0.75:
        g.rng, main = s13, g.rng
        for _ in range(g.i(1, 4)):
            g.s13()
        g.rng = main
    s14 = np.random.default_rng([seed, 14])   # (session 14's stream: the programs above stay as they were)
    if seed >= S14_FIRST_SEED and s14.random() < 0.75:
        g.rng, main = s14, g.rng
        for _ in range(g.i(1, 4)):
            g.s14()
        g.rng = main
    g.finish()
    return g.p


# ---------------------------------------------------------------------------------------------------------------
# Running a program and recording what a user can observe

_ADDR = re.compile(r"0x[0-9a-fA-F]+")


def _err(e: BaseException) -> tuple:
    return (type(e).__name__, _ADDR.sub("0x?", str(e)))


def _is_tensor(module, x) -> bool:
    return isinstance(x, module.Tensor)


def _value(module, x, depth: int = 0):
    """A comparable form of a saved attribute / tensor: tensors become (dtype, shape, stride, ndarray)."""
    if _is_tensor(module, x):
        x = x.detach()
        stride = tuple(x.stride())
        if getattr(x, "_is_zerotensor", lambda: False)():  # (PyTorch's ZeroTensor gradients: plain zeros here,
            x = module.zeros_like(x)                        # with the ZeroTensor's strides)
        x = x.resolve_conj().resolve_neg()   # (x.conj().imag: a view with the negative bit)
        arr = x.numpy() if x.dtype != module.bfloat16 else x.float().numpy()
        return ("T", str(x.dtype).replace("torch.", ""), tuple(x.shape), stride, arr.copy())
    if isinstance(x, (list, tuple)) and depth < 3:
        return tuple(_value(module, e, depth + 1) for e in x)
    if x is None or isinstance(x, (bool, int, float, complex, str)):
        return x
    if isinstance(x, module.dtype):
        return str(x).replace("torch.", "")
    if type(x).__name__ == "Size":
        return tuple(x)
    return type(x).__name__ + ":" + _ADDR.sub("0x?", repr(x)).replace("torch.", "")


def _graph(module, roots: list, leaf_names: dict) -> list:
    """The nodes reachable from ``roots`` in BFS order: (name, [(child index | None, input_nr)], saved attributes)."""
    index, order, out = {}, [], []
    queue = [r for r in roots if r is not None and not isinstance(r, tuple)]   # (tuple: the error reading it)
    for r in queue:
        if id(r) not in index:
            index[id(r)] = len(order)
            order.append(r)
    k = 0
    while k < len(order):
        node = order[k]
        k += 1
        edges = []
        for nxt, nr in node.next_functions:
            if nxt is None:
                edges.append((None, nr))
                continue
            if id(nxt) not in index:
                index[id(nxt)] = len(order)
                order.append(nxt)
            edges.append((index[id(nxt)], nr))
        name = type(node).__name__
        saved = {}
        if name == "AccumulateGrad":
            var = node.variable
            saved["variable"] = leaf_names.get(id(var), "?")
        else:
            for attr in sorted(a for a in dir(node) if a.startswith("_saved_")):
                try:
                    saved[attr] = _value(module, getattr(node, attr))
                except Exception as e:  # noqa: BLE001 - a saved tensor that was modified / freed: compare errors
                    saved[attr] = ("error",) + _err(e)
        out.append((name, edges, saved))
    return out


def _attr(read):
    try:
        return read()
    except Exception as e:  # noqa: BLE001 - e.g. grad_fn of a multi-output view modified in place: compare errors
        return ("error",) + _err(e)


def _tensor_meta(module, t) -> dict:
    return {"value": _value(module, t), "requires_grad": t.requires_grad, "is_leaf": _attr(lambda: t.is_leaf),
            "version": t._version, "grad_fn": _attr(lambda: None if t.grad_fn is None else type(t.grad_fn).__name__),
            "is_view": t._base is not None}


def record(module, prog: Program) -> dict:
    """Run ``prog`` with ``torch`` bound to ``module``; what a user observes, as plain data."""
    ns = {"torch": module, "D": prog.data}
    rec: dict = {"error": None, "final_error": None, "warnings": []}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, line in enumerate(prog.lines):
            try:
                exec(line, ns)
            except Exception as e:  # noqa: BLE001 - both libraries must fail alike
                rec["error"] = (i,) + _err(e)
                break
        tensors = {n: ns[n] for n in prog.names if n in ns and _is_tensor(module, ns[n])}
        leaf_names = {id(t): n for n, t in tensors.items()}
        rec["tensors"] = {n: _tensor_meta(module, t) for n, t in tensors.items()}
        rec["graph"] = _graph(module, [_attr(lambda t=t: t.grad_fn) for t in tensors.values()], leaf_names)
        if rec["error"] is None:
            for line in prog.final:
                try:
                    exec(line, ns)
                except Exception as e:  # noqa: BLE001
                    rec["final_error"] = _err(e)
                    break
            if prog.double and "G" in ns:
                rec["double_graph"] = _graph(module, [g.grad_fn for g in ns["G"] if g is not None], leaf_names)
                rec["first_grads"] = [None if g is None else _tensor_meta(module, g) for g in ns["G"]]
        rec["grads"] = {n: None if t.grad is None else _value(module, t.grad) for n, t in tensors.items()
                        if _attr(lambda t=t: t.is_leaf) is True or t.retains_grad}
        rec["objs"] = {n: _value(module, ns[n]) for n in prog.objs if n in ns}
    rec["warnings"] = sorted({(w.category.__name__, str(w.message)) for w in caught})
    return rec


LOOSE = [False]   # True while comparing a program with float32 values: a float64 result of them is float32-close
EXACT = [False]   # True: also report close but not bit-identical floats (``python fuzz_graphs.py ... --exact``)
INEXACT = "close, not bit-exact:"


def _tol(dtype: str) -> tuple:
    return (2e-5, 1e-6) if dtype in ("float32", "complex64") else (1e-10, 1e-12)


def _saved_sizes(saved: dict, attr: str):
    """The sizes of the tensor whose strides ``_saved_<x>_sym_strides`` are (from ``_saved_<x>``, when saved), or
    of the view whose strides as_strided's ``_saved_stride`` are (``_saved_size``)."""
    if attr == "_saved_stride":
        return saved.get("_saved_size")
    if not attr.endswith("_sym_strides"):
        return None
    name = attr[: -len("_sym_strides")]
    value = saved.get(name + "_sym_sizes", saved.get(name))
    return value[2] if isinstance(value, tuple) and value and value[0] == "T" else value


def _diff_values(path: str, a, b, out: list, sizes=None) -> None:
    """Differences between two recorded values (tensors compared close; everything else equal). ``sizes``: those
    of the tensor whose strides ``a`` and ``b`` are (strides of empty tensors and of size-1 dims as for tensors)."""
    if sizes is not None and isinstance(a, tuple) and isinstance(b, tuple) and a != b and len(a) == len(sizes):
        if 0 in sizes:
            return
        size1 = all(s == t or n == 1 for s, t, n in zip(a, b, sizes))
        out.append(f"{path}: {'size-1 dim ' if size1 else ''}strides {a} != torch {b} (shape {tuple(sizes)})")
        return
    if isinstance(a, tuple) and a and a[0] == "T" and isinstance(b, tuple) and b and b[0] == "T":
        if a[1:3] != b[1:3]:
            out.append(f"{path}: dtype/shape {a[1:3]} != torch {b[1:3]}")
            return
        if a[3] != b[3] and 0 not in a[2]:   # (strides of empty tensors: see KNOWN in test_parity_graph_fuzz.py)
            size1 = all(s == t or n == 1 for s, t, n in zip(a[3], b[3], a[2]))
            out.append(f"{path}: {'size-1 dim ' if size1 else ''}strides {a[3]} != torch {b[3]} (shape {a[2]})")
        x, y = a[4], b[4]
        if x.dtype.kind in "biu" or y.dtype.kind in "biu":
            if not np.array_equal(x, y):
                out.append(f"{path}: values {x.tolist()} != torch {y.tolist()}")
            return
        rtol, atol = _tol("float32" if LOOSE[0] else a[1])
        if not np.allclose(x, y, rtol=rtol, atol=atol, equal_nan=True):
            out.append(f"{path}: values differ, max abs {np.nanmax(np.abs(x - y)) if x.size else 0}:"
                       f" {x.tolist()} != torch {y.tolist()}")
        elif EXACT[0] and not np.array_equal(x, y, equal_nan=True):
            out.append(f"{path}: {INEXACT} max abs {np.nanmax(np.abs(x - y))}")
        return
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b):
        for k, (u, v) in enumerate(zip(a, b)):
            _diff_values(f"{path}[{k}]", u, v, out)
        return
    if isinstance(a, float) and isinstance(b, float) and (a == b or (a != a and b != b)):
        return
    if a != b:
        out.append(f"{path}: {a!r} != torch {b!r}")


def _diff_graph(path: str, g1: list, g2: list, out: list) -> None:
    names1 = [n for n, _, _ in g1]
    names2 = [n for n, _, _ in g2]
    if names1 != names2:
        out.append(f"{path}: nodes {names1} != torch {names2}")
        return
    for k, ((n, e1, s1), (_, e2, s2)) in enumerate(zip(g1, g2)):
        if e1 != e2:
            out.append(f"{path}[{k}] {n}: next_functions {e1} != torch {e2}")
        if sorted(s1) != sorted(s2):
            out.append(f"{path}[{k}] {n}: saved {sorted(s1)} != torch {sorted(s2)}")
        for attr in s1:
            if attr in ("_saved_storage_offset", "_saved_stride") and 0 in (s2.get("_saved_size") or (1,)):
                continue  # (where an empty view starts: see KNOWN's entry on empty tensors)
            if n.startswith("RreluWithNoiseBackward") and attr == "_saved_noise" and s2.get("_saved_training") is False:
                continue  # (rrelu in eval mode: PyTorch saves an empty_like noise never written, i.e. garbage)
            if attr in s2 and n == "CtcLossBackward0" and attr == "_saved_result1":
                _diff_values(f"{path}[{k}] {n}.{attr}", *_finite_part(s1[attr], s2[attr]), out)
            elif attr in s2:
                _diff_values(f"{path}[{k}] {n}.{attr}", s1[attr], s2[attr], out, _saved_sizes(s2, attr))


def _finite_part(a, b) -> tuple:
    """ctc_loss's saved log_alpha: PyTorch never writes the cells past a sample's input length or its 2·target
    length + 1 (uninitialized memory); both compared where minigrad's (-inf there) are finite."""
    if not (isinstance(a, tuple) and isinstance(b, tuple) and a[:1] == b[:1] == ("T",) and a[2] == b[2]):
        return a, b
    keep = np.isfinite(a[4])
    return a[:4] + (np.where(keep, a[4], 0),), b[:4] + (np.where(keep, b[4], 0),)


def compare(mine: dict, theirs: dict) -> list:
    """Every observable difference between two records (empty when minigrad matches PyTorch)."""
    out: list = []
    LOOSE[0] = any(m["value"][1] in ("float32", "complex64") for m in theirs["tensors"].values())
    for key in ("error", "final_error", "warnings"):
        if mine.get(key) != theirs.get(key):
            out.append(f"{key}: {mine.get(key)!r} != torch {theirs.get(key)!r}")
    t1, t2 = mine["tensors"], theirs["tensors"]
    if sorted(t1) != sorted(t2):
        out.append(f"tensors {sorted(t1)} != torch {sorted(t2)}")
    for n in t1:
        if n not in t2:
            continue
        for k in t1[n]:
            _diff_values(f"{n}.{k}", t1[n][k], t2[n][k], out)
    _diff_graph("graph", mine["graph"], theirs["graph"], out)
    if "double_graph" in mine or "double_graph" in theirs:
        _diff_graph("double_graph", mine.get("double_graph", []), theirs.get("double_graph", []), out)
        for k, (a, b) in enumerate(zip(mine.get("first_grads", []), theirs.get("first_grads", []))):
            if (a is None) != (b is None):
                out.append(f"first_grads[{k}]: {a is None} != torch {b is None}")
            elif a is not None:
                for key in a:
                    _diff_values(f"first_grads[{k}].{key}", a[key], b[key], out)
    for n, g in mine["grads"].items():
        if n in theirs["grads"]:
            _diff_values(f"{n}.grad", g, theirs["grads"][n], out)
    o1, o2 = mine.get("objs", {}), theirs.get("objs", {})
    if sorted(o1) != sorted(o2):
        out.append(f"objs {sorted(o1)} != torch {sorted(o2)}")
    for n in o1:
        if n in o2:
            _diff_values(n, o1[n], o2[n], out)
    return out


def check(seed: int, family: str = "tensor") -> tuple:
    """(program, differences) of a seed, each library run as in a fresh process (once-per-process warnings given)."""
    import torch
    from parity import fresh_warn_once

    import minigrad
    prog = generate(seed, family)
    with fresh_warn_once():
        return prog, compare(record(minigrad, prog), record(torch, prog))


def unexplained(prog: Program, diffs: list, known: list) -> list:
    """The differences no KNOWN entry explains. An entry starts (line regex, program regex or None, scope): scope
    "line" explains the matching lines, scope "seed" (a root cause with knock-on effects) the whole seed."""
    src = prog.source()
    applicable = [(re.compile(e[0]), e[2]) for e in known if e[1] is None or re.search(e[1], src)]
    if any(scope == "seed" and rx.search(d) for d in diffs for rx, scope in applicable):
        return []
    return [d for d in diffs if not any(rx.search(d) for rx, scope in applicable if scope == "line")]


# Tensor seeds whose program crashes PyTorch 2.13 itself (a segfault would end the run; skipped): retain_grad() on
# output 1 of a multi-output node (linalg.qr's R, var_mean's mean, eigh's vectors), written in place through a view,
# then a backward. (Written in place directly, the same fails an internal assert in PyTorch: variable.cpp:207
# "out != nullptr".)
TORCH_CRASH_SEEDS = (324911,)

if __name__ == "__main__":  # pragma: no cover - a manual fuzz run
    from test_parity_graph_fuzz import KNOWN, NN_KNOWN
    EXACT[0] = "--exact" in sys.argv
    FAMILY = "nn" if "--nn" in sys.argv else "tensor"
    if FAMILY == "nn":
        KNOWN = KNOWN + NN_KNOWN
    argv = [a for a in sys.argv[1:] if a not in ("--exact", "--nn")]
    first = int(argv[0]) if argv else 0
    count = int(argv[1]) if len(argv) > 1 else 200
    bad = explained = 0
    inexact = collections.Counter()
    for s in range(first, first + count):
        if FAMILY == "tensor" and s in TORCH_CRASH_SEEDS:
            print(f"=== seed {s}: skipped, PyTorch crashes on it (TORCH_CRASH_SEEDS)")
            continue
        try:
            prog, diffs = check(s, FAMILY)
        except Exception as e:  # noqa: BLE001 - a crash of the harness itself is a finding too
            print(f"=== seed {s}: harness crash {type(e).__name__}: {e}")
            bad += 1
            continue
        for d in diffs:
            if INEXACT in d:
                inexact[re.sub(r"\[\d+\]|v\d+|\b[abcd]\.", "", d.split(":")[0])] += 1
        diffs = [d for d in diffs if INEXACT not in d]
        rest = unexplained(prog, diffs, KNOWN)
        if rest:
            bad += 1
            print(f"=== seed {s}\n{prog.source()}\n--- " + "\n--- ".join(d[:600] for d in rest[:6]))
        elif diffs:
            explained += 1
    print(f"{count - bad - explained}/{count} clean, {explained} explained by KNOWN, {bad} unexplained")
    if EXACT[0]:
        print("close but not bit-exact, by place:", inexact.most_common(30))
