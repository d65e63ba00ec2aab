"""torch.einsum built from differentiable pieces, following PyTorch's own algorithm step by step.

So the graph is PyTorch's node for node (PermuteBackward0, SumBackward1, BmmBackward0, ViewBackward0 ...):
1. every label gets a position: output labels first (in output order), then the contracted ones (A-Z, a-z);
2. each operand takes diagonals for repeated labels, gets size-1 dims for the labels it lacks and is
   permuted to that common order;
3. operands are contracted left to right: dims no later operand needs are summed (keepdim) or, when both
   have them, contracted by one bmm (``_sumproduct_pair``: permute, reshape, bmm, view, permute);
4. the contracted size-1 dims are viewed away (a single operand: summed).
"""
from __future__ import annotations

import builtins
import string

from . import _ops
from ._tensor import Tensor

_LETTERS = set(string.ascii_letters)


def _parse(equation: str, operands) -> tuple[list[list[str]], list[str]]:
    """Labels of each operand and of the output, with ``...`` expanded to fresh labels."""
    raw_lhs, _, raw_rhs = equation.partition("->")
    _scan(raw_lhs, len(operands))
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
            n = len(lab) if "..." not in term else len(term) - 3
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({n}) "
                               + ("is more than" if "..." in term else "does not match")
                               + f" the number of dimensions ({op.dim()}) for operand {k}"
                               + ("" if "..." in term else " and no ellipsis was given"))
        labels.append(lab)
    if arrow:
        _scan(raw_lhs, None, raw_rhs)
        head, dots, tail = rhs.partition("...")
        out = list(head) + (ell if dots else []) + list(tail)
        seen = {c for lab in labels for c in lab}
        for k, c in enumerate(out):
            if c in out[:k]:
                raise RuntimeError(f"einsum(): output subscript {c} appears more than once in the output")
            if c not in seen:
                raise RuntimeError(f"einsum(): output subscript {c} does not appear in the equation for any input "
                                   "operand")
    else:  # implicit output: ellipsis dims, then labels seen once, alphabetically
        counts: dict = {}
        for lab in labels:
            for c in lab:
                counts[c] = counts.get(c, 0) + 1
        out = ell + sorted(c for c, n in counts.items() if n == 1 and not c.isdigit())
    return labels, out


def _scan(lhs: str, n_ops: int | None, rhs: str | None = None) -> None:
    """PyTorch's character-by-character checks of the equation (indices count spaces): of the operands' side, or,
    given ``rhs``, of the output's."""
    term, found_ell, i = 0, False, 0
    text = lhs if rhs is None else rhs
    where = "for operand {}" if rhs is None else "for output"
    while i < len(text):
        c = text[i]
        if c == ".":
            if found_ell:
                raise RuntimeError(f"einsum(): found '.' {where.format(term)} "
                                   + ("for which an ellipsis was already found" if rhs is None
                                      else "but an ellipsis (...) was already found"))
            if not (i + 2 < len(text) and text[i + 1] == "." and text[i + 2] == "."):
                raise RuntimeError(f"einsum(): found '.' {where.format(term)} that is not part of any ellipsis"
                                   + ("" if rhs is None else " (...)"))
            found_ell, i = True, i + 2
        elif c == "," and rhs is None:
            term, found_ell = term + 1, False
            if term >= n_ops:
                raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
        elif c != " " and c not in _LETTERS:
            raise RuntimeError(f"einsum(): invalid subscript given at index {i if rhs is None else len(lhs) + 2 + i} "
                               "in the equation string, subscripts must be in [a-zA-Z]")
        i += 1
    if rhs is None and term != n_ops - 1:
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")


def _positions(labels: list[list[str]], out: list[str], ell: list[str]) -> tuple[dict, int]:
    """Each label's position in the common order, and how many of them are output dims."""
    pos = {c: i for i, c in enumerate(out)}
    n_out = len(out)
    # Ellipsis dims missing from an explicit output are contracted first, then the other labels, A-Z then a-z.
    for c in ell:
        pos.setdefault(c, len(pos))
    seen = {c for lab in labels for c in lab if not c.isdigit()}
    for c in sorted(seen):
        pos.setdefault(c, len(pos))
    return pos, n_out


def _align(t: Tensor, lab: list[str], pos: dict, k: int, sizes: dict, counts: list) -> Tensor:
    """Operand ``k``: diagonals for repeated labels, size-1 dims for missing ones, permuted to ``pos`` order."""
    perm = [-1] * len(pos)
    dim = 0
    for c in lab:
        p = pos[c]
        if perm[p] == -1:
            n = t.shape[dim]
            if n != 1:
                if sizes.get(c, 1) not in (1, n):
                    if c.isdigit():
                        raise RuntimeError(f"einsum(): dimension {dim} covered by ellipsis in operand {k}has size {n} "
                                           f"which does not broadcast with previously seen ellipsis with size "
                                           f"{sizes[c]} for the respective dimension")
                    raise RuntimeError(f"einsum(): subscript {c} has size {n} for operand {k} which does not "
                                       f"broadcast with previously seen size {sizes[c]}")
                sizes[c] = n
                counts[p] += 1
            perm[p] = dim
            dim += 1
        else:  # a repeated label: its diagonal, moved back to where the label first was
            prev = perm[p]
            if t.shape[dim] != t.shape[prev]:
                raise RuntimeError(f"einsum(): subscript {c} is repeated for operand {k} but the sizes don't match, "
                                   f"{t.shape[dim]} != {t.shape[prev]}")
            t = t.diagonal(0, prev, dim).movedim(-1, prev)
    for p in builtins.range(len(perm)):
        if perm[p] == -1:
            t = t.unsqueeze(dim)
            perm[p] = dim
            dim += 1
    return t.permute(perm)


def _sumproduct_pair(left: Tensor, right: Tensor, sum_dims: list) -> Tensor:
    """Σ over ``sum_dims`` of left·right (aligned, broadcastable tensors), as one bmm; dims kept (size 1)."""
    if not sum_dims:
        return _ops.mul(left, right)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in builtins.range(left.dim()):
        sl, sr = left.shape[i] != 1, right.shape[i] != 1
        if i in sum_dims:
            if sl and sr:
                sum_size *= left.shape[i]
            elif sl:  # only in one operand: summed right away
                left = left.sum(i, keepdim=True)
            elif sr:
                right = right.sum(i, keepdim=True)
        elif sl and sr:
            lro.append(i)
            lro_size *= left.shape[i]
        elif sl:
            lo.append(i)
            lo_size *= left.shape[i]
        else:
            ro.append(i)
            ro_size *= right.shape[i]
    if lo and ro and ro[-1] < lo[0]:
        # (PyTorch's swap_lo_ro: when every right-only output dim comes before the left-only ones, bmm(right, left)
        # writes the result in the output's order already; this decides the result's strides and the bmm's inputs)
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = ([left.shape[d] for d in lro] + [left.shape[d] for d in lo] + [1] * len(sum_dims)
                + [right.shape[d] for d in ro])
    order = lro + lo + list(sum_dims) + ro
    operm = [0] * len(order)
    for i, d in enumerate(order):
        operm[d] = i
    left = left.permute(order).reshape(lro_size, lo_size, sum_size)
    right = right.permute(lro + list(sum_dims) + ro + lo).reshape(lro_size, sum_size, ro_size)
    return _ops.bmm(left, right).view(out_size).permute(operm)


def einsum(equation: str, operands) -> Tensor:
    """Einstein summation over ``operands`` as described by ``equation``."""
    labels, out = _parse(equation, operands)
    ell = sorted({c for lab in labels for c in lab if c.isdigit()}, key=int)
    pos, n_out = _positions(labels, out, ell)
    sizes: dict = {}
    counts = [0] * len(pos)  # per position: how many operands have it with a size other than 1
    ops = [_align(t, lab, pos, k, sizes, counts) for k, (t, lab) in enumerate(zip(operands, labels))]
    while len(ops) > 1:
        a, b = ops[0], ops[1]
        del ops[:2]
        sum_dims, a_sum, b_sum = [], [], []
        for d in builtins.range(n_out, len(pos)):
            if a.shape[d] != 1 and b.shape[d] != 1:
                counts[d] -= 1
                if counts[d] == 1:  # no later operand has it: contract it now
                    sum_dims.append(d)
                    counts[d] = 0
            elif counts[d] == 1:
                if a.shape[d] != 1:
                    a_sum.append(d)
                    counts[d] = 0
                elif b.shape[d] != 1:
                    b_sum.append(d)
                    counts[d] = 0
        if a_sum:
            a = a.sum(a_sum, keepdim=True)
        if b_sum:
            b = b.sum(b_sum, keepdim=True)
        ops.insert(0, _sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if len(pos) > n_out:
        if len(operands) > 1:  # contracted dims are size 1 by now
            return result.view(list(result.shape[:n_out]))
        return result.sum(list(builtins.range(n_out, len(pos))))
    return result
