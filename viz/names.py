"""Names for tensors: an explicit mapping (like torchviz's params=) and the caller's variable names."""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping
from typing import Any

from .tensors import alias_key, is_tensor

MAX_CONTAINER = 64  # items looked at inside a list/tuple/dict variable


def named_tensors(params: Any) -> list[tuple[str, Any]]:
    """(name, tensor) pairs from a mapping, an object with named_parameters(), or (name, tensor) pairs."""
    if params is None:
        return []
    if hasattr(params, "named_parameters") and callable(params.named_parameters):
        params = params.named_parameters()
    items = params.items() if isinstance(params, Mapping) else params
    return [(str(k), v) for k, v in items if is_tensor(v)]


def _from_namespace(ns: Mapping[str, Any]) -> Iterable[tuple[str, Any]]:
    for name, value in list(ns.items()):
        if name.startswith("_"):
            continue  # IPython's _, _1, Out history and private helpers
        if is_tensor(value):
            yield name, value
        elif isinstance(value, (list, tuple)) and value and len(value) <= MAX_CONTAINER:
            for i, v in enumerate(value):
                if is_tensor(v):
                    yield f"{name}[{i}]", v
        elif isinstance(value, dict) and value and len(value) <= MAX_CONTAINER:
            for k, v in value.items():
                if is_tensor(v) and isinstance(k, (str, int)):
                    yield f"{name}[{k!r}]", v
        elif (
            not isinstance(value, type)
            and hasattr(type(value), "named_parameters")
            and callable(getattr(value, "named_parameters", None))
        ):
            try:  # an nn.Module-like model: model.weight, model.0.bias ...
                for k, v in value.named_parameters():
                    yield f"{name}.{k}", v
            except Exception:
                pass


def caller_names(depth: int = 2) -> list[tuple[str, Any]]:
    """Tensors visible in the frame `depth` levels above this function's (locals first, then globals)."""
    frame = inspect.currentframe()
    try:
        for _ in range(depth):
            if frame is None:
                return []
            frame = frame.f_back
        if frame is None:
            return []
        spaces = [frame.f_locals] + (
            [frame.f_globals] if frame.f_globals is not frame.f_locals else []
        )
        pairs = [p for ns in spaces for p in _from_namespace(ns)]
        # Plain variables win over names found inside containers ("w" before "params['w']").
        return [p for p in pairs if p[0].isidentifier()] + [
            p for p in pairs if not p[0].isidentifier()
        ]
    finally:
        del frame  # break the frame reference cycle


class Names:
    """Look up a tensor's name by identity, or by the memory it views (for saved tensors)."""

    def __init__(self, pairs: Iterable[tuple[str, Any]]):
        self._by_id: dict[int, str] = {}
        self._keep: list[Any] = []  # hold the tensors so their ids stay theirs while we draw
        self.tensors: list[tuple[str, Any]] = []
        self._by_key: dict[tuple, str] | None = None
        self._ptrs: dict[int, str] | None = None
        for name, t in pairs:
            if id(t) not in self._by_id:
                self._by_id[id(t)] = name
                self._keep.append(t)
                self.tensors.append((name, t))

    def name(self, t: Any) -> str | None:
        """The name of this tensor object, or of a named tensor viewing exactly the same memory."""
        found = self._by_id.get(id(t))
        if found is None and self.tensors:
            key = alias_key(t)
            found = self._keys().get(key) if key is not None else None
        return found

    def view_of(self, t: Any) -> str | None:
        """The name of a named tensor sharing t's data pointer (t may be a reshaped view of it)."""
        try:
            ptr = int(t.data_ptr())
        except Exception:
            return None
        if self._ptrs is None:
            self._ptrs = {}
            for name, u in self.tensors:
                try:
                    self._ptrs.setdefault(int(u.data_ptr()), name)
                except Exception:
                    pass
        return self._ptrs.get(ptr)

    def _keys(self) -> dict[tuple, str]:
        if self._by_key is None:  # computed on first use: most drawings never need it
            self._by_key = {}
            for name, u in self.tensors:
                key = alias_key(u)
                if key is not None:
                    self._by_key.setdefault(key, name)
        return self._by_key

    def __len__(self) -> int:
        return len(self.tensors)
