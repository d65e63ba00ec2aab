"""Batched gradients of session 29: ``grad(is_grads_batched=True)``, ``jacobian``/``hessian(vectorize=True)``.

PyTorch runs such a backward once, batched by its legacy vmap; minigrad runs it once per row. The layouts: each row
keeps the strides one backward gives it, the batch dim outermost (a transposed gradient's batch is strided (6, 1, 2),
not C order's (6, 3, 1)); a row that is a grad_output row, or a view of one (a sum's expanded gradient), gives the
grad_output or that view of it; any other row sits in a block the size of its storage (a narrowed gradient keeps its
offset). The forward-mode jacobian splits one batch of tangents per input, permutes and reshapes each block, as
PyTorch does. The hooks: PyTorch calls each hook once, on the whole batch; a hook that returns nothing and changes no
gradient in place is now called in the first row only (one that returns or changes a gradient, in every row).

Each test is one short program run with minigrad and with PyTorch (``parity.same_as_torch``).
"""
from __future__ import annotations

from parity import same_as_torch

_OPS = r"""
torch.manual_seed(0)
x0 = torch.randn(2, 3)
A = torch.randn(3, 4)
fs = [lambda x: x.t(), lambda x: x * 1, lambda x: x.view(3, 2), lambda x: x[:1].expand(4, 3), lambda x: x.sum(0),
      lambda x: x.sum(1, keepdim=True), lambda x: x.sum(), lambda x: x @ A, lambda x: A.t() @ x.t(),
      lambda x: x.t() @ x, lambda x: x.unsqueeze(0).permute(2, 0, 1), lambda x: x.t()[1:], lambda x: x.t().exp(),
      lambda x: x.t().contiguous(), lambda x: x.t().reshape(6), lambda x: torch.cat([x.t(), x.t()], 1),
      lambda x: x.diag_embed(), lambda x: x.t().sum(0), lambda x: x.t().mean(1, keepdim=True), lambda x: x[:, 1],
      lambda x: x.t().unsqueeze(0).expand(2, 3, 2), lambda x: x.amax(0), lambda x: x.softmax(1).t()]
"""


def test_is_grads_batched_results_keep_the_rows_layouts():
    # minigrad stacked the rows in C order: (6, 3, 1) for every one of these
    same_as_torch(_OPS + r"""
for k, f in enumerate(fs):
    x = x0.clone().requires_grad_()
    y = f(x)
    g = torch.autograd.grad(y, x, torch.randn((5,) + y.shape), is_grads_batched=True)[0]
    print(k, g.stride(), g.storage_offset(), g.is_contiguous())
""")


def test_vectorized_jacobian_and_hessian_strides():
    # reverse mode (one batched grad) and forward mode (one batch of tangents, split, permuted, reshaped)
    same_as_torch(_OPS + r"""
from torch.autograd.functional import jacobian, hessian
for k, f in enumerate(fs):
    for strategy in ("reverse-mode", "forward-mode"):
        j = jacobian(f, x0, vectorize=True, strategy=strategy)
        print(k, strategy, tuple(j.shape), j.stride(), j.storage_offset())
hs = [lambda x: (x ** 3).sum(), lambda x: (x.t() @ x).sum(), lambda x: x.norm(), lambda x: x.t().sin().prod(),
      lambda x: x.logsumexp(1).sum(), lambda x: (x.sum(0) ** 2).sum()]
for k, f in enumerate(hs):
    for x in (x0, x0.t()):
        for strategy in ("reverse-mode", "forward-mode"):
            h = hessian(f, x, vectorize=True, outer_jacobian_strategy=strategy)
            print(k, strategy, h.stride(), h.storage_offset())
print(jacobian(lambda x: torch.ones(3), x0, vectorize=True, strategy="forward-mode").stride())
""")


def test_vectorized_jacobians_of_several_inputs_and_outputs():
    # each input's block is a part of one batch (its offset); the forward-mode graph splits and permutes it
    same_as_torch(r"""
from torch.autograd.functional import jacobian, hessian
torch.manual_seed(0)
a, b = torch.randn(2, 3), torch.randn(3)
f = lambda a, b: (a.t() * b.unsqueeze(1), (a @ b).sum(), b.expand(2, 3))
for strategy in ("reverse-mode", "forward-mode"):
    J = jacobian(f, (a, b), vectorize=True, strategy=strategy)
    print([[(t.stride(), t.storage_offset()) for t in row] for row in J])
H = hessian(lambda a, b: (a.t() * b.unsqueeze(1)).pow(2).sum(), (a, b), vectorize=True,
            outer_jacobian_strategy="forward-mode")
print([[(t.stride(), t.storage_offset()) for t in row] for row in H])
def chain(n):
    names = []
    for _ in range(3):
        names.append(type(n).__name__)
        n = n.next_functions[0][0]
    return names
print(chain(H[0][1].grad_fn))
J = jacobian(lambda a: a.sum() * 2, a.clone().requires_grad_(), vectorize=True, strategy="forward-mode")
print(chain(J.grad_fn), J.stride())
""")


def test_grad_outputs_passed_through_and_viewed():
    # a backward that hands the grad_output on gives it back; a view of it gives that view of the whole batch
    same_as_torch(r"""
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
v = torch.randn(3, 4).t()
for f in (lambda x: x + 1, lambda x: x.clone(), lambda x: x.view(3), lambda x: x.sum().expand(3)):
    g = torch.autograd.grad(f(x), x, v, is_grads_batched=True)[0]
    print(g is v, g.data_ptr() == v.data_ptr(), g.stride())
w = torch.randn(2, 3, requires_grad=True)
for f in (lambda w: torch.cat([torch.randn(2, 3), w], 0), lambda w: torch.cat([torch.randn(2, 3), w], 1)):
    y = f(w)
    g = torch.autograd.grad(y, w, torch.randn((4,) + y.shape), is_grads_batched=True)[0]
    print(g.stride(), g.storage_offset())
""")


def test_batched_gradient_of_a_conjugate_and_of_empty_rows():
    same_as_torch(r"""
c = torch.randn(2, 3, dtype=torch.cdouble, requires_grad=True)
g = torch.autograd.grad(c.conj().t(), c, torch.randn(4, 3, 2, dtype=torch.cdouble), is_grads_batched=True)[0]
print(g.is_conj(), g.stride())
print(g.resolve_conj().abs().sum() > 0)
e = torch.ones(2, 0, requires_grad=True)
print(torch.autograd.grad(e.t() * 2, e, torch.ones(3, 0, 2), is_grads_batched=True)[0].stride())
""")


def test_hooks_that_only_look_run_once_per_batched_backward():
    # PyTorch calls each hook once with the whole batch; minigrad called it once per row
    same_as_torch(r"""
from torch.autograd.functional import jacobian, hessian
calls = []
x = torch.tensor([1., 2., 3.], requires_grad=True)
v = torch.eye(3)
def run(f):
    calls.clear()
    out = f()
    g = torch.autograd.grad(out, x, (v,) * len(out) if isinstance(out, tuple) else v, is_grads_batched=True)
    print([t.tolist() for t in g], calls)
def f1():
    y = x * 2
    y.register_hook(lambda g: calls.append(("tensor", tuple(g.shape))))
    y.grad_fn.register_prehook(lambda go: calls.append("pre"))
    y.grad_fn.register_hook(lambda gi, go: calls.append("post"))
    z = y.exp()
    z.register_hook(lambda g: g * 2)   # (returns a gradient: it is applied to every row)
    return z
run(f1)
def f2():
    y = x * 2
    y.register_hook(lambda g: g.mul_(3))   # (changes the gradient in place: every row)
    y.register_hook(lambda g: calls.append("after"))
    return y
run(f2)
def f3():
    y = x.sin()
    def h(g):
        calls.append(len(calls))
        if calls[-1] > 0:
            return g * 0
    y.register_hook(h)
    return y * 1
run(f3)
def f4():
    y = x * x
    engine = torch.autograd.Variable._execution_engine
    y.register_hook(lambda g: engine.queue_callback(lambda: calls.append("callback")))
    return y
run(f4)
def f5():
    y = x * 2
    y.grad_fn.register_hook(lambda gi, go: (gi[0] * 10, None))
    y.grad_fn.register_hook(lambda gi, go: calls.append("seen"))
    return y
run(f5)
handle = x.register_hook(lambda g: calls.append(("leaf", tuple(g.shape))))
run(lambda: (x * 2, x.exp()))
handle.remove()
def fj(x):
    y = x ** 2
    y.register_hook(lambda g: calls.append("jacobian"))
    return y
for vectorize in (True, False):
    calls.clear()
    print(jacobian(fj, torch.tensor([1., 2.]), vectorize=vectorize), calls)
calls.clear()
print(hessian(lambda x: fj(x).sum(), torch.tensor([1., 2.]), vectorize=True), calls)
y = x * 2
y.retain_grad()
torch.autograd.grad(y, x, v, is_grads_batched=True)
print(y.grad.shape)
""")
