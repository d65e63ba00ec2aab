"""GroupNorm and InstanceNorm1d/2d/3d: per-sample normalizations (LayerNorm is in sparse_norm_distance.py)."""
from __future__ import annotations

import warnings

from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from ._functions import CrossMapLRN2d as _cross_map_lrn2d
from .batchnorm import _LazyNormBase, _NormBase
from .module import Module
from .sparse_norm_distance import LayerNorm  # noqa: F401  (torch.nn.modules.normalization has it)


class GroupNorm(Module):
    """Normalize each group of channels of each sample, then scale and shift per channel (ones and zeros)."""

    _torch_name = "torch.nn.modules.normalization.GroupNorm"   # type(obj) prints PyTorch's module path

    def __init__(self, num_groups: int, num_channels: int, eps: float = 1e-5, affine: bool = True,
                 device=None, dtype=None, *, bias: bool = True) -> None:
        super().__init__()
        from ... import _creation
        if num_channels % num_groups != 0:
            raise ValueError(f"num_channels ({num_channels}) must be divisible by num_groups ({num_groups})")
        self.num_groups = num_groups
        self.num_channels = num_channels
        self.eps = eps
        self.affine = affine
        if affine:
            self.weight = Parameter(_creation.empty(num_channels, dtype=dtype))
            if bias:
                self.bias = Parameter(_creation.empty(num_channels, dtype=dtype))
            else:
                self.register_parameter("bias", None)
        else:
            self.register_parameter("weight", None)
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Weight back to ones, bias to zeros."""
        if self.weight is not None:
            init.ones_(self.weight)
        if self.bias is not None:
            init.zeros_(self.bias)

    def forward(self, input: Tensor) -> Tensor:
        return F.group_norm(input, self.num_groups, self.weight, self.bias, self.eps)

    def extra_repr(self) -> str:
        return (f"{self.num_groups}, {self.num_channels}, eps={self.eps}, affine={self.affine}, "
                f"bias={self.bias is not None}")


class _InstanceNorm(_NormBase):
    """What InstanceNorm1d/2d/3d share: each channel of each sample normalized over its spatial dims."""

    _batched_dim = 3

    def __init__(self, num_features: int, eps: float = 1e-5, momentum: float = 0.1, affine: bool = False,
                 track_running_stats: bool = False, device=None, dtype=None, *, bias: bool = True) -> None:
        # PyTorch's defaults differ from batch norm's: no affine parameters and no running statistics.
        super().__init__(num_features, eps, momentum, affine, track_running_stats, device, dtype, bias=bias)

    def forward(self, input: Tensor) -> Tensor:
        expected = self._batched_dim
        if input.dim() not in (expected - 1, expected):
            raise ValueError(f"expected {expected - 1}D or {expected}D input (got {input.dim()}D input)")
        feature_dim = input.dim() - (expected - 1)
        if input.size(feature_dim) != self.num_features:
            if self.affine:
                raise ValueError(f"expected input's size at dim={feature_dim} to match num_features "
                                 f"({self.num_features}), but got: {input.size(feature_dim)}.")
            warnings.warn(f"input's size at dim={feature_dim} does not match num_features. You can silence this "
                          "warning by not passing in num_features, which is not used because affine=False",
                          stacklevel=2)
        unbatched = input.dim() == expected - 1
        x = input.unsqueeze(0) if unbatched else input
        # (momentum=None: PyTorch's instance norm passes 0.0, not a cumulative average as batch norm does)
        out = F.instance_norm(x, self.running_mean, self.running_var, self.weight, self.bias,
                              self.training or not self.track_running_stats,
                              self.momentum if self.momentum is not None else 0.0, self.eps)
        return out.squeeze(0) if unbatched else out


class InstanceNorm1d(_InstanceNorm):
    """Instance norm of (N, C, L) or (C, L) inputs."""

    _torch_name = "torch.nn.modules.instancenorm.InstanceNorm1d"   # type(obj) prints PyTorch's module path
    _batched_dim = 3


class InstanceNorm2d(_InstanceNorm):
    """Instance norm of (N, C, H, W) or (C, H, W) inputs."""

    _torch_name = "torch.nn.modules.instancenorm.InstanceNorm2d"   # type(obj) prints PyTorch's module path
    _batched_dim = 4


class InstanceNorm3d(_InstanceNorm):
    """Instance norm of (N, C, D, H, W) or (C, D, H, W) inputs."""

    _torch_name = "torch.nn.modules.instancenorm.InstanceNorm3d"   # type(obj) prints PyTorch's module path
    _batched_dim = 5


class LazyInstanceNorm1d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm1d with num_features read off the first input (affine and running statistics by default)."""

    _torch_name = "torch.nn.modules.instancenorm.LazyInstanceNorm1d"
    _batched_dim = 3
    cls_to_become = InstanceNorm1d


class LazyInstanceNorm2d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm2d with num_features read off the first input (affine and running statistics by default)."""

    _torch_name = "torch.nn.modules.instancenorm.LazyInstanceNorm2d"
    _batched_dim = 4
    cls_to_become = InstanceNorm2d


class LazyInstanceNorm3d(_LazyNormBase, _InstanceNorm):
    """InstanceNorm3d with num_features read off the first input (affine and running statistics by default)."""

    _torch_name = "torch.nn.modules.instancenorm.LazyInstanceNorm3d"
    _batched_dim = 5
    cls_to_become = InstanceNorm3d


class CrossMapLRN2d(Module):
    """Lua Torch's local response normalization across channels (autograd Function ``_functions.CrossMapLRN2d``)."""

    _torch_name = "torch.nn.modules.normalization.CrossMapLRN2d"   # type(obj) prints PyTorch's module path

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return _cross_map_lrn2d.apply(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return "{size}, alpha={alpha}, beta={beta}, k={k}".format(**self.__dict__)


class RMSNorm(Module):
    """Divide by the root mean square over the last dims ``normalized_shape``, then scale (learned, ones)."""

    _torch_name = "torch.nn.modules.normalization.RMSNorm"   # type(obj) prints PyTorch's module path

    def __init__(self, normalized_shape, eps: float | None = None, elementwise_affine: bool = True,
                 device=None, dtype=None) -> None:
        super().__init__()
        from ... import _creation
        self.normalized_shape = (normalized_shape,) if isinstance(normalized_shape, int) else tuple(normalized_shape)
        self.eps = eps
        self.elementwise_affine = elementwise_affine
        if elementwise_affine:
            self.weight = Parameter(_creation.empty(self.normalized_shape, dtype=dtype))
        else:
            self.register_parameter("weight", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """The weight back to ones."""
        if self.elementwise_affine:
            init.ones_(self.weight)

    def forward(self, x: Tensor) -> Tensor:
        return F.rms_norm(x, self.normalized_shape, self.weight, self.eps)

    def extra_repr(self) -> str:
        return f"{self.normalized_shape}, eps={self.eps}, elementwise_affine={self.elementwise_affine}"


class LocalResponseNorm(Module):
    """Each channel divided by (k + α·mean of x² over ``size`` neighbouring channels)^β."""

    def __init__(self, size: int, alpha: float = 1e-4, beta: float = 0.75, k: float = 1.0) -> None:
        super().__init__()
        self.size = size
        self.alpha = alpha
        self.beta = beta
        self.k = k

    def forward(self, input: Tensor) -> Tensor:
        return F.local_response_norm(input, self.size, self.alpha, self.beta, self.k)

    def extra_repr(self) -> str:
        return f"{self.size}, alpha={self.alpha}, beta={self.beta}, k={self.k}"
