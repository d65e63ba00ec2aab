"""State that a garbage collection, another thread or an earlier test can change under a running test.

CI runs the suite once, on two workers, in any file order: process-wide state another thread's backward pass
changes, or state an earlier test left behind, fails one run in many. The thread tests force the interleaving the
old code got wrong (events between threads, or threads switching every microsecond over many rounds); the order
tests run the leaking program first (parity.run_both / fresh_warn_once now reset what it leaves). The
garbage-collection case is tests/test_conj_mirrors_gc.py.
"""
from __future__ import annotations

import sys
import threading
import warnings
import weakref

import numpy as np
from parity import fresh_warn_once, run_both, same_as_torch, torch_or_skip

import minigrad as torch
from minigrad.autograd import graph


def test_backward_passes_in_two_threads_keep_their_own_numpy_error_state():
    # Each thread's hooks see its own NumPy error state, and it is its own after the pass. The user states of the
    # running passes were one process-wide stack: thread A's pass, paused (by a finalizer, not a hook) while thread
    # B's started, ran its hooks with B's state and ended with B's state in place of its own.
    a_paused, b_in_pass, a_done = threading.Event(), threading.Event(), threading.Event()
    seen = {}

    def pause():   # inside A's pass, between its nodes: the saved tensor ``s`` freed
        a_paused.set()
        b_in_pass.wait(30)

    def b_work():
        a_paused.wait(30)
        x = torch.tensor([1.0, 2.0], requires_grad=True)

        def hook(g):
            seen["b_hook"] = np.geterr()["divide"]
            b_in_pass.set()
            a_done.wait(30)

        x.register_hook(hook)
        (x * 2).sum().backward()
        seen["b_after"] = np.geterr()["divide"]

    thread = threading.Thread(target=b_work)
    thread.start()
    try:
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        x.register_hook(lambda g: seen.update(a_hook=np.geterr()["divide"]))
        s = x + 1
        weakref.finalize(s, pause)
        y = (x * s).sum()
        del s
        with np.errstate(divide="raise"):
            y.backward()
            seen["a_after"] = np.geterr()["divide"]
    finally:
        a_done.set()
        thread.join(60)
    assert seen == {"a_hook": "raise", "a_after": "raise", "b_hook": "warn", "b_after": "warn"}
    assert x.grad.tolist() == [3.0, 5.0]   # d/dx x (x + 1)


def _two_passes_into_one_leaf() -> np.ndarray:
    """x.grad after two threads' passes of (x * 1).sum() reach x's AccumulateGrad together (a barrier in x's hook;
    a gradient the hook keeps is copied into .grad, by NumPy without the GIL)."""
    x = torch.zeros(1 << 22, requires_grad=True)
    barrier, kept = threading.Barrier(2), []
    x.register_hook(lambda g: None if barrier.wait(30) < 0 else kept.append(g))
    threads = [threading.Thread(target=lambda: (x * 1.0).sum().backward()) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    return x.grad.numpy()


def test_two_threads_backward_passes_into_one_leaf_add_both_gradients():
    # PyTorch's AccumulateGrad adds under a mutex: two threads' passes into one leaf give the sum of both
    # gradients. Both passes read .grad as None and each set its own copy (the other thread got in while NumPy
    # copied): one gradient was lost in most of these rounds.
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        for _ in range(10):
            grad = _two_passes_into_one_leaf()
            assert (grad.min(), grad.max()) == (2.0, 2.0)
    finally:
        sys.setswitchinterval(old)


def test_anomaly_mode_parents_stay_in_their_thread():
    # Under anomaly mode a node made by a backward formula (create_graph) records the node whose backward made it
    # (metadata "parent_"): PyTorch's current node is per thread. It was process-wide here, so a node made in one
    # thread's pass, while another thread's pass ran, got the other thread's node as its parent.
    same_as_torch("""
import threading
import warnings
a_in, b_in, a_done = threading.Event(), threading.Event(), threading.Event()
made = {}
def make(before, after):
    class F(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2
        @staticmethod
        def backward(ctx, g):
            before()
            x, = ctx.saved_tensors
            out = g * x   # recorded: its parent is this F's node
            made.setdefault(threading.current_thread().name, out.grad_fn)
            after()
            return out
    return F
def run(F):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = F.apply(x)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    name = threading.current_thread().name
    print(name, made[name].metadata.get('parent_') is y.grad_fn, g)
FA = make(lambda: (a_in.set(), b_in.wait(30)), lambda: None)
FB = make(lambda: (a_in.wait(30), b_in.set()), lambda: a_done.wait(30))
with torch.autograd.set_detect_anomaly(True):
    tb = threading.Thread(target=run, args=(FB,), name='B')
    tb.start()
    run(FA)
    a_done.set()
    tb.join(60)
""")


def test_saved_tensors_hooks_entered_and_left_in_three_threads_at_once():
    # Each thread's saved_tensors_hooks blocks are its own (PyTorch's are thread-local); the process-wide list that
    # says whether any thread has hooks lost its entries by index, so another thread's removal between reading its
    # length and indexing it raised IndexError (and left entries behind for good).
    errors = []

    def work():
        try:
            for _ in range(100000):
                with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
        except Exception as e:   # (a thread's exception would otherwise only be printed)
            errors.append(repr(e))

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        threads = [threading.Thread(target=work) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(120)
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    assert graph._saved_hooks_stack == [] and graph._thread_hooks() == []
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 10, lambda t: t):
        y = x * x
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 40.0]   # (each saved x packed as 10 x: d/dx = 10 x + 10 x)


def test_a_programs_global_backward_hook_kind_does_not_reach_the_next_program():
    # A global full backward hook makes the global kind "full" for good, in both libraries (removing it does not
    # reset it): another test file's program registering a legacy global hook then raised, whichever ran first.
    same_as_torch("""
from torch.nn.modules.module import register_module_full_backward_hook
register_module_full_backward_hook(lambda m, gi, go: None).remove()
print('registered and removed')
""")
    out = same_as_torch("""
from torch.nn.modules.module import register_module_backward_hook
E(lambda: register_module_backward_hook(lambda m, gi, go: None).remove())
""")
    assert out == "no error\n"


def test_a_programs_cudnn_flags_do_not_reach_the_next_program():
    # Training recipes set torch.backends.cudnn.deterministic / benchmark (module attributes in both libraries):
    # they stayed set for every later program of the process.
    same_as_torch("""
torch.backends.cudnn.deterministic = True
torch.backends.cudnn.benchmark = True
print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)
""")
    out = same_as_torch("print(torch.backends.cudnn.deterministic, torch.backends.cudnn.benchmark)")
    assert out == "False False\n"


def test_a_programs_multithreading_flag_does_not_reach_the_next_program():
    # ``@torch.autograd.set_multithreading_enabled(False)`` switches the engine's flag off when the decorator is
    # made, for good (in both libraries): every later program of the process started with it off.
    same_as_torch("""
@torch.autograd.set_multithreading_enabled(False)
def f():
    return torch.autograd.is_multithreading_enabled()
print(f(), torch.autograd.is_multithreading_enabled())
""")
    out = same_as_torch("print(torch.autograd.is_multithreading_enabled())")
    assert out == "True\n"


def test_typed_storage_warning_under_fresh_warn_once_whatever_ran_before():
    # tensor.storage()'s TypedStorage warning is PyTorch Python code with a once flag of its own (not reset by
    # set_warn_always): a program run before in the process used up PyTorch's, so a later program under
    # fresh_warn_once printed minigrad's warning but not PyTorch's (hunt18's fn_vmap_data_and_storage_of_batched
    # failed after any file that called .storage()).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_both("import torch\ntorch.ones(2).storage()\nprint('used up')")
    program = """
import warnings
warnings.simplefilter('always')
warnings.showwarning = lambda message, category, *args: print('W', category.__name__, str(message)[:30])
torch.ones(2).storage()
torch.ones(2).storage()
"""
    with warnings.catch_warnings(), fresh_warn_once():
        out = same_as_torch(program)
    assert out == "W UserWarning TypedStorage is deprecated. It\n"



def test_op_fuzz_cases_show_once_per_process_warnings_whatever_warned_before():
    # The op fuzz compares each case's warnings: one PyTorch and minigrad give once per process (meshgrid without
    # indexing) showed only for the library whose once no earlier test had used up (op fuzz 2's seed 0 failed after
    # a file calling minigrad's meshgrid). Each case now runs as in a fresh process: both libraries warn.
    import test_parity_op_fuzz2 as fuzz2
    real = torch_or_skip()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for lib in (torch, real):
            lib.meshgrid(lib.ones(2), lib.ones(2))   # (both warnings used up in this process)
    name, args, kwargs = next(c for c in fuzz2.F.cases(0, 1, fuzz2.OPS) if c[0] == "meshgrid")
    recs = [fuzz2.F.run(lib, name, args, kwargs, fuzz2.OPS) for lib in (torch, real)]
    warned = "UserWarning: torch.meshgrid: in an upcoming release, it will be required to pass the indexing argument."
    assert [r["warnings"] for r in recs] == [[warned], [warned]]
