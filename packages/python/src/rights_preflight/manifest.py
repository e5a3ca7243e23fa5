"""One line of a bulk check's manifest (packages/wire/vectors/README.md, "manifest.json"): JSON Lines appended as the
check runs; for a URL the LAST line is its state, so a run killed half-way is resumed by reading it back. No
secret is ever written here: the binding key and the signed payment are only in the encrypted checkpoint store.

    pending     a gate call is about to be paid (its purchase id is known before anything is sent)
    bought      a paid report that verified
    held        paid (or maybe paid) and never a verified report
    not_bought  nothing charged for this URL; reason.code says why
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

FORMAT = "rights-preflight-check-v1"
STATUSES = ("pending", "bought", "held", "not_bought")
CLASSIFICATIONS = (
    "PERMITTED_BY_OBSERVED_DECLARATION",
    "PROHIBITED_BY_OBSERVED_DECLARATION",
    "LICENSE_REQUIRED",
    "NO_MACHINE_READABLE_DECLARATION",
    "CONFLICT",
    "UNKNOWN",
)
DECISIONS = ("ALLOW_DECLARED", "DENY_DECLARED", "LICENSE_REQUIRED", "UNKNOWN")
SUMMARIES = ("NONE_OBSERVED", "CONSISTENT", "RESTRICTED_BY_OTHER_SIGNAL")
FIELDS = (
    "format",
    "url",
    "resource",
    "status",
    "classification",
    "decision",
    "signals_summary",
    "report_file",
    "purchase_id",
    "transaction",
    "charge_micro",
    "reason",
)
_SHA = re.compile(r"^[0-9a-f]{64}$")
_TX = re.compile(r"^0x[0-9a-fA-F]{64}$")
_MICRO = re.compile(r"^(0|[1-9][0-9]{0,29})$")

ManifestLine = dict[str, Any]


def _nullable_str(v: Any, ok: Any = None) -> bool:
    return v is None or (isinstance(v, str) and (ok is None or ok(v)))


def manifest_line_problem(line: Any) -> str | None:
    """Why a value is not a manifest line, or None (extra properties are ignored, as the codec strips them)."""
    if not isinstance(line, dict):
        return "not an object"
    missing = [f for f in FIELDS if f not in line]
    if missing:
        return f"missing {', '.join(missing)}"
    checks = {
        "format": line["format"] == FORMAT,
        "url": isinstance(line["url"], str),
        "resource": _nullable_str(line["resource"]),
        "status": line["status"] in STATUSES,
        "classification": line["classification"] is None or line["classification"] in CLASSIFICATIONS,
        "decision": line["decision"] is None or line["decision"] in DECISIONS,
        "signals_summary": line["signals_summary"] is None or line["signals_summary"] in SUMMARIES,
        "report_file": _nullable_str(line["report_file"]),
        "purchase_id": _nullable_str(line["purchase_id"], _SHA.match),
        "transaction": _nullable_str(line["transaction"], _TX.match),
        "charge_micro": isinstance(line["charge_micro"], str) and bool(_MICRO.match(line["charge_micro"])),
        "reason": line["reason"] is None
        or (
            isinstance(line["reason"], dict)
            and isinstance(line["reason"].get("code"), str)
            and isinstance(line["reason"].get("message"), str)
        ),
    }
    bad = [k for k, ok in checks.items() if not ok]
    return f"invalid {', '.join(bad)}" if bad else None


def decode_manifest_line(text: str) -> ManifestLine:
    line = json.loads(text)
    problem = manifest_line_problem(line)
    if problem:
        raise ValueError(f"not a manifest line: {problem}")
    return {f: line[f] for f in FIELDS}


def manifest_line(url: str, status: str, **fields: Any) -> ManifestLine:
    line: ManifestLine = {f: None for f in FIELDS}
    line.update(format=FORMAT, url=url, status=status, charge_micro="0")
    line.update(fields)
    problem = manifest_line_problem(line)
    if problem:
        raise ValueError(f"not a manifest line: {problem}")
    return line


def read_manifest(path: Path) -> dict[str, ManifestLine]:
    """Each URL's state: its last line. A torn last line (a kill mid-write) is ignored."""
    state: dict[str, ManifestLine] = {}
    if not path.exists():
        return state
    for text in path.read_text("utf-8").splitlines():
        if not text.strip():
            continue
        try:
            line = decode_manifest_line(text)
        except ValueError:
            continue
        state[line["url"]] = line
    return state
