"""Session 21 fixes of torch.func differences: binary ops over a batch of no examples (the batch rule's dtype
promotion reads the first example), what a transform's level tracks of tensors made from captured ones
(``requires_grad`` / ``grad_fn`` / ``autograd.grad`` inside grad, vjp and jvp), nested GradTrackingTensor reprs,
the BatchedTensor repr of a vmapped input's example, and warnings inside vmap shown once.

Each test is one short program run with minigrad and with PyTorch (``parity.run_both``): the printed values, dtypes,
reprs and exception messages must be the same (object addresses masked). PyTorch runs the vmapped function once,
minigrad once per example: a program records what the function sees and prints the first record.
"""
# ruff: noqa: E501  (the programs are stored as users write them: a line is one statement, not reflowed)
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
def E(f):
    try:
        r = f()
        print('no error', tuple(r.shape) if isinstance(r, torch.Tensor) else r)
    except Exception as e:
        print(type(e).__name__, e)
vmap = torch.func.vmap
"""


def test_binary_ops_over_no_examples_index_the_first_example():
    # PyTorch's binary_pointwise_batch_rule promotes dtypes with the first example of an operand that is a logical
    # scalar (batched, 0-d) when the other is not (a number, an unbatched tensor, an example with dims):
    # logical_scalar[0], an IndexError over no examples. Level by level from the innermost (a tensor batched at an
    # inner level has a dim more at the outer ones); the message names the physical tensor. Both logical scalars,
    # in-place ops, comparisons, where / clamp / lerp, x ** 2, 1 - x and x % 2 have rules of their own: no error
    same_output(_E + r"""
z = torch.zeros(0, 3)
for op in (lambda t, s: t * s, lambda t, s: s + 1, lambda t, s: 2 * s, lambda t, s: s / 2, lambda t, s: s - 1,
           lambda t, s: torch.tensor(2.) * s, lambda t, s: s * torch.ones(1), lambda t, s: torch.atan2(t, s),
           lambda t, s: torch.maximum(t, s), lambda t, s: torch.pow(t, s), lambda t, s: torch.rsub(t, s),
           lambda t, s: torch.clamp_min(t, s), lambda t, s: torch.div(t, s, rounding_mode='floor'), lambda t, s: t // s,
           lambda t, s: (s > 0) & (t > 0), lambda t, s: torch.gcd(t.long(), s.long()), lambda t, s: t.long() << s.long(),
           lambda t, s: torch.special.xlog1py(t, s), lambda t, s: torch.dist(t, s), lambda t, s: torch.complex(t, s),
           lambda t, s: s * s, lambda t, s: torch.maximum(s, s), lambda t, s: t.clone().mul_(s), lambda t, s: t == s,
           lambda t, s: torch.where(t > 0, t, s), lambda t, s: t.clamp(min=s), lambda t, s: torch.lerp(t, t, s),
           lambda t, s: s ** 2, lambda t, s: 1 - s, lambda t, s: s % 2, lambda t, s: t + s.unsqueeze(0)):
    E(lambda: vmap(lambda t: op(t, t.sum()))(z))
    E(lambda: vmap(lambda t: op(t, t.sum()))(torch.ones(2, 3)))
E(lambda: vmap(lambda t, u: t * u)(z, torch.zeros(0)))
E(lambda: vmap(lambda t, u: t + u)(torch.zeros(0), torch.zeros(0)))
E(lambda: vmap(lambda t, u: t * u, in_dims=(0, None))(torch.zeros(0), torch.ones(3)))
E(lambda: vmap(lambda t: t * t.sum(), in_dims=1)(torch.zeros(3, 0)))
E(lambda: vmap(vmap(lambda t: t * t.sum()))(torch.zeros(2, 0, 3)))
E(lambda: vmap(vmap(lambda t: t * t.sum()))(torch.zeros(0, 2, 3)))
E(lambda: vmap(lambda a: vmap(lambda b: a.sum() * b)(torch.ones(2, 3)))(z))
E(lambda: vmap(lambda a: vmap(lambda b: a.sum() * b.sum())(torch.ones(2, 3)))(z))
E(lambda: vmap(lambda a: vmap(lambda b: a.sum() * b)(torch.ones(2)))(z))
E(lambda: vmap(torch.func.grad(lambda t: (t * t.sum()).sum()))(z))
E(lambda: vmap(torch.func.grad(lambda t: (t * t).sum()))(z))
""")


def test_tensors_made_from_captured_tensors_have_no_autograd_state_at_the_level():
    # PyTorch's grad / vjp level tracks what depends on its inputs (or on a leaf made during the call): a tensor
    # made from captured tensors alone is a wrapper without autograd state there, even when they require grad
    # outside. A jvp level tracks nothing of that (its inputs neither). Captured tensors themselves are seen as
    # they are. The results still carry the outer graph
    same_output(r"""
import torch
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
pre = w * 3
c = torch.randn(3)
def show(tag, t):
    print(tag, t.requires_grad, type(t.grad_fn).__name__ if t.grad_fn is not None else None, t.is_leaf)
def f(x):
    show('x', x); show('w', w); show('pre', pre); show('w*2', w * 2); show('x*w', x * w); show('x*2', x * 2)
    show('c*2', c * 2); show('pre*2', pre * 2); show('w.view', w.view(3)); show('x.view', x.view(3))
    a = torch.ones(3, requires_grad=True)
    show('a', a); show('a*w', a * w)
    return (x * w).sum()
x = torch.randn(3)
for name, call in (('grad', lambda: torch.func.grad(f)(x)), ('grad rg', lambda: torch.func.grad(f)(x.clone().requires_grad_())),
                   ('vjp', lambda: torch.func.vjp(f, x)[0]), ('jvp', lambda: torch.func.jvp(f, (x,), (torch.ones(3),))[1]),
                   ('jvp rg', lambda: torch.func.jvp(f, (x.clone().requires_grad_(),), (torch.ones(3),))[0]),
                   ('jacrev', lambda: torch.func.jacrev(f)(x))):
    print('==', name)
    print(call())
with torch.no_grad():
    print(torch.func.grad(f)(x))
def outer(y):
    def inner(x):
        show('y', y); show('y*2', y * 2); show('x*y', x * y); show('w*y', w * y)
        return (x * y).sum()
    return torch.func.grad(inner)(y * 1).sum()
print(torch.func.grad(outer)(x))
print(torch.func.jvp(lambda y: torch.func.grad(lambda x: (show('y*x', y * x), show('w*y', w * y), (x * y).sum())[-1])(y), (x,), (torch.ones(3),)))
""")


def test_autograd_grad_inside_a_transform_sees_the_levels_graph():
    # Inside a transform the user's autograd.grad runs at the level: a root without autograd state there is refused,
    # a captured tensor is in no graph of the level (unused), a leaf made inside with requires_grad=True is;
    # retain_grad / register_hook of a tensor without autograd state there refuse as for requires_grad=False
    same_output(r"""
import torch
def E(f):
    try:
        print('no error', f())
    except Exception as e:
        print(type(e).__name__, e)
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
def f(x):
    v = w * 2
    a = torch.ones(3, requires_grad=True)
    E(lambda: torch.autograd.grad(v.sum(), w))
    E(lambda: torch.autograd.grad((v * x).sum(), x))
    E(lambda: torch.autograd.grad((w * x).sum(), w))
    E(lambda: torch.autograd.grad((w * x).sum(), [x, w], allow_unused=True))
    E(lambda: torch.autograd.grad((v * x).sum(), v))
    E(lambda: torch.autograd.grad((a * x).sum(), a))
    E(lambda: torch.autograd.grad((w * a).sum(), a))
    E(lambda: v.retain_grad())
    E(lambda: v.register_hook(lambda g: g))
    E(lambda: (x * 2).register_hook(lambda g: g) is not None)
    return (x * v).sum()
print(torch.func.grad(f)(x))
print(w.grad)
def g(x):
    a = torch.ones(3, requires_grad=True)
    E(lambda: torch.autograd.grad((x * w).sum(), w))
    E(lambda: torch.autograd.grad((a * x).sum(), a))
    return (x * x).sum()
print(torch.func.jvp(g, (x,), (x,)))
""")


def test_nested_transforms_print_a_wrapper_per_level():
    # PyTorch wraps what ops make at every running level and an input (or an argument not differentiated) at its
    # transform's level around the caller's tensor; captured tensors stay as they were made
    same_output(r"""
import torch
x = torch.tensor([1., 2., 3.])
g0 = torch.tensor([5., 6.])
def f(t):
    print(t)
    print(t * 2)
    return (t * t).sum()
torch.func.grad(lambda y: torch.func.grad(f)(y).sum())(x)
torch.func.jvp(lambda y: torch.func.jvp(f, (y,), (y,))[1], (x,), (x,))
torch.func.grad(lambda y: torch.func.grad(f)(y).sum())(torch.arange(12.).reshape(2, 2, 3))
def outer(y):
    z = y * 3
    def inner(a):
        print('a', a); print('y', y); print('z', z); print('z2', z * 2); print('g0', g0); print('g0*2', g0 * 2)
        return (a * y).sum()
    torch.func.grad(inner)(y)
    torch.func.vjp(inner, z)
    torch.func.grad(lambda b: (print('b', b), (b * b).sum())[-1])(g0)
    return (torch.func.grad(inner)(z) * y).sum()
torch.func.grad(outer)(x)
torch.func.grad(lambda a, b: (print('b', b), print('a', a), (a * b).sum())[-1], argnums=1)(x, x * 2)
torch.func.grad(lambda p: torch.func.grad(lambda q: torch.func.grad(lambda r: (print('r', r), print('p', p), print('q*r', q * r), (r * r * q * p).sum())[-1])(q).sum())(p).sum())(x)
""")


def test_an_inputs_example_prints_as_its_batched_tensor_inside_vmap():
    # PyTorch's function gets BatchedTensors: printing one shows the level, the batch dim and the whole input (an
    # outer vmap's BatchedTensor when nested; no rows for a batch of no examples)
    same_output(r"""
import torch
seen = []
def f(t, *rest):
    seen.append(repr(t))
    seen.append(str(t))
    return t * 2
x = torch.arange(6.).reshape(2, 3)
for call in (lambda: torch.func.vmap(f)(x), lambda: torch.func.vmap(f, in_dims=1)(x), lambda: torch.func.vmap(f, in_dims=-1)(x),
             lambda: torch.func.vmap(torch.func.vmap(f))(x.reshape(2, 3, 1)), lambda: torch.func.vmap(torch.func.vmap(f, in_dims=1))(x.reshape(2, 1, 3)),
             lambda: torch.func.vmap(f)(x.clone().requires_grad_()), lambda: torch.func.vmap(f)(torch.zeros(0, 3)),
             lambda: torch.func.vmap(f, in_dims=(0, None))(x, x), lambda: torch.func.vmap(lambda a, b: f(b, a))(x, x + 1),
             lambda: torch.func.vmap(f)(x.double()), lambda: torch.func.vmap(f)(torch.ones(3, 2, dtype=torch.long)),
             lambda: torch.func.vmap(lambda d: f(d['a']))({'a': x})):
    seen.clear()
    call()
    print(seen[0])
    print(seen[1] == seen[0])
""")


def test_warnings_inside_vmap_show_once():
    # PyTorch calls the vmapped function once: a warning it gives shows once, also under simplefilter('always')
    # (jacfwd vmaps its jvps too); a filter of 'default' still shows it once per location
    same_output(r"""
import torch, warnings
def f(t):
    warnings.warn('inside')
    return t * 2
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    torch.func.vmap(f)(torch.ones(3, 2))
    torch.func.vmap(torch.func.vmap(f))(torch.ones(3, 2, 2))
    torch.func.vmap(lambda t: t.float().var(0, correction=5))(torch.ones(3, 2))
    torch.func.jacfwd(f)(torch.ones(3))
    torch.func.jacrev(f)(torch.ones(3))
w = [x for x in w if x.category is UserWarning]   # (PyTorch's first jacfwd in a process warns of torch.jit.script too)
print(len(w), [str(x.message)[:30] for x in w])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('default')
    for _ in range(2):
        torch.func.vmap(f)(torch.ones(3, 2))
print(len(w), [str(x.message) for x in w])
""")


def test_boolean_masks_over_no_examples_reach_the_index_kernel():
    # PyTorch's index batch rule refuses a batched mask whose physical tensor at the rule's level has elements
    # (dynamic shape); over no examples it has none and the index kernel's mask shape check runs, with the batch
    # dims in front. An outer level's examples are one tensor to an inner level's rule (vmap(vmap) over 0 x 2)
    same_output(_E + r"""
z = torch.zeros(0, 3)
E(lambda: vmap(lambda a: a[a > 0])(z))
E(lambda: vmap(lambda a: a[a > 0])(torch.zeros(0, 2, 3)))
E(lambda: vmap(lambda a: a[torch.tensor([True, False, True])])(z))
E(lambda: vmap(lambda a: a.index_put((a > 0,), torch.tensor(1.)))(z))
E(lambda: vmap(lambda a: a.clone().__setitem__(a > 0, 1.))(z))
E(lambda: vmap(vmap(lambda a: a[a > 0]))(torch.zeros(2, 0, 3)))
E(lambda: vmap(vmap(lambda a: a[a > 0]))(torch.zeros(0, 2, 3)))
E(lambda: vmap(lambda a: a[a > 0])(torch.ones(2, 3)))
""")


def test_transform_fuzz_fixes():
    # column_stack has no batching rule, but a grad / jvp transform running inside the vmap decomposes it first;
    # index_reduce / scatter_reduce's prod backward reads its zero count with .item() whenever grad mode is on (a
    # torch.func backward): refused for a batched count; under vmap(chunk_size=) each chunk's call sees the input
    # from the chunk's start (as_strided's bounds); linearize's jvp_fn replays from the primals as the trace saw
    # them, though the function writes its input in place
    same_output(_E + r"""
cs = lambda x: torch.column_stack((x, x)).sum()
x = torch.ones(3, 2)
E(lambda: vmap(cs)(x))
E(lambda: vmap(torch.func.grad(cs))(x))
E(lambda: vmap(lambda y: torch.func.jvp(cs, (y,), (y,))[1])(x))
E(lambda: vmap(lambda y: torch.func.grad(lambda z: (torch.column_stack((y, y)) * z).sum())(y))(x))
E(lambda: torch.func.grad(lambda y: vmap(cs)(y).sum())(x))
E(lambda: vmap(lambda y: torch.func.grad(lambda z: vmap(lambda q: torch.column_stack((q, y)).sum())(z).sum())(y[None]))(x))
idx = torch.tensor([0, 1, 0])
a = torch.rand(2, 3, generator=torch.Generator().manual_seed(0)) + 0.5
for op in ('index_reduce', 'scatter_reduce'):
    f = lambda a, s: getattr(a, op)(0, idx, s, 'prod', include_self=True).sum()
    E(lambda: vmap(torch.func.grad(f, argnums=(0, 1)))(a, a))
    E(lambda: vmap(torch.func.grad(f, argnums=0), in_dims=(0, None))(a, a[0]))
    E(lambda: torch.func.jacrev(f, argnums=1)(a[0], a[0]))
    E(lambda: torch.func.grad(lambda s: vmap(f, in_dims=(None, 0))(a[0], s).sum())(a))
y = torch.arange(12.).reshape(4, 3)
for c in (None, 1, 2, 3):
    E(lambda: vmap(lambda t: t.as_strided((2,), (1,), 0), chunk_size=c)(y))
    E(lambda: vmap(lambda t: t.as_strided((2,), (1,), 3), chunk_size=c)(y))
    E(lambda: vmap(lambda t: t.as_strided((2,), (2,), 6), in_dims=1, chunk_size=c)(y.t().contiguous()))
b = torch.tensor([[1.0, 0.0], [0.55, 0.0], [0.7, 0.0]])
def g(b):
    b[0].sub_(0.2)
    return torch.median(b, dim=0)[0]
out, jvp_fn = torch.func.linearize(g, b)
print(out, b)
print(jvp_fn(torch.tensor([[1., 1.], [2., 2.], [3., 3.]])), b)
""")


def test_index_fill_with_a_batched_value_inside_vmap():
    # PyTorch's index_fill batch rule fills each example with its own value: no .item() of the batched 0-d value
    # (a batched value into an unbatched self in place is the in-place rule's refusal)
    same_output(_E + r"""
x = torch.arange(6.).reshape(2, 3)
i = torch.tensor([0])
for f in (lambda t: t.index_fill(0, i, t.sum()), lambda t: t.clone().index_fill_(0, i, t.sum()),
          lambda t: torch.zeros(3).index_fill_(0, i, t.sum()), lambda t: t.index_fill(0, i, t[0] + 1j),
          lambda t: t.index_fill(0, i, torch.tensor(2.))):
    E(lambda: vmap(f)(x))
E(lambda: vmap(vmap(lambda t: t.index_fill(0, i, t.sum())))(x[None]))
print(vmap(lambda t: t.index_fill(0, i, t.sum()))(x))
""")


def test_a_custom_functions_vmap_rule_sees_a_batch_of_no_examples():
    # PyTorch calls func once on the batch of no examples: a custom Function's vmap staticmethod gets
    # info.batch_size 0 and inputs without rows (minigrad's loop calls func on one stand-in example)
    same_output(r"""
import torch
class F(torch.autograd.Function):
    @staticmethod
    def forward(x, y):
        return x * y, x + 1
    @staticmethod
    def setup_context(ctx, inputs, output):
        pass
    @staticmethod
    def backward(ctx, g, h):
        return g * 2, g
    @staticmethod
    def vmap(info, in_dims, x, y):
        print('info', info.batch_size, in_dims, tuple(x.shape), tuple(y.shape))
        xb = x.movedim(in_dims[0], 0) if in_dims[0] is not None else x
        return (xb * 2, x), (0, in_dims[0])
for args, dims in (((torch.zeros(0, 3), torch.ones(3)), (0, None)), ((torch.zeros(0, 3), torch.ones(0, 3)), 0),
                   ((torch.zeros(3, 0), torch.ones(3)), (1, None)), ((torch.ones(2, 3), torch.ones(3)), (0, None))):
    r = torch.func.vmap(lambda a, b: F.apply(a * 1, b), in_dims=dims)(*args)
    print([tuple(t.shape) for t in r])
    r = torch.func.vmap(lambda a, b: F.apply(a, b)[0].sum(), in_dims=dims)(*args)
    print(r)
""")
