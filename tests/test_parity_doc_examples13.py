"""PyTorch's docstring examples (tests/doc_examples.py), session 13: the packages and classes not swept before
(torch.utils.data, nn.utils.prune, FunctionCtx's and graph.Node's methods, Sequential.append ...), the examples
that draw random numbers from other seeds (3-8), and every torch / Tensor example under other print options
(precision, sci_mode, linewidth, threshold, profiles) -- plus focused tests for the fixes the sweeps led to.
"""
from __future__ import annotations

import re

import pytest
from parity import same_as_torch, skip_on_intel_gemm_bits

torch = pytest.importorskip("torch", reason="PyTorch not installed: parity test skipped")

import doc_examples  # noqa: E402  (tests/doc_examples.py: needs torch)
from test_parity_doc_examples_more import _SLOW  # noqa: E402  (examples of 10^6+ elements: swept by hand)

_CHUNK = 40

# The examples that draw random numbers (or build modules, whose parameters are random): each runs again from one
# of the seeds 3..8 (name i from seed 3 + i % 6: every seed sees a sixth of them, every name one new seed).
_RANDOM = re.compile(r"rand|[Dd]ropout|\.sample\(|rsample|normal_|uniform_|bernoulli|multinomial|poisson|shuffle"
                     r"|Generator|init\.|nn\.[A-Z]\w*\(")
_SEEDS = (3, 4, 5, 6, 7, 8)

# Print options the torch / Tensor examples run under (name i under option i % 6), and reset after each list.
_PRINT_OPTIONS = (dict(precision=2), dict(sci_mode=True), dict(linewidth=40), dict(threshold=5, edgeitems=1),
                  dict(profile="short"), dict(profile="full", linewidth=120))


def _random_names():
    names = [p for ns in doc_examples.NAMESPACES + doc_examples.MORE_NAMESPACES for p in doc_examples.names_in(ns)]
    return [p for p in names if p not in _SLOW and _RANDOM.search(doc_examples.docstring(p) or "")]


def _new_chunks():
    names = doc_examples.new_names()
    for start in range(0, len(names), _CHUNK):
        yield pytest.param(names[start:start + _CHUNK], id=f"new[{start}]")


@pytest.mark.parametrize("paths", list(_new_chunks()))
def test_new_names_match_torch(paths):
    differing = [r for r in doc_examples.sweep(paths) if r.status == "differ"]
    assert not differing, doc_examples.report(differing)


def test_new_names_are_compared():
    """Not vacuous: the new namespaces bring names whose examples run and match (not all skipped)."""
    names = doc_examples.new_names()
    assert {"torch.nn.utils.prune.l1_unstructured", "torch.utils.data.default_collate",
            "torch.autograd.function.FunctionCtx.mark_dirty", "torch.autograd.graph.Node.register_hook",
            "torch.nn.Sequential.append"} <= set(names)
    results = doc_examples.sweep(["torch.nn.utils.prune.l1_unstructured", "torch.utils.data.default_collate",
                                  "torch.autograd.function.FunctionCtx.mark_dirty"])
    assert all(r.status == "equal" for r in results), doc_examples.report(results, verbose=True)


@pytest.mark.parametrize("seed", _SEEDS)
def test_random_examples_from_other_seeds(seed):
    names = _random_names()[_SEEDS.index(seed)::len(_SEEDS)]
    assert len(names) > 40
    differing = [r for r in doc_examples.sweep(names, seed) if r.status == "differ"]
    assert not differing, doc_examples.report(differing)


@pytest.mark.parametrize("k", range(len(_PRINT_OPTIONS)), ids=[str(o) for o in _PRINT_OPTIONS])
def test_examples_under_other_print_options(k):
    names = [p for ns in ("torch", "torch.Tensor", "torch.special", "torch.linalg") for p in doc_examples.names_in(ns)]
    differing = [r for r in doc_examples.sweep(names[k::len(_PRINT_OPTIONS)], 0, _PRINT_OPTIONS[k])
                 if r.status == "differ"]
    assert not differing, doc_examples.report(differing)


def test_harness_print_options_and_seeds_change_the_output():
    """Not vacuous: a seed and a print option do change what an example prints (in both libraries alike)."""
    exs = doc_examples.examples(">>> torch.randn(3)\n")
    plain = doc_examples.run(torch, exs)[0].output
    assert doc_examples.run(torch, exs, seed=3)[0].output != plain
    assert doc_examples.run(torch, exs, printoptions=dict(precision=8))[0].output != plain
    assert doc_examples.run(torch, exs)[0].output == plain   # (the options were reset)
    results = doc_examples.sweep(["torch.special.i1", "torch.special.i0e", "torch.logspace", "torch.special.ndtri",
                                  "torch.special.log_ndtr", "torch.special.erfcx"], 0, dict(precision=9))
    assert all(r.status == "equal" for r in results), doc_examples.report(results)


# ---- the fixes --------------------------------------------------------------------------------------------------

def test_bessel_i0_i1_bits_as_pytorchs_cephes_kernels():
    """torch.i0, special.i0e/i1/i1e: PyTorch's Chebyshev kernels in the input's dtype (float32 I1 series cut
    short), bit for bit -- not the true value rounded (i0(0) in float32 is 0.99999994 in PyTorch)."""
    same_as_torch("""
torch.manual_seed(0)
special = torch.tensor([0., 8., -8., 1e-30, float('inf'), -float('inf'), float('nan')])
x = torch.cat([torch.randn(300) * 6, torch.randn(50) * 60, special])
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16):
    y = x.to(dt)
    for k, f in enumerate((torch.i0, torch.special.i0, torch.special.i1, torch.special.i1e)):
        print(k, dt, [v.hex() for v in f(y).double().tolist()])
for dt in (torch.float32, torch.float64):
    print([v.hex() for v in torch.special.i0e(x.to(dt)).double().tolist()])
z = (torch.randn(6, dtype=torch.float64) * 5).requires_grad_()
g, = torch.autograd.grad(torch.i0(z).sum() + torch.special.i1e(z).sum(), z)
print([v.hex() for v in g.tolist()])
""")


def test_logspace_as_pytorchs_loop():
    """The exponent start + step·i in double from the ends in the dtype, C's pow, rounded to the dtype; the ends
    (and a single step's value) checked against the dtype's range."""
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
for a, b, n, base in [(0.1, 1.0, 5, 10.0), (-3.3, 2.9, 17, 2.0), (1.7, -0.4, 9, 3.7), (0.5, 2.7, 5, 10.0),
                      (-3.0, 3.5, 6, 0.0), (-1.0, 2.7, 5, -2.0), (0, 4, 1, 10.0), (2, 1, 0, 10.0)]:
    for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.int64, torch.uint8):
        try:
            print(a, b, n, base, dt, torch.logspace(a, b, n, base=base, dtype=dt).tolist())
        except RuntimeError as e:
            print(a, b, n, base, dt, e)
print(torch.logspace(torch.tensor(0.5), 2, 4, dtype=torch.int32), torch.logspace(-1, 2, 4, dtype=torch.uint8))
print(torch.linspace(-1, 2, 3, dtype=torch.uint8), torch.linspace(-1, 2, 1, dtype=torch.uint8))
print(torch.logspace(300, 2, 1, dtype=torch.float16), torch.logspace(-1.5, 2, 1, dtype=torch.uint8))
for f in (torch.linspace, torch.logspace):
    E(lambda: f(-1.5, 2, 3, dtype=torch.uint8))
    E(lambda: f(1, 3e4, 2, dtype=torch.int8))
    E(lambda: f(1, 1e5, 2, dtype=torch.float16))
    E(lambda: f(torch.tensor(-1.5), 2, 2, dtype=torch.uint8))
E(lambda: torch.linspace(-1.5, 2, 1, dtype=torch.uint8))
E(lambda: torch.logspace(300, 2, 1, dtype=torch.int32))
""")


def test_ndtri_bits_as_pytorchs_cephes_kernel():
    """special.ndtri: PyTorch's calc_ndtri (a rational function in the middle, √(-2 log y) in the tails with C's
    double log and sqrt even for float32), bit for bit in float32 and float64; its gradient follows."""
    same_as_torch("""
torch.manual_seed(0)
u = torch.rand(400, dtype=torch.float64)
p = torch.cat([u, u ** 30, 1 - u[:50] ** 12, torch.tensor([0., 1., 0.5, -0.5, 2., float('nan'), 1e-300])])
for dt in (torch.float32, torch.float64):
    print([v.hex() for v in torch.special.ndtri(p.to(dt)).double().tolist()])
q = torch.tensor([0.01, 0.3, 0.5, 0.9, 0.999], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(torch.special.ndtri(q).sum(), q)
print([v.hex() for v in g.tolist()])
E(lambda: torch.special.ndtri(torch.tensor([0.5], dtype=torch.float16)))
""")


def test_random_ops_dropouts_and_inits_from_seeds_3_to_8():
    """Beyond the docstrings: every sampler, in-place random fill, dropout variant, init function and module
    initialization draws PyTorch's bits from seeds 3..8, from the global generator and from a Generator object."""
    same_as_torch(r"""
import warnings
import torch.nn.functional as F
warnings.simplefilter("ignore")
init = torch.nn.init
for seed in range(3, 9):
    torch.manual_seed(seed)
    g = torch.Generator().manual_seed(seed * 7)
    x = torch.randn(4, 5, dtype=torch.float64)
    out = [torch.rand(3, generator=g), torch.randn(2, 3, generator=g, dtype=torch.float64),
           torch.randint(0, 10, (5,), generator=g), torch.randperm(7, generator=g),
           torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 5, replacement=True, generator=g),
           torch.multinomial(torch.tensor([0.1, 0.2, 0.3, 0.4]), 3),
           torch.bernoulli(torch.full((6,), 0.3), generator=g), torch.poisson(torch.full((5,), 3.5), generator=g),
           torch.normal(torch.zeros(3), torch.ones(3), generator=g), torch.normal(2., 3., (4,), generator=g)]
    t = torch.empty(6)
    for m in ("uniform_", "normal_", "exponential_", "cauchy_", "log_normal_", "geometric_"):
        arg = (0.3,) if m == "geometric_" else ()
        out.append(getattr(t, m)(*arg, generator=g).clone())
    out += [t.random_(0, 100, generator=g).clone(), torch.empty(5, dtype=torch.float16).uniform_(generator=g)]
    out += [F.dropout(x, 0.3), F.dropout1d(torch.randn(2, 3, 4), 0.5), F.dropout2d(torch.randn(2, 3, 2, 2), 0.5),
            F.alpha_dropout(x, 0.2), F.feature_alpha_dropout(torch.randn(2, 3, 2), 0.4), F.rrelu(x, training=True),
            F.gumbel_softmax(x.float(), tau=0.5), F.gumbel_softmax(x.float(), hard=True)]
    w = torch.empty(3, 4)
    for f in (init.uniform_, init.normal_, init.xavier_uniform_, init.xavier_normal_, init.kaiming_uniform_,
              init.kaiming_normal_, init.trunc_normal_, init.orthogonal_):
        out.append(f(w).clone())
    out += [init.sparse_(torch.empty(4, 3), 0.5), torch.randn(3, dtype=torch.complex64),
            torch.rand(2, dtype=torch.bfloat16), torch.randint(-5, 5, (3,), dtype=torch.int8),
            torch.randn_like(x), torch.rand_like(x, dtype=torch.float32), torch.randint_like(x, 3, 9)]
    out += [torch.nn.Linear(3, 2).weight, torch.nn.Conv1d(2, 2, 3).bias, torch.nn.LSTM(2, 3).weight_hh_l0[:2],
            torch.nn.Embedding(4, 3).weight, torch.nn.MultiheadAttention(4, 2).in_proj_weight[:1],
            torch.nn.Bilinear(2, 2, 2).weight[0], torch.nn.GRUCell(2, 2).weight_ih[0], torch.nn.RReLU()(torch.randn(5)),
            torch.nn.Transformer(8, 2, 1, 1, 16).encoder.layers[0].linear1.weight[0, :3]]
    for o in out:
        print(seed, o.dtype, [float(v).hex() if isinstance(v, float) else v for v in o.detach().flatten().tolist()])
""")


def test_distribution_samples_from_seeds_3_to_8():
    """sample() and rsample() of every distribution (rejection samplers, LKJ, Wishart, mixtures ...) from seeds
    3..8: PyTorch's values bit for bit."""
    same_as_torch(r"""
import warnings
warnings.simplefilter("ignore")
D = torch.distributions
t = torch.tensor
for seed in range(3, 9):
    torch.manual_seed(seed)
    ds = [D.Normal(t([0., 1.]), t([1., 2.])), D.Bernoulli(t([0.3, 0.8])), D.Beta(t([0.5, 2.]), t([1.5, 0.7])),
          D.Binomial(10, t([0.2, 0.7])), D.Categorical(t([0.1, 0.2, 0.7])), D.Cauchy(t([0.]), t([1.])),
          D.Chi2(t([3.])), D.ContinuousBernoulli(t([0.3])), D.Dirichlet(t([0.5, 1., 2.])), D.Exponential(t([1.5])),
          D.FisherSnedecor(t([2.]), t([5.])), D.Gamma(t([0.4, 3.]), t([1., 2.])), D.Geometric(t([0.3])),
          D.Gumbel(t([0.]), t([2.])), D.HalfCauchy(t([1.])), D.HalfNormal(t([1.])), D.Kumaraswamy(t([2.]), t([3.])),
          D.Laplace(t([0.]), t([1.])), D.LKJCholesky(3, 0.5), D.LogNormal(t([0.]), t([1.])),
          D.LogisticNormal(t([0., 1.]), t([1., 1.])),
          D.LowRankMultivariateNormal(torch.zeros(2), torch.ones(2, 1), torch.ones(2)),
          D.Multinomial(5, t([0.2, 0.3, 0.5])), D.MultivariateNormal(torch.zeros(2), torch.eye(2) * 2),
          D.NegativeBinomial(5, t([0.4])), D.OneHotCategorical(t([0.2, 0.8])), D.Pareto(t([1.]), t([2.])),
          D.Poisson(t([4.])), D.RelaxedBernoulli(t([0.5]), t([0.3])),
          D.RelaxedOneHotCategorical(t([0.5]), t([0.2, 0.8])), D.StudentT(t([3.])), D.Uniform(t([0.]), t([2.])),
          D.VonMises(t([0.]), t([2.])), D.Weibull(t([1.]), t([1.5])), D.Wishart(t(3.), torch.eye(2)),
          D.MixtureSameFamily(D.Categorical(t([0.3, 0.7])), D.Normal(t([0., 3.]), t([1., 1.])))]
    for d in ds:
        s = d.sample((3,))
        r = d.rsample((2,)) if d.has_rsample else s
        print(seed, type(d).__name__, [v.hex() for v in s.double().flatten().tolist()],
              [v.hex() for v in r.double().flatten().tolist()])
""")


def test_erfcx_and_log_ndtr_bits_as_pytorchs_kernels():
    """special.erfcx (the Faddeeva package: 100 Chebyshev pieces summed in double, the reflection for x < 0) and
    special.log_ndtr (through erfcx below -1, log1p(-erfc/2) above) bit for bit in float32 and float64."""
    same_as_torch("""
torch.manual_seed(0)
edges = [0., -0., 1e-20, -1., -6.1, -26.7, -27., 60., 6e7, float('inf'), -float('inf'), float('nan')]
x = torch.cat([torch.randn(400, dtype=torch.float64) * 5, torch.randn(40, dtype=torch.float64) * 30,
               torch.tensor(edges, dtype=torch.float64)])
for dt in (torch.float32, torch.float64):
    y = x.to(dt)
    keep = (y <= 50) if dt == torch.float32 else torch.ones_like(y, dtype=torch.bool)
    print([v.hex() for v in torch.special.erfcx(y)[keep].double().tolist()])
    print([v.hex() for v in torch.special.log_ndtr(y).double().tolist()])
z = torch.tensor([-3., -0.5, 0.2, 2.], dtype=torch.float64, requires_grad=True)
g, = torch.autograd.grad(torch.special.erfcx(z).sum() + torch.special.log_ndtr(z).sum(), z)
print([v.hex() for v in g.tolist()])
""")


def test_vmap_of_dot_sums_as_pytorchs_batched_matmul():
    """vmap(torch.dot) over two batched real vectors: PyTorch's batch rule is [B, 1, n] @ [B, n, 1], whose sums
    round unlike dot's; the values are that product's, the gradients dot's formula."""
    skip_on_intel_gemm_bits()
    same_as_torch("""
for n, b, dt in [(5, 2, torch.float32), (17, 3, torch.float32), (40, 7, torch.float64), (100, 2, torch.float32),
                 (3, 4, torch.int64)]:
    torch.manual_seed(n)
    x, y = (torch.randn(b, n) * 10).to(dt), (torch.randn(b, n) * 10).to(dt)
    print([float(v).hex() for v in torch.func.vmap(torch.dot)(x, y).tolist()])
    print([float(v).hex() for v in torch.func.vmap(torch.func.vmap(torch.dot))(x[None], y[None]).flatten().tolist()])
x, y = torch.randn(3, 6), torch.randn(3, 6)
g = torch.func.vmap(torch.func.grad(lambda a, b: torch.dot(a, b) * torch.dot(a, a)))(x, y)
print([v.hex() for v in g.flatten().tolist()])
""")
