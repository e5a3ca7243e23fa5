"""``rights-preflight`` (Python): capabilities | quote | buy | gate | revalidate | resume | verify | refund | check.
The TypeScript CLI's commands, flags, environment, files and exit codes (0 ok, 1 refused or failed, 2 usage,
3 ingestion held). Secrets come from the environment only (BUYER_PRIVATE_KEY, BUYER_CHECKPOINT_KEY); nothing
secret is printed.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Mapping, Sequence
from importlib.metadata import version as package_version
from pathlib import Path
from typing import Any

from eth_account import Account

from .buyer import Buyer
from .checkpoint_store import CheckpointStore, cli_checkpoint_store, file_checkpoint_store, memory_checkpoint_store
from .effects import TransportFailed
from .env_file import read_env_file
from .errors import BuyerRefused
from .gate_input import GATE_PURPOSES, REPORT_PURPOSES, gate_price, revalidation_price
from .pins import Pins
from .results import Delivered
from .signals import describe_signals
from .verify import checkpoints_in, verify_checkpoint, verify_saved_report

REFUND_REASONS = ("NOT_DELIVERED", "VERIFICATION_FAILED", "CHARGED_INCORRECTLY", "OTHER")
USAGE = """usage: rights-preflight <command> [options]
  capabilities                       [--service URL]
  quote <resource-url> --purpose P   [--tier fresh|deep] [pins]
  buy <resource-url> --purpose P     [--tier fresh|deep] [--preflight] [--out report.json] [--checkpoint-dir DIR] [pins]
  gate <url> [<url> …] --purpose P   [--tier fresh|deep] [--geo CC] [--out report.json] [--checkpoint-dir DIR] [pins]
  revalidate <report.json|checkpoint.json> […] [--tier fresh|deep] [--out FILE] [pins]
  resume <purchase_id> --checkpoint-dir DIR [pins]   finish an interrupted purchase with its kept authorization
  verify <report.json> --key HEX     [--binding-key K]   offline: signatures, digests, binding, settlement fields
  refund <purchase_id> --reason R    --checkpoint-dir DIR [--message TEXT]
  check [FILE|-] --purpose P --budget MICRO [--concurrency N] [--manifest FILE] [--checkpoint-dir DIR] [pins]
                                     a crawl: gate calls of up to 4 URLs, paid first, resumable from the manifest
  --json, --help, --version, --env-file FILE (KEY=value settings, e.g. data/buyer.env of npm start)
pins (flag or env): --service/RIGHTS_SERVICE_URL --network/BUYER_NETWORK --asset/BUYER_ASSET
  --recipient/BUYER_RECIPIENT --key/BUYER_EVIDENCE_KEY --max-per-report/BUYER_MAX_PER_REPORT_MICRO
  --max-per-task/BUYER_MAX_PER_TASK_MICRO
  --public-url/RIGHTS_PUBLIC_URL: the service's public base URL when --service is another route to it (the gate's
  sign-in proof and payment intent name the public gate URL)
env: BUYER_PRIVATE_KEY (0x…, buy), BUYER_CHECKPOINT_KEY (64 hex, with --checkpoint-dir)"""


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rights-preflight", add_help=False, usage=USAGE)
    p.add_argument("command", nargs="?")
    p.add_argument("args", nargs="*")
    for name in (
        "service",
        "purpose",
        "tier",
        "out",
        "network",
        "asset",
        "recipient",
        "key",
        "max-per-report",
        "max-per-task",
        "checkpoint-dir",
        "binding-key",
        "geo",
        "reason",
        "message",
        "env-file",
        "manifest",
        "budget",
        "concurrency",
        "public-url",
    ):
        p.add_argument(f"--{name}")
    for flag in ("preflight", "ignore-other-signals", "json", "version"):
        p.add_argument(f"--{flag}", action="store_true")
    p.add_argument("-h", "--help", action="store_true")
    return p


class Cli:
    def __init__(self, a: argparse.Namespace, env: Mapping[str, str]) -> None:
        self.a, self.env = a, env

    def need(self, name: str, value: str | None) -> str:
        if not value:
            raise UsageError(f"missing {name}")
        return value

    def opt(self, flag: str, var: str) -> str | None:
        return getattr(self.a, flag.replace("-", "_")) or self.env.get(var)

    @property
    def service(self) -> str:
        return self.need("--service or RIGHTS_SERVICE_URL", self.opt("service", "RIGHTS_SERVICE_URL")).rstrip("/")

    def checkpoint_key(self) -> bytes:
        hexkey = self.need("BUYER_CHECKPOINT_KEY", self.env.get("BUYER_CHECKPOINT_KEY"))
        if not re.fullmatch(r"[0-9a-fA-F]{64}", hexkey):
            raise UsageError("BUYER_CHECKPOINT_KEY must be 64 hex characters")
        return bytes.fromhex(hexkey)

    def store(self) -> CheckpointStore:
        d = self.a.checkpoint_dir
        return cli_checkpoint_store(Path(d).resolve(), self.checkpoint_key()) if d else memory_checkpoint_store()

    def pins(self) -> Pins:
        return Pins(
            self.need("--network or BUYER_NETWORK", self.opt("network", "BUYER_NETWORK")),
            self.need("--asset or BUYER_ASSET", self.opt("asset", "BUYER_ASSET")),
            self.need("--recipient or BUYER_RECIPIENT", self.opt("recipient", "BUYER_RECIPIENT")),
            self.need("--key or BUYER_EVIDENCE_KEY", self.opt("key", "BUYER_EVIDENCE_KEY")),
        )

    def buyer(self, private_key: str | None, cap: int = 50_000, log: bool = False) -> Buyer:
        per_report = int(self.opt("max-per-report", "BUYER_MAX_PER_REPORT_MICRO") or cap)
        per_task = int(self.opt("max-per-task", "BUYER_MAX_PER_TASK_MICRO") or cap)
        return Buyer(
            self.service,
            private_key or Account.create().key.hex(),
            self.pins(),
            max_per_report_micro=per_report,
            max_per_task_micro=per_task,
            checkpoint_store=self.store(),
            hold_on_other_signals=not self.a.ignore_other_signals,
            log=self.log if log else None,
            public_url=self.opt("public-url", "RIGHTS_PUBLIC_URL"),
        )

    def log(self, e: dict[str, Any]) -> None:
        step = e.get("step")
        fields = " ".join(f"{k}={v}" for k, v in e.items() if k != "step")
        print(f"[{step}] {fields}", file=sys.stderr)

    def out(self, value: Any) -> None:
        print(json.dumps(value, indent=2, ensure_ascii=False))


def _check_purpose(cmd: str, a: argparse.Namespace) -> None:
    purposes = GATE_PURPOSES if cmd in ("gate", "check") else REPORT_PURPOSES
    if a.purpose is not None and a.purpose not in purposes:
        raise UsageError(f"invalid --purpose {json.dumps(a.purpose)}: one of {', '.join(purposes)}")
    if a.tier is not None and a.tier not in ("fresh", "deep"):
        raise UsageError(f"invalid --tier {json.dumps(a.tier)}: fresh or deep")
    if cmd == "refund" and a.reason is not None and a.reason not in REFUND_REASONS:
        raise UsageError(f"invalid --reason {json.dumps(a.reason)}: one of {', '.join(REFUND_REASONS)}")


def cmd_capabilities(c: Cli) -> int:
    import httpx

    r = httpx.get(f"{c.service}/v1/capabilities", timeout=30)
    if r.status_code != 200:
        raise BuyerRefused("SERVICE_ERROR", f"capabilities answered HTTP {r.status_code}")
    c.out(r.json())
    return 0


def cmd_quote(c: Cli) -> int:
    with c.buyer(c.env.get("BUYER_PRIVATE_KEY")) as b:
        q = b.quote(
            c.need("<resource-url>", c.a.args[0] if c.a.args else None),
            c.need("--purpose", c.a.purpose),
            c.a.tier or "fresh",
        )
    q.pop("claim_token", None)  # a secret bearer credential: never printed
    c.out(q)
    return 0


def _checkpoints_of_files(files: Sequence[str]) -> list[Any]:
    found: list[Any] = []
    for f in files:
        try:
            value = json.loads(Path(f).read_text("utf-8"))
        except (OSError, ValueError):
            raise UsageError(f"{f} is not readable JSON") from None
        cps = checkpoints_in(value)
        if not cps:
            raise UsageError(f"{f} holds no checkpoint (a report delivered before checkpoints?)")
        found += cps
    return found


def _delivered(c: Cli, r: Any) -> int:
    if not isinstance(r, Delivered):
        c.out(r.to_dict())
        return 0 if r.status == "unavailable" else 1
    # The report was paid for: it is always kept.
    file = c.a.out or f"rights-report-{r.purchase_id[:12]}.json"
    fd = os.open(file, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(json.dumps(r.saved, indent=2, ensure_ascii=False) + "\n")
    print(f"saved the signed report to {Path(file).resolve()}", file=sys.stderr)
    c.out({**{k: v for k, v in r.to_dict().items() if k not in ("payer", "resumed")}, "saved": file})
    if r.ingestion_hold:
        names = ", ".join(x["resource"] for x in r.ingestion_hold["resources"])
        print(f"ingestion held: {r.ingestion_hold['reason']} ({names})", file=sys.stderr)
        return 3
    return 0


def cmd_buy(c: Cli) -> int:
    a = c.a
    key = c.need("BUYER_PRIVATE_KEY", c.env.get("BUYER_PRIVATE_KEY"))
    tier = a.tier or "fresh"
    if a.command == "revalidate":
        cps = _checkpoints_of_files([c.need("<file>", a.args[0] if a.args else None), *a.args[1:]])
        with c.buyer(key, max(50_000, revalidation_price(tier, len(cps))), log=True) as b:
            return _delivered(c, b.revalidate(cps, tier))
    if a.command == "gate":
        urls = [c.need("<url>", a.args[0] if a.args else None), *a.args[1:]]
        cap = max(50_000, gate_price(tier, len(dict.fromkeys(urls))))
        with c.buyer(key, cap, log=True) as b:
            return _delivered(c, b.ingestion_gate(urls, c.need("--purpose", a.purpose), tier=tier, geo=a.geo))
    url = c.need("<resource-url>", a.args[0] if a.args else None)
    with c.buyer(key, log=True) as b:
        flow = b.preflight if a.preflight else b.buy_report
        return _delivered(c, flow(url, c.need("--purpose", a.purpose), tier))


def cmd_resume(c: Cli) -> int:
    pid = c.need("<purchase_id>", c.a.args[0] if c.a.args else None)
    c.need("--checkpoint-dir", c.a.checkpoint_dir)
    with c.buyer(c.need("BUYER_PRIVATE_KEY", c.env.get("BUYER_PRIVATE_KEY")), 10**11, log=True) as b:
        return _delivered(c, b.resume(pid))


def cmd_verify(c: Cli) -> int:
    file = c.need("<report.json>", c.a.args[0] if c.a.args else None)
    pinned = c.need("--key", c.opt("key", "BUYER_EVIDENCE_KEY")).lower()
    try:
        saved = json.loads(Path(file).read_text("utf-8"))
    except (OSError, ValueError):
        print(f"FAIL: {file} is not readable JSON", file=sys.stderr)
        return 1
    if (
        isinstance(saved, dict)
        and isinstance(saved.get("payload"), dict)
        and saved["payload"].get("type") == "checkpoint"
    ):
        kept = verify_checkpoint(saved, pinned)
        if not kept.ok or kept.checkpoint is None:
            print(f"FAIL: {kept.reason}", file=sys.stderr)
            if c.a.json:
                c.out({"ok": False, "reason": kept.reason})
            return 1
        p = kept.checkpoint
        if c.a.json:
            c.out({"ok": True, "checkpoint": p})
        else:
            print(
                f"OK checkpoint of purchase {p['purchase_id']}: {p['resource']} {p['classification']}"
                f" at {p['observed_at']}"
            )
        return 0
    v = verify_saved_report(saved, pinned, c.a.binding_key)
    if not v.ok:
        print(f"FAIL: {v.reason}", file=sys.stderr)
        if c.a.json:
            c.out({"ok": False, "reason": v.reason})
        return 1
    if c.a.json:
        from dataclasses import asdict

        c.out(asdict(v))
        return 0
    shown = ", ".join(f"{x['resource']} {x['classification']}" for x in v.classifications)
    print(f"OK purchase {v.purchase_id}: {shown}; paid {v.amount} by {v.payer} in {v.transaction}")
    for line in describe_signals(v.purpose, v.signals):
        print(line)
    return 0


def cmd_refund(c: Cli) -> int:
    pid = c.need("<purchase_id>", c.a.args[0] if c.a.args else None)
    reason = c.need("--reason", c.a.reason)
    directory = Path(c.need("--checkpoint-dir", c.a.checkpoint_dir)).resolve()
    kept = file_checkpoint_store(directory / "claims", c.checkpoint_key()).load(pid)
    if kept is None:
        raise BuyerRefused("CHECKPOINT_MISSING", f"no claim kept for purchase {pid} in {directory}/claims")
    import httpx

    from .effects import run_sync
    from .flows import request_refund

    with httpx.Client(timeout=60) as client:
        base = c.opt("service", "RIGHTS_SERVICE_URL") or kept["base_url"]
        c.out(run_sync(request_refund(base, kept["key"], pid, reason, c.a.message), client))
    return 0


def cmd_check(c: Cli) -> int:
    from .bulk import run_check_cli

    return run_check_cli(c)


COMMANDS = {
    "capabilities": cmd_capabilities,
    "quote": cmd_quote,
    "buy": cmd_buy,
    "gate": cmd_buy,
    "revalidate": cmd_buy,
    "resume": cmd_resume,
    "verify": cmd_verify,
    "refund": cmd_refund,
    "check": cmd_check,
}


def run(argv: Sequence[str], env: Mapping[str, str]) -> int:
    a, extra = _parser().parse_known_intermixed_args(list(argv))
    as_json = bool(a.json)

    def fail(code: str, message: str, exit_code: int, usage: bool = False) -> int:
        prefix = "" if code == "USAGE" else f"{code} "
        print(f"{message}\n{USAGE}" if usage else f"{prefix}{message}", file=sys.stderr)
        if as_json:
            print(json.dumps({"error": {"code": code, "message": message}}, indent=2))
        return exit_code

    if extra:
        return fail("USAGE", f"unknown option {extra[0]}", 2, True)
    if a.env_file:
        try:
            env = {**read_env_file(a.env_file), **env}
        except OSError as e:
            return fail("USAGE", f"--env-file {a.env_file} cannot be read ({e.strerror})", 2)
    if a.version:
        v = package_version("rights-preflight")
        print(json.dumps({"version": v}) if as_json else v)
        return 0
    if a.help or a.command in (None, "help"):
        print(USAGE)
        return 0 if a.help or a.command == "help" else 2
    if a.command not in COMMANDS:
        return fail("USAGE", f"unknown command {a.command}", 2, True)
    try:
        _check_purpose(a.command, a)
        return COMMANDS[a.command](Cli(a, env))
    except UsageError as e:
        return fail("USAGE", str(e), 2, True)
    except BuyerRefused as e:
        return fail("REFUSED", str(e), 1)
    except TransportFailed as e:
        return fail("ERROR", f"the service could not be reached ({e.reason})", 1)
    except (ValueError, OSError) as e:
        return fail("ERROR", str(e), 1)


def main() -> None:
    sys.exit(run(sys.argv[1:], dict(os.environ)))
