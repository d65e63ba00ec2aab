"""Forward-mode AD parity, second pass: decompositions, tangent dtypes, levels, views and in-place, errors.

Three kinds of checks, all against PyTorch:

- ``PROGRAMS``: whole programs run through ``parity.run_both`` (``import torch`` resolving to minigrad, then to
  PyTorch); both stdouts must be identical once object addresses are masked. Programs marked "fixed:" printed
  something different before this pass.
- numeric tangent checks of ``linalg.qr``, ``linalg.svd`` / ``svd`` / ``svdvals`` and ``linalg.lstsq`` (real and
  complex, tall, wide, square, batched) against PyTorch's own tangents;
- a sweep of every case in ``tests/op_cases.py`` in forward mode: the output tangent (or the error) must be
  PyTorch's.
"""
from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from parity import requires_torch, run_both, torch_or_skip

import minigrad

sys.path.insert(0, str(Path(__file__).parent))

PROGRAMS: dict[str, str] = {}

# fixed: exit_dual_level(level=...) and make_dual/unpack_dual(level=...) raise PyTorch's errors; unpack_dual of a
# non-tensor is PyTorch's TypeError; dual_level is a _DecoratorContextManager (usable as a decorator)
PROGRAMS['levels_and_errors'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, e)
E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=0))
E(lambda: fwAD.unpack_dual(torch.ones(2), level=0))
E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=-1))
E(lambda: fwAD.make_dual(torch.ones(3), torch.ones(3)))
E(lambda: fwAD.unpack_dual(torch.ones(3)))
E(lambda: fwAD.exit_dual_level())
E(lambda: fwAD.exit_dual_level(level=-1))
E(lambda: fwAD.exit_dual_level(level=0))
E(lambda: fwAD.exit_dual_level(level=2))
with fwAD.dual_level() as lvl:
    print(lvl)
    d = fwAD.make_dual(torch.ones(2), torch.ones(2))
    E(lambda: fwAD.unpack_dual(d, level=5))
    E(lambda: fwAD.unpack_dual(d, level=0))
    E(lambda: fwAD.unpack_dual(d, level=-1))
    E(lambda: fwAD.unpack_dual(torch.ones(2), level=7))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=-1))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=1))
    E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2), level=0))
    E(lambda: fwAD.make_dual(torch.ones(2), [1., 2.]))
    E(lambda: fwAD.make_dual(torch.ones(2), None))
    E(lambda: fwAD.make_dual(torch.ones(3), torch.ones(3, dtype=torch.int64)))
    E(lambda: fwAD.make_dual(torch.ones(3, dtype=torch.int64), torch.ones(3)))
    E(lambda: fwAD.make_dual(torch.ones(3), torch.ones(2)))
    E(lambda: fwAD.make_dual(torch.ones(3), torch.ones(1, 3)))
    E(lambda: fwAD.make_dual(d, torch.ones(2)))
    E(lambda: fwAD.unpack_dual(None))
    E(lambda: fwAD.unpack_dual([1.]))
    E(lambda: fwAD.unpack_dual(3))
    E(lambda: fwAD.enter_dual_level())
    def nest():
        with fwAD.dual_level():
            pass
    E(nest)
    E(lambda: fwAD.exit_dual_level(level=-2))
E(lambda: fwAD.enter_dual_level())
E(lambda: fwAD.exit_dual_level(level=-1))
E(lambda: fwAD.exit_dual_level(level=1))
E(lambda: fwAD.exit_dual_level(level=0))
@fwAD.dual_level()
def f(x):
    return fwAD.unpack_dual(fwAD.make_dual(x, torch.ones_like(x) * 3) * 2).tangent
print(f(torch.ones(2)))
E(lambda: fwAD.make_dual(torch.ones(2), torch.ones(2)))
'''

# fixed: UnpackedDualTensor is a typing.NamedTuple with PyTorch's docstring
PROGRAMS['unpacked_dual_namedtuple'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    u = fwAD.unpack_dual(fwAD.make_dual(torch.ones(2), torch.zeros(2)))
    print(u)
    print(repr(u), u._fields, u[0], u.tangent, len(u), isinstance(u, tuple), type(u).__name__)
    p, t = u
    print(p, t)
    print(fwAD.unpack_dual(torch.ones(2)))
print(fwAD.UnpackedDualTensor(1, 2), fwAD.UnpackedDualTensor._fields)
v = fwAD.UnpackedDualTensor(primal=1, tangent=2)
print(v._asdict(), v._replace(tangent=5), v == (1, 2))
try:
    fwAD.UnpackedDualTensor(1)
except TypeError as e:
    print(e)
print(fwAD.UnpackedDualTensor.__doc__.splitlines()[0])
print(sorted(fwAD.__all__))
'''

# fixed: a tangent keeps its own dtype through ops (no cast to the output's dtype), .to()/.double()/.half()
# convert it; linear ops (add, cat, sum ...) of a tangent of another dtype than its primal compute in the
# tangents' dtype; mm-family errors name the dtypes in PyTorch's order
PROGRAMS['tangent_dtypes'] = r'''
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
def E(name, f):
    try:
        r = f()
        outs = r if isinstance(r, tuple) else (r,)
        for o in outs:
            p, t = fwAD.unpack_dual(o)
            total = None if t is None else round(t.double().sum().item(), 3) + 0.0
            print(name, p.dtype, None if t is None else t.dtype, total)
    except Exception as e:
        print(name, type(e).__name__, str(e)[:100])
for pd, td in [(torch.float32, torch.float32), (torch.float32, torch.float64), (torch.float64, torch.float32)]:
    print("==", pd, td)
    X, TX = torch.randn(3, 4, dtype=pd), torch.randn(3, 4, dtype=td)
    Y, TY = torch.randn(3, 4, dtype=pd), torch.randn(3, 4, dtype=td)
    W, TW = torch.randn(4, 5, dtype=pd), torch.randn(4, 5, dtype=td)
    with fwAD.dual_level():
        x, y, w = fwAD.make_dual(X, TX), fwAD.make_dual(Y, TY), fwAD.make_dual(W, TW)
        xp = fwAD.make_dual(X.abs() + 0.5, TX)
        E("make_dual", lambda: x)
        E("add", lambda: x + y)
        E("add_s", lambda: x + 2)
        E("sub_alpha", lambda: torch.sub(x, y, alpha=3))
        E("mixed_add", lambda: x + torch.ones(3, 4, dtype=torch.float64))
        E("mul", lambda: x * y)
        E("div", lambda: x / y)
        E("pow", lambda: xp ** 2.5)
        E("exp", lambda: x.exp())
        E("log", lambda: xp.log())
        E("tanh", lambda: x.tanh())
        E("sigmoid", lambda: x.sigmoid())
        E("abs", lambda: x.abs())
        E("sum", lambda: x.sum())
        E("sum_dim", lambda: x.sum(1, keepdim=True))
        E("mean", lambda: x.mean(0))
        E("prod", lambda: x.prod(1))
        E("var", lambda: x.var(1))
        E("norm", lambda: x.norm())
        E("cumsum", lambda: x.cumsum(1))
        E("mm", lambda: x @ w)
        E("bmm", lambda: torch.bmm(x.unsqueeze(0), w.unsqueeze(0)))
        E("addmm", lambda: torch.addmm(y[:, :1], x, w[:, :1]))
        E("dot", lambda: torch.dot(x[0], y[1]))
        E("outer", lambda: torch.outer(x[0], y[1]))
        E("softmax", lambda: x.softmax(1))
        E("log_softmax", lambda: F.log_softmax(x, 0))
        E("cat", lambda: torch.cat([x, y], 0))
        E("stack", lambda: torch.stack([x, y], 1))
        E("index", lambda: x[[0, 2], 1:3])
        E("gather", lambda: x.gather(1, torch.tensor([[0], [1], [3]])))
        E("where", lambda: torch.where(X > 0, x, y))
        E("clamp", lambda: x.clamp(-0.5, 0.5))
        E("transpose", lambda: x.t())
        E("expand", lambda: x[:1].expand(3, 4))
        E("sort", lambda: x.sort(1))
        E("ce", lambda: F.cross_entropy(x, torch.tensor([0, 3, 1])))
        E("l1", lambda: F.l1_loss(x, y, reduction="sum"))
        E("kl", lambda: F.kl_div(F.log_softmax(x, 1), Y.softmax(1), reduction="batchmean"))
        E("to64", lambda: x.to(torch.float64))
        E("to16", lambda: x.half())
        E("type_as", lambda: x.type_as(torch.ones(1, dtype=torch.float64)))
        E("toint", lambda: x.long())
        E("sum_dtype", lambda: x.sum(dtype=torch.float16))
        E("clone", lambda: x.clone())
        E("detach", lambda: x.detach())
'''

# fixed: the tangent given to make_dual is kept as is only when laid out as the primal (else a copy in the
# primal's layout); an in-place op writes the new tangent into the tangent the tensor had, so views sharing it
# (and the user's tangent) see the change, as in PyTorch
PROGRAMS['views_and_in_place'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
with fwAD.dual_level():
    x = torch.zeros(3, 4)
    t = torch.ones(3, 4)
    p = fwAD.make_dual(x, t)
    print(fwAD.unpack_dual(x).tangent, p._base is x, fwAD.unpack_dual(p).tangent is t)
    w2 = p[0]
    print(w2._base is x)
    w2.mul_(3)
    print(fwAD.unpack_dual(p).tangent, t, fwAD.unpack_dual(x).tangent)
    u = p.view(12)
    print(fwAD.unpack_dual(u).tangent)
    p.exp_()
    print(fwAD.unpack_dual(u).tangent)
    print(fwAD.unpack_dual(w2).tangent)
    y = torch.zeros(3, 4)
    py = fwAD.make_dual(y[1], torch.ones(4))
    print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(y[1]).tangent)
    py.add_(fwAD.make_dual(torch.ones(4), torch.full((4,), 2.)))
    print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(py).tangent)
    z = torch.zeros(2, 2)
    zv = z.view(4)
    pz = fwAD.make_dual(z, torch.ones(2, 2))
    print(fwAD.unpack_dual(zv).tangent, fwAD.unpack_dual(pz.view(4)).tangent)
    base = torch.zeros(3, 4)
    v = base[1:]
    v.copy_(fwAD.make_dual(torch.randn(2, 4), torch.randn(2, 4)))
    print(fwAD.unpack_dual(base).tangent, fwAD.unpack_dual(v).tangent)
    v.mul_(2)
    print(fwAD.unpack_dual(base).tangent)
    base.add_(1)
    print(fwAD.unpack_dual(v).tangent)
    q = torch.ones(3)
    q.mul_(fwAD.make_dual(torch.full((3,), 2.), torch.ones(3)))
    print(q, fwAD.unpack_dual(q).tangent)
    q2 = torch.ones(3)
    q2 += fwAD.make_dual(torch.full((3,), 2.), torch.ones(3))
    print(fwAD.unpack_dual(q2).tangent)
    lf = torch.ones(3, requires_grad=True)
    try:
        lf.add_(fwAD.make_dual(torch.ones(3), torch.ones(3)))
    except RuntimeError as e:
        print(e)
    tt = torch.ones(3)
    dd = fwAD.make_dual(torch.ones(3), tt)
    print(fwAD.unpack_dual(dd).tangent is tt)
    tt.mul_(5)
    print(fwAD.unpack_dual(dd).tangent)
    nt = torch.randn(4, 3).t()
    dn = fwAD.make_dual(torch.randn(3, 4), nt)
    print(fwAD.unpack_dual(dn).tangent.is_contiguous(), fwAD.unpack_dual(dn).tangent.stride(),
          fwAD.unpack_dual(dn).tangent is nt)
    off = torch.ones(5)[1:4]
    print(fwAD.unpack_dual(fwAD.make_dual(torch.ones(3), off)).tangent is off)
    print(fwAD.unpack_dual(dd.argmax()).tangent, fwAD.unpack_dual(dd > 0).tangent)
    print(dd.requires_grad, dd.is_leaf, dd.grad_fn)
    print(repr(dd))
    print(fwAD.unpack_dual(dd.detach()).tangent, fwAD.unpack_dual(dd.data).tangent)
    with torch.no_grad():
        print(fwAD.unpack_dual(dd * 2).tangent)
    print(fwAD.unpack_dual(torch.zeros_like(dd)).tangent, fwAD.unpack_dual(dd.new_zeros(2)).tangent)
'''

# fixed: linalg.qr, linalg.svd / torch.svd / linalg.svdvals and linalg.lstsq have tangents (PyTorch's
# linalg_qr_jvp, linalg_svd_jvp, linalg_lstsq_*_jvp); the SVD prints only what does not depend on the sign of
# the singular vectors (LAPACK builds may pick other signs)
PROGRAMS['decompositions'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
torch.set_printoptions(precision=5)
def R(t):  # (rounded, -0.0 made 0.0: the last bits of a tangent are no parity)
    if t is None:
        return None
    return (torch.view_as_real(t) if t.is_complex() else t).round(decimals=5) + 0.0
for shape in [(4, 3), (3, 4), (3, 3), (2, 4, 3)]:
    A = torch.randn(*shape, dtype=torch.float64)
    dA = torch.randn(*shape, dtype=torch.float64)
    with fwAD.dual_level():
        x = fwAD.make_dual(A, dA)
        Q, Rq = torch.linalg.qr(x)
        print(shape, "qr", R(fwAD.unpack_dual(Q).tangent), R(fwAD.unpack_dual(Rq).tangent))
        S = torch.linalg.svdvals(x)
        print("svdvals", R(fwAD.unpack_dual(S).tangent))
        U, S, Vh = torch.linalg.svd(x, full_matrices=False)
        print("svd S", R(fwAD.unpack_dual(S).tangent))
        print("svd UUᵀ", R(fwAD.unpack_dual(U @ U.mT).tangent))
        print("svd VVᵀ", R(fwAD.unpack_dual(Vh.mT @ Vh).tangent))
        print("svd U·Vh", R(fwAD.unpack_dual(U @ Vh).tangent))
        U, S, Vh = torch.linalg.svd(x)
        print("svd full", tuple(fwAD.unpack_dual(U).tangent.shape), tuple(fwAD.unpack_dual(Vh).tangent.shape))
        U, S, V = torch.svd(x)
        print("torch.svd", R(fwAD.unpack_dual(S).tangent), R(fwAD.unpack_dual(U @ V.mT).tangent))
        B = torch.randn(*shape[:-1], 2, dtype=torch.float64)
        for driver in (None, "gelsd", "gels"):
            sol = torch.linalg.lstsq(x, fwAD.make_dual(B, torch.ones_like(B)), driver=driver)
            print("lstsq", driver, [R(fwAD.unpack_dual(o).tangent) for o in sol])
with fwAD.dual_level():
    x = fwAD.make_dual(torch.eye(2, 3), torch.ones(2, 3))
    for mode in ("r", "complete"):
        try:
            torch.linalg.qr(x, mode=mode)
        except RuntimeError as e:
            print(e)
    y = fwAD.make_dual(torch.eye(3, 2), torch.ones(3, 2))
    try:
        torch.linalg.qr(y, mode="complete")
    except RuntimeError as e:
        print(e)
    print(R(fwAD.unpack_dual(torch.linalg.qr(x, mode="complete")[1]).tangent))
    b = fwAD.make_dual(torch.tensor([1., 2., 3.]), torch.tensor([0., 1., 0.]))
    A32 = torch.tensor([[2., 1.], [0., 1.], [1., 1.]])
    print(R(fwAD.unpack_dual(torch.linalg.lstsq(A32, b.unsqueeze(1)).solution).tangent))
'''

PROGRAMS['decompositions_complex'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
torch.set_printoptions(precision=5)
def R(t):  # (rounded, -0.0 made 0.0: the last bits of a tangent are no parity)
    if t is None:
        return None
    return (torch.view_as_real(t) if t.is_complex() else t).round(decimals=5) + 0.0
for shape in [(4, 3), (3, 4), (3, 3)]:
    A = torch.randn(*shape, dtype=torch.complex128)
    dA = torch.randn(*shape, dtype=torch.complex128)
    with fwAD.dual_level():
        x = fwAD.make_dual(A, dA)
        Q, Rq = torch.linalg.qr(x)
        print(shape, R(fwAD.unpack_dual(Q).tangent), R(fwAD.unpack_dual(Rq).tangent))
        print(R(fwAD.unpack_dual(torch.linalg.svdvals(x)).tangent))
        U, S, Vh = torch.linalg.svd(x, full_matrices=False)
        print(R(fwAD.unpack_dual((U * S.to(U.dtype).unsqueeze(-2)) @ Vh).tangent))
        print(R(fwAD.unpack_dual(U.abs() ** 2).tangent))
        B = torch.randn(shape[0], 2, dtype=torch.complex128)
        print([R(fwAD.unpack_dual(o).tangent) for o in torch.linalg.lstsq(x, B, driver="gelsd")[:2]])
'''

# fixed: ops PyTorch records with its NotImplemented node raise its fallback's forward-AD error (floor_divide,
# number % tensor, ldl); rounded division has a zero tangent (not none); ormqr has no forward formula in PyTorch
PROGRAMS['not_implemented_errors'] = r'''
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
def E(name, f):
    try:
        r = f()
        outs = r if isinstance(r, tuple) else (r,)
        print(name, 'ok', [fwAD.unpack_dual(o).tangent for o in outs if isinstance(o, torch.Tensor)])
    except Exception as e:
        print(name, type(e).__name__, str(e))
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([[3., -2.], [1., 4.]]), torch.tensor([[1., 2.], [3., 4.]]))
    g, tau = torch.geqrf(torch.tensor([[2., 1.], [1., 3.]]))
    E("ormqr_other", lambda: torch.ormqr(g, tau, x))
    E("ormqr_self", lambda: torch.ormqr(x, tau, torch.eye(2)))
    E("geqrf", lambda: torch.geqrf(x))
    E("custom_fn", lambda: MyFn.apply(x))
    E("floor_divide", lambda: torch.floor_divide(x, 2))
    E("floor_divide_t", lambda: torch.floor_divide(x, x))
    E("remainder_s", lambda: torch.remainder(3., x))
    E("rmod", lambda: 3 % x)
    E("ldl_solve", lambda: torch.linalg.ldl_solve(*torch.linalg.ldl_factor(torch.eye(2)), x))
    E("ldl", lambda: torch.linalg.ldl_factor(x @ x.T))
    E("div_floor", lambda: torch.div(x, 2., rounding_mode="floor"))
    E("div_trunc", lambda: torch.div(x, x, rounding_mode="trunc"))
    E("div_floor_", lambda: x.clone().div_(2., rounding_mode="floor"))
    E("cholesky", lambda: torch.cholesky(x @ x.T + torch.eye(2)))
    E("weight_norm", lambda: torch._weight_norm(x, torch.ones(2, 1), 0))
    E("multi_margin", lambda: F.multi_margin_loss(x, torch.tensor([0, 1])))
    E("index_reduce", lambda: x.index_reduce(0, torch.tensor([0, 0]), x, "prod"))
    E("igamma", lambda: torch.igamma(x.abs(), x.abs()))
    E("unique", lambda: torch.unique(x))
    E("histc", lambda: torch.histc(x))
'''

# fixed: affine_grid is linear in theta; lu_unpack has its L and U tangents; the LU of a rectangular matrix has
# a tangent (the square-only formula raised); constant padding pads the tangent with zeros; torch.fill's tangent
# is zero; eigh's eigenvector tangents had the wrong sign; sgn and the norm of complex tensors (not holomorphic)
# had wrong tangents; native_dropout has one; solve with a batch of vector right-hand sides failed
PROGRAMS['formula_fixes'] = r'''
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
torch.set_printoptions(precision=5)
def T(o):
    return fwAD.unpack_dual(o).tangent
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([[3., -2.], [1., 4.]]), torch.tensor([[1., 2.], [3., 4.]]))
    print(T(F.affine_grid(torch.cat([x, x[:, :1]], 1).unsqueeze(0), [1, 1, 2, 2], align_corners=False)))
    P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(x))
    print(T(P), T(L), T(U))
    for shape in [(4, 3), (3, 4)]:
        A = fwAD.make_dual(torch.randn(*shape, dtype=torch.float64), torch.randn(*shape, dtype=torch.float64))
        LU, piv = torch.linalg.lu_factor(A)
        print(T(LU))
        P, L, U = torch.linalg.lu(A)
        print(T(L), T(U))
        P, L, U = torch.lu_unpack(LU, piv)
        print(T(L), T(U))
    w = fwAD.make_dual(torch.randn(2, 3, dtype=torch.float64), torch.randn(2, 3, dtype=torch.float64))
    print(T(F.pad(w, (1, 2, 0, 1), value=0.5)), T(F.pad(w, (-1, 1))))
    print(T(torch.fill(w, 2.5)), T(torch.fill(w, torch.tensor(1., dtype=torch.float64))))
    S = fwAD.make_dual(torch.randn(3, 3, dtype=torch.float64), torch.randn(3, 3, dtype=torch.float64))
    L, V = torch.linalg.eigh(S + S.mT)
    print(T(L), T(V * V), T(V[:, :1] @ V[:, :1].mT))
    z = fwAD.make_dual(torch.randn(2, 3, dtype=torch.complex128), torch.randn(2, 3, dtype=torch.complex128))
    print(T(z.sgn()), T(z.norm()), T(z.abs()), T(z.angle()), T(torch.linalg.vector_norm(z, 3, dim=1)))
    print(T(torch.sgn(w)), T(torch.linalg.vector_norm(w, 1)))
    torch.manual_seed(0)
    print(T(torch.native_dropout(w, 0.4, True)[0]), T(torch.native_dropout(w, 0.4, False)[0]))
    Ab = fwAD.make_dual(torch.randn(2, 3, 3, dtype=torch.float64) + 3 * torch.eye(3, dtype=torch.float64),
                        torch.randn(2, 3, 3, dtype=torch.float64))
    b = fwAD.make_dual(torch.randn(3, dtype=torch.float64), torch.randn(3, dtype=torch.float64))
    print(T(torch.linalg.solve(Ab, b)), T(torch.linalg.solve(Ab, b.expand(2, 3))))
    print(T(torch.linalg.solve(Ab[0], torch.randn(3, 2, dtype=torch.float64))))
    print(T(torch.linalg.solve(Ab, torch.randn(2, 3, 3, dtype=torch.float64), left=False)))
    # (the float32 unit-triangular solve stays float32; + 0.0: LAPACK's trsm keeps a -0.0 that NumPy's solve does not)
    print(T(torch.linalg.solve_triangular(x, torch.ones(2, 3), upper=False, unitriangular=True)) + 0.0)
'''

# double AD: backward through a tangent, tangents that require grad, forward-over-reverse, torch.func
PROGRAMS['forward_and_reverse'] = r'''
import torch
import torch.nn as nn
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, jacfwd, jacrev, hessian
torch.manual_seed(0)
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
x = torch.randn(3, requires_grad=True)
v = torch.randn(3, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(x, v)
    print(d.grad_fn, d.requires_grad, d.is_leaf)
    y = d.tanh()
    print(y.grad_fn, y.grad_fn.next_functions)
    p, t = fwAD.unpack_dual(y)
    print(p.grad_fn.name(), p.grad_fn.next_functions)
    print(t.grad_fn, t.grad_fn.next_functions)
    gx, gv = torch.autograd.grad(t.sum(), (x, v), create_graph=True)
    print(gx, gv, gx.grad_fn, gv.grad_fn)
    print(torch.autograd.grad(p.sum(), x))
    print(fwAD.unpack_dual(t).tangent)
    z = d * d
    print(fwAD.unpack_dual(z.grad_fn._saved_self).tangent)
    z.sum().backward()
print(x.grad)
tt = torch.randn(3, requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.randn(3), tt)
    t = fwAD.unpack_dual(d.exp().sum()).tangent
    print(t.requires_grad, type(t.grad_fn).__name__)
    t.backward()
    print(fwAD.unpack_dual(d.prod()).tangent.grad_fn, fwAD.unpack_dual(d.max()).tangent.grad_fn)
print(tt.grad)
x = torch.randn(4, requires_grad=True)
def f(x): return (x.sin() * x).sum()
with fwAD.dual_level():
    xd = fwAD.make_dual(x.detach().requires_grad_(), torch.ones(4))
    g, = torch.autograd.grad(f(xd), xd, create_graph=True)
    print(fwAD.unpack_dual(g).tangent)
print(torch.autograd.functional.hvp(f, x.detach(), torch.ones(4)))
print(torch.autograd.functional.jvp(f, x.detach(), torch.ones(4)))
def h(x): return (x ** 3).sum() + (x[0] * x[1])
x = torch.randn(3, dtype=torch.float64)
print(jvp(torch.func.grad(h), (x,), (torch.ones(3, dtype=torch.float64),)))
print(jacfwd(h)(x), jacrev(h)(x), hessian(h)(x))
print(jacfwd(lambda a, b: a * b, argnums=(0, 1))(x, x))
print(jvp(lambda a: (a.sin(), a.cos()), (x,), (torch.ones(3, dtype=torch.float64),)))
E(lambda: jvp(torch.sin, (x,), (torch.ones(2, dtype=torch.float64),)))
E(lambda: jvp(torch.sin, (x,), (torch.ones(3),)))
M = torch.tensor([[2., 1.], [0., 1.]], dtype=torch.float64)
print(jacfwd(torch.linalg.svdvals)(M), jacrev(torch.linalg.svdvals)(M))
print(jacfwd(lambda a: torch.linalg.qr(a)[1])(M), jacrev(lambda a: torch.linalg.qr(a)[1])(M))
A3 = torch.tensor([[2., 1.], [0., 1.], [1., 1.]], dtype=torch.float64)
b3 = torch.tensor([1., 2., 3.], dtype=torch.float64)
J = jacfwd(lambda a, b: torch.linalg.lstsq(a, b.unsqueeze(-1)).solution, argnums=(0, 1))(A3, b3)
print([j.round(decimals=6) + 0.0 for j in J])
m = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
params = {k: p.detach() for k, p in m.named_parameters()}
inp = torch.randn(5, 3)
with fwAD.dual_level():
    dual_params = {k: fwAD.make_dual(p, torch.ones_like(p)) for k, p in params.items()}
    print(fwAD.unpack_dual(torch.func.functional_call(m, dual_params, (inp,))).tangent)
    di = fwAD.make_dual(inp, torch.ones(5, 3))
    bn = nn.BatchNorm1d(3)
    o = bn(di)
    print(bool(fwAD.unpack_dual(o).tangent.abs().sum() < 1e-5), bn.running_mean)
    print(fwAD.unpack_dual(bn.running_mean).tangent)
    conv = nn.Conv2d(1, 2, 2)
    print(fwAD.unpack_dual(conv(fwAD.make_dual(torch.randn(1, 1, 3, 3), torch.ones(1, 1, 3, 3)))).tangent)
    print(fwAD.unpack_dual(F.cross_entropy(m(di), torch.tensor([0, 1, 0, 1, 1]))).tangent)
    print(fwAD.unpack_dual(F.mse_loss(m(di), torch.zeros(5, 2))).tangent.detach())
    print(fwAD.unpack_dual(nn.Embedding(4, 2)(torch.tensor([1, 2]))).tangent)
    E(lambda: fwAD.unpack_dual(nn.LSTM(3, 2)(di.unsqueeze(1))[0]).tangent)
    print(fwAD.unpack_dual(nn.MultiheadAttention(3, 1)(di.unsqueeze(1), di.unsqueeze(1), di.unsqueeze(1))[0]).tangent)
'''

# fixed: an out= function with a dual argument raises PyTorch's "is an out= function" error (naming the kernel:
# dot_out, mv_out, mm_out, bmm_out ...); inference mode computes no tangent; a complex tangent of a real
# primal keeps its real part through an elementwise op (exp) and stays complex through add
PROGRAMS['functions_out_and_modes'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
class Mul2(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        ctx.save_for_forward(x, y)
        return x * y
    @staticmethod
    def jvp(ctx, xt, yt):
        x, y = ctx.saved_tensors
        return xt * y + x * yt
    @staticmethod
    def backward(ctx, g):
        return g, g
class Bad(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3
    @staticmethod
    def jvp(ctx, xt):
        return xt * 2
class SetupCtx(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return x.exp()
    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_forward(output)
    @staticmethod
    def jvp(ctx, xt):
        out, = ctx.saved_tensors
        return xt * out
class InPlace(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.mark_dirty(x)
        return x.mul_(2)
    @staticmethod
    def jvp(ctx, xt):
        return xt.mul_(2)
class WrongShape(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.sum()
    @staticmethod
    def jvp(ctx, xt):
        return xt
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 0.]))
    y = fwAD.make_dual(torch.tensor([3., 4.]), torch.tensor([0., 1.]))
    print(fwAD.unpack_dual(Mul2.apply(x, y)).tangent, fwAD.unpack_dual(Mul2.apply(x, torch.tensor([5., 6.]))).tangent)
    E(lambda: Bad.apply(x))
    print(fwAD.unpack_dual(SetupCtx.apply(x)).tangent)
    z = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1., 1.]))
    r = InPlace.apply(z)
    print(r is z, r, fwAD.unpack_dual(z).tangent)
    E(lambda: WrongShape.apply(x))
    out = torch.empty(2)
    E(lambda: torch.add(x, y, out=out))
    print(fwAD.unpack_dual(out).tangent)
    E(lambda: torch.add(torch.ones(2), torch.ones(2), out=fwAD.make_dual(torch.zeros(2), torch.ones(2))))
    E(lambda: torch.add(x, torch.ones(2, requires_grad=True), out=torch.empty(2)))
    E(lambda: torch.mul(x, 2, out=torch.empty(2)))
    E(lambda: torch.div(x, 2, out=torch.empty(2)))
    E(lambda: torch.exp(x, out=torch.empty(2)))
    E(lambda: torch.log(x, out=torch.empty(0)))
    E(lambda: torch.cat([x, x], out=torch.empty(4)))
    E(lambda: torch.stack([x, x], out=torch.empty(0)))
    E(lambda: torch.sub(x, x, out=torch.empty(0)))
    for a, b in [((2,), (2,)), ((3, 2), (2,)), ((2,), (2, 3)), ((3, 2), (2, 3)), ((4, 3, 2), (4, 2, 3)),
                 ((4, 3, 2), (2, 3)), ((3, 2), (4, 2, 3))]:
        m = fwAD.make_dual(torch.ones(a), torch.ones(a))
        E(lambda: torch.matmul(m, torch.ones(b), out=torch.empty(0)))
    E(lambda: torch.tensordot(m, torch.ones(3, 3), 1, out=torch.empty(0)))
    c = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([1 + 1j, 2j]))
    E(lambda: fwAD.unpack_dual(c.exp()).tangent)
    E(lambda: fwAD.unpack_dual(c + x).tangent)
    with torch.inference_mode():
        E(lambda: fwAD.unpack_dual(x * 2).tangent)
    with torch.no_grad():
        E(lambda: fwAD.unpack_dual(x.exp()).tangent)
    w = fwAD.make_dual(torch.ones(2, requires_grad=True), torch.ones(2))
    print(w.requires_grad, type(w.grad_fn).__name__)
    E(lambda: w.detach_())
    q = fwAD.make_dual(torch.ones(2), torch.ones(2))
    E(lambda: q.requires_grad_())
    print(q.requires_grad, fwAD.unpack_dual(q).tangent)
    E(lambda: x.numpy())
    E(lambda: x.tolist())
    E(lambda: float(x[0]))
    print(fwAD.unpack_dual(torch.as_tensor(x)).tangent, fwAD.unpack_dual(x.new_tensor([1., 2.])).tangent)
    print(fwAD.unpack_dual(x.unsqueeze(0).expand(3, 2).sum(0)).tangent)
    print(fwAD.unpack_dual(torch.where(x > 1, x, 0.)).tangent)
    print(fwAD.unpack_dual(x.copy_(y)).tangent, fwAD.unpack_dual(x).tangent)
    xx = fwAD.make_dual(torch.ones(3), torch.arange(3.))
    xx[0] = fwAD.make_dual(torch.tensor(5.), torch.tensor(9.))
    print(fwAD.unpack_dual(xx).tangent)
    xx[1:] = 7.
    print(fwAD.unpack_dual(xx).tangent)
    xx.zero_()
    print(fwAD.unpack_dual(xx).tangent)
    yy = torch.ones(3)
    yy[torch.tensor([0, 2])] = fwAD.make_dual(torch.ones(2), torch.full((2,), 4.))
    print(fwAD.unpack_dual(yy).tangent)
'''

# PyTorch's forward-mode AD tutorial (forward_ad_usage), with gradcheck(check_forward_ad=True) on the new formulas
PROGRAMS['forward_ad_tutorial'] = r'''
import torch
import torch.nn as nn
import torch.autograd.forward_ad as fwAD
from torch.func import functional_call
torch.manual_seed(0)
primal = torch.randn(10, 10)
tangent = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y ** 2
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    assert fwAD.unpack_dual(dual_input).tangent is tangent
    dual_input_alt = fwAD.make_dual(primal, tangent.T)
    assert fwAD.unpack_dual(dual_input_alt).tangent is not tangent
    plain_tensor = torch.randn(10, 10)
    dual_output = fn(dual_input, plain_tensor)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp[0, :3])
assert fwAD.unpack_dual(dual_output).tangent is None
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
params = {name: p for name, p in model.named_parameters()}
tangents = {name: torch.rand_like(p) for name, p in params.items()}
with fwAD.dual_level():
    for name, p in params.items():
        delattr(model, name)
        setattr(model, name, fwAD.make_dual(p, tangents[name]))
    out = model(input)
    jvp = fwAD.unpack_dual(out).tangent
    print(jvp[0])
    print(model.weight.__class__, model)
model = nn.Linear(5, 5)
params = {name: p for name, p in model.named_parameters()}
with fwAD.dual_level():
    dual_params = {}
    for name, p in params.items():
        dual_params[name] = fwAD.make_dual(p, tangents[name])
    out = functional_call(model, dual_params, input)
    jvp2 = fwAD.unpack_dual(out).tangent
    print(jvp2[0])
class Fn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, foo):
        result = torch.exp(foo)
        ctx.result = result
        return result
    @staticmethod
    def jvp(ctx, gI):
        gO = gI * ctx.result
        del ctx.result
        return gO
fn = Fn.apply
primal = torch.randn(10, 10, dtype=torch.double, requires_grad=True)
tangent = torch.randn(10, 10)
with fwAD.dual_level():
    dual_input = fwAD.make_dual(primal, tangent)
    dual_output = fn(dual_input)
    jvp = fwAD.unpack_dual(dual_output).tangent
    print(jvp.dtype, jvp[0, :3])
print(torch.autograd.gradcheck(Fn.apply, (primal,), check_forward_ad=True,
                         check_backward_ad=False, check_undefined_grad=False, check_batched_grad=False))
primal0 = torch.randn(10, 10)
tangent0 = torch.randn(10, 10)
primal1 = torch.randn(10, 10)
tangent1 = torch.randn(10, 10)
def fn(x, y):
    return x ** 2 + y ** 2
primal_out, tangent_out = torch.func.jvp(fn, (primal0, primal1), (tangent0, tangent1))
print(tangent_out[0, :3])
model = nn.Linear(5, 5)
input = torch.randn(16, 5)
tangents = tuple([torch.rand_like(p) for p in model.parameters()])
params = dict(model.named_parameters())
def func(params, input):
    return functional_call(model, params, input)
_, jvp_out = torch.func.jvp(lambda *p: func(dict(zip(params.keys(), p)), input), tuple(params.values()), tangents)
print(jvp_out[0])
def D(*shape):
    return torch.randn(*shape, dtype=torch.double, requires_grad=True)
check = torch.autograd.gradcheck
print(check(lambda x: x.sin() * 2, (D(3),), check_forward_ad=True))
print(check(lambda x: torch.linalg.svdvals(x), (D(3, 2),), check_forward_ad=True))
print(check(lambda x: torch.linalg.qr(x), (D(3, 2),), check_forward_ad=True))
print(check(lambda x, b: torch.linalg.lstsq(x, b).solution, (D(3, 2), D(3, 2)), check_forward_ad=True))
print(torch.autograd.gradgradcheck(lambda x: x.sin() * 2, (D(3),), check_fwd_over_rev=True))
print(torch.autograd.gradgradcheck(lambda x: x.sin() * 2, (D(3),), check_rev_over_rev=True, check_fwd_over_rev=False))
'''

# fixed: the tangents of complex reductions (prod, logsumexp) missed the conjugation of the backward formula
# (z.conj() is left out: PyTorch's tangent is a lazily conjugated view, a bit minigrad does not model)
PROGRAMS['complex_tangents'] = r'''
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
torch.set_printoptions(precision=5)
def E(name, f):
    try:
        r = f()
        outs = r if isinstance(r, tuple) else (r,)
        for o in outs:
            t = fwAD.unpack_dual(o).tangent
            shown = None if t is None else (torch.view_as_real(t) if t.is_complex() else t).round(decimals=5) + 0.0
            print(name, None if t is None else t.dtype, shown)
    except Exception as e:
        print(name, type(e).__name__, str(e)[:150])
Z = torch.randn(2, 3, dtype=torch.complex128)
W = torch.randn(2, 3, dtype=torch.complex128)
with fwAD.dual_level():
    z = fwAD.make_dual(Z, torch.randn(2, 3, dtype=torch.complex128))
    w = fwAD.make_dual(W, torch.randn(2, 3, dtype=torch.complex128))
    z2, w2 = z[:, :2], w[:, :2]
    cases = {
        "abs": lambda: z.abs(), "angle": lambda: z.angle(), "real": lambda: z.real, "imag": lambda: z.imag,
        "conj_physical": lambda: z.conj_physical(), "exp": lambda: z.exp(), "log": lambda: z.log(),
        "sqrt": lambda: z.sqrt(), "rsqrt": lambda: z.rsqrt(), "sin": lambda: z.sin(), "tanh": lambda: z.tanh(),
        "sigmoid": lambda: z.sigmoid(), "reciprocal": lambda: z.reciprocal(), "pow": lambda: z ** 2.5,
        "powz": lambda: z ** w, "mul": lambda: z * w, "div": lambda: z / w, "sum": lambda: z.sum(),
        "mean": lambda: z.mean(1), "prod": lambda: z.prod(1), "var": lambda: z.var(1), "std": lambda: z.std(),
        "norm": lambda: z.norm(dim=1), "vnorm1": lambda: torch.linalg.vector_norm(z, 1),
        "vnorm_inf": lambda: torch.linalg.vector_norm(z, float('inf')), "mnorm": lambda: torch.linalg.matrix_norm(z),
        "cumsum": lambda: z.cumsum(1), "cumprod": lambda: z.cumprod(1), "mm": lambda: z @ w.mT,
        "vdot": lambda: torch.vdot(z[0], w[0]), "det": lambda: torch.linalg.det(z2),
        "inv": lambda: torch.linalg.inv(z2),
        "view_as_real": lambda: torch.view_as_real(z), "polar": lambda: torch.polar(z.abs(), z.angle()),
        "complex": lambda: torch.complex(z.real, w.imag), "abs2": lambda: (z * z.conj()).real,
        "mse": lambda: F.mse_loss(z.real, w.real), "softmax_real": lambda: z.real.softmax(1),
        "logsumexp": lambda: z.logsumexp(1), "sgn": lambda: z.sgn(), "expm1": lambda: z.expm1(),
        "log1p": lambda: z.log1p(), "acos": lambda: z.acos(), "atanh": lambda: z.atanh(), "square": lambda: z.square(),
        "where": lambda: torch.where(Z.real > 0, z, w), "masked_fill": lambda: z.masked_fill(Z.real > 0, 1j),
        "cat": lambda: torch.cat([z, w]), "fft": lambda: torch.fft.fft(z), "ifft": lambda: torch.fft.ifft(z),
        "irfft": lambda: torch.fft.irfft(z), "rfft": lambda: torch.fft.rfft(z.real),
        "addcmul": lambda: torch.addcmul(z, z, w), "lerp": lambda: torch.lerp(z, w, 0.3), "trace": lambda: z2.trace(),
        "kron": lambda: torch.kron(z, w), "eigvals": lambda: torch.linalg.eigvals(z2),
        "slogdet": lambda: torch.linalg.slogdet(z2), "pinv": lambda: torch.linalg.pinv(z),
        "svdvals": lambda: torch.linalg.svdvals(z),
        "cholesky": lambda: torch.linalg.cholesky(z2 @ z2.mH + torch.eye(2)),
        "solve": lambda: torch.linalg.solve(z2, w2), "matrix_exp": lambda: torch.linalg.matrix_exp(z2),
        "isclose": lambda: z.isclose(w), "tensordot": lambda: torch.tensordot(z, w, ([1], [1])),
    }
    for name, f in cases.items():
        E(name, f)
'''

# fixed: torch.func.jvp / jacfwd inside a dual_level the user opened is PyTorch's nesting error (a jvp nested in
# another func.jvp still works); broadcasting of 0-dim and expanded duals
PROGRAMS['func_inside_dual_level'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
from torch.func import jvp, jacfwd, vmap, grad
def E(f):
    try:
        print('ok', f())
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
x = torch.tensor([1., 2.])
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(2))
    E(lambda: jvp(torch.sin, (x,), (torch.ones(2),)))
    E(lambda: jvp(torch.sin, (d,), (torch.ones(2),)))
    E(lambda: jacfwd(torch.sin)(x))
    E(lambda: fwAD.unpack_dual(jacfwd(torch.sin)(d)).tangent)
    E(lambda: fwAD.unpack_dual(grad(lambda a: a.sin().sum())(d)).tangent)
    E(lambda: fwAD.unpack_dual(vmap(torch.sin)(d)).tangent)
def inner(a):
    with fwAD.dual_level():
        return fwAD.unpack_dual(fwAD.make_dual(a, torch.ones_like(a)).exp()).tangent
E(lambda: jvp(inner, (x,), (torch.ones(2),)))
E(lambda: grad(lambda a: inner(a).sum())(x))
print(jvp(lambda a: jvp(torch.sin, (a,), (torch.ones(2),))[1], (x,), (torch.ones(2),)))
with fwAD.dual_level():
    s = fwAD.make_dual(torch.tensor(2.), torch.tensor(1.))
    print(fwAD.unpack_dual(s * torch.ones(3)).tangent, fwAD.unpack_dual(torch.ones(2, 3) + s).tangent)
    c = fwAD.make_dual(torch.ones(3, 1), torch.arange(3.).reshape(3, 1))
    print(fwAD.unpack_dual(c * torch.ones(1, 4)).tangent)
    print(fwAD.unpack_dual(c.expand(3, 4).sum(1)).tangent)
    e = fwAD.make_dual(torch.ones(3), torch.ones(1).expand(3))
    print(fwAD.unpack_dual(e).tangent.stride())
    e.mul_(2)
    print(fwAD.unpack_dual(e).tangent)
'''

# backward through the tangents of the new decomposition formulas (reverse over forward)
PROGRAMS['backward_through_decomposition_tangents'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
torch.set_printoptions(precision=6)
A = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
V = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
B = torch.randn(4, 2, dtype=torch.float64, requires_grad=True)
for name, f in [("svdvals", lambda x: torch.linalg.svdvals(x)), ("qrR", lambda x: torch.linalg.qr(x)[1]),
                ("qrQQ", lambda x: (lambda Q: Q @ Q.mT)(torch.linalg.qr(x)[0])),
                ("svdUV", lambda x: (lambda r: r.U @ r.Vh)(torch.linalg.svd(x, full_matrices=False))),
                ("lstsq", lambda x: torch.linalg.lstsq(x, B).solution),
                ("lstsq_gelsd", lambda x: torch.linalg.lstsq(x, B, driver="gelsd").residuals)]:
    A.grad = V.grad = B.grad = None
    with fwAD.dual_level():
        t = fwAD.unpack_dual(f(fwAD.make_dual(A, V))).tangent
        (t * t).sum().backward()
    print(name, A.grad, V.grad, B.grad)
'''

# torch.func: jvp / linearize / jacfwd argument handling and jacobians through the decompositions
PROGRAMS['func_apis'] = r'''
import torch
from torch.func import jvp, jacfwd, linearize, vmap, hessian, jacrev
torch.manual_seed(0)
def E(f):
    try:
        r = f()
        print('ok', r)
    except Exception as e:
        print(type(e).__name__, str(e)[:300])
x = torch.randn(3, dtype=torch.float64)
t = torch.ones(3, dtype=torch.float64)
E(lambda: jvp(lambda a: (a.sin(), {'k': a * 2}), (x,), (t,), has_aux=True))
E(lambda: jvp(lambda a: a.sin(), [x], [t]))
E(lambda: jvp(lambda a: a.sin(), (x,), [t]))
E(lambda: jvp(lambda a: 3.0, (x,), (t,)))
E(lambda: jvp(lambda a: [a, a * 2], (x,), (t,)))
E(lambda: jvp(lambda a, b: a * b, (x, x), (t,)))
E(lambda: jvp(lambda a: a.sum(), (x.int(),), (t.int(),)))
E(lambda: jvp(lambda a: a.sin(), (), ()))
out, fn = linearize(lambda a: a.sin() * a, x)
print(out, fn(t), fn(2 * t))
E(lambda: jacfwd(lambda a: torch.linalg.qr(a.reshape(3, 1) * torch.ones(1, 2, dtype=a.dtype)
                                  + torch.eye(3, 2, dtype=a.dtype))[0])(x).shape)
E(lambda: jacfwd(lambda a: torch.linalg.det(torch.diag(a)))(x))
E(lambda: jacfwd(lambda a: torch.linalg.eigvalsh(torch.diag(a) + 1))(x))
E(lambda: jacfwd(lambda a: torch.linalg.matrix_exp(torch.diag(a)))(x).shape)
E(lambda: jacfwd(lambda a: torch.nn.functional.softmax(a, 0))(x))
E(lambda: jacfwd(lambda a: torch.nn.functional.layer_norm(a, (3,)))(x))
E(lambda: jacfwd(lambda a: a.max())(x))
E(lambda: jacfwd(lambda a: a.sort().values)(x))
E(lambda: jacfwd(lambda a: torch.cumsum(a, 0))(x))
E(lambda: jacfwd(lambda a: a.bernoulli())(x.sigmoid()))
E(lambda: jacfwd(lambda a: a[a > 0])(x))
E(lambda: jacfwd(lambda a: a.item())(x[:1]))
E(lambda: vmap(lambda v: jvp(torch.sin, (x,), (v,))[1])(torch.eye(3, dtype=torch.float64)))
E(lambda: hessian(lambda a: torch.linalg.svdvals(a.reshape(1, 3)).sum())(x))
E(lambda: jacfwd(jacrev(lambda a: (a ** 3).sum()))(x))
E(lambda: jacrev(jacfwd(lambda a: (a ** 3).sum()))(x))
'''

# fixed: resize_ of a tensor with a tangent is PyTorch's error; in-place ops (and in-place view ops) on duals
PROGRAMS['in_place_ops_on_duals'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
def E(name, f):
    with fwAD.dual_level():
        x = fwAD.make_dual(torch.tensor([[1., -2., 3.], [0.5, 4., -1.]]), torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
        y = fwAD.make_dual(torch.tensor([[2., 1., 0.], [1., 1., 1.]]), torch.tensor([[0., 1., 0.], [1., 0., 1.]]))
        try:
            r = f(x, y)
            print(name, r is x, fwAD.unpack_dual(x).tangent, tuple(x.shape))
        except Exception as e:
            print(name, type(e).__name__, str(e)[:200])
E("clamp_", lambda x, y: x.clamp_(-1, 1))
E("relu_", lambda x, y: x.relu_())
E("sigmoid_", lambda x, y: x.sigmoid_())
E("addcmul_", lambda x, y: x.addcmul_(y, y, value=2))
E("index_add_", lambda x, y: x.index_add_(1, torch.tensor([0, 2]), y[:, :2]))
E("masked_fill_", lambda x, y: x.masked_fill_(torch.tensor([[True, False, True], [False, False, True]]), 0.))
E("scatter_", lambda x, y: x.scatter_(1, torch.tensor([[0], [2]]), y[:, :1]))
E("t_", lambda x, y: x.t_())
E("unsqueeze_", lambda x, y: x.unsqueeze_(0))
E("transpose_", lambda x, y: x.transpose_(0, 1))
E("squeeze_", lambda x, y: x.unsqueeze(0).squeeze_(0))
E("resize_", lambda x, y: x.resize_(3, 2))
E("pow_", lambda x, y: x.pow_(2))
E("div_", lambda x, y: x.div_(y + 1))
E("lerp_", lambda x, y: x.lerp_(y, 0.5))
E("copy_bcast", lambda x, y: x.copy_(y[0]))
E("fill_", lambda x, y: x.fill_(3.))
E("zero_", lambda x, y: x.zero_())
E("normal_", lambda x, y: x.normal_())
E("uniform_", lambda x, y: x.uniform_())
E("exponential_", lambda x, y: x.exponential_())
E("setitem_bool", lambda x, y: x.__setitem__(x > 0, 0.))
E("setitem_dual", lambda x, y: x.__setitem__((slice(None), 0), y[:, 1]))
E("index_put_", lambda x, y: x.index_put_((torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor([9., 8.])))
E("cumsum_", lambda x, y: x.cumsum_(1))
E("mul_scalar_tensor", lambda x, y: x.mul_(torch.tensor(2.)))
E("add_alpha", lambda x, y: x.add_(y, alpha=-2))
E("sub_rev", lambda x, y: y.sub_(x))
E("floor_", lambda x, y: x.floor_())
E("sign_", lambda x, y: x.sign_())
E("abs_", lambda x, y: x.abs_())
E("as_strided_", lambda x, y: x.as_strided_((3,), (2,)))
E("detach_", lambda x, y: x.detach_())
E("requires_grad_", lambda x, y: x.requires_grad_())
'''

# fixed: PyTorch's private forward-grad mode (_is_fwd_grad_enabled / _set_fwd_grad_enabled) existed not
PROGRAMS['fwd_grad_mode'] = r'''
import torch
import torch.autograd.forward_ad as fwAD
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def jvp(ctx, t):
        return t * 2
print(fwAD._is_fwd_grad_enabled())
with fwAD.dual_level():
    x = fwAD.make_dual(torch.ones(2), torch.ones(2))
    with fwAD._set_fwd_grad_enabled(False):
        print(fwAD._is_fwd_grad_enabled())
        print(fwAD.unpack_dual(x * 2).tangent, fwAD.unpack_dual(F.apply(x)).tangent)
        y = fwAD.make_dual(torch.ones(2), torch.ones(2))
        print(fwAD.unpack_dual(y).tangent, fwAD.unpack_dual(x).tangent)
    print(fwAD._is_fwd_grad_enabled(), fwAD.unpack_dual(x * 2).tangent, fwAD.unpack_dual(F.apply(x)).tangent)
    @fwAD._set_fwd_grad_enabled(False)
    def f(a):
        return fwAD.unpack_dual(a.exp()).tangent
    print(fwAD._is_fwd_grad_enabled())
    fwAD._set_fwd_grad_enabled(True)
    try:
        f(x)
    except TypeError as e:
        print(e)
'''

# tangents through common ops and nn.functional layers (one dtype: every value must be PyTorch's)
PROGRAMS['common_ops'] = r'''
import torch
import torch.nn.functional as F
import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
def E(name, f):
    try:
        r = f()
        outs = r if isinstance(r, tuple) else (r,)
        for o in outs:
            print(name, fwAD.unpack_dual(o).tangent)
    except Exception as e:
        print(name, type(e).__name__, str(e)[:200])
X = torch.randn(3, 4)
Y = torch.randn(3, 4)
W = torch.randn(4, 5)
with fwAD.dual_level():
    x = fwAD.make_dual(X, torch.randn(3, 4))
    y = fwAD.make_dual(Y, torch.randn(3, 4))
    w = fwAD.make_dual(W, torch.randn(4, 5))
    xp = fwAD.make_dual(X.abs() + 0.5, torch.randn(3, 4))
    E("rdiv", lambda: 2 / xp)
    E("rpow", lambda: 2 ** x)
    E("powt", lambda: xp ** y)
    E("sqrt", lambda: xp.sqrt())
    E("rsqrt", lambda: xp.rsqrt())
    E("relu", lambda: F.relu(x))
    E("gelu", lambda: F.gelu(x))
    E("gelu_tanh", lambda: F.gelu(x, approximate="tanh"))
    E("silu", lambda: F.silu(x))
    E("softplus", lambda: F.softplus(x))
    E("elu", lambda: F.elu(x))
    E("leaky", lambda: F.leaky_relu(x, 0.1))
    E("hardtanh", lambda: F.hardtanh(x))
    E("logsigmoid", lambda: F.logsigmoid(x))
    E("std", lambda: x.std())
    E("max", lambda: x.max())
    E("max_dim", lambda: x.max(1))
    E("min_dim", lambda: x.min(0, keepdim=True))
    E("amax", lambda: x.amax(1))
    E("logsumexp", lambda: x.logsumexp(1))
    E("norm_dim", lambda: torch.linalg.vector_norm(x, 3, dim=1))
    E("mat_norm", lambda: torch.linalg.matrix_norm(x))
    E("cumprod", lambda: x.cumprod(1))
    E("matmul_vec", lambda: x @ w[:, 0])
    E("einsum", lambda: torch.einsum("ij,jk->ik", x, w))
    E("scatter", lambda: x.scatter(1, torch.tensor([[0], [1], [3]]), y[:, :1]))
    E("index_select", lambda: x.index_select(1, torch.tensor([3, 0])))
    E("clamp_t", lambda: x.clamp(min=y))
    E("maximum", lambda: torch.maximum(x, y))
    E("reshape", lambda: x.reshape(2, 6))
    E("flip", lambda: x.flip(0))
    E("roll", lambda: x.roll(1, 1))
    E("tril", lambda: x.tril())
    E("diag", lambda: x.diagonal())
    E("topk", lambda: x.topk(2))
    E("masked_fill", lambda: x.masked_fill(X > 0, 0.))
    E("lerp", lambda: torch.lerp(x, y, 0.3))
    E("atan2", lambda: torch.atan2(x, y))
    E("hypot", lambda: torch.hypot(x, y))
    E("linear", lambda: F.linear(x, w.t(), torch.ones(5)))
    E("mse", lambda: F.mse_loss(x, y))
    E("smooth_l1", lambda: F.smooth_l1_loss(x, y))
    E("ce_prob", lambda: F.cross_entropy(x, y.softmax(1)))
    E("nll", lambda: F.nll_loss(F.log_softmax(x, 1), torch.tensor([0, 3, 1])))
    E("bce", lambda: F.binary_cross_entropy(x.sigmoid(), Y.sigmoid()))
    E("bce_logits", lambda: F.binary_cross_entropy_with_logits(x, Y.sigmoid()))
    E("layer_norm_w", lambda: F.layer_norm(x, (4,), w[:, 0], w[:, 1]))
    E("group_norm", lambda: F.group_norm(fwAD.make_dual(torch.randn(2, 6, 3), torch.randn(2, 6, 3)), 3))
    E("instance_norm", lambda: F.instance_norm(fwAD.make_dual(torch.randn(2, 3, 5), torch.randn(2, 3, 5))))
    E("batch_norm", lambda: F.batch_norm(x, None, None, training=True))
    E("batch_norm_eval", lambda: F.batch_norm(x, torch.zeros(4), torch.ones(4)))
    E("dropout_eval", lambda: F.dropout(x, 0.5, training=False))
    E("normalize", lambda: F.normalize(x, dim=1))
    E("cos_sim", lambda: F.cosine_similarity(x, y))
    E("conv1d", lambda: F.conv1d(x.unsqueeze(0), w[:3, :2].unsqueeze(1).repeat(1, 3, 1)))
    E("conv2d", lambda: F.conv2d(x.reshape(1, 1, 3, 4), w[:2, :2].reshape(1, 1, 2, 2), padding=1))
    E("max_pool", lambda: F.max_pool2d(x.reshape(1, 1, 3, 4), 2))
    E("avg_pool", lambda: F.avg_pool2d(x.reshape(1, 1, 3, 4), 2))
    E("embedding", lambda: F.embedding(torch.tensor([1, 0]), x))
    E("interp", lambda: F.interpolate(x.reshape(1, 3, 4), scale_factor=2, mode="linear"))
    E("softmin", lambda: F.softmin(x, 1))
    E("erf", lambda: x.erf())
    E("round", lambda: x.round())
    E("trace", lambda: x[:, :3].trace())
    E("det", lambda: torch.linalg.det(x[:, :3]))
    E("inv", lambda: torch.linalg.inv(x[:, :3]))
    E("masked_select", lambda: x.masked_select(X > 0))
    E("repeat", lambda: x.repeat(2, 1))
    E("unbind", lambda: x.unbind(0))
    E("split", lambda: x.split(2, 1))
    E("softmax_dtype", lambda: x.softmax(1, dtype=torch.float64))
    E("mean_dtype", lambda: x.mean(dtype=torch.float64))
'''


def _mask(text: str) -> str:
    return re.sub(r"0x[0-9a-fA-F]+", "0xADDR", text)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)


# ---- numeric tangents of the decompositions against PyTorch's ----------------------------------------------

def _tangents(lib, f, *pairs):
    """f's outputs' (primal, tangent) as arrays, the inputs made dual from (value, tangent) array pairs."""
    F = lib.autograd.forward_ad
    with F.dual_level():
        out = f(lib, *[F.make_dual(lib.from_numpy(a.copy()), lib.from_numpy(t.copy())) for a, t in pairs])
        outs = out if isinstance(out, tuple) else (out,)
        result = []
        for o in outs:
            p, t = F.unpack_dual(o)
            result.append((p.detach().numpy().copy(), None if t is None else t.detach().numpy().copy()))
        return result


def _align_singular_vectors(U, dU, Vh, dVh, U_ref):
    """Rescale each singular pair by the phase that makes U's largest entry agree with the reference's (the
    tangents scale with their vectors), so two LAPACK builds' sign choices compare."""
    idx = np.abs(U_ref).argmax(axis=-2, keepdims=True)
    phase = np.take_along_axis(U_ref, idx, -2) / np.take_along_axis(U, idx, -2)
    phase = phase / np.abs(phase)                      # (..., 1, k): one phase per singular pair
    k = U.shape[-1]
    scale_vh = np.swapaxes(np.conj(phase), -1, -2)     # (..., k, 1): V's columns turn with U's
    return U * phase, dU * phase, Vh[..., :k, :] * scale_vh, dVh[..., :k, :] * scale_vh


SHAPES = [(4, 3), (3, 4), (3, 3), (2, 4, 3), (2, 3, 5)]


def _inputs(shape, complex_: bool, seed: int):
    rng = np.random.default_rng(seed)
    def draw(*s):
        a = rng.standard_normal(s)
        return a + 1j * rng.standard_normal(s) if complex_ else a
    return draw(*shape), draw(*shape), draw


@requires_torch
@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_qr_tangents_match_pytorch(shape, complex_) -> None:
    torch = torch_or_skip()
    A, dA, _ = _inputs(shape, complex_, 1)
    for mode in ("reduced",) + (("complete",) if shape[-2] <= shape[-1] else ()):
        def f(T, x, mode=mode):
            return tuple(T.linalg.qr(x, mode=mode))
        ours, theirs = _tangents(minigrad, f, (A, dA)), _tangents(torch, f, (A, dA))
        for (p, t), (tp, tt) in zip(ours, theirs):
            np.testing.assert_allclose(p, tp, atol=1e-10)
            np.testing.assert_allclose(t, tt, atol=1e-9)


@requires_torch
@pytest.mark.parametrize("full_matrices", [False, True])
@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_svd_tangents_match_pytorch(shape, complex_, full_matrices) -> None:
    torch = torch_or_skip()
    A, dA, _ = _inputs(shape, complex_, 2)
    f = lambda T, x: tuple(T.linalg.svd(x, full_matrices=full_matrices))  # noqa: E731
    (U, dU), (S, dS), (Vh, dVh) = _tangents(minigrad, f, (A, dA))
    (tU, tdU), (tS, tdS), (tVh, tdVh) = _tangents(torch, f, (A, dA))
    np.testing.assert_allclose(S, tS, atol=1e-10)
    np.testing.assert_allclose(dS, tdS, atol=1e-9)
    assert dS.dtype == tdS.dtype and dU.shape == tdU.shape and dVh.shape == tdVh.shape
    k = S.shape[-1]
    U, dU, Vh, dVh = _align_singular_vectors(U[..., :k], dU[..., :k], Vh, dVh, tU[..., :k])
    np.testing.assert_allclose(U, tU[..., :k], atol=1e-9)
    np.testing.assert_allclose(dU, tdU[..., :k], atol=1e-8)
    np.testing.assert_allclose(Vh, tVh[..., :k, :], atol=1e-9)
    np.testing.assert_allclose(dVh, tdVh[..., :k, :], atol=1e-8)
    if full_matrices:  # the extra singular vectors do not move: a zero tangent, as PyTorch's
        assert not np.any(tdU[..., k:]) and not np.any(tdVh[..., k:, :])
        assert not np.any(_tangents(minigrad, f, (A, dA))[0][1][..., k:])


@requires_torch
@pytest.mark.parametrize("complex_", [False, True])
@pytest.mark.parametrize("shape", SHAPES)
def test_svdvals_and_torch_svd_tangents_match_pytorch(shape, complex_) -> None:
    torch = torch_or_skip()
    A, dA, _ = _inputs(shape, complex_, 3)
    ours = _tangents(minigrad, lambda T, x: T.linalg.svdvals(x), (A, dA))
    theirs = _tangents(torch, lambda T, x: T.linalg.svdvals(x), (A, dA))
    np.testing.assert_allclose(ours[0][1], theirs[0][1], atol=1e-9)
    f = lambda T, x: (lambda r: (r.S, r.U @ r.V.mH))(T.svd(x))  # noqa: E731  (U Vᴴ: free of the signs)
    for (p, t), (tp, tt) in zip(_tangents(minigrad, f, (A, dA)), _tangents(torch, f, (A, dA))):
        np.testing.assert_allclose(p, tp, atol=1e-9)
        np.testing.assert_allclose(t, tt, atol=1e-8)


@requires_torch
@pytest.mark.parametrize("driver", [None, "gelsd", "gelss", "gels", "gelsy"])
@pytest.mark.parametrize("shapes", [((5, 3), (5, 2)), ((5, 3), (5,)), ((3, 5), (3, 2)), ((2, 5, 3), (2, 5, 2)),
                                    ((4, 4), (4, 1))])
def test_lstsq_tangents_match_pytorch(shapes, driver) -> None:
    torch = torch_or_skip()
    (a_shape, b_shape) = shapes
    rng = np.random.default_rng(4)
    pairs = [(rng.standard_normal(a_shape), rng.standard_normal(a_shape)),
             (rng.standard_normal(b_shape), rng.standard_normal(b_shape))]
    f = lambda T, a, b: tuple(T.linalg.lstsq(a, b, driver=driver))  # noqa: E731
    ours, theirs = _tangents(minigrad, f, *pairs), _tangents(torch, f, *pairs)
    for (p, t), (tp, tt) in zip(ours, theirs):
        np.testing.assert_allclose(p, tp, atol=1e-9)
        assert (t is None) == (tt is None)
        if t is not None:
            assert t.shape == tt.shape
            np.testing.assert_allclose(t, tt, atol=1e-8)


@requires_torch
def test_complex_lstsq_residual_tangent_is_real_and_pytorchs() -> None:
    torch = torch_or_skip()
    rng = np.random.default_rng(5)
    c = lambda *s: rng.standard_normal(s) + 1j * rng.standard_normal(s)  # noqa: E731
    pairs = [(c(5, 3), c(5, 3)), (c(5, 2), c(5, 2))]
    f = lambda T, a, b: tuple(T.linalg.lstsq(a, b, driver="gelsd"))[:2]  # noqa: E731
    (_, dX), (_, dL) = _tangents(minigrad, f, *pairs)
    (_, tdX), (_, tdL) = _tangents(torch, f, *pairs)
    np.testing.assert_allclose(dX, tdX, atol=1e-9)
    assert dL.dtype == tdL.dtype == np.float64
    np.testing.assert_allclose(dL, tdL, atol=1e-9)


# ---- every op case in forward mode ------------------------------------------------------------------------

from op_cases import CASES  # noqa: E402

# PyTorch's own forward formulas are wrong or fail there; minigrad keeps the true derivative (checked against
# central differences in test_pytorch_forward_formula_is_wrong_there)
TORCH_WRONG = {
    "CholeskyInverseBackward0", "CholeskyInverseBackward0-upper",  # cholesky_inverse_jvp: -X dL X Lᴴ (should be
    # -X dL Lᴴ X ...)
    "TriangularSolveBackward0", "TriangularSolveBackward0-complex", "AddBackward0-triangular-solve-coefficient",
    "TriangularSolveBackward0-lower-transpose-unit",  # triangular_solve_jvp: the whole dA, never transposed
    "MseLossBackwardBackward0", "MseLossBackwardBackward0-target",  # "ZeroTensors are immutable"
    "NormBackward0", "NormBackward0-p3",  # norm_except_dim(v, p, -1): a [1, 1] tangent for its 0-dim result, refused
}


def _forward_mode(T, case, arrays):
    F = T.autograd.forward_ad
    rng = np.random.default_rng(7)
    with F.dual_level():
        ins = []
        for spec, a in zip(case.inputs, arrays):
            t = T.from_numpy(a.copy())
            if spec.grad and (t.is_floating_point() or t.is_complex()):
                tangent = rng.standard_normal(a.shape)
                if np.iscomplexobj(a):
                    tangent = tangent + 1j * rng.standard_normal(a.shape)
                t = F.make_dual(t, T.from_numpy(tangent.astype(a.dtype)))
            ins.append(t)
        try:
            out = case.fn(T, *ins)
        except Exception as e:  # noqa: BLE001  (the same error is the parity)
            return "error", type(e).__name__, str(e).split("\n")[0]
        tangent = F.unpack_dual(out).tangent
        if tangent is None:
            return "tangent", None
        tangent = tangent.detach()
        if T._is_zerotensor(tangent):   # (sgn's of a real input, in both libraries: read as its zeros)
            tangent = T.zeros_like(tangent)
        return "tangent", (tangent.resolve_conj().resolve_neg() if hasattr(tangent, "resolve_conj") else tangent
                           ).numpy().copy()


SWEEP = [c for c in CASES if c.parity and c.id not in TORCH_WRONG]


@requires_torch
@pytest.mark.parametrize("case", SWEEP, ids=[c.id for c in SWEEP])
def test_op_case_tangent_matches_pytorch(case) -> None:
    torch = torch_or_skip()
    from test_op_table import _arrays
    arrays = _arrays(case)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours, theirs = _forward_mode(minigrad, case, arrays), _forward_mode(torch, case, arrays)
    assert ours[0] == theirs[0], (ours, theirs)
    if ours[0] == "error":
        assert ours[1:] == theirs[1:]
        return
    t, tt = ours[1], theirs[1]
    assert (t is None) == (tt is None)
    if t is not None:
        assert t.shape == tt.shape and t.dtype == tt.dtype
        np.testing.assert_allclose(t, tt, rtol=1e-6, atol=1e-8, equal_nan=True)


@requires_torch
def test_pytorch_forward_formula_is_wrong_there() -> None:
    """The TORCH_WRONG cases: minigrad's tangents are the central differences, PyTorch's are not."""
    torch = torch_or_skip()
    rng = np.random.default_rng(0)
    A = rng.standard_normal((3, 3))
    chol = np.linalg.cholesky(A @ A.T + np.eye(3))
    d_chol = np.tril(rng.standard_normal((3, 3)))
    B, dB = rng.standard_normal((3, 2)), rng.standard_normal((3, 2))
    M, dM = rng.standard_normal((3, 3)) + 3 * np.eye(3), rng.standard_normal((3, 3))
    eps = 1e-6
    checks = [
        (lambda T, factor: T.cholesky_inverse(factor), [(chol, d_chol)]),
        (lambda T, b, m: T.triangular_solve(b, m, transpose=True).solution, [(B, dB), (M, dM)]),
    ]
    for f, pairs in checks:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (torch.triangular_solve is deprecated)
            shifted = [f(minigrad, *[minigrad.from_numpy(a + h * t) for a, t in pairs]).numpy() for h in (eps, -eps)]
            central = (shifted[0] - shifted[1]) / (2 * eps)
            ours = _tangents(minigrad, f, *pairs)[0][1]
            theirs = _tangents(torch, f, *pairs)[0][1]
        np.testing.assert_allclose(ours, central, atol=1e-6)
        assert not np.allclose(theirs, central, atol=1e-3)
