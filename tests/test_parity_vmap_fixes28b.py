"""Transform fuzz fixes of session 28, second round: concat's out= under vmap, complex cummax of batched 0-d
examples, block_diag over a vmap of no examples.

Each test is one short program run with minigrad and with PyTorch (``parity.same_as_torch``): the printed values
and exception messages must be the same.
"""
from __future__ import annotations

from parity import same_as_torch


def test_concat_out_under_vmap_names_its_own_overload():
    # torch.concat / torch.concatenate are overloads of their own: vmap's refusal of out= names aten::concat.out
    # and aten::concatenate.out (minigrad's aliases of cat named aten::cat.out)
    same_as_torch("""
vmap = torch.func.vmap
a = torch.tensor([[1., 2.], [3., 4.]])
for fn in (torch.cat, torch.concat, torch.concatenate):
    E(lambda: vmap(lambda t, u: fn([t, u], out=torch.empty(0)))(a, a))
    E(lambda: vmap(lambda t: fn([t, t], 0, out=t))(a))
    print(fn.__name__, fn([a, a], 1, out=torch.empty(0)).shape)
""")


def test_cummax_of_complex_batched_0d_example():
    # a batched 0-d example is 1-d to PyTorch's kernel, which refuses complex ("cummax_cpu" not implemented);
    # eager 0-d complex runs no kernel (minigrad returned values under vmap, an autograd error under grad(vmap))
    same_as_torch("""
vmap, grad = torch.func.vmap, torch.func.grad
x = torch.tensor([[0.5, -1.], [2., 0.25], [1., 3.]], dtype=torch.float64)
for op in (torch.cummax, torch.cummin):
    E(lambda: vmap(lambda y: op(y.to(torch.complex128)[0], 0))(x))
    E(lambda: grad(lambda x: vmap(lambda y: op(y.to(torch.complex128)[0], 0)[0].abs().sum())(x).sum())(x))
    print(op(torch.tensor(1 + 2j), 0))
    E(lambda: op(torch.tensor(1 + 2j, requires_grad=True), 0))
""")


def test_block_diag_over_a_vmap_of_no_examples():
    # PyTorch's block_diag of a tensor batched at a vmap over no examples concatenates no results and fails;
    # under jacfwd of an empty input so does its tangent's block_diag (func 39865: hessian); minigrad returned empties
    same_as_torch("""
F = torch.func
bd = lambda a: torch.block_diag(a, a)
E(lambda: F.vmap(bd)(torch.ones(0, 2)))
E(lambda: F.vmap(lambda a: torch.block_diag(a, torch.ones(2)))(torch.ones(0, 2)))
E(lambda: F.vmap(F.vmap(bd))(torch.ones(2, 0, 2)))
E(lambda: F.vmap(bd, in_dims=(None,))(torch.ones(0, 2)))
print(F.vmap(bd)(torch.ones(3, 2)).shape)
a = torch.tensor([])
E(lambda: F.jacfwd(bd)(a))
E(lambda: F.hessian(lambda a: bd(a).sum())(a))
print(F.jacrev(bd)(a).shape)
""")
