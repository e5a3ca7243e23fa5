"""The Python buyer against the real service, devnet and HTTPS publishers on loopback (one world per
session, tests/conftest.py): buy, verify, resume after a kill, hold, refusal, gate, revalidate, signals."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from rights_preflight import BuyerRefused, Delivered, Held, checkpoints_in, verify_saved_report
from rights_preflight.binding import NONCE_PREFIX
from rights_preflight.offer import decode_header_json
from rights_preflight.signing import b64

from .support.buyers import async_buyer_for, buyer_for
from .support.proxy import Exchange, Proxy

PERMITTED = "https://open.demo.example/articles/climate"
PROHIBITED = "https://closed.demo.example/articles/markets"
UNDECLARED = "https://bare.demo.example/page"


@pytest.fixture
def proxy(world: Any) -> Any:
    p = Proxy(world.url)
    yield p
    p.close()


def test_buy_then_verify_offline_one_transfer_of_the_price(world: Any) -> None:
    events: list[dict[str, Any]] = []
    b = buyer_for(world, events=events)
    before = world.devnet.balance_of(b.address)
    r = b.buy_report(PERMITTED, "ai-input")
    assert isinstance(r, Delivered), r
    assert r.classifications[0]["classification"] == "PERMITTED_BY_OBSERVED_DECLARATION"
    assert r.amount_micro == "20000" and not r.resumed and r.ingestion_hold is None
    assert world.devnet.balance_of(b.address) == before - 20_000
    transfers = world.devnet.transfers(b.address)
    assert [t["transaction"] for t in transfers] == [r.transaction]
    steps = [e["step"] for e in events]
    assert steps.index("checkpoint.saved") < steps.index("send")
    # Nothing secret in the log events: no claim, no key, no signature.
    assert not {"claim_token", "key", "payment_signature", "signature"} & set().union(*events)
    # Offline: the saved report verifies, and one changed byte of its report does not.
    assert verify_saved_report(r.saved, world.pins.evidence_key).ok
    tampered = json.loads(json.dumps(r.saved))
    tampered["response"]["report"]["resources"][0]["classification"] = "PROHIBITED_BY_OBSERVED_DECLARATION"
    v = verify_saved_report(tampered, world.pins.evidence_key)
    assert not v.ok and "report digest" in str(v.reason)
    # Undeclared: nothing to buy, nothing charged.
    u = b.buy_report(UNDECLARED, "ai-input")
    assert u.status == "unavailable" and u.charge_micro == "0"
    assert len(world.devnet.transfers(b.address)) == 1


def test_preflight_binds_the_buyers_own_request_key(world: Any) -> None:
    b = buyer_for(world)
    r = b.preflight("https://open.demo.example/articles/weather", "ai-train")
    assert isinstance(r, Delivered), r
    assert r.classifications[0]["classification"] == "PROHIBITED_BY_OBSERVED_DECLARATION"
    assert r.saved["binding"]["key_source"] == "x-service-request"
    assert len(world.devnet.transfers(b.address)) == 1


def test_cli_killed_between_checkpoint_and_response_resumes_with_one_transfer(
    world: Any, proxy: Proxy, tmp_path: Path
) -> None:
    key = world.buyer_key()
    env = {**os.environ, **world.env(key), "RIGHTS_SERVICE_URL": proxy.url, "BUYER_CHECKPOINT_KEY": "ab" * 32}
    proxy.hang_after_paid = True
    cli = [sys.executable, "-m", "rights_preflight"]
    buy = subprocess.Popen(
        [
            *cli,
            "buy",
            "https://open.demo.example/articles/oceans",
            "--purpose",
            "ai-input",
            "--checkpoint-dir",
            str(tmp_path / "cp"),
            "--out",
            str(tmp_path / "r.json"),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # The service settled and answered; the answer is held back, and the buyer process dies.
    assert proxy.paid_answered.wait(120)
    buy.send_signal(signal.SIGKILL)
    buy.wait()
    ids = [p.name[:64] for p in (tmp_path / "cp").glob("*.json")]
    assert len(ids) == 1  # the sealed checkpoint, written before the payment was sent
    assert "payment_signature" not in (tmp_path / "cp" / f"{ids[0]}.json").read_text()
    from eth_account import Account

    payer = Account.from_key(key).address
    assert len(world.devnet.transfers(payer)) == 1
    proxy.hang_after_paid = False
    done = subprocess.run(
        [*cli, "resume", ids[0], "--checkpoint-dir", str(tmp_path / "cp"), "--out", str(tmp_path / "r.json")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    shown = json.loads(done.stdout)
    assert shown["status"] == "delivered" and shown["purchase_id"] == ids[0]
    assert len(world.devnet.transfers(payer)) == 1
    assert not list((tmp_path / "cp").glob("*.json"))  # removed after the verified delivery
    ok = subprocess.run(
        [*cli, "verify", str(tmp_path / "r.json"), "--key", world.pins.evidence_key],
        capture_output=True,
        text=True,
        env=env,
    )
    assert ok.returncode == 0 and ok.stdout.startswith(
        f"OK purchase {ids[0]}: https://open.demo.example/articles/oceans PERMITTED"
    )
    # The claim was kept (encrypted, in cp/claims): it files a refund request, an operator-reviewed record.
    filed = subprocess.run(
        [*cli, "refund", ids[0], "--reason", "OTHER", "--message", "testing", "--checkpoint-dir", str(tmp_path / "cp")],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert filed.returncode == 0, filed.stderr
    view = json.loads(filed.stdout)
    assert view["purchase_id"] == ids[0] and view["status"] == "requested"
    assert len(world.devnet.transfers(payer)) == 1


def test_a_tampered_paid_report_is_held_never_a_report(world: Any, proxy: Proxy) -> None:
    def flip(ex: Exchange) -> Exchange | None:
        if not ex.paid or ex.status != 200:
            return None
        text = ex.body.decode()
        at = text.index('"detail":"', text.index('"report":')) + len('"detail":"')
        body = bytearray(ex.body)
        body[at] = 0x42 if body[at] == 0x41 else 0x41
        return Exchange(ex.method, ex.path, ex.headers, ex.status, ex.response_headers, bytes(body))

    proxy.rewrite = flip
    b = buyer_for(world, base_url=proxy.url)
    before = world.devnet.balance_of(b.address)
    r = b.buy_report("https://open.demo.example/articles/forests", "ai-input")
    assert isinstance(r, Held), r
    assert "report digest" in r.reason or "differs from the signed evidence" in r.reason
    assert r.transaction and r.transaction.startswith("0x")
    assert world.devnet.balance_of(b.address) == before - 20_000  # paid; the checkpoint is kept for follow-up
    assert b.ctx.store.ids() == [r.purchase_id]


@pytest.mark.parametrize(
    ("what", "edit", "code"),
    [
        ("another recipient", lambda pr: pr["accepts"][0].update(payTo="0x" + "1" * 40), "RECIPIENT_MISMATCH"),
        ("a higher price", lambda pr: pr["accepts"][0].update(amount="30000"), "PRICE_MISMATCH"),
        (
            "an unbound nonce",
            lambda pr: pr["extensions"]["service-request-binding"]["info"].update(nonce=NONCE_PREFIX + "0" * 48),
            "BINDING_MISMATCH",
        ),
        (
            "an altered offer receipt",
            lambda pr: pr["extensions"]["service-offer-receipt"]["info"]["receipt"]["payload"].update(
                max_timeout_seconds=301
            ),
            "OFFER_RECEIPT_INVALID",
        ),
    ],
)
def test_a_mismatched_offer_is_refused_uncharged(world: Any, proxy: Proxy, what: str, edit: Any, code: str) -> None:
    def rewrite(ex: Exchange) -> Exchange | None:
        header = ex.response_headers.get("payment-required")
        if ex.status != 402 or not header:
            return None
        pr = decode_header_json(header)
        edit(pr)
        return Exchange(
            ex.method,
            ex.path,
            ex.headers,
            ex.status,
            {**ex.response_headers, "payment-required": b64(json.dumps(pr))},
            ex.body,
        )

    proxy.rewrite = rewrite
    b = buyer_for(world, base_url=proxy.url)
    before = world.devnet.balance_of(b.address)
    with pytest.raises(BuyerRefused) as e:
        b.buy_report("https://open.demo.example/articles/rivers", "ai-input")
    assert e.value.code == code, what
    assert not any(x.paid for x in proxy.exchanges)  # nothing was signed or sent
    assert b.ctx.store.ids() == [] and b.spent_micro == 0
    assert world.devnet.balance_of(b.address) == before and world.devnet.transfers(b.address) == []


async def test_gate_async_face_signs_in_pays_the_published_price_once(world: Any) -> None:
    b = async_buyer_for(world, cap=80_000)
    async with b:
        r = await b.ingestion_gate([PERMITTED, PROHIBITED], "rag-ingestion")
    assert isinstance(r, Delivered), r
    assert [c["classification"] for c in r.classifications] == [
        "PERMITTED_BY_OBSERVED_DECLARATION",
        "PROHIBITED_BY_OBSERVED_DECLARATION",
    ]
    assert r.amount_micro == "80000"
    assert [t["value"] for t in world.devnet.transfers(b.address)] == [80_000]
    assert verify_saved_report(r.saved, world.pins.evidence_key).ok


def test_revalidate_the_checkpoints_of_a_bought_report(world: Any) -> None:
    b = buyer_for(world)
    r = b.buy_report("https://licensed.demo.example/articles/research", "ai-input")
    assert isinstance(r, Delivered), r
    cps = checkpoints_in(r.saved)
    assert len(cps) == 1
    again = b.revalidate(cps)
    assert isinstance(again, Delivered), again
    res = again.response["report"]["resources"][0]
    assert again.response["report"]["sku"] == "rights.revalidate.v1"
    assert res["previous_classification"] == "LICENSE_REQUIRED" and res["changed"] is False
    assert again.amount_micro == "10000"
    assert [t["value"] for t in world.devnet.transfers(b.address)] == [20_000, 10_000]
    # An altered checkpoint is refused before anything is asked or paid.
    bad = json.loads(json.dumps(cps[0]))
    bad["payload"]["classification"] = "PERMITTED_BY_OBSERVED_DECLARATION"
    with pytest.raises(BuyerRefused) as e:
        b.revalidate([bad])
    assert e.value.code == "REVALIDATION_CHECKPOINT_INVALID"


def test_another_standard_restricting_the_purpose_holds_ingestion(world: Any) -> None:
    b = buyer_for(world)
    r = b.buy_report("https://aipref-header.example/page", "ai-train")
    assert isinstance(r, Delivered), r
    assert r.classifications[0]["classification"] == "PERMITTED_BY_OBSERVED_DECLARATION"
    assert r.ingestion_hold == {
        "reason": "RESTRICTED_BY_OTHER_SIGNAL",
        "resources": [{"resource": "https://aipref-header.example/page", "standards": ["aipref"]}],
    }
    off = buyer_for(world, hold_on_other_signals=False).buy_report("https://aipref-header.example/page", "ai-train")
    assert isinstance(off, Delivered) and off.ingestion_hold is None


def test_an_offer_shorter_than_the_settlement_window_is_not_signed(world: Any) -> None:
    b = buyer_for(world, min_validity_seconds=400)  # the offer's maxTimeoutSeconds is 300
    with pytest.raises(BuyerRefused) as e:
        b.buy_report("https://open.demo.example/articles/climate", "search")
    assert e.value.code == "SETTLEMENT_WINDOW_TOO_SHORT"
    assert b.spent_micro == 0 and b.ctx.store.ids() == [] and world.devnet.transfers(b.address) == []
