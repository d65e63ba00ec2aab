"""Parity tests for the ninth session's leftovers: known differences from PyTorch left by earlier sessions.

1. A missing optional tensor (``derivatives.absent()``, PyTorch's undefined tensor) used to be any (0,)-shaped
   tensor, so a real empty weight, bias, clamp bound or per-sample weight was taken for a missing one. The
   stand-in now has an array type of its own (``_dispatch.Absent``), and every op that takes one is run here
   with real empty tensors: values, graphs, saved tensors, gradients and errors, against PyTorch.
2. Adaptive pooling (avg/max, 1-d/2-d/3-d) with an empty batch or channel dim, forward and backward.
3. The create_graph reference-cycle warning of ``Tensor.backward``: category, text and the line it points at.
4. ``F.interpolate(..., antialias=True)``: bilinear and bicubic (``_upsample_*2d_aa``) and their backward.

Each program runs twice through ``parity.run_both`` (``import torch`` resolving to minigrad, then to PyTorch) and
both stdouts must be identical once object addresses are masked. Programs marked "fixed:" printed something
different from PyTorch before this session's fix.
"""
from __future__ import annotations

import re
import warnings

import pytest
from parity import run_both

# Helpers every program starts with: ``show`` prints a value or the exception, ``graph`` a grad_fn tree by name.
PRELUDE = r'''
import torch
import torch.nn.functional as F
torch.manual_seed(0)
def show(name, f):
    try:
        print(name, f())
    except Exception as e:
        print(name, "ERR", type(e).__name__, e)
def graph(fn, d=0):
    if fn is None:
        return "  " * d + "None\n"
    return "  " * d + fn.name() + "\n" + "".join(graph(n, d + 1) for n, _ in fn.next_functions)
'''

PROGRAMS: dict[str, str] = {}

# ---- 1. real empty tensors where an optional tensor may be missing ---------------------------------------------

PROGRAMS['clamp_empty_tensor_bounds'] = r'''
# fixed: a (0,) bound was taken for a missing one (saved as None, left out of the forward and the formulas)
def c(shape_x, shape_lo, shape_hi, rg=(1, 1, 1)):
    def f():
        x = torch.zeros(shape_x, requires_grad=bool(rg[0]))
        lo = None if shape_lo is None else torch.full(shape_lo, -1., requires_grad=bool(rg[1]))
        hi = None if shape_hi is None else torch.ones(shape_hi, requires_grad=bool(rg[2]))
        y = torch.clamp(x, lo, hi)
        saved = (y.grad_fn._saved_min, y.grad_fn._saved_max)
        y.sum().backward()
        after = []
        for name in ("_saved_min", "_saved_max"):
            try:
                after.append(getattr(y.grad_fn, name))
            except RuntimeError as e:
                after.append(str(e)[:40])
        return y, saved, after, [None if t is None else t.grad for t in (x, lo, hi)]
    return f
for sx, sl, sh in [((0,), (0,), None), ((0,), (0,), (0,)), ((3, 0), None, (0,)), ((), None, (0,)),
                   ((), (0,), (0,)), ((1,), (0,), (1,)), ((1,), (1,), (0,)), ((1,), (3,), (1,)), ((1,), (1,), (3,)),
                   ((2, 1), (0,), None), ((0, 2), (2,), (0, 1))]:
    show(f"clamp {sx} {sl} {sh}", c(sx, sl, sh))
for rg in [(1, 0, 0), (0, 1, 0), (0, 0, 1)]:
    show(f"clamp [1] [0] [1] {rg}", c((1,), (0,), (1,), rg))
    show(f"clamp [1] [3] [1] {rg}", c((1,), (3,), (1,), rg))
show("clamp no grad", lambda: torch.clamp(torch.tensor([2.]), torch.empty(0), torch.tensor([1.])))
show("clamp_min [0]", lambda: torch.clamp_min(torch.ones(1), torch.empty(0)))
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = fwAD.make_dual(torch.empty(0), torch.empty(0))
    lo = fwAD.make_dual(torch.empty(0), torch.empty(0))
    print(fwAD.unpack_dual(torch.clamp(x, min=lo)))
    x = fwAD.make_dual(torch.tensor([1., 5.]), torch.tensor([1., 1.]))
    lo = fwAD.make_dual(torch.tensor([2., 2.]), torch.tensor([3., 3.]))
    print(fwAD.unpack_dual(torch.clamp(x, max=lo)))
'''

PROGRAMS['conv_empty_bias_and_channels'] = r'''
# fixed: no input channels (PyTorch's "Empty" backend: no output channels, bias gradient zeros); the kernels'
# errors for other empty inputs and for an empty transposed weight
def v(bias_shape, w_shape, x_shape=(1, 2, 4), transposed=False, groups=1, dtype=torch.float32):
    def f():
        x = torch.ones(x_shape, dtype=dtype, requires_grad=True)
        w = torch.ones(w_shape, dtype=dtype, requires_grad=True)
        b = None if bias_shape is None else torch.ones(bias_shape, dtype=dtype, requires_grad=True)
        k = len(x_shape) - 2
        y = getattr(F, f"conv_transpose{k}d" if transposed else f"conv{k}d")(x, w, b, groups=groups)
        print(graph(y.grad_fn), end="")
        y.sum().backward()
        return tuple(y.shape), y.grad_fn._saved_bias_sym_sizes_opt, tuple(x.grad.shape), tuple(w.grad.shape), \
            None if b is None else b.grad
    return f
show("empty bias, no out channels", v((0,), (0, 2, 3)))
show("no bias, no out channels", v(None, (0, 2, 3)))
show("empty bias for 3 channels", v((0,), (3, 2, 3)))
show("2-d empty bias", v((0, 1), (0, 2, 2, 2), (1, 2, 3, 3)))
for dim in (1, 2, 3):
    for n, cin, cout, size in [(0, 2, 3, 4), (1, 0, 3, 4), (1, 2, 0, 4), (1, 2, 3, 0), (0, 0, 3, 4)]:
        for transposed in (False, True):
            for groups in (1, 2):
                w_shape = (cin, cout // groups) if transposed else (cout, cin // groups)
                show(f"conv{dim}d N{n} Cin{cin} Cout{cout} L{size} T{transposed} g{groups}",
                     v((cout,), w_shape + (2,) * dim, (n, cin) + (size,) * dim, transposed, groups))
show("float64 transposed, empty weight, groups 2", v(None, (2, 0, 2), (1, 2, 3), True, 2, torch.float64))
show("padding, empty length", lambda: F.conv1d(torch.ones(1, 2, 0), torch.ones(3, 2, 1), padding=1))
'''

PROGRAMS['batch_norm_empty'] = r'''
# fixed: F.batch_norm of an empty input with an empty weight: select()'s error (PyTorch indexes weight[0] in
# C++); torch.native_batch_norm's empty-input error in training
def bn(shape, train, w=True, b=True):
    def f():
        x = torch.randn(shape, requires_grad=True)
        c = shape[1]
        W = torch.rand(c, requires_grad=True) if w else None
        B = torch.rand(c, requires_grad=True) if b else None
        rm, rv = (None, None) if train else (torch.zeros(c), torch.ones(c))
        y = F.batch_norm(x, rm, rv, W, B, training=train)
        print(graph(y.grad_fn), end="")
        y.sum().backward()
        return y, [None if t is None else t.grad for t in (x, W, B)]
    return f
for shape in [(0, 3), (0, 3, 2), (4, 0), (4, 0, 3)]:
    for train in (True, False):
        for w, b in [(True, True), (False, False), (False, True)]:
            show(f"bn {shape} train={train} w={w} b={b}", bn(shape, train, w, b))
for shape, train in [((0, 3), True), ((0, 3), False), ((4, 0), False), ((0, 3, 2), True)]:
    c = shape[1]
    show(f"native_batch_norm {shape} {train}", lambda: torch.native_batch_norm(
        torch.randn(shape), None, None, torch.zeros(c), torch.ones(c), train, 0.1, 1e-5))
x = torch.randn(4, 3, requires_grad=True)
w = torch.rand(3, requires_grad=True)
y = F.batch_norm(x, None, None, w, None, training=True)
print(y.grad_fn._saved_weight is w, y.grad_fn._saved_running_mean)
gx, gw = torch.autograd.grad(y.pow(2).sum(), (x, w), create_graph=True)
print(gx.grad_fn.name(), gw.grad_fn._saved_weight is w)
'''

PROGRAMS['layer_norm_empty'] = r'''
# fixed: an empty normalized shape's weight and bias were saved as None (and freed as absent ones); its statistics
# (mean 0, rstd NaN); the weight/bias shape checks, before the input's
def ln(shape, ns, w=True, b=True):
    def f():
        x = torch.randn(shape, requires_grad=True)
        W = torch.rand(ns, requires_grad=True) if w else None
        B = torch.rand(ns, requires_grad=True) if b else None
        y = F.layer_norm(x, ns, W, B)
        saved = (y.grad_fn._saved_weight, y.grad_fn._saved_bias)
        print(graph(y.grad_fn), end="")
        y.sum().backward()
        after = []
        for name in ("_saved_weight", "_saved_bias"):
            try:
                after.append(getattr(y.grad_fn, name))
            except RuntimeError as e:
                after.append(str(e)[:40])
        return y, saved, after, [None if t is None else t.grad for t in (x, W, B)]
    return f
for shape, ns in [((2, 0), (0,)), ((0, 3), (3,)), ((2, 3, 0), (3, 0))]:
    for w, b in [(True, True), (False, False), (True, False)]:
        show(f"ln {shape} {ns} w={w} b={b}", ln(shape, ns, w, b))
def double():
    x = torch.randn(2, 0, requires_grad=True)
    w = torch.empty(0, requires_grad=True)
    y = F.layer_norm(x, (0,), w, None)
    gx, gw = torch.autograd.grad(y.sum(), (x, w), create_graph=True)
    return gx, gw, gx.grad_fn.name(), gx.grad_fn._saved_weight
show("double", double)
for dt in (torch.float32, torch.float64, torch.bfloat16):
    show(f"stats {dt}", lambda: torch.native_layer_norm(torch.randn(2, 0, dtype=dt), (0,), None, None, 1e-5))
show("stats batch 0", lambda: torch.native_layer_norm(torch.randn(0, 3), (3,), None, None, 1e-5))
show("bad weight", lambda: F.layer_norm(torch.randn(2, 0), (0,), torch.empty(1), None))
show("bad weight 2", lambda: F.layer_norm(torch.randn(2, 3), (3,), torch.randn(2)))
show("bad bias", lambda: F.layer_norm(torch.randn(2, 3), (3,), None, torch.randn(2)))
show("empty weight", lambda: F.layer_norm(torch.randn(2, 3), (3,), torch.randn(0)))
show("2-d weight", lambda: F.layer_norm(torch.randn(2, 3), (3,), torch.randn(1, 3)))
show("weight before input", lambda: F.layer_norm(torch.randn(2, 3), (4,), torch.ones(2)))
show("no normalized dims", lambda: torch.layer_norm(torch.randn(2, 3), (), None, None))
show("native bad weight", lambda: torch.native_layer_norm(torch.randn(2, 3), (3,), torch.ones(2), None, 1e-5))
'''

PROGRAMS['group_norm_and_instance_norm_empty'] = r'''
# fixed: C = 0 (the empty weight saved as None, no weight gradient), N = 0 (a reshape error), HxW = 0 (PyTorch's
# NaN rstd and weight gradient); the weight/bias checks (with PyTorch's bias message, which prints the weight's
# shape)
def gn(shape, g, w=True, b=True):
    def f():
        x = torch.randn(shape, requires_grad=True)
        c = shape[1]
        W = torch.rand(c, requires_grad=True) if w else None
        B = torch.rand(c, requires_grad=True) if b else None
        y = F.group_norm(x, g, W, B)
        saved = y.grad_fn._saved_weight
        print(graph(y.grad_fn), end="")
        y.sum().backward()
        return y, saved, [None if t is None else t.grad for t in (x, W, B)]
    return f
for shape, g in [((2, 0, 3), 1), ((2, 0, 3), 2), ((0, 4, 3), 2), ((2, 4, 0), 2)]:
    for w, b in [(True, True), (False, True)]:
        show(f"gn {shape} {g} w={w} b={b}", gn(shape, g, w, b))
for shape, c in [((2, 4, 0), 4), ((2, 0, 3), 0), ((0, 4, 3), 4)]:
    show(f"stats {shape}", lambda: torch.native_group_norm(torch.randn(shape), None, None, shape[0], c,
                                                           shape[2], 2, 1e-5))
for bias in (torch.ones(3), torch.ones(2, 2), torch.ones(0)):
    for weight in (None, torch.ones(4), torch.ones(3)):
        show("bad params", lambda: F.group_norm(torch.randn(2, 4, 3), 2, weight, bias))
        show("bad params native", lambda: torch.native_group_norm(torch.randn(2, 4, 3), weight, bias, 2, 4, 3, 2,
                                                                  1e-5))
show("2-d weight", lambda: F.group_norm(torch.randn(2, 4, 3), 2, torch.ones(1, 4)))
# (PyTorch 2.13 cannot differentiate a bias given without a weight: two different errors)
for shape, g in [((3, 6, 2), 3), ((2, 0, 3), 1), ((0, 4, 3), 2)]:
    def bias_only(create_graph):
        x = torch.randn(shape, requires_grad=True)
        bias = torch.rand(shape[1], requires_grad=True)
        y = F.group_norm(x, g, None, bias)
        return torch.autograd.grad(y.sum(), (x, bias), create_graph=create_graph)[1]
    show(f"bias without weight {shape}", lambda: bias_only(False))
    show(f"bias without weight, create_graph {shape}", lambda: bias_only(True))
def inorm(shape):
    def f():
        x = torch.randn(shape, requires_grad=True)
        w = torch.rand(shape[1], requires_grad=True)
        return F.instance_norm(x, weight=w, bias=torch.rand(shape[1]))
    return f
show("instance_norm N=0", inorm((0, 3, 4)))
show("instance_norm C=0", inorm((2, 0, 4)))
'''

PROGRAMS['embedding_bag_empty_per_sample_weights'] = r'''
# fixed: an empty per_sample_weights was saved as None (and read None once freed)
def eb(psw, mode="sum", idx=(), offsets=(0, 0), sparse=False):
    def f():
        w = torch.randn(5, 3, requires_grad=True)
        p = None if psw is None else torch.ones(psw, requires_grad=True)
        y = F.embedding_bag(torch.tensor(idx, dtype=torch.long), w, torch.tensor(offsets), mode=mode,
                            per_sample_weights=p, sparse=sparse)
        saved = y.grad_fn._saved_per_sample_weights
        print(graph(y.grad_fn), end="")
        y.sum().backward()
        try:
            after = y.grad_fn._saved_per_sample_weights
        except RuntimeError as e:
            after = str(e)[:40]
        return y, saved, after, w.grad, None if p is None else p.grad
    return f
show("empty psw", eb((0,)))
show("no psw", eb(None))
show("empty psw, sparse", eb((0,), sparse=True))
show("psw", eb((2,), idx=(1, 2), offsets=(0, 1)))
show("empty psw for 2 indices", eb((0,), idx=(1, 2), offsets=(0,)))
show("empty psw, mean", eb((0,), mode="mean"))
'''

PROGRAMS['saved_tensor_hooks_skip_missing_optionals'] = r'''
# fixed: a missing weight or bias (an absent() stand-in) went through the pack hook; PyTorch packs nothing for an
# undefined tensor
calls = []
def pack(t):
    calls.append(tuple(t.shape))
    return t
with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
    x = torch.randn(3, 4, requires_grad=True)
    F.batch_norm(x, None, None, training=True)
    F.layer_norm(x, (4,))
    F.group_norm(x.reshape(3, 4, 1), 2)
    F.embedding_bag(torch.tensor([1, 2]), torch.randn(5, 3, requires_grad=True), torch.tensor([0]))
print(calls)
x = torch.randn(3, 4, requires_grad=True)
y = F.layer_norm(x, (4,))
print(y.grad_fn._saved_weight, y.grad_fn._saved_bias, y.grad_fn._raw_saved_weight.data)
y.sum().backward()
print(y.grad_fn._saved_weight, y.grad_fn._saved_bias)
'''

PROGRAMS['aten_entry_points_empty'] = r'''
# fixed: torch.native_layer_norm / native_group_norm saved a real empty weight as None; torch.layer_norm's checks
# (torch.native_batch_norm in evaluation with C = 0 is left out: PyTorch 2.13 dies of a floating-point exception)
def conv():
    x = torch.randn(1, 2, 4, requires_grad=True)
    w = torch.randn(0, 2, 3, requires_grad=True)
    return torch.convolution(x, w, torch.empty(0, requires_grad=True), [1], [0], [1], False, [0], 1)
show("torch.convolution, empty bias", conv)
def layer_norm():
    x = torch.randn(2, 0, requires_grad=True)
    w, b = torch.empty(0, requires_grad=True), torch.empty(0, requires_grad=True)
    out = torch.native_layer_norm(x, [0], w, b, 1e-5)
    saved = (out[0].grad_fn._saved_weight, out[0].grad_fn._saved_bias)
    out[0].sum().backward()
    return out, saved, w.grad, b.grad
show("native_layer_norm, empty weight and bias", layer_norm)
def group_norm():
    x = torch.randn(2, 0, 3, requires_grad=True)
    w = torch.empty(0, requires_grad=True)
    out = torch.native_group_norm(x, w, None, 2, 0, 3, 1, 1e-5)
    saved = out[0].grad_fn._saved_weight
    out[0].sum().backward()
    return out[1:], saved, w.grad
show("native_group_norm, empty weight", group_norm)
show("layer_norm, empty bias", lambda: torch.layer_norm(torch.randn(2, 3), [3], torch.ones(3), torch.empty(0)))
show("torch.group_norm, C = 0", lambda: torch.group_norm(torch.randn(2, 0, 3), 1, torch.empty(0), torch.empty(0)))
'''

PROGRAMS['forward_ad_optional_tensors'] = r'''
# the forward derivatives of the ops with Tensor? arguments: a missing one's tangent is the stand-in itself
# (not a real (0,) zero tensor), real empty ones flow through
fw = torch.autograd.forward_ad
def jvp(fn, *shapes):
    def f():
        with fw.dual_level():
            duals = [fw.make_dual(torch.randn(s), torch.randn(s)) if s is not None else None for s in shapes]
            out = fn(*duals)
            return fw.unpack_dual(out).tangent
    return f
show("ln (2,0)", jvp(lambda x, w, b: F.layer_norm(x, (0,), w, b), (2, 0), (0,), (0,)))
show("ln (2,0) no w", jvp(lambda x: F.layer_norm(x, (0,)), (2, 0)))
show("ln (0,3)", jvp(lambda x, w, b: F.layer_norm(x, (3,), w, b), (0, 3), (3,), (3,)))
show("ln (2,3) w only", jvp(lambda x, w: F.layer_norm(x, (3,), w), (2, 3), (3,)))
show("gn C0", jvp(lambda x, w, b: F.group_norm(x, 1, w, b), (2, 0, 3), (0,), (0,)))
show("gn N0", jvp(lambda x, w, b: F.group_norm(x, 2, w, b), (0, 4, 3), (4,), (4,)))
show("gn bias only", jvp(lambda x, b: F.group_norm(x, 2, None, b), (2, 4, 3), (4,)))
show("bn N0 eval", jvp(lambda x, w, b: F.batch_norm(x, torch.zeros(3), torch.ones(3), w, b), (0, 3), (3,), (3,)))
show("bn (4,3) w only", jvp(lambda x, w: F.batch_norm(x, None, None, w, training=True), (4, 3), (3,)))
show("conv empty Cin", jvp(lambda x, w, b: F.conv1d(x, w, b), (1, 0, 4), (3, 0, 2), (3,)))
show("conv no bias", jvp(lambda x, w: F.conv1d(x, w), (1, 2, 4), (3, 2, 2)))
show("clamp empty", jvp(lambda x, lo: torch.clamp(x, lo), (0,), (0,)))
show("clamp max only", jvp(lambda x, hi: torch.clamp(x, max=hi), (3,), (3,)))
'''

# ---- 2. adaptive pooling with empty dims --------------------------------------------------------------------------

PROGRAMS['adaptive_pools_empty_dims'] = r'''
# fixed: the backward of adaptive_avg_pool3d and of adaptive_max_pool1d/2d/3d did not refuse a gradient with an
# empty non-batch dim (a zero output size); adaptive_avg_pool3d of an empty batch (a reshape error)
for kind in ("avg", "max"):
    for dim in (1, 2, 3):
        fn = getattr(F, f"adaptive_{kind}_pool{dim}d")
        cases = [((0, 2) + (4,) * dim, 2), ((2, 0) + (4,) * dim, 2), ((0,) + (4,) * dim, 2), ((2, 0) + (4,) * dim, 1),
                 ((2, 3) + (0,) * dim, 2), ((2, 3) + (0,) * dim, 1), ((2, 3) + (4,) * dim, (0,) * dim),
                 ((3,) + (4,) * dim, (2,) * (dim - 1) + (0,)), ((0, 3) + (4,) * dim, (0,) + (2,) * (dim - 1))]
        for shape, out in cases:
            def f():
                x = torch.randn(shape, requires_grad=True)
                y = fn(x, out)
                r = (tuple(y.shape), y.grad_fn.name())
                try:
                    y.sum().backward()
                    r += (tuple(x.grad.shape), x.grad.abs().sum().item())
                except RuntimeError as e:
                    r += ("backward:", str(e))
                try:
                    g, = torch.autograd.grad(fn(x, out).sum(), x, create_graph=True)
                    r += (g.grad_fn.name(),)
                except RuntimeError as e:
                    r += ("create_graph:", str(e))
                return r
            show(f"{kind}{dim}d {shape} out={out}", f)
'''


def test_empty_layer_norm_is_quiet() -> None:
    # (NumPy's "Mean of empty slice" used to be printed for an empty normalized shape)
    import minigrad as torch
    x = torch.randn(2, 0, requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        y = torch.nn.functional.layer_norm(x, (0,), torch.empty(0, requires_grad=True), None)
        y.sum().backward()
    assert x.grad.shape == (2, 0)


def test_absent_stand_in_is_not_a_real_empty_tensor() -> None:
    import numpy as np

    from minigrad import derivatives as D
    assert D.is_absent(D.absent()._data)
    assert not D.is_absent(np.empty(0, np.float32))
    assert D._given(D.absent()) is None
    real = D.Tensor._make(np.empty(0, np.float32))
    assert D._given(real) is real


# ---- 3. backward(create_graph=True)'s warning ---------------------------------------------------------------------

_CREATE_GRAPH_PROGRAM = r'''
import {module} as torch
x = torch.ones(2, requires_grad=True)
def step():
    (x * x).sum().backward(create_graph=True)
step()
torch.autograd.backward((x * 2).sum(), create_graph=True)
print("done")
'''


def _stderr_of(module: str, *flags: str) -> str:
    import subprocess
    import sys
    run = subprocess.run([sys.executable, *flags, "-c", _CREATE_GRAPH_PROGRAM.format(module=module)],
                         capture_output=True, text=True, timeout=120)
    assert run.stdout == "done\n", run.stderr
    return run.stderr


def test_create_graph_warning_points_at_the_library_line_like_pytorch() -> None:
    # fixed: Tensor.backward's warning pointed at minigrad/_tensor.py, torch.autograd.backward's at the user's line;
    # PyTorch's points at the line of torch/autograd/graph.py that calls its engine, once per process
    from parity import torch_or_skip
    torch_or_skip()
    ours, theirs = (_stderr_of(m, "-W", "always").splitlines() for m in ("minigrad", "torch"))
    assert len(ours) == len(theirs) == 2   # (one warning: the location and message, then the source line)
    pattern = re.compile(r"(.*):(\d+): (\w+): (.*)")
    (where_o, _, cat_o, msg_o), (where_t, _, cat_t, msg_t) = (pattern.match(s[0]).groups() for s in (ours, theirs))
    assert (cat_o, msg_o) == (cat_t, msg_t) == ("UserWarning", msg_t)
    assert where_t.endswith("torch/autograd/graph.py") and where_o.endswith("minigrad/autograd/graph.py")
    assert "run_backward(" in ours[1] and "run_backward(" in theirs[1]


def test_create_graph_warning_record(monkeypatch) -> None:
    import minigrad
    monkeypatch.setattr(minigrad._warn_once, "_WARNED", set())   # (a warning given once per process)
    x = minigrad.ones(2, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        minigrad.autograd.backward((x * x).sum(), create_graph=True)
        (x * x).sum().backward(create_graph=True)   # (once per process: no second warning)
    assert len(caught) == 1 and caught[0].category is UserWarning
    assert caught[0].filename.endswith("autograd/graph.py")
    import linecache
    assert "run_backward(" in linecache.getline(caught[0].filename, caught[0].lineno)


# ---- 4. F.interpolate(..., antialias=True) ------------------------------------------------------------------------

PROGRAMS['interpolate_antialias_graph_and_errors'] = r'''
# fixed: antialias=True raised NotImplementedError (bilinear) or the wrong error (bicubic, nearest, area ...)
x = torch.randn(1, 2, 8, 8, requires_grad=True)
for mode in ("bilinear", "bicubic"):
    y = F.interpolate(x, size=(3, 5), mode=mode, antialias=True)
    fn = y.grad_fn
    print(y, fn.name(), fn._saved_output_size, fn._saved_align_corners, fn._saved_scales_h, fn._saved_scales_w,
          fn._saved_self_sym_sizes)
    go = torch.randn(y.shape, requires_grad=True)
    g, = torch.autograd.grad(y, x, go, create_graph=True)
    print(g.grad_fn.name(), g.grad_fn._saved_output_size, g.grad_fn._saved_align_corners, g.grad_fn._saved_scales_h,
          g.grad_fn.next_functions[0][0].name())
    g.pow(2).sum().backward()
    print(go.grad)
    y = F.interpolate(x, scale_factor=0.5, mode=mode, antialias=True, align_corners=True)
    print(y.grad_fn._saved_scales_h, y.grad_fn._saved_output_size, y.grad_fn._saved_align_corners)
    y = F.interpolate(x, scale_factor=(0.4, 1.7), mode=mode, antialias=True, recompute_scale_factor=True)
    print(y.shape, y.grad_fn._saved_scales_h, y.grad_fn._saved_output_size)
    print(F.interpolate(x, size=(8, 8), mode=mode, antialias=True).equal(x))
    z = F.interpolate(x.detach().to(memory_format=torch.channels_last), size=(4, 3), mode=mode, antialias=True)
    print(z.is_contiguous(memory_format=torch.channels_last), z.stride())
    with torch.autograd.forward_ad.dual_level():
        d = torch.autograd.forward_ad.make_dual(x.detach(), torch.ones(1, 2, 8, 8))
        print(torch.autograd.forward_ad.unpack_dual(F.interpolate(d, size=(3, 3), mode=mode, antialias=True)).tangent)
for dt in (torch.float16, torch.bfloat16, torch.int64, torch.float64):
    for mode in ("bilinear", "bicubic"):
        show(f"{dt} {mode}", lambda: F.interpolate(torch.ones(1, 2, 8, 8, dtype=dt), size=(4, 4), mode=mode,
                                                   antialias=True).dtype)
for mode in ("nearest", "area", "nearest-exact", "linear", "trilinear", "bilinear", "bicubic"):
    for shape in ((1, 2, 8), (1, 2, 8, 8), (1, 2, 4, 4, 4)):
        show(f"{mode} {shape}", lambda: F.interpolate(torch.ones(shape), scale_factor=2, mode=mode,
                                                      antialias=True).shape)
show("no size", lambda: F.interpolate(torch.ones(1, 2, 8, 8), mode="nearest", antialias=True))
show("zero size", lambda: F.interpolate(torch.ones(1, 2, 8, 8), size=(0, 3), mode="bilinear", antialias=True))
show("empty batch", lambda: F.interpolate(torch.ones(0, 2, 8, 8), size=(3, 3), mode="bicubic", antialias=True).shape)
show("up", lambda: F.interpolate(torch.arange(16.).reshape(1, 1, 4, 4), size=(6, 7), mode="bicubic", antialias=True))
'''

_AA_SIZES = [((8, 8), (4, 4)), ((8, 8), (3, 5)), ((16, 12), (5, 7)), ((5, 7), (9, 11)), ((32, 32), (7, 3)),
             ((10, 10), (10, 4)), ((7, 9), (7, 9)), ((20, 30), (13, 8)), ((3, 40), (5, 9)), ((64, 5), (9, 5))]


@pytest.mark.parametrize("mode", ["bilinear", "bicubic"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_interpolate_antialias_bit_for_bit(mode: str, dtype: str) -> None:
    # PyTorch's kernels reproduced bit for bit: the weights (the cubic filter's steps contracted into fmas), the
    # forward's sums (16-byte vector blocks of products, the left-over terms in fmas) and the backward's fma scatter
    import numpy as np
    from parity import torch_or_skip

    import minigrad
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    for (h, w), (oh, ow) in _AA_SIZES:
        for align_corners in (False, True):
            for by_scale in (False, True):
                data = rng.standard_normal((2, 3, h, w)).astype(dtype)
                grad = None
                results = []
                for lib in (minigrad, torch):
                    x = lib.tensor(data, requires_grad=True)
                    kw = dict(scale_factor=(oh / h, ow / w)) if by_scale else dict(size=(oh, ow))
                    y = lib.nn.functional.interpolate(x, mode=mode, align_corners=align_corners, antialias=True, **kw)
                    if grad is None:
                        grad = rng.standard_normal(tuple(y.shape)).astype(dtype)
                    y.backward(lib.tensor(grad))
                    results.append((y.detach().numpy(), x.grad.numpy()))
                (y_m, g_m), (y_t, g_t) = results
                case = (h, w, oh, ow, align_corners, by_scale)
                assert y_m.shape == y_t.shape and np.array_equal(y_m, y_t), case
                assert np.array_equal(g_m, g_t), case


# ---- the programs, run in both ----------------------------------------------------------------------------------

def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PRELUDE + PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
