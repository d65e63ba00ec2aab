"""PyTorch's meta device (``device='meta'``), on NumPy: tensors with a shape, dtype and strides but no values.

``torch.empty(3, device='meta')`` and ``x.to('meta')`` make such tensors, ops on them give meta tensors again (with
their nodes: a program can build and walk a graph without computing), and reading values is refused: ``item()``,
``tolist()``, ``numpy()``, ``.cpu()``; they print as ``tensor(..., device='meta', size=(3,))``. With the meta
default device (``torch.set_default_device('meta')``, ``with torch.device('meta'):``) factories and layers make meta
tensors; random fills of them draw nothing; ops without a meta kernel (``nonzero``, ``unique``) refuse them.

minigrad gives a meta tensor an array of zeros and records the array that owns them here, as
``_zerotensor.ZEROS`` records a ZeroTensor's: views of a meta tensor are meta tensors, and every op with a meta
input (``intercept``, from ``_dispatch.Op``) marks its outputs. The zeros of a factory's result, of ``x.to('meta')``
and of a layer built on the meta device are address space only (``empty``: memory the system hands out on first
write, and nothing writes a meta tensor), so ``torch.empty(10**5, 10**5, device='meta')`` costs no memory and a meta
``nn.Linear(50000, 50000)`` is made at once; their real strides keep ``stride()`` and views exact. The common ops
(elementwise ones, mm/addmm/bmm, sum/mean: ``shapes_only``) then work out their result's dtype from one element of
each operand and return such memory at its shape, as random fills (``draws_nothing``) and optimizer steps
(``optim.optimizer._on_stand_ins``) run on one element in each dim; the others compute on the zeros, their results
thrown away as values (slow on large meta tensors: other reductions, convolutions, indexing ...).
"""
from __future__ import annotations

import copy
import functools
import mmap
import sys
import weakref

import numpy as np

from ._device import _DEFAULT
from ._per_thread import PerThreadFlag
from ._strides import storage_owner as _owner

# id(array owning a meta tensor's memory) -> a weak reference to it (empty while none is alive)
METAS: dict = {}

NO_DATA = "Cannot copy out of meta tensor; no data!"

# True while a layer is built with device='meta' (nn/modules/module.py): the factories it calls inside
# (``_creation.empty``, ``zeros``, ``ones``) make meta tensors, so nothing of its size is allocated or drawn; per
# thread, as the default device it stands in for (another thread's factories make CPU tensors meanwhile)
BUILDING = PerThreadFlag(False)


def mark(t):
    """Make ``t`` (a tensor whose memory is its own) a meta tensor; returns it."""
    owner = _owner(t._data)
    key = id(owner)
    METAS[key] = weakref.ref(owner, lambda _, key=key: METAS.pop(key, None))
    return t


def is_meta(t) -> bool:
    """Whether tensor ``t`` is on the meta device (an op's absent optional input: no)."""
    data = getattr(t, "_data", None)
    return bool(METAS) and data is not None and holds_meta(data)


def holds_meta(a: np.ndarray) -> bool:
    """Whether array ``a`` is (a view of) a meta tensor's memory."""
    owner = _owner(a)
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
    state, default, building = generator.get_state(), _DEFAULT[0], BUILDING[0]
    _DEFAULT[0], BUILDING[0] = None, False   # (made on the CPU, whatever the default device)
    try:
        sized = _sized(getattr(fn, "__name__", ""), args, kwargs)
        if sized is None:
            return mark(fn(*args, **kwargs))
        # (a factory laid out by its size alone: made at size 1 in each dim for its dtype, flags and checks, then
        # given memory that is never written at the size asked for)
        shape, strides, small_args, small_kwargs = sized
        t = fn(*small_args, **small_kwargs)
        t._data = empty(shape, t._data.dtype, strides)
        return mark(t)
    finally:
        _DEFAULT[0], BUILDING[0] = default, building
        generator.set_state(state)


def _sized(name: str, args: tuple, kwargs: dict):
    """(shape, strides, args, kwargs with the size made all ones) of a call to factory ``name`` whose result is
    laid out by its size alone (``zeros``, ``ones``, ``empty``, ``full``, ``rand``, ``randn``, ``empty_strided``);
    None for any other call (another factory, ``out=``, a size refused or empty: the factory as usual)."""
    if name not in ("zeros", "ones", "empty", "rand", "randn", "full", "empty_strided") or "out" in kwargs:
        return None
    if "size" in kwargs:
        size, small_kwargs = kwargs["size"], dict(kwargs)
        small_kwargs["size"] = None
        small_args = args
    elif name in ("full", "empty_strided"):
        if not args:
            return None
        size, small_args, small_kwargs = args[0], [None, *args[1:]], kwargs
    else:
        size = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
        small_args, small_kwargs = [None], kwargs
    if not isinstance(size, (tuple, list)) or not size or not all(type(n) is int and n > 0 for n in size):
        return None
    shape = tuple(size)
    ones = (1,) * len(shape)
    if "size" in kwargs:
        small_kwargs["size"] = ones
    else:
        small_args[0] = ones
    strides = None
    if name == "empty_strided":
        strides = tuple(args[1]) if len(args) > 1 else tuple(kwargs.get("stride", ()))
        if len(strides) != len(shape) or not all(type(s) is int and s >= 0 for s in strides):
            return None
    elif kwargs.get("memory_format") is not None and len(shape) in (4, 5):
        from . import _layout, _strides
        if kwargs["memory_format"] in (_layout.channels_last, _layout.channels_last_3d):
            strides = tuple(_strides.channels_last_strides(shape))
    return shape, strides, tuple(small_args), small_kwargs


# mmap's flags for memory the system reserves nothing for (a private anonymous mapping: zeros until written;
# MAP_NORESERVE, Linux's 0x4000 where Python does not name it, so one larger than RAM is allowed)
_NORESERVE = getattr(mmap, "MAP_NORESERVE", 0x4000 if sys.platform.startswith("linux") else 0)


def empty(shape: tuple, npd, strides=None) -> np.ndarray:
    """Zeros of ``shape`` and ``npd`` (C order, or these element strides) that cost no memory while unwritten: a
    meta tensor's, whose values nothing reads."""
    npd = np.dtype(npd)
    extent = 1   # (elements spanned: the product of the sizes, or 1 + the last element's offset)
    for n, s in zip(shape, strides or shape):
        extent = extent * n if strides is None else extent + (n - 1) * s
    if not hasattr(mmap, "MAP_PRIVATE") or not extent:   # (Windows: no anonymous private mapping, plain zeros)
        flat = np.zeros(extent, npd)
    else:
        flat = np.frombuffer(mmap.mmap(-1, extent * npd.itemsize, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS |
                                       _NORESERVE), npd, count=extent)
    if strides is None:
        return flat.reshape(shape)
    return np.lib.stride_tricks.as_strided(flat, shape, [s * npd.itemsize for s in strides])


def clone(a: np.ndarray, memory_format=None) -> np.ndarray:
    """``_strides.clone(a, memory_format)`` with nothing copied (``x.to('meta')``, ``clone`` of a meta tensor: the
    copy's values are never read), so in memory that costs nothing (see ``empty``)."""
    from . import _layout, _strides
    if a.size == 0:
        return _strides.clone(a, memory_format)
    if memory_format is None or memory_format is _layout.preserve_format:
        strides = _strides.preserve_strides(a)
    elif memory_format is _layout.contiguous_format:
        strides = None
    elif (memory_format is _layout.channels_last and a.ndim == 4 or
          memory_format is _layout.channels_last_3d and a.ndim == 5):
        strides = _strides.channels_last_strides(a.shape)
    else:
        return _strides.clone(a, memory_format)   # (its error)
    return empty(a.shape, a.dtype, strides)


def draws_nothing(sampler):
    """``sampler`` (an in-place random fill: ``uniform_``, ``normal_`` ...) drawing nothing from its generator when
    it fills a meta tensor (``nn.Linear(2, 2, device='meta').reset_parameters()``), as PyTorch's meta kernels."""
    @functools.wraps(sampler)
    def fill(input, *args, generator=None, **kwargs):
        if not METAS or not is_meta(input):
            return sampler(input, *args, generator=generator, **kwargs)
        from . import _random
        state = (generator or _random.default_generator).get_state()
        data = input._data
        if data.size > 1 and not any(hasattr(a, "_data") for a in (*args, *kwargs.values())):
            # (its checks and version bump run on one element in each dim: no values drawn or written, however
            # large; a tensor argument, bernoulli_'s p, is broadcast to the whole tensor)
            input._data = np.zeros((1,) * data.ndim, data.dtype)
        try:
            return sampler(input, *args, generator=generator, **kwargs)
        finally:
            input._data = data
            (generator or _random.default_generator).set_state(state)
    return fill


def _tiny(a):
    """``a``'s first element in each dim (an array of ones in shape: what an op reads its result dtype from)."""
    return a[(slice(0, 1),) * a.ndim] if type(a) is np.ndarray and a.size > 1 else a


def _elementwise_result(forward):
    """``forward`` of an elementwise op, computing nothing on meta operands: its result dtype from one element of
    each, laid out at the broadcast shape as TensorIterator lays it out (``_strides._iterator_strides``)."""
    def meta_forward(*arrays, **args):
        operands = [a for a in arrays if type(a) is np.ndarray]
        if not any(a.size > 1 for a in operands) or not all(a.size for a in operands):
            return forward(*arrays, **args)   # (nothing to save: the op as usual)
        try:
            shape = np.broadcast_shapes(*(a.shape for a in operands))
        except ValueError:
            return forward(*arrays, **args)   # (its own error)
        from ._strides import _iterator_strides
        strides = _iterator_strides(operands, shape) if len(shape) > 1 else None
        result = forward(*map(_tiny, arrays), **args)
        if isinstance(result, tuple):
            return tuple(empty(np.broadcast_shapes(r.shape, shape), r.dtype, strides) for r in result)
        result = np.asarray(result)
        return empty(np.broadcast_shapes(result.shape, shape), result.dtype, strides)
    return meta_forward


def _product_result(shape_of):
    """The forward of a matrix product computing nothing on meta operands: its result dtype from a product of
    their first elements, in C order at ``shape_of(*arrays)``."""
    def maker(forward):
        def meta_forward(*arrays, **args):
            shape = shape_of(*arrays)
            if not all(a.size for a in arrays if type(a) is np.ndarray) or not all(shape):
                return forward(*arrays, **args)   # (nothing to save: the op as usual)
            return empty(shape, np.asarray(forward(*map(_tiny, arrays), **args)).dtype)
        return meta_forward
    return maker


def _reduction_result(forward):
    """The forward of a reduction (``dim``, ``keepdim``) reading no more of a meta operand than its result's size:
    the reduced dims cut to their first element (the result's shape and dtype are those of the whole)."""
    def meta_forward(a, **args):
        dim = args.get("dim")
        if type(a) is not np.ndarray or a.size <= 1:
            return forward(a, **args)   # (nothing to save: the op as usual)
        reduced = range(a.ndim) if dim is None or dim == () else \
            [d % a.ndim for d in (dim if isinstance(dim, (tuple, list)) else (dim,))]
        return forward(a[tuple(slice(0, 1) if d in reduced else slice(None) for d in range(a.ndim))], **args)
    return meta_forward


# ops that compute nothing on meta tensors (the forward, made from the op's): the elementwise ones, and these
_SHAPES_ONLY_FORWARDS = {"mm": _product_result(lambda a, b: (a.shape[0], b.shape[1])),
                         "addmm": _product_result(lambda bias, a, b: (a.shape[0], b.shape[1])),
                         "bmm": _product_result(lambda a, b: (a.shape[0], a.shape[1], b.shape[2])),
                         "sum": _reduction_result, "mean": _reduction_result, "clone": lambda forward: clone}
_SHAPES_ONLY: dict = {}   # id(op) -> (op, its copy computing nothing on meta operands, or op itself)


def shapes_only(op):
    """``op``, or a copy of it whose forward computes no values of meta operands, only their result's shape,
    dtype and strides (their memory stays unread: see ``empty``)."""
    entry = _SHAPES_ONLY.get(id(op))
    if entry is None or entry[0] is not op:
        maker = _SHAPES_ONLY_FORWARDS.get(op.name) or (_elementwise_result if op.elementwise else None)
        fake = op
        if maker is not None and not op.view:
            fake = copy.copy(op)
            fake.forward = maker(op.forward)
            fake.ufunc = None   # (no writing straight into an out=: Op._run_into)
        entry = _SHAPES_ONLY[id(op)] = (op, fake)
    return entry[1]


# The ops (not elementwise) whose kernels refuse tensors on two devices: the input whose device the others must
# be on, and the inputs checked (None: all). addmm / addmv check only self against mat1 / mat; PyTorch's other
# kernels read a mix unchecked (``mm(cpu, meta)`` is a CPU tensor of garbage), where minigrad gives a meta tensor.
_SAME_DEVICE = {"addmm": (1, (0,)), "addmv": (1, (0,)), "mv": (0, None), "dot": (0, None), "vdot": (0, None),
                "cat": (0, None), "stack": (0, None), "mse_loss": (0, None), "native_layer_norm": (0, None)}


def intercept(op, tensors, out, run):
    """``run(op)`` (the op as usual) with its outputs marked meta when an input is; None: no meta input."""
    metas = [is_meta(t) for t in tensors]
    if out is not None:   # (in place: a meta tensor takes any values, as they are never read; a CPU one none)
        if is_meta(out):
            return run(shapes_only(op))
        if not any(metas):
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
        from .derivatives import is_absent  # (and a missing operand: clamp's absent bound)
        devices = ["meta" if m else "cpu" for t, m in zip(tensors, metas)
                   if m or t._data.ndim and not is_absent(t._data)]
        for d in devices[1:]:
            if d != devices[0]:
                raise RuntimeError(f"Tensor on device {d} is not on the expected device {devices[0]}!")
    result = run(shapes_only(op))
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
