"""Session 20b leftovers: aminmax's gradient without a dim (its reduced dims come back as size 1, seen in a
third derivative), xlog1py's forward rounded with glibc's log1p, ``torch.tensor(t)`` / ``t.new_tensor(t)`` of a
batched tensor inside ``vmap`` (its detach_() refused).

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch

# Prints a graph as an indented tree of node names.
_WALK = """
def walk(t):
    out, stack = [], [(t.grad_fn, 0)]
    while stack:
        n, d = stack.pop()
        if n is None:
            continue
        out.append('  ' * d + type(n).__name__)
        stack.extend((c, d + 1) for c, _ in reversed(n.next_functions))
    print('\\n'.join(out))
"""


def test_aminmax_without_dim_restores_all_dims_as_ones():
    # PyTorch: aminmax_backward reshapes a no-dim gradient to (1, 1) (every dim of self reduced), so the gradient
    # flowing back through that ViewBackward0 is (1, 1) and the third derivative needs no SumBackward0
    same_as_torch(_WALK + """
a = torch.tensor([[0.5, 1.5, 2.], [0.7, 0.3, 1.2]], requires_grad=True)
b = torch.tensor(2.21, dtype=torch.float64, requires_grad=True)
v2 = torch.aminmax(a)[1]
g, = torch.autograd.grad([torch.float_power(b, v2)], a, create_graph=True)
view = g.grad_fn.next_functions[0][0].next_functions[0][0]
view.register_hook(lambda gi, go: print(type(view).__name__, [x.shape for x in go], [x.shape for x in gi]))
out = (g * torch.arange(6.).view(2, 3)).sum()
G = torch.autograd.grad(out, [a, b], create_graph=True)
walk(G[1])
print(G)
print(torch.aminmax(torch.tensor(3., requires_grad=True))[0].grad_fn)
""")


def test_aminmax_fuzz_seed_196046_double_graph():
    # PyTorch: the double-backward graph of fuzz seed 196046 (float_power(b / v2, v2), v2 from aminmax) has 108
    # nodes, DivBackward0 directly on SumBackward1
    same_as_torch(_WALK + """
a = torch.tensor([[1.22, -1.16, 1.06, -0.11], [-0.44, 0.74, 0.21, 0.64]], requires_grad=True)
b = torch.tensor(2.21, dtype=torch.float64, requires_grad=True)
v1, v2 = torch.aminmax(a)
v4 = torch.true_divide(b, v2)
v6 = torch.float_power(v4.abs() + 0.5, v2)
g8, = torch.autograd.grad([v6], a, grad_outputs=[torch.full_like(v6, 2.0)], create_graph=True)
v9 = torch.take_along_dim(g8, torch.tensor([[1, 0, 0, 1]]), 0)
G = torch.autograd.grad((v9 * v9).sum(), [a, b], create_graph=True)
walk(G[0])
walk(G[1])
print(G)
""")


def test_xlog1py_forward_rounds_with_glibc_log1p():
    # PyTorch: xlog1py's CPU kernel is scalar code, x * std::log1p(y) (glibc's log1p / log1pf); a half type's
    # log1p is rounded to it before the product
    same_as_torch("""
print(torch.special.xlog1py(torch.tensor([.8], dtype=torch.float64), torch.tensor([.2], dtype=torch.float64)).item())
g = torch.Generator().manual_seed(0)
x = torch.randn(300, generator=g, dtype=torch.float64) * 3
y = torch.rand(300, generator=g, dtype=torch.float64) * 4 - 1
for dt in (torch.float64, torch.float32, torch.float16, torch.bfloat16):
    r = torch.special.xlog1py(x.to(dt), y.to(dt))
    print(dt, r.double().sum().item(), r.double().tolist())
print(torch.special.xlog1py(x[:5].float(), 0.3).tolist(), torch.special.xlog1py(2.5, y[:5]).tolist())
print(torch.special.xlog1py(torch.tensor([0., 1., 2., float('nan')]), torch.tensor([-1., -1., float('nan'), 0.])))
""")


def test_tensor_of_batched_tensor_inside_vmap():
    # PyTorch: torch.tensor(t) and t.new_tensor(t) copy with a detach_(), which vmap's fallback runs on a slice (a
    # view): the copy warning, the fallback's performance warning, then "Can't detach views in-place"
    same_as_torch("""
import warnings
x = torch.ones(2, 3)
for f in (lambda t: torch.tensor(t), lambda t: t.new_tensor(t), lambda t: torch.tensor(t, dtype=torch.float64)):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        E(lambda: torch.func.vmap(f)(x))
    print([str(m.message)[:60] for m in w])
print(torch.func.vmap(lambda t: torch.as_tensor(t) * 2)(x))
""")
