import {
  createWalletClient,
  http,
  keccak256,
  BaseError,
  EstimateGasExecutionError,
  ContractFunctionRevertedError,
  WaitForTransactionReceiptTimeoutError,
  type Hex,
  type TransactionReceipt,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Submission } from './classify.js';
import type { SettleOptions } from './settlement.js';
import { chainClient, pollingFor, receiptPollMs, type ChainTiming } from './chain-reads.js';
import { receiptWatcher, type ReceiptWatcher } from './receipt-watcher.js';
import { jsonRpcFetch } from './json-rpc-fetch.js';
import { createNonceManager } from './nonce-manager.js';
import { transactionSigner, type TransactionSigner } from './transaction-signer.js';

// The relayer account's transactions (see relayer-facilitator.ts for how settlements use them): gas and
// fees, signing, broadcasting through the account's nonce manager (prepared in batches, each hash written
// ahead, then sent in nonce order: nonce-manager.ts), waiting
// for a receipt, fee bumps at the same account nonce and the filler at the fee cap. One instance per
// relayer key; its caches (token code, next block's fees) and the in-flight hashes are shared by every
// settlement it makes.

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

/** A settlement given up at the fee cap: every hash sent for it, its account nonce, and the filler sent there. */
export interface Stuck {
  transactions: Hex[];
  accountNonce: number;
  filler?: Hex;
}

/** What one settle's signer records: its submission, and the hook that writes each transaction ahead. */
export interface Track {
  submission: Submission;
  beforeBroadcast?: SettleOptions['beforeBroadcast'];
  writeAheadFailed?: unknown;
  /** What was sent, to re-send it at the same account nonce; every hash sent for it, oldest first. */
  sent?: { to: Hex; data: Hex; gas: bigint; nonce: number; fees: Fees; hashes: Hex[] };
  mined?: Hex;
  receipt?: TransactionReceipt;
  stuck?: Stuck;
}

export class RelayerTransactions {
  readonly account: ReturnType<typeof privateKeyToAccount>;
  readonly pub: ReturnType<typeof chainClient>;
  readonly chain: NonNullable<ReturnType<typeof chainClient>['chain']>;
  private readonly wallet: ReturnType<typeof createWalletClient>;
  /** Hash → when it was handed to the node, until its settle answers. */
  readonly inFlight = new Map<Hex, number>();
  private readonly nonces: ReturnType<typeof createNonceManager>;
  /** libsecp256k1 in WebAssembly: the same signed bytes as viem's account (./transaction-signer.ts). */
  private readonly signTransaction: TransactionSigner;
  private readonly codes = new Map<string, Hex>();
  private feeCache: { at: number; value: Promise<Fees> } | undefined;
  /** One watcher for every receipt this relayer waits for (receipt-watcher.ts). */
  private readonly receipts: ReceiptWatcher;

  constructor(readonly o: RelayerFacilitatorOptions) {
    this.account = privateKeyToAccount(o.relayerPrivateKey);
    this.signTransaction = transactionSigner(o.relayerPrivateKey);
    this.pub = chainClient(o.rpcUrl, o.network, o.timing);
    this.chain = this.pub.chain!;
    // No transport retries for writes: a retried eth_sendRawTransaction after a lost answer only adds noise.
    this.wallet = createWalletClient({
      account: this.account,
      chain: this.chain,
      transport: http(o.rpcUrl, { retryCount: 0, fetchFn: jsonRpcFetch }),
    });
    this.receipts = receiptWatcher(this.pub, { pollMs: receiptPollMs(this.pub), confirmation: o.timing?.confirmation });
    this.nonces = createNonceManager(() =>
      this.pub.getTransactionCount({ address: this.account.address, blockTag: 'pending' }),
    );
  }

  /**
   * Contract code, kept once seen: the token's code is asked for by every verify and does not change. An
   * account without code, or with an EIP-7702 delegation (0xef0100…, which its owner may change), is asked
   * again each time.
   */
  async codeOf(address: Hex): Promise<Hex | undefined> {
    const key = address.toLowerCase();
    const known = this.codes.get(key);
    if (known) return known;
    const code = await this.pub.getCode({ address });
    if (code && code !== '0x' && !code.toLowerCase().startsWith('0xef0100') && this.codes.size < 1_000)
      this.codes.set(key, code);
    return code;
  }

  /**
   * Fees for the next block, shared by the settlements signed within half a block of each other (the
   * node's base fee moves once per block): two requests per settlement would otherwise be repeated for
   * every one of them.
   */
  nextBlockFees(): Promise<Fees> {
    const now = Date.now();
    if (this.feeCache && now - this.feeCache.at < pollingFor(this.chain).cacheTime) return this.feeCache.value;
    const value = this.pub.estimateFeesPerGas({ chain: this.chain, type: 'eip1559' });
    this.feeCache = { at: now, value };
    value.catch(() => {
      if (this.feeCache?.value === value) this.feeCache = undefined;
    });
    return value;
  }

  /**
   * Estimate, then sign and broadcast. The estimate is the simulation right before the broadcast: the node
   * executes the call against its pending block, so a transfer that the transactions already waiting in its
   * pool would make revert (the payer moving its USDC away after the checkpoint) is refused here, unsent and
   * without gas (docs/decisions.md, "Authorizations the relayer can settle in time"). The block is named:
   * without one, go-ethereum estimates at `latest`, which does not see the pool.
   */
  async submit(to: Hex, data: Hex, track: Track): Promise<Hex> {
    let gas: bigint;
    let fees: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };
    try {
      [gas, fees] = await Promise.all([
        this.pub.estimateGas({ account: this.account.address, to, data, blockTag: 'pending' }),
        this.nextBlockFees(),
      ]);
    } catch (err) {
      // Nothing was signed yet, so nothing was sent, whichever way the node or the RPC failed.
      track.submission = refusedBeforeBroadcast(err)
        ? { stage: 'refused-before-broadcast' }
        : { stage: 'not-submitted' };
      throw err;
    }
    const { hash: transaction, nonce } = await this.nonces.broadcast({
      prepare: async (nonce) => {
        if (this.o.holdsKey && !this.o.holdsKey()) throw new Error('the relayer key lease was lost; not signing');
        const raw = await this.sign({ to, data, gas, nonce, fees });
        // The hash is known from the signed bytes: it is written ahead before the node sees them.
        const signed = keccak256(raw);
        if (track.beforeBroadcast) {
          try {
            await track.beforeBroadcast({
              transaction: signed,
              relayer: this.account.address,
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
        const hash = await this.wallet.sendRawTransaction({ serializedTransaction: raw });
        if (hash.toLowerCase() !== signed.toLowerCase()) throw new Error('node answered another transaction hash');
        return { hash, nonce };
      },
    });
    track.submission = { stage: 'sent', transaction };
    track.sent = { to, data, gas, nonce, fees, hashes: [transaction] };
    this.inFlight.set(transaction, Date.now());
    this.o.afterSubmit?.(transaction);
    return transaction;
  }

  sign(t: { to: Hex; data: Hex; gas: bigint; nonce: number; fees: Fees }) {
    return this.signTransaction(
      { chainId: this.chain.id, type: 'eip1559', to: t.to, data: t.data, gas: t.gas, nonce: t.nonce, ...t.fees },
      this.chain.serializers?.transaction,
    );
  }

  /**
   * The receipt of whichever transaction sent for this settlement is mined. Without one after `bump.blocks`
   * blocks, the same transaction is re-sent at the same account nonce with fees at least 12.5% higher (the
   * node's replacement minimum is 10%), written ahead like the first, up to `bump.maxFeePerGas`.
   */
  async receiptOf(hash: Hex, track: Track, timeoutMs: number): Promise<TransactionReceipt> {
    const sent = track.sent;
    if (!this.o.bump || !sent || sent.hashes[0] !== hash) {
      const receipt = await this.firstReceipt([hash], timeoutMs);
      if (!receipt) throw new WaitForTransactionReceiptTimeoutError({ hash });
      return receipt;
    }
    const deadline = Date.now() + timeoutMs;
    const blockMs = this.chain.blockTime ?? 2_000;
    for (;;) {
      const receipt = await this.firstReceipt(
        sent.hashes,
        Math.min(this.o.bump.blocks * blockMs, deadline - Date.now()),
      );
      if (receipt) {
        if (receipt.transactionHash !== hash) track.mined = receipt.transactionHash;
        return receipt;
      }
      if (Date.now() >= deadline) throw new WaitForTransactionReceiptTimeoutError({ hash });
      // A refused bump leaves the last one waiting.
      const bumped = await this.bumpFees(sent, track, this.o.bump).catch(() => 'refused' as const);
      if (bumped !== 'capped') continue;
      // A refused filler: one of ours may have been mined meanwhile (the node then calls the nonce too low).
      const filler = await this.fillNonce(sent).catch(() => this.firstReceipt(sent.hashes, 0));
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
  async fillNonce(sent: NonNullable<Track['sent']>): Promise<Hex | undefined> {
    if (this.o.holdsKey && !this.o.holdsKey()) return undefined; // another instance may sign at this nonce now
    const fees = await this.replacementFees(sent.fees);
    const raw = await this.sign({ to: this.account.address, data: '0x', gas: FILLER_GAS, nonce: sent.nonce, fees });
    const hash = await this.wallet.sendRawTransaction({ serializedTransaction: raw });
    this.o.onReplacement?.();
    return hash;
  }

  /** At least +12.5% on both fees (nodes take a replacement at +10%), or the node's fresh estimate if higher. */
  async replacementFees(last: Fees): Promise<Fees> {
    const up = (x: bigint) => (x * 1125n + 999n) / 1000n;
    const fresh = await this.pub.estimateFeesPerGas({ chain: this.chain, type: 'eip1559' }).catch(() => last);
    const maxFeePerGas = atLeast(up(last.maxFeePerGas), fresh.maxFeePerGas);
    const priority = atLeast(up(last.maxPriorityFeePerGas), fresh.maxPriorityFeePerGas);
    return { maxFeePerGas, maxPriorityFeePerGas: atMost(priority, maxFeePerGas) };
  }

  /** The first of `hashes` mined (as CONFIRMATION counts it: chain-reads.ts `receiptAt`) within `withinMs`. */
  async firstReceipt(hashes: Hex[], withinMs: number) {
    return (await this.receipts.first(hashes, withinMs))?.receipt;
  }

  async bumpFees(
    sent: NonNullable<Track['sent']>,
    track: Track,
    bump: FeeBump,
  ): Promise<'sent' | 'capped' | 'not-signed'> {
    const fees = await this.replacementFees(sent.fees);
    if (fees.maxFeePerGas > bump.maxFeePerGas) return 'capped'; // no replacement the node would take
    if (this.o.holdsKey && !this.o.holdsKey()) return 'not-signed'; // the lease is lost: another may sign at this nonce
    const raw = await this.sign({ ...sent, fees });
    const hash = keccak256(raw);
    await track.beforeBroadcast?.({
      transaction: hash,
      relayer: this.account.address,
      accountNonce: sent.nonce,
      gas: sent.gas,
      ...fees,
      replaces: sent.hashes.at(-1)!,
    });
    sent.hashes.push(hash);
    sent.fees = fees;
    await this.wallet.sendRawTransaction({ serializedTransaction: raw });
    this.o.onReplacement?.();
    return 'sent';
  }
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
