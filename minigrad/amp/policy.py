"""Which ops autocast changes on the CPU, and how: PyTorch's ``KERNEL_CPU`` lists (aten/src/ATen/autocast_mode.cpp).

Keys are aten op names. An op not listed runs as it is (PyTorch's fallthrough). The front-end of a listed op
starts with ``if autocast_mode.ON[0]: return autocast_mode.run("<name>", <itself>, ...)`` (see ``run``).
"""
from __future__ import annotations

LOWER = "lower_precision_fp"  # floating inputs (not float64) cast to the autocast dtype (bfloat16 by default)
FP32 = "fp32"                 # floating inputs (not float64) cast to float32
PROMOTE = "promote"           # floating inputs cast to the widest of them (float32 beats the autocast dtype)

_LOWER_OPS = (
    "conv1d", "conv2d", "conv3d", "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm", "_addmm_activation", "addbmm",
    "linear", "_convolution", "matmul", "conv_tbc", "mkldnn_rnn_layer", "conv_transpose1d", "conv_transpose2d",
    "conv_transpose3d", "prelu", "scaled_dot_product_attention", "_native_multi_head_attention",
)
_FP32_OPS = (
    "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "quantile", "nanquantile", "stft",
    "cdist", "grid_sampler_2d", "_grid_sampler_2d_cpu_fallback", "grid_sampler_3d", "trace", "view_as_complex",
    "cholesky", "cholesky_inverse", "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr", "pinverse",
    "max_pool3d", "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d", "reflection_pad2d",
    "replication_pad1d", "replication_pad2d", "replication_pad3d", "mse_loss", "cosine_embedding_loss", "nll_loss",
    "nll_loss2d", "hinge_embedding_loss", "poisson_nll_loss", "smooth_l1_loss", "cross_entropy_loss", "l1_loss",
    "huber_loss", "margin_ranking_loss", "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss",
    "ctc_loss", "kl_div", "multilabel_margin_loss", "binary_cross_entropy_with_logits",
    "fft_fft", "fft_ifft", "fft_fft2", "fft_ifft2", "fft_fftn", "fft_ifftn", "fft_rfft", "fft_irfft", "fft_rfft2",
    "fft_irfft2", "fft_rfftn", "fft_irfftn", "fft_hfft", "fft_ihfft",
    "linalg_cond", "linalg_matrix_rank", "linalg_solve", "linalg_cholesky", "linalg_svdvals", "linalg_eigvals",
    "linalg_eigvalsh", "linalg_inv", "linalg_householder_product", "linalg_tensorinv", "linalg_tensorsolve",
    "fake_quantize_per_tensor_affine", "geqrf", "_lu_with_info", "qr", "svd", "triangular_solve",
    "fractional_max_pool2d", "fractional_max_pool3d", "adaptive_max_pool3d", "multilabel_margin_loss_forward",
    "linalg_qr", "linalg_cholesky_ex", "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq", "linalg_inv_ex",
)
_PROMOTE_OPS = ("stack", "cat", "index_copy")

CPU: dict[str, str] = {
    **dict.fromkeys(_LOWER_OPS, LOWER),
    **dict.fromkeys(_FP32_OPS, FP32),
    **dict.fromkeys(_PROMOTE_OPS, PROMOTE),
}
