"""The buyer's checkpoint: the exact signed PAYMENT-SIGNATURE header and what is needed to resend it, sealed
with AES-256-GCM and persisted BEFORE the payment leaves the process, so an ambiguous outcome is resumed with
the same authorization and never re-signed. Stores hold sealed boxes only; the AAD binds a box to its
purchase id. The box is the TypeScript buyer's (``{alg:'A256GCM', iv, ciphertext}``, base64url; ciphertext =
encrypted bytes ‖ 16-byte tag; packages/wire/vectors/checkpoint-seal.json), with the same fields and file layout.

>>> import os
>>> store = memory_checkpoint_store()
>>> store.save({"purchase_id": "ab" * 32, "key": "secret"})
>>> store.load("ab" * 32)["key"]
'secret'
"""

from __future__ import annotations

import base64
import json
import os
import re
import tempfile
from pathlib import Path
from typing import Any, Protocol

from cryptography.hazmat.primitives.ciphers.aead import AESGCM

A256GCM = "A256GCM"
_ID = re.compile(r"^[0-9a-f]{64}$")

Checkpoint = dict[str, Any]
SealedBox = dict[str, str]


def _b64url(b: bytes) -> str:
    return base64.urlsafe_b64encode(b).rstrip(b"=").decode("ascii")


def _unb64url(s: str) -> bytes:
    return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


def checkpoint_aad(purchase_id: str) -> bytes:
    return f"buyer-checkpoint-v1:{purchase_id}".encode()


def seal(key32: bytes, plaintext: bytes, aad: bytes) -> SealedBox:
    """A fresh random 96-bit IV per seal (NIST SP 800-38D §8.2.2)."""
    iv = os.urandom(12)
    return {"alg": A256GCM, "iv": _b64url(iv), "ciphertext": _b64url(AESGCM(key32).encrypt(iv, plaintext, aad))}


def open_box(key32: bytes, box: SealedBox, aad: bytes) -> bytes:
    if box.get("alg") != A256GCM:
        raise ValueError("not an A256GCM sealed value")
    return AESGCM(key32).decrypt(_unb64url(box["iv"]), _unb64url(box["ciphertext"]), aad)


class BoxStore(Protocol):
    def put(self, id: str, box: SealedBox) -> None: ...
    def get(self, id: str) -> SealedBox | None: ...
    def delete(self, id: str) -> None: ...
    def list(self) -> list[str]: ...


class CheckpointStore(Protocol):
    def save(self, cp: Checkpoint) -> None: ...
    def load(self, purchase_id: str) -> Checkpoint | None: ...
    def remove(self, purchase_id: str) -> None: ...
    def ids(self) -> list[str]: ...


class EncryptedCheckpointStore:
    """Seals every checkpoint under ``key32`` before handing it to ``boxes``."""

    def __init__(self, key32: bytes, boxes: BoxStore) -> None:
        if len(key32) != 32:
            raise ValueError("the checkpoint key is 32 bytes")
        self._key = bytes(key32)
        self.boxes = boxes

    def save(self, cp: Checkpoint) -> None:
        pid = cp["purchase_id"]
        self.boxes.put(pid, seal(self._key, json.dumps(cp).encode(), checkpoint_aad(pid)))

    def load(self, purchase_id: str) -> Checkpoint | None:
        box = self.boxes.get(purchase_id)
        if box is None:
            return None
        return json.loads(open_box(self._key, box, checkpoint_aad(purchase_id)))  # type: ignore[no-any-return]

    def remove(self, purchase_id: str) -> None:
        self.boxes.delete(purchase_id)

    def ids(self) -> list[str]:
        return self.boxes.list()


class MemoryBoxStore:
    """Sealed boxes in memory: still encrypted, a heap dump shows ciphertext only."""

    def __init__(self) -> None:
        self.boxes: dict[str, SealedBox] = {}

    def put(self, id: str, box: SealedBox) -> None:
        self.boxes[id] = dict(box)

    def get(self, id: str) -> SealedBox | None:
        b = self.boxes.get(id)
        return dict(b) if b else None

    def delete(self, id: str) -> None:
        self.boxes.pop(id, None)

    def list(self) -> list[str]:
        return list(self.boxes)


class FileBoxStore:
    """One sealed box per purchase in ``directory`` (0700), each written atomically: temp file 0600 → fsync →
    rename → fsync of the directory. ``put`` is durable when it returns."""

    def __init__(self, directory: str | os.PathLike[str]) -> None:
        self.dir = Path(directory)

    def _file(self, id: str) -> Path:
        if not _ID.match(id):
            raise ValueError("a checkpoint id is a 64-hex purchase id")
        return self.dir / f"{id}.json"

    def put(self, id: str, box: SealedBox) -> None:
        self.dir.mkdir(mode=0o700, parents=True, exist_ok=True)
        target = self._file(id)
        fd, tmp = tempfile.mkstemp(prefix=f"{id}.", suffix=".tmp", dir=self.dir)
        try:
            os.fchmod(fd, 0o600)
            os.write(fd, json.dumps(box).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, target)
        try:
            d = os.open(self.dir, os.O_RDONLY)
            try:
                os.fsync(d)
            finally:
                os.close(d)
        except OSError:
            pass  # some filesystems cannot fsync a directory

    def get(self, id: str) -> SealedBox | None:
        try:
            box = json.loads(self._file(id).read_text("utf-8"))
        except FileNotFoundError:
            return None
        if not isinstance(box, dict) or box.get("alg") != A256GCM:
            raise ValueError("checkpoint file is not a sealed box")
        return box

    def delete(self, id: str) -> None:
        self._file(id).unlink(missing_ok=True)

    def list(self) -> list[str]:
        try:
            return [p.name[:64] for p in self.dir.iterdir() if re.match(r"^[0-9a-f]{64}\.json$", p.name)]
        except FileNotFoundError:
            return []


class ClaimKeepingStore:
    """Also keeps, in a second encrypted store, each purchase's claim (its binding key) after delivery removed
    the checkpoint: it authorizes a refund request later. The used payment signature is not kept."""

    def __init__(self, checkpoints: CheckpointStore, claims: CheckpointStore) -> None:
        self.checkpoints = checkpoints
        self.claims = claims

    def save(self, cp: Checkpoint) -> None:
        self.claims.save({**cp, "payment_signature": ""})
        self.checkpoints.save(cp)

    def load(self, purchase_id: str) -> Checkpoint | None:
        return self.checkpoints.load(purchase_id)

    def remove(self, purchase_id: str) -> None:
        self.checkpoints.remove(purchase_id)

    def ids(self) -> list[str]:
        return self.checkpoints.ids()


def memory_checkpoint_store(key32: bytes | None = None) -> EncryptedCheckpointStore:
    return EncryptedCheckpointStore(key32 or os.urandom(32), MemoryBoxStore())


def file_checkpoint_store(directory: str | os.PathLike[str], key32: bytes) -> EncryptedCheckpointStore:
    return EncryptedCheckpointStore(key32, FileBoxStore(directory))


def cli_checkpoint_store(directory: str | os.PathLike[str], key32: bytes) -> ClaimKeepingStore:
    """The CLI's layout (the TypeScript CLI's too): checkpoints in DIR, claims in DIR/claims."""
    return ClaimKeepingStore(
        file_checkpoint_store(directory, key32), file_checkpoint_store(Path(directory) / "claims", key32)
    )
