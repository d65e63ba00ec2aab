"""Node names and order in second and third derivatives (session 20's sweep of ``create_graph=True`` graphs).

PyTorch's double-backward graphs come from its C++ formulas (derivatives.yaml, FunctionsManual.cpp): GCC builds an
overloaded operator's right operand first, ``a.f(b)`` builds ``a`` first, and the formulas' in-place steps
(``div_``, ``mul_``, ``*=``) make Scalar nodes (DivBackward1) or save a clone of the tensor they overwrite
(CloneBackward0 under a third derivative). Each program prints, for one op, the graph of its first, second and
third derivatives (node names, ``next_functions`` to depth 5, ``_sequence_nr()`` as ranks) and the gradients.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

DESCRIBE = """
F = torch.nn.functional
def describe(roots, depth=5):
    order = [r for r in roots if r is not None]
    seen = set(order)
    k = 0
    while k < len(order):
        for m, _ in order[k].next_functions:
            if m is not None and m not in seen:
                seen.add(m)
                order.append(m)
        k += 1
    nodes = [n for n in order if n.name() != "torch::autograd::AccumulateGrad"]
    rank = {s: i for i, s in enumerate(sorted({n._sequence_nr() for n in nodes}))}
    def d(n, k):
        if n is None or n.name() == "torch::autograd::AccumulateGrad":
            return "Acc" if n is not None else "None"
        s = f"{n.name()}#{rank[n._sequence_nr()]}"
        return s if k == 0 else s + "(" + ", ".join(d(m, k - 1) for m, _ in n.next_functions) + ")"
    return [d(r, depth) for r in roots]
def run(f, dtype=torch.float64, second=True, orders=3):
    x = torch.tensor([[0.3, 0.4, 0.7, 0.2], [0.25, 0.9, 0.15, 0.6]], dtype=dtype, requires_grad=True)
    y = torch.tensor([[0.5, 0.2, -0.3, 0.8], [0.1, -0.7, 0.4, 0.35]], dtype=dtype, requires_grad=True)
    ins = [x, y] if second else [x]
    out = f(*ins)
    w = torch.linspace(-1.2, 1.3, out.numel(), dtype=dtype).reshape(out.shape)
    gs = torch.autograd.grad((out * w).sum(), ins, create_graph=True, allow_unused=True)
    for order in range(1, orders + 1):
        print(order, describe([g.grad_fn if g is not None else None for g in gs]))
        print([[float(f"{v:.12g}") for v in g.flatten().tolist()] if g is not None else None for g in gs])
        loss = sum((g * g.detach().cos()).sum() for g in gs if g is not None and g.requires_grad)
        if isinstance(loss, int):
            break
        gs = torch.autograd.grad(loss, ins, create_graph=True, allow_unused=True)
"""

# op -> (the function of x (and y), whether y is an input too[, whether float32 too[, the highest order]]); x is in
# (0, 1). (The linear algebra ones stop early: their third-order graphs are large and slow to build.)
OPS = {
    # C++ builds the right operand first: (result * result) before -grad, result.pow(3) before -0.5 * grad
    "reciprocal": ("lambda x: x.reciprocal()", False),
    "rsqrt": ("lambda x: x.rsqrt()", False),
    # i1_backward and i1e_backward take their reciprocal's derivative (the same order)
    "special_i1": ("lambda x: torch.special.i1(x - 0.5)", False),
    "special_i1e": ("lambda x: torch.special.i1e(x - 0.5)", False),
    # gelu_double_backward: input_sq * pdf before 2 * pdf
    "gelu": ("lambda x: F.gelu(x - 0.5)", False),
    # var_backward: (x - mean) before (2 / dof) * grad
    "std_dim": ("lambda x: x.std(1)", False),
    "std_all": ("lambda x: x.std()", False),
    "std_mean": ("lambda x: torch.std_mean(x, 0)[0]", False),
    # linalg_det_backward: the solve's right-hand side before A.mH()
    "det": ("lambda x: torch.linalg.det(x[:, :2])", False),
    # linalg_qr_backward: Q.mH() @ gQ before gR @ R.mH(); linalg_lu_solve_LU: each solve's right-hand side first
    "qr": ("lambda x: torch.linalg.qr(x.mT)[1]", False),
    "lu_solve": ("lambda x: torch.linalg.lu_solve(*torch.linalg.lu_factor(x[:, :2] + 2 * torch.eye(2, dtype=x.dtype)), "
                 "x[:, 2:])", False, False, 2),
    # householder_product_backward: sigma's slice before v's (one), make_tuple's and each operator's right operand
    # first (ormqr's backward is the same function)
    "householder_product": ("lambda x, y: torch.linalg.householder_product(x.mT, y[0, :2])", True, False, 2),
    "ormqr": ("lambda x, y: torch.ormqr(x.mT, x[0, :2], y.mT)", True, False, 2),
    # atan2_backward: other * other before self * self
    "atan2": ("torch.atan2", True),
    # xlog1py's other: other + 1 before grad * self (float64 only: the float32 kernel's last bits differ)
    "xlog1py": ("lambda x, y: torch.special.xlog1py(x, y.abs())", True, False),
    # addcdiv's tensor2: tensor2 * tensor2 before value * tensor1
    "addcdiv": ("lambda x, y: torch.addcdiv(x * 3, x, y + 2, value=0.5)", True),
    # binary_cross_entropy: the denominator first, 1 - x a filled tensor, gI *= ... in place (and the target's
    # formulas in place: their clones under a third derivative)
    "bce": ("lambda x: F.binary_cross_entropy(x, torch.tensor([[0.5, 0.2, 0.3, 0.8], [0.1, 0.7, 0.4, 0.35]], "
            "dtype=x.dtype), reduction='none')", False),
    "bce_target": ("lambda x, y: F.binary_cross_entropy(x, y.abs(), reduction='none')", True),
    "bce_weight_mean": ("lambda x, y: F.binary_cross_entropy(x, y.abs(), torch.tensor([1.5, 0.5, 1, 2], "
                        "dtype=x.dtype))", True),
    # _log_softmax_backward_data's output: output.exp() before -grad_output.sum()
    "cross_entropy": ("lambda x: F.cross_entropy(x, torch.tensor([1, 3]))", False),
    "log_softmax": ("lambda x: F.log_softmax(x, 0)", False),
    # soft_margin_loss_double_backward: z + 1 a Scalar add, (zplus1 * zplus1) first
    "soft_margin": ("lambda x: F.soft_margin_loss(x, torch.tensor([[1., -1, 1, -1], [-1, 1, 1, -1]], "
                    "dtype=x.dtype))", False),
    # batchnorm_double_backward: expand_as_dim1, sum_exclude_dim1's one sum per dim, in-place Scalar quotients,
    # a ones weight when there is none
    "batch_norm": ("lambda x, y: F.batch_norm(x, None, None, y[0], y[1], training=True)", True),
    "batch_norm_3d": ("lambda x, y: F.batch_norm(x.reshape(2, 2, 2), None, None, y[0, :2], y[1, :2], "
                      "training=True)", True),
    "batch_norm_no_weight": ("lambda x, y: F.batch_norm(x * y, None, None, training=True)", True),
    # infinitely_differentiable_native_group_norm_backward (the first derivative under create_graph too): its
    # statistics' sums, in-place unsqueeze_, and the unused var's nodes
    "group_norm": ("lambda x, y: F.group_norm(x.reshape(1, 4, 2), 2, y[0], y[1])", True),
    "group_norm_no_weight": ("lambda x: F.group_norm(x.reshape(2, 2, 2), 1)", False),
    # scatter_reduce_backward (prod): where's last argument first, its divisor before (grad * result).gather()
    "scatter_reduce_prod": ("lambda x, y: x.scatter_reduce(1, torch.tensor([[0, 0], [2, 2]]), y[:, :2], 'prod')",
                            True),
    # renorm_backward: (grad - invnorm * nb) before invnorm * maxnorm
    "renorm": ("lambda x: torch.renorm(x - 0.5, 2, 0, 0.5)", False),
    # sgn_backward: 2 * abs before the numerator
    "complex_abs": ("lambda x: torch.complex(x, x.flip(1) - 0.5).abs()", False),
    # complex acosh: (self - 1).rsqrt() before (self + 1).rsqrt()
    "complex_acosh": ("lambda x: torch.acosh(torch.complex(x + 1, x.flip(1) - 0.5)).abs()", False),
    # a real input's gradient from a complex formula: its real part (view_as_real, select) taken by the formula,
    # before the node's next formula runs (handle_r_to_c)
    "complex_angle": ("lambda x: torch.complex(x, x.flip(1) - 0.5).angle()", False),
    "complex_times_real": ("lambda x, y: (torch.complex(y, x) * x).abs()", True),
    "complex_over_real": ("lambda x, y: (torch.complex(y, x) / (x + 2)).abs()", True),
    "complex_over_real_mode": ("lambda x, y: torch.div(torch.complex(y, x), x + 2, rounding_mode=None).abs()", True),
    "complex_addcmul": ("lambda x, y: torch.addcmul(torch.complex(y, x), x, y).abs()", True),
    "complex_addcdiv": ("lambda x, y: torch.addcdiv(torch.complex(y, x), x, y + 2).abs()", True),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_higher_derivative_graph_matches_torch(name: str):
    f, second, float32, orders = (*OPS[name], True, 3)[:4]
    program = DESCRIBE + f"run({f}, second={second}, orders={orders})\n"
    if float32:
        program += f"run({f}, torch.float32, {second}, {orders})\n"
    same_as_torch(program)
