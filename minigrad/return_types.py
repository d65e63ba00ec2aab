"""torch.return_types: the named pairs returned by max(dim), min(dim) and friends."""
from __future__ import annotations


class _ValuesIndices(tuple):
    """A (values, indices) pair that prints like PyTorch's structseq."""

    __slots__ = ()
    n_fields = n_sequence_fields = 2

    def __new__(cls, sequence):
        values, indices = sequence
        return super().__new__(cls, (values, indices))

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.{type(self).__name__}(\nvalues={self[0]!r},\nindices={self[1]!r})"

    def __reduce__(self):
        return (type(self), (tuple(self),))


def _make_type(name: str) -> type:
    return type(name, (_ValuesIndices,), {"__slots__": (), "__module__": "torch.return_types"})


max = _make_type("max")  # PyTorch's names (they shadow the builtins in this module only)
min = _make_type("min")
sort = _make_type("sort")
topk = _make_type("topk")
kthvalue = _make_type("kthvalue")
median = _make_type("median")
mode = _make_type("mode")
cummax = _make_type("cummax")
cummin = _make_type("cummin")
_TYPES = {"max": max, "min": min, "sort": sort, "topk": topk, "kthvalue": kthvalue, "median": median, "mode": mode,
          "cummax": cummax, "cummin": cummin}


def make(name: str, values, indices):
    """The return type called ``name`` holding (values, indices)."""
    return _TYPES[name]((values, indices))
