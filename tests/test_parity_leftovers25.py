"""Session 25 leftovers: reductions into an out= sharing their input's memory; the parser errors of alias and binary
methods; optimizer state after a refused step and of another dtype than its parameter; pickled tensors and
Parameters, dir(); complex32 sampling, comparisons and backward, NumPy's ulonglong; copies from a part of each element
(z.copy_(z.imag)); storage size overflow of the factories.

Each test runs one program under minigrad and under PyTorch and compares the printed output.
"""
from __future__ import annotations

from parity import same_as_torch


def test_reduction_into_out_sharing_its_input():
    # PyTorch: reduce_op checks no overlap; out= is resized first (the input too, when it is out itself), filled
    # with the reduction's identity, then the input is read; minigrad refused out=c[0] ("unsupported operation")
    # and reduced c as it was before the resize
    same_as_torch("""
import warnings
warnings.simplefilter("always")
for name in ("sum", "prod", "nansum", "mean", "nanmean", "amax", "amin", "all", "any"):
    for dim in (0, 1):
        for pick in (lambda c: c, lambda c: c[0], lambda c: c[:, 0]):
            c = torch.arange(1., 10.).reshape(3, 3)
            if name in ("all", "any"):
                c = c > 3
            with warnings.catch_warnings(record=True) as w:
                E(lambda: getattr(torch, name)(c, dim, out=pick(c)))
            print(name, dim, c, len(w))
c = torch.ones(2, 3, dtype=torch.int64)
torch.amax(c, (0, 1), keepdim=True, out=c)
print(c, c._version)
""")


def test_scan_into_out_sharing_its_input():
    # PyTorch: the scans and logsumexp, std, var read their input before writing out= (a resized view of the same
    # memory covers it all); minigrad refused them
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
for name in ("cumsum", "cumprod", "logcumsumexp", "logsumexp", "std", "var"):
    for dim in (0, 1):
        c = torch.arange(1., 10.).reshape(3, 3)
        print(name, getattr(torch, name)(c, dim, out=c[0]), c)
c = torch.ones(3, 3)
print(torch.add(c, 1, out=c), torch.cumsum(c, 0, out=c))
""")


def test_alias_methods_name_themselves_in_parser_errors():
    # PyTorch: an alias method is bound under its own name, so its parser errors name it ("greater_() received",
    # "arctan2_(): argument 'other'", "TensorBase.arccos_() takes no arguments"); minigrad named the method it
    # shares (gt_, atan2_), read clip_'s number as a keyword, and said "Tensor.arccos_()"
    same_as_torch("""
x = torch.ones(2)
for f in (lambda: x.clip_("a"), lambda: x.clip("a"), lambda: x.greater_("a"), lambda: x.greater("a"),
          lambda: x.arctan2_(1), lambda: x.less_equal_("a"), lambda: x.not_equal_("a"), lambda: x.greater_equal_("a"),
          lambda: x.less_("a"), lambda: x.arccos_(1), lambda: x.arcsinh_(2), lambda: x.sigmoid_(2),
          lambda: x.arccos_(a=1), lambda: x.clip_(max="a"), lambda: torch.greater(x, "a"), lambda: torch.clip(x, "a")):
    E(f)
print(x.greater_(0.5), x.clip_(0, 1), x.arctan2_(x))
""")


def test_binary_methods_parse_keywords_and_counts():
    # PyTorch: x.gt_(other="a") is parsed like x.gt_("a"); x.le(x, x) is an invalid combination; x.atan2_(other=1)
    # names no position; its parser refuses before any kernel error (x.float_power_("a")); minigrad printed
    # "got (other=str, )", Python's "takes 2 positional arguments but 3 were given", NumPy's "can't convert"
    same_as_torch("""
x = torch.ones(2)
for n in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal", "less", "less_equal", "not_equal",
          "copysign", "fmod", "remainder", "xlogy", "float_power", "floor_divide", "bitwise_and", "bitwise_or",
          "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift", "atan2", "arctan2", "hypot"):
    for s in ("", "_"):
        m = getattr(torch.ones(2, dtype=torch.int64) if "bitwise" in n else torch.ones(2, dtype=torch.float64), n + s)
        E(lambda: m(other="a")); E(lambda: m("a")); E(lambda: m(x, x)); E(lambda: m()); E(lambda: m(x, alpha=1))
        E(lambda: m(other=1))
for n in ("logaddexp", "logaddexp2"):
    m = getattr(x, n)
    E(lambda: m(other=1)); E(lambda: m(x, x)); E(lambda: m())
""")


def test_optimizer_state_versions_after_a_refused_step():
    # PyTorch: after model.double(), exp_avg.lerp_(grad) refuses the float64 gradient before writing, so exp_avg and
    # exp_avg_sq keep their versions (the step counter, NAdam's mu_product and RMSprop's square_avg were written);
    # minigrad counted the state's writes before the refusal (one too many on exp_avg, two on exp_avg_sq)
    same_as_torch("""
for name, kw in (("Adam", {}), ("Adam", {"amsgrad": True}), ("AdamW", {}), ("Adamax", {}), ("NAdam", {}),
                 ("RAdam", {}), ("RMSprop", {"centered": True, "momentum": 0.5})):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    opt = getattr(torch.optim, name)(m.parameters(), lr=0.1, **kw)
    m(torch.ones(1, 2)).sum().backward()
    opt.step()
    m.double()
    opt.zero_grad()
    m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
    E(lambda: opt.step())
    print(name, m.weight._version, [{k: (v._version, v.tolist()) for k, v in s.items()} for s in opt.state.values()])
""")


def test_optimizer_state_of_another_dtype_than_its_parameter():
    # PyTorch: after model.double() the float32 state is computed in its own dtype (sqrt(v).add_(eps), Adadelta's
    # delta rounded into float32 by mul_); minigrad added eps in the parameter's float64 (last bits apart)
    same_as_torch("""
for name, kw in (("RMSprop", {"momentum": 0.5}), ("RMSprop", {}), ("Adagrad", {}), ("Adadelta", {}),
                 ("Adadelta", {"weight_decay": 0.1})):
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    opt = getattr(torch.optim, name)(m.parameters(), lr=0.1, **kw)
    m(torch.ones(1, 2)).sum().backward()
    opt.step()
    m.double()
    for i in range(2):
        opt.zero_grad()
        m(torch.ones(1, 2, dtype=torch.float64)).sum().backward()
        opt.step()
    print(name, m.weight.tolist(), m.bias.tolist(), [{k: v.tolist() for k, v in s.items()} for s in opt.state.values()])
""")


def test_unpickled_tensors_and_parameters():
    # PyTorch: an unpickled tensor or Parameter gets an empty OrderedDict of backward hooks (hooks are not pickled)
    # and its attributes back (its __dict__); minigrad left _backward_hooks None and dropped the attributes
    same_as_torch("""
import pickle, warnings
warnings.simplefilter("ignore")
p = torch.nn.Parameter(torch.ones(1))
q = pickle.loads(pickle.dumps(p))
print(type(q), q, q._backward_hooks, type(q._backward_hooks).__name__, q._post_accumulate_grad_hooks, q.is_leaf)
t = torch.ones(2, requires_grad=True)
u = pickle.loads(pickle.dumps(t))
print(u, u._backward_hooks, u._post_accumulate_grad_hooks)
p.register_hook(lambda g: g)
t.register_hook(lambda g: g)
print(pickle.loads(pickle.dumps(p))._backward_hooks, pickle.loads(pickle.dumps(t))._backward_hooks)
p.note, t.note = 3, 4
print(pickle.loads(pickle.dumps(p)).note, pickle.loads(pickle.dumps(t)).note)
b = pickle.loads(pickle.dumps(torch.nn.Buffer(torch.ones(1), persistent=False)))
print(b.__dict__, b._backward_hooks)
""")


def test_dir_of_tensors_and_parameters():
    # PyTorch: Tensor.__dir__ leaves out the removed ``volatile`` and the CUDA-only __cuda_array_interface__, and adds
    # the instance's attributes; x.chalf() and the removed x.reinforce() exist; minigrad listed volatile, had neither
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
x = torch.ones(2, requires_grad=True)
x.note = 1
for obj in (x, torch.nn.Parameter(torch.ones(1))):
    d = dir(obj)
    print(d == sorted(d), "volatile" in d, "__cuda_array_interface__" in d, "note" in d, "chalf" in d,
          "reinforce" in d, "register_hook" in d, "grad_fn" in d)
print(x.chalf(), x.volatile)
E(lambda: x.reinforce(1))
E(lambda: x.reinforce())
""")


def test_complex32_sampling_and_comparisons():
    # PyTorch: complex32 samplers draw through view_as_real (float16 parts); isclose/allclose compare values;
    # equal has no complex32 kernel ("equal_notnan_cpu" for a tensor with itself); minigrad raised NumPy's errors
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
print(torch.randn(2, dtype=torch.complex32), torch.rand(3, dtype=torch.chalf), torch.randn(20, dtype=torch.chalf))
print(torch.empty(2, dtype=torch.complex32).normal_(1, 2), torch.empty(2, dtype=torch.complex32).uniform_(-1, 1))
print(torch.randn_like(torch.ones(2, dtype=torch.complex32)), torch.randn(2, dtype=torch.chalf, requires_grad=True))
a = torch.ones(2, dtype=torch.complex32)
print(torch.allclose(a, a.clone()), torch.isclose(a, a * 1.0001), torch.isclose(a, a, equal_nan=True))
print(torch.allclose(a, torch.randn(2, dtype=torch.chalf)), torch.equal(a, torch.ones(3, dtype=torch.chalf)))
print(torch.equal(a, torch.ones(2, dtype=torch.float64)), torch.equal(a, torch.tensor([1, 2.])))
for f in (lambda: torch.equal(a, a), lambda: torch.equal(a, a.clone()), lambda: torch.equal(a, torch.ones(2)),
          lambda: torch.isclose(a, torch.ones(2)), lambda: torch.randn(2, 2, dtype=torch.chalf).sum()):
    E(f)
""")


def test_complex32_backward():
    # PyTorch: gradients of complex32 ops add up in complex32 (two uses, two backward passes into .grad); summing
    # one back to a broadcast shape is refused ("sum_cpu"); minigrad raised NumPy's "ufunc 'add' did not contain a loop"
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
x = torch.tensor([1+2j, 3-1j], dtype=torch.complex32, requires_grad=True)
for f in (lambda t: t * t, lambda t: t + t, lambda t: t - 2 * t, lambda t: t.conj() * t, lambda t: t.abs(),
          lambda t: t.real, lambda t: t[0] * t[1], lambda t: torch.view_as_real(t), lambda t: t.reshape(2, 1) * t,
          lambda t: t.to(torch.complex64) * 2, lambda t: t.expand(3, 2), lambda t: torch.stack([t, t]),
          lambda t: t.neg()):
    def run():
        x.grad = None
        for _ in range(2):
            y = f(x)
            y.backward(torch.ones_like(y))
        print(y, x.grad)
    E(run)
x2 = torch.ones(2, dtype=torch.complex64, requires_grad=True)
y = x2.to(torch.complex32)
(y * y).real.sum().backward()
print(x2.grad)
""")


def test_from_numpy_refuses_ulonglong():
    # PyTorch: NumPy's ulonglong is a type number of its own, not uint64's (ulong): refused by from_numpy, tensor and
    # as_tensor; minigrad took it as uint64 (the dtypes compare equal)
    same_as_torch("""
import numpy as np
u = np.array([1], dtype=np.ulonglong)
for f in (lambda: torch.from_numpy(u), lambda: torch.tensor(u), lambda: torch.as_tensor(u)):
    E(f)
print(torch.from_numpy(np.array([1], dtype=np.uint64)), torch.from_numpy(np.array([1], dtype=np.longlong)),
      torch.tensor(np.array([1], dtype=np.uint32)))
""")


def test_copy_from_a_part_of_each_element():
    # PyTorch: z.imag (strided) overlapping z is "too hard" for its overlap check: each element is read before it
    # is written, and a negative view is copied as stored, then negated (imaginary parts -0); minigrad refused
    # z.copy_(z.imag) and z.imag.copy_(z.real), and copied the negated values (imaginary parts +0)
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
torch.manual_seed(0)
for make in (lambda z: z.imag, lambda z: z.real, lambda z: z.conj().imag, lambda z: z.conj().real):
    z = torch.randn(2, 3, dtype=torch.cfloat)
    E(lambda: z.copy_(make(z)))
    print(z)
z = torch.randn(3, dtype=torch.cfloat)
z.imag.copy_(z.real)
print(z)
w = torch.zeros(3, dtype=torch.cfloat)
print(w.copy_(torch.randn(3, dtype=torch.cfloat).conj().imag), w.copy_(torch._neg_view(torch.ones(3))))
z = torch.randn(1, dtype=torch.cfloat)
E(lambda: z.copy_(z.imag))
E(lambda: z.real.copy_(z))
""")


def test_storage_size_overflow_of_factories():
    # PyTorch: a storage whose size in bytes does not fit an int64 is refused before any allocation; minigrad let
    # NumPy raise "array is too big"
    same_as_torch("""
import warnings
warnings.simplefilter("ignore")
for f in (lambda: torch.range(0, 2**63 - 1024), lambda: torch.range(0, 2**63 - 1024, dtype=torch.int64),
          lambda: torch.arange(0, 2**63 - 1024), lambda: torch.arange(0., 2.**62), lambda: torch.empty(2**62),
          lambda: torch.zeros(2**61, dtype=torch.float64), lambda: torch.ones(2**31, 2**31),
          lambda: torch.full((2**62,), 1.), lambda: torch.range(0, 2**63)):
    E(f)
""")


def test_contiguous_memory_format_must_be_a_memory_format():
    # PyTorch's parser refuses a layout (torch.strided) or an int where a memory_format is expected
    same_as_torch("""
import torch
x = torch.ones(2, 3).t()
E(lambda: x.contiguous(memory_format=torch.strided))
E(lambda: x.contiguous(memory_format=1))
E(lambda: x.is_contiguous(memory_format=torch.strided))
E(lambda: x.contiguous(memory_format=torch.preserve_format))
print(x.is_contiguous(memory_format=torch.channels_last), x.contiguous().is_contiguous())
""")


def test_c_is_fwd_grad_enabled():
    # torch._C._is_fwd_grad_enabled reads the forward-grad mode that forward_ad._set_fwd_grad_enabled switches
    same_as_torch("""
import torch
import torch.autograd.forward_ad as fwAD
print(torch._C._is_fwd_grad_enabled())
with fwAD._set_fwd_grad_enabled(False):
    print(torch._C._is_fwd_grad_enabled())
print(torch._C._is_fwd_grad_enabled())
""")
