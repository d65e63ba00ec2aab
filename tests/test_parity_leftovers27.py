"""Session 27 leftovers: complex32's "ComplexHalf support is experimental" warning where PyTorch allocates a
complex32 tensor (and complex32 fills and index assignments with their imaginary parts).

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
            f()
        except Exception as e:
            print(name, type(e).__name__, e)
    print(name, [(x.category.__name__, str(x.message)[:40]) for x in w])
warnings.simplefilter("ignore")   # (outside count)
"""


def test_complex32_warning_where_pytorch_allocates():
    # PyTorch: empty_generic warns for each complex32 tensor it allocates: a new result (clone, advanced indexing,
    # a copy out of a view), a complex32 copy of another operand, a number wrapped as a complex32 tensor, a
    # conjugate view copied out by the conjugate fallback; not views, in-place writes, copy_, fill_ or conj(); and
    # take/gather/scatter/put/masked_scatter refuse it; minigrad warned when it rounded a result into complex32 (in
    # place too), not for its copies, and computed those
    with fresh_warn_once():
        same_as_torch(COUNT + """
t = torch.tensor([1+2j, 3-1j, -2+0.5j], dtype=torch.chalf)
h = torch.ones(3, dtype=torch.half)
b = torch.tensor([True, False, True])
for name, f in dict(clone=lambda: t.clone(), index=lambda: t[[0, 1]], masked=lambda: t[b], basic=lambda: t[1],
                    index_select=lambda: t.index_select(0, torch.tensor([0])), conj=lambda: t.conj(),
                    add_=lambda: t.add_(t), sub_h=lambda: t.sub_(h), add_1=lambda: t.add_(1), neg_=lambda: t.neg_(),
                    fill_=lambda: t.fill_(1j), copy_=lambda: t.copy_(h),
                    to_chalf=lambda: torch.zeros(3).to(torch.chalf),
                    chalf=lambda: torch.ones(2).chalf(), add=lambda: t + t, add_h=lambda: t + h, mul_2=lambda: t * 2,
                    mul_2_=lambda: t.mul_(2), contiguous=lambda: t.view(3, 1).expand(3, 2).contiguous(),
                    reshape=lambda: t.view(3, 1).expand(3, 2).reshape(6), where=lambda: torch.where(b, t, t),
                    where_h=lambda: torch.where(b, t, h), masked_fill=lambda: t.masked_fill(b, 1j),
                    masked_fill_=lambda: t.masked_fill_(b, 1j), cat=lambda: torch.cat([t, h]),
                    setitem=lambda: t.__setitem__(0, 1j), setitem_slice=lambda: t.__setitem__(slice(0, 2), 1j),
                    fill=lambda: torch.fill(t, 1j), flip=lambda: t.flip(0),
                    arange=lambda: torch.arange(2, dtype=torch.chalf),
                    linspace=lambda: torch.linspace(0, 1, 3, dtype=torch.chalf),
                    logspace=lambda: torch.logspace(0, 1, 3, dtype=torch.chalf),
                    conj_physical_=lambda: t.conj_physical_(), add_out_h=lambda: torch.add(h, h, out=t),
                    empty_clone=lambda: torch.zeros(0, dtype=torch.chalf).clone()).items():
    count(name, f)
i, u = torch.tensor([2, 0]), t[:2].clone()
for name, f in dict(take=lambda: t.take(i), gather=lambda: t.gather(0, i), scatter=lambda: t.scatter(0, i, u),
                    scatter_=lambda: t.scatter_(0, i, u), scatter_value=lambda: t.scatter(0, i, 1.0),
                    masked_scatter=lambda: t.masked_scatter(b, t), put_=lambda: t.put_(i, u),
                    index_put=lambda: t.index_put((i,), u), index_put_=lambda: t.index_put_((i,), u),
                    repeat=lambda: t.repeat(2), roll=lambda: t.roll(1)).items():
    count(name, f)
c = t.conj()
print(c.is_conj(), c.resolve_conj().is_conj())
for name, f in dict(resolve=lambda: c.resolve_conj(), mul=lambda: c * t, neg=lambda: -c, cat=lambda: torch.cat([c, t]),
                    clone=lambda: c.clone(), conj_physical=lambda: c.conj_physical(), copy=lambda: t.clone().copy_(c),
                    real_grad=lambda: (h.requires_grad_() * torch.tensor(2 - 1j)).real.sum().backward()).items():
    count(name, f)
""")


def test_complex32_fills_keep_imaginary_parts():
    # PyTorch: a complex number filled or assigned into a complex32 tensor keeps its imaginary part; minigrad's
    # NumPy cast into the float16 pair gave both parts the real part (with NumPy's ComplexWarning)
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
t = torch.zeros(3, dtype=torch.chalf)
print(torch.fill(t, 1+2j), torch.full_like(t, 1+1j))
t[0:2] = 1+2j
t[[0]] = 3+4j
t[torch.tensor([False, False, True])] = 5j
print(t)
t[1] = 2.5
print(t, t.index_fill(0, torch.tensor([1]), 1+3j), t.index_fill(0, torch.tensor([2]), torch.tensor(-1j)))
t.index_fill_(0, torch.tensor([0]), 7-1j)
print(t, torch.linspace(1+2j, 3, 1, dtype=torch.chalf), torch.logspace(1j, 2, 1, dtype=torch.chalf))
b = torch.tensor([True, False, True])
print(t.masked_fill(b, 1), t.masked_fill(b, 2-3j), t.masked_fill(b, torch.tensor(1-1j)),
      t.masked_fill(b, torch.tensor(2.5)))
""")


def test_complex_log1p_scalar_path_bits():
    # PyTorch: IMPLEMENT_COMPLEX_KERNEL maps a strided row (a 0-dim tensor's too) in buffers of 8 KiB, whose
    # elements past the last whole AVX512 vector (4 complex128, 8 complex64) come out of unfused code, complex128's
    # with the division's numerators fused in its |u - 1| < |y| branch; threads split loops of more than 2048
    # elements; minigrad fused every complex128 element and split complex64 loops at 32768
    same_as_torch("""
def bits(t):
    return [(x.hex(), y.hex()) for x, y in torch.view_as_real(t.contiguous()).reshape(-1, 2).tolist()]
z = torch.tensor(0.0122843737-0.0025958113j, dtype=torch.complex128)
u = torch.tensor([-0.0072615924488184215+0.040304581440757874j] * 2, dtype=torch.complex128)
print(bits(z.log1p()), bits(u[:1].log1p()), bits(u[::2].log1p()))
g = torch.Generator().manual_seed(0)
for dt in (torch.complex128, torch.complex64):
    w = torch.randn(2 * 1030, dtype=dt, generator=g) * 0.1
    print(bits(w[::2].log1p()[-12:]), bits(w[::2][5].log1p()), bits(w.view(-1, 2).t()[0, :7].log1p()))
o = torch.empty(2 * 9, dtype=torch.complex64)[::2]
torch.log1p(w[:9], out=o)
print(bits(o))
threads = torch.get_num_threads()
torch.set_num_threads(2)
w = torch.randn(2 * 3000, dtype=torch.complex64, generator=g) * 0.1
print(bits(w[::2].log1p()[1490:1504]))
torch.set_num_threads(threads)
""")


def test_complex_logspace_bits():
    # PyTorch: the exponents in the dtype (step by c10's division), each base**exponent by the C library's cpowf /
    # cpow of complex(base); minigrad computed the exponents in complex128 and NumPy's power
    same_as_torch("""
for args in ((0, 1j, 5), (0.3, 2.7j, 11), (1+2j, -3+0.5j, 9), (-1j, 1j, 6), (2, 1+1j, 4)):
    for dt in (None, torch.complex128):
        for base in (10.0, 2.0, 0.5):
            r = torch.logspace(*args, base=base, dtype=dt)
            print(r.dtype, [(x.hex(), y.hex()) for x, y in torch.view_as_real(r).tolist()])
print(torch.logspace(torch.tensor(1j), 2, 3), torch.logspace(0, 3, 4, dtype=torch.cfloat))
""")


def test_addcmul_complex_value_on_bfloat16_backward():
    # PyTorch: the formulas' tensor · value of a bfloat16 tensor and a complex value is complex64 (no complex
    # bfloat16), whose gradient the engine casts back; minigrad's Scalar product took float(value) (TypeError);
    # and addcdiv's complex32 refusal names its kernel addcdiv_cpu_out
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
x = torch.randn(3, dtype=torch.bfloat16, requires_grad=True)
z = torch.randn(3, dtype=torch.cfloat, requires_grad=True)
for f in (lambda: torch.addcmul(z, x, x + 3, value=1j), lambda: torch.addcmul(x, x, z, value=0.5-1j),
          lambda: torch.addcdiv(z, z, x + 3, value=2j), lambda: x * (1 + 2j),
          lambda: torch.addcdiv(x, x, x + 3, value=1j)):
    try:
        y = f()
        print(y)
        y.abs().sum().backward()
    except RuntimeError as e:
        print(e)
    print(x.grad, z.grad)
    x.grad = z.grad = None
h = torch.ones(3, dtype=torch.half)
E(lambda: torch.addcdiv(torch.ones((), dtype=torch.cfloat), h, h, value=1j))
""")


def test_quantized_accessors_and_dlpack_on_dense_tensors():
    # PyTorch: a dense tensor has the quantized accessors (only QuantizedCPU has their kernels: the dispatcher's
    # NotImplementedError; dequantize() is the tensor itself), __dlpack__ / __dlpack_device__ and torch.from_dlpack
    # sharing memory both ways; minigrad had none of them
    same_as_torch("""
import numpy as np
x = torch.ones(2, 2)
for name in ("q_scale", "q_zero_point", "q_per_channel_scales", "q_per_channel_zero_points", "q_per_channel_axis",
             "int_repr", "qscheme"):
    try:
        getattr(x, name)()
    except NotImplementedError as e:
        print(name, str(e).split(" is only available")[0])
print(x.dequantize() is x, x.__dlpack_device__(), type(x.__dlpack__()).__name__)
y = torch.from_dlpack(x)
y[0, 0] = 5
print(x, y is x, y.data_ptr() == x.data_ptr())
a = np.arange(3.)
t = torch.from_dlpack(a)
a[0] = 7
print(t, np.from_dlpack(x[1]), torch.from_dlpack(x.t()).stride(), torch.utils.dlpack.DLDeviceType.kDLCPU)
for f in (lambda: torch.ones(1, requires_grad=True).__dlpack__(),
          lambda: torch.ones(1, dtype=torch.cfloat).conj().__dlpack__(), lambda: torch.from_dlpack(3)):
    try:
        f()
    except (BufferError, RuntimeError) as e:
        print(type(e).__name__, e)
print([n for n in ("__dlpack__", "__dlpack_device__", "q_scale", "qscheme", "int_repr", "dequantize")
       if n not in dir(torch.Tensor)])
""")


def test_factory_sizes_beyond_int64_and_memory():
    # PyTorch: a size beyond int64 fails in its parser (the message's first line; C++ frames follow), and the
    # result is allocated before anything is drawn or counted, so the allocator's RuntimeError comes first;
    # minigrad said "Storage size calculation overflowed" and ran out of memory in its generators (MemoryError)
    same_as_torch("""
for f in (lambda: torch.empty(2**63), lambda: torch.zeros(2, 2**63), lambda: torch.empty(2**64),
          lambda: torch.randn(2**63), lambda: torch.rand(-2**63 - 1), lambda: torch.empty(-1),
          lambda: torch.empty(2**62),
          lambda: torch.randn(2**40), lambda: torch.rand(2**40), lambda: torch.randn(2**20, 2**20),
          lambda: torch.randint(3, (2**40,)), lambda: torch.randint(0, 3, (2**40,), dtype=torch.uint8),
          lambda: torch.arange(2**40), lambda: torch.arange(0, 2**40, 1.0), lambda: torch.zeros(2**40),
          lambda: torch.randn(2**62)):
    try:
        print(f().shape)
    except Exception as e:
        print(type(e).__name__, str(e).split("\\n")[0])
""")


def test_metaclasses_print_as_pytorchs():
    # PyTorch: nn.Module, Optimizer, Size ... are plain classes (type(cls) is type), Buffer's metaclass is
    # _BufferMeta, the pruning methods and IterableDataset ABCs, Function's metaclass FunctionMeta; minigrad printed
    # its own metaclasses (<class 'minigrad._class_names.TorchNamed'>)
    same_as_torch("""
import torch.nn.utils.prune
import torch.utils.data as d
print(type(torch.nn.Module), type(torch.nn.Linear), type(torch.optim.SGD), type(torch.autograd.Function),
      type(type(torch.Tensor)), type(torch.nn.parameter.Buffer), type(torch.nn.utils.prune.BasePruningMethod),
      type(torch.Size), type(torch.dtype), type(torch.nn.utils.rnn.PackedSequence),
      type(torch.optim.lr_scheduler.StepLR),
      type(torch.nn.utils.prune.L1Unstructured), type(torch.nn.modules.lazy.LazyModuleMixin), type(torch.device))
print(type(d.Dataset), type(d.IterableDataset), type(d.TensorDataset), type(d.Sampler), type(torch.autograd.Variable),
      type(d.DataLoader), type(torch.distributions.Normal), type(torch.finfo))
print(torch.nn.Linear, torch.autograd.Function, torch.nn.parameter.Buffer, torch.Size, type(torch.nn.Linear(1, 1)),
      torch.nn.utils.prune.L1Unstructured, torch.autograd.function.FunctionMeta)
""")


def test_complex128_addcmul_scalar_loop_bits():
    # PyTorch: cpu_kernel_vec runs addcmul's scalar lambda on every element when the loop is neither contiguous nor
    # one broadcast value among contiguous operands: value·t1 and its product with t2 both fused (complex128);
    # minigrad rounded them as mul's kernel does
    same_as_torch("""
g = torch.Generator().manual_seed(3)
def bits(t):
    return [(x.hex(), y.hex()) for x, y in torch.view_as_real(t.contiguous()).reshape(-1, 2).tolist()]
big = torch.randn(6, 2 * 7, dtype=torch.complex128, generator=g)
for v in (1, 0.3 + 0.7j, -2, 1j):
    print(bits(torch.addcmul(big[0, ::2], big[1, ::2], big[2, ::2], value=v)))
    print(bits(torch.addcmul(big[:3, ::2], big[3:, ::2], big[3:, 1::2], value=v)))
    print(bits(torch.addcmul(big[:3, ::2].t(), big[3:, ::2].t(), big[0, :3], value=v)))
    print(bits(torch.addcmul(big[0, 0], big[1, ::2], big[2, 1::2], value=v)))
    print(bits(big[:3, :1].clone().addcmul_(big[3:4, :1], big[4:5, 1:2], value=v)))
    print(bits(torch.addcmul(big[0, :5].view(5, 1), big[1, :5].view(1, 5), big[2, :5].view(5, 1), value=v)))
""")


def test_old_style_dlpack_capsules():
    # PyTorch: torch.utils.dlpack.to_dlpack gives a "dltensor" capsule (tensors requiring grad too) that
    # torch.from_dlpack consumes once, writable and sharing memory; a second use is an invalid capsule
    same_as_torch("""
import torch.utils.dlpack
t = torch.arange(4)
capsule = torch.utils.dlpack.to_dlpack(t)
print(type(capsule).__name__, repr(capsule).split(" at ")[0])
t3 = torch.from_dlpack(capsule)
t3[0] = -9
print(t3, t)
try:
    torch.from_dlpack(capsule)
except RuntimeError as e:
    print(e)
w = torch.utils.dlpack.from_dlpack(torch.utils.dlpack.to_dlpack(torch.ones(2, 3, requires_grad=True)[:, 1]))
del t, t3
print(w + 1, w.requires_grad, w.shape)
""")
