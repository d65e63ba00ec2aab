"""PyTorch's meta device (``device='meta'``), on NumPy: tensors with a shape, dtype and strides but no values.

``torch.empty(3, device='meta')`` and ``x.to('meta')`` make such tensors, ops on them give meta tensors again (with
their nodes: a program can build and walk a graph without computing), and reading values is refused: ``item()``,
``tolist()``, ``numpy()``, ``.cpu()``; they print as ``tensor(..., device='meta', size=(3,))``. With the meta
default device (``torch.set_default_device('meta')``, ``with torch.device('meta'):``) factories and layers make meta
tensors; random fills of them draw nothing; ops without a meta kernel (``nonzero``, ``unique``) refuse them.

minigrad gives a meta tensor an array of zeros (its ops compute on them, and their results are thrown away as
values) and records the array that owns them here, as ``_zerotensor.ZEROS`` records a ZeroTensor's: views of a
meta tensor are meta tensors, and every op with a meta input (``intercept``, from ``_dispatch.Op``) marks its
outputs.
"""
from __future__ import annotations

import functools
import weakref

from ._device import _DEFAULT
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


def requested(kwargs) -> bool:
    """Whether a factory given ``kwargs`` makes a meta tensor: ``device='meta'``, or no device while the default
    device is meta (``torch.set_default_device('meta')``, ``with torch.device('meta'):``)."""
    dev = kwargs.get("device")
    return is_meta_device(_DEFAULT[0] if dev is None else dev)


def create(fn, args, kwargs):
    """A factory's result on the meta device: made on the CPU, then marked (``torch.zeros(2, device='meta')``). A
    random factory draws nothing there: the generator's state is put back."""
    from . import _random
    kwargs = dict(kwargs)
    kwargs.pop("device", None)
    generator = kwargs.get("generator") or _random.default_generator
    state, default = generator.get_state(), _DEFAULT[0]
    _DEFAULT[0] = None   # (made on the CPU, whatever the default device)
    try:
        return mark(fn(*args, **kwargs))
    finally:
        _DEFAULT[0] = default
        generator.set_state(state)


def draws_nothing(sampler):
    """``sampler`` (an in-place random fill: ``uniform_``, ``normal_`` ...) drawing nothing from its generator when
    it fills a meta tensor (``nn.Linear(2, 2, device='meta').reset_parameters()``), as PyTorch's meta kernels."""
    @functools.wraps(sampler)
    def fill(input, *args, generator=None, **kwargs):
        if not METAS or not is_meta(input):
            return sampler(input, *args, generator=generator, **kwargs)
        from . import _random
        state = (generator or _random.default_generator).get_state()
        try:
            return sampler(input, *args, generator=generator, **kwargs)
        finally:
            (generator or _random.default_generator).set_state(state)
    return fill


# The ops (not elementwise) whose kernels refuse tensors on two devices: the input whose device the others must
# be on, and the inputs checked (None: all). addmm / addmv check only self against mat1 / mat; PyTorch's other
# kernels read a mix unchecked (``mm(cpu, meta)`` is a CPU tensor of garbage), where minigrad gives a meta tensor.
_SAME_DEVICE = {"addmm": (1, (0,)), "addmv": (1, (0,)), "mv": (0, None), "dot": (0, None), "vdot": (0, None),
                "cat": (0, None), "stack": (0, None), "mse_loss": (0, None), "native_layer_norm": (0, None)}


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
    if op.name == "masked_select":
        check_kernel(op.name, *tensors)
    check = _SAME_DEVICE.get(op.name)
    if check is not None:   # (an op whose kernel checks its tensors' devices, meta and CPU mixed)
        from .derivatives import is_absent
        first, others = check
        expected = "meta" if metas[first] else "cpu"
        for j in others or range(len(tensors)):
            if metas[j] != metas[first] and not is_absent(tensors[j]._data):   # (a missing weight: no check)
                raise RuntimeError(f"Tensor on device {'cpu' if metas[first] else 'meta'} is not on the expected "
                                   f"device {expected}!")
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


_NONZERO = ("The register_meta function for torch.nonzero() raises unimplemented by default, as a correct "
            "data-independent implementation does not exist. This implementation returns a fake value, assuming all "
            "elements of the tensor are non-zero. To enable this registration, please set "
            "'torch.fx.experimental._config.meta_nonzero_assume_all_nonzero' to True.")


def check_kernel(name: str, *tensors) -> None:
    """PyTorch's refusal of an op without a meta kernel (``nonzero``, ``unique``: a shape read off the values) on
    meta tensors; ``name``: its aten name."""
    if METAS and any(is_meta(t) for t in tensors if hasattr(t, "_data")):
        if name == "nonzero":
            raise NotImplementedError(_NONZERO)
        raise NotImplementedError(
            f"aten::{name}: attempted to run this operator with Meta tensors, but there was no fake impl or Meta "
            "kernel registered. You may have run into this message while using an operator with PT2 compilation "
            "APIs (torch.compile/torch.export); in order to use this operator with those APIs you'll need to add a "
            "fake impl. Please see the following for next steps:  "
            "https://pytorch.org/tutorials/advanced/custom_ops_landing_page.html")


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
