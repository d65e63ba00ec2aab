"""torch.return_types: the named pairs returned by max(dim), min(dim) and friends."""
from __future__ import annotations

_MISSING = object()  # (an argument not given)


class _StructSeq(tuple):
    """Errors name the type as PyTorch's C structseq does: with its module (``'torch.return_types.max' object``)."""

    __slots__ = ()
    _field_names: tuple = ()

    def _type_name(self) -> str:
        return f"'torch.return_types.{type(self).__name__}' object"

    @classmethod
    def _items(cls, sequence, dict_) -> tuple:
        """The fields given to the constructor, checked as CPython's structseq_new checks them: any sequence (no
        iterators) of exactly n_fields items, and an optional dict (which only fills unnamed fields: none)."""
        if sequence is _MISSING:
            raise TypeError("structseq() missing required argument 'sequence' (pos 1)")
        try:
            items = tuple(sequence)  # (PySequence_Fast: any iterable)
        except TypeError:
            raise TypeError("constructor requires a sequence") from None
        if dict_ is not _MISSING and not isinstance(dict_, dict):
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a dict as second arg, if any")
        if len(items) != cls.n_fields:
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a {cls.n_fields}-sequence "
                            f"({len(items)}-sequence given)")
        return items

    def __getattr__(self, name: str):
        raise AttributeError(f"{self._type_name()} has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        if name in self._field_names:
            raise AttributeError("readonly attribute")
        raise AttributeError(f"{self._type_name()} has no attribute '{name}'")

    def __setitem__(self, index, value) -> None:
        raise TypeError(f"{self._type_name()} does not support item assignment")

    def __delitem__(self, index) -> None:
        raise TypeError(f"{self._type_name()} doesn't support item deletion")

    def __format__(self, spec: str) -> str:
        if spec:   # (object.__format__'s refusal, with the C type's full name)
            raise TypeError(f"unsupported format string passed to torch.return_types.{type(self).__name__}.__format__")
        return str(self)


class _ValuesIndices(_StructSeq):
    """A (values, indices) pair that prints like PyTorch's structseq."""

    __slots__ = ()
    _field_names = ("values", "indices")
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, sequence=_MISSING, dict=_MISSING):  # noqa: A002 - (structseq's own keyword)
        return super().__new__(cls, cls._items(sequence, dict))

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
nanmedian = _make_type("nanmedian")
_TYPES = {"max": max, "min": min, "sort": sort, "topk": topk, "kthvalue": kthvalue, "median": median, "mode": mode,
          "cummax": cummax, "cummin": cummin, "nanmedian": nanmedian}


def make(name: str, values, indices):
    """The return type called ``name`` holding (values, indices)."""
    return _TYPES[name]((values, indices))


class _Named(_StructSeq):
    """A tuple with named fields that prints like PyTorch's structseq (torch.return_types.linalg_qr ...)."""

    __slots__ = ()

    def __new__(cls, sequence=_MISSING, dict=_MISSING):  # noqa: A002 - (structseq's own keyword)
        return super().__new__(cls, cls._items(sequence, dict))

    def __repr__(self) -> str:
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._field_names, self))
        return f"torch.return_types.{type(self).__name__}(\n{fields})"

    def __reduce__(self):
        return (type(self), (tuple(self),))


def _named(name: str, *fields: str) -> type:
    attrs = {"__slots__": (), "__module__": "torch.return_types", "_field_names": fields,
             "n_fields": len(fields), "n_sequence_fields": len(fields), "n_unnamed_fields": 0}
    for i, field in enumerate(fields):
        attrs[field] = property(lambda self, i=i: self[i])
    return type(name, (_Named,), attrs)


# The decompositions of torch.linalg (and their legacy torch.* spellings)
linalg_qr = _named("linalg_qr", "Q", "R")
qr = _named("qr", "Q", "R")
linalg_eigh = _named("linalg_eigh", "eigenvalues", "eigenvectors")
linalg_slogdet = _named("linalg_slogdet", "sign", "logabsdet")
slogdet = _named("slogdet", "sign", "logabsdet")
linalg_svd = _named("linalg_svd", "U", "S", "Vh")
svd = _named("svd", "U", "S", "V")
linalg_cholesky_ex = _named("linalg_cholesky_ex", "L", "info")
linalg_inv_ex = _named("linalg_inv_ex", "inverse", "info")
linalg_solve_ex = _named("linalg_solve_ex", "result", "info")
linalg_lstsq = _named("linalg_lstsq", "solution", "residuals", "rank", "singular_values")
aminmax = _named("aminmax", "min", "max")
frexp = _named("frexp", "mantissa", "exponent")
# torch.linalg's second wave (eig, LU, triangular_solve, geqrf)
linalg_eig = _named("linalg_eig", "eigenvalues", "eigenvectors")
linalg_lu_factor = _named("linalg_lu_factor", "LU", "pivots")
linalg_lu_factor_ex = _named("linalg_lu_factor_ex", "LU", "pivots", "info")
linalg_lu = _named("linalg_lu", "P", "L", "U")
lu_unpack = _named("lu_unpack", "P", "L", "U")
_lu_with_info = _named("_lu_with_info", "LU", "pivots", "info")
triangular_solve = _named("triangular_solve", "solution", "cloned_coefficient")
geqrf = _named("geqrf", "a", "tau")
linalg_ldl_factor = _named("linalg_ldl_factor", "LD", "pivots")
linalg_ldl_factor_ex = _named("linalg_ldl_factor_ex", "LD", "pivots", "info")
# ... and what the same functions return when given out=(values, indices): its members ARE the out tensors
sort_out, max_out, min_out, topk_out, kthvalue_out, median_out, nanmedian_out, mode_out, cummax_out, cummin_out = (
    _make_type(f"{name}_out") for name in ("sort", "max", "min", "topk", "kthvalue", "median", "nanmedian", "mode",
                                           "cummax", "cummin"))
aminmax_out = _named("aminmax_out", "min", "max")
frexp_out = _named("frexp_out", "mantissa", "exponent")
histogram_out = _named("histogram_out", "hist", "bin_edges")
_OUT_TYPES = {"sort": sort_out, "max": max_out, "min": min_out, "topk": topk_out, "kthvalue": kthvalue_out,
              "median": median_out, "nanmedian": nanmedian_out, "mode": mode_out, "cummax": cummax_out,
              "cummin": cummin_out, "aminmax": aminmax_out, "frexp": frexp_out}
