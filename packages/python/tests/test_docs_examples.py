"""Each docs/python-*.md page's runnable example, as written, against the session's service (its buyer.env
written for a fresh funded buyer): it runs, and buys and keeps out exactly what the page says."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[3]

EXPECTED = {
    "python-buyer.md": [
        r"^delivered PERMITTED_BY_OBSERVED_DECLARATION 0x[0-9a-f]{64}$",
        r"^verifies offline: True$",
        r"^delivered \['PERMITTED_BY_OBSERVED_DECLARATION', 'PROHIBITED_BY_OBSERVED_DECLARATION'\]$",
    ],
    "python-langchain.md": [
        r"^https://open\.demo\.example/articles/climate PERMITTED_BY_OBSERVED_DECLARATION [0-9a-f]{64} True$"
    ],
    "python-llamaindex.md": [
        r"^https://open\.demo\.example/articles/climate PERMITTED_BY_OBSERVED_DECLARATION [0-9a-f]{64}$"
    ],
    "python-scrapy.md": [r"^\{'rights_preflight/bought/DENY_DECLARED': 2, 'rights_preflight/bought/UNKNOWN': 1\}$"],
}


def example(page: str) -> str:
    text = (ROOT / "docs" / page).read_text("utf-8")
    block = re.search(r"<!-- runnable:[^>]*-->\n```python\n(.*?)```", text, re.S)
    assert block, f"{page} has no runnable example"
    return block.group(1)


@pytest.mark.parametrize("page", list(EXPECTED))
def test_docs_example_runs(page: str, world: Any, tmp_path: Path) -> None:
    code = example(page)
    ast.parse(code)
    env_file = tmp_path / "buyer.env"
    env_file.write_text("".join(f"{k}={v}\n" for k, v in world.env(world.buyer_key()).items()))
    (tmp_path / "example.py").write_text(code)
    r = subprocess.run(
        [sys.executable, "example.py"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "BUYER_ENV_FILE": str(env_file), "CHECKPOINT_DIR": str(tmp_path / "cp")},
    )
    assert r.returncode == 0, r.stderr[-3000:]
    lines = [line for line in r.stdout.splitlines() if line.strip()]
    for pattern in EXPECTED[page]:
        assert any(re.match(pattern, line) for line in lines), f"{pattern} not in {lines}"
    if page != "python-llamaindex.md":
        assert len(lines) == len(EXPECTED[page])
    assert "closed.demo.example" not in r.stdout and "bare.demo.example" not in r.stdout
