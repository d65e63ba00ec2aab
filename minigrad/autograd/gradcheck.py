"""gradcheck / gradgradcheck: compare a function's analytical Jacobian with central differences.

For every input ``x_j`` that requires grad and every output ``y_i``:

- numerical Jacobian: perturb each element of ``x_j`` by ±eps and take
  ``(f(x + eps) - f(x - eps)) / (2·eps)`` — one row per input element;
- analytical Jacobian: ``autograd.grad(y_i, x_j, e_k)`` for each unit vector ``e_k`` of ``y_i`` — one
  column per output element (with ``check_forward_ad=True``, also forward mode after it, with its own numerical
  Jacobian: one row per tangent, every input a dual; then PyTorch's check that an input without a tangent gives
  what a zero tangent gives);

and check ``allclose(analytical, numerical, rtol, atol)``. On failure the error shows both matrices,
rows indexed by input elements and columns by output elements, exactly as PyTorch prints them; the
raised ``GradcheckError`` also carries them (``.numerical``, ``.analytical``) and ``.mismatches``,
the (input element, output element) positions that differ.
"""
from __future__ import annotations

import contextlib
import functools
import warnings
from collections.abc import Callable

import numpy as np

from .._class_names import TorchNamed

__all__ = ["gradcheck", "gradgradcheck", "GradcheckError", "get_numerical_jacobian", "get_analytical_jacobian"]


class GradcheckError(RuntimeError, metaclass=TorchNamed):
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
            if not inp.is_sparse and not all(st > 0 or sz <= 1 for st, sz in zip(inp.stride(), inp.shape)):
                raise RuntimeError(f"The {idx}th input has a dimension with stride 0. gradcheck only supports "
                                   "inputs that are non-overlapping to be able to compute the numerical gradients "
                                   "correctly. You should call .contiguous on the input before passing it to "
                                   "gradcheck.")
            any_requires_grad = True
    if not any_requires_grad:
        raise ValueError("gradcheck expects at least one input tensor to require gradient, but none of them have "
                         "requires_grad=True.")


# ---- the two Jacobians ----------------------------------------------------------------------------

def _densify(x):
    """A sparse ``x`` with every element specified (zeros where x has none), as PyTorch's gradcheck perturbs it
    unless ``masked``; anything else as it is."""
    if not (_is_tensor(x) and x.is_sparse):
        return x
    from .. import sparse_coo_tensor
    dense = x.detach().to_dense()
    n = x.sparse_dim()
    index = np.indices(dense.shape[:n]).reshape(n, -1)
    values = dense._data.reshape(-1, *dense.shape[n:]).copy()
    return sparse_coo_tensor(index, values, x.shape).coalesce().requires_grad_(x.requires_grad)


def _sparse_rows(x) -> np.ndarray:
    """Per element of a sparse ``x``'s values (in their memory order), its flat index in the dense tensor."""
    n = x.sparse_dim()
    vals = x._vals._data
    coords = np.broadcast_to(x._idx._data.T.reshape(-1, n, *(1,) * (vals.ndim - 1)), (*vals.shape[:1], n,
                                                                                       *vals.shape[1:]))
    dense = np.indices(vals.shape[1:]).reshape(vals.ndim - 1, 1, *vals.shape[1:])
    full = [coords[:, d] for d in range(n)] + [np.broadcast_to(dense[d], vals.shape) for d in range(vals.ndim - 1)]
    return np.ravel_multi_index(tuple(full), x._size).reshape(-1)


def _numerical_jacobian(fn, inputs, outputs, eps: float, wirtinger: bool = False, masked: bool = False) -> list:
    """``J[j][i]``: d output_i / d input_j by central differences, shape (input_j.numel(), output_i.numel()).

    ``wirtinger`` (reverse mode, real outputs): a complex input is perturbed along 1 and along i, and the
    column is ds/dx + i·ds/dy, the conjugate Wirtinger derivative that backward computes (as in PyTorch).
    A sparse input's specified values are perturbed (``masked``), or every element of it (made specified).
    """
    from .._tensor import Tensor
    if not masked:
        inputs = tuple(_densify(x) for x in inputs)

    def call(x):
        if x.is_sparse:
            x._dense = None   # (its dense values, cached, are made again from the perturbed ones)
        return [o._data.copy() for o in _as_tuple(fn(*inputs))]

    def central(data, idx, step, x):
        orig = data[idx].copy()
        data[idx] = orig - step
        out_a = call(x)
        data[idx] = orig + step
        out_b = call(x)
        data[idx] = orig
        if x.is_sparse:
            x._dense = None
        if any(a.dtype == np.bool_ for a in out_a):  # (PyTorch subtracts the two outputs as tensors)
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` "
                               "or `logical_xor()` operator instead.")
        with np.errstate(all="ignore"):  # (eps=0 gives nan without a word, as PyTorch's division does)
            return [((b - a) / (2 * eps)).reshape(-1) for a, b in zip(out_a, out_b)]

    jacobians = []
    for x in _diff_inputs(inputs):
        # perturbed in place, behind autograd's back (as PyTorch perturbs ``x.data``; a sparse x: its values)
        data = x._vals._data if x.is_sparse else x._data
        rows = _sparse_rows(x) if x.is_sparse else range(data.size)
        split = wirtinger and np.iscomplexobj(data)
        cols = [np.zeros((x.numel(), o.numel()), dtype=data.dtype if split else o._data.dtype) for o in outputs]
        for k, row in enumerate(rows):
            idx = np.unravel_index(k, data.shape) if data.ndim else ()
            ds_dx = central(data, idx, eps, x)
            ds_dy = central(data, idx, eps * 1j, x) if split else None
            for i, d in enumerate(ds_dx):
                cols[i][row] = d if ds_dy is None else d + ds_dy[i] * 1j   # (a repeated entry: the last one's)
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


def _forward_ad_jacobian(fn, inputs, n_outputs: int, check_grad_dtypes: bool = False) -> list:
    """``J[i][j]`` by forward mode: one dual forward pass per input element."""
    from .._tensor import Tensor
    from . import forward_ad as fwAD
    diff_idx = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    jac = [[None] * len(diff_idx) for _ in range(n_outputs)]
    tracked = [[[] for _ in diff_idx] for _ in range(n_outputs)]   # (row, tangent) of tangents with a history
    for j, pos in enumerate(diff_idx):
        x = inputs[pos]
        for k in range(x.numel()):
            tangent = np.zeros(x._data.shape, dtype=x._data.dtype)
            tangent.reshape(-1)[k] = 1
            with fwAD.dual_level():
                # every input that requires grad is a dual, the others' tangents zero (as in PyTorch: a jvp
                # never sees an undefined tangent here)
                args = list(inputs)
                for p in diff_idx:
                    args[p] = fwAD.make_dual(inputs[p].detach(), Tensor._make(tangent) if p == pos
                                             else inputs[p].detach().new_zeros(inputs[p].shape))
                outs = [o for o in _as_tuple(fn(*args))]
                tangents = [fwAD.unpack_dual(o).tangent for o in outs]
            for i, (o, t) in enumerate(zip(outs[:n_outputs], tangents)):
                if jac[i][j] is None:
                    jac[i][j] = np.zeros((x.numel(), o.numel()), dtype=o._data.dtype)
                if t is None:
                    continue
                if check_grad_dtypes and o.is_complex() != t.is_complex():
                    raise GradcheckError("Forward AD gradient has dtype mismatch.")
                if t.requires_grad or t.is_complex() and not o.is_complex():
                    # (a tangent with a history, e.g. a complex input's other part: the original's; a complex
                    # tangent of a real output: copy_ warns)
                    tracked[i][j].append((k, t))
                else:
                    jac[i][j][k] = t._data.reshape(-1)
    # PyTorch copies each tangent into its row of the Jacobian: one with a history leaves a CopySlices node
    result = [[Tensor._make(m) for m in row] for row in jac]
    for i, row in enumerate(tracked):
        for j, rows in enumerate(row):
            for k, t in rows:
                result[i][j][k].copy_(t.reshape(-1))
    return result


def _allclose(a, b, rtol: float, atol: float) -> bool:
    from .._ops import _check_tolerances
    _check_tolerances(rtol, atol)  # (PyTorch compares with torch.allclose, which checks them)
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
                check_forward_ad, masked: bool = False, check_grad_dtypes: bool = False) -> None:
    func_out = _as_tuple(func_out)
    numerical = _numerical_jacobian(fn, inputs, func_out, eps, wirtinger=not check_forward_ad, masked=masked)
    # numerical[j][i] -> per output i, per input j. PyTorch makes as many Jacobians as there are floating point
    # outputs (an integer output has none, as its steps are no gradient), filled from the first outputs in order.
    n_float = sum(o.dtype.is_floating_point or o.dtype.is_complex for o in func_out)
    per_output = list(zip(*numerical))[:n_float]
    if not outputs:
        if any(np.any(jac._data != 0) for row in per_output for jac in row):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
    # keep the outputs that require grad (paired in order, as PyTorch: an integer output ahead shifts the pairs)
    per_output = [row for o, row in zip(func_out, per_output) if o.requires_grad]
    if check_backward_ad:
        for i, o in enumerate(outputs):
            analytical, sizes_ok = _analytical_jacobian(inputs, o)
            again, _ = _analytical_jacobian(inputs, o)
            if not sizes_ok:
                raise GradcheckError("Analytical gradient has incorrect size")
            # (PyTorch compares max |a - b| with the tolerance: NaN or infinite gradients, NaN apart, pass)
            with np.errstate(invalid="ignore"):
                reentrant = not any(a.numel() and np.max(np.abs(a._data - b._data)) > nondet_tol
                                    for a, b in zip(analytical, again))
            if not reentrant:
                raise GradcheckError(
                    "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                    "times gives different values, although analytical gradient matches numerical gradient."
                    f"The tolerance for nondeterminism was {nondet_tol}." + _FAILED_NONDET_MSG)
            for j, (a, n) in enumerate(zip(analytical, per_output[i])):
                if not _allclose(a, n, rtol, atol):
                    raise _mismatch(a, n, i, j, rtol, atol)
    if check_forward_ad:  # (after the backward check, as PyTorch: a wrong backward is reported first)
        forward = _forward_ad_jacobian(fn, inputs, len(func_out), check_grad_dtypes)
        forward = [row for row, o in zip(forward, func_out) if o.requires_grad]
        for i, row in enumerate(per_output):
            for j, n in enumerate(row):
                if not _allclose(forward[i][j], n, rtol, atol):
                    raise _mismatch(forward[i][j], n, i, j, rtol, atol, forward=True)


_FAILED_NONDET_MSG = """

NOTE: If your op relies on non-deterministic operations i.e., it is listed here:
https://pytorch.org/docs/stable/generated/torch.use_deterministic_algorithms.html
this failure might be expected.

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `nondet_tol=<tol>` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_nondet_tol=<tol>`.
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_nondet_tol=<tol>`
"""

_FAST_FAIL_SLOW_OK_MSG = """
Fast gradcheck failed but element-wise differences are small. This means that the
test might've passed in slow_mode!

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck:

If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `fast_mode=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `gradcheck_fast_mode=False`
- is a Module test (e.g., in common_nn.py), then modify the corresponding
  module_test entry to have `gradcheck_fast_mode=False`
""".strip()


def _fast_check(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad,
                check_forward_ad, masked: bool = False, check_grad_dtypes: bool = False) -> None:
    """Compare ``vᵀ·J·u`` for random unit vectors u, v (one number per input/output pair), as PyTorch does."""
    if any(x.is_sparse for x in _diff_inputs(inputs)):
        raise NotImplementedError("gradcheck(fast_mode=True) of sparse inputs is not supported by minigrad: use "
                                  "fast_mode=False")
    from .. import Generator
    from . import grad as autograd_grad
    func_out = _as_tuple(func_out)
    diff = _diff_inputs(inputs)
    if outputs and not check_backward_ad and not any(x.is_complex() for x in diff):
        return _fast_forward_check(fn, inputs, func_out, eps, rtol, atol, check_grad_dtypes)
    if not outputs or any(o.is_complex() for o in func_out) or (
            not check_backward_ad and any(x.is_complex() for x in diff)):
        return _fast_check_by_jacobians(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol,
                                        check_backward_ad, check_forward_ad)
    # u (per input) and v (per differentiable output): uniform [0, 1) from a fresh generator with the
    # default seed (the user's random state is untouched), scaled to unit length.
    gen = Generator()

    def unit(t):
        return _unit_vector(t, gen)

    # a complex input gets two real vectors: u = (u_re, u_im)
    us = [(unit(x), unit(x)) if x.is_complex() else unit(x) for x in diff]
    vs = [unit(o) for o in outputs]

    def jvp(x, step):
        return _central_difference(fn, inputs, x, step, eps)

    # numerical vᵀ(J·u), with J·u = ds/dx·u_re + i·ds/dy·u_im for a complex input (conjugate Wirtinger)
    numerical = []
    for x, u in zip(diff, us):
        if x.is_complex():
            jus = [dx + dy * 1j for dx, dy in zip(jvp(x, u[0].reshape(x.shape) * eps),
                                                  jvp(x, (u[1].reshape(x.shape) * eps) * 1j))]
        else:
            jus = jvp(x, u.reshape(x.shape) * eps)
        numerical.append([(v * ju).sum() for v, ju in zip(vs, jus)])
    # analytical (vᵀJ)·u: one backward per output with grad_output v, run twice (PyTorch's reentrancy check:
    # max |vᵀJ₁ - vᵀJ₂| <= nondet_tol)
    analytical = []
    for o, v in zip(outputs, vs):
        grads = autograd_grad(o, diff, v.reshape(o.shape), retain_graph=True, allow_unused=True)
        again = autograd_grad(o, diff, v.reshape(o.shape), retain_graph=True, allow_unused=True)
        if any(g is not None and h is not None and g.numel() and float((g - h).abs().max()) > nondet_tol
               for g, h in zip(grads, again)):
            raise GradcheckError(
                "Backward is not reentrant, i.e., running backward with same input and grad_output multiple "
                "times gives different values, although analytical gradient matches numerical gradient."
                f"The tolerance for nondeterminism was {nondet_tol}." + _FAILED_NONDET_MSG)
        row = []
        for g, x, u in zip(grads, diff, us):
            vj = (x.new_zeros(x.numel()) if g is None else g.reshape(-1)).to(x.dtype)
            row.append(vj.real.dot(u[0]) + 1j * vj.imag.dot(u[1]) if x.is_complex() else vj.dot(u))
        analytical.append(row)
    for i, per_input in enumerate(numerical):
        for j, n in enumerate(per_input):
            a = analytical[j][i]
            u_sum = float(us[i][0].sum()) + float(us[i][1].sum()) if diff[i].is_complex() else float(us[i].sum())
            tol = atol * u_sum * float(vs[j].sum())
            if not _allclose(a, n, rtol, tol):
                raise _fast_mismatch(fn, inputs, func_out, outputs[j], n, a, i, j, eps, rtol, atol)
    if check_forward_ad:
        _fast_forward_check(fn, inputs, func_out, eps, rtol, atol, check_grad_dtypes)


def _unit_vector(t, gen):
    """``t.numel()`` uniform [0, 1) numbers from ``gen`` (real dtype of t), scaled to length 1."""
    from .. import rand
    vec = rand(t.numel(), generator=gen).to(t.real.dtype if t.is_complex() else t.dtype)
    return vec / vec.norm()


def _central_difference(fn, inputs, x, step, eps) -> list:
    """(f(x + step) - f(x - step)) / 2·eps for every floating output, flattened (x.data is perturbed:
    autograd sees nothing)."""
    entry = x.data
    orig = entry.clone()
    entry.copy_(orig - step)
    out_a = [o.clone() for o in _as_tuple(fn(*inputs))]
    entry.copy_(orig + step)
    out_b = [o.clone() for o in _as_tuple(fn(*inputs))]
    entry.copy_(orig)
    return [((b - a) / (2 * eps)).detach().reshape(-1) for a, b in zip(out_a, out_b)
            if a.is_floating_point() or a.is_complex()]


def _fast_forward_check(fn, inputs, func_out, eps, rtol, atol, check_grad_dtypes: bool = False) -> None:
    """Forward mode in fast mode: J·u by forward AD against the central difference along u (PyTorch's)."""
    from .. import Generator, zeros
    from . import forward_ad as fwAD
    diff = _diff_inputs(inputs)
    gen = Generator()
    us = [_unit_vector(x, gen) for x in diff]
    for i, (x, u) in enumerate(zip(diff, us)):
        numerical = _central_difference(fn, inputs, x, u.reshape(x.shape) * eps, eps)
        with fwAD.dual_level():
            duals = [fwAD.make_dual(a.detach(), u.reshape(a.shape) if a is x else a.detach() * 0)
                     if any(a is d for d in diff) else a for a in inputs]
            outs = [o for o in _as_tuple(fn(*duals)) if o.is_floating_point() or o.is_complex()]
            analytical = []
            for o in outs:
                t = fwAD.unpack_dual(o).tangent
                if check_grad_dtypes and t is not None and o.is_complex() != t.is_complex():
                    raise GradcheckError("Forward AD gradient has dtype mismatch.")
                # (copied as PyTorch does: a tangent with a history gives CopyBackwards)
                analytical.append(zeros(o.numel(), dtype=o.dtype) if t is None
                                  else zeros(o.numel(), dtype=o.dtype).copy_(t.reshape(-1)))
        for j, (a, n) in enumerate(zip(analytical, numerical)):
            if not _allclose(a, n, rtol, atol * float(u.sum())):
                raise _fast_mismatch(fn, inputs, func_out, _as_tuple(func_out)[j], n, a, i, j, eps, rtol, atol,
                                     forward=True)


def _fast_mismatch(fn, inputs, func_out, output, n, a, i: int, j: int, eps, rtol, atol, forward: bool = False):
    """The fast-mode failure, with both Jacobians recomputed in slow mode (as PyTorch reports it)."""
    k = next(k for k, o in enumerate(func_out) if o is output)
    slow_n = _numerical_jacobian(fn, inputs, func_out, eps, wirtinger=not forward)[i][k]
    if forward:
        slow_a = _forward_ad_jacobian(fn, inputs, len(func_out))[k][i]
    else:
        slow_a = _analytical_jacobian(inputs, output)[0][i]
    max_diff = (slow_n - slow_a).abs().max()   # (a tensor: formatted as PyTorch formats it)
    mode = "computed with forward mode " if forward else ""
    msg = (f"Jacobian {mode}mismatch for output {j:d} with respect to input {i:d},\n"
           f"numerical:{n}\nanalytical:{a}\n\n"
           "The above quantities relating the numerical and analytical jacobians are computed \n"
           "in fast mode. See: https://github.com/pytorch/pytorch/issues/53876 for more background \n"
           "about fast mode. Below, we recompute numerical and analytical jacobians in slow mode:\n\n"
           f"Numerical:\n {slow_n}\nAnalytical:\n{slow_a}\n\n"
           f"The max per-element difference (slow mode) is: {max_diff}.\n")
    if _allclose(slow_a, slow_n, rtol, atol):
        msg += _FAST_FAIL_SLOW_OK_MSG
    err = GradcheckError(msg)
    err.numerical, err.analytical, err.output_idx, err.input_idx = slow_n, slow_a, j, i
    err._rtol, err._atol = rtol, atol
    return err


def _fast_check_by_jacobians(fn, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, check_backward_ad,
                             check_forward_ad) -> None:
    """Fast mode of forward-mode-only checks (and of functions without differentiable outputs): ``vᵀ·J·u``
    from the whole Jacobians, with vectors of its own (not PyTorch's)."""
    func_out = _as_tuple(func_out)
    rng = np.random.default_rng(0)  # deterministic: the same u, v every run
    numerical = _numerical_jacobian(fn, inputs, func_out, eps, wirtinger=not check_forward_ad)
    diff = _diff_inputs(inputs)
    us = [rng.uniform(-1, 1, x.numel()) for x in diff]
    vs = [rng.uniform(-1, 1, o.numel()) for o in func_out]
    if not outputs:  # (PyTorch's fast mode steps along u and looks at every output, integer ones too)
        if any(np.abs(u @ n._data).max(initial=0) > nondet_tol for u, row in zip(us, numerical) for n in row):
            raise GradcheckError("Numerical gradient for function expected to be zero")
        return
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


def _warn_bc_breaking() -> None:
    """PyTorch's warning before an undefined-gradient check fails."""
    warnings.warn("Backwards compatibility: New undefined gradient support checking feature is enabled by default, "
                  "but it may break existing callers of this function. If this is true for you, you can call this "
                  "function with \"check_undefined_grad=False\" to disable the feature", stacklevel=3)


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
            _warn_bc_breaking()
            raise GradcheckError("Expected backward function to handle undefined output grads. Please look at "
                                 "\"Notes about undefined output gradients\" in "
                                 "\"tools/autograd/derivatives.yaml\"") from e
        for gi in grads:
            if gi is not None and not bool(np.all(gi._data == 0)):
                _warn_bc_breaking()
                raise GradcheckError("Expected all input grads to be undefined or zero when all output grads are "
                                     "undefined or zero. Please look at \"Notes about undefined output gradients\" "
                                     "in \"tools/autograd/derivatives.yaml\"")


def _test_undefined_forward_mode(func, inputs) -> None:
    """Forward AD must cope with inputs that have no tangent at all: per input, a plain tensor among the duals must
    give the tangents a zero tangent gives (PyTorch's check; complex inputs by their imaginary, then real parts)."""
    if not any(_is_tensor(x) and x.is_complex() for x in inputs):
        return _undefined_forward_case(func, inputs)
    for _, part_fn, part_inputs in _complex_input_parts(func, inputs):
        _undefined_forward_case(part_fn, part_inputs)


def _undefined_forward_case(func, inputs) -> None:
    """The undefined-tangent check of real inputs: the others' tangents are PyTorch's unit vectors u."""
    from .. import Generator, allclose, zeros_like
    from . import forward_ad as fwAD
    gen = Generator()
    diff_idx = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    us = [_unit_vector(inputs[k], gen) for k in diff_idx]

    def float_outputs():
        return [o for o in _as_tuple(func(*duals)) if _is_tensor(o) and (o.is_floating_point() or o.is_complex())]
    with fwAD.dual_level():
        duals = list(inputs)
        for k, u in zip(diff_idx, us):
            duals[k] = fwAD.make_dual(inputs[k].detach(), u.reshape(inputs[k].shape).to(inputs[k].dtype))
        for k in diff_idx:
            kept, x = duals[k], inputs[k]
            duals[k] = fwAD.make_dual(x.detach(), zeros_like(x))   # a zero tangent
            zero_tangent = float_outputs()
            duals[k] = x.detach()                                  # no tangent
            no_tangent = float_outputs()
            duals[k] = kept
            for index_o, (o1, o2) in enumerate(zip(zero_tangent, no_tangent)):
                res1, res2 = fwAD.unpack_dual(o1).tangent, fwAD.unpack_dual(o2).tangent
                if res1 is not None and res2 is not None and not allclose(res1, res2):
                    # (PyTorch's message is the exception's arguments, printed as a tuple)
                    raise GradcheckError("Mismatch in tangent values for output with index: ", index_o,
                                         " when input: ", x, " has an undefined tangent value. ", " Got: ", res1,
                                         " but expected: ", res2)


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
    try:
        inputs = _as_tuple(inputs)
        _check_inputs(inputs)
        func_out = func(*inputs)
        outputs = _differentiable_outputs(func_out)
        if any(o.is_sparse for o in outputs):
            raise ValueError("Sparse output is not supported at gradcheck yet. Please call to_dense(masked_grad=...) "
                             "on the output of fn for gradcheck.")
        check = functools.partial(_fast_check if fast_mode else _slow_check, masked=bool(masked),
                                  check_grad_dtypes=check_grad_dtypes)
        # Reverse mode, then forward mode, each with its own numerical Jacobian (as PyTorch): complex outputs are
        # checked by their imaginary, then real parts in reverse mode, complex inputs so in forward mode.
        if check_backward_ad:
            if any(_is_tensor(o) and o.is_complex() for o in _as_tuple(func_out)):
                _check_complex_backward(check, func, inputs, outputs, eps, rtol, atol, nondet_tol)
            else:
                check(func, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, True, False)
        if check_forward_ad:
            if any(_is_tensor(x) and x.is_complex() for x in inputs):
                _check_complex_forward(check, func, inputs, eps, rtol, atol, nondet_tol)
            else:
                check(func, inputs, func_out, outputs, eps, rtol, atol, nondet_tol, False, True)
            if check_undefined_grad:
                _test_undefined_forward_mode(func, inputs)
        if check_batched_forward_grad:
            _test_batched_grad_forward_ad(func, inputs)
        if check_backward_ad and outputs:
            if check_batched_grad:
                for i, o in enumerate(outputs):
                    _test_batched_grad(inputs, o, i)
            _test_backward_mul_by_grad_output(outputs, inputs)
            if check_undefined_grad:
                _test_undefined_backward_mode(func, inputs)
    except GradcheckError:
        if raise_exception:
            raise
        return False
    return True


def _check_complex_backward(check, func, inputs, outputs, eps, rtol, atol, nondet_tol) -> None:
    """Reverse mode for complex functions: complex outputs replaced by their imaginary, then real parts."""
    from .. import imag, real
    complex_idx = [i for i, o in enumerate(outputs) if o.is_complex()]
    for part, take in (("imaginary", imag), ("real", real)):
        def part_fn(*args, take=take):
            return tuple(take(o) if o.is_complex() else o for o in _as_tuple(func(*args)))
        out = part_fn(*inputs)
        with _part_named(part, "outputs", "output_idx", complex_idx):
            check(part_fn, inputs, out, _differentiable_outputs(out), eps, rtol, atol, nondet_tol, True, False)


@contextlib.contextmanager
def _part_named(part: str, kind: str, index: str, complex_idx: list):
    """A GradcheckError of a complex output or input (its ``index`` attribute in ``complex_idx``) names the part
    checked: "While considering the imaginary part of complex outputs only, ..." as PyTorch's."""
    try:
        yield
    except GradcheckError as err:
        if getattr(err, index) in complex_idx:
            err.args = (f"While considering the {part} part of complex {kind} only, {err.args[0]}",)
        raise


def _complex_input_parts(func, inputs) -> list:
    """``(part, function, inputs)`` for the imaginary, then the real part: each complex input replaced by that part
    (real), which the function puts back together with the other part of the original (PyTorch's
    _real_and_imag_input)."""
    complex_idx = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.is_complex()]

    def part_fn(make):
        def fn(*args):
            args = list(args)
            for k in complex_idx:
                args[k] = make(args[k], inputs[k])
            return _as_tuple(func(*args))
        return fn
    return [("imaginary", part_fn(lambda x, orig: orig.real + x * 1j),
             tuple(x.imag if k in complex_idx else x for k, x in enumerate(inputs))),
            ("real", part_fn(lambda x, orig: x + orig.imag * 1j),
             tuple(x.real if k in complex_idx else x for k, x in enumerate(inputs)))]


def _check_complex_forward(check, func, inputs, eps, rtol, atol, nondet_tol) -> None:
    """Forward mode for complex inputs: by their imaginary, then real parts (forward AD's Jacobian is of real
    inputs)."""
    complex_idx = [k for k, x in enumerate(inputs) if _is_tensor(x) and x.is_complex()]
    for part, part_fn, part_inputs in _complex_input_parts(func, inputs):
        out = part_fn(*part_inputs)
        # (PyTorch compares the index among the inputs that require grad with positions among all inputs)
        with _part_named(part, "inputs", "input_idx", complex_idx):
            check(part_fn, part_inputs, out, _differentiable_outputs(out), eps, rtol, atol, nondet_tol, False, True)


def _test_batched_grad(inputs, output, output_idx: int) -> None:
    """Two random grad_outputs at once (``is_grads_batched``) must give the two separate backwards' results."""
    from .. import allclose, randn_like, stack, zeros
    from . import grad as autograd_grad
    diff = _diff_inputs(inputs)

    def vjp(v, batched=False):
        grads = autograd_grad(output, diff, v, retain_graph=True, allow_unused=True, is_grads_batched=batched)
        return [zeros((len(v),) * batched + tuple(x.shape), dtype=x.dtype) if g is None else g
                for g, x in zip(grads, diff)]

    grad_outputs = [randn_like(output) for _ in range(2)]  # (PyTorch draws them from the global generator)
    expected = [stack(shards) for shards in zip(*(vjp(g) for g in grad_outputs))]
    try:
        result = vjp(stack(grad_outputs), batched=True)
    except RuntimeError as ex:   # (what the batched backward cannot do: its vmap's error, at the gradcheck call)
        raise GradcheckError(f"While computing batched gradients, got: {ex}\n\n{_FAILED_BATCHED_GRAD_MSG}") from ex
    for input_idx, (res, exp) in enumerate(zip(result, expected)):
        if not allclose(res, exp):
            raise GradcheckError(f"For output {output_idx} and input {input_idx}:\n\n{_FAILED_BATCHED_GRAD_MSG}"
                                 f"\n\nGot:\n{res}\n\nExpected:\n{exp}")


def _test_batched_grad_forward_ad(func, inputs) -> None:
    """Per input, two random tangents at once (vmap over forward AD) must give the two separate jvps' results."""
    from .. import allclose, randn_like, stack, zeros
    from . import _legacy_vmap
    from . import forward_ad as fwAD
    for input_idx, current in enumerate(inputs):
        if not (_is_tensor(current) and current.requires_grad):
            continue

        def jvp(tangent, input_idx=input_idx, current=current):
            with fwAD.dual_level():
                dual = fwAD.make_dual(current.detach(), tangent)
                args = tuple(dual if i == input_idx else x.detach() if _is_tensor(x) else x
                             for i, x in enumerate(inputs))
                ret = []
                for out in _as_tuple(func(*args)):
                    if out is not None:
                        primal, tangent_out = fwAD.unpack_dual(out)
                        ret.append(zeros([], dtype=primal.dtype).expand(primal.shape) if tangent_out is None
                                   else tangent_out)
                return tuple(ret)

        if not (current.is_floating_point() or current.is_complex()):
            continue
        tangents = [randn_like(current) for _ in range(2)]  # (PyTorch draws them from the global generator)
        expected = [stack(shards) for shards in zip(*(jvp(t) for t in tangents))]
        try:
            result = _legacy_vmap(jvp, stack(tangents))   # (PyTorch's legacy vmap, not torch.func's)
        except RuntimeError as ex:
            raise GradcheckError(f"While computing batched gradients, got: {ex}\n\n"
                                 f"{_FAILED_BATCHED_GRAD_MSG_FWD_AD}") from ex
        for k, (res, exp) in enumerate(zip(result, expected)):
            if not allclose(res, exp):   # (PyTorch's message names the output's index for both)
                raise GradcheckError(f"For output {k} and input {k}:\n\n{_FAILED_BATCHED_GRAD_MSG_FWD_AD}"
                                     f"\n\nGot:\n{res}\n\nExpected:\n{exp}")


# (with its first and last newlines, unlike the backward one: PyTorch strips only that one)
_FAILED_BATCHED_GRAD_MSG_FWD_AD = """
gradcheck failed while testing batched gradient computation with forward-mode AD.
This test is enabled automatically when both `check_batched_grad=True`
and `check_forward_ad=True`, but can be disabled in the following ways
dependong on how the test was invoked (via a test that calls gradcheck
directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_forward_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_forward_grad=False`
"""


_FAILED_BATCHED_GRAD_MSG = """\
gradcheck or gradgradcheck failed while testing batched gradient computation.
This could have been invoked in a number of ways (via a test that calls
gradcheck/gradgradcheck directly or via an autogenerated test).

If you are adding a new operator, please file an issue and then use one of the
workarounds. The workaround depends on how your test invokes gradcheck/gradgradcheck.
If the test
- manually invokes gradcheck/gradgradcheck, then call gradcheck/gradgradcheck
  with `check_batched_grad=False` as a keyword argument.
- is OpInfo-based (e.g., in test_ops_gradients.py), then modify the OpInfo for the test
  to have `check_batched_grad=False` and/or `check_batched_gradgrad=False`.

If you're modifying an existing operator that supports batched grad computation,
or wish to make a new operator work with batched grad computation, please read
the following.

To compute batched grads (e.g., jacobians, hessians), we vmap over the backward
computation. The most common failure case is if there is a 'vmap-incompatible
operation' in the backward pass. Please see
NOTE: [How to write vmap-compatible backward formulas]
in the codebase for an explanation of how to fix this.""".strip()


def _uniform_like(out, noncontiguous: bool = False):
    """A tensor shaped like ``out`` filled with U(-1, 1) values, requiring grad (float64 for integer outputs);
    ``noncontiguous``: every other element of one twice as long in the last dim (make_tensor's way)."""
    from .. import _dtypes, empty, view_as_real
    dtype = out.dtype if out.is_floating_point() or out.is_complex() else _dtypes.float64
    noncontiguous = noncontiguous and out.numel() > 1
    shape = (*out.shape[:-1], 2 * out.shape[-1]) if noncontiguous else tuple(out.shape)
    t = empty(shape, dtype=dtype)
    (view_as_real(t) if t.is_complex() else t).uniform_(-1, 1)
    return (t[..., 1::2] if noncontiguous else t).requires_grad_()


def gradgradcheck(func: Callable, inputs, grad_outputs=None, *, eps: float = 1e-6, atol: float = 1e-5,
                  rtol: float = 1e-3, gen_non_contig_grad_outputs: bool = False, raise_exception: bool = True,
                  nondet_tol: float = 0.0, check_undefined_grad: bool = True, check_grad_dtypes: bool = False,
                  check_batched_grad: bool = False, check_fwd_over_rev: bool = False, check_rev_over_rev: bool = True,
                  fast_mode: bool = False, masked: bool = False) -> bool:
    """gradcheck of the function ``(inputs, grad_outputs) -> autograd.grad(func(inputs), inputs, grad_outputs)``."""
    from . import grad as autograd_grad
    if not (check_fwd_over_rev or check_rev_over_rev):
        raise AssertionError("Expected at least one of check_fwd_over_rev or check_rev_over_rev to be True")
    if check_undefined_grad and not check_rev_over_rev:
        raise AssertionError("Setting check_undefined_grad=True requires check_rev_over_rev to be True")
    inputs = _as_tuple(inputs)
    if grad_outputs is None:
        # Random grad_outputs in [-1, 1) from the global generator, drawn as torch.testing.make_tensor
        # draws them (so a seeded program sees the same values, and the same random numbers afterwards).
        outs = _differentiable_outputs(func(*inputs))
        grad_outputs = tuple(_uniform_like(o, gen_non_contig_grad_outputs) for o in outs)
    else:
        grad_outputs = _as_tuple(grad_outputs)
    n_out = len(grad_outputs)
    diff_in = [i for i, x in enumerate(inputs) if _is_tensor(x) and x.requires_grad]
    diff_go = [i for i, g in enumerate(grad_outputs) if g.requires_grad]

    def new_func(*args):
        # (the forward-mode check passes detached duals: requires_grad is restored, as PyTorch does)
        input_args = tuple(x.requires_grad_() if i in diff_in else x for i, x in enumerate(args[:-n_out]))
        grad_outs = tuple(g.requires_grad_() if i in diff_go else g for i, g in enumerate(args[-n_out:]))
        outputs = _differentiable_outputs(func(*input_args))
        grads = autograd_grad(outputs, [input_args[i] for i in diff_in], grad_outs, create_graph=True,
                              allow_unused=True)
        return tuple(g for g in grads if g is not None)

    return gradcheck(new_func, inputs + grad_outputs, eps=eps, atol=atol, rtol=rtol,
                     raise_exception=raise_exception, nondet_tol=nondet_tol,
                     check_undefined_grad=check_undefined_grad, check_grad_dtypes=check_grad_dtypes,
                     check_batched_grad=check_batched_grad, fast_mode=fast_mode,
                     check_forward_ad=check_fwd_over_rev, check_backward_ad=check_rev_over_rev, masked=masked)


def _warn_private(name: str) -> None:
    """PyTorch's deprecation warning of the two private Jacobian helpers."""
    from .._tensor import _user_stacklevel
    warnings.warn(f"`{name}` was part of PyTorch's private API and not meant to be exposed. We are deprecating it "
                  "and it will be removed in a future version of PyTorch. If you have a specific use for this or "
                  "feature request for this to be a stable API, please file us an issue at "
                  "https://github.com/pytorch/pytorch/issues/new", FutureWarning, stacklevel=_user_stacklevel())


def get_numerical_jacobian(fn, inputs, target=None, eps: float = 1e-3, grad_out: float = 1.0) -> tuple:
    """Deprecated in PyTorch: the numerical Jacobians of ``fn(inputs)`` (fn takes the tuple)."""
    _warn_private("get_numerical_jacobian")
    inputs = _as_tuple(inputs)
    outputs = _as_tuple(fn(inputs))
    jac = _numerical_jacobian(lambda *a: fn(a), inputs, outputs, eps)
    return tuple(j[0] * grad_out for j in jac)


def get_analytical_jacobian(inputs, output, nondet_tol: float = 0.0, grad_out: float = 1.0) -> tuple:
    """Deprecated in PyTorch: ``(jacobians, reentrant, correct_grad_sizes, correct_grad_types)``."""
    _warn_private("get_analytical_jacobian")
    jac, sizes_ok = _analytical_jacobian(_as_tuple(inputs), output)
    again, _ = _analytical_jacobian(_as_tuple(inputs), output)
    reentrant = all(np.allclose(a._data, b._data, rtol=0, atol=nondet_tol) for a, b in zip(jac, again))
    types_ok = all(j.dtype == x.dtype for j, x in zip(jac, _diff_inputs(_as_tuple(inputs))))
    return tuple(j * grad_out for j in jac), reentrant, sizes_ok, types_ok
