"""Session 28 leftovers: dir() of a SavedTensor, float16 group_norm backward, solve_triangular's complex gradient of a
real B, complex32's warnings with out= and in place (and its index_add/addcmul, computed as PyTorch rounds them),
the uint8-index warning of a backward formula given after the create_graph warning, sizes beyond int64 given to
view/reshape/expand/repeat, the __mro__ and __bases__ of the node classes PyTorch writes in C++.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import fresh_warn_once, same_as_torch

# Counts the warnings a call gives (every time: fresh_warn_once turns on set_warn_always in both libraries).
COUNT = """
import warnings
def count(name, f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        try:
            r = f()
            print(name, r.dtype, r.to(torch.cfloat).tolist() if r.dtype == torch.chalf else r)
        except Exception as e:
            print(name, type(e).__name__, e)
    print(name, [(x.category.__name__, str(x.message)[:40]) for x in w])
warnings.simplefilter("ignore")   # (outside count)
"""


def test_saved_tensor_dir_lists_pytorch_methods():
    # PyTorch's SavedTensor (a pybind11 class) lists its own methods; minigrad's listed its slots and helpers
    same_as_torch("""
x = torch.tensor([1., 2.], requires_grad=True)
y = torch.tensor([3., 4.], requires_grad=True)
s = (x * y).grad_fn._raw_saved_self
print(dir(s))
print([n for n in dir(s) if not n.startswith('__')])
print([n for n in dir(x.exp().grad_fn._raw_saved_result) if not n.startswith('__')])
""")


def test_group_norm_half_backward_in_float():
    # PyTorch's CPU kernel computes the float16/bfloat16 backward in float32 and rounds once; minigrad's composite
    # formula ran in float16, where rstd³ of a constant group (1/√eps cubed) overflows: 0·inf, NaN. (The float32
    # kernel's bits: the reduced-precision kernel's own vector lanes are not modelled, a rare last bit differs)
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(2, 4, dtype=torch.float16, requires_grad=True)
F.group_norm(x, 4).sum().backward()
print(x.grad)
x = torch.ones(2, 4, 3, dtype=torch.bfloat16, requires_grad=True)
F.group_norm(x, 2).sum().backward()
print(x.grad)
torch.manual_seed(0)
for dt in (torch.half, torch.bfloat16):
    for shape, G, aff in [((2, 6, 5), 3, 1), ((3, 8, 4, 5), 2, 2)]:
        x = (torch.randn(*shape) * 3 + 1).to(dt).requires_grad_()
        w = torch.randn(shape[1]).to(dt).requires_grad_() if aff else None
        b = torch.randn(shape[1]).to(dt).requires_grad_() if aff == 2 else None
        F.group_norm(x, G, w, b).backward(torch.randn(*shape).to(dt))
        print(x.grad.flatten()[:10], None if w is None else w.grad, None if b is None else b.grad)
""")


def test_solve_triangular_refuses_complex_gradient_of_real_b():
    # PyTorch's formula for solve_triangular has no handle_r_to_c: a complex A's complex gradient for a real B is
    # refused by its engine; minigrad's engine took its real part
    same_as_torch("""
A = torch.tensor([[2+1j, 0], [1-1j, 3+0j]], requires_grad=True)
B = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
for a, b in ((A, B), (A.detach(), B), (A, B.detach())):
    r = torch.linalg.solve_triangular(a, b, upper=False)
    print(r)
    E(lambda: r.abs().sum().backward())
    print(A.grad, B.grad)
x, = torch.autograd.grad(torch.linalg.solve_triangular(A, B.detach(), upper=False).abs().sum(), A)
print(x)
E(lambda: torch.autograd.grad(torch.linalg.solve_triangular(A, B, upper=False).abs().sum(), B))
E(lambda: torch.autograd.grad(torch.linalg.solve_triangular(A, B, upper=False).abs().sum(), B, create_graph=True))
""")


def test_complex32_warnings_with_out_and_in_place():
    # PyTorch: writing into an out= tensor of dtype complex32 (or in place) allocates no complex32 result, so it does
    # not warn for one (a complex32 result into a complex64 out= does: its temporary); an index tensor is not copied
    # to complex32; minigrad warned for the result it computed before copying it into out=, for the in-place
    # refusals and for the index operand
    with fresh_warn_once():
        same_as_torch(COUNT + """
t = torch.tensor([1+2j, 3-1j, 2-2j], dtype=torch.chalf)
u = torch.tensor([0.5-1j, -2+0.25j, 1.5+3j], dtype=torch.chalf)
h = torch.ones(3, dtype=torch.half)
i = torch.tensor([2, 0])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    clones = [t.clone() for _ in range(8)]
    outs = [torch.empty(3, dtype=torch.chalf) for _ in range(12)]
    empty, cfloat, two = torch.empty(0, dtype=torch.chalf), torch.empty(3, dtype=torch.cfloat), outs[10][:2]
for name, f in dict(mul=lambda: torch.mul(t, t, out=outs[0]), mul_h=lambda: torch.mul(t, h, out=outs[1]),
                    add_1=lambda: torch.add(t, 1, out=outs[2]), neg=lambda: torch.neg(t, out=outs[3]),
                    sub=lambda: torch.sub(t, t, out=outs[4]), mul_hh=lambda: torch.mul(h, h, out=outs[5]),
                    where=lambda: torch.where(torch.tensor([True, False, True]), t, t, out=outs[6]),
                    sgn=lambda: torch.sgn(t, out=outs[7]), mul_cfloat=lambda: torch.mul(t, t, out=cfloat),
                    mul_resize=lambda: torch.mul(t, t, out=empty), cat=lambda: torch.cat([t, t], out=outs[8][:0]),
                    index_select=lambda: torch.index_select(t, 0, i, out=outs[9]),
                    gather_out=lambda: torch.gather(t, 0, i, out=two),
                    exp=lambda: t.exp(), exp_=lambda: clones[0].exp_(), exp_out=lambda: torch.exp(t, out=outs[11]),
                    div=lambda: t / u, div_=lambda: clones[1].div_(u),
                    scatter_add=lambda: t.scatter_add(0, i, u), scatter_add_=lambda: clones[2].scatter_add_(0, i, u),
                    abs=lambda: torch.abs(t, out=torch.empty(3, dtype=torch.half))).items():
    count(name, f)
""")


def test_complex32_index_add_and_addcmul_compute():
    # PyTorch's CPU kernels of index_add and addcmul have a ComplexHalf version: c10::complex<Half> arithmetic,
    # each operation rounded to complex32 (value/alpha too; a repeated index adds in order); minigrad refused them
    with fresh_warn_once():
        same_as_torch(COUNT + """
t = torch.tensor([1+2j, 3-1j, 2-2j], dtype=torch.chalf)
u = torch.tensor([0.5-1j, -2+0.25j, 1.5+3j], dtype=torch.chalf)
h = torch.ones(3, dtype=torch.half)
i = torch.tensor([2, 0])
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    clones = [t.clone() for _ in range(4)]
    outs = [torch.empty(3, dtype=torch.chalf) for _ in range(4)]
for name, f in dict(index_add=lambda: t.index_add(0, i, u[:2]), index_add_=lambda: clones[0].index_add_(0, i, u[:2]),
                    alpha=lambda: t.index_add(0, i, u[:2], alpha=0.3),
                    repeated=lambda: t.index_add(0, i[[0, 0]], u[:2]),
                    index_add_out=lambda: torch.index_add(t, 0, i, u[:2], out=outs[0]),
                    addcmul=lambda: torch.addcmul(t, u, t), value=lambda: torch.addcmul(t, u, t, value=0.3),
                    complex_value=lambda: torch.addcmul(t, u, t, value=1/3 + 0.7j),
                    addcmul_=lambda: clones[1].addcmul_(u, t), addcmul_out=lambda: torch.addcmul(t, u, t, out=outs[1]),
                    addcmul_h=lambda: torch.addcmul(t, h, u), addcmul_hh=lambda: torch.addcmul(h, h, t),
                    addcdiv=lambda: torch.addcdiv(t, u, t)).items():
    count(name, f)
warnings.simplefilter("ignore")
g = torch.Generator().manual_seed(0)
def c32(*shape):
    return torch.complex(torch.randn(*shape, generator=g) * 3, torch.randn(*shape, generator=g) * 3).to(torch.chalf)
a, b, c = c32(40), c32(40), c32(40)
for v in (1, 0.3, -1.7, 1/3 + 0.7j):
    print(torch.addcmul(a, b, c, value=v).to(torch.cfloat))
idx = torch.randint(0, 8, (40,), generator=g)
for alpha in (1, 0.3, 1 + 2j):
    print(torch.index_add(a[:8], 0, idx, b, alpha=alpha).to(torch.cfloat))
m = c32(5, 3)
print(torch.index_add(m, 1, torch.tensor([1, 1, 0, 2]), c32(5, 4)).to(torch.cfloat))
""")


def test_uint8_index_warning_of_backward_after_create_graph_warning():
    # PyTorch's engine holds the C++ warnings of the nodes it runs (IndexBackward0's uint8-index deprecation) and
    # gives them when backward() returns, after its create_graph warning (and after Python warnings of hooks);
    # minigrad gave the formula's warning as it ran, and none for IndexPutImplBackward0's formulas
    with fresh_warn_once():
        same_as_torch("""
import warnings
def run(name, f):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        f()
    # (where: the file giving it, for backward(); autograd.grad's are given as its formulas run: a leftover)
    print(name, [(x.category.__name__, str(x.message)[:45], x.filename.split('/')[-2:] if name != "grad_of_grad"
                  else "") for x in w])
i = torch.tensor([1, 0], dtype=torch.uint8)
x = torch.tensor([1., 2.], requires_grad=True)
def hook(g):
    warnings.warn("hook")
    return g
def create_graph():
    y = x[i]
    y.register_hook(hook)
    y.sum().backward(create_graph=True)
def plain():
    y = x[i]
    y.register_hook(hook)
    y.sum().backward()
def grad_of_grad():
    (g,) = torch.autograd.grad(x[i].pow(2).sum(), x, create_graph=True)
    g.sum().backward()
for name, f in dict(create_graph=create_graph, plain=plain, grad_of_grad=grad_of_grad).items():
    run(name, f)
print(x.grad)
""")


def test_sizes_beyond_int64_refused_by_the_parser():
    # PyTorch's parser reads each size as an int64 before the op runs: a larger int is its TypeError (whose message
    # goes on with C++ frames: the first line compared); minigrad's view/reshape/expand/repeat ran and failed on the
    # shape (RuntimeError) or in NumPy (ValueError, OverflowError)
    same_as_torch("""
def E1(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).split(chr(10))[0])
x = torch.ones(2, 1)
for f in (lambda: torch.ones(1).view(2**63), lambda: x.view(1, 2**63), lambda: x.view((1, 2**63)),
          lambda: x.view(-2**63 - 1), lambda: x.view(2, 1, 2**63), lambda: x.view(-1, 2**63),
          lambda: torch.ones(0).view(0, 2**63), lambda: x.reshape(2**63), lambda: x.reshape(1, 2**63),
          lambda: torch.reshape(x, (1, 2**63)), lambda: x.t().reshape(2**63, 1), lambda: x.expand(2**63),
          lambda: x.expand(3, 2**63, 1), lambda: x.expand(2, -2**63 - 1), lambda: x.expand(2**64),
          lambda: x.expand(4, 2**63), lambda: x.repeat(2**63), lambda: x.repeat(1, 2**63),
          lambda: x.repeat(-2**63 - 1, 1), lambda: torch.ones(2).expand(0, -5)):
    E1(f)
""")


def test_cpp_node_classes_show_no_python_bases():
    # PyTorch's node classes are C++ classes: type(node).__mro__ is (MulBackward0, object) and __bases__ (object,),
    # isinstance(node, torch.autograd.graph.Node) still True; minigrad's showed its OpNode and Node bases
    same_as_torch("""
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 1
y[0] = 5
s = torch.ones(2).to_sparse().requires_grad_()
for g in ((x * x).grad_fn, x.sum().grad_fn, y.grad_fn, (x * 1).grad_fn.next_functions[0][0], x.view(2).grad_fn,
          s.to_dense().grad_fn):
    t = type(g)
    print(t.__name__, t.__mro__, t.__bases__, type(t), isinstance(g, torch.autograd.graph.Node),
          issubclass(t, torch.autograd.graph.Node), [n for n in dir(g) if not n.startswith('__')])
g = (x * x).grad_fn
E(lambda: setattr(g, "note", 3))
print([n for n in dir(type(g)) if n in ('name', 'metadata', 'next_functions')])
""")
