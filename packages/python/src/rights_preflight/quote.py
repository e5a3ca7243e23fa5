"""The quote step: ask the service, then hold the answer to the pins and to the quote the service signed
(docs/wire.md §2). Capabilities are read here too."""

from __future__ import annotations

from typing import Any

from .context import Context, error_of, json_body
from .effects import Flow, Http
from .envelope import verify_envelope
from .errors import BuyerRefused
from .pins import same_address
from .rate_limit import limited
from .results import Unavailable


def capabilities(ctx: Context) -> Flow[dict[str, Any]]:
    res = yield Http("GET", f"{ctx.base_url}/v1/capabilities")
    if res.status != 200:
        raise BuyerRefused("SERVICE_ERROR", f"capabilities answered {res.status}", {"status": res.status})
    return res.json()  # type: ignore[no-any-return]


def settlement_window(ctx: Context) -> Flow[int]:
    """``payment.settlement_window_seconds`` of capabilities, read once per buyer (0 from a service that publishes
    none): an authorization whose validBefore leaves less is refused by the service, uncharged."""
    if ctx.min_validity_seconds is None:
        caps = yield from capabilities(ctx)
        window = (caps.get("payment") or {}).get("settlement_window_seconds")
        ctx.min_validity_seconds = int(window) if isinstance(window, int) else 0
    return ctx.min_validity_seconds


def unavailable_of(q: dict[str, Any], resources: list[str] | None = None) -> Unavailable | None:
    """An answer that sells nothing (``available: false``, charging 0), or None."""
    if q.get("available") is not False:
        return None
    if q.get("charge_micro") != "0":
        raise BuyerRefused("QUOTE_INVALID", "an unavailable answer must charge 0")
    return Unavailable(
        reason=str(q.get("reason", "")),
        resources=resources if resources is not None else [str(q.get("resource", ""))],
        input_sha256=q.get("input_sha256"),
        signals_preview=q.get("signals_preview"),
    )


def check_available_quote(ctx: Context, q: dict[str, Any]) -> None:
    """The terms are the pinned ones, and the signed quote (by the pinned key) says the same."""
    pins = ctx.pins
    p = q.get("payment")
    sq = q.get("signed_quote")
    needed = ("purchase_id", "report_url", "claim_token", "resource", "input_sha256", "charge_micro", "purpose", "tier")
    if not isinstance(p, dict) or not isinstance(sq, dict) or not all(isinstance(q.get(k), str) for k in needed):
        raise BuyerRefused("QUOTE_INVALID", "quote answer does not match AvailableQuote")
    if p.get("network") != pins.network:
        raise BuyerRefused("NETWORK_MISMATCH", f"quoted network {p.get('network')} is not the pinned {pins.network}")
    if not same_address(str(p.get("asset")), pins.asset):
        raise BuyerRefused("ASSET_MISMATCH", "quoted asset is not the pinned asset")
    if not same_address(str(p.get("pay_to")), pins.recipient):
        raise BuyerRefused("RECIPIENT_MISMATCH", f"quoted recipient {p.get('pay_to')} is not the pinned recipient")
    if p.get("amount") != q["charge_micro"]:
        raise BuyerRefused("QUOTE_MISMATCH", "quoted payment amount differs from charge_micro")
    s = sq.get("payload")
    if not isinstance(s, dict) or s.get("type") != "quote":
        raise BuyerRefused("QUOTE_INVALID", "signed quote payload has the wrong shape")
    if s.get("key_id") != pins.key_id:
        raise BuyerRefused("EVIDENCE_KEY_MISMATCH", f"quote is signed by key {s.get('key_id')}, not the pinned key")
    if not verify_envelope(sq, pins.evidence_key):
        raise BuyerRefused("QUOTE_SIGNATURE_INVALID", "signed quote does not verify with the pinned key")
    if (
        s.get("purchase_id") != q["purchase_id"]
        or s.get("resource") != q["resource"]
        or s.get("input_sha256") != q["input_sha256"]
        or s.get("amount") != q["charge_micro"]
        or not same_address(str(s.get("pay_to")), p["pay_to"])
        or not same_address(str(s.get("asset")), p["asset"])
        or s.get("network") != p["network"]
        or s.get("purpose") != q["purpose"]
        or s.get("tier") != q["tier"]
    ):
        raise BuyerRefused("QUOTE_MISMATCH", "signed quote differs from the quote answer")


def quote(
    ctx: Context,
    resource: str,
    purpose: str,
    tier: str = "fresh",
    user_class: str | None = None,
    max_total_micro: int | None = None,
) -> Flow[dict[str, Any]]:
    """POST /v1/rights/quote; an available answer is checked before it is returned (its claim is a secret)."""
    budget = ctx.budget.remaining() if max_total_micro is None else max_total_micro
    ctx.budget.assert_not_exhausted(budget)
    body: dict[str, Any] = {"resource": resource, "purpose": purpose, "tier": tier}
    if user_class:
        body["user_class"] = user_class
    body["max_total_micro"] = str(budget)
    ctx.log("quote", resource=resource, purpose=purpose, tier=tier, max_total_micro=str(budget))
    res = yield from limited(
        ctx, Http("POST", f"{ctx.base_url}/v1/rights/quote", {"content-type": "application/json"}, json_body(body))
    )
    if res.status != 200:
        code, message = error_of(res)
        if code == "PRICE_EXCEEDS_BUDGET":
            bound = ctx.budget.task_bound()
            raise BuyerRefused(
                "TASK_BUDGET_EXHAUSTED" if bound else "PRICE_ABOVE_REPORT_BUDGET",
                f"the price exceeds {'the remaining task budget' if bound else 'the per-report cap'} ({budget})",
            )
        raise BuyerRefused("SERVICE_ERROR", f"quote refused: {code} {message}", {"status": res.status, "code": code})
    q = res.json()
    if not isinstance(q, dict):
        raise BuyerRefused("QUOTE_INVALID", "quote answer is not an object")
    if unavailable_of(q) is not None:
        ctx.log("quote.unavailable", resource=q.get("resource"), reason=q.get("reason"))
        return q
    check_available_quote(ctx, q)
    ctx.log("quote.ok", purchase_id=q["purchase_id"], charge_micro=q["charge_micro"])
    return q
