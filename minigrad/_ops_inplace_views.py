"""In-place changes of a tensor's shape: ``t_``, ``transpose_``/``swapdims_``, ``unsqueeze_``, ``squeeze_``,
``as_strided_`` (and its view ``as_strided``), ``resize_`` and ``resize_as_``.

The tensor keeps its identity and its memory but gets new sizes and strides, and its version goes up.
While autograd records, its ``grad_fn`` becomes the view op's in-place node (``TBackward1``,
``UnsqueezeBackward1`` ...), whose formula is the out-of-place view's: the tensor's history gains one
view step, as in PyTorch. ``resize_`` is refused on tensors that require grad, so it records nothing.
"""
from __future__ import annotations

import numpy as np

from . import _arg_errors, _dispatch, _ops, _strides, _vmap_batched
from . import derivatives as D
from ._dispatch import _check_inference_write, _check_inplace, _edges_of, check_captured_write
from ._tensor import Size, Tensor
from .autograd import grad_mode

_STATE = grad_mode.STATE


def _records(t: Tensor) -> bool:
    """Whether changing ``t``'s layout in place is recorded (an inference tensor outside inference mode, the only
    operand, skips autograd: see _dispatch._only_inference)."""
    return _STATE.enabled and t._requires_grad and t._is_inference is not True


def _restride(t: Tensor, node_op, args: dict, view_op, view_args: dict, new_layout) -> Tensor:
    """Give ``t`` the layout ``new_layout(array)`` (a view of its memory), recording ``node_op`` if watched.

    ``view_op(x, **view_args)`` is the out-of-place view that does the same: a view of ``t`` replays it
    on its base, and a forward-mode tangent follows it.
    """
    record = _records(t)
    _check_inplace(t, record)  # (leaves that require grad, their views, views that may not change)
    new = new_layout(t._data)
    if record:
        # (A retain_grad() made before stays with the old node, as in PyTorch: .grad gets the old shape,
        # and retains_grad stays True.)
        node_op._record([t], [t], args, _edges_of([t]))  # saves the sizes it had before
    t._data = new
    _check_inference_write(t)
    t._version_counter[0] += 1
    if t._base is not None:
        outer = t._view_fn
        if outer is not None:  # replayed on the base, the view now ends with this view op
            t._view_fn = lambda b, outer=outer: view_op(outer(b), **view_args)
        t._view_version = t._version_counter[0]  # (its grad_fn is the node above, not a replay)
    else:
        # Views made before keep replaying the old layout; an in-place write through one of them then
        # finds its elements by memory offset instead (see ``_dispatch._record_copy_slices``).
        t._restrided = True
    if t._fw_grad is not None:
        # PyTorch changes the tangent in place too: the same tensor, which an op whose tangent is its input's
        # (frac, alias, contiguous ...) shares with that input, whose tangent then changes shape as well
        _restride(t._fw_grad, node_op, args, view_op, view_args, new_layout)
    return t


def _batched_scalar(input: Tensor) -> bool:
    """Whether ``input`` is PyTorch's BatchedTensor (no grad transform inside its vmap) of 0-d examples: functorch's
    transpose_ / squeeze_ batch rules then return it untouched (as PyTorch's scalar.transpose_(0, -1)), before
    autograd's checks at a grad transform around the vmap (grad of vmap of a function calling t_() on a 0-d example;
    under vmap of grad, the grad level's autograd check comes first)."""
    return bool(_vmap_batched.DEPTH[0]) and input._data.ndim == 0 and _vmap_batched.hides_autograd(input)


def t_(input: Tensor) -> Tensor:
    """Transpose a tensor of at most 2 dims, in place (TBackward1)."""
    check_captured_write(input, "aten::t_")   # (inside torch.func's grad transforms: before any other error)
    if _batched_scalar(input):   # (t_ is transpose_(0, 0) there)
        return input
    if input.dim() > 2:
        _check_inplace(input, _records(input))
        raise RuntimeError(f"t_() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    return _restride(input, D.t_, {}, D.t, {}, lambda a: a.T)


def transpose_(input: Tensor, dim0: int, dim1: int, *, _aten: str = "aten::transpose_") -> Tensor:
    """Swap two dimensions in place (TransposeBackward1)."""
    check_captured_write(input, _aten)
    if _batched_scalar(input):   # (the dims wrapped first: 0 and -1 fit, others are an IndexError)
        _ops._wrap_dim(dim0, 0), _ops._wrap_dim(dim1, 0)
        return input
    _check_inplace(input, _records(input))
    n = input.dim()
    d0, d1 = _ops._wrap_dim(dim0, n), _ops._wrap_dim(dim1, n)
    args = {"dim0": dim0, "dim1": dim1}
    return _restride(input, D.transpose_, args, D.transpose, args,
                     lambda a: np.swapaxes(a, d0, d1) if a.ndim else a.view())


def swapdims_(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """``transpose_`` (PyTorch's alias, named in its own errors)."""
    return transpose_(input, dim0, dim1, _aten="aten::swapdims_")


def swapaxes_(input: Tensor, axis0: int, axis1: int) -> Tensor:
    """``transpose_`` (NumPy's name)."""
    return transpose_(input, axis0, axis1, _aten="aten::swapaxes_")


def unsqueeze_(input: Tensor, dim: int) -> Tensor:
    """Insert a size-1 dimension at ``dim``, in place (UnsqueezeBackward1)."""
    check_captured_write(input, "aten::unsqueeze_")
    _check_inplace(input, _records(input))
    d = _ops._wrap_dim(dim, input.dim() + 1)
    return _restride(input, D.unsqueeze_, {"dim": dim}, D.unsqueeze, {"dim": dim},
                     lambda a: _strides.unsqueeze(a, d))  # (PyTorch's strides)


def squeeze_(input: Tensor, dim=_ops._NO_ARG) -> Tensor:
    """Remove size-1 dimensions (all, or those in ``dim``) in place (SqueezeBackward3/4/5)."""
    if dim is None:   # (given: no overload takes None; the method's wrapper words the call as it was made)
        _arg_errors.recheck("squeeze_", (dim,), {}, method=True)
    if dim is _ops._NO_ARG:
        dim = None
    check_captured_write(input, "aten::squeeze_" + ("" if dim is None else ".dim" if isinstance(dim, int) else ".dims"))
    if dim is not None and _batched_scalar(input):   # (the batch rule's own check: dim 0 only, no closing bracket)
        dims = [dim] if isinstance(dim, int) else list(dim)
        if dims in ([], [0]):
            return input
        raise RuntimeError(f"Dimension is out of range (expected to be in range of [-1, 0], but got {dims}")
    _check_inplace(input, _records(input))
    n = input.dim()
    if dim is None:
        return _restride(input, D.squeeze_, {}, D.squeeze, {}, np.squeeze)
    if isinstance(dim, int):
        d = _ops._wrap_dim(dim, n)
        return _restride(input, D.squeeze_inplace_dim, {"dim": dim}, D.squeeze_dim, {"dim": dim},
                         lambda a: D._squeeze_dims(a, (d,)))
    dims = tuple(dim)
    wrapped = [_ops._wrap_dim(d, n) for d in dims]
    for d in wrapped:
        if wrapped.count(d) > 1:
            raise RuntimeError(f"dim {d} appears multiple times in the list of dims")
    return _restride(input, D.squeeze_dims_, {"dim": dims}, D.squeeze_dims, {"dim": dims},
                     lambda a: D._squeeze_dims(a, tuple(wrapped)))


def _strided_geometry(input: Tensor, size, stride, storage_offset) -> tuple:
    """Check an as_strided request against input's storage (PyTorch's errors); input's own geometry."""
    size, stride = tuple(int(n) for n in size), tuple(int(st) for st in stride)
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    if any(st < 0 for st in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if storage_offset is not None and storage_offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {storage_offset}")
    if any(n < 0 for n in size):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and strides={list(stride)}")
    flat, start = D._storage(input._data)
    first = start if storage_offset is None else storage_offset
    _check_in_storage(size, stride, first, flat)
    return size, stride, (input._data.shape, input.stride(), start)


def _check_in_storage(size: tuple, stride: tuple, first: int, flat: np.ndarray) -> None:
    """PyTorch's setStorage error when sizes and strides from ``first`` reach beyond the storage ``flat``."""
    if all(size):
        needed = first + 1 + sum((n - 1) * st for n, st in zip(size, stride))
        if needed > flat.size:
            item = flat.itemsize
            raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {first}, and "
                               f"itemsize {item} requiring a storage size of {needed * item} are out of bounds for "
                               f"storage of size {flat.size * item}")


def as_strided(input: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A view of input's memory: sizes ``size``, strides ``stride``, from ``storage_offset`` (AsStridedBackward0)."""
    if _vmap_batched.DEPTH[0]:  # (inside vmap: the batch rule's check, and the offset from this example's start)
        _vmap_batched.check_as_strided(input, size, stride, storage_offset)
        if storage_offset is not None:
            storage_offset = storage_offset + _vmap_batched.batch_offset(input)
    try:
        size, stride, geometry = _strided_geometry(input, size, stride, storage_offset)
    except RuntimeError:   # (the kernel's checks, after VariableType collected the edge)
        _dispatch.check_rebased_inputs(input)
        raise
    return D.strided_view(input, size=size, stride=stride, storage_offset=storage_offset, _self_geometry=geometry)


def as_strided_(input: Tensor, size, stride, storage_offset=None) -> Tensor:
    """``as_strided`` in place: the tensor itself gets the new sizes and strides (AsStridedBackward1)."""
    check_captured_write(input, "aten::as_strided_")
    _vmap_batched.fallback("as_strided_", input, out=input)   # (no batching rule: before autograd's checks)
    _check_inplace(input, _records(input))
    size, stride, geometry = _strided_geometry(input, size, stride, storage_offset)
    if _vmap_batched.DEPTH[0] and _vmap_batched.hides_autograd(input):
        return input   # (the fallback restrides each example's slice, a view of the batch: the batch stays as it was)
    args = {"size": size, "stride": stride, "storage_offset": storage_offset, "_self_geometry": geometry}
    return _restride(input, D.as_strided_, args, D.strided_view, args, lambda a: D._strided(a, **args))


# =============================================================================================
# resize_: a new shape over the same memory (grown if it is too small)
# =============================================================================================

def _sizes(name: str, size: tuple) -> tuple:
    """resize_'s size argument (ints, or one tuple/list/Size of ints), with PyTorch's errors."""
    if not size:
        raise TypeError(f'{name}() missing 1 required positional arguments: "size"')
    if len(size) > 1 and any(isinstance(s, (tuple, list)) for s in size):
        raise TypeError(f"{name}() takes 1 positional argument but {len(size)} were given")
    if len(size) == 1 and isinstance(size[0], (tuple, list)):
        size = tuple(size[0])
        for i, s in enumerate(size):
            if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
                raise TypeError(f"{name}(): argument 'size' failed to unpack the object at pos {i + 1} with error "
                                f"\"type must be tuple of ints,but got {type(s).__name__}\"")
    out = []
    for s in size:
        if isinstance(s, Tensor) and s.dim() == 0 and not s.is_floating_point():
            s = s.item()
        if not isinstance(s, (int, np.integer)) or isinstance(s, bool):
            raise TypeError(f"{name}(): argument 'size' (position 1) must be tuple of ints, not {type(s).__name__}")
        out.append(int(s))
    if any(not 0 <= s < 2**63 for s in out):
        _arg_errors.check_int64(name, "size", out)   # (a size beyond int64: PyTorch's parser refused it first)
        raise RuntimeError("numel: integer multiplication overflow")
    return tuple(out)


def resize_(input: Tensor, *size, memory_format=None) -> Tensor:
    """Give ``input`` the shape ``size`` in place: its memory read in order from its first element.

    Elements past the end of the memory are new (zeros here; PyTorch leaves them uninitialised). A
    tensor that requires grad cannot be resized.
    """
    sizes = _sizes("resize_", size)
    check_captured_write(input, "aten::resize_")
    # (autograd's check: inference mode, or an inference tensor, skips it, as they skip PyTorch's autograd kernel)
    if not _STATE.inference and input._is_inference is not True and (
            input._requires_grad or input._base is not None and input.requires_grad):  # (a view: through its base)
        raise RuntimeError("cannot resize variables that require grad")
    if _vmap_batched.DEPTH[0]:
        _vmap_batched.check_resize_(input)
    if sizes == input._data.shape:
        return _check_no_tangent(input)  # nothing changes, not even the version
    resize_storage(input, sizes)
    _check_inference_write(input)
    input._version_counter[0] += 1
    root = input._base if input._base is not None else input
    root._restrided = True  # views made before replay the old shape (see _restride)
    return _check_no_tangent(input)


def resize_storage(input: Tensor, sizes: tuple) -> None:
    """The memory part of resize_ (no autograd check, no version bump: also what PyTorch's kernels do to an ``out=``
    tensor of the wrong shape, as addbmm_ to its input)."""
    flat, start = D._storage(input._data)
    n = int(np.prod(sizes, dtype=np.int64))
    if start + n <= flat.size:
        new = flat[start:start + n].reshape(sizes)
    else:  # the memory grows: a new storage holding the old one's values
        _strides.check_resizable(flat, (input if input._base is None else input._base)._shared_with_numpy
                                 or len(input._version_counter) > 1)   # (numpy() of an alias: Tensor.numpy)
        grown = np.zeros(start + n, dtype=flat.dtype)
        grown[:flat.size] = flat
        new = grown[start:].reshape(sizes)
        # Only this tensor moves to the new memory (PyTorch's views follow it: they share the storage
        # object). It stops being a view of a base it no longer shares memory with.
        input._view_base, input._view_fn = None, None
    input._data = new


def resize_output(out: Tensor, sizes: tuple, strides=None) -> None:
    """PyTorch's resize_output of an ``out=`` tensor of another shape (after its warning): resized in place, so a
    storage shared with NumPy or other views shrinks in place (they see what the op writes) and grows only when
    it may ("Trying to resize storage that is not resizable"). ``strides`` (in elements, a dense layout): those
    TensorIterator gives a resized output (its resize_out restrides it as the inputs are laid out)."""
    resize_storage(out, tuple(sizes))
    if strides is not None:
        flat, start = D._storage(out._data)
        out._data = np.lib.stride_tricks.as_strided(flat[start:start + out._data.size], tuple(sizes),
                                                    [st * flat.itemsize for st in strides])
    (out._base if out._base is not None else out)._restrided = True   # (views made before keep the old shape)


def _check_no_tangent(input: Tensor) -> Tensor:
    # (PyTorch checks the forward grad only after resizing: the tensor keeps its new shape)
    if input._fw_grad is not None:
        raise RuntimeError("cannot resize variables that has a forward grad")
    return input


def resize_as_(input: Tensor, the_template: Tensor, *, memory_format=None) -> Tensor:
    """``input.resize_(the_template.shape)``."""
    if not isinstance(the_template, Tensor):
        raise TypeError(f"resize_as_(): argument 'the_template' (position 1) must be Tensor, not "
                        f"{type(the_template).__name__}")
    check_captured_write(input, "aten::resize_as_")
    return resize_(input, Size(the_template._data.shape))


# =============================================================================================
# set_: the tensor takes another tensor's memory (and sizes), or a window of it
# =============================================================================================

# The C++ names PyTorch's set_ error prints for the element types.
_CPP_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int",
                   "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
                   "bool": "bool"}

# (with the tensor itself first: the method form, the only one, drops it)
_SET_OVERLOADS = ("(Tensor input)", "(Tensor input, torch.Storage source)",
                  "(Tensor input, torch.Storage source, int storage_offset, tuple of ints size, "
                  "tuple of ints stride = None)", "(Tensor input, Tensor source)",
                  "(Tensor input, Tensor source, int storage_offset, tuple of ints size, tuple of ints stride = None)")


def _storage_elements(input: Tensor, storage) -> np.ndarray:
    """set_'s Storage overloads: the storage's memory as a flat array of input's dtype (a TypedStorage must have
    it; an UntypedStorage's bytes are read as whole elements)."""
    from .storage import TypedStorage
    if isinstance(storage, TypedStorage):
        if storage.dtype is not input.dtype:
            raise RuntimeError(f"Expected a Storage of type {_CPP_TYPE_NAMES.get(input._data.dtype.name, input.dtype)}"
                               f" or an UntypedStorage, but got type {_dispatch._legacy_scalar_name(storage.dtype)} "
                               "for argument 1 'storage'")
        return storage._values
    data, item = storage._bytes, input._data.itemsize
    return data[:data.size - data.size % item].view(input._data.dtype)


def set_(input: Tensor, *args, **kwargs) -> Tensor:
    """``set_(source)``: input shares source's memory (a tensor's, with its sizes and strides, or a storage's, all of
    it); ``set_(source, storage_offset, size, stride)``: a window of that memory; ``set_()``: empty."""
    from . import _arg_errors
    from .storage import TypedStorage, UntypedStorage
    names = ("source", "storage_offset", "size", "stride")
    given = {**dict(zip(names, args)), **kwargs}
    source = given.get("source")
    storage = isinstance(source, (UntypedStorage, TypedStorage))
    fits = (len(args) <= 4 and set(given) <= set(names) and len(given) == len(args) + len(kwargs)
            and len(given) in (0, 1, 3, 4) and (not given or isinstance(source, Tensor) or storage)
            and (len(given) < 3 or _arg_errors._is_index(given["storage_offset"]) and isinstance(given["size"],
                 (tuple, list)) and all(_arg_errors._is_index(n) for n in given["size"])))
    if not fits:
        raise _arg_errors.invalid_combination("set_", (input, *args), kwargs, _SET_OVERLOADS)
    if storage:   # (as a tensor of input's dtype on that memory: the checks and the window below are the same)
        source = Tensor._make(_storage_elements(input, source))
    elif len(given) >= 3 and not source.is_contiguous():   # (a tensor's window counts from the tensor's own start)
        raise RuntimeError("passed in tensor to be used as storage must be contiguous")
    kind = ".source_Storage" if storage else ".source_Tensor"
    overload = "set_" + ("" if not given else kind if len(given) == 1 else kind + "_storage_offset")
    check_captured_write(input, "aten::" + overload)
    if source is not None and source.dtype is not input.dtype:   # (first: before vmap's and autograd's checks)
        raise RuntimeError(f"Could not set tensor of type {_CPP_TYPE_NAMES.get(source._data.dtype.name, source.dtype)} "
                           f"to a tensor of type {_CPP_TYPE_NAMES.get(input._data.dtype.name, input.dtype)}")
    _vmap_batched.fallback(overload, input, source, out=input)   # (no batching rule: before autograd's checks)
    _check_inplace(input, _records(input))
    if input._requires_grad and _STATE.enabled:
        # PyTorch records a NotImplemented node here: minigrad refuses instead of recording what it cannot
        raise RuntimeError("minigrad does not support set_ on a tensor that requires grad (PyTorch records a "
                           "NotImplemented node)")
    if source is None:
        new = np.empty((0,), dtype=input._data.dtype)
    elif len(given) == 1:
        new = source._data
    else:
        size = tuple(int(n) for n in given["size"])
        stride = given.get("stride")
        if stride is None:   # contiguous strides for ``size``
            stride, step = [], 1
            for n in reversed(size):
                stride.insert(0, step)
                step *= max(n, 1)
        stride, offset = tuple(int(st) for st in stride), int(given["storage_offset"])
        if not storage:   # (PyTorch's set_(tensor, offset, ...) is set_(tensor's storage, offset + its offset, ...))
            offset += source.storage_offset()
        # (set_'s own checks, in its order and words: as_strided's come after them)
        if len(stride) != len(size):
            raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
        if offset < 0:
            raise RuntimeError(f"Tensor: invalid storage offset {offset}")
        if any(n < 0 for n in size):
            raise RuntimeError("numel: integer multiplication overflow")
        if any(st < 0 for st in stride):
            raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                               f"strides={list(stride)}")
        if storage:   # (offsets count from the storage's own start, a slice's too)
            flat = source._data
            _check_in_storage(size, stride, offset, flat)
        else:
            size, stride, _ = _strided_geometry(source, size, stride, offset)
            flat, _ = D._storage(source._data)
        item = flat.itemsize
        new = np.lib.stride_tricks.as_strided(flat[offset:], size,
                                              tuple(st * item for st in stride))
    if _vmap_batched.DEPTH[0] and _vmap_batched.hides_autograd(input):
        return input   # (the fallback sets each example's slice, a view of the batch: the batch stays as it was)
    input._data = new
    if input._base is not None:   # (PyTorch keeps a view's base, though the memory is source's: replayed on the base
        # as_strided, with the new geometry, when autograd regenerates its grad_fn)
        geometry = (tuple(new.shape), input.stride(), input.storage_offset())
        input._view_fn = lambda b, geometry=geometry: b.as_strided(*geometry)
    # PyTorch forgets a leaf's AccumulateGrad here: graphs recorded before still hold (and feed) the old node, and
    # the next op on the tensor makes a new one (tensor hooks live on the tensor, so they fire from both)
    input._grad_accumulator = None
    _check_inference_write(input)
    input._version_counter[0] += 1
    return input


# =============================================================================================
# Tensor methods and minigrad.* names
# =============================================================================================

# Tensor methods only (PyTorch has no torch.t_ ...).
TENSOR_METHODS = ["t_", "transpose_", "swapdims_", "swapaxes_", "unsqueeze_", "squeeze_", "resize_", "resize_as_",
                  "as_strided", "as_strided_", "set_"]
# Also minigrad.* functions.
FUNCTIONS = ["resize_as_", "as_strided", "as_strided_"]


def _attach_methods() -> None:
    from . import _arg_errors
    for name in TENSOR_METHODS:
        setattr(Tensor, name, globals()[name])
    Tensor.set_ = _arg_errors.method_form(set_, "set_")   # (PyTorch's argument errors in the method form)


_attach_methods()
