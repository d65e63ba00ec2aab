"""torch.nn.grad (also ``torch.nn.functional.grad``): the gradients of a convolution, without running it forward.

``conv2d_input(input_size, weight, grad_output)`` is d(conv2d(x, weight))/dx applied to ``grad_output`` (the
transposed convolution of grad_output with weight), ``conv2d_weight(input, weight_size, grad_output)`` the
correlation of input with grad_output: the two halves of the convolution's backward. As in PyTorch, they are the
outputs of one ``convolution_backward`` (its node, ConvolutionBackwardBackward0, when an argument requires grad);
the tensor whose gradient is asked for is a stand-in of the right shape that is never read.
"""
from __future__ import annotations

from .. import derivatives as _D

__all__ = ["conv1d_input", "conv1d_weight", "conv2d_input", "conv2d_weight", "conv3d_input", "conv3d_weight"]


def _expand(value, k: int) -> tuple:
    return (int(value),) * k if isinstance(value, int) else tuple(int(v) for v in value)


def _check_grad_output(grad_output, input_shape, weight_shape, stride, padding, dilation) -> None:
    """PyTorch's shape check of grad_output: weight.size(0) planes, then each spatial size of the convolution's
    output, floor((in + 2·pad - dil·(k-1) - 1) / stride) + 1 (a 1-d convolution runs as a 2-d one of height 1)."""
    k = len(weight_shape) - 2
    sizes = [(i + 2 * p - d * (w - 1) - 1) // s + 1
             for i, w, s, p, d in zip(input_shape[2:], weight_shape[2:], stride, padding, dilation)]
    ndim, dims = (4, [1, 3]) if k == 1 else (k + 2, list(range(1, k + 2)))
    for dim, actual, expected in zip(dims, grad_output.shape[1:], [weight_shape[0], *sizes]):
        if actual != expected:
            raise RuntimeError(f"Expected a tensor of dimension {ndim} and tensor.size[{dim}] == {expected} but got: "
                               f"dimension {ndim} and tensor.size[{dim}] = {actual}")


def _backward(grad_output, input, weight, k, stride, padding, dilation, groups, mask):
    stride, padding, dilation = _expand(stride, k), _expand(padding, k), _expand(dilation, k)
    _check_grad_output(grad_output, tuple(input.shape), tuple(weight.shape), stride, padding, dilation)
    return _D.convolution_backward(grad_output, input, weight, stride=stride, padding=padding, dilation=dilation,
                                   transposed=False, output_padding=(0,), groups=groups, output_mask=mask)


def _input_grad(input_size, weight, grad_output, k, stride, padding, dilation, groups):
    stand_in = grad_output.new_zeros(1).expand(tuple(input_size))
    return _backward(grad_output, stand_in, weight, k, stride, padding, dilation, groups, (True, False, False))[0]


def _weight_grad(input, weight_size, grad_output, k, stride, padding, dilation, groups):
    stand_in = grad_output.new_zeros(1).expand(tuple(weight_size))
    return _backward(grad_output, input, stand_in, k, stride, padding, dilation, groups, (False, True, False))[1]


def conv1d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to its input (of shape ``input_size``)."""
    return _input_grad(input_size, weight, grad_output, 1, stride, padding, dilation, groups)


def conv1d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv1d with respect to its weight (of shape ``weight_size``)."""
    return _weight_grad(input, weight_size, grad_output, 1, stride, padding, dilation, groups)


def conv2d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to its input (of shape ``input_size``)."""
    return _input_grad(input_size, weight, grad_output, 2, stride, padding, dilation, groups)


def conv2d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv2d with respect to its weight (of shape ``weight_size``)."""
    return _weight_grad(input, weight_size, grad_output, 2, stride, padding, dilation, groups)


def conv3d_input(input_size, weight, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to its input (of shape ``input_size``)."""
    return _input_grad(input_size, weight, grad_output, 3, stride, padding, dilation, groups)


def conv3d_weight(input, weight_size, grad_output, stride=1, padding=0, dilation=1, groups=1):
    """The gradient of conv3d with respect to its weight (of shape ``weight_size``)."""
    return _weight_grad(input, weight_size, grad_output, 3, stride, padding, dilation, groups)
