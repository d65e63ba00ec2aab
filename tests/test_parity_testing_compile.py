"""torch.testing (assert_close, assert_allclose, make_tensor), torch.compile / torch.compiler (pass-throughs),
set_float32_matmul_precision, torch.version, torch.profiler: PyTorch's behaviour and messages."""
import copy
import warnings

import numpy as np
import pytest

import minigrad as torch
from minigrad.testing import assert_close, make_tensor
from tests.parity import same_as_torch

# ---- assert_close: parity programs (each line prints "no error" or the exception's type and message) ----

ASSERT_CLOSE_TENSORS = r"""
ac = torch.testing.assert_close
x = torch.tensor([1., 2.])
E(lambda: ac(x, x.clone()))
E(lambda: ac(x, torch.tensor([1., 2., 3.])))
E(lambda: ac(x, x.double()))
E(lambda: ac(x, x.double(), check_dtype=False))
E(lambda: ac(x, x + 1))
E(lambda: ac(x, x + 1e-6))
E(lambda: ac(x, torch.tensor([1.0, 2.1])))
E(lambda: ac(torch.tensor([[1., 2.], [3., 4.]]), torch.tensor([[1., 2.], [3.5, 4.]])))
E(lambda: ac(torch.tensor([[1., 2.], [3., 4.]]).t(), torch.tensor([[1., 3.], [2., 4.]]), check_stride=True))
E(lambda: ac(torch.tensor([[1., 2.], [3., 4.]]).t(), torch.tensor([[1., 3.], [2., 4.]])))
E(lambda: ac(torch.tensor(1.), torch.tensor(1.5)))
E(lambda: ac(torch.tensor(float('nan')), torch.tensor(float('nan'))))
E(lambda: ac(torch.tensor(float('nan')), torch.tensor(float('nan')), equal_nan=True))
E(lambda: ac(torch.tensor([1., float('nan')]), torch.tensor([1., 2.])))
E(lambda: ac(torch.tensor([1., float('inf')]), torch.tensor([1., float('inf')])))
E(lambda: ac(torch.tensor([1., float('inf')]), torch.tensor([1., -float('inf')])))
E(lambda: ac(torch.tensor([1, 2, 3]), torch.tensor([1, 2, 4])))
E(lambda: ac(torch.tensor([1, 2, 3], dtype=torch.uint8), torch.tensor([1, 5, 0], dtype=torch.uint8)))
E(lambda: ac(torch.tensor([True, False]), torch.tensor([True, True])))
E(lambda: ac(torch.tensor([1, 2]), torch.tensor([1., 2.])))
E(lambda: ac(torch.tensor([1, 2]), torch.tensor([1., 2.5]), check_dtype=False))
E(lambda: ac(torch.tensor([1+1j, 2]), torch.tensor([1+1j, 2.5])))
E(lambda: ac(torch.tensor([0., 1.]), torch.tensor([0.5, 1.])))
E(lambda: ac(torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.001], dtype=torch.float16)))
E(lambda: ac(torch.tensor([1., 2.], dtype=torch.bfloat16), torch.tensor([1., 2.02], dtype=torch.bfloat16)))
E(lambda: ac(torch.tensor([1., 2.], dtype=torch.float64), torch.tensor([1., 2.0000001], dtype=torch.float64)))
E(lambda: ac(x, x + 1, rtol=0, atol=0))
E(lambda: ac(x, x + 1, rtol=0, atol=1))
E(lambda: ac(x, x, rtol=1))
E(lambda: ac(x, x, atol=1))
E(lambda: ac(torch.nn.Parameter(x), x))
E(lambda: ac(torch.nn.Parameter(x), x, allow_subclasses=False))
E(lambda: ac(x.clone().requires_grad_(), x + 1))
E(lambda: ac(torch.zeros(2, 3), torch.ones(2, 3)))
E(lambda: ac(torch.zeros(0), torch.zeros(0)))
E(lambda: ac(torch.zeros(3, 0), torch.zeros(3, 0)))
E(lambda: ac(torch.tensor([1e-10, 1.]), torch.tensor([0., 1.])))
E(lambda: ac(torch.arange(12.).reshape(3, 4), torch.arange(12.).reshape(3, 4) * 1.01))
E(lambda: ac(torch.tensor([0.1, 0.2]), torch.tensor([0.3, 0.4])))
E(lambda: ac(torch.tensor([1., 2.]), torch.tensor([1., 2.5]), msg='custom'))
"""

ASSERT_CLOSE_OTHERS = r"""
import numpy as np
from torch.testing import assert_close as ac
x = torch.tensor([1., 2.])
E(lambda: ac([x], [x], atol=1))
E(lambda: ac(1., 1.0000001))
E(lambda: ac(1., 1.1))
E(lambda: ac(1, 2))
E(lambda: ac(1, 1.0))
E(lambda: ac(1, 1.0, check_dtype=True))
E(lambda: ac(0., 1e-3))
E(lambda: ac(1+2j, 1+3j))
E(lambda: ac(float('nan'), float('nan')))
E(lambda: ac(float('nan'), float('nan'), equal_nan=True))
E(lambda: ac(float('inf'), float('inf')))
E(lambda: ac(True, True))
E(lambda: ac(True, False))
E(lambda: ac(np.bool_(True), False))
E(lambda: ac(True, 1))
E(lambda: ac(None, None))
E(lambda: ac(None, 1))
E(lambda: ac(x, None))
E(lambda: ac(np.float32(1.0), 1.5))
E(lambda: ac(np.float64(1.0), np.float64(1.0)))
E(lambda: ac(np.array([1., 2.]), np.array([1., 2.5])))
E(lambda: ac(np.array([1., 2.], dtype=np.float32), np.array([1., 2.], dtype=np.float64)))
E(lambda: ac(x, np.array([1., 2.])))
E(lambda: ac(x, 1.0))
E(lambda: ac(x, [1., 2.]))
E(lambda: ac([x, x], [x, x + 1]))
E(lambda: ac([x, x], [x, x, x]))
E(lambda: ac((1, 2), [1, 2]))
E(lambda: ac([{'a': x}], [{'a': x + 1}]))
E(lambda: ac({'a': 1, 'b': 2}, {'a': 1, 'c': 2}))
E(lambda: ac({'a': 1, 1: 2}, {'a': 1, 1: 3}))
E(lambda: ac({'a': [1, 2]}, {'a': [1, 2, 3]}))
E(lambda: ac([x], [x + 1], msg='custom'))
E(lambda: ac([x], [x + 1], msg=lambda m: 'Header\n\n' + m + '\n\nFooter'))
E(lambda: ac([x], [x, x], msg='custom'))
E(lambda: ac([1, x], [1, x], rtol=1e-3))
E(lambda: ac('a', 'a'))
E(lambda: ac('a', 'b'))
E(lambda: ac({1, 2}, {1, 2}))
torch.manual_seed(0)
E(lambda: ac(torch.nn.Linear(2, 2).state_dict(), torch.nn.Linear(2, 2).state_dict()))
"""

ASSERT_CLOSE_EDGES = r"""
import numpy as np, collections
ac = torch.testing.assert_close
E(lambda: ac(torch.tensor([1., 2.]), torch.tensor([1., 2.]), check_device=False))
E(lambda: ac(torch.tensor([100, -100], dtype=torch.int8), torch.tensor([-100, 100], dtype=torch.int8)))
E(lambda: ac(torch.tensor([1.5+2j, 3j]), torch.tensor([1.5+2.5j, 3j])))
E(lambda: ac(torch.tensor([0.1, 0.3], dtype=torch.float16), torch.tensor([0.2, 0.3], dtype=torch.float16)))
E(lambda: ac(torch.tensor([0.1, 0.3], dtype=torch.bfloat16), torch.tensor([0.2, 0.3], dtype=torch.bfloat16)))
E(lambda: ac(torch.tensor([-0.0]), torch.tensor([0.0])))
E(lambda: ac(torch.arange(1000.), torch.arange(1000.) + torch.linspace(0, 1, 1000)))
E(lambda: ac(torch.tensor([1., 2.]), torch.tensor([1, 3]), check_dtype=False))
E(lambda: ac(torch.tensor([1, 2]), torch.tensor([True, True]), check_dtype=False))
E(lambda: ac(torch.tensor([1., 2.], dtype=torch.float16), torch.tensor([1., 2.1]), check_dtype=False))
E(lambda: ac(torch.tensor(3), torch.tensor(4)))
E(lambda: ac(torch.tensor(True), torch.tensor(False)))
E(lambda: ac(torch.tensor(1+1j), torch.tensor(1+2j)))
E(lambda: ac(torch.ones(2, 2, 2), torch.ones(2, 2, 2).permute(2, 0, 1).contiguous().permute(1, 2, 0),
             check_stride=True))
E(lambda: ac(torch.ones(2, 3).t(), torch.ones(3, 2), check_stride=True))
E(lambda: ac(collections.OrderedDict(a=1), {'a': 1}))
E(lambda: ac(collections.OrderedDict(a=1), {'a': 2}))
E(lambda: ac(torch.Size([1, 2]), torch.Size([1, 3])))
E(lambda: ac(torch.Size([1, 2]), (1, 2)))
E(lambda: ac(np.array(1.0), np.array(2.0)))
E(lambda: ac(np.array([1, 2], dtype=np.int32), np.array([1, 3], dtype=np.int32)))
E(lambda: ac(np.int64(3), 4))
E(lambda: ac(np.float16(1.0), 1.001))
E(lambda: ac(2**70, 2**70 + 1))
E(lambda: ac(1e308, float('inf')))
E(lambda: ac(float('inf'), float('-inf')))
E(lambda: ac(0, 0.0, rtol=0, atol=0))
E(lambda: ac(1, 1.5, rtol=0, atol=0))
E(lambda: ac(torch.tensor([1., 2.]), torch.tensor([1., 2.]), rtol=None, atol=None))
E(lambda: ac([], []))
E(lambda: ac({}, {}))
E(lambda: ac([[1, 2], [3]], [[1, 2], [3, 4]]))
E(lambda: ac({'b': torch.ones(1), 'a': torch.zeros(1)}, {'b': torch.ones(1), 'a': torch.ones(1)}))
E(lambda: ac({'x': 1, 2: 3}, {'x': 1, 2: 3, 'y': 4}))
E(lambda: ac([torch.ones(2)], (torch.ones(2),)))
E(lambda: ac(torch.ones(2, requires_grad=True) * 2, torch.ones(2) * 2.5))
E(lambda: ac(torch.ones(2), torch.ones(2), msg=3))
E(lambda: ac(torch.ones(2), torch.zeros(2), msg=3))
E(lambda: torch.testing.assert_close(actual=torch.ones(1), expected=torch.ones(1)))
E(lambda: ac(torch.ones(1), torch.ones(1), 1e-3, 1e-3))
E(lambda: ac(range(3), range(3)))
E(lambda: ac(range(3), [0, 1, 3]))
E(lambda: ac(b'ab', b'ab'))
E(lambda: ac(torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2) * 2)))
"""
# (not here: meta tensors, which minigrad lacks; complex128 differences, whose abs() differs in the last bit)

ASSERT_ALLCLOSE = r"""
import warnings
x = torch.tensor([1., 2.])
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    E(lambda: torch.testing.assert_allclose(x, x + 1e-5))
    E(lambda: torch.testing.assert_allclose(x, x + 1))
    E(lambda: torch.testing.assert_allclose([1., 2.], [1., 2.]))
    E(lambda: torch.testing.assert_allclose(x, [1, 3]))
    E(lambda: torch.testing.assert_allclose(x, x.double() + 1e-5))
    E(lambda: torch.testing.assert_allclose(torch.tensor(float('nan')), float('nan')))
    E(lambda: torch.testing.assert_allclose(x, x + 1, msg='m'))
    E(lambda: torch.testing.assert_allclose(x, x + 1, rtol=1))
    print([(i.category.__name__, str(i.message)) for i in w])
"""

MAKE_TENSOR = r"""
import warnings
from torch.testing import make_tensor
torch.manual_seed(0)
for dt in (torch.float32, torch.float64, torch.float16, torch.bfloat16, torch.complex64, torch.complex128,
           torch.int64, torch.int32, torch.int16, torch.int8, torch.uint8, torch.bool):
    print(make_tensor(2, 3, dtype=dt, device='cpu'))
print(make_tensor((3,), dtype=torch.float32, device='cpu', low=0, high=1, requires_grad=True))
print(make_tensor([2, 2], dtype=torch.int64, device='cpu', low=-3.5, high=2.2))
t = make_tensor(2, 3, dtype=torch.float32, device='cpu', noncontiguous=True)
print(t, t.is_contiguous(), t.stride())
print(make_tensor(4, dtype=torch.int64, device='cpu', low=0, high=2, exclude_zero=True))
print(make_tensor(4, dtype=torch.float32, device='cpu', low=-1e39, high=1e39))
print(make_tensor(4, dtype=torch.int8, device='cpu', low=-1000, high=1000))
print(make_tensor(dtype=torch.float32, device='cpu'), make_tensor((), dtype=torch.float32, device='cpu'))
E(lambda: make_tensor(2, dtype=torch.int64, device='cpu', requires_grad=True))
E(lambda: make_tensor(2, dtype=torch.float32, device='cpu', low=2, high=1))
E(lambda: make_tensor(2, dtype=torch.float32, device='cpu', low=float('nan')))
E(lambda: make_tensor(2, dtype=torch.uint8, device='cpu', low=-10, high=-1))
E(lambda: make_tensor(2, dtype=torch.float32, device='cpu', noncontiguous=True, memory_format=torch.contiguous_format))
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    print(make_tensor(2, dtype=torch.float32, device='cpu', low=1, high=1))
    print([str(i.message) for i in w])
"""


@pytest.mark.parametrize("program", [ASSERT_CLOSE_TENSORS, ASSERT_CLOSE_OTHERS, ASSERT_CLOSE_EDGES, ASSERT_ALLCLOSE,
                                     MAKE_TENSOR], ids=["tensors", "others", "edges", "allclose", "make_tensor"])
def test_testing_parity(program):
    same_as_torch(program)


# ---- compile / compiler / precision / version / profiler: parity programs ----
# (backend="eager" wherever the compiled model is called, so PyTorch does not build C++ kernels in the test)

COMPILE_MODULE = r"""
import copy
m = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
c = torch.compile(m)
print(type(c), c.__class__.__name__)
print(c)
print(c._orig_mod is m, list(c.state_dict()), [n for n, _ in c.named_parameters()], len(list(c.parameters())))
print([n for n, _ in c.named_children()], [n for n, _ in c.named_modules()], len(c))
print(c.training, c.eval() is c, c.training, m.training, m[0].training)
c.train(); print(c.training, m.training)
m.eval(); print(c.training)
c.foo = 3; print(m.foo, c.foo)
del c.foo; print(hasattr(m, 'foo'))
E(lambda: c.bar)
E(lambda: c[0])
E(lambda: len(torch.compile(torch.nn.Linear(1, 1))))
print(c.load_state_dict(c.state_dict()))
E(lambda: c.load_state_dict(m.state_dict()))
print('_orig_mod' in dir(c), 'weight' in dir(torch.compile(torch.nn.Linear(1, 1))))
print(torch.compile(m, disable=True) is m, type(torch.compile(m, mode='max-autotune')).__name__)
torch.manual_seed(0)
lin = torch.nn.Linear(3, 2)
fast = torch.compile(lin, backend='eager')
x = torch.randn(4, 3)
print(fast(x).detach(), fast.weight is lin.weight)
fast(x).sum().backward()
print(lin.weight.grad)
print(type(copy.deepcopy(torch.compile(torch.nn.Linear(1, 1)))).__name__)
m = torch.nn.Linear(2, 2)
print(m.compile(backend='eager'), list(m.state_dict()), m)
E(lambda: m.compile(mode='bad'))
E(lambda: m.compile(1))
E(lambda: m.compile(backend='nope'))
torch.manual_seed(0)
m2 = torch.nn.Linear(2, 2)
m2.compile(backend='eager')
print(m2(torch.ones(1, 2)).detach())
c2 = torch.compile(torch.nn.Linear(2, 2), backend='eager')
c2(torch.ones(1, 2)).sum().backward()
c2.zero_grad()
print(c2.weight.grad, c2.to(torch.float64).weight.dtype, type(c2.double()).__name__, c2._orig_mod.weight.dtype)
print(isinstance(c2, torch.nn.Module), isinstance(c2, torch.nn.Linear), len(torch.compile(torch.nn.ModuleList([m]))))
"""

COMPILE_FUNCTION = r"""
def f(x):
    return x * 2
g = torch.compile(f, backend='eager')
print(g is f, g.__wrapped__ is f, g.__name__, g(torch.ones(2)))
@torch.compile(backend='eager')
def h(x, y=1):
    "doc"
    return x + y
print(h.__name__, h.__doc__, h(torch.ones(1), y=2))
@torch.compile
def k(x):
    return x
print(k.__name__, k.__qualname__)
print(torch.compile(f, disable=True) is f, torch.compile(mode='reduce-overhead').__qualname__)
E(lambda: torch.compile(f, backend='foo'))
E(lambda: torch.compile(f, mode='bad'))
E(lambda: torch.compile(mode='bad'))
E(lambda: torch.compile(f, backend='eager', mode='bad'))
E(lambda: torch.compile(f, mode='default', options={}))
E(lambda: torch.compile(3))
E(lambda: torch.compile()(None))
print(torch.compiler.is_compiling(), torch.compiler.is_dynamo_compiling(), torch.compiler.is_exporting())
print(torch.compiler.reset(), torch.compiler.list_backends(), torch.compiler.get_default_backend())
d = torch.compiler.disable(f)
print(d is f, d.__name__, d(torch.ones(1)), torch.compiler.disable(recursive=False)(f)(torch.ones(1)))
print(torch.compiler.allow_in_graph(f) is f, torch.compiler.assume_constant_result(f) is f)
torch.compiler.set_default_backend('eager'); print(torch.compiler.get_default_backend())
print(torch.compile(f)(torch.ones(1)))
torch.compiler.set_default_backend(None); print(torch.compiler.get_default_backend())
E(lambda: torch.compiler.set_default_backend(3))
print(torch.compiler.compile(f, backend='eager')(torch.ones(1)))
"""

PRECISION_VERSION_PROFILER = r"""
import warnings
print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('high'); print(torch.get_float32_matmul_precision())
torch.set_float32_matmul_precision('medium'); print(torch.get_float32_matmul_precision())
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter('always')
    torch.set_float32_matmul_precision('HIGH')
    print([(i.category.__name__, str(i.message)) for i in w], torch.get_float32_matmul_precision())
E(lambda: torch.set_float32_matmul_precision(3))
E(lambda: torch.set_float32_matmul_precision(None))
torch.set_float32_matmul_precision('highest')
import torch.version
print(torch.version.cuda, torch.version.debug, torch.version.hip, torch.version.rocm, torch.version.xpu)
print(sorted(torch.version.__all__), torch.version.__version__ == torch.__version__)
from torch.profiler import profile, record_function, ProfilerActivity
print(ProfilerActivity.CPU, repr(ProfilerActivity.CUDA), int(ProfilerActivity.CPU), list(ProfilerActivity.__members__))
print(torch.profiler.supported_activities())
print(torch.profiler.record_function is torch.autograd.profiler.record_function)
seen = []
with profile(activities=[ProfilerActivity.CPU], record_shapes=True, on_trace_ready=seen.append) as prof:
    with record_function("block"):
        y = torch.ones(2) * 3
    prof.step()
print(seen == [prof], 'block' in [e.key for e in prof.key_averages()], type(prof.events()).__name__)
print(prof.step_num)
"""


@pytest.mark.parametrize("program", [COMPILE_MODULE, COMPILE_FUNCTION, PRECISION_VERSION_PROFILER],
                         ids=["module", "function", "precision_version_profiler"])
def test_compile_parity(program):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # PyTorch's own compile-time warnings are not under test
        same_as_torch(program)


# ---- hand-written checks (no PyTorch needed) ----

def test_assert_close_passes_and_fails_with_message():
    x = torch.tensor([1.0, 2.0])
    assert_close(x, x + 1e-6)
    with pytest.raises(AssertionError) as info:
        assert_close(x, torch.tensor([1.0, 4.0]))
    assert str(info.value) == ("Tensor-likes are not close!\n\nMismatched elements: 1 / 2 (50.0%)\n"
                               "Greatest absolute difference: 2.0 at index (1,) (up to 1e-05 allowed)\n"
                               "Greatest relative difference: 0.5 at index (1,) (up to 1.3e-06 allowed)")
    with pytest.raises(AssertionError, match=r"^The values for attribute 'dtype' do not match: "
                                             r"torch.float32 != torch.float64.$"):
        assert_close(x, x.double())
    assert_close(x, x.double(), check_dtype=False)


def test_assert_close_nested_ids_and_msg():
    x = torch.tensor([1.0])
    with pytest.raises(AssertionError) as info:
        assert_close({"a": [x, x]}, {"a": [x, x + 1]})
    assert str(info.value).endswith("\n\nThe failure occurred for item ['a'][1]")
    with pytest.raises(AssertionError, match="^The length of the sequences mismatch: 1 != 2$"):
        assert_close([x], [x, x], msg="not used for structure errors")
    with pytest.raises(AssertionError, match="^mine$"):
        assert_close([x], [x + 1], msg="mine")
    with pytest.raises(AssertionError, match="^<<Tensor-likes are not close!"):
        assert_close(x, x + 1, msg=lambda m: f"<<{m}>>")


def test_assert_close_scalars_types_and_tolerances():
    with pytest.raises(AssertionError, match="^Scalars are not close!\n\nExpected 1.5 but got 1.0."):
        assert_close(1.0, 1.5)
    assert_close(1.0, 1.5, rtol=0.0, atol=0.5)
    with pytest.raises(ValueError, match="^Both 'rtol' and 'atol' must be either specified or omitted, "
                                         "but got no atol.$"):
        assert_close(1.0, 1.0, rtol=1e-3)
    with pytest.raises(TypeError, match="No comparison pair was able to handle inputs of type <class 'torch.Tensor'> "
                                        "and <class 'float'>."):
        assert_close(torch.tensor(1.0), 1.0)
    with pytest.raises(AssertionError, match="^None mismatch: None is not 1$"):
        assert_close(None, 1)
    assert_close(np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9]))
    with pytest.warns(FutureWarning, match="assert_allclose"):
        torch.testing.assert_allclose(torch.tensor([1.0]), [1.00001])


def test_make_tensor_ranges_and_flags():
    torch.manual_seed(1)
    t = make_tensor(50, dtype=torch.float32, device="cpu", low=-2, high=3)
    assert t.dtype == torch.float32 and float(t.min()) >= -2 and float(t.max()) < 3
    i = make_tensor(2, 5, dtype=torch.int64, device="cpu", low=0, high=3, exclude_zero=True)
    assert i.shape == (2, 5) and set(i.flatten().tolist()) <= {1, 2}
    n = make_tensor(3, 4, dtype=torch.float64, device="cpu", noncontiguous=True, requires_grad=True)
    assert n.shape == (3, 4) and not n.is_contiguous() and n.requires_grad
    with pytest.raises(ValueError, match="`low` must be less than `high`"):
        make_tensor(2, dtype=torch.float32, device="cpu", low=1, high=0)


def test_compiled_module_is_a_pass_through():
    lin = torch.nn.Linear(3, 2)
    c = torch.compile(lin)
    assert c._orig_mod is lin and c.weight is lin.weight
    assert list(c.state_dict()) == ["_orig_mod.weight", "_orig_mod.bias"]
    x = torch.ones(1, 3)
    out = c(x)
    assert out.tolist() == lin(x).tolist()
    assert type(out.grad_fn).__name__ == "AddmmBackward0"   # the ordinary nodes (PyTorch: CompiledFunctionBackward)
    c.eval()
    assert not lin.training and not c.training
    assert type(copy.deepcopy(c)).__name__ == "OptimizedModule"


def test_compiled_function_and_compiler_helpers():
    def f(x):
        return x + 1
    g = torch.compile(f)
    assert g is not f and g.__wrapped__ is f and g(torch.tensor(1.0)).item() == 2.0
    assert torch.compile(f, disable=True) is f
    assert torch.compile(fullgraph=True)(f)(torch.tensor(0.0)).item() == 1.0
    assert torch.compiler.is_compiling() is False and torch.compiler.reset() is None
    with pytest.raises(RuntimeError, match="^Unrecognized mode=fast"):
        torch.compile(f, mode="fast")


def test_precision_version_profiler():
    assert torch.get_float32_matmul_precision() == "highest"
    torch.set_float32_matmul_precision("medium")
    try:
        assert torch.get_float32_matmul_precision() == "medium"
        with pytest.warns(UserWarning, match="is not one of 'highest', 'high', or 'medium'"):
            torch.set_float32_matmul_precision("low")
        assert torch.get_float32_matmul_precision() == "medium"
    finally:
        torch.set_float32_matmul_precision("highest")
    assert torch.version.cuda is None and torch.version.debug is False
    assert torch.version.__version__ == torch.__version__
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        torch.ones(2).exp()
    assert "aten::exp" in [e.key for e in prof.key_averages()]
    with pytest.raises(NotImplementedError):
        torch.profiler.profile(schedule=lambda step: None)


def test_compiled_module_runs_hooks_of_wrapper_and_wrapped_module():
    calls = []
    lin = torch.nn.Linear(2, 2)
    c = torch.compile(lin)
    c.register_forward_hook(lambda mod, args, out: calls.append(type(mod).__name__))
    lin.register_forward_hook(lambda mod, args, out: calls.append(type(mod).__name__))
    c(torch.ones(1, 2))
    assert calls == ["Linear", "OptimizedModule"]
    assert lin.compile(mode="max-autotune") is None and list(lin.state_dict()) == ["weight", "bias"]
