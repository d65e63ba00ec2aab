"""index_fill / index_put / masked_scatter / lerp_ and the in-place random samplers; NAdam, RAdam and the
options of SGD / Adam / AdamW; torch.utils.checkpoint; torch.svd / qr / cholesky and the nuclear and
spectral norms: compared with PyTorch.

Most tests are programs run once with ``import minigrad as torch`` and once with PyTorch (``same_as_torch``):
their printed output (values, grad_fn names, ``_saved_*`` values, versions, exception types and messages)
must be the same. The samplers draw PyTorch's own random numbers, so after ``manual_seed`` their values
match too. Optimizers are compared bit for bit in float64.
"""
from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pytest
from parity import ERROR_PRELUDE, torch_or_skip
from parity import same_as_torch as _same_as_torch

import minigrad as mg

# TE(f): like E(f), for PyTorch's TypeErrors (minigrad raises a subclass for "invalid combination of arguments").
PRELUDE = ERROR_PRELUDE + """def TE(f):
    try:
        f()
        print('no error')
    except TypeError as e:
        print('TypeError', e)
"""


def same_as_torch(program: str) -> str:
    """parity.same_as_torch with the TE helper."""
    return _same_as_torch(program, PRELUDE)

# =============================================================================================
# index_fill, index_put, masked_scatter
# =============================================================================================


def test_index_fill_values_nodes_and_gradients_match_torch():
    same_as_torch("""
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
y = x.index_fill(1, torch.tensor([0, 2]), -1.5)
print(y, type(y.grad_fn).__name__, y.grad_fn._saved_dim, y.grad_fn._saved_index)
y.sum().backward(); print(x.grad)
v = torch.tensor(7., requires_grad=True)
z = torch.index_fill(x, -1, torch.tensor([2, 0, 2]), v)
print(z, z.grad_fn.name(), z.grad_fn._saved_dim, z.grad_fn._saved_index, len(z.grad_fn.next_functions))
(z * torch.arange(6.).view(2, 3)).sum().backward(); print(v.grad, x.grad)
w = x * 1
w.index_fill_(0, torch.tensor([1]), 0.25); print(w, w._version, w.grad_fn)
print(torch.tensor(3.).index_fill(0, torch.tensor([0]), 1.), torch.tensor(3.).index_fill(0, torch.tensor(0), 2.))
print(x.detach().long().index_fill(1, torch.tensor([1]), 1.9), x.detach().bool().index_fill(1, torch.tensor([1]), 0))
print(x.detach().index_fill(1, torch.tensor([-1]), torch.tensor(5, dtype=torch.int64)))
E(lambda: x.detach().index_fill(1, torch.tensor([0.]), 1.))
E(lambda: x.detach().index_fill(1, torch.tensor([0], dtype=torch.int32), 1.))
E(lambda: x.detach().index_fill(1, torch.tensor([[0]]), 1.))
E(lambda: x.detach().index_fill(1, torch.tensor([3]), 1.))
E(lambda: x.detach().index_fill(1, torch.tensor([-4]), 1.))
E(lambda: x.detach().index_fill(2, torch.tensor([0]), 1.))
E(lambda: x.detach().index_fill(1, torch.tensor([0]), torch.tensor([1., 2.])))
E(lambda: x.detach().index_fill(1, torch.tensor([0]), 1 + 2j))
E(lambda: x.index_fill_(1, torch.tensor([0]), 1.))
""")


def test_index_put_values_nodes_and_gradients_match_torch():
    same_as_torch("""
x = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
v = torch.tensor([10., 20.], requires_grad=True)
y = x.index_put((torch.tensor([2, 0]),), v)
print(y, y.grad_fn.name(), y.grad_fn._saved_indices, y.grad_fn._saved_accumulate)
(y * torch.arange(6.).view(3, 2)).sum().backward(); print(x.grad, v.grad)
z = torch.index_put(x, (torch.tensor([1, 1]), torch.tensor([0, 0])), torch.tensor(1.5), accumulate=True)
print(z, z.grad_fn._saved_accumulate)
m = torch.tensor([True, False, True])
print(x.index_put((m,), torch.tensor(9.)), x.index_put([m], torch.tensor([7])))
m2 = torch.tensor([[True, False], [False, True], [True, True]])
print(x.index_put((m,), torch.tensor([1., 2.])), x.index_put((m2,), torch.tensor(0.)))
w = x * 1
r = w.index_put_((torch.tensor([0]), torch.tensor([1])), torch.tensor(-1.))
print(r is w, w, w._version, w.grad_fn.name())
u = torch.zeros(3, 2)
torch.index_put_(u, (torch.tensor([2]),), torch.tensor([3., 4.]), True); print(u, u._version)
E(lambda: x.index_put((torch.tensor([0]),), 1.))
E(lambda: x.index_put((torch.tensor([0.]),), torch.tensor(1.)))
E(lambda: x.index_put((torch.tensor([3]),), torch.tensor(1.)))
E(lambda: x.index_put((torch.tensor([0]),) * 3, torch.tensor(1.)))
E(lambda: x.index_put((None, torch.tensor([0])), torch.tensor(1.)))
E(lambda: x.index_put((torch.tensor([0]),), torch.tensor([1., 2., 3.])))
E(lambda: x.index_put((torch.tensor([0]),), torch.tensor([1., 2.], dtype=torch.float64)))
E(lambda: x.index_put((torch.tensor([0]), torch.tensor([0, 1, 1])), torch.tensor(1.)))
E(lambda: x.index_put((torch.tensor([True, False]),), torch.tensor(1.)))
E(lambda: x.index_put((torch.tensor([1, 0, 1], dtype=torch.uint8),), torch.tensor(1.)))
E(lambda: x.index_put_((torch.tensor([0]),), torch.tensor([1., 2.])))
""")


def test_index_put_uint8_mask_warns_like_torch():
    same_as_torch("""
import warnings
x = torch.zeros(3, 2)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print(x.index_put((torch.tensor([1, 0, 1], dtype=torch.uint8),), torch.tensor([1., 2.])))
print([str(i.message) for i in w])
""")


def test_masked_scatter_values_nodes_and_gradients_match_torch():
    same_as_torch("""
import warnings
x = torch.arange(6.).view(2, 3).requires_grad_()
s = torch.arange(10., 20.).requires_grad_()
m = torch.tensor([[True, False, True], [False, True, False]])
y = x.masked_scatter(m, s)
print(y, y.grad_fn.name(), y.grad_fn._saved_mask, y.grad_fn._saved_source_sym_sizes)
y.backward(torch.arange(6.).view(2, 3)); print(x.grad, s.grad)
print(torch.masked_scatter(x, torch.tensor([True, False, True]), s.view(2, 5)))
print(torch.tensor([1., 2., 3.]).masked_scatter(m, s.detach()))
z = x * 1
r = z.masked_scatter_(z > 2, s[:3]); print(r is z, z, z._version, z.grad_fn.name())
E(lambda: x.masked_scatter(m, torch.tensor([1., 2.])))
E(lambda: x.masked_scatter(m, s.double()))
E(lambda: x.masked_scatter(m.long(), s))
E(lambda: x.masked_scatter(torch.tensor([True, False]), s))
E(lambda: x.masked_scatter(m, 1.0))
E(lambda: torch.tensor([1., 2., 3.]).masked_scatter_(m, s.detach()))
E(lambda: torch.zeros(2, 3).masked_scatter_(torch.tensor([True, False]), s.detach()))
E(lambda: x.masked_scatter_(m, s))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    E(lambda: x.masked_scatter(m.to(torch.uint8), s))
print([str(i.message) for i in w])
""")


# =============================================================================================
# lerp and lerp_
# =============================================================================================

def test_lerp_and_lerp_inplace_match_torch():
    same_as_torch("""
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = torch.tensor([4., -2., 7.], requires_grad=True)
y = torch.lerp(a, b, 0.3); print(y, y.grad_fn.name(), y.grad_fn._saved_weight)
w = torch.tensor([0.2, 0.7, 0.5], requires_grad=True)
y = a.lerp(b, w); print(y, y.grad_fn.name(), y.grad_fn._saved_self, y.grad_fn._saved_end, y.grad_fn._saved_weight)
y.sum().backward(); print(a.grad, b.grad, w.grad)
c = a * 1
r = c.lerp_(b, 0.75); print(r is c, c, c._version, c.grad_fn.name(), c.grad_fn._saved_weight)
w0 = torch.tensor(0.25, dtype=torch.float64, requires_grad=True)
d = a * 1
d.lerp_(b, w0); print(d, d.grad_fn.name(), d.grad_fn._saved_self, d.grad_fn._saved_weight)
d.sum().backward(); print(w0.grad)
print(torch.lerp(a.detach(), b.detach(), torch.tensor(0.5 + 1j)))
print(torch.lerp(torch.tensor(1.), torch.tensor(2.), torch.tensor(0.5, dtype=torch.float64)))
print(torch.lerp(a.detach().half(), b.detach().half(), torch.tensor(0.3, dtype=torch.float64)))
print(torch.zeros(3).lerp_(torch.ones(3), torch.tensor(True)), torch.zeros(2, 3).lerp_(torch.ones(3), 0.5))
v = torch.zeros(2, 3, requires_grad=True) * 1
v[0].lerp_(torch.ones(3), 0.5); print(v, v.grad_fn.name())
E(lambda: a.lerp_(b, 0.5))
E(lambda: torch.zeros(3).lerp_(torch.ones(2, 3), 0.5))
E(lambda: torch.tensor(0.).lerp_(torch.ones(3), 0.5))
E(lambda: torch.zeros(3).lerp_(torch.ones(3), torch.tensor([[0.5], [0.2]])))
E(lambda: torch.zeros(3).lerp_(torch.ones(3).double(), 0.5))
E(lambda: torch.zeros(3).lerp_(torch.ones(3), torch.tensor([0.5, 0.5, 0.5], dtype=torch.float64)))
E(lambda: torch.zeros(3).lerp_(torch.ones(3), torch.tensor(0.5 + 1j)))
E(lambda: torch.zeros(3).lerp_(torch.ones(3), 0.5 + 1j))
E(lambda: torch.zeros(3).long().lerp_(torch.ones(3).long(), 0.5))
E(lambda: torch.zeros(3).long().lerp(torch.ones(3).long(), torch.tensor(1)))
TE(lambda: torch.zeros(3).lerp_(torch.ones(3), 'x'))
TE(lambda: torch.zeros(3).lerp_(1., 0.5))
TE(lambda: torch.zeros(3).lerp(torch.ones(3), None))
TE(lambda: torch.lerp(torch.zeros(3), torch.ones(3), None))
TE(lambda: torch.lerp(torch.zeros(3), 1.0, 0.5))
""")


# =============================================================================================
# In-place random samplers
# =============================================================================================

def test_samplers_draw_torchs_values_dtypes_and_versions():
    same_as_torch("""
torch.manual_seed(7)
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    z = lambda: torch.zeros(3, 5, dtype=dt)
    for t in (z().uniform_(-2, 3), z().normal_(1, 0.5), z().bernoulli_(0.3), z().bernoulli_(torch.full((5,), 0.7)),
              z().exponential_(2.0), z().geometric_(0.25), z().log_normal_(0.5, 0.25), z().cauchy_(1., 2.),
              z().random_(), z().random_(100), z().random_(-50, 50), z().random_(3, None)):
        print(t.dtype, t._version, t.flatten()[:5].tolist())
for dt in (torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
    z = lambda: torch.zeros(7, dtype=dt)
    print(dt, z().bernoulli_(0.5).tolist(), z().geometric_(0.5).tolist() if dt != torch.bool else None)
    print(z().random_().tolist(), z().random_(2).tolist(), z().random_(0, 1).tolist())
print(torch.zeros(2, 3).t().uniform_(), torch.zeros(4, dtype=torch.complex64).normal_(),
      torch.zeros(3, dtype=torch.complex128).uniform_(1, 2))
g = torch.Generator().manual_seed(11)
print(torch.zeros(4).exponential_(generator=g), torch.zeros(4).random_(5, generator=g))
print(torch.zeros(3).uniform_(**{'from': 2, 'to': 3}), torch.zeros(3).random_(**{'from': 1, 'to': 3}),
      torch.zeros(3).log_normal_(mean=1, std=2), torch.zeros(3).cauchy_(median=1, sigma=2),
      torch.zeros(3).bernoulli_(p=0.3), torch.zeros(3).exponential_(lambd=3))
""")


def test_samplers_argument_errors_match_torch():
    same_as_torch("""
z = lambda dt=torch.float32: torch.zeros(2, 3, dtype=dt)
E(lambda: z().bernoulli_(1.5)); E(lambda: z().bernoulli_(-0.1)); E(lambda: z().bernoulli_(float('nan')))
E(lambda: z().bernoulli_(torch.tensor([1.5, 0.2, 0.3]))); E(lambda: z().bernoulli_(torch.tensor([1, 0, 1])))
E(lambda: z().bernoulli_(torch.rand(4))); TE(lambda: z().bernoulli_("a"))
E(lambda: z(torch.complex64).bernoulli_(0.5)); E(lambda: z(torch.complex64).bernoulli_(torch.rand(3)))
E(lambda: z().exponential_(0)); E(lambda: z().exponential_(-1)); E(lambda: z(torch.int64).exponential_())
E(lambda: z().geometric_(0)); E(lambda: z().geometric_(1)); E(lambda: z().geometric_())
E(lambda: z(torch.bool).geometric_(0.5)); E(lambda: z(torch.complex64).geometric_(0.5))
E(lambda: z().log_normal_(1, 0)); E(lambda: z(torch.int32).log_normal_())
E(lambda: z().cauchy_(0, 0)); E(lambda: z(torch.int64).cauchy_()); E(lambda: z(torch.uint8).cauchy_())
E(lambda: z().normal_(0, -1)); E(lambda: z(torch.int64).normal_())
E(lambda: z().uniform_(2, 1)); E(lambda: z(torch.int64).uniform_()); E(lambda: z().uniform_(0, float('inf')))
E(lambda: z().uniform_(-3e38, 3e38)); E(lambda: z(torch.float16).uniform_(-6e4, 6e4))
E(lambda: z().random_(5, 5)); E(lambda: z().random_(0)); E(lambda: z().random_(-1)); TE(lambda: z().random_(1.5))
E(lambda: z(torch.float16).random_(70000)); E(lambda: z(torch.int8).random_(200))
E(lambda: z(torch.int8).random_(-129, 0)); E(lambda: z(torch.uint8).random_(-3, 4))
E(lambda: z(torch.bool).random_(2, 3)); E(lambda: z(torch.complex64).random_())
E(lambda: z(torch.complex64).random_(3)); E(lambda: z(torch.float16).random_(3000, None))
E(lambda: torch.zeros(0).random_(5, 3)); E(lambda: torch.zeros(0, dtype=torch.long).exponential_())
""")


def test_random_precision_warnings_match_torch():
    same_as_torch("""
import warnings
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    torch.zeros(2).random_(2 ** 25); torch.zeros(2).random_(-2 ** 25, 0); torch.zeros(2).half().random_(0, 65504)
print([str(i.message) for i in w])
""")


def test_samplers_record_nodes_with_zero_gradients_like_torch():
    same_as_torch("""
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
p = torch.full((3,), 0.4, requires_grad=True)
for name, f in [("uniform_", lambda y: y.uniform_()), ("normal_", lambda y: y.normal_()),
                ("bernoulli_", lambda y: y.bernoulli_(0.3)), ("bernoulli_T", lambda y: y.bernoulli_(p)),
                ("exponential_", lambda y: y.exponential_()), ("geometric_", lambda y: y.geometric_(0.5)),
                ("log_normal_", lambda y: y.log_normal_()), ("cauchy_", lambda y: y.cauchy_()),
                ("random_", lambda y: y.random_()), ("random_to", lambda y: y.random_(5)),
                ("random_ft", lambda y: y.random_(2, 5))]:
    y = x * 1
    r = f(y)
    print(name, r is y, y._version, y.grad_fn.name(), [n.name() if n else None for n, _ in y.grad_fn.next_functions],
          [a for a in dir(y.grad_fn) if a.startswith('_saved')])
    (y * 2).sum().backward()
    print(x.grad, p.grad)
    x.grad = p.grad = None
    v = x * 1
    f(v[0]); print(v.grad_fn.name(), v._version)
    E(lambda: f(x))
    with torch.no_grad():
        f(x * 1)
z = torch.zeros(3)
z.bernoulli_(p); print(z.requires_grad, z.grad_fn.name())
""")


# =============================================================================================
# Optimizers
# =============================================================================================

CONFIGS = [
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.2, weight_decay=0.05, maximize=True)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)),
    ("Adam", dict(lr=0.1)),
    ("Adam", dict(lr=0.05, betas=(0.8, 0.9), weight_decay=0.1, amsgrad=True, maximize=True)),
    ("Adam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True)),
    ("AdamW", dict(lr=0.1)),
    ("AdamW", dict(lr=0.1, weight_decay=0.3, amsgrad=True, maximize=True)),
    ("NAdam", dict()),
    ("NAdam", dict(lr=0.05, betas=(0.8, 0.95), weight_decay=0.1, momentum_decay=0.01)),
    ("NAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, maximize=True, eps=1e-6)),
    ("RAdam", dict()),
    ("RAdam", dict(lr=0.05, betas=(0.5, 0.6), weight_decay=0.1)),
    ("RAdam", dict(lr=0.05, weight_decay=0.1, decoupled_weight_decay=True, maximize=True)),
]


def _run(lib, name, kwargs, params, grads):
    """Steps of optimizer ``name`` from ``params`` with the given gradients (set directly: no autograd)."""
    ps = [lib.tensor(p.copy(), requires_grad=True) for p in params]
    opt = getattr(lib.optim, name)(ps, **kwargs)
    for step in grads:
        for p, g in zip(ps, step):
            p.grad = lib.tensor(g.copy())
        opt.step()
    return ps, opt


def _data(shapes, steps=12, complex_=False, seed=0):
    rng = np.random.default_rng(seed)

    def draw(shape):
        a = rng.standard_normal(shape)
        return a + 1j * rng.standard_normal(shape) if complex_ else a
    return [draw(s) for s in shapes], [[draw(s) for s in shapes] for _ in range(steps)]


@pytest.mark.parametrize("name, kwargs", CONFIGS, ids=[f"{n}-{i}" for i, (n, _) in enumerate(CONFIGS)])
@pytest.mark.parametrize("kind", ["float64", "complex128", "float32"])
def test_optimizer_steps_are_bit_identical(name, kwargs, kind):
    # (the square roots too: both call MKL's, minigrad through minigrad/_vml.py)
    torch = torch_or_skip()
    params, grads = _data([(4, 3), (5,)], complex_=kind == "complex128")
    if kind == "float32":
        params, grads = [p.astype(np.float32) for p in params], [[g.astype(np.float32) for g in s] for s in grads]
    mine, opt_m = _run(mg, name, kwargs, params, grads)
    theirs, opt_t = _run(torch, name, kwargs, params, grads)
    for a, b in zip(mine, theirs):
        assert a.detach().numpy().tobytes() == b.detach().numpy().tobytes()
    sd_m, sd_t = opt_m.state_dict(), opt_t.state_dict()
    assert sd_m["param_groups"] == sd_t["param_groups"]
    for i, state in sd_t["state"].items():
        assert list(sd_m["state"][i]) == list(state)
        for key, value in state.items():
            assert sd_m["state"][i][key].dtype.name == str(value.dtype).replace("torch.", "")
            assert sd_m["state"][i][key].numpy().tobytes() == value.numpy().tobytes(), key
    assert repr(opt_m) == repr(opt_t)


@pytest.mark.parametrize("name", ["NAdam", "RAdam", "Adam"])
def test_step_counters_follow_the_default_dtype_like_torch(name):
    torch = torch_or_skip()
    params, grads = _data([(3,)], steps=2)
    for lib in (mg, torch):
        lib.set_default_dtype(lib.float64)
    try:
        _, opt_m = _run(mg, name, {}, params, grads)
        _, opt_t = _run(torch, name, {}, params, grads)
    finally:
        for lib in (mg, torch):
            lib.set_default_dtype(lib.float32)
    for key, value in opt_t.state_dict()["state"][0].items():
        assert opt_m.state_dict()["state"][0][key].dtype.name == str(value.dtype).replace("torch.", "")


@pytest.mark.parametrize("name", ["NAdam", "RAdam"])
def test_nadam_radam_state_dict_round_trip_continues_like_torch(name):
    # (load_state_dict casts NAdam's mu_product to the parameter's dtype, as PyTorch does: the continued
    # run is compared with PyTorch's continued run)
    torch = torch_or_skip()
    params, grads = _data([(2, 2)], steps=6)
    finals = []
    for lib in (mg, torch):
        ps, opt = _run(lib, name, {}, params, grads[:3])
        assert opt.defaults == getattr(torch.optim, name)([torch.zeros(1, requires_grad=True)]).defaults
        fresh_p = lib.tensor(ps[0].detach().numpy().copy(), requires_grad=True)
        fresh = getattr(lib.optim, name)([fresh_p])
        fresh.load_state_dict(opt.state_dict())
        for g in grads[3:]:
            fresh_p.grad = lib.tensor(g[0].copy())
            fresh.step()
        finals.append(fresh_p.detach().numpy().tobytes())
    assert finals[0] == finals[1]


def test_radam_switches_to_the_adaptive_step_after_rho_exceeds_five():
    # With β2 = 0.999, ρ_t > 5 from step 6 on: steps 1-5 are plain momentum steps p ← p - lr·m̂.
    p = mg.tensor([1.0], dtype=mg.float64, requires_grad=True)
    opt = mg.optim.RAdam([p], lr=0.1)
    for _ in range(5):
        p.grad = mg.tensor([2.0], dtype=mg.float64)
        opt.step()
    assert p.item() == pytest.approx(1.0 - 5 * 0.1 * 2.0)
    p.grad = mg.tensor([2.0], dtype=mg.float64)
    opt.step()
    assert p.item() != pytest.approx(1.0 - 6 * 0.1 * 2.0)


def test_optimizer_argument_errors_match_torch():
    same_as_torch("""
p = [torch.zeros(2, requires_grad=True)]
for name, kw in [("NAdam", dict(lr=-1)), ("NAdam", dict(eps=-1)), ("NAdam", dict(betas=(1.0, 0.9))),
                 ("NAdam", dict(betas=(0.9, -0.1))), ("NAdam", dict(weight_decay=-1)),
                 ("NAdam", dict(momentum_decay=-1)),
                 ("RAdam", dict(lr=-1)), ("RAdam", dict(betas=(0.9, 1.0))), ("RAdam", dict(weight_decay=-0.5)),
                 ("Adam", dict(betas=(0.9, 1))), ("Adam", dict(betas=[0.9, 0.99])), ("AdamW", dict(eps=-1)),
                 ("SGD", dict(lr=0.1, nesterov=True)),
                 ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)),
                 ("SGD", dict(lr=0.1, momentum=-1))]:
    E(lambda: print(getattr(torch.optim, name)(p, **kw).param_groups[0]["betas"]))
print(torch.optim.NAdam(p), torch.optim.RAdam(p, decoupled_weight_decay=True))
""")


# =============================================================================================
# torch.utils.checkpoint
# =============================================================================================

@pytest.fixture(autouse=True)
def _torch_dynamo_loaded(request):
    """PyTorch's checkpoint imports torch._dynamo on first use: load it before ``torch`` is swapped for a run."""
    if "checkpoint" in request.node.name:
        import importlib
        torch_or_skip()
        importlib.import_module("torch._dynamo")
        importlib.import_module("torch.utils.checkpoint")


def test_checkpoint_gradients_nodes_and_errors_match_torch():
    same_as_torch("""
import warnings
from torch.utils.checkpoint import checkpoint
x = torch.tensor([0.5, 1.0, -1.0], requires_grad=True)
b = torch.tensor([1., 2., 3.], requires_grad=True)
def f(a, c):
    return (a.sin() * c).exp()
for reentrant in (True, False):
    x.grad = b.grad = None
    y = checkpoint(f, x, b, use_reentrant=reentrant)
    print(type(y.grad_fn).__name__, y.grad_fn.next_functions[0][0].name() if not reentrant else None)
    (y * torch.tensor([1., -2., 3.])).sum().backward()
    print(y, x.grad, b.grad)
x.grad = None
y = checkpoint(f, x, b, use_reentrant=False)
print(y.grad_fn._saved_result, y.grad_fn._saved_result)
y.sum().backward(retain_graph=True); y.sum().backward(); print(x.grad)
E(lambda: y.sum().backward())
y = checkpoint(f, x, b, use_reentrant=True)
E(lambda: torch.autograd.grad(y.sum(), x))
y = checkpoint(f, x, b, use_reentrant=True)
E(lambda: y.sum().backward(inputs=[x]))
y = checkpoint(f, x, b, use_reentrant=False)
print(torch.autograd.grad(y.sum(), x))
def g(a, c):
    return a * c, a + c
o = checkpoint(g, x, b, use_reentrant=True)
print([type(i.grad_fn).__name__ for i in o], o[0].grad_fn is o[1].grad_fn)
x.grad = b.grad = None
(o[0].sum() + 2 * o[1].sum()).backward(); print(x.grad, b.grad)
print(checkpoint(lambda a, k=1: a * k, x, use_reentrant=False, k=3))
E(lambda: checkpoint(lambda a, k=1: a * k, x, use_reentrant=True, k=3))
E(lambda: checkpoint(f, x, b, use_reentrant=True, debug=True))
E(lambda: checkpoint(f, x, b, use_reentrant=False, determinism_check="strict"))
print(checkpoint(lambda a: 3, x, use_reentrant=True))
with torch.no_grad():
    print(checkpoint(f, x, b, use_reentrant=False), checkpoint(f, x, b, use_reentrant=True))
def inside(a):
    print("grad enabled inside:", torch.is_grad_enabled())
    return a.sin()
checkpoint(inside, x, use_reentrant=True).sum().backward()
checkpoint(inside, x, use_reentrant=False).sum().backward()
checkpoint(lambda a: inside(a) * 2, x, use_reentrant=False).sum().backward()
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    y = checkpoint(f, x, b)
    print(type(y.grad_fn).__name__)
    checkpoint(f, x.detach(), b.detach(), use_reentrant=True)
    checkpoint(f, x.detach(), b.detach(), use_reentrant=False)
print([(i.category.__name__, str(i.message)) for i in w])
""")


def test_checkpoint_replays_the_random_state_like_torch():
    same_as_torch("""
from torch.utils.checkpoint import checkpoint
import torch.nn.functional as F
x = torch.arange(1., 9.).requires_grad_()
for reentrant in (True, False):
    torch.manual_seed(0)
    y = checkpoint(lambda a: F.dropout(a, 0.5, training=True) * a, x, use_reentrant=reentrant)
    y.sum().backward(); print(y, x.grad); x.grad = None
    print(torch.rand(2))
""")


def test_checkpoint_sequential_and_module_gradients_match_torch():
    same_as_torch("""
import warnings
from torch.utils.checkpoint import checkpoint, checkpoint_sequential
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 4), torch.nn.ReLU(),
                            torch.nn.Linear(4, 1))
x = torch.tensor([[0.1, -0.2, 0.3], [1.0, 0.5, -0.5]], requires_grad=True)
for reentrant in (True, False):
    model.zero_grad(); x.grad = None
    out = checkpoint_sequential(model, 2, x, use_reentrant=reentrant)
    print(type(out.grad_fn).__name__)
    out.sum().backward()
    print(x.grad, model[0].weight.grad, model[4].bias.grad)
model.zero_grad(); x.grad = None
out = checkpoint(model, x, use_reentrant=False); out.sum().backward(); print(out, x.grad, model[2].weight.grad)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    checkpoint_sequential(model, 2, x)
print([str(i.message) for i in w])
E(lambda: checkpoint_sequential(model, 2, x, use_reentrant=True, foo=1))
""")


def test_non_reentrant_checkpoint_recomputes_the_block_once_per_backward():
    calls = []

    def block(a):
        calls.append(1)
        return (a.exp() * a).tanh()

    x = mg.tensor([0.1, 0.2, 0.3], requires_grad=True)
    y = mg.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
    assert len(calls) == 1
    y.sum().backward(retain_graph=True)
    assert len(calls) == 2  # one recomputation serves every node of the block
    first = x.grad.clone()
    x.grad = None
    y.sum().backward()
    assert len(calls) == 3
    np.testing.assert_array_equal(x.grad.numpy(), first.numpy())


def test_non_reentrant_checkpoint_detects_a_different_recomputation():
    state = {"n": 3}

    def block(a):
        return (a[: state["n"]] * 2).exp()

    x = mg.tensor([0.1, 0.2, 0.3], requires_grad=True)
    y = mg.utils.checkpoint.checkpoint(block, x, use_reentrant=False)
    state["n"] = 2
    with pytest.raises(mg.utils.checkpoint.CheckpointError, match="Recomputed values for the following tensors"):
        y.sum().backward()


# =============================================================================================
# torch.svd, torch.qr, torch.cholesky, torch.norm(x, 'nuc'), matrix_norm 'nuc' and ±2
# =============================================================================================

def test_legacy_decompositions_match_torch():
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
A = torch.tensor([[2., -1., 0.5], [0.3, 1.5, -2.], [1., 0.2, 0.7], [-0.4, 0.9, 1.1]], dtype=torch.float64,
                 requires_grad=True)
r = torch.svd(A)
print(type(r).__name__, [type(t.grad_fn).__name__ for t in r], [tuple(t.shape) for t in r])
print(r.S, (r.U * r.S) @ r.V.mT, r.V.grad_fn._saved_dim0, r.V.grad_fn._saved_dim1)
(r.U @ r.V.mT).abs().sum().backward(); g = A.grad.clone(); A.grad = None
print(g)
r = torch.svd(A, some=False); print([tuple(t.shape) for t in r], r.U.abs().sum(-1))
r = A.svd(compute_uv=False); print(r.U, r.S, r.V, [t.grad_fn is None for t in r])
r.S.sum().backward(); print(A.grad); A.grad = None
print([tuple(t.shape) for t in torch.svd(torch.zeros(2, 5, 3), compute_uv=False)])
C = torch.tensor([[1., 2j], [0.5, -1j]], dtype=torch.complex128, requires_grad=True)
print([type(t.grad_fn).__name__ for t in torch.svd(C)])
Q, R = torch.qr(A); print(type(torch.qr(A)).__name__, Q.grad_fn.name(), R.grad_fn.name(), Q.shape, R.shape)
print((Q @ R), R.abs(), Q.grad_fn._saved_mode)
Q, R = A.qr(some=False); print(Q.shape, R.shape, Q.grad_fn._saved_mode)
E(lambda: (Q @ R).sum().backward())
Q, R = torch.qr(A.mT); (Q @ R).sum().backward(); print(A.grad); A.grad = None
S = torch.tensor([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]], dtype=torch.float64, requires_grad=True)
L = torch.cholesky(S); print(L, L.grad_fn.name(), L.grad_fn._saved_upper, L.grad_fn._saved_result)
U = S.cholesky(upper=True); print(U, U.grad_fn._saved_upper)
(L.sum() + 2 * U.sum()).backward(); print(S.grad)
print(torch.cholesky(torch.eye(2, dtype=torch.complex64, requires_grad=True) * 4, upper=True).grad_fn.name())
E(lambda: torch.svd(torch.zeros(3))); E(lambda: torch.svd(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.svd(torch.ones(3, 3, dtype=torch.half))); E(lambda: torch.qr(torch.zeros(3)))
E(lambda: torch.qr(torch.ones(3, 3, dtype=torch.long))); E(lambda: torch.cholesky(torch.zeros(3)))
E(lambda: torch.cholesky(torch.zeros(3, 2))); E(lambda: torch.cholesky(torch.ones(3, 3, dtype=torch.long)))
E(lambda: torch.cholesky(-torch.eye(3))); E(lambda: torch.cholesky(torch.stack([torch.eye(3), -torch.eye(3)])))
E(lambda: torch.cholesky(torch.eye(3, dtype=torch.half)))
""")


def test_nuclear_and_spectral_norms_match_torch():
    same_as_torch("""
A = torch.tensor([[2., -1., 0.5], [0.3, 1.5, -2.]], dtype=torch.float64, requires_grad=True)
for n in (torch.norm(A, 'nuc'), A.norm('nuc'), torch.linalg.matrix_norm(A, 'nuc'), torch.linalg.norm(A, 'nuc'),
          torch.linalg.matrix_norm(A, 2), torch.linalg.matrix_norm(A, -2), torch.linalg.norm(A, 2)):
    A.grad = None
    n.backward()
    print(n, n.grad_fn.name(), n.grad_fn.next_functions[0][0].name(), A.grad)
B = torch.arange(24.).view(2, 3, 4).sin().requires_grad_()
for n in (torch.norm(B, 'nuc', dim=(0, 2)), torch.norm(B, 'nuc', dim=[2, 1], keepdim=True),
          torch.linalg.matrix_norm(B, -2, dim=(0, 2), keepdim=True), torch.linalg.matrix_norm(B, 2, dim=(-1, 0)),
          torch.linalg.matrix_norm(B, 'nuc', dtype=torch.float64)):
    print(n, n.shape, n.dtype, n.grad_fn.name())
print(torch.norm(A, 'fro'), torch.norm(A, 'fro', dim=(0, 1)), torch.norm(A, 2), torch.norm(A, 'nuc', keepdim=True))
print(torch.norm(A.detach(), 'nuc', dtype=torch.float64), torch.linalg.matrix_norm(A.detach().cfloat(), 'nuc'))
for o in ('nuc', 2, 1, float('inf')):
    print(torch.linalg.matrix_norm(torch.zeros(0, 3, requires_grad=True), o, keepdim=True))
E(lambda: torch.norm(torch.zeros(2, 3, 4), 'nuc')); E(lambda: torch.norm(torch.zeros(2, 3, 4), 'fro', dim=(0, 1, 2)))
E(lambda: torch.norm(A, 'abc')); E(lambda: torch.norm(torch.zeros(3), 'nuc')); E(lambda: torch.norm(A, 'nuc', dim=0))
E(lambda: torch.linalg.matrix_norm(torch.ones(3, 3, dtype=torch.long), 2))
E(lambda: torch.linalg.matrix_norm(torch.ones(3, 3), 3))
E(lambda: torch.linalg.matrix_norm(torch.ones(3, 3).half(), 'nuc'))
E(lambda: torch.linalg.matrix_norm(torch.ones(3, 3).bfloat16(), -2))
print(torch.linalg.matrix_norm(torch.ones(3, 3).half(), 1))
E(lambda: torch.linalg.matrix_norm(torch.zeros(0, 3), -2))
E(lambda: torch.linalg.matrix_norm(torch.zeros(3, 0), -1))
""")


def _torch_first_warnings(program: str) -> list:
    """The warnings a fresh PyTorch process gives for ``program`` (PyTorch warns once per process)."""
    torch_or_skip()
    code = ("import warnings, torch\nwarnings.simplefilter('always')\n"
            "with warnings.catch_warnings(record=True) as w:\n    warnings.simplefilter('always')\n"
            + "".join(f"    {line}\n" for line in program.splitlines())
            + "print(repr([str(i.message) for i in w]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return eval(out.stdout)


def test_qr_and_cholesky_deprecation_warnings_are_torchs_and_given_once():
    program = "A = torch.eye(3)\ntorch.qr(A); A.qr(); torch.cholesky(A); A.cholesky(upper=True); torch.svd(A)"
    expected = _torch_first_warnings(program)
    mg._warn_once._WARNED.difference_update({"qr", "cholesky"})
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        exec(program, {"torch": mg})
    assert [str(i.message) for i in w] == expected
    assert len(expected) == 2
