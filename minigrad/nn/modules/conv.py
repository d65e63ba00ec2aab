"""Conv1d/2d/3d, ConvTranspose1d/2d/3d and their lazy forms: learnable kernels slid over the input (_ConvNd)."""
from __future__ import annotations

import math

from ... import _creation
from ..._tensor import Tensor
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .lazy import LazyModuleMixin
from .module import Module


def _ntuple(value, n: int) -> tuple:
    """An int as n copies, a sequence as a tuple (PyTorch's _single / _pair: a str too, letter by letter)."""
    return tuple(value) if isinstance(value, (tuple, list, str)) else (value,) * n


class _ConvNd(Module):
    """What Conv1d and Conv2d share: the parameters, their initialisation and the repr."""

    _k = 0   # number of spatial dims

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, dilation=1,
                 groups: int = 1, bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None,
                 transposed: bool = False, output_padding=0) -> None:
        super().__init__()
        k = self._k
        kernel_size, stride, dilation = _ntuple(kernel_size, k), _ntuple(stride, k), _ntuple(dilation, k)
        padding = padding if isinstance(padding, str) else _ntuple(padding, k)
        if groups <= 0:
            raise ValueError("groups must be a positive integer")
        if in_channels % groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        if out_channels % groups != 0:
            raise ValueError("out_channels must be divisible by groups")
        valid_padding_strings = {"same", "valid"}   # (printed as a set, in Python's set order, as PyTorch does)
        if isinstance(padding, str):
            if padding not in valid_padding_strings:
                raise ValueError(f"Invalid padding string {padding!r}, should be one of {valid_padding_strings}")
            if padding == "same" and any(s != 1 for s in stride):
                raise ValueError("padding='same' is not supported for strided convolutions")
        valid_padding_modes = {"zeros", "reflect", "replicate", "circular"}
        if padding_mode not in valid_padding_modes:
            raise ValueError(f"padding_mode must be one of {valid_padding_modes}, but got "
                             f"padding_mode='{padding_mode}'")
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.kernel_size = kernel_size
        self.stride = stride
        self.padding = padding
        self.dilation = dilation
        self.transposed = transposed
        self.output_padding = _ntuple(output_padding, k)
        self.groups = groups
        self.padding_mode = padding_mode
        # F.pad's amounts (last dim first) for the non-zero padding modes, as PyTorch keeps them
        if isinstance(padding, str):
            self._reversed_padding_repeated_twice = [0, 0] * k
            if padding == "same":
                for d, m, i in zip(dilation, kernel_size, range(k - 1, -1, -1)):
                    total = d * (m - 1)
                    self._reversed_padding_repeated_twice[2 * i] = total // 2
                    self._reversed_padding_repeated_twice[2 * i + 1] = total - total // 2
        else:
            self._reversed_padding_repeated_twice = tuple(p for p in reversed(padding) for _ in range(2))
        # a transposed convolution's weight is the transpose of the convolution it reverses: (C_in, C_out/groups, ...)
        channels = (in_channels, out_channels // groups) if transposed else (out_channels, in_channels // groups)
        self.weight = Parameter(_creation.empty(*channels, *kernel_size, dtype=dtype))
        if bias:
            self.bias = Parameter(_creation.empty(out_channels, dtype=dtype))
        else:
            self.register_parameter("bias", None)
        self.reset_parameters()

    def reset_parameters(self) -> None:
        """Kaiming-uniform weight (a=√5, i.e. U(±1/√fan_in)) and bias U(±1/√fan_in), fan_in = C_in/groups·Πkernel."""
        init.kaiming_uniform_(self.weight, a=math.sqrt(5))
        if self.bias is not None:
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in) if fan_in > 0 else 0
            init.uniform_(self.bias, -bound, bound)

    def _conv_forward(self, input: Tensor, weight: Tensor, bias: Tensor | None) -> Tensor:
        conv = (F.conv1d, F.conv2d, F.conv3d)[self._k - 1]
        if self.padding_mode != "zeros":   # pad first, then convolve without padding
            return conv(F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode), weight, bias,
                        self.stride, (0,) * self._k, self.dilation, self.groups)
        return conv(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)

    def forward(self, input: Tensor) -> Tensor:
        return self._conv_forward(input, self.weight, self.bias)

    def extra_repr(self) -> str:
        s = "{in_channels}, {out_channels}, kernel_size={kernel_size}, stride={stride}"
        if self.padding != (0,) * len(self.padding):
            s += ", padding={padding}"
        if self.dilation != (1,) * len(self.dilation):
            s += ", dilation={dilation}"
        if self.output_padding != (0,) * len(self.output_padding):
            s += ", output_padding={output_padding}"
        if self.groups != 1:
            s += ", groups={groups}"
        if self.bias is None:
            s += ", bias=False"
        if self.padding_mode != "zeros":
            s += ", padding_mode={padding_mode}"
        return s.format(**self.__dict__)


class Conv1d(_ConvNd):
    """1-d convolution over (N, C_in, L): weight (C_out, C_in/groups, k), bias (C_out,)."""

    _k = 1


class Conv2d(_ConvNd):
    """2-d convolution over (N, C_in, H, W): weight (C_out, C_in/groups, kH, kW), bias (C_out,)."""

    _k = 2


class Conv3d(_ConvNd):
    """3-d convolution over (N, C_in, D, H, W): weight (C_out, C_in/groups, kD, kH, kW), bias (C_out,)."""

    _k = 3


class _ConvTransposeNd(_ConvNd):
    """What ConvTranspose1d and ConvTranspose2d share: zero padding only, and ``output_size`` in forward."""

    def __init__(self, in_channels: int, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0,
                 groups: int = 1, bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None,
                 dtype=None) -> None:
        if padding_mode != "zeros":
            raise ValueError(f'Only "zeros" padding mode is supported for {self.__class__.__name__}')
        k = self._k
        super().__init__(in_channels, out_channels, _ntuple(kernel_size, k), _ntuple(stride, k), _ntuple(padding, k),
                         _ntuple(dilation, k), groups, bias, padding_mode, device, dtype, transposed=True,
                         output_padding=output_padding)

    def _output_padding(self, input: Tensor, output_size, stride, padding, kernel_size, num_spatial_dims: int,
                        dilation=None) -> list:
        """The output_padding that makes the output ``output_size`` (one of the ``stride`` sizes that fit)."""
        if output_size is None:
            return list(self.output_padding)
        non_spatial = 2 if input.dim() == num_spatial_dims + 2 else 1
        if len(output_size) == non_spatial + num_spatial_dims:
            output_size = output_size[non_spatial:]
        if len(output_size) != num_spatial_dims:
            raise ValueError(f"ConvTranspose{num_spatial_dims}D: for {input.dim()}D input, output_size must have "
                             f"{num_spatial_dims} or {non_spatial + num_spatial_dims} elements "
                             f"(got {len(output_size)})")
        min_sizes = [(input.size(d + non_spatial) - 1) * stride[d] - 2 * padding[d]
                     + (dilation[d] if dilation is not None else 1) * (kernel_size[d] - 1) + 1
                     for d in range(num_spatial_dims)]
        max_sizes = [m + s - 1 for m, s in zip(min_sizes, stride)]
        for size, low, high in zip(output_size, min_sizes, max_sizes):
            if size < low or size > high:
                raise ValueError(f"requested an output size of {output_size}, but valid sizes range from {min_sizes} "
                                 f"to {max_sizes} (for an input of {input.size()[2:]})")
        return [size - low for size, low in zip(output_size, min_sizes)]

    def forward(self, input: Tensor, output_size=None) -> Tensor:
        output_padding = self._output_padding(input, output_size, self.stride, self.padding, self.kernel_size,
                                              self._k, self.dilation)
        conv = (F.conv_transpose1d, F.conv_transpose2d, F.conv_transpose3d)[self._k - 1]
        return conv(input, self.weight, self.bias, self.stride, self.padding, output_padding, self.groups,
                    self.dilation)


class ConvTranspose1d(_ConvTransposeNd):
    """1-d transposed convolution over (N, C_in, L): weight (C_in, C_out/groups, k), bias (C_out,)."""

    _k = 1


class ConvTranspose2d(_ConvTransposeNd):
    """2-d transposed convolution over (N, C_in, H, W): weight (C_in, C_out/groups, kH, kW), bias (C_out,)."""

    _k = 2


class ConvTranspose3d(_ConvTransposeNd):
    """3-d transposed convolution over (N, C_in, D, H, W): weight (C_in, C_out/groups, kD, kH, kW)."""

    _k = 3


# ---- lazy convolutions: in_channels read off the first input (PyTorch's _LazyConvXdMixin) ---------------

class _LazyConvXdMixin(LazyModuleMixin):
    """A convolution whose in_channels comes from its first input; it then becomes its ``cls_to_become`` class."""

    def _lazy_init(self, out_channels: int, bias: bool, dtype) -> None:
        from ..parameter import UninitializedParameter
        self._register_lazy_hooks()
        self.weight = UninitializedParameter(_creation.empty(0, dtype=dtype))
        self.out_channels = out_channels
        if bias:
            self.bias = UninitializedParameter(_creation.empty(0, dtype=dtype))

    def reset_parameters(self) -> None:
        if not self.has_uninitialized_params() and self.in_channels != 0:
            super().reset_parameters()

    def initialize_parameters(self, input: Tensor) -> None:
        """Give the parameters their shapes from ``input`` and initialise them as the convolution does."""
        if not self.has_uninitialized_params():
            return
        k = self._k
        if input.dim() not in (k + 1, k + 2):
            raise RuntimeError(f"Expected {k + 1}D (unbatched) or {k + 2}D (batched) input to "
                               f"{type(self).__name__}, but got input of size: {input.shape}")
        self.in_channels = input.shape[1] if input.dim() == k + 2 else input.shape[0]
        if self.in_channels % self.groups != 0:
            raise ValueError("in_channels must be divisible by groups")
        from ...autograd.grad_mode import no_grad
        with no_grad():
            if self.transposed:
                self.weight.materialize((self.in_channels, self.out_channels // self.groups, *self.kernel_size))
            else:
                self.weight.materialize((self.out_channels, self.in_channels // self.groups, *self.kernel_size))
            if self.bias is not None:
                self.bias.materialize((self.out_channels,))
            self.reset_parameters()


def _lazy_conv(conv: type) -> type:
    """LazyConv{k}d for the convolution class ``conv``."""
    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, dilation=1, groups: int = 1,
                 bias: bool = True, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        conv.__init__(self, 0, 0, kernel_size, stride, padding, dilation, groups, False, padding_mode, device, dtype)
        self._lazy_init(out_channels, bias, dtype)
    return type(f"Lazy{conv.__name__}", (_LazyConvXdMixin, conv), {"__init__": __init__, "cls_to_become": conv,
                                                                  "__doc__": f"{conv.__name__}, in_channels lazy."})


def _lazy_conv_transpose(conv: type) -> type:
    """LazyConvTranspose{k}d for the transposed convolution class ``conv``."""
    def __init__(self, out_channels: int, kernel_size, stride=1, padding=0, output_padding=0, groups: int = 1,
                 bias: bool = True, dilation=1, padding_mode: str = "zeros", device=None, dtype=None) -> None:
        conv.__init__(self, 0, 0, kernel_size, stride, padding, output_padding, groups, False, dilation,
                      padding_mode, device, dtype)
        self._lazy_init(out_channels, bias, dtype)
    return type(f"Lazy{conv.__name__}", (_LazyConvXdMixin, conv), {"__init__": __init__, "cls_to_become": conv,
                                                                  "__doc__": f"{conv.__name__}, in_channels lazy."})


LazyConv1d, LazyConv2d, LazyConv3d = (_lazy_conv(c) for c in (Conv1d, Conv2d, Conv3d))
LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d = (
    _lazy_conv_transpose(c) for c in (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d))
