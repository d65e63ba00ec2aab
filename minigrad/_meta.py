"""PyTorch's meta device (``device='meta'``), on NumPy: tensors with a shape, dtype and strides but no values.

``torch.empty(3, device='meta')`` and ``x.to('meta')`` make such tensors, ops on them give meta tensors again (with
their nodes: a program can build and walk a graph without computing), and reading values is refused: ``item()``,
``tolist()``, ``numpy()``, ``.cpu()``; they print as ``tensor(..., device='meta', size=(3,))``.

minigrad gives a meta tensor an array of zeros (its ops compute on them, and their results are thrown away as
values) and records the array that owns them here, as ``_zerotensor.ZEROS`` records a ZeroTensor's: views of a
meta tensor are meta tensors, and every op with a meta input (``intercept``, from ``_dispatch.Op``) marks its
outputs.
"""
from __future__ import annotations

import weakref

from ._strides import storage_owner as _owner

# id(array owning a meta tensor's memory) -> a weak reference to it (empty while none is alive)
METAS: dict = {}

NO_DATA = "Cannot copy out of meta tensor; no data!"


def mark(t):
    """Make ``t`` (a tensor whose memory is its own) a meta tensor; returns it."""
    owner = _owner(t._data)
    key = id(owner)
    METAS[key] = weakref.ref(owner, lambda _, key=key: METAS.pop(key, None))
    return t


def is_meta(t) -> bool:
    """Whether tensor ``t`` is on the meta device (an op's absent optional input: no)."""
    data = getattr(t, "_data", None)
    if not METAS or data is None:
        return False
    owner = _owner(data)
    ref = METAS.get(id(owner))
    return ref is not None and ref() is owner


def is_meta_device(dev) -> bool:
    """Whether ``dev`` (a torch.device, a string or None) names the meta device."""
    if isinstance(dev, str):
        return dev == "meta" or dev.startswith("meta:")
    return getattr(dev, "type", None) == "meta"


def create(fn, args, kwargs):
    """A factory's result on the meta device: made on the CPU, then marked (``torch.zeros(2, device='meta')``). A
    random factory draws nothing there: the generator's state is put back."""
    from . import _random
    kwargs = dict(kwargs)
    kwargs.pop("device")
    generator = kwargs.get("generator") or _random.default_generator
    state = generator.get_state()
    try:
        return mark(fn(*args, **kwargs))
    finally:
        generator.set_state(state)


def intercept(op, tensors, out, run):
    """``run()`` (the op as usual) with its outputs marked meta when an input is; None: no meta input."""
    metas = [is_meta(t) for t in tensors]
    if out is not None:   # (in place: a meta tensor takes any values, as they are never read; a CPU one none)
        if is_meta(out) or not any(metas):
            return None
        if op.name == "copy_":
            raise NotImplementedError(NO_DATA)
        raise RuntimeError("Tensor on device meta is not on the expected device cpu!")
    if not any(metas):
        return None
    if op.elementwise:   # (TensorIterator's device check: the first operand's device, 0-dim CPU tensors aside)
        devices = ["meta" if m else "cpu" for t, m in zip(tensors, metas) if m or t._data.ndim]
        for d in devices[1:]:
            if d != devices[0]:
                raise RuntimeError(f"Tensor on device {d} is not on the expected device {devices[0]}!")
    result = run()
    for o in result if isinstance(result, (tuple, list)) else (result,):
        if o is not None and hasattr(o, "_data") and not is_meta(o):
            mark(o)
    return result


def check_item(t) -> None:
    """PyTorch's refusal of ``item()`` (and ``float()``, ``bool()``) on a meta tensor."""
    if is_meta(t):
        raise RuntimeError("Tensor.item() cannot be called on meta tensors")


def check_copy_out(t) -> None:
    """PyTorch's refusal to copy a meta tensor's values anywhere (``tolist()``, ``.cpu()``, ``.to('cpu')``)."""
    if is_meta(t):
        raise NotImplementedError(NO_DATA)


def follow(out, *inputs):
    """``out``, made from ``inputs`` without an op of the table (comparisons, argmax, casts to integers), on the meta
    device when one of them is."""
    if METAS and not is_meta(out) and any(is_meta(t) for t in inputs if hasattr(t, "_data")):
        mark(out)
    return out


def like(out, input, device=None):
    """``out``, made like ``input`` (``zeros_like``, ``x.new_zeros``), on input's device or on ``device`` if given."""
    if is_meta_device(device) or (device is None and is_meta(input)):
        mark(out)
    return out


def creation_device(device):
    """``device`` as the CPU-only checks read it: the meta device is made on the CPU, then marked (``like``)."""
    return None if is_meta_device(device) else device
