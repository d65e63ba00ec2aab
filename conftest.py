"""Repository-wide pytest set-up: make nbval's sanitize file path absolute so pytest runs from any folder."""
import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent

# The bit-level parity tests emulate the kernels PyTorch's CPU build runs on an AMD Zen 4 CPU: MKL on its AVX2 code
# paths (it takes no AVX-512 path on AMD) and oneDNN up to AVX512_CORE_BF16. An Intel CPU with AVX-512 would take
# other kernels with other last bits (AVX-512 VML, AVX512_FP16 and AMX in oneDNN), so there both are capped,
# before anything loads MKL or oneDNN (they read these once).
if "GenuineIntel" in (Path("/proc/cpuinfo").read_text() if Path("/proc/cpuinfo").exists() else ""):
    os.environ.setdefault("MKL_ENABLE_INSTRUCTIONS", "AVX2")
    os.environ.setdefault("ONEDNN_MAX_CPU_ISA", "AVX512_CORE_BF16")

# `make test` runs one worker per core and PyTorch starts one OpenMP thread per core in each, so threads outnumber
# cores. An OpenMP thread that spins while it waits for a descheduled partner makes each small threaded kernel wait
# for a scheduler slice (a float64 conv2d: ~30 ms instead of ~0.1 ms). Waiting passively changes no result.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def pytest_configure(config):
    # PyTorch first, when installed: importing minigrad first (its MKL set-up) would leave PyTorch a default of one
    # thread, so the bits of its threaded kernels would depend on which test file the run happens to start with.
    try:
        import torch  # noqa: F401
    except ImportError:
        pass
    # nbval resolves --nbval-sanitize-with against the working directory; pin it to the repo.
    opt = getattr(config.option, "sanitize_with", None)
    if opt and not Path(opt).is_absolute():
        config.option.sanitize_with = str(ROOT / opt)


@pytest.fixture(autouse=True)
def _keep_thread_counts():
    """A test that changes PyTorch's or minigrad's thread count leaves them as it found them: the kernels
    both libraries run (sums, products, softmax) round according to the thread count, so a leaked count
    would change later tests' bits."""
    import minigrad
    torch = sys.modules.get("torch")
    torch = torch if torch is not None and getattr(torch, "__name__", "") == "torch" else None
    saved = minigrad.get_num_threads(), torch.get_num_threads() if torch else None
    yield
    if minigrad.get_num_threads() != saved[0]:
        minigrad.set_num_threads(saved[0])
    torch = sys.modules.get("torch") if torch is None else torch
    if torch is not None and getattr(torch, "__name__", "") == "torch":
        # (imported by this test: back to PyTorch's default, which minigrad's rule reproduces)
        wanted = saved[1] if saved[1] is not None else minigrad._reduce.default_num_threads()
        if torch.get_num_threads() != wanted:
            torch.set_num_threads(wanted)


@pytest.fixture(params=[1, 2], ids=["1-thread", "2-threads"])
def threads(request):
    """Run PyTorch (oneDNN, MKL) and minigrad (its emulations, MKL) with the same intra-op thread count, 1 and 2:
    the kernels of both round according to it (the bit-for-bit tests of products, convolutions, FFTs)."""
    from parity import torch_or_skip

    from minigrad import _reduce
    torch = torch_or_skip()
    saved = torch.get_num_threads(), _reduce.THREADS[0]
    torch.set_num_threads(request.param)
    _reduce.THREADS[0] = request.param
    yield request.param
    torch.set_num_threads(saved[0])
    _reduce.THREADS[0] = saved[1]
