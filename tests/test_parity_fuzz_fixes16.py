"""Regressions of differences the graph fuzzers (tests/fuzz_graphs.py: tensor family ``_Gen.s14``, nn family) found
in session 16.

Each program prints what a user sees (values, layouts, storage offsets, saved attributes, errors, warnings) and runs
once with minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that
found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: a 1-norm over a dim of a float tensor returned a column of the running sums' buffer (a view at offset
    # 36 of 48 floats), so views of it had the wrong storage_offset (AsStridedBackward0._saved_storage_offset 37 vs
    # PyTorch's 1 after an in-place write through diagonal().select(), seed 182285)
    "norm1_result_owns_its_storage": """
a = torch.arange(48., dtype=torch.float32).reshape(4, 3, 4)
for x in (a, a.permute(2, 0, 1), a[:, 1:].double()):
    for r in (x.norm(1, 0, keepdim=True), torch.linalg.vector_norm(x, 1, (0, 2)), torch.dist(x, 2 * x, 1)):
        d = r.diagonal(-1, -1, -2).storage_offset() if r.ndim > 1 else 0
        print(r.storage_offset(), r.untyped_storage().nbytes(), d)
b = a.clone().requires_grad_()
v = b.norm(1, 0, keepdim=True)
w = v.diagonal(-1, 2, 1).select(-2, 0)
w.zero_()
print(w.grad_fn.name(), w.grad_fn._saved_storage_offset, w.grad_fn._saved_size, w.grad_fn._saved_stride)
""",
    # fixed: PyTorch's Error node (once_differentiable's, or a formula's "Double backward is unsupported") reports
    # sequence number UINT64_MAX and so runs, and raises, as soon as it is ready: the nodes still queued keep their
    # saved tensors and leaves get no gradient (minigrad ran the newer ExpBackward0 first and freed its result, seed
    # 182550)
    "error_node_runs_first": """
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
x = torch.tensor([0.5, 1.5], requires_grad=True)
g, = torch.autograd.grad(Cube.apply(x).exp().sum(), x, create_graph=True)
err = g.grad_fn
print(err.name(), err._sequence_nr(), err.next_functions)
h = x.exp()
E(lambda: (g + h).sum().backward())
E(lambda: h.grad_fn._saved_result)
print(x.grad)
src = torch.tensor([0., 0., 2.], requires_grad=True)
r = torch.tensor([1., 2., 3.]).scatter_reduce(0, torch.tensor([0, 0, 1]), src, 'prod')
gs, = torch.autograd.grad(r.sum(), src, create_graph=True)
print(gs.grad_fn.name(), gs.grad_fn._sequence_nr())
""",
    # fixed: mean(x, dim, out=o) with an integer/bool o of a float x (or a real o of a complex x): PyTorch resizes o
    # (warning), sums x cast to o's dtype into it, then refuses the true division ("result type Float can't be
    # cast"; o keeps the sums, its version unchanged); a real o of a complex x gets the real parts' mean; without dim
    # (mean.dtype_out) can_cast is checked first (seed 182813)
    "mean_out_of_lower_kind": """
import warnings
a = torch.tensor([[0.3, 1.7, 2.9], [4.1, 5.2, 6.3]])
for x, dt in ((a, torch.int32), (a, torch.bool), (a.double(), torch.int64), (a.half(), torch.int32),
              (a * (1 + 1j), torch.int32), (a * (1 - 2j), torch.float32)):
    for call in (lambda o: torch.mean(x, -1, out=o), lambda o: torch.mean(x, (), out=o), lambda o: torch.mean(x, out=o),
                 lambda o: torch.mean(input=x, dim=0, keepdim=True, out=o),
                 lambda o: torch.mean(x, dtype=torch.float64, out=o), lambda o: torch.mean(x, 5, out=o)):
        o = torch.zeros(3, dtype=dt)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            E(lambda: call(o))
        print(o.shape, o, o._version, [str(m.message)[:60] for m in w if "resized" in str(m.message)])
o = torch.zeros(2, dtype=torch.float64)
print(torch.mean(input=a, dim=1, out=o), o._version)
""",
    # fixed: group norm's backward without create_graph is PyTorch's native_group_norm_backward kernel, bit for bit
    # (float32/float64, NCHW): the per-channel sums Σdy·x and Σdy, c2/c3 with the fused multiply-adds; the
    # differentiable formula (still used under create_graph) cancels differently, and a conv weight's gradient
    # through it moved by 1e-6 (nn seed 174159)
    "group_norm_backward_kernel_bits": """
torch.manual_seed(0)
for dtype in (torch.float32, torch.float64):
    for shape, groups, affine in (((2, 1, 4), 1, True), ((2, 16, 9), 2, True), ((3, 6, 2, 3), 3, False),
                                  ((1, 24, 20), 4, True), ((2, 9, 17), 3, False), ((2, 64, 2), 2, True)):
        x = torch.randn(shape, dtype=dtype).requires_grad_()
        gn = torch.nn.GroupNorm(groups, shape[1], affine=affine).to(dtype)
        if affine:
            with torch.no_grad():
                gn.weight.normal_()
                gn.bias.normal_()
        (gn(x) * torch.randn(shape, dtype=dtype)).sum().backward()
        print(x.grad.flatten()[:12].tolist(), x.grad.stride(), [p.grad.tolist() for p in gn.parameters()])
h = torch.tensor([[[-0.1305, -0.1834]], [[0.2147, -0.0722]]], requires_grad=True)   # (a conv's output)
torch.manual_seed(54)
net = torch.nn.Sequential(torch.nn.GroupNorm(1, 1), torch.nn.GELU(), torch.nn.Flatten(), torch.nn.Linear(2, 3))
(net(h) ** 2).mean().backward()
print(h.grad.tolist(), h.grad.sum().item(), [p.grad.tolist() for p in net.parameters()])
""",
    # fixed: xlog1py's gradient for x is at::xlog1py(grad, y) promoted as the function: under create_graph its node
    # saves an integer y as it is (minigrad cast it to grad's dtype first; seed 182628)
    "xlog1py_double_backward_saves_other_as_is": """
b = torch.tensor([0.5, 0.0, 1.5], dtype=torch.float64, requires_grad=True)
for y in (torch.tensor([2, -1, 0]), torch.tensor([0.25, -1.0, 3.0], dtype=torch.float32),
          torch.tensor([True, False, True])):
    g, = torch.autograd.grad(torch.special.xlog1py(b, y).pow(2).sum(), b, create_graph=True)
    nodes, queue = [], [g.grad_fn]
    while queue:
        n = queue.pop(0)
        if n is not None and n not in nodes:
            nodes.append(n)
            queue += [m for m, _ in n.next_functions]
    print(g, [(n.name(), n._saved_other.dtype) for n in nodes if n.name() == "SpecialXlog1PyBackward0"])
    g2, = torch.autograd.grad(g.sum(), b, allow_unused=True, materialize_grads=True)
    print(g2)
""",
    # fixed: gradients summed in the engine's buffers and into a complex leaf's .grad use PyTorch's add_, which
    # multiplies the new gradient by alpha = 1 + 0j first: (-inf - inf j) + (-inf - inf j) is NaN + NaN j, not
    # -inf - inf j (minigrad added the NumPy arrays; seed 183413)
    "complex_gradient_sums_as_add_": """
inf = float("inf")
a = torch.tensor(3.64, requires_grad=True)
v9 = torch.complex(a, a * 0.5)
(v9 * v9.conj()).real.backward(torch.tensor(-inf))
print(a.grad)
z = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
g = torch.tensor([complex(-inf, -inf), complex(-inf, -1)])
z.backward(g)
z.backward(g)
print(z.grad, z.grad._version)
w = torch.tensor([0.5 + 1j, 2 - 1j], requires_grad=True)
(w * w).sum().abs().backward()
(w * w).sum().abs().backward()
print(w.grad, w.grad._version)
""",
    # fixed: a second retain_grad() returns before reading grad_fn, as PyTorch's: a view changed in place since keeps
    # its node unregenerated until an op uses it (then numbered after that op's node), which orders the engine's walk
    # and the operands of the gradient sums under create_graph (AddBackward0's edges swapped, seed 183407)
    "second_retain_grad_keeps_view_node_lazy": """
for variant in range(4):
    d = torch.tensor([[0.1, 0.2, 0.3]], dtype=torch.float64, requires_grad=True)
    v8 = d * 1
    v9 = v8.narrow(0, 0, 1)
    if variant in (1, 3):
        v9.retain_grad()
    v8.add_(1)
    base = v8.grad_fn._sequence_nr()
    if variant in (2, 3):
        v9.retain_grad()
    s = v8.sum()
    w = v9.sin()
    print(variant, v9.grad_fn._sequence_nr() - base, s.grad_fn._sequence_nr() - base, w._version)
    g, = torch.autograd.grad((s * 2 + w.sum()) * d.sum(), d, create_graph=True)
    nodes, queue = [], [g.grad_fn]
    while queue:
        n = queue.pop(0)
        if n is not None and n not in nodes:
            nodes.append(n)
            queue += [m for m, _ in n.next_functions]
    print([(n.name(), [None if m is None else m.name() for m, _ in n.next_functions]) for n in nodes[:8]])
    (s + w.sum()).backward()
    print(v9.grad, d.grad)
""",
    # fixed: complex z ** p for p in (0.5, -0.5, -1, 2, 3, -2) uses PyTorch's kernels (sqrt, rsqrt, reciprocal; z·z,
    # z·z·z, 1/(z·z) with complex64's plain vector blocks and fused tail) instead of NumPy's power: last bits, and
    # sqrt(inf + inf j) = inf + inf j (was inf + nan j; seed 183579)
    "complex_pow_special_exponents": """
import numpy as np
rng = np.random.default_rng(0)
inf = float("inf")
values = list(rng.standard_normal(37) * 30 + 1j * rng.standard_normal(37) * 30) + [complex(inf, inf), complex(-4, 0)]
for dtype in (torch.complex64, torch.complex128):
    z = torch.tensor(values, dtype=dtype)
    for p in (0.5, -0.5, -1, 2, -2):
        print(dtype, p, [str(v) for v in (z ** p).tolist()], [str(v) for v in (z[::3] ** p).tolist()])
""",
    # fixed: matmul(out=) of another dtype on a batched or a 1-d · 1-d product: PyTorch resizes out to the result
    # (warning) before its bmm / addmv / dot kernel refuses the dtype, each with its own message (seed 183695)
    "matmul_out_other_dtype_resized_first": """
import warnings
for sa, sb in (((2, 1, 3), (2, 3, 1)), ((2, 1, 3), (3, 1)), ((3,), (2, 3, 1)), ((2, 1, 3), (3,)), ((2, 3), (3, 2)),
               ((2, 3), (3,)), ((2, 2, 1, 3), (3, 1)), ((3,), (3,))):
    for dtype in (torch.float16, torch.float64):
        out = torch.zeros(5, dtype=dtype)
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            E(lambda: torch.matmul(torch.ones(sa), torch.ones(sb), out=out))
        print(sa, sb, tuple(out.shape), out._version, [str(m.message)[:50] for m in w])
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
