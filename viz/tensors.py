"""Duck-typed access to tensors of any PyTorch-compatible autograd library (torch, minigrad)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

# Text shown for a saved tensor that can no longer be read (graph freed by backward).
FREED = "freed"
NO_GRAD_YET = "no grad yet"


def is_tensor(obj: Any) -> bool:
    """True for objects that look like autograd tensors (torch or minigrad)."""
    if isinstance(obj, type):
        return False  # torch.Tensor the class has these attributes as descriptors

    def has(attr: str) -> bool:
        try:  # the class first: reading grad_fn itself may raise (see grad_fn_of)
            return hasattr(type(obj), attr) or hasattr(obj, attr)
        except Exception:  # exotic objects whose __getattr__ raises something odd
            return False

    return all(has(a) for a in ("grad_fn", "requires_grad", "detach", "shape"))


def grad_fn_of(t: Any) -> Any:
    """``t.grad_fn``, or None when reading it raises (an unbind/split output whose base was modified in place)."""
    try:
        return getattr(t, "grad_fn", None)
    except Exception:  # (backward raises the library's error again; the picture shows the tensor alone)
        return None


def grad_fn_error(t: Any) -> str | None:
    """The type of the error reading ``t.grad_fn`` raises, if it does."""
    try:
        getattr(t, "grad_fn", None)
    except Exception as e:
        return type(e).__name__
    return None


def to_numpy(t: Any) -> np.ndarray | None:
    """The values of a tensor as a NumPy array, or None when they cannot be read."""
    try:
        d = t.detach()
        d = d.cpu() if hasattr(d, "cpu") else d
        # PyTorch's lazy conj()/neg() views refuse .numpy() until their bit is resolved.
        for resolve in ("resolve_conj", "resolve_neg"):
            d = getattr(d, resolve)() if hasattr(d, resolve) else d
        return np.asarray(d.numpy())
    except Exception:
        pass
    for convert in (
        lambda d: d.clone(),  # an efficient zero tensor (2nd derivative of abs) refuses numpy(); a clone has memory
        lambda d: d.float(),  # e.g. torch bfloat16 has no NumPy dtype
        lambda d: d.to_dense(),  # a sparse gradient (Embedding(sparse=True))
        lambda d: d.dequantize(),  # a quantized tensor
    ):
        try:
            return np.asarray(convert(t.detach()).cpu().numpy())
        except Exception:
            pass
    return None


def shape_of(t: Any) -> tuple[int, ...]:
    """The shape as a plain tuple of ints (torch.Size prints differently)."""
    try:
        return tuple(int(s) for s in t.shape)
    except Exception:
        return ()


def dtype_name(t: Any) -> str:
    """'float32' for torch.float32, minigrad.float32 or numpy float32 alike."""
    return str(getattr(t, "dtype", "?")).rsplit(".", 1)[-1]


def version_of(t: Any) -> int | None:
    """A tensor's ``_version``, or None if it has none."""
    try:
        return int(t._version)
    except Exception:
        return None


def _flag(t: Any, name: str) -> bool:
    try:
        return bool(getattr(t, name)())
    except Exception:
        return False


def alias_key(t: Any) -> tuple | None:
    """Identity of the memory a tensor views: saved tensors are new objects over the same data."""
    try:
        ptr = int(t.data_ptr())
        key = (ptr, shape_of(t), tuple(int(s) for s in t.stride()), dtype_name(t))
    except Exception:
        return None
    # PyTorch's conj()/neg() are lazy views over the same memory: they still show other values.
    key += (_flag(t, "is_conj"), _flag(t, "is_neg"))
    return key if ptr else None  # empty tensors all sit at 0: never alias them


def _fmt_float(v: float) -> str:
    if math.isnan(v) or math.isinf(v):
        return str(v)
    return f"{v:.4g}"


def preview(arr: np.ndarray | None, max_chars: int = 48) -> str:
    """A short, deterministic one-line text of an array's values."""
    if arr is None:
        return "?"
    if arr.size == 1:
        v = arr.reshape(()).item()
        # (a complex one as in a longer array: 3 significant digits, not the 17 of str())
        text = _fmt_float(v) if isinstance(v, float) else f"{v:.3g}" if isinstance(v, complex) else str(v)
    else:
        # A formatter, not precision=: NumPy would pad numbers to align columns.
        fmt = {"float_kind": _fmt_float, "complex_kind": lambda v: f"{v:.3g}"}
        text = np.array2string(
            arr, threshold=6, edgeitems=2, separator=", ", max_line_width=10_000, formatter=fmt
        )
        text = " ".join(text.split())
    if len(text) > max_chars:
        text = text[: max_chars - 1] + "…"
    return text


def norm(arr: np.ndarray | None) -> float | None:
    """The L2 norm as a float (None when the values are unknown)."""
    if arr is None:
        return None
    try:
        arr = np.asarray(arr)
        wide = np.complex128 if np.iscomplexobj(arr) else np.float64  # (a complex norm is of the moduli)
        return float(np.linalg.norm(arr.astype(wide).ravel()))
    except Exception:
        return None


def node_type(fn: Any) -> str:
    """PyTorch's display name of a grad_fn node, e.g. 'MulBackward0'."""
    return type(fn).__name__
