"""Values that do not need PyTorch: the notes' printed outputs, checked literally."""
import minigrad as torch


def test_jacobian_product_first_call_matches_the_notes():
    inp = torch.eye(4, 5, requires_grad=True)
    out = (inp + 1).pow(2).t()
    out.backward(torch.ones_like(out), retain_graph=True)
    assert str(inp.grad) == ("tensor([[4., 2., 2., 2., 2.],\n        [2., 4., 2., 2., 2.],\n"
                             "        [2., 2., 4., 2., 2.],\n        [2., 2., 2., 4., 2.]])")


def test_mean_of_square_repr_and_grad():
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    out = torch.mean(x * x)
    assert repr(out) == "tensor(7.5000, grad_fn=<MeanBackward0>)"
    out.backward()
    assert x.grad.tolist() == [[0.5, 1.0], [1.5, 2.0]]
