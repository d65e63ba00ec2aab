"""Leftovers of session 12 fixed in session 13 (H); each program runs with minigrad and with PyTorch
(``parity.same_as_torch``) and must print the same.

1. Optimizers with differentiable=True record PyTorch's single-tensor update (the state tensors' grad_fn, the
   parameter's, gradients through the step).
2. masked_fill_ into an expanded tensor with a mask of another shape: the deprecation warning, then the error.
3. Result versions of ops called on inference tensors outside inference mode.
4. out= through kernels with no derivative (ifft / ihfft of a real input, eigvals, ldl_factor, ldl_solve): out gets
   a NotImplemented node when an input requires grad, an out= requiring grad is refused, forward AD is refused
   first; eigh / eigvalsh / lu_factor of an integer input check out='s dtype before the kernel refuses.
5. Namespaces: torch.autograd has no ``engine``, torch.optim none of its optimizers' files.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS: dict[str, str] = {}

# ---- 1. optimizers with differentiable=True --------------------------------------------------------------------
# A parameter that is not a leaf (a clone of one), a gradient that requires grad, and (second run) state tensors
# swapped for clones of leaves that require grad, as PyTorch's own tests of differentiable optimizers do: the
# nodes of the state tensors and of the parameter, the versions, the values, and the gradients of a loss of the
# updated tensors w.r.t. the initial parameter, the gradient and the state leaves (or PyTorch's error).
PROGRAMS["optimizers_differentiable_graphs"] = """def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None
def run(cls, kw, state_rg=False, steps=2, dtype=torch.float64):
    torch.manual_seed(0)
    p0 = torch.randn(4, dtype=dtype, requires_grad=True)
    g0 = torch.randn(4, dtype=dtype, requires_grad=True)
    p = p0.clone()
    opt = cls([p], differentiable=True, **kw)
    leaves = []
    for it in range(steps):
        p.grad = g0 * (it + 1.5)
        if it == 1 and state_rg:   # make the state leaves that require grad
            for k, v in list(opt.state[p].items()):
                if isinstance(v, torch.Tensor) and v.dtype.is_floating_point and v.dim() > 0:
                    leaf = v.detach().clone().requires_grad_()
                    leaves.append((k, leaf))
                    opt.state[p][k] = leaf.clone()
        try:
            opt.step()
        except Exception as e:
            print("  step error", type(e).__name__, e); return
        print(" ", name(p), p._version, {k: (name(v), v.requires_grad, v._version) for k, v in opt.state[p].items()})
    print("  p", p.tolist())
    outs = [p] + [v for v in opt.state[p].values() if isinstance(v, torch.Tensor) and v.requires_grad]
    loss = sum((o * torch.arange(1, 5, dtype=dtype)).sum() for o in outs)
    try:
        gs = torch.autograd.grad(loss, [p0, g0] + [l for _, l in leaves], allow_unused=True)
    except Exception as e:
        print("  grad error", type(e).__name__, e); return
    for g in gs:
        print("  g", None if g is None else g.tolist())
O = torch.optim
cases = [
    (O.RMSprop, dict(lr=0.01)), (O.RMSprop, dict(lr=0.01, weight_decay=0.1, momentum=0.9, centered=True)),
    (O.RMSprop, dict(lr=0.01, momentum=0.5, maximize=True)),
    (O.Adagrad, dict(lr=0.1)),
    (O.Adagrad, dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1)),
    (O.NAdam, dict(lr=0.01)), (O.NAdam, dict(lr=0.01, weight_decay=0.1)),
    (O.NAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    (O.RAdam, dict(lr=0.01)), (O.RAdam, dict(lr=0.01, weight_decay=0.1, betas=(0.5, 0.6))),
    (O.RAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    (O.Adamax, dict(lr=0.01)), (O.Adamax, dict(lr=0.01, weight_decay=0.1, maximize=True)),
    (O.Adadelta, dict(lr=0.5)), (O.Adadelta, dict(lr=0.5, weight_decay=0.1)),
    (O.ASGD, dict(lr=0.01)), (O.ASGD, dict(lr=0.01, weight_decay=0.1, t0=0.0)),
    (O.Rprop, dict(lr=0.01)), (O.Rprop, dict(lr=0.01, maximize=True)),
    (O.SGD, dict(lr=0.1)), (O.SGD, dict(lr=0.1, momentum=0.9, weight_decay=0.1, nesterov=True)),
]
for cls, kw in cases:
    for srg in (False, True):
        print(cls.__name__, kw, srg)
        run(cls, kw, srg)
"""

# float32 bits over five steps, a leaf parameter (state updated, then its own update refused), a gradient made
# with create_graph=True (the step differentiable w.r.t. the leaf), and differentiable=False unchanged
PROGRAMS["optimizers_differentiable_bits_leaf_create_graph"] = """O = torch.optim
cases = [
    (O.RMSprop, dict(lr=0.01)), (O.RMSprop, dict(lr=0.01, weight_decay=0.1, momentum=0.9, centered=True)),
    (O.Adagrad, dict(lr=0.1, lr_decay=0.01, weight_decay=0.1, initial_accumulator_value=0.1)),
    (O.NAdam, dict(lr=0.01)), (O.NAdam, dict(lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)),
    (O.RAdam, dict(lr=0.01)), (O.RAdam, dict(lr=0.01, weight_decay=0.1, betas=(0.5, 0.6))),
    (O.Adamax, dict(lr=0.01, weight_decay=0.1)), (O.Adadelta, dict(lr=0.5, weight_decay=0.1)),
    (O.ASGD, dict(lr=0.01, t0=1.0, lambd=0.1)), (O.Rprop, dict(lr=0.01)),
    (O.SGD, dict(lr=0.1, momentum=0.9, dampening=0.1)),
    (O.SGD, dict(lr=0.1, momentum=0.9, nesterov=True, weight_decay=0.1)),
]
for cls, kw in cases:
    print(cls.__name__, kw)
    torch.manual_seed(0)
    p = torch.randn(6)
    opt = cls([p], differentiable=True, **kw)
    for it in range(5):
        p.grad = torch.randn(6)
        opt.step()
    print(" ", p.tolist(), p._version, {k: (v.tolist(), v._version) for k, v in opt.state[p].items()})
    # a leaf parameter that requires grad: the state updates are made, the parameter's refused
    lin = torch.nn.Linear(3, 2)
    opt = cls(lin.parameters(), differentiable=True, **kw)
    lin(torch.ones(4, 3)).sum().backward()
    E(opt.step)
    print(" ", {k: (type(v.grad_fn).__name__ if v.grad_fn else None, v.requires_grad, v._version)
               for k, v in opt.state[lin.weight].items()})
    # a gradient made with create_graph: the update is differentiable w.r.t. the leaf's own values
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    p = w.clone()
    opt = cls([p], differentiable=True, **kw)
    for it in range(3):
        loss = (p ** 3).sum()
        g, = torch.autograd.grad(loss, p, create_graph=True)
        p.grad = g
        opt.step()
    print(" ", type(p.grad_fn).__name__, p.tolist())
    E(lambda: print("  ", torch.autograd.grad(p.sum(), w)[0].tolist()))
    # differentiable=False (the default) is unchanged, and records nothing
    p = w.detach().clone()
    opt = cls([p], **kw)
    p.grad = torch.ones(3, requires_grad=True) * 2
    opt.step()
    print(" ", type(p.grad_fn).__name__, p.tolist(), {k: v.grad_fn for k, v in opt.state[p].items()})
"""

# Adam / AdamW with lr, betas and weight decay as tensors (requiring grad or not): PyTorch's differentiable branches
PROGRAMS["adam_differentiable_tensor_hyperparameters"] = """def name(t):
    return type(t.grad_fn).__name__ if t.grad_fn is not None else None
O = torch.optim
def T(v, rg=True, dt=torch.float32):
    return torch.tensor(v, dtype=dt, requires_grad=rg)
cases = [
    lambda: dict(lr=T(0.01)), lambda: dict(lr=T(0.01, False)), lambda: dict(lr=T(0.01), betas=(T(0.9), T(0.99))),
    lambda: dict(lr=0.01, betas=(T(0.9, False), T(0.99, False))), lambda: dict(lr=0.01, betas=(T(0.8), T(0.9, False))),
    lambda: dict(lr=0.01, betas=(T(0.8, False), T(0.9))),
    lambda: dict(lr=T(0.01), weight_decay=T(0.1)), lambda: dict(lr=0.01, weight_decay=T(0.1)),
    lambda: dict(lr=0.01, weight_decay=T(0.1, False)), lambda: dict(lr=T(0.01), weight_decay=0.1, amsgrad=True),
    lambda: dict(lr=T(0.02, dt=torch.float64), betas=(T(0.9, dt=torch.float64), T(0.99, dt=torch.float64))),
]
for cls in (O.Adam, O.AdamW):
    for mk in cases:
        kw = mk()
        print(cls.__name__, {k: (v.detach().item(), v.requires_grad, v.dtype) if isinstance(v, torch.Tensor) else
                             tuple((b.detach().item(), b.requires_grad) if isinstance(b, torch.Tensor) else b
                                   for b in v)
                             if isinstance(v, tuple) else v for k, v in kw.items()})
        torch.manual_seed(0)
        p0 = torch.randn(4, dtype=torch.float64, requires_grad=True)
        p = p0.clone()
        try:
            opt = cls([p], differentiable=True, **kw)
            for it in range(3):
                p.grad = torch.tensor([0.5, -1.0, 2.0, 0.25], dtype=torch.float64) * (it + 1)
                opt.step()
                print(" ", name(p), p._version, {k: (name(v), v.requires_grad, v._version, v.dtype)
                                                 for k, v in opt.state[p].items()})
        except Exception as e:
            print("  error", type(e).__name__, e); continue
        print("  p", p.tolist())
        hyper = [v for v in kw.values() if isinstance(v, torch.Tensor) and v.requires_grad] + \
                [b for v in kw.values() if isinstance(v, tuple) for b in v
                 if isinstance(b, torch.Tensor) and b.requires_grad]
        try:
            gs = torch.autograd.grad((p * torch.arange(1, 5)).sum(), [p0] + hyper, allow_unused=True)
            for g in gs:
                print("  g", None if g is None else g.tolist())
        except Exception as e:
            print("  grad error", type(e).__name__, e)
"""

# ---- 2. masked_fill_ into an expanded tensor ------------------------------------------------------------------
PROGRAMS["masked_fill_expanded_bad_mask_warns_first"] = """
import warnings
def X():
    return torch.ones(1, 3).expand(2, 3)
with warnings.catch_warnings():   # (restores showwarning)
  warnings.simplefilter("always")
  warnings.showwarning = lambda message, *rest: print("  W", str(message).split(" (Triggered")[0])
  for f in [lambda: X().masked_fill_(torch.ones(4, dtype=torch.bool), 1.0),
          lambda: X().masked_fill_(torch.ones(4, dtype=torch.bool), torch.tensor(1.0)),
          lambda: X().masked_fill_(torch.ones(2, 4, dtype=torch.bool), 1.0),
          lambda: X().masked_fill_(torch.ones(3, dtype=torch.uint8), 1.0),
          lambda: X().masked_fill_(torch.ones(3, dtype=torch.bool), torch.ones(2)),
          lambda: X().masked_fill_(torch.ones(3, dtype=torch.bool), 1.0),
          lambda: torch.ones(3).masked_fill_(torch.ones(2, 3, dtype=torch.bool), 1.0),
          lambda: torch.ones(3, 1).expand(3, 2).masked_fill_(torch.ones(2, 3, 2, dtype=torch.bool), 1.0),
          lambda: torch.ones(1).expand(3).masked_fill_(torch.ones(3, dtype=torch.bool), 2.0),
          lambda: torch.ones(1, 3, requires_grad=True).expand(2, 3).masked_fill_(torch.ones(4, dtype=torch.bool), 1.0)]:
      E(f)
"""

# ---- 3. result versions of inference tensors used outside inference mode ----------------------------------------
# (the kernels' own writes into their results count there: FFTs over dims other than the trailing ones after one
# batch dim, scatter / index families, unique, eig / ldl / lu / solve families, per output)
PROGRAMS["inference_inputs_result_versions"] = """import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
with torch.inference_mode():
    x, xd, v = torch.randn(3, 4), torch.randn(3, 4, dtype=torch.float64), torch.randn(5)
    vi = torch.tensor([3, 1, 3, 2, 1, 1])
    c, c3, c4 = (torch.randn(3, 4, dtype=torch.complex64), torch.randn(2, 3, 4, dtype=torch.complex64),
                 torch.randn(2, 2, 3, 4, dtype=torch.complex64))
    t3, t4 = torch.randn(2, 3, 4), torch.randn(2, 2, 3, 4)
    x1, c1 = torch.randn(4), torch.randn(5, dtype=torch.complex64)
    m1 = torch.randn(1, 1)
    idx, idx1, src = torch.tensor([[0, 1, 2, 0], [2, 0, 1, 1]]), torch.tensor([0, 2]), torch.randn(2, 4)
    mats = []
    for dt, batch in [(torch.float64, ()), (torch.float32, ()), (torch.float64, (2,)), (torch.complex128, ())]:
        A = torch.randn(*batch, 3, 3, dtype=dt)
        S = A @ A.mH + torch.eye(3, dtype=dt)
        mats.append((A, S, torch.randn(*batch, 3, 2, dtype=dt), *torch.linalg.lu_factor(A), *torch.linalg.ldl_factor(S),
                     torch.linalg.cholesky(S)))
F, L = torch.fft, torch.linalg
cases = {
    "fft last": lambda: F.fft(x), "fft d0": lambda: F.fft(x, dim=0), "fft d0 n": lambda: F.fft(x, n=5, dim=0),
    "fft 1d": lambda: F.fft(x1), "fft t3 d1": lambda: F.fft(t3, dim=1), "fft c d0": lambda: F.fft(c, dim=0),
    "fft c last": lambda: F.fft(c), "fft c3 last": lambda: F.fft(c3), "fft c1": lambda: F.fft(c1),
    "fft c2t": lambda: F.fft(c.t()), "fft c n3": lambda: F.fft(c, n=3),
    "ifft c d0": lambda: F.ifft(c, dim=0), "ifft x d0": lambda: F.ifft(x, dim=0), "ifft x last": lambda: F.ifft(x),
    "rfft d0": lambda: F.rfft(x, dim=0), "rfft last": lambda: F.rfft(x), "rfft t3 last": lambda: F.rfft(t3),
    "irfft d0": lambda: F.irfft(c, dim=0), "irfft last": lambda: F.irfft(c), "irfft c3": lambda: F.irfft(c3),
    "irfft c1": lambda: F.irfft(c1), "hfft last": lambda: F.hfft(c),
    "ihfft d0": lambda: F.ihfft(x, dim=0), "ihfft last": lambda: F.ihfft(x), "ihfft t3 d1": lambda: F.ihfft(t3, dim=1),
    "fft2": lambda: F.fft2(x), "fft2 c": lambda: F.fft2(c), "fftn c3": lambda: F.fftn(c3),
    "fftn c3 d12": lambda: F.fftn(c3, dim=(1, 2)), "fftn c3 d21": lambda: F.fftn(c3, dim=(2, 1)),
    "fftn c3 d02": lambda: F.fftn(c3, dim=(0, 2)), "fftn c4 d123": lambda: F.fftn(c4, dim=(1, 2, 3)),
    "fftn c4 d23": lambda: F.fftn(c4, dim=(2, 3)), "rfft2": lambda: F.rfft2(x), "rfftn t3": lambda: F.rfftn(t3),
    "rfftn t3 d12": lambda: F.rfftn(t3, dim=(1, 2)), "rfftn t4 d123": lambda: F.rfftn(t4, dim=(1, 2, 3)),
    "irfft2": lambda: F.irfft2(c), "irfftn c3": lambda: F.irfftn(c3), "irfftn c3 d12": lambda: F.irfftn(c3, dim=(1, 2)),
    "ifft2 c": lambda: F.ifft2(c), "ihfft2": lambda: F.ihfft2(x),
    "scatter": lambda: x.scatter(0, idx, src), "scatter value": lambda: x.scatter(0, idx, 1.5),
    "scatter_add": lambda: x.scatter_add(0, idx, src),
    **{f"scatter_reduce {r} {s}": (lambda r=r, s=s: x.scatter_reduce(0, idx, src, r, include_self=s))
       for r in ("sum", "prod", "mean", "amax", "amin") for s in (True, False)},
    **{f"index_reduce {r} {s}": (lambda r=r, s=s: x.index_reduce(0, idx1, src, r, include_self=s))
       for r in ("prod", "mean", "amax", "amin") for s in (True, False)},
    "index_add": lambda: x.index_add(0, idx1, src), "index_add alpha": lambda: x.index_add(0, idx1, src, alpha=2),
    "index_copy": lambda: x.index_copy(0, idx1, src), "index_fill": lambda: x.index_fill(1, idx1, 2.0),
    "index_put": lambda: x.index_put((idx1,), src), "index_put acc": lambda: x.index_put((idx1,), src, accumulate=True),
    "expand_copy": lambda: torch.expand_copy(v, (2, 5)), "matrix_exp 1x1": lambda: torch.linalg.matrix_exp(m1),
    "index_put normal index": lambda: x.index_put((torch.tensor([1, 0]),), src, accumulate=True),
    "unique": lambda: torch.unique(vi), "unique f": lambda: torch.unique(v),
    "unique all": lambda: torch.unique(vi, return_inverse=True, return_counts=True),
    "unique unsorted": lambda: torch.unique(vi, sorted=False, return_counts=True),
    "unique empty": lambda: torch.unique(vi[:0], return_inverse=True, return_counts=True),
    "unique dim": lambda: torch.unique(idx, dim=1, return_inverse=True, return_counts=True),
}
for i, (A, S, B, LU, piv, LD, pivl, Lc) in enumerate(mats):
    cases.update({f"{i} {k}": f for k, f in {
        "eig": lambda: L.eig(A), "eigvals": lambda: L.eigvals(A), "eigh": lambda: L.eigh(S),
        "eigvalsh": lambda: L.eigvalsh(S), "ldl_factor": lambda: L.ldl_factor(S),
        "ldl_factor_ex": lambda: L.ldl_factor_ex(S),
        "ldl_solve": lambda: L.ldl_solve(LD, pivl, B), "lu": lambda: L.lu(A), "lu_factor": lambda: L.lu_factor(A),
        "lu_solve": lambda: L.lu_solve(LU, piv, B), "lu_solve adjoint": lambda: L.lu_solve(LU, piv, B, adjoint=True),
        "lu_solve right": lambda: L.lu_solve(LU, piv, B.mT, left=False), "lu_unpack": lambda: torch.lu_unpack(LU, piv),
        "solve": lambda: L.solve(A, B), "solve vec": lambda: L.solve(A, B[..., 0]),
        "solve_ex": lambda: L.solve_ex(A, B),
        "solve right": lambda: L.solve(A, B.mT, left=False),
        "solve_triangular": lambda: L.solve_triangular(A, B, upper=True),
        "solve_triangular right": lambda: L.solve_triangular(A, B.mT, upper=False, left=False),
        "cholesky": lambda: L.cholesky(S), "cholesky_ex": lambda: L.cholesky_ex(S, upper=True),
        "cholesky_inverse": lambda: torch.cholesky_inverse(Lc), "slogdet": lambda: L.slogdet(A),
        "matrix_exp": lambda: L.matrix_exp(A), "tensorsolve": lambda: L.tensorsolve(A, B[..., 0]),
        "geqrf": lambda: torch.geqrf(A), "triangular_solve": lambda: torch.triangular_solve(B, A, upper=False),
        "inv": lambda: L.inv(A), "det": lambda: L.det(A), "qr": lambda: L.qr(A)}.items()})
for name, f in cases.items():
    try:
        r = f()
    except Exception as e:
        print(name, type(e).__name__)
        continue
    print(name, [t._version for t in (r if isinstance(r, tuple) else (r,)) if isinstance(t, torch.Tensor)])
"""

# (histc, histogram, histogramdd, bincount, isin: functions with no table op; a normal input among them: 0)
PROGRAMS["inference_inputs_result_versions_counting"] = """import warnings
warnings.simplefilter("ignore")
with torch.inference_mode():
    v = torch.randn(5); vd = torch.randn(5, dtype=torch.float64); w = torch.rand(5); x = torch.randn(4, 2)
    vi = torch.tensor([3, 1, 3, 2]); wd = torch.rand(4, dtype=torch.float64); e = torch.tensor([-2., 0., 2.])
def V(r):
    rs = r if isinstance(r, (tuple, list)) else (r,)
    return [[u._version for u in t] if isinstance(t, (tuple, list)) else t._version for t in rs]
print("histc", V(torch.histc(v, bins=4)), V(torch.histc(vd, bins=4)), V(torch.histc(v[:0], bins=4)),
      V(torch.histc(v, bins=4, min=-1, max=1)), V(torch.histc(v.clone(), bins=4)))
print("histogram", V(torch.histogram(v, bins=4)), V(torch.histogram(v, bins=4, weight=w)),
      V(torch.histogram(v, bins=4, density=True)), V(torch.histogram(v, bins=4, weight=w, density=True)),
      V(torch.histogram(v, bins=e)), V(torch.histogram(vd, bins=3)), V(torch.histogram(v, bins=4, weight=w.clone())))
print("histogramdd", V(torch.histogramdd(x, bins=2)), V(torch.histogramdd(x, bins=[2, 3], density=True)),
      V(torch.histogramdd(x, bins=2, weight=w[:4])))
print("bincount", V(torch.bincount(vi)), V(torch.bincount(vi, weights=wd)), V(torch.bincount(vi, weights=w[:4])),
      V(torch.bincount(vi, minlength=7)), V(torch.bincount(vi, weights=wd.clone())))
print("isin", V(torch.isin(vi, vi)), V(torch.isin(vi, 3)), V(torch.isin(3, vi)), V(torch.isin(v, v)),
      V(torch.isin(vi[:0], vi)), V(torch.isin(vi, vi.clone())))
"""

# ---- 4. out= through kernels with no derivative ---------------------------------------------------------------
PROGRAMS["out_not_implemented_nodes"] = """
def show(name, f):
    try:
        r = f()
    except Exception as e:
        print(name, type(e).__name__, e)
        return
    rs = r if isinstance(r, tuple) else (r,)
    print(name, [(type(t.grad_fn).__name__ if t.grad_fn else None, t.requires_grad, t.dtype, t.is_leaf, t._version)
                 for t in rs])
    if rs[0].grad_fn is not None:
        print("  ", rs[0].grad_fn.name(), [type(n).__name__ for n, _ in rs[0].grad_fn.next_functions])
    E(lambda: rs[0].abs().sum().backward())
torch.manual_seed(0)
x = torch.randn(4, requires_grad=True, dtype=torch.float64)
x32 = torch.randn(4, requires_grad=True)
A = torch.randn(3, 3, dtype=torch.float64, requires_grad=True)
S = (A @ A.mT + torch.eye(3, dtype=torch.float64)).detach().requires_grad_()
LD, piv = torch.linalg.ldl_factor(S.detach())
B = torch.randn(3, 2, dtype=torch.float64, requires_grad=True)
c128 = lambda *s: torch.empty(*s, dtype=torch.complex128)
f64 = lambda *s: torch.empty(*s, dtype=torch.float64)
show("ifft", lambda: torch.fft.ifft(x, out=c128(4)))
show("ifft n", lambda: torch.fft.ifft(x, n=6, out=c128(6)))
show("ifft resized", lambda: torch.fft.ifft(x * 2, out=c128(0)))
show("ihfft", lambda: torch.fft.ihfft(x, out=c128(3)))
show("ihfft f32", lambda: torch.fft.ihfft(x32, n=3, out=torch.empty(2, dtype=torch.complex64)))
show("fft", lambda: torch.fft.fft(x, out=c128(4)))
show("ifft complex", lambda: torch.fft.ifft(x.to(torch.complex128), out=c128(4)))
show("ifft2", lambda: torch.fft.ifft2(A, out=c128(3, 3)))
show("ifft int", lambda: torch.fft.ifft(torch.arange(4), out=torch.empty(4, dtype=torch.complex64)))
show("ifft out rg", lambda: torch.fft.ifft(x.detach(), out=c128(4).requires_grad_()))
show("eigvals", lambda: torch.linalg.eigvals(A, out=c128(3)))
show("eigvals nonleaf", lambda: torch.linalg.eigvals(A * 2, out=torch.empty(3, dtype=torch.complex64)))
show("eigvals no grad", lambda: torch.linalg.eigvals(A.detach(), out=c128(3)))
show("eigvals out rg", lambda: torch.linalg.eigvals(A.detach(), out=c128(3).requires_grad_()))
with torch.no_grad():
    show("eigvals no_grad", lambda: torch.linalg.eigvals(A, out=c128(3)))
show("eig", lambda: torch.linalg.eig(A, out=(c128(3), c128(3, 3))))
show("ldl_factor", lambda: torch.linalg.ldl_factor(S, out=(f64(3, 3), torch.empty(3, dtype=torch.int32))))
show("ldl_factor_ex", lambda: torch.linalg.ldl_factor_ex(S, out=(f64(3, 3), torch.empty(3, dtype=torch.int32),
                                                                  torch.empty((), dtype=torch.int32))))
show("ldl_factor out rg", lambda: torch.linalg.ldl_factor(S.detach(), out=(f64(3, 3).requires_grad_(),
                                                                          torch.empty(3, dtype=torch.int32))))
show("ldl_solve B", lambda: torch.linalg.ldl_solve(LD, piv, B, out=f64(3, 2)))
show("ldl_solve both", lambda: torch.linalg.ldl_solve(LD.clone().requires_grad_(), piv, B, out=f64(3, 2)))
show("ldl_solve kw", lambda: torch.linalg.ldl_solve(B=B, pivots=piv, LD=LD.clone().requires_grad_(), out=f64(3, 2)))
show("lu_factor", lambda: torch.linalg.lu_factor(A, out=(f64(3, 3), torch.empty(3, dtype=torch.int32))))
o = c128(4)
r = torch.fft.ifft(x, out=o)
print(r is o, type(o.grad_fn.next_functions[0][0]).__name__)
import torch.autograd.forward_ad as fwAD
xd, Ad = x.detach(), A.detach()
with fwAD.dual_level():
    for name, f, o in [("ifft", lambda o: torch.fft.ifft(fwAD.make_dual(xd, xd), out=o), c128(4)),
                       ("ihfft", lambda o: torch.fft.ihfft(fwAD.make_dual(xd, xd), out=o), c128(3)),
                       ("eigvals", lambda o: torch.linalg.eigvals(fwAD.make_dual(Ad, Ad), out=o), c128(3)),
                       ("ifft out dual", lambda o: torch.fft.ifft(xd, out=fwAD.make_dual(o, o)), c128(4))]:
        o.zero_()
        print(name, end=" ")
        E(lambda: f(o))
        print(bool((o != 0).any()), o._version)
"""

PROGRAMS["out_dtype_before_integer_kernel"] = """
I = torch.ones(3, 3, dtype=torch.int64)
for name, f in [("eigvalsh", lambda o: torch.linalg.eigvalsh(I, out=o)),
                ("eigh L", lambda o: torch.linalg.eigh(I, out=(o, torch.empty(0, dtype=o.dtype)))),
                ("eigh V", lambda o: torch.linalg.eigh(I, out=(torch.empty(0, dtype=torch.int64), o))),
                ("lu_factor", lambda o: torch.linalg.lu_factor(I, out=(o, torch.empty(0, dtype=torch.int32)))),
                ("lu_factor_ex", lambda o: torch.linalg.lu_factor_ex(I, out=(o, torch.empty(0, dtype=torch.int32),
                                                                             torch.empty(0, dtype=torch.int32)))),
                ("det", lambda o: torch.linalg.det(I, out=o)), ("inv", lambda o: torch.linalg.inv(I, out=o)),
                ("svdvals", lambda o: torch.linalg.svdvals(I, out=o))]:
    for dt in (torch.int64, torch.float64, torch.float32, torch.complex128):
        print(name, dt, end=" ")
        E(lambda: f(torch.empty(0, dtype=dt)))
E(lambda: torch.linalg.eigvalsh(I, UPLO="X", out=torch.empty(3, dtype=torch.float64)))
E(lambda: torch.linalg.eigvalsh(torch.ones(2, 3, dtype=torch.int64), out=torch.empty(3)))
E(lambda: torch.linalg.eigvalsh(torch.ones(3, 3), out=torch.empty(3, dtype=torch.int64)))
"""

# ---- 5. namespaces ---------------------------------------------------------------------------------------------
PROGRAMS["namespace_no_engine_nor_optimizer_files"] = """
print(hasattr(torch.autograd, "engine"), "engine" in dir(torch.autograd))
print([n for n in ("adam", "sgd", "optimizer", "adagrad", "rmsprop", "nadam", "radam", "lbfgs", "lr_scheduler",
                   "swa_utils") if hasattr(torch.optim, n)])
E(lambda: torch.autograd.engine)
import torch.optim.lr_scheduler
print(torch.optim.Adam.__name__, torch.optim.Optimizer.__name__)
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = fwAD.make_dual(torch.ones(3), torch.ones(3))
    E(lambda: x.div_(1j))
    y = fwAD.make_dual(torch.ones(3, dtype=torch.float64), torch.ones(3, dtype=torch.float64))
    E(lambda: y.div_(torch.tensor(1j)))
    E(lambda: y.mul_(1j))
    E(lambda: torch.ones(3).div_(1j))
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_leftover_matches_torch(name: str) -> None:
    same_as_torch(PROGRAMS[name])
