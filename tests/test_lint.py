"""The code stays lint-clean and typed: ``ruff check .`` and ``mypy yinsh scripts`` report nothing
(the benchmarks are checked like the package).

Both run from the repository root with this interpreter, so they read the settings in
pyproject.toml. A missing tool skips its test locally and fails it under CI (``make setup``
installs both from the ``test`` extra). Neither leaves a cache in the repository: ruff runs
without one, and mypy keeps its cache in the system temp directory so reruns stay fast.
"""

from __future__ import annotations

import hashlib
import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from helpers import unavailable

ROOT = Path(__file__).resolve().parents[1]
# One cache per checkout: worktrees sharing a cache would keep invalidating each other's entries.
MYPY_CACHE = Path(tempfile.gettempdir()) / f"yinsh-mypy-cache-{hashlib.sha256(str(ROOT).encode()).hexdigest()[:12]}"

CHECKS = {
    "ruff": ["check", "--no-cache", "--output-format=concise", "."],
    "mypy": ["--cache-dir", str(MYPY_CACHE), "yinsh", "scripts"],
}


@pytest.mark.parametrize("tool", CHECKS)
def test_tool_reports_no_problems(tool: str) -> None:
    if importlib.util.find_spec(tool) is None:
        unavailable(f"{tool} is not installed: pip install --group test (make setup)")
    result = subprocess.run(
        [sys.executable, "-m", tool, *CHECKS[tool]], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    if result.returncode != 0:
        output = (result.stdout + result.stderr).strip()
        pytest.fail(f"`python -m {tool} {' '.join(CHECKS[tool])}` found problems:\n{output}", pytrace=False)
