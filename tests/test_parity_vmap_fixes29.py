"""Transform fuzz fixes of session 29: lerp and amax tangents, vmap over no examples, a batched tensor is no view.

lerp's forward formula is PyTorch's ``lerp(self_t, end_t, weight)`` (``+ weight_t · (end - self)`` for a tensor
weight), so the tangents must share a dtype: a float64 tangent of a 0-d float32 primal under torch.func.jvp (a
Python number lifted to a 0-d double tensor) beside a float32 one is lerp's "expected dtype" error (func 40128), and
an infinite tangent gives the fused kernel's nan. Inside a vmap over no examples a view with a -1 is ambiguous on
PyTorch's physical tensor of 0 elements (meshgrid's view(-1, 1): cartesian_prod, combinations; ravel; view's forward
formula under jacfwd of an empty input), ops without a batching rule (histc, bincount, histogram) are refused by the
slow fallback, and vmap with chunk_size never calls the function. A tensor batched at a vmap is PyTorch's
BatchedTensor wrapper, which is no view. amax / amin's tangent averages the extreme elements' tangents with a where(),
so another element's infinite tangent stays out (forward_ad 39974). tanh_backward / sigmoid_backward's forward
formulas conjugate the output and its tangent (forward over reverse of complex tanh, func 41000), and scatter_add's
is the front-end's scatter_add of the tangents, with its dtype check (func 40731).

Each test is one short program run with minigrad and with PyTorch (``parity.same_output``): the printed values and
exception messages must be the same.
"""
from __future__ import annotations

from parity import same_output

_E = r"""
import torch
from torch.func import grad, jacfwd, jacrev, jvp, vmap
fa = torch.autograd.forward_ad
def E(f):
    try:
        r = f()
        print('ok', r if not isinstance(r, torch.Tensor) else (r.shape, r.dtype, r))
    except Exception as e:
        print(type(e).__name__, str(e)[:200])
"""


def test_lerp_tangent_is_a_lerp_of_the_tangents():
    # PyTorch's lerp jvp lerps the tangents: a float64 tangent beside a float32 one is refused (func 40128, where
    # acosh(a.abs() + 1.5) of a 0-d float32 a has a float64 tangent under jvp); minigrad summed the partials
    same_output(_E + r"""
a = torch.tensor(-0.7)
E(lambda: jvp(lambda a: torch.lerp(a, torch.acosh(a.abs() + 1.5), 0.3), (a,), (torch.ones(()),)))
E(lambda: jvp(lambda a: torch.lerp(a, a * 2.5, torch.tensor(0.3)), (a,), (torch.ones(()),)))
E(lambda: jvp(lambda a: torch.lerp(a * 2.5, a, 0.3), (torch.ones(2),), (torch.ones(2),)))
E(lambda: jacfwd(lambda a: torch.lerp(a, a.sin(), a.cos()))(torch.tensor([0.5, -1., 3.])))
with fa.dual_level():
    x, y = torch.tensor([1., 2., float('inf')]), torch.tensor([0.5, -1., 3.])
    tx, ty = torch.tensor([1., float('inf'), 2.]), torch.tensor([float('nan'), 1., -2.])
    D = fa.make_dual
    for f in (lambda: torch.lerp(D(x, tx), D(y, ty), 0.3), lambda: torch.lerp(D(x, tx), y, 0.7),
              lambda: torch.lerp(x, y, D(torch.tensor([0.2, 0.6, 0.9]), tx)),
              lambda: torch.lerp(D(y, tx), x, torch.tensor(0.2, dtype=torch.float64)),
              lambda: D(y.clone(), ty).lerp_(x, D(torch.tensor([0.2, 0.6, 0.9]), tx)),
              lambda: torch.lerp(D(y.double(), tx), D(x.double(), tx.double()), 0.4)):
        E(lambda: fa.unpack_dual(f()))
""")


def test_view_with_minus_one_over_no_examples():
    # PyTorch's view batch rule views the physical tensor: with a batch of no examples the -1 is ambiguous (the
    # physical shape in the message), even where each example has elements; minigrad's stand-in example viewed fine
    same_output(_E + r"""
e = torch.ones(0, 3)
E(lambda: vmap(lambda a: a.view(-1, 1))(e))
E(lambda: vmap(lambda a: a.view(3, 1))(e))
E(lambda: vmap(lambda a: a.reshape(-1, 1))(e))
E(lambda: vmap(lambda a: a.t().reshape(-1, 2))(torch.ones(0, 2, 3)))   # (not contiguous: no view, no error)
E(lambda: vmap(lambda a: a.ravel())(torch.ones(0, 2, 3)))
E(lambda: vmap(lambda a: a.flatten())(torch.ones(0, 2, 3)))
E(lambda: vmap(lambda a: a.view(-1, 1), in_dims=1)(torch.ones(3, 0)))
E(lambda: vmap(lambda a: vmap(lambda b: b.view(-1))(a))(torch.ones(2, 0, 3)))
E(lambda: vmap(lambda a: vmap(lambda b: b.view(-1), in_dims=1)(a))(torch.ones(2, 0, 3)))
E(lambda: vmap(lambda a, b: b.view(-1), in_dims=(0, None))(e, torch.ones(3)))
E(lambda: vmap(lambda a: torch.meshgrid(a, a, indexing="ij")[0])(e))
E(lambda: vmap(lambda a: torch.cartesian_prod(a, a))(e))
E(lambda: vmap(lambda a: torch.cartesian_prod(a))(e))
E(lambda: vmap(lambda a, b: torch.cartesian_prod(a, b), in_dims=(0, None))(e, torch.ones(2)))
E(lambda: vmap(lambda a: torch.combinations(a))(e))
E(lambda: vmap(lambda a: torch.combinations(a, 3, True))(e))
E(lambda: vmap(lambda a: torch.combinations(a))(torch.ones(2, 3)))
# (jacfwd of a function of an input without elements: a vmap over no basis vectors, where view's forward formula
# views the batched tangent)
E(lambda: jacfwd(lambda a: a.view(-1) * 2)(torch.ones(0)))
E(lambda: jacfwd(lambda a: a.reshape(-1, 1) * 2)(torch.ones(0)))
E(lambda: jacfwd(lambda a: torch.cartesian_prod(a, a))(torch.ones(0)))
E(lambda: torch.func.hessian(lambda a: a.view(-1).sum())(torch.ones(0)))
E(lambda: jacrev(lambda a: (a[:0] * 2).view(-1, 1))(torch.ones(3)))
E(lambda: jacrev(lambda a: a[:0] * 2, chunk_size=1)(torch.ones(3)))
""")


def test_ops_without_a_batching_rule_over_no_examples():
    # histc, bincount and histogram have no batching rule: PyTorch's slow fallback refuses a batch of no examples
    # (before the kernel's own checks)
    same_output(_E + r"""
import warnings
warnings.simplefilter("ignore")   # (PyTorch's "performance drop" warning for the fallback)
e, i = torch.ones(0, 3), torch.ones(0, 3, dtype=torch.long)
E(lambda: vmap(lambda a: torch.histc(a))(e))
E(lambda: vmap(lambda a: torch.histc(a, 4, 0, 1))(e))
E(lambda: vmap(lambda a: torch.histc(a, -1))(e))
E(lambda: vmap(lambda a: torch.bincount(a))(i))
E(lambda: vmap(lambda a: torch.bincount(a.float()))(i))
E(lambda: vmap(lambda a, w: torch.bincount(a, w))(i, torch.ones(0, 3)))
E(lambda: vmap(lambda w: torch.bincount(torch.ones(3, dtype=torch.long), w))(torch.ones(0, 3)))
E(lambda: vmap(lambda a: torch.bincount(a, minlength=5))(i))
E(lambda: vmap(lambda a: vmap(torch.histc)(a))(torch.ones(2, 0, 3)))
E(lambda: vmap(lambda a: torch.histc(a, 4, 0, 1))(torch.ones(2, 3)))
E(lambda: vmap(lambda a: torch.bincount(a))(torch.ones(2, 3, dtype=torch.long)))
E(lambda: vmap(lambda a: torch.histogram(a, 3)[0])(e))
E(lambda: vmap(lambda a: torch.histogram(a, torch.tensor([0., 1., 2.]))[0])(e))
E(lambda: vmap(lambda w: torch.histogram(torch.ones(3), 3, weight=w)[0])(e))
E(lambda: vmap(lambda a: torch.histogram(a, 3)[0])(torch.ones(2, 3)))
""")


def test_chunked_vmap_over_no_examples():
    # PyTorch's chunked vmap splits no examples into no chunks, never calls the function and finds no outputs
    same_output(_E + r"""
E(lambda: vmap(lambda a: a * 2, chunk_size=2)(torch.ones(0, 3)))
E(lambda: vmap(lambda a, b: a * b, in_dims=(0, None), chunk_size=1)(torch.ones(0, 3), torch.ones(3)))
E(lambda: vmap(lambda a: a * 2, chunk_size=2)(torch.ones(3, 3)))
E(lambda: vmap(lambda a: a * 2)(torch.ones(0, 3)))
""")


def test_batched_tensor_is_no_view():
    # a tensor batched at a vmap (not under a grad transform inside it) is PyTorch's BatchedTensor wrapper, which is
    # no view whatever the example; minigrad's slices are views of the input
    same_output(_E + r"""
x = torch.ones(3, 3, 3)
def probe(fn, *xs, **kw):
    seen = []
    def f(*a):
        seen.append(fn(*a))
        return a[0] * 1
    vmap(f, **kw)(*xs)
    print(seen[0])
probe(lambda a: a._is_view(), x)
probe(lambda a: (a[0]._is_view(), a.view(9)._is_view(), a.t()._is_view(), a.expand(2, 3, 3)._is_view()), x)
probe(lambda a: a._is_view(), x, in_dims=1)
probe(lambda a: a._is_view(), x[:, 0])
probe(lambda a, b: (b._is_view(), b[0]._is_view()), x, x[0], in_dims=(0, None))   # (b unbatched: a plain view)
inner = []
probe(lambda a: vmap(lambda b: (inner.append(b[0]._is_view()), b)[1])(a) is None, x)
probe(lambda a: grad(lambda b: (inner.append((b._is_view(), b[0]._is_view())), b.sum())[1])(a) is None, x)
print(inner[0], inner[-1])   # (grad's wrapper has views)
""")


def test_amax_tangent_leaves_other_elements_out():
    # PyTorch's amaxamin_jvp averages the tangents of the extreme elements with a where(): an infinite tangent
    # elsewhere (x / arange(3)'s first element) stays out (forward_ad 39974); minigrad's 0 · inf product gave nan
    same_output(_E + r"""
x = torch.tensor([[1., 3., 3.], [-0., 2., float('inf')]])
t = torch.tensor([[-0., 1., 2.], [float('nan'), -0., 5.]])
for dt in (torch.float32, torch.float16):
    with fa.dual_level():
        d = fa.make_dual(x.to(dt), t.to(dt))
        for f in (torch.amax, torch.amin):
            for kw in ({}, {"dim": 0}, {"dim": 1, "keepdim": True}, {"dim": (0, 1)}, {"dim": -1}):
                E(lambda: fa.unpack_dual(f(d, **kw)))
        E(lambda: fa.unpack_dual(torch.amax(fa.make_dual(torch.tensor(2., dtype=dt), torch.tensor(-0., dtype=dt)), 0)))
        E(lambda: fa.unpack_dual(torch.amax(fa.make_dual(torch.ones(2, 0, dtype=dt), torch.ones(2, 0, dtype=dt)), 0)))
with fa.dual_level():
    v0 = torch.true_divide(fa.make_dual(torch.tensor([[-1., 2., 3.]]), torch.tensor([[1., 1., -0.46]])),
                           torch.arange(3))
    E(lambda: fa.unpack_dual(v0.amax((1,), keepdim=True)))
print(jacfwd(lambda a: a.amax(0))(x[0]))
print(torch.func.hessian(lambda a: a.amax(0).sum() * a.sum())(x[0]))
""")


def test_tanh_sigmoid_backward_tangents_of_complex_outputs():
    # PyTorch's forward formulas of tanh_backward / sigmoid_backward conjugate the output's tangent and the output
    # (the gradient is anti-holomorphic in y): forward over reverse of complex tanh / sigmoid (func 41000's hessian)
    same_output(_E + r"""
a = torch.tensor([0.3, -0.8], dtype=torch.float64)
for op in (torch.tanh, torch.sigmoid):
    f = lambda a: torch.view_as_real(op(a * (1 + 0.5j))).sum()
    print(torch.func.hessian(f)(a), jacfwd(jacrev(f))(a.float()))
    print(torch.func.hessian(lambda a: op(a * 0.5).sum())(a))
g = torch.tensor([1 - 1j, 0.5 + 2j], dtype=torch.complex128)
z = torch.tensor([0.3 + 0.15j, -0.4 + 0.7j], dtype=torch.complex128)
for op in (torch.tanh, torch.sigmoid):   # (jvp of the vjp: the backward op's forward formula, complex y)
    E(lambda: jvp(lambda z: torch.func.vjp(op, z)[1](g)[0], (z,), (z.conj() * 0.5,)))
""")


def test_scatter_add_tangent_dtypes_checked():
    # scatter_add's forward formula is a scatter_add of the tangents, whose dtype check refuses a float64 tangent of a
    # float32 primal (clamp under jacfwd with a batched 0-d float64 bound) beside a float32 one (func 40731)
    same_output(_E + r"""
b, c = torch.tensor(0.5, dtype=torch.float64), torch.tensor([0.2, 0.9])
i = torch.tensor([0])
E(lambda: jacfwd(lambda b, c: c.clamp(min=b).scatter_add(0, i, c[:1]), argnums=(0, 1))(b, c)[0])
E(lambda: jacfwd(lambda b, c: c.clamp(min=b) * 1, argnums=(0, 1))(b, c)[0])
E(lambda: jacfwd(lambda c: c.clamp(min=b).scatter_add(0, i, c[:1]))(c))
E(lambda: jvp(lambda c: (c * 2).scatter_add(0, i, c[:1]), (c,), (c,)))
E(lambda: jacfwd(lambda s, c: s.scatter_add(0, i, c[:1]), argnums=(0, 1))(c * 2, c))
""")
