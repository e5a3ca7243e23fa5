"""The pay step: check the 402 offer, reserve the budget, sign EIP-3009 with exactly the bound nonce, and seal
the checkpoint BEFORE anything is sent, in that order (docs/wire.md §3–§4)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .checkpoint_store import Checkpoint
from .context import Context
from .errors import BuyerRefused
from .offer import CheckedOffer, OfferExpectation, check_offer
from .signing import b64, sign_transfer_authorization


@dataclass(frozen=True)
class PaymentTerms:
    flow: str
    """quote | preflight | gate | revalidate"""
    path: str
    key: str
    offer_header: str | None
    amount: str
    resource: str
    input_sha256: str
    purchase_id: str | None = None
    body: dict[str, Any] | None = None


def payment_signature(ctx: Context, offer: CheckedOffer) -> str:
    """The PAYMENT-SIGNATURE header: ``accepts[0]`` echoed verbatim, the extensions echoed, the bound nonce.
    validBefore is as far ahead as the offer allows (``maxTimeoutSeconds``), so the service's settlement
    window, resumes included, fits inside it."""
    req = offer.requirements
    window = int(req["maxTimeoutSeconds"])
    needed = ctx.min_validity_seconds or 0
    if window < needed:
        raise BuyerRefused(
            "SETTLEMENT_WINDOW_TOO_SHORT",
            f"the offer allows {window} s of validity, less than the {needed} s settlement window",
        )
    authorization, signature = sign_transfer_authorization(
        ctx.account, requirements=req, nonce=offer.nonce, valid_before=int(time.time()) + window
    )
    payload: dict[str, Any] = {
        "x402Version": 2,
        "resource": offer.payment_required.get("resource"),
        "accepted": req,
        "payload": {"signature": signature, "authorization": authorization},
    }
    if offer.payment_required.get("extensions") is not None:
        payload["extensions"] = offer.payment_required["extensions"]
    return b64(json.dumps(payload, separators=(",", ":"), ensure_ascii=False))


def pay(ctx: Context, t: PaymentTerms) -> Checkpoint:
    """Checks the offer, reserves budget, signs, and persists the encrypted checkpoint: in that order."""
    offer = check_offer(
        t.offer_header,
        ctx.pins,
        OfferExpectation(t.amount, ctx.budget.max_per_report, t.resource, t.input_sha256, t.key, t.purchase_id),
    )
    purchase_id = offer.receipt["payload"]["purchase_id"]
    req = offer.requirements
    ctx.log(
        "offer.ok", purchase_id=purchase_id, amount_micro=req["amount"], pay_to=req["payTo"], network=req["network"]
    )
    amount = int(req["amount"])
    ctx.budget.reserve(amount)
    try:
        header = payment_signature(ctx, offer)
    except BaseException:
        ctx.budget.release(amount)
        raise
    ctx.log("signed", purchase_id=purchase_id, nonce_bound=True)
    cp: Checkpoint = {
        "version": "buyer-checkpoint-v1",
        "flow": t.flow,
        "purchase_id": purchase_id,
        "base_url": ctx.base_url,
        "path": t.path,
        "key": t.key,
        **({"body": t.body} if t.body is not None else {}),
        "payment_signature": header,
        "expected": {
            "network": req["network"],
            "asset": req["asset"],
            "pay_to": req["payTo"],
            "amount": req["amount"],
            "payer": ctx.account.address,
            "nonce": offer.nonce,
            "resource": t.resource,
            "input_sha256": t.input_sha256,
        },
        "offer_receipt": offer.receipt,
        "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
    }
    ctx.store.save(cp)
    ctx.log("checkpoint.saved", purchase_id=purchase_id)
    return cp
