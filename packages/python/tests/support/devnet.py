"""Reads of the devnet over JSON-RPC: USDC balances and Transfer logs (the exactly-once checks)."""

from __future__ import annotations

import httpx

TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"


def _topic(address: str) -> str:
    return "0x" + "0" * 24 + address.lower().removeprefix("0x")


class Devnet:
    def __init__(self, rpc_url: str, usdc: str, pay_to: str) -> None:
        self.rpc_url, self.usdc, self.pay_to = rpc_url, usdc, pay_to

    def _call(self, method: str, params: list[object]) -> object:
        r = httpx.post(self.rpc_url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}, timeout=30)
        body = r.json()
        if "error" in body:
            raise RuntimeError(body["error"])
        return body["result"]

    def balance_of(self, address: str) -> int:
        data = "0x70a08231" + "0" * 24 + address.lower().removeprefix("0x")
        return int(str(self._call("eth_call", [{"to": self.usdc, "data": data}, "latest"])), 16)

    def transfers(self, from_address: str, to_address: str | None = None) -> list[dict[str, object]]:
        logs = self._call(
            "eth_getLogs",
            [
                {
                    "address": self.usdc,
                    "fromBlock": "0x0",
                    "toBlock": "latest",
                    "topics": [TRANSFER_TOPIC, _topic(from_address), _topic(to_address or self.pay_to)],
                }
            ],
        )
        assert isinstance(logs, list)
        return [{"transaction": log["transactionHash"], "value": int(log["data"], 16)} for log in logs]
