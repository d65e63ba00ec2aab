"""In-place view ops (t_, transpose_, unsqueeze_, squeeze_), resize_, writes through expanded tensors,
devices on a CPU-only build, and torch.linalg decompositions/solvers: compared with PyTorch.

Each program runs once with ``import minigrad as torch`` and once with PyTorch; the printed output
(values, grad_fn names, ``_saved_*`` values, versions, exception types and messages) must be the same.
Eigenvectors and singular vectors are defined up to sign, and LAPACK builds choose differently (PyTorch
uses MKL), so the programs print functions of them that do not depend on it (V * V, U diag(S) Vh).
"""
from __future__ import annotations

import numpy as np
import pytest
from parity import same_as_torch

import minigrad as mg

# ---- unit tests (no torch needed) ---------------------------------------------------------------


def test_t_in_place_records_tbackward1_and_bumps_version():
    a = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = a * 1
    assert b.t_() is b
    assert tuple(b.shape) == (3, 2) and b._version == 1 and type(b.grad_fn).__name__ == "TBackward1"
    (b * mg.arange(6.0).view(3, 2)).sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[0.0, 2.0, 4.0], [1.0, 3.0, 5.0]])


def test_write_through_view_after_base_changed_shape_in_place():
    a = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    b = a * 1
    row = b[0]          # made before b.t_(): replaying it on b's new layout would take a column
    b.t_()
    row.mul_(10)
    assert b.tolist() == [[10.0, 4.0], [20.0, 5.0], [30.0, 6.0]]
    b.sum().backward()
    np.testing.assert_array_equal(a.grad.numpy(), [[10.0, 10.0, 10.0], [1.0, 1.0, 1.0]])


def test_resize_keeps_memory_order_and_grows_with_zeros():
    x = mg.arange(6.0)
    assert x.resize_(2, 2) is x and x.tolist() == [[0.0, 1.0], [2.0, 3.0]] and x.stride() == (2, 1)
    x.resize_(8)
    assert x.tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 0.0, 0.0]
    y = mg.arange(6.0).view(2, 3).t()        # storage order, not the transposed order
    assert y.resize_(6).tolist() == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]


def test_fill_through_expanded_tensor_writes_its_base():
    base = mg.tensor([1.0, 2.0])
    e = base.expand(3, 2)
    e.fill_(7)
    assert base.tolist() == [7.0, 7.0] and base._version == 1
    with pytest.raises(RuntimeError, match="more than one element of the written-to tensor"):
        e.add_(1)
    e[1].add_(1)            # one row of the expanded tensor has distinct elements: allowed
    assert base.tolist() == [8.0, 8.0]


def test_linalg_decompositions_reconstruct_their_input():
    rng = np.random.default_rng(0)
    a = mg.tensor(rng.standard_normal((4, 3)))
    q, r = mg.linalg.qr(a)
    np.testing.assert_allclose((q @ r).numpy(), a.numpy(), atol=1e-12)
    u, s, vh = mg.linalg.svd(a, full_matrices=False)
    np.testing.assert_allclose(((u * s) @ vh).numpy(), a.numpy(), atol=1e-12)
    sym = a.mT @ a + mg.eye(3, dtype=a.dtype)
    values, vectors = mg.linalg.eigh(sym)
    np.testing.assert_allclose(((vectors * values) @ vectors.mT).numpy(), sym.numpy(), atol=1e-12)
    low = mg.linalg.cholesky(sym)
    np.testing.assert_allclose((low @ low.mT).numpy(), sym.numpy(), atol=1e-12)
    np.testing.assert_allclose((mg.linalg.pinv(a) @ a).numpy(), np.eye(3), atol=1e-12)


def test_cuda_creation_fails_as_in_a_cpu_only_build():
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        mg.zeros(1, device="cuda")
    x = mg.ones(2)
    assert x.to("cpu") is x and x.cpu() is x and str(x.device) == "cpu" and repr(x.device) == "device(type='cpu')"


# ---- parity with PyTorch ----------------------------------------------------------------------

PROGRAMS = {
    # ---- in-place view ops -------------------------------------------------------------------
    "inplace_view_ops_on_a_non_leaf": """
a = torch.arange(6.).view(2, 3).requires_grad_()
b = a * 2
print(b.t_() is b, b.shape, b.grad_fn, b._version, b.grad_fn.next_functions)
b.unsqueeze_(-1); print(b.shape, b.grad_fn, b._version, b.grad_fn._saved_dim)
b.squeeze_(); print(b.shape, b.grad_fn, b._version, b.grad_fn._saved_self_sym_sizes)
b.unsqueeze_(1).squeeze_(1); print(b.grad_fn, b.grad_fn._saved_dim, b.grad_fn._saved_self_sym_sizes)
b.unsqueeze_(0).squeeze_((0, -2)); print(b.grad_fn, b.grad_fn._saved_dim, b.grad_fn._saved_self_sym_sizes)
b.transpose_(0, -1); print(b.shape, b.grad_fn, b.grad_fn._saved_dim0, b.grad_fn._saved_dim1)
b.swapdims_(0, 1); print(b.grad_fn); b.swapaxes_(1, 0); print(b.grad_fn, b._version)
(b * torch.arange(6.).view(2, 3)).sum().backward()
print(a.grad)
""",
    "inplace_view_ops_errors": """
x = torch.randn(2, 3, requires_grad=True)
for f in (lambda: x.t_(), lambda: x.unsqueeze_(0), lambda: x.squeeze_(), lambda: x.transpose_(0, 5),
          lambda: x.view(3, 2).t_(), lambda: x[0].unsqueeze_(0), lambda: torch.randn(2, 3, 4, requires_grad=True).t_()):
    E(f)
y = torch.zeros(2, 3, 4)
E(lambda: y.t_()); E(lambda: y.transpose_(0, 5)); E(lambda: y.unsqueeze_(5)); E(lambda: y.squeeze_(5))
E(lambda: y.squeeze_((0, 0))); E(lambda: y.squeeze_((1, -3)))
b = torch.randn(4, 3, requires_grad=True) * 1
p, q = b.split(2)
E(lambda: p.t_()); E(lambda: q.unsqueeze_(0))
with torch.no_grad():
    nv = b[0]
E(lambda: nv.unsqueeze_(0))
with torch.no_grad():
    x.t_()
print(x.shape, x._version, x.grad_fn, x.is_leaf)
z = torch.tensor(3.)
print(z.t_().shape, z.unsqueeze_(0).shape, z.squeeze_(0).shape, z.squeeze_().shape, z._version)
with torch.inference_mode():
    i = torch.ones(2, 3)
E(lambda: i.t_()); print(i.shape)
""",
    "inplace_view_ops_on_views_and_views_of_them": """
a = torch.arange(6.).view(2, 3).requires_grad_()
b = a * 1
v = b[0]
v.unsqueeze_(0)
print(v.shape, v.grad_fn, v._base is b, v._version, b._version, b.grad_fn)
w = b[:, :2]
w.t_()
print(w.grad_fn, w.grad_fn.next_functions[0][0])
w.mul_(3)
print(b.grad_fn, w.grad_fn, b)
b.sum().backward(); print(a.grad)
a.grad = None
b = a * 1
row = b[0]
b.t_()
print(row.grad_fn, b.grad_fn, row._version)
row.mul_(10)
print(b, b.grad_fn, b.grad_fn.next_functions)
b.sum().backward(); print(a.grad)
a.grad = None
b = a * 1
v = b[1]
v.unsqueeze_(0)
b.add_(1)
print(v.grad_fn, v.shape)
(v * torch.tensor([[1., 2., 3.]])).sum().backward(); print(a.grad)
""",
    "inplace_view_ops_retain_grad_and_plain_tensors": """
a = torch.randn(2, 3, requires_grad=True)
b = a * 1
b.retain_grad()
b.t_()
(b * torch.arange(6.).view(3, 2)).sum().backward()
print(b.grad, a.grad)
y = torch.arange(6.).view(2, 3)
v = y[0]
print(y.t_() is y, y, y.stride(), y.is_contiguous(), y._version, v._version)
print(y.t_().unsqueeze_(1).shape, y.stride(), y.squeeze_().shape, y._version)
""",
    "as_strided": """
x = torch.arange(6.).requires_grad_()
y = x.as_strided((2, 2), (1, 2))
print(y, y.grad_fn, y.grad_fn._saved_size, y.grad_fn._saved_stride, y.grad_fn._saved_storage_offset, y._base is x)
y = x.as_strided((2, 2), (1, 2), 1); print(y.grad_fn._saved_storage_offset)
y.sum().backward(); print(x.grad)
z = torch.arange(6.)[2:]
print(z.as_strided((2,), (1,)), z.as_strided((2,), (1,), 0), z.storage_offset())
print(torch.as_strided(torch.ones(4), (2,), (2,)))
for f in [lambda: torch.ones(2, 3).as_strided((2, 2), (1, 4), 1), lambda: torch.ones(2, 3).as_strided((2, 2), (-1, 1)),
          lambda: torch.ones(2, 3).as_strided((2,), (1,), -1), lambda: torch.ones(2, 3).as_strided((2, 2), (1,)),
          lambda: torch.ones(2, 3).as_strided((2, 0), (1, 100), 7),
          lambda: torch.arange(6., requires_grad=True).as_strided_((2,), (1,))]:
    E(f)
a = torch.arange(4.).requires_grad_()
b = a * 1
b.as_strided_((3,), (1,), 1)
print(b, b.grad_fn, b.grad_fn._saved_storage_offset, b._version)
print(sorted(n for n in dir(b.grad_fn) if n.startswith('_saved')))
b.sum().backward(); print(a.grad)
o = torch.arange(4.).requires_grad_()
(o * 1).as_strided((2, 2), (1, 1)).sum().backward(); print(o.grad)
v = torch.arange(6.).requires_grad_()
v[1:3].as_strided((3,), (1,), 2).sum().backward(); print(v.grad)
b = v * 1
s = b.as_strided((2, 2), (1, 2), 1)
s.mul_(torch.tensor([[1., 2.], [3., 4.]]))
print(b, b.grad_fn)
v.grad = None
b.sum().backward(); print(v.grad)
p = torch.arange(6.)
p.as_strided_((2, 2), (2, 1), 1); print(p, p._version, p.stride(), p.storage_offset())
g, = torch.autograd.grad((v * 1).as_strided((2, 2), (1, 2), 1).pow(2).sum(), v, create_graph=True)
print(g, g.grad_fn, torch.autograd.grad(g.sum(), v))
""",
    "inplace_view_ops_forward_ad": """
import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    x = fwAD.make_dual(torch.tensor([[1., 2., 3.]]), torch.tensor([[4., 5., 6.]]))
    y = x * 1
    y.t_()
    print(fwAD.unpack_dual(y).tangent)
    y.squeeze_()
    print(fwAD.unpack_dual(y).tangent)
    y.unsqueeze_(0).transpose_(0, 1)
    print(fwAD.unpack_dual(y).tangent, y.shape)
""",
    # ---- resize_ -----------------------------------------------------------------------------
    "resize": """
import warnings
x = torch.arange(6.)
r = x.resize_(2, 3); print(r is x, x, x._version)
x.resize_(2, 2); print(x, x._version, x.stride())
x.resize_(6); print(x[:4], x.shape, x._version)
x.resize_((1, 6)); print(x.shape); x.resize_([3, 2]); print(x.shape); x.resize_(torch.Size([2, 3])); print(x.shape)
print(x.resize_(2, 3)._version)
E(lambda: x.resize_(-1)); E(lambda: x.resize_(2, -1)); E(lambda: x.resize_(2.5)); E(lambda: x.resize_())
E(lambda: x.resize_([2, 'a'])); E(lambda: x.resize_((2, 3), 4)); E(lambda: x.resize_('a'))
g = torch.randn(2, 3, requires_grad=True)
E(lambda: g.resize_(3, 2)); E(lambda: g.resize_(2, 3)); E(lambda: (g * 1).resize_(6))
with torch.no_grad():
    E(lambda: g.resize_(6))
E(lambda: g.detach().resize_(6))
z = torch.zeros(2, 3)
v = z[0]
print(v.resize_(3)._version, v.resize_(2)._version, v.resize_(6)._version, v.shape, z)
t = z.t()
print(t.resize_(3, 2).stride(), t.resize_(6).stride(), t._version)
y = torch.arange(6.)[2:]
y.resize_(2, 2); print(y, y.storage_offset())
q = torch.zeros(3)
print(q.resize_as_(torch.zeros(2, 2)).shape, q._version)
E(lambda: q.resize_as_(torch.zeros(2, 2, requires_grad=True)))
E(lambda: torch.zeros(2, 2, requires_grad=True).resize_as_(q))
E(lambda: q.resize_as_(3))
print(torch.resize_as_(q, torch.zeros(4)).shape)
i = torch.zeros(2, 2, dtype=torch.int64); i.resize_(3); print(i)
e = torch.ones(2, 3).expand(2, 2, 3)
print(e.resize_(2, 2, 3).stride())
t = torch.tensor([1., 2.]); t.resize_(0); print(t, t.shape)
with torch.inference_mode():
    inf = torch.ones(2)
E(lambda: inf.resize_(3)); print(inf.shape)
""",
    # ---- writing through an expanded tensor ------------------------------------------------------
    "expanded_writes": """
import warnings
def run(name, f):
    b = torch.tensor([1., 2., 3., 4.]); e = b.expand(3, 4)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        try:
            f(e); print(name, 'ok')
        except Exception as ex:
            print(name, type(ex).__name__, ex)
    print('   ', b.tolist(), e[2].tolist(), b._version, [str(x.message) for x in w])
for name, f in [
    ("fill_", lambda e: e.fill_(5)), ("zero_", lambda e: e.zero_()), ("fill_t", lambda e: e.fill_(torch.tensor(7.))),
    ("add_", lambda e: e.add_(1)), ("add_t", lambda e: e.add_(torch.ones(3, 4))), ("mul_", lambda e: e.mul_(2)),
    ("copy_", lambda e: e.copy_(torch.ones(3, 4))), ("copy_b", lambda e: e.copy_(torch.ones(4))),
    ("copy_self", lambda e: e.copy_(e)), ("neg_", lambda e: e.neg_()), ("exp_", lambda e: e.exp_()),
    ("clamp_", lambda e: e.clamp_(0, 1)), ("sqrt_", lambda e: e.sqrt_()), ("iadd", lambda e: e.__iadd__(1)),
    ("uniform_", lambda e: e.uniform_()), ("normal_", lambda e: e.normal_()),
    ("setitem_int", lambda e: e.__setitem__(0, 9.)), ("setitem_all", lambda e: e.__setitem__(Ellipsis, 9.)),
    ("setitem_col", lambda e: e.__setitem__((slice(None), 0), 9.)), ("col_fill_", lambda e: e[:, 0].fill_(9.)),
    ("row_add_", lambda e: e[1].add_(4)), ("row_copy_", lambda e: e[1].copy_(torch.ones(4))),
    ("t_fill_", lambda e: e.t().fill_(4)), ("t_", lambda e: e.t_()),
    ("masked_fill_", lambda e: e.masked_fill_(torch.tensor([True, False, True, False]), 0.)),
    ("masked_fill_t", lambda e: e.masked_fill_(torch.tensor([True, False, True, False]), torch.tensor(2.))),
    ("setitem_idx", lambda e: e.__setitem__(torch.tensor([0]), 8.)),
]:
    run(name, f)
b = torch.zeros(1); e = b.expand(3); E(lambda: e.add_(1))
b = torch.zeros(3); e = b.expand(1, 3); e.add_(1); print(b)
b = torch.zeros(3); e = b.expand(0, 3); e.add_(1); print(b)
b = torch.zeros(3); torch.broadcast_to(b, (2, 3)).fill_(1); print(b)
""",
    "expanded_writes_and_autograd": """
a = torch.tensor([1., 2.], requires_grad=True)
c = a * 1
e = c.expand(3, 2)
e.fill_(3.)
print(c, c.grad_fn, e.grad_fn, c._version)
E(lambda: c.sum().backward())
c = a * 1
c.expand(3, 2).zero_()
print(c)
E(lambda: c.sum().backward())
c = a * 1
E(lambda: c.expand(3, 2).copy_(torch.ones(3, 2)))
v = torch.tensor(5., requires_grad=True)
E(lambda: c.expand(3, 2).fill_(v * 1))
c.expand(3, 2)[0].mul_(torch.tensor([2., 3.]))
print(c, c.grad_fn)
c.sum().backward(); print(a.grad)
x = torch.ones(2, requires_grad=True)
E(lambda: x.expand(3, 2).fill_(1))
x = torch.ones(2)
with torch.no_grad():
    e = x.expand(3, 2)
E(lambda: e.fill_(2)); print(x)
""",
    # ---- devices -----------------------------------------------------------------------------
    "devices": """
x = torch.ones(2)
for f in [lambda: torch.zeros(1, device="cuda"), lambda: torch.ones(2, device="cuda:0"),
          lambda: torch.empty(2, device="cuda"), lambda: torch.full((2,), 1., device="cuda"),
          lambda: torch.rand(2, device="cuda"), lambda: torch.randn(2, device="cuda"),
          lambda: torch.randint(0, 3, (2,), device="cuda"), lambda: torch.arange(3, device="cuda"),
          lambda: torch.linspace(0, 1, 3, device="cuda"), lambda: torch.logspace(0, 1, 3, device="cuda"),
          lambda: torch.tensor([1.], device="cuda"), lambda: torch.as_tensor([1.], device="cuda"),
          lambda: torch.zeros_like(x, device="cuda"), lambda: torch.ones_like(x, device="cuda"),
          lambda: torch.empty_like(x, device="cuda"), lambda: torch.full_like(x, 2, device="cuda"),
          lambda: torch.rand_like(x, device="cuda"), lambda: torch.randn_like(x, device="cuda"),
          lambda: torch.randint_like(x, 3, device="cuda"), lambda: torch.eye(2, device="cuda"),
          lambda: torch.randperm(3, device="cuda"), lambda: torch.normal(0., 1., (2,), device="cuda"),
          lambda: torch.zeros(1, device=torch.device("cuda")), lambda: torch.zeros(-1, device="cuda"),
          lambda: torch.zeros(1, device=0), lambda: torch.zeros(1, device="gpu"), lambda: torch.zeros(1, device="xpu"),
          lambda: x.new_zeros(2, device="cuda"), lambda: x.new_tensor([1.], device="cuda"),
          lambda: x.new_ones(2, device="cuda"), lambda: x.new_full((2,), 1., device="cuda"),
          lambda: x.to("cuda"), lambda: x.cuda(), lambda: x.cuda(0), lambda: x.cuda(device="cpu"),
          lambda: x.to(torch.device("cuda")), lambda: x.to("cuda", torch.float64), lambda: x.to(device="cuda"),
          lambda: x.to("mps"), lambda: x.to("xpu"), lambda: x.to("hip"), lambda: x.to("foo"), lambda: x.to(1),
          lambda: x.xpu(), lambda: x.pin_memory(), lambda: torch.nn.Linear(2, 2).to("cuda"),
          lambda: torch.nn.Linear(2, 2).to("mps"), lambda: torch.Generator(device="mps"),
          lambda: torch.device("foo"), lambda: torch.device("cuda:x"), lambda: torch.device("cuda:01"),
          lambda: torch.device(" cuda"), lambda: torch.device("CUDA"), lambda: torch.device("cuda:-1"),
          lambda: torch.device(1), lambda: torch.device(-1), lambda: torch.device(None), lambda: torch.device(1.5),
          lambda: torch.device(), lambda: torch.device("cpu", -1), lambda: torch.device("cuda:0", 1),
          lambda: torch.device(torch.device("cpu"), 1)]:
    E(f)
print(x.to("cpu") is x, x.cpu() is x, x.to(None) is x, x.to(device=None) is x, x.to("cpu:0") is x, x.to(x) is x)
print(x.requires_grad_().to("cpu", copy=True).grad_fn.name(), x.to("cpu:0").grad_fn.name())
print(x.to(copy=True).grad_fn.name())
print(x.device, repr(x.device), x.is_cuda, x.is_cpu, x.get_device(), x.is_pinned())
print(torch.device("cuda"), repr(torch.device("cuda:0")), torch.device("cuda", 1), torch.device(type="cuda", index=2))
print(torch.device("cpu") == x.device, torch.device("cpu") == "cpu", torch.device("cpu", 0) == torch.device("cpu"))
print(torch.device("cuda") == torch.device("cuda", 0), {torch.device("cpu"): 1}[torch.device("cpu")])
print(torch.device("cuda").type, torch.device("cuda").index, torch.device("cuda:2").index, torch.device(x.device))
print(torch.device("cuda", 1).__reduce__()[1], type(torch.device("cpu")), isinstance(x.device, torch.device))
print(torch.tensor([1.], device="cpu"), torch.zeros(1, device="cpu:1").device, torch.get_default_device())
print(torch.Generator(device="cpu").device, torch.nn.Linear(2, 2).to("cpu").weight.device)
torch.set_default_device("cuda")
E(lambda: torch.zeros(1)); E(lambda: torch.get_default_device()); print(torch.zeros_like(x).device)
torch.set_default_device(None)
print(torch.zeros(1).device)
""",
    # ---- torch.linalg ------------------------------------------------------------------------
    "linalg_qr": """
A = torch.tensor([[2., -1., 0.5], [1., 3., -2.], [0.5, 1., 4.], [-1., 2., 1.]], dtype=torch.float64, requires_grad=True)
print(torch.linalg.qr(A))
Q, R = torch.linalg.qr(A, mode="complete")
print(Q.shape, R.shape, R.grad_fn, R.grad_fn._saved_mode, sorted(n for n in dir(R.grad_fn) if n.startswith("_saved_")))
print(torch.linalg.qr(A.detach(), mode="r"))
E(lambda: Q.sum().backward())
E(lambda: torch.linalg.qr(A, mode="r").R.sum().backward())
Q, R = torch.linalg.qr(A)
(Q.sum() + R.pow(2).sum()).backward(); print(A.grad)
W = A.detach().mT.clone().requires_grad_()
Q, R = torch.linalg.qr(W)
(Q * torch.arange(9.).view(3, 3)).sum().backward(); print(Q.shape, R.shape, W.grad)
E(lambda: torch.linalg.qr(torch.ones(3))); E(lambda: torch.linalg.qr(torch.ones(3, 3, dtype=torch.int64)))
E(lambda: torch.linalg.qr(torch.ones(3, 3), mode="foo"))
""",
    "linalg_eigh_eigvalsh": """
M = torch.tensor([[4., 1., -2.], [1., 3., 0.5], [-2., 0.5, 5.]], dtype=torch.float64, requires_grad=True)
L, V = torch.linalg.eigh(M)
print(L, type(torch.linalg.eigh(M)).__name__, L.grad_fn, sorted(n for n in dir(L.grad_fn) if n.startswith("_saved_")))
print(V * V)
(L.sum() + (V * V * torch.arange(9.).view(3, 3) ** 2).sum()).backward(); print(M.grad)
M.grad = None
torch.linalg.eigvalsh(M, UPLO="U").pow(2).sum().backward(); print(M.grad)
print(torch.linalg.eigh(torch.tensor([[1., 5.], [0., 2.]]), UPLO="U").eigenvalues)
print(torch.linalg.eigvalsh(torch.eye(2, dtype=torch.complex64)).dtype)
E(lambda: torch.linalg.eigh(torch.ones(3))); E(lambda: torch.linalg.eigh(torch.ones(2, 3)))
E(lambda: torch.linalg.eigh(torch.ones(2, 2, dtype=torch.int64))); E(lambda: torch.linalg.eigh(M, UPLO="X"))
E(lambda: torch.linalg.eigvalsh(torch.ones(2, 3)))
C = torch.tensor([[2., 1j], [-1j, 3.]], dtype=torch.complex128, requires_grad=True)
E(lambda: torch.linalg.eigh(C)[1].sum().abs().backward())
""",
    "linalg_slogdet_logdet_det_inv": """
A = torch.tensor([[2., -1., 0.5], [1., 3., -2.], [0.5, 1., 4.]], dtype=torch.float64, requires_grad=True)
r = torch.linalg.slogdet(A)
print(r, r.sign.grad_fn, r.sign.grad_fn._saved_pivots)
print(sorted(n for n in dir(r.sign.grad_fn) if n.startswith("_saved_")))
r.logabsdet.backward(); print(A.grad)
A.grad = None
print(torch.slogdet(-A))
torch.logdet(A).backward(); print(A.grad, torch.logdet(A).grad_fn, A.logdet(), A.slogdet().sign)
print(torch.logdet(-torch.eye(3)), torch.logdet(torch.zeros(3, 3)), torch.linalg.slogdet(torch.zeros(2, 2)))
print(torch.linalg.inv_ex(torch.stack([torch.eye(2), torch.zeros(2, 2)])).info, torch.linalg.inv_ex(A).inverse.grad_fn)
for f in [lambda: torch.linalg.slogdet(torch.ones(2, 3)), lambda: torch.linalg.slogdet(torch.ones(3)),
          lambda: torch.linalg.slogdet(torch.ones(3, 3, dtype=torch.int64)), lambda: torch.logdet(torch.ones(2, 3)),
          lambda: torch.logdet(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.slogdet(torch.ones(2, 3)),
          lambda: torch.linalg.inv(torch.zeros(2, 2)),
          lambda: torch.linalg.inv(torch.stack([torch.eye(2), torch.zeros(2, 2)])),
          lambda: torch.linalg.inv_ex(torch.zeros(2, 2), check_errors=True),
          lambda: torch.linalg.det(torch.ones(2, 3))]:
    E(f)
try:
    torch.linalg.inv(torch.zeros(2, 2))
except torch.linalg.LinAlgError as e:
    print(type(e).__name__, isinstance(e, RuntimeError))
""",
    "linalg_cholesky": """
S = torch.tensor([[4., 2., 0.4], [2., 5., 1.], [0.4, 1., 3.]], dtype=torch.float64, requires_grad=True)
L = torch.linalg.cholesky(S)
print(L, L.grad_fn, L.grad_fn._saved_upper, sorted(n for n in dir(L.grad_fn) if n.startswith("_saved_")))
(L * torch.arange(9.).view(3, 3)).sum().backward(); print(S.grad)
print(torch.linalg.cholesky(S, upper=True), torch.linalg.cholesky_ex(S.detach()))
print(torch.linalg.cholesky_ex(torch.stack([torch.eye(2), -torch.eye(2)])).info)
print(torch.linalg.cholesky_ex(torch.tensor([[4., 2.], [2., -1.]])).info)
for f in [lambda: torch.linalg.cholesky(torch.ones(2, 3)), lambda: torch.linalg.cholesky(-torch.eye(3)),
          lambda: torch.linalg.cholesky(torch.tensor([[1., 2.], [2., 1.]])),
          lambda: torch.linalg.cholesky(torch.stack([torch.eye(2), -torch.eye(2)])),
          lambda: torch.linalg.cholesky(torch.ones(2, 2, dtype=torch.int64)),
          lambda: torch.linalg.cholesky_ex(-torch.eye(2), check_errors=True),
          lambda: torch.linalg.cholesky_ex(torch.stack([-torch.eye(2), -torch.eye(2)]), check_errors=True)]:
    E(f)
""",
    "linalg_solve": """
A = torch.tensor([[3., -1., 0.5], [1., 4., -2.], [0.5, 1., 5.]], dtype=torch.float64, requires_grad=True)
B = torch.tensor([[1., 2.], [0., -1.], [3., 1.]], dtype=torch.float64, requires_grad=True)
X = torch.linalg.solve(A, B)
print(X, X.grad_fn, sorted(n for n in dir(X.grad_fn) if n.startswith("_saved_")), X.grad_fn._saved_left)
(X * torch.arange(6.).view(3, 2)).sum().backward(); print(A.grad, B.grad)
b = torch.tensor([1., -2., 0.5], dtype=torch.float64, requires_grad=True)
x = torch.linalg.solve(A, b); x.pow(2).sum().backward(); print(x, b.grad)
X = torch.linalg.solve(A, B.detach().mT, left=False); print(X)
X.sum().backward()
print(torch.linalg.solve(torch.stack([A, 2 * A]), b).shape, torch.linalg.solve_ex(A, B))
print(torch.linalg.solve_ex(torch.stack([torch.eye(2), torch.zeros(2, 2)]), torch.ones(2)).info)
E(lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)))
E(lambda: torch.linalg.solve(torch.stack([torch.eye(2), torch.zeros(2, 2)]), torch.ones(2, 2)))
E(lambda: torch.linalg.solve_ex(torch.zeros(2, 2), torch.ones(2), check_errors=True))
E(lambda: torch.linalg.solve(A, torch.ones(2, dtype=torch.float64)))
E(lambda: torch.linalg.solve(A, torch.ones(2, 2, dtype=torch.float64)))
E(lambda: torch.linalg.solve(A, torch.ones(3, dtype=torch.float64), left=False))
E(lambda: torch.linalg.solve(A, torch.ones(3, 2, dtype=torch.float64), left=False))
E(lambda: torch.linalg.solve(torch.ones(2, 3), torch.ones(2))); E(lambda: torch.linalg.solve(A, torch.ones(3)))
E(lambda: torch.linalg.solve(torch.ones(2, 2, dtype=torch.int64), torch.ones(2, dtype=torch.int64)))
E(lambda: torch.linalg.solve(torch.ones(3), torch.ones(3)))
E(lambda: torch.linalg.solve(torch.ones(2, 2), torch.tensor(1.)))
T = torch.tensor([[2., 0., 0.], [1., 3., 0.], [-1., 2., 4.]], dtype=torch.float64, requires_grad=True)
Y = torch.linalg.solve_triangular(T, B, upper=False)
print(Y, Y.grad_fn, sorted(n for n in dir(Y.grad_fn) if n.startswith("_saved_")))
Y.sum().backward(); print(T.grad)
E(lambda: torch.linalg.solve_triangular(T, B)); E(lambda: torch.linalg.solve_triangular(T, b, upper=True))
E(lambda: torch.linalg.solve_triangular(T, B.mT, upper=True))
""",
    "linalg_svd_svdvals_pinv_rank": """
A = torch.tensor([[2., -1., 0.5], [1., 3., -2.], [0.5, 1., 4.], [-1., 2., 1.]], dtype=torch.float64, requires_grad=True)
U, S, Vh = torch.linalg.svd(A)
print(type(torch.linalg.svd(A)).__name__, U.shape, S, Vh.shape, S.grad_fn._saved_full_matrices,
      S.grad_fn._saved_S_sym_argsize_minus_1, sorted(n for n in dir(S.grad_fn) if n.startswith("_saved_")))
print(((U[:, :3] * S) @ Vh).detach(), (U[:, :3] * U[:, :3]).detach(), (Vh * Vh).detach())
(S.sum() + (U[:, :3] * U[:, :3] * torch.arange(12.).view(4, 3)).sum() + (Vh * Vh).sum(0).pow(2).sum()).backward()
print(A.grad)
A.grad = None
s = torch.linalg.svdvals(A); print(s, s.grad_fn._saved_full_matrices); s.pow(3).sum().backward(); print(A.grad)
print(torch.linalg.svdvals(A.detach()), torch.linalg.svd(A.mT, full_matrices=False).S)
P = torch.linalg.pinv(A); print(P, sorted(n for n in dir(P.grad_fn) if n.startswith("_saved_")))
A.grad = None
P.pow(2).sum().backward(); print(A.grad)
d = torch.diag(torch.tensor([1., 0.5, 1e-3], dtype=torch.float64))
print(torch.linalg.pinv(d, 0.1), torch.linalg.pinv(d, atol=0.1), torch.linalg.pinv(d, hermitian=True, rtol=0.1))
print(torch.pinverse(d), d.pinverse(rcond=0.01))
print(torch.linalg.matrix_rank(A), torch.linalg.matrix_rank(d, atol=0.1), torch.linalg.matrix_rank(d, rtol=0.6),
      torch.linalg.matrix_rank(d, tol=0.01), torch.linalg.matrix_rank(torch.zeros(2, 3, 3)),
      torch.linalg.matrix_rank(d, hermitian=True), torch.linalg.matrix_rank(torch.eye(2, dtype=torch.complex64)))
for f in [lambda: torch.linalg.svd(torch.ones(3)), lambda: torch.linalg.svd(torch.ones(3, 3, dtype=torch.int64)),
          lambda: torch.linalg.svdvals(torch.ones(3)), lambda: torch.linalg.svd(A, driver="gesvd"),
          lambda: torch.linalg.svd(torch.eye(2, dtype=torch.float16)), lambda: torch.linalg.pinv(torch.ones(3)),
          lambda: torch.linalg.pinv(torch.ones(3, 3, dtype=torch.int64)),
          lambda: torch.linalg.matrix_rank(torch.ones(3)),
          lambda: torch.linalg.matrix_rank(torch.ones(3, 3, dtype=torch.int64))]:
    E(f)
C = torch.tensor([[2., 1j], [0.5, 3.]], dtype=torch.complex128, requires_grad=True)
E(lambda: torch.linalg.svd(C)[0].sum().abs().backward())
""",
    "linalg_lstsq": """
A = torch.tensor([[2., -1., 0.5], [1., 3., -2.], [0.5, 1., 4.], [-1., 2., 1.]], dtype=torch.float64, requires_grad=True)
B = torch.tensor([[1., 2.], [0., -1.], [3., 1.], [1., 1.]], dtype=torch.float64, requires_grad=True)
r = torch.linalg.lstsq(A, B)
print(r, sorted(n for n in dir(r.solution.grad_fn) if n.startswith("_saved_")))
r.solution.pow(2).sum().backward(); print(A.grad, B.grad)
A.grad = B.grad = None
r = torch.linalg.lstsq(A, B, driver="gelsd")
print(r)
(r.solution.sum() + r.residuals.sum()).backward(); print(A.grad, B.grad)
print(torch.linalg.lstsq(A, B, driver="gels"), torch.linalg.lstsq(A.mT, B[:3], driver="gelss"))
print([t.shape for t in torch.linalg.lstsq(A, B[:, 0], driver="gelsd")])
print([t.shape for t in torch.linalg.lstsq(torch.stack([A, A]), torch.stack([B, B]), driver="gelsd")])
for f in [lambda: torch.linalg.lstsq(torch.ones(3), torch.ones(3)),
          lambda: torch.linalg.lstsq(A, torch.ones(3, dtype=torch.float64)),
          lambda: torch.linalg.lstsq(A, torch.ones(3, 1, dtype=torch.float64)),
          lambda: torch.linalg.lstsq(A, torch.ones(4, 1)), lambda: torch.linalg.lstsq(A, B, driver="foo"),
          lambda: torch.linalg.lstsq(torch.ones(2, 3, 3), torch.ones(3)),
          lambda: torch.linalg.lstsq(torch.ones(3, 3, dtype=torch.int64), torch.ones(3, 1, dtype=torch.int64)),
          lambda: torch.linalg.lstsq(torch.ones(3, 3), torch.tensor(1.))]:
    E(f)
""",
    "linalg_norms": """
A = torch.tensor([[2., -1., 0.5], [1., 3., -2.], [0.5, 1., 4.]], dtype=torch.float64, requires_grad=True)
for ord in ["fro", "nuc", 2, -2, 1, -1, float("inf"), float("-inf")]:
    n = torch.linalg.matrix_norm(A, ord)
    f, chain = n.grad_fn, []
    while f is not None and f.name() != "torch::autograd::AccumulateGrad":
        chain.append(f.name()); f = f.next_functions[0][0]
    (g,) = torch.autograd.grad(n, A)
    print(ord, n, chain, g)
B = torch.arange(24., dtype=torch.float64).view(2, 3, 4).sin()
for ord in ["nuc", 2, -1, float("inf")]:
    print(torch.linalg.matrix_norm(B, ord, keepdim=True), torch.linalg.matrix_norm(B, ord, dim=(0, 2)))
print(torch.linalg.norm(A), torch.linalg.norm(A, 2), torch.linalg.norm(A, "nuc"), torch.linalg.norm(A[0], 3),
      torch.linalg.norm(B), torch.linalg.norm(B, 2, dim=(1, 2)), torch.linalg.norm(B, dim=1),
      torch.linalg.vector_norm(A, 3, dim=(0, 1)), torch.linalg.matrix_norm(A.float(), "nuc", dtype=torch.float64))
for f in [lambda: torch.linalg.matrix_norm(A, 3), lambda: torch.linalg.matrix_norm(A, "foo"),
          lambda: torch.linalg.matrix_norm(A[0]), lambda: torch.linalg.matrix_norm(A, dim=(0, 0)),
          lambda: torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.int64)), lambda: torch.linalg.norm(A, 3),
          lambda: torch.linalg.norm(A[0], "fro"), lambda: torch.linalg.norm(B, 2),
          lambda: torch.linalg.norm(A, dim=(0, 1, 1)),
          lambda: torch.linalg.norm(A, "fro", dim=0), lambda: torch.linalg.matrix_norm(A, ord=None),
          lambda: torch.linalg.vector_norm(torch.ones(2, dtype=torch.int64))]:
    E(f)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_program_matches_torch(name):
    same_as_torch(PROGRAMS[name])



@pytest.mark.parametrize("make", [
    "T.zeros(2, 1).unsqueeze(2).expand(2, 1, 5)",
    "T.zeros(3, 1).expand(3, 1)",
    "T.zeros(1, 1).expand(4, 1, 1)",
    "T.zeros(3, 1).t().expand(2, 1, 3)",
    "T.zeros(2, 1, 3).expand(2, 4, 3)",
    "T.zeros(1, 3).expand(2, 3)",
    "T.arange(6.).reshape(2, 1, 3).requires_grad_().expand(2, 1, 3).reshape(6).grad_fn.name()",
])
def test_expand_keeps_the_stride_of_a_size_one_dim_that_stays(make):
    # PyTorch keeps such a dim's stride (NumPy's broadcast sets it to 0): strides decide view vs reshape nodes.
    same_as_torch(f"import torch as T\nx = {make}\nprint(x if isinstance(x, str) else x.stride())\n")
