"""Session 15 (H): float16 and bfloat16 on PyTorch's own OpInfo samples (tests/opinfo_sweep.py --dtype float16).

PyTorch computes most CPU half-precision ops in float32 and rounds once ("opmath"), but not all: some kernels step
in the half type itself (every operation rounded to it), some differ between float16 and bfloat16, some refuse
half types. test_half_sample_parity runs PyTorch's own samples of a fixed list of (op, dtype) pairs that pass the
sweep (errors, dtypes, strides, bit-equal values, grad_fn names, gradients, method and in-place variants); the
focused tests below check one fix each, live against torch, on all of the op's samples and on larger inputs.
"""
from __future__ import annotations

import pytest
from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

# (op, dtype, how many samples): common ops of tutorials and mixed-precision code
CASES = [
    (op, dtype, 2)
    for op, dtype in (("mul", "float16"), ("div.no_rounding_mode", "bfloat16"), ("mm", "float16"),
                      ("mean", "bfloat16"), ("log_softmax", "float16"), ("softmax", "bfloat16"),
                      ("sigmoid", "float16"), ("rsqrt", "bfloat16"), ("addcmul", "float16"), ("var", "float16"),
                      ("cumsum", "bfloat16"), ("nn.functional.gelu", "bfloat16"), ("nn.functional.silu", "float16"),
                      ("nn.functional.linear", "bfloat16"), ("nn.functional.layer_norm", "float16"),
                      ("nn.functional.cross_entropy", "bfloat16"))
]


@pytest.mark.parametrize("label,dtype,n", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_half_sample_parity(label, dtype, n):
    assert _sweep(label, dtype, n) == []


def _sweep(label, dtype, max_samples=None):
    """The sweep's difference lines for (op, dtype) over its first ``max_samples`` samples (all by default)."""
    torch_or_skip()
    import opinfo_sweep
    n_run, lines = opinfo_sweep.sweep_lines(label, dtype, max_samples)
    assert n_run > 0
    return lines


# Deterministic inputs, the same bits in both libraries: exact float32 arithmetic on integers, then one division
# (correctly rounded), rounded to the half type. V(n, a, m, s): n values in [-m/2, m/2)/s.
PRELUDE = ERROR_PRELUDE + """
def V(n, a, m, s, dtype):
    return ((((torch.arange(n, dtype=torch.float32) * a) % m) - m // 2) / s).to(dtype)
def B(t):
    return t.detach().float().tolist()
"""


# ---- one test per fix -----------------------------------------------------------------------------------------

@pytest.mark.parametrize("fn", ["huber_loss", "smooth_l1_loss"])
def test_huber_and_smooth_l1_half_kernels(fn):
    """Forward and backward of the two losses in float16/bfloat16: each kernel either computes in float32 and
    rounds once or steps in the half type (Huber: float16 in float32, bfloat16 stepwise, its backward stepwise for
    both; smooth L1 the other way round, its backward in float32), with the vector/scalar tail split."""
    same_as_torch(f"""
for dtype in (torch.float16, torch.bfloat16):
    x = V(100, 37, 101, 4.0, dtype).requires_grad_()
    t = V(100, 53, 97, 5.0, dtype)
    g = V(100, 29, 89, 31.0, dtype)
    for param in (8.698115367693557, 1.0, 0.37):
        for reduction in ('none', 'mean', 'sum'):
            x.grad = None
            out = torch.nn.functional.{fn}(x, t, reduction=reduction, **{{'delta' if '{fn}' == 'huber_loss' else
                                                                            'beta': param}})
            out.backward(g if reduction == 'none' else g[0])
            print(dtype, param, reduction, B(out), B(x.grad))
""", PRELUDE)
    for dtype in ("float16", "bfloat16"):
        assert _sweep(f"nn.functional.{fn}", dtype) == []


def test_elementwise_backward_kernels_compute_half_in_float32():
    """elu/celu/selu, mish, softplus backward of float16/bfloat16: the float32 kernel, rounded once."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16):
    x = V(80, 37, 101, 9.0, dtype).requires_grad_()
    g = V(80, 29, 89, 13.0, dtype)
    for f in (torch.nn.functional.elu, torch.nn.functional.selu, lambda v: torch.nn.functional.celu(v, 0.7),
              torch.nn.functional.mish, torch.nn.functional.softplus,
              lambda v: torch.nn.functional.softplus(v, 2.0, 3.0)):
        x.grad = None
        f(x).backward(g)
        print(dtype, B(x.grad))
""", PRELUDE)
    for label in ("nn.functional.elu", "nn.functional.mish", "nn.functional.softplus"):
        assert _sweep(label, "float16") == _sweep(label, "bfloat16") == []


def test_binary_cross_entropy_backward_steps_in_the_half_type():
    """PyTorch's kernel computes g·(x - y)/max((1 - x)·x, ε) in the half type itself, ε too (bfloat16's
    arithmetic was widened to float32 by NumPy); the mean's division by the count is a float32 Scalar op."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16):
    x = ((V(60, 37, 101, 1.0, torch.float32) + 51) / 103).to(dtype).requires_grad_()
    y = ((V(60, 53, 97, 1.0, torch.float32) + 49) / 99).to(dtype)
    w = ((V(60, 29, 89, 1.0, torch.float32) + 45) / 30).to(dtype)
    for reduction in ('none', 'mean', 'sum'):
        for weight in (None, w):
            x.grad = None
            torch.nn.functional.binary_cross_entropy(x, y, weight=weight, reduction=reduction).sum().backward()
            print(dtype, reduction, B(x.grad))
""", PRELUDE)
    assert _sweep("nn.functional.binary_cross_entropy", "bfloat16") == []


def test_deg2rad_rad2deg_half_read_the_constant_in_float32():
    """A product with a Scalar: for float16/bfloat16 the constant π/180 is read in float32, the product rounded
    once (it was rounded to the half type first)."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    x = V(200, 37, 1001, 3.0, dtype)
    print(dtype, B(x.deg2rad()), B(torch.rad2deg(x)), B(x.clone().deg2rad_()))
""", PRELUDE)
    for dtype in ("float16", "bfloat16"):
        assert _sweep("deg2rad", dtype) == _sweep("rad2deg", dtype) == []


def test_bessel_i1_backward_refuses_half_types():
    """i1 and i1e have a half forward but no half backward kernel in PyTorch: NotImplementedError, as PyTorch."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    for f in (torch.special.i1, torch.special.i1e, torch.special.i0e, torch.i0):
        x = torch.tensor([0.5, 1.0, -2.0], dtype=dtype, requires_grad=True)
        y = f(x)
        E(lambda: y.sum().backward())
""", PRELUDE)


def test_rdiv_of_a_tensor_is_reciprocal_times_other():
    """Tensor.__rdiv__(self, other) is PyTorch's Python body self.reciprocal() * other for a tensor other too:
    a MulBackward0 node and two roundings (it ran div)."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16, torch.float32):
    a = V(30, 37, 101, 7.0, dtype).requires_grad_()
    b = V(30, 53, 97, 3.0, dtype).requires_grad_()
    out = a.__rdiv__(b)
    out.backward(V(30, 29, 89, 11.0, dtype))
    print(dtype, type(out.grad_fn).__name__, B(out), B(a.grad), B(b.grad))
""", PRELUDE)
    assert _sweep("__rdiv__", "float16") == []


def test_poisson_nll_loss_full_builds_stirlings_right_operand_first():
    """full=True: ½·log(2πy) is built before y·log y - y (GCC evaluates the right operand of ATen's `+` first),
    which decides the order in which target's gradient sums its parts (any dtype; half types show it most)."""
    same_as_torch("""
for dtype in (torch.float16, torch.float32):
    x = V(64, 37, 101, 17.0, dtype)
    y = ((V(64, 53, 97, 1.0, torch.float32) + 49) / 9).to(dtype).requires_grad_()
    torch.nn.functional.poisson_nll_loss(x, y, log_input=True, full=True, reduction='none').backward(
        V(64, 29, 89, 11.0, dtype))
    print(dtype, B(y.grad))
""", PRELUDE)
    assert _sweep("nn.functional.poisson_nll_loss", "float16", 8) == []


def test_histc_half_counts_per_thread_in_the_half_type():
    """histc of float16/bfloat16: bins from half-type arithmetic, per-thread histograms in the half type (a
    bfloat16 count stops at 256 per thread), summed: same counts as PyTorch."""
    same_as_torch("""
for dtype in (torch.float16, torch.bfloat16):
    x = V(3000, 37, 1001, 83.0, dtype)
    print(dtype, B(torch.histc(x, 7, -1.3, 2.9)), B(torch.histc(x, 30)))
    print(B(torch.histc(torch.zeros(1000, dtype=dtype), 3, -1, 1)))
""", PRELUDE)
    assert _sweep("histc", "bfloat16", 30) == []
