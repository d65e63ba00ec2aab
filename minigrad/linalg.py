"""torch.linalg: inverse, determinant, norms, cross product, solvers, decompositions and least squares.

Argument checks, PyTorch's error messages and return types are here; the derivatives are in the linear
algebra section of ``derivatives.py``. The LAPACK values come from MKL as PyTorch calls it (``_lapack.py``):
PyTorch's bits, its eigenvector signs and phases included. Without MKL they come from NumPy's LAPACK, whose
eigenvectors and singular vectors may differ in sign (phase).
"""

import math as _math

import numpy as _np

from . import _arg_errors, _creation, _dispatch, _dtypes, _lapack, _linalg_kernels, _ops, _ops_math, _ops_matrices
from . import derivatives as _D
from . import return_types as _return_types
from ._ops_matrices import _LinAlgError, det, matrix_power, multi_dot  # noqa: F401
from ._ops_matrices import batch_prefix as _batch_prefix
from ._ops_matrices import inverse as inv  # noqa: F401
from ._ops_matrices import linalg_cross as cross  # noqa: F401
from ._ops_matrices import singular_pivot as _singular_pivot
from ._tensor import Tensor as _Tensor
from ._warn_once import warn_once as _warn_once  # (the legacy functions' deprecations: TORCH_WARN_ONCE)
from .amp.autocast_mode import ON as _AUTOCAST
from .amp.autocast_mode import run as _autocast
from .autograd import forward_ad as _forward_ad
from .autograd import grad_mode as _grad_mode

LinAlgError = _LinAlgError


def _check_float(A, fn: str) -> None:
    if not (A.is_floating_point() or A.is_complex()):
        raise RuntimeError(f"{fn}: Expected a floating point or complex tensor as input. Got {_ops._legacy(A.dtype)}")


def _check_dims(A, fn: str, name: str = "A", composite: bool = False) -> None:
    """A batch of matrices. Most linalg functions check it in their kernel, after VariableType collected the
    edges, so a rebased view is refused first; ``composite`` ones (matrix_norm, cond, logdet) check it themselves
    before any op."""
    if A.dim() < 2:
        if not composite:
            _dispatch.check_rebased_inputs(A)
        raise RuntimeError(f"{fn}: The input tensor {name} must have at least 2 dimensions.")


def _check_square(A, fn: str, composite: bool = False) -> None:
    _check_dims(A, fn, composite=composite)
    if A.shape[-1] != A.shape[-2]:
        if not composite:   # (as _check_dims)
            _dispatch.check_rebased_inputs(A)
        raise RuntimeError(f"{fn}: A must be batches of square matrices, but they are {A.shape[-2]} by "
                           f"{A.shape[-1]} matrices")


def _check_low_precision(A, fn: str) -> None:
    """checkFloatingOrComplex(..., allow_low_precision_dtypes=false): half precision refused by name."""
    if A.dtype.name in ("float16", "bfloat16"):
        raise RuntimeError(f"{fn}: Low precision dtypes not supported. Got {_ops._legacy(A.dtype)}")


def _check_lapack_dtype(A, kernel: str, ints: bool = False) -> None:
    """Half precision has no LAPACK kernel (PyTorch names the kernel it did not find); ``ints``: nor have
    integers and bool (an op whose dtype reaches the kernel unchecked)."""
    if A.dtype.name in ("float16", "bfloat16") or (ints and not (A.is_floating_point() or A.is_complex())):
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{_ops._legacy(A.dtype)}'")


def _recording(*tensors) -> bool:
    # (a forward-AD tangent needs the recorded op too: its jvp formula uses what it saves)
    return (_grad_mode.is_grad_enabled() and any(t.requires_grad for t in tensors)) or any(
        t._fw_grad is not None for t in tensors)


# =============================================================================================
# Norms
# =============================================================================================

_MATRIX_NORM_OVERLOADS = (
    "(Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, *, torch.dtype dtype = None, "
    "Tensor out = None)",
    "(Tensor input, str ord = \"fro\", tuple of ints dim = {-2,-1}, bool keepdim = False, *, torch.dtype dtype = "
    "None, Tensor out = None)")


def matrix_norm(A, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None):
    """Matrix norm over the two dims ``dim``: 'fro', 'nuc', ±2 (extreme singular values), ±1, ±inf."""
    if not isinstance(A, _Tensor):
        raise _arg_errors.must_be("linalg_matrix_norm", "input", "Tensor", A, 1)
    if ord is None:
        raise TypeError("linalg_matrix_norm() received an invalid combination of arguments - got (Tensor, "
                        "ord=NoneType), but expected one of:\n"
                        " * (Tensor input, Number ord, tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
                        "torch.dtype dtype = None, Tensor out = None)\n"
                        " * (Tensor input, str ord = \"fro\", tuple of ints dim = {-2,-1}, bool keepdim = False, *, "
                        "torch.dtype dtype = None, Tensor out = None)\n")
    if not isinstance(dim, (tuple, list)):  # (its parser: dim is a tuple of ints, an int or None fit no overload)
        passed = {"ord": ord, "dim": dim, "keepdim": keepdim, "dtype": dtype}
        defaults = {"ord": "fro", "keepdim": False, "dtype": None}
        raise _arg_errors.invalid_combination("linalg_matrix_norm", (A,), {
            k: v for k, v in passed.items() if k not in defaults or v is not defaults[k]}, _MATRIX_NORM_OVERLOADS)
    if ord not in ("fro", "nuc", 2, -2, 1, -1, _math.inf, -_math.inf):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    _check_dims(A, "linalg.matrix_norm", composite=True)
    _check_float(A, "linalg.matrix_norm")
    if ord in ("nuc", 2, -2) and A.dtype.name in ("float16", "bfloat16"):  # (no SVD in half precision)
        raise RuntimeError(f"linalg.matrix_norm: Low precision dtypes not supported. Got {_ops._legacy(A.dtype)}")
    dims = (dim,) if isinstance(dim, int) else tuple(dim)
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got {' '.join(str(d) for d in dims)}")
    d0, d1 = (_ops._wrap_dim(d, A.dim()) for d in dims)
    if d0 == d1:
        raise RuntimeError(f"linalg.matrix_norm: dims must be different. Got ({dims[0]}, {dims[1]})")
    if dtype is not None:   # (its own check of dtype, after the dims', before those of the norms it computes)
        _ops._check_norm_dtype("linalg.matrix_norm", A.dtype, dtype)
    if ord == "fro":  # (with the dims wrapped, as PyTorch: the node saves dim=(1, 2), not (-2, -1))
        return vector_norm(A, 2, dim=(d0, d1), keepdim=keepdim, dtype=dtype)
    if ord in (1, -1, _math.inf, -_math.inf):
        # The 1-norm is the largest column sum of |A|; the inf-norm the largest row sum.
        if abs(ord) == _math.inf:
            d0, d1 = d1, d0
        if not keepdim and d0 < d1:
            d1 -= 1
        sums = vector_norm(A, 1, dim=(d0,), keepdim=keepdim, dtype=dtype)
        return _max_min(sums, d1, keepdim, ord > 0)
    # nuc, ±2: from the singular values of the matrices moved to the last two dims
    order = [d for d in range(A.dim()) if d not in (d0, d1)] + [d0, d1]
    S = svdvals((A if dtype is None else A.to(dtype)).permute(order))  # (permuted even in place, as PyTorch)
    if ord == "nuc":
        result = S.sum(-1, keepdim=keepdim)
    else:
        result = _max_min(S, -1, keepdim, ord > 0)
    if keepdim:  # the two reduced dims back where they were
        result = result.unsqueeze(-1)
        inverse = [0] * A.dim()
        for i, d in enumerate(order):
            inverse[d] = i
        result = result.permute(inverse)
    return result


def _max_min(t, dim: int, keepdim: bool, largest: bool):
    """amax (largest) or amin over ``dim``; the largest of no norms is 0, as PyTorch's matrix_norm has it."""
    if t.shape[dim] == 0:
        if not largest:
            raise IndexError(f"amin(): Expected reduction dim {dim} to have non-zero size.")
        shape = list(t.shape)
        if keepdim:
            shape[dim] = 1
        else:
            del shape[dim]
        # (PyTorch fills a new tensor in place: the user sees _version 1)
        return _ops.zeros(tuple(shape), dtype=t.dtype).zero_()
    return (_ops.amax if largest else _ops.amin)(t, dim, keepdim)


def norm(A, ord=None, dim=None, keepdim=False, *, dtype=None):
    """A vector norm, or a matrix norm when ``ord`` is given with two dims (or for a 2-D input)."""
    if not isinstance(A, _Tensor):
        raise _arg_errors.must_be("linalg_norm", "input", "Tensor", A, 1)
    if dim is not None:
        # (an int[1]?: one int, or a one-element integer tensor, is a dim)
        dims = (dim,) if isinstance(dim, int) else (int(dim),) if _arg_errors.list_int(dim) else tuple(dim)
        if isinstance(ord, str):
            return matrix_norm(A, ord, dims, keepdim, dtype=dtype)
        if len(dims) not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is specified, it must be of length 1 or 2. Got {list(dims)}")
    elif ord is not None:
        if A.dim() not in (1, 2):
            raise RuntimeError(f"linalg.norm: If dim is not specified but ord is, the input must be 1D or 2D. Got "
                               f"{A.dim()}D.")
        if isinstance(ord, str) or A.dim() == 2:
            return matrix_norm(A, ord, (0, 1), keepdim, dtype=dtype)
    if ord is not None and dim is not None and len(dims) == 2:
        return matrix_norm(A, ord, dims, keepdim, dtype=dtype)
    return vector_norm(A, 2.0 if ord is None else ord, dim, keepdim, dtype=dtype)  # (a float 2: PyTorch's _saved_ord)


# =============================================================================================
# Solvers and inverses
# =============================================================================================

def _is_vector_rhs(A, B) -> bool:
    """PyTorch's linalg_solve_is_vector_rhs: B is a (batch of) vector(s), not of matrices."""
    return B.dim() == 1 or (B.dim() == A.dim() - 1 and tuple(B.shape) == tuple(A.shape[:-1]))


def _check_solve(A, B, left: bool, fn: str = "linalg.solve") -> None:
    _check_float(A, fn)  # (PyTorch's order: A's dtype, B's, then the ranks)
    if A.dtype is not B.dtype:
        raise RuntimeError(f"{fn}: Expected A and B to have the same dtype, but found A of type "
                           f"{_ops._legacy(A.dtype)} and B of type {_ops._legacy(B.dtype)} instead")
    _check_dims(A, fn)
    _check_square(A, fn)
    vector = _is_vector_rhs(A, B)
    if not vector and B.dim() < 2:
        raise RuntimeError(f"{fn}: The input tensor B must have at least 2 dimensions.")
    n = A.shape[-1]
    rows, cols = (B.shape[-1], 1) if vector else (B.shape[-2], B.shape[-1])
    if (rows if left else cols) != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
                           f"({n}x{n} and {rows}x{cols})")
    if vector and not left:  # (XA = b for a vector b is an elementwise division: PyTorch refuses to guess)
        raise RuntimeError(f"{fn}: Vector broadcasting of the left hand side is not supported for left=False. In "
                           "this case linalg.solve is equivalent to B / A.squeeze(-1)")
    _check_lapack_dtype(A, "lu_cpu")


def solve(A, B, *, left=True):
    """X with AX = B (left=True) or XA = B (LinalgSolveExBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_solve", solve, **locals())
    _check_solve(A, B, left)
    info = _singular_pivot(A)
    if info.any():
        raise _LinAlgError(f"torch.linalg.solve: {_batch_prefix(info, info.shape)}The solver failed because the "
                           "input matrix is singular.")
    return _D.linalg_solve_ex(A, B, left=left)[0]


def solve_ex(A, B, *, left=True, check_errors=False):
    """(X, info): solve without raising for a singular A (info > 0 there, X not meaningful)."""
    _check_solve(A, B, left)
    info = _singular_pivot(A)
    if info.any() and not _lapack.supports(A._data, B._data):
        if check_errors:
            raise _LinAlgError(f"torch.linalg.solve_ex: {_batch_prefix(info, info.shape)}The solver failed because "
                               "the input matrix is singular.")
        # LAPACK's gesv carries on through the zero pivot: the LU substitutions' infs and nans (and the
        # solutions of the other matrices of the batch)
        vector = _is_vector_rhs(A, B)
        lu, pivots, _ = _linalg_kernels.lu_factor(A._data)
        x = _linalg_kernels.lu_solve(lu, pivots, B._data[..., None] if vector else B._data, left, False)
        return _return_types.linalg_solve_ex((_Tensor._make(x[..., 0] if vector else x), _Tensor._make(info)))
    if info.any() and check_errors:
        raise _LinAlgError(f"torch.linalg.solve_ex: {_batch_prefix(info, info.shape)}The solver failed because "
                           "the input matrix is singular.")
    # (a singular A: MKL's getrs carries on through the zero pivot, infs and nans, recorded as PyTorch's)
    info = _dispatch.function_result_version("inv_ex info", (A, B), _Tensor._make(info))   # (its kernel's write: 1)
    return _return_types.linalg_solve_ex((_D.linalg_solve_ex(A, B, left=left)[0], info))


def inv_ex(A, *, check_errors=False):
    """(A⁻¹, info): the inverse without raising for a singular A (info > 0 there)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_inv_ex", inv_ex, **locals())
    _ops_matrices._check_square(A, "inv")  # (PyTorch's checks name linalg.inv: the kernel is shared)
    _check_low_precision(A, "linalg.inv")
    info = _singular_pivot(A)
    if info.any():
        if check_errors:
            raise _LinAlgError(f"linalg.inv_ex: {_batch_prefix(info, info.shape)}The diagonal element "
                               f"{info.reshape(-1)[_np.flatnonzero(info)[0]]} is zero, the inversion could not be "
                               "completed because the input matrix is singular.")
        if not _lapack.supports(A._data):  # (else linalg_inv's getrs carries on through the zero pivot, as
            inverse = _np.full(A.shape, _np.nan, A._data.dtype)   # PyTorch's solve(A, I), and records the node)
            return _return_types.linalg_inv_ex((_Tensor._make(inverse), _Tensor._make(info)))
    info = _dispatch.function_result_version("inv_ex info", (A,), _Tensor._make(info))
    return _return_types.linalg_inv_ex((_D.linalg_inv(A), info))


def solve_triangular(A, B, *, upper=None, left=True, unitriangular=False):
    """X with AX = B (or XA = B) for a triangular A: only A's upper (or lower) triangle is read."""
    fn = "linalg.solve_triangular"
    if upper is None:
        raise TypeError('linalg_solve_triangular() missing 1 required positional arguments: "upper"')
    _check_square(A, fn)
    _check_dims(B, fn, "B")
    n = A.shape[-1]
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
                           f"({n}x{n} and {B.shape[-2]}x{B.shape[-1]})")
    _check_lapack_dtype(A, "triangular_solve_cpu", ints=True)
    # (B of another dtype is copied into the result, which has A's: PyTorch converts it, a complex B to a real A
    # with the warning of a cast; its gradient comes back in B's dtype)
    return _D.linalg_solve_triangular(A, B, upper=upper, left=left, unitriangular=unitriangular,
                                     dtype=None if A.dtype is B.dtype else A.dtype)


def pinv(A, rcond=None, *, atol=None, rtol=None, hermitian=False):
    """The Moore-Penrose pseudo-inverse A⁺ (singular values up to max(atol, rtol·σ_max) count as zero)."""
    if A.dim() < 2 or not (A.is_floating_point() or A.is_complex()) or A.dtype.name in ("float16", "bfloat16"):
        _dispatch.check_rebased_inputs(A)   # (PyTorch's pinv collects A's edge before this check)
        raise RuntimeError(f"linalg.pinv({_ops._legacy(A.dtype)}{{{list(A.shape)}}}): expected a tensor with 2 or "
                           "more dimensions of float, double, cfloat or cdouble types")
    if rcond is not None:
        rtol = rcond
    if not hermitian:   # (from the SVD: its error for a NaN; eigh's has none)
        _check_svd_nan(A._data)
    return _D.linalg_pinv(A, atol=_number(atol), rtol=_number(rtol), hermitian=hermitian)


def _number(x):
    return x.item() if isinstance(x, _Tensor) else x


def lstsq(A, B, rcond=None, *, driver=None):
    """The least-squares solution X of AX ≈ B, with residuals, rank and singular values (as the driver gives)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_lstsq", lstsq, **locals())
    fn = "torch.linalg.lstsq"
    if A.dim() < 2:
        _dispatch.check_rebased_inputs(A, B)   # (the kernel's check, after VariableType collected the edges)
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if B.dim() < 1:
        raise RuntimeError(f"{fn}: other must have at least 1 dimension.")
    if A.dtype is not B.dtype:
        raise RuntimeError(f"{fn}: Expected input and other to have the same dtype, but got input's dtype "
                           f"{_ops._legacy(A.dtype)} and other's dtype {_ops._legacy(B.dtype)}")
    if not (A.is_floating_point() or A.is_complex()) or A.dtype.name in ("float16", "bfloat16"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if not (0 <= A.dim() - B.dim() <= 1):
        raise RuntimeError(f"{fn}: input.dim() must be greater or equal to other.dim() and (input.dim() - "
                           "other.dim()) <= 1")
    # B is a (batch of) vector(s) when 1-D or shaped as A without its last dim (linalg_solve_is_vector_rhs)
    vector = B.dim() == 1 or (A.dim() - B.dim() == 1 and B.shape == A.shape[:-1])
    if A.shape[-2] != B.shape[-1 if vector else -2]:
        raise RuntimeError(f"{fn}: input.size(-2) should match other.size({-1 if vector else -2})")
    driver = "gelsy" if driver is None else driver
    if driver not in ("gels", "gelsy", "gelsd", "gelss"):
        raise RuntimeError(f"{fn}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)")
    # The batch dims broadcast are A's and as many leading dims of B (PyTorch's: all but the last of a B with
    # one dim less than A, vector or not), with the broadcast error of elementwise ops
    batch_a, batch_b = tuple(A.shape[:-2]), tuple(B.shape[:A.dim() - 2])
    try:
        batch = _np.broadcast_shapes(batch_a, batch_b)
    except ValueError:
        _ops._raise_broadcast_error(batch_a, batch_b)
    if not vector:  # B is then copied into the (batch, m, nrhs) top of the solution buffer, broadcasting as copy_
        top = batch + (A.shape[-2], B.shape[-1])
        try:
            wider = _np.broadcast_shapes(top, tuple(B.shape))
        except ValueError:
            _ops._raise_broadcast_error(top, tuple(B.shape))
        if wider != top:
            raise RuntimeError(f"output with shape {list(top)} doesn't match the broadcast shape {list(wider)}")
    if rcond is None:
        rcond = float(_np.finfo(A._data.dtype).eps) * max(A.shape[-2:])
    return _return_types.linalg_lstsq(_D.linalg_lstsq(A, B, rcond=rcond, driver=driver))


# =============================================================================================
# Decompositions
# =============================================================================================

def qr(A, mode="reduced"):
    """A = QR with Q orthonormal columns, R upper triangular (mode 'reduced', 'complete' or 'r': R only)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_qr", qr, **locals())
    _check_dims(A, "linalg.qr")
    _check_float(A, "linalg.qr")
    if mode not in ("reduced", "complete", "r"):
        raise RuntimeError(f"qr received unrecognized mode '{mode}' but expected one of 'reduced' (default), 'r', "
                           "or 'complete'")
    _check_lapack_dtype(A, "geqrf_cpu")
    return _return_types.linalg_qr(_D.linalg_qr(A, mode=mode))


def _check_eigh(A, UPLO) -> None:
    _check_square(A, "linalg.eigh")
    if UPLO not in ("L", "U", "l", "u"):  # (PyTorch takes the letter in either case)
        raise RuntimeError(f"Expected UPLO argument to be 'L' or 'U', but got {UPLO}")
    if not (A.is_floating_point() or A.is_complex()) or A.dtype.name in ("float16", "bfloat16"):
        raise NotImplementedError(f"\"linalg_eigh_cpu\" not implemented for '{_ops._legacy(A.dtype)}'")


def eigh(A, UPLO="L"):
    """A = V diag(L) Vᴴ for a Hermitian (symmetric) A: real eigenvalues, ascending (LinalgEighBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_eigh", eigh, **locals())
    _check_eigh(A, UPLO)
    return _return_types.linalg_eigh(_D.linalg_eigh(A, UPLO=UPLO.upper()))


def eigvalsh(A, UPLO="L"):
    """The eigenvalues of a Hermitian (symmetric) A, ascending."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_eigvalsh", eigvalsh, **locals())
    _check_eigh(A, UPLO)
    UPLO = UPLO.upper()
    if not _recording(A):
        a = A._data
        return _Tensor._make(_lapack.syevd(a, UPLO, vectors=False)[0] if _lapack.supports(a) else
                            _np.linalg.eigvalsh(a, UPLO=UPLO))
    return _D.linalg_eigh(A, UPLO=UPLO)[0]


def slogdet(A):
    """(sign, log|det A|): the determinant without overflow (LinalgSlogdetBackward0)."""
    _check_square(A, "linalg.slogdet")
    _check_float(A, "linalg.slogdet")
    _check_low_precision(A, "linalg.slogdet")
    return _return_types.linalg_slogdet(_D.linalg_slogdet(A)[:2])


def _slogdet_legacy(A):
    """torch.slogdet: linalg.slogdet under the name torch.return_types.slogdet."""
    return _return_types.slogdet(slogdet(A))


def _logdet(A):
    """log det A (nan for a negative determinant; complex A: log of the complex determinant)."""
    _check_square(A, "logdet", composite=True)
    _check_float(A, "logdet")
    _check_low_precision(A, "logdet")
    sign, logabsdet = _D.linalg_slogdet(A)[:2]
    if A.is_complex():
        return sign.log() + logabsdet
    return _ops.where(sign == -1.0, _math.nan, logabsdet)


def _cholesky_error(fn: str, info) -> _LinAlgError:
    order = int(info.reshape(-1)[_np.flatnonzero(info)[0]])
    return _LinAlgError(f"{fn}: {_batch_prefix(info, info.shape)}The factorization could not be completed because the "
                        f"input is not positive-definite (the leading minor of order {order} is not "
                        "positive-definite).")


def cholesky(A, *, upper=False):
    """A = LLᴴ for a Hermitian positive-definite A (L lower triangular; U = Lᴴ if upper)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_cholesky", cholesky, **locals())
    _check_square(A, "linalg.cholesky")
    _check_float(A, "linalg.cholesky")
    _check_lapack_dtype(A, "cholesky_cpu")
    L, info = _D.linalg_cholesky_ex(A, upper=upper)
    if info._data.any():
        raise _cholesky_error("linalg.cholesky", info._data)
    return L


def cholesky_ex(A, *, upper=False, check_errors=False):
    """(L, info): Cholesky without raising (info: order of the first leading minor not positive-definite)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_cholesky_ex", cholesky_ex, **locals())
    _check_square(A, "linalg.cholesky")  # (PyTorch's checks name linalg.cholesky: the kernel is shared)
    _check_float(A, "linalg.cholesky")
    _check_lapack_dtype(A, "cholesky_cpu")
    L, info = _D.linalg_cholesky_ex(A, upper=upper)
    if check_errors and info._data.any():
        raise _cholesky_error("linalg.cholesky_ex", info._data)
    return _return_types.linalg_cholesky_ex((L, info))


def _check_svd(A, driver) -> None:
    """PyTorch's argument checks of linalg.svd and svdvals."""
    if driver is not None:
        raise RuntimeError("torch.linalg.svd: keyword argument `driver=` is only supported on CUDA inputs with "
                           "cuSOLVER backend.")
    _check_dims(A, "linalg.svd")
    _check_float(A, "linalg.svd")
    _check_lapack_dtype(A, "linalg_svd_cpu")
    _check_svd_nan(A._data)


def _check_svd_nan(a) -> None:
    """PyTorch's error for a matrix with a NaN (gesdd's info > 0: LAPACK does not converge on it; ±inf alone
    passes, giving NaNs)."""
    bad = _np.isnan(a).any((-2, -1))
    if bad.any():
        raise _LinAlgError(f"linalg.svd: {_batch_prefix(bad, bad.shape)}The algorithm failed to converge because the "
                           "input matrix contained non-finite values.")


def svd(A, full_matrices=True, *, driver=None):
    """A = U diag(S) Vh, singular values descending (LinalgSvdBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_svd", svd, **locals())
    _check_svd(A, driver)
    return _return_types.linalg_svd(_D.linalg_svd(A, full_matrices=full_matrices,
                                                S_sym_argsize_minus_1=min(A.shape[-2:])))


def svdvals(A, *, driver=None):
    """The singular values of A, descending."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_svdvals", svdvals, **locals())
    _check_svd(A, driver)
    if not _recording(A):  # (the singular vectors are computed only for the derivative, as in PyTorch)
        a = A._data  # (MKL's gesdd with jobz='N', as PyTorch)
        return _Tensor._make(_lapack.gesdd(a, compute_uv=False)[1] if _lapack.supports(a) else
                            _np.linalg.svd(a, compute_uv=False))
    return _D.linalg_svd(A, full_matrices=False, S_sym_argsize_minus_1=min(A.shape[-2:]))[1]


def matrix_rank(A, *, atol=None, rtol=None, hermitian=False, tol=None):
    """The number of singular values above max(atol, rtol·σ_max) (int64; no gradient)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_matrix_rank", matrix_rank, **locals())
    if A.dim() < 2:
        raise RuntimeError("torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions.")
    if not (A.is_floating_point() or A.is_complex()) or A.dtype.name in ("float16", "bfloat16"):
        raise RuntimeError("This function doesn't handle types other than float and double")
    if tol is not None:
        atol, rtol = tol, (_ops.zeros((), dtype=_dtypes.float64) if isinstance(tol, _Tensor) else 0.0)
    if isinstance(atol, _Tensor) or isinstance(rtol, _Tensor):
        return _matrix_rank_tensor_tolerances(A, atol, rtol, hermitian)
    a = A._data
    s = _np.abs(eigvalsh(A)._data) if hermitian else svdvals(A)._data  # (the singular vectors too if A needs grad)
    atol, rtol = _D.pinv_tolerances(a, _number(atol), _number(rtol))
    smax = s.max(-1, keepdims=True, initial=0.0)
    rank = _Tensor._make(_np.asarray((s > _np.maximum(atol, rtol * smax)).sum(-1), dtype=_np.int64))
    rank._version_counter[0] = 1   # (PyTorch counts the singular values above the tolerance with sum(out=): _version 1)
    return rank


def _matrix_rank_tensor_tolerances(A, atol, rtol, hermitian):
    """matrix_rank with tolerance tensors (one per matrix of the batch, broadcast): PyTorch's steps in its types,
    tol = max(atol, rtol·σ_max) with the defaults atol = 0, rtol = eps·max(m, n) where atol is not > 0."""
    for name, t in (("atol", atol), ("rtol", rtol)):
        if isinstance(t, _Tensor) and t.is_complex():
            raise RuntimeError(f"torch.linalg.matrix_rank: {name} tensor of complex type is not supported. Got "
                               f"{_ops._legacy(t.dtype)}")
    with _grad_mode.no_grad():
        if A.numel() == 0:   # (no singular values: rank 0, the tolerances unread)
            rank = _ops.zeros(tuple(A.shape[:-2]), dtype=_dtypes.int64)
            rank._version_counter[0] = 1
            return rank
        double = _dtypes.float64
        eps_rtol = _creation.full((), float(_np.finfo(_np.zeros((), A._data.dtype).real.dtype).eps) * max(A.shape[-2:]),
                             dtype=double)
        if rtol is None:
            rtol = eps_rtol if atol is None else _ops.where(atol > 0, _ops.zeros((), dtype=double), eps_rtol)
        atol = _ops.zeros((), dtype=double) if atol is None else atol
        if hermitian:
            S = eigvalsh(A).abs()
            max_S = S.amax(-1, keepdim=True)   # (eigenvalues come in ascending order: the largest |λ| anywhere)
        else:
            S = svdvals(A)
            max_S = S.narrow(-1, 0, 1)         # (singular values come in descending order)
        tol = _ops.maximum(atol.unsqueeze(-1), rtol.unsqueeze(-1) * max_S)
        rank = (S > tol).sum(-1)
    rank._version_counter[0] = 1   # (PyTorch counts them with sum(out=), or fill_(0)s an empty input's: _version 1)
    return rank


def vector_norm(x, ord=2, dim=None, keepdim=False, *, dtype=None):
    """‖x‖_ord over ``dim`` (all elements if None), the tensor seen as a flat vector."""
    if not isinstance(x, _Tensor):
        raise _arg_errors.must_be("linalg_vector_norm", "input", "Tensor", x, 1)
    if ord is None or isinstance(ord, (str, list, tuple)):  # (PyTorch's parser: ord is a Number, no 'fro' here)
        raise TypeError(f"linalg_vector_norm(): argument 'ord' must be Number, not {_arg_errors.type_name(ord)}")
    return _ops.norm(x, p=ord, dim=dim, keepdim=keepdim, dtype=dtype)


# =============================================================================================
# The deprecated torch.* decompositions: torch.svd, torch.qr, torch.cholesky (linalg underneath)
# =============================================================================================

def _svd_legacy(input, some=True, compute_uv=True):
    """torch.svd: (U, S, V) with A = U diag(S) Vᴴ; V itself, not Vᴴ (compute_uv=False: zero U and V)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("svd", _svd_legacy, **locals())
    if input.dim() < 2:
        raise RuntimeError(f"linalg.svd: input should have at least 2 dimensions, but has {input.dim()} dimensions "
                           "instead")
    if compute_uv:
        U, S, Vh = svd(input, full_matrices=not some)
    else:
        # The singular values only; U and V are zeros of the full sizes, whatever ``some`` says (as PyTorch).
        S = svdvals(input)
        batch, (m, n) = tuple(input.shape[:-2]), tuple(input.shape[-2:])
        U = _ops.zeros(batch + (m, m), dtype=input.dtype)
        Vh = _ops.zeros(batch + (n, n), dtype=input.dtype)
    return _return_types.svd((U, S, Vh.mH))


def _qr_legacy(input, some=True):
    """torch.qr: linalg.qr with mode 'reduced' (some=True) or 'complete'."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("qr", _qr_legacy, **locals())
    _warn_once("qr", "torch.qr is deprecated in favor of torch.linalg.qr and will be removed in a future PyTorch "
                     "release.\nThe boolean parameter 'some' has been replaced with a string parameter 'mode'.\n"
                     "Q, R = torch.qr(A, some)\nshould be replaced with\nQ, R = torch.linalg.qr(A, 'reduced' if some "
                     "else 'complete') (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                     "BatchLinearAlgebra.cpp:2505.)")
    return _return_types.qr(qr(input, "reduced" if some else "complete"))


def _cholesky_legacy(input, upper=False):
    """torch.cholesky: the Cholesky factor (upper=True: U = Lᴴ), under its own node CholeskyBackward0."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("cholesky", _cholesky_legacy, **locals())
    _forward_ad.refuse_before_kernel(_D.cholesky, input)   # (before the kernel's warning and checks)
    _warn_once("cholesky", "torch.cholesky is deprecated in favor of torch.linalg.cholesky and will be removed in a "
                           "future PyTorch release.\nL = torch.cholesky(A)\nshould be replaced with\nL = "
                           "torch.linalg.cholesky(A)\nand\nU = torch.cholesky(A, upper=True)\nshould be replaced "
                           "with\nU = torch.linalg.cholesky(A).mH\nThis transform will produce equivalent results for "
                           "all valid (symmetric positive definite) inputs. (Triggered internally at "
                           "/__w/pytorch/pytorch/aten/src/ATen/native/BatchLinearAlgebra.cpp:1765.)")
    _check_square(input, "cholesky")
    if not (input.is_floating_point() or input.is_complex()) or input.dtype.name in ("float16", "bfloat16"):
        raise NotImplementedError(f"\"cholesky_cpu\" not implemented for '{_ops._legacy(input.dtype)}'")
    info = _D._cholesky_forward(input._data, upper)[1]
    if info.any():
        raise _cholesky_error("cholesky", info)
    return _D.cholesky(input, upper=bool(upper))


def _attach_methods() -> None:
    """Tensor methods for the determinant-like functions PyTorch also has at the top level."""
    _Tensor.slogdet = _slogdet_legacy
    _Tensor.logdet = _logdet
    _Tensor.pinverse = _pinverse
    _Tensor.svd = _svd_legacy
    _Tensor.qr = _qr_legacy
    _Tensor.cholesky = _cholesky_legacy


def _pinverse(input, rcond=1e-15):
    """torch.pinverse: linalg.pinv with rtol = rcond."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("pinverse", _pinverse, **locals())
    return pinv(input, rtol=rcond)


_attach_methods()


# =============================================================================================
# Second wave: matrix_exp, eig, cond, vecdot, vander, tensorinv/tensorsolve, LU, Householder,
# and the torch.* solvers built on them (cholesky_solve, cholesky_inverse, triangular_solve, lu ...)
# =============================================================================================

def matrix_exp(A):
    """exp(A) = Σ Aᵏ/k! of a (batch of) square matrices (LinalgMatrixExpBackward0)."""
    _check_square(A, "linalg.matrix_exp")
    _check_float(A, "linalg.matrix_exp")
    return _D.linalg_matrix_exp(A)


def _check_eig(A, fn: str) -> None:
    if not (A.is_floating_point() or A.is_complex()):  # (the complex result's dtype first, as PyTorch's)
        raise RuntimeError(f"Unknown Complex ScalarType for {_ops._legacy(A.dtype)}")
    _check_square(A, fn)
    _check_lapack_dtype(A, "linalg_eig_out_cpu")
    if fn == "linalg.eig" and not _np.isfinite(A._data).all():   # (eigvals without a gradient computes anyway)
        raise RuntimeError("torch.linalg.eig: input tensor should not contain infs or NaNs.")


def eig(A):
    """A = V diag(L) V⁻¹: complex eigenvalues and unit-norm eigenvectors of a square A (LinalgEigBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_eig", eig, **locals())
    _check_eig(A, "linalg.eig")
    return _return_types.linalg_eig(_D.linalg_eig(A))


def eigvals(A):
    """The (complex) eigenvalues of a square A."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_eigvals", eigvals, **locals())
    # (recording, PyTorch's eigvals runs eig, whose checks name it)
    _check_eig(A, "linalg.eig" if _recording(A) else "linalg.eigvals")
    if not _recording(A):  # (the eigenvectors are computed only for the derivative, as in PyTorch)
        return _dispatch.function_result_version("eigvals", (A,), _Tensor._make(_D._eig_forward(A._data,
                                                                                             vectors=False)[0]))
    return _D.linalg_eig(A)[0]


_COND_ORDS = (None, 2, -2, 1, -1, _math.inf, -_math.inf, "fro", "nuc")


def cond(A, p=None):
    """The condition number ‖A‖_p·‖A⁻¹‖_p (p None or ±2: the ratio of extreme singular values)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_cond", cond, **locals())
    if A.dim() < 2:
        if p in ("fro", "nuc"):  # (the matrix-norm orders: a message of their own)
            raise RuntimeError(f"linalg.cond(ord={p}): The input tensor A must have at least 2 dimensions.")
        raise RuntimeError("linalg.cond: The input tensor must have at least 2 dimensions.")
    if p not in _COND_ORDS or isinstance(p, bool):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    if A.numel() == 0:  # (NumPy has no condition number of empty matrices: 0, as PyTorch)
        real = A.real.dtype if A.is_complex() else A.dtype
        return _ops.zeros(tuple(A.shape[:-2]), dtype=real)
    if p in (None, 2, -2):
        S = svdvals(A)   # descending
        s_max, s_min = _ops.narrow(S, -1, 0, 1), _ops.narrow(S, -1, -1, 1)
        return (s_min / s_max if p == -2 else s_max / s_min).squeeze(-1)
    name = p if isinstance(p, str) else (int(p) if abs(p) == 1 else p)
    _check_square(A, f"linalg.cond(ord={name})", composite=True)
    if p == "nuc":  # ‖A‖_* ‖A⁻¹‖_* = Σσᵢ · Σ1/σᵢ from one svdvals (PyTorch's; a singular matrix gives inf or nan)
        S = svdvals(A)
        # (PyTorch's ``S.sum(-1) * S.reciprocal().sum(-1)``: C++ evaluates the right operand first, so the
        # reciprocal and its sum are made before S's sum: the order its engine runs the nodes in)
        inverse_sum = S.reciprocal().sum(-1)
        return S.sum(-1) * inverse_sum
    # A⁻¹ with inf for the singular matrices, then ‖A‖·‖A⁻¹‖ (0·inf counts as inf). The fill is in place, as
    # PyTorch's: it bumps the version of inv_ex's saved result, so a backward through it fails as PyTorch's does.
    inverse, info = inv_ex(A)
    inverse.masked_fill_(_Tensor._make(info._data[..., None, None] > 0), _math.inf)
    result = matrix_norm(A, p) * matrix_norm(inverse, p)
    return _ops_math.nan_to_num_(result, _math.inf, _math.inf, -_math.inf)


def vecdot(x, y, *, dim=-1):
    """Σ conj(x)·y along ``dim`` (broadcast)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_vecdot", vecdot, **locals())
    _check_float(x, "linalg.vecdot")
    if x.dtype is not y.dtype:
        raise RuntimeError(f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
                           f"{_ops._legacy(x.dtype)} and y of type {_ops._legacy(y.dtype)} instead")
    if x.dim() == 1 and y.dim() == 1:
        return _ops_matrices.vdot(x, y)
    return _ops.sum(_ops.mul(x.conj() if x.is_complex() else x, y), dim)


def diagonal(A, *, offset=0, dim1=-2, dim2=-1):
    """The ``offset``-th diagonal of the matrices in A's last two dims (a view)."""
    return _ops.diagonal(A, offset, dim1, dim2)


def vander(x, *, N=None):
    """The Vandermonde matrix [1, x, x², ..., x^(N-1)] of each vector x (the powers as cumulative products)."""
    if x.is_floating_point() and x.dtype.name not in ("float32", "float64") or x.dtype.name == "bool":
        raise RuntimeError(f"linalg.vander supports floating point, complex, and integer tensors, but got "
                           f"{_ops._legacy(x.dtype)}")
    x_ = x.unsqueeze(-1) if x.dim() == 0 else x
    n = x_.shape[-1] if N is None else N
    if n <= 1:
        raise RuntimeError("N must be greater than 1.")
    shape = tuple(x_.shape) + (n - 1,)
    powers = x_.unsqueeze(-1).expand(shape).cumprod(-1)
    ones = powers.new_ones(shape[:-1] + (1,))
    return _ops.cat([ones, powers], -1)


def tensorinv(A, ind=2):
    """The tensor X with tensordot(X, A, ind) = I: A reshaped to a square matrix and inverted."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_tensorinv", tensorinv, **locals())
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    head, tail = tuple(A.shape[:ind]), tuple(A.shape[ind:])
    rows, cols = _math.prod(tail), _math.prod(head)
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
                           f"prod(self.shape[:ind]), but got {rows} != {cols}")
    square = A.reshape(rows, rows)
    info = _singular_pivot(square) if square.is_floating_point() or square.is_complex() else None
    if info is not None and info.any():
        raise _LinAlgError(f"inv: The diagonal element {int(info)} is zero, the inversion could not be completed "
                           "because the input matrix is singular.")
    # (LAPACK's inverse is column-major in PyTorch: its reshape is a strided alias, not a view)
    return _D.reshape_alias(inv(square), size=tail + head)


def tensorsolve(A, B, dims=None):
    """The tensor X with tensordot(A, X, X.ndim) = B (A's ``dims`` moved to the end first)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_tensorsolve", tensorsolve, **locals())
    if dims is not None:
        dims = list(dims)
        A = _ops.movedim(A, dims, list(range(A.dim() - len(dims), A.dim())))
    shape = tuple(A.shape[B.dim():])
    rows, cols = _math.prod(shape), _math.prod(B.shape)
    if rows != cols:
        raise RuntimeError(f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
                           f"prod(self.shape[:other.ndim]), but got {rows} != {cols}")
    return solve(A.reshape(rows, rows), B.flatten()).reshape(shape)


# ---- LU ----------------------------------------------------------------------------------------

@_dispatch.kernel_checks
def _check_lu(A, fn: str, pivot: bool) -> None:
    if A.dim() < 2:
        raise RuntimeError(f"{fn}: Expected tensor with 2 or more dimensions. Got size: {list(A.shape)} instead")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    if not (A.is_floating_point() or A.is_complex()) or A.dtype.name in ("float16", "bfloat16"):
        raise NotImplementedError(f"\"lu_cpu\" not implemented for '{_ops._legacy(A.dtype)}'")


def _lu_error(fn: str, info) -> RuntimeError:
    # (a plain RuntimeError in PyTorch, not a LinAlgError)
    k = int(info.reshape(-1)[_np.flatnonzero(info)[0]])
    return RuntimeError(f"{fn}: {_batch_prefix(info, info.shape)}U[{k},{k}] is zero and using it on lu_solve would "
                        "result in a division by zero. If you still want to perform the factorization, consider "
                        "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)")


def lu_factor_ex(A, *, pivot=True, check_errors=False):
    """(LU, pivots, info): A = PLU packed as LAPACK's getrf (info: the first zero pivot, 1-based)."""
    _check_lu(A, "torch.lu_factor", pivot)
    LU, pivots, info = _D.linalg_lu_factor_ex(A, pivot=pivot)
    if check_errors and info._data.any():
        raise _lu_error("torch.linalg.lu_factor_ex", info._data)
    return _return_types.linalg_lu_factor_ex((LU, pivots, info))


def lu_factor(A, *, pivot=True):
    """(LU, pivots): A = PLU packed (errors for a singular A: use lu_factor_ex to get info instead)."""
    _check_lu(A, "torch.lu_factor", pivot)
    LU, pivots, info = _D.linalg_lu_factor_ex(A, pivot=pivot)
    if info._data.any():
        raise _lu_error("torch.linalg.lu_factor", info._data)
    return _return_types.linalg_lu_factor((LU, pivots))


def lu(A, *, pivot=True):
    """(P, L, U) with A = PLU: P a permutation, L unit lower triangular, U upper triangular (LinalgLuBackward0)."""
    _check_lu(A, "linalg.lu", pivot)
    L, U, P = _D.linalg_lu(A, pivot=pivot)
    return _return_types.linalg_lu((P, L, U))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """X with AX = B (left=False: XA = B; adjoint: Aᴴ), A = PLU given as lu_factor's (LU, pivots)."""
    fn = "linalg.lu_solve"
    if LU.dim() < 2:
        _dispatch.check_rebased_inputs(LU, B)   # (the kernel's checks, after VariableType collected the edges)
        raise RuntimeError(f"torch.{fn}: The input tensor A must have at least 2 dimensions.")
    if LU.shape[-1] != LU.shape[-2]:
        _dispatch.check_rebased_inputs(LU, B)
        raise RuntimeError(f"torch.{fn}: A must be batches of square matrices, but they are {LU.shape[-2]} by "
                           f"{LU.shape[-1]} matrices")
    if B.dim() < 2:
        raise RuntimeError(f"{fn}: The input tensor B must have at least 2 dimensions.")
    n = LU.shape[-1]
    rows, cols = B.shape[-2:]
    if (rows if left else cols) != n:
        raise RuntimeError(f"{fn}: Incompatible shapes of A and B for the equation {'AX = B' if left else 'XA = B'} "
                           f"({n}x{n} and {rows}x{cols})")
    if LU.dtype is not B.dtype:
        raise RuntimeError(f"{fn}: Expected LU and B to have the same dtype, but found LU of type "
                           f"{_ops._legacy(LU.dtype)} and B of type {_ops._legacy(B.dtype)} instead")
    if pivots.dtype.name != "int32":
        raise RuntimeError(f"{fn}: pivots should be a Tensor of scalar type torch.int32")
    out = _D.linalg_lu_solve(LU, pivots, B, left=left, adjoint=adjoint)
    if not left and out.numel():
        # (PyTorch's kernel solves Aᴴ Xᴴ = Bᴴ in place, then sets the conjugate bit of its result: Xᴴᴴ)
        from . import _conj
        out = _conj.with_conj_bit(out)
    return out


def _lu_unpack(LU_data, LU_pivots, unpack_data=True, unpack_pivots=True):
    """torch.lu_unpack: (P, L, U) from lu_factor's packed LU and pivots (LuUnpackBackward0)."""
    if LU_pivots.dtype.name != "int32":
        raise RuntimeError("torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 dtype.\n"
                           "Note: this function is intended to be used with the output produced by "
                           "torch.linalg.lu_factor")
    L, U, P = _D.lu_unpack(LU_data, LU_pivots, LU_data_sym_argsize_minus_2=LU_data.shape[-2],
                          LU_data_sym_argsize_minus_1=LU_data.shape[-1])
    empty = _Tensor._make(_np.empty((0,), LU_data._data.dtype))
    return _return_types.lu_unpack((P if unpack_pivots else empty, L if unpack_data else empty,
                                   U if unpack_data else empty))


def _lu_legacy(A, pivot=True, get_infos=False, out=None):
    """torch.lu (deprecated): (LU, pivots) or, with get_infos, (LU, pivots, info); never raises for a singular A."""
    _warn_once("lu", "torch.lu is deprecated in favor of torch.linalg.lu_factor / torch.linalg.lu_factor_ex and "
                     "will be removed in a future PyTorch release.\nLU, pivots = torch.lu(A, compute_pivots)\nshould "
                     "be replaced with\nLU, pivots = torch.linalg.lu_factor(A, compute_pivots)\nand\nLU, pivots, info "
                     "= torch.lu(A, compute_pivots, get_infos=True)\nshould be replaced with\nLU, pivots, info = "
                     "torch.linalg.lu_factor_ex(A, compute_pivots) (Triggered internally at /__w/pytorch/pytorch/aten/"
                     "src/ATen/native/BatchLinearAlgebra.cpp:2073.)")
    _check_lu(A, "torch.lu_factor", pivot)
    result = _return_types._lu_with_info(_D.linalg_lu_factor_ex(A, pivot=pivot))
    return result if get_infos else (result[0], result[1])


def _lu_method(self, pivot=True, get_infos=False):
    """Tensor.lu: torch.lu's factors as a plain tuple (PyTorch's method unpacks _lu_with_info's fields)."""
    return tuple(_lu_legacy(self, pivot=pivot, get_infos=True)) if get_infos else _lu_legacy(self, pivot=pivot)


_lu_method.__name__, _lu_method.__qualname__ = "lu", "Tensor.lu"   # (the name PyTorch's TypeErrors show)


def _lu_solve_legacy(b, LU_data, LU_pivots):
    """torch.lu_solve (deprecated): linalg.lu_solve with its arguments reversed."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("lu_solve", _lu_solve_legacy, **locals())
    _warn_once("lu_solve", "torch.lu_solve is deprecated in favor of torch.linalg.lu_solveand will be removed in a "
                           "future PyTorch release.\nNote that torch.linalg.lu_solve has its arguments reversed.\nX = "
                           "torch.lu_solve(B, LU, pivots)\nshould be replaced with\nX = torch.linalg.lu_solve(LU, "
                           "pivots, B) (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/native/"
                           "BatchLinearAlgebra.cpp:2230.)")
    return lu_solve(LU_data, LU_pivots, b)


# ---- Cholesky solves and triangular_solve --------------------------------------------------------

def _cholesky_solve(B, L, upper=False):
    """X with AX = B for A = LLᴴ (upper: A = UᴴU) given its Cholesky factor (CholeskySolveBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("cholesky_solve", _cholesky_solve, **locals())
    if B.dtype is not L.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_ops._legacy(B.dtype)} "
                           f"and A of type {_ops._legacy(L.dtype)} instead.")
    for name, t in (("b", B), ("A", L)):
        if t.dim() < 2:
            raise RuntimeError(f"{name} should have at least 2 dimensions, but has {t.dim()} dimensions instead")
    if L.shape[-1] != L.shape[-2] or B.shape[-2] != L.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for cholesky_solve: each A matrix is {L.shape[-2]} by "
                           f"{L.shape[-1]} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    _check_lapack_dtype(B, "cholesky_solve_cpu", ints=True)
    return _D.cholesky_solve(B, L, upper=bool(upper))


def _cholesky_inverse(L, upper=False):
    """A⁻¹ for A = LLᴴ (upper: A = UᴴU) given its Cholesky factor (CholeskyInverseBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("cholesky_inverse", _cholesky_inverse, **locals())
    _check_dims(L, "cholesky_inverse")
    if L.shape[-1] != L.shape[-2]:
        _dispatch.check_rebased_inputs(L)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError(f"cholesky_inverse: A must be batches of square matrices, but they are {L.shape[-2]} by "
                           f"{L.shape[-1]} matrices")
    _check_lapack_dtype(L, "cholesky_inverse_out_cpu", ints=True)
    return _D.cholesky_inverse(L, upper=bool(upper))


def _triangular_solve(b, A, upper=True, transpose=False, unitriangular=False):
    """(X, A): X with op(A)X = b for a triangular A (deprecated: linalg.solve_triangular)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("triangular_solve", _triangular_solve, **locals())
    # (VariableType refuses a stale multi-output view, then the meta function checks ranks, dtypes and sizes, all
    # before the kernel's warning)
    _dispatch.check_rebased_inputs(b, A)
    if b.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has {b.dim()} "
                           "dimensions instead")
    if A.dim() < 2:
        raise RuntimeError(f"torch.triangular_solve: Expected A to have at least 2 dimensions, but it has {A.dim()} "
                           "dimensions instead")
    if b.dtype is not A.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_ops._legacy(b.dtype)} and "
                           f"A of type {_ops._legacy(A.dtype)} instead.")
    if A.shape[-1] != A.shape[-2] or b.shape[-2] != A.shape[-1]:
        raise RuntimeError(f"Incompatible matrix sizes for triangular_solve: each A matrix is {A.shape[-2]} by "
                           f"{A.shape[-1]} but each b matrix is {b.shape[-2]} by {b.shape[-1]}")
    _warn_once("triangular_solve",
               "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangularand will be removed in "
               "a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
               "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced "
               "with\nX = torch.linalg.solve_triangular(A, B). (Triggered internally at /__w/pytorch/pytorch/aten/src/"
               "ATen/native/BatchLinearAlgebra.cpp:2273.)")
    _check_lapack_dtype(A, "triangular_solve_cpu", ints=True)
    return _return_types.triangular_solve(_D.triangular_solve(b, A, upper=bool(upper), transpose=bool(transpose),
                                                            unitriangular=bool(unitriangular)))


# ---- Householder reflectors: geqrf, householder_product (orgqr), ormqr ------------------------------

@_dispatch.kernel_checks
def _check_householder(A, tau, fn: str) -> None:
    if A.dim() < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if A.shape[-2] < A.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if A.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{fn}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if A.dtype is not tau.dtype:
        raise RuntimeError(f"{fn}: tau dtype {_ops._legacy(tau.dtype)} does not match input dtype "
                           f"{_ops._legacy(A.dtype)}")


def householder_product(A, tau):
    """The first n columns of H_1 ⋯ H_k, H_i = I - τ_i v_i v_iᴴ (v_i below A's diagonal, as geqrf leaves it)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("linalg_householder_product", householder_product, **locals())
    _check_householder(A, tau, "torch.linalg.householder_product")
    _check_lapack_dtype(A, "orgqr_cpu", ints=True)
    return _D.linalg_householder_product(A, tau)


def _geqrf(input):
    """(a, tau): LAPACK's QR factorization, R on and above the diagonal, Q's reflectors below it."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("geqrf", _geqrf, **locals())
    if input.dim() < 2:
        _dispatch.check_rebased_inputs(input)   # (the kernel's check, after VariableType collected the edge)
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _check_lapack_dtype(input, "geqrf_cpu", ints=True)
    if input.is_complex() and _grad_mode.is_grad_enabled() and input.requires_grad:
        # (PyTorch refuses to record a complex output of an op with no complex derivative, before running it)
        raise RuntimeError("geqrf does not support automatic differentiation for outputs with complex dtype.")
    return _return_types.geqrf(_D.NOT_IMPLEMENTED["geqrf"](input))


def _orgqr(input, tau):
    """torch.orgqr: linalg.householder_product."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("orgqr", _orgqr, **locals())
    return householder_product(input, tau)


def _ormqr(input, tau, other, left=True, transpose=False):
    """Q·other (left) or other·Q, Q (transpose: Qᴴ) given by geqrf's reflectors (OrmqrBackward0)."""
    if _AUTOCAST[0]:  # (autocast: see amp/autocast_mode.py)
        return _autocast("ormqr", _ormqr, **locals())
    _forward_ad.refuse_before_kernel(_D.ormqr, input, tau, other)   # (before the kernel's checks)
    fn = "torch.ormqr"
    if input.dim() < 2:
        raise RuntimeError(f"{fn}: input must have at least 2 dimensions.")
    if other.dim() < 2:
        raise RuntimeError(f"{fn}: other must have at least 2 dimensions.")
    if tau.dim() != input.dim() - 1:
        raise RuntimeError(f"{fn}: Expected tau to have one dimension less than input, but got tau.ndim equal to "
                           f"{tau.dim()} and input.ndim is equal to {input.dim()}")
    if other.dim() != input.dim():
        raise RuntimeError(f"{fn}: Expected other to have the same number of dimensions as input, but got "
                           f"other.ndim equal to {other.dim()} and input.ndim is equal to {input.dim()}")
    side = -2 if left else -1
    if other.shape[side] != input.shape[-2]:
        raise RuntimeError(f"{fn}: other.shape[{side}] must be equal to input.shape[-2]")
    if tau.shape[-1] != min(other.shape[side], input.shape[-1]):
        raise RuntimeError(f"{fn}: tau.shape[-1] must be equal to min(other.shape[{side}], input.shape[-1])")
    for name, t in (("tau", tau), ("other", other)):
        if t.dtype is not input.dtype:
            raise RuntimeError(f"{fn}: Expected input and {name} to have the same dtype, but input has dtype"
                               f"{_ops._legacy(input.dtype)} and {name} has dtype {_ops._legacy(t.dtype)}")
    _check_lapack_dtype(input, "ormqr_cpu", ints=True)
    return _D.ormqr(input, tau, other, left=bool(left), transpose=bool(transpose))


def _attach_second_wave() -> None:
    """Tensor methods (and minigrad.* functions, see __init__.py) of this section, as PyTorch has them."""
    for name, fn in (("matrix_exp", matrix_exp), ("cholesky_solve", _cholesky_solve),
                     ("cholesky_inverse", _cholesky_inverse), ("triangular_solve", _triangular_solve),
                     ("lu", _lu_method), ("lu_solve", _lu_solve_legacy), ("geqrf", _geqrf), ("orgqr", _orgqr),
                     ("ormqr", _ormqr)):
        setattr(_Tensor, name, fn)


_attach_second_wave()
matmul = _ops.matmul  # torch.linalg.matmul: an alias


# ---- LDLᴴ (Bunch-Kaufman pivoting): no derivatives, as in PyTorch ----------------------------------------

def ldl_factor_ex(A, *, hermitian=False, check_errors=False):
    """(LD, pivots, info): A = L D Lᵀ (Lᴴ if hermitian), D with 1x1 and 2x2 blocks (LAPACK's sytrf layout)."""
    fn = "torch.linalg.ldl_factor_ex"
    _check_square(A, fn)
    _check_float(A, fn)
    _check_lapack_dtype(A, "ldl_factor_kernel_cpu")
    LD, pivots, info = _D.NOT_IMPLEMENTED["linalg_ldl_factor_ex"](A, hermitian=bool(hermitian))
    LD = _dispatch.function_result_version("ldl result", (A,), LD)
    if check_errors and info._data.any():
        raise _ldl_error("torch.linalg.ldl_factor_ex", info._data)
    return _return_types.linalg_ldl_factor_ex((LD, pivots, info))


def _ldl_error(fn: str, info) -> RuntimeError:
    # (PyTorch's own message for a singular D: its error check does not know this code)
    code = int(info.reshape(-1)[_np.flatnonzero(info)[0]])
    return RuntimeError(f"false INTERNAL ASSERT FAILED at \"/__w/pytorch/pytorch/aten/src/ATen/native/"
                        f"BatchLinearAlgebra.cpp\":1642, please report a bug to PyTorch. {fn}: Unknown error code: "
                        f"{code}.")


def ldl_factor(A, *, hermitian=False):
    """(LD, pivots): ldl_factor_ex that raises for a singular D."""
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    if info._data.any():
        raise _ldl_error("torch.linalg.ldl_factor", info._data)
    return _return_types.linalg_ldl_factor((LD, pivots))


def ldl_solve(LD, pivots, B, *, hermitian=False):
    """X with AX = B for A given by ldl_factor's (LD, pivots)."""
    if B.dim() < 2:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(B.dim(), 1)}, "
                         f"{max(B.dim(), 1) - 1}], but got -2)")
    if B.dtype is not LD.dtype:
        raise RuntimeError(f"Expected b and A to have the same dtype, but found b of type {_ops._legacy(B.dtype)} "
                           f"and A of type {_ops._legacy(LD.dtype)} instead.")
    if LD.shape[-1] != B.shape[-2]:
        raise RuntimeError(f"Incompatible matrix sizes for torch.linalg.ldl_solve: each A matrix is {LD.shape[-2]} by "
                           f"{LD.shape[-1]} but each b matrix is {B.shape[-2]} by {B.shape[-1]}")
    return _dispatch.function_result_version("ldl result", (LD, pivots, B), _D.NOT_IMPLEMENTED["linalg_ldl_solve"](
        LD, pivots.to(_dtypes.int32), B, hermitian=bool(hermitian)))


# torch.logdet, torch.pinverse, torch.cholesky_solve, ... are top-level functions (and Tensor methods) only:
# they are written here, under private names so that dir(torch.linalg) lists what PyTorch's does, and are
# named as PyTorch's (torch.logdet.__name__ == "logdet").
for _fn in (_logdet, _pinverse, _cholesky_solve, _cholesky_inverse, _triangular_solve, _geqrf, _orgqr, _ormqr):
    _fn.__name__ = _fn.__qualname__ = _fn.__name__[1:]
del _fn

# PyTorch's notes shared by the linalg docstrings (torch.linalg.common_notes).
common_notes = {
    "experimental_warning": """This function is "experimental" and it may change in a future PyTorch release.""",
    "sync_note": "When inputs are on a CUDA device, this function synchronizes that device with the CPU.",
    "sync_note_ex": r"When the inputs are on a CUDA device, this function synchronizes only when :attr:`check_errors`\ `= True`.",  # noqa: E501
    "sync_note_has_ex": ("When inputs are on a CUDA device, this function synchronizes that device with the CPU. For a "
                         "version of this function that does not synchronize, see :func:`{}`."),
}


# PyTorch's names for the functions (``torch.linalg.X.__name__`` is "linalg_X": see _c_names.py)
from ._c_names import rename_namespace as _rename_namespace  # noqa: E402

_rename_namespace(globals(), "linalg")
