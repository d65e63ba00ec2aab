"""Last-bit parity of common reductions with PyTorch (session 14, OpInfo leftovers), compared live with torch.

- vector norms of order p other than 0, 1, 2, ±inf: NormOps adds glibc's ``pow(|x|, p)`` one value at a time in
  the iterator's order, then ``pow(sum, 1/p)`` (NumPy's SIMD power rounds otherwise); a 0-dim input reduced over
  dim 0 goes through that kernel too (not |x| itself);
- var / std: one result is std_var_all_cpu's two passes (mean, then Σ(x - mean)² in double), several results
  WelfordOps per result in the iterator's order; complex = var(real) + var(imag) (std: VML's sqrt of that);
- var_mean / std_mean: always Welford, the mean being Welford's running mean;
- float64 hypot: SLEEF's hypot on the vector blocks, glibc's on the tail.
"""
from __future__ import annotations

import io

import pytest
from parity import same_as_torch, torch_or_skip

# exact float64 bits of every value of a tensor (complex as (real, imag) pairs)
PRELUDE = """import torch
def B(t):
    t = t.detach().resolve_conj()
    t = torch.view_as_real(t) if t.is_complex() else t
    return [float(v).hex() for v in t.double().reshape(-1).tolist()]
"""


def _sample_lines(label, dtype, indices):
    torch_or_skip()
    import opinfo_sweep
    op = opinfo_sweep.op_by_label(label)
    lines = []
    for i in indices:
        buf = io.StringIO()
        opinfo_sweep.sweep_op(op, [dtype], buf, only_sample=i)
        lines += buf.getvalue().splitlines()
    return lines


# (op, dtype, OpInfo sample indices that differed in the last bits before)
SAMPLES = [
    ("linalg.vector_norm", "float64", (9, 37, 79, 118)),
    ("linalg.vector_norm", "float32", (9, 41, 81, 127)),
    ("dist", "float64", (3, 17)),
    ("var", "float64", (0, 1, 5, 13)),
    ("var", "complex128", (0, 5)),
    ("std", "float64", (0, 1, 13)),
    ("std", "complex128", (1, 6)),
    ("var_mean", "float64", (0, 2, 6)),
    ("std_mean", "complex128", (0, 1, 9)),
    ("std_mean.unbiased", "float64", (0, 1)),
    ("hypot", "float64", (4, 5)),
]


@pytest.mark.parametrize("label,dtype,indices", SAMPLES, ids=[f"{s[0]}-{s[1]}" for s in SAMPLES])
def test_opinfo_samples_bit_exact(label, dtype, indices):
    assert _sample_lines(label, dtype, indices) == []


def test_p_norms_sum_glibc_pow_in_order():
    same_as_torch("""
torch.manual_seed(0)
for dt in (torch.float64, torch.float32):
    x = (torch.randn(4, 6, 5, dtype=dt) * 3).requires_grad_()
    for p in (3, 4, 0.5, -1.5, 6):
        print(B(torch.linalg.vector_norm(x, p)), B(torch.linalg.vector_norm(x, p, dim=1)))
        print(B(torch.linalg.vector_norm(x.transpose(0, 2), p, dim=(0, 1))), B(x.norm(p, dim=-1)))
        y = torch.linalg.vector_norm(x, p, dim=(0, 2))
        g, = torch.autograd.grad(y.sum(), x)
        print(B(g))
    s = torch.tensor(-4.826984902407649, dtype=dt, requires_grad=True)   # 0-dim, dim=0: the kernel runs
    for p in (6, 3, 2, 0.5, -2, float('inf')):
        y = torch.linalg.vector_norm(s, p, dim=0)
        g, = torch.autograd.grad(y, s)
        print(p, B(y), B(g), B(torch.linalg.vector_norm(s, p)))
print(B(torch.linalg.vector_norm(torch.tensor(1e200, dtype=torch.float64), 2, dim=0)))
""", PRELUDE)


def test_var_std_two_pass_and_welford():
    same_as_torch("""
torch.manual_seed(0)
for dt in (torch.float64, torch.float32, torch.complex128):
    x = torch.randn(7, 9, 11, dtype=dt) * 2 + 3
    for kw in ({}, {'dim': 1}, {'dim': (0, 2)}, {'dim': 0, 'correction': 0}, {'dim': (0, 1, 2)},
               {'dim': 2, 'correction': 1.5, 'keepdim': True}):
        print(B(torch.var(x, **kw)), B(torch.std(x, **kw)))
    xt = x.transpose(0, 2)
    print(B(torch.var(xt, 1)), B(torch.var(xt, (0, 1))), B(torch.std(xt)))
""", PRELUDE)


def test_var_mean_std_mean_are_welford():
    same_as_torch("""
torch.manual_seed(0)
for dt in (torch.float64, torch.float32, torch.complex128):
    x = torch.randn(6, 8, 5, dtype=dt) * 2 - 1
    for kw in ({}, {'dim': 1}, {'dim': (0, 2), 'keepdim': True}, {'dim': 0, 'correction': 0}):
        v, m = torch.var_mean(x, **kw)
        s, m2 = torch.std_mean(x, **kw)
        print(B(v), B(m), B(s), B(m2))
""", PRELUDE)


def test_hypot_float64_sleef_blocks_and_glibc_tail():
    same_as_torch("""
torch.manual_seed(0)
for s1, s2 in (((37,), (37,)), ((5, 33), (33,)), ((100,), ()), ((7, 9), (7, 1))):
    a = (torch.randn(s1, dtype=torch.float64) * 5).requires_grad_()
    b = (torch.randn(s2, dtype=torch.float64) * 5).requires_grad_()
    y = torch.hypot(a, b)
    ga, gb = torch.autograd.grad(y.sum(), (a, b))
    print(B(y), B(ga), B(gb))
""", PRELUDE)
