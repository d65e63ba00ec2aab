"""Write notebooks 08-13 (without outputs) and their exercise answers.

    cd /work/main && .venv/bin/python notebooks/tools/build_lessons_08_13.py
    for nb in notebooks/0[89]_*.ipynb notebooks/1[0-3]_*.ipynb; do
        .venv/bin/jupyter nbconvert --to notebook --execute --inplace "$nb"; done
    .venv/bin/python notebooks/tools/build_lessons_08_13.py strip notebooks/08_*.ipynb  # widget state

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
    print(acc_a.name(), acc_a.variable is a)  # its C++ name, as PyTorch prints it
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


# ---------------------------------------------------------------- 09 custom functions
L09 = [
    md(f"""
    # Lesson 09 · Custom functions: your own backward

    *Follows note 000 (§自定义自己的反向传播函数, §examples `polynomial_custom_function.py`), note 001 (§autograd的扩展——为自己写的函数写微分, `MultiplyAdd`) and note 003 (§Function, `ctx.needs_input_grad`).*

    When an operation has no derivative formula in the library, or you want a cheaper or more stable one, you write it yourself: 「自定义自己的反向传播函数」. Subclass `torch.autograd.Function` and give it two static methods:

    * `forward(ctx, *inputs)` computes the result; it runs with tracking off, so it records no graph.
    * `backward(ctx, *grad_outputs)` gets ∂loss/∂output and returns ∂loss/∂input, one per input of `forward`.

    `ctx` is the 上下文对象 of note 001: 「是用来保存中间计算结果和状态的上下文对象」. Call the function with `.apply(...)`, never by instantiating it. {PYTORCH_NOTE}
    """),
    code(SETUP + "\nimport math"),
    md("## `Exp`, from note 000"),
    code("""
    from minigrad.autograd import Function  # with PyTorch: from torch.autograd import Function

    class Exp(Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)  # d exp(i)/di = exp(i): keep the output
            return result

        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result

    input = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)
    output = Exp.apply(input)  # Use it by calling the apply method
    print(output)
    print(output.grad_fn)
    """),
    md("The node is named after the class, `ExpBackward`, and it holds the `ctx`: the `grad_fn` *is* the context object."),
    code("""
    output.sum().backward()
    print(input.grad)
    assert torch.allclose(input.grad, input.detach().exp())
    """),
    md("""
    ## `MultiplyAdd`, from note 001

    `forward` saves `w` and `x` with `ctx.save_for_backward`; `backward` reads them back from `ctx.saved_tensors` and returns three gradients, one per input: ∂(w·x + b)/∂w = x, ∂/∂x = w, ∂/∂b = 1. The note's code, as written:
    """),
    code("""
    from minigrad.autograd import Function
    class MultiplyAdd(Function):

        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w,x)
            output = w * x + b
            return output

        @staticmethod
        def backward(ctx, grad_output):
            w,x = ctx.saved_tensors
            grad_w = grad_output * x
            grad_x = grad_output * w
            grad_b = grad_output * 1
            return grad_w, grad_x, grad_b
    """),
    md("「在PyTorch中，.apply()是用于调用自定义函数的方法」: call it with `.apply`. The note imports torch under the short name `t`:"),
    code("""
    import minigrad as t  # the note: import torch as t

    x = t.ones(1)
    w = t.rand(1, requires_grad = True)
    b = t.rand(1, requires_grad = True)
    # 开始前向传播
    z=MultiplyAdd.apply(w, x, b)
    # 开始反向传播
    z.backward()
    print(z, w.grad, x.grad, b.grad)
    assert torch.equal(w.grad, x) and b.grad.item() == 1.0 and x.grad is None
    """),
    md("`x` does not require grad, so the gradient returned for it is dropped. The custom node sits in the graph like any other:"),
    code("""
    viz.draw(z, params={"w": w, "x": x, "b": b})
    """),
    md("""
    ## `ctx.needs_input_grad`: skip work nobody needs

    Note 003: `ctx.needs_input_grad` is a tuple of booleans, one per input of `forward`, saying which inputs need a gradient. `backward` may return `None` for the others (and should, when the gradient is expensive).
    """),
    code("""
    class MultiplyAddLazy(Function):
        @staticmethod
        def forward(ctx, w, x, b):
            ctx.save_for_backward(w, x)
            return w * x + b

        @staticmethod
        def backward(ctx, grad_output):
            w, x = ctx.saved_tensors
            print("needs_input_grad:", ctx.needs_input_grad)
            grad_w = grad_output * x if ctx.needs_input_grad[0] else None
            grad_x = grad_output * w if ctx.needs_input_grad[1] else None
            grad_b = grad_output if ctx.needs_input_grad[2] else None
            return grad_w, grad_x, grad_b

    z = MultiplyAddLazy.apply(w, x, b)
    z.backward()
    assert z.grad_fn.needs_input_grad == (True, False, True)
    """),
    md("""
    ## The example of note 000: fitting `sin(x)` with a Legendre polynomial

    PyTorch's tutorial `polynomial_custom_function.py` fits `y = sin(x)` on [−π, π] with `y = a + b·P₃(c + d·x)`, where P₃(x) = ½(5x³ − 3x) is the Legendre polynomial of degree 3, written as a custom `Function` with its derivative P₃′(x) = 1.5(5x² − 1). The loop is the tutorial's, printing every 500 steps.
    """),
    code('''
    class LegendrePolynomial3(torch.autograd.Function):
        """P3(x) = 0.5 * (5x^3 - 3x), with its derivative written by hand."""

        @staticmethod
        def forward(ctx, input):
            ctx.save_for_backward(input)
            return 0.5 * (5 * input ** 3 - 3 * input)

        @staticmethod
        def backward(ctx, grad_output):
            input, = ctx.saved_tensors
            return grad_output * 1.5 * (5 * input ** 2 - 1)

    dtype = torch.float
    x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
    y = torch.sin(x)

    # Weights, initialised not too far from the solution so that the loop converges.
    a = torch.full((), 0.0, dtype=dtype, requires_grad=True)
    b = torch.full((), -1.0, dtype=dtype, requires_grad=True)
    c = torch.full((), 0.0, dtype=dtype, requires_grad=True)
    d = torch.full((), 0.3, dtype=dtype, requires_grad=True)

    learning_rate = 5e-6
    losses = []
    for t in range(2000):
        P3 = LegendrePolynomial3.apply
        y_pred = a + b * P3(c + d * x)
        loss = (y_pred - y).pow(2).sum()
        losses.append(loss.item())
        if t % 500 == 499:
            print(t, f"{loss.item():.2f}")
        loss.backward()
        with torch.no_grad():
            a -= learning_rate * a.grad
            b -= learning_rate * b.grad
            c -= learning_rate * c.grad
            d -= learning_rate * d.grad
            a.grad = None
            b.grad = None
            c.grad = None
            d.grad = None

    print(f"Result: y = {a.item():.3f} + {b.item():.3f} * P3({c.item():.3f} + {d.item():.3f} x)")
    assert losses[-1] < 10 < losses[0]
    '''),
    code("""
    from viz.plots import PlotFigure  # a matplotlib Figure that shows itself in Jupyter

    fig = PlotFigure(figsize=(10, 3.5), layout="constrained")
    left, right = fig.subplots(1, 2)
    left.plot(x.numpy(), y.numpy(), label="sin(x)")
    left.plot(x.numpy(), y_pred.detach().numpy(), "--", label="a + b·P3(c + d·x)")
    left.legend()
    left.set_title("the fit")
    viz.plot_losses(losses, ax=right, log=True, title="loss")
    fig
    """),
    md("""
    ## `ctx` in depth

    Besides `save_for_backward` and `needs_input_grad`, `ctx` has a few switches for special cases.

    **`ctx.mark_dirty(t)`**: `forward` modified an input in place. Autograd then rewrites the input's history (its `grad_fn` becomes this function's node) and bumps its version counter: once for `add_` and once more for the in-place `apply`, so `_version` is 2.
    """),
    code("""
    class AddOne_(Function):
        \"\"\"x += 1 in place; the derivative is 1.\"\"\"

        @staticmethod
        def forward(ctx, x):
            x.add_(1)
            ctx.mark_dirty(x)
            return x

        @staticmethod
        def backward(ctx, grad_output):
            return grad_output

    leaf = torch.tensor([1.0, 2.0], requires_grad=True)
    h = leaf * 2
    h2 = AddOne_.apply(h)
    print(h2 is h, h, h._version)
    h2.sum().backward()
    print(leaf.grad)
    assert h2 is h and h.grad_fn.name() == "AddOne_Backward" and h._version == 2
    """),
    md("**`ctx.mark_non_differentiable(t)`**: an output that can never have a gradient (indices, masks). It comes back with `requires_grad=False`, and `backward` receives zeros for it."),
    code("""
    class MaxWithIndex(Function):
        @staticmethod
        def forward(ctx, x):
            value, index = x.max(0)
            ctx.mark_non_differentiable(index)
            ctx.save_for_backward(index)
            ctx.size = x.shape  # ctx also holds plain Python attributes
            return value, index

        @staticmethod
        def backward(ctx, grad_value, grad_index):
            index, = ctx.saved_tensors
            grad_x = torch.zeros(ctx.size)
            grad_x[index] = grad_value  # only the largest entry moved the output
            return grad_x

    s = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
    value, index = MaxWithIndex.apply(s)
    print(value, index, index.requires_grad)
    (10 * value).backward()
    print(s.grad)
    assert not index.requires_grad and s.grad.tolist() == [0.0, 10.0, 0.0]
    """),
    md("**`ctx.set_materialize_grads(False)`**: by default, an output that did not take part in the loss gets a gradient of zeros. With materialization off, `backward` receives `None` instead and can skip work."),
    code("""
    received = []

    class TwoOutputs(Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()

        @staticmethod
        def backward(ctx, g1, g2):
            received.append((g1, g2))
            grad = torch.zeros_like(g1 if g1 is not None else g2)
            if g1 is not None:
                grad = grad + g1
            if g2 is not None:
                grad = grad + g2
            return grad

    u = torch.tensor([1.0, 2.0], requires_grad=True)
    first, second = TwoOutputs.apply(u)
    first.sum().backward()  # `second` is not used
    print(received)
    assert received[0][1] is None
    """),
    md("**Saved tensors are freed by backward.** After `backward()` (without `retain_graph=True`) the node lets go of what it saved, and asking for it is an error:"),
    code("""
    i2 = torch.tensor([1.0], requires_grad=True)
    o2 = Exp.apply(i2)
    o2.backward()
    """),
    error("o2.grad_fn.saved_tensors"),
    md("""
    ## Is my backward right? `gradcheck`

    A hand-written `backward` is easy to get wrong. `torch.autograd.gradcheck` compares it with finite differences (the numerical Jacobian). Use float64 inputs: float32 is too coarse for the default tolerances. (Lesson 12 shows what a failure looks like.)
    """),
    code("""
    gradcheck = torch.autograd.gradcheck

    inputs = (torch.randn(3, dtype=torch.float64, requires_grad=True),
              torch.randn(3, dtype=torch.float64, requires_grad=True),
              torch.randn(3, dtype=torch.float64, requires_grad=True))
    print(gradcheck(MultiplyAdd.apply, inputs, eps=1e-6, atol=1e-4))
    print(gradcheck(LegendrePolynomial3.apply, (torch.randn(4, dtype=torch.float64, requires_grad=True),)))
    """),
    md("## Exercises"),
    *exercise(
        "09.1",
        "Complete `backward` of `Square` (f(x) = x²) and give `x.grad` for `x = [1., 2., 3.]` after `Square.apply(x).sum().backward()`.",
        """
        class Square(Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad_output):
                x, = ctx.saved_tensors
                return ...  # your formula

        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        answer = ...  # x.grad after backward
        check("09.1", answer)
        """,
        """
        class Square(Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad_output):
                x, = ctx.saved_tensors
                return grad_output * 2 * x  # d(x²)/dx = 2x

        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        Square.apply(x).sum().backward()
        answer = x.grad
        check("09.1", answer)
        """,
    ),
    *exercise(
        "09.2",
        "With `w = 2.`, `x = 3.`, `b = 1.` all requiring grad, what are `(w.grad, x.grad, b.grad)` after `MultiplyAdd.apply(w, x, b).backward()`?",
        """
        answer = ...  # a tuple of three tensors or numbers
        check("09.2", answer)
        """,
        """
        w = torch.tensor(2.0, requires_grad=True)
        x = torch.tensor(3.0, requires_grad=True)
        b = torch.tensor(1.0, requires_grad=True)
        MultiplyAdd.apply(w, x, b).backward()
        answer = (w.grad, x.grad, b.grad)  # (x, w, 1)
        check("09.2", answer)
        """,
    ),
    *exercise(
        "09.3",
        "Only `b` requires grad in `MultiplyAddLazy.apply(w, x, b)`. What is `ctx.needs_input_grad` (a tuple of three bools)?",
        """
        answer = ...
        check("09.3", answer)
        """,
        """
        w = torch.tensor(2.0)
        x = torch.tensor(3.0)
        b = torch.tensor(1.0, requires_grad=True)
        z = MultiplyAddLazy.apply(w, x, b)
        answer = z.grad_fn.needs_input_grad  # the grad_fn is the ctx
        check("09.3", answer)
        """,
    ),
]
A09 = {
    "09.1": (np.array([2.0, 4.0, 6.0]), "the derivative of x² is 2x; multiply by grad_output."),
    "09.2": ((3.0, 2.0, 1.0), "∂(w·x + b)/∂w = x, ∂/∂x = w, ∂/∂b = 1."),
    "09.3": ((False, False, True), "one bool per input of forward: does that input require grad?"),
}


# ---------------------------------------------------------------- 10 higher-order derivatives
L10 = [
    md(f"""
    # Lesson 10 · Higher-order derivatives

    *Follows note 001 (高阶求导, named there as a next step) and note 003 (§backward and §grad: 「create_graph 若为True,可以计算更高阶梯度」).*

    A gradient is computed by running operations (the `grad_fn` formulas), and operations can be recorded. With `create_graph=True`, backward **records** the graph of the gradient computation itself, so the gradient is a tensor with a `grad_fn`, and you can differentiate it again: 高阶求导, higher-order derivatives. `torch.autograd.functional` packs the common cases: `jacobian`, `hessian`, `vjp`, `jvp`, `hvp`. {PYTORCH_NOTE}
    """),
    code(SETUP),
    md("## `create_graph=True`: a gradient with a history"),
    code("""
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3

    dy, = torch.autograd.grad(y, x, create_graph=True)  # 3x² = 12, recorded
    print(dy)
    d2y, = torch.autograd.grad(dy, x, create_graph=True)  # 6x = 12
    print(d2y)
    d3y, = torch.autograd.grad(d2y, x)  # 6
    print(d3y)
    assert (dy.item(), d2y.item(), d3y.item()) == (12.0, 12.0, 6.0)
    """),
    md("`dy` has a `grad_fn`: the graph of `PowBackward0`'s formula `grad · 3 · x²`, built from ordinary operations. Drawn:"),
    code("""
    viz.draw(dy, params={"x": x})
    """),
    md("Without `create_graph`, the gradient is a plain constant: nothing to differentiate."),
    code("""
    y = x ** 3
    dy_plain, = torch.autograd.grad(y, x)
    print(dy_plain, dy_plain.requires_grad)
    """),
    error("torch.autograd.grad(dy_plain, x)"),
    md("""
    `backward(create_graph=True)` does the same through `.grad`: the leaf's gradient is recorded. PyTorch warns that `x.grad` now holds a graph that refers back to `x` (a reference cycle); set `x.grad = None` when done. The warning is caught and printed here.
    """),
    code("""
    x = torch.tensor(2.0, requires_grad=True)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (x ** 3).backward(create_graph=True)
    print(x.grad.item(), x.grad.requires_grad)  # 3x² = 12, and it has a graph
    print([str(w.message)[:60] + "..." for w in caught])
    g = x.grad
    x.grad = None
    g.backward()
    print(x.grad)  # d(3x²)/dx = 6x
    assert x.grad.item() == 12.0
    """),
    md("""
    ## A Hessian by hand

    For f(x) = x₀²·x₁ + x₁³ the gradient is (2x₀x₁, x₀² + 3x₁²) and the Hessian (the matrix of second derivatives) is [[2x₁, 2x₀], [2x₀, 6x₁]]. Row i of the Hessian is the gradient of gradient component i:
    """),
    code("""
    def f(x):
        return x[0] ** 2 * x[1] + x[1] ** 3

    p = torch.tensor([1.0, 2.0], requires_grad=True)
    grad, = torch.autograd.grad(f(p), p, create_graph=True)
    rows = [torch.autograd.grad(grad[i], p, retain_graph=True)[0] for i in range(2)]
    H = torch.stack(rows)
    print(grad)
    print(H)
    assert H.tolist() == [[4.0, 2.0], [2.0, 12.0]]
    """),
    md("""
    ## `torch.autograd.functional`

    The same, ready-made. For a function `func` and a point `inputs`:

    * `jacobian(func, inputs)`: the full Jacobian J (one backward per output element);
    * `hessian(func, inputs)`: the Hessian of a scalar function;
    * `vjp(func, inputs, v)`: (func(inputs), vᵀ·J), reverse mode, what `backward` computes;
    * `jvp(func, inputs, v)`: (func(inputs), J·v), the directional derivative;
    * `hvp(func, inputs, v)`: (func(inputs), H·v), without building H.
    """),
    code("""
    F = torch.autograd.functional
    print(F.hessian(f, p))
    assert torch.allclose(F.hessian(f, p), H)
    """),
    code("""
    def g(x):
        return torch.stack([x[0] * x[1], torch.sin(x[0]), x[1] ** 2])

    q = torch.tensor([0.0, 3.0])
    J = F.jacobian(g, q)
    print(J)
    v_out = torch.tensor([1.0, 1.0, 1.0])
    v_in = torch.tensor([1.0, 0.0])
    print(F.vjp(g, q, v_out))  # vᵀ·J: sum of the rows
    print(F.jvp(g, q, v_in))  # J·v: the first column
    print(F.hvp(f, p, v_in))  # H·v: the first column of H
    assert torch.allclose(F.vjp(g, q, v_out)[1], v_out @ J)
    assert torch.allclose(F.jvp(g, q, v_in)[1], J @ v_in)
    assert torch.allclose(F.hvp(f, p, v_in)[1], H @ v_in)
    """),
    md("`viz.plot_jacobian` draws a Jacobian as a heat map (rows: outputs, columns: inputs):"),
    code("""
    viz.plot_jacobian(g, q, title="Jacobian of g at (0, 3)")
    """),
    md("""
    ## Using a second derivative: Newton's method

    Gradient descent uses f′ only; Newton's method also uses f″ and jumps to the minimum of the local parabola: x ← x − f′(x)/f″(x). Both derivatives come from autograd.
    """),
    code("""
    def h(x):
        return x ** 4 - 3 * x ** 2 + x

    x = torch.tensor(2.0, requires_grad=True)
    for step in range(5):
        d1, = torch.autograd.grad(h(x), x, create_graph=True)
        d2, = torch.autograd.grad(d1, x)
        with torch.no_grad():
            x -= d1 / d2
        print(f"step {step}: x = {x.item():.6f}, h'(x) before the step = {d1.item():.4f}")
    assert abs(4 * x.item() ** 3 - 6 * x.item() + 1) < 1e-4
    """),
    code("""
    viz.plot_function(h, (-2.0, 2.0), title="h and its derivative")
    """),
    md("## Exercises"),
    *exercise(
        "10.1",
        "What is the third derivative of `sin(x)` at `x = 0`? Compute it with `create_graph=True`.",
        """
        x = torch.tensor(0.0, requires_grad=True)
        answer = ...
        check("10.1", answer)
        """,
        """
        x = torch.tensor(0.0, requires_grad=True)
        d1, = torch.autograd.grad(torch.sin(x), x, create_graph=True)  # cos
        d2, = torch.autograd.grad(d1, x, create_graph=True)  # -sin
        d3, = torch.autograd.grad(d2, x)  # -cos
        answer = d3
        check("10.1", answer)
        """,
    ),
    *exercise(
        "10.2",
        "The Hessian of `k(v) = v[0] ** 2 * v[1]` at `v = (1, 2)`.",
        """
        def k(v):
            return v[0] ** 2 * v[1]

        answer = ...  # a 2×2 tensor
        check("10.2", answer)
        """,
        """
        def k(v):
            return v[0] ** 2 * v[1]

        answer = torch.autograd.functional.hessian(k, torch.tensor([1.0, 2.0]))  # [[2v₁, 2v₀], [2v₀, 0]]
        check("10.2", answer)
        """,
    ),
    *exercise(
        "10.3",
        "For `s(x) = (x ** 3).sum()` at `x = (1, 2)`, the Hessian-vector product with `v = (1, 1)`.",
        """
        def s(x):
            return (x ** 3).sum()

        answer = ...  # H·v, a tensor of 2 values
        check("10.3", answer)
        """,
        """
        def s(x):
            return (x ** 3).sum()

        _, answer = torch.autograd.functional.hvp(s, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0]))  # H = diag(6x)
        check("10.3", answer)
        """,
    ),
]
A10 = {
    "10.1": (-1.0, "sin → cos → −sin → −cos; evaluate at 0."),
    "10.2": (np.array([[4.0, 2.0], [2.0, 0.0]]), "differentiate 2·v₀·v₁ and v₀² once more with respect to each variable."),
    "10.3": (np.array([6.0, 12.0]), "the Hessian of a sum of cubes is diagonal, with 6·xᵢ on the diagonal."),
}


# ---------------------------------------------------------------- 13 putting it together
L13 = [
    md(f"""
    # Lesson 13 · Putting it together: training a small network

    *Follows note 000 (§自动微分机制: the one-layer network, §梯度清0: `model.zero_grad()`), note 004 (§使用 torch.autograd 自动微分) and note 002 (`torch.autograd` in a training loop).*

    Everything from the earlier lessons works together in a training loop: the forward pass builds the 计算图, `loss.backward()` runs 反向传播 and fills `.grad` of every parameter (the 叶子节点), the optimizer updates the parameters under `no_grad`, and the gradients are cleared before the next step (梯度清0). `torch.nn` packs parameters into modules and `torch.optim` packs the update rule. {PYTORCH_NOTE}
    """),
    code(SETUP + "\nimport math\n\nimport numpy as np"),
    md("""
    ## Data: two moons

    Two interleaving half circles, one per class, with a little noise. A seeded `torch.Generator` makes the data the same on every run.
    """),
    code("""
    g = torch.Generator().manual_seed(0)
    n = 100  # points per class
    t = torch.rand(n, generator=g) * math.pi
    upper = torch.stack([torch.cos(t), torch.sin(t)], dim=1)
    lower = torch.stack([1 - torch.cos(t), 0.5 - torch.sin(t)], dim=1)
    X = torch.cat([upper, lower]) + 0.1 * torch.randn(2 * n, 2, generator=g)
    y = torch.cat([torch.zeros(n), torch.ones(n)]).unsqueeze(1)
    print(X.shape, y.shape, X[:3])
    """),
    md("""
    ## The model, the loss, the optimizer

    A two-layer network: `Linear(2, 16)` → `Tanh` → `Linear(16, 1)` gives one logit per point. `BCEWithLogitsLoss` is the `binary_cross_entropy_with_logits` of note 000, as a module. Every parameter is a leaf with `requires_grad=True`.
    """),
    code("""
    model = torch.nn.Sequential(torch.nn.Linear(2, 16), torch.nn.Tanh(), torch.nn.Linear(16, 1))
    loss_fn = torch.nn.BCEWithLogitsLoss()
    optimizer = torch.optim.Adam(model.parameters(), lr=0.05)
    print(model)
    for name, p in model.named_parameters():
        print(f"{name:9} {tuple(p.shape)!s:8} is_leaf={p.is_leaf} requires_grad={p.requires_grad}")
    """),
    md("The graph of one loss, with the parameters named after the model's own names:"),
    code("""
    loss = loss_fn(model(X), y)
    viz.draw(loss, params=dict(model.named_parameters()))
    """),
    md("""
    ## Gradients before training

    One `backward()` fills `.grad` of all four parameters. Their norms say how strongly the loss reacts to each; `viz.plot_grad_norms` draws them (blue: vanishing, red: exploding).
    """),
    code("""
    loss.backward()
    print(f"loss {loss.item():.4f}")
    for name, p in model.named_parameters():
        print(f"{name:9} grad norm {p.grad.norm().item():.4f}")
    assert all(p.grad is not None for p in model.parameters())
    """),
    code("""
    viz.plot_grad_norms(model, title="gradient norms at the start")
    """),
    md("The graph is freed by `backward()`; a second call fails (keep it with `retain_graph=True` if you really need it):"),
    error("loss.backward()"),
    md("""
    ## The loop

    Each step: 梯度清0 (`optimizer.zero_grad()`), forward, `backward()`, `optimizer.step()`. Without the first line the gradients of all steps would add up (lesson 05).
    """),
    code("""
    losses = []
    for step in range(200):
        optimizer.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward()
        optimizer.step()
        losses.append(loss.item())
        if step % 50 == 0 or step == 199:
            print(f"step {step:3d}  loss {loss.item():.4f}")
    assert losses[-1] < 0.1 * losses[0]
    """),
    code("""
    with torch.no_grad():  # evaluation: no graph needed
        accuracy = ((model(X) > 0).float() == y).float().mean().item()
    print(f"training accuracy: {accuracy:.3f}")
    assert accuracy > 0.95
    """),
    md("Gradient norms after the last step: much smaller, the loss is near a minimum."),
    code("""
    for name, p in model.named_parameters():
        print(f"{name:9} grad norm {p.grad.norm().item():.4f}")
    viz.plot_grad_norms(model, title="gradient norms after training")
    """),
    md("""
    ## Loss curve and decision boundary

    The boundary is where the logit crosses 0. The grid of points is built with NumPy and evaluated under `no_grad`.
    """),
    code("""
    from viz.plots import PlotFigure  # a matplotlib Figure that shows itself in Jupyter

    xs, ys = np.meshgrid(np.linspace(-1.5, 2.5, 120), np.linspace(-1.0, 1.5, 80))
    grid = torch.tensor(np.stack([xs.ravel(), ys.ravel()], axis=1), dtype=torch.float32)
    with torch.no_grad():
        prob = torch.sigmoid(model(grid)).numpy().reshape(xs.shape)

    fig = PlotFigure(figsize=(11, 4), layout="constrained")
    left, right = fig.subplots(1, 2)
    viz.plot_losses(losses, ax=left, log=True, title="training loss")
    right.contourf(xs, ys, prob, levels=20, cmap="RdBu_r", alpha=0.6)
    right.contour(xs, ys, prob, levels=[0.5], colors="k")
    Xn, yn = X.numpy(), y.numpy().ravel()
    right.scatter(Xn[:, 0], Xn[:, 1], c=yn, cmap="RdBu_r", edgecolors="k", s=15)
    right.set_title("decision boundary (black: p = 0.5)")
    fig
    """),
    md("## Exercises"),
    *exercise(
        "13.1",
        "How many numbers does `model` learn? (Sum `p.numel()` over its parameters, or count by hand.)",
        """
        answer = ...  # an int
        check("13.1", answer)
        """,
        """
        answer = sum(p.numel() for p in model.parameters())  # 2·16 + 16 + 16·1 + 1
        check("13.1", answer)
        """,
    ),
    *exercise(
        "13.2",
        "Forget 梯度清0: call `backward` twice on the same loss (`retain_graph=True` the first time) after `model.zero_grad()`. By what factor does the gradient norm of `0.weight` grow compared with a single backward?",
        """
        answer = ...  # a number
        check("13.2", answer)
        """,
        """
        model.zero_grad()
        loss = loss_fn(model(X), y)
        loss.backward(retain_graph=True)
        once = model[0].weight.grad.norm().item()
        loss.backward()  # adds the same gradient again
        answer = model[0].weight.grad.norm().item() / once
        check("13.2", answer)
        """,
    ),
    *exercise(
        "13.3",
        "If the last layer's weight and bias were all zeros, every logit would be 0. What would `loss_fn` return then (to 4 decimals)?",
        """
        answer = ...  # a number
        check("13.3", answer)
        """,
        """
        logits = torch.zeros(2 * n, 1)
        answer = loss_fn(logits, y).item()  # -log(sigmoid(0)) = log 2
        check("13.3", answer)
        """,
    ),
]
A13 = {
    "13.1": (65, "a Linear(i, o) layer has i·o weights and o biases."),
    "13.2": (2.0, "backward adds into .grad; the same gradient twice."),
    "13.3": (float(np.log(2.0)), "sigmoid(0) = 1/2, and the loss is −log of the probability of the right class."),
}


# ---------------------------------------------------------------- 08 intermediate gradients
L08 = [
    md(f"""
    # Lesson 08 · Gradients of intermediate tensors, and hooks

    *Follows note 000 (§获取中间tensor的梯度: `mid_tensor.retain_grad()`, `mid_tensor.register_hook(save_grad)`) and note 001 (hook方法, named as a next step).*

    `backward()` fills `.grad` only for leaves (叶子节点). The gradient flowing through an intermediate tensor is computed, used, and dropped. Note 000 names the two ways to catch it — 获取中间tensor的梯度:

    * `mid_tensor.retain_grad()`: keep it in `mid_tensor.grad`;
    * `mid_tensor.register_hook(save_grad)`: call a function with it (the function may also change it).

    Hooks exist on graph nodes too (`grad_fn.register_prehook`, `grad_fn.register_hook`); `viz.BackwardStepper` uses them to replay a backward pass step by step. {PYTORCH_NOTE}
    """),
    code(SETUP),
    md("## The intermediate gradient is not kept"),
    code("""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, -1.0], requires_grad=True)
    y = x * w  # intermediate: y = [3, -2]
    z = (y * y).sum()  # dz/dy = 2y = [6, -4]
    z.backward()
    print(x.grad, w.grad)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        print(y.grad)
        assert y.grad is None
    print(str(caught[0].message)[:92] + "...")
    """),
    md("## `retain_grad()`"),
    code("""
    y = x * w
    y.retain_grad()
    z = (y * y).sum()
    z.backward()
    print(y.grad, y.retains_grad, x.retains_grad)
    assert y.grad.tolist() == [6.0, -4.0] and y.retains_grad and not x.retains_grad
    """),
    md("`retains_grad` is the `retains_grad_` field of lesson 11: 「只有非叶子节点才有意义」, it only means something for non-leaves (a leaf keeps its gradient anyway)."),
    md("""
    ## `register_hook(save_grad)`

    A tensor hook is a function `hook(grad)` called with the tensor's gradient during backward. The classic `save_grad` stores it in a dictionary under a name:
    """),
    code("""
    grads = {}

    def save_grad(name):
        def hook(grad):
            grads[name] = grad
        return hook

    x.grad = None
    w.grad = None
    y = x * w
    z = (y * y).sum()
    handle = y.register_hook(save_grad("y"))
    z.backward()
    print(grads)
    assert grads["y"].tolist() == [6.0, -4.0]
    handle.remove()  # a hook stays until removed
    """),
    md("""
    A hook that **returns** a tensor replaces the gradient: everything downstream (here `x.grad`, `w.grad`) sees the new value. Clipping the gradient of one intermediate tensor:
    """),
    code("""
    x.grad = None
    w.grad = None
    y = x * w
    z = (y * y).sum()
    y.register_hook(lambda grad: grad.clamp(-1.0, 1.0))  # [6, -4] -> [1, -1]
    z.backward()
    print(x.grad, w.grad)  # dz/dx = clipped grad * w
    assert x.grad.tolist() == [3.0, 1.0]
    """),
    md("A hook on a leaf sees the gradient just before it is added into `.grad`. A tensor that does not require grad has no gradient to hook:"),
    error("torch.tensor([1.0, 2.0]).register_hook(save_grad('nothing'))"),
    md("""
    ## Hooks on nodes

    Every `grad_fn` node takes two kinds of hooks:

    * `register_prehook(hook(grad_outputs))`: before the node runs, with the gradients arriving at it;
    * `register_hook(hook(grad_inputs, grad_outputs))`: after it ran, with the gradients it sends on.

    The names are from the node's point of view in the forward pass: `grad_outputs` are the gradients of its outputs, `grad_inputs` those of its inputs.
    """),
    code("""
    log = []
    y = x * w
    z = (y * y).sum()
    square = z.grad_fn.next_functions[0][0]  # MulBackward0 of y * y
    square.register_prehook(lambda grad_outputs: log.append(("pre", square.name(), grad_outputs)))
    square.register_hook(lambda grad_inputs, grad_outputs: log.append(("post", square.name(), grad_inputs)))
    z.backward()
    for entry in log:
        print(entry)
    assert log[0][2][0].tolist() == [1.0, 1.0]  # from SumBackward0
    assert log[1][2][0].tolist() == [3.0, -2.0]  # d(y·y)/d(first y) = second y, times [1, 1]
    """),
    md("""
    ## Watching backward step by step

    `viz.BackwardStepper(output, params=...)` registers a pre-hook and a hook on every node, runs `backward()` once, and keeps what each node received and sent. Then it replays the pass: the slider (or `play`) moves through the nodes in the order the engine ran them. The widget works in a live notebook; below, the same stepper is driven from code.
    """),
    code("""
    x.grad = None
    w.grad = None
    y = x * w
    z = (y * y).sum()
    stepper = viz.BackwardStepper(z, params={"x": x, "w": w})
    print(len(stepper), "steps")
    stepper
    """),
    md("Setting `stepper.step` moves the slider; the widget's callback redraws the picture and the text. Step 2 is `MulBackward0` of `y * y`: both of its inputs are `y`, so the two contributions add up before it sends gradients to `x` and `w`."),
    code("""
    stepper.step = 2
    print(stepper.text)
    assert stepper.step == 2 and stepper.current.node == "MulBackward0"
    """),
    code("""
    stepper.step = 3
    print(stepper.text)
    print(x.grad, w.grad)  # the stepper ran a real backward
    assert x.grad.tolist() == [18.0, 4.0]
    stepper.drawing()
    """),
    md("## Exercises"),
    *exercise(
        "08.1",
        "`x = [1., 2., 3.]` requires grad, `y = x ** 2`, `z = (3 * y).sum()`. What is `y.grad` after `z.backward()` (make it be kept)?",
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        answer = ...
        check("08.1", answer)
        """,
        """
        x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x ** 2
        y.retain_grad()
        z = (3 * y).sum()
        z.backward()
        answer = y.grad  # dz/dy = 3 everywhere
        check("08.1", answer)
        """,
    ),
    *exercise(
        "08.2",
        "`x = [1., 2.]` requires grad, `y = x * x` with a hook that doubles its gradient, `z = y.sum()`. What is `x.grad`?",
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        answer = ...
        check("08.2", answer)
        """,
        """
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        y = x * x
        y.register_hook(lambda grad: grad * 2)
        y.sum().backward()
        answer = x.grad  # 2 · (1 · 2x)
        check("08.2", answer)
        """,
    ),
    *exercise(
        "08.3",
        "How many steps does `viz.BackwardStepper` record for `((a * b) + a).sum()` with leaves `a` and `b` (shape 2)? Count the nodes first.",
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        answer = ...  # an int
        check("08.3", answer)
        """,
        """
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        b = torch.tensor([3.0, 4.0], requires_grad=True)
        answer = len(viz.BackwardStepper(((a * b) + a).sum(), params={"a": a, "b": b}))
        check("08.3", answer)  # Sum, Add, Mul, and one AccumulateGrad per leaf
        """,
    ),
]
A08 = {
    "08.1": (np.array([3.0, 3.0, 3.0]), "z is 3 times the sum of y; call y.retain_grad() before backward."),
    "08.2": (np.array([4.0, 8.0]), "the hook's return value replaces y's gradient before it reaches x."),
    "08.3": (5, "each node runs once: one per operation plus one AccumulateGrad per leaf."),
}


# ---------------------------------------------------------------- 12 the autograd toolbox
L12 = [
    md(f"""
    # Lesson 12 · The autograd toolbox

    *Follows note 002 (§torch.autograd: Desciption, PACKAGE CONTENTS, CLASSES, FUNCTIONS, DATA, FILE) and note 003 (§Function).*

    Note 002 tours the package `torch.autograd`: 「``torch.autograd``提供了能够对任意标量函数自动求导的类和函数」. The first section below walks through that tour; the rest of the lesson uses the modules that check and debug autograd rather than use it:

    * `gradcheck`: is a backward formula right? (compares with finite differences)
    * `anomaly_mode`: which operation produced a NaN in backward?
    * `graph.saved_tensors_hooks`: what does the graph keep in memory?
    * `profiler`: which operations ran, and how long did they take?
    * `forward_ad`: derivatives in forward mode, with dual numbers.

    {PYTORCH_NOTE}
    """),
    code(SETUP),
    md("""
    ## A tour of the package (note 002 §torch.autograd)

    Note 002 begins like this — the package imported under its own name:
    """),
    code("""
    import minigrad as torch
    import minigrad.autograd as autograd  # with PyTorch: import torch.autograd as autograd
    """),
    md("""
    **Desciption.** 「目前支持自动求导的`Tensor`数据类型有浮点型 (half, float, double, bfloat16) 和复数型 (cfloat, cdouble)」 — only floating point and complex tensors can require gradients:
    """),
    code("""
    for dtype in [torch.half, torch.float, torch.double, torch.bfloat16, torch.cfloat, torch.cdouble]:
        t = torch.ones(2, dtype=dtype, requires_grad=True)
        print(f"{str(dtype):17} requires_grad={t.requires_grad}  is_floating_point={dtype.is_floating_point}  is_complex={dtype.is_complex}")
    """),
    error("torch.ones(2, dtype=torch.int64, requires_grad=True)"),
    md("""
    **PACKAGE CONTENTS.** The submodules the note lists, each importable (`_functions`, also listed, is private: PyTorch's internal implementations, not an API). The lessons use them: `function` (lesson 09), `functional` (lesson 10), `grad_mode` (lesson 06), and below `anomaly_mode`, `gradcheck`, `profiler`. `variable` holds `Variable`, a relic.
    """),
    code("""
    import importlib

    for sub in ["anomaly_mode", "function", "functional", "grad_mode", "gradcheck", "profiler", "variable"]:
        module = importlib.import_module(f"{autograd.__name__}.{sub}")
        print(f"{sub:13} {module.__name__.split('.', 1)[1]}")
    """),
    md("""
    **CLASSES.** `Function` (lessons 09 and here) is the base class of custom operations; in PyTorch its C++ base `_FunctionBase` and the mixins the note lists are implementation details. `Variable` was the tensor-with-history wrapper of PyTorch before 0.4; today it only makes a plain tensor (tensors carry `requires_grad`, `grad` and `grad_fn` themselves).
    """),
    code("""
    print(autograd.function.Function is autograd.Function)
    v = autograd.Variable(torch.ones(2), requires_grad=True)
    print(type(v).__name__, v.requires_grad, v.is_leaf)
    """),
    md("""
    **FUNCTIONS, DATA, FILE.** The note lists one function, `backward(tensors, grad_tensors, retain_graph, create_graph, grad_variables)` (lesson 03, where `grad` is covered too), and `__all__ = ['Variable', 'Function', 'backward', 'grad_mode']`. Today's `__all__` is longer, but still holds those four; the package lives in `autograd/__init__.py`.
    """),
    code("""
    import inspect
    from pathlib import Path

    print(list(inspect.signature(autograd.backward).parameters))
    print(all(name in autograd.__all__ for name in ["Variable", "Function", "backward", "grad_mode"]))
    print(Path(autograd.__file__).parts[-2:])
    assert {"Variable", "Function", "backward", "grad_mode"} <= set(autograd.__all__)
    """),
    md("""
    ## `gradcheck`: catching a wrong backward

    `gradcheck(fn, inputs)` computes the Jacobian twice: numerically, with central differences (f(x + ε) − f(x − ε)) / 2ε, and analytically, with backward. It returns `True` when they agree, and raises `GradcheckError` showing both when they do not. Inputs should be float64.

    A `Function` with a bug, d(x²)/dx written as `x` instead of `2x`:
    """),
    code("""
    class BadSquare(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * x

        @staticmethod
        def backward(ctx, grad_output):
            x, = ctx.saved_tensors
            return grad_output * x  # bug: the derivative of x² is 2x

    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    print(torch.autograd.gradcheck(lambda t: t * t, (x,)))  # a built-in op passes
    """),
    error("torch.autograd.gradcheck(BadSquare.apply, (x,))"),
    md("The numerical Jacobian is diag(2x) = diag(2, 4); the analytical one diag(1, 2): off by the factor 2. With `raise_exception=False` the answer is just a bool:"),
    code("""
    ok = torch.autograd.gradcheck(BadSquare.apply, (x,), raise_exception=False)
    print(ok)
    assert ok is False
    """),
    md("""
    ## Anomaly detection: where does the NaN come from?

    `log` at 0 is −∞; multiplied by 0 the forward value is NaN only at that element, but the backward is worse: `LogBackward0` computes grad / x = 0 / 0 = NaN. Without help, backward runs on and leaves NaN in `x.grad`:
    """),
    code("""
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = (x.log() * 0).sum()
    y.backward()
    print(x.grad)
    assert x.grad.isnan().any()
    """),
    md("""
    Inside `torch.autograd.detect_anomaly()`, every backward node's output is checked for NaN, and the error names the node. Anomaly mode also records the forward stack of each operation and shows it in a warning. The warnings are caught here (they carry file paths) and printed in the next cell.
    """),
    code("""
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = (x.log() * 0).sum()
    viz.draw(y, params={"x": x})
    """),
    code("""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with torch.autograd.detect_anomaly():
            x = torch.tensor([0.0, 1.0], requires_grad=True)
            y = (x.log() * 0).sum()
            y.backward()
    """, tags=("raises-exception",)),
    code("""
    for w in caught:
        print(f"{w.category.__name__}: {str(w.message).splitlines()[0]}")
    print("the forward stack points at x.log():", "x.log()" in str(caught[-1].message))
    """),
    md("""
    ## Saved-tensor hooks: what the graph keeps

    Lesson 11 showed `_saved_self`, `_saved_other`. `torch.autograd.graph.saved_tensors_hooks(pack, unpack)` intercepts every tensor a node saves: `pack` is called when it is saved (during forward) and returns whatever should be stored; `unpack` is called when backward needs it back. Logging in `pack` shows the memory a graph holds; real uses compress or move tensors to other memory.
    """),
    code("""
    log = []

    def pack(t):
        log.append(f"saved {tuple(t.shape)} {t.dtype}")
        return t

    def unpack(t):
        log.append(f"unpacked {tuple(t.shape)}")
        return t

    a = torch.ones(2, 3, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        b = (a.exp() * a).sum()  # exp saves its result; mul saves both inputs; sum saves only a shape
    print("\\n".join(log))
    log.clear()
    b.backward()
    print("\\n".join(log))
    """),
    md("""
    ## The profiler

    `torch.autograd.profiler.profile()` records every operation run inside it, forward and backward (backward nodes appear under their `grad_fn` names). Timings change on every run, so the table is not compared by the tests; the names are.
    """),
    code("""
    a = torch.ones(100, 100, requires_grad=True)
    with torch.autograd.profiler.profile() as prof:
        c = (a * 2).exp().sum()
        c.backward()
    names = [e.name for e in prof.function_events]
    backward_nodes = [n for n in names if n.endswith("Backward0") and ":" not in n]  # PyTorch also logs
    # "autograd::engine::evaluate_function: XBackward0" around each node; the node names are the same
    print(backward_nodes)
    print("aten::exp ran", names.count("aten::exp"), "time(s)")
    assert backward_nodes == ["SumBackward0", "ExpBackward0", "MulBackward0"]
    """),
    code("""
    # NBVAL_IGNORE_OUTPUT
    print(prof.key_averages().table(sort_by="cpu_time_total", row_limit=8))
    """),
    md("""
    ## Forward-mode AD: `torch.autograd.forward_ad`

    Reverse mode (`backward`) gives vᵀ·J, one output direction per pass. Forward mode gives J·v, one *input* direction per pass, computed alongside the forward values: a **dual tensor** carries a primal value and a tangent, and every operation updates both. Useful when there are few inputs and many outputs.
    """),
    code("""
    fwAD = torch.autograd.forward_ad
    primal = torch.tensor([1.0, 2.0])
    tangent = torch.tensor([1.0, 0.0])  # direction: along the first input

    with fwAD.dual_level():
        dual = fwAD.make_dual(primal, tangent)
        out = torch.sin(dual ** 2)
        value, jvp = fwAD.unpack_dual(out)
    print(value, jvp)  # d sin(x²)/dx = 2x cos(x²): [2 cos 1, 0]
    J = torch.autograd.functional.jacobian(lambda t: torch.sin(t ** 2), primal)
    assert torch.allclose(jvp, J @ tangent)
    """),
    md("## Exercises"),
    *exercise(
        "12.1",
        "Fix `BadSquare`'s backward in a new `GoodSquare` and give the result of `gradcheck(GoodSquare.apply, (x,), raise_exception=False)` for float64 `x = [1., 2.]`.",
        """
        answer = ...  # a bool
        check("12.1", answer)
        """,
        """
        class GoodSquare(torch.autograd.Function):
            @staticmethod
            def forward(ctx, x):
                ctx.save_for_backward(x)
                return x * x

            @staticmethod
            def backward(ctx, grad_output):
                x, = ctx.saved_tensors
                return grad_output * 2 * x

        x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
        answer = torch.autograd.gradcheck(GoodSquare.apply, (x,), raise_exception=False)
        check("12.1", answer)
        """,
    ),
    *exercise(
        "12.2",
        "How many times is `pack` called while building `(p * q).sin().sum()` (both `p` and `q` of shape 3 require grad)?",
        """
        p = torch.ones(3, requires_grad=True)
        q = torch.ones(3, requires_grad=True)
        answer = ...  # an int
        check("12.2", answer)
        """,
        """
        p = torch.ones(3, requires_grad=True)
        q = torch.ones(3, requires_grad=True)
        calls = []
        with torch.autograd.graph.saved_tensors_hooks(lambda t: calls.append(1) or t, lambda t: t):
            (p * q).sin().sum()
        answer = len(calls)  # mul saves p and q, sin saves its input, sum no tensor
        check("12.2", answer)
        """,
    ),
    *exercise(
        "12.3",
        "With forward-mode AD, the derivative of `x ** 3` at `x = 2.` along the tangent `1.` (a 0-dim tangent).",
        """
        answer = ...
        check("12.3", answer)
        """,
        """
        with fwAD.dual_level():
            d = fwAD.make_dual(torch.tensor(2.0), torch.tensor(1.0))
            answer = fwAD.unpack_dual(d ** 3).tangent  # 3x² = 12
        check("12.3", answer)
        """,
    ),
]
A12 = {
    "12.1": (True, "the derivative of x² is 2x; gradcheck compares with finite differences."),
    "12.2": (3, "count the tensors each backward formula needs: a product needs both factors."),
    "12.3": (12.0, "the tangent of x³ is 3x² times the input tangent."),
}


LESSONS = {
    "08": ("08_intermediate_gradients.ipynb", "l08", "L08", "A08"),
    "09": ("09_custom_functions.ipynb", "l09", "L09", "A09"),
    "10": ("10_higher_order_derivatives.ipynb", "l10", "L10", "A10"),
    "11": ("11_under_the_hood.ipynb", "l11", "L11", "A11"),
    "12": ("12_autograd_toolbox.ipynb", "l12", "L12", "A12"),
    "13": ("13_putting_it_together.ipynb", "l13", "L13", "A13"),
}


def strip_widget_state(paths: list[str]) -> None:
    """Drop metadata.widgets (widget state saved by nbconvert) from executed notebooks."""
    import nbformat

    for path in paths:
        nb = nbformat.read(path, as_version=4)
        if nb.metadata.pop("widgets", None) is not None:
            nbformat.write(nb, path)
            print("stripped widget state from", path)


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
    if sys.argv[1:2] == ["strip"]:  # after executing: build_lessons_08_13.py strip notebooks/08_*.ipynb
        strip_widget_state(sys.argv[2:])
    else:
        main(sys.argv[1:])
