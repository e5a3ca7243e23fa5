"""The package is formatted and linted (ruff, 120 columns as the repository's lint). Its types are checked by
``mypy --strict src/rights_preflight`` (clean; not run here: a cold run reads web3 and takes a minute)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

PKG = Path(__file__).resolve().parents[1]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=PKG, capture_output=True, text=True, timeout=300)


def test_ruff_format_and_check() -> None:
    fmt = run("ruff", "format", "--check", "src", "tests")
    assert fmt.returncode == 0, fmt.stdout + fmt.stderr
    lint = run("ruff", "check", "src", "tests")
    assert lint.returncode == 0, lint.stdout + lint.stderr
