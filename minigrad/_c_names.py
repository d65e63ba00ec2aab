"""PyTorch's names of the functions of torch.special, torch.linalg and torch.fft.

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
        copy = types.FunctionType(fn.__code__, fn.__globals__, f"{prefix}_{name}", fn.__defaults__, fn.__closure__)
        copy.__kwdefaults__, copy.__doc__ = fn.__kwdefaults__, fn.__doc__
        copy.__dict__.update(fn.__dict__)
        copy.__qualname__, copy.__module__ = copy.__name__, c_module.__name__
        namespace[name] = copy
