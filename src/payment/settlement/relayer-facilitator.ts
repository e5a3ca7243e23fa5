import {
  concat,
  createWalletClient,
  encodeFunctionData,
  getAddress,
  http,
  isAddressEqual,
  parseEventLogs,
  keccak256,
  BaseError,
  EstimateGasExecutionError,
  ContractFunctionRevertedError,
  WaitForTransactionReceiptTimeoutError,
  type Abi,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { transactionSigner } from './transaction-signer.js';
import { x402Facilitator } from '@x402/core/facilitator';
import type { PaymentPayload, PaymentRequirements, SettleResponse, VerifyResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { chainIdOf } from '../../../packages/buyer/src/wire/payment/x402-constants.js';
import {
  offChainRefusal,
  signedBy,
  transferErrorReason,
  transferEventAbi,
  transferWithAuthorizationCall,
  type Eip3009Payload,
} from './eip3009-transfer.js';
import type { Submission } from './classify.js';
import type { SettleOptions } from './settlement.js';
import { chainClient, firstReceiptAt, pollingFor, type ChainTiming } from './chain-reads.js';
import { createNonceManager } from './nonce-manager.js';
import type { PendingTransactions } from './settlement.js';

// The official x402 facilitator (`x402Facilitator` + the `exact` EVM scheme of @x402/evm) with a viem
// wallet for the relayer key, submitting to RPC_URL (reference/x402.md §3.3). Used in-process by the
// `self` backend and, behind HTTP, by the local facilitator server (ops/devnet/facilitator-server.ts).
//
// Settlements run concurrently (docs/decisions.md, "Settlement at chain speed"): each settle gets its
// own signer, which records what that one settlement handed to the node — the SettleResponse alone
// cannot tell "refused" from "sent, answer lost" — and broadcasts through the account's nonce manager,
// so a settlement waits for its own receipt only, never for the one before it.

export interface RelayerFacilitatorOptions {
  rpcUrl: string;
  relayerPrivateKey: Hex;
  network: string;
  timing?: ChainTiming;
  /** How long settle waits for the receipt before answering settlement_pending (default 60 s). */
  confirmationTimeoutMs?: number;
  /** Called right after the transaction was handed to the node (the after-submit crash point). */
  afterSubmit?: (transaction: Hex) => void;
  /** Re-send a transaction left unmined with higher fees (docs/decisions.md, "Stuck transactions"). */
  bump?: FeeBump;
  /**
   * Whether this process still holds the relayer key's lease (RELAYER_PRIVATE_KEYS pool): asked before
   * each signature, so a process that lost its lease never signs with a key another may have taken.
   */
  holdsKey?: () => boolean;
  /** Called once per replacement broadcast (the relayer replacements counter in /metrics). */
  onReplacement?: () => void;
}

/** SETTLEMENT_BUMP_BLOCKS and SETTLEMENT_MAX_FEE_GWEI (in wei here). */
export interface FeeBump {
  blocks: number;
  maxFeePerGas: bigint;
}

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** A plain ETH transfer: the filler's gas. */
const FILLER_GAS = 21_000n;

export interface RelayerFacilitator {
  /** For verify and /supported; it never broadcasts. */
  facilitator: x402Facilitator;
  relayer: Hex;
  /**
   * The x402 `exact` verify, for the in-process relayer: the payload matches the requirements (network,
   * recipient, amount, window), the EIP-712 signature recovers to the payer (through the memo the service's
   * own check of the same payment filled: recovered-signers.ts), the token is a contract, and the transfer
   * simulated from the relayer succeeds (balance, nonce unused, signature as the token sees it). One
   * eth_call; the SDK's verify repeats the recovery and asks the chain four times (docs/decisions.md, "One
   * walk for a paid redemption").
   */
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /** One settle through the SDK, and what the relayer submitted during exactly that settle. */
  settle(payload: PaymentPayload, requirements: PaymentRequirements, options?: SettleOptions): Promise<Settled>;
  /** Transactions handed to the node whose settle has not answered yet (for /metrics). */
  pending(): PendingTransactions;
}

export interface Settled {
  result: SettleResponse;
  submission: Submission;
  /** The write-ahead hook refused (docs/decisions.md, "Write-ahead submission record"): nothing was sent. */
  writeAheadFailed?: unknown;
  /** The transaction that was mined, when a fee bump replaced the first one. */
  mined?: Hex;
  /** The receipt settle waited for (success): the transfer is read from it, with no second request. */
  receipt?: TransactionReceipt;
  /** Given up at the fee cap (docs/decisions.md, "Fee cap, filler transaction"): nothing of it was mined. */
  stuck?: Stuck;
}

/** A settlement given up at the fee cap: every hash sent for it, its account nonce, and the filler sent there. */
export interface Stuck {
  transactions: Hex[];
  accountNonce: number;
  filler?: Hex;
}

/** What one settle's signer records: its submission, and the hook that writes each transaction ahead. */
interface Track {
  submission: Submission;
  beforeBroadcast?: SettleOptions['beforeBroadcast'];
  writeAheadFailed?: unknown;
  /** What was sent, to re-send it at the same account nonce; every hash sent for it, oldest first. */
  sent?: { to: Hex; data: Hex; gas: bigint; nonce: number; fees: Fees; hashes: Hex[] };
  mined?: Hex;
  receipt?: TransactionReceipt;
  stuck?: Stuck;
}

interface ContractWrite {
  address: Hex;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  dataSuffix?: Hex;
}

export function createRelayerFacilitator(o: RelayerFacilitatorOptions): RelayerFacilitator {
  if (chainIdOf(o.network) === undefined) throw new Error(`not an eip155 network: ${o.network}`);
  const account = privateKeyToAccount(o.relayerPrivateKey);
  const signTransaction = transactionSigner(o.relayerPrivateKey);
  const pub = chainClient(o.rpcUrl, o.network, o.timing);
  const chain = pub.chain!;
  // No transport retries for writes: a retried eth_sendRawTransaction after a lost answer only adds noise.
  const wallet = createWalletClient({ account, chain, transport: http(o.rpcUrl, { retryCount: 0 }) });
  /** Hash → when it was handed to the node, until its settle answers. */
  const inFlight = new Map<Hex, number>();
  const nonces = createNonceManager(() => pub.getTransactionCount({ address: account.address, blockTag: 'pending' }));

  /**
   * Contract code, kept once seen: the token's code is asked for by every verify and does not change. An
   * account without code, or with an EIP-7702 delegation (0xef0100…, which its owner may change), is asked
   * again each time.
   */
  const codes = new Map<string, Hex>();
  async function codeOf(address: Hex): Promise<Hex | undefined> {
    const key = address.toLowerCase();
    const known = codes.get(key);
    if (known) return known;
    const code = await pub.getCode({ address });
    if (code && code !== '0x' && !code.toLowerCase().startsWith('0xef0100') && codes.size < 1_000) codes.set(key, code);
    return code;
  }

  /**
   * Fees for the next block, shared by the settlements signed within half a block of each other (the
   * node's base fee moves once per block): two requests per settlement would otherwise be repeated for
   * every one of them.
   */
  let feeCache: { at: number; value: Promise<Fees> } | undefined;
  function nextBlockFees(): Promise<Fees> {
    const now = Date.now();
    if (feeCache && now - feeCache.at < pollingFor(chain).cacheTime) return feeCache.value;
    const value = pub.estimateFeesPerGas({ chain, type: 'eip1559' });
    feeCache = { at: now, value };
    value.catch(() => {
      if (feeCache?.value === value) feeCache = undefined;
    });
    return value;
  }

  /** Estimate (the node simulates: a doomed call is refused here, unsent), then sign and broadcast. */
  async function submit(to: Hex, data: Hex, track: Track): Promise<Hex> {
    let gas: bigint;
    let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    try {
      [gas, fees] = await Promise.all([pub.estimateGas({ account: account.address, to, data }), nextBlockFees()]);
    } catch (err) {
      // Nothing was signed yet, so nothing was sent, whichever way the node or the RPC failed.
      track.submission = refusedBeforeBroadcast(err)
        ? { stage: 'refused-before-broadcast' }
        : { stage: 'not-submitted' };
      throw err;
    }
    const { hash: transaction, nonce } = await nonces.broadcast({
      prepare: async (nonce) => {
        if (o.holdsKey && !o.holdsKey()) throw new Error('the relayer key lease was lost; not signing');
        const raw = await signTransaction(
          { chainId: chain.id, type: 'eip1559', to, data, gas, nonce, ...fees },
          chain.serializers?.transaction,
        );
        // The hash is known from the signed bytes: it is written ahead before the node sees them.
        const signed = keccak256(raw);
        if (track.beforeBroadcast) {
          try {
            await track.beforeBroadcast({
              transaction: signed,
              relayer: account.address,
              accountNonce: nonce,
              gas,
              maxFeePerGas: fees.maxFeePerGas,
              maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
            });
          } catch (err) {
            track.writeAheadFailed = err;
            throw err;
          }
        }
        return { raw, signed };
      },
      send: async ({ raw, signed }, nonce) => {
        track.submission = { stage: 'unknown' };
        const hash = await wallet.sendRawTransaction({ serializedTransaction: raw });
        if (hash.toLowerCase() !== signed.toLowerCase()) throw new Error('node answered another transaction hash');
        return { hash, nonce };
      },
    });
    track.submission = { stage: 'sent', transaction };
    track.sent = { to, data, gas, nonce, fees, hashes: [transaction] };
    inFlight.set(transaction, Date.now());
    o.afterSubmit?.(transaction);
    return transaction;
  }

  const sign = (t: { to: Hex; data: Hex; gas: bigint; nonce: number; fees: Fees }) =>
    signTransaction(
      { chainId: chain.id, type: 'eip1559', to: t.to, data: t.data, gas: t.gas, nonce: t.nonce, ...t.fees },
      chain.serializers?.transaction,
    );

  /**
   * The receipt of whichever transaction sent for this settlement is mined. Without one after `bump.blocks`
   * blocks, the same transaction is re-sent at the same account nonce with fees at least 12.5% higher (the
   * node's replacement minimum is 10%), written ahead like the first, up to `bump.maxFeePerGas`.
   */
  async function receiptOf(hash: Hex, track: Track, timeoutMs: number): Promise<TransactionReceipt> {
    const sent = track.sent;
    if (!o.bump || !sent || sent.hashes[0] !== hash) {
      const receipt = await firstReceipt([hash], timeoutMs);
      if (!receipt) throw new WaitForTransactionReceiptTimeoutError({ hash });
      return receipt;
    }
    const deadline = Date.now() + timeoutMs;
    const blockMs = chain.blockTime ?? 2_000;
    for (;;) {
      const receipt = await firstReceipt(sent.hashes, Math.min(o.bump.blocks * blockMs, deadline - Date.now()));
      if (receipt) {
        if (receipt.transactionHash !== hash) track.mined = receipt.transactionHash;
        return receipt;
      }
      if (Date.now() >= deadline) throw new WaitForTransactionReceiptTimeoutError({ hash });
      // A refused bump leaves the last one waiting.
      const bumped = await bumpFees(sent, track, o.bump).catch(() => 'refused' as const);
      if (bumped !== 'capped') continue;
      // A refused filler: one of ours may have been mined meanwhile (the node then calls the nonce too low).
      const filler = await fillNonce(sent).catch(() => firstReceipt(sent.hashes, 0));
      if (filler !== undefined && typeof filler !== 'string') {
        if (filler.transactionHash !== hash) track.mined = filler.transactionHash;
        return filler;
      }
      track.stuck = {
        transactions: [...sent.hashes],
        accountNonce: sent.nonce,
        ...(filler ? { filler } : {}),
      };
      throw new WaitForTransactionReceiptTimeoutError({ hash });
    }
  }

  /**
   * The account nonce of a settlement given up at the fee cap, taken by a 0-value transfer from the relayer
   * to itself, so the relayer's later nonces do not wait behind a transaction that may never be mined, and
   * the stuck transfer can no longer be mined (one transaction per account nonce). Its fees are the least
   * the node takes as a replacement (+12.5% on both) or, when higher, what a new transaction pays now: a
   * filler priced below the chain's fee would hold the later nonces just as the stuck one does. It is the
   * one transaction allowed past SETTLEMENT_MAX_FEE_GWEI, at 21 000 gas.
   */
  async function fillNonce(sent: NonNullable<Track['sent']>): Promise<Hex | undefined> {
    if (o.holdsKey && !o.holdsKey()) return undefined; // another instance may sign at this nonce now
    const fees = await replacementFees(sent.fees);
    const raw = await sign({ to: account.address, data: '0x', gas: FILLER_GAS, nonce: sent.nonce, fees });
    const hash = await wallet.sendRawTransaction({ serializedTransaction: raw });
    o.onReplacement?.();
    return hash;
  }

  /** At least +12.5% on both fees (nodes take a replacement at +10%), or the node's fresh estimate if higher. */
  async function replacementFees(last: Fees): Promise<Fees> {
    const up = (x: bigint) => (x * 1125n + 999n) / 1000n;
    const fresh = await pub.estimateFeesPerGas({ chain, type: 'eip1559' }).catch(() => last);
    const maxFeePerGas = atLeast(up(last.maxFeePerGas), fresh.maxFeePerGas);
    const priority = atLeast(up(last.maxPriorityFeePerGas), fresh.maxPriorityFeePerGas);
    return { maxFeePerGas, maxPriorityFeePerGas: atMost(priority, maxFeePerGas) };
  }

  /** The first of `hashes` mined (as CONFIRMATION counts it: chain-reads.ts `receiptAt`) within `withinMs`. */
  const firstReceipt = async (hashes: Hex[], withinMs: number) =>
    (await firstReceiptAt(pub, hashes, withinMs, o.timing?.confirmation))?.receipt;

  async function bumpFees(
    sent: NonNullable<Track['sent']>,
    track: Track,
    bump: FeeBump,
  ): Promise<'sent' | 'capped' | 'not-signed'> {
    const fees = await replacementFees(sent.fees);
    if (fees.maxFeePerGas > bump.maxFeePerGas) return 'capped'; // no replacement the node would take
    if (o.holdsKey && !o.holdsKey()) return 'not-signed'; // the lease is lost: another may sign at this nonce
    const raw = await sign({ ...sent, fees });
    const hash = keccak256(raw);
    await track.beforeBroadcast?.({
      transaction: hash,
      relayer: account.address,
      accountNonce: sent.nonce,
      gas: sent.gas,
      ...fees,
      replaces: sent.hashes.at(-1)!,
    });
    sent.hashes.push(hash);
    sent.fees = fees;
    await wallet.sendRawTransaction({ serializedTransaction: raw });
    o.onReplacement?.();
    return 'sent';
  }

  /**
   * One settlement: the node's gas estimate simulates the transfer (a doomed one is refused unsent), then
   * sign → write ahead → send → wait for this transaction's own receipt. The SDK's settle would first run
   * its whole verify again (a second signature recovery and four chain requests per settlement); the
   * service ran it before the checkpoint, and the simulation re-checks what can have changed since
   * (docs/decisions.md, "One walk for a paid redemption"). The answer has the SDK's SettleResponse shape
   * and reasons, so the classification (classify.ts) is the same for both.
   */
  async function settleAuthorization(
    payload: PaymentPayload,
    requirements: PaymentRequirements,
    track: Track,
  ): Promise<SettleResponse> {
    const { authorization: auth, signature } = payload.payload as unknown as Eip3009Payload;
    const payer = getAddress(auth.from);
    const network = requirements.network;
    const asset = getAddress(requirements.asset);
    let transaction: Hex;
    try {
      transaction = await submit(asset, transferWithAuthorizationCall(auth, signature), track);
    } catch (err) {
      return { success: false, errorReason: transferErrorReason(err), transaction: '', network, payer };
    }
    let receipt: TransactionReceipt;
    try {
      receipt = await receiptOf(transaction, track, o.confirmationTimeoutMs ?? 60_000);
    } catch {
      return { success: false, errorReason: 'settlement_pending', transaction, network, payer };
    }
    const mined = receipt.transactionHash;
    if (receipt.status !== 'success')
      return {
        success: false,
        errorReason: 'invalid_exact_evm_transaction_failed',
        transaction: mined,
        network,
        payer,
      };
    track.receipt = receipt;
    const moved = parseEventLogs({ abi: transferEventAbi, eventName: 'Transfer', logs: receipt.logs }).some(
      (l) =>
        isAddressEqual(l.address, asset) &&
        isAddressEqual(l.args.from, payer) &&
        isAddressEqual(l.args.to, auth.to) &&
        l.args.value === BigInt(auth.value),
    );
    if (!moved)
      return { success: false, errorReason: 'invalid_exact_evm_transfer_event_mismatch', transaction, network, payer };
    return { success: true, transaction, network, payer };
  }

  /** The signer the SDK drives for one settle; what it submits is recorded in `track`. */
  function signerFor(track: Track) {
    return toFacilitatorEvmSigner(
      {
        address: account.address,
        getCode: (a) => codeOf(a.address),
        readContract: (a) => pub.readContract(a as never),
        // An EOA's signature is recovered locally first; only what that does not verify (a smart wallet's
        // ERC-1271 / ERC-6492 signature) costs the deployless validator's eth_call.
        verifyTypedData: (a) => pub.verifyTypedData(a as never),
        async writeContract(a) {
          const w = a as unknown as ContractWrite;
          const call = encodeFunctionData({ abi: w.abi, functionName: w.functionName, args: w.args ?? [] } as never);
          return submit(w.address, w.dataSuffix ? concat([call, w.dataSuffix]) : call, track);
        },
        async sendTransaction(a) {
          return submit(a.to, a.data ?? '0x', track);
        },
        waitForTransactionReceipt: (a) =>
          receiptOf(a.hash, track, (a as { timeout?: number }).timeout ?? o.confirmationTimeoutMs ?? 60_000),
      },
      { confirmationTimeoutMs: o.confirmationTimeoutMs ?? 60_000 },
    );
  }

  // The SDK's scheme verifies (settleAuthorization settles without it). simulateInSettle stays on for
  // the SDK's own settle path, which the signer still serves should a caller use it.
  const schemeFor = (track: Track) => {
    const f = new x402Facilitator();
    f.register(o.network as `${string}:${string}`, new ExactEvmScheme(signerFor(track), { simulateInSettle: true }));
    return f;
  };
  const facilitator = schemeFor({ submission: { stage: 'not-submitted' } });

  return {
    facilitator,
    relayer: account.address,
    async verify(payload, requirements) {
      const { authorization: auth, signature } = payload.payload as unknown as Eip3009Payload;
      const payer = getAddress(auth.from);
      const asset = getAddress(requirements.asset);
      const refused = offChainRefusal(payload, requirements, auth, Math.floor(Date.now() / 1000));
      if (refused) return { isValid: false, invalidReason: refused, payer };
      if (!(await signedBy(auth, signature, requirements, chain.id)))
        return { isValid: false, invalidReason: 'invalid_exact_evm_signature', payer };
      const code = await codeOf(asset);
      if (!code || code === '0x') return { isValid: false, invalidReason: 'asset_not_deployed_contract', payer };
      try {
        await pub.call({ account: account.address, to: asset, data: transferWithAuthorizationCall(auth, signature) });
      } catch (err) {
        const reason = transferErrorReason(err);
        return {
          isValid: false,
          invalidReason:
            reason === 'invalid_exact_evm_transaction_failed'
              ? 'invalid_exact_evm_transaction_simulation_failed'
              : reason,
          payer,
        };
      }
      return { isValid: true, payer };
    },
    async settle(payload, requirements, options = {}) {
      // A facilitator of its own per settle: the submission it records is this settlement's alone, and
      // the SDK's in-memory "pending settlement" cache (which would re-await an earlier call's
      // transaction without a submission of ours) starts empty, so the classification stays exact.
      const track: Track = {
        submission: { stage: 'not-submitted' },
        ...(options.beforeBroadcast ? { beforeBroadcast: options.beforeBroadcast } : {}),
      };
      try {
        const result = await settleAuthorization(payload, requirements, track);
        return {
          result,
          submission: track.submission,
          ...(track.writeAheadFailed !== undefined ? { writeAheadFailed: track.writeAheadFailed } : {}),
          ...(track.mined ? { mined: track.mined } : {}),
          ...(track.receipt ? { receipt: track.receipt } : {}),
          ...(track.stuck ? { stuck: track.stuck } : {}),
        };
      } finally {
        // The first hash is the one counted pending; a replacement keeps that place until the settle answers.
        const first = track.sent?.hashes[0];
        if (first !== undefined) inFlight.delete(first);
      }
    },
    pending() {
      let oldestSentAt: number | undefined;
      for (const at of inFlight.values()) if (oldestSentAt === undefined || at < oldestSentAt) oldestSentAt = at;
      return { count: inFlight.size, oldestSentAt };
    },
  };
}

/** Gas estimation reverted (the node simulated and refused): the transaction was never sent. */
function refusedBeforeBroadcast(err: unknown): boolean {
  if (!(err instanceof BaseError)) return false;
  return Boolean(err.walk((e) => e instanceof EstimateGasExecutionError || e instanceof ContractFunctionRevertedError));
}

/** bigint has no Math.max / Math.min. */
function atLeast(x: bigint, floor: bigint): bigint {
  if (x < floor) return floor;
  return x;
}
function atMost(x: bigint, ceiling: bigint): bigint {
  if (x > ceiling) return ceiling;
  return x;
}
