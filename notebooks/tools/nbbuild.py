"""Small helpers to write lesson notebooks from Python with nbformat (shared by the lesson builders).

A lesson is a list of cells; `exercise()` makes the three-cell exercise pattern every lesson uses:
the question (markdown), a starter cell that runs `check(...)` on `...` (prints "not answered yet"),
and a collapsed solution cell (tag `solution`, `source_hidden`) that checks the worked answer.
Notebooks are written without outputs; execute them with nbconvert afterwards (see README.md).
"""
from __future__ import annotations

import json
from pathlib import Path
from textwrap import dedent

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

NOTEBOOKS = Path(__file__).resolve().parents[1]
ANSWERS_FILE = NOTEBOOKS / "lesson_answers.json"

KERNEL_METADATA = {
    "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
    "language_info": {"name": "python", "pygments_lexer": "ipython3"},
}


def _text(src: str) -> str:
    return dedent(src).strip("\n")


def md(src: str):
    """A markdown cell."""
    return new_markdown_cell(_text(src))


def code(src: str, *, tags: tuple[str, ...] = (), hidden: bool = False):
    """A code cell; `raises-exception` in tags for an error shown on purpose; hidden collapses the source."""
    cell = new_code_cell(_text(src))
    if tags:
        cell.metadata["tags"] = list(tags)
    if hidden:
        cell.metadata["jupyter"] = {"source_hidden": True}
    return cell


def error(src: str):
    """A cell that demonstrates an error on purpose (nbval expects the exception)."""
    return code(src, tags=("raises-exception",))


def exercise(name: str, question: str, starter: str, solution: str) -> list:
    """Question, starter cell (answer `...`), collapsed solution cell; both code cells call check(name, ...)."""
    return [
        md(f"**Exercise {name}.** " + _text(question)
           + "\n\n*Replace `...` with your answer and run the cell. The collapsed cell after it holds a "
             "worked solution: expand it only after trying.*"),
        code(starter),
        code(solution, tags=("solution",), hidden=True),
    ]


def write(path: Path, cells: list, prefix: str) -> None:
    """Write cells as a notebook with deterministic cell ids (prefix-NN)."""
    nb = new_notebook(cells=cells, metadata=dict(KERNEL_METADATA))
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"{prefix}-{i:02d}"
    nbformat.validate(nb)
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")


def write_answers(answers: dict[str, tuple[object, str]]) -> None:
    """Merge {name: (expected value, hint)} into lesson_answers.json (other lessons' entries are kept)."""
    import sys

    sys.path.insert(0, str(NOTEBOOKS))
    from lesson_check import encode

    entries = json.loads(ANSWERS_FILE.read_text(encoding="utf-8")) if ANSWERS_FILE.exists() else {}
    for name, (value, hint) in answers.items():
        entries[name] = {"answer": encode(value), "hint": hint}
    ANSWERS_FILE.write_text(json.dumps(dict(sorted(entries.items())), indent=1, ensure_ascii=False) + "\n",
                            encoding="utf-8")
