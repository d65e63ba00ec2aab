"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family) found in session 10.

Each program prints what a user sees (values, strides, graph node names, errors) and runs once with minigrad and
once with PyTorch (``parity.same_as_torch``); each is a short explicit form of the fuzz seed that found the bug.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

# A helper every program may use: the node names of a graph, depth first.
WALK = """
def walk(n, out=None, depth=0):
    out = [] if out is None else out
    if n is not None and depth < 10:
        out.append(type(n).__name__)
        for m, _ in n.next_functions:
            walk(m, out, depth + 1)
    return out
"""

PROGRAMS = {
    # fixed: renorm's output is contiguous whatever the input's layout (PyTorch allocates it, no TensorIterator);
    # minigrad kept a transposed input's strides (seeds 1687, 2454)
    "renorm_contiguous_output": """
a = torch.arange(12.).reshape(3, 4)
x = torch.arange(27.).reshape(3, 3, 3).permute(1, 0, 2)
print(a.mT.renorm(3, 1, 5.0).stride(), x.renorm(3, -3, 0.5).stride(), x.renorm(2, 2, 1.0).stride())
y = a.clone().requires_grad_().mT
print(y.renorm(3, 1, 5.0).norm(0.5, 1).grad_fn._saved_self.stride())
""",
    # fixed: polar's (and complex's) output takes TensorIterator's layout from its inputs; minigrad's polar was
    # always C order (seed 2216)
    "polar_layout": """
y = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75], [3.0, 1.0, -2.0]], dtype=torch.float64).t()
print(torch.polar(y.abs(), y).stride(), torch.complex(y, y).stride(), torch.polar(y.abs(), y.contiguous()).stride())
r = y.abs().requires_grad_()
print(torch.polar(r, y).grad_fn._saved_result.stride())
""",
    # fixed: expand's new leading dims of size 1 get size*stride of the dim after them (PyTorch's
    # inferExpandGeometry), NumPy's broadcast gave 0; a view changed in place is then replayed as an
    # AsStridedBackward0 whose _saved_stride shows them (seed 8511)
    "expand_leading_size1_strides": """
x = torch.arange(3.)
y = torch.arange(12.).reshape(4, 3)[:, :1]
print(x.expand(1, 3).stride(), x.expand(1, 1, 3).stride(), x.expand(2, 1, 3).stride(), x.expand(1, 2, 3).stride())
print(y.expand(1, 4, 1).stride(), y.expand(1, 4, 5).stride(), y.expand(2, 1, 4, 1).stride())
print(torch.tensor(1.).expand(1, 1).stride(), x.expand_as(torch.zeros(1, 3)).stride(),
      torch.broadcast_to(x, (1, 3)).stride(), torch.broadcast_tensors(x, torch.zeros(1, 3))[0].stride())
c = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
v0 = c.logcumsumexp(0)
v1 = v0.expand(1, 3)
v0.mul_(2)
print(type(v1.grad_fn).__name__, v1.grad_fn._saved_size, v1.grad_fn._saved_stride)
""",
    # fixed: cat of real and complex tensors under create_graph: PyTorch's cat_tensors_backward takes the real part
    # of the whole gradient once (Select/ViewAsReal nodes) and slices it; minigrad sliced first and let the engine
    # take each real part (seeds 4274, 11028, 21037); block_diag's backward does the same
    "cat_real_complex_double_backward": """
a = torch.tensor([1., 2.], requires_grad=True)
b = torch.tensor([1 + 1j, 2 - 1j], dtype=torch.complex128, requires_grad=True)
c = torch.tensor([3., 4.], dtype=torch.float64, requires_grad=True)
for xs in ([a, b], [b, a, c], [a, c]):
    y = torch.cat(xs)
    G = torch.autograd.grad((y * y).abs().sum(), xs, create_graph=True)
    print([(g.dtype, walk(g.grad_fn)[:6]) for g in G])
x = torch.tensor([1., 2.], requires_grad=True)
z = torch.tensor([[1 + 1j]], requires_grad=True)
G = torch.autograd.grad((torch.block_diag(x, z) ** 2).abs().sum(), [x, z], create_graph=True)
print([(g.dtype, walk(g.grad_fn)[:6]) for g in G])
""",
    # fixed: cat's gradient of an empty 1-D input is zeros without a graph even when the result is 1-D (PyTorch's
    # legacy rule); minigrad sliced the gradient there (seed 40280)
    "cat_empty_1d_input_gradient": """
x = torch.zeros(0, requires_grad=True)
y = torch.ones(3, requires_grad=True)
d = torch.zeros(0, dtype=torch.float64, requires_grad=True)
c = torch.zeros(0, dtype=torch.complex64, requires_grad=True)
G = torch.autograd.grad((torch.cat([x, y]) ** 2).sum(), [x, y], create_graph=True)
print([(g.shape, g.requires_grad, walk(g.grad_fn)) for g in G])
G = torch.autograd.grad((torch.cat([x, x]) ** 2).sum(), [x], create_graph=True, allow_unused=True)
print([(g.shape, g.requires_grad) for g in G])
G = torch.autograd.grad(torch.hstack((d, c)).abs().sum(), [c, d], create_graph=True)
print([(g.dtype, g.shape, g.requires_grad) for g in G])
""",
    # fixed: multi_dot of 4+ matrices: PyTorch's chain recursion evaluates at::mm's right argument first (C++
    # argument order), which numbers the nodes and so orders a create_graph backward's sums (seeds 12193, 41087)
    "multi_dot_chain_order": """
d = torch.tensor([[1.5, -2.0, 0.5]], requires_grad=True)
for mats in ([d, d.mT, d, d.mT], [d.mT, d, d.mT, d], [d, d.mT, d, d.mT, d, d.mT]):
    v0 = torch.linalg.multi_dot(mats)
    G = torch.autograd.grad(v0.sum(), [d], create_graph=True)
    print(walk(G[0].grad_fn))
    mm = v0.grad_fn.next_functions[0][0] if type(v0.grad_fn).__name__ != "MmBackward0" else v0.grad_fn
    print([n._sequence_nr() - mm._sequence_nr() for n, _ in mm.next_functions if type(n).__name__ == "MmBackward0"])
""",
    # fixed: an in-place rounding (frac_, floor_, round_ ...) into an expanded tensor is refused for its overlap
    # before its dtype (TensorIterator is built first); floor/ceil/trunc refuse complex inputs before that (seed 50807)
    "inplace_rounding_expanded_error_order": """
for dt in (torch.complex64, torch.float32, torch.int64):
    x = torch.ones(3, dtype=dt).expand(2, 3)
    for name in ("frac_", "floor_", "ceil_", "trunc_", "round_"):
        E(lambda: print(getattr(x, name)()))
""",
    # fixed: block_diag puts a 1-D empty tensor as a 1x0 block: it takes a row (its backward, as PyTorch's, does not
    # skip it) (seed 51377)
    "block_diag_empty_vector_row": """
cases = [(torch.empty(0), torch.tensor(5.)), (torch.empty(0), 2 * torch.ones(2, 2)),
         (torch.ones(1), torch.empty(0), torch.tensor(3.)), (torch.tensor(3.), torch.empty(0), torch.ones(2)),
         (torch.empty(0), torch.empty(0))]
for c in cases:
    print(torch.block_diag(*c).tolist())
x = torch.empty(0, requires_grad=True)
y = torch.tensor(2., requires_grad=True)
r = torch.block_diag(x, y, torch.ones(1, 2))
r.backward(torch.arange(9.).reshape(3, 3))
print(x.grad, y.grad)
""",
    # fixed: where(cond, tensor, number): ATen casts the tensor to the result type first, so a complex number
    # makes a ToCopyBackward0 before the WhereBackward0 (seed 433)
    "where_scalar_casts_tensor": """
b = torch.tensor([1., -2., 3.], dtype=torch.float64, requires_grad=True)
f = torch.tensor([1., -2., 3.], requires_grad=True)
for y in (torch.where(b > 0, 1j, b), torch.where(b > 0, b, 1j), torch.where(b > 0, 2.5, f),
          torch.where(b > 0, f, torch.tensor(1.0, dtype=torch.float64)), torch.where(b > 0, f, b),
          torch.where(b > 0, b, True), torch.where(b > 0, f, 2), b.where(b > 0, 0.5j)):
    print(y.dtype, walk(y.grad_fn))
""",
    # fixed: NaN or inf cast to an integer dtype (x.long()): PyTorch gives its value without a warning, NumPy's
    # cast warned "invalid value encountered in cast" (seed 21)
    "nan_to_integer_no_warning": """
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    x = torch.tensor([float('inf'), 1.0, -2.5])
    print(x.long()[1:].tolist(), x.to(torch.int32)[1:].tolist(), x.bool().tolist(), x.div(0).long()[1:].tolist())
print(len(w))
""",
    # fixed: var_mean / std_mean's mean of a transposed input with keepdim: a contiguous output in PyTorch, NumPy's
    # mean kept the input's layout (seed 183)
    "var_mean_mean_contiguous": """
v2 = torch.arange(64., dtype=torch.float64).reshape(4, 4, 4).mT
print(torch.var_mean(v2, -3, keepdim=True)[1].stride(), torch.std_mean(v2, -3, keepdim=True)[1].stride(),
      torch.var_mean(v2, -3)[1].stride(), torch.var_mean(v2, (0, 1))[1].stride(), torch.var_mean(v2)[1].shape)
a = torch.tensor([1.5, -2.0], dtype=torch.float64)
print(torch.std_mean(a, None, correction=0, keepdim=True)[1].shape)
print(torch.var_mean(torch.tensor(2.0), correction=0)[1].shape)
""",
    # fixed: amin, aminmax and the p-norms of a permuted input: C-order results (PyTorch's reductions allocate their
    # output), NumPy's followed the input's layout (seeds 1239, 4795)
    "reductions_of_permuted_input_contiguous": """
x = torch.arange(27., dtype=torch.float64).reshape(3, 3, 3).permute(2, 1, 0)
print(x.amin(0).stride(), x.amin(0, keepdim=True).stride(), torch.aminmax(x, dim=0)[0].stride(),
      torch.aminmax(x, dim=1, keepdim=True)[1].stride(), x.norm(2, 0).stride())
print(torch.linalg.vector_norm(x, 3, 0).stride(), torch.linalg.vector_norm(x, float('inf'), 1).stride())
y = x.clone().requires_grad_()
print(y.permute(2, 1, 0).amin(0).grad_fn._saved_result.stride())
""",
    # fixed: an in-place binary op whose promoted result type cannot be cast into the tensor written: PyTorch's
    # "result type ... can't be cast" comes before the kernel's "not implemented for 'ComplexFloat'" (seed 2751)
    "inplace_cast_error_before_kernel_error": """
f = torch.ones(3)
c = torch.ones(3, dtype=torch.complex64)
i = torch.ones(3, dtype=torch.int64)
E(lambda: f.clone().atan2_(c))
E(lambda: f.clone().hypot_(c))
E(lambda: f.clone().fmod_(c))
E(lambda: f.clone().remainder_(c))
E(lambda: f.clone().xlogy_(c))
E(lambda: f.clone().div_(c, rounding_mode='floor'))
E(lambda: i.clone().fmod_(f))
E(lambda: i.clone().div_(f, rounding_mode='floor'))
E(lambda: torch.ones(3).atan2_(torch.ones(2, 3, dtype=torch.complex64)))
E(lambda: c.clone().atan2_(f))
""",
    # fixed: torch.put of a transposed tensor keeps its layout (clone(preserve_format).put_) (seeds 5479, 8446)
    "put_keeps_layout": """
x = torch.arange(6., dtype=torch.float64).reshape(3, 2).t()
y = torch.put(x, torch.tensor([0, 4]), torch.tensor([10., 20.], dtype=torch.float64))
print(y.stride(), y.tolist())
z = torch.arange(32.).reshape(2, 4, 4).transpose(2, -3)
print(torch.put(z, torch.tensor([1, 5]), torch.tensor([-1., -2.]), accumulate=True).stride())
""",
    # fixed: cdist with p=inf skips NaN differences (PyTorch's std::max from 0), minigrad's max gave NaN (seed 6982)
    "cdist_inf_nan": """
a = torch.tensor([[float('nan'), 1.0], [2.0, float('nan')], [0.5, -1.0]], dtype=torch.float64, requires_grad=True)
b = torch.tensor([[1.0, 2.0], [-1.0, 0.5]], dtype=torch.float64, requires_grad=True)
d = torch.cdist(a, b, p=float('inf'))
print(d.tolist())
d.sum().backward()
print(a.grad.tolist(), b.grad.tolist())
""",
    # fixed: renorm with p=inf on a tensor empty along a reduced dim: linalg.vector_norm's error, not NumPy's
    # ValueError (seed 7558)
    "renorm_inf_empty_dim": """
for shape, dim in [((2, 0, 3), 0), ((2, 0, 3), -3), ((2, 3, 0), 0), ((0, 3, 2), 0), ((0, 3, 2), 1), ((2, 0), 1)]:
    E(lambda: print(torch.ones(shape).renorm(float('inf'), dim, 5.0).shape))
print(torch.ones(2, 0, 3).renorm(2, 0, 5.0).shape)
""",
    # fixed: maximum/minimum's gradient: PyTorch's formula fills in place (where(...).masked_fill_), so it keeps
    # where's layout; minigrad's out-of-place masked_fill made it C order (seed 3354)
    "maximum_backward_layout": """
y = torch.arange(9.).reshape(3, 3).t().requires_grad_()
i = torch.tensor([1, 2, 3])
gt = torch.zeros(3, 3).t()
for z in (torch.maximum(y, i), torch.minimum(y, i.float()), torch.maximum(i.float(), y)):
    g, = torch.autograd.grad(z, y, gt, create_graph=True)
    print(g.stride(), walk(g.grad_fn)[:4])
""",
    # fixed: pad with no positive amount is narrow + clone() in PyTorch: the input's layout is kept (seed 70692)
    "pad_nonpositive_keeps_layout": """
x = torch.arange(24.).reshape(2, 3, 4).transpose(0, 2)
for pad in [(0, 0), (-1, 0), (0, -1, -1, 0), (1, 0), (0, 0, 0, 0, 0, 0)]:
    y = torch.nn.functional.pad(x, pad, 'constant', 0.5)
    print(pad, y.shape, y.stride(), y.sum().item())
""",
    # fixed: x ** 0's gradient is zeros_like(x, LEGACY_CONTIGUOUS_MEMORY_FORMAT) in PyTorch: C order whatever x's
    # layout (minigrad's kept a rotated x's strides, and rot90's backward then transposed them) (seed 90459)
    "pow_zero_gradient_contiguous": """
a = torch.arange(12., dtype=torch.float64).reshape(3, 4).requires_grad_()
v1 = torch.rot90(a, 3, (0, -1))
for e in (0, 0.0):
    G = torch.autograd.grad((v1 ** e).sum(), [a, v1], create_graph=True)
    print([(g.stride(), g.grad_fn) for g in G])
""",
    # fixed: take_along_dim of a 0-dim input: the dims-count error comes before the dim's own errors (seed 90538)
    "take_along_dim_0dim_error_order": """
x = torch.tensor(1.5)
for idx, dim in [(torch.zeros(2, 2, dtype=torch.long), -2), (torch.zeros(2, 2, dtype=torch.long), 0),
                 (torch.tensor(0), 0), (torch.tensor(0), -2), (torch.zeros(1, dtype=torch.long), 3)]:
    E(lambda: print(torch.take_along_dim(x, idx, dim)))
E(lambda: print(torch.take_along_dim(torch.ones(2, 3), torch.zeros(2, dtype=torch.long), 5)))
""",
    # fixed: torch.dist of a complex and a real tensor: PyTorch's formula hands the real input a complex gradient
    # (no handle_r_to_c) and its engine refuses it; minigrad's engine took the real part (seeds 100694, 100788)
    "dist_complex_real_backward_error": """
c = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
b = torch.tensor([0.5, 1.5], requires_grad=True)
E(lambda: torch.dist(c, b).backward())
E(lambda: torch.dist(b, c, 3).backward())
torch.dist(c, c.detach() * 2).backward()
torch.dist(b, b * 2).backward()
print(b.grad, c.grad)
""",
    # fixed: masked_fill_ of a view of a complex tensor with a real 0-dim value: the CopySlices that wraps it hands
    # the value a complex gradient, which PyTorch's engine refuses (as for masked_fill itself); minigrad's engine
    # took the real part (seed 80249)
    "copyslices_masked_fill_complex_value_error": """
v1 = torch.tensor([1., 2., 3.], requires_grad=True) * (1 + 0.5j)
val = torch.tensor(0.5, requires_grad=True)
v1.narrow(0, 0, 2).masked_fill_(torch.tensor([True, False]), val)
E(lambda: v1.abs().sum().backward())
w = torch.tensor([1., 2., 3.], requires_grad=True) * (1 + 0.5j)
r = torch.tensor([0.5, 1.0], requires_grad=True)
w.narrow(0, 0, 2).add_(r)
w.abs().sum().backward()
print(r.grad)
""",
    # fixed: mse_loss's gradient is written into zeros_like(input, LEGACY_CONTIGUOUS_MEMORY_FORMAT): C order, not
    # a transposed input's layout (seed 120879)
    "mse_loss_backward_contiguous": """
a = torch.arange(12., requires_grad=True).reshape(1, 4, 3).detach().requires_grad_()
v0 = torch.adjoint(a)
for y in (v0.expand_as(v0), v0.detach().clone() * 2):
    for red in ('mean', 'none'):
        v4 = torch.nn.functional.mse_loss(v0, y, reduction=red)
        G = torch.autograd.grad(v4.sum(), [a], create_graph=True)
        print(red, G[0].stride(), G[0].grad_fn.name(), G[0].sum().item())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(WALK + PROGRAMS[name])
