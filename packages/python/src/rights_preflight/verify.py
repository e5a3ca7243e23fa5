"""Verification of a paid report (docs/wire.md §5, §14), shared by the buyer (online, right after delivery) and
``rights-preflight verify`` (offline, a saved file): both envelope signatures under the pinned key, the report
and evidence digests in the delivery proof, report ↔ evidence agreement (signals included), each resource's
checkpoint, a gate's question recomputed from its report, the settlement's form, the signed offer receipt, the
binding and what this buyer signed. Pure; the first failed check is returned as a reason with no secret in it.

>>> verify_paid_report({"response": {}}, "00" * 32).ok
False
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .binding import GATE_SKU, REVALIDATE_SKU, bound_nonce, looks_bound
from .canonical import digest_of
from .envelope import is_envelope, key_id_of, verify_envelope
from .gate_input import gate_input
from .offer import receipt_payload_problem
from .signals import VerifiedSignals, signals_disagree, signals_of_report

SAVED_REPORT_FORMAT = "rights-preflight-saved-report-v1"
_TX = re.compile(r"^0x[0-9a-fA-F]{64}$")
_HEX64 = re.compile(r"^[0-9a-f]{64}$")
DECISION_FOR = {
    "PERMITTED_BY_OBSERVED_DECLARATION": "ALLOW_DECLARED",
    "PROHIBITED_BY_OBSERVED_DECLARATION": "DENY_DECLARED",
    "LICENSE_REQUIRED": "LICENSE_REQUIRED",
}


@dataclass(frozen=True)
class VerifyResult:
    ok: bool
    reason: str | None = None
    purchase_id: str = ""
    transaction: str = ""
    amount: str = ""
    payer: str = ""
    classifications: list[dict[str, str]] = field(default_factory=list)
    purpose: str = ""
    signals: list[VerifiedSignals] = field(default_factory=list)


def _fail(reason: str) -> VerifyResult:
    return VerifyResult(ok=False, reason=reason)


def _same(a: str, b: str) -> bool:
    return a.lower() == b.lower()


def decision_of(r: dict[str, Any]) -> str:
    return r["decision"] if "decision" in r else DECISION_FOR.get(r["classification"], "UNKNOWN")


def _paid_shape_problem(body: Any) -> str | None:
    bad = "response is not a paid report (PaidReportResponse, IngestionGateResponse or RevalidationResponse)"
    if not isinstance(body, dict):
        return bad
    report, ps = body.get("report"), body.get("payment_settlement")
    if not isinstance(report, dict) or not isinstance(ps, dict) or not isinstance(body.get("input_sha256"), str):
        return bad
    if not is_envelope(body.get("evidence")) or not is_envelope(body.get("delivery_proof")):
        return bad
    if not isinstance(report.get("purchase_id"), str) or not isinstance(report.get("resources"), list):
        return bad
    for r in report["resources"]:
        if (
            not isinstance(r, dict)
            or not isinstance(r.get("resource"), str)
            or not isinstance(r.get("classification"), str)
        ):
            return bad
    if not isinstance(ps.get("transaction"), str) or not isinstance(ps.get("network"), str):
        return bad
    return None


def _evidence_problem(e: Any) -> str | None:
    ok = (
        isinstance(e, dict)
        and e.get("type") == "evidence"
        and isinstance(e.get("purchase_id"), str)
        and isinstance(e.get("input_sha256"), str)
        and isinstance(e.get("resources"), list)
        and all(
            isinstance(r, dict)
            and isinstance(r.get("resource"), str)
            and isinstance(r.get("classification"), str)
            and isinstance(r.get("reading"), dict)
            for r in e["resources"]
        )
    )
    return None if ok else "evidence payload has the wrong shape"


def _proof_problem(p: Any) -> str | None:
    s = p.get("settlement") if isinstance(p, dict) else None
    ok = (
        isinstance(p, dict)
        and p.get("type") == "delivery-proof"
        and all(isinstance(p.get(k), str) for k in ("purchase_id", "input_sha256", "report_sha256", "evidence_sha256"))
        and isinstance(s, dict)
        and all(
            isinstance(s.get(k), str) for k in ("network", "transaction", "payer", "amount", "asset", "pay_to", "nonce")
        )
    )
    return None if ok else "delivery proof payload has the wrong shape"


CHECKPOINT_FIELDS = (
    "sku",
    "purchase_id",
    "resource",
    "purpose",
    "user_class",
    "classification",
    "observed_at",
    "evidence_sha256",
    "key_id",
)


@dataclass(frozen=True)
class CheckpointVerification:
    ok: bool
    reason: str | None = None
    checkpoint: dict[str, Any] | None = None


def verify_checkpoint(checkpoint: Any, evidence_key_hex: str) -> CheckpointVerification:
    """A revalidation checkpoint kept on its own: signed by the pinned key, unaltered, and a checkpoint."""
    key = evidence_key_hex.lower()
    try:
        key_id = key_id_of(key)
    except ValueError:
        return CheckpointVerification(False, "the pinned evidence key is not 64 hex characters")
    if not is_envelope(checkpoint):
        return CheckpointVerification(
            False,
            "CHECKPOINT_MALFORMED: a checkpoint is an envelope {algorithm, format, payload, signature}"
            " as delivered in a report",
        )
    p = checkpoint["payload"]
    if p.get("key_id") != key_id:
        return CheckpointVerification(
            False, "CHECKPOINT_KEY_UNKNOWN: the checkpoint names a key other than the pinned one"
        )
    if not verify_envelope(checkpoint, key):
        return CheckpointVerification(False, "CHECKPOINT_ALTERED: the checkpoint's signature does not verify")
    if (
        p.get("type") != "checkpoint"
        or p.get("version") != "rights-checkpoint-v1"
        or not all(isinstance(p.get(k), str) for k in CHECKPOINT_FIELDS)
        or not isinstance(p.get("documents"), list)
        or not isinstance(p.get("declaration_found"), bool)
    ):
        return CheckpointVerification(
            False, "CHECKPOINT_MALFORMED: the envelope is signed by the service but is not a checkpoint"
        )
    return CheckpointVerification(True, None, p)


def checkpoints_of_report_fail(body: dict[str, Any], evidence_key_hex: str) -> str | None:
    """Each resource's checkpoint (null in reports delivered before checkpoints) verifies and names this report."""
    evidence_sha256 = digest_of(body["evidence"]["payload"])
    for i, r in enumerate(body["report"]["resources"]):
        cp = r.get("checkpoint")
        if cp is None:
            continue
        v = verify_checkpoint(cp, evidence_key_hex)
        if not v.ok or v.checkpoint is None:
            return f"checkpoint of resource {i}: {v.reason}"
        c = v.checkpoint
        if c["evidence_sha256"] != evidence_sha256:
            return f"checkpoint of resource {i} belongs to another report's evidence"
        if (
            c["resource"] != r["resource"]
            or c["classification"] != r["classification"]
            or c["purchase_id"] != body["report"]["purchase_id"]
        ):
            return f"checkpoint of resource {i} differs from the report (resource, classification or purchase)"
    return None


def _many_resources(report: dict[str, Any]) -> bool:
    return report.get("sku") in (GATE_SKU, REVALIDATE_SKU)


def _agreement_problem(body: dict[str, Any], evidence: dict[str, Any], proof: dict[str, Any]) -> str | None:
    report = body["report"]
    if proof["report_sha256"] != digest_of(report):
        return "report digest does not match the delivery proof (report_sha256)"
    if proof["evidence_sha256"] != digest_of(body["evidence"]):
        return "evidence digest does not match the delivery proof (evidence_sha256)"
    if proof["purchase_id"] != report["purchase_id"] or evidence["purchase_id"] != report["purchase_id"]:
        return "purchase id differs between report, evidence and proof"
    if proof["input_sha256"] != body["input_sha256"] or evidence["input_sha256"] != body["input_sha256"]:
        return "input_sha256 differs between response, evidence and proof"
    if len(evidence["resources"]) != len(report["resources"]):
        return "evidence and report name different resources"
    for i, (r, e) in enumerate(zip(report["resources"], evidence["resources"], strict=True)):
        if (
            r["resource"] != e["resource"]
            or r["classification"] != e["classification"]
            or ("decision" in e and e["decision"] != decision_of(r))
        ):
            return f"report resource {i} differs from the signed evidence"
        if signals_disagree(r, e):
            return f"report resource {i} signals differ from the signed evidence"
    return None


def _gate_question_problem(report: dict[str, Any], proof: dict[str, Any]) -> str | None:
    """A gate's binding resource is the gate URL: what ties its report to the payment is the question."""
    try:
        q = gate_input(
            [r["resource"] for r in report["resources"]],
            report["purpose"],
            user_class=report.get("user_class"),
            geo=report.get("geo"),
            freshness_seconds=report.get("freshness_seconds"),
            tier=report.get("tier"),
        )
    except (KeyError, TypeError):
        return "the gate report does not answer the paid question (its fields are missing)"
    if q.input_sha256 != proof["input_sha256"] or len(q.body["resources"]) != len(report["resources"]):
        return "the gate report does not answer the paid question (input_sha256 recomputed from the report differs)"
    return None


def _settlement_form_problem(ps: dict[str, Any], s: dict[str, Any]) -> str | None:
    if not _TX.match(ps["transaction"]):
        return "transaction hash has the wrong form"
    if ps["transaction"].lower() != s["transaction"].lower():
        return "transaction hash differs from the signed delivery proof"
    if ps["network"] != s["network"]:
        return "settlement network differs from the signed delivery proof"
    if not looks_bound(s["nonce"]):
        return "settled nonce is not a request-bound nonce"
    return None


def _offer_receipt_problem(
    receipt: Any,
    binding: dict[str, Any] | None,
    binding_key: str | None,
    proof: dict[str, Any],
    report: dict[str, Any],
    key: str,
) -> str | None:
    s = proof["settlement"]
    if not verify_envelope(receipt, key):
        return "offer receipt signature does not verify with the pinned key"
    r = receipt["payload"]
    if receipt_payload_problem(r):
        return "offer receipt payload has the wrong shape"
    if r["purchase_id"] != proof["purchase_id"]:
        return "binding mismatch: offer receipt is for another purchase"
    if r["nonce"].lower() != s["nonce"].lower():
        return "binding mismatch: settled nonce is not the offered bound nonce"
    if r["input_sha256"] != proof["input_sha256"]:
        return "binding mismatch: offer input_sha256 differs from the proof"
    if not _many_resources(report) and (not report["resources"] or r["resource"] != report["resources"][0]["resource"]):
        return "binding mismatch: offer resource differs from the report"
    if binding and binding.get("resource") != r["resource"]:
        return "binding mismatch: binding resource differs from the signed offer"
    if (
        r["amount"] != s["amount"]
        or not _same(r["asset"], s["asset"])
        or not _same(r["pay_to"], s["pay_to"])
        or r["network"] != s["network"]
    ):
        return "settlement differs from the signed offer (amount, asset, recipient or network)"
    if binding_key is not None and bound_nonce(r["resource"], binding_key, r["input_sha256"]) != r["nonce"].lower():
        return "binding mismatch: nonce recomputed from the key does not match"
    return None


def _binding_problem(b: dict[str, Any], proof: dict[str, Any]) -> str | None:
    if str(b.get("nonce", "")).lower() != proof["settlement"]["nonce"].lower():
        return "binding mismatch: binding nonce differs from the settled nonce"
    if b.get("input_sha256") != proof["input_sha256"]:
        return "binding mismatch: binding input_sha256 differs from the proof"
    return None


def _expected_problem(x: dict[str, Any], proof: dict[str, Any], report: dict[str, Any]) -> str | None:
    s = proof["settlement"]
    if x["network"] != s["network"]:
        return "settlement network differs from what was paid"
    if not _same(x["asset"], s["asset"]):
        return "settlement asset differs from what was paid"
    if not _same(x["pay_to"], s["pay_to"]):
        return "settlement recipient differs from what was paid"
    if x["amount"] != s["amount"]:
        return "settlement amount differs from what was paid"
    if not _same(x["payer"], s["payer"]):
        return "settlement payer is not this buyer"
    if x["nonce"].lower() != s["nonce"].lower():
        return "settlement nonce differs from the signed authorization"
    if x.get("input_sha256") is not None and x["input_sha256"] != proof["input_sha256"]:
        return "input_sha256 differs from the quoted input"
    if x.get("purchase_id") is not None and x["purchase_id"] != proof["purchase_id"]:
        return "purchase id differs from the quoted purchase"
    if (
        x.get("resource") is not None
        and not _many_resources(report)
        and (not report["resources"] or report["resources"][0]["resource"] != x["resource"])
    ):
        return "report is for another resource"
    return None


def verify_paid_report(
    inp: dict[str, Any],
    evidence_key_hex: str,
) -> VerifyResult:
    """``inp``: ``response`` (the paid body), and optionally ``offer_receipt`` (the envelope from the 402),
    ``binding`` ({resource, input_sha256, nonce}), ``expected`` (what this buyer signed) and ``binding_key``."""
    key = evidence_key_hex.lower()
    body = inp.get("response")
    problem = _paid_shape_problem(body)
    if problem:
        return _fail(problem)
    assert isinstance(body, dict)
    if not verify_envelope(body["evidence"], key):
        return _fail("evidence signature does not verify with the pinned key")
    if not verify_envelope(body["delivery_proof"], key):
        return _fail("delivery proof signature does not verify with the pinned key")
    evidence, proof = body["evidence"]["payload"], body["delivery_proof"]["payload"]
    problem = _evidence_problem(evidence) or _proof_problem(proof)
    if problem:
        return _fail(problem)
    report = body["report"]
    try:
        problem = (
            _agreement_problem(body, evidence, proof)
            or checkpoints_of_report_fail(body, key)
            or (_gate_question_problem(report, proof) if report.get("sku") == GATE_SKU else None)
            or _settlement_form_problem(body["payment_settlement"], proof["settlement"])
            or (
                _offer_receipt_problem(
                    inp["offer_receipt"], inp.get("binding"), inp.get("binding_key"), proof, report, key
                )
                if inp.get("offer_receipt") is not None
                else None
            )
            or (_binding_problem(inp["binding"], proof) if inp.get("binding") else None)
            or (_expected_problem(inp["expected"], proof, report) if inp.get("expected") else None)
        )
    except (KeyError, TypeError, AttributeError, ValueError):
        problem = "response is not a paid report (a field has the wrong shape)"
    if problem:
        return _fail(problem)
    s = proof["settlement"]
    return VerifyResult(
        ok=True,
        purchase_id=proof["purchase_id"],
        transaction=s["transaction"],
        amount=s["amount"],
        payer=s["payer"],
        classifications=[
            {"resource": r["resource"], "classification": r["classification"], "decision": decision_of(r)}
            for r in report["resources"]
        ],
        purpose=str(report.get("purpose", "")),
        signals=signals_of_report(report["resources"]),
    )


def verify_saved_report(saved: Any, evidence_key_hex: str, binding_key: str | None = None) -> VerifyResult:
    """A saved report (what ``buy`` writes) or a bare paid response (then the binding is checked by form only)."""
    if not isinstance(saved, dict):
        return _fail("not a saved report")
    if saved.get("format") != SAVED_REPORT_FORMAT:
        return verify_paid_report({"response": saved, "binding_key": binding_key}, evidence_key_hex)
    # offer_receipt null: paid on the first request, before any offer (the delivery proof binds the terms).
    if not saved.get("binding") or "offer_receipt" not in saved:
        return _fail("saved report lacks its binding or offer receipt")
    return verify_paid_report(
        {
            "response": saved.get("response"),
            "offer_receipt": saved.get("offer_receipt"),
            "binding": saved["binding"],
            "binding_key": binding_key,
        },
        evidence_key_hex,
    )


def checkpoints_in(value: Any) -> list[Any]:
    """The checkpoints kept in a value: a checkpoint envelope, or a (saved) report's resources' checkpoints."""
    if isinstance(value, dict):
        payload = value.get("payload")
        if isinstance(payload, dict) and payload.get("type") == "checkpoint":
            return [value]
        if "response" in value:
            return checkpoints_in(value["response"])
        report = value.get("report")
        if isinstance(report, dict) and isinstance(report.get("resources"), list):
            return [
                r["checkpoint"] for r in report["resources"] if isinstance(r, dict) and r.get("checkpoint") is not None
            ]
    return []
