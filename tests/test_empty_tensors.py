"""Empty tensors: PyTorch's strides, and nan means without a NumPy warning."""
import warnings

import pytest

import minigrad as torch


@pytest.mark.parametrize("shape, strides", [((0,), (1,)), ((2, 0), (1, 1)), ((0, 3), (3, 1)), ((2, 0, 4), (4, 4, 1))])
def test_empty_tensor_strides_count_size_zero_dims_as_one(shape, strides):
    assert torch.zeros(*shape).stride() == strides


def test_mean_of_empty_is_nan_and_silent():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m = torch.zeros(0).mean()
        rows = torch.zeros(2, 0).mean(1)
    assert repr(m) == "tensor(nan)"
    assert repr(rows) == "tensor([nan, nan])"


def test_mean_values_unchanged():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    out = x.mean()
    out.backward()
    assert out.item() == 2.5
    assert x.grad.tolist() == [[0.25, 0.25], [0.25, 0.25]]
    assert torch.tensor([[1.0, 2.0], [3.0, 4.0]]).mean(0).tolist() == [2.0, 3.0]
