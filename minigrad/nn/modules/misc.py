"""The dropout layers, Flatten and Unflatten."""
from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class _DropoutNd(Module):
    """What the dropout modules share (PyTorch's _DropoutNd): p, inplace, their checks and repr."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        super().__init__()
        if p < 0 or p > 1:
            raise ValueError(f"dropout probability has to be between 0 and 1, but got {p}")
        self.p = p
        self.inplace = inplace

    def extra_repr(self) -> str:
        return f"p={self.p}, inplace={self.inplace}"


class Dropout(_DropoutNd):
    """During training, zero elements with probability p and scale the rest by 1/(1-p)."""

    _torch_name = "torch.nn.modules.dropout.Dropout"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout(input, self.p, self.training, self.inplace)


class Dropout2d(_DropoutNd):
    """During training, zero whole channels with probability p and scale the rest by 1/(1-p)."""

    _torch_name = "torch.nn.modules.dropout.Dropout2d"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout2d(input, self.p, self.training, self.inplace)


class Flatten(Module):
    """Merge dims start_dim..end_dim (by default all but the batch dim)."""

    _torch_name = "torch.nn.modules.flatten.Flatten"   # type(obj) prints PyTorch's module path

    def __init__(self, start_dim: int = 1, end_dim: int = -1) -> None:
        super().__init__()
        self.start_dim = start_dim
        self.end_dim = end_dim

    def forward(self, input: Tensor) -> Tensor:
        return input.flatten(self.start_dim, self.end_dim)

    def extra_repr(self) -> str:
        return f"start_dim={self.start_dim}, end_dim={self.end_dim}"


class Dropout1d(_DropoutNd):
    """During training, zero whole channels of (N, C, L) inputs with probability p, scaling the rest by 1/(1-p)."""

    _torch_name = "torch.nn.modules.dropout.Dropout1d"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout1d(input, self.p, self.training, self.inplace)


class Dropout3d(_DropoutNd):
    """During training, zero whole channels of (N, C, D, H, W) inputs with probability p."""

    _torch_name = "torch.nn.modules.dropout.Dropout3d"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.dropout3d(input, self.p, self.training, self.inplace)


class AlphaDropout(_DropoutNd):
    """Dropout for SELU networks: keeps the mean and variance of the input (identity in eval mode)."""

    _torch_name = "torch.nn.modules.dropout.AlphaDropout"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.alpha_dropout(input, self.p, self.training)


class FeatureAlphaDropout(_DropoutNd):
    """Alpha dropout of whole channels."""

    _torch_name = "torch.nn.modules.dropout.FeatureAlphaDropout"   # type(obj) prints PyTorch's module path

    def forward(self, input: Tensor) -> Tensor:
        return F.feature_alpha_dropout(input, self.p, self.training)


class Unflatten(Module):
    """Split dim ``dim`` into the shape ``unflattened_size`` (Flatten's inverse)."""

    _torch_name = "torch.nn.modules.flatten.Unflatten"   # type(obj) prints PyTorch's module path

    def __init__(self, dim: int | str, unflattened_size) -> None:
        super().__init__()
        self._require_tuple_int(unflattened_size)
        self.dim = dim
        self.unflattened_size = unflattened_size

    def _require_tuple_int(self, input) -> None:
        """PyTorch's check of ``unflattened_size``: a tuple or list of Python ints (checked one by one)."""
        if isinstance(input, (tuple, list)):
            for idx, elem in enumerate(input):
                if not isinstance(elem, int):
                    raise TypeError("unflattened_size must be tuple of ints, but found element of type "
                                    f"{type(elem).__name__} at pos {idx}")
            return
        raise TypeError(f"unflattened_size must be a tuple of ints, but found type {type(input).__name__}")

    def forward(self, input: Tensor) -> Tensor:
        return input.unflatten(self.dim, self.unflattened_size)

    def extra_repr(self) -> str:
        return f"dim={self.dim}, unflattened_size={self.unflattened_size}"


class Upsample(Module):
    """Resize the spatial dims to ``size`` or by ``scale_factor`` (F.interpolate: "nearest", "linear", "bilinear")."""

    _torch_name = "torch.nn.modules.upsampling.Upsample"   # type(obj) prints PyTorch's module path

    def __init__(self, size=None, scale_factor=None, mode: str = "nearest", align_corners=None,
                 recompute_scale_factor=None) -> None:
        super().__init__()
        self.name = type(self).__name__
        self.size = size
        if isinstance(scale_factor, tuple):
            self.scale_factor = tuple(float(factor) for factor in scale_factor)
        else:
            self.scale_factor = float(scale_factor) if scale_factor else None
        self.mode = mode
        self.align_corners = align_corners
        self.recompute_scale_factor = recompute_scale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.interpolate(input, self.size, self.scale_factor, self.mode, self.align_corners,
                             recompute_scale_factor=self.recompute_scale_factor)

    def extra_repr(self) -> str:
        if self.scale_factor is not None:
            info = f"scale_factor={self.scale_factor!r}"
        else:
            info = f"size={self.size!r}"
        return info + f", mode={self.mode!r}"


class UpsamplingNearest2d(Upsample):
    """2-D nearest-neighbour upsampling of (N, C, H, W): Upsample with mode="nearest"."""

    _torch_name = "torch.nn.modules.upsampling.UpsamplingNearest2d"

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="nearest")


class UpsamplingBilinear2d(Upsample):
    """2-D bilinear upsampling of (N, C, H, W) with the corner pixels aligned (align_corners=True)."""

    _torch_name = "torch.nn.modules.upsampling.UpsamplingBilinear2d"

    def __init__(self, size=None, scale_factor=None) -> None:
        super().__init__(size, scale_factor, mode="bilinear", align_corners=True)
