"""torch.utils.dlpack: tensors exchanged with other libraries through DLPack (NumPy's support underneath)."""
from __future__ import annotations

import enum

import numpy as np


class DLDeviceType(enum.IntEnum):
    """DLPack's device types (``Tensor.__dlpack_device__()[0]``)."""

    kDLCPU = 1
    kDLCUDA = 2
    kDLCUDAHost = 3
    kDLOpenCL = 4
    kDLVulkan = 7
    kDLMetal = 8
    kDLVPI = 9
    kDLROCM = 10
    kDLROCMHost = 11
    kDLExtDev = 12
    kDLCUDAManaged = 13
    kDLOneAPI = 14
    kDLWebGPU = 15
    kDLHexagon = 16
    kDLMAIA = 17


def from_dlpack(ext_tensor):
    """A tensor sharing memory with ``ext_tensor``: a DLPack producer (a NumPy array, a tensor) or a capsule."""
    from .._creation import from_numpy
    from .._tensor import Tensor
    if isinstance(ext_tensor, Tensor):
        ext_tensor.__dlpack__()   # (its refusals: requires grad, conjugate bit)
        return Tensor._make(ext_tensor._data.view())
    if hasattr(ext_tensor, "__dlpack__"):
        return from_numpy(np.from_dlpack(ext_tensor))
    try:
        array = np.from_dlpack(_Capsule(ext_tensor))
    except (TypeError, ValueError, BufferError):   # not a capsule, or one consumed already
        raise RuntimeError("from_dlpack received an invalid capsule. Note that DLTensor capsules can be consumed only "
                           "once, so you might have already constructed a tensor from it once.") from None
    # NumPy imports an old-style capsule read-only; the memory is the producer's and PyTorch writes
    # through it, so the tensor views the same address writable (keeping `array`, the owner, alive).
    return from_numpy(np.asarray(_Writable(array)))


def to_dlpack(tensor):
    """An old-style DLPack capsule ("dltensor") of the tensor's memory, to be consumed once."""
    return tensor._data.__dlpack__()


class _Capsule:
    """A capsule dressed as a DLPack producer, for NumPy's ``from_dlpack``."""

    def __init__(self, capsule):
        self.capsule = capsule

    def __dlpack__(self, **kwargs):
        return self.capsule

    def __dlpack_device__(self):
        return (DLDeviceType.kDLCPU, 0)


class _Writable:
    """The array interface of a read-only import, marked writable; holds the import so its memory lives."""

    def __init__(self, array):
        self.array = array
        self.__array_interface__ = dict(array.__array_interface__, data=(array.__array_interface__["data"][0], False))
