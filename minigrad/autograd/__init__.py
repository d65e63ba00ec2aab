"""minigrad.autograd: backward(), grad(), grad modes, Function, and the graph tools (like torch.autograd)."""
from __future__ import annotations

from collections.abc import Sequence

from . import graph, grad_mode
from .engine import run_backward
from .grad_mode import enable_grad, inference_mode, no_grad, set_grad_enabled
from .graph import Node

__all__ = ["Variable", "Function", "backward", "grad", "grad_mode", "no_grad", "enable_grad",
           "set_grad_enabled", "inference_mode", "graph", "Node"]


def _tensor_tuple(x) -> tuple:
    from .._tensor import Tensor
    if isinstance(x, Tensor):
        return (x,)
    if x is None:
        return ()
    return tuple(x)


def _make_grads(outputs: tuple, grads: tuple) -> list:
    """Fill in implicit output gradients (ones for scalars) and check shapes, as PyTorch does."""
    from .._tensor import Tensor
    from .._creation import ones_like
    out = []
    for i, (o, g) in enumerate(zip(outputs, grads)):
        if g is None:
            if o._requires_grad:
                if o._data.size != 1:
                    raise RuntimeError("grad can be implicitly created only for scalar outputs")
                if not o.dtype.is_floating_point:
                    raise RuntimeError("grad can be implicitly created only for real scalar outputs but got "
                                       f"{o.dtype!r}")
                g = ones_like(o)
            out.append(g)
            continue
        if not isinstance(g, Tensor):
            raise TypeError(f"gradients can be either Tensors or None, but got {type(g).__name__}")
        if g._data.shape != o._data.shape:
            raise RuntimeError(f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] "
                               f"has a shape of {o.shape}.")
        if g.dtype.is_complex != o.dtype.is_complex:
            raise RuntimeError(f"For complex Tensors, both grad_output and output are required to have the same "
                               f"dtype. Mismatch in dtype: grad_output[{i}] has a dtype of {g.dtype!r} and "
                               f"output[{i}] has a dtype of {o.dtype!r}.")
        out.append(g)
    return out


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph=False, grad_variables=None,
             inputs=None) -> None:
    """Accumulate the gradients of ``tensors`` (weighted by ``grad_tensors``) into the leaves' ``.grad``."""
    if grad_variables is not None:
        grad_tensors = grad_variables
    tensors = _tensor_tuple(tensors)
    if inputs is not None:
        inputs = _tensor_tuple(inputs)
        if len(inputs) == 0:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    grads = _tensor_tuple(grad_tensors) if grad_tensors is not None else (None,) * len(tensors)
    if len(grads) != len(tensors):
        raise RuntimeError(f"got {len(grads)} tensors and {len(tensors)} gradients")
    grads = _make_grads(tensors, grads)
    if retain_graph is None:
        retain_graph = create_graph
    for i, t in enumerate(tensors):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    run_backward(tensors, grads, retain_graph, create_graph, inputs=inputs, accumulate=True)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph=False, only_inputs=True,
         allow_unused=None, is_grads_batched=False, materialize_grads=False):
    """Return d(outputs)/d(inputs) (weighted by ``grad_outputs``) without touching ``.grad``."""
    from .._tensor import Tensor
    if materialize_grads and allow_unused is False:
        raise ValueError("Expected allow_unused to be True or not passed when materialize_grads=True, "
                         "but got: allow_unused=False.")
    if allow_unused is None:
        allow_unused = materialize_grads
    single_input = isinstance(inputs, Tensor)
    outputs = _tensor_tuple(outputs)
    inputs = _tensor_tuple(inputs)
    grads = _tensor_tuple(grad_outputs) if grad_outputs is not None else (None,) * len(outputs)
    if len(grads) != len(outputs):
        raise RuntimeError(f"grad requires one grad_output per output: got {len(grads)} grad_outputs and "
                           f"{len(outputs)} outputs")
    grads = _make_grads(outputs, grads)
    if retain_graph is None:
        retain_graph = create_graph
    for i, t in enumerate(outputs):
        if not t._requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
    if is_grads_batched:
        raise NotImplementedError("is_grads_batched=True is not supported by minigrad")
    result = run_backward(outputs, grads, retain_graph, create_graph, inputs=inputs, accumulate=False,
                          allow_unused=allow_unused, materialize_grads=materialize_grads)
    return result


from .function import Function, once_differentiable  # noqa: E402
from .variable import Variable  # noqa: E402
