"""The Python line of the bulk benchmark: ``rights-preflight check`` (``acheck``) over 1,000 URLs on 50 origins
with 2 s blocks, against the real service, devnet and HTTPS publishers on loopback
(test/support/python-world.ts with PYTHON_WORLD_BENCH). Prints one JSON line: wall seconds, gate calls,
transfers, 429s, and the buyer's CPU (this process: signing, sealing, verifying, canonical JSON) per report.

    packages/python/.venv/bin/python packages/python/bench/bulk_bench.py [--origins 50] [--pages 20]
        [--block-ms 2000] [--concurrency 8] [--out bench/results/bulk-python.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

from rights_preflight import AsyncBuyer, Pins
from rights_preflight.bulk import acheck

ROOT = Path(__file__).resolve().parents[3]
TRANSFER = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


def transfers(rpc: str, usdc: str, payer: str) -> int:
    topic = "0x" + "0" * 24 + payer.lower()[2:]
    params = [{"address": usdc, "fromBlock": "0x0", "toBlock": "latest", "topics": [TRANSFER, topic]}]
    r = httpx.post(rpc, json={"jsonrpc": "2.0", "id": 1, "method": "eth_getLogs", "params": params}, timeout=60)
    return len(r.json()["result"])


async def run(a: argparse.Namespace) -> dict[str, object]:
    env = {**os.environ, "PYTHON_WORLD_BUYERS": "1", "PYTHON_WORLD_BENCH": f"{a.origins},{a.pages},{a.block_ms}"}
    world = subprocess.Popen(
        ["npx", "tsx", "test/support/python-world.ts"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert world.stdout is not None
        info = json.loads(world.stdout.readline())
        urls = [f"https://bench-{o}.example/p/{n}" for n in range(a.pages) for o in range(a.origins)]
        pins = Pins(info["network"], info["usdc"], info["pay_to"], info["evidence_key"]["public_key"])
        key = info["buyers"][0]["private_key"]
        async with AsyncBuyer(info["url"], key, pins, max_per_report_micro=120_000, max_per_task_micro=10**9) as b:
            cpu0, t0 = time.process_time(), time.perf_counter()
            s = await acheck(b, urls, "ai-input", concurrency=a.concurrency)
            wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
            paid = transfers(info["rpc_url"], info["usdc"], b.address)
        return {
            "bench": "bulk-python",
            "at": datetime.now(UTC).isoformat(timespec="seconds"),
            "urls": len(urls),
            "origins": a.origins,
            "block_ms": a.block_ms,
            "concurrency": a.concurrency,
            "wall_seconds": round(wall, 1),
            "goal_seconds": 60,
            "bought": s.bought,
            "held": s.held,
            "not_bought": s.not_bought,
            "gate_calls": s.gate_calls,
            "transfers": paid,
            "rate_limited": s.rate_limited,
            "buyer_cpu_seconds": round(cpu, 2),
            "buyer_cpu_ms_per_report": round(cpu * 1000 / max(1, s.gate_calls), 1),
            "buyer_cpu_ms_per_url": round(cpu * 1000 / len(urls), 2),
        }
    finally:
        if world.stdin:
            world.stdin.close()
        world.wait(timeout=120)


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--origins", type=int, default=50)
    p.add_argument("--pages", type=int, default=20)
    p.add_argument("--block-ms", type=int, default=2000)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--out")
    a = p.parse_args()
    result = asyncio.run(run(a))
    print(json.dumps(result))
    if a.out:
        Path(a.out).write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
