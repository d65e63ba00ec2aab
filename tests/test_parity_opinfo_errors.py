"""Session 14: PyTorch's own list of bad calls (OpInfo ``error_inputs``) and of unsupported dtypes, run on minigrad.

torch's OpInfo database (tests/torch_testing_db.py) says, per op, which calls must fail and how; the sweep
tests/opinfo_errors.py runs all of them by hand. Here a fixed list of (op, error index) and of (op, dtype,
sample index) that minigrad matches is run again, each compared live with torch (exception type and message),
then one focused test per fix of the sweep (the call as a user would write it, torch vs minigrad).
"""
from __future__ import annotations

import warnings

import pytest
from parity import torch_or_skip

import minigrad

# {op label: error_inputs indices whose exception type and message minigrad matches}
ERROR_CASES = {
    "__radd__": (0, 1),
    "__rand__": (0, 1),
    "__rdiv__": (0, 1),
    "__rmul__": (0, 1),
    "__ror__": (0, 1),
    "__rxor__": (0, 1),
    "amax": (0, 3, 4, 5, 6),
    "amin": (0, 3, 4, 5, 6),
    "aminmax": (0, 3, 4),
    "arange": (0, 1, 2, 3, 4, 5, 6),
    "as_strided_scatter": (0,),
    "atan2": (0, 1, 2),
    "bernoulli": (0,),
    "bitwise_and": (0,),
    "bitwise_left_shift": (0,),
    "bitwise_or": (0,),
    "bitwise_right_shift": (0,),
    "bitwise_xor": (0,),
    "bucketize": (0,),
    "cat": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13),
    "cauchy": (0,),
    "clamp_max": (1, 2),
    "clamp_min": (1, 2),
    "complex": (0, 1, 2, 3, 4, 5),
    "copysign": (0, 1),
    "cov": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "diag": (0, 1),
    "diag_embed": (0, 1, 2, 3, 4, 5),
    "diagonal": (0, 1, 2, 3, 4, 5),
    "diagonal_copy": (0, 1, 2, 3, 4, 5),
    "diff": (0,),
    "dot": (0, 1, 2),
    "dsplit": (0, 1),
    "dstack": (0, 1),
    "empty_permuted": (0, 1, 2),
    "eq": (0, 1),
    "exponential": (0,),
    "eye": (0, 1, 2),
    "fft.fft": (0,),
    "fft.fft2": (0,),
    "fft.fftn": (0,),
    "fft.hfft": (0,),
    "fft.hfft2": (0,),
    "fft.hfftn": (0,),
    "fft.ifft": (0,),
    "fft.ifft2": (0,),
    "fft.ifftn": (0,),
    "fft.ihfft": (0,),
    "fft.ihfft2": (0,),
    "fft.ihfftn": (0,),
    "fft.irfft": (0,),
    "fft.irfft2": (0,),
    "fft.irfftn": (0,),
    "fft.rfft": (0,),
    "fft.rfft2": (0,),
    "fft.rfftn": (0,),
    "fliplr": (0,),
    "flipud": (0,),
    "float_power": (0,),
    "fmax": (0, 1, 2),
    "fmin": (0, 1, 2),
    "fmod": (0, 1),
    "gather": (0, 1, 2, 3, 4, 5, 6),
    "gcd": (0, 1, 2),
    "ge": (0, 1),
    "geometric": (0,),
    "gradient": (0, 1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20),
    "gt": (0, 1),
    "heaviside": (0, 1, 2),
    "histogramdd": (0,),
    "hsplit": (0, 1, 2),
    "hstack": (0, 1),
    "hypot": (0, 1, 2),
    "igamma": (0, 1, 2),
    "igammac": (0, 1, 2),
    "index_add": (0,),
    "index_select": (0,),
    "isclose": (0, 1, 2, 3, 4),
    "item": (0, 1, 2, 3),
    "kthvalue": (0, 1, 2, 3),
    "lcm": (0, 1, 2),
    "ldexp": (0, 1, 2),
    "le": (0, 1),
    "linalg.cross": (0, 1, 2, 3),
    "linalg.diagonal": (0, 1, 2, 3, 4, 5),
    "linalg.lstsq": (0,),
    "linalg.lstsq.grad_oriented": (0,),
    "linspace": (0, 1, 2),
    "linspace.tensor_overload": (0, 1, 2),
    "log_normal": (0,),
    "logaddexp": (0, 1, 2),
    "logcumsumexp": (0, 1),
    "logical_and": (0, 1, 2),
    "logical_or": (0, 1, 2),
    "logical_xor": (0, 1, 2),
    "logspace": (0, 1, 2),
    "logspace.tensor_overload": (0, 1, 2),
    "lt": (0, 1),
    "masked_fill": (0, 1, 2),
    "masked_scatter": (0, 1),
    "masked_select": (0, 1, 2),
    "max.binary": (0, 1, 2),
    "maximum": (0, 1, 2),
    "mean": (0, 1),
    "min.binary": (0, 1, 2),
    "minimum": (0, 1, 2),
    "movedim": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "multinomial": (0, 5, 10, 15, 20),
    "narrow": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "narrow_copy": (0, 1, 2, 3, 4, 5, 6),
    "native_layer_norm": (0, 1, 2, 3),
    "ne": (0, 1),
    "neg": (0,),
    "nextafter": (0, 1, 2),
    "nn.functional.adaptive_avg_pool1d": (0, 1),
    "nn.functional.adaptive_avg_pool2d": (0, 1, 2),
    "nn.functional.adaptive_avg_pool3d": (0, 1, 2),
    "nn.functional.adaptive_max_pool1d": (0, 1),
    "nn.functional.adaptive_max_pool2d": (0, 1, 2),
    "nn.functional.adaptive_max_pool3d": (0, 1, 2),
    "nn.functional.avg_pool1d": (0, 1),
    "nn.functional.avg_pool2d": (0, 1, 2, 3, 4),
    "nn.functional.avg_pool3d": (0, 1, 2, 3, 4, 5),
    "nn.functional.conv1d": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    "nn.functional.conv2d": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    "nn.functional.conv3d": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9),
    "nn.functional.embedding": (0, 1),
    "nn.functional.gaussian_nll_loss": (0, 1, 2),
    "nn.functional.gelu": (0,),
    "nn.functional.group_norm": (0, 1),
    "nn.functional.hardtanh": (0,),
    "nn.functional.hinge_embedding_loss": (0,),
    "nn.functional.huber_loss": (0, 1, 2),
    "nn.functional.l1_loss": (0, 1),
    "nn.functional.margin_ranking_loss": (0, 1),
    "nn.functional.max_pool1d": (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23),
    "nn.functional.max_pool2d": (0, 1, 2, 3, 4, 5, 6),
    "nn.functional.max_pool3d": (0, 1, 2, 3, 4, 5, 6),
    "nn.functional.max_unpool1d": (0,),
    "nn.functional.max_unpool2d": (0,),
    "nn.functional.max_unpool3d": (0,),
    "nn.functional.multi_margin_loss": (0, 1, 2, 3, 4, 5, 6, 7, 8),
    "nn.functional.multilabel_margin_loss": (0, 1, 2, 3, 4),
    "nn.functional.poisson_nll_loss": (0, 1),
    "nn.functional.prelu": (0, 1, 2),
    "nn.functional.rms_norm": (0, 1, 2),
    "nn.functional.rrelu": (0,),
    "nn.functional.soft_margin_loss": (0, 1),
    "nn.functional.softshrink": (0,),
    "nn.functional.triplet_margin_loss": (0, 1, 2, 3, 4, 5, 6, 7),
    "nn.functional.triplet_margin_with_distance_loss": (0, 1, 2, 3, 4, 5, 6, 7),
    "normal.in_place": (0,),
    "ormqr": (0, 1),
    "polar": (0, 1, 2),
    "pow": (0,),
    "remainder": (0,),
    "renorm": (0,),
    "reshape": (0, 1, 2, 3, 4, 5, 6, 7),
    "reshape_as": (0, 1),
    "roll": (0, 1, 2, 3),
    "rot90": (0, 1, 2),
    "rsub": (0, 1),
    "scatter": (0, 1, 2, 3),
    "scatter_add": (0, 1, 2, 3),
    "signal.windows.bartlett": (0, 1, 2, 3, 4),
    "signal.windows.blackman": (0, 1, 2, 3, 4),
    "signal.windows.cosine": (0, 1, 2, 3, 4),
    "signal.windows.exponential": (0, 1, 2, 3, 4, 5, 6),
    "signal.windows.gaussian": (0, 1, 2, 3, 4, 5),
    "signal.windows.general_cosine": (0, 1, 2, 3, 4, 5, 6),
    "signal.windows.general_hamming": (0, 1, 2, 3, 4),
    "signal.windows.hamming": (0, 1, 2, 3, 4),
    "signal.windows.hann": (0, 1, 2, 3, 4),
    "signal.windows.kaiser": (0, 1, 2, 3, 4, 5),
    "signal.windows.nuttall": (0, 1, 2, 3, 4),
    "special.chebyshev_polynomial_t": (0,),
    "special.chebyshev_polynomial_u": (0,),
    "special.chebyshev_polynomial_v": (0,),
    "special.chebyshev_polynomial_w": (0,),
    "special.hermite_polynomial_h": (0,),
    "special.hermite_polynomial_he": (0,),
    "special.laguerre_polynomial_l": (0,),
    "special.legendre_polynomial_p": (0,),
    "special.shifted_chebyshev_polynomial_t": (0,),
    "special.shifted_chebyshev_polynomial_u": (0,),
    "special.shifted_chebyshev_polynomial_v": (0,),
    "special.shifted_chebyshev_polynomial_w": (0,),
    "special.xlog1py": (0,),
    "special.zeta": (0,),
    "sum_to_size": (0, 1),
    "t": (0,),
    "t_copy": (0,),
    "take": (0, 1, 2),
    "trace": (0,),
    "tril": (0,),
    "triu": (0,),
    "unbind": (0, 1),
    "unbind_copy": (0, 1),
    "uniform": (0,),
    "vdot": (0, 1, 2),
    "view": (0, 1, 2, 3, 4, 5, 6, 7),
    "view_as": (0, 1),
    "view_copy": (0, 1, 2, 3, 4, 5, 6, 7),
    "vsplit": (0, 1, 2),
    "vstack": (0, 1),
    "xlogy": (0,),
}

# {(op label, dtype torch's OpInfo says the op lacks): sample indices where torch raises and minigrad the same}
DTYPE_CASES = {
    ("__rand__", "float16"): (0, 1, 2),
    ("__ror__", "float16"): (0, 1, 2),
    ("__rxor__", "float16"): (0, 1, 2),
    ("addcdiv", "bool"): (0, 1, 2),
    ("addcmul", "bool"): (0, 1, 2),
    ("addmm.decomposed", "bool"): (0, 1, 2),
    ("amax", "complex64"): (0, 1, 2),
    ("arange", "bool"): (0, 1, 2),
    ("argsort", "complex64"): (0, 1, 2),
    ("bernoulli", "bool"): (0, 1),
    ("bitwise_left_shift", "bool"): (0, 1, 2),
    ("bitwise_right_shift", "bool"): (0, 1, 2),
    ("bucketize", "bool"): (0, 1, 2),
    ("ceil", "bool"): (0,),
    ("clamp_max", "complex64"): (0, 1, 2),
    ("copysign", "complex64"): (0, 1, 2),
    ("cross", "bool"): (0, 1, 2),
    ("cumulative_trapezoid", "bool"): (0, 1, 2),
    ("dist", "bool"): (0, 1, 2),
    ("dot", "bool"): (0,),
    ("erfinv", "complex64"): (0,),
    ("fft.fft2", "float16"): (0, 1, 2),
    ("fft.hfft2", "float16"): (0, 1, 2),
    ("fft.ifft2", "float16"): (0, 1, 2),
    ("fft.ihfft2", "float16"): (0, 1, 2),
    ("fft.irfft2", "float16"): (0, 1, 2),
    ("fft.rfft2", "float16"): (0, 1, 2),
    ("floor_divide", "bool"): (0, 1, 2),
    ("fmod", "bool"): (0, 1, 2),
    ("gcd", "bool"): (0, 1, 2),
    ("gradient", "bool"): (0, 1, 2),
    ("histc", "bool"): (0, 1, 2),
    ("histogram", "float16"): (0, 2),
    ("histogramdd", "bool"): (0, 2),
    ("igamma", "bool"): (0, 1, 2),
    ("index_reduce.amax", "bool"): (0, 1, 2),
    ("index_reduce.amax", "complex64"): (0, 1, 2),
    ("index_reduce.mean", "bool"): (0, 1, 2),
    ("index_reduce.prod", "complex128"): (0, 1, 2),
    ("inner", "bool"): (0,),
    ("isin", "bool"): (0, 1),
    ("isin", "complex64"): (0, 1),
    ("isneginf", "complex64"): (0,),
    ("kthvalue", "bool"): (0, 1, 2),
    ("lerp", "bool"): (0, 1, 2),
    ("linalg.cholesky_ex", "float16"): (0, 1),
    ("linalg.householder_product", "bool"): (0, 1, 2),
    ("linalg.lu", "bool"): (0, 1, 2),
    ("linalg.matrix_power", "bool"): (1, 2),
    ("linalg.norm.subgradients_at_zero", "bool"): (0, 1, 2),
    ("linalg.tensorsolve", "bool"): (0, 1, 2),
    ("linalg.vector_norm", "bool"): (0, 1, 2),
    ("log_softmax", "bool"): (0, 1, 2),
    ("logcumsumexp", "bool"): (0, 1, 2),
    ("matmul", "bool"): (0, 1, 2),
    ("max.reduction_no_dim", "complex64"): (0, 1),
    ("mean", "bool"): (0, 1, 2),
    ("min.reduction_no_dim", "complex64"): (0, 1),
    ("mm", "bool"): (0,),
    ("multinomial", "bool"): (0, 1, 2),
    ("mvlgamma.mvlgamma_p_3", "complex64"): (0, 1, 2),
    ("nanmedian", "bool"): (0, 1, 2),
    ("native_batch_norm", "bool"): (0, 1, 2),
    ("native_group_norm", "int32"): (0, 1, 2),
    ("native_layer_norm", "bool"): (0, 1, 2),
    ("nn.functional.adaptive_avg_pool1d", "bool"): (1, 2),
    ("nn.functional.adaptive_max_pool1d", "bool"): (0, 1, 2),
    ("nn.functional.alpha_dropout", "bool"): (2,),
    ("nn.functional.alpha_dropout", "uint8"): (2,),
    ("nn.functional.avg_pool3d", "bool"): (0, 1, 2),
    ("nn.functional.bilinear", "bool"): (0, 2),
    ("nn.functional.celu", "bool"): (0, 1, 2),
    ("nn.functional.conv1d", "bool"): (0, 1, 2),
    ("nn.functional.conv2d", "int16"): (2,),
    ("nn.functional.conv3d", "bool"): (0, 1, 2),
    ("nn.functional.conv_transpose1d", "uint8"): (0, 1, 2),
    ("nn.functional.conv_transpose2d", "int8"): (0, 1, 2),
    ("nn.functional.conv_transpose3d", "bool"): (0, 1, 2),
    ("nn.functional.cross_entropy", "bool"): (0, 1, 2),
    ("nn.functional.dropout2d", "bool"): (2,),
    ("nn.functional.embedding_bag", "uint8"): (0, 1, 2),
    ("nn.functional.feature_alpha_dropout.with_train", "bool"): (1,),
    ("nn.functional.fractional_max_pool2d", "complex64"): (0, 1, 2),
    ("nn.functional.gelu", "bool"): (0, 1, 2),
    ("nn.functional.group_norm", "bool"): (0, 1, 2),
    ("nn.functional.hardswish", "bool"): (0, 1, 2),
    ("nn.functional.instance_norm", "bool"): (0, 1, 2),
    ("nn.functional.interpolate.bilinear", "bool"): (0, 1, 2),
    ("nn.functional.interpolate.nearest-exact", "bool"): (0, 1, 2),
    ("nn.functional.layer_norm", "bool"): (0, 1, 2),
    ("nn.functional.local_response_norm", "bool"): (0, 1, 2),
    ("nn.functional.margin_ranking_loss", "bool"): (0, 1, 2),
    ("nn.functional.max_pool1d", "bool"): (0, 1, 2),
    ("nn.functional.max_unpool1d", "uint8"): (0, 1, 2),
    ("nn.functional.max_unpool2d.grad", "uint8"): (0, 1, 2),
    ("nn.functional.mish", "bool"): (0, 1, 2),
    ("nn.functional.multi_margin_loss", "bfloat16"): (0, 1, 2),
    ("nn.functional.multilabel_soft_margin_loss", "bool"): (0, 1, 2),
    ("nn.functional.one_hot", "bool"): (0, 1, 2),
    ("nn.functional.pad.reflect", "bool"): (0, 1, 2),
    ("nn.functional.pad.replicate", "bool"): (0, 1, 2),
    ("nn.functional.pad.replicate_negative", "bool"): (0, 1, 2),
    ("nn.functional.prelu", "complex64"): (0, 1, 2),
    ("nn.functional.rms_norm", "bool"): (0, 1, 2),
    ("nn.functional.rrelu", "float16"): (0, 1, 2),
    ("nn.functional.scaled_dot_product_attention", "bool"): (0, 1, 2),
    ("nn.functional.scaled_dot_product_attention", "complex64"): (0, 1, 2),
    ("nn.functional.silu", "bool"): (0, 1, 2),
    ("nn.functional.soft_margin_loss", "bool"): (0, 1, 2),
    ("nn.functional.softplus", "bool"): (0, 1, 2),
    ("nn.functional.tanhshrink", "bool"): (0, 1, 2),
    ("nn.functional.triplet_margin_with_distance_loss", "bool"): (0, 1, 2),
    ("nn.functional.unfold", "uint8"): (0, 1, 2),
    ("norm", "bool"): (0, 1, 2),
    ("norm.nuc", "bool"): (0, 1),
    ("normal", "complex64"): (0, 1, 2),
    ("normal.in_place", "bool"): (0, 1),
    ("polar", "float16"): (0, 1, 2),
    ("polygamma.polygamma_n_2", "complex64"): (0, 1, 2),
    ("positive", "bool"): (0,),
    ("rad2deg", "complex64"): (0,),
    ("randn", "bool"): (0, 1),
    ("renorm", "bool"): (0, 1, 2),
    ("round.decimals_3", "bool"): (0, 1, 2),
    ("scatter_reduce.amax", "complex64"): (0, 1, 2),
    ("sign", "complex64"): (0,),
    ("signal.windows.cosine", "bool"): (0, 1, 2),
    ("signal.windows.general_cosine", "bool"): (0, 1, 2),
    ("signal.windows.hann", "bool"): (0, 1, 2),
    ("signbit", "complex64"): (0,),
    ("special.airy_ai", "float16"): (0, 1, 2),
    ("special.bessel_y0", "float16"): (0, 1, 2),
    ("special.chebyshev_polynomial_u", "float16"): (0, 1, 2),
    ("special.entr", "complex64"): (0, 1),
    ("special.hermite_polynomial_he", "float16"): (0, 1, 2),
    ("special.i1e", "complex64"): (0, 1),
    ("special.log_ndtr", "float16"): (0, 1, 2),
    ("special.modified_bessel_k0", "float16"): (0, 1, 2),
    ("special.ndtri", "float16"): (0, 1, 2),
    ("special.scaled_modified_bessel_k1", "float16"): (0, 1, 2),
    ("special.shifted_chebyshev_polynomial_v", "float16"): (0, 1, 2),
    ("special.xlog1py", "complex64"): (0, 1, 2),
    ("std.unbiased", "bool"): (0, 1, 2),
    ("stft", "bfloat16"): (0, 1, 2),
    ("stft", "float16"): (0, 1, 2),
    ("sub", "bool"): (0, 1, 2),
    ("trace", "bool"): (0, 1, 2),
    ("tril_indices", "bool"): (0, 1, 2),
    ("uniform", "bool"): (0, 1, 2),
    ("unravel_index", "bool"): (0, 1, 2),
    ("var_mean", "bool"): (0, 1, 2),
    ("view_as_real", "bool"): (0, 1),
}


_DB = {}


def _sweep():
    """tests/opinfo_errors.py (the sweep's helpers) and {op label: OpInfo}, loaded once."""
    torch_or_skip()
    if not _DB:
        import opinfo_errors
        _DB["sweep"] = opinfo_errors
        _DB["ops"] = {opinfo_errors.op_label(op): op for op in opinfo_errors.import_db("op_db")}
    return _DB["sweep"], _DB["ops"]


def _assert_same(sweep, fn_t, fn_m, sample, what):
    t_out = sweep.outcome(fn_t, sample)
    m_out = sweep.outcome(fn_m, sample, convert_args=True)
    assert t_out[0] == "raise", f"{what}: torch no longer raises"
    assert m_out[0] == "raise", f"{what}: minigrad computes {m_out[1]!r} where torch raises {t_out[1]}"
    assert m_out[1] == t_out[1], what


@pytest.mark.parametrize("label", sorted(ERROR_CASES))
def test_error_inputs_match_torch(label):
    sweep, ops = _sweep()
    op = ops[label]
    fn_m = sweep.resolve(op.op)
    assert fn_m is not None
    cases = sweep.error_cases(op)
    for i in ERROR_CASES[label]:
        _assert_same(sweep, op.op, fn_m, cases[i].sample_input, f"{label} error input #{i}")


@pytest.mark.parametrize("label,dtype", sorted(DTYPE_CASES))
def test_unsupported_dtypes_match_torch(label, dtype):
    torch = torch_or_skip()
    sweep, ops = _sweep()
    op = ops[label]
    assert dtype not in {str(d).removeprefix("torch.") for d in op.dtypes}
    torch.manual_seed(0)
    samples = []
    for s in op.sample_inputs("cpu", getattr(torch, dtype)):
        samples.append(s)
        if len(samples) >= sweep.SAMPLES_PER_DTYPE:
            break
    for i in DTYPE_CASES[label, dtype]:
        _assert_same(sweep, op.op, sweep.resolve(op.op), samples[i], f"{label}[{dtype}] sample #{i}")


# ---- one focused test per fix: the same expression run with torch and with minigrad ----

def _run(lib, expr: str):
    """('raise', type name, message) or ('ok', shapes/dtypes/values) of ``expr`` with ``torch`` bound to lib."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = eval(expr, {"torch": lib, "F": lib.nn.functional})
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        return ("raise", type(e).__name__, str(e))
    results = result if isinstance(result, tuple) else (result,)
    from torch_testing_db import to_numpy
    return ("ok",) + tuple((tuple(r.shape), str(r.dtype), to_numpy(r).tolist()) if hasattr(r, "shape") else r
                           for r in results)


def _check(exprs):
    torch = torch_or_skip()
    for expr in exprs:
        theirs, mine = _run(torch, expr), _run(minigrad, expr)
        assert mine == theirs, expr


def test_stft_half_precision_refused_by_mkl():
    # (minigrad's DFTI path planned a half-precision buffer as double precision: memory corruption)
    _check(["torch.stft(torch.arange(20.).half(), 8, return_complex=True)",
            "torch.stft(torch.arange(20.).bfloat16(), 8, return_complex=False)",
            "torch.stft(torch.arange(20.).half(), 8, window=torch.ones(8).half(), return_complex=True)"])


def test_bitwise_of_two_numbers_refused():
    _check([f"torch.{f}({a}, {b})" for f in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift",
                                             "bitwise_right_shift")
            for a, b in (("2", "3"), ("2", "torch.tensor(3)"), ("torch.tensor(2)", "3"))])


def test_out_aliasing_an_input_refused():
    prelude = "(lambda x, i, m: "
    _check([prelude + body + ")(torch.tensor([1., 5, 3, 2, 4]), torch.zeros(5, dtype=torch.long), "
            "torch.ones(5, dtype=torch.bool))"
            for body in ("torch.cat([x], out=x)", "torch.cat([x, x], out=x)", "torch.gather(x, 0, i, out=x)",
                         "torch.take(x, i, out=x)", "torch.index_select(x, 0, i, out=x)",
                         "torch.masked_select(x, m, out=x)", "torch.take_along_dim(x, i, out=x)",
                         "torch.kthvalue(x, 2, out=(x, i))", "torch.gather(x, 0, i, out=i)",
                         "torch.index_select(x, 0, i, out=i)", "torch.add(x, x, out=x)")])


def test_gather_out_dtype():
    _check(["torch.gather(torch.ones(2, 2), 1, torch.zeros(2, 2, dtype=torch.long), out=torch.empty(2, 2, "
            "dtype=torch.float64))",
            "torch.take_along_dim(torch.ones(2, 2), torch.zeros(2, 2, dtype=torch.long), 1, out=torch.empty(2, 2, "
            "dtype=torch.float64))"])


def test_narrow_tensor_start():
    _check(["torch.ones(4, 5).narrow(1, torch.tensor([1, 2]), 2)",
            "torch.ones(4, 5).narrow(1, torch.tensor(True), 2)", "torch.ones(4, 5).narrow(1, torch.tensor(1.), 2)",
            "torch.ones(4, 5).narrow(1, torch.tensor(1), 2)"])


def test_narrow_copy_own_checks():
    _check([f"torch.narrow_copy(torch.ones(10, 5, 20), {a})"
            for a in ("3, 0, 0", "-4, 0, 0", "0, 11, 0", "0, -11, 1", "0, -2, 3", "0, 0, -1", "0, 5, 6", "0, -2, 2")]
           + ["torch.narrow_copy(torch.tensor(1.), 0, 0, 0)"])


def test_empty_permuted_layout_checks():
    _check([f"torch.empty_permuted({a}).stride()" for a in ("(3,), (0,)", "(2, 3), (0, 0)", "(2, 3), (0, 5)",
                                                            "(2, 3), (-1, 0)", "(2,), (1,)", "(2, 3, 4), (2, 0, 1)",
                                                            "(2, 3), (3, 3)")])


def test_roll_without_shifts():
    _check(["torch.roll(torch.ones(5), ())", "torch.roll(torch.ones(5), (), 0)", "torch.roll(torch.ones(5), [], ())",
            "torch.roll(torch.tensor(1.), ())", "torch.roll(torch.ones(5), (1, 2), ())"])


def test_view_copy_sizes():
    _check(["torch.view_copy(torch.ones(2), ())", "torch.view_copy(torch.ones(1), ())",
            "torch.view_copy(torch.ones(2), [])", "torch.view_copy(torch.ones(6), 6)",
            "torch.view_copy(torch.ones(6), (3, -1))", "torch.view_copy(torch.ones(6), torch.int32)"])


def test_sum_to_size_not_expandable():
    _check([f"torch.ones({a}).sum_to_size({b})" for a, b in (("10, 5, 10", "10, 10"), ("10, 5, 10", "3, 5, 10"),
                                                             ("2, 3", "1, 2, 3"), ("2, 1", "2, 3"), ("2, 3", "()"),
                                                             ("2, 3", "3"), ("10, 5, 10", "5, 1"))])


def test_conv_bias_type_names():
    _check([f"F.conv1d(torch.ones(1, 1, 4, dtype=torch.float64), torch.ones(1, 1, 2, dtype=torch.float64), "
            f"torch.ones(1, dtype=torch.{dt}))"
            for dt in ("complex64", "complex128", "int16", "int8", "uint8", "bool")])


def test_index_reduce_kernel_dtypes():
    x = "torch.zeros(3, dtype=torch.{0}).index_reduce(0, torch.tensor({1}), torch.ones({2}, dtype=torch.{0}), '{3}'{4})"
    _check([x.format(dt, idx, n, red, kw) for dt in ("bool", "complex64") for red in ("prod", "amax", "mean")
            for idx, n in (("[0]", 1), ("[0, 1]", 1)) for kw in ("", ", include_self=False")]
           + ["torch.zeros(3, dtype=torch.bool).index_reduce(0, torch.tensor([0]), torch.ones(1), 'prod')"])


def test_native_group_norm_checks():
    _check([f"torch.native_group_norm(torch.ones(2, 4, 3, dtype=torch.{dt}), {w}, None, 2, 4, 3, {g}, 1e-5)"
            for dt, w, g in (("int64", "None", 2), ("bool", "None", 2), ("complex64", "None", 2), ("int64", "None", 3),
                             ("float32", "None", 0), ("float32", "torch.ones(4, dtype=torch.float64)", 2),
                             ("float32", "torch.ones(3)", 2), ("float32", "None", 2))])


def test_isin_unsupported_types():
    _check(["torch.isin(torch.ones(3, dtype=torch.bool), torch.ones(2, dtype=torch.bool))",
            "torch.isin(torch.ones(3), True)", "torch.isin(True, torch.ones(3))", "torch.isin(torch.ones(3), 1j)",
            "torch.isin(torch.ones(3, dtype=torch.complex64), torch.ones(2))", "torch.isin(torch.ones(3), 2)"])


def test_addcmul_bool():
    b = "torch.ones(3, dtype=torch.bool)"
    _check([f"torch.addcmul({b}, {b}, {b})", f"torch.addcmul({b}, {b}, {b}, value=True)", f"{b}.addcmul_({b}, {b})",
            f"torch.addcmul({b}, {b}, torch.ones(3, dtype=torch.int8))"])


def test_polar_half():
    _check(["torch.polar(torch.ones(3).half(), torch.ones(3).half())",
            "torch.polar(torch.ones(3).half(), torch.ones(2).half())", "torch.polar(torch.ones(3), torch.ones(3))"])


def test_kernel_dtypes_of_nn_functions():
    _check(["F.prelu(torch.ones(3, dtype=torch.complex64), torch.ones(1, dtype=torch.complex64))",
            "F.prelu(torch.ones(3).half(), torch.ones(1).half())",
            "F.multi_margin_loss(torch.ones(2, 3).half(), torch.tensor([0, 1]))",
            "F.multi_margin_loss(torch.ones(2, 3).bfloat16(), torch.tensor([0, 1]))",
            "F.rrelu(-torch.ones(3).half(), training=True)", "F.rrelu(-torch.ones(3).half())",
            "torch.histogram(torch.ones(3).half())", "torch.histogram(torch.ones(3).bfloat16())",
            "torch.histogramdd(torch.ones(3, 2).half(), bins=2)",
            "F.fractional_max_pool2d(torch.ones(1, 3, 4, 4, dtype=torch.complex64), 2, output_size=2)",
            "F.fractional_max_pool3d(torch.ones(1, 3, 4, 4, 4, dtype=torch.complex128), 2, output_size=2)",
            "F.scaled_dot_product_attention(*[torch.ones(2, 3, dtype=torch.complex64)] * 3)",
            "F.scaled_dot_product_attention(*[torch.ones(2, 3, dtype=torch.complex64)] * 3, dropout_p=0.5)"])


def test_pad_modes_bool():
    _check([f"F.pad(torch.ones({shape}, dtype=torch.bool), {pad}, mode='{mode}')"
            for shape, pad in (("1, 4", "(1, 1)"), ("1, 2, 4", "(1, 1, 1, 1)"), ("1, 1, 2, 4", "(1, 1, 1, 1, 1, 1)"),
                               ("5, 3, 4, 5", "(-1, -1, -1, -1)"), ("1, 4", "(4, 1)"))
            for mode in ("reflect", "replicate", "circular")])


def test_normal_complex_std():
    c = "torch.ones(3, dtype=torch.complex64)"
    _check([f"torch.normal({c}, {c})", f"torch.normal(0.0, {c})", f"torch.normal(0.0, -{c})",
            "torch.normal(torch.ones(3), torch.ones(2, dtype=torch.complex64))"])


def test_conv_integer_and_bool_kernels():
    def conv(k, dt, extra="", transposed=False, kernel=2):
        name = f"conv_transpose{k}d" if transposed else f"conv{k}d"
        size = ", ".join(["5"] * k)
        ksize = ", ".join([str(kernel)] * k)
        return (f"F.{name}(torch.ones(1, 1, {size}, dtype=torch.{dt}), torch.ones(1, 1, {ksize}, dtype=torch.{dt})"
                f"{extra})")
    exprs = []
    for k in (1, 2, 3):
        for dt in ("bool", "int8", "int32", "int64"):
            exprs += [conv(k, dt), conv(k, dt, ", dilation=2"), conv(k, dt, transposed=True),
                      conv(k, dt, ", stride=2"), conv(k, dt, kernel=1), conv(k, dt, ", padding=1", kernel=1)]
    _check(exprs + ["F.conv2d(torch.ones(1, 2, 5, 5, dtype=torch.int16), torch.ones(2, 1, 2, 2, dtype=torch.int16), "
                    "groups=2, dilation=(1, 2))",
                    "F.conv2d(torch.ones(1, 1, 5, 5, dtype=torch.bool), torch.ones(1, 1, 2, 2, dtype=torch.bool), "
                    "padding='same')"])


def test_bool_differences_refused_first():
    b = "torch.ones(5, dtype=torch.bool)"
    _check([f"torch.gradient({b})", f"torch.gradient({b}, edge_order=2)",
            f"torch.gradient({b}, spacing=(torch.arange(5.),))", "torch.gradient(torch.ones(5, dtype=torch.int32))",
            f"F.margin_ranking_loss({b}, {b}, {b})",
            "F.margin_ranking_loss(torch.ones(5), torch.zeros(5), -torch.ones(5))"])


def test_type_names_without_python_class():
    # (bool and complex tensors have no legacy Python class: PyTorch names their C++ type, CPUBoolType)
    _check(["torch.stft(torch.ones(10, dtype=torch.bool), 4, return_complex=True, center=False)",
            "torch.stft(torch.ones(10, dtype=torch.int32), 4, return_complex=True, center=False)",
            "torch.stft(torch.ones(10), 4, window=torch.ones(3), return_complex=True)",
            "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2, dtype=torch.complex64), torch.tensor([0]))",
            "F.embedding_bag(torch.tensor([0, 1]), torch.ones(3, 2, dtype=torch.int32), torch.tensor([0]))",
            "F.embedding(torch.tensor([True]), torch.ones(3, 2))",
            "F.embedding(torch.tensor([1.]), torch.ones(3, 2))",
            "torch.median(torch.ones(3), 0, out=(torch.ones(()), torch.ones((), dtype=torch.bool)))"])


def test_view_as_complex_dtypes():
    _check([f"torch.view_as_complex(torch.ones(3, 2, dtype=torch.{dt}))"
            for dt in ("bool", "int32", "bfloat16", "float32", "float64")])


def test_histogram_kernels():
    # (a number of bins: histogramdd's kernel, float and double only; given edges: their dtype check, then
    # histogram_cpu's kernel, which takes half precision too)
    _check(["torch.histogram(torch.ones(3, dtype=torch.int32), torch.tensor([0, 1], dtype=torch.int32))",
            "torch.histogram(torch.ones(3, dtype=torch.bool), torch.tensor([0., 1.]))",
            "torch.histogram(torch.ones(3, dtype=torch.bool), 3)",
            "torch.histogramdd(torch.ones(3, 2, dtype=torch.int32), [torch.tensor([0, 1], dtype=torch.int32)] * 2)",
            "torch.histogram(torch.tensor([0.25, 1., 0.5]).half(), torch.tensor([0., 0.5, 1.]).half())",
            "torch.histogram(torch.tensor([0.25, 1., 0.5]).bfloat16(), torch.tensor([0., 0.5, 1.]).bfloat16())",
            "torch.histogram(torch.ones(3).half(), 3)", "torch.histogram(torch.ones(3).half(), torch.tensor([0., 1.]))",
            "torch.histogram(torch.tensor([0.25, 1., 0.5]), torch.tensor([0., 0.5, 1.]))"])
