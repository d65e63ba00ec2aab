"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py, tensor family) found in session 14.

Session 14 ran the open seeds of session 13's and 12's groups and widened the tensor generator (``_Gen.s14``, seeds
>= ``S14_FIRST_SEED``: complex graphs with real losses, integer-valued float ops, NaN and inf in forwards and
gradients, in-place ops whose operand broadcasts or promotes and their errors, 0-dim and empty tensors, dtype
promotion with Python numbers and 0-dim tensors, out= with tensors requiring grad, no_grad / inference_mode writes
mid-graph, sparse embedding gradients). Each program prints what a user sees (values, versions, graph node names,
errors) and runs once with minigrad and once with PyTorch (``parity.same_as_torch``); each is a short explicit form
of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

# Every program runs with warnings silenced (they go to stderr; only stdout is compared).
QUIET = """
import warnings
warnings.simplefilter("ignore")
"""

PROGRAMS = {
    # fixed: index_put_(accumulate=True) into an expanded tensor whose values share its memory (x.expand(...) given
    # x itself): PyTorch's serial kernel reads each value from memory as it adds, so earlier additions are read
    # back (1 doubled 64 times); minigrad read the values once, before (seed 162525)
    "index_put_accumulate_values_sharing_memory": """
for dt in (torch.float64, torch.float32):
    z = torch.tensor(1.0, dtype=dt)
    e = z.expand(3, 2, 2)
    e.index_put_((torch.tensor([0, 2, 0]),), z, accumulate=True)
    print(z, e[1])
    b = torch.tensor([1.0, 2.0], dtype=dt)
    b.expand(3, 2).index_put_((torch.tensor([0, 1]),), b, accumulate=True)
    print(b)
    b = torch.tensor([1.0, 2.0], dtype=dt)
    b.expand(3, 2).index_put_((torch.tensor([0, 1]), torch.tensor([1, 0])), b, accumulate=True)
    print(b)
    b = torch.tensor([1.0, 2.0], dtype=dt)
    b.expand(2, 2).index_put_((torch.tensor([[True, False], [True, True]]),), b[:1].expand(3), accumulate=True)
    print(b)
a = torch.tensor([[0.5, -1.0]], dtype=torch.float64, requires_grad=True)
v2 = a.softmax(-1)[0, 0]
v3 = v2.expand(3, 4, 4)
v3.index_put_((torch.tensor([1, 0, 1, 2]),), v2, accumulate=True)
print(v2, v3.sum(), walk(v3.grad_fn))
""",
    # fixed: an in-place op on a view without a grad_fn (its base requires no grad: an unbind piece of a plain
    # tensor) given an operand that requires grad: PyTorch's header is "A view was created in no_grad mode and is
    # being modified inplace with grad mode enabled." before the multi-output note; minigrad named an
    # "UnknownFunction" (seed 162771)
    "view_without_grad_fn_rebase_error": """
c = torch.arange(4.).unflatten(0, (2, 2))
s = torch.tensor(0.5, requires_grad=True)
E(lambda: c.unbind(0)[1].narrow(0, 0, 1).add_(s))
E(lambda: c.unbind(0)[1].add_(s))
E(lambda: c.split(1)[0].mul_(s))
E(lambda: torch.arange(4.).chunk(2)[1].copy_(s.expand(2)))
x = torch.arange(4.).requires_grad_()
E(lambda: (x * 1).unbind(0)[1].add_(s))
""",
    # fixed: log_sigmoid's double backward builds σ(x) - 1 in C++ (sub.Scalar: a SubBackward1 with one edge); the
    # third derivative's graph showed minigrad's SubBackward0 with a None edge (seed 145605)
    "log_sigmoid_double_backward_sub_scalar": """
a = torch.tensor([[0.3, -1.2], [2.0, 0.1]], dtype=torch.float64, requires_grad=True)
v = torch.nn.functional.logsigmoid(a)
g, = torch.autograd.grad(v.sum(), a, create_graph=True)
g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
g3, = torch.autograd.grad(g2.sum(), a, create_graph=True)
print(g2, g3, walk(g2.grad_fn), walk(g3.grad_fn))
""",
    # fixed: embedding(sparse=True)'s gradients accumulated as PyTorch's add_out_sparse_cpu does: contiguous values
    # merge (coalesced if both were), the values of x.sum()'s gradient (a view of an expanded tensor) concatenate
    # and are coalesced once they outnumber the dense elements; a sparse tensor of 0 or 1 entries is coalesced;
    # minigrad always concatenated and marked uncoalesced (seeds 180170, 180213, 180249)
    "sparse_embedding_grad_accumulation": """
w = torch.tensor([[1., 2], [3, 4], [5, 6]], requires_grad=True)
for idx, sq in (([[0, 2, 0], [1, 1, 0]], True), ([0, 2], True), ([2, 1], False), ([1], True), ([0, 0], False)):
    e = torch.nn.functional.embedding(torch.tensor(idx), w, sparse=True)
    ((e * e).sum() if sq else e.sum()).backward()
    g = w.grad
    print(g._nnz(), g.is_coalesced(), g._indices().tolist(), g._values().tolist())
for pad in (0, -1, None):
    w = torch.tensor([[1., 2], [3, 4], [5, 6]], requires_grad=True)
    for idx in ([0, 2, 0, 1], [2], [1], [0, 1, 1, 1, 2, 2]):
        torch.nn.functional.embedding(torch.tensor(idx), w, padding_idx=pad, sparse=True).sum().backward()
        g = w.grad
        print(pad, g._nnz(), g.is_coalesced(), g._indices().tolist(), g.to_dense().tolist())
print(torch.sparse_coo_tensor([[1]], [2.0], (3,)).is_coalesced(),
      torch.sparse_coo_tensor([[1, 0]], [2.0, 1.0], (3,)).is_coalesced())
""",
    # fixed: an elementwise in-place op whose operand is an expanded view of self and broadcasts to a bigger shape:
    # PyTorch's overlap test is "too hard" for a non-dense operand and passes, so the shape error comes first;
    # minigrad refused the overlap (seed 180154)
    "inplace_broadcast_error_before_overlap": """
t = torch.arange(4.).reshape(2, 2) * 1
E(lambda: t.mul_(t.unsqueeze(0).expand(2, 2, 2)))
E(lambda: t.add_(t.unsqueeze(0).expand(3, 2, 2), alpha=2))
E(lambda: t.add_(t.t()))
E(lambda: t.add_(t[0]))
E(lambda: t[0].sub_(t))
x = torch.tensor([1.0, 2.0], requires_grad=True)
u = x * 1
E(lambda: u.mul_(u.unsqueeze(0).expand(2, 2)))
print(t, u, u._version)
""",
    # fixed: real() of a conj view is PyTorch's select(view_as_real(self._conj()), -1, 0): a second ConjBackward0
    # between the select and the conj view (seed 180143)
    "real_of_conj_view": """
x = torch.tensor([1.0, -2.0], requires_grad=True)
c = x * (1 + 2j)
for e in (c.conj().real, torch.real(c.conj()), c.conj().conj().real, c.real):
    print(walk(e.grad_fn), e, e._is_view(), e._base is c)
    e.sum().backward(retain_graph=True)
print(x.grad)
""",
    # fixed: angle() of a complex tensor is C-contiguous whatever the input's layout (PyTorch's complex angle copies
    # the real part of a complex temporary into a fresh result); minigrad kept the layout of an inverse (column
    # major), and the nodes that saved it showed strides (1, 3) (seed 180411)
    "complex_angle_result_is_contiguous": """
a = torch.tensor([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3], [1.0, 1.5, -0.5]], requires_grad=True)
z = torch.polar(a.exp() + 0.2, a)
for t in (torch.linalg.inv(z + 3 * torch.eye(3)), z.t(), z.unsqueeze(0).expand(2, 3, 3), z[:, ::2], a.t(), a[:, ::2]):
    print(t.angle().stride(), torch.angle(t).stride(), t.abs().stride(), t.angle().is_contiguous())
v = torch.linalg.inv(z + 3 * torch.eye(3))
r = v.abs() * v.angle().cos()
print(r.stride(), r.grad_fn._saved_other.stride(), r.grad_fn.next_functions[1][0]._saved_self.stride())
r.sum().backward()
print(a.grad)
""",
    # fixed: nansum(x, dtype=...)'s formula casts the gradient to x's dtype before it expands it (PyTorch's
    # nansum_backward(grad.to(self.scalar_type()), ...)); under create_graph minigrad's ToCopyBackward0 sat at the
    # other end, after the product with the nan mask (seed 162829)
    "nansum_dtype_double_backward": """
a = torch.tensor([[1.0, 2.0], [3.0, float('nan')]], requires_grad=True)
for f in (lambda: torch.nansum(a, 1, dtype=torch.float64), lambda: torch.nansum(a, dtype=torch.float64),
          lambda: a.nansum((0, 1), keepdim=True, dtype=torch.float64), lambda: torch.nansum(a, 0)):
    v = f()
    g, = torch.autograd.grad(v.sin().sum(), a, create_graph=True)
    print(walk(g.grad_fn), g)
    (g * g).sum().backward()
    print(a.grad)
""",
    # fixed: cumsum / cumprod given dtype= cast the incoming gradient to the input's dtype first (PyTorch's
    # cumsum_backward(grad.to(self.scalar_type()), dim)); under create_graph minigrad's ToCopyBackward0 came last
    # (seed 146569, and the old KNOWN witnesses 3925, 127488)
    "cumsum_dtype_gradient_cast_first": """
a = torch.tensor([[1.0, 2.0, 0.5], [3.0, -1.0, 0.2]], requires_grad=True)
for f in (lambda: a.cumsum(1, dtype=torch.float64), lambda: torch.cumsum(a, 0, dtype=torch.float64),
          lambda: a.cumprod(1, dtype=torch.float64), lambda: a[:, :1].cumsum(1, dtype=torch.float64),
          lambda: a.cumsum(-1), lambda: a.softmax(1, dtype=torch.float64)):
    v = f()
    g, = torch.autograd.grad(v.exp().sum(), a, create_graph=True)
    print(walk(g.grad_fn), g)
    g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
    print(walk(g2.grad_fn), g2)
""",
    # fixed: a slice made by a formula without an end (slice_scatter's gradient of src, grad.slice(dim, start,
    # None, step)) gives a SliceBackwardBackward0 under create_graph whose _saved_end is PyTorch's INT64_MAX
    # (slice_backward_wrapper), not None (seed 146146)
    "slice_backward_of_open_slice": """
a = torch.arange(6.).requires_grad_()
v = (a * 1).slice_scatter(a[:3] * 1, 0, 0, None, 2)
g, = torch.autograd.grad((v * v).sum(), a, create_graph=True)
g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
order, queue, seen = [], [g2.grad_fn], set()
while queue:
    n = queue.pop(0)
    if n is None or id(n) in seen:
        continue
    seen.add(id(n))
    if 'Slice' in n.name():
        order.append((n.name(), n._saved_start, n._saved_end, n._saved_step))
    queue += [m for m, _ in n.next_functions]
print(sorted(order, key=repr), g2)
""",
    # fixed: rsub(x, y) is PyTorch's sub(y, x): y is TensorIterator's first input, whose strides break the tie
    # of the result's layout (x contiguous, y transposed: a transposed result); minigrad took NumPy's (seed 146854)
    "rsub_layout_follows_other": """
a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
b = torch.tensor([[0.5, 1.5], [2.5, 3.5]])
for x, y in ((a, b.t()), (a.t(), b), (a, b.t().contiguous()), (a[:, :1], b.t()), (a.t(), b[:1])):
    r, s, t = torch.rsub(x, y, alpha=2), torch.rsub(x, y), torch.sub(y, x)
    print(r.stride(), s.stride(), t.stride(), r, s.grad_fn)
    r.sum().backward()
print(a.grad)
""",
    # fixed: a saved input detached in place (x.detach_()) then modified: PyTorch's SavedVariable takes the node
    # that saved it for the message ("which is output 0 of Elu") when a _saved_* attribute is read, and in backward
    # refuses the detach_() before it checks the version; minigrad gave no producer, and the version error first
    # (seed 145802)
    "saved_input_detached_in_place_then_modified": """
b = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
for k in range(4):
    v0 = b * 1
    v5 = torch.nn.functional.elu(v0) if k < 2 else v0.exp() * v0 if k == 2 else v0.sin()
    v0.detach_()
    if k != 1:
        v0.mul_(2)
    E(lambda: v5.sum().backward())
    E(lambda: print(v5.grad_fn._saved_self))
print(b.grad)
""",
    # fixed: inverse()'s backward -A⁻ᴴ (G A⁻ᴴ): C++ evaluates a call's arguments right to left, so PyTorch makes
    # the inner product and its mH first; minigrad made the outer mH first, and the graph of a third derivative
    # (the backward of the backward) ran and linked its nodes in another order (seed 180732)
    "inverse_double_backward_node_order": """
a = torch.tensor([[2.0, 1.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(a.sin().inverse().sum(), a, create_graph=True)
g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
print(g2, walk(g2.grad_fn))
""",
    # fixed: pinv_backward (linalg.pinv's and linalg.lstsq's backward) made its four terms left to right; C++
    # makes the operands of + and - right to left (the last term first), so under create_graph a second backward
    # ran PyTorch's matmuls in another order (seed 146762)
    "pinv_lstsq_double_backward_node_order": """
for shape in ((2, 3), (3, 2), (2, 2)):
    a = torch.linspace(-1.0, 2.0, shape[0] * shape[1], dtype=torch.float64).reshape(shape).requires_grad_()
    b = torch.tensor([[1.0], [0.5], [-2.0]], dtype=torch.float64)[:shape[0]]
    for f in (lambda x: torch.linalg.pinv(x), lambda x: torch.linalg.lstsq(x, b).solution):
        g, = torch.autograd.grad(f(a.cos()).sum(), a, create_graph=True)
        g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
        print(g2, walk(g2.grad_fn))
""",
    # fixed: linalg.eigh's and linalg.eig's backward divide VhgV by the eigenvalue gaps in place (PyTorch's
    # VhgV.div_(Econj)), so under create_graph the DivBackward0 saves a clone of VhgV (a CloneBackward0 in the
    # graph of a third derivative); minigrad divided out of place (seed 146984)
    "eigh_eig_backward_divides_in_place": """
a = torch.tensor([[2.0, 0.3, 0.1], [0.5, 1.0, 0.2], [0.1, -0.4, -1.0]], dtype=torch.float64, requires_grad=True)
s = a + a.mT
for with_values in (False, True):
    L, V = torch.linalg.eigh(s * 1)
    loss = V.pow(2).sum() + (L.pow(3).sum() if with_values else 0)
    g, = torch.autograd.grad(loss, a, create_graph=True)
    print(g, walk(g.grad_fn))
    g2, = torch.autograd.grad((g * g).sum(), a, create_graph=True)
    print(g2, walk(g2.grad_fn))
    L, V = torch.linalg.eig(a * 1)
    g, = torch.autograd.grad(V.real.pow(2).sum() + (L.real.pow(3).sum() if with_values else 0), a, create_graph=True)
    order, seen, queue = [], set(), [g.grad_fn]
    while queue:
        n = queue.pop(0)
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        if n.name() == "DivBackward0":
            order.append(n._saved_self.grad_fn.name())
        queue += [m for m, _ in n.next_functions]
    print(g, walk(g.grad_fn), order)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(QUIET + WALK + PROGRAMS[name])
