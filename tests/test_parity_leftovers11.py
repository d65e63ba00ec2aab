"""Known differences from PyTorch left by earlier sessions, fixed in session 11; each program runs with minigrad and
with PyTorch (``parity.same_as_torch``) and must print the same.

1. Versions of gradients: PyTorch's engine adds a second gradient for the same input into the first in place
   (InputBuffer, without create_graph, when nothing else holds it: ``(a * a).sum().backward()`` leaves
   ``a.grad._version`` at 1), AccumulateGrad's copy of a gradient it cannot take is ``empty_strided().copy_()``
   (version 1: ``x.sum().backward()``), and it takes a view of a user's tensor as it is (``x.view(3).backward(v)``:
   ``x.grad`` shares ``v``'s memory and the next backward adds into ``v``).
2. Strides of empty tensors: from NumPy (0, 0), through views, clones, ``to`` and ``*_like``; mm's backward reads
   them (graph fuzzer seed 6302: another formula, so other nodes under create_graph).
3. Error order: a binary iterator op's ``out=`` cast check before its kernel's dtype error
   (``torch.atan2(f, c, out=f)``); torch.tensor's element order of conversion errors (``[nan, 2 ** 63]``).
4. create_graph through as_strided's backward (PyTorch's steps: zeros, copy_ or index_add_ through an as_strided
   view, division by the input's count, an as_strided view of the result) and through CopySlices (the gradient
   copied into a tensor laid out as the base, CopyBackwards; the view's region reached with as_strided).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS: dict[str, str] = {}

# ---- 1. versions of gradients ---------------------------------------------------------------------------------------
PROGRAMS["accumulation_versions"] = """
a = torch.ones(3, requires_grad=True); (a * a).sum().backward(); print(a.grad._version)
(a * a).sum().backward(); g = a.grad; (a * 3).sum().backward(); print(a.grad._version, g is a.grad)
a = torch.ones(3, requires_grad=True); (a * 2).sum().backward(); print(a.grad._version)
a = torch.ones(3, requires_grad=True); (a + a).sum().backward(); print(a.grad._version)
x = torch.ones(3, requires_grad=True); (x + 0).sum().backward(); print(x.grad._version)
x = torch.ones(3, requires_grad=True); (x.sum() + x.sum()).backward(); print(x.grad._version)
x = torch.ones(3, requires_grad=True); s = x.sum(); (s * s).backward(); print(x.grad._version)
x = torch.ones(3, requires_grad=True); (x * x * x).sum().backward(); print(x.grad._version)
x = torch.ones(3, requires_grad=True); (x.exp() + x.sin() + x.cos()).sum().backward(); print(x.grad._version)
x = torch.ones(3, requires_grad=True); (x[0] + x[1] + x).sum().backward(); print(x.grad._version)
x = torch.ones(3, dtype=torch.float16, requires_grad=True); (x * x).sum().backward(); print(x.grad._version)
x = torch.ones((), requires_grad=True); (x * x).backward(); print(x.grad._version)
x = torch.ones(2, 3, requires_grad=True); (x @ x.t()).sum().backward(); print(x.grad._version)
x = torch.ones(2, 3, requires_grad=True); (x.t() * x.t()).sum().backward(); print(x.grad._version, x.grad.stride())
x = torch.ones(3, requires_grad=True); torch.autograd.backward([(x * x).sum(), (x * 3).sum()]); print(x.grad._version)
x = torch.ones(3, requires_grad=True); (x.abs() * x.relu()).sum().backward(); print(x.grad._version)
w = torch.ones(3, 2).t().requires_grad_(); (w * w).sum().backward(); print(w.grad._version, w.grad.stride())
w = torch.ones(3, 4)[:, ::2].requires_grad_(); (w * w).sum().backward(); print(w.grad._version, w.grad.stride())
w = torch.ones(3, 4)[:, ::2].requires_grad_(); w.sum().backward(); print(w.grad._version, w.grad.stride())
"""

PROGRAMS["versions_create_graph_grad_hooks_retain_grad"] = """
a = torch.ones(3, requires_grad=True)
g, = torch.autograd.grad((a * a).sum(), a, create_graph=True); print(g._version, g.grad_fn.name())
(a * a).sum().backward(create_graph=True); print(a.grad._version)
(a * a).sum().backward(create_graph=True); print(a.grad._version)
x = torch.ones(3, requires_grad=True); g, = torch.autograd.grad((x * x).sum(), x); print(g._version)
x = torch.ones(3, requires_grad=True); g, = torch.autograd.grad((x * x + x).sum(), x); print(g._version)
x = torch.ones(3, requires_grad=True); y = x * 2; g, = torch.autograd.grad((y * y).sum(), y); print(g._version)
w = torch.ones(3, requires_grad=True)
g1, g2 = torch.autograd.grad((w * w).sum() + w.sum(), [w, w]); print(g1._version, g2._version, g1 is g2)
x = torch.ones(3, requires_grad=True); x.register_hook(lambda g: g * 2); (x * x).sum().backward()
print(x.grad._version)
kept = []
def keep(g):
    r = g * 2
    kept.append(r)
    return r
x = torch.ones(3, requires_grad=True); x.register_hook(keep); (x * x).sum().backward()
print(x.grad._version, x.grad is kept[-1])
x = torch.ones(3, requires_grad=True); y = x * 1; ks = []; y.register_hook(lambda g: ks.append(g))
(y * y).sum().backward(); print(x.grad._version, ks[0]._version)
x = torch.ones(3, requires_grad=True); y = x.clone(); ks = []; y.register_hook(lambda g: ks.append(g))
(y * y).sum().backward(retain_graph=True); print(x.grad._version, ks[0]._version, x.grad is ks[0])
(y * y).sum().backward(); print(x.grad._version, ks[0]._version, ks[1]._version)
x = torch.ones(3, requires_grad=True); y = x.clone(); y.retain_grad(); (y * y).sum().backward()
print(x.grad._version, y.grad._version)
(y * y * y).sum().backward(); print(x.grad._version, y.grad._version)
x = torch.ones(3, requires_grad=True); y = x * 1; y.retain_grad(); (y * y + y).sum().backward()
print(y.grad._version, x.grad._version)
"""

# max()/min()/median() over all elements: PyTorch's formula fills zeros in place (masked_fill_: version 1)
PROGRAMS["evenly_distributed_gradient_version"] = """
for f in [lambda x: x.max(), lambda x: x.min(), lambda x: x.median(), lambda x: x.nanmedian(),
          lambda x: x.max() * x.min(), lambda x: x.max() ** 2]:
    x = torch.tensor([[1., 3., 3.], [0., 2., 3.]], requires_grad=True)
    f(x).backward()
    print(x.grad, x.grad._version)
    x = torch.tensor([[1., 3., 3.], [0., 2., float('nan')]], dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(f(x), x, create_graph=True)
    print(g, g._version, g.grad_fn and g.grad_fn.name())
    if g.requires_grad:
        (g * g).sum().backward()
        print(x.grad)
"""

# PyTorch's AccumulateGrad counts the references to the gradient only: a view of the user's tensor is taken
PROGRAMS["gradients_shared_with_the_user"] = """
x = torch.ones(3, requires_grad=True); gg = torch.ones(3)
x.sum().backward(); x.backward(gg); print(x.grad._version, gg._version)
x = torch.ones(3, requires_grad=True); gg = torch.ones(3)
x.backward(gg); print(x.grad._version, gg._version, x.grad is gg); x.backward(gg); print(x.grad._version, gg._version)
x = torch.ones(3, requires_grad=True); x.backward(torch.ones(3)); print(x.grad._version)
x = torch.ones(3, requires_grad=True); y = x.clone(); gg = torch.ones(3); y.backward(gg); print(x.grad._version)
x = torch.ones(3, requires_grad=True); v = torch.full((3,), 2.)
g, = torch.autograd.grad(x.clone(), x, v); print(g is v, g.data_ptr() == v.data_ptr(), g._version)
g, = torch.autograd.grad(x * 1, x, v); print(g is v, g.data_ptr() == v.data_ptr(), g._version)
g, = torch.autograd.grad(x.view(3), x, v); print(g is v, g.data_ptr() == v.data_ptr(), g._version, g._base is v)
x.view(3).backward(v); print(x.grad.data_ptr() == v.data_ptr(), x.grad._version)
x.view(3).backward(v); print(x.grad.data_ptr() == v.data_ptr(), x.grad._version, v._version, v)
x = torch.ones(3, requires_grad=True); v = torch.full((3,), 2.)
x[None].backward(v[None]); print(x.grad.data_ptr() == v.data_ptr(), x.grad._version, x.grad._base is None)
x = torch.ones(2, 3, requires_grad=True); v = torch.full((3, 2), 2.)
x.t().backward(v); print(x.grad.data_ptr() == v.data_ptr(), x.grad._version, x.grad.stride())
import numpy as np
xn = np.random.default_rng(1).standard_normal((2, 4, 3)).astype(np.float32)
for shape in [(3,), (1, 3), (4, 1), (2, 1, 3), (4, 3), ()]:
    b = torch.zeros(shape, requires_grad=True)
    ((torch.tensor(xn) + b).tanh()).sum().backward()
    print(shape, b.grad._version, b.grad.stride(), b.grad._base is None)
"""

# ---- 2. strides of empty tensors ------------------------------------------------------------------------------------
PROGRAMS["empty_tensor_strides"] = """
import numpy as np
z = np.zeros((1, 0))
t = torch.tensor(z, dtype=torch.float32)
print(t.stride(), torch.from_numpy(z).stride(), torch.from_numpy(np.zeros((2, 0, 3))).stride())
print(torch.tensor([]).stride(), torch.tensor([[], []]).stride(), torch.tensor(np.zeros((0, 3))).stride())
print(torch.as_tensor(np.zeros((0, 3))).stride(), torch.asarray(z).stride())
print(torch.zeros((0, 3)).stride(), torch.zeros(2, 0, 3).stride(), torch.ones(3, 0).stride())
e = torch.zeros(2, 0, 3)
print(e.transpose(0, 2).stride(), e.view(0, 3).stride(), e.reshape(3, 0).stride(), e[1:].stride(),
      e.permute(2, 0, 1).stride(), e.unsqueeze(1).stride(), e.flatten().stride(), e[:, :, ::2].stride())
print((e + 1).stride(), e.transpose(0, 2).exp().stride(), e.sum(0).stride(), e.clone().stride(),
      e.transpose(0, 2).clone().stride(), e.transpose(0, 2).contiguous().stride())
print((t + 1).stride(), t.mT.stride(), (t @ t.mT).stride(), t.clone().stride(), t.exp().stride(),
      t.contiguous().stride(), t.sum(0).stride(), t.view(0).stride(), t.T.stride(), t[0].stride())
x = e.unsqueeze(1).expand(2, 4, 0, 3)
print(x.stride(), x.clone().stride(), e.transpose(0, 2).to(torch.float64).stride(), t.double().stride())
print(t.detach().stride(), t.data.stride(), e.transpose(0, 2).clone(memory_format=torch.contiguous_format).stride())
print(torch.zeros_like(t).stride(), torch.ones_like(e.transpose(0, 2)).stride(), torch.full_like(t, 2).stride())
print(torch.zeros_like(t, memory_format=torch.contiguous_format).stride(), t.new_zeros(2, 0).stride())
for e in [torch.zeros(2, 0, 3), torch.from_numpy(np.zeros((2, 0, 3))), torch.zeros(3, 0, 4).transpose(0, 2)]:
    print([v.stride() for v in [e.view_as(e), e.as_strided((2, 0), (5, 7)), e.unsqueeze(-1),
                                e[None, ..., None].squeeze(), e.select(-1, 1), e.narrow(-1, 1, 2),
                                e.expand(5, *e.shape), e.movedim(0, -1), e.unbind(-1)[1], e.split(2, -1)[1],
                                e.unfold(-1, 2, 1), e.diagonal(0, 0, -1), e[...], e.flatten(0, 1), e.mT, e.real,
                                e.unflatten(-1, (1, -1))]])
"""

# fixed: graph fuzzer seed 6302 (mm's backward takes a (1, 0) input with strides (1, 1) for column-major)
PROGRAMS["empty_from_numpy_mm_double_backward"] = """
import numpy as np
a = torch.tensor(np.zeros((1, 0)), dtype=torch.float32, requires_grad=True)
v0 = a @ a.mT
g, = torch.autograd.grad(torch.mul(a, v0).sum(), [a], create_graph=True)
seen, stack, names = set(), [g.grad_fn], []
while stack:
    fn = stack.pop()
    if fn is None or fn in seen:
        continue
    seen.add(fn)
    names.append(fn.name())
    stack.extend(n for n, _ in fn.next_functions)
print(g.stride(), names)
(g * g).sum().backward()
print(a.grad, a.grad.stride())
for shape in [(1, 0), (0, 3), (2, 0, 3)]:   # (.grad of an empty leaf: laid out as the leaf, a copy when it was not)
    for a in [torch.tensor(np.zeros(shape), requires_grad=True), torch.zeros(shape).transpose(0, -1).requires_grad_(),
              torch.zeros(shape, requires_grad=True)]:
        (a * 2).sum().backward()
        print(a.grad.stride(), a.grad._version)
"""

# ---- 3. error order -------------------------------------------------------------------------------------------------
PROGRAMS["binary_out_cast_before_kernel_dtype"] = """
f = torch.ones(3); c = torch.ones(3, dtype=torch.complex64); i = torch.ones(3, dtype=torch.int64)
b = torch.ones(3, dtype=torch.bool)
for name in ["atan2", "arctan2", "hypot", "fmod", "remainder", "copysign", "logaddexp", "logaddexp2", "nextafter",
             "xlogy", "igamma", "igammac", "floor_divide", "ldexp", "maximum", "fmax", "float_power"]:
    fn = getattr(torch, name)
    print(name)
    E(lambda: fn(f, c, out=f))
    E(lambda: fn(c, c, out=i))
    E(lambda: fn(i, c, out=b))
    E(lambda: fn(f, c, out=torch.ones(2)))
    E(lambda: fn(f, torch.ones(2, dtype=torch.complex64), out=f))
    E(lambda: fn(i, i, out=b))
    E(lambda: print(fn(f, f.double(), out=f)))
"""

PROGRAMS["tensor_conversion_error_order"] = """
for values, dtype in [([float('nan'), 2 ** 63], torch.int64), ([2 ** 63, float('nan')], torch.int64),
                      ([float('inf'), 2 ** 63], torch.int64), ([[float('nan')], [2 ** 64]], torch.int64),
                      ([1.5, float('nan'), 2 ** 63], torch.int32), ([float('nan'), 2 ** 63], torch.uint8),
                      ([float('nan'), -2 ** 63 - 1], torch.int64), ([300, 2 ** 63], torch.uint8),
                      ([-300, 2 ** 63], torch.uint8), ([(1, 2 ** 70), (float('nan'), 3)], torch.int16),
                      ([float('nan'), 2 ** 63], torch.bool), ([float('nan'), 3], torch.int64),
                      ([True, 2 ** 63], torch.int64), ([1e30, 2 ** 63], torch.int64)]:
    E(lambda: print(torch.tensor(values, dtype=dtype)))
"""


# ---- 4. create_graph through as_strided and CopySlices ---------------------------------------------------------------
_NAMES = """
def names(fn):
    seen, out, stack = set(), [], [fn]
    while stack:
        f = stack.pop()
        if f is None or f in seen:
            continue
        seen.add(f)
        out.append(f.name())
        stack.extend(n for n, _ in f.next_functions)
    return out
def run(build):
    x = torch.linspace(-1, 1, 12, dtype=torch.float64).reshape(4, 3).requires_grad_()
    y = build(x)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g._version, g._is_view(), g.stride(), g.requires_grad and names(g.grad_fn))
    if g.requires_grad:   # (not when the view is empty: zeros)
        (g * g).sum().backward()
        print(x.grad)
"""

# fixed: minigrad's double backward of as_strided was one AsStridedBackwardBackward0 op (graph fuzzer seed 677's entry)
PROGRAMS["as_strided_backward_under_create_graph"] = _NAMES + """
run(lambda x: (x * 1).as_strided((3, 3), (3, 1), 2))
run(lambda x: (x * 1).as_strided((2, 5), (1, 2)))                 # (the view's elements overlap: index_add_)
run(lambda x: (x * 1).as_strided((2, 2), (1, 3), 1))
run(lambda x: (x * 1).as_strided((2, 2), (0, 3), 1))               # (a stride-0 dim: summed first)
run(lambda x: (x * 1).as_strided((2, 1, 2), (1, 5, 3)))            # (a size-1 dim: squeezed)
run(lambda x: (x * 1).expand(2, 4, 3).as_strided((3, 2), (1, 0)))  # (the input overlaps: divided by the count)
run(lambda x: (x * 1).as_strided((0, 2), (1, 1)))
def view_then_inplace(x):
    y = (x * 1).t()
    z = y[1]
    y.mul_(2)
    return z * 3                                                     # (z's regenerated AsStridedBackward0)
run(view_then_inplace)
x = torch.ones(2, 4, requires_grad=True)
v = x.clone().as_strided_((3, 2), (1, 2))
g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
print(names(g.grad_fn), g)
"""

# fixed: minigrad's CopySlices cloned the gradient and replayed the view ops (graph fuzzer seed 67's entry)
PROGRAMS["copy_slices_under_create_graph"] = _NAMES + """
def b1(x): y = x * 1; y[1:, ::2].mul_(x[:3, :2]); return y
def b2(x): y = x * 1; y.t()[0].add_(x[:, 0].exp()); return y
def b3(x): y = x * 1; v = y.view(12)[2:8]; v.mul_(3); return y
def b4(x): y = x * 1; y.diagonal().mul_(2); return y
def b5(x): y = x * 1; y[0].copy_(x[1] * 2); return y
def b6(x): y = x * 1; y[:, 1].zero_(); return y
def b7(x): y = x * 1; y[2].sin_(); y[:, 0].mul_(y[:, 2]); return y
def b8(x): y = x * 1; v = y.view(2, 6).t()[1:]; v.mul_(x.view(12)[:10].view(5, 2)); return y
for b in [b1, b2, b3, b4, b5, b6, b7, b8]:
    E(lambda: run(b))   # (b7: y[:, 2], saved by mul_, was changed by sin_: both refuse it)
x = torch.ones(3, requires_grad=True); y = x.clone(); y[0:2].mul_(2); y.sum().backward(); print(x.grad._version)
x = torch.ones(4, requires_grad=True); y = x * 1; y.view(2, 2)[0].mul_(x[:2]); (y * y).sum().backward()
print(x.grad, x.grad._version)
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_leftover_matches_torch(name: str) -> None:
    same_as_torch(PROGRAMS[name])
