"""The question a gate or revalidation request asks, in the one form both sides digest (docs/wire.md §8, §14),
and the published prices (micro-USDC). Resources are sent as the caller spelled them: they must already be
canonical (the service proves it with its URL rule)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .binding import input_sha256

SINGLE_REPORT_PRICE = {"fresh": 20_000, "deep": 50_000}
GATE_BASE_PRICE = {"fresh": 40_000, "deep": 60_000}
GATE_PER_URL_PRICE = {"fresh": 20_000, "deep": 40_000}
REVALIDATE_PER_URL_PRICE = {"fresh": 10_000, "deep": 25_000}

REPORT_PURPOSES = ("ai-input", "ai-index", "ai-train", "search")
GATE_PURPOSES = (*REPORT_PURPOSES, "rag-ingestion", "summarization", "training", "search-indexing")
PURPOSE_TOKENS: dict[str, tuple[str, ...]] = {
    **{p: (p,) for p in REPORT_PURPOSES},
    "rag-ingestion": ("ai-input", "ai-index"),
    "summarization": ("ai-input",),
    "training": ("ai-train",),
    "search-indexing": ("search",),
}


def gate_price(tier: str, unique_urls: int) -> int:
    return GATE_BASE_PRICE[tier] + GATE_PER_URL_PRICE[tier] * unique_urls


def revalidation_price(tier: str, checkpoints: int) -> int:
    return REVALIDATE_PER_URL_PRICE[tier] * checkpoints


@dataclass(frozen=True)
class GateInput:
    body: dict[str, Any]
    input_sha256: str
    price_micro: int


def gate_input(
    resources: list[str],
    purpose: str,
    *,
    user_class: str | None = None,
    geo: str | None = None,
    freshness_seconds: int | None = None,
    tier: str | None = None,
) -> GateInput:
    """Defaults applied, duplicates removed keeping first appearance; ``max_total_micro`` is not part of it."""
    unique = list(dict.fromkeys(resources))
    chosen_tier = tier or "fresh"
    body: dict[str, Any] = {
        "resources": unique,
        "purpose": purpose,
        "user_class": user_class or "commercial",
        "geo": geo,
        "freshness_seconds": 300 if freshness_seconds is None else freshness_seconds,
        "tier": chosen_tier,
    }
    digest = input_sha256({"type": "http", "method": "POST", "bodyType": "json", "body": body})
    return GateInput(body, digest, gate_price(chosen_tier, len(unique)))


def revalidation_input(checkpoints: list[Any], tier: str = "fresh") -> GateInput:
    body = {"checkpoints": list(checkpoints), "tier": tier}
    digest = input_sha256({"type": "http", "method": "POST", "bodyType": "json", "body": body})
    return GateInput(body, digest, revalidation_price(tier, len(checkpoints)))
