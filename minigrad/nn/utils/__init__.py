"""torch.nn.utils: gradient clipping (``clip_grad``), parameters as one vector and back (``convert_parameters``),
re-exported here as PyTorch does.

The rest lives in submodules: ``rnn`` (padded and packed sequences), ``parametrize`` / ``parametrizations``
(weight_norm, spectral_norm, orthogonal as parametrizations), the old hook-based ``weight_norm`` /
``spectral_norm``, ``fusion`` (conv/linear + batch norm), ``init`` (skip_init), ``stateless``. ``prune`` is NOT
imported here: as in PyTorch, ``torch.nn.utils.prune`` exists only once a program imports it.
"""
__all__ = ["clip_grad_norm", "clip_grad_norm_", "clip_grads_with_norm_", "clip_grad_value_",
           "convert_conv2d_weight_memory_format", "convert_conv3d_weight_memory_format", "fuse_conv_bn_eval",
           "fuse_conv_bn_weights", "fuse_linear_bn_eval", "fuse_linear_bn_weights", "get_total_norm",
           "parameters_to_vector", "parametrizations", "parametrize", "remove_spectral_norm", "remove_weight_norm",
           "rnn", "skip_init", "spectral_norm", "stateless", "vector_to_parameters", "weight_norm"]   # (PyTorch's)

from . import clip_grad, fusion, parametrizations, parametrize, rnn, stateless  # noqa: E402,F401
from .clip_grad import (  # noqa: E402,F401
           _clip_grads_with_norm_ as clip_grads_with_norm_,
)
from .clip_grad import (
           _get_total_norm as get_total_norm,
)
from .clip_grad import (
           clip_grad_norm,
           clip_grad_norm_,
           clip_grad_value_,
)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: E402,F401
from .fusion import (  # noqa: E402,F401
           fuse_conv_bn_eval,
           fuse_conv_bn_weights,
           fuse_linear_bn_eval,
           fuse_linear_bn_weights,
)
from .init import skip_init  # noqa: E402,F401
from .memory_format import convert_conv2d_weight_memory_format, convert_conv3d_weight_memory_format  # noqa: E402,F401
from .spectral_norm import remove_spectral_norm, spectral_norm  # noqa: E402,F401  (the old, hook-based one)
from .weight_norm import remove_weight_norm, weight_norm  # noqa: E402,F401  (the old, hook-based one)
