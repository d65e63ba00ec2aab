"""PyTorch parity for the ops of the missing-ops pass 2: inner, vdot, addr, addmv, addbmm (and their in-place
forms), matrix_power, linalg.multi_dot, chain_matmul, frexp, ldexp, gcd/lcm, nextafter, renorm, complex, polar,
gradient, index_copy and scatter_reduce.

Most cases run through ``check`` (tests/test_parity_missing_ops.py): the same outputs (dtype, shape, strides,
values), the same graph below each output, the same saved values, gradients, warnings or exception. Then
float32 bits where PyTorch's kernel is reproduced exactly, forward-mode AD, and a few values worked out by hand.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from parity import same_as_torch, torch_or_skip
from test_parity_missing_ops import _close, _run, cases, check

import minigrad as mg
from minigrad.autograd import forward_ad

# ---- inputs ----------------------------------------------------------------------------------------

A23 = "a = T.tensor([[0.5, -1.25, 2.0], [3.0, 0.75, -0.5]], dtype=T.float64, requires_grad=True)\n"
B43 = ("b = T.tensor([[1.5, -2.0, 0.5], [0.25, 1.0, 2.0], [-0.75, 3.0, 1.0], [1.0, 1.0, -1.0]], dtype=T.float64, "
       "requires_grad=True)\n")
V3 = "v = T.tensor([1.0, -2.0, 0.5], dtype=T.float64, requires_grad=True)\n"
W2 = "w = T.tensor([0.5, 2.0], dtype=T.float64, requires_grad=True)\n"
S0 = "s = T.tensor(1.5, dtype=T.float64, requires_grad=True)\n"
Q = "q = T.tensor([[1.0, 0.5, -0.25], [0.25, 2.0, 0.5], [-1.0, 0.75, 1.5]], dtype=T.float64, requires_grad=True)\n"
BB = ("b1 = T.arange(24.).reshape(4, 2, 3).div(10).requires_grad_(); "
      "b2 = T.arange(60.).reshape(4, 3, 5).sin().requires_grad_(); c = T.ones(2, 5, requires_grad=True)\n")
F = "f = T.tensor([1.5, 2.0, -1.0]); d = f.double(); i = T.tensor([3, 4, 1]); M = T.ones(2, 3)\n"
G = "f = T.tensor([1.5, 2.]); d = f.double(); i = T.tensor([3, 4]); b = T.tensor([True, False])\n"
X = "x = T.tensor([1.5, -3.0, 0.0, 8.0, 1e-40, 0.1], requires_grad=True)\n"
Y = ("y = T.tensor([1., 2., 3.], requires_grad=True); k = T.tensor([1, 2, -1]); "
     "kf = T.tensor([0.5, -1.3, 2.0], requires_grad=True)\n")
W = ("W = T.tensor([[0.5, -1.25, 2.0, 0.1], [3.0, 0.75, -0.5, 0.2], [0.1, 0.2, -0.1, 0.3]], dtype=T.float64, "
     "requires_grad=True)\n")
R = "re = T.tensor([1., 2., -0.5], requires_grad=True); im = T.tensor([3., -4., 0.25], requires_grad=True)\n"
GR = ("t = T.tensor([1., 4., 9., 16., 20.], dtype=T.float64, requires_grad=True); "
      "m = T.tensor([[1., 2., 4., 8.], [0.5, 1., 3., 2.], [2., 2., 0., 1.]], dtype=T.float64, requires_grad=True)\n")
IC = "x = T.arange(6.).reshape(3, 2).requires_grad_(); s = T.tensor([[10., 20.], [30., 40.]], requires_grad=True)\n"
SR = ("x = T.tensor([[1., 2.], [0., 4.], [5., -1.]], requires_grad=True); "
      "s = T.tensor([[2., 3.], [0., 1.], [2., -2.], [6., 3.]], requires_grad=True); "
      "i = T.tensor([[0, 1], [2, 0], [0, 0], [1, 2]])\n")
CO = "c = T.tensor([0., 1., 3., 4., 7.], dtype=T.float64, requires_grad=True)\n"
INTS = "a = T.tensor([1, 2, 3]); j = T.tensor([0, 0, 2]); b = T.tensor([4, 5, 7])\n"


# ---- inner, vdot -----------------------------------------------------------------------------------

@cases(
    (A23 + B43, "T.inner(a, b)"), (A23 + V3, "T.inner(a, v)"), (A23 + V3, "T.inner(v, a)"),
    (V3, "T.inner(v, v * 2)"), (S0 + A23, "T.inner(s, a)"), (A23, "a.inner(a)"),
    (F, "T.inner(f, T.ones(4))"), (F, "T.inner(f, d)"), (F, "T.inner(i, i)"), (F, "T.inner(T.tensor(2), f)"),
    (V3, "T.vdot(v, v * 3)"), (V3, "v.vdot(T.ones(3, dtype=T.float64))"),
    ("", "T.vdot(T.tensor([1+2j, 3-1j]), T.tensor([2-1j, 0.5+1j]))"),
    (F, "T.vdot(f, d)"), (F, "T.vdot(f, T.ones(4))"), (F, "T.vdot(M, M)"), (F, "T.vdot(i, i)"),
    (F, "T.vdot(T.ones(3, dtype=T.bool), T.ones(3, dtype=T.bool))"),
)
def test_inner_vdot(setup, expr):
    check(setup, expr)


# ---- addr, addmv, addbmm -------------------------------------------------------------------------------

@cases(
    (A23 + W2 + V3, "T.addr(a, w, v)"), (A23 + W2 + V3, "T.addr(a, w, v, beta=2, alpha=0.5)"),
    (A23 + W2 + V3, "T.addr(a, w, v, beta=0)"), (W2 + V3, "T.addr(v, w, v)"),
    (A23 + W2 + V3, "(a * 1).addr_(w, v, alpha=2)"),
    (F, "T.addr(M, T.ones(3), f)"), (F, "T.addr(M, T.ones(2, 1), f)"), (F, "T.addr(T.ones(4), T.ones(2), f)"),
    (F, "T.addr(M.double(), T.ones(2), f)"), (F, "T.addr(M, T.ones(2).double(), f)"), (F, "T.addr(i, i, i)"),
    (F, "T.addr(M.long(), T.ones(2).long(), i, beta=0.5)"), (F, "T.addr(M.long(), T.ones(2).long(), i, alpha=2)"),
    (F, "T.addr(M.bool(), T.ones(2).bool(), T.tensor([True, False, True]))"),
    (F, "T.addr(T.ones(2, 3, 4), T.ones(2), f)"), (F, "T.ones(1, 3).addr_(T.ones(2), f)"),
    ("", "T.addr(T.tensor([[float('nan')]]), T.ones(1), T.ones(1), beta=0)"),   # β = 0: self not read
    ("", "T.addr(T.ones(2, 2, dtype=T.complex64), T.tensor([1j, 2]), T.tensor([1, 1j]))"),
)
def test_addr(setup, expr):
    check(setup, expr)


@cases(
    (A23 + W2 + V3, "T.addmv(w, a, v)"), (A23 + W2 + V3, "T.addmv(w, a, v, beta=0.5, alpha=-2)"),
    (A23 + S0 + V3, "T.addmv(s, a, v)"), (A23 + W2 + V3, "a.t().addmv(v, w)"),
    (A23 + W2 + V3, "(w * 1).addmv_(a, v)"), (A23 + W2 + V3, "T.addmv_(w * 1, a, v, beta=2)"),
    (F, "T.addmv(T.ones(3), M, f)"), (F, "T.addmv(T.ones(1), M, f)"), (F, "T.addmv(T.ones(2), M, T.ones(4))"),
    (F, "T.addmv(T.ones(2), f, f)"), (F, "T.addmv(T.ones(2), M, M)"), (F, "T.addmv(T.ones(2).double(), M, f)"),
    (F, "T.addmv(T.ones(2), M.double(), f)"), (F, "T.addmv(T.ones(2), M, d)"), (F, "T.addmv(T.ones(2, 2), M, f)"),
    (F, "T.addmv(T.ones(2).long(), M.long(), i)"), (F, "T.ones(1).addmv_(M, f)"),
    ("", "T.addmv(T.tensor([float('nan'), 1.]), T.ones(2, 2), T.ones(2), beta=0)"),
    ("", "T.addmv(T.ones(2), T.ones(2, 0), T.ones(0), beta=3)"),
)
def test_addmv(setup, expr):
    check(setup, expr)


@cases(
    (BB, "T.addbmm(c, b1, b2)"), (BB, "T.addbmm(c, b1, b2, beta=2, alpha=3)"), (BB, "T.addbmm(c[0], b1, b2, beta=0.5)"),
    (BB, "c.addbmm(b1, b2, alpha=0)"), (BB, "T.addbmm(c, b1[:0], b2[:0], beta=2)"), (BB, "(c * 1).addbmm_(b1, b2)"),
    (BB, "T.addbmm(c[:1], b1, b2)"), (BB, "T.addbmm(T.tensor(2.), b1, b2)"),
    ("", "T.addbmm(T.tensor([[float('nan')]]), T.ones(2, 1, 1), T.ones(2, 1, 1), beta=0)"),
    (F, "T.addbmm(T.ones(3, 5), T.ones(4, 2, 3), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(4, 2, 3), T.ones(4, 4, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(3, 2, 3), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(2, 3), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(4, 2, 3), T.ones(3, 5))"),
    (F, "T.addbmm(T.ones(2, 5).double(), T.ones(4, 2, 3), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(4, 2, 3).double(), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5), T.ones(4, 2, 3), T.ones(4, 3, 5).double())"),
    (F, "T.addbmm(T.ones(1, 2, 5), T.ones(4, 2, 3), T.ones(4, 3, 5))"),
    (F, "T.addbmm(T.ones(2, 5).long(), T.ones(4, 2, 3).long(), T.ones(4, 3, 5).long())"),
)
def test_addbmm(setup, expr):
    check(setup, expr)


# ---- matrix_power, multi_dot, chain_matmul --------------------------------------------------------------

@cases(
    *[(Q, f"T.matrix_power(q, {n})") for n in (0, 1, 2, 3, 4, 5, 6, 7)],
    (Q, "q.matrix_power(3)"), (Q, "T.linalg.matrix_power(q, 2)"), (Q, "T.matrix_power(T.stack([q, q * 2]), 3)"),
    (Q, "T.matrix_power(T.stack([q, q * 2]), 0)"),
    (F, "T.matrix_power(M, 2)"), (F, "T.matrix_power(f, 2)"), (F, "T.matrix_power(T.ones(2, 2).long(), 2)"),
    (F, "T.matrix_power(T.ones(2, 2).long(), -1)"), (F, "T.matrix_power(T.ones(2, 2).long(), 0)"),
    (F, "T.matrix_power(T.ones(2, 2), -1)"), (F, "T.matrix_power(T.eye(2), 2.0)"), (F, "T.linalg.matrix_power(M, 2)"),
)
def test_matrix_power(setup, expr):
    check(setup, expr)


def _without_strides(description):
    """A description with the strides left out (of the output and of the saved ``*_sym_strides``)."""
    if isinstance(description, dict):
        return {k: _without_strides(v) for k, v in description.items()
                if k != "stride" and not k.endswith("_sym_strides")}
    return description


@pytest.mark.parametrize("n", [-1, -2, -3, -5])
def test_matrix_power_negative(n):
    # PyTorch's linalg.inv returns a column-major matrix, minigrad's a row-major one (see the report): the
    # strides differ, the graph, saved values and gradients do not.
    torch = torch_or_skip()
    expr = f"T.matrix_power(q, {n})"
    _close(_without_strides(_run(mg, Q, expr, True)), _without_strides(_run(torch, Q, expr, True)), expr)


@cases(
    (A23 + Q, "T.linalg.multi_dot([a, q])"), (A23 + Q + V3, "T.linalg.multi_dot([a, q, v])"),
    (A23 + Q + V3 + W2, "T.linalg.multi_dot([w, a, q, q.t(), v])"),
    (A23 + Q, "T.linalg.multi_dot([a.t(), a, q, q, a.t()])"), (V3, "T.linalg.multi_dot([v, v])"),
    (A23, "T.linalg.multi_dot([a, a.t(), a])"),
    (F, "T.linalg.multi_dot([M])"), (F, "T.linalg.multi_dot([])"), (F, "T.linalg.multi_dot([M, T.ones(2, 3)])"),
    (F, "T.linalg.multi_dot([M, d])"), (F, "T.linalg.multi_dot([T.ones(2, 2, 2), M])"),
    (F, "T.linalg.multi_dot([M, T.ones(3, 2, 2)])"), (F, "T.linalg.multi_dot([M, T.ones(3, 2, 2), M])"),
    (A23, "T.chain_matmul(a)"), (A23, "T.chain_matmul(a, a.t(), a)"), (F, "T.chain_matmul(f, f)"),
    (F, "T.chain_matmul()"),
)
def test_multi_dot_chain_matmul(setup, expr):
    check(setup, expr)


def test_chain_matmul_warns_once():
    # (PyTorch's TORCH_WARN_ONCE: the parity cases above see the warning on the first call only, in both)
    mg._warn_once._WARNED.discard("chain_matmul")
    with pytest.warns(UserWarning, match="torch.chain_matmul is deprecated"):
        mg.chain_matmul(mg.ones(2, 2))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert mg.chain_matmul(mg.ones(2, 3), mg.ones(3, 1)).tolist() == [[3.0], [3.0]]


# ---- frexp, ldexp, gcd, lcm, nextafter ---------------------------------------------------------------------

@cases(
    (X, "T.frexp(x)"), (X, "x.frexp().mantissa"), (X, "T.frexp(x.double())"), (G, "T.frexp(i)"), (G, "T.frexp(b)"),
    (G, "T.frexp(T.tensor([1.+1j]))"), (G, "T.frexp(T.tensor(3.))"),
    (Y, "T.ldexp(y, k)"), (Y, "T.ldexp(y, kf)"), (Y, "y.ldexp(kf.double())"), (G, "T.ldexp(i, i)"),
    (G, "T.ldexp(i, f)"), (G, "T.ldexp(f, 2)"), (G, "T.ldexp(f, T.ones(3))"), (G, "T.ldexp(b, b)"),
    (Y, "(y * 1).ldexp_(k)"), (G, "i.clone().ldexp_(i)"), (G, "f.clone().ldexp_(d)"),
    (G, "T.gcd(T.tensor([12, -18, 0, 7]), T.tensor([8, 12, 0, -21]))"),
    (G, "T.lcm(T.tensor([4, -6, 0, 3]), T.tensor([6, 4, 5, -7]))"), (G, "T.gcd(i, i.int())"), (G, "T.gcd(f, f)"),
    (G, "T.gcd(i, 3)"), (G, "T.gcd(b, b)"), (G, "i.clone().gcd_(T.tensor([6, 6]))"),
    (G, "i.clone().lcm_(T.tensor([6, 6]))"), (G, "T.gcd(T.tensor([2], dtype=T.uint8), T.tensor([4], dtype=T.uint8))"),
    (G, "T.gcd(i, T.ones(3, dtype=T.long))"), (G, "i.lcm(T.tensor([[2], [3]]))"),
    (Y, "T.nextafter(y, T.tensor([2., 0., 3.]))"), (Y, "T.nextafter(y, kf)"), (G, "T.nextafter(f, d)"),
    (G, "T.nextafter(f, i)"), (G, "T.nextafter(i, i)"), (G, "T.nextafter(f, T.tensor(0.))"),
    (G, "T.nextafter(f, 1.0)"), (G, "f.clone().nextafter_(T.zeros(2))"),
)
def test_frexp_ldexp_gcd_lcm_nextafter(setup, expr):
    check(setup, expr)


# ---- renorm, complex, polar ---------------------------------------------------------------------------------

@cases(
    (W, "T.renorm(W, 2, 0, 1.0)"), (W, "T.renorm(W, 1, 1, 2.0)"), (W, "W.renorm(3, -1, 0.5)"),
    (W, "T.renorm(W, float('inf'), 0, 1.0)"), (W, "T.renorm(W.float(), 2, 0, 1.0)"), (W, "T.renorm(W, 2, 0, 100.0)"),
    (W, "(W * 1).renorm_(2, 0, 1.0)"),
    (G, "T.renorm(f, 2, 0, 1.)"), (G, "T.renorm(T.ones(2, 3), 0, 0, 1.)"), (G, "T.renorm(T.ones(2, 3), -1, 0, 1.)"),
    (G, "T.renorm(T.ones(2, 3), 2, 0, -1.)"), (G, "T.renorm(T.ones(2, 3), 2, 2, 1.)"),
    (G, "T.renorm(T.ones(2, 3).long(), 2, 0, 1.)"), (G, "T.renorm(T.ones(2, 3), 2, 0, 1)"),
)
def test_renorm(setup, expr):
    check(setup, expr)


@cases(   # (complex outputs seen through view_as_real: the parity runner weighs outputs with a real arange)
    (R, "T.view_as_real(T.complex(re, im))"), (R, "T.view_as_real(T.complex(re.double(), im.double()))"),
    (R, "T.view_as_real(T.complex(re, im[:1, None]))"), (R, "T.view_as_real(T.polar(re, im))"),
    (R, "T.view_as_real(T.polar(re.double(), im.double()))"), (R, "T.view_as_real(T.polar(re, im[:1, None]))"),
    (R, "T.polar(re, im).abs()"),
    (G, "T.complex(f, d)"), (G, "T.complex(i, i)"), (G, "T.complex(f, T.ones(3))"), (G, "T.complex(f, 1.0)"),
    (G, "T.polar(f, d)"), (G, "T.polar(i, i)"), (G, "T.polar(f, f.half())"),
)
def test_complex_polar(setup, expr):
    check(setup, expr)


def test_complex_polar_saved_values():
    torch = torch_or_skip()
    for T in (mg, torch):
        re = T.tensor([1., 2.], requires_grad=True)
        im = T.tensor([3., -4.], requires_grad=True)
        z = T.complex(re, im)
        assert z.dtype == T.complex64
        assert z.grad_fn._saved_real is re and z.grad_fn._saved_imag is im
        p = T.polar(re, im)
        assert p.grad_fn._saved_result.tolist() == p.tolist()


# ---- gradient ---------------------------------------------------------------------------------------------------

@cases(
    (GR, "T.gradient(t)"), (GR, "T.gradient(t, spacing=2.0)"), (GR, "T.gradient(t, edge_order=2)"),
    (GR, "T.gradient(m)"), (GR, "T.gradient(m, spacing=[2, 0.5], edge_order=2)"), (GR, "T.gradient(m, dim=1)"),
    (GR, "T.gradient(m, spacing=3, dim=(1,))"), (GR, "T.gradient(m, spacing=[3.], dim=[-1])"),
    (GR, "T.gradient(m, dim=[1, 0])"),
    (GR + CO, "T.gradient(t, spacing=(c,))"), (GR + CO, "T.gradient(t, spacing=(c,), edge_order=2)"),
    (GR + CO, "T.gradient(m, spacing=(c[:3], c[1:]), edge_order=2)"),
    (GR + CO, "T.gradient(m, spacing=[c[:4]], dim=1)"),
    (GR + CO, "T.gradient(t, spacing=(c.view(5, 1),))"), (GR + CO, "T.gradient(t, spacing=(c[:4],))"),
    (GR + CO, "T.gradient(m, spacing=[c[:3], 2.])"), (GR + CO, "T.gradient(t.int(), spacing=(c.detach().int(),))"),
    ("", "T.gradient(T.tensor([1, 4, 9]))"), ("", "T.gradient(T.tensor([1, 4, 9, 16]), spacing=3)"),
    ("", "T.gradient(T.tensor(1.))"), ("", "T.gradient(T.tensor([1., 2.]), edge_order=2)"),
    ("", "T.gradient(T.tensor([1., 2., 4.]), edge_order=3)"), ("", "T.gradient(T.ones(3, 3), spacing=[1., 2., 3.])"),
    ("", "T.gradient(T.ones(3, 3), spacing=[1.], dim=[0, 1])"), ("", "T.gradient(T.ones(3, 3), dim=2)"),
    ("", "T.gradient(T.ones(3, 3, dtype=T.uint8))"), ("", "T.gradient(T.ones(3, 3), dim=[0, 0])"),
)
def test_gradient(setup, expr):
    check(setup, expr)


# ---- index_copy, scatter_reduce -------------------------------------------------------------------------------------

@cases(
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]), s)"), (IC, "x.index_copy(1, T.tensor([1]), s[:, :1].repeat(2, 1)[:3])"),
    (IC, "T.index_copy(x, -2, T.tensor([2, 0]), s)"), (IC, "(x * 1).index_copy_(0, T.tensor([2, 0]), s)"),
    (IC, "T.index_copy(x, 0, T.tensor(1), s[:1])"),
    (IC, "T.index_copy(T.zeros(3, requires_grad=True), 0, T.tensor([1]), T.tensor(5., requires_grad=True))"),
    (IC, "T.index_copy(T.tensor(1., requires_grad=True), 0, T.tensor([0]), T.tensor(5., requires_grad=True))"),
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]).int(), s)"), (IC, "T.index_copy(x, 0, T.tensor([2., 0.]), s)"),
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]), s.double())"), (IC, "T.index_copy(x, 0, T.tensor([[2, 0]]), s)"),
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]), T.ones(3, 2))"),
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]), T.ones(2, 3))"),
    (IC, "T.index_copy(x, 0, T.tensor([5, 0]), s)"), (IC, "T.index_copy(x, 2, T.tensor([2, 0]), s)"),
    (IC, "T.index_copy(x, 0, T.tensor([2, 0]), T.ones(2, 2, 1))"),
    (IC, "T.index_copy(T.zeros(2, 3, 4), 1, T.tensor([0]), T.ones(2, 1, 5))"),
)
def test_index_copy(setup, expr):
    check(setup, expr)


@cases(
    *[(SR, f"T.scatter_reduce(x, 0, i, s, '{r}', include_self={inc})")
      for r in ("sum", "prod", "mean", "amax", "amin") for inc in (True, False)],
    (SR, "x.scatter_reduce(1, i[:3], s[:3], 'amax')"),
    (SR, "(x * 1).scatter_reduce_(0, i, s, 'mean', include_self=False)"),
    (SR, "T.scatter_reduce(x.double(), 0, i, s.double(), 'prod')"), (SR, "T.scatter_reduce(x, 0, i.int(), s, 'sum')"),
    (SR, "T.scatter_reduce(x, 0, i, s, 'max')"), (SR, "T.scatter_reduce(x, 0, i, s, 'add')"),
    (INTS, "T.scatter_reduce(a, 0, j, b, 'mean')"), (INTS, "T.scatter_reduce(a, 0, j, b, 'mean', include_self=False)"),
    (INTS, "T.scatter_reduce(a, 0, j, b, 'amin', include_self=False)"),
    (INTS, "T.scatter_reduce(a.float(), 0, j, b.float(), 'amax', include_self=False)"),
    (SR, "T.scatter_reduce(x, 0, i.float(), s, 'sum')"), (SR, "T.scatter_reduce(x, 0, i, s.double(), 'sum')"),
    (SR, "T.scatter_reduce(x, 0, i + 3, s, 'sum')"), (SR, "T.scatter_reduce(x, 0, i[:, 0], s, 'sum')"),
    (SR, "T.scatter_reduce(x, 0, T.zeros(1, 3, dtype=T.long), s, 'sum')"),
    (SR, "T.scatter_reduce(x, 0, T.zeros(5, 2, dtype=T.long), s, 'sum')"),
    (SR, "T.scatter_reduce(x, 0, i, s[0], 'sum')"),
    (SR, "T.scatter_reduce(x.detach(), 0, i, s.detach().masked_fill(s > 5, nan), 'amax')"),
    (SR, "T.scatter_reduce(x.detach(), 0, i, s.detach().masked_fill(s > 5, nan), 'amin', include_self=False)"),
)
def test_scatter_reduce(setup, expr):
    check(setup, expr)


# ---- float32 bits ---------------------------------------------------------------------------------------------------

def _bits(t) -> np.ndarray:
    return np.asarray(t.detach().numpy()).view(np.uint32)


def test_float32_bits_match_pytorch():
    torch = torch_or_skip()
    rng = np.random.default_rng(7)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45, 1e-38, 3.4e38], np.float32)
    x = np.concatenate([(rng.standard_normal(40) * 10.0 ** rng.integers(-40, 38, 40)).astype(np.float32), special])
    y = np.concatenate([rng.standard_normal(40).astype(np.float32), special[::-1]])
    k = rng.integers(-140, 140, x.shape)
    for name, fn in (("nextafter", lambda T, a, b: T.nextafter(a, b)),
                     ("frexp", lambda T, a, b: T.frexp(a).mantissa),
                     ("ldexp-int", lambda T, a, b: T.ldexp(a, T.from_numpy(k)))):
        got, want = (fn(T, T.from_numpy(x.copy()), T.from_numpy(y.copy())) for T in (mg, torch))
        np.testing.assert_array_equal(_bits(got), _bits(want), err_msg=name)
    got, want = (T.polar(T.from_numpy(np.abs(x)), T.from_numpy(y * np.float32(7))) for T in (mg, torch))
    np.testing.assert_array_equal(got.numpy().view(np.uint32), want.numpy().view(np.uint32), err_msg="polar")
    # a fractional exponent: PyTorch's vectorized pow(2, y) is matched to within one ulp, not bit for bit
    got, want = (T.ldexp(T.from_numpy(x[:40].copy()), T.from_numpy(y[:40].copy())) for T in (mg, torch))
    assert np.abs(_bits(got).astype(np.int64) - _bits(want).astype(np.int64)).max() <= 1
    for _ in range(20):   # the vector products of the matrix ops
        m, n = rng.integers(1, 9, 2)
        c, v1, v2 = (rng.standard_normal(s).astype(np.float32) for s in ((m, n), m, n))
        for beta, alpha in ((1, 1), (0.5, 2.0), (0, 1.5)):
            got, want = (T.addr(T.from_numpy(c), T.from_numpy(v1), T.from_numpy(v2), beta=beta, alpha=alpha)
                         for T in (mg, torch))
            np.testing.assert_array_equal(_bits(got), _bits(want))
        got, want = (T.vdot(T.from_numpy(v2), T.from_numpy(v2[::-1].copy())) for T in (mg, torch))
        np.testing.assert_array_equal(_bits(got), _bits(want))
        square = rng.standard_normal((m, m)).astype(np.float32)
        # the scattering reductions (in index order, as PyTorch's loop) and the composites' products
        x32, s32 = rng.standard_normal((4, n)).astype(np.float32), rng.standard_normal((30, n)).astype(np.float32)
        index = rng.integers(0, 4, (30, n))
        for reduce in ("sum", "prod", "mean", "amax"):
            got, want = (T.scatter_reduce(T.from_numpy(x32), 0, T.from_numpy(index), T.from_numpy(s32), reduce)
                         for T in (mg, torch))
            np.testing.assert_array_equal(_bits(got), _bits(want), err_msg=reduce)
        np.testing.assert_array_equal(_bits(mg.inner(mg.from_numpy(c), mg.from_numpy(c))),
                                      _bits(torch.inner(torch.from_numpy(c), torch.from_numpy(c))))
        np.testing.assert_array_equal(_bits(mg.matrix_power(mg.from_numpy(square), 3)),
                                      _bits(torch.matrix_power(torch.from_numpy(square), 3)))


# ---- forward-mode AD ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("expr", [
    "T.vdot(a, b)", "T.addr(c, a, b, beta=0.5, alpha=2)", "T.addmv(a, m, b, alpha=3)", "T.addbmm(m, m3, n3)",
    "T.frexp(a).mantissa", "T.ldexp(a, b)", "T.nextafter(a, b)", "T.complex(a, b).real", "T.inner(m, m)",
    "T.index_copy(c, 0, T.tensor([1, 0]), m[:2])", "T.matrix_power(c[:, :3], 3)", "T.renorm(m, 2, 0, 1.0)",
    "T.renorm(m, 1.5, 1, 1.0)", "T.polar(a, b).imag", "T.gradient(m, edge_order=2)[1]",
    *[f"T.scatter_reduce(c, 0, T.tensor([[0, 1, 2], [2, 2, 0]]), m[:2], '{r}', include_self={inc})"
      for r in ("sum", "mean", "amax", "amin") for inc in (True, False)],
])
def test_forward_ad_matches_pytorch(expr):
    torch = torch_or_skip()
    outs = []
    for T in (mg, torch):
        fwad = forward_ad if T is mg else torch.autograd.forward_ad
        values = {name: T.tensor(np.random.default_rng(i).uniform(-2, 2, shape).tolist(), dtype=T.float64)
                  for i, (name, shape) in enumerate((("a", (3,)), ("b", (3,)), ("c", (3, 3)), ("m", (3, 3)),
                                                     ("m3", (2, 3, 3)), ("n3", (2, 3, 3))))}
        with fwad.dual_level():
            scope = {"T": T, **{k: fwad.make_dual(v, T.ones_like(v) * 0.5 + v) for k, v in values.items()}}
            out = eval(expr, scope)
            outs.append(np.asarray(fwad.unpack_dual(out).tangent.tolist()))
    np.testing.assert_allclose(outs[0], outs[1], rtol=1e-10, atol=1e-12)


def test_forward_ad_scatter_reduce_prod_has_no_tangent_as_in_pytorch():
    torch = torch_or_skip()
    for T, fwad in ((mg, forward_ad), (torch, torch.autograd.forward_ad)):
        with fwad.dual_level():
            x = fwad.make_dual(T.ones(2, 3), T.ones(2, 3))
            out = T.scatter_reduce(x, 0, T.tensor([[0, 1, 0]]), x[:1] * 2, "prod")
            assert fwad.unpack_dual(out).tangent is None


def test_scatter_reduce_prod_double_backward_refused_for_several_zeros_like_pytorch():
    same_as_torch("""
x = torch.tensor([1., 2.], requires_grad=True)
s = torch.tensor([0., 0., 3.], requires_grad=True)
out = torch.scatter_reduce(x, 0, torch.tensor([0, 0, 1]), s, 'prod')
gx, gs = torch.autograd.grad(out.sum(), [x, s], create_graph=True)
print(gx, gs, [type(f).__name__ for f, _ in gs.grad_fn.next_functions])
E(lambda: gs.sum().backward())
E(lambda: gx.sum().backward())
print(x.grad, s.grad)
""")


def test_addbmm_in_place_resizes_a_broadcastable_input():
    # (as PyTorch's addbmm_out(self, ..., out=self): compared with torch in test_parity_opinfo_fixes15.py)
    x = mg.ones(1, 5)
    assert x.addbmm_(mg.ones(4, 2, 3), mg.ones(4, 3, 5)) is x and x.tolist() == [[13.0] * 5] * 2   # 1 + 4·3


# ---- values worked out by hand (no PyTorch needed) --------------------------------------------------------------

def test_values_by_hand():
    t = mg.tensor
    assert mg.inner(t([1., 2., 3.]), t([4., 5., 6.])).item() == 32.0
    assert mg.vdot(t([1 + 2j, 3 - 1j]), t([2 - 1j, 1j])).item() == (1 - 2j) * (2 - 1j) + (3 + 1j) * 1j
    assert mg.addr(t([[1, 1, 1], [1, 1, 1]]), t([1, 2]), t([1, 0, -1]), beta=2, alpha=3).tolist() == \
        [[5, 2, -1], [8, 2, -4]]
    assert mg.addmv(t([1., 1.]), t([[1., 2.], [3., 4.]]), t([1., -1.]), beta=0.5).tolist() == [-0.5, -0.5]
    assert mg.addbmm(t([[0.]]), t([[[2.]], [[3.]]]), t([[[5.]], [[7.]]])).tolist() == [[31.0]]   # 2·5 + 3·7
    assert mg.matrix_power(t([[1, 1], [0, 1]]), 5).tolist() == [[1, 5], [0, 1]]
    assert mg.matrix_power(t([[2., 0.], [0., 4.]]), -2).tolist() == [[0.25, 0.0], [0.0, 0.0625]]
    assert mg.linalg.multi_dot([t([1., 2.]), t([[1., 0.], [0., 2.]]), t([3., 1.])]).item() == 7.0
    mantissa, exponent = mg.frexp(t([8.0, -0.75, 0.0]))
    assert mantissa.tolist() == [0.5, -0.75, 0.0] and exponent.tolist() == [4, 0, 0]
    assert mg.ldexp(t([3.0, 1.0]), t([2, -1])).tolist() == [12.0, 0.5]
    assert mg.gcd(t([12, -18, 0]), t([8, 12, 0])).tolist() == [4, 6, 0]
    assert mg.lcm(t([4, -6, 0]), t([6, 4, 5])).tolist() == [12, 12, 0]
    assert mg.nextafter(t([1.0]), t([2.0])).item() == float(np.nextafter(np.float32(1), np.float32(2)))
    assert mg.renorm(t([[3., 4.], [0.3, 0.4]]), 2, 0, 1.0)[1].tolist() == pytest.approx([0.3, 0.4])
    assert mg.renorm(t([[3., 4.], [0.3, 0.4]]), 2, 0, 1.0)[0].tolist() == pytest.approx([0.6, 0.8], rel=1e-6)
    assert mg.complex(t([1.]), t([2.])).item() == 1 + 2j
    assert mg.polar(t([2.], dtype=mg.float64), t([np.pi / 2], dtype=mg.float64)).item() == pytest.approx(2j)
    assert mg.gradient(t([0., 1., 4., 9., 16.]))[0].tolist() == [1.0, 2.0, 4.0, 6.0, 7.0]
    assert mg.gradient(t([0., 1., 4., 9.]), edge_order=2)[0].tolist() == [0.0, 2.0, 4.0, 6.0]
    assert mg.index_copy(mg.zeros(3), 0, t([2, 0]), t([5., 7.])).tolist() == [7.0, 0.0, 5.0]
    src, index = t([1., 2., 3., 4.]), t([0, 1, 0, 1])
    assert mg.scatter_reduce(t([10., 20.]), 0, index, src, "sum").tolist() == [14.0, 26.0]
    assert mg.scatter_reduce(t([10., 20.]), 0, index, src, "mean", include_self=False).tolist() == [2.0, 3.0]
    assert mg.scatter_reduce(t([10., 20.]), 0, index, src, "prod").tolist() == [30.0, 160.0]
    assert mg.scatter_reduce(t([10., 2.]), 0, index, src, "amax", include_self=False).tolist() == [3.0, 4.0]


def test_scatter_reduce_amax_shares_the_gradient_between_ties():
    x = mg.tensor([1., 5.], dtype=mg.float64, requires_grad=True)
    src = mg.tensor([5., 3., 5.], dtype=mg.float64, requires_grad=True)
    mg.scatter_reduce(x, 0, mg.tensor([1, 0, 1]), src, "amax").sum().backward()
    assert x.grad.tolist() == [0.0, 1 / 3] and src.grad.tolist() == [1 / 3, 1.0, 1 / 3]   # three maxima of 5
