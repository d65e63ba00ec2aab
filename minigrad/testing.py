"""``torch.testing``: ``assert_close`` (with PyTorch's messages), the deprecated ``assert_allclose``, ``make_tensor``.

A compact port of ``torch/testing/_comparison.py`` (strided tensors, numbers, booleans, ``None``, NumPy arrays,
nested sequences and mappings; not the quantized, sparse, jagged or DTensor parts). The comparison runs in two
phases, as PyTorch's does: first the inputs are walked and paired up (a length, key or type mismatch and a bad
``rtol``/``atol`` fail here, and ``msg`` does not replace those messages), then each pair is compared and the first
mismatch is raised.
"""
from __future__ import annotations

import cmath
import collections.abc
import contextlib
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from . import _dtypes
from ._tensor import Tensor

__all__ = ["assert_close", "assert_allclose", "make_tensor"]

# {dtype: (rtol, atol)}: the default tolerances, PyTorch's table (other dtypes compare exactly)
_DTYPE_PRECISIONS = {
    _dtypes.float16: (0.001, 1e-5),
    _dtypes.bfloat16: (0.016, 1e-5),
    _dtypes.float32: (1.3e-6, 1e-5),
    _dtypes.float64: (1e-7, 1e-7),
    _dtypes.complex64: (1.3e-6, 1e-5),
    _dtypes.complex128: (1e-7, 1e-7),
}
# A Python number compares with the tolerances of the dtype it would become
_NUMBER_DTYPES = {int: _dtypes.int64, float: _dtypes.float64, complex: _dtypes.complex128}


class _ErrorMeta(Exception):
    """A failure found while comparing: the exception type to raise, its message, and where in the inputs it was."""

    def __init__(self, type: type, msg: str, *, id: tuple = ()) -> None:
        super().__init__(msg)
        self.type, self.msg, self.id = type, msg, id

    def to_error(self, msg: str | Callable[[str], str] | None = None) -> Exception:
        """The user-facing exception: ``msg`` replaces (a str) or rewrites (a callable) the generated message."""
        if not isinstance(msg, str):
            generated = self.msg
            if self.id:
                generated += f"\n\nThe failure occurred for item {''.join(str([item]) for item in self.id)}"
            msg = msg(generated) if callable(msg) else generated
        return self.type(msg)


class _Unsupported(Exception):
    """This kind of pair cannot handle the inputs: try the next kind."""


def _default_tolerances(*dtypes, precisions: dict | None = None) -> tuple[float, float]:
    """The loosest (rtol, atol) of the dtypes' defaults."""
    rtols, atols = zip(*[(precisions or _DTYPE_PRECISIONS).get(d, (0.0, 0.0)) for d in dtypes])
    return max(rtols), max(atols)


def _tolerances(*dtypes, rtol, atol, id: tuple) -> tuple[float, float]:
    # Both or neither: atol=0.0 alone would still let values through on the default rtol, a surprise.
    if (rtol is None) ^ (atol is None):
        raise _ErrorMeta(ValueError, f"Both 'rtol' and 'atol' must be either specified or omitted, "
                                     f"but got no {'rtol' if rtol is None else 'atol'}.", id=id)
    if rtol is not None:
        return rtol, atol
    return _default_tolerances(*dtypes)


# ---- messages ----

def _mismatch_msg(identifier, *, extra: str, abs_diff, abs_idx, atol, rel_diff, rel_idx, rtol) -> str:
    """``Tensor-likes are not close!`` followed by the greatest differences (and the tolerances, unless both are 0)."""
    equality = rtol == 0 and atol == 0

    def diff_line(kind: str, diff, idx, tol) -> str:
        if idx is None:
            line = f"{kind.title()} difference: {diff}"
        else:
            line = f"Greatest {kind} difference: {diff} at index {idx}"
        return line + ("" if equality else f" (up to {tol} allowed)") + "\n"

    msg = f"{identifier} are not {'equal' if equality else 'close'}!\n\n{extra.strip()}\n"
    msg += diff_line("absolute", abs_diff, abs_idx, atol) + diff_line("relative", rel_diff, rel_idx, rtol)
    return msg.strip()


def _scalar_mismatch_msg(actual, expected, *, rtol: float, atol: float) -> str:
    abs_diff = abs(actual - expected)
    rel_diff = float("inf") if expected == 0 else abs_diff / abs(expected)
    return _mismatch_msg("Scalars", extra=f"Expected {expected} but got {actual}.", abs_diff=abs_diff, abs_idx=None,
                         atol=atol, rel_diff=rel_diff, rel_idx=None, rtol=rtol)


def _tensor_mismatch_msg(actual: Tensor, expected: Tensor, matches: Tensor, *, rtol: float, atol: float) -> str:
    """Count the mismatches; report the greatest absolute and relative differences among them (tensor arithmetic,
    in the tensors' dtype, as PyTorch computes them)."""
    def unravel(flat_index: int) -> tuple:
        index = []
        for size in reversed(matches.shape):
            flat_index, mod = divmod(flat_index, size)
            index.append(mod)
        return tuple(reversed(index))

    total = matches.numel()
    mismatches = total - int(matches.sum())
    extra = f"Mismatched elements: {mismatches} / {total} ({mismatches / total:.1%})"
    actual_flat, expected_flat, matches_flat = actual.flatten(), expected.flatten(), matches.flatten()
    if not actual.dtype.is_floating_point and not actual.dtype.is_complex:
        # integers (and bools) are subtracted in int64 so that the difference cannot overflow
        actual_flat, expected_flat = actual_flat.to(_dtypes.int64), expected_flat.to(_dtypes.int64)
    abs_diff = (actual_flat - expected_flat).abs()
    abs_diff[matches_flat] = 0   # only mismatches count
    max_abs, abs_idx = abs_diff.max(0)
    rel_diff = abs_diff / expected_flat.abs()
    rel_diff[matches_flat] = 0
    max_rel, rel_idx = rel_diff.max(0)
    return _mismatch_msg("Tensor-likes", extra=extra, abs_diff=max_abs.item(), abs_idx=unravel(int(abs_idx)),
                         atol=atol, rel_diff=max_rel.item(), rel_idx=unravel(int(rel_idx)), rtol=rtol)


# ---- pairs: each constructor raises _Unsupported for inputs it does not handle ----

class _Pair:
    def __init__(self, actual, expected, id: tuple) -> None:
        self.actual, self.expected, self.id = actual, expected, id

    def _fail(self, type: type, msg: str):
        raise _ErrorMeta(type, msg, id=self.id)


class _NonePair(_Pair):
    def __init__(self, actual, expected, *, id: tuple, **options) -> None:
        if not (actual is None or expected is None):
            raise _Unsupported
        super().__init__(actual, expected, id)

    def compare(self) -> None:
        if not (self.actual is None and self.expected is None):
            self._fail(AssertionError, f"None mismatch: {self.actual} is not {self.expected}")


class _BooleanPair(_Pair):
    def __init__(self, actual, expected, *, id: tuple, **options) -> None:
        if not all(isinstance(x, (bool, np.bool_)) for x in (actual, expected)):
            raise _Unsupported
        super().__init__(bool(actual), bool(expected), id)

    def compare(self) -> None:
        if self.actual is not self.expected:
            self._fail(AssertionError, f"Booleans mismatch: {self.actual} is not {self.expected}")


class _NumberPair(_Pair):
    def __init__(self, actual, expected, *, id: tuple, rtol=None, atol=None, equal_nan=False, check_dtype=False,
                 **options) -> None:
        if not all(isinstance(x, (int, float, complex, np.number)) for x in (actual, expected)):
            raise _Unsupported
        actual, expected = (x.item() if isinstance(x, np.number) else x for x in (actual, expected))
        super().__init__(actual, expected, id)
        # type() not isinstance: an int subclass such as bool has no dtype here (a KeyError, as in PyTorch)
        self.rtol, self.atol = _tolerances(*(_NUMBER_DTYPES[type(x)] for x in (actual, expected)),
                                           rtol=rtol, atol=atol, id=id)
        self.equal_nan, self.check_dtype = equal_nan, check_dtype

    def compare(self) -> None:
        actual, expected = self.actual, self.expected
        if self.check_dtype and type(actual) is not type(expected):
            self._fail(AssertionError, f"The (d)types do not match: {type(actual)} != {type(expected)}.")
        if actual == expected or (self.equal_nan and cmath.isnan(actual) and cmath.isnan(expected)):
            return
        abs_diff = abs(actual - expected)
        if cmath.isfinite(abs_diff) and abs_diff <= self.atol + self.rtol * abs(expected):
            return
        self._fail(AssertionError, _scalar_mismatch_msg(actual, expected, rtol=self.rtol, atol=self.atol))


class _TensorLikePair(_Pair):
    def __init__(self, actual, expected, *, id: tuple, allow_subclasses=True, rtol=None, atol=None, equal_nan=False,
                 check_device=True, check_dtype=True, check_layout=True, check_stride=False, **options) -> None:
        # A tensor and a NumPy array (or a number) are not a pair: one type must be an instance of the other's.
        if not (isinstance(actual, type(expected)) or isinstance(expected, type(actual))):
            raise _Unsupported
        if not allow_subclasses and type(actual) is not type(expected):
            raise _Unsupported
        actual, expected = (self._to_tensor(x) for x in (actual, expected))
        super().__init__(actual, expected, id)
        self.rtol, self.atol = _tolerances(actual.dtype, expected.dtype, rtol=rtol, atol=atol, id=id)
        self.equal_nan = equal_nan
        self.check_device, self.check_dtype, self.check_layout, self.check_stride = (
            check_device, check_dtype, check_layout, check_stride)

    @staticmethod
    def _to_tensor(tensor_like) -> Tensor:
        if isinstance(tensor_like, Tensor):
            return tensor_like
        from ._creation import as_tensor
        try:
            return as_tensor(tensor_like)
        except Exception:
            raise _Unsupported from None

    def compare(self) -> None:
        actual, expected = self.actual, self.expected

        def attribute(name: str, a, e) -> None:
            self._fail(AssertionError, f"The values for attribute '{name}' do not match: {a} != {e}.")

        if actual.shape != expected.shape:
            attribute("shape", actual.shape, expected.shape)
        if actual.layout != expected.layout:
            if self.check_layout:
                attribute("layout", actual.layout, expected.layout)
        elif self.check_stride and actual.stride() != expected.stride():
            attribute("stride()", actual.stride(), expected.stride())
        if self.check_device and actual.device != expected.device:
            attribute("device", actual.device, expected.device)
        if self.check_dtype and actual.dtype != expected.dtype:
            attribute("dtype", actual.dtype, expected.dtype)

        # Values compare in the promoted dtype (only reached with check_dtype=False when the dtypes differ).
        actual, expected = actual.detach(), expected.detach()
        if actual.dtype != expected.dtype:
            dtype = _dtypes.promote_types(actual.dtype, expected.dtype)
            actual, expected = actual.to(dtype), expected.to(dtype)
        matches = actual.isclose(expected, rtol=self.rtol, atol=self.atol, equal_nan=self.equal_nan)
        if bool(matches.all()):
            return
        if actual.dim() == 0:
            msg = _scalar_mismatch_msg(actual.item(), expected.item(), rtol=self.rtol, atol=self.atol)
        else:
            msg = _tensor_mismatch_msg(actual, expected, matches, rtol=self.rtol, atol=self.atol)
        self._fail(AssertionError, msg)


_PAIR_TYPES = (_NonePair, _BooleanPair, _NumberPair, _TensorLikePair)


def _item_path(id: tuple) -> str:
    return "".join(str([item]) for item in id)


def _originate_pairs(actual, expected, id: tuple = (), **options) -> list:
    """Walk nested sequences and mappings in step; pair up the leaves (phase one)."""
    sequence, mapping = collections.abc.Sequence, collections.abc.Mapping
    # strings are sequences of strings: "a"[0][0]... would never end
    if isinstance(actual, sequence) and not isinstance(actual, str) \
            and isinstance(expected, sequence) and not isinstance(expected, str):
        if len(actual) != len(expected):
            raise _ErrorMeta(AssertionError,
                             f"The length of the sequences mismatch: {len(actual)} != {len(expected)}", id=id)
        return [pair for i in range(len(actual)) for pair in _originate_pairs(actual[i], expected[i], (*id, i),
                                                                              **options)]
    if isinstance(actual, mapping) and isinstance(expected, mapping):
        actual_keys, expected_keys = set(actual.keys()), set(expected.keys())
        if actual_keys != expected_keys:
            missing, additional = sorted(expected_keys - actual_keys), sorted(actual_keys - expected_keys)
            raise _ErrorMeta(AssertionError, f"The keys of the mappings do not match:\n"
                                             f"Missing keys in the actual mapping: {missing}\n"
                                             f"Additional keys in the actual mapping: {additional}", id=id)
        keys = actual_keys
        with contextlib.suppress(Exception):   # sorted when the keys allow it, for a deterministic first failure
            keys = sorted(keys)
        return [pair for key in keys for pair in _originate_pairs(actual[key], expected[key], (*id, key), **options)]
    for pair_type in _PAIR_TYPES:
        try:
            return [pair_type(actual, expected, id=id, **options)]
        except _Unsupported:
            continue
        except _ErrorMeta:
            raise
        except Exception as error:
            raise RuntimeError(
                f"Originating a {pair_type.__name__[1:]}() at item {_item_path(id)} with\n\n"
                f"{type(actual).__name__}(): {actual}\n\nand\n\n{type(expected).__name__}(): {expected}\n\n"
                "resulted in the unexpected exception above. If you are a user and see this message during normal "
                "operation please file an issue at https://github.com/pytorch/pytorch/issues. If you are a developer "
                "and working on the comparison functions, please except the previous error and raise an expressive "
                "`ErrorMeta` instead.") from error
    raise _ErrorMeta(TypeError, f"No comparison pair was able to handle inputs of type {type(actual)} "
                                f"and {type(expected)}.", id=id)


def assert_close(actual: Any, expected: Any, *, allow_subclasses: bool = True, rtol: float | None = None,
                 atol: float | None = None, equal_nan: bool = False, check_device: bool = True,
                 check_dtype: bool = True, check_layout: bool = True, check_stride: bool = False,
                 msg: str | Callable[[str], str] | None = None) -> None:
    """Raise PyTorch's AssertionError unless ``actual`` and ``expected`` are close (|a - e| <= atol + rtol * |e|)."""
    __tracebackhide__ = True   # pytest: show the caller's line, not this function's
    try:
        pairs = _originate_pairs(actual, expected, allow_subclasses=allow_subclasses, rtol=rtol, atol=atol,
                                 equal_nan=equal_nan, check_device=check_device, check_dtype=check_dtype,
                                 check_layout=check_layout, check_stride=check_stride)
    except _ErrorMeta as meta:
        raise meta.to_error() from None
    for pair in pairs:
        try:
            pair.compare()
        except _ErrorMeta as meta:
            raise meta.to_error(msg) from None


_ALLCLOSE_DEPRECATED = (
    "`torch.testing.assert_allclose()` is deprecated since 1.12 and will be removed in a future release. Please use "
    "`torch.testing.assert_close()` instead. You can find detailed upgrade instructions in "
    "https://github.com/pytorch/pytorch/issues/61844.")


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None, atol: float | None = None,
                    equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated ``assert_close`` with looser defaults, NaNs equal and dtypes not checked (warns FutureWarning)."""
    warnings.warn(_ALLCLOSE_DEPRECATED, FutureWarning, stacklevel=2)
    from ._creation import tensor
    if not isinstance(actual, Tensor):
        actual = tensor(actual)
    if not isinstance(expected, Tensor):
        expected = tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = _default_tolerances(actual.dtype, expected.dtype, precisions={
            _dtypes.float16: (1e-3, 1e-3), _dtypes.float32: (1e-4, 1e-5), _dtypes.float64: (1e-5, 1e-8)})
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True, check_dtype=False,
                 check_stride=False, msg=msg or None)


assert_allclose.__deprecated__ = _ALLCLOSE_DEPRECATED   # as typing_extensions.deprecated marks it


# ---- make_tensor ----

_INTEGRAL = (_dtypes.uint8, _dtypes.int8, _dtypes.int16, _dtypes.int32, _dtypes.int64)
_BOOL_OR_INTEGRAL = (_dtypes.bool_, *_INTEGRAL)
_FLOATING_OR_COMPLEX = (_dtypes.float16, _dtypes.bfloat16, _dtypes.float32, _dtypes.float64, _dtypes.complex64,
                        _dtypes.complex128)


def _low_high(low, high, dtype, *, lowest: float, highest: float, default_low: float, default_high: float):
    """The user's bounds (or the defaults), checked and clamped to what the dtype holds; integers are ceiled."""
    low = default_low if low is None else low
    high = default_high if high is None else high
    if any(isinstance(v, float) and math.isnan(v) for v in (low, high)):
        raise ValueError(f"`low` and `high` cannot be NaN, but got {low=} and {high=}")
    if low == high and dtype in _FLOATING_OR_COMPLEX:
        warnings.warn("Passing `low==high` to `torch.testing.make_tensor` for floating or complex types is "
                      "deprecated since 2.1 and will be removed in 2.3. Use `torch.full(...)` instead.",
                      FutureWarning, stacklevel=3)
    elif low >= high:
        raise ValueError(f"`low` must be less than `high`, but got {low} >= {high}")
    elif high < lowest or low >= highest:
        raise ValueError(f"The value interval specified by `low` and `high` is [{low}, {high}), "
                         f"but {dtype} only supports [{lowest}, {highest})")
    low, high = min(max(low, lowest), highest), min(max(high, lowest), highest)
    if dtype in _BOOL_OR_INTEGRAL:
        # randint's high is exclusive, so both bounds are ceiled
        return math.ceil(low), math.ceil(high)
    return low, high


def make_tensor(*shape, dtype, device, low: float | None = None, high: float | None = None,
                requires_grad: bool = False, noncontiguous: bool = False, exclude_zero: bool = False,
                memory_format=None) -> Tensor:
    """A tensor of values drawn uniformly from ``[low, high)`` (default [-9, 9]), the same draws as PyTorch's."""
    from ._creation import empty, randint
    from ._ops import view_as_real
    if len(shape) == 1 and isinstance(shape[0], collections.abc.Sequence):
        shape = shape[0]
    shape = tuple(shape)
    if noncontiguous and memory_format is not None:
        raise ValueError(f"The parameters `noncontiguous` and `memory_format` are mutually exclusive, "
                         f"but got {noncontiguous=} and {memory_format=}")
    if requires_grad and dtype in _BOOL_OR_INTEGRAL:
        raise ValueError(f"`requires_grad=True` is not supported for boolean and integral dtypes, but got {dtype=}")
    noncontiguous = noncontiguous and math.prod(shape) > 1
    if noncontiguous:
        shape = (*shape[:-1], 2 * shape[-1])   # twice as wide, then every other column (offset 1)

    if dtype is _dtypes.bool_:
        low, high = _low_high(low, high, dtype, lowest=0, highest=2, default_low=0, default_high=2)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _INTEGRAL:
        info = _dtypes.iinfo(dtype)
        # randint cannot draw int64's maximum: its bounds are int64 too
        low, high = _low_high(low, high, dtype, lowest=info.min, highest=info.max + (dtype is not _dtypes.int64),
                              default_low=-9, default_high=10)
        result = randint(low, high, shape, device=device, dtype=dtype)
    elif dtype in _FLOATING_OR_COMPLEX:
        info = _dtypes.finfo(dtype)
        low, high = _low_high(low, high, dtype, lowest=info.min, highest=info.max, default_low=-9, default_high=9)
        result = empty(shape, device=device, dtype=dtype)
        target = view_as_real(result) if result.is_complex() else result
        # uniform_ needs high - low to be finite in the dtype: halve the range, then double the values
        if high - low >= info.max:
            target.uniform_(low / 2, high / 2).mul_(2)
        else:
            target.uniform_(low, high)
    else:
        raise TypeError(f"The requested dtype '{dtype}' is not supported by torch.testing.make_tensor(). "
                        "To request support, file an issue at: https://github.com/pytorch/pytorch/issues")

    if noncontiguous:
        result = result[..., 1::2]
    elif memory_format is not None:
        result = result.clone(memory_format=memory_format)
    if exclude_zero:
        result[result == 0] = 1 if dtype in _BOOL_OR_INTEGRAL else _dtypes.finfo(dtype).tiny
    if dtype in _FLOATING_OR_COMPLEX:
        result.requires_grad = requires_grad
    return result
