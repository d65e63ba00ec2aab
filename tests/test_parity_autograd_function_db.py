"""Session 14: PyTorch's autograd.Function database (torch/testing/_internal/autograd_function_db.py) under autograd
and torch.func, compared live with PyTorch.

``test_database_entry`` runs tests/autograd_function_sweep.py's checks (forward, backward, double backward,
gradcheck, forward AD, grad, vjp, jvp, jacrev, jacfwd, hessian, vmap with in_dims 0/1/-1/None and out_dims 0/1,
and the compositions functorch's test_ops.py runs) on every entry in float64 and float32: both libraries run the
same Function definitions (the database's source executed with ``torch`` bound to minigrad). The other tests are
one short program per fix, run with minigrad and with PyTorch (``parity.run_both``): same printed output.
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

import warnings

import pytest
from parity import same_output, torch_or_skip

torch_or_skip()
import autograd_function_sweep as sweep  # noqa: E402  (imports torch's test database)

NAMES = list(sweep.torch_db())


@pytest.mark.parametrize("name", NAMES)
def test_database_entry(name):
    bad = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for dtype in sweep.DTYPES:
            for tag, per_lib in sweep.make_case(name, dtype):
                for key, diffs in sweep.run_case(tag, per_lib):
                    if diffs and key not in sweep.KNOWN:
                        bad.append(f"{tag} {key}: " + "; ".join(diffs[:3]))
    assert not bad, "\n".join(bad)


def test_database_is_whole():
    # the sweep covers all 14 entries, each with its samples, in both libraries
    assert len(NAMES) == 14 and set(NAMES) == set(sweep.minigrad_db())
    assert all(sweep.make_case(name, "float64") for name in NAMES)


_MUL = r"""
import torch
class Mul(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return torch.tensor(x.numpy() * y.numpy())
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(*inputs)
    @staticmethod
    def backward(ctx, g):
        x, y = ctx.saved_tensors
        return Mul.apply(g, y), Mul.apply(g, x)
    @staticmethod
    def vmap(info, in_dims, x, y):
        x = x.movedim(in_dims[0], -1) if in_dims[0] is not None else x.unsqueeze(-1)
        y = y.movedim(in_dims[1], -1) if in_dims[1] is not None else y.unsqueeze(-1)
        return Mul.apply(x, y).movedim(-1, 0), 0
"""

_EXP_ = _MUL + r"""
class Exp_(torch.autograd.Function):
    @staticmethod
    def forward(x):
        x_np = x.numpy()
        x_np[...] = 2.0 ** x_np
        return x
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.mark_dirty(inputs[0])
        ctx.save_for_backward(output)
    @staticmethod
    def backward(ctx, g):
        output, = ctx.saved_tensors
        return Mul.apply(g, output) * 0.6931471805599453
    @staticmethod
    def vmap(info, in_dims, x):
        Exp_.apply(x)
        return x, in_dims[0]
f = lambda x: Exp_.apply(x.clone())
"""


def test_integer_input_tangent_is_none_in_jvp():
    # fixed: a custom Function's jvp got zeros for an integer tensor input (NumpyTake's indices); PyTorch gives
    # None for a non-differentiable dtype (its jvp asserts so), zeros for a float input without a tangent
    same_output(r"""
import torch
import torch.autograd.forward_ad as fwAD
class F(torch.autograd.Function):
    @staticmethod
    def forward(x, i, y, k):
        return x * 2
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def jvp(ctx, tx, ti, ty, tk):
        print('tangents', ti, tk, tx.sum().item(), ty.sum().item())
        return tx * 2
with fwAD.dual_level():
    x = fwAD.make_dual(torch.ones(2), torch.ones(2))
    F.apply(x, torch.tensor([1, 2]), torch.zeros(2), 3)
    F.apply(x, torch.tensor([True]), torch.zeros(2, requires_grad=True), 3)
print(torch.func.jvp(lambda x: F.apply(x, torch.tensor([1, 2]), torch.ones(2), 3), (torch.ones(2),), (torch.ones(2),)))
""")


def test_vmap_rule_called_in_backward_records_nothing():
    # fixed: a vmap staticmethod reached from a backward pass (no create_graph) ran in the vmap's grad mode, on
    # the slices stacked with their graphs: vmap(grad(f)) and jacrev returned gradients with a StackBackward0 /
    # ViewBackward0 history. The rule runs in the grad mode of its call site, as PyTorch's.
    same_output(_MUL + r"""
x = torch.tensor([1., 2.]); y = torch.tensor([[3., 4.], [5., 6.]])
f = lambda x, y: Mul.apply(x, y).sum()
for r in (torch.func.vmap(torch.func.grad(f, argnums=(0, 1)))(torch.stack([x, x + 1]), torch.stack([y, y + 1])),
          torch.func.jacrev(lambda x, y: Mul.apply(x, y), argnums=(0, 1))(x, y)):
    print([(t.requires_grad, t.grad_fn, t.shape) for t in r])
    print(r)
""")


def test_vmap_rule_in_place_on_stacked_slices():
    # fixed: a mark_dirty Function's vmap rule changing its input in place: minigrad's rule got a stack of the
    # slices' values (x.clone() per slice), so the change was lost (the slices came back unchanged), and under
    # grad(vmap(f)) the gradient missed the in-place node
    same_output(_EXP_ + r"""
x = torch.tensor([[0.5], [1.0], [3.0]], dtype=torch.float64)
print(torch.func.vmap(f)(x))
print(torch.func.vmap(f, in_dims=1, out_dims=1)(x.T.contiguous()))
print(torch.func.grad(lambda x: torch.func.vmap(f)(x).sum())(x))
print(torch.func.vmap(torch.func.grad(lambda x: f(x).sum()))(x))
print(torch.func.vmap(torch.func.vmap(f))(torch.arange(6.).reshape(3, 2)))
""")


def test_saved_output_stays_batched_under_vmap():
    # fixed: a Function's saved *output* (rebuilt from its data when unpacked) lost its vmap batching: the vmap
    # rule of a Function called in its backward saw it as unbatched (in_dims None) and every slice got the first
    # slice's value
    same_output(_EXP_ + r"""
x = torch.tensor([[1.0], [2.0]], dtype=torch.float64)
c = torch.tensor([[1.0], [10.0]], dtype=torch.float64)
def g(p, cot):
    _, vjp_fn = torch.func.vjp(f, p)
    return vjp_fn(cot)
print(torch.func.vmap(g)(x, c))
print([g(x[i], c[i]) for i in range(2)])
""")


def test_unbatched_output_expanded_at_out_dims():
    # fixed: an output that does not depend on the mapped inputs is PyTorch's input expanded with the batch size
    # inserted at out_dims (a stride-0 view, ExpandBackward0; its expand error when the sizes do not line up),
    # where minigrad stacked copies (ZeroGradientsGenVmap's vmap with in_dims=(0, None), out_dims=1)
    same_output(r"""
import torch
x = torch.zeros(2, 3)
y = torch.arange(12.).reshape(3, 4).requires_grad_()
for f, yy in [(lambda x, y: (x, y * 2), y), (lambda x, y: y * 2, torch.arange(2.)), (lambda x, y: y * 2, torch.arange(3.).reshape(3, 1))]:
    for od in range(yy.dim() + 1):
        try:
            r = torch.func.vmap(f, in_dims=(0, None), out_dims=od)(x, yy)
            print(od, [(t.shape, t.stride(), t.grad_fn, t.sum().item()) for t in (r if isinstance(r, tuple) else (r,))])
        except Exception as e:
            print(od, type(e).__name__, e)
print(torch.func.vmap(lambda x: torch.ones(3))(x).stride())
""")


def test_once_differentiable_result_under_vjp_of_vjp():
    # fixed: once_differentiable's error node hangs from fresh leaves; a transform took them for a link outside
    # its level and kept the result's graph: vjp(vjp(f)) returned a tensor with grad_fn=<Error>, PyTorch a plain
    # one (plain autograd keeps the Error node, as PyTorch)
    same_output(r"""
import torch
class Cube(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x ** 3
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(inputs[0])
    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 3 * x ** 2
x = torch.tensor([1.5], dtype=torch.float64); c = torch.tensor([2.0], dtype=torch.float64)
r, fn = torch.func.vjp(lambda p, c: torch.func.vjp(Cube.apply, p)[1](c), x, c)
print(r, r[0].requires_grad, fn((torch.ones(1, dtype=torch.float64),)))
print(torch.func.grad(lambda p: torch.func.grad(lambda q: Cube.apply(q).sum())(p).sum())(x))
xx = x.clone().requires_grad_(); cc = c.clone().requires_grad_()
g, = torch.autograd.grad(Cube.apply(xx), xx, cc, create_graph=True)
print(g, torch.autograd.grad(g, (xx, cc), allow_unused=True))
""")
