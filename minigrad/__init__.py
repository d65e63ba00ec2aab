"""minigrad: a teaching autograd engine on NumPy whose public API is PyTorch's autograd.

``import minigrad as torch`` runs PyTorch autograd tutorial code. Where things live:
    _tensor.py           Tensor (data + autograd state)
    derivatives.py       every derivative formula (one table)
    _ops.py              user-facing operations; more in _ops_math.py, _ops_sorting.py, _ops_matrices.py,
                         _ops_shapes.py; creation functions in _creation.py, indexing in _indexing.py
    _dispatch.py         how an op records its node
    autograd/engine.py   the backward walk
    autograd/graph.py    Node, AccumulateGrad, hooks
"""
from __future__ import annotations

import builtins as _builtins

__version__ = "0.1.0"

from . import _dtypes
from ._dtypes import (  # noqa: F401
    bfloat16, complex32, complex64, complex128, dtype, float16, float32, float64, int8, int16,
    int32, int64, promote_types, set_default_dtype, uint8, uint16, uint32, uint64,
)
from ._dtypes import bool_ as bool  # noqa: F401,A001
from ._printing import set_printoptions  # noqa: F401
# (get_printoptions / printoptions are not torch.xxx names: PyTorch keeps them in torch._tensor_str)
from . import _printing as _tensor_str  # noqa: F401
from ._tensor import Size, Tensor  # noqa: F401
from . import _ops  # noqa: F401  (attaches the Tensor methods)
from ._creation import (  # noqa: F401
    BFloat16Tensor, BoolTensor, ByteTensor, CharTensor, DoubleTensor, FloatTensor, HalfTensor, IntTensor, LongTensor,
    ShortTensor,
)
from ._creation import (  # noqa: F401
    Generator, arange, as_tensor, asarray, default_generator, empty, empty_like, eye, from_numpy, full,
    full_like, get_rng_state, initial_seed, linspace, logspace, manual_seed, multinomial, normal, ones, ones_like, rand,
    rand_like, randint, randint_like, randn, randn_like, randperm, seed, set_rng_state, tensor, zeros, zeros_like,
)
from ._windows import bartlett_window, blackman_window, hamming_window, hann_window, kaiser_window  # noqa: F401
from ._device import device, get_default_device, set_default_device  # noqa: F401
from ._layout import (channels_last, channels_last_3d, contiguous_format, layout, legacy_contiguous_format,  # noqa: F401
                      memory_format, preserve_format, sparse_bsc, sparse_bsr, sparse_coo, sparse_csc, sparse_csr,
                      strided)
from . import _indexing  # noqa: F401
from . import autograd  # noqa: F401
from . import storage  # noqa: F401  (torch.storage)
from .storage import TypedStorage, UntypedStorage  # noqa: E402,F401
from .autograd.anomaly_mode import (  # noqa: F401
    is_anomaly_check_nan_enabled, is_anomaly_enabled, set_anomaly_enabled,
)
from .autograd.grad_mode import (  # noqa: F401
    enable_grad, inference_mode, is_grad_enabled, is_inference_mode_enabled, no_grad, set_grad_enabled,
)
from . import nn  # noqa: F401
from . import optim  # noqa: F401

# dtype aliases, as in torch (torch.float is float32, torch.long is int64, ...)
half = float16
double = float64
cfloat = complex64
cdouble = complex128
chalf = complex32
short = int16
long = int64
# torch.float / torch.int are dtypes at module level (the Tensor methods of those names convert)
globals()["float"] = float32
globals()["int"] = int32

# Functions that are both torch.xxx(tensor, ...) and tensor.xxx(...).
for _name in _ops.METHODS:
    if _name not in ("to", "contiguous", "view", "view_as", "reshape_as", "expand", "expand_as") \
            and not _name.endswith("_") or _name in ("zero_",):
        globals()[_name] = getattr(_ops, _name)
del _name
# Functions whose Tensor method has another signature (x.where(cond, y)) or is a property (x.real).
from ._ops import imag, real, view_as_complex, view_as_real, where  # noqa: E402,F401
from ._ops import cat, concat, concatenate, einsum, stack  # noqa: E402,F401  (not Tensor methods)
from . import return_types  # noqa: E402,F401
# More ops, one module per kind; importing one attaches its Tensor methods.
from . import _ops_math, _ops_matrices, _ops_shapes, _ops_sorting  # noqa: E402
for _module in (_ops_math, _ops_sorting, _ops_matrices, _ops_shapes):
    for _name in _module.METHODS + _module.FUNCTIONS:
        globals()[_name] = getattr(_module, _name)
del _module, _name
from . import _ops_inplace_views  # noqa: E402,F401  (x.t_(), x.unsqueeze_(0), x.resize_(n) ...)
# index_fill / index_put / masked_scatter, and the in-place random samplers (x.bernoulli_(p) ...)
from . import _ops_fills, _random_fills  # noqa: E402,F401
from ._random_fills import bernoulli  # noqa: E402,F401
from . import random  # noqa: E402,F401  (torch.random.manual_seed, fork_rng ...)
for _name in _ops_fills.FUNCTIONS:
    globals()[_name] = getattr(_ops_fills, _name)
del _name
from ._ops_inplace_views import as_strided, as_strided_, resize_as_  # noqa: E402,F401
from ._ops_math import complex_ as complex  # noqa: E402,F401  (torch.complex)
from ._dtypes import finfo, iinfo  # noqa: E402,F401
from . import linalg  # noqa: E402,F401
from .linalg import _slogdet_legacy as slogdet  # noqa: E402,F401
from .linalg import _logdet as logdet, _pinverse as pinverse  # noqa: E402,F401
from .linalg import _cholesky_legacy as cholesky, _qr_legacy as qr, _svd_legacy as svd  # noqa: E402,F401
from .linalg import _lu_legacy as lu, _lu_solve_legacy as lu_solve, _lu_unpack as lu_unpack  # noqa: E402,F401
from .linalg import matrix_exp  # noqa: E402,F401
from .linalg import _cholesky_inverse as cholesky_inverse, _cholesky_solve as cholesky_solve  # noqa: E402,F401
from .linalg import _geqrf as geqrf, _orgqr as orgqr, _ormqr as ormqr  # noqa: E402,F401
from .linalg import _triangular_solve as triangular_solve  # noqa: E402,F401
from ._lowrank import pca_lowrank, svd_lowrank  # noqa: E402,F401  (randomized low-rank SVD / PCA)
from .serialization import load, save  # noqa: E402,F401
from . import special  # noqa: E402,F401
from . import sparse  # noqa: E402,F401  (torch.sparse: COO sparse tensors)
from .sparse import sparse_coo_tensor  # noqa: E402,F401
from . import fft  # noqa: E402,F401  (torch.fft: the Fourier transforms)
from . import accelerator, backends, cuda, distributions, utils  # noqa: E402,F401
from .utils.dlpack import from_dlpack  # noqa: E402,F401
from . import __future__  # noqa: E402,F401  (torch.__future__: flags for Module conversions)
from . import testing  # noqa: E402,F401  (torch.testing.assert_close, make_tensor)
# torch.compile and torch.compiler: pass-throughs (nothing is compiled); torch.version, torch.profiler
from ._compile import compile, get_float32_matmul_precision, set_float32_matmul_precision  # noqa: E402,F401,A004
from . import compiler, profiler, version  # noqa: E402,F401
# torch.autocast, torch.amp (mixed precision: policy lists, casts, GradScaler) and torch.cpu(.amp)
from . import amp, cpu  # noqa: E402,F401
from .amp.autocast_mode import (autocast, autocast_decrement_nesting, autocast_increment_nesting,  # noqa: E402,F401
                                clear_autocast_cache, get_autocast_dtype, is_autocast_cache_enabled,
                                is_autocast_enabled, set_autocast_cache_enabled, set_autocast_dtype,
                                set_autocast_enabled)
from .amp.autocast_mode import (get_autocast_cpu_dtype, get_autocast_gpu_dtype,  # noqa: E402,F401  (deprecated)
                                get_autocast_ipu_dtype, get_autocast_xla_dtype, is_autocast_cpu_enabled,
                                is_autocast_ipu_enabled, is_autocast_xla_enabled, set_autocast_cpu_dtype,
                                set_autocast_cpu_enabled, set_autocast_gpu_dtype, set_autocast_ipu_dtype,
                                set_autocast_ipu_enabled, set_autocast_xla_dtype, set_autocast_xla_enabled)
from .distributions._native import (_dirichlet_grad, _sample_dirichlet, _standard_gamma,  # noqa: E402,F401
                                  _standard_gamma_grad, binomial, poisson)  # (torch's native samplers)
from ._igamma import igamma, igammac  # noqa: E402,F401
# missing-methods pass: in-place forms (x.eq_(y), x.cumsum_(0), x.fill_diagonal_(v) ...), index_reduce
from ._ops_inplace_math import index_reduce, xlogy_  # noqa: E402,F401
from . import _ops_scatter_copy  # noqa: E402  (select_scatter ..., view_copy ...: copies where torch has views)
from . import _ops_extra  # noqa: E402  (isreal, conj_physical, diagflat, fill, unravel_index, histogram ...)
for _name in _ops_scatter_copy.FUNCTIONS + _ops_extra.FUNCTIONS:
    globals()[_name] = getattr(_ops_scatter_copy if _name in _ops_scatter_copy.FUNCTIONS else _ops_extra, _name)
del _name
from ._ops_shapes import get_device  # noqa: E402,F401
newaxis = None  # (x[:, torch.newaxis])
from . import func  # noqa: E402,F401  (torch.func: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap ...)
from .func import vmap  # noqa: E402,F401  (torch.vmap is torch.func.vmap)
from .nn.functional import conv1d, conv2d  # noqa: E402,F401  (torch.conv2d is F.conv2d)
from ._weight_norm import _weight_norm, _weight_norm_interface, norm_except_dim  # noqa: E402,F401
from . import _legacy  # noqa: E402  (torch.range, set_default_tensor_type, x.greater(y) ...)
for _name in _legacy.FUNCTIONS:
    globals()[_name] = getattr(_legacy, _name)
from .nn.functional import celu_, hardshrink, selu_, threshold_  # noqa: E402,F401
from .nn.functional import pixel_shuffle, pixel_unshuffle, rms_norm  # noqa: E402,F401
from .nn.functional import channel_shuffle, pdist  # noqa: E402,F401  (missing-nn pass 4)
from .nn.functional import adaptive_max_pool1d_with_indices as adaptive_max_pool1d  # noqa: E402,F401  (a pair)
from ._stft import istft, stft  # noqa: E402,F401  (missing-nn pass 5: x.stft(...) too)
Tensor.stft, Tensor.istft = stft, istft
from .nn.functional import _ctc_loss_impl as ctc_loss  # noqa: E402,F401  (torch.ctc_loss: reduction enum)
from .nn.functional import _embedding_bag as embedding_bag  # noqa: E402,F401  (torch.embedding_bag: 4 outputs)
from .nn.functional import _grid_sampler as grid_sampler  # noqa: E402,F401  (modes as integers)
from . import signal  # noqa: E402,F401  (torch.signal.windows)
# torch.* functions that are F.*'s own (same arguments): torch.pairwise_distance is F.pairwise_distance ...
from .nn.functional import adaptive_avg_pool1d, avg_pool1d, conv_transpose1d, conv_transpose2d  # noqa: E402,F401
from .nn.functional import cosine_similarity, pairwise_distance, prelu  # noqa: E402,F401


# torch.dropout, torch.embedding, torch.batch_norm, torch.kl_div ...: ATen's spellings of F (and the removed solvers)
from . import _aten_functional  # noqa: E402
for _name in _aten_functional.FUNCTIONS:
    globals()[_name] = getattr(_aten_functional, _name)
del _name


def layer_norm(input, normalized_shape, weight=None, bias=None, eps=1e-05, cudnn_enable=True):
    """``torch.layer_norm``: ``F.layer_norm`` (``cudnn_enable`` has no effect on the CPU)."""
    return nn.functional.layer_norm(input, normalized_shape, weight, bias, eps)


def group_norm(input, num_groups, weight=None, bias=None, eps=1e-05, cudnn_enabled=True):
    """``torch.group_norm``: ``F.group_norm`` (``cudnn_enabled`` has no effect on the CPU)."""
    return nn.functional.group_norm(input, num_groups, weight, bias, eps)


def native_group_norm(input, weight, bias, N, C, HxW, group, eps):
    """``torch.native_group_norm``: (output, mean, rstd), the mean and rstd of shape (N, group)."""
    from . import derivatives   # (imported here: the name is not a public attribute of minigrad)
    # (PyTorch's native_group_norm repeats group_norm's checks, with the C and group given, then its kernel's dtypes)
    if group <= 0:
        raise RuntimeError(f"Expected num groups to be greater than 0, got {group}")
    if C % group:
        raise RuntimeError(f"Expected number of channels in input to be divisible by num_groups, but got input of "
                           f"shape {list(input.shape)} and num_groups={group}")
    nn.functional._check_group_norm_params(input, weight, bias)
    try:
        nn.functional._check_mixed_type(input, weight, bias)
        read_error = None
    except RuntimeError as error:   # (a parameter of another dtype, not a mixed type: read after the kernel's checks)
        if not str(error).startswith("expected scalar type"):
            raise
        read_error = error
    if not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"GroupNormKernelImpl\" not implemented for '{_ops._legacy(input.dtype)}'")
    if input.numel() != N * C * HxW:   # (its kernel's check of the sizes given)
        raise RuntimeError("Expected X.numel() == N * C * HxW to be true, but got false.  (Could this error message "
                           "be improved?  If so, please report an enhancement request to PyTorch.)")
    if read_error is not None:
        raise read_error
    stand_in = derivatives.absent(input.dtype.np)
    return derivatives.native_group_norm(input, stand_in if weight is None else weight,
                                         stand_in if bias is None else bias, N=N, C=C, HxW=HxW, group=group, eps=eps)
Tensor.hardshrink = hardshrink
# torch.exp_(x), torch.relu_(x) ...: PyTorch's in-place functions, the Tensor methods
for _name in ("abs_", "acos_", "acosh_", "arccos_", "arccosh_", "arcsin_", "arcsinh_", "arctan_", "arctanh_", "asin_",
              "asinh_", "atan_", "atanh_", "ceil_", "clamp_", "clamp_max_", "clamp_min_", "clip_", "cos_", "cosh_",
              "deg2rad_", "detach_", "erf_", "erfc_", "exp2_", "exp_", "expm1_", "fill_", "fix_", "floor_", "frac_",
              "log10_", "log1p_", "log2_", "log_", "logit_", "nan_to_num_", "neg_", "negative_", "rad2deg_",
              "reciprocal_", "relu_", "round_", "rsqrt_", "sigmoid_", "sin_", "sinc_", "sinh_", "sqrt_", "square_",
              "tan_", "tanh_", "trunc_"):
    globals()[_name] = getattr(Tensor, _name)
del _name

_deterministic = [False, False]  # (mode, warn_only)


def use_deterministic_algorithms(mode: _builtins.bool, *, warn_only: _builtins.bool = False) -> None:
    """Record the flag (minigrad's algorithms are always deterministic)."""
    from ._arg_errors import must_be
    if not isinstance(mode, _builtins.bool):  # (PyTorch's binding takes bools only)
        raise must_be("_set_deterministic_algorithms", "mode", "bool", mode, 1)
    if not isinstance(warn_only, _builtins.bool):
        raise must_be("_set_deterministic_algorithms", "warn_only", "bool", warn_only)
    _deterministic[0], _deterministic[1] = mode, warn_only


def are_deterministic_algorithms_enabled() -> _builtins.bool:
    """The flag set by use_deterministic_algorithms."""
    return _deterministic[0]


def is_deterministic_algorithms_warn_only_enabled() -> _builtins.bool:
    """The ``warn_only`` flag given with use_deterministic_algorithms."""
    return _deterministic[1]


def get_deterministic_debug_mode() -> _builtins.int:
    """0 (default), 1 (warn) or 2 (error): use_deterministic_algorithms's flags as one number."""
    return 0 if not _deterministic[0] else 1 if _deterministic[1] else 2


def set_deterministic_debug_mode(debug_mode) -> None:
    """use_deterministic_algorithms from a mode: "default"/0, "warn"/1 or "error"/2."""
    if isinstance(debug_mode, str):
        modes = {"default": 0, "warn": 1, "error": 2}
        if debug_mode not in modes:
            raise RuntimeError("invalid value of debug_mode, expected one of `default`, `warn`, `error`, but got "
                               f"{debug_mode}")
        debug_mode = modes[debug_mode]
    elif not isinstance(debug_mode, _builtins.int):
        raise TypeError(f"debug_mode must be str or int, but got {type(debug_mode)}")
    if debug_mode not in (0, 1, 2):
        raise RuntimeError(f"invalid value of debug_mode, expected 0, 1, or 2, but got {debug_mode}")
    use_deterministic_algorithms(debug_mode != 0, warn_only=debug_mode == 1)


def init_num_threads() -> None:
    """Nothing to set up (minigrad runs in one thread)."""


# [intra-op, inter-op], from PyTorch's defaults (the physical cores); sums split their work as PyTorch's
# threads would (minigrad/_reduce.py)
from ._reduce import THREADS as _threads  # noqa: E402


def set_num_threads(n: _builtins.int) -> None:
    """Set the intra-op thread count: MKL's products run on n threads, sums add in the order PyTorch's n would."""
    _threads[0] = _builtins.int(n)


def get_num_threads(*args, **kwargs) -> _builtins.int:
    """The intra-op thread count set with set_num_threads."""
    if args or kwargs:   # (PyTorch's is a C function: CPython's words)
        from ._arg_errors import no_arguments
        raise no_arguments("torch.get_num_threads", args, kwargs)
    return _threads[0]


def get_default_dtype(*args, **kwargs) -> dtype:
    """The dtype of new floating tensors (``float32`` unless changed)."""
    if args or kwargs:   # (PyTorch's is a C function: CPython's words; minigrad's own calls use _dtypes')
        from ._arg_errors import no_arguments
        raise no_arguments("torch.get_default_dtype", args, kwargs)
    return _dtypes.get_default_dtype()


def set_num_interop_threads(n: _builtins.int) -> None:
    """Record the inter-op thread count."""
    _threads[1] = _builtins.int(n)


def get_num_interop_threads() -> _builtins.int:
    """The inter-op thread count."""
    return _threads[1]


def is_tensor(obj) -> _builtins.bool:
    """True if obj is a minigrad Tensor."""
    return isinstance(obj, Tensor)


def numel(input) -> _builtins.int:
    """Number of elements of a tensor."""
    return input.numel()


def is_floating_point(input) -> _builtins.bool:
    """True for float16/bfloat16/float32/float64 tensors."""
    return input.is_floating_point()


def is_complex(input) -> _builtins.bool:
    """True for complex tensors."""
    return input.is_complex()


def result_type(tensor1, tensor2) -> dtype:
    """The dtype an arithmetic op on the two operands (tensors or numbers) would give."""
    import numbers

    import numpy as np

    from . import _arg_errors
    if not _builtins.all(isinstance(a, (Tensor, numbers.Number, np.bool_)) for a in (tensor1, tensor2)):
        raise _arg_errors.no_overload("result_type", tensor1, tensor2)   # (result_type(None, True))
    return _dtypes.result_type(tensor1, tensor2)


def can_cast(from_, to) -> _builtins.bool:
    """PyTorch's casting rule: no complex to real, no float to integer, no non-bool to bool."""
    from . import _arg_errors
    for position, (name, value) in enumerate((("from_", from_), ("to", to)), 1):
        if not isinstance(value, dtype):
            raise _arg_errors.must_be("can_cast", name, "torch.dtype", value, position)
    # The categories are ordered bool < integer < floating < complex, and a cast may not go down one.
    return from_._kind <= to._kind


# torch.eq(a, b, out=o), x //= y: out= for the functions computing without one; the in-place operators
from . import _out_args  # noqa: E402
_out_args.attach()
_out_args.install(globals())
_out_args.install_special(special.__dict__)
_out_args.install_table(linalg.__dict__, _out_args.LINALG_OUT, "linalg_")  # torch.linalg.det(A, out=o) ...
_out_args.install_table(globals(), {"inverse": _out_args.LINALG_OUT["inv"]}, "")  # (torch.inverse is linalg.inv)
_out_args.install_table(fft.__dict__, _out_args.FFT_OUT, "fft_")
# x.gcd_(y), torch.gcd_(x, y) of a leaf requiring grad: PyTorch's leaf refusal before the kernel's shape or
# dtype errors
from . import _ops_inplace_math  # noqa: E402
_ops_inplace_math.install_leaf_first(Tensor, globals())
reshape = _ops.reshape_function  # (torch.reshape takes one shape argument; Tensor.reshape, sizes too)
permute = _ops.permute_function  # (and torch.permute one dims argument)
# torch.floor(1.5): PyTorch's TypeError for a number where a function takes a tensor first (see _arg_errors).
from . import _arg_errors  # noqa: E402
_arg_errors.install_tensor_first(globals())
# x.sum(keepdim=True): the method form of "invalid combination of arguments" (no self, no out=).
_arg_errors.install_method_forms(Tensor, globals())
# torch.randn(2, requires_grad=1): PyTorch's parser errors for the factories with several overloads.
_arg_errors.install_factories(globals())
_arg_errors.install_method_checks(Tensor)
# torch.linalg.solve_ex(A), torch.fft.fft(x, norm=1): the parser errors of PyTorch's C++-bound namespaces.
from . import _native_signatures  # noqa: E402
_arg_errors.install_parsed(linalg.__dict__, "linalg_", _native_signatures.LINALG)
_arg_errors.install_parsed(fft.__dict__, "fft_", _native_signatures.FFT)
_arg_errors.install_parsed(special.__dict__, "special_", _native_signatures.SPECIAL)
# x.sum(axis=0, keepdims=True): NumPy's keyword names, as PyTorch's C++-bound functions accept them.
from . import _numpy_names  # noqa: E402
_numpy_names.install(globals(), Tensor)
# x.grad_fn = ..., x.shape = ...: PyTorch's error for its read-only attributes (after every attribute is attached)
from ._tensor import make_read_only as _make_read_only  # noqa: E402
_make_read_only()
# x.detach(1): CPython's error for the methods PyTorch binds without arguments (after every method exists).
_arg_errors.install_no_argument_methods(Tensor)
_arg_errors.install_parsed_first(Tensor)   # (after every other wrapper: PyTorch's parser runs first)
# torch.add(s, t) with s a tensor-like or a Tensor subclass: __torch_function__ (minigrad/overrides.py); last, so
# that the wrappers wrap the finished functions.
from . import overrides  # noqa: E402
from . import _C  # noqa: E402,F401
overrides.install(globals())
overrides.install_functional(nn.functional.__dict__)
overrides.install_autograd(autograd.__dict__)
for _ns in (linalg, fft, special):
    overrides.install_namespace(_ns.__dict__, _ns.__name__.rpartition(".")[2])
from . import functional  # noqa: E402,F401  (torch.functional: the wrapped functions, so after install)
from ._c_names import name_like_pytorch as _name_like_pytorch  # noqa: E402
_name_like_pytorch(globals(), Tensor)   # (Tensor's aliases named as PyTorch names them: x.fix.__name__ is "fix")
# torch.linalg.foo: AttributeError "module 'torch.linalg' has no attribute 'foo'", as PyTorch's modules say it.
import sys as _sys  # noqa: E402
from ._class_names import install_module_getattr as _install_module_getattr  # noqa: E402
_install_module_getattr(_sys.modules)
