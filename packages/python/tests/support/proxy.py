"""A real HTTP peer between the buyer and the real service (like test/buyer/support/proxy.ts): it forwards
every request and lets a test alter or swallow answers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx

HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}


@dataclass
class Exchange:
    method: str
    path: str
    headers: dict[str, str]
    status: int
    response_headers: dict[str, str]
    body: bytes

    @property
    def paid(self) -> bool:
        return "payment-signature" in self.headers


Rewrite = Callable[[Exchange], Exchange | None]


class Proxy:
    def __init__(self, target: str) -> None:
        self.target = target.rstrip("/")
        self.rewrite: Rewrite | None = None
        self.hang_after_paid = False
        self.paid_answered = threading.Event()
        self.exchanges: list[Exchange] = []
        self._release = threading.Event()
        proxy = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a: object) -> None:
                pass

            def _forward(self) -> None:
                n = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(n) if n else None
                headers = {k.lower(): v for k, v in self.headers.items() if k.lower() not in HOP | {"host"}}
                r = httpx.request(self.command, proxy.target + self.path, headers=headers, content=body, timeout=120)
                ex = Exchange(
                    self.command,
                    self.path,
                    headers,
                    r.status_code,
                    {k.lower(): v for k, v in r.headers.items() if k.lower() not in HOP},
                    r.content,
                )
                proxy.exchanges.append(ex)
                if ex.paid and r.status_code == 200 and proxy.hang_after_paid:
                    proxy.paid_answered.set()
                    proxy._release.wait(120)  # the answer never reaches the buyer
                    return
                out = (proxy.rewrite(ex) if proxy.rewrite else None) or ex
                self.send_response(out.status)
                for k, v in out.response_headers.items():
                    self.send_header(k, v)
                self.send_header("content-length", str(len(out.body)))
                self.end_headers()
                self.wfile.write(out.body)

            do_GET = do_POST = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self._release.set()
        self.server.shutdown()
        self.server.server_close()
