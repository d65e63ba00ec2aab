"""A small pytree: nested tuples, lists and dicts of leaves, flattened and rebuilt (``torch.utils._pytree``'s core).

``tree_flatten(((a, b), {"k": c}))`` gives ``[a, b, c]`` and a ``TreeSpec`` that ``tree_unflatten`` uses to put
new leaves back in the same places. The transforms use it to accept nested inputs and outputs; its ``repr``
is PyTorch's, because the transforms' error messages print it.
"""
from __future__ import annotations

from typing import Any


def _is_namedtuple(x) -> bool:
    return isinstance(x, tuple) and hasattr(type(x), "_fields")


def _is_structseq(x) -> bool:
    """torch.return_types' pairs (PyTorch's ``is_structseq_class``): a node of their own type, rebuilt as it."""
    return isinstance(x, tuple) and all(hasattr(type(x), a) for a in ("n_fields", "n_sequence_fields",
                                                                       "n_unnamed_fields"))


class TreeSpec:
    """The shape of a pytree: a container type, its context (dict keys), one child spec per element."""

    def __init__(self, type_: type | None, context, children: list) -> None:
        self.type, self._context, self._children = type_, context, children
        self.num_leaves = 1 if type_ is None else sum(c.num_leaves for c in children)

    def is_leaf(self) -> bool:
        """True for the spec of a single leaf."""
        return self.type is None

    def __eq__(self, other) -> bool:
        return isinstance(other, TreeSpec) and (self.type, self._context, self._children) == \
            (other.type, other._context, other._children)

    def __repr__(self, indent: int = 0) -> str:
        if self.type is None:
            return "*"
        # PyTorch's layout: first child on the same line, the others on new lines indented by 2 per level
        indent += 2
        kids = [c.__repr__(indent) for c in self._children]
        body = (",\n" + " " * indent).join(kids)
        return f"TreeSpec({self.type.__name__}, {self._context}, [{body}])"


LEAF = TreeSpec(None, None, [])


def tree_flatten(tree) -> tuple[list, TreeSpec]:
    """The leaves of ``tree`` in order (dicts in insertion order) and its spec."""
    leaves: list = []
    return leaves, _flatten(tree, leaves)


def _flatten(tree, leaves: list) -> TreeSpec:
    if isinstance(tree, (tuple, list)):
        kind = type(tree) if _is_namedtuple(tree) or _is_structseq(tree) else tuple if isinstance(tree, tuple) \
            else list
        return TreeSpec(kind, type(tree) if _is_namedtuple(tree) else None, [_flatten(x, leaves) for x in tree])
    if isinstance(tree, dict):
        return TreeSpec(dict, list(tree), [_flatten(v, leaves) for v in tree.values()])
    leaves.append(tree)
    return LEAF


def tree_unflatten(leaves, spec: TreeSpec) -> Any:
    """Rebuild the pytree described by ``spec`` from ``leaves``."""
    it = iter(leaves)
    return _unflatten(it, spec)


def _unflatten(it, spec: TreeSpec):
    if spec.type is None:
        return next(it)
    kids = [_unflatten(it, c) for c in spec._children]
    if spec.type is dict:
        return dict(zip(spec._context, kids))
    if spec._context is not None:  # a namedtuple
        return spec.type(*kids)
    return spec.type(kids)


def tree_map(fn, tree) -> Any:
    """``tree`` with every leaf replaced by ``fn(leaf)``."""
    leaves, spec = tree_flatten(tree)
    return tree_unflatten([fn(x) for x in leaves], spec)


def broadcast_to_and_flatten(prefix, spec: TreeSpec) -> list | None:
    """One value per leaf of ``spec``: a leaf of ``prefix`` covers a whole subtree; None if the shapes clash."""
    out: list = []
    return out if _broadcast(prefix, spec, out) else None


def _broadcast(prefix, spec: TreeSpec, out: list) -> bool:
    pspec = _flatten(prefix, []) if isinstance(prefix, (tuple, list, dict)) else LEAF
    if pspec.type is None:  # an in_dim/out_dim for everything below
        out.extend([prefix] * spec.num_leaves)
        return True
    if pspec.type is not spec.type or len(prefix) != len(spec._children):
        return False
    if isinstance(prefix, dict):
        if set(prefix) != set(spec._context):
            return False
        return all(_broadcast(prefix[k], c, out) for k, c in zip(spec._context, spec._children))
    return all(_broadcast(p, c, out) for p, c in zip(prefix, spec._children))
