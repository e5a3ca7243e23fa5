"""The request binding (docs/wire.md §3, §8): the EIP-3009 nonce a buyer signs is derived from the request,
so one authorization can only ever pay for the one report it was made for.

    nonce = "0x6163717075627631" + sha256hex(JCS({version, resource, key, input_sha256}))[0:48]

>>> bound_nonce("https://pub.example/articles/one", "a" * 64,
...             "60daf9d88020aebbe621d1883302fe1cdfedbbe0fffe7b78d09e45ba3866837e")[:18]
'0x6163717075627631'
"""

from __future__ import annotations

import re
from typing import Any

from .canonical import digest_of, sha256_hex

NONCE_PREFIX = "0x6163717075627631"
BINDING_VERSION = "service-request-v1"
SINGLE_REPORT_SKU = "rights.preflight.v1"
GATE_SKU = "rights.ingestion-gate.v1"
REVALIDATE_SKU = "rights.revalidate.v1"
GATE_PATH = "/v1/rights/ingestion-gate"
REVALIDATE_PATH = "/v1/rights/revalidate"

_BOUND = re.compile(r"^0x[0-9a-f]{64}$")


def input_sha256(normalized_input: Any) -> str:
    """sha256hex(JCS(normalized input)): the digest both sides bind."""
    return digest_of(normalized_input)


def bound_nonce(resource: str, key: str, input_digest: str) -> str:
    """The nonce the service offers for (resource, binding key, input digest), lowercase 0x hex."""
    d = digest_of({"version": BINDING_VERSION, "resource": resource, "key": key, "input_sha256": input_digest})
    return NONCE_PREFIX + d[:48]


def looks_bound(nonce: str) -> bool:
    """Whether a nonce has the binding's shape at all (a random-nonce client almost never makes one)."""
    n = nonce.lower()
    return n.startswith(NONCE_PREFIX) and bool(_BOUND.match(n))


def purchase_id(sku: str, key: str, input_digest: str) -> str:
    """sha256hex(JCS({sku, key_sha256, input_sha256})): the id of the purchase a key-bound request makes."""
    return digest_of({"sku": sku, "key_sha256": sha256_hex(key), "input_sha256": input_digest})
