"""torch.device, and the device checks of a CPU-only PyTorch build.

minigrad computes on the CPU, like a PyTorch installed without CUDA: creating a tensor on (or moving one
to) ``"cuda"`` fails with that build's ``AssertionError: Torch not compiled with CUDA enabled``.
"""
from __future__ import annotations

import re
import threading

from ._class_names import CTypeNamed
from ._per_thread import PerThreadFlag

DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve", "fpga", "maia",
                "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")
_DEVICE_STRING = re.compile(r"([a-zA-Z_]+)(?::([1-9][0-9]*|0))?")
_NO_ACCELERATOR = "Cannot access accelerator device when none is available."
_MISSING = object()
builtin_type = type  # (``device.__init__``'s first parameter is called type, as in PyTorch)


def _bad_arguments(args: tuple) -> TypeError:
    """PyTorch's message for a torch.device call that matches none of its signatures."""
    got = ", ".join("NoneType" if a is None else type(a).__name__ for a in args)
    bad = "" if len(args) != 1 else f"      didn't match because some of the arguments have invalid types: (!{got}!)\n"
    return TypeError(f"device() received an invalid combination of arguments - got ({got}), but expected one of:\n"
                     f" * (torch.device device)\n{bad} * (str type, int index = -1)\n")


class device(metaclass=CTypeNamed):
    """Where a tensor lives: ``device('cpu')``, ``device('cuda', 0)`` (only the CPU holds tensors here)."""

    _torch_name = "torch.device"

    __slots__ = ("index", "type")

    def __init__(self, type=_MISSING, index=None) -> None:  # noqa: A002  (PyTorch's parameter names)
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): argument 'type' (position 1) must be str, not torch.device")
            self.type, self.index = type.type, type.index
            return
        if isinstance(type, int) and not isinstance(type, bool):  # an index on the current accelerator
            if type < 0:
                raise RuntimeError("Device index must not be negative")
            raise RuntimeError(_NO_ACCELERATOR)
        if not isinstance(type, str):
            raise _bad_arguments(() if type is _MISSING else (type,))
        if index is not None and not isinstance(index, int):
            raise TypeError(f"device(): argument 'index' must be int, not {builtin_type(index).__name__}")
        match = _DEVICE_STRING.fullmatch(type)
        if match is None:
            raise RuntimeError(f"Invalid device string: '{type}'")
        if match.group(1) not in DEVICE_TYPES:
            raise RuntimeError(f"Expected one of {', '.join(DEVICE_TYPES)} device type at start of device string: "
                               f"{type}")
        if match.group(2) is not None:
            if index is not None:
                raise RuntimeError("type (string) must not include an index because index was passed explicitly: "
                                   f"{type}")
            index = int(match.group(2))
        if index is not None and index < 0:
            raise RuntimeError("Device index must not be negative")
        self.type, self.index = match.group(1), index

    def __repr__(self) -> str:
        index = "" if self.index is None else f", index={self.index}"
        return f"device(type='{self.type}'{index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        # Only devices compare equal (``device('cpu') == 'cpu'`` is False in PyTorch too).
        return isinstance(other, device) and (self.type, self.index) == (other.type, other.index)

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type,) if self.index is None else (self.type, self.index))

    def __enter__(self) -> device:
        """``with torch.device(d):`` factory functions default to d inside (PyTorch's DeviceContext)."""
        _ENTERED.stack.append(_DEFAULT[0])
        _DEFAULT[0] = self
        return self

    def __exit__(self, *exc_info) -> None:
        _DEFAULT[0] = _ENTERED.stack.pop()


# Per thread, as PyTorch's (torch/__init__.py keeps set_default_device's in a threading.local, and ``with
# torch.device(...)`` is a TorchFunctionMode, whose stack is the thread's): a new thread starts on the CPU.
_DEFAULT = PerThreadFlag(None)  # set_default_device's device (None: the CPU)


class _Entered(threading.local):
    def __init__(self) -> None:
        self.stack: list = []  # the default devices that ``with torch.device(...)`` blocks replaced, innermost last


_ENTERED = _Entered()
CPU = device("cpu")


def _unavailable(dev: device, creating: bool) -> BaseException:
    """The error a CPU-only PyTorch gives for a tensor made on (or moved to) a device it does not have."""
    if dev.type == "cuda":
        return AssertionError("Torch not compiled with CUDA enabled")
    if dev.type == "xpu":
        return AssertionError("Torch not compiled with XPU enabled")
    if creating:  # (PyTorch lists every backend that has the op after this sentence)
        return NotImplementedError(f"Could not run 'aten::empty.memory_format' with arguments from the "
                                   f"'{dev.type.upper()}' backend.")
    return RuntimeError(f"PyTorch is not linked with support for {dev.type} devices")


def check_creation_device(dev, use_default: bool = True) -> None:
    """Refuse to make a tensor anywhere but on the CPU (``dev`` None: the default device, if ``use_default``)."""
    if dev is None:
        if not use_default or _DEFAULT[0] is None:
            return
        dev = _DEFAULT[0]
    dev = dev if isinstance(dev, device) else device(dev)
    if dev.type != "cpu":
        raise _unavailable(dev, creating=True)


def check_target_device(dev) -> None:
    """Refuse to move a tensor anywhere but to the CPU (``x.to("cuda")``); None: stay."""
    if dev is None:
        return
    dev = dev if isinstance(dev, device) else device(dev)
    if dev.type != "cpu":
        raise _unavailable(dev, creating=False)


def generator_device(dev) -> device:
    """The device of ``torch.Generator(device=dev)``: only a CPU generator can be made here."""
    if isinstance(dev, int) and not isinstance(dev, bool):  # an index means the (absent) accelerator
        raise RuntimeError("Cannot access accelerator device when none is available.")
    dev = dev if isinstance(dev, device) else device(dev)
    if dev.type == "meta":
        raise RuntimeError("META device type not an accelerator.")
    if dev.type == "xpu":
        raise RuntimeError("Cannot get XPU generator without ATen_xpu library.")
    if dev.type == "cuda":
        raise RuntimeError(
            "Cannot get CUDA generator without ATen_cuda library. PyTorch splits its backend into two shared "
            "libraries: a CPU library and a CUDA library; this error has occurred because you are trying to use "
            "some CUDA functionality, but the CUDA library has not been loaded by the dynamic linker for some "
            "reason.  The CUDA library MUST be loaded, EVEN IF you don't directly use any symbols from the CUDA "
            "library! One common culprit is a lack of -Wl,--no-as-needed in your link arguments; many dynamic "
            "linkers will delete dynamic library dependencies if you don't depend on any of their symbols.  You "
            "can check if this has occurred by using ldd on your binary to see if there is a dependency on "
            "*_cuda.so library.")
    if dev.type != "cpu":
        raise RuntimeError(f"Cannot execute getNewGenerator() without {dev.type.upper()} backend.")
    return CPU


def is_device(obj) -> bool:
    """True for what ``Tensor.to`` reads as a device: a torch.device, a device string or an index."""
    return isinstance(obj, (device, str)) or (isinstance(obj, int) and not isinstance(obj, bool))


def set_default_device(dev) -> None:
    """The device factory functions use when given none (anything but the CPU makes them fail here)."""
    _DEFAULT[0] = None if dev is None else dev if isinstance(dev, device) else device(dev)


def get_default_device() -> device:
    """The device factory functions use when given none."""
    if _DEFAULT[0] is not None and _DEFAULT[0].type == "meta":   # (the one other device made here: _meta.py)
        return _DEFAULT[0]
    check_creation_device(None)
    return CPU
