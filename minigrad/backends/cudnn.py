"""torch.backends.cudnn: the flags programs set for reproducibility (they change nothing on the CPU)."""

from contextlib import contextmanager

enabled = True
deterministic = False
benchmark = False
allow_tf32 = True


def is_available() -> bool:
    """False: no cuDNN without CUDA."""
    return False


def version():
    """None: cuDNN is not available."""
    return None


@contextmanager
def flags(enabled: bool = False, benchmark: bool = False, benchmark_limit: int = 10, deterministic: bool = False,
          allow_tf32: bool = True, fp32_precision: str = "none", depthwise_kernel: str = "auto"):
    """Set the flags for the ``with`` block, then restore them (PyTorch's defaults: ``enabled=False``)."""
    g = globals()
    names = ("enabled", "benchmark", "deterministic", "allow_tf32")
    saved = {n: g[n] for n in names}
    g.update(zip(names, (enabled, benchmark, deterministic, allow_tf32)))
    try:
        yield
    finally:
        g.update(saved)
