"""Batched gradients of session 30: the layouts of ``grad(is_grads_batched=True)`` and forward-mode ``jacobian``.

PyTorch runs such a backward once, batched by its legacy vmap; minigrad runs it once per row and lays the rows out as
PyTorch's batch (``autograd._stack_rows``). Fixed here: a grad_output whose batch dim is not outermost (``v.t()``):
an elementwise formula's result takes the whole batch's layout, batch dim included (PyTorch's ``(1, 4)``, not the
loop's C order), also through a transpose's backward; the results of ops the legacy vmap has no elementwise rule for
(tanh_backward, elu_backward, mm, slice_backward ...: its fallback stacks the slices) are in C order, and an
elementwise op on them keeps the batch dim outermost; rows with a history (``create_graph``, forward-mode tangents of
an input that requires grad) are laid out as the same rows without one, not stacked in C order.

Each test is one short program run with minigrad and with PyTorch (``parity.same_as_torch``).
"""
from __future__ import annotations

from parity import same_as_torch


def test_batch_dim_innermost_grad_outputs_give_their_layout():
    # minigrad gave (3, 1) for x * 1 (the loop's C-order rows stacked), PyTorch (1, 4)
    same_as_torch(r"""
torch.manual_seed(0)
x = torch.randn(3, requires_grad=True)
print(torch.autograd.grad(x * 1, x, torch.randn(3, 4).t(), is_grads_batched=True)[0].stride())
x = torch.randn(2, 3, requires_grad=True)
fs = [lambda x: x * 2, lambda x: x.exp(), lambda x: x * x, lambda x: x / 3, lambda x: -x, lambda x: x.sin(),
      lambda x: x.relu(), lambda x: x.sigmoid(), lambda x: x.abs(), lambda x: x.pow(3), lambda x: x.t().exp(),
      lambda x: x.t() * 2, lambda x: x.tanh(), lambda x: torch.nn.functional.elu(x.sin()),
      lambda x: torch.nn.functional.silu(x), lambda x: torch.nn.functional.gelu(x) * 2, lambda x: x @ x.t(),
      lambda x: torch.cat([x, x * 2], 0)[:2], lambda x: x.t().relu()]
for k, f in enumerate(fs):
    y = f(x)
    for v in (torch.randn(y.shape + (4,)).movedim(-1, 0), torch.randn(y.shape[::-1] + (4,)).permute(2, 1, 0),
              torch.randn(y.shape[0], 4, *y.shape[1:]).transpose(0, 1),
              torch.randn((4,) + y.shape[::-1]).transpose(1, 2)):
        g = torch.autograd.grad(y, x, v, retain_graph=True, is_grads_batched=True)[0]
        print(k, g.stride(), g.storage_offset())
""")


def test_rows_with_a_history_keep_the_batch_layout():
    # with create_graph, and for forward-mode tangents with a history, minigrad stacked the rows in C order
    same_as_torch(r"""
from torch.autograd.functional import jacobian
torch.manual_seed(0)
x = torch.randn(2, 3, requires_grad=True)
w = torch.randn(3, 2, requires_grad=True)
for f in (lambda x: x.t() * w, lambda x: (x.t() * w).exp(), lambda x: x * x, lambda x: (x ** 3).t()):
    y = f(x)
    for v in (torch.randn((4,) + y.shape), torch.randn(y.shape + (4,)).movedim(-1, 0),
              torch.randn(y.shape[::-1] + (4,)).permute(2, 1, 0)):
        g = torch.autograd.grad(y, x, v, retain_graph=True, create_graph=True, is_grads_batched=True)[0]
        print(g.stride(), g.storage_offset(), g.requires_grad)
for shape in ((3, 2), (2, 3)):
    a = torch.randn(*shape, requires_grad=True)
    for f in (lambda a: a.t() * 2, lambda a: a.exp().t(), lambda a: a * a, lambda a: (a.t(), a.sum(0))):
        J = jacobian(f, a, vectorize=True, strategy="forward-mode")
        print([(j.stride(), j.storage_offset(), j.requires_grad) for j in (J if isinstance(J, tuple) else (J,))])
""")


def test_vectorized_jacobians_and_hessians_through_c_order_batches():
    # mm's and elu_backward's batches are in C order (an elementwise op on them keeps the batch dim outermost, its
    # rows laid out by its first operand); minigrad laid these out as the rows or the grad_outputs
    same_as_torch(r"""
from torch.autograd.functional import jacobian, hessian
torch.manual_seed(0)
x0 = torch.randn(2, 3)
hs = [lambda x: (x ** 3).sum(), lambda x: (x.t() @ x).sum(), lambda x: x.norm(), lambda x: x.t().sin().prod(),
      lambda x: x.logsumexp(1).sum(), lambda x: (x.sum(0) ** 2).sum(), lambda x: x.t().tanh().sum(),
      lambda x: torch.nn.functional.elu(x).pow(2).sum()]
for k, f in enumerate(hs):
    for x in (x0, x0.t()):
        for cg in (False, True):
            xx = x.clone().requires_grad_(cg)
            h = hessian(f, xx, vectorize=True, create_graph=cg)
            j = jacobian(lambda a: f(a) * a.t().exp(), xx, vectorize=True, create_graph=cg)
            print(k, cg, h.stride(), h.requires_grad, j.stride(), j.requires_grad)
""")
