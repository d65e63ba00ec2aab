"""gradcheck / gradgradcheck: compare a function's analytical Jacobian with central differences.

For every input ``x_j`` that requires grad and every output ``y_i``:

- numerical Jacobian: perturb each element of ``x_j`` by ±eps and take
  ``(f(x + eps) - f(x - eps)) / (2·eps)`` — one row per input element;
- analytical Jacobian: ``autograd.grad(y_i, x_j, e_k)`` for each unit vector ``e_k`` of ``y_i`` — one
  column per output element (with ``check_forward_ad=True``, also forward mode: one row per tangent);

and check ``allclose(analytical, numerical, rtol, atol)``. On failure the error shows both matrices,
rows indexed by input elements and columns by output elements, exactly as PyTorch prints them; the
raised ``GradcheckError`` also carries them (``.numerical``, ``.analytical``) and ``.mismatches``,
the (input element, output element) positions that differ.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian"]


class GradcheckError(RuntimeError):
    """Raised by gradcheck when a check fails (a RuntimeError, as in PyTorch)."""

    numerical = None
    analytical = None
    output_idx = None
    input_idx = None

    @property
    def mismatches(self) -> list:
        """``(input element, output element)`` positions where the two Jacobians differ."""
        if self.numerical is None:
            return []
        a, n = self.analytical._data, self.numerical._data
        bad = ~np.isclose(a, n, rtol=self._rtol, atol=self._atol)
        return [tuple(int(i) for i in ix) for ix in np.argwhere(bad)]


def _as_tuple(x) -> tuple:
    return x if isinstance(x, tuple) else tuple(x) if isinstance(x, list) else (x,)


def _is_tensor(x) -> bool:
    from .._tensor import Tensor
    return isinstance(x, Tensor)


def _diff_inputs(inputs) -> list:
    return [x for x in inputs if _is_tensor(x) and x.requires_grad]


def _differentiable_outputs(out) -> tuple:
    return tuple(o for o in _as_tuple(out) if o.requires_grad)


def _check_inputs(inputs) -> None:
    any_requires_grad = False
    for idx, inp in enumerate(inputs):
        if _is_tensor(inp) and inp.requires_grad:
            if inp.dtype.name not in ("float64", "complex128"):
                warnings.warn(f"Input #{idx} requires gradient and is not a double precision floating point or "
                              "complex. This check will likely fail if all the inputs are not of double precision "
                              "floating point or complex. ", stacklevel=3)
            if not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


# ---- the two Jacobians ----------------------------------------------------------------------------

def _numerical_jacobian(fn, inputs, outputs, eps: float) -> list:
    """``J[j][i]``: d output_i / d input_j by central differences, shape (input_j.numel(), output_i.numel())."""
    from .._tensor import Tensor
    jacobians = []
    for x in _diff_inputs(inputs):
        data = x._data  # perturbed in place, behind autograd's back (as PyTorch perturbs ``x.data``)
        cols = [np.zeros((data.size, o.numel()), dtype=o._data.dtype) for o in outputs]
        for k in range(data.size):
            idx = np.unravel_index(k, data.shape) if data.ndim else ()
            orig = data[idx].copy()
            data[idx] = orig - eps
            out_a = [o._data.copy() for o in _as_tuple(fn(*inputs))]
            data[idx] = orig + eps
            out_b = [o._data.copy() for o in _as_tuple(fn(*inputs))]
            data[idx] = orig
            for i, (a, b) in enumerate(zip(out_a, out_b)):
                cols[i][k] = ((b - a) / (2 * eps)).reshape(-1)
        jacobians.append([Tensor._make(c) for c in cols])
    return jacobians


def _analytical_jacobian(inputs, output) -> tuple[list, bool]:
    """``J[j]``: d output / d input_j by reverse mode, one ``autograd.grad`` per output element."""
    from .._tensor import Tensor
    from . import grad as autograd_grad
    diff = _diff_inputs(inputs)
    jac = [np.zeros((x.numel(), output.numel()), dtype=x._data.dtype) for x in diff]
    sizes_ok = True
    for k in range(output.numel()):
        grad_out = np.zeros(output._data.shape, dtype=output._data.dtype)
        grad_out.reshape(-1)[k] = 1
        grads = autograd_grad(output, diff, Tensor._make(grad_out), retain_graph=True, allow_unused=True)
        for j, g in enumerate(grads):
            if g is None:
                continue
            if g.shape != diff[j].shape:
                sizes_ok = False
                continue
            jac[j][:, k] = g._data.reshape(-1)
    return [Tensor._make(m) for m in jac], sizes_ok


def _forward_ad_jacobian(fn, inputs, n_outputs: int) -> list:
    """``J[i][j]`` by forward mode: one dual forward pass per input element."""
    from .._tensor import Tensor
    from . import forward_ad as fwAD
    diff_idx = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    jac = [[None] * len(diff_idx) for _ in range(n_outputs)]
    for j, pos in enumerate(diff_idx):
        x = inputs[pos]
        for k in range(x.numel()):
            tangent = np.zeros(x._data.shape, dtype=x._data.dtype)
            tangent.reshape(-1)[k] = 1
            with fwAD.dual_level():
                args = list(inputs)
                args[pos] = fwAD.make_dual(x.detach(), Tensor._make(tangent))
                outs = [o for o in _as_tuple(fn(*args))]
                tangents = [fwAD.unpack_dual(o).tangent for o in outs]
            for i, (o, t) in enumerate(zip(outs[:n_outputs], tangents)):
                if jac[i][j] is None:
                    jac[i][j] = np.zeros((x.numel(), o.numel()), dtype=o._data.dtype)
                if t is not None:
                    jac[i][j][k] = t._data.reshape(-1)
    return [[Tensor._make(m) for m in row] for row in jac]


def _allclose(a, b, rtol: float, atol: float) -> bool:
    return bool(np.allclose(a._data, b._data, rtol=rtol, atol=atol))


def _mismatch(analytical, numerical, i: int, j: int, rtol: float, atol: float, forward: bool = False):
    mode = "computed with forward mode " if forward else ""
    err = GradcheckError(f"Jacobian {mode}mismatch for output {i:d} with respect to input {j:d},\n"
                         f"numerical:{numerical}\nanalytical:{analytical}\n")
    err.numerical, err.analytical, err.output_idx, err.input_idx = numerical, analytical, i, j
    err._rtol, err._atol = rtol, atol
    return err


# ---- the checks --------------------------------------------------------------------------------------

def _slow_check(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad,
                check_forward_ad) -> None:
    func_out = _as_tuple(func_out)
    numerical = _numerical_jacobian(fn, inputs, func_out, eps)
    if not outputs:
        for per_input in numerical:
            for jac in per_input:
                if np.any(jac._data != 0):
                    raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    # numerical[j][i] -> per output i, per input j; keep only outputs that require grad
    per_output = [[numerical[j][i] for j in range(len(numerical))] for i, o in enumerate(func_out) if o.requires_grad]
    if check_forward_ad:
        forward = _forward_ad_jacobian(fn, inputs, len(func_out))
        forward = [row for row, o in zip(forward, func_out) if o.requires_grad]
        for i, row in enumerate(per_output):
            for j, n in enumerate(row):
                if not _allclose(forward[i][j], n, rtol, atol):
                    raise _mismatch(forward[i][j], n, i, j, rtol, atol, forward=True)
    if check_backward_ad:
        for i, o in enumerate(outputs):
            analytical, sizes_ok = _analytical_jacobian(inputs, o)
            again, _ = _analytical_jacobian(inputs, o)
            if not sizes_ok:
                raise GradcheckError("Analytical gradient has incorrect size")
            if not all(np.allclose(a._data, b._data, rtol=0, atol=nondet_tol) for a, b in zip(analytical, again)):
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                    "times gives different values, although analytical gradient matches numerical gradient."
                    f"The tolerance for nondeterminism was {nondet_tol}.")
            for j, (a, n) in enumerate(zip(analytical, per_output[i])):
                if not _allclose(a, n, rtol, atol):
                    raise _mismatch(a, n, i, j, rtol, atol)


def _fast_check(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad,
                check_forward_ad) -> None:
    """Compare ``vᵀ·J·u`` for random u, v (one number per input/output pair) instead of whole Jacobians."""
    func_out = _as_tuple(func_out)
    rng = np.random.default_rng(0)  # deterministic: the same u, v every run
    numerical = _numerical_jacobian(fn, inputs, func_out, eps)
    diff = _diff_inputs(inputs)
    us = [rng.uniform(-1, 1, x.numel()) for x in diff]
    vs = [rng.uniform(-1, 1, o.numel()) for o in func_out]
    if not outputs:
        return _slow_check(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad, False)
    for i, o in enumerate(func_out):
        if not o.requires_grad:
            continue
        analytical, _ = _analytical_jacobian(inputs, o) if check_backward_ad else (None, True)
        if analytical is None:
            continue
        for j, (a, n) in enumerate(zip(analytical, (numerical[j][i] for j in range(len(diff))))):
            a_s = float(us[j] @ a._data @ vs[i])
            n_s = float(us[j] @ n._data @ vs[i])
            if not np.isclose(a_s, n_s, rtol=rtol, atol=atol * float(np.abs(us[j]).sum() * np.abs(vs[i]).sum())):
                diffmax = float(np.max(np.abs(a._data - n._data)))
                err = GradcheckError(
                    f"Jacobian mismatch for output {i:d} with respect to input {j:d},\n"
                    f"numerical:{n_s!r}\nanalytical:{a_s!r}\n\n"
                    "The above quantities relating the numerical and analytical jacobians are computed \n"
                    "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
                    "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
                    f"Numerical:\n {n}\nAnalytical:\n{a}\n\n"
                    f"The max per-element difference (slow mode) is: {diffmax}.\n")
                err.numerical, err.analytical, err.output_idx, err.input_idx = n, a, i, j
                err._rtol, err._atol = rtol, atol
                raise err
    if check_forward_ad:
        _slow_check(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, False, True)


def _test_backward_mul_by_grad_output(outputs, inputs) -> None:
    """With zero output gradients every input gradient must be zero (backward must use grad_output)."""
    from .._creation import zeros_like
    from . import grad as autograd_grad
    diff = _diff_inputs(inputs)
    grads = autograd_grad(outputs, diff, [zeros_like(o) for o in outputs], allow_unused=True)
    for gi, di in zip(grads, diff):
        if gi is None:
            continue
        if not bool(np.all(gi._data == 0)):
            raise GradcheckError("backward not multiplied by grad_output")
        if gi.dtype != di.dtype:
            raise GradcheckError("grad is incorrect type")
        if gi.shape != di.shape:
            raise GradcheckError("grad is incorrect size")


def _test_undefined_backward_mode(fn, inputs) -> None:
    """Backward must cope with outputs that received no gradient at all ("undefined" = None)."""
    from .._creation import zeros_like
    from .engine import run_backward
    diff = _diff_inputs(inputs)
    # All output gradients undefined; then, with several outputs, one at a time (the others zeros). As in
    # PyTorch, every check has its own call of fn, all made before the first backward.
    outputs = _differentiable_outputs(fn(*inputs))
    n = len(outputs)
    checks = [(outputs, set(range(n)))]
    if n > 1:
        checks += [(_differentiable_outputs(fn(*inputs)), {k}) for k in range(n)]
    for outputs, none_at in checks:
        grad_outputs = [None if k in none_at else zeros_like(o) for k, o in enumerate(outputs)]
        try:
            grads = run_backward(outputs, grad_outputs, False, False, inputs=diff, accumulate=False,
                                 allow_unused=True)
        except RuntimeError as e:
            raise GradcheckError("Expected backward function to handle undefined output grads. Please look at "
                                 "\"Notes about undefined output gradients\" in "
                                 "\"tools/autograd/derivatives.yaml\"") from e
        for gi in grads:
            if gi is not None and not bool(np.all(gi._data == 0)):
                raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                     "undefined or zero. Please look at \"Notes about undefined output gradients\" "
                                     "in \"tools/autograd/derivatives.yaml\"")


def gradcheck(func: Callable, inputs, *, eps: float = 1e-6, atol: float = 1e-5, rtol: float = 1e-3,
              raise_exception: bool = True, nondet_tol: float = 0.0, check_undefined_grad: bool = True,
              check_grad_dtypes: bool = False, check_batched_grad: bool = False,
              check_batched_forward_grad: bool = False, check_forward_ad: bool = False,
              check_backward_ad: bool = True, fast_mode: bool = False, masked: bool | None = None) -> bool:
    """Check analytical gradients of ``func`` at ``inputs`` against finite differences (use float64)."""
    if not (check_forward_ad or check_backward_ad):
        raise AssertionError("Expected at least one of check_forward_ad or check_backward_ad to be True")
    if check_batched_grad and not check_backward_ad:
        raise AssertionError("Setting check_batched_grad=True requires check_backward_ad to be True")
    if check_batched_forward_grad and not check_forward_ad:
        raise AssertionError("Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    if check_batched_grad or check_batched_forward_grad:
        raise NotImplementedError("check_batched_grad needs vmap, which minigrad does not have")
    try:
        inputs = _as_tuple(inputs)
        _check_inputs(inputs)
        func_out = func(*inputs)
        outputs = _differentiable_outputs(func_out)
        check = _fast_check if fast_mode else _slow_check
        check(func, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad, check_forward_ad)
        if check_backward_ad and outputs:
            _test_backward_mul_by_grad_output(outputs, inputs)
            if check_undefined_grad:
                _test_undefined_backward_mode(func, inputs)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the function ``(inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs)``."""
    from .._tensor import Tensor
    from . import grad as autograd_grad
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        # Random grad_outputs in [-1, 1), fixed seed: gradgradcheck stays deterministic.
        rng = np.random.default_rng(0)
        outs = _differentiable_outputs(func(*inputs))
        grad_outputs = tuple(
            Tensor._make(rng.uniform(-1, 1, o.shape).astype(o._data.dtype if o.is_floating_point() else np.float64),
                         requires_grad=True) for o in outs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]

    def new_func(*args):
        input_args = args[:-n_out]
        outputs = _differentiable_outputs(func(*input_args))
        grads = autograd_grad(outputs, [input_args[i] for i in diff_in], args[-n_out:], create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def get_numerical_jacobian(fn, inputs, target=None, eps: float = 1e-3, grad_out: float = 1.0) -> tuple:
    """Deprecated in PyTorch: the numerical Jacobians of ``fn(inputs)`` (fn takes the tuple)."""
    inputs = _as_tuple(inputs)
    outputs = _as_tuple(fn(inputs))
    jac = _numerical_jacobian(lambda *a: fn(a), inputs, outputs, eps)
    return tuple(j[0] * grad_out for j in jac)


def get_analytical_jacobian(inputs, output, nondet_tol: float = 0.0, grad_out: float = 1.0) -> tuple:
    """Deprecated in PyTorch: ``(jacobians, reentrant, correct_grad_sizes, correct_grad_types)``."""
    jac, sizes_ok = _analytical_jacobian(_as_tuple(inputs), output)
    again, _ = _analytical_jacobian(_as_tuple(inputs), output)
    reentrant = all(np.allclose(a._data, b._data, rtol=0, atol=nondet_tol) for a, b in zip(jac, again))
    types_ok = all(j.dtype == x.dtype for j, x in zip(jac, _diff_inputs(_as_tuple(inputs))))
    return tuple(j * grad_out for j in jac), reentrant, sizes_ok, types_ok
