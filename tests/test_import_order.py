"""Importing minigrad before PyTorch leaves PyTorch its own default thread count.

minigrad loads MKL at import; MKL's thread count is OpenMP's count of the calling thread, from which PyTorch takes
its default when it starts. Setting it at import (as minigrad once did, to one thread) made ``import minigrad,
torch`` a single-threaded PyTorch, and PyTorch's threaded kernels round by their thread count.
"""
from __future__ import annotations

import subprocess
import sys

from parity import torch_or_skip


def _threads_after(imports: str) -> int:
    done = subprocess.run([sys.executable, "-c", f"{imports}; import torch; print(torch.get_num_threads())"],
                          capture_output=True, text=True, check=True)
    return int(done.stdout.split()[-1])


def test_pytorch_keeps_its_thread_count_whatever_the_import_order():
    torch_or_skip()
    alone = _threads_after("pass")
    assert _threads_after("import minigrad") == alone
    # (the first product, which hands minigrad's count to MKL, and a VML op too)
    assert _threads_after("import minigrad; x = minigrad.randn(64, 64); (x @ x).exp()") == alone


def test_minigrad_default_is_pytorchs_in_either_order():
    torch_or_skip()
    code = "import minigrad, torch; print(minigrad.get_num_threads(), torch.get_num_threads())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    ours, theirs = done.stdout.split()
    assert ours == theirs
