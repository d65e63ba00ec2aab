"""Writes minigrad/_parser_signatures.py: PyTorch's argument-parser signatures of the torch.* functions
minigrad has, as PyTorch's own errors print them (run by hand with the venv's PyTorch, from the repo root:
``.venv/bin/python tests/gen_parser_signatures.py``).

PyTorch's parser names every signature of a function with several overloads when a call fits none ("received an
invalid combination of arguments ... expected one of: * (Tensor input, Tensor other, *, Tensor out = None)"), and
for a function with one overload the parameters a call leaves out ("missing 1 required positional arguments:
"other"") or how many it takes positionally ("takes from 1 to 3 positional arguments"). A call with no argument,
and one with 20, show those.
"""
import re
import warnings

import torch

import minigrad


def _probe(fn, args, kwargs=None):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            fn(*args, **(kwargs or {}))
    except TypeError as e:
        return str(e)
    except Exception:  # noqa: BLE001  (parsed fine: the call then failed otherwise)
        return None
    return None


def _wrapped(option: str, width: int = 100) -> str:
    """``option`` as a Python string literal of lines under 120 characters (split after ", ")."""
    parts, line = [], ""
    for token in option.split(", "):
        if line and len(line) + len(token) > width:
            parts.append(line)
            line = ""
        line += token + ", "
    parts.append(line[:-2])
    return "\n".join(f"        {p!r}" for p in parts) + ","


_DUMMIES = {"Tensor": lambda: torch.ones(1), "int": lambda: 1, "Number": lambda: 1.0, "float": lambda: 1.0,
            "bool": lambda: False, "tuple of ints": lambda: [1], "torch.dtype": lambda: torch.float32,
            "str": lambda: "a", "torch.device": lambda: "cpu", "tuple of Tensors": lambda: [torch.ones(1)],
            "torch.layout": lambda: torch.strided, "torch.memory_format": lambda: torch.contiguous_format,
            "tuple of floats": lambda: [1.0], "tuple of Scalars": lambda: [1]}


def _positional_types(fn, most: int, required: int) -> str:
    """The types of a one-overload function's positional parameters, read from the parser's errors: an object()
    at each position in turn ("argument 'bias' (position 3) must be Tensor, not object"), the ones before given
    a value of their type."""
    params, args = [], []
    for position in range(1, most + 1):
        error = _probe(fn, (*args, object()))
        found = re.search(rf"argument '(\w+)' \(position {position}\) must be (.+), not object$", error or "")
        if not found or found.group(2) not in _DUMMIES:
            break
        params.append(f"{found.group(2)} {found.group(1)}")
        args.append(_DUMMIES[found.group(2)]())
    # its out= (keyword-only, so never among those): the required arguments, and an object() as out
    error = _probe(fn, (*args[:required], ), {"out": object()}) if len(args) >= required else None
    found = re.search(r"argument 'out' must be (.+), not object$", error or "")
    if found:
        params.append(f"*, {found.group(1)} out = None")
    return ", ".join(params)


def _nullable(fn, types: str) -> tuple:
    """The positional parameters of a one-overload function that take None (``Tensor? weight``, ``int? dim``):
    None at each position in turn, the others given a value of their type, and the parser does not refuse it
    ("argument 'lambd' (position 2) must be Number, not NoneType" for a ``Scalar lambd``)."""
    params = [p.rsplit(" ", 1) for p in types.split(", ") if p and p != "*" and not p.endswith(" = None")]
    dummies = [_DUMMIES[kind]() for kind, _ in params]
    nullable = []
    for position, (_, name) in enumerate(params):
        error = _probe(fn, (*dummies[:position], None, *dummies[position + 1:]))
        if not re.search(rf"argument '{name}' \(position {position + 1}\) must be .+, not NoneType$", error or ""):
            nullable.append(name)
    return tuple(nullable)


def main() -> None:
    overloads, hidden, required, nullable = {}, [], {}, {}
    functional = torch.nn.functional
    # torch.* functions, and nn.functional's C functions that are not torch.* ones (torch._C._nn.linear ...),
    # named "nn.linear" as minigrad's overrides name them ("torch.nn.linear")
    names = [(n, n, getattr(torch, n)) for n in sorted(dir(torch)) if hasattr(minigrad, n)]
    names += [(f"nn.{n}", n, getattr(functional, n)) for n in sorted(dir(functional))
              if hasattr(minigrad.nn.functional, n) and getattr(torch, n, None) is not getattr(functional, n)]
    for key, name, fn in names:
        if name.startswith("_") or type(fn).__name__ != "builtin_function_or_method":
            continue
        none, many = _probe(fn, ()), _probe(fn, (None,) * 20)
        if none is None or many is None or not none.startswith(f"{name}()"):
            continue  # (no parser: METH_NOARGS functions, or no argument required)
        if "invalid combination of arguments" in none:
            options = re.findall(r"^ \* (\(.*\))$", none, re.M) or re.findall(r"but expected (\(.*\))$", none, re.M)
            overloads[key] = tuple(options)
            if "one of:" not in none:
                hidden.append(key)
            continue
        missing = re.search(r'missing \d+ required positional arguments?: (.*)$', none)
        counts = re.search(r"takes (?:from (\d+) to )?(\d+) positional arguments?", many)
        if missing and counts:
            names = tuple(re.findall(r'"([^"]+)"', missing.group(1)))
            required[key] = (names, int(counts.group(2)), _positional_types(fn, int(counts.group(2)), len(names)))
            if _nullable(fn, required[key][2]):
                nullable[key] = _nullable(fn, required[key][2])
    method_overloads, method_hidden = {}, []
    for name in sorted(dir(torch.Tensor)):
        if name.startswith("_") or not hasattr(minigrad.Tensor, name) or not callable(getattr(torch.Tensor, name)):
            continue
        none = _probe(getattr(torch.ones(2), name), ())
        if none is None or not none.startswith(f"{name}() received an invalid combination of arguments"):
            continue
        options = re.findall(r"^ \* (\(.*\))$", none, re.M) or re.findall(r"but expected (\(.*\))$", none, re.M)
        method_overloads[name] = tuple(options)
        if "one of:" not in none:
            method_hidden.append(name)
    lines = ['"""PyTorch\'s argument-parser signatures of torch.* functions, as its errors print them.',
             "",
             "Generated by tests/gen_parser_signatures.py from PyTorch " + torch.__version__.split("+")[0]
             + " (do not edit by hand; _arg_errors.reparse reads them).",
             "OVERLOADS: the functions with several overloads, those PyTorch lists in its \"invalid combination of",
             "arguments\" error. HIDDEN: those of them with overloads it does not list (deprecated forms: torch.add's",
             "``(Tensor input, Number alpha, Tensor other)``), so that one listed overload still gives the list.",
             "REQUIRED: the functions with one overload: {name: (its required parameters, how many arguments it",
             "takes positionally, the types and names of those its errors showed)}. NULLABLE: the positional",
             "parameters of REQUIRED functions that take None (their schemas' ``Tensor?``, ``int?``: the errors",
             "do not print them). METHOD_OVERLOADS, METHOD_HIDDEN:",
             "OVERLOADS and HIDDEN of Tensor methods (without self).",
             '"""', "", "OVERLOADS = {"]
    for name, options in overloads.items():
        lines.append(f"    {name!r}: (")
        lines.extend(_wrapped(o) for o in options)
        lines.append("    ),")
    lines += ["}", "", "HIDDEN = frozenset(("]
    lines += [f"    {n!r}," for n in hidden]
    lines += ["))", "", "REQUIRED = {"]
    for n, (names, most, types) in required.items():
        lines.append(f"    {n!r}: ({' '.join(names)!r}, {most},")
        lines.append(_wrapped(types).replace("        ", "        ", 1)[:-1] + "),")
    lines += ["}", "", "NULLABLE = {"]
    lines += [f"    {n!r}: {names!r}," for n, names in nullable.items()]
    lines += ["}", "", "METHOD_OVERLOADS = {"]
    for name, options in method_overloads.items():
        lines.append(f"    {name!r}: (")
        lines.extend(_wrapped(o) for o in options)
        lines.append("    ),")
    lines += ["}", "", "METHOD_HIDDEN = frozenset(("]
    lines += [f"    {n!r}," for n in method_hidden]
    lines += ["))", ""]
    with open("minigrad/_parser_signatures.py", "w") as f:
        f.write("\n".join(lines))


if __name__ == "__main__":
    main()
