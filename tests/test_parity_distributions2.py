"""torch.distributions beyond Normal/Categorical/Bernoulli: every family, transforms, KL, constraints, native samplers.

Parity programs print reprs, shapes, samples after ``manual_seed`` (bit for bit: the samplers draw PyTorch's
numbers, native Gamma/Poisson/Binomial/Dirichlet kernels included), log_prob values and grad_fn names,
gradients through rsample/log_prob, and validation errors; each runs under minigrad and under PyTorch and
the outputs must be identical. The first tests need no PyTorch: hand-computed formulas and pinned values.
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from parity import assert_close, same_as_torch, torch_or_skip

import minigrad as mg
from minigrad import distributions as dist
from minigrad.distributions import _native

# ---- without PyTorch: formulas by hand, pinned values -------------------------------------------------


def _close(t, expected, rtol=1e-6):
    np.testing.assert_allclose(np.asarray(t.tolist(), dtype=np.float64), expected, rtol=rtol, atol=1e-12)


def test_log_prob_formulas_by_hand():
    x = mg.tensor([0.5, 2.0], dtype=mg.float64)
    _close(dist.Normal(1.0, 2.0).log_prob(x),
           [-(v - 1) ** 2 / 8 - math.log(2) - 0.5 * math.log(2 * math.pi) for v in (0.5, 2.0)])
    _close(dist.Exponential(mg.tensor(3.0, dtype=mg.float64)).log_prob(x), [math.log(3) - 3 * v for v in (0.5, 2.0)])
    _close(dist.Laplace(1.0, 0.5).log_prob(x), [-math.log(1.0) - abs(v - 1) / 0.5 for v in (0.5, 2.0)])
    _close(dist.Uniform(0.0, 4.0).log_prob(x), [-math.log(4)] * 2)
    _close(dist.Cauchy(0.0, 2.0).log_prob(x), [-math.log(math.pi * 2 * (1 + (v / 2) ** 2)) for v in (0.5, 2.0)])
    a, b = 2.5, 1.5
    _close(dist.Gamma(a, b).log_prob(x),
           [a * math.log(b) + (a - 1) * math.log(v) - b * v - math.lgamma(a) for v in (0.5, 2.0)])
    _close(dist.Poisson(mg.tensor(3.0, dtype=mg.float64)).log_prob(mg.tensor([0.0, 4.0], dtype=mg.float64)),
           [k * math.log(3) - 3 - math.lgamma(k + 1) for k in (0, 4)])
    _close(dist.Beta(2.0, 3.0).log_prob(mg.tensor([0.25], dtype=mg.float64)),
           [math.log(0.25) + 2 * math.log(0.75) - (math.lgamma(2) + math.lgamma(3) - math.lgamma(5))])
    _close(dist.Binomial(5, mg.tensor(0.3, dtype=mg.float64)).log_prob(mg.tensor([2.0], dtype=mg.float64)),
           [math.log(math.comb(5, 2) * 0.3 ** 2 * 0.7 ** 3)])
    _close(dist.Geometric(mg.tensor(0.25, dtype=mg.float64)).log_prob(mg.tensor([3.0], dtype=mg.float64)),
           [3 * math.log(0.75) + math.log(0.25)])


def test_multivariate_normal_log_prob_and_kl_by_hand():
    cov = mg.tensor([[2.0, 0.5], [0.5, 1.0]], dtype=mg.float64)
    m = dist.MultivariateNormal(mg.zeros(2, dtype=mg.float64), covariance_matrix=cov)
    x = np.array([1.0, -0.5])
    c = np.array(cov.tolist())
    expected = -0.5 * (x @ np.linalg.solve(c, x)) - 0.5 * math.log(np.linalg.det(c)) - math.log(2 * math.pi)
    _close(m.log_prob(mg.tensor(x.tolist(), dtype=mg.float64)), [expected])
    _close(m.precision_matrix, np.linalg.inv(c))
    # KL(N(0, C) || N(0, I)) = ½ (tr C - k - log det C)
    q = dist.MultivariateNormal(mg.zeros(2, dtype=mg.float64), scale_tril=mg.eye(2, dtype=mg.float64))
    _close(dist.kl_divergence(m, q), [0.5 * (np.trace(c) - 2 - math.log(np.linalg.det(c)))])


def test_kl_closed_forms_by_hand():
    p, q = dist.Normal(0.0, 1.0), dist.Normal(1.0, 2.0)
    _close(dist.kl_divergence(p, q), [math.log(2) + (1 + 1) / 8 - 0.5])
    e1, e2 = dist.Exponential(mg.tensor(2.0)), dist.Exponential(mg.tensor(0.5))
    _close(dist.kl_divergence(e1, e2), [math.log(2 / 0.5) + 0.5 / 2 - 1])
    b1, b2 = dist.Bernoulli(mg.tensor([0.3])), dist.Bernoulli(mg.tensor([0.6]))  # (0-d: see the report)
    _close(dist.kl_divergence(b1, b2), [0.3 * math.log(0.3 / 0.6) + 0.7 * math.log(0.7 / 0.4)], rtol=1e-5)
    assert dist.kl_divergence(dist.Uniform(mg.tensor([0.0]), 2.0), dist.Uniform(0.5, 1.0)).item() == math.inf
    with pytest.raises(NotImplementedError):
        dist.kl_divergence(dist.Normal(0.0, 1.0), dist.Poisson(mg.tensor(1.0)))


def test_validation_errors():
    with pytest.raises(ValueError, match="Expected parameter scale"):
        dist.Normal(mg.tensor([0.0]), mg.tensor([-1.0]))
    with pytest.raises(ValueError, match="within the support"):
        dist.Uniform(0.0, 1.0).log_prob(mg.tensor([2.0]))
    assert dist.Uniform(0.0, 1.0, validate_args=False).log_prob(mg.tensor([2.0])).item() == -math.inf
    assert repr(dist.constraints.interval(0.0, 1.0)) == "Interval(lower_bound=0.0, upper_bound=1.0)"


def test_native_samplers_pinned_values():
    """PyTorch 2.13's numbers after manual_seed(0) (its CPU kernels: Marsaglia-Tsang, Hörmann, BTRS)."""
    mg.manual_seed(0)
    assert mg._standard_gamma(mg.tensor([0.5, 2.0, 9.0])).tolist() == [
        0.0007893581641837955, 0.6315405964851379, 9.147442817687988]
    mg.manual_seed(0)
    assert mg.poisson(mg.tensor([0.5, 4.0, 30.0])).tolist() == [2.0, 5.0, 26.0]
    mg.manual_seed(0)
    assert mg.binomial(mg.tensor([10., 100., 50.]), mg.tensor([0.3, 0.4, 0.9])).tolist() == [6.0, 38.0, 46.0]
    mg.manual_seed(0)
    assert mg._sample_dirichlet(mg.tensor([[0.5, 2.0, 9.0]], dtype=mg.float64)).tolist() == [
        [8.071335292315378e-05, 0.0645762080101678, 0.9353430786369089]]
    a = mg.tensor([0.5, 2.0, 9.0, 9.0], dtype=mg.float64)
    x = mg.tensor([0.3, 1.5, 9.2, 3.0], dtype=mg.float64)
    _close(mg._standard_gamma_grad(a, x), [1.0098019827369256, 0.9366198345654156, 1.0298865336022414,
                                          0.5593420120424198], rtol=1e-14)


def _gamma_cdf(alpha: float, x: float) -> float:
    """P(alpha, x) by its series x^α e^-x Σ x^n / Γ(α + n + 1)."""
    total, n = 0.0, 0
    while True:
        term = math.exp((alpha + n) * math.log(x) - x - math.lgamma(alpha + n + 1))
        total += term
        n += 1
        if term < 1e-18 * total or n > 2000:
            return total


@pytest.mark.parametrize("alpha,x,rtol", [(0.5, 0.3, 1e-4), (2.0, 0.5, 1e-4), (12.0, 11.0, 1e-3),
                                          (12.0, 6.0, 1e-3), (2.0, 1.5, 5e-3), (4.0, 6.0, 5e-3)])
def test_standard_gamma_grad_is_the_implicit_derivative(alpha, x, rtol):
    """dx/dα = -(∂P/∂α)/(∂P/∂x) for x ~ Gamma(α): each branch (series, saddle point, rational fit)."""
    h = 1e-5
    dp_da = (_gamma_cdf(alpha + h, x) - _gamma_cdf(alpha - h, x)) / (2 * h)
    pdf = math.exp((alpha - 1) * math.log(x) - x - math.lgamma(alpha))
    got = _native._standard_gamma_grad_one(alpha, x)
    assert got == pytest.approx(-dp_da / pdf, rel=rtol)


def test_gamma_sampler_statistics():
    mg.manual_seed(3)
    for alpha in (0.3, 1.0, 4.0):
        s = mg._standard_gamma(mg.full((4000,), alpha, dtype=mg.float64))
        assert abs(s.mean().item() - alpha) < 4 * math.sqrt(alpha / 4000)
        assert s.min().item() > 0
    mg.manual_seed(3)
    s = mg.poisson(mg.full((4000,), 15.0, dtype=mg.float64))
    assert abs(s.mean().item() - 15.0) < 4 * math.sqrt(15 / 4000)
    assert bool((s == s.round()).all())


def test_gamma_rsample_gradient_uses_standard_gamma_grad():
    mg.manual_seed(0)
    conc = mg.tensor([0.7, 3.0], dtype=mg.float64, requires_grad=True)
    s = dist.Gamma(conc, 2.0).rsample()
    node = s.grad_fn.next_functions[0][0]
    assert type(s.grad_fn).__name__ == "DivBackward0" and type(node).__name__ == "StandardGammaBackward0"
    (g,) = mg.autograd.grad(s.sum(), conc)
    raw = s.detach() * 2.0
    expected = [_native._standard_gamma_grad_one(a, x) / 2.0 for a, x in zip(conc.tolist(), raw.tolist())]
    _close(g, expected, rtol=1e-12)


# ---- parity with PyTorch ----------------------------------------------------------------------------

PRELUDE = """import torch
from torch.distributions import *
from torch.distributions import constraints, transforms, kl_divergence
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, e)
"""

# Each: the distribution's reprs, shapes, support, samples, rsample (with its grad_fn and gradients),
# log_prob (values, grad_fn, gradients), mean/mode/variance/stddev, entropy, cdf/icdf, expand, errors.
FAMILY_PROGRAM = """
torch.manual_seed(0)
torch.set_printoptions(precision=3, sci_mode=False)  # (float32 last bits of log/pow: see the README)
c = torch.tensor([0.7, 2.5], requires_grad=True); r = torch.tensor([1.5, 0.3], requires_grad=True)
for mk in MAKERS:
    d = mk()
    print(d, d.batch_shape, d.event_shape, d.support, d.has_rsample, d.has_enumerate_support)
    if d.has_rsample:
        s = d.rsample((3,))
        print(s, s.grad_fn)
        print(torch.autograd.grad(s.sum(), [c, r], allow_unused=True, retain_graph=True))
    s = d.sample((3,))
    print(s, s.dtype)
    lp = d.log_prob(s)
    print(lp, lp.grad_fn)
    print(torch.autograd.grad(lp.sum(), [c, r], allow_unused=True, retain_graph=True))
    for attr in ["mean", "mode", "variance", "stddev"]:
        E(lambda: getattr(d, attr))
    E(lambda: d.entropy()); E(lambda: d.cdf(torch.tensor([0.7, 0.2]))); E(lambda: d.icdf(torch.tensor([0.7, 0.2])))
    E(lambda: d.expand((2, 2)).sample())
    E(lambda: d.enumerate_support())
    E(lambda: d.log_prob(torch.tensor([-1.0, 2.0])))
    E(lambda: d.perplexity())
"""

FAMILIES = {
    "location_scale": "[lambda: Normal(c, r), lambda: Laplace(c, r), lambda: Cauchy(c, r), lambda: Gumbel(c, r), "
                      "lambda: LogNormal(c, r), lambda: HalfNormal(r), lambda: HalfCauchy(r), "
                      "lambda: Uniform(c, c + r), lambda: Exponential(r)]",
    "gamma_family": "[lambda: Gamma(c, r), lambda: Chi2(c), lambda: Beta(c, r), lambda: StudentT(c, r, c), "
                    "lambda: InverseGamma(c, r), lambda: FisherSnedecor(c, r)]",
    "dirichlet_and_more": "[lambda: Dirichlet(torch.stack([c, r], -1)), lambda: Kumaraswamy(c, r), "
                          "lambda: Weibull(c, r), lambda: Pareto(c, r), lambda: GeneralizedPareto(c, r, c), "
                          "lambda: LogisticNormal(c, r)]",
    "discrete": "[lambda: Poisson(c * 8), lambda: Geometric(probs=r / 2), lambda: Binomial(5, probs=r / 2), "
                "lambda: Binomial(torch.tensor([40., 90.]), logits=c), lambda: NegativeBinomial(3, probs=r / 2), "
                "lambda: Categorical(logits=torch.stack([c, r], -1)), lambda: Bernoulli(logits=c), "
                "lambda: OneHotCategorical(probs=torch.stack([c, r], -1)), "
                "lambda: Multinomial(4, probs=torch.stack([c, r], -1))]",
    "relaxed": "[lambda: ContinuousBernoulli(probs=r / 2), lambda: RelaxedBernoulli(c, probs=r / 2), "
               "lambda: RelaxedOneHotCategorical(c[0], probs=torch.stack([c, r], -1))]",
}


@pytest.mark.parametrize("family", FAMILIES)
def test_family_parity(family):
    same_as_torch(f"MAKERS = {FAMILIES[family]}\n" + FAMILY_PROGRAM, PRELUDE)


def test_kl_divergence_parity():
    same_as_torch("""
c = torch.tensor([0.7, 2.5], requires_grad=True); r = torch.tensor([1.5, 0.3], requires_grad=True)
pairs = [(Normal(c, r), Normal(r, c)),
         (Categorical(logits=torch.stack([c, r])), Categorical(probs=torch.stack([r, c]))),
         (Bernoulli(probs=r / 2), Bernoulli(logits=c)), (Uniform(c - 3, c), Uniform(c - 4, c + 1)),
         (Exponential(c), Exponential(r)), (Beta(c, r), Beta(r, c)), (Gamma(c, r), Gamma(r, c)),
         (Laplace(c, r), Laplace(r, c)), (Poisson(c), Poisson(r)),
         (Independent(Normal(c, r), 1), Independent(Normal(r, c), 1)),
         (Dirichlet(torch.stack([c, r])), Dirichlet(torch.stack([r, c]))), (Normal(c, r), Laplace(r, c)),
         (Gamma(c, r), Exponential(r)), (Uniform(c - 3, c), Normal(r, c)), (Geometric(r / 2), Geometric(c / 3)),
         (Binomial(3, r / 2), Binomial(3, c / 3)), (Cauchy(c, r), Cauchy(r, c)), (HalfNormal(c), HalfNormal(r)),
         (LogNormal(c, r), LogNormal(r, c)), (Gumbel(c, r), Gumbel(r, c)), (Pareto(c, r), Pareto(r, c)),
         (ContinuousBernoulli(r / 2), ContinuousBernoulli(c / 3)), (Exponential(c), Normal(c, r)),
         (Beta(c, r), Uniform(torch.zeros(2), torch.ones(2))), (Normal(c, r), Uniform(c, r + 3)),
         (OneHotCategorical(logits=torch.stack([c, r])), OneHotCategorical(logits=torch.stack([r, c])))]
for p, q in pairs:
    k = kl_divergence(p, q)
    print(type(p).__name__, type(q).__name__, k, k.grad_fn)
    if k.requires_grad:
        print(torch.autograd.grad(k.sum(), [c, r], allow_unused=True, retain_graph=True))
E(lambda: kl_divergence(Normal(0.0, 1.0), Poisson(torch.tensor(1.0))))
@register_kl(Normal, Poisson)
def _kl(p, q):
    return torch.zeros(())
E(lambda: kl_divergence(Normal(0.0, 1.0), Poisson(torch.tensor(1.0))))
""", PRELUDE)


def test_multivariate_normal_parity():
    same_as_torch("""
torch.manual_seed(0)
loc = torch.tensor([[0.5, -1.0], [1.0, 2.0]], requires_grad=True)
A = torch.tensor([[2.0, 0.3], [0.3, 1.0]], requires_grad=True)
m1 = MultivariateNormal(loc, covariance_matrix=A)
m2 = MultivariateNormal(loc.flip(0), scale_tril=torch.linalg.cholesky(A * 2))
m3 = MultivariateNormal(loc[0], precision_matrix=A)
torch.set_printoptions(precision=4)
for m in (m1, m2, m3):
    print(m, m.batch_shape, m.event_shape, m.mean, m.variance, m.mode, m.support)
    s = m.rsample((3,))
    print(s, s.grad_fn)
    lp = m.log_prob(s.detach())
    print(lp, lp.grad_fn, m.entropy())
    print(torch.autograd.grad(lp.sum(), [loc, A], allow_unused=True, retain_graph=True))
    print(m.scale_tril, m.covariance_matrix, m.precision_matrix)
    print(m.expand((3, 2)).batch_shape)
print(kl_divergence(m1, m2), kl_divergence(m1, m3))
print(torch.autograd.grad(kl_divergence(m1, m2).sum(), [loc, A], allow_unused=True, retain_graph=True))
lr = LowRankMultivariateNormal(loc, torch.tensor([[[1.0], [0.5]]]), torch.tensor([0.5, 2.0]))
print(lr, lr.batch_shape, lr.event_shape, lr.mean, lr.variance, lr.covariance_matrix, lr.precision_matrix,
      lr.scale_tril)
s = lr.rsample((2,))
print(s, lr.log_prob(s), lr.entropy(), kl_divergence(lr, m1), kl_divergence(lr, lr), kl_divergence(m1, lr))
E(lambda: MultivariateNormal(torch.zeros(2), torch.tensor([[1.0, 2.0], [2.0, 1.0]])))
E(lambda: MultivariateNormal(torch.zeros(2)))
E(lambda: MultivariateNormal(torch.zeros(2), torch.eye(2), scale_tril=torch.eye(2)))
E(lambda: MultivariateNormal(torch.tensor(0.0), torch.eye(2)))
""", PRELUDE)


def test_mixture_independent_transformed_parity():
    same_as_torch("""
torch.manual_seed(0)
c = torch.tensor([0.7, 2.5], requires_grad=True); r = torch.tensor([1.5, 0.3], requires_grad=True)
loc = torch.tensor([[0.5, -1.0], [1.0, 2.0]], requires_grad=True)
mix = MixtureSameFamily(Categorical(logits=c), Normal(c, r))
print(mix, mix.batch_shape, mix.event_shape, mix.mean, mix.variance, mix.support)
s = mix.sample((4,)); print(s, mix.log_prob(s), mix.cdf(s), mix.log_prob(s).grad_fn)
mix2 = MixtureSameFamily(Categorical(logits=c), Independent(Normal(loc, r.expand(2, 2)), 1))
s = mix2.sample((3,)); print(s, mix2.log_prob(s), mix2.mean, mix2.variance)
ind = Independent(Normal(loc, r.expand(2, 2)), 1)
print(ind, ind.batch_shape, ind.event_shape, ind.support, ind.rsample(), ind.entropy(), ind.log_prob(loc))
E(lambda: Independent(Normal(loc, loc.abs()), 3))
base = Normal(torch.zeros(2), torch.ones(2))
td = TransformedDistribution(base, [transforms.AffineTransform(1.0, 2.0), transforms.SigmoidTransform()])
print(td, td.batch_shape, td.event_shape, td.support)
s = td.rsample((3,)); print(s, s.grad_fn, td.log_prob(s), td.cdf(s), td.icdf(torch.tensor([0.2, 0.9])))
E(lambda: td.mean)
ln = LogNormal(torch.tensor([0.0, 1.0], requires_grad=True), torch.tensor([1.0, 0.5]))
print(ln.base_dist, ln.transforms, ln.mean, ln.variance, ln.entropy(), ln.mode, ln.loc, ln.scale)
print(Normal(c, r).cdf(torch.tensor([0.3, 1.2])), Normal(c, r).icdf(torch.tensor([0.3, 0.9])))
print(torch.autograd.grad(Normal(c, r).icdf(torch.tensor([0.3, 0.9])).sum(), [c, r]))
st = OneHotCategoricalStraightThrough(logits=c)
s = st.rsample((2,)); print(s, s.grad_fn, torch.autograd.grad(s.sum(), c))
""", PRELUDE)


def test_transforms_parity():
    same_as_torch("""
x = torch.tensor([[0.3, -1.2, 2.0], [0.1, 0.5, -0.7]], requires_grad=True)
ts = [transforms.ExpTransform(), transforms.AffineTransform(1.0, 2.0),
      transforms.AffineTransform(torch.tensor([1.0, 2.0, 3.0]), 0.5, event_dim=1),
      transforms.SigmoidTransform(), transforms.TanhTransform(), transforms.SoftplusTransform(),
      transforms.PowerTransform(2.0), transforms.AbsTransform(), transforms.SoftmaxTransform(),
      transforms.StickBreakingTransform(),
      transforms.ComposeTransform([transforms.ExpTransform(), transforms.AffineTransform(0.0, 3.0)]),
      transforms.ExpTransform().inv, transforms.IndependentTransform(transforms.ExpTransform(), 1),
      transforms.ReshapeTransform((2, 3), (3, 2)),
      transforms.CatTransform([transforms.ExpTransform(), transforms.SigmoidTransform()], 0, [1, 1]),
      transforms.StackTransform([transforms.ExpTransform(), transforms.TanhTransform()], 0),
      transforms.CumulativeDistributionTransform(Normal(0.0, 1.0)), transforms.LowerCholeskyTransform()]
for t in ts:
    print(t, t.domain, t.codomain, t.bijective)
    E(lambda: t.sign); E(lambda: t.event_dim)
    xi = x if not isinstance(t, transforms.LowerCholeskyTransform) else x[:, :2]
    y = t(xi)
    print(y, y.grad_fn)
    E(lambda: t.inv(y))
    E(lambda: t.log_abs_det_jacobian(xi, y))
    E(lambda: t.forward_shape(xi.shape)); E(lambda: t.inverse_shape(xi.shape))
    E(lambda: torch.autograd.grad(t.log_abs_det_jacobian(xi, y).sum() + y.sum(), x, retain_graph=True))
print(transforms.ExpTransform() == transforms.ExpTransform(), transforms.ExpTransform().inv.inv)
print(biject_to(constraints.positive), biject_to(constraints.simplex), biject_to(constraints.interval(0.0, 2.0)),
      transform_to(constraints.lower_cholesky), biject_to(constraints.real))
print(biject_to(constraints.positive)(x), transform_to(constraints.simplex)(x))
""", PRELUDE)


def test_constraints_and_validation_parity():
    same_as_torch("""
E(lambda: Normal(torch.tensor([0.0]), torch.tensor([-1.0])))
E(lambda: Normal(0.0, -1.0))
E(lambda: Normal(torch.tensor([0.0]), torch.tensor([1.0])).log_prob(torch.tensor([[1.0, 2.0]])))
E(lambda: Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0])).log_prob(torch.tensor([1.0, 2.0, 3.0])))
E(lambda: Normal(0.0, 1.0).log_prob(1.0))
E(lambda: Bernoulli(torch.tensor([0.3])).log_prob(torch.tensor([0.5])))
E(lambda: Bernoulli(probs=torch.tensor([1.3])))
E(lambda: Bernoulli(probs=0.3, logits=0.2))
E(lambda: Categorical(torch.tensor([0.3, -0.2])))
E(lambda: Categorical(torch.tensor([0.3, 0.7])).log_prob(torch.tensor([2])))
E(lambda: Uniform(1.0, 0.0))
E(lambda: Uniform(0.0, 1.0).log_prob(torch.tensor([2.0])))
E(lambda: Gamma(torch.tensor([-1.0]), 1.0))
E(lambda: Beta(torch.tensor([1.0]), torch.tensor([0.0])))
E(lambda: Dirichlet(torch.tensor(1.0)))
E(lambda: Dirichlet(torch.tensor([1.0, 2.0])).log_prob(torch.tensor([0.5, 0.6])))
E(lambda: Poisson(torch.tensor([1.0])).log_prob(torch.tensor([1.5])))
E(lambda: Binomial(torch.tensor([3.0]), torch.tensor([0.5])).log_prob(torch.tensor([4.0])))
E(lambda: Independent(Normal(torch.zeros(2), torch.ones(2)), 1).log_prob(torch.zeros(3)))
E(lambda: OneHotCategorical(probs=torch.tensor([0.2, 0.8])).log_prob(torch.tensor([0.5, 0.5])))
E(lambda: Normal(torch.zeros(2), torch.ones(2)).expand((3, 3)))
E(lambda: Geometric(torch.tensor([0.0])))
E(lambda: StudentT(torch.tensor([-1.0])))
E(lambda: Normal(0.0, 1.0).enumerate_support())
for name in ["real", "boolean", "positive", "nonnegative", "unit_interval", "simplex", "real_vector",
             "positive_integer", "nonnegative_integer", "lower_cholesky", "lower_triangular", "positive_definite",
             "corr_cholesky", "one_hot", "positive_semidefinite", "square", "symmetric"]:
    con = getattr(constraints, name)
    print(name, con, con.event_dim, con.is_discrete)
print(constraints.interval(0.0, 2.0), constraints.greater_than(1.0), constraints.half_open_interval(0, 1),
      constraints.integer_interval(0, 3), constraints.less_than(2.0), constraints.greater_than_eq(0.0))
print(constraints.independent(constraints.real, 2),
      constraints.cat([constraints.real, constraints.positive], 0, [1, 1]))
x = torch.tensor([[1.0, 0.0], [0.5, 2.0]])
for name in ["lower_cholesky", "lower_triangular", "positive_definite", "square", "symmetric", "simplex", "positive"]:
    print(name, getattr(constraints, name).check(x))
print(Normal(0.0, 1.0).arg_constraints, Gamma.arg_constraints, Categorical.arg_constraints)
print(type(Normal(0.0, 1.0)), Normal.__mro__, type(constraints.real), type(transforms.ExpTransform()))
print(Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)), Normal(torch.zeros(2), torch.ones(2)).expand((3, 2)).loc)
print(Distribution.set_default_validate_args(False), Normal(0.0, -1.0), Distribution.set_default_validate_args(True))
""", PRELUDE)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_samplers_bit_identical(dtype):
    torch = torch_or_skip()
    results = []
    for T in (mg, torch):
        dt = getattr(T, dtype)
        T.manual_seed(7)
        a = T.tensor([0.3, 1.0, 2.5, 7.0, 0.05, 30.0, 1.5, 0.9] * 6, dtype=dt)
        p = T.tensor([0.3, 0.6, 0.05, 0.9, 0.5, 0.99] * 8, dtype=dt)
        out = [T._standard_gamma(a), T.poisson(a * 5), T.binomial(a * 20, p), T.binomial(a.round() + 1, p),
               T._sample_dirichlet(a.view(12, 4)), T.distributions.Beta(a, a.flip(0)).sample(),
               T.distributions.StudentT(a).sample((2,)), T.distributions.Dirichlet(a.view(6, 8)).rsample(),
               T.randn(3)]  # (the generators must still be in step)
        g = T.Generator().manual_seed(3)
        out += [T._standard_gamma(a, generator=g), T.poisson(a, generator=g), T.binomial(a.round(), p, generator=g),
                T._sample_dirichlet(a.view(8, 6), generator=g), g.get_state(), T.get_rng_state()]
        results.append([o.numpy().tobytes() for o in out])
    assert results[0] == results[1]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_reparameterised_gradients_match(dtype):
    """Gamma / Beta / Dirichlet rsample gradients (PyTorch's _standard_gamma_grad and _dirichlet_grad)."""
    torch = torch_or_skip()
    grads = []
    for T in (mg, torch):
        dt = getattr(T, dtype)
        T.manual_seed(1)
        a = T.tensor([0.3, 1.0, 2.5, 7.0, 0.05, 30.0, 1.5, 0.9], dtype=dt, requires_grad=True)
        b = T.tensor([1.5, 0.2, 9.0, 3.0, 1.0, 25.0, 0.7, 12.0], dtype=dt, requires_grad=True)
        loss = (T.distributions.Gamma(a, b).rsample((3,)).sum() + T.distributions.Beta(a, b).rsample((2,)).sum()
                + (T.distributions.Dirichlet(T.stack([a, b], -1)).rsample() ** 2).sum()
                + T.distributions.Chi2(a).rsample().sum() + T.distributions.StudentT(a, b, b).rsample().sum())
        grads.append(T.autograd.grad(loss, [a, b]))
    for g_mg, g_torch in zip(*grads):
        assert_close(g_mg, g_torch, rtol=1e-5 if dtype == "float32" else 1e-12, atol=1e-7)


# ---- the regularized incomplete gamma function (Gamma.cdf, Chi2.cdf) ----------------------------------

def test_igamma_by_hand():
    x = mg.tensor([0.1, 0.7, 1.5, 4.0, 12.0, 40.0], dtype=mg.float64, requires_grad=True)
    one = mg.ones(6, dtype=mg.float64)
    _close(mg.special.gammainc(one, x), [1 - math.exp(-v) for v in x.tolist()], rtol=1e-13)  # P(1, x) = 1 - e^-x
    # P(2, x) = 1 - (1 + x) e^-x
    _close(mg.igamma(one * 2, x), [1 - (1 + v) * math.exp(-v) for v in x.tolist()], rtol=1e-12)
    for a in (0.3, 2.5, 25.0):
        p, q = mg.special.gammainc(one * a, x), mg.special.gammaincc(one * a, x)
        _close(p + q, [1.0] * 6, rtol=1e-14)
    p = mg.special.gammainc(one * 2.5, x)
    (g,) = mg.autograd.grad(p.sum(), x)
    _close(g, [math.exp(1.5 * math.log(v) - v - math.lgamma(2.5)) for v in x.tolist()], rtol=1e-12)
    assert type(p.grad_fn).__name__ == "IgammaBackward0"
    assert mg.special.gammainc(mg.tensor([0.0, 1.0, -1.0]), mg.tensor([1.0, 0.0, 1.0])).tolist()[:2] == [1.0, 0.0]


def test_igamma_parity():
    same_as_torch("""
# (a > 20 with x near a: PyTorch's asymptotic expansion, which minigrad does not have; see _igamma.py)
a = torch.tensor([0.7, 2.5, 15.0, 30.0, 0.5, 3.0, 250.0], dtype=torch.float64, requires_grad=True)
x = torch.tensor([0.3, 4.0, 14.0, 60.0, 0.8, 1.0, 50.0], dtype=torch.float64, requires_grad=True)
torch.set_printoptions(precision=12)
for f in (torch.special.gammainc, torch.special.gammaincc, torch.igamma, torch.igammac):
    y = f(a.detach(), x)
    print(y, y.grad_fn, torch.autograd.grad(y.sum(), x))
torch.set_printoptions(precision=5)
print(torch.special.gammainc(a.float().detach(), x.float()))
y = torch.special.gammainc(a, x)
E(lambda: y.sum().backward())
E(lambda: torch.special.gammainc(torch.tensor([1, 2]), torch.tensor([1, 2])))
print(torch.special.gammainc(torch.tensor([0.0, 1.0, -1.0, float('inf')]), torch.tensor([1.0, 0.0, 1.0, 2.0])))
print(Gamma(a.detach(), 2.0).cdf(x.detach()), Chi2(a.detach()).cdf(x.detach()))
""", PRELUDE)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_reparameterisation_kernels_bit_identical(dtype):
    """_standard_gamma_grad and _dirichlet_grad on every branch of their approximations (float32 in float32)."""
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    x, a, t = rng.uniform(0.001, 0.999, 600), rng.uniform(0.05, 12, 600), rng.uniform(0.05, 12, 600)
    g = rng.gamma(a) + 1e-3
    results = []
    for T in (mg, torch):
        dt = getattr(T, dtype)
        out = [T._dirichlet_grad(T.tensor(x, dtype=dt), T.tensor(a, dtype=dt), T.tensor(a + t, dtype=dt)),
               T._standard_gamma_grad(T.tensor(a * 2, dtype=dt), T.tensor(g * 2, dtype=dt))]
        results.append([o.numpy().tobytes() for o in out])
    assert results[0] == results[1]


def test_discrete_and_extreme_samples_parity():
    same_as_torch("""
torch.manual_seed(0)
E(lambda: MixtureSameFamily(Normal(0., 1.), Normal(0., 1.)))
E(lambda: MixtureSameFamily(Categorical(logits=torch.zeros(2)), 3))
E(lambda: torch.distributions.utils.broadcast_all("a", 1.0))
E(lambda: Categorical(probs=torch.tensor([0.2, 0.8])).sample((2, 3)))
E(lambda: Binomial(torch.tensor([3.0, 10.0]), logits=torch.tensor([0.2, -1.0])).sample((2,)))
E(lambda: Multinomial(5, torch.tensor([0.2, 0.3, 0.5])).sample((2,)))
E(lambda: Multinomial(probs=torch.tensor([0.2, 0.3, 0.5])).log_prob(torch.tensor([1., 2., 3.])))
E(lambda: Geometric(torch.tensor([0.3, 0.9])).sample((3,)))
E(lambda: NegativeBinomial(torch.tensor([3.0, 15.0]), torch.tensor([0.3, 0.7])).sample((3,)))
E(lambda: Poisson(torch.tensor([0.0, 1e-3, 20.0, 500.0])).sample((2,)))
E(lambda: Beta(torch.tensor([0.01, 100.0]), torch.tensor([0.01, 100.0])).sample((2,)))
E(lambda: Gamma(torch.tensor([1e-3, 1e-30]), 1.0).sample((2,)))
E(lambda: torch.poisson(torch.tensor([-1.0])))
E(lambda: torch.binomial(torch.tensor([2, 3]), torch.tensor([0.5, 0.5])))
E(lambda: torch._standard_gamma(torch.tensor([1, 2])))
x = torch.tensor([0.5, 3.0], requires_grad=True)
y = torch._standard_gamma(x)
print(y.grad_fn, torch.poisson(x).grad_fn, torch.autograd.grad(torch.poisson(x).sum(), x))
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.grad_fn)
E(lambda: torch.autograd.grad(g.sum(), x))
for f in (lambda: torch._sample_dirichlet(torch.stack([x, x * 2], -1)),
          lambda: torch.binomial(torch.tensor([5., 6.]), x.sigmoid()),
          lambda: torch.binomial(x * 3, torch.tensor([0.5, 0.5])), lambda: torch.binomial(x * 3, x.sigmoid())):
    d = f()
    print(d, d.grad_fn.name(), d.grad_fn.next_functions)
    E(lambda: d.sum().backward())
""", PRELUDE)


def test_von_mises_wishart_lkj_parity():
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")  # (Wishart warns "Singular sample detected." on every draw, as PyTorch)
torch.manual_seed(0)
c = torch.tensor([0.7, 2.5], requires_grad=True); r = torch.tensor([1.5, 0.3], requires_grad=True)
cov = torch.tensor([[2.0, 0.3], [0.3, 1.0]])
for d in [VonMises(c, r), VonMises(torch.tensor(0.3), torch.tensor(50.0)),
          Wishart(torch.tensor(4.0), covariance_matrix=cov),
          Wishart(torch.tensor([3.0, 5.0]), scale_tril=torch.eye(2) * 2), LKJCholesky(3, torch.tensor(0.5)),
          LKJCholesky(2, torch.tensor([1.0, 3.0]))]:
    print(d, d.batch_shape, d.event_shape, d.support)
    s = d.sample((2,))
    print(s)
    lp = d.log_prob(s)
    print(lp, lp.grad_fn)
    for attr in ["mean", "mode", "variance"]:
        E(lambda: getattr(d, attr))
    E(lambda: d.entropy())
    E(lambda: d.expand((3,) + tuple(d.batch_shape)).sample().shape)
    if d.has_rsample:
        s = d.rsample()
        print(s, s.grad_fn)
lp = VonMises(c, r).log_prob(torch.tensor([0.1, -2.0]))
print(lp, torch.autograd.grad(lp.sum(), [c, r]))
""", PRELUDE)


def test_zero_dim_mask_indexing():
    """KL of scalar Uniforms / Bernoullis writes through a 0-d bool mask (x[mask] = inf)."""
    x = mg.tensor(2.0)
    assert x[mg.tensor(True)].shape == (1,) and x[mg.tensor(False)].shape == (0,)
    assert dist.kl_divergence(dist.Uniform(0.0, 2.0), dist.Uniform(0.5, 1.0)).item() == math.inf
    assert dist.kl_divergence(dist.Bernoulli(mg.tensor(0.3)), dist.Bernoulli(mg.tensor(0.0))).item() == math.inf


def test_transforms_by_hand():
    x = mg.tensor([0.5, -1.0], dtype=mg.float64)
    t = dist.transforms.ComposeTransform([dist.transforms.AffineTransform(1.0, 3.0), dist.transforms.ExpTransform()])
    y = t(x)
    _close(y, [math.exp(1 + 3 * v) for v in (0.5, -1.0)])
    _close(t.inv(y), [0.5, -1.0], rtol=1e-12)
    _close(t.log_abs_det_jacobian(x, y), [math.log(3) + 1 + 3 * v for v in (0.5, -1.0)], rtol=1e-12)
    s = dist.transforms.SigmoidTransform()
    _close(s.log_abs_det_jacobian(x, s(x)), [math.log(1 / (1 + math.exp(-v)) * (1 - 1 / (1 + math.exp(-v))))
                                             for v in (0.5, -1.0)], rtol=1e-12)
    ln = dist.LogNormal(mg.tensor(0.5, dtype=mg.float64), 2.0)
    v = 1.7
    _close(ln.log_prob(mg.tensor([v], dtype=mg.float64)),
           [-math.log(v) - math.log(2) - 0.5 * math.log(2 * math.pi) - (math.log(v) - 0.5) ** 2 / 8], rtol=1e-12)


def test_discrete_samplers_statistics():
    mg.manual_seed(11)
    n, p = 40.0, 0.3
    b = mg.binomial(mg.full((3000,), n, dtype=mg.float64), mg.full((3000,), p, dtype=mg.float64))
    assert abs(b.mean().item() - n * p) < 4 * math.sqrt(n * p * (1 - p) / 3000)
    assert b.min().item() >= 0 and b.max().item() <= n
    d = mg._sample_dirichlet(mg.tensor([[1.0, 2.0, 7.0]] * 2000, dtype=mg.float64))
    _close(d.sum(-1), [1.0] * 2000, rtol=1e-12)
    np.testing.assert_allclose(d.mean(0).tolist(), [0.1, 0.2, 0.7], atol=0.02)
