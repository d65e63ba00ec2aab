"""Round 12's cheaper MKL calls (minigrad/_matmul.py, _vml.address): same pointers, same scalars, same bits."""
import numpy as np
import pytest
from parity import torch_or_skip

from minigrad import _matmul, _vml

needs_mkl = pytest.mark.skipif(not _vml.available, reason="MKL (the mkl package) is not loaded")


def _layouts(rng, dtype, rows, cols):
    """The same values as a row-major, a column-major (transposed), and a column-sliced (lda > cols) matrix."""
    base = rng.standard_normal((rows, cols)).astype(dtype)
    column_major = np.asfortranarray(base)
    wide = np.zeros((rows, cols + 3), dtype)
    wide[:, :cols] = base
    return {"row-major": base, "column-major": column_major, "sliced": wide[:, :cols]}


@needs_mkl
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_products_of_every_layout_have_torchs_bits(dtype):
    torch = torch_or_skip()
    rng = np.random.default_rng(12)
    for (la, a), (lb, b) in [(x, y) for x in _layouts(rng, dtype, 37, 19).items()
                             for y in _layouts(rng, dtype, 19, 23).items()]:
        want = torch.mm(torch.from_numpy(a), torch.from_numpy(b)).numpy()
        assert np.array_equal(_matmul.mm(a, b), want), (la, lb)
        bias = rng.standard_normal(23).astype(dtype)
        # alpha and beta reach sgemm as C floats (rounded as PyTorch's alpha.to<float>())
        got = _matmul.addmm(bias, a, b, 0.3, 1.7)
        want = torch.addmm(torch.from_numpy(bias), torch.from_numpy(a), torch.from_numpy(b), beta=0.3, alpha=1.7)
        assert np.array_equal(got, want.numpy()), (la, lb)


@needs_mkl
def test_read_only_operands_take_the_slow_pointer_and_give_the_same_bits():
    rng = np.random.default_rng(3)
    a, b = rng.standard_normal((30, 16), dtype=np.float32), rng.standard_normal((16, 8), dtype=np.float32)
    b_cols = np.asfortranarray(b)
    for x, y in [(a, b), (a, b_cols)]:
        want = _matmul.mm(x, y)   # (the layouts decide MKL's kernel, so each pair is compared with itself)
        x_ro, y_ro = x.copy(order="A"), y.copy(order="A")
        x_ro.flags.writeable = y_ro.flags.writeable = False
        assert np.array_equal(_matmul.mm(x_ro, y_ro), want)
        assert np.array_equal(_matmul.mm(x_ro, y), want)


def test_address_of_a_column_major_array_is_its_first_element():
    a = np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4))
    assert not a.flags.c_contiguous
    assert _vml.address(a) == a.ctypes.data
    sliced = np.zeros((4, 6), np.float32)[:, :3]   # neither layout: NumPy's own pointer
    assert _vml.address(sliced) == sliced.ctypes.data
