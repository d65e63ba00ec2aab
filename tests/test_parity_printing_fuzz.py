"""Tensor printing against PyTorch: a seeded fuzzer over dtypes, shapes, values, autograd state and print options.

Each fuzz case builds the same tensor in PyTorch and in minigrad (minigrad's copy is made from PyTorch's exact
values, so only the printing is compared) and asserts ``repr`` is byte for byte the same, under random
``set_printoptions`` (precision, threshold, edgeitems, linewidth, sci_mode, profile) and default dtypes. The
explicit tests below pin the bugs this fuzzer's hunt fixed; the programs run whole print-heavy snippets through
``parity.same_as_torch``.
"""
from __future__ import annotations

import math
import random
import warnings

import numpy as np
import pytest
from parity import same_as_torch, torch_or_skip

import minigrad as mg

DTYPES = ["float16", "bfloat16", "float32", "float64", "complex64", "complex128",
          "int8", "uint8", "int16", "int32", "int64", "bool"]
INT_LIMITS = {"int8": (-128, 127), "uint8": (0, 255), "int16": (-2**15, 2**15 - 1),
              "int32": (-2**31, 2**31 - 1), "int64": (-2**63, 2**63 - 1)}
FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.38e38, "float32": 3.4e38, "float64": 1.7e308,
             "complex64": 3.4e38, "complex128": 1.7e308}


@pytest.fixture(autouse=True)
def _reset_options():
    """Every test starts and ends with the default print options and default dtype in both libraries."""
    yield
    mg.set_printoptions(profile="default")
    mg.set_default_dtype(mg.float32)
    try:
        import torch
    except ImportError:
        return
    torch.set_printoptions(profile="default")
    torch.set_default_dtype(torch.float32)


# ---- the fuzzer ---------------------------------------------------------------------------------------------

def _shape(rng: random.Random) -> tuple:
    r = rng.random()
    if r < 0.1:
        return ()
    if r < 0.18:
        return rng.choice([(0,), (2, 0, 3), (0, 4), (1, 0), (3, 0, 0, 2)])
    if r < 0.28:
        return (rng.randint(5, 1500),)  # long enough to be summarised under a small threshold
    if r < 0.34:
        return (rng.randint(1, 40), rng.randint(20, 40))
    if r < 0.37:
        return (rng.randint(8, 11),) * 3
    return tuple(rng.randint(1, 6) for _ in range(rng.randint(1, 4)))


def _floats(rng: random.Random, n: int, dt: str) -> np.ndarray:
    """n float64 values of one of several kinds that stress the notation and width rules."""
    g = np.random.default_rng(rng.randint(0, 2**31))
    kind = rng.randint(0, 11)
    if kind == 0:  # whole numbers (int_mode: "2.")
        return g.integers(-1000, 1000, n).astype(float)
    if kind == 1:  # one magnitude
        return g.standard_normal(n) * 10.0 ** rng.randint(-12, 12)
    if kind == 2:  # mixed magnitudes (sci_mode by ratio)
        return g.standard_normal(n) * 10.0 ** g.integers(-8, 10, n)
    if kind == 3:  # around the sci_mode boundaries 1e8, 1e-4 and a ratio of 1000
        base = rng.choice([1e8, 1e-4, 1000.0, 1.0, 99999999.0, 100000000.5, 9.9999e-5, 1.00001e-4, 0.1])
        v = base * (1 + g.choice([-1, 0, 1], n) * g.choice([1e-16, 1e-7, 1e-3, 0], n))
        if n:
            v[0] = rng.choice([1.0, 1e5, 1e-1, base])
        return v
    if kind == 4:  # halfway cases of rounding at precision 4
        return np.round(g.uniform(-10, 10, n), 4) + g.choice([5e-5, -5e-5, 4.9999e-5, 0], n)
    if kind == 5:  # ordinary values mixed with zeros, -0, nan, inf
        v = g.standard_normal(n) * 10.0 ** rng.randint(-3, 5)
        return np.where(g.random(n) < 0.4, g.choice([0.0, -0.0, np.nan, np.inf, -np.inf, 1.0], n), v)
    if kind == 6:  # only zeros and non-finite values
        return g.choice([0.0, -0.0, np.nan, np.inf, -np.inf], n)
    if kind == 7:  # the dtype's largest, subnormals, values that flush to zero
        m = FLOAT_MAX[dt]
        return g.choice([m, -m, m / 3, 1e-30, 5e-324, 1e-7, 6e-8, 1e-45, 1.0], n)
    if kind == 8:
        return g.integers(-3, 3, n) * 0.5
    if kind == 9:
        return g.uniform(0, 1, n)
    if kind == 10:  # large whole numbers, as floats
        return g.integers(-10**12, 10**12, n).astype(float) * rng.choice([1, 1e4, 1e-3])
    return np.full(n, rng.choice([0.5, 1e8, 123456789.0, 1e-4, 0.00012345, 2**24 + 1.0, 1e16]))


def _pair(torch, rng: random.Random, dt: str, shape: tuple):
    """The same tensor in PyTorch and in minigrad."""
    n = math.prod(shape)
    g = np.random.default_rng(rng.randint(0, 2**31))
    if dt == "bool":
        t = torch.tensor((g.random(n) < 0.5).reshape(shape))
    elif dt in INT_LIMITS:
        lo, hi = INT_LIMITS[dt]
        arr = rng.choice([
            lambda: g.integers(lo, hi, n, endpoint=True, dtype=np.int64),
            lambda: g.integers(max(lo, -20), min(hi, 20), n, endpoint=True, dtype=np.int64),
            lambda: g.choice([lo, hi, 0, 1], n).astype(np.int64),
        ])()
        t = torch.tensor(arr.reshape(shape)).to(getattr(torch, dt))
    elif dt.startswith("complex"):
        re_ = _floats(rng, n, dt)
        im = _floats(rng, n, dt) if rng.random() < 0.7 else re_[::-1].copy()
        with np.errstate(all="ignore"):
            t = torch.tensor((re_ + 1j * im).reshape(shape)).to(getattr(torch, dt))
    else:
        t = torch.tensor(_floats(rng, n, dt).reshape(shape)).to(getattr(torch, dt))
    # minigrad's copy from PyTorch's exact (already rounded) values: only the printing is under test
    m = mg.tensor(t.float().numpy()).to(mg.bfloat16) if dt == "bfloat16" else mg.tensor(t.numpy())
    assert m.dtype is getattr(mg, dt)
    return t, m


def _transform(torch, rng: random.Random, t, m):
    """Views (non-contiguous), requires_grad, a grad_fn, or a Parameter, applied alike to both."""
    if t.dim() >= 2 and rng.random() < 0.15:
        t, m = t.transpose(0, 1), m.transpose(0, 1)
    elif t.dim() >= 1 and t.shape[0] > 2 and rng.random() < 0.12:
        t, m = t[::2], m[::2]
    if not (t.dtype.is_floating_point or t.dtype.is_complex):
        return t, m
    r = rng.random()
    if r < 0.15:
        return t.detach().requires_grad_(), m.detach().requires_grad_()
    if r < 0.3:
        t, m = t.detach().requires_grad_(), m.detach().requires_grad_()
        op = rng.choice(["add", "mul", "view", "clone", "t", "select"])
        if op == "add":
            return t + 0, m + 0
        if op == "mul":
            return t * 1, m * 1
        if op == "view":
            return t.view(t.shape), m.view(m.shape)
        if op == "clone":
            return t.clone(), m.clone()
        if op == "t" and t.dim() >= 2:
            return t.transpose(0, 1), m.transpose(0, 1)
        if op == "select" and t.dim() >= 1 and t.shape[0] > 0:
            return t[0], m[0]
        return t, m
    if r < 0.38:
        requires_grad = rng.random() < 0.7
        return (torch.nn.Parameter(t.detach().clone(), requires_grad=requires_grad),
                mg.nn.Parameter(m.detach().clone(), requires_grad=requires_grad))
    return t, m


def _options(rng: random.Random) -> dict:
    if rng.random() < 0.45:
        return {}
    opts = {}
    if rng.random() < 0.3:
        opts["profile"] = rng.choice(["default", "short", "full"])
    if rng.random() < 0.5:
        opts["precision"] = rng.randint(0, 10)
    if rng.random() < 0.4:
        opts["threshold"] = rng.choice([0, 1, 5, 10, 50, 1000, math.inf, 7.5])
    if rng.random() < 0.4:
        opts["edgeitems"] = rng.randint(0, 5)
    if rng.random() < 0.4:
        opts["linewidth"] = rng.randint(10, 200)
    if rng.random() < 0.5:
        opts["sci_mode"] = rng.choice([None, True, False])
    return opts


def _format_both(t, m, spec: str) -> tuple[str, str]:
    out = []
    for x in (t, m):
        try:
            out.append(format(x, spec))
        except Exception as e:  # noqa: BLE001 - the error itself is compared
            out.append(f"{type(e).__name__}: {e}")
    return out[0], out[1]


@pytest.mark.parametrize("seed", range(6))
def test_fuzz_repr_matches_pytorch(seed: int) -> None:
    torch = torch_or_skip()
    rng = random.Random(seed)
    failures = []
    for case in range(500):
        dt, shape, opts = rng.choice(DTYPES), _shape(rng), _options(rng)
        default = rng.choice(["float32"] * 6 + ["float64", "float16", "bfloat16"])
        for lib in (torch, mg):
            lib.set_printoptions(profile="default")
            lib.set_printoptions(**opts)
            lib.set_default_dtype(getattr(lib, default))
        t, m = _pair(torch, rng, dt, shape)
        t, m = _transform(torch, rng, t, m)
        theirs, ours = repr(t), repr(m)
        if ours == theirs and rng.random() < 0.2:  # print() goes through str(), a Parameter's too
            theirs, ours = str(t), str(m)
        if ours == theirs and t.dim() == 0:  # f-strings of 0-d tensors (and errors for a Parameter)
            theirs, ours = _format_both(t, m, rng.choice(["", ".3f", ".2e", "g", ">12", "+.1f"]))
        if ours != theirs:
            failures.append(f"case {case}: {dt} {shape} options={opts} default={default}\n"
                            f"torch:\n{theirs}\nminigrad:\n{ours}")
    assert not failures, f"{len(failures)} differences; first:\n" + failures[0]


# ---- the bugs the fuzzer's hunt fixed -------------------------------------------------------------------------

class _MyTensor(mg.Tensor):
    pass


def test_subclass_repr_names_the_class() -> None:
    # fixed: a Tensor subclass printed as tensor(...); PyTorch uses the class name as the prefix (and indent)
    t = mg.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).as_subclass(_MyTensor)
    assert repr(t) == ("_MyTensor([[1., 2.],\n"
                       "           [3., 4.]], grad_fn=<AliasBackward0>)")
    assert str(mg.zeros(0, 2, dtype=mg.int32).as_subclass(_MyTensor)) == "_MyTensor([], size=(0, 2), dtype=torch.int32)"
    assert repr(_MyTensor([1.5])) == "_MyTensor([1.5000])"


def test_parameter_subclass_repr() -> None:
    # fixed: PyTorch wraps a Parameter subclass's repr in Parameter(...) (indent kept from the inner prefix)
    class MyParam(mg.nn.Parameter):
        pass

    assert repr(MyParam(mg.zeros(2, 3))) == ("Parameter containing:\n"
                                             "Parameter(MyParam([[0., 0., 0.],\n"
                                             "         [0., 0., 0.]], requires_grad=True))")
    assert repr(MyParam(mg.tensor(1.5), requires_grad=False)) == "Parameter containing:\nParameter(MyParam(1.5000))"
    # a plain Parameter keeps the plain prefix
    assert repr(mg.nn.Parameter(mg.ones(2))) == "Parameter containing:\ntensor([1., 1.], requires_grad=True)"


def test_as_subclass() -> None:
    # fixed: Tensor.as_subclass was missing; like PyTorch it is an alias that stays in the graph
    x = mg.tensor([1.0, 2.0], requires_grad=True)
    m = x.as_subclass(_MyTensor)
    assert type(m) is _MyTensor and m._base is x and m.data_ptr() == x.data_ptr()
    assert type(m.grad_fn).__name__ == "AliasBackward0"
    m.sum().backward()
    assert x.grad.tolist() == [1.0, 1.0]
    with pytest.raises(TypeError, match="^Creating a Tensor subclass from a class that does not inherit from Tensor"):
        x.as_subclass(int)


def test_repr_tensor_contents() -> None:
    # fixed: Tensor.__repr__(tensor_contents=...) ignored the contents; they replace the values, suffixes stay
    assert mg.tensor([1, 2]).__repr__(tensor_contents="xyz") == "tensor(xyz)"
    assert (mg.tensor([[1.0, 2.0]], requires_grad=True).__repr__(tensor_contents="[[...]]")
            == "tensor([[...]], requires_grad=True)")
    assert mg.tensor([], dtype=mg.int32).__repr__(tensor_contents="Q") == "tensor(Q, dtype=torch.int32)"


def test_print_option_helpers_live_in_tensor_str() -> None:
    # fixed: minigrad exported get_printoptions / printoptions at top level; PyTorch has them only in
    # torch._tensor_str (torch.get_printoptions is an AttributeError)
    torch = torch_or_skip()
    for name in ("set_printoptions", "get_printoptions", "printoptions", "_tensor_str"):
        assert hasattr(mg, name) == hasattr(torch, name), name
    with mg._tensor_str.printoptions(precision=1, sci_mode=True):
        assert repr(mg.tensor([1.25, 3.0])) == "tensor([1.2e+00, 3.0e+00])"
    assert mg._tensor_str.get_printoptions() == torch._tensor_str.get_printoptions()


def test_return_types_n_unnamed_fields() -> None:
    # fixed: structseq's n_unnamed_fields was missing from torch.return_types
    x = mg.tensor([[3.0, 1.0], [0.0, 5.0]])
    assert mg.max(x, 0).n_unnamed_fields == 0
    assert mg.linalg.qr(x).n_unnamed_fields == 0


@pytest.mark.parametrize("arr, expected", [
    # column widths come from the extremes of each sign (the fast path for more than 16 values); in these the
    # widest element is the most negative one, one that rounds up, or the smallest (a 3-digit exponent)
    (np.r_[np.full(8, 0.5), -9.99996, np.full(9, 0.5)],
     "tensor([  0.5000,   0.5000,   0.5000,   0.5000,   0.5000,   0.5000,   0.5000,\n"
     "          0.5000, -10.0000,   0.5000,   0.5000,   0.5000,   0.5000,   0.5000,\n"
     "          0.5000,   0.5000,   0.5000,   0.5000], dtype=torch.float64)"),
    (np.r_[np.full(8, 0.5), 9.99996, np.full(9, -0.5)],
     "tensor([ 0.5000,  0.5000,  0.5000,  0.5000,  0.5000,  0.5000,  0.5000,  0.5000,\n"
     "        10.0000, -0.5000, -0.5000, -0.5000, -0.5000, -0.5000, -0.5000, -0.5000,\n"
     "        -0.5000, -0.5000], dtype=torch.float64)"),
    (np.r_[np.full(8, 1.0), 1e-100, np.full(8, 2.0), 1e99],
     "tensor([ 1.0000e+00,  1.0000e+00,  1.0000e+00,  1.0000e+00,  1.0000e+00,\n"
     "         1.0000e+00,  1.0000e+00,  1.0000e+00, 1.0000e-100,  2.0000e+00,\n"
     "         2.0000e+00,  2.0000e+00,  2.0000e+00,  2.0000e+00,  2.0000e+00,\n"
     "         2.0000e+00,  2.0000e+00,  1.0000e+99], dtype=torch.float64)"),
    (np.r_[np.full(8, 3), -12, np.full(9, 7)],
     "tensor([  3,   3,   3,   3,   3,   3,   3,   3, -12,   7,   7,   7,   7,   7,\n"
     "          7,   7,   7,   7])"),
    (np.r_[np.full(8, True), False, np.full(9, True)],
     "tensor([ True,  True,  True,  True,  True,  True,  True,  True, False,  True,\n"
     "         True,  True,  True,  True,  True,  True,  True,  True])"),
])
def test_widest_element_sets_the_column_width(arr, expected) -> None:
    assert repr(mg.tensor(arr)) == expected
    torch = pytest.importorskip("torch", reason="PyTorch not installed: parity half of the test skipped")
    assert repr(torch.tensor(arr)) == expected


# ---- whole programs (parity.same_as_torch: same stdout, object addresses masked) -------------------------------

PROGRAMS: dict[str, str] = {}

PROGRAMS["autograd_state_and_format"] = r"""
x = torch.tensor([[1.5, 2.0], [3.0, -4.25]], requires_grad=True)
y = x + 1
print(y); print(repr(y)); print(str(y))
print(torch.nn.Parameter(torch.ones(2)))
print(repr(torch.nn.Parameter(torch.ones(2), requires_grad=False)))
z = torch.tensor(3.14159)
print(f"{z}", f"{z:.3f}", format(z), format(z, '.2e'))
E(lambda: format(x, '.3f'))
print(format(x))
print(z.item(), x.tolist(), x.shape, x.size(), x.dtype, x.size(0))
r = torch.max(x, 0); print(r); print(repr(r)); print(r.values, r[1])
print(torch.sort(x)); print(torch.topk(x, 1)); print(torch.min(x, dim=1, keepdim=True))
print([x, {'a': y}], (z,))
y.sum().backward(); print(x.grad)
print(torch.tensor([1., 2.], device='cpu'), torch.tensor([1., 2.], device=torch.device('cpu')))
a = torch.arange(12.).reshape(3, 4)
print(a.t(), a[:, 1], a[::2], a.T.contiguous())
print(torch.tensor(1e8), torch.tensor([1e8, 1.0]), torch.tensor([1e-4, 1.0]), torch.tensor([0.9999e-4, 1.0]))
print(torch.tensor([-0.0]), torch.tensor(-0.0), torch.tensor([float('nan'), -float('inf')]))
print(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor([True]), torch.tensor([], dtype=torch.bool))
print(torch.zeros(2, 0, 3), torch.zeros(0, dtype=torch.int32), torch.zeros(()))
print(torch.tensor([1+2j, 3-4j]), torch.tensor([1+2j], dtype=torch.complex128), torch.tensor(-0.0-0.0j))
print(torch.tensor([1., 2.]).half(), torch.tensor([1.123456, 2.]).bfloat16())
print(repr(torch.Size([2, 3])), torch.Size([]), x.stride(), x.numel(), x.dim())
print(torch.tensor(2.5).item(), torch.tensor(2).item(), torch.tensor(True).item(), torch.tensor(1+1j).item())
print(torch.tensor(1.1, dtype=torch.float16).item(), torch.tensor(0.1).item(), torch.tensor([0.1, 1/3]).tolist())
print(torch.tensor([1.1], dtype=torch.bfloat16).tolist(), torch.tensor([1+2j], dtype=torch.complex64).tolist())
"""

PROGRAMS["finfo_iinfo_return_types"] = r"""
for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64):
    f = torch.finfo(d)
    print(f, repr(f), f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.bits, f.dtype)
print(torch.finfo())
for d in (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64):
    i = torch.iinfo(d)
    print(i, i.bits, i.max, i.min, i.dtype)
E(lambda: torch.finfo(torch.complex64))
E(lambda: torch.iinfo(torch.float32))
E(lambda: torch.finfo(torch.int32))
x = torch.tensor([[3., 1., 2.], [0., 5., 4.]], requires_grad=True)
for r in (torch.max(x, 0), torch.min(x, 1), x.sort(descending=True), torch.median(x, 1), torch.mode(x, 1),
          torch.kthvalue(x, 1, 1), torch.cummax(x, 1), torch.cummin(x, 0), torch.aminmax(x),
          x.max(dim=1, keepdim=True), torch.std_mean(x, 1), torch.linalg.slogdet(torch.eye(2)),
          torch.frexp(torch.tensor([1.5])), torch.nanmedian(x, 0), torch.linalg.eigh(torch.eye(2))):
    print(r)
r = torch.max(x, 1)
# fixed: n_unnamed_fields
print(r.n_fields, r.n_sequence_fields, r.n_unnamed_fields, type(r).__module__, type(r).__qualname__)
print(r[::-1], r[:1], r + (1,), tuple(r), type(r), [r], {"k": torch.sort(x[0])})
"""

PROGRAMS["parameters_and_format_specs"] = r"""
p = torch.nn.Parameter(torch.tensor([1.5, 2.0]))
print(p); print(str(p)); print([p]); print(p * 2); print(p.data); print(p.detach()); print(p[0])
print(torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(torch.nn.Parameter(torch.zeros(0)), torch.nn.Parameter())
lin = torch.nn.Linear(3, 2)
with torch.no_grad():
    lin.weight.fill_(0.5)
    lin.bias.zero_()
print(lin.weight); print(list(lin.parameters())); print(dict(lin.named_parameters())); print(lin.state_dict())
print(f"{torch.tensor(2.5):.3f}|{torch.tensor(2):5d}|{torch.tensor(True)}|{torch.tensor(1+2j):.1f}")
print(f"{torch.tensor([1., 2.])}")
for spec in ("", ".3f", "d", "x", ">8", ".2%"):
    for t in (torch.tensor(3.0), torch.tensor(3), torch.tensor(True), torch.tensor([1.0]),
              torch.tensor(2.5, requires_grad=True), torch.nn.Parameter(torch.tensor(1.0))):
        E(lambda: print(repr(format(t, spec))))
"""

PROGRAMS["subclass_prefix_and_tensor_contents"] = r"""
# fixed: subclass prefix, Parameter(...) wrapper, tensor_contents, as_subclass
class M(torch.Tensor):
    pass
x = torch.tensor([1., 2.], requires_grad=True)
E(lambda: x.as_subclass(int))
m = x.as_subclass(M)
print(m, type(m).__name__, m._base is x, m.is_leaf, m.requires_grad)
m.sum().backward(); print(x.grad)
y = torch.ones(2).as_subclass(M); print(repr(y), y.grad_fn, y._base, str(y), [y])
print(torch.zeros(0, 2, dtype=torch.int32).as_subclass(M), M([1.5, 2.5]))
class P(torch.nn.Parameter):
    pass
print(P(torch.zeros(2, 3)))
print(repr(P(torch.tensor(1.5), requires_grad=False)))
print(torch.tensor([1, 2]).__repr__(tensor_contents="xyz"))
print(torch.tensor([[1., 2.]], requires_grad=True).__repr__(tensor_contents="[[...]]"))
print(torch.tensor([], dtype=torch.int32).__repr__(tensor_contents="Q"))
print(torch.ones(2, 2).as_subclass(M).__repr__(tensor_contents="[" + "x" * 90 + "]"))
"""

PROGRAMS["options_and_default_dtypes"] = r"""
# fixed: torch.printoptions / torch.get_printoptions do not exist (they live in torch._tensor_str)
print(hasattr(torch, "printoptions"), hasattr(torch, "get_printoptions"))
print(torch.set_printoptions(precision=2), torch._tensor_str.get_printoptions())
with torch._tensor_str.printoptions(precision=1, sci_mode=True):
    print(torch.tensor([1.25, 3.0]))
print(torch.tensor([1.25, 3.0]), torch._tensor_str.get_printoptions())
torch.set_printoptions(profile="bogus"); print(torch._tensor_str.get_printoptions())
torch.set_printoptions(profile="default")
torch.set_printoptions(precision=3, threshold=4, edgeitems=1, linewidth=30)
print(torch.arange(10.), torch.arange(10.).reshape(2, 5), torch.zeros(2, 3, 4))
torch.set_printoptions()
print(torch._tensor_str.get_printoptions())
for dd in (torch.float64, torch.float16, torch.bfloat16, torch.float32):
    torch.set_default_dtype(dd)
    print(dd, torch.tensor([1.5]), torch.zeros(0), torch.zeros(0, dtype=torch.float32),
          torch.zeros(0, dtype=torch.complex64), torch.zeros(0, dtype=torch.complex128))
    print(torch.tensor([1.5], dtype=torch.float32), torch.tensor([1], dtype=torch.complex128), torch.tensor(0.1))
    print(torch.zeros(0, dtype=torch.int64), torch.zeros(2, 0, dtype=torch.bool), torch.tensor(3.3).item())
torch.set_default_dtype(torch.float32)
torch.set_printoptions(profile="default", edgeitems=0)
print(torch.arange(5), torch.tensor(2.), torch.zeros(0), torch.arange(2000), torch.arange(2000.).reshape(2, 1000))
torch.set_printoptions(profile="default", linewidth=5)
print(torch.arange(10), torch.zeros(3, 2, requires_grad=True), torch.tensor([1.5+2j, 3]))
torch.set_printoptions(profile="default", precision=0)
print(torch.tensor([0.5, 1.5, 2.5, -0.5]), torch.tensor([1e-5, 1.0]), torch.tensor([1.4]))
torch.set_printoptions(profile="short")
print(torch.arange(1000.).reshape(10, 100) / 7)
torch.set_printoptions(profile="full")
print(torch.arange(1200).reshape(3, 400)[:, :3], torch.arange(1200)[::400])
torch.set_printoptions(profile="default", threshold=0)
print(torch.tensor(1.), torch.tensor([1.]), torch.zeros(2, 2))
"""

PROGRAMS["autograd_outputs_and_views"] = r"""
class MyFn(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * 2
    @staticmethod
    def backward(ctx, g):
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
print(MyFn.apply(x))
g, = torch.autograd.grad((x ** 2).sum(), x, create_graph=True); print(g)
w = x.exp(); w.retain_grad(); w.sum().backward(); print(w.grad, x.grad)
a = torch.ones(3, requires_grad=True).clone()
print(a[:2], a.view(3, 1), a.unsqueeze(0))
base = torch.ones(3)
with torch.no_grad():
    vv = base[:2]
vv.mul_(2); print(vv, base)
q = torch.ones(2, 2, requires_grad=True)
print(q.unbind(0)[0]); print(q.split(1)); print(q.chunk(2, 1)); print(torch.unbind(q * 1))
print(torch.tensor([1., 2.], dtype=torch.float64, requires_grad=True) * 2)
print(torch.tensor(5., requires_grad=True).sum(), torch.tensor([[1.]], requires_grad=True).mean())
print(torch.zeros(0, 3, requires_grad=True), torch.zeros(0, requires_grad=True).sum())
print(torch.zeros(2, 0, requires_grad=True) * 1)
n = torch.tensor([1.0, float('nan')], requires_grad=True); print(n.nan_to_num(), n.abs(), n.relu(), torch.sigmoid(n))
print(torch.tensor([1+1j], requires_grad=True) * 2, torch.view_as_real(torch.tensor([1+2j], requires_grad=True)))
print(torch.tensor([3.], requires_grad=True).to(torch.float64), torch.tensor([3.], requires_grad=True).double().half())
e = torch.tensor([1.5, 2.5]).expand(3, 2); print(e, e.stride())
t = torch.arange(24.).reshape(2, 3, 4); print(t.permute(2, 0, 1)); print(t[:, ::2, 1:3])
print(t.new_tensor([1, 2]), t.new_zeros(2, dtype=torch.int32), t.new_empty(0))
with torch.no_grad():
    print(torch.ones(2, requires_grad=True) * 2)
with torch.inference_mode():
    print(torch.ones(2))
print(torch.tensor([2.**63, -2.**63]), torch.tensor([1e300, 1e-310], dtype=torch.float64))
print(torch.tensor([1., 2.]).view(torch.int32))
"""

PROGRAMS["odd_print_options"] = r"""
# fixed: a negative edgeitems on a summarised matrix: PyTorch's torch.stack([]) error, not a printout
x = torch.tensor([[1.123456789, -2.5, 1e-3], [3.0, 4.0, 5.5]])
for kw in [dict(precision=20), dict(precision=17, sci_mode=True), dict(linewidth=0), dict(linewidth=1),
           dict(linewidth=-5), dict(edgeitems=100, threshold=1), dict(threshold=-1), dict(edgeitems=-1, threshold=2),
           dict(precision=-1), dict(precision=2.0), dict(sci_mode=0), dict(sci_mode=1), dict(sci_mode="yes"),
           dict(threshold=2.5), dict(edgeitems=1, threshold=5), dict(profile="SHORT"),
           dict(profile="full", precision=2), dict(linewidth=3.5)]:
    torch.set_printoptions(profile="default")
    E(lambda: torch.set_printoptions(**kw))
    print(kw)
    for t in (x, torch.tensor(1.5), torch.arange(12), torch.tensor([1+2j, 3.5-1j]), torch.tensor([True, False]),
              torch.tensor([1e10, 1.0]), torch.tensor([float('nan'), 2.])):
        E(lambda: print(t))
torch.set_printoptions(profile="default")
E(lambda: torch.set_printoptions(foo=1))
E(lambda: torch.set_printoptions(2))
print(x)
"""

PROGRAMS["invalid_grad_fn_and_views"] = r"""
a = torch.ones(3, requires_grad=True).clone()
with torch.no_grad():
    v = a[:2]
    v.mul_(2)
print(a)
E(lambda: print(v))
b = torch.ones(2, 2, requires_grad=True) * 1
u = b.unbind(0)
with torch.no_grad():
    b.mul_(2)
E(lambda: print(u[0]))
c = torch.ones(3, requires_grad=True)
with torch.no_grad():
    w = c[:2]
print(w, w.grad_fn, w.requires_grad, w.is_leaf)
with torch.inference_mode():
    i = torch.ones(2)
print(i, i.requires_grad)
d = torch.ones(3, requires_grad=True) * 1
dv = d[:2]
d.add_(1)
print(dv, d)
print(torch.tensor([1.], device='cpu:0'), torch.tensor([1.], device='cpu:0').device)
print(torch.zeros(2, device=torch.device('cpu', 0)).device, torch.tensor([1.]).to('cpu'), torch.tensor([1.]).cpu())
"""

PROGRAMS["seeded_values_and_type_reprs"] = r"""
torch.manual_seed(0)
print(torch.randn(3, 3), torch.rand(4), torch.randint(0, 10, (5,)), torch.randperm(6))
print(torch.linspace(0, 1, 7), torch.logspace(-10, 10, 5), torch.arange(0, 1, 0.1), torch.arange(-3, 3).float() / 3)
print(torch.linspace(-1e-5, 1e-5, 5), torch.full((2, 2), 1e-4), torch.eye(3) * 1e9, torch.tensor([1/3]) * 3)
x = torch.linspace(-3, 3, 13)
print(x.exp(), x.sigmoid(), x.tanh(), torch.softmax(x, 0), x.log_softmax(0))
print(torch.randn(2, 3, dtype=torch.float64), torch.randn(2, dtype=torch.complex64))
y = torch.tensor([1., 2.], requires_grad=True)
z = (y * 3).sum()
print(z.grad_fn, z.grad_fn.next_functions, type(z.grad_fn), z.grad_fn.name())
print(type(y), type(y.shape), type(y.dtype), type(y.device), torch.Tensor, torch.nn.Parameter, type(torch.max(y, 0)))
print(torch.float32, str(torch.float32), [torch.float16, torch.bfloat16, torch.complex64, torch.bool, torch.uint8])
print(repr(torch.device("cpu")), torch.strided, torch.Size([1, 2]) == (1, 2), f"{torch.Size([2])}")
print(torch.Size([2, 3])[1:])
print(y.data, y.detach().numpy(), torch.tensor([[1, 2], [3, 4]]).mT)
"""

PROGRAMS["finfo_iinfo_arguments"] = r"""
# fixed: iinfo(torch.bool) is refused; Python types are accepted (float -> float64, int -> int64) and other
# arguments refused with PyTorch's TypeError; finfo/iinfo compare by dtype and are unhashable; their classes
# print as <class 'torch.finfo'>
import numpy as np
def P(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, e)
P(lambda: torch.iinfo(torch.bool))
P(lambda: torch.finfo(torch.bool))
P(lambda: torch.finfo(torch.uint8))
P(lambda: torch.finfo(torch.complex128))
P(lambda: torch.iinfo(torch.complex64))
P(lambda: torch.finfo("float32"))
P(lambda: torch.finfo(float))
P(lambda: torch.finfo(int))
P(lambda: torch.iinfo(int))
P(lambda: torch.iinfo(bool))
P(lambda: torch.finfo(bool))
P(lambda: torch.finfo(complex))
P(lambda: torch.finfo(None))
P(lambda: torch.iinfo())
P(lambda: torch.iinfo('int8'))
P(lambda: torch.finfo(np.float32))
P(lambda: torch.finfo(type=torch.float32))
P(lambda: torch.iinfo(type=torch.int8))
P(lambda: torch.finfo(torch.float32) == torch.finfo(torch.float64))
P(lambda: torch.iinfo(torch.int8) == torch.iinfo(torch.uint8))
P(lambda: (torch.finfo(torch.float32) == 1, torch.finfo(torch.float32) != torch.finfo(torch.float32)))
P(lambda: torch.finfo(torch.float64) == torch.finfo(float))
P(lambda: torch.finfo(torch.float32) == torch.finfo(torch.complex64))
P(lambda: torch.finfo() == torch.finfo(torch.get_default_dtype()))
P(lambda: torch.iinfo(torch.int32) != torch.iinfo(torch.int32))
P(lambda: hash(torch.finfo(torch.float32)))
P(lambda: hash(torch.iinfo(torch.int8)))
P(lambda: (type(torch.finfo(torch.float32)), type(torch.iinfo(torch.int8)), torch.finfo, torch.iinfo))
P(lambda: (torch.finfo.__name__, torch.iinfo.__qualname__, torch.finfo(torch.complex64).dtype))
P(lambda: [torch.finfo(torch.half), torch.iinfo(torch.short)])
P(lambda: (torch.finfo(torch.float16).resolution, torch.finfo(torch.bfloat16).resolution))
"""

PROGRAMS["string_formatting_operators"] = r"""
def P(f):
    try:
        print(repr(f()))
    except Exception as e:
        print(type(e).__name__, e)
for x in (torch.tensor(2.5), torch.tensor(3), torch.tensor([1.5, 2.0]), torch.tensor(True), torch.tensor(1+2j),
          torch.tensor(2.5, requires_grad=True), torch.tensor(7, dtype=torch.uint8),
          torch.tensor(1.5, dtype=torch.bfloat16)):
    P(lambda: "%s" % x); P(lambda: "%r" % (x,)); P(lambda: "{}".format(x)); P(lambda: "{!r}".format(x))
    P(lambda: "%.2f" % x); P(lambda: "%d" % x); P(lambda: "%x" % x); P(lambda: "{:d}".format(x))
    P(lambda: "{:5}".format(x)); P(lambda: f"{x!s:>30}"); P(lambda: "{:e}".format(x)); P(lambda: "%5.1e" % x)
    P(lambda: "{:,}".format(x)); P(lambda: round(x)); P(lambda: round(x, 1))
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # warnings go to stderr; only stdout is compared
        same_as_torch(PROGRAMS[name])
