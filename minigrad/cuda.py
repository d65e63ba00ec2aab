"""torch.cuda on a machine without CUDA: the availability checks tutorials start with (minigrad is CPU-only)."""
from __future__ import annotations

from . import _cuda_amp as amp  # noqa: F401  (torch.cuda.amp: deprecated aliases, disabled without CUDA)
from . import _dtypes

_NO_CUDA = "Torch not compiled with CUDA enabled"


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def device_count() -> int:
    """No CUDA devices."""
    return 0


def is_initialized() -> bool:
    """CUDA is never initialised."""
    return False


def manual_seed(seed: int) -> None:
    """Ignored without CUDA (as in PyTorch, which seeds lazily)."""


def manual_seed_all(seed: int) -> None:
    """Ignored without CUDA."""


def empty_cache() -> None:
    """Nothing to free."""


def memory_allocated(device=None) -> int:
    """No CUDA memory in use."""
    return 0


def max_memory_allocated(device=None) -> int:
    """No CUDA memory was ever in use."""
    return 0


def memory_reserved(device=None) -> int:
    """No CUDA memory held by the caching allocator."""
    return 0


def max_memory_reserved(device=None) -> int:
    """No CUDA memory was ever held by the caching allocator."""
    return 0


def memory_stats(device=None) -> dict:
    """The caching allocator's statistics: none without CUDA (an empty OrderedDict, as PyTorch's)."""
    from collections import OrderedDict
    return OrderedDict()


def get_arch_list() -> list:
    """The CUDA architectures this build was compiled for: none."""
    return []


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: no CUDA device (the AMP recipes ask before picking bfloat16)."""
    return False


def _unavailable(*args, **kwargs):
    raise AssertionError(_NO_CUDA)


current_device = get_device_name = get_device_properties = synchronize = set_device = _unavailable
get_device_capability = mem_get_info = _unavailable


class _CudaTensorType(type):
    """torch.cuda.FloatTensor & co: old tutorials pick ``dtype = torch.cuda.FloatTensor`` on a GPU; without CUDA the
    classes exist but construct nothing, and no tensor is an instance of one."""

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type torch.cuda.{cls.__name__} not available. {_NO_CUDA}.")

    def __instancecheck__(cls, obj) -> bool:
        return False

    def __repr__(cls) -> str:
        return f"<class 'torch.cuda.{cls.__name__}'>"


def _cuda_tensor_class(name: str, dt) -> type:
    return _CudaTensorType(name, (), {"dtype": dt, "is_cuda": True, "__doc__": f"CUDA {dt} tensors (unavailable)."})


FloatTensor = _cuda_tensor_class("FloatTensor", _dtypes.float32)
DoubleTensor = _cuda_tensor_class("DoubleTensor", _dtypes.float64)
HalfTensor = _cuda_tensor_class("HalfTensor", _dtypes.float16)
BFloat16Tensor = _cuda_tensor_class("BFloat16Tensor", _dtypes.bfloat16)
LongTensor = _cuda_tensor_class("LongTensor", _dtypes.int64)
IntTensor = _cuda_tensor_class("IntTensor", _dtypes.int32)
ShortTensor = _cuda_tensor_class("ShortTensor", _dtypes.int16)
CharTensor = _cuda_tensor_class("CharTensor", _dtypes.int8)
ByteTensor = _cuda_tensor_class("ByteTensor", _dtypes.uint8)
BoolTensor = _cuda_tensor_class("BoolTensor", _dtypes.bool_)
