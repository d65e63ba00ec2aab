"""Helpers for viz tests: backends (torch, minigrad), the notes' programs, SVG parsing."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

SVG_NS = "{http://www.w3.org/2000/svg}"
BACKENDS = ["torch", "minigrad"]


@dataclass
class Backend:
    """A torch-like module plus helpers that build the same tensors in either library."""

    name: str
    mod: Any

    def tensor(self, data, requires_grad: bool = False):
        return self.mod.tensor(np.asarray(data, dtype=np.float32), requires_grad=requires_grad)

    @property
    def F(self):
        return self.mod.nn.functional


def load_backend(name: str) -> Backend:
    if name == "torch":
        torch = pytest.importorskip("torch", reason="PyTorch not installed")
        return Backend("torch", torch)
    import minigrad  # never skipped: a broken minigrad must fail these tests

    return Backend("minigrad", minigrad)


def picture(desc):
    """Everything drawn except attributes (PyTorch internals like *_sym_strides differ)."""
    nodes = [
        (
            n.id,
            n.kind,
            n.title,
            n.name,
            n.notes,
            n.count,
            n.tensor
            and (n.tensor.shape, n.tensor.dtype, n.tensor.value, n.tensor.grad, n.tensor.state),
        )
        for n in desc.nodes
    ]
    edges = [(e.src, e.dst, e.kind, e.label, e.input_nr) for e in desc.edges]
    return nodes, edges


def one_layer(B: Backend) -> tuple:
    """The notes' one-layer network: z = x @ w + b; loss = BCE-with-logits(z, y)."""
    rng = np.random.RandomState(0)
    x = B.tensor(np.ones(5))
    y = B.tensor(np.zeros(3))
    w = B.tensor(rng.randn(5, 3), requires_grad=True)
    b = B.tensor(rng.randn(3), requires_grad=True)
    z = B.mod.matmul(x, w) + b
    loss = B.F.binary_cross_entropy_with_logits(z, y)
    return x, y, w, b, z, loss


@dataclass
class SvgGraph:
    nodes: dict[str, dict]  # svg id -> {"classes": [...], "texts": [...]}
    edges: list[dict]  # {"id", "classes", "title"}

    def kinds(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for n in self.nodes.values():
            for c in n["classes"]:
                if c != "node":
                    out[c] = out.get(c, 0) + 1
        return out

    def text(self, node_id: str) -> str:
        return " | ".join(self.nodes[node_id]["texts"])

    def all_text(self) -> str:
        return " | ".join(t for n in self.nodes.values() for t in n["texts"])


def parse_svg(svg: str) -> SvgGraph:
    """Nodes and edges of a Graphviz SVG, by the id/class attributes viz writes."""
    root = ET.fromstring(re.sub(r"^<\?xml[^>]*>\s*<!DOCTYPE[^>]*>", "", svg.strip(), flags=re.S))
    nodes, edges = {}, []
    for g in root.iter(f"{SVG_NS}g"):
        classes = (g.get("class") or "").split()
        if "node" in classes:
            texts = ["".join(t.itertext()) for t in g.iter(f"{SVG_NS}text")]
            nodes[g.get("id")] = {"classes": classes, "texts": texts}
        elif "edge" in classes:
            title = g.find(f"{SVG_NS}title")
            texts = ["".join(t.itertext()) for t in g.iter(f"{SVG_NS}text")]
            edges.append(
                {
                    "id": g.get("id"),
                    "classes": classes,
                    "title": title.text if title is not None else "",
                    "texts": texts,
                }
            )
    return SvgGraph(nodes, edges)
