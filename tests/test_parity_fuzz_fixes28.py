"""Graph fuzz fixes of session 28: regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family
``_Gen.s14`` and the nn family) found.

Each program prints what a user sees (values, dtypes, graphs, errors) and runs once with minigrad and once with
PyTorch (``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed (seed 279760): a real sgn's gradient is an efficient zero tensor, and PyTorch's ZeroTensor kernel
    # promotes a 0-dim one times (or over) a Python number to float64; its engine casts the gradient back to the
    # input's dtype. minigrad skipped that check for number ops (their gradients "fit"), so a 0-dim float32 leaf
    # got a float64 gradient, and under create_graph a later formula's product got a ToCopyBackward0 node
    "zero_tensor_gradient_times_number_cast_back": """
def walk(fn, depth=0):
    if fn is not None:
        print("  " * depth + fn.name())
        for f, _ in fn.next_functions:
            walk(f, depth + 1)
for dt in (torch.float32, torch.float64):
    for f in (lambda x: x * 2.5, lambda x: 2.5 * x, lambda x: x.mul(float('inf')), lambda x: x / 2.5,
              lambda x: 2.5 - x, lambda x: torch.sub(x, 2.5, alpha=2), lambda x: x * 2):
        x = torch.tensor(2., dtype=dt, requires_grad=True)
        g, = torch.autograd.grad(f(x).sgn(), x)
        print(g, g.dtype)
x = torch.tensor(2., requires_grad=True)
g, = torch.autograd.grad((2.5 / x).sgn(), x, create_graph=True)
print(g, g.dtype)
walk(g.grad_fn)
c = torch.tensor([1., 2.], requires_grad=True)
v = (c * 2).sum()
g, = torch.autograd.grad(v.exp().log().mul(float('inf')).sgn(), c, create_graph=True)
print(g)
walk(g.grad_fn)
x = torch.tensor(2., requires_grad=True)
(x * 3.0).abs().backward(create_graph=True)
print(x.grad, x.grad.dtype)
x.grad.backward()
print(x.grad, x.grad.dtype)
""",
    # fixed (seed 280866): autograd.grad(is_grads_batched=True) batches with PyTorch's legacy vmap, which runs
    # mse / smooth_l1 / huber_loss_backward slice by slice (its fallback), not as functorch's Python decompositions:
    # an empty input's mean gradient is empty, not a ZeroDivisionError (torch.func.vmap still raises it), and under
    # create_graph each slice's node is the loss's double-backward node, not the decomposition's Mul/Where nodes
    "is_grads_batched_loss_backward_not_decomposed": """
F = torch.nn.functional
for shape in ((4, 0, 1), (2, 3)):
    a = torch.arange(float(torch.Size(shape).numel())).reshape(shape).requires_grad_()
    b = torch.ones(shape, dtype=torch.float64)
    for loss in (F.mse_loss, F.smooth_l1_loss, F.huber_loss):
        for red in ("mean", "sum"):
            v = loss(a, b.float(), reduction=red)
            g, = torch.autograd.grad(v, a, torch.tensor([1., -2.]), retain_graph=True, is_grads_batched=True)
            print(loss.__name__, red, g, g.dtype)
            E(lambda: print(torch.func.vmap(lambda t: torch.autograd.grad(v, a, t, retain_graph=True))(
                torch.tensor([1., 3.]))))
    E(lambda: print(torch.func.vmap(torch.func.grad(lambda x: F.mse_loss(x, b)))(a.detach().double()[None])))
def names(fn):   # (the graph's node names but the batch's own: PyTorch views its stack, minigrad stacks rows)
    out = set() if fn.name() in ("ViewBackward0", "StackBackward0") else {fn.name()}
    return out.union(*(names(f) for f, _ in fn.next_functions if f is not None))
a = torch.tensor([[1., 2.], [3., 5.]], requires_grad=True)
for loss in (F.mse_loss, F.smooth_l1_loss, F.huber_loss):
    g, = torch.autograd.grad(loss(a, a.detach() * 0.5), a, torch.tensor([1., 2.]), is_grads_batched=True,
                             create_graph=True)
    print(g.detach(), sorted(names(g.grad_fn)))
""",
    # fixed (seed 289602): sign / sgn of bfloat16 NaN and -0.0 are 0 as for the other float dtypes (NumPy's sign,
    # used for bfloat16, whose NumPy kind is not "f", kept NaN and -0.0): abs's gradient at NaN is 0, not NaN
    "bfloat16_sign_of_nan_and_negative_zero": """
for dt in (torch.float16, torch.bfloat16, torch.float32):
    t = torch.tensor([float('nan'), -0.0, 0.0, float('inf'), -3.], dtype=dt)
    print(t.sign(), t.sgn(), torch.sign(t[0]), t[0].sgn(), t.clone().sign_(), torch.sign(t, out=torch.empty_like(t)))
x = torch.tensor([float('nan'), 1., -2., 0.5], dtype=torch.float64, requires_grad=True)
(x.bfloat16() - 0.5).abs().sum().backward()
print(x.grad)
y = torch.tensor([float('nan'), -0.0, 1.], dtype=torch.bfloat16, requires_grad=True)
g, = torch.autograd.grad(y.abs().sum(), y, create_graph=True)
print(g, g.grad_fn)
""",
    # fixed (seed 292958): the exponential of a 1 x 1 matrix is PyTorch's exp kernel (MKL's), not NumPy's float32
    # exp, which rounds some values otherwise (exp(1.0795238) was one float32 step below); the difference grew
    # through exp and cos of a large value to a gradient off by 60
    "matrix_exp_of_one_by_one_matrix_is_exp": """
x = torch.tensor([[[1.0795238]], [[0.3]], [[-2.5]], [[7.25]]], requires_grad=True)
y = torch.linalg.matrix_exp(x)
print(y.tolist(), y.grad_fn, y[0].tolist() == torch.linalg.matrix_exp(x[0]).tolist(), torch.equal(y, x.exp()))
(y.exp().cos() * 1000).sum().backward()
print(x.grad.tolist())
for dt in (torch.float64, torch.complex64, torch.float16):
    print(torch.linalg.matrix_exp(torch.tensor([[1.0795238 + (1j if dt.is_complex else 0)]], dtype=dt)).tolist())
""",
    # fixed (seed 294054): max() / min() / median() over all elements give their input a gradient made of new zeros
    # in C order (PyTorch's grad.new_zeros(input.sizes())), not zeros laid out as the input: through a transposed
    # or permuted view the leaf's gradient is then transposed too
    "evenly_distributed_gradient_layout": """
b = torch.tensor([[1., 5., 5.], [3., 2., 0.]], dtype=torch.float64, requires_grad=True)
for f in (lambda t: t.max(), lambda t: t.min(), lambda t: t.median(), lambda t: t.nanmedian()):
    for view in (lambda t: t.t(), lambda t: t, lambda t: t[:, ::2], lambda t: t.unsqueeze(0).permute(2, 0, 1)):
        g, = torch.autograd.grad(f(view(b)), b, create_graph=True)
        h, = torch.autograd.grad(f(view(b)), b)
        print(g.stride(), h.stride(), g.tolist(), g.grad_fn, h._version)
x = torch.tensor([[float('nan'), 1.], [2., float('nan')]], requires_grad=True)
x.t().max().backward()
print(x.grad, x.grad.stride())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])
