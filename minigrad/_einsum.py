"""torch.einsum built from differentiable pieces: diagonal, permute, sum, reshape and bmm.

Each operand's labels are first made distinct (a repeated label takes the diagonal), labels that
appear nowhere else are summed away, then operands are contracted left to right: for a pair, the
shared labels still needed later are batch dims, the other shared labels are contracted by one bmm.
The gradients (and double backward) come from those pieces; the graph is not PyTorch's node for
node (PyTorch's einsum adds unsqueezes and extra permutes), but values and gradients agree.
"""
from __future__ import annotations

import builtins
import string

import numpy as np

from . import _ops
from ._tensor import Tensor

_LETTERS = set(string.ascii_letters)


def _parse(equation: str, operands) -> tuple[list[list[str]], list[str]]:
    """Labels of each operand and of the output, with ``...`` expanded to fresh labels."""
    equation = equation.replace(" ", "")
    lhs, arrow, rhs = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(operands):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation"
                           if len(operands) > len(terms)
                           else "einsum(): fewer operands were provided than specified in the equation")
    # "..." stands for the same broadcast batch dims in every operand: give them labels 0, 1, 2...
    ell_dims = 0
    for term, op in zip(terms, operands):
        if "..." in term:
            ell_dims = builtins.max(ell_dims, op.dim() - (len(term) - 3))
    ell = [str(i) for i in range(ell_dims)]
    labels = []
    for k, (term, op) in enumerate(zip(terms, operands)):
        if "..." in term:
            head, _, tail = term.partition("...")
            n = op.dim() - len(head) - len(tail)
            lab = list(head) + ell[ell_dims - n:] + list(tail)
        else:
            lab = list(term)
        for c in lab:
            if not (c in _LETTERS or c.isdigit()):
                raise RuntimeError(f"einsum(): invalid subscript given at index {equation.index(c)} in the "
                                   "equation string, subscripts must be in [a-zA-Z]")
        if len(lab) != op.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({len(lab)}) does not match "
                               f"the number of dimensions ({op.dim()}) for operand {k}"
                               + ("" if "..." in term else " and no ellipsis was given"))
        labels.append(lab)
    if arrow:
        head, dots, tail = rhs.partition("...")
        out = list(head) + (ell if dots else []) + list(tail)
    else:  # implicit output: ellipsis dims, then labels seen once, alphabetically
        counts: dict = {}
        for lab in labels:
            for c in lab:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, n in counts.items() if n == 1 and not c.isdigit())
    return labels, out


def _distinct(t: Tensor, lab: list[str]) -> tuple[Tensor, list[str]]:
    """Take diagonals until every label of ``t`` appears once (einsum("ii->i") is the diagonal)."""
    while len(set(lab)) != len(lab):
        c = next(c for c in lab if lab.count(c) > 1)
        i = lab.index(c)
        j = lab.index(c, i + 1)
        t = t.diagonal(0, i, j)  # the diagonal goes last
        lab = [x for k, x in enumerate(lab) if k not in (i, j)] + [c]
    return t, lab


def _sum_out(t: Tensor, lab: list[str], keep: set) -> tuple[Tensor, list[str]]:
    dims = [k for k, c in enumerate(lab) if c not in keep]
    if dims:
        t = t.sum(tuple(dims))
        lab = [c for c in lab if c in keep]
    return t, lab


def _contract(a, la, b, lb, keep: set):
    """a ⊗ b summed over their shared labels that ``keep`` does not need, as one bmm."""
    batch = [c for c in la if c in lb and c in keep]
    summed = [c for c in la if c in lb and c not in keep]
    left = [c for c in la if c not in lb]
    right = [c for c in lb if c not in la]
    size = {}
    for t, lab in ((a, la), (b, lb)):
        for c, n in zip(lab, t.shape):
            size[c] = builtins.max(size.get(c, 1), n)  # "..." dims broadcast
    a = a.permute([la.index(c) for c in batch + left + summed])
    b = b.permute([lb.index(c) for c in batch + summed + right])
    a = a.expand([size[c] for c in batch + left + summed]) if batch else a
    b = b.expand([size[c] for c in batch + summed + right]) if batch else b

    def prod(cs):
        return int(np.prod([size[c] for c in cs])) if cs else 1

    nb, nl, ns, nr = prod(batch), prod(left), prod(summed), prod(right)
    out = _ops.bmm(a.reshape(nb, nl, ns), b.reshape(nb, ns, nr))
    return out.reshape([size[c] for c in batch + left + right]), batch + left + right


def einsum(equation: str, operands) -> Tensor:
    """Einstein summation over ``operands`` as described by ``equation``."""
    labels, out = _parse(equation, operands)
    ts = []
    for t, lab in zip(operands, labels):
        t, lab = _distinct(t, lab)
        ts.append((t, lab))
    result, rlab = None, None
    for k, (t, lab) in enumerate(ts):
        later = set(out).union(*[set(x) for _, x in ts[k + 1:]])
        if result is None:
            others = set().union(*[set(x) for _, x in ts[1:]])
            result, rlab = _sum_out(t, lab, later | others)
            continue
        t, lab = _sum_out(t, lab, later | set(rlab))
        result, rlab = _sum_out(result, rlab, later | set(lab))
        result, rlab = _contract(result, rlab, t, lab, later)
    result, rlab = _sum_out(result, rlab, set(out))
    return result.permute([rlab.index(c) for c in out])
