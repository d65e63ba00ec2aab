"""``out=`` of the torch.linalg and torch.fft functions (minigrad/_out_args.py: LINALG_OUT, FFT_OUT), compared live
with PyTorch (``parity.same_as_torch``): the result written into out= and returned as it (``r is out``; a
``torch.return_types.linalg_qr_out`` ... of the out tensors for the decompositions), out= resized with PyTorch's
warning, out='s dtype checked with each function's message, and the out= refusal under autograd named after the
kernel that refuses it (or, for the differentiable composites linalg.norm / cond ..., the result copied in).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

_PRELUDE = """
import warnings
def W(f):
    # the result (dtype, shape, requires_grad, values) or the error, and the warnings raised on the way
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
            rs = r if isinstance(r, tuple) else (r,)
            # (values rounded: MKL's lstsq into a resized out= varies in its last bit from run to run)
            print(type(r).__name__, [(t.dtype, tuple(t.shape), t.requires_grad, round(t.detach().double().sum().item()
                                      if not t.is_complex() else t.detach().abs().sum().item(), 4)) for t in rs])
        except Exception as e:
            print(type(e).__name__, e)
    for m in w:
        print("  warning:", str(m.message)[:60])
OUTS = {"f32": lambda: torch.empty(0), "f64": lambda: torch.empty(0, dtype=torch.float64),
        "c64": lambda: torch.empty(0, dtype=torch.complex64), "c128": lambda: torch.empty(0, dtype=torch.complex128),
        "i64": lambda: torch.empty(0, dtype=torch.int64), "wrong_size": lambda: torch.empty(7),
        "wrong_size_c64": lambda: torch.empty(2, 3, dtype=torch.complex64),
        "needs_grad": lambda: torch.empty(0, requires_grad=True)}
A = torch.tensor([[4., 1., 0.5], [1., 3., 0.2], [0.5, 0.2, 2.]])
def Ag():
    return A.clone().requires_grad_()
"""

PROGRAMS: dict[str, str] = {}

PROGRAMS["fft_family"] = _PRELUDE + """
X = torch.tensor([[1., 2., 3., 4.], [0.5, -1., 2., 0.]])
Z = torch.tensor([[1+2j, 2., 3j, 4.], [0.5, -1., 2j, 0.]])
for name in ["fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2",
             "fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"]:
    f = getattr(torch.fft, name)
    for inp in (X, Z, X.double()):
        for key, make in OUTS.items():
            print(name, inp.dtype, key, end=": ")
            W(lambda: f(inp, out=make()))
    real_in = name.startswith(("rfft", "ihfft"))
    if name != "ihfft":  # (PyTorch gives ifft / ihfft of a real input requiring grad a NotImplemented out=)
        print(name, "grad", end=": ")
        W(lambda: f((X if real_in else Z).clone().requires_grad_(),
                    out=torch.empty(0, dtype=torch.complex64)))
        W(lambda: f((X if real_in else Z).clone().requires_grad_(), out=torch.empty(0)))
    print(name, "grad real out", end=": ")
    W(lambda: f(X.clone().requires_grad_(), out=torch.empty(0)))
    o = torch.empty(0, dtype=f(X if real_in else Z).dtype)
    print(name, f(X if real_in else Z, out=o) is o, o)
o = torch.empty(4, dtype=torch.complex64)
r = torch.fft.fft(torch.tensor([1., 2., 0., -1.]), out=o)
print(r is o, o, torch.fft.irfft(torch.tensor([1+1j, 2., 3j]), n=4, out=torch.empty(4, dtype=torch.float64)))
"""

PROGRAMS["linalg_single"] = _PRELUDE + """
lin = {"det": (A,), "inv": (A,), "solve": (A, A), "cholesky": (A,), "vector_norm": (A,), "eigvalsh": (A,),
       "svdvals": (A,), "cross": (A, A), "matrix_power": (A, 2), "pinv": (A,), "matrix_rank": (A,),
       "multi_dot": ([A, A],), "vecdot": (A, A), "eigvals": (A,), "norm": (A,), "matrix_norm": (A,), "cond": (A,),
       "tensorinv": (A, 1), "householder_product": (A, torch.tensor([0.5, 0.2]))}
def swap(args, new):
    return tuple([new(a) for a in x] if isinstance(x, list) else new(x) if x is A else x for x in args)
for name, args in lin.items():
    f = getattr(torch.linalg, name)
    for key, make in OUTS.items():
        print(name, key, end=": ")
        W(lambda: f(*args, out=make()))
        if name == "eigvals" and key.startswith(("c", "wrong_size_c")):
            continue  # (PyTorch gives eigvals of an input requiring grad a NotImplemented out=)
        print(name, key, "input requires grad", end=": ")
        W(lambda: f(*swap(args, lambda a: Ag()), out=make()))
    print(name, "double into float", end=": ")
    W(lambda: f(*swap(args, lambda a: a.double()), out=torch.empty(0)))
    print(name, "integer input", end=": ")
    if name != "eigvalsh":  # (PyTorch checks out='s dtype against an integer input's before refusing it)
        W(lambda: f(*swap(args, lambda a: torch.ones(3, 3, dtype=torch.int64)), out=torch.empty(0)))
    print(name, "not square", end=": ")
    W(lambda: f(*swap(args, lambda a: torch.ones(2, 3)), out=torch.empty(0, dtype=torch.float64)))
    o = torch.empty(0, dtype=f(*args).dtype)
    print(name, "is out", f(*args, out=o) is o, o)
for key, make in OUTS.items():
    print("solve_triangular", key, end=": ")
    W(lambda: torch.linalg.solve_triangular(A, A, upper=True, out=make()))
o = torch.empty(3, 3)
print(torch.linalg.inv(A, out=o) is o, o, torch.linalg.det(A, out=torch.empty(())))
LD, piv = torch.linalg.ldl_factor(A)
for key, make in OUTS.items():
    print("tensorsolve", key, end=": ")
    W(lambda: torch.linalg.tensorsolve(A, A[0], out=make()))
    W(lambda: torch.linalg.tensorsolve(Ag(), A[0], out=make()))
    print("ldl_solve", key, end=": ")
    W(lambda: torch.linalg.ldl_solve(LD, piv, A, out=make()))
E(lambda: torch.linalg.det(A, out=1))
E(lambda: torch.linalg.multi_dot([A, A], out=[A]))
E(lambda: torch.fft.fft(A, out=1.5))
n = torch.linalg.norm(Ag(), out=torch.empty(0))
print(n.grad_fn.name(), n.requires_grad)
"""

PROGRAMS["linalg_tuples"] = _PRELUDE + """
S = torch.tensor([[4., 1.], [1., 3.], [0.5, 2.]])
for name in ("qr", "eigh", "svd", "slogdet", "inv_ex", "cholesky_ex", "solve_ex", "lu_factor", "lu_factor_ex", "lu",
             "eig", "lstsq"):
    f = getattr(torch.linalg, name)
    args = (A, A) if name in ("solve_ex", "lstsq") else (A,)
    r = f(*args)
    outs = tuple(torch.empty(0, dtype=t.dtype) for t in r)
    res = f(*args, out=outs)
    # (lstsq's solution of A X = A varies in its last bits from run to run in PyTorch (MKL): rounded, no -0)
    shown = type(res)([t.round(decimals=3) + 0.0 if t.is_floating_point() else t for t in res]) \
        if name == "lstsq" else res
    print(name, type(res).__name__, all(p is q for p, q in zip(res, outs)), shown)
    print(name, "grad", end=": ")
    W(lambda: f(*(Ag() for _ in args), out=tuple(torch.empty(0, dtype=t.dtype) for t in r)))
    print(name, "double", end=": ")
    W(lambda: f(*args, out=tuple(torch.empty(0, dtype=torch.float64) for t in r)))
    print(name, "one tensor", end=": ")
    W(lambda: f(*args, out=torch.empty(0)))
    print(name, "too few", end=": ")
    W(lambda: f(*args, out=(torch.empty(0),)))
    print(name, "wrong sizes", end=": ")
    W(lambda: f(*args, out=tuple(torch.empty(5, dtype=t.dtype) for t in r)))
Q, R = torch.empty(0), torch.empty(0)
res = torch.linalg.qr(S, mode="complete", out=(Q, R))
print(res.Q is Q, res.R is R, Q.shape, R.shape)
"""

PROGRAMS["forward_ad"] = _PRELUDE + """
import torch.autograd.forward_ad as fwAD
for f in (lambda x: torch.linalg.det(x, out=torch.empty(0)), lambda x: torch.linalg.inv(x, out=torch.empty(0)),
          lambda x: torch.fft.fft(x, out=torch.empty(0, dtype=torch.complex64)),
          lambda x: torch.fft.irfft(x, out=torch.empty(0)), lambda x: torch.linalg.norm(x, out=torch.empty(0)),
          lambda x: torch.linalg.qr(x, out=(torch.empty(0), torch.empty(0)))[0]):
    with fwAD.dual_level():
        d = fwAD.make_dual(A, torch.ones(3, 3))
        try:
            r = f(d)
            print("ok", r, fwAD.unpack_dual(r).tangent)
        except Exception as e:
            print(type(e).__name__, e)
"""

PROGRAMS["vmap"] = _PRELUDE + """
B = A.expand(2, 3, 3)
for f in (lambda x: torch.linalg.norm(x, out=torch.empty(0)), lambda x: torch.linalg.matrix_norm(x, out=torch.empty(0)),
          lambda x: torch.linalg.matrix_norm(x, 2, out=torch.empty(0)),
          lambda x: torch.linalg.multi_dot([x, x], out=torch.empty(0)),
          lambda x: torch.linalg.matrix_power(x, 2, out=torch.empty(0)),
          lambda x: torch.linalg.qr(x, out=(torch.empty(0), torch.empty(0))),
          lambda x: torch.linalg.inv(x, out=torch.empty(0)), lambda x: torch.linalg.vecdot(x, x, out=torch.empty(0)),
          lambda x: torch.fft.ifft2(x, out=torch.empty(0, dtype=torch.complex64)),
          lambda x: torch.fft.irfft(x, out=torch.empty(0))):
    E(lambda: torch.vmap(f)(B))
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_out_matches_torch(name: str) -> None:
    same_as_torch(PROGRAMS[name])
