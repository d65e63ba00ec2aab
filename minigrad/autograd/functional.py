"""Higher-level derivatives of a whole function: jacobian, hessian, vjp, jvp, hvp, vhp.

Each takes ``func`` and its ``inputs`` (a tensor or a tuple of tensors) and mirrors the structure of
``torch.autograd.functional``: results are tuples exactly where inputs/outputs were tuples.

- ``vjp(f, x, v)``  = vᵀ·J      (one backward pass)
- ``jvp(f, x, v)``  = J·v       (the "double backward trick": differentiate vᵀJ w.r.t. v)
- ``jacobian(f, x)``: one backward pass per output element, ``J[i][j]`` of shape out_i.shape + in_j.shape
- ``hessian(f, x)`` = jacobian of the jacobian;  ``vhp`` = vᵀ·H,  ``hvp`` = H·v

``create_graph=True`` keeps the results differentiable; ``strict=True`` raises when an output does not
depend on an input instead of returning zeros. ``vectorize=True`` makes one ``grad`` call with batched
grad_outputs (``is_grads_batched``, which minigrad runs as one backward pass per row).
"""
from __future__ import annotations

from . import forward_ad as fwAD
from . import grad_mode

__all__ = ["vjp", "jvp", "jacobian", "hessian", "hvp", "vhp"]


def _tensor_cls():
    from .._tensor import Tensor
    return Tensor


def _zeros_like(t, requires_grad: bool = False):
    from .._creation import zeros_like
    return zeros_like(t, requires_grad=requires_grad)


def _stack(tensors):
    from .. import _ops
    return _ops.stack(tensors, 0)


def _as_tuple(inp, arg_name=None, fn_name=None):
    """``(was_tuple, tuple_of_tensors)``, with PyTorch's TypeError for anything else."""
    if arg_name is None and fn_name is None:
        return inp if isinstance(inp, tuple) else tuple(inp) if isinstance(inp, list) else (inp,)
    is_tuple = True
    if not isinstance(inp, tuple):
        inp = (inp,)
        is_tuple = False
    for i, el in enumerate(inp):
        if not isinstance(el, _tensor_cls()):
            where = f"value at index {i} has" if is_tuple else f"given {arg_name} has"
            raise TypeError(f"The {arg_name} given to {fn_name} must be either a Tensor or a tuple of Tensors but "
                            f"the {where} type {type(el)}.")
    return is_tuple, inp


def _tuple_postprocess(res, to_unpack):
    """Undo ``_as_tuple``: unwrap the levels that were single tensors for the user."""
    if isinstance(to_unpack, tuple):
        if not to_unpack[1]:
            res = tuple(el[0] for el in res)
        if not to_unpack[0]:
            res = res[0]
    elif not to_unpack:
        res = res[0]
    return res


def _grad_preprocess(inputs, create_graph: bool, need_graph: bool) -> tuple:
    # With create_graph, a view keeps the link to the user's tensors; otherwise fresh leaves.
    return tuple(inp.view_as(inp) if create_graph and inp.requires_grad else inp.detach().requires_grad_(need_graph)
                 for inp in inputs)


def _grad_postprocess(inputs, create_graph: bool):
    if isinstance(inputs[0], _tensor_cls()):
        return inputs if create_graph else tuple(inp.detach() for inp in inputs)
    return tuple(_grad_postprocess(inp, create_graph) for inp in inputs)


def _validate_v(v, other, is_other_tuple: bool) -> None:
    if len(other) != len(v):
        if is_other_tuple:
            raise RuntimeError(f"v is a tuple of invalid length: should be {len(other)} but got {len(v)}.")
        raise RuntimeError("The given v should contain a single Tensor.")
    for idx, (el_v, el_other) in enumerate(zip(v, other)):
        if el_v.size() != el_other.size():
            prepend = f"Entry {idx} in " if is_other_tuple else ""
            raise RuntimeError(f"{prepend}v has invalid size: should be {el_other.size()} but got {el_v.size()}.")


def _check_requires_grad(inputs, input_type: str, strict: bool) -> None:
    if not strict:
        return
    for i, inp in enumerate(inputs):
        if inp is None:
            raise RuntimeError(f"The output of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode.")
        if not inp.requires_grad:
            if input_type == "hessian":
                raise RuntimeError(f"The hessian of the user-provided function with respect to input {i} is "
                                   "independent of the input. This is not allowed in strict mode. You should ensure "
                                   "that your function is thrice differentiable and that the hessian depends on the "
                                   "inputs.")
            if input_type == "jacobian":
                raise RuntimeError("While computing the hessian, found that the jacobian of the user-provided "
                                   f"function with respect to input {i} is independent of the input. This is not "
                                   "allowed in strict mode. You should ensure that your function is twice "
                                   "differentiable and that the jacobian depends on the inputs (this would be "
                                   "violated by a linear function for example).")
            if input_type == "grad_inputs":
                raise RuntimeError(f"The gradient with respect to input {i} is independent of the inputs of the "
                                   "user-provided function. This is not allowed in strict mode.")
            raise RuntimeError(f"Output {i} of the user-provided function does not require gradients. The outputs "
                               "must be computed in a differentiable manner from the input when running in strict "
                               "mode.")


def _autograd_grad(outputs, inputs, grad_outputs=None, create_graph: bool = False, retain_graph=None,
                   is_grads_batched: bool = False) -> tuple:
    """``autograd.grad`` that skips outputs not requiring grad (None for every input if none does)."""
    from . import grad
    if grad_outputs is None:
        grad_outputs = (None,) * len(outputs)
    new_outputs, new_grads = [], []
    for out, g in zip(outputs, grad_outputs):
        if out is not None and out.requires_grad:
            new_outputs.append(out)
            new_grads.append(g)
    if not new_outputs:
        return (None,) * len(inputs)
    return grad(new_outputs, inputs, new_grads, allow_unused=True, create_graph=create_graph,
                retain_graph=retain_graph, is_grads_batched=is_grads_batched)


_STRICT_MESSAGES = {
    "back": "The output of the user-provided function is independent of input {i}. This is not allowed in strict "
            "mode.",
    "back_trick": "The gradient with respect to the input is independent of entry {i} in the grad_outputs when "
                  "using the double backward trick to compute forward mode gradients. This is not allowed in strict "
                  "mode.",
    "double_back": "The jacobian of the user-provided function is independent of input {i}. This is not allowed in "
                   "strict mode.",
    "double_back_trick": "The hessian of the user-provided function is independent of entry {i} in the "
                         "grad_jacobian. This is not allowed in strict mode as it prevents from using the double "
                         "backward trick to replace forward mode AD.",
}


def _fill_in_zeros(grads, refs, strict: bool, create_graph: bool, stage: str) -> tuple:
    """Replace None gradients by zeros (or raise in strict mode)."""
    res = []
    for i, g in enumerate(grads):
        if g is None:
            if strict:
                raise RuntimeError(_STRICT_MESSAGES[stage].format(i=i))
            g = _zeros_like(refs[i])
        elif strict and create_graph and not g.requires_grad:
            what = "hessian" if "double" in stage else "jacobian"
            raise RuntimeError(f"The {what} of the user-provided function is independent of input {i}. This is not "
                               "allowed in strict mode when create_graph=True.")
        res.append(g)
    return tuple(res)


def _prepare_v(v, against, is_tuple: bool, create_graph: bool, fn_name: str, none_message: str):
    if v is not None:
        _, v = _as_tuple(v, "v", fn_name)
        v = _grad_preprocess(v, create_graph=create_graph, need_graph=False)
        _validate_v(v, against, is_tuple)
    elif len(against) != 1 or against[0].nelement() != 1:
        raise RuntimeError(none_message)
    return v


_V_NONE_INPUT = ("The vector v can only be None if the input to the user-provided function is a single Tensor "
                 "with a single element.")


# ---- the public functions ---------------------------------------------------------------------------

def _returned(outputs, result, create_graph: bool, is_outputs_tuple: bool, is_result_tuple: bool) -> tuple:
    """The ``(outputs, result)`` pair: detached unless ``create_graph``, each a tuple only where given one."""
    return (_tuple_postprocess(_grad_postprocess(outputs, create_graph), is_outputs_tuple),
            _tuple_postprocess(_grad_postprocess(result, create_graph), is_result_tuple))


def vjp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), vᵀ·J)``: the vector-Jacobian product at ``inputs``."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "vjp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "vjp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        v = _prepare_v(v, outputs, is_outputs_tuple, create_graph, "vjp",
                       "The vector v can only be None if the user-provided function returns a single Tensor with a "
                       "single element.")
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(outputs, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "back")
    return _returned(outputs, result, create_graph, is_outputs_tuple, is_inputs_tuple)


def jvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), J·v)``: the Jacobian-vector product, by the double-backward trick (as PyTorch)."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jvp")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, "jvp", _V_NONE_INPUT)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jvp")
        _check_requires_grad(outputs, "outputs", strict=strict)
        # g ↦ gᵀJ is linear in g, so differentiating it w.r.t. g in direction v gives J·v.
        grad_outputs = tuple(_zeros_like(out, requires_grad=True) for out in outputs)
        grad_inputs = _autograd_grad(outputs, inputs, grad_outputs, create_graph=True)
        _check_requires_grad(grad_inputs, "grad_inputs", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(grad_inputs, grad_outputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, outputs, strict, create_graph, "back_trick")
    return _returned(outputs, result, create_graph, is_outputs_tuple, is_outputs_tuple)


def jacobian(func, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
             strategy: str = "reverse-mode"):
    """``J[i][j] = d out_i / d in_j`` with shape ``out_i.shape + in_j.shape`` (tuples as in PyTorch)."""
    if strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode". Hint: If your '
                             'function has more outputs than inputs, "forward-mode" tends to be more performant. '
                             'Otherwise, prefer to use "reverse-mode".')
    if strategy == "forward-mode":
        if create_graph:
            raise NotImplementedError('torch.autograd.functional.jacobian: `create_graph=True` and '
                                      '`strategy="forward-mode"` are not supported together (yet). Please either '
                                      'set `create_graph=False` or `strategy="reverse-mode"`.')
        return _jacfwd(func, inputs, strict, vectorize)
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", "jacobian")
        _check_requires_grad(outputs, "outputs", strict=strict)
        if vectorize and strict:
            raise RuntimeError("torch.autograd.functional.jacobian: `strict=True` and `vectorized=True` are not "
                               "supported together. Please either set `strict=False` or `vectorize=False`.")
        if vectorize and sum(o.nelement() for o in outputs) == 0 and any(o.requires_grad for o in outputs):
            # PyTorch's one batched grad call takes the basis' first row, and an empty basis has none.
            raise IndexError("index 0 is out of bounds for dimension 0 with size 0")
        if vectorize:
            return _tuple_postprocess(_vectorized_jacobian(inputs, outputs, create_graph),
                                      (is_outputs_tuple, is_inputs_tuple))
        jacobian = []
        for i, out in enumerate(outputs):
            rows = [[] for _ in inputs]  # rows[j][k] = d out.flat[k] / d inputs[j]
            flat = out.reshape(-1)
            for k in range(out.nelement()):
                vj = _autograd_grad((flat[k],), inputs, retain_graph=True, create_graph=create_graph)
                for j, (g, inp) in enumerate(zip(vj, inputs)):
                    if g is not None:
                        if strict and create_graph and not g.requires_grad:
                            raise RuntimeError(f"The jacobian of the user-provided function is independent of "
                                               f"input {i}. This is not allowed in strict mode when "
                                               "create_graph=True.")
                        rows[j].append(g)
                    else:
                        if strict:
                            raise RuntimeError(f"Output {i} of the user-provided function is independent of input "
                                               f"{j}. This is not allowed in strict mode.")
                        rows[j].append(_zeros_like(inp))
            # An output with no elements leaves r empty: stack raises, as in PyTorch, unless vectorized
            # (where PyTorch splits one batched result, and that output's block is simply empty).
            jacobian.append(tuple(_stack(r).view(out.size() + inputs[j].size()) if r or not vectorize
                                  else inputs[j].new_zeros(out.size() + inputs[j].size())
                                  for j, r in enumerate(rows)))
        jacobian = _grad_postprocess(tuple(jacobian), create_graph)
        return _tuple_postprocess(jacobian, (is_outputs_tuple, is_inputs_tuple))


def _vectorized_jacobian(inputs, outputs, create_graph: bool):
    """PyTorch's vectorized reverse-mode Jacobian: one ``grad`` of all the flattened outputs with batched
    grad_outputs (``is_grads_batched``, PyTorch's legacy vmap: what it refuses in a backward raises its errors), the
    rows of the one-hot basis over their concatenated elements. Every output's backward runs for every row, the
    others' with zero grad_outputs, so their zeros (signed: ``0 * -2.`` is ``-0.``) add up as in PyTorch; complex
    outputs work (the basis is complex, no implicit scalar grad is needed)."""
    import numpy as np

    from .._tensor import Tensor
    numels = [out.nelement() for out in outputs]
    total = sum(numels)
    flat_outputs = tuple(out.reshape(-1) for out in outputs)
    grad_outputs, start = [], 0
    for out, n in zip(flat_outputs, numels):   # (this output's columns of the total x total identity)
        basis = np.zeros((total, n), dtype=out._data.dtype)
        basis[start + np.arange(n), np.arange(n)] = 1
        grad_outputs.append(Tensor._make(basis))
        start += n
    vj = _autograd_grad(flat_outputs, inputs, tuple(grad_outputs), create_graph=create_graph, is_grads_batched=True)
    jacobian_per_input = []
    for g, inp in zip(vj, inputs):
        full = g if g is not None else _zeros_like(inp).expand((total,) + tuple(inp.shape))
        jacobian_per_input.append([block.view(out.size() + inp.size())
                                   for block, out in zip(full.split(numels, dim=0), outputs)])
    return _grad_postprocess(tuple(zip(*jacobian_per_input)), create_graph)


def _jacfwd(func, inputs, strict: bool, vectorize: bool):
    """Jacobian by forward mode: one dual pass per input element (PyTorch requires vectorize=True)."""
    import numpy as np

    from .. import _vmap_batched
    from .._tensor import Tensor
    from ..func._vmap import first_row_only_shows
    if strict:
        raise RuntimeError('torch.autograd.functional.jacobian: `strict=True` and `strategy="forward-mode"` are not '
                           'supported together (yet). Please either set `strict=False` or '
                           '`strategy="reverse-mode"`.')
    if not vectorize:
        raise NotImplementedError("Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
                                  "only implemented for `vectorize=True`.")
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "jacobian")
    columns = None  # columns[i][j]: list over input-j elements of d out_i / d in_j[k]
    # PyTorch batches the basis with its legacy vmap: the tangents are marked batched at such a level, so what
    # that vmap refuses (.item() of a tangent in a custom jvp, ...) raises its errors
    _vmap_batched.enter(sum(inp.numel() for inp in inputs), None, [], legacy=True)
    row = 0   # (PyTorch's one call: the first row's prints and warnings show)
    no_tangent = {}   # output index -> the zeros standing for its tangent in every row (one tensor: see _stack_rows)
    try:
        for j, inp in enumerate(inputs):
            for k in range(inp.numel()):
                basis = np.zeros(inp._data.shape, dtype=inp._data.dtype)
                basis.reshape(-1)[k] = 1
                with fwAD.dual_level():
                    tangents = [Tensor._make(basis) if m == j else _zeros_like(x) for m, x in enumerate(inputs)]
                    for t in tangents:
                        _vmap_batched.mark_slice(t)
                    duals = tuple(fwAD.make_dual(x, t) for x, t in zip(inputs, tangents))
                    with first_row_only_shows(row):
                        out = _call_without_randomness(func, duals)
                    row += 1
                    is_outputs_tuple, outs = _as_tuple(out, "outputs")
                    tangents = []
                    for i, o in enumerate(outs):
                        primal, tangent = fwAD.unpack_dual(o)
                        if tangent is None:   # (PyTorch's zeros_like of the unbatched primal: its vmap expands it)
                            tangent = no_tangent.get(i)
                            if tangent is None:
                                tangent = no_tangent[i] = _zeros_like(primal)
                        tangents.append(tangent)
                    primals = [fwAD.unpack_dual(o).primal.detach() for o in outs]
                if columns is None:
                    columns = [[[] for _ in inputs] for _ in outs]
                for i, t in enumerate(tangents):
                    columns[i][j].append(t)
    finally:
        _vmap_batched.exit_()
    if columns is None:  # no input has an element: one pass for the outputs (PyTorch's vmap over no rows)
        with fwAD.dual_level():
            is_outputs_tuple, outs = _as_tuple(func(*inputs), "outputs")
            primals = [o.detach() for o in outs]
        columns = [[[] for _ in inputs] for _ in outs]
    # Lists, not tuples, where PyTorch's vectorized forward-mode path returns lists.
    result = [_jacobian_blocks(columns[i], primals[i], inputs) for i in range(len(columns))]
    return _tuple_postprocess(result, (is_outputs_tuple, is_inputs_tuple))


def _call_without_randomness(func, args: tuple):
    """``func(*args)``; PyTorch runs it under its (legacy) vmap, which refuses random ops (before drawing)."""
    from .._random import default_generator
    start = default_generator.get_state()
    out = func(*args)
    if default_generator.get_state()._data.tobytes() != start._data.tobytes():
        default_generator.set_state(start)
        raise RuntimeError("vmap: We do not yet support calling random operations inside of vmap. Please perform "
                           "random operations outside of vmap as a workaround")
    return out


def _jacobian_blocks(columns: list, primal, inputs: tuple) -> list:
    """An output's forward-mode Jacobian blocks, one per input, from its tangents (``columns[j]``: one per element
    of input j).

    PyTorch's vmap of the jvp gives one batch of tangents for all the inputs' elements (batch dim in front, each
    tangent in its own layout: autograd._stack_rows), split per input, each block's batch dim moved last and
    reshaped: a view of the batch where it can be (a transposed output's block is strided ``(1, 3, 18, 6)``), else
    a C-order copy. Tangents with a history (inputs that require grad, forward-over-reverse hessian) keep it: the
    result ends in ReshapeAliasBackward0 (or ViewBackward0 where the block is contiguous anyway), PermuteBackward0,
    SplitWithSizesBackward0, as PyTorch's (then StackBackward0, where PyTorch's has the batched ops).
    """
    from . import _stack_rows
    shapes = [tuple(primal.shape) + tuple(x.shape) for x in inputs]
    tangents = [t for column in columns for t in column]
    if not tangents:
        return [primal.new_zeros(shape) for shape in shapes]
    blocks = _stack_rows(tangents).split([len(column) for column in columns])
    return [block.permute(*range(1, block.dim()), 0).reshape(shape) for block, shape in zip(blocks, shapes)]


def hessian(func, inputs, create_graph: bool = False, strict: bool = False, vectorize: bool = False,
            outer_jacobian_strategy: str = "reverse-mode"):
    """Second derivatives of a scalar function: ``H[i][j] = d² f / d in_i d in_j``."""
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")
    if outer_jacobian_strategy not in ("forward-mode", "reverse-mode"):
        raise AssertionError('Expected strategy to be either "forward-mode" or "reverse-mode".')

    def ensure_single_output_function(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        _check_requires_grad(t_out, "outputs", strict=strict)
        if is_out_tuple or not isinstance(out, _tensor_cls()):
            raise RuntimeError("The function given to hessian should return a single Tensor")
        if out.nelement() != 1:
            raise RuntimeError("The Tensor returned by the function given to hessian should contain a single element")
        return out.squeeze()

    def jac_func(*inp):
        if outer_jacobian_strategy == "forward-mode":  # dual inputs: make them part of the inner graph
            inp = tuple(t.requires_grad_(True) for t in inp)
        jac = jacobian(ensure_single_output_function, inp, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
        return jac

    res = jacobian(jac_func, inputs, create_graph=create_graph, strict=strict, vectorize=vectorize,
                   strategy=outer_jacobian_strategy)
    return _tuple_postprocess(res, (is_inputs_tuple, is_inputs_tuple))


def _scalar_output(func, inputs, strict: bool, name: str):
    outputs = func(*inputs)
    is_outputs_tuple, outputs = _as_tuple(outputs, "outputs of the user-provided function", name)
    _check_requires_grad(outputs, "outputs", strict=strict)
    if is_outputs_tuple or not isinstance(outputs[0], _tensor_cls()):
        raise RuntimeError(f"The function given to {name} should return a single Tensor")
    if outputs[0].nelement() != 1:
        raise RuntimeError(f"The Tensor returned by the function given to {name} should contain a single element")
    return is_outputs_tuple, outputs


def _gradient_with_graph(func, inputs, v, create_graph: bool, strict: bool, name: str):
    """vhp/hvp's first half: prepare inputs and v, then the gradient of the scalar func, kept differentiable."""
    with grad_mode.enable_grad():
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", name)
        inputs = _grad_preprocess(inputs, create_graph=create_graph, need_graph=True)
        v = _prepare_v(v, inputs, is_inputs_tuple, create_graph, name, _V_NONE_INPUT)
        is_outputs_tuple, outputs = _scalar_output(func, inputs, strict, name)
        jac = _autograd_grad(outputs, inputs, create_graph=True)
        _check_requires_grad(jac, "jacobian", strict=strict)
    return is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac


def vhp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), vᵀ·H)`` for a scalar function."""
    is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _gradient_with_graph(
        func, inputs, v, create_graph, strict, "vhp")
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(jac, inputs, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back")
    return _returned(outputs, result, create_graph, is_outputs_tuple, is_inputs_tuple)


def hvp(func, inputs, v=None, create_graph: bool = False, strict: bool = False):
    """``(func(inputs), H·v)`` for a scalar function (double-backward trick, as PyTorch)."""
    is_inputs_tuple, inputs, v, is_outputs_tuple, outputs, jac = _gradient_with_graph(
        func, inputs, v, create_graph, strict, "hvp")
    with grad_mode.enable_grad():
        grad_jac = tuple(_zeros_like(inp, requires_grad=True) for inp in inputs)
        double_back = _autograd_grad(jac, inputs, grad_jac, create_graph=True)
        _check_requires_grad(jac, "hessian", strict=strict)
    with grad_mode.set_grad_enabled(True if create_graph else grad_mode.is_grad_enabled()):
        grad_res = _autograd_grad(double_back, grad_jac, v, create_graph=create_graph)
        result = _fill_in_zeros(grad_res, inputs, strict, create_graph, "double_back_trick")
    return _returned(outputs, result, create_graph, is_outputs_tuple, is_inputs_tuple)
