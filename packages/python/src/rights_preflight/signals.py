"""The AI-use signals beside RSL in a paid report (docs/wire.md §15) as the buyer reads them: checked against
the signed evidence, shown by ``verify``, and the reason ingestion is held by default when another standard
restricts what RSL says. Pure."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from .canonical import digest_of
from .gate_input import PURPOSE_TOKENS


class VerifiedSignals(TypedDict):
    resource: str
    signals_summary: str | None
    signals: list[dict[str, Any]]


class IngestionHold(TypedDict):
    reason: str
    resources: list[dict[str, Any]]


def signals_of_report(resources: list[dict[str, Any]]) -> list[VerifiedSignals]:
    return [
        {"resource": r["resource"], "signals_summary": r.get("signals_summary"), "signals": r.get("signals") or []}
        for r in resources
    ]


def signals_disagree(r: dict[str, Any], e: dict[str, Any]) -> bool:
    """The report's signals and summary are not the ones the evidence signs."""
    if r.get("signals_summary") != e.get("signals_summary"):
        return True
    reading = e.get("reading")
    theirs = reading.get("signals") if isinstance(reading, dict) else None
    return digest_of(r.get("signals")) != digest_of(theirs)


def ingestion_hold(signals: list[VerifiedSignals], enabled: bool = True) -> IngestionHold | None:
    """Held when some resource's summary is RESTRICTED_BY_OTHER_SIGNAL; None is never a permission."""
    if not enabled:
        return None
    restricted = [s for s in signals if s["signals_summary"] == "RESTRICTED_BY_OTHER_SIGNAL"]
    if not restricted:
        return None
    return {
        "reason": "RESTRICTED_BY_OTHER_SIGNAL",
        "resources": [
            {"resource": s["resource"], "standards": list(dict.fromkeys(o.get("standard") for o in s["signals"]))}
            for s in restricted
        ],
    }


def describe_signals(purpose: str, signals: list[VerifiedSignals]) -> list[str]:
    """``verify``'s lines: per resource its summary, then each observation's reading of the purpose's tokens."""
    tokens = set(PURPOSE_TOKENS.get(purpose, (purpose,)))
    lines: list[str] = []
    for s in signals:
        if s["signals_summary"] is None:
            lines.append(f"{s['resource']}: signals beside RSL not recorded (delivered before the service read them)")
            continue
        lines.append(f"{s['resource']}: signals beside RSL {s['signals_summary']}")
        for o in s["signals"]:
            read = "; ".join(
                f"{r['token']} {r['verdict']} ({r['rule']})" for r in o.get("readings", []) if r.get("token") in tokens
            )
            lines.append(
                f"  {o.get('standard')} {o.get('channel')} {o.get('url')} sha256 {o.get('sha256')}: "
                f"{json.dumps(o.get('statement'), ensure_ascii=False)} → {read}"
            )
    return lines
