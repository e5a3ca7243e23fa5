"""Digests over JSON values: sha256 hex of the RFC 8785 (JCS) form, as every ``*_sha256`` of docs/wire.md §8.

>>> digest_of({"b": 1, "a": "x"}) == sha256_hex('{"a":"x","b":1}')
True
"""

from __future__ import annotations

import hashlib
from typing import Any

import rfc8785


def jcs(value: Any) -> bytes:
    """The RFC 8785 canonical form of a JSON value, as UTF-8 bytes."""
    return rfc8785.dumps(value)


def sha256_hex(data: bytes | str) -> str:
    """Lowercase hex sha256; a string is hashed as its UTF-8 bytes."""
    return hashlib.sha256(data.encode("utf-8") if isinstance(data, str) else data).hexdigest()


def digest_of(value: Any) -> str:
    """sha256hex(JCS(value))."""
    return sha256_hex(jcs(value))
