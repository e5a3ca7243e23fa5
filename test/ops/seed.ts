import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sha256Hex } from '@rights-preflight/wire/evidence/digest.js';
import { envelopeSigner } from '@rights-preflight/wire/evidence/envelope.js';
import { nodeByteSigner } from '../../src/evidence/sign-node.js';
import type { EventStore } from '../../src/store/port.js';
import { runCli } from '../../ops/cli.js';
import { decideToAppend } from '../support/decide-at.js';
import type { PurchaseCommandBody } from '../../streams/purchase/commands.js';
import type { PurchaseEventData } from '../../streams/purchase/events.js';
import { fold } from '../../streams/purchase/evolve.js';
import { purchaseId, streamName } from '../../streams/purchase/purchase-id.js';
import {
  ASSET,
  INPUT_SHA256,
  NETWORK,
  NOW,
  PAY_TO,
  PAYER,
  PRICE,
  SKU,
  TX,
  checkpointData,
  offeredData,
  quotedData,
  settledData,
  stuckData,
} from '../streams/purchase/fixtures.js';

// Seeds real purchase streams the way the service does: read, fold, decide, append at the folded
// revision. The fixtures sign with the seed 0x2a…2a, so the CLI runs with EVIDENCE_KEY = that seed.

export const EVIDENCE_SEED_HEX = '2a'.repeat(32);
const serviceSigner = envelopeSigner(nodeByteSigner(new Uint8Array(32).fill(42)));
const otherSigner = envelopeSigner(nodeByteSigner(new Uint8Array(32).fill(7)));

export const newPurchaseId = () =>
  purchaseId({ sku: SKU, key_sha256: sha256Hex(randomUUID()), input_sha256: INPUT_SHA256 });

export async function run(store: EventStore, id: string, command: PurchaseCommandBody): Promise<void> {
  const stream = streamName(id);
  const state = fold(await store.readStream(stream));
  const events = decideToAppend(command, state, NOW);
  await store.append(stream, events, state.version === 0 ? 'no_stream' : BigInt(state.version - 1));
}

export async function checkpointed(store: EventStore, id = newPurchaseId()): Promise<string> {
  await run(store, id, { type: 'Quote', data: quotedData({ purchase_id: id }) });
  await run(store, id, { type: 'Offer', data: offeredData() });
  await run(store, id, { type: 'CheckpointAuthorization', data: checkpointData() });
  return id;
}

/** Quoted → Offered → AuthorizationCheckpointed → LockStuck. */
export async function stuckPurchase(store: EventStore): Promise<string> {
  const id = await checkpointed(store);
  await run(store, id, { type: 'MarkLockStuck', data: stuckData() });
  return id;
}

export function deliveredData(
  id: string,
  opts: { signer?: 'service' | 'other'; transaction?: `0x${string}` } = {},
): PurchaseEventData<'Delivered'> {
  const signer = opts.signer === 'other' ? otherSigner : serviceSigner;
  const transaction = opts.transaction ?? TX;
  const evidence = signer.sign({
    type: 'evidence',
    purchase_id: id,
    input_sha256: INPUT_SHA256,
    legal_clearance: false,
    key_id: signer.keyId,
  });
  return {
    response: {
      report: { sku: SKU, purchase_id: id, legal_clearance: false, resources: [] },
      evidence,
      delivery_proof: serviceSigner.sign({
        type: 'delivery-proof',
        purchase_id: id,
        settlement: { network: NETWORK, transaction, payer: PAYER, amount: PRICE, asset: ASSET, pay_to: PAY_TO },
        key_id: serviceSigner.keyId,
      }),
      payment_settlement: { success: true, network: NETWORK, transaction },
    },
    payment_response: { success: true, transaction, network: NETWORK, payer: PAYER },
  };
}

/** A settled and delivered purchase; `signer: 'other'` makes its evidence signature not verify. */
export async function deliveredPurchase(
  store: EventStore,
  opts: { signer?: 'service' | 'other' } = {},
): Promise<string> {
  const id = await checkpointed(store);
  await run(store, id, { type: 'RecordSettlement', data: settledData() });
  await run(store, id, { type: 'Deliver', data: deliveredData(id, opts) });
  return id;
}

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The CLI as an operator runs it, in this process: `runCli` takes its configuration only from `env`, so the
 * answer is the one a child process gives, without a node and tsx start per call (about two seconds each).
 * Stores are closed by the caller first, as they would have to be for a second process.
 */
export async function cli(args: string[], env: Record<string, string>): Promise<CliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    args,
    { out: (l) => out.push(`${l}\n`), err: (l) => err.push(`${l}\n`) },
    { PATH: process.env.PATH ?? '', ...env },
  );
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/** The CLI as a real child process: for what only another process shows (the embedded store's lock, exit codes). */
export function cliProcess(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', 'ops/cli.ts', ...args],
      { cwd: repo, env: { PATH: process.env.PATH ?? '', ...env } },
      (err, stdout, stderr) => {
        const code = err
          ? typeof (err as { code?: unknown }).code === 'number'
            ? (err as { code: number }).code
            : -1
          : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
