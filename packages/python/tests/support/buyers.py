from __future__ import annotations

from typing import Any

from rights_preflight import AsyncBuyer, Buyer, ResumePolicy


def buyer_for(
    world: Any,
    *,
    base_url: str | None = None,
    key: str | None = None,
    cap: int = 50_000,
    task: int = 1_000_000,
    events: list[dict[str, Any]] | None = None,
    **kw: Any,
) -> Buyer:
    return Buyer(
        base_url or world.url,
        key or world.buyer_key(),
        world.pins,
        max_per_report_micro=cap,
        max_per_task_micro=task,
        resume=ResumePolicy(attempts=5, delay_seconds=0.1),
        log=(events.append if events is not None else None),
        **kw,
    )


def async_buyer_for(world: Any, *, cap: int = 50_000, task: int = 1_000_000, **kw: Any) -> AsyncBuyer:
    return AsyncBuyer(
        world.url,
        world.buyer_key(),
        world.pins,
        max_per_report_micro=cap,
        max_per_task_micro=task,
        resume=ResumePolicy(attempts=5, delay_seconds=0.1),
        **kw,
    )
