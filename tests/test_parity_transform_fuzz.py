"""Generated programs under forward AD, ``torch.func`` transforms and ``vmap``: minigrad against PyTorch.

``fuzz_transforms.py`` turns each ``fuzz_graphs.generate(seed)`` program into functions of its leaves and records
tangents (forward AD), jvp/vjp/jacrev/jacfwd/grad/hessian results (``torch.func``) and batched outputs (``vmap``),
with exceptions (type and message) where a library raises. The fixed seeds below must show no difference beyond
``KNOWN``. A bigger run: ``python tests/fuzz_transforms.py forward_ad 0 500``.
"""
from __future__ import annotations

import functools
import re

import fuzz_graphs as F
import fuzz_transforms as T
import pytest
from parity import torch_or_skip
from transform_fuzz_witnesses import WITNESSES

# Per runner: (difference regex, program regex or None, scope, witness seed, why it cannot reasonably match).
KNOWN: dict = {
    "forward_ad": [
        (r"\.primal: values", r"(?s)(broadcast_to|expand)\(.*median\(", "seed", 89,
         "a PyTorch bug: median / nanmedian along a dim of an expanded tensor (a dim of stride 0) reads memory "
         "outside the tensor (torch.broadcast_to(tensor([[0.7], [-0.75]]), (2, 2)).median(-1) gives -0.75 and "
         "-4e+08); minigrad gives the medians of the values"),
        (r"\.tangent: dtype/shape", r"norm\(.*dtype=torch\.float64\)", "seed", 6388,
         "a tangent of another dtype than its primal, from vector_norm(x, dtype=float64) of a float32 x: "
         "PyTorch's norm_jvp keeps a float32 tangent under the float64 primal (as minigrad's now does), and its "
         "later formulas differ op by op in keeping it (max(dim) keeps float32, most cast); minigrad keeps it"),
        (r"\.tangent: values differ", r"(?s)(broadcast_to|expand)\(.*index_fill_\(", "seed", 6251,
         "index_fill_ (deprecated, with a warning) of an expanded view of a dual: PyTorch's tangent of the view is "
         "expanded too, so the fill's zero tangent reaches every aliased element of the base's tangent; minigrad "
         "writes the view's tangent back element by element"),
        (r"\.tangent: dtype/shape \('(float(16|32)|complex64)', \(\)\) != torch \('(float64|complex128)'",
         r"torch\.ldexp\(", "seed", 4412,
         "ldexp of a 0-d dual by a 0-d exponent: PyTorch's ldexp is a composite (a product with 2^other, whose 0-d "
         "double factor decides the tangent's dtype: float64 for a float32 or float16 x, where the primal stays "
         "float32); minigrad's LdexpBackward0 formula gives the tangent the result's dtype"),
        (r"INTERNAL ASSERT FAILED", None, "seed", 264,
         "PyTorch bugs under forward AD: log_softmax's jvp asserts on the ZeroTensor tangent of sgn of a real tensor; "
         "an in-place op on an integer tensor with a dual value asserts on the tangent's dtype"),
    ],
    "func": [
        (r"^\w+(\[\d+\])*: ok != torch \('error', 'RuntimeError', 'Found dtype Double but expected Float'\)",
         r"torch\.ldexp\(", "seed", 38941,
         "see the forward_ad entry (seed 4412): PyTorch's float64 tangent of ldexp of a 0-d float32 x by a 0-d "
         "exponent fails a later op's forward formula (logsigmoid's); minigrad's tangent is float32"),
        (r"SmallVector unable to grow", None, "line", 155,
         "a PyTorch bug: hessian of a function that calls t_() and squeeze_() on a 0-d result crashes inside "
         "functorch (a size computed as -1); minigrad raises the error the other transforms raise"),
        (r"There is a performance drop because we have not yet implemented the batching rule", None, "line", 6,
         "see the vmap entry: PyTorch's warning for ops without a batching rule (jacfwd/hessian use vmap)"),
        (r"^(jvp|jacfwd|hessian)(\[\d+\])*: dtype/shape \('float32', .*\) != torch \('float64'", None, "line", 102,
         "torch.func.jvp runs the formulas on functorch's wrapper tensors, where some float32 results (0-d operands "
         "mixed with integer tensors: logaddexp(0-d x, arange(1)) under hessian) get float64 tangents that "
         "PyTorch's own forward AD (dual_level, the forward_ad runner on the same program) keeps float32; "
         "minigrad's jvp is its forward AD (Python numbers given to add/sub/mul/div do match since session 12: "
         "forward_ad._lifted_number_dtype)"),
        (r"!= torch \('error', '\w+', '(select\(\): index 0 out of range for tensor of size \[0(, \d+)*\]|cannot "
         r"reshape tensor of 0 elements into shape \[0, -1(, \d+)*\])", None, "seed", 60,
         "a PyTorch bug: jacfwd/hessian of a function of empty tensors is a vmap over a batch of 0 basis vectors, "
         "and some batching rules fail on a batch of 0 (a select of example 0, a reshape to [0, -1] in a formula; "
         "func 32677: logsumexp of an empty input, a select of [0, 0]); minigrad's vmap runs the function on one "
         "example and keeps none of its rows (the user's views with a -1, and view's forward formula, refuse such a "
         "batch as PyTorch's since session 29: func 32099, nested 1746)"),
        (r"^(jacrev|hessian)(\[\d+\])*: values differ", r"torch\.cdist\(", "line", 3050,
         "a PyTorch bug: torch.func.jacrev of cdist is wrong (any p): every row of its Jacobian is the first one "
         "(the batching rule of _cdist_backward under vmap of the vjp); torch.autograd.functional.jacobian gives "
         "minigrad's rows"),
        (r"^(jacfwd|hessian)(\[\d+\])*: values differ", r"(v\d+) = torch\.diag\((.|\n)*\1(\[.*\])?\.\w+_\(", "line",
         36471,
         "a PyTorch bug: torch.diag of a matrix is a copy, but under vmap (jacfwd's) its batch rule returns a view of "
         "the input, so an in-place op on the result writes the input and its tangent there "
         "(jacfwd(lambda b: (torch.diag(b).neg_(), b * 1)[1])(torch.tensor([[1., 2., 3.]])) negates one entry; jvp "
         "and plain autograd do not); minigrad's diag copies everywhere"),
        (r"^(jacfwd|hessian)(\[\d+\])*: \('error', 'RuntimeError', 'one of the variables needed for gradient "
         r"computation has been modified by an inplace operation: .*, which is output \d+ of AsStrided,.* != torch "
         r"\('error', 'RuntimeError', 'one of the variables needed for gradient computation has been modified by an "
         r"inplace operation: .*, which is output \d+ of (?!AsStrided)", None, "line", 42951,
         "the saved result of an in-place op on a view (v1[0].exp_()), modified later through another view, under "
         "jacfwd of jacrev: PyTorch's message names the node its SavedVariable keeps a weak reference to, the view's "
         "regenerated AsStridedBackward0 under its own forward AD (dual_level, as minigrad's), but ExpBackward0 under "
         "functorch's jvp, whose wrappers do not keep that node alive; minigrad's jvp is its forward AD"),
        (r"^(jacfwd|hessian)(\[\d+\])*: ok != torch \('error', 'RuntimeError', '(Trying to set a forward gradient "
         r"that has a different size|split_with_sizes expects split_sizes to sum exactly)", r"\.squeeze_\(\)", "seed",
         43954,
         "a PyTorch bug: squeeze_() of a BatchedTensor over a batch of 1 squeezes the batch dim too (vmap(lambda c: "
         "(c * 1).squeeze_())(torch.zeros(1, 3)) has shape [3]), so jacfwd / hessian over a single basis vector (one "
         "input element in all) fails later (a tangent of [] for a [0] primal: empty inputs beside a [1] one); "
         "minigrad keeps the batch dim"),
        (r"INTERNAL ASSERT FAILED", None, "seed", 1211,
         "PyTorch bugs under forward AD: log_softmax's jvp asserts on the ZeroTensor tangent of sgn of a real tensor; "
         "an in-place op on an integer tensor with a dual value asserts on the tangent's dtype"),
    ],
    "vmap": [
        (r"There is a performance drop because we have not yet implemented the batching rule", None, "line", 4,
         "PyTorch's warning for ops without a batching rule (its slow fallback): which ops have rules is an "
         "implementation detail of functorch that minigrad's loop does not model (only detach_ warns)"),
        (r"^vmap\[\d+\]: values", r"(?s)(broadcast_to|expand)\(.*median\(", "line", 3255,
         "the forward_ad entry on PyTorch's median / nanmedian of an expanded tensor (reads outside the tensor; so "
         "do the indices, session 23's seed 32315: an index 1 beside a garbage value)"),
        (r"^vmap\[\d+\]: (dtype/shape|values differ)", r"\.resize_\(", "line", 5388,
         "resize_ of a batched tensor inside vmap: PyTorch's batching rule resizes the physical tensor, and the "
         "input a view of it came from shows the new size too (a 0-d example becomes [1]; the [3] real part of "
         "three complex examples, stride 2, resized to [3, 1] reads the storage contiguously: re0, im0, re1); "
         "minigrad resizes each slice alone"),
        (r"^vmap: ok != torch \('error', 'RuntimeError', 'unsupported operation: some elements of the input tensor and "
         r"the written-to tensor refer to a single memory location", None, "line", 5511,
         "an in-place op inside vmap whose other operand is the written tensor's memory under another shape (x.view(1, "
         "1).hypot_(x) of a 0-d example): PyTorch's batched kernel sees the physical tensors, whose overlap is "
         "partial; minigrad's slices overlap fully, which PyTorch allows unbatched too"),
        (r"^vmap: \('error', 'RuntimeError', 'unsupported operation: some elements of the input tensor and the "
         r"written-to tensor refer to a single memory location", None, "seed", 31362,
         "an in-place op inside vmap whose source partially overlaps the written tensor (v2 of v1, v2 = split(a, 1, "
         "-2), then v2.index_add_(0, i, a)): PyTorch's overlap check runs on the physical batched tensors and gives "
         "up where one is not dense (a batch-first view with gaps between its examples), so the write goes ahead "
         "(and the warnings of later lines show); minigrad's slices are dense and overlap partially, which PyTorch "
         "refuses unbatched (and with in_dims=1) too"),
        (r"^vmap: \('error', 'RuntimeError', \"output with shape \[[\d, ]*\] doesn't match the broadcast shape "
         r"\[1, [\d, ]*\]\"\) != torch ok", None, "line", 47121,
         "a PyTorch quirk: the in-place arithmetic batch rule (mul_, add_, sub_, div_, atan2_ ...) pads a batched self "
         "to other's logical rank before the kernel, so an other with extra leading 1s writes into self "
         "(vmap(lambda v, a: v.clone().mul_(a.unsqueeze(0)))(x, x) of x [3, 3]; unbatched, torch.ones(3).mul_("
         "torch.ones(1, 3)) is refused, as minigrad refuses it inside vmap too)"),
        (r"Subtraction, the `-` operator, with a bool tensor is not supported", None, "line", 107,
         "a PyTorch quirk: batched x - bool_tensor is computed by the batching rule without sub's bool check "
         "(unbatched, both libraries raise)"),
        (r"^warnings: \[\] != torch \[\('UserWarning'", r"((sub|subtract)\(| - \().*(==|>|<)", "seed", 31703,
         "the warnings of the lines after a batched x - bool_tensor (std_mean's degrees of freedom): PyTorch goes on "
         "past the subtraction (the entry above), minigrad stops at sub's bool check"),
    ],
}

KNOWN["nested"] = [
    (r"There is a performance drop because we have not yet implemented the batching rule", None, "line", 4,
     "see the vmap entry: PyTorch's warning for ops without a batching rule"),
    (r"Attempted to insert a get_attr Node with no underlying reference", None, "line", 5,
     "linearize: PyTorch traces the jvp with make_fx and const-folds the graph, and torch.fx warns about its own "
     "constants (an implementation detail of the tracing; minigrad's linearize replays forward AD)"),
    (r"^vmap_out_dims(\[\d+\])*: (ok != torch \('error', 'RuntimeError', 'The expanded size of the tensor \(\d{7,}\)"
     r"|ok != torch \('error', 'RuntimeError', '(The expanded size .* Target sizes: |expand\(.*size=)\[\d{7,}"
     r"|ok != torch \('error', 'MemoryError', 'Unable to allocate .* with shape \(\d{7,}"
     r"|dtype/shape .* != torch \('\w+', \(\d{7,})", None, "line", 28,
     "a PyTorch bug: vmap with out_dims=-1 of a function whose results go through some batching rules (slice_scatter, "
     "nan_to_num_ of a captured tensor) gives a garbage size (2^35 + n) to the output, to an expand inside, or to "
     "an array it then fails to allocate"),
    (r"^\w+(\[\d+\])*: \('error', 'RuntimeError', 'a leaf Variable that requires grad is being used in an in-place "
     r"operation\.'\) != torch \('error', 'RuntimeError', 'a view of a leaf Variable that", None, "line", 151,
     "an in-place op on a batched input of grad(vmap(f)) (a leaf at the grad level): an op with a batching rule "
     "writes PyTorch's leaf itself (\"a leaf Variable\", as minigrad's slices say); an op without one (scatter_, "
     "square_, clamp_, hypot_, addcdiv_, lerp_: the ops of the 'performance drop' warning) goes through the slow "
     "fallback, which writes per-example slices of it (\"a view of a leaf Variable\")"),
    (r"^\w+(\[\d+\])*: \('error', 'RuntimeError', 'one of the variables needed for gradient computation has been "
     r"modified by an inplace operation: \[.*\]\](, which is output \d+ of [\w:]+,)? is at version \d+;.* != torch "
     r"\('error', 'RuntimeError', 'one of the variables needed for gradient computation has been modified by an "
     r"inplace operation: ", None, "line", 296,
     "a saved tensor written in place inside vmap, under an outer grad: PyTorch's message names the physical "
     "batched tensor (batch dim in its shape) and its version, bumped once per example by the slow fallback of an "
     "in-place op without a batching rule (square_, addcdiv_: see the warning entry) and once by the others; "
     "minigrad's slices name the example's shape and count their own writes"),
    (r"^vmap_vmap(\[\d+\])*: (ok|\('error', '\w+', ('[^']*'|\"[^\"]*\")\)) != torch \('error', 'RuntimeError', "
     r"'The size of tensor a \(\d+\) must match the size of tensor b \(\d+\) at non-singleton dimension 1'\)",
     r"(mse_loss|huber_loss|smooth_l1_loss)\(", "seed", 704,
     "a PyTorch bug: under two vmaps, mse_loss / huber_loss of a tensor batched at both levels and an unbatched "
     "target (vmap(vmap(lambda v: F.mse_loss(v, torch.ones(2, 2))))(torch.ones(2, 3, 2, 2))) fails in the loss batch "
     "rule, which flattens the inner level's batch dim into the example's (12 = 3 * 2 * 2 against the target's "
     "4); one vmap, or a target batched too, works; minigrad's slices compute the loss (and go on to a later "
     "line's error, session 26's seed 5254: the one PyTorch's grad_vmap gives there; session 29's 11779: out= "
     "under vmap)"),
    (r"^(vmap_jvp|jacfwd_jacrev)(\[\d+\])*: values differ", r"(v\d+) = torch\.diag\((.|\n)*\1(\[.*\])?\.\w+_\(",
     "line", 8718,
     "see the func entry (seed 36471): under vmap of jvp, the batched tangent of torch.diag of a matrix is a view of "
     "the input's tangent, so an in-place op on the result writes the input's tangent (and the caller's tangent "
     "tensor: vmap(lambda t: jvp(lambda a: (torch.diag(a).mul_(2), a)[1], (a,), (t,)))(t) doubles t's first "
     "entries); minigrad's diag copies everywhere"),
    (r"^grad_vmap(\[\d+\])*: \('error', 'RuntimeError', 'The size of tensor a \(\d+\) must match the size of tensor b "
     r"\(\d+\) at non-singleton dimension \d+'\) != torch \('error', 'RuntimeError', 'The size of tensor a", None,
     "line", 903,
     "a backward formula's broadcast error (scatter_reduce's amin / amax source gradient when index is smaller than "
     "src, in both libraries) in grad of a vmap: PyTorch's backward runs on the physical batched tensors, so the "
     "dim it names counts the batch dim; minigrad's backward runs each example's graph, recorded by the loop"),
    (r"(?s)^\w+(\[\d+\])*: (ok|\('error', .*\)) != torch \('error', 'IndexError', 'select\(\): index 0 out of range "
     r"for tensor of size \[0\]", None, "line", 1156,
     "a vmap over no examples inside the transforms (jacfwd of jacrev of a function of an input without elements: "
     "no basis vectors): PyTorch's binary batch rule reads a logical scalar's first example (see "
     "_vmap_batched.check_first_example) in its backward and forward-AD formulas too (std_mean's), whose C++ ops "
     "and overloads (Scalar or Tensor) minigrad's formulas do not follow; minigrad checks the user's ops only (and "
     "goes on to a later line's error: seed 16256, a sort() call both refuse)"),
    (r"Subtraction, the `-` operator, with a bool tensor is not supported", None, "line", 1313,
     "see the vmap entry: PyTorch's batching rule computes batched x - bool_tensor (rsub) without sub's bool check"),
    (r"^vmap_chunk(\[\d+\])*: (dtype/shape|ok != torch \('error', 'RuntimeError', 'Tensors must have same number of "
     r"dimensions)", r"\.squeeze_\(\)", "line", 8627,
     "a PyTorch bug: squeeze_() inside vmap squeezes the physical batch dim too when the batch has one example, as "
     "a chunk of chunk_size=1 has (vmap(lambda x: (x * 1).squeeze_())(torch.ones(1, 3, 1, 3)) is [3, 3], not [1, 3, "
     "3]; chunks of 2 and 1 then fail to concatenate); minigrad's slices keep their batch dim"),
    (r"SmallVector unable to grow", None, "seed", 8746,
     "see the func entry (seed 155): PyTorch's crash inside functorch on squeeze_() of a 0-d result (here under "
     "vmap with chunk_size); minigrad goes on (to a later line's warning)"),
    (r"^warnings: \[\] != torch \[\('UserWarning'", r"(sub|subtract|dist)\(.*(==|>|<)", "seed", 6678,
     "see the vmap entry: the warnings of the lines after a batched x - bool_tensor (std's degrees of freedom; "
     "torch.dist(x, mask) too, which functorch decomposes into norm(x - mask): seed 13631), which PyTorch's "
     "batching rule computes past and minigrad's sub refuses"),
    (r"^vmap_\w+(\[\d+\])*: (dtype/shape|values differ)", r"\.resize_\(", "seed", 1860,
     "see the vmap entry: resize_ of a batched tensor inside vmap (vmap of vmap: a.permute(1, 2, 0).resize_(24)) "
     "resizes PyTorch's physical tensor, so the examples take other elements than minigrad's slices, each "
     "resized alone"),
    (r"^linearize\[1\]: values differ", r"(?m)^\s*(v\d+|[abcd])[.\[].*_\(", "seed", 1697,
     "linearize of a function that writes its input in place (f calls it twice: the output, then PyTorch's make_fx "
     "trace, so the primal is written twice): PyTorch's jvp_fn is the trace const-folded afterwards, and its value "
     "is jvp at the primal as linearize leaves it for seed 1697 (v0 = a.mH; v0.hypot_(a[a > 0].sum())), but at the "
     "primal as the trace saw it for seed 1031 (median's indices); minigrad replays from the latter (which constants "
     "PyTorch's folding recomputes after the trace's write is not modelled)"),
    (r"^\w+(\[\d+\])*: \('error', 'RuntimeError', 'Function \w+ returned an invalid gradient at index \d+ - got "
     r"\[[\d, ]*\] but expected shape compatible with \[[\d, ]*\]'\) != torch \('error', 'RuntimeError', 'Function \w+ "
     r"returned an invalid gradient", None, "line", 1658,
     "a backward formula's gradient of the wrong shape (scatter_add's src gradient when index is smaller than src) in "
     "grad of a vmap: the engine's shape check names PyTorch's physical batched shapes (batch dim first); minigrad's "
     "backward runs each example's graph, so it names the example's shapes (see the broadcast-error entry)"),
    (r"^\w+(\[\d+\])*: \('error', 'RuntimeError', 'Output \d+ of \w+ is a view and is being modified inplace\. "
     r"This view is the output of a function that returns multiple views.*!= torch \('error', 'RuntimeError', "
     r"'Output 0 of Select is a view and is being modified inplace", None, "line", 1661,
     "an in-place op without a batching rule (clamp_: the 'performance drop' warning's ops) on an output of unbind / "
     "split of a batched tensor that requires grad (grad of vmap, or vmap of a leaf requiring grad): PyTorch's slow "
     "fallback writes per-example select()s of the physical view, so autograd names 'Output 0 of Select'; ops with "
     "a rule (mul_) name 'Output 1 of Unbind' as minigrad's slices do"),
    (r"^\w*vmap\w*(\[\d+\])*: (ok|\('error', 'RuntimeError', \"vmap: called random operation[^\"]*\"\)) != torch "
     r"\('error', 'RuntimeError', 'unsupported operation: some elements of the input tensor and the written-to tensor "
     r"refer to a single memory location", None, "seed", 2757,
     "see the vmap entry: an in-place op whose other operand is the written tensor's memory under another shape "
     "(a.unsqueeze(1).addcmul_(a.squeeze(0), ...) of one-element examples) overlaps partially in PyTorch's physical "
     "batched tensors, fully in minigrad's slices, which go on (to vmap_random's rand() and its error)"),
    (r"^grad_vmap(\[\d+\])*: values differ, max abs nan", r"(var|std)(_mean)?\(", "seed", 2621,
     "var / std with degrees of freedom <= 0 (0-d examples, correction=2) in grad of a vmap: PyTorch's backward "
     "runs on the physical batched tensor with the batch rule's explicit dims, so var_backward takes its general "
     "path, 2 / (n - correction) · grad · (x - mean) = -0; minigrad's backward runs each example's graph, a 0-d "
     "input, whose dof <= 0 branch gives PyTorch's unbatched nan (see the broadcast-error entry)"),
    (r"^(vmap_vjp|jacrev_chunk)(\[\d+\])*: values differ", r"torch\.cdist\(", "seed", 2911,
     "see the func entry on PyTorch's cdist under vmap of its vjp (every example gets the first cotangent's "
     "gradient; session 24's seed 3832: jacrev with chunk_size, each chunk's rows the chunk's first)"),
    (r"^linearize: ok != torch \('error', 'RuntimeError', \"It appears that you're trying to get value out of a "
     r"tracing tensor", None, "seed", 3018,
     "linearize: PyTorch traces the jvp with make_fx, whose tensors refuse an op reading their values (torch.cov "
     "asks aten.equal of its data); minigrad's linearize replays forward AD (see the const-folding entry)"),
    (r"new_fn INTERNAL ASSERT FAILED", None, "seed", 2309,
     "a PyTorch bug: inside torch.func's grad transforms, a function returning view_as_real of a 0-d complex tensor "
     "after an in-place op on a view of it (v = torch.view_as_real(c.sum()); v[0].neg_(); return v: vjp's backward) "
     "fails an internal assert of the view's replay (new_fn, variable.cpp); plain autograd, the same with c * 1 for "
     "c.sum(), and minigrad compute the gradient"),
    (r"^grad_vmap(\[\d+\])*: \('error', 'RuntimeError', 'one of the variables needed for gradient computation has been "
     r"modified by an inplace operation: .*!= torch ok", r"index_reduce\(", "seed", 5414,
     "an op without a batching rule (index_reduce: the 'performance drop' warning's ops) in grad of a vmap, its result "
     "written in place later (v0 = b.index_reduce(...); v0.pow_(2)): PyTorch's slow fallback runs the op per example "
     "and stacks the results into a new tensor, so the nodes save tensors the user never sees and the write is no "
     "error; minigrad's slices save the result the user writes"),
    (r"^linearize\[1\]: values differ", r"float_power\((.|\n)*\] = ", "line", 5873,
     "a PyTorch bug: linearize of a function writing a complex value into a float_power result (v0 = "
     "torch.float_power(d.abs() + 0.5, a); v0[-1] = b; torch.rsqrt(v0.abs() + 1)): its traced jvp_fn gives other "
     "values than its own torch.func.jvp at the same point (whose values, every element's from b's tangent, "
     "minigrad's linearize gives)"),
    (r"^linearize\[1\]: values differ", r"(?m)^\s*v\d+\[[^\]\n]*\](\.\w+_\(| [-+*/]?= )", "line", 8955,
     "a PyTorch bug: linearize of a function writing into an indexed view of an intermediate (y = x * 1; y[0] += 1; "
     "return x * y, or y[0] = 5, y[0].add_(1)): its traced jvp_fn leaves the write out of the tangent (tensor([2., "
     "4.]) at x = [1, 2], t = [1, 1], where its own torch.func.jvp, and minigrad's linearize, give [3, 4]); a "
     "write into y itself (y += 1) is kept (see the float_power entry, seed 5873)"),
    (r"^\w+(\[\d+\])*: ok != torch \('error', 'RuntimeError', 'one of the variables needed for gradient computation "
     r"has been modified by an inplace operation: \[torch\.\w+ \[[\d, ]*\]\], which is output 0 of (Hypot|Pow1),",
     r"\.(hypot|pow)_\(", "line", 9097,
     "a PyTorch limitation: an in-place op without a batching rule whose formula saves its result (hypot_, pow_ by a "
     "tensor) in grad of a vmap over more than one example (v0 = a * b; v0.hypot_(b) per example): the slow "
     "fallback writes the examples one by one, each write bumping the physical tensor's version, so the nodes of "
     "the examples written before find their saved result modified; one example, or an op with a rule (mul_, "
     "atan2_), works; minigrad's slices count their own versions (see the saved-tensor entry, seed 296)"),
    (r"^\w+(\[\d+\])*: ok != torch \('error', 'RuntimeError', 'Found dtype Double but expected Float'\)",
     r"torch\.ldexp\(", "seed", 38941,
     "see the func entry (seed 38941): PyTorch's float64 tangent of ldexp of 0-d float32 operands"),
    (r"^note: an unbatched input was written in place$", r"\.unfold\((.|\n)*\.\w+_\(", "line", 9420,
     "an in-place op on a view of an unfold whose windows overlap (b.unfold(-1, 3, 1).expand(3, -1, -1, 3).narrow(0, "
     "0, 1).tanh_(): the generator marks the unfold, not the views made of it, as overlapping): PyTorch's kernel "
     "updates a shared element once per window, in order (tanh(tanh(x)), also without transforms); minigrad "
     "computes every window from the old values (see test_parity_graph_fuzz's note on overlapping unfolds)"),
    (r"^\w*vmap\w*(\[\d+\])*: \('error', 'RuntimeError', \"view size is not compatible with input tensor's "
     r"size and stride", r"torch\.kron\(", "line", 1355,
     "kron of a transposed tensor (kron(x.mT, x)): PyTorch's kron views a strided intermediate and fails unbatched "
     "(a PyTorch bug, which minigrad's kron reproduces); inside vmap its view runs on the physical batched tensor, "
     "whose strides allow it, and minigrad's slices fail as the unbatched op does"),
    (r"^\w*vmap\w*(\[\d+\])*: \('error', 'IndexError', 'The shape of the mask \[[\d, ]*\] at index \d+ does not match "
     r"the shape of the indexed tensor \[[\d, ]*\] at index \d+'\) != torch \('error', 'IndexError', 'The shape of the "
     r"mask ", None, "line", 12229,
     "a batched empty mask of an input vmapped at another dim than 0 (a[a > 0] under vmap(vmap(f), in_dims=1), or "
     "vmap(f, in_dims=1)): PyTorch's index batch rule passes an index of no elements on as its physical tensor, batch "
     "dims where the in_dims and the layout-keeping ops (a > 0) left them, so the kernel's message shows that layout "
     "(mask [3, 2, 0] against the indexed [2, 3, 0]); minigrad does not track physical layouts and names the batch "
     "dims in front, in level order (check_empty_masks)"),
]

# (besides the ranges, seeds of fixed differences: session 13's 26677 (frac's shared tangent, t_ in place), 26828
# (a Python number in an in-place op inside vmap), 27407 (masked_scatter_ from a source sharing self's memory),
# 26751 and 26779 (pow's tangent dtype under jacfwd / hessian); nested 57 (retain_grad of a batched tensor inside
# vmap: PyTorch's "can't retain_grad on Tensor that has requires_grad=False")); session 14's forward_ad 27777 (a
# partial overlap refused before hypot_'s complex dtype error), nested 117 (out= under grad inside vmap), 148
# (register_hook of a batched tensor) and 279 (moveaxis under grad inside vmap); second wave: nested 309 (grad of an
# input written under no_grad: its stand-in keeps its graphs) and 414 (each slice of a batched input counts its own
# in-place writes); session 18: nested 442 (max() of complex examples: the dim overload's error), 495 (the
# physical dim in an empty reduction's error), 630 (a batched empty mask reaches the index kernel's shape check) and
# 654 (a batched tangent written in place into an unbatched one); session 20: vmap 704 and nested 704 (as_strided of
# a vmapped input reads each example from its own start, as PyTorch's batch rule), func 30305 (so does the
# as_strided of a batched tangent under jacfwd, in its input's own basis block) and 30478 (mse_loss backward of an
# empty input under jacrev: the vmap decomposition's ZeroDivisionError); session 21: nested 852 (column_stack under a
# grad transform inside vmap: decomposed at the grad level, no batching rule needed), 869 (index_reduce's prod
# backward under vmap(grad): PyTorch's .item() of the batched zero count), 967 (as_strided under vmap(chunk_size=):
# each chunk's call sees the input from the chunk's start) and 1031 (linearize replays from the primals as the trace
# saw them, though func writes its input in place), vmap 30739 (fill_diagonal_ of a vmapped input: its as_strided is
# the example's own, not the user's) and forward_ad 30521 (hardsigmoid's tangent through hardsigmoid_backward in
# the promoted dtype: a float64 tangent of a float32 primal, from prod(dtype=)), vmap 30919 (reshape(0, -1) of a
# batched empty tensor: the ambiguity error names the physical shape)
# (session 22: forward_ad 6401, 26294 and func 286, 356, 26294: a missing tangent is PyTorch's ZeroTensor, whose
# products are 0 even with inf (x / arange: t / 0 = inf), and so is sgn's tangent of a real tensor (an in-place op
# on sgn(x) refuses to write it; var of one element of it is 0, not 0 / 0), nested 1492 (detach_ under vmap(grad):
# the grad level's autograd kernel, not vmap's fallback on a slice), func 31327 (rsqrt of a complex128 tangent of a
# complex64 primal: complex64, as PyTorch's conj-ended formulas give; so forward_ad 1010 and func 4684: abs / exp
# after sub(x, y, alpha=0.5) without y's tangent)
# (session 22b: nested 1560 (an unbatched tensor written in place inside vmap, jacfwd's primal among them, is written
# once per call of the function, as PyTorch's one call per chunk: each slice starts from its chunk's values), func 34
# (complex's tangent refuses a float64 imag_t of a float32 real_t: x * 0.5's tangent under jvp), nested 1681 (a tensor
# reached through a helper's closure is captured: grad refuses its in-place change before the op's dtype check))
# (session 23: func 31635 (hessian of masked_scatter_ with a source of another shape: PyTorch's forward formula of
# masked_scatter_backward sizes the tangent as grad_output and set_fw_grad refuses it), nested 1979 (jvp of an
# index_reduce, which has no forward formula, refuses before the kernel's index check; with include_self=False that
# check is index_fill_'s), func 32068 (hessian through softshrink: softshrink_backward's forward formula, a where()
# that keeps a nan tangent out of the band), vmap 32283 (transpose_ of an unbatched input: once per call, each slice
# starts from the chunk's shape), func 32439 (std's backward of sgn's ZeroTensor gradient: PyTorch's masked_fill_ in
# place refuses it) and 32569 (hessian of a function writing a view in place: the CopySlices grad buffer's new
# tangent is batched as the written one, PyTorch's _new_zeros_with_same_feature_meta), nested 2686 (a captured
# tensor's index_fill_ refused under its overload's name, index_fill_.int_Scalar), forward_ad 33273 (mse_loss's value
# sits in its loss buffer's storage, so frac of it gets a copy of its tangent, not the tangent itself), func and vmap
# 33388 (select_scatter's batch rule refuses a src of another dtype, in the formulas too))
# (session 24: nested 3640 (fill_diagonal_ of a captured tensor under vjp: torch.func names the composite called,
# aten::fill_diagonal_, not the fill_ it runs) and 3731 (jacrev of split of an empty vector: cat's batch rule over no
# examples reads a legacy-empty [0] input's first example; the engine's broadcast sums stay batched), func 5490 (the
# flip batch rule's error for a 0-d example now shows: the gradient of a - arange(1), summed back to a's 0-d shape by
# the engine, stays batched under jacrev's vmap))
# (session 25: nested 3993 (nanmedian() of a batched tensor in grad of a vmap: PyTorch's batch rule is the dim
# overload along the flattened example, which saves no input, so writing it in place later is fine), 4078 (a
# comparison's broadcast error inside vmap, here in scatter_reduce's backward under vmap(grad), names the physical
# dim), vmap 34981 (vdot of vectors of two dtypes, one batched: the dtype error of the matmul its batch rule runs))
# (session 26: nested 4496 (detach_() of a stand-in for jacrev's input inside another jacrev: PyTorch's wrapper is no
# view) and 4961 (baddbmm inside vmap with an input of shape [4, 1, 0]: PyTorch's batch rule is the decomposition
# beta * input + alpha * bmm, whose broadcast keeps the 0; so vmap 66, addbmm, no longer a KNOWN entry), 5468 and
# 5473 (resize_ of an example of an in_dims=1 input: functorch's NYI assert), 5490 (jacrev's chunk_size=1 is a loop of
# vjps without vmap: no flip batch-rule error; nor nested 1350's KNOWN assertion, now matched), 5565 (hstack of a batch
# of [0] examples is unbatched: the in-place refusal that follows; so vmap 5565, no longer a KNOWN entry) and 5592 (the
# fallback's "at level N" counts the grad transform around the vmap); vmap 36269 (linalg.cross's length error inside
# vmap names the physical dim))
# (session 27: nested 6005 (vmap with chunk_size: an unbatched tensor written with a batched value names the chunk's
# physical shape), 6018 (slicing a batched 0-d example is slice on the physical tensor: dim 1 out of range) and 6329
# (an argument grad does not differentiate is wrapped at its level too: a value that requires grad written into it
# leaves the caller's tensor without a grad_fn, so a later grad's in-place op on a view of it is refused); func 37284
# (an in-place op under forward AD on a view made before its base required grad: check_inplace refuses it as a leaf
# before the forward formula's clone of self would make its grad_fn), vmap 37556 (atan2_ of complex64 examples by a
# batched 0-d float64: its batch rule promotes the physical [B] operand as a dimensioned one, ComplexDouble) and 37727
# (addcdiv_ of a batched value into an unbatched tensor it does not fit: the fallback's refusal before the shapes');
# the func entry on versions inside hessian left (its witness, func 1152, matches: the argument hessian does not
# differentiate is wrapped from version 0); nested 7197 (a tensor reached through a helper's closure, written in place
# under vmap: once per call of the function, as PyTorch's one call) and 8303 (one in a dict of the function's closure
# is seen from outside: a batched value written into it is refused, under vmap(grad) by the capture check first))
# (session 28: nested 8497 (transpose of a batched 0-d example is the example itself, no view: an in-place op on it
# in grad of vmap is refused as on "a leaf Variable"); vmap's refusal to write a batched value into an unbatched leaf
# or view of one comes before autograd's, so nested 789's entry left; 9410 (index bounds inside vmap name the physical
# dim), 9773 (div_ with a rounding mode: vmap's refusal first), 10161 (masked_fill's value gradient is a where under
# torch.func); func 39105 and 39417 (a tangent cast to a real dtype, or copied into its primal's layout, stays batched))
# (session 29: func 40128 (lerp's tangent is a lerp of the tangents, which refuses a float64 one beside a float32
# one), func 32099 and nested 1746, 8761 (a view with a -1 of a tensor or tangent batched at a vmap over no examples is
# ambiguous on PyTorch's physical tensor: cartesian_prod, reshape(-1) under jacfwd of an empty input; so nested
# 1746's KNOWN entry left), forward_ad 39974 (amax's tangent is a where() of the extreme elements' tangents: another's
# inf stays out), func 41000 (tanh_backward / sigmoid_backward's forward formulas conjugate complex outputs); nested
# 10897 and 11755 pick linearize of programs PyTorch's segfaults on (fuzz_transforms._LINEARIZE_SEGFAULT: skipped))
# (session 29b: func 5221 and 40731 (where's tangent is a where of the tangents: a 0-d float64 one wins under jacfwd;
# so the func entry of 5221 left), func 30335 (cummaxmin_backward refused under a vmapped vjp over no examples; its
# entry left), forward_ad 41103 (a ZeroTensor tangent times a Python number promotes it as a 0-d tensor))
# (session 29c: func 41773 (index_put's forward formula refuses a float64 tangent of float32 values), 42310 (tril_
# of an expanded view of a dual: self_t.copy_ refuses the tangent sharing memory), nested 12783 (t_() of a 0-d
# example in grad of vmap: the batch rule returns it before autograd's check), 13192 (put's forward formula refuses a
# float64 tangent of float32 values))
SEEDS = {"forward_ad": (*range(0, 600), 1010, 6401, 26294, 26677, 27407, 27777, 30521, 33273, 39974),
         "func": (*range(0, 150), 286, 356, 4684, 26294, 26751, 26779, 30305, 30478, 31327, 31635, 32068,
                  32439, 32569, 33388, 5490, 37284, 39105, 39417, 32099, 40128, 41000, 41773, 42310),
         "vmap": (*range(0, 300), 704, 5565, 26828, 30739, 30919, 32283, 33388, 34981, 36269, 37556, 37727),
         "nested": (*range(0, 60), 117, 148, 279, 309, 414, 442, 495, 630, 654, 704, 852, 869, 967, 1031, 1492, 1560,
                    1681, 1979, 2686, 3640, 3731, 3993, 4078, 4496, 4961, 5468, 5473, 5490, 5565, 5592,
                    6005, 6018, 6329, 6678, 7197, 8303, 8497, 9410, 9773, 10161, 1746, 8761, 10897, 11755, 12783,
                    13192)}


@functools.cache
def _check(runner: str, seed: int) -> tuple:
    return T.check(runner, seed)


@pytest.mark.parametrize("runner", T.RUNNERS)
def test_generated_programs_match_torch(runner):
    torch_or_skip()
    bad = {}
    for seed in SEEDS[runner]:
        prog, diffs = _check(runner, seed)
        rest = F.unexplained(prog, diffs, KNOWN[runner])
        if rest:
            bad[seed] = rest[:3]
    assert not bad, bad


@pytest.mark.parametrize("runner,entry", [(r, e) for r in T.RUNNERS for e in KNOWN[r]],
                         ids=lambda x: x if isinstance(x, str) else f"seed{x[3]}")
def test_known_entry_still_shows(runner, entry):
    """Each KNOWN entry still explains a difference: its stored witness program's (transform_fuzz_witnesses.py:
    fuzz_graphs' generator grows, and seeds then make other programs), its witness seed's, or some seed's of the
    runner's range. A fixed one must leave the list."""
    torch_or_skip()
    rx, prog_rx, _, seed, _ = entry
    stored = WITNESSES.get((runner, seed))
    checks = [lambda: T.check_program(runner, T.load_program(stored))] if stored else []
    checks += [functools.partial(_check, runner, s) for s in (seed, *SEEDS[runner])]
    for check in checks:
        prog, diffs = check()
        if (prog_rx is None or re.search(prog_rx, prog.source())) and any(re.search(rx, d) for d in diffs):
            return
    pytest.fail(f"no seed shows {rx!r} any more")


def test_every_witness_belongs_to_a_known_entry():
    """A stored witness outlives its KNOWN entry unless removed with it: each (runner, seed) must be an entry's."""
    entries = {(runner, entry[3]) for runner in T.RUNNERS for entry in KNOWN[runner]}
    assert [key for key in WITNESSES if key not in entries] == []
