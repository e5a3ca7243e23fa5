import { getAddress, type Hex } from 'viem';
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { authorizationTypes } from '@x402/evm';
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import { randomBytes } from 'node:crypto';

// A test buyer that signs EIP-3009 authorizations the way an x402 client does, with every field
// overridable so refusal tests can build precisely one wrong thing at a time.

export type PaymentRequiredWire = ReturnType<typeof decodePaymentRequiredHeader>;

export interface PayOverrides {
  nonce?: Hex | 'random';
  to?: Hex;
  value?: string;
  validAfter?: string;
  validBefore?: string;
  network?: string; // changes accepted.network and the EIP-712 chain id
  asset?: Hex; // changes accepted.asset and the verifying contract
  signerKey?: Hex; // sign with another key while claiming `from` = the buyer
  dropExtensions?: boolean;
}

/** An EIP-3009 authorization as it travels (decimal strings), signed as TransferWithAuthorization over `domain`. */
export function signAuthorization(
  signer: PrivateKeyAccount,
  domain: { name: string; version: string; chainId: number; verifyingContract: Hex },
  authorization: { from: Hex; to: Hex; value: string; validAfter: string; validBefore: string; nonce: Hex },
): Promise<Hex> {
  return signer.signTypedData({
    domain,
    types: authorizationTypes,
    primaryType: 'TransferWithAuthorization',
    message: {
      ...authorization,
      value: BigInt(authorization.value),
      validAfter: BigInt(authorization.validAfter),
      validBefore: BigInt(authorization.validBefore),
    },
  });
}

export function boundNonceFrom(pr: PaymentRequiredWire): Hex {
  const ext = pr.extensions?.['service-request-binding'] as { info?: { nonce?: string } } | undefined;
  const nonce = ext?.info?.nonce;
  if (!nonce) throw new Error('offer has no service-request-binding nonce');
  return nonce as Hex;
}

/** Builds a PAYMENT-SIGNATURE header value for the offer in `paymentRequiredHeader`. */
export async function signPayment(buyerKey: Hex, paymentRequiredHeader: string, o: PayOverrides = {}): Promise<string> {
  const pr = decodePaymentRequiredHeader(paymentRequiredHeader);
  const req = pr.accepts[0]!;
  const accepted = {
    ...req,
    ...(o.network ? { network: o.network as typeof req.network } : {}),
    ...(o.asset ? { asset: o.asset } : {}),
  };
  const buyer = privateKeyToAccount(buyerKey);
  const signer = o.signerKey ? privateKeyToAccount(o.signerKey) : buyer;
  const now = Math.floor(Date.now() / 1000);
  const nonce =
    o.nonce === 'random' ? (`0x${randomBytes(32).toString('hex')}` as Hex) : (o.nonce ?? boundNonceFrom(pr));
  const authorization = {
    from: buyer.address,
    to: getAddress(o.to ?? req.payTo),
    value: o.value ?? req.amount,
    validAfter: o.validAfter ?? '0',
    validBefore: o.validBefore ?? String(now + req.maxTimeoutSeconds),
    nonce,
  };
  const signature = await signAuthorization(
    signer,
    {
      name: String(req.extra.name),
      version: String(req.extra.version),
      chainId: Number(accepted.network.split(':')[1]),
      verifyingContract: getAddress(accepted.asset),
    },
    authorization,
  );
  return encodePaymentSignatureHeader({
    x402Version: 2,
    resource: pr.resource,
    accepted,
    payload: { authorization, signature },
    ...(o.dropExtensions ? {} : { extensions: pr.extensions }),
  });
}
