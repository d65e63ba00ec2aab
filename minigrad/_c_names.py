"""PyTorch's names of the functions of torch.special, torch.linalg and torch.fft (and of Tensor's aliases).

Those are C functions bound under their ATen names: ``torch.special.i0.__name__`` is ``"special_i0"``,
``torch.linalg.det.__name__`` is ``"linalg_det"``, ``torch.fft.fft.__name__`` is ``"fft_fft"`` (and so are their
``__qualname__``s). minigrad's are Python functions, some shared with the ``torch.*`` namespace (``special.i0``
is ``i0``), so each namespace gets its own copy of the function (same code, defaults and attributes: no extra
call) carrying PyTorch's name, and ``torch.i0.__name__`` stays ``"i0"``.
"""

import sys
import types


def _c_module(prefix: str, namespace_module: str) -> types.ModuleType:
    """``minigrad._C._<prefix>`` (PyTorch's ``torch._C._special`` ...), where the renamed functions are found
    too (pickle finds a function by its ``__module__`` and ``__qualname__``): ``<prefix>_<name>`` is looked up
    as the namespace's current ``<name>`` (which may be a wrapper added later, e.g. for ``out=``)."""
    name = f"minigrad._C._{prefix}"
    if name not in sys.modules:
        module = types.ModuleType(name)

        def __getattr__(attr: str):
            if attr.startswith(prefix + "_") and hasattr(sys.modules[namespace_module], attr[len(prefix) + 1:]):
                return getattr(sys.modules[namespace_module], attr[len(prefix) + 1:])
            raise AttributeError(f"module '{name}' has no attribute '{attr}'")
        module.__getattr__ = __getattr__
        sys.modules[name] = module
    return sys.modules[name]


def rename_namespace(namespace: dict, prefix: str) -> None:
    """Give every public function of a namespace module (its ``globals()``) the name ``<prefix>_<name>``."""
    module = namespace["__name__"]
    c_module = _c_module(prefix, module)
    for name, fn in list(namespace.items()):
        if name.startswith("_") or not isinstance(fn, types.FunctionType):
            continue
        if fn.__module__ != module and name not in namespace.get("__all__", (name,)):
            continue   # (a helper imported for the module's own use, not one of its public functions)
        namespace[name] = renamed(fn, f"{prefix}_{name}", f"{prefix}_{name}", c_module.__name__)


def renamed(fn: types.FunctionType, name: str, qualname: str, module: str) -> types.FunctionType:
    """A copy of ``fn`` (same code, closure, defaults and attributes: calling it costs the same) with PyTorch's
    names: for an alias (``torch.fix`` is minigrad's ``trunc``) or a function made by a factory (``x.acos_``)."""
    copy = types.FunctionType(fn.__code__, fn.__globals__, name, fn.__defaults__, fn.__closure__)
    copy.__kwdefaults__, copy.__doc__ = fn.__kwdefaults__, fn.__doc__
    copy.__dict__.update(fn.__dict__)
    copy.__qualname__, copy.__module__ = qualname, module
    return copy


# The public functions PyTorch binds under another name than the attribute's (its C++ or private Python names).
ODD_NAMES = {"minigrad": {"symeig": "_symeig"},
             "minigrad.nn.functional": {"logsigmoid": "log_sigmoid", "threshold": "_threshold"},
             "minigrad.autograd": {"is_multithreading_enabled": "_is_multithreading_enabled"}}
# F.max_pool2d, torch.unique and their like are PyTorch's boolean_dispatch closures (``print(F.max_pool2d)``
# shows it).
BOOLEAN_DISPATCH = {"minigrad": ("lu", "unique", "unique_consecutive"),
                    "minigrad.nn.functional": ("adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool3d",
                                               "fractional_max_pool2d", "fractional_max_pool3d", "max_pool1d",
                                               "max_pool2d", "max_pool3d")}


def name_like_pytorch(namespace: dict, tensor_class: type) -> None:
    """Once every public function is installed: give each of Tensor's methods its attribute's name, as PyTorch's
    are named (an alias, ``x.fix`` is ``x.trunc``'s function, or a method made by a factory, ``x.acos_``,
    ``x.float``, becomes a renamed copy ``Tensor.<name>``, where pickle finds it again), a ``torch.*`` function
    shared with torch.nn.functional (``torch.max_pool1d``) a copy of its own, and the few odd names above. (The
    other ``torch.*`` functions get their names in overrides.install.)"""
    from .overrides import _TENSOR_PYTHON
    functional = sys.modules["minigrad.nn.functional"]
    for name, fn in list(namespace.items()):
        if isinstance(fn, types.FunctionType) and fn.__module__ == functional.__name__ and not name.startswith("_"):
            namespace[name] = renamed(fn, name, name, namespace["__name__"])
    for name, fn in list(vars(tensor_class).items()):
        if name.startswith("_") or not isinstance(fn, types.FunctionType):
            continue
        # (and PyTorch's methods written in Python, whose binding errors Python words with the qualified name:
        # "Tensor.norm() takes from 1 to 5 positional arguments", where torch.norm's says "norm()")
        python_method = name in _TENSOR_PYTHON and fn.__qualname__ != f"Tensor.{name}"
        if fn.__name__ != name or "<" in fn.__qualname__ or python_method:
            setattr(tensor_class, name, renamed(fn, name, f"Tensor.{name}", tensor_class.__module__))
    for module, names in ODD_NAMES.items():
        for name, odd in names.items():   # (__name__ only: pickle finds them by __qualname__, the attribute's)
            getattr(sys.modules[module], name).__name__ = odd
    for module, names in BOOLEAN_DISPATCH.items():
        for name in names:
            getattr(sys.modules[module], name).__qualname__ = "boolean_dispatch.<locals>.fn"
