"""Session 16 (R): leftovers of PyTorch's OpInfo reference_inputs (tests/opinfo_sweep.py --inputs reference).

Each test checks one fix against torch live: the program runs once with minigrad as ``torch`` and once with torch,
and prints every value with all its digits (bit-equal values print the same).
"""
from __future__ import annotations

from parity import ERROR_PRELUDE, same_as_torch

# F(t): every value of a tensor with all its digits; G(t): shape, strides, grad_fn name and values
PRELUDE = ERROR_PRELUDE + """
def F(t):
    t = t.detach().resolve_conj()
    return [float(v).hex() for v in (torch.view_as_real(t) if t.is_complex() else t).reshape(-1).tolist()]
def G(t):
    return tuple(t.shape), t.stride(), t.grad_fn.name() if t.grad_fn is not None else None, F(t)
"""


def test_flatten_of_empty_tensors():
    # flatten reshapes to the merged size written out: [0, 3, 4, 5].flatten(1, 3) is [0, 60], where a reshape to
    # [0, -1] would be ambiguous (any size times 0 is 0) and raise
    same_as_torch("""
for shape in ((5, 4, 0, 1, 3, 7), (0, 3, 4, 5), (2, 0, 3), (0, 0)):
    x = torch.zeros(shape, dtype=torch.float64, requires_grad=True)
    for s in range(len(shape)):
        for e in range(s, len(shape)):
            y = x.flatten(s, e)
            print(shape, s, e, G(y), G(torch.flatten(x, s, e)))
    y.sum().backward()
    print(G(x.grad))
x = torch.zeros(0, 3, 4)
print(E(lambda: x.reshape(0, -1)), E(lambda: x.view(-1, 0)), G(x.unflatten(1, (3, 1))))
""", PRELUDE)


def test_igamma_edges_with_nan_and_infinity():
    # ATen tests the boundaries in order with C's comparisons (false for a NaN): igamma(nan, 0) = 0,
    # igamma(nan, inf) = 1, igamma(inf, nan) = 0 (igammac: 1 - those), not NaN
    same_as_torch("""
vals = [float('nan'), float('inf'), 0.0, -0.0, -1.0, 1e300, 5e-324]
a = torch.tensor([p for p in vals for q in vals], dtype=torch.float64)
x = torch.tensor([q for p in vals for q in vals], dtype=torch.float64)
for f in (torch.igamma, torch.igammac, torch.special.gammainc):
    for dt in (torch.float64, torch.float32):
        print(F(f(a.to(dt), x.to(dt))))
# the continued fraction's z = x + (1 - a) + 1 and the series' factor e^(a-x)·(x/fac)^a, in C's order
print(F(torch.igammac(torch.tensor([0.5]), torch.tensor([1.0]).double())))
print(F(torch.igamma(torch.tensor([0.5, 25.0, 25.0], dtype=torch.float64), torch.tensor([1.0, 1.0, 3.0]))))
""", PRELUDE)


def test_maximum_minimum_fmax_fmin_signed_zero_ties_and_layout():
    # +0.0 against -0.0 is a tie: PyTorch's vector code (blocks of 2 x 8 floats / 2 x 4 doubles) keeps `other`,
    # its scalar code the rest keeps `self`; fmax/fmin keep `self` everywhere. Outputs take TensorIterator's
    # layout from the inputs' strides (an overlapping or permuted input), gradients split ties in half.
    same_as_torch("""
g = torch.Generator().manual_seed(0)
for dt in (torch.float64, torch.float32):
    s = (torch.randint(0, 2, (5, 37), generator=g) * 2 - 1).to(dt)
    a, b = torch.zeros(5, 37, dtype=dt) * s, torch.zeros(5, 37, dtype=dt) * s.flip(1)
    for f in (torch.maximum, torch.minimum, torch.fmax, torch.fmin):
        for x, y in ((a, b), (a[:, 1:], b[:, 1:]), (a, b[0]), (a[0, 0], b), (a[:, ::2], b[:, ::2]),
                     (a[:1, :4], b[:1, :4])):
            print(f.__name__, G(f(x, y)))
x = torch.arange(17.0, dtype=torch.float64).as_strided((5, 6, 2), (1, 1, 7))
y = torch.ones(5, 6, 2, dtype=torch.float64).requires_grad_()
for f in (torch.maximum, torch.minimum, torch.fmax, torch.fmin, torch.igamma):
    r = f(x, y)
    print(f.__name__, G(r))
z = torch.tensor([0.0, -0.0, 1.0, 2.0], requires_grad=True)
w = torch.tensor([-0.0, 0.0, 1.0, -2.0], requires_grad=True)
for f in (torch.maximum, torch.minimum, torch.fmax, torch.fmin):
    z.grad = w.grad = None
    f(z, w).backward(torch.tensor([1.0, 2.0, 4.0, 8.0]))
    print(f.__name__, F(z.grad), F(w.grad))
""", PRELUDE)
