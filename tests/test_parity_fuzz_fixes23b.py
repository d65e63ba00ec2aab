"""Regressions of differences the graph fuzzer (tests/fuzz_graphs.py: tensor family ``_Gen.s14`` and the nn family)
found in session 23b.

Each program prints what a user sees (values, errors, warnings) and runs once with minigrad and once with PyTorch
(``parity.same_as_torch``); each is a short explicit form of the seed that found it.
"""
from __future__ import annotations

import pytest
from parity import fresh_warn_once, same_as_torch

PROGRAMS = {
    # fixed: z.copy_(z.real) reads the written elements in another dtype. PyTorch's overlap test (get_overlap_status)
    # calls that a partial overlap when both are non-overlapping and dense (one element: the real part's 8 bytes
    # inside the complex 16) and refuses it; with more elements the real view is not dense, the test is "too hard"
    # and the copy runs. minigrad took the same data pointer, shape and strides for the same elements (seed 223611)
    "copy_from_a_real_view_of_itself": """
import warnings
for n in (1, 2, 3):
    for f in (lambda z: z.copy_(z.real), lambda z: z.mul_(z.real), lambda z: z.add_(z.real, alpha=2),
              lambda z: z[:1].copy_(z.real[:1]), lambda z: z[::2].copy_(z[::2].real),
              lambda z: z.real.add_(z.real), lambda z: z.copy_(z.real.flip(0))):
        z = torch.tensor([1 + 2j, 3 + 4j, 5 - 1j][:n])
        E(lambda: f(z))
        print(z)
a = torch.tensor([0.5 + 1j, 2 - 1j], requires_grad=True)
v = a * (1 + 0.5j)
w = v[..., ::2]
E(lambda: w.copy_(w.real))
print(v.grad_fn.name(), v._version, v)
""",
    # fixed (beside seed 223611): z.real.copy_(z) is refused for one element before the complex-to-real cast warns
    # (TensorIterator's overlap check comes first); with two elements it warns and copies
    "complex_into_its_own_real_view_refused_before_the_cast_warning": """
import warnings
for n in (1, 2):
    z = torch.tensor([1 + 2j, 3 + 4j][:n])
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        E(lambda: z.real.copy_(z))
    print(n, [str(w.message)[:45] for w in seen], z)
""",
    # fixed: logsumexp has its own derivative, so VariableType collects a rebased unbind output's edge (and refuses
    # it) before the kernel checks dim: out of range, repeated, or [] without keepdim; no_grad keeps those errors and
    # the parser's TypeError comes first (seed 225467)
    "logsumexp_refuses_a_rebased_unbind_output_before_its_dim_errors": """
for grad in (True, False):
    for dim in ((2,), -3, [], 1.5, (0, 0), 0):
        a = torch.ones(2, 3, requires_grad=True)
        v3 = (a * 1).unbind(-1)[-1]
        with torch.no_grad():
            v3.add_(0.5)
        with torch.set_grad_enabled(grad):
            print(grad, dim, end=": ")
            E(lambda: torch.logsumexp(v3, dim))
""",
    # fixed: the flash attention kernel's logsumexp is empty((B, L, H)).transpose(1, 2), a size-1 head dim's stride
    # included; float64 (not emulated bit for bit) used ascontiguousarray, which keeps a size-1 dim's stride
    # (nn seed 206101: MultiheadAttention(...).double())
    "flash_attention_logsumexp_strides_with_one_head": """
for shape in ((2, 1, 2, 3), (1, 2, 3, 2), (2, 1, 1, 2), (1, 1, 3, 2)):
    for dt in (torch.float64, torch.float32):
        q = torch.linspace(-1, 1, 48, dtype=dt)[:torch.Size(shape).numel()].reshape(shape).requires_grad_()
        n = torch.nn.functional.scaled_dot_product_attention(q, q * 0.5, q + 1).grad_fn
        print(shape, dt, n.name(), n._saved_logsumexp.shape, n._saved_logsumexp.stride())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_fuzz_fix_matches_torch(name: str):
    with fresh_warn_once():
        same_as_torch(PROGRAMS[name])
