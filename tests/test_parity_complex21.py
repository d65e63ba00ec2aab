"""Session 21: complex autograd bit for bit, and the node order of complex second derivatives.

Each program runs once under minigrad and once under PyTorch and prints, for complex64 and complex128 inputs of
several lengths (PyTorch's kernels round vector blocks and scalar tails differently), the forward values and the
gradient for a complex ``grad_output`` (``tolist()``'s repr: every bit). The kernels are PyTorch's CPU ones:
c10/util/complex_math.h's expm1 and log1p, the vector log2/log10/acos, the sinc and sigmoid kernels, the
tanh_backward/sigmoid_backward kernels, the complex gemv loop (mv, addmv, addr's gradients), the prod reduction,
trace's double accumulator. The QR tests print the ``create_graph=True`` graph of the gradient (node names by
sequence number): PyTorch halves ``at::real`` / ``at::imag`` of a diagonal in place (view_as_real in the graph).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

# inputs: complex tensors of lengths around PyTorch's vector blocks (8 complex128 / 16 complex64 per loop step)
INPUTS = """
def z(n, dtype, scale=1.0, shift=0.0):
    re = torch.linspace(-1.3, 1.1, n, dtype=torch.float64) * scale + shift
    im = torch.linspace(0.9, -1.2, n, dtype=torch.float64).roll(n // 3) * scale
    return torch.complex(re, im).to(dtype)
def check(f, sizes=(5, 19, 37), scale=1.0, shift=0.0):
    for dtype in (torch.complex64, torch.complex128):
        for n in sizes:
            x = z(n, dtype, scale, shift).requires_grad_()
            y = f(x)
            print(dtype, n, repr(y.tolist()))
            g = torch.complex(torch.linspace(0.5, -0.7, y.numel()), torch.linspace(-0.2, 0.9, y.numel()))
            grad, = torch.autograd.grad(y, x, g.reshape(y.shape).to(y.dtype))
            print(repr(grad.tolist()))
"""

UNARY = {
    # c10's expm1: (expm1(x)·cos(y) - 2·sin(y/2)², e^x·sin(y)), glibc's functions, the real part fused
    "expm1": "torch.expm1",
    # c10's CPU log1p: log(u)·(z / (u - 1)), u = z + 1
    "log1p": "torch.log1p",
    # the vector log2/log10: log(z)'s parts divided by ln 2 / ln 10
    "log2": "torch.log2",
    "log10": "torch.log10",
    # complex128's vector acos: π/2 - asin(z)
    "acos": "torch.acos",
    # sin(πz)/(πz) with c10's division
    "sinc": "torch.sinc",
    # sigmoid: 1 / (1 + exp(-z)) with c10's division; sigmoid_backward's kernel g·conj((1 - y)·y)
    "sigmoid": "torch.sigmoid",
    # tanh_backward's kernel g·conj(1 - y²): vector blocks plain, the scalar tail with fused multiply-adds
    "tanh": "torch.tanh",
}


@pytest.mark.parametrize("name", sorted(UNARY))
def test_complex_unary_bits(name: str):
    # PyTorch runs these kernels on every element the same way (tanh/sigmoid's gradients: blocks, then a tail)
    same_as_torch(INPUTS + f"check({UNARY[name]}, scale=0.7)\n")


def test_complex_log1p_near_zero_and_expm1_small():
    # log1p's u == 1 and u - 1 == z cases, expm1 of tiny values
    same_as_torch(INPUTS + "check(torch.log1p, sizes=(7,), scale=1e-9)\ncheck(torch.expm1, sizes=(7,), scale=1e-6)\n"
                  "print(torch.log1p(torch.tensor([0j, 1e-30 + 0j, 1e-17j])).tolist())\n")


def test_tanh_sigmoid_backward_strided_and_transposed():
    # a strided gradient makes the scalar lambda run on every element, its pairs / runs of 4 carrying on across the
    # rows TensorIterator coalesces; rows of contiguous lines each have vector blocks and a tail; a transposed
    # (dense) pair is one loop in memory order
    same_as_torch(INPUTS + """
for dtype in (torch.complex64, torch.complex128):
    for f in (torch.tanh, torch.sigmoid):
        x = z(63, dtype).reshape(3, 21).requires_grad_()
        g = z(150, dtype, 0.5, 0.2).reshape(3, 50)
        print(repr(torch.autograd.grad(f(x), x, g[:, :42:2])[0].tolist()))
        print(repr(torch.autograd.grad(f(x), x, g[:, 3:24])[0].tolist()))
        print(repr(torch.autograd.grad(f(x[:, :20:2]), x, g[:, :10])[0].tolist()))
        print(repr(torch.autograd.grad(f(x.t()), x, g[:, :21].contiguous().t())[0].tolist()))
""")


def test_complex_gemv_loop():
    # PyTorch's own complex gemv (no BLAS): plain products added in order; α and β with c10's products
    same_as_torch(INPUTS + """
for dtype in (torch.complex64, torch.complex128):
    A = z(35, dtype).reshape(5, 7)
    v, b = z(7, dtype, 0.8, 0.1), z(5, dtype, 1.2)
    print(repr(A.mv(v).tolist()), repr(A.t().contiguous().t().mv(v).tolist()), repr(A.t().mv(b).tolist()))
    for beta, alpha in ((0.5, 2), (0.5 - 1j, 2 + 1j), (1, 1.5 - 0.5j), (0, 0.3j)):
        print(repr(torch.addmv(b, A, v, beta=beta, alpha=alpha).tolist()))
        print(repr(torch.addmv(b, A.t().contiguous().t(), v, beta=beta, alpha=alpha).tolist()))
    x, y = A.clone().requires_grad_(), v.clone().requires_grad_()
    out = torch.addr(x, x[:, 0], y) + x.mv(y).unsqueeze(1)
    gs = torch.autograd.grad(out, (x, y), torch.ones_like(out) * (0.5 - 0.25j))
    print([repr(g.tolist()) for g in gs])
""")


def test_complex_prod():
    # the reduction kernel: rows of 4 vectors multiplied plain, the rest fused; outer reductions down columns
    same_as_torch(INPUTS + """
for dtype in (torch.complex64, torch.complex128):
    for n in (3, 9, 13) if dtype == torch.complex64 else (3, 9, 13, 21):
        x = (z(n * 4, dtype, 0.9, 0.3) + 0.2).reshape(4, n).requires_grad_()
        print(repr(x.prod(1).tolist()), repr(x.prod(0).tolist()), repr(x[:3, :3].prod().tolist()))
        if dtype == torch.complex128:
            print(repr(x.prod().tolist()))
        g, = torch.autograd.grad(x.prod(1), x, torch.full((4,), 0.5 + 1j, dtype=dtype))
        print(repr(g.tolist()))
    x = (z(8 * 40, torch.complex128, 0.95, 0.2) + 0.3).reshape(8, 40)
    print(repr(x.prod(1).tolist()), repr(x.prod(0).tolist()))
""")


def test_trace_sums_in_double():
    # trace_cpu: a running sum in acc_type (double / complex<double>), rounded once
    same_as_torch(INPUTS + """
for dtype in (torch.float32, torch.float64, torch.complex64, torch.complex128):
    for n in (3, 9, 40):
        a = torch.linspace(-1.3, 1.7, n * n, dtype=torch.float64).reshape(n, n).to(dtype) * 1.1
        a = a if not dtype.is_complex else a + 0.3j * a.flip(0)
        print(dtype, repr(a.trace().tolist()))
""")


DESCRIBE = """
def names(t):
    order, seen, k = [t.grad_fn], {t.grad_fn}, 0
    while k < len(order):
        for m, _ in order[k].next_functions:
            if m is not None and m not in seen:
                seen.add(m)
                order.append(m)
        k += 1
    return [n.name() + (f"({n._saved_diagonal})" if hasattr(n, "_saved_diagonal") else "")
            for n in sorted(order, key=lambda n: n._sequence_nr())]
"""


@pytest.mark.parametrize("dtype,shape", [("complex128", "square"), ("complex128", "wide"), ("float64", "wide")])
def test_qr_double_backward_graph(dtype: str, shape: str):
    # linalg_qr_backward: m >= n halves at::real(diagonal) of X + Xᴴ in place, m < n halves at::imag(diagonal) of
    # (X - Xᴴ).tril() (a real X: (X - Xᵀ).tril(), not tril(-1))
    rows = "[[1.3, 2, 0.5], [0.3, -1, 2], [0.1, 0.2, 1.7]]" if shape == "square" else "[[1.3, 2, 0.5], [0.3, -1, 2]]"
    same_as_torch(DESCRIBE + f"""
x = torch.tensor({rows}, dtype=torch.{dtype})
x = (x * (1 + 0.5j) if x.is_complex() else x).requires_grad_()
q, r = torch.linalg.qr(x)
g, = torch.autograd.grad((q * 1.5).sum().abs() + (r * r.detach()).sum().abs(), x, create_graph=True)
print(names(g))
print(g.tolist())
g2, = torch.autograd.grad(g.abs().sum(), x, create_graph=True)
print(names(g2))
print(g2.tolist())
""")


def test_complex_vector_norm_adds_in_order():
    # NormTwoOps: acc + |z|·|z| element by element (|z|: glibc's hypot), then the square root
    same_as_torch(INPUTS + """
for dtype in (torch.complex64, torch.complex128):
    a = z(120, dtype, 1.3, 0.2).reshape(8, 15)
    print(repr(torch.linalg.vector_norm(a).item()), repr(torch.linalg.matrix_norm(a[:5, :5]).item()))
    print(repr(torch.linalg.vector_norm(a, dim=0).tolist()), repr(torch.linalg.vector_norm(a.t(), dim=(0, 1)).tolist()))
    print(repr(a.norm(dim=1, keepdim=True).tolist()))
""")


def test_complex_logcumsumexp():
    # log1p(e^(min - max)) + max in complex<double>, with c10's CPU log1p
    # (and of no elements: an empty result, not NumPy's logaddexp refusing complex numbers)
    same_as_torch(INPUTS + "check(lambda x: x.logcumsumexp(0), sizes=(6, 17), scale=2.0)\n"
                  "print(torch.zeros(0, 3, dtype=torch.complex64).logcumsumexp(0))\n")


@pytest.mark.parametrize("op", ["sgn", "svdvals"])
def test_complex_second_derivative_graph(op: str):
    # sgn_backward: (sgn * sgn) * gx.conj() makes gx.conj() first; svd_backward's complex diagonal: 2. * S a Scalar
    # product (MulBackward1)
    f = {"sgn": "torch.sgn(x)", "svdvals": "torch.linalg.svdvals(x)"}[op]
    same_as_torch(DESCRIBE + f"""
for dtype in (torch.complex64, torch.complex128):
    x = torch.tensor([[1.3 + 0.2j, -0.4 + 0.5j, 0.7 - 0.1j], [0.25 - 0.6j, 1.9 + 0.3j, -0.15 + 0.45j],
                      [0.5 - 0.3j, 0.2 + 0.1j, 1.6 + 0.35j]], dtype=dtype, requires_grad=True)
    y = {f}
    g, = torch.autograd.grad(y, x, torch.ones_like(y) * (0.5 - 0.25j if y.is_complex() else 0.5), create_graph=True)
    g2, = torch.autograd.grad(g, x, torch.ones_like(g) * (0.3 + 0.2j), create_graph=True)
    print(names(g2))
""")


@pytest.mark.parametrize("shape", ["square", "wide", "tall"])
def test_lu_double_backward_graph(shape: str):
    # lu_unpack_backward: L_grad.tril(-1) + U_grad.triu() makes the triu first; linalg_lu_backward's wide / tall
    # case: the solve's right-hand side (tril(-1) / triu()) before U1.mH() / L1.mH()
    rows = {"square": "[[1.3, -0.4, 0.7], [0.25, 1.9, -0.15], [0.5, 0.2, 1.6]]",
            "wide": "[[1.3, -0.4, 0.7], [0.25, 1.9, -0.15]]", "tall": "[[1.3, -0.4], [0.7, 0.25], [1.9, -0.15]]"}[shape]
    same_as_torch(DESCRIBE + f"""
for dtype in (torch.float64, torch.complex128):
    m = torch.tensor({rows}, dtype=dtype, requires_grad=True)
    if m.shape[0] == m.shape[1]:   # (lu_factor's backward unpacks LU with lu_unpack, a node of its own)
        y = torch.linalg.lu_factor(m)[0] * 1.5
    else:
        P, L, U = torch.linalg.lu(m)
        y = torch.cat([(L * 1.5).flatten(), (U * 0.5).flatten()])
    g, = torch.autograd.grad(y, m, torch.ones_like(y), create_graph=True)
    print(names(g))
    g2, = torch.autograd.grad(g, m, torch.ones_like(g), create_graph=True)
    print(names(g2))
    print(g2.tolist())
""")
