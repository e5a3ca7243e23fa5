"""The buyer's typed refusals (stable codes, as the TypeScript buyer's). A refusal is raised BEFORE anything is
signed or, for the after-send codes, on a definitive non-delivery answer; its message never holds a claim
token, a request key, a signature or a checkpoint."""

from __future__ import annotations

from typing import Literal

RefusalCode = Literal[
    "QUOTE_INVALID",
    "QUOTE_SIGNATURE_INVALID",
    "QUOTE_MISMATCH",
    "OFFER_MISSING",
    "OFFER_INVALID",
    "RECIPIENT_MISMATCH",
    "NETWORK_MISMATCH",
    "ASSET_MISMATCH",
    "SCHEME_MISMATCH",
    "EIP712_DOMAIN_MISMATCH",
    "PRICE_MISMATCH",
    "PRICE_ABOVE_REPORT_BUDGET",
    "TASK_BUDGET_EXHAUSTED",
    "OFFER_RECEIPT_INVALID",
    "OFFER_RECEIPT_MISMATCH",
    "BINDING_MISMATCH",
    "EVIDENCE_KEY_MISMATCH",
    "SETTLEMENT_WINDOW_TOO_SHORT",
    "SERVICE_ERROR",
    "PAYMENT_REFUSED",
    "CHECKPOINT_MISSING",
    "RESUME_EXHAUSTED",
    "REVALIDATION_CHECKPOINT_INVALID",
]


class BuyerRefused(Exception):
    """A refusal with a stable ``code``; ``details`` holds statuses and service codes, never a secret."""

    def __init__(self, code: RefusalCode, message: str, details: dict[str, str | int | bool] | None = None):
        super().__init__(f"{code}: {message}")
        self.code: RefusalCode = code
        self.details: dict[str, str | int | bool] = dict(details or {})
