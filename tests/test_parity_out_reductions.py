"""``out=`` of the reductions, scans and sorts (``minigrad/_out_args.py``'s REDUCTION_OUT / PAIR_OUT), against PyTorch.

Each case runs in-process with PyTorch and with minigrad; the printed result (or the exception's type and message)
and the warnings must be the same. Before this file's fix every one of them raised "unexpected keyword argument
'out'" (or took no tuple): sum(x, 0, out=o), sort(x, out=(v, i)) ... The returned pair is PyTorch's
``torch.return_types.sort_out`` whose members ARE the out tensors.
"""
from __future__ import annotations

import warnings

import pytest
from parity import torch_or_skip

import minigrad


def _pair(t, shape=(3,), values=None, indices=None):
    return (t.empty(shape, dtype=values or t.float32), t.empty(shape, dtype=indices or t.long))


def _x(t, requires_grad=False):
    return t.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=requires_grad)


CASES = {
    # one out tensor
    "sum_dim": lambda t: t.sum(_x(t), 0, out=t.empty(3)),
    "sum_all_no_out_overload": lambda t: t.sum(_x(t), out=t.empty(())),
    "sum_into_long": lambda t: t.sum(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "sum_into_double": lambda t: t.sum(_x(t), 0, out=t.empty(3, dtype=t.float64)),
    "sum_long_into_float": lambda t: t.sum(t.tensor([[1, 2], [3, 4]]), 0, out=t.empty(2)),
    "sum_dtype_mismatch": lambda t: t.sum(_x(t), 0, dtype=t.float64, out=t.empty(3)),
    "sum_dims_list": lambda t: t.sum(_x(t), [0, 1], out=t.empty(())),
    "sum_resized": lambda t: t.sum(_x(t), 0, out=t.empty(5)),
    "sum_resized_from_empty": lambda t: t.sum(_x(t), 0, out=t.empty(0)),
    "prod_all_no_out_overload": lambda t: t.prod(_x(t), out=t.empty(())),
    "prod_into_long": lambda t: t.prod(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "nansum": lambda t: t.nansum(t.tensor([1., float("nan"), 2.]), 0, out=t.empty(())),
    "mean": lambda t: t.mean(_x(t), 1, keepdim=True, out=t.empty(2, 1)),
    "mean_all": lambda t: t.mean(_x(t), out=t.empty(())),
    "mean_into_long": lambda t: t.mean(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "nanmean": lambda t: t.nanmean(_x(t), 0, out=t.empty(3, dtype=t.float64)),
    "std": lambda t: t.std(_x(t), 0, out=t.empty(3)),
    "var_correction": lambda t: t.var(_x(t), 0, correction=0, out=t.empty(3)),
    "var_into_long": lambda t: t.var(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "max_all": lambda t: t.max(_x(t), out=t.empty((), dtype=t.float64)),
    "max_binary": lambda t: t.max(_x(t), _x(t) * 0 + 2, out=t.empty(2, 3)),
    "amax": lambda t: t.amax(_x(t), 0, out=t.empty(3)),
    "amin_dims": lambda t: t.amin(_x(t), (0, 1), out=t.empty(())),
    "amax_dtype": lambda t: t.amax(_x(t), 0, out=t.empty(3, dtype=t.float64)),
    "argmax": lambda t: t.argmax(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "argmin_all": lambda t: t.argmin(_x(t), out=t.empty((), dtype=t.long)),
    "argmax_float_out": lambda t: t.argmax(_x(t), 0, out=t.empty(3)),
    "argmin_int_out": lambda t: t.argmin(_x(t), 0, out=t.empty(3, dtype=t.int32)),
    "logsumexp": lambda t: t.logsumexp(_x(t), 0, out=t.empty(3, dtype=t.float64)),
    "logsumexp_long_out": lambda t: t.logsumexp(_x(t), 0, out=t.empty(3, dtype=t.long)),
    "cumsum": lambda t: t.cumsum(_x(t), 1, out=t.empty(2, 3)),
    "cumsum_into_long": lambda t: t.cumsum(_x(t), 0, out=t.empty(2, 3, dtype=t.long)),
    "cumprod_into_double": lambda t: t.cumprod(_x(t), 0, out=t.empty(2, 3, dtype=t.float64)),
    "norm": lambda t: t.norm(_x(t), dim=0, out=t.empty(3)),
    "norm_p1": lambda t: t.norm(_x(t), 1, 0, out=t.empty(3)),
    "norm_double_out": lambda t: t.norm(_x(t), dim=0, out=t.empty(3, dtype=t.float64)),
    "all": lambda t: t.all(_x(t), 0, out=t.empty(3, dtype=t.bool)),
    "any_all": lambda t: t.any(_x(t), out=t.empty((), dtype=t.bool)),
    "any_uint8": lambda t: t.any(_x(t), 0, out=t.empty(3, dtype=t.uint8)),
    "all_float_out": lambda t: t.all(_x(t), 0, out=t.empty(3)),
    "msort": lambda t: t.msort(_x(t), out=t.empty(2, 3)),
    "msort_double_out": lambda t: t.msort(_x(t), out=t.empty(2, 3, dtype=t.float64)),
    "quantile": lambda t: t.quantile(_x(t), 0.5, 0, out=t.empty(3)),
    "quantile_qs_resized": lambda t: t.quantile(_x(t), t.tensor([0.25, 0.5]), 0, out=t.empty(3)),
    "quantile_double_out": lambda t: t.quantile(_x(t), 0.5, 0, out=t.empty(3, dtype=t.float64)),
    "nanquantile": lambda t: t.nanquantile(_x(t), 0.5, 1, out=t.empty(2)),
    "diff": lambda t: t.diff(_x(t), dim=0, out=t.empty(1, 3)),
    "histc": lambda t: t.histc(_x(t), 3, out=t.empty(3)),
    "histc_double_out": lambda t: t.histc(_x(t), 3, out=t.empty(3, dtype=t.float64)),
    # out=(values, indices)
    "sort": lambda t: t.sort(_x(t), out=_pair(t, (2, 3))),
    "sort_descending_list": lambda t: t.sort(_x(t), 0, True, out=list(_pair(t, (2, 3)))),
    "sort_stable": lambda t: t.sort(_x(t), stable=True, dim=0, out=_pair(t, (2, 3))),
    "sort_resized": lambda t: t.sort(_x(t), out=_pair(t, (5,))),
    "sort_one_tensor": lambda t: t.sort(_x(t), out=(t.empty(2, 3),)),
    "sort_float_indices": lambda t: t.sort(_x(t), out=_pair(t, (2, 3), indices=t.float32)),
    "sort_double_values": lambda t: t.sort(_x(t), out=_pair(t, (2, 3), values=t.float64)),
    "max_dim": lambda t: t.max(_x(t), 0, out=_pair(t)),
    "min_keepdim": lambda t: t.min(_x(t), 1, keepdim=True, out=_pair(t, (2, 1))),
    "max_int_indices": lambda t: t.max(_x(t), 0, out=_pair(t, indices=t.int32)),
    "min_double_values": lambda t: t.min(_x(t), 0, out=_pair(t, values=t.float64)),
    "topk": lambda t: t.topk(_x(t), 2, out=_pair(t, (2, 2))),
    "topk_double_values": lambda t: t.topk(_x(t), 2, out=_pair(t, (2, 2), values=t.float64)),
    "topk_int_indices": lambda t: t.topk(_x(t), 2, out=_pair(t, (2, 2), indices=t.int32)),
    "kthvalue": lambda t: t.kthvalue(_x(t), 1, 0, out=_pair(t)),
    "kthvalue_double_values": lambda t: t.kthvalue(_x(t), 1, 0, out=_pair(t, values=t.float64)),
    "kthvalue_int_indices": lambda t: t.kthvalue(_x(t), 1, 0, out=_pair(t, indices=t.int32)),
    "median": lambda t: t.median(_x(t), 0, out=_pair(t)),
    "median_without_dim": lambda t: t.median(_x(t), out=t.empty(())),
    "median_double_values": lambda t: t.median(_x(t), 0, out=_pair(t, values=t.float64)),
    "median_int_indices": lambda t: t.median(_x(t), 0, out=_pair(t, indices=t.int32)),
    "nanmedian": lambda t: t.nanmedian(_x(t), 1, out=_pair(t, (2,))),
    "mode": lambda t: t.mode(_x(t), 0, out=_pair(t)),
    "mode_double_values": lambda t: t.mode(_x(t), 0, out=_pair(t, values=t.float64)),
    "mode_int_indices": lambda t: t.mode(_x(t), 0, out=_pair(t, indices=t.int32)),
    "cummax": lambda t: t.cummax(_x(t), 0, out=_pair(t, (2, 3))),
    "cummin_double_values": lambda t: t.cummin(_x(t), 0, out=_pair(t, (2, 3), values=t.float64)),
    "cummax_int_indices": lambda t: t.cummax(_x(t), 0, out=_pair(t, (2, 3), indices=t.int32)),
    "aminmax": lambda t: t.aminmax(_x(t), dim=0, out=(t.empty(3), t.empty(3))),
    "aminmax_double": lambda t: t.aminmax(_x(t), dim=0, out=(t.empty(3, dtype=t.float64), t.empty(3))),
    # keywords, argument errors and a view as out=
    "max_dim_keyword": lambda t: t.max(_x(t), dim=1, out=_pair(t, (2,))),
    "max_dim_one_tensor": lambda t: t.max(_x(t), 0, out=t.empty(3)),
    "sum_input_keyword": lambda t: t.sum(input=_x(t), dim=1, out=t.empty(2)),
    "sort_keywords": lambda t: t.sort(_x(t), dim=0, descending=True, out=_pair(t, (2, 3))),
    "sort_one_tensor_out": lambda t: t.sort(_x(t), out=t.empty(2, 3)),
    "topk_keywords": lambda t: t.topk(_x(t), k=1, dim=0, largest=False, out=_pair(t, (1, 3))),
    "sum_bad_dim": lambda t: t.sum(_x(t), 5, out=t.empty(2)),
    "sort_bad_dim": lambda t: t.sort(_x(t), 5, out=_pair(t, (2, 3))),
    "std_unbiased_positional": lambda t: t.std(_x(t), 0, False, out=t.empty(3)),
    "sum_into_a_column_view": lambda t: _into_column(t),
    # autograd: refused while recording, except the functions without a derivative and the composites
    "grad_sum": lambda t: t.sum(_x(t, True), 0, out=t.empty(3)),
    "grad_out_leaf": lambda t: t.sum(_x(t), 0, out=t.empty(3, requires_grad=True)),
    "grad_sort": lambda t: t.sort(_x(t, True), out=_pair(t, (2, 3))),
    "grad_sort_out_leaf": lambda t: t.sort(_x(t), out=(t.empty(2, 3, requires_grad=True), t.empty(2, 3, dtype=t.long))),
    "grad_max_dim": lambda t: t.max(_x(t, True), 0, out=_pair(t)),
    "grad_max_all": lambda t: t.max(_x(t, True), out=t.empty(())),
    "grad_min_binary": lambda t: t.min(_x(t, True), _x(t), out=t.empty(2, 3)),
    "grad_topk": lambda t: t.topk(_x(t, True), 2, out=_pair(t, (2, 2))),
    "grad_cummin": lambda t: t.cummin(_x(t, True), 0, out=_pair(t, (2, 3))),
    "grad_median": lambda t: t.median(_x(t, True), 0, out=_pair(t)),
    "grad_aminmax": lambda t: t.aminmax(_x(t, True), dim=0, out=(t.empty(3), t.empty(3))),
    "grad_norm": lambda t: t.norm(_x(t, True), dim=0, out=t.empty(3)),
    "grad_msort": lambda t: t.msort(_x(t, True), out=t.empty(2, 3)),
    "grad_nanmean": lambda t: t.nanmean(_x(t, True), 0, out=t.empty(3)),
    "grad_diff": lambda t: t.diff(_x(t, True), dim=0, out=t.empty(1, 3)),
    "grad_logsumexp": lambda t: t.logsumexp(_x(t, True), 0, out=t.empty(3)),
    "grad_cumprod": lambda t: t.cumprod(_x(t, True), 0, out=t.empty(2, 3)),
    "grad_argmax": lambda t: t.argmax(_x(t, True), 0, out=t.empty(3, dtype=t.long)),
    "grad_all": lambda t: t.all(_x(t, True), 0, out=t.empty(3, dtype=t.bool)),
    "grad_histc": lambda t: t.histc(_x(t, True), 3, out=t.empty(3)),
    "grad_quantile_copied": lambda t: t.quantile(_x(t, True), 0.5, 0, out=t.empty(3)),
    "grad_no_grad_mode": lambda t: _no_grad(t, lambda: t.sum(_x(t, True), 0, out=t.empty(3))),
}


def _into_column(t):
    base = t.zeros(2, 2)
    t.sum(_x(t), 1, out=base[:, 0])
    return base


def _no_grad(t, fn):
    with t.no_grad():
        return fn()


def _outcome(t, fn) -> str:
    """What ``fn(t)`` prints: its result (type and values) or its exception, then its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn(t)
            text = f"{type(result).__name__}: {result!r}"
        except Exception as error:  # noqa: BLE001 - the error is what is compared
            text = f"{type(error).__name__}: {error}"
    return "\n".join([text, *(f"warning: {w.message}" for w in caught)])


@pytest.mark.parametrize("name", sorted(CASES))
def test_out_like_pytorch(name: str) -> None:
    torch = torch_or_skip()
    assert _outcome(minigrad, CASES[name]) == _outcome(torch, CASES[name])


_PAIRS = {"sort": ((), {}), "max": ((0,), {}), "topk": ((2,), {}), "cummin": ((1,), {}), "aminmax": ((), {"dim": 1})}


@pytest.mark.parametrize("name", sorted(_PAIRS))
def test_pair_members_are_the_out_tensors(name: str) -> None:
    torch = torch_or_skip()
    args, kwargs = _PAIRS[name]
    for t in (minigrad, torch):
        first, second = (t.empty(0), t.empty(0)) if name == "aminmax" else _pair(t, (0,))
        result = getattr(t, name)(_x(t), *args, **kwargs, out=(first, second))
        assert type(result).__name__ == f"{name}_out" and type(result).__module__ == "torch.return_types"
        assert result[0] is first and result[1] is second
        assert repr(result).startswith(f"torch.return_types.{name}_out(")


def test_versions_bumped_once_per_out_tensor() -> None:
    torch = torch_or_skip()
    counts = []
    for t in (minigrad, torch):
        x, o, pair = _x(t), t.empty(3), _pair(t)
        t.sum(x, 0, out=o)
        t.max(x, 0, out=pair)
        counts.append((o._version, pair[0]._version, pair[1]._version))
    assert counts[0] == counts[1] == (1, 1, 1)


def test_quantile_out_is_differentiable_through_its_copy() -> None:
    x = _x(minigrad, True)
    out = minigrad.quantile(x, 0.5, 0, out=minigrad.empty(3))
    assert type(out.grad_fn).__name__ == "CopyBackwards"
    out.sum().backward()
    assert x.grad.tolist() == [[0.5, 0.5, 0.5], [0.5, 0.5, 0.5]]
