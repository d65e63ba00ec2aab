"""Every code block and every section heading of the source notes is taught by some lesson.

The five notes (../shared/seeds/*.txt, Chinese, on torch.autograd) hold code in four forms: ```python
fences, doctest fences (``>>> ...``), Jupyter-export cells (``In [n]:`` followed by the code and then
its printed output) and markdown-indented blocks. Each block is extracted and normalized (comments and
whitespace dropped, ``minigrad`` read as ``torch``, ``print(expr)`` also counting as ``expr``), and its
lines must appear, in order, in the code cells of one lesson notebook: a lesson cannot silently drop a
block or a line of it. Blocks that are API signatures (note 003's ``backward``/``grad``) must instead
have every keyword argument used in the lesson that calls the function. Every section heading of a note
must be named in the "Coverage of the notes" section of notebooks/README.md.
"""
from __future__ import annotations

import ast
import io
import json
import re
import textwrap
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTES = ROOT.parent / "shared" / "seeds"
LESSONS = ROOT / "notebooks"
NOTE_FILES = sorted(NOTES.glob("0*.txt")) if NOTES.is_dir() else []

# Note lines that cannot appear unchanged in a lesson, with the reason. Keyed by (note prefix, line).
ALLOWED_MISSING: dict[tuple[str, str], str] = {}

# Indented or fenced text that looks like a block but is not Python: (note prefix, first line) -> reason.
NOT_CODE = {
    ("002", "- autograd.function.Function(<br>"): "a markdown list item of note 002's CLASSES, not code",
    ("002", "- autograd.variable.Variable"): "a markdown list item of note 002's CLASSES, not code",
}

FENCE = re.compile(r"^\s*```")
IN_CELL = re.compile(r"^In \[[^\]]*\]:\s*$")
# A paragraph after an "In [n]:" cell that is printed output, even though it may parse as Python.
OUTPUT_START = re.compile(r"^(tensor\(|True$|False$|None$|<|First call|Gradient function)")
SIGNATURE = re.compile(r"^torch\.autograd\.(\w+)\((.*)\)\s*→", re.DOTALL)
HEADING = re.compile(r"^\s*(#{1,6})\s+(\S.*?)\s*$|^\s*\*\*([^*]+)\*\*")


@dataclass
class Block:
    note: str  # "000" ... "004"
    line: int  # 1-based line of the block's first line in the note
    kind: str  # "fence", "doctest", "cell", "indented", "signature"
    source: str

    def __str__(self) -> str:
        return f"note {self.note} line {self.line} ({self.kind}): {self.source.strip().splitlines()[0]}"


def _parses(src: str) -> bool:
    try:
        ast.parse(src)
    except SyntaxError:
        return False
    return True


def _doctest_source(body: list[str]) -> str:
    """The code of a doctest: '>>> ' and '... ' lines without their prompts (output lines dropped)."""
    return "\n".join(ln[4:] if len(ln) > 3 else "" for ln in body if ln.startswith((">>>", "...")))


def _cell_code(lines: list[str], start: int) -> tuple[str, int]:
    """Code of an 'In [n]:' cell starting at lines[start]: paragraphs up to the first output or prose."""
    paragraphs, current, i = [], [], start
    while i <= len(lines):
        ln = lines[i] if i < len(lines) else ""
        if ln.strip() == "" or i == len(lines):
            if current:
                paragraphs.append((i, current))
                current = []
            if i == len(lines):
                break
        else:
            if IN_CELL.match(ln) or FENCE.match(ln):
                break
            current.append(ln)
        i += 1
    if current:
        paragraphs.append((i, current))
    code, end = [], start
    for stop, para in paragraphs:
        src = "\n".join(para)
        has_code = any(not p.lstrip().startswith("#") for p in para)
        if not has_code or OUTPUT_START.match(para[0]) or not _parses(src):
            break
        code.append(src)
        end = stop
    return "\n\n".join(code), end


def _continues_output(prev: str) -> bool:
    """An indented line right after printed output (a tensor's rows) belongs to that output."""
    return bool(OUTPUT_START.match(prev.strip()) or prev.rstrip().endswith(","))


def note_blocks(path: Path) -> tuple[list[Block], set[int]]:
    """The code blocks of one note, and the line numbers (0-based) they occupy."""
    note = path.name[:3]
    lines = path.read_text(encoding="utf-8").splitlines()
    blocks, used, i = [], set(), 0
    while i < len(lines):
        ln = lines[i]
        if FENCE.match(ln):
            j = i + 1
            while j < len(lines) and not FENCE.match(lines[j]):
                j += 1
            body = textwrap.dedent("\n".join(lines[i + 1:j])).splitlines()
            used.update(range(i, j + 1))
            src = "\n".join(body)
            if any(b.startswith(">>>") for b in body):
                blocks.append(Block(note, i + 2, "doctest", _doctest_source(body)))
            elif SIGNATURE.match(src.strip()):
                blocks.append(Block(note, i + 2, "signature", src))
            else:
                blocks.append(Block(note, i + 2, "fence", src))
            i = j + 1
        elif IN_CELL.match(ln):
            src, end = _cell_code(lines, i + 1)
            if src:
                blocks.append(Block(note, i + 2, "cell", src))
                used.update(range(i, end))
                i = end
            else:
                i += 1
        elif ln.startswith("    ") and ln.strip() and not _continues_output(lines[i - 1] if i else ""):
            j = i
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith("    ")):
                j += 1
            while not lines[j - 1].strip():
                j -= 1
            src = textwrap.dedent("\n".join(x.rstrip() for x in lines[i:j]))
            used.update(range(i, j))
            blocks.append(Block(note, i + 1, "indented", src))
            i = j
        else:
            i += 1
    return blocks, used


def note_headings(path: Path) -> list[str]:
    """Section headings of a note: markdown '#' lines and bold-only lines, outside code blocks."""
    _, used = note_blocks(path)
    found = []
    for i, ln in enumerate(path.read_text(encoding="utf-8").splitlines()):
        m = HEADING.match(ln)
        if m and i not in used:
            found.append((m.group(2) or m.group(3)).strip())
    return found


# ---------------------------------------------------------------- normalization
def _strip_comments(src: str) -> list[str]:
    """Physical lines of src with comments removed (tokenize, so '#' inside strings stays)."""
    lines = src.splitlines()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(src + "\n").readline):
            if tok.type == tokenize.COMMENT:
                row, col = tok.start
                lines[row - 1] = lines[row - 1][:col]
    except (tokenize.TokenError, IndentationError, SyntaxError):
        lines = [re.sub(r"\s+#.*$", "", ln) if not ln.lstrip().startswith("#") else "" for ln in lines]
    return lines


def _norm(line: str) -> str:
    s = re.sub(r"\s+", "", re.sub(r"\bminigrad\b", "torch", line))
    return "importtorch" if s == "importtorchastorch" else s


def code_lines(src: str) -> list[str]:
    """Normalized non-empty, non-comment lines of a piece of code."""
    return [n for n in (_norm(ln) for ln in _strip_comments(src)) if n]


def _forms(line: str) -> set[str]:
    """The note lines a lesson line stands for: itself, and `expr` for `print(expr)`."""
    forms = {line}
    m = re.fullmatch(r"print\((.*)\)", line)
    if m and _parses(m.group(1)):
        forms.add(m.group(1))
    return forms


def lesson_lines(path: Path) -> list[set[str]]:
    """Normalized code lines of a lesson's code cells, in order, each with the forms it matches."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            src = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            out.extend(_forms(ln) for ln in code_lines(src))
    return out


def _missing(wanted: list[str], have: list[set[str]]) -> list[str]:
    """Lines of wanted that do not appear, in order, in have (a greedy subsequence match)."""
    missing, k = [], 0
    for line in wanted:
        j = next((j for j in range(k, len(have)) if line in have[j]), None)
        if j is None:
            missing.append(line)
        else:
            k = j + 1
    return missing


# ---------------------------------------------------------------- the tests
pytestmark = pytest.mark.skipif(not NOTE_FILES, reason=f"source notes not found in {NOTES}")

ALL_BLOCKS = [b for p in NOTE_FILES for b in note_blocks(p)[0]]
LESSON_FILES = sorted(LESSONS.glob("[0-9][0-9]_*.ipynb"))


@pytest.fixture(scope="module")
def lessons() -> dict[str, list[set[str]]]:
    return {p.stem: lesson_lines(p) for p in LESSON_FILES}


def test_the_notes_have_the_expected_blocks():
    """The extractor finds every block (so the other tests cannot pass by finding none)."""
    kinds = {}
    for b in ALL_BLOCKS:
        kinds.setdefault(b.note, []).append(b.kind)
    assert kinds == {
        "000": ["fence"] * 5,
        "001": ["cell", "cell", "indented", "indented", "indented", "indented"],
        "002": ["cell", "indented", "indented", "cell", "cell", "cell", "cell", "cell"],
        "003": ["signature", "signature", "doctest", "doctest", "doctest", "fence"],
        "004": ["cell"] * 6,
    }


def test_non_python_blocks_are_exactly_the_known_ones():
    """Every block that is not Python is a known non-code block (and each of those still exists)."""
    firsts = {(b.note, b.source.strip().splitlines()[0]) for b in ALL_BLOCKS}
    bad = {(b.note, b.source.strip().splitlines()[0]) for b in ALL_BLOCKS
           if b.kind != "signature" and not _parses(b.source)}
    assert bad <= set(NOT_CODE)
    assert set(NOT_CODE) <= firsts


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if b.kind != "signature"
                                   and (b.note, b.source.strip().splitlines()[0]) not in NOT_CODE], ids=str)
def test_block_is_run_in_a_lesson(block, lessons):
    wanted = [ln for ln in code_lines(block.source) if (block.note, ln) not in ALLOWED_MISSING]
    assert wanted, f"{block} has no code lines"
    misses = {name: _missing(wanted, have) for name, have in lessons.items()}
    best = min(misses, key=lambda name: len(misses[name]))
    assert not misses[best], (f"{block}: no lesson runs all of its lines in order; closest is {best}, "
                              f"missing {misses[best]}")


@pytest.mark.parametrize("block", [b for b in ALL_BLOCKS if b.kind == "signature"], ids=str)
def test_every_argument_of_a_signature_is_used(block):
    m = SIGNATURE.match(block.source.strip())
    fn = m.group(1)
    args = ast.parse(f"def {fn}({m.group(2)}): pass").body[0].args
    keywords = [a.arg for a in args.args[len(args.args) - len(args.defaults):]]  # those with a default
    assert len(keywords) >= 4, block
    texts = {p.stem: p.read_text(encoding="utf-8") for p in LESSON_FILES}
    users = [name for name, text in texts.items() if f"torch.autograd.{fn}(" in text]
    assert users, f"no lesson calls torch.autograd.{fn}"
    unused = [k for k in keywords if not any(f"{k}=" in texts[name] for name in users)]
    assert not unused, f"torch.autograd.{fn}: arguments {unused} are not used in {users}"


@pytest.mark.parametrize("note", NOTE_FILES, ids=lambda p: p.name[:3])
def test_every_heading_is_in_the_readme_coverage(note):
    readme = (LESSONS / "README.md").read_text(encoding="utf-8")
    assert "## Coverage of the notes" in readme
    coverage = readme.split("## Coverage of the notes", 1)[1].split("\n## ", 1)[0]
    section = coverage.split(f"### Note {note.name[:3]}", 1)
    assert len(section) == 2, f"no '### Note {note.name[:3]}' subsection in the coverage"
    text = section[1].split("\n### ", 1)[0]
    missing = [h for h in note_headings(note) if h not in text]
    assert not missing, f"headings of {note.name} not in the README coverage: {missing}"
