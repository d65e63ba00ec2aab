"""Misuses PyTorch rejects raise the same exception type with the same message in minigrad."""
import pytest
from parity import torch_or_skip

import minigrad as mg

# name -> (setup, failing statement). Run in a namespace where ``torch`` is minigrad or PyTorch.
CASES = {
    "backward_non_scalar": ("y = torch.ones(2, requires_grad=True) * 2", "y.backward()"),
    "backward_gradient_shape": ("y = torch.ones(2, requires_grad=True) * 2", "y.backward(torch.ones(3))"),
    "backward_gradient_not_tensor": ("y = torch.ones(2, requires_grad=True) * 2", "y.backward(3)"),
    "backward_complex_gradient_for_real": ("y = torch.ones(2, requires_grad=True) * 2",
                                           "y.backward(torch.ones(2, dtype=torch.complex64))"),
    "backward_without_grad_fn": ("y = torch.ones(2).sum()", "y.backward()"),
    "backward_integer_output": ("y = (torch.ones(2, requires_grad=True) > 0).sum()", "y.backward()"),
    "backward_complex_scalar": ("y = (torch.ones(2, requires_grad=True) * 1j).sum()", "y.backward()"),
    "backward_twice": ("x = torch.ones(2, requires_grad=True); y = (x * x).sum(); y.backward()", "y.backward()"),
    "saved_tensor_after_free": ("x = torch.ones(2, requires_grad=True); y = (x * x).sum(); y.backward()",
                                "y.grad_fn.next_functions[0][0]._saved_self"),
    "backward_inputs_empty": ("y = (torch.ones(2, requires_grad=True) * 2).sum()", "y.backward(inputs=[])"),
    "backward_more_tensors_than_grads": ("y = torch.ones(2, requires_grad=True) * 2",
                                         "torch.autograd.backward([y, y], [torch.ones(2)])"),
    "grad_unused_input": ("x = torch.ones(2, requires_grad=True); q = torch.ones(1, requires_grad=True)",
                          "torch.autograd.grad((x * 2).sum(), [x, q])"),
    "grad_input_without_grad": ("x = torch.ones(2, requires_grad=True)",
                                "torch.autograd.grad((x * 2).sum(), torch.ones(1))"),
    "grad_empty_inputs": ("x = torch.ones(2, requires_grad=True)", "torch.autograd.grad((x * 2).sum(), [])"),
    "grad_output_without_grad": ("x = torch.ones(2, requires_grad=True)",
                                 "torch.autograd.grad(torch.ones(1).sum(), x)"),
    "grad_materialize_with_allow_unused_false": (
        "x = torch.ones(2, requires_grad=True)",
        "torch.autograd.grad(x.sum(), x, materialize_grads=True, allow_unused=False)"),
    "int_requires_grad": ("", "torch.tensor([1, 2], requires_grad=True)"),
    "int_requires_grad_": ("", "torch.tensor([1, 2]).requires_grad_()"),
    "non_leaf_requires_grad_false": ("y = torch.ones(2, requires_grad=True) * 2", "y.requires_grad_(False)"),
    "non_leaf_set_requires_grad": ("y = torch.ones(2, requires_grad=True) * 2", "y.requires_grad = False"),
    "in_place_on_leaf": ("x = torch.ones(2, requires_grad=True)", "x.add_(1)"),
    "in_place_on_view_of_leaf": ("x = torch.ones(2, requires_grad=True)", "x[0].mul_(2)"),
    "modified_saved_input": ("x = torch.ones(2, requires_grad=True); y = x * 1; z = y * y; y.add_(1)",
                             "z.sum().backward()"),
    "modified_saved_output": ("x = torch.ones(2, requires_grad=True); y = x.exp(); y.add_(1)",
                              "y.sum().backward()"),
    "numpy_of_tensor_requiring_grad": ("x = torch.ones(2, requires_grad=True)", "x.numpy()"),
    "item_of_many_elements": ("x = torch.ones(2)", "x.item()"),
    "retain_grad_without_grad": ("x = torch.ones(2)", "x.retain_grad()"),
    "hook_on_tensor_without_grad": ("x = torch.ones(2)", "x.register_hook(lambda g: g)"),
    "post_accumulate_hook_on_non_leaf": ("y = torch.ones(2, requires_grad=True) * 2",
                                         "y.register_post_accumulate_grad_hook(lambda t: None)"),
    "detach_view_in_place": ("y = (torch.ones(2, requires_grad=True) * 2)[0:1]", "y.detach_()"),
    "assign_grad_wrong_dtype": ("x = torch.ones(2, requires_grad=True)", "x.grad = torch.ones(2, dtype=torch.int64)"),
    "assign_grad_wrong_size": ("x = torch.ones(2, requires_grad=True)", "x.grad = torch.ones(3)"),
    "assign_grad_not_tensor": ("x = torch.ones(2, requires_grad=True)", "x.grad = 1.0"),
    "set_default_dtype_int": ("", "torch.set_default_dtype(torch.int64)"),
    "ragged_data": ("", "torch.tensor([[1, 2], [3]])"),
    "string_data": ("", "torch.tensor(['a'])"),
    "negative_size": ("", "torch.ones(-1)"),
    "arange_zero_step": ("", "torch.arange(0, 3, 0)"),
    "inference_tensor_saved": (
        "x = torch.ones(2, requires_grad=True)\nwith torch.inference_mode():\n    i = torch.ones(2)", "x * i"),
    "inference_tensor_in_place": ("\nwith torch.inference_mode():\n    i = torch.ones(2)", "i.add_(1)"),
    "inference_tensor_requires_grad": ("\nwith torch.inference_mode():\n    i = torch.ones(2)", "i.requires_grad_()"),
}


def _error(lib, setup: str, stmt: str):
    ns = {"torch": lib}
    exec(setup, ns)  # noqa: S102
    try:
        exec(stmt, ns)  # noqa: S102
    except Exception as e:  # noqa: BLE001 - we compare whatever is raised
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_error_as_torch(name):
    torch = torch_or_skip()
    setup, stmt = CASES[name]
    expected = _error(torch, setup, stmt)
    assert expected is not None, "the case must fail in PyTorch"
    assert _error(mg, setup, stmt) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_minigrad_raises(name):
    # Without torch: every case still fails in minigrad.
    setup, stmt = CASES[name]
    assert _error(mg, setup, stmt) is not None


def test_key_messages_without_torch():
    x = mg.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match="^grad can be implicitly created only for scalar outputs$"):
        (x * 2).backward()
    with pytest.raises(RuntimeError, match="^element 0 of tensors does not require grad and does not have a grad_fn$"):
        mg.ones(2).sum().backward()
    with pytest.raises(RuntimeError, match=r"^Mismatch in shape: grad_output\[0\] has a shape of torch.Size\(\[3\]\) "
                                           r"and output\[0\] has a shape of torch.Size\(\[2\]\).$"):
        (x * 2).backward(mg.ones(3))
    with pytest.raises(RuntimeError, match="^One of the differentiated Tensors does not require grad$"):
        mg.autograd.grad((x * 2).sum(), mg.ones(1))
