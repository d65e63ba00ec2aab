"""Run a lesson twice, with minigrad and with real PyTorch, and show where the printed text differs.

    cd /work/main && .venv/bin/python notebooks/tools/torch_parity.py notebooks/02_one_layer_network.ipynb

The PyTorch run reads `torch` for `minigrad` in import lines (`import minigrad as torch` becomes
`import torch`); viz and lesson_check work with both. Compared per code cell: printed text,
text/plain results and error type + message, with object addresses masked. Seeded random draws are
PyTorch's own; a float32 result can still differ in its last digit now and then (see the README's known
differences), so read the report rather than expect it to be empty. Unexpected errors (no
`raises-exception` tag) are listed first. Nothing is written back to the notebook.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ADDR = re.compile(r"0x[0-9a-fA-F]+")
ANSI = re.compile(r"\x1b\[[0-9;]*m")
# `import minigrad as t`, `from minigrad.autograd import Function`, `import minigrad.autograd as autograd`
MINIGRAD_IMPORT = re.compile(r"^(\s*(?:import|from) )minigrad\b", re.MULTILINE)


def _run(nb: nbformat.NotebookNode, cwd: Path) -> nbformat.NotebookNode:
    NotebookClient(nb, timeout=120, allow_errors=True, resources={"metadata": {"path": str(cwd)}}).execute()
    return nb


def _text(cell) -> str:
    parts = []
    for out in cell.get("outputs", []):
        if out.output_type == "stream":
            parts.append(out.text)
        elif out.output_type in ("execute_result", "display_data"):
            if "image/svg+xml" in out.data or "text/html" in out.data:
                parts.append("<drawing>\n")
            else:
                parts.append(out.data.get("text/plain", "") + "\n")
        elif out.output_type == "error":
            parts.append(f"{out.ename}: {ANSI.sub('', out.evalue)}\n")
    return ADDR.sub("0x…", "".join(parts))


def main(path: str) -> int:
    src = Path(path).resolve()
    mine = nbformat.read(src, as_version=4)
    for cell in mine.cells:
        cell.outputs = [] if cell.cell_type == "code" else cell.get("outputs")
    theirs = nbformat.from_dict(nbformat.reads(nbformat.writes(mine), as_version=4))
    for cell in theirs.cells:
        if cell.cell_type == "code":
            cell.source = MINIGRAD_IMPORT.sub(r"\1torch", cell.source).replace("import torch as torch", "import torch")
    _run(mine, src.parent)
    _run(theirs, src.parent)
    status = 0
    for i, (a, b) in enumerate(zip(mine.cells, theirs.cells)):
        if a.cell_type != "code":
            continue
        expected_error = "raises-exception" in a.metadata.get("tags", [])
        errs = [o for o in a.outputs if o.output_type == "error"]
        if errs and not expected_error:
            print(f"=== cell {i}: UNEXPECTED ERROR in minigrad: {errs[0].ename}: {ANSI.sub('', errs[0].evalue)}")
            status = 1
        ta, tb = _text(a), _text(b)
        if ta != tb:
            print(f"--- cell {i} differs\n{a.source}\n>>> minigrad:\n{ta}>>> torch:\n{tb}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
