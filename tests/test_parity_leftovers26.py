"""Session 26 leftovers: uninitialized parameters and buffers refusing torch functions (lazy modules); std's NaN
gradient at 0-dim.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import fresh_warn_once, same_as_torch


def test_uninitialized_parameter_refuses_torch_functions():
    # PyTorch: UninitializedTensorMixin.__torch_function__ lets through only its _allowed_methods and properties
    # (method-wrappers), and raises ValueError naming the function for everything else; minigrad computed on the
    # empty placeholder (p + 1 was tensor([]))
    same_as_torch("""
import torch.nn.functional as F
p = torch.nn.parameter.UninitializedParameter()
x = torch.ones(2, 3)
for f in (lambda: p + 1, lambda: p.sum(), lambda: torch.exp(p), lambda: p * 2, lambda: p.mean(), lambda: p.view(-1),
          lambda: p.t(), lambda: p.numel(), lambda: p.nelement(), lambda: p.dim(), lambda: p.detach(), lambda: p[0],
          lambda: len(p), lambda: p.backward(), lambda: p.register_hook(print), lambda: F.linear(x, p),
          lambda: F.relu(p), lambda: torch.matmul(x, p), lambda: x + p, lambda: p.zero_(), lambda: p.item(),
          lambda: torch.nn.init.uniform_(p), lambda: torch.nn.init.kaiming_uniform_(p),
          lambda: torch.nn.init.normal_(p), lambda: torch.nn.init.constant_(p, 1.), lambda: torch.special.expit(p),
          lambda: torch.linalg.det(p),
          lambda: torch.cat([p, p]), lambda: p == p, lambda: -p, lambda: 1 - p, lambda: p.share_memory_()):
    E(f)
print(p, p.size(), p.dtype, p.requires_grad, p.grad, p.is_leaf, p.data, p.float(), p.double().dtype, p.is_complex())
E(lambda: p.shape)
p.materialize((2, 3))
print(type(p), p.shape, (p * 0).shape)
b = torch.nn.parameter.UninitializedBuffer()
E(lambda: b + 1); E(lambda: b.sum()); E(lambda: b.shape)
print(b, b.size())
b.materialize((2,))
print(type(b), (b * 0).shape)
""")


def test_lazy_modules_print_then_initialise():
    # PyTorch: a lazy module prints its placeholders, refuses arithmetic on them, and becomes its class_to_become on
    # the first forward; state_dict and load_state_dict handle placeholders without touching them
    same_as_torch("""
torch.manual_seed(0)
m = torch.nn.LazyLinear(3)
print(m, m.weight, m.bias)
E(lambda: m.weight + 1)
print(list(m.state_dict()), m.weight.dtype)
m.double()
y = m(torch.ones(2, 4, dtype=torch.float64))
print(m, type(m.weight), m.weight.shape, y.shape, y.dtype)
c = torch.nn.LazyConv2d(2, 3)
print(c, c.weight)
print(c(torch.ones(1, 1, 4, 4)).shape, c)
n = torch.nn.LazyBatchNorm1d()
print(n, n.weight, n.running_mean)
print(n(torch.ones(3, 2)).shape, n)
lazy = torch.nn.LazyLinear(2)
lazy.load_state_dict(torch.nn.Linear(4, 2).state_dict())
print(lazy.weight.shape)
E(lambda: torch.nn.LazyLinear(2).share_memory())
""")


def test_std_nan_gradient_sign_at_0_dim():
    # PyTorch: var_backward's grad * where(x == mean, nan, inf) of two 0-dim NaNs keeps the second one's (positive)
    # NaN; minigrad's NumPy product kept the first's, std's own -nan
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
for dt in (torch.float32, torch.float64):
    for shape in ((), (1,), (1, 1)):
        for f in (lambda x: x.std(), lambda x: x.var(), lambda x: x.std(correction=0), lambda x: x.std(unbiased=True),
                  lambda x: x.std(0), lambda x: x.var(0), lambda x: sum(torch.std_mean(x)),
                  lambda x: sum(torch.var_mean(x)), lambda x: x.std(correction=2), lambda x: x.std(0, keepdim=True)):
            x = torch.full(shape, 1.5, dtype=dt, requires_grad=True)
            f(x).sum().backward()
            print(dt, shape, x.grad, torch.signbit(x.grad))
    x = torch.tensor(1., dtype=dt, requires_grad=True)
    g, = torch.autograd.grad(x.std(), x, create_graph=True)
    print(g, torch.signbit(g), torch.autograd.grad(g, x)[0])
""")


def test_dense_tensor_sparse_accessors_and_python2_dunders():
    # PyTorch: a dense tensor has sparse_dim() 0 and dense_dim() its dim(); the sparse accessors refuse it by its
    # layout, _nnz/_indices/_values find no CPU kernel; is_distributed() is False, name None; TensorBase still has
    # __nonzero__, __long__, __div__, __idiv__ and a __delitem__ that refuses; minigrad had none of them
    same_as_torch("""
x = torch.ones(2, 3)
print(x.sparse_dim(), x.dense_dim(), torch.ones(()).dense_dim(), x.is_distributed(), x.name)
for n in ("indices", "values", "coalesce", "is_coalesced", "crow_indices", "col_indices", "ccol_indices",
          "row_indices"):
    E(lambda: getattr(x, n)())
for n in ("_nnz", "_indices", "_values"):
    try:
        getattr(x, n)()
    except NotImplementedError as e:   # (PyTorch then lists every backend that has the operator)
        print(str(e).split(" This could")[0])
E(lambda: x.indices(1)); E(lambda: x.sparse_dim(1)); E(lambda: x.is_distributed(1))
s = x.to_sparse()
print(s.sparse_dim(), s.dense_dim(), s.indices(), s._nnz(), s.coalesce().is_coalesced())
print(torch.ones(1).__nonzero__(), torch.zeros(1).__nonzero__(), torch.tensor([2.5]).__long__(), x.__div__(2))
E(lambda: x.__nonzero__()); E(lambda: x.__long__())
y = x.clone()
print(y.__idiv__(4), y)
E(lambda: x.__delitem__(0))
def f():
    del x[0]
E(f)
names = set(dir(torch.Tensor))
print([n for n in ("sparse_dim", "dense_dim", "indices", "values", "coalesce", "is_coalesced", "is_distributed",
                   "name", "__nonzero__", "__long__", "__div__", "__idiv__", "__delitem__") if n not in names])
""")


def test_tensor_base_class_and_metaclass():
    # PyTorch: torch.Tensor derives from torch._C.TensorBase (isinstance holds), its metaclass prints as
    # torch._C._TensorMeta; minigrad's Tensor derived from object
    same_as_torch("""
print(torch.Tensor.__mro__, torch.Tensor.__bases__, torch.nn.Parameter.__mro__)
print(torch._C.TensorBase, isinstance(torch.ones(1), torch._C.TensorBase), type(torch.Tensor))
class T(torch.Tensor):
    pass
print(T.__mro__[1:], type(T))
""")


def test_typename_of_functions_and_methods():
    # PyTorch: torch.relu is a static method of torch._VariableFunctionsClass, F.linear a function of torch._C._nn,
    # Tensor's methods belong to TensorBase (bound: the tensor's class), its Python ones to torch._tensor.Tensor;
    # minigrad said "minigrad.relu is not a Module subclass", torch.nn.functional.linear, torch._ops.add
    same_as_torch("""
F = torch.nn.functional
x = torch.ones(1)
p = torch.nn.Parameter(torch.ones(1))
for f in (torch.relu, torch.exp, F.linear, F.conv2d, torch.max_pool2d, torch.matmul, torch.tensor, torch.linalg.det,
          F.relu, torch.Tensor.add, x.add, p.add, torch.Tensor.size, torch.Tensor.backward, x.backward,
          torch.Tensor.register_hook, torch.Tensor.grad, torch.Tensor.split, torch.Tensor, torch.nn.Linear, x, len):
    print(torch.typename(f))
E(lambda: torch.nn.Sequential(torch.nn.Linear(2, 2), torch.relu))
E(lambda: torch.nn.Sequential(torch.exp))
E(lambda: torch.nn.ModuleList([torch.relu]))
E(lambda: torch.nn.Sequential(torch.nn.Linear(2, 2)).append(F.linear))
""")


def test_torch_max_pool_is_the_c_function():
    # PyTorch: torch.max_pool1d/2d/3d are the C functions under F's (no return_indices; parser errors naming no
    # position for a keyword; padding/dilation=None refused, stride=None the default); minigrad's were F's
    # ("_max_pool2d() got an unexpected keyword", return_indices taken, "'NoneType' object is not iterable")
    same_as_torch("""
F = torch.nn.functional
x4 = torch.ones(1, 1, 4, 4)
x3 = torch.ones(1, 1, 4)
for f in (lambda: torch.max_pool2d(x4, 2, foo=1), lambda: torch.max_pool2d(x4, kernel_size="a"),
          lambda: torch.max_pool2d(x4, 2, stride="a"), lambda: torch.max_pool2d(x4, 2, return_indices=True),
          lambda: torch.max_pool2d(x4, 2, 2, 0, 1, False, False), lambda: torch.max_pool2d(x4, 2, ceil_mode="a"),
          lambda: torch.max_pool2d(x4), lambda: torch.max_pool2d(x4, 2.5), lambda: torch.max_pool2d(x4, None),
          lambda: torch.max_pool2d(x4, 2, padding=None), lambda: torch.max_pool2d(x4, 2, 2, None),
          lambda: torch.max_pool2d(x4, 2, dilation=None), lambda: torch.max_pool1d(x3, 2, foo=1),
          lambda: torch.max_pool1d(x3, 2, return_indices=True), lambda: torch.max_pool1d(x3, 2, padding=None),
          lambda: torch.avg_pool1d(x3, 2, padding=None), lambda: torch.avg_pool1d(x3, None),
          lambda: torch.max_pool1d_with_indices(x3, 2, None, None),
          lambda: torch.max_pool3d(torch.ones(1, 1, 4, 4, 4), 2, None, None),
          lambda: F.max_pool2d(x4, 2, padding=None), lambda: F.max_pool2d(x4, 2, dilation=None),
          lambda: F.max_pool2d(x4, kernel_size=2, foo=1), lambda: F.max_pool2d(x4, 2, 2, 0, 1, False, False, 3)):
    E(f)
print(torch.max_pool2d(x4, 2), torch.max_pool2d(x4, 2, None).shape, torch.max_pool2d(input=x4, kernel_size=2).shape,
      torch.max_pool1d(x3, 2, 1, 1, 1, True), torch.max_pool3d(torch.ones(1, 1, 2, 2, 2), 2))
""")


def test_embedding_padding_idx_checks_in_pytorch_order():
    # PyTorch: Embedding and F.embedding compare padding_idx > 0 first, then < 0 (a str fails the first); a float
    # index passes the range checks, then indexing the weight (Embedding) or torch.embedding's parser (F) refuses
    # it; a bool is kept and printed as given; minigrad wrapped it modulo num_embeddings and indexed NumPy
    same_as_torch("""
torch.manual_seed(0)
for a in (-1, 0, 2, -3, 3, -4, True, False, 1., "a"):
    try:
        e = torch.nn.Embedding(3, 2, padding_idx=a)
        print(e, e.weight, e.weight._version)
    except Exception as ex:
        print(type(ex).__name__, ex)
e = torch.nn.Embedding.from_pretrained(torch.ones(3, 2), padding_idx=1.)
print(e)
E(lambda: e(torch.tensor([1, 2])))
for a in (True, 1., torch.tensor(1), "a", 3, -4, -3, 2, None):
    E(lambda: print(torch.nn.functional.embedding(torch.tensor([1, 2]), torch.arange(6.).reshape(3, 2),
                                                  padding_idx=a)))
""")


def test_full_reads_numpy_scalars_as_pytorch_parser():
    # PyTorch: a NumPy scalar that is no Python number is read as an int64 (integers) or a double (np.float16,
    # np.bool_, np.complex64: its real part), so the dtype is int64 or the default float; minigrad kept NumPy's
    # dtype (float16, int8), the imaginary part, and refused np.bool_
    same_as_torch("""
import warnings
import numpy as np
warnings.simplefilter("ignore")
x = torch.ones(2)
for v in (np.complex64(1j), np.complex64(2+1j), np.complex128(1j), np.float16(1.5), np.float32(1.5), np.int8(3),
          np.uint8(200), np.int64(2**40), np.uint64(2**63), np.bool_(True), np.bool_(False), np.clongdouble(1j)):
    for kw in ({}, {"dtype": torch.int32}, {"dtype": torch.complex64}):
        E(lambda: print(torch.full((2,), v, **kw)))
    E(lambda: print(torch.full_like(x, v), x.new_full((2,), v)))
print(x.add(np.bool_(True)), torch.linspace(0, 1j, 3), torch.linspace(1j, 2, 3))
""")


def test_narrow_integer_lists_fail_in_store_order():
    # PyTorch: the shape comes from the first elements, then each number is stored in order with a checked
    # conversion, so [70000, "a"] as int16 is an overflow and [[70000], [1, 2]] too (before the ragged row);
    # minigrad checked every element's type and the shape first
    same_as_torch("""
import numpy as np
cases = [[70000], [1, 70000], [70000, 1.5], [1.5, 70000], [70000, "a"], ["a", 70000], [70000, 1j], [1j, 70000],
         [[70000], [1, 2]], [[1, 2], [70000]], [[1, 2], [3, 70000], [5]], [[1, "a"], [70000, 2]],
         [[70000, "a"], [1, 2]], [2**70, 70000], [70000, 2**70], [np.int64(70000), "a"], ["a", np.int64(70000)],
         [70000, None], [None, 70000], [float("nan"), 1], [-32769], [32767, -32768], [-32768.9],
         [torch.tensor(70000), 1], [70000, torch.ones(2)], [-1], [-255], [-256], [256], [255.5], [-1.5],
         [[-1, 300], [2, "a"]], [(1, 2), [70000, 1]]]
for dt in (torch.int16, torch.uint8, torch.int8, torch.int32, torch.int64):
    for c in cases:
        E(lambda: print(torch.tensor(c, dtype=dt)))
""")


def test_allocation_failure_is_the_cpu_allocators_error():
    # PyTorch: a factory whose memory cannot be allocated raises DefaultCPUAllocator's RuntimeError naming the
    # bytes; minigrad let NumPy's MemoryError through ("Unable to allocate 4.00 TiB ...")
    same_as_torch("""
# (sizes beyond any machine's address space (2**48 bytes and more), so no allocation can succeed)
for f in (lambda: torch.empty(2**46), lambda: torch.zeros(2**47), lambda: torch.ones(2**49, dtype=torch.int8),
          lambda: torch.full((2**23, 2**23), 1.5, dtype=torch.float64), lambda: torch.empty(2**62)):
    E(f)
""")


def test_products_deprecated_beta_first_forms():
    # PyTorch (deprecated.yaml): x.addmm(beta, [alpha,] mat1, mat2), torch.addmm(beta, input, [alpha,] mat1, mat2)
    # and the same for addmv/addr/baddbmm/addbmm and the in-place methods still run, with one warning per process
    # naming the old and new signatures; a wrong one is counted as the method's ("takes 2 positional arguments");
    # minigrad refused them all
    with fresh_warn_once():
        same_as_torch("""
import warnings
M, V, B = torch.ones(2, 2), torch.ones(2), torch.ones(1, 2, 2)
ops = {"addmm": (M, M, M), "addmv": (V, M, V), "addr": (M, V, V), "baddbmm": (B, B, B), "addbmm": (M, B, B)}
for name, (inp, a, b) in ops.items():
    calls = (lambda: getattr(inp.clone(), name)(0.5, a, b), lambda: getattr(inp.clone(), name)(0.5, 2, a, b),
             lambda: getattr(inp.clone(), name + "_")(0.5, a, b), lambda: getattr(torch, name)(0.5, inp, a, b),
             lambda: getattr(torch, name)(0.5, inp, 2, a, b), lambda: getattr(inp.clone(), name)(0.5, "a", b))
    for call in calls:
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            E(lambda: print(call().sum()))
        for x in w:
            print(x.message)
x = M.clone().requires_grad_()
y = x.addmm(0.5, 2, M, M)
y.sum().backward()
print(y.grad_fn.name(), x.grad)
""")
