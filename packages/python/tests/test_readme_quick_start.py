"""The README's Python quick start, as written: ``npm start`` in development with nothing set but a temp
DATA_DIR (and PORT=0), then the commands the README shows, taken from it, run in a shell from the repository
(their ``data/`` is that DATA_DIR, their ``.venv`` a temp folder): a fresh virtual environment with the package
installed, a quote, a purchase, and the offline verification of the saved report."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def quick_start_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text("utf-8")
    after = readme[readme.index("<!-- python-quick-start:") :]
    block = re.search(r"```sh\n(.*?)```", after, re.S)
    assert block
    return [line for line in block.group(1).splitlines() if line.strip()]


def test_readme_python_quick_start(tmp_path: Path) -> None:
    commands = quick_start_commands()
    assert [c.split(" ")[1] for c in commands[1:]] == ["quote", "buy", "verify"]
    data, venv = tmp_path / "data", tmp_path / "venv"
    data.mkdir()
    env = {
        "PATH": os.environ["PATH"],
        "HOME": os.environ.get("HOME", str(tmp_path)),
        "DATA_DIR": str(data),
        "PORT": "0",
    }
    service = subprocess.Popen(
        ["npm", "start", "--silent"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )

    def sh(command: str) -> str:
        run = command.replace(" data/", f" {data}/").replace(".venv", str(venv))
        r = subprocess.run(
            run,
            shell=True,
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=600,
            env={"PATH": os.environ["PATH"], "HOME": env["HOME"]},
        )
        assert r.returncode == 0, f"{command}\n{r.stderr}"
        return r.stdout

    try:
        # The install needs no service: it runs while the service starts.
        outputs = [sh(commands[0])]
        assert service.stdout is not None
        for line in service.stdout:
            if '"rights preflight service listening"' in line:
                break
        else:
            raise AssertionError("npm start did not start")
        # Keep reading its log, so a full pipe never stops the service.
        threading.Thread(target=lambda: [None for _ in service.stdout], daemon=True).start()  # type: ignore[union-attr]
        outputs += [sh(c) for c in commands[1:]]
        assert json.loads(outputs[1])["available"] is True
        bought = json.loads(outputs[2])
        assert bought["status"] == "delivered" and bought["amount_micro"] == "20000"
        assert bought["saved"] == f"{data}/climate-py.json"
        assert re.match(
            r"^OK purchase [0-9a-f]{64}: https://open\.demo\.example/articles/climate PERMITTED", outputs[3]
        )
    finally:
        os.killpg(service.pid, signal.SIGTERM)
        service.wait(timeout=60)
