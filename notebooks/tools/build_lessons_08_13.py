"""Write notebooks 08-13 (without outputs) and their exercise answers.

    cd /work/main && .venv/bin/python notebooks/tools/build_lessons_08_13.py
    for nb in notebooks/0[89]_*.ipynb notebooks/1[0-3]_*.ipynb; do
        .venv/bin/jupyter nbconvert --to notebook --execute --inplace "$nb"; done

The expected answers are computed here with NumPy (or by hand), independently of minigrad, and stored
encoded in notebooks/lesson_answers.json. Pass lesson numbers (e.g. `11 09`) to write only those.
"""
from __future__ import annotations

import sys

import numpy as np
from nbbuild import NOTEBOOKS, code, error, exercise, md, write, write_answers

SETUP = """
import warnings

import minigrad as torch
import viz
from lesson_check import check

torch.manual_seed(0)  # seed every random draw
torch.set_printoptions(precision=4)  # PyTorch's default, stated
"""

PYTORCH_NOTE = "Every code cell is PyTorch code: `import minigrad as torch` makes minigrad stand in for PyTorch."


# ---------------------------------------------------------------- 11 under the hood
L11 = [
    md(f"""
    # Lesson 11 · Under the hood: AutogradMeta

    *Follows note 000 (§扩展: autograd是什么, §tensor 中的autogradmeta, §grad_fun).*

    Note 000 opens PyTorch's C++ source: 「每个tensor都有一个 autogradmeta」 — every tensor carries a small record, `struct AutogradMeta` in `variable.h`, with the fields autograd needs. Python shows each of them under a public name:

    | AutogradMeta field | note 000 says | Python |
    | --- | --- | --- |
    | `grad_` | 存储当前Variable实例的梯度 | `t.grad` |
    | `grad_fn` | 是个Node实例，非叶子节点才有 | `t.grad_fn` |
    | `grad_accumulator_` | 也是Node的实例，只有叶子节点才有 | the `AccumulateGrad` node in a consumer's `next_functions` (`.variable` is the leaf) |
    | `requires_grad_` | 表明此Variable实例是否需要grad | `t.requires_grad` |
    | `retains_grad_` | 只有非叶子节点才有意义 | `t.retains_grad` (set by `t.retain_grad()`) |
    | `is_view_` | 表明此Variable实例是否是个view | `t._is_view()` |
    | `version_counter_` | version number | `t._version` |
    | `output_nr_` | 表明是 Node 的第几个输出 | `t.output_nr` |
    | `base_` | 是view的base variable | `t._base` |

    This lesson pokes at each field, then at what a `grad_fn` saves (`_saved_self`, `_saved_other`). {PYTORCH_NOTE}
    """),
    code(SETUP),
    md("## `grad_`, `grad_fn`, `requires_grad_`: leaves and the rest"),
    code("""
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(3.0, requires_grad=True)
    c = a * b
    for name, t in [("a", a), ("b", b), ("c", c)]:
        print(f"{name}: requires_grad={t.requires_grad}, is_leaf={t.is_leaf}, grad_fn={t.grad_fn}")
    assert a.is_leaf and a.grad_fn is None and not c.is_leaf
    """),
    md("「PyTorch中就是通过 grad_fn是否为空 来判断一个Variable是否是leaf variable」: `is_leaf` is exactly `grad_fn is None` (plus: a tensor that does not require grad is always a leaf)."),
    code("""
    d = torch.tensor(1.0)  # requires_grad=False
    assert all(t.is_leaf == (t.grad_fn is None) for t in (a, b, c, d))
    print(d.is_leaf, d.requires_grad)
    """),
    md("""
    ## `grad_accumulator_`: the node that writes `a.grad`

    A leaf has no `grad_fn`, but it has a **grad accumulator**: an `AccumulateGrad` node. It is what `c.grad_fn.next_functions` points at, and its `.variable` is the leaf. During backward it adds the incoming gradient into `a.grad` (`grad_` in the table).
    """),
    code("""
    print(c.grad_fn.next_functions)
    acc_a = c.grad_fn.next_functions[0][0]
    print(acc_a.name(), acc_a.variable is a)
    assert type(acc_a).__name__ == "AccumulateGrad" and acc_a.variable is a
    """),
    md("There is one accumulator per leaf, shared by every operation that uses it (while it is alive):"),
    code("""
    e = a + 1
    print(e.grad_fn.next_functions[0][0] is acc_a)
    assert e.grad_fn.next_functions[0][0] is acc_a
    """),
    code("""
    c.backward()
    print(a.grad, b.grad)  # dc/da = b, dc/db = a
    assert a.grad.item() == 3.0 and b.grad.item() == 2.0
    """),
    md("""
    ## `_saved_self`, `_saved_other` (§grad_fun)

    「grad_fn 属性还包含 _saved_self 和 _saved_other 两个属性」. A node keeps the tensors its derivative formula needs: for `c = a * b`, `dc/da = b` and `dc/db = a`, so `MulBackward0` saves both inputs. The names follow PyTorch's `derivatives.yaml`: `self` is the first input, `other` the second, `result` the output.
    """),
    code("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.tensor([3.0, 4.0], requires_grad=True)
    m = x * y
    print(m.grad_fn._saved_self, m.grad_fn._saved_other)
    assert m.grad_fn._saved_self is x and m.grad_fn._saved_other is y
    ex = x.exp()  # d exp(x)/dx = exp(x): the node saves its own output
    print(ex.grad_fn._saved_result)
    """),
    md("`viz.draw` shows the saved tensors as orange notes beside their node:"),
    code("""
    out = (m + ex).sum()
    viz.draw(out, params={"x": x, "y": y})
    """),
    md("""
    ## `output_nr_`: which output of its node

    Most operations have one output, so `output_nr` is 0. `unbind` has as many outputs as rows: each piece remembers its position, and `next_functions` entries carry the same number (`(node, output_nr)`).
    """),
    code("""
    rows = torch.arange(6.0).view(2, 3).requires_grad_()
    r0, r1 = rows.unbind(0)
    print(r0.output_nr, r1.output_nr, r0.grad_fn is r1.grad_fn)
    s = r1.sum()
    print(s.grad_fn.next_functions)
    assert (r0.output_nr, r1.output_nr) == (0, 1) and s.grad_fn.next_functions[0][1] == 1
    """),
    md("""
    ## `is_view_` and `base_`: views share memory

    Slicing, `view`, `transpose` make **views**: no data of their own, a window on a base tensor. The view remembers its base in `_base`.
    """),
    code("""
    leaf = torch.ones(4, requires_grad=True)
    z = leaf * 1  # a non-leaf, so it may be modified in place
    v = z[:2]
    print(v._is_view(), v._base is z, z._is_view(), z._base)
    print(v.grad_fn)
    assert v._is_view() and v._base is z and z._base is None
    """),
    md("""
    ## `version_counter_`: in-place operations are counted

    Every in-place operation (`add_`, `mul_`, `x[0] = ...`) bumps `_version`. A view shares the counter of its base. Modifying a view in place rewrites its base's graph: `z.grad_fn` becomes `CopySlices`, the view gets a fresh `AsStridedBackward0`.
    """),
    code("""
    print(z._version, v._version)
    v.mul_(2)
    print(z._version, v._version)
    print(z.grad_fn, v.grad_fn)
    print(z)
    assert z._version == v._version == 1
    z.sum().backward()
    print(leaf.grad)  # 2 where the view was doubled
    assert leaf.grad.tolist() == [2.0, 2.0, 1.0, 1.0]
    """),
    md("""
    The counter is how autograd notices that a tensor it saved was changed afterwards. `exp` saves its output; changing that output in place makes the saved value wrong, and backward refuses:
    """),
    code("""
    w = torch.ones(3, requires_grad=True)
    q = w.exp()
    print(q._version)
    q.add_(1)  # version 0 -> 1
    print(q._version)
    """),
    error("q.sum().backward()"),
    md("""
    ## The same graph, drawn for minigrad and for PyTorch

    `viz` reads only the public graph API (`grad_fn`, `next_functions`, `_saved_*`, `variable`), so it draws PyTorch graphs too. Where PyTorch is installed, the DOT text of the same computation is identical for both libraries. (The check is skipped when PyTorch is absent; the printed sentence is the same either way.)
    """),
    code('''
    def graph_source(lib):
        """DOT text of the graph of (x * y + exp(x)).sum() built with lib."""
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        y = lib.tensor([3.0, 4.0], requires_grad=True)
        out = (x * y + x.exp()).sum()
        return viz.draw(out, params={"x": x, "y": y}).source

    try:
        import torch as pytorch  # real PyTorch, if installed
    except ImportError:
        pytorch = None
    if pytorch is not None:
        assert graph_source(torch) == graph_source(pytorch)
    print("minigrad and PyTorch record the same graph:", True)
    '''),
    code("""
    print("\\n".join(graph_source(torch).splitlines()[:6]))
    """),
    md("## Exercises"),
    *exercise(
        "11.1",
        "`t = torch.ones(3, requires_grad=True) * 2`, then `t.add_(1)`, `t.mul_(3)`, `t[0] = 5.`. What is `t._version`?",
        """
        t = torch.ones(3, requires_grad=True) * 2
        answer = ...  # an int
        check("11.1", answer)
        """,
        """
        t = torch.ones(3, requires_grad=True) * 2
        t.add_(1)
        t.mul_(3)
        t[0] = 5.0
        answer = t._version  # three in-place operations
        check("11.1", answer)
        """,
    ),
    *exercise(
        "11.2",
        "`p = torch.tensor([1., 2., 3.], requires_grad=True)` and `parts = p.split(1)`. Give `[part.output_nr for part in parts]` — and predict it before running.",
        """
        p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        parts = p.split(1)
        answer = ...  # a list of ints
        check("11.2", answer)
        """,
        """
        p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        parts = p.split(1)
        answer = [part.output_nr for part in parts]  # one node, three outputs
        check("11.2", answer)
        """,
    ),
    *exercise(
        "11.3",
        "For `k = x * y` with the `x` and `y` of this lesson, which tensor does `k.grad_fn._saved_other` hold? Answer with its values as a tensor.",
        """
        k = x * y
        answer = ...
        check("11.3", answer)
        """,
        """
        k = x * y
        answer = k.grad_fn._saved_other  # `other` is the second input, y
        check("11.3", answer)
        """,
    ),
]
A11 = {
    "11.1": (3, "count the in-place operations; an indexed assignment is one too."),
    "11.2": ([0, 1, 2], "all parts come from one SplitBackward0 node; output_nr numbers its outputs."),
    "11.3": (np.array([3.0, 4.0]), "`self` is the first input of the multiplication, `other` the second."),
}


LESSONS = {
    "11": ("11_under_the_hood.ipynb", "l11", "L11", "A11"),
}


def main(which: list[str]) -> None:
    g = globals()
    chosen = which or list(LESSONS)
    answers = {}
    for num in chosen:
        answers.update(g[LESSONS[num][3]])
    write_answers(answers)
    for num in chosen:
        filename, prefix, cells, _ = LESSONS[num]
        write(NOTEBOOKS / filename, g[cells], prefix)
        print("wrote", filename)


if __name__ == "__main__":
    main(sys.argv[1:])
