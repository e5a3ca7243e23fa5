"""The ways to buy (docs/wire.md §1–§14), each quote or question → 402 offer → pay → deliver, and resume after a
crash. An outcome that is ambiguous after sending is resumed with the same checkpoint: never re-quoted, never
re-signed. Each is a generator of effects (./effects.py): the sync and async buyers run the same code."""

from __future__ import annotations

import base64
import json
import secrets
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .binding import GATE_PATH, GATE_SKU, REVALIDATE_PATH, REVALIDATE_SKU, SINGLE_REPORT_SKU, input_sha256, purchase_id
from .context import Context, error_of, json_body
from .deliver import deliver, gate_headers
from .effects import Flow, Http, Response
from .errors import BuyerRefused
from .gate_input import GateInput, gate_input, revalidation_input
from .pay import PaymentTerms, UpfrontTerms, pay, pay_upfront
from .quote import quote, settlement_window, unavailable_of
from .rate_limit import limited
from .results import BuyResult
from .verify import verify_checkpoint


def fresh_key() -> str:
    """An X-Service-Request value: 32 random bytes in base64url."""
    return base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode("ascii")


def _unexpected(res: Response, what: str) -> BuyerRefused:
    code, message = error_of(res)
    return BuyerRefused(
        "SERVICE_ERROR", f"{what} {res.status} {code}: {message}".rstrip(": "), {"status": res.status, "code": code}
    )


def buy_report(
    ctx: Context, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
) -> Flow[BuyResult]:
    """The quote flow: quote, then the report URL's 402 offer, pay and deliver."""
    q = yield from quote(ctx, resource, purpose, tier, user_class)
    un = unavailable_of(q)
    if un is not None:
        return un
    ctx.budget.assert_affordable(int(q["charge_micro"]))
    ctx.log("offer", purchase_id=q["purchase_id"])
    res: Response = yield Http("GET", f"{ctx.base_url}{q['report_url']}", {"x-service-claim": q["claim_token"]})
    if res.status != 402:
        raise _unexpected(res, "expected a 402 offer, got")
    yield from settlement_window(ctx)
    cp = pay(
        ctx,
        PaymentTerms(
            flow="quote",
            path=q["report_url"],
            key=q["claim_token"],
            offer_header=res.header("payment-required"),
            amount=q["charge_micro"],
            resource=q["resource"],
            input_sha256=q["input_sha256"],
            purchase_id=q["purchase_id"],
        ),
    )
    return (yield from deliver(ctx, cp, False))


def _offered_resource(header: str | None) -> str:
    try:
        pr = json.loads(base64.b64decode(header or ""))
        return str(pr["extensions"]["service-request-binding"]["info"]["resource"])
    except (ValueError, KeyError, TypeError):
        return ""


def _same_url(a: str, b: str) -> bool:
    try:
        x, y = urlsplit(a), urlsplit(b)
        return urlunsplit(x._replace(fragment="", netloc=x.netloc.lower())) == urlunsplit(
            y._replace(fragment="", netloc=y.netloc.lower())
        )
    except ValueError:
        return False


def preflight(
    ctx: Context, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
) -> Flow[BuyResult]:
    """One POST answered 402 with the offer (the buyer's own X-Service-Request binds the nonce), then pay."""
    key = fresh_key()
    budget = ctx.budget.remaining()
    ctx.budget.assert_not_exhausted(budget)
    uc = user_class or "commercial"
    body = {"resource": resource, "purpose": purpose, "tier": tier, "user_class": uc, "max_total_micro": str(budget)}
    ctx.log("preflight", resource=resource, purpose=purpose, tier=tier)
    res: Response = yield from limited(
        ctx,
        Http(
            "POST",
            f"{ctx.base_url}/v1/rights/preflight",
            {"content-type": "application/json", "x-service-request": key},
            json_body(body),
        ),
    )
    if res.status == 200:
        un = unavailable_of(res.json())
        if un is None:
            raise BuyerRefused(
                "QUOTE_INVALID", "a 200 preflight without payment must be an unavailable answer charging 0"
            )
        return un
    if res.status != 402:
        raise _unexpected(res, "preflight answered")
    details = ((res.json() or {}).get("error") or {}).get("details") or {}
    header = res.header("payment-required")
    # The service canonicalizes the URL; the buyer accepts its spelling only for the same URL, and computes
    # input_sha256 itself from its own request.
    offered = _offered_resource(header)
    if not offered or not _same_url(offered, resource):
        raise BuyerRefused("BINDING_MISMATCH", "the offer binds another resource than the one requested")
    digest = input_sha256(
        {"sku": SINGLE_REPORT_SKU, "resource": offered, "purpose": purpose, "tier": tier, "user_class": uc}
    )
    amount = str(details.get("charge_micro", ""))
    if not amount.isdigit():
        raise BuyerRefused("OFFER_INVALID", "402 body lacks charge_micro")
    yield from settlement_window(ctx)
    cp = pay(
        ctx,
        PaymentTerms(
            flow="preflight",
            path="/v1/rights/preflight",
            key=key,
            offer_header=header,
            amount=amount,
            resource=offered,
            input_sha256=digest,
            body=body,
        ),
    )
    return (yield from deliver(ctx, cp, False))


def ingestion_gate(
    ctx: Context,
    resources: list[str],
    purpose: str,
    *,
    tier: str = "fresh",
    user_class: str | None = None,
    geo: str | None = None,
    freshness_seconds: int | None = None,
    key: str | None = None,
    upfront: UpfrontTerms | None = None,
) -> Flow[BuyResult]:
    """POST /v1/rights/ingestion-gate for 1–4 resources: the buyer computes the question and its digest, signs in as
    the payer over exactly this request, states the payment intent, and pays only the published price. With
    ``upfront`` (capabilities' terms for paying first) the first request already pays: no unpaid request, no
    402, nothing of the free bucket spent (docs/wire.md §10)."""
    q = gate_input(resources, purpose, user_class=user_class, geo=geo, freshness_seconds=freshness_seconds, tier=tier)
    ctx.budget.assert_affordable(q.price_micro)
    key = key or fresh_key()
    pid = purchase_id(GATE_SKU, key, q.input_sha256)
    body = {**q.body, "max_total_micro": str(q.price_micro)}
    ctx.log(
        "gate",
        purchase_id=pid,
        resources=len(q.body["resources"]),
        purpose=purpose,
        tier=q.body["tier"],
        price_micro=str(q.price_micro),
    )
    expected = {"resource": ctx.gate_url, "input_sha256": q.input_sha256, "network": ctx.pins.network}
    try:
        if upfront is not None:
            terms = PaymentTerms(
                flow="gate",
                path=GATE_PATH,
                key=key,
                offer_header=None,
                amount=str(q.price_micro),
                resource=ctx.gate_url,
                input_sha256=q.input_sha256,
                purchase_id=pid,
                body=body,
            )
            yield from settlement_window(ctx)
            return (yield from deliver(ctx, pay_upfront(ctx, terms, upfront), False))
        res: Response = yield from limited(
            ctx,
            Http(
                "POST",
                f"{ctx.base_url}{GATE_PATH}",
                {"content-type": "application/json", **gate_headers(ctx, pid, key, expected)},
                json_body(body),
            ),
        )
        if res.status == 200:
            j = res.json()
            un = unavailable_of(j, [str(r.get("resource")) for r in j.get("resources", []) if isinstance(r, dict)])
            if un is None or un.input_sha256 != q.input_sha256:
                raise BuyerRefused(
                    "QUOTE_INVALID", "a 200 gate answer without payment must be an unavailable answer for this input"
                )
            ctx.log("gate.unavailable", purchase_id=pid, reason=un.reason)
            return un
        return (yield from _pay_offer(ctx, res, "ingestion gate", "gate", GATE_PATH, ctx.gate_url, key, pid, q, body))
    finally:
        ctx.sign_ins.pop(pid, None)


def revalidate(ctx: Context, checkpoints: list[Any], tier: str = "fresh") -> Flow[BuyResult]:
    """POST /v1/rights/revalidate for 1–4 checkpoints, each verified offline under the pinned key first."""
    for i, c in enumerate(checkpoints):
        v = verify_checkpoint(c, ctx.pins.evidence_key)
        if not v.ok:
            raise BuyerRefused("REVALIDATION_CHECKPOINT_INVALID", f"checkpoint {i} does not verify: {v.reason}")
    q = revalidation_input(checkpoints, tier)
    ctx.budget.assert_affordable(q.price_micro)
    key = fresh_key()
    pid = purchase_id(REVALIDATE_SKU, key, q.input_sha256)
    body = {"checkpoints": list(checkpoints), "tier": tier, "max_total_micro": str(q.price_micro)}
    ctx.log("revalidate", purchase_id=pid, checkpoints=len(checkpoints), price_micro=str(q.price_micro))
    res: Response = yield from limited(
        ctx,
        Http(
            "POST",
            f"{ctx.base_url}{REVALIDATE_PATH}",
            {"content-type": "application/json", "x-service-request": key},
            json_body(body),
        ),
    )
    if res.status == 200:
        un = unavailable_of(res.json(), [])
        if un is None or un.input_sha256 != q.input_sha256:
            raise BuyerRefused("QUOTE_INVALID", "a 200 revalidation without payment must be unavailable, charging 0")
        return un
    return (
        yield from _pay_offer(
            ctx, res, "revalidate", "revalidate", REVALIDATE_PATH, ctx.revalidate_url, key, pid, q, body
        )
    )


def _pay_offer(
    ctx: Context,
    res: Response,
    what: str,
    flow: str,
    path: str,
    url: str,
    key: str,
    pid: str,
    q: GateInput,
    body: dict[str, Any],
) -> Flow[BuyResult]:
    """A product paid at its own POST (the gate, revalidation): its 402 offer paid at the quoted price, delivered."""
    if res.status != 402:
        raise _unexpected(res, f"{what} answered")
    yield from settlement_window(ctx)
    cp = pay(
        ctx,
        PaymentTerms(
            flow=flow,
            path=path,
            key=key,
            offer_header=res.header("payment-required"),
            amount=str(q.price_micro),
            resource=url,
            input_sha256=q.input_sha256,
            purchase_id=pid,
            body=body,
        ),
    )
    return (yield from deliver(ctx, cp, False))


def resume(ctx: Context, pid: str) -> Flow[BuyResult]:
    """Resumes a checkpointed purchase (after a crash or RESUME_EXHAUSTED): the same authorization, never a new one."""
    cp = ctx.store.load(pid)
    if cp is None:
        raise BuyerRefused("CHECKPOINT_MISSING", "no checkpoint for this purchase")
    if cp["base_url"] != ctx.base_url:
        raise BuyerRefused("CHECKPOINT_MISSING", "the checkpoint belongs to another service")
    return (yield from deliver(ctx, cp, True))


def request_refund(
    base_url: str, claim: str, pid: str, reason: str, message: str | None = None
) -> Flow[dict[str, Any]]:
    """POST /v1/rights/refund-requests with the purchase's claim: an operator-reviewed record, never a transfer."""
    body: dict[str, Any] = {"purchase_id": pid, "reason": reason, **({"message": message} if message else {})}
    res: Response = yield Http(
        "POST",
        f"{base_url.rstrip('/')}/v1/rights/refund-requests",
        {"content-type": "application/json", "x-service-claim": claim},
        json_body(body),
    )
    if res.status not in (200, 201):
        raise _unexpected(res, "refund request answered")
    return res.json()  # type: ignore[no-any-return]
