"""State each thread keeps for itself (PyTorch keeps it per thread), read as ``flag[0]`` or as a list on hot paths.

A ``PerThreadFlag`` is a one-item deque, whose ``flag[0]`` is read in C until some thread first sets it; from then on
(for the rest of the process: no thread knows whether another still has it set) ``flag[0]`` is a Python call
returning the calling thread's value (~100 ns more), the initial one in a thread that never set it. So autocast's
flag, read by every listed op, and the default device's, read by every factory, cost next to nothing in a program
that never sets them. ``PerThreadList`` and ``PerThreadDict`` do the same for the stacks of running transforms.
(A deque, not a list: CPython 3.11 gives a list subclass a generic ``__getitem__`` slot that looks the method up and
calls it, ~375 instructions per read; a deque subclass inherits deque's C slot, ~215; a plain list's is ~100.)
"""
from __future__ import annotations

import threading
from collections import deque


class PerThreadFlag(deque):
    """``flag[0]``: a value each thread reads and sets for itself (``initial`` until the thread sets it)."""

    __slots__ = ("tls",)

    def __init__(self, initial) -> None:
        super().__init__((initial,))
        # (the initial value as a class attribute: what a thread that never set the flag reads)
        self.tls = type("Value", (threading.local,), {"value": initial})()

    def __setitem__(self, index, value) -> None:
        self.__class__ = _SetFlag   # (first set anywhere: reads go through the thread's value from now on)
        self.tls.value = value

    def __repr__(self) -> str:
        return f"[{self[0]!r}]"

    def __eq__(self, other) -> bool:
        return [self[0]] == other   # (list's own would compare the initial value)

    __hash__ = None


class _SetFlag(PerThreadFlag):
    __slots__ = ()

    def __getitem__(self, index):
        return self.tls.value

    def __setitem__(self, index, value) -> None:
        self.tls.value = value


class _Items(threading.local):
    def __init__(self, kind: type) -> None:
        self.items = kind()


class PerThreadList(list):
    """A list each thread keeps for itself (empty in a new thread): read as a list until some thread first changes
    it, then through the calling thread's own list (see PerThreadFlag)."""

    __slots__ = ("tls",)

    def __init__(self) -> None:
        super().__init__()
        self.tls = _Items(list)

    def _own(self) -> list:
        self.__class__ = _SetList
        return self.tls.items

    def append(self, value) -> None:
        self._own().append(value)

    def pop(self, index=-1):
        return self._own().pop(index)

    def remove(self, value) -> None:
        self._own().remove(value)

    def clear(self) -> None:
        self._own().clear()

    def __setitem__(self, index, value) -> None:
        self._own()[index] = value

    def __repr__(self) -> str:
        return repr(list(self))

    def __eq__(self, other) -> bool:
        return list(self) == other

    __hash__ = None


class _SetList(PerThreadList):
    __slots__ = ()

    def _own(self) -> list:
        return self.tls.items

    def __getitem__(self, index):
        return self.tls.items[index]

    def __len__(self) -> int:
        return len(self.tls.items)

    def __iter__(self):
        return iter(self.tls.items)

    def __reversed__(self):
        return reversed(self.tls.items)

    def __contains__(self, value) -> bool:
        return value in self.tls.items

    def index(self, *args) -> int:
        return self.tls.items.index(*args)

    def count(self, value) -> int:
        return self.tls.items.count(value)

    def copy(self) -> list:
        return self.tls.items.copy()


class PerThreadDict(dict):
    """A dict each thread keeps for itself (empty in a new thread), as PerThreadList."""

    __slots__ = ("tls",)

    def __init__(self) -> None:
        super().__init__()
        self.tls = _Items(dict)

    def _own(self) -> dict:
        self.__class__ = _SetDict
        return self.tls.items

    def __setitem__(self, key, value) -> None:
        self._own()[key] = value

    def __delitem__(self, key) -> None:
        del self._own()[key]

    def pop(self, *args):
        return self._own().pop(*args)

    def setdefault(self, key, default=None):
        return self._own().setdefault(key, default)

    def clear(self) -> None:
        self._own().clear()

    def __repr__(self) -> str:
        return repr(dict(self.items()))

    def __eq__(self, other) -> bool:
        return dict(self.items()) == other

    __hash__ = None


class _SetDict(PerThreadDict):
    __slots__ = ()

    def _own(self) -> dict:
        return self.tls.items

    def __getitem__(self, key):
        return self.tls.items[key]

    def get(self, key, default=None):
        return self.tls.items.get(key, default)

    def __contains__(self, key) -> bool:
        return key in self.tls.items

    def __len__(self) -> int:
        return len(self.tls.items)

    def __iter__(self):
        return iter(self.tls.items)

    def keys(self):
        return self.tls.items.keys()

    def values(self):
        return self.tls.items.values()

    def items(self):
        return self.tls.items.items()

    def copy(self) -> dict:
        return self.tls.items.copy()
