"""One buyer's settled options, shared by its steps (quote, pay, deliver, the flows): the pins, the budget,
the checkpoint store, the resume policy, and a logger that never throws and is never given a secret."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eth_account.signers.local import LocalAccount

from .binding import GATE_PATH, REVALIDATE_PATH
from .budget import TaskBudget
from .checkpoint_store import CheckpointStore
from .effects import Response
from .pins import Pins
from .results import ResumePolicy

LogEvent = dict[str, Any]


@dataclass
class Context:
    base_url: str
    public_url: str
    account: LocalAccount
    pins: Pins
    budget: TaskBudget
    store: CheckpointStore
    resume: ResumePolicy
    hold_on_other_signals: bool = True
    min_validity_seconds: int | None = None
    """The shortest validity an authorization may have: the service's settlement window (docs/wire.md §4),
    read once from capabilities when None."""
    logger: Callable[[LogEvent], None] | None = None
    pacer: Any = None
    """A rate_limit.Pacer spacing requests to the limited routes, or None."""
    rate_limited: int = 0
    """How many 429 answers this buyer was given (each waited out and resent)."""
    sign_ins: dict[str, tuple[str, float]] = field(default_factory=dict)
    """Gate sign-in proofs by purchase id: (header, signed at)."""

    @property
    def gate_url(self) -> str:
        return self.public_url + GATE_PATH

    @property
    def revalidate_url(self) -> str:
        return self.public_url + REVALIDATE_PATH

    def log(self, step: str, **fields: Any) -> None:
        if self.logger is None:
            return
        try:
            self.logger({"step": step, **{k: v for k, v in fields.items() if v is not None}})
        except Exception:  # a logger never breaks a purchase
            pass


def json_body(value: Any) -> bytes:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def error_of(res: Response) -> tuple[str, str]:
    """The service's ``{error: {code, message}}``, or the HTTP status when the body is not that."""
    try:
        e = res.json().get("error") or {}
        return str(e.get("code") or f"HTTP_{res.status}"), str(e.get("message") or "")
    except (ValueError, AttributeError):
        return f"HTTP_{res.status}", ""
