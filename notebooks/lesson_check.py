"""Exercise checker for the lessons: ``check(name, value)`` prints ✓ or raises WrongAnswer with a hint.

Expected answers live in ``lesson_answers.json`` next to this file, base64-encoded so that a reader
scrolling the folder does not see them by accident. Each entry: ``{"answer": <encoded>, "hint": ...}``.
To add an exercise (lessons 08-13 do the same), print the encoded form of the expected value and paste
it into the JSON file under the exercise's name ("NN.k", lesson and exercise number):

    python notebooks/lesson_check.py encode "tensor([[1.0, 2.0], [3.0, 4.0]])"   # a tensor
    python notebooks/lesson_check.py encode "[True, False, 2.5]"                  # plain values

Values compare by kind: tensors (minigrad, PyTorch or NumPy) by shape and values within a tolerance,
numbers within a tolerance, strings/bools/None exactly, lists and tuples element by element.
"""
from __future__ import annotations

import base64
import json
import math
import sys
from pathlib import Path
from typing import Any

ANSWERS_FILE = Path(__file__).with_name("lesson_answers.json")
ATOL = 1e-4


class WrongAnswer(AssertionError):
    """The value given to check() is not the expected answer; the message carries a hint."""


def _is_tensor(x: Any) -> bool:
    return hasattr(x, "shape") and hasattr(x, "tolist") and not isinstance(x, (list, tuple))


def plain(value: Any) -> Any:
    """JSON-ready form of a value: tensors become {"shape": [...], "values": nested lists}."""
    if _is_tensor(value):
        t = value.detach() if hasattr(value, "detach") else value
        return {"shape": list(t.shape), "values": t.tolist()}
    if isinstance(value, (list, tuple)):
        return [plain(v) for v in value]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, (int, float)):
        return value
    raise TypeError(f"check() cannot compare a {type(value).__name__}; give a tensor, number, "
                    "bool, string, or a list/tuple of those")


def encode(value: Any) -> str:
    """The encoded form of an expected answer, as stored in lesson_answers.json."""
    return base64.b64encode(json.dumps(plain(value)).encode("utf-8")).decode("ascii")


def _decode(text: str) -> Any:
    return json.loads(base64.b64decode(text.encode("ascii")).decode("utf-8"))


def _flat(v: Any) -> list[float]:
    return [x for item in v for x in _flat(item)] if isinstance(v, list) else [v]


def _mismatch(got: Any, want: Any, atol: float) -> str | None:
    """None when got matches want, else a short reason that does not reveal the answer."""
    if isinstance(want, dict):  # a tensor
        if not isinstance(got, dict):
            return f"expected a tensor, got {type(got).__name__}"
        if got["shape"] != want["shape"]:
            return f"expected a tensor of shape {tuple(want['shape'])}, got shape {tuple(got['shape'])}"
        pairs = zip(_flat(got["values"]), _flat(want["values"]))
        if not all(math.isclose(float(g), float(w), abs_tol=atol, rel_tol=atol) for g, w in pairs):
            return "the shape is right but some values differ"
        return None
    if isinstance(want, list):
        if not isinstance(got, list):
            return f"expected a list/tuple of {len(want)} items, got {type(got).__name__}"
        if len(got) != len(want):
            return f"expected {len(want)} items, got {len(got)}"
        for i, (g, w) in enumerate(zip(got, want)):
            why = _mismatch(g, w, atol)
            if why:
                return f"item {i}: {why}"
        return None
    if isinstance(got, dict) and got["shape"] == []:  # a 0-dim tensor where a plain value is expected
        got = got["values"]
    if isinstance(want, bool) or want is None or isinstance(want, str):
        if type(got) is not type(want):
            return f"expected a {type(want).__name__}, got a {type(got).__name__}"
        return None if got == want else "not the expected value"
    if isinstance(got, bool) or not isinstance(got, (int, float)):
        return f"expected a number, got a {type(got).__name__}"
    return None if math.isclose(float(got), float(want), abs_tol=atol, rel_tol=atol) else "not the expected value"


def check(name: str, value: Any, atol: float = ATOL) -> None:
    """Compare an exercise answer with the stored one: print ✓, or raise WrongAnswer with a hint."""
    entries = json.loads(ANSWERS_FILE.read_text(encoding="utf-8"))
    if name not in entries:
        raise KeyError(f"no exercise named {name!r} in {ANSWERS_FILE.name}")
    if value is ...:
        print(f"… exercise {name}: not answered yet (replace ... with your answer and run the cell again)")
        return
    entry = entries[name]
    why = _mismatch(plain(value), _decode(entry["answer"]), atol)
    if why:
        raise WrongAnswer(f"exercise {name}: not yet, {why}. Hint: {entry['hint']}")
    print(f"✓ exercise {name}: correct")


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "encode":
        import numpy as np  # tensor([...]) in the expression builds an array, encoded as a tensor

        print(encode(eval(sys.argv[2], {"__builtins__": {}, "tensor": np.array})))
    else:
        sys.exit('usage: python lesson_check.py encode "<literal, or tensor([...]) for a tensor>"')
