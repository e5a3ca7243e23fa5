"""The one logic core and its two faces. Every flow of the buyer is a generator that yields what it needs
done (an HTTP exchange, a pause) and is sent the outcome; ``run_sync`` performs it with ``httpx.Client``
and ``run_async`` with ``httpx.AsyncClient``. The buyer's rules are therefore written once.

A transport failure is thrown into the generator as :class:`TransportFailed`, so a flow decides itself
whether an outcome is ambiguous (resend the same payment) or an error.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, TypeVar

import httpx

T = TypeVar("T")


@dataclass(frozen=True)
class Http:
    method: str
    url: str
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes | None = None
    timeout: float | None = None


@dataclass(frozen=True)
class Sleep:
    seconds: float


Effect = Http | Sleep


@dataclass(frozen=True)
class Response:
    status: int
    headers: httpx.Headers
    body: bytes

    def json(self) -> Any:
        import json

        return json.loads(self.body)

    def header(self, name: str) -> str | None:
        value = self.headers.get(name)
        return None if value is None else str(value)


class TransportFailed(Exception):
    """No answer was received (connection error, timeout): the outcome of a sent request is unknown."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


Flow = Generator[Effect, Any, T]


def _request(e: Http) -> dict[str, Any]:
    kw: dict[str, Any] = {"headers": e.headers, "content": e.body}
    if e.timeout is not None:
        kw["timeout"] = e.timeout
    return kw


def _failure(err: Exception) -> TransportFailed:
    return TransportFailed("timeout" if isinstance(err, httpx.TimeoutException) else "network error")


def run_sync(flow: Flow[T], client: httpx.Client) -> T:
    """Runs a flow with a synchronous client."""
    try:
        effect = next(flow)
        while True:
            if isinstance(effect, Sleep):
                time.sleep(effect.seconds)
                effect = flow.send(None)
                continue
            try:
                r = client.request(effect.method, effect.url, **_request(effect))
                outcome: Any = Response(r.status_code, r.headers, r.content)
            except httpx.TransportError as err:
                effect = flow.throw(_failure(err))
                continue
            effect = flow.send(outcome)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def run_async(flow: Flow[T], client: httpx.AsyncClient) -> T:
    """Runs a flow with an asynchronous client."""
    try:
        effect = next(flow)
        while True:
            if isinstance(effect, Sleep):
                await asyncio.sleep(effect.seconds)
                effect = flow.send(None)
                continue
            try:
                r = await client.request(effect.method, effect.url, **_request(effect))
                outcome: Any = Response(r.status_code, r.headers, r.content)
            except httpx.TransportError as err:
                effect = flow.throw(_failure(err))
                continue
            effect = flow.send(outcome)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]
