"""Session 15 (O6): PyTorch's OpInfo reference_inputs against minigrad (tests/opinfo_sweep.py --inputs reference).

reference_inputs are PyTorch's larger input sets for an op (extremal values, broadcasting, type promotion with
Python scalars, discontiguous and 0-d tensors), beyond its sample_inputs. test_reference_input_parity runs them
through torch and minigrad live for a fixed list of (op, dtype) pairs that pass the sweep (errors, dtypes, shapes,
strides, bit-equal values, grad_fn names, gradients, method and in-place variants; small tensors only, to stay
quick); the focused tests below check one fix each against torch.
"""
from __future__ import annotations

import pytest
from parity import ERROR_PRELUDE, same_as_torch, torch_or_skip

# (op, dtype): binary ops with Python scalars and type promotion first (what students meet most)
CASES = [("mul", "int64"), ("div.no_rounding_mode", "float32"), ("true_divide", "float64"), ("pow", "float64"),
         ("__rsub__", "int64"), ("where", "float64"), ("clamp", "float32"), ("nn.functional.relu", "float32"),
         ("sigmoid", "float64"), ("logsumexp", "float64")]
MAX_NUMEL = 30  # (samples with a larger tensor are left to the sweep run by hand)


def _sweep(label, dtype, max_samples=None):
    """The sweep's difference lines for (op, dtype) over its reference inputs with small tensors."""
    torch_or_skip()
    import opinfo_sweep
    n_run, lines = opinfo_sweep.sweep_lines(label, dtype, max_samples, inputs="reference", max_numel=MAX_NUMEL)
    assert n_run > 0
    return lines


@pytest.mark.parametrize("label,dtype", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_reference_input_parity(label, dtype):
    assert _sweep(label, dtype) == []


# F(t): every value of a tensor with all its digits (bit-equal values print the same)
PRELUDE = ERROR_PRELUDE + """
def F(t):
    t = t.detach().resolve_conj()
    return [float(v).hex() for v in (torch.view_as_real(t) if t.is_complex() else t).reshape(-1).tolist()]
"""


def test_division_of_a_number_by_a_tensor_backward():
    # torch.div(2.5, y): the gradient for y is -g·((x / y) / y) with PyTorch's division of the saved number by y,
    # not Python's 2.5 / y (which is PyTorch's y.reciprocal() * 2.5: another rounding)
    same_as_torch("""
y = torch.tensor([0.3, 1.7, -2.2, 0.05, 9.1], dtype=torch.float64, requires_grad=True)
g = torch.tensor([0.7, -1.3, 0.2, 2.9, -0.4], dtype=torch.float64)
for f in (torch.div, torch.true_divide):
    for x in (5.576059452216908, 3, 1e-3):
        y.grad = None
        f(x, y).backward(g)
        print(F(y.grad))
y32 = torch.tensor([0.3, 1.7, -2.2], requires_grad=True)
q = torch.div(5.576059452216908, y32)
gy, = torch.autograd.grad(q.sum(), y32, create_graph=True)
def names(node, depth=0):
    return [] if node is None or depth > 3 else [node.name()] + [
        n for f, _ in node.next_functions for n in names(f, depth + 1)]
print(F(gy), names(gy.grad_fn))
""", PRELUDE)


def test_multi_margin_loss_without_reduction_is_shaped_as_the_target():
    # reduction='none': one loss per frame, of the target's shape: (1,) for a 1-d input with a 1-element target,
    # () for a (1, C) input with a 0-d target
    same_as_torch("""
import torch.nn.functional as Fn
for shape, target in (((5,), [1]), ((1, 3), 1), ((), [0]), ((), 0), ((2, 3), [0, 2])):
    x = torch.linspace(-1, 1, max(1, torch.Size(shape).numel()), dtype=torch.float64).reshape(shape).requires_grad_()
    loss = Fn.multi_margin_loss(x, torch.tensor(target), reduction='none', margin=0.5)
    loss.sum().backward()
    print(tuple(loss.shape), F(loss), F(x.grad))
""", PRELUDE)
    assert _sweep("nn.functional.multi_margin_loss", "float32") == []


def test_special_functions_of_0d_tensors():
    # 0-d inputs (NumPy's arithmetic on 0-d arrays gives scalars): airy_ai of a bool crashed, bessel_j1's result
    # could not be read (.numpy())
    same_as_torch("""
for v in (True, 0.5, -3.0):
    for name in ('airy_ai', 'bessel_j0', 'bessel_j1', 'bessel_y1', 'spherical_bessel_j0', 'modified_bessel_k1'):
        r = getattr(torch.special, name)(torch.tensor(v))
        print(name, r.dtype, tuple(r.shape), F(r), r.numpy().shape)
""", PRELUDE)
    assert _sweep("special.airy_ai", "bool", 10) == []


def test_not_of_0d_tensors_and_conj_physical_of_an_expanded_real_tensor():
    same_as_torch("""
m = torch.tensor(True)
print(~m, (~m).numpy(), torch.logical_not(m).numpy(), torch.logical_not(torch.tensor(0.0)).numpy())
print(torch.bitwise_not(torch.tensor(5)).numpy(), (~torch.tensor(5)).numpy(), (~m).shape)
x = torch.zeros(1).expand(3)
print(x.conj_physical_(), x._version)
z = torch.zeros(1, dtype=torch.complex128).expand(3)
print(E(lambda: z.conj_physical_()))
""", PRELUDE)
