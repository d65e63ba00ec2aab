"""PyTorch's TypeErrors for arguments its Python binding cannot match to any signature of a function.

PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp) tries each overload of a function in turn.
When none fits it counts the *plausible* overloads (those taking as many arguments as were given): with exactly
one, it reports that overload's first bad argument ("prod(): argument 'dim' must be int, not NoneType"); else
it lists every overload ("received an invalid combination of arguments"), in the format of
torch/csrc/utils/invalid_arguments.cpp, reproduced here for the overloads minigrad's functions mirror.
"""
from __future__ import annotations

import functools
import numbers
import re

from ._dtypes import dtype


def type_name(value) -> str:
    """How PyTorch names the type of an argument (``Tensor``, ``NoneType``, ``list``, ``torch.dtype``,
    ``numpy.ndarray`` ...: a type from another package with its module)."""
    if isinstance(value, dtype):
        return "torch.dtype"
    cls = type(value)
    if cls.__module__ == "builtins" or cls.__module__.split(".")[0] == "minigrad":
        return cls.__name__
    return f"{cls.__module__}.{cls.__qualname__}"


def must_be(name: str, arg: str, expected: str, value, position: int | None = None) -> TypeError:
    """``name(): argument 'arg' (position n) must be expected, not <type>``."""
    where = "" if position is None else f" (position {position})"
    return TypeError(f"{name}(): argument '{arg}'{where} must be {expected}, not {type_name(value)}")


def for_method(error: TypeError, name: str) -> TypeError:
    """An invalid_combination() error as ``x.name(...)`` raises it: without self, the overloads as methods."""
    _, args, kwargs, options = error.invalid_call
    methods = tuple(m for m in (method_overload(o) for o in options) if m is not None)
    return invalid_combination(name, args[1:], kwargs, methods)


def method_overload(option: str) -> str | None:
    """An overload as PyTorch's method form prints it: no leading tensor (self), no ``out=``; None if the
    overload cannot be a method (``(Number self, Tensor other)``)."""
    params = option[1:-1].split(", ")
    if not params[0].startswith("Tensor "):
        return None
    params = [p for p in params[1:] if not p.endswith(" out = None")]
    if params and params[-1] == "*":
        params.pop()
    return "(" + ", ".join(params) + ")"


def invalid_combination(name: str, args: tuple, kwargs: dict, options: tuple) -> TypeError:
    """PyTorch's "received an invalid combination of arguments" error, listing ``options`` (its overloads).

    ``args`` / ``kwargs`` are what the caller passed; ``options`` the overloads as PyTorch prints them,
    e.g. ``"(Tensor input, *, torch.dtype dtype = None)"``. The call is kept on the error (``invalid_call``):
    raised through a Tensor method (see ``install_method_forms``), it is reworded as PyTorch's method form.
    """
    error = TypeError(_invalid_combination_text(name, args, kwargs, options))
    error.invalid_call = (name, args, kwargs, tuple(options))
    return error


def _invalid_combination_text(name: str, args: tuple, kwargs: dict, options: tuple) -> str:
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
    return "\n".join(lines) + "\n"


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
        text = _detailed_type_name(value) if i < len(args) else f"{name}={_detailed_type_name(value)}"
        parts.append(text if ok else f"!{text}!")
    return "(" + ", ".join(parts) + ")"


def _detailed_type_name(value) -> str:
    """type_name, with the elements' types of a list or tuple (``list of [int, float]``, ``tuple of (int, str)``)."""
    if type(value) is list:
        return "list of [" + ", ".join(type_name(v) for v in value) + "]"
    if type(value) is tuple:
        return "tuple of (" + ", ".join(type_name(v) for v in value) + ")"
    return type_name(value)


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
    "mm bmm mode msort mv nan_to_num nanmean nansum neg negative nonzero outer permute pinverse positive prod ravel "
    "real reshape resize_as_ roll round scatter_add select sgn sign slogdet softmax sort split_with_sizes "
    "square squeeze swapaxes swapdims t take take_along_dim tile topk trace transpose tril triu trunc unbind "
    "unflatten unique_consecutive unsqueeze view_as_complex view_as_real zero_").split())
TENSOR_FIRST.update({"unique": ("_unique2", "input"), "repeat_interleave": ("repeat_interleave", "repeats")})
# ... and whose second positional argument must be a tensor too (its name in PyTorch's message).
TENSOR_SECOND = {"allclose": "other", "arctan2": "other", "atan2": "other", "bincount": "weights", "cross": "other",
                 "dist": "other", "dot": "tensor", "equal": "other", "ger": "vec2", "hypot": "other",
                 "isclose": "other", "logaddexp": "other", "logaddexp2": "other", "masked_select": "mask", "mv": "vec",
                 "outer": "vec2", "take": "index", "take_along_dim": "indices",
                 "mm": "mat2", "bmm": "mat2"}


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
OVERLOADS["clamp_min"] = ("(Tensor input, Tensor min, *, Tensor out = None)",
                          "(Tensor input, Number min, *, Tensor out = None)")
OVERLOADS["clamp_max"] = ("(Tensor input, Tensor max, *, Tensor out = None)",
                          "(Tensor input, Number max, *, Tensor out = None)")


def no_overload(name: str, *args, **kwargs) -> TypeError:
    """PyTorch's "invalid combination of arguments" error for ``name(*args, **kwargs)`` (see OVERLOADS)."""
    return invalid_combination(name, args, kwargs, OVERLOADS[name])


# ---- the method form: ``x.sum(keepdim=True)`` ----------------------------------------------------------

# Tensor methods whose functions may raise an invalid_combination() error with a tensor first argument (the
# method's name is the one in the message: ``x.clip_(...)`` says "clip_()", though minigrad's clip_ is clamp_).
# The comparisons (eq, lt ...) have method versions of their own in _ops: x == y stays wrapper-free.
METHOD_FORMS = ("sum", "mean", "prod", "max", "min", "clamp", "clamp_", "clip", "clip_", "clamp_min", "clamp_min_",
                "clamp_max", "clamp_max_", "sort", "argsort")
# minigrad.* aliases whose message names them, not the function they share (``torch.clip`` says "clip()").
FUNCTION_ALIASES = ("clip", "clip_")


def method_form(fn, name: str):
    """``fn`` as the Tensor method ``name``: an invalid_combination() error comes out in the method form."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except TypeError as e:
            if not hasattr(e, "invalid_call"):
                raise
            raise for_method(e, name) from None
    method.__name__ = name
    return method


def renamed(fn, name: str):
    """``fn`` under another name (an alias): its invalid_combination() errors name ``name``."""
    @functools.wraps(fn)
    def alias(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if not hasattr(e, "invalid_call"):
                raise
            _, args_, kwargs_, options = e.invalid_call
            raise invalid_combination(name, args_, kwargs_, options) from None
    alias.__name__ = name
    return alias


def install_method_forms(tensor_class, namespace: dict) -> None:
    """Wrap the METHOD_FORMS methods of ``tensor_class`` and rename the FUNCTION_ALIASES of ``namespace``."""
    for name in METHOD_FORMS:
        fn = getattr(tensor_class, name, None)
        if fn is not None:
            setattr(tensor_class, name, method_form(fn, name))
    for name in FUNCTION_ALIASES:
        if name in namespace:
            namespace[name] = renamed(namespace[name], name)


# ---- tuples of ints, and the positions a method counts ------------------------------------------------

def _is_int(value) -> bool:
    """An int as PyTorch's parser reads one: a Python or NumPy integer, not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def int_list(name: str, arg: str, value, position: int | None, one_int: bool = False) -> tuple:
    """``value`` parsed as PyTorch parses a ``tuple of ints`` argument, or PyTorch's TypeError.

    A list or tuple passes its type check when its first element is an int; a later non-int fails only while
    unpacking, with another message. One int is accepted where ``one_int`` (PyTorch's ``int[1]``).
    ``position`` is None for an argument given by keyword.
    """
    if one_int and _is_int(value):
        return (int(value),)
    if not isinstance(value, (tuple, list)):
        raise must_be(name, arg, "tuple of ints", value, position)
    if value and not _is_int(value[0]):
        if position is None:
            raise must_be(name, arg, "tuple of ints", value)
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be tuple of ints, but found element "
                        f"of type {type_name(value[0])} at pos 0")
    for i, v in enumerate(value):
        if not _is_int(v):
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type_name(v)}\"")
    return tuple(int(v) for v in value)


# "(position 2)" and "takes from 1 to 3 positional arguments but 4 were given": the numbers a method lowers.
_COUNTED = re.compile(r"\(position \d+\)|takes (from \d+ to )?\d+ positional arguments? but \d+ (were|was) given")


def counting_without_self(fn, name: str):
    """``fn`` as the Tensor method ``name``: PyTorch's method does not count self among the positional
    arguments its TypeErrors number ("rot90(): argument 'k' (position 1)"; the function says position 2)."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except TypeError as e:
            text = str(e)
            if not (text.startswith(f"{name}()") and _COUNTED.search(text)):
                raise
            lowered = _COUNTED.sub(lambda m: re.sub(r"\d+", lambda n: str(int(n.group()) - 1), m.group()), text)
            raise TypeError(lowered) from None
    method.__name__ = name
    return method


REQUIRED = object()  # a parameter of bind() without a default


def bind(name: str, args: tuple, kwargs: dict, params: dict) -> dict:
    """{parameter: (value, position)} for the call ``name(*args, **kwargs)`` of a function with ``params``
    ({name: default or REQUIRED}, in order); position is 1-based, None for a keyword or a default.

    Raises PyTorch's TypeErrors for too many positional arguments, unknown or repeated keywords and missing
    arguments (which PyTorch words as "missing 1 required positional arguments: "dims"").
    """
    names = list(params)
    if len(args) > len(names):
        required = sum(1 for v in params.values() if v is REQUIRED)
        takes = f"{len(names)}" if required == len(names) else f"from {required} to {len(names)}"
        raise TypeError(f"{name}() takes {takes} positional arguments but {len(args)} were given")
    bound = {n: (v, i + 1) for i, (n, v) in enumerate(zip(names, args))}
    for key, value in kwargs.items():
        if key not in params:
            raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if key in bound:
            raise TypeError(f"{name}() got multiple values for argument '{key}'")
        bound[key] = (value, None)
    missing = [n for n in names if n not in bound and params[n] is REQUIRED]
    if missing:
        # (PyTorch's plural is the wrong way round)
        plural = "s" if len(missing) == 1 else ""
        raise TypeError(f"{name}() missing {len(missing)} required positional argument{plural}: "
                        + ", ".join(f'"{n}"' for n in missing))
    return {n: bound.get(n, (params[n], None)) for n in names}


def check_product_args(name: str, tensors: dict, beta, alpha) -> None:
    """PyTorch's TypeErrors for ``addmm`` / ``baddbmm`` (``tensors``: {argument name: value}, in order):
    a non-tensor operand by its position, a beta or alpha that is not a number by the overloads."""
    from ._tensor import Tensor
    for position, (arg, value) in enumerate(tensors.items(), 1):
        if not isinstance(value, Tensor):
            raise must_be(name, arg, "Tensor", value, position)
    scalars = {k: v for k, v in (("beta", beta), ("alpha", alpha)) if not (type(v) is int and v == 1)}
    if any(not isinstance(v, (numbers.Number, Tensor)) for v in scalars.values()):
        m1, m2 = list(tensors)[1:]
        options = tuple(f"(Tensor input, Tensor {m1}, Tensor {m2}, {extra}*, Number beta = 1, Number alpha = 1, "
                        "Tensor out = None)" for extra in ("", "torch.dtype out_dtype, "))
        raise invalid_combination(name, tuple(tensors.values()), scalars, options)


METHOD_SECOND = {"mm": "mat2", "bmm": "mat2"}  # Tensor methods whose (first) argument must be a tensor


def install_method_second(tensor_class) -> None:
    """``x.mm(3)``: PyTorch's "argument 'mat2' (position 1) must be Tensor", checked once the call failed."""
    for name, arg in METHOD_SECOND.items():
        method = getattr(tensor_class, name)

        def checked(self, *args, __method=method, __name=name, __arg=arg, **kwargs):
            try:
                return __method(self, *args, **kwargs)
            except Exception:
                if args and not isinstance(args[0], tensor_class):
                    raise must_be(__name, __arg, "Tensor", args[0], 1) from None
                raise
        setattr(tensor_class, name, functools.wraps(method)(checked))
