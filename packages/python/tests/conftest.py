"""One world per pytest session: the repository's test world (test/support/python-world.ts: the real service,
the in-process devnet, the HTTPS test publishers on loopback), started once and stopped at the end."""

from __future__ import annotations

import json
import os
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rights_preflight import Pins

from .support.devnet import Devnet

ROOT = Path(__file__).resolve().parents[3]


class World:
    def __init__(self, info: dict[str, Any]) -> None:
        self.info = info
        self.url: str = info["url"]
        self.pins = Pins(info["network"], info["usdc"], info["pay_to"], info["evidence_key"]["public_key"])
        self.devnet = Devnet(info["rpc_url"], info["usdc"], info["pay_to"])
        self._buyers = list(info["buyers"])
        self._lock = threading.Lock()

    def buyer_key(self) -> str:
        """A funded buyer no other test uses (so its transfers are its own)."""
        with self._lock:
            if not self._buyers:
                raise RuntimeError("every funded buyer of the world is used: raise PYTHON_WORLD_BUYERS")
            return str(self._buyers.pop()["private_key"])

    def env(self, key: str) -> dict[str, str]:
        """The buyer.env settings for this world and a buyer key."""
        return {
            "RIGHTS_SERVICE_URL": self.url,
            "BUYER_NETWORK": self.pins.network,
            "BUYER_ASSET": self.pins.asset,
            "BUYER_RECIPIENT": self.pins.recipient,
            "BUYER_EVIDENCE_KEY": self.pins.evidence_key,
            "BUYER_PRIVATE_KEY": key,
        }


@pytest.fixture(scope="session")
def world() -> Iterator[World]:
    # The gate's rate limit is set low enough that a bulk check must pace itself (tests/test_bulk_check.py).
    limits = {"RATE_LIMIT_GATE_PER_MINUTE": "60", "RATE_LIMIT_GATE_BURST": "2"}
    env = {**os.environ, "PYTHON_WORLD_BUYERS": "40", "PYTHON_WORLD_ENV": json.dumps(limits)}
    proc = subprocess.Popen(
        ["npx", "tsx", "test/support/python-world.ts"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=None,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the test world did not start (exit {proc.wait()})")
        yield World(json.loads(line))
    finally:
        if proc.stdin:
            proc.stdin.close()  # the launcher closes its world when its stdin ends
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.terminate()
            proc.wait(timeout=30)
