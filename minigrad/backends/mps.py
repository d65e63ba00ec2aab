"""torch.backends.mps: Apple's Metal backend is never available in minigrad."""


def is_available() -> bool:
    """False: minigrad computes on the CPU only."""
    return False


def is_built() -> bool:
    """False: minigrad has no MPS backend."""
    return False
