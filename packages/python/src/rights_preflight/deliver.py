"""The deliver step: send the checkpointed payment until a definitive answer. Ambiguous outcomes (no answer,
timeout, 408/425/429/5xx, PURCHASE_IN_PROGRESS) resend the SAME header; a paid 200 is verified before it counts
as delivered, and anything that fails verification is held, never a report (docs/wire.md §4–§6)."""

from __future__ import annotations

import json
import time
from typing import Any

from x402.http.utils import decode_payment_response_header

from .checkpoint_store import Checkpoint
from .context import Context, error_of, json_body
from .effects import Flow, Http, Response, Sleep, TransportFailed
from .errors import BuyerRefused
from .pins import same_address
from .rate_limit import retry_after
from .results import BuyResult, Delivered, Held, Unavailable
from .signals import ingestion_hold
from .signing import SIWX_MAX_AGE_SECONDS, payment_intent_header, sign_in_with_x_header
from .verify import SAVED_REPORT_FORMAT, verify_paid_report

AMBIGUOUS_STATUS = {408, 425, 429, 500, 502, 503, 504}


def gate_headers(ctx: Context, purchase: str, key: str, expected: dict[str, Any]) -> dict[str, str]:
    """A gate request's private headers: the retry key, the payment intent and the sign-in proof. A proof is not a
    payment: it is cached by purchase and re-signed when stale, while the payment header is never re-signed."""
    binding = {
        "gate_url": expected["resource"],
        "key": key,
        "input_sha256": expected["input_sha256"],
        "network": expected["network"],
    }
    cached = ctx.sign_ins.get(purchase)
    if cached and time.time() - cached[1] < SIWX_MAX_AGE_SECONDS - 120:
        proof = cached[0]
    else:
        proof = sign_in_with_x_header(ctx.account, **binding)
        ctx.sign_ins[purchase] = (proof, time.time())
        ctx.log("signed-in", purchase_id=purchase)
    return {
        "x-service-request": key,
        "x-service-payment-intent": payment_intent_header(
            payer=ctx.account.address,
            resource=expected["resource"],
            input_sha256=expected["input_sha256"],
            network=expected["network"],
        ),
        "sign-in-with-x": proof,
    }


def _send(ctx: Context, cp: Checkpoint) -> Http:
    url = f"{cp['base_url']}{cp['path']}"
    timeout = ctx.resume.request_timeout_seconds
    if cp["flow"] == "quote":
        headers = {"x-service-claim": cp["key"], "payment-signature": cp["payment_signature"]}
        return Http("GET", url, headers, None, timeout)
    private = (
        gate_headers(ctx, cp["purchase_id"], cp["key"], cp["expected"])
        if cp["flow"] == "gate"
        else {"x-service-request": cp["key"]}
    )
    headers = {"content-type": "application/json", **private, "payment-signature": cp["payment_signature"]}
    return Http("POST", url, headers, json_body(cp.get("body") or {}), timeout)


def deliver(ctx: Context, cp: Checkpoint, resumed_already: bool) -> Flow[BuyResult]:
    attempts, delay = ctx.resume.attempts, ctx.resume.delay_seconds
    resumed = resumed_already
    pid = cp["purchase_id"]
    for attempt in range(1, attempts + 1):
        if attempt > 1:
            resumed = True
            yield Sleep(min(delay * 2 ** (attempt - 2), 4.0))
        ctx.log("send" if attempt == 1 and not resumed_already else "resume", purchase_id=pid, attempt=attempt)
        request = _send(ctx, cp)
        if ctx.pacer is not None and (wait := ctx.pacer.wait(request.url, paid=True)) > 0:
            yield Sleep(wait)
        try:
            res: Response = yield request
        except TransportFailed as e:
            ctx.log("ambiguous", purchase_id=pid, reason=e.reason)
            continue
        if res.status == 200:
            return accept(ctx, cp, res, resumed)
        if res.status == 429:
            # Refused before anything was looked at: nothing charged; the same payment is sent again.
            ctx.rate_limited += 1
            if ctx.pacer is not None:
                ctx.pacer.refused(request.url)
            yield Sleep(retry_after(res))
        if res.status in AMBIGUOUS_STATUS:
            ctx.log("ambiguous", purchase_id=pid, reason=f"HTTP {res.status}")
            continue
        code, _ = error_of(res)
        if code == "PURCHASE_IN_PROGRESS":
            ctx.log("ambiguous", purchase_id=pid, reason=code)
            continue
        if code == "PURCHASE_HELD":
            ctx.log("held", purchase_id=pid, reason=code)
            return Held("the service holds this purchase for an operator (PURCHASE_HELD)", pid)
        # A definitive refusal: nothing was charged (docs/wire.md §6); the reservation is released.
        ctx.budget.release(int(cp["expected"]["amount"]))
        ctx.store.remove(pid)
        ctx.log("refused", purchase_id=pid, code=code)
        raise BuyerRefused(
            "PAYMENT_REFUSED", f"the service refused the payment ({code})", {"status": res.status, "code": code}
        )
    raise BuyerRefused(
        "RESUME_EXHAUSTED",
        f"no definitive answer after {attempts} attempts; the checkpoint is kept: resume(purchase_id) later",
        {"purchase_id": pid},
    )


def accept(ctx: Context, cp: Checkpoint, res: Response, resumed: bool) -> BuyResult:
    """A paid 200: delivered when the report verifies (and PAYMENT-RESPONSE agrees), held otherwise."""
    pid = cp["purchase_id"]
    settle = None
    header = res.header("payment-response")
    if header:
        try:
            settle = decode_payment_response_header(header)
        except Exception:
            settle = None
    transaction = settle.transaction if settle is not None else None

    def held(reason: str) -> Held:
        ctx.log("held", purchase_id=pid, reason=reason, transaction=transaction)
        return Held(reason, pid, transaction or None)

    try:
        body = json.loads(res.body)
    except ValueError:
        return held("paid response is not JSON")
    x = cp["expected"]
    if cp.get("offer_receipt") is None and isinstance(body, dict) and body.get("available") is False:
        # Paid before any offer and the service found nothing to sell: it stored nothing, and the authorization,
        # bound to this purchase alone, is never used (docs/wire.md §11).
        if body.get("input_sha256") == x["input_sha256"] and body.get("charge_micro") == "0":
            ctx.budget.release(int(x["amount"]))
            ctx.store.remove(pid)
            ctx.log("gate.unavailable", purchase_id=pid, reason=body.get("reason"))
            resources = [str(r.get("resource")) for r in body.get("resources", []) if isinstance(r, dict)]
            return Unavailable(str(body.get("reason", "")), resources, input_sha256=x["input_sha256"])
    binding = {"resource": x["resource"], "input_sha256": x["input_sha256"], "nonce": x["nonce"]}
    v = verify_paid_report(
        {
            "response": body,
            "offer_receipt": cp["offer_receipt"],
            "binding": binding,
            "expected": {**x, "purchase_id": pid},
            "binding_key": cp["key"],
        },
        ctx.pins.evidence_key,
    )
    if not v.ok:
        return held(str(v.reason))
    if settle is not None and (
        str(settle.transaction).lower() != v.transaction.lower()
        or (settle.payer and not same_address(settle.payer, v.payer))
    ):
        return held("PAYMENT-RESPONSE differs from the signed delivery proof")
    ctx.store.remove(pid)
    ctx.log("delivered", purchase_id=pid, transaction=v.transaction, amount_micro=v.amount)
    hold = ingestion_hold(v.signals, ctx.hold_on_other_signals)
    if hold:
        ctx.log("ingestion-held", purchase_id=pid, reason=hold["reason"])
    saved = {
        "format": SAVED_REPORT_FORMAT,
        "service": cp["base_url"],
        "evidence_key": {"key_id": ctx.pins.key_id, "public_key": ctx.pins.evidence_key},
        "binding": {**binding, "key_source": "x-service-claim" if cp["flow"] == "quote" else "x-service-request"},
        "offer_receipt": cp["offer_receipt"],
        "response": body,
    }
    return Delivered(
        purchase_id=pid,
        response=body,
        classifications=v.classifications,
        ingestion_hold=hold,
        transaction=v.transaction,
        amount_micro=v.amount,
        payer=v.payer,
        saved=saved,
        resumed=resumed,
    )
