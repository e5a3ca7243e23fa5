"""The repository's shared test vectors (packages/wire/vectors/, README there), made by the service's own code: every
one the Python buyer must reproduce or refuse exactly as the TypeScript buyer does."""

from __future__ import annotations

import base64
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag
from eth_account import Account
from eth_account.messages import encode_defunct
from x402.mechanisms.evm.eip712 import hash_eip3009_authorization
from x402.mechanisms.evm.types import ExactEIP3009Authorization

from rights_preflight import Pins, verify_paid_report
from rights_preflight.binding import bound_nonce, input_sha256, purchase_id
from rights_preflight.canonical import digest_of, jcs, sha256_hex
from rights_preflight.checkpoint_store import open_box, seal
from rights_preflight.errors import BuyerRefused
from rights_preflight.gate_input import gate_input
from rights_preflight.manifest import decode_manifest_line
from rights_preflight.offer import OfferExpectation, check_offer
from rights_preflight.signing import SIWX_STATEMENT, sign_in_with_x, sign_transfer_authorization, siwe_message

ROOT = Path(__file__).resolve().parents[3]


def load(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "packages" / "wire" / "vectors" / f"{name}.json").read_text("utf-8"))


def cases(name: str, part: str = "vectors") -> Any:
    vs = load(name).get(part, [])
    return pytest.mark.parametrize("v", vs, ids=[v["name"] for v in vs])


def when(iso: str) -> float:
    return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp()


BINDING = load("binding")


@cases("binding")
def test_binding(v: dict[str, Any]) -> None:
    assert jcs(v["normalized_input"]).decode() == v["normalized_input_jcs"]
    assert input_sha256(v["normalized_input"]) == v["input_sha256"]
    assert (
        jcs(
            {
                "version": BINDING["version"],
                "resource": v["resource"],
                "key": v["key"],
                "input_sha256": v["input_sha256"],
            }
        ).decode()
        == v["binding_jcs"]
    )
    assert bound_nonce(v["resource"], v["key"], v["input_sha256"]) == v["nonce"]


@cases("canonical-json")
def test_canonical_json(v: dict[str, Any]) -> None:
    assert jcs(v["input"]["value"]).decode() == v["output"]["jcs"]
    assert digest_of(v["input"]["value"]) == v["output"]["sha256"]


@cases("eip3009")
def test_eip3009_digest_and_signature(v: dict[str, Any]) -> None:
    d, m = v["input"]["domain"], v["input"]["message"]
    auth = ExactEIP3009Authorization(m["from"], m["to"], m["value"], m["validAfter"], m["validBefore"], m["nonce"])
    digest = hash_eip3009_authorization(auth, d["chainId"], d["verifyingContract"], d["name"], d["version"])
    assert "0x" + digest.hex() == v["output"]["digest"]
    account = Account.from_key(v["input"]["private_key"])
    assert account.address == m["from"] == v["output"]["signer"]
    requirements = {
        "payTo": m["to"],
        "amount": m["value"],
        "network": f"eip155:{d['chainId']}",
        "asset": d["verifyingContract"],
        "extra": {"name": d["name"], "version": d["version"]},
    }
    wire, signature = sign_transfer_authorization(
        account,
        requirements=requirements,
        nonce=m["nonce"],
        valid_before=int(m["validBefore"]),
        valid_after=int(m["validAfter"]),
    )
    assert wire == m and signature == v["output"]["signature"]


@cases("siwx")
def test_siwx(v: dict[str, Any]) -> None:
    i, o = v["input"], v["output"]
    account = Account.from_key(i["private_key"])
    proof = sign_in_with_x(
        account,
        gate_url=i["gate_url"],
        key=i["key"],
        input_sha256=i["input_sha256"],
        network=i["network"],
        issued_at=datetime.fromisoformat(i["issued_at"].replace("Z", "+00:00")),
    )
    c = o["challenge"]
    text = siwe_message(
        domain=c["domain"],
        address=account.address,
        statement=c["statement"],
        uri=c["uri"],
        chain_id=int(c["chainId"].split(":")[1]),
        nonce=c["nonce"],
        issued_at=c["issuedAt"],
        resources=c["resources"],
    )
    assert c["statement"] == SIWX_STATEMENT and text == o["message"]
    assert "0x" + account.sign_message(encode_defunct(text=text)).signature.hex().removeprefix("0x") == o["signature"]
    assert proof == o["proof"]
    assert json.loads(base64.b64decode(o["header"])) == proof


def _check(i: dict[str, Any]) -> dict[str, Any]:
    p = i["pins"]
    pins = Pins(p["network"], p["asset"], p["recipient"], i["evidence_public_key"])
    x = i["expectation"]
    header = base64.b64encode(json.dumps(i["payment_required"]).encode()).decode()
    try:
        c = check_offer(
            header,
            pins,
            OfferExpectation(
                x["amount"],
                int(x["max_per_report_micro"]),
                x["resource"],
                x["input_sha256"],
                x["key"],
                x.get("purchase_id"),
            ),
            now=when(i["now"]),
        )
    except BuyerRefused as e:
        return {"outcome": e.code}
    return {
        "outcome": "ok",
        "nonce": c.nonce,
        "purchase_id": c.receipt["payload"]["purchase_id"],
        "expires_at": c.expires_at,
    }


@cases("offer-receipt")
def test_offer_receipt(v: dict[str, Any]) -> None:
    assert _check(v["input"]) == v["output"]


@cases("offer-receipt", "tampered")
def test_offer_receipt_tampered(v: dict[str, Any]) -> None:
    assert _check(v["input"])["outcome"] == v["output"]["outcome"]


def _verify(i: dict[str, Any]) -> Any:
    return verify_paid_report(
        {k: i[k] for k in ("response", "offer_receipt", "binding", "expected", "binding_key")}, i["evidence_public_key"]
    )


@cases("delivery")
def test_delivery(v: dict[str, Any]) -> None:
    r, o = _verify(v["input"]), v["output"]
    assert r.ok, r.reason
    assert (r.purchase_id, r.transaction, r.amount, r.payer) == (
        o["purchase_id"],
        o["transaction"],
        o["amount"],
        o["payer"],
    )
    assert r.classifications == o["classifications"] and r.purpose == o["purpose"] and r.signals == o["signals"]
    assert digest_of(v["input"]["response"]["report"]) == o["report_sha256"]
    assert digest_of(v["input"]["response"]["evidence"]) == o["evidence_sha256"]


@cases("delivery", "tampered")
def test_delivery_tampered(v: dict[str, Any]) -> None:
    r = _verify(v["input"])
    assert not r.ok and r.reason == v["output"]["reason"]


@cases("checkpoint-seal")
def test_checkpoint_seal(v: dict[str, Any]) -> None:
    i, o = v["input"], v["output"]
    key, aad = bytes.fromhex(i["key"]), i["aad"].encode()
    import os
    from unittest import mock

    with mock.patch.object(os, "urandom", lambda n: bytes.fromhex(i["iv"])):
        assert seal(key, i["plaintext"].encode(), aad) == o["sealed"]
    assert open_box(key, o["sealed"], aad).decode() == i["plaintext"]


@cases("checkpoint-seal", "tampered")
def test_checkpoint_seal_tampered(v: dict[str, Any]) -> None:
    i = v["input"]
    assert v["output"]["opens"] is False
    with pytest.raises(InvalidTag):
        open_box(bytes.fromhex(i["key"]), i["sealed"], i["aad"].encode())


@cases("manifest", "valid")
def test_manifest_valid(v: dict[str, Any]) -> None:
    assert decode_manifest_line(v["text"])["format"] == "rights-preflight-check-v1"


@cases("manifest", "invalid")
def test_manifest_invalid(v: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        decode_manifest_line(v["text"])


def test_wire_worked_gate_example() -> None:
    q = gate_input(["https://pub.example/articles/one", "https://pub.example/articles/one"], "rag-ingestion")
    assert q.input_sha256 == "1e2580e7979df686493d933e83d55ef26a02f6c72f9d015beb3fcfd8f2a2fb2e"
    assert q.price_micro == 60_000
    key = "example-service-request-key-0001"
    assert sha256_hex(key) == "0281221a47a7b76b08db1765127e140354ade87f4eb6cfaae61a014b9e8fc837"
    assert purchase_id("rights.ingestion-gate.v1", key, q.input_sha256) == (
        "34aeaed247e1bc6fbcc6620c7ab9ba5cce6125d174e18779056fa1e6609bd9e7"
    )
    gate = "https://preflight.example/v1/rights/ingestion-gate"
    nonce = bound_nonce(gate, key, q.input_sha256)
    assert nonce == "0x61637170756276318e4a3feb0948370e53a50e64e8e5ac378eab80cf62163657"
    text = siwe_message(
        domain="preflight.example",
        address="0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC",
        statement=SIWX_STATEMENT,
        uri=gate,
        chain_id=8453,
        nonce=nonce[18:],
        issued_at="2026-11-24T12:00:00.000Z",
        resources=[gate, f"urn:service-request:input-sha256:{q.input_sha256}"],
    )
    assert f"```\n{text}\n```" in (ROOT / "docs" / "wire.md").read_text("utf-8")
