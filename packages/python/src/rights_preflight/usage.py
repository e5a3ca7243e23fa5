"""What the framework integrations share (./integrations/): may this URL be used for this purpose? Each URL is
answered by a verified ingestion-gate report (through the bulk check, ./bulk.py: up to 4 URLs per call, paced,
with a manifest when given), and a URL is passed on only when that report permits the purpose and no other
standard beside RSL restricts it. Everything else (prohibited, license required, no declaration, unknown, held,
not covered, not checked) is not passed on. Verdicts are kept per URL, so a URL is paid for once per check.

>>> from rights_preflight import Buyer, Pins, read_env_file
>>> env = read_env_file("data/buyer.env")  # doctest: +SKIP
>>> buyer = Buyer(env["RIGHTS_SERVICE_URL"], env["BUYER_PRIVATE_KEY"], Pins.from_env(env),
...               max_per_report_micro=120_000, max_per_task_micro=1_000_000)  # doctest: +SKIP
>>> check = RightsCheck(buyer, "rag-ingestion")  # doctest: +SKIP
>>> check.verdicts(["https://open.demo.example/articles/climate"])  # doctest: +SKIP
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bulk import BATCH, acheck, check
from .buyer import AsyncBuyer, Buyer
from .canonical import digest_of
from .manifest import ManifestLine
from .verify import verify_saved_report

METADATA_KEY = "rights_preflight"


@dataclass(frozen=True)
class Verdict:
    url: str
    purpose: str
    passes: bool
    """True only for a verified report that permits the purpose, nothing beside RSL restricting it."""
    status: str
    """The manifest status (bought, held, not_bought, pending)."""
    classification: str | None = None
    decision: str | None = None
    signals_summary: str | None = None
    purchase_id: str | None = None
    report_sha256: str | None = None
    """sha256hex(JCS(report)) of the signed report: the delivery proof's ``report_sha256``."""
    transaction: str | None = None
    reason: str | None = None

    def metadata(self) -> dict[str, Any]:
        """What goes into a document's metadata: the classification and the signed report's digest."""
        return {
            "url": self.url,
            "purpose": self.purpose,
            "passes": self.passes,
            "status": self.status,
            "classification": self.classification,
            "decision": self.decision,
            "signals_summary": self.signals_summary,
            "purchase_id": self.purchase_id,
            "report_sha256": self.report_sha256,
            "transaction": self.transaction,
            "reason": self.reason,
        }


class RightsCheck:
    """Verdicts for URLs and one purpose, bought with ``buyer`` (a :class:`Buyer` for ``verdicts``, an
    :class:`AsyncBuyer` for ``averdicts``). ``reports`` holds each verified report by purchase id."""

    def __init__(
        self,
        buyer: Buyer | AsyncBuyer,
        purpose: str,
        *,
        tier: str = "fresh",
        manifest: str | None = None,
        hold_on_other_signals: bool = True,
        concurrency: int = 4,
        batch_window: float = 0.05,
    ) -> None:
        self.buyer, self.purpose, self.tier, self.manifest = buyer, purpose, tier, manifest
        self.hold_on_other_signals = hold_on_other_signals
        self.concurrency = concurrency
        self.known: dict[str, Verdict] = {}
        self.reports: dict[str, dict[str, Any]] = {}
        self.batch_window = batch_window
        self._waiting: dict[str, list[asyncio.Future[Verdict]]] = {}
        self._timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    def _verdict(self, url: str, line: ManifestLine | None) -> Verdict:
        if line is None:
            return Verdict(url, self.purpose, False, "not_checked", reason="NOT_CHECKED")
        saved = self.reports.get(line["purchase_id"] or "")
        passes = (
            line["status"] == "bought"
            and line["decision"] == "ALLOW_DECLARED"
            and saved is not None
            and not (self.hold_on_other_signals and line["signals_summary"] == "RESTRICTED_BY_OTHER_SIGNAL")
        )
        reason = (line["reason"] or {}).get("code")
        if line["status"] == "bought" and not passes:
            reason = "RESTRICTED_BY_OTHER_SIGNAL" if line["decision"] == "ALLOW_DECLARED" else line["decision"]
        return Verdict(
            url,
            self.purpose,
            passes,
            line["status"],
            line["classification"],
            line["decision"],
            line["signals_summary"],
            line["purchase_id"],
            digest_of(saved["response"]["report"]) if saved else None,
            line["transaction"],
            reason,
        )

    def _keep(self, urls: list[str], lines: dict[str, ManifestLine], reports: dict[str, dict[str, Any]]) -> None:
        self.reports.update(reports)
        # Bought by an earlier run of the same manifest: its saved report, verified again before it counts.
        for line in lines.values():
            pid, file = line["purchase_id"], line["report_file"]
            if line["status"] == "bought" and pid and pid not in self.reports and file and self.manifest:
                try:
                    saved = json.loads((Path(self.manifest).parent / file).read_text("utf-8"))
                except (OSError, ValueError):
                    continue
                if verify_saved_report(saved, self.buyer.ctx.pins.evidence_key).ok:
                    self.reports[pid] = saved
        for u in urls:
            self.known[u] = self._verdict(u, lines.get(u))

    def _todo(self, urls: Iterable[str]) -> list[str]:
        return [u for u in dict.fromkeys(urls) if u and u not in self.known]

    def verdicts(self, urls: Iterable[str]) -> dict[str, Verdict]:
        urls = list(urls)
        todo = self._todo(urls)
        if todo:
            if not isinstance(self.buyer, Buyer):
                raise TypeError("verdicts needs a Buyer; use averdicts with an AsyncBuyer")
            s = check(self.buyer, todo, self.purpose, tier=self.tier, manifest=self.manifest, by_origin=False)
            self._keep(todo, s.lines, s.reports)
        return {u: self.known.get(u) or self._verdict(u, None) for u in urls}

    async def averdicts(self, urls: Iterable[str]) -> dict[str, Verdict]:
        urls = list(urls)
        todo = self._todo(urls)
        if todo:
            if not isinstance(self.buyer, AsyncBuyer):
                raise TypeError("averdicts needs an AsyncBuyer; use verdicts with a Buyer")
            s = await acheck(
                self.buyer,
                todo,
                self.purpose,
                tier=self.tier,
                manifest=self.manifest,
                concurrency=self.concurrency,
                by_origin=False,
            )
            self._keep(todo, s.lines, s.reports)
        return {u: self.known.get(u) or self._verdict(u, None) for u in urls}

    async def averdict(self, url: str) -> Verdict:
        """One URL's verdict; URLs asked within ``batch_window`` seconds of each other (a crawler's concurrent
        requests) share gate calls of up to 4 URLs instead of paying one call each."""
        if url in self.known:
            return self.known[url]
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Verdict] = loop.create_future()
        self._waiting.setdefault(url, []).append(future)
        if len(self._waiting) >= BATCH:
            self._flush()
        elif self._timer is None:
            self._timer = loop.call_later(self.batch_window, self._flush)
        return await future

    def _flush(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        waiting, self._waiting = self._waiting, {}
        if waiting:
            task = asyncio.ensure_future(self._resolve(waiting))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _resolve(self, waiting: dict[str, list[asyncio.Future[Verdict]]]) -> None:
        try:
            verdicts = await self.averdicts(list(waiting))
        except Exception as e:  # every waiter gets the failure
            for futures in waiting.values():
                for f in futures:
                    if not f.done():
                        f.set_exception(e)
            return
        for url, futures in waiting.items():
            for f in futures:
                if not f.done():
                    f.set_result(verdicts[url])
