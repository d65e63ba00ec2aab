"""dtypes: PyTorch's promotion (promote_types / result_type over every pair), defaults, gradients keep dtype."""
import itertools

import pytest
from parity import same_as_torch, torch_or_skip

import minigrad as mg
from minigrad import _dtypes

NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "bfloat16", "float32", "float64",
         "complex64", "complex128"]
SCALARS = [True, 2, 2.5, 1 + 2j]


def _mg(name):
    return getattr(mg, name)


def test_promote_types_examples():
    assert _dtypes.promote_types(mg.uint8, mg.int8) is mg.int16
    assert _dtypes.promote_types(mg.float16, mg.bfloat16) is mg.float32
    assert _dtypes.promote_types(mg.float64, mg.complex64) is mg.complex128
    assert _dtypes.promote_types(mg.int64, mg.float16) is mg.float16


def test_result_type_examples():
    i = mg.tensor([1, 2])
    assert _dtypes.result_type(i, 2.5) is mg.float32             # a Python float gives the default dtype
    assert _dtypes.result_type(mg.tensor([1.0]), mg.tensor(1.0, dtype=mg.float64)) is mg.float32  # 0-dim loses
    assert _dtypes.result_type(i, mg.tensor(1.0, dtype=mg.float64)) is mg.float64  # ...unless higher category
    assert _dtypes.result_type(mg.tensor([1.0]), mg.tensor(1j, dtype=mg.complex128)) is mg.complex64
    assert _dtypes.result_type(mg.tensor([True]), 3) is mg.int64
    assert _dtypes.result_type(mg.tensor([1], dtype=mg.uint8), 300) is mg.uint8


def _torch_name(d) -> str:
    # (PyTorch gives float16 + complex -> complex32, which minigrad has too: see tests/test_parity_dtypes24.py)
    return str(d)


def test_promote_types_matches_torch_for_all_pairs():
    torch = torch_or_skip()
    for a, b in itertools.product(NAMES, NAMES):
        expected = str(torch.promote_types(getattr(torch, a), getattr(torch, b)))
        assert repr(_dtypes.promote_types(_mg(a), _mg(b))) == expected, (a, b)


@pytest.mark.parametrize("default", ["float32", "float64"])
def test_result_type_matches_torch_for_tensors_zero_dim_and_scalars(default):
    torch = torch_or_skip()

    def make(lib, name, kind):
        dt = getattr(lib, name)
        return lib.zeros(2, dtype=dt) if kind == "tensor" else lib.zeros((), dtype=dt)

    operands = [(n, k) for n in NAMES for k in ("tensor", "0-dim")] + [("scalar", s) for s in SCALARS]
    torch.set_default_dtype(getattr(torch, default))
    mg.set_default_dtype(getattr(mg, default))
    try:
        for x, y in itertools.product(operands, operands):
            if x[0] == "scalar" and y[0] == "scalar":
                continue
            tx, ty = [o[1] if o[0] == "scalar" else make(torch, *o) for o in (x, y)]
            mx, my = [o[1] if o[0] == "scalar" else make(mg, *o) for o in (x, y)]
            assert repr(_dtypes.result_type(mx, my)) == _torch_name(torch.result_type(tx, ty)), (x, y)
    finally:
        torch.set_default_dtype(torch.float32)
        mg.set_default_dtype(mg.float32)


def test_default_dtype():
    assert mg.get_default_dtype() is mg.float32
    try:
        mg.set_default_dtype(mg.float64)
        assert mg.tensor([1.5]).dtype is mg.float64 and mg.tensor([1j]).dtype is mg.complex128
        assert mg.zeros(1).dtype is mg.float64
    finally:
        mg.set_default_dtype(mg.float32)
    with pytest.raises(TypeError, match="only floating-point types are supported as the default type"):
        mg.set_default_dtype(mg.int64)


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32", "float64", "complex64", "complex128"])
def test_gradient_keeps_tensor_dtype(name):
    x = mg.ones(3, dtype=_mg(name), requires_grad=True)
    y = x * 2 + x
    y.backward(mg.ones(3, dtype=_mg(name)))
    assert x.grad.dtype is _mg(name)
    assert [complex(v) for v in x.grad.tolist()] == [3, 3, 3]


DEFAULTS_PROGRAM = """
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5]).dtype, torch.zeros(1).dtype, torch.tensor([1j]).dtype, torch.arange(0., 1.).dtype,
      torch.get_default_dtype())
print((torch.tensor([1, 2]) * 1.5).dtype, torch.rand(1).dtype)
torch.set_default_dtype(torch.float32)
E(lambda: torch.set_default_dtype(torch.int64))
print(torch.tensor([1.5]).dtype, torch.tensor([1j]).dtype)
print(torch.float is torch.float32, torch.double, torch.long, torch.half, torch.cfloat, torch.bool, torch.uint8,
      torch.int8, torch.int16, torch.bfloat16, torch.complex128)
print(torch.float32.is_floating_point, torch.complex64.is_complex, torch.int32.is_signed, torch.uint8.is_signed,
      torch.float16.itemsize)
print(torch.promote_types(torch.int32, torch.float16), torch.result_type(torch.tensor([1]), 2.5))
x = torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True)
(x.float() * 2).sum().backward()
print(x.grad)
"""


def test_default_dtype_program_matches_torch():
    same_as_torch(DEFAULTS_PROGRAM)
