"""The bulk check (``check``/``acheck``, ``rights-preflight check``) against the real service whose gate is
rate-limited (60 a minute, burst 2: tests/conftest.py; unpaced, the 402 path at concurrency 4 was answered 429
ten times): paid first or paced so that no request is answered 429, one transfer per gate call, and a run
killed between a call's checkpoint and its answer resumes charging nothing twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from eth_account import Account

from rights_preflight import verify_saved_report
from rights_preflight.bulk import acheck
from rights_preflight.manifest import decode_manifest_line

from .support.buyers import async_buyer_for
from .support.proxy import Proxy

COVERED = [
    *(f"https://open.demo.example/articles/{a}" for a in ("climate", "weather", "oceans", "forests", "rivers")),
    "https://closed.demo.example/articles/markets",
    "https://licensed.demo.example/articles/research",
    "https://bare.demo.example/page",
    "https://pub.example/articles/one",
    "https://pub.example/articles/two",
    *(f"https://pub.example/articles/{n}" for n in range(1, 6)),
    "https://bare.example/page",
]
ODD = ["https://uncovered.example/x", "http://pub.example/articles/one", "not a url"]


def _calls(lines: dict[str, Any]) -> dict[str, int]:
    return {line["purchase_id"]: int(line["charge_micro"]) for line in lines.values() if line["status"] == "bought"}


async def test_async_bulk_check_is_paced_under_the_limit_one_transfer_per_call(world: Any, tmp_path: Path) -> None:
    b = async_buyer_for(world, cap=120_000, task=10_000_000)
    async with b:
        s = await acheck(b, [*COVERED, *ODD], "rag-ingestion", manifest=tmp_path / "manifest.jsonl", concurrency=4)
    assert s.rate_limited == 0
    # Grouped by origin, up to 4 a call: open.demo 4 + 1, pub.example 4 + 3, one call for each other origin; the
    # two origins without any declaration are the gate's free answer.
    assert s.gate_calls == 8 and s.bought == len(COVERED) - 2 and s.not_bought == 5 and s.held == 0
    assert s.lines["https://bare.example/page"]["reason"]["code"] == "NO_VERIFIABLE_DECLARATION"
    assert s.lines["https://uncovered.example/x"]["reason"]["code"] == "ORIGIN_NOT_COVERED"
    assert s.lines["not a url"]["reason"]["code"] == "INVALID_URL"
    assert (
        s.lines["https://closed.demo.example/articles/markets"]["classification"]
        == "PROHIBITED_BY_OBSERVED_DECLARATION"
    )
    calls = _calls(s.lines)
    assert len(calls) == 6
    transfers = world.devnet.transfers(b.address)
    assert sorted(t["value"] for t in transfers) == sorted(calls.values())
    assert s.charged_micro == sum(calls.values()) == 2 * 120_000 + 100_000 + 3 * 60_000
    for pid in calls:
        saved = json.loads((tmp_path / "reports" / f"{pid}.json").read_text())
        assert verify_saved_report(saved, world.pins.evidence_key).ok
        assert saved["offer_receipt"] is None  # paid on the first request: no 402, no free work spent
    for text in (tmp_path / "manifest.jsonl").read_text().splitlines():
        decode_manifest_line(text)


async def test_paid_first_and_nothing_to_sell_is_free(world: Any) -> None:
    b = async_buyer_for(world, cap=120_000, task=10_000_000)
    async with b:
        s = await acheck(b, ["https://bare.example/page", "https://bare.demo.example/page"], "ai-input")
    assert s.gate_calls == 2 and s.not_bought == 2
    assert {line["reason"]["code"] for line in s.lines.values()} == {"NO_VERIFIABLE_DECLARATION"}
    assert b.spent_micro == 0 and world.devnet.transfers(b.address) == [] and b.ctx.store.ids() == []


async def test_the_402_path_is_paced_under_the_free_bucket(world: Any) -> None:
    """Not paying first, every call's unpaid request spends the gate's bucket (60 a minute, burst 2)."""
    b = async_buyer_for(world, cap=120_000, task=10_000_000)
    async with b:
        s = await acheck(b, COVERED, "ai-index", concurrency=4, pay_first=False)
    assert s.rate_limited == 0 and s.gate_calls == 8 and s.bought == len(COVERED) - 2
    assert len(world.devnet.transfers(b.address)) == 6


def test_cli_check_killed_between_checkpoint_and_answer_resumes_charging_nothing_twice(
    world: Any, tmp_path: Path
) -> None:
    proxy = Proxy(world.url)
    try:
        key = world.buyer_key()
        payer = Account.from_key(key).address
        env = {
            **os.environ,
            **world.env(key),
            "RIGHTS_SERVICE_URL": proxy.url,
            "RIGHTS_PUBLIC_URL": world.url,
            "BUYER_CHECKPOINT_KEY": "cd" * 32,
        }
        (tmp_path / "urls.txt").write_text("\n".join([*COVERED[:10], *ODD]) + "\n")
        cmd = [
            sys.executable,
            "-m",
            "rights_preflight",
            "check",
            str(tmp_path / "urls.txt"),
            "--purpose",
            "ai-input",
            "--budget",
            "1000000",
            "--concurrency",
            "1",  # one call in flight: the kill lands on exactly one paid, unanswered call
            "--manifest",
            str(tmp_path / "out" / "manifest.jsonl"),
            "--json",
        ]
        proxy.hang_after_paid = True
        first = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proxy.paid_answered.wait(120)  # the first call is settled; its answer never arrives
        first.send_signal(signal.SIGKILL)
        first.wait()
        pending = [decode_manifest_line(t) for t in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines()]
        assert [line["status"] for line in pending if line["url"] in COVERED] == ["pending"] * 4
        assert len(list((tmp_path / "out" / "manifest.jsonl.checkpoints").glob("*.json"))) == 1
        assert len(world.devnet.transfers(payer)) == 1
        proxy.hang_after_paid = False
        second = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=300)
        assert second.returncode == 0, second.stderr
        summary = json.loads(second.stdout)
        assert summary["bought"] == 9 and summary["resumed"] == 1 and summary["pending"] == 0
        assert summary["not_bought"] == {"ORIGIN_NOT_COVERED": 1, "INVALID_URL": 2, "NO_VERIFIABLE_DECLARATION": 1}
        lines: dict[str, Any] = {}
        for t in (tmp_path / "out" / "manifest.jsonl").read_text().splitlines():
            line = decode_manifest_line(t)
            lines[line["url"]] = line
        calls = _calls(lines)
        assert len(calls) == 5 and summary["transactions"] == 5
        transfers = world.devnet.transfers(payer)
        assert sorted(t["value"] for t in transfers) == sorted(calls.values())  # the resumed call: once
        assert summary["spent_micro"] == str(sum(calls.values()))
        assert not list((tmp_path / "out" / "manifest.jsonl.checkpoints").glob("*.json"))
    finally:
        proxy.close()


@pytest.mark.parametrize("budget", [50_000])
def test_a_budget_stops_before_a_call_it_cannot_pay(world: Any, tmp_path: Path, budget: int) -> None:
    from rights_preflight.bulk import check

    from .support.buyers import buyer_for

    b = buyer_for(world, cap=120_000, task=budget)
    s = check(b, COVERED[:8], "ai-input", manifest=tmp_path / "m.jsonl")
    assert s.bought == 0 and s.not_bought == 8 and s.gate_calls == 0
    assert {line["reason"]["code"] for line in s.lines.values()} == {"BUDGET_EXHAUSTED"}
    assert world.devnet.transfers(b.address) == []
