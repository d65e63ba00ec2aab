"""Regression programs for the differences the nn graph fuzzer found in session 11 (``fuzz_graphs.py --nn``, its
``_NNGen.op11`` families: conv / batch-norm modules, transformers, parametrizations, optimizers' param groups and
state_dict round trips, chained lr schedulers).

Each program runs with minigrad and with PyTorch (``parity.same_as_torch``) and prints what differed.
"""
from __future__ import annotations

import pytest
from parity import same_as_torch

PROGRAMS = {
    # fixed: Optimizer.load_state_dict deep-copied the loaded state; PyTorch deep-copies only the param_groups and
    # shares the state tensors (``.to(dtype)`` of a tensor that has the dtype already is the tensor itself), so a
    # state_dict kept from before and the optimizer it was loaded into see each other's in-place updates
    "optimizer_load_state_dict_shares_state": """
for name, kw in [("RMSprop", {}), ("Adam", {"amsgrad": True}), ("SGD", {"momentum": 0.9}), ("Adagrad", {}),
                 ("Rprop", {})]:
    torch.manual_seed(0)
    a, b = torch.nn.Linear(2, 2).double(), torch.nn.Linear(2, 1).double()
    x = torch.randn(3, 2, dtype=torch.float64)
    o = getattr(torch.optim, name)(a.parameters(), lr=0.1, **kw)
    o.add_param_group({"params": b.parameters(), "lr": 0.01})
    for i in range(2):
        o.zero_grad(); b(a(x).tanh()).sum().backward(); o.step()
    sd = o.state_dict()
    o2 = getattr(torch.optim, name)([{"params": a.parameters()}, {"params": b.parameters()}], lr=0.1, **kw)
    o2.load_state_dict(sd)
    print(name, [k for k in o2.state[a.weight]], [o2.state[a.weight][k] is sd["state"][0][k]
                                                   for k in o2.state[a.weight]])
    print(o2.param_groups[1]["lr"], o2.param_groups[0]["params"][0] is a.weight)
    o2.zero_grad(); b(a(x).tanh()).sum().backward(); o2.step()
    print(sorted((k, v) for k, v in sd["state"][1].items()))
    sd2 = o2.state_dict()
    sd2["param_groups"][0]["lr"] = 5.0
    o3 = getattr(torch.optim, name)([{"params": a.parameters()}, {"params": b.parameters()}], lr=0.1, **kw)
    o3.load_state_dict(sd2)
    sd2["param_groups"][1]["lr"] = 7.0   # (the groups are copied: o3 keeps the values it loaded)
    print([g["lr"] for g in o3.param_groups])
p = torch.nn.Parameter(torch.ones(2, dtype=torch.float64))
o = torch.optim.Adam([p], lr=0.1)
p.sum().backward(); o.step()
q = torch.nn.Parameter(torch.ones(2))
o4 = torch.optim.Adam([q], lr=0.1)
o4.load_state_dict(o.state_dict())   # (cast to the parameter's dtype: a copy; the step count is shared)
print(o4.state[q]["exp_avg"].dtype, o4.state[q]["exp_avg"] is o.state[p]["exp_avg"],
      o4.state[q]["step"] is o.state[p]["step"])
""",
    # fixed: set_ gives a leaf a new AccumulateGrad (graphs recorded before keep feeding the old one), so
    # remove_parametrizations(leave_parametrized=True) and register_parametrization (which set_ the original) leave
    # two AccumulateGrad nodes for one parameter in a graph that mixes uses from before and after
    "set_new_grad_accumulator": """
t = torch.zeros(3, requires_grad=True)
t.register_hook(lambda g: print("hook", g))
y = (t * 2).sum()
a1 = y.grad_fn.next_functions[0][0].next_functions[0][0]
with torch.no_grad():
    t.set_(torch.ones(3))
z = (t * 3).sum()
a2 = z.grad_fn.next_functions[0][0].next_functions[0][0]
print(type(a1).__name__, type(a2).__name__, a1 is a2, a1.variable is t, a2.variable is t)
(y + z).backward()
print(t.grad)
with torch.no_grad():
    t.set_()
print((t * 1).grad_fn.next_functions[0][0] is a2, t.shape)
torch.manual_seed(0)
lin = torch.nn.Linear(2, 3)
P = type("Positive", (torch.nn.Module,), {"forward": lambda self, X: X.exp()})
w_before = lin.bias * 1
torch.nn.utils.parametrize.register_parametrization(lin, "bias", P())
orig = lin.parametrizations.bias.original
v = lin.bias * 1
torch.nn.utils.parametrize.remove_parametrizations(lin, "bias", leave_parametrized=True)
u = lin(torch.ones(1, 2))
accs = [w_before.grad_fn.next_functions[0][0], v.grad_fn.next_functions[0][0].next_functions[0][0],
        u.grad_fn.next_functions[0][0]]
print([type(n).__name__ for n in accs], accs[0] is accs[1], accs[1] is accs[2], accs[2].variable is orig)
(w_before.sum() + v.sum() + u.sum()).backward()
print(lin.bias, lin.bias.grad)
""",
    # fixed: tensor arguments of table ops (batch norm's running statistics, a loss's target / class weights /
    # pos_weight) were saved without their version: PyTorch saves them as SavedVariables, so changing them in place
    # before backward (reset_running_stats, fill_) raises, and saved-tensor hooks see them
    "tensor_arguments_saved_with_version": """
def run(name, mutate, train=True, **kw):
    m = torch.nn.BatchNorm1d(3, **kw)
    m.train(train)
    x = torch.arange(6.).reshape(2, 3).requires_grad_()
    ys = [m(x * (i + 1)) for i in range(2)]
    mutate(m)
    E(lambda: sum(y.sum() for y in ys).backward())
    print(name, m.running_mean._version, m.running_var._version, x.grad)
run("nothing", lambda m: None)
run("reset_running_stats", lambda m: m.reset_running_stats())
run("var fill_", lambda m: m.running_var.fill_(1))
run("eval mul_", lambda m: m.running_mean.mul_(2), train=False)
run("momentum None", lambda m: m.reset_running_stats(), momentum=None)
m = torch.nn.BatchNorm1d(3)
y = m(torch.ones(2, 3, requires_grad=True))
print(y.grad_fn._saved_running_mean, y.grad_fn._raw_saved_running_var)
m.reset_running_stats()
E(lambda: y.grad_fn._saved_running_mean)
x = torch.arange(12.).reshape(3, 4).requires_grad_()
t, w = torch.tensor([0, 2, 1]), torch.tensor([1., 2., 3., 4.])
for k, make, mut in [
        ("nll target", lambda: torch.nn.functional.nll_loss(x.log_softmax(1), t), lambda: t.add_(0)),
        ("cross_entropy weight", lambda: torch.nn.functional.cross_entropy(x, t, weight=w), lambda: w.mul_(1)),
        ("bce pos_weight", lambda: torch.nn.functional.binary_cross_entropy_with_logits(
            x, w.expand(3, 4) * 0.1, pos_weight=w), lambda: w.mul_(1))]:
    y = make()
    mut()
    E(lambda: y.backward())
packed = []
with torch.autograd.graph.saved_tensors_hooks(lambda a: packed.append(tuple(a.shape)) or a, lambda a: a):
    y = torch.nn.functional.nll_loss(x.log_softmax(1), t, weight=w)
    z = torch.nn.BatchNorm1d(4)(x)
print(packed)
(y + z.sum()).backward()
E(lambda: y.grad_fn._saved_target)
""",
    # fixed: Adagrad made its state only in __init__ (a KeyError at the first step of a group added with
    # add_param_group; PyTorch makes it then, from the defaults' initial_accumulator_value), started a complex
    # parameter's sum at value + 0i (PyTorch: value + value·i) and its step count always in float32
    "adagrad_state": """
p = torch.nn.Parameter(torch.tensor([1 + 2j, 3 - 1j]))
o = torch.optim.Adagrad([p], lr=0.1, initial_accumulator_value=0.5)
print(o.state[p]["sum"], o.state[p]["step"].dtype)
q = torch.nn.Parameter(torch.tensor([1., 2.]))
r = torch.nn.Parameter(torch.tensor([3.]))
o.add_param_group({"params": [q, r], "initial_accumulator_value": 2.0, "lr_decay": 0.5})
print(len(o.state), q in o.state)
(p.abs().sum() + q.sum()).backward()
o.step()
print(o.state[q], r in o.state, p, q)
o.step()
print(o.state[q], q, o.state_dict()["state"].keys())
torch.set_default_dtype(torch.float64)
print(torch.optim.Adagrad([q]).state[q]["step"].dtype)
""",
    # fixed: lr schedulers zip the optimizer's param groups with their base lrs / lambdas strictly, as PyTorch's:
    # a param group added after the scheduler was made raises ValueError (zip() argument 2 is shorter ...) where
    # PyTorch's does (LambdaLR, MultiplicativeLR, CosineAnnealingWarmRestarts, CyclicLR, SequentialLR at a milestone)
    "lr_scheduler_strict_zip": """
L = torch.optim.lr_scheduler
for name, f in [("Exp", lambda o: L.ExponentialLR(o, 0.9)), ("Cos", lambda o: L.CosineAnnealingLR(o, 4)),
                ("Step", lambda o: L.StepLR(o, 2)), ("Linear", lambda o: L.LinearLR(o, 0.2, total_iters=2)),
                ("Seq", lambda o: L.SequentialLR(o, [L.ExponentialLR(o, 0.9), L.CosineAnnealingLR(o, 4)],
                                                 milestones=[2])),
                ("Chain", lambda o: L.ChainedScheduler([L.ExponentialLR(o, 0.9), L.StepLR(o, 2)])),
                ("Lambda", lambda o: L.LambdaLR(o, lambda e: 0.5 ** e)),
                ("Mult", lambda o: L.MultiplicativeLR(o, lambda e: 0.5)),
                ("CosWR", lambda o: L.CosineAnnealingWarmRestarts(o, 2)),
                ("Cyclic", lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, cycle_momentum=False)),
                ("CyclicM", lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2)),
                ("Poly", lambda o: L.PolynomialLR(o, 4))]:
    a, b = torch.nn.Parameter(torch.ones(2)), torch.nn.Parameter(torch.ones(2))
    o = torch.optim.SGD([a], lr=0.1, momentum=0.9)
    s = f(o)
    o.add_param_group({"params": [b], "lr": 0.2})
    out = []
    for i in range(4):
        try:
            o.step()
            s.step()
            out.append([round(g["lr"], 6) for g in o.param_groups])
        except Exception as e:
            out.append(f"{type(e).__name__}: {e}")
            break
    print(name, out, s.get_last_lr())
""",
    # fixed: Module.to(complex dtype) warns as PyTorch's does (complex modules are experimental), refuses a copy
    # argument (PyTorch's _parse_to RuntimeError), and assigning a non-tensor to a buffer names torch.nn.Buffer in
    # its TypeError
    "module_to_complex_and_buffer_assignment": """
import warnings
m = torch.nn.Linear(2, 3)
with warnings.catch_warnings(record=True) as w:
    warnings.simplefilter("always")
    print([p.dtype for p in m.to(torch.complex64).parameters()], [str(x.message)[:60] for x in w])
    print([p.dtype for p in m.to(torch.float64).parameters()], sorted({str(x.message)[:50] for x in w}))
E(lambda: m.to(torch.int64))
for args, kw in [((torch.float64,), {"copy": False}), ((torch.float64, False, True), {}),
                 (("cpu", torch.float64, False, True), {}), ((torch.ones(1), False, True), {}),
                 (("cpu", torch.float64, False), {}), ((torch.float64, True), {})]:
    E(lambda: m.to(*args, **kw).weight.dtype)
mm = torch.nn.Module()
mm.register_buffer("x", torch.ones(1), persistent=False)
print(mm.state_dict(), list(mm.named_buffers()))
E(lambda: setattr(mm, "x", 3))
mm.x = None
print(mm.x, list(mm.named_buffers()), mm.state_dict())
""",
    # fixed: SequentialLR / ChainedScheduler.load_state_dict stored the wrapped schedulers' state dicts in place
    # of the schedulers (PyTorch loads each into its scheduler), CyclicLR.load_state_dict dropped a custom
    # scale_fn (AttributeError at the next step); add_param_group's TypeError prints the type as <class 'list'>
    "lr_scheduler_load_state_dict": """
L = torch.optim.lr_scheduler
def opt():
    return torch.optim.SGD([torch.nn.Parameter(torch.ones(2))], lr=0.1, momentum=0.9)
class Scale:
    def __init__(self):
        self.k = 0.5
    def __call__(self, x):
        return self.k ** x
for name, mk in [
        ("Seq", lambda o: L.SequentialLR(o, [L.LinearLR(o, 0.2, total_iters=2), L.ExponentialLR(o, 0.5)],
                                         milestones=[2])),
        ("Seq3", lambda o: L.SequentialLR(o, [L.ConstantLR(o, 0.5, 2), L.StepLR(o, 1, 0.5), L.CosineAnnealingLR(o, 3)],
                                          milestones=[1, 3])),
        ("Chain", lambda o: L.ChainedScheduler([L.LinearLR(o, 0.2, total_iters=2), L.ExponentialLR(o, 0.5)])),
        ("ChainOpt", lambda o: L.ChainedScheduler([L.ConstantLR(o, 0.5, 2), L.MultiStepLR(o, [1, 3])], optimizer=o)),
        ("CyclicFn", lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=lambda x: 0.5 ** x,
                                          scale_mode="iterations")),
        ("CyclicObj", lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, scale_fn=Scale())),
        ("Cyclic2", lambda o: L.CyclicLR(o, 0.01, 0.1, step_size_up=2, mode="triangular2"))]:
    o = opt()
    s = mk(o)
    for i in range(4):
        o.step()
        s.step()
    sd = s.state_dict()
    if name == "CyclicObj":
        sd["_scale_fn_custom"]["k"] = 0.25
    o2 = opt()
    s2 = mk(o2)
    s2.load_state_dict(sd)
    print(name, sorted(sd), [type(x).__name__ for x in getattr(s2, "_schedulers", [])])
    for i in range(3):
        o2.step()
        s2.step()
        print("  ", s2.get_last_lr(), [round(g["momentum"], 6) for g in o2.param_groups])
E(lambda: opt().add_param_group([torch.ones(1)]))
""",
    # fixed: Adam / AdamW refuse a Tensor lr with foreach=True unless capturable (PyTorch's ValueError)
    "adam_tensor_lr_foreach": """
p = torch.nn.Parameter(torch.tensor([1.0, -2.0]))
for name in ("Adam", "AdamW", "NAdam", "Adamax"):
    for fe in (None, False, True):
        for lr in (torch.tensor(0.1), torch.tensor([0.1, 0.2]), 0.1):
            E(lambda: getattr(torch.optim, name)([p], lr=lr, foreach=fe).defaults["lr"])
o = torch.optim.Adam([p], lr=torch.tensor(0.05), foreach=False)
for i in range(2):
    o.zero_grad()
    (p ** 2).sum().backward()
    o.step()
print(p, o.state[p])
""",
}


# Programs whose warnings PyTorch gives once per process (TORCH_WARN_ONCE: complex-to-real casts), which an earlier
# test file may have used up in this process: run in a fresh interpreter.
ONCE = {"module_to_complex_and_buffer_assignment"}


@pytest.mark.parametrize("name", sorted(set(PROGRAMS) - ONCE))
def test_nn_fuzz_fix_matches_torch(name: str):
    same_as_torch(PROGRAMS[name])


@pytest.mark.parametrize("name", sorted(ONCE))
def test_once_per_process_warnings_in_a_fresh_process(name: str):
    import os
    import subprocess
    import sys
    pytest.importorskip("torch")
    here = os.path.dirname(os.path.abspath(__file__))
    script = (f"import sys\nsys.path[:0] = [{here!r}, {os.path.dirname(here)!r}]\n"
              "from parity import same_as_torch\nimport test_parity_nn_fuzz_fixes11 as m\n"
              f"same_as_torch(m.PROGRAMS[{name!r}])\n")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]


# fixed: TransformerEncoder's inference path over nested tensors (eval, no grad, a key padding mask) warns that
# nested tensors are a prototype, once per process (PyTorch's TORCH_WARN_ONCE). Run in a fresh process, where
# neither library has warned yet.
NESTED_WARNING = """
import sys, warnings
import minigrad, torch
for lib in (minigrad, torch):
    lib.manual_seed(0)
    enc = lib.nn.TransformerEncoder(lib.nn.TransformerEncoderLayer(4, 2, 8, dropout=0.0, batch_first=True), 2).eval()
    x = lib.randn(2, 3, 4)
    mask = lib.tensor([[False, False, True], [False, True, True]])
    for grad in (True, False, False):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            with lib.set_grad_enabled(grad):
                y = enc(x, src_key_padding_mask=mask)
        print(grad, y[1, 1:].abs().sum().item() == 0, [(c.category.__name__, str(c.message)) for c in w])
"""


def test_nested_tensor_warning_once_per_process():
    import subprocess
    import sys
    pytest.importorskip("torch")
    root = str(__import__("pathlib").Path(__file__).resolve().parents[1])   # (where minigrad imports from)
    out = subprocess.run([sys.executable, "-c", NESTED_WARNING], capture_output=True, text=True, check=True,
                         cwd=root).stdout
    mine, theirs = out.splitlines()[:3], out.splitlines()[3:]
    assert mine == theirs and len(mine) == 3 and "prototype stage" in mine[1], out
