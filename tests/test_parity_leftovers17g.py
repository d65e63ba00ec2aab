"""Session 17 leftovers (graphs): sparse to_sparse/to_dense nodes and sparse.sum, cumprod's double-backward graph
with zeros, complex convolutions' type errors, lu_solve's conjugate bit and solve_triangular / elementwise layouts,
F.pad of channels_last inputs, istft's window gradient graph.

Each test runs a program with minigrad as torch and with PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import WALK, same_as_torch


def test_sparse_to_dense_nodes_saved_tensors_and_masked_grad():
    # ToDenseBackward0 / ValuesBackward0 save ``self`` (with a _raw_saved_self), freed after backward;
    # masked_grad=False gives the whole gradient back; to_dense(dtype) of a sparse tensor is refused, of a dense
    # one is .to(dtype); to_sparse(k) of a sparse tensor with another sparse_dim is refused
    same_as_torch(WALK + """
x = torch.tensor([[0., 2.], [3., 0.]], requires_grad=True)
s = x.to_sparse()
for n in [s.values().grad_fn, s.grad_fn, s.to_dense().grad_fn, torch.sparse.sum(s, 0).grad_fn]:
    print(n.name(), [a for a in dir(n) if 'saved' in a])
print(s.values().grad_fn._saved_self is s, type(s.to_dense().grad_fn._raw_saved_self).__name__)
E(lambda: s.to_dense(torch.float64))
E(lambda: print(s.to_sparse(2) is s, s.to_sparse(layout=torch.sparse_coo) is s))
E(lambda: s.to_sparse(1))
print(x.to_sparse(2).grad_fn.name(), x.to_dense(torch.float64).grad_fn.name(), x.to_dense() is x)
d = s.to_dense(masked_grad=False)
print(torch.autograd.grad(d.sum(), s, retain_graph=True))
print(torch.autograd.grad(d.sum(), x))
E(lambda: torch.autograd.grad(d.sum(), s))
E(lambda: d.grad_fn._saved_self)
sl = torch.tensor([[0., 2.], [3., 0.]]).to_sparse().requires_grad_()
(sl.to_dense(masked_grad=False) * torch.arange(4.).view(2, 2)).sum().backward()
print(sl.grad)
""")


def test_sparse_sum_is_values_sum_and_double_backward_through_sparse_mask():
    # torch.sparse.sum(s) is s.coalesce().values().sum(): its gradient stays on s's entries; the masked gradient
    # of to_dense / sparse.mm is a SparseMaskBackward0 node, so a second order gradient flows through it
    same_as_torch(WALK + """
x = torch.tensor([[0., 2.], [3., 0.]], dtype=torch.float64, requires_grad=True)
w = torch.sparse.sum(x.to_sparse())
print(w, walk(w.grad_fn))
w.backward()
print(x.grad)
v = torch.tensor([1., 2.], requires_grad=True)
u = torch.sparse_coo_tensor([[0, 0], [1, 1]], v * 1, (2, 2))
w = torch.sparse.sum(u, dtype=torch.float64)
print(w, walk(w.grad_fn))
w.backward()
print(v.grad)
x = torch.tensor([[0., 2.], [3., 0.]], requires_grad=True)
s = x.to_sparse()
gg = torch.autograd.grad((s.to_dense() ** 2).sum(), x, create_graph=True)[0]
print(gg, walk(gg.grad_fn))
n = gg.grad_fn.next_functions[0][0]
print([a for a in dir(n) if 'saved' in a], n._saved_mask is s)
print(torch.autograd.grad(gg.sum(), x))
gs = torch.autograd.grad((s.to_dense() ** 2).sum(), s, create_graph=True)[0]
print(gs, torch.autograd.grad(gs.to_dense().sum(), x))
m = torch.tensor([[1., 0.], [0., 2.]], requires_grad=True)
ga = torch.autograd.grad((torch.sparse.mm(s, m) ** 2).sum(), x, create_graph=True)[0]
print(ga, walk(ga.grad_fn))
print(torch.autograd.grad(ga.sum(), (x, m)))
""")


def test_cumprod_backward_with_zeros_graph_and_second_order():
    # with a zero in the input: create_graph gives PyTorch's O(n²) loop (CopySlices of the slices' products), whose
    # derivative is the true second derivative; without a graph, PyTorch's O(n) masked formula (same values)
    same_as_torch(WALK + """
import numpy as np
for vals in ([1., 0., 3., 4.], [0., 2., 0., 4.]):
    x = torch.tensor(vals, dtype=torch.float64, requires_grad=True)
    y = torch.cumprod(x, 0)
    n = y.grad_fn
    print(n.name(), [a for a in dir(n) if 'saved' in a], n._saved_dim, n._saved_result)
    g = torch.autograd.grad((y * torch.arange(1., 5., dtype=torch.float64)).sum(), x, create_graph=True)[0]
    print(g, walk(g.grad_fn))
    print(torch.autograd.grad(g.sum(), x))
    print(torch.autograd.functional.hessian(lambda t: (torch.cumprod(t, 0) ** 2).sum(), x))
x = torch.tensor([[1., 0.], [2., 3.]], requires_grad=True)
y = x.cumprod(1, dtype=torch.float64)
g = torch.autograd.grad(y.sum(), x, create_graph=True)[0]
print(g, walk(g.grad_fn), torch.autograd.grad(g.sum(), x))
z = torch.tensor([1 + 1j, 0j, 2 - 1j], requires_grad=True)
g = torch.autograd.grad(z.cumprod(0).abs().sum(), z, create_graph=True)[0]
print(g, walk(g.grad_fn))
rng = np.random.default_rng(0)
for dt in (torch.float32, torch.float64):
    for shape, dim in (((5,), 0), ((3, 6), 1), ((4, 3, 2), -2)):
        a = rng.standard_normal(shape)
        a[rng.random(shape) < 0.3] = 0
        x = torch.tensor(a, dtype=dt, requires_grad=True)
        y = torch.cumprod(x, dim)
        gy = torch.tensor(rng.standard_normal(shape), dtype=dt)
        print(torch.autograd.grad(y, x, gy, retain_graph=True)[0].flatten().tolist())
        g2, = torch.autograd.grad(y, x, gy, create_graph=True)
        print(g2.flatten().tolist(), g2.grad_fn.name())
        print(torch.autograd.grad(g2.abs().sum(), x)[0].flatten().tolist())
""")


def test_complex_convolution_graph_gradients_and_weight_type_errors():
    # a complex convolution is three real ones (Gauss's trick): its graph and gradients, and complex_convolution's
    # own check of the weight's type, made before the bias's for a transposed one
    same_as_torch(WALK + """
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(1, 4, 6, dtype=torch.complex128, requires_grad=True)
w = torch.randn(4, 2, 3, dtype=torch.complex128, requires_grad=True)
b = torch.randn(4, dtype=torch.complex128, requires_grad=True)
y = F.conv1d(x, w, b, groups=2, padding='same')
print(walk(y.grad_fn), y.stride())
g = torch.autograd.grad(y.abs().sum(), (x, w, b), create_graph=True)
print([t.grad_fn.name() for t in g], [round(t.abs().sum().item(), 10) for t in g])
print(round(torch.autograd.grad(g[0].abs().sum(), w)[0].abs().sum().item(), 10))
c = torch.randn(1, 2, 5, dtype=torch.complex128)
for wt in [torch.randn(2, 2, 2, dtype=torch.float64), torch.randn(2, 2, 2, dtype=torch.complex64),
           torch.randn(2, 2, 2).bfloat16(), torch.randn(2, 2, 2).bool(), torch.randn(2, 2, 2).half()]:
    for inp in [c, c.to(torch.complex64)]:
        E(lambda: F.conv1d(inp, wt))
        E(lambda: F.conv1d(inp, wt, torch.randn(2)))
        E(lambda: F.conv_transpose1d(inp, wt.transpose(0, 1), torch.randn(2)))
""")


def test_lu_solve_conj_bit_and_solve_triangular_conj_transposed_layout():
    # lu_solve(left=False) returns PyTorch's conjugate-bit result (it solves AᴴXᴴ = Bᴴ); solve_triangular with a
    # conjugated A whose transpose is contiguous gives a row-major result (avoid_copy_A); the gradient of
    # X.abs().sum() is laid out as TensorIterator's cast of the expanded real gradient (C order), so the LU
    # gradients' bits match
    same_as_torch("""
torch.manual_seed(0)
A = torch.randn(3, 3, dtype=torch.complex128)
LU, piv = torch.linalg.lu_factor(A)
B = torch.randn(3, 2, dtype=torch.complex128)
for cl in (False, True):
    for cb in (False, True):
        for adj in (False, True):
            for left in (True, False):
                lu = LU.clone().requires_grad_(); b = B.clone().requires_grad_()
                l2 = lu.conj() if cl else lu
                b2 = b.conj() if cb else b
                X = torch.linalg.lu_solve(l2, piv, b2 if left else b2.mT, adjoint=adj, left=left)
                g = torch.autograd.grad(X.abs().sum(), (lu, b))
                print(X.is_conj(), X.stride(), X.flatten().tolist()[:2], [t.flatten().tolist()[:3] for t in g])
X = torch.linalg.lu_solve(LU, piv, B[:, :0].mT, left=False)
print(X.is_conj(), X.shape)
A = torch.randn(4, 4, dtype=torch.complex128).triu() + 3 * torch.eye(4)
B = torch.randn(4, 6, dtype=torch.complex128)
for a in (A, A.mT, A.conj(), A.mT.conj()):
    for left in (True, False):
        for b in (B, B.mT.contiguous().mT, B.conj(), B[:, ::2].conj()):
            bb = b if left else b.mT
            X = torch.linalg.solve_triangular(a, bb, upper=a.stride(0) == 4, left=left)
            print(X.stride(), X.is_conj(), X.flatten().tolist()[:2])
a = A.clone().requires_grad_(); b = B.clone().requires_grad_()
for left in (True, False):
    X = torch.linalg.solve_triangular(a.mT.conj(), b.mT.conj().mT if left else b.mT, upper=False, left=left)
    print(X.flatten().tolist(), [t.flatten().tolist() for t in torch.autograd.grad(X.abs().sum(), (a, b))])
Ab = torch.randn(2, 3, 3, dtype=torch.complex64).triu() + 3 * torch.eye(3)
Bb = torch.randn(2, 3, 2, dtype=torch.complex64)
for a in (Ab, Ab.mT.conj(), Ab[:1].mT.conj()):
    X = torch.linalg.solve_triangular(a, Bb, upper=a is Ab)
    print(X.stride(), X.flatten().tolist())
b = torch.randn(2, 3, dtype=torch.complex128).mT
for a in (torch.ones(()).expand(3, 2), torch.ones((), dtype=torch.float64).expand(3, 2), torch.randn(3, 4)[:, ::2]):
    print((a * b).stride(), (b * a).stride(), (a + b).stride(), torch.complex(a.double(), b.real).stride(),
          torch.where(torch.ones(1, 1, dtype=torch.bool).expand(3, 2), a, b).stride())
x = torch.randn(2, 3, 4, 5).to(memory_format=torch.channels_last)[:, :, :, ::2]
print((x * torch.randn(2, 3, 4, 3, dtype=torch.float64)).stride())
""")


def test_pad_keeps_channels_last_and_svd_multi_dot_strides():
    # constant/reflect/replicate padding of a channels_last(_3d) input gives a channels_last result, and the
    # reflect/replicate gradient is laid out as the input (PyTorch's suggest_memory_format); svd / multi_dot
    # results and gradients of transposed or sliced inputs keep PyTorch's strides
    same_as_torch(WALK + """
import torch.nn.functional as F
x4 = torch.randn(1, 2, 3, 4).to(memory_format=torch.channels_last).requires_grad_()
x5 = torch.randn(1, 2, 3, 4, 2).to(memory_format=torch.channels_last_3d).requires_grad_()
x3 = torch.randn(2, 3, 4).transpose(1, 2).requires_grad_()
for x, pads in ((x4, [(1, 1, 1, 1), (1, 2), (-1, 1, 0, 0), (-1, -1)]), (x5, [(1, 1, 1, 1, 1, 1), (1, 0)]),
                (x3, [(1, 1), (-1, 2)])):
    for pad in pads:
        for mode in ('constant', 'reflect', 'replicate', 'circular'):
            try:
                y = F.pad(x, pad, mode=mode)
            except NotImplementedError:
                continue
            gy = torch.arange(y.numel(), dtype=y.dtype).view(y.shape)
            g = torch.autograd.grad(y, x, gy)[0]
            print(mode, pad, y.stride(), y.grad_fn.name(), g.stride(), g.flatten().tolist()[:5])
torch.manual_seed(0)
for A in (torch.randn(3, 4).mT, torch.randn(2, 4, 3).transpose(0, 1), torch.randn(3, 5)[:, ::2].mT):
    a = A.detach().requires_grad_()
    U, S, Vh = torch.linalg.svd(a, full_matrices=False)
    g = torch.autograd.grad(U.abs().sum() + S.sum() + Vh.abs().sum(), a)[0]
    print(U.stride(), S.stride(), Vh.stride(), g.stride(), torch.linalg.svd(A)[2].stride())
A = torch.randn(3, 4).mT.requires_grad_()
B = torch.randn(3, 5).requires_grad_()
C = torch.randn(6, 5).mT.requires_grad_()
v = torch.randn(4)
for ms in ([A, B], [A, B, C], [v, A, B, C], [B.mT, A.mT]):
    out = torch.linalg.multi_dot(ms)
    gs = torch.autograd.grad(out.sum(), [m for m in ms if m.requires_grad])
    print(out.stride(), walk(out.grad_fn)[:4], [g.stride() for g in gs])
""")


def test_istft_window_gradient_and_its_graph():
    # istft with a window that requires grad: the window's gradient (first and second order, a window shorter than
    # n_fft, center=False with its full-range slice of the envelope: SliceBackward0, not an alias)
    same_as_torch(WALK + """
torch.manual_seed(0)
x = torch.randn(64, dtype=torch.float64)
for center, wl in ((True, 16), (True, 12), (False, 16)):
    w = (torch.hann_window(wl, dtype=torch.float64) + 0.1).requires_grad_()
    S = torch.stft(x, 16, hop_length=4, win_length=wl, window=w.detach(), center=center, return_complex=True)
    Sg = S.clone().requires_grad_()
    y = torch.istft(Sg, 16, hop_length=4, win_length=wl, window=w, center=center)
    print(walk(y.grad_fn)[:8])
    gw, gS = torch.autograd.grad((y * torch.arange(y.numel(), dtype=y.dtype)).sum(), (w, Sg))
    print(gw.tolist()[:4], gS.flatten().tolist()[:2])
w = (torch.hann_window(16) + 0.1).requires_grad_()
S = torch.stft(torch.randn(3, 64), 16, hop_length=4, window=w.detach(), return_complex=True)
y = torch.istft(S, 16, hop_length=4, window=w, center=False, length=60)
g = torch.autograd.grad(y.pow(2).sum(), w, create_graph=True)[0]
print(g.tolist()[:4], walk(g.grad_fn)[:5])
print(torch.autograd.grad(g.sum(), w)[0].tolist()[:4])
""")
