"""Tensor creation, conversion and basic properties."""

import numpy as np
import pytest
from parity import same_as_torch

import minigrad as mg

# ---- unit tests (no torch needed) ---------------------------------------------------------------

def test_dtype_inference_and_defaults():
    assert mg.tensor([1, 2]).dtype is mg.int64
    assert mg.tensor([1, 2.0]).dtype is mg.float32
    assert mg.tensor([True]).dtype is mg.bool
    assert mg.tensor([1j]).dtype is mg.complex64
    assert mg.arange(3).dtype is mg.int64 and mg.arange(0.0, 1.0, 0.5).tolist() == [0.0, 0.5]


def test_from_numpy_shares_memory_and_tensor_copies():
    a = np.array([1.0, 2.0])
    shared, copied = mg.from_numpy(a), mg.tensor(a)
    a[0] = 9.0
    assert shared.tolist() == [9.0, 2.0] and copied.tolist() == [1.0, 2.0]
    assert shared.dtype is mg.float64


def test_properties_and_conversions():
    x = mg.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    assert x.shape == (2, 3) and repr(x.size()) == "torch.Size([2, 3])" and x.size(-1) == 3
    assert (x.dim(), x.numel()) == (2, 6)
    assert x.T.tolist() == [[1.0, 4.0], [2.0, 5.0], [3.0, 6.0]]
    assert x[1, 2].item() == 6.0 and isinstance(x[1, 2].item(), float)
    c = x.clone()
    c.add_(1)
    assert x[0, 0].item() == 1.0  # clone copies
    assert x.data.tolist() == x.tolist() and not x.data.requires_grad


def test_only_floating_and_complex_tensors_require_grad():
    with pytest.raises(RuntimeError, match="Only Tensors of floating point and complex dtype can require gradients"):
        mg.tensor([1, 2], requires_grad=True)
    with pytest.raises(RuntimeError, match="only Tensors of floating point dtype can require gradients"):
        mg.tensor([1, 2]).requires_grad_()
    assert mg.tensor([1j], requires_grad=True).requires_grad


def test_manual_seed_reproduces_random_tensors():
    mg.manual_seed(3)
    a, b = mg.rand(4), mg.randn(2, 2)
    mg.manual_seed(3)
    assert mg.rand(4).tolist() == a.tolist() and mg.randn(2, 2).tolist() == b.tolist()
    r = mg.randint(2, 5, (100,))
    assert r.dtype is mg.int64 and 2 <= r.min().item() and r.max().item() < 5


# ---- parity with PyTorch ----------------------------------------------------------------------

PROGRAMS = {
    "tensor_from_data_and_numpy": """
import numpy as np
for d in [[1, 2], [1., 2], [True, False], [1+2j, 3], 3, 2.5, True, [[1, 2], [3, 4]], []]:
    t = torch.tensor(d)
    print(t, t.dtype, t.shape, t.dim(), t.numel())
print(torch.tensor([1, 2], dtype=torch.float64), torch.tensor([1.5, 2.7], dtype=torch.int32))
import numpy as np
a = np.array([1., 2.])
t = torch.from_numpy(a); a[0] = 9; print(t)
t2 = torch.as_tensor(a); a[1] = 7; print(t2, torch.as_tensor(a, dtype=torch.float32))
print(torch.tensor(a), torch.tensor(np.array([1, 2], dtype=np.int32)).dtype)
print(torch.as_tensor([1, 2]), torch.as_tensor(t) is t)
E(lambda: torch.from_numpy([1, 2]))
E(lambda: torch.tensor([1, 'a']))
E(lambda: torch.tensor([[1, 2], [3]]))
""",
    "creation_functions": """
print(torch.zeros(2, 3), torch.zeros((2, 3)).shape, torch.ones(2, dtype=torch.int64), torch.empty(2).shape)
print(torch.full((2,), 3), torch.full((2,), 3.), torch.full((2,), True), torch.full([2, 1], 1.5, dtype=torch.float64))
print(torch.eye(3), torch.eye(2, 3))
print(torch.arange(5), torch.arange(1, 4), torch.arange(0, 1, 0.25), torch.arange(1., 4.), torch.arange(0, 5, 2))
print(torch.linspace(0, 1, 5), torch.linspace(-1, 1, 4), torch.linspace(0, 10, steps=3))
x = torch.tensor([[1., 2.]], dtype=torch.float64)
print(torch.zeros_like(x), torch.ones_like(x), torch.full_like(x, 7), torch.empty_like(x).shape,
      torch.zeros_like(x, dtype=torch.int32))
print(torch.rand(2, 3).shape, torch.randn(2).dtype, torch.randint(0, 10, (3,)).dtype, torch.randint(5, (2, 2)).shape)
print(torch.rand_like(x).dtype, torch.randn_like(x).shape, torch.randint_like(x, 3).dtype)
torch.manual_seed(0)
r = torch.rand(3)
torch.manual_seed(0)
print(bool((r == torch.rand(3)).all()), bool((r >= 0).all() and (r < 1).all()))
print(torch.ones(2, requires_grad=True), torch.zeros(2, 2, requires_grad=True).is_leaf)
E(lambda: torch.ones(2, dtype=torch.int32, requires_grad=True))
E(lambda: torch.arange(0, 5, 0))
E(lambda: torch.zeros(-1))
""",
    "conversions_and_properties": """
x = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
print(x.numpy(), type(x.numpy()).__name__, x.numpy().dtype)
print(x.tolist(), x[0, 1].item(), type(x[0, 1].item()).__name__, torch.tensor(3).item(), torch.tensor(True).item())
print(x.shape, x.size(), x.size(1), x.size(-1), x.dim(), x.numel(), x.dtype, x.T, x.T.shape, x.ndim)
print(x.data, x.data is x, x.clone(), x.clone() is x)
y = torch.ones(2, requires_grad=True)
E(lambda: y.numpy())
E(lambda: x.item())
E(lambda: x.size(2))
print(y.detach().numpy(), y.data.requires_grad, y.clone().grad_fn, y.clone().requires_grad)
print(torch.tensor(2.5, dtype=torch.float16).item(), torch.tensor([1.5], dtype=torch.bfloat16).tolist())
c = torch.tensor([1+2j])
print(c, c.dtype, c.item(), c.tolist())
print(len(x), list(torch.tensor([1, 2])), repr(torch.float32), torch.get_default_dtype())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_tensor_programs_match_torch(name):
    same_as_torch(PROGRAMS[name])



def test_new_tensor_from_a_tensor_warns_once_like_torch():
    import warnings

    from parity import torch_or_skip
    torch = torch_or_skip()
    seen = []
    for lib in (mg, torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            y = lib.ones(2).new_tensor(lib.tensor([1.5, 2.5]))
        seen.append(([str(w.message) for w in caught], y.tolist()))
    assert seen[0] == seen[1] and len(seen[0][0]) == 1
