"""The pay step: check the 402 offer, reserve the budget, sign EIP-3009 with exactly the bound nonce, and seal
the checkpoint BEFORE anything is sent, in that order (docs/wire.md §3–§4)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from .binding import bound_nonce
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


@dataclass(frozen=True)
class UpfrontTerms:
    """The offer a payment made before any 402 must match: capabilities ``paid_requests.max_timeout_seconds``
    and ``payment.eip712`` (docs/wire.md §10, "Paid work is not free work")."""

    max_timeout_seconds: int
    eip712_name: str
    eip712_version: str

    @classmethod
    def from_capabilities(cls, caps: dict[str, Any]) -> UpfrontTerms | None:
        """The terms, when the service takes payment on the first request of the gate; else None."""
        paid = caps.get("paid_requests") or {}
        eip712 = (caps.get("payment") or {}).get("eip712") or {}
        skipped = [str(x) for x in paid.get("rate_limits_skipped") or []]
        gate = (caps.get("rate_limits") or {}).get("gate") or {}
        takes = "gate" in skipped or gate.get("path") in skipped
        if not takes or not isinstance(paid.get("max_timeout_seconds"), int) or not eip712.get("name"):
            return None
        return cls(paid["max_timeout_seconds"], str(eip712["name"]), str(eip712.get("version", "")))


def pay_upfront(ctx: Context, t: PaymentTerms, upfront: UpfrontTerms) -> Checkpoint:
    """Pays on the first request, without a 402: the buyer computes the offer the service will make (the pinned
    terms, the published price, the bound nonce), signs it and seals the checkpoint before anything is sent. No
    offer receipt exists: the delivery proof signs the same settlement terms and ``deliver`` checks them."""
    assert t.purchase_id is not None
    amount = int(t.amount)
    ctx.budget.assert_affordable(amount)
    requirements = {
        "scheme": "exact",
        "network": ctx.pins.network,
        "asset": ctx.pins.asset,
        "payTo": ctx.pins.recipient,
        "amount": t.amount,
        "maxTimeoutSeconds": upfront.max_timeout_seconds,
        "extra": {"name": upfront.eip712_name, "version": upfront.eip712_version},
    }
    nonce = bound_nonce(t.resource, t.key, t.input_sha256)
    offer = CheckedOffer(
        payment_required={"x402Version": 2, "resource": {"url": t.resource}, "accepts": [requirements]},
        requirements=requirements,
        nonce=nonce,
        receipt={},
        expires_at="",
    )
    return _sign_and_keep(ctx, t, offer, t.purchase_id, None)


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
    return _sign_and_keep(ctx, t, offer, purchase_id, offer.receipt)


def _sign_and_keep(
    ctx: Context, t: PaymentTerms, offer: CheckedOffer, purchase_id: str, receipt: dict[str, Any] | None
) -> Checkpoint:
    """Reserves the budget, signs, and seals the checkpoint: in that order, before anything is sent."""
    req = offer.requirements
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
        "offer_receipt": receipt,
        "created_at": datetime.now(UTC).isoformat().replace("+00:00", "Z"),
    }
    ctx.store.save(cp)
    ctx.log("checkpoint.saved", purchase_id=purchase_id)
    return cp
