"""torch.backends.cuda: the flags programs read or set (minigrad has no CUDA: they change nothing).

``torch.backends.cuda.matmul.allow_tf32`` is the flag the "Numerical accuracy" notes set; as in PyTorch it is the
same setting as ``torch.set_float32_matmul_precision`` ("highest" means no TF32).
"""
from .._compile import _matmul_precision


class cuBLASModule:
    """``torch.backends.cuda.matmul``: cuBLAS settings (PyTorch refuses any other attribute name)."""

    _flags = {"allow_fp16_reduced_precision_reduction": True, "allow_bf16_reduced_precision_reduction": True,
              "allow_fp16_accumulation": False}

    def __getattr__(self, name):
        if name == "allow_tf32":
            return _matmul_precision[0] != "highest"
        if name == "fp32_precision":
            return "none" if _matmul_precision[0] == "highest" else "tf32"
        if name in cuBLASModule._flags:
            return cuBLASModule._flags[name]
        raise AttributeError("Unknown attribute " + name)

    def __setattr__(self, name, value):
        if name == "allow_tf32":
            _matmul_precision[0] = "high" if value else "highest"
        elif name in cuBLASModule._flags:
            cuBLASModule._flags[name] = value
        else:
            raise AttributeError("Unknown attribute " + name)


matmul = cuBLASModule()

_sdp = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def is_built() -> bool:
    """False: minigrad is not built with CUDA."""
    return False


def flash_sdp_enabled() -> bool:
    return _sdp["flash"]


def mem_efficient_sdp_enabled() -> bool:
    return _sdp["mem_efficient"]


def math_sdp_enabled() -> bool:
    return _sdp["math"]


def cudnn_sdp_enabled() -> bool:
    return _sdp["cudnn"]


def enable_flash_sdp(enabled: bool) -> None:
    _sdp["flash"] = enabled


def enable_mem_efficient_sdp(enabled: bool) -> None:
    _sdp["mem_efficient"] = enabled


def enable_math_sdp(enabled: bool) -> None:
    _sdp["math"] = enabled


def enable_cudnn_sdp(enabled: bool) -> None:
    _sdp["cudnn"] = enabled
