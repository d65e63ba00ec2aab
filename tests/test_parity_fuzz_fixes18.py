"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family, ``_Gen.s14``) found in session
18.

Each program prints what a user sees (values, graphs, saved attributes, errors) and runs once with minigrad and once
with PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

PROGRAMS = {
    # fixed: copy_'s src gradient was summed back to a broadcast src's shape before the cast to src's dtype; PyTorch's
    # CopyBackwards casts first (grad.to(src_options)), so a 0-dim float64 src of a float32 self sums in float64 and
    # the double-backward graph reads SumBackward0 over ToCopyBackward0 (seed 183927)
    "copy_src_grad_cast_before_sum": WALK + """
x = torch.tensor([[0.1, 0.2], [0.3, 0.7]], requires_grad=True)
for src in ((x * 3).double().sum(), (x * 3).half().sum(), (x * 3).double()[0], (x * 2).sum()):
    for dtype in (torch.float32, torch.complex64):
        y = torch.zeros(2, 2, dtype=dtype, requires_grad=True) * 1
        y.copy_(src)
        loss = (y.exp() * torch.tensor([[1.1, 1.3], [1.7, 1.9]])).abs().sum()
        g, = torch.autograd.grad(loss, x, create_graph=True)
        print(src.dtype, dtype, g.dtype, g.tolist(), walk(g.grad_fn))
""",
    # fixed: put_ had no assert_no_overlap of its source (a view of the written tensor, x.put_(i, x.squeeze()), was
    # written; a non-dense one was refused), and the index/scatter family let a source that is exactly the written
    # elements through another view (x[:]) pass as x += x does; PyTorch refuses that full overlap, and put_'s overlap
    # check comes before its out-of-range index error (seed 185554)
    "put_and_scatter_refuse_full_overlap_views": """
i = torch.tensor([1, 0])
base = torch.arange(12.).reshape(3, 4)
programs = [
    lambda x: x.put_(i, x[:]), lambda x: x.put_(i, x.squeeze()), lambda x: x.put_(i, x),
    lambda x: x.put_(i, x.flip(0)), lambda x: x.put_(i[:1], x[:1]), lambda x: x.put_(i, x[:], accumulate=True),
    lambda x: x.index_put_((i,), x[:]), lambda x: x.scatter_(0, i, x[:]), lambda x: x.scatter_add_(0, i, x[:]),
    lambda x: x.scatter_reduce_(0, i, x[:], "sum"), lambda x: x.index_copy_(0, i, x[:]),
    lambda x: x.masked_scatter_(x > 0, x[:]), lambda x: x.put_(torch.tensor([0, 99]), x[:2]),
    lambda x: x.put_(torch.tensor([0, 99]), x[:2].clone()),
    lambda x: (x * 1).put_(i, x[:]), lambda x: x.put(i, x),
]
for f in programs:
    x = torch.tensor([1., 2., 3., 4.])[:2]
    E(lambda: f(x))
    print(x.tolist())
for f in (lambda x: x.put_(torch.tensor([0, 1]), base[:, ::2].flatten()[:2]),
          lambda x: x.put_(torch.arange(6), x.flatten()), lambda x: x.put_(torch.arange(6).view(3, 2), x[:])):
    x = base.clone()[:, ::2]
    f(x)
    print(x.tolist())
y = torch.tensor([1., 2.], requires_grad=True) * 1
E(lambda: y.put_(i, y[:]))
print(y._version, y.grad_fn.name())
""",
    # fixed: higher derivatives through formulas whose nodes PyTorch's C++ makes in another order or kind: C++
    # builds an operator's right operand first (sigmoid_backward's (-2 * y + 1) before grad * grad_output, so a
    # third backward summed its gradients the other way round, seed 187068), glu_double_backward's 1 - s is
    # empty_like(s).fill_(1).sub_(s) (SubBackward0, not RsubBackward1), mvlgamma's digamma_ is in place (its node
    # saves a clone: CloneBackward0), layer_norm_double_backward's / N are Scalar quotients in place (DivBackward1)
    # and a missing weight is a ones tensor. The nodes' relative sequence numbers are compared too.
    "higher_derivatives_build_nodes_as_cpp": WALK + """
def seqs(root):
    order, seen, k = [root], {root}, 0
    while k < len(order):
        n = order[k]
        k += 1
        for m, _ in n.next_functions:
            if m is not None and m not in seen:
                seen.add(m)
                order.append(m)
    nodes = [n for n in order if n.name() != "torch::autograd::AccumulateGrad"]
    return [n._sequence_nr() - min(m._sequence_nr() for m in nodes) for n in nodes]
F = torch.nn.functional
x = torch.tensor([[0.3, -0.4, 0.7, 0.2], [-0.2, 0.9, 0.1, -0.6]], dtype=torch.float64, requires_grad=True)
w = torch.tensor([1.1, 0.8, -0.5, 0.3], dtype=torch.float64, requires_grad=True)
fns = [torch.sigmoid, lambda t: F.glu(t, -1), lambda t: torch.mvlgamma(t + 3, 3), lambda t: F.layer_norm(t, (4,)),
       lambda t: F.layer_norm(t, (4,), w),
       lambda t: F.layer_norm(t, (2, 4), w.expand(2, 4) * 1, w.flip(0).expand(2, 4))]
for f in fns:
    g = f(x)
    for order in range(3):
        g, = torch.autograd.grad((g * g.detach().exp()).sum(), x, create_graph=True)
        print(order, walk(g.grad_fn), seqs(g.grad_fn))
    print([round(v, 10) for v in g.flatten().tolist()])
e = torch.zeros(2, 0, 1, dtype=torch.float64, requires_grad=True)
g = torch.linalg.vector_norm(torch.cummax(torch.sigmoid(e), 1)[0], 0.5, (0,))
for order in range(3):
    g, = torch.autograd.grad(g.sum(), e, create_graph=True, materialize_grads=True)
print(walk(g.grad_fn), seqs(g.grad_fn))
""",
    # fixed: an out= tensor an elementwise (TensorIterator) op resizes takes the result's layout (resize_out restrides
    # it as the inputs are laid out: torch.mul(x.t(), 2, out=torch.empty(0)) has strides (1, 3)); minigrad resized
    # it C-contiguous. An out= of the right shape keeps its strides; a composite (mvlgamma) copies into a contiguous
    # one (seed 187449)
    "resized_out_takes_tensor_iterator_layout": """
import warnings
warnings.simplefilter("ignore")
x = (torch.arange(12.).reshape(3, 4) / 13 + 0.1).t()
i = torch.arange(12).reshape(3, 4).t()
c = torch.arange(24.).reshape(1, 2, 3, 4).to(memory_format=torch.channels_last)
calls = [lambda o: torch.mul(x, 2, out=o), lambda o: torch.add(x, x, alpha=2, out=o), lambda o: torch.sin(x, out=o),
         lambda o: torch.abs(x, out=o), lambda o: torch.round(x, out=o), lambda o: torch.floor_divide(x, 0.3, out=o),
         lambda o: torch.addcdiv(x, x, x, out=o), lambda o: torch.clamp(x, 0.2, 0.5, out=o),
         lambda o: torch.mvlgamma(x + 2, 2, out=o), lambda o: torch.cumsum(x, 0, out=o),
         lambda o: torch.mm(x, x.t(), out=o), lambda o: torch.mul(c, 2, out=o),
         lambda o: torch.sin(c.transpose(1, 3), out=o), lambda o: torch.sum(c.mT, 0, out=o)]
for f in calls:
    for o in (torch.empty(0), torch.empty(2), torch.empty(4, 3)):
        f(o)
        print(tuple(o.shape), o.stride(), round(o.sum().item(), 4), o.flatten()[:4].tolist())
for f in (lambda o: torch.eq(x, 0.3, out=o), lambda o: torch.logical_not(x, out=o), lambda o: torch.signbit(x, out=o)):
    o = torch.empty(0, dtype=torch.bool)
    f(o)
    print(o.stride(), o.flatten().tolist())
for f in (lambda o: torch.bitwise_and(i, 6, out=o), lambda o: torch.gcd(i, i.flip(0), out=o)):
    o = torch.empty(0, dtype=torch.int64)
    f(o)
    print(o.stride(), o.flatten().tolist())
""",
    # fixed: the "modified by an inplace operation" error of a saved input named its real output number ("output 1
    # of LinalgSvd" for svdvals' S saved by pow); PyTorch's SavedVariable records output_nr only for a node's own
    # output (or when hooks pack it), so a saved input always reads "output 0" (seed 187130)
    "modified_saved_input_reads_output_0": """
a = torch.tensor([[2.0, 0.5], [0.3, 1.0]], dtype=torch.float64, requires_grad=True)
for f in (torch.linalg.svdvals, lambda t: torch.linalg.svd(t)[2], lambda t: torch.linalg.eigh(t @ t.mT)[1],
          lambda t: torch.linalg.qr(t)[1], lambda t: torch.aminmax(t, dim=0)[1], lambda t: torch.var_mean(t, 0)[1],
          lambda t: torch.linalg.slogdet(t)[1], lambda t: t.exp()):
    s = f(a * 1)
    p = s.pow(3)
    s.detach().add_(1)
    E(lambda: p.sum().backward())
    print(s.output_nr)
    s = f(a * 1)
    p = s.exp()
    s.detach().add_(1)
    E(lambda: p.sum().backward())
""",
    # fixed: addcdiv was not a TensorIterator op for layouts (addcmul was): its result came out C-ordered or in
    # tensor1's order where PyTorch follows the operands' common permutation (seed 188810)
    "addcdiv_result_layout": """
b = torch.arange(16.).reshape(2, 4, 2).double()
x = b.permute(2, 1, 0)
for y in (torch.ones(2).double(), torch.ones(4, 2).double(), torch.ones(2, 4, 2).double(), torch.ones(4, 1)):
    for f in (torch.addcdiv, torch.addcmul):
        r = f(x, y, y + 1, value=0.5)
        print(r.stride(), r.dtype, r.flatten()[:4].tolist())
o = torch.empty(0)
torch.addcdiv(b[0].t().float(), b[1].t().float(), b[1].t().float() + 1, out=o)
print(o.stride(), o.flatten().tolist())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
