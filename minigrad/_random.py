"""PyTorch's CPU random numbers, bit for bit: its mt19937 generator and the samplers built on it.

``torch.manual_seed(0); torch.randn(3)`` prints the same numbers here as in PyTorch 2.13 on an x86 CPU.
The generator (``Generator``) is the Mersenne Twister of aten/src/ATen/core/MT19937RNGEngine.h, driven
through NumPy's C implementation of the same engine (``np.random.MT19937``, whose state we set from the
key PyTorch's seeding computes). The samplers follow PyTorch's kernels step for step: how many 32-bit
outputs each value consumes, in which order, and in which precision the arithmetic is done:

- aten/src/ATen/CPUGeneratorImpl.cpp: ``random()`` is one 32-bit output, ``random64()`` two (high word
  first); the state layout of ``get_state``; the cached second Box-Muller sample.
- aten/src/ATen/core/TransformationHelper.h and DistributionsHelper.h: uniform floats from 24 random bits
  (doubles from 53), integers by ``%``, Box-Muller normals, exponential/geometric/Cauchy by inversion.
- aten/src/ATen/native/cpu/DistributionTemplates.h: which sampler each op uses (``normal_`` of 16 or more
  contiguous values fills uniforms first and transforms them 16 at a time with AVX2 math).
- aten/src/ATen/native/TensorFactories.cpp (randperm), cpu/MultinomialKernel.cpp and Distributions.cpp
  (multinomial), Dropout.cpp (dropout's mask).

The C++ kernels are compiled with ``-ffp-contract=fast``: the compiler fuses ``a * b + c`` into one FMA
instruction, which rounds once. The FMAs below (``_fma32``, ``_fma64``) are those fusions; without them
about half of ``uniform_(a, b)``'s values differ in the last bit. Double-precision ``log``/``sin``/``cos``
come from the C library (Python's ``math`` module calls the same glibc functions PyTorch does); NumPy's own
vectorised versions differ from glibc in the last bit now and then.

Each sampler returns the values in the order PyTorch draws them: for a tensor that order is its memory
order (``fill_order`` turns it into the tensor's shape).

Where the match depends on the machine: ``normal_`` of 16 or more float32 (or half) values uses PyTorch's
AVX2 kernel, which x86-64 builds run on AVX2 and AVX-512 CPUs; on a CPU without AVX2 (or with
``ATEN_CPU_CAPABILITY=default``, or on ARM) PyTorch computes those with the C library's logf/cosf/sinf
instead, and about 1% of the values differ from minigrad's in the last bit (about 2e-6). Everything else
here is plain IEEE arithmetic and glibc's double functions, the same on any x86-64 Linux machine.
"""
from __future__ import annotations

import math
import os
import struct

import ml_dtypes
import numpy as np

from . import _device, _vmap_batched
from ._class_names import CTypeNamed
from ._fused import fma as _fma
from ._fused import fma64 as _fma64

_DEFAULT_SEED = 67280421310721  # at::default_rng_seed_val (minigrad starts from it: runs are reproducible)
_N = 624                        # MERSENNE_STATE_N
_U64 = (1 << 64) - 1


def _fma32(a, b, c) -> np.ndarray:
    """fmaf(a, b, c): a * b + c for float32 values, rounded once to float32."""
    return _fma(a, b, c, np.float32)


def _init_genrand(seed: int) -> np.ndarray:
    """The 624-word state of ``at::mt19937(seed)`` (init_with_uint32: only the low 32 bits of the seed count)."""
    key = [seed & 0xFFFFFFFF]
    for j in range(1, _N):
        prev = key[-1]
        key.append((1812433253 * (prev ^ (prev >> 30)) + j) & 0xFFFFFFFF)
    return np.array(key, dtype=np.uint32)


def _as_seed(seed, where: str) -> int:
    """A seed as PyTorch's Generator.manual_seed takes it: an int in [-2**63, 2**64), negatives wrapped."""
    if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool):
        raise RuntimeError(f"{where} expected a long, but got {type(seed).__name__}")
    seed = int(seed)
    if not -(1 << 63) <= seed <= _U64:
        raise ValueError("Overflow when unpacking long long")
    return seed & _U64


class Generator(metaclass=CTypeNamed):   # (a C type: messages name it 'torch._C.Generator')
    """A source of random numbers: PyTorch's CPU generator (mt19937), seeded with ``manual_seed``."""

    _torch_name = "torch._C.Generator"

    def __init__(self, device="cpu") -> None:
        self._device = _device.generator_device(device)
        self._engine = np.random.MT19937(0)  # (its state is replaced by the seeding below)
        self._reseed(_DEFAULT_SEED)

    @property
    def device(self):
        """Generator.device -> device

        Gets the current device of the generator (read-only).

        Example::

            >>> g_cpu = torch.Generator()
            >>> g_cpu.device
            device(type='cpu')
        """
        return self._device

    @device.setter
    def device(self, value):
        raise AttributeError("attribute 'device' of 'torch._C.Generator' objects is not writable")

    def __repr__(self) -> str:
        return f"<torch._C.Generator object at {hex(id(self))}>"

    # ---- seeding and state ------------------------------------------------------------------------

    def _reseed(self, seed: int) -> None:
        """CPUGeneratorImpl::set_current_seed: a new engine and no cached normal sample."""
        self._seed = seed
        # NumPy's ``pos`` counts the words of the current block already used; PyTorch's engine starts
        # with left_ = 1, i.e. "the block is used up": 624, so the first draw regenerates the block.
        try:  # NumPy's legacy seeding (RandomState's) is init_genrand in C, pos = 624 included: fast
            self._engine._legacy_seeding(seed & 0xFFFFFFFF)
        except AttributeError:
            self._engine.state = {"bit_generator": "MT19937", "state": {"key": _init_genrand(seed), "pos": _N}}
        self._untouched_next = 0  # PyTorch's next_ until the first draw (get_state reports it)
        self._drawn = False
        self._next_double_normal: float | None = None  # Box-Muller's second value, kept for the next call
        self._next_float_normal: float | None = None   # (no CPU kernel sets it; kept for the state layout)

    def manual_seed(self, seed: int) -> Generator:
        """Restart the generator from ``seed``."""
        self._reseed(_as_seed(seed, "manual_seed"))
        return self

    def initial_seed(self) -> int:
        """The seed the generator was last started from."""
        return self._seed

    def seed(self) -> int:
        """Restart from a non-deterministic seed (from the OS, as PyTorch) and return it."""
        new = int.from_bytes(os.urandom(8), "little")
        self._reseed(new)
        return new

    def get_state(self):
        """The generator's state as a uint8 tensor: PyTorch's 5056-byte CPUGeneratorImplState."""
        from ._tensor import Tensor
        state = self._engine.state["state"]
        pos = int(state["pos"])
        return Tensor._make(np.frombuffer(_pack_state(
            self._seed, _N + 1 - pos, pos if self._drawn else self._untouched_next,
            state["key"], self._next_double_normal, self._next_float_normal), dtype=np.uint8).copy())

    def set_state(self, new_state) -> Generator:
        """Restore a state returned by ``get_state`` (PyTorch's states work too)."""
        from ._tensor import Tensor
        if not isinstance(new_state, Tensor):
            raise TypeError(f"expected a torch.ByteTensor, but got {type(new_state).__name__}")
        if new_state._data.dtype != np.uint8:
            raise TypeError("RNG state must be a torch.ByteTensor")
        raw = np.ascontiguousarray(new_state._data).tobytes()
        if len(raw) != _STATE.size:
            raise RuntimeError(f"Expected a CPUGeneratorImplState of size {_STATE.size} but found the input RNG "
                               f"state size to be {len(raw)}")
        seed, left, seeded, nxt, key, double_normal, float_normal = _unpack_state(raw)
        if not (seeded and 0 < left <= _N and nxt <= _N):
            raise RuntimeError("Invalid mt19937 state")
        self._seed = seed
        self._engine.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": _N + 1 - left}}
        self._untouched_next, self._drawn = nxt, False
        self._next_double_normal, self._next_float_normal = double_normal, float_normal
        return self

    def clone_state(self) -> Generator:
        """A new generator in this one's state (its seed and position, its cached normal sample)."""
        other = Generator(self.device)
        other.set_state(self.get_state())
        other._untouched_next, other._drawn = self._untouched_next, self._drawn
        return other

    def graphsafe_get_state(self):
        """Only CUDA generators have graph-safe states (PyTorch's CPU generator refuses too)."""
        raise NotImplementedError("graphsafe_get_state is not supported in this Generator")

    def graphsafe_set_state(self, state) -> Generator:
        """Only CUDA generators have graph-safe states (PyTorch's CPU generator refuses too)."""
        if not isinstance(state, Generator):
            raise TypeError(f"expected a Generator, but got {type(state).__name__}")
        raise NotImplementedError("graphsafe_set_state is not supported in this Generator")

    def get_offset(self) -> int:
        """Philox offsets are for CUDA generators: PyTorch's CPU generator refuses."""
        raise RuntimeError("CPU Generator does not use offset")

    def set_offset(self, offset: int) -> Generator:
        """Philox offsets are for CUDA generators: PyTorch's CPU generator refuses."""
        raise RuntimeError("CPU Generator does not use offset")

    # ---- raw draws --------------------------------------------------------------------------------

    def _random(self, n: int) -> np.ndarray:
        """``n`` calls of CPUGeneratorImpl::random(): 32-bit outputs (as uint64)."""
        if n:
            self._drawn = True
            if _vmap_batched.DEPTH[0]:   # (this thread's vmap: its randomness flag is checked after each slice)
                _vmap_batched.DRAWS[0] += 1
        return self._engine.random_raw(n)

    def _random64(self, n: int) -> np.ndarray:
        """``n`` calls of random64(): two outputs each, the first one the high word."""
        r = self._random(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def _uniform_float(self, n: int) -> np.ndarray:
        """uniform_real_distribution<float>(0, 1): the low 24 bits of random(), times 2**-24."""
        return (self._random(n) & np.uint64(0xFFFFFF)).astype(np.float32) * np.float32(2.0 ** -24)

    def _uniform_double(self, n: int) -> np.ndarray:
        """uniform_real_distribution<double>(0, 1): the low 53 bits of random64(), times 2**-53."""
        return (self._random64(n) & np.uint64((1 << 53) - 1)).astype(np.float64) * 2.0 ** -53


# PyTorch's CPUGeneratorImplState: the legacy THGenerator fields (the 624 words stored as uint64),
# then the float normal cache. '<' with explicit pad bytes reproduces the C struct's layout.
_STATE = struct.Struct("<QiiQ624Qdddi4xf?3x")


def _pack_state(seed, left, nxt, key, double_normal, float_normal) -> bytes:
    return _STATE.pack(seed, left, 1, nxt, *(int(k) for k in key),
                       0.0, 0.0 if double_normal is None else double_normal, 0.0, double_normal is not None,
                       0.0 if float_normal is None else float_normal, float_normal is not None)


def _unpack_state(raw: bytes) -> tuple:
    fields = _STATE.unpack(raw)
    seed, left, seeded, nxt = fields[:4]
    key = np.array(fields[4:4 + _N], dtype=np.uint64).astype(np.uint32)  # (the words were uint32 all along)
    _x, normal_y, _rho, normal_valid, float_normal, float_valid = fields[4 + _N:]
    return (seed, left, seeded, nxt, key, normal_y if normal_valid else None,
            float_normal if float_valid else None)


default_generator = Generator()


def gen(generator: Generator | None) -> Generator:
    """The generator to draw from: ``generator=`` if given, else the global one (inside a vmap with randomness="same",
    after its first example, this thread's replay of it: func/_vmap._Randomness)."""
    if generator is None:
        return default_generator if not _vmap_batched.DEPTH[0] or _vmap_batched.REPLAY[0] is None else \
            _vmap_batched.REPLAY[0]
    if _vmap_batched.DEPTH[0]:   # (inside vmap: its randomness flag covers every generator)
        _vmap_batched.explicit_generator(generator)
    return generator


def check_generator(generator, name: str) -> None:
    """PyTorch's binding check of ``generator=`` (a torch.Generator or None) for ``name``, before anything runs."""
    if generator is not None and not isinstance(generator, Generator):
        from ._arg_errors import must_be
        raise must_be(name, "generator", "torch.Generator", generator)


def manual_seed(seed) -> Generator:
    """Seed the global random generator (any value ``int()`` takes, as ``torch.manual_seed``)."""
    if _vmap_batched.DEPTH[0] and (_vmap_batched.REPLAY[0] is not None or _vmap_batched.LATER_SLICE[0]):
        # PyTorch calls a vmapped function once, so it seeds once: here in the first example. The others draw on
        # from there (randomness="different") or replay the first example's draws, from this seed on ("same")
        if _vmap_batched.REPLAY[0] is not None:
            _vmap_batched.REPLAY[0].manual_seed(int(seed))
        if _vmap_batched.LATER_SLICE[0]:
            return default_generator
    default_generator.manual_seed(int(seed))
    if _vmap_batched.DEPTH[0] and _vmap_batched.RANDOMNESS[-1] == "error" and \
            _vmap_batched.DRAWS[0] == _vmap_batched.SLICE_DRAWS[0]:
        _vmap_batched.REFUSED_AT[0] = default_generator.get_state()   # (a draw refused after it leaves it seeded)
    return default_generator


def seed() -> int:
    """Reseed the global generator non-deterministically; return the seed."""
    return default_generator.seed()


def initial_seed() -> int:
    """The seed the global generator was last started from."""
    return default_generator.initial_seed()


def get_rng_state():
    """The global generator's state as a uint8 tensor."""
    return default_generator.get_state()


def set_rng_state(new_state) -> None:
    """Restore the global generator's state from ``get_rng_state()``."""
    default_generator.set_state(new_state)


# =============================================================================================
# Memory order and dtype conversions
# =============================================================================================

def fill_order(values: np.ndarray, like: np.ndarray) -> np.ndarray:
    """Values drawn in ``like``'s memory order (PyTorch's TensorIterator order), arranged in its shape.

    A contiguous tensor is filled in its logical order. A view (``x.t().uniform_()``) is filled in the order
    its elements sit in memory: TensorIterator walks the dimensions from the largest stride to the smallest.
    """
    shape = like.shape
    if like.flags["C_CONTIGUOUS"] or like.ndim < 2:
        return values.reshape(shape)
    order = sorted(range(like.ndim), key=lambda d: -abs(like.strides[d]))  # (stable: ties keep their order)
    return values.reshape([shape[d] for d in order]).transpose(np.argsort(order))


def memory_order(values: np.ndarray, like: np.ndarray) -> np.ndarray:
    """The inverse of ``fill_order``: ``values`` (``like``'s shape) flattened in ``like``'s memory order."""
    if like.flags["C_CONTIGUOUS"] or like.ndim < 2:
        return values.ravel()
    order = sorted(range(like.ndim), key=lambda d: -abs(like.strides[d]))
    return values.transpose(order).ravel()


_VIA_FLOAT = (np.dtype(np.float16), np.dtype(ml_dtypes.bfloat16))


def to_dtype(values: np.ndarray, np_dtype) -> np.ndarray:
    """``static_cast<scalar_t>(value)``: half and bfloat16 are made from a float, so doubles pass through it."""
    if np_dtype in _VIA_FLOAT and values.dtype != np.float32:
        values = values.astype(np.float32)
    return values.astype(np_dtype, copy=False)


def _glibc(fn, x: np.ndarray) -> np.ndarray:
    """A double-precision C library function applied elementwise (``math`` calls glibc, as PyTorch does)."""
    return np.fromiter(map(fn, x.tolist()), dtype=np.float64, count=x.size)


# =============================================================================================
# Continuous distributions
# =============================================================================================

def uniform(g: Generator, n: int, np_dtype, a: float, b: float) -> np.ndarray:
    """uniform_kernel: U(a, b) in the dtype's math type; a value rounding up to ``b`` becomes ``a``."""
    np_dtype = np.dtype(np_dtype)
    if np_dtype == np.float64:
        v = g._uniform_double(n)
        if (a, b) != (0.0, 1.0):  # (x·1 + 0 is x)
            v = _fma64(v, b - a, a)  # transformation::uniform_real: x * (to - from) + from, fused
    else:  # float, half and bfloat16 all draw 24-bit floats (their opmath type is float)
        v = g._uniform_float(n)
        if (a, b) != (0.0, 1.0):
            fa, fb = np.float32(a), np.float32(b)
            v = _fma32(v, fb - fa, fa)
    if np_dtype == v.dtype and b == 1.0 and a == 0.0:
        return v  # (x < 1 always: nothing rounds up to ``to``)
    v = v.astype(np_dtype)
    to, frm = np.array(b).astype(np_dtype), np.array(a).astype(np_dtype)
    return np.where(v == to, frm, v)


def normal(g: Generator, n: int, np_dtype, mean: float, std: float, contiguous: bool = True) -> np.ndarray:
    """normal_kernel: 16 or more contiguous values use normal_fill, fewer (or a view) Box-Muller one by one."""
    np_dtype = np.dtype(np_dtype)
    if n >= 16 and contiguous:
        return _normal_fill(g, n, np_dtype, mean, std)
    return to_dtype(_normal_double(g, n, mean, std), np_dtype)


def _normal_double(g: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """n draws of normal_distribution<double>(mean, std): each Box-Muller pair gives a value and caches the other.

    Per pair u1, u2 (53-bit uniforms): r = √(-2·log1p(-u2)), θ = 2π·u1; the value is r·cos θ and r·sin θ
    waits in the generator for the next call (of any op using this sampler), until ``manual_seed``.
    """
    out = []
    if n and g._next_double_normal is not None:
        out.append(g._next_double_normal)
        g._next_double_normal = None
    needed = n - len(out)
    u = g._uniform_double(2 * ((needed + 1) // 2)).tolist()  # two uniforms per pair
    for u1, u2 in zip(u[0::2], u[1::2]):
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = 2.0 * math.pi * u1
        out += (r * math.cos(theta), r * math.sin(theta))
    if len(out) > n:  # the last pair's sine was not used: it is the cached sample
        g._next_double_normal = out.pop()
    values = np.array(out, dtype=np.float64)
    if std == 1.0:  # (val·1 + mean rounds once either way)
        return values + mean
    return _fma64(values, std, mean)  # transformation::normal: val * std + mean, fused


def _normal_fill(g: Generator, n: int, np_dtype, mean: float, std: float) -> np.ndarray:
    """normal_fill: uniforms first, then Box-Muller 16 at a time; a last partial block redraws the final 16.

    float32 fills the whole tensor with uniforms, transforms each full block, then draws 16 new uniforms for
    the last 16 places. float16/bfloat16 draw block by block into a float buffer (so they draw fewer values).
    """
    blocks = n // 16
    if np_dtype == np.float64:
        data = g._uniform_double(n)
        out = data.copy()
        out[:blocks * 16] = _normal_fill_16_double(data[:blocks * 16], mean, std)
        if n % 16:
            out[n - 16:] = _normal_fill_16_double(g._uniform_double(16), mean, std)
        return out
    if np_dtype == np.float32:
        data = g._uniform_float(n)
        out = data.copy()
        out[:blocks * 16] = _normal_fill_16_float(data[:blocks * 16], mean, std)
        if n % 16:
            out[n - 16:] = _normal_fill_16_float(g._uniform_float(16), mean, std)
        return out
    out = np.empty(n, dtype=np.float32)
    out[:blocks * 16] = _normal_fill_16_float(g._uniform_float(blocks * 16), mean, std)
    if n % 16:
        out[n - 16:] = _normal_fill_16_float(g._uniform_float(16), mean, std)
    return out.astype(np_dtype)


def _normal_fill_16_double(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<double>: in each block of 16, u[j] and u[j + 8] become the pair (r·cos θ, r·sin θ)."""
    blocks = u.reshape(-1, 2, 8)
    u1, u2 = 1.0 - blocks[:, 0], blocks[:, 1]  # 1 - u: (0, 1] for the log
    radius = np.sqrt(-2.0 * _glibc(math.log, u1.ravel()).reshape(u1.shape))
    theta = (2.0 * math.pi) * u2
    out = np.empty_like(blocks)
    out[:, 0] = _fma64(radius * _glibc(math.cos, theta.ravel()).reshape(theta.shape), std, mean)
    out[:, 1] = _fma64(radius * _glibc(math.sin, theta.ravel()).reshape(theta.shape), std, mean)
    return out.ravel()


def _normal_fill_16_float(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """NormalFill16<float> for AVX2 (PyTorch's x86 builds use it on AVX2 and AVX-512 CPUs alike).

    The log and sincos are avx_mathfun.h's Cephes polynomials in float32 (``_log256``, ``_sincos256``).
    """
    blocks = u.reshape(-1, 2, 8)
    u1 = np.float32(1.0) - blocks[:, 0]
    u2 = blocks[:, 1]
    radius = np.sqrt(np.float32(-2.0) * _log256(u1))
    theta = np.float32(2.0 * math.pi) * u2  # two_pi_ = _mm256_set1_ps(2.0f * pi<double>)
    sin, cos = _sincos256(theta)
    out = np.empty_like(blocks)
    out[:, 0] = _fma32(radius * cos, np.float32(std), np.float32(mean))  # _mm256_fmadd_ps(n1, std, mean)
    out[:, 1] = _fma32(radius * sin, np.float32(std), np.float32(mean))
    return out.ravel()


# ---- avx_mathfun.h in float32 (aten/src/ATen/native/cpu/avx_mathfun.h) ------------------------------
# Each _mm256_mul_ps/_mm256_add_ps pair that GCC fuses into an FMA is written as _fma32 (the first
# multiply feeding an add is the one fused, e.g. y·z + e·q1 -> fma(y, z, round(e·q1))).

_F = np.float32
_LOG_P = tuple(_F(c) for c in (7.0376836292E-2, -1.1514610310E-1, 1.1676998740E-1, -1.2420140846E-1,
                               1.4249322787E-1, -1.6668057665E-1, 2.0000714765E-1, -2.4999993993E-1,
                               3.3333331174E-1))
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_MIN_NORM_POS = np.array(0x00800000, dtype=np.int32).view(np.float32)


def _log256(x: np.ndarray) -> np.ndarray:
    """log256_ps: split x = m·2^e with m in [√½, √2), then a degree-9 polynomial in m - 1."""
    invalid = x <= 0
    x = np.maximum(x, _MIN_NORM_POS)
    bits = x.view(np.int32)
    e = ((bits >> 23) - 0x7F).astype(np.float32) + _F(1)
    x = ((bits & ~0x7F800000) | np.array(0.5, dtype=np.float32).view(np.int32)).view(np.float32)  # m/2
    small = x < _F(0.707106781186547524)
    e = e - np.where(small, _F(1), _F(0))
    x = (x - _F(1)) + np.where(small, x, _F(0))  # m - 1 (doubled first when m/2 < √½)
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = _fma32(y, x, p)
    y = _fma32(y * x, z, e * _LOG_Q1)
    y = _fma32(z, _F(-0.5), y)
    x = _fma32(e, _LOG_Q2, x + y)
    return np.where(invalid, _F(np.nan), x)


_DP1, _DP2, _DP3 = _F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8)
_COS_P = (_F(2.443315711809948E-005), _F(-1.388731625493765E-003), _F(4.166664568298827E-002))
_SIN_P = (_F(-1.9515295891E-4), _F(8.3321608736E-3), _F(-1.6666654611E-1))


def _sincos256(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sincos256_ps: reduce |x| by multiples of π/4 (Cody-Waite, three parts), then Cephes' two polynomials."""
    sign_sin = np.signbit(x)
    x = np.abs(x)
    j = (x * _F(1.27323954473516)).astype(np.int32)  # 4/π, truncated (_mm256_cvttps_epi32)
    j = (j + 1) & ~1
    y = j.astype(np.float32)
    sign_sin = sign_sin ^ ((j & 4) != 0)
    sign_cos = (~(j - 2) & 4) != 0
    use_sin_poly = (j & 2) == 0
    x = _fma32(y, _DP1, x)
    x = _fma32(y, _DP2, x)
    x = _fma32(y, _DP3, x)
    z = x * x
    c = _fma32(np.full_like(z, _COS_P[0]), z, _COS_P[1])
    c = _fma32(c, z, _COS_P[2])
    c = _fma32(c * z, z, -(z * _F(0.5))) + _F(1)  # cos ≈ 1 - z/2 + z²·P(z)
    s = _fma32(np.full_like(z, _SIN_P[0]), z, _SIN_P[1])
    s = _fma32(s, z, _SIN_P[2])
    s = _fma32(s * z, x, x)                        # sin ≈ x + x·z·Q(z)
    sin = np.where(use_sin_poly, s, c)
    cos = np.where(use_sin_poly, c, s)
    return np.where(sign_sin, -sin, sin), np.where(sign_cos, -cos, cos)


def exponential(g: Generator, n: int, lambd: float) -> np.ndarray:
    """exponential_distribution<double>: -1/λ · log1p(-u) (doubles; the caller casts)."""
    return (-1.0 / lambd) * _glibc(math.log1p, -g._uniform_double(n))


def log_normal(g: Generator, n: int, mean: float, std: float) -> np.ndarray:
    """lognormal_distribution<double>: exp of normal_distribution<double> (which shares the cached sample)."""
    return _glibc(math.exp, _normal_double(g, n, mean, std))


def cauchy(g: Generator, n: int, median: float, sigma: float) -> np.ndarray:
    """cauchy_distribution<double>: median + σ·tan(π(u - ½)) (fused)."""
    u = g._uniform_double(n)
    return _fma64(sigma, _glibc(math.tan, math.pi * (u - 0.5)), median)


def geometric(g: Generator, n: int, p: float) -> np.ndarray:
    """geometric_distribution<double>: ⌈log(u) / log1p(-p)⌉ (the number of trials to the first success)."""
    return np.ceil(_glibc(math.log, g._uniform_double(n)) / math.log1p(-p))


# =============================================================================================
# Discrete distributions
# =============================================================================================

def bernoulli_scalar(g: Generator, n: int, p: float) -> np.ndarray:
    """bernoulli_distribution<double>(p): u < p for a 53-bit uniform u, one per value (bool)."""
    return g._uniform_double(n) < p


def bernoulli_tensor(g: Generator, probs: np.ndarray) -> np.ndarray:
    """bernoulli_(p_tensor): a double p draws a 53-bit uniform, any other float p a 24-bit one (bool)."""
    if probs.dtype == np.float64:
        return g._uniform_double(probs.size) < probs
    return g._uniform_float(probs.size) < probs.astype(np.float32)


def random_from_to(g: Generator, n: int, range_: int, base: int) -> np.ndarray:
    """uniform_int_from_to_distribution: (r % range) + base as int64, r from random64() once range >= 2**28."""
    r = g._random64(n) if range_ >= 1 << 28 else g._random(n)
    with np.errstate(over="ignore"):  # unsigned arithmetic wraps, as in C++
        return ((r % np.uint64(range_)) + np.uint64(base & _U64)).view(np.int64)


def random_full_range(g: Generator, n: int) -> np.ndarray:
    """uniform_int_full_range_distribution: random64() reinterpreted as int64."""
    return g._random64(n).view(np.int64)


# transformation::uniform_int's modulus for random_() with no bounds: the dtype's max + 1 for integers,
# 2**digits + 1 for floating types (every integer up to 2**digits is exact there)
_RANDOM_MODULUS = {"bool": 2, "uint8": 256, "int8": 128, "int16": 1 << 15, "int32": 1 << 31, "int64": 1 << 63,
                   "float16": (1 << 11) + 1, "bfloat16": (1 << 8) + 1, "float32": (1 << 24) + 1,
                   "float64": (1 << 53) + 1}


def random_default(g: Generator, n: int, np_dtype) -> np.ndarray:
    """uniform_int_distribution: random64() for int64 and double, random() otherwise; then ``%`` (int64)."""
    name = np.dtype(np_dtype).name
    r = g._random64(n) if name in ("int64", "float64") else g._random(n)
    if name == "bool":
        return (r & np.uint64(1)).view(np.int64)  # (val & 1, the same as % 2)
    return (r % np.uint64(_RANDOM_MODULUS[name])).view(np.int64)


def randperm(g: Generator, n: int) -> np.ndarray:
    """randperm_cpu: swap position i with a random later one, z = random() % (n - i) (int64)."""
    perm = np.arange(n, dtype=np.int64)
    if n < 0xFFFFFFFF // 20:
        offsets = (g._random(max(n - 1, 0)) % np.arange(n, 1, -1, dtype=np.uint64)).tolist()
        out = perm.tolist()
        for i, z in enumerate(offsets):
            out[i], out[i + z] = out[i + z], out[i]
        return np.array(out, dtype=np.int64)
    # (n past 2**32 / 20: the "inside-out" shuffle with random64(), to avoid the modulo's skew)
    out = perm.tolist()
    for i, r in enumerate(g._random64(n).tolist()):
        z = r % (i + 1)
        out[i], out[z] = out[z], i
    return np.array(out, dtype=np.int64)


def multinomial_with_replacement(g: Generator, rows: np.ndarray, n_sample: int) -> np.ndarray:
    """multinomial_with_replacement_apply: per row, a normalised running sum and a binary search per draw.

    The running sum is accumulated in the input's dtype (float for half/bfloat16), divided by the total,
    its last entry set to 1; a 53-bit uniform u picks the first category whose cumulative value is >= u.
    """
    acc = np.float64 if rows.dtype == np.float64 else np.float32
    out = np.empty((rows.shape[0], n_sample), dtype=np.int64)
    for i, row in enumerate(rows.astype(acc)):
        # the kernel's checks, entry by entry, once the rows before have drawn their samples
        bad = ~(row >= 0) | ~np.isfinite(row)
        if bad.any():
            if not row[np.argmax(bad)] >= 0:  # (NaN fails this test first)
                raise RuntimeError("invalid multinomial distribution (encountering probability entry < 0)")
            raise RuntimeError("invalid multinomial distribution (encountering probability entry = infinity or NaN)")
        cum = np.cumsum(row, dtype=acc)  # (sequential, as the C++ loop)
        if not cum[-1] > 0:
            raise RuntimeError("invalid multinomial distribution (sum of probabilities <= 0)")
        cum = cum / cum[-1]
        cum[-1] = 1
        out[i] = np.searchsorted(cum.astype(np.float64), g._uniform_double(n_sample), side="left")
    return out


def dropout_noise(g: Generator, shape: tuple, p: float, np_dtype) -> np.ndarray:
    """Dropout.cpp's ``noise = empty(shape).bernoulli_(1 - p); noise.div_(1 - p)``: 0 or 1/(1-p) per element.

    The division happens in the dtype's math type: 1.0f / float(1 - p) for float and the half types.
    """
    keep = bernoulli_scalar(g, int(np.prod(shape, dtype=np.int64)), 1 - p).reshape(shape)
    np_dtype = np.dtype(np_dtype)
    scale = 1.0 / (1 - p) if np_dtype == np.float64 else np.float32(1) / np.float32(1 - p)
    return np.where(keep, np.array(scale).astype(np_dtype), np.zeros((), dtype=np_dtype))
