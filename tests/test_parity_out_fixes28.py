"""Session 28: out= and set_ corners (normal's out= shape, linalg.inv's out= dtype before its singular error,
householder_product's column-major out=, set_ on a view, set_ from a storage)."""
from parity import same_as_torch


def test_normal_tensor_mean_out_shape():
    # PyTorch's normal(Tensor mean, float std, out=o) draws into mean broadcast with o's own shape (infer_size): an
    # empty out= is a size error, a larger one is filled whole; minigrad resized out= to mean's shape
    same_as_torch("""
torch.manual_seed(0)
E(lambda: torch.normal(torch.zeros(3), 1., out=torch.empty(0)))
E(lambda: torch.normal(torch.zeros(3), 1., out=torch.empty(2)))
import warnings
def W(f):   # the result and the warnings given
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        r = f()
    print(r, [str(w.message)[:110] for w in given])
o = torch.empty(2, 3)
W(lambda: torch.normal(torch.zeros(3), 1., out=o))
print(o._version)
W(lambda: torch.normal(torch.zeros(2, 1), 2., out=torch.empty(3)))
W(lambda: torch.normal(torch.zeros(3), 1., out=torch.empty(1)))
W(lambda: torch.normal(0., torch.ones(3), out=torch.empty(5)))
print(torch.normal(torch.zeros(2, 1), torch.ones(3), out=torch.empty(0)))
print(torch.normal(torch.zeros(3), 1., out=torch.empty(3, dtype=torch.float64)))
E(lambda: torch.normal(torch.zeros(3), 1., out=torch.empty(3, dtype=torch.long)))
E(lambda: torch.normal(torch.zeros(3, requires_grad=True), 1., out=torch.empty(3)))
E(lambda: torch.normal(torch.zeros(3), -1., out=torch.empty(0)))
""")


def test_linalg_inv_out_dtype_before_singular():
    # PyTorch's linalg_inv_ex checks out='s dtype before inv reports the singular matrix; minigrad reported it first
    same_as_torch("""
E(lambda: torch.linalg.inv(torch.zeros(2, 2), out=torch.empty(0, dtype=torch.float64)))
E(lambda: torch.inverse(torch.zeros(2, 2), out=torch.empty(0, dtype=torch.float64)))
E(lambda: torch.linalg.inv(torch.zeros(2, 2), out=torch.empty(0)))
E(lambda: torch.linalg.inv(torch.zeros(2, 2, dtype=torch.long), out=torch.empty(0, dtype=torch.float64)))
""")


def test_householder_product_empty_out_column_major():
    # PyTorch's kernel lays an empty out= of the input's dtype out column-major; any other out= gets a copy
    same_as_torch("""
A = torch.randn(4, 3, 2)
tau = torch.randn(4, 2)
for o in (torch.empty(0), torch.empty(0, dtype=torch.float64), torch.empty(4, 3, 2), torch.empty(2, 3)):
    r = torch.linalg.householder_product(A[0], tau[0], out=o) if o.dim() == 2 else \\
        torch.linalg.householder_product(A, tau, out=o)
    print(r.shape, r.stride(), r is o)
""")


def test_set_on_a_view_keeps_its_base():
    # PyTorch's set_ keeps a view's base (_is_view(), _base), its grad_fn regenerated as an as_strided of the
    # base; minigrad made the tensor a non-view
    same_as_torch("""
z = torch.zeros(5)
zv = z[:2]
zv.set_(torch.ones(4))
print(zv._is_view(), zv._base is z, zv, zv._version, z._version)
z2 = torch.zeros(5)
v2 = z2[1:3]
v2.set_(torch.arange(4.), 1, (2,))
z2.requires_grad_()
print(v2._base is z2, v2.requires_grad, v2.grad_fn.name(), v2.is_leaf)
(v2 * 2).sum().backward()
print(z2.grad)
""")


def test_set_from_a_storage():
    # PyTorch's set_ takes a Storage source (all of it, or a window); minigrad raised its TypeError
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
s = torch.tensor([0., 1., 2., 3., 4., 5.])
t = torch.empty(0)
print(t.set_(s.untyped_storage(), 1, (2, 2), (2, 1)), t.stride(), t.storage_offset(), t._version)
t.add_(10)
print(s)
print(torch.empty(0).set_(s.untyped_storage()))
print(torch.empty(0).set_(s.storage(), 2, [2]))
print(torch.empty(0).set_(source=s.untyped_storage(), storage_offset=2, size=[2], stride=[2]))
print(torch.empty(0, dtype=torch.int32).set_(s.untyped_storage()))
print(torch.empty(0, dtype=torch.float64).set_(s.untyped_storage()[:12]))
E(lambda: torch.empty(0, dtype=torch.int32).set_(s.storage()))
E(lambda: torch.empty(0).set_(s.untyped_storage(), -1, (2,)))
E(lambda: torch.empty(0).set_(s.untyped_storage(), 0, (2,), (1, 1)))
E(lambda: torch.empty(0).set_(s.untyped_storage(), 0, (2,), (-1,)))
E(lambda: torch.empty(0).set_(s, 0, (-2,), (1,)))
E(lambda: torch.empty(0).set_(s, 0, (2,), (-1,)))
E(lambda: torch.empty(0).set_(s.untyped_storage(), 1, 2))
E(lambda: torch.empty(0, requires_grad=True).set_(s.untyped_storage()))
""")


def test_softmax_log_softmax_out():
    # PyTorch's torch.softmax / log_softmax take out= (dim checked, then out='s dtype, then the kernel; a
    # NotImplemented node on out when the input requires grad); minigrad had no out=
    same_as_torch("""
x = torch.tensor([1., 2., 3.], requires_grad=True)
E(lambda: torch.log_softmax(x.detach(), 0, out=torch.empty(3, requires_grad=True)))
o = torch.log_softmax(x, 0, out=torch.empty(3))
print(o.grad_fn.name(), len(o.grad_fn.next_functions), o._version, o.requires_grad, o.is_leaf)
E(lambda: o.sum().backward())
o = torch.softmax(x, dim=0, dtype=torch.float64, out=torch.empty(0, dtype=torch.float64))
print(o, o._version)
E(lambda: torch.softmax(x.detach(), 0, dtype=torch.float64, out=torch.empty(3)))
E(lambda: torch.softmax(x.detach(), 1, out=torch.empty(3, dtype=torch.float64)))
y = torch.tensor([[1., 2., 0.], [3., 4., -1.]])
print(torch.softmax(y, 1, out=torch.empty(3, 2).t()).stride())
print(torch.softmax(y.t(), 1, out=torch.empty(0)).stride())
print(torch.log_softmax(y, 0, out=torch.empty(0)))
E(lambda: torch.softmax(torch.tensor([1, 2]), 0, out=torch.empty(2)))
E(lambda: torch.softmax(torch.tensor([1, 2]), 0, out=torch.empty(2, dtype=torch.long)))
E(lambda: torch.softmax(y, 0, out=3))
with torch.no_grad():
    print(torch.softmax(x, 0, out=torch.empty(3)))
""")


def test_isin_narrow_copy_argsort_out():
    # PyTorch's isin (bool out=, no derivative: written even while recording), narrow_copy (out= of the input's
    # dtype, resized silently) and argsort(stable=..., out=) (sort's out= of int64 indices) take out=; minigrad not
    same_as_torch("""
import warnings
def W(f):   # the result and the warnings given
    with warnings.catch_warnings(record=True) as given:
        warnings.simplefilter("always")
        r = f()
    print(r, r._version, [str(w.message)[:60] for w in given])
x = torch.tensor([3., 1., 2.])
a = torch.tensor([1, 2, 3])
W(lambda: torch.isin(a, torch.tensor([2]), out=torch.empty(3, dtype=torch.bool)))
W(lambda: torch.isin(a, 2, out=torch.empty(0, dtype=torch.bool)))
W(lambda: torch.isin(2, a, invert=True, out=torch.empty(2, dtype=torch.bool)))
E(lambda: torch.isin(a, torch.tensor([2]), out=torch.empty(3)))
print(torch.isin(x.requires_grad_(), x, out=torch.empty(3, dtype=torch.bool)))
x = x.detach()
y = torch.tensor([[1., 2.], [3., 4.]])
W(lambda: torch.narrow_copy(y, 1, 0, 1, out=torch.empty(0)))
W(lambda: torch.narrow_copy(y, 0, 1, 1, out=torch.empty(5)))
E(lambda: torch.narrow_copy(y, 0, 0, 1, out=torch.empty(2, dtype=torch.float64)))
E(lambda: torch.narrow_copy(y, 1, 0, 5, out=torch.empty(0)))
E(lambda: torch.narrow_copy(y.requires_grad_(), 0, 0, 1, out=torch.empty(1)))
W(lambda: torch.argsort(x, stable=True, out=torch.empty(3, dtype=torch.long)))
W(lambda: torch.argsort(x, stable=True, descending=True, out=torch.empty(1, dtype=torch.long)))
E(lambda: torch.argsort(x, out=torch.empty(3, dtype=torch.long)))
E(lambda: torch.argsort(x, stable=True, out=torch.empty(3)))
E(lambda: torch.argsort(x, dim=0, stable=True, out=torch.empty(0, dtype=torch.int32)))
E(lambda: torch.argsort(x.requires_grad_(), stable=True, out=torch.empty(3, dtype=torch.long)))
""")


def test_frexp_out_pair():
    # PyTorch's frexp takes out=(mantissa, exponent), returned as torch.return_types.frexp_out of those tensors,
    # with its own dtype checks (exponent's first, then the mantissa's); minigrad had no out=
    same_as_torch("""
import warnings
x = torch.tensor([1., 2., 3.])
m, e = torch.empty(3), torch.empty(3, dtype=torch.int32)
r = torch.frexp(x, out=(m, e))
print(r, type(r).__name__, r.mantissa is m, r[1] is e, m._version, e._version)
E(lambda: torch.frexp(x, out=(torch.empty(3), torch.empty(3))))
E(lambda: torch.frexp(x, out=(torch.empty(3, dtype=torch.float64), torch.empty(3, dtype=torch.int32))))
E(lambda: torch.frexp(torch.tensor([1, 2]), out=(torch.empty(0), torch.empty(0, dtype=torch.int32))))
with warnings.catch_warnings(record=True) as given:
    warnings.simplefilter("always")
    print(torch.frexp(x.double(), out=(torch.empty(0, dtype=torch.float64), torch.empty(5, dtype=torch.int32))))
print([str(w.message)[:60] for w in given])
E(lambda: torch.frexp(x.requires_grad_(), out=(torch.empty(3), torch.empty(3, dtype=torch.int32))))
E(lambda: torch.frexp(x.detach(), out=torch.empty(3)))
E(lambda: torch.frexp(x.detach(), out=(torch.empty(3),)))
""")


def test_histogram_out_pair():
    # PyTorch's histogram takes out=(hist, bin_edges) of the input's dtype (checked after the bin edges' dtype,
    # before the kernel's errors), returned as histogram_out; a NotImplemented node on both when the input requires
    # grad; minigrad had no out=
    same_as_torch("""
x = torch.tensor([1., 2., 3.], requires_grad=True)
h, b = torch.empty(3), torch.empty(4)
r = torch.histogram(x, 3, out=(h, b))
print(r, type(r).__name__, r.hist is h, r[1] is b, h._version, b._version, h.grad_fn.name(),
      len(h.grad_fn.next_functions), h.grad_fn is b.grad_fn)
E(lambda: h.sum().backward())
E(lambda: torch.histogram(x.detach(), 3, out=(torch.empty(0), torch.empty(0, requires_grad=True))))
print(torch.histogram(x.detach(), torch.tensor([0., 2., 4.]), out=(torch.empty(0), torch.empty(0))))
E(lambda: torch.histogram(x.detach(), torch.tensor([0., 2., 4.], dtype=torch.float64),
                          out=(torch.empty(0), torch.empty(0))))
E(lambda: torch.histogram(x.detach(), 3, out=torch.empty(0)))
E(lambda: torch.histogram(x.detach(), 3, out=(torch.empty(0),)))
E(lambda: torch.histogram(x.detach(), 3, out=(torch.empty(0, dtype=torch.float64), torch.empty(0))))
E(lambda: torch.histogram(x.detach(), 3, out=(torch.empty(0), torch.empty(0, dtype=torch.float64))))
E(lambda: torch.histogram(torch.tensor([1, 2]), 2, out=(torch.empty(0), torch.empty(0))))
print(torch.histogram(x.detach(), 3, weight=torch.ones(3), density=True, out=(torch.empty(5), torch.empty(0))))
r = torch.histogram(x.detach(), 2, range=(0., 4.), weight=torch.ones(3, requires_grad=True),
                    out=(torch.empty(5), torch.empty(0)))
print(r, r.hist.grad_fn.name())
with torch.no_grad():
    print(torch.histogram(x, 3, out=(torch.empty(0), torch.empty(0))))
""")
