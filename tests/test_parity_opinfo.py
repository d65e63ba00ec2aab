"""PyTorch's OpInfo database against minigrad, and the fixes the OpInfo sweep (tests/opinfo_sweep.py) led to.

test_opinfo_sample_parity: for a fixed list of (op, dtype) pairs that pass the sweep, PyTorch's own first sample
inputs run through torch and minigrad live (tests/opinfo_sweep.py: errors, output structure, dtype, shape, strides,
bit-equal values, grad_fn names, backward with a seeded grad_output and every input's .grad, the method and
in-place variants). The focused tests below check one fix each against torch.
"""
from __future__ import annotations

import pytest
from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

# R(t): a tensor's values rounded to 8 decimals (complex as (real, imag) pairs), for printing
PRELUDE = ERROR_PRELUDE + """
def R(t):
    t = t.detach().resolve_conj()
    return (torch.view_as_real(t) if t.is_complex() else t).round(decimals=8).tolist()
"""

# (op, dtype): an op name alone runs float64; the first sample of each (a broad, quick cut of the sweep)
CASES = [
    "H", "T", "__getitem__", "__radd__", ("__rand__", "int64"), "__rmod__", "__rmul__", ("__ror__", "int64"),
    "__rpow__", "__rsub__", ("__rxor__", "int64"), "abs", "acosh", "add", "addmm.decomposed", "alias_copy", "all",
    "allclose", "amax", "amin", "aminmax", "angle", "any", "arange", "argmax", "argmin", "argsort", "argwhere",
    "as_strided", "as_strided_copy", "as_strided_scatter", "asin", "asinh", "atan", "atanh", "atleast_1d",
    "atleast_2d", "atleast_3d", "bfloat16", ("bincount", "int64"), ("bitwise_and", "int64"),
    ("bitwise_left_shift", "int64"), ("bitwise_not", "int64"), ("bitwise_or", "int64"),
    ("bitwise_right_shift", "int64"), ("bitwise_xor", "int64"), "block_diag", "bmm", "bool",
    ("broadcast_shapes", "float32"), "broadcast_tensors", "broadcast_to", "bucketize", "byte", "cartesian_prod",
    "cat", "cdouble", "ceil", "cfloat", "char", "cholesky_inverse", "chunk", "clamp", "clamp_max", "clamp_min",
    "clone", "column_stack", "combinations", "complex", "conj", "contiguous", "copysign", "cos", "cosh",
    "count_nonzero", "cross", "cummax", "cummin", "cumsum", "cumulative_trapezoid", "deg2rad", "diag",
    "diag_embed", "diagflat", "diagonal", "diagonal_copy", "diagonal_scatter", "diff", "digamma",
    "div.floor_rounding", "div.no_rounding_mode", "div.trunc_rounding", "dot", "double", "dsplit", "dstack",
    "einsum", "eq", "equal", "erf", "erfc", "erfinv", "exp", "exp2", "expand", "expand_as", "expand_copy", "eye",
    "fft.fftshift", "fft.ifftshift", "fill", "flatten", "flip", "fliplr", "flipud", "float", "float_power",
    "floor", "floor_divide", "fmax", "fmin", "fmod", "frac", "frexp", "full", "full_like", ("gcd", "int64"), "ge",
    "geqrf", "gt", "half", "heaviside", "histc", "hsplit", "hstack", "i0", ("imag", "complex128"), "index_add",
    "index_copy", "index_fill", "index_put", "index_reduce.amax", "index_reduce.amin", "index_reduce.mean",
    "index_reduce.prod", "index_select", "inner", "int", "isclose", "isfinite", "isin", "isinf", "isnan",
    "isneginf", "isposinf", "isreal", "item", "kron", "kthvalue", ("lcm", "int64"), "le", "lgamma", "linalg.cond",
    "linalg.cross", "linalg.det", "linalg.diagonal", "linalg.eigvals", "linalg.eigvalsh", "linalg.inv",
    "linalg.inv_ex", "linalg.ldl_factor", "linalg.ldl_factor_ex", "linalg.matrix_power",
    "linalg.matrix_rank.hermitian", "linalg.multi_dot", "linalg.norm.subgradients_at_zero", "linalg.qr",
    "linalg.svdvals", "linalg.tensorinv", "linalg.tensorsolve", "log", "log_softmax", "log_softmax.with_dtype",
    "logaddexp2", "logical_and", "logical_not", "logical_or", "logical_xor", "long", "lt", "mH", "mT",
    "masked_fill", "masked_scatter", "masked_select", "max.binary", "max.reduction_no_dim", "maximum", "mean",
    "median", "meshgrid.list_of_tensors", "meshgrid.variadic_tensors", "min.binary", "min.reduction_no_dim",
    "min.reduction_with_dim", "minimum", "mm", "mode", "movedim", "msort", "mul", "nan_to_num", "nanmean",
    "nanmedian", "nanquantile", "nansum", "narrow", "narrow_copy", "ne", "neg", "new_full", "new_ones",
    "new_zeros", "nextafter", "nn.functional.adaptive_avg_pool1d", "nn.functional.adaptive_avg_pool3d",
    "nn.functional.adaptive_max_pool2d", "nn.functional.avg_pool1d", "nn.functional.bilinear",
    "nn.functional.binary_cross_entropy", "nn.functional.binary_cross_entropy_with_logits", "nn.functional.celu",
    "nn.functional.channel_shuffle", "nn.functional.cosine_similarity", "nn.functional.elu",
    "nn.functional.embedding", "nn.functional.feature_alpha_dropout.without_train",
    "nn.functional.gaussian_nll_loss", "nn.functional.glu", "nn.functional.hardshrink",
    "nn.functional.hardsigmoid", "nn.functional.hardswish", "nn.functional.hardtanh",
    "nn.functional.hinge_embedding_loss", "nn.functional.interpolate.bicubic",
    "nn.functional.interpolate.bilinear", "nn.functional.interpolate.linear",
    "nn.functional.interpolate.trilinear", "nn.functional.kl_div", "nn.functional.l1_loss",
    "nn.functional.leaky_relu", "nn.functional.linear", "nn.functional.local_response_norm",
    "nn.functional.logsigmoid", "nn.functional.max_pool1d", "nn.functional.mish", "nn.functional.mse_loss",
    "nn.functional.multilabel_margin_loss", "nn.functional.nll_loss", "nn.functional.normalize",
    ("nn.functional.one_hot", "int64"), "nn.functional.pad.circular", "nn.functional.pad.constant",
    "nn.functional.pairwise_distance", "nn.functional.pixel_shuffle", "nn.functional.pixel_unshuffle",
    "nn.functional.prelu", "nn.functional.relu", "nn.functional.relu6", "nn.functional.selu", "nn.functional.silu",
    "nn.functional.softmin", "nn.functional.softplus", "nn.functional.softshrink", "nn.functional.softsign",
    "nn.functional.threshold", "nn.functional.unfold", "nn.functional.upsample_bilinear",
    "nn.functional.upsample_nearest", "nonzero", "norm.inf", "norm.nuc", "ones", "ones_like", "outer", "permute",
    "polar", "polygamma.polygamma_n_0", "polygamma.polygamma_n_1", "polygamma.polygamma_n_2",
    "polygamma.polygamma_n_3", "polygamma.polygamma_n_4", "positive", "pow", "put", "quantile", "rad2deg", "ravel",
    "real", "reciprocal", "remainder", "repeat", "repeat_interleave", "reshape", "reshape_as", "resize_",
    "resize_as_", "resolve_conj", "resolve_neg", "roll", "rot90", "round", "round.decimals_0", "round.decimals_3",
    "round.decimals_neg_3", "rsub", "scalar_tensor", "scatter", "scatter_add", "scatter_reduce.amax",
    "scatter_reduce.amin", "scatter_reduce.mean", "scatter_reduce.prod", "scatter_reduce.sum", "select",
    "select_scatter", "short", "sign", "signal.windows.bartlett", "signal.windows.blackman",
    "signal.windows.cosine", "signal.windows.exponential", "signal.windows.gaussian",
    "signal.windows.general_cosine", "signal.windows.general_hamming", "signal.windows.hamming",
    "signal.windows.hann", "signal.windows.kaiser", "signal.windows.nuttall", "signbit", "sin", "sinh",
    "slice_scatter", "softmax", "softmax.with_dtype", "sort", "special.bessel_j0", "special.bessel_j1",
    "special.bessel_y0", "special.bessel_y1", "special.chebyshev_polynomial_t", "special.chebyshev_polynomial_u",
    "special.chebyshev_polynomial_v", "special.chebyshev_polynomial_w", "special.erfcx",
    "special.hermite_polynomial_h", "special.hermite_polynomial_he", "special.i0e", "special.i1", "special.i1e",
    "special.laguerre_polynomial_l", "special.legendre_polynomial_p", "special.log_ndtr",
    "special.modified_bessel_i0", "special.modified_bessel_i1", "special.modified_bessel_k0",
    "special.modified_bessel_k1", "special.ndtr", "special.ndtri", "special.polygamma.special_polygamma_n_0",
    "special.scaled_modified_bessel_k0", "special.scaled_modified_bessel_k1",
    "special.shifted_chebyshev_polynomial_t", "special.shifted_chebyshev_polynomial_u",
    "special.shifted_chebyshev_polynomial_v", "special.shifted_chebyshev_polynomial_w",
    "special.spherical_bessel_j0", "special.zeta", "split", "split.list_args", "split_with_sizes",
    "split_with_sizes_copy", "sqrt", "squeeze", "squeeze.multiple", "squeeze_copy", "stack", "sub", "sum",
    "sum_to_size", "t", "t_copy", "take", "take_along_dim", "tan", "tensor_split", "tile", "topk", "transpose",
    "transpose_copy", "trapezoid", "trapz", ("tril_indices", "int64"), ("triu_indices", "int64"), "true_divide",
    "trunc", "unbind", "unbind_copy", "unflatten", "unfold", "unfold_copy", ("unravel_index", "int64"),
    "unsafe_chunk", "unsafe_split", "unsqueeze", "unsqueeze_copy", "view", "view_as", "view_as_complex",
    ("view_as_real", "complex128"), "view_copy", "vsplit", "vstack", "where", "xlogy", "zero_", "zeros",
    "zeros_like",
    # session 14 (O4): clean to the last bit after the p-norm / var / std / var_mean kernels
    "dist", "hypot", "linalg.vector_norm", ("linalg.vector_norm", "float32"), "norm", "std", ("std", "complex128"),
    "std.unbiased", "std_mean", ("std_mean", "complex128"), "std_mean.unbiased", "var", ("var", "complex128"),
    ("var", "float32"), "var.unbiased", "var_mean", ("var_mean", "complex128"), "var_mean.unbiased",
    # session 14 (O3): clean after the conjugate-view inverse FFTs, empty-index/-input fixes, integer losses
    "fft.ifft", ("fft.ifft", "int64"), "fft.ihfft", "fft.ihfft2", "fft.ihfftn", "searchsorted", "gather",
    ("gather", "complex128"), ("conj_physical", "bool"), ("nn.functional.cosine_embedding_loss", "int64"),
    ("nn.functional.poisson_nll_loss", "int64"), "lu",
]
CASES = [(c, "float64") if isinstance(c, str) else c for c in CASES]


@pytest.mark.parametrize("label,dtype", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_opinfo_sample_parity(label, dtype):
    torch_or_skip()
    import opinfo_sweep
    n_run, lines = opinfo_sweep.sweep_lines(label, dtype, max_samples=1)
    assert n_run > 0
    assert lines == []


def _sweep(label, dtype, max_samples=None):
    torch_or_skip()
    import opinfo_sweep
    n_run, lines = opinfo_sweep.sweep_lines(label, dtype, max_samples)
    assert n_run > 0
    return lines


# ---- one test per fix -----------------------------------------------------------------------------------------

def test_complex_convolution_is_pytorchs_gauss_trick():
    """conv1d..conv_transpose3d of complex tensors: three real convolutions (AddBackward0 on top), and the
    gradients of the complex inputs (they were not conjugated)."""
    same_as_torch("""
torch.manual_seed(0)
for conv, wshape in ((torch.nn.functional.conv2d, (3, 2, 2, 2)), (torch.nn.functional.conv_transpose1d, (2, 3, 2))):
    x = torch.randn((1, 2, 4, 4) if wshape[2:] == (2, 2) else (1, 2, 5), dtype=torch.complex128, requires_grad=True)
    w = torch.randn(wshape, dtype=torch.complex128, requires_grad=True)
    b = torch.randn(wshape[0] if conv is torch.nn.functional.conv2d else wshape[1], dtype=torch.complex128,
                    requires_grad=True)
    y = conv(x, w, b)
    print(y.grad_fn.name(), [type(f).__name__ for f, _ in y.grad_fn.next_functions])
    y.backward(torch.ones_like(y) * (1 - 2j))
    for t in (x.grad, w.grad, b.grad):
        print(t.dtype, t.shape, R(t))
""", PRELUDE)


def test_conv_complex_opinfo_samples():
    for label in ("nn.functional.conv2d", "nn.functional.conv_transpose2d"):
        lines = _sweep(label, "complex128", max_samples=2)
        assert not [line for line in lines if "ulp" not in line], lines   # (the float64 kernels' last bits left)


def test_ldexp_non_whole_and_complex_exponents():
    """ldexp = mul(self, pow(2, other)): pow's own kernel (the float results were an ulp off), a complex exponent
    kept complex (its imaginary part was dropped), and conjugated gradients for complex inputs."""
    same_as_torch("""
x = torch.tensor([1.5, -3.25, 0.1], dtype=torch.float64, requires_grad=True)
e = torch.tensor([2.5, -3.3, 0.7], dtype=torch.float64, requires_grad=True)
y = torch.ldexp(x, e)
print(y.tolist(), y.grad_fn.name())
y.backward(torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64))
print(x.grad.tolist(), e.grad.tolist())
a = torch.tensor([1 + 1j], dtype=torch.complex128, requires_grad=True)
b = torch.tensor([0.5 + 1j], dtype=torch.complex128, requires_grad=True)
r = torch.ldexp(a, b)
print(R(r))
r.backward(torch.tensor([0.3 - 0.7j], dtype=torch.complex128))
print(R(a.grad), R(b.grad))
""", PRELUDE)
    assert _sweep("ldexp", "float64") == []


def test_constant_pad_nd_complex_value_and_its_own_errors():
    same_as_torch("""
x = torch.ones(2, 2, dtype=torch.complex128, requires_grad=True)
E(lambda: print(torch.constant_pad_nd(x, (1, 1), 1 + 2j)))
E(lambda: torch.constant_pad_nd(x, (1,), 1 + 2j))
E(lambda: torch.constant_pad_nd(x, (1, 1, 1, 1, 1, 1), 0))
for dt in (torch.float64, torch.float32, torch.int64, torch.bool):
    E(lambda: print(torch.constant_pad_nd(torch.ones(2, dtype=dt), (1, 1), 1 + 2j)))
    E(lambda: print(torch.constant_pad_nd(torch.ones(2, dtype=dt), (1, 1), 3 + 0j)))
E(lambda: torch.nn.functional.pad(x, (1, 1), value=1 + 2j))
""", PRELUDE)


def test_cov_and_corrcoef_of_complex_inputs():
    """cov: x·(x·w)ᴴ (the conjugate transpose); corrcoef: real diagonal, both parts clipped."""
    same_as_torch("""
torch.manual_seed(0)
x = torch.randn(3, 5, dtype=torch.complex128, requires_grad=True)
c = torch.cov(x, correction=0)
print(R(c), c.grad_fn.name())
c.abs().sum().backward()
print(R(x.grad))
print(R(torch.corrcoef(x.detach())))
""", PRELUDE)


def test_margin_ranking_loss_integer_inputs_give_float():
    """aten's ``double margin``: -y·(x1 - x2) + margin is float32 for integer inputs (mean then works)."""
    same_as_torch("""
a, b, y = torch.tensor([1, 2, 3]), torch.tensor([3, 1, 2]), torch.tensor([1, -1, 1])
for reduction in ("mean", "sum", "none"):
    out = torch.nn.functional.margin_ranking_loss(a, b, y, reduction=reduction)
    print(out, out.dtype)
print(torch.nn.functional.margin_ranking_loss(a, b, y, margin=0.5, reduction="none"))
""", PRELUDE)


def test_small_argument_fixes():
    """gradient(spacing=None), expand_copy/permute_copy to (), pinverse of an empty batch, randint_like of 0-d."""
    same_as_torch("""
print(torch.gradient(torch.tensor([1.0, 4.0, 9.0, 16.0]), spacing=None))
print(torch.gradient(torch.tensor([[1.0, 4.0], [9.0, 16.0]]), spacing=None, dim=1))
print(torch.expand_copy(torch.tensor(2.5), ()), torch.permute_copy(torch.tensor(2.5), ()))
print(torch.pinverse(torch.zeros(1, 1, 0, 0)).shape, torch.pinverse(torch.zeros(2, 0, 3)).shape)
torch.manual_seed(3)
print(torch.randint_like(torch.tensor(1.0), 10).shape, torch.randint_like(torch.tensor(1.0), 10))
""", PRELUDE)
