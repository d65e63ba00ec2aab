"""The changes of #8 round 32 (bench/PROFILE.md).

1. ``Tensor.numpy()`` reads its array's dtype once: the bfloat16, complex32 and conjugate refusals are looked at only
   for a dtype of NumPy kind "c" or "V" (W4's and W1's ``_take_grads`` call it per leaf and step).
2. ``nn.functional._int_dim`` (softmax / log_softmax, W1's cross-entropy) and ``derivatives._softmax_grad`` (their
   backward) no longer import a module on every call.
3. ``_float_math.sleef_expf`` clamps with ``np.maximum`` / ``np.minimum`` instead of ``ndarray.clip`` (which runs
   NumPy's Python wrapper); the same bits, NaN, infinities and -0.0 included.
4. ``derivatives._times_conj`` (MulBackward0) multiplies a gradient by a saved Python float through
   ``mul.run_number`` itself, under ``_ops.mul``'s fast-path conditions, not through ``Tensor.__mul__``.
"""
from __future__ import annotations

import builtins
import sys

import numpy as np
from parity import same_as_torch

import minigrad
from minigrad import _dtypes, _float_math


def _imports_during(monkeypatch, fn) -> list:
    """The modules minigrad's import statements ask for while ``fn()`` runs."""
    seen = []
    real = builtins.__import__

    def spy(name, globals=None, locals=None, fromlist=(), level=0):
        if (globals or {}).get("__name__", "").startswith("minigrad"):
            seen.append((globals["__name__"], name, fromlist))
        return real(name, globals, locals, fromlist, level)

    monkeypatch.setattr(builtins, "__import__", spy)
    try:
        fn()
    finally:
        monkeypatch.setattr(builtins, "__import__", real)
    return seen


def _python_calls_during(fn) -> list:
    """(file name, function name) of every Python function called while ``fn()`` runs."""
    calls = []
    sys.setprofile(lambda frame, event, arg: event == "call" and calls.append(
        (frame.f_code.co_filename.rsplit("/", 1)[-1], frame.f_code.co_name)))
    try:
        fn()
    finally:
        sys.setprofile(None)
    return calls


def test_numpy_of_a_float_tensor_skips_the_other_dtypes_tests(monkeypatch):
    t, z = minigrad.ones(3), minigrad.zeros(2, dtype=minigrad.complex64)
    calls = []
    real = _dtypes.is_complex32
    monkeypatch.setattr(_dtypes, "is_complex32", lambda d: calls.append(d) or real(d))
    a = t.numpy()
    assert calls == []   # (fails before the change: one is_complex32 per call)
    assert np.shares_memory(a, t._data) and a.dtype == np.float32
    z.numpy()
    assert len(calls) == 1


def test_numpy_refusals_as_pytorch():
    same_as_torch("""
for dt in (torch.float32, torch.float64, torch.float16, torch.int64, torch.bool, torch.complex64, torch.bfloat16,
           torch.complex32):
    E(lambda: print(torch.zeros(2, dtype=dt).numpy()))
    E(lambda: print(torch.zeros(2, dtype=dt).numpy(force=True)))
z = torch.tensor([1 + 2j, 3 - 1j]).conj()
E(lambda: print(z.numpy()))
print(z.numpy(force=True))
E(lambda: torch.ones(2, requires_grad=True).numpy())
print(torch.ones(2, requires_grad=True).numpy(force=True))
E(lambda: torch.ones(2).numpy(force=1))
""")


def test_softmax_calls_import_nothing(monkeypatch):
    x = minigrad.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -3.0]], requires_grad=True)
    target = minigrad.tensor([2, 0])

    F = minigrad.nn.functional

    def step():   # (the functional forms: the methods x.softmax(1) import nn.functional, _ops_math.softmax)
        loss = F.cross_entropy(x, target) + F.softmax(x, 1).sum() + F.log_softmax(x, -1).sum()
        loss.backward()

    step()   # (first calls may import what they use once)
    assert _imports_during(monkeypatch, step) == []   # (fails before the change: _int_dim and _softmax_grad import)


def test_softmax_and_cross_entropy_as_pytorch():
    # the dims _int_dim takes and refuses, and the gradients through softmax / log_softmax (0-dim included)
    same_as_torch("""
x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -3.0]], requires_grad=True)
target = torch.tensor([2, 0])
loss = torch.nn.functional.cross_entropy(x, target) + x.softmax(1).sum() + x.log_softmax(torch.tensor(-1)).sum()
loss.backward()
print(loss, x.grad)
s = torch.tensor(1.5, requires_grad=True)
s.log_softmax(0).backward()
print(s.grad)
for d in (1.0, True, None, 'a', torch.tensor(1.0)):
    E(lambda: print(torch.nn.functional.softmax(x, d)))
    E(lambda: print(torch.nn.functional.log_softmax(x, d)))
""")


def test_sleef_expf_calls_no_python_function():
    # (ndarray.clip calls NumPy's Python _methods._clip, found once by its C code: a profile function sees it)
    d = np.linspace(-5, 5, 7, dtype=np.float32)
    calls = _python_calls_during(lambda: _float_math.sleef_expf(d))
    assert [name for _, name in calls] == ["<lambda>", "sleef_expf"]   # (fails before the change: _clip too)


def test_sleef_expf_bits_as_pytorch_log_softmax():
    # sleef_expf serves float32 softmax / log_softmax (PyTorch's kernels call SLEEF's expf_u10): rows with NaN,
    # infinities, -0.0, values past the clamp (±110) and ordinary ones, forward and backward, bit for bit
    same_as_torch("""
import numpy as np
rng = np.random.default_rng(32)
rows = np.concatenate([
    np.array([[0.25, 1.0, 2.0, 3.0], [np.inf, 0.0, -1.0, 2.0], [-np.inf, 0.0, -0.0, 1.0], [-200.0, 0.0, 1.0, 2.0],
              [111.0, -111.0, 110.0, -110.0], [88.73, -103.9, -104.0, 0.5], [1e-30, -1e-30, 3e38, -3e38]],
             np.float32),
    (rng.standard_normal((64, 4)) * 40).astype(np.float32)])
x = torch.tensor(rows.tolist(), dtype=torch.float32, requires_grad=True)
for f in (torch.nn.functional.softmax, torch.nn.functional.log_softmax):
    y = f(x, 1)
    g, = torch.autograd.grad(y, x, torch.ones_like(y))
    print(y.detach().view(torch.int32).tolist(), g.view(torch.int32).tolist())
print(torch.nn.functional.cross_entropy(x[7:], torch.tensor([1, 3] * 32)).item())
# (a NaN row: NaN everywhere, compared as NaN; its bits differ from PyTorch's before and after this round)
print(torch.nn.functional.log_softmax(torch.tensor([[float("nan"), 1.0, 2.0]]), 1).isnan().tolist())
""")
    assert _float_math.sleef_expf(np.float32(-0.0)).shape == ()


def test_mul_by_a_number_backward_skips_the_operator():
    # MulBackward0 of ``x * 1.0001`` multiplies the gradient by its saved number through mul's number op directly
    x = minigrad.tensor([0.5, -1.5, 2.0], requires_grad=True)
    y = (x * 1.0001 * 3.5).sum()
    calls = _python_calls_during(y.backward)
    assert calls.count(("_dispatch.py", "run_number")) == 2
    assert ("_tensor.py", "__mul__") not in calls and ("_ops.py", "mul") not in calls   # (fails before the change)


def test_mul_by_a_number_gradients_as_pytorch():
    # float32/float64 take the direct path; float16 (PyTorch multiplies by the number in float32), complex, integer
    # numbers, create_graph (the product recorded), forward AD and a node called by hand do not or still record
    same_as_torch("""
for dt in (torch.float32, torch.float64, torch.float16, torch.complex64):
    x = torch.tensor([0.5, -1.5, 2.0, 1e-3], dtype=dt, requires_grad=True)
    y = x * 1.0001 * 3.3 * 2
    v = (torch.ones_like(y) * 0.7).requires_grad_()
    g, = torch.autograd.grad(y, x, v, create_graph=True)
    print(dt, g, g.grad_fn.name(), g.grad_fn._saved_other, g.dtype)
    gg, = torch.autograd.grad(g.real.sum() if dt.is_complex else g.sum(), v)
    print(gg)
    z = x.detach().requires_grad_() * 1e38 * 1e10
    z.sum().abs().backward(retain_graph=True)
    print(z.grad_fn(torch.ones_like(z)), z.grad_fn.next_functions[0][0](torch.ones_like(z)))
x = torch.tensor([0.5, -1.5], requires_grad=True)
y = x * 2.5
print(y.grad_fn(torch.tensor([1.0, 2.0], dtype=torch.float64)), y.grad_fn(torch.tensor([3.0, 4.0]))[0].requires_grad)
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1.0, 2.0], requires_grad=True), torch.tensor([0.5, 0.25]))
    out = d * 1.5
    g, = torch.autograd.grad(out.sum(), d, create_graph=True)
    print(fwAD.unpack_dual(out).tangent, g, fwAD.unpack_dual(g).tangent)
""")
