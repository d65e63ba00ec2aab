"""Parity programs from a thirty-fifth hunt: what a student prints while learning autograd.

How results are printed and converted: ``print`` / ``repr`` of tensors of every dtype (float16, bfloat16, float64,
integers, bool, complex, complex32, the unsigned ones) with ``grad_fn`` / ``requires_grad``, 0-d and empty ones,
huge, tiny, NaN / inf / -0.0 values, whole numbers stored in floats, summarized (``...``) and wrapped rows;
``torch.set_printoptions`` (precision, sci_mode, linewidth, threshold, edgeitems, the profiles; reset after);
f-strings, ``format`` and ``%`` of 0-d tensors; ``item`` / ``tolist`` / ``numpy`` / ``np.asarray`` /
``float`` / ``int`` / ``bool`` / ``complex`` / ``__index__`` and their errors; ``torch.tensor`` of lists of
0-d tensors; the legacy constructors; ``torch.Size``; attributes; ``grad_fn`` names and ``next_functions``;
modules, parameters, state dicts, optimizers; printing inside training loops. Each program must print exactly
what PyTorch prints (hunt14's harness: ``parity.run_both`` with hunt13's ``E``/``W`` helpers, every warning also
printed on stdout). Programs marked "fixed:" printed something different from PyTorch before this hunt's fixes.
"""
from __future__ import annotations

import warnings

import pytest
from parity import fresh_warn_once, run_both
from test_parity_programs_hunt13 import _mask
from test_parity_programs_hunt14 import PRE

PROGRAMS: dict[str, str] = {}

# ---- f-strings, format and Python number conversions

# A 0-d plain Tensor formats as its item() (detached: no warning); an int or bool one as an int.
PROGRAMS['fstring_0d_float'] = PRE + r'''
x = torch.tensor(3.14159265, requires_grad=True)
loss = (x * 2).sum()
print(f"{loss:.4f}", f"{loss}", f"{loss!r}", f"{loss:10.2f}|", f"{loss:<10.3e}|")
print(format(loss, ".2e"), format(loss, ""), format(x, "g"), format(x, "%"))
print("%.3f" % loss, "%s" % loss, "%r" % x, "%d" % x)
print("{:.1f} and {}".format(loss, x))
E(lambda: f"{x:d}")
n = torch.tensor(7)
print(f"{n:d}", f"{n:05d}", f"{n:.2f}", f"{n:x}", format(n, "b"))
b = torch.tensor(True)
print(f"{b}", f"{b:d}", format(b, ""))
c = torch.tensor(1 + 2j)
print(f"{c}", f"{c:.2f}")
'''

# Only a 0-d plain Tensor takes a format spec: other shapes and a Parameter give object.__format__'s TypeError.
PROGRAMS['fstring_nd_errors'] = PRE + r'''
v = torch.tensor([1.5, 2.5])
print(f"{v}")
E(lambda: f"{v:.2f}")
E(lambda: format(v, ".1e"))
p = torch.nn.Parameter(torch.tensor(2.0))
print(f"{p}")
E(lambda: f"{p:.2f}")
e = torch.tensor([])
print(f"{e}")
E(lambda: f"{e:.3f}")
one = torch.tensor([4.25])
E(lambda: f"{one:.1f}")
print("%.2f" % one)
E(lambda: "%.2f" % v)
h = torch.tensor(0.1, dtype=torch.float16)
print(f"{h:.10f}", f"{h}", h.item())
bf = torch.tensor(0.1, dtype=torch.bfloat16)
print(f"{bf:.10f}", f"{bf}", bf.item())
'''

# f"{x=}", alignment / sign / fill specs, '#x' of an int tensor, *-unpacking into print, json.
PROGRAMS['fstring_equals_and_misc_formats'] = PRE + r'''
x = torch.tensor(2.5, requires_grad=True)
y = x * 2
print(f"{x=}")
print(f"{y=!s}", f"{y.item()=:.3f}")
print(f"{y:>12.3f}|{y:<8g}|{y:^9.1f}|{y:+.2f}|{y:_>10.1f}")
print(f"{torch.tensor(True):.2f}", f"{torch.tensor(5):>4}", f"{torch.tensor(5):.3e}", f"{torch.tensor(255):#x}")
print("{0:.2f} {0!r}".format(torch.tensor(0.1, dtype=torch.float16)))
print("{:.3f}".format(torch.tensor(1/3, dtype=torch.bfloat16)), f"{torch.tensor(1/3, dtype=torch.float64):.20f}")
print(*torch.tensor([1.0, 2.5]))
print(*torch.tensor([[1, 2], [3, 4]]), sep=' | ')
print("loss:", y, "value:", y.item(), "str:", str(y))
import json
print(json.dumps(torch.tensor([0.5, 1.5]).tolist()), json.dumps({'loss': y.item()}))
E(lambda: json.dumps(y))
'''

# float/int/bool/complex of one-element tensors of any shape; the errors of several or no elements.
PROGRAMS['item_and_float_conversions'] = PRE + r'''
x = torch.tensor([0.1, 0.2, 0.3])
print(x[0].item(), x.sum().item(), type(x.sum().item()).__name__)
print(float(x[1]), int(x[2] * 10), bool(x[0]), complex(x[0]))
E(lambda: float(x))
E(lambda: int(x))
E(lambda: bool(x))
E(lambda: bool(torch.tensor([])))
E(lambda: float(torch.tensor([])))
E(lambda: x.item())
E(lambda: torch.tensor([]).item())
print(int(torch.tensor(-2.7)), int(torch.tensor(2.7)), round(torch.tensor(2.5).item()))
print(float(torch.tensor([[5.0]])), int(torch.tensor([[[3]]])), bool(torch.tensor([0])))
y = torch.tensor(2.0, requires_grad=True) * 3
print(float(y), y.item(), int(y))
E(lambda: int(torch.tensor(float('nan'))))
E(lambda: int(torch.tensor(float('inf'))))
print(float(torch.tensor(True)), int(torch.tensor(False)), complex(torch.tensor(1 + 1j)))
E(lambda: float(torch.tensor(1 + 1j)))
E(lambda: int(torch.tensor(1 + 1j)))
'''

# math.floor/ceil go through __float__; Tensor has no __round__/__trunc__; __index__ of integer tensors only.
PROGRAMS['python_number_protocols'] = PRE + r'''
import math
x = torch.tensor(2.7)
print(math.floor(x), math.ceil(x), math.sqrt(x), math.isclose(x, 2.7), math.exp(torch.tensor(0.0)))
E(lambda: round(x))
E(lambda: round(x, 1))
E(lambda: math.trunc(x))
print(x.round(), x.round(decimals=1), torch.round(torch.tensor([1.26, 3.5]), decimals=1), round(x.item(), 2))
print(abs(torch.tensor(-1.5)), -torch.tensor(2), +torch.tensor(3.0), ~torch.tensor(True), ~torch.tensor(5))
n = torch.tensor(3)
print(hex(n), bin(n), oct(n), list(range(n)), [10, 20, 30, 40][n], "abcd"[torch.tensor(1)])
E(lambda: hex(torch.tensor(3.0)))
E(lambda: [1, 2][torch.tensor([1])])
E(lambda: [1, 2][torch.tensor(1.0)])
E(lambda: len(torch.tensor(5)))
E(lambda: iter(torch.tensor(5)))
E(lambda: list(torch.tensor(5.0)))
print(len(torch.zeros(4, 2)), list(torch.tensor([1, 2])), [r for r in torch.eye(2)])
E(lambda: divmod(torch.tensor(7), 2))
print(torch.tensor(7.5) // 2, 7 // torch.tensor(2), 2 ** torch.tensor(3), torch.tensor(2) ** -1.0)
print(torch.tensor(5) / 2, torch.tensor(5) // 2, torch.tensor(-5) // 2, torch.tensor(-5) % 3, torch.tensor(-5.0) % 3)
print(x == 2.7, x > 2, bool(x > 2), 3 in torch.tensor([1, 2, 3]), 4 in torch.tensor([1, 2, 3]))
'''

# Accumulating 0-d tensors and Python numbers in loops: the sum's type and repr at each step.
PROGRAMS['int_float_mix_loops'] = PRE + r'''
total = 0
for i, v in enumerate(torch.tensor([0.5, 1.5, 2.5])):
    total += v
    print(i, v, total, type(total).__name__)
count = torch.tensor(0)
for k in range(3):
    count += 1
print(count, count.item(), count.dtype)
acc = 0.0
for v in torch.arange(4):
    acc += v.item() / 3
print(acc, torch.tensor(acc), torch.tensor(acc, dtype=torch.float64))
running = torch.zeros(())
for v in [0.1, 0.2, 0.3]:
    running = running + v
print(running, running.item(), 0.1 + 0.2 + 0.3)
print(sum(torch.tensor([1, 2, 3])), sum(torch.tensor([0.1, 0.2])), max(torch.tensor([3.0, 7.0])), min(torch.tensor([[1, 2], [0, 5]]).flatten()))
print(sorted(torch.tensor([3, 1, 2])), sorted(torch.tensor([3, 1, 2]).tolist()))
'''

# fixed: int() of a complex tensor is a range-checked int64_t (nan, inf, 1e30 are errors; 2**63 wraps),
# and bool()/__index__ of a uint64 value of 2**63 or more fail as int() does.
PROGRAMS['fixed_int_of_complex_and_uint64'] = PRE + r'''
import math
for v in [2.7, -2.7, float('nan'), float('inf'), 1e30, 2.0 ** 63, 2.0 ** 62]:
    t = torch.tensor(complex(v, 0))
    E(lambda: int(t))
    E(lambda: "%d" % t)
E(lambda: int(torch.tensor(1 + 1j)))
print(math.floor(torch.tensor(2.5 + 0j, dtype=torch.complex128)), int(torch.tensor(-0.0 + 0j)))
big = torch.tensor([-1], dtype=torch.int64).to(torch.uint64)
for f in (bool, int, hex, float):
    E(lambda: f(big[0]))
E(lambda: big.tolist())
E(lambda: bool(big))
E(lambda: [10, 20][torch.tensor(1, dtype=torch.uint64)])
print(bool(torch.tensor(5, dtype=torch.uint64)), hex(torch.tensor(255, dtype=torch.uint64)))
'''

# Broadcast arithmetic, true / floor division and modulo of integers, float32 rounding, division by 0.
PROGRAMS['printing_broadcast_and_arith_results'] = PRE + r'''
a = torch.tensor([[1.0], [2.0]])
b = torch.tensor([10.0, 20.0, 30.0])
print(a + b, a * b, (a - b).shape)
print(a / 3, b // 7, b % 7, -b ** 0.5, b.reciprocal())
print(torch.tensor([1, 2, 3]) / torch.tensor([2, 2, 2]), torch.tensor([7, -7]) // 2, torch.tensor([7, -7]) % 3, torch.tensor([2]) ** 10)
print(torch.tensor(1) + 2.5, torch.tensor([True, False]) + 1, torch.tensor([1, 2], dtype=torch.uint8) * 200)
print(torch.tensor([0.1]) + torch.tensor([0.2]), torch.tensor([0.1], dtype=torch.float64) + 0.2, 0.1 + 0.2)
print(torch.tensor([1e-8]) + 1, torch.tensor([16777217.0]), torch.tensor([2.0**24 + 1], dtype=torch.float64).float())
print(torch.tensor(3) / 0, torch.tensor(-3.0) / 0, torch.tensor(0.0) / 0, torch.tensor([1.0, 0.0]).log())
E(lambda: torch.tensor(3) // 0)
E(lambda: torch.tensor([3]) % 0)
'''

# float() / complex() / math functions / % of a tensor requiring grad warn (not int(), bool(), item(),
# format); torch.tensor([x]) warns once per element; no warning under no_grad.
PROGRAMS['scalar_conversion_warnings'] = PRE + r'''
import math
import numpy as np
x = torch.tensor(2.5, requires_grad=True)
print(float(x), int(x), bool(x), complex(x))
print(math.floor(x), np.float64(x), x.item(), x.tolist(), f"{x:.2f}")
print("%.1f" % x, "%d" % x, math.isfinite(x), round(float(x)))
E(lambda: np.float32(x))
print(torch.tensor([x]), torch.tensor([x, x * 2]))
print(float(x.detach()), float(x * 2), max(x, 3), [x][0] + 1)
with torch.no_grad():
    print(float(x), torch.tensor([x]))
loss = (x - 1) ** 2
print(f"loss {float(loss):.3f} {loss.item():.3f} {loss:.3f}")
'''

# fixed: layout, memory_format, finfo, iinfo, Generator, the storages and the return types are C types (or
# named as such) in PyTorch: Python's messages (format specs, calls, len, +, attributes) name them 'torch.layout',
# 'torch.finfo', 'torch._C.Generator', 'torch.storage.UntypedStorage', 'torch.return_types.max' ... (before: the
# short class name).
PROGRAMS['fixed_c_type_names_in_messages'] = PRE + r'''
for o in [torch.float32, torch.device('cpu'), torch.Size([2, 3]), torch.strided, torch.contiguous_format,
          torch.finfo(torch.float32), torch.iinfo(torch.int8), torch.Generator()]:
    E(lambda: f"{o:>12}|")
    E(lambda: o())
    E(lambda: len(o))
    E(lambda: o + 1)
    print(f"{o!s:>20}|", type(o).__name__, type(o))
E(lambda: f"{torch.nn.Linear(1, 1):>5}")
E(lambda: iter(torch.strided))
E(lambda: hash(torch.finfo(torch.float16)))
print(format(torch.Size([2])), "{:^20}".format(str(torch.ones(2).shape)), f"{[torch.tensor(1.5)]}", f"{(torch.tensor(1.5),)!s}")
print(f"{torch.nn.Parameter(torch.ones(2))!r:>5}")
E(lambda: torch.Generator().seed_)
g = torch.Generator().manual_seed(1)
print(torch.randn(2, generator=g), torch.zeros(2, layout=torch.strided), torch.ones(2).contiguous(memory_format=torch.contiguous_format))
E(lambda: torch.randn(2, generator=1))
E(lambda: torch.rand(2, generator=torch.strided))
E(lambda: torch.zeros(2, layout=torch.contiguous_format))
E(lambda: torch.zeros(2, dtype=torch.strided))
E(lambda: torch.ones(2).clone(memory_format=1))
x = torch.ones(2, 3)
print(f"{x.max(0)}")
E(lambda: f"{x.max(0):.2f}")
E(lambda: torch.max(x, 1).item())
s, u = x.untyped_storage(), x[0].storage()
for o in (s, u):
    E(lambda: o.foo)
    E(lambda: o + 1)
    E(lambda: f"{o:>3}")
    print(type(o), type(o).__name__)
'''

# apply_ / map_ run Python callbacks per element (refused when requiring grad); map, zip, any, sorted
# over tensors iterate 0-d tensors.
PROGRAMS['apply_map_and_python_callbacks'] = PRE + r'''
x = torch.tensor([1.0, 2.5, -3.0])
print(x.apply_(lambda v: v * 2), x)
print(torch.tensor([1, 2, 3]).apply_(lambda v: v // 2 + 0.7))
y = torch.tensor([10.0, 20.0, 30.0])
print(x.map_(y, lambda a, b: a + b), x)
E(lambda: torch.ones(2, requires_grad=True).apply_(lambda v: v))
print(torch.tensor([True, False]).apply_(lambda v: not v))
print(list(map(float, torch.tensor([0.5, 1.5]))), list(map(int, torch.tensor([7, 8]))), [*map(lambda t: t * 2, torch.tensor([1, 2]))])
print(torch.tensor([3.0, 1.0]).tolist().index(1.0), sorted(torch.tensor([3.0, 1.0, 2.0]), reverse=True))
print(any(torch.tensor([0, 1])), all(torch.tensor([1.0, 0.5])), list(zip(torch.tensor([1, 2]), torch.tensor([3.0, 4.0]))))
print(dict(enumerate(torch.tensor([0.5, 0.25]))))
'''

# ---- tolist, numpy and NumPy scalars

# tolist gives Python floats of the float32 / float16 / bfloat16 values (0.10000000149011612 ...).
PROGRAMS['tolist_dtypes'] = PRE + r'''
print(torch.tensor([0.1, 1/3]).tolist())
print(torch.tensor([0.1, 1/3], dtype=torch.float64).tolist())
print(torch.tensor([0.1, 1/3], dtype=torch.float16).tolist())
print(torch.tensor([0.1, 1/3], dtype=torch.bfloat16).tolist())
print(torch.tensor([[1, 2], [3, 4]], dtype=torch.int8).tolist())
print(torch.tensor([True, False]).tolist(), torch.tensor(5).tolist(), torch.tensor(2.5).tolist())
print(torch.tensor([1 + 2j, 3.5 - 1j]).tolist())
print(torch.tensor([]).tolist(), torch.zeros(2, 0).tolist(), torch.zeros(0, 3).tolist())
print(torch.tensor([float('nan'), float('inf'), -0.0]).tolist())
t = torch.tensor([1.0, 2.0], requires_grad=True)
print((t * 1.1).tolist(), type(t.tolist()[0]).__name__)
print(torch.arange(6).reshape(2, 3).T.tolist())
print(torch.tensor(3, dtype=torch.uint8).tolist(), type(torch.tensor(3, dtype=torch.uint8).tolist()).__name__)
'''

# numpy() refuses a tensor that requires grad (np.asarray too), shares memory, and refuses bfloat16.
PROGRAMS['numpy_bridge_and_errors'] = PRE + r'''
import numpy as np
x = torch.tensor([1.0, 2.0], requires_grad=True)
E(lambda: x.numpy())
print(x.detach().numpy(), x.detach().numpy().dtype)
y = x * 2
E(lambda: y.numpy())
E(lambda: np.asarray(y))
print(np.asarray(y.detach()), np.array(torch.tensor([1, 2])).dtype)
print(x.numpy(force=True), x.data.numpy())
print(np.asarray(torch.tensor(3.5)), np.asarray(torch.tensor(3.5)).shape)
print(torch.tensor([True, False]).numpy(), torch.tensor([1+1j]).numpy())
print(torch.ones(2, dtype=torch.float16).numpy().dtype, torch.ones(2, dtype=torch.int16).numpy().dtype)
E(lambda: torch.ones(2, dtype=torch.bfloat16).numpy())
a = np.array([1.5, 2.5])
t = torch.from_numpy(a)
print(t, t.dtype)
t.add_(1)
print(a)
print(np.float64(2.0) * torch.tensor([1.0, 2.0]))
print(torch.tensor([1.0, 2.0]) * np.float64(2.0))
'''

# NumPy scalars on either side of a tensor give a tensor; an ndarray on the left refuses the operation.
PROGRAMS['numpy_mixing_scalars'] = PRE + r'''
import numpy as np
t = torch.tensor(1.5)
print(np.float32(t), np.float64(t), np.array([t, t * 2]), np.array([t, t]).dtype)
print(np.mean([torch.tensor(1.0), torch.tensor(2.0)]), np.array(torch.tensor([1, 2], dtype=torch.int32)).dtype)
print(torch.tensor(np.float64(2.5)), torch.tensor(np.int32(3)), torch.tensor(np.array(2.0, dtype=np.float32)))
print(torch.tensor([np.float32(1.5), np.float32(2.5)]), torch.tensor(np.bool_(True)), torch.tensor([np.int64(1), 2.5]))
print(torch.as_tensor([1, 2]), torch.as_tensor(np.array([1.5])), torch.from_numpy(np.array([], dtype=np.float32)))
print(torch.tensor(np.arange(3)), torch.tensor(np.arange(3.0)), torch.tensor(np.arange(3, dtype=np.uint8)))
print(torch.tensor([1.0, 2.0]) + np.array([1.0, 2.0]), type(torch.tensor([1.0]) + np.array([1.0])).__name__)
E(lambda: np.array([1.0, 2.0]) + torch.tensor([1.0, 2.0]))
E(lambda: np.array([1.0, 2.0]) * torch.tensor([1.0, 2.0], requires_grad=True))
E(lambda: torch.tensor([1.0]) < np.array([2.0]))
print(torch.tensor(3.0) * np.float32(2), type(torch.tensor(3.0) * np.float32(2)).__name__)
print(np.float32(2) * torch.tensor(3.0), type(np.float32(2) * torch.tensor(3.0)).__name__)
print(float(np.float32(0.1)), torch.tensor(np.float32(0.1)).item())
'''

# Storage reprs list their values (bytes for an untyped storage) and a [type of size n] line.
PROGRAMS['storage_prints'] = PRE + r'''
x = torch.tensor([1.0, 2.0])
print(x.untyped_storage())
print(x.storage())
print(torch.tensor([1, 2], dtype=torch.int8).untyped_storage(), len(x.untyped_storage()), x.untyped_storage().nbytes())
print(x[1:].storage_offset(), x[1:].untyped_storage().size(), x.storage().size(), x.storage().dtype)
print(torch.tensor([True]).storage(), torch.tensor([], dtype=torch.float64).storage())
print(x.storage().tolist(), list(x.untyped_storage())[:4])
'''

# from_numpy / numpy() / as_tensor share memory; NumPy dtypes PyTorch refuses; torch.tensor copies.
PROGRAMS['numpy_shared_memory_and_dtypes'] = PRE + r'''
import numpy as np
a = np.ones(3, dtype=np.float32)
t = torch.from_numpy(a)
a[0] = 5
print(t, t.dtype)
n = t.numpy()
n[1] = -1
print(t, a, n.dtype, n.flags['C_CONTIGUOUS'])
print(torch.ones(2, 3).t().numpy().flags['C_CONTIGUOUS'], torch.ones(2, 3).t().numpy().strides)
print(torch.from_numpy(np.arange(4, dtype=np.uint16)), torch.from_numpy(np.array([True])), torch.from_numpy(np.array(2.5)))
E(lambda: torch.from_numpy(np.array(['a'])))
E(lambda: torch.from_numpy(np.array([1], dtype=object)))
E(lambda: torch.tensor(np.array(['a', 'b'])))
E(lambda: torch.from_numpy([1, 2]))
print(torch.tensor(np.array([[1, 2], [3, 4]]).T), torch.as_tensor(np.ones(2, dtype=np.float16)))
b = np.zeros(2)
tt = torch.as_tensor(b)
tt += 1
print(b, torch.tensor(b).add_(1), b)
print(torch.from_numpy(np.float32([1.5])) * torch.tensor([2.0], dtype=torch.float64))
'''

# view(dtype) reinterprets the bits; to(tensor) / type_as / copy=True / new_* keep or change the dtype.
PROGRAMS['dtype_views_and_to_variants'] = PRE + r'''
x = torch.tensor([1.0, -0.5, 0.1])
print(x.view(torch.int32), x.view(torch.uint8), x.view(torch.int16).shape)
print(torch.tensor([1.0, 2.0], dtype=torch.bfloat16).view(torch.int16), torch.tensor([1.5], dtype=torch.float16).view(torch.uint8))
print(torch.tensor([1065353216], dtype=torch.int32).view(torch.float32), torch.tensor([0.5], dtype=torch.float64).view(torch.complex64) if False else '')
print(x.to(torch.tensor([1], dtype=torch.int8)), x.type_as(torch.ones(1, dtype=torch.float64)), x.to(dtype=torch.float16, copy=True))
print(x.to(x) is x, x.to(torch.float32) is x, x.to(torch.float32, copy=True) is x, x.double().to(x))
print(x.new_tensor([3, 4]), x.new_tensor([3, 4]).dtype, x.new_full((2,), 9), x.new_empty(0), x.new_zeros(2, dtype=torch.int8))
g = torch.tensor([1.0, 2.0], requires_grad=True)
print(g.to(torch.float64), g.to(torch.float32), g.type(torch.float16), g.type_as(torch.ones(1, dtype=torch.bfloat16)))
E(lambda: x.view(torch.complex64))
E(lambda: torch.ones(3, dtype=torch.float32).view(torch.float64))
print(torch.frombuffer(bytearray(b'\x00\x00\x80\x3f'), dtype=torch.float32))
print(x.numpy().tobytes().hex(), bytes(torch.tensor([1, 2], dtype=torch.uint8).numpy()))
'''

# Conjugate and negative views: tolist / item resolve them, numpy() refuses them (force=True resolves).
PROGRAMS['conj_views_converted'] = PRE + r'''
import numpy as np
z = torch.tensor([1 + 2j, 3 - 1j])
c = z.conj()
print(c, c.is_conj(), c.tolist(), c[0].item(), complex(c[1]), f"{c[0]}")
E(lambda: c.numpy())
print(c.resolve_conj().numpy(), np.asarray(c.resolve_conj()), c.numpy(force=True) if True else '')
E(lambda: np.asarray(c))
n = torch.tensor([1.0, 2.0]).conj()
print(n, n.is_conj(), n.numpy())
neg = z.conj().imag
print(neg, neg.is_neg(), neg.tolist())
E(lambda: neg.numpy())
print(neg.resolve_neg().numpy(), torch.view_as_real(c.resolve_conj()), c.conj_physical(), torch.conj_physical(z).is_conj())
print(c + 1, c * c, c.abs(), c.angle(), c.real, c.imag)
'''

# ---- torch.tensor of 0-d tensors, legacy constructors, promotion

# torch.tensor of a list of 0-d tensors reads each as a number (warning if it requires grad).
PROGRAMS['tensor_of_0d_tensors'] = PRE + r'''
a = torch.tensor(1.5)
b = torch.tensor(2.5, requires_grad=True)
print(torch.tensor([a, a * 2]))
print(fresh := torch.tensor([a, torch.tensor(3.0)]), fresh.dtype)
print(torch.tensor([torch.tensor(1), torch.tensor(2)]), torch.tensor([torch.tensor(True), torch.tensor(False)]))
print(torch.tensor([b.detach(), a]))
print(torch.tensor([b, a]))
print(torch.tensor([[a, a], [a, a]]))
print(torch.tensor([torch.tensor(1), 2.5]), torch.tensor([torch.tensor(1.5, dtype=torch.float64)]).dtype)
print(torch.stack([a, b]), torch.tensor([1.0, 2.0]).new_tensor([a]))
losses = [torch.tensor(0.5), torch.tensor(0.25)]
print(torch.tensor(losses).mean(), sum(losses), sum(losses) / len(losses))
print(torch.tensor([torch.tensor([1.0, 2.0]).sum()]))
'''

# fixed: a complex 0-d tensor stored as a real dtype gives its real part, as float() does, or float()'s
# error when its imaginary part is not zero (before: NumPy's TypeError).
PROGRAMS['fixed_tensor_of_complex_0d_tensors'] = PRE + r'''
z = torch.tensor(2.5 + 0j)
w = torch.tensor(1 - 2j)
print(torch.tensor([z, 1.0]), torch.tensor([z, 1.0], dtype=torch.float32), torch.tensor([[z]], dtype=torch.float64))
print(torch.tensor([z, torch.tensor(3.0)], dtype=torch.float16), torch.Tensor([z]), torch.tensor([w, z]))
E(lambda: torch.tensor([w], dtype=torch.float32))
E(lambda: torch.Tensor([w, z]))
E(lambda: torch.tensor([z], dtype=torch.int64))
E(lambda: torch.tensor([z], dtype=torch.bool))
print(torch.tensor([w, z], dtype=torch.complex128), torch.tensor([w, z], dtype=torch.complex64).tolist())
E(lambda: torch.tensor([torch.tensor(1j, requires_grad=True)], dtype=torch.float32))
print(torch.tensor([torch.tensor(2 + 0j, requires_grad=True)], dtype=torch.float32))
'''

# torch.tensor(tensor) warns to use detach().clone(); torch.Tensor(tensor) is an alias.
PROGRAMS['copy_construct_warning'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor(x)
print(y, y.requires_grad)
z = torch.tensor(x.detach())
print(z)
w = torch.tensor(torch.tensor(3.0), dtype=torch.float64)
print(w)
print(torch.as_tensor(x) is x, torch.as_tensor(x, dtype=torch.float64))
print(torch.tensor([x[0], x[1]]))
n = torch.Tensor(x)
print(n, n.grad_fn)
'''

# torch.Tensor / FloatTensor / LongTensor ... and type(), including the legacy type names.
PROGRAMS['legacy_constructors_print'] = PRE + r'''
print(torch.Tensor([1, 2]), torch.FloatTensor([1.5]), torch.DoubleTensor([1.5]), torch.LongTensor([1, 2]))
print(torch.IntTensor([3]), torch.BoolTensor([True]), torch.ByteTensor([7]), torch.HalfTensor([0.5]))
print(torch.Tensor(), torch.Tensor([]), torch.LongTensor(), torch.Tensor(0), torch.Tensor([[1], [2]]))
print(torch.Tensor(2, 3).shape, torch.zeros(2).type(torch.DoubleTensor), torch.zeros(2).type('torch.IntTensor'))
print(torch.zeros(1).type(), torch.FloatTensor([1]).type(), isinstance(torch.zeros(1), torch.FloatTensor))
print(torch.tensor([1.0]).float(), torch.tensor([1]).long(), torch.tensor([1.7]).int(), torch.tensor([0.0, 1.5]).bool())
print(torch.tensor([1.0]).char(), torch.tensor([300]).byte(), torch.tensor([1.0]).short(), torch.tensor([1]).half())
E(lambda: torch.FloatTensor([1], dtype=torch.float64))
E(lambda: torch.Tensor([1.0, 2.0], requires_grad=True))
E(lambda: torch.Tensor([1], dtype=torch.float64))
E(lambda: torch.zeros(2).new([1], dtype=torch.int64))
print(torch.Tensor([1.0], device="cpu"), torch.zeros(1).new([2.5], device="cpu"))
'''

# fixed: the legacy constructors take no dtype= or requires_grad= (only device=): PyTorch's
# "new() received an invalid combination of arguments" (before: dtype= was obeyed, requires_grad= a Python TypeError).
PROGRAMS['fixed_legacy_constructor_keywords'] = PRE + r'''
E(lambda: torch.Tensor([1.0, 2.0], requires_grad=True))
E(lambda: torch.Tensor([1, 2], dtype=torch.float64))
E(lambda: torch.FloatTensor(2, 3, dtype=torch.float64))
E(lambda: torch.LongTensor([1], requires_grad=False))
E(lambda: torch.zeros(2).new([1.5], dtype=torch.float16))
E(lambda: torch.Tensor(torch.ones(1), foo=1))
print(torch.Tensor([1.5], device='cpu'), torch.LongTensor([3], device='cpu'), torch.ones(1).new([2.0], device='cpu'))
x = torch.Tensor([1.0, 2.0]).requires_grad_()
print(x, (x * 2).sum())
'''

# Ragged lists, strings, 2**63; the dtype inferred from mixed lists and given by promotion.
PROGRAMS['construction_errors_and_promotion'] = PRE + r'''
E(lambda: torch.tensor([[1, 2], [3]]))
E(lambda: torch.tensor('abc'))
E(lambda: torch.tensor([1, 'a']))
E(lambda: torch.tensor(2 ** 63))
E(lambda: torch.tensor([[1.0], 2.0]))
print(torch.tensor([1, 2.5, True]), torch.tensor([True, 2]), torch.tensor([1, 2j]), torch.tensor([False, 0.5]))
print(torch.tensor([1, 2]) * 1.5, torch.tensor([1, 2]) / 2, torch.tensor([True]) + torch.tensor([True]))
print(torch.tensor([1, 2], dtype=torch.int32) + 2**40 if False else torch.tensor([1, 2], dtype=torch.int32) + 5)
print(torch.tensor([1], dtype=torch.uint8) - 2, torch.tensor([1.0], dtype=torch.float16) + torch.tensor([1.0]), torch.tensor([1.0], dtype=torch.bfloat16) * torch.tensor(2.0, dtype=torch.float64))
print(torch.full((2,), 7), torch.full((2,), 7.0), torch.full((2,), True), torch.full((1,), 1j))
print(torch.zeros(2, dtype=torch.int64).new_tensor([1.5]), torch.tensor(1.5).new_zeros(2), torch.ones(1, dtype=torch.int8).new_ones(2))
'''

# Variable(...) from old tutorials is a plain Tensor; the classic x + 2, y * y * 3, mean example.
PROGRAMS['legacy_variable_tutorial'] = PRE + r'''
from torch.autograd import Variable
x = Variable(torch.ones(2, 2), requires_grad=True)
print(x, type(x).__name__, isinstance(x, Variable), isinstance(torch.ones(1), Variable))
y = x + 2
print(y, y.grad_fn, y.data)
z = y * y * 3
out = z.mean()
print(z, out)
out.backward()
print(x.grad, x.grad.data)
v = Variable(torch.tensor([1.0, 2.0]))
print(v, v.requires_grad, Variable(torch.zeros(1), volatile=True) if False else '')
print(x.data.numpy(), x.detach().numpy())
'''

# Setting requires_grad on non-leaves and integer tensors; x.data writes and the version counter.
PROGRAMS['requires_grad_flag_errors_and_prints'] = PRE + r'''
x = torch.tensor([1.0, 2.0])
x.requires_grad = True
print(x)
y = x * 2
E(lambda: setattr(y, 'requires_grad', False))
y.requires_grad_(True)
print(y, y.requires_grad, y.is_leaf)
E(lambda: torch.tensor([1, 2]).requires_grad_())
E(lambda: torch.tensor([1, 2], requires_grad=True))
E(lambda: setattr(torch.tensor([True]), 'requires_grad', True))
d = y.detach()
d.requires_grad = True
print(d, d.is_leaf, y.data.requires_grad, x.float() is x, x.double().is_leaf, x.double().grad_fn)
x.data[0] = 5.0
print(x, x._version, y._version)
x.data = torch.tensor([7.0, 8.0, 9.0])
print(x, x.shape, x.grad_fn, x.requires_grad)
'''

# ---- torch.Size, attributes, dtypes

# torch.Size keeps its type through + tuple, * int and slicing; its repr in f-strings and %.
PROGRAMS['size_printing_and_arithmetic'] = PRE + r'''
s = torch.zeros(2, 3, 4).shape
print(s, type(s).__name__, s[0], s[1:], s[-1], len(s), s.numel())
print(s + (5,), type(s + (5,)).__name__)
print((1,) + s, type((1,) + s).__name__)
print(s * 2, type(s * 2).__name__)
print(s == (2, 3, 4), s == [2, 3, 4], list(s), tuple(s))
print(torch.Size([]), torch.Size([]).numel(), torch.Size([0, 3]).numel())
print(torch.Size((5,)), torch.Size([2, 2]) == torch.Size((2, 2)))
print(f"{s}", str(s), repr(s), "%s" % (s,))
print(torch.zeros(()).shape, torch.zeros(0).shape, torch.zeros(3).size(), torch.zeros(3, 4).size(1), torch.zeros(3, 4).size(-1))
a, b, c = s
print(a * b * c, max(s), sum(s))
print(torch.Size([2, 3]).count(3), torch.Size([2, 3]).index(3))
E(lambda: torch.zeros(3).size(2))
print(torch.ones(2, 3).shape[::-1], type(torch.ones(2, 3).shape[::-1]).__name__)
print(hash(torch.Size([1, 2])) == hash((1, 2)))
'''

# shape, dtype, device, layout, strides, type() and the dtype properties a student prints.
PROGRAMS['tensor_attributes_print'] = PRE + r'''
x = torch.zeros(2, 3, dtype=torch.float64, requires_grad=True)
print(x.shape, x.dtype, x.device, x.layout, x.requires_grad, x.is_leaf, x.grad_fn, x.grad)
print(x.ndim, x.dim(), x.numel(), x.nelement(), x.element_size(), x.itemsize, x.nbytes)
print(x.dtype.is_floating_point, x.dtype.is_complex, x.dtype.is_signed, x.dtype.itemsize)
print(torch.float32, torch.float, torch.double, torch.half, torch.long, torch.int, torch.bool, torch.cfloat, torch.bfloat16)
print(repr(torch.int64), str(torch.int32), f"{torch.uint8}", torch.complex128)
print(x.device.type, x.device.index, str(x.device), repr(x.device), torch.device('cpu'), torch.device('cpu', 0))
print(torch.strided, type(x.layout).__name__, x.is_sparse, x.is_cuda, x.is_floating_point(), x.is_complex())
print(x.stride(), x.t().stride(), x.is_contiguous(), x.t().is_contiguous(), x.storage_offset())
print(x.type(), torch.ones(1, dtype=torch.int32).type(), torch.ones(1, dtype=torch.bool).type())
print(type(x).__name__, type(x.dtype).__name__, type(x.device).__name__)
print(torch.get_default_dtype(), torch.tensor(1).dtype, torch.tensor(1.).dtype, torch.tensor(True).dtype, torch.tensor(1j).dtype)
'''

# The finfo / iinfo reprs and attributes; finfo() is the default dtype's.
PROGRAMS['finfo_iinfo_print'] = PRE + r'''
print(torch.finfo(torch.float32))
print(torch.finfo(torch.float64))
print(torch.finfo(torch.float16))
print(torch.finfo(torch.bfloat16))
print(torch.finfo())
print(torch.iinfo(torch.int32), torch.iinfo(torch.uint8), torch.iinfo(torch.int64))
f = torch.finfo(torch.float32)
print(f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.bits, f.dtype)
print(torch.iinfo(torch.int8).max, torch.iinfo(torch.int16).min, torch.iinfo(torch.int8).bits, torch.iinfo(torch.int8).dtype)
print(torch.finfo(torch.complex64), torch.finfo(torch.complex128).eps)
E(lambda: torch.finfo(torch.int32))
E(lambda: torch.iinfo(torch.float32))
'''

# fixed: item() / complex() of a one-element complex32 tensor of any shape (before: only a 0-d one).
# The unsigned dtypes and complex32 (with its experimental-support warning): reprs, tolist, item.
PROGRAMS['exotic_dtypes_print'] = PRE + r'''
print(torch.tensor([1, 2], dtype=torch.uint16), torch.tensor([1], dtype=torch.uint32), torch.tensor([3], dtype=torch.uint64))
print(torch.tensor([1 + 2j], dtype=torch.complex32), torch.tensor([0.1 + 0.2j], dtype=torch.chalf))
print(torch.uint16, torch.chalf, torch.cdouble, torch.uint32.is_signed, torch.complex32.is_complex)
print(torch.tensor([1, 2], dtype=torch.uint16).tolist(), torch.tensor(1 + 2j, dtype=torch.complex32).item())
c = torch.tensor([[0.1 - 3j]], dtype=torch.complex32)
print(c.item(), complex(c), c.tolist(), c[0].tolist(), f"{c[0, 0]}", f"{c[0, 0]:.3f}")
E(lambda: float(c))
print(torch.tensor([70000], dtype=torch.uint32), torch.tensor([2**40], dtype=torch.uint64).item())
'''

# With a float64 default, float32 tensors show their dtype and complex128 is the unnamed complex.
PROGRAMS['default_dtype_float64_prints'] = PRE + r'''
torch.set_default_dtype(torch.float64)
print(torch.tensor([1.5, 2.0]), torch.tensor([1.5], dtype=torch.float32), torch.zeros(2, dtype=torch.float32))
print(torch.tensor(1j), torch.tensor([1j], dtype=torch.complex64), torch.tensor([1j], dtype=torch.complex128))
print(torch.tensor([], dtype=torch.float32), torch.tensor([]), torch.tensor([], dtype=torch.complex64))
print(torch.nn.Linear(1, 1).weight.dtype, torch.arange(3.0), torch.randn(0).dtype)
x = torch.tensor([1.0], requires_grad=True)
print(x * 2, x.float() * 2)
torch.set_default_dtype(torch.float32)
print(torch.tensor([1.5]), torch.tensor([1.5], dtype=torch.float64), torch.tensor(1j))
'''

# With a float16 default, Python complex numbers become complex32; with bfloat16, float16 shows its dtype.
PROGRAMS['default_dtype_half_prints'] = PRE + r'''
torch.set_default_dtype(torch.float16)
print(torch.tensor([1.5, 0.1]), torch.tensor([1.5], dtype=torch.float32), torch.tensor(1j), torch.tensor([1j], dtype=torch.complex64))
print(torch.tensor([]), torch.tensor([], dtype=torch.float32), torch.get_default_dtype(), torch.tensor(1j).dtype)
torch.set_default_dtype(torch.bfloat16)
print(torch.tensor([1.5, 0.1]), torch.tensor(0.1).item(), torch.tensor([2.0], dtype=torch.float16))
torch.set_default_dtype(torch.float32)
E(lambda: torch.set_default_dtype(torch.int64))
print(torch.tensor([1.5]))
'''

# fixed: under a float16 default a Python complex becomes complex32 (torch.tensor, promotion with int
# tensors, result_type) but full() takes complex64; bfloat16 has no complex type.
PROGRAMS['fixed_default_half_complex_numbers'] = PRE + r'''
torch.set_default_dtype(torch.float16)
print(torch.tensor(1j), torch.tensor([1, 2j]), torch.as_tensor(0.5 + 1j))
print(torch.arange(3) * 1j, torch.tensor([True]) * 1j, torch.result_type(torch.tensor([1]), 1j))
print(torch.full((2,), 1j), torch.ones(1, dtype=torch.float64) * 1j, torch.ones(2) + 1j)
torch.set_default_dtype(torch.bfloat16)
E(lambda: torch.tensor(1j))
print(torch.arange(2) * 1j, torch.full((1,), 2j), torch.ones(1) * 1j)
torch.set_default_dtype(torch.float32)
print(torch.tensor(1j), torch.arange(2) * 1j)
'''

# torch.device('cuda' if available else 'cpu') and the CPU-only build's answers and errors.
PROGRAMS['device_boilerplate_prints'] = PRE + r'''
device = torch.device('cuda' if torch.cuda.is_available() else 'cpu')
print(device, repr(device), torch.cuda.is_available(), torch.cuda.device_count(), torch.backends.mps.is_available())
x = torch.tensor([1.0, 2.0]).to(device)
print(x, x.device, x.is_cuda, x.cpu(), x.cpu().numpy(), x.to('cpu', torch.float64))
print(torch.device('cpu') == torch.device('cpu:0'), torch.device('cpu') == 'cpu', str(torch.device('cuda:1')), torch.device('cuda', 0))
print(torch.zeros(1, device='cpu').device, torch.zeros(1, device=device).device.type)
E(lambda: torch.zeros(1).cuda())
E(lambda: torch.zeros(1, device='cuda'))
E(lambda: torch.device('gpu'))
m = torch.nn.Linear(1, 1).to(device)
print(next(m.parameters()).device, torch.get_default_device() if hasattr(torch, 'get_default_device') else '')
print(torch.version.cuda, torch.backends.cudnn.is_available(), torch.cuda.is_available() and torch.cuda.get_device_name(0))
'''

# is_tensor / numel / promote_types / can_cast, the constants, and the classes' reprs.
PROGRAMS['version_and_misc_module_prints'] = PRE + r'''
print(torch.is_tensor(torch.ones(1)), torch.is_tensor([1]), torch.numel(torch.ones(2, 3)), torch.is_floating_point(torch.ones(1)))
print(torch.is_grad_enabled(), torch.get_default_dtype(), torch.is_complex(torch.ones(1)), torch.is_nonzero(torch.tensor([1])))
print(torch.promote_types(torch.int32, torch.float16), torch.can_cast(torch.float32, torch.int32), torch.result_type(torch.ones(1), 2.0))
print(torch.float32 == torch.float, torch.float32 is torch.float, torch.int64 == torch.long, torch.double in (torch.float64,))
print(torch.pi if hasattr(torch, 'pi') else '', torch.inf, torch.nan, -torch.inf, torch.e if hasattr(torch, 'e') else '')
print(torch.tensor(torch.pi), torch.tensor([torch.e, torch.inf, torch.nan]))
print(type(torch.float32), torch.dtype, torch.device, torch.Size, torch.Tensor)
print(torch.nn.Module, torch.nn.Linear, torch.optim.SGD, torch.autograd.Function)
'''

# manual_seed returns the default Generator; seeded draws; get_rng_state / set_rng_state.
PROGRAMS['seed_and_generator_prints'] = PRE + r'''
g = torch.manual_seed(0)
print(type(g).__name__, torch.initial_seed(), g.initial_seed())
print(torch.rand(3), torch.randint(0, 10, (5,)), torch.randn(2, 2))
gen = torch.Generator().manual_seed(123)
print(torch.randn(3, generator=gen), gen.initial_seed(), torch.rand(2, generator=gen))
state = torch.get_rng_state()
print(state.dtype, state.shape)
a = torch.rand(2)
torch.set_rng_state(state)
print(torch.equal(a, torch.rand(2)), a)
print(torch.randperm(6), torch.multinomial(torch.tensor([0.1, 0.9]), 4, replacement=True), torch.normal(0.0, 1.0, (2,)))
print(torch.bernoulli(torch.full((4,), 0.5)), torch.empty(3).uniform_(-1, 1), torch.empty(2).normal_(5, 0.1))
'''

# torch.Size from ints, 0-d tensors, NumPy ints, arrays and ranges; its tuple arithmetic and errors.
PROGRAMS['size_construction_and_errors'] = PRE + r'''
import numpy as np
s = torch.Size([2, 3])
E(lambda: s + [4])
E(lambda: torch.Size([2.5]))
E(lambda: torch.Size(['a']))
E(lambda: torch.Size(3))
print(torch.Size([torch.tensor(2), np.int64(3)]), torch.Size(np.array([2, 3])), torch.Size(range(3)))
print(s + s, s * 0, 2 * s, s[:0], s[::2], type(s[:1]).__name__, type(s + s).__name__, type(2 * s).__name__)
print(torch.ones(2, 3).view(s).shape, torch.ones(6).reshape(s), torch.zeros(s), torch.ones(*s).shape, torch.empty(torch.Size([0])).shape)
print(torch.ones(4, 5).reshape(torch.ones(4, 5).shape[0], -1).shape, torch.ones(4, 5).size()[0] * 2, torch.ones(4, 5).size(dim=1))
print(s == (2, 3), s != torch.Size([3, 2]), s < (3,), s > torch.Size([2]), s.index(3), (2, 3) == s)
print(repr(torch.Size([1])), str(torch.Size([])), torch.Size([1, 2]).__class__, list(reversed(s)), sorted(torch.Size([3, 1, 2])))
E(lambda: s.__setitem__(0, 5))
print(torch.Size([2, 3]).numel(), torch.Size([]).numel(), torch.Size([0, 5]).numel(), torch.ones(2, 3).numel())
print(dict(shape=s), [*s, 4], (*s,), {s: 'a'}[torch.Size([2, 3])], hash(s) == hash((2, 3)))
'''

# type(...) of tensors, nodes, modules, optimizers, data utilities: PyTorch's module paths.
PROGRAMS['type_names_printed'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x * 2).sum()
print(type(x), x.__class__, torch.Tensor.__name__, type(x) is torch.Tensor, isinstance(x, torch.Tensor))
print(type(torch.nn.Parameter(torch.ones(1))), type(y.grad_fn), type(y.grad_fn.next_functions[0][0].next_functions[0][0]))
print(type(torch.float32), type(torch.ones(2).shape), type(x.device), type(torch.max(x, 0)), type(torch.finfo(torch.float32)))
model = torch.nn.Sequential(torch.nn.Linear(1, 1))
print(type(model), type(model[0]), type(torch.nn.MSELoss()), type(torch.nn.ReLU()), type(torch.nn.Conv2d(1, 1, 1)))
print(type(torch.optim.SGD(model.parameters(), lr=0.1)), type(torch.optim.Adam(model.parameters())))
print(type(torch.utils.data.DataLoader([1])), type(torch.utils.data.TensorDataset(x)), type(torch.Generator()))
print(type(torch.no_grad()), type(torch.distributions.Normal(0.0, 1.0)), type(x.untyped_storage()), type(x.detach().numpy()))
print(type(model.state_dict()), type(model.parameters()).__name__, type(model.named_parameters()).__name__, type(x.tolist()))
print(type(x.layout), type(torch.iinfo(torch.int8)), type(torch.autograd.Function))
print(type(torch.optim.lr_scheduler.StepLR(torch.optim.SGD(model.parameters(), lr=0.1), 1)))
print(type(torch.nn.functional.relu).__name__, type(torch.nn.init.normal_).__name__, type(y.grad_fn).__module__)
'''

# fixed: the CPU-only build's torch.cuda answers what a GPU recipe prints (memory counters 0, an empty
# memory_stats, no architectures; device queries fail; before: max_memory_allocated ... were missing).
PROGRAMS['cuda_calls_on_cpu_build'] = PRE + r'''
E(lambda: torch.cuda.memory_allocated())
E(lambda: torch.cuda.max_memory_allocated())
E(lambda: torch.cuda.empty_cache())
E(lambda: torch.cuda.manual_seed(0))
E(lambda: torch.cuda.manual_seed_all(0))
E(lambda: torch.cuda.get_device_name(0))
E(lambda: torch.cuda.synchronize())
E(lambda: torch.cuda.current_device())
E(lambda: torch.cuda.is_initialized())
E(lambda: torch.cuda.device_count())
E(lambda: torch.cuda.get_device_properties(0))
torch.backends.cudnn.benchmark = True
torch.backends.cudnn.deterministic = True
print(torch.backends.cudnn.benchmark, torch.backends.cudnn.deterministic, torch.backends.cudnn.enabled)
E(lambda: torch.ones(1).pin_memory())
E(lambda: torch.ones(1).to('cuda:0'))
E(lambda: torch.nn.Linear(1, 1).cuda())
print(torch.ones(1).to('cpu', non_blocking=True), torch.nn.Linear(1, 1).cpu().weight.device)
for name in ['memory_allocated', 'max_memory_allocated', 'memory_reserved', 'max_memory_reserved', 'memory_stats',
             'get_arch_list', 'get_device_capability', 'mem_get_info', 'is_bf16_supported']:
    print(name, end=': ')
    E(lambda: getattr(torch.cuda, name)())
print(f"peak memory: {torch.cuda.max_memory_allocated() / 1e6:.1f} MB", torch.cuda.memory_reserved(0))
'''

# Backend flags and global switches a recipe sets and prints (matmul precision, determinism, cuDNN).
PROGRAMS['backend_flags_prints'] = PRE + r'''
E(lambda: torch.backends.mps.is_built())
E(lambda: torch.backends.cuda.is_built())
E(lambda: torch.get_float32_matmul_precision())
E(lambda: torch.set_float32_matmul_precision('high'))
E(lambda: torch.get_float32_matmul_precision())
E(lambda: torch.set_float32_matmul_precision('medium'))
E(lambda: torch.set_float32_matmul_precision('fast'))
torch.set_float32_matmul_precision('highest')
E(lambda: torch.backends.cuda.matmul.allow_tf32)
E(lambda: torch.backends.cudnn.allow_tf32)
E(lambda: torch.backends.cudnn.version())
E(lambda: torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(True)
E(lambda: torch.are_deterministic_algorithms_enabled())
torch.use_deterministic_algorithms(False)
E(lambda: torch.is_anomaly_enabled())
E(lambda: torch.is_autocast_enabled())
'''

# ---- reprs of values: dtypes, grad_fn, special values, 0-d, empty, views

# Suffixes: dtype= then grad_fn= / requires_grad=True, for each float and complex dtype.
PROGRAMS['print_with_grad_fn_dtypes'] = PRE + r'''
a = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
print(a, a * 2, a.sum(), a.mean())
b = torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True)
print(b, b * 3, (b * 3).sum())
c = torch.tensor([1.5, 2.25], dtype=torch.bfloat16, requires_grad=True)
print(c, c.exp(), c.sum())
d = torch.tensor([1 + 1j, 2 - 1j], requires_grad=True)
print(d, d * d, d.abs(), (d * d).real)
e = torch.tensor([1.0, 2.0], requires_grad=True)
print(e.double(), e.half(), e.to(torch.bfloat16), e.to(torch.complex64))
print(e.detach(), e.data, e.clone(), e.view(2, 1), e[0], e[1:])
'''

# nan / inf / -0.0 and the thresholds that switch to scientific notation (1e-4, 1e8, a ratio of 1000).
PROGRAMS['print_special_values'] = PRE + r'''
print(torch.tensor([float('nan'), float('inf'), -float('inf'), -0.0, 0.0]))
print(torch.tensor([float('nan'), 1.0, 2.0]), torch.tensor([float('inf'), 1.5]))
print(torch.tensor(-0.0), torch.tensor([-0.0]), torch.tensor([-0.0, 1.0]), torch.tensor([-0.0, 1.5]))
print(torch.tensor([float('nan')]), torch.tensor(float('-inf')), torch.tensor([float('nan')], dtype=torch.float64))
print(torch.tensor([1e-10, 1.0]), torch.tensor([1e10, 1.0]), torch.tensor([1e-5]), torch.tensor([123456789.0]))
print(torch.tensor([1e-45, 3.4e38]), torch.tensor([1e-300], dtype=torch.float64), torch.tensor([1e308], dtype=torch.float64))
print(torch.tensor([65504.0], dtype=torch.float16), torch.tensor([6e-8], dtype=torch.float16), torch.tensor([70000.0]).half())
print(torch.tensor([1e38], dtype=torch.bfloat16), torch.tensor([3.0e38]).bfloat16() * 10)
print(torch.tensor([0.1, 0.25, 1000.5]), torch.tensor([0.0001, 0.001]), torch.tensor([0.00009999]))
print(torch.tensor([100000000.0]), torch.tensor([99999999.0]), torch.tensor([1000.0, 1.0]), torch.tensor([1001.0, 1.0]))
print(torch.tensor([1.0, -1.0, float('nan')], requires_grad=True))
print(torch.tensor([float('nan'), float('inf')], dtype=torch.complex64), torch.tensor([complex(0, float('nan'))]))
'''

# Whole numbers in a float tensor print with a trailing '.' (int mode) unless scientific notation wins.
PROGRAMS['integers_stored_in_floats'] = PRE + r'''
print(torch.tensor([1.0, 2.0, 3.0]), torch.tensor([1.0, -2.0]), torch.tensor([100.0, 2000.0]))
print(torch.tensor(5.0), torch.tensor(-5.0), torch.tensor(0.0), torch.tensor([0.0, 0.0]))
print(torch.tensor([1e8, 1.0]), torch.tensor([1e7, 1.0]), torch.tensor([123456.0]), torch.tensor([1e15]))
print(torch.arange(5.0), torch.arange(0, 1, 0.25), torch.linspace(0, 10, 5))
print(torch.tensor([2.0, 3.0], dtype=torch.float64), torch.tensor([2.0], dtype=torch.float16), torch.tensor([256.0], dtype=torch.bfloat16))
print(torch.tensor([1.0, float('nan'), 3.0]), torch.tensor([2.0, float('inf')]))
print(torch.tensor([[1.0, 2.0], [10.0, 200.0]]), torch.tensor([1.0, 2.0]) / 2)
print(torch.ones(2, 2, requires_grad=True) * 4)
'''

# Integer and bool reprs: no dtype suffix for int64 and bool, the width of the widest value.
PROGRAMS['print_int_bool_dtypes'] = PRE + r'''
print(torch.tensor([1, 2, 3], dtype=torch.int32), torch.tensor([1, -2], dtype=torch.int8))
print(torch.tensor([255], dtype=torch.uint8), torch.tensor([1, 2], dtype=torch.int16), torch.tensor([1, 2]))
print(torch.tensor([True, False]), torch.tensor(True), torch.tensor([[True], [False]]))
print(torch.tensor([], dtype=torch.int64), torch.tensor([], dtype=torch.bool), torch.tensor([], dtype=torch.int32))
print(torch.zeros(2, 0, dtype=torch.int64), torch.zeros(0, 3), torch.zeros(0, 3, dtype=torch.float64))
print(torch.tensor([2**62, -2**62]), torch.tensor([-9223372036854775808]))
print(torch.arange(12, dtype=torch.int32).reshape(3, 4), torch.tensor(7, dtype=torch.int16))
print(torch.tensor([1, 2]) > 1, (torch.tensor([1.0, 2.0], requires_grad=True) > 1))
print(torch.tensor([1, 1000000]), torch.tensor([-5, 10000]))
'''

# 0-d tensors of each dtype, with grad_fn, inside lists / tuples / dicts (repr of each element).
PROGRAMS['print_0d_variants'] = PRE + r'''
print(torch.tensor(3.0), torch.tensor(3.5), torch.tensor(1e-5), torch.tensor(1e10), torch.tensor(12345.678))
print(torch.tensor(3.0, dtype=torch.float64), torch.tensor(3.5, dtype=torch.float16), torch.tensor(3.5, dtype=torch.bfloat16))
print(torch.tensor(3), torch.tensor(3, dtype=torch.int8), torch.tensor(False), torch.tensor(1 + 0j), torch.tensor(-1.5j))
x = torch.tensor(2.0, requires_grad=True)
print(x, x * x, (x * x).sqrt(), x.exp(), -x, x ** 0.5, abs(x))
print(x.double() * 2, x.half() + 1, x.to(torch.complex64))
print(repr(x), str(x))
print([x, x * 2], (x,), {'x': x})
'''

# Empty tensors show size= unless (0,) and dtype= unless the default float.
PROGRAMS['print_empty_variants'] = PRE + r'''
print(torch.tensor([]), torch.empty(0), torch.zeros(0, 2), torch.zeros(2, 0, 3))
print(torch.tensor([], requires_grad=True), torch.tensor([], requires_grad=True) * 2, torch.zeros(0, 2, requires_grad=True).sum(0))
print(torch.tensor([], dtype=torch.float64), torch.tensor([], dtype=torch.float16), torch.tensor([], dtype=torch.complex64))
print(torch.zeros(0, dtype=torch.bfloat16), torch.zeros(3, 0).T)
print(torch.zeros(0).sum(), torch.zeros(0).mean(), torch.zeros(0, 4).sum(0))
print(torch.zeros(0).shape, torch.zeros(0).tolist(), torch.zeros(0).numel())
'''

# Complex values: one format for the real parts and one for the imaginary parts; conj and views.
PROGRAMS['complex_print_layouts'] = PRE + r'''
print(torch.tensor([1 + 2j, 3 - 0j]), torch.tensor([1.5 + 2j, -3.25 - 1j]))
print(torch.tensor([1e10 + 1e-10j]), torch.tensor([0.001 + 1000j, 1 + 1j]))
print(torch.tensor([complex(0, -0.0)]), torch.tensor([complex(-0.0, 0)]), torch.tensor(-1j))
print(torch.tensor([1 + 1j], dtype=torch.complex128), torch.tensor([[1 + 1j, 2], [3j, -4]]))
print(torch.tensor([complex(float('inf'), 1), complex(1, float('nan'))]))
x = torch.tensor([1 + 1j, 2 - 3j], requires_grad=True)
print(x.conj(), x.conj().is_conj(), (x * 1j).imag, x.angle(), x.abs())
print(torch.view_as_real(x.detach()), torch.view_as_complex(torch.tensor([[1.0, 2.0]])))
torch.set_printoptions(precision=2)
print(torch.tensor([1/3 + 2j/3]), torch.tensor([1e-5 + 1j]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1 + 1j, 2.5 - 3j]))
torch.set_printoptions(profile='default')
print(torch.polar(torch.tensor([1.0, 2.0]), torch.tensor([0.0, 3.14159265 / 2])))
'''

# A Tensor subclass prints with its class name as prefix and refuses a format spec.
PROGRAMS['subclass_repr'] = PRE + r'''
class MyT(torch.Tensor):
    pass
x = torch.tensor([1.0, 2.0]).as_subclass(MyT)
print(x, type(x).__name__)
print(x * 2, type(x * 2).__name__)
print(x.sum())
y = torch.tensor([1.0, 2.0], requires_grad=True).as_subclass(MyT)
print(y, y.requires_grad)
print(torch.tensor(3.0).as_subclass(MyT))
print(f"{torch.tensor(3.0).as_subclass(MyT)}")
E(lambda: f"{torch.tensor(3.0).as_subclass(MyT):.2f}")
'''

# Views (transpose, expand, diagonal, as_strided, unbind ...) print their values and grad_fn.
PROGRAMS['views_print'] = PRE + r'''
x = torch.arange(12.0).reshape(3, 4)
print(x.t(), x[:, ::2], x[::-1] if False else x.flip(0), x.expand(2, 3, 4)[1])
print(x.unsqueeze(0).expand(2, 3, 4).stride(), torch.tensor(5.0).expand(3))
print(x.diagonal(), x.T.contiguous().view(-1), x.narrow(1, 1, 2), x.unfold(1, 2, 2))
print(x.as_strided((2, 2), (1, 4)), x.select(1, 3), x[..., None].shape, x.movedim(0, 1))
y = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
print(y[1:], y.view(3, 1), y.unsqueeze(0).t(), y.expand(2, 3), y.flip(0), y[[0, 2]], y[y > 1])
print(y.unbind(), y.split(2), y.chunk(3), y.t())
'''

# In-place ops on a non-leaf rename its grad_fn (AddBackward0, CopySlices, ClampBackward1 ...).
PROGRAMS['inplace_and_copyslices_grad_fn'] = PRE + r'''
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
y.add_(1)
print(y)
y[0] = 10
print(y)
y.mul_(2).clamp_(max=25)
print(y)
z = x.clone()
z[1:] *= 3
print(z, z.grad_fn.next_functions)
w = x.detach()
w.zero_()
print(x, w)
v = y.view(3, 1)
v.sub_(1)
print(y, v)
y.sum().backward()
print(x.grad)
'''

# Sums of bools and ints are int64; mean()/std() of an integer tensor are errors.
PROGRAMS['reductions_on_ints_and_bools'] = PRE + r'''
b = torch.tensor([True, False, True])
print(b.sum(), b.sum().dtype, b.float().mean(), b.any(), b.all(), b.int().sum())
i = torch.tensor([1, 2, 4])
print(i.sum(), i.prod(), i.max(), i.argmax(), i.cumsum(0), i.sum(dtype=torch.float64), i.float().std())
E(lambda: i.mean())
E(lambda: i.std())
print(i.to(torch.float16).mean(), i.to(torch.int8).sum().dtype, i.to(torch.uint8).sum().dtype, i.double().mean())
print(torch.tensor([1.0, 2.0], dtype=torch.float16).sum(), torch.tensor([1.0, 2.0], dtype=torch.bfloat16).mean())
print((i > 1).sum().item(), type((i > 1).sum().item()).__name__, (i == 2).nonzero(), torch.where(i > 1))
print(i.argmax().item(), torch.argmax(torch.tensor([[1, 9], [3, 2]]), dim=1))
'''

# one_hot, fancy indexing, argmax and softmax as a classifier's student prints them.
PROGRAMS['one_hot_and_index_prints'] = PRE + r'''
labels = torch.tensor([0, 2, 1])
print(torch.nn.functional.one_hot(labels), torch.nn.functional.one_hot(labels, 4).float())
print(torch.arange(6).reshape(3, 2)[labels, torch.tensor([0, 1, 1])], torch.eye(3)[labels])
x = torch.tensor([[3.0, 1.0, 2.0]]).argsort(dim=1)
print(x)
scores = torch.tensor([[0.1, 0.7, 0.2], [0.5, 0.25, 0.25]])
pred = scores.argmax(dim=1)
print(pred, pred.tolist(), (pred == torch.tensor([1, 0])).sum().item(), scores.max(1).values)
print(torch.softmax(scores, dim=1), scores.softmax(-1).sum(1))
print(torch.nn.functional.softmax(torch.tensor([1.0, 2.0, 3.0], requires_grad=True), dim=0))
'''

# torch.return_types reprs (max, sort, topk, median, var_mean ...) and their fields.
PROGRAMS['return_types_printed'] = PRE + r'''
x = torch.tensor([[3.0, 1.0, 2.0], [0.5, 4.0, 4.0]], requires_grad=True)
print(torch.max(x, 1))
print(x.min(dim=0))
print(x.sort(descending=True))
print(torch.topk(x, 2))
r = x.median(1)
print(r.values, r.indices, r[0], len(r), type(r).__name__)
v, i = x.max(0)
print(v, i)
print(torch.var_mean(x, 1))
print(torch.std_mean(x))
print(x.kthvalue(2, 1), x.mode(1))
print(torch.cummax(x, 1))
print(x.aminmax())
print(torch.sort(torch.tensor([2, 1])), torch.max(torch.tensor([[1, 5]]), 1, keepdim=True))
'''

# A suffix that does not fit the line width goes on a line of its own.
PROGRAMS['suffix_wrapping_long_grad_fn'] = PRE + r'''
x = torch.randn(3, 5, generator=torch.Generator().manual_seed(0), requires_grad=True)
t = torch.ones(3, 5)
loss = torch.nn.functional.binary_cross_entropy_with_logits(x, t, reduction='none')
print(loss)
print(loss.mean())
torch.set_printoptions(linewidth=40)
print(loss[0])
print(loss.mean(), x[0, :2].double())
print(torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True).exp())
torch.set_printoptions(linewidth=20)
print(torch.tensor(1.5, requires_grad=True) * 2, torch.tensor([], dtype=torch.int32))
torch.set_printoptions(profile='default')
print(torch.zeros(2, 0, dtype=torch.float64, requires_grad=True) * 1)
'''

# pprint of state dicts and dicts of tensors: reprs nested in containers keep their own indentation.
PROGRAMS['pprint_and_containers'] = PRE + r'''
import pprint
torch.manual_seed(0)
m = torch.nn.Linear(2, 2)
pprint.pprint(m.state_dict())
pprint.pprint({'loss': torch.tensor(0.25), 'acc': 0.5, 'preds': torch.tensor([1, 0])}, width=40)
pprint.pprint([torch.zeros(2, 3), torch.ones(2)])
print(str([torch.tensor(1.5), torch.tensor([1, 2])]), repr((torch.tensor([]),)))
print({torch.tensor(1).item(): 'one'}, set([torch.tensor(1).item(), 1]))
print([t.item() for t in torch.tensor([1.5, 2.5])], [float(t) for t in torch.tensor([0.1])])
'''

# Tuples returned by unique, meshgrid (warning without indexing=), nonzero(as_tuple), chunk, split.
PROGRAMS['unique_meshgrid_tuples'] = PRE + r'''
x = torch.tensor([3, 1, 2, 3, 1, 1])
print(torch.unique(x), torch.unique(x, return_counts=True), x.unique(sorted=True, return_inverse=True))
print(torch.bincount(x), torch.histc(x.float(), bins=3), torch.unique_consecutive(x))
a, b = torch.tensor([1, 2]), torch.tensor([3, 4, 5])
print(torch.meshgrid(a, b))
print(torch.meshgrid(a, b, indexing='xy'))
print(torch.nonzero(torch.tensor([[0, 1], [1, 0]]), as_tuple=True), torch.where(torch.tensor([0.0, 2.0]) > 1))
print(torch.tensor([4, 5, 6]).chunk(2), torch.arange(5).split([2, 3]), torch.tensor([[1, 2], [3, 4]]).unbind(1))
print(torch.broadcast_tensors(torch.ones(2, 1), torch.zeros(3)), torch.atleast_2d(torch.tensor(1.0)))
'''

# Sparse COO reprs: indices=, values=, size=, nnz=, layout=.
PROGRAMS['sparse_prints'] = PRE + r'''
i = torch.tensor([[0, 1, 1], [2, 0, 2]])
v = torch.tensor([3.0, 4.0, 5.0])
s = torch.sparse_coo_tensor(i, v, (2, 3))
print(s)
print(s.to_dense(), s.layout, s.is_sparse, s._nnz() if hasattr(s, '_nnz') else '')
print(torch.eye(2).to_sparse())
print(torch.zeros(2, 3).to_sparse())
print(s.coalesce().indices(), s.coalesce().values())
d = torch.tensor([[0.0, 1.5], [2.0, 0.0]], requires_grad=True)
print(d.to_sparse())
'''

# fixed: a 0-d meta tensor formats as its repr in an f-string (no value to format; before: item()'s error).
# Meta reprs show '...', the device and the size.
PROGRAMS['meta_and_empty_like_prints'] = PRE + r'''
m = torch.empty(2, 3, device='meta')
print(m, m.shape, m.device, m.is_meta)
print(torch.zeros(2, device='meta', dtype=torch.float64), torch.ones(1, device='meta', requires_grad=True) * 2)
print(torch.empty(0, device='meta'), torch.empty((), device='meta'))
E(lambda: m.item())
E(lambda: m.tolist())
E(lambda: m.numpy())
print(f"{torch.empty((), device='meta')}")
'''

# ---- print options, summaries, wrapping

# precision and sci_mode; set_printoptions without sci_mode resets it to automatic.
PROGRAMS['printoptions_precision_sci'] = PRE + r'''
x = torch.tensor([1.123456789, 22.5, 0.000123])
torch.set_printoptions(precision=2)
print(x, x * 1000)
torch.set_printoptions(precision=8)
print(x, torch.tensor(1/3), torch.tensor([1/3], dtype=torch.float64))
torch.set_printoptions(sci_mode=False)
print(x, torch.tensor([1e-8, 1e8]))
torch.set_printoptions(sci_mode=True)
print(torch.tensor([1.0, 2.0]), torch.tensor(3.0), torch.tensor([0.0]))
torch.set_printoptions(precision=0)
print(torch.tensor([1.5, 2.5, 3.49]))
torch.set_printoptions(precision=0, sci_mode=True)
print(torch.tensor([1.5, 250.0]))
print(torch.get_printoptions() if hasattr(torch, 'get_printoptions') else '')
torch.set_printoptions(profile='default')
print(x)
'''

# threshold decides summarizing, edgeitems how many rows/items each side (0: size= suffix).
PROGRAMS['printoptions_threshold_edgeitems'] = PRE + r'''
torch.set_printoptions(threshold=5)
print(torch.arange(10), torch.arange(5), torch.arange(6.0))
print(torch.arange(24).reshape(4, 6))
torch.set_printoptions(edgeitems=1)
print(torch.arange(24).reshape(2, 3, 4))
torch.set_printoptions(edgeitems=0)
print(torch.arange(10.0))
print(torch.arange(12).reshape(3, 4))
torch.set_printoptions(profile='default')
torch.set_printoptions(threshold=0)
print(torch.tensor(5.0), torch.tensor([1.0]), torch.tensor([1.0, 2.0]))
torch.set_printoptions(profile='default')
print(torch.arange(1001))
'''

# linewidth decides how many elements a line holds (and where complex values wrap).
PROGRAMS['printoptions_linewidth'] = PRE + r'''
torch.set_printoptions(linewidth=30)
x = torch.linspace(0, 1, 12)
print(x)
print(x.reshape(3, 4))
print(torch.arange(20))
print(torch.tensor([1.0, 2.0], requires_grad=True) * 2)
torch.set_printoptions(linewidth=200)
print(torch.linspace(-1, 1, 25))
torch.set_printoptions(linewidth=10)
print(torch.tensor([123456.5, 2.0]), torch.tensor([1 + 2j, 3 - 4j]))
torch.set_printoptions(profile='default')
print(torch.linspace(0, 1, 12))
'''

# The 'short' / 'full' / 'default' profiles; an unknown profile name changes nothing.
PROGRAMS['printoptions_profiles'] = PRE + r'''
x = torch.linspace(0, 1, 2000)
torch.set_printoptions(profile='short')
print(x, torch.tensor([3.14159]))
print(torch.arange(30).reshape(5, 6))
torch.set_printoptions(profile='full')
print(torch.arange(40).reshape(4, 10))
print(torch.linspace(0, 1, 30))
torch.set_printoptions(profile='default')
print(x)
torch.set_printoptions(profile='nonsense')
print(torch.tensor([3.14159]))
torch.set_printoptions(profile='short', precision=6)
print(torch.tensor([3.14159265]))
torch.set_printoptions(profile='default')
'''

# sci_mode=False with huge / tiny values, precision beyond float32's digits, threshold=inf.
PROGRAMS['printoptions_extremes'] = PRE + r'''
torch.set_printoptions(sci_mode=False)
print(torch.tensor([1e20, 1.0]), torch.tensor([1e-20, 1.0]), torch.tensor([123456789.0]))
print(torch.tensor([1e-5, 0.5]), torch.tensor(1e-9), torch.tensor([3.4e38]))
torch.set_printoptions(precision=10)
print(torch.tensor([0.1, 0.2]), torch.tensor([0.1], dtype=torch.float64), torch.tensor([0.1], dtype=torch.float16), torch.tensor([0.1], dtype=torch.bfloat16))
torch.set_printoptions(precision=12, sci_mode=True)
print(torch.tensor([0.1]), torch.tensor(1/3, dtype=torch.float64))
torch.set_printoptions(threshold=float('inf'))
print(torch.arange(1200).reshape(40, 30).sum(0))
torch.set_printoptions(threshold=1, edgeitems=5)
print(torch.arange(8), torch.arange(11), torch.arange(12.0).reshape(3, 4))
torch.set_printoptions(edgeitems=2, threshold=3)
print(torch.arange(24).reshape(2, 3, 4), torch.tensor([[True, False, True, True, False]]))
torch.set_printoptions(profile='default')
'''

# torch._tensor_str's PRINT_OPTS, get_printoptions and the printoptions context manager.
PROGRAMS['printoptions_context_and_get'] = PRE + r'''
import torch._tensor_str as ts
print(ts.PRINT_OPTS.precision, ts.PRINT_OPTS.threshold, ts.PRINT_OPTS.edgeitems, ts.PRINT_OPTS.linewidth, ts.PRINT_OPTS.sci_mode)
torch.set_printoptions(precision=3, linewidth=40)
print(ts.PRINT_OPTS.precision, ts.PRINT_OPTS.linewidth, ts.get_printoptions())
with ts.printoptions(precision=1):
    print(torch.tensor([1.2345]), ts.PRINT_OPTS.precision)
print(torch.tensor([1.2345]))
torch.set_printoptions(precision=5)
print(ts.PRINT_OPTS.linewidth, torch.tensor([1/3]))
torch.set_printoptions()
print(ts.PRINT_OPTS.precision, ts.PRINT_OPTS.sci_mode)
torch.set_printoptions(profile='default')
print(ts.PRINT_OPTS.precision)
'''

# Tensors of more than 1000 elements summarize with '...' rows and items.
PROGRAMS['summarize_large_tensors'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(100, 100)
print(x)
print(x.sum(1))
y = torch.arange(2000).reshape(2, 1000)
print(y)
z = torch.zeros(10, 10, 11)
print(z.shape, z[0, 0])
print(z)
w = torch.randn(1001, requires_grad=True)
print(w * 2)
'''

# Rows longer than 80 characters wrap, each continuation indented under the first element.
PROGRAMS['wide_rows_wrap'] = PRE + r'''
torch.manual_seed(0)
print(torch.randn(20))
print(torch.randn(3, 15))
print(torch.arange(30) * 1000)
print(torch.randn(12, dtype=torch.float64) * 1e5)
print(torch.randn(3, 3, 9))
print(torch.randn(15, requires_grad=True).exp())
print(torch.randn(10, dtype=torch.complex64))
'''

# Summaries of bool and integer tensors (widths from the shown values only).
PROGRAMS['bool_and_int_summaries'] = PRE + r'''
print(torch.ones(2000, dtype=torch.bool))
print(torch.arange(-1000, 1000))
print(torch.arange(-1000, 1000).reshape(40, 50))
print(torch.ones(3000, dtype=torch.int8) * -3)
print(torch.zeros(1500, dtype=torch.uint8).reshape(30, 50) == 0)
print((torch.arange(1200) % 3 == 0).reshape(2, 600))
'''

# Summaries of float16 / bfloat16 / float64 / complex tensors.
PROGRAMS['low_precision_summaries'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(2000)
print(x.half())
print(x.bfloat16())
print((x * 1000).half().reshape(40, 50))
print(x.double().reshape(2, 1000) * 1e-6)
print(torch.randn(1100, dtype=torch.complex64))
'''

# ---- grad_fn, next_functions, gradients, hooks

# grad_fn's type name and name(), next_functions tuples (AccumulateGrad, None for constants).
PROGRAMS['grad_fn_str_and_next_functions'] = PRE + r'''
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b + a.exp()
loss = c.sum()
print(str(loss.grad_fn).split(' object')[0], type(loss.grad_fn).__name__, loss.grad_fn.name())
print(loss.grad_fn.next_functions)
print(c.grad_fn.next_functions)
print(c.grad_fn.next_functions[0][0].next_functions)
print(a.grad_fn, (a * 2).grad_fn.next_functions[0][0].variable)
d = a.detach() * 2
print(d.grad_fn, d.requires_grad)
e = a[0] + a.view(2, 1).t().squeeze()[1] + a.sum()
print(e, e.grad_fn.next_functions)
f = torch.cat([a, b]).reshape(2, 2).mean(0).max()
print(f)
print(f.grad_fn.next_functions)
'''

# The grad_fn class names of seventy everyday operations.
PROGRAMS['grad_fn_names_zoo'] = PRE + r'''
x = torch.tensor([[1.0, -2.0], [3.0, 0.5]], requires_grad=True)
ops = [x.t(), x.T, x.mT, x.permute(1, 0), x.reshape(4), x.view(4), x.flatten(), x.unsqueeze(0), x.squeeze(), x[0], x[:, 1], x[[0]],
       x.expand(2, 2, 2), x.repeat(2, 1), x.clone(), x.contiguous(), x.float(), x.double(), x.abs(), x.relu(), x.sigmoid(),
       x @ x, x.mm(x), x.matmul(x[0]), x.sum(), x.sum(0), x.mean(1), x.max(), x.max(0)[0], x.amax(0), x.norm(), x.pow(2), x ** 3,
       2 ** x, x / 2, 2 / x, x - 1, 1 - x, -x, x.exp(), x.log1p(), x.tanh(), x.clamp(0, 1), x.where(x > 0, 0.0), x.masked_fill(x > 0, 0.0),
       torch.cat([x, x]), torch.stack([x, x]), x.split(1)[0], x.chunk(2, 1)[1], x.unbind()[0], x.diag(), x.trace(), x.cumsum(0),
       x.softmax(0), x.log_softmax(1), x.var(), x.std(0), x.prod(), x.sort()[0], x.topk(1)[0], x.gather(0, torch.tensor([[0, 1]])),
       x.flip(0), x.roll(1), x.narrow(0, 0, 1), x.select(0, 1), x.unfold(0, 1, 1), x.type(torch.float64), x.to(torch.float16), x.view_as(x)]
for y in ops:
    print(type(y.grad_fn).__name__, end=' ')
print()
'''

# A recursive walk printing the graph as a tree, down to the AccumulateGrad of each leaf.
PROGRAMS['next_functions_tree_print'] = PRE + r'''
w = torch.tensor([0.5, -1.0], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)
x = torch.tensor([2.0, 3.0])
y = torch.sigmoid((w * x).sum() + b)
loss = (y - 1.0) ** 2
def show(fn, depth=0):
    print('  ' * depth + (type(fn).__name__ if fn is not None else 'None'))
    if fn is not None:
        for nxt, idx in fn.next_functions:
            show(nxt, depth + 1)
show(loss.grad_fn)
print(loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions)
acc = loss.grad_fn.next_functions[0][0].next_functions[0][0].next_functions[0][0].next_functions[1][0]
print(type(acc).__name__, acc.variable is b, acc.variable)
print(loss.grad_fn.metadata, loss.grad_fn.name())
'''

# _saved_* attributes: tensors, numbers, sizes, bools; dir() lists them.
PROGRAMS['saved_tensors_printed'] = PRE + r'''
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0], requires_grad=True)
c = a * b
print(c.grad_fn._saved_self, c.grad_fn._saved_other)
d = a.pow(2)
print(d.grad_fn._saved_self, d.grad_fn._saved_exponent, type(d.grad_fn._saved_exponent).__name__)
e = a.sum(0, keepdim=True)
print(e.grad_fn._saved_dim, e.grad_fn._saved_keepdim, e.grad_fn._saved_self_sym_sizes)
f = a.exp()
print(f.grad_fn._saved_result, f.grad_fn._saved_result.grad_fn)
g = a.view(2, 1)
print(g.grad_fn._saved_self_sym_sizes, [n for n in dir(g.grad_fn) if n.startswith('_saved')])
h = torch.nn.functional.relu(a - 1.5)
print(h.grad_fn, h.grad_fn._saved_result)
'''

# .grad after backward (and zero_, accumulation, None) for float64 / float16 / complex leaves.
PROGRAMS['print_grad_after_backward'] = PRE + r'''
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = (x ** 2).sum()
print(x.grad)
y.backward()
print(x.grad, x.grad.requires_grad, x.grad.grad_fn)
x.grad.zero_()
print(x.grad)
(x * x * x).mean().backward()
print(x.grad)
x.grad = None
print(x.grad)
w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
(w @ w).trace().backward()
print(w.grad)
h = torch.tensor([0.5, 1.5], dtype=torch.float16, requires_grad=True)
(h * h).sum().backward()
print(h.grad)
z = torch.tensor([1 + 1j], requires_grad=True)
(z.abs() ** 2).sum().backward()
print(z.grad)
'''

# .grad of a non-leaf warns (printed on stdout) and is None unless retain_grad().
PROGRAMS['non_leaf_grad_warning'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 2
z = y.sum()
z.backward()
print(y.grad)
print(y.is_leaf, y.retains_grad, x.is_leaf, x.retains_grad)
a = x * 3
a.retain_grad()
a.sum().backward()
print(a.grad, a.retains_grad, x.grad)
b = torch.ones(2)
print(b.grad, b.is_leaf, b.requires_grad)
'''

# torch.autograd.grad returns tuples; allow_unused gives None, materialize_grads zeros.
PROGRAMS['autograd_grad_tuples'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.tensor(3.0, requires_grad=True)
out = (x * y).sum()
g = torch.autograd.grad(out, [x, y], create_graph=True)
print(g)
print(type(g).__name__, g[0].grad_fn, g[1].grad_fn)
g2 = torch.autograd.grad(g[1], x)
print(g2)
z = x.pow(3).sum()
print(torch.autograd.grad(z, x, retain_graph=True), torch.autograd.grad(z, x, torch.tensor(2.0)))
print(torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True))
print(torch.autograd.grad((x * 2).sum(), [x, y], allow_unused=True, materialize_grads=True))
'''

# jacobian / hessian / vjp / jvp results as printed tuples and tensors.
PROGRAMS['autograd_functional_prints'] = PRE + r'''
from torch.autograd.functional import jacobian, hessian, vjp, jvp
f = lambda x: x ** 2 + x.sum()
x = torch.tensor([1.0, 2.0])
print(jacobian(f, x))
print(hessian(lambda x: (x ** 3).sum(), x))
print(vjp(f, x, torch.ones(2)))
print(jvp(f, x, torch.ones(2)))
print(jacobian(lambda a, b: a * b, (x, torch.tensor([3.0, 4.0]))))
print(jacobian(lambda x: x.sum(), x, create_graph=True))
'''

# A custom Function's node prints as <Name>Backward; prints inside backward.
PROGRAMS['custom_function_prints'] = PRE + r'''
class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        print('backward got', g)
        return 2 * x * g
x = torch.tensor([1.0, 3.0], requires_grad=True)
y = Square.apply(x)
print(y)
print(type(y.grad_fn).__name__, y.grad_fn.name(), str(type(y.grad_fn)))
print(y.grad_fn.next_functions, y.grad_fn.saved_tensors if hasattr(y.grad_fn, 'saved_tensors') else None)
y.sum().backward()
print(x.grad)
print(Square, Square.apply.__name__ if hasattr(Square.apply, '__name__') else '')
with torch.no_grad():
    print(Square.apply(x))
print(Square.apply(torch.tensor([2.0])))
'''

# Tensor hooks and a forward hook printing the gradients and inputs they receive.
PROGRAMS['printing_inside_hooks'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
y.register_hook(lambda g: print('y grad', g))
x.register_hook(lambda g: print('x grad', g, g.requires_grad))
z = (y ** 2).sum()
z.register_hook(lambda g: print('z grad', g, g.shape, g.dtype))
z.backward()
print(x.grad)
m = torch.nn.Linear(2, 1)
with torch.no_grad():
    m.weight.fill_(0.5); m.bias.fill_(0.0)
m.register_forward_hook(lambda mod, inp, out: print('fwd', type(inp).__name__, inp, out))
m(torch.tensor([[1.0, 2.0]]))
'''

# Results under no_grad / inference_mode / enable_grad print without grad_fn.
PROGRAMS['inference_and_no_grad_prints'] = PRE + r'''
x = torch.tensor([1.0, 2.0], requires_grad=True)
with torch.no_grad():
    y = x * 2
    print(y, y.requires_grad, torch.is_grad_enabled())
with torch.inference_mode():
    z = x * 3
    print(z, z.requires_grad, z.is_inference(), torch.is_inference_mode_enabled())
print(z, z.is_inference())
E(lambda: z.requires_grad_())
with torch.enable_grad():
    print(x * 4)
print(torch.set_grad_enabled(False))
print(x * 5)
torch.set_grad_enabled(True)
print(x * 5)
@torch.no_grad()
def f(t):
    return t * 6
print(f(x), f.__name__)
'''

# Gradients accumulate over backward calls; .grad can be assigned (its shape and dtype checked).
PROGRAMS['grad_accumulation_prints'] = PRE + r'''
w = torch.tensor([1.0, -1.0], requires_grad=True)
for i in range(3):
    loss = (w * torch.tensor([2.0, 3.0])).sum() * (i + 1)
    loss.backward()
    print(i, loss, w.grad, w.grad.norm(), w.grad.abs().max().item())
w.grad.data.zero_()
print(w.grad)
w.grad = torch.tensor([0.5, 0.5])
(w ** 2).sum().backward()
print(w.grad, w.grad.dtype)
E(lambda: setattr(w, 'grad', torch.tensor([1.0])))
E(lambda: setattr(w, 'grad', torch.tensor([1, 2])))
print(w.grad.requires_grad, w.grad.is_leaf)
'''

# Dual tensors print their tangent=; unpack_dual's named tuple.
PROGRAMS['forward_ad_prints'] = PRE + r'''
import torch.autograd.forward_ad as fwAD
primal = torch.tensor([1.0, 2.0])
tangent = torch.tensor([0.5, -1.0])
with fwAD.dual_level():
    dual = fwAD.make_dual(primal, tangent)
    print(dual)
    out = dual.sin() * 2
    print(out)
    p, t = fwAD.unpack_dual(out)
    print(p, t)
    print(fwAD.unpack_dual(out))
    x = fwAD.make_dual(torch.tensor(3.0, requires_grad=True), torch.tensor(1.0))
    print(x * x)
print(fwAD.unpack_dual(out).tangent)
'''

# torch.func: what grad / vmap show of their inputs when printed inside, and their results.
PROGRAMS['func_transforms_prints'] = PRE + r'''
from torch.func import grad, vmap, jacrev, jacfwd
def f(x):
    print('inside', x)
    return (x ** 2).sum()
print(grad(f)(torch.tensor([1.0, 2.0])))
def g(x):
    print('vmapped', x.shape, x)
    return x * 2
print(vmap(g)(torch.arange(6.0).reshape(3, 2)))
print(jacrev(torch.sin)(torch.tensor([0.0, 1.0])))
print(jacfwd(torch.exp)(torch.tensor([0.0, 1.0])))
print(vmap(torch.dot)(torch.ones(2, 3), torch.ones(2, 3)))
'''

# The grad_fn class names of the everyday nn layers, activations and losses.
PROGRAMS['nn_layer_grad_fn_names'] = PRE + r'''
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(2, 3, 4, 4, requires_grad=True)
outs = {
    'conv2d': torch.nn.Conv2d(3, 2, 3)(x), 'conv1d': torch.nn.Conv1d(3, 2, 2)(x[:, :, 0]),
    'maxpool': F.max_pool2d(x, 2), 'avgpool': F.avg_pool2d(x, 2),
    'adaptive': F.adaptive_avg_pool2d(x, 1), 'bn': torch.nn.BatchNorm2d(3)(x), 'ln': F.layer_norm(x, (4,)),
    'dropout': F.dropout(x, 0.5), 'gelu': F.gelu(x), 'silu': F.silu(x),
    'leaky': F.leaky_relu(x), 'elu': F.elu(x), 'softplus': F.softplus(x), 'hardtanh': F.hardtanh(x),
    'linear2d': torch.nn.Linear(4, 2)(x[0, 0]), 'linear4d': torch.nn.Linear(4, 2)(x), 'linear_nobias': F.linear(x[0, 0], torch.ones(2, 4)),
    'flatten': torch.flatten(x, 1), 'interp': F.interpolate(x, scale_factor=2), 'bilinear': F.interpolate(x, size=(3, 3), mode='bilinear'),
    'pad': F.pad(x, (1, 1)), 'reflect': F.pad(x, (1, 1, 1, 1), mode='reflect'), 'embedding': torch.nn.Embedding(4, 2)(torch.tensor([1, 3])),
    'mse': F.mse_loss(x, torch.zeros_like(x)), 'ce': F.cross_entropy(x[:, :, 0, 0], torch.tensor([0, 2])),
    'bce': F.binary_cross_entropy(torch.sigmoid(x), torch.ones_like(x)), 'bcel': F.binary_cross_entropy_with_logits(x, torch.ones_like(x)),
    'nll': F.nll_loss(F.log_softmax(x[:, :, 0, 0], 1), torch.tensor([1, 1])), 'l1': F.l1_loss(x, torch.ones_like(x)),
    'huber': F.huber_loss(x, torch.ones_like(x)), 'smoothl1': F.smooth_l1_loss(x, torch.ones_like(x)), 'kl': F.kl_div(x, torch.ones_like(x), reduction='batchmean'),
    'cos': F.cosine_similarity(x, x + 1), 'normalize': F.normalize(x), 'softmax': F.softmax(x, 1), 'glu': F.glu(x, 1) if False else F.glu(x, 3),
    'pixel': F.pixel_shuffle(x[:, :1].repeat(1, 4, 1, 1), 2),
    'prelu': torch.nn.PReLU()(x), 'logsigmoid': F.logsigmoid(x), 'one_minus': 1 - x, 'rsub': 2 - x,
}
for k, v in outs.items():
    print(k, type(v.grad_fn).__name__, tuple(v.shape))
'''

# Anomaly mode names the node whose backward gave NaN; NaN gradients of sqrt at negatives; nan_to_num.
PROGRAMS['anomaly_nan_message'] = PRE + r'''
x = torch.tensor([0.0, 1.0], requires_grad=True)
with torch.autograd.set_detect_anomaly(True, check_nan=True):
    y = (x / x).sum()
    print(y)
    with warnings.catch_warnings(record=True) as ws:   # (its message holds the forward's whole stack)
        warnings.simplefilter("always")
        try:
            y.backward()
        except RuntimeError as e:
            print(type(e).__name__, str(e).splitlines()[0])
    print([str(w.message).splitlines()[0] for w in ws])
print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
z = torch.tensor([-1.0, 4.0], requires_grad=True)
w = z.sqrt()
print(w)
w.sum().backward()
print(z.grad, torch.isnan(z.grad).any().item(), z.grad.isfinite())
print(torch.nan_to_num(z.grad), torch.nan_to_num(torch.tensor([float('inf'), -float('inf'), float('nan')])))
'''

# ---- modules, parameters, state dicts, optimizers

# print(model) of Sequential and the everyday layers, activations and losses.
PROGRAMS['print_model_small'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.ReLU(), torch.nn.Dropout(0.25), torch.nn.Linear(8, 1, bias=False), torch.nn.Sigmoid())
print(m)
print(m[0], m[-1], m[1:3])
print(torch.nn.Conv2d(3, 16, 3, stride=2, padding=1), torch.nn.Conv1d(1, 2, 5, bias=False, dilation=2))
print(torch.nn.BatchNorm1d(8), torch.nn.LayerNorm(8), torch.nn.LayerNorm([2, 3], elementwise_affine=False))
print(torch.nn.Embedding(10, 3), torch.nn.Embedding(10, 3, padding_idx=0), torch.nn.LSTM(4, 5, 2, batch_first=True))
print(torch.nn.ReLU(inplace=True), torch.nn.LeakyReLU(0.1), torch.nn.Softmax(dim=1), torch.nn.GELU(), torch.nn.GELU('tanh'))
print(torch.nn.MaxPool2d(2), torch.nn.AvgPool2d(3, 1), torch.nn.Flatten(), torch.nn.Identity(), torch.nn.Tanh())
print(torch.nn.MSELoss(), torch.nn.CrossEntropyLoss(), torch.nn.CrossEntropyLoss(label_smoothing=0.1), torch.nn.BCEWithLogitsLoss())
'''

# extra_repr of recurrent, convolution, pooling, normalization, padding and loss modules.
PROGRAMS['module_reprs_more'] = PRE + r'''
print(torch.nn.RNN(3, 4), torch.nn.GRU(3, 4, num_layers=2, bidirectional=True, dropout=0.1), torch.nn.LSTM(2, 3, proj_size=2))
print(torch.nn.ConvTranspose2d(4, 2, 3, stride=2, output_padding=1), torch.nn.Conv2d(1, 1, (3, 5), padding='same', padding_mode='reflect'))
print(torch.nn.Conv3d(1, 2, 3, groups=1, bias=False), torch.nn.Conv1d(4, 4, 3, groups=2, padding='valid'))
print(torch.nn.Upsample(scale_factor=2, mode='nearest'), torch.nn.Upsample(size=(4, 4), mode='bilinear', align_corners=True))
print(torch.nn.PixelShuffle(2), torch.nn.AdaptiveAvgPool2d((1, 1)), torch.nn.AdaptiveMaxPool1d(3), torch.nn.Dropout2d(), torch.nn.AlphaDropout(0.2))
print(torch.nn.BatchNorm2d(3, affine=False, track_running_stats=False), torch.nn.InstanceNorm2d(3), torch.nn.GroupNorm(2, 4), torch.nn.LocalResponseNorm(2))
print(torch.nn.Bilinear(2, 3, 4), torch.nn.Embedding(5, 2, max_norm=1.0), torch.nn.EmbeddingBag(5, 2, mode='sum'), torch.nn.RMSNorm(4))
print(torch.nn.Softplus(beta=2), torch.nn.Hardtanh(-2, 2), torch.nn.ELU(alpha=0.5), torch.nn.PReLU(), torch.nn.Threshold(0.1, 20), torch.nn.SiLU(), torch.nn.Mish())
print(torch.nn.Unflatten(1, (2, 2)), torch.nn.ZeroPad2d(1), torch.nn.ConstantPad1d((1, 2), 3.5), torch.nn.ReflectionPad2d(2), torch.nn.ReplicationPad1d(1))
print(torch.nn.Fold((4, 4), 2), torch.nn.Unfold(2, stride=2), torch.nn.LogSoftmax(dim=-1), torch.nn.Softmax2d(), torch.nn.Softmin(0))
print(torch.nn.CosineSimilarity(), torch.nn.PairwiseDistance(), torch.nn.MaxPool2d(2, return_indices=True, ceil_mode=True), torch.nn.MaxPool1d(3, 2, 1, 2))
print(torch.nn.NLLLoss(weight=torch.ones(3)), torch.nn.L1Loss(reduction='sum'), torch.nn.HuberLoss(delta=0.5), torch.nn.KLDivLoss(log_target=True))
print(torch.nn.Hardswish(), torch.nn.CELU(), torch.nn.SELU(inplace=True), torch.nn.Softsign(), torch.nn.Tanhshrink(), torch.nn.GLU(), torch.nn.Hardshrink(0.3), torch.nn.RReLU())
'''

# A custom module's repr: children in registration order, extra_repr over several lines.
PROGRAMS['print_custom_module'] = PRE + r'''
class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(2, 3)
        self.act = torch.nn.Tanh()
        self.blocks = torch.nn.ModuleList([torch.nn.Linear(3, 3) for _ in range(2)])
        self.heads = torch.nn.ModuleDict({'a': torch.nn.Linear(3, 1), 'b': torch.nn.Identity()})
        self.scale = torch.nn.Parameter(torch.ones(1))
        self.register_buffer('steps', torch.zeros((), dtype=torch.long))
    def forward(self, x):
        x = self.act(self.fc1(x))
        for b in self.blocks:
            x = b(x)
        return self.heads['a'](x) * self.scale
class Empty(torch.nn.Module):
    pass
class WithExtra(torch.nn.Module):
    def extra_repr(self):
        return 'k=3,\nmode=fast'
torch.manual_seed(0)
net = Net()
print(net)
print(Empty(), WithExtra())
print(torch.nn.Sequential(), torch.nn.ModuleList(), torch.nn.ModuleDict())
print(torch.nn.Sequential(Net(), torch.nn.Sequential(torch.nn.Linear(1, 1))))
print(repr(net.fc1), str(net.act))
'''

# Repeated identical children collapse to '(0-2): 3 x Linear(...)'.
PROGRAMS['module_repr_repeated_blocks'] = PRE + r'''
torch.manual_seed(0)
blocks = torch.nn.ModuleList([torch.nn.Linear(4, 4) for _ in range(5)])
print(blocks)
seq = torch.nn.Sequential(*[torch.nn.Linear(2, 2) for _ in range(3)], torch.nn.ReLU(), torch.nn.ReLU(), torch.nn.Linear(2, 1))
print(seq)
mixed = torch.nn.ModuleList([torch.nn.Linear(2, 2), torch.nn.Linear(2, 3), torch.nn.Linear(2, 2), torch.nn.Linear(2, 2)])
print(mixed)
class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.l = torch.nn.Linear(3, 3)
        self.a = torch.nn.GELU()
deep = torch.nn.Sequential(*[Block() for _ in range(3)])
print(deep)
print(torch.nn.Sequential(torch.nn.ReLU()), torch.nn.ModuleList([torch.nn.Tanh(), torch.nn.Tanh()]))
'''

# ParameterList / ParameterDict list their parameters as 'Parameter containing: [dtype of size n]'.
PROGRAMS['parameter_list_dict_repr'] = PRE + r'''
pl = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.zeros(2, 3, dtype=torch.float64))])
print(pl)
pd = torch.nn.ParameterDict({'a': torch.nn.Parameter(torch.ones(1)), 'b': torch.nn.Parameter(torch.zeros(2), requires_grad=False)})
print(pd)
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.ps = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(3))])
        self.lin = torch.nn.Linear(1, 1)
print(M())
print(len(pl), pl[0], pd['a'], list(pd.keys()))
print(torch.nn.ParameterList(), torch.nn.ParameterDict())
'''

# children / named_modules / training flags / get_submodule / dtype conversions of a model.
PROGRAMS['module_iteration_prints'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.Sequential(torch.nn.ReLU(), torch.nn.Linear(2, 1)))
print(list(m.children()))
for name, mod in m.named_modules():
    print(repr(name), type(mod).__name__)
print(m.training, m.eval().training, m[1][0].training, m.train() is m)
print(m.requires_grad_(False)[0].weight)
print([p.requires_grad for p in m.parameters()])
print(m.get_submodule('1.1'), m.get_parameter('1.1.bias'))
print(m.double()[0].weight.dtype, m.half()[0].bias)
print(m.float().apply(lambda mod: None)[1][1].weight)
print(m._modules.keys(), m[1]._modules['0'])
'''

# 'Parameter containing:' then the tensor; Parameter() is an empty one; arithmetic gives plain Tensors.
PROGRAMS['parameter_reprs'] = PRE + r'''
p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
print(p)
print(repr(p), str(p))
q = torch.nn.Parameter(torch.tensor([1.0, 2.0], dtype=torch.float64), requires_grad=False)
print(q)
r = torch.nn.Parameter(torch.tensor(3.5))
print(r, r * 2, r.data, r.detach())
print(torch.nn.Parameter(torch.zeros(0)), torch.nn.Parameter(torch.zeros(2, 0)))
print(torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False))
print(torch.nn.Parameter(torch.tensor([1.0+1j])))
print(torch.nn.Parameter(torch.zeros(2, 2, dtype=torch.float16)))
print(type(p).__name__, isinstance(p, torch.Tensor), p.is_leaf, p.grad_fn, type(p * 1).__name__)
print([p], (p, q))
p.sum().backward()
print(p.grad)
print(torch.nn.Parameter())
'''

# A state dict is an OrderedDict of detached tensors; load_state_dict's result prints its key lists.
PROGRAMS['state_dict_printed'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.BatchNorm1d(2))
sd = m.state_dict()
print(sd)
print(list(sd.keys()), type(sd).__name__)
for k, v in sd.items():
    print(k, v.shape, v.dtype, v.requires_grad)
print(m.state_dict(keep_vars=True)['0.weight'])
print(m[0].state_dict())
r = m.load_state_dict(sd)
print(r, r.missing_keys)
print(m.load_state_dict({'0.weight': torch.zeros(2, 2)}, strict=False))
'''

# BatchNorm's buffers (num_batches_tracked an int64 0-d tensor) and an Embedding's state dict.
PROGRAMS['state_dict_dtypes_and_bn'] = PRE + r'''
torch.manual_seed(0)
bn = torch.nn.BatchNorm1d(3)
bn(torch.randn(4, 3))
print(bn.state_dict())
print(bn.running_mean, bn.running_var, bn.num_batches_tracked)
bn.eval()
print(bn(torch.ones(2, 3)))
emb = torch.nn.Embedding(3, 2)
print(emb.weight, emb(torch.tensor([0, 2])))
print(emb.state_dict())
lstm = torch.nn.LSTM(1, 1)
print([(k, tuple(v.shape)) for k, v in lstm.state_dict().items()])
'''

# named_parameters / named_modules / named_children as a student loops over them.
PROGRAMS['named_parameters_printed'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.ReLU(), torch.nn.Linear(2, 1))
for name, p in m.named_parameters():
    print(name, p.shape, p.requires_grad, p.grad)
    print(p)
print([n for n, _ in m.named_modules()], [n for n, _ in m.named_children()])
print(sum(p.numel() for p in m.parameters()), len(list(m.parameters())))
print(list(m.named_buffers()), next(m.parameters()).dtype)
print(dict(m.named_parameters())['2.bias'])
'''

# Optimizer reprs list each param group's options; state_dict and a StepLR's learning rates.
PROGRAMS['optimizer_repr'] = PRE + r'''
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)
print(opt)
print(torch.optim.Adam(m.parameters(), lr=1e-3))
print(torch.optim.AdamW(m.parameters()))
print(opt.param_groups[0]['lr'], opt.defaults['momentum'], len(opt.param_groups[0]['params']))
m(torch.ones(1, 2)).sum().backward()
opt.step()
print(opt.state_dict())
print(type(opt).__name__)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
for _ in range(3):
    opt.step(); sched.step()
    print(sched.get_last_lr(), opt.param_groups[0]['lr'])
'''

# Parameters, gradients and zero_grad (None) printed around one SGD step.
PROGRAMS['print_after_optimizer_step_params'] = PRE + r'''
torch.manual_seed(42)
layer = torch.nn.Linear(3, 2)
print(layer.weight)
print(layer.bias)
print(layer.weight.grad)
out = layer(torch.ones(1, 3))
print(out)
out.sum().backward()
print(layer.weight.grad, layer.bias.grad)
opt = torch.optim.SGD(layer.parameters(), lr=0.5)
opt.step()
print(layer.weight)
print(layer.weight.data, layer.weight.detach().clone())
opt.zero_grad()
print(layer.weight.grad)
opt.zero_grad(set_to_none=False) if False else None
'''

# Seeded nn.init functions return the tensor they fill; calculate_gain's numbers.
PROGRAMS['init_functions_prints'] = PRE + r'''
torch.manual_seed(0)
w = torch.empty(2, 3)
print(torch.nn.init.xavier_uniform_(w))
print(torch.nn.init.kaiming_normal_(w, nonlinearity='relu'))
print(torch.nn.init.zeros_(w), torch.nn.init.ones_(torch.empty(2)), torch.nn.init.constant_(torch.empty(2), 0.3))
print(torch.nn.init.calculate_gain('relu'), torch.nn.init.calculate_gain('leaky_relu', 0.2), torch.nn.init.calculate_gain('tanh'))
print(torch.nn.init.eye_(torch.empty(2, 3)), torch.nn.init.normal_(torch.empty(3), 0, 0.01))
print(torch.nn.init.trunc_normal_(torch.empty(3)), torch.nn.init.orthogonal_(torch.empty(2, 2)))
lin = torch.nn.Linear(2, 2)
with torch.no_grad():
    lin.weight.copy_(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
print(lin.weight, lin(torch.tensor([[1.0, 1.0]])))
'''

# pad_sequence and PackedSequence's repr (data, batch_sizes, sorted / unsorted indices).
PROGRAMS['packed_sequence_print'] = PRE + r'''
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
seqs = [torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])]
padded = pad_sequence(seqs, batch_first=True)
print(padded)
packed = pack_padded_sequence(padded, torch.tensor([3, 2, 1]), batch_first=True)
print(packed)
print(packed.data, packed.batch_sizes)
out, lengths = pad_packed_sequence(packed, batch_first=True)
print(out, lengths)
print(pack_padded_sequence(padded, [2, 3, 1], batch_first=True, enforce_sorted=False))
'''

# Distribution reprs (numbers for 0-d parameters, sizes otherwise), samples and log-probabilities.
PROGRAMS['distributions_prints'] = PRE + r'''
d = torch.distributions.Normal(0.0, 1.0)
print(d, d.mean, d.stddev, d.loc, d.batch_shape, d.event_shape)
print(torch.distributions.Normal(torch.zeros(2), torch.ones(2)))
print(torch.distributions.Categorical(probs=torch.tensor([0.25, 0.75])))
print(torch.distributions.Bernoulli(0.3), torch.distributions.Uniform(0.0, 2.0))
print(torch.distributions.MultivariateNormal(torch.zeros(2), torch.eye(2)))
torch.manual_seed(0)
print(d.sample(), d.sample((3,)), d.log_prob(torch.tensor(0.5)), d.entropy(), d.cdf(torch.tensor(0.0)))
mu = torch.tensor(0.5, requires_grad=True)
q = torch.distributions.Normal(mu, 1.0)
s = q.rsample()
print(s, q.log_prob(s))
print(torch.distributions.kl_divergence(q, d))
'''

# TensorDataset items and DataLoader batches (default collate of numbers, tuples and dicts).
PROGRAMS['dataloader_batches_print'] = PRE + r'''
from torch.utils.data import TensorDataset, DataLoader
X = torch.arange(10.0).reshape(5, 2)
y = torch.tensor([0, 1, 0, 1, 1])
ds = TensorDataset(X, y)
print(len(ds), ds[0], ds[1:3])
loader = DataLoader(ds, batch_size=2)
for i, (xb, yb) in enumerate(loader):
    print(i, xb, yb, xb.shape, yb.dtype)
print(len(loader), next(iter(loader)))
torch.manual_seed(0)
print([yb.tolist() for _, yb in DataLoader(ds, batch_size=2, shuffle=True)])
print(next(iter(DataLoader(ds, batch_size=3, drop_last=True)))[0])
print(next(iter(DataLoader([1.5, 2.5, 3.5], batch_size=2))), next(iter(DataLoader([(1, 2.0), (3, 4.0)], batch_size=2))))
print(next(iter(DataLoader([{'a': torch.ones(2), 'b': 1}] * 2, batch_size=2))))
'''

# Optimizer state after two steps (step counters as float tensors, moment buffers) as printed.
PROGRAMS['optimizer_state_printed'] = PRE + r'''
torch.manual_seed(0)
w = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
for name, opt in [('adam', torch.optim.Adam([w], lr=0.1)), ('sgdm', torch.optim.SGD([w], lr=0.1, momentum=0.9)),
                  ('rms', torch.optim.RMSprop([w], lr=0.01)), ('adagrad', torch.optim.Adagrad([w], lr=0.1)),
                  ('adamw', torch.optim.AdamW([w], lr=0.1, amsgrad=True))]:
    for _ in range(2):
        opt.zero_grad()
        (w ** 2).sum().backward()
        opt.step()
    print(name, w.data.tolist())
    print(opt.state[w])
    print(opt.state_dict()['state'])
    print(opt.state_dict()['param_groups'])
'''

# The learning rates of each scheduler, printed to the last digit, step after step.
PROGRAMS['scheduler_lrs_printed'] = PRE + r'''
def make(lr=0.1):
    return torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=lr, momentum=0.9)
S = torch.optim.lr_scheduler
scheds = {
    'exp': lambda o: S.ExponentialLR(o, gamma=0.9),
    'cos': lambda o: S.CosineAnnealingLR(o, T_max=5, eta_min=0.001),
    'step': lambda o: S.StepLR(o, step_size=2, gamma=0.3),
    'multi': lambda o: S.MultiStepLR(o, milestones=[1, 3], gamma=0.1),
    'linear': lambda o: S.LinearLR(o, start_factor=0.25, total_iters=4),
    'lambda': lambda o: S.LambdaLR(o, lambda e: 1 / (e + 1)),
    'poly': lambda o: S.PolynomialLR(o, total_iters=4, power=2.0),
    'onecycle': lambda o: S.OneCycleLR(o, max_lr=1.0, total_steps=6),
    'cyclic': lambda o: S.CyclicLR(o, base_lr=0.01, max_lr=0.1, step_size_up=2),
    'warm': lambda o: S.CosineAnnealingWarmRestarts(o, T_0=2, T_mult=2),
    'constant': lambda o: S.ConstantLR(o, factor=0.5, total_iters=2),
}
for name, mk in scheds.items():
    opt = make()
    sch = mk(opt)
    lrs = []
    for _ in range(6):
        opt.step()
        sch.step()
        lrs.append(sch.get_last_lr()[0])
    print(name, lrs)
opt = make()
plateau = S.ReduceLROnPlateau(opt, patience=1, factor=0.5)
for loss in [1.0, 0.9, 0.95, 0.96, 0.97, 0.5]:
    plateau.step(loss)
    print(opt.param_groups[0]['lr'], end=' ')
print()
opt = make()
seq = S.SequentialLR(opt, [S.LinearLR(opt, 0.5, total_iters=2), S.ExponentialLR(opt, 0.5)], milestones=[2])
for _ in range(4):
    opt.step(); seq.step()
    print(seq.get_last_lr(), opt.param_groups[0]['lr'])
'''

# fixed: an uninitialized parameter or buffer refuses .shape (PyTorch's RuntimeError; before: torch.Size([0]))
# but answers size(); Buffer and lazy modules' reprs before and after their first forward.
PROGRAMS['buffers_lazy_uninitialized_reprs'] = PRE + r'''
b = torch.nn.Buffer(torch.ones(2))
print(b, type(b).__name__, isinstance(b, torch.Tensor))
class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.buf = torch.nn.Buffer(torch.zeros(1), persistent=False)
        self.lin = torch.nn.LazyLinear(3)
m = M()
print(m, m.lin.weight, m.state_dict())
print(type(m.buf).__name__, list(dict(m.named_buffers())))
torch.manual_seed(0)
out = m.lin(torch.ones(2, 4))
print(m, m.lin.weight.shape, out.shape, type(m.lin.weight).__name__)
p = torch.nn.UninitializedParameter()
print(p, type(p).__name__)
E(lambda: p.shape)
print(torch.nn.LazyConv2d(4, 3), torch.nn.LazyBatchNorm1d())
ub = torch.nn.UninitializedBuffer()
print(ub, ub.size(), p.size(), p.dtype, p.requires_grad, p.is_floating_point())
E(lambda: ub.shape)
lazy = torch.nn.LazyLinear(2)
E(lambda: lazy.weight.shape)
lazy(torch.ones(1, 3))
print(lazy.weight.shape, lazy)
'''

# torch.save / torch.load round trips of state dicts, checkpoints dicts, tensors of several dtypes.
PROGRAMS['save_load_prints'] = PRE + r'''
import io
torch.manual_seed(0)
m = torch.nn.Linear(2, 1)
buf = io.BytesIO()
torch.save(m.state_dict(), buf)
buf.seek(0)
sd = torch.load(buf)
print(sd, type(sd).__name__)
print(m.load_state_dict(sd))
buf = io.BytesIO()
torch.save({'epoch': 3, 'loss': 0.25, 'w': torch.tensor([1.5, 2.5]), 'names': ['a', 'b'], 'x': torch.tensor(7)}, buf)
buf.seek(0)
print(torch.load(buf))
buf = io.BytesIO()
torch.save([torch.ones(2, dtype=torch.float16), torch.zeros(1, dtype=torch.bool), torch.tensor([1 + 2j])], buf)
buf.seek(0)
print(torch.load(buf, weights_only=True))
t = torch.tensor([1.0, 2.0], requires_grad=True)
buf = io.BytesIO()
torch.save(t, buf)
buf.seek(0)
r = torch.load(buf)
print(r, r.requires_grad, r.is_leaf)
'''

# ---- training loops printing their loss

# A linear regression printing its loss every few steps with item() and f-strings.
PROGRAMS['training_loop_prints'] = PRE + r'''
torch.manual_seed(0)
X = torch.randn(32, 3)
true_w = torch.tensor([[2.0], [-1.0], [0.5]])
Y = X @ true_w + 0.1
model = torch.nn.Linear(3, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(21):
    opt.zero_grad()
    loss = torch.nn.functional.mse_loss(model(X), Y)
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(f"step {step:3d} | loss {loss.item():.6f} | {loss:.3e}")
        print('step', step, 'loss', loss)
print(model.weight, model.bias)
print(f"final: {model.weight.data.flatten().tolist()}")
print("w:", model.weight.detach().numpy().round(3))
'''

# A classifier printing loss and accuracy ({:.2%}), gradient norms and the loss history.
PROGRAMS['per_step_print_formats'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(16, 2)
y = (x.sum(1) > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(2, 4), torch.nn.ReLU(), torch.nn.Linear(4, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.5)
loss_fn = torch.nn.CrossEntropyLoss()
history = []
for step in range(12):
    logits = model(x)
    loss = loss_fn(logits, y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    history.append(loss.item())
    acc = (logits.argmax(1) == y).float().mean()
    if step % 4 == 0:
        print(f"[{step:02d}] loss={loss:.4f} acc={acc:.2%} {acc.item()*100:.1f}%")
        print("   ", loss, acc)
        print("    grad norm", torch.nn.utils.clip_grad_norm_(model.parameters(), 10.0))
print([round(h, 4) for h in history])
print(torch.tensor(history))
print(f"{torch.tensor(history).mean():.6f}")
'''

# Gradient descent by hand under no_grad, printing the loss and the parameters.
PROGRAMS['manual_gd_loop_prints'] = PRE + r'''
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
X = torch.randn(20, 3)
Y = X @ torch.tensor([1.0, -2.0, 0.5]) + 1.0
for i in range(50):
    pred = X @ w + b
    loss = ((pred - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
        w.grad.zero_()
        b.grad.zero_()
    if i % 10 == 0:
        print(f"iter {i}: loss = {loss.item():.4f}", loss)
print(w, b)
print(w.grad, b.grad)
print("w =", w.data, "b =", b.item())
'''

# Adam on a small MLP: the losses' item() printed to the last digit.
PROGRAMS['training_loop_item_bits'] = PRE + r'''
torch.manual_seed(0)
X = torch.randn(64, 4)
y = (X[:, :1] * 1.5 - X[:, 1:2] + 0.3).squeeze(1)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.01)
for epoch in range(30):
    opt.zero_grad()
    pred = model(X).squeeze(1)
    loss = ((pred - y) ** 2).mean()
    loss.backward()
    opt.step()
    if epoch % 10 == 9:
        print(epoch, loss.item(), f"{loss.item():.8f}")
print(model[2].bias.item(), model[0].weight[0].tolist())
'''

# Reductions of float32 tensors printed with item() / tolist(): every bit shows.
PROGRAMS['item_full_precision_reductions'] = PRE + r'''
torch.manual_seed(0)
x = torch.randn(1000)
print(x.sum().item(), x.mean().item(), x.std().item(), x.var().item(), x.norm().item())
print(x.abs().max().item(), x.prod().item(), x.exp().sum().item(), x.logsumexp(0).item())
y = torch.randn(37, 53)
print(y.sum().item(), y.mean().item(), y.sum(0)[:3].tolist(), y.mean(1)[:3].tolist())
print(y.std(0)[:3].tolist(), y.var(1, unbiased=False)[:3].tolist(), y.norm(dim=1)[:3].tolist())
print(torch.softmax(y[0], 0)[:4].tolist(), torch.log_softmax(y[0], 0)[:4].tolist())
print(y.cumsum(1)[0, -3:].tolist(), y.sigmoid().mean().item(), y.tanh().sum().item())
'''

# The common losses' values printed with item(), and a cross entropy's gradient.
PROGRAMS['item_full_precision_losses'] = PRE + r'''
torch.manual_seed(1)
logits = torch.randn(8, 5, requires_grad=True)
target = torch.tensor([0, 1, 2, 3, 4, 0, 1, 2])
loss = torch.nn.functional.cross_entropy(logits, target)
print(loss.item(), loss)
loss.backward()
print(logits.grad[0].tolist())
p = torch.rand(10)
t = (torch.rand(10) > 0.5).float()
print(torch.nn.functional.binary_cross_entropy(p, t).item(), torch.nn.functional.mse_loss(p, t).item())
print(torch.nn.functional.l1_loss(p, t).item(), torch.nn.functional.smooth_l1_loss(p, t).item())
print(torch.nn.functional.binary_cross_entropy_with_logits(p, t).item(), torch.nn.functional.nll_loss(torch.log_softmax(logits, 1), target).item())
print(torch.nn.functional.kl_div(torch.log_softmax(logits[0], 0), torch.softmax(logits[1], 0), reduction='sum').item())
'''


@pytest.fixture(autouse=True, scope="module")
def _pytorch_warmed_up():
    """PyTorch's first optimizer imports torch._dynamo (seconds), its first dual tensor scripts functions (with
    DeprecationWarnings of torch.jit.script): done here, so that no program's time or output depends on whether it
    is the first to do so."""
    torch = pytest.importorskip("torch")
    torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=0.1)
    import torch.autograd.forward_ad as fwAD
    with warnings.catch_warnings(), fwAD.dual_level():
        warnings.simplefilter("ignore")
        fwAD.make_dual(torch.ones(1), torch.ones(1))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_program_prints_like_pytorch(name: str) -> None:
    # (catch_warnings restores the filters and showwarning the prelude replaces; fresh_warn_once: the warnings
    # given once per process are given whatever ran before in this process)
    with warnings.catch_warnings(), fresh_warn_once():
        ours, theirs = run_both(PROGRAMS[name])
    assert theirs, "the program printed nothing under PyTorch"
    assert _mask(ours) == _mask(theirs)
