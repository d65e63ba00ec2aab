"""Known differences from PyTorch left by earlier sessions, fixed in session 12; each program runs with minigrad and
with PyTorch (``parity.same_as_torch``) and must print the same.

1. Lazy conjugation (minigrad/_conj.py): ``x.conj()`` of a complex tensor is a view with the conjugate bit
   (``is_conj()``), sharing x's ``_base``, ``_version`` and memory (in-place writes go both ways, ``data_ptr``,
   strides, storage offset); ``resolve_conj()`` copies (CloneBackward0), ``numpy()`` and ``view_as_real`` refuse it;
   views of it keep the bit, results of ops do not; ``x.mH``/``x.adjoint()`` are conj views too; an in-place op on
   it writes the base under autograd (CopySlices, ConjBackward0 regenerated); gradients and tangents as PyTorch's.
2. Inference tensors: conj of an inference tensor is an inference conj view; unsafe_split/unsafe_chunk of an
   inference tensor give inference tensors, and of a normal tensor inside inference mode give its views (each with
   a version counter of its own).
3. ``_version`` of results of inference tensors used outside inference mode: logical ops, isinf family, isreal,
   nonzero/argwhere, any/all, flip over no dim, rounding of integers, nan_to_num, det, inv (and inv_ex's info).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS: dict[str, str] = {}

_SHOW = """
def show(name, t):
    try:
        v = t._version
    except Exception as e:
        v = type(e).__name__
    print(name, t.is_conj(), t.is_inference(), v, t.shape, t.stride(), t.storage_offset(), t.requires_grad,
          t.grad_fn.name() if t.grad_fn is not None else None)
"""

# ---- 1. lazy conjugation --------------------------------------------------------------------------------------------
PROGRAMS["conj_is_a_view"] = _SHOW + """
x = torch.tensor([1+2j, 3-4j, -0.5+0j])
y = x.conj()
show("y", y)
print(y, y._base is x, y.data_ptr() == x.data_ptr(), torch.is_conj(y), x.is_conj())
r = torch.tensor([1.0, 2.0])
print(r.conj() is r, r.conj().is_conj(), r.resolve_conj() is r, x.resolve_conj() is x)
z = y.resolve_conj()
show("resolved", z)
print(z, z._base, z.data_ptr() == x.data_ptr())
for name, t in [("clone", y.clone()), ("detach", y.detach()), ("index", y[0]), ("slice", y[1:]),
                ("unsqueeze", y.unsqueeze(0)), ("view", y.view(3, 1)), ("contiguous", y.contiguous()),
                ("add", y + 1), ("mul", y * y), ("conj_physical", y.conj_physical()), ("conjconj", y.conj()),
                ("to", y.to(torch.complex128)), ("zeros_like", torch.zeros_like(y)), ("real", y.real),
                ("abs", y.abs())]:
    show(name, t)
print(y.contiguous() is y, y.conj()._base is x, y.conj().data_ptr() == x.data_ptr())
print(y.sum(), y.abs(), (y * 2).real, y.real, y.imag, y.tolist(), y[1].item())
E(lambda: y.numpy())
E(lambda: torch.view_as_real(y))
E(lambda: torch.view_as_real(y[1:]))
print(torch.view_as_real(y.resolve_conj()), y.resolve_conj().numpy().tolist())
"""

PROGRAMS["conj_shares_memory"] = _SHOW + """
x = torch.tensor([1+2j, 3-4j, 2j])
y = x.conj()
y.add_(1)
print(x, y, x._version, y._version)
x.mul_(2)
print(y, y._version)
y[0] = 5j
print(x)
x[1:].zero_()
print(y)
torch.add(x, 1j, out=y)
print(x, y)
y2 = y[1:]
y2.fill_(3 - 1j)
print(x, y2.is_conj())
x.copy_(torch.tensor([1j, 2j, 3j]))
print(y, y2)
w = y.conj()
w.sub_(1)
print(x, y, w, w.is_conj())
b = torch.tensor([[1+1j, 2-1j, 3j], [4, 5+5j, -6j]])
for name, t in [("T", b.t().conj()), ("row", b[1].conj()), ("mH", b.mH),
                ("adjoint", b.adjoint()), ("H", b.H)]:
    show(name, t)
    print(t, t._base is b, t.data_ptr() == b.data_ptr())
b.mH[0, 1] = 9j
print(b)
b.adjoint()[2].mul_(2)
print(b)
"""

PROGRAMS["conj_under_autograd"] = _SHOW + """
w = torch.tensor([[1+1j, 2-3j], [0.5j, 2]], requires_grad=True)
v = w.conj()
show("v", v)
E(lambda: w.conj().mul_(2))
E(lambda: w.mH.add_(1))
k = torch.tensor([[1+2j, 3j], [1, -1j]])
for name, make in [("conj", lambda a: a.conj()), ("mH", lambda a: a.mH), ("conjconj", lambda a: a.conj().conj())]:
    w.grad = None
    a = w * 1
    c = make(a)
    c.mul_(2j)
    print(name, a.grad_fn.name(), c.grad_fn.name(), c.is_conj(), a._version, c._version)
    print(a, c)
    (a * k).sum().abs().backward()
    print(w.grad)
w.grad = None
(w.conj() * k).sum().real.backward()
print(w.grad, w.grad.is_conj())
g, = torch.autograd.grad((w.conj() * 2).sum().real, w)
print(g, g.is_conj())
a = w * 1
a.retain_grad()
w.register_hook(lambda g: print("hook", g.is_conj()))
(a.conj() * k).sum().real.backward()
print(a.grad.is_conj(), w.grad.is_conj(), w.grad.resolve_conj())
with torch.no_grad():
    q = w.conj()
show("no_grad", q)
E(lambda: q.mul_(2))
"""

PROGRAMS["conj_forward_ad"] = """
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    t = torch.tensor([1+1j, 2-1j]).conj()
    d = fwAD.make_dual(torch.tensor([2+1j, 1j]), t)
    print(fwAD.unpack_dual(d).tangent.is_conj(), fwAD.unpack_dual(d).tangent)
    for name, f in [("exp", lambda: d.exp()), ("mul", lambda: d * d.conj()), ("sum", lambda: d.conj().sum())]:
        tangent = fwAD.unpack_dual(f()).tangent
        print(name, tangent.is_conj(), torch.view_as_real(tangent))
"""

# ---- 2. inference tensors -------------------------------------------------------------------------------------------
PROGRAMS["inference_conj_and_unsafe_split"] = _SHOW + """
with torch.inference_mode():
    z = torch.tensor([1+1j, 2, 3j, -1j])
    r = torch.arange(4.0)
n = torch.arange(4.0)
for mode in ("outside", "inside"):
    ctx = torch.inference_mode() if mode == "inside" else torch.no_grad()
    with ctx:
        show(mode + " z.conj", z.conj())
        show(mode + " z.mH", z.view(2, 2).mH)
        show(mode + " z.conj.resolve", z.conj().resolve_conj())
        for i, p in enumerate(z.unsafe_chunk(2)):
            show(mode + f" z.unsafe_chunk {i}", p)
        for i, p in enumerate(r.unsafe_split(3)):
            show(mode + f" r.unsafe_split {i}", p)
        for i, p in enumerate(torch.unsafe_split_with_sizes(r, [1, 3])):
            show(mode + f" r.unsafe_split_with_sizes {i}", p)
        for i, p in enumerate(n.unsafe_chunk(2)):
            show(mode + f" n.unsafe_chunk {i}", p)
            print(p._base is n)
E(lambda: z.conj().add_(1))
E(lambda: r.unsafe_chunk(2)[0].add_(1))
print(z, r)
with torch.inference_mode():
    c = z.conj()
    c.add_(1)
    p = n.unsafe_chunk(2)[1]
    p.mul_(2)
print(z, n, n._version)
"""

# ---- 3. _version of results of inference tensors used outside inference mode (_dispatch._INFERENCE_RESULT_VERSIONS)
PROGRAMS["inference_result_versions"] = """
dtypes = [torch.bool, torch.uint8, torch.int64, torch.float16, torch.bfloat16, torch.float32, torch.float64,
          torch.complex64]
def versions(f, x):
    with torch.inference_mode():
        x = x.clone()
    try:
        r = f(x)
    except Exception as e:
        return type(e).__name__
    return [(t._version, t.is_inference()) for t in (r if isinstance(r, (tuple, list)) else (r,))]
base = torch.tensor([[1.0, 0.0], [2.0, 3.0]])
fns = {
    "logical_and": lambda x: torch.logical_and(x, x), "logical_or": lambda x: x.logical_or(x),
    "logical_xor": lambda x: torch.logical_xor(x, x), "logical_not": torch.logical_not,
    "isinf": torch.isinf, "isnan": torch.isnan, "isposinf": torch.isposinf, "isneginf": torch.isneginf,
    "isfinite": torch.isfinite, "isreal": torch.isreal, "nonzero": torch.nonzero, "argwhere": torch.argwhere,
    "nonzero_tuple": lambda x: torch.nonzero(x, as_tuple=True), "flip0": lambda x: torch.flip(x, (0,)),
    "flip()": lambda x: torch.flip(x, ()), "fliplr": torch.fliplr, "nan_to_num": torch.nan_to_num,
    "floor": torch.floor, "ceil": torch.ceil, "round": torch.round, "trunc": torch.trunc, "fix": torch.fix,
    "det": torch.det, "linalg.det": torch.linalg.det, "inv": torch.linalg.inv, "inverse": torch.inverse,
    "inv_ex": torch.linalg.inv_ex, "any": lambda x: x.any(0), "all": lambda x: x.all(), "any_all": torch.any,
    "abs": torch.abs, "neg": torch.neg,
}
for name, f in fns.items():
    print(name, [versions(f, base.to(d)) for d in dtypes])
    print(name, "batched", versions(f, base.to(torch.float64).expand(3, 2, 2)))
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_leftover_matches_torch(name: str) -> None:
    same_as_torch(PROGRAMS[name])
