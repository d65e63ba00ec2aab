"""Write notebooks 00 and 01-07 (without outputs) and their exercise answers.

    cd /work/main && .venv/bin/python notebooks/tools/build_lessons_01_07.py
    for nb in notebooks/0[0-7]_*.ipynb; do
        .venv/bin/jupyter nbconvert --to notebook --execute --inplace "$nb"; done

The expected answers are computed here with NumPy, independently of minigrad, and stored encoded in
notebooks/lesson_answers.json.
"""
from __future__ import annotations

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

COUNT_NODES = '''
def count_nodes(t):
    """How many backward nodes (grad_fn and AccumulateGrad) hang under t."""
    seen, stack = [], [t.grad_fn] if t.grad_fn is not None else []
    while stack:
        fn = stack.pop()
        if any(fn is s for s in seen):
            continue
        seen.append(fn)
        stack.extend(nxt for nxt, _ in fn.next_functions if nxt is not None)
    return len(seen)
'''


def sigmoid(v: float) -> float:
    return float(1.0 / (1.0 + np.exp(-v)))


# ---------------------------------------------------------------- 00 start here
LESSON_MAP = """
| # | notebook | topic | source notes |
| --- | --- | --- | --- |
| 00 | `00_start_here` | this page: the toolkit, the map, drawing your own graph | — |
| 01 | `01_tensors_that_remember` | `requires_grad`, `grad_fn`, `grad`, 叶子节点 | 001, 000 |
| 02 | `02_one_layer_network` | `matmul` + `binary_cross_entropy_with_logits`, `loss.backward()`, 计算图 | 000, 004 |
| 03 | `03_backward_in_detail` | `backward(gradient, retain_graph, create_graph)`, `autograd.backward`, `autograd.grad` | 001, 003 |
| 04 | `04_vector_jacobian_products` | `vᵀ·J`, non-scalar outputs, the `eye(4, 5)` example | 002, 000, 004 |
| 05 | `05_accumulation_and_zeroing` | gradients add up, 梯度清0, `retain_graph` | 000, 003 |
| 06 | `06_turning_tracking_off` | `no_grad`, `enable_grad`, `set_grad_enabled`, `detach`, `inference_mode` | 000, 001, 002, 003, 004 |
| 07 | `07_dynamic_graphs` | define-by-run, control flow, 动态图机制 | 000, 002 |
| 08 | `08_intermediate_gradients` | intermediate gradients: `retain_grad`, `register_hook` (获取中间tensor的梯度), node hooks, the backward stepper | 000 |
| 09 | `09_custom_functions` | custom functions: `Function`, `ctx` (`Exp`, `MultiplyAdd`, the Legendre polynomial fit), gradcheck on your own Function | 000, 001, 003 |
| 10 | `10_higher_order_derivatives` | higher-order derivatives (高阶求导): `create_graph`, Hessians, `autograd.functional` | 001, 003 |
| 11 | `11_under_the_hood` | under the hood: AutogradMeta (`grad_fn`, `grad_accumulator_`, `output_nr_`, `version_counter_`, views, `_saved_*`) | 000 |
| 12 | `12_autograd_toolbox` | the toolbox: `gradcheck`, anomaly mode, saved-tensor hooks, the profiler, forward-mode AD | 002, 003 |
| 13 | `13_putting_it_together` | train a small network with `nn` and `optim`: loss curve, decision boundary | 000, 004 |
"""

L00 = [
    md("""
    # Start here: minigrad, a toolkit for learning automatic differentiation

    minigrad is three things in one repository:

    1. **`minigrad`** — an autograd engine on NumPy whose API is PyTorch's: write `import minigrad as torch` and PyTorch's autograd tutorials run unchanged and print the same thing.
    2. **`viz`** — draws the backward graph (自动微分的计算图, the DAG of `grad_fn` nodes), steps through a backward pass, and plots.
    3. **these lessons** — one notebook per chapter of the source notes on `torch.autograd` (自动微分机制).

    Every lesson runs as a test: the outputs stored in the notebooks are compared cell by cell.
    """),
    code("""
    import minigrad as torch

    torch.manual_seed(0)
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    c = a + b
    d = torch.sum(c)
    print(c)
    print(d)
    """),
    md("`d` remembers how it was made: its `grad_fn` is a node of the backward graph. `backward()` walks that graph and fills `.grad` of the leaves."),
    code("""
    d.backward()
    print(a.grad, b.grad)
    assert a.grad.tolist() == [1.0, 1.0, 1.0]
    """),
    md("## The lessons\n\nEach lesson follows one part of the five source notes in `../shared/seeds/` (Chinese notes on `torch.autograd`); `README.md` in this folder names the note and section for every lesson.\n\n" + LESSON_MAP.strip()),
    md("""
    ## How a lesson works

    * Every code cell is PyTorch code: the first cell says `import minigrad as torch`. Replace `minigrad` by `torch` in the import lines (`import minigrad as torch` → `import torch`, `from minigrad.autograd import Function` → `from torch.autograd import Function`) and the lesson runs on real PyTorch (object addresses and random draws aside).
    * Key facts are checked with `assert`, so a lesson that stops being true fails loudly.
    * Cells marked with the tag `raises-exception` show an error **on purpose**: reading PyTorch's error messages is part of learning autograd.
    * Each lesson ends with exercises. Replace `...` with your answer and run the cell: `check(name, value)` from `lesson_check.py` prints `✓` or tells you what is off, without giving the answer away. A worked solution sits in the collapsed cell after each exercise.
    """),
    code("""
    from lesson_check import check

    check("01.1", ...)   # an unanswered exercise only says so
    """),
    md("""
    ## Draw your own graph

    `viz.draw(output)` draws the graph behind any tensor (minigrad's or PyTorch's). Blue boxes are leaves (叶子节点, with their `AccumulateGrad` node), grey boxes are backward functions (`grad_fn`), orange notes are the tensors a node saved for backward, and the green box is the output. Tensors are named after your variables; pass `params={"name": tensor}` to name them explicitly.
    """),
    code("""
    import viz

    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, torch.zeros(3))
    viz.draw(loss, params={"w": w, "b": b})
    """),
    md("""
    Useful options: `direction="forward"` (data flow, inputs on top), `show_saved=False` (hide saved tensors), `color_grads=True` (fill leaves by gradient size, after `backward()`), `show_attrs=True` (non-tensor saved values such as `_saved_alpha`).
    A drawing saves to a file with `.save("graph.svg")` (or `.png`, `.pdf`; `.dot` writes the Graphviz text), and `.source` is the DOT text itself.
    """),
    code("""
    loss.backward()
    drawing = viz.draw(loss, params={"w": w, "b": b}, direction="forward", color_grads=True)
    print(drawing.source.splitlines()[0])
    drawing
    """),
    md("""
    Rendering uses the pip package `graphviz-pure`, so no system Graphviz is needed; `engine="dot"` uses a system Graphviz instead.

    Next: **lesson 01 — tensors that remember**.
    """),
]

# ---------------------------------------------------------------- 01 tensors that remember
L01 = [
    md("""
    # Lesson 01 · Tensors that remember

    *Follows note 001 (§requires_grad, §grad_fn, §grad, §示例) and note 000 (§require_grad的自动机制).*

    PyTorch's 自动微分机制 (automatic differentiation) rests on three attributes of every tensor:

    * **`requires_grad`** — 「用于指定是否需要计算该张量的梯度」: should autograd compute a gradient for this tensor? Default `False`.
    * **`grad_fn`** — 「指向创建该张量的函数」: the backward function of the operation that made the tensor. It records how the tensor was computed, which is what builds the 计算图 (computational graph).
    * **`grad`** — 「存储了相对于该张量的梯度值」: where the gradient lands after `backward()`.

    Every cell below is PyTorch code: `import minigrad as torch` makes minigrad stand in for PyTorch.
    """),
    code(SETUP),
    md("## The example of note 001: `c = a + b`, `d = sum(c)`"),
    code("""
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)

    c = a + b
    d = torch.sum(c)

    print(c.requires_grad)  # True
    print(c.grad_fn)  # <AddBackward0 object at 0x...>

    print(d.requires_grad)  # True
    print(d.grad_fn)  # <SumBackward0 object at 0x...>
    """),
    md("The address after `object at` changes on every run (the tests mask it). A tensor's printout names its `grad_fn` too:"),
    code("""
    print(c)
    print(d)
    assert type(c.grad_fn).__name__ == "AddBackward0"
    assert d.grad_fn.name() == "SumBackward0"
    """),
    md("""
    ## 叶子节点: leaves

    `a` and `b` were made by us, not by an operation, so they have no `grad_fn`: they are **leaves** (叶子节点). Note 000 says it exactly: 「PyTorch中就是通过 grad_fn是否为空 来判断一个Variable是否是leaf variable」 — a tensor is a leaf when its `grad_fn` is empty.
    """),
    code("""
    print(a.is_leaf, a.grad_fn)
    print(c.is_leaf, c.grad_fn.name())
    assert a.is_leaf and a.grad_fn is None and not c.is_leaf
    """),
    md("""
    ## The graph is made of `grad_fn` nodes

    Each `grad_fn` knows the nodes of its inputs through `next_functions`: pairs `(node, output_nr)`. A leaf that requires grad is represented by an `AccumulateGrad` node whose `.variable` is the leaf: that node will write into `a.grad`. Following `next_functions` from `d` walks the whole 计算图, a directed acyclic graph (DAG).
    """),
    code("""
    print(d.grad_fn.next_functions)
    print(c.grad_fn.next_functions)
    acc_a = c.grad_fn.next_functions[0][0]
    print(type(acc_a).__name__, acc_a.variable is a)
    assert acc_a.variable is a
    """),
    md("`viz.draw` draws the same walk. Read it top-down for backward (the gradient flows from `d` to the leaves), bottom-up for the forward pass:"),
    code("viz.draw(d)"),
    md("""
    ## grad: empty until backward

    `d = Σᵢ (aᵢ + bᵢ)`, so `∂d/∂aᵢ = 1` and `∂d/∂bᵢ = 1`. Before `backward()` there is nothing in `.grad`:
    """),
    code("""
    print(a.grad)
    d.backward()
    print(a.grad)
    print(b.grad)
    assert a.grad.tolist() == [1.0, 1.0, 1.0] and b.grad.tolist() == [1.0, 1.0, 1.0]
    """),
    md("Drawn again, the leaves now show their gradients:"),
    code("viz.draw(d)"),
    md("""
    Only leaves keep `.grad`. Reading `.grad` of a non-leaf such as `c` gives `None` and a `UserWarning` (caught here so that its text is shown; lesson 08 shows `retain_grad()`):
    """),
    code("""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(c.grad)
    print(caught[0].category.__name__)
    print(caught[0].message)
    """),
    md("""
    ## requires_grad spreads (note 000 §require_grad的自动机制)

    Note 001: 「如果某一个节点requires_grad被设置为True，那么所有有它产生的张量requires_grad都是True」 — everything computed from a tensor that requires grad requires grad too. Note 000's example, exactly as written (it reuses the names `a` and `b`; we are done with the tensors above):
    """),
    code("""
    x = torch.rand(5, 5)
    y = torch.rand(5, 5)
    z = torch.rand((5, 5), requires_grad=True)

    a = x + y
    print(f"Does `a` require gradients? : {a.requires_grad}")
    b = x + z
    print(f"Does `b` require gradients?: {b.requires_grad}")
    assert not a.requires_grad and b.requires_grad
    """),
    md("`a` is built only from tensors that do not require grad, so nothing is recorded: it is a leaf with no `grad_fn`. `b` has one input that requires grad, so it gets an `AddBackward0` node — but only `z` appears in its graph, because `x` needs no gradient:"),
    code("""
    print(a.grad_fn, a.is_leaf)
    print(b.grad_fn.next_functions)
    assert a.grad_fn is None and b.grad_fn.next_functions[0][0] is None
    viz.draw(b, params={"z": z})
    """),
    md("""
    ## Errors on purpose

    Only floating point (and complex) tensors can require gradients — the derivative of an integer-valued function is not defined:
    """),
    error("torch.tensor([1, 2, 3]).requires_grad_()"),
    md("And `backward()` needs a graph to walk: a result built only from tensors that do not require grad has none."),
    error("torch.ones(3).sum().backward()"),
    md("`requires_grad` can be switched on after creation (note 004: 「您可以在创建张量时设置requires_grad的值，或者稍后使用x.requires_grad_(True)方法设置」):"),
    code("""
    u = torch.ones(3)
    print(u.requires_grad)
    u.requires_grad_(True)
    print(u.requires_grad, u.is_leaf)
    assert u.requires_grad and u.is_leaf
    """),
    md("## Exercises"),
    *exercise(
        "01.1",
        "With `p = [1., 2., 3.]` and `q = [4., 5., 6.]` (both requiring grad) and `r = (p * q).sum()`, run backward and give `p.grad`.",
        """
        p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        q = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
        r = (p * q).sum()
        answer = ...  # run backward, then put p.grad here
        check("01.1", answer)
        """,
        """
        p = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        q = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
        r = (p * q).sum()
        r.backward()
        answer = p.grad  # ∂r/∂pᵢ = qᵢ
        check("01.1", answer)
        """,
    ),
    *exercise(
        "01.2",
        "What is the class name of the `grad_fn` of `p * 2`? Answer with a string (predict it, then confirm in code).",
        """
        answer = ...  # a string such as "XxxBackward0"
        check("01.2", answer)
        """,
        """
        answer = type((p * 2).grad_fn).__name__  # or (p * 2).grad_fn.name()
        check("01.2", answer)
        """,
    ),
    *exercise(
        "01.3",
        "With `x = torch.rand(3)` and `z = torch.rand(3, requires_grad=True)`, which of `x * 2`, `x + z`, `(x * 2).sum()`, `z.sum() + x.sum()` require gradients? Answer with a list of four bools.",
        """
        x = torch.rand(3)
        z = torch.rand(3, requires_grad=True)
        answer = ...  # e.g. [True, False, False, True]
        check("01.3", answer)
        """,
        """
        x = torch.rand(3)
        z = torch.rand(3, requires_grad=True)
        answer = [t.requires_grad for t in (x * 2, x + z, (x * 2).sum(), z.sum() + x.sum())]
        check("01.3", answer)
        """,
    ),
]
A01 = {
    "01.1": (np.array([4.0, 5.0, 6.0]), "r = Σ pᵢ·qᵢ, so ∂r/∂pᵢ is qᵢ; call r.backward() first."),
    "01.2": ("MulBackward0", "multiplication records a MulBackward0 node; type(t.grad_fn).__name__ gives the name."),
    "01.3": ([False, True, False, True], "a result requires grad exactly when one of its inputs does."),
}

# ---------------------------------------------------------------- 02 one-layer network
L02 = [
    md("""
    # Lesson 02 · The one-layer network

    *Follows note 000 (§自动微分机制, the example) and note 004 (§使用 torch.autograd 自动微分, §1、计算梯度).*

    **反向传播算法** (backpropagation): 「根据loss相对于给定参数的梯度来调整parameters(模型权重)」 — parameters are adjusted by the gradient of the loss with respect to them. 「为了计算这些梯度，PyTorch有一个内置的微分引擎，名为torch.autograd。它支持任何计算图的梯度自动计算。」

    The simplest network: input `x`, parameters `w` and `b`, prediction `z = x·w + b`, and a loss that compares `z` with the expected output `y`.
    """),
    code(SETUP),
    code("""
    x = torch.ones(5)  # input tensor
    y = torch.zeros(3)  # expected output
    w = torch.randn(5, 3, requires_grad=True)  # 随机初始化权重
    print(w)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w)+b  # 预测值z=wx+b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)  # 计算损失
    loss
    """),
    md("""
    The numbers differ from the note's, whose run was not seeded. After `torch.manual_seed(0)` minigrad draws exactly what PyTorch draws (the same generator, the same arithmetic), so PyTorch prints these same numbers. What follows checks the mathematics, which does not depend on the draw.

    Note 004: 「我们应用于张量来构造计算图的函数实际上是类 Function 的对象。该对象知道如何向前计算函数，以及如何在向后传播步骤中计算其导数。对反向传播函数的引用存储在张量的 grad_fn 属性中。」
    """),
    code("""
    print(f"Gradient function for z = {z.grad_fn}")
    print(f"Gradient function for loss = {loss.grad_fn}")
    """),
    md("## The graph"),
    code('viz.draw(loss, params={"w": w, "b": b})'),
    md("""
    Reading the picture from the top:

    * `loss` (green) is the output; its `grad_fn` is `BinaryCrossEntropyWithLogitsBackward0`, which saved `z` (as `self`) and `y` (as `target`) because its derivative needs them.
    * `AddBackward0` is the `+ b`; its second input is the leaf `b` (blue, with its `AccumulateGrad` node).
    * `torch.matmul(x, w)` of a vector and a matrix is recorded as `MmBackward0` (the vector viewed as a 1×5 matrix) followed by `SqueezeBackward4` — exactly what PyTorch records. `MmBackward0` saved `x` (as `self`, the 1×5 view of it) to compute `w`'s gradient.
    * `x` and `y` do not require grad, so they are not nodes: they appear only where they were saved.
    """),
    md("""
    ## The gradients, by hand and by autograd

    With `y = 0` the loss is the mean over the three outputs of `log(1 + e^{z_j})` (in general `−[y log σ(z) + (1−y) log(1−σ(z))]`), so

    $$\\frac{\\partial\\,loss}{\\partial z_j} = \\frac{\\sigma(z_j) - y_j}{3}, \\qquad
      \\frac{\\partial\\,loss}{\\partial b_j} = \\frac{\\sigma(z_j) - y_j}{3}, \\qquad
      \\frac{\\partial\\,loss}{\\partial w_{ij}} = x_i\\,\\frac{\\sigma(z_j) - y_j}{3}.$$

    Since `x` is all ones, every row of `w.grad` equals `b.grad` — which is why the note's printout shows five identical rows.
    """),
    code("""
    loss.backward()
    print(w.grad)
    print(b.grad)
    """),
    code("""
    expected = (torch.sigmoid(z.detach()) - y) / 3
    print(expected)
    assert torch.allclose(b.grad, expected)
    assert torch.allclose(w.grad, torch.outer(x, expected))
    """),
    md("After `backward()` the leaves hold their gradients (`color_grads=True` fills them by gradient size). The saved tensors were freed by `backward()` to save memory (lesson 05):"),
    code('viz.draw(loss, params={"w": w, "b": b}, color_grads=True)'),
    md("""
    ## What a node saves: `_saved_*`

    Note 000 (§grad_fun): 「grad_fn 属性还包含 _saved_self 和 _saved_other 两个属性」 — `_saved_self` is the node's own input kept for backward, `_saved_other` its other input. The names follow the operation's arguments, so the loss node has `_saved_self` and `_saved_target`. A fresh forward pass (the old one's saved tensors are gone):
    """),
    code("""
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    fn = loss.grad_fn
    print(fn._saved_self)       # z
    print(fn._saved_target)     # y
    print(fn._saved_weight, fn._saved_reduction)   # no weight; reduction 1 = 'mean'
    assert torch.equal(fn._saved_self, z) and torch.equal(fn._saved_target, y)

    prod = w * b                 # (5, 3) * (3,): MulBackward0 saves both inputs
    print(prod.grad_fn._saved_self.shape, prod.grad_fn._saved_other.shape)
    """),
    md("Because `backward()` frees the saved tensors, a second `backward()` through the same graph fails (lessons 03 and 05 show `retain_graph`):"),
    error("""
    loss.backward()
    loss.backward()
    """),
    md("""
    ## One step of learning

    「根据loss相对于给定参数的梯度来调整parameters」: move each parameter a little against its gradient. The update itself must not be recorded (`torch.no_grad()`, lesson 06) and old gradients must be cleared (lesson 05).
    """),
    code("""
    w.grad = None
    b.grad = None
    lr = 0.5
    losses = []
    for step in range(5):
        z = torch.matmul(x, w) + b
        loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
        losses.append(round(loss.item(), 4))
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
        w.grad = None
        b.grad = None
    print(losses)
    assert all(later < earlier for earlier, later in zip(losses, losses[1:]))
    """),
    md("## Exercises\n\nThe exercises use fixed parameters instead of random ones, so their answers are the same everywhere."),
    *exercise(
        "02.1",
        "Take `x = [1., 2., 0., 0., -1.]`, `w = torch.full((5, 3), 0.1)` and `b = torch.zeros(3)` (both requiring grad), `y = torch.zeros(3)`, and the same loss. What is `w.grad`? Predict its pattern from the formula above, then compute it.",
        """
        x = torch.tensor([1.0, 2.0, 0.0, 0.0, -1.0])
        y = torch.zeros(3)
        w = torch.full((5, 3), 0.1, requires_grad=True)
        b = torch.zeros(3, requires_grad=True)
        answer = ...  # build z and loss, run backward, put w.grad here
        check("02.1", answer)
        """,
        """
        x = torch.tensor([1.0, 2.0, 0.0, 0.0, -1.0])
        y = torch.zeros(3)
        w = torch.full((5, 3), 0.1, requires_grad=True)
        b = torch.zeros(3, requires_grad=True)
        z = torch.matmul(x, w) + b
        loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
        loss.backward()
        answer = w.grad  # row i is x_i · (σ(0.2) − 0) / 3
        check("02.1", answer)
        """,
    ),
    *exercise(
        "02.2",
        "Same `x`, `w`, `b`, but `y = torch.ones(3)` and the mean squared error `((z - y) ** 2).mean()` as the loss. What is `b.grad`?",
        """
        x = torch.tensor([1.0, 2.0, 0.0, 0.0, -1.0])
        y = torch.ones(3)
        w = torch.full((5, 3), 0.1, requires_grad=True)
        b = torch.zeros(3, requires_grad=True)
        answer = ...  # b.grad after backward of the squared-error loss
        check("02.2", answer)
        """,
        """
        x = torch.tensor([1.0, 2.0, 0.0, 0.0, -1.0])
        y = torch.ones(3)
        w = torch.full((5, 3), 0.1, requires_grad=True)
        b = torch.zeros(3, requires_grad=True)
        z = torch.matmul(x, w) + b
        loss = ((z - y) ** 2).mean()
        loss.backward()
        answer = b.grad  # 2 (z_j − y_j) / 3 with z_j = 0.2
        check("02.2", answer)
        """,
    ),
    *exercise(
        "02.3",
        "How many `AccumulateGrad` nodes does the graph of the network's `loss` have? Count them in the picture above, or walk `next_functions` in code. Answer with an int.",
        """
        answer = ...  # an int
        check("02.3", answer)
        """,
        """
        answer = 2  # one per leaf that requires grad: w and b
        check("02.3", answer)
        """,
    ),
]
_s = sigmoid(0.2) / 3
A02 = {
    "02.1": (np.outer([1.0, 2.0, 0.0, 0.0, -1.0], [_s] * 3),
             "∂loss/∂w_ij = x_i·(σ(z_j) − y_j)/3 with z_j = Σ x_i·0.1 = 0.2; the result has w's shape (5, 3)."),
    "02.2": (np.full(3, 2 * (0.2 - 1.0) / 3),
             "d/dz_j of mean((z − y)²) over 3 elements is 2(z_j − y_j)/3, and ∂z_j/∂b_j = 1."),
    "02.3": (2, "each leaf that requires grad gets one AccumulateGrad node; x and y do not require grad."),
}

# ---------------------------------------------------------------- 03 backward in detail
L03 = [
    md("""
    # Lesson 03 · Backward in detail

    *Follows note 001 (§backward()方法) and note 003 (§backward, §grad).*

    `tensor.backward(gradient=None, retain_graph=None, create_graph=False)` has three arguments (note 001):

    * **gradient（梯度）** — 「用于指定计算梯度的权重」: the weights `v` of the vector–Jacobian product (lesson 04). Needed when the tensor is not a scalar.
    * **retain_graph（保留计算图）** — 「默认情况下，retain_graph参数为False，表示在调用backward()方法后会释放计算图」: keep the graph for another backward.
    * **create_graph（创建计算图）** — 「用于指定是否创建一个新的计算图以供计算二阶导数」: record the backward pass itself, for second derivatives.

    `torch.autograd.backward(tensors, grad_tensors, ...)` is the same for several tensors at once, and `torch.autograd.grad(outputs, inputs, ...)` returns gradients instead of accumulating them into `.grad` (note 003).
    """),
    code(SETUP),
    md("## gradient\n\nNote 001's example: 「torch.ones(c.size()) * 2创建了一个与c形状相同的张量，其中的元素值都为2。这个张量作为参数传递给backward()方法，表示将梯度乘以2进行加权处理。」"),
    code("""
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
    c = a + b
    c.backward(torch.ones(c.size()) * 2)
    print(a.grad, b.grad)
    assert a.grad.tolist() == [2.0, 2.0, 2.0]
    """),
    md("""
    Note 001 says the default `None` means 「使用张量的值自动计算梯度」. Precisely: for a **scalar** output the default is `1`; for any other output PyTorch refuses to guess:
    """),
    error("(a * b).backward()"),
    md("`gradient` must have the output's shape:"),
    error("(a * b).backward(torch.ones(2))"),
    md("`out.backward(v)` is the same as `(out * v).sum().backward()` — `v` weights each output element:"),
    code("""
    a.grad = None
    v = torch.tensor([1.0, 10.0, 100.0])
    (a * b).backward(v)
    g1 = a.grad.clone()
    a.grad = None
    ((a * b) * v).sum().backward()
    print(g1, a.grad)
    assert torch.equal(g1, a.grad)
    """),
    md("""
    ## retain_graph

    `backward()` frees the tensors the graph saved. Note 003 adds: 「注意在几乎所有情形下将其设为True都是不必要的,因为总有更好的解决方法」 — it is rarely needed; usually one builds a fresh graph.
    """),
    code("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = (x * x).sum()  # MulBackward0 saves x (as self and as other)
    y.backward(retain_graph=True)
    print(x.grad)
    y.backward()  # the graph is still there; the gradients add up (lesson 05)
    print(x.grad)
    assert x.grad.tolist() == [4.0, 8.0, 12.0]
    """),
    md("The second call did not retain the graph, so a third one fails:"),
    error("y.backward()"),
    md("""
    ## create_graph: derivatives of derivatives

    With `create_graph=True` the backward pass is recorded like any other computation, so its result has a `grad_fn` and can be differentiated again. `torch.autograd.grad` is the clean way to do it:
    """),
    code("""
    x = torch.tensor(3.0, requires_grad=True)
    y = x ** 3
    (dydx,) = torch.autograd.grad(y, x, create_graph=True)
    print(dydx)  # 3x² = 27, with a grad_fn: the derivative is itself a graph
    (d2ydx2,) = torch.autograd.grad(dydx, x)
    print(d2ydx2)  # 6x = 18
    assert dydx.item() == 27.0 and d2ydx2.item() == 18.0
    """),
    md("The graph of the derivative `3x²` — built by the backward pass of `PowBackward0`:"),
    code('viz.draw(dydx, params={"x": x})'),
    md("`backward(create_graph=True)` works too: `x.grad` then has a history of its own. But that gradient points back into the graph of its own parameter — a reference cycle — and PyTorch warns about it (the warning is caught here so that its text is shown):"),
    code("""
    x.grad = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x ** 3).backward(create_graph=True)
    print(x.grad.requires_grad, x.grad.item())
    print(caught[0].message)
    x.grad = None  # break the cycle
    """),
    md("""
    ## torch.autograd.backward

    Note 003: 「计算 `tensors` 对所有计算图叶节点的梯度」 with one `grad_tensors` entry per tensor (its `gradient`). Several outputs contribute the sum of their vector–Jacobian products:
    """),
    code("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y1 = x * 2
    y2 = (x ** 2).sum()
    torch.autograd.backward([y1, y2], grad_tensors=[torch.ones(3), torch.tensor(1.0)])
    print(x.grad)  # 2 + 2x
    assert x.grad.tolist() == [4.0, 6.0, 8.0]
    """),
    md("""
    The signature in note 003 has one more argument, **grad_variables**: the old name of `grad_tensors`. It still works, with a deprecation warning (caught and printed here); write `grad_tensors`. (Today's PyTorch also has `inputs=`, which limits the accumulation to the given leaves.)
    """),
    code("""
    x.grad = None
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.autograd.backward([x * 2], grad_variables=[torch.ones(3)])
    print(x.grad)
    print(caught[0].message)
    assert x.grad.tolist() == [2.0, 2.0, 2.0]
    """),
    md("""
    ## torch.autograd.grad, argument by argument

    Note 003: 「计算 `outputs` 对 `inputs` 的梯度并返回」. It returns a tuple (one gradient per input) and leaves `.grad` alone.
    """),
    code("""
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    out = (w * x).sum()
    gx, gw = torch.autograd.grad(out, (x, w))
    print(gx, gw)
    print(x.grad, w.grad)  # untouched
    assert x.grad is None and torch.equal(gx, w.detach())
    """),
    md("**grad_outputs** is `backward`'s `gradient` (「类似于backward()的grad_tensors」), needed for a non-scalar output:"),
    code("""
    (gx,) = torch.autograd.grad(w * x, x, grad_outputs=torch.tensor([1.0, 0.0, 0.0]))
    print(gx)
    assert gx.tolist() == [0.5, 0.0, 0.0]
    """),
    md("**retain_graph** and **create_graph** mean what they mean for `backward` (`retain_graph` defaults to `create_graph`). **only_inputs** is a leftover: note 003 describes `only_inputs=False` as also accumulating into every leaf's `.grad`; today's PyTorch ignores it with a warning:"),
    code("""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (gx,) = torch.autograd.grad((w * x).sum(), x, only_inputs=False)
    print(gx, w.grad)
    print(caught[0].message)
    """),
    md("**allow_unused**: 「若为False,则指定的inputs没有参与outputs的计算将视作一个错误」 — asking for the gradient of an input the output does not depend on is an error by default:"),
    error("""
    unused = torch.tensor(1.0, requires_grad=True)
    torch.autograd.grad((w * x).sum(), [x, unused])
    """),
    code("""
    unused = torch.tensor(1.0, requires_grad=True)
    print(torch.autograd.grad((w * x).sum(), [x, unused], allow_unused=True))
    print(torch.autograd.grad((w * x).sum(), [x, unused], materialize_grads=True))  # zeros instead of None
    """),
    md("## Exercises"),
    *exercise(
        "03.1",
        "For `f(x) = x ** 4` at `x = 2`, compute the second derivative with `torch.autograd.grad` (twice).",
        """
        x = torch.tensor(2.0, requires_grad=True)
        answer = ...  # d²f/dx² at x = 2
        check("03.1", answer)
        """,
        """
        x = torch.tensor(2.0, requires_grad=True)
        (g,) = torch.autograd.grad(x ** 4, x, create_graph=True)  # 4x³
        (h,) = torch.autograd.grad(g, x)  # 12x²
        answer = h
        check("03.1", answer)
        """,
    ),
    *exercise(
        "03.2",
        "With `a = [1., 2.]`, `b = [3., 4.]` and `out = (a * b + a).sum()`, get both gradients with one call of `torch.autograd.grad`. Answer with the tuple it returns.",
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        out = (a * b + a).sum()
        answer = ...  # (gradient for a, gradient for b)
        check("03.2", answer)
        """,
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        out = (a * b + a).sum()
        answer = torch.autograd.grad(out, (a, b))  # (b + 1, a)
        check("03.2", answer)
        """,
    ),
    *exercise(
        "03.3",
        "For `y = x ** 2` with `x = [1., 2., 3.]`, what does `torch.autograd.grad(y, x, grad_outputs=v)` return for `v = [1., 0.5, 0.]`?",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x ** 2
        answer = ...
        check("03.3", answer)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x ** 2
        (answer,) = torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.5, 0.0]))  # 2x·v
        check("03.3", answer)
        """,
    ),
]
A03 = {
    "03.1": (48.0, "f' = 4x³ needs create_graph=True so that it can be differentiated again; f'' = 12x²."),
    "03.2": ([np.array([4.0, 5.0]), np.array([1.0, 2.0])],
             "torch.autograd.grad(out, (a, b)) returns a tuple; ∂out/∂a = b + 1 and ∂out/∂b = a."),
    "03.3": (np.array([2.0, 2.0, 0.0]), "each element of the result is 2·xᵢ·vᵢ."),
}

# ---------------------------------------------------------------- 04 vector-Jacobian products
L04 = [
    md("""
    # Lesson 04 · Vector–Jacobian products

    *Follows note 002 (§autograd包, the `mean(x * x)` example and the `vᵀ·J` derivation), note 000 (§输出非标量时) and note 004 (§3、雅可比矩阵和雅可比乘积).*

    Note 002: 「对于网络输出值为一大于1维的张量的情况，如 y=(y₁,…,y_m)ᵀ，`out.backward()` 执行计算 vᵀ·J，其中 v 为人为取定」 — for a non-scalar output, backward computes a **vector–Jacobian product** with a vector `v` that you choose. Autograd never builds the Jacobian 雅可比矩阵 itself; it only ever multiplies by it.
    """),
    code(SETUP),
    md("## A scalar output first: `mean(x * x)` (note 002)"),
    code("""
    x = torch.tensor([[1., 2.], [3., 4.]])
    x.requires_grad_(True)
    out = torch.mean(x * x)
    print(out)
    print(out.grad_fn)
    """),
    md("""
    (The note prints `<class 'MeanBackward0'>` — an older PyTorch's repr; today's prints the node object.) `out = ¼ Σ x²ᵢⱼ`, so `∂out/∂xᵢⱼ = xᵢⱼ / 2`. Note 002: 「对于中间某一变量，可用`<变量名>.grad`属性来得到该变量处的梯度值」:
    """),
    code("""
    out.backward()
    print(x.grad)
    print(x.data)
    assert torch.allclose(x.grad, x.detach() / 2)
    """),
    md("""
    ## The math of vᵀ·J

    For `y = f(x)` with `x ∈ ℝⁿ`, `y ∈ ℝᵐ`, the Jacobian is

    $$J=\\left(\\begin{array}{ccc}
    \\frac{\\partial y_{1}}{\\partial x_{1}} & \\cdots & \\frac{\\partial y_{1}}{\\partial x_{n}} \\\\
    \\vdots & \\ddots & \\vdots \\\\
    \\frac{\\partial y_{m}}{\\partial x_{1}} & \\cdots & \\frac{\\partial y_{m}}{\\partial x_{n}}
    \\end{array}\\right)$$

    Note 002 explains why `vᵀ·J` is the useful product: 「若 v 恰好是某个标量函数 l=g(y) 的梯度」, i.e. `v = (∂l/∂y₁, …, ∂l/∂y_m)ᵀ`, then by the chain rule

    $$J^{T} \\cdot v=\\left(\\begin{array}{ccc}
    \\frac{\\partial y_{1}}{\\partial x_{1}} & \\cdots & \\frac{\\partial y_{m}}{\\partial x_{1}} \\\\
    \\vdots & \\ddots & \\vdots \\\\
    \\frac{\\partial y_{1}}{\\partial x_{n}} & \\cdots & \\frac{\\partial y_{m}}{\\partial x_{n}}
    \\end{array}\\right)\\left(\\begin{array}{c}
    \\frac{\\partial l}{\\partial y_{1}} \\\\
    \\vdots \\\\
    \\frac{\\partial l}{\\partial y_{m}}
    \\end{array}\\right)=\\left(\\begin{array}{c}
    \\frac{\\partial l}{\\partial x_{1}} \\\\
    \\vdots \\\\
    \\frac{\\partial l}{\\partial x_{n}}
    \\end{array}\\right)$$

    「即为函数 l 对 x 的梯度值」 — the gradient of `l` with respect to `x`. Each `grad_fn` node does exactly this for its own small Jacobian, passing `v` from the output back to the inputs.

    Note 002's example: `y = x * x` has `J = diag(2x)`, so with `v = (1, ½, ⅓)` the result is `(2·1·1, 2·2·½, 2·3·⅓) = (2, 2, 2)`:
    """),
    code("""
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x*x
    v = torch.tensor([1., 1/2., 1/3.])
    y.backward(v)
    print(x.grad)
    assert torch.allclose(x.grad, torch.tensor([2., 2., 2.]))
    """),
    md("""
    ## The whole Jacobian, one row per backward

    Choosing `v = eᵢ` (a one-hot vector) picks row `i` of `J`. So `m` backward passes give all of `J` — and one pass gives the gradient of a scalar loss, which is why reverse mode suits training. Here `y = A·x²`, whose Jacobian is `A · diag(2x)`:
    """),
    code("""
    A = torch.tensor([[1., 2., 3.], [0., -1., 4.]])
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = torch.matmul(A, x ** 2)
    rows = []
    for i in range(2):
        (row,) = torch.autograd.grad(y, x, grad_outputs=torch.eye(2)[i], retain_graph=True)
        rows.append(row.tolist())
    J = torch.tensor(rows)
    print(J)
    assert torch.allclose(J, A * (2 * x.detach()))

    v = torch.tensor([1.0, -1.0])
    y.backward(v)
    print(x.grad, torch.matmul(v, J))
    assert torch.allclose(x.grad, torch.matmul(v, J))
    """),
    md("""
    ## 输出非标量时: the `eye(4, 5)` example

    Notes 000 and 004 run this cell. `out` is a 5×4 matrix, so `backward` needs a `gradient` of that shape; `torch.ones_like(out)` makes `vᵀ·J` the gradient of `out.sum()`. `retain_graph=True` keeps the graph for the next call.
    """),
    code("""
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp+1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"First call\\n{inp.grad}")
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\\nSecond call\\n{inp.grad}")
    inp.grad.zero_()
    out.backward(torch.ones_like(out), retain_graph=True)
    print(f"\\nCall after zeroing gradients\\n{inp.grad}")
    """),
    md("""
    The same numbers as note 004's printout. Why 4 and 2: `out[j, i] = (inp[i, j] + 1)²`, whose derivative is `2(inp[i, j] + 1)` — 4 on the diagonal where `inp` is 1, and 2 elsewhere. The transpose only decides which element of `v` meets which element of `inp`. The second call **adds** to the first (lesson 05): 8 and 4.
    """),
    code("""
    first_call_in_note = torch.tensor([[4., 2., 2., 2., 2.],
                                       [2., 4., 2., 2., 2.],
                                       [2., 2., 4., 2., 2.],
                                       [2., 2., 2., 4., 2.]])
    assert torch.equal(inp.grad, first_call_in_note)
    assert torch.equal(inp.grad, 2 * (inp.detach() + 1))
    """),
    code('viz.draw(out, params={"inp": inp})'),
    md("With a `v` that is not all ones, the transpose shows: `v` has `out`'s shape (5, 4) and reaches `inp` transposed."),
    code("""
    inp.grad = None
    v = torch.arange(20.0).reshape(5, 4)
    out.backward(v)
    print(inp.grad)
    assert torch.allclose(inp.grad, 2 * (inp.detach() + 1) * v.t())
    """),
    md("## Exercises"),
    *exercise(
        "04.1",
        "`y = torch.matmul(A, x)` with `A = [[1., 2., 3.], [4., 5., 6.]]` and `x = [1., 1., 1.]`. Its Jacobian is `A`. What is `x.grad` after `y.backward(v)` with `v = [1., -1.]`?",
        """
        A = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
        x = torch.ones(3, requires_grad=True)
        answer = ...
        check("04.1", answer)
        """,
        """
        A = torch.tensor([[1., 2., 3.], [4., 5., 6.]])
        x = torch.ones(3, requires_grad=True)
        torch.matmul(A, x).backward(torch.tensor([1., -1.]))
        answer = x.grad  # vᵀA
        check("04.1", answer)
        """,
    ),
    *exercise(
        "04.2",
        "In the `eye(4, 5)` example, what is `inp.grad` after a single `out.backward(v)` with `v = torch.full_like(out, 0.5)` (starting from no gradient)?",
        """
        inp = torch.eye(4, 5, requires_grad=True)
        out = (inp+1).pow(2).t()
        answer = ...
        check("04.2", answer)
        """,
        """
        inp = torch.eye(4, 5, requires_grad=True)
        out = (inp+1).pow(2).t()
        out.backward(torch.full_like(out, 0.5))
        answer = inp.grad  # 0.5 · 2(inp + 1) = inp + 1
        check("04.2", answer)
        """,
    ),
    *exercise(
        "04.3",
        "Build the full 3×3 Jacobian of `y = x.exp()` at `x = [0., 1., 2.]`, one row per `torch.autograd.grad` call (rows as in the lesson).",
        """
        x = torch.tensor([0., 1., 2.], requires_grad=True)
        y = x.exp()
        answer = ...  # a 3×3 tensor
        check("04.3", answer)
        """,
        """
        x = torch.tensor([0., 1., 2.], requires_grad=True)
        y = x.exp()
        rows = [torch.autograd.grad(y, x, grad_outputs=torch.eye(3)[i], retain_graph=True)[0].tolist()
                for i in range(3)]
        answer = torch.tensor(rows)  # diagonal: ∂yᵢ/∂xⱼ = eˣⁱ when i = j, else 0
        check("04.3", answer)
        """,
    ),
]
A04 = {
    "04.1": (np.array([-3.0, -3.0, -3.0]), "x.grad = vᵀA: the first row of A minus the second."),
    "04.2": (np.eye(4, 5) + 1, "each element gets vᵢ · 2(inp + 1) with vᵢ = 0.5."),
    "04.3": (np.diag(np.exp([0.0, 1.0, 2.0])), "yᵢ depends only on xᵢ, so J is diagonal with eˣⁱ on the diagonal."),
}

# ---------------------------------------------------------------- 05 accumulation and zeroing
L05 = [
    md("""
    # Lesson 05 · Accumulation and zeroing

    *Follows note 000 (§输出非标量时, §梯度清0) and note 003 (§backward).*

    `backward()` does not overwrite `.grad`, it **adds** to it. Note 003: 「该函数会在叶节点累计梯度，因此你需要在每次迭代时先将其归零」 — gradients accumulate in the leaves, so they must be cleared before each iteration. Note 000 names the two ways, 梯度清0:

    * `x.grad.zero_()` — for one tensor;
    * `model.zero_grad()` — for every parameter of a model (and `optimizer.zero_grad()` for those of an optimizer).
    """),
    code(SETUP),
    md("## Gradients add up"),
    code("""
    x = torch.tensor(2.0, requires_grad=True)
    for i in range(3):
        y = x ** 2  # a new graph on every pass
        y.backward()  # dy/dx = 2x = 4 is ADDED to x.grad
        print(i, x.grad)
    assert x.grad.item() == 12.0
    """),
    md("## 梯度清0: `zero_()` or `None`"),
    code("""
    x.grad.zero_()
    print(x.grad)
    (x ** 2).backward()
    print(x.grad)
    assert x.grad.item() == 4.0
    """),
    md("`zero_()` fills the same tensor with zeros in place; setting `.grad = None` drops it and the next backward stores a fresh tensor. `model.zero_grad()` and `optimizer.zero_grad()` do the latter by default (`set_to_none=True`): it saves memory and a pass over the data."),
    code("""
    g = x.grad
    x.grad.zero_()
    print(x.grad is g)  # the same tensor, now zero
    x.grad = None
    (x ** 2).backward()
    print(x.grad is g, x.grad)  # a new tensor
    """),
    md("What `model.zero_grad()` does, written out for a list of parameters:"),
    code('''
    def zero_grad(params):
        """Forget every parameter's gradient, as model.zero_grad() does."""
        for p in params:
            p.grad = None
    '''),
    md("And the real `model.zero_grad()` on a `torch.nn` module (lesson 13 trains one): every parameter's `.grad` is dropped."),
    code("""
    model = torch.nn.Linear(3, 1)
    model(torch.ones(2, 3)).sum().backward()
    print([p.grad for p in model.parameters()])  # weight: 2 samples × input 1; bias: 2 samples
    model.zero_grad()
    print([p.grad for p in model.parameters()])
    assert all(p.grad is None for p in model.parameters())
    """),
    md("""
    ## The graph is freed after backward

    To keep memory low, `backward()` releases the tensors each node saved. A second backward through the same graph, or reading a saved tensor, then fails:
    """),
    code("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    mul = y.grad_fn.next_functions[0][0]
    print(mul.name(), mul._saved_self)
    y.backward()
    print(x.grad)
    """),
    error("y.backward()"),
    error("mul._saved_self"),
    md("With `retain_graph=True` the graph survives, and a second backward adds a second copy of the gradient — the 8 and 4 of lesson 04's \"Second call\":"),
    code("""
    x.grad = None
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    print(x.grad)  # 2 · 2x
    assert x.grad.tolist() == [4.0, 8.0]
    """),
    md("The drawing shows the accumulated gradient on the leaf (and the saved tensors freed by the last backward):"),
    code("viz.draw(y)"),
    md("""
    ## Accumulation is a feature: micro-batches

    Because gradients add, the gradient of a sum of losses can be computed piece by piece. A batch too big for memory is split into micro-batches, each backward adds its part, and the optimizer steps once:
    """),
    code("""
    torch.manual_seed(0)
    data = torch.randn(8, 3)
    target = torch.randn(8)
    w = torch.zeros(3, requires_grad=True)

    def loss_fn(xb, yb):
        return ((torch.matmul(xb, w) - yb) ** 2).sum()

    loss_fn(data, target).backward()
    full = w.grad.clone()
    w.grad = None
    for k in range(0, 8, 4):  # two micro-batches of 4
        loss_fn(data[k:k + 4], target[k:k + 4]).backward()  # accumulates
    print(full)
    print(w.grad)
    assert torch.allclose(full, w.grad)
    """),
    md("## Forgetting to zero\n\nA few steps of gradient descent on the same data, clearing the gradient each step, and not:"),
    code("""
    def train(steps, zero):
        w = torch.zeros(3, requires_grad=True)
        losses = []
        for _ in range(steps):
            if zero:
                zero_grad([w])  # 梯度清0
            loss = ((torch.matmul(data, w) - target) ** 2).mean()
            losses.append(round(loss.item(), 4))
            loss.backward()
            with torch.no_grad():
                w -= 0.1 * w.grad
        return losses

    with_zeroing = train(8, zero=True)
    without = train(8, zero=False)
    print("zeroing   :", with_zeroing)
    print("forgetting:", without)
    assert all(later < earlier for earlier, later in zip(with_zeroing, with_zeroing[1:]))
    """),
    md("Without zeroing, each step uses the sum of all past gradients: the steps grow and the descent overshoots."),
    md("## Exercises"),
    *exercise(
        "05.1",
        "`x = torch.tensor(3.0, requires_grad=True)`; run `(x ** 3).backward()` twice without zeroing. What is `x.grad`?",
        """
        x = torch.tensor(3.0, requires_grad=True)
        answer = ...
        check("05.1", answer)
        """,
        """
        x = torch.tensor(3.0, requires_grad=True)
        (x ** 3).backward()
        (x ** 3).backward()
        answer = x.grad  # 2 · 3x² = 54
        check("05.1", answer)
        """,
    ),
    *exercise(
        "05.2",
        "For `y = (x ** 2).sum()` with `x = [1., -1.]`, call `y.backward(retain_graph=True)` three times. What is `x.grad`?",
        """
        x = torch.tensor([1.0, -1.0], requires_grad=True)
        y = (x ** 2).sum()
        answer = ...
        check("05.2", answer)
        """,
        """
        x = torch.tensor([1.0, -1.0], requires_grad=True)
        y = (x ** 2).sum()
        for _ in range(3):
            y.backward(retain_graph=True)
        answer = x.grad  # 3 · 2x
        check("05.2", answer)
        """,
    ),
    *exercise(
        "05.3",
        "In the micro-batch example, suppose each micro-batch loss is a **mean** over its 4 samples and the full-batch loss a mean over all 8. By which number must each micro-batch loss be multiplied so that the accumulated gradient equals the full-batch gradient? Answer with a number.",
        """
        answer = ...  # a float
        check("05.3", answer)
        """,
        """
        def mean_loss(xb, yb):
            return ((torch.matmul(xb, w) - yb) ** 2).mean()

        w.grad = None
        mean_loss(data, target).backward()
        full = w.grad.clone()
        answer = 0.5  # mean over 8 = ½ (mean over first 4 + mean over last 4)
        w.grad = None
        for k in range(0, 8, 4):
            (answer * mean_loss(data[k:k + 4], target[k:k + 4])).backward()
        assert torch.allclose(full, w.grad)
        check("05.3", answer)
        """,
    ),
]
A05 = {
    "05.1": (54.0, "each backward adds 3x² = 27."),
    "05.2": (np.array([6.0, -6.0]), "each backward adds 2x; the graph is retained, so all three calls work."),
    "05.3": (0.5, "the mean over 8 samples is the average of the two means over 4 samples."),
}

# ---------------------------------------------------------------- 06 turning tracking off
L06 = [
    md("""
    # Lesson 06 · Turning tracking off

    *Follows note 000 (§关闭梯度求导), note 004 (§2、禁用反向传播), note 001 (§no_grad, §set_grad_enabled), note 002 (`detach`) and note 003 (§no_grad, §enable_grad, §set_grad_enabled).*

    Note 004: 「默认情况下，所有 require_grad=True 的张量都会跟踪其计算历史并支持梯度计算。然而，在某些情况下我们不需要这样做，例如，当我们训练了模型并且只想将其应用于某些输入数据时，即我们只想通过网络进行前向计算。」 And why it matters, note 003: 「当你确定不会调用tensor.backward()时，禁用梯度计算可以降低…内存消耗」 — no graph means no saved tensors.

    | tool | what it does |
    | --- | --- |
    | `torch.no_grad()` | record nothing inside the block (context manager or decorator) |
    | `torch.enable_grad()` | record again inside a `no_grad` block |
    | `torch.set_grad_enabled(mode)` | on or off by a flag: context manager, decorator, or plain function |
    | `t.detach()` | the same data as a new leaf, cut from the graph |
    | `torch.inference_mode()` | like `no_grad`, stricter and cheaper: its results can never enter a graph |
    """),
    code(SETUP),
    code(COUNT_NODES),
    md("## no_grad (notes 000 and 004)"),
    code("""
    x = torch.ones(5)
    w = torch.randn(5, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    z = torch.matmul(x, w)+b
    print(z.requires_grad)

    with torch.no_grad():
        z = torch.matmul(x, w)+b
    print(z.requires_grad)
    assert z.grad_fn is None and z.is_leaf
    """),
    md("""
    ## Why: memory

    In grad mode every operation adds a node, and many nodes keep their inputs (`_saved_*`) until backward. Fifty layers of `tanh`:
    """),
    code("""
    def deep(h):
        for _ in range(50):
            h = torch.tanh(torch.matmul(h, w[:3]) * 0.5)
        return h

    h0 = torch.ones(3)
    out = deep(h0)
    print(count_nodes(out), out.grad_fn.name(), out.grad_fn.next_functions[0][0].name())
    with torch.no_grad():
        out = deep(h0)
    print(count_nodes(out), out.grad_fn)
    """),
    md("Evaluation is the typical case: compute predictions, never call `backward()`. `no_grad` also works as a decorator:"),
    code("""
    @torch.no_grad()
    def accuracy(w, b, inputs, labels):
        predictions = torch.sigmoid(torch.matmul(inputs, w) + b) > 0.5
        return (predictions == labels).float().mean()

    inputs = torch.randn(4, 5)
    labels = torch.tensor([[1., 0., 1.]] * 4) > 0.5
    acc = accuracy(w, b, inputs, labels)
    print(acc, acc.requires_grad)
    assert not acc.requires_grad
    """),
    md("""
    ## A correction to note 001

    Note 001 says that after a `no_grad` block 「z.backward()  # 由于z处于no_grad上下文中，不会计算任何梯度」 — that backward simply computes nothing. In fact it is an **error**: `z` has no `grad_fn`, so there is no graph to walk.
    """),
    error("""
    x = torch.randn(5, 5, requires_grad=True)
    y = torch.randn(5, 5)

    with torch.no_grad():
        z = x + y  # 不会计算z的梯度

    z.backward()
    """),
    md("""
    Note 001's second example switches grading off with `torch.set_grad_enabled(False)` used as a plain function. The same correction applies: `z` has no history, so `z.backward()` is an error.
    """),
    code("""
    x = torch.randn(5, 5, requires_grad=True)
    y = torch.randn(5, 5)

    torch.set_grad_enabled(False)

    z = x + y  # 不会计算z的梯度
    print(z.requires_grad, torch.is_grad_enabled())
    """),
    error("z.backward()  # 由于梯度计算被禁用，不会计算任何梯度 — in fact: an error"),
    md("The note then switches grad mode back on and recomputes `z`. Now `z` has a graph — but it is a 5×5 matrix, and `backward()` without a `gradient` only works for a scalar (lessons 03 and 04). The note's 「计算x的梯度」 needs one more thing:"),
    code("""
    torch.set_grad_enabled(True)  # 再次启用梯度计算

    z = x + y  # 重新计算z
    print(z.requires_grad, z.grad_fn.name(), tuple(z.shape))
    """),
    error("z.backward()  # 计算x的梯度 — not for a non-scalar z"),
    code("""
    z.backward(torch.ones_like(z))  # vᵀ·J with v = 1: the gradient of z.sum()
    print(x.grad)
    assert torch.is_grad_enabled() and torch.equal(x.grad, torch.ones(5, 5))
    """),
    md("""
    ## no_grad, enable_grad and set_grad_enabled: note 003's examples

    Note 003 starts its examples with `torch.tensor([1], requires_grad=True)` — an **integer** tensor, which cannot require grad (lesson 01):
    """),
    error("x = torch.tensor([1], requires_grad=True)"),
    md("With `[1.]` instead, the examples run as the note says:"),
    code("""
    x = torch.tensor([1.], requires_grad=True)
    with torch.no_grad():
        y = x * 2
    print(y.requires_grad)

    @torch.no_grad()
    def doubler(x):
        return x * 2
    z = doubler(x)
    print(z.requires_grad)
    assert not y.requires_grad and not z.requires_grad
    """),
    md("`enable_grad` — 「用于在 no_grad 或 set_grad_enabled 禁用梯度计算的环境下启用梯度计算」. Note 003 leaves the output of `x.grad` blank; it is `tensor([2.])`:"),
    code("""
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
    print(y.requires_grad)
    y.backward()
    print(x.grad)

    @torch.enable_grad()
    def doubler(x):
        return x * 2
    with torch.no_grad():
        z = doubler(x)
    print(z.requires_grad)
    assert y.requires_grad and z.requires_grad and x.grad.tolist() == [2.0]
    """),
    md("`set_grad_enabled(mode)` — 「根据其参数 mode 启用或禁用梯度计算。可以用作上下文管理器或函数。」 As a context manager, driven by a flag such as `is_train`:"),
    code("""
    is_train = False
    with torch.set_grad_enabled(is_train):
        y = x * 2
    print(y.requires_grad)
    """),
    md("As a plain function it switches the mode until switched back — in a notebook that lasts across cells, so always switch it back:"),
    code("""
    torch.set_grad_enabled(True)
    y = x * 2
    print(y.requires_grad)
    torch.set_grad_enabled(False)
    y = x * 2
    print(y.requires_grad)
    torch.set_grad_enabled(True)  # back on
    print(torch.is_grad_enabled())
    """),
    md("And as a decorator:"),
    code("""
    @torch.set_grad_enabled(False)
    def frozen_double(x):
        return x * 2

    print(frozen_double(x).requires_grad, torch.is_grad_enabled())
    """),
    md("""
    ## detach (note 002 and note 004)

    Note 002: 「若不需要某变量追踪历史，可以通过 `<变量名>.detach()` to detach it from the computation history，也可以用`with torch.no_grad():`实现。该操作在评估网络性能很有帮助。」
    """),
    code("""
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    y = x.detach()
    print(y.requires_grad)
    print(x.requires_grad)
    print(x.eq(y).all())
    with torch.no_grad():
        print((x**2).requires_grad)
    """),
    md("`detach()` copies nothing: the result shares the data with `x` (a change to one shows in the other) but has no history:"),
    code("""
    print(y.data_ptr() == x.data_ptr(), y.is_leaf)
    """),
    md("Note 004 (§2、禁用反向传播): 「实现相同结果的另一种方法是在张量上使用 detach() 方法」 — on the network, whose input `x` is `torch.ones(5)` again:"),
    code("""
    x = torch.ones(5)
    z = torch.matmul(x, w)+b
    z_det = z.detach()
    print(z_det.requires_grad)
    assert z.requires_grad and not z_det.requires_grad and torch.equal(z, z_det)
    """),
    md("""
    `no_grad` stops recording everything in a block; `detach` cuts one tensor out, which makes it a **constant** for the rest of the computation (a stop-gradient). Here the gradient flows through the first factor of `p * p.detach()` only:
    """),
    code("""
    a = torch.tensor(3.0, requires_grad=True)
    b = torch.tensor(4.0, requires_grad=True)
    p = a * b
    loss = p * p.detach()
    loss.backward()
    print(a.grad, b.grad)  # b·p = 48 and a·p = 36 (not 96 and 72, the gradients of p²)
    assert a.grad.item() == 48.0 and b.grad.item() == 36.0
    """),
    md("The detached copy is an ordinary input of `MulBackward0`, saved as a value but with no edge back to `a` and `b`:"),
    code('viz.draw(loss, params={"a": a, "b": b})'),
    md("""
    ## inference_mode

    `torch.inference_mode()` is `no_grad` plus a promise: the tensors made inside will never be used by autograd, so PyTorch can also skip the bookkeeping (version counters) that `no_grad` still does.
    """),
    code("""
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    with torch.inference_mode():
        y = x * 2
        print(torch.is_inference_mode_enabled())
    print(y.requires_grad, y.is_inference())
    """),
    md("The promise is enforced: an inference tensor cannot be saved for a backward pass later."),
    error("(y * x).sum().backward()"),
    md("The way out is the one the message gives: a clone made outside inference mode is a normal tensor."),
    code("""
    (y.clone() * x).sum().backward()
    print(x.grad)
    assert x.grad.tolist() == [2.0, 4.0, 6.0]
    """),
    md("## Exercises"),
    *exercise(
        "06.1",
        "Predict `requires_grad` of `r1`, `r2`, `r3`, `r4` below and answer with a list of four bools.",
        """
        x = torch.ones(2, requires_grad=True)
        with torch.no_grad():
            r1 = x * 2
            with torch.enable_grad():
                r2 = x * 2
        with torch.set_grad_enabled(False):
            r3 = x * 2
        r4 = (x * 2).detach() + x
        answer = ...  # [r1?, r2?, r3?, r4?]
        check("06.1", answer)
        """,
        """
        x = torch.ones(2, requires_grad=True)
        with torch.no_grad():
            r1 = x * 2
            with torch.enable_grad():
                r2 = x * 2
        with torch.set_grad_enabled(False):
            r3 = x * 2
        r4 = (x * 2).detach() + x
        answer = [r1.requires_grad, r2.requires_grad, r3.requires_grad, r4.requires_grad]
        check("06.1", answer)
        """,
    ),
    *exercise(
        "06.2",
        "`h` is computed under `no_grad`, then used: what is `x.grad`?",
        """
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            h = x * 2
        out = (h * x).sum()
        answer = ...  # x.grad after out.backward()
        check("06.2", answer)
        """,
        """
        x = torch.ones(3, requires_grad=True)
        with torch.no_grad():
            h = x * 2
        out = (h * x).sum()
        out.backward()
        answer = x.grad  # h is a constant: ∂out/∂x = h
        check("06.2", answer)
        """,
    ),
    *exercise(
        "06.3",
        "With `a = 2.` and `b = 5.` (both requiring grad) and `loss = (a * b).detach() * a + a * b`, what is `a.grad`?",
        """
        a = torch.tensor(2.0, requires_grad=True)
        b = torch.tensor(5.0, requires_grad=True)
        loss = (a * b).detach() * a + a * b
        answer = ...
        check("06.3", answer)
        """,
        """
        a = torch.tensor(2.0, requires_grad=True)
        b = torch.tensor(5.0, requires_grad=True)
        loss = (a * b).detach() * a + a * b
        loss.backward()
        answer = a.grad  # (a·b) + b = 10 + 5
        check("06.3", answer)
        """,
    ),
]
A06 = {
    "06.1": ([False, True, False, True], "enable_grad wins inside no_grad; detach cuts only its own result, and + x brings x back."),
    "06.2": (np.array([2.0, 2.0, 2.0]), "h was made without recording, so it is a constant equal to 2x."),
    "06.3": (15.0, "the detached factor a·b is a constant 10; the second term contributes b."),
}

# ---------------------------------------------------------------- 07 dynamic graphs
L07 = [
    md("""
    # Lesson 07 · Dynamic graphs

    *Follows note 000 (§前向传播发生的两件事, §动态图机制) and note 002 (§autograd包, define-by-run).*

    Note 000 lists what happens during the forward pass — 「前向传播发生的两件事」:

    * 运行请求的操作来计算结果张量 — run the operation and compute the result;
    * 在DAG中保存算子的梯度函数 — record the operation's gradient function in the DAG (directed acyclic graph).

    and the 动态图机制 (dynamic graph):

    * 「每次运行.backward()后，autogard模块才会填充一个新的图」 — after each backward, autograd starts filling a new graph;
    * 「上述正是模型中可以使用控制流语句的原因」 — that is why models can use control flow;
    * 「如有必要：可以在每次迭代中更改形状、大小和操作」 — shapes, sizes and operations may change every iteration.

    Note 002 calls it a define-by-run framework: 「这意味着反向传播由 how your code is run 来定义，并且每一轮迭代都可能不同」.
    """),
    code(SETUP),
    code(COUNT_NODES),
    code('''
    from IPython.display import HTML


    def side_by_side(drawings):
        """Show {title: viz drawing} next to each other."""
        cells = []
        for title, drawing in drawings.items():
            svg = drawing.svg()
            cells.append(f'<div style="margin-right:2em"><b>{title}</b><br>{svg[svg.index("<svg"):]}</div>')
        return HTML('<div style="display:flex; align-items:flex-start">' + "".join(cells) + "</div>")
    '''),
    md("## Recorded as it runs\n\nThere is no separate \"build the graph\" step: each line adds its node the moment it runs."),
    code("""
    x = torch.tensor(3.0, requires_grad=True)
    y = x * 2
    print(y.grad_fn.name(), count_nodes(y))
    y = y.exp()
    print(y.grad_fn.name(), count_nodes(y))
    print(y.grad_fn.next_functions)
    """),
    md("""
    ## Control flow

    Python decides which operations run, and only what runs is recorded. `grow` doubles its input until it passes 100: the number of multiplications — and so the graph — depends on the value of `x`. The gradient is right for the path taken: `y = 2ᵏ·x`, so `dy/dx = 2ᵏ`.
    """),
    code('''
    def grow(x):
        """Double x until it passes 100; return the result and the number of doublings."""
        y = x * 2
        steps = 1
        while y < 100:
            y = y * 2
            steps += 1
        return y, steps

    for start in [3.0, 30.0]:
        x = torch.tensor(start, requires_grad=True)
        y, steps = grow(x)
        y.backward()
        print(f"x = {start}: {steps} doublings, y = {y.item()}, dy/dx = {x.grad.item()}, nodes = {count_nodes(y)}")
        assert x.grad.item() == 2.0 ** steps
    '''),
    code("""
    x3 = torch.tensor(3.0, requires_grad=True)
    y3, _ = grow(x3)
    x30 = torch.tensor(30.0, requires_grad=True)
    y30, _ = grow(x30)
    side_by_side({"grow(3.0)": viz.draw(y3, params={"x": x3}),
                  "grow(30.0)": viz.draw(y30, params={"x": x30})})
    """),
    md("An `if` works the same way: each branch records its own operations."),
    code("""
    def branchy(x):
        if x.sum() > 0:
            return (x * x).sum()
        return x.exp().sum()

    for values in ([1.0, 2.0], [-1.0, -2.0]):
        x = torch.tensor(values, requires_grad=True)
        out = branchy(x)
        out.backward()
        print(values, out.grad_fn.next_functions[0][0].name(), x.grad)
    """),
    md("""
    ## A new graph every iteration

    A tiny recurrent model reads sequences of different lengths: `h ← tanh(w·h + u·xₜ)` once per element, then `loss = (h − 1)²`. Each iteration runs a different number of steps, so each builds a different graph; `backward()` uses it and frees it, and the next iteration builds a new one. The parameters `w` and `u` are the only things that live on.
    """),
    code("""
    w = torch.tensor(0.5, requires_grad=True)
    u = torch.tensor(1.0, requires_grad=True)
    sequences = [torch.tensor([1.0, -1.0]), torch.tensor([0.5, 2.0, -1.0])]
    graphs, roots = {}, []
    for it, seq in enumerate(sequences, 1):
        h = torch.tensor(0.0)
        for x_t in seq:  # a Python loop: one block of nodes per element
            h = torch.tanh(w * h + u * x_t)
        loss = (h - 1.0) ** 2
        graphs[f"iteration {it}: {len(seq)} steps"] = viz.draw(loss, params={"w": w, "u": u})
        roots.append(loss.grad_fn)
        loss.backward()
        print(f"iteration {it}: loss {loss.item():.4f}, nodes {count_nodes(loss)}, "
              f"w.grad {w.grad.item():.4f}, u.grad {u.grad.item():.4f}")
        with torch.no_grad():
            w -= 0.1 * w.grad
            u -= 0.1 * u.grad
        w.grad = None
        u.grad = None
    assert roots[0] is not roots[1]
    """),
    md("The two graphs, drawn just before their `backward()`:"),
    code("side_by_side(graphs)"),
    md("## Exercises"),
    *exercise(
        "07.1",
        "`y` starts as `x = 3.` and is multiplied by 3 while it is below 100. What is `x.grad` after `y.backward()`?",
        """
        x = torch.tensor(3.0, requires_grad=True)
        y = x
        while y < 100:
            y = y * 3
        answer = ...
        check("07.1", answer)
        """,
        """
        x = torch.tensor(3.0, requires_grad=True)
        y = x
        while y < 100:
            y = y * 3
        y.backward()
        answer = x.grad  # 3 → 9 → 27 → 81 → 243: four multiplications, dy/dx = 3⁴
        check("07.1", answer)
        """,
    ),
    *exercise(
        "07.2",
        "Run the recurrent model on a sequence of length 4 (`h` starts at `torch.tensor(0.0)`, no loss: just the final `h`). How many nodes does `count_nodes(h)` find? Predict from one step's operations first.",
        """
        w = torch.tensor(0.5, requires_grad=True)
        u = torch.tensor(1.0, requires_grad=True)
        seq = torch.tensor([1.0, 2.0, 3.0, 4.0])
        answer = ...  # an int
        check("07.2", answer)
        """,
        """
        w = torch.tensor(0.5, requires_grad=True)
        u = torch.tensor(1.0, requires_grad=True)
        seq = torch.tensor([1.0, 2.0, 3.0, 4.0])
        h = torch.tensor(0.0)
        for x_t in seq:
            h = torch.tanh(w * h + u * x_t)
        answer = count_nodes(h)  # 4 per step (Mul, Mul, Add, Tanh) + 2 AccumulateGrad
        check("07.2", answer)
        """,
    ),
    *exercise(
        "07.3",
        "`g(x) = x ** 2` if `x > 0`, else `-3 * x`. What is the gradient at `x = -2`?",
        """
        def g(x):
            if x > 0:
                return x ** 2
            return -3 * x

        x = torch.tensor(-2.0, requires_grad=True)
        answer = ...
        check("07.3", answer)
        """,
        """
        def g(x):
            if x > 0:
                return x ** 2
            return -3 * x

        x = torch.tensor(-2.0, requires_grad=True)
        g(x).backward()
        answer = x.grad  # only the else branch was recorded
        check("07.3", answer)
        """,
    ),
]
A07 = {
    "07.1": (81.0, "count the multiplications that actually ran: y = 3ᵏ·x."),
    "07.2": (18, "each step records w*h, u*x_t, their sum and tanh; add one AccumulateGrad per parameter."),
    "07.3": (-3.0, "only the branch that ran is in the graph."),
}

LESSONS = [
    ("00_start_here.ipynb", "l00", L00),
    ("01_tensors_that_remember.ipynb", "l01", L01),
    ("02_one_layer_network.ipynb", "l02", L02),
    ("03_backward_in_detail.ipynb", "l03", L03),
    ("04_vector_jacobian_products.ipynb", "l04", L04),
    ("05_accumulation_and_zeroing.ipynb", "l05", L05),
    ("06_turning_tracking_off.ipynb", "l06", L06),
    ("07_dynamic_graphs.ipynb", "l07", L07),
]


def main() -> None:
    write_answers({**A01, **A02, **A03, **A04, **A05, **A06, **A07})
    for filename, prefix, cells in LESSONS:
        write(NOTEBOOKS / filename, cells, prefix)
        print("wrote", filename)


if __name__ == "__main__":
    main()
