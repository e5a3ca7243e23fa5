"""The checks a buyer makes on a 402 offer BEFORE signing anything (docs/wire.md §3): the pins, the price,
the EIP-712 domain, the signed offer receipt, and the nonce recomputed from the request. Any mismatch raises
:class:`BuyerRefused` with its own code; nothing is signed, nothing is checkpointed. Pure."""

from __future__ import annotations

import base64
import json
import time
from dataclasses import dataclass
from datetime import datetime
from typing import Any, NoReturn

from pydantic import ValidationError
from x402.schemas.payments import PaymentRequired

from .binding import bound_nonce
from .envelope import verify_envelope
from .errors import BuyerRefused, RefusalCode
from .pins import Pins, same_address

# USDC's EIP-712 domain on the networks the service sells on (the token contract's own name and version).
USDC_EIP712 = {"eip155:8453": ("USD Coin", "2"), "eip155:84532": ("USDC", "2")}

OFFER_RECEIPT_FIELDS = {
    "type": str,
    "purchase_id": str,
    "resource_url": str,
    "resource": str,
    "input_sha256": str,
    "scheme": str,
    "network": str,
    "asset": str,
    "pay_to": str,
    "amount": str,
    "nonce": str,
    "max_timeout_seconds": int,
    "expires_at": str,
    "issued_at": str,
    "key_id": str,
}


def _refuse(code: RefusalCode, message: str) -> NoReturn:
    raise BuyerRefused(code, message)


@dataclass(frozen=True)
class OfferExpectation:
    amount: str
    """The quoted charge (quote flow) or the published price the buyer computed (gate, revalidate)."""
    max_per_report: int
    resource: str
    input_sha256: str
    key: str
    """The binding key (claim token or X-Service-Request value). Never leaves the check."""
    purchase_id: str | None = None


@dataclass(frozen=True)
class CheckedOffer:
    payment_required: dict[str, Any]
    """The decoded PAYMENT-REQUIRED JSON, verbatim (``accepts[0]`` is echoed unchanged as ``accepted``)."""
    requirements: dict[str, Any]
    nonce: str
    receipt: dict[str, Any]
    expires_at: str


def decode_header_json(header: str) -> Any:
    return json.loads(base64.b64decode(header, validate=True).decode("utf-8"))


def receipt_payload_problem(p: Any) -> str | None:
    if not isinstance(p, dict) or p.get("type") != "offer-receipt":
        return "offer receipt payload has the wrong shape"
    for name, kind in OFFER_RECEIPT_FIELDS.items():
        if not isinstance(p.get(name), kind) or isinstance(p.get(name), bool):
            return "offer receipt payload has the wrong shape"
    return None


def _expired(iso: str, now: float) -> bool:
    try:
        return datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() <= now
    except ValueError:
        return True


def check_offer(header: str | None, pins: Pins, x: OfferExpectation, now: float | None = None) -> CheckedOffer:
    now = time.time() if now is None else now
    if not header:
        _refuse("OFFER_MISSING", "the 402 carries no PAYMENT-REQUIRED header")
    try:
        pr = decode_header_json(header)
        # The x402 package's wire type checks the shape; the raw JSON is what is echoed.
        PaymentRequired.model_validate(pr)
    except (ValueError, ValidationError, UnicodeDecodeError):
        _refuse("OFFER_INVALID", "PAYMENT-REQUIRED is not base64 of an x402 v2 PaymentRequired")
    if pr.get("x402Version") != 2:
        _refuse("OFFER_INVALID", "the offer is not x402 version 2")
    accepts = pr["accepts"]
    if len(accepts) != 1:
        _refuse("OFFER_INVALID", f"expected exactly one payment option, got {len(accepts)}")
    req = accepts[0]
    if req["scheme"] != "exact":
        _refuse("SCHEME_MISMATCH", f"scheme {req['scheme']} is not exact")
    if req["network"] != pins.network:
        _refuse("NETWORK_MISMATCH", f"offer network {req['network']} is not the pinned {pins.network}")
    if not same_address(req["asset"], pins.asset):
        _refuse("ASSET_MISMATCH", f"offer asset {req['asset']} is not the pinned asset")
    if not same_address(req["payTo"], pins.recipient):
        _refuse("RECIPIENT_MISMATCH", f"offer recipient {req['payTo']} is not the pinned recipient")
    if not str(req["amount"]).isdigit():
        _refuse("OFFER_INVALID", "offer amount is not an integer")
    if int(req["amount"]) > x.max_per_report:
        _refuse(
            "PRICE_ABOVE_REPORT_BUDGET", f"offer amount {req['amount']} exceeds the per-report cap {x.max_per_report}"
        )
    if req["amount"] != x.amount:
        _refuse("PRICE_MISMATCH", f"offer amount {req['amount']} is not the quoted {x.amount}")
    extra = req.get("extra") or {}
    if not isinstance(extra.get("name"), str) or not isinstance(extra.get("version"), str):
        _refuse("EIP712_DOMAIN_MISMATCH", "offer lacks the EIP-712 name/version")
    known = USDC_EIP712.get(req["network"])
    if known and (extra["name"], extra["version"]) != known:
        _refuse("EIP712_DOMAIN_MISMATCH", "offer EIP-712 domain is not USDC's on this network")

    ext = pr.get("extensions") or {}
    receipt = ((ext.get("service-offer-receipt") or {}).get("info") or {}).get("receipt")
    if not isinstance(receipt, dict):
        _refuse("OFFER_RECEIPT_INVALID", "offer has no service-offer-receipt")
    r = receipt.get("payload")
    problem = receipt_payload_problem(r)
    if problem:
        _refuse("OFFER_RECEIPT_INVALID", problem)
    assert isinstance(r, dict)
    if r["key_id"] != pins.key_id:
        _refuse("EVIDENCE_KEY_MISMATCH", f"offer receipt is signed by key {r['key_id']}, not the pinned key")
    if not verify_envelope(receipt, pins.evidence_key):
        _refuse("OFFER_RECEIPT_INVALID", "offer receipt signature does not verify with the pinned key")
    if (
        r["network"] != req["network"]
        or not same_address(r["asset"], req["asset"])
        or not same_address(r["pay_to"], req["payTo"])
        or r["amount"] != req["amount"]
        or r["max_timeout_seconds"] != req["maxTimeoutSeconds"]
    ):
        _refuse("OFFER_RECEIPT_MISMATCH", "signed offer receipt differs from the payment option")
    if x.purchase_id is not None and r["purchase_id"] != x.purchase_id:
        _refuse("OFFER_RECEIPT_MISMATCH", "offer receipt is for another purchase")
    if r["resource"] != x.resource or r["input_sha256"] != x.input_sha256:
        _refuse("OFFER_RECEIPT_MISMATCH", "offer receipt is for another resource or input")
    if _expired(r["expires_at"], now):
        _refuse("OFFER_RECEIPT_MISMATCH", "offer has expired")

    info = (ext.get("service-request-binding") or {}).get("info")
    if not isinstance(info, dict) or not isinstance(info.get("nonce"), str):
        _refuse("BINDING_MISMATCH", "offer has no service-request-binding")
    mine = bound_nonce(x.resource, x.key, x.input_sha256)
    if info["nonce"].lower() != mine:
        _refuse("BINDING_MISMATCH", "offered nonce is not the one recomputed from this request")
    if r["nonce"].lower() != mine:
        _refuse("BINDING_MISMATCH", "signed offer receipt names another nonce")
    if info.get("resource") != x.resource or info.get("input_sha256") != x.input_sha256:
        _refuse("BINDING_MISMATCH", "binding extension names another resource or input")
    return CheckedOffer(payment_required=pr, requirements=req, nonce=mine, receipt=receipt, expires_at=r["expires_at"])
