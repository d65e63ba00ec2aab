"""State PyTorch keeps per thread, and what AccumulateGrad's lock covers (session 25).

PyTorch keeps per thread: the default device (``set_default_device``, ``with torch.device(...)``), autocast's state
(on/off, dtype, cache), functorch's levels (inside ``torch.func.vmap`` / ``grad`` in one thread, another thread's
random draws, ops and backward passes are plain ones), the multithreading and grad-layout flags, the C++ warnings a
backward pass gives, and ``allow_mutation_on_saved_tensors``'s watch on in-place writes; minigrad kept them
process-wide. AccumulateGrad locks each leaf only while it adds into ``.grad``: its post-accumulate-grad hooks run
after, so a hook may wait for another thread's backward pass into the same leaf (minigrad held one lock for every
leaf around the hooks too).

Each program forces its interleaving with Events (never sleeps) and runs under minigrad and PyTorch.
"""
from __future__ import annotations

from parity import fresh_warn_once, same_as_torch

# run(first, second): ``first`` runs in thread A up to its ``pause()``, then ``second`` runs whole in thread B,
# then A goes on. Each thread's printed lines are kept in order and printed at the end, A's then B's.
_TWO_THREADS = """
import threading
# (PyTorch numbers threads as they first make an autograd node, and its profiler prints that number: the main thread
# makes one first, so another test's profiled main thread keeps number 1 whatever ran before)
torch.ones(1, requires_grad=True) * 1
_paused, _resumed = threading.Event(), threading.Event()
_lines = {'A': [], 'B': []}
def say(*args):
    _lines[threading.current_thread().name].append(' '.join(str(a) for a in args))
def pause():
    _paused.set()
    _resumed.wait(10)
def run(first, second):
    def a():
        try:
            first()
        except Exception as e:
            say('A', type(e).__name__, e)
        _paused.set()
    def b():
        _paused.wait(10)
        try:
            second()
        except Exception as e:
            say('B', type(e).__name__, e)
        _resumed.set()
    threads = [threading.Thread(target=a, name='A'), threading.Thread(target=b, name='B')]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for name in 'AB':
        print(name, _lines[name])
    _paused.clear(); _resumed.clear(); _lines['A'].clear(); _lines['B'].clear()
"""


def test_default_device_is_per_thread():
    # PyTorch keeps set_default_device's device in a threading.local and ``with torch.device`` is a per-thread
    # mode: another thread (and a new one) makes CPU tensors
    same_as_torch(_TWO_THREADS + """
def first():
    torch.set_default_device('meta')
    say(torch.zeros(1).device, torch.get_default_device())
    pause()
    say(torch.zeros(1).device, torch.get_default_device())
def second():
    say(torch.zeros(1).device, torch.get_default_device(), torch.ones(2).is_meta)
run(first, second)
def first():
    with torch.device('meta'):
        say(torch.empty(2).device)
        pause()
        say(torch.arange(3).device)
def second():
    say(torch.empty(2).device, torch.get_default_device())
    with torch.device('meta'):
        say(torch.empty(2).device)
    say(torch.empty(2).device)
run(first, second)
print(torch.zeros(1).device, torch.get_default_device())
""")


def test_a_layer_built_on_the_meta_device_in_one_thread_leaves_the_others_factories_alone():
    # nn.Linear(..., device='meta'): while one thread builds it, another thread's zeros and ones are CPU tensors
    same_as_torch(_TWO_THREADS + """
class Slow(torch.nn.Linear):
    def reset_parameters(self):
        pause()
        super().reset_parameters()
def first():
    layer = Slow(2, 3, device='meta')
    say(layer.weight.device, layer.weight.shape)
def second():
    say(torch.zeros(2).device, torch.ones(1).device, torch.empty(3).device)
run(first, second)
""")


def test_autocast_is_per_thread():
    # autocast's state is thread_local in PyTorch (autocast_mode.cpp): another thread is outside the region, with
    # the default dtype and cache flag; its own region and set_autocast_dtype leave the first thread's alone
    same_as_torch(_TWO_THREADS + """
x = torch.ones(2, 2)
def first():
    with torch.autocast('cpu'):
        say(torch.is_autocast_enabled('cpu'), torch.mm(x, x).dtype, torch.get_autocast_dtype('cpu'))
        pause()
        say(torch.is_autocast_enabled('cpu'), torch.mm(x, x).dtype, torch.get_autocast_dtype('cpu'),
            torch.is_autocast_cache_enabled())
    say(torch.is_autocast_enabled('cpu'), torch.mm(x, x).dtype)
def second():
    say(torch.is_autocast_enabled('cpu'), torch.mm(x, x).dtype, torch.get_autocast_dtype('cpu'))
    with torch.autocast('cpu', dtype=torch.float16, cache_enabled=False):
        say(torch.mm(x, x).dtype, torch.nn.functional.linear(x, x).dtype)
    torch.set_autocast_dtype('cpu', torch.float16)
    say(torch.get_autocast_dtype('cpu'))
run(first, second)
print(torch.get_autocast_dtype('cpu'), torch.is_autocast_enabled('cpu'))
""")


def test_another_thread_draws_and_runs_backward_while_one_is_inside_vmap():
    # functorch's levels are per thread: another thread's random draw is no vmap's (no randomness error for the
    # vmapping thread), and its backward() is no "backward() called inside a functorch transform"
    same_as_torch(_TWO_THREADS + """
from torch.func import vmap, grad
calls = []
def f(v):
    if not calls:   # (PyTorch calls f once, minigrad once per example: the first call waits)
        calls.append(v)
        pause()
    return v * 2
def first():
    say(vmap(f)(torch.arange(6.).reshape(3, 2)))
def second():
    torch.manual_seed(0)
    say(torch.rand(2), torch.ones(2) + 1, torch.randn(2, 2).sum(0))
    y = torch.ones(3, requires_grad=True)
    (y * 2).sum().backward()
    say(y.grad, y.requires_grad, (y * 2).grad_fn)
    say(torch.autograd.grad((y * 3).sum(), y))
    x = torch.tensor(2., requires_grad=True)
    g, = torch.autograd.grad((x * 2.5).exp(), x, create_graph=True)   # (the number saved as is: no cast node)
    say(g, g.grad_fn)
run(first, second)
def g(v):
    pause()
    return (v * v).sum()
def first():
    say(grad(g)(torch.ones(2)))
def second():
    y = torch.ones(3, requires_grad=True)
    z = (y ** 2).sum()
    z.backward()
    say(y.grad, z.grad_fn, y.is_leaf)
run(first, second)
""")


def test_another_thread_writes_in_place_into_a_tensor_grads_function_captured():
    # inside torch.func.grad in one thread, an in-place write of a captured tensor is refused; another thread's
    # write is a plain one (and the transformed function then reads the written values)
    same_as_torch(_TWO_THREADS + """
from torch.func import grad
c = torch.ones(2)
def f(x):
    pause()
    return (x * c).sum()
def first():
    say(grad(f)(torch.ones(2)))
def second():
    c.add_(1)
    say(c)
run(first, second)
""")


def test_forward_grad_mode_is_per_thread():
    # the dual level is the process's, but _set_fwd_grad_enabled (PyTorch's AutogradState) is the thread's: another
    # thread's ops inside the level still carry tangents
    same_as_torch(_TWO_THREADS + """
import torch.autograd.forward_ad as fwAD
def tangent():
    return fwAD.unpack_dual(fwAD.make_dual(torch.ones(2), torch.ones(2)) * 2).tangent
def first():
    with fwAD._set_fwd_grad_enabled(False):
        pause()
        say(tangent())
    say(tangent())
def second():
    say(tangent())
with fwAD.dual_level():
    run(first, second)
""")


def test_multithreading_and_grad_layout_flags_are_per_thread():
    # both are part of PyTorch's per-thread AutogradState
    same_as_torch(_TWO_THREADS + """
def first():
    with torch.autograd.set_multithreading_enabled(False):
        torch.autograd.enforce_grad_layout_policy(False)
        pause()
        say(torch.autograd.is_multithreading_enabled())
        torch.autograd.enforce_grad_layout_policy(True)
def second():
    say(torch.autograd.is_multithreading_enabled())
    p = torch.zeros(3, 2).t().requires_grad_()
    (p * torch.ones(2, 3)).sum().backward()
    say(p.grad.stride())
run(first, second)
""")


def test_the_layout_warning_is_given_by_the_backward_pass_that_made_it():
    # PyTorch's warning handler is per thread: the engine's C++ warning reaches Python when that thread's backward
    # returns (minigrad's list of pending warnings was shared: another thread's backward gave it)
    with fresh_warn_once():
        same_as_torch(_TWO_THREADS + """
import warnings
p = torch.zeros(3, 2).t().requires_grad_()
p.grad = torch.zeros(2, 3)
class Wait(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x.clone()
    @staticmethod
    def backward(ctx, g):
        pause()   # (p's gradient is added first: its node's sequence number is higher)
        return g
x = torch.ones(2, requires_grad=True)
slow = Wait.apply(x).sum()
loss = (p * 2).sum() + slow
def first():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        loss.backward()
    say([str(w.message)[:51] for w in caught])
def second():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        (torch.ones(2, requires_grad=True) * 3).sum().backward()
    say(len(caught))
run(first, second)
""")


def test_allow_mutation_on_saved_tensors_watches_its_own_thread_only():
    # PyTorch's context clones a saved tensor before an in-place write through a TorchDispatchMode, a per-thread
    # mode: another thread's write is not seen, so the backward reads the written values
    same_as_torch(_TWO_THREADS + """
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([1.0, 2.0, 3.0])
def first():
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        c = a * b
        pause()
        c.sum().backward()
        say(a.grad)
        b.mul_(2)   # (its own thread's write: cloned first)
def second():
    b.mul_(10)
    say(b)
run(first, second)
print(b)
""")


def test_a_post_accumulate_grad_hook_may_wait_for_another_threads_backward_into_its_leaf():
    # AccumulateGrad holds its leaf's mutex only while it adds into .grad: the tensor's pre-hooks run before
    # (engine) and the post-accumulate-grad hooks after, so another thread's backward into the same leaf
    # proceeds meanwhile (minigrad held one lock for every leaf around the hooks: the other thread waited)
    same_as_torch(_TWO_THREADS + """
w = torch.zeros(3, requires_grad=True)
def hook(p):
    if threading.current_thread().name == 'A':
        say('hook', p.grad)
        pause()
        say('hook', p.grad)
w.register_post_accumulate_grad_hook(hook)
def first():
    (w * 1).sum().backward()
def second():
    (w * 2).sum().backward()
    say(w.grad)
run(first, second)
v = torch.zeros(2, requires_grad=True)
def pre(g):
    if threading.current_thread().name == 'A':
        pause()
    return g
v.register_hook(pre)
def first():
    (v * 1).sum().backward()
    say(v.grad)
def second():
    (v * 3).sum().backward()
    say(v.grad)
run(first, second)
print(w.grad, v.grad)
""")


def test_another_threads_prints_and_warnings_while_vmap_runs_a_later_example():
    # minigrad's vmap calls the function once per example and hides what the later calls print and warn (PyTorch
    # calls it once); another thread's prints and warnings meanwhile are its own and show (they were swallowed).
    # PyTorch has no later call to pause in, so this one runs minigrad only.
    import contextlib
    import io
    import threading
    import warnings

    import minigrad
    from minigrad.func import vmap
    paused, resumed = threading.Event(), threading.Event()
    calls = []

    def f(v):
        calls.append(v)
        print("f prints")
        warnings.warn("f warns", stacklevel=1)
        if len(calls) == 2:
            paused.set()
            resumed.wait(10)
        return v * 2

    def other():
        paused.wait(10)
        print("the other thread prints")
        warnings.warn("the other thread warns", stacklevel=1)
        resumed.set()

    out = io.StringIO()
    with contextlib.redirect_stdout(out), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        thread = threading.Thread(target=other)
        thread.start()
        result = vmap(f)(minigrad.arange(3.0))
        thread.join()
    assert result.tolist() == [0.0, 2.0, 4.0] and len(calls) == 3
    # (each once; vmap shows what f printed when it is done, so the order is not PyTorch's)
    assert sorted(out.getvalue().splitlines()) == ["f prints", "the other thread prints"]
    assert [str(w.message) for w in caught] == ["f warns", "the other thread warns"]


def test_a_kernels_inner_thread_count_is_its_own_threads():
    # minigrad's flash attention (and its im2col convolution, its mm inside a parallel loop) runs its gemm calls
    # with the intra-op count PyTorch's parallel loop gives them, for its own thread only: set_num_threads in
    # another thread meanwhile is the process's, as in PyTorch (the kernel used to put back the count it found)
    import threading

    import minigrad
    from minigrad import _matmul
    inside, resumed = threading.Event(), threading.Event()
    gemm, threads = _matmul._gemm, minigrad.get_num_threads()
    seen = []

    def pausing_gemm(*args):
        if threading.current_thread().name == "kernel" and not inside.is_set():
            inside.set()
            resumed.wait(10)
        return gemm(*args)

    def other():
        inside.wait(10)
        seen.append(minigrad.get_num_threads())
        minigrad.set_num_threads(threads + 1)
        resumed.set()

    q = minigrad.randn(1, 2, 4, 8, generator=minigrad.Generator().manual_seed(0))
    _matmul._gemm = pausing_gemm
    try:
        kernel = threading.Thread(target=minigrad.nn.functional.scaled_dot_product_attention, args=(q, q, q),
                                  name="kernel")
        helper = threading.Thread(target=other)
        kernel.start()
        helper.start()
        kernel.join()
        helper.join()
        assert inside.is_set() and seen == [threads]
        assert minigrad.get_num_threads() == threads + 1
    finally:
        _matmul._gemm = gemm
        minigrad.set_num_threads(threads)
