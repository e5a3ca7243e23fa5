"""What a buyer pins before it pays anything: the network, the USDC contract, the service's recipient and its
evidence public key (docs/wire.md §3). ``Pins.from_env`` reads the names ``npm start`` writes to buyer.env."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from .envelope import key_id_of


def same_address(a: str, b: str) -> bool:
    return a.lower() == b.lower()


@dataclass(frozen=True)
class Pins:
    network: str
    asset: str
    recipient: str
    evidence_key: str
    """The raw Ed25519 public key, 64 hex (``/v1/capabilities`` ``evidence.keys[].public_key``)."""

    def __post_init__(self) -> None:
        key = self.evidence_key.lower()
        if not re.fullmatch(r"[0-9a-f]{64}", key):
            raise ValueError("pins.evidence_key must be a 32-byte Ed25519 public key in hex")
        object.__setattr__(self, "evidence_key", key)
        if not re.fullmatch(r"eip155:[0-9]+", self.network):
            raise ValueError(f"pins.network {self.network} is not an eip155 network")

    @property
    def key_id(self) -> str:
        return key_id_of(self.evidence_key)

    @classmethod
    def from_env(cls, env: Mapping[str, str]) -> Pins:
        """BUYER_NETWORK, BUYER_ASSET, BUYER_RECIPIENT, BUYER_EVIDENCE_KEY."""
        missing = [
            n for n in ("BUYER_NETWORK", "BUYER_ASSET", "BUYER_RECIPIENT", "BUYER_EVIDENCE_KEY") if not env.get(n)
        ]
        if missing:
            raise ValueError(f"missing {', '.join(missing)}")
        return cls(env["BUYER_NETWORK"], env["BUYER_ASSET"], env["BUYER_RECIPIENT"], env["BUYER_EVIDENCE_KEY"])
