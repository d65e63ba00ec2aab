"""Tensor reprs: literal strings, plus byte-for-byte parity with PyTorch when it is installed."""
import contextlib
import math

import ml_dtypes
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from minigrad import _dtypes
from minigrad._printing import format_tensor, get_printoptions, printoptions, set_printoptions

D = {d.name: d for d in _dtypes.ALL}


def fmt(arr, **kw):
    """format_tensor with the dtype read from the NumPy array."""
    arr = np.asarray(arr)
    return format_tensor(arr, _dtypes.from_numpy(arr.dtype), **kw)


# ---- literal strings (no PyTorch needed) ------------------------------------------------------

@pytest.mark.parametrize("arr, expected", [
    (np.array([1.0, 2.0], np.float32), "tensor([1., 2.])"),
    (np.array(7.5, np.float32), "tensor(7.5000)"),
    (np.array([1, 2, 3]), "tensor([1, 2, 3])"),
    (np.array([True, False]), "tensor([ True, False])"),
    (np.array([1.5]), "tensor([1.5000], dtype=torch.float64)"),
    (np.array([-0.0, 1.0], np.float32), "tensor([-0., 1.])"),
    (np.array([np.nan, np.inf, 1.5], np.float32), "tensor([   nan,    inf, 1.5000])"),
    (np.array([1e-5, 1.0, 3e9], np.float32), "tensor([1.0000e-05, 1.0000e+00, 3.0000e+09])"),
    (np.array([1 + 2j, -3.5 - 0.5j], np.complex64), "tensor([ 1.0000+2.0000j, -3.5000-0.5000j])"),
    (np.array([1, 2], np.int32), "tensor([1, 2], dtype=torch.int32)"),
    (np.zeros((0, 3), np.float32), "tensor([], size=(0, 3))"),
    (np.zeros((0,), np.int64), "tensor([], dtype=torch.int64)"),
    (np.arange(2000), "tensor([   0,    1,    2,  ..., 1997, 1998, 1999])"),
])
def test_literal(arr, expected):
    assert fmt(arr) == expected


def test_literal_matrix():
    arr = (np.eye(4, 5) * 2 + 2).astype(np.float32)
    assert fmt(arr) == ("tensor([[4., 2., 2., 2., 2.],\n"
                        "        [2., 4., 2., 2., 2.],\n"
                        "        [2., 2., 4., 2., 2.],\n"
                        "        [2., 2., 2., 4., 2.]])")


def test_literal_autograd_suffixes():
    assert (fmt(np.float32(7.5), grad_fn_name="MeanBackward0")
            == "tensor(7.5000, grad_fn=<MeanBackward0>)")
    assert fmt(np.ones(2, np.float32), requires_grad=True) == "tensor([1., 1.], requires_grad=True)"
    # grad_fn wins over requires_grad, as for any non-leaf tensor
    assert fmt(np.ones(1), requires_grad=True, grad_fn_name="AddBackward0") == (
        "tensor([1.], dtype=torch.float64, grad_fn=<AddBackward0>)")


def test_literal_bfloat16_and_float16():
    assert (fmt(np.array([1.0, 0.1], ml_dtypes.bfloat16))
            == "tensor([1.0000, 0.1001], dtype=torch.bfloat16)")
    assert fmt(np.array([0.1], np.float16)) == "tensor([0.1000], dtype=torch.float16)"


def test_set_printoptions_and_restore():
    before = get_printoptions()
    assert before == {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80,
                      "sci_mode": None}
    with printoptions(precision=2):
        assert fmt(np.array([1.12345], np.float32)) == "tensor([1.12])"
        assert get_printoptions()["precision"] == 2
    assert get_printoptions() == before
    try:
        set_printoptions(threshold=5)
        assert fmt(np.arange(10)) == "tensor([0, 1, 2,  ..., 7, 8, 9])"
        set_printoptions(profile="full")
        assert get_printoptions()["threshold"] == math.inf
        assert fmt(np.arange(10)) == "tensor([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])"
    finally:
        set_printoptions(profile="default")
    assert get_printoptions() == before


def test_default_dtype_changes_suffix():
    try:
        _dtypes.set_default_dtype(_dtypes.float64)
        assert fmt(np.array([1.0])) == "tensor([1.])"
        assert fmt(np.array([1.0], np.float32)) == "tensor([1.], dtype=torch.float32)"
    finally:
        _dtypes.set_default_dtype(_dtypes.float32)


# ---- parity with PyTorch -----------------------------------------------------------------------

# A module-level pytest.importorskip would skip the literal tests above too, so only the parity
# tests carry the skip mark.
try:
    import torch
except ImportError:
    torch = None
parity = pytest.mark.skipif(torch is None, reason="PyTorch not installed: parity tests skipped")


@contextlib.contextmanager
def both_options(**kw):
    """Apply the same print options to torch and minigrad, restoring the defaults afterwards."""
    torch.set_printoptions(**kw)
    set_printoptions(**kw)
    try:
        yield
    finally:
        torch.set_printoptions(profile="default")
        set_printoptions(profile="default")


@contextlib.contextmanager
def default_float64():
    torch.set_default_dtype(torch.float64)
    _dtypes.set_default_dtype(_dtypes.float64)
    try:
        yield
    finally:
        torch.set_default_dtype(torch.float32)
        _dtypes.set_default_dtype(_dtypes.float32)


def torch_values(t):
    """The NumPy data and minigrad dtype of a torch tensor (bfloat16 via ml_dtypes)."""
    t = t.detach()
    if t.dtype == torch.bfloat16:
        return t.float().numpy().astype(ml_dtypes.bfloat16), D["bfloat16"]
    if t.dtype == torch.complex32:   # (NumPy has none either: minigrad's float16 pairs, see _dtypes.complex32)
        return _dtypes.as_complex32(t.cfloat().numpy(), warn=False), D["complex32"]
    return t.numpy(), D[str(t.dtype).removeprefix("torch.")]


def assert_same(t, **kw):
    data, dtype = torch_values(t)
    grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    ours = format_tensor(data, dtype, requires_grad=t.requires_grad, grad_fn_name=grad_fn, **kw)
    assert ours == repr(t)


SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=7)
SPECIAL = st.sampled_from([0.0, -0.0, math.nan, math.inf, -math.inf, 1.0, -2.0, 0.5])


def float_elements(width):
    """Mix of specials, whole numbers, and values of every magnitude (to reach sci mode)."""
    # bounds are powers of two so they are exact at every width
    return st.one_of(
        SPECIAL,
        st.integers(-10**6, 10**6).map(float),
        st.floats(-16, 16, width=width),
        st.floats(width=width),
        st.floats(-(2.0**-10), 2.0**-10, width=width),
    )


OPTION_SETS = [
    {}, {"precision": 2}, {"precision": 7}, {"sci_mode": True}, {"sci_mode": False},
    {"profile": "full"}, {"profile": "short"}, {"linewidth": 40}, {"linewidth": 120},
    {"threshold": 10}, {"threshold": 10, "edgeitems": 1}, {"threshold": 10, "edgeitems": 0},
]


@parity
@settings(deadline=None, max_examples=300)
@given(dt=st.sampled_from([np.float32, np.float64]), data=st.data(),
       opts=st.sampled_from(OPTION_SETS))
def test_float_arrays(dt, data, opts):
    width = 32 if dt is np.float32 else 64
    arr = data.draw(hnp.arrays(dt, SHAPES, elements=float_elements(width)))
    with both_options(**opts):
        assert_same(torch.from_numpy(arr.copy()))


@parity
@settings(deadline=None, max_examples=100)
@given(arr=hnp.arrays(np.float16, SHAPES, elements=st.floats(width=16)))
def test_float16(arr):
    assert_same(torch.from_numpy(arr.copy()))


@parity
@settings(deadline=None, max_examples=100)
@given(arr=hnp.arrays(np.float32, SHAPES, elements=float_elements(32)))
def test_bfloat16(arr):
    assert_same(torch.from_numpy(arr.copy()).bfloat16())


@parity
@settings(deadline=None, max_examples=150)
@given(dt=st.sampled_from([np.int8, np.int16, np.int32, np.int64, np.uint8, np.bool_]),
       data=st.data(), opts=st.sampled_from(OPTION_SETS))
def test_int_and_bool_arrays(dt, data, opts):
    arr = data.draw(hnp.arrays(dt, SHAPES))
    with both_options(**opts):
        assert_same(torch.from_numpy(arr.copy()))


@parity
@settings(deadline=None, max_examples=150)
@given(dt=st.sampled_from([np.complex64, np.complex128]), data=st.data(),
       opts=st.sampled_from(OPTION_SETS))
def test_complex_arrays(dt, data, opts):
    width = 32 if dt is np.complex64 else 64
    part = float_elements(width)
    elements = st.builds(complex, part, part)
    arr = data.draw(hnp.arrays(dt, SHAPES, elements=elements))
    with both_options(**opts):
        assert_same(torch.from_numpy(arr.copy()))


@parity
@pytest.mark.parametrize("shape", [(1001,), (2000,), (40, 50), (3, 400, 2), (1100, 1),
                                   (2, 3, 4, 50)])
@pytest.mark.parametrize("kind", ["randn", "int", "scaled", "complex"])
def test_summarized(shape, kind):
    rng = np.random.default_rng(0)
    arr = {
        "randn": lambda: rng.standard_normal(shape).astype(np.float32),
        "int": lambda: rng.integers(-10**6, 10**6, shape),
        "scaled": lambda: (rng.standard_normal(shape) * 10.0 ** rng.integers(-8, 9, shape)),
        "complex": lambda: (rng.standard_normal(shape)
                            + 1j * rng.standard_normal(shape)).astype(np.complex64),
    }[kind]()
    assert_same(torch.from_numpy(arr))
    with both_options(edgeitems=0):
        assert_same(torch.from_numpy(arr))


@parity
@pytest.mark.parametrize("shape", [(30,), (2, 30), (3, 2, 25), (2, 2, 2, 12)])
@pytest.mark.parametrize("scale", [1.0, 1e5, 1e10])
def test_line_wrapping(shape, scale):
    arr = (np.random.default_rng(1).standard_normal(shape) * scale).astype(np.float32)
    assert_same(torch.from_numpy(arr))
    assert_same(torch.from_numpy(arr.astype(np.complex128)))


@parity
@pytest.mark.parametrize("shape", [(0,), (0, 3), (2, 0), (1, 0, 4)])
@pytest.mark.parametrize("name", sorted(D))
def test_empty(shape, name):
    assert_same(torch.zeros(shape, dtype=getattr(torch, name)))


@parity
@pytest.mark.parametrize("name", sorted(D))
def test_zero_dim(name):
    t = torch.tensor(3.25, dtype=torch.float64).to(getattr(torch, name))
    assert_same(t)
    if t.is_floating_point() or t.is_complex():
        assert_same(t.clone().requires_grad_())
        assert_same(t.clone().requires_grad_() * 2)


@parity
@pytest.mark.parametrize("shape", [(), (3,), (4, 5), (3, 4, 18), (2000,)])
def test_autograd_suffixes(shape):
    leaf = torch.from_numpy(np.random.default_rng(2).standard_normal(shape)).requires_grad_()
    assert_same(leaf)
    assert_same(leaf * 2)
    assert_same(leaf.float().sum() if shape else leaf.exp())


@parity
@pytest.mark.parametrize("name", ["float32", "float64", "complex64", "complex128", "float16",
                                  "int64"])
def test_default_float64(name):
    with default_float64():
        t = torch.tensor([1.5, 2.0]).to(getattr(torch, name))
        assert_same(t)
        assert_same(t[:0])


@parity
def test_parameter_and_custom_prefix():
    t = torch.nn.Parameter(torch.ones(3, 30))
    data, dtype = torch_values(t)
    assert "Parameter containing:\n" + format_tensor(data, dtype, requires_grad=True) == repr(t)

    class Foo(torch.Tensor):
        pass

    sub = torch.arange(60.0).reshape(2, 30).as_subclass(Foo)
    data, dtype = torch_values(sub)
    assert format_tensor(data, dtype, prefix="Foo(") == repr(sub)


@parity
def test_printoptions_match_torch():
    for opts in OPTION_SETS:
        with both_options(**opts):
            assert get_printoptions() == torch._tensor_str.get_printoptions()
    assert get_printoptions() == torch._tensor_str.get_printoptions()
