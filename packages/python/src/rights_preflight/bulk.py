"""The bulk check (``rights-preflight check``): many URLs, one purpose, bought as ingestion-gate reports of up
to 4 URLs each, with a manifest (./manifest.py) that is both the result and the way to resume.

Per URL, in input order: not an https URL → ``not_bought`` INVALID_URL; origin not covered (from capabilities,
no request) → ``not_bought`` ORIGIN_NOT_COVERED; otherwise it joins a gate call. Per call: its purchase id is
derived from a fresh key and the question, a ``pending`` line is written, then the gate flow runs (sign-in,
intent, checked offer, bound nonce, sealed checkpoint, verified report). Requests are paced by the published
rate limits (./rate_limit.py), so none should be answered 429. A checkpoint is removed only after the call's
lines are written, so a run killed at any point is resumed by running it again: a ``pending`` call with a
checkpoint is resumed with the same authorization (the service answers the stored delivery, nothing is charged
twice); one without a checkpoint was never sent and is asked again.

The sync face runs calls one after another (:func:`check`), the async face ``concurrency`` at a time
(:func:`acheck`); both run the same per-call flow.
"""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from .binding import GATE_SKU, purchase_id
from .buyer import AsyncBuyer, Buyer
from .checkpoint_store import Checkpoint, CheckpointStore, file_checkpoint_store
from .context import Context
from .deliver import deliver
from .effects import Flow, run_async, run_sync
from .errors import BuyerRefused
from .flows import fresh_key, ingestion_gate
from .gate_input import gate_input
from .manifest import ManifestLine, manifest_line, read_manifest
from .pay import UpfrontTerms
from .quote import capabilities
from .rate_limit import Pacer
from .results import BuyResult, Delivered, Held, Unavailable

BATCH = 4
DEFAULT_CONCURRENCY = 16


class _DeferredRemovals:
    """The buyer's store, except that a delivered or refused purchase's checkpoint is removed only once the
    manifest says what became of it (a kill in between then resumes instead of buying again)."""

    def __init__(self, inner: CheckpointStore) -> None:
        self.inner = inner
        self.removed: set[str] = set()

    def save(self, cp: Checkpoint) -> None:
        self.inner.save(cp)

    def load(self, purchase_id: str) -> Checkpoint | None:
        return self.inner.load(purchase_id)

    def remove(self, purchase_id: str) -> None:
        self.removed.add(purchase_id)

    def ids(self) -> list[str]:
        return self.inner.ids()

    def settle(self, purchase_id: str) -> None:
        if purchase_id in self.removed:
            self.removed.discard(purchase_id)
            self.inner.remove(purchase_id)


@dataclass
class CheckSummary:
    urls: int = 0
    bought: int = 0
    held: int = 0
    pending: int = 0
    not_bought: int = 0
    gate_calls: int = 0
    """Gate calls made or resumed by this run."""
    resumed: int = 0
    charged_micro: int = 0
    """The sum of the calls' charges over the whole manifest (distinct purchases)."""
    rate_limited: int = 0
    """429 answers this run was given (each waited out, nothing charged)."""
    budget_micro: int = 0
    lines: dict[str, ManifestLine] = field(default_factory=dict)
    reports: dict[str, dict[str, Any]] = field(default_factory=dict)
    """The saved reports of this run by purchase id (what report_file holds)."""

    def to_dict(self) -> dict[str, Any]:
        """The TypeScript check's summary (``rights-preflight check --json``), field for field."""
        not_bought: dict[str, int] = {}
        classifications: dict[str, int] = {}
        for line in self.lines.values():
            if line["status"] == "not_bought":
                code = (line["reason"] or {}).get("code", "")
                not_bought[code] = not_bought.get(code, 0) + 1
            if line["status"] == "bought" and line["classification"]:
                classifications[line["classification"]] = classifications.get(line["classification"], 0) + 1
        transactions = {line["transaction"] for line in self.lines.values() if line["transaction"]}
        return {
            "urls": self.urls,
            "bought": self.bought,
            "held": self.held,
            "pending": self.pending,
            "not_bought": not_bought,
            "classifications": classifications,
            "gate_calls": self.gate_calls,
            "transactions": len(transactions),
            "spent_micro": str(self.charged_micro),
            "budget_micro": str(self.budget_micro),
            "http_429": self.rate_limited,
            "resumed": self.resumed,
        }


def _origin(url: str) -> str | None:
    try:
        u = urlsplit(url)
        if u.scheme != "https" or not u.hostname:
            return None
        return f"https://{u.hostname.lower()}" + (f":{u.port}" if u.port and u.port != 443 else "")
    except ValueError:
        return None


class CheckRun:
    """One bulk check over one buyer context: the manifest's state, its writes, and the per-call flows."""

    def __init__(
        self,
        ctx: Context,
        purpose: str,
        *,
        tier: str = "fresh",
        manifest: str | os.PathLike[str] | None = None,
        pay_first: bool | None = None,
        by_origin: bool = True,
    ) -> None:
        self.ctx, self.purpose, self.tier = ctx, purpose, tier
        self.by_origin = by_origin
        self.pay_first = pay_first
        self.upfront: UpfrontTerms | None = None
        self.concurrent_per_payer = 0
        self.manifest = Path(manifest) if manifest is not None else None
        self.state: dict[str, ManifestLine] = read_manifest(self.manifest) if self.manifest else {}
        self.summary = CheckSummary()
        self.store = _DeferredRemovals(ctx.store)
        self.wanted: list[str] = []

    # -- the manifest ---------------------------------------------------------------------------------
    def write(self, line: ManifestLine) -> None:
        self.state[line["url"]] = line
        if self.manifest is None:
            return
        self.manifest.parent.mkdir(parents=True, exist_ok=True)
        with open(self.manifest, "a", encoding="utf-8") as f:
            f.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def _save_report(self, pid: str, saved: dict[str, Any]) -> str | None:
        self.summary.reports[pid] = saved
        if self.manifest is None:
            return None
        directory = self.manifest.parent / "reports"
        directory.mkdir(parents=True, exist_ok=True)
        fd = os.open(directory / f"{pid}.json", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(json.dumps(saved, indent=2, ensure_ascii=False) + "\n")
        return f"reports/{pid}.json"

    def _not_bought(self, urls: Iterable[str], code: str, message: str) -> None:
        for u in urls:
            self.write(
                manifest_line(
                    u, "not_bought", resource=u if _origin(u) else None, reason={"code": code, "message": message}
                )
            )

    def record(self, urls: list[str], pid: str, result: BuyResult) -> None:
        """A call's outcome as one line per URL; then (only then) its checkpoint may go."""
        if isinstance(result, Delivered):
            report_file = self._save_report(pid, result.saved)
            resources = result.response["report"]["resources"]
            by_resource = {r["resource"]: r for r in resources}
            for i, u in enumerate(urls):
                r = resources[i] if len(resources) == len(urls) else by_resource.get(u, resources[0])
                c = next(x for x in result.classifications if x["resource"] == r["resource"])
                self.write(
                    manifest_line(
                        u,
                        "bought",
                        resource=r["resource"],
                        classification=c["classification"],
                        decision=c["decision"],
                        signals_summary=r.get("signals_summary"),
                        report_file=report_file,
                        purchase_id=pid,
                        transaction=result.transaction,
                        charge_micro=result.amount_micro,
                    )
                )
        elif isinstance(result, Held):
            for u in urls:
                self.write(
                    manifest_line(
                        u,
                        "held",
                        resource=u,
                        purchase_id=pid,
                        transaction=result.transaction,
                        charge_micro=self.state.get(u, {}).get("charge_micro") or "0",
                        reason={"code": "HELD", "message": result.reason},
                    )
                )
        elif isinstance(result, Unavailable):
            self._not_bought(urls, result.reason, "the service's free answer: nothing to buy, nothing charged")
        self.store.settle(pid)

    # -- the flows ------------------------------------------------------------------------------------
    def call(self, urls: list[str]) -> Flow[None]:
        """One gate call for up to 4 URLs: pending lines, then the gate flow, then its lines."""
        q = gate_input(urls, self.purpose, tier=self.tier)
        try:
            self.ctx.budget.assert_affordable(q.price_micro)
        except BuyerRefused as e:
            self._not_bought(urls, "BUDGET_EXHAUSTED", str(e))
            return
        key = fresh_key()
        pid = purchase_id(GATE_SKU, key, q.input_sha256)
        for u in urls:
            self.write(manifest_line(u, "pending", resource=u, purchase_id=pid, charge_micro=str(q.price_micro)))
        self.summary.gate_calls += 1
        try:
            result = yield from ingestion_gate(
                self.ctx, urls, self.purpose, tier=self.tier, key=key, upfront=self.upfront
            )
        except BuyerRefused as e:
            if e.code == "RESUME_EXHAUSTED":
                # Maybe paid: kept pending with its checkpoint; the next run resumes it.
                return
            code = str(e.details.get("code") or e.code)
            self._not_bought(urls, "BUDGET_EXHAUSTED" if e.code == "TASK_BUDGET_EXHAUSTED" else code, str(e))
            self.store.settle(pid)
            return
        self.record(urls, pid, result)

    def resume(self, pid: str, urls: list[str], cp: Checkpoint) -> Flow[None]:
        self.summary.gate_calls += 1
        self.summary.resumed += 1
        self.ctx.budget.reserve(int(cp["expected"]["amount"]))
        try:
            result = yield from deliver(self.ctx, cp, True)
        except BuyerRefused as e:
            if e.code != "RESUME_EXHAUSTED":
                self._not_bought(urls, str(e.details.get("code") or e.code), str(e))
                self.store.settle(pid)
            return
        self.record(urls, pid, result)

    def plan(self, urls: Iterable[str], covered: set[str]) -> list[Flow[None]]:
        """The flows still to run: pending calls to resume first, then new calls; the free answers written."""
        wanted = list(dict.fromkeys(u.strip() for u in urls if u.strip()))
        self.wanted = wanted
        self.summary.urls = len(wanted)
        pending: dict[str, list[str]] = {}
        for u in wanted:
            line = self.state.get(u)
            if line and line["status"] == "pending" and line["purchase_id"]:
                pending.setdefault(line["purchase_id"], []).append(u)
        flows: list[Flow[None]] = []
        fresh: list[str] = []
        for pid, us in pending.items():
            cp = self.store.load(pid)
            if cp is not None:
                flows.append(self.resume(pid, us, cp))
            else:
                fresh += us  # never sent: nothing was signed before the checkpoint
        for u in wanted:
            line = self.state.get(u)
            if line is None:
                origin = _origin(u)
                if origin is None:
                    self._not_bought([u], "INVALID_URL", "not an https URL")
                elif origin not in covered:
                    self._not_bought([u], "ORIGIN_NOT_COVERED", f"{origin} is not covered by the service")
                else:
                    fresh.append(u)
        # The budget is for the whole manifest: what earlier runs paid (distinct calls) is counted first.
        paid = {
            line["purchase_id"]: int(line["charge_micro"])
            for line in self.state.values()
            if line["status"] in ("bought", "held") and line["purchase_id"]
        }
        self.ctx.budget.count(sum(paid.values()))
        # Calls grouped by origin (one robots.txt and declaration read per call), up to 4 URLs each.
        # Or in input order, which fills calls across origins (fewer transfers: a pipeline's mixed documents).
        groups: dict[str, list[str]] = {}
        for u in dict.fromkeys(fresh):
            groups.setdefault((_origin(u) or "") if self.by_origin else "", []).append(u)
        for us in groups.values():
            flows += [self.call(us[i : i + BATCH]) for i in range(0, len(us), BATCH)]
        return flows

    def prepare(self) -> Flow[set[str]]:
        caps = yield from capabilities(self.ctx)
        if self.ctx.pacer is None:
            self.ctx.pacer = Pacer.from_capabilities(caps)
        # Pay on the first request where the service takes it (None: whenever capabilities say so): no unpaid
        # request, so nothing of the free bucket is spent, and paid requests are bounded by concurrency alone.
        if self.pay_first is not False:
            self.upfront = UpfrontTerms.from_capabilities(caps)
            self.concurrent_per_payer = int((caps.get("paid_requests") or {}).get("concurrent_per_payer") or 0)
        window = (caps.get("payment") or {}).get("settlement_window_seconds")
        if self.ctx.min_validity_seconds is None:
            self.ctx.min_validity_seconds = int(window) if isinstance(window, int) else 0
        return {o.lower() for o in (caps.get("coverage") or {}).get("origins", [])}

    def finish(self, urls_limited_before: int) -> CheckSummary:
        s = self.summary
        s.rate_limited = self.ctx.rate_limited - urls_limited_before
        lines = {u: self.state[u] for u in self.wanted if u in self.state}
        s.lines = lines
        s.bought = sum(1 for line in lines.values() if line["status"] == "bought")
        s.held = sum(1 for line in lines.values() if line["status"] == "held")
        s.not_bought = sum(1 for line in lines.values() if line["status"] == "not_bought")
        s.pending = sum(1 for line in lines.values() if line["status"] == "pending")
        s.budget_micro = self.ctx.budget.max_per_task
        charges = {
            line["purchase_id"]: int(line["charge_micro"])
            for line in lines.values()
            if line["status"] in ("bought", "held") and line["purchase_id"]
        }
        s.charged_micro = sum(charges.values())
        return s


def check(
    buyer: Buyer,
    urls: Iterable[str],
    purpose: str,
    *,
    tier: str = "fresh",
    manifest: str | os.PathLike[str] | None = None,
    pay_first: bool | None = None,
    by_origin: bool = True,
) -> CheckSummary:
    """The bulk check, one gate call after another."""
    ctx = buyer.ctx
    run = CheckRun(ctx, purpose, tier=tier, manifest=manifest, pay_first=pay_first, by_origin=by_origin)
    before, store = ctx.rate_limited, ctx.store
    ctx.store = run.store
    try:
        covered = run_sync(run.prepare(), buyer.client)
        for flow in run.plan(urls, covered):
            run_sync(flow, buyer.client)
    finally:
        ctx.store = store
    return run.finish(before)


async def acheck(
    buyer: AsyncBuyer,
    urls: Iterable[str],
    purpose: str,
    *,
    tier: str = "fresh",
    manifest: str | os.PathLike[str] | None = None,
    concurrency: int = 8,
    pay_first: bool | None = None,
    by_origin: bool = True,
) -> CheckSummary:
    """The bulk check, ``concurrency`` gate calls at a time (the pacer keeps them within the rate limit; paid
    first, within the service's paid requests in progress per payer)."""
    ctx = buyer.ctx
    run = CheckRun(ctx, purpose, tier=tier, manifest=manifest, pay_first=pay_first, by_origin=by_origin)
    before, store = ctx.rate_limited, ctx.store
    ctx.store = run.store

    async def one(flow: Flow[None]) -> None:
        async with gate:
            await run_async(flow, buyer.client)

    try:
        covered = await run_async(run.prepare(), buyer.client)
        if run.concurrent_per_payer and run.upfront is not None:
            concurrency = min(concurrency, run.concurrent_per_payer)
        gate = asyncio.Semaphore(concurrency)
        await asyncio.gather(*(one(f) for f in run.plan(urls, covered)))
    finally:
        ctx.store = store
    return run.finish(before)


def run_check_cli(c: Any) -> int:
    """``rights-preflight check [FILE|-] --purpose P --budget MICRO [--concurrency N] [--manifest FILE]``: the
    TypeScript check's command line (README "Check a crawl"), its manifest, checkpoints and summary."""
    from .cli import UsageError

    a = c.a
    source = a.args[0] if a.args else "-"
    manifest = Path(a.manifest or "rights-check.jsonl").resolve()
    purpose = c.need("--purpose", a.purpose)
    budget_text = a.budget or c.opt("max-per-task", "BUYER_MAX_PER_TASK_MICRO")
    budget = int(c.need("--budget MICRO", budget_text))
    concurrency = int(a.concurrency or DEFAULT_CONCURRENCY)
    if budget <= 0 or concurrency <= 0:
        raise UsageError("--budget and --concurrency are positive integers")
    try:
        text = sys_stdin_or_file(source)
    except OSError as e:
        raise UsageError(f"{source} cannot be read ({e.strerror})") from None
    urls = [u.strip() for u in text.splitlines() if u.strip() and not u.lstrip().startswith("#")]
    checkpoints = Path(a.checkpoint_dir or f"{manifest}.checkpoints")
    buyer = AsyncBuyer(
        c.service,
        c.need("BUYER_PRIVATE_KEY", c.env.get("BUYER_PRIVATE_KEY")),
        c.pins(),
        max_per_report_micro=budget,
        max_per_task_micro=budget,
        checkpoint_store=file_checkpoint_store(checkpoints, c.checkpoint_key()),
        hold_on_other_signals=not a.ignore_other_signals,
        public_url=c.opt("public-url", "RIGHTS_PUBLIC_URL"),
    )

    async def go() -> CheckSummary:
        async with buyer:
            return await acheck(
                buyer, urls, purpose, tier=a.tier or "fresh", manifest=manifest, concurrency=concurrency
            )

    summary = asyncio.run(go())
    c.out({"manifest": str(manifest), **summary.to_dict()})
    return 1 if summary.pending or summary.held else 0


def sys_stdin_or_file(source: str) -> str:
    if source == "-":
        import sys

        return sys.stdin.read()
    return Path(source).read_text("utf-8")
