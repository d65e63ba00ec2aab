"""Session 16 (task W): small cross-cutting fixes, each compared live with PyTorch.

1. The warnings PyTorch gives once per process (TORCH_WARN_ONCE) all repeat under ``torch.set_warn_always(True)``,
   without using up their once; torch.storage's TypedStorage warning (a Python flag of its own) does not.
2. Aliases and factory-made functions carry PyTorch's ``__name__`` (``torch.fix.__name__`` is "fix").
3. A tensor's memory handed to NumPy by ``.numpy()`` can no longer grow (``resize_``), as PyTorch's storage.
"""
from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
import warnings

from parity import fresh_warn_once, torch_or_skip

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _torch_fresh(program: str) -> str:
    """The output of ``program`` run with torch in a new process (its once-per-process warnings not yet given)."""
    out = subprocess.run([sys.executable, "-c", "import torch\n" + program], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    return out.stdout


def _minigrad_fresh(program: str, monkeypatch) -> str:
    """The output of ``program`` run with minigrad as torch, here, as in a new process (no warning given yet)."""
    import minigrad
    monkeypatch.setattr(minigrad._warn_once, "_WARNED", set())
    monkeypatch.setattr(minigrad._warn_once, "_warn_always", [False])
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(program, "<program>", "exec"), {"__name__": "__program__", "torch": minigrad})
    return buf.getvalue()


# ---- 1. warn-once warnings and torch.set_warn_always --------------------------------------------------------------

WARN_ONCE_PROGRAM = r'''
import warnings
import numpy as np
F = torch.nn.functional
CASES = {
    "scalar_first": lambda: torch.ones(2).add(2, torch.ones(2)),
    "sparse": lambda: torch.sparse_coo_tensor(torch.tensor([[0]]), torch.tensor([1.])),
    "same_pad": lambda: F.conv1d(torch.ones(1, 1, 5), torch.ones(1, 1, 2), padding="same"),
    "typed_storage": lambda: torch.ones(2).storage(),
    "frombuffer_ro": lambda: torch.frombuffer(b"abcd", dtype=torch.uint8),
    "ndarray_list": lambda: torch.tensor([np.ones(2), np.ones(2)]),
    "asarray": lambda: torch.asarray(torch.ones(2, requires_grad=True)),
    "not_writable": lambda: torch.from_numpy(np.lib.stride_tricks.as_strided(np.ones(2), writeable=False)),
    "complex_to_real": lambda: torch.ones(2, dtype=torch.complex64).float(),
    "index_reduce": lambda: torch.ones(3).index_reduce(0, torch.tensor([0]), torch.ones(1), "prod"),
    "stft": lambda: torch.stft(torch.ones(16), 4, return_complex=True),
    "T": lambda: (torch.tensor(1.).T, torch.ones(1, 1, 1).T),
    "meshgrid": lambda: torch.meshgrid(torch.ones(2), torch.ones(2)),
    "qr": lambda: torch.qr(torch.eye(2)),
    "cross": lambda: torch.cross(torch.ones(3), torch.ones(3)),
    "chain_matmul": lambda: torch.chain_matmul(torch.eye(2), torch.eye(2)),
    "scatter_reduce": lambda: torch.ones(3).scatter(0, torch.tensor([0]), torch.ones(1), reduce="add"),
    "where_uint8": lambda: torch.where(torch.ones(2, dtype=torch.uint8), torch.ones(2), torch.ones(2)),
    "norms": lambda: (torch.frobenius_norm(torch.ones(2, 2), dim=(0, 1)), torch.nuclear_norm(torch.ones(2, 2))),
    "create_graph": lambda: (torch.ones(1, requires_grad=True) * 2).sum().backward(create_graph=True),
    "scalar": lambda: float(torch.ones((), requires_grad=True)),
}
# warn_always on, off, off, on: on gives it every time without using up the once, so the first call with it off
# still warns and the second does not
for name, f in CASES.items():
    seen = []
    for always in (True, False, False, True):
        torch.set_warn_always(always)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            f()
        seen.append([(w.category.__name__, str(w.message)[:40]) for w in caught])
    print(name, seen)
'''


def test_warn_once_warnings_follow_set_warn_always(monkeypatch):
    torch_or_skip()
    mine = _minigrad_fresh(WARN_ONCE_PROGRAM, monkeypatch)
    theirs = _torch_fresh(WARN_ONCE_PROGRAM)
    assert mine == theirs
    assert "typed_storage [[('UserWarning', 'TypedStorage is deprecated. It will be r')], [], [], []]\n" in mine


def test_fresh_warn_once_gives_them_again_and_restores_the_state():
    torch = torch_or_skip()
    import minigrad
    for module in (minigrad, torch):   # (used up, as after an earlier test)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            module.chain_matmul(module.eye(2), module.eye(2))
    for _ in range(2):
        with fresh_warn_once():
            for module in (minigrad, torch):
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    module.chain_matmul(module.eye(2), module.eye(2))
                assert [str(w.message)[:32] for w in caught] == ["torch.chain_matmul is deprecated"], module
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # (used up again after the block)
        minigrad.chain_matmul(minigrad.eye(2), minigrad.eye(2))


# ---- 2. names of aliases and factory-made functions ---------------------------------------------------------------

def test_public_functions_carry_pytorchs_names():
    """``torch.fix.__name__`` is "fix" (not "trunc"), ``x.acos_`` is named "acos_" (not the factory's "inplace"),
    and ``print(F.max_pool2d)`` shows PyTorch's boolean_dispatch closure: every public callable of the namespaces
    both have, with PyTorch's ``__name__`` (and no factory's ``<locals>`` in a ``__qualname__`` PyTorch lacks)."""
    torch = torch_or_skip()
    import minigrad
    namespaces = [(torch, minigrad), (torch.Tensor, minigrad.Tensor), (torch.nn.functional, minigrad.nn.functional),
                  (torch.linalg, minigrad.linalg), (torch.special, minigrad.special), (torch.fft, minigrad.fft),
                  (torch.autograd, minigrad.autograd)]
    differ, checked = [], 0
    for theirs, mine in namespaces:
        for name in dir(theirs):
            if name.startswith("_") or not hasattr(mine, name):
                continue
            a, b = getattr(theirs, name), getattr(mine, name)
            if not callable(a) or isinstance(a, type) or not callable(b):
                continue
            checked += 1
            if getattr(a, "__name__", None) != getattr(b, "__name__", None) or (
                    "<locals>" in b.__qualname__ and b.__qualname__ != a.__qualname__):
                differ.append((theirs.__name__, name, getattr(a, "__name__", None), b.__name__, b.__qualname__))
    assert differ == []
    assert checked > 1300
    x = minigrad.ones(2)
    assert (x.fix.__name__, x.absolute.__qualname__, minigrad.Tensor.fix(x).tolist()) == ("fix", "Tensor.absolute",
                                                                                          [1.0, 1.0])


# ---- 3. a storage handed to NumPy cannot grow ---------------------------------------------------------------------

def test_resize_after_numpy_refuses_to_grow():
    torch = torch_or_skip()
    import minigrad
    program = """
import numpy as np
def E(f):
    try:
        f()
        print('no error')
    except Exception as e:
        print(type(e).__name__, e)
t = torch.ones(2); a = t.numpy(); E(lambda: t.resize_(10))
t = torch.ones(2); t.numpy(); E(lambda: t.resize_(10)); E(lambda: t.resize_(1)); E(lambda: t.resize_(2))
t = torch.ones(4); v = t[:2]; a = v.numpy(); E(lambda: t.resize_(10))
t = torch.ones(4); a = t.numpy(); v = t[1:]; E(lambda: v.resize_(10))
t = torch.ones(2); np.exp(t); E(lambda: t.resize_(3, 3))
t = torch.ones(2); E(lambda: t.resize_(10)); print(t.shape)
"""
    outs = []
    for module in (minigrad, torch):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            exec(program, {"torch": module})
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
    assert outs[0].count("Trying to resize storage that is not resizable") == 5


# ---- 4. gradients of LAPACK results keep their layout ------------------------------------------------------------

LINALG_GRADS = """
L = torch.linalg
def mk(*shape, tri=False, spd=False):
    g = ((torch.arange(1., 1 + shape[0] * shape[-1], dtype=torch.float64) * 0.37).sin() + 0.1).reshape(shape)
    g = g @ g.mT + 3 * torch.eye(shape[-1], dtype=torch.float64) if spd else g
    g = g.tril() + 3 * torch.eye(shape[-1], dtype=torch.float64) if tri else g
    return g.detach().requires_grad_()
cases = {
    "solve_triangular": (lambda A, B: L.solve_triangular(A, B, upper=False), [mk(3, 3, tri=True), mk(3, 1)]),
    "solve_triangular_2": (lambda A, B: L.solve_triangular(A, B, upper=False), [mk(3, 3, tri=True), mk(3, 2)]),
    "solve": (lambda A, B: L.solve(A, B), [mk(3, 3, spd=True), mk(3, 1)]),
    "cholesky_solve": (lambda B, A: torch.cholesky_solve(B, A), [mk(3, 1), mk(3, 3, tri=True)]),
    "lu_solve": (lambda A, B: L.lu_solve(*L.lu_factor(A), B), [mk(3, 3, spd=True), mk(3, 1)]),
    "lstsq": (lambda A, B: L.lstsq(A, B).solution, [mk(4, 3), mk(4, 1)]),
    "multi_dot": (lambda A, B, C: L.multi_dot([A, B, C]), [mk(2, 3), mk(3, 4), mk(4, 1)]),
}
for name, (f, args) in cases.items():
    out = f(*args)
    out.sum().backward(retain_graph=True)
    first = [a.grad.clone() for a in args]
    out.sum().backward()   # (a gradient taken over must not share memory with anything the graph still uses)
    print(name, [a.grad.stride() for a in args], all(bool(torch.equal(a.grad, 2 * g)) for a, g in zip(args, first)))
"""


def test_linalg_gradients_keep_lapacks_layout():
    """solve_triangular's B.grad of shape (3, 1) has PyTorch's strides (1, 3): LAPACK's column-major result is
    taken as the gradient (the engine sees through the memoryview under _lapack's aligned buffers), not copied."""
    torch = torch_or_skip()
    import minigrad
    outs = []
    for module in (minigrad, torch):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            exec(LINALG_GRADS, {"torch": module})
        outs.append(buf.getvalue())
    assert outs[0] == outs[1]
    assert "solve_triangular [(3, 1), (1, 3)] True" in outs[0]
