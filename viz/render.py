"""Find and run a Graphviz-compatible renderer: pip's `graphviz-pure` by default, system `dot` on request."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ENV_VAR = "MINIGRAD_VIZ_ENGINE"
PURE = "graphviz-pure"
DEFAULT_TIMEOUT = 60.0
INSTALL_HINT = (
    "Install the pip package `graphviz-pure` into this Python environment "
    "(`pip install graphviz-pure`, or `pip install 'minigrad[viz]'`), or install system Graphviz "
    "(`apt install graphviz`, `brew install graphviz`, https://graphviz.org/download/) and select it with "
    f"engine='dot' or {ENV_VAR}=dot. The DOT text is still available as `.source`."
)


class RendererNotFound(RuntimeError):
    """No Graphviz-compatible renderer could be run."""


class RenderError(RuntimeError):
    """The renderer ran but failed (bad input, timeout)."""


_checked: dict[str, bool] = {}  # executable path -> ran `-V` successfully


def _exe_name(name: str) -> str:
    return name + ".exe" if os.name == "nt" else name


def _pure_candidates() -> list[str]:
    names = []
    for d in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        if d:
            names.append(str(Path(d) / _exe_name(PURE)))
    found = shutil.which(PURE)
    if found:
        names.append(found)
    return list(dict.fromkeys(names))  # de-duplicated, order kept


def candidates(engine: str | None = None) -> list[str]:
    """Executables to try, in order, for an engine choice (argument, then env var, then default)."""
    choice = (engine or os.environ.get(ENV_VAR) or "").strip()
    if choice in ("", "default", "auto"):
        dot = shutil.which("dot")
        return _pure_candidates() + ([dot] if dot else [])  # the system dot is a fallback only
    if choice in (PURE, "pure"):
        return _pure_candidates()
    if choice == "dot":
        found = shutil.which("dot")
        return [found] if found else []
    found = shutil.which(choice)  # an explicit command name or path
    return [found] if found else ([choice] if Path(choice).exists() else [])


def _runs(exe: str) -> bool:
    if exe not in _checked:
        try:
            r = subprocess.run([exe, "-V"], capture_output=True, timeout=20)
            _checked[exe] = r.returncode == 0
        except (OSError, subprocess.SubprocessError):
            _checked[exe] = False
    return _checked[exe]


def find(engine: str | None = None) -> str:
    """Path of the first renderer that runs, or RendererNotFound naming what to install."""
    tried = candidates(engine)
    for exe in tried:
        if _runs(exe):
            return exe
    choice = engine or os.environ.get(ENV_VAR) or "default (graphviz-pure, then dot)"
    where = ", ".join(tried) if tried else "nothing found"
    raise RendererNotFound(
        f"No Graphviz renderer could run for engine {choice!r} (tried: {where}). {INSTALL_HINT}"
    )


def run(
    source: str,
    fmt: str = "svg",
    engine: str | None = None,
    timeout: float | None = DEFAULT_TIMEOUT,
) -> bytes:
    """Render DOT source to bytes in the given format (svg, png, json, pdf, ...)."""
    exe = find(engine)
    try:
        r = subprocess.run(
            [exe, f"-T{fmt}"], input=source.encode("utf-8"), capture_output=True, timeout=timeout
        )
    except subprocess.TimeoutExpired as e:
        raise RenderError(
            f"{Path(exe).name} took more than {timeout} s; draw fewer nodes (max_nodes=...) or pass a larger timeout"
        ) from e
    if r.returncode != 0:
        raise RenderError(
            f"{Path(exe).name} -T{fmt} failed: {r.stderr.decode('utf-8', 'replace').strip()}"
        )
    return r.stdout
