"""Ed25519 envelopes ``{algorithm, format, payload, signature}`` (docs/wire.md §5, §8): the signature is over
the UTF-8 bytes of JCS(payload); ``key_id`` is the first 16 hex of sha256 of the raw 32-byte public key.
Verification never raises: anything that does not verify is ``False``.
"""

from __future__ import annotations

import re
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .canonical import jcs, sha256_hex

ED25519 = "Ed25519"
EVIDENCE_FORMAT = "service-evidence-v1"
_SIG = re.compile(r"^[0-9a-f]{128}$")
_KEY = re.compile(r"^[0-9a-fA-F]{64}$")


def key_id_of(public_key_hex: str) -> str:
    """The key id of a raw Ed25519 public key given as 64 hex (recomputed, never trusted)."""
    if not _KEY.match(public_key_hex):
        raise ValueError("an Ed25519 public key is 32 bytes as 64 hex characters")
    return sha256_hex(bytes.fromhex(public_key_hex))[:16]


def is_envelope(value: Any) -> bool:
    return (
        isinstance(value, dict)
        and value.get("algorithm") == ED25519
        and value.get("format") == EVIDENCE_FORMAT
        and isinstance(value.get("payload"), dict)
        and isinstance(value.get("signature"), str)
        and bool(_SIG.match(value["signature"]))
    )


def verify_envelope(envelope: Any, public_key_hex: str) -> bool:
    """True when the envelope is well formed, names this key (if it names one) and its signature verifies."""
    if not is_envelope(envelope) or not _KEY.match(public_key_hex):
        return False
    payload = envelope["payload"]
    try:
        if "key_id" in payload and payload["key_id"] != key_id_of(public_key_hex.lower()):
            return False
        message = jcs(payload)
        Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key_hex)).verify(
            bytes.fromhex(envelope["signature"]), message
        )
        return True
    except (InvalidSignature, ValueError, TypeError, OverflowError):
        return False
    except Exception:  # rfc8785 refuses values without a JSON form
        return False
