"""What the buyer signs: the EIP-3009 ``TransferWithAuthorization`` with the bound nonce (the x402 package's
typed data and signer over an eth-account key), the gate's EIP-4361 sign-in proof (EIP-191) and its payment
intent (docs/wire.md §4, §11)."""

from __future__ import annotations

import base64
import json
from datetime import UTC, datetime
from typing import Any
from urllib.parse import urlsplit

from eth_account import Account
from eth_account.messages import encode_defunct
from eth_account.signers.local import LocalAccount
from eth_utils.address import to_checksum_address
from x402.mechanisms.evm.eip712 import build_typed_data_for_signing
from x402.mechanisms.evm.signers import EthAccountSigner
from x402.mechanisms.evm.types import ExactEIP3009Authorization, TypedDataField

from .binding import NONCE_PREFIX, bound_nonce

PAYMENT_INTENT_VERSION = "service-payment-intent-v1"
SIWX_STATEMENT = (
    "Sign in as the payer of one rights ingestion-gate request (service-siwx-payment-v1). "
    "This is not a payment authorization."
)
SIWX_MAX_AGE_SECONDS = 900


def account_of(key_or_account: str | LocalAccount) -> LocalAccount:
    if isinstance(key_or_account, str):
        return Account.from_key(key_or_account)  # type: ignore[no-any-return]
    return key_or_account


def chain_id_of(network: str) -> int | None:
    if network.startswith("eip155:") and network[7:].isdigit():
        return int(network[7:])
    return None


def b64(text: str) -> str:
    return base64.b64encode(text.encode("utf-8")).decode("ascii")


def sign_transfer_authorization(
    account: LocalAccount,
    *,
    requirements: dict[str, Any],
    nonce: str,
    valid_before: int,
    valid_after: int = 0,
) -> tuple[dict[str, str], str]:
    """The authorization (wire form) and its 0x signature over the token's EIP-712 domain from ``extra``."""
    authorization = ExactEIP3009Authorization(
        from_address=to_checksum_address(account.address),
        to=to_checksum_address(requirements["payTo"]),
        value=str(requirements["amount"]),
        valid_after=str(valid_after),
        valid_before=str(valid_before),
        nonce=nonce,
    )
    chain_id = chain_id_of(requirements["network"])
    if chain_id is None:
        raise ValueError(f"{requirements['network']} is not an eip155 network")
    extra = requirements["extra"]
    domain, types, primary, message = build_typed_data_for_signing(
        authorization, chain_id, to_checksum_address(requirements["asset"]), extra["name"], extra["version"]
    )
    fields = {name: [TypedDataField(name=f["name"], type=f["type"]) for f in fs] for name, fs in types.items()}
    signature = "0x" + EthAccountSigner(account).sign_typed_data(domain, fields, primary, message).hex()
    wire = {
        "from": authorization.from_address,
        "to": authorization.to,
        "value": authorization.value,
        "validAfter": authorization.valid_after,
        "validBefore": authorization.valid_before,
        "nonce": nonce,
    }
    return wire, signature


def payment_intent_header(*, payer: str, resource: str, input_sha256: str, network: str) -> str:
    """X-Service-Payment-Intent: base64 of exactly these five keys."""
    intent = {
        "version": PAYMENT_INTENT_VERSION,
        "payer": payer,
        "resource": resource,
        "input_sha256": input_sha256,
        "network": network,
    }
    return b64(json.dumps(intent, separators=(",", ":")))


def iso_millis(t: datetime) -> str:
    """ISO 8601 UTC with milliseconds, as JavaScript's toISOString (the service re-renders the text from it)."""
    u = t.astimezone(UTC)
    return u.strftime("%Y-%m-%dT%H:%M:%S.") + f"{u.microsecond // 1000:03d}Z"


def siwe_message(
    *,
    domain: str,
    address: str,
    statement: str,
    uri: str,
    chain_id: int,
    nonce: str,
    issued_at: str,
    resources: list[str],
) -> str:
    """The EIP-4361 text for the fields a gate challenge has (no expiration, not-before or request id)."""
    if "\n" in statement:
        raise ValueError("a sign-in statement is one line")
    lines = [
        f"{domain} wants you to sign in with your Ethereum account:",
        address,
        "",
        statement,
        "",
        f"URI: {uri}",
        "Version: 1",
        f"Chain ID: {chain_id}",
        f"Nonce: {nonce}",
        f"Issued At: {issued_at}",
    ]
    if resources:
        lines += ["Resources:", *(f"- {r}" for r in resources)]
    return "\n".join(lines)


def sign_in_with_x(
    account: LocalAccount,
    *,
    gate_url: str,
    key: str,
    input_sha256: str,
    network: str,
    issued_at: datetime | None = None,
) -> dict[str, Any]:
    """The sign-in proof of profile service-siwx-payment-v1 for one gate request, signed with EIP-191."""
    chain_id = chain_id_of(network)
    if chain_id is None:
        raise ValueError(f"{network} is not an eip155 network")
    address = to_checksum_address(account.address)
    issued = iso_millis(issued_at or datetime.now(UTC))
    nonce = bound_nonce(gate_url, key, input_sha256)[len(NONCE_PREFIX) :]
    resources = [gate_url, f"urn:service-request:input-sha256:{input_sha256}"]
    domain = urlsplit(gate_url).netloc
    text = siwe_message(
        domain=domain,
        address=address,
        statement=SIWX_STATEMENT,
        uri=gate_url,
        chain_id=chain_id,
        nonce=nonce,
        issued_at=issued,
        resources=resources,
    )
    signature = "0x" + account.sign_message(encode_defunct(text=text)).signature.hex().removeprefix("0x")
    # The x402 sign-in-with-x payload shape (SiwxProof in /openapi.json).
    return {
        "domain": domain,
        "address": address,
        "statement": SIWX_STATEMENT,
        "uri": gate_url,
        "version": "1",
        "chainId": network,
        "type": "eip191",
        "nonce": nonce,
        "issuedAt": issued,
        "resources": resources,
        "signatureScheme": "eip191",
        "signature": signature,
    }


def sign_in_with_x_header(account: LocalAccount, **binding: Any) -> str:
    return b64(json.dumps(sign_in_with_x(account, **binding), separators=(",", ":")))
