"""What a purchase ends as: delivered (a verified report), unavailable (nothing to buy, nothing charged) or
held (paid, never a report)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from .signals import IngestionHold


@dataclass(frozen=True)
class Unavailable:
    reason: str
    resources: list[str]
    charge_micro: Literal["0"] = "0"
    input_sha256: str | None = None
    signals_preview: dict[str, Any] | None = None
    status: Literal["unavailable"] = "unavailable"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


@dataclass(frozen=True)
class Delivered:
    purchase_id: str
    response: dict[str, Any]
    classifications: list[dict[str, str]]
    ingestion_hold: IngestionHold | None
    transaction: str
    amount_micro: str
    payer: str
    saved: dict[str, Any]
    """What to save for offline ``verify`` (no secrets)."""
    resumed: bool
    status: Literal["delivered"] = "delivered"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "purchase_id": self.purchase_id,
            "classifications": self.classifications,
            "ingestion_hold": self.ingestion_hold,
            "transaction": self.transaction,
            "amount_micro": self.amount_micro,
            "payer": self.payer,
            "resumed": self.resumed,
        }


@dataclass(frozen=True)
class Held:
    reason: str
    purchase_id: str
    transaction: str | None = None
    status: Literal["held"] = "held"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in asdict(self).items() if v is not None}


BuyResult = Delivered | Unavailable | Held


@dataclass
class ResumePolicy:
    attempts: int = 6
    delay_seconds: float = 0.25
    request_timeout_seconds: float = 30.0
