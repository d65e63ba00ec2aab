"""PyTorch's TypeErrors for arguments its Python binding cannot match to any signature of a function.

PyTorch's argument parser (torch/csrc/utils/python_arg_parser.cpp) tries each overload of a function in turn.
When none fits it counts the *plausible* overloads (those taking as many arguments as were given): with exactly
one, it reports that overload's first bad argument ("prod(): argument 'dim' must be int, not NoneType"); else
it lists every overload ("received an invalid combination of arguments"), in the format of
torch/csrc/utils/invalid_arguments.cpp, reproduced here for the overloads minigrad's functions mirror.
minigrad's functions parse a call once it has failed (reparse), and before it runs when it carries a value of a
type their code might take where PyTorch's parser does not (check_first, parsed_first: at the end of this file).
"""
from __future__ import annotations

import functools
import numbers
import re
import sys

import numpy as np

from ._class_names import tp_name
from ._dtypes import dtype
from ._warn_once import warn_once


def type_name(value) -> str:
    """How PyTorch names the type of an argument (``Tensor``, ``NoneType``, ``list``, ``torch.dtype``,
    ``numpy.ndarray`` ...: a type from another package with its module)."""
    if isinstance(value, dtype):
        return "torch.dtype"
    cls = type(value)
    if cls.__module__ == "builtins" or cls.__module__.split(".")[0] == "minigrad":
        return tp_name(value)   # (torch.Size)
    return f"{cls.__module__}.{cls.__qualname__}"


def must_be(name: str, arg: str, expected: str, value, position: int | None = None) -> TypeError:
    """``name(): argument 'arg' (position n) must be expected, not <type>``."""
    where = "" if position is None else f" (position {position})"
    return TypeError(f"{name}(): argument '{arg}'{where} must be {expected}, not {type_name(value)}")


def for_method(error: TypeError, name: str) -> TypeError:
    """An invalid_combination() error as ``x.name(...)`` raises it: without self, the overloads as methods."""
    _, args, kwargs, options = error.invalid_call
    methods = tuple(m for m in (method_overload(o) for o in options) if m is not None)
    # (as for the function: an argument count that fits one overload only gets that overload's own error,
    # x.sort(1, 2, 3): "sort() takes from 1 to 0 positional arguments but 3 were given")
    nullable = ("dim",) if name in _NULLABLE_DIM else ("stable",) if name == "sort" else ()
    try:
        _resolve(name, [_signature(m, nullable) if m != "()" else [] for m in methods], args[1:], kwargs,
                 _unpack_lists, methods)
    except TypeError as own:   # (returned, not raised: the caller raises it, as every error built here)
        return own
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
    # PyTorch keeps the keywords in a C++ unordered_map (listed in its order). Its description keeps a
    # trailing ", " when only keywords were given (it trims only after positionals).
    keywords = [(k, kwargs[k]) for k in _unordered_map_order(list(kwargs))]
    got = "(" + "".join(f"{type_name(a)}, " for a in args) + "".join(f"{k}={type_name(v)}, " for k, v in keywords)
    got = (got[:-2] if args else got) + ")"
    if len(options) == 1:  # (one overload listed, others hidden: torch.add(x), "but expected (Tensor input, ...)")
        tokens = options[0][1:-1].split(", ")
        # (keywords not named by its last tokens: "Number alpha = 1" is named "1", so alpha never is)
        names = [t.rsplit(" ", 1)[-1] for t in tokens[max(len(tokens) - len(kwargs), 0):]]
        unmatched = [k for k, _ in keywords if k not in names]
        if unmatched:
            return f"{name}() received an invalid combination of arguments - got unrecognized keyword arguments: " \
                + ", ".join(unmatched)
        if len(tokens) == len(args) + len(kwargs) and not kwargs:   # (as many as its tokens: marked, as below)
            got = _marked_args(tokens, args, kwargs)
        return f"{name}() received an invalid combination of arguments - got {got}, but expected {options[0]}"
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


_M64 = (1 << 64) - 1
_MURMUR_MUL = (0xc6a4a793 << 32) + 0x5bd1e995


def _std_hash(text: str) -> int:
    """libstdc++'s std::hash<std::string>: _Hash_bytes (MurmurHash64A-like) with seed 0xc70f6907."""
    data = text.encode()
    n, aligned = len(data), len(data) & ~7
    h = 0xc70f6907 ^ (n * _MURMUR_MUL) & _M64
    for i in range(0, aligned, 8):
        k = int.from_bytes(data[i:i + 8], "little") * _MURMUR_MUL & _M64
        h = (h ^ ((k ^ k >> 47) * _MURMUR_MUL & _M64)) * _MURMUR_MUL & _M64
    if n & 7:
        h = (h ^ int.from_bytes(data[aligned:], "little")) * _MURMUR_MUL & _M64
    h = (h ^ h >> 47) * _MURMUR_MUL & _M64
    return h ^ h >> 47


def _unordered_map_order(keys: list) -> list:
    """The order a libstdc++ std::unordered_map<std::string, ...> filled with ``keys`` (in turn) iterates in.

    Its nodes form one list, each bucket's nodes in a run: a key whose bucket is empty goes to the list's head,
    otherwise to the head of its bucket's run. It starts with 13 buckets; past 13 keys it rehashes into more
    (a prime at least twice as many), walking the list and re-inserting each node the same way.
    """
    n_buckets, order = 13, []
    for count, key in enumerate(keys, 1):
        if count > n_buckets:  # (its prime rehash policy, load factor 1)
            n_buckets = next(p for p in range(2 * n_buckets, 4 * n_buckets)
                             if all(p % d for d in range(2, int(p ** 0.5) + 1)))
            order = _bucketed(order, n_buckets)
        order = _bucketed(order + [key], n_buckets, rehash=False)
    return order


def _bucketed(order: list, n_buckets: int, rehash: bool = True) -> list:
    """Insert ``order``'s last key (or, for a rehash, every key in turn) as libstdc++'s _M_insert_bucket_begin."""
    out = [] if rehash else order[:-1]
    for key in order if rehash else order[-1:]:
        bucket = _std_hash(key) % n_buckets
        run = next((i for i, k in enumerate(out) if _std_hash(k) % n_buckets == bucket), None)
        out.insert(0 if run is None else run, key)
    return out


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
    # (as in the "got (...)" description: a trailing ", " stays when only keywords were given)
    return "(" + ", ".join(parts) + (", " if kwargs and not args else "") + ")"


def _detailed_type_name(value) -> str:
    """type_name, with the elements' types of a list or tuple (``list of [int, float]``, ``tuple of (int, str)``)."""
    if type(value) is list:
        return "list of [" + ", ".join(type_name(v) for v in value) + "]"
    if type(value) is tuple:   # (written as a tuple is: ``tuple of (float,)``)
        return "tuple of (" + ", ".join(type_name(v) for v in value) + ("," if len(value) == 1 else "") + ")"
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
    "unflatten unique_consecutive unsqueeze view_as_complex view_as_real zero_ multinomial poisson bernoulli "
    "is_inference is_same_size is_signed is_floating_point is_complex is_nonzero numel fill histogramdd "
    "nuclear_norm squeeze_copy swapdims").split())
TENSOR_FIRST.update({"unique": ("_unique2", "input"), "repeat_interleave": ("repeat_interleave", "repeats")})
# ... and whose second positional argument must be a tensor too (its name in PyTorch's message).
TENSOR_SECOND = {"allclose": "other", "arctan2": "other", "atan2": "other", "bincount": "weights", "cross": "other",
                 "dist": "other", "dot": "tensor", "equal": "other", "ger": "vec2", "hypot": "other",
                 "isclose": "other", "logaddexp": "other", "logaddexp2": "other", "masked_select": "mask", "mv": "vec",
                 "outer": "vec2", "take": "index", "take_along_dim": "indices", "is_same_size": "other",
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
        except Exception as e:
            first = args[0] if args else kwargs.get(arg, kwargs.get("input"))
            if name in FUNCTION_OVERLOADS:  # (PyTorch's overloads decide: the plausible one's error, or the list)
                _resolve(name, _OVERLOADS_PARSED[name], args, kwargs, _unpack_lists, FUNCTION_OVERLOADS[name])
            if name in METHOD_SIGNATURES and not args and not kwargs:  # (torch.repeat_interleave(): the overloads)
                recheck(name, args, kwargs, method=False)
            # one overload: the parser checks the arguments given in order, then names the ones not given
            if name not in METHOD_SIGNATURES and not args and arg not in kwargs and "input" not in kwargs:
                missing_arguments(fn, name, args, kwargs, (arg, second))
            if not isinstance(first, Tensor):
                raise must_be(name, arg, "Tensor", first, 1) from None
            if second is not None and len(args) > 1 and not isinstance(args[1], Tensor):
                raise must_be(name, second, "Tensor", args[1], 2) from None
            if name not in METHOD_SIGNATURES:
                missing_arguments(fn, name, args, kwargs, (arg, second))
            if name in METHOD_SIGNATURES:
                recheck(name, args, kwargs, method=False)
            unnumbered = _by_keyword(str(e), name, kwargs)   # (torch.split_with_sizes(x, split_sizes=2))
            if unnumbered is not None:
                raise TypeError(unnumbered) from None
            raise
    return checked


def missing_arguments(fn, name: str, args: tuple, kwargs: dict, names: tuple = ()) -> None:
    """PyTorch's parser error if the call ``name(*args, **kwargs)`` leaves out required arguments of ``fn``:
    ``is_same_size() missing 1 required positional arguments: "other"`` (``names``: PyTorch's names of the first
    parameters, where fn's differ)."""
    import inspect
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return
    if any(p.kind is p.VAR_POSITIONAL for p in params):  # (x.permute(*dims): sizes as varargs, another parse)
        return
    params = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    torch_names = [names[i] if i < len(names) and names[i] else p.name for i, p in enumerate(params)]
    missing = [f'"{t}"' for i, (p, t) in enumerate(zip(params, torch_names))
               if p.default is p.empty and i >= len(args) and p.name not in kwargs and t not in kwargs]
    if missing:
        plural = "s" if len(missing) == 1 else ""  # (PyTorch's plural is the wrong way round)
        raise TypeError(f"{name}() missing {len(missing)} required positional argument{plural}: "
                        + ", ".join(missing)) from None


def install_tensor_first(namespace: dict) -> None:
    """Replace the TENSOR_FIRST functions of a module namespace (``minigrad``) by their checked forms."""
    for key, spec in TENSOR_FIRST.items():
        if key in namespace:
            name, arg = spec if spec is not None else (key, "input")
            namespace[key] = tensor_first(namespace[key], name, arg, TENSOR_SECOND.get(key))
    for key in ("narrow", "movedim"):  # (no tensor check: their errors for a bad dim, in the function form)
        namespace[key] = refused_function(namespace[key], key)


def refused_function(fn, name: str):
    """``fn`` as ``torch.name``: a failed call no overload accepts raises PyTorch's TypeError (function form)."""
    @functools.wraps(fn)
    def function(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception:
            recheck(name, args, kwargs, method=False)
            raise
    return function


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
OVERLOADS["result_type"] = ("(Tensor tensor, Tensor other)", "(Number scalar, Tensor tensor)",
                            "(Tensor tensor, Number other)", "(Number scalar1, Number scalar2)")


# PyTorch's overloads of TENSOR_FIRST functions as its parser lists them (function forms, hidden ones left out).
# A failed call is parsed against them as PyTorch does (_resolve): when the number of arguments given fits exactly
# one overload (between its required and all its parameters), that overload's own error ("missing 1 required
# positional arguments", "must be Tensor", "takes from 2 to 1 positional arguments"); when it fits none or several,
# "invalid combination of arguments" with the list: torch.mm(x) fits neither (Tensor input, Tensor mat2, ...) form.
FUNCTION_OVERLOADS = {
    "argsort": ("(Tensor input, *, bool stable, int dim = -1, bool descending = False, Tensor out = None)",
                "(Tensor input, int dim = -1, bool descending = False)"),
    "sort": ("(Tensor input, *, bool stable, int dim = -1, bool descending = False, tuple of Tensors out = None)",
             "(Tensor input, int dim = -1, bool descending = False, *, tuple of Tensors out = None)"),
    "bernoulli": ("(Tensor input, *, torch.Generator generator = None, Tensor out = None)",
                  "(Tensor input, float p, *, torch.Generator generator = None)"),
    "mm": ("(Tensor input, Tensor mat2, *, Tensor out = None)",
           "(Tensor input, Tensor mat2, torch.dtype out_dtype, *, Tensor out = None)"),
    "count_nonzero": ("(Tensor input, int dim = None)", "(Tensor input, tuple of ints dim)"),
    "fill": ("(Tensor input, Tensor value)", "(Tensor input, Number value)"),
    "histogram": ("(Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, "
                  "tuple of Tensors out = None)",
                  "(Tensor input, int bins = 100, *, tuple of floats range = None, Tensor weight = None, "
                  "bool density = False, tuple of Tensors out = None)"),
    "histogramdd": tuple(f"(Tensor input, {bins} bins, tuple of floats range = None, Tensor weight = None, "
                         "bool density = False)" for bins in ("int", "tuple of ints", "tuple of Tensors")),
    "nuclear_norm": ("(Tensor input, tuple of ints dim, bool keepdim = False, *, Tensor out = None)",
                     "(Tensor input, bool keepdim = False, *, Tensor out = None)"),
    "round": ("(Tensor input, *, Tensor out = None)", "(Tensor input, *, int decimals, Tensor out = None)"),
    "squeeze_copy": ("(Tensor input, *, Tensor out = None)", "(Tensor input, int dim, *, Tensor out = None)",
                     "(Tensor input, tuple of ints dim, *, Tensor out = None)"),
    # one overload each (their other forms are hidden): the parser names what is missing, by PyTorch's names
    "flip": ("(Tensor input, tuple of ints dims, *, Tensor out = None)",),
    "broadcast_to": ("(Tensor input, tuple of ints size)",),
    "tile": ("(Tensor input, tuple of ints dims)",),
    "swapaxes": ("(Tensor input, int axis0, int axis1)",),
    "swapdims": ("(Tensor input, int dim0, int dim1)",),
    "roll": ("(Tensor input, tuple of ints shifts, tuple of ints dims = [], *, Tensor out = None)",),
    "logsumexp": ("(Tensor input, tuple of ints dim, bool keepdim = False, *, Tensor out = None)",),
}
FUNCTION_OVERLOADS["bmm"] = FUNCTION_OVERLOADS["mm"]


def overload_error(name: str, options: tuple, args: tuple, kwargs: dict, nullable: tuple = ()) -> TypeError:
    """PyTorch's parser error for ``name(*args, **kwargs)``, a call none of the overloads ``options`` takes (as
    printed; ``nullable``: parameters their schemas make optional): the plausible overload's own error, or the
    list."""
    try:
        _resolve(name, [_signature(o, nullable) for o in options], args, kwargs, _unpack_lists, options)
    except TypeError as error:
        return error
    return invalid_combination(name, args, kwargs, options)


def no_overload(name: str, *args, **kwargs) -> TypeError:
    """PyTorch's "invalid combination of arguments" error for ``name(*args, **kwargs)`` (see OVERLOADS)."""
    return invalid_combination(name, args, kwargs, OVERLOADS[name])


# ---- the method form: ``x.sum(keepdim=True)`` ----------------------------------------------------------

# Tensor methods whose functions may raise an invalid_combination() error with a tensor first argument (the
# method's name is the one in the message: ``x.clip_(...)`` says "clip_()", though minigrad's clip_ is clamp_).
# The comparisons (eq, lt ...) have method versions of their own in _ops: x == y stays wrapper-free.
METHOD_FORMS = ("sum", "mean", "prod", "max", "min", "clamp", "clamp_", "clip", "clip_", "clamp_min", "clamp_min_",
                "clamp_max", "clamp_max_", "sort", "argsort", "squeeze", "squeeze_", "all", "any",
                "round", "round_")
# minigrad.* aliases whose message names them, not the function they share (``torch.clip`` says "clip()").
FUNCTION_ALIASES = ("clip", "clip_")


def method_form(fn, name: str):
    """``fn`` as the Tensor method ``name``: an invalid_combination() error comes out in the method form."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception as e:
            if loose_ints(name, args, kwargs):   # (x.squeeze(0, 1): checked once the call failed)
                return method(self, args)
            if name in METHOD_SIGNATURES:  # (the call as given: positional or keyword, as PyTorch tells them)
                recheck(name, args, kwargs, method=True)
            if not hasattr(e, "invalid_call") or getattr(e, "method_form", False):   # (method_error's: as is)
                raise
            raise for_method(e, name) from None
    method.__name__ = name
    return method


def renamed(fn, name: str):
    """``fn`` under another name (an alias): its parser errors (invalid_combination(), "argument ... must be")
    name ``name``."""
    own = f"{fn.__name__}(): argument "

    @functools.wraps(fn)
    def alias(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as e:
            if not hasattr(e, "invalid_call"):
                if str(e).startswith(own):
                    error = TypeError(name + str(e)[len(fn.__name__):])
                    error.__dict__.update(e.__dict__)   # (method_form ...)
                    raise error from None
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


def _is_int_tensor(value) -> bool:
    """A 0-dim integer (or bool) tensor, which PyTorch's parser reads as an int in a list of ints."""
    return (type_name(value) == "Tensor" and value.dim() == 0 and not value.dtype.is_floating_point
            and not value.dtype.is_complex)


def list_int(value) -> bool:
    """An element PyTorch's parser takes in a ``tuple of ints`` (is_int_or_symint): an int, or a one-element integer
    (or bool) tensor (``x.flip(torch.tensor([1]))``)."""
    if _is_int(value):
        return True
    return type_name(value) == "Tensor" and value.numel() == 1 and not value.dtype.is_floating_point \
        and not value.dtype.is_complex


# Tensor methods with an overload whose one positional parameter is an int list of no fixed size (x.squeeze(int[]
# dim)): PyTorch's parser takes loose ints for it, as for view and permute (x.squeeze(0, 1) is x.squeeze((0, 1))).
# Their functions do not: torch.squeeze(x, 0, 1) is refused.
LOOSE_INT_LISTS = frozenset(("squeeze", "squeeze_", "count_nonzero", "hsplit", "vsplit", "dsplit"))


def loose_ints(name: str, args: tuple, kwargs: dict) -> bool:
    """Whether the method call ``x.name(*args, **kwargs)`` gives its int list as loose ints (see LOOSE_INT_LISTS)."""
    return len(args) > 1 and not kwargs and name in LOOSE_INT_LISTS and list_int(args[0])


def check_int64(name: str, arg: str, values) -> None:
    """PyTorch's parser error for an int of an int list beyond int64, for a call that failed (its parser reads the
    ints before anything else runs). Its message goes on with C++ frames: left out after their heading."""
    for i, v in enumerate(values):
        if not -2**63 <= v < 2**63:
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
                            "\"Overflow when unpacking long long\nException raised from THPUtils_unpackLong at "
                            "/__w/pytorch/pytorch/torch/csrc/utils/python_numbers.h:79 (most recent call first):\n")


def int_list(name: str, arg: str, value, position: int | None, one_int: bool = False) -> tuple:
    """``value`` parsed as PyTorch parses a ``tuple of ints`` argument, or PyTorch's TypeError.

    A list or tuple passes its type check when its first element is an int; a later non-int fails only while
    unpacking, with another message. One int is accepted where ``one_int`` (PyTorch's ``int[1]``).
    ``position`` is None for an argument given by keyword.
    """
    if one_int and list_int(value):   # (x.roll(torch.tensor(2)))
        return (int(value),)
    if not isinstance(value, (tuple, list)):
        raise must_be(name, arg, "tuple of ints", value, position)
    if value and not list_int(value[0]):
        if position is None:
            raise must_be(name, arg, "tuple of ints", value)
        raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be tuple of ints, but found element "
                        f"of type {type_name(value[0])} at pos 0")
    for i, v in enumerate(value):   # (only the first is type-checked: a later bool unpacks as an index)
        if not list_int(v) and not (i and isinstance(v, (bool, np.bool_))):
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type_name(v)}\"")
    return tuple(int(v) for v in value)


# "(position 2)" and "takes from 1 to 3 positional arguments but 4 were given": the numbers a method lowers.
_COUNTED = re.compile(r"\(position \d+\)|takes (from \d+ to )?\d+ positional arguments? but \d+ (were|was) given")


def _plural(text: str) -> str:
    """A lowered count's grammar, as PyTorch's parser words it: "takes 0 positional arguments but 1 was given"."""
    text = re.sub(r"(?<!to )\b(\d+) positional arguments?\b",   # ("takes from 0 to 1 positional arguments")
                  lambda m: f"{m.group(1)} positional argument{'' if m.group(1) == '1' else 's'}", text)
    return re.sub(r"\b(\d+) (were|was) given", lambda m: f"{m.group(1)} {'was' if m.group(1) == '1' else 'were'} given",
                  text)


def _without_self(text: str) -> str:
    """``text``'s counts (_COUNTED) lowered by one, self not counted, with PyTorch's grammar."""
    return _COUNTED.sub(lambda m: _plural(re.sub(r"\d+", lambda n: str(int(n.group()) - 1), m.group())), text)


# Python's "unfold() missing 2 required positional arguments: 'size' and 'step'" (PyTorch's plural is the wrong way
# round, its names double-quoted: 'unfold() missing 2 required positional argument: "size", "step"', as bind's)
_PYTHON_MISSING = re.compile(r"missing (\d+) required positional arguments?: (.*)$")


def _parser_missing(missing: re.Match) -> str:
    """PyTorch's words for Python's "missing N required positional arguments: ..." (a _PYTHON_MISSING match)."""
    n, names = int(missing.group(1)), re.findall(r"'(\w+)'", missing.group(2))
    return f"missing {n} required positional argument{'s' if n == 1 else ''}: " + ", ".join(f'"{a}"' for a in names)


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
                refusal = parser_refusal(name, self, args, kwargs, e)   # (x.select(0): the parser's words)
                if refusal is not None:
                    raise refusal from None
                missing = _PYTHON_MISSING.search(text)
                if missing and _refused_binding(e):   # (no table to parse it with: x.unfold(0), the parser's words)
                    raise TypeError(f"{name}() " + _parser_missing(missing)) from None
                raise
            unnumbered = _by_keyword(text, name, kwargs)
            if unnumbered is not None:
                raise TypeError(unnumbered) from None
            raise TypeError(_without_self(text)) from None
    method.__name__ = name
    return method


def too_many(name: str, self, args: tuple, kwargs: dict) -> TypeError:
    """PyTorch's parser error for ``self.name(*args, **kwargs)``, a call with more positional arguments than the
    method takes. The functions Tensor methods share without a wrapper (the hot ones, x.mul) take the extra
    arguments as ``*_extra`` to raise this, as Python's own error would count self; raised through ``torch.name``,
    the function's wrapper words it as the function's (reparse)."""
    try:
        check_first_method(name, self, args, kwargs)
    except TypeError as error:
        error.method_form = True
        return error
    return TypeError(_plural(f"{name}() takes {len(args) - 1} positional arguments but {len(args)} were given"))


def parser_refusal(name: str, self, args: tuple, kwargs: dict, error: BaseException) -> TypeError | None:
    """PyTorch's parser error for ``self.name(*args, **kwargs)`` where ``error`` is Python's refusal to bind the
    call to minigrad's function (a wrapper's: its counts include self, its words are Python's, "missing 1 required
    positional argument: 'other'"); None for any other error, or a method with no table to parse it with."""
    from . import _parser_signatures as S
    if not (isinstance(error, TypeError) and _refused_binding(error)):
        return None
    if not (name in METHOD_SIGNATURES or name in S.METHOD_OVERLOADS or name in S.OVERLOADS or name in S.REQUIRED
            or name.endswith("_") and name[:-1] in S.REQUIRED):
        return None
    try:
        check_first_method(name, self, args, kwargs)
    except TypeError as parser_error:
        parser_error.method_form = True
        return parser_error
    return None


def too_many_positional(name: str, most: int, given: int) -> TypeError:
    """PyTorch's parser error for ``x.name(...)`` given ``given`` positional arguments where it takes up to ``most``
    (the first optional), self not counted: "size() takes from 0 to 1 positional arguments but 2 were given"."""
    takes = "0" if most == 0 else f"from 0 to {most}"
    return TypeError(_plural(f"{name}() takes {takes} positional arguments but {given} were given"))


def _by_keyword(text: str, name: str, kwargs: dict) -> str | None:
    """``text`` ("name(): argument 'arg' (position n) must be ...") without the position if ``arg`` was given by
    keyword, as PyTorch words it then; None for any other error."""
    given = re.match(rf"{name}\(\): argument '(\w+)'( \(position \d+\))", text)
    if given and given.group(1) in kwargs:
        return text.replace(given.group(2), "", 1)
    return None


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


# ---- deprecated overloads: ``p.data.add_(-lr, p.grad)`` ------------------------------------------------

# PyTorch still accepts the old scalar-first forms of these methods (tools/autograd/deprecated.yaml), with a
# warning given once per process for all of them together. Values: the old and the new method signatures.
_SCALAR_FIRST = {
    "add": ("add(Number alpha, Tensor other)", "add(Tensor other, *, Number alpha = 1)"),
    "sub": ("sub(Number alpha, Tensor other)", "sub(Tensor other, *, Number alpha = 1)"),
    "addcmul": ("addcmul(Number value, Tensor tensor1, Tensor tensor2)",
                "addcmul(Tensor tensor1, Tensor tensor2, *, Number value = 1)"),
    "addcdiv": ("addcdiv(Number value, Tensor tensor1, Tensor tensor2)",
                "addcdiv(Tensor tensor1, Tensor tensor2, *, Number value = 1)"),
}
def scalar_first(name: str, scalar, tensors: tuple, **keywords) -> None:
    """Check a call of the deprecated ``x.name(scalar, *tensors)`` form (warning once), or raise PyTorch's
    TypeError for one positional argument too many (counted as the method counts: without self).

    ``keywords``: the call's keyword arguments (alpha, value, out), those at their defaults too (out NO_OUT, or None
    as given): the deprecated forms take none, and more positional arguments than theirs fit no form. Then the
    method's parser lists its one current form (the function's wrapper parses its own call again)."""
    from ._tensor import Tensor
    new = _SCALAR_FIRST[name.rstrip("_")][1]
    given = {k: v for k, v in keywords.items()
             if not (v is NO_OUT or k != "out" and v is None or type(v) is int and v == 1)}
    if "out" in given and _called_as_function(sys._getframe(2)):
        del given["out"]   # (torch.add(x, 2, y, out=t): the function's deprecated form takes out=, the method's not)
    if given or len(tensors) > new.count("Tensor"):   # (x.add(x, x, alpha=2), x.add(1, 2, 3))
        raise invalid_combination(name, (scalar, *tensors), given, (new[new.index("("):],))
    # (add's and sub's Tensor parameters take a Python number too: x.add(1, 2) is x + 1 * 2)
    numbers_too = name.rstrip("_") in ("add", "sub")
    if not (isinstance(scalar, numbers.Number)
            and all(isinstance(t, Tensor) or numbers_too and isinstance(t, numbers.Number) for t in tensors)):
        n = len(tensors)
        raise TypeError(f"{name}() takes {n} positional argument{'s' if n > 1 else ''} but {n + 1} were given")
    old, new = _SCALAR_FIRST[name.rstrip("_")]
    suffix = "_" if name.endswith("_") else ""
    _warn_deprecated(name, old.replace("(", suffix + "(", 1), new.replace("(", suffix + "(", 1))


def _called_as_function(frame) -> bool:
    """Whether ``frame``, the caller of a function Tensor shares as its method (add), is the ``torch.*`` wrapper
    (overrides.wrap_function): the call is ``torch.add(...)``, not ``x.add(...)``."""
    return frame.f_code.co_name == "public" and frame.f_code.co_filename.endswith("overrides.py")


class _NoOut:
    """out= not given to add, sub, mul, div or matmul, which Tensor shares as its methods without a wrapper: given,
    even as None, it is refused if the call is the method's (refuse_method_out; x.add(2, y, out=None) too)."""

    def __repr__(self) -> str:
        return "None"


NO_OUT = _NoOut()


def refuse_method_out(name: str, self, args: tuple, kwargs: dict, caller) -> None:
    """Raise PyTorch's parser error for ``self.name(*args, **kwargs)`` (x.mul(y, out=t): no method takes out=) if
    ``caller``, the frame that called ``name``'s function with out= (a hot function Tensor shares as its method, add,
    mul ...), is the method's call: user code, or overrides' method wrapper (once a subclass or a mode exists).
    torch.name's wrapper and minigrad's own code pass out= on."""
    module = caller.f_globals.get("__name__", "")
    if module.partition(".")[0] != "minigrad" or module == "minigrad.overrides" and caller.f_code.co_name == "method":
        check_first_method(name, self, args, kwargs)


def _warn_deprecated(name: str, old: str, new: str) -> None:
    warn_once("deprecated scalar-first overload",   # (one TORCH_WARN_ONCE for all of them)
              f"This overload of {name} is deprecated:\n\t{old}\nConsider using one of the following signatures "
              f"instead:\n\t{new} (Triggered internally at "
              "/__w/pytorch/pytorch/torch/csrc/utils/python_arg_parser.cpp:1841.)")


# The products' deprecated forms: x.addmm(beta, [alpha,] mat1, mat2) and torch.addmm(beta, input, [alpha,] mat1,
# mat2). Values: the names of the two factors; addmm and baddbmm list an out_dtype overload too.
_BETA_FIRST = {"addmm": ("mat1", "mat2"), "addmv": ("mat", "vec"), "addr": ("vec1", "vec2"),
               "baddbmm": ("batch1", "batch2"), "addbmm": ("batch1", "batch2")}


def beta_first(name: str):
    """Decorator: ``name`` (a product with an added term) also takes its deprecated beta-first forms."""
    def wrap(fn):
        @functools.wraps(fn)
        def product(input, *args, **kwargs):
            if len(args) > 2:   # (the current forms take two positional arguments after input)
                input, args, kwargs = _beta_first_call(name, input, args, kwargs)
            return fn(input, *args, **kwargs)
        return product
    return wrap


def _beta_first_call(name: str, input, args: tuple, kwargs: dict) -> tuple:
    """A deprecated call's (input, factors, keywords) in the current form, warning once; any other call as given."""
    from ._tensor import Tensor
    method = isinstance(input, Tensor)   # (the function's form has beta before input)
    beta, inp, rest = (args[0], input, list(args[1:])) if method else (input, args[0], list(args[1:]))
    a = "Number alpha, " if len(rest) == 3 else ""
    alpha = rest.pop(0) if a else 1
    if not (isinstance(beta, numbers.Number) and isinstance(alpha, numbers.Number) and isinstance(inp, Tensor)
            and len(rest) == 2 and all(isinstance(t, Tensor) for t in rest)) or "beta" in kwargs or "alpha" in kwargs:
        if method and len(args) < 5:   # (x.addmm(M, M, M): the method's count, as scalar_first's)
            raise TypeError(f"{name}() takes 2 positional arguments but {len(args)} were given")
        if method:   # (more arguments than any form takes: the one overload the method lists)
            p1, p2 = _BETA_FIRST[name.rstrip("_")]
            raise invalid_combination(name, args, kwargs,
                                      (f"(Tensor {p1}, Tensor {p2}, *, Number beta = 1, Number alpha = 1)",))
        return input, args, kwargs   # (not a deprecated form: the function's own errors)
    p1, p2 = _BETA_FIRST[name.rstrip("_")]
    if method:
        old = f"{name}(Number beta, {a}Tensor {p1}, Tensor {p2})"
        new = f"{name}(Tensor {p1}, Tensor {p2}, *, Number beta = 1, Number alpha = 1)"
    else:
        old = f"{name}(Number beta, Tensor input, {a}Tensor {p1}, Tensor {p2}, *, Tensor out = None)"
        new = f"{name}(Tensor input, Tensor {p1}, Tensor {p2}, *, Number beta = 1, Number alpha = 1, Tensor out = None)"
        if name in ("addmm", "baddbmm"):
            new += (f"\n\t{name}(Tensor input, Tensor {p1}, Tensor {p2}, torch.dtype out_dtype, *, Number beta = 1, "
                    "Number alpha = 1, Tensor out = None)")
    _warn_deprecated(name, old, new)
    return inp, tuple(rest), {**kwargs, "beta": beta, "alpha": alpha}


# ---- factories: PyTorch's argument parser, for functions with several overloads -----------------------
#
# torch.randn(2, 3, requires_grad=1) and torch.arange('a') fail in PyTorch's parser before anything runs. These
# functions are wrapped (see install_factories) by a port of its algorithm (python_arg_parser.cpp): try each
# overload; with none matching, report the one *plausible* overload's first bad argument (as many arguments
# given as it takes) or list them all. A parse costs a few microseconds, next to a factory's allocation.

_OPTIONS = "*, Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, " \
           "bool pin_memory = False, bool requires_grad = False"
_LIKE = "*, torch.memory_format memory_format = None, torch.dtype dtype = None, torch.layout layout = None, " \
        "torch.device device = None, bool pin_memory = False, bool requires_grad = False"
_GEN = "*, torch.Generator generator, "


def _random(params: str, options: str = _OPTIONS) -> tuple:
    """The two overloads of a random factory: with a generator (required, may be None), and without."""
    return (f"({params}, {_GEN}{options[3:]})", f"({params}, {options})")


FACTORIES = {
    "zeros": (f"(tuple of ints size, {_OPTIONS})",), "ones": (f"(tuple of ints size, {_OPTIONS})",),
    "empty": (f"(tuple of ints size, *, torch.memory_format memory_format = None, {_OPTIONS[3:]})",),
    "full": (f"(tuple of ints size, Number fill_value, {_OPTIONS})",),
    "randn": _random("tuple of ints size"), "rand": _random("tuple of ints size"), "randperm": _random("int n"),
    "randint": _random("int high, tuple of ints size") + _random("int low, int high, tuple of ints size"),
    "eye": (f"(int n, {_OPTIONS})", f"(int n, int m, {_OPTIONS})"),
    "linspace": tuple(f"({a} start, {b} end, int steps, {_OPTIONS})"
                      for a, b in (("Tensor", "Tensor"), ("Number", "Tensor"), ("Tensor", "Number"),
                                   ("Number", "Number"))),
    "arange": (f"(Number end, {_OPTIONS})",
               f"(Number start, Number end, {_OPTIONS.replace('Tensor out = None, ', '')})",  # (no out=)
               f"(Number start, Number end, Number step = 1, {_OPTIONS})"),
    "tensor": ("(object data, *, torch.dtype dtype = None, torch.device device = None, bool pin_memory = False, "
               "bool requires_grad = False)",),
    "zeros_like": (f"(Tensor input, {_LIKE})",), "ones_like": (f"(Tensor input, {_LIKE})",),
    "empty_like": (f"(Tensor input, {_LIKE})",), "full_like": (f"(Tensor input, Number fill_value, {_LIKE})",),
    "randn_like": _random("Tensor input", _LIKE), "rand_like": _random("Tensor input", _LIKE),
    "randint_like": _random("Tensor input, int low, int high", _LIKE) + _random("Tensor input, Tensor high", _LIKE)
    + _random("Tensor input, int high", _LIKE),
}
FACTORIES["normal"] = (
    "(Tensor mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
    "(Tensor mean, float std = 1, *, torch.Generator generator = None, Tensor out = None)",
    "(float mean, Tensor std, *, torch.Generator generator = None, Tensor out = None)",
    f"(float mean, float std, tuple of ints size, *, torch.Generator generator = None, {_OPTIONS[3:]})")
FACTORIES["logspace"] = tuple(o.replace("int steps, ", "int steps, float base = 10.0, ") for o in FACTORIES["linspace"])


class _Param:
    """One parameter of an overload as PyTorch prints it: ``torch.dtype dtype = None``."""

    __slots__ = ("type", "name", "optional", "allow_none", "keyword_only", "one_int", "numbers")

    def __init__(self, token: str, keyword_only: bool, nullable: tuple = (), one_int: tuple = ("dim",)):
        decl, _, default = token.partition(" = ")
        self.type, self.name = decl.rsplit(" ", 1)
        self.optional = bool(default)
        # (``Generator?``, ``bool? pin_memory``: types the schema makes optional, which the print does not show)
        self.allow_none = default == "None" or self.type == "torch.Generator" or self.name in nullable
        self.keyword_only = keyword_only
        self.one_int = self.name in one_int  # (PyTorch's ``int[1]``: one int passes for the list)
        self.numbers = False  # (a Tensor parameter that takes a number too: see _NUMBERS_AS_TENSORS)


def _signature(option: str, nullable: tuple = (), one_int: tuple = ("dim",)) -> list:
    params, keyword_only = [], False
    for token in option[1:-1].split(", "):
        if token == "*":
            keyword_only = True
        else:
            params.append(_Param(token, keyword_only, nullable, one_int))
    return params


def _is_index(value) -> bool:
    """An int as PyTorch reads a size or an ``int``: not a bool; a 0-dim integer tensor counts."""
    if type(value) is int:   # (the usual argument, on ops' normal paths: no import, no ABC check)
        return True
    from ._tensor import Tensor
    if isinstance(value, Tensor):
        return value.dim() == 0 and not value.dtype.is_floating_point and not value.dtype.is_complex \
            and value.dtype.name != "bool"
    return _is_int(value)


def _is_number(value, complex_ok: bool = True) -> bool:
    from ._tensor import Tensor
    if isinstance(value, Tensor):
        return value.dim() == 0 and not value.requires_grad
    if isinstance(value, np.bool_):
        return True   # (PyTorch's parser takes NumPy's bool scalar as a number: is_numpy_scalar)
    return isinstance(value, numbers.Number) and (complex_ok or not isinstance(value, numbers.Complex)
                                                  or isinstance(value, numbers.Real))


# What PyTorch's parser takes as a scalar argument from a tensor (python_arg_parser.cpp): for a Number or float, a 0-dim
# tensor outside autograd; for an int (int64_t), a 0-dim integer one; for a SymInt, any one-element integer or bool
# one (is_int_or_symint: torch.tril(x, torch.tensor([1]))). PyTorch's errors print a SymInt as "int".
_TENSOR_AS_SCALAR = {"Number": _is_number, "float": _is_number, "int": _is_index, "SymInt": list_int}


def scalar_arg(value, name: str, arg: str, position: int | None, kind: str = "float"):
    """A Number, float, int or SymInt (``kind``) argument as the Python number an op computes with: a tensor read as
    PyTorch's parser reads one, or its TypeError (``name(): argument 'arg' (position n) must be float, not Tensor``;
    a wrapper that knows the call's signature words it again as the call was made: reparse). The ops call it where
    they convert such an argument: check_first lets through the calls of tensors, ints and None, so that a Python
    number pays one isinstance and a tensor one check of its value. Other values are returned as they are."""
    if isinstance(value, (int, float)):
        return value
    from ._tensor import Tensor
    if not isinstance(value, Tensor):
        return value
    if not _TENSOR_AS_SCALAR[kind](value):
        raise must_be(name, arg, "int" if kind == "SymInt" else kind, value, position)
    return int(value) if kind in ("int", "SymInt") else value.item()


def _check(kind: str, value, one_int: bool = False) -> bool:
    """Whether ``value`` passes PyTorch's type check for a parameter of type ``kind`` (``one_int``: an int
    passes for a ``tuple of ints``, as for PyTorch's ``int[1]``)."""
    from ._tensor import Tensor
    if kind == "tuple of ints":
        # (is_int_or_symint: the first element, or the one int of an int[1], may be a one-element integer tensor)
        return isinstance(value, (tuple, list)) and (not value or list_int(value[0])) or one_int and list_int(value)
    if kind == "int":
        return _is_index(value)
    if kind == "bool":
        return isinstance(value, (bool, np.bool_))
    if kind == "Number":
        return _is_number(value)
    if kind == "float":
        return _is_number(value, complex_ok=False)
    if kind == "Tensor":
        return isinstance(value, Tensor)
    if kind == "torch.dtype":
        return isinstance(value, dtype) or value is float or value is int or value is bool or value is complex
    if kind == "torch.device":
        return _is_int(value) or isinstance(value, str) or type_name(value) == "torch.device"
    if kind in ("torch.layout", "torch.memory_format"):
        return type_name(value) == kind   # (C types: see CTypeNamed)
    if kind == "torch.Generator":
        return type_name(value) == "torch._C.Generator"
    if kind == "str":
        return isinstance(value, str)
    if kind == "tuple of Tensors":  # (every element is checked: [t, 1] fails the parse)
        return isinstance(value, (tuple, list)) and all(isinstance(v, Tensor) for v in value)
    if kind == "tuple of floats":
        return isinstance(value, (tuple, list)) and all(_is_number(v, complex_ok=False) for v in value)
    if kind == "tuple of Scalars":
        return isinstance(value, (tuple, list)) and all(_is_number(v) for v in value)
    if kind == "<hidden>":  # (an overload PyTorch does not list: see reparse)
        return False
    return True  # (object: anything)


def _parse(name: str, params: list, args: tuple, kwargs: dict, raise_: bool) -> bool:
    """PyTorch's FunctionSignature::parse: whether the call fits ``params``; with ``raise_``, its TypeError."""
    max_pos = sum(not p.keyword_only for p in params)
    # (not for a ``dim``: PyTorch's int[1], which takes one int instead: var(0, True, True, True) is no list)
    varargs = max_pos == 1 and params[0].type == "tuple of ints" and params[0].name != "dim" and bool(args) \
        and list_int(args[0])   # (torch.ones(torch.tensor([2])): a one-element integer tensor starts the sizes)
    if len(args) > max_pos and not varargs:
        if raise_:
            min_args = sum(not p.optional for p in params)
            if min_args != max_pos:
                raise TypeError(f"{name}() takes from {min_args} to {max_pos} positional arguments but {len(args)} "
                                "were given")
            raise TypeError(f"{name}() takes {max_pos} positional argument{'' if max_pos == 1 else 's'} but "
                            f"{len(args)} {'was' if len(args) == 1 else 'were'} given")
        return False
    position, remaining = 0, len(kwargs)
    for i, p in enumerate(params):
        if position < len(args):
            value, keyword = args[position], False
        else:
            value, keyword = kwargs.get(p.name, _MISSING), True
            for alias in NUMPY_NAMES.get(p.name, ()) if value is _MISSING else ():
                value = kwargs.get(alias, _MISSING)
                if value is not _MISSING:
                    break
        if value is _MISSING and p.optional or value is None and p.allow_none:
            pass
        elif value is _MISSING:
            if raise_:
                missing = [f'"{q.name}"' for q in params[i:] if not q.optional]
                plural = "s" if len(missing) == 1 else ""  # (PyTorch's plural is the wrong way round)
                raise TypeError(f"{name}() missing {len(missing)} required positional argument{plural}: "
                                + ", ".join(missing))
            return False
        elif p.type == "tuple of Tensors" and isinstance(value, (tuple, list)) and not _check(p.type, value):
            # (PyTorch checks a tensor list's elements as it parses, and raises at the first that is no tensor)
            at = next(k for k, v in enumerate(value) if not _check("Tensor", v))
            raise TypeError(f"expected Tensor as element {at} in argument {i}, but got {type_name(value[at])}")
        elif _check(p.type, value, p.one_int) or p.numbers and _is_number(value):
            pass
        elif varargs and position == 0:
            position = len(args)  # (randn(2, 3): the positional arguments are the size)
            continue
        elif raise_:
            if keyword:
                raise must_be(name, p.name, p.type, value)
            if p.type == "tuple of ints" and isinstance(value, (tuple, list)):
                raise TypeError(f"{name}(): argument '{p.name}' (position {position + 1}) must be tuple of ints, but "
                                f"found element of type {type_name(value[0])} at pos 0")
            raise must_be(name, p.name, p.type, value, position + 1)
        else:
            return False
        if not keyword:
            position += 1
        elif value is not _MISSING:
            remaining -= 1
    if remaining:
        if raise_:   # (PyTorch's extra_kwargs: the first keyword no parameter is named (a NumPy name is none:
            # x.sum(axis=0, foo=1) names 'axis'), or one a positional argument gave
            names = [p.name for p in params]
            for key in kwargs:
                if key not in names:
                    raise TypeError(f"{name}() got an unexpected keyword argument '{key}'")
                if names.index(key) < len(args):
                    raise TypeError(f"{name}() got multiple values for argument '{key}'")
        return False
    return True


_MISSING = object()
# The keywords PyTorch's parser also accepts for a parameter, as NumPy names it (numpy_compatibility_arg_names)
NUMPY_NAMES = {"dim": ("axis",), "keepdim": ("keepdims",), "input": ("x", "a", "x1"), "other": ("x2",)}
_NUMPY_TENSOR_NAMES = NUMPY_NAMES["input"] + NUMPY_NAMES["other"]


def _unpack_sizes(name: str, params: list, args: tuple, kwargs: dict) -> None:
    """PyTorch's error for a size list whose later element is not an int (found when it is read)."""
    if params[0].type != "tuple of ints":
        return
    if sum(not p.keyword_only for p in params) == 1 and args and list_int(args[0]):
        sizes = args  # (randn(2, 3))
    else:
        sizes = args[0] if args else kwargs.get(params[0].name)
    if isinstance(sizes, (tuple, list)):
        for i, v in enumerate(sizes):
            if not list_int(v):
                raise TypeError(f"{name}(): argument '{params[0].name}' failed to unpack the object at pos {i + 1} "
                                f"with error \"type must be tuple of ints,but got {type_name(v)}\"")
            _no_bool_symint(v)


def _no_bool_symint(value) -> None:
    """PyTorch's error for a bool tensor among the elements of a ``SymInt[]`` (symintlist reads the tensor's item,
    which must be an integer; an ``int[]`` takes it through ``__index__``)."""
    if not _is_int(value) and value.dtype.name == "bool":
        raise RuntimeError("Expected scalar.isIntegral( false) to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")


def check_call(name: str, args: tuple, kwargs: dict) -> None:
    """Raise PyTorch's TypeError when no overload of the factory ``name`` (FACTORIES) accepts the call."""
    _resolve(name, _SIGNATURES[name], args, kwargs, _unpack_sizes, FACTORIES[name])


def _resolve(name: str, signatures, args: tuple, kwargs: dict, unpack, listed) -> None:
    """PyTorch's overload resolution: return at the first overload that takes the call (then ``unpack``
    checks its sequences); else the one plausible overload's own error, or the "invalid combination" list."""
    for params in signatures:
        if _parse(name, params, args, kwargs, False):
            unpack(name, params, args, kwargs)
            return
    if len(signatures) == 1:
        _parse(name, signatures[0], args, kwargs, True)
    n = len(args) + len(kwargs)
    plausible = [s for s in signatures if sum(not p.optional for p in s) <= n <= len(s)]
    if len(plausible) == 1:
        _parse(name, plausible[0], args, kwargs, True)
    raise invalid_combination(name, args, kwargs, listed)


# The factories' TensorOptions take None for these two (torch.zeros(2, requires_grad=None)); torch.tensor does not.
_SIGNATURES = {name: [_signature(o, () if name == "tensor" else ("pin_memory", "requires_grad")) for o in options]
               for name, options in FACTORIES.items()}


# (``bool? stable`` in sort's schema, not argsort's: None passes, the print does not show it; roll's int[1]s)
_OVERLOADS_PARSED = {name: [_signature(o, ("stable",) if name == "sort" else (),
                                        ("dim", "shifts", "dims") if name == "roll" else ("dim",))
                            for o in options]
                     for name, options in FUNCTION_OVERLOADS.items()}


def _call_key(name: str, args: tuple, kwargs: dict):
    """What the parse of a call depends on (the arguments' types; a sequence's: its elements' types; a tensor's:
    dims, dtype, requires_grad), or None when it depends on more."""
    key = [name]
    for value in (*args, *kwargs.values()):
        kind = type(value)
        if kind is tuple or kind is list or kind is _SIZE[0]:
            if len(value) > 8:  # (torch.tensor(a long list): a parse costs less than such a key)
                return None
            key.append((kind, *map(type, value)))
        elif kind is _SIZE[1]:
            key.append((kind, value.dim(), value.dtype, value.requires_grad, value.numel() == 1))
        elif kind is dict:
            return None
        elif kind is type:  # (dtype=float passes, dtype=np.float32 does not: the class itself decides)
            key.append(value)
        else:
            key.append(kind)
    key.extend(kwargs)
    return tuple(key)


_ACCEPTED: set = set()  # call keys already parsed without error (a parse costs microseconds; a look-up, less)
_SIZE: list = []  # [Size, Tensor], set by install_factories


def checked_factory(fn, name: str):
    """``fn`` checking its arguments as PyTorch's parser does first."""
    import inspect
    params = inspect.signature(fn).parameters
    takes_all = any(p.kind is p.VAR_KEYWORD for p in params.values())
    # The default options fn has no parameter for (randn(2, pin_memory=False)): dropped once checked.
    droppable = {k: v for k, v in (("layout", (None,)), ("pin_memory", (None, False))) if k not in params}

    @functools.wraps(fn)
    def factory(*args, **kwargs):
        key = _call_key(name, args, kwargs)
        if key not in _ACCEPTED:
            check_call(name, args, kwargs)
            if key is not None and len(_ACCEPTED) < 4096:
                _ACCEPTED.add(key)
        if kwargs.get("pin_memory"):  # (parsed fine: the CPU-only build then has no allocator for it)
            raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                               "allocator is available on this system.")
        if kwargs and not takes_all and any(k in kwargs for k in droppable):
            kwargs = {k: v for k, v in kwargs.items()
                      if not (k in droppable and (v in droppable[k] or str(v) == "torch.strided"))}
        if kwargs and not args and _BY_KEYWORD.get(name) in kwargs and "start" not in kwargs:  # (zeros(size=...))
            kwargs = dict(kwargs)
            args = (kwargs.pop(_BY_KEYWORD[name]),)
        return fn(*args, **kwargs)
    return factory


# The first argument, which PyTorch's overloads name and minigrad's functions take positionally (``*size``).
_BY_KEYWORD = {"zeros": "size", "ones": "size", "empty": "size", "rand": "size", "randn": "size", "arange": "end"}


def install_factories(namespace: dict) -> None:
    """Replace the FACTORIES functions of a module namespace (``minigrad``) by their checked forms."""
    from ._tensor import Size, Tensor
    _SIZE[:] = [Size, Tensor]
    _PLAIN.update((int, type(None), Tensor))
    for name in FACTORIES:
        if name in namespace:
            namespace[name] = checked_factory(namespace[name], name)


# ---- torch.linalg, torch.fft, torch.special: the parser in front of minigrad's Python functions -------------------
#
# PyTorch binds these in C++ under their ATen names (torch.linalg.solve_ex is ``linalg_solve_ex``), so a call the
# parser refuses fails before any code runs, with the parser's words: ``linalg_solve_ex() missing 1 required
# positional arguments: "B"``, ``fft_fft(): argument 'norm' must be str, not int``. minigrad's functions are Python
# functions (Python's own TypeErrors, or whatever their code runs into); parsed_function checks the call first with
# the same algorithm and PyTorch's overloads (_native_signatures.py).

# The parsed functions whose dim is an ``int[]`` (the print does not tell it from an ``int[1]``): one int fits no
# overload (torch.linalg.matrix_norm(A, dim=-1))
_DIM_LISTS_ONLY = frozenset(("linalg_matrix_norm",))


def parsed_function(fn, name: str, options: tuple):
    """``fn`` behind PyTorch's parser for the C++ function ``name`` with the overloads ``options``."""
    import inspect
    one_int = () if name in _DIM_LISTS_ONLY else ("dim",)
    signatures = [_signature(o, ("pin_memory", "requires_grad"), one_int) for o in options]
    # PyTorch's keyword names where fn's differ, by position (torch.linalg.cholesky(input=A): minigrad's is ``A``)
    parameters = inspect.signature(fn).parameters
    own = [p.name for p in parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    # (and NumPy's names, torch.fft.fft(x=t), to fn's name or PyTorch's)
    renames = {}
    for params in signatures:
        positional = [p for p in params if not p.keyword_only]
        for p in params:
            i = positional.index(p) if p in positional else len(own)
            target = own[i] if i < len(own) else p.name
            renames.update({name: target for name in (p.name, *NUMPY_NAMES.get(p.name, ())) if name != target})
    # the factory options fn has no parameter for, dropped once parsed (fftfreq(4, pin_memory=False))
    renames.update({k: None for k in ("pin_memory", "layout") if k not in parameters})
    accepted = set()  # call keys already parsed without error (see _call_key)

    @functools.wraps(fn)
    def function(*args, **kwargs):
        key = _call_key(name, args, kwargs)
        if key is None or key not in accepted:
            _resolve(name, signatures, args, kwargs, _unpack_lists, options)
            if key is not None and len(accepted) < 1024:
                accepted.add(key)
        if renames and kwargs:
            if kwargs.get("pin_memory") and renames.get("pin_memory", "") is None:  # (as checked_factory)
                raise RuntimeError("pin_memory=True requires a CUDA or other accelerator backend; no pinned memory "
                                   "allocator is available on this system.")
            kwargs = {renames.get(k, k): v for k, v in kwargs.items() if renames.get(k, k) is not None}
        return fn(*args, **kwargs)
    function.unparsed = fn   # (for a call made again inside, with fn's own keyword names: autocast's)
    return function


def install_parsed(namespace: dict, prefix: str, table: dict) -> None:
    """Put the functions of ``table`` (name -> overloads) in ``namespace`` (minigrad.linalg's ...) behind the
    parser, under their C++ names ``prefix + name``."""
    for name, options in table.items():
        if callable(namespace.get(name)):
            namespace[name] = parsed_function(namespace[name], prefix + name, options)


def check_options(name: str, dtype=None, requires_grad=False) -> None:
    """PyTorch's TypeErrors for a ``dtype`` that is no dtype or a ``requires_grad`` that is no bool (as keywords)."""
    if dtype is not None and not _check("torch.dtype", dtype):
        raise must_be(name, "dtype", "torch.dtype", dtype)
    if not isinstance(requires_grad, (bool, np.bool_)):
        raise must_be(name, "requires_grad", "bool", requires_grad)


def size_list(name: str, arg: str, args: tuple, overloads: tuple = (), symint: bool = True) -> tuple:
    """The sizes of ``x.name(*args)`` (a method taking one ``tuple of ints arg``, or its ints as varargs) as
    PyTorch's parser reads them (NumPy ints pass), or its TypeError. ``overloads``: the method's, if several;
    ``symint``: a ``SymInt[]`` (view's sizes: no bool tensor), not an ``int[]`` (permute's dims)."""
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        if not args[0] or list_int(args[0][0]):
            values = args[0]
        elif overloads:
            raise invalid_combination(name, args, {}, overloads)
        else:
            raise TypeError(f"{name}(): argument '{arg}' (position 1) must be tuple of ints, but found element of "
                            f"type {type_name(args[0][0])} at pos 0")
    elif args and list_int(args[0]):
        values = args
    elif overloads:
        raise invalid_combination(name, args, {}, overloads)
    elif len(args) > 1:
        raise TypeError(f"{name}() takes 1 positional argument but {len(args)} were given")
    elif not args:
        raise TypeError(f'{name}() missing 1 required positional arguments: "{arg}"')
    else:
        raise must_be(name, arg, "tuple of ints", args[0], 1)
    for i, v in enumerate(values):
        later_bool = i and isinstance(v, (bool, np.bool_))   # (not type-checked: unpacked as an index)
        if not list_int(v) and not later_bool:
            raise TypeError(f"{name}(): argument '{arg}' failed to unpack the object at pos {i + 1} with error "
                            f"\"type must be tuple of ints,but got {type_name(v)}\"")
        if symint and not later_bool:
            _no_bool_symint(v)
    return tuple(int(v) for v in values)


# ---- Tensor methods: the same parser, run once a call has failed --------------------------------------

# The overloads of Tensor methods as PyTorch prints them (method form: no self). Where minigrad's method has
# failed (any exception), the call is parsed as PyTorch parses it: a call no overload accepts gets PyTorch's
# TypeError instead of whatever minigrad's code ran into. The function form (``torch.gather(x, 0.5, i)``)
# prepends ``Tensor input``.
METHOD_SIGNATURES = {
    "index_select": ("(int dim, Tensor index)",),
    "gather": ("(int dim, Tensor index, *, bool sparse_grad = False)",),
    "chunk": ("(int chunks, int dim = 0)",),
    "topk": ("(int k, int dim = -1, bool largest = True, bool sorted = True)",),
    "cumsum": ("(int dim, *, torch.dtype dtype = None)",),
    "cumprod": ("(int dim, *, torch.dtype dtype = None)",),
    "argmax": ("(int dim = None, bool keepdim = False)",),
    "argmin": ("(int dim = None, bool keepdim = False)",),
    "movedim": ("(int source, int destination)", "(tuple of ints source, tuple of ints destination)"),
    "median": ("()", "(int dim, bool keepdim = False)"),
    "sum": ("(*, torch.dtype dtype = None)", "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)"),
    "mean": ("(*, torch.dtype dtype = None)", "(tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None)"),
    "std": ("(tuple of ints dim, bool unbiased = True, bool keepdim = False)",
            "(tuple of ints dim = None, *, Number correction = None, bool keepdim = False)", "(bool unbiased = True)"),
    "narrow": ("(int dim, Tensor start, int length)", "(int dim, int start, int length)"),
    "transpose": ("(int dim0, int dim1)",),
    "to": tuple(f"({first}bool non_blocking = False, bool copy = False, *, torch.memory_format memory_format = None)"
                for first in ("torch.device device = None, torch.dtype dtype = None, ", "torch.dtype dtype, ",
                              "Tensor tensor, ")),
    "prod": ("(*, torch.dtype dtype = None)", "(int dim, bool keepdim = False, *, torch.dtype dtype = None)"),
    "masked_fill": ("(Tensor mask, Tensor value)", "(Tensor mask, Number value)"),
    "max": ("()", "(Tensor other)", "(int dim, bool keepdim = False)"),
    "all": ("()", "(tuple of ints dim = None, bool keepdim = False)", "(int dim, bool keepdim = False)"),
    "round": ("()", "(*, int decimals)"),
    "round_": ("()", "(*, int decimals)"),
    "any": ("()", "(tuple of ints dim = None, bool keepdim = False)", "(int dim, bool keepdim = False)"),
    "min": ("()", "(Tensor other)", "(int dim, bool keepdim = False)"),
    "clamp": ("(Tensor min = None, Tensor max = None)", "(Number min = None, Number max = None)"),
    "flatten": ("(int start_dim = 0, int end_dim = -1)",),
    "squeeze": ("()", "(int dim)", "(tuple of ints dim)"),
    "squeeze_": ("()", "(int dim)", "(tuple of ints dim)"),
    "unsqueeze": ("(int dim)",),
    "fill_": ("(Tensor value)", "(Number value)"),
    # the in-place samplers (their numbers are C++ doubles: a str, None or complex fails the parse)
    "uniform_": ("(float from = 0, float to = 1, *, torch.Generator generator = None)",),
    "normal_": ("(float mean = 0, float std = 1, *, torch.Generator generator = None)",),
    "exponential_": ("(float lambd = 1, *, torch.Generator generator = None)",),
    "geometric_": ("(float p, *, torch.Generator generator = None)",),
    "log_normal_": ("(float mean = 1, float std = 2, *, torch.Generator generator = None)",),
    "cauchy_": ("(float median = 0, float sigma = 1, *, torch.Generator generator = None)",),
    "multinomial": ("(int num_samples, bool replacement = False, *, torch.Generator generator = None)",),
    "repeat_interleave": ("(Tensor repeats, int dim = None, *, int output_size = None)",
                          "(int repeats, int dim = None, *, int output_size = None)"),
    "polygamma": ("(int n)",),   # (self is its function's second argument: the function's table does not fit)
    "polygamma_": ("(int n)",),
}
METHOD_SIGNATURES["var"] = METHOD_SIGNATURES["std"]
METHOD_SIGNATURES["clamp_"] = METHOD_SIGNATURES["clip"] = METHOD_SIGNATURES["clip_"] = METHOD_SIGNATURES["clamp"]
_OTHER_ONLY = ("atan2", "atan2_", "arctan2", "arctan2_", "hypot", "hypot_", "logaddexp", "logaddexp2")
METHOD_SIGNATURES.update({name: ("(Tensor other)",) for name in _OTHER_ONLY})   # (x.atan2_(other=1), x.hypot(x, x))
# (and the methods with no function: x.view_as(y, 0) is "view_as() takes 1 positional argument but 2 were given")
METHOD_SIGNATURES.update({name: ("(Tensor other)",) for name in ("expand_as", "view_as", "reshape_as", "type_as")})
# (and those with fewer overloads than their function: torch.mm's out_dtype one is no method's, x.mm(y, 1) takes 1)
METHOD_SIGNATURES.update({name: ("(Tensor mat2)",) for name in ("mm", "bmm")})
# The function forms of those with several overloads, as PyTorch prints them (not all take an out=).
_OUT, _OUTS = "Tensor out = None", "tuple of Tensors out = None"
FUNCTION_SIGNATURES = {
    "sum": ("(Tensor input, *, torch.dtype dtype = None)",
            f"(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, {_OUT})"),
    "mean": (f"(Tensor input, *, torch.dtype dtype = None, {_OUT})",
             f"(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, {_OUT})"),
    "prod": ("(Tensor input, *, torch.dtype dtype = None)",
             f"(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, {_OUT})"),
    "max": (f"(Tensor input, *, {_OUT})", f"(Tensor input, Tensor other, *, {_OUT})",
            f"(Tensor input, int dim, bool keepdim = False, *, {_OUTS})"),
    "std": (f"(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, {_OUT})",
            f"(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, {_OUT})",
            "(Tensor input, bool unbiased = True)"),
    "clamp": (f"(Tensor input, Tensor min = None, Tensor max = None, *, {_OUT})",
              f"(Tensor input, Number min = None, Number max = None, *, {_OUT})"),
    "squeeze": ("(Tensor input)", "(Tensor input, int dim)", "(Tensor input, tuple of ints dim)"),
    "narrow": ("(Tensor input, int dim, Tensor start, int length)", "(Tensor input, int dim, int start, int length)"),
    "movedim": ("(Tensor input, int source, int destination)",
                "(Tensor input, tuple of ints source, tuple of ints destination)"),
}
FUNCTION_SIGNATURES.update({
    "median": ("(Tensor input)", f"(Tensor input, int dim, bool keepdim = False, *, {_OUTS})"),
    "topk": (f"(Tensor input, int k, int dim = -1, bool largest = True, bool sorted = True, *, {_OUTS})",),
    "fill_": ("(Tensor input, Tensor value)", "(Tensor input, Number value)"),
    "masked_fill": ("(Tensor input, Tensor mask, Tensor value)", "(Tensor input, Tensor mask, Number value)"),
    "repeat_interleave": ("(Tensor input, Tensor repeats, int dim = None, *, int output_size = None)",
                          "(Tensor repeats, *, int output_size = None)",
                          "(Tensor input, int repeats, int dim = None, *, int output_size = None)"),
})
FUNCTION_SIGNATURES["polygamma"] = (f"(int n, Tensor input, *, {_OUT})",)
FUNCTION_SIGNATURES["mm"] = FUNCTION_SIGNATURES["bmm"] = FUNCTION_OVERLOADS["mm"]   # (with out_dtype, the methods' not)
FUNCTION_SIGNATURES["min"] = FUNCTION_SIGNATURES["max"]
FUNCTION_SIGNATURES["var"] = FUNCTION_SIGNATURES["std"]
# Methods wrapped here (others are checked by the wrappers they already have: METHOD_FORMS, tensor_first).
# Not wrapped, to keep them free of any extra call: those the backward formulas and hot loops use.
CHECKED_METHODS = ("index_select", "gather", "chunk", "topk", "cumsum", "cumprod", "argmax", "argmin", "movedim",
                   "median", "fill_", "std", "var", "uniform_", "normal_", "exponential_", "geometric_", "log_normal_",
                   "cauchy_", "multinomial", "repeat_interleave", "mm", "bmm", *_OTHER_ONLY)


def _function_form(option: str) -> str:
    """A method's overload as the function takes it: the tensor first, and an ``out=``."""
    params = "Tensor input" if option == "()" else "Tensor input, " + option[1:-1]
    return f"({params}{', ' if '*' in params else ', *, '}Tensor out = None)"


# The reductions whose ``dim`` is ``int[1]?`` in PyTorch's schema: None passes (the print does not show it).
# (schemas with ``int[1]? dim`` and no default: None is accepted although the printed signature does not say so)
_NULLABLE_DIM = ("sum", "mean", "std", "var", "std_mean", "var_mean")
# Parameters PyTorch declares optional (``str? rounding_mode``) in every overload that has them, though its
# error messages print them without the "?": None is taken (x.divide(y, rounding_mode=None)).
_ALWAYS_NULLABLE = ("rounding_mode",)
_METHOD_PARSED = {name: [_signature(o, ("dim",) if name in _NULLABLE_DIM else ()) if o != "()" else []
                         for o in options]
                  for name, options in METHOD_SIGNATURES.items()}
_FUNCTION_OPTIONS = {name: FUNCTION_SIGNATURES.get(name, tuple(_function_form(o) for o in options))
                     for name, options in METHOD_SIGNATURES.items()}
_FUNCTION_PARSED = {name: [_signature(o, ("dim",) if name in _NULLABLE_DIM else ()) for o in options]
                    for name, options in _FUNCTION_OPTIONS.items()}


def recheck(name: str, args: tuple, kwargs: dict, method: bool) -> None:
    """Raise PyTorch's TypeError if no overload of ``name`` (METHOD_SIGNATURES) accepts the call (``args``
    without self for a method, with the tensor first for a function); return if one does."""
    _resolve(name, (_METHOD_PARSED if method else _FUNCTION_PARSED)[name], args, kwargs, _unpack_lists,
             (METHOD_SIGNATURES if method else _FUNCTION_OPTIONS)[name])


def _unpack_lists(name: str, params: list, args: tuple, kwargs: dict) -> None:
    """PyTorch's error for a ``tuple of ints`` whose later element is no int (found as it is read)."""
    for i, p in enumerate(params):
        value = args[i] if i < len(args) and not p.keyword_only else kwargs.get(p.name)
        if p.type == "tuple of ints" and isinstance(value, (tuple, list)):
            for k, v in enumerate(value):
                # (a later element too may be a one-element integer tensor, or a bool: unpacked as an index)
                if not list_int(v) and not (k and isinstance(v, (bool, np.bool_))):
                    raise TypeError(f"{name}(): argument '{p.name}' failed to unpack the object at pos {k + 1} with "
                                    f"error \"type must be tuple of ints,but got {type_name(v)}\"")


def checked_method(fn, name: str):
    """``fn`` as the Tensor method ``name``: a failed call no overload accepts raises PyTorch's TypeError."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception:
            recheck(name, args, kwargs, method=True)
            raise
    method.__name__ = name
    return method


# Methods whose failed calls (x.gt_(other="a"), x.le(x, x)) are parsed again with PyTorch's METHOD_OVERLOADS
PARSED_METHODS = tuple(f"{name}{suffix}" for name in ("eq", "ne", "lt", "le", "gt", "ge", "greater", "greater_equal",
                                                      "less", "less_equal", "not_equal", "bitwise_and", "bitwise_or",
                                                      "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift",
                                                      "copysign", "xlogy", "remainder", "fmod", "floor_divide",
                                                      "float_power") for suffix in ("", "_"))


def parsed_method(fn, name: str):
    """``fn`` as the Tensor method ``name``: a call PyTorch's parser refuses raises the parser's TypeError."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except Exception:   # (PyTorch parses first: its refusal comes before any other error)
            parser_error = method_error(name, args, kwargs)
            if parser_error is None:
                raise
            raise parser_error from None
    method.__name__ = name
    return method


# Methods PyTorch's parser binds that have no table here (method-only), whose Python refusals are reworded
# (binding_counted): x.new_full((2,), 1, 2) "takes 2 positional arguments but 3 were given"
BINDING_COUNTED = ("new_full", "new_empty_strided", "is_set_to", "is_pinned", "fill_diagonal_", "to_dense")


def binding_counted(fn, name: str):
    """``fn`` as the Tensor method ``name``: Python's refusal to bind a call (its counts include self, its words
    are Python's: "missing 1 required positional argument: 'fill_value'") as PyTorch's parser words it."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        try:
            return fn(self, *args, **kwargs)
        except TypeError as error:
            if not _refused_binding(error):
                raise
            text = re.sub(r"^[\w.]+\(\)", f"{name}()", str(error))   # (Python names the function's qualified name)
            missing = _PYTHON_MISSING.search(text)
            if missing:
                text = text[:missing.start()] + _parser_missing(missing)
            else:
                text = _without_self(text)
            raise TypeError(text) from None
    method.__name__ = name
    return method


def install_method_checks(tensor_class) -> None:
    """Wrap the CHECKED_METHODS of ``tensor_class`` (see checked_method), the PARSED_METHODS (parsed_method) and
    the BINDING_COUNTED (binding_counted)."""
    for name in CHECKED_METHODS:
        setattr(tensor_class, name, checked_method(getattr(tensor_class, name), name))
    for name in BINDING_COUNTED:
        setattr(tensor_class, name, binding_counted(getattr(tensor_class, name), name))
    for name in PARSED_METHODS:
        setattr(tensor_class, name, parsed_method(getattr(tensor_class, name), name))


# ---- Tensor methods PyTorch binds as METH_NOARGS ------------------------------------------------------------------
# A Tensor method whose only parameter is ``self`` is bound in C without PyTorch's argument parser (METH_NOARGS), so
# an argument is refused by CPython itself, which names the method as ``Tensor.<C name>``: "Tensor.detach() takes
# no arguments (1 given)", or "Tensor.detach() takes no keyword arguments" (keywords are checked first). Methods
# with optional parameters go through the parser ("clone() takes 0 positional arguments but 1 was given") and
# those PyTorch writes in Python (torch/_tensor.py: is_shared, norm, ...) give Python's own message; neither is
# listed here. The operator slots reuse the named method's C function, hence its name in the message.
NO_ARGUMENT_METHODS = {name: name for name in (
    "abs", "abs_", "absolute", "absolute_", "acos", "acos_", "acosh", "acosh_", "adjoint", "angle", "arccos",
    "arccos_", "arccosh", "arccosh_", "arcsin", "arcsin_", "arcsinh", "arcsinh_", "arctan", "arctan_", "arctanh",
    "arctanh_", "argwhere", "asin", "asin_", "asinh", "asinh_", "atan", "atan_", "atanh", "atanh_", "bitwise_not",
    "bitwise_not_", "ceil", "ceil_", "coalesce", "conj", "conj_physical", "conj_physical_", "const_data_ptr",
    "corrcoef", "cos", "cos_", "cosh", "cosh_", "data_ptr", "deg2rad", "deg2rad_", "dense_dim", "det", "detach",
    "detach_", "digamma", "digamma_", "dim", "element_size", "erf", "erf_", "erfc", "erfc_", "erfinv", "erfinv_",
    "exp", "exp2", "exp2_", "exp_", "expm1", "expm1_", "fix", "fix_", "fliplr", "flipud", "floor", "floor_", "frac",
    "frac_", "frexp", "geqrf", "get_device", "i0", "i0_", "indices", "inverse", "is_coalesced", "is_complex",
    "is_conj", "is_distributed", "is_floating_point", "is_inference", "is_neg", "is_nonzero", "is_signed",
    "isfinite", "isinf", "isnan", "isneginf", "isposinf", "isreal", "item", "lgamma", "lgamma_", "log", "log10",
    "log10_", "log1p", "log1p_", "log2", "log2_", "log_", "logdet", "logical_not", "logical_not_", "matrix_exp",
    "msort", "ndimension", "neg", "neg_", "negative", "negative_", "nelement", "numel", "positive", "rad2deg",
    "rad2deg_", "ravel", "reciprocal", "reciprocal_", "relu", "relu_", "resolve_conj", "resolve_neg", "retain_grad",
    "rsqrt", "rsqrt_", "sgn", "sgn_", "sigmoid", "sigmoid_", "sign", "sign_", "signbit", "sin", "sin_", "sinc",
    "sinc_", "sinh", "sinh_", "slogdet", "sparse_dim", "sqrt", "sqrt_", "square", "square_", "storage_offset", "t",
    "t_", "tan", "tan_", "tanh", "tanh_", "tolist", "trace", "trunc", "trunc_", "untyped_storage", "values", "zero_",
    "__bool__", "__complex__", "__float__", "__index__", "__int__", "__invert__", "__long__", "__nonzero__")}
NO_ARGUMENT_METHODS.update({"__abs__": "abs", "__neg__": "neg", "__pos__": "positive"})
# (the sparse and quantized accessors too: x.crow_indices(1) is "Tensor.crow_indices() takes no arguments (1 given)")
NO_ARGUMENT_METHODS.update({name: name for name in (
    "ccol_indices", "col_indices", "crow_indices", "row_indices", "dequantize", "int_repr", "q_per_channel_axis",
    "q_per_channel_scales", "q_per_channel_zero_points", "q_scale", "q_zero_point", "qscheme")})


def no_argument_method(fn, c_name: str, name: str | None = None):
    """``fn`` refusing any argument besides ``self`` with CPython's METH_NOARGS errors for ``Tensor.<c_name>``
    (``name``: the attribute called, when ``fn`` is another's, x.arccos_ being acos_)."""
    name = name or fn.__name__

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if args or kwargs:
            raise no_arguments(f"{_noargs_owner(name)}.{c_name}", args, kwargs)
        return fn(self)
    return method


def no_arguments(qualname: str, args: tuple, kwargs: dict) -> TypeError:
    """CPython's error for a METH_NOARGS function ``qualname`` (``torch.get_default_dtype``) given arguments."""
    if kwargs:   # (checked first: keywords and positionals give this one)
        return TypeError(f"{qualname}() takes no keyword arguments")
    return TypeError(f"{qualname}() takes no arguments ({len(args)} given)")


def _noargs_owner(name: str) -> str:
    """The class CPython names a METH_NOARGS method of PyTorch's by: the one defining it (``TensorBase``) when the
    call is ``x.detach(1)`` (the compiler's LOAD_METHOD hands CPython the method itself), the tensor's own
    (``Tensor``) when a bound method is called (``f = x.detach; f(1)``, ``getattr(x, "detach")(1)``). Read from
    the caller's bytecode: the callable of the failed CALL was pushed by ``LOAD_METHOD name`` if the stack between
    them holds exactly the call's arguments."""
    import dis
    import os
    import sys
    frame, package = sys._getframe(1), os.path.dirname(__file__)
    while frame.f_back is not None and frame.f_code.co_filename.startswith(package):
        frame = frame.f_back  # (out of minigrad's wrappers: the user's call)
    instructions = list(dis.get_instructions(frame.f_code))
    # (f_lasti may point into the CALL's inline cache, past the instruction's own offset)
    at = max((i for i, ins in enumerate(instructions) if ins.offset <= frame.f_lasti), default=None)
    if at is None or at < 2 or instructions[at].opname != "CALL" or instructions[at - 1].opname != "PRECALL":
        return "Tensor"
    for start in range(at - 2, max(at - 200, -1), -1):
        if instructions[start].opname != "LOAD_METHOD" or instructions[start].argval != name:
            continue
        depth = 0
        for ins in instructions[start + 1:at - 1]:
            depth += dis.stack_effect(ins.opcode, ins.arg if ins.opcode >= dis.HAVE_ARGUMENT else None)
            if depth < 0:
                break
        if depth == instructions[at].arg:
            return "TensorBase"
    return "Tensor"


def install_no_argument_methods(tensor_class) -> None:
    """Wrap the NO_ARGUMENT_METHODS ``tensor_class`` has (after every module has attached its methods)."""
    for name, c_name in NO_ARGUMENT_METHODS.items():
        fn = tensor_class.__dict__.get(name)
        if callable(fn) and not isinstance(fn, type):
            setattr(tensor_class, name, no_argument_method(fn, c_name, name))


# ---- any torch.* function: PyTorch's parser, run once a call has failed --------------------------------------
# The overrides wrapper every public minigrad.* function has (overrides.wrap_function) catches a failed call
# anyway; there, reparse() parses the call as PyTorch's parser would have, with the signatures its errors print
# (_parser_signatures, generated from PyTorch), and raises the parser's TypeError in place of whatever minigrad's
# code ran into: torch.add(x, "a") is "add(): argument 'other' (position 2) must be Tensor, not str". A call the
# parser accepts keeps its own error. Nothing runs for a call that succeeds.

# The functions whose Tensor parameters take a Python number too (python_arg_parser.cpp's
# should_allow_numbers_as_tensors): torch.add(1, x) is parsed fine.
_NUMBERS_AS_TENSORS = frozenset(("add", "add_", "div", "div_", "divide", "divide_", "mul", "mul_", "multiply",
                                 "multiply_", "sub", "sub_", "subtract", "subtract_", "true_divide", "true_divide_",
                                 "floor_divide", "floor_divide_", "copy_"))
# An overload PyTorch has but does not list (deprecated forms): one listed overload then still gets the list.
_HIDDEN_OVERLOAD = "(" + ", ".join(f"<hidden> h{i}" for i in range(30)) + ")"
_REPARSED: dict = {}  # name -> its parsed signatures (parsed on a first failure)


class _AnyName:
    """Every parameter name: the printed ``tuple of ints`` may be PyTorch's ``int[2]`` (conv2d's stride), which
    takes one int too, or an ``int[]``, which does not; the print does not tell, so one int is let through."""

    def __contains__(self, name) -> bool:
        return True


_ONE_INT_ANY = _AnyName()


def reparse(public_name: str, args: tuple, kwargs: dict, error: BaseException) -> None:
    """Raise PyTorch's parser error for the failed call ``public_name(*args, **kwargs)`` (``"torch.add"``) if
    PyTorch's parser refuses it; return if it accepts it (or minigrad has no signature for it)."""
    try:
        _reparse(public_name, args, kwargs, error)
    except TypeError as parser_error:  # (raised as PyTorch's is: not "during handling of" minigrad's error)
        raise parser_error from None


def _reparse(public_name: str, args: tuple, kwargs: dict, error: BaseException) -> None:
    from . import _parser_signatures as S
    key = public_name[6:]  # ("add"; nn.functional's own C functions: "nn.linear")
    name = key.rsplit(".", 1)[-1]
    # (method_error's errors, raised by code the function shares with its method, get the function's form here)
    method_form = getattr(error, "method_form", False)
    if not isinstance(error, TypeError) and len(args) > 2 and _scalar_first_form(name, args[:2]) \
            and all(k == "out" for k in kwargs):
        return   # (torch.add(x, 2, y) failed computing: a deprecated form, which the parser took (check_first))
    if key.startswith("nn.functional.") and name in FUNCTIONAL_CALLS:
        if not (isinstance(error, ValueError) and any(s in str(error) for s in _PYTHON_CHECKS)
                or _failed_comparison(error, name)):
            _reparse_functional(name, args, kwargs)
        return
    if not public_name.startswith("torch.") or "." in key and not key.startswith("nn."):
        return
    invalid_call = getattr(error, "invalid_call", None)
    # (a function form made from a method's overloads (_function_form) is a guess: PyTorch's own list, if known)
    own = key in FUNCTION_OVERLOADS or key in OVERLOADS or key in METHOD_SIGNATURES and (
        key in FUNCTION_SIGNATURES or key not in S.OVERLOADS)
    if not method_form and own:
        # (a table of its own above: parsed with it, as the call was made; an error built from another function's
        # table, raised inside this one, stands)
        if invalid_call is None or invalid_call[0] == key:
            _reparse_own(key, args, kwargs)
        return
    binding = isinstance(error, TypeError) and _refused_binding(error)
    if not binding and not method_form and key in FACTORIES:
        return  # (their errors are built from their own table, but for arguments Python refused to bind)
    if method_form and key not in S.OVERLOADS and key not in S.REQUIRED and str(error).startswith(f"{name}("):
        # (the method's error, self counted; another method's, x.mul(t) in F.lp_pool1d, stands)
        raise TypeError(_COUNTED.sub(lambda m: re.sub(r"\d+", lambda n: str(int(n.group()) + 1), m.group()),
                                     str(error))) from None
    if key in S.OVERLOADS:
        if key not in _REPARSED:
            options = S.OVERLOADS[key] + ((_HIDDEN_OVERLOAD,) if key in S.HIDDEN else ())
            signatures = [_signature(o, ("dim", *_ALWAYS_NULLABLE) if name in _NULLABLE_DIM else _ALWAYS_NULLABLE,
                                     _ONE_INT_ANY) for o in options]
            for param in (p for s in signatures for p in s) if name in _NUMBERS_AS_TENSORS else ():
                param.numbers = param.type == "Tensor"
            _REPARSED[key] = signatures
        _resolve(name, _REPARSED[key], args, kwargs, _unpack_lists, S.OVERLOADS[key])
    elif key in S.REQUIRED:
        # One overload: its positional parameters and out= as PyTorch's errors showed them (other keyword-only
        # ones, never seen there, are taken as they come), parsed in the order PyTorch's parser checks them.
        params = _one_overload(key, kwargs)
        _parse(name, params, args, kwargs, True)
        _unpack_lists(name, params, args, kwargs)  # (after the types: PyTorch unpacks a list as it reads it)
        text = str(error)
        # (an unexpected keyword, or one given twice: Python's words, our name; but NumPy's name of its input or
        # other, which the parser took: the call is made again with minigrad's names, overrides.public)
        if binding and "() got " in text and text.rpartition(" '")[2][:-1] not in _NUMPY_TENSOR_NAMES:
            raise TypeError(f"{name}(){text.split('()', 1)[1]}") from None


# nn.functional functions PyTorch writes in Python, which end in a call of a C function whose parser then refuses
# what the Python code let through: {name: (the C function, its signature as printed, what the Python code passes
# positionally, and by keyword)}. The arguments are the Python function's parameters by name; a constant stands for
# one the Python code computes (the reduction's enum) or checks itself before (dropout's p: "'<' not supported").
FUNCTIONAL_CALLS = {
    "cross_entropy": ("cross_entropy_loss", "(Tensor input, Tensor target, Tensor weight = None, int reduction = 1, "
                      "int ignore_index = -100, float label_smoothing = 0.0)",
                      ("input", "target", "weight", 1, "ignore_index", "label_smoothing"), ()),
    "nll_loss": ("nll_loss_nd", "(Tensor input, Tensor target, Tensor weight = None, int reduction = 1, "
                 "int ignore_index = -100)", ("input", "target", "weight", 1, "ignore_index"), ()),
    "embedding": ("embedding", "(Tensor weight, Tensor indices, int padding_idx = -1, bool scale_grad_by_freq = False, "
                  "bool sparse = False)", ("weight", "input", -1, "scale_grad_by_freq", "sparse"), ()),
    "dropout": ("dropout", "(Tensor input, float p, bool train)", ("input", 0.5, "training"), ()),
    "leaky_relu": ("leaky_relu", "(Tensor input, Number negative_slope = 0.01)", ("input", "negative_slope"), ()),
    "elu": ("elu", "(Tensor input, Number alpha = 1, Number scale = 1, Number input_scale = 1)",
            ("input", "alpha"), ()),
    "celu": ("celu", "(Tensor input, Number alpha = 1.0)", ("input", "alpha"), ()),
    "threshold": ("threshold", "(Tensor input, Number threshold, Number value)", ("input", "threshold", "value"), ()),
    "hardtanh": ("hardtanh", "(Tensor input, Number min_val = -1, Number max_val = 1)", ("input", "min_val", "max_val"),
                 ()),
    "layer_norm": ("layer_norm", "(Tensor input, tuple of ints normalized_shape, Tensor weight = None, "
                   "Tensor bias = None, float eps = 1e-05, bool cudnn_enable = True)",
                   ("input", "normalized_shape", "weight", "bias", "eps", True), ()),
    "batch_norm": ("batch_norm", "(Tensor input, Tensor weight = None, Tensor bias = None, Tensor running_mean = None, "
                   "Tensor running_var = None, bool training, float momentum, float eps, bool cudnn_enabled)",
                   ("input", "weight", "bias", "running_mean", "running_var", "training", "momentum", "eps", True), ()),
    "instance_norm": ("instance_norm", "(Tensor input, Tensor weight = None, Tensor bias = None, "
                      "Tensor running_mean = None, Tensor running_var = None, bool use_input_stats, float momentum, "
                      "float eps, bool cudnn_enabled)", ("input", "weight", "bias", "running_mean", "running_var",
                                                         "use_input_stats", "momentum", "eps", True), ()),
    "group_norm": ("group_norm", "(Tensor input, int num_groups, Tensor weight = None, Tensor bias = None, "
                   "float eps = 1e-05, bool cudnn_enabled = True)",
                   ("input", "num_groups", "weight", "bias", "eps", True), ()),
    "kl_div": ("kl_div", "(Tensor input, Tensor target, int reduction = 1, *, bool log_target = False)",
               ("input", "target", 1), ("log_target",)),
    "glu": ("glu", "(Tensor input, int dim = -1)", ("input", "dim"), ()),
    "rrelu": ("rrelu", "(Tensor input, Number lower = 0.125, Number upper = 0.3333333333333333, bool training = False, "
              "torch.Generator generator = None)", ("input", "lower", "upper", "training"), ()),
    "grid_sample": ("grid_sampler", "(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
                    "bool align_corners)", ("input", "grid", 0, 0, "align_corners"), ()),
}
for _pool in ("max_pool1d", "max_pool2d", "max_pool3d"):
    FUNCTIONAL_CALLS[_pool] = (_pool, "(Tensor input, tuple of ints kernel_size, tuple of ints stride = [], "
                               "tuple of ints padding = 0, tuple of ints dilation = 1, bool ceil_mode = False)",
                               ("input", "kernel_size", "stride", "padding", "dilation", "ceil_mode"), ())


# Those whose Python code checks nothing before its C call: that C function's parser runs before any of minigrad's
# code, as for a function PyTorch writes in C (F.elu(x, '1', inplace=True) refuses '1' before x is written)
PARSED_FIRST_FUNCTIONAL = frozenset(f"torch.nn.functional.{n}" for n in ("elu", "celu", "leaky_relu", "threshold",
                                                                          "rrelu"))


# The ValueErrors of checks PyTorch's Python code makes before it calls the C function: they stand.
_PYTHON_CHECKS = ("is not a valid value for reduction", "dropout probability has to be",
                  "Expected more than 1 spatial element", "eps must be positive during training",
                  "Expected more than 1 value per channel", "eps must be non-negative")


# nn.functional functions whose PyTorch Python code compares or divides an argument before its C call
_PYTHON_ARITHMETIC = frozenset(("batch_norm", "group_norm"))


def _failed_comparison(error: BaseException, name: str) -> bool:
    """Whether ``error`` is a comparison's (or arithmetic's) TypeError raised by the Python code of F.``name`` itself,
    which PyTorch's Python code meets as well before its C call (F.batch_norm(x, m, v, eps=None): ``eps < 0.0``;
    F.group_norm(x, None): ``c // num_groups``; see _PYTHON_ARITHMETIC)."""
    text = str(error)
    if name not in _PYTHON_ARITHMETIC or not isinstance(error, TypeError) or not (
            "not supported between instances of" in text or text.startswith("unsupported operand type(s)")):
        return False
    tb = error.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name == name


def _reparse_functional(name: str, args: tuple, kwargs: dict) -> None:
    """PyTorch's parser error of the C function nn.functional.``name`` ends in (FUNCTIONAL_CALLS), if it refuses
    the arguments the call passes on to it."""
    import inspect

    from .nn import functional
    c_name, option, positional, keywords = FUNCTIONAL_CALLS[name]
    try:
        bound = inspect.signature(getattr(functional, name)).bind(*args, **kwargs)
    except TypeError:
        return  # (Python's own error for the Python function stands)
    bound.apply_defaults()
    given = bound.arguments
    if given.get("return_indices") or name == "grid_sample" and given.get("align_corners") is None:
        return  # (another C function; align_corners=None is the Python code's default, made False)
    if given.get("inplace"):   # (dropout_, elu_, threshold_ ...)
        c_name += "_"
    values = tuple(given[v] if isinstance(v, str) else v for v in positional)
    # (the C function's optional parameters take None here: the Python code turns None into their defaults)
    params = _signature(option, one_int=("kernel_size", "stride", "padding", "dilation"))
    for p in params:   # (but a pool's padding and dilation: passed on as they are; and a number: F.elu(x, None))
        p.allow_none = p.allow_none or p.optional and p.type == "tuple of ints" \
            and not (c_name in _POOLS and p.name in ("padding", "dilation"))
    _parse(c_name, params, values, {k: given[k] for k in keywords}, True)
    _unpack_lists(c_name, params, values, {k: given[k] for k in keywords})


def _reparse_own(name: str, args: tuple, kwargs: dict) -> None:
    """The parse of a function with a table of its own above, with the arguments as the call gave them (its code,
    which raised the "invalid combination" error, may have had them by keyword only: torch.clamp(x, "a"))."""
    if name in METHOD_SIGNATURES:
        recheck(name, args, kwargs, method=False)
    elif name in FUNCTION_OVERLOADS:
        _resolve(name, _OVERLOADS_PARSED[name], args, kwargs, _unpack_lists, FUNCTION_OVERLOADS[name])
    elif name in OVERLOADS:
        if ("own", name) not in _REPARSED:
            _REPARSED["own", name] = [_signature(o, one_int=_ONE_INT_ANY) for o in OVERLOADS[name]]
        _resolve(name, _REPARSED["own", name], args, kwargs, _unpack_lists, OVERLOADS[name])


# The pools' int lists with a default of their own (padding=0, dilation=1), unlike stride=[] (None: the default)
_POOLS = frozenset(("avg_pool1d", "max_pool1d", "max_pool2d", "max_pool3d", "max_pool1d_with_indices"))


def _one_overload(key: str, kwargs: dict) -> list:
    """The parameters of a one-overload function (REQUIRED) for a call with ``kwargs``: the positional ones,
    padded to as many as it takes with ones that take anything, then the keywords given that are none of them."""
    from . import _parser_signatures as S
    names, most, types = S.REQUIRED[key]
    required = len(names.split())
    params, keywords = [], []
    for token in types.split(", ") if types else ():
        if token == "*":  # (then its out=, the one keyword-only parameter the errors showed)
            keywords = params
            params = []
            continue
        param = _Param(token, bool(keywords), one_int=_ONE_INT_ANY)
        param.optional = param.keyword_only or len(params) >= required
        # (None passes a keyword-only out= and the schema's optional types only, Tensor? or int?: hardshrink(x, None)
        # is "argument 'lambd' (position 2) must be Number, not NoneType", cat(ts, None) refuses it as dim)
        param.allow_none = param.keyword_only or param.name in S.NULLABLE.get(key, ())
        params.append(param)
    if keywords:
        keywords, params = params, keywords
    for i in range(len(params), most):
        params.append(_Param(f"object arg{i} = None" if i >= required else f"object {names.split()[i]}", False))
    params += keywords
    known = {p.name for p in params} | {a for p in params for a in NUMPY_NAMES.get(p.name, ())}
    params += [_Param(f"object {k} = None", True) for k in kwargs if k not in known]
    if key in _NUMBERS_AS_TENSORS:  # (torch.mul(x, 2, out=o): a Python number stands for a tensor here too)
        for param in params:
            param.numbers = param.type == "Tensor"
    return params


def alias_method(fn, name: str):
    """``fn`` as the Tensor method ``name``, another spelling of it (x.true_divide is x.div): PyTorch's parser errors
    name the alias, and check its own keywords (true_divide takes no rounding_mode)."""
    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if kwargs:
            error = method_error(name, args, kwargs)
            if error is not None:
                raise error
        try:
            return fn(self, *args, **kwargs)
        except TypeError as error:
            if not getattr(error, "method_form", False):
                raise
            raise (method_error(name, args, kwargs) or error) from None
    method.__name__ = name
    return method


def method_error(name: str, args: tuple, kwargs: dict) -> TypeError | None:
    """PyTorch's parser error for the method call ``x.name(*args, **kwargs)`` (``args`` without self), built where
    minigrad's code has failed (``x.add("a")``: "add(): argument 'other' (position 1) must be Tensor, not str");
    None if PyTorch's parser takes the call. Shared with the function, the code raises the method's error: the
    function's wrapper words it again as the function's (reparse)."""
    from . import _parser_signatures as S
    if name not in S.METHOD_OVERLOADS:
        return None
    if ("method", name) not in _REPARSED:
        options = S.METHOD_OVERLOADS[name] + ((_HIDDEN_OVERLOAD,) if name in S.METHOD_HIDDEN else ())
        signatures = [_signature(o, _ALWAYS_NULLABLE, _ONE_INT_ANY) if o != "()" else [] for o in options]
        for param in (p for s in signatures for p in s) if name in _NUMBERS_AS_TENSORS else ():
            param.numbers = param.type == "Tensor"
        _REPARSED["method", name] = signatures
    try:
        _resolve(name, _REPARSED["method", name], args, kwargs, _unpack_lists, S.METHOD_OVERLOADS[name])
    except TypeError as error:
        error.method_form = True
        return error
    return None


_PYTHON_BINDING = re.compile(r"^[\w.<>]+\(\) (missing \d+ required|takes (from \d+ to )?\d+ positional|"
                             r"got an unexpected keyword|got multiple values)")


def _refused_binding(error: TypeError) -> bool:
    """Whether ``error`` is Python's refusal of the arguments a function was called with, raised where the call
    was made: in the wrapper that caught it, or in a wrapper between that passed them on (``*args, **kwargs``)."""
    tb = error.__traceback__
    if tb is None or not _PYTHON_BINDING.match(str(error)):
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    flags = tb.tb_frame.f_code.co_flags
    return flags & 0x0C == 0x0C  # (CO_VARARGS | CO_VARKEYWORDS: a frame passing on what it was given)


# ---- The parse PyTorch makes first -------------------------------------------------------------------------------
#
# PyTorch's parser checks every argument against its declared type before any code runs. minigrad parses a call
# once its code has failed (reparse above), so a call its code happens to take ran where PyTorch refuses it:
# x.renorm(2, 0., 1) (a float dim), x.mean(dim=(True,)), F.elu(x, alpha='1'). check_first parses first the calls
# that carry a value of a type minigrad's code may take where PyTorch's parser does not (a float, bool, str,
# sequence ...; not only tensors, ints and None), once per call's types (or per _call_key, for sequences).

class _NotFailed(Exception):
    """What reparse is given for a call parsed before it runs (no error of minigrad's to keep)."""


_NOT_FAILED = _NotFailed()
_PLAIN: set = set()  # the types no parse needs: int, None, Tensor (set by install_factories)
_PARSED_FIRST: set = set()  # call keys PyTorch's parser takes
_TYPES_TAKEN: set = set()  # (name, the arguments' types, the keywords): calls taken whatever their values


def check_first(public_name: str, args: tuple, kwargs: dict) -> None:
    """Raise PyTorch's parser error for ``public_name(*args, **kwargs)`` (``"torch.renorm"``) before it runs."""
    if _plain_call(args, kwargs) and not (kwargs and len(args) > 2):
        return   # (only tensors, ints and None: minigrad's code refuses where PyTorch does)
    if _scalar_first_form(public_name.rpartition(".")[2], args[:2]):
        # (a deprecated form: checked by its own code, but for keywords besides out=, which no deprecated form
        # takes and its code cannot tell from its defaults: torch.add(x, 2, y, alpha=1))
        if len(args) <= 2 or all(k == "out" for k in kwargs):
            return
    elif _plain_call(args, kwargs):
        return
    types = _types(public_name, args, kwargs)
    if types not in _TYPES_TAKEN:
        _parse_first(types, args, kwargs, lambda: reparse(public_name, args, kwargs, _NOT_FAILED))


def _scalar_first_form(name: str, leading: tuple) -> bool:
    """Whether a call may be a deprecated scalar-first form (``x.addcmul_(0.5, a, b)``: see scalar_first), which
    the overloads PyTorch lists do not show: its own code checks it."""
    base = name.rstrip("_")
    if base in _BETA_FIRST:   # (beta comes first in both forms: x.addmm(0.5, m, m), torch.addmm(0.5, x, m, m))
        return bool(leading) and isinstance(leading[0], numbers.Number)
    return base in _SCALAR_FIRST and any(isinstance(a, numbers.Number) for a in leading)


def _types(name: str, args: tuple, kwargs: dict) -> tuple:
    """The call's name, its arguments' types and its keywords (``type(a)`` calls: map(type, ...) costs more)."""
    if not kwargs:
        n = len(args)
        if n == 1:
            return name, type(args[0])
        if n == 2:
            return name, type(args[0]), type(args[1])
        if n == 3:
            return name, type(args[0]), type(args[1]), type(args[2])
    return (name, *[type(a) for a in args], *kwargs, *[type(v) for v in kwargs.values()])


def _parse_first(types: tuple, args: tuple, kwargs: dict, parse) -> None:
    """Run ``parse`` for a call whose types are not known to be taken; then remember its types (unless its
    sequences' elements decide: then the call key, see _call_key)."""
    key = _call_key(types[0], args, kwargs)
    if key is None or key not in _PARSED_FIRST:
        parse()
        if key is not None and len(_PARSED_FIRST) < 8192:
            _PARSED_FIRST.add(key)
    if not (tuple in types or list in types or dict in types or _SIZE[0] in types) and len(_TYPES_TAKEN) < 8192:
        _TYPES_TAKEN.add(types)


def _plain_call(args: tuple, kwargs: dict) -> bool:
    plain = _PLAIN
    for value in args:
        if type(value) not in plain:
            return False
    for value in kwargs.values():
        if type(value) not in plain:
            return False
    return True


def check_first_method(name: str, self, args: tuple, kwargs: dict) -> None:
    """Raise PyTorch's parser error for ``self.name(*args, **kwargs)`` before it runs."""
    from . import _parser_signatures as S
    if name in METHOD_SIGNATURES:
        recheck(name, args, kwargs, method=True)
    elif name in S.METHOD_OVERLOADS:
        error = method_error(name, args, kwargs)
        if error is not None:
            raise error
    elif name in S.OVERLOADS:   # (the function's overloads; the method's error lists them as methods)
        try:
            _reparse(f"torch.{name}", (self, *args), kwargs, _NOT_FAILED)
        except TypeError as error:
            if getattr(error, "invalid_call", None) is None:
                raise
            raise for_method(error, name) from None
    else:   # (one overload: the function's, without its first tensor and its out= (no method takes one: x.mul(y,
        # out=None) is "unexpected"); an in-place method's is its function's)
        table = name if name in S.REQUIRED else name[:-1]
        params = [p for p in _one_overload(table, kwargs)[1:] if p.name != "out"]
        _parse(name, params, args, kwargs, True)
        _unpack_lists(name, params, args, kwargs)


def parsed_first(fn, name: str):
    """``fn`` as the Tensor method ``name``, whose call PyTorch's parser checks first (see check_first)."""
    from . import _parser_signatures as S
    key = f"Tensor.{name}"
    # (after a failure: not the methods whose own wrappers parse again (method_form); the function's overloads
    # reworded as methods (S.OVERLOADS) count their positions with self, so those errors stand)
    again = name not in METHOD_SIGNATURES
    own_positions = name in S.METHOD_OVERLOADS or name not in S.OVERLOADS

    @functools.wraps(fn)
    def method(self, *args, **kwargs):
        if (args or kwargs) and not _plain_call(args, kwargs) and not _scalar_first_form(name, args[:1]):
            if loose_ints(name, args, kwargs):   # (x.count_nonzero(0, 1.5): parsed as the list it is)
                return method(self, args)
            types = _types(key, args, kwargs)
            if types not in _TYPES_TAKEN:
                _parse_first(types, args, kwargs, lambda: check_first_method(name, self, args, kwargs))
        elif kwargs and len(args) > 1 and _scalar_first_form(name, args[:1]):
            # (a deprecated form takes no keywords, which minigrad's code cannot tell from its defaults:
            # x.addcmul(2, a, b, value=1))
            check_first_method(name, self, args, kwargs)
        try:
            return fn(self, *args, **kwargs)
        except Exception as error:
            if loose_ints(name, args, kwargs):   # (x.count_nonzero(0, 1): checked once the call failed)
                return method(self, args)
            refusal = parser_refusal(name, self, args, kwargs, error)   # (x.flatten(1, 0, 2, 3): counted without self)
            if refusal is not None:
                raise refusal from None
            # (a call of tensors, ints and None, not parsed first, failed in the function: the method's own parser
            # error, if its parser refuses it: x.hardshrink(t) names 'lambd' at position 1, not the function's 2)
            if again and (args or kwargs) and _plain_call(args, kwargs) and not _scalar_first_form(name, args[:1]):
                try:
                    check_first_method(name, self, args, kwargs)
                except TypeError as parser_error:
                    if own_positions or not _COUNTED.search(str(parser_error)):
                        raise parser_error from None
            old, new = _SCALAR_FIRST.get(name.rstrip("_"), ("", ""))
            if old and len(args) > old.count(",") + 1:   # (x.addcmul(0.5, a, b, c): more than any form takes)
                raise invalid_combination(name, args, kwargs, (new[new.index("("):],)) from None
            if old and len(args) < old.count(",") + 1:   # (x.addcmul(0.5, a): no deprecated form, the parser's error)
                try:
                    check_first_method(name, self, args, kwargs)
                except TypeError as parser_error:
                    raise parser_error from None
            raise
    return method


# Tensor methods PyTorch writes in Python (torch/_tensor.py: their own checks, then other functions' parsers), and
# those the backward formulas and the hot loops call (kept free of the extra call: their arguments are minigrad's)
_NOT_PARSED_FIRST = frozenset((
    "norm", "split", "unique", "unique_consecutive", "stft", "istft", "lu", "unflatten", "resize", "resize_as",
    "add", "sub", "mul", "div", "sum", "expand", "reshape", "view", "to", "add_", "mul_", "copy_", "sum_to_size",
    "masked_fill", "masked_fill_", "transpose", "permute", "select", "narrow", "squeeze", "unsqueeze", "index_select",
    "new_zeros", "new_ones", "new_empty", "new_full", "new_tensor", "type", "type_as", "fill_", "zero_", "where",
    "matmul", "mm", "pow", "clamp", "clamp_min", "expand_as", "view_as", "reshape_as", "contiguous", "clone",
    "nonzero",   # (its method has overloads of its own, without the function's out=: _ops_sorting._nonzero_method)
))


def install_parsed_first(tensor_class) -> None:
    """Wrap the Tensor methods of ``tensor_class`` that PyTorch's parser binds (see parsed_first)."""
    from . import _parser_signatures as S
    for name, value in list(vars(tensor_class).items()):
        if name.startswith("_") or name in _NOT_PARSED_FIRST or type(value) is not type(install_parsed_first):
            continue
        if name in NO_ARGUMENT_METHODS:   # (x.tanh(1.): refused by its own wrapper, CPython's error)
            continue
        one = name if name in S.REQUIRED else name[:-1] if name.endswith("_") and name[:-1] in S.REQUIRED else None
        if name in METHOD_SIGNATURES or name in S.METHOD_OVERLOADS or name in S.OVERLOADS \
                or one is not None and S.REQUIRED[one][2].startswith("Tensor "):
            setattr(tensor_class, name, parsed_first(value, name))

