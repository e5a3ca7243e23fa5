"""The service's per-address limits (docs/wire.md §10, capabilities ``rate_limits``) kept on the buyer's side: a
pacer that spaces requests to a limited route so none is refused 429, and the rule for a 429 that comes anyway
(it charges nothing: wait Retry-After and send the same request again)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from .effects import Flow, Http, Response, Sleep


class Pacer:
    """A token bucket per limited path, mirroring the service's: ``burst`` requests at once, then
    ``requests_per_minute``. ``wait`` reserves a token and answers how long to wait before sending."""

    def __init__(
        self,
        limits: dict[str, tuple[float, float]],
        clock: Callable[[], float] = time.monotonic,
        paid_free: frozenset[str] = frozenset(),
    ) -> None:
        self._limits = limits
        self._paid_free = paid_free
        self._clock = clock
        self._state: dict[str, tuple[float, float]] = {}
        self._lock = threading.Lock()

    @classmethod
    def from_capabilities(cls, caps: dict[str, Any]) -> Pacer:
        limits: dict[str, tuple[float, float]] = {}
        # Routes where a request that pays for itself spends nothing of the bucket (docs/wire.md §10).
        skipped = {str(x).lower() for x in ((caps.get("paid_requests") or {}).get("rate_limits_skipped") or [])}
        paid_free: set[str] = set()
        for name, r in (caps.get("rate_limits") or {}).items():
            if (
                isinstance(r, dict)
                and isinstance(r.get("path"), str)
                and (name.lower() in skipped or r["path"].lower() in skipped)
            ):
                paid_free.add(r["path"].lower().rstrip("/"))
        for r in (caps.get("rate_limits") or {}).values():
            if isinstance(r, dict) and isinstance(r.get("path"), str):
                # A margin: requests spaced exactly at the refill rate may arrive closer than they left.
                rate = float(r["requests_per_minute"]) / 60.0 * 0.9
                limits[r["path"].lower().rstrip("/")] = (rate, max(1.0, float(r["burst"]) - 1))
        return cls(limits, paid_free=frozenset(paid_free))

    def wait(self, url: str, paid: bool = False) -> float:
        path = urlsplit(url).path.rstrip("/").lower()
        if path not in self._limits or (paid and path in self._paid_free):
            return 0.0
        rate, burst = self._limits[path]
        with self._lock:
            now = self._clock()
            tokens, at = self._state.get(path, (burst, now))
            tokens = min(burst, tokens + (now - at) * rate) - 1
            self._state[path] = (tokens, now)
            return 0.0 if tokens >= 0 else -tokens / rate

    def refused(self, url: str) -> None:
        """A 429 came anyway (another client at this address): the bucket is empty."""
        path = urlsplit(url).path.rstrip("/").lower()
        with self._lock:
            if path in self._limits:
                self._state[path] = (0.0, self._clock())


def retry_after(res: Response) -> float:
    try:
        return max(0.0, float(res.header("retry-after") or 1))
    except ValueError:
        return 1.0


def limited(ctx: Any, request: Http, attempts: int = 6) -> Flow[Response]:
    """Sends ``request`` paced; a 429 is waited out and the same request sent again (it charged nothing)."""
    res: Response | None = None
    for _ in range(attempts):
        if ctx.pacer is not None:
            wait = ctx.pacer.wait(request.url)
            if wait > 0:
                yield Sleep(wait)
        res = yield request
        if res.status != 429:
            return res
        ctx.rate_limited += 1
        if ctx.pacer is not None:
            ctx.pacer.refused(request.url)
        ctx.log("rate-limited", retry_after=retry_after(res))
        yield Sleep(retry_after(res))
    assert res is not None
    return res
