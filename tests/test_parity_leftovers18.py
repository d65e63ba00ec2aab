"""Session 18 leftovers: what the legacy vmap of ``autograd.grad(is_grads_batched=True)`` (and gradcheck's batched
check) refuses in a custom backward; gradcheck of sparse inputs (``masked``); TorchFunctionMode and
``torch.overrides`` seeing torch.linalg / fft / special calls; mm / addmm / matmul errors with a sparse operand of the
wrong rank; the order of ``torch.cat(out=)``'s checks; vmap over a batch of no examples.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch

# A custom Function whose backward calls ``op(g)`` on its incoming gradient, then returns g * 2.
_CALLS_IN_BACKWARD = """
torch.manual_seed(0)
x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64, requires_grad=True)
cap = torch.zeros(3, dtype=torch.float64)
def with_backward(op):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            op(g)
            return g * 2
    return F
"""


def test_is_grads_batched_refusals_are_the_legacy_vmaps():
    # PyTorch vmaps the backward with torch._vmap_internals: no rule for detach (numpy()), item, is_nonzero (if,
    # print), allclose; random ops refused outright; in-place writes of a batched value go through its fallback
    same_as_torch(_CALLS_IN_BACKWARD + """
ops = {
    'numpy': lambda g: g.numpy(), 'detach': lambda g: g.detach(), 'tolist': lambda g: g.tolist(),
    'item': lambda g: g[0].item(), 'float': lambda g: float(g[0]), 'bool': lambda g: bool(g[0] > 0),
    'print': lambda g: print(g), 'data_ptr': lambda g: g.data_ptr(), 'storage': lambda g: g.untyped_storage(),
    'equal': lambda g: torch.equal(g, g), 'allclose': lambda g: torch.allclose(g, g),
    'nonzero': lambda g: g.nonzero(), 'masked_select': lambda g: g.masked_select(g > 0),
    'randn': lambda g: torch.randn(3), 'rand_like': lambda g: torch.rand_like(g),
    'bernoulli': lambda g: torch.bernoulli(g.abs().clamp(max=1)), 'normal_': lambda g: g.clone().normal_(),
    'cap.copy_': lambda g: cap.copy_(g), 'cap.add_': lambda g: cap.add_(g), 'cap.mul_': lambda g: cap.mul_(g),
    'cap.index_put_': lambda g: cap.index_put_((torch.tensor([0, 1, 2]),), g),
    'own.add_': lambda g: torch.zeros(3, dtype=torch.float64).add_(g), 'g.add_': lambda g: g.add_(1),
    'mul_out': lambda g: torch.mul(g, 2, out=torch.empty(3, dtype=torch.float64)),
    'backward': lambda g: (x * 1).sum().backward(),
}
for name, op in ops.items():
    y = with_backward(op).apply(x)
    try:
        r, = torch.autograd.grad(y, x, torch.tensor([[1.0, 2, 3], [4, 5, 6]], dtype=torch.float64),
                                 is_grads_batched=True)
        print(name, 'ok', r.tolist())
    except Exception as e:
        print(name, type(e).__name__, e)
print(torch.randn(2))   # (the generator did not move)
""")


def test_gradcheck_batched_grad_reports_the_vmap_error():
    # gradcheck(check_batched_grad=True) raises GradcheckError "While computing batched gradients, got: <error>"
    # followed by its advice; raise_exception=False returns False
    same_as_torch(_CALLS_IN_BACKWARD + """
from torch.autograd import gradcheck
for op in (lambda g: g.numpy(), lambda g: g.tolist(), lambda g: g.sum().item()):
    F = with_backward(op)
    E(lambda: gradcheck(F.apply, (x,), check_batched_grad=True))
    print(gradcheck(F.apply, (x,), check_batched_grad=True, raise_exception=False))
print(gradcheck(with_backward(lambda g: g.sin()).apply, (x,), check_batched_grad=True))
""")


def test_function_mode_sees_linalg_fft_special_calls():
    # torch.linalg.det & co are C++-bound: a mode sees the function itself (named linalg_det), not the Tensor
    # methods its implementation calls; torch.einsum is torch.functional.einsum (Python-level: Tensor in the types)
    same_as_torch("""
from torch.overrides import TorchFunctionMode, resolve_name
class M(TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print(resolve_name(func), func.__name__, [t.__name__ for t in types], kwargs)
        return func(*args, **(kwargs or {}))
a = torch.eye(2, dtype=torch.float64) + 1
with M():
    r = torch.linalg.det(a), torch.linalg.norm(a, ord=2)
    torch.linalg.inv(a); torch.linalg.svd(a); torch.linalg.solve(a, a); torch.linalg.vector_norm(a)
    torch.det(a); torch.einsum("ij,jk", a, a)
    torch.fft.fft(a); torch.fft.rfft(a); torch.fft.fftfreq(4)
    torch.special.erf(a); torch.special.expit(a); torch.special.logsumexp(a, 0)
print(r)
print(torch.linalg.det.__name__, torch.fft.ifft.__name__, torch.special.xlogy.__name__)
""")


def test_overrides_names_of_linalg_fft_special_and_functional():
    # resolve_name: torch.functional.<f> for the functions PyTorch writes in torch/functional.py; get_overridable_
    # functions has torch.functional, torch.linalg, torch.fft and torch.special entries
    same_as_torch("""
from torch.overrides import get_overridable_functions, resolve_name
print(resolve_name(torch.functional.norm), resolve_name(torch.norm), resolve_name(torch.einsum),
      resolve_name(torch.functional.split), resolve_name(torch.linalg.norm), resolve_name(torch.linalg.vector_norm),
      resolve_name(torch.fft.fft), resolve_name(torch.special.erf), resolve_name(torch.linalg.det),
      resolve_name(torch.add), resolve_name(torch.nn.functional.relu), resolve_name(torch.Tensor.add))
print(torch.functional.norm is torch.norm, torch.functional.einsum is torch.einsum)
fs = get_overridable_functions()
for ns, names in ((torch.linalg, ('det', 'inv', 'norm', 'svd', 'solve', 'cholesky', 'qr', 'eigh')),
                  (torch.fft, ('fft', 'ifft', 'rfft', 'fftn')), (torch.special, ('erf', 'expit', 'gammaln')),
                  (torch.functional, ('norm', 'einsum', 'split'))):
    print(ns in fs, [getattr(ns, n) in fs[ns] for n in names])
""")


_SPARSE = """
i = torch.tensor([[0, 1], [1, 0], [0, 1]])
s3 = torch.sparse_coo_tensor(i, torch.tensor([1., 2.]), (2, 2, 2))
s2 = torch.sparse_coo_tensor(i[:2], torch.tensor([1., 2.]), (2, 2))
s1 = torch.sparse_coo_tensor(i[:1], torch.tensor([1., 2.]), (2,))
h = torch.sparse_coo_tensor(i[:2], torch.ones(2, 3), (2, 2, 3))
d1, d2, d3 = torch.ones(2), torch.ones(2, 2), torch.ones(2, 2, 2)
"""


def test_sparse_mm_wrong_ranks():
    # _sparse_mm asks mat1.size(-2) and mat2.size(1) first, then addmm checks sparse_dim, dense_dim, the dense
    # operand's rank and the sizes; dense @ sparse transposes the sparse operand first; sparse @ sparse: its asserts
    same_as_torch(_SPARSE + """
pairs = [(s3, d2), (s2, d3), (s3, d1), (s2, d1), (h, d2), (s1, d2), (s1, d1), (d2, s3), (d2, s1), (d1, s2),
         (d3, s2), (d2, h), (s3, s3), (s2, s3), (s2, torch.ones(3, 2)), (torch.ones(2, 3), s2)]
for a, b in pairs:
    E(lambda: print(torch.mm(a, b)))
    E(lambda: print(torch.sparse.mm(a, b)))
print(torch.sparse.mm(s2, d2), torch.mm(d2, s2))
for bias in (torch.ones(3), d3, d2):
    E(lambda: print(torch.sparse.addmm(bias, s2, d2)))
    E(lambda: print(torch.addmm(bias, s3, d2)))
E(lambda: print(torch.addmm(d2, s2, torch.ones(3, 2))))
""")


def test_matmul_sparse_operand_of_three_dims():
    # matmul folds a 3-d operand facing one of at most 2 dims (a reshape), else expands both to a batch
    same_as_torch(_SPARSE + """
for a, b in [(s3, d2), (s2, d3), (d3, s2), (s3, d1), (d1, s3), (s2, d1), (s1, d2), (d2, s3), (s3, s3)]:
    E(lambda: print(torch.matmul(a, b)))
E(lambda: print(s3 @ d2))
""")


def test_cat_out_checks_zero_dim_and_dim_before_dtype():
    # PyTorch's meta cat: zero-dim tensors, then dim wrapped against the first tensor not skipped (a 1-d empty
    # one is), then out='s dtype, then the sizes
    same_as_torch("""
a = torch.ones(2, dtype=torch.complex64)
w = torch.empty(5, dtype=torch.int64)
E(lambda: torch.cat([a, torch.tensor(1.)], out=w))
E(lambda: torch.cat([a, torch.ones(3)], dim=2, out=w))
E(lambda: torch.cat([a, torch.ones(3)], dim=-2, out=w))
E(lambda: torch.cat([a, torch.ones(3)], out=w))
E(lambda: torch.cat([torch.ones(0), torch.ones(0).to(torch.complex64)], dim=3, out=w))
E(lambda: torch.cat([torch.ones(0), a], dim=3, out=w))
E(lambda: torch.cat([a, torch.ones(2, 2)], dim=2, out=w))
E(lambda: torch.cat([a, torch.ones(2, 2)], out=w))
E(lambda: torch.cat([torch.ones(2, 2).to(torch.complex64), torch.ones(0)], dim=3, out=w))
E(lambda: torch.cat([a, torch.ones(2, 2)], out=torch.empty(5, dtype=torch.complex64)))
o = torch.empty(5, dtype=torch.complex64)
print(torch.cat([a, torch.ones(3)], out=o), o)
""")


def test_gradcheck_sparse_inputs():
    # masked=True perturbs a sparse input's specified values only (a repeated entry: its last copy gives the row);
    # otherwise every element, made specified (_densify), so an analytical gradient masked to the pattern
    # mismatches; a sparse output is refused
    same_as_torch("""
from torch.autograd import gradcheck
i = torch.tensor([[0, 1, 1], [1, 0, 0]])
u = torch.sparse_coo_tensor(i, torch.tensor([1.0, 2.0, 0.5], dtype=torch.float64), (2, 3)).requires_grad_()
c = u.detach().coalesce().requires_grad_()
h = torch.sparse_coo_tensor(i[:1, :2], torch.ones(2, 3, dtype=torch.float64), (2, 3)).requires_grad_()
w = torch.ones(3, 2, dtype=torch.float64)
for s in (u, c, h):
    for masked in (True, False):
        E(lambda: print(gradcheck(lambda t: (t.to_dense() ** 2).sum(0), (s,), masked=masked)))
        E(lambda: print(gradcheck(lambda t: torch.sparse.mm(t, w), (s,), masked=masked)))
d = torch.ones(2, 3, dtype=torch.float64, requires_grad=True)
E(lambda: print(gradcheck(lambda t, d: (t.to_dense() * d).sum(), (c, d), masked=True)))
E(lambda: print(gradcheck(lambda t: t * 2, (c,), masked=True)))
print(gradcheck(lambda t: t.to_dense(), (c,), masked=False, raise_exception=False))
""")


def test_vmap_over_no_examples_refuses_no_values():
    # PyTorch's one call over a batch of no examples sees no values: no factorization fails, no probability is
    # refused (minigrad's stand-in example must not raise what PyTorch cannot); the vmap refusals still come
    same_as_torch("""
from torch.func import vmap
for f, x in ((torch.linalg.cholesky, torch.zeros(0, 3, 3)),
             (torch.linalg.inv, torch.zeros(0, 2, 2, dtype=torch.float64)),
             (lambda m: torch.linalg.solve(m, m), torch.zeros(0, 2, 2)), (lambda v: 1 / v, torch.zeros(0, 3)),
             (torch.log, torch.zeros(0, 4)), (lambda i: torch.arange(5.)[i], torch.zeros(0, dtype=torch.int64)),
             (lambda v: torch.multinomial(v, 1), torch.zeros(0, 3)), (lambda v: v.nonzero(), torch.zeros(0, 3))):
    E(lambda: print(tuple(vmap(f)(x).shape)))
""")


def test_each_node_runs_in_the_passs_grad_mode():
    # PyTorch restores its graph task's thread-local state (grad mode) for every node: a grad mode changed during
    # the pass (here a forgotten generator's `with enable_grad()`, closed by the garbage collector in a hook) does not
    # make the next nodes record, nor .grad a CopyBackwards (found as an order-dependent failure of the suite)
    same_as_torch("""
import gc
def gen():
    with torch.enable_grad():
        yield 1
d = torch.tensor([[0.5, -1.0], [2.0, -0.25]], dtype=torch.float64, requires_grad=True)
v = torch.nn.functional.logsigmoid(d)
v.masked_fill_(d < 0, d.sum())
g, = torch.autograd.grad((v * v).sum(), d, create_graph=True)
class Cycle:
    pass
c = Cycle(); c.self = c; c.g = gen(); next(c.g); del c
gg = g * g
gg.register_hook(lambda t: gc.collect() and None)
gg.sum().backward()
print(d.grad, torch.is_grad_enabled())
def hook(t):
    torch.set_grad_enabled(True)   # (left on by a hook: only this node runs with it)
w = torch.ones(2, requires_grad=True)
u = (w * w).exp()
u.register_hook(hook)
u.sum().backward()
print(w.grad, torch.is_grad_enabled())
""")
