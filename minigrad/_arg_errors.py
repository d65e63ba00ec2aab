"""PyTorch's TypeErrors for arguments its Python binding cannot match to any signature of a function.

PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp) tries each overload of a function in turn.
When none fits it counts the *plausible* overloads (those taking as many arguments as were given): with exactly
one, it reports that overload's first bad argument ("prod(): argument 'dim' must be int, not NoneType"); else
it lists every overload ("received an invalid combination of arguments"), in the format of
torch/csrc/utils/invalid_arguments.cpp, reproduced here for the overloads minigrad's functions mirror.
"""
from __future__ import annotations

import functools

from ._dtypes import dtype


def type_name(value) -> str:
    """How PyTorch names the type of an argument (``Tensor``, ``NoneType``, ``list``, ``torch.dtype`` ...)."""
    return "torch.dtype" if isinstance(value, dtype) else type(value).__name__


def must_be(name: str, arg: str, expected: str, value, position: int | None = None) -> TypeError:
    """``name(): argument 'arg' (position n) must be expected, not <type>``."""
    where = "" if position is None else f" (position {position})"
    return TypeError(f"{name}(): argument '{arg}'{where} must be {expected}, not {type_name(value)}")


def invalid_combination(name: str, args: tuple, kwargs: dict, options: tuple) -> TypeError:
    """PyTorch's "received an invalid combination of arguments" error, listing ``options`` (its overloads).

    ``args`` / ``kwargs`` are what the caller passed; ``options`` the overloads as PyTorch prints them,
    e.g. ``"(Tensor input, *, torch.dtype dtype = None)"``.
    """
    # PyTorch keeps the keywords in a C++ unordered_map: a few of them come out last given first. Its
    # description keeps a trailing ", " when only keywords were given (it trims only after positionals).
    keywords = list(reversed(kwargs.items()))
    got = "(" + "".join(f"{type_name(a)}, " for a in args) + "".join(f"{k}={type_name(v)}, " for k, v in keywords)
    got = (got[:-2] if args else got) + ")"
    lines = [f"{name}() received an invalid combination of arguments - got {got}, but expected one of:"]
    for option in options:
        lines.append(f" * {option}")
        # Its option parser splits on ", " ("*" and "x = None" count as arguments, the latter named "None").
        tokens = option[1:-1].split(", ")
        if len(tokens) != len(args) + len(kwargs):
            continue
        names = [t.rsplit(" ", 1)[-1] for t in tokens[max(len(tokens) - len(kwargs), 0):]]
        unmatched = [k for k, _ in keywords if k not in names]
        if unmatched:
            lines.append("      didn't match because some of the keywords were incorrect: " + ", ".join(unmatched))
        else:
            lines.append("      didn't match because some of the arguments have invalid types: "
                         + _marked_args(tokens, args, kwargs))
    return TypeError("\n".join(lines) + "\n")


# Argument types PyTorch's error formatter accepts for a printed type besides its own name.
_ALSO_MATCHING = {"int": ("int", "long"), "float": ("float", "int", "long")}


def _marked_args(tokens: list, args: tuple, kwargs: dict) -> str:
    """The given arguments, those not of their overload's type between "!" (PyTorch's uncoloured marks)."""
    parts = []
    for i, token in enumerate(tokens[:len(args) + len(kwargs)]):
        name = token.rsplit(" ", 1)[-1]  # (PyTorch's parser takes a token's last word as its name)
        value = args[i] if i < len(args) else kwargs.get(name)
        expected = token.rsplit(" ", 1)[0]  # ("bool keepdim = False": a type "bool keepdim =", matching nothing)
        ok = type_name(value) in _ALSO_MATCHING.get(expected, (expected,))
        text = type_name(value) if i < len(args) else f"{name}={type_name(value)}"
        parts.append(text if ok else f"!{text}!")
    return "(" + ", ".join(parts) + ")"


# ---- functions whose first argument must be a tensor -------------------------------------------------

# minigrad.* functions PyTorch binds with the tensor first in every overload: ``torch.floor(1.5)`` is
# "floor(): argument 'input' (position 1) must be Tensor, not float", checked before anything else (even a
# missing argument). Functions that check this themselves (the _unary family, relu, sum, mean, maximum ...)
# are not listed. Values: PyTorch's name and argument name where they are not the function's and "input".
TENSOR_FIRST = dict.fromkeys((
    "abs absolute allclose amax amin arccos arccosh arcsin arcsinh arctan arctan2 arctanh argmax argmin argsort "
    "argwhere atan2 bincount bitwise_not broadcast_to ceil chunk clone conj count_nonzero cross cummax cummin "
    "cumprod cumsum det detach diag diag_embed diagonal diff digamma dist dot equal fix flatten flip fliplr "
    "flipud floor frac gather ger heaviside histc hypot imag index_add index_select inverse isclose isfinite "
    "isinf isnan isneginf isposinf kthvalue lgamma log_softmax logaddexp logaddexp2 logcumsumexp logdet "
    "logical_and logical_not logical_or logical_xor logit logsumexp masked_select max max_pool2d median min "
    "mode msort mv nan_to_num nanmean nansum neg negative nonzero outer permute pinverse positive prod ravel "
    "real reshape resize_as_ roll round scatter_add select sgn sign slogdet softmax sort split_with_sizes "
    "square squeeze swapaxes swapdims t take take_along_dim tile topk trace transpose tril triu trunc unbind "
    "unflatten unique_consecutive unsqueeze view_as_complex view_as_real zero_").split())
TENSOR_FIRST.update({"unique": ("_unique2", "input"), "repeat_interleave": ("repeat_interleave", "repeats")})
# ... and whose second positional argument must be a tensor too (its name in PyTorch's message).
TENSOR_SECOND = {"allclose": "other", "arctan2": "other", "atan2": "other", "bincount": "weights", "cross": "other",
                 "dist": "other", "dot": "tensor", "equal": "other", "ger": "vec2", "hypot": "other",
                 "isclose": "other", "logaddexp": "other", "logaddexp2": "other", "masked_select": "mask", "mv": "vec",
                 "outer": "vec2", "take": "index", "take_along_dim": "indices"}


def tensor_first(fn, name: str, arg: str = "input", second: str | None = None):
    """``fn`` raising PyTorch's TypeError when its first (or ``second``) argument is not a tensor.

    Checked only once ``fn`` has failed (a number there fails, with another error): no cost on success.
    """
    from ._tensor import Tensor

    @functools.wraps(fn)
    def checked(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:
            first = args[0] if args else kwargs.get(arg, kwargs.get("input"))
            if not isinstance(first, Tensor):
                raise must_be(name, arg, "Tensor", first, 1) from None
            if second is not None and len(args) > 1 and not isinstance(args[1], Tensor):
                raise must_be(name, second, "Tensor", args[1], 2) from None
            raise
    return checked


def install_tensor_first(namespace: dict) -> None:
    """Replace the TENSOR_FIRST functions of a module namespace (``minigrad``) by their checked forms."""
    for key, spec in TENSOR_FIRST.items():
        if key in namespace:
            name, arg = spec if spec is not None else (key, "input")
            namespace[key] = tensor_first(namespace[key], name, arg, TENSOR_SECOND.get(key))


# PyTorch's overloads of two-argument functions, as its "invalid combination of arguments" error lists them
# (function forms), for the argument combinations that fit none (``torch.fmod(2.0, x)``).
_TT, _TN = "(Tensor input, Tensor other, *, Tensor out = None)", "(Tensor input, Number other, *, Tensor out = None)"
OVERLOADS = {
    "fmod": (_TT, _TN), "copysign": (_TT, _TN),
    "eq": (_TT, _TN), "ne": (_TT, _TN), "lt": (_TT, _TN), "le": (_TT, _TN), "gt": (_TT, _TN), "ge": (_TT, _TN),
    "remainder": (_TT, "(Number self, Tensor other)", _TN),
    "xlogy": (_TT, "(Number self, Tensor other, *, Tensor out = None)", _TN),
    "rsub": ("(Tensor input, Tensor other, *, Number alpha = 1)", "(Tensor input, Number other, Number alpha = 1)"),
    "pow": ("(Tensor input, Tensor exponent, *, Tensor out = None)",
            "(Number self, Tensor exponent, *, Tensor out = None)",
            "(Tensor input, Number exponent, *, Tensor out = None)"),
    "lerp": ("(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
             "(Tensor input, Tensor end, Number weight, *, Tensor out = None)"),
    "clamp": ("(Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
              "(Tensor input, Number min = None, Number max = None, *, Tensor out = None)"),
    "var": ("(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, Tensor out = None)",
            "(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, "
            "Tensor out = None)",
            "(Tensor input, bool unbiased = True)"),
}
OVERLOADS["where"] = ("(Tensor condition)", "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
                      "(Tensor condition, Number self, Tensor other)", "(Tensor condition, Tensor input, Number other)",
                      "(Tensor condition, Number self, Number other)")
OVERLOADS["float_power"] = OVERLOADS["pow"]
OVERLOADS["std"] = OVERLOADS["var"]


def no_overload(name: str, *args, **kwargs) -> TypeError:
    """PyTorch's "invalid combination of arguments" error for ``name(*args, **kwargs)`` (see OVERLOADS)."""
    return invalid_combination(name, args, kwargs, OVERLOADS[name])
