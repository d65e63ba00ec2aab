"""torch.save / torch.load: tensors, state dicts and plain Python objects in a file (a pickle).

PyTorch writes a zip archive; minigrad writes a plain pickle, so files round-trip within minigrad only.
"""
from __future__ import annotations

import os
import pickle


def save(obj, f, pickle_module=pickle, pickle_protocol: int = 2, _use_new_zipfile_serialization: bool = True,
         _disable_byteorder_record: bool = False) -> None:
    """Write ``obj`` to ``f`` (a path or a binary file object)."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            pickle_module.dump(obj, fh, protocol=pickle_protocol)
    else:
        pickle_module.dump(obj, f, protocol=pickle_protocol)


def load(f, map_location=None, pickle_module=None, *, weights_only: bool | None = None, mmap=None,
         **pickle_load_args):
    """Read back what ``save`` wrote (``map_location`` is accepted; everything is on the CPU)."""
    module = pickle if pickle_module is None else pickle_module
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return module.load(fh, **pickle_load_args)
    return module.load(f, **pickle_load_args)
