"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py) found in session 11's second wave.

Further seeds of the generators widened in session 11 (tensor family ``_Gen.s11`` from seed 124000, nn family
``_NNGen.op11`` from seed 130000). Each program prints what a user sees (values, strides, graph node names, saved
tensors, errors) and runs once with minigrad and once with PyTorch (``parity.same_as_torch``); each is a short
explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import WALK, same_as_torch

PROGRAMS = {
    # fixed: is_contiguous(memory_format=channels_last) of an empty tensor follows c10's walk (a size-0 dim makes
    # the expected stride 0) on PyTorch's strides, not NumPy's 0s; so contiguous(memory_format=) of such a tensor
    # is the tensor itself, not a CloneBackward0 copy (seed 124000); empty_strided keeps the strides asked for
    "empty_channels_last_contiguous": """
x = torch.ones(1, 0, 1, requires_grad=True) * 2
for t in (x.unsqueeze(0), x.unsqueeze(-1), torch.ones(2, 0, 3, 1) * 1, torch.ones(2, 3, 0, 4).permute(0, 2, 3, 1),
          torch.ones(0, 2, 3, 4)[:, :, :, :1], torch.ones(1, 2, 2, 0).transpose(1, 3)):
    y = t.contiguous(memory_format=torch.channels_last)
    y5 = t.unsqueeze(0).contiguous(memory_format=torch.channels_last_3d)
    # (not the strides of the results: those of empty tensors are a KNOWN difference of the fuzzer)
    print(tuple(t.shape), t.is_contiguous(memory_format=torch.channels_last), y is t,
          y.grad_fn is not None and type(y.grad_fn).__name__, y5 is t)
for shape, stride in (((2, 0, 3, 1), (0, 1, 0, 0)), ((2, 0, 3, 1), (3, 1, 1, 0)), ((1, 0, 1, 1), (0, 0, 0, 5)),
                      ((2, 3, 0, 4), (12, 1, 12, 3))):
    e = torch.empty_strided(shape, stride)
    print(e.stride(), e.is_contiguous(), e.is_contiguous(memory_format=torch.channels_last),
          e.contiguous(memory_format=torch.channels_last) is e)
""",
    # fixed: linalg.lstsq's backward is one formula for A and B (PyTorch's linalg_lstsq_backward): A's
    # pseudo-inverse is computed once, so under create_graph a single LinalgPinvBackward0 feeds both gradients
    # (minigrad had one per input) (seed 124293); also through the residuals
    "lstsq_backward_one_pinv": """
b = torch.tensor([[0.3, -0.7], [1.1, 0.4]], dtype=torch.float64, requires_grad=True)
for k in range(2):
    A = torch.tanh(b.flatten()[:2].outer(b.flatten()[-2:])) + torch.tensor([[2.45, 0.1], [0.3, 1.7]],
                                                                         dtype=torch.float64)
    B = b.flatten()[:1].reshape(1, 1).expand(2, 1) * 1 if k == 0 else b[0] * 3
    X = torch.linalg.lstsq(A, B).solution
    g, = torch.autograd.grad(X.sum(), [b], create_graph=True)
    print(g, walk(g.grad_fn))
    (g * g).sum().backward()
    print(b.grad)
    b.grad = None
T = torch.tensor([[1.5, 0.2], [0.3, 2.0], [0.1, -0.4]], dtype=torch.float64) + b[0]
r = torch.linalg.lstsq(T, b[1, :1].reshape(1, 1) * torch.tensor([[1.], [2.], [3.]], dtype=torch.float64),
                       driver='gelsd')
g, = torch.autograd.grad(r.solution.sum() + r.residuals.sum(), [b], create_graph=True)
print(r.residuals, g, walk(g.grad_fn))
(g * g).sum().backward()
print(b.grad)
""",
    # fixed: cummax/cummin's backward of an empty input returns that input itself (PyTorch's); the gradients'
    # versions PyTorch's formulas leave (2: zeros, then scatter_add_) were then written on the input, whose views
    # (split's outputs) then refused to be read (seed 124680)
    "cummax_empty_input_keeps_version": """
a = torch.zeros(3, 0, requires_grad=True)
for op in (torch.cummax, torch.cummin):
    v3 = a.cumsum(-1, dtype=torch.float64)
    v4, = torch.split(v3, 2, -1)
    v5, v6 = op(v4, 1)
    v5.sum().backward(retain_graph=True, inputs=[a])
    print(v3._version, v4._version, v4.is_leaf, type(v4.grad_fn).__name__, a.grad._version, a.grad.shape)
    a.grad = None
x = torch.tensor([[1., 3., 2.]], requires_grad=True)
v, i = torch.cummax(x * 1, 1)
v.sum().backward()
print(x.grad, x.grad._version)
""",
    # fixed: linalg.lstsq's shape checks: B is a vector only when 1-D or shaped as A without its last dim
    # (linalg_solve_is_vector_rhs), not whenever it has one dim less; after the driver check, the batch dims of A
    # and the as many leading dims of B broadcast, with the elementwise broadcast error (seeds 124546, 124800)
    "lstsq_shape_checks": """
for sa, sb in [((3, 4, 4), (4, 4)), ((3, 4, 4), (2, 4, 4)), ((3, 4, 4), (3, 5)), ((3, 4, 4), (3, 4)),
               ((3, 4, 4), (2, 5)), ((3, 4, 4), (2, 5, 4)), ((3, 4, 4), (2, 4, 3)), ((3, 4, 4), (1, 4, 2)),
               ((2, 3, 4, 4), (3, 4, 2)),
               ((2, 3, 4, 4), (3, 4)), ((2, 3, 4, 4), (1, 3, 5)), ((5, 4), (4,)), ((5, 4), (5,)), ((5, 4), (4, 3)),
               ((1, 5, 4), (3, 5)), ((3, 1, 5, 4), (2, 5, 2)), ((0, 5, 4), (3, 5)), ((2, 4, 3), (4, 3))]:
    for driver in (None, 'gelsd', 'bad'):
        A = torch.ones(sa, dtype=torch.float64) + torch.eye(sa[-2], sa[-1], dtype=torch.float64)
        E(lambda: print(sa, sb, torch.linalg.lstsq(A, torch.ones(sb, dtype=torch.float64), driver=driver).solution))
""",
    # fixed: linalg.solve's backward is one formula for A and B (PyTorch's linalg_solve_backward): gB = A⁻ᴴgX is
    # solved once, so under create_graph a single LinalgSolveExBackward0 feeds both gradients (seed 124972)
    "solve_backward_one_solve": """
b = torch.tensor([[0.3, -0.7], [1.1, 0.4]], dtype=torch.float64, requires_grad=True)
for left, vector in ((True, False), (False, False), (True, True)):
    A = torch.nn.functional.softsign(b.t()) + torch.tensor([[2.45, 0.1], [0.3, 1.7]], dtype=torch.float64)
    B = torch.linalg.pinv(b.tanh())
    B = B[0] if vector else B
    X = torch.linalg.solve(A, B, left=left)
    g, = torch.autograd.grad(X.sum(), [b], create_graph=True)
    print(g, walk(g.grad_fn))
    (g * g).sum().backward()
    print(b.grad)
    b.grad = None
A = torch.tensor([[2., 1.], [0.5, 3.]], requires_grad=True)
B = torch.tensor([[1.], [2.]], requires_grad=True)
for wrt in ([A], [B], [A, B]):
    gs = torch.autograd.grad(torch.linalg.solve(A, B).sum(), wrt, create_graph=True)
    print([(g, walk(g.grad_fn)) for g in gs])
""",
    # fixed: torch.norm reads input.layout first (PyTorch's is Python code): a non-tensor's AttributeError names
    # 'layout' (seed 125033, torch.norm of a gradient autograd.grad left None)
    "norm_of_non_tensor": """
for x in (None, [1., 2.], 3.0, 'ab'):
    E(lambda: torch.norm(x))
    E(lambda: torch.norm(x, -float('inf'), None, False))
""",
    # fixed: Adam/AdamW take Tensor betas (PyTorch's: both Tensors, 1-element, kept as 0-dim); the update rounds
    # as PyTorch's tensor arithmetic on them does (β1 cast to the parameter's dtype, β2 and the bias corrections
    # in the betas' dtype), bit for bit; and the errors for mixed, multi-element or foreach Tensor betas
    "adam_tensor_betas": """
import numpy as np
def run(cls, dtype, betas, lr=0.01, **kw):
    p = torch.tensor(np.array([[0.3, -1.2, 2.5], [1.7, -0.4, 0.9]]), dtype=dtype, requires_grad=True)
    o = cls([p], lr=lr, betas=betas, **kw)
    for _ in range(4):
        o.zero_grad()
        (p.abs() ** 3).sum().backward()
        o.step()
    st = o.state[p]
    print(p.detach().numpy().tobytes().hex()[:64], st['exp_avg'].numpy().tobytes().hex()[:32],
          st['exp_avg_sq'].numpy().tobytes().hex()[:32], o.param_groups[0]['betas'])
for cls in (torch.optim.Adam, torch.optim.AdamW):
    for dtype in (torch.float32, torch.float64, torch.complex64):
        run(cls, dtype, (torch.tensor(0.9), torch.tensor(0.999)))
    run(cls, torch.float64, (torch.tensor([0.8]), torch.tensor([[0.99]])), amsgrad=True)
    run(cls, torch.float32, (torch.tensor(0.85, dtype=torch.float64), torch.tensor(0.995, dtype=torch.float64)))
    run(cls, torch.float64, (torch.tensor(0.9), torch.tensor(0.999)), lr=torch.tensor(0.05), weight_decay=0.1)
    run(cls, torch.float64, (0.9, 0.999))
    p = torch.zeros(2, requires_grad=True)
    E(lambda: cls([p], betas=(torch.tensor(0.9), 0.999)))
    E(lambda: cls([p], betas=(torch.tensor([0.9, 0.8]), torch.tensor(0.999))))
    E(lambda: cls([p], betas=(torch.tensor(0.9), torch.tensor([0.9, 0.8]))))
    E(lambda: cls([p], betas=(torch.tensor(0.9), torch.tensor(0.999)), foreach=True))
    E(lambda: cls([p], betas=(torch.tensor(1.5), torch.tensor(0.999))))
""",
    # fixed: einsum's operands must be Tensors (its C++ parser's TypeError, before the equation is read); a None
    # operand (a gradient autograd.grad left None) gave an AttributeError (seed 125572)
    "einsum_non_tensor_operand": """
x = torch.ones(2)
for args in [('i,i', x, None), ('i,i', [x, None]), ('i', None), ('i,i', x, 3), ('i', [None]), ('i,i', x, 2.5),
             ('i,i', (x, 'a')), ('ij', None), ('i,i', x, [1., 2.]), ('i,i->', x, x * 2)]:
    E(lambda: print(torch.einsum(*args)))
""",
    # fixed: angle of complex numbers is atan2(imag, real) as PyTorch's kernel computes it (glibc's atan2f on a
    # tensor's last n % 8 elements, SLEEF's atan2 on blocks of 8), not np.angle, whose float32 atan2 rounds
    # differently (seed 125693: a 1-ulp difference grown to 0.015 through a matrix product). Here the cases
    # computed exactly: small complex64 tensors (glibc's path) and complex128 (SLEEF's double atan2 is minigrad's)
    "complex_angle_bits": """
import numpy as np
rng = np.random.default_rng(5)
for shape in ((3,), (1, 3), (2, 3), (7,)):
    z = (rng.standard_normal(shape) + 1j * rng.standard_normal(shape)).astype(np.complex64)
    t = torch.tensor(z, requires_grad=True)
    a = t.angle()
    print(a.detach().numpy().tobytes().hex(), a.grad_fn.name())
z = (rng.standard_normal((6, 7)) + 1j * rng.standard_normal((6, 7)))
for t in (torch.tensor(z), torch.tensor(z)[:, ::2], torch.tensor(z)[1:]):
    print(t.angle().numpy().tobytes().hex())
""",
    # fixed: complex64 cross products round each real product of a complex product (c10::complex's formula), so
    # x × x is exactly 0 as in PyTorch (np.cross's complex64 multiply left 7e-9j; seed 124237: the sign of
    # that zero then reached the double backward's saved values)
    "complex64_cross_bits": """
import numpy as np
rng = np.random.default_rng(7)
a = (rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))).astype(np.complex64)
b = (rng.standard_normal((4, 3)) + 1j * rng.standard_normal((4, 3))).astype(np.complex64)
x, y = torch.tensor(a, requires_grad=True), torch.tensor(b)
for r in (torch.linalg.cross(x, y), torch.linalg.cross(x, x), torch.cross(x.mT, y.mT, dim=0), x.cross(y[:1], dim=-1)):
    print(r.detach().numpy().tobytes().hex(), r.stride())
v = torch.linalg.cross(x / 3, x / 3, dim=-1)
g, = torch.autograd.grad(v.abs().sum(), [x], create_graph=True)
print(v, g)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    same_as_torch(WALK + PROGRAMS[name])


# fixed: AccumulateGrad's layout-contract warning for an empty leaf (a size-1 dim with stride 0 breaks the contract;
# minigrad's shortcut compared NumPy's all-0 strides and said nothing) (seed 124675). PyTorch warns once per
# process: the program runs in a fresh one.
LAYOUT_WARNING = """import torch
import warnings
def run(make):
    a = make()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        (a * 1).sum().backward()
        (a * 2).sum().backward()
    print([str(w.message).split(' (Triggered')[0] for w in caught], a.grad.stride(), a.grad.shape)
run(lambda: torch.zeros(2, 0, 3, requires_grad=True))
run(lambda: torch.zeros(1, 0, requires_grad=True))
run(lambda: torch.empty_strided((1, 0), (0, 0), requires_grad=True))
run(lambda: torch.zeros(1, 0, requires_grad=True))
"""


def test_empty_leaf_layout_warning_in_a_fresh_process():
    import json
    import os
    import subprocess
    import sys
    pytest.importorskip("torch")
    here = os.path.dirname(os.path.abspath(__file__))
    script = (f"import json, sys\nsys.path[:0] = [{here!r}, {os.path.dirname(here)!r}]\n"
              "from parity import run_both\nimport test_parity_fuzz_fixes11b as m\n"
              "print(json.dumps(run_both(m.LAYOUT_WARNING)))\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    ours, theirs = json.loads(done.stdout.splitlines()[-1])
    assert "layout contract" in theirs
    assert ours == theirs
