"""Session 20 leftovers: PyTorch's lazy negation (the negative bit: ``torch._neg_view``, ``z.conj().imag``,
``is_neg`` / ``resolve_neg``, writes through neg views, NegViewBackward0 in regenerated and double-backward graphs);
a view's grad_fn regenerated after its base stopped requiring grad; ``node._input_metadata`` and ``dir()`` of nodes;
``x.aminmax(0)``'s TypeError, ``torch.norm``'s positional ``out``, ``bucketize`` / ``searchsorted`` with ``out=``.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch

# Prints a graph as an indented tree of node names.
_WALK = """
def walk(t):
    out, stack = [], [(t.grad_fn, 0)]
    while stack:
        n, d = stack.pop()
        if n is None:
            continue
        out.append('  ' * d + type(n).__name__)
        stack.extend((c, d + 1) for c, _ in reversed(n.next_functions))
    print('\\n'.join(out))
"""


def test_neg_view_flags_and_resolution():
    # PyTorch: _neg_view copies nothing (a view with the negative bit); its views keep the bit, clone/resolve_neg/
    # any op's result drop it, and a neg view of a neg view reads the base's values again
    same_as_torch("""
y = torch.tensor([1., 2., 3.])
n = torch._neg_view(y)
print(n, n.is_neg(), torch.is_neg(n), n._base is y, y.is_neg())
print(n[0].is_neg(), n.detach().is_neg(), n.view(3).is_neg(), n.unsqueeze(0).is_neg(), n.data.is_neg())
print(n.clone().is_neg(), n.resolve_neg().is_neg(), n.contiguous().is_neg(), (n + 1).is_neg(), torch.neg(n).is_neg())
print(n.to(torch.float64).is_neg(), torch._neg_view(n).is_neg(), torch._neg_view(n), y.resolve_neg() is y)
print(n.stride(), n.storage_offset(), n.data_ptr() == y.data_ptr(), n.tolist(), n[1].item())
print(torch._neg_view(torch.arange(3)), torch.tensor([1., 2.])._neg_view().is_neg())
E(lambda: n.numpy())
print(n.resolve_neg().numpy(), n.numpy(force=True))
E(lambda: torch.is_neg(3))
""")


def test_neg_view_writes_go_to_the_base_and_back():
    # PyTorch: a write through a neg view writes the base negated (and the reverse), sharing its version counter
    same_as_torch("""
y = torch.tensor([1., 2., 3.])
n = torch._neg_view(y)
n.add_(1)
print(y, n, y._version, n._version)
y.mul_(2)
print(y, n)
z = torch.zeros(3); z.copy_(n); print(z, z.is_neg())
w = torch.zeros(3); nw = torch._neg_view(w); nw.copy_(torch.tensor([1., 2., 3.])); print(w, nw)
t = torch.tensor([1., 2., 3., 4.]); v = torch._neg_view(t[::2])
print(v, v.stride(), v.storage_offset()); v.add_(1); print(t)
m = torch.tensor([[1., 2.], [3., 4.]]); nm = torch._neg_view(m); nm.t_(); nm[0, 1] = 7; print(m, nm, nm.is_neg())
""")


def test_conj_imag_is_a_neg_view():
    # PyTorch's imag() of a conjugate view: view_as_real(self._conj())._neg_view(), then select: a view of the
    # base's memory with the negative bit (real() has none); writes through it reach the base
    same_as_torch(_WALK + """
x = torch.tensor([1+2j, 3-4j], requires_grad=True)
i = x.conj().imag
print(i, i.is_neg(), i._base is x, x.conj().real.is_neg(), x.imag.is_neg())
walk(i)
r = i.resolve_neg(); print(r, r.is_neg(), r.grad_fn)
i.sum().backward(); print(x.grad)
z = torch.tensor([1+2j, 3+4j])
print(z.conj().conj().imag.is_neg(), torch._neg_view(z).imag.is_neg(), torch._neg_view(z.conj()).imag.is_neg())
print(torch._neg_view(z.conj()).is_conj(), torch._neg_view(z).conj().is_neg(), torch._neg_view(z.conj()))
ci = z.conj().imag; ci.mul_(10); print(z, ci, z._version)
""")


def test_neg_view_autograd():
    # PyTorch: NegViewBackward0 (grad.neg()); an in-place write through the view makes the base's CopySlices, and
    # double backward through it works; forward AD's tangent is a neg view too
    same_as_torch("""
w = torch.tensor([1., 2., 3.], requires_grad=True)
nw = torch._neg_view(w)
print(nw, nw.grad_fn.next_functions[0][0].__class__.__name__)
nw.sum().backward(); print(w.grad)
a = w * 1
n = torch._neg_view(a)
n[0] = 10.
print(a, n)
g, = torch.autograd.grad((n * n).sum(), w, create_graph=True)
print(g)
g.sum().backward(); print(w.grad)
fwAD = torch.autograd.forward_ad
with fwAD.dual_level():
    p = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    u = fwAD.unpack_dual(torch._neg_view(p))
    print(u.primal, u.tangent, u.tangent.is_neg())
""")


def test_regenerated_neg_views_keep_their_neg_view_node():
    # PyTorch regenerates a view of a neg view (after an in-place change of the base) as an as_strided of the
    # replayed neg view: AsStridedBackward0 -> NegViewBackward0 (the sign of its gradient kept)
    same_as_torch(_WALK + """
x = torch.tensor([1+2j, 3-4j], requires_grad=True)
b = x * 1
i = b.conj().imag
b.mul_(2)
walk(i)
i.sum().backward(); print(x.grad)
y = torch.tensor([1., 2.], requires_grad=True)
a = y * 1
n = torch._neg_view(a)[1:]
a.add_(1)
walk(n)
n.mul_(5); print(a)
(a.sum() + n.sum()).backward(); print(y.grad)
""")


def test_view_regenerated_after_its_base_stopped_requiring_grad():
    # PyTorch (fuzz seed 188054): a view with a grad_fn whose base no longer requires grad, after an in-place
    # change of the base, gets an AsStridedBackward0 leading nowhere (the saved-tensor error names it too)
    same_as_torch("""
b = torch.ones(4, requires_grad=True)
v = b.unsqueeze(1)
w = b[1:]
b.requires_grad = False
print(type(v.grad_fn).__name__)
with torch.no_grad():
    b.mul_(2)
print(type(v.grad_fn).__name__, v.requires_grad, v.is_leaf, v.grad_fn.next_functions)
print(w.requires_grad, type(w.grad_fn).__name__)
a = torch.ones(4, requires_grad=True)
c = torch.ones(4, requires_grad=True)
p = c.unsqueeze(1)
out = (a.unsqueeze(1) * p).sum()
c.requires_grad = False
with torch.no_grad():
    c.add_(1)
E(lambda: out.backward())
""")


def test_node_input_metadata():
    # PyTorch's Node._input_metadata: one _InputMetadata per gradient the node takes in (its forward's outputs)
    same_as_torch("""
x = torch.ones(2, 3, requires_grad=True)
def md(fn): return [(m.shape, m.dtype, str(m.device), m.is_nested_tensor, m.is_cpp_nested_tensor)
                    for m in fn._input_metadata]
m = (x + torch.ones(3, dtype=torch.float64)).grad_fn._input_metadata
print(type(m).__name__, len(m), type(m[0]).__name__, m[0])
print([n for n in dir(m[0]) if not n.startswith('__')])
print(md(x.split(1)[0].grad_fn), md(x.max(0)[0].grad_fn), md(x.sum().grad_fn), md((x * 2).grad_fn))
print(md((x.double() + 1j).grad_fn), md(x.unbind(0)[1].grad_fn), md(x.expand(4, 2, 3).grad_fn))
b = x.clone(); b[0] = 1; print(md(b.grad_fn), md((x * 2).grad_fn.next_functions[0][0]))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        return a * 2, 3, a[0].double()
    @staticmethod
    def backward(ctx, g, h, k):
        return g
print(md(F.apply(x)[0].grad_fn))
n = x.sum().grad_fn; n._set_sequence_nr(7); print(n._sequence_nr())
""")


def test_dir_of_nodes():
    # PyTorch: dir() of a C++ node lists its getters (_saved_*, variable ...) and Node's methods only; a custom
    # Function's node lists FunctionCtx's names and what ctx was given
    same_as_torch("""
x = torch.ones(2, 3, requires_grad=True)
print(dir((x + x).grad_fn))
print(dir((x * x).grad_fn))
print(dir((x * 2).grad_fn.next_functions[0][0]))
b = x.clone(); b[0] = 1
print(dir(b.grad_fn))
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a):
        ctx.k = 3
        ctx.save_for_backward(a)
        return a * 2
    @staticmethod
    def backward(ctx, g):
        return g
f = F.apply(x).grad_fn
print([n for n in dir(f) if n not in ('_autograd_function_id', '_compiled_autograd_backward_state',
      '_compiled_autograd_key', '_get_compiled_autograd_symints', '_get_user_fn', '_is_pure_view', 'apply_boxed',
      'maybe_clear_saved_tensors')])
d = f._register_hook(None, print)[0]  # (not printed whole: its key is a process-wide handle count)
print(f._materialize_non_diff_grads, type(d).__name__, list(d.values()))
""")


def test_aminmax_method_counts_without_self():
    # PyTorch's parser: the method's dim is keyword-only, and self is not counted
    same_as_torch("""
x = torch.tensor([[1., -2.], [3., 4.]])
E(lambda: torch.aminmax(x, 0))
E(lambda: x.aminmax(0))
E(lambda: x.aminmax(0, 1))
print(x.aminmax(dim=0))
""")


def test_norm_positional_out_and_dtype():
    # PyTorch's torch.norm is Python: norm(input, p, dim, keepdim, out, dtype)
    same_as_torch("""
x = torch.tensor([[1., -2.], [3., 4.]])
out = torch.empty(2)
print(torch.norm(x, 2, 0, False, out), out)
print(torch.norm(x, 'fro', 1, False, out), out)
print(torch.norm(x, 2, 0, False, None, torch.float64))
E(lambda: torch.norm(x, 2, 0, False, out, None, 1))
E(lambda: torch.norm(x, 2, 0, False, out, out=out))
""")


def test_bucketize_and_searchsorted_out():
    # PyTorch: out= of the result's index dtype (int64, int32 with out_int32), resized with its warning; no
    # derivative, so taken while autograd records; bucketize of a number has no out=
    same_as_torch("""
import warnings
b = torch.tensor([0., 2., 4.]); v = torch.tensor([1., 3., 5.])
o = torch.empty(3, dtype=torch.int64)
r = torch.bucketize(v, b, out=o); print(r is o, o, o._version)
o32 = torch.empty(0, dtype=torch.int32)
print(torch.bucketize(v, b, out_int32=True, right=True, out=o32), o32)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    o2 = torch.empty(2, dtype=torch.int64)
    print(torch.searchsorted(b, v, out=o2), o2, [str(x.message)[:40] for x in w])
print(torch.bucketize(v.requires_grad_(), b, out=o))
E(lambda: torch.bucketize(v, b, out=torch.empty(3, dtype=torch.int32)))
E(lambda: torch.searchsorted(b, v, out=torch.empty(3)))
E(lambda: torch.bucketize(1.0, b, out=o))
""")


def test_mm_of_two_sparse_matrices_is_sparse():
    # PyTorch: torch.sparse.mm / torch.mm / @ of two sparse COO matrices return a sparse (coalesced) product
    # holding every entry where the patterns meet (a cancelled one stays, as a zero)
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
a = torch.tensor([[1., 0., 2.], [0., 3., 0.]]).to_sparse()
b = torch.tensor([[0., 1.], [4., 0.], [0., 5.]]).to_sparse()
print(torch.sparse.mm(a, b))
print(torch.mm(a, b).is_coalesced(), (a @ b).to_dense(), torch.matmul(a, b).layout)
c = torch.sparse_coo_tensor([[0, 0, 1], [0, 1, 0]], [1., -1., 0.], (2, 2))
d = torch.sparse_coo_tensor([[0, 1], [0, 0]], [1., 1.], (2, 1))
print(torch.sparse.mm(c, d))
print(torch.sparse.mm(torch.sparse_coo_tensor([[0, 0], [0, 0]], [1., 2.], (2, 2)), d))
E(lambda: torch.mm(c, d.double()))
E(lambda: torch.sparse.mm(c, torch.sparse_coo_tensor([[0], [0]], [1.], (3, 1))))
""")


def test_mm_of_two_sparse_matrices_backward():
    # PyTorch: torch.sparse.mm records SparseSparseMatmulBackward0, whose gradients are masked to each operand's
    # pattern; torch.mm records MmBackward0, whose sparse products are kept whole
    same_as_torch("""
import warnings
warnings.simplefilter('ignore')
def pair():
    x = torch.sparse_coo_tensor([[0, 1, 1], [2, 0, 1]], [2., 3., 4.], (2, 3), requires_grad=True)
    y = torch.sparse_coo_tensor([[0, 2, 2], [0, 0, 1]], [5., 6., 7.], (3, 2), requires_grad=True)
    return x, y
x, y = pair()
z = torch.sparse.mm(x, y)
print(z, sorted(k for k in dir(z.grad_fn) if 'saved' in k))
torch.sparse.sum(z * z).backward()
print(x.grad, y.grad)
x, y = pair()
z = x @ y
n = z.grad_fn
print(n, n._saved_self_sym_sizes, n._saved_self_sym_strides, n._saved_mat2_sym_sizes)
torch.sparse.sum(z * z).backward()
print(x.grad, y.grad)
""")


def test_function_mode_types_of_tensor_methods():
    # PyTorch: a Tensor method bound without its argument parser (METH_NOARGS: exp, t, dim, item, __float__ ...,
    # and new_tensor / new) hands ``self`` on, so a mode's ``types`` holds Tensor; the parser's methods leave a plain
    # Tensor out; new_zeros, stride, unflatten ... are handed on too (unflatten, written in Python, counts Tensor)
    same_as_torch("""
class M(torch.overrides.TorchFunctionMode):
    def __torch_function__(self, func, types, args=(), kwargs=None):
        print(getattr(func, '__name__', func), [t.__name__ for t in types], len(args), sorted((kwargs or {}).keys()))
        return func(*args, **(kwargs or {}))
class S(torch.Tensor):
    pass
x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
y = torch.ones(2, 2)
s = y.as_subclass(S)
with M():
    x + y; x.sum(); x.mean(dim=0); x.view(4); x.t(); x.T; x[0]; x.size(0); x.exp(); torch.exp(x); x @ y
    x.detach(); x.clone(); x.numel(); x.dim(); x.max(); x.relu(); torch.relu(x); x.float(); x[0, 0].item()
    x.tolist(); len(x); x.is_leaf; x.norm(); -x; abs(x); float(x[0, 0]); bool(x[0, 0]); +x; ~(x > 1)
    x.new_zeros(2); x.new_ones(2); x.new_full((2,), 1.); x.new_tensor([1.]); x.stride(); x.stride(0)
    x.unflatten(0, (1, 2)); x.new_empty_strided((2,), (1,)); s.exp(); s.numel(); s + y
    x.data_ptr(); x.is_floating_point(); x.element_size(); y.clone().sin_()
""")
