"""PixelShuffle and PixelUnshuffle: trade channels for spatial resolution (sub-pixel convolution)."""
from __future__ import annotations

from ..._tensor import Tensor
from .. import functional as F
from .module import Module


class PixelShuffle(Module):
    """(*, C·r², H, W) → (*, C, H·r, W·r) with r = upscale_factor."""

    _torch_name = "torch.nn.modules.pixelshuffle.PixelShuffle"   # type(obj) prints PyTorch's module path

    def __init__(self, upscale_factor: int) -> None:
        super().__init__()
        self.upscale_factor = upscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_shuffle(input, self.upscale_factor)

    def extra_repr(self) -> str:
        return f"upscale_factor={self.upscale_factor}"


class PixelUnshuffle(Module):
    """(*, C, H·r, W·r) → (*, C·r², H, W) with r = downscale_factor: PixelShuffle's inverse."""

    _torch_name = "torch.nn.modules.pixelshuffle.PixelUnshuffle"   # type(obj) prints PyTorch's module path

    def __init__(self, downscale_factor: int) -> None:
        super().__init__()
        self.downscale_factor = downscale_factor

    def forward(self, input: Tensor) -> Tensor:
        return F.pixel_unshuffle(input, self.downscale_factor)

    def extra_repr(self) -> str:
        return f"downscale_factor={self.downscale_factor}"


class ChannelShuffle(Module):
    """Interleave ``groups`` blocks of channels: (N, g·k, *) → (N, k·g, *) (ShuffleNet)."""

    _torch_name = "torch.nn.modules.channelshuffle.ChannelShuffle"   # type(obj) prints PyTorch's module path

    def __init__(self, groups: int) -> None:
        super().__init__()
        self.groups = groups

    def forward(self, input: Tensor) -> Tensor:
        return F.channel_shuffle(input, self.groups)

    def extra_repr(self) -> str:
        return f"groups={self.groups}"
