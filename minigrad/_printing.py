"""Tensor printing: a NumPy port of PyTorch's ``torch/_tensor_str.py``; reprs match byte for byte.

The layout rules (one shared width per tensor, integer / fixed / scientific notation, ``...``
summaries, line wrapping, suffixes) follow the PyTorch source function by function; the names
below mirror it so the two can be read side by side.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any

import numpy as np

from . import _dtypes


@dataclasses.dataclass
class _PrinterOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: bool | None = None


PRINT_OPTS = _PrinterOptions()

# profile name -> (precision, threshold, edgeitems, linewidth)
_PROFILES = {
    "default": (4, 1000, 3, 80),
    "short": (2, 1000, 2, 80),
    "full": (4, math.inf, 3, 80),
}


def set_printoptions(precision=None, threshold=None, edgeitems=None, linewidth=None,
                     profile=None, sci_mode=None) -> None:
    """Set print options as torch.set_printoptions does (a profile first, then explicit values)."""
    if profile in _PROFILES:  # like torch, an unknown profile name is silently ignored
        (PRINT_OPTS.precision, PRINT_OPTS.threshold,
         PRINT_OPTS.edgeitems, PRINT_OPTS.linewidth) = _PROFILES[profile]
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    # Unlike the others, sci_mode is always overwritten: omitting it resets it to automatic.
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for set_printoptions."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs):
    """Context manager that sets print options and restores the previous ones on exit."""
    old = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**old)


class _Formatter:
    """Chooses one notation and one column width for every element of a (real) tensor."""

    def __init__(self, values: np.ndarray, floating: bool):
        self.floating_dtype = floating
        self.int_mode = True  # all finite values are whole numbers: print "2." not "2.0000"
        self.sci_mode = False
        self.max_width = 1
        flat = values.reshape(-1)
        self._is_bool = flat.dtype == np.bool_

        if not floating:  # integers and bools print as Python prints them
            # PyTorch measures every value; the widest is the largest or the most negative one
            extremes = flat.tolist() if flat.size <= 16 else (flat.min().item(), flat.max().item())
            self.max_width = max((len(str(v)) for v in extremes), default=1)
            self._spec = f"{self.max_width}"
            return

        # Only nonzero finite values decide the notation; zeros, nan and inf fit any of them.
        finite = flat[np.isfinite(flat) & (flat != 0)]
        if finite.size:
            magnitudes = np.abs(finite)
            lo, hi = float(magnitudes.min()), float(magnitudes.max())  # compared in float64, as in PyTorch
            self.int_mode = bool(np.all(finite == np.ceil(finite)))
            if PRINT_OPTS.sci_mode is None:
                with np.errstate(over="ignore"):  # huge / subnormal is inf, which is just "> 1000"
                    self.sci_mode = bool(hi / lo > 1000.0 or hi > 1.0e8 or lo < 1.0e-4)
            else:
                self.sci_mode = PRINT_OPTS.sci_mode
            # PyTorch measures every value, but a printed length only grows with the magnitude (digits
            # before the point, or the exponent's digits for the largest or smallest one) plus the sign:
            # the extremes of each sign hold the widest.
            if finite.size <= 16:  # (cheaper than four reductions)
                extremes = finite.tolist()
            else:
                positive, negative = finite[finite > 0], finite[finite < 0]
                extremes = [float(f(side)) for side in (positive, negative) if side.size for f in (np.min, np.max)]
            p = PRINT_OPTS.precision
            for value in extremes:
                if self.sci_mode:
                    width = len(f"{value:.{p}e}")
                elif self.int_mode:
                    width = len(f"{value:.0f}") + 1  # room for the trailing "." that marks a float
                else:
                    width = len(f"{value:.{p}f}")
                self.max_width = max(self.max_width, width)
        # One format spec prints an element padded to the column width. "#.0f" is "2." ("inf" stays
        # "inf"), just as PyTorch appends "." to the whole numbers of int_mode.
        p, w = PRINT_OPTS.precision, self.max_width
        self._spec = f"{w}.{p}e" if self.sci_mode else f"#{w}.0f" if self.int_mode else f"{w}.{p}f"

    def width(self) -> int:
        return self.max_width

    def format(self, value) -> str:
        if self._is_bool:  # (bools have no numeric format spec of their own)
            return str(value).rjust(self.max_width)
        return format(value, self._spec)


def _element_str(value, formatter1: _Formatter, formatter2: _Formatter | None) -> str:
    """One element; complex values use formatter1 for the real part, formatter2 for the imag."""
    if formatter2 is None:
        return formatter1.format(value)
    real_str = formatter1.format(value.real)
    imag_str = (formatter2.format(value.imag) + "j").lstrip()
    # the imaginary part brings its own sign when negative (or when sci_mode pads with "+")
    if imag_str[0] in "+-":
        return real_str + imag_str
    return real_str + "+" + imag_str


def _vector_str(data: np.ndarray, indent: int, summarize: bool,
                formatter1: _Formatter, formatter2: _Formatter | None) -> str:
    # each element takes its width plus ", "; complex adds the imaginary width and the "j"
    element_length = formatter1.width() + 2
    if formatter2 is not None:
        element_length += formatter2.width() + 1
    elements_per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / element_length))

    def fmt(values: np.ndarray) -> list[str]:
        if formatter2 is None and not formatter1._is_bool:  # the common case, one format() per element
            spec = formatter1._spec
            return [format(v, spec) for v in values.tolist()]
        return [_element_str(v, formatter1, formatter2) for v in values.tolist()]

    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        strs = ["..."]
    elif summarize and data.shape[0] > 2 * edge:
        strs = fmt(data[:edge]) + [" ..."] + fmt(data[-edge:])
    else:
        strs = fmt(data)

    lines = [", ".join(strs[i:i + elements_per_line])
             for i in range(0, len(strs), elements_per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str_with_formatter(data: np.ndarray, indent: int, summarize: bool,
                               formatter1: _Formatter, formatter2: _Formatter | None = None) -> str:
    if data.ndim == 0:
        return _element_str(data.item(), formatter1, formatter2)
    if data.ndim == 1:
        return _vector_str(data, indent, summarize, formatter1, formatter2)

    n, edge = data.shape[0], PRINT_OPTS.edgeitems
    if summarize and n > 2 * edge:
        rows = [*range(edge), None, *range(n - edge, n)]  # None marks the "..." row
    else:
        rows = range(n)
    slices = ["..." if i is None else
              _tensor_str_with_formatter(data[i], indent + 1, summarize, formatter1, formatter2)
              for i in rows]
    # sub-tensors are separated by one blank line per dimension beyond the second
    return "[" + ("," + "\n" * (data.ndim - 1) + " " * (indent + 1)).join(slices) + "]"


def _summarized_data(data: np.ndarray) -> np.ndarray:
    """Only the elements a summarized print shows, so the formatter sizes columns for those."""
    edge = PRINT_OPTS.edgeitems
    if data.ndim == 0:
        return data
    if data.ndim == 1:
        # with edge == 0, data[-0:] is the whole vector, exactly as in PyTorch
        return np.concatenate((data[:edge], data[-edge:])) if data.shape[0] > 2 * edge else data
    if not edge:
        return np.empty((0,) * data.ndim, data.dtype)
    n = data.shape[0]
    # (by index ranges, as PyTorch: a negative edgeitems selects no rows, which torch.stack refuses)
    rows = [*range(edge), *range(n - edge, n)] if n > 2 * edge else range(n)
    if not rows:
        raise RuntimeError("stack expects a non-empty TensorList")
    return np.stack([_summarized_data(data[i]) for i in rows])


def _tensor_str(data: np.ndarray, dtype, indent: int) -> str:
    if data.size == 0:
        return "[]"
    summarize = data.size > PRINT_OPTS.threshold
    if dtype is not _dtypes.complex32:   # (whose values format_tensor took out of their float16 pairs)
        data = data.astype(dtype.np, copy=False)  # e.g. round float32 storage to a bfloat16 dtype
    # PyTorch formats every float through Python floats (Tensor.item / tolist), i.e. as float64;
    # tolist() converts exactly, so only bfloat16 (whose ml_dtypes scalars are not Python floats)
    # is widened here: a big summarised tensor is not copied whole.
    if dtype is _dtypes.bfloat16:
        data = data.astype(np.float64)
    shown = _summarized_data(data) if summarize else data  # the formatter sizes only what is printed
    if dtype.is_complex:
        formatters = (_Formatter(shown.real, True), _Formatter(shown.imag, True))
    else:
        formatters = (_Formatter(shown, dtype.is_floating_point), None)
    return _tensor_str_with_formatter(data, indent, summarize, *formatters)


def _add_suffixes(tensor_str: str, suffixes: list[str], indent: int, force_newline: bool) -> str:
    tensor_strs = [tensor_str]
    # PyTorch's arithmetic, kept as is: it counts 2 more than the last line's length
    last_line_len = len(tensor_str) - tensor_str.rfind("\n") + 1
    for suffix in suffixes:
        if force_newline or last_line_len + len(suffix) + 2 > PRINT_OPTS.linewidth:
            tensor_strs.append(",\n" + " " * indent + suffix)
            last_line_len = indent + len(suffix)
            force_newline = False
        else:
            tensor_strs.append(", " + suffix)
            last_line_len += len(suffix) + 2
    tensor_strs.append(")")
    return "".join(tensor_strs)


def format_meta(shape, dtype, *, requires_grad: bool = False, grad_fn_name: str | None = None) -> str:
    """The repr PyTorch gives a meta tensor: no values, its device and size (its dtype unless the default float)."""
    suffixes = ["device='meta'", f"size={tuple(shape)}"]
    if dtype != _dtypes.get_default_dtype():
        suffixes.append(f"dtype={dtype!r}")
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    return _add_suffixes("tensor(...", suffixes, len("tensor("), force_newline=False)


def format_tensor(data: np.ndarray, dtype, *, requires_grad: bool = False,
                  grad_fn_name: str | None = None, prefix: str = "tensor(",
                  indent: int | None = None, tangent=None, tensor_contents: str | None = None) -> str:
    """The repr PyTorch gives a CPU tensor with these values, dtype and autograd state.

    ``tensor_contents`` (Tensor.__repr__'s keyword) replaces the printed values; the suffixes stay.
    """
    data = np.asarray(data)
    if _dtypes.is_complex32(data.dtype):   # (complex32: its values, printed as complex64's would be)
        data = _dtypes.complex32_values(data)
    if indent is None:
        indent = len(prefix)
    default = _dtypes.get_default_dtype()
    suffixes = []
    if data.size == 0:
        # NumPy-style: the shape is shown unless it is (0,); the dtype unless it is the
        # default float, since an empty tensor has no digits that would reveal it
        if data.ndim != 1:
            suffixes.append(f"size={tuple(data.shape)}")
        if dtype != default:
            suffixes.append(f"dtype={dtype!r}")
        tensor_str = "[]"
    else:
        if not PRINT_OPTS.edgeitems:
            suffixes.append(f"size={tuple(data.shape)}")
        # int64 and bool are recognisable from the digits, so they need no suffix
        if dtype not in (default, _dtypes.default_complex(), _dtypes.int64, _dtypes.bool_):
            suffixes.append(f"dtype={dtype!r}")
        tensor_str = _tensor_str(data, dtype, indent) if tensor_contents is None else ""
    if tensor_contents is not None:
        tensor_str = tensor_contents

    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif requires_grad:
        suffixes.append("requires_grad=True")
    if tangent is not None:  # a dual tensor (forward AD) shows its tangent
        suffixes.append(f"tangent={tangent}")
    return _add_suffixes(prefix + tensor_str, suffixes, indent, force_newline=False)
