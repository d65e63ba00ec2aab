"""torch.backends.cudnn: the flags programs set for reproducibility (they change nothing on the CPU)."""

enabled = True
deterministic = False
benchmark = False


def is_available() -> bool:
    """False: no cuDNN without CUDA."""
    return False


def version():
    """None: cuDNN is not available."""
    return None
