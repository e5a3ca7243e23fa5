"""The service-aware x402 buyer, with a sync face (:class:`Buyer`, ``httpx.Client``) and an async face
(:class:`AsyncBuyer`, ``httpx.AsyncClient``) over one logic core (./flows.py run by ./effects.py).

quote → 402 offer → every check (pins, caps, signed receipt, recomputed binding nonce) → sign EIP-3009 with
exactly the bound nonce → ENCRYPTED checkpoint → send → verify → delivered | held.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from eth_account.signers.local import LocalAccount

from . import flows
from .budget import TaskBudget
from .checkpoint_store import CheckpointStore, memory_checkpoint_store
from .context import Context, LogEvent
from .effects import Flow, run_async, run_sync
from .pins import Pins
from .quote import capabilities, quote
from .results import BuyResult, ResumePolicy
from .signing import account_of


class _Core:
    """The settled options and the flows, shared by both faces; a face only says how effects are run."""

    def __init__(
        self,
        base_url: str,
        account: str | LocalAccount,
        pins: Pins,
        *,
        max_per_report_micro: int = 50_000,
        max_per_task_micro: int = 50_000,
        checkpoint_store: CheckpointStore | None = None,
        public_url: str | None = None,
        hold_on_other_signals: bool = True,
        min_validity_seconds: int | None = None,
        resume: ResumePolicy | None = None,
        log: Callable[[LogEvent], None] | None = None,
    ) -> None:
        base = base_url.rstrip("/")
        self.ctx = Context(
            base_url=base,
            public_url=(public_url or base).rstrip("/"),
            account=account_of(account),
            pins=pins,
            budget=TaskBudget(max_per_report_micro, max_per_task_micro),
            store=checkpoint_store if checkpoint_store is not None else memory_checkpoint_store(),
            resume=resume or ResumePolicy(),
            hold_on_other_signals=hold_on_other_signals,
            min_validity_seconds=min_validity_seconds,
            logger=log,
        )

    @property
    def address(self) -> str:
        return str(self.ctx.account.address)

    @property
    def spent_micro(self) -> int:
        return self.ctx.budget.spent

    # Each flow, named once; the faces below run them.
    def _capabilities(self) -> Flow[dict[str, Any]]:
        return capabilities(self.ctx)

    def _quote(self, resource: str, purpose: str, tier: str = "fresh", **kw: Any) -> Flow[dict[str, Any]]:
        return quote(self.ctx, resource, purpose, tier, **kw)

    def _buy_report(
        self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
    ) -> Flow[BuyResult]:
        return flows.buy_report(self.ctx, resource, purpose, tier, user_class)

    def _preflight(
        self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
    ) -> Flow[BuyResult]:
        return flows.preflight(self.ctx, resource, purpose, tier, user_class)

    def _ingestion_gate(self, resources: list[str], purpose: str, **kw: Any) -> Flow[BuyResult]:
        return flows.ingestion_gate(self.ctx, resources, purpose, **kw)

    def _revalidate(self, checkpoints: list[Any], tier: str = "fresh") -> Flow[BuyResult]:
        return flows.revalidate(self.ctx, checkpoints, tier)

    def _resume(self, purchase_id: str) -> Flow[BuyResult]:
        return flows.resume(self.ctx, purchase_id)

    def _request_refund(self, purchase_id: str, reason: str, message: str | None = None) -> Flow[dict[str, Any]]:
        claims = getattr(self.ctx.store, "claims", None)
        kept = claims.load(purchase_id) if claims is not None else self.ctx.store.load(purchase_id)
        if kept is None:
            from .errors import BuyerRefused

            raise BuyerRefused("CHECKPOINT_MISSING", "no claim kept for this purchase")
        return flows.request_refund(self.ctx.base_url, kept["key"], purchase_id, reason, message)


class Buyer(_Core):
    """Synchronous buyer::

    buyer = Buyer(url, private_key, Pins.from_env(env))
    result = buyer.buy_report("https://open.demo.example/articles/climate", "ai-input")
    """

    def __init__(self, *a: Any, client: httpx.Client | None = None, verify: Any = True, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.client = client or httpx.Client(verify=verify, timeout=60.0)

    def _run(self, flow: Flow[Any]) -> Any:
        return run_sync(flow, self.client)

    def capabilities(self) -> dict[str, Any]:
        return self._run(self._capabilities())  # type: ignore[no-any-return]

    def quote(self, resource: str, purpose: str, tier: str = "fresh", **kw: Any) -> dict[str, Any]:
        return self._run(self._quote(resource, purpose, tier, **kw))  # type: ignore[no-any-return]

    def buy_report(self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None) -> BuyResult:
        return self._run(self._buy_report(resource, purpose, tier, user_class))  # type: ignore[no-any-return]

    def preflight(self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None) -> BuyResult:
        return self._run(self._preflight(resource, purpose, tier, user_class))  # type: ignore[no-any-return]

    def ingestion_gate(self, resources: list[str], purpose: str, **kw: Any) -> BuyResult:
        return self._run(self._ingestion_gate(resources, purpose, **kw))  # type: ignore[no-any-return]

    def revalidate(self, checkpoints: list[Any], tier: str = "fresh") -> BuyResult:
        return self._run(self._revalidate(checkpoints, tier))  # type: ignore[no-any-return]

    def resume(self, purchase_id: str) -> BuyResult:
        return self._run(self._resume(purchase_id))  # type: ignore[no-any-return]

    def request_refund(self, purchase_id: str, reason: str, message: str | None = None) -> dict[str, Any]:
        return self._run(self._request_refund(purchase_id, reason, message))  # type: ignore[no-any-return]

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> Buyer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class AsyncBuyer(_Core):
    """Asynchronous buyer: the same flows, awaited."""

    def __init__(self, *a: Any, client: httpx.AsyncClient | None = None, verify: Any = True, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.client = client or httpx.AsyncClient(verify=verify, timeout=60.0)

    async def _run(self, flow: Flow[Any]) -> Any:
        return await run_async(flow, self.client)

    async def capabilities(self) -> dict[str, Any]:
        return await self._run(self._capabilities())  # type: ignore[no-any-return]

    async def quote(self, resource: str, purpose: str, tier: str = "fresh", **kw: Any) -> dict[str, Any]:
        return await self._run(self._quote(resource, purpose, tier, **kw))  # type: ignore[no-any-return]

    async def buy_report(
        self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
    ) -> BuyResult:
        return await self._run(self._buy_report(resource, purpose, tier, user_class))  # type: ignore[no-any-return]

    async def preflight(
        self, resource: str, purpose: str, tier: str = "fresh", user_class: str | None = None
    ) -> BuyResult:
        return await self._run(self._preflight(resource, purpose, tier, user_class))  # type: ignore[no-any-return]

    async def ingestion_gate(self, resources: list[str], purpose: str, **kw: Any) -> BuyResult:
        return await self._run(self._ingestion_gate(resources, purpose, **kw))  # type: ignore[no-any-return]

    async def revalidate(self, checkpoints: list[Any], tier: str = "fresh") -> BuyResult:
        return await self._run(self._revalidate(checkpoints, tier))  # type: ignore[no-any-return]

    async def resume(self, purchase_id: str) -> BuyResult:
        return await self._run(self._resume(purchase_id))  # type: ignore[no-any-return]

    async def request_refund(self, purchase_id: str, reason: str, message: str | None = None) -> dict[str, Any]:
        return await self._run(self._request_refund(purchase_id, reason, message))  # type: ignore[no-any-return]

    async def aclose(self) -> None:
        await self.client.aclose()

    async def __aenter__(self) -> AsyncBuyer:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
