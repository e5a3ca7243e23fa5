"""Fetches the loopback HTTPS test publishers as a pipeline would fetch the web: the name in the URL, the
connection to the loopback port the launcher names (FETCH_CONNECT_TO's map), its certificate trusted
through the world's CA file."""

from __future__ import annotations

import ssl
from typing import Any
from urllib.parse import urlsplit

import httpx


class Publishers:
    def __init__(self, info: dict[str, Any]) -> None:
        self.ports: dict[str, str] = {}
        for entry in info["connect_to"].split(","):
            host, _, rest = entry.partition(":")
            self.ports[host] = rest  # 127.0.0.1:port
        self.client = httpx.Client(verify=ssl.create_default_context(cafile=info["ca_file"]), timeout=30)

    def get(self, url: str) -> str:
        u = urlsplit(url)
        assert u.hostname is not None
        target = f"https://{self.ports[u.hostname]}{u.path or '/'}"
        r = self.client.get(target, headers={"host": u.hostname}, extensions={"sni_hostname": u.hostname})
        r.raise_for_status()
        return r.text
