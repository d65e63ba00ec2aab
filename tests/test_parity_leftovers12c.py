"""Leftovers of session 12 fixed in its third wave (X3); each program runs with minigrad and with PyTorch
(``parity.same_as_torch``) and must print the same.

1. In-place ops into an expanded tensor (elements sharing memory): TensorIterator's overlap check comes before
   the operands' broadcast, the output shape's and the cast's errors (add_/sub_/mul_/div_/pow_/lerp_/clamp_/
   addcmul_/addcdiv_/ldexp_/heaviside_/copy_/masked_scatter_, out= into an expanded tensor), after autograd's
   refusal of a leaf and after the op's own argument checks (sub's bool refusal, lerp's dtypes, clamp's number
   bounds' cast, ldexp_'s integer self, heaviside's dtypes, div's rounding mode); threshold_ (idempotent) may
   write into an expanded tensor.
2. Adam/AdamW with differentiable=True: the state updates are recorded when the parameter requires grad (with
   weight decay, exp_avg gets LerpBackward0 and exp_avg_sq AddcmulBackward0; a leaf parameter's own update is
   then refused), and a non-leaf parameter's update is differentiable (values and gradients as PyTorch's).
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS: dict[str, str] = {}

# ---- 1. overlap first ---------------------------------------------------------------------------------------------
PROGRAMS["inplace_expanded_overlap_order"] = """
import warnings
warnings.simplefilter("ignore")
def X(dt=torch.float32):
    return torch.ones(1, 3, dtype=dt).expand(2, 3)
def L():
    return torch.ones(1, 3, requires_grad=True).expand(2, 3)
five, three = torch.ones(5), torch.ones(3)
cases = [
    lambda: X().add_(five), lambda: X().add_(five, alpha=2), lambda: X(torch.int64).add_(five),
    lambda: X(torch.int64).add_(torch.ones(3, dtype=torch.int64), alpha=0.5),
    lambda: X().sub_(five), lambda: X(torch.bool).sub_(torch.ones(3, dtype=torch.bool)),
    lambda: X(torch.bool).sub_(torch.ones(3, dtype=torch.bool), alpha=2),
    lambda: X().mul_(five), lambda: X().div_(five), lambda: X().div_(five, rounding_mode="floor"),
    lambda: X().div_(five, rounding_mode="x"), lambda: X(torch.complex64).div_(three, rounding_mode="trunc"),
    lambda: X().pow_(five), lambda: X(torch.bool).pow_(torch.ones(5, dtype=torch.bool)),
    lambda: X().ldexp_(five), lambda: X(torch.int64).ldexp_(five),
    lambda: X().ldexp_(torch.ones(5, dtype=torch.complex64)),
    lambda: X().lerp_(five, 0.5), lambda: X().lerp_(three, five), lambda: X().lerp_(torch.ones(3).double(), 0.5),
    lambda: X(torch.int64).lerp_(torch.ones(3, dtype=torch.int64), 0.5),
    lambda: X().clamp_(five), lambda: X().clamp_(five, torch.ones(4)), lambda: X().clamp_(1j), lambda: X().clamp_(),
    lambda: X().clamp_(torch.ones(3, dtype=torch.complex64)), lambda: X(torch.int64).clamp_(0.5),
    lambda: X(torch.int64).clamp_(1j), lambda: X(torch.complex64).clamp_(1), lambda: X().clamp_min_(five),
    lambda: X().addcmul_(five, five), lambda: X().addcmul_(five, three, value=1j),
    lambda: X().addcdiv_(five, five), lambda: X(torch.int64).addcdiv_(*[torch.ones(3, dtype=torch.int64)] * 2),
    lambda: X().heaviside_(five), lambda: X().heaviside_(torch.ones(5).double()),
    lambda: X(torch.complex64).heaviside_(five),
    lambda: X().copy_(five), lambda: X().copy_(three), lambda: X().copy_(torch.ones(5, dtype=torch.complex64)),
    lambda: X().masked_scatter_(torch.ones(5, dtype=torch.bool), torch.ones(5).double()),
    lambda: torch.add(three, five, out=X()), lambda: torch.maximum(three, five, out=X()),
    lambda: torch.sigmoid(five, out=X()), lambda: X().atan2_(five), lambda: X().hypot_(five),
    lambda: X().eq_(five), lambda: X().floor_divide_(five), lambda: X().exp_(),
    lambda: L().exp_(), lambda: L().mul_(five), lambda: L().copy_(five), lambda: L().addcmul_(five, five),
    lambda: L().lerp_(five, 0.5), lambda: L().clamp_(five), lambda: L().add_(five, alpha=2),
    lambda: L().div_(five, rounding_mode="floor"), lambda: L().ldexp_(five), lambda: L().heaviside_(five),
    lambda: L().masked_scatter_(torch.ones(5, dtype=torch.bool), five),
    lambda: X().mul_(torch.ones(5, requires_grad=True)), lambda: X().add_(torch.ones(3, requires_grad=True)),
]
for i, f in enumerate(cases):
    print(i, end=" ")
    E(f)
y = X()
E(lambda: y.copy_(y))
E(lambda: torch.nn.functional.threshold_(L(), 0.5, 0.0))
for dt in (torch.float32, torch.int64):
    y = X(dt)
    print(torch.nn.functional.threshold_(y, 1.5, 0.0), y._version)
print(torch.nn.functional.threshold_(X(), 0.5, 2.0))
"""

# ---- 2. differentiable Adam ---------------------------------------------------------------------------------------
PROGRAMS["adam_differentiable_leaf_weight_decay"] = """
torch.manual_seed(0)
for cls, kw in [(torch.optim.Adam, dict(weight_decay=0.1)), (torch.optim.Adam, dict()),
                (torch.optim.Adam, dict(weight_decay=0.1, amsgrad=True, maximize=True)),
                (torch.optim.AdamW, dict(weight_decay=0.1))]:
    lin = torch.nn.Linear(3, 2)
    opt = cls(lin.parameters(), differentiable=True, **kw)
    lin(torch.ones(4, 3)).sum().backward()
    E(opt.step)
    for p in lin.parameters():
        print({k: (type(v.grad_fn).__name__ if v.grad_fn else None, v.requires_grad, v._version)
               for k, v in opt.state[p].items()}, p._version)
"""

PROGRAMS["adam_differentiable_nonleaf_param"] = """
w = torch.ones(3, requires_grad=True)
q = w * 2
q.retain_grad()
E(lambda: torch.optim.SGD([q], lr=0.1))
E(lambda: torch.optim.SGD([w * 2], lr=0.1))
E(lambda: torch.optim.SGD([w * 2], lr=0.1, differentiable=True))
torch.manual_seed(0)
for cls, kw in [(torch.optim.Adam, dict(weight_decay=0.1)), (torch.optim.Adam, dict(lr=0.01)),
                (torch.optim.Adam, dict(weight_decay=0.05, amsgrad=True)),
                (torch.optim.Adam, dict(weight_decay=0.1, maximize=True)),
                (torch.optim.AdamW, dict(weight_decay=0.1, lr=0.1))]:
    w = torch.randn(3, dtype=torch.float64, requires_grad=True)
    p = w.clone()
    opt = cls([p], differentiable=True, **kw)
    for it in range(3):
        p.grad = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64) * (it + 1)
        opt.step()
        print(p.tolist(), type(p.grad_fn).__name__, {k: (type(v.grad_fn).__name__ if v.grad_fn else None)
                                                     for k, v in opt.state[p].items()})
    # (amsgrad: maximum saved exp_avg_sq, which the next step changed in place: PyTorch's error too)
    E(lambda: (p * torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)).sum().backward())
    print(None if w.grad is None else w.grad.tolist())
"""

PROGRAMS["adam_differentiable_float32_bits"] = """
torch.manual_seed(0)
for cls, kw in [(torch.optim.Adam, dict()), (torch.optim.Adam, dict(weight_decay=0.1, amsgrad=True)),
                (torch.optim.AdamW, dict(lr=0.1, maximize=True)), (torch.optim.Adam, dict(betas=(0.5, 0.7)))]:
    p = torch.randn(6)
    opt = cls([p], differentiable=True, **kw)
    for it in range(4):
        p.grad = torch.randn(6)
        opt.step()
    print(p.tolist(), p._version, {k: (v.tolist(), v._version) for k, v in opt.state[p].items()})
"""


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_leftover_matches_torch(name: str) -> None:
    same_as_torch(PROGRAMS[name])
