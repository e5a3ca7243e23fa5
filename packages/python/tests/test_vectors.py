"""The repository's shared test vectors (test/vectors/), generated independently of either buyer, and the
worked example of docs/wire.md §11."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest

from rights_preflight.binding import bound_nonce, input_sha256, purchase_id
from rights_preflight.canonical import jcs
from rights_preflight.gate_input import gate_input
from rights_preflight.signing import SIWX_STATEMENT, siwe_message

VECTORS = Path(__file__).resolve().parents[3] / "test" / "vectors"
BINDING = json.loads((VECTORS / "binding.json").read_text("utf-8"))


@pytest.mark.parametrize("v", BINDING["vectors"], ids=[v["name"] for v in BINDING["vectors"]])
def test_binding_vector(v: dict) -> None:
    assert jcs(v["normalized_input"]).decode() == v["normalized_input_jcs"]
    assert input_sha256(v["normalized_input"]) == v["input_sha256"]
    assert jcs({"version": BINDING["version"], "resource": v["resource"], "key": v["key"],
                "input_sha256": v["input_sha256"]}).decode() == v["binding_jcs"]
    assert bound_nonce(v["resource"], v["key"], v["input_sha256"]) == v["nonce"]


def test_wire_worked_gate_example() -> None:
    q = gate_input(["https://pub.example/articles/one", "https://pub.example/articles/one"], "rag-ingestion")
    assert q.input_sha256 == "1e2580e7979df686493d933e83d55ef26a02f6c72f9d015beb3fcfd8f2a2fb2e"
    assert q.price_micro == 60_000
    key = "example-service-request-key-0001"
    assert purchase_id("rights.ingestion-gate.v1", key, q.input_sha256) == (
        "34aeaed247e1bc6fbcc6620c7ab9ba5cce6125d174e18779056fa1e6609bd9e7"
    )
    gate = "https://preflight.example/v1/rights/ingestion-gate"
    nonce = bound_nonce(gate, key, q.input_sha256)
    assert nonce == "0x61637170756276318e4a3feb0948370e53a50e64e8e5ac378eab80cf62163657"
    text = siwe_message(
        domain="preflight.example", address="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC", statement=SIWX_STATEMENT,
        uri=gate, chain_id=8453, nonce=nonce[18:], issued_at="2026-11-24T12:00:00.000Z",
        resources=[gate, f"urn:service-request:input-sha256:{q.input_sha256}"],
    )
    wire = (Path(__file__).resolve().parents[3] / "docs" / "wire.md").read_text("utf-8")
    assert f"```\n{text}\n```" in wire
